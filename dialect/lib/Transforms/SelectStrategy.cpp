//===- SelectStrategy.cpp - per-op tile and vector sizes -------------------===//
//
// The strategy is data on the op (`aclop.strategy`), not code in the passes that apply it, so
// a lit test can check what was chosen and a later, smarter selector changes only this file.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "RegisterTiles.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPSELECTSTRATEGY
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;
using namespace mlir::aclop;

namespace {

unsigned widestElementBits(linalg::LinalgOp op) {
  unsigned bits = 8;
  for (Value operand : op->getOperands())
    if (auto shaped = dyn_cast<ShapedType>(operand.getType()))
      if (shaped.getElementType().isIntOrFloat()) bits = std::max(bits, shaped.getElementType().getIntOrFloatBitWidth());
  return bits;
}

// Element-wise generics (and transposes) writing their output in iteration order tile well: one
// vector along the innermost dimension, every outer dimension tile 1.
bool isContiguousElementwise(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp, linalg::TransposeOp>(op.getOperation()) || op.getNumLoops() == 0 ||
      op.getNumReductionLoops() != 0)
    return false;
  return llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
    return op.getMatchingIndexingMap(&init).isIdentity();
  });
}

// The loop dim along which an input of an element-wise op is contiguous, when that is not the
// innermost loop dim (a transposed read), if any: its last dim's. Where vectors divide that dim,
// the op tiles it by a vector too, and each V x V tile reads V contiguous rows and transposes
// them in registers; along the innermost dim alone each vector was a gather of V elements a row
// apart (a 4096 x 4096 f32 transpose: 0.9 GB/s, 0.05x memcpy; in tiles 7.0). Where blocks of
// kTransposeBlock divide both dims, the tiles run a block at a time (`block_sizes`), so that the
// block's rows of input stay in cache until all their lines are read (9.4 GB/s, 0.47x).
constexpr int64_t kTransposeBlock = 64;
// The block's side for tiles of `vectorSize` lanes of `vectorBits`: kTransposeBlock, but one tile
// where the tiles' rows are whole lines (512-bit vectors) and the block would hold two by two
// tiles (16-bit elements, 32 x 32 tiles). On Zen 5, one core, the 4096 x 4096 f16 transpose ran
// 10.2-11.1 ms in 64 x 64 blocks, 3.0-3.7 in blocks of one tile, 4.8-5.8 in 128s and 3.4-4.2 in
// 256s; f32 likewise lost in blocks of two by two 16 x 16 tiles (32: 12.4-22 ms, against
// 6.4-7.8 in 64s and 6.6-7.0 in 128s and 256s), so f32 keeps 64. (Not measured on Intel.)
int64_t transposeBlock(int64_t vectorSize, int64_t vectorBits) {
  return vectorBits >= 512 && kTransposeBlock == 2 * vectorSize ? vectorSize : kTransposeBlock;
}
std::optional<unsigned> transposedReadDim(linalg::LinalgOp op) {
  const unsigned innermost = op.getNumLoops() - 1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() == 0 || !map.isProjectedPermutation()) continue;
    // Read along the innermost dim, but not where it is contiguous (a broadcast across the
    // innermost dim, such as a bias, is no transpose).
    unsigned last = cast<AffineDimExpr>(map.getResults().back()).getPosition();
    if (last != innermost && map.isFunctionOfDim(innermost)) return last;
  }
  return std::nullopt;
}

// The loop dim along which an element-wise generic writes its output contiguously, when that is
// not the innermost loop dim (its one output written transposed, each input read in iteration
// order or broadcast), if any: an NCHW convolution's epilogue, whose [pixel, out channel] sums
// become [out channel, pixel]. It keeps its iteration order, whose outermost dim the product's
// blocks share, and tiles both dims by a vector: each V x V tile reads V rows and writes V
// transposed ones, where each vector along the innermost dim had been a scatter of V elements a
// row apart (Conv2D 7x7/2 stem NCHW, 1 thread: the scatters took as long as the product).
std::optional<unsigned> transposedWriteDim(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp>(op.getOperation()) || op.getNumLoops() < 2 || op.getNumReductionLoops() != 0 ||
      op.getNumDpsInits() != 1)
    return std::nullopt;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!out.isPermutation() || out.isIdentity()) return std::nullopt;
  const unsigned last = cast<AffineDimExpr>(out.getResults().back()).getPosition();
  if (last == op.getNumLoops() - 1) return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isProjectedPermutation()) return std::nullopt;
    SmallVector<unsigned> dims;
    for (AffineExpr result : map.getResults()) dims.push_back(cast<AffineDimExpr>(result).getPosition());
    if (!llvm::is_sorted(dims)) return std::nullopt;
  }
  return last;
}

// Whether vectors divide both the innermost dim and `dim` (static ranges).
bool transposedTilesDivide(linalg::LinalgOp op, unsigned dim, int64_t vectorSize) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto divides = [&](int64_t range) { return !ShapedType::isDynamic(range) && range % vectorSize == 0; };
  return divides(ranges[dim]) && divides(ranges.back());
}

// Whether a read by index (tensor.extract) of `op` varies along its innermost dim other than as
// a contiguous run: only its last index varies, as that dim's index plus something that does not.
// A read that does not vary along it is a broadcast.
bool gathersAlongInnermost(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  const int64_t innermost = op.getNumLoops() - 1;
  llvm::SmallPtrSet<Value, 16> varying;  // values that vary along the innermost dim
  auto varies = [&](Value value) { return varying.contains(value); };
  for (Operation &inner : body->without_terminator()) {
    auto index = dyn_cast<linalg::IndexOp>(inner);
    if ((index && int64_t(index.getDim()) == innermost) || llvm::any_of(inner.getOperands(), varies))
      varying.insert(inner.result_begin(), inner.result_end());
  }
  auto contiguous = [&](Value last) {
    if (auto index = last.getDefiningOp<linalg::IndexOp>()) return int64_t(index.getDim()) == innermost;
    auto add = last.getDefiningOp<arith::AddIOp>();
    if (!add) return false;
    for (auto [run, start] : {std::pair{add.getLhs(), add.getRhs()}, std::pair{add.getRhs(), add.getLhs()}}) {
      auto index = run.getDefiningOp<linalg::IndexOp>();
      if (index && int64_t(index.getDim()) == innermost && !varies(start)) return true;
    }
    return false;
  };
  WalkResult gathers = op->walk([&](tensor::ExtractOp read) {
    ValueRange indices = read.getIndices();
    if (indices.empty() || llvm::none_of(indices, varies)) return WalkResult::advance();
    bool run = llvm::none_of(indices.drop_back(), varies) && contiguous(indices.back());
    return run ? WalkResult::advance() : WalkResult::interrupt();
  });
  return gathers.wasInterrupted();
}

// A generic that gathers (gathersAlongInnermost) along an innermost dim statically shorter than a
// vector: vectorized, each tile is a gather, slower than the scalar loop (an NCHW convolution's
// patches, 3 window columns innermost: 32 -> 45 GFLOP/s for the whole 3x3 convolution on the
// AVX2 EPYC; the 7x7 stem 28 -> 39).
bool shortGather(linalg::LinalgOp op, int64_t vectorSize) {
  int64_t innermost = op.getStaticLoopRanges().back();
  if (ShapedType::isDynamic(innermost) || innermost >= vectorSize) return false;
  return gathersAlongInnermost(op);
}

// The length of the rows a reduction along short rows reduces, or 0: the trailing dims reduced
// (their static product at most kShortRowVectors vectors), more than one row, every input read in
// iteration order, and each element only cast before it is combined. Left to LLVM, such a nest
// was vectorized across rows with scalar loads (global average pooling, rows of 7x7: 19 GB/s,
// 0.28x memcpy); aclop-tile-and-vectorize reads each row as one vector instead and reduces it
// across lanes. A body that computes more would compute it on a whole row's vector at once (a
// softmax's sum of exponentials spilled). A single row (forEachRow's) takes `row_partials`
// (rowPartials) instead: as one vector, a softmax's maxima along rows of 128 ran 10.0 -> 9.4 GB/s.
constexpr int64_t kShortRowVectors = 16;

// True if a reduction's body only casts each element before one combiner takes it in into its
// one output: a plain sum, product, maximum or minimum.
bool combinesOnly(linalg::GenericOp generic) {
  if (generic.getNumDpsInits() != 1) return false;
  Operation *combiner = generic.getBody()->getTerminator()->getOperand(0).getDefiningOp();
  return combiner && llvm::all_of(generic.getBody()->without_terminator(), [&](Operation &body) {
           return &body == combiner || isa<CastOpInterface>(body);
         });
}

// A plain reduction (combinesOnly) whose inputs are read in iteration order.
linalg::GenericOp plainReduction(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumReductionLoops() == 0 || !combinesOnly(generic)) return {};
  AffineMap identity = AffineMap::getMultiDimIdentityMap(generic.getNumLoops(), op->getContext());
  if (llvm::any_of(generic.getDpsInputOperands(),
                   [&](OpOperand *input) { return generic.getMatchingIndexingMap(input) != identity; }))
    return {};
  return generic;
}

int64_t shortRowLength(linalg::LinalgOp op, int64_t vectorSize) {
  linalg::GenericOp generic = plainReduction(op);
  if (!generic) return 0;
  unsigned loops = generic.getNumLoops(), kept = loops - generic.getNumReductionLoops();
  SmallVector<utils::IteratorType> iterators = generic.getIteratorTypesArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::is_contained(ArrayRef(iterators).take_front(kept), utils::IteratorType::reduction) ||
      llvm::all_of(ArrayRef(ranges).take_front(kept), [](int64_t range) { return range == 1; }))
    return 0;
  AffineMap identity = AffineMap::getMultiDimIdentityMap(loops, op->getContext());
  if (generic.getMatchingIndexingMap(generic.getDpsInitOperand(0)) != identity.getMajorSubMap(kept)) return 0;
  int64_t length = 1;
  for (int64_t range : ArrayRef(ranges).drop_front(kept)) {
    if (ShapedType::isDynamic(range)) return 0;
    length *= range;
  }
  return length > 1 && length <= kShortRowVectors * vectorSize ? length : 0;
}

// True if a body is element-wise arithmetic: no reads by index, no regions.
bool elementwiseBody(linalg::GenericOp generic) {
  return llvm::all_of(generic.getBody()->without_terminator(), [](Operation &body) {
    return isa<linalg::IndexOp>(body) ||
           (body.getNumRegions() == 0 && isa<arith::ArithDialect, math::MathDialect>(body.getDialect()));
  });
}

// The tiles of a reduction whose innermost dim is kept and a vector or longer (or dynamic): a
// column sum (ReduceSumD over axis 0), NHWC's global average (dims n, h, w, c; h and w reduced),
// an ArgMaxD over axis 0 (the maximum and its row's index), a softmax's sums over axis 0.
// convert-aclop-to-linalg orders such a reduction's dims as kept ones, reduced ones, then the
// innermost kept one; here each input must be read in rows along the innermost dim (in
// iteration order, or a plane apart: ReduceSumD over axis 0 of [a, b, c], iterated (b, a, c)) or
// be a row of the kept dims (a softmax's maxima), each output a row of the kept dims, and the
// body element-wise arithmetic (no reads by index). The tiles are one element of every dim but
// the innermost and a vector of that, the reduced dims in sequence, so that the input is read a
// row at a time, each vector combined into its part of the accumulator row. Left to
// convert-linalg-to-parallel-loops, the nest was the same loops, vectorized by LLVM, which a
// prefetch in the scalar loop stops; vectorized here, the row loop prefetches ahead
// (aclop-prefetch-streamed-rows).
// A static row of up to kRegisterRowVectors vectors of a plain reduction (combinesOnly: a
// body that computed more would spill) is one tile, its accumulators carried in registers from
// row to row rather than stored and loaded back each row, where a short row waited on
// store-to-load forwarding (one core, in turn, ReduceSumD over axis 0 of f32: 100000x64
// 0.48-0.53 -> 0.36-0.43 ms, 2000x64 2.6-3.7 -> 2.4-3.0 us, 100000x128 1.06-1.14 -> 0.89-1.15
// ms; NHWC 8x56x56x64's mean even). A maximum of f16 rows of 64 stayed at ~0.46 ms: its
// NaN-propagating maximum's chain of five operations a row sets the pace either way. Only rows of
// 1, 2, 4 or 8 whole vectors: LLVM split a vector<100xf32> into pieces of xmm inserts and
// extracts (ReduceSumD over axis 0 of 33x100: 0.15-0.18 -> 0.29 us).
constexpr int64_t kRegisterRowVectors = 8;
std::optional<SmallVector<int64_t>> streamedRowTiles(linalg::LinalgOp op, int64_t vectorSize) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumReductionLoops() == 0) return std::nullopt;
  const unsigned loops = generic.getNumLoops(), reduced = generic.getNumReductionLoops();
  SmallVector<utils::IteratorType> iterators = generic.getIteratorTypesArray();
  // Kept dims, reduced ones, kept ones (one, or several where no kept dim leads).
  const unsigned leading = llvm::find(iterators, utils::IteratorType::reduction) - iterators.begin();
  const unsigned trailing = loops - leading - reduced;
  if (trailing == 0 || (leading > 0 && trailing > 1) ||
      llvm::is_contained(ArrayRef(iterators).drop_front(leading + reduced), utils::IteratorType::reduction))
    return std::nullopt;
  MLIRContext *context = op->getContext();
  SmallVector<AffineExpr> keptDims;
  for (unsigned d = 0; d < loops; ++d)
    if (iterators[d] == utils::IteratorType::parallel) keptDims.push_back(getAffineDimExpr(d, context));
  AffineMap kept = AffineMap::get(loops, 0, keptDims, context);
  // An input in rows along the innermost dim: in iteration order, or in another (ReduceSumD over
  // axis 0 of [a, b, c], iterated (b, a, c): its rows a plane apart).
  auto rows = [&](AffineMap map) {
    return map.isPermutation() && map.getResults().back() == getAffineDimExpr(loops - 1, context);
  };
  for (OpOperand &operand : generic->getOpOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    if (map != kept && (generic.isDpsInit(&operand) || !rows(map))) return std::nullopt;
  }
  if (!elementwiseBody(generic)) return std::nullopt;
  int64_t innermost = op.getStaticLoopRanges().back();
  if (!ShapedType::isDynamic(innermost) && innermost < vectorSize) return std::nullopt;
  SmallVector<int64_t> tiles(loops, 1);
  const bool wholeRow = trailing == 1 && !ShapedType::isDynamic(innermost) && innermost % vectorSize == 0 &&
                        llvm::isPowerOf2_64(innermost / vectorSize) &&
                        innermost <= kRegisterRowVectors * vectorSize && combinesOnly(generic);
  tiles.back() = wholeRow ? innermost : vectorSize;
  return tiles;
}

// The lanes of partial results a reduction of one row keeps (SelectStrategy's `row_partials`), or
// 0: every kept dim one element (a row of forEachRow's: a softmax's maximum and sum, a LayerNorm's
// sums), one reduced dim, innermost, at least a vector long (or dynamic), inputs read along it or
// once for the row, and an element-wise body. The row is read a vector at a time into
// kRowPartialVectors vectors of partial results, which stay in registers and are combined across
// lanes once, at the end, by halves. Left to LLVM, a maximum's NaN checks made it leave its
// vector loop on a NaN and combine the lanes one after another (16 dependent maxima a row): the
// maximum took a quarter of a softmax along rows of 1024 in L2. One core, the builds in turn,
// SoftmaxV2 in L2, us: 32x1024 f32 7.6-7.8 -> 6.6-6.7, 256x128 13.4-15.1 -> 8.9-10.1, 64x1000
// 20.6-21.3 -> 15.5-16.1, f16 64x1024 17.6-20.1 -> 15.2-17.0; from memory within this VM's noise.
// Eight vectors of partial results ran no faster than four.
constexpr int64_t kRowPartialVectors = 4;
int64_t rowPartials(linalg::LinalgOp op, int64_t vectorSize) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumReductionLoops() != 1 || generic.getNumDpsInits() != 1) return 0;
  const unsigned loops = generic.getNumLoops();
  SmallVector<utils::IteratorType> iterators = generic.getIteratorTypesArray();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (iterators.back() != utils::IteratorType::reduction ||
      llvm::any_of(ArrayRef(ranges).drop_back(), [](int64_t range) { return range != 1; }))
    return 0;
  MLIRContext *context = op->getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(loops, context), kept = identity.getMajorSubMap(loops - 1);
  for (OpOperand &operand : generic->getOpOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(&operand);
    if (map != kept && (generic.isDpsInit(&operand) || map != identity)) return 0;
  }
  SmallVector<Operation *> combiners;
  if (!elementwiseBody(generic) || !matchReduction(generic.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1)
    return 0;
  const int64_t length = ranges.back();
  if (ShapedType::isDynamic(length)) return kRowPartialVectors * vectorSize;
  if (length < vectorSize) return 0;
  const int64_t partials = (int64_t{1} << llvm::Log2_64(std::min(kRowPartialVectors, length / vectorSize))) * vectorSize;
  // A short row's masked rest costs more than LLVM's loop saves (its partial results stored with a
  // mask and read back whole): SoftmaxV2 64x100 3.5 -> 4.6 us with it, ArgMaxD 64x100 2.2 -> 2.8.
  return length % partials == 0 || length >= kRowPartialVectors * partials ? partials : 0;
}

// The product generics of convert-aclop-to-linalg: dims (batch?, m, k, n) with k the only
// reduction, a(.., m, k) * b(.., k, n) accumulated into c(.., m, n).
bool isContraction(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumDpsInputs() != 2 || generic.getNumDpsInits() != 1) return false;
  unsigned loops = generic.getNumLoops();
  if ((loops != 3 && loops != 4) || generic.getNumReductionLoops() != 1) return false;
  auto iterators = generic.getIteratorTypesArray();
  return iterators[loops - 2] == utils::IteratorType::reduction;
}

Type elementType(Value value) { return cast<ShapedType>(value.getType()).getElementType(); }

// The f32 or f16 value that `value` is, rounded to bf16 and widened to f32 (extf(truncf(x)), or
// extf(truncf(extf(x))) for f16: what convert-aclop-to-linalg makes of a low-precision gemm's
// inputs), or null.
Value roundedThroughBf16(Value value) {
  auto widened = value.getDefiningOp<arith::ExtFOp>();
  auto rounded = widened ? widened.getIn().getDefiningOp<arith::TruncFOp>() : arith::TruncFOp();
  if (!rounded || !rounded.getType().isBF16()) return Value();
  Value source = rounded.getIn();
  if (auto fromHalf = source.getDefiningOp<arith::ExtFOp>()) source = fromHalf.getIn();
  return source.getType().isF16() || source.getType().isF32() ? source : Value();
}

// True if the body is c + x(a) * x(b), each x an `Extension` of the block argument or, when
// `mustExtend` is false, the argument itself; with `roundedToBf16`, each x the f16 or f32
// argument rounded to bf16 (roundedThroughBf16).
template <typename AddOp, typename MulOp, typename Extension>
bool isMultiplyAccumulate(linalg::LinalgOp op, bool mustExtend, bool roundedToBf16 = false) {
  Block *body = op.getBlock();
  auto add = body->getTerminator()->getOperand(0).getDefiningOp<AddOp>();
  if (!add) return false;
  Value accumulator = body->getArgument(2);
  Value product = add.getLhs() == accumulator ? add.getRhs() : add.getRhs() == accumulator ? add.getLhs() : Value();
  auto multiply = product ? product.template getDefiningOp<MulOp>() : MulOp();
  if (!multiply) return false;
  auto operand = [&](Value value, unsigned argument) {
    if (roundedToBf16) return roundedThroughBf16(value) == body->getArgument(argument);
    if (auto extension = value.template getDefiningOp<Extension>()) value = extension.getIn();
    else if (mustExtend) return false;
    return value == body->getArgument(argument);
  };
  return (operand(multiply.getLhs(), 0) && operand(multiply.getRhs(), 1)) ||
         (operand(multiply.getLhs(), 1) && operand(multiply.getRhs(), 0));
}

// True if generated register tiles beat the f32 ukernel on this product: a GEMM whose epilogue
// runs inside them (fitsFusedRegisterTiles) with A and B stored (m, k) and (k, n), or with no
// dim past 256, or B alone transposed at most 256 deep. Measured on one core (GF/s generated / ukernel): NN
// 64^3 150/132, 256^3 172/162, 512^3 ~equal; TN 64^3 152/138, 256^3 165/155, 384^3 145/142,
// 512^3 124/158; TT 64^3 116/111, 256^3 158/157, 320^3 134/144, 512^3 127/150; NT (strips that
// transpose B) 64^3 112/125, 256^3 160/170, 640^3 104/163; cache tiles (no epilogue to take in,
// or B past the sweep limit) NN 640^3 138/161. NN tiles stop where B reaches 1 MiB: each 8-row
// strip sweeps all of B, and on a 1 MiB L2 (Zen 5) that sweep runs from L3 (op-bench, 1 thread,
// generated/ukernel: 448^3 217-221/212-214, 384x512x384 215-219/208-209, but 512^3 187-203/
// 198-199 and 512x640x512 193-207/200, varying from process to process; 2 MiB L2: 512^3 equal).
// Since session 42 (the ukernel's depth loop unrolled, A in place addressed by row groups) TT
// products of 128 rows and columns or more take the ukernel: in one process (lib-ab, Intel with
// AMX, 1 thread), ukernel over generated TT 128^3 1.05, 192^3 1.10, 256^3 1.10; but 64^3 0.93,
// 256x64x256 0.95, 100x256x256 1.00 (NN 64^3 0.87, 256^3 0.93; TN 128^3-192^3 0.94, 256^3 1.01).
// Since session 46 (16x16 panel transposes by 64 shuffles, aclop-lower-transposes) NT strips win
// where their (k, 32) panel fits L1, at most 256 deep (op-bench MatMul, Xeon, 1 thread, GF/s
// generated / ukernel: 64^3 164-169/147, 128x128x64 174-176/158, 128x64x128 171-177/161-167,
// 256^3 182-184/171-182, 512x512x64 167/156-164, 640x512x64 184-190/168-171, 2048x64x64
// 183-188/171-178), and lose deeper (384^3 164-167/169-176, 512^3 163-167/174-175,
// 512x128x512 172-177/178-186).
constexpr int64_t kMaxGeneratedBElements = 256 * 1024;
constexpr int64_t kMaxStripPanelDepth = 256;
bool f32RegisterTilesWin(linalg::LinalgOp op) {
  if (!fitsFusedRegisterTiles(op)) return false;
  bool transposedA = storesATransposed(op), transposedB = storesBTransposed(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned loops = ranges.size();
  if (transposedA && transposedB && ranges[loops - 3] >= 128 && ranges[loops - 2] >= 128) return false;
  if (transposedB && !transposedA) return ranges[loops - 2] <= kMaxStripPanelDepth;
  if (llvm::all_of(ranges, [](int64_t range) { return range <= 256; })) return transposedA || !transposedB;
  return !transposedA && !transposedB && ranges[loops - 2] * ranges[loops - 1] < kMaxGeneratedBElements;
}

// True if generated register tiles beat the ukernel that widens 16-bit operands to f32 (f16, or
// bf16 without vdpbf16ps): whole tiles of at most 64 rows, with B as small as f32's generated
// tiles take (each 8-row strip sweeps all of B). Measured on one core, f16, op-bench, GF/s
// generated / ukernel: 64^3 154/90, 32^3 102/92, 64x256x256 206/192, 64x64x512 200/175; but
// 80^3 132/162, 96^3 180/197, 128^3 181/196, 256^3 204/214, 512^3 186/193, 1024^3 175/202,
// 2048^3 137/207, M = 16 and 128 with N = K = 4096 89/105 and 106/134. (Until session 21 the
// generated tiles took every whole product: the ukernel then trailed them from 512^3 on.)
bool widenedRegisterTilesWin(linalg::LinalgOp op) {
  if (!isWholeRegisterTiles(op)) return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned loops = ranges.size();
  return ranges[loops - 3] <= 64 && ranges[loops - 2] * ranges[loops - 1] < kMaxGeneratedBElements;
}

// The ukernel (of those the target provides) that computes this product's cache tiles, or "".
// f32 products take the ukernel unless generated tiles win (f32RegisterTilesWin), f16 and bf16
// likewise (widenedRegisterTilesWin); where the target has the AVX2 tiles instead (named with an
// `_avx2` suffix), those take every f32, f16 and bf16 product. Where the target multiplies bf16
// pairs (vdpbf16ps), bf16 products take that ukernel whatever their shape: it does twice the
// products a cycle of the f32 FMA the generated tiles use (Zen 5, 1 thread: 1024^3 188 -> 393-407
// GF/s, 64^3 165 -> 302). Where the target has AMX's tiles, bf16 and s8 products take those
// ukernels (`_amx`, and `_rounded_amx` for low precision) instead, which hand products of a few
// rows to the vector ones (gemm_amx.cpp's fewestRows); so do exact f16 products (`_amx`: each
// input split into two bf16, four tile products, twice the f32 FMA's rate).
// An f16 or f32 product whose inputs are rounded to bf16 (a low-precision gemm) takes the f16 or
// f32 pair ukernel, which rounds as it packs; without it, generated code computes the rounding as
// written.
StringRef selectUkernel(linalg::LinalgOp op, ArrayRef<std::string> available) {
  Type a = elementType(op.getDpsInputs()[0]), b = elementType(op.getDpsInputs()[1]);
  Type c = elementType(op.getDpsInits()[0]);
  constexpr StringLiteral kBf16Pairs = "aclcpu_ukernel_gemm_bf16bf16f32_dpbf16";
  const bool floatProduct =
      a == b && c.isF32() && isMultiplyAccumulate<arith::AddFOp, arith::MulFOp, arith::ExtFOp>(op, false);
  const bool roundedProduct = a == b && (a.isF16() || a.isF32()) && c.isF32() &&
                              isMultiplyAccumulate<arith::AddFOp, arith::MulFOp, arith::ExtFOp>(op, false, true);
  // The AVX2 tiles (x86 without AVX-512) take every exact float product: generated code there
  // ran at half their speed even where its tiles win on AVX-512 (1 thread, f32 GF/s, generated /
  // ukernel, in one process beside OpenBLAS: 64^3 30/42, 256^3 18/41, TN 256^3 28/81, TT 20/78).
  const bool avx2Tiles = llvm::is_contained(available, "aclcpu_ukernel_gemm_f32f32f32_avx2");
  // AMX's f16 tiles take every exact f16 product, as the bf16 pairs take every bf16 one.
  const bool f16Tiles = a.isF16() && llvm::is_contained(available, "aclcpu_ukernel_gemm_f16f16f32_amx");
  StringRef symbol;
  // i8 tensors carry no signedness: a u8 product zero-extends, and is not what the ukernel does.
  if (a.isInteger(8) && b.isInteger(8) && c.isInteger(32) &&
      isMultiplyAccumulate<arith::AddIOp, arith::MulIOp, arith::ExtSIOp>(op, /*mustExtend=*/true))
    symbol = "aclcpu_ukernel_gemm_s8s8s32_vnni";
  else if (floatProduct && a.isBF16() && llvm::is_contained(available, kBf16Pairs))
    symbol = kBf16Pairs;
  else if (roundedProduct)
    symbol = a.isF16() ? "aclcpu_ukernel_gemm_f16f16f32_dpbf16" : "aclcpu_ukernel_gemm_f32f32f32_dpbf16";
  else if (floatProduct &&
           (avx2Tiles || f16Tiles || !(a.isF32() ? f32RegisterTilesWin(op) : widenedRegisterTilesWin(op))))
    symbol = a.isF32() ? "aclcpu_ukernel_gemm_f32f32f32"
             : a.isF16() ? "aclcpu_ukernel_gemm_f16f16f32"
             : a.isBF16() ? "aclcpu_ukernel_gemm_bf16bf16f32" : "";
  if (symbol.empty()) return StringRef();
  // The AVX2 tiles of the same product where the target has those instead (x86 without AVX-512,
  // or without VNNI for s8).
  // A low-precision product's AVX2 tiles round as they read (`_rounded_avx2`).
  StringRef base = symbol;
  const bool rounded = roundedProduct && base.consume_back("_dpbf16");
  base.consume_back("_vnni");
  const std::string avx2 = (base + (rounded ? "_rounded_avx2" : "_avx2")).str();
  // AMX's tiles of the same product where the target has those (`_amx`, bf16 pairs' and VNNI's
  // included; a low-precision product's `_rounded_amx`) take it in place of the vector ukernel.
  StringRef tiled = base;
  tiled.consume_back("_dpbf16");
  const std::string amx = (tiled + (rounded ? "_rounded_amx" : "_amx")).str();
  for (const std::string &provided : available)
    if (provided == amx) return provided;
  for (const std::string &provided : available)
    if (provided == symbol || provided == avx2) return provided;
  return StringRef();
}

// Cache tiles for a contraction: a (k x n) panel of b that stays in L2 while `rows` rows of a
// stream past it; the row tiles are what blocks divide.
SmallVector<int64_t> cacheTiles(linalg::LinalgOp op) {
  unsigned loops = op.getNumLoops();
  SmallVector<int64_t> tiles(loops, 0);
  if (loops == 4) tiles[0] = 1;  // one batch at a time
  tiles[loops - 3] = 64;         // rows
  tiles[loops - 2] = 128;        // depth
  tiles[loops - 1] = 512;        // columns
  return tiles;
}

// A ukernel call covers a tile of rows across every column and the whole depth, and blocks
// those itself (GotoBLAS's order: each panel of b is packed once for all the tile's rows); the
// row tiles are what blocks divide (every stage of a kernel divides rows, so that a block reads
// only rows it wrote). Each call packs all of b, so float tiles are as tall as the share-out
// allows: 512 rows from 2048 on (four tiles; 2048^3 f32 126 -> 131 GF/s against 256; s8 lost
// 3%, its packing being cheaper than its longer accumulator panel), 256 from 512, fewer so
// that there are two tiles. A batch of matrices shares out by matrix: one of up to 512 rows is
// one call (attention's 12 heads of 128x128x64 f32 in 64-row calls, each packing all of B:
// 0.78x oneDNN).
SmallVector<int64_t> ukernelTiles(linalg::LinalgOp op) {
  unsigned loops = op.getNumLoops();
  SmallVector<int64_t> tiles(loops, 0);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (loops == 4) tiles[0] = 1;
  int64_t rows = ranges[loops - 3];
  bool tall = elementType(op.getDpsInits()[0]).isF32() && rows >= 4 * 512;
  bool batched = loops == 4 && !ShapedType::isDynamic(ranges[0]) && ranges[0] >= 2;
  int64_t most = ShapedType::isDynamic(rows)  ? 128
                 : batched && rows <= 512 ? rows
                 : tall                   ? 512
                 : rows >= 2 * 256        ? 256
                 : rows >= 2 * 128        ? 128
                                          : 64;
  // Blocks divide one matrix's row tiles (when the product is not the kernel's only nest): tiles
  // that split it in two equal shares, whole register tiles of 12 rows where some do (14x14x256
  // NHWC 3x3, 196 rows: 49 a tile, where 64 gave one block 64 rows and the other 132).
  if (!batched && most < rows)
    most = evenlySharedRowTile(rows, most, 12).value_or(evenlySharedRowTile(rows, most, 1).value_or(most));
  tiles[loops - 3] = most;
  return tiles;
}

// A launch divides its work into blocks of ~16K element-wise elements (the runtime's
// launchBlockCount), and a product's output element is worth its depth in vector FMAs, each
// about as long as an element-wise element (an Add of f32 in L2, 0.08 ns; a 16-lane FMA at two
// a cycle, 0.15 ns). Integer products count a vector of dot products (vpdpbusd sums four i8
// pairs a lane). Recorded on the function for the launch recipe. Counting outputs alone, a
// 128^3 GEMM (16K outputs) was one block: two workers, f32 213 -> 362 GF/s with two, bf16 329 ->
// 495, s8 524 -> 617 GOP/s; M = 1, N = K = 4096 f32 17 -> 25; 255^3 297 -> 405. Smaller
// products lose to a split (f32 80^3 188 -> 140; s8 96^3, two blocks by lanes, 294 -> 268).
//
// A dynamic depth is read at launch: `aclop.work_depth` = [argument, dim, lanes] names the
// function argument (an input the product reads, as a tensor or through to_tensor) and its dim
// that hold the depth.
// Counting such a product by outputs alone made M = 1, N = K = 4096 one block on two workers.
void recordWorkPerElement(linalg::LinalgOp op, int64_t vectorSize) {
  const unsigned depthLoop = op.getNumLoops() - 2;
  int64_t depth = op.getStaticLoopRanges()[depthLoop];
  auto func = op->getParentOfType<FunctionOpInterface>();
  if (!func) return;
  Type input = elementType(op.getDpsInputs()[0]);
  int64_t perLane = input.isInteger() ? std::max<int64_t>(1, 32 / input.getIntOrFloatBitWidth()) : 1;
  if (ShapedType::isDynamic(depth)) {
    for (OpOperand *operand : op.getDpsInputOperands()) {
      Value source = operand->get();
      if (auto toTensor = source.getDefiningOp<bufferization::ToTensorOp>()) source = toTensor.getBuffer();
      auto argument = dyn_cast<BlockArgument>(source);
      if (!argument || argument.getOwner() != &func->getRegion(0).front()) continue;
      AffineMap map = op.getMatchingIndexingMap(operand);
      for (unsigned dim = 0; dim < map.getNumResults(); ++dim)
        if (map.getResult(dim) == getAffineDimExpr(depthLoop, op->getContext())) {
          func->setAttr("aclop.work_depth",
                        DenseI64ArrayAttr::get(op->getContext(), {argument.getArgNumber(), dim, vectorSize * perLane}));
          return;
        }
    }
    return;
  }
  int64_t work = std::max<int64_t>(1, llvm::divideCeil(depth, vectorSize * perLane));
  if (auto recorded = func->getAttrOfType<IntegerAttr>("aclop.work_per_element"))
    work = std::max(work, recorded.getInt());
  func->setAttr("aclop.work_per_element", Builder(op).getI64IntegerAttr(work));
}

struct AclopSelectStrategyPass : aclop::impl::AclopSelectStrategyBase<AclopSelectStrategyPass> {
  using AclopSelectStrategyBase::AclopSelectStrategyBase;
  void runOnOperation() override {
    getOperation()->walk([&](linalg::LinalgOp op) {
      Builder b(op);
      int64_t vectorSize = std::max<int64_t>(1, vectorBits / widestElementBits(op));
      SmallVector<NamedAttribute> strategy{b.getNamedAttr("vector_size", b.getI64IntegerAttr(vectorSize))};
      if (isContiguousElementwise(op)) {
        SmallVector<int64_t> tiles(op.getNumLoops(), 1);
        // A static innermost dim shorter than a vector takes one unmasked vector of its length,
        // not a masked full one (each load and store a vmaskmovps, microcoded on AMD).
        SmallVector<int64_t> ranges = op.getStaticLoopRanges();
        int64_t innermost = ranges.back();
        tiles.back() = shortGather(op, vectorSize)       ? 1
                       : ShapedType::isDynamic(innermost) ? vectorSize
                                                          : std::clamp<int64_t>(innermost, 1, vectorSize);
        std::optional<unsigned> dim = transposedReadDim(op);
        int64_t across = dim ? ranges[*dim] : ShapedType::kDynamic;
        if (!ShapedType::isDynamic(across) && tiles.back() == vectorSize && across % vectorSize == 0) {
          tiles[*dim] = vectorSize;
          const int64_t block = transposeBlock(vectorSize, vectorBits);
          if (!ShapedType::isDynamic(innermost) && innermost % block == 0 && across % block == 0) {
            SmallVector<int64_t> blocks(tiles.size(), 1);
            blocks[*dim] = blocks.back() = block;
            strategy.push_back(b.getNamedAttr("block_sizes", b.getDenseI64ArrayAttr(blocks)));
          }
        }
        strategy.push_back(b.getNamedAttr("tile_sizes", b.getDenseI64ArrayAttr(tiles)));
      } else if (std::optional<unsigned> dim = transposedWriteDim(op);
                 dim && transposedTilesDivide(op, *dim, vectorSize)) {
        SmallVector<int64_t> tiles(op.getNumLoops(), 1);
        tiles[*dim] = tiles.back() = vectorSize;
        strategy.push_back(b.getNamedAttr("tile_sizes", b.getDenseI64ArrayAttr(tiles)));
      } else if (int64_t length = shortRowLength(op, vectorSize)) {
        strategy.push_back(b.getNamedAttr("row_length", b.getI64IntegerAttr(length)));
      } else if (std::optional<SmallVector<int64_t>> tiles = streamedRowTiles(op, vectorSize)) {
        strategy.push_back(b.getNamedAttr("streamed_rows", b.getDenseI64ArrayAttr(*tiles)));
      } else if (int64_t partials = rowPartials(op, vectorSize)) {
        strategy.push_back(b.getNamedAttr("row_partials", b.getI64IntegerAttr(partials)));
      } else if (isContraction(op)) {
        StringRef ukernel = selectUkernel(op, ukernels);
        SmallVector<int64_t> tiles = ukernel.empty() ? cacheTiles(op) : ukernelTiles(op);
        strategy.push_back(b.getNamedAttr("cache_tiles", b.getDenseI64ArrayAttr(tiles)));
        if (!ukernel.empty()) strategy.push_back(b.getNamedAttr("ukernel", b.getStringAttr(ukernel)));
        recordWorkPerElement(op, vectorSize);
      }
      op->setAttr("aclop.strategy", b.getDictionaryAttr(strategy));
    });
  }
};

} // namespace
