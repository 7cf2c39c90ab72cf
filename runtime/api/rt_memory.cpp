// Device and host memory, synchronous and stream-ordered copies and memsets.
#include "acl/acl_rt.h"
#include "diagnostics.h"
#include "memory_checks.h"
#include "memory_table.h"
#include "runtime_state.h"

#include <cstring>

using namespace aclcpu;

namespace {

class CopyTask : public StreamTask {
 public:
  CopyTask(void *dst, const void *src, size_t count) : dst_(dst), src_(src), count_(count) {}
  TaskOutcome execute(Stream &) override {
    if (dst_ != src_) memcpy(dst_, src_, count_);
    return TaskOutcome::Done;
  }

 private:
  void *dst_;
  const void *src_;
  size_t count_;
};

class MemsetTask : public StreamTask {
 public:
  MemsetTask(void *dst, int value, size_t count) : dst_(dst), value_(value), count_(count) {}
  TaskOutcome execute(Stream &) override {
    memset(dst_, value_, count_);
    return TaskOutcome::Done;
  }

 private:
  void *dst_;
  int value_;
  size_t count_;
};

// Rows of a 2D copy; one memcpy where both sides are contiguous.
void copyRows(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height) {
  if (width == 0 || height == 0 || dst == src) return;
  if (dpitch == width && spitch == width) {
    memcpy(dst, src, width * height);
    return;
  }
  auto *to = static_cast<unsigned char *>(dst);
  auto *from = static_cast<const unsigned char *>(src);
  for (size_t row = 0; row < height; ++row) memcpy(to + row * dpitch, from + row * spitch, width);
}

class Copy2dTask : public StreamTask {
 public:
  Copy2dTask(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height)
      : dst_(dst), src_(src), dpitch_(dpitch), spitch_(spitch), width_(width), height_(height) {}
  TaskOutcome execute(Stream &) override {
    copyRows(dst_, dpitch_, src_, spitch_, width_, height_);
    return TaskOutcome::Done;
  }

 private:
  void *dst_;
  const void *src_;
  size_t dpitch_, spitch_, width_, height_;
};

aclError allocateDevice(void **devPtr, size_t size, aclrtMemMallocPolicy policy, const char *function) {
  if (devPtr == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, function, "devPtr is NULL");
  if (policy < ACL_MEM_MALLOC_HUGE_FIRST || policy > ACL_MEM_MALLOC_NORMAL_ONLY_P2P)
    return reportError(ACL_ERROR_INVALID_PARAM, function, "policy %d is not an aclrtMemMallocPolicy",
                       static_cast<int>(policy));
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, function)) return error;
  auto &device = *context->device;
  // The huge-page policies get transparent huge pages for large blocks; NORMAL_ONLY does not.
  bool hugePages = policy != ACL_MEM_MALLOC_NORMAL_ONLY && policy != ACL_MEM_MALLOC_NORMAL_ONLY_P2P;
  return memoryTable().allocate(MemoryKind::Device, device.id(), size, device.memoryLimit(),
                                Runtime::get().config.checkedMode, hugePages, devPtr, function);
}

// CANN's 2D copies take these kinds (the synchronous one not device to device).
aclError check2dKind(aclrtMemcpyKind kind, bool deviceToDevice, const char *function) {
  if (kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_HOST ||
      (deviceToDevice && kind == ACL_MEMCPY_DEVICE_TO_DEVICE))
    return ACL_SUCCESS;
  return reportError(ACL_ERROR_INVALID_PARAM, function, "memcpy kind %d: a 2D copy is host to device, device to host%s",
                     static_cast<int>(kind), deviceToDevice ? " or device to device" : "");
}

// CANN's bounds on a 2D copy's rows.
constexpr size_t kMax2dWidth = 5000000, kMax2dHeight = size_t(5) << 20;

aclError check2dShape(size_t width, size_t height, const char *function) {
  if (width > kMax2dWidth || height > kMax2dHeight)
    return reportError(ACL_ERROR_INVALID_PARAM, function, "%zu rows of %zu bytes: at most %zu rows of %zu bytes",
                       height, width, kMax2dHeight, kMax2dWidth);
  return ACL_SUCCESS;
}

// Device memory is the host's, cached and coherent: flushing or invalidating a range is only
// checking that it is device memory.
aclError checkCacheMaintenanceRange(void *devPtr, size_t size, const char *function) {
  if (size == 0) return reportError(ACL_ERROR_INVALID_PARAM, function, "size must be greater than 0");
  return requireDeviceRange(devPtr, size, "devPtr", function);
}

}  // namespace

extern "C" aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  ACLCPU_REQUIRE_INIT();
  return allocateDevice(devPtr, size, policy, __func__);
}

// Device memory is host memory here, so it is always cached and coherent: aclrtMallocCached is
// aclrtMalloc, and a flush or an invalidate only checks its range.
extern "C" aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  ACLCPU_REQUIRE_INIT();
  return allocateDevice(devPtr, size, policy, __func__);
}

// The size rounded up to a multiple of 32 bytes, all of it usable; aligned to 64 as aclrtMalloc's.
extern "C" aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  ACLCPU_REQUIRE_INIT();
  if (size > SIZE_MAX - 31) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "size %zu rounds past SIZE_MAX", size);
  return allocateDevice(devPtr, (size + 31) & ~size_t(31), policy, __func__);
}

extern "C" aclError aclrtMemFlush(void *devPtr, size_t size) {
  ACLCPU_REQUIRE_INIT();
  return checkCacheMaintenanceRange(devPtr, size, __func__);
}

extern "C" aclError aclrtMemInvalidate(void *devPtr, size_t size) {
  ACLCPU_REQUIRE_INIT();
  return checkCacheMaintenanceRange(devPtr, size, __func__);
}

extern "C" aclError aclrtFree(void *devPtr) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(devPtr);
  return memoryTable().release(devPtr, MemoryKind::Device, __func__);
}

extern "C" aclError aclrtMallocHost(void **hostPtr, size_t size) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(hostPtr);
  return memoryTable().allocate(MemoryKind::Host, -1, size, SIZE_MAX, Runtime::get().config.checkedMode, false,
                                hostPtr, __func__);
}

extern "C" aclError aclrtFreeHost(void *hostPtr) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(hostPtr);
  return memoryTable().release(hostPtr, MemoryKind::Host, __func__);
}

extern "C" aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
  ACLCPU_REQUIRE_INIT();
  if (aclError error = validateCopy(dst, destMax, src, count, kind, __func__)) return error;
  if (dst != src && count != 0) memcpy(dst, src, count);
  return ACL_SUCCESS;
}

extern "C" aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                                     aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  if (aclError error = validateCopy(dst, destMax, src, count, kind, __func__)) return error;
  std::shared_ptr<Stream> resolved;
  if (aclError error = resolveStream(stream, resolved, __func__)) return error;
  resolved->enqueue(std::make_unique<CopyTask>(dst, src, count));
  return ACL_SUCCESS;
}

extern "C" aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                  size_t height, aclrtMemcpyKind kind) {
  ACLCPU_REQUIRE_INIT();
  if (aclError error = check2dKind(kind, /*deviceToDevice=*/false, __func__)) return error;
  if (aclError error = check2dShape(width, height, __func__)) return error;
  if (aclError error = validateCopy2d(dst, dpitch, src, spitch, width, height, kind, __func__)) return error;
  copyRows(dst, dpitch, src, spitch, width, height);
  return ACL_SUCCESS;
}

extern "C" aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                       size_t height, aclrtMemcpyKind kind, aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  if (aclError error = check2dKind(kind, /*deviceToDevice=*/true, __func__)) return error;
  if (aclError error = check2dShape(width, height, __func__)) return error;
  if (aclError error = validateCopy2d(dst, dpitch, src, spitch, width, height, kind, __func__)) return error;
  Stream *resolved;
  if (aclError error = borrowStream(stream, resolved, __func__)) return error;
  resolved->enqueue(std::make_unique<Copy2dTask>(dst, dpitch, src, spitch, width, height));
  return ACL_SUCCESS;
}

extern "C" aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
  ACLCPU_REQUIRE_INIT();
  if (aclError error = validateMemset(devPtr, maxCount, count, __func__)) return error;
  memset(devPtr, value, count);
  return ACL_SUCCESS;
}

extern "C" aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                     aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  if (aclError error = validateMemset(devPtr, maxCount, count, __func__)) return error;
  std::shared_ptr<Stream> resolved;
  if (aclError error = resolveStream(stream, resolved, __func__)) return error;
  resolved->enqueue(std::make_unique<MemsetTask>(devPtr, value, count));
  return ACL_SUCCESS;
}

extern "C" aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(free);
  ACLCPU_CHECK_NOT_NULL(total);
  if (attr < ACL_DDR_MEM || attr > ACL_HBM_MEM_P2P_HUGE1G)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "attr %d is not an aclrtMemAttr", static_cast<int>(attr));
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, __func__)) return error;
  // All attributes describe the same pool: a virtual device has one kind of memory.
  size_t limit = context->device->memoryLimit();
  size_t used = memoryTable().deviceBytesInUse(context->device->id());
  *total = limit;
  *free = used >= limit ? 0 : limit - used;
  return ACL_SUCCESS;
}
