// Block partitioning and the kernel entry point.
// RUN: %op-opt %s -aclop-map-to-kernel-abi -split-input-file | FileCheck %s

// Every top-level scf.parallel gets this block's share of its first non-unit dimension:
// [span * b / B, span * (b + 1) / B), the last block ending at the upper bound.
// CHECK: module attributes {aclop.partitioned = {scale = true}}
// CHECK: func.func private @__aclop_compute_scale(%[[IN:.*]]: memref<1x?xf32>, %[[OUT:.*]]: memref<1x?xf32>, %[[BLOCK:.*]]: index, %[[BLOCKS:.*]]: index)
// CHECK: %[[SPAN:.*]] = arith.subi
// CHECK: %[[NEXT:.*]] = arith.addi %[[BLOCK]], %{{.*}}
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[NEXT]], %[[BLOCKS]]
// CHECK: arith.muli %[[SPAN]], %[[NEXT]]
// CHECK: %[[END:.*]] = arith.select %[[LAST]]
// CHECK: %[[SCALED:.*]] = arith.muli %[[SPAN]], %[[BLOCK]]
// CHECK: arith.divui %[[SCALED]], %[[BLOCKS]]
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%c0, %{{.*}}) to (%c1, %[[END]])
// CHECK-LABEL: func.func @scale(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
// CHECK: llvm.load {{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[SIZE_AT:.*]] = llvm.getelementptr %arg0[16] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.load %[[SIZE_AT]] : !llvm.ptr -> i64
// CHECK: llvm.getelementptr %arg0[8]
// CHECK: llvm.getelementptr %arg0[24]
// CHECK: builtin.unrealized_conversion_cast {{.*}} to memref<1x?xf32>
// CHECK: llvm.getelementptr %arg1[4]
// CHECK: llvm.getelementptr %arg1[8]
// CHECK: call @__aclop_compute_scale
// CHECK: return %{{.*}} : i32
// CHECK: llvm.mlir.global external constant @scale__aclcpu_abi(1 : i32)
func.func @k(%in: memref<1x?xf32>, %out: memref<1x?xf32>, %block: index, %blocks: index) attributes {aclop.kernel = "scale"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c1 : memref<1x?xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %n) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<1x?xf32>
    %y = arith.addf %x, %x : f32
    memref.store %y, %out[%i, %j] : memref<1x?xf32>
    scf.reduce
  }
  return
}

// -----

// Work that cannot be divided runs in block 0 only, and tells the launch recipe nothing else.
// CHECK: module attributes {aclop.partitioned = {total = false}}
// CHECK-LABEL: func.func private @__aclop_compute_total
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK:   scf.for
// CHECK:   memref.store
func.func @k(%in: memref<8xf32>, %out: memref<f32>, %block: index, %blocks: index) attributes {aclop.kernel = "total", aclop.work_per_element = 8 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> f32 {
    %x = memref.load %in[%i] : memref<8xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  memref.store %sum, %out[] : memref<f32>
  return
}

// -----

// Nests stepping by 1 and by 32 rows share a grain of 32: block boundaries are rounded to
// multiples of it in both, so each block's rows are the same in every nest.
// CHECK-LABEL: func.func private @__aclop_compute_grain
// CHECK: %[[G1:.*]] = arith.constant 32 : index
// CHECK: arith.divui %{{.*}}, %[[G1]]
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%c1)
// CHECK: %[[G2:.*]] = arith.constant 32 : index
// CHECK: arith.divui %{{.*}}, %[[G2]]
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%c32)
func.func @k(%out: memref<100xf32>, %block: index, %blocks: index) attributes {aclop.kernel = "grain"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c100) step (%c1) {
    memref.store %zero, %out[%i] : memref<100xf32>
    scf.reduce
  }
  scf.parallel (%t) = (%c0) to (%c100) step (%c32) {
    %end = arith.addi %t, %c32 : index
    %stop = arith.minsi %end, %c100 : index
    scf.for %i = %t to %stop step %c1 {
      %x = memref.load %out[%i] : memref<100xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %out[%i] : memref<100xf32>
    }
    scf.reduce
  }
  return
}

// -----

// Nests over ranges known to differ keep grains of their own: a product's 12-row tiles over
// rows [0, 252) and its last 4 rows' 32-column tiles over [0, 256) (a common grain of 96 would
// give one block 96 of the 252 rows and the other 156).
// CHECK-LABEL: func.func private @__aclop_compute_split_grains
// CHECK: arith.divui %{{.*}}, %c12{{(_[0-9]+)?}} : index
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%c12)
// CHECK: arith.divui %{{.*}}, %c32{{(_[0-9]+)?}} : index
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%c32)
func.func @k(%out: memref<256x256xf32>, %block: index, %blocks: index) attributes {aclop.kernel = "split_grains"} {
  %c0 = arith.constant 0 : index
  %c12 = arith.constant 12 : index
  %c32 = arith.constant 32 : index
  %c252 = arith.constant 252 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c252) step (%c12) {
    memref.store %zero, %out[%i, %c0] : memref<256x256xf32>
    scf.reduce
  }
  scf.parallel (%j) = (%c0) to (%c256) step (%c32) {
    memref.store %zero, %out[%c252, %j] : memref<256x256xf32>
    scf.reduce
  }
  return
}

// -----

// A loop over one tile per block (up to the block count) gives block b iteration b; the
// kernel's request for one block per worker and its work per output element (or where its
// dynamic depth is) are recorded for the launch recipe.
// CHECK: module attributes {aclop.blocks_per_worker = {tiles = 1 : i64}, aclop.partitioned = {tiles = true}, aclop.work_depth = {tiles = array<i64: 0, 1, 16>}, aclop.work_per_element = {tiles = 24 : i64}}
// CHECK: func.func private @__aclop_compute_tiles(%{{.*}}: memref<?xf32>, %[[BLOCK:.*]]: index, %[[BLOCKS:.*]]: index)
// CHECK: %[[NEXT:.*]] = arith.addi %[[BLOCK]], %{{.*}}
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[NEXT]], %[[BLOCKS]]
// CHECK: %[[END:.*]] = arith.select %[[LAST]], %[[BLOCKS]]
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[END]])
func.func @t(%out: memref<?xf32>, %block: index, %blocks: index) attributes {aclop.kernel = "tiles", aclop.blocks_per_worker = 1 : i64, aclop.work_per_element = 24 : i64, aclop.work_depth = array<i64: 0, 1, 16>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%blocks) step (%c1) {
    memref.store %one, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

// Each block has its own allocations: a nest that reads what another wrote must give each block
// the rows it gave it there. The patches' 64 rows against a product over 3 strips of 32 columns
// that reads all of them: single block (block 1 would read rows of its allocation block 0 wrote).
// CHECK: module attributes {aclop.partitioned = {strips = false}}
// CHECK-LABEL: func.func private @__aclop_compute_strips
// CHECK: scf.if
// CHECK:   scf.parallel (%{{.*}}) = (%{{.*}}) to (%c64) step (%c1)
// CHECK:   scf.parallel (%{{.*}}) = (%{{.*}}) to (%c96) step (%c32)
func.func @k(%in: memref<64x8xf32>, %out: memref<64x96xf32>, %block: index, %blocks: index) attributes {aclop.kernel = "strips"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  %zero = arith.constant 0.0 : f32
  %patches = memref.alloc() : memref<64x8xf32>
  scf.parallel (%r) = (%c0) to (%c64) step (%c1) {
    %v = vector.transfer_read %in[%r, %c0], %zero {in_bounds = [true]} : memref<64x8xf32>, vector<8xf32>
    vector.transfer_write %v, %patches[%r, %c0] {in_bounds = [true]} : vector<8xf32>, memref<64x8xf32>
    scf.reduce
  }
  scf.parallel (%j) = (%c0) to (%c96) step (%c32) {
    scf.for %r = %c0 to %c64 step %c1 {
      %x = memref.load %patches[%r, %c0] : memref<64x8xf32>
      memref.store %x, %out[%r, %j] : memref<64x96xf32>
    }
    scf.reduce
  }
  memref.dealloc %patches : memref<64x8xf32>
  return
}

// -----

// The same rows in both (the product over row tiles of 8): divided, with one grain (8).
// CHECK: module attributes {aclop.partitioned = {rows = true}}
// CHECK-LABEL: func.func private @__aclop_compute_rows
// CHECK-NOT: scf.if
// CHECK: arith.constant 8 : index
// CHECK: scf.parallel
// CHECK: arith.constant 8 : index
// CHECK: scf.parallel
func.func @k(%in: memref<64x8xf32>, %out: memref<64x64xf32>, %block: index, %blocks: index) attributes {aclop.kernel = "rows"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %patches = memref.alloc() : memref<64x8xf32>
  scf.parallel (%r) = (%c0) to (%c64) step (%c1) {
    %v = vector.transfer_read %in[%r, %c0], %zero {in_bounds = [true]} : memref<64x8xf32>, vector<8xf32>
    vector.transfer_write %v, %patches[%r, %c0] {in_bounds = [true]} : vector<8xf32>, memref<64x8xf32>
    scf.reduce
  }
  scf.parallel (%r) = (%c0) to (%c64) step (%c8) {
    scf.for %j = %c0 to %c64 step %c1 {
      %x = memref.load %patches[%r, %c0] : memref<64x8xf32>
      memref.store %x, %out[%r, %j] : memref<64x64xf32>
    }
    scf.reduce
  }
  memref.dealloc %patches : memref<64x8xf32>
  return
}
