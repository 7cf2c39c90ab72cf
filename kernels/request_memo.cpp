// The per-thread request memo of aclopExecuteV2.
#include "request_memo.h"

#include <array>
#include <cstring>

namespace aclcpu {
namespace {

struct Entry {
  bool used = false;
  uint64_t generation = 0;
  std::string opType;
  std::vector<aclTensorDesc> inputs, outputs;
  bool hasAttr = false;
  aclopAttr attr;
  std::weak_ptr<Model> model;
  std::vector<std::vector<int64_t>> inputDims, outputDims;
};

// A few entries: a program that alternates a handful of operators keeps hitting.
struct Memo {
  std::array<Entry, 4> entries;
  size_t next = 0;  // the entry the next memoized request replaces
};

thread_local Memo memo;

bool sameDescriptions(const std::vector<aclTensorDesc> &memoized, int count, const aclTensorDesc *const *descs) {
  if (static_cast<size_t>(count) != memoized.size() || (count > 0 && descs == nullptr)) return false;
  for (int i = 0; i < count; ++i)
    if (descs[i] == nullptr || !sameDescription(memoized[i], *descs[i])) return false;
  return true;
}

bool matches(const Entry &entry, const RequestArguments &arguments) {
  return entry.used && arguments.opType != nullptr && entry.opType == arguments.opType &&
         sameDescriptions(entry.inputs, arguments.numInputs, arguments.inputDesc) &&
         sameDescriptions(entry.outputs, arguments.numOutputs, arguments.outputDesc) &&
         entry.hasAttr == (arguments.attr != nullptr) && (!entry.hasAttr || entry.attr.values == arguments.attr->values);
}

}  // namespace

bool findMemoizedRequest(const RequestArguments &arguments, MemoizedRequest &out) {
  uint64_t generation = modelStore().generation();
  for (Entry &entry : memo.entries) {
    if (entry.generation != generation || !matches(entry, arguments)) continue;
    out.model = entry.model.lock();
    if (!out.model) return false;
    out.inputDims = &entry.inputDims;
    out.outputDims = &entry.outputDims;
    return true;
  }
  return false;
}

void memoizeRequest(const RequestArguments &arguments, uint64_t storeGeneration, const std::shared_ptr<Model> &model,
                    std::vector<std::vector<int64_t>> inputDims, std::vector<std::vector<int64_t>> outputDims) {
  Entry &entry = memo.entries[memo.next];
  memo.next = (memo.next + 1) % memo.entries.size();
  entry.used = true;
  entry.generation = storeGeneration;
  entry.opType = arguments.opType;
  entry.inputs.clear();
  for (int i = 0; i < arguments.numInputs; ++i) entry.inputs.push_back(*arguments.inputDesc[i]);
  entry.outputs.clear();
  for (int i = 0; i < arguments.numOutputs; ++i) entry.outputs.push_back(*arguments.outputDesc[i]);
  entry.hasAttr = arguments.attr != nullptr;
  entry.attr.values = entry.hasAttr ? arguments.attr->values : decltype(aclopAttr::values){};
  entry.model = model;
  entry.inputDims = std::move(inputDims);
  entry.outputDims = std::move(outputDims);
}

}  // namespace aclcpu
