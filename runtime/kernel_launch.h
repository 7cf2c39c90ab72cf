// The block dispatcher: a kernel launch is one stream task that fans its blocks out over the
// device's worker pool. Workers claim chunks of block indices from an atomic counter (no
// allocation per block); the worker running the stream takes part, and one block or one
// worker runs inline. Each worker thread has its own scratch memory.
#pragma once

#include "aclcpu/kernel.h"
#include "kernel_args.h"
#include "stream.h"

#include <algorithm>
#include <memory>
#include <string>

namespace aclcpu {

// A launch as it is enqueued: it owns its arguments and keeps its code alive.
struct KernelLaunch {
  aclcpuKernelEntry entry = nullptr;
  std::string kernelName;
  std::shared_ptr<const void> keepAlive;  // the binary holding the code
  ArgBlock args;
  uint32_t numBlocks = 1;
  size_t scratchBytes = 0;
  uint32_t threads = 0;  // the most threads its blocks run on (launchThreads); 0: the pool's
};

// A launch as it runs: arguments and code owned elsewhere, for the duration.
struct KernelCall {
  aclcpuKernelEntry entry = nullptr;
  const void *args = nullptr;
  uint32_t numBlocks = 1;
  size_t scratchBytes = 0;
  const char *kernelName = "";
  uint32_t threads = 0;  // as KernelLaunch's
};

constexpr size_t kDefaultScratchBytes = 256u << 10;
// The most a launch may ask for (ACL_RT_LAUNCH_KERNEL_ATTR_LOCAL_MEMORY_SIZE).
constexpr uint32_t kMaxScratchBytes = 64u << 20;

std::unique_ptr<StreamTask> makeKernelLaunchTask(KernelLaunch launch);

// Runs `call`'s blocks on `stream`'s pool (this thread taking part); a failing block becomes
// the stream's error, reported by its next synchronize.
void runKernelCall(Stream &stream, const KernelCall &call);

// Whether a launch on an idle stream runs on the enqueuing thread (Stream::runIfIdle) rather
// than being queued for a worker: a `small` one, whose handoff to a worker and back costs more
// than its kernel, or any when the process has one usable core: a worker would run it on the
// core this thread holds, after a switch there and a futex wake back (bf16 256^3 GEMM under
// `taskset -c 1`: 94 -> 82 us a call).
inline bool launchesOnCaller(const Stream &stream, bool small) { return small || stream.poolCores() == 1; }

// The threads a launch of `kind` the calling thread enqueues on `stream` may run its blocks on:
// the pool's, unless a resource limit says fewer (core_limits.h). One relaxed load until a
// limit is first set.
inline unsigned launchThreads(const Stream &stream, CoreKind kind) {
  if (!CoreLimits::anySet.load(std::memory_order_relaxed)) return stream.poolThreads();
  return limitedLaunchThreads(stream, kind);
}

// runBlocks' halves: one block called here, with `workers` (at least 1) the pool's threads; and
// more, shared with the pool's workers.
int32_t runOneBlock(aclcpuKernelEntry entry, const void *args, uint32_t workers, size_t scratchBytes);
int32_t runManyBlocks(WorkerPool &pool, aclcpuKernelEntry entry, const void *args, uint32_t numBlocks,
                      size_t scratchBytes, uint32_t &faultBlock, Stream *stream, uint32_t threads);

// Runs blocks [0, numBlocks) of `entry` on at most `threads` threads (0: the pool's); returns 0
// or the first non-zero block result, with the failing block's index in `faultBlock`. A thread
// synchronizing on `stream` (the launch's, on `pool`) may run some of them
// (Stream::offerToWaiter). One block is called here, with no
// dispatcher (its counters and wait were a tenth of a 1-element Add's dispatch); it reads the
// pool's thread count from the stream where there is one, whose line a launch reads anyway,
// and from a small function: runManyBlocks' frame cost a 1-element Add ~3%.
inline int32_t runBlocks(WorkerPool &pool, aclcpuKernelEntry entry, const void *args, uint32_t numBlocks,
                         size_t scratchBytes, uint32_t &faultBlock, Stream *stream = nullptr, uint32_t threads = 0) {
  if (numBlocks != 1) return runManyBlocks(pool, entry, args, numBlocks, scratchBytes, faultBlock, stream, threads);
  faultBlock = 0;
  return runOneBlock(entry, args, stream != nullptr ? stream->poolThreads() : std::max(1u, pool.numThreads()),
                     scratchBytes);
}

}  // namespace aclcpu
