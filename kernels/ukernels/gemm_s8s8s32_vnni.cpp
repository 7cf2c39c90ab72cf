// The s8 x s8 -> s32 GEMM tile on AVX512-VNNI. This file is compiled with AVX-512 flags and
// must stay free of inline library code (std containers, algorithms): an inline function
// instantiated here could be the copy the linker keeps for the whole library, and run on a
// CPU without AVX-512. Everything it calls from outside is in ukernels.cpp.
//
// vpdpbusd multiplies unsigned bytes by signed bytes, four at a time, into 32-bit lanes. A is
// packed biased (a + 128 as u8) and the bias is removed at the end: sum (a + 128) b = sum a b +
// 128 sum b, so each column subtracts 128 x its column sum (computed by the same instruction).
#include "ukernels.h"

#include <immintrin.h>

namespace {

constexpr int64_t kRows = 8;        // rows of a register tile
constexpr int64_t kLanes = 16;      // i32 lanes of a zmm: the columns of one packed block
constexpr int64_t kQuad = 4;        // depth steps one vpdpbusd consumes

int64_t quads(int64_t depth) { return (depth + kQuad - 1) / kQuad; }

// B[depth x columns] -> blocks of 16 columns, each [quad][column][4 depth steps], zero-padded
// in both directions (a zero b contributes nothing whatever a is).
void packB(const int8_t *b, int64_t depthStride, int64_t columnStride, int64_t depth, int64_t columns,
           int8_t *packed) {
  const int64_t depthQuads = quads(depth), blocks = (columns + kLanes - 1) / kLanes;
  for (int64_t block = 0; block < blocks; ++block) {
    int8_t *out = packed + block * depthQuads * kLanes * kQuad;
    const int64_t column0 = block * kLanes;
    const bool fullColumns = column0 + kLanes <= columns;
    for (int64_t q = 0; q < depthQuads; ++q, out += kLanes * kQuad) {
      const int64_t k0 = q * kQuad;
      if (fullColumns && columnStride == 1 && k0 + kQuad <= depth) {
        // Four rows of 16 bytes interleaved into 16 columns of 4 bytes.
        const int8_t *row = b + k0 * depthStride + column0;
        __m128i r0 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(row));
        __m128i r1 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(row + depthStride));
        __m128i r2 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(row + 2 * depthStride));
        __m128i r3 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(row + 3 * depthStride));
        __m128i low01 = _mm_unpacklo_epi8(r0, r1), high01 = _mm_unpackhi_epi8(r0, r1);
        __m128i low23 = _mm_unpacklo_epi8(r2, r3), high23 = _mm_unpackhi_epi8(r2, r3);
        __m128i *dst = reinterpret_cast<__m128i *>(out);
        _mm_storeu_si128(dst + 0, _mm_unpacklo_epi16(low01, low23));
        _mm_storeu_si128(dst + 1, _mm_unpackhi_epi16(low01, low23));
        _mm_storeu_si128(dst + 2, _mm_unpacklo_epi16(high01, high23));
        _mm_storeu_si128(dst + 3, _mm_unpackhi_epi16(high01, high23));
        continue;
      }
      for (int64_t j = 0; j < kLanes; ++j) {
        const int64_t column = column0 + j;
        for (int64_t t = 0; t < kQuad; ++t) {
          const int64_t k = k0 + t;
          out[j * kQuad + t] =
              column < columns && k < depth ? b[k * depthStride + column * columnStride] : static_cast<int8_t>(0);
        }
      }
    }
  }
}

// A[rows x depth] -> rows of depth quads (u32), each byte biased by 128. The padding is
// irrelevant (B is zero there); it is written as a zero a.
void packA(const int8_t *a, int64_t rowStride, int64_t depthStride, int64_t rows, int64_t depth, uint8_t *packed) {
  const int64_t paddedDepth = quads(depth) * kQuad;
  const __m512i bias = _mm512_set1_epi8(static_cast<char>(0x80));
  for (int64_t r = 0; r < rows; ++r) {
    const int8_t *row = a + r * rowStride;
    uint8_t *out = packed + r * paddedDepth;
    int64_t k = 0;
    if (depthStride == 1)
      for (; k + 64 <= depth; k += 64)
        _mm512_storeu_si512(out + k, _mm512_xor_si512(_mm512_loadu_si512(row + k), bias));
    for (; k < paddedDepth; ++k)
      out[k] = static_cast<uint8_t>((k < depth ? row[k * depthStride] : 0) ^ 0x80);
  }
}

// 128 x the column sums of a packed block, as vpdpbusd computes them (0x80 bytes are 128).
__m512i biasCorrection(const int8_t *packedBlock, int64_t depthQuads) {
  const __m512i bias = _mm512_set1_epi8(static_cast<char>(0x80));
  __m512i sum = _mm512_setzero_si512();
  for (int64_t q = 0; q < depthQuads; ++q)
    sum = _mm512_dpbusd_epi32(sum, bias, _mm512_loadu_si512(packedBlock + q * kLanes * kQuad));
  return sum;
}

// rows (<= 8) x blocks (1 or 2) x 16 columns of C += the packed product, the last block's
// columns masked by `lastMask`.
template <int Rows, int Blocks>
void registerTile(const uint32_t *a, int64_t aRowStride, const int8_t *b, int64_t bBlockStride, int64_t depthQuads,
                  const __m512i *correction, __mmask16 lastMask, int32_t *c, int64_t cRowStride) {
  __m512i acc[Rows][Blocks];
  for (int r = 0; r < Rows; ++r)
    for (int v = 0; v < Blocks; ++v) acc[r][v] = _mm512_setzero_si512();
  for (int64_t q = 0; q < depthQuads; ++q) {
    __m512i bv[Blocks];
    for (int v = 0; v < Blocks; ++v) bv[v] = _mm512_loadu_si512(b + v * bBlockStride + q * kLanes * kQuad);
    for (int r = 0; r < Rows; ++r) {
      __m512i av = _mm512_set1_epi32(static_cast<int>(a[r * aRowStride + q]));
      for (int v = 0; v < Blocks; ++v) acc[r][v] = _mm512_dpbusd_epi32(acc[r][v], av, bv[v]);
    }
  }
  for (int r = 0; r < Rows; ++r)
    for (int v = 0; v < Blocks; ++v) {
      __mmask16 mask = v == Blocks - 1 ? lastMask : static_cast<__mmask16>(0xffff);
      int32_t *out = c + r * cRowStride + v * kLanes;
      __m512i sum = _mm512_add_epi32(_mm512_maskz_loadu_epi32(mask, out), _mm512_sub_epi32(acc[r][v], correction[v]));
      _mm512_mask_storeu_epi32(out, mask, sum);
    }
}

template <int Blocks>
void registerTileRows(int64_t rows, const uint32_t *a, int64_t aRowStride, const int8_t *b, int64_t bBlockStride,
                      int64_t depthQuads, const __m512i *correction, __mmask16 lastMask, int32_t *c,
                      int64_t cRowStride) {
  switch (rows) {
#define ACLCPU_ROWS(n) \
  case n: return registerTile<n, Blocks>(a, aRowStride, b, bBlockStride, depthQuads, correction, lastMask, c, cRowStride);
    ACLCPU_ROWS(1) ACLCPU_ROWS(2) ACLCPU_ROWS(3) ACLCPU_ROWS(4) ACLCPU_ROWS(5) ACLCPU_ROWS(6) ACLCPU_ROWS(7)
    ACLCPU_ROWS(8)
#undef ACLCPU_ROWS
  }
}

}  // namespace

extern "C" void aclcpu_ukernel_gemm_s8s8s32_vnni(const int8_t *a, int64_t aOffset, int64_t aRowStride,
                                                 int64_t aDepthStride, const int8_t *b, int64_t bOffset,
                                                 int64_t bDepthStride, int64_t bColumnStride, int32_t *c,
                                                 int64_t cOffset, int64_t cRowStride, int64_t rows, int64_t columns,
                                                 int64_t depth) {
  if (rows <= 0 || columns <= 0 || depth <= 0) return;
  const int64_t depthQuads = quads(depth), blocks = (columns + kLanes - 1) / kLanes;
  const int64_t blockBytes = depthQuads * kLanes * kQuad;
  int8_t *packedB = reinterpret_cast<int8_t *>(aclcpu::ukernelScratch(0, blocks * blockBytes));
  auto *packedA = reinterpret_cast<uint32_t *>(aclcpu::ukernelScratch(1, rows * depthQuads * kQuad));
  packB(b + bOffset, bDepthStride, bColumnStride, depth, columns, packedB);
  packA(a + aOffset, aRowStride, aDepthStride, rows, depth, reinterpret_cast<uint8_t *>(packedA));
  c += cOffset;
  // Column pairs of blocks outside, rows inside: the pair's packed B (depth x 32 bytes x 4)
  // stays in L1 while every row of A streams past it.
  for (int64_t block = 0; block < blocks; block += 2) {
    const int64_t pair = blocks - block >= 2 ? 2 : 1;
    const int64_t lastColumns = columns - (block + pair - 1) * kLanes;
    const __mmask16 lastMask =
        lastColumns >= kLanes ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << lastColumns) - 1);
    const int8_t *panel = packedB + block * blockBytes;
    __m512i correction[2] = {biasCorrection(panel, depthQuads),
                             pair == 2 ? biasCorrection(panel + blockBytes, depthQuads) : _mm512_setzero_si512()};
    for (int64_t row = 0; row < rows; row += kRows) {
      const int64_t tileRows = rows - row < kRows ? rows - row : kRows;
      const uint32_t *aTile = packedA + row * depthQuads;
      int32_t *cTile = c + row * cRowStride + block * kLanes;
      if (pair == 2)
        registerTileRows<2>(tileRows, aTile, depthQuads, panel, blockBytes, depthQuads, correction, lastMask, cTile,
                            cRowStride);
      else
        registerTileRows<1>(tileRows, aTile, depthQuads, panel, blockBytes, depthQuads, correction, lastMask, cTile,
                            cRowStride);
    }
  }
}
