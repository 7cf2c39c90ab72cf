// Event record/wait tasks and generation bookkeeping.
#include "event.h"

#include <algorithm>
#include <string>

namespace aclcpu {

class EventRecordTask : public StreamTask {
 public:
  EventRecordTask(std::shared_ptr<Event> event, uint64_t generation)
      : event_(std::move(event)), generation_(generation) {}
  TaskOutcome execute(Stream &) override {
    event_->complete(generation_);
    return TaskOutcome::Done;
  }
  // Streams waiting on the record must not wait forever.
  void discard(Stream &) override { event_->complete(generation_); }

 private:
  std::shared_ptr<Event> event_;
  uint64_t generation_;
};

class EventWaitTask : public StreamTask {
 public:
  // `timer` null: no timeout.
  EventWaitTask(std::shared_ptr<Event> event, uint64_t generation, std::chrono::milliseconds timeout = {},
                DeadlineTimer *timer = nullptr)
      : event_(std::move(event)), generation_(generation), timeout_(timeout), timer_(timer) {
    event_->pendingWaits_.fetch_add(1, std::memory_order_relaxed);
  }
  // A stream destroys a task once it has run, and discards unrun ones only at aclFinalize.
  ~EventWaitTask() override { event_->pendingWaits_.fetch_sub(1, std::memory_order_release); }
  TaskOutcome execute(Stream &stream) override {
    if (event_->isComplete(generation_)) return TaskOutcome::Done;
    if (timer_ && deadline_ == kNotStarted) {  // the wait starts when the stream reaches it
      deadline_ = std::chrono::steady_clock::now() + timeout_;
      timer_->resumeAt(deadline_, stream.weak_from_this());
    }
    if (timer_ && std::chrono::steady_clock::now() >= deadline_) {
      stream.recordError(ACL_ERROR_RT_TASK_TIMEOUT,
                         "an event wait gave up after " + std::to_string(timeout_.count()) +
                             " ms: the event's record had not run");
      return TaskOutcome::Done;
    }
    return event_->completeOrRegister(generation_, stream.shared_from_this()) ? TaskOutcome::Done
                                                                               : TaskOutcome::Blocked;
  }

 private:
  static constexpr std::chrono::steady_clock::time_point kNotStarted{};
  std::shared_ptr<Event> event_;
  uint64_t generation_;
  std::chrono::milliseconds timeout_;
  DeadlineTimer *timer_;
  std::chrono::steady_clock::time_point deadline_ = kNotStarted;
};

class EventResetTask : public StreamTask {
 public:
  EventResetTask(std::shared_ptr<Event> event, uint64_t generation)
      : event_(std::move(event)), generation_(generation) {}
  TaskOutcome execute(Stream &) override {
    std::lock_guard<std::mutex> lock(event_->mutex_);
    event_->resetThrough_ = std::max(event_->resetThrough_, generation_);
    return TaskOutcome::Done;
  }

 private:
  std::shared_ptr<Event> event_;
  uint64_t generation_;
};

uint64_t Event::beginRecord(const std::shared_ptr<Stream> &stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  recordedOn_ = stream;
  return ++recorded_;
}

// A thread waiting through the stream takes the blocks its launches offer, as one in
// aclrtSynchronizeStream does, where it would otherwise spin beside the workers (taking a core
// from them) and leave the launch's second block to a parked worker's futex wake.
bool Event::synchronizeUntil(uint64_t generation, std::chrono::steady_clock::time_point deadline) const {
  std::shared_ptr<Stream> stream;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (generation == recorded_) stream = recordedOn_.lock();
  }
  if (stream) return stream->waitFor(completed_, generation, deadline);
  return completed_.wait(generation, spin_, deadline);
}

uint64_t Event::latestGeneration() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return recorded_;
}

uint64_t Event::recordedGeneration() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return recorded_ > resetThrough_ ? recorded_ : 0;
}

std::unique_ptr<StreamTask> Event::recordTask(uint64_t generation) {
  return std::make_unique<EventRecordTask>(shared_from_this(), generation);
}

std::unique_ptr<StreamTask> Event::waitTask(uint64_t generation) {
  return std::make_unique<EventWaitTask>(shared_from_this(), generation);
}

std::unique_ptr<StreamTask> Event::waitTask(uint64_t generation, std::chrono::milliseconds timeout,
                                            DeadlineTimer &timer) {
  return std::make_unique<EventWaitTask>(shared_from_this(), generation, timeout, &timer);
}

std::unique_ptr<StreamTask> Event::resetTask(uint64_t generation) {
  return std::make_unique<EventResetTask>(shared_from_this(), generation);
}

bool Event::completedTimestamp(std::chrono::steady_clock::time_point &out) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (recorded_ <= resetThrough_ || timestampGeneration_ < recorded_) return false;
  out = timestamp_;
  return true;
}

void Event::complete(uint64_t generation) {
  auto now = std::chrono::steady_clock::now();
  std::vector<std::shared_ptr<Stream>> ready;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (generation > timestampGeneration_) {
      timestampGeneration_ = generation;
      timestamp_ = now;
    }
    completed_.advanceTo(generation);
    uint64_t done = completed_.value();
    for (auto it = waiters_.begin(); it != waiters_.end();) {
      if (it->first <= done) {
        ready.push_back(std::move(it->second));
        it = waiters_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto &stream : ready) stream->resume();
}

bool Event::completeOrRegister(uint64_t generation, const std::shared_ptr<Stream> &stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (completed_.value() >= generation) return true;
  waiters_.emplace_back(generation, stream);
  return false;
}

}  // namespace aclcpu
