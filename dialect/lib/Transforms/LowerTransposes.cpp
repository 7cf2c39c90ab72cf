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
// next block prefetched and non-temporal stores: 14-16 -> 10.6-10.9 ms), and a 32x32 transpose of
// 16-bit elements (an f16 transposed read's tile) 160 shuffles of its rows, where the flattened
// shuffle took ~1600 cycles a tile (TransposeD of 4096x4096 f16: 10.3-10.7 -> 5.2-5.4 ms). Other
// 32-bit transposes keep the element-wise lowering: on AVX2 the shuffle changed the instructions
// but not the rate.
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

// The masks of a 32x32 transpose of 16-bit elements in 512-bit registers (32 lanes, four 128-bit
// lanes of 8), as x86's two-source shuffles: unpacks of 1-, 2- and then 4-element granules within
// 128-bit lanes (an 8x8 transpose in each lane) and two rounds of 128-bit lane selects, 32
// shuffles each: row c of the result is then column c of the input.
constexpr int64_t kHalfTile = 32, kLaneElements = 8;

// vpunpck{l,h}{wd,dq,qdq}: within each 128-bit lane, granules of `granule` elements of a then b,
// taken from the lane's lower half (lo) or upper half (hi).
SmallVector<int64_t> unpackMask(int64_t granule, bool high) {
  SmallVector<int64_t> mask;
  const int64_t perLane = kLaneElements / granule, half = perLane / 2;
  for (int64_t lane = 0; lane < kHalfTile / kLaneElements; ++lane)
    for (int64_t g = high ? half : 0; g < (high ? perLane : half); ++g)
      for (int64_t source : {int64_t{0}, kHalfTile})
        for (int64_t e = 0; e < granule; ++e) mask.push_back(source + lane * kLaneElements + g * granule + e);
  return mask;
}

// vshufi32x4: lanes selector[0] and [1] of a, then [2] and [3] of b.
SmallVector<int64_t> laneMask(unsigned selector) {
  SmallVector<int64_t> mask;
  for (int64_t i = 0; i < 4; ++i) {
    int64_t lane = (selector >> (2 * i)) & 3, source = i < 2 ? 0 : kHalfTile;
    for (int64_t e = 0; e < kLaneElements; ++e) mask.push_back(source + lane * kLaneElements + e);
  }
  return mask;
}

// A vector<32x32xT> transpose of 16-bit T as 160 such shuffles of its rows.
void lowerHalfTile(vector::TransposeOp transpose) {
  OpBuilder b(transpose);
  Location loc = transpose.getLoc();
  SmallVector<Value> rows, next(kHalfTile);
  for (int64_t i = 0; i < kHalfTile; ++i)
    rows.push_back(vector::ExtractOp::create(b, loc, transpose.getVector(), ArrayRef<int64_t>{i}));
  auto shuffle = [&](Value x, Value y, ArrayRef<int64_t> mask) -> Value {
    return vector::ShuffleOp::create(b, loc, x, y, mask);
  };
  // Unpacks of granules 1, 2 and 4: rows `first` and `first + distance` in each group of
  // 2 * distance rows give the group's rows 2j and 2j + 1 (the lower and upper halves).
  for (auto [granule, distance] : {std::pair<int64_t, int64_t>{1, 1}, {2, 2}, {4, 4}}) {
    SmallVector<int64_t> low = unpackMask(granule, false), high = unpackMask(granule, true);
    for (int64_t group = 0; group < kHalfTile; group += 2 * distance)
      for (int64_t j = 0; j < distance; ++j) {
        Value x = rows[group + j], y = rows[group + j + distance];
        next[group + 2 * j] = shuffle(x, y, low);
        next[group + 2 * j + 1] = shuffle(x, y, high);
      }
    std::swap(rows, next);
  }
  // 128-bit lanes: even lanes of a pair (0x88) and odd ones (0xdd), rows 8 then 16 apart.
  const SmallVector<int64_t> evenLanes = laneMask(0x88), oddLanes = laneMask(0xdd);
  for (int64_t distance : {int64_t{8}, int64_t{16}}) {
    for (int64_t group = 0; group < kHalfTile; group += 2 * distance)
      for (int64_t j = 0; j < distance; ++j) {
        Value x = rows[group + j], y = rows[group + j + distance];
        next[group + j] = shuffle(x, y, evenLanes);
        next[group + j + distance] = shuffle(x, y, oddLanes);
      }
    std::swap(rows, next);
  }
  Value result = ub::PoisonOp::create(b, loc, transpose.getResultVectorType());
  for (int64_t i = 0; i < kHalfTile; ++i)
    result = vector::InsertOp::create(b, loc, rows[i], result, ArrayRef<int64_t>{i});
  transpose.replaceAllUsesWith(result);
  transpose.erase();
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
    SmallVector<vector::TransposeOp> halfTiles;
    const bool wide = vectorBits >= 512;
    getOperation().walk([&](vector::TransposeOp transpose) {
      VectorType type = transpose.getSourceVectorType();
      if (type.getRank() != 2) return;
      unsigned bits = type.getElementType().getIntOrFloatBitWidth();
      if (bits == 16 && wide && type.getShape() == ArrayRef<int64_t>{kHalfTile, kHalfTile})
        halfTiles.push_back(transpose);
      else if (bits < 32)
        narrow.push_back(transpose);
      else if (bits == 32 && wide && type.getShape() == ArrayRef<int64_t>{16, 16})
        square.push_back(transpose);
    });
    for (vector::TransposeOp transpose : halfTiles) lowerHalfTile(transpose);
    if (failed(lowerTransposes(narrow, vector::VectorTransposeLowering::Shuffle1D, &getContext())) ||
        failed(lowerTransposes(square, vector::VectorTransposeLowering::Shuffle16x16, &getContext())))
      signalPassFailure();
  }
};

} // namespace
