//===- LowerStridedGathers.cpp - stride-s gathers as a load and a shuffle --===//
//
// A vector.gather whose lanes read every s-th element (s = 2 to 4) of a contiguous memref, as
// the vectorizer makes of a window read at a stride along the innermost dim (NCHW pooling with
// stride 2), becomes one contiguous load of s x V elements and a vector.shuffle of every s-th:
// on AVX2 a load, a shuffle and a lane permute where LLVM scalarized the gather (8 loads and
// inserts).
// The load may reach s - 1 elements past the last one the gather read; where that would leave
// the buffer (its last vector of the kind) the gather stays, behind an scf.if.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <optional>

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPLOWERSTRIDEDGATHERS
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

constexpr int64_t kMaxStride = 4;

// A constant's integer lanes (a scalar's one value).
std::optional<SmallVector<int64_t>> constantLanes(Value v) {
  Attribute value;
  if (!matchPattern(v, m_Constant(&value))) return std::nullopt;
  SmallVector<int64_t> lanes;
  if (auto dense = dyn_cast<DenseIntElementsAttr>(value)) {
    for (const APInt &lane : dense.getValues<APInt>())
      lanes.push_back(lane.getBitWidth() == 1 ? int64_t(lane.getBoolValue()) : lane.getSExtValue());
  } else if (auto integer = dyn_cast<IntegerAttr>(value)) {
    lanes.push_back(integer.getValue().getSExtValue());
  } else {
    return std::nullopt;
  }
  return lanes;
}

// The step between consecutive lanes of an index vector whose lanes (along its one non-unit dim)
// are lane 0's plus step x lane, or nothing where that is not evident from how it is computed.
std::optional<int64_t> laneStep(Value v, int depth = 0) {
  if (depth > 16) return std::nullopt;
  if (!isa<VectorType>(v.getType())) return 0;  // a scalar, broadcast to every lane
  Operation *op = v.getDefiningOp();
  if (!op) return std::nullopt;
  if (std::optional<SmallVector<int64_t>> lanes = constantLanes(v)) {
    int64_t step = lanes->size() > 1 ? (*lanes)[1] - (*lanes)[0] : 0;
    for (size_t i = 1; i < lanes->size(); ++i)
      if ((*lanes)[i] - (*lanes)[i - 1] != step) return std::nullopt;
    return step;
  }
  if (isa<vector::StepOp>(op)) return 1;
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
    auto source = dyn_cast<VectorType>(broadcast.getSourceType());
    if (!source || source.getNumElements() == 1) return 0;
    // Leading unit dims added: the same lanes.
    if (source.getNumElements() == cast<VectorType>(v.getType()).getNumElements())
      return laneStep(broadcast.getSource(), depth + 1);
    return std::nullopt;
  }
  if (auto cast = dyn_cast<vector::ShapeCastOp>(op)) return laneStep(cast.getSource(), depth + 1);
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(op)) return laneStep(op->getOperand(0), depth + 1);
  if (isa<arith::AddIOp, arith::SubIOp>(op)) {
    auto lhs = laneStep(op->getOperand(0), depth + 1), rhs = laneStep(op->getOperand(1), depth + 1);
    if (!lhs || !rhs) return std::nullopt;
    return isa<arith::AddIOp>(op) ? *lhs + *rhs : *lhs - *rhs;
  }
  if (isa<arith::MulIOp>(op)) {
    auto lhs = laneStep(op->getOperand(0), depth + 1), rhs = laneStep(op->getOperand(1), depth + 1);
    if (!lhs || !rhs) return std::nullopt;
    if (*lhs == 0 && *rhs == 0) return 0;
    if (*lhs != 0 && *rhs != 0) return std::nullopt;
    // Lanes in step times a constant splat.
    std::optional<SmallVector<int64_t>> factor = constantLanes(op->getOperand(*lhs == 0 ? 0 : 1));
    if (!factor || llvm::any_of(*factor, [&](int64_t f) { return f != factor->front(); })) return std::nullopt;
    return (*lhs + *rhs) * factor->front();
  }
  return std::nullopt;
}

// Lane 0 of an index vector laneStep accepted, computed from scalars: extracted from the vector,
// it kept the whole vector computation alive beside the load, for the fallback's gather.
Value laneZero(OpBuilder &b, Location loc, Value v) {
  Type element = getElementTypeOrSelf(v.getType());
  if (!isa<VectorType>(v.getType())) return v;
  Operation *op = v.getDefiningOp();
  if (std::optional<SmallVector<int64_t>> lanes = constantLanes(v))
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(element, lanes->front()));
  if (isa<vector::StepOp>(op)) return arith::ConstantOp::create(b, loc, b.getIntegerAttr(element, 0));
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
    // laneStep looked no further than a one-lane source: extract its lane.
    auto source = dyn_cast<VectorType>(broadcast.getSourceType());
    if (source && source.getNumElements() == 1)
      return vector::ExtractOp::create(b, loc, broadcast.getSource(), SmallVector<int64_t>(source.getRank(), 0));
    return laneZero(b, loc, broadcast.getSource());
  }
  if (auto cast = dyn_cast<vector::ShapeCastOp>(op)) return laneZero(b, loc, cast.getSource());
  Value lhs = laneZero(b, loc, op->getOperand(0));
  if (isa<arith::IndexCastOp>(op)) return arith::IndexCastOp::create(b, loc, element, lhs);
  if (isa<arith::ExtSIOp>(op)) return arith::ExtSIOp::create(b, loc, element, lhs);
  Value rhs = laneZero(b, loc, op->getOperand(1));
  if (isa<arith::AddIOp>(op)) return b.createOrFold<arith::AddIOp>(loc, lhs, rhs);
  if (isa<arith::SubIOp>(op)) return b.createOrFold<arith::SubIOp>(loc, lhs, rhs);
  return b.createOrFold<arith::MulIOp>(loc, lhs, rhs);
}

// Whether a mask is a constant with every lane set.
bool allLanesOn(Value mask) {
  std::optional<SmallVector<int64_t>> lanes = constantLanes(mask);
  return lanes && llvm::all_of(*lanes, [](int64_t on) { return on != 0; });
}

struct StridedGatherToLoadAndShuffle : OpRewritePattern<vector::GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::GatherOp gather, PatternRewriter &rewriter) const override {
    auto memref = dyn_cast<MemRefType>(gather.getBase().getType());
    VectorType type = gather.getVectorType();
    if (!memref || !memref.getLayout().isIdentity() || type.isScalable()) return failure();
    int64_t lanes = type.getNumElements();
    if (lanes < 2 || llvm::count_if(type.getShape(), [](int64_t d) { return d != 1; }) != 1) return failure();
    if (!allLanesOn(gather.getMask())) return failure();
    std::optional<int64_t> step = laneStep(gather.getIndices());
    if (!step || *step < 2 || *step > kMaxStride) return failure();

    Location loc = gather.getLoc();
    Value base = gather.getBase();
    // The element lane 0 reads, as an offset into the flattened memref, and the memref's size.
    Value first = laneZero(rewriter, loc, gather.getIndices());
    if (!first.getType().isIndex()) first = arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(), first);
    Value size = arith::ConstantIndexOp::create(rewriter, loc, 1), start = first;
    for (int64_t d = memref.getRank() - 1; d >= 0; --d) {
      start = rewriter.createOrFold<arith::AddIOp>(
          loc, start, rewriter.createOrFold<arith::MulIOp>(loc, gather.getOffsets()[d], size));
      Value extent = rewriter.createOrFold<memref::DimOp>(loc, base, d);  // a constant where static
      size = rewriter.createOrFold<arith::MulIOp>(loc, size, extent);
    }
    Value end = rewriter.createOrFold<arith::AddIOp>(loc, start,
                                                     arith::ConstantIndexOp::create(rewriter, loc, *step * lanes));
    Value inside = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ule, end, size);

    auto ifOp = scf::IfOp::create(
        rewriter, loc, inside,
        [&](OpBuilder &b, Location l) {
          // A 1-D view by reinterpret_cast: a collapse_shape's load was folded back into the
          // memref's dims, dividing the start by each (MaxPool 2x2/2 NCHW: half the gathers' speed).
          int64_t elements = memref.hasStaticShape() ? memref.getNumElements() : ShapedType::kDynamic;
          OpFoldResult extent = memref.hasStaticShape() ? OpFoldResult(b.getIndexAttr(elements)) : OpFoldResult(size);
          auto flatType = MemRefType::get({elements}, memref.getElementType());
          Value flat = memref::ReinterpretCastOp::create(b, l, flatType, base, b.getIndexAttr(0), {extent},
                                                         {b.getIndexAttr(1)});
          auto windowType = VectorType::get({*step * lanes}, type.getElementType());
          Value loaded = vector::LoadOp::create(b, l, windowType, flat, ValueRange{start});
          SmallVector<int64_t> picks;
          for (int64_t i = 0; i < lanes; ++i) picks.push_back(i * *step);
          Value picked = vector::ShuffleOp::create(b, l, loaded, loaded, picks);
          if (picked.getType() != type) picked = vector::ShapeCastOp::create(b, l, type, picked);
          scf::YieldOp::create(b, l, picked);
        },
        [&](OpBuilder &b, Location l) { scf::YieldOp::create(b, l, b.clone(*gather)->getResults()); });
    rewriter.replaceOp(gather, ifOp.getResults());
    return success();
  }
};

struct AclopLowerStridedGathersPass : aclop::impl::AclopLowerStridedGathersBase<AclopLowerStridedGathersPass> {
  void runOnOperation() override {
    SmallVector<Operation *> gathers;
    getOperation().walk([&](vector::GatherOp gather) { gathers.push_back(gather); });
    if (gathers.empty()) return;
    RewritePatternSet patterns(&getContext());
    patterns.add<StridedGatherToLoadAndShuffle>(&getContext());
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);  // not the fallbacks the rewrite clones
    if (failed(applyOpPatternsGreedily(gathers, std::move(patterns), config))) return signalPassFailure();
  }
};

} // namespace
