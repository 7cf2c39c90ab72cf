//===- LowerTransposes.cpp - 2-D vector transposes as shuffles ------------------===//
//
// A 2-D vector.transpose of 16- or 8-bit elements (a 16x16 f16 tile of a transposed read on
// AVX2) becomes one vector.shuffle of the flattened vector, which LLVM's x86 backend lowers to
// word and byte unpacks: convert-vector-to-llvm's element-wise lowering (an extract and an
// insert an element) left 632 instructions a 16x16 f16 tile, this 406 (TransposeD of 4096x4096
// f16, one core: 2.8 -> 4.1 GB/s). With 512-bit vectors, a 16x16 transpose of 32-bit elements
// (a transposed f32 read's tile, GEMM's panel of B stored (n, k)) becomes MLIR's 16x16 shuffle
// sequence: 64 unpacks and 128-bit lane shuffles, where the element-wise lowering left LLVM ~200
// two-source permutes and as many register copies (TransposeD of 4096x4096 f32, one core, its
// next block prefetched and non-temporal stores: 14-16 -> 10.6-10.9 ms), and a square tile of
// 16- or 8-bit elements (32x32, 64x64: an f16 or i8 transposed read's tile) shuffles of its rows,
// 160 or 384, where the flattened shuffle took ~1600 cycles a 32x32 f16 tile (TransposeD of
// 4096x4096 f16: 10.3-10.7 -> 5.2-5.4 ms) and LLVM 2.7 s to compile a 64x64 byte one (4096x4096
// i8, one core on Zen 5: 6.7-6.9 -> 3.0-3.1 ms, compiled in 0.14 s). On AVX2 the rows' shuffles
// of a 32x32 byte tile ran 7% behind the flattened one, which stays. Other 32-bit transposes keep
// the element-wise lowering: on AVX2 the shuffle changed the instructions but not the rate. First,
// a transpose that moves only two dims of more than one element becomes a 2-D one.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::aclop {
#define GEN_PASS_DEF_ACLOPLOWERTRANSPOSES
#include "aclop/Passes.h.inc"
} // namespace mlir::aclop

using namespace mlir;

namespace {

// vpunpck{l,h}{bw,wd,dq,qdq} on rows of `rowElements` in 128-bit lanes of `laneElements`:
// within each lane, granules of `granule` elements of a then b, taken from the lane's lower half
// (lo) or upper half (hi).
SmallVector<int64_t> unpackMask(int64_t rowElements, int64_t laneElements, int64_t granule, bool high) {
  SmallVector<int64_t> mask;
  const int64_t perLane = laneElements / granule, half = perLane / 2;
  for (int64_t lane = 0; lane < rowElements / laneElements; ++lane)
    for (int64_t g = high ? half : 0; g < (high ? perLane : half); ++g)
      for (int64_t source : {int64_t{0}, rowElements})
        for (int64_t e = 0; e < granule; ++e) mask.push_back(source + lane * laneElements + g * granule + e);
  return mask;
}

// vshufi32x4 0x88 / 0xdd (four lanes), vperm2i128 0x20 / 0x31 (two): the even (odd) lanes of a,
// then those of b.
SmallVector<int64_t> laneMask(int64_t rowElements, int64_t laneElements, int64_t parity) {
  SmallVector<int64_t> mask;
  const int64_t lanes = rowElements / laneElements;
  for (int64_t i = 0; i < lanes; ++i) {
    int64_t source = i < lanes / 2 ? 0 : rowElements, lane = 2 * (i % (lanes / 2)) + parity;
    for (int64_t e = 0; e < laneElements; ++e) mask.push_back(source + lane * laneElements + e);
  }
  return mask;
}

// A square transpose whose rows are whole vector registers of 128-bit lanes (a transposed read's
// V x V tile of 8- or 16-bit elements on 512-bit vectors) as x86's two-source shuffles of its
// rows: unpacks of 1-, 2-, 4-... element granules within 128-bit lanes (each lane's L x L block
// transposed), then rounds of lane selects that transpose the blocks (two rounds for four lanes).
// Row c of the result is then column c of the input.
void lowerInLanes(vector::TransposeOp transpose) {
  VectorType type = transpose.getSourceVectorType();
  const int64_t rowElements = type.getDimSize(0), laneElements = 128 / type.getElementTypeBitWidth();
  OpBuilder b(transpose);
  Location loc = transpose.getLoc();
  SmallVector<Value> rows, next(rowElements);
  for (int64_t i = 0; i < rowElements; ++i)
    rows.push_back(vector::ExtractOp::create(b, loc, transpose.getVector(), ArrayRef<int64_t>{i}));
  // Pairs of rows `distance` apart in each group of 2 * distance rows become the group's rows
  // 2j and 2j + 1 (unpacks: lower and upper halves) or j and j + distance (lane selects).
  auto shuffleRows = [&](int64_t distance, ArrayRef<int64_t> firstMask, ArrayRef<int64_t> secondMask, bool adjacent) {
    for (int64_t group = 0; group < rowElements; group += 2 * distance)
      for (int64_t j = 0; j < distance; ++j) {
        Value x = rows[group + j], y = rows[group + j + distance];
        next[group + (adjacent ? 2 * j : j)] = vector::ShuffleOp::create(b, loc, x, y, firstMask);
        next[group + (adjacent ? 2 * j + 1 : j + distance)] = vector::ShuffleOp::create(b, loc, x, y, secondMask);
      }
    std::swap(rows, next);
  };
  for (int64_t granule = 1; granule < laneElements; granule *= 2)
    shuffleRows(granule, unpackMask(rowElements, laneElements, granule, false),
                unpackMask(rowElements, laneElements, granule, true), /*adjacent=*/true);
  for (int64_t distance = laneElements; distance < rowElements; distance *= 2)
    shuffleRows(distance, laneMask(rowElements, laneElements, 0), laneMask(rowElements, laneElements, 1),
                /*adjacent=*/false);
  Value result = ub::PoisonOp::create(b, loc, transpose.getResultVectorType());
  for (int64_t i = 0; i < rowElements; ++i)
    result = vector::InsertOp::create(b, loc, rows[i], result, ArrayRef<int64_t>{i});
  transpose.replaceAllUsesWith(result);
  transpose.erase();
}

// A transpose that moves no more than two dims of more than one element (a 64x1x64 tile of a
// rank-3 transpose) becomes a 2-D one between shape casts, which it returns, or a shape cast
// alone (null): the element-wise lowering of 64x1x64 bytes took LLVM 48 s to compile. Any other
// transpose is returned as it is.
vector::TransposeOp dropUnitDims(vector::TransposeOp transpose) {
  VectorType source = transpose.getSourceVectorType();
  SmallVector<int64_t> kept;  // source dims of more than one element, in source order
  for (int64_t d = 0; d < source.getRank(); ++d)
    if (source.getDimSize(d) != 1) kept.push_back(d);
  if (kept.size() > 2 || source.isScalable()) return transpose;
  ArrayRef<int64_t> perm = transpose.getPermutation();
  auto position = [&](int64_t d) { return llvm::find(perm, d) - perm.begin(); };
  OpBuilder b(transpose);
  Location loc = transpose.getLoc();
  Value result;
  vector::TransposeOp transposed;
  if (kept.size() < 2 || position(kept[0]) < position(kept[1])) {
    result = vector::ShapeCastOp::create(b, loc, transpose.getResultVectorType(), transpose.getVector());
  } else {
    Type element = source.getElementType();
    int64_t rows = source.getDimSize(kept[0]), columns = source.getDimSize(kept[1]);
    Value flat = vector::ShapeCastOp::create(b, loc, VectorType::get({rows, columns}, element), transpose.getVector());
    transposed = vector::TransposeOp::create(b, loc, flat, ArrayRef<int64_t>{1, 0});
    result = vector::ShapeCastOp::create(b, loc, transpose.getResultVectorType(), transposed.getResult());
  }
  transpose.replaceAllUsesWith(result);
  transpose.erase();
  return transposed;
}

// Lowers `transposes` alone (not the ops the patterns create) by `lowering`.
LogicalResult lowerTransposes(ArrayRef<Operation *> transposes, vector::VectorTransposeLowering lowering,
                              MLIRContext *context) {
  if (transposes.empty()) return success();
  RewritePatternSet patterns(context);
  vector::populateVectorTransposeLoweringPatterns(patterns, lowering);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingOps);
  return applyOpPatternsGreedily(transposes, std::move(patterns), config);
}

struct AclopLowerTransposesPass : aclop::impl::AclopLowerTransposesBase<AclopLowerTransposesPass> {
  using AclopLowerTransposesBase::AclopLowerTransposesBase;

  void runOnOperation() override {
    SmallVector<Operation *> narrow, square;
    SmallVector<vector::TransposeOp> inLanes;
    getOperation().walk([&](vector::TransposeOp transpose) {
      if (transpose.getSourceVectorType().getRank() > 2) transpose = dropUnitDims(transpose);
      if (!transpose) return;
      VectorType type = transpose.getSourceVectorType();
      if (type.getRank() != 2) return;
      const int64_t bits = type.getElementType().getIntOrFloatBitWidth(), rowElements = vectorBits / bits;
      const bool wholeRows = type.getShape() == ArrayRef<int64_t>{rowElements, rowElements};
      if ((bits == 8 || bits == 16) && vectorBits >= 512 && wholeRows)
        inLanes.push_back(transpose);
      else if (bits < 32)
        narrow.push_back(transpose);
      else if (bits == 32 && vectorBits >= 512 && type.getShape() == ArrayRef<int64_t>{16, 16})
        square.push_back(transpose);
    });
    for (vector::TransposeOp transpose : inLanes) lowerInLanes(transpose);
    if (failed(lowerTransposes(narrow, vector::VectorTransposeLowering::Shuffle1D, &getContext())) ||
        failed(lowerTransposes(square, vector::VectorTransposeLowering::Shuffle16x16, &getContext())))
      signalPassFailure();
  }
};

} // namespace
