// A function marked aclop.kernel must end with the block index and count.
// RUN: %op-opt %s -aclop-map-to-kernel-abi -verify-diagnostics

// expected-error @below {{aclop.kernel functions take buffers, then the block index and count, and return nothing}}
func.func @k(%in: memref<8xf32>) attributes {aclop.kernel = "bad"} {
  return
}
