//===- GemmEpilogue.h - GEMM's alpha/beta epilogue, recognized ----------------===//
//
// GEMM's epilogue, result = select(beta == 0, alpha * acc, alpha * acc + beta * c), as
// convert-aclop-to-linalg writes it. A ukernel computes it together with the product
// (kernels/ukernels/ukernels.h), so aclop-tile-and-vectorize fuses it into the product's row
// tiles and leaves it whole, and aclop-call-ukernels folds it into the call; a generated
// register tile computes it on vectors, and aclop-version-gemm-epilogue gives it a branch that
// stores the accumulator alone when alpha = 1 and beta = 0.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::aclop {

// The operands of the epilogue's formula, scalars in a linalg body or vectors in a register tile.
struct ScaledEpilogueParts {
  Value acc, c, alpha, beta;
};

// The parts if `result` is the formula above, in f32 or i32 arithmetic, with `isAccumulator`
// telling acc from alpha in their product.
std::optional<ScaledEpilogueParts> matchScaledEpilogue(Value result, function_ref<bool(Value)> isAccumulator);

// True if `op` is ins(acc, c, alpha, beta) outs(result), 2-D, with identity maps for acc, c
// and the result and 0-d alpha and beta, all of one f32 or i32 type, and computes the above
// with no conversions.
bool isScaledGemmEpilogue(linalg::GenericOp op);

// True if `op` is ins(acc, bias) outs(result) over (rows?, ..., n) computing acc + bias and nothing
// else, all f32: acc and the result with identity maps, the bias along the last dim (MatMul's
// bias over N). A ukernel computes it as its scaled mode with alpha = beta = 1 and the bias as
// Cin, every row reading the same one (row stride 0).
bool isBiasEpilogue(linalg::GenericOp op);

// The same over (m, n) with the bias along m: one element a row (an NCHW convolution's bias over
// its out channels, which are the product's rows). A ukernel computes it with the bias as Cin
// of column stride 0; generated register tiles do not.
bool isRowBiasEpilogue(linalg::GenericOp op);

// True if `value` is an arith.constant integer or float zero (either sign), or a splat of one.
bool isZeroConstant(Value value);

} // namespace mlir::aclop
