// Stream-ordered staging of strided BLAS operands: compiled operators read packed tensors, so a
// matrix with a leading dimension larger than its row (or a vector with an increment above 1) is
// copied into a packed device buffer on the stream before the operator runs, and a strided
// output is copied back after it. The buffers are released on the stream once the copies ran.
#pragma once

#include "acl/acl_base.h"

#include <cstddef>
#include <vector>

namespace aclcpu {

// A strided 2-D operand: `rows` rows of `rowBytes` bytes, each `stride` bytes after the last.
struct StridedMatrix {
  void *data;
  size_t rows, rowBytes, stride;  // stride >= rowBytes, in bytes
  size_t span() const { return rows == 0 ? 0 : (rows - 1) * stride + rowBytes; }
};

class StridedStaging {
 public:
  StridedStaging(aclrtStream stream, const char *caller) : stream_(stream), caller_(caller) {}
  // Releases the packed buffers on the stream (after everything enqueued so far).
  ~StridedStaging();
  // Allocates a packed copy of `matrix` and enqueues the copy into it; `packed` points to it.
  aclError pack(const StridedMatrix &matrix, void *&packed);
  // Enqueues the copy of the packed data back into the strided `matrix`.
  aclError unpack(const void *packed, const StridedMatrix &matrix);

 private:
  aclrtStream stream_;
  const char *caller_;
  std::vector<void *> buffers_;
};

}  // namespace aclcpu
