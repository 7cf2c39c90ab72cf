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

}  // namespace

extern "C" aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(devPtr);
  if (policy < ACL_MEM_MALLOC_HUGE_FIRST || policy > ACL_MEM_MALLOC_NORMAL_ONLY_P2P)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "policy %d is not an aclrtMemMallocPolicy", static_cast<int>(policy));
  std::shared_ptr<Context> context;
  if (aclError error = currentContext(context, __func__)) return error;
  auto &device = *context->device;
  // The huge-page policies get transparent huge pages for large blocks; NORMAL_ONLY does not.
  bool hugePages = policy != ACL_MEM_MALLOC_NORMAL_ONLY && policy != ACL_MEM_MALLOC_NORMAL_ONLY_P2P;
  return memoryTable().allocate(MemoryKind::Device, device.id(), size, device.memoryLimit(),
                                Runtime::get().config.checkedMode, hugePages, devPtr, __func__);
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
