// Kernel launch overhead and a memory-bound kernel beside memcpy: launch + synchronize of an
// empty kernel (1 and 64 blocks) and vector add on 64 MiB arrays, in GB/s of traffic
// (two reads and one write per element) beside a memcpy moving the same bytes.
#include "acl/acl.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace {

struct KernelRuntime {
  aclrtStream stream = nullptr;
  aclrtBinHandle binary = nullptr;
  aclrtFuncHandle function = nullptr;
  bool ok = false;

  KernelRuntime(const char *file, const char *kernel) {
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtCreateStream(&stream);
    std::string path = std::string(ACLCPU_KERNEL_DIR) + "/" + file;
    ok = aclrtBinaryLoadFromFile(path.c_str(), nullptr, &binary) == ACL_SUCCESS &&
         aclrtBinaryGetFunction(binary, kernel, &function) == ACL_SUCCESS;
  }
  ~KernelRuntime() {
    aclrtBinaryUnLoad(binary);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
  }
};

void BM_EmptyKernelLaunchSynchronize(benchmark::State &state) {
  KernelRuntime runtime("test_kernels.o", "empty_kernel");
  if (!runtime.ok) return state.SkipWithError(aclGetRecentErrMsg());
  aclrtArgsHandle args = nullptr;
  aclrtKernelArgsInit(runtime.function, &args);
  aclrtKernelArgsFinalize(args);
  uint32_t blocks = static_cast<uint32_t>(state.range(0));
  for (auto _ : state) {
    aclrtLaunchKernelWithConfig(runtime.function, blocks, runtime.stream, nullptr, args, nullptr);
    aclrtSynchronizeStream(runtime.stream);
  }
}
BENCHMARK(BM_EmptyKernelLaunchSynchronize)->Arg(1)->Arg(64)->UseRealTime();

void BM_VectorAddKernel(benchmark::State &state) {
  KernelRuntime runtime("vector_add.o", "add_custom");
  if (!runtime.ok) return state.SkipWithError(aclGetRecentErrMsg());
  const uint32_t n = (64u << 20) / sizeof(float);
  void *x = nullptr, *y = nullptr, *z = nullptr;
  aclrtMalloc(&x, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&y, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&z, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemset(x, n * 4, 0, n * 4);
  aclrtMemset(y, n * 4, 0, n * 4);
  aclrtMemset(z, n * 4, 0, n * 4);
  aclrtArgsHandle args = nullptr;
  aclrtParamHandle param = nullptr;
  aclrtKernelArgsInit(runtime.function, &args);
  aclrtKernelArgsAppend(args, &x, sizeof(x), &param);
  aclrtKernelArgsAppend(args, &y, sizeof(y), &param);
  aclrtKernelArgsAppend(args, &z, sizeof(z), &param);
  aclrtKernelArgsAppend(args, const_cast<uint32_t *>(&n), sizeof(n), &param);
  aclrtKernelArgsFinalize(args);
  uint32_t blocks = static_cast<uint32_t>(state.range(0));
  for (auto _ : state) {
    aclrtLaunchKernelWithConfig(runtime.function, blocks, runtime.stream, nullptr, args, nullptr);
    aclrtSynchronizeStream(runtime.stream);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * 3 * int64_t(n) * 4);
  aclrtFree(x);
  aclrtFree(y);
  aclrtFree(z);
}
BENCHMARK(BM_VectorAddKernel)->Arg(1)->Arg(2)->Arg(64)->UseRealTime()->Unit(benchmark::kMillisecond);

// The same traffic as vector add (3 x 64 MiB) through memcpy: read 64 MiB twice, write 64 MiB.
void BM_MemcpySameTraffic(benchmark::State &state) {
  const size_t bytes = 64u << 20;
  auto *a = static_cast<char *>(aligned_alloc(64, bytes)), *b = static_cast<char *>(aligned_alloc(64, bytes));
  memset(a, 1, bytes);
  memset(b, 0, bytes);
  for (auto _ : state) {
    memcpy(b, a, bytes / 2);  // reads 32 MiB, writes 32 MiB
    memcpy(b + bytes / 2, a + bytes / 2, bytes / 2);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * 2 * int64_t(bytes));
  free(a);
  free(b);
}
BENCHMARK(BM_MemcpySameTraffic)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
