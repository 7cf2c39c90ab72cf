//===- AclopOps.td - aclop operations ----------------------*- tablegen -*-===//
//
// Element types each op accepts are checked by its verifier, so diagnostics can name the op,
// the operand and the types allowed. Result types are inferred (InferTypeOpInterface).
//
//===----------------------------------------------------------------------===//

#ifndef ACLOP_OPS_TD
#define ACLOP_OPS_TD

include "aclop/AclopDialect.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// How an op's operands broadcast. A compiled kernel never broadcasts along a dynamic dim (it
// assumes the operands agree there), so the runtime refuses a request that would rather than
// read past the smaller operand; it learns which ops to check from these traits
// (operandBroadcasting in jit/op_compiler.h). Every operand broadcasts as in NumPy:
def Aclop_BroadcastsOperands : NativeOpTrait<"BroadcastsOperands"> {
  let cppNamespace = "::mlir::aclop";
}
// Only the leading batch dim of the first two operands broadcasts (batch_matmul):
def Aclop_BroadcastsBatch : NativeOpTrait<"BroadcastsBatch"> {
  let cppNamespace = "::mlir::aclop";
}

class Aclop_InferredOp<string mnemonic, list<Trait> traits = []>
    : Aclop_Op<mnemonic, !listconcat(traits, [Pure, InferTypeOpAdaptor])> {
  // The verifier is result-type inference: an op whose operands or attributes do not admit a
  // result type fails with the reason, and a written result type must equal the inferred one.
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

def Aclop_GemmOp : Aclop_InferredOp<"gemm"> {
  let summary = "C = alpha * op(A) * op(B) + beta * C (CANN GEMM)";
  let description = [{
    `a` is `[M, K]` (`[K, M]` with `transpose_a`), `b` is `[K, N]` (`[N, K]` with
    `transpose_b`), `c` is `[M, N]`; `alpha` and `beta` are 0-d tensors of the result type.
    Inputs f32, f16, bf16, f64 or i8; the result is f32 (or the input type for f16/bf16/f64),
    i32 for i8 inputs. Products accumulate in f32 (f64 for f64, i32 for i8). With
    `low_precision` (aclblasGemmEx's ACL_COMPUTE_LOW_PRECISION), f16 and f32 inputs are rounded to
    bf16 (to nearest even) before their products, which bf16 pair instructions then compute;
    other inputs ignore it.

    ```mlir
    %r = aclop.gemm %a, %b, %c, %alpha, %beta {transpose_b = true}
        : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<4x16xf32>, tensor<f32>, tensor<f32>) -> tensor<4x16xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$a, AnyRankedTensor:$b, AnyRankedTensor:$c,
                   AnyRankedTensor:$alpha, AnyRankedTensor:$beta,
                   DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
                   DefaultValuedAttr<BoolAttr, "false">:$transpose_b,
                   DefaultValuedAttr<BoolAttr, "false">:$low_precision);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$a `,` $b `,` $c `,` $alpha `,` $beta attr-dict `:` functional-type(operands, results)";
}

def Aclop_MatMulOp : Aclop_InferredOp<"matmul"> {
  let summary = "op(A) * op(B) for 2-d A and B (CANN MatMul / MatMulV2)";
  let description = [{
    ```mlir
    %r = aclop.matmul %a, %b : (tensor<4x8xf16>, tensor<8x3xf16>) -> tensor<4x3xf16>
    ```
    With `result_type` the result element type may widen (f16/bf16 to f32, i8 to i32). The
    optional `bias` is 1-d over N, of the input or the result element type; it is added to the
    accumulated product before the result is narrowed.
  }];
  let arguments = (ins AnyRankedTensor:$a, AnyRankedTensor:$b, Optional<AnyRankedTensor>:$bias,
                   DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
                   DefaultValuedAttr<BoolAttr, "false">:$transpose_b,
                   OptionalAttr<TypeAttr>:$result_type);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$a `,` $b (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def Aclop_BatchMatMulOp : Aclop_InferredOp<"batch_matmul", [Aclop_BroadcastsBatch]> {
  let summary = "Batched op(A) * op(B) over a leading batch dimension (CANN BatchMatMul)";
  let description = [{
    `a` is `[B, M, K]` and `b` is `[B, K, N]` (the last two dims swapped by the transpose flags);
    the optional `bias` is 1-d over N, as for matmul.

    ```mlir
    %r = aclop.batch_matmul %a, %b : (tensor<2x4x8xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$a, AnyRankedTensor:$b, Optional<AnyRankedTensor>:$bias,
                   DefaultValuedAttr<BoolAttr, "false">:$transpose_a,
                   DefaultValuedAttr<BoolAttr, "false">:$transpose_b,
                   OptionalAttr<TypeAttr>:$result_type);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$a `,` $b (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

def Aclop_Conv2DOp : Aclop_InferredOp<"conv2d"> {
  let summary = "2-D convolution with each tensor in its own layout (CANN Conv2D)";
  let description = [{
    `input` is 4-d in `data_format` ("NCHW" or "NHWC"); `filter` is 4-d in `filter_format`
    ("NCHW", "NHWC" or "HWCN", read as N = output channels, C = input channels per group);
    the result is in `data_format`. `strides` and `dilations` are [h, w], `pads` is
    [top, bottom, left, right] (zeros), `groups` divides the channels. The optional `bias` is
    1-d over the output channels. Channel and filter dims must be static; batch, height and
    width may be dynamic; height and width must not be 0. Float inputs; f16 and bf16 accumulate
    in f32.

    ```mlir
    %r = aclop.conv2d %x, %w {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>,
                              data_format = "NHWC", filter_format = "NCHW"}
        : (tensor<1x8x8x3xf32>, tensor<16x3x3x3xf32>) -> tensor<1x8x8x16xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, AnyRankedTensor:$filter, Optional<AnyRankedTensor>:$bias,
                   DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$pads,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                   DefaultValuedAttr<I64Attr, "1">:$groups,
                   DefaultValuedAttr<StrAttr, "\"NCHW\"">:$data_format,
                   DefaultValuedAttr<StrAttr, "\"NCHW\"">:$filter_format);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `,` $filter (`,` $bias^)? attr-dict `:` functional-type(operands, results)";
}

def Aclop_Pool2DOp : Aclop_InferredOp<"pool2d"> {
  let summary = "2-D max or average pooling (CANN MaxPool, AvgPool, MaxPoolV3, AvgPoolV2)";
  let description = [{
    `input` is 4-d in `data_format` ("NCHW" or "NHWC"); each [h, w] window of `window` size,
    `strides` apart, is reduced to one element by `mode`: "max" (any numeric type; a NaN wins)
    or "avg" (floats; f16 and bf16 sum in f32). `padding_mode` places the windows as CANN does:

    - "CALCULATED": `pads` [top, bottom, left, right] (each smaller than the window along its
      axis); out = (in + pads - window) / stride + 1, rounded down, or up with `ceil_mode`,
      when a window would then start in the bottom (right) padding it is dropped.
    - "SAME": out = ceil(in / stride), the padding that takes split as evenly as it can, the
      odd element after (TensorFlow's rule; worked out at run time for dynamic dims).
    - "VALID": no padding; out = (in - window) / stride + 1.

    Padding is never read; an empty height or width gives no windows. An average divides by
    the window's elements inside the input (`exclusive`), or by the window clipped to the
    padded input, or by `divisor_override` when it is not 0.

    ```mlir
    %r = aclop.pool2d %x {mode = "max", window = array<i64: 3, 3>, strides = array<i64: 2, 2>,
                          padding_mode = "SAME", data_format = "NHWC"}
        : (tensor<1x9x9x8xf32>) -> tensor<1x5x5x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, StrAttr:$mode,
                   DenseI64ArrayAttr:$window, DenseI64ArrayAttr:$strides,
                   DefaultValuedAttr<StrAttr, "\"CALCULATED\"">:$padding_mode,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                   DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
                   DefaultValuedAttr<BoolAttr, "true">:$exclusive,
                   DefaultValuedAttr<I64Attr, "0">:$divisor_override,
                   DefaultValuedAttr<StrAttr, "\"NCHW\"">:$data_format);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

def Aclop_CastOp : Aclop_InferredOp<"cast"> {
  let summary = "Element type conversion (CANN Cast)";
  let description = [{
    Converts every element to `dst_type` (f32, f16, bf16, f64, i8, ui8, i16, i32, i64, i1).
    Float to integer rounds toward zero and saturates (NaN becomes 0); integer narrowing wraps
    unless `truncate` is false, in which case it saturates; to i1 is "not equal to zero".

    ```mlir
    %r = aclop.cast %x {dst_type = f16} : (tensor<3xf32>) -> tensor<3xf16>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, TypeAttr:$dst_type,
                   DefaultValuedAttr<BoolAttr, "true">:$truncate);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Element-wise binary ops with NumPy broadcasting
//===----------------------------------------------------------------------===//

class Aclop_BinaryOp<string mnemonic, string cannName> : Aclop_InferredOp<mnemonic, [Aclop_BroadcastsOperands]> {
  let summary = "Element-wise " # mnemonic # " with NumPy broadcasting (CANN " # cannName # ")";
  let description = [{
    Both operands have one element type; their shapes broadcast as in NumPy (a static 1
    stretches; a dynamic dim never broadcasts and must equal the other side at run time).
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def Aclop_AddOp : Aclop_BinaryOp<"add", "Add">;
def Aclop_SubOp : Aclop_BinaryOp<"sub", "Sub">;
def Aclop_MulOp : Aclop_BinaryOp<"mul", "Mul">;
def Aclop_DivOp : Aclop_BinaryOp<"div", "RealDiv">;
def Aclop_MaximumOp : Aclop_BinaryOp<"maximum", "Maximum">;
def Aclop_MinimumOp : Aclop_BinaryOp<"minimum", "Minimum">;
def Aclop_PowOp : Aclop_BinaryOp<"pow", "Pow">;
def Aclop_SquaredDifferenceOp : Aclop_BinaryOp<"squared_difference", "SquaredDifference">;
def Aclop_FloorDivOp : Aclop_BinaryOp<"floor_div", "FloorDiv"> {
  let description = [{
    floor(lhs / rhs): for integers the quotient rounded toward -inf (x / 0 is 0; MIN / -1 wraps).
    Operands broadcast as in NumPy.
  }];
}
def Aclop_FloorModOp : Aclop_BinaryOp<"floor_mod", "FloorMod"> {
  let description = [{
    lhs - floor(lhs / rhs) * rhs, the remainder with the divisor's sign (Python's %); for
    integers x % 0 is 0. Operands broadcast as in NumPy.
  }];
}

def Aclop_ClipByValueOp : Aclop_InferredOp<"clip_by_value", [Aclop_BroadcastsOperands]> {
  let summary = "min(max(x, low), high), element-wise with NumPy broadcasting (CANN ClipByValue)";
  let description = [{
    The three operands have one element type and broadcast together; a float NaN in any of them
    gives NaN.
  }];
  let arguments = (ins AnyRankedTensor:$x, AnyRankedTensor:$low, AnyRankedTensor:$high);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$x `,` $low `,` $high attr-dict `:` functional-type(operands, results)";
}

def Aclop_AddNOp : Aclop_InferredOp<"add_n"> {
  let summary = "The element-wise sum of one or more tensors of one type and shape (CANN AddN)";
  let description = [{
    f16 and bf16 sums are taken in f32 and rounded once.

    ```mlir
    %r = aclop.add_n %a, %b, %c : (tensor<4x?xf16>, tensor<4x?xf16>, tensor<4x?xf16>) -> tensor<4x?xf16>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Comparisons and logical ops: i1 results, NumPy broadcasting
//===----------------------------------------------------------------------===//

class Aclop_CompareOp<string mnemonic, string cannName> : Aclop_BinaryOp<mnemonic, cannName> {
  let summary = "Element-wise " # mnemonic # " comparison to i1 with NumPy broadcasting (CANN " # cannName # ")";
  let description = [{
    Both operands have one element type; the result is i1 of their broadcast shape. Float
    comparisons with a NaN are false, except `not_equal`, which is true.
  }];
}

def Aclop_EqualOp : Aclop_CompareOp<"equal", "Equal">;
def Aclop_NotEqualOp : Aclop_CompareOp<"not_equal", "NotEqual">;
def Aclop_GreaterOp : Aclop_CompareOp<"greater", "Greater">;
def Aclop_GreaterEqualOp : Aclop_CompareOp<"greater_equal", "GreaterEqual">;
def Aclop_LessOp : Aclop_CompareOp<"less", "Less">;
def Aclop_LessEqualOp : Aclop_CompareOp<"less_equal", "LessEqual">;

def Aclop_LogicalAndOp : Aclop_BinaryOp<"logical_and", "LogicalAnd">;
def Aclop_LogicalOrOp : Aclop_BinaryOp<"logical_or", "LogicalOr">;

def Aclop_SelectOp : Aclop_InferredOp<"select", [Aclop_BroadcastsOperands]> {
  let summary = "condition ? x : y, element-wise with NumPy broadcasting (CANN SelectV2)";
  let description = [{
    `condition` is i1; `x` and `y` have one element type, which the result has. The three
    shapes broadcast together.

    ```mlir
    %r = aclop.select %c, %x, %y : (tensor<4x1xi1>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$condition, AnyRankedTensor:$x, AnyRankedTensor:$y);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$condition `,` $x `,` $y attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Element-wise unary ops
//===----------------------------------------------------------------------===//

class Aclop_UnaryOp<string mnemonic, string cannName> : Aclop_InferredOp<mnemonic> {
  let summary = "Element-wise " # mnemonic # " (CANN " # cannName # ")";
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Aclop_ReluOp : Aclop_UnaryOp<"relu", "Relu">;
def Aclop_GeluOp : Aclop_UnaryOp<"gelu", "Gelu">;
def Aclop_SigmoidOp : Aclop_UnaryOp<"sigmoid", "Sigmoid">;
def Aclop_TanhOp : Aclop_UnaryOp<"tanh", "Tanh">;
def Aclop_ExpOp : Aclop_UnaryOp<"exp", "Exp">;
def Aclop_LogOp : Aclop_UnaryOp<"log", "Log">;
def Aclop_SqrtOp : Aclop_UnaryOp<"sqrt", "Sqrt">;
def Aclop_RsqrtOp : Aclop_UnaryOp<"rsqrt", "Rsqrt">;
def Aclop_AbsOp : Aclop_UnaryOp<"abs", "Abs">;
def Aclop_NegOp : Aclop_UnaryOp<"neg", "Neg">;
def Aclop_SquareOp : Aclop_UnaryOp<"square", "Square">;
def Aclop_ReciprocalOp : Aclop_UnaryOp<"reciprocal", "Reciprocal">;
def Aclop_SignOp : Aclop_UnaryOp<"sign", "Sign">;
def Aclop_FloorOp : Aclop_UnaryOp<"floor", "Floor">;
def Aclop_CeilOp : Aclop_UnaryOp<"ceil", "Ceil">;
def Aclop_RoundOp : Aclop_UnaryOp<"round", "Round"> {
  let description = [{ Rounds to the nearest integer, halfway cases to even. }];
}
def Aclop_SinOp : Aclop_UnaryOp<"sin", "Sin">;
def Aclop_CosOp : Aclop_UnaryOp<"cos", "Cos">;
def Aclop_ErfOp : Aclop_UnaryOp<"erf", "Erf">;
def Aclop_SoftplusOp : Aclop_UnaryOp<"softplus", "Softplus"> {
  let description = [{ log(1 + exp(x)), computed as max(x, 0) + log1p(exp(-|x|)) so that it neither overflows nor loses small results. }];
}
def Aclop_LogicalNotOp : Aclop_UnaryOp<"logical_not", "LogicalNot">;
def Aclop_Log1pOp : Aclop_UnaryOp<"log1p", "Log1p"> {
  let description = [{ log(1 + x), accurate where 1 + x rounds (Goldberg's method). }];
}
def Aclop_Expm1Op : Aclop_UnaryOp<"expm1", "Expm1"> {
  let description = [{ exp(x) - 1, accurate near 0: (u - 1) * x / log(u) with u = exp(x) (Kahan's method). }];
}
def Aclop_ZerosLikeOp : Aclop_UnaryOp<"zeros_like", "ZerosLike">;
def Aclop_OnesLikeOp : Aclop_UnaryOp<"ones_like", "OnesLike">;

def Aclop_LeakyReluOp : Aclop_InferredOp<"leaky_relu"> {
  let summary = "x for x >= 0, else negative_slope * x (CANN LeakyRelu)";
  let arguments = (ins AnyRankedTensor:$input, DefaultValuedAttr<F32Attr, "0.0f">:$negative_slope);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Reductions, softmax, log_softmax, layer_norm, transpose
//===----------------------------------------------------------------------===//

class Aclop_ReduceOp<string mnemonic, string cannName> : Aclop_InferredOp<mnemonic> {
  let summary = "Reduction over `axes` (CANN " # cannName # ")";
  let description = [{
    `axes` may be negative (counted from the end) and must be distinct; an empty list reduces
    every dimension. With `keep_dims` the reduced dims stay as 1.
  }];
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$axes,
                   DefaultValuedAttr<BoolAttr, "false">:$keep_dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Aclop_ReduceSumOp : Aclop_ReduceOp<"reduce_sum", "ReduceSum">;
def Aclop_ReduceMaxOp : Aclop_ReduceOp<"reduce_max", "ReduceMax">;
def Aclop_ReduceMeanOp : Aclop_ReduceOp<"reduce_mean", "ReduceMean">;
def Aclop_ReduceMinOp : Aclop_ReduceOp<"reduce_min", "ReduceMin">;
def Aclop_ReduceProdOp : Aclop_ReduceOp<"reduce_prod", "ReduceProd">;

class Aclop_ArgReduceOp<string mnemonic, string cannName, string extreme> : Aclop_InferredOp<mnemonic> {
  let summary = "Index of the " # extreme # " along `axis` (CANN " # cannName # ")";
  let description = [{
    The result drops `axis` and holds indices of type `result_type` (i32 or i64, default i64).
    Ties give the first index. A NaN never compares larger (smaller), so it is never picked over
    a number, and the index is 0 where nothing beats -inf (+inf for `arg_min`).
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$axis, OptionalAttr<TypeAttr>:$result_type);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Aclop_ArgMaxOp : Aclop_ArgReduceOp<"arg_max", "ArgMaxV2", "largest element">;
def Aclop_ArgMinOp : Aclop_ArgReduceOp<"arg_min", "ArgMin", "smallest element">;

def Aclop_SoftmaxOp : Aclop_InferredOp<"softmax"> {
  let summary = "exp(x - max) / sum(exp(x - max)) over `axes` (CANN SoftmaxV2)";
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Aclop_LogSoftmaxOp : Aclop_InferredOp<"log_softmax"> {
  let summary = "x - max - log(sum(exp(x - max))) over `axes` (CANN LogSoftmaxV2)";
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Aclop_LayerNormOp : Aclop_InferredOp<"layer_norm"> {
  let summary = "Layer normalization over the dims from `begin_norm_axis` (CANN LayerNorm)";
  let description = [{
    `mean` and `variance` (the population variance) of `input` over its dims from
    `begin_norm_axis` on, kept as 1s; `y = (input - mean) / sqrt(variance + epsilon) * gamma +
    beta`, where `gamma` and `beta` have the input's dims from `begin_params_axis` on. Float
    inputs; `gamma` and `beta` have the input's element type or f32. Computed in f32 (f64 for
    f64), with the variance taken about the mean (two passes), so that large offsets do not
    cancel.

    ```mlir
    %y, %mean, %var = aclop.layer_norm %x, %g, %b {begin_norm_axis = 1, begin_params_axis = 1}
        : (tensor<8x64xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<8x64xf32>, tensor<8x1xf32>, tensor<8x1xf32>)
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, AnyRankedTensor:$gamma, AnyRankedTensor:$beta,
                   DefaultValuedAttr<I64Attr, "0">:$begin_norm_axis,
                   DefaultValuedAttr<I64Attr, "0">:$begin_params_axis,
                   DefaultValuedAttr<F32Attr, "1e-7f">:$epsilon);
  let results = (outs AnyRankedTensor:$y, AnyRankedTensor:$mean, AnyRankedTensor:$variance);
  let assemblyFormat = "$input `,` $gamma `,` $beta attr-dict `:` functional-type(operands, results)";
}

def Aclop_TransposeOp : Aclop_InferredOp<"transpose"> {
  let summary = "Permutes dimensions: result dim i is input dim perm[i] (CANN Transpose)";
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Data movement: slice, broadcast_to, tile, concat, pad, gather, split
//===----------------------------------------------------------------------===//

def Aclop_SliceOp : Aclop_InferredOp<"slice"> {
  let summary = "The box of `sizes` elements from `offsets` (CANN Slice / SliceD)";
  let description = [{
    One offset and one size per dim; a size of -1 reaches the end of the dim. A dynamic dim can
    only be taken whole (offset 0, size -1): its bounds are not known to check.

    ```mlir
    %r = aclop.slice %x {offsets = array<i64: 1, 0>, sizes = array<i64: 2, -1>} : (tensor<4x5xf32>) -> tensor<2x5xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$offsets, DenseI64ArrayAttr:$sizes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Aclop_StridedSliceOp : Aclop_InferredOp<"strided_slice"> {
  let summary = "Every strides[i]-th element from offsets[i], sizes[i] of them, along each dim (CANN StridedSlice)";
  let description = [{
    One offset, size and stride (not 0; negative walks backward) per dim; every index read lies
    in the dim. The `shrink` dims, each of size 1, are dropped from the result; then a dim of 1 is
    inserted at each of the result's `new_axes` (TensorFlow's new_axis_mask). A dynamic dim can
    only be taken whole (offset 0, size -1, stride 1).

    ```mlir
    %r = aclop.strided_slice %x {offsets = array<i64: 3, 0>, sizes = array<i64: 2, 1>, strides = array<i64: -2, 1>, shrink = array<i64: 1>, new_axes = array<i64: 0>}
        : (tensor<4x5xf32>) -> tensor<1x2xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$offsets, DenseI64ArrayAttr:$sizes,
                   DenseI64ArrayAttr:$strides, DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$shrink,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$new_axes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Aclop_BroadcastToOp : Aclop_InferredOp<"broadcast_to"> {
  let summary = "The input broadcast to `shape`, as NumPy does (CANN BroadcastTo / BroadcastToD)";
  let description = [{
    Dims align from the right; each input dim is 1 or equal to the target's, and `shape` has at
    least the input's rank. A dynamic input dim must be the target's (it never stretches).
  }];
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Aclop_TileOp : Aclop_InferredOp<"tile"> {
  let summary = "The input repeated `multiples[i]` times along dim i (CANN Tile / TileD)";
  let description = [{
    `multiples` has one entry per dim (>= 0). A dynamic dim can only be repeated once.
  }];
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$multiples);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Aclop_ConcatOp : Aclop_InferredOp<"concat"> {
  let summary = "The inputs joined along `axis` (CANN ConcatD / ConcatV2D / ConcatV2 / Concat)";
  let description = [{
    One or more inputs of one element type and rank (>= 1), equal in every dim but `axis`
    (negative counts from the end), which must be static.

    ```mlir
    %r = aclop.concat %a, %b {axis = -1} : (tensor<2x3xf16>, tensor<2x5xf16>) -> tensor<2x8xf16>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs, I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
}

def Aclop_PadOp : Aclop_InferredOp<"pad"> {
  let summary = "The input with `low` and `high` elements around each dim (CANN Pad / PadV3 / MirrorPad)";
  let description = [{
    `low` and `high` hold one count (>= 0) per dim. `mode` says what the padding holds:
    `constant` (the default) `value`, converted to the element type as Cast converts; `reflect`
    the input mirrored about its edge element (at most size - 1 on a side); `symmetric` mirrored
    with the edge element repeated (at most size); `edge` the edge element repeated (a dim
    padded so needs an element). The input's dims are static.

    ```mlir
    %r = aclop.pad %x {low = array<i64: 1, 0>, high = array<i64: 0, 2>} : (tensor<3x4xf32>) -> tensor<4x6xf32>
    %m = aclop.pad %x {low = array<i64: 2, 0>, high = array<i64: 0, 1>, mode = "reflect"} : (tensor<3x4xf32>) -> tensor<5x5xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$low, DenseI64ArrayAttr:$high,
                   DefaultValuedAttr<F32Attr, "0.0f">:$value, DefaultValuedAttr<StrAttr, "\"constant\"">:$mode);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

def Aclop_GatherOp : Aclop_InferredOp<"gather"> {
  let summary = "Slices of `params` along `axis` picked by `indices` (CANN GatherV2 / Gather)";
  let description = [{
    The result is params' dims before `axis`, then indices' dims, then params' dims after it:
    `result[o..., i..., n...] = params[o..., indices[i...], n...]`. Indices are i32 or i64; an
    index outside [0, params' size along `axis`) gives zeros (it reads nothing, also where params
    are empty along `axis`).

    ```mlir
    %r = aclop.gather %table, %ids {axis = 0} : (tensor<1000x64xf32>, tensor<8x5xi32>) -> tensor<8x5x64xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$params, AnyRankedTensor:$indices, I64Attr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$params `,` $indices attr-dict `:` functional-type(operands, results)";
}

def Aclop_SplitOp : Aclop_InferredOp<"split"> {
  let summary = "The input cut along `axis` into pieces of `sizes` (CANN Split / SplitD / SplitV / SplitVD)";
  let description = [{
    One result per entry of `sizes`, in order along `axis` (negative counts from the end). Each
    size is >= 0 but one may be -1: the rest of the dim. The sizes sum to the dim; along a
    dynamic dim only the -1 piece may be dynamic.

    ```mlir
    %a, %b = aclop.split %x {axis = 1, sizes = array<i64: 2, -1>} : (tensor<4x5xf32>) -> (tensor<4x2xf32>, tensor<4x3xf32>)
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$axis, DenseI64ArrayAttr:$sizes);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
}

#endif // ACLOP_OPS_TD
