// The allocation table behind device and pinned-host memory.
#include "memory_table.h"

#include "diagnostics.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace aclcpu {

// Lives as long as the process, like the runtime (a stream may still be draining at exit).
MemoryTable &memoryTable() {
  static MemoryTable *table = new MemoryTable();
  return *table;
}

namespace {

// Every launch looks up each of its buffers; the table's lock pairs were a fifth of a small
// operator's dispatch. A found allocation stays valid until some allocation is erased, so each
// thread keeps its last few finds, stamped with the count of erasures (of every table: a stamp
// never outlives its table's identity). Eight: a GEMM launch looks up six buffers, and four
// entries replaced in turn missed on every one of them.
std::atomic<uint64_t> erasures{0};

struct CachedFind {
  const MemoryTable *table = nullptr;
  uint64_t erasures = 0;
  Allocation allocation;
};
constexpr size_t kCachedFinds = 8;
// One thread-local object: each is a TLS descriptor call in the shared library.
struct CachedFinds {
  CachedFind entries[kCachedFinds];
  size_t next = 0;
};
thread_local CachedFinds cachedFinds;

void releaseMemory(const Allocation &allocation) {
  if (allocation.pages.mapping) unmapHugePages(allocation.pages);
  else free(reinterpret_cast<void *>(allocation.base));
}

}  // namespace

aclError MemoryTable::allocate(MemoryKind kind, int deviceId, size_t size, size_t limit, bool poison, bool hugePages,
                               void **out, const char *function) {
  if (size == 0) return reportError(ACL_ERROR_INVALID_PARAM, function, "size must be greater than 0");
  if (size > SIZE_MAX - kAlignment)
    return reportError(ACL_ERROR_BAD_ALLOC, function, "size %zu is too large", size);
  size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (kind == MemoryKind::Device) {
      if (deviceBytes_.size() <= static_cast<size_t>(deviceId)) deviceBytes_.resize(deviceId + 1, 0);
      size_t used = deviceBytes_[deviceId];
      if (rounded > limit || used > limit - rounded)
        return reportError(ACL_ERROR_BAD_ALLOC, function,
                           "device %d: allocating %zu bytes exceeds the device memory limit (%zu of %zu bytes in "
                           "use)",
                           deviceId, size, used, limit);
      deviceBytes_[deviceId] += rounded;  // reserved before the allocation so concurrent mallocs respect the limit
    }
  }
  HugePageBlock pages;
  void *ptr = nullptr;
  if (hugePages && rounded >= kHugePageMinBytes && mapOnHugePages(rounded, pages)) ptr = pages.data;
  else ptr = aligned_alloc(kAlignment, rounded);
  if (ptr == nullptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (kind == MemoryKind::Device) deviceBytes_[deviceId] -= rounded;
    return reportError(ACL_ERROR_BAD_ALLOC, function, "out of host memory allocating %zu bytes", size);
  }
  // Checked mode fills fresh memory with 0xFF (a NaN pattern) so reads of uninitialized data show.
  if (poison) memset(ptr, 0xFF, rounded);
  std::lock_guard<std::mutex> lock(mutex_);
  allocations_[reinterpret_cast<uintptr_t>(ptr)] =
      Allocation{reinterpret_cast<uintptr_t>(ptr), rounded, kind, deviceId, pages};
  *out = ptr;
  return ACL_SUCCESS;
}

aclError MemoryTable::release(void *ptr, MemoryKind kind, const char *function) {
  const char *kindName = kind == MemoryKind::Device ? "device" : "host";
  Allocation released;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = allocations_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == allocations_.end())
      return reportError(ACL_ERROR_INVALID_PARAM, function,
                         "%p is not the start of a live %s allocation (already freed, or never allocated)", ptr,
                         kindName);
    if (it->second.kind != kind)
      return reportError(ACL_ERROR_INVALID_PARAM, function, "%p is %s memory, not %s memory", ptr,
                         kind == MemoryKind::Device ? "host" : "device", kindName);
    if (kind == MemoryKind::Device) deviceBytes_[it->second.deviceId] -= it->second.size;
    released = it->second;
    allocations_.erase(it);
    erasures.fetch_add(1, std::memory_order_release);
  }
  releaseMemory(released);
  return ACL_SUCCESS;
}

uint64_t MemoryTable::erasureCount() { return erasures.load(std::memory_order_acquire); }

bool MemoryTable::overlaps(uintptr_t start, size_t size, MemoryKind kind) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = allocations_.upper_bound(start);
  if (it != allocations_.begin()) --it;  // the last one starting at or before start may reach into it
  for (; it != allocations_.end(); ++it) {
    const Allocation &allocation = it->second;
    if (allocation.base >= start && allocation.base - start >= size) break;  // starts past the range
    bool shares = allocation.base >= start || start - allocation.base < allocation.size;
    if (shares && allocation.kind == kind) return true;
  }
  return false;
}

bool MemoryTable::find(const void *ptr, Allocation &out) const {
  uintptr_t address = reinterpret_cast<uintptr_t>(ptr);
  uint64_t stamp = erasures.load(std::memory_order_acquire);
  CachedFinds &cache = cachedFinds;
  for (const CachedFind &cached : cache.entries)
    if (address - cached.allocation.base < cached.allocation.size && cached.erasures == stamp && cached.table == this) {
      out = cached.allocation;
      return true;
    }
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return false;
  --it;
  if (address - it->second.base >= it->second.size) return false;
  out = it->second;
  cache.entries[cache.next] = {this, erasures.load(std::memory_order_relaxed), out};
  cache.next = (cache.next + 1) % kCachedFinds;
  return true;
}

size_t MemoryTable::deviceBytesInUse(int deviceId) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<size_t>(deviceId) < deviceBytes_.size() ? deviceBytes_[deviceId] : 0;
}

void MemoryTable::releaseAll(int deviceId, MemoryKind kind) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = allocations_.begin(); it != allocations_.end();) {
    if (it->second.kind == kind && (kind == MemoryKind::Host || it->second.deviceId == deviceId)) {
      if (kind == MemoryKind::Device) deviceBytes_[deviceId] -= it->second.size;
      erasures.fetch_add(1, std::memory_order_release);
      releaseMemory(it->second);
      it = allocations_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace aclcpu
