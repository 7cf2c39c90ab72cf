/* Compiled as C99: the public headers work from C, and a C program runs the basic flow. */
#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"
#include "acl/error_codes/rt_error_codes.h"

#include <stdio.h>
#include <string.h>

int main(void) {
  aclrtStream stream = NULL;
  void *dev = NULL;
  char text[16] = "hello, device";
  char back[16] = {0};
  aclopHandle *handle = NULL;
  if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_ERROR_NONE) return 1;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 2;
  if (aclrtMalloc(&dev, sizeof(text), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 3;
  if (aclrtMemcpyAsync(dev, sizeof(text), text, sizeof(text), ACL_MEMCPY_HOST_TO_DEVICE, stream) != ACL_SUCCESS) return 4;
  if (aclrtMemcpyAsync(back, sizeof(back), dev, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST, stream) != ACL_SUCCESS) return 5;
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS || strcmp(back, text) != 0) return 6;
  /* Not implemented yet: a clean error code and message, not a crash. */
  if (aclblasCreateHandleForHgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, ACL_COMPUTE_HIGH_PRECISION,
                                  &handle) != ACL_ERROR_API_NOT_SUPPORT)
    return 7;
  if (aclGetRecentErrMsg() == NULL) return 8;
  if (aclrtFree(dev) != ACL_SUCCESS || aclrtDestroyStream(stream) != ACL_SUCCESS) return 9;
  if (aclrtResetDevice(0) != ACL_SUCCESS || aclFinalize() != ACL_SUCCESS) return 10;
  if (ACL_ERROR_RT_PARAM_INVALID != 107000 || ACL_ERROR_RT_STREAM_SYNC_TIMEOUT != 507046) return 11;
  printf("C99 consumer: ok\n");
  return 0;
}
