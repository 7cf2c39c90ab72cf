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

// The f32 constant `value`, a scalar or a splat of `type`'s shape.
Value constantLike(OpBuilder &b, Location loc, Type type, double value) {
  return createScalarOrSplatConstant(b, loc, type, APFloat(float(value)));
}

// c0 + t (c1 + t (c2 + ...)) by FMAs.
Value horner(OpBuilder &b, Location loc, Value t, ArrayRef<double> coefficients) {
  Value sum = constantLike(b, loc, t.getType(), coefficients.back());
  for (double c : llvm::reverse(coefficients.drop_back()))
    sum = math::FmaOp::create(b, loc, sum, t, constantLike(b, loc, t.getType(), c));
  return sum;
}

// min(v, bound) and max(v, bound) keeping NaN (each comparison is false for it): one vmaxps or
// vminps each on x86.
Value atMost(OpBuilder &b, Location loc, Value v, double bound) {
  Value limit = constantLike(b, loc, v.getType(), bound);
  Value above = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, v, limit);
  return arith::SelectOp::create(b, loc, above, limit, v);
}
Value atLeast(OpBuilder &b, Location loc, Value v, double bound) {
  Value limit = constantLike(b, loc, v.getType(), bound);
  Value below = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, v, limit);
  return arith::SelectOp::create(b, loc, below, limit, v);
}

// erf(x) for f32 as one rational function, a * P(a^2) / Q(a^2) on a = min(|x|, 3.925), its
// sign copied from x: 2.4e-9 relative error in exact arithmetic, at most 5.2 ulp (3.1e-7) as
// f32 arithmetic evaluates it (scripts/fit-erf.py fits the coefficients and checks both).
// MLIR's approximation selects each coefficient from three intervals' (18 blends a vector):
// Gelu on AVX2 ran at 0.4x memcpy. Past the clamp erf rounds to 1 in f32; the result is held
// at 1, which rounding would otherwise overshoot by an ulp.
struct ErfAsRational : OpRewritePattern<math::ErfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::ErfOp op, PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF32()) return failure();
    Location loc = op.getLoc();
    Value a = atMost(rewriter, loc, math::AbsFOp::create(rewriter, loc, op.getOperand()), 3.925);
    Value t = arith::MulFOp::create(rewriter, loc, a, a);
    Value p = horner(rewriter, loc, t, kErfNumerator), q = horner(rewriter, loc, t, kErfDenominator);
    Value ratio = arith::DivFOp::create(rewriter, loc, arith::MulFOp::create(rewriter, loc, a, p), q);
    rewriter.replaceOpWithNewOp<math::CopySignOp>(op, atMost(rewriter, loc, ratio, 1.0), op.getOperand());
    return success();
  }
  static constexpr double kErfNumerator[] = {1.128379225730896,      0.18521495163440704,   0.05427790805697441,
                                             0.0038450807332992554,  0.00037784603773616254, 4.63551214124891e-06,
                                             -1.293878870711751e-08};
  static constexpr double kErfDenominator[] = {1.0, 0.49747589230537415, 0.11392737925052643, 0.015446551144123077,
                                               0.0013043303042650223, 6.265209231059998e-05};
};

// exp(x) for f32 as 2^k e^r, k = round(x log2(e)), r = x - k ln 2 (Cody and Waite's two-part
// ln 2), e^r by Cephes' expf polynomial. x log2(e) is rounded by adding 1.5 * 2^23
// (plus the exponent bias) in the same FMA, which leaves k + 127 in the low bits of the sum: a
// subtraction gives k, a shift gives 2^k's bits. MLIR's approximation (the same polynomial, so
// the same results to an ulp) takes a floor, an fptosi, an add, and clamps k both ways: 20
// vector operations an exp against 15 here (SoftmaxV2 on AVX2 spent three quarters of its time
// in them). x is clamped to [-88, 88.8] (NaN kept), k to at most 127 (2^128 has no f32; e^r
// then reaches 2.2 and the product overflows to inf past 88.72); k = -127 gives 2^k = 0, the
// flush to 0 that MLIR's has below -87.68. Within 1 ulp below 88.37, within 5.2 ulp above
// (where r outgrows the polynomial's interval), as MLIR's.
struct ExpAsPolynomial : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::ExpOp op, PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32()) return failure();
    Location loc = op.getLoc();
    auto constant = [&](double value) { return constantLike(rewriter, loc, type, value); };
    constexpr double kRounding = 12582912.0 + 127.0;  // 1.5 * 2^23 + the exponent bias
    Value x = atMost(rewriter, loc, atLeast(rewriter, loc, op.getOperand(), -88.0), 88.8);
    Value biased = math::FmaOp::create(rewriter, loc, x, constant(M_LOG2E), constant(kRounding));
    biased = atMost(rewriter, loc, biased, kRounding + 127.0);
    Value k = arith::SubFOp::create(rewriter, loc, biased, constant(kRounding));
    Value r = math::FmaOp::create(rewriter, loc, k, constant(-0.693359375), x);
    r = math::FmaOp::create(rewriter, loc, k, constant(2.12194440e-4), r);
    // e^r = 1 + (r + r^2 Q(r)), Q by Estrin's scheme in r and r^2: 19 cycles of latency, not
    // Horner's 28; the chain, not the FMA ports, bounded the loop.
    auto fma = [&](Value a, Value b, Value c) { return math::FmaOp::create(rewriter, loc, a, b, c); };
    auto pair = [&](int i) { return fma(constant(kExpCoefficients[i + 1]), r, constant(kExpCoefficients[i])); };
    Value r2 = arith::MulFOp::create(rewriter, loc, r, r);
    Value q = fma(fma(pair(6), r2, pair(4)), r2, pair(2));
    Value p = arith::AddFOp::create(rewriter, loc, fma(q, r2, r), constant(1.0));
    Type bits = rewriter.getI32Type();
    if (auto shaped = dyn_cast<ShapedType>(type)) bits = shaped.clone(bits);
    Value exponent = arith::ShLIOp::create(rewriter, loc, arith::BitcastOp::create(rewriter, loc, bits, biased),
                                           createScalarOrSplatConstant(rewriter, loc, bits, 23));
    Value twoToK = arith::BitcastOp::create(rewriter, loc, type, exponent);
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, p, twoToK);
    return success();
  }
  // c0 to c7 of e^r (c0 and c1, both 1, are the final add and the FMA onto r).
  static constexpr double kExpCoefficients[] = {1.0, 1.0, 5.0000001201E-1, 1.6666665459E-1, 4.1665795894E-2,
                                                8.3334519073E-3, 1.3981999507E-3, 1.9875691500E-4};
};

struct AclopApproximateMathPass : aclop::impl::AclopApproximateMathBase<AclopApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return name == math::ExpOp::getOperationName() || name == math::LogOp::getOperationName() ||
             name == math::TanhOp::getOperationName() || name == math::ErfcOp::getOperationName();
    });
    patterns.add<ErfAsRational>(&getContext());
    patterns.add<ExpAsPolynomial>(&getContext(), /*benefit=*/2);  // before MLIR's
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) return signalPassFailure();
  }
};

} // namespace
