// aclopExecuteV2 (and the deprecated aclopExecute), handles and aclopInferShape.
#include "diagnostics.h"
#include "op_session.h"
#include "request_memo.h"
#include "runtime_state.h"

using namespace aclcpu;

namespace {

// Finds the model a request matches and launches it. A dynamic model's inferred output shapes
// are written back to `outputDims` when it is given (aclopExecuteV2's output descriptions).
aclError executeOp(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                   const aclDataBuffer *const inputs[], int numOutputs, const aclTensorDesc *const outputDesc[],
                   aclDataBuffer *const outputs[], const aclopAttr *attr, aclrtStream stream,
                   aclTensorDesc *const *writeBack, const char *caller) {
  if ((numInputs > 0 && inputs == nullptr) || outputs == nullptr)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "%s is NULL", outputs ? "inputs" : "outputs");
  RequestArguments arguments{opType, numInputs, inputDesc, numOutputs, outputDesc, attr};
  // A dynamic model writes the inferred output shapes back to the request's descriptions (a
  // model with a static plan has no dynamic dim: no need to look at every dim).
  auto writeOutputDims = [&](const Model &model, const std::vector<std::vector<int64_t>> &dims) {
    if (writeBack == nullptr || model.staticLaunch || !model.request.isDynamic()) return;
    for (size_t i = 0; i < dims.size(); ++i) writeBack[i]->dims = dims[i];
  };
  thread_local RequestMemo<RequestKey> memo;
  MemoizedRequest memoized;
  if (memo.find([&](const RequestKey &key) { return key.matches(arguments); }, memoized)) {
    writeOutputDims(*memoized.model, *memoized.outputDims);
    return launchModel(*memoized.model, *memoized.inputDims, *memoized.outputDims, inputs, outputs, stream, caller);
  }
  uint64_t storeGeneration = modelStore().generation();  // before the lookup: a change after it voids the memo
  ResolvedRequest request;
  if (aclError error = resolveRequest(opType, numInputs, inputDesc, numOutputs, outputDesc, attr, false, request, caller))
    return error;
  std::string mismatch;
  std::shared_ptr<Model> model = modelStore().find(request, mismatch);
  if (!model)
    return reportError(ACL_ERROR_OP_NOT_FOUND, caller, "no compiled or loaded model matches: %s", mismatch.c_str());
  auto outputDims = tensorDims(request.outputs);
  if (model->request.isDynamic()) {
    // Output shapes follow from this request's inputs.
    std::vector<TensorSpec> outputsInferred;
    std::string error;
    if (!inferOutputs(request.spec, outputsInferred, error))
      return reportError(ACL_ERROR_INVALID_PARAM, caller, "%s", error.c_str());
    for (size_t i = 0; i < outputsInferred.size(); ++i) outputDims[i] = outputsInferred[i].shape;
  }
  memoized = memo.remember(RequestKey::of(arguments), storeGeneration, std::move(model), tensorDims(request.inputs),
                           std::move(outputDims));
  writeOutputDims(*memoized.model, *memoized.outputDims);
  return launchModel(*memoized.model, *memoized.inputDims, *memoized.outputDims, inputs, outputs, stream, caller);
}

}  // namespace

extern "C" aclError aclopExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                   aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
                                   aclDataBuffer *outputs[], aclopAttr *attr, aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  return executeOp(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr, stream, outputDesc,
                   __func__);
}

// CANN's first execute: the same lookup and launch, its descriptions const (a dynamic model's
// output shapes are not written back).
extern "C" aclError aclopExecute(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                 const aclDataBuffer *const inputs[], int numOutputs,
                                 const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[],
                                 const aclopAttr *attr, aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  return executeOp(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr, stream, nullptr,
                   __func__);
}

extern "C" aclError aclopCreateHandle(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                      int numOutputs, const aclTensorDesc *const outputDesc[], const aclopAttr *opAttr,
                                      aclopHandle **handle) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(handle);
  ResolvedRequest request;
  if (aclError error = resolveRequest(opType, numInputs, inputDesc, numOutputs, outputDesc, opAttr, false, request, __func__))
    return error;
  std::string mismatch;
  std::shared_ptr<Model> model = modelStore().find(request, mismatch);
  if (!model) return ACLCPU_FAIL(ACL_ERROR_OP_NOT_FOUND, "no compiled or loaded model matches: %s", mismatch.c_str());
  if (model->request.isDynamic()) {
    // The handle's concrete shapes must make sense together (the model's ranges alone do not
    // say that two dynamic contraction sizes agree); its output shapes follow from them.
    std::vector<TensorSpec> outputs;
    std::string error;
    if (!inferOutputs(request.spec, outputs, error)) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "%s", error.c_str());
    for (size_t i = 0; i < outputs.size(); ++i) request.outputs[i].dims = outputs[i].shape;
  }
  return makeHandle(std::move(model), request, handle, __func__);
}

extern "C" void aclopDestroyHandle(aclopHandle *handle) { delete handle; }

extern "C" aclError aclopExecWithHandle(aclopHandle *handle, int numInputs, const aclDataBuffer *const inputs[],
                                        int numOutputs, aclDataBuffer *const outputs[], aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  ACLCPU_CHECK_NOT_NULL(handle);
  if (static_cast<size_t>(numInputs) != handle->inputDims.size() ||
      static_cast<size_t>(numOutputs) != handle->outputDims.size())
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "the handle takes %zu inputs and %zu outputs, not %d and %d",
                       handle->inputDims.size(), handle->outputDims.size(), numInputs, numOutputs);
  if ((numInputs > 0 && inputs == nullptr) || outputs == nullptr)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", outputs ? "inputs" : "outputs");
  return launchModel(*handle->model, handle->inputDims, handle->outputDims, inputs, outputs, stream, __func__);
}

namespace {

// Output shape ranges from the inputs' ranges: every shape function here is monotone in its
// input dims, so inferring at the inputs' lower and upper bounds bounds each output dim.
// Returns false (no ranges) when a bound does not admit a shape or an upper bound is open.
bool inferOutputRanges(const ResolvedRequest &request, const std::vector<TensorSpec> &outputs,
                       std::vector<std::vector<std::array<int64_t, 2>>> &ranges) {
  std::vector<TensorSpec> bounds[2];
  for (int side = 0; side < 2; ++side) {
    OpSpec spec = request.spec;
    for (size_t k = 0; k < spec.inputs.size(); ++k) {
      const ResolvedTensor &input = request.inputs[request.kernelInputs[k]];
      for (size_t d = 0; d < spec.inputs[k].shape.size(); ++d) {
        if (spec.inputs[k].shape[d] >= 0) continue;
        int64_t bound = input.ranges[d][side];
        if (bound < 0) bound = side == 0 ? 0 : -1;
        spec.inputs[k].shape[d] = bound;
      }
    }
    std::string ignored;
    bool open = false;
    for (const TensorSpec &input : spec.inputs)
      for (int64_t d : input.shape) open |= d < 0;
    if (open || !inferOutputs(spec, bounds[side], ignored)) bounds[side].clear();
  }
  if (bounds[0].size() != outputs.size()) return false;
  ranges.assign(outputs.size(), {});
  for (size_t i = 0; i < outputs.size(); ++i)
    for (size_t d = 0; d < outputs[i].shape.size(); ++d) {
      int64_t lo = bounds[0][i].shape[d], hi = bounds[1].empty() ? -1 : bounds[1][i].shape[d];
      ranges[i].push_back(outputs[i].shape[d] >= 0 ? std::array<int64_t, 2>{outputs[i].shape[d], outputs[i].shape[d]}
                                                   : std::array<int64_t, 2>{lo, hi});
    }
  return true;
}

}  // namespace

extern "C" aclError aclopInferShape(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                    aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
                                    aclopAttr *attr) {
  ACLCPU_REQUIRE_INIT();
  (void)inputs;  // shapes here never depend on input values
  if (numInputs > 0 && inputDesc == nullptr) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "inputDesc is NULL");
  if (numOutputs > 0 && outputDesc == nullptr) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "outputDesc is NULL");
  for (int i = 0; i < numInputs; ++i) {
    if (inputDesc[i] == nullptr || !inputDesc[i]->unknownRank) continue;
    // An input of unknown rank leaves every output of unknown rank.
    for (int o = 0; o < numOutputs; ++o) {
      if (outputDesc[o] == nullptr) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "outputDesc[%d] is NULL", o);
      outputDesc[o]->unknownRank = true;
      outputDesc[o]->dims.clear();
      outputDesc[o]->shapeRange.clear();
    }
    return ACL_SUCCESS;
  }
  ResolvedRequest request;
  if (aclError error = resolveRequest(opType, numInputs, inputDesc, numOutputs, outputDesc, attr, false, request, __func__))
    return error;
  std::vector<TensorSpec> outputs;
  std::string error;
  if (!inferOutputs(request.spec, outputs, error)) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "%s", error.c_str());
  std::vector<std::vector<std::array<int64_t, 2>>> ranges;
  bool ranged = request.isDynamic() && inferOutputRanges(request, outputs, ranges);
  for (size_t i = 0; i < outputs.size(); ++i) {
    outputDesc[i]->dims = outputs[i].shape;
    outputDesc[i]->dataType = toAclDataType(outputs[i].type);
    outputDesc[i]->unknownRank = false;
    outputDesc[i]->shapeRange = ranged ? ranges[i] : std::vector<std::array<int64_t, 2>>{};
  }
  return ACL_SUCCESS;
}
