// The single-operator call flow of the vendor documentation, on aclcpu: compile GEMM and Cast
// with aclopCompile, allocate device memory, run them through handles on a stream, synchronize,
// check against a host computation, free. Prints GEMM GFLOP/s.
#include "acl_check.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main() {
  const int64_t m = 512, n = 512, k = 512;
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));

  // 1. Describe and compile the operators (C = alpha * A * B + beta * C, then Cast C to fp16).
  int64_t aDims[] = {m, k}, bDims[] = {k, n}, cDims[] = {m, n};
  aclTensorDesc *a = aclCreateTensorDesc(ACL_FLOAT, 2, aDims, ACL_FORMAT_ND);
  aclTensorDesc *b = aclCreateTensorDesc(ACL_FLOAT, 2, bDims, ACL_FORMAT_ND);
  aclTensorDesc *c = aclCreateTensorDesc(ACL_FLOAT, 2, cDims, ACL_FORMAT_ND);
  aclTensorDesc *scalar = aclCreateTensorDesc(ACL_FLOAT, 0, nullptr, ACL_FORMAT_ND);
  aclTensorDesc *half = aclCreateTensorDesc(ACL_FLOAT16, 2, cDims, ACL_FORMAT_ND);
  aclopAttr *gemmAttr = aclopCreateAttr();
  CHECK(aclopSetAttrBool(gemmAttr, "transpose_a", 0));
  CHECK(aclopSetAttrBool(gemmAttr, "transpose_b", 0));
  aclopAttr *castAttr = aclopCreateAttr();
  CHECK(aclopSetAttrInt(castAttr, "dst_type", ACL_FLOAT16));
  const aclTensorDesc *gemmInputs[] = {a, b, c, scalar, scalar};
  const aclTensorDesc *gemmOutputs[] = {c};
  const aclTensorDesc *castInputs[] = {c};
  const aclTensorDesc *castOutputs[] = {half};
  auto compileStart = std::chrono::steady_clock::now();
  CHECK(aclopCompile("GEMM", 5, gemmInputs, 1, gemmOutputs, gemmAttr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr));
  CHECK(aclopCompile("Cast", 1, castInputs, 1, castOutputs, castAttr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr));
  double compileMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - compileStart).count();
  aclopHandle *gemm = nullptr, *cast = nullptr;
  CHECK(aclopCreateHandle("GEMM", 5, gemmInputs, 1, gemmOutputs, gemmAttr, &gemm));
  CHECK(aclopCreateHandle("Cast", 1, castInputs, 1, castOutputs, castAttr, &cast));

  // 2. Device memory and data.
  std::vector<float> hostA(m * k), hostB(k * n), hostC(m * n), result(m * n);
  srand(7);
  for (float &v : hostA) v = rand() / float(RAND_MAX) - 0.5f;
  for (float &v : hostB) v = rand() / float(RAND_MAX) - 0.5f;
  const float alpha = 1.0f, beta = 0.0f;
  void *devA, *devB, *devC, *devAlpha, *devBeta, *devHalf;
  CHECK(aclrtMalloc(&devA, m * k * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&devB, k * n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&devC, m * n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&devAlpha, 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&devBeta, 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&devHalf, m * n * 2, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(devA, m * k * 4, hostA.data(), m * k * 4, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(devB, k * n * 4, hostB.data(), k * n * 4, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(devAlpha, 4, &alpha, 4, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(devBeta, 4, &beta, 4, ACL_MEMCPY_HOST_TO_DEVICE));
  aclDataBuffer *bufA = aclCreateDataBuffer(devA, m * k * 4), *bufB = aclCreateDataBuffer(devB, k * n * 4);
  aclDataBuffer *bufC = aclCreateDataBuffer(devC, m * n * 4), *bufHalf = aclCreateDataBuffer(devHalf, m * n * 2);
  aclDataBuffer *bufAlpha = aclCreateDataBuffer(devAlpha, 4), *bufBeta = aclCreateDataBuffer(devBeta, 4);

  // 3. Execute through the handles, timed over several runs.
  const aclDataBuffer *gemmIn[] = {bufA, bufB, bufC, bufAlpha, bufBeta};
  aclDataBuffer *gemmOut[] = {bufC};
  const aclDataBuffer *castIn[] = {bufC};
  aclDataBuffer *castOut[] = {bufHalf};
  CHECK(aclopExecWithHandle(gemm, 5, gemmIn, 1, gemmOut, stream));  // warm-up
  CHECK(aclrtSynchronizeStream(stream));
  const int runs = 10;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < runs; ++i) CHECK(aclopExecWithHandle(gemm, 5, gemmIn, 1, gemmOut, stream));
  CHECK(aclrtSynchronizeStream(stream));
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / runs;
  CHECK(aclopExecWithHandle(cast, 1, castIn, 1, castOut, stream));
  CHECK(aclrtSynchronizeStream(stream));

  // 4. Check against the host.
  CHECK(aclrtMemcpy(result.data(), m * n * 4, devC, m * n * 4, ACL_MEMCPY_DEVICE_TO_HOST));
  std::vector<aclFloat16> halfResult(m * n);
  CHECK(aclrtMemcpy(halfResult.data(), m * n * 2, devHalf, m * n * 2, ACL_MEMCPY_DEVICE_TO_HOST));
  double maxError = 0;
  int wrongHalf = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double expected = 0;
      for (int64_t p = 0; p < k; ++p) expected += double(hostA[i * k + p]) * hostB[p * n + j];
      maxError = std::max(maxError, std::fabs(expected - result[i * n + j]));
      wrongHalf += halfResult[i * n + j] != aclFloatToFloat16(result[i * n + j]);
    }
  printf("GEMM %lldx%lldx%lld fp32: %.2f ms, %.1f GFLOP/s; max |error| %.2e; Cast to fp16: %d mismatches; "
         "compile of both %.0f ms\n",
         (long long)m, (long long)n, (long long)k, seconds * 1e3, 2.0 * m * n * k / seconds / 1e9, maxError, wrongHalf,
         compileMs);

  // 5. Free.
  for (aclDataBuffer *buffer : {bufA, bufB, bufC, bufHalf, bufAlpha, bufBeta}) aclDestroyDataBuffer(buffer);
  for (void *device : {devA, devB, devC, devAlpha, devBeta, devHalf}) CHECK(aclrtFree(device));
  aclopDestroyHandle(gemm);
  aclopDestroyHandle(cast);
  aclopDestroyAttr(gemmAttr);
  aclopDestroyAttr(castAttr);
  for (aclTensorDesc *desc : {a, b, c, scalar, half}) aclDestroyTensorDesc(desc);
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  bool passed = maxError < 1e-3 && wrongHalf == 0;
  printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}
