//===- LowerDynamicExpandShapes.cpp - expand_shapes expand-strided-metadata cannot take -===//
//
// A memref.expand_shape that splits one dim into two or more dynamic ones, as a
// memref.reinterpret_cast of its source's base buffer: LLVM 22's expand-strided-metadata
// assumes one dynamic size a group and crashes on more (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPLOWERDYNAMICEXPANDSHAPES
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

bool splitsIntoDynamicDims(memref::ExpandShapeOp op) {
  MemRefType result = op.getResultType();
  return llvm::any_of(op.getReassociationIndices(), [&](const ReassociationIndices &group) {
    return llvm::count_if(group, [&](int64_t dim) { return result.isDynamicDim(dim); }) > 1;
  });
}

// a x b, folded where both are constants (so that static strides stay static, as the result
// type has them).
OpFoldResult product(PatternRewriter &rewriter, Location loc, OpFoldResult a, OpFoldResult b) {
  std::optional<int64_t> x = getConstantIntValue(a), y = getConstantIntValue(b);
  if (x && y) return rewriter.getIndexAttr(*x * *y);
  if (x == 1) return b;
  if (y == 1) return a;
  return arith::MulIOp::create(rewriter, loc, getValueOrCreateConstantIndexOp(rewriter, loc, a),
                               getValueOrCreateConstantIndexOp(rewriter, loc, b))
      .getResult();
}

// The expanded dims of a group are contiguous within the source dim: the innermost keeps its
// stride, and each outer one steps over the sizes inside it.
struct ExpandShapeAsReinterpretCast : OpRewritePattern<memref::ExpandShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(memref::ExpandShapeOp op, PatternRewriter &rewriter) const override {
    if (!splitsIntoDynamicDims(op)) return failure();
    SmallVector<int64_t> sourceStrides;
    int64_t sourceOffset;
    if (failed(op.getSrcType().getStridesAndOffset(sourceStrides, sourceOffset))) return failure();
    Location loc = op.getLoc();
    auto metadata = memref::ExtractStridedMetadataOp::create(rewriter, loc, op.getSrc());
    auto staticOr = [&](int64_t value, Value dynamic) -> OpFoldResult {
      return ShapedType::isDynamic(value) ? OpFoldResult(dynamic) : rewriter.getIndexAttr(value);
    };
    SmallVector<OpFoldResult> sizes = op.getMixedOutputShape();
    SmallVector<OpFoldResult> strides(sizes.size());
    for (auto [sourceDim, group] : llvm::enumerate(op.getReassociationIndices())) {
      OpFoldResult stride = staticOr(sourceStrides[sourceDim], metadata.getStrides()[sourceDim]);
      for (int64_t dim : llvm::reverse(group)) {
        strides[dim] = stride;
        stride = product(rewriter, loc, stride, sizes[dim]);
      }
    }
    rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(op, op.getResultType(), metadata.getBaseBuffer(),
                                                           staticOr(sourceOffset, metadata.getOffset()), sizes,
                                                           strides);
    return success();
  }
};

struct AclopLowerDynamicExpandShapesPass
    : aclop::impl::AclopLowerDynamicExpandShapesBase<AclopLowerDynamicExpandShapesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandShapeAsReinterpretCast>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) signalPassFailure();
  }
};

} // namespace
