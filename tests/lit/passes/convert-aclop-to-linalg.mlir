// aclop -> linalg on tensors, one case per op family.
// RUN: %op-opt %s -convert-aclop-to-linalg -split-input-file | FileCheck %s
// RUN: %op-opt %s -convert-aclop-to-linalg -split-input-file | FileCheck %s --check-prefix=UNMASKED

// Broadcasting: a stretched static 1 reads index 0; f16 arithmetic is done in f32.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func @add_f16
// CHECK: %[[DIM:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[DIM]]) : tensor<4x?xf16>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK:   arith.extf {{.*}} : f16 to f32
// CHECK:   arith.addf {{.*}} : f32
// CHECK:   arith.truncf {{.*}} : f32 to f16
func.func @add_f16(%a: tensor<4x?xf16>, %b: tensor<1x?xf16>) -> tensor<4x?xf16> {
  %r = aclop.add %a, %b : (tensor<4x?xf16>, tensor<1x?xf16>) -> tensor<4x?xf16>
  return %r : tensor<4x?xf16>
}

// -----

// ui8 becomes i8 and the op picks unsigned arithmetic.
// CHECK-LABEL: func @max_u8(%arg0: tensor<3xi8>) -> tensor<3xi8>
// CHECK: arith.maxui {{.*}} : i8
func.func @max_u8(%a: tensor<3xui8>) -> tensor<3xui8> {
  %r = aclop.maximum %a, %a : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  return %r : tensor<3xui8>
}

// -----

// Integer division never traps: the divisor 0 and the MIN / -1 case are selected away.
// CHECK-LABEL: func @div_i32
// CHECK: arith.cmpi eq
// CHECK: arith.select
// CHECK: arith.divsi
// CHECK: arith.select
func.func @div_i32(%a: tensor<5xi32>) -> tensor<5xi32> {
  %r = aclop.div %a, %a : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  return %r : tensor<5xi32>
}

// -----

// Float -> int rounds toward zero and saturates; NaN becomes 0.
// CHECK-LABEL: func @cast_f32_i32
// CHECK: arith.fptosi {{.*}} : f32 to i32
// CHECK: arith.cmpf oge, {{.*}}, %cst{{.*}} : f32
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf uno
// CHECK: arith.constant 2147483647 : i32
// CHECK: arith.constant -2147483648 : i32
func.func @cast_f32_i32(%a: tensor<7xf32>) -> tensor<7xi32> {
  %r = aclop.cast %a {dst_type = i32} : (tensor<7xf32>) -> tensor<7xi32>
  return %r : tensor<7xi32>
}

// -----

// To bool is "not equal to zero", stored as a byte.
// CHECK-LABEL: func @cast_to_bool
// CHECK-SAME: -> tensor<7xi8>
// CHECK: %[[BIT:.*]] = arith.cmpf une
// CHECK: %[[BYTE:.*]] = arith.extui %[[BIT]] : i1 to i8
// CHECK: linalg.yield %[[BYTE]] : i8
func.func @cast_to_bool(%a: tensor<7xbf16>) -> tensor<7xi1> {
  %r = aclop.cast %a {dst_type = i1} : (tensor<7xbf16>) -> tensor<7xi1>
  return %r : tensor<7xi1>
}

// -----

// Reductions iterate kept dims first, except that a kept last dim goes innermost, after the
// reduced ones (contiguous rows of input and accumulators); they compute on the kept shape,
// then expand for keep_dims.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// Sums may be reordered (reassoc), which lets them vectorize.
// CHECK-LABEL: func @reduce_sum_keep_dims
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x6xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK:   arith.addf {{.*}} fastmath<reassoc,contract>
// CHECK: tensor.expand_shape %[[SUM]] {{\[}}[0, 1], [2]] output_shape [4, 1, 6] : tensor<4x6xf32> into tensor<4x1x6xf32>
func.func @reduce_sum_keep_dims(%a: tensor<4x5x6xf32>) -> tensor<4x1x6xf32> {
  %r = aclop.reduce_sum %a {axes = array<i64: 1>, keep_dims = true} : (tensor<4x5x6xf32>) -> tensor<4x1x6xf32>
  return %r : tensor<4x1x6xf32>
}

// -----

// The mean divides by the reduced element count, known at run time for dynamic dims.
// CHECK-LABEL: func @reduce_mean_dynamic
// CHECK: tensor.dim %arg0, %c1
// CHECK: arith.uitofp {{.*}} : i64 to f32
// CHECK: linalg.generic
// CHECK: arith.divf
func.func @reduce_mean_dynamic(%a: tensor<4x?xf32>) -> tensor<4xf32> {
  %r = aclop.reduce_mean %a {axes = array<i64: 1>} : (tensor<4x?xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// gemm: a contraction into a zeroed accumulator over (m, k, n), so the inner loop is a
// contiguous multiply-add that may fuse to FMA; then alpha * acc + beta * c, skipping c when
// beta == 0.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d1, d0)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func @gemm
// CHECK: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK:   arith.mulf {{.*}} fastmath<contract>
// CHECK:   arith.addf {{.*}} fastmath<contract>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:   arith.cmpf oeq
// CHECK:   arith.select
func.func @gemm(%a: tensor<8x4xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>, %s: tensor<f32>) -> tensor<4x16xf32> {
  %r = aclop.gemm %a, %b, %c, %s, %s {transpose_a = true} : (tensor<8x4xf32>, tensor<8x16xf32>, tensor<4x16xf32>, tensor<f32>, tensor<f32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// A low-precision gemm rounds each widened f16 input, or f32 input, to bf16 (and widens it
// again) before the product; bf16 inputs are bf16 already.
// CHECK-LABEL: func @gemm_low_precision
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %{{.*}}: f32):
// CHECK-NEXT:   %[[XW:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:   %[[XB:.*]] = arith.truncf %[[XW]] : f32 to bf16
// CHECK-NEXT:   %[[XR:.*]] = arith.extf %[[XB]] : bf16 to f32
// CHECK-NEXT:   %[[YW:.*]] = arith.extf %[[Y]] : f16 to f32
// CHECK-NEXT:   %[[YB:.*]] = arith.truncf %[[YW]] : f32 to bf16
// CHECK-NEXT:   %[[YR:.*]] = arith.extf %[[YB]] : bf16 to f32
// CHECK-NEXT:   arith.mulf %[[XR]], %[[YR]]
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[F:.*]]: f32, %[[G:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   %[[FB:.*]] = arith.truncf %[[F]] : f32 to bf16
// CHECK-NEXT:   %[[FR:.*]] = arith.extf %[[FB]] : bf16 to f32
// CHECK-NEXT:   %[[GB:.*]] = arith.truncf %[[G]] : f32 to bf16
// CHECK-NEXT:   %[[GR:.*]] = arith.extf %[[GB]] : bf16 to f32
// CHECK-NEXT:   arith.mulf %[[FR]], %[[GR]]
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%{{.*}}: bf16, %{{.*}}: bf16, %{{.*}}: f32):
// CHECK-NOT: truncf
// CHECK: return
func.func @gemm_low_precision(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %c: tensor<4x16xf32>, %s: tensor<f32>,
                              %x: tensor<4x8xf32>, %y: tensor<8x16xf32>, %u: tensor<4x8xbf16>, %v: tensor<8x16xbf16>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %r = aclop.gemm %a, %b, %c, %s, %s {low_precision = true} : (tensor<4x8xf16>, tensor<8x16xf16>, tensor<4x16xf32>, tensor<f32>, tensor<f32>) -> tensor<4x16xf32>
  %f = aclop.gemm %x, %y, %c, %s, %s {low_precision = true} : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<4x16xf32>, tensor<f32>, tensor<f32>) -> tensor<4x16xf32>
  %h = aclop.gemm %u, %v, %c, %s, %s {low_precision = true} : (tensor<4x8xbf16>, tensor<8x16xbf16>, tensor<4x16xf32>, tensor<f32>, tensor<f32>) -> tensor<4x16xf32>
  return %r, %f, %h : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// int8 products accumulate in i32.
// CHECK-LABEL: func @matmul_i8
// CHECK: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: arith.extsi {{.*}} : i8 to i32
// CHECK: arith.muli {{.*}} : i32
// CHECK: arith.addi {{.*}} : i32
func.func @matmul_i8(%a: tensor<3x8xi8>, %b: tensor<8x5xi8>) -> tensor<3x5xi32> {
  %r = aclop.matmul %a, %b : (tensor<3x8xi8>, tensor<8x5xi8>) -> tensor<3x5xi32>
  return %r : tensor<3x5xi32>
}

// -----

// Softmax over leading axes (here the first: the kept last dim innermost): max (NaN skipped: it
// reaches every result through the sum) and sum of exp over the axes, 1 / sum once a column,
// then exp(x - max) times it, a nest each.
// CHECK-LABEL: func @softmax
// CHECK-NOT: scf.forall
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK:   arith.maxnumf
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK:   math.exp
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]
// CHECK:   arith.divf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:   math.exp
// CHECK:   arith.mulf
func.func @softmax(%a: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %r = aclop.softmax %a {axes = array<i64: 0>} : (tensor<4x7xf32>) -> tensor<4x7xf32>
  return %r : tensor<4x7xf32>
}

// -----

// Softmax over trailing axes, row by row in an scf.forall over the kept dims: an f32 row's
// exponentials are written into the output row, summed from there and scaled in place, each
// taken once.
// CHECK-LABEL: func @softmax_rows
// CHECK: scf.forall (%[[R:.*]]) in (4) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK:   %[[YROW:.*]] = tensor.extract_slice %[[OUT]][%[[R]], 0] [1, 7] [1, 1]
// CHECK:   %[[XROW:.*]] = tensor.extract_slice %arg0[%[[R]], 0] [1, 7] [1, 1]
// CHECK:   %[[MAX:.*]] = linalg.generic {{.*}} ins(%[[XROW]] : tensor<1x7xf32>)
// CHECK:     arith.maxnumf
// CHECK:   %[[E:.*]] = linalg.generic {{.*}} ins(%[[XROW]], %[[MAX]] : {{.*}}) outs(%[[YROW]] : tensor<1x7xf32>)
// CHECK:     math.exp
// CHECK:   %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[E]] : tensor<1x7xf32>)
// CHECK:     arith.addf
// CHECK:   %[[INVERSE:.*]] = linalg.generic {{.*}} outs(%[[SUM]] : tensor<1xf32>)
// CHECK:     arith.divf
// CHECK:   %[[SCALED:.*]] = linalg.generic {{.*}} ins(%[[INVERSE]] : tensor<1xf32>) outs(%[[E]] : tensor<1x7xf32>)
// CHECK-NOT: math.exp
// CHECK:     arith.mulf
// CHECK:   tensor.parallel_insert_slice %[[SCALED]] into %[[OUT]][%[[R]], 0] [1, 7] [1, 1]
func.func @softmax_rows(%a: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %r = aclop.softmax %a {axes = array<i64: -1>} : (tensor<4x7xf32>) -> tensor<4x7xf32>
  return %r : tensor<4x7xf32>
}

// -----

// A 16-bit row is summed in f32, its exponentials kept in an f32 row (a temporary of the
// iteration, which the pipeline puts on the stack) and scaled from there into the narrowed
// output; the loop runs over every kept dim, dynamic ones included.
// CHECK-LABEL: func @softmax_rows_f16
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) in (2, %{{.*}}) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK:   %[[YROW:.*]] = tensor.extract_slice %[[OUT]][%[[I]], %[[J]], 0] [1, 1, 7] [1, 1, 1]
// CHECK:   %[[XROW:.*]] = tensor.extract_slice %arg0[%[[I]], %[[J]], 0] [1, 1, 7] [1, 1, 1] : tensor<2x?x7xf16> to tensor<1x1x7xf16>
// CHECK:   %[[KEPT:.*]] = tensor.empty() : tensor<1x1x7xf32>
// CHECK:   arith.maxnumf
// CHECK:   %[[E:.*]] = linalg.generic {{.*}} outs(%[[KEPT]] : tensor<1x1x7xf32>)
// CHECK:     math.exp
// CHECK:   linalg.generic {{.*}} ins(%[[E]] : tensor<1x1x7xf32>)
// CHECK:     arith.addf
// CHECK:   arith.divf
// CHECK:   %[[Y:.*]] = linalg.generic {{.*}} ins(%[[E]], %{{.*}} : tensor<1x1x7xf32>, tensor<1x1xf32>) outs(%[[YROW]] : tensor<1x1x7xf16>)
// CHECK-NOT: math.exp
// CHECK:     arith.mulf
// CHECK:     arith.truncf %{{.*}} : f32 to f16
// CHECK:   tensor.parallel_insert_slice %[[Y]] into %[[OUT]]
func.func @softmax_rows_f16(%a: tensor<2x?x7xf16>) -> tensor<2x?x7xf16> {
  %r = aclop.softmax %a {axes = array<i64: -1>} : (tensor<2x?x7xf16>) -> tensor<2x?x7xf16>
  return %r : tensor<2x?x7xf16>
}

// -----

// A 16-bit row of dynamic length (or longer than the stack's limit, 16 KiB of f32) takes its
// exponentials again where the result is narrowed.
// CHECK-LABEL: func @softmax_rows_bf16_dynamic
// CHECK: scf.forall
// CHECK-NOT: tensor.empty() : tensor<1x?xf32>
// CHECK:   arith.maxnumf
// CHECK:   math.exp
// CHECK:   arith.addf
// CHECK:   arith.divf
// CHECK:   math.exp
// CHECK:   arith.mulf
// CHECK:   arith.truncf %{{.*}} : f32 to bf16
// CHECK-LABEL: func @softmax_rows_f16_long
// CHECK-NOT: tensor<1x4097xf32>
// CHECK: return
func.func @softmax_rows_bf16_dynamic(%a: tensor<3x?xbf16>) -> tensor<3x?xbf16> {
  %r = aclop.softmax %a {axes = array<i64: -1>} : (tensor<3x?xbf16>) -> tensor<3x?xbf16>
  return %r : tensor<3x?xbf16>
}
func.func @softmax_rows_f16_long(%a: tensor<3x4097xf16>) -> tensor<3x4097xf16> {
  %r = aclop.softmax %a {axes = array<i64: -1>} : (tensor<3x4097xf16>) -> tensor<3x4097xf16>
  return %r : tensor<3x4097xf16>
}

// -----

// Bools are stored a byte each: moving them moves bytes.
// CHECK-LABEL: func @transpose
// CHECK-SAME: (%arg0: tensor<2x3x5xi8>) -> tensor<5x2x3xi8>
// CHECK: linalg.transpose ins(%arg0 : tensor<2x3x5xi8>) outs(%{{.*}} : tensor<5x2x3xi8>) permutation = [2, 0, 1]
func.func @transpose(%a: tensor<2x3x5xi1>) -> tensor<5x2x3xi1> {
  %r = aclop.transpose %a {perm = array<i64: 2, 0, 1>} : (tensor<2x3x5xi1>) -> tensor<5x2x3xi1>
  return %r : tensor<5x2x3xi1>
}

// -----

// gelu uses erf; sigmoid is 1 / (1 + exp(-x)).
// CHECK-LABEL: func @gelu_sigmoid
// CHECK: math.erf
// CHECK: arith.negf
// CHECK: math.exp
func.func @gelu_sigmoid(%a: tensor<9xf32>) -> tensor<9xf32> {
  %g = aclop.gelu %a : (tensor<9xf32>) -> tensor<9xf32>
  %s = aclop.sigmoid %g : (tensor<9xf32>) -> tensor<9xf32>
  return %s : tensor<9xf32>
}

// -----

// conv2d without groups is a product (im2col): one generic builds the patches [image, pixel,
// window in the filter's (c, h, w) order] with the padding masked to zero, collapsed to a
// matrix; the OIHW filter, collapsed to [out channels, depth], is the transposed operand of the
// product generic (one image: GEMM's unbatched product; f16 accumulates in f32); the epilogue
// reads the product's result as it is (one image, in the output's layout), adds the bias,
// narrows, and writes the NHWC output through a view with the pixels collapsed.
// CHECK-DAG: #[[BT:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func @conv2d_nhwc
// CHECK: %[[W:.*]] = tensor.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : tensor<16x3x3x3xf16> into tensor<16x27xf16>
// CHECK: %[[PATCHES:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%{{.*}} : tensor<1x16x3x3x3xf16>)
// CHECK:   arith.divui
// CHECK:   arith.remui
// CHECK:   tensor.extract %arg0
// CHECK:   arith.select
// CHECK: %[[P:.*]] = tensor.collapse_shape %[[PATCHES]] {{\[}}[0, 1], [2, 3, 4]] : tensor<1x16x3x3x3xf16> into tensor<16x27xf16>
// CHECK: %[[PRODUCT:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[BT]], #{{.*}}], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[P]], %[[W]] : tensor<16x27xf16>, tensor<16x27xf16>) outs(%{{.*}} : tensor<16x16xf32>)
// CHECK:   arith.extf
// CHECK-NOT: tensor.expand_shape %[[PRODUCT]]
// CHECK: %[[OUT:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : tensor<1x4x4x16xf16> into tensor<16x16xf16>
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[PRODUCT]], %arg2 : tensor<16x16xf32>, tensor<16xf16>) outs(%[[OUT]] : tensor<16x16xf16>)
// CHECK:   arith.truncf
// CHECK: tensor.expand_shape %[[R]] {{\[}}[0, 1, 2], [3]] output_shape [1, 4, 4, 16]
func.func @conv2d_nhwc(%x: tensor<1x8x8x3xf16>, %w: tensor<16x3x3x3xf16>, %b: tensor<16xf16>) -> tensor<1x4x4x16xf16> {
  %r = aclop.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, data_format = "NHWC"}
      : (tensor<1x8x8x3xf16>, tensor<16x3x3x3xf16>, tensor<16xf16>) -> tensor<1x4x4x16xf16>
  return %r : tensor<1x4x4x16xf16>
}

// -----

// NCHW data, two images: the batched product, the filter a [1, out channels, depth] operand
// broadcast over them; the epilogue writes (pixel, out channel) transposed into the output's
// [image, out channel, pixel] view.
// CHECK-DAG: #[[SWAP:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-LABEL: func @conv2d_nchw
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x36x3x3x3xf32>)
// CHECK: %[[ACC:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x36x27xf32>, tensor<1x4x27xf32>) outs(%{{.*}} : tensor<2x36x4xf32>)
// CHECK: %[[OUT:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<2x4x6x6xf32> into tensor<2x4x36xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[SWAP]]], {{.*}} ins(%[[ACC]] : tensor<2x36x4xf32>) outs(%[[OUT]] : tensor<2x4x36xf32>)
func.func @conv2d_nchw(%x: tensor<2x3x6x6xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x6x6xf32> {
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<2x3x6x6xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x6x6xf32>
  return %r : tensor<2x4x6x6xf32>
}

// -----

// NCHW 1x1 with stride 1 and no padding: no patches; out channels x pixels per image, the
// filter broadcast over the (dynamic) batch and the input read as [image, c, pixels].
// CHECK-DAG: #[[FILTER:.*]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d2)>
// CHECK-LABEL: func @conv2d_pointwise
// CHECK-NOT: tensor.extract
// CHECK: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : tensor<?x8x5x5xf32> into tensor<?x8x25xf32>
// CHECK: linalg.generic {indexing_maps = [#[[FILTER]], #{{.*}}, #{{.*}}], {{.*}} ins(%{{.*}}, %[[X]] : tensor<1x4x8xf32>, tensor<?x8x25xf32>) outs(%{{.*}} : tensor<?x4x25xf32>)
func.func @conv2d_pointwise(%x: tensor<?x8x5x5xf32>, %w: tensor<4x8x1x1xf32>) -> tensor<?x4x5x5xf32> {
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>}
      : (tensor<?x8x5x5xf32>, tensor<4x8x1x1xf32>) -> tensor<?x4x5x5xf32>
  return %r : tensor<?x4x5x5xf32>
}

// -----

// Groups whose window (input channels of a group x kernel rows x columns, 6x3x3 here) is too
// large to unroll: one direct generic over the output dims in the output's order then the
// reductions (input channel in group, kernel row, kernel column), the input read through
// tensor.extract at the window position. Dynamic batch and spatial dims: the output's are
// computed as inference does, (in + pads - dilated kernel) / stride + 1.
// CHECK-DAG: #[[FILTER:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-LABEL: func @conv2d_dynamic
// CHECK: tensor.dim %arg0, %c2
// CHECK: tensor.dim %arg0, %c3
// CHECK: arith.divsi
// CHECK: arith.divsi
// CHECK: tensor.dim %arg0, %c0
// CHECK: tensor.empty(%{{.*}}, %{{.*}}, %{{.*}}) : tensor<?x4x?x?xf32>
// CHECK: linalg.generic {indexing_maps = [#[[FILTER]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK:   tensor.extract %arg0
func.func @conv2d_dynamic(%x: tensor<?x12x?x?xf32>, %w: tensor<4x6x3x3xf32>) -> tensor<?x4x?x?xf32> {
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 2>, pads = array<i64: 0, 0, 1, 1>, groups = 2}
      : (tensor<?x12x?x?xf32>, tensor<4x6x3x3xf32>) -> tensor<?x4x?x?xf32>
  return %r : tensor<?x4x?x?xf32>
}

// -----

// Depthwise (one input channel a group): a parallel generic over each part of the output, each
// window read in a straight run, the filter by out channel, the bias added and the sum narrowed
// in the same body. With a channel multiplier of 2 the output is viewed as [n, h, w, group, 2]
// (the bias as [group, 2]): every out channel of a group (the innermost dim) reads the group's
// input channel, and out channel group * 2 + j of the filter. Padding before the first row and
// column (stride 2) makes them edges: the corner reads 2x2 of the 3x3 window, the edges 2x3 and
// 3x2, the middle all of it, and with static shapes none of it masked.
// CHECK-LABEL: func @conv2d_depthwise_nhwc
// CHECK: %[[BIAS:.*]] = tensor.expand_shape %arg2 {{\[}}[0, 1]] output_shape [4, 2] : tensor<8xf16> into tensor<4x2xf16>
// CHECK: linalg.generic {{.*}} ins(%[[BIAS]] : tensor<4x2xf16>) outs(%{{.*}} : tensor<1x1x1x4x2xf16>)
// CHECK: %[[J:.*]] = linalg.index 4
// CHECK: %[[G:.*]] = linalg.index 3
// CHECK: %[[FIRST:.*]] = arith.muli %[[G]], %c2
// CHECK: %[[OC:.*]] = arith.addi %[[FIRST]], %[[J]]
// CHECK: %[[C:.*]] = linalg.index 3
// CHECK-COUNT-4: tensor.extract %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %[[C]]] : tensor<1x6x6x4xf16>
// CHECK-NOT: tensor.extract %arg0
// CHECK: tensor.extract %arg1[%c2{{.*}}, %c2{{.*}}, %c0{{.*}}, %[[OC]]] : tensor<3x3x1x8xf16>
// CHECK: arith.truncf
// CHECK-NEXT: linalg.yield
// CHECK: tensor.insert_slice %{{.*}}[0, 0, 0, 0, 0] [1, 1, 1, 4, 2]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x1x2x4x2xf16>)
// CHECK-COUNT-6: tensor.extract %arg0
// CHECK-NOT: tensor.extract %arg0
// CHECK: tensor.insert_slice %{{.*}}[0, 0, 1, 0, 0] [1, 1, 2, 4, 2]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x1x4x2xf16>)
// CHECK-COUNT-6: tensor.extract %arg0
// CHECK-NOT: tensor.extract %arg0
// CHECK: tensor.insert_slice %{{.*}}[0, 1, 0, 0, 0] [1, 2, 1, 4, 2]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x2x4x2xf16>)
// CHECK-COUNT-9: tensor.extract %arg0
// CHECK-NOT: tensor.extract %arg0
// CHECK: %[[OUT:.*]] = tensor.insert_slice %{{.*}}[0, 1, 1, 0, 0] [1, 2, 2, 4, 2]
// CHECK: tensor.collapse_shape %[[OUT]] {{\[}}[0], [1], [2], [3, 4]] : tensor<1x3x3x4x2xf16> into tensor<1x3x3x8xf16>
// UNMASKED-LABEL: func @conv2d_depthwise_nhwc
// UNMASKED-NOT: arith.select
// UNMASKED: return
func.func @conv2d_depthwise_nhwc(%x: tensor<1x6x6x4xf16>, %w: tensor<3x3x1x8xf16>, %b: tensor<8xf16>) -> tensor<1x3x3x8xf16> {
  %r = aclop.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 1, 0>, groups = 4, data_format = "NHWC", filter_format = "HWCN"}
      : (tensor<1x6x6x4xf16>, tensor<3x3x1x8xf16>, tensor<8xf16>) -> tensor<1x3x3x8xf16>
  return %r : tensor<1x3x3x8xf16>
}

// -----

// NCHW depthwise over sizes known at run time: the parts are found then, with padding above
// and on the right: rows [0, begin) and [begin, height), columns [0, end) and [end, width). The
// edges read masked (the row, the column or both); the middle reads with no mask.
// CHECK-LABEL: func @conv2d_depthwise_nchw
// CHECK: %[[BEGIN:.*]] = arith.minsi %c1
// CHECK: arith.minsi %c0
// CHECK: %[[END:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK: tensor.empty(%{{.*}}, %[[BEGIN]], %[[END]])
// CHECK-NEXT: linalg.generic
// CHECK: arith.select
// CHECK: linalg.yield
// CHECK: tensor.insert_slice %{{.*}}[0, 0, 0, 0] [%{{.*}}, 4, %[[BEGIN]], %[[END]]]
// CHECK: linalg.generic
// CHECK: arith.select
// CHECK: linalg.yield
// CHECK: tensor.insert_slice %{{.*}}[0, 0, 0, %[[END]]]
// CHECK: linalg.generic
// CHECK-NOT: arith.select
// CHECK-COUNT-4: tensor.extract %arg0
// CHECK-NOT: arith.select
// CHECK: linalg.yield
// CHECK: tensor.insert_slice %{{.*}}[0, 0, %[[BEGIN]], 0]
// CHECK: linalg.generic
// CHECK: arith.select
// CHECK: linalg.yield
// CHECK: tensor.insert_slice %{{.*}}[0, 0, %[[BEGIN]], %[[END]]]
func.func @conv2d_depthwise_nchw(%x: tensor<?x4x?x?xf32>, %w: tensor<4x1x2x2xf32>) -> tensor<?x4x?x?xf32> {
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 0, 0, 1>, groups = 4}
      : (tensor<?x4x?x?xf32>, tensor<4x1x2x2xf32>) -> tensor<?x4x?x?xf32>
  return %r : tensor<?x4x?x?xf32>
}

// -----

// NCHW with static shapes: the column edges are a column a part (each reads 2 of the 3 window
// columns, unmasked), and no copy of the input is made. A channel multiplier of 2 reads input
// channel oc / 2; rows x columns: 3 x 3 parts.
// CHECK-LABEL: func @conv2d_multiplier_one_image
// CHECK-COUNT-9: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
// UNMASKED-LABEL: func @conv2d_multiplier_one_image
// UNMASKED: outs(%{{.*}} : tensor<1x4x1x1xf32>)
// UNMASKED-COUNT-4: tensor.extract %arg0
// UNMASKED-NOT: tensor.extract %arg0
// UNMASKED: outs(%{{.*}} : tensor<1x4x1x3xf32>)
// UNMASKED-COUNT-6: tensor.extract %arg0
// UNMASKED-NOT: tensor.extract %arg0
// UNMASKED: outs(%{{.*}} : tensor<1x4x1x1xf32>)
// UNMASKED-COUNT-4: tensor.extract %arg0
// UNMASKED-NOT: arith.select
// UNMASKED: return
func.func @conv2d_multiplier_one_image(%x: tensor<1x2x5x5xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x5x5xf32> {
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, groups = 2}
      : (tensor<1x2x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x5x5xf32>
  return %r : tensor<1x4x5x5xf32>
}

// -----

// Groups of a few input channels unroll as well (2 channels x 3x3 here, unpadded: one part): out
// channel oc is in group oc / 3, whose input channels start at group * 2.
// CHECK-LABEL: func @conv2d_groups_unrolled
// CHECK: %[[OC:.*]] = linalg.index 1
// CHECK: %[[GROUP:.*]] = arith.divui %[[OC]], %c3
// CHECK: %[[FIRST:.*]] = arith.muli %[[GROUP]], %c2
// CHECK-COUNT-9: tensor.extract %arg0[%{{.*}}, %[[FIRST]], %{{.*}}, %{{.*}}] : tensor<1x4x6x6xf32>
// CHECK: %[[SECOND:.*]] = arith.addi %[[FIRST]], %c1
// CHECK-COUNT-9: tensor.extract %arg0[%{{.*}}, %[[SECOND]], %{{.*}}, %{{.*}}] : tensor<1x4x6x6xf32>
// CHECK-NOT: tensor.extract %arg0
// CHECK: tensor.extract %arg1[%[[OC]], %c1{{.*}}, %c2{{.*}}, %c2{{.*}}] : tensor<6x2x3x3xf32>
// CHECK-NEXT: arith.mulf
func.func @conv2d_groups_unrolled(%x: tensor<1x4x6x6xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x4x4xf32> {
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, groups = 2}
      : (tensor<1x4x6x6xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x4x4xf32>
  return %r : tensor<1x6x4x4xf32>
}

// -----

// A product over dynamic images and pixels: the pixel count is the output's height times width,
// known at run time; the HWCN filter is the product's operand as stored.
// CHECK-LABEL: func @conv2d_dynamic_product
// CHECK: %[[PIXELS:.*]] = arith.muli
// CHECK: tensor.empty(%{{.*}}, %[[PIXELS]]) : tensor<?x?x3x3x3xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?x?x27xf32>, tensor<1x27x5xf32>) outs(%{{.*}} : tensor<?x?x5xf32>)
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3]] output_shape [%{{.*}}, %{{.*}}, %{{.*}}, 5]
func.func @conv2d_dynamic_product(%x: tensor<?x?x?x3xf32>, %w: tensor<3x3x3x5xf32>) -> tensor<?x?x?x5xf32> {
  %r = aclop.conv2d %x, %w {strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 1, 1>, data_format = "NHWC", filter_format = "HWCN"}
      : (tensor<?x?x?x3xf32>, tensor<3x3x3x5xf32>) -> tensor<?x?x?x5xf32>
  return %r : tensor<?x?x?x5xf32>
}

// -----

// pool2d, a window of at most 16: a parallel generic over each part of the output (as the
// grouped conv2d's), whose body reads the window (9 reads in the middle) into an accumulator in
// registers; f16 maxima are taken in f32 and narrowed in the same body. SAME padding follows
// TensorFlow's rule (9 rows, stride 2, window 3: one row of padding before, one after), here
// static, so the edges drop the window rows and columns in the padding and nothing is masked:
// the corners read 2x2, the edges 2x3 or 3x2.
// CHECK-LABEL: func @max_pool_same
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<1x5x5x8xf16>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{.*}} : tensor<1x1x1x8xf16>)
// CHECK-COUNT-4: tensor.extract %arg0
// CHECK-NOT: tensor.extract
// CHECK: arith.maximumf
// CHECK: arith.truncf
// CHECK: linalg.yield
// CHECK: tensor.insert_slice %{{.*}} into %[[INIT]][0, 0, 0, 0] [1, 1, 1, 8]
// CHECK: outs(%{{.*}} : tensor<1x1x3x8xf16>)
// CHECK-COUNT-6: tensor.extract %arg0
// CHECK-NOT: tensor.extract
// CHECK: linalg.yield
// CHECK: outs(%{{.*}} : tensor<1x3x3x8xf16>)
// CHECK-COUNT-9: tensor.extract %arg0
// CHECK-NOT: tensor.extract
// CHECK: linalg.yield
// CHECK: tensor.insert_slice %{{.*}}[0, 1, 1, 0] [1, 3, 3, 8]
// UNMASKED-LABEL: func @max_pool_same
// UNMASKED-NOT: arith.select
// UNMASKED: return
func.func @max_pool_same(%x: tensor<1x9x9x8xf16>) -> tensor<1x5x5x8xf16> {
  %r = aclop.pool2d %x {mode = "max", window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding_mode = "SAME", data_format = "NHWC"}
      : (tensor<1x9x9x8xf16>) -> tensor<1x5x5x8xf16>
  return %r : tensor<1x5x5x8xf16>
}

// -----

// An average of a dynamic height with ceil_mode: the output height rounds up, less a window
// that would start in the padding; padding reads as -0.0 (x + -0.0 is x), and the divisor (the
// window clipped to the padded input, as exclusive = false asks) is worked out in the same body.
// How far the last window reaches past the rows is known only at run time, so they read masked;
// the 4 columns (8 wide, stride 2, window 2) never reach past the input: one part.
// CHECK-LABEL: func @avg_pool_ceil
// CHECK: %[[H:.*]] = tensor.dim %arg0, %c2
// CHECK: %[[UP:.*]] = arith.ceildivsi
// CHECK: %[[LATE:.*]] = arith.cmpi sge
// CHECK: %[[ROWS:.*]] = arith.select %[[LATE]]
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %[[H]], %c0
// CHECK: %[[OH:.*]] = arith.select %[[EMPTY]], %c0, %[[ROWS]]
// CHECK: %[[INIT:.*]] = tensor.empty(%[[OH]]) : tensor<2x3x?x4xf32>
// CHECK: linalg.generic {{.*}} outs(%[[INIT]] : tensor<2x3x?x4xf32>)
// CHECK-COUNT-6: tensor.extract %arg0
// CHECK: arith.select %{{.*}}, %{{.*}}, %cst{{.*}} : f32
// CHECK: arith.addf %{{.*}} fastmath<reassoc,contract>
// CHECK: arith.minsi
// CHECK: arith.minsi
// CHECK: arith.sitofp
// CHECK: arith.divf
func.func @avg_pool_ceil(%x: tensor<2x3x?x8xf32>) -> tensor<2x3x?x4xf32> {
  %r = aclop.pool2d %x {mode = "avg", window = array<i64: 3, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 1>, ceil_mode = true, exclusive = false}
      : (tensor<2x3x?x8xf32>) -> tensor<2x3x?x4xf32>
  return %r : tensor<2x3x?x4xf32>
}

// -----

// A window of more than 16: reduction loops over the window's row and column, placed before the
// output's last dim, their bounds from a constant of the window's shape; the accumulator starts
// at -inf; an epilogue finishes each element.
// CHECK-DAG: #[[WINDOW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d5)>
// CHECK-LABEL: func @max_pool_window_loops
// CHECK: %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x5x5xf32>)
// CHECK: %[[SHAPE:.*]] = arith.constant dense<0> : tensor<5x5xi8>
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[WINDOW]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "parallel"]} ins(%[[SHAPE]] : tensor<5x5xi8>) outs(%[[ACC]] : tensor<1x2x5x5xf32>)
// CHECK:   tensor.extract %arg0
// CHECK:   arith.maximumf
// CHECK: linalg.generic {{.*}} ins(%[[MAX]] : tensor<1x2x5x5xf32>)
func.func @max_pool_window_loops(%x: tensor<1x2x9x9xf32>) -> tensor<1x2x5x5xf32> {
  %r = aclop.pool2d %x {mode = "max", window = array<i64: 5, 5>, strides = array<i64: 2, 2>, padding_mode = "SAME"}
      : (tensor<1x2x9x9xf32>) -> tensor<1x2x5x5xf32>
  return %r : tensor<1x2x5x5xf32>
}

// -----

// A matmul bias is added to the f32 accumulator in the narrowing epilogue, indexed by N.
// CHECK-DAG: #[[N:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func @matmul_bias
// CHECK: %[[ACC:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x3xf32>)
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[N]], #{{.*}}], {{.*}} ins(%[[ACC]], %arg2 : tensor<4x3xf32>, tensor<3xf16>) outs(%{{.*}} : tensor<4x3xf16>)
// CHECK:   arith.extf
// CHECK:   arith.addf
// CHECK:   arith.truncf
func.func @matmul_bias(%a: tensor<4x8xf16>, %b: tensor<8x3xf16>, %bias: tensor<3xf16>) -> tensor<4x3xf16> {
  %r = aclop.matmul %a, %b, %bias : (tensor<4x8xf16>, tensor<8x3xf16>, tensor<3xf16>) -> tensor<4x3xf16>
  return %r : tensor<4x3xf16>
}

// -----

// A comparison reads its operands in their compute type and stores its i1 result as a byte; a
// stored bool is true when its byte is not zero.
// CHECK-LABEL: func @compare_and_select
// CHECK-SAME: (%[[A:.*]]: tensor<4x1xf16>, %[[B:.*]]: tensor<3xf16>, %[[C:.*]]: tensor<3xi8>) -> tensor<4x3xf16>
// CHECK: linalg.generic
// CHECK:   arith.extf {{.*}} : f16 to f32
// CHECK:   %[[LT:.*]] = arith.cmpf olt
// CHECK:   arith.extui %[[LT]] : i1 to i8
// CHECK: linalg.generic
// CHECK: ^bb0(%[[L:.*]]: i8, %[[R:.*]]: i8, %{{.*}}: i8):
// CHECK:   %[[LB:.*]] = arith.cmpi ne, %[[L]], %{{.*}} : i8
// CHECK:   %[[RB:.*]] = arith.cmpi ne, %[[R]], %{{.*}} : i8
// CHECK:   arith.andi %[[LB]], %[[RB]] : i1
// CHECK: linalg.generic
// CHECK: ^bb0(%[[S:.*]]: i8, %[[X:.*]]: f16, %[[Y:.*]]: f16, %{{.*}}: f16):
// CHECK:   %[[SB:.*]] = arith.cmpi ne, %[[S]], %{{.*}} : i8
// CHECK:   arith.select %[[SB]], %[[X]], %[[Y]] : f16
func.func @compare_and_select(%a: tensor<4x1xf16>, %b: tensor<3xf16>, %c: tensor<3xi1>) -> tensor<4x3xf16> {
  %lt = aclop.less %a, %b : (tensor<4x1xf16>, tensor<3xf16>) -> tensor<4x3xi1>
  %both = aclop.logical_and %lt, %c : (tensor<4x3xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  %r = aclop.select %both, %a, %b : (tensor<4x3xi1>, tensor<4x1xf16>, tensor<3xf16>) -> tensor<4x3xf16>
  return %r : tensor<4x3xf16>
}

// -----

// Unsigned comparisons use unsigned predicates; NotEqual is true for NaN (une).
// CHECK-LABEL: func @unsigned_and_nan
// CHECK: arith.cmpi ugt
// CHECK: arith.cmpf une
func.func @unsigned_and_nan(%u: tensor<5xui8>, %f: tensor<5xf32>) -> (tensor<5xi1>, tensor<5xi1>) {
  %0 = aclop.greater %u, %u : (tensor<5xui8>, tensor<5xui8>) -> tensor<5xi1>
  %1 = aclop.not_equal %f, %f : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  return %0, %1 : tensor<5xi1>, tensor<5xi1>
}

// -----

// Round is to nearest even; softplus is max(x, 0) + log1p(exp(-|x|)), log1p by Goldberg's method.
// CHECK-LABEL: func @round_softplus
// CHECK: math.roundeven
// CHECK: math.absf
// CHECK: math.exp
// CHECK: arith.maximumf
// CHECK: math.log
// CHECK: arith.select
func.func @round_softplus(%a: tensor<9xf32>) -> tensor<9xf32> {
  %r = aclop.round %a : (tensor<9xf32>) -> tensor<9xf32>
  %s = aclop.softplus %r : (tensor<9xf32>) -> tensor<9xf32>
  return %s : tensor<9xf32>
}

// -----

// Min and product reductions start from +inf and 1.
// CHECK-LABEL: func @reduce_min_prod
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: arith.minimumf
// CHECK: arith.constant 1 : i32
// CHECK: arith.muli
func.func @reduce_min_prod(%a: tensor<4x5xf32>, %i: tensor<4x5xi32>) -> (tensor<4xf32>, tensor<5xi32>) {
  %0 = aclop.reduce_min %a {axes = array<i64: 1>} : (tensor<4x5xf32>) -> tensor<4xf32>
  %1 = aclop.reduce_prod %i {axes = array<i64: 0>} : (tensor<4x5xi32>) -> tensor<5xi32>
  return %0, %1 : tensor<4xf32>, tensor<5xi32>
}

// -----

// Slices, tiles and concatenation read by index (tensor.extract), so that no copy of a strided
// view is left for canonicalization to make.
// CHECK-LABEL: func @slice_tile
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x30xf32>)
// CHECK:   %[[I:.*]] = linalg.index 0
// CHECK:   %[[I1:.*]] = arith.addi %[[I]], %c1
// CHECK:   %[[J:.*]] = linalg.index 1
// CHECK:   %[[J3:.*]] = arith.addi %[[J]], %c3
// CHECK:   tensor.extract %{{.*}}[%[[I1]], %[[J3]]] : tensor<4x37xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4x60xf32>)
// CHECK:   arith.remui %{{.*}}, %c2
// CHECK:   arith.remui %{{.*}}, %c30
func.func @slice_tile(%x: tensor<4x37xf32>) -> tensor<4x60xf32> {
  %s = aclop.slice %x {offsets = array<i64: 1, 3>, sizes = array<i64: 2, 30>} : (tensor<4x37xf32>) -> tensor<2x30xf32>
  %t = aclop.tile %s {multiples = array<i64: 2, 2>} : (tensor<2x30xf32>) -> tensor<4x60xf32>
  return %t : tensor<4x60xf32>
}

// -----

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-LABEL: func @broadcast_to
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<3x1xi8>) outs(%{{.*}} : tensor<2x3x7xi8>)
func.func @broadcast_to(%b: tensor<3x1xi1>) -> tensor<2x3x7xi1> {
  %r = aclop.broadcast_to %b {shape = array<i64: 2, 3, 7>} : (tensor<3x1xi1>) -> tensor<2x3x7xi1>
  return %r : tensor<2x3x7xi1>
}

// -----

// Each part is filled on its own and inserted at its offset along the axis, into the empty
// output (not filled first: aclop-eliminate-expanded-empty-tensors makes it the destination).
// CHECK-LABEL: func @concat
// CHECK: %[[OUT:.*]] = tensor.empty(%{{.*}}) : tensor<?x43xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[A:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x3xf32>)
// CHECK: %[[WITH_A:.*]] = tensor.insert_slice %[[A]] into %[[OUT]][0, 0] [%{{.*}}, 3] [1, 1]
// CHECK: %[[B:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x40xf32>)
// CHECK: tensor.insert_slice %[[B]] into %[[WITH_A]][0, 3] [%{{.*}}, 40] [1, 1]
func.func @concat(%a: tensor<?x3xf32>, %b: tensor<?x40xf32>) -> tensor<?x43xf32> {
  %r = aclop.concat %a, %b {axis = -1} : (tensor<?x3xf32>, tensor<?x40xf32>) -> tensor<?x43xf32>
  return %r : tensor<?x43xf32>
}

// -----

// Gather reads each index (where the indices' dims sit in the result) and then params there,
// both with tensor.extract, so that the vectorizer sees the index is the same along the inner
// dims; an index out of range reads params' first slice and yields zero instead.
// CHECK-LABEL: func @gather
// CHECK: %[[SIZE:.*]] = tensor.dim %arg0, %c1
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<4x2x3x6xf32>)
// CHECK:   %[[I1:.*]] = linalg.index 1
// CHECK:   %[[I2:.*]] = linalg.index 2
// CHECK:   %[[RAW:.*]] = tensor.extract %arg1[%[[I1]], %[[I2]]] : tensor<2x3xi32>
// CHECK:   %[[INDEX:.*]] = arith.index_cast %[[RAW]] : i32 to index
// CHECK:   arith.cmpi sge, %[[INDEX]]
// CHECK:   arith.cmpi slt, %[[INDEX]], %[[SIZE]]
// CHECK:   %[[IN:.*]] = arith.andi
// CHECK:   %[[O:.*]] = linalg.index 0
// CHECK:   %[[SAFE:.*]] = arith.select %[[IN]], %[[INDEX]]
// CHECK:   %[[N:.*]] = linalg.index 3
// CHECK:   %[[V:.*]] = tensor.extract %arg0[%[[O]], %[[SAFE]], %[[N]]]
// CHECK:   arith.select %[[IN]], %[[V]], %{{.*}} : f32
func.func @gather(%p: tensor<4x5x6xf32>, %i: tensor<2x3xi32>) -> tensor<4x2x3x6xf32> {
  %r = aclop.gather %p, %i {axis = 1} : (tensor<4x5x6xf32>, tensor<2x3xi32>) -> tensor<4x2x3x6xf32>
  return %r : tensor<4x2x3x6xf32>
}

// -----

// Arg max: one reduction carrying the largest value so far (f32 for f16) and its index, which
// a strict comparison moves only for a larger element (here over the first axis: the kept last
// dim innermost). The largest value is carried as maxnum(best, x), which a NaN x leaves alone as
// the comparison does, and which LLVM does not fold into a masked store as it does a select of
// the loaded best.
// CHECK-LABEL: func @arg_max
// CHECK: %[[BEST:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: %[[AT:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<4xi32>)
// CHECK: %{{.*}}:2 = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%arg0 : tensor<9x4xf16>) outs(%[[BEST]], %[[AT]] : tensor<4xf32>, tensor<4xi32>)
// CHECK: ^bb0(%{{.*}}: f16, %[[SO_FAR:.*]]: f32, %{{.*}}: i32)
// CHECK:   %[[X:.*]] = arith.extf
// CHECK:   %[[GT:.*]] = arith.cmpf ogt, %[[X]]
// CHECK:   arith.maxnumf %[[SO_FAR]], %[[X]]
// CHECK:   %[[K:.*]] = linalg.index 0
// CHECK:   %[[KI:.*]] = arith.index_cast %[[K]] : index to i32
// CHECK:   arith.select %[[GT]], %[[KI]]
func.func @arg_max(%a: tensor<9x4xf16>) -> tensor<4xi32> {
  %r = aclop.arg_max %a {axis = 0, result_type = i32} : (tensor<9x4xf16>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// Arg max along the last axis, row by row: the row's max (a plain max reduction), then, unless
// that is NaN (the row holds one: the strict scan), the first index holding it (a min
// reduction of index-or-size), 0 where the max is still -inf (a row of no elements).
// CHECK-LABEL: func @arg_max_rows
// CHECK: scf.forall (%{{.*}}) in (4)
// CHECK:   %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<1x9xf16>) outs(%{{.*}} : tensor<1xf32>)
// CHECK:     arith.maximumf
// CHECK:   %[[M:.*]] = tensor.extract %[[MAX]]
// CHECK:   %[[NAN:.*]] = arith.cmpf uno, %[[M]], %[[M]]
// CHECK:   scf.if %[[NAN]] -> (tensor<1xi32>)
// CHECK:     arith.cmpf ogt
// CHECK:   } else {
// CHECK:     %[[FIRST:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[MAX]] : tensor<1x9xf16>, tensor<1xf32>)
// CHECK:       %[[EQ:.*]] = arith.cmpf oeq
// CHECK:       %[[AT:.*]] = arith.select %[[EQ]], %{{.*}}, %{{.*}} : i32
// CHECK:       arith.minsi %{{.*}}, %[[AT]] : i32
// CHECK:     linalg.generic {{.*}} ins(%[[MAX]], %[[FIRST]] : tensor<1xf32>, tensor<1xi32>)
// CHECK:       %[[NONE:.*]] = arith.cmpf oeq, %{{.*}}, %cst
// CHECK:       arith.select %[[NONE]], %c0_i32
func.func @arg_max_rows(%a: tensor<4x9xf16>) -> tensor<4xi32> {
  %r = aclop.arg_max %a {axis = 1, result_type = i32} : (tensor<4x9xf16>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// Pad writes its result in parts: the padding before, the input's extent and the padding
// after, along each padded dim. The part inside the input copies it, reading no masked index; the
// others are filled with the value cast to the element type. An empty input is all padding and
// read nowhere.
// CHECK-LABEL: func @pad
// CHECK: arith.fptosi
// CHECK: linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<1x4xi32>)
// CHECK: tensor.insert_slice %{{.*}}[0, 0] [1, 4]
// CHECK: linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<1x2xi32>)
// CHECK: tensor.insert_slice %{{.*}}[0, 4] [1, 2]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x4xi32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   %[[I:.*]] = linalg.index 0
// CHECK-NEXT:   %[[J:.*]] = linalg.index 1
// CHECK-NEXT:   tensor.extract %arg0[%[[I]], %[[J]]] : tensor<3x4xi32>
// CHECK: tensor.insert_slice %{{.*}}[1, 0] [3, 4]
// CHECK: linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<3x2xi32>)
// CHECK: tensor.insert_slice %{{.*}}[1, 4] [3, 2]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x3xf32>)
// CHECK-NOT: tensor.extract %arg1
// CHECK: return
func.func @pad(%a: tensor<3x4xi32>, %e: tensor<0x3xf32>) -> (tensor<4x6xi32>, tensor<2x3xf32>) {
  %r = aclop.pad %a {low = array<i64: 1, 0>, high = array<i64: 0, 2>, value = 7.0 : f32} : (tensor<3x4xi32>) -> tensor<4x6xi32>
  %s = aclop.pad %e {low = array<i64: 1, 0>, high = array<i64: 1, 0>} : (tensor<0x3xf32>) -> tensor<2x3xf32>
  return %r, %s : tensor<4x6xi32>, tensor<2x3xf32>
}

// -----

// Mirrored padding, in parts as constant padding is: each element of a part in the padding reads
// the input at the position it mirrors along the dims where the part is in the padding, with no
// mask (every position maps inside): reflect min(|j|, 2n - 2 - |j|), symmetric min(a, 2n - 1 - a)
// with a = max(j, -j - 1), edge clamp(j, 0, n - 1), for j the position less the padding before.
// Along a dim the part lies inside, j alone: a contiguous run. The middle part is a copy.
// CHECK-LABEL: func @pad_mirrored
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4xf32>)
// CHECK:   %[[J:.*]] = arith.addi %{{.*}}, %c-2
// CHECK:   %[[NEG:.*]] = arith.subi %c0{{.*}}, %[[J]]
// CHECK:   %[[A:.*]] = arith.maxsi %[[J]], %[[NEG]]
// CHECK:   %[[B:.*]] = arith.subi %c4{{.*}}, %[[A]]
// CHECK:   %[[ROW:.*]] = arith.minsi %[[A]], %[[B]]
// CHECK:   %[[COL:.*]] = linalg.index 1
// CHECK:   %[[X:.*]] = tensor.extract %arg0[%[[ROW]], %[[COL]]] : tensor<3x4xf32>
// CHECK-NEXT: linalg.yield %[[X]]
// CHECK: tensor.insert_slice %{{.*}}[0, 0] [2, 4]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x3xf32>)
// CHECK:   arith.subi %c6{{.*}}, %{{.*}}
// CHECK: tensor.insert_slice %{{.*}}[0, 4] [2, 3]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x4xf32>)
// CHECK-NOT: arith.minsi
// CHECK: tensor.insert_slice %{{.*}}[2, 0] [3, 4]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x3xf32>)
// CHECK:   %[[I:.*]] = linalg.index 0
// CHECK:   %[[MIRRORED:.*]] = arith.minsi
// CHECK:   tensor.extract %arg0[%[[I]], %[[MIRRORED]]]
// CHECK: tensor.insert_slice %{{.*}}[2, 4] [3, 3]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x4xf32>)
// CHECK:   %[[K:.*]] = linalg.index 1
// CHECK:   %[[S:.*]] = arith.addi %[[K]], %c-4
// CHECK:   %[[MIRROR:.*]] = arith.subi %c-1{{.*}}, %[[S]]
// CHECK:   %[[T:.*]] = arith.maxsi %[[S]], %[[MIRROR]]
// CHECK:   %[[U:.*]] = arith.subi %c7{{.*}}, %[[T]]
// CHECK:   arith.minsi %[[T]], %[[U]]
// CHECK: tensor.insert_slice %{{.*}}[0, 0] [3, 4]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4xf32>)
// CHECK:   %[[E:.*]] = arith.addi %{{.*}}, %c-1
// CHECK:   %[[LOW:.*]] = arith.maxsi %[[E]], %c0
// CHECK:   arith.minsi %[[LOW]], %c2
// CHECK:   tensor.extract %arg0
// CHECK-NEXT: linalg.yield
func.func @pad_mirrored(%a: tensor<3x4xf32>) -> (tensor<5x7xf32>, tensor<6x8xf32>, tensor<6x4xf32>) {
  %r = aclop.pad %a {low = array<i64: 2, 0>, high = array<i64: 0, 3>, mode = "reflect"} : (tensor<3x4xf32>) -> tensor<5x7xf32>
  %s = aclop.pad %a {low = array<i64: 0, 4>, high = array<i64: 3, 0>, mode = "symmetric"} : (tensor<3x4xf32>) -> tensor<6x8xf32>
  %e = aclop.pad %a {low = array<i64: 1, 0>, high = array<i64: 2, 0>, mode = "edge"} : (tensor<3x4xf32>) -> tensor<6x4xf32>
  return %r, %s, %e : tensor<5x7xf32>, tensor<6x8xf32>, tensor<6x4xf32>
}

// -----

// Padding only along rows: each row's ends filled with the value, the input copied between
// them; nothing written twice.
// CHECK-LABEL: func @pad_fill_and_copy
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x6x2xf32>)
// CHECK: tensor.insert_slice %{{.*}}[0, 0, 0] [1, 6, 2]
// CHECK: %[[COPY:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x6x40xf32>)
// CHECK:   tensor.extract %arg0
// CHECK: tensor.insert_slice %[[COPY]] into %{{.*}}[0, 0, 2] [1, 6, 40] [1, 1, 1]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x6x4xf32>)
// CHECK: tensor.insert_slice %{{.*}}[0, 0, 42] [1, 6, 4]
func.func @pad_fill_and_copy(%a: tensor<1x6x40xf32>) -> tensor<1x6x46xf32> {
  %r = aclop.pad %a {low = array<i64: 0, 0, 2>, high = array<i64: 0, 0, 4>, value = 1.5 : f32} : (tensor<1x6x40xf32>) -> tensor<1x6x46xf32>
  return %r : tensor<1x6x46xf32>
}

// -----

// Params that may be empty along the axis are read only for an index in range (scf.if); params
// that are empty there are not read at all.
// CHECK-LABEL: func @gather_maybe_empty
// CHECK: linalg.generic
// CHECK:   scf.if %{{.*}} -> (f32) {
// CHECK:     tensor.extract %arg0
// CHECK:   } else {
// CHECK: linalg.generic
// CHECK-NOT: tensor.extract %arg1
// CHECK:   linalg.yield
func.func @gather_maybe_empty(%p: tensor<?x4xf32>, %e: tensor<0x4xf32>, %i: tensor<3xi32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %r = aclop.gather %p, %i {axis = 0} : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  %s = aclop.gather %e, %i {axis = 0} : (tensor<0x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %r, %s : tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// Each piece a generic of its own reading the input at its offset along the axis: 0, 2, and
// after the rest of a dynamic dim (the dim less 5), that rest plus 2.
// CHECK-LABEL: func @split
// CHECK: %[[DIM:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[REST:.*]] = arith.subi %[[DIM]], %c5
// CHECK: tensor.empty(%[[REST]]) : tensor<4x?xf32>
// CHECK: %[[LAST:.*]] = arith.addi %[[REST]], %c2
// CHECK: linalg.generic
// CHECK:   arith.addi %{{.*}}, %[[LAST]]
// CHECK:   tensor.extract %arg0
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x2xf32>, tensor<4x?xf32>, tensor<4x3xf32>
func.func @split(%x: tensor<4x?xf32>) -> (tensor<4x2xf32>, tensor<4x?xf32>, tensor<4x3xf32>) {
  %r:3 = aclop.split %x {axis = 1, sizes = array<i64: 2, -1, 3>} : (tensor<4x?xf32>) -> (tensor<4x2xf32>, tensor<4x?xf32>, tensor<4x3xf32>)
  return %r#0, %r#1, %r#2 : tensor<4x2xf32>, tensor<4x?xf32>, tensor<4x3xf32>
}

// -----

// Row by row (an scf.forall over the kept dims, the mean and variance shared outputs): the mean,
// then the squares about it (two passes over the row), rsqrt(variance + epsilon), y in f32 with
// gamma and beta read along the normalized dims; then the statistics narrowed and given their
// unit dims back.
// CHECK-LABEL: func @layer_norm
// CHECK: %[[ROWS:.*]]:3 = scf.forall (%[[R:.*]]) in (4) shared_outs(%[[Y:.*]] = %{{.*}}, %[[MEANS:.*]] = %{{.*}}, %[[VARIANCES:.*]] = %{{.*}})
// CHECK:   %[[MEANROW:.*]] = tensor.extract_slice %[[MEANS]][%[[R]]] [1] [1]
// CHECK:   %[[XROW:.*]] = tensor.extract_slice %arg0[%[[R]], 0] [1, 8] [1, 1]
// CHECK:   linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:     arith.extf %{{.*}} : bf16 to f32
// CHECK:   %[[MEAN:.*]] = linalg.generic {{.*}} outs(%[[MEANROW]] : tensor<1xf32>)
// CHECK:     arith.divf
// CHECK:   linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[XROW]], %[[MEAN]]
// CHECK:     arith.subf
// CHECK:     arith.mulf
// CHECK:   math.rsqrt
// CHECK:   linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[XROW]], %[[MEAN]], %{{.*}}, %arg1, %arg1
// CHECK:     arith.truncf %{{.*}} : f32 to bf16
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xbf16> into tensor<4x1xbf16>
// CHECK: tensor.expand_shape
func.func @layer_norm(%x: tensor<4x8xbf16>, %g: tensor<8xf32>) -> (tensor<4x8xbf16>, tensor<4x1xbf16>, tensor<4x1xbf16>) {
  %r:3 = aclop.layer_norm %x, %g, %g {begin_norm_axis = 1, begin_params_axis = 1, epsilon = 1.0e-5 : f32} : (tensor<4x8xbf16>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xbf16>, tensor<4x1xbf16>, tensor<4x1xbf16>)
  return %r#0, %r#1, %r#2 : tensor<4x8xbf16>, tensor<4x1xbf16>, tensor<4x1xbf16>
}

// -----

// Parameters from before begin_norm_axis vary by row: each row reads their row.
// CHECK-LABEL: func @layer_norm_params_by_row
// CHECK: scf.forall (%[[R:.*]]) in (4)
// CHECK:   %[[GAMMA:.*]] = tensor.extract_slice %arg1[%[[R]], 0] [1, 8] [1, 1]
// CHECK:   %[[BETA:.*]] = tensor.extract_slice %arg2[%[[R]], 0] [1, 8] [1, 1]
// CHECK:   linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]{{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[GAMMA]], %[[BETA]] :
func.func @layer_norm_params_by_row(%x: tensor<4x8xf32>, %g: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>) {
  %r:3 = aclop.layer_norm %x, %g, %b {begin_norm_axis = 1, begin_params_axis = 0, epsilon = 1.0e-5 : f32} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  return %r#0, %r#1, %r#2 : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>
}

// -----

// Signed floor division: the truncated quotient, one less where the remainder's sign is not the
// divisor's, and 0 for a zero divisor.
// CHECK-LABEL: func @floor_div_i32
// CHECK: linalg.generic
// CHECK:   arith.divsi
// CHECK:   arith.muli
// CHECK:   arith.subi
// CHECK:   arith.xori
// CHECK:   arith.cmpi slt
// CHECK:   arith.select
func.func @floor_div_i32(%a: tensor<5xi32>, %b: tensor<5xi32>) -> tensor<5xi32> {
  %r = aclop.floor_div %a, %b : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  return %r : tensor<5xi32>
}

// -----

// log_softmax: the row's max + log(sum(exp(x - max))) once a row, then x less it, row by row.
// CHECK-LABEL: func @log_softmax
// CHECK: scf.forall
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:   arith.maxnumf
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:   math.exp
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]
// CHECK:   math.log
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK-NOT: math.exp
// CHECK:   arith.subf
func.func @log_softmax(%a: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %r = aclop.log_softmax %a {axes = array<i64: 1>} : (tensor<4x7xf32>) -> tensor<4x7xf32>
  return %r : tensor<4x7xf32>
}

// -----

// A strided slice reads at offset + index * stride, then drops its shrink dims (a view).
// CHECK-LABEL: func @strided_slice
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2xf16>)
// CHECK:   %[[J:.*]] = linalg.index 1
// CHECK:   %[[SCALED:.*]] = arith.muli %[[J]], %c-3
// CHECK:   %[[AT:.*]] = arith.addi %[[SCALED]], %c4
// CHECK:   tensor.extract %arg0[%{{.*}}, %[[AT]]]
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<1x2xf16> into tensor<2xf16>
func.func @strided_slice(%a: tensor<2x5xf16>) -> tensor<2xf16> {
  %r = aclop.strided_slice %a {offsets = array<i64: 1, 4>, sizes = array<i64: 1, 2>, strides = array<i64: 1, -3>, shrink = array<i64: 0>} : (tensor<2x5xf16>) -> tensor<2xf16>
  return %r : tensor<2xf16>
}

// -----

// New axes are 1s inserted after the shrink dims are dropped (views): leading ones join the
// first kept dim's group, the others the group of the kept dim before them.
// CHECK-LABEL: func @strided_slice_new_axes
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x1x2xf32>)
// CHECK: %[[SHRUNK:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : tensor<3x1x2xf32> into tensor<3x2xf32>
// CHECK: tensor.expand_shape %[[SHRUNK]] {{\[\[}}0, 1, 2], [3, 4]] output_shape [1, 1, 3, 2, 1] : tensor<3x2xf32> into tensor<1x1x3x2x1xf32>
func.func @strided_slice_new_axes(%a: tensor<3x4x5xf32>) -> tensor<1x1x3x2x1xf32> {
  %r = aclop.strided_slice %a {offsets = array<i64: 0, 1, 0>, sizes = array<i64: 3, 1, 2>, strides = array<i64: 1, 1, 2>, shrink = array<i64: 1>, new_axes = array<i64: 0, 1, 4>} : (tensor<3x4x5xf32>) -> tensor<1x1x3x2x1xf32>
  return %r : tensor<1x1x3x2x1xf32>
}

// -----

// Every dim shrunk, then new axes: a 0-d tensor expanded to 1s.
// CHECK-LABEL: func @strided_slice_scalar_new_axes
// CHECK: %[[SHRUNK:.*]] = tensor.collapse_shape %{{.*}} [] : tensor<1x1xi8> into tensor<i8>
// CHECK: tensor.expand_shape %[[SHRUNK]] [] output_shape [1, 1] : tensor<i8> into tensor<1x1xi8>
func.func @strided_slice_scalar_new_axes(%a: tensor<3x4xi8>) -> tensor<1x1xi8> {
  %r = aclop.strided_slice %a {offsets = array<i64: 2, 3>, sizes = array<i64: 1, 1>, strides = array<i64: 1, 1>, shrink = array<i64: 0, 1>, new_axes = array<i64: 0, -1>} : (tensor<3x4xi8>) -> tensor<1x1xi8>
  return %r : tensor<1x1xi8>
}
