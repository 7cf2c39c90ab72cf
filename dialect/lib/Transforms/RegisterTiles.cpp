//===- RegisterTiles.cpp - Which products generated register tiles take ---------===//
#include "RegisterTiles.h"

#include "GemmEpilogue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace {

// The most elements of B that register tiles running through the whole depth may sweep: every
// 8-row strip reads all of it again from L2. 1.25 MiB of f32: 512 x 640 ran at 150 GF/s fused
// (138 in cache tiles), 640 x 640 (1.6 MiB) at 117 (140).
constexpr int64_t kMaxSweptElements = 512 * 640;

bool isF32(Value value) { return cast<ShapedType>(value.getType()).getElementType().isF32(); }

// The generic on tensors that is the only user of a product's result, as its first operand: where
// an epilogue (scaledEpilogue, biasEpilogue) would be.
linalg::GenericOp soleConsumer(linalg::LinalgOp product) {
  Value result = product->getResult(0);
  if (!result.hasOneUse()) return {};
  OpOperand &use = *result.getUses().begin();
  auto consumer = dyn_cast<linalg::GenericOp>(use.getOwner());
  if (!consumer || use.getOperandNumber() != 0 || !consumer.hasPureTensorSemantics()) return {};
  return consumer;
}

// True if the last dim of `operand`'s indexing map is loop `loop`.
bool lastDimIsLoop(linalg::LinalgOp product, unsigned operand, unsigned loop) {
  AffineMap map = product.getMatchingIndexingMap(product.getDpsInputOperand(operand));
  unsigned rank = map.getNumResults();
  if (rank < 2) return false;
  auto last = dyn_cast<AffineDimExpr>(map.getResult(rank - 1));
  return last && last.getPosition() == loop;
}

} // namespace

bool mlir::aclop::isWholeRegisterTiles(linalg::LinalgOp product) {
  SmallVector<int64_t> ranges = product.getStaticLoopRanges();
  unsigned loops = product.getNumLoops();
  int64_t rows = ranges[loops - 3], depth = ranges[loops - 2], columns = ranges[loops - 1];
  if (ShapedType::isDynamic(rows) || ShapedType::isDynamic(columns) || ShapedType::isDynamic(depth)) return false;
  return rows % kRegisterRows == 0 && columns % kRegisterColumns == 0;
}

bool mlir::aclop::storesATransposed(linalg::LinalgOp product) {
  return lastDimIsLoop(product, 0, product.getNumLoops() - 3);
}

bool mlir::aclop::storesBTransposed(linalg::LinalgOp product) {
  return lastDimIsLoop(product, 1, product.getNumLoops() - 2);
}

linalg::GenericOp mlir::aclop::scaledEpilogue(linalg::LinalgOp product) {
  linalg::GenericOp epilogue = soleConsumer(product);
  return epilogue && isScaledGemmEpilogue(epilogue) ? epilogue : linalg::GenericOp();
}

bool mlir::aclop::isPlainProduct(linalg::LinalgOp product) {
  if (product->getNumResults() != 1 || product.getNumDpsInits() != 1 || scaledEpilogue(product)) return false;
  auto fill = product.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  return fill && isZeroConstant(fill.value());
}

linalg::GenericOp mlir::aclop::biasEpilogue(linalg::LinalgOp product) {
  if (!isPlainProduct(product)) return {};
  linalg::GenericOp epilogue = soleConsumer(product);
  return epilogue && isBiasEpilogue(epilogue) ? epilogue : linalg::GenericOp();
}

linalg::GenericOp mlir::aclop::registerTileEpilogue(linalg::LinalgOp product) {
  if (linalg::GenericOp scaled = scaledEpilogue(product)) return scaled;
  return biasEpilogue(product);
}

linalg::GenericOp mlir::aclop::ukernelEpilogue(linalg::LinalgOp product) {
  if (linalg::GenericOp epilogue = registerTileEpilogue(product)) return epilogue;
  if (product.getNumLoops() != 3 || !isPlainProduct(product)) return {};
  linalg::GenericOp epilogue = soleConsumer(product);
  return epilogue && isRowBiasEpilogue(epilogue) ? epilogue : linalg::GenericOp();
}

std::optional<int64_t> mlir::aclop::evenlySharedRowTile(int64_t rows, int64_t most, int64_t multiple) {
  if (ShapedType::isDynamic(rows) || rows % 2 != 0) return std::nullopt;
  for (int64_t tile = most / multiple * multiple; tile >= most / 2 && tile > 0; tile -= multiple)
    if (rows / 2 % tile == 0) return tile;
  return std::nullopt;
}

bool mlir::aclop::fitsFusedRegisterTiles(linalg::LinalgOp product) {
  // GEMM's epilogue over (m, n); a plain product, with a bias or not, may have a batch loop too.
  unsigned loops = product.getNumLoops();
  if (scaledEpilogue(product) ? loops != 3 : !isPlainProduct(product) || (loops != 3 && loops != 4)) return false;
  if (!llvm::all_of(product->getOperands(), isF32)) return false;
  SmallVector<int64_t> ranges = product.getStaticLoopRanges();  // (batch?, m, k, n)
  // (A dynamic batch keeps the ukernel, which splits a single matrix's rows among blocks.)
  if (ShapedType::isDynamic(ranges[0])) return false;
  return isWholeRegisterTiles(product) && ranges[loops - 2] * ranges[loops - 1] <= kMaxSweptElements;
}
