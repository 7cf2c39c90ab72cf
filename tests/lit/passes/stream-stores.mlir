// Loop nests writing large outputs in whole vectors are cloned under a check of the outputs'
// base alignment; the aligned clone stores non-temporally (f16 and bf16 through vmovntdq, which
// the backend would not emit for them), prefetches each large input 8 KiB ahead into L2
// (locality 2) and ends with an sfence.
// RUN: %op-opt %s -pass-pipeline='builtin.module(func.func(aclop-stream-stores{min-bytes=1024}))' -split-input-file | FileCheck %s

// CHECK-LABEL: func @large
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[REM:.*]] = arith.remui %[[BASE]], %c64
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[REM]], %c0
// CHECK: scf.if %[[OK]] {
// CHECK:   scf.parallel (%[[I:.*]]) =
// CHECK:     %[[AHEAD:.*]] = arith.addi %[[I]], %c2048
// CHECK:     memref.prefetch %arg0[%[[AHEAD]]], read, locality<2>, data : memref<1024xf32>
// CHECK:     vector.transfer_read %arg0[%[[I]]]
// CHECK:     llvm.store %{{.*}}, %{{.*}} {alignment = 64 : i64, nontemporal} : vector<16xf32>, !llvm.ptr
// CHECK:   llvm.call_intrinsic "llvm.x86.sse.sfence"()
// CHECK: } else {
// CHECK:   scf.parallel
// CHECK-NOT: memref.prefetch
// CHECK:     vector.transfer_write %{{.*}} {in_bounds = [true]} : vector<16xf32>, memref<1024xf32>
func.func @large(%in: memref<1024xf32>, %out: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1024 = arith.constant 1024 : index
  %pad = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c1024) step (%c16) {
    %v = vector.transfer_read %in[%i], %pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
    %w = arith.addf %v, %v : vector<16xf32>
    vector.transfer_write %w, %out[%i] {in_bounds = [true]} : vector<16xf32>, memref<1024xf32>
    scf.reduce
  }
  return
}

// -----

// CHECK-LABEL: func @half
// CHECK: scf.if
// CHECK:   llvm.bitcast %{{.*}} : vector<16xf16> to vector<16xi16>
// CHECK:   llvm.inline_asm has_side_effects "vmovntdq $1, ($0)", "r,v,~{memory}"
func.func @half(%in: memref<4x512xf32>, %out: memref<4x512xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c512 = arith.constant 512 : index
  %pad = arith.constant 0.0 : f32
  scf.parallel (%r, %i) = (%c0, %c0) to (%c4, %c512) step (%c1, %c16) {
    %v = vector.transfer_read %in[%r, %i], %pad {in_bounds = [true]} : memref<4x512xf32>, vector<16xf32>
    %h = arith.truncf %v : vector<16xf32> to vector<16xf16>
    vector.transfer_write %h, %out[%r, %i] {in_bounds = [true]} : vector<16xf16>, memref<4x512xf16>
    scf.reduce
  }
  return
}

// -----

// Left alone: an output below min-bytes, rows that are not whole vectors (a row of 100 f32
// puts the second row's vectors off alignment), a masked (partial) write.
// CHECK-LABEL: func @not_streamed
// CHECK-NOT: scf.if
// CHECK-NOT: nontemporal
func.func @not_streamed(%in: memref<16xf32>, %small: memref<16xf32>, %odd: memref<8x100xf32>, %m: vector<16xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c96 = arith.constant 96 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %in[%c0], %pad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  scf.parallel (%i) = (%c0) to (%c16) step (%c16) {
    vector.transfer_write %v, %small[%i] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
    scf.reduce
  }
  scf.parallel (%r, %i) = (%c0, %c0) to (%c8, %c96) step (%c1, %c16) {
    vector.transfer_write %v, %odd[%r, %i] {in_bounds = [true]} : vector<16xf32>, memref<8x100xf32>
    scf.reduce
  }
  scf.parallel (%r) = (%c0) to (%c8) step (%c1) {
    vector.transfer_write %v, %odd[%r, %c0], %m : vector<16xf32>, memref<8x100xf32>
    scf.reduce
  }
  return
}

// -----

// Left alone: writes whose vectors are not known to be aligned once the base is: a Pad's
// interior, 8 floats into each row (through an index and through a view's offset), and
// vectors a loop steps half a vector apart.
// CHECK-LABEL: func @unaligned_places
// CHECK-NOT: scf.if
// CHECK-NOT: nontemporal
func.func @unaligned_places(%out: memref<8x1024xf32>, %v: vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c1008 = arith.constant 1008 : index
  scf.parallel (%r, %i) = (%c0, %c0) to (%c8, %c1008) step (%c1, %c16) {
    %j = affine.apply affine_map<()[s0] -> (s0 + 8)>()[%i]
    vector.transfer_write %v, %out[%r, %j] {in_bounds = [true]} : vector<16xf32>, memref<8x1024xf32>
    scf.reduce
  }
  %interior = memref.subview %out[0, 8] [8, 1008] [1, 1] : memref<8x1024xf32> to memref<8x1008xf32, strided<[1024, 1], offset: 8>>
  scf.parallel (%r, %i) = (%c0, %c0) to (%c8, %c1008) step (%c1, %c16) {
    vector.transfer_write %v, %interior[%r, %i] {in_bounds = [true]} : vector<16xf32>, memref<8x1008xf32, strided<[1024, 1], offset: 8>>
    scf.reduce
  }
  scf.parallel (%r, %i) = (%c0, %c0) to (%c8, %c1008) step (%c1, %c8) {
    vector.transfer_write %v, %out[%r, %i] {in_bounds = [true]} : vector<16xf32>, memref<8x1024xf32>
    scf.reduce
  }
  return
}

// -----

// A block's share of a partitioned loop starts at a multiple of its step, and a view may start
// at whole vectors: both streamed.
// CHECK-LABEL: func @aligned_places
// CHECK: scf.if
// CHECK: llvm.store {{.*}} nontemporal
// CHECK: scf.if
// CHECK: llvm.store {{.*}} nontemporal
func.func @aligned_places(%out: memref<8x1024xf32>, %v: vector<16xf32>, %block: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c512 = arith.constant 512 : index
  %c1024 = arith.constant 1024 : index
  %start = arith.muli %block, %c512 : index
  %end = arith.addi %start, %c512 : index
  scf.parallel (%r, %i) = (%c0, %start) to (%c8, %end) step (%c1, %c16) {
    vector.transfer_write %v, %out[%r, %i] {in_bounds = [true]} : vector<16xf32>, memref<8x1024xf32>
    scf.reduce
  }
  %half = memref.subview %out[0, 512] [8, 512] [1, 1] : memref<8x1024xf32> to memref<8x512xf32, strided<[1024, 1], offset: 512>>
  scf.parallel (%r, %i) = (%c0, %c0) to (%c8, %c512) step (%c1, %c16) {
    vector.transfer_write %v, %half[%r, %i] {in_bounds = [true]} : vector<16xf32>, memref<8x512xf32, strided<[1024, 1], offset: 512>>
    scf.reduce
  }
  return
}

// -----

// A transpose's 16x16 tile is stored a row at a time: 16 non-temporal stores of 16 floats, the
// tile's rows at its first row plus 0 to 15. Rows of 32 floats (a register tile's) are not
// streamed.
// CHECK-LABEL: func @tiles
// CHECK: scf.if
// CHECK-COUNT-16: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<16xf32>, !llvm.ptr
// CHECK-NOT: nontemporal
// CHECK: } else {
// CHECK-LABEL: func @register_tiles
// CHECK-NOT: nontemporal
func.func @tiles(%out: memref<64x1024xf32>, %v: vector<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c1024) step (%c16, %c16) {
    vector.transfer_write %v, %out[%i, %j] {in_bounds = [true, true]} : vector<16x16xf32>, memref<64x1024xf32>
    scf.reduce
  }
  return
}
func.func @register_tiles(%out: memref<64x1024xf32>, %v: vector<8x32xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c1024) step (%c8, %c32) {
    vector.transfer_write %v, %out[%i, %j] {in_bounds = [true, true]} : vector<8x32xf32>, memref<64x1024xf32>
    scf.reduce
  }
  return
}
