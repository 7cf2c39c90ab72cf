// An NHWC 1x1 convolution's product (the input is its A: the product is the function's only
// nest) in register tiles of 12 rows: the rows past the last whole tile (64 pixels: 60 + 4) are a
// part of their own. The first part's destination, the product's
// tensor.empty still (the output is reached through the epilogue's collapse), is a new empty of
// the part's shape, which aclop-eliminate-expanded-empty-tensors places in the output; a slice
// of the whole empty was copied into the output after bufferization, a nest no block could share.
// RUN: %op-opt %s -split-input-file -convert-aclop-to-linalg -canonicalize -aclop-select-strategy=vector-bits=512 -aclop-tile-and-vectorize | FileCheck %s
// RUN: %op-opt %s -split-input-file -convert-aclop-to-linalg -canonicalize -aclop-select-strategy=vector-bits=512 -aclop-tile-and-vectorize -canonicalize -cse -aclop-eliminate-expanded-empty-tensors | FileCheck %s --check-prefix=PLACED

// CHECK-LABEL: func @rows_past_tall_tiles
// CHECK: %[[WHOLE:.*]] = tensor.empty() : tensor<64x32xf32>
// CHECK: %[[FIRST:.*]] = tensor.empty() : tensor<60x32xf32>
// CHECK: %[[PART:.*]] = scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (60, 32) step (12, 32) shared_outs(%{{.*}} = %[[FIRST]])
// CHECK: tensor.insert_slice %[[PART]] into %[[WHOLE]][0, 0] [60, 32] [1, 1]
// PLACED-LABEL: func @rows_past_tall_tiles
// PLACED: %[[VIEW:.*]] = memref.collapse_shape %arg2 {{\[}}[0, 1, 2], [3]] : memref<1x8x8x32xf32> into memref<64x32xf32>
// PLACED: %[[OUT:.*]] = bufferization.to_tensor %[[VIEW]] restrict writable
// PLACED: %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][0, 0] [60, 32] [1, 1]
// PLACED: scf.forall {{.*}} to (60) step (12) shared_outs(%{{.*}} = %[[SLICE]])
// PLACED-NOT: tensor.empty() : tensor<60x32xf32>
func.func @rows_past_tall_tiles(%arg0: memref<1x8x8x16xf32>, %arg1: memref<1x1x16x32xf32>, %arg2: memref<1x8x8x32xf32>) {
  %x = bufferization.to_tensor %arg0 restrict : memref<1x8x8x16xf32> to tensor<1x8x8x16xf32>
  %w = bufferization.to_tensor %arg1 restrict : memref<1x1x16x32xf32> to tensor<1x1x16x32xf32>
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, data_format = "NHWC", filter_format = "HWCN"}
      : (tensor<1x8x8x16xf32>, tensor<1x1x16x32xf32>) -> tensor<1x8x8x32xf32>
  bufferization.materialize_in_destination %r in restrict writable %arg2 : (tensor<1x8x8x32xf32>, memref<1x8x8x32xf32>) -> ()
  return
}

// -----

// Not canonicalized first, the same convolution over 100 pixels takes cache tiles. Their
// register tiling canonicalizes only within the product's own cache-tile loop: the f32 epilogue
// (an identity copy) outside it stays and is tiled as listed (a canonicalization over the whole
// function erased it, and the pass then read the erased op and crashed).
// RUN: %op-opt %s -split-input-file -convert-aclop-to-linalg -aclop-select-strategy=vector-bits=512 -aclop-tile-and-vectorize | FileCheck %s --check-prefix=ERASED
// ERASED-LABEL: func @erased_candidate
// ERASED: scf.forall (%{{.*}}) = (0) to (100) step (64)
// ERASED: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (100, 32) step (1, 16)
// ERASED: bufferization.materialize_in_destination
func.func @erased_candidate(%arg0: memref<1x10x10x16xf32>, %arg1: memref<3x3x16x32xf32>, %arg2: memref<1x10x10x32xf32>) {
  %x = bufferization.to_tensor %arg0 restrict : memref<1x10x10x16xf32> to tensor<1x10x10x16xf32>
  %w = bufferization.to_tensor %arg1 restrict : memref<3x3x16x32xf32> to tensor<3x3x16x32xf32>
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, data_format = "NHWC", filter_format = "HWCN"}
      : (tensor<1x10x10x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x10x10x32xf32>
  bufferization.materialize_in_destination %r in restrict writable %arg2 : (tensor<1x10x10x32xf32>, memref<1x10x10x32xf32>) -> ()
  return
}

// -----

// With a bias, one image (1x1 again): the epilogue reads the product's [pixel, out channel] result itself,
// and the register tiles add the bias. The split's first part, whose destination is a slice of
// the output's collapsed empty, gets an empty of its own (placed in the output later); computed
// in the slice of the empty, it was copied into the output, a nest no block could share.
// CHECK-LABEL: func @bias_past_tall_tiles
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<1x8x8x32xf32>
// CHECK: %[[WHOLE:.*]] = tensor.collapse_shape %[[EMPTY]] {{\[}}[0, 1, 2], [3]]
// CHECK: %[[FIRST:.*]] = tensor.empty() : tensor<60x32xf32>
// CHECK: %[[PART:.*]] = scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (60, 32) step (12, 32) shared_outs(%{{.*}} = %[[FIRST]])
// CHECK: arith.addf %{{.*}} : vector<12x32xf32>
// CHECK: tensor.insert_slice %[[PART]] into %[[WHOLE]][0, 0] [60, 32] [1, 1]
// PLACED-LABEL: func @bias_past_tall_tiles
// PLACED: %[[VIEW:.*]] = memref.collapse_shape %arg3 {{\[}}[0, 1, 2], [3]] : memref<1x8x8x32xf32> into memref<64x32xf32>
// PLACED: %[[OUT:.*]] = bufferization.to_tensor %[[VIEW]] restrict writable
// PLACED: %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][0, 0] [60, 32] [1, 1]
// PLACED: scf.forall {{.*}} to (60) step (12) shared_outs(%{{.*}} = %[[SLICE]])
// PLACED-NOT: tensor.empty() : tensor<60x32xf32>
func.func @bias_past_tall_tiles(%arg0: memref<1x8x8x16xf32>, %arg1: memref<1x1x16x32xf32>, %arg2: memref<32xf32>,
                                %arg3: memref<1x8x8x32xf32>) {
  %x = bufferization.to_tensor %arg0 restrict : memref<1x8x8x16xf32> to tensor<1x8x8x16xf32>
  %w = bufferization.to_tensor %arg1 restrict : memref<1x1x16x32xf32> to tensor<1x1x16x32xf32>
  %b = bufferization.to_tensor %arg2 restrict : memref<32xf32> to tensor<32xf32>
  %r = aclop.conv2d %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, data_format = "NHWC", filter_format = "HWCN"}
      : (tensor<1x8x8x16xf32>, tensor<1x1x16x32xf32>, tensor<32xf32>) -> tensor<1x8x8x32xf32>
  bufferization.materialize_in_destination %r in restrict writable %arg3 : (tensor<1x8x8x32xf32>, memref<1x8x8x32xf32>) -> ()
  return
}

// -----

// An NCHW convolution's product reads its OIHW filter as B stored (n, k), among other nests (the
// patches before it, the transposing epilogue after): blocks divide rows in every nest, so its
// register tiles take an scf.forall over 64-row panels, each running the 32-column strips in
// turn (each transposing its panel of B), not an scf.forall over strips, each over all rows,
// which read the patches other blocks made.
// CHECK-LABEL: func @nchw_row_panels
// CHECK: scf.forall ({{.*}}) in (1, 256, 3, 3, 3)
// CHECK: scf.forall (%{{.*}}) = (0) to (256) step (64)
// CHECK:   scf.for %{{.*}} = %c0 to %c64 step %c32
// CHECK:     bufferization.alloc_tensor() : tensor<27x32xf32>
// CHECK:     scf.for %{{.*}} = %c0 to %c64 step %c8
// CHECK: scf.forall ({{.*}}) = (0, 0, 0) to (1, 256, 64) step (1, 16, 16)
func.func @nchw_row_panels(%arg0: memref<1x3x16x16xf32>, %arg1: memref<64x3x3x3xf32>, %arg2: memref<1x64x16x16xf32>) {
  %x = bufferization.to_tensor %arg0 restrict : memref<1x3x16x16xf32> to tensor<1x3x16x16xf32>
  %w = bufferization.to_tensor %arg1 restrict : memref<64x3x3x3xf32> to tensor<64x3x3x3xf32>
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>}
      : (tensor<1x3x16x16xf32>, tensor<64x3x3x3xf32>) -> tensor<1x64x16x16xf32>
  bufferization.materialize_in_destination %r in restrict writable %arg2 : (tensor<1x64x16x16xf32>, memref<1x64x16x16xf32>) -> ()
  return
}
