// Runtime configuration: defaults, then the "aclcpu" section of the acl.json given to aclInit,
// then ACLCPU_* environment variables (the environment wins, so a run can override a file).
#pragma once

#include "acl/acl_base.h"

#include <chrono>
#include <cstddef>
#include <string>

namespace aclcpu {

struct RuntimeConfig {
  unsigned numDevices = 1;
  unsigned numThreads = 0;            // worker threads per device; 0 = one per usable core
  unsigned usableCores = 1;           // the process's usable cores (usable_cores.h), when loaded
  size_t deviceMemoryLimit = 0;       // bytes per device; 0 = physical memory
  bool checkedMode = false;           // ACLCPU_CHECK=1: validate every pointer against the table
  bool syncMode = false;              // ACLCPU_SYNC=1: run every task inline at enqueue
  std::chrono::nanoseconds spin{std::chrono::microseconds(50)};
};

// Fills `config` from `configPath` (may be NULL or empty) and the environment. Returns an ACL
// error code with the recent error message set when the file or a variable is invalid.
aclError loadRuntimeConfig(const char *configPath, RuntimeConfig &config);

}  // namespace aclcpu
