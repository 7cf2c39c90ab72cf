// acl.blas: GEMM and GEMV, direct and through handles (executed with acl.op.exec_with_handle).
#include "bindings.h"

#include "acl/ops/acl_cblas.h"

namespace aclpy {
namespace {

aclTransType trans(int value) { return static_cast<aclTransType>(value); }
aclDataType dtype(int value) { return static_cast<aclDataType>(value); }
aclComputeType compute(int value) { return static_cast<aclComputeType>(value); }

}  // namespace

void bindBlas(py::module_ &blas) {
  using Release = py::call_guard<py::gil_scoped_release>;  // the first call of a shape compiles
  blas.def("gemm_ex", [](int transA, int transB, int transC, int m, int n, int k, uint64_t alpha, uint64_t a, int lda,
                         int typeA, uint64_t b, int ldb, int typeB, uint64_t beta, uint64_t c, int ldc, int typeC,
                         int type, uint64_t stream) {
    return code(aclblasGemmEx(trans(transA), trans(transB), trans(transC), m, n, k, pointer<void>(alpha),
                                          pointer<void>(a), lda, dtype(typeA), pointer<void>(b), ldb, dtype(typeB),
                                          pointer<void>(beta), pointer<void>(c), ldc, dtype(typeC), compute(type),
                                          pointer<void>(stream)));
  }, Release());
  blas.def("create_handle_for_gemm_ex", [](int transA, int transB, int transC, int m, int n, int k, int typeA,
                                           int typeB, int typeC, int type) {
    aclopHandle *handle = nullptr;
    aclError error;
    {
      py::gil_scoped_release release;
      error = aclblasCreateHandleForGemmEx(trans(transA), trans(transB), trans(transC), m, n, k, dtype(typeA),
                                           dtype(typeB), dtype(typeC), compute(type), &handle);
    }
    return newOpHandle(error, handle);
  });
  blas.def("hgemm", [](int transA, int transB, int transC, int m, int n, int k, uint64_t alpha, uint64_t a, int lda,
                       uint64_t b, int ldb, uint64_t beta, uint64_t c, int ldc, int type, uint64_t stream) {
    return code(aclblasHgemm(trans(transA), trans(transB), trans(transC), m, n, k,
                                         pointer<aclFloat16>(alpha), pointer<aclFloat16>(a), lda,
                                         pointer<aclFloat16>(b), ldb, pointer<aclFloat16>(beta),
                                         pointer<aclFloat16>(c), ldc, compute(type), pointer<void>(stream)));
  }, Release());
  blas.def("s8gemm", [](int transA, int transB, int transC, int m, int n, int k, uint64_t alpha, uint64_t a, int lda,
                        uint64_t b, int ldb, uint64_t beta, uint64_t c, int ldc, int type, uint64_t stream) {
    return code(aclblasS8gemm(trans(transA), trans(transB), trans(transC), m, n, k, pointer<int32_t>(alpha),
                                          pointer<int8_t>(a), lda, pointer<int8_t>(b), ldb, pointer<int32_t>(beta),
                                          pointer<int32_t>(c), ldc, compute(type), pointer<void>(stream)));
  }, Release());
  blas.def("gemv_ex", [](int transA, int m, int n, uint64_t alpha, uint64_t a, int lda, int typeA, uint64_t x,
                         int incx, int typeX, uint64_t beta, uint64_t y, int incy, int typeY, int type,
                         uint64_t stream) {
    return code(aclblasGemvEx(trans(transA), m, n, pointer<void>(alpha), pointer<void>(a), lda,
                                          dtype(typeA), pointer<void>(x), incx, dtype(typeX), pointer<void>(beta),
                                          pointer<void>(y), incy, dtype(typeY), compute(type), pointer<void>(stream)));
  }, Release());
  blas.def("create_handle_for_gemv_ex", [](int transA, int m, int n, int typeA, int typeX, int typeY, int type) {
    aclopHandle *handle = nullptr;
    aclError error;
    {
      py::gil_scoped_release release;
      error = aclblasCreateHandleForGemvEx(trans(transA), m, n, dtype(typeA), dtype(typeX), dtype(typeY),
                                           compute(type), &handle);
    }
    return newOpHandle(error, handle);
  });
}

}  // namespace aclpy
