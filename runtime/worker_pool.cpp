// Worker threads with a shared FIFO of jobs, spin-then-park idling and an inline mode.
#include "worker_pool.h"

#include "spin_wait.h"

#include <algorithm>

namespace aclcpu {
namespace {
thread_local int workerIndex = -1;
}

WorkerPool::WorkerPool(unsigned numThreads, std::chrono::nanoseconds spin, bool runInline, unsigned cores)
    : spin_(spin), runInline_(runInline), cores_(std::max(1u, cores)) {
  if (runInline_) return;
  threads_.reserve(numThreads);
  for (unsigned i = 0; i < numThreads; ++i) threads_.emplace_back([this, i] { workerMain(i); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wakeup_.notify_all();
  for (auto &thread : threads_) thread.join();
}

int WorkerPool::currentWorkerIndex() { return workerIndex; }

void WorkerPool::post(std::shared_ptr<PoolJob> job) {
  if (runInline_) {
    job->runOnPool();
    return;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  queue_.push_back(std::move(job));
  queued_.store(queue_.size(), std::memory_order_release);
  if (parked_ > 0) wakeup_.notify_one();
}

void WorkerPool::runOutside(PoolJob &job) {
  running_.fetch_add(1, std::memory_order_relaxed);
  job.runOutside();
  running_.fetch_sub(1, std::memory_order_relaxed);
}

std::shared_ptr<PoolJob> WorkerPool::tryTake() {
  if (queued_.load(std::memory_order_acquire) == 0) return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  if (queue_.empty()) return nullptr;
  auto job = std::move(queue_.front());
  queue_.pop_front();
  queued_.store(queue_.size(), std::memory_order_release);
  return job;
}

void WorkerPool::workerMain(unsigned index) {
  workerIndex = static_cast<int>(index);
  for (;;) {
    if (auto job = tryTake()) {
      running_.fetch_add(1, std::memory_order_relaxed);
      job->runOnPool();
      running_.fetch_sub(1, std::memory_order_relaxed);
      continue;
    }
    if (spinUntil([this] { return queued_.load(std::memory_order_acquire) > 0; }, spin_)) continue;
    std::unique_lock<std::mutex> lock(mutex_);
    ++parked_;
    wakeup_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    --parked_;
    if (stopping_ && queue_.empty()) return;
  }
}

}  // namespace aclcpu
