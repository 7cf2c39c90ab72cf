// An expand_shape into two or more dynamic dims of one group becomes a reinterpret_cast of its
// source's base (expand-strided-metadata, LLVM 22, crashes on it): the sizes of output_shape,
// the innermost dim of a group at the source dim's stride, each outer one stepping over the
// sizes inside it. One dynamic dim a group is left to expand-strided-metadata.
// RUN: %op-opt %s -aclop-lower-dynamic-expand-shapes -split-input-file | FileCheck %s
// RUN: %op-opt %s -aclop-lower-dynamic-expand-shapes -expand-strided-metadata -split-input-file | FileCheck %s --check-prefix=EXPANDED

// A dynamic convolution's pixels split into its height and width.
// CHECK-LABEL: func @pixels
// CHECK-SAME: (%[[M:.*]]: memref<?x?x5xf32>, %[[N:.*]]: index, %[[H:.*]]: index, %[[W:.*]]: index)
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// CHECK: %[[BASE:.*]], %{{.*}}, %{{.*}}:3, %[[STRIDES:.*]]:3 = memref.extract_strided_metadata %[[M]]
// CHECK: %[[ROW:.*]] = arith.muli %[[W]], %[[C5]] : index
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%[[N]], %[[H]], %[[W]], 5], strides: [%[[STRIDES]]#0, %[[ROW]], 5, 1] : memref<f32> to memref<?x?x?x5xf32>
// CHECK-NOT: memref.expand_shape
// EXPANDED-LABEL: func @pixels
// EXPANDED-NOT: memref.expand_shape
func.func @pixels(%m: memref<?x?x5xf32>, %n: index, %h: index, %w: index) -> memref<?x?x?x5xf32> {
  %e = memref.expand_shape %m [[0], [1, 2], [3]] output_shape [%n, %h, %w, 5] : memref<?x?x5xf32> into memref<?x?x?x5xf32>
  return %e : memref<?x?x?x5xf32>
}

// -----

// A strided source at an offset, a static size between two dynamic ones.
// CHECK-LABEL: func @strided
// CHECK-SAME: (%[[M:.*]]: memref<?x?xf32, strided<[?, 2], offset: ?>>, %[[A:.*]]: index, %[[B:.*]]: index, %[[C:.*]]: index)
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[BASE:.*]], %[[OFFSET:.*]], %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[M]]
// CHECK: %[[MIDDLE:.*]] = arith.muli %[[STRIDES]]#0, %[[B]] : index
// CHECK: %[[OUTER:.*]] = arith.muli %[[MIDDLE]], %[[C3]] : index
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [%[[OFFSET]]], sizes: [%[[A]], 3, %[[B]], %[[C]]], strides: [%[[OUTER]], %[[MIDDLE]], %[[STRIDES]]#0, 2]
// EXPANDED-LABEL: func @strided
// EXPANDED-NOT: memref.expand_shape
func.func @strided(%m: memref<?x?xf32, strided<[?, 2], offset: ?>>, %a: index, %b: index, %c: index)
    -> memref<?x3x?x?xf32, strided<[?, ?, ?, 2], offset: ?>> {
  %e = memref.expand_shape %m [[0, 1, 2], [3]] output_shape [%a, 3, %b, %c]
      : memref<?x?xf32, strided<[?, 2], offset: ?>> into memref<?x3x?x?xf32, strided<[?, ?, ?, 2], offset: ?>>
  return %e : memref<?x3x?x?xf32, strided<[?, ?, ?, 2], offset: ?>>
}

// -----

// CHECK-LABEL: func @one_dynamic_a_group
// CHECK: memref.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape
// CHECK-NOT: memref.reinterpret_cast
func.func @one_dynamic_a_group(%m: memref<?x12xf32>, %a: index) -> memref<?x3x4xf32> {
  %e = memref.expand_shape %m [[0], [1, 2]] output_shape [%a, 3, 4] : memref<?x12xf32> into memref<?x3x4xf32>
  return %e : memref<?x3x4xf32>
}
