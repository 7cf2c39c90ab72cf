//===- PrefetchTransposedBlocks.cpp - fetch a transpose's next block ahead ---===//
//
// A transpose runs V x V tiles a block of rows at a time (SelectStrategy's `block_sizes`): each
// tile reads V rows of its input a line each, and the rows are a whole row of the input apart
// (16 KiB for 4096 floats), so no hardware prefetcher follows them; every block waited on its
// lines from memory one page at a time. Each tile's read here also fetches the lines the same
// tile of the next block reads (the rows one block step further), while the block's other tiles
// are transposed.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPPREFETCHTRANSPOSEDBLOCKS
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

constexpr int64_t kLineBytes = 64;

// The induction variables of enclosing scf.parallel loops that `index` is computed from (through
// sums and affine maps), or none if it depends on anything else that varies.
void parallelInductionVariables(Value index, SmallVectorImpl<BlockArgument> &found, unsigned depth = 0) {
  if (++depth > 8 || getConstantIntValue(index)) return;
  if (auto argument = dyn_cast<BlockArgument>(index)) {
    if (isa<scf::ParallelOp>(argument.getOwner()->getParentOp()) && !llvm::is_contained(found, argument))
      found.push_back(argument);
    return;
  }
  Operation *op = index.getDefiningOp();
  if (isa_and_nonnull<affine::AffineApplyOp, arith::AddIOp>(op))
    for (Value operand : op->getOperands()) parallelInductionVariables(operand, found, depth);
}

// The step, in rows, from a transposing read's rows to those the same read reads in the next
// iteration of its innermost parallel loop: that loop's step if its induction variable alone
// moves the rows. 0 if not known.
int64_t nextBlockRows(vector::TransferReadOp read, unsigned rowDim) {
  SmallVector<BlockArgument> variables;
  parallelInductionVariables(read.getIndices()[rowDim], variables);
  if (variables.size() != 1) return 0;
  auto loop = cast<scf::ParallelOp>(variables.front().getOwner()->getParentOp());
  unsigned dim = variables.front().getArgNumber();
  if (dim + 1 != loop.getNumLoops()) return 0;
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[dim]);
  return step && *step > 0 ? *step : 0;
}

struct AclopPrefetchTransposedBlocksPass
    : aclop::impl::AclopPrefetchTransposedBlocksBase<AclopPrefetchTransposedBlocksPass> {
  void runOnOperation() override {
    getOperation().walk([](vector::TransferReadOp read) {
      auto memref = dyn_cast<MemRefType>(read.getBase().getType());
      VectorType vector = read.getVectorType();
      AffineMap map = read.getPermutationMap();
      unsigned rank = memref ? memref.getRank() : 0;
      // A 2-D read of the last two dims, transposed: vector dim 0 runs along the last dim.
      if (rank < 2 || vector.getRank() != 2 || read.getMask() || map.getNumResults() != 2 ||
          map.getResult(0) != getAffineDimExpr(rank - 1, read.getContext()) ||
          map.getResult(1) != getAffineDimExpr(rank - 2, read.getContext()))
        return;
      int64_t step = nextBlockRows(read, rank - 2);
      if (step == 0) return;
      // The read covers `rows` rows of the memref, `columns` elements of each.
      int64_t rows = vector.getDimSize(1), columns = vector.getDimSize(0);
      OpBuilder b(read);
      Location loc = read.getLoc();
      SmallVector<Value> indices(read.getIndices());
      Value firstRow = indices[rank - 2], firstColumn = indices[rank - 1];
      int64_t lineElements = std::max<int64_t>(1, kLineBytes * 8 / memref.getElementTypeBitWidth());
      for (int64_t row = 0; row < rows; ++row) {
        indices[rank - 2] =
            arith::AddIOp::create(b, loc, firstRow, arith::ConstantIndexOp::create(b, loc, step + row));
        for (int64_t offset = 0; offset < columns; offset += lineElements) {
          indices[rank - 1] = firstColumn;
          if (offset)
            indices[rank - 1] =
                arith::AddIOp::create(b, loc, firstColumn, arith::ConstantIndexOp::create(b, loc, offset));
          memref::PrefetchOp::create(b, loc, read.getBase(), indices, /*isWrite=*/false, /*locality=*/3,
                                     /*isDataCache=*/true);
        }
      }
    });
  }
};

} // namespace
