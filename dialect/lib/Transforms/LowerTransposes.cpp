//===- LowerTransposes.cpp - 2-D vector transposes as shuffles ------------------===//
//
// A 2-D vector.transpose of 16- or 8-bit elements (a 16x16 f16 tile of a transposed read on
// AVX2) becomes one vector.shuffle of the flattened vector, which LLVM's x86 backend lowers to
// word and byte unpacks: convert-vector-to-llvm's element-wise lowering (an extract and an
// insert an element) left 632 instructions a 16x16 f16 tile, this 406 (TransposeD of 4096x4096
// f16, one core: 2.8 -> 4.1 GB/s). With 512-bit vectors, a 16x16 transpose of 32-bit elements
// (a transposed f32 read's tile, GEMM's panel of B stored (n, k)) becomes MLIR's 16x16 shuffle
// sequence: 64 unpacks and 128-bit lane shuffles, where the element-wise lowering left LLVM ~200
// two-source permutes and as many register copies (TransposeD of 4096x4096 f32, one core, its
// next block prefetched and non-temporal stores: 14-16 -> 10.6-10.9 ms). Other 32-bit transposes
// keep the element-wise lowering: on AVX2 the shuffle changed the instructions but not the rate.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPLOWERTRANSPOSES
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

// Lowers `transposes` alone (not the ops the patterns create) by `lowering`.
LogicalResult lowerTransposes(ArrayRef<Operation *> transposes, vector::VectorTransposeLowering lowering,
                              MLIRContext *context) {
  if (transposes.empty()) return success();
  RewritePatternSet patterns(context);
  vector::populateVectorTransposeLoweringPatterns(patterns, lowering);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingOps);
  return applyOpPatternsGreedily(transposes, std::move(patterns), config);
}

struct AclopLowerTransposesPass : aclop::impl::AclopLowerTransposesBase<AclopLowerTransposesPass> {
  using AclopLowerTransposesBase::AclopLowerTransposesBase;

  void runOnOperation() override {
    SmallVector<Operation *> narrow, square;
    getOperation().walk([&](vector::TransposeOp transpose) {
      VectorType type = transpose.getSourceVectorType();
      if (type.getRank() != 2) return;
      unsigned bits = type.getElementType().getIntOrFloatBitWidth();
      if (bits < 32) narrow.push_back(transpose);
      else if (bits == 32 && vectorBits >= 512 && type.getShape() == ArrayRef<int64_t>{16, 16})
        square.push_back(transpose);
    });
    if (failed(lowerTransposes(narrow, vector::VectorTransposeLowering::Shuffle1D, &getContext())) ||
        failed(lowerTransposes(square, vector::VectorTransposeLowering::Shuffle16x16, &getContext())))
      signalPassFailure();
  }
};

} // namespace
