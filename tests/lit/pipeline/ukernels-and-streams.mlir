// With the ukernels and stream stores of an AVX-512 x86 host: products call their ukernel from
// inside the block's row-tile loop, and a large element-wise output gets an aligned clone with
// non-temporal stores and an sfence.
// RUN: %op-opt %s "-aclop-to-llvm=vector-bits=512 ukernels=aclcpu_ukernel_gemm_s8s8s32_vnni,aclcpu_ukernel_gemm_f16f16f32 stream-stores=1" -split-input-file | FileCheck %s

// CHECK: llvm.func @aclcpu_ukernel_gemm_s8s8s32_vnni(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
// CHECK-LABEL: llvm.func @bytes(
// CHECK: llvm.call @aclcpu_ukernel_gemm_s8s8s32_vnni(
func.func @bytes(%a: tensor<300x70xi8>, %b: tensor<70x40xi8>) -> tensor<300x40xi32> {
  %r = aclop.matmul %a, %b : (tensor<300x70xi8>, tensor<70x40xi8>) -> tensor<300x40xi32>
  return %r : tensor<300x40xi32>
}

// -----

// GEMM's epilogue goes into the call: the result's buffer (the one malloc) is written by it,
// and no temporary accumulator is allocated or freed.
// CHECK-LABEL: llvm.func @halves(
// CHECK: llvm.call @malloc
// CHECK-NOT: llvm.call @malloc
// CHECK: llvm.call @aclcpu_ukernel_gemm_f16f16f32(
// CHECK-NOT: llvm.call @free
// CHECK: llvm.return
func.func @halves(%a: tensor<7x33xf16>, %b: tensor<5x33xf16>, %c: tensor<7x5xf32>, %al: tensor<f32>, %be: tensor<f32>) -> tensor<7x5xf32> {
  %r = aclop.gemm %a, %b, %c, %al, %be {transpose_b = true} : (tensor<7x33xf16>, tensor<5x33xf16>, tensor<7x5xf32>, tensor<f32>, tensor<f32>) -> tensor<7x5xf32>
  return %r : tensor<7x5xf32>
}

// -----

// A kernel as the operator compiler builds it: the output is an argument (64 MiB).
// CHECK-LABEL: llvm.func @__aclop_compute_large_add(
// CHECK: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<16xf32>, !llvm.ptr
// CHECK: llvm.call_intrinsic "llvm.x86.sse.sfence"()
func.func @compute(%a: memref<16777216xf32>, %b: memref<16777216xf32>, %out: memref<16777216xf32>, %block: index,
                   %blocks: index) attributes {aclop.kernel = "large_add"} {
  %x = bufferization.to_tensor %a restrict : memref<16777216xf32> to tensor<16777216xf32>
  %y = bufferization.to_tensor %b restrict : memref<16777216xf32> to tensor<16777216xf32>
  %r = aclop.add %x, %y : (tensor<16777216xf32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<16777216xf32>, memref<16777216xf32>) -> ()
  return
}
