// A FIFO over a power-of-two ring that grows and never shrinks: once it has held N entries,
// pushing and popping up to N never allocates (std::deque frees and allocates a node every few
// dozen entries, which would put the heap on every Nth launch of a busy stream).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace aclcpu {

template <typename T>
class RingQueue {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T &front() { return slots_[head_]; }
  void push_back(T value) {
    if (size_ == slots_.size()) grow();
    slots_[(head_ + size_) & (slots_.size() - 1)] = std::move(value);
    ++size_;
  }
  void pop_front() {
    slots_[head_] = T();
    head_ = (head_ + 1) & (slots_.size() - 1);
    --size_;
  }

 private:
  void grow() {
    std::vector<T> larger(slots_.empty() ? 16 : slots_.size() * 2);
    for (size_t i = 0; i < size_; ++i) larger[i] = std::move(slots_[(head_ + i) & (slots_.size() - 1)]);
    slots_ = std::move(larger);
    head_ = 0;
  }

  std::vector<T> slots_;
  size_t head_ = 0, size_ = 0;
};

}  // namespace aclcpu
