// The free list behind BlockRecycler.
#include "block_recycler.h"

#include <cstdlib>

namespace aclcpu {

BlockRecycler::BlockRecycler(size_t blockBytes, size_t alignment, size_t maxFree)
    : blockBytes_((blockBytes + alignment - 1) / alignment * alignment), alignment_(alignment), maxFree_(maxFree) {
  free_.reserve(maxFree_);  // giving back never allocates
}

namespace {

constexpr int kCachedBlocks = 8;

struct ThreadCache {
  BlockRecycler *owner = nullptr;
  int count = 0;
  void *blocks[kCachedBlocks];
};

// One cache per recycler a thread uses (the runtime has two); handed back when the thread exits.
// A block given or taken later in the thread's exit (another thread-local's destructor) goes
// through the shared list.
struct ThreadCaches {
  ThreadCache caches[4];
  bool closed = false;
  ~ThreadCaches() {
    closed = true;
    for (ThreadCache &cache : caches)
      while (cache.count > 0) cache.owner->giveShared(cache.blocks[--cache.count]);
  }
  ThreadCache *of(BlockRecycler *recycler) {
    if (closed) return nullptr;
    for (ThreadCache &cache : caches) {
      if (cache.owner == recycler) return &cache;
      if (cache.owner == nullptr) {
        cache.owner = recycler;
        return &cache;
      }
    }
    return nullptr;
  }
};

thread_local ThreadCaches threadCaches;

}  // namespace

void *BlockRecycler::take() {
  ThreadCache *cache = threadCaches.of(this);
  if (cache != nullptr && cache->count > 0) return cache->blocks[--cache->count];
  return takeShared();
}

void BlockRecycler::give(void *block) {
  if (block == nullptr) return;
  ThreadCache *cache = threadCaches.of(this);
  if (cache != nullptr && cache->count < kCachedBlocks) {
    cache->blocks[cache->count++] = block;
    return;
  }
  giveShared(block);
}

void *BlockRecycler::takeShared() {
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

void BlockRecycler::giveShared(void *block) {
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
