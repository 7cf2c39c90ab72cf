//===- ApproximateMath.cpp - vector forms of exp, log, tanh, erf ------------===//
//
// LLVM lowers a vector llvm.exp, llvm.log or llvm.tanh, and erf or erfc (libm calls), to a libm
// call per lane: SoftmaxV2 ran at 0.05x memcpy's bandwidth, Gelu at 0.15x. MLIR's polynomial
// approximations compute them in vector registers with FMAs.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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

struct AclopApproximateMathPass : aclop::impl::AclopApproximateMathBase<AclopApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return name == math::ExpOp::getOperationName() || name == math::LogOp::getOperationName() ||
             name == math::TanhOp::getOperationName() || name == math::ErfOp::getOperationName() ||
             name == math::ErfcOp::getOperationName();
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) return signalPassFailure();
  }
};

} // namespace
