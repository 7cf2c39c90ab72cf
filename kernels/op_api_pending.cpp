// The single-operator API (issue 5: tensor descriptions, data buffers, attributes, aclop*,
// aclblas*) is not implemented yet: every entry point fails with ACL_ERROR_API_NOT_SUPPORT (or
// returns NULL / 0 where the signature has no error code) and sets the recent error message.
#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"
#include "diagnostics.h"

#define ACLCPU_PENDING() \
  ACLCPU_FAIL(ACL_ERROR_API_NOT_SUPPORT, "the single-operator API is not supported yet in aclcpu (see README)")

extern "C" {
aclDataBuffer *aclCreateDataBuffer(void *, size_t) { return ACLCPU_PENDING(), nullptr; }
aclError aclDestroyDataBuffer(const aclDataBuffer *) { return ACLCPU_PENDING(); }
aclError aclUpdateDataBuffer(aclDataBuffer *, void *, size_t) { return ACLCPU_PENDING(); }
void *aclGetDataBufferAddr(const aclDataBuffer *) { return ACLCPU_PENDING(), nullptr; }
size_t aclGetDataBufferSizeV2(const aclDataBuffer *) { return ACLCPU_PENDING(), 0; }

aclTensorDesc *aclCreateTensorDesc(aclDataType, int, const int64_t *, aclFormat) { return ACLCPU_PENDING(), nullptr; }
void aclDestroyTensorDesc(const aclTensorDesc *) { ACLCPU_PENDING(); }
aclError aclSetTensorShapeRange(aclTensorDesc *, size_t, int64_t[][ACL_TENSOR_SHAPE_RANGE_NUM]) {
  return ACLCPU_PENDING();
}
aclDataType aclGetTensorDescType(const aclTensorDesc *) { return ACLCPU_PENDING(), ACL_DT_UNDEFINED; }
aclFormat aclGetTensorDescFormat(const aclTensorDesc *) { return ACLCPU_PENDING(), ACL_FORMAT_UNDEFINED; }
size_t aclGetTensorDescSize(const aclTensorDesc *) { return ACLCPU_PENDING(), 0; }
size_t aclGetTensorDescElementCount(const aclTensorDesc *) { return ACLCPU_PENDING(), 0; }
size_t aclGetTensorDescNumDims(const aclTensorDesc *) { return ACLCPU_PENDING(), 0; }
aclError aclGetTensorDescDimV2(const aclTensorDesc *, size_t, int64_t *) { return ACLCPU_PENDING(); }
aclError aclGetTensorDescDimRange(const aclTensorDesc *, size_t, size_t, int64_t *) { return ACLCPU_PENDING(); }
aclError aclSetTensorConst(aclTensorDesc *, void *, size_t) { return ACLCPU_PENDING(); }
aclError aclSetTensorPlaceMent(aclTensorDesc *, aclMemType) { return ACLCPU_PENDING(); }

aclopAttr *aclopCreateAttr(void) { return ACLCPU_PENDING(), nullptr; }
void aclopDestroyAttr(const aclopAttr *) { ACLCPU_PENDING(); }
aclError aclopSetAttrBool(aclopAttr *, const char *, uint8_t) { return ACLCPU_PENDING(); }
aclError aclopSetAttrInt(aclopAttr *, const char *, int64_t) { return ACLCPU_PENDING(); }
aclError aclopSetAttrFloat(aclopAttr *, const char *, float) { return ACLCPU_PENDING(); }
aclError aclopSetAttrString(aclopAttr *, const char *, const char *) { return ACLCPU_PENDING(); }
aclError aclopSetAttrDataType(aclopAttr *, const char *, aclDataType) { return ACLCPU_PENDING(); }
aclError aclopSetAttrListInt(aclopAttr *, const char *, int, const int64_t *) { return ACLCPU_PENDING(); }
aclError aclopSetAttrListFloat(aclopAttr *, const char *, int, const float *) { return ACLCPU_PENDING(); }
aclError aclopSetAttrListBool(aclopAttr *, const char *, int, const uint8_t *) { return ACLCPU_PENDING(); }
aclError aclopSetAttrListString(aclopAttr *, const char *, int, const char **) { return ACLCPU_PENDING(); }

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
