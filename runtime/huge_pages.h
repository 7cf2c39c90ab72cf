// Large allocations on transparent huge pages. A 64 MiB operand spans 16K small pages, far more
// than the TLBs map, and a product streaming B a row at a time (4-16 KiB apart) or a matrix-
// vector product reading eight rows at once touches a new page every few lines: on 2 MiB pages
// the same reads run 13-18% faster (M = 1, N = K = 4096: 37.9 -> 44.8 GB/s read).
#pragma once

#include <cstddef>

namespace aclcpu {

struct HugePageBlock {
  void *data = nullptr;     // what the caller uses
  void *mapping = nullptr;  // what unmapHugePages releases
  size_t mappingBytes = 0;
};

// Allocations this size and above are mapped for huge pages when the caller asks for them.
constexpr size_t kHugePageMinBytes = size_t(4) << 20;

// Maps `bytes` on 2 MiB-aligned memory advised for huge pages (small pages where the kernel
// gives none). Successive blocks start at different offsets into their first page, so that
// operands a kernel walks in step do not share cache sets or alias 4 KiB apart (all on one
// offset, the generated GEMM once lost up to 35%). False when the mapping fails.
bool mapOnHugePages(size_t bytes, HugePageBlock &out);
void unmapHugePages(const HugePageBlock &block);

}  // namespace aclcpu
