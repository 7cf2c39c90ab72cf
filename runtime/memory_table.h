// Every allocation handed out by aclrtMalloc / aclrtMallocHost, so that copies can validate
// where pointers live, frees can reject unknown and double-freed pointers, and checked mode
// (ACLCPU_CHECK=1) can verify every pointer and size against a real allocation.
#pragma once

#include "acl/acl_base.h"
#include "huge_pages.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace aclcpu {

enum class MemoryKind { Device, Host };

struct Allocation {
  uintptr_t base = 0;
  size_t size = 0;
  MemoryKind kind = MemoryKind::Device;
  int deviceId = -1;
  HugePageBlock pages;  // its mapping, when on huge pages; else it came from aligned_alloc
};

class MemoryTable {
 public:
  static constexpr size_t kAlignment = 64;

  // Allocates `size` bytes (64-byte aligned). Device allocations count against `limit`. With
  // `hugePages`, blocks of kHugePageMinBytes and more are mapped for transparent huge pages.
  aclError allocate(MemoryKind kind, int deviceId, size_t size, size_t limit, bool poison, bool hugePages,
                    void **out, const char *function);
  aclError release(void *ptr, MemoryKind kind, const char *function);

  // The allocation that contains [ptr, ptr+1), if any.
  bool find(const void *ptr, Allocation &out) const;
  // Whether an allocation of `kind` shares a byte with [start, start+size).
  bool overlaps(uintptr_t start, size_t size, MemoryKind kind) const;
  // How many allocations all tables have released: what find found stays valid until it grows.
  static uint64_t erasureCount();
  size_t deviceBytesInUse(int deviceId) const;
  // Frees everything a device still holds (device reset / aclFinalize).
  void releaseAll(int deviceId, MemoryKind kind);

 private:
  mutable std::mutex mutex_;
  std::map<uintptr_t, Allocation> allocations_;
  std::vector<size_t> deviceBytes_;
};

MemoryTable &memoryTable();

}  // namespace aclcpu
