// The objects behind aclTensorDesc, aclDataBuffer and aclopAttr: plain data that the
// single-operator API reads to build operator signatures.
#pragma once

#include "acl/acl_base.h"
#include "acl/acl_op.h"
#include "const_values.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

struct aclTensorDesc {
  aclDataType dataType = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_UNDEFINED;
  std::vector<int64_t> dims;  // -1 unknown dim
  bool unknownRank = false;   // created from {-2}
  std::vector<std::array<int64_t, 2>> shapeRange;  // one [lo, hi] per dim when set; hi -1 = unbounded
  bool isConst = false;
  aclcpu::SharedConstValues constValues;  // set by aclSetTensorConst, never changed in place
  aclMemType placement = ACL_MEMTYPE_DEVICE;
};

struct aclDataBuffer {
  void *data = nullptr;
  size_t size = 0;
};

namespace aclcpu {

struct DataTypeValue {
  aclDataType type;
  bool operator==(const DataTypeValue &other) const { return type == other.type; }
};

using OpAttrValue = std::variant<bool, int64_t, float, std::string, DataTypeValue, std::vector<int64_t>,
                                 std::vector<float>, std::vector<bool>, std::vector<std::string>,
                                 std::vector<DataTypeValue>, std::vector<std::vector<int64_t>>>;

bool isKnownDataType(aclDataType type);
// Elements of a fully static description; -1 when any dim is unknown or their count overflows.
int64_t staticElementCount(const aclTensorDesc &desc);
// The product of `dims` (each >= 0; unknown ones, -1, skipped), or -1 if it overflows int64.
int64_t knownElementCount(const std::vector<int64_t> &dims);
// Whether two descriptions say the same thing (every field, by content).
bool sameDescription(const aclTensorDesc &a, const aclTensorDesc &b);

}  // namespace aclcpu

struct aclopAttr {
  std::map<std::string, aclcpu::OpAttrValue> values;  // ordered: signatures list attributes canonically
};
