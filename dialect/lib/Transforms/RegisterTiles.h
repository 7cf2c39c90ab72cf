//===- RegisterTiles.h - Which products generated register tiles take -----------===//
//
// The generated register tiles of an f32 product, and the facts about a product's operands
// that both aclop-select-strategy (generated tiles or a ukernel) and aclop-tile-and-vectorize
// (how to tile) decide by.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::aclop {

// The register tile of an f32 product: 8 rows x 32 columns (two 512-bit vectors) accumulate
// over k one step at a time: 16 accumulators, 8 broadcasts and 2 loads per 16 FMAs once
// aclop-lower-register-tiles has hoisted the accumulators out of the k loop.
constexpr int64_t kRegisterRows = 8, kRegisterColumns = 32;

// True if a product's (batch?, m, k, n) loops are static and its rows and columns whole register
// tiles.
bool isWholeRegisterTiles(linalg::LinalgOp product);

// True if a product's A is stored (k, m) / its B is stored (n, k): the operand's last dim is
// the product's rows / its depth.
bool storesATransposed(linalg::LinalgOp product);
bool storesBTransposed(linalg::LinalgOp product);

// GEMM's alpha/beta epilogue if it is the only user of a product's result.
linalg::GenericOp scaledEpilogue(linalg::LinalgOp product);

// True if a product's result is its accumulator's zero fill plus the product alone, with no
// GEMM epilogue: MatMul's and BatchMatMul's.
bool isPlainProduct(linalg::LinalgOp product);

// A plain product's bias add over n (MatMulV2's and BatchMatMulV2's with a bias: result = acc +
// bias[n], all f32) if it is the only user of the product's result.
linalg::GenericOp biasEpilogue(linalg::LinalgOp product);

// The epilogue generated register tiles compute before they store: GEMM's scaled one, or a
// bias add (biasEpilogue); null for a plain product without one.
linalg::GenericOp registerTileEpilogue(linalg::LinalgOp product);

// The epilogue a ukernel computes with the product (aclop-call-ukernels): registerTileEpilogue's,
// or a 2-D plain product's bias along its rows (isRowBiasEpilogue).
linalg::GenericOp ukernelEpilogue(linalg::LinalgOp product);

// Rows for the tiles that blocks divide (in steps of whole tiles), at most `most`: the most rows,
// a multiple of `multiple` and at least half of `most`, that half of `rows` is a whole number of,
// so that two blocks get equal shares (the runtime rounds each block's share down to whole
// tiles: 196 rows in tiles of 64 gave one block 64 rows and the other 132); none if none is.
std::optional<int64_t> evenlySharedRowTile(int64_t rows, int64_t most, int64_t multiple);

// True if an f32 product can run whole inside generated register tiles, from the accumulator's
// zeroing through its epilogue if it has one (registerTileEpilogue) to the result: 2-D (a plain
// product may have a static batch too), static, whole 8 x 32 tiles, and B small enough for
// every row strip to sweep it.
bool fitsFusedRegisterTiles(linalg::LinalgOp product);

} // namespace mlir::aclop
