// Parses acl.json (known sections accepted, unknown keys ignored) and ACLCPU_* variables.
#include "config.h"

#include "diagnostics.h"
#include "usable_cores.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace aclcpu {
namespace {

constexpr size_t kMaxConfigFileBytes = 16u << 20;
constexpr uint64_t kMaxDevices = 64;
constexpr uint64_t kMaxThreads = 1024;

size_t physicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return size_t(8) << 30;
  return static_cast<size_t>(pages) * static_cast<size_t>(pageSize);
}

// Parses a whole decimal number in [lo, hi]; false if the text is anything else.
bool parseUnsigned(const char *text, uint64_t lo, uint64_t hi, uint64_t &out) {
  if (text == nullptr || *text == '\0' || *text == '-') return false;
  errno = 0;
  char *end = nullptr;
  unsigned long long value = strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0' || value < lo || value > hi) return false;
  out = value;
  return true;
}

aclError applyEnvironment(RuntimeConfig &config) {
  struct Variable {
    const char *name;
    uint64_t lo, hi;
  };
  uint64_t value = 0;
  auto read = [&](const Variable &v, bool &present) -> aclError {
    const char *text = getenv(v.name);
    present = text != nullptr && *text != '\0';
    if (!present) return ACL_SUCCESS;
    if (!parseUnsigned(text, v.lo, v.hi, value))
      return reportError(ACL_ERROR_INVALID_PARAM, "aclInit",
                         "environment variable %s='%s' is not a whole number in [%llu, %llu]", v.name, text,
                         static_cast<unsigned long long>(v.lo), static_cast<unsigned long long>(v.hi));
    return ACL_SUCCESS;
  };
  bool present = false;
  aclError err;
  if ((err = read({"ACLCPU_NUM_DEVICES", 1, kMaxDevices}, present))) return err;
  if (present) config.numDevices = static_cast<unsigned>(value);
  if ((err = read({"ACLCPU_NUM_THREADS", 1, kMaxThreads}, present))) return err;
  if (present) config.numThreads = static_cast<unsigned>(value);
  if ((err = read({"ACLCPU_DEVICE_MEMORY_MB", 1, uint64_t(1) << 30}, present))) return err;
  if (present) config.deviceMemoryLimit = static_cast<size_t>(value) << 20;
  if ((err = read({"ACLCPU_CHECK", 0, 1}, present))) return err;
  if (present) config.checkedMode = value == 1;
  if ((err = read({"ACLCPU_SYNC", 0, 1}, present))) return err;
  if (present) config.syncMode = value == 1;
  if ((err = read({"ACLCPU_SPIN_US", 0, 1000000}, present))) return err;
  if (present) config.spin = std::chrono::microseconds(value);
  return ACL_SUCCESS;
}

// The "aclcpu" section: {"num_devices": 2, "num_threads": 4, "device_memory_mb": 512,
// "check": true, "sync": false, "spin_us": 50}.
aclError applyAclcpuSection(const nlohmann::json &section, const char *path, RuntimeConfig &config) {
  if (!section.is_object())
    return reportError(ACL_ERROR_PARSE_FILE, "aclInit", "%s: \"aclcpu\" must be an object", path);
  for (auto it = section.begin(); it != section.end(); ++it) {
    const std::string &key = it.key();
    const nlohmann::json &value = it.value();
    bool isBool = key == "check" || key == "sync";
    if (isBool) {
      if (!value.is_boolean())
        return reportError(ACL_ERROR_PARSE_FILE, "aclInit", "%s: aclcpu.%s must be true or false", path,
                           key.c_str());
      (key == "check" ? config.checkedMode : config.syncMode) = value.get<bool>();
      continue;
    }
    uint64_t hi = key == "num_devices" ? kMaxDevices : key == "num_threads" ? kMaxThreads : uint64_t(1) << 30;
    bool known = key == "num_devices" || key == "num_threads" || key == "device_memory_mb" || key == "spin_us";
    if (!known) {
      ACLCPU_LOG_DEBUG("%s: ignoring unknown key aclcpu.%s", path, key.c_str());
      continue;
    }
    uint64_t lo = key == "spin_us" ? 0 : 1;
    if (!value.is_number_unsigned() || value.get<uint64_t>() < lo || value.get<uint64_t>() > hi)
      return reportError(ACL_ERROR_PARSE_FILE, "aclInit", "%s: aclcpu.%s must be a whole number in [%llu, %llu]",
                         path, key.c_str(), static_cast<unsigned long long>(lo),
                         static_cast<unsigned long long>(hi));
    uint64_t n = value.get<uint64_t>();
    if (key == "num_devices") config.numDevices = static_cast<unsigned>(n);
    if (key == "num_threads") config.numThreads = static_cast<unsigned>(n);
    if (key == "device_memory_mb") config.deviceMemoryLimit = static_cast<size_t>(n) << 20;
    if (key == "spin_us") config.spin = std::chrono::microseconds(n);
  }
  return ACL_SUCCESS;
}

aclError applyConfigFile(const char *path, RuntimeConfig &config) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    return reportError(ACL_ERROR_INVALID_FILE, "aclInit", "cannot open config file '%s'", path);
  std::ostringstream contents;
  contents << file.rdbuf();
  std::string text = contents.str();
  if (text.size() > kMaxConfigFileBytes)
    return reportError(ACL_ERROR_INVALID_FILE_SIZE, "aclInit", "config file '%s' is larger than %zu bytes", path,
                       kMaxConfigFileBytes);
  // An empty file is accepted like "{}", as CANN does.
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return ACL_SUCCESS;
  nlohmann::json root = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded())
    return reportError(ACL_ERROR_PARSE_FILE, "aclInit", "config file '%s' is not valid JSON", path);
  if (!root.is_object())
    return reportError(ACL_ERROR_PARSE_FILE, "aclInit", "config file '%s' must hold a JSON object", path);
  for (auto it = root.begin(); it != root.end(); ++it) {
    if (it.key() == "aclcpu") {
      if (aclError err = applyAclcpuSection(it.value(), path, config)) return err;
    } else if (it.key() == "dump" || it.key() == "profiler" || it.key() == "dump_debug") {
      if (!it.value().is_object())
        return reportError(ACL_ERROR_PARSE_FILE, "aclInit", "%s: section \"%s\" must be an object", path,
                           it.key().c_str());
      ACLCPU_LOG_DEBUG("%s: section \"%s\" accepted; aclcpu does not dump or profile", path, it.key().c_str());
    } else {
      ACLCPU_LOG_DEBUG("%s: ignoring unknown key \"%s\"", path, it.key().c_str());
    }
  }
  return ACL_SUCCESS;
}

}  // namespace

aclError loadRuntimeConfig(const char *configPath, RuntimeConfig &config) {
  config = RuntimeConfig{};
  if (configPath != nullptr && *configPath != '\0') {
    if (aclError err = applyConfigFile(configPath, config)) return err;
  }
  if (aclError err = applyEnvironment(config)) return err;
  config.usableCores = usableCores();
  if (config.numThreads == 0) config.numThreads = config.usableCores;
  if (config.deviceMemoryLimit == 0) config.deviceMemoryLimit = physicalMemoryBytes();
  return ACL_SUCCESS;
}

}  // namespace aclcpu
