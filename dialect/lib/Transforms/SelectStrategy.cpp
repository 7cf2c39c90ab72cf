//===- SelectStrategy.cpp - per-op tile and vector sizes -------------------===//
//
// The strategy is data on the op (`aclop.strategy`), not code in the passes that apply it, so
// a lit test can check what was chosen and a later, smarter selector changes only this file.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPSELECTSTRATEGY
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

unsigned widestElementBits(linalg::LinalgOp op) {
  unsigned bits = 8;
  for (Value operand : op->getOperands())
    if (auto shaped = dyn_cast<ShapedType>(operand.getType()))
      if (shaped.getElementType().isIntOrFloat()) bits = std::max(bits, shaped.getElementType().getIntOrFloatBitWidth());
  return bits;
}

// Element-wise generics writing their output in iteration order tile well: one vector along
// the innermost dimension, every outer dimension tile 1.
bool isContiguousElementwise(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumLoops() == 0 || generic.getNumReductionLoops() != 0) return false;
  return llvm::all_of(generic.getDpsInitsMutable(), [&](OpOperand &init) {
    return generic.getMatchingIndexingMap(&init).isIdentity();
  });
}

struct AclopSelectStrategyPass : aclop::impl::AclopSelectStrategyBase<AclopSelectStrategyPass> {
  using AclopSelectStrategyBase::AclopSelectStrategyBase;
  void runOnOperation() override {
    getOperation()->walk([&](linalg::LinalgOp op) {
      Builder b(op);
      int64_t vectorSize = std::max<int64_t>(1, vectorBits / widestElementBits(op));
      SmallVector<NamedAttribute> strategy{b.getNamedAttr("vector_size", b.getI64IntegerAttr(vectorSize))};
      if (isContiguousElementwise(op)) {
        SmallVector<int64_t> tiles(op.getNumLoops(), 1);
        tiles.back() = vectorSize;
        strategy.push_back(b.getNamedAttr("tile_sizes", b.getDenseI64ArrayAttr(tiles)));
      }
      op->setAttr("aclop.strategy", b.getDictionaryAttr(strategy));
    });
  }
};

} // namespace
