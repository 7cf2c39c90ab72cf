// The free list behind BlockRecycler.
#include "block_recycler.h"

#include <cstdlib>

namespace aclcpu {

BlockRecycler::BlockRecycler(size_t blockBytes, size_t alignment, size_t maxFree)
    : blockBytes_((blockBytes + alignment - 1) / alignment * alignment), alignment_(alignment), maxFree_(maxFree) {
  free_.reserve(maxFree_);  // giving back never allocates
}

void *BlockRecycler::take() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!free_.empty()) {
      void *block = free_.back();
      free_.pop_back();
      return block;
    }
  }
  return aligned_alloc(alignment_, blockBytes_);
}

void BlockRecycler::give(void *block) {
  if (block == nullptr) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.size() < maxFree_) {
      free_.push_back(block);
      return;
    }
  }
  free(block);
}

}  // namespace aclcpu
