// Cache tiles marked with a ukernel become calls: per operand the aligned base pointer, the
// element offset and the strides of its two matrix dims (rows/depth for a, depth/columns for b,
// rows for c), then rows, columns and depth, then the epilogue's five arguments, all zero
// (accumulate mode: C += A B). B stored (n, k) passes its strides swapped. An accumulator that
// is a zero-filled temporary read only by GEMM's epilogue makes a scaled-mode call instead,
// which writes the epilogue's result.
// RUN: %op-opt %s -aclop-call-ukernels -split-input-file | FileCheck %s

// CHECK: func.func private @aclcpu_ukernel_gemm_s8s8s32_vnni(index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index)
// CHECK-LABEL: func @tile
// CHECK-DAG: %[[NONE:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[A:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK-DAG: %[[B:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK-DAG: %[[C:.*]] = memref.extract_aligned_pointer_as_index %arg2
// CHECK-DAG: %{{.*}}, %[[AOFF:.*]], %[[ASIZE:.*]]:2, %[[ASTRIDE:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK-DAG: %{{.*}}, %[[BOFF:.*]], %{{.*}}:2, %[[BSTRIDE:.*]]:2 = memref.extract_strided_metadata %arg1
// CHECK-DAG: %{{.*}}, %[[COFF:.*]], %[[CSIZE:.*]]:2, %[[CSTRIDE:.*]]:2 = memref.extract_strided_metadata %arg2
// CHECK: call @aclcpu_ukernel_gemm_s8s8s32_vnni(%[[A]], %[[AOFF]], %[[ASTRIDE]]#0, %[[ASTRIDE]]#1, %[[B]], %[[BOFF]], %[[BSTRIDE]]#1, %[[BSTRIDE]]#0, %[[C]], %[[COFF]], %[[CSTRIDE]]#0, %[[CSIZE]]#0, %[[CSIZE]]#1, %[[ASIZE]]#1, %[[NONE]], %[[NONE]], %[[NONE]], %[[NONE]], %[[NONE]], %[[NONE]])
// CHECK-NOT: linalg.generic
#lhs = affine_map<(m, k, n) -> (m, k)>
#rhsT = affine_map<(m, k, n) -> (n, k)>
#acc = affine_map<(m, k, n) -> (m, n)>
func.func @tile(%a: memref<?x?xi8, strided<[?, 1], offset: ?>>, %b: memref<?x?xi8, strided<[?, 1], offset: ?>>,
                %c: memref<?x?xi32, strided<[?, 1], offset: ?>>) {
  linalg.generic {indexing_maps = [#lhs, #rhsT, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<?x?xi8, strided<[?, 1], offset: ?>>, memref<?x?xi8, strided<[?, 1], offset: ?>>)
      outs(%c : memref<?x?xi32, strided<[?, 1], offset: ?>>)
      attrs = {aclop.strategy = {cache_tiles = array<i64: 64, 512, 512>, ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"}} {
  ^bb0(%l: i8, %r: i8, %o: i32):
    %le = arith.extsi %l : i8 to i32
    %re = arith.extsi %r : i8 to i32
    %p = arith.muli %le, %re : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// A batch tile of one (b broadcast over the batch): the batch dims are left to the offsets.
// CHECK-LABEL: func @batch_tile
// CHECK: call @aclcpu_ukernel_gemm_s8s8s32_vnni
// CHECK-NOT: linalg.generic
#lhs = affine_map<(b, m, k, n) -> (b, m, k)>
#rhs = affine_map<(b, m, k, n) -> (0, k, n)>
#acc = affine_map<(b, m, k, n) -> (b, m, n)>
func.func @batch_tile(%a: memref<1x8x16xi8, strided<[128, 16, 1], offset: ?>>, %b: memref<1x16x32xi8>,
                      %c: memref<1x8x32xi32, strided<[256, 32, 1], offset: ?>>) {
  linalg.generic {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<1x8x16xi8, strided<[128, 16, 1], offset: ?>>, memref<1x16x32xi8>)
      outs(%c : memref<1x8x32xi32, strided<[256, 32, 1], offset: ?>>)
      attrs = {aclop.strategy = {ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"}} {
  ^bb0(%l: i8, %r: i8, %o: i32):
    %le = arith.extsi %l : i8 to i32
    %re = arith.extsi %r : i8 to i32
    %p = arith.muli %le, %re : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// What does not fit the ABI stays a generic: several batches at once, or an accumulator
// whose columns are not contiguous.
// CHECK-LABEL: func @not_a_tile
// CHECK-NOT: call
// CHECK: linalg.generic
// CHECK: linalg.generic
#lhs = affine_map<(b, m, k, n) -> (b, m, k)>
#rhs = affine_map<(b, m, k, n) -> (b, k, n)>
#acc = affine_map<(b, m, k, n) -> (b, m, n)>
#lhs2 = affine_map<(m, k, n) -> (m, k)>
#rhs2 = affine_map<(m, k, n) -> (k, n)>
#acc2 = affine_map<(m, k, n) -> (m, n)>
func.func @not_a_tile(%a: memref<2x8x16xi8>, %b: memref<2x16x32xi8>, %c: memref<2x8x32xi32>,
                      %x: memref<8x16xi8>, %y: memref<16x32xi8>, %z: memref<8x32xi32, strided<[1, 8]>>) {
  linalg.generic {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<2x8x16xi8>, memref<2x16x32xi8>) outs(%c : memref<2x8x32xi32>)
      attrs = {aclop.strategy = {ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"}} {
  ^bb0(%l: i8, %r: i8, %o: i32):
    %le = arith.extsi %l : i8 to i32
    %re = arith.extsi %r : i8 to i32
    %p = arith.muli %le, %re : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  }
  linalg.generic {indexing_maps = [#lhs2, #rhs2, #acc2], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x, %y : memref<8x16xi8>, memref<16x32xi8>) outs(%z : memref<8x32xi32, strided<[1, 8]>>)
      attrs = {aclop.strategy = {ukernel = "aclcpu_ukernel_gemm_s8s8s32_vnni"}} {
  ^bb0(%l: i8, %r: i8, %o: i32):
    %le = arith.extsi %l : i8 to i32
    %re = arith.extsi %r : i8 to i32
    %p = arith.muli %le, %re : i32
    %s = arith.addi %o, %p : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// GEMM's epilogue folded into the call: c is the epilogue's result, then alpha's and beta's
// addresses (aligned base + offset x 4 bytes) and Cin as pointer, offset, row and column strides. The
// fill, the product and the epilogue go; the temporary is left to canonicalize.
// CHECK-LABEL: func @scaled
// CHECK-DAG: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[OUT:.*]] = memref.extract_aligned_pointer_as_index %arg5
// CHECK-DAG: %{{.*}}, %[[OUTOFF:.*]], %[[OUTSIZE:.*]]:2, %[[OUTSTRIDE:.*]]:2 = memref.extract_strided_metadata %arg5
// CHECK-DAG: %[[CIN:.*]] = memref.extract_aligned_pointer_as_index %arg2
// CHECK-DAG: %{{.*}}, %[[CINOFF:.*]], %{{.*}}:2, %[[CINSTRIDE:.*]]:2 = memref.extract_strided_metadata %arg2
// CHECK-DAG: %[[ALPHABASE:.*]] = memref.extract_aligned_pointer_as_index %arg3
// CHECK-DAG: %{{.*}}, %[[ALPHAOFF:.*]] = memref.extract_strided_metadata %arg3
// CHECK-DAG: %[[ALPHABYTES:.*]] = arith.muli %[[ALPHAOFF]], %[[FOUR]]
// CHECK-DAG: %[[ALPHA:.*]] = arith.addi %[[ALPHABASE]], %[[ALPHABYTES]]
// CHECK-DAG: %[[BETABASE:.*]] = memref.extract_aligned_pointer_as_index %arg4
// CHECK-DAG: %{{.*}}, %[[BETAOFF:.*]] = memref.extract_strided_metadata %arg4
// CHECK-DAG: %[[BETABYTES:.*]] = arith.muli %[[BETAOFF]], %[[FOUR]]
// CHECK-DAG: %[[BETA:.*]] = arith.addi %[[BETABASE]], %[[BETABYTES]]
// CHECK: call @aclcpu_ukernel_gemm_f32f32f32({{.*}}, %[[OUT]], %[[OUTOFF]], %[[OUTSTRIDE]]#0, %[[OUTSIZE]]#0, %[[OUTSIZE]]#1, %{{.*}}, %[[ALPHA]], %[[BETA]], %[[CIN]], %[[CINOFF]], %[[CINSTRIDE]]#0, %[[CINSTRIDE]]#1)
// CHECK-NOT: linalg.
// CHECK: memref.dealloc
#lhs = affine_map<(m, k, n) -> (m, k)>
#rhs = affine_map<(m, k, n) -> (k, n)>
#acc = affine_map<(m, k, n) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#scalar = affine_map<(m, n) -> ()>
func.func @scaled(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %c: memref<8x32xf32>, %alpha: memref<f32>,
                  %beta: memref<f32>, %out: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %tmp = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%tmp : memref<8x32xf32>)
  linalg.generic {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x16xf32>, memref<16x32xf32>) outs(%tmp : memref<8x32xf32>)
      attrs = {aclop.strategy = {ukernel = "aclcpu_ukernel_gemm_f32f32f32"}} {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #scalar, #scalar, #id], iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %c, %alpha, %beta : memref<8x32xf32>, memref<8x32xf32>, memref<f32>, memref<f32>)
      outs(%out : memref<8x32xf32>) {
  ^bb0(%acc: f32, %cin: f32, %al: f32, %be: f32, %o: f32):
    %scaled = arith.mulf %al, %acc : f32
    %bc = arith.mulf %be, %cin : f32
    %sum = arith.addf %scaled, %bc : f32
    %zero2 = arith.constant 0.0 : f32
    %isZero = arith.cmpf oeq, %be, %zero2 : f32
    %r = arith.select %isZero, %scaled, %sum : f32
    linalg.yield %r : f32
  }
  memref.dealloc %tmp : memref<8x32xf32>
  return
}

// -----

// The same with the temporary on the stack (promote-buffers-to-stack takes static ones up to
// 16 KiB): the epilogue is folded into the call all the same.
// CHECK-LABEL: func @scaled_on_stack
// CHECK: call @aclcpu_ukernel_gemm_f32f32f32(
// CHECK-NOT: linalg.
// CHECK: return
#lhs = affine_map<(m, k, n) -> (m, k)>
#rhs = affine_map<(m, k, n) -> (k, n)>
#acc = affine_map<(m, k, n) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#scalar = affine_map<(m, n) -> ()>
func.func @scaled_on_stack(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %c: memref<8x32xf32>, %alpha: memref<f32>,
                           %beta: memref<f32>, %out: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %tmp = memref.alloca() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%tmp : memref<8x32xf32>)
  linalg.generic {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x16xf32>, memref<16x32xf32>) outs(%tmp : memref<8x32xf32>)
      attrs = {aclop.strategy = {ukernel = "aclcpu_ukernel_gemm_f32f32f32"}} {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #scalar, #scalar, #id], iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %c, %alpha, %beta : memref<8x32xf32>, memref<8x32xf32>, memref<f32>, memref<f32>)
      outs(%out : memref<8x32xf32>) {
  ^bb0(%acc: f32, %cin: f32, %al: f32, %be: f32, %o: f32):
    %scaled = arith.mulf %al, %acc : f32
    %bc = arith.mulf %be, %cin : f32
    %sum = arith.addf %scaled, %bc : f32
    %zero2 = arith.constant 0.0 : f32
    %isZero = arith.cmpf oeq, %be, %zero2 : f32
    %r = arith.select %isZero, %scaled, %sum : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Not GEMM's epilogue (beta == 0 does not drop c), or the temporary read by anything else:
// the element-wise op and the copy stay, and each tile, right after the zero fill of its
// accumulator, becomes a scaled-mode call with alpha 1 and beta 0 (constant globals) that
// writes the accumulator without reading it (Cin is the accumulator, unread): the fill goes.
// CHECK-DAG: memref.global "private" constant @__aclop_zero_f32 : memref<f32> = dense<0.000000e+00>
// CHECK-DAG: memref.global "private" constant @__aclop_one_f32 : memref<f32> = dense<1.000000e+00>
// CHECK-LABEL: func @not_scaled
// CHECK-NOT: linalg.fill
// CHECK: %[[ACC:.*]] = memref.extract_aligned_pointer_as_index %alloc :
// CHECK: %[[ONE:.*]] = memref.get_global @__aclop_one_f32
// CHECK: %[[ZERO:.*]] = memref.get_global @__aclop_zero_f32
// CHECK: memref.extract_aligned_pointer_as_index %[[ONE]]
// CHECK: memref.extract_aligned_pointer_as_index %[[ZERO]]
// CHECK: call @aclcpu_ukernel_gemm_f32f32f32({{.*}}, %[[ACC]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ACC]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: linalg.generic
// CHECK-NOT: linalg.fill
// CHECK: memref.get_global @__aclop_one_f32
// CHECK: call @aclcpu_ukernel_gemm_f32f32f32(
// CHECK: linalg.generic
// CHECK: memref.copy
#lhs = affine_map<(m, k, n) -> (m, k)>
#rhs = affine_map<(m, k, n) -> (k, n)>
#acc = affine_map<(m, k, n) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#scalar = affine_map<(m, n) -> ()>
func.func @not_scaled(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %c: memref<8x32xf32>, %alpha: memref<f32>,
                      %beta: memref<f32>, %out: memref<8x32xf32>, %copy: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %tmp = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%tmp : memref<8x32xf32>)
  linalg.generic {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x16xf32>, memref<16x32xf32>) outs(%tmp : memref<8x32xf32>)
      attrs = {aclop.strategy = {ukernel = "aclcpu_ukernel_gemm_f32f32f32"}} {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #scalar, #scalar, #id], iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %c, %alpha, %beta : memref<8x32xf32>, memref<8x32xf32>, memref<f32>, memref<f32>)
      outs(%out : memref<8x32xf32>) {
  ^bb0(%acc: f32, %cin: f32, %al: f32, %be: f32, %o: f32):
    %scaled = arith.mulf %al, %acc : f32
    %bc = arith.mulf %be, %cin : f32
    %sum = arith.addf %scaled, %bc : f32
    linalg.yield %sum : f32
  }
  memref.dealloc %tmp : memref<8x32xf32>
  %tmp2 = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%tmp2 : memref<8x32xf32>)
  linalg.generic {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x16xf32>, memref<16x32xf32>) outs(%tmp2 : memref<8x32xf32>)
      attrs = {aclop.strategy = {ukernel = "aclcpu_ukernel_gemm_f32f32f32"}} {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #scalar, #scalar, #id], iterator_types = ["parallel", "parallel"]}
      ins(%tmp2, %c, %alpha, %beta : memref<8x32xf32>, memref<8x32xf32>, memref<f32>, memref<f32>)
      outs(%out : memref<8x32xf32>) {
  ^bb0(%acc: f32, %cin: f32, %al: f32, %be: f32, %o: f32):
    %scaled = arith.mulf %al, %acc : f32
    %bc = arith.mulf %be, %cin : f32
    %sum = arith.addf %scaled, %bc : f32
    %zero2 = arith.constant 0.0 : f32
    %isZero = arith.cmpf oeq, %be, %zero2 : f32
    %r = arith.select %isZero, %scaled, %sum : f32
    linalg.yield %r : f32
  }
  memref.copy %tmp2, %copy : memref<8x32xf32> to memref<8x32xf32>
  memref.dealloc %tmp2 : memref<8x32xf32>
  return
}

// -----

// A fill with anything between it and the tile stays, and the call accumulates into what it
// left (C += A B: the epilogue's six arguments zero).
// CHECK-LABEL: func @fill_apart
// CHECK: linalg.fill
// CHECK: memref.copy
// CHECK: call @aclcpu_ukernel_gemm_f32f32f32({{.*}}, %[[Z:.*]], %[[Z]], %[[Z]], %[[Z]], %[[Z]], %[[Z]])
// CHECK-NOT: memref.get_global
func.func @fill_apart(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %c: memref<8x32xf32>, %copy: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<8x32xf32>)
  memref.copy %c, %copy : memref<8x32xf32> to memref<8x32xf32>
  linalg.generic {indexing_maps = [affine_map<(m, k, n) -> (m, k)>, affine_map<(m, k, n) -> (k, n)>,
                                   affine_map<(m, k, n) -> (m, n)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x16xf32>, memref<16x32xf32>) outs(%c : memref<8x32xf32>)
      attrs = {aclop.strategy = {ukernel = "aclcpu_ukernel_gemm_f32f32f32"}} {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A MatMul's bias over N folded into the call the same way: alpha and beta both the constant 1,
// the bias as Cin with row stride 0 (every row reads it) and its own stride along the columns,
// the epilogue's result as c.
// CHECK: memref.global "private" constant @__aclop_one_f32 : memref<f32> = dense<1.000000e+00>
// CHECK-LABEL: func @bias
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[OUT:.*]] = memref.extract_aligned_pointer_as_index %arg3
// CHECK-DAG: %[[BIAS:.*]] = memref.extract_aligned_pointer_as_index %arg2
// CHECK-DAG: %{{.*}}, %[[BIASOFF:.*]], %{{.*}}, %[[BIASSTRIDE:.*]] = memref.extract_strided_metadata %arg2
// CHECK-DAG: %[[ONE:.*]] = memref.get_global @__aclop_one_f32
// CHECK-DAG: %[[ONEADDR:.*]] = memref.extract_aligned_pointer_as_index %[[ONE]]
// CHECK: call @aclcpu_ukernel_gemm_f32f32f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[OUT]], {{.*}}, %[[BIAS]], %[[BIASOFF]], %[[ZERO]], %[[BIASSTRIDE]])
// CHECK-NOT: linalg.
// CHECK: memref.dealloc
#lhs = affine_map<(m, k, n) -> (m, k)>
#rhs = affine_map<(m, k, n) -> (k, n)>
#acc = affine_map<(m, k, n) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#column = affine_map<(m, n) -> (n)>
func.func @bias(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %bias: memref<32xf32, strided<[1], offset: ?>>,
                %out: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %tmp = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%tmp : memref<8x32xf32>)
  linalg.generic {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x16xf32>, memref<16x32xf32>) outs(%tmp : memref<8x32xf32>)
      attrs = {aclop.strategy = {ukernel = "aclcpu_ukernel_gemm_f32f32f32"}} {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #column, #id], iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %bias : memref<8x32xf32>, memref<32xf32, strided<[1], offset: ?>>) outs(%out : memref<8x32xf32>) {
  ^bb0(%acc: f32, %add: f32, %o: f32):
    %sum = arith.addf %acc, %add : f32
    linalg.yield %sum : f32
  }
  memref.dealloc %tmp : memref<8x32xf32>
  return
}

// -----

// A bias along the rows (an NCHW convolution's, over its out channels): Cin is the bias with its
// own stride between rows and column stride 0 (each row broadcasts its element).
// CHECK-LABEL: func @row_bias
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[OUT:.*]] = memref.extract_aligned_pointer_as_index %arg3
// CHECK-DAG: %[[BIAS:.*]] = memref.extract_aligned_pointer_as_index %arg2
// CHECK-DAG: %{{.*}}, %[[BIASOFF:.*]], %{{.*}}, %[[BIASSTRIDE:.*]] = memref.extract_strided_metadata %arg2
// CHECK-DAG: %[[ONE:.*]] = memref.get_global @__aclop_one_f32
// CHECK-DAG: %[[ONEADDR:.*]] = memref.extract_aligned_pointer_as_index %[[ONE]]
// CHECK: call @aclcpu_ukernel_gemm_f32f32f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[OUT]], {{.*}}, %[[BIAS]], %[[BIASOFF]], %[[BIASSTRIDE]], %[[ZERO]])
// CHECK-NOT: linalg.
// CHECK: memref.dealloc
#lhs = affine_map<(m, k, n) -> (m, k)>
#rhs = affine_map<(m, k, n) -> (k, n)>
#acc = affine_map<(m, k, n) -> (m, n)>
#id = affine_map<(m, n) -> (m, n)>
#row = affine_map<(m, n) -> (m)>
func.func @row_bias(%a: memref<8x16xf32>, %b: memref<16x32xf32>, %bias: memref<8xf32, strided<[?], offset: ?>>,
                    %out: memref<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %tmp = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%tmp : memref<8x32xf32>)
  linalg.generic {indexing_maps = [#lhs, #rhs, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a, %b : memref<8x16xf32>, memref<16x32xf32>) outs(%tmp : memref<8x32xf32>)
      attrs = {aclop.strategy = {ukernel = "aclcpu_ukernel_gemm_f32f32f32"}} {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %bias : memref<8x32xf32>, memref<8xf32, strided<[?], offset: ?>>) outs(%out : memref<8x32xf32>) {
  ^bb0(%acc: f32, %add: f32, %o: f32):
    %sum = arith.addf %acc, %add : f32
    linalg.yield %sum : f32
  }
  memref.dealloc %tmp : memref<8x32xf32>
  return
}
