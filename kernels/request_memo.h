// A per-thread memo of the requests aclopExecuteV2 resolved last. Resolving a request (strings,
// vectors, an attribute map, a signature, the model store's lock) was two thirds of a small
// operator's ExecuteV2; a call whose descriptions and attributes equal, by content, those of a
// memoized call reuses its model and dims. Entries are valid while the model store's generation
// is unchanged (no compile, eviction, load or aclFinalize since), and hold their model weakly.
#pragma once

#include "model_store.h"

namespace aclcpu {

// The arguments that select an ExecuteV2 request's model.
struct RequestArguments {
  const char *opType;
  int numInputs;
  const aclTensorDesc *const *inputDesc;
  int numOutputs;
  const aclTensorDesc *const *outputDesc;
  const aclopAttr *attr;
};

struct MemoizedRequest {
  std::shared_ptr<Model> model;
  // The request's dims (outputs inferred when the model is dynamic); owned by the memo, valid
  // until this thread memoizes another request.
  const std::vector<std::vector<int64_t>> *inputDims = nullptr, *outputDims = nullptr;
};

// The model and dims of an earlier request with equal arguments on this thread, or false.
bool findMemoizedRequest(const RequestArguments &arguments, MemoizedRequest &out);

// Remembers what `arguments` resolved to (a successful ExecuteV2's model and dims).
void memoizeRequest(const RequestArguments &arguments, uint64_t storeGeneration, const std::shared_ptr<Model> &model,
                    std::vector<std::vector<int64_t>> inputDims, std::vector<std::vector<int64_t>> outputDims);

}  // namespace aclcpu
