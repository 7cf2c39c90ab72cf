// A Select operator's 17-lane bf16 rows through the whole pipeline and LLVM's x86 backend with
// AVX512-BF16 (on any host): llc aborted on the bf16 vector select ("Do not know how to soft
// promote this operator's operand") before aclop-bf16-selects-as-integers chose on its bits.
// RUN: %op-opt %s -aclop-to-llvm=vector-bits=512 | mlir-translate --mlir-to-llvmir \
// RUN:   | opt -O3 -mtriple=x86_64 -mattr=+avx512f,+avx512bw,+avx512vl,+avx512bf16 \
// RUN:   | llc -O3 -mtriple=x86_64 -mattr=+avx512f,+avx512bw,+avx512vl,+avx512bf16 -o - | FileCheck %s

// CHECK-LABEL: aclop_kernel:
// CHECK: vmovdqu16 %zmm{{[0-9]+}}, %zmm{{[0-9]+}} {%k{{[0-9]}}}
// CHECK: ret
func.func @compute(%c: memref<33x1xi1>, %x: memref<33x17xbf16>, %y: memref<17xbf16>, %out: memref<33x17xbf16>,
                   %block: index, %blocks: index) attributes {aclop.kernel = "aclop_kernel"} {
  %0 = bufferization.to_tensor %c restrict : memref<33x1xi1> to tensor<33x1xi1>
  %1 = bufferization.to_tensor %x restrict : memref<33x17xbf16> to tensor<33x17xbf16>
  %2 = bufferization.to_tensor %y restrict : memref<17xbf16> to tensor<17xbf16>
  %3 = aclop.select %0, %1, %2 : (tensor<33x1xi1>, tensor<33x17xbf16>, tensor<17xbf16>) -> tensor<33x17xbf16>
  bufferization.materialize_in_destination %3 in restrict writable %out : (tensor<33x17xbf16>, memref<33x17xbf16>) -> ()
  return
}
