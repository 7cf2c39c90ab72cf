//===- EliminateExpandedEmptyTensors.cpp - write outputs in place ----------===//
//
// eliminate-empty-tensors makes a result written into a tensor.empty write the output buffer
// instead, but only when the types match: a result that reaches its destination through a
// tensor.expand_shape (Conv2D's product writes [image, pixels, channels] and the output is
// [image, height, width, channels]) got a buffer of its own and a copy into the output, and that
// copy, a nest no block can take a share of, made the whole kernel run as one block.
//
// Here, for a destination memref, the collapsed result is materialized into the collapsed view
// of the destination instead, and the tensor.empty it is computed in (or the collapse_shape of
// an empty of the destination's type that it starts from) becomes that view, so the result is
// computed in the output buffer and no expand_shape is left. (MLIR 22's expand-strided-metadata
// also crashes on a memref.expand_shape with two dynamic dims in a group, which a convolution
// over dynamic heights and widths would otherwise have.)
//
// A result that reaches its destination through a tensor.collapse_shape is computed in the
// expanded view of the destination the same way (computeInExpandedView). A result of the
// destination's type is handled here too when its chain starts at a tensor.empty
// (writeInDestination): a result written in parts. Each part inserted into a tensor is then
// computed in its slice of the destination, outermost insertion first (placeInsertedParts). An
// empty the chain shares with another write is copied for the chain first (ownEmpty). Runs
// before eliminate-empty-tensors.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPELIMINATEEXPANDEDEMPTYTENSORS
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

// The operand holding the tensor value whose buffer `start`'s value is computed in: followed
// back through the inits that destination-style ops and loops update in place to a tensor.empty
// or to a collapse_shape of one. Null if the chain leaves those.
OpOperand *writtenEmpty(OpOperand &start) {
  OpOperand *operand = &start;
  while (true) {
    Value value = operand->get();
    if (value.getDefiningOp<tensor::EmptyOp>()) return operand;
    if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>())
      return collapse.getSrc().getDefiningOp<tensor::EmptyOp>() ? operand : nullptr;
    auto result = dyn_cast<OpResult>(value);
    if (!result) return nullptr;
    Operation *owner = result.getOwner();
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(owner)) operand = dps.getTiedOpOperand(result);
    else if (auto forall = dyn_cast<scf::ForallOp>(owner)) operand = forall.getTiedOpOperand(result);
    else if (auto loop = dyn_cast<scf::ForOp>(owner)) operand = loop.getTiedLoopInit(result);
    else return nullptr;
  }
}

// The tensor.empty `use` holds, made its own: CSE merges equal empties, and one that another
// op also writes (a reduction's accumulator and its epilogue's result, say) would otherwise be
// left to be allocated and copied into the output. An empty holds no data, so a copy of it is
// the same value.
Value ownEmpty(IRRewriter &rewriter, OpOperand &use) {
  auto empty = use.get().getDefiningOp<tensor::EmptyOp>();
  if (!empty || empty->hasOneUse()) return use.get();
  rewriter.setInsertionPoint(use.getOwner());
  Operation *copy = rewriter.clone(*empty);
  rewriter.modifyOpInPlace(use.getOwner(), [&] { use.set(copy->getResult(0)); });
  return use.get();
}

// A result of the destination's type whose chain starts at a tensor.empty: that empty becomes
// the destination. eliminate-empty-tensors would do the same, but it takes the insertions in
// order, and a part inserted into the empty (writeInParts) would get a slice of the empty, left
// to be allocated and copied, before the empty was replaced.
void writeInDestination(IRRewriter &rewriter, bufferization::MaterializeInDestinationOp materialize,
                        TypedValue<MemRefType> dest) {
  OpOperand *use = writtenEmpty(materialize.getSourceMutable());
  if (!use || !use->get().getDefiningOp<tensor::EmptyOp>() || use->get().getType() != materialize.getSource().getType())
    return;
  Value written = ownEmpty(rewriter, *use);
  Operation *empty = written.getDefiningOp();
  rewriter.setInsertionPoint(empty);
  rewriter.replaceOpWithNewOp<bufferization::ToTensorOp>(empty, written.getType(), dest, /*restrict=*/true,
                                                         /*writable=*/true);
}

// `result`, whose chain starts at `start` (the tensor.empty it is computed in, or a reshape of
// one), computed in `view` of the destination instead: `start` becomes the view, read through a
// restricted to_tensor, and `result` is materialized into the view (in place, so without a
// copy), as eliminate-empty-tensors does for matching types. `materialize` is erased.
void computeInView(IRRewriter &rewriter, bufferization::MaterializeInDestinationOp materialize, Value result,
                   Operation *start, Value view) {
  Location loc = materialize.getLoc();
  rewriter.setInsertionPoint(materialize);
  bufferization::MaterializeInDestinationOp::create(rewriter, loc, Type(), result, view, /*restrict=*/true,
                                                    /*writable=*/true);
  rewriter.setInsertionPoint(start);
  Value whole = bufferization::ToTensorOp::create(rewriter, loc, start->getResult(0).getType(), view,
                                                  /*restrict=*/true, /*writable=*/true);
  rewriter.replaceOp(start, whole);
  rewriter.eraseOp(materialize);
}

// A result that reaches its destination through a tensor.collapse_shape, computed in a
// tensor.empty (grouped NHWC Conv2D writes [image, height, width, group, out channel in the
// group]): the empty becomes the expanded view of the destination.
void computeInExpandedView(IRRewriter &rewriter, bufferization::MaterializeInDestinationOp materialize,
                           tensor::CollapseShapeOp collapse, TypedValue<MemRefType> dest) {
  OpOperand *use = writtenEmpty(collapse.getSrcMutable());
  if (!use || !use->get().getDefiningOp<tensor::EmptyOp>() || use->get().getType() != collapse.getSrc().getType())
    return;
  Value written = ownEmpty(rewriter, *use);
  if (!written.hasOneUse()) return;
  auto empty = written.getDefiningOp<tensor::EmptyOp>();
  auto type = cast<RankedTensorType>(written.getType());
  rewriter.setInsertionPoint(empty);
  Value view = memref::ExpandShapeOp::create(rewriter, materialize.getLoc(),
                                             MemRefType::get(type.getShape(), type.getElementType()), dest,
                                             collapse.getReassociationIndices(), empty.getMixedSizes());
  computeInView(rewriter, materialize, collapse.getSrc(), empty, view);
  if (collapse->use_empty()) rewriter.eraseOp(collapse);
}

// Each part inserted into a tensor (tensor.insert_slice) that is computed in a tensor.empty: the
// empty becomes the destination's slice the part is inserted at, outermost insertion first.
// eliminate-empty-tensors takes the insertions in order, innermost first: a part of a part (an op
// split at a partial tile, inside a concatenation's part) got a slice of its enclosing part's
// empty, and only that empty's use in the insertion was then replaced, so the part of the part
// was computed in a buffer of its own and copied. An empty's contents are undefined, so any
// tensor of its type may stand for it; the destination and the insertion's sizes must be defined
// before it.
void placeInsertedParts(IRRewriter &rewriter, func::FuncOp func) {
  SmallVector<tensor::InsertSliceOp> inserts;
  func.walk([&](tensor::InsertSliceOp insert) { inserts.push_back(insert); });
  DominanceInfo dominance(func);
  for (tensor::InsertSliceOp insert : llvm::reverse(inserts)) {
    OpOperand *use = writtenEmpty(insert.getSourceMutable());
    if (!use || !use->get().getDefiningOp<tensor::EmptyOp>()) continue;
    Operation *empty = ownEmpty(rewriter, *use).getDefiningOp();
    SmallVector<Value> needed{insert.getDest()};
    llvm::append_range(needed, insert.getOffsets());
    llvm::append_range(needed, insert.getSizes());
    if (!llvm::all_of(needed, [&](Value value) { return dominance.properlyDominates(value, empty); })) continue;
    rewriter.setInsertionPoint(empty);
    auto type = cast<RankedTensorType>(empty->getResult(0).getType());
    Value slice = tensor::ExtractSliceOp::create(rewriter, insert.getLoc(), type, insert.getDest(),
                                                 insert.getMixedOffsets(), insert.getMixedSizes(),
                                                 insert.getMixedStrides());
    rewriter.replaceOp(empty, slice);
  }
}

struct AclopEliminateExpandedEmptyTensorsPass
    : aclop::impl::AclopEliminateExpandedEmptyTensorsBase<AclopEliminateExpandedEmptyTensorsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<bufferization::MaterializeInDestinationOp> materializations;
    getOperation().walk([&](bufferization::MaterializeInDestinationOp op) { materializations.push_back(op); });
    for (bufferization::MaterializeInDestinationOp materialize : materializations) {
      auto expand = materialize.getSource().getDefiningOp<tensor::ExpandShapeOp>();
      auto dest = dyn_cast<TypedValue<MemRefType>>(materialize.getDest());
      if (!dest || !materialize.getWritable() || !dest.getType().getLayout().isIdentity()) continue;
      if (auto collapse = materialize.getSource().getDefiningOp<tensor::CollapseShapeOp>()) {
        computeInExpandedView(rewriter, materialize, collapse, dest);
        continue;
      }
      if (!expand) {
        writeInDestination(rewriter, materialize, dest);
        continue;
      }
      OpOperand *use = writtenEmpty(expand.getSrcMutable());
      if (!use) continue;
      Value written = ownEmpty(rewriter, *use);
      // One use: the chain that leads to the output; anything else reading the buffer would
      // then read the output's.
      if (!written.hasOneUse() || written.getType() != expand.getSrc().getType()) continue;
      if (auto collapse = written.getDefiningOp<tensor::CollapseShapeOp>()) {
        if (!collapse.getSrc().hasOneUse() || collapse.getReassociationIndices() != expand.getReassociationIndices())
          continue;
      }
      MemRefType viewType = memref::CollapseShapeOp::computeCollapsedType(dest.getType(),
                                                                           expand.getReassociationIndices());
      if (cast<RankedTensorType>(written.getType()).getShape() != viewType.getShape()) continue;
      Operation *start = written.getDefiningOp();
      rewriter.setInsertionPoint(start);
      Value view = memref::CollapseShapeOp::create(rewriter, materialize.getLoc(), viewType, dest,
                                                   expand.getReassociationIndices());
      auto collapse = dyn_cast<tensor::CollapseShapeOp>(start);
      Operation *empty = collapse ? collapse.getSrc().getDefiningOp() : nullptr;
      computeInView(rewriter, materialize, expand.getSrc(), start, view);
      if (empty && empty->use_empty()) rewriter.eraseOp(empty);
      if (expand->use_empty()) rewriter.eraseOp(expand);
    }
    placeInsertedParts(rewriter, getOperation());
  }
};

} // namespace
