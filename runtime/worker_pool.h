// The device's shared worker threads. Streams (and, later, kernel blocks) are posted as jobs;
// idle workers spin briefly, then park. In inline mode (ACLCPU_SYNC=1) a job runs at post time
// on the posting thread, which makes every stream synchronous and deterministic.
#pragma once

#include "ring_queue.h"
#include "usable_cores.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace aclcpu {

class PoolJob {
 public:
  virtual ~PoolJob() = default;
  virtual void runOnPool() = 0;
  // Runs the job on a thread outside the pool (WorkerPool::runOutside); by default as a worker
  // would.
  virtual void runOutside() { runOnPool(); }
};

class WorkerPool {
 public:
  // `cores`: the cores the process may use (usableCores()), which bound hasSpareCore.
  WorkerPool(unsigned numThreads, std::chrono::nanoseconds spin, bool runInline, unsigned cores = usableCores());
  ~WorkerPool();
  WorkerPool(const WorkerPool &) = delete;
  WorkerPool &operator=(const WorkerPool &) = delete;

  void post(std::shared_ptr<PoolJob> job);
  // Runs `job` on the calling thread, outside the pool, counted among the running jobs
  // (hasSpareCore).
  void runOutside(PoolJob &job);
  unsigned numThreads() const { return static_cast<unsigned>(threads_.size()); }
  bool runsInline() const { return runInline_; }
  // The cores the process may use, as given when the pool was made.
  unsigned cores() const { return cores_; }

  // Whether a hardware thread is left over by the jobs running or queued now (idle workers spin
  // briefly, then park): a thread waiting on their work may then spin without delaying them. A
  // queued job counts: the worker woken for it needs a core before it can take it.
  bool hasSpareCore() const {
    return running_.load(std::memory_order_relaxed) + queued_.load(std::memory_order_relaxed) < cores_;
  }

  // Index of the calling pool worker, or -1 on any other thread.
  static int currentWorkerIndex();

 private:
  void workerMain(unsigned index);
  std::shared_ptr<PoolJob> tryTake();

  const std::chrono::nanoseconds spin_;
  const bool runInline_;
  std::mutex mutex_;
  std::condition_variable wakeup_;
  RingQueue<std::shared_ptr<PoolJob>> queue_;
  std::atomic<size_t> queued_{0};
  const unsigned cores_;
  std::atomic<unsigned> running_{0};  // threads inside a job: workers, and others (runOutside)
  int parked_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace aclcpu
