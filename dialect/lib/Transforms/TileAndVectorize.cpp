//===- TileAndVectorize.cpp - apply aclop.strategy tile sizes -------------===//
#include "aclop/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
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
      SmallVector<int64_t> sizes(tiles.asArrayRef());
      scf::SCFTilingOptions options;
      options.setTileSizes(getAsIndexOpFoldResult(&getContext(), sizes));
      options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);  // tiles stay parallel
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled)) continue;  // left whole; LLVM may still vectorize its loops
      rewriter.replaceOp(op, tiled->replacements);
      for (Operation *tile : tiled->tiledOps) {
        // Partial tiles at the edges are masked; ops the vectorizer cannot take stay scalar.
        SmallVector<bool> scalable(sizes.size(), false);
        if (failed(linalg::vectorizeOpPrecondition(tile, sizes, scalable))) continue;
        rewriter.setInsertionPoint(tile);
        FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(rewriter, tile, sizes, scalable);
        if (succeeded(vectorized)) rewriter.replaceOp(tile, vectorized->replacements);
      }
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
