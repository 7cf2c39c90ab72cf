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

// The product generics of convert-aclop-to-linalg: dims (batch?, m, k, n) with k the only
// reduction, a(.., m, k) * b(.., k, n) accumulated into c(.., m, n).
bool isContraction(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumDpsInputs() != 2 || generic.getNumDpsInits() != 1) return false;
  unsigned loops = generic.getNumLoops();
  if ((loops != 3 && loops != 4) || generic.getNumReductionLoops() != 1) return false;
  auto iterators = generic.getIteratorTypesArray();
  return iterators[loops - 2] == utils::IteratorType::reduction;
}

// Cache tiles for a contraction: a (k x n) panel of b that stays in L2 while `rows` rows of a
// stream past it; the row tiles are what blocks divide.
SmallVector<int64_t> cacheTiles(linalg::LinalgOp op) {
  unsigned loops = op.getNumLoops();
  SmallVector<int64_t> tiles(loops, 0);
  if (loops == 4) tiles[0] = 1;  // one batch at a time
  tiles[loops - 3] = 64;         // rows
  tiles[loops - 2] = 128;        // depth
  tiles[loops - 1] = 512;        // columns
  return tiles;
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
      } else if (isContraction(op)) {
        strategy.push_back(b.getNamedAttr("cache_tiles", b.getDenseI64ArrayAttr(cacheTiles(op))));
      }
      op->setAttr("aclop.strategy", b.getDictionaryAttr(strategy));
    });
  }
};

} // namespace
