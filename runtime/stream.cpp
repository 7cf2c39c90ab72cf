// Stream scheduling: Idle -> Scheduled (posted or running) -> Parked (head task blocked).
#include "stream.h"

#include "diagnostics.h"

#include <thread>

namespace aclcpu {

Stream::Stream(WorkerPool &pool, int deviceId, std::chrono::nanoseconds spin)
    : pool_(pool), deviceId_(deviceId), spin_(spin),
      synchronizeWaits_(pool.numThreads() < std::thread::hardware_concurrency()) {}

uint64_t Stream::enqueue(std::unique_ptr<StreamTask> task) {
  bool post = false;
  uint64_t position;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(task));
    position = enqueued_.load(std::memory_order_relaxed) + 1;
    enqueued_.store(position, std::memory_order_release);
    if (state_ == State::Idle) {  // the queue was empty: the task is its head
      state_ = State::Scheduled;
      post = true;
    }
  }
  if (post) pool_.post(shared_from_this());
  return position;
}

bool Stream::claimIdle() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (state_ != State::Idle) return false;
  state_ = State::Scheduled;
  resumeRequested_ = false;
  enqueued_.store(enqueued_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  return true;
}

void Stream::finishRunOnCaller() {
  completed_.advanceTo(completed_.value() + 1);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (queue_.empty()) {
      state_ = State::Idle;
      return;
    }
  }
  pool_.post(shared_from_this());  // what other threads enqueued meanwhile
}

uint64_t Stream::enqueuedCount() const { return enqueued_.load(std::memory_order_acquire); }

aclError Stream::synchronize() {
  uint64_t target = enqueuedCount();
  if (completed_.value() < target) {
    auto start = std::chrono::steady_clock::now();
    completed_.waitFor(target, synchronizeWaits_.budget(spin_));
    synchronizeWaits_.record(std::chrono::steady_clock::now() - start);
  }
  // A failed task set failed_ before its completion was published.
  if (!failed_.load(std::memory_order_acquire)) return ACL_SUCCESS;
  std::lock_guard<std::mutex> lock(mutex_);
  aclError error = error_;
  if (error != ACL_SUCCESS) setRecentError(errorMessage_);
  error_ = ACL_SUCCESS;
  errorMessage_.clear();
  failed_.store(false, std::memory_order_relaxed);
  return error;
}

void Stream::resume() {
  bool post = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_ == State::Parked) {
      state_ = State::Scheduled;
      post = true;
    } else if (state_ == State::Scheduled) {
      resumeRequested_ = true;  // the running worker retries its blocked task instead of parking
    }
  }
  if (post) pool_.post(shared_from_this());
}

void Stream::recordError(aclError code, const std::string &message) {
  logMessage(LogLevel::Error, "stream task failed: %s", message.c_str());
  std::lock_guard<std::mutex> lock(mutex_);
  if (error_ != ACL_SUCCESS) return;
  error_ = code;
  errorMessage_ = message;
  failed_.store(true, std::memory_order_release);
}

void Stream::runOnPool() {
  // Inline pools never re-post: that would recurse instead of yielding.
  runTasks(pool_.runsInline() ? 0 : kTasksPerTurn);
}

void Stream::runTasks(int limit) {
  for (int ran = 0;; ++ran) {
    StreamTask *task;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (queue_.empty()) {
        state_ = State::Idle;
        return;
      }
      if (limit > 0 && ran >= limit) break;
      task = queue_.front().get();
      resumeRequested_ = false;
    }
    if (task->execute(*this) == TaskOutcome::Blocked) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (resumeRequested_) {
        --ran;  // unblocked while we were deciding to park: try again
        continue;
      }
      state_ = State::Parked;
      return;
    }
    std::unique_ptr<StreamTask> finished;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      finished = std::move(queue_.front());
      queue_.pop_front();
    }
    finished.reset();
    completed_.advanceTo(completed_.value() + 1);
  }
  // Fairness: go to the back of the pool's queue so other streams get a turn.
  pool_.post(shared_from_this());
}

}  // namespace aclcpu
