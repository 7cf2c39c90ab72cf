// Copies between non-contiguous memrefs become parallel loops; contiguous ones stay.
// RUN: %op-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(aclop-lower-strided-copies))' | FileCheck %s

// CHECK-LABEL: func @strided
// CHECK-SAME: (%[[A:.*]]: memref<2x3xf32, strided<[43, 1]>>, %[[B:.*]]: memref<2x3xf32, strided<[43, 1], offset: 3>>)
// CHECK-NOT: memref.copy
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK:   %[[V:.*]] = memref.load %[[A]][%[[I]], %[[J]]]
// CHECK:   memref.store %[[V]], %[[B]][%[[I]], %[[J]]]
func.func @strided(%a: memref<2x3xf32, strided<[43, 1]>>, %b: memref<2x3xf32, strided<[43, 1], offset: 3>>) {
  memref.copy %a, %b : memref<2x3xf32, strided<[43, 1]>> to memref<2x3xf32, strided<[43, 1], offset: 3>>
  return
}

// -----

// Dynamic sizes come from the source.
// CHECK-LABEL: func @dynamic
// CHECK: %[[N:.*]] = memref.dim %arg0, %{{.*}}
// CHECK: %[[M:.*]] = memref.dim %arg0, %{{.*}}
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%[[N]], %[[M]])
func.func @dynamic(%a: memref<?x3xi8, strided<[43, 1], offset: ?>>, %b: memref<?x3xi8>) {
  memref.copy %a, %b : memref<?x3xi8, strided<[43, 1], offset: ?>> to memref<?x3xi8>
  return
}

// -----

// CHECK-LABEL: func @contiguous
// CHECK: memref.copy %arg0, %arg1
// CHECK-NOT: scf.parallel
func.func @contiguous(%a: memref<4x5xf32>, %b: memref<4x5xf32, strided<[5, 1], offset: 10>>) {
  memref.copy %a, %b : memref<4x5xf32> to memref<4x5xf32, strided<[5, 1], offset: 10>>
  return
}

// -----

// A copy onto itself does nothing.
// CHECK-LABEL: func @self
// CHECK-NEXT: return
func.func @self(%a: memref<2x3xf32, strided<[43, 1]>>) {
  memref.copy %a, %a : memref<2x3xf32, strided<[43, 1]>> to memref<2x3xf32, strided<[43, 1]>>
  return
}
