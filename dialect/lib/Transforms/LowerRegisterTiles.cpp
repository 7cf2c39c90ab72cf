//===- LowerRegisterTiles.cpp - keep register tiles in registers ----------===//
//
// After bufferization, a vectorized register tile of a product reads its 8x32 accumulator
// from C, adds one k step, and writes it back, inside the k loop. Folding the subviews into
// the transfers makes those reads and writes visibly loop-invariant; hoisting them out of the
// k loop leaves the accumulators in registers for the whole depth tile; the k step's add then
// carries the product's `contract` flag so that it becomes an FMA.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPLOWERREGISTERTILES
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

// True if `value` is a contractable multiply, possibly reshaped.
bool isContractableProduct(Value value) {
  while (auto cast = value.getDefiningOp<vector::ShapeCastOp>()) value = cast.getSource();
  auto multiply = value.getDefiningOp<arith::MulFOp>();
  return multiply && arith::bitEnumContainsAll(multiply.getFastmath(), arith::FastMathFlags::contract);
}

struct AclopLowerRegisterTilesPass : aclop::impl::AclopLowerRegisterTilesBase<AclopLowerRegisterTilesPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    memref::populateFoldMemRefAliasOpPatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    scf::ForOp::getCanonicalizationPatterns(patterns, context);
    // Not reaching a fixpoint is no error: every step was a valid rewrite. MLIR 22's alias
    // folding keeps rewriting a masked, transposing transfer_read of an expand_shape (a
    // convolution's filter, packed for the product) without converging.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
    // The folded indices are fresh affine.applys in the loop bodies: move the invariant ones
    // out and merge duplicates, or the read and the write of an accumulator look unrelated.
    getOperation().walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
    IRRewriter rewriter(&getContext());
    DominanceInfo dominance(getOperation());
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());
    linalg::hoistRedundantVectorTransfers(getOperation());
    // A k step of a register tile is a multi_reduction over a unit dim: it becomes an addf,
    // which may contract with its product (as the product's own add is allowed to), so that
    // LLVM emits FMAs.
    RewritePatternSet reductions(context);
    vector::MultiDimReductionOp::getCanonicalizationPatterns(reductions, context);
    vector::populateVectorMultiReductionLoweringPatterns(reductions, vector::VectorMultiReductionLowering::InnerParallel);
    if (failed(applyPatternsGreedily(getOperation(), std::move(reductions)))) return signalPassFailure();
    getOperation().walk([](arith::AddFOp add) {
      if (isContractableProduct(add.getLhs()) || isContractableProduct(add.getRhs()))
        add.setFastmath(add.getFastmath() | arith::FastMathFlags::contract);
    });
  }
};

} // namespace
