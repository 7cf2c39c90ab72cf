// The memo key of aclopExecuteV2 requests.
#include "request_memo.h"

namespace aclcpu {
namespace {

bool sameDescriptions(const std::vector<aclTensorDesc> &memoized, int count, const aclTensorDesc *const *descs) {
  if (static_cast<size_t>(count) != memoized.size() || (count > 0 && descs == nullptr)) return false;
  for (int i = 0; i < count; ++i)
    if (descs[i] == nullptr || !sameDescription(memoized[i], *descs[i])) return false;
  return true;
}

}  // namespace

RequestKey RequestKey::of(const RequestArguments &arguments) {
  RequestKey key;
  key.opType = arguments.opType;
  for (int i = 0; i < arguments.numInputs; ++i) key.inputs.push_back(*arguments.inputDesc[i]);
  for (int i = 0; i < arguments.numOutputs; ++i) key.outputs.push_back(*arguments.outputDesc[i]);
  key.hasAttr = arguments.attr != nullptr;
  if (key.hasAttr) key.attr.values = arguments.attr->values;
  return key;
}

bool RequestKey::matches(const RequestArguments &arguments) const {
  return arguments.opType != nullptr && opType == arguments.opType &&
         sameDescriptions(inputs, arguments.numInputs, arguments.inputDesc) &&
         sameDescriptions(outputs, arguments.numOutputs, arguments.outputDesc) &&
         hasAttr == (arguments.attr != nullptr) && (!hasAttr || attr.values == arguments.attr->values);
}

}  // namespace aclcpu
