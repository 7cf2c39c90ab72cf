// Element-wise ops become an scf.forall of tiles, each one masked vector read-compute-write.
// RUN: %op-opt %s -convert-aclop-to-linalg -aclop-select-strategy=vector-bits=512 -aclop-tile-and-vectorize | FileCheck %s
// RUN: %op-opt %s -convert-aclop-to-linalg -aclop-select-strategy=vector-bits=512 -aclop-tile-and-vectorize -canonicalize | FileCheck %s --check-prefix=RAGGED
// RUN: %op-opt %s -convert-aclop-to-linalg -canonicalize -cse -aclop-select-strategy=vector-bits=512 -aclop-tile-and-vectorize | FileCheck %s --check-prefix=EDGES

// CHECK-LABEL: func @exp_dynamic
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (4, %{{.*}}) step (1, 16)
// CHECK:   %[[SIZE:.*]] = affine.min
// CHECK:   %[[MASK2D:.*]] = vector.create_mask %{{.*}}, %[[SIZE]] : vector<1x16xi1>
// Leading unit dims are cast away: the tile computes on 1-D vectors.
// CHECK:   %[[MASK:.*]] = vector.extract %[[MASK2D]][0] : vector<16xi1> from vector<1x16xi1>
// CHECK:   %[[IN:.*]] = vector.transfer_read {{.*}}, %[[MASK]] {{.*}} : tensor<1x?xf32>, vector<16xf32>
// exp is scaled around (expOf): for arguments below -87 its result is subnormal.
// CHECK:   arith.cmpf olt, %[[IN]], %{{.*}} : vector<16xf32>
// CHECK:   math.exp %{{.*}} : vector<16xf32>
// CHECK:   %[[EXP:.*]] = arith.mulf %{{.*}} : vector<16xf32>
// CHECK:   vector.transfer_write %[[EXP]], {{.*}} : vector<16xf32>, tensor<1x?xf32>
// CHECK:   tensor.parallel_insert_slice
// CHECK-NOT: linalg.generic
func.func @exp_dynamic(%a: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %r = aclop.exp %a : (tensor<4x?xf32>) -> tensor<4x?xf32>
  return %r : tensor<4x?xf32>
}

// A transpose runs in 64 x 64 blocks (the forall), each a sequence of 16 x 16 tiles: a tile reads
// 16 contiguous rows of the input as one transposing read, and writes 16 rows of the output.
// CHECK-LABEL: func @transpose_blocks
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (192, 128) step (64, 64)
// CHECK:   %[[IN:.*]] = tensor.extract_slice %arg0[%[[J]], %[[I]]] [64, 64] [1, 1]
// CHECK:   scf.for %[[TI:.*]] = %{{.*}} to %{{.*}} step %{{.*}}
// CHECK:     scf.for %[[TJ:.*]] = %{{.*}} to %{{.*}} step %{{.*}}
// CHECK:       %[[TILE:.*]] = tensor.extract_slice %[[IN]][%[[TJ]], %[[TI]]] [16, 16] [1, 1]
// CHECK:       %[[V:.*]] = vector.transfer_read %[[TILE]]{{.*}} {in_bounds = [true, true], permutation_map = #{{.*}}} : tensor<16x16xf32>, vector<16x16xf32>
// CHECK:       vector.transfer_write %[[V]], %{{.*}} {in_bounds = [true, true]} : vector<16x16xf32>, tensor<16x16xf32>
func.func @transpose_blocks(%a: tensor<128x192xf32>) -> tensor<192x128xf32> {
  %0 = aclop.transpose %a {perm = array<i64: 1, 0>} : (tensor<128x192xf32>) -> tensor<192x128xf32>
  return %0 : tensor<192x128xf32>
}

// Ops without tile sizes are left alone (a reduction along rows of a length known only at run time).
// CHECK-LABEL: func @reduction_untouched
// CHECK-NOT: scf.forall
// CHECK: linalg.generic
func.func @reduction_untouched(%a: tensor<4x?xf32>) -> tensor<4xf32> {
  %r = aclop.reduce_max %a {axes = array<i64: 1>} : (tensor<4x?xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A reduction along short rows: the 7x7 plane becomes a row of 49 (a view), the kept dims are
// tiled by one with the accumulator's fill fused in, and each row is one unmasked vector reduced
// across lanes, `reassoc` kept from the combiner (LLVM otherwise adds the lanes in order). f16
// rows are widened as read; a maximum keeps maximumf (a NaN wins).
// CHECK-LABEL: func @short_rows
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<2x16x7x7xf32> into tensor<2x16x49xf32>
// CHECK: scf.forall (%[[N:.*]], %[[C:.*]]) in (2, 16)
// CHECK-NOT: linalg.fill
// CHECK:   %[[ROW:.*]] = tensor.extract_slice %[[ROWS]][%[[N]], %[[C]], 0] [1, 1, 49] [1, 1, 1]
// CHECK:   %[[X:.*]] = vector.transfer_read %[[ROW]]{{.*}} {in_bounds = [true]} : tensor<1x1x49xf32>, vector<49xf32>
// CHECK:   vector.reduction <add>, %[[X]], %{{.*}} fastmath<reassoc,contract> : vector<49xf32> into f32
// CHECK: arith.divf {{.*}} : vector<16xf32>
// CHECK: scf.forall (%{{.*}}) in (6)
// CHECK:   %[[H:.*]] = vector.transfer_read {{.*}} : tensor<1x40xf16>, vector<40xf16>
// CHECK:   %[[W:.*]] = arith.extf %[[H]] : vector<40xf16> to vector<40xf32>
// CHECK:   vector.reduction <maximumf>, %[[W]], %{{.*}} : vector<40xf32> into f32
// CHECK-NOT: linalg.generic
func.func @short_rows(%a: tensor<2x16x7x7xf32>, %b: tensor<6x40xf16>) -> (tensor<2x16x1x1xf32>, tensor<6xf16>) {
  %m = aclop.reduce_mean %a {axes = array<i64: 2, 3>, keep_dims = true} : (tensor<2x16x7x7xf32>) -> tensor<2x16x1x1xf32>
  %x = aclop.reduce_max %b {axes = array<i64: 1>} : (tensor<6x40xf16>) -> tensor<6xf16>
  return %m, %x : tensor<2x16x1x1xf32>, tensor<6xf16>
}

// A reduction whose innermost dim is kept streams the input's rows in order: scf.for loops over
// the reduced dims. A row of 1, 2, 4 or 8 vectors is one tile (64 f32), its accumulators read before
// the loops and written after them, carried between (in registers). A longer row (200) is a loop
// over vectors, marked for aclop-prefetch-streamed-rows and peeled (192 columns in whole
// vectors, then one unmasked vector of 8), each vector combined into its part of the
// accumulator row. f16 is widened as read; a row of a length known at launch ends in a masked
// vector. Kept dims before the reduced ones (NHWC's images) become an scf.forall, what blocks
// divide, each image's row of 64 channels carried through both row loops.
// CHECK-LABEL: func @streamed_rows
// CHECK: %[[ACC:.*]] = vector.transfer_read %{{.*}}[%c0], %{{.*}} {in_bounds = [true]} : tensor<64xf32>, vector<64xf32>
// CHECK: %[[ROWS:.*]]:2 = scf.for %{{.*}} = %c0 to %c37 step %c1 iter_args(%{{.*}} = %{{.*}}, %[[A:.*]] = %[[ACC]])
// CHECK:   %[[X:.*]] = vector.transfer_read {{.*}} : tensor<64xf32>, vector<64xf32>
// CHECK:   %[[SUM:.*]] = arith.addf %[[A]], %[[X]] fastmath<reassoc,contract> : vector<64xf32>
// CHECK:   scf.yield %{{.*}}, %[[SUM]]
// CHECK: } {aclop.streamed_rows}
// CHECK: vector.transfer_write %[[ROWS]]#1
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK:   scf.for %{{.*}} = %c0 to %c192 step %c16
// CHECK:     %[[Y:.*]] = vector.transfer_read {{.*}} : tensor<16xf32>, vector<16xf32>
// CHECK:     %[[B:.*]] = vector.transfer_read {{.*}} : tensor<16xf32>, vector<16xf32>
// CHECK:     %[[PART:.*]] = arith.addf %[[B]], %[[Y]] fastmath<reassoc,contract> : vector<16xf32>
// CHECK:     vector.transfer_write %[[PART]]
// CHECK:   } {aclop.streamed_rows}
// CHECK:   vector.transfer_read {{.*}} : tensor<8xf32>, vector<8xf32>
// CHECK:   arith.addf {{.*}} : vector<8xf32>
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:     %[[H:.*]] = vector.transfer_read {{.*}} : tensor<16xf16>, vector<16xf16>
// CHECK:     %[[W:.*]] = arith.extf %[[H]] : vector<16xf16> to vector<16xf32>
// CHECK:     arith.maximumf %{{.*}}, %[[W]] : vector<16xf32>
// CHECK:   } {aclop.streamed_rows}
// CHECK:   %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<16xi1>
// CHECK:   vector.transfer_read {{.*}}, %[[MASK]] {in_bounds = [true]} : tensor<?xf16>, vector<16xf16>
// CHECK:   arith.maximumf {{.*}} : vector<16xf32>
// CHECK:   vector.transfer_write {{.*}}, %[[MASK]] {in_bounds = [true]} : vector<16xf32>, tensor<?xf32>
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK:   vector.transfer_read {{.*}} : tensor<64xf32>, vector<64xf32>
// CHECK:   scf.for %{{.*}} = %c0 to %c7
// CHECK:     scf.for %{{.*}} = %c0 to %c7
// CHECK:       vector.transfer_read {{.*}} : tensor<64xf32>, vector<64xf32>
// CHECK:       arith.addf {{.*}} : vector<64xf32>
// CHECK:     } {aclop.streamed_rows}
// CHECK:   vector.transfer_write {{.*}} : vector<64xf32>, tensor<64xf32>
// CHECK-NOT: linalg.generic
func.func @streamed_rows(%a: tensor<37x64xf32>, %l: tensor<4x200xf32>, %d: tensor<?x?xf16>,
                         %n: tensor<2x7x7x64xf32>) -> (tensor<64xf32>, tensor<200xf32>, tensor<?xf16>, tensor<2x64xf32>) {
  %0 = aclop.reduce_sum %a {axes = array<i64: 0>} : (tensor<37x64xf32>) -> tensor<64xf32>
  %1 = aclop.reduce_sum %l {axes = array<i64: 0>} : (tensor<4x200xf32>) -> tensor<200xf32>
  %2 = aclop.reduce_max %d {axes = array<i64: 0>} : (tensor<?x?xf16>) -> tensor<?xf16>
  %3 = aclop.reduce_sum %n {axes = array<i64: 1, 2>} : (tensor<2x7x7x64xf32>) -> tensor<2x64xf32>
  return %0, %1, %2, %3 : tensor<64xf32>, tensor<200xf32>, tensor<?xf16>, tensor<2x64xf32>
}

// A reduction of one row (row_partials): an scf.for over whole tiles of 64 carries four vectors
// of partial results; the rest of the row, static or dynamic, is one tile masked within 64 lanes
// (its reads and writes of the partial results too); the lanes are then combined by halves.
// A NaN-skipping maximum (a softmax's shift) starts at -inf, not NaN, and takes an element where
// it is greater: a compare and a select, never NaN itself.
// CHECK-LABEL: func @row_partials
// CHECK-DAG: %[[NEG_INF:.*]] = arith.constant dense<0xFF800000> : vector<64xf32>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<64xf32>
// CHECK: scf.forall (%[[ROW:.*]]) in (2)
// CHECK:   %[[START:.*]] = vector.transfer_write %[[NEG_INF]], {{.*}} : vector<64xf32>, tensor<1x64xf32>
// CHECK:   %[[MAX:.*]] = scf.for %{{.*}} = %c0 to %c384 step %c64 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<64xf32>)
// CHECK:     %[[X:.*]] = vector.transfer_read {{.*}} : tensor<64xf32>, vector<64xf32>
// CHECK:     %[[GREATER:.*]] = arith.cmpf ogt, %[[X]], %[[ACC]] : vector<64xf32>
// CHECK:     %[[KEPT:.*]] = arith.select %[[GREATER]], %[[X]], %[[ACC]] : vector<64xi1>, vector<64xf32>
// CHECK:     scf.yield %[[KEPT]] : vector<64xf32>
// CHECK:   %[[LAST:.*]] = vector.create_mask %c16 : vector<64xi1>
// CHECK:   vector.transfer_read {{.*}}, %[[LAST]] {in_bounds = [true]} : tensor<16xf32>, vector<64xf32>
// CHECK:   vector.transfer_write {{.*}}, %[[LAST]] {in_bounds = [true]} : vector<64xf32>, tensor<16xf32>
// CHECK:   %[[LANES:.*]] = vector.transfer_read {{.*}} : tensor<1x64xf32>, vector<64xf32>
// CHECK:   %[[LOW:.*]] = vector.extract_strided_slice %[[LANES]] {offsets = [0], sizes = [32], strides = [1]}
// CHECK:   %[[HIGH:.*]] = vector.extract_strided_slice %[[LANES]] {offsets = [32], sizes = [32], strides = [1]}
// CHECK:   arith.maxnumf %[[LOW]], %[[HIGH]] : vector<32xf32>
// CHECK-COUNT-5: arith.maxnumf {{.*}} : vector<{{16|8|4|2|1}}xf32>
// CHECK:   arith.maxnumf {{.*}} : f32
// The sum of exponentials, kept in the output row, with `reassoc` kept.
// CHECK:   vector.transfer_write %[[ZERO]], {{.*}} : vector<64xf32>, tensor<1x64xf32>
// CHECK:   scf.for %{{.*}} = %c0 to %c384 step %c64 iter_args({{.*}}) -> ({{.*}}vector<64xf32>)
// CHECK:     arith.addf %{{.*}}, %{{.*}} fastmath<reassoc,contract> : vector<64xf32>
// CHECK:   arith.addf {{.*}} fastmath<reassoc,contract> : vector<32xf32>
// An f16 row of a length known at run time: whole tiles widened as read, the rest masked.
// CHECK: scf.forall (%{{.*}}) in (3)
// CHECK:   scf.for %{{.*}} = %c0 to %[[WHOLE:.*]] step %c64 iter_args(%[[ACC16:.*]] = %{{.*}}) -> (vector<64xf32>)
// CHECK:     %[[H:.*]] = vector.transfer_read {{.*}} : tensor<64xf16>, vector<64xf16>
// CHECK:     %[[W:.*]] = arith.extf %[[H]] : vector<64xf16> to vector<64xf32>
// CHECK:     arith.cmpf ogt, %[[W]], %[[ACC16]] : vector<64xf32>
// CHECK:   scf.for %{{.*}} = %[[WHOLE]] to %{{.*}} step %c64 iter_args(%{{.*}}) -> (tensor<1x64xf32>)
// CHECK:     %[[REST:.*]] = vector.create_mask %{{.*}} : vector<64xi1>
// CHECK:     vector.transfer_read {{.*}}, %[[REST]] {in_bounds = [true]} : tensor<?xf16>, vector<64xf16>
// CHECK:     vector.transfer_write {{.*}}, %[[REST]] {in_bounds = [true]} : vector<64xf32>, tensor<?xf32>
func.func @row_partials(%a: tensor<2x400xf32>, %d: tensor<3x?xf16>) -> (tensor<2x400xf32>, tensor<3x?xf16>) {
  %0 = aclop.softmax %a {axes = array<i64: 1>} : (tensor<2x400xf32>) -> tensor<2x400xf32>
  %1 = aclop.log_softmax %d {axes = array<i64: 1>} : (tensor<3x?xf16>) -> tensor<3x?xf16>
  return %0, %1 : tensor<2x400xf32>, tensor<3x?xf16>
}

// Positions along a row (ArgMax's first position of its maximum): each tile's linalg.index is
// offset by the loop's position (MLIR's partial-reduction tiling counts it from the tile's start),
// the remainder's by its start.
// CHECK-LABEL: func @row_positions
// CHECK-DAG: %[[REST_START:.*]] = arith.constant dense<192> : vector<32xindex>
// CHECK: scf.for %[[AT:.*]] = %c0 to %c192 step %c32 iter_args({{.*}}) -> ({{.*}}vector<32xi64>)
// CHECK:   %[[STEP:.*]] = vector.step : vector<32xindex>
// CHECK:   %[[BASE:.*]] = vector.broadcast %[[AT]] : index to vector<32xindex>
// CHECK:   arith.addi %[[BASE]], %[[STEP]] : vector<32xindex>
// CHECK:   arith.minsi {{.*}} : vector<32xi64>
// CHECK: %[[REST:.*]] = vector.step : vector<32xindex>
// CHECK: arith.addi %[[REST]], %[[REST_START]] : vector<32xindex>
func.func @row_positions(%m: tensor<2x200xf32>) -> tensor<2xi64> {
  %0 = aclop.arg_max %m {axis = 1} : (tensor<2x200xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// Products: row tiles in an scf.forall (what blocks divide), then column tiles, then depth tiles
// in scf.for loops (the panel of b is reused by 64 rows). f32 cache tiles are then tiled into
// 8x32 register tiles (rows, columns, then k one step at a time); the row and column loops are
// peeled: full tiles become vector code, the ragged remainders stay generics.
// CHECK-LABEL: func @matmul_cache_tiles
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK: scf.forall (%{{.*}}) = (0) to (%{{.*}}) step (64) shared_outs(%{{.*}} = %[[INIT]])
// CHECK:   scf.for %{{.*}} = %c0 to %c1000 step %c512
// CHECK:     scf.for %{{.*}} = %c0 to %c300 step %c128
// CHECK:       scf.for %{{.*}} = %c0 to %{{.*}} step %c8
// CHECK:         scf.for %{{.*}} = %c0 to %{{.*}} step %c32
// CHECK:           scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// CHECK:             vector.transfer_read {{.*}} : tensor<8x1xf32>, vector<8x1x32xf32>
// CHECK:             vector.transfer_read {{.*}} : tensor<1x32xf32>, vector<8x1x32xf32>
// CHECK:             vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x32xf32>
// CHECK:             arith.mulf {{.*}} : vector<8x1x32xf32>
// CHECK:             vector.multi_reduction <add>, {{.*}} [1] : vector<8x1x32xf32> to vector<8x32xf32>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c32
// CHECK:           linalg.generic
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c8
// CHECK:         linalg.generic
func.func @matmul_cache_tiles(%a: tensor<?x300xf32>, %b: tensor<300x1000xf32>) -> tensor<?x1000xf32> {
  %r = aclop.matmul %a, %b : (tensor<?x300xf32>, tensor<300x1000xf32>) -> tensor<?x1000xf32>
  return %r : tensor<?x1000xf32>
}

// f16 products accumulate in f32: each cache tile widens its panels of a and b to f32 once
// (rows of 16 converted elements), and the register tiles then read plain f32.
// CHECK-LABEL: func @matmul_f16_register_tiles
// CHECK: scf.forall
// CHECK:   bufferization.alloc_tensor({{.*}}) : tensor<64x?xf32>
// CHECK:   arith.extf {{.*}} : vector<16xf16> to vector<16xf32>
// CHECK:   bufferization.alloc_tensor({{.*}}) : tensor<?x?xf32>
// CHECK:   arith.extf {{.*}} : vector<16xf16> to vector<16xf32>
// CHECK:   vector.transfer_read {{.*}} : tensor<8x1xf32>, vector<8x1x32xf32>
// CHECK-NOT: arith.extf
// CHECK:   vector.multi_reduction <add>, {{.*}} : vector<8x1x32xf32> to vector<8x32xf32>
func.func @matmul_f16_register_tiles(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %r = aclop.matmul %a, %b : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf16>
  return %r : tensor<64x64xf16>
}

// i8 products accumulate in i32: their register tiles sign-extend each operand as it is loaded.
// CHECK-LABEL: func @matmul_i8_register_tiles
// CHECK: scf.forall
// CHECK:   vector.transfer_read {{.*}} : tensor<8x1xi8>, vector<8x1x32xi8>
// CHECK:   arith.extsi {{.*}} : vector<8x1x32xi8> to vector<8x1x32xi32>
// CHECK:   arith.muli {{.*}} : vector<8x1x32xi32>
// CHECK:   vector.multi_reduction <add>, {{.*}} : vector<8x1x32xi32> to vector<8x32xi32>
func.func @matmul_i8_register_tiles(%a: tensor<64x64xi8>, %b: tensor<64x64xi8>) -> tensor<64x64xi32> {
  %r = aclop.matmul %a, %b : (tensor<64x64xi8>, tensor<64x64xi8>) -> tensor<64x64xi32>
  return %r : tensor<64x64xi32>
}

// With b transposed (k contiguous), each cache tile first transposes its panel of b into a
// (k, n) buffer with 16x16 vector transposes; the register tiles then read rows of it.
// CHECK-LABEL: func @matmul_transposed_b
// CHECK: scf.forall
// CHECK:   %[[PANEL:.*]] = bufferization.alloc_tensor(%{{.*}}, %{{.*}}) : tensor<?x?xf32>
// CHECK:   vector.transfer_read {{.*}} : tensor<?x?xf32>, vector<16x16xf32>
// CHECK:   vector.transfer_write {{.*}} : vector<16x16xf32>, tensor<?x?xf32>
// CHECK:   vector.transfer_read {{.*}} : tensor<1x32xf32>, vector<8x1x32xf32>
func.func @matmul_transposed_b(%a: tensor<100x70xf32>, %b: tensor<130x70xf32>) -> tensor<100x130xf32> {
  %r = aclop.matmul %a, %b {transpose_b = true} : (tensor<100x70xf32>, tensor<130x70xf32>) -> tensor<100x130xf32>
  return %r : tensor<100x130xf32>
}

// Rows and columns past the last whole 8x32 register tile are split off as plain generics (a
// 2-row and an 8-column remainder here), so a ragged edge is one loop nest, not tiny tiles.
// RAGGED-LABEL: func @matmul_ragged_edges
// RAGGED: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args(%{{.*}}) -> (tensor<8x32xf32>)
// RAGGED:   arith.mulf {{.*}} : vector<8x1x32xf32>
// RAGGED: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x8xf32>)
// RAGGED: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x16xf32>, tensor<16x40xf32>)
func.func @matmul_ragged_edges(%a: tensor<10x16xf32>, %b: tensor<16x40xf32>) -> tensor<10x40xf32> {
  %r = aclop.matmul %a, %b : (tensor<10x16xf32>, tensor<16x40xf32>) -> tensor<10x40xf32>
  return %r : tensor<10x40xf32>
}

// A ukernel product with GEMM's epilogue: the epilogue is tiled by the product's row tiles (four
// of 250 rows, which two blocks share evenly, rather than 256, 256, 256 and 232) and
// the fill and the product are fused into each tile, on an accumulator of its own
// (alloc_tensor: never merged with the result, which may be C). The epilogue stays whole for
// aclop-call-ukernels to fold into the call.
// RUN: %op-opt %s -convert-aclop-to-linalg "-aclop-select-strategy=vector-bits=512 ukernels=aclcpu_ukernel_gemm_s8s8s32_vnni" -aclop-tile-and-vectorize | FileCheck %s --check-prefix=UKERNEL
// UKERNEL-LABEL: func @gemm_fused_epilogue
// UKERNEL: scf.forall (%[[ROW:.*]]) = (0) to (1000) step (250)
// UKERNEL:   %[[ACC:.*]] = bufferization.alloc_tensor() : tensor<250x70xi32>
// UKERNEL:   %[[ZERO:.*]] = linalg.fill {{.*}} outs(%[[ACC]] : tensor<250x70xi32>)
// UKERNEL:   %[[PRODUCT:.*]] = linalg.generic {{.*}} outs(%[[ZERO]] : tensor<250x70xi32>) {{.*}}ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"
// UKERNEL:   linalg.generic {{.*}} ins(%[[PRODUCT]], {{.*}} : tensor<250x70xi32>, tensor<250x70xi32>, tensor<i32>, tensor<i32>)
// UKERNEL:   tensor.parallel_insert_slice
// UKERNEL-NOT: vector.transfer_read
func.func @gemm_fused_epilogue(%a: tensor<1000x300xi8>, %b: tensor<300x70xi8>, %c: tensor<1000x70xi32>,
                               %alpha: tensor<i32>, %beta: tensor<i32>) -> tensor<1000x70xi32> {
  %r = aclop.gemm %a, %b, %c, %alpha, %beta : (tensor<1000x300xi8>, tensor<300x70xi8>, tensor<1000x70xi32>, tensor<i32>, tensor<i32>) -> tensor<1000x70xi32>
  return %r : tensor<1000x70xi32>
}

// In a kernel function whose work is only that GEMM, one row tile per block: the forall runs
// over the block count (the last argument), each tile ceil(M / blocks) rows, and the function
// asks for one block per worker.
// UKERNEL-LABEL: func @compute
// UKERNEL-SAME: aclop.blocks_per_worker = 1 : i64
// UKERNEL: scf.forall (%[[TILE:.*]]) in (%arg7)
// UKERNEL:   affine.min #{{.*}}(%[[TILE]])[%arg7]
// UKERNEL:   linalg.fill
// UKERNEL:   ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"
func.func @compute(%a: memref<1000x300xi8>, %b: memref<300x70xi8>, %c: memref<1000x70xi32>, %alpha: memref<i32>,
                   %beta: memref<i32>, %out: memref<1000x70xi32>, %block: index, %blocks: index)
    attributes {aclop.kernel = "gemm"} {
  %x = bufferization.to_tensor %a restrict : memref<1000x300xi8> to tensor<1000x300xi8>
  %y = bufferization.to_tensor %b restrict : memref<300x70xi8> to tensor<300x70xi8>
  %z = bufferization.to_tensor %c restrict : memref<1000x70xi32> to tensor<1000x70xi32>
  %p = bufferization.to_tensor %alpha restrict : memref<i32> to tensor<i32>
  %q = bufferization.to_tensor %beta restrict : memref<i32> to tensor<i32>
  %r = aclop.gemm %x, %y, %z, %p, %q : (tensor<1000x300xi8>, tensor<300x70xi8>, tensor<1000x70xi32>, tensor<i32>, tensor<i32>) -> tensor<1000x70xi32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1000x70xi32>, memref<1000x70xi32>) -> ()
  return
}

// A ukernel product without GEMM's epilogue (MatMul) in such a function: its accumulator's
// fill is fused into the row tile (aclop-call-ukernels folds it into the call), one tile per
// block.
// UKERNEL-LABEL: func @compute_matmul
// UKERNEL-SAME: aclop.blocks_per_worker = 1 : i64
// UKERNEL-NOT: linalg.fill
// UKERNEL: scf.forall (%[[TILE:.*]]) in (%arg4)
// UKERNEL:   affine.min #{{.*}}(%[[TILE]])[%arg4]
// UKERNEL:   linalg.fill
// UKERNEL:   ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"
func.func @compute_matmul(%a: memref<1000x300xi8>, %b: memref<300x70xi8>, %out: memref<1000x70xi32>, %block: index,
                          %blocks: index) attributes {aclop.kernel = "mm"} {
  %x = bufferization.to_tensor %a restrict : memref<1000x300xi8> to tensor<1000x300xi8>
  %y = bufferization.to_tensor %b restrict : memref<300x70xi8> to tensor<300x70xi8>
  %r = aclop.matmul %x, %y : (tensor<1000x300xi8>, tensor<300x70xi8>) -> tensor<1000x70xi32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1000x70xi32>, memref<1000x70xi32>) -> ()
  return
}

// BatchMatMul's fill is fused into its tiles too, a matrix a tile: each call writes its
// matrix without reading it (no fill of the whole output first).
// UKERNEL-LABEL: func @compute_batch_matmul
// UKERNEL-NOT: linalg.fill
// UKERNEL: scf.forall (%[[MATRIX:.*]], %[[ROW:.*]]) = (0, 0) to (6, 96) step (1, 96)
// UKERNEL:   %[[OUT:.*]] = tensor.extract_slice %{{.*}}[%[[MATRIX]], %[[ROW]], 0] [1, 96, 40] [1, 1, 1]
// UKERNEL:   %[[ZERO:.*]] = linalg.fill {{.*}}ins(%{{.*}} : i32) outs(%[[OUT]] : tensor<1x96x40xi32>)
// UKERNEL:   linalg.generic {{.*}} outs(%[[ZERO]] : tensor<1x96x40xi32>) {{.*}}ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"
func.func @compute_batch_matmul(%a: memref<6x96x64xi8>, %b: memref<6x64x40xi8>, %out: memref<6x96x40xi32>,
                                %block: index, %blocks: index) attributes {aclop.kernel = "bmm"} {
  %x = bufferization.to_tensor %a restrict : memref<6x96x64xi8> to tensor<6x96x64xi8>
  %y = bufferization.to_tensor %b restrict : memref<6x64x40xi8> to tensor<6x64x40xi8>
  %r = aclop.batch_matmul %x, %y : (tensor<6x96x64xi8>, tensor<6x64x40xi8>) -> tensor<6x96x40xi32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<6x96x40xi32>, memref<6x96x40xi32>) -> ()
  return
}

// More columns than rows: blocks divide the columns, so that each call packs only its columns
// of B.
// UKERNEL-LABEL: func @compute_wide
// UKERNEL: scf.forall (%{{.*}}) in (%arg4)
// UKERNEL:   tensor.extract_slice %{{.*}}[0, %{{.*}}] [300, %{{.*}}] [1, 1] : tensor<300x700xi8> to tensor<300x?xi8>
// UKERNEL:   tensor.extract_slice %{{.*}}[0, %{{.*}}] [40, %{{.*}}] [1, 1] : tensor<40x700xi32> to tensor<40x?xi32>
// UKERNEL:   linalg.fill
// UKERNEL:   linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<40x300xi8>, tensor<300x?xi8>) {{.*}}ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"
func.func @compute_wide(%a: memref<40x300xi8>, %b: memref<300x700xi8>, %out: memref<40x700xi32>, %block: index,
                        %blocks: index) attributes {aclop.kernel = "mm"} {
  %x = bufferization.to_tensor %a restrict : memref<40x300xi8> to tensor<40x300xi8>
  %y = bufferization.to_tensor %b restrict : memref<300x700xi8> to tensor<300x700xi8>
  %r = aclop.matmul %x, %y : (tensor<40x300xi8>, tensor<300x700xi8>) -> tensor<40x700xi32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<40x700xi32>, memref<40x700xi32>) -> ()
  return
}

// A dynamic dim counts as 256 rows or columns: with the columns dynamic (ACL_OP_COMPILE_FUZZ
// keeps a row count of 1 static) up to 256 static rows divide the columns, more the rows; both
// dynamic, the columns.
// UKERNEL-LABEL: func @compute_dynamic_columns
// UKERNEL: scf.forall (%{{.*}}) in (%arg4)
// UKERNEL:   tensor.extract_slice %{{.*}}[0, %{{.*}}] [%{{.*}}, %{{.*}}] [1, 1] : tensor<?x?xi8> to tensor<?x?xi8>
// UKERNEL:   ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"
func.func @compute_dynamic_columns(%a: memref<1x?xi8>, %b: memref<?x?xi8>, %out: memref<1x?xi32>, %block: index,
                                   %blocks: index) attributes {aclop.kernel = "mm"} {
  %x = bufferization.to_tensor %a restrict : memref<1x?xi8> to tensor<1x?xi8>
  %y = bufferization.to_tensor %b restrict : memref<?x?xi8> to tensor<?x?xi8>
  %r = aclop.matmul %x, %y : (tensor<1x?xi8>, tensor<?x?xi8>) -> tensor<1x?xi32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1x?xi32>, memref<1x?xi32>) -> ()
  return
}

// UKERNEL-LABEL: func @compute_dynamic
// UKERNEL: scf.forall (%{{.*}}) in (%arg4)
// UKERNEL:   tensor.extract_slice %{{.*}}[0, %{{.*}}] [%{{.*}}, %{{.*}}] [1, 1] : tensor<?x?xi8> to tensor<?x?xi8>
// UKERNEL:   ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"
func.func @compute_dynamic(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %out: memref<?x?xi32>, %block: index,
                           %blocks: index) attributes {aclop.kernel = "mm"} {
  %x = bufferization.to_tensor %a restrict : memref<?x?xi8> to tensor<?x?xi8>
  %y = bufferization.to_tensor %b restrict : memref<?x?xi8> to tensor<?x?xi8>
  %r = aclop.matmul %x, %y : (tensor<?x?xi8>, tensor<?x?xi8>) -> tensor<?x?xi32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?xi32>, memref<?x?xi32>) -> ()
  return
}

// UKERNEL-LABEL: func @compute_dynamic_columns_many_rows
// UKERNEL: scf.forall (%{{.*}}) in (%arg4)
// UKERNEL:   tensor.extract_slice %{{.*}}[%{{.*}}, 0] [%{{.*}}, %{{.*}}] [1, 1] : tensor<257x?xi8> to tensor<?x?xi8>
// UKERNEL:   ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"
func.func @compute_dynamic_columns_many_rows(%a: memref<257x?xi8>, %b: memref<?x?xi8>, %out: memref<257x?xi32>,
                                             %block: index, %blocks: index) attributes {aclop.kernel = "mm"} {
  %x = bufferization.to_tensor %a restrict : memref<257x?xi8> to tensor<257x?xi8>
  %y = bufferization.to_tensor %b restrict : memref<?x?xi8> to tensor<?x?xi8>
  %r = aclop.matmul %x, %y : (tensor<257x?xi8>, tensor<?x?xi8>) -> tensor<257x?xi32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<257x?xi32>, memref<257x?xi32>) -> ()
  return
}

// As many columns as rows: the columns too.
// UKERNEL-LABEL: func @compute_square
// UKERNEL: scf.forall (%{{.*}}) in (%arg4)
// UKERNEL:   tensor.extract_slice %{{.*}}[0, %{{.*}}] [300, %{{.*}}] [1, 1] : tensor<300x200xi8> to tensor<300x?xi8>
// UKERNEL:   ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"
func.func @compute_square(%a: memref<200x300xi8>, %b: memref<300x200xi8>, %out: memref<200x200xi32>, %block: index,
                          %blocks: index) attributes {aclop.kernel = "mm"} {
  %x = bufferization.to_tensor %a restrict : memref<200x300xi8> to tensor<200x300xi8>
  %y = bufferization.to_tensor %b restrict : memref<300x200xi8> to tensor<300x200xi8>
  %r = aclop.matmul %x, %y : (tensor<200x300xi8>, tensor<300x200xi8>) -> tensor<200x200xi32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<200x200xi32>, memref<200x200xi32>) -> ()
  return
}

// An f32 GEMM on generated register tiles (whole 8x32 tiles, B small enough to sweep from L2
// once per 8 rows): the epilogue is tiled into register tiles and the fill and the
// product fused into each; after canonicalization the accumulator is a vector carried by the k
// loop from zero to alpha and beta: no fill, no temporary, no second pass.
// RUN: %op-opt %s -convert-aclop-to-linalg -aclop-select-strategy=vector-bits=512 -aclop-tile-and-vectorize -canonicalize | FileCheck %s --check-prefix=FUSED
// FUSED-LABEL: func @gemm_register_tiles
// FUSED-NOT: linalg.fill
// FUSED: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8x32xf32>
// FUSED: scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (16, 64) step (8, 32)
// FUSED:   %[[ACC:.*]] = scf.for %{{.*}} = %c0 to %c48 step %c1 iter_args(%[[STEP:.*]] = %[[ZERO]]) -> (vector<8x32xf32>)
// FUSED:     arith.mulf {{.*}} : vector<8x1x32xf32>
// FUSED:     %[[SUM:.*]] = arith.addf %[[STEP]], %{{.*}} : vector<8x32xf32>
// FUSED:     scf.yield %[[SUM]]
// FUSED:   %[[C:.*]] = vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x32xf32>
// FUSED:   %[[SCALED:.*]] = arith.mulf %{{.*}}, %[[ACC]] {{.*}} : vector<8x32xf32>
// FUSED:   arith.mulf %{{.*}}, %[[C]] {{.*}} : vector<8x32xf32>
// FUSED:   arith.select %{{.*}}, %[[SCALED]], %{{.*}} : vector<8x32xi1>, vector<8x32xf32>
// FUSED:   vector.transfer_write {{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// FUSED:   tensor.parallel_insert_slice
// FUSED-NOT: linalg.generic
// FUSED-LABEL: func @gemm_transposed_b_strips
func.func @gemm_register_tiles(%a: tensor<16x48xf32>, %b: tensor<48x64xf32>, %c: tensor<16x64xf32>,
                               %alpha: tensor<f32>, %beta: tensor<f32>) -> tensor<16x64xf32> {
  %r = aclop.gemm %a, %b, %c, %alpha, %beta : (tensor<16x48xf32>, tensor<48x64xf32>, tensor<16x64xf32>, tensor<f32>, tensor<f32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// B stored (n, k): register tiles reading it in place would gather 32 floats K apart at each k.
// The scf.forall runs over 32-column strips instead; each strip transposes its slice of B once
// (16x16 vector transposes) into a (k, 32) panel, which an scf.for over 8-row register tiles
// reads, with the fill and the epilogue fused as above.
// FUSED: scf.forall (%{{.*}}) = (0) to (64) step (32)
// FUSED:   %[[PANEL:.*]] = bufferization.alloc_tensor() : tensor<48x32xf32>
// FUSED:   vector.transfer_read {{.*}} : tensor<16x16xf32>, vector<16x16xf32>
// FUSED:   scf.for %{{.*}} = %c0 to %c16 step %c8
// FUSED:     scf.for {{.*}} -> (vector<8x32xf32>)
// FUSED:     arith.select {{.*}} : vector<8x32xi1>, vector<8x32xf32>
func.func @gemm_transposed_b_strips(%a: tensor<16x48xf32>, %b: tensor<64x48xf32>, %c: tensor<16x64xf32>,
                                         %alpha: tensor<f32>, %beta: tensor<f32>) -> tensor<16x64xf32> {
  %r = aclop.gemm %a, %b, %c, %alpha, %beta {transpose_b = true} : (tensor<16x48xf32>, tensor<64x48xf32>, tensor<16x64xf32>, tensor<f32>, tensor<f32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// More than 16 rows: 12-row register tiles (24 accumulators), and the rows past the last whole
// one (here 8 of 32) are split off first into a GEMM part of their own, with 8-row tiles.
// FUSED-LABEL: func @gemm_tall_register_tiles
// FUSED-NOT: linalg.fill
// FUSED: %[[WHOLE:.*]] = scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (24, 128) step (12, 32)
// FUSED:   scf.for {{.*}} -> (vector<12x32xf32>)
// FUSED:   arith.select {{.*}} : vector<12x32xi1>, vector<12x32xf32>
// FUSED: %[[PART:.*]] = tensor.insert_slice %[[WHOLE]] into %{{.*}}[0, 0] [24, 128]
// FUSED: %[[REST:.*]] = scf.forall (%{{.*}}) = (0) to (128) step (32)
// FUSED:   scf.for {{.*}} -> (vector<8x32xf32>)
// FUSED:   arith.select {{.*}} : vector<8x32xi1>, vector<8x32xf32>
// FUSED: tensor.insert_slice %[[REST]] into %[[PART]][24, 0] [8, 128]
// FUSED-NOT: linalg.generic
// FUSED: return
func.func @gemm_tall_register_tiles(%a: tensor<32x288xf32>, %b: tensor<288x128xf32>, %c: tensor<32x128xf32>,
                                    %alpha: tensor<f32>, %beta: tensor<f32>) -> tensor<32x128xf32> {
  %r = aclop.gemm %a, %b, %c, %alpha, %beta : (tensor<32x288xf32>, tensor<288x128xf32>, tensor<32x128xf32>, tensor<f32>, tensor<f32>) -> tensor<32x128xf32>
  return %r : tensor<32x128xf32>
}

// A plain product (MatMul: the fill and the product, no epilogue) takes the same tiles: the
// product itself is tiled and its fill fused, the accumulator carried from zero through k and
// written to the result's slice (no buffer of its own: nothing reads C). A batch runs a matrix
// at a time, B's batch of one broadcast.
// FUSED-LABEL: func @plain_register_tiles
// FUSED-NOT: linalg.fill
// FUSED-NOT: bufferization.alloc_tensor
// FUSED: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8x32xf32>
// FUSED: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (16, 64) step (8, 32)
// FUSED:   %[[ACC:.*]] = scf.for %{{.*}} = %c0 to %c48 step %c1 iter_args(%[[STEP:.*]] = %[[ZERO]]) -> (vector<8x32xf32>)
// FUSED:     arith.mulf {{.*}} : vector<8x1x32xf32>
// FUSED:     arith.addf %[[STEP]], %{{.*}} : vector<8x32xf32>
// FUSED:   %[[OUT:.*]] = vector.transfer_write %[[ACC]], {{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// FUSED:   tensor.parallel_insert_slice %[[OUT]]
// FUSED-NOT: linalg.generic
// FUSED-LABEL: func @batched_plain_register_tiles
func.func @plain_register_tiles(%a: tensor<16x48xf32>, %b: tensor<48x64xf32>) -> tensor<16x64xf32> {
  %r = aclop.matmul %a, %b : (tensor<16x48xf32>, tensor<48x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// FUSED-NOT: linalg.fill
// FUSED: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<1x8x32xf32>
// FUSED: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0) to (3, 16, 64) step (1, 8, 32)
// FUSED:   tensor.extract_slice %{{.*}}[0, 0, %{{.*}}] [1, 48, 32] [1, 1, 1] : tensor<1x48x64xf32> to tensor<1x48x32xf32>
// FUSED:   scf.for %{{.*}} = %c0 to %c48 step %c1 iter_args(%{{.*}} = %[[ZERO]]) -> (vector<1x8x32xf32>)
// FUSED:   vector.transfer_write {{.*}} : vector<8x32xf32>, tensor<1x8x32xf32>
// FUSED:   tensor.parallel_insert_slice
// FUSED-NOT: linalg.generic
// FUSED: return
func.func @batched_plain_register_tiles(%a: tensor<3x16x48xf32>, %b: tensor<1x48x64xf32>) -> tensor<3x16x64xf32> {
  %r = aclop.batch_matmul %a, %b : (tensor<3x16x48xf32>, tensor<1x48x64xf32>) -> tensor<3x16x64xf32>
  return %r : tensor<3x16x64xf32>
}

// A plain product takes 12-row tiles too, and the rows past the last whole one (8 of 32) are a
// product of their own, with 8-row tiles: each part zeroes its own rows.
// FUSED-LABEL: func @plain_tall_register_tiles
// FUSED-NOT: linalg.fill
// FUSED: %[[WHOLE:.*]] = scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (24, 128) step (12, 32)
// FUSED:   scf.for {{.*}} -> (vector<12x32xf32>)
// FUSED: %[[PART:.*]] = tensor.insert_slice %[[WHOLE]] into %{{.*}}[0, 0] [24, 128]
// FUSED: %[[RESTROWS:.*]] = tensor.extract_slice %[[PART]][24, 0] [8, 128]
// FUSED: %[[REST:.*]] = scf.forall (%{{.*}}) = (0) to (128) step (32) shared_outs(%{{.*}} = %[[RESTROWS]])
// FUSED:   scf.for {{.*}} -> (vector<8x32xf32>)
// FUSED: tensor.insert_slice %[[REST]] into %[[PART]][24, 0] [8, 128]
// FUSED-NOT: linalg.generic
// FUSED: return
func.func @plain_tall_register_tiles(%a: tensor<32x288xf32>, %b: tensor<288x128xf32>) -> tensor<32x128xf32> {
  %r = aclop.matmul %a, %b : (tensor<32x288xf32>, tensor<288x128xf32>) -> tensor<32x128xf32>
  return %r : tensor<32x128xf32>
}

// A batch is split over its rows (its second dim) the same way: 36 rows of each matrix in
// 12-row tiles, its last 4 rows in 4-row ones.
// FUSED-LABEL: func @batched_tall_register_tiles
// FUSED-NOT: linalg.fill
// FUSED: %[[WHOLE:.*]] = scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0) to (3, 36, 64) step (1, 12, 32)
// FUSED:   scf.for {{.*}} -> (vector<1x12x32xf32>)
// FUSED: %[[PART:.*]] = tensor.insert_slice %[[WHOLE]] into %{{.*}}[0, 0, 0] [3, 36, 64]
// FUSED: %[[REST:.*]] = scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (3, 64) step (1, 32)
// FUSED:   scf.for {{.*}} -> (vector<1x4x32xf32>)
// FUSED: tensor.insert_slice %[[REST]] into %[[PART]][0, 36, 0] [3, 4, 64]
// FUSED-NOT: linalg.generic
// FUSED: return
func.func @batched_tall_register_tiles(%a: tensor<3x40x48xf32>, %b: tensor<1x48x64xf32>) -> tensor<3x40x64xf32> {
  %r = aclop.batch_matmul %a, %b : (tensor<3x40x48xf32>, tensor<1x48x64xf32>) -> tensor<3x40x64xf32>
  return %r : tensor<3x40x64xf32>
}

// A bias over n (MatMulV2's) is added in the tiles, to the accumulator, before the store: no
// second pass over the result.
// FUSED-LABEL: func @bias_register_tiles
// FUSED-NOT: linalg.fill
// FUSED: scf.forall (%{{.*}}, %[[J:.*]]) = (0, 0) to (16, 64) step (8, 32)
// FUSED:   %[[ACC:.*]] = scf.for {{.*}} -> (vector<8x32xf32>)
// FUSED:   %[[BIAS:.*]] = tensor.extract_slice %{{.*}}[%[[J]]] [32] [1] : tensor<64xf32> to tensor<32xf32>
// FUSED:   %[[ADD:.*]] = vector.transfer_read %[[BIAS]]{{.*}} : tensor<32xf32>, vector<8x32xf32>
// FUSED:   %[[SUM:.*]] = arith.addf %[[ACC]], %[[ADD]] {{.*}} : vector<8x32xf32>
// FUSED:   vector.transfer_write %[[SUM]]
// FUSED:   tensor.parallel_insert_slice
// FUSED-NOT: linalg.generic
// FUSED: return
func.func @bias_register_tiles(%a: tensor<16x48xf32>, %b: tensor<48x64xf32>, %bias: tensor<64xf32>) -> tensor<16x64xf32> {
  %r = aclop.matmul %a, %b, %bias : (tensor<16x48xf32>, tensor<48x64xf32>, tensor<64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// A static innermost dim that the vector does not divide (20 by 16): the last, partial tile is
// an op of its own, one vector of its length (4), so no tile reads or writes with a mask. Each
// part is written into an empty of its own, which aclop-eliminate-expanded-empty-tensors places
// in the destination (a slice of the op's empty could not be).
// CHECK-LABEL: func @add_ragged_rows
// CHECK-NOT: create_mask
// CHECK: %[[FULL:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (4, 16) step (1, 16) shared_outs(%{{.*}} = %[[FULL]])
// CHECK: vector.transfer_read %{{.*}}[%c0, %c0], %{{.*}} {in_bounds = [true]} : tensor<1x16xf32>, vector<16xf32>
// CHECK: vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<16xf32>, tensor<1x16xf32>
// CHECK: tensor.insert_slice %{{.*}}[0, 0] [4, 16]
// CHECK: %[[REST:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (4, 4) step (1, 4) shared_outs(%{{.*}} = %[[REST]])
// CHECK: vector.transfer_read %{{.*}}[%c0, %c0], %{{.*}} {in_bounds = [true]} : tensor<1x4xf32>, vector<4xf32>
// CHECK-NOT: create_mask
// CHECK: tensor.insert_slice %{{.*}}[0, 16] [4, 4]
func.func @add_ragged_rows(%a: tensor<4x20xf32>, %b: tensor<4x20xf32>) -> tensor<4x20xf32> {
  %r = aclop.add %a, %b : (tensor<4x20xf32>, tensor<4x20xf32>) -> tensor<4x20xf32>
  return %r : tensor<4x20xf32>
}

// One dim: its remainder would be one tile with no loop for blocks to divide; it stays masked.
// CHECK-LABEL: func @add_ragged_vector
// CHECK: scf.forall (%{{.*}}) = (0) to (20) step (16)
// CHECK: vector.create_mask
// CHECK-NOT: scf.forall (
// CHECK: return
func.func @add_ragged_vector(%a: tensor<20xf32>, %b: tensor<20xf32>) -> tensor<20xf32> {
  %r = aclop.add %a, %b : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xf32>
  return %r : tensor<20xf32>
}

// Tiles of one element that read by index stay scalar generics (an NCHW depthwise
// convolution's column edges), where vectors would be one-lane gathers; its middle columns
// (18: 16 and a remainder of 2) are contiguous vector reads once canonicalization has made the
// shapes static, as the pipeline does.
// EDGES-LABEL: func @depthwise_column_edges
// EDGES: scf.forall ({{.*}}) in (1, 2, 4, 1)
// EDGES-NOT: vector.
// EDGES: linalg.generic
// EDGES: tensor.insert_slice %{{.*}}[0, 0, 0, 0] [1, 2, 4, 1]
// EDGES: scf.forall ({{.*}}) = (0, 0, 0, 0) to (1, 2, 4, 16) step (1, 1, 1, 16)
// EDGES-NOT: vector.gather
// EDGES-COUNT-3: vector.transfer_read %arg0{{.*}} {in_bounds = [true]} : tensor<1x2x4x20xf32>, vector<16xf32>
// EDGES: scf.forall ({{.*}}) = (0, 0, 0, 0) to (1, 2, 4, 2) step (1, 1, 1, 2)
// EDGES-NOT: vector.gather
// EDGES: scf.forall ({{.*}}) in (1, 2, 4, 1)
// EDGES-NOT: vector.
// EDGES: linalg.generic
// EDGES: tensor.insert_slice %{{.*}}[0, 0, 0, 19] [1, 2, 4, 1]
func.func @depthwise_column_edges(%x: tensor<1x2x4x20xf32>, %w: tensor<2x1x1x3xf32>) -> tensor<1x2x4x20xf32> {
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 1, 1>, groups = 2}
      : (tensor<1x2x4x20xf32>, tensor<2x1x1x3xf32>) -> tensor<1x2x4x20xf32>
  return %r : tensor<1x2x4x20xf32>
}

// A ukernel MatMul with a bias over N in a kernel function: the bias add is tiled like GEMM's
// epilogue, one tile per block (blocks divide the 1000 columns), with the fill and the product
// fused into each tile for aclop-call-ukernels to fold into one call. Left as a nest of its own,
// the bias kept the kernel on one block.
// RUN: %op-opt %s -convert-aclop-to-linalg "-aclop-select-strategy=vector-bits=512 ukernels=aclcpu_ukernel_gemm_f32f32f32" -aclop-tile-and-vectorize | FileCheck %s --check-prefix=UKBIAS
// UKBIAS-LABEL: func @compute_matmul_bias
// UKBIAS-SAME: aclop.blocks_per_worker = 1 : i64
// UKBIAS: scf.forall (%[[TILE:.*]]) in (%arg5)
// UKBIAS:   linalg.fill
// UKBIAS:   %[[PRODUCT:.*]] = linalg.generic {{.*}}ukernel = "aclcpu_ukernel_gemm_f32f32f32"
// UKBIAS:   linalg.generic {{.*}} ins(%[[PRODUCT]], %{{.*}} : tensor<64x?xf32>, tensor<?xf32>)
// UKBIAS:   tensor.parallel_insert_slice
// UKBIAS-NOT: linalg.generic
// UKBIAS: return
func.func @compute_matmul_bias(%a: memref<64x300xf32>, %b: memref<300x1000xf32>, %bias: memref<1000xf32>,
                               %out: memref<64x1000xf32>, %block: index, %blocks: index)
    attributes {aclop.kernel = "matmul"} {
  %x = bufferization.to_tensor %a restrict : memref<64x300xf32> to tensor<64x300xf32>
  %y = bufferization.to_tensor %b restrict : memref<300x1000xf32> to tensor<300x1000xf32>
  %z = bufferization.to_tensor %bias restrict : memref<1000xf32> to tensor<1000xf32>
  %r = aclop.matmul %x, %y, %z : (tensor<64x300xf32>, tensor<300x1000xf32>, tensor<1000xf32>) -> tensor<64x1000xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<64x1000xf32>, memref<64x1000xf32>) -> ()
  return
}

// The same with an NCHW 1x1 convolution's bias, one per out channel: the product's rows. The
// epilogue reads the [out channels, pixels] product directly and is tiled with it, one tile per
// block (blocks divide the 196 pixels), for aclop-call-ukernels to fold (Cin of column stride 0).
// RUN: %op-opt %s -convert-aclop-to-linalg -canonicalize "-aclop-select-strategy=vector-bits=512 ukernels=aclcpu_ukernel_gemm_f32f32f32" -aclop-tile-and-vectorize | FileCheck %s --check-prefix=ROWBIAS
// ROWBIAS-LABEL: func @compute_conv_row_bias
// ROWBIAS-SAME: aclop.blocks_per_worker = 1 : i64
// ROWBIAS: scf.forall (%[[TILE:.*]]) in (%arg5)
// ROWBIAS:   linalg.fill
// ROWBIAS:   %[[PRODUCT:.*]] = linalg.generic {{.*}}ukernel = "aclcpu_ukernel_gemm_f32f32f32"
// ROWBIAS:   linalg.generic {{.*}} ins(%[[PRODUCT]], %{{.*}} : tensor<64x?xf32>, tensor<64xf32>)
// ROWBIAS:   tensor.parallel_insert_slice
// ROWBIAS-NOT: linalg.generic
// ROWBIAS: return
func.func @compute_conv_row_bias(%a: memref<1x256x14x14xf32>, %w: memref<64x256x1x1xf32>, %bias: memref<64xf32>,
                                 %out: memref<1x64x14x14xf32>, %block: index, %blocks: index)
    attributes {aclop.kernel = "conv"} {
  %x = bufferization.to_tensor %a restrict : memref<1x256x14x14xf32> to tensor<1x256x14x14xf32>
  %y = bufferization.to_tensor %w restrict : memref<64x256x1x1xf32> to tensor<64x256x1x1xf32>
  %z = bufferization.to_tensor %bias restrict : memref<64xf32> to tensor<64xf32>
  %r = aclop.conv2d %x, %y, %z {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>}
      : (tensor<1x256x14x14xf32>, tensor<64x256x1x1xf32>, tensor<64xf32>) -> tensor<1x64x14x14xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1x64x14x14xf32>, memref<1x64x14x14xf32>) -> ()
  return
}
