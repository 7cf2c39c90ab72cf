// f32 -> bf16 truncations of 8 or 16 lanes become vcvtneps2bf16; a vector holding a denormal
// (which the instruction reads as zero) takes the exact truncation for those lanes.
// RUN: %op-opt %s -split-input-file -aclop-fast-bf16-truncation | FileCheck %s
// RUN: %op-opt %s -split-input-file "-aclop-to-llvm=vector-bits=512 fast-bf16=1" | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func @truncate
// CHECK-SAME: (%[[X:.*]]: vector<16xf32>)
// CHECK: %[[FAST:.*]] = x86vector.avx512.cvt.packed.f32_to_bf16 %[[X]] : vector<16xf32> -> vector<16xbf16>
// CHECK: %[[BITS:.*]] = arith.bitcast %[[X]] : vector<16xf32> to vector<16xi32>
// CHECK: %[[EXPONENT:.*]] = arith.andi %[[BITS]], %{{.*}} : vector<16xi32>
// CHECK: %[[MANTISSA:.*]] = arith.andi %[[BITS]], %{{.*}} : vector<16xi32>
// CHECK: %[[DENORMAL:.*]] = arith.andi %{{.*}}, %{{.*}} : vector<16xi1>
// CHECK: %[[ANY:.*]] = vector.reduction <or>, %[[DENORMAL]] : vector<16xi1> into i1
// CHECK: %[[R:.*]] = scf.if %[[ANY]] -> (vector<16xbf16>) {
// CHECK:   %[[EXACT:.*]] = arith.truncf %[[X]] {aclop.exact} : vector<16xf32> to vector<16xbf16>
// CHECK:   %[[MERGED:.*]] = arith.select %[[DENORMAL]], %[[EXACT]], %[[FAST]]
// CHECK:   scf.yield %[[MERGED]]
// CHECK: } else {
// CHECK:   scf.yield %[[FAST]]
// CHECK: return %[[R]]
func.func @truncate(%x: vector<16xf32>) -> vector<16xbf16> {
  %r = arith.truncf %x : vector<16xf32> to vector<16xbf16>
  return %r : vector<16xbf16>
}

// Other widths and types are left to arith-expand and LLVM.
// CHECK-LABEL: func @untouched
// CHECK-NOT: x86vector
// CHECK: arith.truncf %{{.*}} : vector<4xf32> to vector<4xbf16>
// CHECK: arith.truncf %{{.*}} : vector<16xf32> to vector<16xf16>
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @untouched(%x: vector<4xf32>, %y: vector<16xf32>, %z: f32) -> (vector<4xbf16>, vector<16xf16>, bf16) {
  %a = arith.truncf %x : vector<4xf32> to vector<4xbf16>
  %b = arith.truncf %y : vector<16xf32> to vector<16xf16>
  %c = arith.truncf %z : f32 to bf16
  return %a, %b, %c : vector<4xbf16>, vector<16xf16>, bf16
}

// -----

// Through the pipeline: the instruction as an LLVM intrinsic, the exact path as integer rounding.
// LLVM-LABEL: llvm.func @cast_to_bf16(
// LLVM: llvm.call_intrinsic "llvm.x86.avx512bf16.cvtneps2bf16.512"
func.func @cast_to_bf16(%a: tensor<1000xf32>) -> tensor<1000xbf16> {
  %r = aclop.cast %a {dst_type = bf16} : (tensor<1000xf32>) -> tensor<1000xbf16>
  return %r : tensor<1000xbf16>
}
