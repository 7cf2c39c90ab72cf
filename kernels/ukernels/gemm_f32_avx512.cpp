// The f32-accumulating GEMM tile on AVX-512, for f32, f16 and bf16 operands (the narrow ones
// widen as they are packed; bf16 on AVX512-BF16 instead packs both operands as pairs along k for
// vdpbf16ps, PackedPairs, in the same scheme). Like the VNNI file, this one is compiled with
// AVX-512 flags and must stay free of inline library code; see gemm_s8s8s32_vnni.cpp.
//
// GotoBLAS's scheme within one call, which covers a tile of rows across every column and the
// whole depth (sizes: Blocking): for each column panel, B is packed once, in depth chunks, into
// 32-column micro-panels ([block][k][32], zero-padded; all chunks ahead when several bands of
// rows reuse them, else each just before its use); bands of rows go through the depth chunks,
// A is packed in chunks of 132 rows into 12-row micro-panels ([block][k][12]), and a 12 x 32
// register tile (24 accumulators) runs over a chunk with its micro-panel of B in L1 or L2
// while the rows of A stream past it from L2. Products of up to 48 rows (f32) or 24 (bf16 pairs)
// with B's rows contiguous read B in place instead, its chunks prefetched ahead
// (streamedProduct), and products of up to 4 rows stream it row by row (fewRows), or read a
// constant B's kept panels several micro-panels at a time (SideBySide). One band of 48-132 rows
// packs B's next chunk during the tiles of the one before (PanelShare).
#include "ukernels.h"

#include "const_panels.h"
#include "vector_avx512.h"
#include "epilogue.h"
#include "intrinsics.h"

#include <cstdint>
#include <type_traits>
#include <utility>

namespace {

constexpr int64_t kRows = 12;       // rows of a register tile
constexpr int64_t kColumns = 32;    // columns of a register tile: two zmm
constexpr int64_t kRowChunk = 132;  // rows of A packed at a time (L2; Blocking); whole micro-panels
constexpr int64_t kFewRows = 4;        // up to this many rows, B is not packed
constexpr int64_t kMostDuringBlocks = 16;  // widest panel (in micro-panels) packed during tiles
// Fewest rows whose tiles pack the next chunk of B (gemm; on CPUs where that pays,
// ukernelPacksDuringTiles). Below, packing during tiles gained where B streams from memory and
// lost where it sits in L3 (Zen 5: bf16 25 and 36 x 4096 x 4096 +6%, 40 x 2048 x 2048 +10%, but
// 30 and 40 x 1000 x 1000 -6%, f16 8-32 rows even); from 48 rows it gains on both (bf16 48 x
// 4096 x 4096 +24%, 130 x 1000 x 1001 +1%).
constexpr int64_t kPackDuringRows = 48;
constexpr int64_t kInPlaceElements = 16384;  // products this small read A and B unpacked (inPlace)
constexpr int64_t kRoundedAElements = int64_t{64} << 10;  // f16/f32 A rounded to bf16 whole (gemm): 128 KiB

// How a call divides the product. With an L2 of 1 MiB or more: depth chunks of up to 4096
// (split evenly, in multiples of 16), column panels as wide as 4M packed floats of B allow
// (at least 512), 132-row bands. Each depth chunk costs a read-modify-write of C per register
// tile, and with 256-deep chunks those cost ~7% at 1024^3 (writing C without reading it was
// 6-8% faster); a 1024-deep micro-panel of B (128 KiB) no longer fits L1 but streams from L2,
// with the next one prefetched (PackedPanels). Wider panels pack A fewer times. 1024 deep
// against 256-deep chunks and 1024-column panels, 1 thread, 2 MiB L2: 1024^3 149 -> 156 GF/s,
// 2048^3 151 -> 163, 1000^3 147 -> 152, 1023x777x513 142 -> 150, NT/TN 1024^3 +4-5%; on a
// Zen 5 core (1 MiB L2, 48 KiB L1): 1024^3 199 -> 207, 2048^3 164 -> 191, 1000^3 +4%,
// 1023x777x513 +7%, 1024^3 NT/TN/TT +7-10%. Deeper still, A's chunk (132 x depth) leaves L2
// for L3, whose twelve row streams the prefetchers keep up with, while the band's C panel is
// no longer read back from L3 once a chunk (1 MiB at 2048 columns): 4096 against 1024 deep,
// Zen 5, paired calls: 2048^3 +2.8%, 3072^3 +3.8%, 4096^3 +2.8%, 1024^3 and below the same.
// Smaller L2s keep the layout the sizes were first chosen for: 256 deep (a micro-panel of B,
// 32 KiB, in L1), 512 columns, 264-row bands (B's chunk 512 KiB, the band's C panel 528 KiB,
// A's chunk 132 KiB).
// Products of one band (rows <= 132) pack each depth chunk of B just before the tiles read it
// (from 48 rows, with B's rows contiguous, during the tiles of the chunk before: PanelShare):
// their panels are 256 columns, and their chunks at most half the L2 deep (1024 with 2 MiB,
// 512 with 1 MiB), so that chunk is still in L2 when read (4M-float panels left it in L3:
// M = 16, N = K = 4096 53 -> 60 GF/s, M = 128 130 -> 134; 1024 deep with 1 MiB: M = 16 -6%).
struct Blocking {
  int64_t depthChunk, columnChunk, rowBand;
};
constexpr int64_t kDeepChunk = 4096;
constexpr int64_t kJustInTimeDeepChunk = 1024;
constexpr int64_t kPackedBFloats = int64_t{4} << 20;
constexpr int64_t kJustInTimeColumns = 256;
constexpr int64_t kKeptAFloats = int64_t{4} << 20;  // A packed once for all column panels: 16 MiB at most
Blocking blocking(int64_t rows, int64_t depth) {  // depth > 0
  const int64_t l2Bytes = aclcpu::ukernelL2Bytes();
  if (l2Bytes < aclcpu::kLargeL2Bytes) return Blocking{256, 512, 2 * kRowChunk};
  const bool justInTime = rows <= kRowChunk;
  const int64_t justInTimeDepth = l2Bytes / 2 / (kJustInTimeColumns * int64_t{sizeof(float)});
  const int64_t deepest =
      !justInTime ? kDeepChunk : justInTimeDepth < kJustInTimeDeepChunk ? justInTimeDepth : kJustInTimeDeepChunk;
  const int64_t chunks = (depth + deepest - 1) / deepest;
  const int64_t depthChunk = ((depth + chunks - 1) / chunks + 15) / 16 * 16;
  if (justInTime) return Blocking{depthChunk, kJustInTimeColumns, kRowChunk};
  const int64_t columnChunk = kPackedBFloats / depth / kColumns * kColumns;
  return Blocking{depthChunk, columnChunk > 512 ? columnChunk : 512, kRowChunk};
}

struct Half {
  uint16_t bits;
};
struct BFloat {
  uint16_t bits;
};
template <class T>
constexpr bool kWidens = true;  // 16-bit operands widen to f32 as they are packed
template <>
constexpr bool kWidens<float> = false;

// Sixteen 16-bit values as f32.
__m512 widen(__m256i bits, const Half *) { return _mm512_cvtph_ps(bits); }
__m512 widen(__m256i bits, const BFloat *) {
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(bits), 16));
}

// Sixteen consecutive elements, or those of the lanes in a mask (zero elsewhere; nothing past
// them is touched), as f32.
__m512 load16(const float *p) { return _mm512_loadu_ps(p); }
template <class T>
__m512 load16(const T *p) { return widen(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)), p); }
__m512 loadLanes(const float *p, __mmask16 lanes) { return _mm512_maskz_loadu_ps(lanes, p); }
template <class T>
__m512 loadLanes(const T *p, __mmask16 lanes) { return widen(_mm256_maskz_loadu_epi16(lanes, p), p); }
template <class T>
__m512 load12(const T *p) { return loadLanes(p, 0x0fff); }
// Through memcpy: bf16 pairs are packed as f32 words (packBPairs), which need not be 4-byte aligned.
float load1(const float *p) {
  float value;
  __builtin_memcpy(&value, p, sizeof(value));
  return value;
}
float load1(const Half *p) { return _cvtsh_ss(p->bits); }
float load1(const BFloat *p) {
  uint32_t bits = static_cast<uint32_t>(p->bits) << 16;
  float value;
  __builtin_memcpy(&value, &bits, sizeof(value));
  return value;
}

// Four vectors of sixteen elements transposed within 128-bit lanes: lane L of u[j] holds the
// four vectors' elements 4L + j.
void transposeInLanes(__m512 r0, __m512 r1, __m512 r2, __m512 r3, __m512 u[4]) {
  const __m512 t0 = _mm512_unpacklo_ps(r0, r1), t1 = _mm512_unpackhi_ps(r0, r1);
  const __m512 t2 = _mm512_unpacklo_ps(r2, r3), t3 = _mm512_unpackhi_ps(r2, r3);
  u[0] = _mm512_shuffle_ps(t0, t2, 0x44);
  u[1] = _mm512_shuffle_ps(t0, t2, 0xee);
  u[2] = _mm512_shuffle_ps(t1, t3, 0x44);
  u[3] = _mm512_shuffle_ps(t1, t3, 0xee);
}

// Sixteen depth steps at a time of sixteen columns of B stored transposed (each column
// contiguous along k), into rows of a micro-panel: four groups of four columns transposed
// within lanes, then across lanes, give row k of the sixteen columns. Returns the depth steps
// done (the rest, under 16, is left to the caller). NT products packed B element by element.
template <class T>
int64_t transposeColumns(const T *b, int64_t columnStride, int64_t depth, float *out) {
  int64_t k0 = 0;
  for (; k0 + 16 <= depth; k0 += 16) {
    __m512 u[4][4];
    for (int64_t group = 0; group < 4; ++group) {
      const T *column = b + 4 * group * columnStride + k0;
      transposeInLanes(load16(column), load16(column + columnStride), load16(column + 2 * columnStride),
                       load16(column + 3 * columnStride), u[group]);
    }
    for (int64_t j = 0; j < 4; ++j) {  // lane L of the groups' u[j]: the sixteen columns at k = 4L + j
      const __m512 low01 = _mm512_shuffle_f32x4(u[0][j], u[1][j], 0x44);
      const __m512 high01 = _mm512_shuffle_f32x4(u[0][j], u[1][j], 0xee);
      const __m512 low23 = _mm512_shuffle_f32x4(u[2][j], u[3][j], 0x44);
      const __m512 high23 = _mm512_shuffle_f32x4(u[2][j], u[3][j], 0xee);
      _mm512_storeu_ps(out + (k0 + j) * kColumns, _mm512_shuffle_f32x4(low01, low23, 0x88));
      _mm512_storeu_ps(out + (k0 + 4 + j) * kColumns, _mm512_shuffle_f32x4(low01, low23, 0xdd));
      _mm512_storeu_ps(out + (k0 + 8 + j) * kColumns, _mm512_shuffle_f32x4(high01, high23, 0x88));
      _mm512_storeu_ps(out + (k0 + 12 + j) * kColumns, _mm512_shuffle_f32x4(high01, high23, 0xdd));
    }
  }
  return k0;
}

// Sends `bytes` of a row of B from `row` on into L1, for the packing to find there a few rows on.
void fetchRow(const void *row, int64_t bytes) {
  for (int64_t line = 0; line < bytes; line += 64) _mm_prefetch(static_cast<const char *>(row) + line, _MM_HINT_T0);
}

// 32 columns of a row of B, as f32, into a micro-panel's row (packB, and PanelShare during tiles).
template <class T>
__attribute__((always_inline)) inline void packBlockRow(const T *row, float *out) {
  _mm512_storeu_ps(out, load16(row));
  _mm512_storeu_ps(out + 16, load16(row + 16));
}

// B[depth x columns] -> 32-column micro-panels [block][k][32], zero-padded past `columns`.
template <class T>
void packB(const T *b, int64_t depthStride, int64_t columnStride, int64_t depth, int64_t columns, float *packed) {
  if (columnStride == 1) {
    // Row by row: B's rows are read in order, one stream the prefetchers follow (a block at a
    // time read 128 bytes from each of `depth` rows, a page apart): 1024^3 spent 2.8% of its
    // time here, 2.5% now. The ragged last block by masked loads (element by element it made
    // 13x77x1029 1.9x slower, 100x200x300 8%, 255^3 2%: paired calls). Each row is fetched
    // four rows ahead: a just-in-time panel's rows are 1 KiB runs 16 KiB apart at N = 4096,
    // which the prefetchers did not follow (M = 16, N = K = 4096 +13%, M = 128 +3%; T1, or 2,
    // 8 or 16 rows ahead, did less).
    constexpr int64_t kRowsAhead = 4;
    const int64_t wholeBlocks = columns / kColumns, rest = columns - wholeBlocks * kColumns;
    const __mmask16 low = firstLanes(rest), high = firstLanes(rest - 16);
    for (int64_t k = 0; k < depth; ++k) {
      const T *row = b + k * depthStride;
      if (k + kRowsAhead < depth) fetchRow(row + kRowsAhead * depthStride, columns * int64_t{sizeof(T)});
      for (int64_t whole = 0; whole < wholeBlocks; ++whole)
        packBlockRow(row + whole * kColumns, packed + (whole * depth + k) * kColumns);
      if (rest > 0) {
        float *out = packed + (wholeBlocks * depth + k) * kColumns;
        _mm512_storeu_ps(out, loadLanes(row + wholeBlocks * kColumns, low));
        _mm512_storeu_ps(out + 16, loadLanes(row + wholeBlocks * kColumns + 16, high));
      }
    }
    return;
  }
  const int64_t blocks = (columns + kColumns - 1) / kColumns;
  for (int64_t block = 0; block < blocks; ++block) {
    float *out = packed + block * depth * kColumns;
    const int64_t column0 = block * kColumns;
    const int64_t width = columns - column0 < kColumns ? columns - column0 : kColumns;
    // Other layouts; transposed (k contiguous) sixteen columns at a time. Ragged blocks and
    // what is left, column by column.
    int64_t done = 0;
    if (depthStride == 1 && width == kColumns) {
      done = transposeColumns(b + column0 * columnStride, columnStride, depth, out);
      transposeColumns(b + (column0 + 16) * columnStride, columnStride, depth, out + 16);
    }
    for (int64_t j = 0; j < kColumns; ++j) {
      const T *column = b + (column0 + j) * columnStride;
      for (int64_t k = done; k < depth; ++k) out[k * kColumns + j] = j < width ? load1(column + k * depthStride) : 0.0f;
    }
  }
}

// One micro-panel of f32 A by gathers (one per k: the rows' elements), `panelRows` (<= 16) wide,
// when the row offsets fit the gather's 32-bit indices. False if they do not, or for 16-bit
// elements (a 32-bit gather of them could read past the buffer).
bool gatherRows(const float *a, int64_t rowStride, int64_t depthStride, int64_t height, int64_t depth, float *out,
                int64_t panelRows) {
  if (rowStride * (panelRows - 1) > INT32_MAX) return false;
  const __m512i offsets = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                             _mm512_set1_epi32(static_cast<int>(rowStride)));
  const __mmask16 rows = firstLanes(height), lanes = firstLanes(panelRows);
  for (int64_t k = 0; k < depth; ++k) {
    __m512 values = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), rows, offsets, a + k * depthStride, 4);
    _mm512_mask_storeu_ps(out + k * panelRows, lanes, values);
  }
  return true;
}
bool gatherRows(const Half *, int64_t, int64_t, int64_t, int64_t, float *, int64_t) { return false; }
bool gatherRows(const BFloat *, int64_t, int64_t, int64_t, int64_t, float *, int64_t) { return false; }

// One micro-panel of A `panelRows` wide ([k][panelRows], the rows past `height` zero): by gathers
// where they can (gatherRows), else element by element.
template <class T>
void packPanelOfA(const T *rowsOfA, int64_t rowStride, int64_t depthStride, int64_t height, int64_t depth, float *out,
                  int64_t panelRows) {
  if (gatherRows(rowsOfA, rowStride, depthStride, height, depth, out, panelRows)) return;
  for (int64_t r = 0; r < panelRows; ++r)
    for (int64_t k = 0; k < depth; ++k)
      out[k * panelRows + r] = r < height ? load1(rowsOfA + r * rowStride + k * depthStride) : 0.0f;
}

// Sixteen depth steps at a time of a whole micro-panel `panelRows` wide (a multiple of 4) whose
// rows are contiguous along k, by 4 x 4 transposes: for each group of four rows, lane L of u[j]
// holds the four rows' elements at k = 4L + j, which is 16 bytes of the micro-panel. For f16 and
// bf16 (widened as they load) this replaced element-by-element packing: 1000^3 bf16 146 -> 155
// GF/s; for f32 it matches one gather per k (both wait on A's loads) where A comes from memory.
// Returns the depth steps done (the rest, under 16, is left to the caller).
template <class T>
int64_t transposeRows(const T *a, int64_t rowStride, int64_t depth, float *out, int64_t panelRows = kRows) {
  int64_t k0 = 0;
  for (; k0 + 16 <= depth; k0 += 16)
    for (int64_t group = 0; group < panelRows / 4; ++group) {
      const T *row = a + 4 * group * rowStride + k0;
      __m512 u[4];
      transposeInLanes(load16(row), load16(row + rowStride), load16(row + 2 * rowStride), load16(row + 3 * rowStride),
                       u);
      float *panel = out + k0 * panelRows + 4 * group;
      for (int j = 0; j < 4; ++j) {
        _mm_storeu_ps(panel + j * panelRows, _mm512_castps512_ps128(u[j]));
        _mm_storeu_ps(panel + (4 + j) * panelRows, _mm512_extractf32x4_ps(u[j], 1));
        _mm_storeu_ps(panel + (8 + j) * panelRows, _mm512_extractf32x4_ps(u[j], 2));
        _mm_storeu_ps(panel + (12 + j) * panelRows, _mm512_extractf32x4_ps(u[j], 3));
      }
    }
  return k0;
}

// A[rows x depth] -> 12-row micro-panels [block][k][12], so that a register tile's twelve
// broadcasts at one k read one 48-byte run; rows past `rows` are zero.
//
// Transposed A (rowStride 1: the rows of a k are adjacent) packs its whole micro-panels a few
// depth steps at a time across all of them, so those steps' lines are read once, in order, and
// stay in L1 (a micro-panel at a time read one line per step, 2 KiB apart at 512 rows, all in
// two L1 sets): TN 512^3 +1-3%, 1024^3 and 2048^3 +1.4%, TT 512^3 +1.8% (paired batches).
constexpr int64_t kTransposedSteps = 8;
template <class T>
void packA(const T *a, int64_t rowStride, int64_t depthStride, int64_t rows, int64_t depth, float *packed) {
  int64_t row0 = 0;
  if (rowStride == 1) {
    static_assert(kRows == 12, "load12 packs twelve rows");
    const int64_t wholeRows = rows / kRows * kRows;
    for (int64_t k0 = 0; k0 < depth; k0 += kTransposedSteps) {
      const int64_t kEnd = depth - k0 < kTransposedSteps ? depth : k0 + kTransposedSteps;
      for (int64_t panel0 = 0; panel0 < wholeRows; panel0 += kRows)
        for (int64_t k = k0; k < kEnd; ++k)
          _mm512_mask_storeu_ps(packed + panel0 * depth + k * kRows, 0x0fff, load12(a + panel0 + k * depthStride));
    }
    row0 = wholeRows;
  }
  for (; row0 < rows; row0 += kRows) {
    float *out = packed + row0 * depth;
    const T *rowsOfA = a + row0 * rowStride;
    const int64_t height = rows - row0 < kRows ? rows - row0 : kRows;
    const int64_t done = depthStride == 1 && height == kRows ? transposeRows(rowsOfA, rowStride, depth, out) : 0;
    packPanelOfA(rowsOfA + done * depthStride, rowStride, depthStride, height, depth - done, out + done * kRows, kRows);
  }
}

// bf16 on AVX512-BF16: both operands packed as depth pairs, one 32-bit element holding an
// operand's values at k = 2 step (low half) and 2 step + 1, and zero past the depth and past
// the rows or columns (unused lanes must not hold NaN: 0 x NaN would reach the sums).
int64_t pairSteps(int64_t depth) { return (depth + 1) / 2; }

// The pair of b[k][column] and b[k + 1][column] (zero where k + t >= depth or column >= width).
uint32_t pairAt(const uint16_t *bits, int64_t depthStride, int64_t columnStride, int64_t k, int64_t column,
                int64_t depth, int64_t width) {
  uint32_t pair = 0;
  for (int64_t t = 0; t < 2; ++t)
    if (k + t < depth && column < width)
      pair |= static_cast<uint32_t>(bits[(k + t) * depthStride + column * columnStride]) << (16 * t);
  return pair;
}

// The vpermt2w indices that interleave two rows of 32 bf16 (the first operand row k, the second
// row k + 1) word by word into the pairs of columns 16 half to 16 half + 15.
struct PairOrders {
  uint16_t order[2][32];
};
constexpr PairOrders pairOrders() {
  PairOrders orders{};
  for (int half = 0; half < 2; ++half)
    for (int i = 0; i < 32; ++i) orders.order[half][i] = static_cast<uint16_t>((i & 1) * 32 + 16 * half + i / 2);
  return orders;
}
alignas(64) constexpr PairOrders kPairOrders = pairOrders();
__m512i pairOrder(int half) { return _mm512_load_si512(kPairOrders.order[half]); }

// Rows k (r0) and k + 1 (r1) of 32 bf16 columns, interleaved by pairOrder's indices into a
// micro-panel's step of pairs (packBPairs, and PanelShare during tiles).
__attribute__((always_inline)) inline void packPairStep(__m512i r0, __m512i r1, __m512i lowColumns,
                                                        __m512i highColumns, uint32_t *out) {
  _mm512_storeu_si512(out, _mm512_permutex2var_epi16(r0, lowColumns, r1));
  _mm512_storeu_si512(out + 16, _mm512_permutex2var_epi16(r0, highColumns, r1));
}

// f16 and f32 products in low precision (ACL_COMPUTE_LOW_PRECISION) multiply bf16 pairs as well:
// each input is rounded to bf16 as it is packed, to nearest even (vcvtne2ps2bf16, inline
// assembly as vdpbf16ps is; it reads f32 denormals as zero, as vdpbf16ps reads bf16 ones).
// Sixteen f32 lanes of `low`, then sixteen of `high`, as 32 bf16.
__m512i roundToBf16(__m512 low, __m512 high) {
  __m512i words;
  asm("vcvtne2ps2bf16 %2, %1, %0" : "=v"(words) : "v"(high), "v"(low));
  return words;
}

// 32 consecutive elements as bf16 words (the lanes past `lanes` zero, nothing past them read):
// bf16 as it is, f16 and f32 rounded.
__m512i bf16Words(const BFloat *p) { return _mm512_loadu_si512(p); }
__m512i bf16Words(const BFloat *p, __mmask32 lanes) { return _mm512_maskz_loadu_epi16(lanes, p); }
template <class T>
__m512i bf16Words(const T *p) {
  return roundToBf16(load16(p), load16(p + 16));
}
template <class T>
__m512i bf16Words(const T *p, __mmask32 lanes) {
  return roundToBf16(loadLanes(p, static_cast<__mmask16>(lanes)),
                     loadLanes(p + 16, static_cast<__mmask16>(lanes >> 16)));
}

// One value rounded to bf16 as vcvtne2ps2bf16 rounds it (an f16 is never an f32 denormal).
uint16_t bf16Bits(float value) {
  uint32_t bits;
  __builtin_memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40);  // NaN, quieted
  if ((bits & 0x7f800000u) == 0) return static_cast<uint16_t>((bits >> 16) & 0x8000);  // denormal: zero
  return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1)) >> 16);
}
template <class T>
uint16_t bf16Bits(const T *p) {
  return bf16Bits(load1(p));
}

// f16 or f32 read as f32 values rounded to bf16, for a few rows in low precision (fewRows, which
// sums them by f32 FMAs: streaming B's rows beats packing them into pairs where each element of B
// serves at most four rows). The same rounding as the pairs' packing.
template <class T>
struct Rounded {
  T value;
};
template <class T>
__m512 load16(const Rounded<T> *p) {
  const __m512 wide = load16(reinterpret_cast<const T *>(p));
  const __m256i rounded = _mm512_castsi512_si256(roundToBf16(wide, wide));
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(rounded), 16));
}
template <class T>
float load1(const Rounded<T> *p) {
  const uint32_t bits = uint32_t{bf16Bits(reinterpret_cast<const T *>(p))} << 16;
  float value;
  __builtin_memcpy(&value, &bits, sizeof(value));
  return value;
}

// An (outer x inner) block of f16 or f32 rounded to bf16 into `out` [outer][inner] (`outStride`
// apart, `inner` if 0); vectors where the inner dim is contiguous.
template <class T>
void roundBlockToBf16(const T *from, int64_t outerStride, int64_t innerStride, int64_t outer, int64_t inner,
                      uint16_t *out, int64_t outStride = 0) {
  for (int64_t o = 0; o < outer; ++o) {
    const T *line = from + o * outerStride;
    uint16_t *to = out + o * (outStride > 0 ? outStride : inner);
    int64_t i = 0;
    if (innerStride == 1) {
      for (; i + 32 <= inner; i += 32) _mm512_storeu_si512(to + i, bf16Words(line + i));
      if (i < inner) {
        const auto lanes = static_cast<__mmask32>((uint64_t{1} << (inner - i)) - 1);
        _mm512_mask_storeu_epi16(to + i, lanes, bf16Words(line + i, lanes));
        i = inner;
      }
    }
    for (; i < inner; ++i) to[i] = bf16Bits(line + i * innerStride);
  }
}

// B[depth x columns] -> 32-column micro-panels of pairs [block][step][32]; f16 and f32 rounded
// to bf16.
template <class T>
void packBPairs(const T *b, int64_t depthStride, int64_t columnStride, int64_t depth, int64_t columns,
                uint32_t *packed) {
  if constexpr (!std::is_same_v<T, BFloat>) {
    // f16 and f32 rows are rounded as they are packed. Other layouts are rounded into scratch first
    // (transposed: column by column, k contiguous), then packed as bf16.
    if (columnStride != 1) {
      auto *bits = reinterpret_cast<uint16_t *>(aclcpu::ukernelScratch(2, depth * columns * 2));
      const auto *rounded = reinterpret_cast<const BFloat *>(bits);
      if (depthStride == 1) {
        roundBlockToBf16(b, columnStride, 1, columns, depth, bits);
        return packBPairs(rounded, 1, depth, depth, columns, packed);
      }
      roundBlockToBf16(b, depthStride, columnStride, depth, columns, bits);
      return packBPairs(rounded, columns, 1, depth, columns, packed);
    }
  } else {
    // Transposed (k contiguous) with an even depth and column stride: a pair is one 32-bit word
    // of a column, and B a (steps x columns) matrix of words, packed as f32 is.
    if (depthStride == 1 && columnStride % 2 == 0 && depth % 2 == 0)
      return packB(reinterpret_cast<const float *>(b), 1, columnStride / 2, depth / 2, columns,
                   reinterpret_cast<float *>(packed));
  }
  const int64_t steps = pairSteps(depth), blocks = (columns + kColumns - 1) / kColumns;
  if (columnStride == 1) {
    // Rows k and k + 1 interleaved word by word, 32 columns at a time (two vpermt2w), each
    // row fetched four rows ahead as packB does, whole blocks by plain loads (a masked load
    // that misses L1 stalls; StreamedOperands): bf16 M = 128, N = K = 4096 +6-11% (B packed
    // just in time from memory), M = 64 +3%, 256^3 and 1024^3 even. The ragged last block
    // from masked loads.
    constexpr int64_t kStepsAhead = 2;
    const __m512i lowColumns = pairOrder(0), highColumns = pairOrder(1);
    const int64_t wholeBlocks = columns / kColumns, rest = columns - wholeBlocks * kColumns;
    const auto restLanes = static_cast<__mmask32>((uint64_t{1} << rest) - 1);
    for (int64_t step = 0; step < steps; ++step) {
      const T *first = b + 2 * step * depthStride, *second = first + depthStride;
      const bool pair = 2 * step + 1 < depth;
      if (2 * (step + kStepsAhead) + 1 < depth) {
        fetchRow(first + 2 * kStepsAhead * depthStride, columns * int64_t{sizeof(T)});
        fetchRow(second + 2 * kStepsAhead * depthStride, columns * int64_t{sizeof(T)});
      }
      auto packBlock = [&](int64_t block, __m512i r0, __m512i r1) {
        packPairStep(r0, r1, lowColumns, highColumns, packed + (block * steps + step) * kColumns);
      };
      for (int64_t block = 0; block < wholeBlocks; ++block)
        packBlock(block, bf16Words(first + block * kColumns),
                  pair ? bf16Words(second + block * kColumns) : _mm512_setzero_si512());
      if (rest > 0)
        packBlock(wholeBlocks, bf16Words(first + wholeBlocks * kColumns, restLanes),
                  pair ? bf16Words(second + wholeBlocks * kColumns, restLanes) : _mm512_setzero_si512());
    }
    return;
  }
  // Other layouts, pair by pair.
  const auto *bits = reinterpret_cast<const uint16_t *>(b);
  for (int64_t block = 0; block < blocks; ++block) {
    const int64_t column0 = block * kColumns;
    const int64_t width = columns - column0 < kColumns ? columns - column0 : kColumns;
    for (int64_t step = 0; step < steps; ++step)
      for (int64_t j = 0; j < kColumns; ++j)
        packed[(block * steps + step) * kColumns + j] =
            pairAt(bits + column0 * columnStride, depthStride, columnStride, 2 * step, j, depth, width);
  }
}

// A[rows x depth] -> 12-row micro-panels of pairs [block][step][12].
void packAPairs(const BFloat *a, int64_t rowStride, int64_t depthStride, int64_t rows, int64_t depth,
                uint32_t *packed) {
  const auto *bits = reinterpret_cast<const uint16_t *>(a);
  const int64_t steps = pairSteps(depth);
  int64_t row0 = 0;
  if (rowStride == 1) {
    // Transposed A: rows k and k + 1 widened and merged, a few steps across all micro-panels at a
    // time (as packA does).
    const int64_t wholeRows = rows / kRows * kRows;
    for (int64_t s0 = 0; s0 < steps; s0 += kTransposedSteps / 2) {
      const int64_t sEnd = steps - s0 < kTransposedSteps / 2 ? steps : s0 + kTransposedSteps / 2;
      for (int64_t panel0 = 0; panel0 < wholeRows; panel0 += kRows)
        for (int64_t step = s0; step < sEnd; ++step) {
          const uint16_t *first = bits + panel0 + 2 * step * depthStride;
          const __m512i low = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(0x0fff, first));
          const __m512i high = 2 * step + 1 < depth
                                   ? _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(0x0fff, first + depthStride))
                                   : _mm512_setzero_si512();
          _mm512_mask_storeu_epi32(packed + panel0 * steps + step * kRows, 0x0fff,
                                   _mm512_or_si512(low, _mm512_slli_epi32(high, 16)));
        }
    }
    row0 = wholeRows;
  }
  for (; row0 < rows; row0 += kRows) {
    uint32_t *out = packed + row0 * steps;
    const uint16_t *rowsOfA = bits + row0 * rowStride;
    const int64_t height = rows - row0 < kRows ? rows - row0 : kRows;
    // Rows along k: a pair is one 32-bit word of a row, transposed as f32 rows are.
    int64_t done = 0;
    if (depthStride == 1 && height == kRows && rowStride % 2 == 0)
      done = transposeRows(reinterpret_cast<const float *>(rowsOfA), rowStride / 2, depth / 2,
                           reinterpret_cast<float *>(out));
    for (int64_t step = done; step < steps; ++step)
      for (int64_t r = 0; r < kRows; ++r)
        out[step * kRows + r] = pairAt(rowsOfA, depthStride, rowStride, 2 * step, r, depth, height);
  }
}

// Two f16 or f32 along k read as one pair of bf16 (packAPairs of rows along k): sixteen pairs
// from 32 values, rounded as bf16Words rounds them.
template <class T>
struct RoundedPair {
  T values[2];
};
template <class T>
__m512 load16(const RoundedPair<T> *p) {
  return _mm512_castsi512_ps(bf16Words(reinterpret_cast<const T *>(p)));
}

// f16 or f32 A packed as pairs of bf16. Rows along k (an even row stride): each whole micro-panel
// rounded and transposed in one pass (transposeRows over RoundedPair), the ragged last one rounded
// into a zero-padded scratch panel first; other layouts rounded into scratch, then packed as
// bf16. Rounding all of A into scratch before packing it cost 64^3 4% (op-bench, 1 thread: 289
// against 301 GF/s).
template <class T>
void packAPairs(const T *a, int64_t rowStride, int64_t depthStride, int64_t rows, int64_t depth, uint32_t *packed) {
  if (depthStride == 1 && rowStride % 2 == 0) {
    const int64_t steps = pairSteps(depth);
    for (int64_t row0 = 0; row0 < rows; row0 += kRows) {
      uint32_t *out = packed + row0 * steps;
      const int64_t height = rows - row0 < kRows ? rows - row0 : kRows;
      const T *rowsOfA = a + row0 * rowStride;
      if (height < kRows) {
        auto *bits = reinterpret_cast<uint16_t *>(aclcpu::ukernelScratch(2, kRows * depth * 2));
        roundBlockToBf16(rowsOfA, rowStride, 1, height, depth, bits);
        for (int64_t i = height * depth; i < kRows * depth; ++i) bits[i] = 0;
        packAPairs(reinterpret_cast<const BFloat *>(bits), depth, 1, kRows, depth, out);
        continue;
      }
      const int64_t done =
          transposeRows(reinterpret_cast<const RoundedPair<T> *>(rowsOfA), rowStride / 2, depth / 2,
                        reinterpret_cast<float *>(out));
      for (int64_t step = done; step < steps; ++step)
        for (int64_t r = 0; r < kRows; ++r) {
          const T *first = rowsOfA + r * rowStride + 2 * step;
          const uint32_t second = 2 * step + 1 < depth ? bf16Bits(first + 1) : 0;
          out[step * kRows + r] = bf16Bits(first) | second << 16;
        }
    }
    return;
  }
  auto *bits = reinterpret_cast<uint16_t *>(aclcpu::ukernelScratch(2, rows * depth * 2));
  const auto *rounded = reinterpret_cast<const BFloat *>(bits);
  if (rowStride == 1 && depthStride != 1) {
    roundBlockToBf16(a, depthStride, 1, depth, rows, bits);
    return packAPairs(rounded, 1, rows, rows, depth, packed);
  }
  roundBlockToBf16(a, rowStride, depthStride, rows, depth, bits);
  packAPairs(rounded, depth, 1, rows, depth, packed);
}

// How a register tile multiplies a broadcast of A by a vector of B into its sums: f32 FMAs, or
// bf16 pairs (PairProducts).
struct F32Products {
  static __m512 multiplyAdd(__m512 a, __m512 b, __m512 sum) { return _mm512_fmadd_ps(a, b, sum); }
};

// vdpbf16ps through inline assembly, as vpdpbusd in the VNNI file: the instruction needs no
// compiler flag then (this file also runs where AVX512-BF16 is absent; the caller checks), and
// the accumulator may sit in any of the 32 registers. Each f32 lane of `sum` gets the products
// of the two bf16 pairs in its lanes of `a` and `b`.
struct PairProducts {
  static __m512 multiplyAdd(__m512 a, __m512 b, __m512 sum) {
    asm("vdpbf16ps %2, %1, %0" : "+v"(sum) : "v"(a), "v"(b));
    return sum;
  }
};

// Where a register tile reads its operands. A packed micro-panel of B ([k][32]); each depth
// step also sends one line of the next micro-panel of B towards L2, from `next` on by
// `nextStride` bytes a step: that panel was packed ahead and may sit in L3. The first row tiles
// of a panel fetch the next one, each its part: two halves, a line a step, or with more than
// three tiles four quarters, half a line a step (each line twice: no arithmetic added to the
// step); the others (and the last panel) repeat a line of their own panel, already in cache.
// Four fetching tiles rather than two, lib-ab, 1 thread (Xeon): 2048^3 +4%, 1024^3 0 to +4%,
// 512^3 +3-4%, 1024^3 TN +3%, NT and TT +2%, 255^3 and 1023x777x513 even; 2 threads 1024^3 and
// 2048^3 +1.5%; eight fetching tiles gained less (+1-2%). Unconditional on purpose: GCC split the depth
// loop on a `k < lines` test and spilled the accumulators, and at -O2 deleted the guarded
// prefetch.
struct PackedB {
  const float *b;
  const char *next;
  int64_t nextStride;
  __m512 bAt(int64_t k, int half, __mmask16) const { return _mm512_loadu_ps(b + k * kColumns + 16 * half); }
  __attribute__((always_inline)) void prefetchNext(int64_t k) const {
    _mm_prefetch(next + nextStride * k, _MM_HINT_T1);
  }
};

// ... with a packed micro-panel of A ([k][12]),
struct PackedPanels : PackedB {
  using Products = F32Products;
  const float *a;
  __m512 aAt(int64_t k, int r) const { return _mm512_set1_ps(a[k * kRows + r]); }
};

// ... or, for bf16 on AVX512-BF16, panels of depth pairs: a step of B's micro-panel ([step][32]
// of 32-bit pairs, k = 2 step and 2 step + 1) and of A's ([step][12] pairs), one vdpbf16ps a row
// and half-tile.
struct PackedPairs : PackedB {
  using Products = PairProducts;
  const uint32_t *a;
  __m512 aAt(int64_t step, int r) const {
    return _mm512_castsi512_ps(_mm512_set1_epi32(static_cast<int>(a[step * kRows + r])));
  }
};

// Element k of row r of a register tile's A read in place (rows `rowStride` elements apart), for
// its broadcast: the rows in groups of four, each group from one base register, the row within
// it by the addressing's scaled index. Left to itself, GCC stepped one register through the
// twelve rows with an add each, every depth step (f32, A in place, with the depth loop unrolled
// twice: 512^3 +2%, 1000^3 +3%, 255^3 +4%). The empty asm keeps a group's base from being
// folded back into one index.
template <class T>
const T *inRowGroup(const T *a, int64_t rowStride, int64_t k, int r) {
  const char *group = reinterpret_cast<const char *>(a + (r / 4) * 4 * rowStride + k);
  __asm__("" : "+r"(group));
  return reinterpret_cast<const T *>(group + (r % 4) * rowStride * int64_t(sizeof(T)));
}

// ... or bf16 A where it lies, its rows along k and the depth even: a pair is then a 32-bit
// word of a row, broadcast from where it is, as RowsInPlace does for f32 (packing it cost ~1.4%
// of 256^3).
struct PairsInPlace : PackedB {
  using Products = PairProducts;
  const uint16_t *a;
  int64_t aRowStride;
  __m512 aAt(int64_t step, int r) const {
    uint32_t pair;
    __builtin_memcpy(&pair, inRowGroup(a, aRowStride, 2 * step, r), sizeof(pair));
    return _mm512_castsi512_ps(_mm512_set1_epi32(static_cast<int>(pair)));
  }
};

// ... or with f32 A where it lies when its rows are contiguous along k: the twelve broadcasts
// of a depth step then read twelve streams, each line serving sixteen steps, and the chunk of
// A stays in L2 across the column blocks as its packed copy did. Packing it cost 3-4% of
// 1000^3 (the 4 x 4 transposes run at ~0.2 ns an element even from L2). Rows along k read in
// place were 2x slower (TN 1024^3: every depth step a new page), so those are still packed.
struct RowsInPlace : PackedB {
  using Products = F32Products;
  const float *a;
  int64_t aRowStride;
  __m512 aAt(int64_t k, int r) const { return _mm512_set1_ps(*inRowGroup(a, aRowStride, k, r)); }
};

// Or f32 A and B where they lie (B's rows contiguous), the columns past B's width not read.
struct InPlaceOperands {
  using Products = F32Products;
  const float *a;
  int64_t aRowStride, aDepthStride;
  const float *b;
  int64_t bDepthStride;
  __m512 aAt(int64_t k, int r) const { return _mm512_set1_ps(a[r * aRowStride + k * aDepthStride]); }
  __m512 bAt(int64_t k, int half, __mmask16 mask) const {
    return _mm512_maskz_loadu_ps(mask, b + k * bDepthStride + 16 * half);
  }
  void prefetchNext(int64_t) const {}
};

// Or A packed and B where it lies, its rows contiguous (streamedProduct), fetching B ahead
// towards L2 in one of two ways. f32: each step also sends the two lines of its row of B
// kAheadBlocks micro-panels further along that row (from `ahead` on), so each row of a piece
// is a sequential stream fetched ahead of its use (RowAhead).
struct RowAhead {
  const char *ahead;
  int64_t aheadRowBytes;
  void prefetchNext(int64_t step) const {
    const char *row = ahead + step * aheadRowBytes;
    _mm_prefetch(row, _MM_HINT_T1);
    _mm_prefetch(row + 64, _MM_HINT_T1);
  }
};

// f32 B larger than L2 under several tiles: the first 2^shift tiles over a micro-panel share the
// fetching, each the rows of its 2^-shift of the micro-panel ahead, a row every 2^shift steps.
// One tile fetching two lines a step left it waiting on the fill buffers (about one line per
// step is what they pass from L3 here). Not for B in L2: the shift's arithmetic a step cost 2.5%
// where the FMAs are the limit (36x512x512). Measured in streamedProduct's notes.
struct SharedRowAhead : RowAhead {
  int64_t shift;
  void prefetchNext(int64_t step) const {
    const char *row = ahead + (step >> shift) * aheadRowBytes;
    _mm_prefetch(row, _MM_HINT_T1);
    _mm_prefetch(row + 64, _MM_HINT_T1);
  }
};

// bf16 pairs fetch the next piece with RowAhead as well, each fetching tile two adjacent lines
// (64 columns) of a row a step, down one half of the piece's rows.
constexpr int64_t kStreamedColumns = 512;

// A tile's rows of A packed ([step][rows] words: f32, or bf16 pairs), each step's broadcast.
template <class Word>
struct StreamedA {
  const Word *a;
  int64_t aRows;
  __m512 aAt(int64_t step, int r) const {
    if constexpr (std::is_same_v<Word, float>)
      return _mm512_set1_ps(a[step * aRows + r]);
    else
      return _mm512_castsi512_ps(_mm512_set1_epi32(static_cast<int>(a[step * aRows + r])));
  }
};

// f32: B in place. Whole micro-panels load unmasked: on Zen 5 a masked load that misses L1
// stalls where a plain one does not (the streamed M = 16 loop alone: 63 against 136 GF/s).
template <bool Whole, class Ahead = RowAhead>
struct StreamedOperands : Ahead, StreamedA<float> {
  using Products = F32Products;
  const float *b;
  int64_t bDepthStride;
  __m512 bAt(int64_t k, int half, __mmask16 mask) const {
    const float *at = b + k * bDepthStride + 16 * half;
    return Whole ? _mm512_loadu_ps(at) : _mm512_maskz_loadu_ps(mask, at);
  }
};

// bf16 on AVX512-BF16: B's rows 2 step and 2 step + 1 in place, read once a step (bStep) and
// interleaved word by word into pairs as packBPairs does (the lanes past B's width zero). Whole
// micro-panels load unmasked, as StreamedOperands' do.
template <bool Whole>
struct StreamedPairs : RowAhead, StreamedA<uint32_t> {
  using Products = PairProducts;
  const uint16_t *b;
  int64_t bDepthStride;
  __mmask32 lanes;
  __m512i lowColumns, highColumns;
  template <int Halves>
  __attribute__((always_inline)) void interleave(int64_t step, __m512 (&pairs)[Halves]) const {
    const uint16_t *first = b + 2 * step * bDepthStride;
    const __m512i r0 = Whole ? _mm512_loadu_si512(first) : _mm512_maskz_loadu_epi16(lanes, first);
    const __m512i r1 =
        Whole ? _mm512_loadu_si512(first + bDepthStride) : _mm512_maskz_loadu_epi16(lanes, first + bDepthStride);
    for (int h = 0; h < Halves; ++h)
      pairs[h] = _mm512_castsi512_ps(_mm512_permutex2var_epi16(r0, h == 0 ? lowColumns : highColumns, r1));
  }
};

// With more than one tile over a micro-panel, the first also keeps its pairs ([step][32], in
// L1) for the others (Kept), which then neither read B nor interleave it again: bf16 M =
// 16, N = K = 4096 (two tiles of 8 rows) +12%, with B in cache +4%. f32 keeps B's rows the same
// way (KeepingB): read in place by every tile, B's rows (a page apart or more) shared L1 sets
// with each other and were read back from L2.
template <bool Whole>
struct KeepingPairs : StreamedPairs<Whole> {
  uint32_t *kept;
};
template <bool Whole, class Ahead>
struct KeepingB : StreamedOperands<Whole, Ahead> {
  float *kept;
};
template <class Word, class Ahead = RowAhead>  // f32, or bf16 pairs
struct Kept : Ahead, StreamedA<Word> {
  using Products = std::conditional_t<std::is_same_v<Word, float>, F32Products, PairProducts>;
  const Word *kept;
  __m512 bAt(int64_t step, int half, __mmask16) const { return _mm512_load_ps(kept + step * kColumns + 16 * half); }
};

// Or, for a tile of a few rows, `Blocks` micro-panels of B side by side (each `blockFloats`
// after the last: 32 * Blocks columns), read together. One row's tile over one micro-panel
// read B as one stream, which the prefetchers kept at ~17 GB/s; `Blocks` streams, each line
// prefetched (into L1) eight steps ahead, read it two to three times faster (sideBySideTile).
template <class Operands, int Blocks>
struct SideBySide : Operands {
  int64_t blockFloats;
  __m512 bAt(int64_t k, int half, __mmask16) const {
    return _mm512_loadu_ps(this->b + (half >> 1) * blockFloats + k * kColumns + 16 * (half & 1));
  }
  void prefetchNext(int64_t k) const {
    for (int i = 0; i < Blocks; ++i) {
      const char *step = reinterpret_cast<const char *>(this->b + i * blockFloats + (k + 8) * kColumns);
      _mm_prefetch(step, _MM_HINT_T0);
      _mm_prefetch(step + 64, _MM_HINT_T0);
    }
  }
};

// A tile's share of packing the next chunk's micro-panel of B (one just-in-time band, gemm):
// step first + i of it (a row of B, or bf16 pairs of rows) at tile step i << shift, for `count`
// steps, each step's source rows fetched into L2 kPackAheadSteps steps before they are packed
// (past the micro-panel's last step, the next micro-panel's, from `thenFrom`, when that is
// packed during tiles too).
constexpr int64_t kPackAheadSteps = 16;
template <class T, bool Pairs>
struct PanelShare {
  const T *from;
  const T *thenFrom;
  int64_t depthStride, depth, steps;  // of the micro-panel: B's stride, its rows, its steps
  float *to;                          // [steps][32]
  int64_t first, count;
  int shift;
  __attribute__((always_inline)) void step(int64_t k) const {
    if ((k & ((int64_t{1} << shift) - 1)) != 0 || (k >> shift) >= count) return;
    const int64_t at = first + (k >> shift);
    if constexpr (Pairs) {
      const T *row = from + 2 * at * depthStride;
      const __m512i r0 = bf16Words(row);
      const __m512i r1 = 2 * at + 1 < depth ? bf16Words(row + depthStride) : _mm512_setzero_si512();
      packPairStep(r0, r1, pairOrder(0), pairOrder(1), reinterpret_cast<uint32_t *>(to + at * kColumns));
    } else {
      packBlockRow(from + at * depthStride, to + at * kColumns);
    }
    const int64_t ahead = at + kPackAheadSteps, past = ahead - steps;
    const T *source = past < 0 ? from : thenFrom && past < steps ? thenFrom : nullptr;
    if (source) fetchStep(source, past < 0 ? ahead : past);
  }
  // Sends the source rows of a micro-panel's step (32 columns each) into L2.
  __attribute__((always_inline)) void fetchStep(const T *source, int64_t at) const {
    const int64_t row = Pairs ? 2 * at : at;
    fetchColumns(source + row * depthStride);
    if (Pairs && row + 1 < depth) fetchColumns(source + (row + 1) * depthStride);
  }
  __attribute__((always_inline)) static void fetchColumns(const T *row) {
    _mm_prefetch(reinterpret_cast<const char *>(row), _MM_HINT_T1);
    _mm_prefetch(reinterpret_cast<const char *>(row + kColumns) - 1, _MM_HINT_T1);
  }
  // Packs steps [begin, end) outside a tile.
  void pack(int64_t begin, int64_t end) const {
    if constexpr (Pairs) {
      const int64_t last = 2 * end < depth ? 2 * end : depth;
      packBPairs(from + 2 * begin * depthStride, depthStride, 1, last - 2 * begin, kColumns,
                 reinterpret_cast<uint32_t *>(to + begin * kColumns));
    } else {
      packB(from + begin * depthStride, depthStride, 1, end - begin, kColumns, to + begin * kColumns);
    }
  }
};

// Tile operands that also pack their PanelShare as the steps go. Its helpers, and PackedB's
// prefetchNext, are inlined by force: GCC 12 left some out of line, where a call spilled the
// tile's accumulators (bf16 pairs), or dropped the call (its ipa-modref took a function that
// only prefetches for one without effects: -fno-ipa-modref kept them).
template <class Operands, class T, bool Pairs>
struct PackingOperands : Operands {
  PanelShare<T, Pairs> share;
  __attribute__((always_inline)) void prefetchNext(int64_t k) const {
    Operands::prefetchNext(k);
    share.step(k);
  }
};

// A depth step of B's micro-panel for a register tile: its halves one by one, or bf16 pairs
// both from one read of B (and kept as they go, KeepingPairs).
template <int Halves, class Operands>
__attribute__((always_inline)) inline void bStep(const Operands &operands, int64_t k, __m512 (&b)[Halves],
                                                 __mmask16 low, __mmask16 high) {
  for (int h = 0; h < Halves; ++h) b[h] = operands.bAt(k, h, h == 0 ? low : high);
}
template <int Halves, bool Whole>
__attribute__((always_inline)) inline void bStep(const StreamedPairs<Whole> &operands, int64_t k,
                                                 __m512 (&b)[Halves], __mmask16, __mmask16) {
  operands.interleave(k, b);
}
template <int Halves, bool Whole>
__attribute__((always_inline)) inline void bStep(const KeepingPairs<Whole> &operands, int64_t k,
                                                 __m512 (&b)[Halves], __mmask16, __mmask16) {
  operands.interleave(k, b);
  for (int h = 0; h < Halves; ++h) _mm512_store_ps(operands.kept + k * kColumns + 16 * h, b[h]);
}
template <int Halves, bool Whole, class Ahead>
__attribute__((always_inline)) inline void bStep(const KeepingB<Whole, Ahead> &operands, int64_t k, __m512 (&b)[Halves],
                                                 __mmask16 low, __mmask16 high) {
  for (int h = 0; h < Halves; ++h) {
    b[h] = operands.bAt(k, h, h == 0 ? low : high);
    _mm512_store_ps(operands.kept + k * kColumns + 16 * h, b[h]);
  }
}

// The operands a register tile reads: the caller's, or for a tile that stores as it goes a copy:
// its pairs (KeepingPairs, KeepingB), or its share of the next micro-panel of B (PackingOperands).
// GCC took those stores to change the caller's operands and reloaded every field each step (bf16
// M = 16 with B in cache 327 -> 368 GF/s with the copy; with the packing tiles' copy, Zen 5, one
// core, paired with oneDNN, B in every call: f32 M = 128, N = K = 4096 0.83-0.90x -> 0.96-1.02x,
// bf16 M = 128 0.83-0.87x -> 0.92-0.96x, M = 16 0.94-0.96x -> 0.98-1.00x). Not for every tile:
// the in-place rows of A then held twelve row pointers, spilled some (2048^3 -3%).
template <class Operands>
const Operands &tileOperands(const Operands &operands) {
  return operands;
}
template <bool Whole>
KeepingPairs<Whole> tileOperands(const KeepingPairs<Whole> &operands) {
  return operands;
}
template <bool Whole, class Ahead>
KeepingB<Whole, Ahead> tileOperands(const KeepingB<Whole, Ahead> &operands) {
  return operands;
}
template <class Operands, class T, bool Pairs>
PackingOperands<Operands, T, Pairs> tileOperands(const PackingOperands<Operands, T, Pairs> &operands) {
  return operands;
}

// A register tile's sums to `out`, through a copy of it: GCC took the stores to C to change the
// caller's, and before every store reloaded its fields and tested its mode again. Where every
// lane is kept the stores are plain (Vector).
template <int Rows, int Halves, class Out>
__attribute__((always_inline)) inline void putTile(const Out &outIn, __m512 (&acc)[Rows][Halves], __mmask16 low,
                                                   __mmask16 high) {
  const Out out = outIn;
  if (low == kAllLanes && high == kAllLanes) {
#pragma GCC unroll 12
    for (int r = 0; r < Rows; ++r)
      for (int h = 0; h < Halves; ++h) out.put(r, 16 * h, acc[r][h], kAllLanes);
  } else {
#pragma GCC unroll 12
    for (int r = 0; r < Rows; ++r)
      for (int h = 0; h < Halves; ++h) out.put(r, 16 * h, acc[r][h], h == 0 ? low : high);
  }
}

// Rows (<= 12) x 16 * Halves columns of A x B over `depth` steps (k, or pairs of k), to `out`;
// the columns past B's width are masked off. Never inlined: inlined into a loop over tiles, GCC
// keeps the accumulators in memory (the 64^3 in-place product ran at half speed).
template <int Rows, int Halves, class Operands, class Out>
__attribute__((noinline)) void registerTile(const Operands &operandsIn, int64_t depth, const Out &out, __mmask16 low,
                                            __mmask16 high) {
  const auto &operands = tileOperands(operandsIn);
  __m512 acc[Rows][Halves];
  for (int r = 0; r < Rows; ++r)
    for (int h = 0; h < Halves; ++h) acc[r][h] = out.start(r, 16 * h, h == 0 ? low : high);
#pragma GCC unroll 2
  for (int64_t k = 0; k < depth; ++k) {
    operands.prefetchNext(k);
    __m512 b[Halves];
    bStep(operands, k, b, low, high);
#pragma GCC unroll 12
    for (int r = 0; r < Rows; ++r) {
      __m512 av = operands.aAt(k, r);
      for (int h = 0; h < Halves; ++h) acc[r][h] = Operands::Products::multiplyAdd(av, b[h], acc[r][h]);
    }
  }
  putTile(out, acc, low, high);
}

// A tile of `rows` (<= 12); 16 columns wide when no more are left (a ragged last block: 1000
// columns end in 8, computed 16 wide instead of 32).
template <class Operands, class Out = Destination<float>>
void registerTileRows(int64_t rows, const Operands &operands, int64_t depth, const Out &out, __mmask16 low,
                      __mmask16 high) {
  switch (rows + (high == 0 ? 0 : 12)) {
#define ACLCPU_ROWS(n)                                                 \
  case n: return registerTile<n, 1>(operands, depth, out, low, high); \
  case n + 12: return registerTile<n, 2>(operands, depth, out, low, high);
    ACLCPU_ROWS(1) ACLCPU_ROWS(2) ACLCPU_ROWS(3) ACLCPU_ROWS(4) ACLCPU_ROWS(5) ACLCPU_ROWS(6) ACLCPU_ROWS(7)
    ACLCPU_ROWS(8) ACLCPU_ROWS(9) ACLCPU_ROWS(10) ACLCPU_ROWS(11) ACLCPU_ROWS(12)
#undef ACLCPU_ROWS
  }
}

// Up to kFewRows rows over whole micro-panels of B read side by side (SideBySide): four for one
// or two rows, two for three or four (their sums and B's vectors fit the 32 registers). Returns
// how many micro-panels it took: none when fewer than that are left.
template <class Operands>
int64_t sideBySideTile(int64_t rows, const Operands &operands, int64_t blockFloats, int64_t blocksLeft,
                       int64_t depth, const Destination<float> &out) {
  const int64_t blocks = rows <= 2 ? 4 : 2;
  if (blocksLeft < blocks) return 0;
  constexpr __mmask16 kAll = kAllLanes;  // whole micro-panels only
  switch (rows) {
    case 1: registerTile<1, 8>(SideBySide<Operands, 4>{operands, blockFloats}, depth, out, kAll, kAll); break;
    case 2: registerTile<2, 8>(SideBySide<Operands, 4>{operands, blockFloats}, depth, out, kAll, kAll); break;
    case 3: registerTile<3, 4>(SideBySide<Operands, 2>{operands, blockFloats}, depth, out, kAll, kAll); break;
    default: registerTile<4, 4>(SideBySide<Operands, 2>{operands, blockFloats}, depth, out, kAll, kAll); break;
  }
  return blocks;
}

// A small f32 product (A, B and C together at most kInPlaceElements): packing its operands
// costs more than the register tiles gain from it, so the tiles read A and B in place (48^3:
// 70 -> 98 GF/s, 40^3 58 -> 81; whole 8 x 32 tiles of a static shape take generated code, which
// knows every stride and beats both).
bool inPlace(const float *a, int64_t aRowStride, int64_t aDepthStride, const float *b, int64_t bDepthStride,
             int64_t bColumnStride, float *c, int64_t cRowStride, int64_t rows, int64_t columns, int64_t depth,
             const Epilogue<float> &epilogue) {
  if (bColumnStride != 1 || (rows + columns) * depth + rows * columns > kInPlaceElements) return false;
  const InPlaceOperands operands0{a, aRowStride, aDepthStride, b, bDepthStride};
  const Destination<float> out = epilogue.chunk(true, c, cRowStride, 0);
  for (int64_t j = 0; j < columns; j += kColumns) {
    const __mmask16 low = firstLanes(columns - j), high = firstLanes(columns - j - 16);
    for (int64_t r = 0; r < rows; r += kRows) {
      InPlaceOperands operands = operands0;
      operands.a += r * aRowStride;
      operands.b += j;
      registerTileRows(rows - r < kRows ? rows - r : kRows, operands, depth, out.at(r, j), low, high);
    }
  }
  return true;
}
bool inPlace(const Half *, int64_t, int64_t, const Half *, int64_t, int64_t, float *, int64_t, int64_t, int64_t,
             int64_t, const Epilogue<float> &) {
  return false;
}
bool inPlace(const BFloat *, int64_t, int64_t, const BFloat *, int64_t, int64_t, float *, int64_t, int64_t, int64_t,
             int64_t, const Epilogue<float> &) {
  return false;
}

// Up to four row tiles (six where kStreamedWideRows says) with B's rows contiguous: packing B
// would read it at the speed of its short runs (1 KiB, 16 KiB apart at N = 4096: ~23 GB/s) and
// only then compute, for the few tiles that reuse the panel. Instead the tiles read B where it
// lies, a piece of its rows at a time, and while they compute they fetch what comes next into L2,
// so that the reads overlap the arithmetic. The rows are split evenly between the tiles (16 as
// 8 + 8: 12 + 4 ran ~8% slower). M <= 4 keeps fewRows (M = 1 streamed: 0.65x).
//
// f32 pieces are kStreamedDepth rows of B across a panel as wide as kStreamedSumsFloats of raw
// sums allow (all 4096 columns at M = 16), and the first tile of each micro-panel fetches the
// lines of its rows kAheadBlocks micro-panels on (RowAhead): each row of B is then one long
// sequential stream. Against pieces of 512 columns x 64 rows whose next piece the first two
// tiles fetched run by run (what bf16 keeps), f32, 1 thread, N = K = 4096, alternating
// processes, GF/s: M = 8 77-85 -> 97-101, 10 109 -> 123, 16 110-124 -> 124-127 on a quiet core
// and 83-89 -> 100-121 on one a neighbour shares, 20 135 -> 144, 32 136 -> 141-148, 36 94 ->
// 119, 48 100-138 -> 120-148; but 11 130 -> 117, 12 126-132 -> 111-124 (one tile of 11-12 rows),
// 24 0.90-1.0x. 16x1024x1024 +4.5%, 20x1000x1000 +2.5%. Only with unmasked loads (StreamedOperands):
// with masked ones M = 16 lost 15%, and so had session 16's pieces in this order (0.85-0.89x).
// 64-deep pieces -4 to +4%, 32 or 256 the same; fetching 4 blocks ahead -2%, 1 the same; into
// L1 (T0) -15 to -20%; four lines of every other micro-panel -8%; tiles of at most 10 rows -6
// to -24%.
//
// bf16 pairs (two tiles at most: the first interleaves B's rows, two vpermt2w a step, and keeps
// the pairs for the second, KeepingPairs) keep pieces of kStreamedColumns x 128 rows. The first
// tile of each of the first sixteen micro-panels fetches 64 columns of one half of the next
// piece's rows, a row a step (RowAhead). Its rows' streams as f32's ran 6-10% slower (M = 16:
// 191 -> 174 GF/s). bf16, 1 thread, N = K = 4096, GF/s, against packing B: M = 8 102 -> 134,
// 16 151 -> 182, 24 199 -> 240; with more tiles M = 32 -6%, 40 -4%. Then, against pieces 64
// rows deep whose lines the first two tiles of each micro-panel fetched in order (two lines a
// step, their addresses worked out line by line), with each tile interleaving B again: M = 16
// 213 -> 277, M = 8 148 -> 182, 24 248 -> 272, 20x1000x1000 310 -> 341. 128 rows alone: -4% (B
// from memory) and +10% (B in cache); 256: fewer tiles to set up, but B's rows, 8 KiB apart,
// evicted each other from L2 (M = 16 -20%).
//
// Both depths suit a B in cache. A B larger than L2, streaming from memory, takes pieces 32
// rows deep: on an Intel Xeon (Sapphire Rapids class, 2 MiB L2), whose L2 streamer follows 32
// pages at a time, 128 rows of B in flight left it to the software fetches alone. f32 paired
// with oneDNN, M = 16, N = K = 4096: 47-53 -> 105-110 GF/s (48 rows the same, 64 as 128);
// op-bench, B in L3, M = 8 73 -> 102, 16 64 -> 128, 32 89 -> 133, 16x2048x2048 106 -> 134; bf16
// pairs M = 8 74 -> 93, 12 84 -> 99. B in L2 keeps 128 (48x256x1024 197 against 180 at 32;
// more pieces, more passes over the sums). Only where ukernelStreamsShallowPieces (not on AMD):
// on Zen 5 the shallow pieces lost (session 49, op-bench, each depth in turn, GF/s, 1 thread,
// N = K = 4096: f32 M = 8 87-96 -> 92-103, 16 125-127 -> 147-154, 48 (64 deep) 136-144 -> 157-181;
// bf16 M = 8 127-139 -> 157-185, 16 157-166 -> 225-239, 24 168-203 -> 233-243; 16x2048x2048 bf16
// 178-188 -> 272-326, f32 127-140 -> 137-154).
//
// The depth is summed in the packed path's chunks (Blocking), each in one unbroken FMA chain
// per element: between its streamed pieces a tile keeps its sums raw (PartialSums). So the
// result is the same to the bit as the packed path's, which a constant B takes.
constexpr int64_t kStreamedRows = 4 * kRows;
// Where one band packs B in a pass of its own (ukernelPacksDuringTiles false: Intel), f32 products
// of up to 64 rows and at least 256 columns stream too (six tiles of 10-11 rows). Against the pass,
// the ukernel beside a variant in one process, 1 thread (Xeon, 2 MiB L2), x rows x columns x depth:
// 49x4096x4096 +12%, 56x1024x1024 +18%, 64x512x512 +11%, 64x256x256 +5%, 64x3136x256 (a 1x1
// convolution's) +7%, 62x1000x1000 +7%, 64x4096x4096 +6%, 64x2048x2048 +2%; but narrower B, whose
// packing is cheap and shared by every tile, lost (64 columns -3.5%, 96 -2%, 128 -6%), and so did
// 70-96 rows or were even (96x4096x4096 -8%, 96x1000x1000 -4.5%, 72x4096x4096 even). Since the
// tiles keep B for each other and share its fetching (session 47) up to 128 rows stream: lib-ab
// against 64, 1 thread (Xeon): 128x4096x4096 +13%, 96x4096x4096 +5%, 72x4096x4096 +11%,
// 128x3136x256 +12%, 128x1024x1024 +7%, 96x1000x1000 +6%, 80x1000x1000 +9%, 128x512x512 +5%,
// 96x256x1024 +12%, 100x300x1000 +4%; 120x1000x333 even, 128x300x500 -2.4%. Up to 256 rows won
// where B was far beyond L2 (160x4096x4096 +27%, 256x2048x2048 +7%) but lost nearer (256x1024x1024
// -4.5%, 240x300x1000 -7.6%).
constexpr int64_t kStreamedWideRows = 128;
constexpr int64_t kStreamedWideColumns = 256;
constexpr int64_t kStreamedPairRows = 2 * kRows;
constexpr int64_t kStreamedDepth = 128;
constexpr int64_t kStreamedPairDepth = 128;
constexpr int64_t kStreamedFarDepth = 32;  // B larger than L2, ukernelStreamsShallowPieces
// ... but 64 for more than 32 rows: their four to six tiles over each piece spend each step's
// fetches on more FMAs, and a tile of 32 steps spent a sixth of its time putting and taking its
// raw sums. lib-ab, 1 thread (Xeon), against 32: 64x3136x256 +5.5%, 64x4096x4096 +7%,
// 48x4096x4096 +7%, 56x1024x1024 +9.5%, 40x2048x2048 +4%, 32x4096x4096 even; 128 rows lost half
// at N = 4096 (the streamer's 32 pages), and 64 rows for one or two tiles lost 30-40% (M = 8-24).
constexpr int64_t kStreamedFarTallDepth = 64;
constexpr int64_t kStreamedFarTallRows = 32;
// Since session 47 f32 tiles share a micro-panel as bf16 pairs do: the first keeps B's rows
// ([step][32], in L1) for the others (KeepingB, Kept), and with B beyond L2 the first two or four
// fetch the micro-panel ahead together (SharedRowAhead); more than 32 rows with B beyond L2, and
// any rows with B in L2, take a product at most 256 deep (32 KiB kept) as one piece, with no raw
// sums between pieces. lib-ab against session 46, 1 thread (Xeon): 64x3136x256 (a 1x1
// convolution) +14-16%, 48x3136x256 +12-16%, 64x12544x64 +11%, 32x4096x4096 +17%, 16x2048x2048
// +7%, 32x2048x2048 +8%, 64x1024x256 +16%, 64x1024x512 +12%, 40x1024x1024 +10%, 56x1024x1024 +6%;
// 64x4096x4096, 48x512x512 and 24x3136x256 even; 16x3136x256 -2.5%. Whole pieces under fewer than
// 33 rows lost (8x3136x256 -18%: one tile's 256 rows in flight, past the streamer's 32 pages).
constexpr int64_t kStreamedWholeDepth = 256;
constexpr int64_t kStreamedSumsFloats = 65536;  // 256 KiB, in L2
constexpr int64_t kAheadBlocks = 2;

// A streamed tile's sums at the end of a piece of a depth chunk: stored raw in `sums` and
// resumed by the next piece; the chunk's last piece gives them to the destination. Kept a
// micro-panel at a time ([micro-panel][row][32], `blockFloats` a micro-panel), so that a tile's
// rows of sums lie one after another: as the panel's rows ([row][column]) they were 16 KiB
// apart at 4096 columns, in one L1 set with each other and with B's rows. f32 M = 16, N = K =
// 4096, 1 thread: +5 to +12% in a model of the streamed tiles (the sums as rows cost 5-12%
// there); in op-bench, alternating processes: f32 M = 8 +5%, 16 +3%, 40 +2.6%, bf16 M = 16
// +7%, 24 -4% and +2.7% in two runs, 20x1000x1000 +1%.
struct PartialSums {
  float *sums;  // the micro-panel's, from the tile's first row: [row][32]
  int64_t blockFloats;
  bool resume, finish;
  Destination<float> out;
  PartialSums at(int64_t row, int64_t column) const {  // column: a multiple of kColumns
    return PartialSums{sums + column / kColumns * blockFloats + row * kColumns, blockFloats, resume, finish,
                       out.at(row, column)};
  }
  __m512 start(int64_t row, int64_t column, __mmask16 mask) const {  // column: 0 or 16
    return resume ? Vector<float>::load(mask, sums + row * kColumns + column) : _mm512_setzero_ps();
  }
  void put(int64_t row, int64_t column, __m512 x, __mmask16 mask) const {
    if (finish)
      out.put(row, column, x, mask);
    else
      Vector<float>::store(mask, sums + row * kColumns + column, x);
  }
};

// Whether a streamed tile's micro-panel of A is transposed (transposeRows) rather than gathered:
// rows along k, in whole groups of four. A gather a step took 16% of bf16 16x256x2048; transposed,
// 1 thread, GF/s: bf16 308 -> 349, f32 168 -> 194; 24x512x1024 +3.5%, 16x4096x4096 +1.5%.
bool wholeGroups(int64_t depthStride, int64_t height, int64_t tileRows) {
  return depthStride == 1 && height == tileRows && tileRows % 4 == 0;
}

// A's rows as micro-panels of each tile's `tileRows` ([tile][step][tileRows] 32-bit words): f32,
// or bf16 pairs (an even depth). Read in place, a tile's rows (16 KiB apart at K = 4096) shared L1
// sets with B's lines, and f32 M = 16 ran at 97 or 127 GF/s by where the operands fell (packed:
// 117-118), M = 24 153 -> 164.
void packStreamedA(const float *a, int64_t aRowStride, int64_t aDepthStride, int64_t rows, int64_t tileRows,
                   int64_t depth, float *packed) {
  for (int64_t row0 = 0; row0 < rows; row0 += tileRows) {
    const float *rowsOfA = a + row0 * aRowStride;
    float *panel = packed + row0 * depth;
    const int64_t height = rows - row0 < tileRows ? rows - row0 : tileRows;
    const int64_t done =
        wholeGroups(aDepthStride, height, tileRows) ? transposeRows(rowsOfA, aRowStride, depth, panel, tileRows) : 0;
    packPanelOfA(rowsOfA + done * aDepthStride, aRowStride, aDepthStride, height, depth - done,
                 panel + done * tileRows, tileRows);
  }
}
void packStreamedA(const BFloat *a, int64_t aRowStride, int64_t aDepthStride, int64_t rows, int64_t tileRows,
                   int64_t depth, uint32_t *packed) {
  const int64_t steps = depth / 2;
  // Rows along k: a pair is one 32-bit word of a row, and A a (rows x steps) matrix of words,
  // packed as f32 is.
  if (aDepthStride == 1 && aRowStride % 2 == 0)
    return packStreamedA(reinterpret_cast<const float *>(a), aRowStride / 2, 1, rows, tileRows, steps,
                         reinterpret_cast<float *>(packed));
  for (int64_t row0 = 0; row0 < rows; row0 += tileRows) {
    const int64_t height = rows - row0 < tileRows ? rows - row0 : tileRows;
    uint32_t *panel = packed + row0 * steps;
    const auto *bits = reinterpret_cast<const uint16_t *>(a + row0 * aRowStride);
    for (int64_t step = 0; step < steps; ++step)
      for (int64_t r = 0; r < tileRows; ++r)
        panel[step * tileRows + r] = pairAt(bits, aDepthStride, aRowStride, 2 * step, r, depth, height);
  }
}

// f32 (T float), or bf16 pairs through vdpbf16ps (T BFloat, an even depth).
template <class T>
void streamedProduct(const T *a, int64_t aRowStride, int64_t aDepthStride, const T *b, int64_t bDepthStride,
                     float *c, int64_t cRowStride, int64_t rows, int64_t columns, int64_t depth,
                     const Epilogue<float> &epilogue) {
  constexpr bool kPairs = kWidens<T>;
  constexpr int64_t kStep = kPairs ? 2 : 1;  // depth steps of a tile's step
  using Word = typename std::conditional<kPairs, uint32_t, float>::type;
  const int64_t rowTiles = (rows + kRows - 1) / kRows, tileRows = (rows + rowTiles - 1) / rowTiles;
  const int64_t depthChunk = kStep * blocking(rows, depth / kStep).depthChunk;  // as gemm's
  const int64_t rowBytes = bDepthStride * int64_t{sizeof(T)};
  // f32: panels of whole micro-panels, as few as the sums allow and as wide as each other.
  const int64_t panels = (columns * rows + kStreamedSumsFloats - 1) / kStreamedSumsFloats;
  const int64_t panelWidth =
      kPairs ? kStreamedColumns : ((columns + panels - 1) / panels + kColumns - 1) / kColumns * kColumns;
  const bool bFar = depth * columns * int64_t{sizeof(T)} > aclcpu::ukernelL2Bytes();
  const int64_t farDepth = rows > kStreamedFarTallRows ? kStreamedFarTallDepth : kStreamedFarDepth;
  const bool wholeDepth = !kPairs && depth <= kStreamedWholeDepth && (!bFar || rows > kStreamedFarTallRows);
  const bool shallow = bFar && aclcpu::ukernelStreamsShallowPieces();
  const int64_t pieceDepth = wholeDepth ? depth : shallow ? farDepth : kPairs ? kStreamedPairDepth : kStreamedDepth;
  const int64_t sumsBlocks = ((columns < panelWidth ? columns : panelWidth) + kColumns - 1) / kColumns;
  auto *sums = reinterpret_cast<float *>(aclcpu::ukernelScratch(0, sumsBlocks * rows * kColumns * 4));
  auto *packedA = reinterpret_cast<Word *>(aclcpu::ukernelScratch(1, rowTiles * tileRows * (depth / kStep) * 4));
  packStreamedA(a, aRowStride, aDepthStride, rows, tileRows, depth, packedA);
  __m512i lowColumns = _mm512_setzero_si512(), highColumns = _mm512_setzero_si512();
  if constexpr (kPairs) lowColumns = pairOrder(0), highColumns = pairOrder(1);
  alignas(64) Word kept[(kPairs ? kStreamedPairDepth / 2 : kStreamedWholeDepth) * kColumns];
  auto rowsOfB = [&](int64_t k0, int64_t j0) { return reinterpret_cast<const char *>(b + k0 * bDepthStride + j0); };
  for (int64_t j0 = 0; j0 < columns; j0 += panelWidth) {
    const int64_t width = columns - j0 < panelWidth ? columns - j0 : panelWidth;
    const int64_t blocks = (width + kColumns - 1) / kColumns;
    for (int64_t chunk0 = 0; chunk0 < depth; chunk0 += depthChunk) {
      const int64_t chunkEnd = depth - chunk0 < depthChunk ? depth : chunk0 + depthChunk;
      const Destination<float> out = epilogue.chunk(chunk0 == 0, c, cRowStride, j0);
      for (int64_t k0 = chunk0; k0 < chunkEnd; k0 += pieceDepth) {
        const int64_t slice = chunkEnd - k0 < pieceDepth ? chunkEnd - k0 : pieceDepth, steps = slice / kStep;
        // The next piece: the rows after this one, then the next panel's; after the last piece
        // its own (in cache by then).
        const int64_t nextRow = k0 + slice < depth ? k0 + slice : 0;
        const int64_t nextColumn = k0 + slice < depth ? j0 : j0 + width < columns ? j0 + width : -1;
        const PartialSums pieceOut{sums, rows * kColumns, k0 > chunk0, k0 + slice == chunkEnd, out};
        int64_t fetching = 0;  // bf16: tiles that fetched ahead so far
        for (int64_t block = 0; block < blocks; ++block) {
          const int64_t left = width - block * kColumns;
          const __mmask16 low = firstLanes(left), high = firstLanes(left - 16);
          const T *bOfBlock = b + k0 * bDepthStride + j0 + block * kColumns;
          const char *own = reinterpret_cast<const char *>(bOfBlock);
          for (int64_t row0 = 0; row0 < rows; row0 += tileRows) {
            const Word *aOfTile = packedA + (row0 * depth + k0 * tileRows) / kStep;
            const int64_t height = rows - row0 < tileRows ? rows - row0 : tileRows;
            const PartialSums tileOut = pieceOut.at(row0, block * kColumns);
            if constexpr (kPairs) {
              // The first tile of a block fetches 64 columns of one half of the next piece's
              // rows; the others repeat lines of their own.
              constexpr int64_t kFetchedColumns = 64, kShares = 2 * kStreamedColumns / kFetchedColumns;
              const bool fetches = row0 == 0 && nextColumn >= 0 && fetching < kShares;
              const int64_t share = fetches ? fetching++ : 0;
              const char *from =
                  fetches ? rowsOfB(nextRow + share / (kShares / 2) * steps,
                                    nextColumn + share % (kShares / 2) * kFetchedColumns)
                          : own;
              // Each tile's operands built in place, field by field: copied from structs just
              // built, they were read back wider than they were written, which stalls.
              auto run = [&](auto whole) {
                constexpr bool kWhole = decltype(whole)::value;
                const auto *bits = reinterpret_cast<const uint16_t *>(bOfBlock);
                const auto lanes = static_cast<__mmask32>(low | uint32_t{high} << 16);
                if (rowTiles == 1)
                  registerTileRows(height,
                                   StreamedPairs<kWhole>{{from, rowBytes}, {aOfTile, tileRows}, bits, bDepthStride,
                                                         lanes, lowColumns, highColumns},
                                   steps, tileOut, low, high);
                else
                  registerTileRows(height,
                                   KeepingPairs<kWhole>{{{from, rowBytes}, {aOfTile, tileRows}, bits, bDepthStride,
                                                         lanes, lowColumns, highColumns},
                                                        kept},
                                   steps, tileOut, low, high);
              };
              if (row0 > 0)
                registerTileRows(height, Kept<Word>{{from, rowBytes}, {aOfTile, tileRows}, kept}, steps, tileOut,
                                 low, high);
              else if (left >= kColumns)
                run(std::true_type{});
              else
                run(std::false_type{});
            } else {
              // kAheadBlocks micro-panels on, along this piece's rows or past its last micro-panel
              // into the next piece's: one tile fetches them, or with B beyond L2 and several
              // tiles the first 2^shift share them (SharedRowAhead). The others repeat lines of
              // their own.
              const int64_t past = block + kAheadBlocks - blocks;  // micro-panels past this piece's
              const int64_t aheadColumn =
                  past < 0 ? j0 + (block + kAheadBlocks) * kColumns : nextColumn + past * kColumns;
              const int64_t tile = row0 / tileRows, shift = bFar && rowTiles >= 4 ? 2 : bFar && rowTiles >= 2 ? 1 : 0;
              const bool fetches = tile < (1 << shift) && (past < 0 || nextColumn >= 0) && aheadColumn < columns;
              const int64_t shareRows = (steps + (1 << shift) - 1) >> shift;
              const char *from = fetches ? rowsOfB((past < 0 ? k0 : nextRow) + tile * shareRows, aheadColumn) : own;
              // The first tile keeps B's rows for the others (KeepingB, Kept).
              auto run = [&](auto ahead) {
                using Ahead = decltype(ahead);
                auto firstTile = [&](auto whole) {
                  constexpr bool kWhole = decltype(whole)::value;
                  if (rowTiles == 1)
                    registerTileRows(height,
                                     StreamedOperands<kWhole>{{from, rowBytes}, {aOfTile, tileRows}, bOfBlock,
                                                              bDepthStride},
                                     steps, tileOut, low, high);
                  else
                    registerTileRows(
                        height, KeepingB<kWhole, Ahead>{{ahead, {aOfTile, tileRows}, bOfBlock, bDepthStride}, kept},
                        steps, tileOut, low, high);
                };
                if (row0 > 0)
                  registerTileRows(height, Kept<Word, Ahead>{ahead, {aOfTile, tileRows}, kept}, steps, tileOut, low,
                                   high);
                else if (left >= kColumns)
                  firstTile(std::true_type{});
                else
                  firstTile(std::false_type{});
              };
              if (shift > 0)
                run(SharedRowAhead{{from, rowBytes}, shift});
              else
                run(RowAhead{from, rowBytes});
            }
          }
        }
      }
    }
  }
}

// Takes the product if it is for the streamed path: f32, or bf16 pairs of an even depth.
template <bool Pairs, class T>
bool streamed(const T *a, int64_t aRowStride, int64_t aDepthStride, const T *b, int64_t bDepthStride,
              int64_t bColumnStride, float *c, int64_t cRowStride, int64_t rows, int64_t columns, int64_t depth,
              const Epilogue<float> &epilogue) {
  // Widened types without pairs, and rounded pairs (f16, f32: rounded as they are packed), do not stream.
  if constexpr ((kWidens<T> && !Pairs) || (Pairs && !std::is_same_v<T, BFloat>)) {
    return false;
  } else {
    const bool wide = !Pairs && columns >= kStreamedWideColumns && !aclcpu::ukernelPacksDuringTiles();
    if (rows > (Pairs ? kStreamedPairRows : wide ? kStreamedWideRows : kStreamedRows) || bColumnStride != 1 ||
        (Pairs && depth % 2 != 0))
      return false;
    streamedProduct(a, aRowStride, aDepthStride, b, bDepthStride, c, cRowStride, rows, columns, depth, epilogue);
    return true;
  }
}

// A few rows (a matrix-vector product, nearly): packing B would read and write it once more than
// the product reads it, so B streams row by row instead, eight depth steps at a time, into
// the rows of C (C[r][j] += sum_t a[r][k+t] B[k+t][j]; gemm passes one depth chunk at a time,
// into zeroed sums). Needs B's rows contiguous. Eight rows of
// B a pass read and write C half as often as four did: 1 thread, M = 1, N = K = 4096 (memory
// bound, 64 MiB of B) 16.1 -> 18.4 GF/s, two threads 24 -> 35, M = 4 +22%, M = 1, N = K = 1024
// (B in L2) even (medians of ten alternating processes); sixteen rows lost 14%.
// The rows are a template argument and a last pass of fewer than eight steps is a loop of its
// own: whole passes then run branch-free, with the weights' broadcasts hoisted. With a branch
// per step and a loop over the rows inside each pass, the same reads ran at 0.76x oneDNN's
// f32 M = 1 from memory, against 1.01-1.07x as here (op_bench, paired).
// Not inlined: inlined into gemm's loop over depth chunks, GCC spilled the weights (3x1024x1024
// -7 to -11%).
//
// FetchPass: each line of the eight rows a pass reads also sends the same line of the next
// pass's rows towards L2. For 16-bit B too large for L3 (gemm): bf16 M = 1, N = K = 4096 (32
// MiB) 27 -> 41-46 GF/s, M = 4 85 -> 127, f16 M = 1 27 -> 33; but where B sits in L3 the tiles lost
// (bf16 1x4096x2048 -6%, 2x2048x2048 -20%, 1x1024x1024 -20%), and f32 from memory lost 6-9%.
// One pass of fewRows: `Steps` rows of B from `rowsOfB` into the `Rows` rows of C.
template <int64_t Steps, class T, int64_t Rows, bool FetchPass>
__attribute__((always_inline)) inline void fewRowsPass(const T *a, int64_t aRowStride, int64_t aDepthStride,
                                                       const T *rowsOfB, int64_t bDepthStride, float *c,
                                                       int64_t cRowStride, int64_t columns) {
  float weights[Rows][Steps];
  for (int64_t r = 0; r < Rows; ++r)
    for (int64_t t = 0; t < Steps; ++t) weights[r][t] = load1(a + r * aRowStride + t * aDepthStride);
  int64_t j = 0;
  for (; j + 16 <= columns; j += 16) {
    if (FetchPass && (j * int64_t{sizeof(T)}) % 64 == 0)
      for (int64_t t = 0; t < Steps; ++t)
        _mm_prefetch(reinterpret_cast<const char *>(rowsOfB + (Steps + t) * bDepthStride + j), _MM_HINT_T1);
    __m512 bv[Steps];
    for (int64_t t = 0; t < Steps; ++t) bv[t] = load16(rowsOfB + t * bDepthStride + j);
    for (int64_t r = 0; r < Rows; ++r) {
      float *out = c + r * cRowStride + j;
      __m512 sum = _mm512_loadu_ps(out);
      for (int64_t t = 0; t < Steps; ++t) sum = _mm512_fmadd_ps(_mm512_set1_ps(weights[r][t]), bv[t], sum);
      _mm512_storeu_ps(out, sum);
    }
  }
  for (; j < columns; ++j)
    for (int64_t r = 0; r < Rows; ++r) {
      float sum = c[r * cRowStride + j];
      for (int64_t t = 0; t < Steps; ++t)
        sum = __builtin_fmaf(weights[r][t], load1(rowsOfB + t * bDepthStride + j), sum);
      c[r * cRowStride + j] = sum;
    }
}

template <class T, int64_t Rows, bool FetchPass>
__attribute__((noinline)) void fewRows(const T *a, int64_t aRowStride, int64_t aDepthStride, const T *b,
                                       int64_t bDepthStride, float *c, int64_t cRowStride, int64_t columns,
                                       int64_t depth) {
  constexpr int64_t kSteps = 8;
  const int64_t wholeDepth = depth / kSteps * kSteps;
  for (int64_t k = 0; k < wholeDepth; k += kSteps)
    fewRowsPass<kSteps, T, Rows, FetchPass>(a + k * aDepthStride, aRowStride, aDepthStride, b + k * bDepthStride,
                                            bDepthStride, c, cRowStride, columns);
  // The last steps, fewer than a pass: a row of B at a time (each C element sums in depth order
  // either way).
  for (int64_t k = wholeDepth; k < depth; ++k)
    fewRowsPass<1, T, Rows, false>(a + k * aDepthStride, aRowStride, aDepthStride, b + k * bDepthStride,
                                   bDepthStride, c, cRowStride, columns);
}

// fewRows for `rows` (1 to kFewRows) rows of A.
template <class T, bool FetchPass>
void fewRowsOf(int64_t rows, const T *a, int64_t aRowStride, int64_t aDepthStride, const T *b, int64_t bDepthStride,
               float *c, int64_t cRowStride, int64_t columns, int64_t depth) {
  static_assert(kFewRows == 4, "one fewRows per number of rows");
  auto *const run = rows == 1   ? &fewRows<T, 1, FetchPass>
                    : rows == 2 ? &fewRows<T, 2, FetchPass>
                    : rows == 3 ? &fewRows<T, 3, FetchPass>
                                : &fewRows<T, 4, FetchPass>;
  run(a, aRowStride, aDepthStride, b, bDepthStride, c, cRowStride, columns, depth);
}

// B is `bBase` from `bOffset` on: where that buffer is a constant operand (const_panels.h), the
// packed panels of B are kept across calls.
template <class T, bool Pairs = false>
void gemm(const T *a, int64_t aRowStride, int64_t aDepthStride, const T *b, int64_t bDepthStride,
          int64_t bColumnStride, float *c, int64_t cRowStride, int64_t rows, int64_t columns, int64_t depth,
          const Epilogue<float> &epilogue, const void *bBase, int64_t bOffset) {
  if (rows <= 0 || columns <= 0) return;
  if (depth <= 0) {  // an empty product: the epilogue alone
    if (epilogue.scaled()) epilogue.finish(nullptr, 0, c, cRowStride, rows, columns);
    return;
  }
  // A few rows read a constant B's kept panels (panelOfB) rather than B itself, several
  // micro-panels at a time (sideBySideTile), where those hold no more bytes than B: f32, and
  // bf16 pairs interleaved for vdpbf16ps, which fewRows would widen element by element in
  // every call (f16's panels are widened to f32: twice B's bytes). 1 thread, pinned, N = K =
  // 4096 (B from memory), GF/s: f32 M = 1 16.7 -> 22.7, 2 30.0 -> 41.2, 4 47.6 -> 62.7; bf16
  // M = 1 29.8 -> 48.0, 4 100 -> 137; 1x1024x1024 f32 +8-14%, bf16 +36%. f32 gives the same
  // bits either way (fewRows sums in the same depth chunks); bf16 sums round as vdpbf16ps's
  // pairs do, not as fewRows' f32 FMAs.
  constexpr bool kPanelsNoWider = !kWidens<T> || Pairs;
  // f16 and f32 in low precision round to bf16 on every path: few rows read them rounded (Rounded)
  // where B outgrows L2 or one or two rows read it; three or four rows over B in L2 take the
  // packed pairs, at vdpbf16ps' rate. Against packed pairs (lib-ab, 1 thread): M = 1, 2, 4 with
  // N = K = 4096 +2.7x, +2.4x, +2x (14 -> 39 GF/s at M = 1: exact f16 runs 46), 1x1024x1024 +21%,
  // 3x1024x1024 +4%, 1x256x256 +17%, 2x512x512 even, but 4x512x512 -10% and 4x256x256 -19%.
  constexpr bool kRoundsToBf16 = Pairs && !std::is_same_v<T, BFloat>;
  using FewRowsType = std::conditional_t<kRoundsToBf16, Rounded<T>, T>;
  const bool fewRowsStream =
      !kRoundsToBf16 || rows <= 2 || depth * bDepthStride * int64_t{sizeof(T)} > aclcpu::ukernelL2Bytes();
  if (fewRowsStream && rows <= kFewRows && bColumnStride == 1 && !(kPanelsNoWider && aclcpu::isConstOperand(bBase))) {
    // Summed in the packed path's depth chunks, each into zeroed sums that then reach C as a
    // chunk's tiles put theirs: f32 gives the same bits as with B's panels.
    const int64_t depthChunk = blocking(rows, depth).depthChunk;
    auto *sums = reinterpret_cast<float *>(aclcpu::ukernelScratch(2, rows * columns * 4));
    // 16-bit B that L3 cannot hold fetches each pass's next rows (fewRows' FetchPass), and so does
    // f32 B rounded to bf16 (its rounding's instructions left the prefetchers behind: lib-ab, 1
    // thread, M = 1 and 2, N = K = 4096, +16% and +20%).
    const int64_t l3Bytes = aclcpu::ukernelL3Bytes();
    const bool fromMemory = l3Bytes > 0 && depth * bDepthStride * int64_t{sizeof(T)} >= l3Bytes;
    auto *streamRows =
        fromMemory ? &fewRowsOf<FewRowsType, kWidens<T> || kRoundsToBf16> : &fewRowsOf<FewRowsType, false>;
    const auto *fewA = reinterpret_cast<const FewRowsType *>(a), *fewB = reinterpret_cast<const FewRowsType *>(b);
    for (int64_t k0 = 0; k0 < depth; k0 += depthChunk) {
      for (int64_t i = 0; i < rows * columns; ++i) sums[i] = 0.0f;
      streamRows(rows, fewA + k0 * aDepthStride, aRowStride, aDepthStride, fewB + k0 * bDepthStride, bDepthStride,
                 sums, columns, columns, depth - k0 < depthChunk ? depth - k0 : depthChunk);
      epilogue.finish(sums, columns, c, cRowStride, rows, columns, k0 == 0);
    }
    return;
  }
  if (!kRoundsToBf16 && inPlace(a, aRowStride, aDepthStride, b, bDepthStride, bColumnStride, c, cRowStride, rows,
                                 columns, depth, epilogue))
    return;
  const void *constB = aclcpu::isConstOperand(bBase) ? bBase : nullptr;
  if (!constB && streamed<Pairs>(a, aRowStride, aDepthStride, b, bDepthStride, bColumnStride, c, cRowStride, rows,
                                 columns, depth, epilogue))
    return;
  // Depth steps of a panel: k, or pairs of k for vdpbf16ps.
  auto stepsOf = [](int64_t slice) { return Pairs ? pairSteps(slice) : slice; };
  // Pairs pack two depth steps into one f32's bytes: sized by pair steps, their chunks hold the
  // same bytes as f32's.
  const Blocking sizes = blocking(rows, stepsOf(depth));
  const int64_t depthChunk = Pairs ? 2 * sizes.depthChunk : sizes.depthChunk;
  const int64_t columnChunk = sizes.columnChunk, rowBand = sizes.rowBand;
  const int64_t panelColumns = columns < columnChunk ? columns : columnChunk;
  const int64_t panelDepth = depth < depthChunk ? depth : depthChunk;
  const int64_t chunkRows = (rows < kRowChunk ? rows : kRowChunk) + kRows;  // + a partial micro-panel
  const int64_t panelBlocks = (panelColumns + kColumns - 1) / kColumns;
  const int64_t panelFloats = panelBlocks * stepsOf(panelDepth) * kColumns;  // one depth chunk of a column panel
  const int64_t depthChunks = (depth + depthChunk - 1) / depthChunk;
  // Several bands reuse a column panel: its whole depth is packed ahead, once. One band packs
  // each depth chunk just before it uses it, while it is in L2 (or during the chunk before's
  // tiles, packDuring). A constant B's panels are kept (panelOfB): none is packed ahead into
  // scratch.
  const bool packAhead = rows > rowBand && !constB;
  // One band packing B just in time packs each chunk's whole micro-panels while the tiles of
  // the chunk before run (PanelShare), a micro-panel into the slot of the one whose tiles
  // just ended (a spare slot the first), rather than in a pass of its own that waits on
  // memory: B's rows are 1 KiB runs 16 KiB apart there, which the packing read at 22-24 GB/s.
  // Where the tiles' prefetches of B's rows stall them, the pass is quicker (ukernels.h).
  const bool packDuring = !packAhead && !constB && bColumnStride == 1 && rows >= kPackDuringRows &&
                          panelBlocks <= kMostDuringBlocks && aclcpu::ukernelPacksDuringTiles();
  const int64_t slotFloats = stepsOf(panelDepth) * kColumns;
  auto *packedB = reinterpret_cast<float *>(aclcpu::ukernelScratch(
      0, (packAhead ? depthChunks * panelFloats : packDuring ? (panelBlocks + 1) * slotFloats : panelFloats) * 4));
  float *slots[kMostDuringBlocks + 1] = {};  // the current chunk's micro-panels, then the spare
  for (int64_t block = 0; packDuring && block <= panelBlocks; ++block) slots[block] = packedB + block * slotFloats;
  // f32 A with its rows along k is read in place (RowsInPlace), bf16 pairs too with an even
  // depth (PairsInPlace; every chunk but the last is a multiple of 16 deep), anything else packed.
  // Except rows a whole number of 4 KiB apart: a tile's twelve rows then share one set of L1
  // and evict each other once a neighbour shares the core (f32 M = 128, N = K = 4096 at 109
  // GF/s there, 144 packed). Several bands too (session 20): beside oneDNN, in a phase where
  // the vCPU got a third of the time, 1024^3 0.72x -> 0.99x, 2048^3 0.73x -> 0.94x, bf16
  // 2048^3 0.81x -> 0.95x; on a quieter core 1024^3 even, 2048^3 +8%, bf16 2048^3 +6%. One band
  // packs each depth chunk of A once and keeps it for the column panels after the first
  // (keptA), where its size allows.
  // f16 and f32 in low precision: A with its rows along k, an even depth and at most kRoundedAElements is
  // rounded to bf16 once, into scratch rows off 4 KiB multiples, and read there in place as bf16
  // A is (PairsInPlace). Against packing it (f16, lib-ab, 1 thread): 64^3 +4.6%, 128^3 +3.7%, 256^3
  // and 512^3 even, 1000^3 -0.8%, 2048^3 -1.5%.
  const uint16_t *aWords = reinterpret_cast<const uint16_t *>(a);  // bf16 A's words, or f16 or f32 A rounded
  int64_t aWordsStride = aRowStride;
  bool roundedA = false;
  if constexpr (kRoundsToBf16) {
    if (aDepthStride == 1 && depth % 2 == 0 && rows * depth <= kRoundedAElements) {
      aWordsStride = depth * 2 % 4096 == 0 ? depth + 32 : depth;
      auto *bits = reinterpret_cast<uint16_t *>(aclcpu::ukernelScratch(1, rows * aWordsStride * 2));
      roundBlockToBf16(a, aRowStride, 1, rows, depth, bits, aWordsStride);
      aWords = bits;
      roundedA = true;
    }
  }
  const bool aAliased = aRowStride * int64_t{sizeof(T)} % 4096 == 0;
  const bool aInPlace = kRoundsToBf16 ? roundedA
                                      : (!kWidens<T> || (Pairs && depth % 2 == 0)) && aDepthStride == 1 && !aAliased;
  const float *aFloats = reinterpret_cast<const float *>(a);  // used only when it is f32
  const bool keptA = !aInPlace && rows <= kRowChunk && columns > columnChunk &&
                     chunkRows * stepsOf(depth) <= kKeptAFloats;
  auto *packedA = aInPlace ? nullptr
                           : reinterpret_cast<float *>(aclcpu::ukernelScratch(
                                 1, chunkRows * stepsOf(keptA ? depth : panelDepth) * 4));
  auto packPanelOfB = [&](int64_t k0, int64_t j0, int64_t slice, int64_t width, float *to) {
    if constexpr (Pairs)
      packBPairs(b + k0 * bDepthStride + j0 * bColumnStride, bDepthStride, bColumnStride, slice, width,
                 reinterpret_cast<uint32_t *>(to));
    else
      packB(b + k0 * bDepthStride + j0 * bColumnStride, bDepthStride, bColumnStride, slice, width, to);
  };
  auto packChunkOfA = [&](int64_t row0, int64_t k0, int64_t chunk, int64_t slice, float *to) {
    const T *from = a + row0 * aRowStride + k0 * aDepthStride;
    if constexpr (Pairs)
      packAPairs(from, aRowStride, aDepthStride, chunk, slice, reinterpret_cast<uint32_t *>(to));
    else
      packA(from, aRowStride, aDepthStride, chunk, slice, to);
  };
  auto packBlock = [&](int64_t k0, int64_t j0, int64_t slice, int64_t width, int64_t block) {
    const int64_t left = width - block * kColumns;
    packPanelOfB(k0, j0 + block * kColumns, slice, left < kColumns ? left : kColumns, slots[block]);
  };
  // A panel of B, packed into `scratch` or, for a constant B, kept from an earlier call (or
  // packed now and kept). Kept panels skip the pass that reads B and writes the panel: 1 thread,
  // f32 M = 16, N = K = 4096 +27%, M = 128 +47%, bf16 M = 16 +77%; 1024^3 +2.5%.
  auto panelOfB = [&](int64_t k0, int64_t j0, int64_t slice, int64_t width, float *scratch) -> const float * {
    if (constB) {
      const aclcpu::ConstPanelKey key{{bOffset, bDepthStride, bColumnStride, j0, k0, slice, width,
                               int64_t{sizeof(T)} * 4 + (Pairs ? 1 : 0) + (kRoundsToBf16 ? 2 : 0)}};
      const int64_t bytes = (width + kColumns - 1) / kColumns * stepsOf(slice) * kColumns * 4;
      bool fill = false;
      if (uint8_t *kept = aclcpu::constPanel(constB, key, bytes, fill)) {
        auto *panel = reinterpret_cast<float *>(kept);
        if (fill) {
          packPanelOfB(k0, j0, slice, width, panel);
          aclcpu::constPanelFilled(constB, key);
        }
        return panel;
      }
    }
    packPanelOfB(k0, j0, slice, width, scratch);
    return scratch;
  };
  for (int64_t j0 = 0; j0 < columns; j0 += columnChunk) {
    const int64_t width = columns - j0 < columnChunk ? columns - j0 : columnChunk;
    const int64_t blocks = (width + kColumns - 1) / kColumns;
    for (int64_t k0 = 0; packAhead && k0 < depth; k0 += depthChunk)
      packPanelOfB(k0, j0, depth - k0 < depthChunk ? depth - k0 : depthChunk, width,
                   packedB + k0 / depthChunk * panelFloats);
    // Bands of rows, each through the whole depth: the band's C panel stays in L2 meanwhile.
    for (int64_t band0 = 0; band0 < rows; band0 += rowBand) {
      const int64_t bandEnd = rows - band0 < rowBand ? rows : band0 + rowBand;
      for (int64_t k0 = 0; k0 < depth; k0 += depthChunk) {
        const int64_t slice = depth - k0 < depthChunk ? depth - k0 : depthChunk, steps = stepsOf(slice);
        const Destination<float> out = epilogue.chunk(k0 == 0, c, cRowStride, j0);
        const float *packedPanel = packAhead    ? packedB + k0 / depthChunk * panelFloats
                                   : packDuring ? nullptr
                                                : panelOfB(k0, j0, slice, width, packedB);
        for (int64_t block = 0; packDuring && j0 == 0 && k0 == 0 && block < blocks; ++block)
          packBlock(k0, j0, slice, width, block);
        // The chunk after this one, whose whole micro-panels this one's tiles pack.
        const int64_t nextK0 = k0 + depthChunk < depth ? k0 + depthChunk : 0;
        const int64_t nextJ0 = nextK0 == 0 ? j0 + columnChunk : j0;
        const bool hasNext = packDuring && nextJ0 < columns;
        const int64_t nextSlice = depth - nextK0 < depthChunk ? depth - nextK0 : depthChunk;
        const int64_t nextWidth = columns - nextJ0 < columnChunk ? columns - nextJ0 : columnChunk;
        const int64_t nextShared = hasNext ? nextWidth / kColumns : 0;
        for (int64_t row0 = band0; row0 < bandEnd; row0 += kRowChunk) {
          const int64_t chunk = bandEnd - row0 < kRowChunk ? bandEnd - row0 : kRowChunk;
          float *chunkOfA = keptA ? packedA + chunkRows * stepsOf(k0) : packedA;
          if (!aInPlace && (!keptA || j0 == 0)) packChunkOfA(row0, k0, chunk, slice, chunkOfA);
          // The operands of the tile at row `r` of the chunk over `panelB`, handed to `use`.
          auto withOperands = [&](int64_t r, const PackedB &panelB, auto &&use) {
            if constexpr (Pairs) {
              if (aInPlace)
                use(PairsInPlace{panelB, aWords + (row0 + r) * aWordsStride + k0, aWordsStride});
              else
                use(PackedPairs{panelB, reinterpret_cast<const uint32_t *>(chunkOfA) + r * steps});
            } else if (aInPlace) {
              use(RowsInPlace{panelB, aFloats + (row0 + r) * aRowStride + k0, aRowStride});
            } else {
              use(PackedPanels{panelB, chunkOfA + r * steps});
            }
          };
          // Micro-panels outside, rows inside: a micro-panel stays in L1 while the chunk's rows
          // pass, and the first two fetch the next one (PackedB).
          for (int64_t block = 0; block < blocks; ++block) {
            const int64_t left = width - block * kColumns;
            const __mmask16 low = firstLanes(left), high = firstLanes(left - 16);
            const float *panel = packDuring ? slots[block] : packedPanel + block * steps * kColumns;
            const char *nextPanel = reinterpret_cast<const char *>(
                packDuring ? slots[block + 1 < blocks ? block + 1 : block] : panel + steps * kColumns);
            const bool alone = chunk <= kRows;  // one tile: every other line (L2 pairs them)
            if (chunk <= kFewRows) {  // a few rows: several whole micro-panels at once
              const int64_t wholeBlocks = left / kColumns;
              const Destination<float> tile = out.at(row0, block * kColumns);
              int64_t took = 0;
              withOperands(0, PackedB{panel, nullptr, 0}, [&](const auto &operands) {
                took = sideBySideTile(chunk, operands, steps * kColumns, wholeBlocks, steps, tile);
              });
              if (took > 0) {
                block += took - 1;
                continue;
              }
            }
            // This block's tiles share the packing of the next chunk's micro-panel `block`, each
            // its rows' part of the steps (a tile of one row packing as many as one of twelve
            // left bf16 25x4096x4096 at 0.73x), spread over its steps; what those cannot hold it
            // packs after it.
            const bool sharing = block < nextShared && row0 + chunk == bandEnd;
            const int64_t nextSteps = stepsOf(nextSlice);
            const T *blockSource = sharing ? b + nextK0 * bDepthStride + nextJ0 + block * kColumns : nullptr;
            const T *thenSource = sharing && block + 1 < nextShared ? blockSource + kColumns : nullptr;
            float *spare = sharing ? slots[panelBlocks] : nullptr;
            PanelShare<T, Pairs> share{blockSource, thenSource, bDepthStride, nextSlice, nextSteps, spare, 0, 0, 0};
            for (int64_t at = 0; sharing && at < kPackAheadSteps && at < nextSteps; ++at)
              share.fetchStep(share.from, at);
            for (int64_t r = 0; r < chunk; r += kRows) {
              PackedB panelB{panel, reinterpret_cast<const char *>(panel), 0};
              const int64_t fetchers = chunk > 3 * kRows ? 4 : alone ? 1 : 2;
              if (block + 1 < blocks && r < fetchers * kRows) {
                panelB.next = nextPanel + r / kRows * steps * 128 / fetchers;
                panelB.nextStride = 128 / fetchers;
              }
              const int64_t height = chunk - r < kRows ? chunk - r : kRows;
              const Destination<float> tile = out.at(row0 + r, block * kColumns);
              share.first = nextSteps * r / chunk;
              const int64_t planned = nextSteps * (r + height) / chunk - share.first;
              for (share.shift = 0; planned > 0 && (steps >> (share.shift + 1)) >= planned;) ++share.shift;
              const int64_t room = (steps + (int64_t{1} << share.shift) - 1) >> share.shift;
              share.count = planned < room ? planned : room;
              withOperands(r, panelB, [&](const auto &operands) {
                using Packing = PackingOperands<std::decay_t<decltype(operands)>, T, Pairs>;
                if (sharing && share.count > 0)
                  registerTileRows(height, Packing{operands, share}, steps, tile, low, high);
                else
                  registerTileRows(height, operands, steps, tile, low, high);
              });
              if (sharing && planned > share.count) share.pack(share.first + share.count, share.first + planned);
            }
            if (sharing) std::swap(slots[block], slots[panelBlocks]);
          }
        }
        // The next chunk's micro-panels no tile packed: its ragged last, and any past this chunk's.
        for (int64_t block = nextShared; hasNext && block < (nextWidth + kColumns - 1) / kColumns; ++block)
          packBlock(nextK0, nextJ0, nextSlice, nextWidth, block);
      }
    }
  }
}

}  // namespace

// `Pairs`: bf16 through vdpbf16ps (the caller checks the CPU has AVX512-BF16).
#define ACLCPU_GEMM_UKERNEL(name, T, Pairs)                                                                       \
  extern "C" void name(ACLCPU_GEMM_UKERNEL_PARAMETERS(void, float)) {                                             \
    gemm<T, Pairs>(static_cast<const T *>(a) + aOffset, aRowStride, aDepthStride, static_cast<const T *>(b) + bOffset, \
                   bDepthStride, bColumnStride, c + cOffset, cRowStride, rows, columns, depth,                      \
                   Epilogue<float>::of(ACLCPU_GEMM_EPILOGUE_ARGUMENTS), b, bOffset);                                \
  }
ACLCPU_GEMM_UKERNEL(aclcpu_ukernel_gemm_f32f32f32, float, false)
ACLCPU_GEMM_UKERNEL(aclcpu_ukernel_gemm_f16f16f32, Half, false)
ACLCPU_GEMM_UKERNEL(aclcpu_ukernel_gemm_bf16bf16f32, BFloat, false)
ACLCPU_GEMM_UKERNEL(aclcpu_ukernel_gemm_bf16bf16f32_dpbf16, BFloat, true)
ACLCPU_GEMM_UKERNEL(aclcpu_ukernel_gemm_f16f16f32_dpbf16, Half, true)
ACLCPU_GEMM_UKERNEL(aclcpu_ukernel_gemm_f32f32f32_dpbf16, float, true)
