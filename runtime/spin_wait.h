// Spin-then-park waiting. A futex wake costs ~25 us on our VMs while an atomic hand-off costs
// ~0.4 us, so waiters spin briefly before they sleep; nothing spins without a bound.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace aclcpu {

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// Calls `ready()` until it returns true or `budget` has passed; returns the last result.
template <typename Predicate>
bool spinUntil(Predicate ready, std::chrono::nanoseconds budget) {
  if (ready()) return true;
  if (budget.count() <= 0) return false;
  auto deadline = std::chrono::steady_clock::now() + budget;
  for (unsigned i = 1;; ++i) {
    cpuRelax();
    if (ready()) return true;
    if ((i & 63) == 0 && std::chrono::steady_clock::now() >= deadline) return ready();
  }
}

// How long a synchronizing thread spins before it parks (whatever the budget, it stops once the
// workers' jobs hold every core: Stream::waitHelping): the configured spin, unless a core is
// spare for it (fewer workers than hardware threads) and the recent waits it recorded were
// short. Then it spins through a typical wait, as CUDA's default schedule spins while cores are
// spare: parking costs a ~25 us futex wake, which doubled a 256^3 s8 GEMM (60 us of work), and
// parked waits of milliseconds still lost more than the wake (1 thread, Zen 5 VM, up to 1 ms
// spun before: f32 512^3 (1.4 ms) 195 -> 209 GF/s, 1024^3 (10 ms) 200 -> 209). Waits longer
// than 25 ms park: there the wake is noise, and a spare core is not held for long.
class WaitPredictor {
 public:
  explicit WaitPredictor(bool spareCore) : spareCore_(spareCore) {}

  std::chrono::nanoseconds budget(std::chrono::nanoseconds configured) const {
    int64_t typical = typicalNs_.load(std::memory_order_relaxed);
    if (!spareCore_ || typical <= 0 || typical > kLongestSpinNs) return configured;
    return std::max(configured, std::chrono::nanoseconds(2 * typical));
  }

  // A moving average (weight 1/4) of the waits; racing updates only lose a sample.
  void record(std::chrono::nanoseconds waited) {
    int64_t typical = typicalNs_.load(std::memory_order_relaxed);
    typicalNs_.store(typical + (static_cast<int64_t>(waited.count()) - typical) / 4, std::memory_order_relaxed);
  }

 private:
  static constexpr int64_t kLongestSpinNs = 25000000;  // 25 ms
  const bool spareCore_;
  std::atomic<int64_t> typicalNs_{0};
};

// A monotonically increasing counter that threads can wait on (stream and event progress).
class ProgressCounter {
 public:
  uint64_t value() const { return value_.load(std::memory_order_seq_cst); }

  // Raises the value to at least `target` and wakes parked waiters, if any.
  void advanceTo(uint64_t target) {
    uint64_t current = value_.load(std::memory_order_relaxed);
    while (current < target &&
           !value_.compare_exchange_weak(current, target, std::memory_order_seq_cst)) {
    }
    if (parkedWaiters_.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      wakeup_.notify_all();
    }
  }

  // Adds `delta` (for counters advanced by several threads at once) and wakes parked waiters.
  void advanceBy(uint64_t delta) {
    value_.fetch_add(delta, std::memory_order_seq_cst);
    if (parkedWaiters_.load(std::memory_order_seq_cst) > 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      wakeup_.notify_all();
    }
  }

  // Blocks until value() >= target: spins for `spin`, then parks.
  void waitFor(uint64_t target, std::chrono::nanoseconds spin) const {
    if (spinUntil([&] { return value() >= target; }, spin)) return;
    std::unique_lock<std::mutex> lock(mutex_);
    parkedWaiters_.fetch_add(1, std::memory_order_seq_cst);
    wakeup_.wait(lock, [&] { return value() >= target; });
    parkedWaiters_.fetch_sub(1, std::memory_order_seq_cst);
  }
  // Blocks until value() >= target or `deadline` (time_point::max(): none): spins for `spin`,
  // no later than the deadline, then parks. Whether the target was reached.
  bool wait(uint64_t target, std::chrono::nanoseconds spin, std::chrono::steady_clock::time_point deadline) const {
    if (deadline == std::chrono::steady_clock::time_point::max()) {
      waitFor(target, spin);
      return true;
    }
    spin = std::min(spin, std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - std::chrono::steady_clock::now()));
    return spinUntil([&] { return value() >= target; }, spin) || waitUntil(target, deadline);
  }
  // Parks until value() >= target or `deadline`; whether the target was reached.
  bool waitUntil(uint64_t target, std::chrono::steady_clock::time_point deadline) const {
    std::unique_lock<std::mutex> lock(mutex_);
    parkedWaiters_.fetch_add(1, std::memory_order_seq_cst);
    bool reached = wakeup_.wait_until(lock, deadline, [&] { return value() >= target; });
    parkedWaiters_.fetch_sub(1, std::memory_order_seq_cst);
    return reached;
  }

 private:
  std::atomic<uint64_t> value_{0};
  mutable std::atomic<int> parkedWaiters_{0};
  mutable std::mutex mutex_;
  mutable std::condition_variable wakeup_;
};

}  // namespace aclcpu
