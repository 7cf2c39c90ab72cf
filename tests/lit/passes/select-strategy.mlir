// The strategy is an attribute: vector lanes from the widest element type, tiles for
// element-wise ops that write in iteration order, cache tiles (rows, depth, columns) for products.
// RUN: %op-opt %s -convert-aclop-to-linalg -aclop-select-strategy=vector-bits=512 | FileCheck %s
// RUN: %op-opt %s -convert-aclop-to-linalg -aclop-select-strategy=vector-bits=256 | FileCheck %s --check-prefix=AVX2

// CHECK-LABEL: func @strategies
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {tile_sizes = array<i64: 1, 16>, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {tile_sizes = array<i64: 8>, vector_size = 8 : i64}}
// CHECK: linalg.transpose {{.*}} {aclop.strategy = {tile_sizes = array<i64: 1, 4>, vector_size = 32 : i64}}
// CHECK: linalg.fill {{.*}}aclop.strategy = {vector_size = 16 : i64}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {vector_size = 16 : i64}}
// AVX2: tile_sizes = array<i64: 1, 8>, vector_size = 8
// AVX2: tile_sizes = array<i64: 4>, vector_size = 4
func.func @strategies(%a: tensor<4x?xf32>, %b: tensor<4x?xf16>, %d: tensor<9xf64>) -> (tensor<4x?xf32>, tensor<9xf64>, tensor<?x4xf16>, tensor<4xf32>) {
  %0 = aclop.exp %a : (tensor<4x?xf32>) -> tensor<4x?xf32>
  %1 = aclop.neg %d : (tensor<9xf64>) -> tensor<9xf64>
  %2 = aclop.transpose %b {perm = array<i64: 1, 0>} : (tensor<4x?xf16>) -> tensor<?x4xf16>
  %3 = aclop.reduce_sum %a {axes = array<i64: 1>} : (tensor<4x?xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4x?xf32>, tensor<9xf64>, tensor<?x4xf16>, tensor<4xf32>
}

// A read contiguous along another dim than the innermost (a transpose) tiles that dim by a
// vector too, where vectors divide it, and runs its tiles in 64 x 64 blocks where those divide
// both dims; otherwise only the innermost dim is tiled. With 512-bit vectors, 16-bit tiles
// (32 x 32) run a block of one tile each, not two by two.
// CHECK-LABEL: func @transposed_reads
// CHECK: linalg.transpose {{.*}} {aclop.strategy = {block_sizes = array<i64: 64, 64>, tile_sizes = array<i64: 16, 16>, vector_size = 16 : i64}}
// CHECK: linalg.transpose {{.*}} {aclop.strategy = {tile_sizes = array<i64: 1, 16>, vector_size = 16 : i64}}
// CHECK: linalg.transpose {{.*}} {aclop.strategy = {tile_sizes = array<i64: 1, 1, 16>, vector_size = 16 : i64}}
// CHECK: linalg.transpose {{.*}} {aclop.strategy = {block_sizes = array<i64: 32, 32>, tile_sizes = array<i64: 32, 32>, vector_size = 32 : i64}}
// AVX2-LABEL: func @transposed_reads
// AVX2: linalg.transpose {{.*}} {aclop.strategy = {block_sizes = array<i64: 64, 64>, tile_sizes = array<i64: 8, 8>, vector_size = 8 : i64}}
// AVX2: linalg.transpose {{.*}} {aclop.strategy = {tile_sizes = array<i64: 8, 8>, vector_size = 8 : i64}}
// AVX2: linalg.transpose {{.*}} {aclop.strategy = {tile_sizes = array<i64: 1, 8, 8>, vector_size = 8 : i64}}
// AVX2: linalg.transpose {{.*}} {aclop.strategy = {block_sizes = array<i64: 64, 64>, tile_sizes = array<i64: 16, 16>, vector_size = 16 : i64}}
func.func @transposed_reads(%a: tensor<128x192xf32>, %b: tensor<40x72xf32>, %c: tensor<3x64x200xf32>,
                            %d: tensor<128x192xf16>)
    -> (tensor<192x128xf32>, tensor<72x40xf32>, tensor<3x200x64xf32>, tensor<192x128xf16>) {
  %0 = aclop.transpose %a {perm = array<i64: 1, 0>} : (tensor<128x192xf32>) -> tensor<192x128xf32>
  %1 = aclop.transpose %b {perm = array<i64: 1, 0>} : (tensor<40x72xf32>) -> tensor<72x40xf32>
  %2 = aclop.transpose %c {perm = array<i64: 0, 2, 1>} : (tensor<3x64x200xf32>) -> tensor<3x200x64xf32>
  %3 = aclop.transpose %d {perm = array<i64: 1, 0>} : (tensor<128x192xf16>) -> tensor<192x128xf16>
  return %0, %1, %2, %3 : tensor<192x128xf32>, tensor<72x40xf32>, tensor<3x200x64xf32>, tensor<192x128xf16>
}

// A write contiguous along another dim than the innermost (an NCHW convolution's epilogue: its
// [pixel, out channel] sums into [out channel, pixel]) tiles that dim and the innermost by a
// vector, where vectors divide both (16 out channels; not 12), keeping the iteration order.
// CHECK-LABEL: func @transposed_writes
// CHECK: ins(%{{.*}} : tensor<1x1024x16xf32>) outs(%{{.*}} : tensor<1x16x1024xf32>) attrs =  {aclop.strategy = {tile_sizes = array<i64: 1, 16, 16>, vector_size = 16 : i64}}
// CHECK: ins(%{{.*}} : tensor<1x1024x12xf32>) outs(%{{.*}} : tensor<1x12x1024xf32>) attrs =  {aclop.strategy = {vector_size = 16 : i64}}
// AVX2-LABEL: func @transposed_writes
// AVX2: outs(%{{.*}} : tensor<1x16x1024xf32>) attrs =  {aclop.strategy = {tile_sizes = array<i64: 1, 8, 8>, vector_size = 8 : i64}}
func.func @transposed_writes(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>, %v: tensor<12x3x3x3xf32>)
    -> (tensor<1x16x32x32xf32>, tensor<1x12x32x32xf32>) {
  %0 = aclop.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}
      : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x32x32xf32>
  %1 = aclop.conv2d %x, %v {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}
      : (tensor<1x3x32x32xf32>, tensor<12x3x3x3xf32>) -> tensor<1x12x32x32xf32>
  return %0, %1 : tensor<1x16x32x32xf32>, tensor<1x12x32x32xf32>
}

// A product's output element is worth its depth in vector FMAs to the launch recipe, the most
// of the function's products (@products: 128 / 16, on 256-bit vectors 128 / 8); an i8 product's
// vector sums four products a lane (@integer_product: 128 / 64, or 128 / 32).
// CHECK-LABEL: func @products
// CHECK-SAME: attributes {aclop.work_per_element = 8 : i64}
// AVX2-LABEL: func @products
// AVX2-SAME: attributes {aclop.work_per_element = 16 : i64}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 64, 128, 512>, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 1, 64, 128, 512>, vector_size = 16 : i64}}
func.func @products(%a: tensor<64x128xf32>, %b: tensor<128x96xf32>, %x: tensor<2x64x128xf32>, %y: tensor<2x128x96xf32>)
    -> (tensor<64x96xf32>, tensor<2x64x96xf32>) {
  %0 = aclop.matmul %a, %b : (tensor<64x128xf32>, tensor<128x96xf32>) -> tensor<64x96xf32>
  %1 = aclop.batch_matmul %x, %y : (tensor<2x64x128xf32>, tensor<2x128x96xf32>) -> tensor<2x64x96xf32>
  return %0, %1 : tensor<64x96xf32>, tensor<2x64x96xf32>
}

// CHECK-LABEL: func @integer_product
// CHECK-SAME: attributes {aclop.work_per_element = 2 : i64}
// AVX2-LABEL: func @integer_product
// AVX2-SAME: attributes {aclop.work_per_element = 4 : i64}
func.func @integer_product(%a: tensor<64x128xi8>, %b: tensor<128x96xi8>) -> tensor<64x96xi32> {
  %0 = aclop.matmul %a, %b : (tensor<64x128xi8>, tensor<128x96xi8>) -> tensor<64x96xi32>
  return %0 : tensor<64x96xi32>
}

// Reductions along short rows record the row's length, up to 16 vectors (256 f32 on 512-bit
// vectors, 128 on 256-bit ones); longer rows, reductions over leading dims into fewer elements
// than a vector and full reductions are left to LLVM.
// CHECK-LABEL: func @row_reductions
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {row_length = 49 : i64, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {row_length = 256 : i64, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {vector_size = 16 : i64}}
// AVX2-LABEL: func @row_reductions
// AVX2: row_length = 49 : i64, vector_size = 8 : i64
// AVX2-NOT: row_length
func.func @row_reductions(%a: tensor<3x7x7xf32>, %b: tensor<2x256xf32>, %c: tensor<2x257xf32>, %d: tensor<9x4xf32>)
    -> (tensor<3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<4xf32>, tensor<f32>) {
  %0 = aclop.reduce_sum %a {axes = array<i64: 1, 2>} : (tensor<3x7x7xf32>) -> tensor<3xf32>
  %1 = aclop.reduce_sum %b {axes = array<i64: 1>} : (tensor<2x256xf32>) -> tensor<2xf32>
  %2 = aclop.reduce_sum %c {axes = array<i64: 1>} : (tensor<2x257xf32>) -> tensor<2xf32>
  %3 = aclop.reduce_sum %d {axes = array<i64: 0>} : (tensor<9x4xf32>) -> tensor<4xf32>
  %4 = aclop.reduce_sum %d {axes = array<i64: 0, 1>} : (tensor<9x4xf32>) -> tensor<f32>
  return %0, %1, %2, %3, %4 : tensor<3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<4xf32>, tensor<f32>
}

// Reductions whose innermost dim is kept, a vector or longer, stream the rows: tiles of one
// element of every dim but the innermost, and of a vector of that, or the whole row where it is
// static and 1, 2, 4 or 8 whole vectors (its accumulators then carried in registers; a row of
// 37 is not). Over leading
// dims, and over the middle ones of NHWC (a global average). A row shorter than a vector (7x5x8
// over axis 0 on 512-bit vectors, iterated (5, 7, 8); on 256-bit ones a row is a vector), fewer
// kept elements than a vector (9x4 above) and an innermost dim reduced stay with LLVM.
// CHECK-LABEL: func @leading_reductions
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {streamed_rows = array<i64: 1, 64>, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {streamed_rows = array<i64: 1, 1, 16>, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {streamed_rows = array<i64: 1, 16>, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {streamed_rows = array<i64: 1, 1, 1, 64>, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {streamed_rows = array<i64: 1, 16>, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {vector_size = 16 : i64}}
// AVX2-LABEL: func @leading_reductions
// AVX2: streamed_rows = array<i64: 1, 64>, vector_size = 8 : i64
// AVX2: streamed_rows = array<i64: 1, 1, 8>, vector_size = 8 : i64
// AVX2: streamed_rows = array<i64: 1, 8>, vector_size = 8 : i64
// AVX2: streamed_rows = array<i64: 1, 1, 1, 64>, vector_size = 8 : i64
// AVX2: streamed_rows = array<i64: 1, 8>, vector_size = 8 : i64
// AVX2: streamed_rows = array<i64: 1, 1, 8>, vector_size = 8 : i64
// AVX2-NOT: streamed_rows
func.func @leading_reductions(%a: tensor<37x64xf32>, %b: tensor<3x4x37xf32>, %d: tensor<?x?xf32>,
                              %n: tensor<2x7x7x64xf32>, %l: tensor<4x200xf32>, %c: tensor<7x5x8xf32>)
    -> (tensor<64xf32>, tensor<37xf32>, tensor<?xf32>, tensor<2x64xf32>, tensor<200xf32>, tensor<5x8xf32>,
        tensor<4xf32>) {
  %0 = aclop.reduce_sum %a {axes = array<i64: 0>} : (tensor<37x64xf32>) -> tensor<64xf32>
  %1 = aclop.reduce_max %b {axes = array<i64: 0, 1>} : (tensor<3x4x37xf32>) -> tensor<37xf32>
  %2 = aclop.reduce_sum %d {axes = array<i64: 0>} : (tensor<?x?xf32>) -> tensor<?xf32>
  %3 = aclop.reduce_sum %n {axes = array<i64: 1, 2>} : (tensor<2x7x7x64xf32>) -> tensor<2x64xf32>
  %4 = aclop.reduce_sum %l {axes = array<i64: 0>} : (tensor<4x200xf32>) -> tensor<200xf32>
  %5 = aclop.reduce_sum %c {axes = array<i64: 0>} : (tensor<7x5x8xf32>) -> tensor<5x8xf32>
  %6 = aclop.reduce_sum %b {axes = array<i64: 0, 2>} : (tensor<3x4x37xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<64xf32>, tensor<37xf32>, tensor<?xf32>, tensor<2x64xf32>,
      tensor<200xf32>, tensor<5x8xf32>, tensor<4xf32>
}

// A leading dim reduced into several kept ones, iterated kept dims first (the input read in rows
// of its last dim, a plane apart): rows whole up to 8 vectors, else a vector at a time.
// CHECK-LABEL: func @batch_reduced
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]{{.*}} attrs = {aclop.strategy = {streamed_rows = array<i64: 1, 1, 32>, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]{{.*}} attrs = {aclop.strategy = {streamed_rows = array<i64: 1, 1, 16>, vector_size = 16 : i64}}
// AVX2-LABEL: func @batch_reduced
// AVX2: streamed_rows = array<i64: 1, 1, 32>, vector_size = 8 : i64
// AVX2: streamed_rows = array<i64: 1, 1, 8>, vector_size = 8 : i64
func.func @batch_reduced(%a: tensor<64x16x32xf32>, %b: tensor<8x4x256xf32>) -> (tensor<16x32xf32>, tensor<4x256xf32>) {
  %0 = aclop.reduce_sum %a {axes = array<i64: 0>} : (tensor<64x16x32xf32>) -> tensor<16x32xf32>
  %1 = aclop.reduce_sum %b {axes = array<i64: 0>} : (tensor<8x4x256xf32>) -> tensor<4x256xf32>
  return %0, %1 : tensor<16x32xf32>, tensor<4x256xf32>
}

// Any element-wise body streams its rows too, each vector at a time: ArgMax over axis 0 (its
// maximum and the row's index, i64: 8 lanes), a softmax over axis 0's maxima (a plain maximum:
// the whole row) and sums of exponentials (a row of maxima read beside the input). The
// softmax's last step is element-wise.
// CHECK-LABEL: func @streamed_bodies
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]{{.*}} attrs = {aclop.strategy = {streamed_rows = array<i64: 1, 8>, vector_size = 8 : i64}}
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]{{.*}} attrs = {aclop.strategy = {streamed_rows = array<i64: 1, 64>, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]{{.*}} attrs = {aclop.strategy = {streamed_rows = array<i64: 1, 16>, vector_size = 16 : i64}}
// AVX2-LABEL: func @streamed_bodies
// AVX2: streamed_rows = array<i64: 1, 4>, vector_size = 4 : i64
// AVX2: streamed_rows = array<i64: 1, 64>, vector_size = 8 : i64
// AVX2: streamed_rows = array<i64: 1, 8>, vector_size = 8 : i64
func.func @streamed_bodies(%a: tensor<300x64xf32>) -> (tensor<64xi64>, tensor<300x64xf32>) {
  %0 = aclop.arg_max %a {axis = 0} : (tensor<300x64xf32>) -> tensor<64xi64>
  %1 = aclop.softmax %a {axes = array<i64: 0>} : (tensor<300x64xf32>) -> tensor<300x64xf32>
  return %0, %1 : tensor<64xi64>, tensor<300x64xf32>
}

// A reduction of one row (a softmax's maximum and sum along rows, forEachRow's) keeps partial
// results in up to four vectors (fewer, a power of two, for a row shorter than that), a tile the
// row is read by: 1000 f32 in 64 lanes, 32 f16 (f32 sums) in 32. Rows shorter than a vector, and
// short rows the tile does not divide (a masked rest), stay loops for LLVM. ArgMax's maximum takes
// them, and so does its search for the maximum's first position (linalg.index, i64: 8 lanes).
// CHECK-LABEL: func @row_partials
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} attrs = {aclop.strategy = {row_partials = 64 : i64, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} attrs = {aclop.strategy = {row_partials = 64 : i64, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} attrs = {aclop.strategy = {row_partials = 32 : i64, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} attrs = {aclop.strategy = {row_partials = 32 : i64, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} attrs = {aclop.strategy = {vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} attrs = {aclop.strategy = {vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} attrs = {aclop.strategy = {row_partials = 64 : i64, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} attrs = {aclop.strategy = {row_partials = 32 : i64, vector_size = 8 : i64}}
// CHECK: linalg.index
// AVX2-LABEL: func @row_partials
// AVX2-COUNT-5: row_partials = 32 : i64, vector_size = 8 : i64
// AVX2: row_partials = 16 : i64, vector_size = 4 : i64
func.func @row_partials(%a: tensor<8x1000xf32>, %h: tensor<8x32xf16>, %s: tensor<8x10xf32>, %m: tensor<4x1000xf32>)
    -> (tensor<8x1000xf32>, tensor<8x32xf16>, tensor<8x10xf32>, tensor<4xi64>) {
  %0 = aclop.softmax %a {axes = array<i64: 1>} : (tensor<8x1000xf32>) -> tensor<8x1000xf32>
  %1 = aclop.softmax %h {axes = array<i64: 1>} : (tensor<8x32xf16>) -> tensor<8x32xf16>
  %2 = aclop.softmax %s {axes = array<i64: 1>} : (tensor<8x10xf32>) -> tensor<8x10xf32>
  %3 = aclop.arg_max %m {axis = 1} : (tensor<4x1000xf32>) -> tensor<4xi64>
  return %0, %1, %2, %3 : tensor<8x1000xf32>, tensor<8x32xf16>, tensor<8x10xf32>, tensor<4xi64>
}

// A dynamic depth is read at launch: [argument, its dim holding the depth, lanes per vector
// FMA], from the first input read in place (A's columns, or its rows when transposed).
// CHECK-LABEL: func @dynamic_depth
// CHECK-SAME: attributes {aclop.work_depth = array<i64: 0, 1, 16>}
// AVX2-LABEL: func @dynamic_depth
// AVX2-SAME: attributes {aclop.work_depth = array<i64: 0, 1, 8>}
func.func @dynamic_depth(%a: tensor<4x?xf32>, %b: tensor<?x96xf32>) -> tensor<4x96xf32> {
  %0 = aclop.matmul %a, %b : (tensor<4x?xf32>, tensor<?x96xf32>) -> tensor<4x96xf32>
  return %0 : tensor<4x96xf32>
}

// The kernel's form: buffers read through to_tensor.
// CHECK-LABEL: func @dynamic_depth_buffers
// CHECK-SAME: attributes {aclop.work_depth = array<i64: 1, 0, 16>}
func.func @dynamic_depth_buffers(%a: memref<4x?xf32>, %b: memref<?x96xf32>, %out: memref<4x96xf32>) {
  %b_tensor = bufferization.to_tensor %b restrict : memref<?x96xf32> to tensor<?x96xf32>
  %a_tensor = bufferization.to_tensor %a restrict : memref<4x?xf32> to tensor<4x?xf32>
  %0 = aclop.matmul %b_tensor, %a_tensor {transpose_a = true, transpose_b = true} : (tensor<?x96xf32>, tensor<4x?xf32>) -> tensor<96x4xf32>
  %1 = aclop.transpose %0 {perm = array<i64: 1, 0>} : (tensor<96x4xf32>) -> tensor<4x96xf32>
  bufferization.materialize_in_destination %1 in restrict writable %out : (tensor<4x96xf32>, memref<4x96xf32>) -> ()
  return
}

// CHECK-LABEL: func @dynamic_depth_transposed
// CHECK-SAME: attributes {aclop.work_depth = array<i64: 0, 0, 64>}
func.func @dynamic_depth_transposed(%a: tensor<?x4xi8>, %b: tensor<96x?xi8>) -> tensor<4x96xi32> {
  %0 = aclop.matmul %a, %b {transpose_a = true, transpose_b = true} : (tensor<?x4xi8>, tensor<96x?xi8>) -> tensor<4x96xi32>
  return %0 : tensor<4x96xi32>
}

// A ukernel the target provides takes the products it covers: s8 x s8 -> s32 with sign
// extension (not a zero-extending product). A ukernel call covers a row tile across every
// column and the whole depth (cache_tiles 0 = untiled): for f32 accumulators 512 rows from
// 2048 rows on (four tiles), else up to 256 rows, fewer where that leaves two tiles to share out.
// f16 and bf16 products take it off whole 8 x 32 register tiles; f32 products unless they are a
// GEMM whose epilogue generated register tiles take in (@gemm_products). Without the option,
// products get register tiles.
// RUN: %op-opt %s -convert-aclop-to-linalg -aclop-select-strategy='vector-bits=512 ukernels=aclcpu_ukernel_gemm_s8s8s32_vnni,aclcpu_ukernel_gemm_f32f32f32,aclcpu_ukernel_gemm_bf16bf16f32' | FileCheck %s --check-prefix=UKERNEL
// UKERNEL-LABEL: func @ukernel_products
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 64, 0, 0>, ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni", vector_size = 16 : i64}}
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 1, 256, 0, 0>, ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni", vector_size = 16 : i64}}
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 128, 0, 0>, ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni", vector_size = 16 : i64}}
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 64, 128, 512>, vector_size = 16 : i64}}
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 64, 128, 512>, vector_size = 16 : i64}}
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 64, 0, 0>, ukernel = "aclcpu_ukernel_gemm_f32f32f32", vector_size = 16 : i64}}
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 256, 0, 0>, ukernel = "aclcpu_ukernel_gemm_f32f32f32", vector_size = 16 : i64}}
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 64, 0, 0>, ukernel = "aclcpu_ukernel_gemm_f32f32f32", vector_size = 16 : i64}}
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 64, 0, 0>, ukernel = "aclcpu_ukernel_gemm_bf16bf16f32", vector_size = 16 : i64}}
// CHECK-LABEL: func @ukernel_products
// CHECK-NOT: ukernel
#lhs = affine_map<(m, k, n) -> (m, k)>
#rhs = affine_map<(m, k, n) -> (k, n)>
#acc = affine_map<(m, k, n) -> (m, n)>
func.func @ukernel_products(%a: tensor<64x128xi8>, %b: tensor<128x96xi8>, %x: tensor<2x1024x128xi8>,
                            %y: tensor<2x128x96xi8>, %d: tensor<?x128xi8>, %f: tensor<64x128xf32>,
                            %g: tensor<128x96xf32>, %c: tensor<64x96xi32>, %h: tensor<1024x768xf32>,
                            %i: tensor<768x1024xf32>, %j: tensor<7x33xbf16>, %l: tensor<33x5xbf16>)
    -> (tensor<64x96xi32>, tensor<2x1024x96xi32>, tensor<?x96xi32>, tensor<64x96xf32>, tensor<64x96xi32>,
        tensor<7x96xf32>, tensor<1024x1024xf32>, tensor<64x1024xf32>, tensor<7x5xf32>) {
  %0 = aclop.matmul %a, %b : (tensor<64x128xi8>, tensor<128x96xi8>) -> tensor<64x96xi32>
  %1 = aclop.batch_matmul %x, %y : (tensor<2x1024x128xi8>, tensor<2x128x96xi8>) -> tensor<2x1024x96xi32>
  %2 = aclop.matmul %d, %b : (tensor<?x128xi8>, tensor<128x96xi8>) -> tensor<?x96xi32>
  // Whole register tiles and no epilogue (a plain product): generated tiles, as GEMM's take.
  %3 = aclop.matmul %f, %g : (tensor<64x128xf32>, tensor<128x96xf32>) -> tensor<64x96xf32>
  // Unsigned bytes: not what vpdpbusd's signed B and biased A compute.
  %4 = linalg.generic {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : tensor<64x128xi8>, tensor<128x96xi8>) outs(%c : tensor<64x96xi32>) {
  ^bb0(%l0: i8, %r0: i8, %o: i32):
    %le = arith.extui %l0 : i8 to i32
    %re = arith.extui %r0 : i8 to i32
    %p = arith.muli %le, %re : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  } -> tensor<64x96xi32>
  // 7 rows: ragged. 1024^3 (past 640): the ukernel. 64 x 1024 x 768: the ukernel as well.
  %fs = tensor.extract_slice %f[0, 0] [7, 128] [1, 1] : tensor<64x128xf32> to tensor<7x128xf32>
  %5 = aclop.matmul %fs, %g : (tensor<7x128xf32>, tensor<128x96xf32>) -> tensor<7x96xf32>
  %6 = aclop.matmul %h, %i : (tensor<1024x768xf32>, tensor<768x1024xf32>) -> tensor<1024x1024xf32>
  %hs = tensor.extract_slice %h[0, 0] [64, 768] [1, 1] : tensor<1024x768xf32> to tensor<64x768xf32>
  %7 = aclop.matmul %hs, %i : (tensor<64x768xf32>, tensor<768x1024xf32>) -> tensor<64x1024xf32>
  %8 = aclop.matmul %j, %l {result_type = f32} : (tensor<7x33xbf16>, tensor<33x5xbf16>) -> tensor<7x5xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<64x96xi32>, tensor<2x1024x96xi32>, tensor<?x96xi32>, tensor<64x96xf32>, tensor<64x96xi32>,
         tensor<7x96xf32>, tensor<1024x1024xf32>, tensor<64x1024xf32>, tensor<7x5xf32>
}

// UKERNEL-LABEL: func @tall_product
// UKERNEL: cache_tiles = array<i64: 512, 0, 0>, ukernel = "aclcpu_ukernel_gemm_f32f32f32"
// UKERNEL: cache_tiles = array<i64: 256, 0, 0>, ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"
func.func @tall_product(%a: tensor<2048x320xf32>, %b: tensor<96x320xf32>, %x: tensor<2048x128xi8>,
                        %y: tensor<128x96xi8>) -> (tensor<2048x96xf32>, tensor<2048x96xi32>) {
  %0 = aclop.matmul %a, %b {transpose_b = true} : (tensor<2048x320xf32>, tensor<96x320xf32>) -> tensor<2048x96xf32>
  %1 = aclop.matmul %x, %y : (tensor<2048x128xi8>, tensor<128x96xi8>) -> tensor<2048x96xi32>
  return %0, %1 : tensor<2048x96xf32>, tensor<2048x96xi32>
}

// A batch of two or more matrices shares out by matrix: one of up to 512 rows is one call, a
// taller one is split as a single matrix would be. A single or dynamic batch splits its rows.
// (B transposed and past 256 deep: the ukernel; shallower, or with B (k, n), these whole
// register tiles take generated ones, @batched_register_tiles.)
// UKERNEL-LABEL: func @batched_products
// UKERNEL: cache_tiles = array<i64: 1, 128, 0, 0>, ukernel = "aclcpu_ukernel_gemm_f32f32f32"
// UKERNEL: cache_tiles = array<i64: 1, 512, 0, 0>, ukernel = "aclcpu_ukernel_gemm_f32f32f32"
// UKERNEL: cache_tiles = array<i64: 1, 64, 0, 0>, ukernel = "aclcpu_ukernel_gemm_f32f32f32"
// UKERNEL: cache_tiles = array<i64: 1, 64, 0, 0>, ukernel = "aclcpu_ukernel_gemm_f32f32f32"
func.func @batched_products(%q: tensor<12x128x320xf32>, %k: tensor<12x128x320xf32>, %p: tensor<12x512x512xf32>,
                            %v: tensor<12x64x512xf32>, %q1: tensor<1x128x320xf32>, %k1: tensor<1x128x320xf32>,
                            %qd: tensor<?x128x64xf32>, %kd: tensor<?x128x64xf32>)
    -> (tensor<12x128x128xf32>, tensor<12x512x64xf32>, tensor<1x128x128xf32>, tensor<?x128x128xf32>) {
  %0 = aclop.batch_matmul %q, %k {transpose_b = true} : (tensor<12x128x320xf32>, tensor<12x128x320xf32>) -> tensor<12x128x128xf32>
  %1 = aclop.batch_matmul %p, %v {transpose_b = true} : (tensor<12x512x512xf32>, tensor<12x64x512xf32>) -> tensor<12x512x64xf32>
  %2 = aclop.batch_matmul %q1, %k1 {transpose_b = true} : (tensor<1x128x320xf32>, tensor<1x128x320xf32>) -> tensor<1x128x128xf32>
  %3 = aclop.batch_matmul %qd, %kd {transpose_b = true} : (tensor<?x128x64xf32>, tensor<?x128x64xf32>) -> tensor<?x128x128xf32>
  return %0, %1, %2, %3 : tensor<12x128x128xf32>, tensor<12x512x64xf32>, tensor<1x128x128xf32>, tensor<?x128x128xf32>
}

// Batched plain products of whole register tiles (attention's P V, B (k, n), and its Q K^T, B
// transposed 64 deep) take generated tiles, a matrix at a time; a dynamic batch keeps the
// ukernel.
// UKERNEL-LABEL: func @batched_register_tiles
// UKERNEL: cache_tiles = array<i64: 1, 64, 128, 512>, vector_size = 16 : i64
// UKERNEL: cache_tiles = array<i64: 1, 64, 128, 512>, vector_size = 16 : i64
// UKERNEL: cache_tiles = array<i64: 1, 64, 0, 0>, ukernel = "aclcpu_ukernel_gemm_f32f32f32"
// UKERNEL: cache_tiles = array<i64: 1, 64, 128, 512>, vector_size = 16 : i64
func.func @batched_register_tiles(%p: tensor<12x128x128xf32>, %v: tensor<12x128x64xf32>, %w: tensor<1x128x64xf32>,
                                  %pd: tensor<?x128x128xf32>, %vd: tensor<?x128x64xf32>)
    -> (tensor<12x128x64xf32>, tensor<12x128x64xf32>, tensor<?x128x64xf32>, tensor<12x128x128xf32>) {
  %0 = aclop.batch_matmul %p, %v : (tensor<12x128x128xf32>, tensor<12x128x64xf32>) -> tensor<12x128x64xf32>
  %1 = aclop.batch_matmul %p, %w : (tensor<12x128x128xf32>, tensor<1x128x64xf32>) -> tensor<12x128x64xf32>
  %2 = aclop.batch_matmul %pd, %vd : (tensor<?x128x128xf32>, tensor<?x128x64xf32>) -> tensor<?x128x64xf32>
  %3 = aclop.batch_matmul %v, %v {transpose_b = true} : (tensor<12x128x64xf32>, tensor<12x128x64xf32>) -> tensor<12x128x128xf32>
  return %0, %1, %2, %3 : tensor<12x128x64xf32>, tensor<12x128x64xf32>, tensor<?x128x64xf32>, tensor<12x128x128xf32>
}

// f32 GEMMs: generated register tiles with the epilogue inside for A (m, k) and B (k, n) while B
// is small enough to sweep (512 x 640 here: past it, the ukernel), for B alone (n, k) up to 256
// deep, and for other transposes up to 256 but both with 128 rows and columns or more; past
// 256, the ukernel for any transpose.
// UKERNEL-LABEL: func @gemm_products
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 64, 128, 512>, vector_size = 16 : i64}}
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 64, 128, 512>, vector_size = 16 : i64}}
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: {{[0-9]+}}, 0, 0>, ukernel = "aclcpu_ukernel_gemm_f32f32f32"
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 64, 128, 512>, vector_size = 16 : i64}}
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: {{[0-9]+}}, 0, 0>, ukernel = "aclcpu_ukernel_gemm_f32f32f32"
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: {{[0-9]+}}, 0, 0>, ukernel = "aclcpu_ukernel_gemm_f32f32f32"
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: {{[0-9]+}}, 0, 0>, ukernel = "aclcpu_ukernel_gemm_f32f32f32"
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 64, {{[0-9]+}}, {{[0-9]+}}>, vector_size = 16 : i64}}
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: {{[0-9]+}}, 0, 0>, ukernel = "aclcpu_ukernel_gemm_f32f32f32"
func.func @gemm_products(%a: tensor<256x256xf32>, %c: tensor<256x256xf32>, %d: tensor<512x512xf32>,
                         %e: tensor<512x640xf32>, %f: tensor<640x640xf32>, %g: tensor<64x64xf32>, %s: tensor<f32>)
    -> (tensor<256x256xf32>, tensor<256x256xf32>, tensor<512x640xf32>, tensor<256x256xf32>, tensor<512x512xf32>,
        tensor<256x256xf32>, tensor<512x512xf32>, tensor<64x64xf32>, tensor<512x512xf32>) {
  %0 = aclop.gemm %a, %a, %c, %s, %s : (tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<f32>, tensor<f32>) -> tensor<256x256xf32>
  %1 = aclop.gemm %a, %a, %c, %s, %s {transpose_b = true} : (tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<f32>, tensor<f32>) -> tensor<256x256xf32>
  %2 = aclop.gemm %e, %f, %e, %s, %s : (tensor<512x640xf32>, tensor<640x640xf32>, tensor<512x640xf32>, tensor<f32>, tensor<f32>) -> tensor<512x640xf32>
  %3 = aclop.gemm %a, %a, %c, %s, %s {transpose_a = true} : (tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<f32>, tensor<f32>) -> tensor<256x256xf32>
  %4 = aclop.gemm %d, %d, %d, %s, %s {transpose_a = true} : (tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32>, tensor<f32>, tensor<f32>) -> tensor<512x512xf32>
  %5 = aclop.gemm %a, %a, %c, %s, %s {transpose_a = true, transpose_b = true} : (tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<f32>, tensor<f32>) -> tensor<256x256xf32>
  %6 = aclop.gemm %d, %d, %d, %s, %s {transpose_a = true, transpose_b = true} : (tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32>, tensor<f32>, tensor<f32>) -> tensor<512x512xf32>
  %7 = aclop.gemm %g, %g, %g, %s, %s {transpose_a = true, transpose_b = true} : (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<f32>, tensor<f32>) -> tensor<64x64xf32>
  %8 = aclop.gemm %d, %d, %d, %s, %s {transpose_b = true} : (tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32>, tensor<f32>, tensor<f32>) -> tensor<512x512xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<256x256xf32>, tensor<256x256xf32>, tensor<512x640xf32>, tensor<256x256xf32>, tensor<512x512xf32>,
         tensor<256x256xf32>, tensor<512x512xf32>, tensor<64x64xf32>, tensor<512x512xf32>
}

// Where the target multiplies bf16 pairs (vdpbf16ps), bf16 x bf16 -> f32 products take that
// ukernel whatever their shape, whole register tiles (64 x 128 x 96) included; f16 does not.
// RUN: %op-opt %s -convert-aclop-to-linalg -aclop-select-strategy='vector-bits=512 ukernels=aclcpu_ukernel_gemm_f16f16f32,aclcpu_ukernel_gemm_bf16bf16f32,aclcpu_ukernel_gemm_bf16bf16f32_dpbf16' | FileCheck %s --check-prefix=PAIRS
// Where the target has AMX's tiles, bf16, s8 and f16 products take those ukernels instead (f16
// split into two bf16), whole register tiles included.
// RUN: %op-opt %s -convert-aclop-to-linalg -aclop-select-strategy='vector-bits=512 ukernels=aclcpu_ukernel_gemm_s8s8s32_vnni,aclcpu_ukernel_gemm_s8s8s32_amx,aclcpu_ukernel_gemm_f16f16f32,aclcpu_ukernel_gemm_bf16bf16f32,aclcpu_ukernel_gemm_bf16bf16f32_dpbf16,aclcpu_ukernel_gemm_bf16bf16f32_amx,aclcpu_ukernel_gemm_f16f16f32_amx' | FileCheck %s --check-prefix=AMX
// AMX-LABEL: func @ukernel_products
// AMX: ukernel = "aclcpu_ukernel_gemm_s8s8s32_amx"
// AMX-LABEL: func @bf16_pairs
// AMX: ukernel = "aclcpu_ukernel_gemm_bf16bf16f32_amx"
// AMX: ukernel = "aclcpu_ukernel_gemm_bf16bf16f32_amx"
// AMX: ukernel = "aclcpu_ukernel_gemm_f16f16f32_amx"
// PAIRS-LABEL: func @bf16_pairs
// PAIRS: ukernel = "aclcpu_ukernel_gemm_bf16bf16f32_dpbf16"
// PAIRS: ukernel = "aclcpu_ukernel_gemm_bf16bf16f32_dpbf16"
// PAIRS-NOT: ukernel
func.func @bf16_pairs(%a: tensor<64x128xbf16>, %b: tensor<128x96xbf16>, %j: tensor<7x33xbf16>, %l: tensor<33x5xbf16>,
                      %f: tensor<64x128xf16>, %g: tensor<128x96xf16>)
    -> (tensor<64x96xf32>, tensor<7x5xf32>, tensor<64x96xf32>) {
  %0 = aclop.matmul %a, %b {result_type = f32} : (tensor<64x128xbf16>, tensor<128x96xbf16>) -> tensor<64x96xf32>
  %1 = aclop.matmul %j, %l {result_type = f32} : (tensor<7x33xbf16>, tensor<33x5xbf16>) -> tensor<7x5xf32>
  %2 = aclop.matmul %f, %g {result_type = f32} : (tensor<64x128xf16>, tensor<128x96xf16>) -> tensor<64x96xf32>
  return %0, %1, %2 : tensor<64x96xf32>, tensor<7x5xf32>, tensor<64x96xf32>
}

// f16 (widened to f32 by the ukernel) keeps generated register tiles only for whole tiles of
// at most 64 rows whose B is under 256K elements (64 x 128 x 96 above); past 64 rows (128^3) or
// with a larger B (64 x 1024 x 512) it takes the ukernel.
// PAIRS-LABEL: func @widened_products
// PAIRS: ukernel = "aclcpu_ukernel_gemm_f16f16f32"
// PAIRS: ukernel = "aclcpu_ukernel_gemm_f16f16f32"
// PAIRS-NOT: ukernel
func.func @widened_products(%a: tensor<128x128xf16>, %b: tensor<64x1024xf16>, %c: tensor<1024x512xf16>,
                            %d: tensor<64x64xf16>) -> (tensor<128x128xf32>, tensor<64x512xf32>, tensor<64x64xf32>) {
  %0 = aclop.matmul %a, %a {result_type = f32} : (tensor<128x128xf16>, tensor<128x128xf16>) -> tensor<128x128xf32>
  %1 = aclop.matmul %b, %c {result_type = f32} : (tensor<64x1024xf16>, tensor<1024x512xf16>) -> tensor<64x512xf32>
  %2 = aclop.matmul %d, %d {result_type = f32} : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf32>
  return %0, %1, %2 : tensor<128x128xf32>, tensor<64x512xf32>, tensor<64x64xf32>
}

// f32 NN GEMMs keep generated register tiles while B is under 1 MiB (448 x 448 here); from
// 1 MiB on (512 x 512) each 8-row strip's sweep of B leaves a 1 MiB L2, and the ukernel packs.
// UKERNEL-LABEL: func @gemm_b_size
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 64, 128, 512>, vector_size = 16 : i64}}
// UKERNEL: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: {{[0-9]+}}, 0, 0>, ukernel = "aclcpu_ukernel_gemm_f32f32f32"
func.func @gemm_b_size(%a: tensor<448x448xf32>, %d: tensor<512x512xf32>, %s: tensor<f32>)
    -> (tensor<448x448xf32>, tensor<512x512xf32>) {
  %0 = aclop.gemm %a, %a, %a, %s, %s : (tensor<448x448xf32>, tensor<448x448xf32>, tensor<448x448xf32>, tensor<f32>, tensor<f32>) -> tensor<448x448xf32>
  %1 = aclop.gemm %d, %d, %d, %s, %s : (tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32>, tensor<f32>, tensor<f32>) -> tensor<512x512xf32>
  return %0, %1 : tensor<448x448xf32>, tensor<512x512xf32>
}

// A low-precision f16 or f32 gemm (inputs rounded to bf16) takes the f16 or f32 pair ukernel
// whatever its shape, where the target has it; without it, no ukernel: the widening one, or f32's
// FMAs, would not round.
// RUN: %op-opt %s -convert-aclop-to-linalg -aclop-select-strategy='vector-bits=512 ukernels=aclcpu_ukernel_gemm_f16f16f32,aclcpu_ukernel_gemm_f32f32f32,aclcpu_ukernel_gemm_f16f16f32_dpbf16,aclcpu_ukernel_gemm_f32f32f32_dpbf16' | FileCheck %s --check-prefix=ROUNDED
// RUN: %op-opt %s -convert-aclop-to-linalg -aclop-select-strategy='vector-bits=512 ukernels=aclcpu_ukernel_gemm_f16f16f32,aclcpu_ukernel_gemm_f32f32f32,aclcpu_ukernel_gemm_f16f16f32_dpbf16,aclcpu_ukernel_gemm_f32f32f32_dpbf16,aclcpu_ukernel_gemm_f16f16f32_rounded_amx,aclcpu_ukernel_gemm_f32f32f32_rounded_amx' | FileCheck %s --check-prefix=ROUNDED-AMX
// ROUNDED-AMX-LABEL: func @rounded_products
// ROUNDED-AMX: ukernel = "aclcpu_ukernel_gemm_f16f16f32_rounded_amx"
// ROUNDED-AMX: ukernel = "aclcpu_ukernel_gemm_f16f16f32_rounded_amx"
// ROUNDED-AMX: ukernel = "aclcpu_ukernel_gemm_f32f32f32_rounded_amx"
// ROUNDED-AMX-NOT: ukernel
// ROUNDED-AMX-LABEL: func @avx2_tiles
// ROUNDED-LABEL: func @rounded_products
// ROUNDED: ukernel = "aclcpu_ukernel_gemm_f16f16f32_dpbf16"
// ROUNDED: ukernel = "aclcpu_ukernel_gemm_f16f16f32_dpbf16"
// ROUNDED: ukernel = "aclcpu_ukernel_gemm_f32f32f32_dpbf16"
// ROUNDED-NOT: ukernel
// RUN: %op-opt %s -convert-aclop-to-linalg -aclop-select-strategy='vector-bits=512 ukernels=aclcpu_ukernel_gemm_f16f16f32,aclcpu_ukernel_gemm_f32f32f32' | FileCheck %s --check-prefix=NOPAIRS
// NOPAIRS-LABEL: func @rounded_products
// NOPAIRS-NOT: ukernel
func.func @rounded_products(%a: tensor<256x256xf16>, %b: tensor<7x33xf16>, %l: tensor<33x5xf16>,
                            %c: tensor<256x256xf32>, %d: tensor<7x5xf32>, %s: tensor<f32>, %x: tensor<512x512xf32>,
                            %z: tensor<512x512xf32>)
    -> (tensor<256x256xf32>, tensor<7x5xf32>, tensor<512x512xf32>) {
  %0 = aclop.gemm %a, %a, %c, %s, %s {low_precision = true} : (tensor<256x256xf16>, tensor<256x256xf16>, tensor<256x256xf32>, tensor<f32>, tensor<f32>) -> tensor<256x256xf32>
  %1 = aclop.gemm %b, %l, %d, %s, %s {low_precision = true, transpose_a = false} : (tensor<7x33xf16>, tensor<33x5xf16>, tensor<7x5xf32>, tensor<f32>, tensor<f32>) -> tensor<7x5xf32>
  %2 = aclop.gemm %x, %x, %z, %s, %s {low_precision = true} : (tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32>, tensor<f32>, tensor<f32>) -> tensor<512x512xf32>
  return %0, %1, %2 : tensor<256x256xf32>, tensor<7x5xf32>, tensor<512x512xf32>
}

// Where the target has the AVX2 tiles (the `_avx2` ukernels, x86 without AVX-512), they take
// every exact float product, the whole register tiles that keep generated code on AVX-512
// included (64 x 128 x 96, 448^3 gemm), s8 products in place of VNNI's, and a low-precision
// gemm the tiles that round as they read (`_rounded_avx2`), in place of the bf16 pairs'.
// RUN: %op-opt %s -convert-aclop-to-linalg -aclop-select-strategy='vector-bits=256 ukernels=aclcpu_ukernel_gemm_s8s8s32_avx2,aclcpu_ukernel_gemm_f32f32f32_avx2,aclcpu_ukernel_gemm_f16f16f32_avx2,aclcpu_ukernel_gemm_bf16bf16f32_avx2,aclcpu_ukernel_gemm_f16f16f32_rounded_avx2,aclcpu_ukernel_gemm_f32f32f32_rounded_avx2' | FileCheck %s --check-prefix=AVX2TILES
// AVX2TILES-LABEL: func @avx2_tiles
// CHECK-LABEL: func @avx2_tiles
// UKERNEL-LABEL: func @avx2_tiles
// PAIRS-LABEL: func @avx2_tiles
// ROUNDED-LABEL: func @avx2_tiles
// NOPAIRS-LABEL: func @avx2_tiles
// AVX2TILES: ukernel = "aclcpu_ukernel_gemm_f32f32f32_avx2"
// AVX2TILES: ukernel = "aclcpu_ukernel_gemm_f16f16f32_avx2"
// AVX2TILES: ukernel = "aclcpu_ukernel_gemm_bf16bf16f32_avx2"
// AVX2TILES: ukernel = "aclcpu_ukernel_gemm_f32f32f32_avx2"
// AVX2TILES: ukernel = "aclcpu_ukernel_gemm_f16f16f32_rounded_avx2"
// AVX2TILES: ukernel = "aclcpu_ukernel_gemm_s8s8s32_avx2"
// AVX2TILES-NOT: ukernel
func.func @avx2_tiles(%a: tensor<64x128xf32>, %b: tensor<128x96xf32>, %f: tensor<64x128xf16>, %g: tensor<128x96xf16>,
                      %h: tensor<64x128xbf16>, %i: tensor<128x96xbf16>, %x: tensor<448x448xf32>, %s: tensor<f32>,
                      %l: tensor<7x33xf16>, %m: tensor<33x5xf16>, %d: tensor<7x5xf32>, %p: tensor<64x128xi8>,
                      %q: tensor<128x96xi8>)
    -> (tensor<64x96xf32>, tensor<64x96xf32>, tensor<64x96xf32>, tensor<448x448xf32>, tensor<7x5xf32>,
        tensor<64x96xi32>) {
  %0 = aclop.matmul %a, %b : (tensor<64x128xf32>, tensor<128x96xf32>) -> tensor<64x96xf32>
  %1 = aclop.matmul %f, %g {result_type = f32} : (tensor<64x128xf16>, tensor<128x96xf16>) -> tensor<64x96xf32>
  %2 = aclop.matmul %h, %i {result_type = f32} : (tensor<64x128xbf16>, tensor<128x96xbf16>) -> tensor<64x96xf32>
  %3 = aclop.gemm %x, %x, %x, %s, %s : (tensor<448x448xf32>, tensor<448x448xf32>, tensor<448x448xf32>, tensor<f32>, tensor<f32>) -> tensor<448x448xf32>
  %4 = aclop.gemm %l, %m, %d, %s, %s {low_precision = true} : (tensor<7x33xf16>, tensor<33x5xf16>, tensor<7x5xf32>, tensor<f32>, tensor<f32>) -> tensor<7x5xf32>
  %5 = aclop.matmul %p, %q : (tensor<64x128xi8>, tensor<128x96xi8>) -> tensor<64x96xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<64x96xf32>, tensor<64x96xf32>, tensor<64x96xf32>, tensor<448x448xf32>,
                                  tensor<7x5xf32>, tensor<64x96xi32>
}

// A generic that gathers along an innermost dim shorter than a vector runs it scalar (a gather
// per tile costs more): a padded NCHW convolution's patches, 3 window columns innermost, read
// masked. Unpadded, each patch row is a contiguous run of 3: one vector of 3. An NHWC one's, 16
// channels innermost, gets vectors; so does a grouped NHWC convolution's group of 4 out
// channels, whose input reads are broadcasts (one input channel for the group) and whose filter
// reads are contiguous. A static innermost dim shorter than a vector takes a vector of its length.
// CHECK-LABEL: func @short_gathers
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x25x8x3x3xf32>) attrs = {aclop.strategy = {tile_sizes = array<i64: 1, 1, 1, 1, 1>, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x9x8x3x3xf32>) attrs = {aclop.strategy = {tile_sizes = array<i64: 1, 1, 1, 1, 3>, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x25x3x3x16xf32>) attrs = {aclop.strategy = {tile_sizes = array<i64: 1, 1, 1, 1, 16>, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x3x3x2x4xf32>) attrs = {aclop.strategy = {tile_sizes = array<i64: 1, 1, 1, 1, 4>, vector_size = 16 : i64}}
// AVX2-LABEL: func @short_gathers
// AVX2: tile_sizes = array<i64: 1, 1, 1, 1, 1>, vector_size = 8
// AVX2: tile_sizes = array<i64: 1, 1, 1, 1, 3>, vector_size = 8
// AVX2: tile_sizes = array<i64: 1, 1, 1, 1, 8>, vector_size = 8
// AVX2: tile_sizes = array<i64: 1, 1, 1, 1, 4>, vector_size = 8
// UKERNEL-LABEL: func @short_gathers
// PAIRS-LABEL: func @short_gathers
// ROUNDED-LABEL: func @short_gathers
// NOPAIRS-LABEL: func @short_gathers
// AVX2TILES-LABEL: func @short_gathers
func.func @short_gathers(%x: tensor<1x8x3x3xf32>, %w: tensor<12x8x3x3xf32>, %y: tensor<1x7x7x16xf32>, %v: tensor<3x3x16x4xf32>,
                         %z: tensor<1x5x5x4xf32>, %u: tensor<3x3x2x8xf32>, %t: tensor<1x8x5x5xf32>)
    -> (tensor<1x12x5x5xf32>, tensor<1x12x3x3xf32>, tensor<1x5x5x4xf32>, tensor<1x5x5x8xf32>) {
  %0 = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 2, 2, 2, 2>}
      : (tensor<1x8x3x3xf32>, tensor<12x8x3x3xf32>) -> tensor<1x12x5x5xf32>
  %1 = aclop.conv2d %t, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x5x5xf32>, tensor<12x8x3x3xf32>) -> tensor<1x12x3x3xf32>
  %2 = aclop.conv2d %y, %v {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, data_format = "NHWC", filter_format = "HWCN"}
      : (tensor<1x7x7x16xf32>, tensor<3x3x16x4xf32>) -> tensor<1x5x5x4xf32>
  %3 = aclop.conv2d %z, %u {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, groups = 2 : i64, data_format = "NHWC", filter_format = "HWCN"}
      : (tensor<1x5x5x4xf32>, tensor<3x3x2x8xf32>) -> tensor<1x5x5x8xf32>
  return %0, %1, %2, %3 : tensor<1x12x5x5xf32>, tensor<1x12x3x3xf32>, tensor<1x5x5x4xf32>, tensor<1x5x5x8xf32>
}
