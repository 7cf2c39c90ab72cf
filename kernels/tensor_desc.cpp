// Data type checks and element counts for tensor descriptions.
#include "tensor_desc.h"

namespace aclcpu {

bool isKnownDataType(aclDataType type) {
  switch (type) {
    case ACL_FLOAT: case ACL_FLOAT16: case ACL_INT8: case ACL_INT32: case ACL_UINT8: case ACL_INT16:
    case ACL_UINT16: case ACL_UINT32: case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_BOOL:
    case ACL_STRING: case ACL_COMPLEX64: case ACL_COMPLEX128: case ACL_BF16: case ACL_INT4: case ACL_UINT1:
    case ACL_COMPLEX32: case ACL_DT_UNDEFINED:
      return true;
  }
  return false;
}

int64_t knownElementCount(const std::vector<int64_t> &dims) {
  int64_t count = 1;
  for (int64_t d : dims)
    if (d >= 0 && __builtin_mul_overflow(count, d, &count)) return -1;
  return count;
}

int64_t staticElementCount(const aclTensorDesc &desc) {
  if (desc.unknownRank) return -1;
  for (int64_t d : desc.dims)
    if (d < 0) return -1;
  return knownElementCount(desc.dims);
}

bool sameDescription(const aclTensorDesc &a, const aclTensorDesc &b) {
  return a.dataType == b.dataType && a.format == b.format && a.dims == b.dims && a.unknownRank == b.unknownRank &&
         a.shapeRange == b.shapeRange && a.isConst == b.isConst && sameValues(a.constValues, b.constValues) &&
         a.placement == b.placement;
}

}  // namespace aclcpu
