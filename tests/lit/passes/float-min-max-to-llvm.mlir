// Float maxima and minima (maximumf / minimumf, and maxnumf / minnumf) become LLVM's intrinsics
// (the same semantics), scalar and vector, before arith-expand could spell them as
// compare-and-select chains; integer ones stay.
// RUN: %op-opt %s -pass-pipeline='builtin.module(func.func(aclop-float-min-max-to-llvm))' | FileCheck %s

// CHECK-LABEL: func @min_max
// CHECK: llvm.intr.maximum(%arg0, %arg1) : (f32, f32) -> f32
// CHECK: llvm.intr.minimum(%arg2, %arg3) : (vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// CHECK: arith.maxsi
// CHECK: llvm.intr.maxnum(%arg0, %arg1) : (f32, f32) -> f32
// CHECK: llvm.intr.minnum(%arg2, %arg3) : (vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// CHECK-NOT: arith.maximumf
// CHECK-NOT: arith.minimumf
// CHECK-NOT: arith.maxnumf
// CHECK-NOT: arith.minnumf
func.func @min_max(%a: f32, %b: f32, %v: vector<8xf32>, %w: vector<8xf32>, %i: i32, %j: i32)
    -> (f32, vector<8xf32>, i32, f32, vector<8xf32>) {
  %0 = arith.maximumf %a, %b : f32
  %1 = arith.minimumf %v, %w : vector<8xf32>
  %2 = arith.maxsi %i, %j : i32
  %3 = arith.maxnumf %a, %b : f32
  %4 = arith.minnumf %v, %w : vector<8xf32>
  return %0, %1, %2, %3, %4 : f32, vector<8xf32>, i32, f32, vector<8xf32>
}
