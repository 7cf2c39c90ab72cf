// Validation shared by copies, memsets and operator arguments: sizes against destMax, pointers
// against where the memcpy kind says they live, and ranges against their allocation. The
// device side of copies and memsets must always lie in a live aclrtMalloc allocation; an
// operator or kernel buffer must fit the allocation it starts in, and must start in one only in
// checked mode (ACLCPU_CHECK=1). Launches look each buffer up: the table answers repeated
// lookups from a per-thread cache (memory_table.cpp).
#pragma once

#include "acl/acl_rt.h"

#include <cstddef>

namespace aclcpu {

aclError validateCopy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                      const char *function);
aclError validateMemset(void *devPtr, size_t maxCount, size_t count, const char *function);
// A copy of `height` rows of `width` bytes, rows `dpitch` and `spitch` bytes apart: the pitches
// hold a row, both regions pass validateCopy's checks over their whole extent, and no row of one
// overlaps a row of the other (where the pitches differ and the extents overlap, that is refused
// without looking closer).
aclError validateCopy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                        aclrtMemcpyKind kind, const char *function);
// [ptr, ptr+size) must lie inside one live aclrtMalloc allocation.
aclError requireDeviceRange(const void *ptr, size_t size, const char *what, const char *function);
// Checks that [ptr, ptr+size) lies in one device allocation (always in checked mode; otherwise
// only when ptr is known to be device memory). `what` names the argument in messages.
aclError checkDeviceRange(const void *ptr, size_t size, const char *what, const char *function);
// The same for an indexed argument, named "<what> <index>" in messages.
constexpr size_t kNoArgumentIndex = static_cast<size_t>(-1);
aclError checkDeviceRange(const void *ptr, size_t size, const char *what, size_t index, const char *function);

// An operator launch's buffer, for checkDeviceRanges.
struct DeviceRange {
  const void *ptr;
  size_t bytes;
  const char *what;  // named "<what> <index>" in messages
  size_t index;
};
// checkDeviceRange for each range. The calling thread's last list whose ranges all lay inside
// device allocations passes again without lookups while nothing has been freed: a handle run
// on the same buffers looks nothing up.
aclError checkDeviceRanges(const DeviceRange *ranges, size_t count, const char *function);

}  // namespace aclcpu
