// An op with an empty loop (a GEMM with m, n or k of 0) is left a plain generic: its loops run
// no iteration (k = 0: the epilogue's beta C alone), and tiling a static 0 crashed in MLIR's
// tile size computation.
// RUN: %op-opt %s -convert-aclop-to-linalg -aclop-select-strategy=vector-bits=512 -aclop-tile-and-vectorize | FileCheck %s

// The product stays whole; its epilogue (over 5x5) is tiled as any element-wise op.
// CHECK-LABEL: func @gemm_empty_depth
// CHECK-NOT: scf.forall
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins({{.*}} : tensor<5x0xf32>, tensor<0x5xf32>)
// CHECK: scf.forall {{.*}} = (0, 0) to (5, 5)
func.func @gemm_empty_depth(%a: tensor<5x0xf32>, %b: tensor<0x5xf32>, %c: tensor<5x5xf32>,
                            %alpha: tensor<f32>, %beta: tensor<f32>) -> tensor<5x5xf32> {
  %r = aclop.gemm %a, %b, %c, %alpha, %beta : (tensor<5x0xf32>, tensor<0x5xf32>, tensor<5x5xf32>, tensor<f32>, tensor<f32>) -> tensor<5x5xf32>
  return %r : tensor<5x5xf32>
}

// CHECK-LABEL: func @add_no_rows
// CHECK-NOT: scf.forall
// CHECK: linalg.generic
func.func @add_no_rows(%x: tensor<0x7xf32>, %y: tensor<0x7xf32>) -> tensor<0x7xf32> {
  %r = aclop.add %x, %y : (tensor<0x7xf32>, tensor<0x7xf32>) -> tensor<0x7xf32>
  return %r : tensor<0x7xf32>
}
