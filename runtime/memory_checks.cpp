// Pointer and size validation against the allocation table.
#include "memory_checks.h"

#include "diagnostics.h"
#include "host_registrations.h"
#include "memory_table.h"
#include "runtime_state.h"

namespace aclcpu {
namespace {

enum class Side { Host, Device, Any };


bool expectedSides(aclrtMemcpyKind kind, Side &dst, Side &src) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: dst = Side::Host; src = Side::Host; return true;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: dst = Side::Device; src = Side::Host; return true;
    case ACL_MEMCPY_DEVICE_TO_HOST: dst = Side::Host; src = Side::Device; return true;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: dst = Side::Device; src = Side::Device; return true;
    case ACL_MEMCPY_DEFAULT: dst = Side::Any; src = Side::Any; return true;
  }
  return false;
}

// Copies and memsets always check their device side (a lookup is cheap next to the copy): an
// address that is not, or no longer, inside an aclrtMalloc allocation is refused, never written.
aclError requireDeviceMemory(const void *ptr, size_t size, const char *what, const char *function) {
  Allocation allocation;
  if (!memoryTable().find(ptr, allocation) || allocation.kind != MemoryKind::Device)
    return reportError(ACL_ERROR_INVALID_PARAM, function,
                       "%s %p is not device memory: it is not inside any live aclrtMalloc allocation", what, ptr);
  return checkDeviceRange(ptr, size, what, function);
}

aclError checkSide(const void *ptr, size_t size, Side expected, const char *what, const char *function) {
  if (expected == Side::Any) {
    Allocation allocation;
    if (memoryTable().find(ptr, allocation) && allocation.kind == MemoryKind::Device)
      return checkDeviceRange(ptr, size, what, function);
    return ACL_SUCCESS;
  }
  Allocation allocation;
  bool known = memoryTable().find(ptr, allocation);
  bool isDevice = known && allocation.kind == MemoryKind::Device;
  if (expected == Side::Host) {
    if (isDevice)
      return reportError(ACL_ERROR_INVALID_PARAM, function,
                         "%s %p is device memory but the copy kind says it is host memory", what, ptr);
    return ACL_SUCCESS;
  }
  if (known && !isDevice)
    return reportError(ACL_ERROR_INVALID_PARAM, function,
                       "%s %p is host memory (aclrtMallocHost) but the copy kind says it is device memory", what, ptr);
  return requireDeviceMemory(ptr, size, what, function);
}

// checkDeviceRange, also saying whether the range lies inside a device allocation.
aclError checkRange(const void *ptr, size_t size, const char *what, size_t index, const char *function,
                    bool &inDevice) {
  // The argument's name ("input buffer 2") is formatted only for a message: launches call this
  // for every buffer.
  auto name = [&] {
    std::string text = what;
    if (index != kNoArgumentIndex) text += " " + std::to_string(index);
    return text;
  };
  Allocation allocation;
  inDevice = memoryTable().find(ptr, allocation) && allocation.kind == MemoryKind::Device;
  if (!inDevice) {
    if (!Runtime::get().config.checkedMode || hostRegistrations().mapsRange(ptr, size)) return ACL_SUCCESS;
    return reportError(ACL_ERROR_INVALID_PARAM, function,
                       "checked mode: %s %p is not inside any device allocation (aclrtMalloc) or mapped host "
                       "registration",
                       name().c_str(), ptr);
  }
  size_t offset = reinterpret_cast<uintptr_t>(ptr) - allocation.base;
  if (size > allocation.size - offset)
    return reportError(ACL_ERROR_INVALID_PARAM, function,
                       "%s %p + %zu bytes runs past the end of its device allocation (%zu bytes at %p)",
                       name().c_str(), ptr, size, allocation.size, reinterpret_cast<void *>(allocation.base));
  return ACL_SUCCESS;
}

constexpr size_t kMaxRememberedRanges = 16;

}  // namespace

aclError checkDeviceRange(const void *ptr, size_t size, const char *what, const char *function) {
  return checkDeviceRange(ptr, size, what, kNoArgumentIndex, function);
}

aclError checkDeviceRange(const void *ptr, size_t size, const char *what, size_t index, const char *function) {
  bool inDevice;
  return checkRange(ptr, size, what, index, function, inDevice);
}

namespace {

// The calling thread's last list of ranges that all lay inside device allocations, valid while
// the erasure count is unchanged. Constant-initialized, so reading it costs one TLS lookup and
// no guard.
struct RememberedRanges {
  uint64_t erasures = 0;
  size_t count = 0;  // 0: nothing remembered
  const void *ptrs[kMaxRememberedRanges] = {};
  size_t bytes[kMaxRememberedRanges] = {};
};
thread_local RememberedRanges rememberedRanges;

// checkDeviceRanges when the list is not the remembered one: looks each range up, and
// remembers the list if every range lay inside a device allocation. Kept out of line: the
// lookups and messages would give the fast path a large frame.
__attribute__((noinline)) aclError lookUpRanges(const DeviceRange *ranges, size_t count, uint64_t erasures,
                                                RememberedRanges &last, const char *function) {
  bool allInDevice = count <= kMaxRememberedRanges;
  for (size_t i = 0; i < count; ++i) {
    bool inDevice;
    if (aclError error = checkRange(ranges[i].ptr, ranges[i].bytes, ranges[i].what, ranges[i].index, function, inDevice))
      return error;
    allInDevice = allInDevice && inDevice;
  }
  last.count = 0;
  if (!allInDevice) return ACL_SUCCESS;  // an unknown pointer passes only outside checked mode: look again
  for (size_t i = 0; i < count; ++i) {
    last.ptrs[i] = ranges[i].ptr;
    last.bytes[i] = ranges[i].bytes;
  }
  last.erasures = erasures;
  last.count = count;
  return ACL_SUCCESS;
}

}  // namespace

aclError checkDeviceRanges(const DeviceRange *ranges, size_t count, const char *function) {
  RememberedRanges &last = rememberedRanges;
  // Read before the lookups: a free during them leaves the list unremembered.
  uint64_t erasures = MemoryTable::erasureCount();
  if (count != 0 && count == last.count && erasures == last.erasures) {
    size_t same = 0;
    while (same < count && ranges[same].ptr == last.ptrs[same] && ranges[same].bytes == last.bytes[same]) ++same;
    if (same == count) return ACL_SUCCESS;
  }
  return lookUpRanges(ranges, count, erasures, last, function);
}

namespace {

// A copy's kind as the sides its pointers must be on, and neither pointer NULL.
aclError checkKindAndPointers(const void *dst, const void *src, aclrtMemcpyKind kind, Side &dstSide, Side &srcSide,
                              const char *function) {
  if (!expectedSides(kind, dstSide, srcSide))
    return reportError(ACL_ERROR_INVALID_PARAM, function, "memcpy kind %d is not an aclrtMemcpyKind",
                       static_cast<int>(kind));
  if (dst == nullptr || src == nullptr)
    return reportError(ACL_ERROR_INVALID_PARAM, function, "%s is NULL", dst == nullptr ? "dst" : "src");
  return ACL_SUCCESS;
}

}  // namespace

// A 1D copy is the one-row case of a 2D copy, rows as wide as their pitch.
aclError validateCopy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                      const char *function) {
  if (count > destMax)
    return reportError(ACL_ERROR_INVALID_PARAM, function, "count (%zu bytes) is larger than destMax (%zu bytes)",
                       count, destMax);
  return validateCopy2d(dst, count, src, count, count, 1, kind, function);
}

aclError requireDeviceRange(const void *ptr, size_t size, const char *what, const char *function) {
  if (ptr == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, function, "%s is NULL", what);
  return requireDeviceMemory(ptr, size, what, function);
}

namespace {

// Bytes from a 2D region's first byte to past its last; false on overflow.
bool extentOf(size_t pitch, size_t width, size_t height, size_t &extent) {
  if (height == 0 || width == 0) {
    extent = 0;
    return true;
  }
  size_t rows;
  if (__builtin_mul_overflow(height - 1, pitch, &rows)) return false;
  return !__builtin_add_overflow(rows, width, &extent);
}

// Whether some row of one region overlaps some row of the other, both rows `pitch` apart: row i of
// dst against row j of src overlap where |d - s + (i - j) * pitch| < width, and only the two
// values of i - j around (s - d) / pitch can come that close.
bool rowsOverlap(uintptr_t d, uintptr_t s, size_t pitch, size_t width, size_t height) {
  using Wide = __int128;
  const Wide target = Wide(s) - Wide(d), p = Wide(pitch), rows = Wide(height) - 1;
  Wide k0 = target / p;  // rounded toward zero; then down
  if (target % p != 0 && target < 0) --k0;
  for (Wide k = k0; k <= k0 + 1; ++k) {
    if (k < -rows || k > rows) continue;
    Wide gap = Wide(d) - Wide(s) + k * p;
    if ((gap < 0 ? -gap : gap) < Wide(width)) return true;
  }
  return false;
}

}  // namespace

aclError validateCopy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                        aclrtMemcpyKind kind, const char *function) {
  Side dstSide = Side::Any, srcSide = Side::Any;
  if (aclError error = checkKindAndPointers(dst, src, kind, dstSide, srcSide, function)) return error;
  if (width > dpitch || width > spitch)
    return reportError(ACL_ERROR_INVALID_PARAM, function,
                       "width (%zu bytes) is wider than dpitch (%zu) or spitch (%zu): rows would overlap", width,
                       dpitch, spitch);
  size_t dstExtent, srcExtent;
  if (!extentOf(dpitch, width, height, dstExtent) || !extentOf(spitch, width, height, srcExtent))
    return reportError(ACL_ERROR_INVALID_PARAM, function, "%zu rows of pitch %zu or %zu overflow the address space",
                       height, dpitch, spitch);
  if (aclError error = checkSide(dst, dstExtent, dstSide, "dst", function)) return error;
  if (aclError error = checkSide(src, srcExtent, srcSide, "src", function)) return error;
  uintptr_t d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
  bool extentsOverlap = dstExtent != 0 && d < s + srcExtent && s < d + dstExtent;
  if (extentsOverlap && (dpitch != spitch || (d != s && rowsOverlap(d, s, dpitch, width, height))))
    return reportError(ACL_ERROR_INVALID_PARAM, function,
                       dpitch != spitch ? "dst %p and src %p regions overlap, with different pitches"
                       : height == 1    ? "dst %p and src %p overlap"
                                        : "dst %p and src %p have overlapping rows",
                       dst, src);
  return ACL_SUCCESS;
}

aclError validateMemset(void *devPtr, size_t maxCount, size_t count, const char *function) {
  if (devPtr == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, function, "devPtr is NULL");
  if (count > maxCount)
    return reportError(ACL_ERROR_INVALID_PARAM, function, "count (%zu bytes) is larger than maxCount (%zu bytes)",
                       count, maxCount);
  Allocation allocation;
  if (memoryTable().find(devPtr, allocation) && allocation.kind == MemoryKind::Host) {
    size_t offset = reinterpret_cast<uintptr_t>(devPtr) - allocation.base;
    if (count > allocation.size - offset)
      return reportError(ACL_ERROR_INVALID_PARAM, function, "devPtr %p + %zu bytes runs past its host allocation",
                         devPtr, count);
    return ACL_SUCCESS;
  }
  return requireDeviceMemory(devPtr, count, "devPtr", function);
}

}  // namespace aclcpu
