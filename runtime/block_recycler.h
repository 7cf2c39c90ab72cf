// Fixed-size memory blocks recycled through a bounded free list, for what every launch creates
// (argument blocks, launch tasks): once warm, a steady stream of launches does not touch the
// heap. Thread-safe; blocks may be taken on one thread and given back on another.
#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

namespace aclcpu {

class BlockRecycler {
 public:
  BlockRecycler(size_t blockBytes, size_t alignment, size_t maxFree);
  size_t blockBytes() const { return blockBytes_; }
  // A block of blockBytes() bytes; nullptr when out of memory.
  void *take();
  void give(void *block);

 private:
  const size_t blockBytes_, alignment_, maxFree_;
  std::mutex mutex_;
  std::vector<void *> free_;
};

}  // namespace aclcpu
