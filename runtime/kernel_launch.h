// The block dispatcher: a kernel launch is one stream task that fans its blocks out over the
// device's worker pool. Workers claim chunks of block indices from an atomic counter (no
// allocation per block); the worker running the stream takes part, and one block or one
// worker runs inline. Each worker thread has its own scratch memory.
#pragma once

#include "aclcpu/kernel.h"
#include "kernel_args.h"
#include "stream.h"

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
};

// A launch as it runs: arguments and code owned elsewhere, for the duration.
struct KernelCall {
  aclcpuKernelEntry entry = nullptr;
  const void *args = nullptr;
  uint32_t numBlocks = 1;
  size_t scratchBytes = 0;
  const char *kernelName = "";
};

constexpr size_t kDefaultScratchBytes = 256u << 10;

std::unique_ptr<StreamTask> makeKernelLaunchTask(KernelLaunch launch);

// Runs `call`'s blocks on `stream`'s pool (this thread taking part); a failing block becomes
// the stream's error, reported by its next synchronize.
void runKernelCall(Stream &stream, const KernelCall &call);

// Runs blocks [0, numBlocks) of `entry`; returns 0 or the first non-zero block result, with
// the failing block's index in `faultBlock`. A thread synchronizing on `stream` (the launch's)
// may run some of them (Stream::offerToWaiter).
int32_t runBlocks(WorkerPool &pool, aclcpuKernelEntry entry, const void *args, uint32_t numBlocks,
                  size_t scratchBytes, uint32_t &faultBlock, Stream *stream = nullptr);

}  // namespace aclcpu
