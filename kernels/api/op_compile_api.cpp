// aclopCompile, aclopCompileAndExecute and the compile settings.
#include "diagnostics.h"
#include "op_session.h"
#include "runtime_state.h"
#include "untrusted_enum.h"

using namespace aclcpu;

namespace {

aclError checkCompileArguments(aclopEngineType engineType, aclopCompileType compileFlag, const char *caller) {
  long long engine = untrustedEnumValue(engineType), flag = untrustedEnumValue(compileFlag);
  if (engine < ACL_ENGINE_SYS || engine > ACL_ENGINE_VECTOR)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "engineType %lld is not an aclopEngineType", engine);
  if (flag == ACL_COMPILE_UNREGISTERED)
    return reportError(ACL_ERROR_API_NOT_SUPPORT, caller,
                       "ACL_COMPILE_UNREGISTERED (custom operators from opPath) is not supported by aclcpu");
  if (flag != ACL_COMPILE_SYS)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "compileFlag %lld is not an aclopCompileType", flag);
  return ACL_SUCCESS;  // every engine compiles to the same CPU code
}

}  // namespace

extern "C" aclError aclopCompile(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                 int numOutputs, const aclTensorDesc *const outputDesc[], const aclopAttr *attr,
                                 aclopEngineType engineType, aclopCompileType compileFlag, const char *opPath) {
  ACLCPU_REQUIRE_INIT();
  (void)opPath;
  if (aclError error = checkCompileArguments(engineType, compileFlag, __func__)) return error;
  std::shared_ptr<Model> model;
  ResolvedRequest request;
  return compileRequest(opType, numInputs, inputDesc, numOutputs, outputDesc, attr, model, request, __func__);
}

extern "C" aclError aclopCompileAndExecute(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                                           const aclDataBuffer *const inputs[], int numOutputs,
                                           const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[],
                                           const aclopAttr *attr, aclopEngineType engineType,
                                           aclopCompileType compileFlag, const char *opPath, aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  (void)opPath;
  if (aclError error = checkCompileArguments(engineType, compileFlag, __func__)) return error;
  if ((numInputs > 0 && inputs == nullptr) || outputs == nullptr)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "%s is NULL", outputs ? "inputs" : "outputs");
  std::shared_ptr<Model> model;
  ResolvedRequest request;
  if (aclError error = compileRequest(opType, numInputs, inputDesc, numOutputs, outputDesc, attr, model, request, __func__))
    return error;
  return launchModel(*model, tensorDims(request.inputs), tensorDims(request.outputs), inputs, outputs, stream, __func__);
}

extern "C" aclError aclSetCompileopt(aclCompileOpt opt, const char *value) {
  long long option = untrustedEnumValue(opt);
  if (option < ACL_PRECISION_MODE || option > ACL_OP_DEBUG_OPTION)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "opt %lld is not an aclCompileOpt", option);
  if (value == nullptr) return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "value is NULL");
  return ACL_SUCCESS;  // accepted: precision, debug and cache options do not change CPU code
}

extern "C" aclError aclopSetCompileFlag(aclOpCompileFlag flag) {
  long long value = untrustedEnumValue(flag);
  if (value != ACL_OP_COMPILE_DEFAULT && value != ACL_OP_COMPILE_FUZZ)
    return ACLCPU_FAIL(ACL_ERROR_INVALID_PARAM, "flag %lld is not an aclOpCompileFlag", value);
  compileFlag().store(static_cast<int>(value));
  return ACL_SUCCESS;
}
