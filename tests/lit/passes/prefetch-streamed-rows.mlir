// In a loop marked `aclop.streamed_rows`, each 1-D read of a large contiguous input the loop does
// not write is preceded by prefetches 8 KiB further on, one for each line the read covers: along
// the row where rows are 8 KiB or longer, else as many rows on as make 8 KiB, along the dim the
// innermost enclosing row loop steps (the next in memory for rows read in order, a later step's
// for rows a plane apart). The accumulator row (read and written) is not prefetched, and the mark
// is removed. Small inputs (under min-bytes), strided views and unmarked loops get none.
// RUN: %op-opt %s -aclop-prefetch-streamed-rows -split-input-file | FileCheck %s
// RUN: %op-opt %s -aclop-prefetch-streamed-rows=min-bytes=1024 -split-input-file | FileCheck %s --check-prefix=SMALL

// Rows of 4 KiB: two rows on.
// CHECK-LABEL: func @column_sum
// CHECK: scf.for %[[R:.*]] =
// CHECK:   scf.for %[[J:.*]] =
// CHECK:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:     %[[AHEAD:.*]] = arith.addi %[[R]], %[[C2]] : index
// CHECK:     memref.prefetch %arg0[%[[AHEAD]], %[[J]]], read, locality<3>, data : memref<2048x1024xf32>
// CHECK-NOT: memref.prefetch
// CHECK:     vector.transfer_read %arg0[%[[R]], %[[J]]]
// CHECK-NOT: aclop.streamed_rows
func.func @column_sum(%in: memref<2048x1024xf32>, %acc: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c1024 = arith.constant 1024 : index
  %c2048 = arith.constant 2048 : index
  %pad = ub.poison : f32
  scf.for %r = %c0 to %c2048 step %c1 {
    scf.for %j = %c0 to %c1024 step %c16 {
      %x = vector.transfer_read %in[%r, %j], %pad {in_bounds = [true]} : memref<2048x1024xf32>, vector<16xf32>
      %a = vector.transfer_read %acc[%j], %pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
      %s = arith.addf %a, %x : vector<16xf32>
      vector.transfer_write %s, %acc[%j] {in_bounds = [true]} : vector<16xf32>, memref<1024xf32>
    } {aclop.streamed_rows}
  }
  return
}

// -----

// A whole row of 64 floats read at once, the accumulators carried by the row loop: 32 rows on,
// a prefetch for each of its four lines.
// CHECK-LABEL: func @whole_rows
// CHECK: scf.for %[[R:.*]] = {{.*}} iter_args
// CHECK:   %[[C32:.*]] = arith.constant 32 : index
// CHECK:   %[[ROW:.*]] = arith.addi %[[R]], %[[C32]] : index
// CHECK:   memref.prefetch %arg0[%[[ROW]], %c0]
// CHECK:   arith.constant 16 : index
// CHECK:   memref.prefetch %arg0[%[[ROW]], %{{.*}}]
// CHECK:   arith.constant 32 : index
// CHECK:   memref.prefetch %arg0[%[[ROW]], %{{.*}}]
// CHECK:   arith.constant 48 : index
// CHECK:   memref.prefetch %arg0[%[[ROW]], %{{.*}}]
// CHECK-NOT: memref.prefetch
// CHECK:   vector.transfer_read %arg0[%[[R]], %c0]
func.func @whole_rows(%in: memref<65536x64xf32>, %acc: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c65536 = arith.constant 65536 : index
  %pad = ub.poison : f32
  %init = vector.transfer_read %acc[%c0], %pad {in_bounds = [true]} : memref<64xf32>, vector<64xf32>
  %sum = scf.for %r = %c0 to %c65536 step %c1 iter_args(%a = %init) -> (vector<64xf32>) {
    %x = vector.transfer_read %in[%r, %c0], %pad {in_bounds = [true]} : memref<65536x64xf32>, vector<64xf32>
    %s = arith.addf %a, %x : vector<64xf32>
    scf.yield %s : vector<64xf32>
  } {aclop.streamed_rows}
  vector.transfer_write %sum, %acc[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32>
  return
}

// -----

// Through a subview (a block's share of an NHWC image) of an f16 input: rows of 2 KiB, four on.
// CHECK-LABEL: func @view_of_halves
// CHECK: %[[VIEW:.*]] = memref.subview
// CHECK: scf.for %[[R:.*]] =
// CHECK:   scf.for %[[J:.*]] =
// CHECK:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:     %[[AHEAD:.*]] = arith.addi %[[R]], %[[C4]] : index
// CHECK:     memref.prefetch %[[VIEW]][%[[AHEAD]], %[[J]]], read, locality<3>, data
// CHECK:     vector.transfer_read %[[VIEW]]
// SMALL-LABEL: func @view_of_halves
// SMALL: memref.prefetch
func.func @view_of_halves(%in: memref<64x64x1024xf16>, %acc: memref<64x1024xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %pad = ub.poison : f16
  %padf = ub.poison : f32
  %image = memref.subview %in[%n, 0, 0] [1, 64, 1024] [1, 1, 1] : memref<64x64x1024xf16> to memref<64x1024xf16, strided<[1024, 1], offset: ?>>
  scf.for %r = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c1024 step %c16 {
      %x = vector.transfer_read %image[%r, %j], %pad {in_bounds = [true]} : memref<64x1024xf16, strided<[1024, 1], offset: ?>>, vector<16xf16>
      %w = arith.extf %x : vector<16xf16> to vector<16xf32>
      %a = vector.transfer_read %acc[%n, %j], %padf {in_bounds = [true]} : memref<64x1024xf32>, vector<16xf32>
      %s = arith.addf %a, %w : vector<16xf32>
      vector.transfer_write %s, %acc[%n, %j] {in_bounds = [true]} : vector<16xf32>, memref<64x1024xf32>
    } {aclop.streamed_rows}
  }
  return
}

// -----

// Rows of 16 KiB (longer than 8 KiB) and a row index no loop steps: 8 KiB on along the row.
// CHECK-LABEL: func @long_rows
// CHECK: %[[C2048:.*]] = arith.constant 2048 : index
// CHECK: %[[AHEAD:.*]] = arith.addi %{{.*}}, %[[C2048]] : index
// CHECK: memref.prefetch %arg0[%{{.*}}, %[[AHEAD]]]
// CHECK: %[[C2048B:.*]] = arith.constant 2048 : index
// CHECK: %[[AHEADB:.*]] = arith.addi %{{.*}}, %[[C2048B]] : index
// CHECK: memref.prefetch %arg1[%arg2, %[[AHEADB]]]
func.func @long_rows(%in: memref<512x4096xf32>, %other: memref<1024x1024xf32>, %fixed: index, %acc: memref<4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c512 = arith.constant 512 : index
  %c1024 = arith.constant 1024 : index
  %c4096 = arith.constant 4096 : index
  %pad = ub.poison : f32
  scf.for %r = %c0 to %c512 step %c1 {
    scf.for %j = %c0 to %c4096 step %c16 {
      %x = vector.transfer_read %in[%r, %j], %pad {in_bounds = [true]} : memref<512x4096xf32>, vector<16xf32>
      %a = vector.transfer_read %acc[%j], %pad {in_bounds = [true]} : memref<4096xf32>, vector<16xf32>
      %s = arith.addf %a, %x : vector<16xf32>
      vector.transfer_write %s, %acc[%j] {in_bounds = [true]} : vector<16xf32>, memref<4096xf32>
    } {aclop.streamed_rows}
  }
  scf.for %j = %c0 to %c1024 step %c16 {
    %y = vector.transfer_read %other[%fixed, %j], %pad {in_bounds = [true]} : memref<1024x1024xf32>, vector<16xf32>
    %a = vector.transfer_read %acc[%j], %pad {in_bounds = [true]} : memref<4096xf32>, vector<16xf32>
    %s = arith.addf %a, %y : vector<16xf32>
    vector.transfer_write %s, %acc[%j] {in_bounds = [true]} : vector<16xf32>, memref<4096xf32>
  } {aclop.streamed_rows}
  return
}

// -----

// CHECK-LABEL: func @none
// CHECK-NOT: memref.prefetch
// SMALL-LABEL: func @none
// SMALL-COUNT-1: memref.prefetch
// SMALL-NOT: memref.prefetch
func.func @none(%small: memref<64x64xf32>, %strided: memref<4096x1024xf32, strided<[2048, 1]>>, %acc: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %pad = ub.poison : f32
  // Under min-bytes (16 KiB).
  scf.for %r = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c16 {
      %x = vector.transfer_read %small[%r, %j], %pad {in_bounds = [true]} : memref<64x64xf32>, vector<16xf32>
      %a = vector.transfer_read %acc[%j], %pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
      %s = arith.addf %a, %x : vector<16xf32>
      vector.transfer_write %s, %acc[%j] {in_bounds = [true]} : vector<16xf32>, memref<1024xf32>
    } {aclop.streamed_rows}
  }
  // Rows 2048 floats apart: past a row's end is not the next row.
  scf.for %r = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c1024 step %c16 {
      %x = vector.transfer_read %strided[%r, %j], %pad {in_bounds = [true]} : memref<4096x1024xf32, strided<[2048, 1]>>, vector<16xf32>
      %a = vector.transfer_read %acc[%j], %pad {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
      %s = arith.addf %a, %x : vector<16xf32>
      vector.transfer_write %s, %acc[%j] {in_bounds = [true]} : vector<16xf32>, memref<1024xf32>
    }  {aclop.streamed_rows}
  }
  // Not marked.
  scf.for %r = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c1024 step %c16 {
      %x = vector.transfer_read %strided[%r, %j], %pad {in_bounds = [true]} : memref<4096x1024xf32, strided<[2048, 1]>>, vector<16xf32>
      vector.transfer_write %x, %acc[%j] {in_bounds = [true]} : vector<16xf32>, memref<1024xf32>
    }
  }
  return
}
