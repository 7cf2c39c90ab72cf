// Chunked parallel execution of kernel blocks on the worker pool.
#include "kernel_launch.h"

#include "block_recycler.h"
#include "diagnostics.h"
#include "spin_wait.h"

#include <algorithm>
#include <cstdlib>
#include <new>

namespace aclcpu {
namespace {

constexpr std::chrono::microseconds kJoinSpin{50};

// Scratch memory of the calling thread, grown on demand and kept for later launches.
void *threadScratch(size_t bytes) {
  struct Scratch {
    void *memory = nullptr;
    size_t size = 0;
    ~Scratch() { free(memory); }
  };
  thread_local Scratch scratch;
  if (bytes > scratch.size) {
    free(scratch.memory);
    scratch.memory = aligned_alloc(64, (bytes + 63) / 64 * 64);
    scratch.size = scratch.memory ? bytes : 0;
  }
  return scratch.memory;
}

// The context of the blocks this thread runs (its worker index; a thread outside the pool takes
// the last of `workerNum` slots), blockIdx left to the caller.
aclcpuBlockCtx blockContext(uint32_t numBlocks, uint32_t workerNum, size_t scratchBytes) {
  int worker = WorkerPool::currentWorkerIndex();
  aclcpuBlockCtx ctx{};
  ctx.abiVersion = ACLCPU_KERNEL_ABI_VERSION;
  ctx.blockNum = numBlocks;
  ctx.workerIdx = worker >= 0 ? static_cast<uint32_t>(worker) : workerNum - 1;
  ctx.workerNum = workerNum;
  ctx.scratch = scratchBytes == 0 ? nullptr : threadScratch(scratchBytes);  // no TLS lookup for none
  ctx.scratchSize = ctx.scratch ? scratchBytes : 0;
  return ctx;
}

class BlockRun : public PoolJob {
 public:
  // `joiners`: how many threads besides the launching one may run blocks (posted helpers and
  // a thread taking the stream's offer, whichever come first).
  BlockRun(aclcpuKernelEntry entry, const void *args, uint32_t numBlocks, uint32_t chunk, uint32_t workerNum,
           size_t scratchBytes, uint32_t joiners = 0)
      : entry_(entry), args_(args), numBlocks_(numBlocks), chunk_(chunk), workerNum_(workerNum),
        scratchBytes_(scratchBytes), seats_(static_cast<int64_t>(joiners)) {}

  void runOnPool() override {
    if (takeSeat()) work();
  }
  // A thread outside the pool takes the context's last worker slot: one such thread at a time
  // (workerIdx is distinct among the blocks running at once).
  void runOutside() override {
    if (!outsideSlotTaken_.exchange(true, std::memory_order_acq_rel) && takeSeat()) work();
  }

  // Claims and runs chunks until none are left (the launching thread; joiners take a seat first).
  void work() {
    aclcpuBlockCtx ctx = blockContext(numBlocks_, workerNum_, scratchBytes_);
    for (;;) {
      uint32_t start = next_.fetch_add(chunk_, std::memory_order_relaxed);
      if (start >= numBlocks_) return;
      uint32_t end = std::min(numBlocks_, start + chunk_);
      for (uint32_t block = start; block < end; ++block) {
        if (fault_.load(std::memory_order_relaxed) != 0) break;  // a fault skips what is left
        ctx.blockIdx = block;
        int32_t status = entry_(args_, &ctx);
        if (status != 0) {
          int32_t expected = 0;
          if (fault_.compare_exchange_strong(expected, status)) faultBlock_ = block;
        }
      }
      done_.advanceBy(end - start);
    }
  }

  void join() const { done_.waitFor(numBlocks_, kJoinSpin); }
  bool takeSeat() { return seats_.fetch_sub(1, std::memory_order_relaxed) > 0; }
  int32_t fault(uint32_t &block) const {
    block = faultBlock_;
    return fault_.load();
  }

 private:
  const aclcpuKernelEntry entry_;
  const void *const args_;
  const uint32_t numBlocks_, chunk_, workerNum_;
  const size_t scratchBytes_;
  std::atomic<int64_t> seats_;
  std::atomic<bool> outsideSlotTaken_{false};
  std::atomic<uint32_t> next_{0};
  std::atomic<int32_t> fault_{0};
  uint32_t faultBlock_ = 0;
  ProgressCounter done_;
};

BlockRecycler &launchTaskBlocks();

class KernelLaunchTask : public StreamTask {
 public:
  explicit KernelLaunchTask(KernelLaunch launch) : launch_(std::move(launch)) {}
  // One task per launch: recycled, not heap-allocated, once warm.
  static void *operator new(size_t size) {
    void *block = size <= launchTaskBlocks().blockBytes() ? launchTaskBlocks().take() : malloc(size);
    if (block == nullptr) throw std::bad_alloc();
    return block;
  }
  static void operator delete(void *block, size_t size) {
    if (size <= launchTaskBlocks().blockBytes()) launchTaskBlocks().give(block);
    else free(block);
  }
  TaskOutcome execute(Stream &stream) override {
    runKernelCall(stream, {launch_.entry, launch_.args.bytes.get(), launch_.numBlocks, launch_.scratchBytes,
                           launch_.kernelName.c_str(), launch_.threads});
    return TaskOutcome::Done;
  }

 private:
  KernelLaunch launch_;
};

BlockRecycler &launchTaskBlocks() {
  static BlockRecycler *recycler = new BlockRecycler(sizeof(KernelLaunchTask), alignof(std::max_align_t), 4096);
  return *recycler;
}

}  // namespace

int32_t runOneBlock(aclcpuKernelEntry entry, const void *args, uint32_t workers, size_t scratchBytes) {
  aclcpuBlockCtx ctx = blockContext(1, workers + 1, scratchBytes);
  ctx.blockIdx = 0;
  return entry(args, &ctx);
}

int32_t runManyBlocks(WorkerPool &pool, aclcpuKernelEntry entry, const void *args, uint32_t numBlocks,
                      size_t scratchBytes, uint32_t &faultBlock, Stream *stream, uint32_t threads) {
  uint32_t workers = std::max(1u, pool.numThreads());
  uint32_t running = threads == 0 ? workers : std::min(threads, workers);  // a resource limit's
  // workerNum counts the pool's workers plus one slot for a thread outside the pool.
  uint32_t helpers = pool.runsInline() ? 0 : std::min(numBlocks, running) - 1;
  // Four chunks per worker balance uneven blocks without contending on the counter.
  uint32_t chunk = std::max(1u, numBlocks / (running * 4));
  if (helpers == 0) {  // this thread alone: nothing to share, nothing to allocate
    BlockRun run(entry, args, numBlocks, chunk, workers + 1, scratchBytes);
    run.work();
    return run.fault(faultBlock);
  }
  // Unlimited, a thread taking the offer may join the posted helpers; under a resource limit it
  // can only take a helper's place, so that no more than `running` threads run blocks.
  uint32_t joiners = threads == 0 ? helpers + 1 : helpers;
  auto run = std::make_shared<BlockRun>(entry, args, numBlocks, chunk, workers + 1, scratchBytes, joiners);
  // A thread synchronizing on the stream takes the first helper's place: it is awake, where a
  // parked worker takes a futex wake (~25-55 us here) to start. With none waiting yet, the
  // offer stays open beside the posted helpers for one that arrives during the launch (an
  // event's waiter, which records and waits after enqueuing). Only from a worker: this
  // thread's own slot is then not the outside one. Once the launch is over, the run claims no
  // block, so an offer taken late does nothing.
  Stream::Offer offer = Stream::Offer::Refused;
  if (stream != nullptr && WorkerPool::currentWorkerIndex() >= 0) offer = stream->offerToWaiter(run);
  for (uint32_t i = offer == Stream::Offer::Taken ? 1 : 0; i < helpers; ++i) pool.post(run);
  run->work();
  if (offer == Stream::Offer::Open) stream->withdrawOffer(*run);  // every block is claimed
  run->join();
  return run->fault(faultBlock);
}

void runKernelCall(Stream &stream, const KernelCall &call) {
  uint32_t faultBlock = 0;
  int32_t status = runBlocks(stream.pool(), call.entry, call.args, call.numBlocks, call.scratchBytes, faultBlock,
                             &stream, call.threads);
  if (status != 0)
    stream.recordError(ACL_ERROR_RT_AICORE_EXCEPTION,
                       "kernel '" + std::string(call.kernelName) + "' failed: block " + std::to_string(faultBlock) +
                           " of " + std::to_string(call.numBlocks) + " returned " + std::to_string(status) +
                           " (error " + std::to_string(ACL_ERROR_RT_AICORE_EXCEPTION) + ")");
}

std::unique_ptr<StreamTask> makeKernelLaunchTask(KernelLaunch launch) {
  return std::make_unique<KernelLaunchTask>(std::move(launch));
}

}  // namespace aclcpu
