// A stream: an in-order queue of tasks that owns no thread. When it has work it is posted to its
// device's worker pool as one job; a worker runs its tasks in order until the queue is empty or
// the head task blocks (an event wait, a blocking callback), in which case the stream parks
// without holding a thread and is re-posted by whoever unblocks it.
#pragma once

#include "ring_queue.h"

#include "acl/acl_base.h"
#include "core_limits.h"
#include "resource_slots.h"
#include "spin_wait.h"
#include "worker_pool.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

namespace aclcpu {

class Stream;

enum class TaskOutcome { Done, Blocked };

class StreamTask {
 public:
  virtual ~StreamTask() = default;
  // Runs the task on a pool worker (or inline). Returns Blocked to park the stream with this
  // task still at its head; the task is executed again after Stream::resume().
  virtual TaskOutcome execute(Stream &stream) = 0;
  // Runs instead of execute on an abandoned stream (aclrtDestroyStreamForce): does not do the
  // work, but releases what other streams or threads wait for (an event record completes).
  virtual void discard(Stream &) {}
};

// A stream's per-device id and what aclrtCreateStreamWithConfig was given.
struct StreamAttributes {
  int32_t id = 0;
  uint32_t priority = 0;
  uint32_t flags = 0;
  bool isDefault = false;  // a context's default stream, which only the context's end destroys
};

class Stream : public PoolJob, public std::enable_shared_from_this<Stream> {
 public:
  // `heldSlot`: the device's stream slots, one of which the caller took for this stream, or null.
  Stream(WorkerPool &pool, int deviceId, std::chrono::nanoseconds spin, StreamAttributes attributes = {},
         std::shared_ptr<ResourceSlots> heldSlot = nullptr);

  const StreamAttributes &attributes() const { return attributes_; }
  // Gives back its slot, if it holds one (the stream was destroyed).
  void releaseSlot() { slot_.release(); }
  // Discards every task not yet started, now and from now on, instead of running it
  // (StreamTask::discard); a task already running runs to its end. Each still counts as
  // completed, so nothing that waits for the stream waits forever.
  void abandon();
  // aclrtStreamAbort: discards the tasks enqueued so far (as abandon does; one running runs to its
  // end), waits until they are through, then takes tasks again with no error pending.
  void abort();
  // ACL_STOP_ON_FAILURE: the first task error abandons the stream, and every synchronize from then
  // on reports that error.
  void setStopOnFailure(bool stop) { stopOnFailure_.store(stop, std::memory_order_release); }

  // Appends a task; returns its 1-based position in the stream's history.
  uint64_t enqueue(std::unique_ptr<StreamTask> task);
  // Runs `work(stream)` on the calling thread if the stream is idle (nothing queued or
  // running), as a task enqueued and run at once would be: tasks enqueued meanwhile queue
  // behind it. Returns false, having run nothing, if the stream is busy. The work is done when
  // this returns; it is not counted among the enqueued tasks synchronize waits for (a
  // synchronize that does not happen after this call returns need not wait for it). `work`
  // must not block; it is never queued, so what it uses need live only for the call. For work
  // so short that handing it to a worker and synchronizing on it back (two cross-core
  // handoffs) would cost more than running it. Claiming and releasing the stream are one
  // compare-and-swap and one plain store, no lock; an enqueue from another thread during the
  // run waits for its end (postAfterCallerRun).
  template <typename Work>
  bool runIfIdle(Work &&work) {
    if (!claimIdle()) return false;
    work(*this);
    finishRunOnCaller();
    return true;
  }
  // Waits for every task enqueued before the call; returns (and clears) the first task error.
  // The waiting thread runs work offered to it meanwhile (offerToWaiter). Inline where nothing
  // is left to wait for and nothing failed, as after a launch its caller ran.
  aclError synchronize() {
    // A failed task set failed_ before its completion was published.
    if (idle() && !failed_.load(std::memory_order_acquire)) return ACL_SUCCESS;
    return synchronizeWaiting(kNoDeadline);
  }
  // As synchronize, giving up at `deadline`: ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, no message set (the
  // tasks run on, and a task's error stays for the next synchronize).
  aclError synchronizeUntil(std::chrono::steady_clock::time_point deadline) { return synchronizeWaiting(deadline); }
  // Whether every task enqueued so far has run.
  bool idle() const { return completed_.value() >= enqueuedCount(); }
  static constexpr std::chrono::steady_clock::time_point kNoDeadline = std::chrono::steady_clock::time_point::max();
  // Waits, as synchronize does, until `progress` reaches `target`: for a point on this stream
  // other than its end (an event recorded on it), whose waiter helps the stream's launches too.
  void waitFor(const ProgressCounter &progress, uint64_t target) { waitFor(progress, target, kNoDeadline); }
  // The same, giving up at `deadline`: whether `progress` reached `target`.
  bool waitFor(const ProgressCounter &progress, uint64_t target, std::chrono::steady_clock::time_point deadline);
  // Offers `job` (blocks of a kernel launch running on this stream) to threads waiting in
  // synchronize or waitFor. Taken: one is waiting and the job is its. Open: none is, so the job
  // stays offered to one that starts waiting while the launch runs (an event's waiter arrives
  // after the launch began); the caller posts it to the pool as well, and withdraws it when the
  // launch is over. Refused: another job is offered. The job must do no harm if it runs after
  // its launch is over, or never.
  enum class Offer { Taken, Open, Refused };
  Offer offerToWaiter(std::shared_ptr<PoolJob> job);
  void withdrawOffer(const PoolJob &job);
  // Re-runs a blocked head task; safe to call from any thread, at any time.
  void resume();
  // Records the first failure of a task; synchronize reports it.
  void recordError(aclError code, const std::string &message);

  uint64_t enqueuedCount() const { return enqueued_.load(std::memory_order_acquire); }
  const ProgressCounter &completed() const { return completed_; }
  int deviceId() const { return deviceId_; }
  WorkerPool &pool() const { return pool_; }
  // The pool's thread count (at least 1) and cores, kept here: a launch its caller runs reads
  // them, and the stream's line is one it reads anyway.
  unsigned poolThreads() const { return poolThreads_; }
  unsigned poolCores() const { return poolCores_; }
  // Its resource limits (aclrtSetStreamResLimit), which launches obey from threads that use
  // them (aclrtUseStreamResInCurrentThread).
  CoreLimits &coreLimits() { return coreLimits_; }
  const CoreLimits &coreLimits() const { return coreLimits_; }

  void runOnPool() override;

 private:
  // waitFor's wait: runs what is offered, spins for `spin` (again after each job it ran) while
  // a core is spare, then parks.
  bool waitHelping(const ProgressCounter &progress, uint64_t target, std::chrono::nanoseconds spin,
                   std::chrono::steady_clock::time_point deadline);
  // The offered job, or null; takeOfferLocked with mutex_ held.
  std::shared_ptr<PoolJob> takeOffer();
  std::shared_ptr<PoolJob> takeOfferLocked();
  // Runs queued tasks in order until the queue is empty (the stream goes Idle), the head task
  // blocks (Parked), or `limit` tasks have run (> 0: the stream is re-posted to the pool).
  void runTasks(int limit);
  aclError synchronizeWaiting(std::chrono::steady_clock::time_point deadline);
  // runIfIdle's two halves: Idle -> RunningOnCaller if nothing is queued; then Idle again.
  bool claimIdle() {
    if (queued_.load(std::memory_order_seq_cst) != 0) return false;  // queued tasks go first, on the pool
    State idle = State::Idle;
    return state_.compare_exchange_strong(idle, State::RunningOnCaller, std::memory_order_seq_cst);
  }
  void finishRunOnCaller() {
    // A plain store: an enqueue that saw the run waits for this and posts its task itself
    // (postAfterCallerRun), so the run need not look at the queue. Before, this store was
    // seq_cst and followed by a read of the queue's length: one locked instruction more per
    // small launch.
    state_.store(State::Idle, std::memory_order_release);
  }
  // For an enqueue that found a caller's run in progress: waits for its end, then posts the
  // stream if it is idle. True if the caller must post it.
  bool postAfterCallerRun();
  // What queued_ holds (mutex_ held): the queue's length, but never 0 once abandoned.
  size_t queuedForClaims() const;
  // abandon's part under mutex_ (held).
  void abandonLocked();

  enum class State { Idle, Scheduled, Parked, RunningOnCaller };
  static constexpr int kTasksPerTurn = 64;  // then the stream yields its worker to other streams

  WorkerPool &pool_;
  const unsigned poolThreads_, poolCores_;
  const int deviceId_;
  const std::chrono::nanoseconds spin_;
  WaitPredictor synchronizeWaits_;
  CoreLimits coreLimits_;

  mutable std::mutex mutex_;
  RingQueue<std::unique_ptr<StreamTask>> queue_;
  // Changed under mutex_, except by runIfIdle (compare-and-swap from Idle to RunningOnCaller,
  // then a store of Idle) and postAfterCallerRun (compare-and-swap from Idle).
  std::atomic<State> state_{State::Idle};
  std::atomic<size_t> queued_{0};  // queuedForClaims(), for runIfIdle
  bool resumeRequested_ = false;
  // Written under mutex_, read without it: synchronize takes no lock when nothing failed.
  std::atomic<uint64_t> enqueued_{0};
  std::atomic<bool> failed_{false};  // error_ is set
  aclError error_ = ACL_SUCCESS;
  std::string errorMessage_;

  ProgressCounter completed_;
  // Threads in synchronize or waitFor that take offers, and the job offered to them (under
  // mutex_).
  int waiters_ = 0;
  std::shared_ptr<PoolJob> offered_;
  bool offerPosted_ = false;  // offered_ was also posted to the pool (an Open offer)
  std::atomic<bool> hasOffer_{false};

  // Last, off the lines a launch reads.
  const StreamAttributes attributes_;
  SlotHold slot_;
  std::atomic<bool> abandoned_{false};
  std::atomic<bool> stopOnFailure_{false};
};

}  // namespace aclcpu
