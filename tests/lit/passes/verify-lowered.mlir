// Anything left outside the LLVM dialect is an error naming the op.
// RUN: %op-opt %s -aclop-verify-lowered -split-input-file -verify-diagnostics

llvm.func @fine(%arg0: i32) -> i32 {
  llvm.return %arg0 : i32
}

// -----

func.func @leftover(%arg0: i32) -> i32 {
  // expected-error @below {{'arith.addi' was not lowered to the LLVM dialect}}
  %0 = arith.addi %arg0, %arg0 : i32
  return %0 : i32
}
