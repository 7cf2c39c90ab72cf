// f32 exp, log, tanh, erf and erfc, vectors and scalars alike, become polynomial or rational
// code (FMAs, selects, bit operations) that stays in vector registers; f64 keeps its libm
// calls, and other math ops (sin here) are left alone.
// RUN: %op-opt %s -aclop-approximate-math | FileCheck %s

// CHECK-LABEL: func @approximated
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK: math.fma {{.*}} : vector<8xf32>
// CHECK: return
func.func @approximated(%x: vector<8xf32>, %s: f32) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, f32) {
  %0 = math.exp %x : vector<8xf32>
  %1 = math.log %x : vector<8xf32>
  %2 = math.tanh %x : vector<8xf32>
  %3 = math.erf %x : vector<8xf32>
  %4 = math.erfc %x : vector<8xf32>
  %5 = math.exp %s : f32
  return %0, %1, %2, %3, %4, %5 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, f32
}

// erf is one rational function of |x| clamped to 3.925 (NaN kept: a compare and a select),
// numerator and denominator by Horner, held at 1 and given x's sign: no selects between
// intervals.
// CHECK-LABEL: func @erf_rational
// CHECK: %[[A:.*]] = math.absf %arg0 : vector<8xf32>
// CHECK: %[[OVER:.*]] = arith.cmpf ogt, %[[A]], %[[CLAMP:.*]] : vector<8xf32>
// CHECK: %[[AC:.*]] = arith.select %[[OVER]], %[[CLAMP]], %[[A]]
// CHECK: %[[T:.*]] = arith.mulf %[[AC]], %[[AC]]
// CHECK-COUNT-11: math.fma {{.*}}, %[[T]], {{.*}} : vector<8xf32>
// CHECK: %[[AP:.*]] = arith.mulf %[[AC]], %{{.*}}
// CHECK: %[[R:.*]] = arith.divf %[[AP]], %{{.*}}
// CHECK: %[[ABOVE:.*]] = arith.cmpf ogt, %[[R]], %[[ONE:.*]] : vector<8xf32>
// CHECK: %[[HELD:.*]] = arith.select %[[ABOVE]], %[[ONE]], %[[R]]
// CHECK: %[[Y:.*]] = math.copysign %[[HELD]], %arg0 : vector<8xf32>
// CHECK-NOT: arith.select
// CHECK: return %[[Y]]
func.func @erf_rational(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.erf %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// exp is 2^k e^r: x clamped (NaN kept), x log2(e) rounded by adding 1.5 * 2^23 + 127 in one
// FMA, that sum held at k = 127, k by a subtraction, r = x - k ln 2 in two FMAs, e^r as
// 1 + (r + r^2 Q(r)) with Q by Estrin's scheme, and 2^k as the sum's bits shifted into the
// exponent: no floor, no fptosi.
// CHECK-LABEL: func @exp_polynomial
// CHECK: %[[LOW:.*]] = arith.cmpf olt, %arg0, %{{.*}} : vector<8xf32>
// CHECK: %[[X1:.*]] = arith.select %[[LOW]], %{{.*}}, %arg0
// CHECK: %[[HIGH:.*]] = arith.cmpf ogt, %[[X1]], %{{.*}} : vector<8xf32>
// CHECK: %[[X:.*]] = arith.select %[[HIGH]], %{{.*}}, %[[X1]]
// CHECK: %[[SUM:.*]] = math.fma %[[X]], %[[LOG2E:.*]], %[[ROUNDING:.*]] : vector<8xf32>
// CHECK: %[[OVER:.*]] = arith.cmpf ogt, %[[SUM]], %{{.*}} : vector<8xf32>
// CHECK: %[[HELD:.*]] = arith.select %[[OVER]], %{{.*}}, %[[SUM]]
// CHECK: %[[K:.*]] = arith.subf %[[HELD]], %[[ROUNDING]] : vector<8xf32>
// CHECK: %[[R1:.*]] = math.fma %[[K]], %{{.*}}, %[[X]]
// CHECK: %[[R:.*]] = math.fma %[[K]], %{{.*}}, %[[R1]]
// CHECK: %[[R2:.*]] = arith.mulf %[[R]], %[[R]]
// CHECK-COUNT-3: math.fma %{{.*}}, %[[R]], %{{.*}} : vector<8xf32>
// CHECK: %[[Q1:.*]] = math.fma %{{.*}}, %[[R2]], %{{.*}}
// CHECK: %[[Q:.*]] = math.fma %[[Q1]], %[[R2]], %{{.*}}
// CHECK: %[[P1:.*]] = math.fma %[[Q]], %[[R2]], %[[R]]
// CHECK: %[[P:.*]] = arith.addf %[[P1]], %{{.*}} : vector<8xf32>
// CHECK: %[[BITS:.*]] = arith.bitcast %[[HELD]] : vector<8xf32> to vector<8xi32>
// CHECK: %[[SHIFTED:.*]] = arith.shli %[[BITS]], %{{.*}} : vector<8xi32>
// CHECK: %[[TWOK:.*]] = arith.bitcast %[[SHIFTED]] : vector<8xi32> to vector<8xf32>
// CHECK: %[[Y:.*]] = arith.mulf %[[P]], %[[TWOK]]
// CHECK-NOT: math.floor
// CHECK-NOT: arith.fptosi
// CHECK: return %[[Y]]
func.func @exp_polynomial(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.exp %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// CHECK-LABEL: func @kept
// CHECK: math.exp %{{.*}} : vector<4xf64>
// CHECK: math.sin %{{.*}} : vector<8xf32>
func.func @kept(%x: vector<4xf64>, %y: vector<8xf32>) -> (vector<4xf64>, vector<8xf32>) {
  %0 = math.exp %x : vector<4xf64>
  %1 = math.sin %y : vector<8xf32>
  return %0, %1 : vector<4xf64>, vector<8xf32>
}
