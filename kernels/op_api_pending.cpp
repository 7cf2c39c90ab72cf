// The operator entry points of issue 5 not implemented yet (model loading, compile, execute,
// handles, cast, cblas): each fails with ACL_ERROR_API_NOT_SUPPORT and sets the recent error
// message. (void aclopDestroyHandle only records the message.)
#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"
#include "diagnostics.h"

#define ACLCPU_PENDING() \
  ACLCPU_FAIL(ACL_ERROR_API_NOT_SUPPORT, "the single-operator API is not supported yet in aclcpu (see README)")

extern "C" {
aclError aclopSetModelDir(const char *) { return ACLCPU_PENDING(); }
aclError aclopLoad(const void *, size_t) { return ACLCPU_PENDING(); }
aclError aclopExecuteV2(const char *, int, aclTensorDesc *[], aclDataBuffer *[], int, aclTensorDesc *[],
                        aclDataBuffer *[], aclopAttr *, aclrtStream) {
  return ACLCPU_PENDING();
}
aclError aclopCreateHandle(const char *, int, const aclTensorDesc *const[], int, const aclTensorDesc *const[],
                           const aclopAttr *, aclopHandle **) {
  return ACLCPU_PENDING();
}
void aclopDestroyHandle(aclopHandle *) { ACLCPU_PENDING(); }
aclError aclopExecWithHandle(aclopHandle *, int, const aclDataBuffer *const[], int, aclDataBuffer *const[],
                             aclrtStream) {
  return ACLCPU_PENDING();
}
aclError aclopInferShape(const char *, int, aclTensorDesc *[], aclDataBuffer *[], int, aclTensorDesc *[],
                         aclopAttr *) {
  return ACLCPU_PENDING();
}
aclError aclopCast(const aclTensorDesc *, const aclDataBuffer *, const aclTensorDesc *, aclDataBuffer *, uint8_t,
                   aclrtStream) {
  return ACLCPU_PENDING();
}
aclError aclopCreateHandleForCast(aclTensorDesc *, aclTensorDesc *, uint8_t, aclopHandle **) {
  return ACLCPU_PENDING();
}

aclError aclopCompile(const char *, int, const aclTensorDesc *const[], int, const aclTensorDesc *const[],
                      const aclopAttr *, aclopEngineType, aclopCompileType, const char *) {
  return ACLCPU_PENDING();
}
aclError aclopCompileAndExecute(const char *, int, const aclTensorDesc *const[], const aclDataBuffer *const[], int,
                                const aclTensorDesc *const[], aclDataBuffer *const[], const aclopAttr *,
                                aclopEngineType, aclopCompileType, const char *, aclrtStream) {
  return ACLCPU_PENDING();
}
aclError aclSetCompileopt(aclCompileOpt, const char *) { return ACLCPU_PENDING(); }
aclError aclopSetCompileFlag(aclOpCompileFlag) { return ACLCPU_PENDING(); }

aclError aclblasGemvEx(aclTransType, int, int, const void *, const void *, int, aclDataType, const void *, int,
                       aclDataType, const void *, void *, int, aclDataType, aclComputeType, aclrtStream) {
  return ACLCPU_PENDING();
}
aclError aclblasCreateHandleForGemvEx(aclTransType, int, int, aclDataType, aclDataType, aclDataType, aclComputeType,
                                      aclopHandle **) {
  return ACLCPU_PENDING();
}
aclError aclblasGemmEx(aclTransType, aclTransType, aclTransType, int, int, int, const void *, const void *, int,
                       aclDataType, const void *, int, aclDataType, const void *, void *, int, aclDataType,
                       aclComputeType, aclrtStream) {
  return ACLCPU_PENDING();
}
aclError aclblasCreateHandleForGemmEx(aclTransType, aclTransType, aclTransType, int, int, int, aclDataType,
                                      aclDataType, aclDataType, aclComputeType, aclopHandle **) {
  return ACLCPU_PENDING();
}
aclError aclblasHgemm(aclTransType, aclTransType, aclTransType, int, int, int, const aclFloat16 *,
                      const aclFloat16 *, int, const aclFloat16 *, int, const aclFloat16 *, aclFloat16 *, int,
                      aclComputeType, aclrtStream) {
  return ACLCPU_PENDING();
}
aclError aclblasCreateHandleForHgemm(aclTransType, aclTransType, aclTransType, int, int, int, aclComputeType,
                                     aclopHandle **) {
  return ACLCPU_PENDING();
}
aclError aclblasS8gemm(aclTransType, aclTransType, aclTransType, int, int, int, const int32_t *, const int8_t *, int,
                       const int8_t *, int, const int32_t *, int32_t *, int, aclComputeType, aclrtStream) {
  return ACLCPU_PENDING();
}
aclError aclblasCreateHandleForS8gemm(aclTransType, aclTransType, aclTransType, int, int, int, aclComputeType,
                                      aclopHandle **) {
  return ACLCPU_PENDING();
}
}
