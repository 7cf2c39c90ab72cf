//===- LowerStridedCopies.cpp - non-contiguous memref.copy as loops -------===//
//
// finalize-memref-to-llvm turns a copy between contiguous memrefs into llvm.memcpy and any other
// into a call of `memrefCopy` from MLIR's C runner utilities, a library kernels are not linked
// with (the JIT would fail to resolve it). Such copies appear where bufferization writes a slice
// out of place and copies it into its destination: concatenation's parts.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPLOWERSTRIDEDCOPIES
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

bool isContiguous(Value value) {
  auto type = cast<MemRefType>(value.getType());
  return type.getLayout().isIdentity() || memref::isStaticShapeAndContiguousRowMajor(type);
}

void lowerToLoops(IRRewriter &rewriter, memref::CopyOp copy) {
  Location loc = copy.getLoc();
  rewriter.setInsertionPoint(copy);
  Value source = copy.getSource(), target = copy.getTarget();
  int64_t rank = cast<MemRefType>(source.getType()).getRank();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0), one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<Value> lower(rank, zero), upper, steps(rank, one);
  for (int64_t i = 0; i < rank; ++i) upper.push_back(memref::DimOp::create(rewriter, loc, source, i));
  if (rank == 0) {
    Value element = memref::LoadOp::create(rewriter, loc, source, ValueRange{});
    memref::StoreOp::create(rewriter, loc, element, target, ValueRange{});
  } else {
    scf::ParallelOp::create(rewriter, loc, lower, upper, steps, [&](OpBuilder &b, Location l, ValueRange indices) {
      Value element = memref::LoadOp::create(b, l, source, indices);
      memref::StoreOp::create(b, l, element, target, indices);
    });
  }
  rewriter.eraseOp(copy);
}

struct AclopLowerStridedCopiesPass : aclop::impl::AclopLowerStridedCopiesBase<AclopLowerStridedCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      if (copy.getSource() == copy.getTarget()) rewriter.eraseOp(copy);
      else if (!isContiguous(copy.getSource()) || !isContiguous(copy.getTarget())) lowerToLoops(rewriter, copy);
    }
  }
};

} // namespace
