// aclopCreateAttr and the aclopSetAttr* family; a later set of a name replaces it.
#include "diagnostics.h"
#include "tensor_desc.h"

#include <new>

using namespace aclcpu;

namespace {

aclError setAttr(aclopAttr *attr, const char *name, OpAttrValue value, const char *caller) {
  if (attr == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, caller, "attr is NULL");
  if (name == nullptr || *name == '\0') return reportError(ACL_ERROR_INVALID_PARAM, caller, "attrName is NULL or empty");
  attr->values[name] = std::move(value);
  return ACL_SUCCESS;
}

template <typename T, typename Source>
aclError setList(aclopAttr *attr, const char *name, int numValues, const Source *values, const char *caller) {
  if (numValues < 0) return reportError(ACL_ERROR_INVALID_PARAM, caller, "numValues is %d", numValues);
  if (numValues > 0 && values == nullptr)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "values is NULL but numValues is %d", numValues);
  std::vector<T> list;
  for (int i = 0; i < numValues; ++i) {
    if constexpr (std::is_same_v<T, std::string>) {
      if (values[i] == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, caller, "values[%d] is NULL", i);
    }
    if constexpr (std::is_same_v<T, DataTypeValue>) list.push_back(DataTypeValue{values[i]});
    else list.push_back(T(values[i]));
  }
  return setAttr(attr, name, std::move(list), caller);
}

}  // namespace

extern "C" aclopAttr *aclopCreateAttr(void) {
  auto *attr = new (std::nothrow) aclopAttr();
  if (attr == nullptr) ACLCPU_FAIL(ACL_ERROR_BAD_ALLOC, "out of memory");
  return attr;
}

extern "C" void aclopDestroyAttr(const aclopAttr *attr) { delete attr; }

extern "C" aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName, uint8_t attrValue) {
  return setAttr(attr, attrName, attrValue != 0, __func__);
}
extern "C" aclError aclopSetAttrInt(aclopAttr *attr, const char *attrName, int64_t attrValue) {
  return setAttr(attr, attrName, attrValue, __func__);
}
extern "C" aclError aclopSetAttrFloat(aclopAttr *attr, const char *attrName, float attrValue) {
  return setAttr(attr, attrName, attrValue, __func__);
}
extern "C" aclError aclopSetAttrString(aclopAttr *attr, const char *attrName, const char *attrValue) {
  if (attrValue == nullptr) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "attrValue is NULL");
  return setAttr(attr, attrName, std::string(attrValue), __func__);
}
extern "C" aclError aclopSetAttrDataType(aclopAttr *attr, const char *attrName, aclDataType attrValue) {
  if (!isKnownDataType(attrValue)) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "%d is not an aclDataType", attrValue);
  return setAttr(attr, attrName, DataTypeValue{attrValue}, __func__);
}
extern "C" aclError aclopSetAttrListInt(aclopAttr *attr, const char *attrName, int numValues, const int64_t *values) {
  return setList<int64_t>(attr, attrName, numValues, values, __func__);
}
extern "C" aclError aclopSetAttrListFloat(aclopAttr *attr, const char *attrName, int numValues, const float *values) {
  return setList<float>(attr, attrName, numValues, values, __func__);
}
extern "C" aclError aclopSetAttrListBool(aclopAttr *attr, const char *attrName, int numValues, const uint8_t *values) {
  return setList<bool>(attr, attrName, numValues, values, __func__);
}
extern "C" aclError aclopSetAttrListString(aclopAttr *attr, const char *attrName, int numValues, const char **values) {
  return setList<std::string>(attr, attrName, numValues, values, __func__);
}
extern "C" aclError aclopSetAttrListDataType(aclopAttr *attr, const char *attrName, int numValues,
                                             const aclDataType values[]) {
  for (int i = 0; values != nullptr && i < numValues; ++i)
    if (!isKnownDataType(values[i])) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "values[%d] (%d) is not an aclDataType", i, values[i]);
  return setList<DataTypeValue>(attr, attrName, numValues, values, __func__);
}
extern "C" aclError aclopSetAttrListListInt(aclopAttr *attr, const char *attrName, int numLists, const int *numValues,
                                            const int64_t *const values[]) {
  if (numLists < 0) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "numLists is %d", numLists);
  if (numLists > 0 && (numValues == nullptr || values == nullptr))
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL but numLists is %d", numValues ? "values" : "numValues", numLists);
  std::vector<std::vector<int64_t>> lists;
  for (int i = 0; i < numLists; ++i) {
    if (numValues[i] < 0) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "numValues[%d] is %d", i, numValues[i]);
    if (numValues[i] > 0 && values[i] == nullptr)
      return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "values[%d] is NULL but numValues[%d] is %d", i, i, numValues[i]);
    lists.emplace_back(values[i], values[i] + numValues[i]);
  }
  return setAttr(attr, attrName, std::move(lists), __func__);
}
