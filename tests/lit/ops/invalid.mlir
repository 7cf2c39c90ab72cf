// Every verifier error of the aclop ops, with its message.
// RUN: %op-opt %s -split-input-file -verify-diagnostics

func.func @add_broadcast(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @below {{operand shapes do not broadcast: dimension 1 is 3 vs 5}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.add %a, %b : (tensor<4x3xf32>, tensor<5xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @add_mixed_types(%a: tensor<3xf32>, %b: tensor<3xf16>) {
  // expected-error @below {{lhs and rhs must have the same element type}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.add %a, %b : (tensor<3xf32>, tensor<3xf16>) -> tensor<3xf32>
  return
}

// -----

func.func @add_bool(%a: tensor<3xi1>) {
  // expected-error @below {{lhs has element type i1; allowed: f16, bf16, f32, f64, i8, i16, i32, i64, ui8}}
  // expected-error @below {{rhs has element type i1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.add %a, %a : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  return
}

// -----

func.func @exp_int(%a: tensor<3xi32>) {
  // expected-error @below {{input has element type i32; allowed: f16, bf16, f32, f64}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.exp %a : (tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @relu_unsigned(%a: tensor<3xui8>) {
  // expected-error @below {{input has element type ui8; allowed: f16, bf16, f32, f64, i8, i16, i32, i64}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.relu %a : (tensor<3xui8>) -> tensor<3xui8>
  return
}

// -----

func.func @unranked(%a: tensor<*xf32>) {
  // expected-error @below {{operand #0 must be ranked tensor of any type values}}
  %r = aclop.neg %a : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @gemm_k(%a: tensor<4x8xf32>, %b: tensor<9x16xf32>, %c: tensor<4x16xf32>, %s: tensor<f32>) {
  // expected-error @below {{the contraction sizes of a and b disagree: 8 vs 9}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.gemm %a, %b, %c, %s, %s : (tensor<4x8xf32>, tensor<9x16xf32>, tensor<4x16xf32>, tensor<f32>, tensor<f32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @gemm_c_shape(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<5x16xf32>, %s: tensor<f32>) {
  // expected-error @below {{the row counts of op(a) and c disagree: 4 vs 5}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.gemm %a, %b, %c, %s, %s : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<5x16xf32>, tensor<f32>, tensor<f32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @gemm_alpha_type(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>, %s: tensor<f16>) {
  // expected-error @below {{alpha and beta must have the element type of c}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.gemm %a, %b, %c, %s, %s : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<4x16xf32>, tensor<f16>, tensor<f16>) -> tensor<4x16xf32>
  return
}

// -----

func.func @gemm_alpha_rank(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>, %s: tensor<1xf32>) {
  // expected-error @below {{alpha must have rank 0, not 1}}
  // expected-error @below {{beta must have rank 0, not 1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.gemm %a, %b, %c, %s, %s : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<4x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16xf32>
  return
}

// -----

func.func @gemm_result_type(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf16>, %s: tensor<f16>) {
  // expected-error @below {{cannot produce f16 from f32 inputs}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.gemm %a, %b, %c, %s, %s : (tensor<4x8xf32>, tensor<8x16xf32>, tensor<4x16xf16>, tensor<f16>, tensor<f16>) -> tensor<4x16xf16>
  return
}

// -----

func.func @matmul_rank(%a: tensor<4xf32>, %b: tensor<4x2xf32>) {
  // expected-error @below {{a must have rank 2, not 1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.matmul %a, %b : (tensor<4xf32>, tensor<4x2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @matmul_int16(%a: tensor<4x4xi16>) {
  // expected-error @below {{integer products take i8 inputs}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.matmul %a, %a : (tensor<4x4xi16>, tensor<4x4xi16>) -> tensor<4x4xi32>
  return
}

// -----

func.func @matmul_types(%a: tensor<4x4xf32>, %b: tensor<4x4xf16>) {
  // expected-error @below {{a and b must have the same element type}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.matmul %a, %b : (tensor<4x4xf32>, tensor<4x4xf16>) -> tensor<4x4xf32>
  return
}

// -----

func.func @matmul_result(%a: tensor<4x4xi8>) {
  // expected-error @below {{cannot produce i8 from i8 inputs}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.matmul %a, %a {result_type = i8} : (tensor<4x4xi8>, tensor<4x4xi8>) -> tensor<4x4xi8>
  return
}

// -----

func.func @bmm_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x3xf32>) {
  // expected-error @below {{operand shapes do not broadcast: dimension 0 is 2 vs 3}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.batch_matmul %a, %b : (tensor<2x4x8xf32>, tensor<3x8x3xf32>) -> tensor<2x4x3xf32>
  return
}

// -----

func.func @cast_target(%a: tensor<3xf32>) {
  // expected-error @below {{dst_type must be one of f16, bf16, f32, f64, i8, i16, i32, i64, ui8, i1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.cast %a {dst_type = i4} : (tensor<3xf32>) -> tensor<3xi4>
  return
}

// -----

func.func @cast_source(%a: tensor<3xui16>) {
  // expected-error @below {{input has element type ui16}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.cast %a {dst_type = f32} : (tensor<3xui16>) -> tensor<3xf32>
  return
}

// -----

func.func @reduce_axis_range(%a: tensor<4x5xf32>) {
  // expected-error @below {{axis 2 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.reduce_sum %a {axes = array<i64: 2>} : (tensor<4x5xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_axis_twice(%a: tensor<4x5xf32>) {
  // expected-error @below {{axis -1 appears twice}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.reduce_max %a {axes = array<i64: 1, -1>} : (tensor<4x5xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_mean_int(%a: tensor<4x5xi32>) {
  // expected-error @below {{input has element type i32; allowed: f16, bf16, f32, f64}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.reduce_mean %a {axes = array<i64: 1>} : (tensor<4x5xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @softmax_empty(%a: tensor<4x5xf32>) {
  // expected-error @below {{axes must not be empty}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.softmax %a {axes = array<i64>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @transpose_size(%a: tensor<4x5xf32>) {
  // expected-error @below {{perm has 1 entries for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.transpose %a {perm = array<i64: 0>} : (tensor<4x5xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @transpose_repeat(%a: tensor<4x5xf32>) {
  // expected-error @below {{perm is not a permutation of [0, 2)}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.transpose %a {perm = array<i64: 0, 0>} : (tensor<4x5xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @result_mismatch(%a: tensor<4x3xf32>) {
  // expected-error @below {{inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<4x4xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.exp %a : (tensor<4x3xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @conv2d_groups(%x: tensor<1x4x5x5xf32>, %w: tensor<6x3x3x3xf32>) {
  // expected-error @below {{groups 1 does not divide 4 input channels into 3 per filter, and 6 output channels evenly}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x4x5x5xf32>, tensor<6x3x3x3xf32>) -> tensor<1x6x3x3xf32>
  return
}

// -----

func.func @conv2d_empty_filter(%x: tensor<1x1x5x5xf32>, %w: tensor<1x1x0x3xf32>) {
  // expected-error @below {{the filter's height and width must be at least 1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x5x5xf32>, tensor<1x1x0x3xf32>) -> tensor<1x1x8x5xf32>
  return
}

// -----

func.func @conv2d_too_small(%x: tensor<1x1x2x2xf32>, %w: tensor<1x1x3x3xf32>) {
  // expected-error @below {{the dilated filter is larger than the padded input (2x2)}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x2x2xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32>
  return
}

// -----

func.func @conv2d_layout(%x: tensor<1x1x2x2xf32>, %w: tensor<1x1x1x1xf32>) {
  // expected-error @below {{data_format must be NCHW or NHWC, not HWCN}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, data_format = "HWCN"} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @conv2d_attributes(%x: tensor<1x1x2x2xf32>, %w: tensor<1x1x1x1xf32>) {
  // expected-error @below {{strides must be 2 values [h, w] >= 1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 0>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @conv2d_pads(%x: tensor<1x1x2x2xf32>, %w: tensor<1x1x1x1xf32>) {
  // expected-error @below {{pads must be 4 values [top, bottom, left, right] >= 0}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0>} : (tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @conv2d_bias(%x: tensor<1x1x2x2xf32>, %w: tensor<3x1x1x1xf32>, %b: tensor<2xf32>) {
  // expected-error @below {{bias size and output channels disagree: 2 vs 3}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.conv2d %x, %w, %b {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x2x2xf32>, tensor<3x1x1x1xf32>, tensor<2xf32>) -> tensor<1x3x2x2xf32>
  return
}

// -----

func.func @conv2d_dynamic_channels(%x: tensor<1x?x2x2xf32>, %w: tensor<3x1x1x1xf32>) {
  // expected-error @below {{the filter and the input's channel dim must be static}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x?x2x2xf32>, tensor<3x1x1x1xf32>) -> tensor<1x3x2x2xf32>
  return
}

// -----

func.func @conv2d_integer(%x: tensor<1x1x2x2xi32>, %w: tensor<1x1x1x1xi32>) {
  // expected-error @below {{input has element type i32; allowed: f16, bf16, f32, f64}}
  // expected-error @below {{filter has element type i32}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x1x2x2xi32>, tensor<1x1x1x1xi32>) -> tensor<1x1x2x2xi32>
  return
}

// -----

func.func @matmul_bias_size(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>, %bias: tensor<4xf32>) {
  // expected-error @below {{bias size and N disagree: 4 vs 3}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.matmul %a, %b, %bias : (tensor<4x8xf32>, tensor<8x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @matmul_bias_type(%a: tensor<4x8xf16>, %b: tensor<8x3xf16>, %bias: tensor<3xbf16>) {
  // expected-error @below {{bias must have the input's or the result's element type}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.matmul %a, %b, %bias : (tensor<4x8xf16>, tensor<8x3xf16>, tensor<3xbf16>) -> tensor<4x3xf16>
  return
}

// -----

func.func @greater_bool(%a: tensor<3xi1>) {
  // expected-error @below {{lhs has element type i1; allowed: f16, bf16, f32, f64, i8, i16, i32, i64, ui8}}
  // expected-error @below {{rhs has element type i1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.greater %a, %a : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  return
}

// -----

func.func @equal_written_type(%a: tensor<3xf32>) {
  // expected-error @below {{inferred type(s) 'tensor<3xi1>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.equal %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @logical_and_numbers(%a: tensor<3xi8>) {
  // expected-error @below {{lhs has element type i8; allowed: i1}}
  // expected-error @below {{rhs has element type i8; allowed: i1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.logical_and %a, %a : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  return
}

// -----

func.func @select_condition(%c: tensor<3xf32>, %x: tensor<3xf32>) {
  // expected-error @below {{condition has element type f32; allowed: i1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.select %c, %x, %x : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @select_mixed(%c: tensor<3xi1>, %x: tensor<3xf32>, %y: tensor<3xf16>) {
  // expected-error @below {{x and y must have the same element type}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.select %c, %x, %y : (tensor<3xi1>, tensor<3xf32>, tensor<3xf16>) -> tensor<3xf32>
  return
}

// -----

func.func @select_broadcast(%c: tensor<4xi1>, %x: tensor<3xf32>) {
  // expected-error @below {{operand shapes do not broadcast: dimension 0 is 4 vs 3}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.select %c, %x, %x : (tensor<4xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @sin_int(%a: tensor<3xi32>) {
  // expected-error @below {{input has element type i32; allowed: f16, bf16, f32, f64}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.sin %a : (tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @logical_not_float(%a: tensor<3xf32>) {
  // expected-error @below {{input has element type f32; allowed: i1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.logical_not %a : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @reduce_prod_bool(%a: tensor<3xi1>) {
  // expected-error @below {{input has element type i1; allowed: f16, bf16, f32, f64, i8, i16, i32, i64, ui8}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.reduce_prod %a {axes = array<i64>} : (tensor<3xi1>) -> tensor<i1>
  return
}

// -----

func.func @slice_out_of_range(%a: tensor<4x5xf32>) {
  // expected-error @below {{dim 1: offset 3 and size 3 do not fit in 5}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.slice %a {offsets = array<i64: 0, 3>, sizes = array<i64: 4, 3>} : (tensor<4x5xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @slice_dynamic(%a: tensor<?x5xf32>) {
  // expected-error @below {{dim 0 is dynamic: only all of it (offset 0, size -1) can be taken}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.slice %a {offsets = array<i64: 1, 0>, sizes = array<i64: -1, 5>} : (tensor<?x5xf32>) -> tensor<?x5xf32>
  return
}

// -----

func.func @slice_rank(%a: tensor<4x5xf32>) {
  // expected-error @below {{offsets and sizes need 2 entries each, not 1 and 2}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.slice %a {offsets = array<i64: 0>, sizes = array<i64: 4, 5>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @broadcast_to_mismatch(%a: tensor<3x2xf32>) {
  // expected-error @below {{input dim 1 (2) does not broadcast to 4}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.broadcast_to %a {shape = array<i64: 3, 4>} : (tensor<3x2xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @broadcast_to_lower_rank(%a: tensor<3x2xf32>) {
  // expected-error @below {{shape has rank 1, less than the input's 2}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.broadcast_to %a {shape = array<i64: 2>} : (tensor<3x2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @tile_dynamic(%a: tensor<?x2xf32>) {
  // expected-error @below {{a dynamic dim can only be repeated once, not 2 times}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.tile %a {multiples = array<i64: 2, 1>} : (tensor<?x2xf32>) -> tensor<?x2xf32>
  return
}

// -----

func.func @tile_negative(%a: tensor<3x2xf32>) {
  // expected-error @below {{multiples must be >= 0, not -1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.tile %a {multiples = array<i64: -1, 1>} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @concat_mismatch(%a: tensor<3x2xf32>, %b: tensor<4x2xf32>) {
  // expected-error @below {{dim 0 of the inputs disagree: 3 vs 4}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.concat %a, %b {axis = 1} : (tensor<3x2xf32>, tensor<4x2xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @concat_types(%a: tensor<3x2xf32>, %b: tensor<3x2xf16>) {
  // expected-error @below {{input 1 must have input 0's element type and rank}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.concat %a, %b {axis = 1} : (tensor<3x2xf32>, tensor<3x2xf16>) -> tensor<3x4xf32>
  return
}

// -----

func.func @concat_dynamic_axis(%a: tensor<?x2xf32>) {
  // expected-error @below {{input 0's size along the axis must be static}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.concat %a, %a {axis = 0} : (tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
  return
}

// -----

func.func @concat_axis(%a: tensor<3x2xf32>) {
  // expected-error @below {{axis 2 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.concat %a {axis = 2} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @concat_scalar(%a: tensor<f32>) {
  // expected-error @below {{inputs must have rank >= 1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.concat %a {axis = 0} : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @gather_float_indices(%p: tensor<4x5xf32>, %i: tensor<3xf32>) {
  // expected-error @below {{indices has element type f32; allowed: i8, i16, i32, i64}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.gather %p, %i {axis = 0} : (tensor<4x5xf32>, tensor<3xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @gather_i8_indices(%p: tensor<4x5xf32>, %i: tensor<3xi8>) {
  // expected-error @below {{indices must be i32 or i64}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.gather %p, %i {axis = 0} : (tensor<4x5xf32>, tensor<3xi8>) -> tensor<3x5xf32>
  return
}

// -----

func.func @gather_axis(%p: tensor<4x5xf32>, %i: tensor<3xi32>) {
  // expected-error @below {{axis -3 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.gather %p, %i {axis = -3} : (tensor<4x5xf32>, tensor<3xi32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @arg_max_type(%a: tensor<4x5xf32>) {
  // expected-error @below {{result_type must be i32 or i64}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.arg_max %a {axis = 1, result_type = i16} : (tensor<4x5xf32>) -> tensor<4xi16>
  return
}

// -----

func.func @arg_min_axis(%a: tensor<4x5xf32>) {
  // expected-error @below {{axis 2 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.arg_min %a {axis = 2} : (tensor<4x5xf32>) -> tensor<4xi64>
  return
}

// -----

func.func @pad_dynamic(%a: tensor<?x5xf32>) {
  // expected-error @below {{the input's dims must be static}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pad %a {low = array<i64: 0, 1>, high = array<i64: 0, 0>} : (tensor<?x5xf32>) -> tensor<?x6xf32>
  return
}

// -----

func.func @pad_negative(%a: tensor<4x5xf32>) {
  // expected-error @below {{pads must be >= 0}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pad %a {low = array<i64: 0, -1>, high = array<i64: 0, 0>} : (tensor<4x5xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @pad_reflect_past_the_input(%a: tensor<4x5xf32>) {
  // expected-error @below {{reflect padding of dim 0 (size 4) must be at most 3 a side, not 4}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pad %a {low = array<i64: 4, 0>, high = array<i64: 0, 0>, mode = "reflect"} : (tensor<4x5xf32>) -> tensor<8x5xf32>
  return
}

// -----

func.func @pad_symmetric_past_the_input(%a: tensor<4x5xf32>) {
  // expected-error @below {{symmetric padding of dim 1 (size 5) must be at most 5 a side, not 6}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pad %a {low = array<i64: 0, 0>, high = array<i64: 0, 6>, mode = "symmetric"} : (tensor<4x5xf32>) -> tensor<4x11xf32>
  return
}

// -----

func.func @pad_edge_of_nothing(%a: tensor<0x5xf32>) {
  // expected-error @below {{edge padding of dim 0 (size 0) must be at most 0 a side, not 1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pad %a {low = array<i64: 1, 0>, high = array<i64: 0, 0>, mode = "edge"} : (tensor<0x5xf32>) -> tensor<1x5xf32>
  return
}

// -----

func.func @pad_mode(%a: tensor<4x5xf32>) {
  // expected-error @below {{mode must be constant, reflect, symmetric or edge, not circular}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pad %a {low = array<i64: 1, 0>, high = array<i64: 0, 0>, mode = "circular"} : (tensor<4x5xf32>) -> tensor<5x5xf32>
  return
}

// -----

func.func @split_sum(%a: tensor<4x5xf32>) {
  // expected-error @below {{sizes sum to 4, not the split dim's 5}}
  // expected-error @below {{failed to infer returned types}}
  %r:2 = aclop.split %a {axis = 1, sizes = array<i64: 2, 2>} : (tensor<4x5xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
  return
}

// -----

func.func @split_rest_too_small(%a: tensor<4x5xf32>) {
  // expected-error @below {{sizes sum to 6, not the split dim's 5}}
  // expected-error @below {{failed to infer returned types}}
  %r:2 = aclop.split %a {axis = 1, sizes = array<i64: 6, -1>} : (tensor<4x5xf32>) -> (tensor<4x6xf32>, tensor<4x0xf32>)
  return
}

// -----

func.func @split_two_rests(%a: tensor<4x5xf32>) {
  // expected-error @below {{only one size may be -1}}
  // expected-error @below {{failed to infer returned types}}
  %r:2 = aclop.split %a {axis = 1, sizes = array<i64: -1, -1>} : (tensor<4x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>)
  return
}

// -----

func.func @split_negative(%a: tensor<4x5xf32>) {
  // expected-error @below {{sizes must be >= 0 or -1, not -2}}
  // expected-error @below {{failed to infer returned types}}
  %r:2 = aclop.split %a {axis = 1, sizes = array<i64: 7, -2>} : (tensor<4x5xf32>) -> (tensor<4x7xf32>, tensor<4x2xf32>)
  return
}

// -----

func.func @split_dynamic(%a: tensor<4x?xf32>) {
  // expected-error @below {{the split dim is dynamic: one size must be -1 (the rest)}}
  // expected-error @below {{failed to infer returned types}}
  %r:2 = aclop.split %a {axis = 1, sizes = array<i64: 2, 3>} : (tensor<4x?xf32>) -> (tensor<4x2xf32>, tensor<4x3xf32>)
  return
}

// -----

func.func @split_axis(%a: tensor<4x5xf32>) {
  // expected-error @below {{axis 2 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.split %a {axis = 2, sizes = array<i64: 5>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @split_empty(%a: tensor<4x5xf32>) {
  // expected-error @below {{sizes must not be empty}}
  // expected-error @below {{failed to infer returned types}}
  aclop.split %a {axis = 0, sizes = array<i64>} : (tensor<4x5xf32>) -> ()
  return
}

// -----

func.func @split_scalar(%a: tensor<f32>) {
  // expected-error @below {{input must have rank >= 1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.split %a {axis = 0, sizes = array<i64: 1>} : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @split_result_count(%a: tensor<4x5xf32>) {
  // expected-error @below {{'aclop.split' op inferred type(s) 'tensor<4x2xf32>', 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<4x2xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.split %a {axis = 1, sizes = array<i64: 2, 3>} : (tensor<4x5xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @layer_norm_gamma_shape(%x: tensor<4x8xf32>, %g: tensor<7xf32>) {
  // expected-error @below {{gamma dim 0 and the input's dims from begin_params_axis disagree: 7 vs 8}}
  // expected-error @below {{failed to infer returned types}}
  %r:3 = aclop.layer_norm %x, %g, %g {begin_norm_axis = 1, begin_params_axis = 1} : (tensor<4x8xf32>, tensor<7xf32>, tensor<7xf32>) -> (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  return
}

// -----

func.func @layer_norm_gamma_rank(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @below {{gamma must have rank 2, not 1}}
  // expected-error @below {{failed to infer returned types}}
  %r:3 = aclop.layer_norm %x, %g, %g : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<1x1xf32>, tensor<1x1xf32>)
  return
}

// -----

func.func @layer_norm_gamma_type(%x: tensor<4x8xf32>, %g: tensor<8xf16>) {
  // expected-error @below {{gamma must have the input's element type or f32}}
  // expected-error @below {{failed to infer returned types}}
  %r:3 = aclop.layer_norm %x, %g, %g {begin_norm_axis = 1, begin_params_axis = 1} : (tensor<4x8xf32>, tensor<8xf16>, tensor<8xf16>) -> (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  return
}

// -----

func.func @layer_norm_mixed_params(%x: tensor<4x8xf16>, %g: tensor<8xf16>, %b: tensor<8xf32>) {
  // expected-error @below {{gamma and beta must have one element type}}
  // expected-error @below {{failed to infer returned types}}
  %r:3 = aclop.layer_norm %x, %g, %b {begin_norm_axis = 1, begin_params_axis = 1} : (tensor<4x8xf16>, tensor<8xf16>, tensor<8xf32>) -> (tensor<4x8xf16>, tensor<4x1xf16>, tensor<4x1xf16>)
  return
}

// -----

func.func @layer_norm_axis(%x: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @below {{axis 2 is out of range for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %r:3 = aclop.layer_norm %x, %g, %g {begin_norm_axis = 2, begin_params_axis = 1} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32>)
  return
}

// -----

func.func @layer_norm_int(%x: tensor<4x8xi32>, %g: tensor<8xi32>) {
  // expected-error @below {{input has element type i32; allowed: f16, bf16, f32, f64}}
  // expected-error @below {{failed to infer returned types}}
  %r:3 = aclop.layer_norm %x, %g, %g {begin_norm_axis = 1, begin_params_axis = 1} : (tensor<4x8xi32>, tensor<8xi32>, tensor<8xi32>) -> (tensor<4x8xi32>, tensor<4x1xi32>, tensor<4x1xi32>)
  return
}

// -----

func.func @clip_types(%x: tensor<4xf32>, %l: tensor<4xf16>) {
  // expected-error @below {{x, low and high must have the same element type}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.clip_by_value %x, %l, %l : (tensor<4xf32>, tensor<4xf16>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @clip_broadcast(%x: tensor<4xf32>, %l: tensor<3xf32>) {
  // expected-error @below {{operand shapes do not broadcast: dimension 0 is 4 vs 3}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.clip_by_value %x, %l, %l : (tensor<4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @add_n_shapes(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) {
  // expected-error @below {{dim 1 of the inputs disagree: 3 vs 2}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.add_n %a, %b : (tensor<4x3xf32>, tensor<4x2xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @add_n_types(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @below {{input 1 must have input 0's element type and rank}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.add_n %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @add_n_bool(%a: tensor<4xi1>) {
  // expected-error @below {{input 0 has element type i1; allowed: f16, bf16, f32, f64, i8, i16, i32, i64, ui8}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.add_n %a : (tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @add_n_none() {
  // expected-error @below {{needs at least one input}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.add_n : () -> tensor<4xf32>
  return
}

// -----

func.func @floor_mod_bool(%a: tensor<4xi1>) {
  // expected-error @below {{lhs has element type i1; allowed: f16, bf16, f32, f64, i8, i16, i32, i64, ui8}}
  // expected-error @below {{rhs has element type i1; allowed: f16, bf16, f32, f64, i8, i16, i32, i64, ui8}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.floor_mod %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @expm1_int(%a: tensor<4xi32>) {
  // expected-error @below {{input has element type i32; allowed: f16, bf16, f32, f64}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.expm1 %a : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @log_softmax_axes(%a: tensor<4x5xf32>) {
  // expected-error @below {{axes must not be empty}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.log_softmax %a {axes = array<i64>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @strided_slice_new_axis_out_of_range(%a: tensor<4x5xf32>) {
  // expected-error @below {{axis 3 is out of range for rank 3}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.strided_slice %a {offsets = array<i64: 0, 0>, sizes = array<i64: 4, 5>, strides = array<i64: 1, 1>, new_axes = array<i64: 3>} : (tensor<4x5xf32>) -> tensor<4x5x1xf32>
  return
}

// -----

func.func @strided_slice_new_axis_twice(%a: tensor<4x5xf32>) {
  // expected-error @below {{axis -4 appears twice}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.strided_slice %a {offsets = array<i64: 0, 0>, sizes = array<i64: 4, 5>, strides = array<i64: 1, 1>, new_axes = array<i64: 0, -4>} : (tensor<4x5xf32>) -> tensor<1x1x4x5xf32>
  return
}

// -----

func.func @strided_slice_out_of_dim(%a: tensor<4x5xf32>) {
  // expected-error @below {{dim 1: 3 elements from 4 by 1 do not fit in 5}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.strided_slice %a {offsets = array<i64: 0, 4>, sizes = array<i64: 4, 3>, strides = array<i64: 1, 1>} : (tensor<4x5xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @strided_slice_backward_past_start(%a: tensor<4x5xf32>) {
  // expected-error @below {{dim 0: 3 elements from 2 by -2 do not fit in 4}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.strided_slice %a {offsets = array<i64: 2, 0>, sizes = array<i64: 3, 5>, strides = array<i64: -2, 1>} : (tensor<4x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @strided_slice_zero_stride(%a: tensor<4x5xf32>) {
  // expected-error @below {{dim 1: the stride must not be 0}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.strided_slice %a {offsets = array<i64: 0, 0>, sizes = array<i64: 4, 1>, strides = array<i64: 1, 0>} : (tensor<4x5xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @strided_slice_shrink_size(%a: tensor<4x5xf32>) {
  // expected-error @below {{shrink dim 0 has 2 elements, not 1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.strided_slice %a {offsets = array<i64: 0, 0>, sizes = array<i64: 2, 5>, strides = array<i64: 1, 1>, shrink = array<i64: 0>} : (tensor<4x5xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @strided_slice_dynamic(%a: tensor<?x5xf32>) {
  // expected-error @below {{dim 0 is dynamic: only all of it (offset 0, size -1, stride 1) can be taken}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.strided_slice %a {offsets = array<i64: 0, 0>, sizes = array<i64: -1, 5>, strides = array<i64: 2, 1>} : (tensor<?x5xf32>) -> tensor<?x5xf32>
  return
}

// -----

func.func @strided_slice_lists(%a: tensor<4x5xf32>) {
  // expected-error @below {{strides has 1 entries for rank 2}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.strided_slice %a {offsets = array<i64: 0, 0>, sizes = array<i64: 4, 5>, strides = array<i64: 1>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @strided_slice_overflow(%a: tensor<4x5xf32>) {
  // expected-error @below {{dim 0: 3 elements from 1 by 4611686018427387904 do not fit in 4}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.strided_slice %a {offsets = array<i64: 1, 0>, sizes = array<i64: 3, 5>, strides = array<i64: 4611686018427387904, 1>} : (tensor<4x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @pool2d_mode(%x: tensor<1x1x4x4xf32>) {
  // expected-error @below {{mode must be "max" or "avg", not min}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pool2d %x {mode = "min", window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @pool2d_average_of_integers(%x: tensor<1x1x4x4xi32>) {
  // expected-error @below {{input has element type i32; allowed: f16, bf16, f32, f64}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pool2d %x {mode = "avg", window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xi32>) -> tensor<1x1x2x2xi32>
  return
}

// -----

func.func @pool2d_window(%x: tensor<1x1x4x4xf32>) {
  // expected-error @below {{window must be 2 values [h, w] >= 1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pool2d %x {mode = "max", window = array<i64: 0, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @pool2d_strides(%x: tensor<1x1x4x4xf32>) {
  // expected-error @below {{strides must be 2 values [h, w] >= 1}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pool2d %x {mode = "max", window = array<i64: 2, 2>, strides = array<i64: 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @pool2d_padding_mode(%x: tensor<1x1x4x4xf32>) {
  // expected-error @below {{padding_mode must be CALCULATED, SAME or VALID, not FULL}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pool2d %x {mode = "max", window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding_mode = "FULL"} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @pool2d_pads_with_same(%x: tensor<1x1x4x4xf32>) {
  // expected-error @below {{pads apply to padding_mode CALCULATED only}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pool2d %x {mode = "max", window = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding_mode = "SAME", pads = array<i64: 1, 0, 0, 0>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @pool2d_pad_as_wide_as_window(%x: tensor<1x1x4x4xf32>) {
  // expected-error @below {{each pad must be smaller than the window along its axis}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pool2d %x {mode = "max", window = array<i64: 2, 3>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 3>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x5xf32>
  return
}

// -----

func.func @pool2d_too_small(%x: tensor<1x1x2x2xf32>) {
  // expected-error @below {{the window is larger than the padded input (2x2)}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pool2d %x {mode = "max", window = array<i64: 3, 3>, strides = array<i64: 1, 1>, padding_mode = "VALID"} : (tensor<1x1x2x2xf32>) -> tensor<1x1x1x1xf32>
  return
}

// -----

func.func @pool2d_layout(%x: tensor<1x1x2x2xf32>) {
  // expected-error @below {{data_format must be NCHW or NHWC, not HWCN}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pool2d %x {mode = "max", window = array<i64: 1, 1>, strides = array<i64: 1, 1>, data_format = "HWCN"} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @pool2d_divisor(%x: tensor<1x1x2x2xf32>) {
  // expected-error @below {{divisor_override must be >= 0}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pool2d %x {mode = "avg", window = array<i64: 1, 1>, strides = array<i64: 1, 1>, divisor_override = -1} : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

// ceil_mode rounds 5 / 2 windows up to 3.
func.func @pool2d_result(%x: tensor<1x1x5x5xf32>) {
  // expected-error @below {{'aclop.pool2d' op inferred type(s) 'tensor<1x1x3x3xf32>' are incompatible with return type(s) of operation 'tensor<1x1x2x2xf32>'}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.pool2d %x {mode = "max", window = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = true} : (tensor<1x1x5x5xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @conv2d_empty_height(%x: tensor<1x1x0x4xf32>, %w: tensor<1x1x3x3xf32>) {
  // expected-error @below {{the input's height and width must not be 0}}
  // expected-error @below {{failed to infer returned types}}
  %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 2, 2, 1, 1>} : (tensor<1x1x0x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x2x4xf32>
  return
}
