// Claims a kernel ABI version the runtime does not have.
#include "aclcpu/kernel.h"

extern "C" ACLCPU_KERNEL_EXPORT const uint32_t future_kernel__aclcpu_abi = ACLCPU_KERNEL_ABI_VERSION + 1;
extern "C" ACLCPU_KERNEL_EXPORT int32_t future_kernel(const void *, const aclcpuBlockCtx *) { return 0; }
