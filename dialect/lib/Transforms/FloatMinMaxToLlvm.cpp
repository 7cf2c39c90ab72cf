//===- FloatMinMaxToLlvm.cpp - float min/max as LLVM intrinsics ------------===//
//
// arith.maximumf and arith.minimumf have llvm.maximum's and llvm.minimum's semantics (a NaN
// wins, -0 < +0). arith-expand would spell them as compare-and-select chains, which cost
// twice over: LLVM vectorizes a chain of them carried through a loop (a max reduction along
// the last axis) only as an intrinsic, and a store of select(c, x, load p) back to p, which a
// maximum kept in memory becomes, is folded into a masked store (vmaskmovps: microcoded on AMD).
// Here they become the intrinsics first, which arith-expand leaves alone; so do arith.maxnumf
// and arith.minnumf (llvm.maxnum / llvm.minnum: a NaN operand gives the other), which ArgMax's
// scan carries its extreme as.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPFLOATMINMAXTOLLVM
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

template <typename ArithOp, typename LlvmOp>
struct ToIntrinsic : OpRewritePattern<ArithOp> {
  using OpRewritePattern<ArithOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ArithOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LlvmOp>(op, op.getLhs(), op.getRhs());
    return success();
  }
};

struct AclopFloatMinMaxToLlvmPass : aclop::impl::AclopFloatMinMaxToLlvmBase<AclopFloatMinMaxToLlvmPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ToIntrinsic<arith::MaximumFOp, LLVM::MaximumOp>, ToIntrinsic<arith::MinimumFOp, LLVM::MinimumOp>,
                 ToIntrinsic<arith::MaxNumFOp, LLVM::MaxNumOp>, ToIntrinsic<arith::MinNumFOp, LLVM::MinNumOp>>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) return signalPassFailure();
  }
};

} // namespace
