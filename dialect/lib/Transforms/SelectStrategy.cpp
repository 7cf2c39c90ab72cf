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

Type elementType(Value value) { return cast<ShapedType>(value.getType()).getElementType(); }

// True if the body is c + sext(a) * sext(b) (i8 tensors carry no signedness: a u8 product
// zero-extends and is not this).
bool isSignedMultiplyAccumulate(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  auto add = body->getTerminator()->getOperand(0).getDefiningOp<arith::AddIOp>();
  if (!add) return false;
  Value accumulator = body->getArgument(2);
  Value product = add.getLhs() == accumulator ? add.getRhs() : add.getRhs() == accumulator ? add.getLhs() : Value();
  auto multiply = product ? product.getDefiningOp<arith::MulIOp>() : arith::MulIOp();
  if (!multiply) return false;
  auto extended = [&](Value value, unsigned argument) {
    auto extension = value.getDefiningOp<arith::ExtSIOp>();
    return extension && extension.getIn() == body->getArgument(argument);
  };
  return (extended(multiply.getLhs(), 0) && extended(multiply.getRhs(), 1)) ||
         (extended(multiply.getLhs(), 1) && extended(multiply.getRhs(), 0));
}

// The ukernel (of those the target provides) that computes this product's cache tiles, or "".
StringRef selectUkernel(linalg::LinalgOp op, ArrayRef<std::string> available) {
  auto provided = [&](StringRef name) { return llvm::is_contained(available, name); };
  Type a = elementType(op.getDpsInputs()[0]), b = elementType(op.getDpsInputs()[1]);
  Type c = elementType(op.getDpsInits()[0]);
  if (a.isInteger(8) && b.isInteger(8) && c.isInteger(32) && isSignedMultiplyAccumulate(op) &&
      provided("aclcpu_ukernel_gemm_s8s8s32_vnni"))
    return "aclcpu_ukernel_gemm_s8s8s32_vnni";
  return "";
}

// Cache tiles for a contraction: a (k x n) panel of b that stays in L2 while `rows` rows of a
// stream past it; the row tiles are what blocks divide. A ukernel packs its panel of b on each
// call, so it gets as many rows to spread that over as still leaves four row tiles to share
// out (measured at 1024^3 on one core: 128 x 256 tiles 468 GOP/s, 256 x 512 tiles 496).
SmallVector<int64_t> cacheTiles(linalg::LinalgOp op, bool ukernel) {
  unsigned loops = op.getNumLoops();
  SmallVector<int64_t> tiles(loops, 0);
  if (loops == 4) tiles[0] = 1;  // one batch at a time
  tiles[loops - 3] = 64;         // rows
  tiles[loops - 2] = 128;        // depth
  tiles[loops - 1] = 512;        // columns
  if (ukernel) {
    int64_t rows = op.getStaticLoopRanges()[loops - 3];
    tiles[loops - 3] = ShapedType::isDynamic(rows) ? 128 : rows >= 4 * 256 ? 256 : rows >= 4 * 128 ? 128 : 64;
    tiles[loops - 2] = 512;
  }
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
        StringRef ukernel = selectUkernel(op, ukernels);
        strategy.push_back(b.getNamedAttr("cache_tiles", b.getDenseI64ArrayAttr(cacheTiles(op, !ukernel.empty()))));
        if (!ukernel.empty()) strategy.push_back(b.getNamedAttr("ukernel", b.getStringAttr(ukernel)));
      }
      op->setAttr("aclop.strategy", b.getDictionaryAttr(strategy));
    });
  }
};

} // namespace
