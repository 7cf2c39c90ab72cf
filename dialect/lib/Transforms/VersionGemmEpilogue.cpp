//===- VersionGemmEpilogue.cpp - tiles store the accumulator when alpha = 1, beta = 0 ===//
//
// A generated register tile ends with GEMM's epilogue on vectors: alpha * acc, beta * c and the
// beta = 0 select, three vector ops an accumulator register and a read of C (a 64^3 GEMM spent
// ~4% of its time there). With GEMM's usual arguments, alpha = 1 and beta = 0, the epilogue is
// the accumulator itself. Each such tile's write goes under scf.if (alpha == 1 && beta == 0):
// then the accumulator is stored as it is (converted, as the epilogue's result was); else the
// epilogue runs as before, its ops, C's read included, sunk into that branch.
//
//===----------------------------------------------------------------------===//

#include "GemmEpilogue.h"
#include "aclop/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/ControlFlowSinkUtils.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPVERSIONGEMMEPILOGUE
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

// A register tile's accumulator: the result of its k loop.
bool isRegisterTileSum(Value value) { return value.getDefiningOp<scf::ForOp>() != nullptr; }

// The scalar a broadcast `vector` holds: loaded from its 0-d memref when it is read from one.
Value scalarOf(OpBuilder &builder, Location loc, Value vector) {
  if (auto read = vector.getDefiningOp<vector::TransferReadOp>(); read && read.getBase().getType().getRank() == 0)
    return memref::LoadOp::create(builder, loc, read.getBase(), ValueRange{});
  auto type = cast<VectorType>(vector.getType());
  return vector::ExtractOp::create(builder, loc, vector, SmallVector<int64_t>(type.getRank(), 0));
}

// alpha == 1 && beta == 0.
Value isUnitEpilogue(OpBuilder &builder, Location loc, Value alpha, Value beta) {
  Type type = alpha.getType();
  Value one = arith::ConstantOp::create(builder, loc, builder.getOneAttr(type));
  Value zero = arith::ConstantOp::create(builder, loc, builder.getZeroAttr(type));
  if (isa<FloatType>(type))
    return arith::AndIOp::create(builder, loc, arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OEQ, alpha, one),
                                 arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::OEQ, beta, zero));
  return arith::AndIOp::create(builder, loc, arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, alpha, one),
                               arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, beta, zero));
}

// True if `op` reads memory or nothing, and writes none.
bool writesNothing(Operation *op) {
  if (isMemoryEffectFree(op)) return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return effects && effects.onlyHasEffect<MemoryEffects::Read>();
}

// True if `op` may move down to `before`, later in its block: it writes nothing, and if it
// reads, nothing between writes.
bool maySinkTo(Operation *op, Operation *before) {
  if (isMemoryEffectFree(op)) return true;
  if (!writesNothing(op) || op->getBlock() != before->getBlock()) return false;
  for (Operation *between = op->getNextNode(); between != before; between = between->getNextNode())
    if (!writesNothing(between)) return false;
  return true;
}

// Puts `write` of a register tile's epilogue under a branch on alpha == 1 && beta == 0.
void version(vector::TransferWriteOp write) {
  Value stored = write.getValueToStore();
  Operation *conversion = stored.getDefiningOp<arith::TruncFOp>();  // an f16 or bf16 result
  if (conversion) stored = conversion->getOperand(0);
  std::optional<aclop::ScaledEpilogueParts> parts = aclop::matchScaledEpilogue(stored, isRegisterTileSum);
  if (!parts) return;
  OpBuilder builder(write);
  Location loc = write.getLoc();
  Value unit = isUnitEpilogue(builder, loc, scalarOf(builder, loc, parts->alpha), scalarOf(builder, loc, parts->beta));
  auto branch = scf::IfOp::create(builder, loc, unit, /*withElseRegion=*/true);

  builder.setInsertionPoint(branch.thenBlock()->getTerminator());
  Value result = parts->acc;
  if (conversion) {
    Operation *converted = builder.clone(*conversion);
    converted->setOperand(0, result);
    result = converted->getResult(0);
  }
  auto unitWrite = cast<vector::TransferWriteOp>(builder.clone(*write));
  unitWrite.getValueToStoreMutable().assign(result);
  write->moveBefore(branch.elseBlock()->getTerminator());

  DominanceInfo dominance(branch);
  controlFlowSink(
      RegionRange{&branch.getElseRegion()}, dominance, [&](Operation *op, Region *) { return maySinkTo(op, branch); },
      [](Operation *op, Region *region) { op->moveBefore(&region->front(), region->front().begin()); });
}

struct AclopVersionGemmEpiloguePass : aclop::impl::AclopVersionGemmEpilogueBase<AclopVersionGemmEpiloguePass> {
  void runOnOperation() override {
    SmallVector<vector::TransferWriteOp> writes;
    getOperation().walk([&](vector::TransferWriteOp write) { writes.push_back(write); });
    for (vector::TransferWriteOp write : writes) version(write);
  }
};

} // namespace
