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
  float alpha = 2.0f, beta = 0.0f, a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 0, 0, 1, 1, 1}, c[4] = {0};
  void *devA = NULL, *devB = NULL, *devC = NULL, *devAlpha = NULL, *devBeta = NULL;
  if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_ERROR_NONE) return 1;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 2;
  if (aclrtMalloc(&dev, sizeof(text), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 3;
  if (aclrtMemcpyAsync(dev, sizeof(text), text, sizeof(text), ACL_MEMCPY_HOST_TO_DEVICE, stream) != ACL_SUCCESS) return 4;
  if (aclrtMemcpyAsync(back, sizeof(back), dev, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST, stream) != ACL_SUCCESS) return 5;
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS || strcmp(back, text) != 0) return 6;
  /* C = 2 * A(2x3) * B(3x2) through the cblas wrapper, compiled on first use. */
  if (aclrtMalloc(&devA, sizeof(a), ACL_MEM_MALLOC_HUGE_FIRST) || aclrtMalloc(&devB, sizeof(b), ACL_MEM_MALLOC_HUGE_FIRST) ||
      aclrtMalloc(&devC, sizeof(c), ACL_MEM_MALLOC_HUGE_FIRST) || aclrtMalloc(&devAlpha, 4, ACL_MEM_MALLOC_HUGE_FIRST) ||
      aclrtMalloc(&devBeta, 4, ACL_MEM_MALLOC_HUGE_FIRST))
    return 7;
  aclrtMemcpy(devA, sizeof(a), a, sizeof(a), ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(devB, sizeof(b), b, sizeof(b), ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(devAlpha, 4, &alpha, 4, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(devBeta, 4, &beta, 4, ACL_MEMCPY_HOST_TO_DEVICE);
  if (aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 3, devAlpha, devA, -1, ACL_FLOAT, devB, -1, ACL_FLOAT,
                    devBeta, devC, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream) != ACL_SUCCESS)
    return 8;
  if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) return 8;
  aclrtMemcpy(c, sizeof(c), devC, sizeof(c), ACL_MEMCPY_DEVICE_TO_HOST);
  /* A * B = [[1+3, 2+3], [4+6, 5+6]] = [[4, 5], [10, 11]] */
  if (c[0] != 8 || c[1] != 10 || c[2] != 20 || c[3] != 22) return 8;
  if (aclblasCreateHandleForHgemm(ACL_TRANS_NZ, ACL_TRANS_N, ACL_TRANS_N, 2, 2, 2, ACL_COMPUTE_HIGH_PRECISION, &handle) !=
          ACL_ERROR_API_NOT_SUPPORT ||
      aclGetRecentErrMsg() == NULL)
    return 8;
  aclrtFree(devA);
  aclrtFree(devB);
  aclrtFree(devC);
  aclrtFree(devAlpha);
  aclrtFree(devBeta);
  if (aclrtFree(dev) != ACL_SUCCESS || aclrtDestroyStream(stream) != ACL_SUCCESS) return 9;
  if (aclrtResetDevice(0) != ACL_SUCCESS || aclFinalize() != ACL_SUCCESS) return 10;
  if (ACL_ERROR_RT_PARAM_INVALID != 107000 || ACL_ERROR_RT_STREAM_SYNC_TIMEOUT != 507046) return 11;
  printf("C99 consumer: ok\n");
  return 0;
}
