// A gather of every s-th element (s = 2 to 4) of a contiguous memref, all lanes on, becomes one
// load of s x V elements of its flattened view and a shuffle of every s-th, where the load stays
// inside the buffer; the gather remains for the vector whose load would pass its end.
// RUN: %op-opt %s -split-input-file -aclop-lower-strided-gathers | FileCheck %s

// Lanes 2 x (%j + lane) + 32 x %r, as the vectorizer builds for a stride-2 window over rows of 32.
// CHECK-LABEL: func @stride_two
// CHECK: %[[J2:.*]] = arith.muli %arg2, %c2
// CHECK: %[[R32:.*]] = arith.muli %arg1, %c32
// CHECK: %[[FIRST:.*]] = arith.addi %[[J2]], %[[R32]] : index
// CHECK: %[[END:.*]] = arith.addi %[[FIRST]], %c16
// CHECK: %[[INSIDE:.*]] = arith.cmpi ule, %[[END]], %c256
// CHECK: scf.if %[[INSIDE]] -> (vector<8xf32>) {
// CHECK:   %[[FLAT:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [256], strides: [1] : memref<8x32xf32> to memref<256xf32>
// CHECK:   %[[WINDOW:.*]] = vector.load %[[FLAT]][%[[FIRST]]] : memref<256xf32>, vector<16xf32>
// CHECK:   %[[PICKED:.*]] = vector.shuffle %[[WINDOW]], %[[WINDOW]] [0, 2, 4, 6, 8, 10, 12, 14] : vector<16xf32>, vector<16xf32>
// CHECK:   scf.yield %[[PICKED]]
// CHECK: } else {
// CHECK:   vector.gather %arg0
// CHECK: return
func.func @stride_two(%m: memref<8x32xf32>, %r: index, %j: index) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %two = arith.constant dense<2> : vector<8xindex>
  %row = arith.constant dense<32> : vector<8xindex>
  %on = arith.constant dense<true> : vector<8xi1>
  %pass = arith.constant dense<0.0> : vector<8xf32>
  %step = vector.step : vector<8xindex>
  %jv = vector.broadcast %j : index to vector<8xindex>
  %cols = arith.addi %jv, %step : vector<8xindex>
  %strided = arith.muli %cols, %two : vector<8xindex>
  %rv = vector.broadcast %r : index to vector<8xindex>
  %rows = arith.muli %rv, %row : vector<8xindex>
  %idx = arith.addi %strided, %rows : vector<8xindex>
  %v = vector.gather %m[%c0, %c0] [%idx], %on, %pass : memref<8x32xf32>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %v : vector<8xf32>
}

// -----

// Stride 3 of 16 f16 lanes from a dynamic memref (its size read at run time), the index vector
// as a constant sequence plus a base, in the vectorizer's 1x16 shape.
// CHECK-LABEL: func @stride_three_dynamic
// CHECK: %[[ROWS:.*]] = memref.dim %arg0, %{{.*}} : memref<?x48xf16>
// CHECK: %[[SIZE:.*]] = arith.muli %[[ROWS]], %{{.*}} : index
// CHECK: %[[END:.*]] = arith.addi %arg1, %{{.*}} : index
// CHECK: %[[INSIDE:.*]] = arith.cmpi ule, %[[END]], %[[SIZE]]
// CHECK: scf.if %[[INSIDE]]
// CHECK:   %[[FLAT:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%[[SIZE]]], strides: [1] : memref<?x48xf16> to memref<?xf16>
// CHECK:   vector.load %[[FLAT]][%arg1] : memref<?xf16>, vector<48xf16>
// CHECK:   vector.shuffle %{{.*}} [0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45]
// CHECK:   vector.shape_cast %{{.*}} : vector<16xf16> to vector<1x16xf16>
// CHECK: else
// CHECK:   vector.gather
func.func @stride_three_dynamic(%m: memref<?x48xf16>, %b: index) -> vector<1x16xf16> {
  %c0 = arith.constant 0 : index
  %seq = arith.constant dense<[0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45]> : vector<16xindex>
  %on = arith.constant dense<true> : vector<1x16xi1>
  %pass = arith.constant dense<0.0> : vector<1x16xf16>
  %bv = vector.broadcast %b : index to vector<16xindex>
  %idx = arith.addi %bv, %seq : vector<16xindex>
  %idx2 = vector.broadcast %idx : vector<16xindex> to vector<1x16xindex>
  %v = vector.gather %m[%c0, %c0] [%idx2], %on, %pass : memref<?x48xf16>, vector<1x16xindex>, vector<1x16xi1>, vector<1x16xf16> into vector<1x16xf16>
  return %v : vector<1x16xf16>
}

// -----

// Left alone: stride 1 and stride 5, a mask not known to be all on, a memref with a strided
// layout, and indices read from memory.
// CHECK-LABEL: func @kept
// CHECK-NOT: scf.if
// CHECK-NOT: vector.shuffle
// CHECK-COUNT-5: vector.gather
// CHECK-NOT: scf.if
func.func @kept(%m: memref<256xf32>, %s: memref<8x32xf32, strided<[64, 1]>>, %mask: vector<8xi1>,
                %read: vector<8xindex>) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %c0 = arith.constant 0 : index
  %two = arith.constant dense<2> : vector<8xindex>
  %five = arith.constant dense<5> : vector<8xindex>
  %on = arith.constant dense<true> : vector<8xi1>
  %pass = arith.constant dense<0.0> : vector<8xf32>
  %step = vector.step : vector<8xindex>
  %by5 = arith.muli %step, %five : vector<8xindex>
  %by2 = arith.muli %step, %two : vector<8xindex>
  %0 = vector.gather %m[%c0] [%step], %on, %pass : memref<256xf32>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  %1 = vector.gather %m[%c0] [%by5], %on, %pass : memref<256xf32>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  %2 = vector.gather %m[%c0] [%by2], %mask, %pass : memref<256xf32>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  %3 = vector.gather %s[%c0, %c0] [%by2], %on, %pass : memref<8x32xf32, strided<[64, 1]>>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  %4 = vector.gather %m[%c0] [%read], %on, %pass : memref<256xf32>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %0, %1, %2, %3, %4 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
}

// -----

// A base broadcast from a one-lane vector (the vectorizer's vector<1xindex> of an index): lane 0
// is that vector's one element.
// CHECK-LABEL: func @one_lane_base
// CHECK: %[[BASE:.*]] = vector.extract %arg1[0] : index from vector<1xindex>
// CHECK: %[[END:.*]] = arith.addi %[[BASE]], %c16
// CHECK: scf.if
// CHECK:   vector.load %{{.*}}[%[[BASE]]] : memref<64xf32>, vector<16xf32>
func.func @one_lane_base(%m: memref<64xf32>, %b: vector<1xindex>) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %two = arith.constant dense<2> : vector<8xindex>
  %on = arith.constant dense<true> : vector<8xi1>
  %pass = arith.constant dense<0.0> : vector<8xf32>
  %step = vector.step : vector<8xindex>
  %bv = vector.broadcast %b : vector<1xindex> to vector<8xindex>
  %by2 = arith.muli %step, %two : vector<8xindex>
  %idx = arith.addi %bv, %by2 : vector<8xindex>
  %v = vector.gather %m[%c0] [%idx], %on, %pass : memref<64xf32>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %v : vector<8xf32>
}
