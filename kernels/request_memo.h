// Per-thread memos of resolved requests. Resolving a request (strings, vectors, an attribute
// map, a signature, the model store's lock) was two thirds of a small operator's
// aclopExecuteV2 and most of a small aclblasGemmEx; a call equal, by content, to a memoized one
// reuses its model and dims. Entries are valid while the model store's generation is unchanged
// (no compile, eviction, load or aclFinalize since), and hold their model weakly.
#pragma once

#include "model_store.h"
#include "op_session.h"

#include <array>

namespace aclcpu {

struct MemoizedRequest {
  std::shared_ptr<Model> model;
  // The request's dims (outputs inferred when the model is dynamic); owned by the memo, valid
  // until this thread memoizes another request in it.
  const std::vector<std::vector<int64_t>> *inputDims = nullptr, *outputDims = nullptr;
};

// The last few requests of one kind (Key: what selects their model) on one thread: declare it
// thread_local.
template <class Key>
class RequestMemo {
 public:
  // The model and dims of an earlier request whose key satisfies `matches`, or false.
  template <class Matches>
  bool find(Matches matches, MemoizedRequest &out) {
    uint64_t generation = modelStore().generation();
    for (Entry &entry : entries_) {
      if (!entry.used || entry.generation != generation || !matches(entry.key)) continue;
      out.model = entry.model.lock();
      if (!out.model) return false;
      out.model->markUsed();
      out.inputDims = &entry.inputDims;
      out.outputDims = &entry.outputDims;
      return true;
    }
    return false;
  }

  // For entry points that compile on first use (aclopCast, aclblas*): the memoized model of a
  // key satisfying `matches`, else the one `compile(model, request)` finds or compiles,
  // remembered under `makeKey()` with the request's dims.
  template <class Matches, class MakeKey, class Compile>
  aclError findOrCompile(Matches matches, MakeKey makeKey, Compile compile, MemoizedRequest &out) {
    if (find(matches, out)) return ACL_SUCCESS;
    uint64_t storeGeneration = modelStore().generation();  // before compiling: a change since voids the entry
    std::shared_ptr<Model> model;
    ResolvedRequest request;
    if (aclError error = compile(model, request)) return error;
    out = remember(makeKey(), storeGeneration, std::move(model), tensorDims(request.inputs),
                   tensorDims(request.outputs));
    return ACL_SUCCESS;
  }

  // Remembers what a request resolved to, and returns it; `storeGeneration` is the store's
  // generation read before the request was resolved (a change since voids the entry).
  MemoizedRequest remember(Key key, uint64_t storeGeneration, std::shared_ptr<Model> model,
                           std::vector<std::vector<int64_t>> inputDims, std::vector<std::vector<int64_t>> outputDims) {
    Entry &entry = entries_[next_];
    next_ = (next_ + 1) % entries_.size();
    entry = Entry{true, storeGeneration, std::move(key), model, std::move(inputDims), std::move(outputDims)};
    return MemoizedRequest{std::move(model), &entry.inputDims, &entry.outputDims};
  }

 private:
  struct Entry {
    bool used = false;
    uint64_t generation = 0;
    Key key;
    std::weak_ptr<Model> model;
    std::vector<std::vector<int64_t>> inputDims, outputDims;
  };
  std::array<Entry, 4> entries_;  // a program alternating a handful of requests keeps hitting
  size_t next_ = 0;               // the entry the next request replaces
};

// The arguments that select an aclopExecuteV2 request's model, and their memo key: copies of
// the descriptions and attributes, compared by content (callers change them in place).
struct RequestArguments {
  const char *opType;
  int numInputs;
  const aclTensorDesc *const *inputDesc;
  int numOutputs;
  const aclTensorDesc *const *outputDesc;
  const aclopAttr *attr;
};

struct RequestKey {
  std::string opType;
  std::vector<aclTensorDesc> inputs, outputs;
  bool hasAttr = false;
  aclopAttr attr;

  static RequestKey of(const RequestArguments &arguments);
  bool matches(const RequestArguments &arguments) const;
};

}  // namespace aclcpu
