//===- GemmEpilogue.cpp - GEMM's alpha/beta epilogue, recognized --------------===//
#include "GemmEpilogue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace {

// The operand of `lhs OP rhs` (either order) other than `known`, or null.
template <typename Op>
Value otherOperand(Value value, Value known) {
  auto op = value.getDefiningOp<Op>();
  if (!op) return Value();
  return op.getLhs() == known ? op.getRhs() : op.getRhs() == known ? op.getLhs() : Value();
}

// beta, if `condition` is beta == 0.
Value comparedWithZero(Value condition) {
  if (auto compare = condition.getDefiningOp<arith::CmpFOp>())
    if (compare.getPredicate() == arith::CmpFPredicate::OEQ && aclop::isZeroConstant(compare.getRhs()))
      return compare.getLhs();
  if (auto compare = condition.getDefiningOp<arith::CmpIOp>())
    if (compare.getPredicate() == arith::CmpIPredicate::eq && aclop::isZeroConstant(compare.getRhs()))
      return compare.getLhs();
  return Value();
}

template <typename Mul, typename Add>
std::optional<aclop::ScaledEpilogueParts> matchScaledSum(Value scaled, Value withC, Value beta,
                                                         function_ref<bool(Value)> isAccumulator) {
  auto product = scaled.getDefiningOp<Mul>();
  if (!product) return std::nullopt;
  Value acc = product.getRhs(), alpha = product.getLhs();
  if (!isAccumulator(acc)) std::swap(acc, alpha);
  if (!isAccumulator(acc) || isAccumulator(alpha)) return std::nullopt;
  Value c = otherOperand<Mul>(otherOperand<Add>(withC, scaled), beta);
  if (!c) return std::nullopt;
  return aclop::ScaledEpilogueParts{acc, c, alpha, beta};
}

} // namespace

bool mlir::aclop::isZeroConstant(Value value) {
  return matchPattern(value, m_Zero()) || matchPattern(value, m_AnyZeroFloat());
}

std::optional<aclop::ScaledEpilogueParts> mlir::aclop::matchScaledEpilogue(Value result,
                                                                          function_ref<bool(Value)> isAccumulator) {
  auto select = result.getDefiningOp<arith::SelectOp>();
  if (!select) return std::nullopt;
  Value beta = comparedWithZero(select.getCondition());
  if (!beta) return std::nullopt;
  Type element = getElementTypeOrSelf(result);
  if (element.isF32())
    return matchScaledSum<arith::MulFOp, arith::AddFOp>(select.getTrueValue(), select.getFalseValue(), beta,
                                                        isAccumulator);
  if (element.isInteger(32))
    return matchScaledSum<arith::MulIOp, arith::AddIOp>(select.getTrueValue(), select.getFalseValue(), beta,
                                                        isAccumulator);
  return std::nullopt;
}

bool mlir::aclop::isScaledGemmEpilogue(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 4 || op.getNumDpsInits() != 1 || op.getNumLoops() != 2 ||
      op.getNumReductionLoops() != 0)
    return false;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[0].isIdentity() || !maps[1].isIdentity() || !maps[4].isIdentity() || maps[2].getNumResults() != 0 ||
      maps[3].getNumResults() != 0)
    return false;
  Block *body = op.getBlock();
  Type element = body->getArgument(0).getType();
  if (!(element.isF32() || element.isInteger(32)) ||
      llvm::any_of(body->getArgumentTypes(), [&](Type type) { return type != element; }))
    return false;
  Value acc = body->getArgument(0);
  std::optional<ScaledEpilogueParts> parts =
      matchScaledEpilogue(body->getTerminator()->getOperand(0), [&](Value value) { return value == acc; });
  return parts && parts->c == body->getArgument(1) && parts->alpha == body->getArgument(2) &&
         parts->beta == body->getArgument(3);
}

namespace {

// The loop dim of `op`'s bias if it is ins(acc, bias) outs(result) computing acc + bias and
// nothing else, all f32, acc and the result element for element and the bias 1-D.
std::optional<unsigned> biasDim(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 0) return std::nullopt;
  Block *body = op.getBlock();
  if (llvm::any_of(body->getArgumentTypes(), [](Type type) { return !type.isF32(); })) return std::nullopt;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[0].isIdentity() || !maps[2].isIdentity() || maps[1].getNumResults() != 1) return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(maps[1].getResult(0));
  // The body: yield acc + bias, nothing else.
  auto add = body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!dim || !add || body->getOperations().size() != 2) return std::nullopt;
  Value acc = body->getArgument(0), bias = body->getArgument(1);
  if (!(add.getLhs() == acc && add.getRhs() == bias) && !(add.getLhs() == bias && add.getRhs() == acc))
    return std::nullopt;
  return dim.getPosition();
}

} // namespace

bool mlir::aclop::isBiasEpilogue(linalg::GenericOp op) { return biasDim(op) == op.getNumLoops() - 1; }

bool mlir::aclop::isRowBiasEpilogue(linalg::GenericOp op) { return op.getNumLoops() == 2 && biasDim(op) == 0u; }
