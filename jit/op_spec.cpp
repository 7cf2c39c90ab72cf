// Element type facts and static-shape helpers for OpSpec.
#include "op_spec.h"

namespace aclcpu {

size_t elementSize(ElementType type) {
  switch (type) {
    case ElementType::F64:
    case ElementType::I64: return 8;
    case ElementType::F32:
    case ElementType::I32: return 4;
    case ElementType::F16:
    case ElementType::BF16:
    case ElementType::I16: return 2;
    case ElementType::I8:
    case ElementType::U8:
    case ElementType::Bool: return 1;
  }
  return 0;
}

const char *elementTypeName(ElementType type) {
  switch (type) {
    case ElementType::F32: return "f32";
    case ElementType::F16: return "f16";
    case ElementType::BF16: return "bf16";
    case ElementType::F64: return "f64";
    case ElementType::I8: return "i8";
    case ElementType::U8: return "ui8";
    case ElementType::I16: return "i16";
    case ElementType::I32: return "i32";
    case ElementType::I64: return "i64";
    case ElementType::Bool: return "i1";
  }
  return "?";
}

bool toElementType(aclDataType type, ElementType &out) {
  switch (type) {
    case ACL_FLOAT: out = ElementType::F32; return true;
    case ACL_FLOAT16: out = ElementType::F16; return true;
    case ACL_BF16: out = ElementType::BF16; return true;
    case ACL_DOUBLE: out = ElementType::F64; return true;
    case ACL_INT8: out = ElementType::I8; return true;
    case ACL_UINT8: out = ElementType::U8; return true;
    case ACL_INT16: out = ElementType::I16; return true;
    case ACL_INT32: out = ElementType::I32; return true;
    case ACL_INT64: out = ElementType::I64; return true;
    case ACL_BOOL: out = ElementType::Bool; return true;
    default: return false;
  }
}

aclDataType toAclDataType(ElementType type) {
  switch (type) {
    case ElementType::F32: return ACL_FLOAT;
    case ElementType::F16: return ACL_FLOAT16;
    case ElementType::BF16: return ACL_BF16;
    case ElementType::F64: return ACL_DOUBLE;
    case ElementType::I8: return ACL_INT8;
    case ElementType::U8: return ACL_UINT8;
    case ElementType::I16: return ACL_INT16;
    case ElementType::I32: return ACL_INT32;
    case ElementType::I64: return ACL_INT64;
    case ElementType::Bool: return ACL_BOOL;
  }
  return ACL_DT_UNDEFINED;
}

bool TensorSpec::isStatic() const {
  for (int64_t d : shape)
    if (d < 0) return false;
  return true;
}

int64_t TensorSpec::elementCount() const {
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  return count;
}

}  // namespace aclcpu
