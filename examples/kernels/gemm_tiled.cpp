// C = A * B (row-major, fp32, M x K times K x N): the output is cut into 32 x 64 tiles and the
// blocks stride over the tiles; each tile is accumulated over K in panels of 128.
#include "aclcpu/kernel.h"

namespace {
constexpr uint32_t kTileM = 32, kTileN = 64, kPanelK = 128;

inline uint32_t minimum(uint32_t a, uint32_t b) { return a < b ? a : b; }
}  // namespace

ACLCPU_KERNEL(gemm_custom, const float *a, const float *b, float *c, uint32_t m, uint32_t n, uint32_t k) {
  uint32_t tilesM = (m + kTileM - 1) / kTileM, tilesN = (n + kTileN - 1) / kTileN;
  for (uint64_t tile = GetBlockIdx(); tile < uint64_t(tilesM) * tilesN; tile += GetBlockNum()) {
    uint32_t row0 = uint32_t(tile / tilesN) * kTileM, col0 = uint32_t(tile % tilesN) * kTileN;
    uint32_t rows = minimum(kTileM, m - row0), cols = minimum(kTileN, n - col0);
    float accumulator[kTileM][kTileN] = {};
    for (uint32_t p0 = 0; p0 < k; p0 += kPanelK) {
      uint32_t depth = minimum(kPanelK, k - p0);
      for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t p = 0; p < depth; ++p) {
          float aValue = a[uint64_t(row0 + i) * k + p0 + p];
          const float *bRow = b + uint64_t(p0 + p) * n + col0;
          for (uint32_t j = 0; j < cols; ++j) accumulator[i][j] += aValue * bRow[j];
        }
    }
    for (uint32_t i = 0; i < rows; ++i)
      for (uint32_t j = 0; j < cols; ++j) c[uint64_t(row0 + i) * n + col0 + j] = accumulator[i][j];
  }
}
