// The strategy is an attribute: vector lanes from the widest element type, tiles for
// element-wise ops that write in iteration order, cache tiles (rows, depth, columns) for products.
// RUN: %op-opt %s -convert-aclop-to-linalg -aclop-select-strategy=vector-bits=512 | FileCheck %s
// RUN: %op-opt %s -convert-aclop-to-linalg -aclop-select-strategy=vector-bits=256 | FileCheck %s --check-prefix=AVX2

// CHECK-LABEL: func @strategies
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {tile_sizes = array<i64: 1, 16>, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {tile_sizes = array<i64: 8>, vector_size = 8 : i64}}
// CHECK: linalg.transpose {{.*}} {aclop.strategy = {vector_size = 32 : i64}}
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

// CHECK-LABEL: func @products
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 64, 128, 512>, vector_size = 16 : i64}}
// CHECK: linalg.generic {{.*}} attrs = {aclop.strategy = {cache_tiles = array<i64: 1, 64, 128, 512>, vector_size = 16 : i64}}
func.func @products(%a: tensor<64x128xf32>, %b: tensor<128x96xf32>, %x: tensor<2x64x128xf32>, %y: tensor<2x128x96xf32>)
    -> (tensor<64x96xf32>, tensor<2x64x96xf32>) {
  %0 = aclop.matmul %a, %b : (tensor<64x128xf32>, tensor<128x96xf32>) -> tensor<64x96xf32>
  %1 = aclop.batch_matmul %x, %y : (tensor<2x64x128xf32>, tensor<2x128x96xf32>) -> tensor<2x64x96xf32>
  return %0, %1 : tensor<64x96xf32>, tensor<2x64x96xf32>
}

