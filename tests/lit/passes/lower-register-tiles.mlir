// After bufferization, a register tile reads and writes its accumulator through subviews in the
// k loop. Folded into the transfers, hoisted out of the loop, the accumulator is a loop-carried
// vector; the unit-dim reduction becomes an addf that may contract with its product (FMA).
// RUN: %op-opt %s -pass-pipeline='builtin.module(func.func(aclop-lower-register-tiles))' | FileCheck %s

// CHECK-LABEL: func @register_tile
// CHECK: %[[ACC:.*]] = vector.transfer_read %arg2[%arg3, %arg4]{{.*}} : memref<64x64xf32>, vector<8x32xf32>
// CHECK: %[[SUM:.*]] = scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%[[A:.*]] = %[[ACC]]) -> (vector<8x32xf32>)
// CHECK:   %[[P:.*]] = arith.mulf {{.*}} fastmath<contract> : vector<8x1x32xf32>
// CHECK:   arith.addf {{.*}} fastmath<contract> : vector<8x32xf32>
// CHECK: vector.transfer_write %[[SUM]], %arg2[%arg3, %arg4]
#a = affine_map<(d0, d1) -> (d0, 0, 0)>
#b = affine_map<(d0, d1) -> (0, 0, d1)>
func.func @register_tile(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>, %i: index, %j: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  scf.for %k = %c0 to %c64 step %c1 {
    %sa = memref.subview %a[%i, %k] [8, 1] [1, 1] : memref<64x64xf32> to memref<8x1xf32, strided<[64, 1], offset: ?>>
    %sb = memref.subview %b[%k, %j] [1, 32] [1, 1] : memref<64x64xf32> to memref<1x32xf32, strided<[64, 1], offset: ?>>
    %sc = memref.subview %c[%i, %j] [8, 32] [1, 1] : memref<64x64xf32> to memref<8x32xf32, strided<[64, 1], offset: ?>>
    %va = vector.transfer_read %sa[%c0, %c0], %pad {in_bounds = [true, true, true], permutation_map = #a}
        : memref<8x1xf32, strided<[64, 1], offset: ?>>, vector<8x1x32xf32>
    %vb = vector.transfer_read %sb[%c0, %c0], %pad {in_bounds = [true, true, true], permutation_map = #b}
        : memref<1x32xf32, strided<[64, 1], offset: ?>>, vector<8x1x32xf32>
    %vc = vector.transfer_read %sc[%c0, %c0], %pad {in_bounds = [true, true]}
        : memref<8x32xf32, strided<[64, 1], offset: ?>>, vector<8x32xf32>
    %p = arith.mulf %va, %vb fastmath<contract> : vector<8x1x32xf32>
    %s = vector.multi_reduction <add>, %p, %vc [1] : vector<8x1x32xf32> to vector<8x32xf32>
    vector.transfer_write %s, %sc[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xf32>, memref<8x32xf32, strided<[64, 1], offset: ?>>
  }
  return
}
