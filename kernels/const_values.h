// A constant tensor's values (aclSetTensorConst, a single-op JSON's const_value). They are
// immutable once made, so descriptions, the request memo, resolved requests and models share
// one copy; and their digest is made once, so a call that passes the same weights again is
// matched and named without copying, comparing or hashing megabytes of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace aclcpu {

class ConstValues {
 public:
  explicit ConstValues(const std::vector<uint8_t> &bytes);
  ConstValues(const void *data, size_t size);

  const uint8_t *data() const { return bytes_.get(); }
  size_t size() const { return size_; }
  // A 64-bit digest of the bytes: equal values have equal digests.
  uint64_t digest() const { return digest_; }

 private:
  // A copy of the values, released by its deleter: large values (weights a matrix-vector
  // product streams from memory) are on huge pages (runtime/huge_pages.h), as aclrtMalloc's
  // blocks are; small ones on the heap.
  std::shared_ptr<const uint8_t> bytes_;
  size_t size_ = 0;
  uint64_t digest_ = 0;
};

using SharedConstValues = std::shared_ptr<const ConstValues>;

// Whether two value sets, either possibly absent, hold the same bytes. The same object, or
// different sizes or digests, decide it without reading them.
bool sameValues(const SharedConstValues &a, const SharedConstValues &b);

}  // namespace aclcpu
