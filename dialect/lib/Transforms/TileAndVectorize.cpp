//===- TileAndVectorize.cpp - apply aclop.strategy tile sizes -------------===//
#include "aclop/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPTILEANDVECTORIZE
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

// Contractions (dims batch?, m, k, n): an scf.forall over batch and row tiles (what blocks
// divide), inside it scf.for loops over column tiles and, innermost, depth tiles, so that the
// (k x n) panel of b a tile reads is reused by every row of the row tile while it is in cache.
// Tiles `op` by `sizes` into loops of `loopType` and vectorizes each tile with those sizes:
// partial tiles at the edges are masked; ops the vectorizer cannot take stay scalar, and an op
// that does not tile is left whole (LLVM may still vectorize its loops).
void tileAndVectorize(IRRewriter &rewriter, linalg::LinalgOp op, ArrayRef<int64_t> sizes,
                      scf::SCFTilingOptions::LoopType loopType) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  options.setLoopType(loopType);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled)) return;
  rewriter.replaceOp(op, tiled->replacements);
  for (Operation *tile : tiled->tiledOps) {
    SmallVector<bool> scalable(sizes.size(), false);
    if (failed(linalg::vectorizeOpPrecondition(tile, sizes, scalable))) continue;
    rewriter.setInsertionPoint(tile);
    FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(rewriter, tile, sizes, scalable);
    if (succeeded(vectorized)) rewriter.replaceOp(tile, vectorized->replacements);
  }
}

// The register tile of an f32 product: 8 rows x 32 columns (two 512-bit vectors) accumulate
// over k one step at a time: 16 accumulators, 8 broadcasts and 2 loads per 16 FMAs once
// aclop-lower-register-tiles has hoisted the accumulators out of the k loop.
constexpr int64_t kRegisterRows = 8, kRegisterColumns = 32;

// Products that take register tiles: f32 accumulation from f32, f16 or bf16 operands (the
// narrow ones widen as they are loaded: vcvtph2ps for f16, a shift for bf16), and i32
// accumulation from i8 operands (sign-extended as they are loaded).
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

// Tiles a cache tile of a product into register tiles (loops rows, columns, then k), peels
// the row and column loops so that the main loops see only full tiles, and vectorizes those.
// Rows and columns beyond the last whole register tile are split off first.
void tileForRegisters(IRRewriter &rewriter, func::FuncOp func, linalg::LinalgOp cacheTile) {
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
  tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, context);
  tensor::InsertSliceOp::getCanonicalizationPatterns(patterns, context);
  tensor::CastOp::getCanonicalizationPatterns(patterns, context);
  linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
  context->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(patterns);  // casts into ops
  (void)applyPatternsGreedily(func, std::move(patterns));
  SmallVector<linalg::GenericOp> fullTiles;
  func.walk([&](linalg::GenericOp generic) {
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

// With B stored transposed ((n, k): k contiguous), a register tile's 32 columns at one k are
// K elements apart, and the tile gathers them. Instead the cache tile's panel of B is
// transposed once into a (k, n) buffer by 16x16 vector transposes, and the product reads that:
// the panel is reused by every row of the row tile, so the copy costs 1/(2 * rows) of the work.
void transposeBPanel(IRRewriter &rewriter, linalg::GenericOp cacheTile) {
  MLIRContext *context = rewriter.getContext();
  unsigned loops = cacheTile.getNumLoops();
  OpOperand *operand = cacheTile.getDpsInputOperand(1);
  AffineMap map = cacheTile.getMatchingIndexingMap(operand);
  unsigned rank = map.getNumResults();
  auto last = dyn_cast<AffineDimExpr>(map.getResult(rank - 1));
  if (rank < 2 || !last || last.getPosition() != loops - 2) return;  // B is (k, n) already
  Value source = operand->get();
  auto type = cast<RankedTensorType>(source.getType());
  Location loc = cacheTile.getLoc();
  rewriter.setInsertionPoint(cacheTile);
  SmallVector<int64_t> permutation = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  std::swap(permutation[rank - 2], permutation[rank - 1]);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, source);
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamicSizes;
  for (int64_t d : permutation) {
    shape.push_back(type.getDimSize(d));
    if (type.isDynamicDim(d)) dynamicSizes.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]));
  }
  Value buffer = bufferization::AllocTensorOp::create(
      rewriter, loc, RankedTensorType::get(shape, type.getElementType()), dynamicSizes);
  auto transpose = linalg::TransposeOp::create(rewriter, loc, source, buffer, permutation);
  SmallVector<AffineExpr> results(map.getResults());
  std::swap(results[rank - 2], results[rank - 1]);
  SmallVector<AffineMap> maps = cacheTile.getIndexingMapsArray();
  maps[operand->getOperandNumber()] = AffineMap::get(loops, 0, results, context);
  rewriter.modifyOpInPlace(cacheTile, [&] {
    operand->set(transpose->getResult(0));
    cacheTile.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
  // 16x16 tiles (batch 1), each a masked vector transpose.
  SmallVector<int64_t> tileSizes(rank, 1);
  tileSizes[rank - 2] = tileSizes[rank - 1] = 16;
  tileAndVectorize(rewriter, transpose, tileSizes, scf::SCFTilingOptions::LoopType::ForOp);
}

LogicalResult tileForCache(IRRewriter &rewriter, linalg::LinalgOp op, ArrayRef<int64_t> tiles) {
  MLIRContext *context = rewriter.getContext();
  unsigned loops = op.getNumLoops();
  SmallVector<int64_t> outer(tiles), inner(loops, 0);
  outer[loops - 2] = outer[loops - 1] = 0;
  inner[loops - 2] = tiles[loops - 2];
  inner[loops - 1] = tiles[loops - 1];
  scf::SCFTilingOptions parallel;
  parallel.setTileSizes(getAsIndexOpFoldResult(context, outer));
  parallel.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> rows = scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), parallel);
  if (failed(rows)) return failure();
  rewriter.replaceOp(op, rows->replacements);
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
  // A ukernel takes the cache tile whole (aclop-call-ukernels).
  auto strategy = cacheTile->getAttrOfType<DictionaryAttr>("aclop.strategy");
  if (strategy && strategy.get("ukernel")) return success();
  if (hasRegisterTiles(cacheTile)) {
    if (auto generic = dyn_cast<linalg::GenericOp>(cacheTile.getOperation())) transposeBPanel(rewriter, generic);
    tileForRegisters(rewriter, cacheTile->getParentOfType<func::FuncOp>(), cacheTile);
  }
  return success();
}

struct AclopTileAndVectorizePass : aclop::impl::AclopTileAndVectorizeBase<AclopTileAndVectorizePass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> candidates, contractions;
    getOperation().walk([&](linalg::LinalgOp op) {
      auto strategy = op->getAttrOfType<DictionaryAttr>("aclop.strategy");
      if (strategy && strategy.get("tile_sizes")) candidates.push_back(op);
      if (strategy && strategy.get("cache_tiles")) contractions.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : contractions) {
      auto tiles = cast<DenseI64ArrayAttr>(op->getAttrOfType<DictionaryAttr>("aclop.strategy").get("cache_tiles"));
      (void)tileForCache(rewriter, op, tiles.asArrayRef());  // untiled, it is still correct
    }
    for (linalg::LinalgOp op : candidates) {
      auto tiles = cast<DenseI64ArrayAttr>(op->getAttrOfType<DictionaryAttr>("aclop.strategy").get("tile_sizes"));
      // Tiles stay parallel.
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
