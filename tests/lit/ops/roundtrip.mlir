// Every aclop op parses, prints and parses again to the same IR.
// RUN: %op-opt %s | %op-opt | FileCheck %s

// CHECK-LABEL: func @products
func.func @products(%a: tensor<4x8xf16>, %b: tensor<16x8xf16>, %c: tensor<4x16xf32>, %s: tensor<f32>,
                    %i: tensor<?x8xi8>, %j: tensor<8x3xi8>, %x: tensor<2x4x8xbf16>, %y: tensor<1x8x3xbf16>) {
  // CHECK: aclop.gemm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {transpose_b = true} : (tensor<4x8xf16>, tensor<16x8xf16>, tensor<4x16xf32>, tensor<f32>, tensor<f32>) -> tensor<4x16xf32>
  %0 = aclop.gemm %a, %b, %c, %s, %s {transpose_b = true} : (tensor<4x8xf16>, tensor<16x8xf16>, tensor<4x16xf32>, tensor<f32>, tensor<f32>) -> tensor<4x16xf32>
  // CHECK: aclop.gemm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {low_precision = true, transpose_b = true} : (tensor<4x8xf16>, tensor<16x8xf16>, tensor<4x16xf32>, tensor<f32>, tensor<f32>) -> tensor<4x16xf32>
  %low = aclop.gemm %a, %b, %c, %s, %s {transpose_b = true, low_precision = true} : (tensor<4x8xf16>, tensor<16x8xf16>, tensor<4x16xf32>, tensor<f32>, tensor<f32>) -> tensor<4x16xf32>
  // CHECK: aclop.matmul %{{.*}}, %{{.*}} : (tensor<?x8xi8>, tensor<8x3xi8>) -> tensor<?x3xi32>
  %1 = aclop.matmul %i, %j : (tensor<?x8xi8>, tensor<8x3xi8>) -> tensor<?x3xi32>
  // CHECK: aclop.matmul %{{.*}}, %{{.*}} {result_type = f32, transpose_a = true} : (tensor<16x8xf16>, tensor<16x8xf16>) -> tensor<8x8xf32>
  %2 = aclop.matmul %b, %b {transpose_a = true, result_type = f32} : (tensor<16x8xf16>, tensor<16x8xf16>) -> tensor<8x8xf32>
  // CHECK: aclop.batch_matmul %{{.*}}, %{{.*}} : (tensor<2x4x8xbf16>, tensor<1x8x3xbf16>) -> tensor<2x4x3xbf16>
  %3 = aclop.batch_matmul %x, %y : (tensor<2x4x8xbf16>, tensor<1x8x3xbf16>) -> tensor<2x4x3xbf16>
  return
}

// CHECK-LABEL: func @cast
func.func @cast(%a: tensor<?x7xf32>, %b: tensor<3xi1>) {
  // CHECK: aclop.cast %{{.*}} {dst_type = ui8} : (tensor<?x7xf32>) -> tensor<?x7xui8>
  %0 = aclop.cast %a {dst_type = ui8} : (tensor<?x7xf32>) -> tensor<?x7xui8>
  // CHECK: aclop.cast %{{.*}} {dst_type = i64, truncate = false} : (tensor<?x7xf32>) -> tensor<?x7xi64>
  %1 = aclop.cast %a {dst_type = i64, truncate = false} : (tensor<?x7xf32>) -> tensor<?x7xi64>
  // CHECK: aclop.cast %{{.*}} {dst_type = bf16} : (tensor<3xi1>) -> tensor<3xbf16>
  %2 = aclop.cast %b {dst_type = bf16} : (tensor<3xi1>) -> tensor<3xbf16>
  return
}

// CHECK-LABEL: func @binary
func.func @binary(%a: tensor<4x1x3xf32>, %b: tensor<5x1xf32>, %i: tensor<?xi32>, %u: tensor<2xui8>) {
  // CHECK: aclop.add %{{.*}}, %{{.*}} : (tensor<4x1x3xf32>, tensor<5x1xf32>) -> tensor<4x5x3xf32>
  %0 = aclop.add %a, %b : (tensor<4x1x3xf32>, tensor<5x1xf32>) -> tensor<4x5x3xf32>
  // CHECK: aclop.sub
  %1 = aclop.sub %i, %i : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  // CHECK: aclop.mul
  %2 = aclop.mul %u, %u : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  // CHECK: aclop.div
  %3 = aclop.div %a, %b : (tensor<4x1x3xf32>, tensor<5x1xf32>) -> tensor<4x5x3xf32>
  // CHECK: aclop.maximum
  %4 = aclop.maximum %i, %i : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  // CHECK: aclop.minimum
  %5 = aclop.minimum %u, %u : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  // CHECK: aclop.pow
  %6 = aclop.pow %a, %a : (tensor<4x1x3xf32>, tensor<4x1x3xf32>) -> tensor<4x1x3xf32>
  return
}

// CHECK-LABEL: func @unary
func.func @unary(%a: tensor<2x?xf16>, %i: tensor<3xi64>) {
  // CHECK: aclop.relu
  %0 = aclop.relu %i : (tensor<3xi64>) -> tensor<3xi64>
  // CHECK: aclop.gelu
  %1 = aclop.gelu %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.sigmoid
  %2 = aclop.sigmoid %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.tanh
  %3 = aclop.tanh %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.exp
  %4 = aclop.exp %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.log
  %5 = aclop.log %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.sqrt
  %6 = aclop.sqrt %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.rsqrt
  %7 = aclop.rsqrt %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.abs
  %8 = aclop.abs %i : (tensor<3xi64>) -> tensor<3xi64>
  // CHECK: aclop.neg
  %9 = aclop.neg %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.square
  %10 = aclop.square %i : (tensor<3xi64>) -> tensor<3xi64>
  // CHECK: aclop.reciprocal
  %11 = aclop.reciprocal %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.sign
  %12 = aclop.sign %i : (tensor<3xi64>) -> tensor<3xi64>
  // CHECK: aclop.floor
  %13 = aclop.floor %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.ceil
  %14 = aclop.ceil %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.round
  %15 = aclop.round %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.sin
  %16 = aclop.sin %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.cos
  %17 = aclop.cos %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.erf
  %18 = aclop.erf %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.softplus
  %19 = aclop.softplus %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.leaky_relu %{{.*}} {negative_slope = 2.000000e-01 : f32} : (tensor<2x?xf16>) -> tensor<2x?xf16>
  %20 = aclop.leaky_relu %a {negative_slope = 0.2 : f32} : (tensor<2x?xf16>) -> tensor<2x?xf16>
  // CHECK: aclop.leaky_relu %{{.*}} : (tensor<2x?xf16>) -> tensor<2x?xf16>
  %21 = aclop.leaky_relu %a : (tensor<2x?xf16>) -> tensor<2x?xf16>
  return
}

// CHECK-LABEL: func @comparisons_and_logic
func.func @comparisons_and_logic(%a: tensor<4x1xf32>, %b: tensor<3xf32>, %u: tensor<2xui8>, %p: tensor<4x3xi1>,
                                 %q: tensor<3xi1>) {
  // CHECK: aclop.equal %{{.*}}, %{{.*}} : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  %0 = aclop.equal %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  // CHECK: aclop.not_equal
  %1 = aclop.not_equal %p, %q : (tensor<4x3xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  // CHECK: aclop.greater
  %2 = aclop.greater %u, %u : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  // CHECK: aclop.greater_equal
  %3 = aclop.greater_equal %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  // CHECK: aclop.less
  %4 = aclop.less %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  // CHECK: aclop.less_equal
  %5 = aclop.less_equal %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xi1>
  // CHECK: aclop.logical_and
  %6 = aclop.logical_and %p, %q : (tensor<4x3xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  // CHECK: aclop.logical_or
  %7 = aclop.logical_or %p, %q : (tensor<4x3xi1>, tensor<3xi1>) -> tensor<4x3xi1>
  // CHECK: aclop.logical_not
  %8 = aclop.logical_not %q : (tensor<3xi1>) -> tensor<3xi1>
  // CHECK: aclop.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3xi1>, tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %9 = aclop.select %q, %a, %b : (tensor<3xi1>, tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return
}

// CHECK-LABEL: func @reductions
func.func @reductions(%a: tensor<4x?x6xf32>) {
  // CHECK: aclop.reduce_sum %{{.*}} {axes = array<i64: 1, -1>, keep_dims = true} : (tensor<4x?x6xf32>) -> tensor<4x1x1xf32>
  %0 = aclop.reduce_sum %a {axes = array<i64: 1, -1>, keep_dims = true} : (tensor<4x?x6xf32>) -> tensor<4x1x1xf32>
  // CHECK: aclop.reduce_max %{{.*}} {axes = array<i64: 0>} : (tensor<4x?x6xf32>) -> tensor<?x6xf32>
  %1 = aclop.reduce_max %a {axes = array<i64: 0>} : (tensor<4x?x6xf32>) -> tensor<?x6xf32>
  // CHECK: aclop.reduce_mean %{{.*}} {axes = array<i64>} : (tensor<4x?x6xf32>) -> tensor<f32>
  %2 = aclop.reduce_mean %a {axes = array<i64>} : (tensor<4x?x6xf32>) -> tensor<f32>
  // CHECK: aclop.arg_max %{{.*}} {axis = 1 : i64} : (tensor<4x?x6xf32>) -> tensor<4x6xi64>
  %amax = aclop.arg_max %a {axis = 1} : (tensor<4x?x6xf32>) -> tensor<4x6xi64>
  // CHECK: aclop.arg_min %{{.*}} {axis = -1 : i64, result_type = i32} : (tensor<4x?x6xf32>) -> tensor<4x?xi32>
  %amin = aclop.arg_min %a {axis = -1, result_type = i32} : (tensor<4x?x6xf32>) -> tensor<4x?xi32>
  // CHECK: aclop.reduce_min %{{.*}} {axes = array<i64: 2>} : (tensor<4x?x6xf32>) -> tensor<4x?xf32>
  %min = aclop.reduce_min %a {axes = array<i64: 2>} : (tensor<4x?x6xf32>) -> tensor<4x?xf32>
  // CHECK: aclop.reduce_prod %{{.*}} {axes = array<i64: 0>, keep_dims = true} : (tensor<4x?x6xf32>) -> tensor<1x?x6xf32>
  %prod = aclop.reduce_prod %a {axes = array<i64: 0>, keep_dims = true} : (tensor<4x?x6xf32>) -> tensor<1x?x6xf32>
  // CHECK: aclop.softmax %{{.*}} {axes = array<i64: -1>} : (tensor<4x?x6xf32>) -> tensor<4x?x6xf32>
  %3 = aclop.softmax %a {axes = array<i64: -1>} : (tensor<4x?x6xf32>) -> tensor<4x?x6xf32>
  // CHECK: aclop.transpose %{{.*}} {perm = array<i64: 2, 0, 1>} : (tensor<4x?x6xf32>) -> tensor<6x4x?xf32>
  %4 = aclop.transpose %a {perm = array<i64: 2, 0, 1>} : (tensor<4x?x6xf32>) -> tensor<6x4x?xf32>
  return
}

// Conv2D: defaults are elided; each tensor has its own layout.
// CHECK-LABEL: func @conv2d
func.func @conv2d(%x: tensor<1x8x8x3xf16>, %w: tensor<16x3x3x3xf16>, %b: tensor<16xf16>, %d: tensor<?x4x?x?xf32>,
                  %g: tensor<3x3x2x6xf32>) {
  // CHECK: aclop.conv2d %{{.*}}, %{{.*}}, %{{.*}} {data_format = "NHWC", pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x8x3xf16>, tensor<16x3x3x3xf16>, tensor<16xf16>) -> tensor<1x4x4x16xf16>
  %0 = aclop.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, data_format = "NHWC", filter_format = "NCHW"}
      : (tensor<1x8x8x3xf16>, tensor<16x3x3x3xf16>, tensor<16xf16>) -> tensor<1x4x4x16xf16>
  // CHECK: aclop.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 2, 1>, filter_format = "HWCN", groups = 2 : i64, pads = array<i64: 0, 1, 0, 0>, strides = array<i64: 1, 3>} : (tensor<?x4x?x?xf32>, tensor<3x3x2x6xf32>) -> tensor<?x6x?x?xf32>
  %1 = aclop.conv2d %d, %g {strides = array<i64: 1, 3>, pads = array<i64: 0, 1, 0, 0>, dilations = array<i64: 2, 1>, groups = 2, filter_format = "HWCN"}
      : (tensor<?x4x?x?xf32>, tensor<3x3x2x6xf32>) -> tensor<?x6x?x?xf32>
  return
}

// CHECK-LABEL: func @pool2d
func.func @pool2d(%x: tensor<1x9x9x8xf16>, %d: tensor<?x3x?x?xf32>, %u: tensor<2x1x4x4xui8>) {
  // CHECK: aclop.pool2d %{{.*}} {data_format = "NHWC", mode = "max", padding_mode = "SAME", strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<1x9x9x8xf16>) -> tensor<1x5x5x8xf16>
  %0 = aclop.pool2d %x {mode = "max", window = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding_mode = "SAME", data_format = "NHWC"}
      : (tensor<1x9x9x8xf16>) -> tensor<1x5x5x8xf16>
  // CHECK: aclop.pool2d %{{.*}} {ceil_mode = true, divisor_override = 4 : i64, exclusive = false, mode = "avg", pads = array<i64: 1, 0, 0, 1>, strides = array<i64: 2, 3>, window = array<i64: 3, 2>} : (tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32>
  %1 = aclop.pool2d %d {mode = "avg", window = array<i64: 3, 2>, strides = array<i64: 2, 3>, pads = array<i64: 1, 0, 0, 1>, ceil_mode = true, exclusive = false, divisor_override = 4}
      : (tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32>
  // CHECK: aclop.pool2d %{{.*}} {mode = "max", padding_mode = "VALID", strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : (tensor<2x1x4x4xui8>) -> tensor<2x1x2x2xui8>
  %2 = aclop.pool2d %u {mode = "max", window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding_mode = "VALID"}
      : (tensor<2x1x4x4xui8>) -> tensor<2x1x2x2xui8>
  return
}

// Products with an optional bias over N.
// CHECK-LABEL: func @product_bias
func.func @product_bias(%a: tensor<4x8xf16>, %b: tensor<8x3xf16>, %bias: tensor<3xf32>, %x: tensor<2x4x8xf32>,
                        %y: tensor<2x8x3xf32>, %z: tensor<3xf32>) {
  // CHECK: aclop.matmul %{{.*}}, %{{.*}}, %{{.*}} {result_type = f32} : (tensor<4x8xf16>, tensor<8x3xf16>, tensor<3xf32>) -> tensor<4x3xf32>
  %0 = aclop.matmul %a, %b, %bias {result_type = f32} : (tensor<4x8xf16>, tensor<8x3xf16>, tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK: aclop.batch_matmul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x4x8xf32>, tensor<2x8x3xf32>, tensor<3xf32>) -> tensor<2x4x3xf32>
  %1 = aclop.batch_matmul %x, %y, %z : (tensor<2x4x8xf32>, tensor<2x8x3xf32>, tensor<3xf32>) -> tensor<2x4x3xf32>
  return
}

// CHECK-LABEL: func @data_movement
func.func @data_movement(%a: tensor<4x?xf32>, %b: tensor<3x1xi1>, %c: tensor<2x5xf16>, %i: tensor<3x?xi64>) {
  // CHECK: aclop.slice %{{.*}} {offsets = array<i64: 1, 0>, sizes = array<i64: 2, -1>} : (tensor<4x?xf32>) -> tensor<2x?xf32>
  %0 = aclop.slice %a {offsets = array<i64: 1, 0>, sizes = array<i64: 2, -1>} : (tensor<4x?xf32>) -> tensor<2x?xf32>
  // CHECK: aclop.broadcast_to %{{.*}} {shape = array<i64: 2, 3, 7>} : (tensor<3x1xi1>) -> tensor<2x3x7xi1>
  %1 = aclop.broadcast_to %b {shape = array<i64: 2, 3, 7>} : (tensor<3x1xi1>) -> tensor<2x3x7xi1>
  // CHECK: aclop.tile %{{.*}} {multiples = array<i64: 3, 1>} : (tensor<4x?xf32>) -> tensor<12x?xf32>
  %2 = aclop.tile %a {multiples = array<i64: 3, 1>} : (tensor<4x?xf32>) -> tensor<12x?xf32>
  // CHECK: aclop.concat %{{.*}}, %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>) -> tensor<6x5xf16>
  %3 = aclop.concat %c, %c, %c {axis = 0} : (tensor<2x5xf16>, tensor<2x5xf16>, tensor<2x5xf16>) -> tensor<6x5xf16>
  // CHECK: aclop.concat %{{.*}} {axis = -1 : i64} : (tensor<2x5xf16>) -> tensor<2x5xf16>
  %4 = aclop.concat %c {axis = -1} : (tensor<2x5xf16>) -> tensor<2x5xf16>
  // CHECK: aclop.pad %{{.*}} {high = array<i64: 0, 2>, low = array<i64: 1, 0>, value = 2.500000e+00 : f32} : (tensor<2x5xf16>) -> tensor<3x7xf16>
  %6 = aclop.pad %c {low = array<i64: 1, 0>, high = array<i64: 0, 2>, value = 2.5 : f32} : (tensor<2x5xf16>) -> tensor<3x7xf16>
  // CHECK: aclop.pad %{{.*}} {high = array<i64: 1, 4>, low = array<i64: 1, 0>, mode = "reflect"} : (tensor<2x5xf16>) -> tensor<4x9xf16>
  %mirrored = aclop.pad %c {low = array<i64: 1, 0>, high = array<i64: 1, 4>, mode = "reflect"} : (tensor<2x5xf16>) -> tensor<4x9xf16>
  // CHECK: aclop.gather %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<2x5xf16>, tensor<3x?xi64>) -> tensor<2x3x?xf16>
  %5 = aclop.gather %c, %i {axis = -1} : (tensor<2x5xf16>, tensor<3x?xi64>) -> tensor<2x3x?xf16>
  // CHECK: aclop.strided_slice %{{.*}} {offsets = array<i64: 1, 4>, shrink = array<i64: 0>, sizes = array<i64: 1, 2>, strides = array<i64: 1, -3>} : (tensor<2x5xf16>) -> tensor<2xf16>
  %10 = aclop.strided_slice %c {offsets = array<i64: 1, 4>, sizes = array<i64: 1, 2>, strides = array<i64: 1, -3>, shrink = array<i64: 0>} : (tensor<2x5xf16>) -> tensor<2xf16>
  // CHECK: aclop.strided_slice %{{.*}} {offsets = array<i64: 0, 0>, sizes = array<i64: 4, -1>, strides = array<i64: 1, 1>} : (tensor<4x?xf32>) -> tensor<4x?xf32>
  %11 = aclop.strided_slice %a {offsets = array<i64: 0, 0>, sizes = array<i64: 4, -1>, strides = array<i64: 1, 1>} : (tensor<4x?xf32>) -> tensor<4x?xf32>
  // CHECK: aclop.strided_slice %{{.*}} {new_axes = array<i64: 0, 2>, offsets = array<i64: 1, 4>, shrink = array<i64: 0>, sizes = array<i64: 1, 2>, strides = array<i64: 1, -3>} : (tensor<2x5xf16>) -> tensor<1x2x1xf16>
  %12 = aclop.strided_slice %c {offsets = array<i64: 1, 4>, sizes = array<i64: 1, 2>, strides = array<i64: 1, -3>, shrink = array<i64: 0>, new_axes = array<i64: 0, 2>} : (tensor<2x5xf16>) -> tensor<1x2x1xf16>
  // CHECK: %{{.*}}:2 = aclop.split %{{.*}} {axis = 1 : i64, sizes = array<i64: 2, -1>} : (tensor<2x5xf16>) -> (tensor<2x2xf16>, tensor<2x3xf16>)
  %7:2 = aclop.split %c {axis = 1, sizes = array<i64: 2, -1>} : (tensor<2x5xf16>) -> (tensor<2x2xf16>, tensor<2x3xf16>)
  // CHECK: aclop.split %{{.*}} {axis = -1 : i64, sizes = array<i64: -1, 4>} : (tensor<4x?xf32>) -> (tensor<4x?xf32>, tensor<4x4xf32>)
  %8:2 = aclop.split %a {axis = -1, sizes = array<i64: -1, 4>} : (tensor<4x?xf32>) -> (tensor<4x?xf32>, tensor<4x4xf32>)
  // CHECK: aclop.split %{{.*}} {axis = 0 : i64, sizes = array<i64: 2>} : (tensor<2x5xf16>) -> tensor<2x5xf16>
  %9 = aclop.split %c {axis = 0, sizes = array<i64: 2>} : (tensor<2x5xf16>) -> tensor<2x5xf16>
  return
}

// CHECK-LABEL: func @layer_norm
func.func @layer_norm(%x: tensor<?x8x64xf16>, %g: tensor<64xf32>, %h: tensor<8x64xf16>) {
  // CHECK: %y, %mean, %variance = aclop.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {begin_norm_axis = 2 : i64, begin_params_axis = -1 : i64, epsilon = 9.99999974E-6 : f32} : (tensor<?x8x64xf16>, tensor<64xf32>, tensor<64xf32>) -> (tensor<?x8x64xf16>, tensor<?x8x1xf16>, tensor<?x8x1xf16>)
  %0:3 = aclop.layer_norm %x, %g, %g {begin_norm_axis = 2, begin_params_axis = -1, epsilon = 1.0e-5 : f32} : (tensor<?x8x64xf16>, tensor<64xf32>, tensor<64xf32>) -> (tensor<?x8x64xf16>, tensor<?x8x1xf16>, tensor<?x8x1xf16>)
  // CHECK: aclop.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {begin_norm_axis = 1 : i64, begin_params_axis = 1 : i64} : (tensor<?x8x64xf16>, tensor<8x64xf16>, tensor<8x64xf16>) -> (tensor<?x8x64xf16>, tensor<?x1x1xf16>, tensor<?x1x1xf16>)
  %1:3 = aclop.layer_norm %x, %h, %h {begin_norm_axis = 1, begin_params_axis = 1} : (tensor<?x8x64xf16>, tensor<8x64xf16>, tensor<8x64xf16>) -> (tensor<?x8x64xf16>, tensor<?x1x1xf16>, tensor<?x1x1xf16>)
  return
}

// CHECK-LABEL: func @more_elementwise
func.func @more_elementwise(%a: tensor<4x?xf16>, %b: tensor<?xf16>, %i: tensor<3xui8>, %c: tensor<2x3xi1>) {
  // CHECK: aclop.squared_difference %{{.*}}, %{{.*}} : (tensor<4x?xf16>, tensor<?xf16>) -> tensor<4x?xf16>
  %0 = aclop.squared_difference %a, %b : (tensor<4x?xf16>, tensor<?xf16>) -> tensor<4x?xf16>
  // CHECK: aclop.floor_div %{{.*}}, %{{.*}} : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  %1 = aclop.floor_div %i, %i : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  // CHECK: aclop.floor_mod %{{.*}}, %{{.*}} : (tensor<4x?xf16>, tensor<?xf16>) -> tensor<4x?xf16>
  %2 = aclop.floor_mod %a, %b : (tensor<4x?xf16>, tensor<?xf16>) -> tensor<4x?xf16>
  // CHECK: aclop.clip_by_value %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x?xf16>, tensor<?xf16>, tensor<?xf16>) -> tensor<4x?xf16>
  %3 = aclop.clip_by_value %a, %b, %b : (tensor<4x?xf16>, tensor<?xf16>, tensor<?xf16>) -> tensor<4x?xf16>
  // CHECK: aclop.add_n %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x?xf16>, tensor<4x?xf16>, tensor<4x?xf16>) -> tensor<4x?xf16>
  %4 = aclop.add_n %a, %a, %a : (tensor<4x?xf16>, tensor<4x?xf16>, tensor<4x?xf16>) -> tensor<4x?xf16>
  // CHECK: aclop.log1p %{{.*}} : (tensor<4x?xf16>) -> tensor<4x?xf16>
  %5 = aclop.log1p %a : (tensor<4x?xf16>) -> tensor<4x?xf16>
  // CHECK: aclop.expm1 %{{.*}} : (tensor<4x?xf16>) -> tensor<4x?xf16>
  %6 = aclop.expm1 %a : (tensor<4x?xf16>) -> tensor<4x?xf16>
  // CHECK: aclop.zeros_like %{{.*}} : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %7 = aclop.zeros_like %c : (tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK: aclop.ones_like %{{.*}} : (tensor<3xui8>) -> tensor<3xui8>
  %8 = aclop.ones_like %i : (tensor<3xui8>) -> tensor<3xui8>
  // CHECK: aclop.log_softmax %{{.*}} {axes = array<i64: -1>} : (tensor<4x?xf16>) -> tensor<4x?xf16>
  %9 = aclop.log_softmax %a {axes = array<i64: -1>} : (tensor<4x?xf16>) -> tensor<4x?xf16>
  return
}
