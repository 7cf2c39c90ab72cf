// Events are timeline points: each aclrtRecordEvent bumps the event's record generation and
// enqueues a task that marks that generation complete (with a timestamp) when the stream
// reaches it. Streams that wait on an unfinished generation park and are resumed, so a wait
// never holds a thread. aclrtResetEvent is a task too: when it runs, the records made before it
// count as never made.
#pragma once

#include "deadline_timer.h"
#include "resource_slots.h"
#include "spin_wait.h"
#include "stream.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace aclcpu {

// What an event was made by: aclrtCreateEvent's events do everything; aclrtCreateEventWithFlag's
// and aclrtCreateEventExWithFlag's what their flags (ACL_EVENT_*) allow.
enum class EventOrigin { Plain, WithFlag, ExWithFlag };

class Event : public std::enable_shared_from_this<Event> {
 public:
  // `heldSlot`: the device's event slots, one of which the caller took for this event (ACL_EVENT_SYNC
  // events made by aclrtCreateEventWithFlag), or null.
  Event(std::chrono::nanoseconds spin, EventOrigin origin, uint32_t flags, uint32_t id,
        std::shared_ptr<ResourceSlots> heldSlot = nullptr)
      : spin_(spin), origin_(origin), flags_(flags), id_(id), slot_(std::move(heldSlot)) {}

  EventOrigin origin() const { return origin_; }
  uint32_t flags() const { return flags_; }
  uint32_t id() const { return id_; }
  // Gives back its slot, if it holds one (aclrtDestroyEvent).
  void releaseSlot() { slot_.release(); }

  // Starts a new generation, recorded on `stream`; returns it. The caller enqueues
  // recordTask(generation) on that stream.
  uint64_t beginRecord(const std::shared_ptr<Stream> &stream);
  std::unique_ptr<StreamTask> recordTask(uint64_t generation);
  // The most recently started generation; 0 when the event was never recorded.
  uint64_t latestGeneration() const;
  // The same, but 0 when a reset ran after that record (the event is as if never recorded).
  uint64_t recordedGeneration() const;
  bool isComplete(uint64_t generation) const { return completed_.value() >= generation; }
  // Blocks until `generation` completes: through the stream it was recorded on while that
  // stream lives (Stream::waitFor: the waiter helps its launches), else spinning, then parking.
  void synchronize(uint64_t generation) const { synchronizeUntil(generation, Stream::kNoDeadline); }
  // The same, giving up at `deadline`: whether `generation` completed.
  bool synchronizeUntil(uint64_t generation, std::chrono::steady_clock::time_point deadline) const;
  // Timestamp of the most recent completed record, if the latest record has completed and no
  // reset ran after it.
  bool completedTimestamp(std::chrono::steady_clock::time_point &out) const;

  // A task that parks `stream` until `generation` completes. It counts as pending from here until
  // it has run (or is discarded unrun).
  std::unique_ptr<StreamTask> waitTask(uint64_t generation);
  // The same, giving up `timeout` after it first runs: then it fails (ACL_ERROR_RT_TASK_TIMEOUT, the
  // stream's error) and the stream goes on; `timer` resumes the parked stream at the deadline.
  std::unique_ptr<StreamTask> waitTask(uint64_t generation, std::chrono::milliseconds timeout, DeadlineTimer &timer);
  // Whether no wait task made by waitTask is still pending (aclrtQueryEventWaitStatus).
  bool waitsDone() const { return pendingWaits_.load(std::memory_order_acquire) == 0; }
  // A task that, when it runs, resets the records up to `generation` (aclrtResetEvent).
  std::unique_ptr<StreamTask> resetTask(uint64_t generation);

 private:
  friend class EventRecordTask;
  friend class EventWaitTask;
  friend class EventResetTask;
  void complete(uint64_t generation);
  // True if complete; otherwise registers `stream` to be resumed when it is.
  bool completeOrRegister(uint64_t generation, const std::shared_ptr<Stream> &stream);

  const std::chrono::nanoseconds spin_;
  const EventOrigin origin_;
  const uint32_t flags_;
  const uint32_t id_;
  SlotHold slot_;
  std::atomic<uint32_t> pendingWaits_{0};
  mutable std::mutex mutex_;
  uint64_t recorded_ = 0;
  uint64_t resetThrough_ = 0;  // records up to this one were reset
  std::weak_ptr<Stream> recordedOn_;  // the stream of the latest record
  std::chrono::steady_clock::time_point timestamp_;
  uint64_t timestampGeneration_ = 0;
  std::vector<std::pair<uint64_t, std::shared_ptr<Stream>>> waiters_;
  ProgressCounter completed_;
};

}  // namespace aclcpu
