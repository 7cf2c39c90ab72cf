// Every op, static and dynamic shapes and each dtype family, through the whole aclop-to-llvm
// pipeline: the last pass fails on anything that is not LLVM dialect.
// RUN: %op-opt %s -aclop-to-llvm=vector-bits=512 -split-input-file | FileCheck %s
// RUN: %op-opt %s -aclop-to-llvm=vector-bits=256 -split-input-file | FileCheck %s
// RUN: %op-opt %s "-aclop-to-llvm=vector-bits=512 ukernels=aclcpu_ukernel_gemm_s8s8s32_vnni,aclcpu_ukernel_gemm_f32f32f32,aclcpu_ukernel_gemm_f16f16f32,aclcpu_ukernel_gemm_bf16bf16f32 stream-stores=1" -split-input-file | FileCheck %s

// CHECK-LABEL: llvm.func @gemm(
func.func @gemm(%a: tensor<4x8xf16>, %b: tensor<16x8xf16>, %c: tensor<4x16xf32>, %al: tensor<f32>, %be: tensor<f32>) -> tensor<4x16xf32> {
  %r = aclop.gemm %a, %b, %c, %al, %be {transpose_b = true} : (tensor<4x8xf16>, tensor<16x8xf16>, tensor<4x16xf32>, tensor<f32>, tensor<f32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: llvm.func @matmul(
func.func @matmul(%a: tensor<?x8xi8>, %b: tensor<8x?xi8>) -> tensor<?x?xi32> {
  %r = aclop.matmul %a, %b : (tensor<?x8xi8>, tensor<8x?xi8>) -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}

// -----

// CHECK-LABEL: llvm.func @bmm(
func.func @bmm(%a: tensor<2x4x8xbf16>, %b: tensor<1x8x3xbf16>) -> tensor<2x4x3xbf16> {
  %r = aclop.batch_matmul %a, %b : (tensor<2x4x8xbf16>, tensor<1x8x3xbf16>) -> tensor<2x4x3xbf16>
  return %r : tensor<2x4x3xbf16>
}

// -----

// CHECK-LABEL: llvm.func @cast(
func.func @cast(%a: tensor<?x7xf32>) -> tensor<?x7xui8> {
  %r = aclop.cast %a {dst_type = ui8} : (tensor<?x7xf32>) -> tensor<?x7xui8>
  return %r : tensor<?x7xui8>
}

// -----

// CHECK-LABEL: llvm.func @cast2(
func.func @cast2(%a: tensor<5xbf16>) -> tensor<5xi1> {
  %r = aclop.cast %a {dst_type = i1} : (tensor<5xbf16>) -> tensor<5xi1>
  return %r : tensor<5xi1>
}

// -----

// CHECK-LABEL: llvm.func @div(
func.func @div(%a: tensor<3x?xi32>, %b: tensor<1x?xi32>) -> tensor<3x?xi32> {
  %r = aclop.div %a, %b : (tensor<3x?xi32>, tensor<1x?xi32>) -> tensor<3x?xi32>
  return %r : tensor<3x?xi32>
}

// -----

// CHECK-LABEL: llvm.func @pow(
func.func @pow(%a: tensor<3xui8>, %b: tensor<3xui8>) -> tensor<3xui8> {
  %r = aclop.pow %a, %b : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  return %r : tensor<3xui8>
}

// -----

// CHECK-LABEL: llvm.func @gelu(
func.func @gelu(%a: tensor<33xf16>) -> tensor<33xf16> {
  %r = aclop.gelu %a : (tensor<33xf16>) -> tensor<33xf16>
  return %r : tensor<33xf16>
}

// -----

// CHECK-LABEL: llvm.func @tanh(
func.func @tanh(%a: tensor<?xf32>) -> tensor<?xf32> {
  %r = aclop.tanh %a : (tensor<?xf32>) -> tensor<?xf32>
  %s = aclop.sigmoid %r : (tensor<?xf32>) -> tensor<?xf32>
  %t = aclop.rsqrt %s : (tensor<?xf32>) -> tensor<?xf32>
  %u = aclop.abs %t : (tensor<?xf32>) -> tensor<?xf32>
  return %u : tensor<?xf32>
}

// -----

// CHECK-LABEL: llvm.func @rsum(
func.func @rsum(%a: tensor<4x?x6xf16>) -> tensor<4x1x1xf16> {
  %r = aclop.reduce_sum %a {axes = array<i64: 1, -1>, keep_dims = true} : (tensor<4x?x6xf16>) -> tensor<4x1x1xf16>
  return %r : tensor<4x1x1xf16>
}

// -----

// CHECK-LABEL: llvm.func @rmean(
func.func @rmean(%a: tensor<4x5xf32>) -> tensor<f32> {
  %r = aclop.reduce_mean %a {axes = array<i64>} : (tensor<4x5xf32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// CHECK-LABEL: llvm.func @rmax(
func.func @rmax(%a: tensor<4x5xi32>) -> tensor<1x5xi32> {
  %r = aclop.reduce_max %a {axes = array<i64: 0>, keep_dims = true} : (tensor<4x5xi32>) -> tensor<1x5xi32>
  return %r : tensor<1x5xi32>
}

// -----

// CHECK-LABEL: llvm.func @softmax(
func.func @softmax(%a: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %r = aclop.softmax %a {axes = array<i64: 0>} : (tensor<4x?xf32>) -> tensor<4x?xf32>
  return %r : tensor<4x?xf32>
}

// -----

// CHECK-LABEL: llvm.func @transpose(
func.func @transpose(%a: tensor<2x3x?xi1>) -> tensor<?x2x3xi1> {
  %r = aclop.transpose %a {perm = array<i64: 2, 0, 1>} : (tensor<2x3x?xi1>) -> tensor<?x2x3xi1>
  return %r : tensor<?x2x3xi1>
}

// -----

// A kernel: block-partitioned, with the aclcpu entry point and ABI version.
// CHECK: module attributes {aclop.partitioned = {exp_kernel = true}}
// The result is computed in place in the output buffer: no temporary is allocated.
// CHECK-NOT: @malloc
// CHECK-LABEL: llvm.func @exp_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
// CHECK: llvm.call @__aclop_compute_exp_kernel
// CHECK: llvm.mlir.global external constant @exp_kernel__aclcpu_abi(1 : i32)
func.func @k(%a: memref<4x?xf32>, %b: memref<4x?xf32>, %bi: index, %bn: index) attributes {aclop.kernel = "exp_kernel"} {
  %ta = bufferization.to_tensor %a restrict : memref<4x?xf32> to tensor<4x?xf32>
  %r = aclop.exp %ta : (tensor<4x?xf32>) -> tensor<4x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %b : (tensor<4x?xf32>, memref<4x?xf32>) -> ()
  return
}

// -----

// A GEMM kernel on fused register tiles, split into 12-row and 8-row parts: both write the
// output buffer in place (no temporary, no copy) and the kernel stays block-partitioned; each
// output element is worth its depth in vector FMAs to the launch recipe (288 / 16, or 288 / 8).
// CHECK: module attributes {aclop.partitioned = {gemm_kernel = true}, aclop.work_per_element = {gemm_kernel = {{18|36}} : i64}}
// CHECK-NOT: @malloc
// CHECK-NOT: llvm.intr.memcpy
// CHECK-LABEL: llvm.func @gemm_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
func.func @g(%a: memref<32x288xf32>, %b: memref<288x128xf32>, %c: memref<32x128xf32>, %alpha: memref<f32>,
             %beta: memref<f32>, %out: memref<32x128xf32>, %bi: index, %bn: index) attributes {aclop.kernel = "gemm_kernel"} {
  %x = bufferization.to_tensor %a restrict : memref<32x288xf32> to tensor<32x288xf32>
  %y = bufferization.to_tensor %b restrict : memref<288x128xf32> to tensor<288x128xf32>
  %z = bufferization.to_tensor %c restrict : memref<32x128xf32> to tensor<32x128xf32>
  %p = bufferization.to_tensor %alpha restrict : memref<f32> to tensor<f32>
  %q = bufferization.to_tensor %beta restrict : memref<f32> to tensor<f32>
  %r = aclop.gemm %x, %y, %z, %p, %q : (tensor<32x288xf32>, tensor<288x128xf32>, tensor<32x128xf32>, tensor<f32>, tensor<f32>) -> tensor<32x128xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<32x128xf32>, memref<32x128xf32>) -> ()
  return
}

// -----

// A MatMul kernel (a plain product) split the same way: each part zeroes and writes its rows
// of the output buffer in place.
// CHECK: module attributes {aclop.partitioned = {matmul_kernel = true}
// CHECK-NOT: @malloc
// CHECK-NOT: llvm.intr.memcpy
// CHECK-LABEL: llvm.func @matmul_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
func.func @m(%a: memref<32x288xf32>, %b: memref<288x128xf32>, %out: memref<32x128xf32>, %bi: index, %bn: index)
    attributes {aclop.kernel = "matmul_kernel"} {
  %x = bufferization.to_tensor %a restrict : memref<32x288xf32> to tensor<32x288xf32>
  %y = bufferization.to_tensor %b restrict : memref<288x128xf32> to tensor<288x128xf32>
  %r = aclop.matmul %x, %y : (tensor<32x288xf32>, tensor<288x128xf32>) -> tensor<32x128xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<32x128xf32>, memref<32x128xf32>) -> ()
  return
}

// -----

// Conv2D kernels as products write the output in place through its collapsed view (pixels as
// one dim) and stay block-partitioned (over images here): NHWC without bias (the product
// itself writes the output) and NCHW with bias (the transposing epilogue does). The patch
// matrix is the one temporary.
// CHECK: module attributes {aclop.partitioned = {conv_nhwc_kernel = true}
// CHECK-NOT: llvm.intr.memcpy
// CHECK-LABEL: llvm.func @conv_nhwc_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
func.func @conv_nhwc(%x: memref<?x10x9x16xf32>, %w: memref<3x3x16x24xf32>, %out: memref<?x10x9x24xf32>, %bi: index, %bn: index)
    attributes {aclop.kernel = "conv_nhwc_kernel"} {
  %tx = bufferization.to_tensor %x restrict : memref<?x10x9x16xf32> to tensor<?x10x9x16xf32>
  %tw = bufferization.to_tensor %w restrict : memref<3x3x16x24xf32> to tensor<3x3x16x24xf32>
  %r = aclop.conv2d %tx, %tw {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, data_format = "NHWC", filter_format = "HWCN"}
      : (tensor<?x10x9x16xf32>, tensor<3x3x16x24xf32>) -> tensor<?x10x9x24xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x10x9x24xf32>, memref<?x10x9x24xf32>) -> ()
  return
}

// -----

// CHECK: module attributes {aclop.partitioned = {conv_nchw_kernel = true}
// CHECK-NOT: llvm.intr.memcpy
// CHECK-LABEL: llvm.func @conv_nchw_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
func.func @conv_nchw(%x: memref<?x8x7x7xf32>, %w: memref<3x3x8x12xf32>, %b: memref<12xf32>, %out: memref<?x12x4x4xf32>,
                     %bi: index, %bn: index) attributes {aclop.kernel = "conv_nchw_kernel"} {
  %tx = bufferization.to_tensor %x restrict : memref<?x8x7x7xf32> to tensor<?x8x7x7xf32>
  %tw = bufferization.to_tensor %w restrict : memref<3x3x8x12xf32> to tensor<3x3x8x12xf32>
  %tb = bufferization.to_tensor %b restrict : memref<12xf32> to tensor<12xf32>
  %r = aclop.conv2d %tx, %tw, %tb {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, filter_format = "HWCN"}
      : (tensor<?x8x7x7xf32>, tensor<3x3x8x12xf32>, tensor<12xf32>) -> tensor<?x12x4x4xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x12x4x4xf32>, memref<?x12x4x4xf32>) -> ()
  return
}

// -----

// Dynamic images, heights and widths (ACL_OP_COMPILE_FUZZ keeps the filter and the channels):
// the output's collapsed view has two dynamic dims in a group, and no memref.expand_shape of
// them is left (expand-strided-metadata crashes on one in MLIR 22).
// CHECK: module attributes {aclop.partitioned = {conv_dynamic_kernel = true}
// CHECK-NOT: llvm.intr.memcpy
// CHECK-LABEL: llvm.func @conv_dynamic_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
func.func @conv_dynamic(%x: memref<?x?x?x5xf32>, %w: memref<3x3x5x6xf32>, %b: memref<6xf32>, %out: memref<?x?x?x6xf32>,
                        %bi: index, %bn: index) attributes {aclop.kernel = "conv_dynamic_kernel"} {
  %tx = bufferization.to_tensor %x restrict : memref<?x?x?x5xf32> to tensor<?x?x?x5xf32>
  %tw = bufferization.to_tensor %w restrict : memref<3x3x5x6xf32> to tensor<3x3x5x6xf32>
  %tb = bufferization.to_tensor %b restrict : memref<6xf32> to tensor<6xf32>
  %r = aclop.conv2d %tx, %tw, %tb {strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 0, 1>, data_format = "NHWC", filter_format = "HWCN"}
      : (tensor<?x?x?x5xf32>, tensor<3x3x5x6xf32>, tensor<6xf32>) -> tensor<?x?x?x6xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?x?x6xf32>, memref<?x?x?x6xf32>) -> ()
  return
}

// -----

// A mean whose dims are kept (global average pooling) stays block-partitioned and writes the
// output in place: its accumulator and its result were one tensor.empty after CSE, which left
// the result a buffer of its own and a copy no block could take a share of.
// CHECK: module attributes {aclop.partitioned = {mean_kernel = true}
// CHECK-LABEL: llvm.func @mean_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
func.func @mean_kept_dims(%x: memref<2x16x7x7xf32>, %out: memref<2x16x1x1xf32>, %bi: index, %bn: index)
    attributes {aclop.kernel = "mean_kernel"} {
  %tx = bufferization.to_tensor %x restrict : memref<2x16x7x7xf32> to tensor<2x16x7x7xf32>
  %r = aclop.reduce_mean %tx {axes = array<i64: 2, 3>, keep_dims = true} : (tensor<2x16x7x7xf32>) -> tensor<2x16x1x1xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<2x16x1x1xf32>, memref<2x16x1x1xf32>) -> ()
  return
}

// -----

// Softmax over the last axis runs row by row: the kernel stays block-partitioned (over rows),
// exp is polynomial code in vector registers (no libm call a lane), and the row statistics
// live on the stack (no malloc).
// CHECK: module attributes {aclop.partitioned = {softmax_kernel = true}
// CHECK-NOT: llvm.call @malloc
// CHECK-NOT: @expf
// CHECK-NOT: llvm.intr.exp
// CHECK-LABEL: llvm.func @softmax_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
func.func @softmax_rows(%x: memref<?x96xf32>, %out: memref<?x96xf32>, %bi: index, %bn: index)
    attributes {aclop.kernel = "softmax_kernel"} {
  %tx = bufferization.to_tensor %x restrict : memref<?x96xf32> to tensor<?x96xf32>
  %r = aclop.softmax %tx {axes = array<i64: -1>} : (tensor<?x96xf32>) -> tensor<?x96xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x96xf32>, memref<?x96xf32>) -> ()
  return
}

// -----

// A 16-bit softmax row keeps its exponentials in an f32 row on the stack (4 KiB here),
// allocated once per call: no malloc.
// CHECK: module attributes {aclop.partitioned = {softmax_f16_kernel = true}
// CHECK-NOT: llvm.call @malloc
// CHECK-LABEL: llvm.func @softmax_f16_kernel(
func.func @softmax_rows_f16(%x: memref<?x1024xf16>, %out: memref<?x1024xf16>, %bi: index, %bn: index)
    attributes {aclop.kernel = "softmax_f16_kernel"} {
  %tx = bufferization.to_tensor %x restrict : memref<?x1024xf16> to tensor<?x1024xf16>
  %r = aclop.softmax %tx {axes = array<i64: -1>} : (tensor<?x1024xf16>) -> tensor<?x1024xf16>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x1024xf16>, memref<?x1024xf16>) -> ()
  return
}

// -----

// Depthwise kernels stay block-partitioned and read the input without gathers: NCHW's middle
// columns as contiguous vectors, its column edges (a column a part) as scalars, NHWC along
// channels; no padded copy of the input is allocated.
// CHECK: module attributes {aclop.partitioned = {dw_nchw_kernel = true}
// CHECK-NOT: llvm.intr.masked.gather
// CHECK-NOT: @malloc
// CHECK-LABEL: llvm.func @dw_nchw_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
func.func @dw_nchw(%x: memref<1x32x20x20xf32>, %w: memref<32x1x3x3xf32>, %b: memref<32xf32>, %out: memref<1x32x20x20xf32>,
                   %bi: index, %bn: index) attributes {aclop.kernel = "dw_nchw_kernel"} {
  %tx = bufferization.to_tensor %x restrict : memref<1x32x20x20xf32> to tensor<1x32x20x20xf32>
  %tw = bufferization.to_tensor %w restrict : memref<32x1x3x3xf32> to tensor<32x1x3x3xf32>
  %tb = bufferization.to_tensor %b restrict : memref<32xf32> to tensor<32xf32>
  %r = aclop.conv2d %tx, %tw, %tb {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, groups = 32}
      : (tensor<1x32x20x20xf32>, tensor<32x1x3x3xf32>, tensor<32xf32>) -> tensor<1x32x20x20xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1x32x20x20xf32>, memref<1x32x20x20xf32>) -> ()
  return
}

// -----

// CHECK: module attributes {aclop.partitioned = {dw_nhwc_kernel = true}
// CHECK-NOT: llvm.intr.masked.gather
// CHECK-LABEL: llvm.func @dw_nhwc_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
func.func @dw_nhwc(%x: memref<?x?x?x64xf32>, %w: memref<3x3x1x64xf32>, %out: memref<?x?x?x64xf32>, %bi: index, %bn: index)
    attributes {aclop.kernel = "dw_nhwc_kernel"} {
  %tx = bufferization.to_tensor %x restrict : memref<?x?x?x64xf32> to tensor<?x?x?x64xf32>
  %tw = bufferization.to_tensor %w restrict : memref<3x3x1x64xf32> to tensor<3x3x1x64xf32>
  %r = aclop.conv2d %tx, %tw {strides = array<i64: 2, 2>, pads = array<i64: 0, 1, 0, 1>, groups = 64, data_format = "NHWC", filter_format = "HWCN"}
      : (tensor<?x?x?x64xf32>, tensor<3x3x1x64xf32>) -> tensor<?x?x?x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?x?x64xf32>, memref<?x?x?x64xf32>) -> ()
  return
}

// -----

// Grouped NHWC with several out channels a group (ResNeXt's groups of 4, here over a dynamic
// batch, height and width): the output is computed in the destination's expanded view
// [n, h, w, group, out in group], so the kernel stays block-partitioned with no buffer of its
// own, and its input reads are broadcasts, not gathers.
// CHECK: module attributes {aclop.partitioned = {grouped_nhwc_kernel = true}
// CHECK-NOT: llvm.intr.masked.gather
// CHECK-NOT: @malloc
// CHECK-LABEL: llvm.func @grouped_nhwc_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
func.func @grouped_nhwc(%x: memref<?x?x?x16xf32>, %w: memref<3x3x4x16xf32>, %b: memref<16xf32>, %out: memref<?x?x?x16xf32>,
                        %bi: index, %bn: index) attributes {aclop.kernel = "grouped_nhwc_kernel"} {
  %tx = bufferization.to_tensor %x restrict : memref<?x?x?x16xf32> to tensor<?x?x?x16xf32>
  %tw = bufferization.to_tensor %w restrict : memref<3x3x4x16xf32> to tensor<3x3x4x16xf32>
  %tb = bufferization.to_tensor %b restrict : memref<16xf32> to tensor<16xf32>
  %r = aclop.conv2d %tx, %tw, %tb {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, groups = 4, data_format = "NHWC", filter_format = "HWCN"}
      : (tensor<?x?x?x16xf32>, tensor<3x3x4x16xf32>, tensor<16xf32>) -> tensor<?x?x?x16xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?x?x16xf32>, memref<?x?x?x16xf32>) -> ()
  return
}

// -----

// An OIHW filter is the product's transposed operand. Without a ukernel the product packs it
// whole first, a nest that makes the kernel single-block; the alias folding before the
// register tiles does not converge on that packing's masked, transposing read of the
// collapsed filter, which must not fail the compile.
// CHECK-LABEL: llvm.func @conv_oihw_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
func.func @conv_oihw(%x: memref<1x8x7x7xf32>, %w: memref<12x8x3x3xf32>, %b: memref<12xf32>, %out: memref<1x12x4x4xf32>,
                     %bi: index, %bn: index) attributes {aclop.kernel = "conv_oihw_kernel"} {
  %tx = bufferization.to_tensor %x restrict : memref<1x8x7x7xf32> to tensor<1x8x7x7xf32>
  %tw = bufferization.to_tensor %w restrict : memref<12x8x3x3xf32> to tensor<12x8x3x3xf32>
  %tb = bufferization.to_tensor %b restrict : memref<12xf32> to tensor<12xf32>
  %r = aclop.conv2d %tx, %tw, %tb {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x8x7x7xf32>, tensor<12x8x3x3xf32>, tensor<12xf32>) -> tensor<1x12x4x4xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1x12x4x4xf32>, memref<1x12x4x4xf32>) -> ()
  return
}

// -----

// The remaining element-wise ops, chained.
// CHECK-LABEL: llvm.func @elementwise(
func.func @elementwise(%a: tensor<5x?xf32>, %b: tensor<?xf32>) -> tensor<5x?xf32> {
  %0 = aclop.add %a, %b : (tensor<5x?xf32>, tensor<?xf32>) -> tensor<5x?xf32>
  %1 = aclop.sub %0, %a : (tensor<5x?xf32>, tensor<5x?xf32>) -> tensor<5x?xf32>
  %2 = aclop.mul %1, %b : (tensor<5x?xf32>, tensor<?xf32>) -> tensor<5x?xf32>
  %3 = aclop.maximum %2, %a : (tensor<5x?xf32>, tensor<5x?xf32>) -> tensor<5x?xf32>
  %4 = aclop.minimum %3, %a : (tensor<5x?xf32>, tensor<5x?xf32>) -> tensor<5x?xf32>
  %5 = aclop.relu %4 : (tensor<5x?xf32>) -> tensor<5x?xf32>
  %6 = aclop.exp %5 : (tensor<5x?xf32>) -> tensor<5x?xf32>
  %7 = aclop.log %6 : (tensor<5x?xf32>) -> tensor<5x?xf32>
  %8 = aclop.sqrt %7 : (tensor<5x?xf32>) -> tensor<5x?xf32>
  %9 = aclop.neg %8 : (tensor<5x?xf32>) -> tensor<5x?xf32>
  %10 = aclop.div %9, %b : (tensor<5x?xf32>, tensor<?xf32>) -> tensor<5x?xf32>
  %11 = aclop.pow %10, %a : (tensor<5x?xf32>, tensor<5x?xf32>) -> tensor<5x?xf32>
  return %11 : tensor<5x?xf32>
}

// -----

// CHECK-LABEL: llvm.func @int_elementwise(
func.func @int_elementwise(%a: tensor<3x4xi16>, %b: tensor<4xi16>, %c: tensor<7xi64>) -> (tensor<3x4xi16>, tensor<7xi64>) {
  %0 = aclop.pow %a, %b : (tensor<3x4xi16>, tensor<4xi16>) -> tensor<3x4xi16>
  %1 = aclop.neg %0 : (tensor<3x4xi16>) -> tensor<3x4xi16>
  %2 = aclop.relu %c : (tensor<7xi64>) -> tensor<7xi64>
  %3 = aclop.abs %2 : (tensor<7xi64>) -> tensor<7xi64>
  return %1, %3 : tensor<3x4xi16>, tensor<7xi64>
}

// -----

// Regression: 2-D tiles of integer abs (math.absi has no n-D vector lowering; tiles are 1-D).
// CHECK-LABEL: llvm.func @abs_i32_2d(
func.func @abs_i32_2d(%a: tensor<33x17xi32>) -> tensor<33x17xi32> {
  %r = aclop.abs %a : (tensor<33x17xi32>) -> tensor<33x17xi32>
  return %r : tensor<33x17xi32>
}

// -----

// CHECK-LABEL: llvm.func @conv2d(
func.func @conv2d(%x: tensor<?x8x8x4xf16>, %w: tensor<3x3x2x8xf16>, %b: tensor<8xf16>) -> tensor<?x8x8x8xf16> {
  %r = aclop.conv2d %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, groups = 2, data_format = "NHWC", filter_format = "HWCN"}
      : (tensor<?x8x8x4xf16>, tensor<3x3x2x8xf16>, tensor<8xf16>) -> tensor<?x8x8x8xf16>
  return %r : tensor<?x8x8x8xf16>
}

// -----

// CHECK-LABEL: llvm.func @pools(
func.func @pools(%x: tensor<?x9x9x8xf16>, %y: tensor<2x3x?x?xf32>, %u: tensor<1x4x4x2xui8>)
    -> (tensor<?x5x5x8xf16>, tensor<2x3x?x?xf32>, tensor<1x2x2x2xui8>, tensor<2x3x?x?xf32>) {
  %0 = aclop.pool2d %x {mode = "max", window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding_mode = "SAME", data_format = "NHWC"}
      : (tensor<?x9x9x8xf16>) -> tensor<?x5x5x8xf16>
  %1 = aclop.pool2d %y {mode = "avg", window = array<i64: 3, 2>, strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 0, 1>, ceil_mode = true}
      : (tensor<2x3x?x?xf32>) -> tensor<2x3x?x?xf32>
  %2 = aclop.pool2d %u {mode = "max", window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding_mode = "VALID", data_format = "NHWC"}
      : (tensor<1x4x4x2xui8>) -> tensor<1x2x2x2xui8>
  %3 = aclop.pool2d %y {mode = "avg", window = array<i64: 5, 4>, strides = array<i64: 1, 2>, padding_mode = "SAME"}
      : (tensor<2x3x?x?xf32>) -> tensor<2x3x?x?xf32>
  return %0, %1, %2, %3 : tensor<?x5x5x8xf16>, tensor<2x3x?x?xf32>, tensor<1x2x2x2xui8>, tensor<2x3x?x?xf32>
}

// -----

// CHECK-LABEL: llvm.func @bmm_bias(
func.func @bmm_bias(%a: tensor<?x4x8xf32>, %b: tensor<?x8x3xf32>, %bias: tensor<3xf32>) -> tensor<?x4x3xf32> {
  %r = aclop.batch_matmul %a, %b, %bias : (tensor<?x4x8xf32>, tensor<?x8x3xf32>, tensor<3xf32>) -> tensor<?x4x3xf32>
  return %r : tensor<?x4x3xf32>
}

// -----

// Transposed b through the whole pipeline: n-D transfers are fully unrolled (no stack buffers
// inside loops, which grew the stack until a 1024^3 product crashed).
// CHECK-LABEL: llvm.func @matmul_nt(
// CHECK-NOT: llvm.alloca
// CHECK: llvm.return
func.func @matmul_nt(%a: tensor<64x70xf32>, %b: tensor<130x70xf32>) -> tensor<64x130xf32> {
  %r = aclop.matmul %a, %b {transpose_b = true} : (tensor<64x70xf32>, tensor<130x70xf32>) -> tensor<64x130xf32>
  return %r : tensor<64x130xf32>
}

// -----

// Bools in and out, a byte each.
// CHECK-LABEL: llvm.func @compare_select(
func.func @compare_select(%a: tensor<?x17xf16>, %b: tensor<17xf16>, %c: tensor<?x17xi1>) -> (tensor<?x17xi1>, tensor<?x17xf16>) {
  %lt = aclop.less_equal %a, %b : (tensor<?x17xf16>, tensor<17xf16>) -> tensor<?x17xi1>
  %n = aclop.logical_not %c : (tensor<?x17xi1>) -> tensor<?x17xi1>
  %both = aclop.logical_or %lt, %n : (tensor<?x17xi1>, tensor<?x17xi1>) -> tensor<?x17xi1>
  %r = aclop.select %both, %a, %b : (tensor<?x17xi1>, tensor<?x17xf16>, tensor<17xf16>) -> tensor<?x17xf16>
  return %both, %r : tensor<?x17xi1>, tensor<?x17xf16>
}

// -----

// CHECK-LABEL: llvm.func @new_unary(
func.func @new_unary(%a: tensor<33xbf16>, %i: tensor<33xi8>) -> (tensor<33xbf16>, tensor<33xi8>) {
  %0 = aclop.sin %a : (tensor<33xbf16>) -> tensor<33xbf16>
  %1 = aclop.cos %0 : (tensor<33xbf16>) -> tensor<33xbf16>
  %2 = aclop.erf %1 : (tensor<33xbf16>) -> tensor<33xbf16>
  %3 = aclop.softplus %2 : (tensor<33xbf16>) -> tensor<33xbf16>
  %4 = aclop.floor %3 : (tensor<33xbf16>) -> tensor<33xbf16>
  %5 = aclop.ceil %4 : (tensor<33xbf16>) -> tensor<33xbf16>
  %6 = aclop.round %5 : (tensor<33xbf16>) -> tensor<33xbf16>
  %7 = aclop.reciprocal %6 : (tensor<33xbf16>) -> tensor<33xbf16>
  %8 = aclop.leaky_relu %7 {negative_slope = 0.1 : f32} : (tensor<33xbf16>) -> tensor<33xbf16>
  %9 = aclop.sign %i : (tensor<33xi8>) -> tensor<33xi8>
  %10 = aclop.square %9 : (tensor<33xi8>) -> tensor<33xi8>
  return %8, %10 : tensor<33xbf16>, tensor<33xi8>
}

// -----

// CHECK-LABEL: llvm.func @reduce_min_prod(
func.func @reduce_min_prod(%a: tensor<?x6xf16>, %u: tensor<7x?xui8>) -> (tensor<6xf16>, tensor<7xui8>) {
  %0 = aclop.reduce_min %a {axes = array<i64: 0>} : (tensor<?x6xf16>) -> tensor<6xf16>
  %1 = aclop.reduce_prod %u {axes = array<i64: 1>} : (tensor<7x?xui8>) -> tensor<7xui8>
  return %0, %1 : tensor<6xf16>, tensor<7xui8>
}

// -----

// No call of MLIR's memrefCopy: kernels do not link with its runtime.
// CHECK-LABEL: llvm.func @data_movement(
// CHECK-NOT: memrefCopy
func.func @data_movement(%a: tensor<?x3xf32>, %b: tensor<?x40xf32>, %c: tensor<3x1xi1>) -> (tensor<?x43xf32>, tensor<?x20xf32>, tensor<2x3x40xi1>) {
  %cat = aclop.concat %a, %b {axis = -1} : (tensor<?x3xf32>, tensor<?x40xf32>) -> tensor<?x43xf32>
  %s = aclop.slice %cat {offsets = array<i64: 0, 3>, sizes = array<i64: -1, 20>} : (tensor<?x43xf32>) -> tensor<?x20xf32>
  %t = aclop.tile %c {multiples = array<i64: 1, 40>} : (tensor<3x1xi1>) -> tensor<3x40xi1>
  %bt = aclop.broadcast_to %t {shape = array<i64: 2, 3, 40>} : (tensor<3x40xi1>) -> tensor<2x3x40xi1>
  return %cat, %s, %bt : tensor<?x43xf32>, tensor<?x20xf32>, tensor<2x3x40xi1>
}

// -----

// CHECK-LABEL: llvm.func @gather(
func.func @gather(%p: tensor<?x64xbf16>, %i: tensor<5x?xi64>, %b: tensor<9xi1>, %j: tensor<3xi32>) -> (tensor<5x?x64xbf16>, tensor<3xi1>) {
  %r = aclop.gather %p, %i {axis = 0} : (tensor<?x64xbf16>, tensor<5x?xi64>) -> tensor<5x?x64xbf16>
  %s = aclop.gather %b, %j {axis = 0} : (tensor<9xi1>, tensor<3xi32>) -> tensor<3xi1>
  return %r, %s : tensor<5x?x64xbf16>, tensor<3xi1>
}

// -----

// CHECK-LABEL: llvm.func @arg_reduce(
func.func @arg_reduce(%a: tensor<?x33xbf16>, %u: tensor<7x?xui8>) -> (tensor<?xi64>, tensor<?xi32>) {
  %0 = aclop.arg_max %a {axis = 1} : (tensor<?x33xbf16>) -> tensor<?xi64>
  %1 = aclop.arg_min %u {axis = 0, result_type = i32} : (tensor<7x?xui8>) -> tensor<?xi32>
  return %0, %1 : tensor<?xi64>, tensor<?xi32>
}

// -----

// As the JIT builds a kernel (outputs materialized into memref arguments), a concatenation
// along a dim after the divided one writes every part in place: no temporary.
// CHECK-LABEL: llvm.func @concat_in_place(
// CHECK-NOT: llvm.call @malloc
// CHECK: llvm.return
func.func @concat_in_place(%a: memref<2x3xf32>, %b: memref<2x40xf32>, %out: memref<2x43xf32>) {
  %ta = bufferization.to_tensor %a restrict : memref<2x3xf32> to tensor<2x3xf32>
  %tb = bufferization.to_tensor %b restrict : memref<2x40xf32> to tensor<2x40xf32>
  %r = aclop.concat %ta, %tb {axis = -1} : (tensor<2x3xf32>, tensor<2x40xf32>) -> tensor<2x43xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<2x43xf32>, memref<2x43xf32>) -> ()
  return
}

// -----

// A concatenation kernel stays block-partitioned and writes each part in place, with no
// temporary: the output's empty becomes the destination, not zero-filled first.
// CHECK: module attributes {aclop.partitioned = {concat_kernel = true}
// CHECK-NOT: @malloc
// CHECK-LABEL: llvm.func @concat_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
func.func @concat_rows(%a: memref<64x3xf32>, %b: memref<64x40xf32>, %out: memref<64x43xf32>, %bi: index, %bn: index)
    attributes {aclop.kernel = "concat_kernel"} {
  %ta = bufferization.to_tensor %a restrict : memref<64x3xf32> to tensor<64x3xf32>
  %tb = bufferization.to_tensor %b restrict : memref<64x40xf32> to tensor<64x40xf32>
  %r = aclop.concat %ta, %tb {axis = -1} : (tensor<64x3xf32>, tensor<64x40xf32>) -> tensor<64x43xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<64x43xf32>, memref<64x43xf32>) -> ()
  return
}

// -----

// A padding kernel (here mirrored) writes its parts in place, with no temporary, and stays
// block-partitioned: the input copied into the middle, the padding read where it mirrors.
// CHECK: module attributes {aclop.partitioned = {pad_kernel = true}
// CHECK-NOT: @malloc
// CHECK-LABEL: llvm.func @pad_kernel(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
func.func @pad_rows(%a: memref<64x40xf32>, %out: memref<72x56xf32>, %bi: index, %bn: index) attributes {aclop.kernel = "pad_kernel"} {
  %ta = bufferization.to_tensor %a restrict : memref<64x40xf32> to tensor<64x40xf32>
  %r = aclop.pad %ta {low = array<i64: 4, 8>, high = array<i64: 4, 8>, mode = "reflect"} : (tensor<64x40xf32>) -> tensor<72x56xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<72x56xf32>, memref<72x56xf32>) -> ()
  return
}

// -----

// Each piece of a split is written in place into its own output: no temporary.
// CHECK-LABEL: llvm.func @split_in_place(
// CHECK-NOT: llvm.call @malloc
// CHECK: llvm.return
func.func @split_in_place(%x: memref<6x40xf32>, %a: memref<6x10xf32>, %b: memref<6x30xf32>) {
  %t = bufferization.to_tensor %x restrict : memref<6x40xf32> to tensor<6x40xf32>
  %r:2 = aclop.split %t {axis = 1, sizes = array<i64: 10, -1>} : (tensor<6x40xf32>) -> (tensor<6x10xf32>, tensor<6x30xf32>)
  bufferization.materialize_in_destination %r#0 in restrict writable %a : (tensor<6x10xf32>, memref<6x10xf32>) -> ()
  bufferization.materialize_in_destination %r#1 in restrict writable %b : (tensor<6x30xf32>, memref<6x30xf32>) -> ()
  return
}

// -----

// CHECK-LABEL: llvm.func @split_and_layer_norm(
func.func @split_and_layer_norm(%x: tensor<?x7xi1>, %y: tensor<3x?x64xbf16>, %g: tensor<64xf32>)
    -> (tensor<?x2xi1>, tensor<?x5xi1>, tensor<3x?x64xbf16>, tensor<3x?x1xbf16>, tensor<3x?x1xbf16>) {
  %s:2 = aclop.split %x {axis = 1, sizes = array<i64: 2, 5>} : (tensor<?x7xi1>) -> (tensor<?x2xi1>, tensor<?x5xi1>)
  %n:3 = aclop.layer_norm %y, %g, %g {begin_norm_axis = -1, begin_params_axis = -1} : (tensor<3x?x64xbf16>, tensor<64xf32>, tensor<64xf32>) -> (tensor<3x?x64xbf16>, tensor<3x?x1xbf16>, tensor<3x?x1xbf16>)
  return %s#0, %s#1, %n#0, %n#1, %n#2 : tensor<?x2xi1>, tensor<?x5xi1>, tensor<3x?x64xbf16>, tensor<3x?x1xbf16>, tensor<3x?x1xbf16>
}

// -----

// CHECK-LABEL: llvm.func @more_elementwise(
func.func @more_elementwise(%a: tensor<?x33xbf16>, %i: tensor<7xi32>, %u: tensor<7xui8>, %b: tensor<5xi1>)
    -> (tensor<?x33xbf16>, tensor<?x33xbf16>, tensor<7xi32>, tensor<7xui8>, tensor<7xi32>, tensor<?x33xbf16>,
        tensor<?x33xbf16>, tensor<5xi1>, tensor<?x33xbf16>) {
  %0 = aclop.floor_mod %a, %a : (tensor<?x33xbf16>, tensor<?x33xbf16>) -> tensor<?x33xbf16>
  %1 = aclop.squared_difference %a, %a : (tensor<?x33xbf16>, tensor<?x33xbf16>) -> tensor<?x33xbf16>
  %2 = aclop.floor_div %i, %i : (tensor<7xi32>, tensor<7xi32>) -> tensor<7xi32>
  %3 = aclop.floor_mod %u, %u : (tensor<7xui8>, tensor<7xui8>) -> tensor<7xui8>
  %4 = aclop.clip_by_value %i, %i, %i : (tensor<7xi32>, tensor<7xi32>, tensor<7xi32>) -> tensor<7xi32>
  %5 = aclop.add_n %a, %0, %1 : (tensor<?x33xbf16>, tensor<?x33xbf16>, tensor<?x33xbf16>) -> tensor<?x33xbf16>
  %6 = aclop.expm1 %a : (tensor<?x33xbf16>) -> tensor<?x33xbf16>
  %7 = aclop.ones_like %b : (tensor<5xi1>) -> tensor<5xi1>
  %8 = aclop.log_softmax %a {axes = array<i64: 1>} : (tensor<?x33xbf16>) -> tensor<?x33xbf16>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<?x33xbf16>, tensor<?x33xbf16>, tensor<7xi32>, tensor<7xui8>,
      tensor<7xi32>, tensor<?x33xbf16>, tensor<?x33xbf16>, tensor<5xi1>, tensor<?x33xbf16>
}

// -----

// Padding after the divided dim fills the output and copies the input into it, in place: no
// temporary, and no gathers (each element selecting its read was a gather a vector).
// CHECK-LABEL: llvm.func @pad_in_place(
// CHECK-NOT: llvm.call @malloc
// CHECK-NOT: masked.gather
// CHECK: llvm.return
func.func @pad_in_place(%x: memref<6x40xf32>, %out: memref<6x46xf32>) {
  %t = bufferization.to_tensor %x restrict : memref<6x40xf32> to tensor<6x40xf32>
  %r = aclop.pad %t {low = array<i64: 0, 2>, high = array<i64: 0, 4>} : (tensor<6x40xf32>) -> tensor<6x46xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<6x46xf32>, memref<6x46xf32>) -> ()
  return
}

// -----

// CHECK-LABEL: llvm.func @strided_slice(
func.func @strided_slice(%a: tensor<9x?xi1>, %b: tensor<3x4xbf16>) -> (tensor<3x?xi1>, tensor<bf16>) {
  %0 = aclop.strided_slice %a {offsets = array<i64: 8, 0>, sizes = array<i64: 3, -1>, strides = array<i64: -3, 1>} : (tensor<9x?xi1>) -> tensor<3x?xi1>
  %1 = aclop.strided_slice %b {offsets = array<i64: 2, 3>, sizes = array<i64: 1, 1>, strides = array<i64: 1, 1>, shrink = array<i64: 0, 1>} : (tensor<3x4xbf16>) -> tensor<bf16>
  return %0, %1 : tensor<3x?xi1>, tensor<bf16>
}

// -----

// A convolution returning its dynamic output: the product's pixels split into a dynamic height
// and width (an expand_shape LLVM 22's expand-strided-metadata crashed on).
// CHECK-LABEL: llvm.func @conv2d_dynamic_result(
func.func @conv2d_dynamic_result(%x: tensor<?x?x?x3xf32>, %w: tensor<3x3x3x5xf32>) -> tensor<?x?x?x5xf32> {
  %r = aclop.conv2d %x, %w {strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 1, 1>, data_format = "NHWC", filter_format = "HWCN"}
      : (tensor<?x?x?x3xf32>, tensor<3x3x3x5xf32>) -> tensor<?x?x?x5xf32>
  return %r : tensor<?x?x?x5xf32>
}
