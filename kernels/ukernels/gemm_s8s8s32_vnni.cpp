// The s8 x s8 -> s32 GEMM tile on AVX512-VNNI. This file is compiled with AVX-512 flags and
// must stay free of inline library code (std containers, algorithms): an inline function
// instantiated here could be the copy the linker keeps for the whole library, and run on a
// CPU without AVX-512. Everything it calls from outside is in ukernels.cpp.
//
// vpdpbusd multiplies unsigned bytes by signed bytes, four at a time, into 32-bit lanes. A is
// packed biased (a + 128 as u8) and the bias is removed at the end: sum (a + 128) b = sum a b +
// 128 sum b, so each column subtracts 128 x its column sum (computed by the same instruction).
#include "ukernels.h"

#include "vector_avx512.h"
#include "epilogue.h"
#include "intrinsics.h"

namespace {

constexpr int64_t kRows = 8;        // rows of a register tile
constexpr int64_t kLanes = 16;      // i32 lanes of a zmm: the columns of one packed block
constexpr int64_t kQuad = 4;        // depth steps one vpdpbusd consumes
constexpr int64_t kRowChunk = 128;  // rows of A packed at a time
constexpr int64_t kRowBand = 2 * kRowChunk;  // rows through the whole depth at a time (C: 256 x 512 i32, L2)
constexpr int64_t kDepthChunk = 512;  // depth of a packed panel (a multiple of kQuad)
constexpr int64_t kDeepChunk = 2048;  // ... when packed ahead with a 2 MiB L2 (gemm)
constexpr int64_t kColumnChunk = 512;  // columns of a packed panel (512 x 512 bytes: L2)

int64_t quads(int64_t depth) { return (depth + kQuad - 1) / kQuad; }

// vpdpbusd through inline assembly: GCC's builtin ties the accumulator to zmm0-15 (the
// AVX-VNNI encoding's registers), so a 16-accumulator tile spent one register copy per
// instruction; written out, all 32 registers are available.
inline __m512i dotBytes(__m512i accumulator, __m512i unsignedBytes, __m512i signedBytes) {
  asm("vpdpbusd %2, %1, %0" : "+v"(accumulator) : "v"(unsignedBytes), "v"(signedBytes));
  return accumulator;
}

// One quad (four rows of B) of four blocks (64 columns): the bytes of each column's four rows
// become adjacent (byte, then word interleaves within 128-bit lanes, which leaves lane L of
// each result holding columns of block L), then a 4x4 transpose of 128-bit lanes puts each
// block's 64 bytes together.
void packQuadOfFourBlocks(const int8_t *row, int64_t depthStride, int8_t *out, int64_t blockBytes) {
  __m512i r0 = _mm512_loadu_si512(row), r1 = _mm512_loadu_si512(row + depthStride);
  __m512i r2 = _mm512_loadu_si512(row + 2 * depthStride), r3 = _mm512_loadu_si512(row + 3 * depthStride);
  __m512i t0 = _mm512_unpacklo_epi8(r0, r1), t1 = _mm512_unpackhi_epi8(r0, r1);
  __m512i t2 = _mm512_unpacklo_epi8(r2, r3), t3 = _mm512_unpackhi_epi8(r2, r3);
  __m512i u0 = _mm512_unpacklo_epi16(t0, t2), u1 = _mm512_unpackhi_epi16(t0, t2);  // columns 0-3, 4-7
  __m512i u2 = _mm512_unpacklo_epi16(t1, t3), u3 = _mm512_unpackhi_epi16(t1, t3);  // columns 8-11, 12-15
  __m512i v0 = _mm512_shuffle_i32x4(u0, u1, 0x44), v1 = _mm512_shuffle_i32x4(u2, u3, 0x44);
  __m512i v2 = _mm512_shuffle_i32x4(u0, u1, 0xee), v3 = _mm512_shuffle_i32x4(u2, u3, 0xee);
  _mm512_storeu_si512(out, _mm512_shuffle_i32x4(v0, v1, 0x88));
  _mm512_storeu_si512(out + blockBytes, _mm512_shuffle_i32x4(v0, v1, 0xdd));
  _mm512_storeu_si512(out + 2 * blockBytes, _mm512_shuffle_i32x4(v2, v3, 0x88));
  _mm512_storeu_si512(out + 3 * blockBytes, _mm512_shuffle_i32x4(v2, v3, 0xdd));
}

// B[depth x columns] -> blocks of 16 columns, each [quad][column][4 depth steps], zero-padded
// in both directions (a zero b contributes nothing whatever a is).
void packB(const int8_t *b, int64_t depthStride, int64_t columnStride, int64_t depth, int64_t columns,
           int8_t *packed) {
  const int64_t depthQuads = quads(depth), blocks = (columns + kLanes - 1) / kLanes;
  const int64_t blockBytes = depthQuads * kLanes * kQuad, fullQuads = depth / kQuad;
  int64_t block = 0;
  if (columnStride == 1)
    for (; (block + 4) * kLanes <= columns; block += 4)
      for (int64_t q = 0; q < fullQuads; ++q)
        packQuadOfFourBlocks(b + q * kQuad * depthStride + block * kLanes, depthStride,
                             packed + block * blockBytes + q * kLanes * kQuad, blockBytes);
  // The rest element by element: ragged columns and depth, other strides.
  for (int64_t first = 0; first < blocks; ++first) {
    const int64_t fromQuad = first < block ? fullQuads : 0;
    int8_t *out = packed + first * blockBytes;
    for (int64_t q = fromQuad; q < depthQuads; ++q)
      for (int64_t j = 0; j < kLanes; ++j) {
        const int64_t column = first * kLanes + j;
        for (int64_t t = 0; t < kQuad; ++t) {
          const int64_t k = q * kQuad + t;
          out[(q * kLanes + j) * kQuad + t] =
              column < columns && k < depth ? b[k * depthStride + column * columnStride] : static_cast<int8_t>(0);
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

// 128 x the column sums of each block of a packed panel, as vpdpbusd computes them (0x80 bytes
// are 128): what A's bias adds to every sum of a column. Computed once per packed panel (per
// row chunk, with one accumulator, it was ~5% of 2048^3), four accumulators deep.
void biasCorrections(const int8_t *panel, int64_t blocks, int64_t depthQuads, __m512i *corrections) {
  const __m512i bias = _mm512_set1_epi8(static_cast<char>(0x80));
  const int64_t blockBytes = depthQuads * kLanes * kQuad;
  for (int64_t block = 0; block < blocks; ++block) {
    const int8_t *quad = panel + block * blockBytes;
    __m512i sum[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
    int64_t q = 0;
    for (; q + 4 <= depthQuads; q += 4)
      for (int t = 0; t < 4; ++t) sum[t] = dotBytes(sum[t], bias, _mm512_loadu_si512(quad + (q + t) * kLanes * kQuad));
    for (; q < depthQuads; ++q) sum[0] = dotBytes(sum[0], bias, _mm512_loadu_si512(quad + q * kLanes * kQuad));
    corrections[block] = _mm512_add_epi32(_mm512_add_epi32(sum[0], sum[1]), _mm512_add_epi32(sum[2], sum[3]));
  }
}

// rows (<= 8) x blocks (1 or 2) x 16 columns of the packed product to `out`, the last block's
// columns masked by `lastMask`.
template <int Rows, int Blocks>
void registerTile(const uint32_t *a, int64_t aRowStride, const int8_t *b, int64_t bBlockStride, int64_t depthQuads,
                  const __m512i *correction, __mmask16 lastMask, const Destination<int32_t> &out) {
  __m512i acc[Rows][Blocks];
  for (int r = 0; r < Rows; ++r)
    for (int v = 0; v < Blocks; ++v) acc[r][v] = _mm512_setzero_si512();
  for (int64_t q = 0; q < depthQuads; ++q) {
    __m512i bv[Blocks];
    for (int v = 0; v < Blocks; ++v) bv[v] = _mm512_loadu_si512(b + v * bBlockStride + q * kLanes * kQuad);
    for (int r = 0; r < Rows; ++r) {
      __m512i av = _mm512_set1_epi32(static_cast<int>(a[r * aRowStride + q]));
      for (int v = 0; v < Blocks; ++v) acc[r][v] = dotBytes(acc[r][v], av, bv[v]);
    }
  }
  for (int r = 0; r < Rows; ++r)
    for (int v = 0; v < Blocks; ++v)
      out.put(r, v * kLanes, _mm512_sub_epi32(acc[r][v], correction[v]),
              v == Blocks - 1 ? lastMask : kAllLanes);
}

template <int Blocks>
void registerTileRows(int64_t rows, const uint32_t *a, int64_t aRowStride, const int8_t *b, int64_t bBlockStride,
                      int64_t depthQuads, const __m512i *correction, __mmask16 lastMask,
                      const Destination<int32_t> &out) {
  switch (rows) {
#define ACLCPU_ROWS(n) \
  case n: return registerTile<n, Blocks>(a, aRowStride, b, bBlockStride, depthQuads, correction, lastMask, out);
    ACLCPU_ROWS(1) ACLCPU_ROWS(2) ACLCPU_ROWS(3) ACLCPU_ROWS(4) ACLCPU_ROWS(5) ACLCPU_ROWS(6) ACLCPU_ROWS(7)
    ACLCPU_ROWS(8)
#undef ACLCPU_ROWS
  }
}

}  // namespace

extern "C" void aclcpu_ukernel_gemm_s8s8s32_vnni(ACLCPU_GEMM_UKERNEL_PARAMETERS(int8_t, int32_t)) {
  if (rows <= 0 || columns <= 0) return;
  a += aOffset;
  b += bOffset;
  c += cOffset;
  const auto epilogue = Epilogue<int32_t>::of(ACLCPU_GEMM_EPILOGUE_ARGUMENTS);
  if (depth <= 0) {  // an empty product: the epilogue alone
    if (epilogue.scaled()) epilogue.finish(nullptr, 0, c, cRowStride, rows, columns);
    return;
  }
  // Several bands reuse a column panel: its whole depth is packed ahead, once. One band packs
  // each depth chunk just before it uses it, while it is in L2 (128 x 4096 x 4096: 412 GOP/s
  // ahead, 524 just in time).
  const bool packAhead = rows > kRowBand;
  // Packed ahead with an L2 of 1 MiB or more, depth chunks are 2048 deep: each chunk costs every
  // register tile a read-modify-write of C (as in the f32 ukernel's Blocking): 2 MiB L2, 2048^3
  // 560 -> 587 GOP/s, 1024^3 600 -> 614; Zen 5 (1 MiB L2) 2048^3 730 -> 809, 1024^3 +2%. Packed
  // just in time they stay 512 (2048 lost 1-4% at 128 x 4096 x 4096).
  const int64_t depthChunk = packAhead && aclcpu::ukernelL2Bytes() >= aclcpu::kLargeL2Bytes ? kDeepChunk : kDepthChunk;
  const int64_t panelBlocks = ((columns < kColumnChunk ? columns : kColumnChunk) + kLanes - 1) / kLanes;
  const int64_t chunkQuads = quads(depth < depthChunk ? depth : depthChunk);
  const int64_t chunkRows = rows < kRowChunk ? rows : kRowChunk;
  const int64_t panelBytes = panelBlocks * chunkQuads * kLanes * kQuad;  // one depth chunk of a column panel
  const int64_t depthChunks = (depth + depthChunk - 1) / depthChunk;
  int8_t *packedB = reinterpret_cast<int8_t *>(aclcpu::ukernelScratch(0, (packAhead ? depthChunks : 1) * panelBytes));
  auto *packedA = reinterpret_cast<uint32_t *>(aclcpu::ukernelScratch(1, chunkRows * chunkQuads * kQuad));
  // Each packed depth chunk's bias corrections, one vector per block (64-byte aligned scratch).
  auto *corrections = reinterpret_cast<__m512i *>(
      aclcpu::ukernelScratch(2, (packAhead ? depthChunks : 1) * panelBlocks * static_cast<int64_t>(sizeof(__m512i))));
  for (int64_t j0 = 0; j0 < columns; j0 += kColumnChunk) {
    const int64_t width = columns - j0 < kColumnChunk ? columns - j0 : kColumnChunk;
    const int64_t blocks = (width + kLanes - 1) / kLanes;
    for (int64_t k0 = 0; packAhead && k0 < depth; k0 += depthChunk) {
      const int64_t slice = depth - k0 < depthChunk ? depth - k0 : depthChunk;
      packB(b + k0 * bDepthStride + j0 * bColumnStride, bDepthStride, bColumnStride, slice, width,
            packedB + k0 / depthChunk * panelBytes);
      biasCorrections(packedB + k0 / depthChunk * panelBytes, blocks, quads(slice),
                      corrections + k0 / depthChunk * panelBlocks);
    }
    // Bands of rows, each through the whole depth: the band's C panel stays in L2 meanwhile.
    for (int64_t band0 = 0; band0 < rows; band0 += kRowBand) {
      const int64_t bandEnd = rows - band0 < kRowBand ? rows : band0 + kRowBand;
      for (int64_t k0 = 0; k0 < depth; k0 += depthChunk) {
        const int64_t slice = depth - k0 < depthChunk ? depth - k0 : depthChunk;
        const int64_t depthQuads = quads(slice), blockBytes = depthQuads * kLanes * kQuad;
        const Destination<int32_t> out = epilogue.chunk(k0 == 0, c, cRowStride, j0);
        const int8_t *packedPanel = packAhead ? packedB + k0 / depthChunk * panelBytes : packedB;
        const __m512i *panelCorrections = packAhead ? corrections + k0 / depthChunk * panelBlocks : corrections;
        if (!packAhead) {
          packB(b + k0 * bDepthStride + j0 * bColumnStride, bDepthStride, bColumnStride, slice, width, packedB);
          biasCorrections(packedB, blocks, depthQuads, corrections);
        }
        for (int64_t row0 = band0; row0 < bandEnd; row0 += kRowChunk) {
          const int64_t chunk = bandEnd - row0 < kRowChunk ? bandEnd - row0 : kRowChunk;
          packA(a + row0 * aRowStride + k0 * aDepthStride, aRowStride, aDepthStride, chunk, slice,
                reinterpret_cast<uint8_t *>(packedA));
          // Column pairs of blocks outside, rows inside: the pair's packed B (depth x 32 bytes x 4)
          // stays in L1 while the chunk's rows stream past it.
          for (int64_t block = 0; block < blocks; block += 2) {
            const int64_t pair = blocks - block >= 2 ? 2 : 1;
            const __mmask16 lastMask = firstLanes(width - (block + pair - 1) * kLanes);
            const int8_t *panel = packedPanel + block * blockBytes;
            const __m512i *correction = panelCorrections + block;  // pair == 1: the second is not read
            for (int64_t row = 0; row < chunk; row += kRows) {
              const int64_t tileRows = chunk - row < kRows ? chunk - row : kRows;
              const uint32_t *aTile = packedA + row * depthQuads;
              const Destination<int32_t> tile = out.at(row0 + row, block * kLanes);
              if (pair == 2)
                registerTileRows<2>(tileRows, aTile, depthQuads, panel, blockBytes, depthQuads, correction,
                                    lastMask, tile);
              else
                registerTileRows<1>(tileRows, aTile, depthQuads, panel, blockBytes, depthQuads, correction,
                                    lastMask, tile);
            }
          }
        }
      }
    }
  }
}
