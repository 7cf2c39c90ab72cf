//===- ApproximateMath.cpp - vector forms of exp, log, tanh, erf ------------===//
//
// LLVM lowers a vector llvm.exp, llvm.log or llvm.tanh, and erf or erfc (libm calls), to a libm
// call per lane: SoftmaxV2 ran at 0.05x memcpy's bandwidth, Gelu at 0.15x. MLIR's polynomial
// approximations compute them in vector registers with FMAs; erf is a rational function of
// our own (ErfAsRational), with no selects between intervals.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPAPPROXIMATEMATH
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

// erf(x) for f32 as one rational function, a * P(a^2) / Q(a^2) on a = min(|x|, 3.925), its
// sign copied from x: 2.4e-9 relative error in exact arithmetic, at most 5.2 ulp (3.1e-7) as
// f32 arithmetic evaluates it (scripts/fit-erf.py fits the coefficients and checks both).
// MLIR's approximation selects each coefficient from three intervals' (18 blends a vector):
// Gelu on AVX2 ran at 0.4x memcpy. Past the clamp erf rounds to 1 in f32; the result is held
// at 1, which rounding would otherwise overshoot by an ulp.
struct ErfAsRational : OpRewritePattern<math::ErfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::ErfOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32()) return failure();
    Location loc = op.getLoc();
    auto constant = [&](double value) {
      return createScalarOrSplatConstant(rewriter, loc, type, APFloat(float(value)));
    };
    auto horner = [&](Value t, ArrayRef<double> coefficients) {
      Value sum = constant(coefficients.back());
      for (double c : llvm::reverse(coefficients.drop_back()))
        sum = math::FmaOp::create(rewriter, loc, sum, t, constant(c));
      return sum;
    };
    // min(v, bound) keeping NaN (v > bound is false for it).
    auto atMost = [&](Value v, double bound) -> Value {
      Value limit = constant(bound);
      Value above = arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGT, v, limit);
      return arith::SelectOp::create(rewriter, loc, above, limit, v);
    };
    Value a = atMost(math::AbsFOp::create(rewriter, loc, op.getOperand()), 3.925);
    Value t = arith::MulFOp::create(rewriter, loc, a, a);
    Value p = horner(t, kErfNumerator), q = horner(t, kErfDenominator);
    Value ratio = arith::DivFOp::create(rewriter, loc, arith::MulFOp::create(rewriter, loc, a, p), q);
    rewriter.replaceOpWithNewOp<math::CopySignOp>(op, atMost(ratio, 1.0), op.getOperand());
    return success();
  }
  static constexpr double kErfNumerator[] = {1.128379225730896,      0.18521495163440704,   0.05427790805697441,
                                             0.0038450807332992554,  0.00037784603773616254, 4.63551214124891e-06,
                                             -1.293878870711751e-08};
  static constexpr double kErfDenominator[] = {1.0, 0.49747589230537415, 0.11392737925052643, 0.015446551144123077,
                                               0.0013043303042650223, 6.265209231059998e-05};
};

struct AclopApproximateMathPass : aclop::impl::AclopApproximateMathBase<AclopApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return name == math::ExpOp::getOperationName() || name == math::LogOp::getOperationName() ||
             name == math::TanhOp::getOperationName() || name == math::ErfcOp::getOperationName();
    });
    patterns.add<ErfAsRational>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) return signalPassFailure();
  }
};

} // namespace
