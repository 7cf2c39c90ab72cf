// The kernel-binary API (issue 3) is not implemented yet: every entry point returns
// ACL_ERROR_API_NOT_SUPPORT with a message, so programs link and fail cleanly.
#include "acl/acl_rt.h"
#include "diagnostics.h"

#define ACLCPU_PENDING() \
  ACLCPU_FAIL(ACL_ERROR_API_NOT_SUPPORT, "kernel binaries are not supported yet in aclcpu (see README)")

extern "C" {
aclError aclrtBinaryLoadFromFile(const char *, aclrtBinaryLoadOptions *, aclrtBinHandle *) { return ACLCPU_PENDING(); }
aclError aclrtBinaryLoadFromData(const void *, size_t, const aclrtBinaryLoadOptions *, aclrtBinHandle *) {
  return ACLCPU_PENDING();
}
aclError aclrtBinaryGetFunction(const aclrtBinHandle, const char *, aclrtFuncHandle *) { return ACLCPU_PENDING(); }
aclError aclrtBinaryUnLoad(aclrtBinHandle) { return ACLCPU_PENDING(); }
aclError aclrtKernelArgsInit(aclrtFuncHandle, aclrtArgsHandle *) { return ACLCPU_PENDING(); }
aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle, aclrtArgsHandle, void *, size_t) { return ACLCPU_PENDING(); }
aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle, size_t, size_t *) { return ACLCPU_PENDING(); }
aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle, size_t *) { return ACLCPU_PENDING(); }
aclError aclrtKernelArgsAppend(aclrtArgsHandle, void *, size_t, aclrtParamHandle *) { return ACLCPU_PENDING(); }
aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle, aclrtParamHandle *) { return ACLCPU_PENDING(); }
aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle, aclrtParamHandle, size_t, void **) {
  return ACLCPU_PENDING();
}
aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle, aclrtParamHandle, void *, size_t) { return ACLCPU_PENDING(); }
aclError aclrtKernelArgsFinalize(aclrtArgsHandle) { return ACLCPU_PENDING(); }
aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle, uint32_t, aclrtStream, aclrtLaunchKernelCfg *, aclrtArgsHandle,
                                     void *) {
  return ACLCPU_PENDING();
}
aclError aclrtLaunchKernel(aclrtFuncHandle, uint32_t, const void *, size_t, aclrtStream) { return ACLCPU_PENDING(); }
}
