// Mapping large allocations for transparent huge pages.
#include "huge_pages.h"

#include <atomic>
#include <cstdint>
#include <sys/mman.h>

namespace aclcpu {
namespace {

constexpr size_t kHugePage = size_t(2) << 20, kSmallPage = 4096;
// Offsets step by 4 KiB + 256 bytes through sixteen values: apart modulo 4 KiB (L1 sets, store
// to load aliasing) and modulo 64 KiB (L2 sets), under 64 KiB of each block.
constexpr size_t kOffsetStep = 4096 + 256, kOffsets = 16;
std::atomic<size_t> nextOffset{0};

}  // namespace

bool mapOnHugePages(size_t bytes, HugePageBlock &out) {
  size_t offset = nextOffset.fetch_add(1, std::memory_order_relaxed) % kOffsets * kOffsetStep;
  size_t used = offset + bytes;
  if (used < bytes || used > SIZE_MAX - 2 * kHugePage) return false;
  // Whole huge pages where the block covers them; its tail stays on small pages, not rounded up.
  size_t length = (used + kSmallPage - 1) / kSmallPage * kSmallPage;
  // Map a huge page more than needed, then trim to a 2 MiB-aligned start.
  void *raw = mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return false;
  auto start = reinterpret_cast<uintptr_t>(raw);
  uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
  if (aligned > start) munmap(raw, aligned - start);
  if (uintptr_t end = start + length + kHugePage; end > aligned + length)
    munmap(reinterpret_cast<void *>(aligned + length), end - (aligned + length));
  out.mapping = reinterpret_cast<void *>(aligned);
  out.mappingBytes = length;
  out.data = reinterpret_cast<void *>(aligned + offset);
  madvise(out.mapping, length, MADV_HUGEPAGE);  // advice: without huge pages the block still works
  return true;
}

void unmapHugePages(const HugePageBlock &block) {
  if (block.mapping) munmap(block.mapping, block.mappingBytes);
}

}  // namespace aclcpu
