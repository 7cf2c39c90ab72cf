// Events are timeline points: each aclrtRecordEvent bumps the event's record generation and
// enqueues a task that marks that generation complete (with a timestamp) when the stream
// reaches it. Streams that wait on an unfinished generation park and are resumed, so a wait
// never holds a thread.
#pragma once

#include "spin_wait.h"
#include "stream.h"

#include <chrono>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace aclcpu {

class Event : public std::enable_shared_from_this<Event> {
 public:
  explicit Event(std::chrono::nanoseconds spin) : spin_(spin) {}

  // Starts a new generation, recorded on `stream`; returns it. The caller enqueues
  // recordTask(generation) on that stream.
  uint64_t beginRecord(const std::shared_ptr<Stream> &stream);
  std::unique_ptr<StreamTask> recordTask(uint64_t generation);
  // The most recently started generation; 0 when the event was never recorded.
  uint64_t latestGeneration() const;
  bool isComplete(uint64_t generation) const { return completed_.value() >= generation; }
  // Blocks until `generation` completes: through the stream it was recorded on while that
  // stream lives (Stream::waitFor: the waiter helps its launches), else spinning, then parking.
  void synchronize(uint64_t generation) const;
  // Timestamp of the most recent completed record, if the latest record has completed.
  bool completedTimestamp(std::chrono::steady_clock::time_point &out) const;

  // A task that parks `stream` until `generation` completes.
  std::unique_ptr<StreamTask> waitTask(uint64_t generation);

 private:
  friend class EventRecordTask;
  friend class EventWaitTask;
  void complete(uint64_t generation);
  // True if complete; otherwise registers `stream` to be resumed when it is.
  bool completeOrRegister(uint64_t generation, const std::shared_ptr<Stream> &stream);

  const std::chrono::nanoseconds spin_;
  mutable std::mutex mutex_;
  uint64_t recorded_ = 0;
  std::weak_ptr<Stream> recordedOn_;  // the stream of the latest record
  std::chrono::steady_clock::time_point timestamp_;
  uint64_t timestampGeneration_ = 0;
  std::vector<std::pair<uint64_t, std::shared_ptr<Stream>>> waiters_;
  ProgressCounter completed_;
};

}  // namespace aclcpu
