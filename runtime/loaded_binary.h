// A loaded kernel binary and the functions looked up in it. Launches hold the binary through
// a shared_ptr, so unloading with launches in flight is safe: the code stays mapped until the
// last queued launch has run.
#pragma once

#include "kernel_args.h"
#include "kernel_binary.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace aclcpu {

struct LoadedBinary;

struct KernelFunction {
  LoadedBinary *binary = nullptr;
  std::string name;
  aclcpuKernelEntry entry = nullptr;
  std::mutex mutex;  // guards the argument handles below
  std::vector<std::unique_ptr<KernelArgs>> runtimeArgs;  // aclrtKernelArgsInit
  std::vector<const void *> userArgs;                    // aclrtKernelArgsInitByUserMem

  ~KernelFunction();
};

struct LoadedBinary : std::enable_shared_from_this<LoadedBinary> {
  std::unique_ptr<KernelBinary> code;
  ElfImage image;
  std::mutex mutex;  // guards functions
  std::map<std::string, std::shared_ptr<KernelFunction>> functions;
};

}  // namespace aclcpu
