// aclopExecuteV2, handles and aclopInferShape.
#include "diagnostics.h"
#include "op_session.h"
#include "runtime_state.h"

using namespace aclcpu;

extern "C" aclError aclopExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                   aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
                                   aclDataBuffer *outputs[], aclopAttr *attr, aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  if ((numInputs > 0 && inputs == nullptr) || outputs == nullptr)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", outputs ? "inputs" : "outputs");
  ResolvedRequest request;
  if (aclError error = resolveRequest(opType, numInputs, inputDesc, numOutputs, outputDesc, attr, false, request, __func__))
    return error;
  std::string mismatch;
  std::shared_ptr<Model> model = modelStore().find(request, mismatch);
  if (!model) return ACLCPU_FAIL(ACL_ERROR_OP_NOT_FOUND, "no compiled or loaded model matches: %s", mismatch.c_str());
  auto outputDims = tensorDims(request.outputs);
  if (model->request.isDynamic()) {
    // Output shapes follow from this request's inputs and are written back to its descriptions.
    std::vector<TensorSpec> outputsInferred;
    std::string error;
    if (!inferOutputs(request.spec, outputsInferred, error))
      return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "%s", error.c_str());
    for (size_t i = 0; i < outputsInferred.size(); ++i) {
      outputDims[i] = outputsInferred[i].shape;
      outputDesc[i]->dims = outputsInferred[i].shape;
    }
  }
  return launchModel(*model, tensorDims(request.inputs), outputDims, inputs, outputs, stream, __func__);
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

extern "C" aclError aclopInferShape(const char *opType, int numInputs, aclTensorDesc *inputDesc[],
                                    aclDataBuffer *inputs[], int numOutputs, aclTensorDesc *outputDesc[],
                                    aclopAttr *attr) {
  ACLCPU_REQUIRE_INIT();
  (void)inputs;  // shapes here never depend on input values
  ResolvedRequest request;
  if (aclError error = resolveRequest(opType, numInputs, inputDesc, numOutputs, outputDesc, attr, false, request, __func__))
    return error;
  std::vector<TensorSpec> outputs;
  std::string error;
  if (!inferOutputs(request.spec, outputs, error)) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "%s", error.c_str());
  for (size_t i = 0; i < outputs.size(); ++i) {
    outputDesc[i]->dims = outputs[i].shape;
    outputDesc[i]->dataType = toAclDataType(outputs[i].type);
    outputDesc[i]->unknownRank = false;
    outputDesc[i]->shapeRange.clear();
  }
  return ACL_SUCCESS;
}
