// Runtime overheads side by side with their floor: enqueue + synchronize of an empty task,
// an event round trip across streams, and async copy bandwidth beside plain memcpy.
#include "acl/acl.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

void check(aclError error, benchmark::State &state, const char *what) {
  if (error != ACL_SUCCESS) state.SkipWithError(what);
}

struct Runtime {
  Runtime() {
    aclInit(nullptr);
    aclrtSetDevice(0);
  }
  ~Runtime() {
    aclrtResetDevice(0);
    aclFinalize();
  }
};

// An event record is the cheapest task: enqueue, run on a worker, complete, wake the caller.
void BM_EmptyTaskEnqueueSynchronize(benchmark::State &state) {
  Runtime runtime;
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  check(aclrtCreateStream(&stream), state, "create stream");
  check(aclrtCreateEvent(&event), state, "create event");
  for (auto _ : state) {
    aclrtRecordEvent(event, stream);
    aclrtSynchronizeStream(stream);
  }
  aclrtDestroyEvent(event);
  aclrtDestroyStream(stream);
}
BENCHMARK(BM_EmptyTaskEnqueueSynchronize)->UseRealTime();

// Record on stream A, wait on stream B, synchronize B: one cross-stream hand-off per iteration.
void BM_EventRoundTripAcrossStreams(benchmark::State &state) {
  Runtime runtime;
  aclrtStream a = nullptr, b = nullptr;
  aclrtEvent event = nullptr;
  check(aclrtCreateStream(&a), state, "create stream");
  check(aclrtCreateStream(&b), state, "create stream");
  check(aclrtCreateEvent(&event), state, "create event");
  for (auto _ : state) {
    aclrtRecordEvent(event, a);
    aclrtStreamWaitEvent(b, event);
    aclrtRecordEvent(event, b);
    aclrtSynchronizeStream(b);
  }
  aclrtDestroyEvent(event);
  aclrtDestroyStream(a);
  aclrtDestroyStream(b);
}
BENCHMARK(BM_EventRoundTripAcrossStreams)->UseRealTime();

void BM_MemcpyAsyncDeviceToDevice(benchmark::State &state) {
  Runtime runtime;
  size_t bytes = static_cast<size_t>(state.range(0));
  void *src = nullptr, *dst = nullptr;
  aclrtStream stream = nullptr;
  check(aclrtMalloc(&src, bytes, ACL_MEM_MALLOC_HUGE_FIRST), state, "malloc");
  check(aclrtMalloc(&dst, bytes, ACL_MEM_MALLOC_HUGE_FIRST), state, "malloc");
  check(aclrtCreateStream(&stream), state, "create stream");
  aclrtMemset(src, bytes, 1, bytes);
  aclrtMemset(dst, bytes, 0, bytes);
  for (auto _ : state) {
    aclrtMemcpyAsync(dst, bytes, src, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, stream);
    aclrtSynchronizeStream(stream);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
  aclrtDestroyStream(stream);
  aclrtFree(src);
  aclrtFree(dst);
}
BENCHMARK(BM_MemcpyAsyncDeviceToDevice)->Arg(4 << 10)->Arg(1 << 20)->Arg(64 << 20)->UseRealTime();

void BM_PlainMemcpy(benchmark::State &state) {
  size_t bytes = static_cast<size_t>(state.range(0));
  void *src = aligned_alloc(64, bytes), *dst = aligned_alloc(64, bytes);
  memset(src, 1, bytes);
  memset(dst, 0, bytes);
  for (auto _ : state) {
    memcpy(dst, src, bytes);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
  free(src);
  free(dst);
}
BENCHMARK(BM_PlainMemcpy)->Arg(4 << 10)->Arg(1 << 20)->Arg(64 << 20)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
