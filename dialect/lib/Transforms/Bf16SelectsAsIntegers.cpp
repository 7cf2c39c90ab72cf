//===- Bf16SelectsAsIntegers.cpp - bf16 vector selects on their bits ------------===//
//
// An arith.select of bf16 vectors chooses between the same bits as one of i16 vectors, which
// LLVM 22's x86 backend can always lower: with AVX512-BF16 a select of an odd width above 16
// (17 or 33 bf16, a Select operator's row) splits into a one-element bf16 select it cannot
// soft-promote, and llc aborts ("Do not know how to soft promote this operator's operand").
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPBF16SELECTSASINTEGERS
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

struct SelectOnBits : OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::SelectOp op, PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(op.getType());
    if (!type || !type.getElementType().isBF16()) return failure();
    VectorType bits = type.clone(rewriter.getI16Type());
    Location loc = op.getLoc();
    Value whenTrue = arith::BitcastOp::create(rewriter, loc, bits, op.getTrueValue());
    Value whenFalse = arith::BitcastOp::create(rewriter, loc, bits, op.getFalseValue());
    Value chosen = arith::SelectOp::create(rewriter, loc, op.getCondition(), whenTrue, whenFalse);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, type, chosen);
    return success();
  }
};

struct AclopBf16SelectsAsIntegersPass : aclop::impl::AclopBf16SelectsAsIntegersBase<AclopBf16SelectsAsIntegersPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SelectOnBits>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) signalPassFailure();
  }
};

} // namespace
