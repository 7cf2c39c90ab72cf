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
