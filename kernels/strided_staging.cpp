// Strided copies and buffer release as stream tasks.
#include "strided_staging.h"

#include "diagnostics.h"
#include "memory_checks.h"
#include "memory_table.h"
#include "runtime_state.h"
#include "stream.h"

#include "acl/acl_rt.h"

#include <cstring>

namespace aclcpu {
namespace {

class StridedCopyTask : public StreamTask {
 public:
  StridedCopyTask(char *dst, size_t dstStride, const char *src, size_t srcStride, size_t rows, size_t rowBytes)
      : dst_(dst), src_(src), dstStride_(dstStride), srcStride_(srcStride), rows_(rows), rowBytes_(rowBytes) {}
  TaskOutcome execute(Stream &) override {
    for (size_t r = 0; r < rows_; ++r) memcpy(dst_ + r * dstStride_, src_ + r * srcStride_, rowBytes_);
    return TaskOutcome::Done;
  }

 private:
  char *dst_;
  const char *src_;
  size_t dstStride_, srcStride_, rows_, rowBytes_;
};

class ReleaseTask : public StreamTask {
 public:
  explicit ReleaseTask(std::vector<void *> buffers) : buffers_(std::move(buffers)) {}
  TaskOutcome execute(Stream &) override {
    for (void *buffer : buffers_) memoryTable().release(buffer, MemoryKind::Device, "strided BLAS staging");
    return TaskOutcome::Done;
  }

 private:
  std::vector<void *> buffers_;
};

aclError enqueue(aclrtStream stream, std::unique_ptr<StreamTask> task, const char *caller) {
  std::shared_ptr<Stream> resolved;
  if (aclError error = resolveStream(stream, resolved, caller)) return error;
  resolved->enqueue(std::move(task));
  return ACL_SUCCESS;
}

}  // namespace

StridedStaging::~StridedStaging() {
  if (buffers_.empty()) return;
  std::vector<void *> buffers = std::move(buffers_);
  if (enqueue(stream_, std::make_unique<ReleaseTask>(buffers), caller_) != ACL_SUCCESS)
    for (void *buffer : buffers) aclrtFree(buffer);  // the stream is gone: nothing of ours is queued
}

aclError StridedStaging::pack(const StridedMatrix &matrix, void *&packed) {
  size_t bytes = matrix.rows * matrix.rowBytes;
  if (aclError error = checkDeviceRange(matrix.data, matrix.span(), "a strided operand", caller_)) return error;
  if (aclError error = aclrtMalloc(&packed, bytes == 0 ? 1 : bytes, ACL_MEM_MALLOC_HUGE_FIRST)) return error;
  buffers_.push_back(packed);
  return enqueue(stream_,
                 std::make_unique<StridedCopyTask>(static_cast<char *>(packed), matrix.rowBytes,
                                                   static_cast<const char *>(matrix.data), matrix.stride, matrix.rows,
                                                   matrix.rowBytes),
                 caller_);
}

aclError StridedStaging::unpack(const void *packed, const StridedMatrix &matrix) {
  return enqueue(stream_,
                 std::make_unique<StridedCopyTask>(static_cast<char *>(matrix.data), matrix.stride,
                                                   static_cast<const char *>(packed), matrix.rowBytes, matrix.rows,
                                                   matrix.rowBytes),
                 caller_);
}

}  // namespace aclcpu
