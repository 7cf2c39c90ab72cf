//===- StreamStores.cpp - non-temporal stores for large outputs -----------===//
//
// An element-wise kernel whose output is far larger than the caches gains nothing from
// keeping it there, and a plain store first reads each line it writes (the read for
// ownership): a quarter of an f32 Add's memory traffic, a third of an f16 -> f32 Cast's.
// Non-temporal stores skip that read. They need their vector's natural alignment, which
// depends on the buffer the caller passes, so each loop nest that writes such an output is
// cloned under a run-time check of the output's base alignment: the aligned copy stores
// non-temporally and ends with an sfence (non-temporal stores are weakly ordered, and the
// block's completion must not become visible before its data), and prefetches its large inputs
// ahead into L2; the other copy is unchanged.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPSTREAMSTORES
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

// The function argument `value` is a view of (through subviews), if any.
BlockArgument rootArgument(Value value) {
  while (auto subview = value.getDefiningOp<memref::SubViewOp>()) value = subview.getSource();
  return dyn_cast<BlockArgument>(value);
}

bool isMultipleOf(Value value, int64_t factor, unsigned depth = 0);

// True if affine expression `expr` over `operands` (dims, then symbols) is known to be a
// multiple of `factor`.
bool isMultipleOf(AffineExpr expr, ValueRange operands, unsigned dims, int64_t factor, unsigned depth) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) return constant.getValue() % factor == 0;
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) return isMultipleOf(operands[dim.getPosition()], factor, depth);
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return isMultipleOf(operands[dims + symbol.getPosition()], factor, depth);
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary) return false;
  bool lhs = isMultipleOf(binary.getLHS(), operands, dims, factor, depth);
  if (expr.getKind() == AffineExprKind::Add) return lhs && isMultipleOf(binary.getRHS(), operands, dims, factor, depth);
  if (expr.getKind() == AffineExprKind::Mul) return lhs || isMultipleOf(binary.getRHS(), operands, dims, factor, depth);
  return false;
}

// True if index `value` is known to be a multiple of `factor`: a constant, a loop's induction
// variable with such a start and step (a block's share of a partitioned loop starts at a
// multiple of its steps), or sums, products, selects and affine maps of those.
bool isMultipleOf(Value value, int64_t factor, unsigned depth) {
  if (++depth > 16) return false;
  if (std::optional<int64_t> constant = getConstantIntValue(value)) return *constant % factor == 0;
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    Operation *owner = argument.getOwner()->getParentOp();
    unsigned i = argument.getArgNumber();
    if (auto loop = dyn_cast_or_null<scf::ParallelOp>(owner); loop && i < loop.getNumLoops())
      return isMultipleOf(loop.getLowerBound()[i], factor, depth) && isMultipleOf(loop.getStep()[i], factor, depth);
    if (auto loop = dyn_cast_or_null<scf::ForOp>(owner); loop && value == loop.getInductionVar())
      return isMultipleOf(loop.getLowerBound(), factor, depth) && isMultipleOf(loop.getStep(), factor, depth);
    return false;
  }
  Operation *op = value.getDefiningOp();
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return isMultipleOf(op->getOperand(0), factor, depth) && isMultipleOf(op->getOperand(1), factor, depth);
  if (isa<arith::MulIOp>(op))
    return isMultipleOf(op->getOperand(0), factor, depth) || isMultipleOf(op->getOperand(1), factor, depth);
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return isMultipleOf(select.getTrueValue(), factor, depth) && isMultipleOf(select.getFalseValue(), factor, depth);
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op))
    return isMultipleOf(apply.getAffineMap().getResult(0), apply.getMapOperands(), apply.getAffineMap().getNumDims(),
                        factor, depth);
  return false;
}

// A whole-vector write of a large, statically shaped, contiguous output argument at a place
// known to keep the vector at its natural alignment once the base is aligned; the alignment,
// or 0. The place is the view's offset plus each index times its stride: the offset, every
// stride but the last (1) and the last index must be multiples of the vector's length (a Pad's
// interior written 8 floats into each row is not; its non-temporal stores faulted).
int64_t streamableAlignment(vector::TransferWriteOp write, int64_t minBytes) {
  VectorType vector = write.getVectorType();
  if (write.getMask() || vector.getRank() == 0 || !write.getPermutationMap().isMinorIdentity() ||
      !llvm::all_of(write.getInBoundsValues(), [](bool inBounds) { return inBounds; }))
    return 0;
  BlockArgument argument = rootArgument(write.getBase());
  auto memref = argument ? dyn_cast<MemRefType>(argument.getType()) : MemRefType();
  if (!memref || !memref.hasStaticShape() || !memref.getLayout().isIdentity()) return 0;
  // Each row of the vector (its last dim: an n-D vector, a transpose's tile, stores a row at
  // a time) is one store.
  int64_t elementBytes = memref.getElementTypeBitWidth() / 8;
  int64_t lanes = vector.getShape().back(), offset;
  int64_t vectorBytes = lanes * elementBytes;
  if (vectorBytes != 16 && vectorBytes != 32 && vectorBytes != 64) return 0;
  if (memref.getNumElements() * elementBytes < minBytes) return 0;
  SmallVector<int64_t> strides;
  auto view = cast<MemRefType>(write.getBase().getType());
  if (view.getRank() == 0 || failed(view.getStridesAndOffset(strides, offset)) || ShapedType::isDynamic(offset) ||
      offset % lanes != 0 || strides.back() != 1 || !isMultipleOf(write.getIndices().back(), lanes))
    return 0;
  for (int64_t stride : ArrayRef(strides).drop_back())
    if (ShapedType::isDynamic(stride) || stride % lanes != 0) return 0;
  return vectorBytes;
}

struct AclopStreamStoresPass : aclop::impl::AclopStreamStoresBase<AclopStreamStoresPass> {
  using AclopStreamStoresBase::AclopStreamStoresBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal()) return;
    for (Operation &op : llvm::make_early_inc_range(func.getBody().front())) {
      auto loop = dyn_cast<scf::ParallelOp>(&op);
      if (!loop) continue;
      // Every output the nest writes must qualify (one check per argument).
      SmallVector<std::pair<vector::TransferWriteOp, int64_t>> writes;
      bool others = false;
      loop.walk([&](Operation *inner) {
        if (auto write = dyn_cast<vector::TransferWriteOp>(inner)) {
          int64_t alignment = streamableAlignment(write, minBytes);
          if (alignment) writes.push_back({write, alignment});
          else others = true;
        }
      });
      if (writes.empty() || others) continue;
      streamNest(loop, writes);
    }
  }

  // A non-temporal llvm.store a row of the vector (its last dim), except for f16 and bf16
  // vectors: the x86 backend has no non-temporal store of those (it emits a plain one, and LLVM
  // folds a bitcast to integers back into the store), so they are written by a vmovntdq of their
  // bits.
  static void storeNonTemporally(vector::TransferWriteOp write, int64_t alignment) {
    OpBuilder b(write);
    Location loc = write.getLoc();
    Value base = write.getBase();
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, base);
    VectorType type = write.getVectorType();
    auto row = VectorType::get(type.getShape().back(), type.getElementType());
    unsigned bits = type.getElementTypeBitWidth();
    Value pointerBase = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, base);
    // The vector's leading dims (all but its rows) are the memref's dims before its last: memref
    // dim d is leading dim d - firstLeading.
    SmallVector<int64_t> leading(type.getShape().drop_back());
    const int64_t firstLeading = int64_t(write.getIndices().size()) - 1 - int64_t(leading.size());
    for (int64_t position = 0, rows = type.getNumElements() / row.getNumElements(); position < rows; ++position) {
      SmallVector<int64_t> place = delinearize(position, computeStrides(leading));  // the row's place
      Value element = metadata.getOffset();
      for (auto [d, index, stride] : llvm::enumerate(write.getIndices(), metadata.getStrides())) {
        int64_t dim = int64_t(d) - firstLeading;
        if (dim >= 0 && dim < int64_t(leading.size()) && place[dim])
          index = arith::AddIOp::create(b, loc, index, arith::ConstantIndexOp::create(b, loc, place[dim]));
        element = arith::AddIOp::create(b, loc, element, arith::MulIOp::create(b, loc, index, stride));
      }
      Value bytes = arith::MulIOp::create(b, loc, element, arith::ConstantIndexOp::create(b, loc, bits / 8));
      Value address = arith::AddIOp::create(b, loc, pointerBase, bytes);
      Value address64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
      Value pointer = LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), address64);
      Value values = leading.empty() ? write.getVector()
                                     : vector::ExtractOp::create(b, loc, write.getVector(), place).getResult();
      if (!type.getElementType().isF16() && !type.getElementType().isBF16()) {
        LLVM::StoreOp::create(b, loc, values, pointer, alignment, /*isVolatile=*/false, /*isNonTemporal=*/true);
        continue;
      }
      Value integers = LLVM::BitcastOp::create(b, loc, VectorType::get(row.getShape(), b.getIntegerType(bits)), values);
      LLVM::InlineAsmOp::create(b, loc, TypeRange{}, ValueRange{pointer, integers}, "vmovntdq $1, ($0)",
                                "r,v,~{memory}", /*has_side_effects=*/true, /*is_align_stack=*/false,
                                LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
    }
  }

  // Each vector read of a large input in the streaming copy also prefetches, into L2, the
  // line 8 KiB ahead (a prefetch never faults, so past the end is harmless). On this VM's
  // memory the hardware prefetcher alone left the loads behind: 256 MiB, 1 thread, f32 -> f16
  // 17.4 -> 20.7 GB/s, f32 -> bf16 13.2 -> 18.7, f32 -> i32 20.9 -> 22.6, Add 20.5 -> 22.1
  // (memcpy 21); 4 and 16 KiB ahead gained less, prefetchnta lost 35%.
  void prefetchReads(scf::ParallelOp streaming) {
    streaming.walk([&](vector::TransferReadOp read) {
      auto memref = dyn_cast<MemRefType>(read.getBase().getType());
      if (!memref || !memref.hasStaticShape() || read.getVectorType().getRank() != 1 || read.getIndices().empty() ||
          memref.getNumElements() * memref.getElementTypeBitWidth() / 8 < minBytes)
        return;
      OpBuilder b(read);
      Location loc = read.getLoc();
      SmallVector<Value> indices(read.getIndices());
      int64_t ahead = aclop::kStreamPrefetchBytes / (memref.getElementTypeBitWidth() / 8);
      indices.back() = arith::AddIOp::create(b, loc, indices.back(), arith::ConstantIndexOp::create(b, loc, ahead));
      memref::PrefetchOp::create(b, loc, read.getBase(), indices, /*isWrite=*/false, /*locality=*/2,
                                 /*isDataCache=*/true);
    });
  }

  void streamNest(scf::ParallelOp loop, ArrayRef<std::pair<vector::TransferWriteOp, int64_t>> writes) {
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Value aligned;
    SmallVector<Value> checked;  // one check per output argument
    for (auto [write, alignment] : writes) {
      BlockArgument argument = rootArgument(write.getBase());
      if (llvm::is_contained(checked, argument)) continue;
      checked.push_back(argument);
      Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, argument);
      Value remainder = arith::RemUIOp::create(b, loc, base, arith::ConstantIndexOp::create(b, loc, 64));
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, remainder,
                                       arith::ConstantIndexOp::create(b, loc, 0));
      aligned = aligned ? arith::AndIOp::create(b, loc, aligned, ok).getResult() : ok;
    }
    auto branch = scf::IfOp::create(b, loc, aligned, /*withElseRegion=*/true);
    // The streaming copy.
    OpBuilder then = branch.getThenBodyBuilder();
    IRMapping mapping;
    auto streaming = cast<scf::ParallelOp>(then.clone(*loop, mapping));
    for (auto [write, alignment] : writes) {
      auto copy = cast<vector::TransferWriteOp>(mapping.lookup(write.getOperation()));
      storeNonTemporally(copy, alignment);
      copy.erase();
    }
    prefetchReads(streaming);
    then.setInsertionPointAfter(streaming);
    LLVM::CallIntrinsicOp::create(then, loc, then.getStringAttr("llvm.x86.sse.sfence"), ValueRange{});
    // The plain one.
    loop->moveBefore(branch.elseBlock()->getTerminator());
  }
};

} // namespace
