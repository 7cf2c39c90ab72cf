// A select of bf16 vectors becomes one of their bits (i16 vectors); other selects are left
// alone (pipeline/bf16-select-avx512bf16.mlir takes one through LLVM's x86 backend).
// RUN: %op-opt %s -aclop-bf16-selects-as-integers -split-input-file | FileCheck %s

// CHECK-LABEL: func @rows
// CHECK-SAME: (%[[C:.*]]: vector<17xi1>, %[[X:.*]]: vector<17xbf16>, %[[Y:.*]]: vector<17xbf16>)
// CHECK: %[[XB:.*]] = arith.bitcast %[[X]] : vector<17xbf16> to vector<17xi16>
// CHECK: %[[YB:.*]] = arith.bitcast %[[Y]] : vector<17xbf16> to vector<17xi16>
// CHECK: %[[S:.*]] = arith.select %[[C]], %[[XB]], %[[YB]] : vector<17xi1>, vector<17xi16>
// CHECK: %[[R:.*]] = arith.bitcast %[[S]] : vector<17xi16> to vector<17xbf16>
// CHECK: return %[[R]]
func.func @rows(%c: vector<17xi1>, %x: vector<17xbf16>, %y: vector<17xbf16>) -> vector<17xbf16> {
  %r = arith.select %c, %x, %y : vector<17xi1>, vector<17xbf16>
  return %r : vector<17xbf16>
}

// -----

// A scalar condition over vectors, too.
// CHECK-LABEL: func @whole
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<4x8xi16>
func.func @whole(%c: i1, %x: vector<4x8xbf16>, %y: vector<4x8xbf16>) -> vector<4x8xbf16> {
  %r = arith.select %c, %x, %y : vector<4x8xbf16>
  return %r : vector<4x8xbf16>
}

// -----

// CHECK-LABEL: func @left_alone
// CHECK-NOT: arith.bitcast
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : bf16
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<17xi1>, vector<17xf16>
func.func @left_alone(%c: i1, %a: bf16, %b: bf16, %m: vector<17xi1>, %x: vector<17xf16>, %y: vector<17xf16>)
    -> (bf16, vector<17xf16>) {
  %s = arith.select %c, %a, %b : bf16
  %r = arith.select %m, %x, %y : vector<17xi1>, vector<17xf16>
  return %s, %r : bf16, vector<17xf16>
}
