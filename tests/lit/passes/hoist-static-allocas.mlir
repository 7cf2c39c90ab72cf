// Static allocas in loop bodies move to the function's entry block (one allocation for every
// iteration, not one more each); an alloca sized at run time stays in place.
// RUN: %op-opt %s -aclop-hoist-static-allocas | FileCheck %s

// CHECK-LABEL: func @rows
// CHECK-NEXT: %[[STATIC:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1xf32>
// CHECK: scf.forall
// CHECK-NOT: memref.alloca() {alignment = 64 : i64} : memref<1xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[STATIC]] : memref<1xf32>)
// CHECK: scf.for
// CHECK:   memref.alloca(%{{.*}}) : memref<?xf32>
func.func @rows(%out: memref<8xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  scf.forall (%i) in (8) {
    %stat = memref.alloca() {alignment = 64 : i64} : memref<1xf32>
    linalg.fill ins(%zero : f32) outs(%stat : memref<1xf32>)
    %v = memref.load %stat[%c0] : memref<1xf32>
    memref.store %v, %out[%i] : memref<8xf32>
  }
  scf.for %j = %c0 to %n step %c1 {
    %dynamic = memref.alloca(%j) : memref<?xf32>
    linalg.fill ins(%zero : f32) outs(%dynamic : memref<?xf32>)
  }
  return
}
