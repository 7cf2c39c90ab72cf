// 2-D transposes of 16- and 8-bit elements become one shuffle of the flattened vector; with
// 512-bit vectors a 16x16 32-bit one and square 16- and 8-bit ones whose rows are whole vectors
// become unpacks and 128-bit lane shuffles; other 32-bit ones and higher-rank ones that move more
// than two dims of more than one element are left to convert-vector-to-llvm.
// RUN: %op-opt %s -aclop-lower-transposes | FileCheck %s
// RUN: %op-opt %s -aclop-lower-transposes=vector-bits=512 | FileCheck %s --check-prefix=WIDE

// CHECK-LABEL: func @narrow
// CHECK: %[[F16:.*]] = vector.shape_cast %arg0 : vector<16x16xf16> to vector<256xf16>
// CHECK: %[[SHUFFLED:.*]] = vector.shuffle %[[F16]], %[[F16]] [0, 16, 32,
// CHECK: vector.shape_cast %[[SHUFFLED]] : vector<256xf16> to vector<16x16xf16>
// CHECK: vector.shape_cast %arg1 : vector<32x8xi8> to vector<256xi8>
// CHECK: vector.shuffle
// CHECK-NOT: vector.transpose
// CHECK: return
func.func @narrow(%a: vector<16x16xf16>, %b: vector<32x8xi8>) -> (vector<16x16xf16>, vector<8x32xi8>) {
  %0 = vector.transpose %a, [1, 0] : vector<16x16xf16> to vector<16x16xf16>
  %1 = vector.transpose %b, [1, 0] : vector<32x8xi8> to vector<8x32xi8>
  return %0, %1 : vector<16x16xf16>, vector<8x32xi8>
}

// CHECK-LABEL: func @kept
// CHECK: vector.transpose %arg0, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK: vector.transpose %arg1, [1, 0, 2] : vector<2x4x8xf16> to vector<4x2x8xf16>
// CHECK-NOT: vector.shuffle
func.func @kept(%a: vector<8x8xf32>, %b: vector<2x4x8xf16>) -> (vector<8x8xf32>, vector<4x2x8xf16>) {
  %0 = vector.transpose %a, [1, 0] : vector<8x8xf32> to vector<8x8xf32>
  %1 = vector.transpose %b, [1, 0, 2] : vector<2x4x8xf16> to vector<4x2x8xf16>
  return %0, %1 : vector<8x8xf32>, vector<4x2x8xf16>
}

// A 16x16 f32 tile: kept without 512-bit vectors; with them, 64 shuffles of 16-lane rows and no
// transpose left.
// CHECK-LABEL: func @square
// CHECK: vector.transpose %arg0, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// WIDE-LABEL: func @square
// WIDE-NOT: vector.transpose
// WIDE-COUNT-64: vector.shuffle {{.*}} : vector<16xf32>, vector<16xf32>
// WIDE-NOT: vector.shuffle
// WIDE: return
func.func @square(%a: vector<16x16xf32>) -> vector<16x16xf32> {
  %0 = vector.transpose %a, [1, 0] : vector<16x16xf32> to vector<16x16xf32>
  return %0 : vector<16x16xf32>
}

// A 32x32 f16 tile: one flattened shuffle without 512-bit vectors; with them, 160 shuffles of
// 32-lane rows (unpacks of 1, 2 and 4 elements, then two rounds of 128-bit lane selects).
// CHECK-LABEL: func @half_tile
// CHECK: vector.shape_cast %arg0 : vector<32x32xf16> to vector<1024xf16>
// WIDE-LABEL: func @half_tile
// WIDE-NOT: vector.transpose
// WIDE: %[[LO:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 32, 1, 33, 2, 34, 3, 35, 8, 40, 9, 41, 10, 42, 11, 43, 16, 48, 17, 49, 18, 50, 19, 51, 24, 56, 25, 57, 26, 58, 27, 59] : vector<32xf16>, vector<32xf16>
// WIDE-COUNT-159: vector.shuffle {{.*}} : vector<32xf16>, vector<32xf16>
// WIDE-NOT: vector.shuffle
// WIDE: return
func.func @half_tile(%a: vector<32x32xf16>) -> vector<32x32xf16> {
  %0 = vector.transpose %a, [1, 0] : vector<32x32xf16> to vector<32x32xf16>
  return %0 : vector<32x32xf16>
}

// A 64x64 i8 tile: with 512-bit vectors, 384 shuffles of 64-lane rows (unpacks of 1, 2, 4 and 8
// bytes, then two rounds of 128-bit lane selects).
// CHECK-LABEL: func @byte_tile
// CHECK: vector.shape_cast %arg0 : vector<64x64xi8> to vector<4096xi8>
// WIDE-LABEL: func @byte_tile
// WIDE-NOT: vector.transpose
// WIDE: vector.shuffle %{{.*}}, %{{.*}} [0, 64, 1, 65, 2, 66, 3, 67, 4, 68, 5, 69, 6, 70, 7, 71, 16, 80, 17, 81, 18, 82, 19, 83, 20, 84, 21, 85, 22, 86, 23, 87, 32, 96, 33, 97, 34, 98, 35, 99, 36, 100, 37, 101, 38, 102, 39, 103, 48, 112, 49, 113, 50, 114, 51, 115, 52, 116, 53, 117, 54, 118, 55, 119] : vector<64xi8>, vector<64xi8>
// WIDE-COUNT-255: vector.shuffle {{.*}} : vector<64xi8>, vector<64xi8>
// WIDE: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111] : vector<64xi8>, vector<64xi8>
// WIDE-COUNT-127: vector.shuffle {{.*}} : vector<64xi8>, vector<64xi8>
// WIDE-NOT: vector.shuffle
// WIDE: return
func.func @byte_tile(%a: vector<64x64xi8>) -> vector<64x64xi8> {
  %0 = vector.transpose %a, [1, 0] : vector<64x64xi8> to vector<64x64xi8>
  return %0 : vector<64x64xi8>
}

// Unit dims dropped: a 64x1x64 tile transposed [2, 1, 0] is a 2-D transpose between shape casts
// (then lowered as any 2-D one); one that keeps its two long dims in order is a shape cast.
// CHECK-LABEL: func @unit_dims
// CHECK: %[[FLAT:.*]] = vector.shape_cast %arg0 : vector<64x1x64xi8> to vector<64x64xi8>
// CHECK: vector.shape_cast %[[FLAT]] : vector<64x64xi8> to vector<4096xi8>
// CHECK: vector.shuffle
// CHECK: vector.shape_cast %{{.*}} : vector<64x64xi8> to vector<64x1x64xi8>
// CHECK: vector.shape_cast %arg1 : vector<4x1x8xf32> to vector<1x4x8xf32>
// CHECK-NOT: vector.transpose
// CHECK: return
// WIDE-LABEL: func @unit_dims
// WIDE-COUNT-384: vector.shuffle {{.*}} : vector<64xi8>, vector<64xi8>
// WIDE-NOT: vector.transpose
// WIDE: return
func.func @unit_dims(%a: vector<64x1x64xi8>, %b: vector<4x1x8xf32>) -> (vector<64x1x64xi8>, vector<1x4x8xf32>) {
  %0 = vector.transpose %a, [2, 1, 0] : vector<64x1x64xi8> to vector<64x1x64xi8>
  %1 = vector.transpose %b, [1, 0, 2] : vector<4x1x8xf32> to vector<1x4x8xf32>
  return %0, %1 : vector<64x1x64xi8>, vector<1x4x8xf32>
}
