// The cores a process may use: its affinity mask and its cgroups' CPU quotas.
#include "usable_cores.h"

#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

namespace aclcpu {

namespace {

// A whole positive number, or 0.
long long positive(const char *text) {
  if (text == nullptr || *text < '0' || *text > '9') return 0;
  char *end = nullptr;
  long long value = strtoll(text, &end, 10);
  return *end == '\0' && value > 0 ? value : 0;
}

// The tighter of two quotas in cores, 0 meaning none.
unsigned tighter(unsigned a, unsigned b) { return a == 0 || (b != 0 && b < a) ? b : a; }

std::string firstLine(const std::string &path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line;
}

// The tightest quota of a cgroup and its ancestors, in cores (0: none). `path` is the
// process's cgroup below `mount`; `read` gives one cgroup directory's quota.
template <typename ReadQuota>
unsigned tightestQuota(const std::string &mount, std::string path, ReadQuota read) {
  unsigned tightest = 0;
  for (;;) {
    tightest = tighter(tightest, read(mount + path));
    if (path.empty() || path == "/") return tightest;
    path.erase(path.find_last_of('/'));
  }
}

// The quota of the process's cgroups: v2 ("0::/path" in /proc/self/cgroup, "quota period" in
// cpu.max) and v1 (the "cpu" controller's cpu.cfs_quota_us, -1 for none, and cpu.cfs_period_us);
// a hybrid system lists both.
unsigned cgroupQuotaCores() {
  unsigned tightest = 0;
  std::ifstream cgroups("/proc/self/cgroup");
  std::string line;
  while (std::getline(cgroups, line)) {
    size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    std::string controllers = line.substr(first + 1, second - first - 1), path = line.substr(second + 1);
    if (controllers.empty())
      tightest = tighter(tightest, tightestQuota("/sys/fs/cgroup", path, [](const std::string &dir) {
        std::string max = firstLine(dir + "/cpu.max");
        size_t space = max.find(' ');
        if (space == std::string::npos) return 0u;
        return coresOfQuota(max.substr(0, space).c_str(), max.substr(space + 1).c_str());
      }));
    else if (("," + controllers + ",").find(",cpu,") != std::string::npos)
      tightest = tighter(tightest, tightestQuota("/sys/fs/cgroup/cpu", path, [](const std::string &dir) {
        return coresOfQuota(firstLine(dir + "/cpu.cfs_quota_us").c_str(),
                            firstLine(dir + "/cpu.cfs_period_us").c_str());
      }));
  }
  return tightest;
}

}  // namespace

unsigned coresOfQuota(const char *quota, const char *period) {
  long long microseconds = positive(quota), every = positive(period);
  if (microseconds == 0 || every == 0) return 0;
  return static_cast<unsigned>(std::min<long long>((microseconds + every - 1) / every, 1 << 20));
}

unsigned usableCores() {
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  cpu_set_t mask;
  if (sched_getaffinity(0, sizeof(mask), &mask) == 0) cores = std::max(1, CPU_COUNT(&mask));
  return tighter(cores, cgroupQuotaCores());
}

}  // namespace aclcpu
