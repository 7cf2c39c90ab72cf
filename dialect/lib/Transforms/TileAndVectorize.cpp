//===- TileAndVectorize.cpp - apply aclop.strategy tile sizes -------------===//
#include "aclop/Passes.h"

#include "GemmEpilogue.h"
#include "RegisterTiles.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPTILEANDVECTORIZE
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;
using aclop::kRegisterColumns;
using aclop::kRegisterRows;
using aclop::scaledEpilogue;
using aclop::storesBTransposed;

namespace {

// Tiles `op` by `sizes` into loops of `loopType` and replaces it by them.
FailureOr<scf::SCFTilingResult> tileInLoops(IRRewriter &rewriter, linalg::LinalgOp op, ArrayRef<int64_t> sizes,
                                            scf::SCFTilingOptions::LoopType loopType) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  options.setLoopType(loopType);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (succeeded(tiled)) rewriter.replaceOp(op, tiled->replacements);
  return tiled;
}

// Tiles `op` by `sizes` into loops of `loopType` and vectorizes each tile with those sizes:
// partial tiles at the edges are masked; ops the vectorizer cannot take stay scalar, and an op
// that does not tile is left whole (LLVM may still vectorize its loops).
void tileAndVectorize(IRRewriter &rewriter, linalg::LinalgOp op, ArrayRef<int64_t> sizes,
                      scf::SCFTilingOptions::LoopType loopType) {
  // A static innermost dim that the vector does not divide: every tile's size is a min() the
  // vectorizer cannot see through, so every load and store would be masked. The last, partial
  // tile becomes an op of its own, and the rest take unmasked vectors. Only where another dim
  // still gives the remainder a loop that blocks can divide (a 1-D op's remainder is one tile,
  // and a nest without a loop makes the kernel single-block).
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t vector = sizes.back(), innermost = ranges.back();
  ArrayRef<int64_t> outer = ArrayRef<int64_t>(ranges).drop_back();
  if (vector > 1 && !ShapedType::isDynamic(innermost) && innermost > vector && innermost % vector != 0 &&
      llvm::any_of(outer, [](int64_t range) { return range != 1; })) {
    rewriter.setInsertionPoint(op);
    OpOperand *init = op.getDpsInitOperand(0);
    bool writesEmpty = op.getNumDpsInits() == 1 && init->get().getDefiningOp<tensor::EmptyOp>() &&
                       !op.payloadUsesValueFromOperand(init);
    auto [full, rest] = linalg::splitOp(rewriter, cast<TilingInterface>(op.getOperation()), outer.size(),
                                        rewriter.getIndexAttr(innermost - innermost % vector));
    for (TilingInterface part : {full, rest}) {
      auto linalgPart = cast<linalg::LinalgOp>(part.getOperation());
      // Each part of an op written into a tensor.empty is written into an empty of its own, not
      // a slice of the empty (or of the first part's insertion), which eliminate-empty-tensors
      // cannot place in the destination: the op would be computed in a buffer and copied.
      if (auto slice = linalgPart.getDpsInitOperand(0)->get().getDefiningOp<tensor::ExtractSliceOp>();
          slice && writesEmpty) {
        rewriter.setInsertionPoint(slice);
        Value own = tensor::EmptyOp::create(rewriter, slice.getLoc(), slice.getMixedSizes(),
                                            slice.getType().getElementType());
        rewriter.modifyOpInPlace(linalgPart, [&] { linalgPart.getDpsInitOperand(0)->set(own); });
      }
      // The remainder takes one vector of its length, unmasked too.
      SmallVector<int64_t> partSizes(sizes);
      if (part == rest) partSizes.back() = innermost % vector;
      tileAndVectorize(rewriter, linalgPart, partSizes, loopType);
    }
    return;
  }
  // One element a tile that reads by index: scalar loads, where the vectorizer would make a
  // one-lane gather of each read.
  bool scalar = llvm::all_of(sizes, [](int64_t size) { return size == 1; }) &&
                op->walk([](tensor::ExtractOp) { return WalkResult::interrupt(); }).wasInterrupted();
  FailureOr<scf::SCFTilingResult> tiled = tileInLoops(rewriter, op, sizes, loopType);
  if (failed(tiled) || scalar) return;
  for (Operation *tile : tiled->tiledOps) {
    SmallVector<bool> scalable(sizes.size(), false);
    // Reads by index (tensor.extract: slices, tiles, concatenation) become loads or gathers.
    if (failed(linalg::vectorizeOpPrecondition(tile, sizes, scalable, /*vectorizeNDExtract=*/true))) continue;
    rewriter.setInsertionPoint(tile);
    FailureOr<linalg::VectorizationResult> vectorized =
        linalg::vectorize(rewriter, tile, sizes, scalable, /*vectorizeNDExtract=*/true);
    if (succeeded(vectorized)) rewriter.replaceOp(tile, vectorized->replacements);
  }
}

// Fused GEMM tiles may be taller (fuseIntoRegisterTiles): 24 accumulators.
constexpr int64_t kTallRegisterRows = 12;

// The rows of a panel that register tiles over B stored (n, k) take in turn, where blocks divide
// rows (fuseRegisterTiles).
constexpr int64_t kRowPanelRows = 64;

// Products that take register tiles: f32 accumulation from f32, f16 or bf16 operands (the
// narrow ones read from panels widened once per cache tile, packPanel), and i32 accumulation
// from i8 operands (sign-extended as they are loaded).
bool hasRegisterTiles(linalg::LinalgOp op) {
  auto element = [](Value value) { return cast<ShapedType>(value.getType()).getElementType(); };
  Type accumulator = element(op.getDpsInitOperand(0)->get());
  return llvm::all_of(op.getDpsInputs(), [&](Value input) {
    Type type = element(input);
    if (accumulator.isF32()) return type.isF32() || type.isF16() || type.isBF16();
    return accumulator.isInteger(32) && type.isInteger(8);
  });
}

// Splits `op` along iteration dim `dim` at the largest multiple of `multiple` and returns the
// first part; the rest stays a whole generic, whose loops LLVM vectorizes as before (register
// tiles over a ragged edge would be loops of a few scalar steps).
linalg::LinalgOp splitAtMultiple(IRRewriter &rewriter, linalg::LinalgOp op, unsigned dim, int64_t multiple) {
  auto tiling = cast<TilingInterface>(op.getOperation());
  rewriter.setInsertionPoint(op);
  SmallVector<Range> domain = tiling.getIterationDomain(rewriter);
  AffineExpr size = rewriter.getAffineSymbolExpr(0);
  OpFoldResult point = affine::makeComposedFoldedAffineApply(rewriter, op.getLoc(), size.floorDiv(multiple) * multiple,
                                                              {domain[dim].size});
  auto [whole, rest] = linalg::splitOp(rewriter, tiling, dim, point);
  return whole ? cast<linalg::LinalgOp>(whole.getOperation()) : op;
}

// Patterns that turn slices of constant sizes (a peeled loop's, once its bounds are
// simplified) into static types, and fold the casts between them into the ops that read them.
void populateStaticSlicePatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, context);
  tensor::InsertSliceOp::getCanonicalizationPatterns(patterns, context);
  tensor::CastOp::getCanonicalizationPatterns(patterns, context);
  linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
  context->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(patterns);  // casts into ops
}

// Within `root`, peeled loops' slice sizes that are constants become static types: whole tiles,
// and a static remainder (its loop of one iteration folded away).
void simplifyPeeledTiles(Operation *root) {
  MLIRContext *context = root->getContext();
  RewritePatternSet patterns(context);
  scf::ForOp::getCanonicalizationPatterns(patterns, context);
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
  populateStaticSlicePatterns(patterns);
  (void)applyPatternsGreedily(root, std::move(patterns));
}

// Tiles a cache tile of a product into register tiles (loops rows, columns, then k), peels
// the row and column loops so that the main loops see only full tiles, and vectorizes those.
// Rows and columns beyond the last whole register tile are split off first. Canonicalization
// and vectorization stay within `cacheLoop`, the product's loop over cache tiles: ops outside it
// belong to other nests, which the pass has listed to tile in their own way.
void tileForRegisters(IRRewriter &rewriter, Operation *cacheLoop, linalg::LinalgOp cacheTile) {
  MLIRContext *context = rewriter.getContext();
  unsigned loops = cacheTile.getNumLoops();
  cacheTile = splitAtMultiple(rewriter, cacheTile, loops - 3, kRegisterRows);
  cacheTile = splitAtMultiple(rewriter, cacheTile, loops - 1, kRegisterColumns);
  SmallVector<int64_t> sizes(loops, 0);
  if (loops == 4) sizes[0] = 1;
  sizes[loops - 3] = kRegisterRows;
  sizes[loops - 2] = 1;
  sizes[loops - 1] = kRegisterColumns;
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(context, sizes));
  SmallVector<int64_t> order = llvm::to_vector(llvm::seq<int64_t>(0, loops));
  std::swap(order[loops - 2], order[loops - 1]);  // k innermost: the accumulators stay put
  options.setInterchange(order);
  rewriter.setInsertionPoint(cacheTile);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(cacheTile.getOperation()), options);
  if (failed(tiled)) return;
  rewriter.replaceOp(cacheTile, tiled->replacements);
  // tiled->loops: (batch,) rows, columns, k. Peel columns, then rows (outer first would clone
  // the inner loop before it is peeled).
  size_t first = loops == 4 ? 1 : 0;
  for (size_t i : {first + 1, first}) {
    auto loop = dyn_cast<scf::ForOp>(tiled->loops[i].getOperation());
    scf::ForOp remainder;
    if (loop) (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, remainder);
  }
  // Constant slice sizes become static types; full tiles then vectorize.
  RewritePatternSet patterns(context);
  populateStaticSlicePatterns(patterns);
  (void)applyPatternsGreedily(cacheLoop, std::move(patterns));
  SmallVector<linalg::GenericOp> fullTiles;
  cacheLoop->walk([&](linalg::GenericOp generic) {
    auto strategy = generic->getAttrOfType<DictionaryAttr>("aclop.strategy");
    if (!strategy || !strategy.get("cache_tiles") || !generic.hasPureTensorSemantics()) return;
    SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
    if (ranges[loops - 3] == kRegisterRows && ranges[loops - 2] == 1 && ranges[loops - 1] == kRegisterColumns)
      fullTiles.push_back(generic);
  });
  for (linalg::GenericOp tile : fullTiles) {
    rewriter.setInsertionPoint(tile);
    FailureOr<linalg::VectorizationResult> vectorized =
        linalg::vectorize(rewriter, tile, {}, {}, false, false, false, /*createNamedContraction=*/true);
    if (succeeded(vectorized)) rewriter.replaceOp(tile, vectorized->replacements);
  }
}

// Replaces input `index` of a cache tile by a packed copy of its slice, made once per cache
// tile and read by every register tile: widened to f32 if it is f16 or bf16 (so that register
// tiles load and broadcast plain f32 instead of converting each element in the k loop, which
// halved their speed), and with its last two dims swapped if `transpose`. B stored transposed
// ((n, k): k contiguous) gets swapped: a register tile's 32 columns at one k would otherwise be
// K elements apart. The copy of B is reused by every row of the row tile, the copy of A by every
// column of the column tile, so it costs little of the product.
void packPanel(IRRewriter &rewriter, linalg::GenericOp cacheTile, unsigned index, bool transpose) {
  MLIRContext *context = rewriter.getContext();
  unsigned loops = cacheTile.getNumLoops();
  OpOperand *operand = cacheTile.getDpsInputOperand(index);
  AffineMap map = cacheTile.getMatchingIndexingMap(operand);
  unsigned rank = map.getNumResults();
  Value source = operand->get();
  auto type = cast<RankedTensorType>(source.getType());
  // Widened only where the body does nothing with the element but widen it to f32.
  BlockArgument argument = cacheTile.getMatchingBlockArgument(operand);
  bool widen = (type.getElementType().isF16() || type.getElementType().isBF16()) &&
               llvm::all_of(argument.getUsers(), [](Operation *user) {
                 auto extension = dyn_cast<arith::ExtFOp>(user);
                 return extension && extension.getType().isF32();
               });
  if (!widen && !transpose) return;  // nothing to gain from a copy
  Type element = widen ? rewriter.getF32Type() : type.getElementType();
  Location loc = cacheTile.getLoc();
  rewriter.setInsertionPoint(cacheTile);
  SmallVector<int64_t> permutation = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  if (transpose) std::swap(permutation[rank - 2], permutation[rank - 1]);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, source);
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamicSizes;
  for (int64_t d : permutation) {
    shape.push_back(type.getDimSize(d));
    if (type.isDynamicDim(d)) dynamicSizes.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]));
  }
  Value buffer = bufferization::AllocTensorOp::create(rewriter, loc, RankedTensorType::get(shape, element), dynamicSizes);
  // The copy iterates over the packed shape and reads the source through the permutation (a
  // swap: its own inverse).
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
  SmallVector<unsigned> order(permutation.begin(), permutation.end());
  AffineMap sourceMap = AffineMap::getPermutationMap(order, context);
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  auto copy = linalg::GenericOp::create(
      rewriter, loc, TypeRange{buffer.getType()}, ValueRange{source}, ValueRange{buffer},
      ArrayRef<AffineMap>{sourceMap, identity}, iterators, [&](OpBuilder &b, Location nested, ValueRange args) {
        Value value = args[0];
        if (value.getType() != element) value = arith::ExtFOp::create(b, nested, element, value);
        linalg::YieldOp::create(b, nested, value);
      });
  SmallVector<AffineExpr> results(map.getResults());
  if (transpose) std::swap(results[rank - 2], results[rank - 1]);
  SmallVector<AffineMap> maps = cacheTile.getIndexingMapsArray();
  maps[operand->getOperandNumber()] = AffineMap::get(loops, 0, results, context);
  rewriter.modifyOpInPlace(cacheTile, [&] {
    operand->set(copy->getResult(0));
    cacheTile.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  if (widen) {  // the body now receives f32: its extensions go
    argument.setType(element);
    for (Operation *extension : llvm::make_early_inc_range(argument.getUsers()))
      rewriter.replaceOp(extension, argument);
  }
  // 16x16 tiles when transposing (each a masked vector transpose), else rows of 16 elements.
  SmallVector<int64_t> tileSizes(rank, 1);
  tileSizes[rank - 1] = 16;
  if (transpose) tileSizes[rank - 2] = 16;
  tileAndVectorize(rewriter, copy, tileSizes, scf::SCFTilingOptions::LoopType::ForOp);
}

// Packs the panels a cache tile's register tiles want: B transposed if it is stored (n, k),
// f16 and bf16 operands widened.
void packPanels(IRRewriter &rewriter, linalg::GenericOp cacheTile) {
  packPanel(rewriter, cacheTile, 0, /*transpose=*/false);
  packPanel(rewriter, cacheTile, 1, storesBTransposed(cacheTile));
}

Value kernelBlockCount(linalg::LinalgOp product, linalg::GenericOp epilogue);

// How a ukernel product's forall is tiled: over its GEMM epilogue's (rows, columns) if it has
// one, else over the product's own (rows, depth, columns). In a kernel function that computes
// only these (kernelBlockCount), one tile per block: each call packs all of its b, so the fewer
// the tiles the better (1024^3 f32 in one call 143 GF/s, in four 135; M = 128, N = K = 4096: 109
// against 97 in two), and the launch recipe runs one block per worker for such a kernel
// (aclop.blocks_per_worker). Blocks divide the columns where there are at least as many of them
// as rows, else the rows. Split by rows, each call reads and packs all of B: M =
// 16, N = K = 4096 on two workers ran no faster than on one, and square products lost to the
// column split, where each call packs its columns of B and reads A in place (two workers, f32
// 1024^3 372 -> 379 GF/s, 2048^3 384 -> 403, bf16 1024^3 +2-3%; transposed A, packed either
// way, even). A dynamic dim counts as 256 rows or columns in that comparison: a MatMul compiled
// for every shape (M = 1 kept static, or dynamic too) split by rows gave its second block no
// row or packed all of B twice (two workers: M = 1, N = K = 4096 16 GF/s, M = 16 65-74, against
// the static kernels' 35 and 98-119). Elsewhere, tiles of the strategy's rows.
void setUkernelTiling(IRRewriter &rewriter, linalg::LinalgOp product, linalg::GenericOp epilogue,
                      ArrayRef<int64_t> tiles, scf::SCFTilingOptions &options) {
  const size_t dims = epilogue ? 2 : 3;
  if (Value blocks = kernelBlockCount(product, epilogue)) {
    SmallVector<int64_t> ranges = product.getStaticLoopRanges();
    int64_t rows = ranges[ranges.size() - 3], columns = ranges.back();
    auto known = [](int64_t size) { return ShapedType::isDynamic(size) ? int64_t{256} : size; };
    bool byColumns = known(columns) >= known(rows);
    SmallVector<OpFoldResult> counts(dims, rewriter.getIndexAttr(0));
    counts[byColumns ? dims - 1 : 0] = blocks;
    options.setNumThreads(counts);
    product->getParentOfType<func::FuncOp>()->setAttr("aclop.blocks_per_worker", rewriter.getI64IntegerAttr(1));
  } else {
    SmallVector<int64_t> sizes(dims, 0);
    sizes[0] = tiles[0];  // rows
    options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  }
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
}

// Tiles `op`, whose accumulator a fill zeroes, by `options` with the fill fused into each tile;
// replaces `op` and erases the fill if nothing else reads it.
FailureOr<scf::SCFTileAndFuseResult> tileWithFill(IRRewriter &rewriter, linalg::LinalgOp op,
                                                  scf::SCFTileAndFuseOptions &options) {
  options.setFusionControlFn([](tensor::ExtractSliceOp, OpResult producer, bool)
                                 -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
    if (isa<linalg::FillOp>(producer.getOwner())) return scf::SCFTileAndFuseOptions::ControlFnResult{};
    return std::nullopt;
  });
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> fused =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(fused)) return failure();
  Operation *fill = op.getDpsInitOperand(0)->get().getDefiningOp();
  SmallVector<Value> replacements;
  for (OpResult result : op->getResults()) replacements.push_back(fused->replacements.lookup(result));
  rewriter.replaceOp(op, replacements);
  if (fill && fill->use_empty()) rewriter.eraseOp(fill);
  return fused;
}

// A ukernel product without GEMM's epilogue (MatMul, BatchMatMul) whose accumulator is
// zero-filled: the fill is fused into each tile (aclop-call-ukernels then folds it into the
// call, which writes C without reading it). A matrix is tiled as GEMM's epilogue is
// (setUkernelTiling: 1024^3 f32 in four calls ran 7% slower than in one), a batch by the
// strategy's tiles (one matrix, rows). Unfused, the fill wrote the whole output and every call
// read it back: attention's 12 heads of 128x128x64 ran at 0.74x oneDNN.
LogicalResult fuseFillIntoUkernelTiles(IRRewriter &rewriter, linalg::LinalgOp product, ArrayRef<int64_t> tiles) {
  if (!product.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>()) return failure();
  scf::SCFTileAndFuseOptions options;
  if (product.getNumLoops() == 3) {
    setUkernelTiling(rewriter, product, {}, tiles, options.tilingOptions);
  } else {
    options.tilingOptions.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), tiles));
    options.tilingOptions.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  }
  return success(succeeded(tileWithFill(rewriter, product, options)));
}

// A multi_reduction of one row (its source's elements all along one dim, its accumulator one
// element) replaced by `reduce` of the row as a 1-D vector and the accumulator as a scalar.
void reduceOneRow(IRRewriter &rewriter, vector::MultiDimReductionOp reduction,
                  function_ref<Value(OpBuilder &, Location, Value lanes, Value acc)> reduce) {
  rewriter.setInsertionPoint(reduction);
  Location loc = reduction.getLoc();
  auto source = cast<VectorType>(reduction.getSourceVectorType());
  auto row = VectorType::get(source.getNumElements(), source.getElementType());
  Value lanes = vector::ShapeCastOp::create(rewriter, loc, row, reduction.getSource());
  Value acc = reduction.getAcc();
  auto accVector = dyn_cast<VectorType>(acc.getType());
  if (accVector) acc = vector::ExtractOp::create(rewriter, loc, acc, SmallVector<int64_t>(accVector.getRank(), 0));
  Value result = reduce(rewriter, loc, lanes, acc);
  if (accVector) result = vector::BroadcastOp::create(rewriter, loc, accVector, result);
  rewriter.replaceOp(reduction, result);
}

// A reduction along short rows (SelectStrategy's `row_length`): the reduced dims become one, a
// view of the input's rows; the kept dims are tiled by one (an scf.forall, the accumulator's fill
// fused into each tile); and each tile is vectorized whole, its row read as one unmasked vector
// (the length is static) and reduced across lanes (vector.reduction, with the combiner's fastmath
// flags: the vectorizer's multi_reduction carries none, and without `reassoc` LLVM adds the lanes
// one after another).
void reduceShortRows(IRRewriter &rewriter, linalg::LinalgOp op) {
  unsigned loops = op.getNumLoops(), kept = loops - op.getNumReductionLoops();
  SmallVector<Operation *> combiners;
  if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) || combiners.size() != 1) return;
  auto fastmath = dyn_cast<arith::ArithFastMathInterface>(combiners.front());
  arith::FastMathFlags flags = fastmath ? fastmath.getFastMathFlagsAttr().getValue() : arith::FastMathFlags::none;
  if (loops - kept > 1) {
    SmallVector<ReassociationIndices> dims;
    for (int64_t i = 0; i < kept; ++i) dims.push_back({i});
    dims.push_back(llvm::to_vector(llvm::seq<int64_t>(kept, loops)));
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::CollapseResult> collapsed = linalg::collapseOpIterationDims(op, dims, rewriter);
    if (failed(collapsed)) return;
    rewriter.replaceOp(op, collapsed->results);
    op = collapsed->collapsedOp;
  }
  SmallVector<int64_t> sizes(kept, 1);
  sizes.push_back(0);
  scf::SCFTileAndFuseOptions options;
  options.tilingOptions.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  options.tilingOptions.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  FailureOr<scf::SCFTileAndFuseResult> tiled = tileWithFill(rewriter, op, options);
  if (failed(tiled)) return;
  for (Operation *tile : tiled->tiledAndFusedOps) {
    rewriter.setInsertionPoint(tile);
    FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(rewriter, tile);
    if (succeeded(vectorized)) rewriter.replaceOp(tile, vectorized->replacements);
  }
  // The row's reduction (kept dims of one element): the row as a 1-D vector, the accumulator as
  // a scalar.
  tiled->loops.front()->walk([&](vector::MultiDimReductionOp reduction) {
    auto source = cast<VectorType>(reduction.getSourceVectorType());
    if (reduction.getReductionDims() != ArrayRef<int64_t>{source.getRank() - 1} ||
        source.getNumElements() != source.getShape().back())
      return;
    reduceOneRow(rewriter, reduction, [&](OpBuilder &b, Location loc, Value lanes, Value acc) -> Value {
      return vector::ReductionOp::create(b, loc, reduction.getKind(), lanes, acc, flags);
    });
  });
}

// A tile whose every dim but the row's is one element, vectorized along the row: the unit dims
// dropped leave an element-wise op, which vectorizes whatever the body computes (an ArgMax's
// select of the row's index too) into plain vector operations, not reductions over unit dims.
// A row of dynamic length (or with `maskStatic`, any other than `length`) is masked to it within
// a vector of `length`; a static one takes a vector of its own length.
void vectorizeAlongRow(IRRewriter &rewriter, linalg::GenericOp tile, int64_t length, bool maskStatic) {
  linalg::ControlDropUnitDims control;
  control.rankReductionStrategy = linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
  control.controlFn = [](Operation *op) {
    return llvm::to_vector(llvm::seq<unsigned>(0, cast<linalg::GenericOp>(op).getNumLoops() - 1));
  };
  rewriter.setInsertionPoint(tile);
  FailureOr<linalg::DropUnitDimsResult> dropped = linalg::dropUnitDims(rewriter, tile, control);
  if (failed(dropped)) return;
  rewriter.replaceOp(tile, dropped->replacements);
  auto row = cast<linalg::GenericOp>(dropped->resultOp.getOperation());
  const int64_t rowLength = row.getStaticLoopRanges().back();
  SmallVector<int64_t> vectorSizes;
  if (ShapedType::isDynamic(rowLength) || (maskStatic && rowLength != length))
    vectorSizes.assign(row.getNumLoops(), length);
  SmallVector<bool> scalable(vectorSizes.size(), false);
  if (failed(linalg::vectorizeOpPrecondition(row, vectorSizes, scalable))) return;
  rewriter.setInsertionPoint(row);
  FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(rewriter, row, vectorSizes, scalable);
  if (succeeded(vectorized)) rewriter.replaceOp(row, vectorized->replacements);
}

// `vector` (1-D) combined across its lanes by halves, then with `acc`: log2(lanes) vector steps,
// where LLVM combines a maximum's lanes without nnan one after another.
Value combineByHalves(OpBuilder &b, Location loc, vector::CombiningKind kind, Value vector, Value acc,
                      arith::FastMathFlagsAttr flags) {
  for (int64_t lanes = cast<VectorType>(vector.getType()).getNumElements(); lanes > 1; lanes /= 2) {
    Value low = vector::ExtractStridedSliceOp::create(b, loc, vector, {0}, {lanes / 2}, {1});
    Value high = vector::ExtractStridedSliceOp::create(b, loc, vector, {lanes / 2}, {lanes / 2}, {1});
    vector = vector::makeArithReduction(b, loc, kind, low, high, flags);
  }
  Value lane = vector::ExtractOp::create(b, loc, vector, ArrayRef<int64_t>{0});
  return vector::makeArithReduction(b, loc, kind, lane, acc, flags);
}

// A NaN-skipping maximum or minimum (maxnumf, minnumf) over partial results that start at -inf or
// +inf, its identity among numbers, rather than at NaN (the tiling's identity): a partial result
// is then never NaN, so each step is a compare and a select (one vmaxps on x86) with no NaN check
// on its chain. Started at NaN, an f16 row's chain was narrowed by LLVM to f16, whose vector
// maximum x86 scalarizes into fmaxf calls (a softmax of f16 ran 7 times slower).
void startAtInfinity(IRRewriter &rewriter, linalg::FillOp fill, bool maximum) {
  auto value = fill.getInputs().front().getDefiningOp<arith::ConstantOp>();
  auto nan = value ? dyn_cast<FloatAttr>(value.getValue()) : FloatAttr();
  if (!nan || !nan.getValue().isNaN()) return;
  rewriter.setInsertionPoint(fill);
  Value infinity = arith::ConstantOp::create(
      rewriter, fill.getLoc(),
      rewriter.getFloatAttr(nan.getType(), APFloat::getInf(nan.getValue().getSemantics(), maximum)));
  rewriter.modifyOpInPlace(fill, [&] { fill.getInputsMutable()[0].set(infinity); });
}
void selectNumbers(IRRewriter &rewriter, linalg::GenericOp tile) {
  Operation *combiner = tile.getBody()->getTerminator()->getOperand(0).getDefiningOp();
  if (!isa_and_present<arith::MaxNumFOp, arith::MinNumFOp>(combiner)) return;
  BlockArgument acc = tile.getRegionOutputArgs().front();
  Value x = combiner->getOperand(0) == acc ? combiner->getOperand(1) : combiner->getOperand(0);
  rewriter.setInsertionPoint(combiner);
  auto predicate = isa<arith::MaxNumFOp>(combiner) ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT;
  Value takes = arith::CmpFOp::create(rewriter, combiner->getLoc(), predicate, x, acc);
  rewriter.replaceOpWithNewOp<arith::SelectOp>(combiner, takes, x, acc);
}

// A reduction of one row (SelectStrategy's `row_partials`): tiled into `partials` lanes of
// partial results (an scf.for over the row, each step combining a tile of the row into them
// element-wise), peeled so that whole tiles take plain loads and the rest of the row one masked
// tile; the partial results are carried in registers through the loop and combined by halves
// after it (combineByHalves).
void reduceRowInPartials(IRRewriter &rewriter, linalg::LinalgOp op, int64_t partials) {
  MLIRContext *context = rewriter.getContext();
  const unsigned loops = op.getNumLoops();
  SmallVector<Operation *> combiners;
  if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) || combiners.size() != 1) return;
  auto fastmath = dyn_cast<arith::ArithFastMathInterface>(combiners.front());
  arith::FastMathFlagsAttr flags = fastmath ? fastmath.getFastMathFlagsAttr() : arith::FastMathFlagsAttr();
  // (The combiner goes with `op` once tiled.)
  const bool numbers = isa<arith::MaxNumFOp, arith::MinNumFOp>(combiners.front());
  const bool maximum = isa<arith::MaxNumFOp>(combiners.front());
  SmallVector<int64_t> sizes(loops, 0);
  sizes.back() = partials;
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(context, sizes));
  options.setReductionTilingStrategy(ReductionTilingStrategy::PartialReductionOuterReduction);
  options.setReductionDims({loops - 1});
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled) || tiled->loops.empty()) return;
  rewriter.replaceOp(op, tiled->replacements);
  auto loop = cast<scf::ForOp>(tiled->loops.front().getOperation());
  // MLIR 22's partial-reduction tiling leaves a tile's positions (linalg.index) counted from the
  // tile's start: each is offset by the loop's position along the row here.
  SmallVector<OpFoldResult> offsets(loops - 1, rewriter.getIndexAttr(0));
  offsets.push_back(loop.getInductionVar());
  for (Operation *tile : tiled->tiledOps)
    if (auto linalgTile = dyn_cast<linalg::LinalgOp>(tile)) linalg::offsetIndices(rewriter, linalgTile, offsets);
  // Marked, the loop, the tiles, the partial results' fill and their merge are found again after
  // canonicalization, which folds away a loop of one iteration (and the remainder's) and
  // replaces ops whose operands' types it makes static.
  constexpr StringLiteral kMark = "aclop.row_partials", kEndMark = "aclop.row_partials_end";
  loop->setAttr(kMark, UnitAttr::get(context));
  for (Operation *tile : tiled->tiledOps) tile->setAttr(kMark, UnitAttr::get(context));
  for (Operation *merge : tiled->mergeOps) merge->setAttr(kEndMark, UnitAttr::get(context));
  for (Value initial : tiled->initialValues)
    if (Operation *fill = initial.getDefiningOp<linalg::FillOp>()) fill->setAttr(kEndMark, UnitAttr::get(context));
  scf::ForOp remainder;
  (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, remainder);
  if (remainder) remainder->removeAttr(kMark);
  Operation *parent = loop->getParentOp();
  simplifyPeeledTiles(parent);
  SmallVector<linalg::GenericOp> tiles;
  SmallVector<linalg::LinalgOp> ends;
  parent->walk([&](linalg::LinalgOp marked) {
    if (marked->removeAttr(kEndMark)) ends.push_back(marked);
    auto tile = dyn_cast<linalg::GenericOp>(marked.getOperation());
    if (tile && tile->removeAttr(kMark)) tiles.push_back(tile);
  });
  if (numbers) {
    for (linalg::LinalgOp end : ends)
      if (auto fill = dyn_cast<linalg::FillOp>(end.getOperation())) startAtInfinity(rewriter, fill, maximum);
    for (linalg::GenericOp tile : tiles) selectNumbers(rewriter, tile);
  }
  // The tiles, in the loop and its remainder: each, its unit dims dropped, an element-wise op
  // along the row; the remainder's masked within the partial results' vector (one of its own
  // length, odd, LLVM splits into pieces).
  for (linalg::GenericOp tile : tiles) vectorizeAlongRow(rewriter, tile, partials, /*maskStatic=*/true);
  // The partial results' fill, and their merge: a reduction across lanes, by halves.
  for (linalg::LinalgOp end : ends) {
    rewriter.setInsertionPoint(end);
    FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(rewriter, end);
    if (failed(vectorized)) continue;
    rewriter.replaceOp(end, vectorized->replacements);
    auto write = vectorized->replacements.front().getDefiningOp<vector::TransferWriteOp>();
    auto merge = write ? write.getVector().getDefiningOp<vector::MultiDimReductionOp>() : nullptr;
    if (!merge) continue;
    reduceOneRow(rewriter, merge, [&](OpBuilder &b, Location loc, Value lanes, Value acc) {
      return combineByHalves(b, loc, merge.getKind(), lanes, acc, flags);
    });
  }
  // The partial results' reads and writes leave the loop, which then carries them as a vector.
  RewritePatternSet slices(context);
  populateStaticSlicePatterns(slices);
  tensor::populateMergeConsecutiveInsertExtractSlicePatterns(slices);
  (void)applyPatternsGreedily(parent, std::move(slices));
  SmallVector<scf::ForOp> rowLoops;
  parent->walk([&](scf::ForOp marked) {
    if (marked->removeAttr(kMark)) rowLoops.push_back(marked);
  });
  for (scf::ForOp marked : rowLoops) (void)hoistLoopInvariantSubsets(rewriter, marked);
}

// A reduction whose innermost dim is kept (SelectStrategy's `streamed_rows`): an scf.forall over
// the kept dims before the reduced ones (what blocks divide), then scf.for loops over the reduced
// dims, so that the input is read a row at a time. A row the strategy takes whole
// is one tile, whose accumulators the row loops then carry (in registers). A longer row is
// tiled by vectors in an innermost loop, peeled: whole vectors take plain loads, and the rest of
// a row one vector of its length (or a masked one, where the length is dynamic); each tile
// combines a vector of the input into its part of the accumulator row, which stays in L1 while
// the rows stream past. The innermost loop is marked `aclop.streamed_rows` for
// aclop-prefetch-streamed-rows, which prefetches ahead once its reads are of buffers.
void streamRows(IRRewriter &rewriter, linalg::LinalgOp op, ArrayRef<int64_t> sizes) {
  MLIRContext *context = rewriter.getContext();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> rowSizes(sizes);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  const unsigned leading = llvm::find(iterators, utils::IteratorType::reduction) - iterators.begin();
  if (leading) {
    SmallVector<int64_t> blocks(sizes.size(), 0);
    for (unsigned d = 0; d < leading; ++d) blocks[d] = sizes[d], rowSizes[d] = 0;
    if (llvm::any_of(ArrayRef(ranges).take_front(leading), [](int64_t range) { return range != 1; })) {
      FailureOr<scf::SCFTilingResult> blocked =
          tileInLoops(rewriter, op, blocks, scf::SCFTilingOptions::LoopType::ForallOp);
      if (failed(blocked)) return;
      op = cast<linalg::LinalgOp>(blocked->tiledOps.front());
    }
  }
  const bool wholeRow = sizes.back() == ranges.back();
  if (wholeRow) rowSizes.back() = 0;
  FailureOr<scf::SCFTilingResult> tiled = tileInLoops(rewriter, op, rowSizes, scf::SCFTilingOptions::LoopType::ForOp);
  if (failed(tiled) || tiled->loops.empty()) return;
  Operation *outermost = tiled->loops.front().getOperation();
  if (auto innermost = dyn_cast<scf::ForOp>(tiled->loops.back().getOperation())) {
    innermost->setAttr("aclop.streamed_rows", UnitAttr::get(context));
    scf::ForOp remainder;
    if (!wholeRow) (void)scf::peelForLoopAndSimplifyBounds(rewriter, innermost, remainder);
  }
  // (A whole row's slices of the accumulator go too.)
  simplifyPeeledTiles(outermost);
  SmallVector<linalg::GenericOp> tiles;
  outermost->walk([&](linalg::GenericOp tile) { tiles.push_back(tile); });
  for (linalg::GenericOp tile : tiles) vectorizeAlongRow(rewriter, tile, sizes.back(), /*maskStatic=*/false);
  // dropUnitDims leaves dead ops behind, uses of the accumulators that would stop their hoisting
  // below: the greedy driver erases them. Its rank-reducing slices of the tiles' slices merge.
  RewritePatternSet slices(context);
  populateStaticSlicePatterns(slices);
  tensor::populateMergeConsecutiveInsertExtractSlicePatterns(slices);
  (void)applyPatternsGreedily(outermost, std::move(slices));
  // A whole row's accumulator read and write leave the row loops, innermost first: each loop
  // then carries the accumulators as a vector.
  if (wholeRow)
    for (LoopLikeOpInterface loop : llvm::reverse(tiled->loops)) (void)hoistLoopInvariantSubsets(rewriter, loop);
}

// Contractions (dims batch?, m, k, n): an scf.forall over batch and row tiles (what blocks
// divide), inside it scf.for loops over column tiles and, innermost, depth tiles, so that the
// (k x n) panel of b a tile reads is reused by every row of the row tile while it is in cache.
// A product computed by a ukernel gets only the scf.forall: each of its tiles becomes one call
// (aclop-call-ukernels) that blocks its columns and depth itself.
LogicalResult tileForCache(IRRewriter &rewriter, linalg::LinalgOp op, ArrayRef<int64_t> tiles) {
  auto strategy = op->getAttrOfType<DictionaryAttr>("aclop.strategy");
  if (strategy && strategy.get("ukernel")) {
    if (succeeded(fuseFillIntoUkernelTiles(rewriter, op, tiles))) return success();
    return success(succeeded(tileInLoops(rewriter, op, tiles, scf::SCFTilingOptions::LoopType::ForallOp)));
  }
  MLIRContext *context = rewriter.getContext();
  unsigned loops = op.getNumLoops();
  SmallVector<int64_t> outer(tiles), inner(loops, 0);
  outer[loops - 2] = outer[loops - 1] = 0;
  inner[loops - 2] = tiles[loops - 2];
  inner[loops - 1] = tiles[loops - 1];
  FailureOr<scf::SCFTilingResult> rows = tileInLoops(rewriter, op, outer, scf::SCFTilingOptions::LoopType::ForallOp);
  if (failed(rows)) return failure();
  scf::SCFTilingOptions sequential;
  sequential.setTileSizes(getAsIndexOpFoldResult(context, inner));
  SmallVector<int64_t> order = llvm::to_vector(llvm::seq<int64_t>(0, loops));
  std::swap(order[loops - 2], order[loops - 1]);  // column tiles outside depth tiles
  sequential.setInterchange(order);
  auto tiled = cast<TilingInterface>(rows->tiledOps.front());
  rewriter.setInsertionPoint(tiled);
  FailureOr<scf::SCFTilingResult> panels = scf::tileUsingSCF(rewriter, tiled, sequential);
  if (failed(panels)) return failure();
  rewriter.replaceOp(tiled, panels->replacements);
  auto cacheTile = cast<linalg::LinalgOp>(panels->tiledOps.front());
  if (hasRegisterTiles(cacheTile)) {
    if (auto generic = dyn_cast<linalg::GenericOp>(cacheTile.getOperation())) packPanels(rewriter, generic);
    tileForRegisters(rewriter, rows->loops.front(), cacheTile);
  }
  return success();
}

// True if a product, its fill and its epilogue (if any) are all the linalg ops of their function.
// Among other nests, blocks must divide the product's rows as they divide the others' (their
// first dim: aclop-map-to-kernel-abi), since each block reads only the rows it wrote.
bool isOnlyNest(linalg::LinalgOp product, linalg::GenericOp epilogue) {
  Operation *fill = product.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  WalkResult others = product->getParentOfType<func::FuncOp>().walk([&](linalg::LinalgOp op) {
    Operation *o = op.getOperation();
    return o == product.getOperation() || o == epilogue.getOperation() || o == fill ? WalkResult::advance()
                                                                                   : WalkResult::interrupt();
  });
  return !others.wasInterrupted();
}

// The block count of the kernel function around a product and its epilogue, if they, with the
// product's fill, are all the function computes: a loop over one tile per block is then its
// only nest, which aclop-map-to-kernel-abi gives one iteration per block (with other nests
// there, the blocks must divide rows alike in all of them). Null otherwise.
Value kernelBlockCount(linalg::LinalgOp product, linalg::GenericOp epilogue) {
  auto func = product->getParentOfType<func::FuncOp>();
  unsigned n = func.getNumArguments();
  if (!func->hasAttr("aclop.kernel") || n < 2 || !func.getArgumentTypes().back().isIndex()) return {};
  return isOnlyNest(product, epilogue) ? func.getArgument(n - 1) : Value();
}

// Tiles GEMM's epilogue by `options` and fuses the product and its accumulator fill into each
// tile; replaces the epilogue and erases the producers. Without an epilogue (a plain product,
// aclop::isPlainProduct) the product itself is tiled, its fill fused into each tile.
FailureOr<scf::SCFTileAndFuseResult> tileEpilogueWithProducers(IRRewriter &rewriter, linalg::LinalgOp product,
                                                               linalg::GenericOp epilogue,
                                                               scf::SCFTileAndFuseOptions &options) {
  Operation *root = epilogue ? epilogue.getOperation() : product.getOperation();
  options.setFusionControlFn([&](tensor::ExtractSliceOp, OpResult producer, bool)
                                 -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
    Operation *owner = producer.getOwner();
    if (owner == product.getOperation() || isa<linalg::FillOp>(owner))
      return scf::SCFTileAndFuseOptions::ControlFnResult{};
    return std::nullopt;
  });
  rewriter.setInsertionPoint(root);
  FailureOr<scf::SCFTileAndFuseResult> fused =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, cast<TilingInterface>(root), options);
  if (failed(fused)) return failure();
  SmallVector<Value> replacements;
  for (OpResult result : root->getResults()) replacements.push_back(fused->replacements.lookup(result));
  rewriter.replaceOp(root, replacements);
  // Each tile's accumulator is a buffer of its own (bufferization.alloc_tensor, which neither
  // CSE nor empty-tensor elimination merges with the result): the tensor.empty the fill had
  // may be shared with the epilogue's result, which may become the output buffer, which may be
  // C itself (GEMM updates C in place); the fill would then zero C before the epilogue reads it.
  // A plain product's tiles accumulate in their slices of the result, which nothing else reads.
  for (Operation *op : fused->tiledAndFusedOps) {
    auto fill = dyn_cast<linalg::FillOp>(op);
    if (!fill || !epilogue) continue;
    Value init = fill.getDpsInitOperand(0)->get();
    rewriter.setInsertionPoint(fill);
    SmallVector<Value> dynamicSizes;
    for (auto [i, size] : llvm::enumerate(tensor::getMixedSizes(rewriter, fill.getLoc(), init)))
      if (cast<RankedTensorType>(init.getType()).isDynamicDim(i))
        dynamicSizes.push_back(getValueOrCreateConstantIndexOp(rewriter, fill.getLoc(), size));
    Value own = bufferization::AllocTensorOp::create(rewriter, fill.getLoc(), cast<RankedTensorType>(init.getType()),
                                                     dynamicSizes);
    rewriter.modifyOpInPlace(fill, [&] { fill.getDpsInitOperand(0)->set(own); });
  }
  // The producers are dead now but for the slices fusion took of them, outside the loop.
  for (Operation *producer : llvm::reverse(fused->fusedProducers.getArrayRef())) {
    for (Operation *user : llvm::make_early_inc_range(producer->getUsers()))
      if (isa<tensor::ExtractSliceOp>(user) && user->use_empty()) rewriter.eraseOp(user);
    if (producer->use_empty()) rewriter.eraseOp(producer);
  }
  return fused;
}

// A product a ukernel computes, with GEMM's epilogue or a bias (aclop::ukernelEpilogue): the epilogue is tiled by
// the product's row tiles and the product and its accumulator fill are fused into each tile,
// where aclop-call-ukernels folds all three into one call that writes the result once (at 1024^3
// s8 the fill and epilogue passes over the whole accumulator took 15% of the time). The
// epilogue's tile is left whole for that. A bias left to a nest of its own also made the kernel
// one block: the product's tiles were not the function's only nest (kernelBlockCount).
LogicalResult fuseIntoEpilogue(IRRewriter &rewriter, linalg::LinalgOp product, ArrayRef<int64_t> tiles) {
  auto strategy = product->getAttrOfType<DictionaryAttr>("aclop.strategy");
  linalg::GenericOp epilogue = aclop::ukernelEpilogue(product);
  if (!strategy || !strategy.get("ukernel") || !epilogue || product.getNumLoops() != 3) return failure();
  scf::SCFTileAndFuseOptions options;
  setUkernelTiling(rewriter, product, epilogue, tiles, options.tilingOptions);
  return success(succeeded(tileEpilogueWithProducers(rewriter, product, epilogue, options)));
}

// Fuses GEMM's fill, product and epilogue (over the same rows, a multiple of `rows`) into rows x
// 32 register tiles, an scf.forall of them (of 32-column strips if B is stored (n, k)): the
// epilogue is tiled and the fill and the product are fused into each tile, so that an
// accumulator lives in registers from its zeroing through the whole depth to alpha and beta
// (or a bias; with no epilogue, a plain product's, to the result).
void fuseRegisterTiles(IRRewriter &rewriter, linalg::LinalgOp product, linalg::GenericOp epilogue, int64_t rows) {
  MLIRContext *context = rewriter.getContext();
  // Sizes over (m, n): the epilogue's loops, or a plain product's with its depth left whole and
  // its batch, if any, one at a time.
  const bool batched = product.getNumLoops() == 4;
  auto tiling = [&](ArrayRef<int64_t> sizes, scf::SCFTilingOptions::LoopType loopType) {
    scf::SCFTileAndFuseOptions options;
    SmallVector<int64_t> loops(sizes);
    if (!epilogue) loops.insert(loops.begin() + 1, 0);
    if (batched) loops.insert(loops.begin(), 1);
    options.tilingOptions.setTileSizes(getAsIndexOpFoldResult(context, loops));
    options.tilingOptions.setLoopType(loopType);
    return options;
  };
  FailureOr<scf::SCFTileAndFuseResult> fused;
  // The product and epilogue generics among a tiling's ops.
  auto tiledPair = [](const scf::SCFTileAndFuseResult &tiled) {
    std::pair<linalg::GenericOp, linalg::GenericOp> pair;
    for (Operation *op : tiled.tiledAndFusedOps)
      if (auto generic = dyn_cast<linalg::GenericOp>(op))
        (generic.getNumReductionLoops() ? pair.first : pair.second) = generic;
    return pair;
  };
  if (storesBTransposed(product)) {
    // B stored (n, k): an scf.forall over 32-column strips (what blocks divide); each strip
    // transposes its slice of B once into a (k, 32) panel (packPanel) that its register tiles,
    // an scf.for over rows, read a row of at each k. Read in place, each k step gathered 32
    // floats K apart: 64^3 NT 96 -> 50 GF/s. Among other nests (an NCHW convolution's patches
    // and transposing epilogue) blocks must divide rows: an scf.forall over panels of up to
    // kRowPanelRows rows (evenly shared by two blocks where possible), each running the strips in
    // turn (each strip's panel of B transposed again a row panel).
    linalg::LinalgOp stripsProduct = product;
    linalg::GenericOp stripsEpilogue = epilogue;
    auto stripsLoop = scf::SCFTilingOptions::LoopType::ForallOp;
    if (!isOnlyNest(product, epilogue)) {
      int64_t panelRows = aclop::evenlySharedRowTile(product.getStaticLoopRanges()[product.getNumLoops() - 3],
                                                     kRowPanelRows, rows)
                              .value_or(kRowPanelRows);
      scf::SCFTileAndFuseOptions panels = tiling({panelRows, 0}, scf::SCFTilingOptions::LoopType::ForallOp);
      FailureOr<scf::SCFTileAndFuseResult> rowPanels = tileEpilogueWithProducers(rewriter, product, epilogue, panels);
      if (failed(rowPanels)) return;
      std::tie(stripsProduct, stripsEpilogue) = tiledPair(*rowPanels);
      if (!stripsProduct || (epilogue && !stripsEpilogue)) return;
      stripsLoop = scf::SCFTilingOptions::LoopType::ForOp;
    }
    scf::SCFTileAndFuseOptions strips = tiling({0, kRegisterColumns}, stripsLoop);
    FailureOr<scf::SCFTileAndFuseResult> columns =
        tileEpilogueWithProducers(rewriter, stripsProduct, stripsEpilogue, strips);
    if (failed(columns)) return;
    auto [stripProduct, stripEpilogue] = tiledPair(*columns);
    if (!stripProduct || (epilogue && !stripEpilogue)) return;
    packPanel(rewriter, stripProduct, 1, /*transpose=*/true);
    scf::SCFTileAndFuseOptions tiles = tiling({rows, 0}, scf::SCFTilingOptions::LoopType::ForOp);
    fused = tileEpilogueWithProducers(rewriter, stripProduct, stripEpilogue, tiles);
  } else {
    scf::SCFTileAndFuseOptions tiles = tiling({rows, kRegisterColumns}, scf::SCFTilingOptions::LoopType::ForallOp);
    fused = tileEpilogueWithProducers(rewriter, product, epilogue, tiles);
  }
  if (failed(fused)) return;
  // Each tile: the fill and the epilogue become vector code as they are; the product steps
  // through k one step at a time, as tileForRegisters' tiles do. From here on nothing fails:
  // what does not tile or vectorize stays a correct generic.
  SmallVector<Operation *> tileOps(fused->tiledAndFusedOps.begin(), fused->tiledAndFusedOps.end());
  SmallVector<Operation *> vectorizable;
  for (Operation *op : tileOps) {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (linalgOp.getNumReductionLoops() == 0) {
      vectorizable.push_back(op);
      continue;
    }
    SmallVector<int64_t> depthStep(linalgOp.getNumLoops(), 0);  // (batch?, m, k, n): k one at a time
    depthStep[depthStep.size() - 2] = 1;
    FailureOr<scf::SCFTilingResult> steps =
        tileInLoops(rewriter, linalgOp, depthStep, scf::SCFTilingOptions::LoopType::ForOp);
    if (succeeded(steps)) vectorizable.append(steps->tiledOps.begin(), steps->tiledOps.end());
  }
  for (Operation *op : vectorizable) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> vectorized =
        linalg::vectorize(rewriter, op, {}, {}, false, false, false, /*createNamedContraction=*/true);
    if (succeeded(vectorized)) rewriter.replaceOp(op, vectorized->replacements);
  }
  // The k loop's read and write of its accumulator (through a full-size slice, folded first)
  // leave the loop: the accumulator becomes a vector the loop carries, which canonicalization
  // then forwards from the fill's write and to the epilogue's read, and the buffer goes away.
  Operation *forall = fused->loops.front().getOperation();
  RewritePatternSet patterns(context);
  tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, context);
  tensor::InsertSliceOp::getCanonicalizationPatterns(patterns, context);
  (void)applyPatternsGreedily(forall, std::move(patterns));
  SmallVector<scf::ForOp> depthLoops;
  forall->walk([&](scf::ForOp loop) { depthLoops.push_back(loop); });
  for (scf::ForOp loop : depthLoops) (void)hoistLoopInvariantSubsets(rewriter, loop);
}

// The part of GEMM an epilogue part (from linalg::splitOp) covers, as ops of its own: the
// epilogue's slice of the product becomes the product over those rows, and that product's slice
// of the fill the fill over those rows.
linalg::LinalgOp productOverRows(IRRewriter &rewriter, linalg::GenericOp epiloguePart, linalg::LinalgOp product) {
  auto slice = epiloguePart.getDpsInputOperand(0)->get().getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || slice.getSource() != product->getResult(0)) return {};
  rewriter.setInsertionPoint(slice);
  FailureOr<TilingResult> part =
      tensor::replaceExtractSliceWithTiledProducer(rewriter, slice, cast<OpResult>(product->getResult(0)));
  if (failed(part)) return {};
  rewriter.replaceOp(slice, part->tiledValues);
  auto partProduct = cast<linalg::LinalgOp>(part->tiledOps.front());
  auto fillSlice = partProduct.getDpsInitOperand(0)->get().getDefiningOp<tensor::ExtractSliceOp>();
  if (fillSlice && fillSlice.getSource().getDefiningOp<linalg::FillOp>()) {
    rewriter.setInsertionPoint(fillSlice);
    FailureOr<TilingResult> fill =
        tensor::replaceExtractSliceWithTiledProducer(rewriter, fillSlice, cast<OpResult>(fillSlice.getSource()));
    if (succeeded(fill)) rewriter.replaceOp(fillSlice, fill->tiledValues);
  }
  return partProduct;
}

// True if `value` is a tensor.empty or a reshaped view of one: a convolution's destination, which
// aclop-eliminate-expanded-empty-tensors places in the output after this pass.
bool isEmptyOrViewOfEmpty(Value value) {
  if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>()) value = collapse.getSrc();
  else if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>()) value = expand.getSrc();
  return value.getDefiningOp<tensor::EmptyOp>() != nullptr;
}

// A slice of an empty destination (or of a view of one) is better an empty of its own, which
// aclop-eliminate-expanded-empty-tensors then places in the output; the slice of the empty was
// computed in a buffer of its own and copied into it instead, a nest no block could share (the
// whole kernel on one block). Gives `init`, a slice of the parts' destination, an empty if so.
void ownEmptyForSlice(IRRewriter &rewriter, OpOperand &init) {
  auto slice = init.get().getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || !isEmptyOrViewOfEmpty(slice.getSource())) return;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(init.getOwner());
  Value own = tensor::EmptyOp::create(rewriter, slice.getLoc(), slice.getMixedSizes(),
                                      getElementTypeOrSelf(slice.getType()));
  rewriter.modifyOpInPlace(init.getOwner(), [&] { init.set(own); });
  if (slice->use_empty()) rewriter.eraseOp(slice);
}

// A plain product (no epilogue; a batch of them too) as two over its rows [0, whole) and
// [whole, m), each zeroing and writing its slice of the product's destination in turn, for
// tiles of their own heights. The destination is the output already (the caller eliminated
// empty tensors first), and the second part's slice is taken from the first part's result, so
// that both bufferize in place.
SmallVector<linalg::LinalgOp> splitPlainProductRows(IRRewriter &rewriter, linalg::LinalgOp product, int64_t whole) {
  auto fill = product.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  SmallVector<int64_t> ranges = product.getStaticLoopRanges();  // (batch?, m, k, n)
  const unsigned rowDim = ranges.size() - 3;
  const int64_t rows = ranges[rowDim], depth = ranges[rowDim + 1], columns = ranges[rowDim + 2];
  Location loc = product.getLoc();
  auto index = [&](int64_t value) -> OpFoldResult { return rewriter.getIndexAttr(value); };
  Value result = fill.getDpsInitOperand(0)->get();
  SmallVector<linalg::LinalgOp> parts;
  rewriter.setInsertionPoint(product);
  for (auto [offset, size] : {std::pair{int64_t{0}, whole}, std::pair{whole, rows - whole}}) {
    // Over (batch?, m, n) for the output, (batch?, m, k, n) for the product.
    SmallVector<OpFoldResult> outOffsets, outSizes;
    if (rowDim) outOffsets.push_back(index(0)), outSizes.push_back(index(ranges[0]));
    outOffsets.append({index(offset), index(0)});
    outSizes.append({index(size), index(columns)});
    SmallVector<OpFoldResult> strides(outOffsets.size(), index(1));
    SmallVector<OpFoldResult> offsets(outOffsets), sizes(outSizes);
    offsets.insert(offsets.begin() + rowDim + 1, index(0));
    sizes.insert(sizes.begin() + rowDim + 1, index(depth));
    Value slice = tensor::ExtractSliceOp::create(rewriter, loc, result, outOffsets, outSizes, strides);
    auto zeroing = linalg::FillOp::create(rewriter, loc, fill.value(), slice);
    ownEmptyForSlice(rewriter, zeroing.getDpsInitsMutable()[0]);  // (a convolution's product)
    Value zeroed = zeroing.getResult(0);
    FailureOr<TilingResult> part =
        cast<TilingInterface>(product.getOperation()).getTiledImplementation(rewriter, offsets, sizes);
    if (failed(part)) return {};
    auto partProduct = cast<linalg::LinalgOp>(part->tiledOps.front());
    OpOperand *init = partProduct.getDpsInitOperand(0);
    Operation *stale = init->get().getDefiningOp();  // its slice of the whole fill
    rewriter.modifyOpInPlace(partProduct, [&] { init->set(zeroed); });
    if (stale && stale->use_empty()) rewriter.eraseOp(stale);
    result = tensor::InsertSliceOp::create(rewriter, loc, partProduct->getResult(0), result, outOffsets, outSizes,
                                           strides);
    parts.push_back(partProduct);
  }
  rewriter.replaceOp(product, result);
  if (fill->use_empty()) rewriter.eraseOp(fill);
  return parts;
}

// Register tiles of 12 rows (24 accumulators) read B a third less often per FMA than tiles of 8.
// Since the rows past the last whole one became a part of their own that writes in place
// (session 46) they won on every shape measured, B in L1 or not (1 thread, GF/s, 8 -> 12 rows:
// MatMul 64^3 183 -> 187-192, 128^3 171-178 -> 181-189, 48x64x64 183-189 -> 191-198, 240x64x512
// 175-180 -> 193-197, 240x1024x32 162-163 -> 168-179, 48x64x1024 176-186 -> 202; GEMM 64^3
// 178 -> 182, 240x128x128 160-169 -> 166-179, 640x512x64 164-166 -> 175-181; 240x64x64 and
// 128x64x128 even), where they sweep B fewer times: not for 16 rows (12 + 4, as often as 8 + 8).
bool tallTilesSweepLess(int64_t rows) {
  return llvm::divideCeilSigned(rows, kTallRegisterRows) < rows / kRegisterRows;
}

// An f32 GEMM on generated register tiles (whole 8x32 tiles, B small enough to sweep) computes
// its epilogue in the tiles (fuseRegisterTiles), as a MatMul does its bias if it has one. In
// cache tiles the product ran into a zeroed temporary that a second pass read back with C: at
// 64^3 the temporary's allocation and fill and that pass were ~10% of a launch. With 12-row
// tiles, the rows past the last whole one (4 or 8) are split off first and take a tile of their
// own height.
LogicalResult fuseIntoRegisterTiles(IRRewriter &rewriter, linalg::LinalgOp product) {
  auto strategy = product->getAttrOfType<DictionaryAttr>("aclop.strategy");
  if (!strategy || strategy.get("ukernel") || !aclop::fitsFusedRegisterTiles(product)) return failure();
  linalg::GenericOp epilogue = aclop::registerTileEpilogue(product);
  SmallVector<int64_t> ranges = product.getStaticLoopRanges();  // (m, k, n), a batch dropped
  const bool batched = ranges.size() == 4;
  if (batched) ranges.erase(ranges.begin());
  // Strips of B stored (n, k) read B from their (k, 32) panel, not by sweeping it: 8 rows there
  // (512^3 NT 147 GF/s with 12-row tiles, 154 with 8; and the split doubled the compile, 120 ->
  // 217 ms, each part transposing its own panels).
  bool sweepsB = !storesBTransposed(product);
  int64_t rows = sweepsB && tallTilesSweepLess(ranges[0]) ? kTallRegisterRows : kRegisterRows;
  // Among other nests (a convolution's patches), the rows past the last whole tall tile would be a
  // nest over columns, which blocks cannot divide as they divide the others' rows (each block reads
  // only the patches it made): 8-row tiles then, which divide the rows (isWholeRegisterTiles).
  if (rows == kTallRegisterRows && ranges[0] % rows != 0 && !isOnlyNest(product, epilogue)) rows = kRegisterRows;
  // The rows past the last whole tall tile are split off: as a part of the epilogue, or of a
  // plain product without one.
  int64_t whole = ranges[0] / rows * rows;
  if (whole == ranges[0] || whole == 0) {
    fuseRegisterTiles(rewriter, product, epilogue, whole == 0 ? kRegisterRows : rows);
    return success();
  }
  // The parts write slices of the destination, then insert them into it. Were that a
  // tensor.empty still, empty-tensor elimination would turn the first part's slice into a slice
  // of the empty (it visits that insert first) and only then the empty into the output:
  // bufferization gave the first part a buffer of its own and copied it. Eliminated now, the
  // destination is already the output.
  (void)bufferization::eliminateEmptyTensors(rewriter, product->getParentOfType<func::FuncOp>());
  if (!epilogue) {
    SmallVector<linalg::LinalgOp> parts = splitPlainProductRows(rewriter, product, whole);
    if (parts.empty()) return failure();
    fuseRegisterTiles(rewriter, parts[0], {}, rows);
    fuseRegisterTiles(rewriter, parts[1], {}, ranges[0] - whole);
    return success();
  }
  Operation *fill = product.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  rewriter.setInsertionPoint(epilogue);
  auto [wholeTiles, rest] = linalg::splitOp(rewriter, cast<TilingInterface>(epilogue.getOperation()), batched ? 1 : 0,
                                             rewriter.getIndexAttr(whole));
  if (!wholeTiles) {  // not split: 8-row tiles divide it
    fuseRegisterTiles(rewriter, product, epilogue, kRegisterRows);
    return success();
  }
  ownEmptyForSlice(rewriter, cast<linalg::LinalgOp>(wholeTiles.getOperation()).getDpsInitsMutable()[0]);
  for (auto [part, partRows] : {std::pair{wholeTiles, rows}, std::pair{rest, ranges[0] - whole}}) {
    auto partEpilogue = dyn_cast_or_null<linalg::GenericOp>(part.getOperation());
    if (!partEpilogue) continue;
    if (linalg::LinalgOp partProduct = productOverRows(rewriter, partEpilogue, product))
      fuseRegisterTiles(rewriter, partProduct, partEpilogue, partRows);
  }
  for (Operation *op : {product.getOperation(), fill})
    if (op && op->use_empty()) rewriter.eraseOp(op);
  return success();
}

struct AclopTileAndVectorizePass : aclop::impl::AclopTileAndVectorizeBase<AclopTileAndVectorizePass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> candidates, contractions, rowReductions, streamedRows, partialRows;
    getOperation().walk([&](linalg::LinalgOp op) {
      // An empty loop (a GEMM with m, n or k of 0) stays a plain generic: its loops run no
      // iteration, and tiling a static 0 crashed in MLIR's tile size computation.
      if (llvm::is_contained(op.getStaticLoopRanges(), 0)) return;
      auto strategy = op->getAttrOfType<DictionaryAttr>("aclop.strategy");
      if (strategy && strategy.get("tile_sizes")) candidates.push_back(op);
      if (strategy && strategy.get("cache_tiles")) contractions.push_back(op);
      if (strategy && strategy.get("row_length")) rowReductions.push_back(op);
      if (strategy && strategy.get("streamed_rows")) streamedRows.push_back(op);
      if (strategy && strategy.get("row_partials")) partialRows.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    // Epilogues fused into a product's row tiles are left whole (the op itself is gone).
    llvm::SmallPtrSet<Operation *, 4> fusedEpilogues;
    for (linalg::LinalgOp op : contractions) {
      auto tiles = cast<DenseI64ArrayAttr>(op->getAttrOfType<DictionaryAttr>("aclop.strategy").get("cache_tiles"));
      // (GEMM's scaled epilogue, which either takes in, or a bias add, which register tiles do
      // along columns and a ukernel along columns or rows.)
      linalg::GenericOp ukernelEpilogue = aclop::ukernelEpilogue(op), tileEpilogue = aclop::registerTileEpilogue(op);
      linalg::GenericOp fused;
      if (succeeded(fuseIntoEpilogue(rewriter, op, tiles.asArrayRef())))
        fused = ukernelEpilogue;
      else if (succeeded(fuseIntoRegisterTiles(rewriter, op)))
        fused = tileEpilogue;
      else
        (void)tileForCache(rewriter, op, tiles.asArrayRef());  // untiled, it is still correct
      if (fused) fusedEpilogues.insert(fused.getOperation());
    }
    for (linalg::LinalgOp op : rowReductions) reduceShortRows(rewriter, op);
    for (linalg::LinalgOp op : partialRows)
      reduceRowInPartials(rewriter, op,
                          cast<IntegerAttr>(op->getAttrOfType<DictionaryAttr>("aclop.strategy").get("row_partials")).getInt());
    for (linalg::LinalgOp op : streamedRows)
      streamRows(rewriter, op,
                 cast<DenseI64ArrayAttr>(op->getAttrOfType<DictionaryAttr>("aclop.strategy").get("streamed_rows")));
    for (linalg::LinalgOp op : candidates) {
      if (fusedEpilogues.contains(op.getOperation())) continue;
      auto strategy = op->getAttrOfType<DictionaryAttr>("aclop.strategy");
      auto tiles = cast<DenseI64ArrayAttr>(strategy.get("tile_sizes"));
      // Tiles stay parallel, or blocks do, each running its tiles in sequence.
      if (auto blocks = dyn_cast_or_null<DenseI64ArrayAttr>(strategy.get("block_sizes"))) {
        FailureOr<scf::SCFTilingResult> blocked =
            tileInLoops(rewriter, op, blocks.asArrayRef(), scf::SCFTilingOptions::LoopType::ForallOp);
        if (succeeded(blocked))
          tileAndVectorize(rewriter, cast<linalg::LinalgOp>(blocked->tiledOps.front()), tiles.asArrayRef(),
                           scf::SCFTilingOptions::LoopType::ForOp);
        continue;
      }
      tileAndVectorize(rewriter, op, tiles.asArrayRef(), scf::SCFTilingOptions::LoopType::ForallOp);
    }
    // Fold each vector.mask into its transfer op's mask operand now: canonicalization of the
    // tiles' slices would otherwise move casts into the mask regions, which they do not allow.
    // Tiles are 1 x ... x 1 x V: drop the unit dims so every op works on 1-D vectors, which is
    // what the LLVM lowerings handle (math.absi has no n-D lowering at all).
    RewritePatternSet patterns(&getContext());
    vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) signalPassFailure();
  }
};

} // namespace
