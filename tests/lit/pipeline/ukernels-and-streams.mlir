// With the ukernels and stream stores of an AVX-512 x86 host: products call their ukernel from
// inside the block's row-tile loop, and a large element-wise output gets an aligned clone with
// non-temporal stores and an sfence.
// RUN: %op-opt %s "-aclop-to-llvm=vector-bits=512 ukernels=aclcpu_ukernel_gemm_s8s8s32_vnni,aclcpu_ukernel_gemm_f16f16f32 stream-stores=1" -split-input-file | FileCheck %s

// CHECK: llvm.func @aclcpu_ukernel_gemm_s8s8s32_vnni(i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64)
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

// -----

// A 1x1 NCHW convolution of one image is GEMM's product of the filter and the image's
// [channels, pixels]: alone in its kernel with its fill, so the blocks divide its columns (64
// rows would make one block), one f32 ukernel call each writing the output in place.
// RUN: %op-opt %s "-aclop-to-llvm=vector-bits=512 ukernels=aclcpu_ukernel_gemm_f32f32f32" -split-input-file | FileCheck %s --check-prefix=F32
// F32: module attributes {aclop.blocks_per_worker = {pointwise_kernel = 1 : i64}, aclop.partitioned = {pointwise_kernel = true}
// F32-NOT: llvm.intr.memcpy
// F32-LABEL: llvm.func @__aclop_compute_pointwise_kernel(
// F32: llvm.call @aclcpu_ukernel_gemm_f32f32f32(
// F32-NOT: llvm.call @aclcpu_ukernel_gemm_f32f32f32(
// F32: llvm.return
func.func @pointwise(%x: memref<1x256x56x56xf32>, %w: memref<64x256x1x1xf32>, %out: memref<1x64x56x56xf32>, %bi: index,
                     %bn: index) attributes {aclop.kernel = "pointwise_kernel"} {
  %tx = bufferization.to_tensor %x restrict : memref<1x256x56x56xf32> to tensor<1x256x56x56xf32>
  %tw = bufferization.to_tensor %w restrict : memref<64x256x1x1xf32> to tensor<64x256x1x1xf32>
  %r = aclop.conv2d %tx, %tw {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>}
      : (tensor<1x256x56x56xf32>, tensor<64x256x1x1xf32>) -> tensor<1x64x56x56xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1x64x56x56xf32>, memref<1x64x56x56xf32>) -> ()
  return
}
