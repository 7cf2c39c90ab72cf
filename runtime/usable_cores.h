// How many cores this process may keep busy at once. std::thread::hardware_concurrency() counts
// the machine's online CPUs, not those the process may use: under `taskset -c 0`, a cpuset
// cgroup or a container's CPU quota it overstated them, and a thread waiting on a worker spun
// beside it on the one CPU both shared (1 thread, 512^3 f32 under taskset -c 0: mean call
// 2.8 ms against a median of 1.4; a tenth of the calls took 6.6 ms).
#pragma once

namespace aclcpu {

// The CPUs of the calling thread's affinity mask, fewer where a cgroup CPU quota (v2 cpu.max,
// v1 cpu.cfs_quota_us) grants less time than they would use, rounded up; at least 1.
unsigned usableCores();

// A quota as whole cores, rounded up (150000 of every 100000 us: 2); 0 for none ("max"), or
// for a quota or period that is not a positive number.
unsigned coresOfQuota(const char *quota, const char *period);

}  // namespace aclcpu
