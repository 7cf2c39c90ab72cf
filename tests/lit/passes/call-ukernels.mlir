// Cache tiles marked with a ukernel become calls: per operand the aligned base pointer, the
// element offset and the strides of its two matrix dims (rows/depth for a, depth/columns for b,
// rows for c), then rows, columns and depth. B stored (n, k) passes its strides swapped.
// RUN: %op-opt %s -aclop-call-ukernels -split-input-file | FileCheck %s

// CHECK: func.func private @aclcpu_ukernel_gemm_s8s8s32_vnni(index, index, index, index, index, index, index, index, index, index, index, index, index, index)
// CHECK-LABEL: func @tile
// CHECK-DAG: %[[A:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK-DAG: %[[B:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK-DAG: %[[C:.*]] = memref.extract_aligned_pointer_as_index %arg2
// CHECK-DAG: %{{.*}}, %[[AOFF:.*]], %[[ASIZE:.*]]:2, %[[ASTRIDE:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK-DAG: %{{.*}}, %[[BOFF:.*]], %{{.*}}:2, %[[BSTRIDE:.*]]:2 = memref.extract_strided_metadata %arg1
// CHECK-DAG: %{{.*}}, %[[COFF:.*]], %[[CSIZE:.*]]:2, %[[CSTRIDE:.*]]:2 = memref.extract_strided_metadata %arg2
// CHECK: call @aclcpu_ukernel_gemm_s8s8s32_vnni(%[[A]], %[[AOFF]], %[[ASTRIDE]]#0, %[[ASTRIDE]]#1, %[[B]], %[[BOFF]], %[[BSTRIDE]]#1, %[[BSTRIDE]]#0, %[[C]], %[[COFF]], %[[CSTRIDE]]#0, %[[CSIZE]]#0, %[[CSIZE]]#1, %[[ASIZE]]#1)
// CHECK-NOT: linalg.generic
#lhs = affine_map<(m, k, n) -> (m, k)>
#rhsT = affine_map<(m, k, n) -> (n, k)>
#acc = affine_map<(m, k, n) -> (m, n)>
func.func @tile(%a: memref<?x?xi8, strided<[?, 1], offset: ?>>, %b: memref<?x?xi8, strided<[?, 1], offset: ?>>,
                %c: memref<?x?xi32, strided<[?, 1], offset: ?>>) {
  linalg.generic {indexing_maps = [#lhs, #rhsT, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<?x?xi8, strided<[?, 1], offset: ?>>, memref<?x?xi8, strided<[?, 1], offset: ?>>)
      outs(%c : memref<?x?xi32, strided<[?, 1], offset: ?>>)
      attrs = {aclop.strategy = {cache_tiles = array<i64: 64, 512, 512>, ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"}} {
  ^bb0(%l: i8, %r: i8, %o: i32):
    %le = arith.extsi %l : i8 to i32
    %re = arith.extsi %r : i8 to i32
    %p = arith.muli %le, %re : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// A batch tile of one (b broadcast over the batch): the batch dims are left to the offsets.
// CHECK-LABEL: func @batch_tile
// CHECK: call @aclcpu_ukernel_gemm_s8s8s32_vnni
// CHECK-NOT: linalg.generic
#lhs = affine_map<(b, m, k, n) -> (b, m, k)>
#rhs = affine_map<(b, m, k, n) -> (0, k, n)>
#acc = affine_map<(b, m, k, n) -> (b, m, n)>
func.func @batch_tile(%a: memref<1x8x16xi8, strided<[128, 16, 1], offset: ?>>, %b: memref<1x16x32xi8>,
                      %c: memref<1x8x32xi32, strided<[256, 32, 1], offset: ?>>) {
  linalg.generic {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<1x8x16xi8, strided<[128, 16, 1], offset: ?>>, memref<1x16x32xi8>)
      outs(%c : memref<1x8x32xi32, strided<[256, 32, 1], offset: ?>>)
      attrs = {aclop.strategy = {ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"}} {
  ^bb0(%l: i8, %r: i8, %o: i32):
    %le = arith.extsi %l : i8 to i32
    %re = arith.extsi %r : i8 to i32
    %p = arith.muli %le, %re : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// What does not fit the ABI stays a generic: several batches at once, or an accumulator
// whose columns are not contiguous.
// CHECK-LABEL: func @not_a_tile
// CHECK-NOT: call
// CHECK: linalg.generic
// CHECK: linalg.generic
#lhs = affine_map<(b, m, k, n) -> (b, m, k)>
#rhs = affine_map<(b, m, k, n) -> (b, k, n)>
#acc = affine_map<(b, m, k, n) -> (b, m, n)>
#lhs2 = affine_map<(m, k, n) -> (m, k)>
#rhs2 = affine_map<(m, k, n) -> (k, n)>
#acc2 = affine_map<(m, k, n) -> (m, n)>
func.func @not_a_tile(%a: memref<2x8x16xi8>, %b: memref<2x16x32xi8>, %c: memref<2x8x32xi32>,
                      %x: memref<8x16xi8>, %y: memref<16x32xi8>, %z: memref<8x32xi32, strided<[1, 8]>>) {
  linalg.generic {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<2x8x16xi8>, memref<2x16x32xi8>) outs(%c : memref<2x8x32xi32>)
      attrs = {aclop.strategy = {ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"}} {
  ^bb0(%l: i8, %r: i8, %o: i32):
    %le = arith.extsi %l : i8 to i32
    %re = arith.extsi %r : i8 to i32
    %p = arith.muli %le, %re : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  }
  linalg.generic {indexing_maps = [#lhs2, #rhs2, #acc2], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x, %y : memref<8x16xi8>, memref<16x32xi8>) outs(%z : memref<8x32xi32, strided<[1, 8]>>)
      attrs = {aclop.strategy = {ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"}} {
  ^bb0(%l: i8, %r: i8, %o: i32):
    %le = arith.extsi %l : i8 to i32
    %re = arith.extsi %r : i8 to i32
    %p = arith.muli %le, %re : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  }
  return
}
