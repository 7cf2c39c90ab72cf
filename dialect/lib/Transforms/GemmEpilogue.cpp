//===- GemmEpilogue.cpp - GEMM's alpha/beta epilogue, recognized --------------===//
#include "GemmEpilogue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace {

// True if `value` is lhs OP rhs in either order.
template <typename Op>
bool isCommutative(Value value, Value lhs, Value rhs) {
  auto op = value.getDefiningOp<Op>();
  return op && ((op.getLhs() == lhs && op.getRhs() == rhs) || (op.getLhs() == rhs && op.getRhs() == lhs));
}

template <typename Mul, typename Add>
bool isScaledSum(Value scaled, Value withC, Value acc, Value c, Value alpha, Value beta) {
  if (!isCommutative<Mul>(scaled, alpha, acc)) return false;
  auto add = withC.getDefiningOp<Add>();
  if (!add) return false;
  Value other = add.getLhs() == scaled ? add.getRhs() : add.getRhs() == scaled ? add.getLhs() : Value();
  return other && isCommutative<Mul>(other, beta, c);
}

bool isBetaZero(Value condition, Value beta) {
  if (auto compare = condition.getDefiningOp<arith::CmpFOp>())
    return compare.getPredicate() == arith::CmpFPredicate::OEQ && compare.getLhs() == beta &&
           aclop::isZeroConstant(compare.getRhs());
  if (auto compare = condition.getDefiningOp<arith::CmpIOp>())
    return compare.getPredicate() == arith::CmpIPredicate::eq && compare.getLhs() == beta &&
           aclop::isZeroConstant(compare.getRhs());
  return false;
}

} // namespace

// Read off the arith.constant's attribute: matchPattern(value, m_Zero()), which folds the op,
// matched these constants in op-opt but not in the JIT's compile of the same IR.
bool mlir::aclop::isZeroConstant(Value value) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  if (!constant) return false;
  if (auto integer = dyn_cast<IntegerAttr>(constant.getValue())) return integer.getValue().isZero();
  if (auto real = dyn_cast<FloatAttr>(constant.getValue())) return real.getValue().isZero();
  return false;
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
  Value acc = body->getArgument(0), c = body->getArgument(1), alpha = body->getArgument(2),
        beta = body->getArgument(3);
  auto select = body->getTerminator()->getOperand(0).getDefiningOp<arith::SelectOp>();
  if (!select || !isBetaZero(select.getCondition(), beta)) return false;
  Value scaled = select.getTrueValue(), withC = select.getFalseValue();
  return element.isF32() ? isScaledSum<arith::MulFOp, arith::AddFOp>(scaled, withC, acc, c, alpha, beta)
                         : isScaledSum<arith::MulIOp, arith::AddIOp>(scaled, withC, acc, c, alpha, beta);
}
