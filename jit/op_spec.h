// A compiler-neutral description of one operator instance: op name, input tensors (element
// type and dims, -1 dynamic) and attributes. The single-operator API builds these from ACL
// tensor descriptions; the JIT turns them into kernels. No MLIR types leak through here.
#pragma once

#include "acl/acl_base.h"

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace aclcpu {

enum class ElementType { F32, F16, BF16, F64, I8, U8, I16, I32, I64, Bool };

size_t elementSize(ElementType type);
// ACL data types the compiler supports, and back.
bool toElementType(aclDataType type, ElementType &out);
aclDataType toAclDataType(ElementType type);
const char *elementTypeName(ElementType type);

struct TensorSpec {
  ElementType type = ElementType::F32;
  std::vector<int64_t> shape;  // -1: dynamic

  bool isStatic() const;
  int64_t elementCount() const;  // of a static shape
};

struct TypeValue {  // an element type as an attribute value (dst_type, result_type)
  ElementType type;
};

using AttributeValue = std::variant<bool, int64_t, double, std::string, std::vector<int64_t>, TypeValue>;

struct OpSpec {
  std::string op;  // aclop mnemonic: "add", "gemm", "reduce_sum", ...
  std::vector<TensorSpec> inputs;
  std::vector<std::pair<std::string, AttributeValue>> attributes;
};

}  // namespace aclcpu
