//===- VerifyLowered.cpp - nothing but LLVM dialect may remain ------------===//
#include "aclop/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPVERIFYLOWERED
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

struct AclopVerifyLoweredPass : aclop::impl::AclopVerifyLoweredBase<AclopVerifyLoweredPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    WalkResult result = module.walk([&](Operation *op) {
      if (op == module.getOperation() || isa<LLVM::LLVMDialect>(op->getDialect())) return WalkResult::advance();
      op->emitError() << "'" << op->getName() << "' was not lowered to the LLVM dialect";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted()) signalPassFailure();
  }
};

} // namespace
