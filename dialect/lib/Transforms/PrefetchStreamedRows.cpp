//===- PrefetchStreamedRows.cpp - fetch ahead in a reduction's rows --------===//
//
// A reduction that keeps the innermost dim (a column sum) reads its input a vector of a row at a
// time, and combines each into the accumulator row in L1 (aclop-tile-and-vectorize's
// `streamed_rows`). The hardware prefetchers alone left those reads waiting on memory: ReduceSumD
// of 4096x4096 f32 over axis 0 took half again as long as over axis 1, which reads the same bytes.
// Each read of an input of at least `min-bytes` (4 MiB: past any x86 core's L2) here also fetches
// the lines 8 KiB further on. One core, paired processes, ReduceSumD over axis 0 with and
// without: f32 4096x4096 1.8 -> 1.5 ms, 8192x1024 0.80-0.85 -> 0.64-0.66 ms, from memory; 2048x2048
// 0.18-0.20 ms either way, from L3; but from L2 the prefetches cost their issue slots: 32x4096
// 2.8-3.1 -> 3.7-5.5 us, 128x2048 8.1-9.1 -> 9.4-13.3.
// Rows shorter than 8 KiB are fetched as many steps of their row loop ahead as make 8 KiB: the
// same lines where rows are read in order, and where they are a plane apart (ReduceSumD over axis
// 0 of [a, b, c], iterated (b, a, c)) the rows the loop reads next, which no hardware prefetcher
// follows: [64, 256, 1024] f32, one core, 3.5-5.6 -> 2.2-3.0 ms.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPPREFETCHSTREAMEDROWS
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

constexpr StringLiteral kMark = "aclop.streamed_rows";
constexpr int64_t kLineBytes = 64;

// The buffer `value` is a view of (through subviews, casts and reshapes).
Value rootBuffer(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>()) value = view.getViewSource();
  return value;
}

// The index of `read` that the innermost enclosing scf.for steps, other than the last (the row's
// own), if any: the dim along which the next rows are read.
std::optional<unsigned> rowIndex(vector::TransferReadOp read) {
  ValueRange indices = read.getIndices();
  for (auto loop = read->getParentOfType<scf::ForOp>(); loop; loop = loop->getParentOfType<scf::ForOp>())
    for (unsigned i = 0; i + 1 < indices.size(); ++i)
      if (indices[i] == loop.getInductionVar()) return i;
  return std::nullopt;
}

void prefetchAhead(scf::ForOp loop, int64_t minBytes) {
  llvm::SmallPtrSet<Value, 4> written;
  loop.walk([&](vector::TransferWriteOp write) { written.insert(rootBuffer(write.getBase())); });
  loop.walk([&](vector::TransferReadOp read) {
    auto view = dyn_cast<MemRefType>(read.getBase().getType());
    Value root = rootBuffer(read.getBase());
    auto buffer = dyn_cast<MemRefType>(root.getType());
    // Past the row's end the element 8 KiB on is the next rows' only in a contiguous buffer.
    if (!view || !buffer || !buffer.hasStaticShape() || !buffer.getLayout().isIdentity() ||
        buffer.getNumElements() * buffer.getElementTypeBitWidth() / 8 < minBytes ||
        read.getVectorType().getRank() != 1 || read.getIndices().empty() || written.contains(root))
      return;
    OpBuilder b(read);
    Location loc = read.getLoc();
    SmallVector<Value> indices(read.getIndices());
    const int64_t elementBytes = std::max<int64_t>(1, view.getElementTypeBitWidth() / 8);
    const int64_t lineElements = kLineBytes / elementBytes, elements = read.getVectorType().getNumElements();
    // 8 KiB on along the row, or, where rows are shorter, as many rows on as make 8 KiB along the
    // dim the row loop steps: the next in memory where rows are read in order, and the rows of a
    // later step where they are a plane apart (a reduced leading dim read kept dims first).
    unsigned dim = indices.size() - 1;
    int64_t ahead = aclop::kStreamPrefetchBytes / elementBytes;
    const int64_t rowLength = view.getShape().back();
    std::optional<unsigned> row = rowIndex(read);
    if (row && !ShapedType::isDynamic(rowLength) && rowLength * elementBytes < aclop::kStreamPrefetchBytes) {
      dim = *row;
      ahead = llvm::divideCeil(aclop::kStreamPrefetchBytes, rowLength * elementBytes);
    }
    Value start = indices.back();
    if (dim != indices.size() - 1)
      indices[dim] = arith::AddIOp::create(b, loc, indices[dim], arith::ConstantIndexOp::create(b, loc, ahead));
    // A line for each the read covers (a whole row of several vectors read at once).
    for (int64_t line = 0; line == 0 || line < elements; line += lineElements) {
      const int64_t step = line + (dim == indices.size() - 1 ? ahead : 0);
      indices.back() = step ? arith::AddIOp::create(b, loc, start, arith::ConstantIndexOp::create(b, loc, step))
                            : start;
      memref::PrefetchOp::create(b, loc, read.getBase(), indices, /*isWrite=*/false, /*locality=*/3,
                                 /*isDataCache=*/true);
    }
  });
}

struct AclopPrefetchStreamedRowsPass : aclop::impl::AclopPrefetchStreamedRowsBase<AclopPrefetchStreamedRowsPass> {
  using AclopPrefetchStreamedRowsBase::AclopPrefetchStreamedRowsBase;
  void runOnOperation() override {
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->removeAttr(kMark)) prefetchAhead(loop, minBytes);
    });
  }
};

} // namespace
