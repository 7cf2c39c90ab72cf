// A transposing read whose rows move with the innermost parallel induction variable is preceded
// by prefetches of the lines the same read reads one step (a block) further: a line per row.
// RUN: %op-opt %s -aclop-prefetch-transposed-blocks -split-input-file | FileCheck %s

// CHECK-LABEL: func @blocks
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK:   scf.for %[[A:.*]] =
// CHECK:     %[[COLUMN:.*]] = affine.apply #{{.*}}()[%[[I]], %[[A]]]
// CHECK:     scf.for %[[B:.*]] =
// CHECK:       %[[ROW:.*]] = affine.apply #{{.*}}()[%[[J]], %[[B]]]
// CHECK:       %[[C64:.*]] = arith.constant 64 : index
// CHECK:       %[[NEXT:.*]] = arith.addi %[[ROW]], %[[C64]] : index
// CHECK:       memref.prefetch %arg0[%[[NEXT]], %[[COLUMN]]], read, locality<3>, data : memref<256x256xf32>
// CHECK-COUNT-15: memref.prefetch %arg0[%{{.*}}, %[[COLUMN]]], read, locality<3>, data
// CHECK-NOT: memref.prefetch
// CHECK:       vector.transfer_read %arg0[%[[ROW]], %[[COLUMN]]]
#rows = affine_map<()[s0, s1] -> (s0 + s1)>
#transposed = affine_map<(d0, d1) -> (d1, d0)>
func.func @blocks(%in: memref<256x256xf32>, %out: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %pad = ub.poison : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c256, %c256) step (%c64, %c64) {
    scf.for %a = %c0 to %c64 step %c16 {
      %column = affine.apply #rows()[%i, %a]
      scf.for %b = %c0 to %c64 step %c16 {
        %row = affine.apply #rows()[%j, %b]
        %tile = vector.transfer_read %in[%row, %column], %pad {in_bounds = [true, true], permutation_map = #transposed} : memref<256x256xf32>, vector<16x16xf32>
        vector.transfer_write %tile, %out[%column, %row] {in_bounds = [true, true]} : vector<16x16xf32>, memref<256x256xf32>
      }
    }
    scf.reduce
  }
  return
}

// -----

// Left alone: reads that do not transpose, and a transposing read whose rows move with the
// outer induction variable (the next iteration does not read rows a step further).
// CHECK-LABEL: func @not_prefetched
// CHECK-NOT: memref.prefetch
#transposed = affine_map<(d0, d1) -> (d1, d0)>
func.func @not_prefetched(%in: memref<256x256xf32>, %out: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %pad = ub.poison : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c256, %c256) step (%c16, %c16) {
    %rows = vector.transfer_read %in[%i, %j], %pad {in_bounds = [true, true]} : memref<256x256xf32>, vector<16x16xf32>
    %tile = vector.transfer_read %in[%i, %j], %pad {in_bounds = [true, true], permutation_map = #transposed} : memref<256x256xf32>, vector<16x16xf32>
    %sum = arith.addf %rows, %tile : vector<16x16xf32>
    vector.transfer_write %sum, %out[%j, %i] {in_bounds = [true, true]} : vector<16x16xf32>, memref<256x256xf32>
    scf.reduce
  }
  return
}
