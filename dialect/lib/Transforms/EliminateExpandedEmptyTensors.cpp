//===- EliminateExpandedEmptyTensors.cpp - write outputs through reshapes --===//
//
// eliminate-empty-tensors makes a result written into a tensor.empty write the output buffer
// instead, but only when the types match: a result that reaches its destination through a
// tensor.expand_shape (Conv2D's product writes [image, pixels, channels] and the output is
// [image, height, width, channels]) got a buffer of its own and a copy into the output, and that
// copy, a nest no block can take a share of, made the whole kernel run as one block. Here the
// tensor.empty written in place into such a result becomes the matching collapse_shape of the
// destination (or, when the chain starts from a collapse_shape of a tensor.empty of the
// destination's type, that empty becomes the destination), so the result is computed in the
// output buffer. Runs before eliminate-empty-tensors.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPELIMINATEEXPANDEDEMPTYTENSORS
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

// The tensor.empty whose buffer `value` is computed in: followed back through the inits that
// destination-style ops and loops update in place. Null if the chain leaves those. The chain may
// start at a collapse_shape of an empty (`through` is then set to it).
tensor::EmptyOp writtenEmpty(Value value, tensor::CollapseShapeOp &through) {
  while (value) {
    if (auto empty = value.getDefiningOp<tensor::EmptyOp>()) return empty;
    if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>()) {
      through = collapse;
      return collapse.getSrc().getDefiningOp<tensor::EmptyOp>();
    }
    auto result = dyn_cast<OpResult>(value);
    if (!result) return {};
    Operation *owner = result.getOwner();
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(owner)) value = dps.getTiedOpOperand(result)->get();
    else if (auto forall = dyn_cast<scf::ForallOp>(owner)) value = forall.getTiedOpOperand(result)->get();
    else if (auto loop = dyn_cast<scf::ForOp>(owner)) value = loop.getTiedLoopInit(result)->get();
    else return {};
  }
  return {};
}

struct AclopEliminateExpandedEmptyTensorsPass
    : aclop::impl::AclopEliminateExpandedEmptyTensorsBase<AclopEliminateExpandedEmptyTensorsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](bufferization::MaterializeInDestinationOp materialize) {
      auto expand = materialize.getSource().getDefiningOp<tensor::ExpandShapeOp>();
      if (!expand) return;
      tensor::CollapseShapeOp through;
      tensor::EmptyOp empty = writtenEmpty(expand.getSrc(), through);
      // One use: the chain that leads to the output; anything else reading the buffer would
      // then read the output's.
      if (!empty || !empty->hasOneUse()) return;
      if (through && (through->hasOneUse() == false || through.getReassociationIndices() != expand.getReassociationIndices() ||
                      empty.getType() != materialize.getSource().getType()))
        return;
      rewriter.setInsertionPoint(empty);
      Value whole = materialize.buildSubsetExtraction(rewriter, empty.getLoc());
      if (!whole) return;  // a destination that may not be written
      if (through) {
        rewriter.replaceOp(empty, whole);
        return;
      }
      Value collapsed = tensor::CollapseShapeOp::create(rewriter, empty.getLoc(), whole, expand.getReassociationIndices());
      if (collapsed.getType() != empty.getType()) {
        rewriter.eraseOp(collapsed.getDefiningOp());
        if (whole.use_empty() && whole.getDefiningOp()) rewriter.eraseOp(whole.getDefiningOp());
        return;
      }
      rewriter.replaceOp(empty, collapsed);
    });
  }
};

} // namespace
