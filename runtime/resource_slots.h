// Per-device counts of the objects CANN bounds per device (streams, synchronizing events). Taking
// a slot past the bound fails, so that a program that fits here fits on the NPU too; a destroyed
// object gives its slot back at once, not when its last queued task lets go of it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>

namespace aclcpu {

class ResourceSlots {
 public:
  explicit ResourceSlots(uint32_t capacity) : capacity_(capacity) {}
  uint32_t capacity() const { return capacity_; }
  uint32_t available() const { return capacity_ - std::min(capacity_, held_.load(std::memory_order_acquire)); }
  // One slot, unless all are held.
  bool take() {
    uint32_t held = held_.load(std::memory_order_relaxed);
    do {
      if (held >= capacity_) return false;
    } while (!held_.compare_exchange_weak(held, held + 1, std::memory_order_acq_rel));
    return true;
  }
  // One slot even past the bound, for what must not fail (a context's default stream).
  void force() { held_.fetch_add(1, std::memory_order_acq_rel); }
  void give() { held_.fetch_sub(1, std::memory_order_acq_rel); }

 private:
  const uint32_t capacity_;
  std::atomic<uint32_t> held_{0};
};

// One slot an object holds: given back once, at release() or at the holder's destruction.
class SlotHold {
 public:
  explicit SlotHold(std::shared_ptr<ResourceSlots> slots = nullptr)
      : slots_(std::move(slots)), held_(slots_ != nullptr) {}
  ~SlotHold() { release(); }
  SlotHold(const SlotHold &) = delete;
  SlotHold &operator=(const SlotHold &) = delete;
  void release() {
    if (held_.exchange(false, std::memory_order_acq_rel)) slots_->give();
  }

 private:
  const std::shared_ptr<ResourceSlots> slots_;
  std::atomic<bool> held_;
};

}  // namespace aclcpu
