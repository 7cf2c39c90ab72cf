// Stream scheduling: Idle -> Scheduled (posted or running) -> Parked (head task blocked), and
// Idle -> RunningOnCaller -> Idle for runIfIdle.
#include "stream.h"

#include "diagnostics.h"
#include "spin_wait.h"

#include <algorithm>
#include <thread>

namespace aclcpu {

Stream::Stream(WorkerPool &pool, int deviceId, std::chrono::nanoseconds spin, StreamAttributes attributes,
               std::shared_ptr<ResourceSlots> heldSlot)
    : pool_(pool), poolThreads_(std::max(1u, pool.numThreads())), poolCores_(pool.cores()), deviceId_(deviceId),
      spin_(spin), synchronizeWaits_(pool.numThreads() < pool.cores()), attributes_(attributes),
      slot_(std::move(heldSlot)) {}

void Stream::abandon() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    abandonLocked();
  }
  resume();  // a parked head task is discarded too
}

void Stream::abandonLocked() {
  abandoned_.store(true, std::memory_order_release);
  queued_.store(queuedForClaims(), std::memory_order_seq_cst);  // no caller runs work on it from now on
}

void Stream::abort() {
  abandon();
  waitFor(completed_, enqueuedCount());
  std::lock_guard<std::mutex> lock(mutex_);
  abandoned_.store(false, std::memory_order_release);
  queued_.store(queuedForClaims(), std::memory_order_seq_cst);
  error_ = ACL_SUCCESS;
  errorMessage_.clear();
  failed_.store(false, std::memory_order_release);
}

size_t Stream::queuedForClaims() const {
  // Never 0 once abandoned: claimIdle then refuses, and every launch goes through the queue, where
  // it is discarded. The launch path reads nothing more for it.
  return abandoned_.load(std::memory_order_relaxed) ? queue_.size() + 1 : queue_.size();
}

uint64_t Stream::enqueue(std::unique_ptr<StreamTask> task) {
  bool post = false, callerRunning = false;
  uint64_t position;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(task));
    position = enqueued_.load(std::memory_order_relaxed) + 1;
    enqueued_.store(position, std::memory_order_release);
    // From here on claimIdle refuses the stream (seq_cst: a claim reads this before it swaps).
    queued_.store(queuedForClaims(), std::memory_order_seq_cst);
    State seen = State::Idle;
    post = state_.compare_exchange_strong(seen, State::Scheduled, std::memory_order_seq_cst);
    callerRunning = seen == State::RunningOnCaller;
  }
  // Outside the lock: the caller's work may take it (recordError).
  if (callerRunning) post = postAfterCallerRun();
  if (post) pool_.post(shared_from_this());
  return position;
}

bool Stream::postAfterCallerRun() {
  // The run is one small launch (at most a few tens of microseconds); yield now and then in case
  // it shares this core.
  for (unsigned spins = 1;; ++spins) {
    State seen = state_.load(std::memory_order_acquire);
    if (seen == State::RunningOnCaller) {
      cpuRelax();
      if ((spins & 1023) == 0) std::this_thread::yield();
      continue;
    }
    // Scheduled or Parked: a worker (posted by a later enqueue) has the stream and the task.
    if (seen != State::Idle) return false;
    if (state_.compare_exchange_strong(seen, State::Scheduled, std::memory_order_seq_cst)) return true;
    // Lost to another caller's claim (which read the queue empty before this task came) or to
    // another enqueue's post: look again.
  }
}

bool Stream::waitFor(const ProgressCounter &progress, uint64_t target, std::chrono::steady_clock::time_point deadline) {
  if (progress.value() >= target) return true;
  auto start = std::chrono::steady_clock::now();
  bool reached = waitHelping(progress, target, synchronizeWaits_.budget(spin_), deadline);
  if (reached) synchronizeWaits_.record(std::chrono::steady_clock::now() - start);
  return reached;
}

aclError Stream::synchronizeWaiting(std::chrono::steady_clock::time_point deadline) {
  if (!waitFor(completed_, enqueuedCount(), deadline)) return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;  // caller says why
  // A failed task set failed_ before its completion was published.
  if (!failed_.load(std::memory_order_acquire)) return ACL_SUCCESS;
  std::lock_guard<std::mutex> lock(mutex_);
  aclError error = error_;
  if (error != ACL_SUCCESS) setRecentError(errorMessage_);
  // A stream its failure stopped keeps reporting it: its later tasks are discarded. (A fault
  // recorded before stop mode was set stopped nothing, and is reported once.)
  if (abandoned_.load(std::memory_order_relaxed) && stopOnFailure_.load(std::memory_order_relaxed)) return error;
  error_ = ACL_SUCCESS;
  errorMessage_.clear();
  failed_.store(false, std::memory_order_relaxed);
  return error;
}

Stream::Offer Stream::offerToWaiter(std::shared_ptr<PoolJob> job) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (offered_) return Offer::Refused;
  offered_ = std::move(job);
  offerPosted_ = waiters_ == 0;
  hasOffer_.store(true, std::memory_order_release);
  return offerPosted_ ? Offer::Open : Offer::Taken;
}

void Stream::withdrawOffer(const PoolJob &job) {
  std::shared_ptr<PoolJob> withdrawn;  // released outside the lock
  std::lock_guard<std::mutex> lock(mutex_);
  if (offered_.get() == &job) withdrawn = takeOfferLocked();
}

std::shared_ptr<PoolJob> Stream::takeOfferLocked() {
  hasOffer_.store(false, std::memory_order_relaxed);
  return std::move(offered_);
}

std::shared_ptr<PoolJob> Stream::takeOffer() {
  if (!hasOffer_.load(std::memory_order_acquire)) return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  return takeOfferLocked();
}

// With as many workers as cores, a synchronizing thread that spins takes a core from them, and
// one that parks costs a futex wake (~55 us here) at the end. Two workers on two cores ran a
// 256^3 f32 GEMM's two blocks at 151-161 GF/s (one worker: 227) while this thread spun out the
// configured 50 us, at 191-216 when it parked once the workers' jobs held both cores, and at
// 334 now that it runs the second block itself, the second worker staying parked (384^3 337 ->
// 446, 512^3 371 -> 407, bf16 256^3 298 -> 780, Add of 64K f32 35 -> 147 GB/s). Spinning for
// longer than the configured spin with no spare core was worse still: it held off the worker
// that was to post the other block (1024^3 244 -> 198 GF/s).
bool Stream::waitHelping(const ProgressCounter &progress, uint64_t target, std::chrono::nanoseconds spin,
                         std::chrono::steady_clock::time_point deadline) {
  auto reached = [&] { return progress.value() >= target; };
  // Pool workers wait without taking offers: a worker already has its own block slot.
  const bool helps = WorkerPool::currentWorkerIndex() < 0;
  if (helps) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++waiters_;
  }
  auto spinFromNow = [&] { return std::min(deadline, std::chrono::steady_clock::now() + spin); };
  auto spinDeadline = spinFromNow();
  for (;;) {
    if (helps)
      if (std::shared_ptr<PoolJob> job = takeOffer()) {
        pool_.runOutside(*job);
        spinDeadline = spinFromNow();  // the rest is the workers' share: short
        continue;
      }
    spinUntil([&] { return reached() || hasOffer_.load(std::memory_order_acquire) || !pool_.hasSpareCore(); },
              spinDeadline - std::chrono::steady_clock::now());
    if (!helps || reached() || !hasOffer_.load(std::memory_order_acquire)) break;
  }
  if (helps) {
    // No longer taking offers: one made meanwhile goes to the pool's workers.
    std::shared_ptr<PoolJob> unclaimed;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--waiters_ == 0 && !offerPosted_) unclaimed = takeOfferLocked();
    }
    if (unclaimed) pool_.post(std::move(unclaimed));
  }
  return progress.wait(target, std::chrono::nanoseconds(0), deadline);
}

void Stream::resume() {
  bool post = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (state_.load(std::memory_order_relaxed) == State::Parked) {
      state_.store(State::Scheduled, std::memory_order_relaxed);
      post = true;
    } else if (state_.load(std::memory_order_relaxed) == State::Scheduled) {
      resumeRequested_ = true;  // the running worker retries its blocked task instead of parking
    }
  }
  if (post) pool_.post(shared_from_this());
}

void Stream::recordError(aclError code, const std::string &message) {
  logMessage(LogLevel::Error, "stream task failed: %s", message.c_str());
  bool stop;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (error_ != ACL_SUCCESS) return;
    error_ = code;
    errorMessage_ = message;
    failed_.store(true, std::memory_order_release);
    // With the error, under one lock: a synchronize sees both or neither.
    stop = stopOnFailure_.load(std::memory_order_acquire);
    if (stop) abandonLocked();
  }
  if (stop) resume();
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
        state_.store(State::Idle, std::memory_order_seq_cst);
        return;
      }
      if (limit > 0 && ran >= limit) break;
      task = queue_.front().get();
      resumeRequested_ = false;
    }
    if (abandoned_.load(std::memory_order_acquire)) {
      task->discard(*this);
    } else if (task->execute(*this) == TaskOutcome::Blocked) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (resumeRequested_) {
        --ran;  // unblocked while we were deciding to park: try again
        continue;
      }
      state_.store(State::Parked, std::memory_order_relaxed);
      return;
    }
    std::unique_ptr<StreamTask> finished;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      finished = std::move(queue_.front());
      queue_.pop_front();
      queued_.store(queuedForClaims(), std::memory_order_relaxed);
    }
    finished.reset();
    completed_.advanceTo(completed_.value() + 1);
  }
  // Fairness: go to the back of the pool's queue so other streams get a turn.
  pool_.post(shared_from_this());
}

}  // namespace aclcpu
