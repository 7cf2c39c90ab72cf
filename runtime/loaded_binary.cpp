// Releasing a kernel function releases the argument handles built for it.
#include "loaded_binary.h"

namespace aclcpu {

KernelFunction::~KernelFunction() {
  for (auto &args : runtimeArgs) releaseRuntimeArgs(args.get());
  for (const void *handle : userArgs) forgetArgs(handle);
}

}  // namespace aclcpu
