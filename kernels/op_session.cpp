// Shared steps of the operator entry points.
#include "op_session.h"

#include "diagnostics.h"

#include <new>

namespace aclcpu {

std::atomic<int> &compileFlag() {
  static std::atomic<int> flag{ACL_OP_COMPILE_DEFAULT};
  return flag;
}

std::vector<std::vector<int64_t>> tensorDims(const std::vector<ResolvedTensor> &tensors) {
  std::vector<std::vector<int64_t>> dims;
  for (const ResolvedTensor &t : tensors) dims.push_back(t.dims);
  return dims;
}

aclError compileRequest(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
                        const aclTensorDesc *const outputDesc[], const aclopAttr *attr,
                        std::shared_ptr<Model> &model, ResolvedRequest &request, const char *caller) {
  if (aclError error = resolveRequest(opType, numInputs, inputDesc, numOutputs, outputDesc, attr, false, request, caller))
    return error;
  if (compileFlag().load() != ACL_OP_COMPILE_FUZZ) return modelStore().compile(request, model, caller);
  ResolvedRequest everyShape;
  if (aclError error = resolveRequest(opType, numInputs, inputDesc, numOutputs, outputDesc, attr, true, everyShape, caller))
    return error;
  return modelStore().compile(everyShape, model, caller);
}

aclError makeHandle(std::shared_ptr<Model> model, const ResolvedRequest &request, aclopHandle **handle,
                    const char *caller) {
  if (request.isDynamic())
    return reportError(ACL_ERROR_OP_UNSUPPORTED_DYNAMIC, caller, "handles take static shapes (%s has unknown dims)",
                       request.opType.c_str());
  auto *created = new (std::nothrow) aclopHandle();
  if (created == nullptr) return reportError(ACL_ERROR_BAD_ALLOC, caller, "out of memory");
  created->model = std::move(model);
  created->inputDims = tensorDims(request.inputs);
  created->outputDims = tensorDims(request.outputs);
  *handle = created;
  return ACL_SUCCESS;
}

}  // namespace aclcpu
