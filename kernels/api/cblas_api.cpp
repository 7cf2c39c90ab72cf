// The cblas wrappers: aclblasGemmEx is op type GEMM with inputs A, B, C, alpha, beta (0-d
// tensors read from device memory when the op runs) and output C; Hgemm, S8gemm and GemvEx
// are GemmEx with fixed types or n = 1 (x and y are B and C, their increments the row strides).
// Models are compiled on first use. Strided operands (lda/ldb/ldc above the row length,
// increments above 1) are staged through packed buffers on the stream (strided_staging.h).
#include "acl/ops/acl_cblas.h"
#include "diagnostics.h"
#include "op_session.h"
#include "request_memo.h"
#include "runtime_state.h"
#include "strided_staging.h"
#include "untrusted_enum.h"

#include <memory>

using namespace aclcpu;

namespace {

struct DescDeleter {
  void operator()(aclTensorDesc *desc) const { aclDestroyTensorDesc(desc); }
};
using Desc = std::unique_ptr<aclTensorDesc, DescDeleter>;

Desc makeDesc(aclDataType type, std::vector<int64_t> dims) {
  return Desc(aclCreateTensorDesc(type, static_cast<int>(dims.size()), dims.data(), ACL_FORMAT_ND));
}

struct GemmShape {
  aclTransType transA, transB;
  int m, n, k;
  aclDataType typeA, typeB, typeC;
  bool lowPrecision = false;  // f16 or f32 inputs rounded to bf16 (lowPrecisionFor)
};

// ACL_COMPUTE_LOW_PRECISION rounds f16 and f32 inputs to bf16 before their products (GEMM's
// low_precision), which then run as bf16 pairs at twice the f32 FMA's rate where the CPU has
// AVX512-BF16. Other inputs compute as with ACL_COMPUTE_HIGH_PRECISION. The real library
// documents the low-precision mode as unsupported; here it is an opt-in for speed.
GemmShape lowPrecisionFor(GemmShape shape, aclComputeType type) {
  shape.lowPrecision = untrustedEnumValue(type) == ACL_COMPUTE_LOW_PRECISION && shape.typeA == shape.typeB &&
                       (shape.typeA == ACL_FLOAT16 || shape.typeA == ACL_FLOAT);
  return shape;
}

aclError checkTrans(aclTransType trans, const char *what, const char *caller) {
  long long value = untrustedEnumValue(trans);
  if (value == ACL_TRANS_NZ || value == ACL_TRANS_NZ_T)
    return reportError(ACL_ERROR_API_NOT_SUPPORT, caller, "%s: the FRACTAL_NZ layouts are not supported by aclcpu", what);
  if (value != ACL_TRANS_N && value != ACL_TRANS_T)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "%s %lld is not an aclTransType", what, value);
  return ACL_SUCCESS;
}

// lda/ldb/ldc: -1 (packed) or at least the length of a stored row.
aclError checkLeading(int given, int rowLength, const char *what, const char *caller) {
  if (given == -1 || given >= rowLength) return ACL_SUCCESS;
  return reportError(ACL_ERROR_INVALID_PARAM, caller, "%s %d is less than the stored row length %d", what, given,
                     rowLength);
}

aclError gemmModel(const GemmShape &shape, std::shared_ptr<Model> &model, ResolvedRequest &request, const char *caller) {
  if (aclError error = checkTrans(shape.transA, "transA", caller)) return error;
  if (aclError error = checkTrans(shape.transB, "transB", caller)) return error;
  if (shape.m < 0 || shape.n < 0 || shape.k < 0)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "m, n, k (%d, %d, %d) must not be negative", shape.m, shape.n, shape.k);
  bool ta = shape.transA == ACL_TRANS_T, tb = shape.transB == ACL_TRANS_T;
  Desc a = makeDesc(shape.typeA, ta ? std::vector<int64_t>{shape.k, shape.m} : std::vector<int64_t>{shape.m, shape.k});
  Desc b = makeDesc(shape.typeB, tb ? std::vector<int64_t>{shape.n, shape.k} : std::vector<int64_t>{shape.k, shape.n});
  Desc c = makeDesc(shape.typeC, {shape.m, shape.n});
  Desc alpha = makeDesc(shape.typeC, {}), beta = makeDesc(shape.typeC, {});
  Desc out = makeDesc(shape.typeC, {shape.m, shape.n});
  if (!a || !b || !c || !alpha || !beta || !out) return reportError(ACL_ERROR_INVALID_PARAM, caller, "invalid data types");
  aclopAttr attr;
  attr.values["transpose_a"] = ta;
  attr.values["transpose_b"] = tb;
  if (shape.lowPrecision) attr.values["low_precision"] = true;
  const aclTensorDesc *inputs[] = {a.get(), b.get(), c.get(), alpha.get(), beta.get()};
  const aclTensorDesc *outputs[] = {out.get()};
  return compileRequest("GEMM", 5, inputs, 1, outputs, &attr, model, request, caller);
}

// What selects a GEMM call's model: its shape and types, and the compile flag (FUZZ compiles
// one model for every shape).
struct GemmKey {
  GemmShape shape;
  int compileFlag;
  bool operator==(const GemmKey &other) const {
    const GemmShape &x = shape, &y = other.shape;
    return x.transA == y.transA && x.transB == y.transB && x.m == y.m && x.n == y.n && x.k == y.k &&
           x.typeA == y.typeA && x.typeB == y.typeB && x.typeC == y.typeC && x.lowPrecision == y.lowPrecision &&
           compileFlag == other.compileFlag;
  }
};

// The model and launch dims of a GEMM call. A thread's recent shapes come from a memo: building
// six descriptions and an attribute map and resolving them was 2.5 µs of a 1 x 1 x 1 GemmEx.
aclError memoizedGemmModel(const GemmShape &shape, MemoizedRequest &out, const char *caller) {
  thread_local RequestMemo<GemmKey> memo;
  const GemmKey key{shape, compileFlag().load()};
  return memo.findOrCompile([&](const GemmKey &memoized) { return memoized == key; }, [&] { return key; },
                            [&](std::shared_ptr<Model> &model, ResolvedRequest &request) {
                              return gemmModel(shape, model, request, caller);
                            },
                            out);
}

// Row strides (in elements; -1 = packed) of A, B and C as stored.
struct GemmStrides {
  int a, b, c;
};

aclError runGemm(const GemmShape &shape, const void *alpha, const void *a, const void *b, const void *beta, void *c,
                 GemmStrides strides, aclrtStream stream, const char *caller) {
  bool ta = shape.transA == ACL_TRANS_T, tb = shape.transB == ACL_TRANS_T;
  // Stored shapes: op(A) is m x k, op(B) is k x n.
  int rowsA = ta ? shape.k : shape.m, colsA = ta ? shape.m : shape.k;
  int rowsB = tb ? shape.n : shape.k, colsB = tb ? shape.k : shape.n;
  if (aclError error = checkLeading(strides.a, colsA, "lda", caller)) return error;
  if (aclError error = checkLeading(strides.b, colsB, "ldb", caller)) return error;
  if (aclError error = checkLeading(strides.c, shape.n, "ldc", caller)) return error;
  MemoizedRequest gemm;
  if (aclError error = memoizedGemmModel(shape, gemm, caller)) return error;
  if (shape.m == 0 || shape.n == 0) return ACL_SUCCESS;  // nothing to compute
  auto bytes = [](aclDataType type, int64_t count) { return static_cast<size_t>(count) * aclDataTypeSize(type); };
  auto matrix = [&](const void *data, int rows, int cols, int stride, aclDataType type) {
    return StridedMatrix{const_cast<void *>(data), static_cast<size_t>(rows), bytes(type, cols), bytes(type, stride)};
  };
  auto isStrided = [](int stride, int cols) { return stride != -1 && stride != cols; };
  StridedStaging staging(stream, caller);  // releases its buffers on the stream when we return
  void *packedA = const_cast<void *>(a), *packedB = const_cast<void *>(b), *packedC = c;
  StridedMatrix storedC = matrix(c, shape.m, shape.n, strides.c, shape.typeC);
  if (isStrided(strides.a, colsA))
    if (aclError error = staging.pack(matrix(a, rowsA, colsA, strides.a, shape.typeA), packedA)) return error;
  if (isStrided(strides.b, colsB))
    if (aclError error = staging.pack(matrix(b, rowsB, colsB, strides.b, shape.typeB), packedB)) return error;
  if (isStrided(strides.c, shape.n))
    if (aclError error = staging.pack(storedC, packedC)) return error;  // beta * C reads it
  aclDataBuffer bufferA{packedA, bytes(shape.typeA, int64_t(shape.m) * shape.k)};
  aclDataBuffer bufferB{packedB, bytes(shape.typeB, int64_t(shape.k) * shape.n)};
  aclDataBuffer bufferC{packedC, bytes(shape.typeC, int64_t(shape.m) * shape.n)};
  aclDataBuffer bufferAlpha{const_cast<void *>(alpha), bytes(shape.typeC, 1)};
  aclDataBuffer bufferBeta{const_cast<void *>(beta), bytes(shape.typeC, 1)};
  const aclDataBuffer *inputs[] = {&bufferA, &bufferB, &bufferC, &bufferAlpha, &bufferBeta};
  aclDataBuffer *outputs[] = {&bufferC};
  if (aclError error = launchModel(*gemm.model, *gemm.inputDims, *gemm.outputDims, inputs, outputs, stream, caller))
    return error;
  return packedC == c ? ACL_SUCCESS : staging.unpack(packedC, storedC);
}

aclError checkTransC(aclTransType transC, const char *caller) {
  if (untrustedEnumValue(transC) != ACL_TRANS_N)
    return reportError(ACL_ERROR_API_NOT_SUPPORT, caller, "transC must be ACL_TRANS_N");
  return ACL_SUCCESS;
}

aclError checkComputeType(aclComputeType type, const char *caller) {
  long long value = untrustedEnumValue(type);
  if (value != ACL_COMPUTE_HIGH_PRECISION && value != ACL_COMPUTE_LOW_PRECISION)
    return reportError(ACL_ERROR_INVALID_PARAM, caller, "computeType %lld is not an aclComputeType", value);
  return ACL_SUCCESS;
}

aclError makeGemmHandle(const GemmShape &shape, aclTransType transC, aclComputeType type, aclopHandle **handle,
                        const char *caller) {
  if (handle == nullptr) return reportError(ACL_ERROR_INVALID_PARAM, caller, "handle is NULL");
  if (aclError error = checkTransC(transC, caller)) return error;
  if (aclError error = checkComputeType(type, caller)) return error;
  std::shared_ptr<Model> model;
  ResolvedRequest request;
  if (aclError error = gemmModel(lowPrecisionFor(shape, type), model, request, caller)) return error;
  return makeHandle(std::move(model), request, handle, caller);
}

}  // namespace

extern "C" aclError aclblasGemmEx(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n, int k,
                                  const void *alpha, const void *matrixA, int lda, aclDataType dataTypeA,
                                  const void *matrixB, int ldb, aclDataType dataTypeB, const void *beta, void *matrixC,
                                  int ldc, aclDataType dataTypeC, aclComputeType type, aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  if (aclError error = checkTransC(transC, __func__)) return error;
  if (aclError error = checkComputeType(type, __func__)) return error;
  return runGemm(lowPrecisionFor({transA, transB, m, n, k, dataTypeA, dataTypeB, dataTypeC}, type), alpha, matrixA,
                 matrixB, beta, matrixC, {lda, ldb, ldc}, stream, __func__);
}

extern "C" aclError aclblasCreateHandleForGemmEx(aclTransType transA, aclTransType transB, aclTransType transC, int m,
                                                 int n, int k, aclDataType dataTypeA, aclDataType dataTypeB,
                                                 aclDataType dataTypeC, aclComputeType type, aclopHandle **handle) {
  ACLCPU_REQUIRE_INIT();
  return makeGemmHandle({transA, transB, m, n, k, dataTypeA, dataTypeB, dataTypeC}, transC, type, handle, __func__);
}

extern "C" aclError aclblasHgemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n, int k,
                                 const aclFloat16 *alpha, const aclFloat16 *matrixA, int lda, const aclFloat16 *matrixB,
                                 int ldb, const aclFloat16 *beta, aclFloat16 *matrixC, int ldc, aclComputeType type,
                                 aclrtStream stream) {
  return aclblasGemmEx(transA, transB, transC, m, n, k, alpha, matrixA, lda, ACL_FLOAT16, matrixB, ldb, ACL_FLOAT16,
                       beta, matrixC, ldc, ACL_FLOAT16, type, stream);
}

extern "C" aclError aclblasCreateHandleForHgemm(aclTransType transA, aclTransType transB, aclTransType transC, int m,
                                                int n, int k, aclComputeType type, aclopHandle **handle) {
  return aclblasCreateHandleForGemmEx(transA, transB, transC, m, n, k, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, type,
                                      handle);
}

extern "C" aclError aclblasS8gemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n, int k,
                                  const int32_t *alpha, const int8_t *matrixA, int lda, const int8_t *matrixB, int ldb,
                                  const int32_t *beta, int32_t *matrixC, int ldc, aclComputeType type,
                                  aclrtStream stream) {
  return aclblasGemmEx(transA, transB, transC, m, n, k, alpha, matrixA, lda, ACL_INT8, matrixB, ldb, ACL_INT8, beta,
                       matrixC, ldc, ACL_INT32, type, stream);
}

extern "C" aclError aclblasCreateHandleForS8gemm(aclTransType transA, aclTransType transB, aclTransType transC, int m,
                                                 int n, int k, aclComputeType type, aclopHandle **handle) {
  return aclblasCreateHandleForGemmEx(transA, transB, transC, m, n, k, ACL_INT8, ACL_INT8, ACL_INT32, type, handle);
}

// y = alpha * op(A) * x + beta * y with A of m x n (row-major): GemmEx with a single column.
extern "C" aclError aclblasGemvEx(aclTransType transA, int m, int n, const void *alpha, const void *a, int lda,
                                  aclDataType dataTypeA, const void *x, int incx, aclDataType dataTypeX,
                                  const void *beta, void *y, int incy, aclDataType dataTypeY, aclComputeType type,
                                  aclrtStream stream) {
  ACLCPU_REQUIRE_INIT();
  if (incx <= 0 || incy <= 0)
    return ACLCPU_FAIL(incx == 0 || incy == 0 ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_API_NOT_SUPPORT,
                       "incx %d and incy %d must be positive (negative increments are not supported)", incx, incy);
  if (aclError error = checkComputeType(type, __func__)) return error;
  bool transposed = untrustedEnumValue(transA) == ACL_TRANS_T;
  // op(A) is rows x cols; as GemmEx: M = rows, N = 1, K = cols; x is B (cols x 1) and y is C
  // (rows x 1), their increments the row strides.
  int rows = transposed ? n : m, cols = transposed ? m : n;
  return runGemm(lowPrecisionFor({transA, ACL_TRANS_N, rows, 1, cols, dataTypeA, dataTypeX, dataTypeY}, type), alpha,
                 a, x, beta, y, {lda, incx, incy}, stream, __func__);
}

extern "C" aclError aclblasCreateHandleForGemvEx(aclTransType transA, int m, int n, aclDataType dataTypeA,
                                                 aclDataType dataTypeX, aclDataType dataTypeY, aclComputeType type,
                                                 aclopHandle **handle) {
  ACLCPU_REQUIRE_INIT();
  bool transposed = untrustedEnumValue(transA) == ACL_TRANS_T;
  int rows = transposed ? n : m, cols = transposed ? m : n;
  return makeGemmHandle({transA, ACL_TRANS_N, rows, 1, cols, dataTypeA, dataTypeX, dataTypeY}, ACL_TRANS_N, type, handle,
                        __func__);
}
