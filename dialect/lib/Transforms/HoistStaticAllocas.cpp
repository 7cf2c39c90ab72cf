//===- HoistStaticAllocas.cpp - static allocas to the entry block ----------===//
//
// A memref.alloca in a loop body allocates again each iteration, and once the loops are
// branches nothing frees it before the function returns. Static ones move to the entry block:
// see Passes.td for why one allocation serves every iteration.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPHOISTSTATICALLOCAS
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

struct AclopHoistStaticAllocasPass : aclop::impl::AclopHoistStaticAllocasBase<AclopHoistStaticAllocasPass> {
  void runOnOperation() override {
    Block &entry = getOperation().getBody().front();
    SmallVector<memref::AllocaOp> nested;
    getOperation().walk([&](memref::AllocaOp alloca) {
      if (alloca->getBlock() != &entry && alloca.getDynamicSizes().empty() && alloca.getSymbolOperands().empty())
        nested.push_back(alloca);
    });
    for (memref::AllocaOp alloca : nested) alloca->moveBefore(&entry, entry.begin());
  }
};

} // namespace
