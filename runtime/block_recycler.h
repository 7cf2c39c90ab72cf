// Fixed-size memory blocks recycled through a bounded free list, for what every launch creates
// (argument blocks, launch tasks): once warm, a steady stream of launches does not touch the
// heap. Thread-safe; blocks may be taken on one thread and given back on another. Each thread
// keeps the last few blocks it gave back and takes those first, without the lock (a launch run
// on the calling thread takes and gives both its blocks there). Recyclers must outlive every
// thread that used them (the runtime's are never destroyed).
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
  // Takes and gives through the shared free list only (a thread's cache at its exit).
  void *takeShared();
  void giveShared(void *block);

 private:
  const size_t blockBytes_, alignment_, maxFree_;
  std::mutex mutex_;
  std::vector<void *> free_;
};

}  // namespace aclcpu
