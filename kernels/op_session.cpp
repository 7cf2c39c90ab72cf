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
  bool fuzz = compileFlag().load() == ACL_OP_COMPILE_FUZZ;
  if (aclError error = resolveRequest(opType, numInputs, inputDesc, numOutputs, outputDesc, attr, fuzz, request, caller))
    return error;
  return modelStore().compile(request, model, caller);
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
