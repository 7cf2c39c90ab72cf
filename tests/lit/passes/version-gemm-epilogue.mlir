// A register tile's write of GEMM's epilogue goes under scf.if (alpha == 1 && beta == 0): then
// the accumulator is stored alone (truncated like the epilogue's result), else the epilogue,
// C's read included, runs as before. Writes of anything else are left alone.
// RUN: %op-opt %s -pass-pipeline='builtin.module(func.func(aclop-version-gemm-epilogue))' | FileCheck %s

#scalar = affine_map<() -> (0, 0)>

// CHECK-LABEL: func @f32_tile
// CHECK: %[[ACC:.*]] = scf.for
// CHECK-DAG: %[[BETA:.*]] = memref.load %arg3[] : memref<f32>
// CHECK-DAG: %[[ALPHA:.*]] = memref.load %arg2[] : memref<f32>
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[B0:.*]] = arith.cmpf oeq, %[[BETA]], %[[ZERO]] : f32
// CHECK-DAG: %[[A1:.*]] = arith.cmpf oeq, %[[ALPHA]], %[[ONE]] : f32
// CHECK: %[[UNIT:.*]] = arith.andi %[[A1]], %[[B0]] : i1
// CHECK-NEXT: scf.if %[[UNIT]] {
// CHECK-NEXT:   vector.transfer_write %[[ACC]], %arg4[%arg5, %arg6]
// CHECK-NEXT: {{^ *}}} else {
// CHECK-DAG:    vector.transfer_read %arg1[%arg5, %arg6]
// CHECK-DAG:    arith.mulf
// CHECK:        %[[R:.*]] = arith.select
// CHECK-NEXT:   vector.transfer_write %[[R]], %arg4[%arg5, %arg6]
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: return
func.func @f32_tile(%a: memref<64x64xf32>, %c: memref<64x64xf32>, %alpha: memref<f32>, %beta: memref<f32>,
                    %out: memref<64x64xf32>, %i: index, %j: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.0> : vector<8x32xf32>
  %pad = arith.constant 0.0 : f32
  %acc = scf.for %k = %c0 to %c64 step %c1 iter_args(%sum = %zero) -> (vector<8x32xf32>) {
    %row = vector.transfer_read %a[%i, %k], %pad {in_bounds = [true, true]} : memref<64x64xf32>, vector<8x32xf32>
    %next = arith.addf %sum, %row : vector<8x32xf32>
    scf.yield %next : vector<8x32xf32>
  }
  %vc = vector.transfer_read %c[%i, %j], %pad {in_bounds = [true, true]} : memref<64x64xf32>, vector<8x32xf32>
  %valpha = vector.transfer_read %alpha[], %pad {in_bounds = [true, true], permutation_map = #scalar} : memref<f32>, vector<8x32xf32>
  %vbeta = vector.transfer_read %beta[], %pad {in_bounds = [true, true], permutation_map = #scalar} : memref<f32>, vector<8x32xf32>
  %scaled = arith.mulf %valpha, %acc : vector<8x32xf32>
  %withC = arith.mulf %vbeta, %vc : vector<8x32xf32>
  %sum = arith.addf %scaled, %withC : vector<8x32xf32>
  %betaZero = arith.cmpf oeq, %vbeta, %zero : vector<8x32xf32>
  %result = arith.select %betaZero, %scaled, %sum : vector<8x32xi1>, vector<8x32xf32>
  vector.transfer_write %result, %out[%i, %j] {in_bounds = [true, true]} : vector<8x32xf32>, memref<64x64xf32>
  return
}

// An f16 result, alpha and beta: the scalars are read off the widened vectors, and the
// accumulator is truncated like the epilogue's result.
// CHECK-LABEL: func @f16_result
// CHECK: %[[ACC:.*]] = scf.for
// CHECK-DAG: vector.extract %{{.*}}[0, 0] : f32 from vector<8x32xf32>
// CHECK: scf.if
// CHECK-NEXT:   %[[T:.*]] = arith.truncf %[[ACC]] : vector<8x32xf32> to vector<8x32xf16>
// CHECK-NEXT:   vector.transfer_write %[[T]], %arg4
// CHECK-NEXT: {{^ *}}} else {
// CHECK:        arith.select
// CHECK:        arith.truncf
// CHECK:        vector.transfer_write
func.func @f16_result(%a: memref<64x64xf32>, %c: memref<64x64xf16>, %alpha: memref<f16>, %beta: memref<f16>,
                      %out: memref<64x64xf16>, %i: index, %j: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.0> : vector<8x32xf32>
  %pad = arith.constant 0.0 : f32
  %pad16 = arith.constant 0.0 : f16
  %acc = scf.for %k = %c0 to %c64 step %c1 iter_args(%sum = %zero) -> (vector<8x32xf32>) {
    %row = vector.transfer_read %a[%i, %k], %pad {in_bounds = [true, true]} : memref<64x64xf32>, vector<8x32xf32>
    %next = arith.addf %sum, %row : vector<8x32xf32>
    scf.yield %next : vector<8x32xf32>
  }
  %c16 = vector.transfer_read %c[%i, %j], %pad16 {in_bounds = [true, true]} : memref<64x64xf16>, vector<8x32xf16>
  %alpha16 = vector.transfer_read %alpha[], %pad16 {in_bounds = [true, true], permutation_map = #scalar} : memref<f16>, vector<8x32xf16>
  %beta16 = vector.transfer_read %beta[], %pad16 {in_bounds = [true, true], permutation_map = #scalar} : memref<f16>, vector<8x32xf16>
  %vc = arith.extf %c16 : vector<8x32xf16> to vector<8x32xf32>
  %valpha = arith.extf %alpha16 : vector<8x32xf16> to vector<8x32xf32>
  %vbeta = arith.extf %beta16 : vector<8x32xf16> to vector<8x32xf32>
  %scaled = arith.mulf %valpha, %acc : vector<8x32xf32>
  %withC = arith.mulf %vbeta, %vc : vector<8x32xf32>
  %sum = arith.addf %scaled, %withC : vector<8x32xf32>
  %betaZero = arith.cmpf oeq, %vbeta, %zero : vector<8x32xf32>
  %result = arith.select %betaZero, %scaled, %sum : vector<8x32xi1>, vector<8x32xf32>
  %narrow = arith.truncf %result : vector<8x32xf32> to vector<8x32xf16>
  vector.transfer_write %narrow, %out[%i, %j] {in_bounds = [true, true]} : vector<8x32xf16>, memref<64x64xf16>
  return
}

// Not an epilogue (the product's operands are both loop results, no accumulator to tell from
// alpha; and a plain write): untouched.
// CHECK-LABEL: func @not_an_epilogue
// CHECK-NOT: scf.if
// CHECK: return
func.func @not_an_epilogue(%x: vector<8x32xf32>, %y: vector<8x32xf32>, %c: vector<8x32xf32>, %beta: vector<8x32xf32>,
                           %out: memref<64x64xf32>, %i: index, %j: index) {
  %zero = arith.constant dense<0.0> : vector<8x32xf32>
  %scaled = arith.mulf %x, %y : vector<8x32xf32>
  %withC = arith.mulf %beta, %c : vector<8x32xf32>
  %sum = arith.addf %scaled, %withC : vector<8x32xf32>
  %betaZero = arith.cmpf oeq, %beta, %zero : vector<8x32xf32>
  %result = arith.select %betaZero, %scaled, %sum : vector<8x32xi1>, vector<8x32xf32>
  vector.transfer_write %result, %out[%i, %j] {in_bounds = [true, true]} : vector<8x32xf32>, memref<64x64xf32>
  vector.transfer_write %x, %out[%j, %i] {in_bounds = [true, true]} : vector<8x32xf32>, memref<64x64xf32>
  return
}
