// The GEMM ukernels on AMX: bf16 -> f32 by tdpbf16ps (AMX-BF16) and s8 x s8 -> s32 by tdpbssd
// (AMX-INT8). One instruction multiplies a 16-row tile of A (64 bytes of k a row) by a tile of
// B (16 rows of 4-byte groups of k: pairs of bf16, quads of s8) into a 16 x 16 tile of C:
// 16384 bf16 products or 32768 s8 ones, eight times vdpbf16ps' or vpdpbusd's. Same contracts
// and numerics as the _dpbf16 and _vnni ukernels (bf16: exact products summed in f32, bf16
// denormals read as zero, f32 denormal sums flushed; s8: wrapping s32 sums, and no bias: the
// tile multiplies signed by signed).
//
// GotoBLAS's scheme with tiles for registers: for each panel of columns and each depth chunk
// (Blocking), B is packed into 1 KiB tiles ([16-column strip][tile step of k][16 groups of k]
// [16 columns]), then each band of 32 rows packs its A tiles ([16-row half][step][16 rows][64
// bytes of k]) and sweeps the panel with a 32 x 32 block of C in four tile registers, two A and
// two B tiles loaded a step (a band of 16 rows: its upper half alone); a band 16 blocks wide or
// more (exact f16: 4) packs the next band's A tiles between its steps (NextBandOfA). Both operands are
// zero-padded to whole tiles, so one tile shape serves every product; a whole block of C that
// the epilogue leaves as a plain sum is loaded into the tiles and stored back, the others go
// through a buffer and epilogue.h. A constant B's tiles are kept across calls (const_panels.h),
// as the AVX-512 ukernels keep theirs. A band of fewer than 32 rows runs padded with zeros (bf16
// M = 16, N = K = 4096, B constant, 106 -> 359 GFLOP/s against the pairs); products of fewer
// rows than fewestRows take the AVX-512 ukernel, whose few-row paths stream B instead.
//
// Compiled with AMX flags, and like the other ukernel files free of inline library code (see
// gemm_s8s8s32_vnni.cpp). Linux grants a process AMX's tile data only on request
// (ukernelAmxPermitted); the host target offers these ukernels only where it was granted.
#include "ukernels.h"

#include "const_panels.h"
#include "vector_avx512.h"
#include "epilogue.h"
#include "intrinsics.h"

#include <cstdint>
#include <type_traits>

namespace {

constexpr int64_t kTileRows = 16;       // rows of an A or C tile, groups of k of a B tile
constexpr int64_t kTileBytes = 64;      // bytes of a tile row
constexpr int64_t kTileColumns = 16;    // columns of a C tile: 4-byte groups in a row of B's
constexpr int64_t kBandRows = 32;       // rows of a block of C: two A tiles
constexpr int64_t kBlockColumns = 32;   // columns of a block of C: two B tiles

// Bytes from a strip of B's tiles to the next: its steps' tiles and a line more. A packing stores
// a row of B across the strips; a whole number of KiB apart they fell in one set of L1 (bf16, B
// every call, M = 16, N = K = 4096: 237 -> 319 GFLOP/s; M = 128: 744 -> 783).
constexpr int64_t stripBytes(int64_t steps) { return steps * kTileRows * kTileBytes + 64; }

// Bytes of B's tiles for `columns` (whole pairs of strips: packB) over `steps` steps of k.
constexpr int64_t bTilesBytes(int64_t columns, int64_t steps) {
  return (columns + kBlockColumns - 1) / kBlockColumns * 2 * stripBytes(steps);
}

// B's panel and depth chunk: the columns packed at a time, and the bytes of k.
struct Blocking {
  int64_t panelColumns, chunkBytes;
  constexpr int64_t packedBytes() const { return bTilesBytes(panelColumns, chunkBytes / kTileBytes); }
};
// Bands of A share each packed chunk of B (1 MiB, kept in L2); deep chunks, fewer passes over C
// (512^3 bf16 1.53 -> 1.62 TFLOP/s, 1024^3 1.21 -> 1.30 against 1 KiB of k, whose band of A
// stays in L1).
constexpr Blocking kBands{512, 2048};
// One band uses each chunk once: wide and shallow, B's rows are read in 4 KiB runs, and a 256 KiB
// chunk leaves L2 to the rows streaming in (bf16, B every call, M = 16, N = K = 4096: 215 -> 319
// GFLOP/s against kBands; M = 32 389 -> 517). So do up to four bands over a B of L2's size or
// more (ms: 48x4096x4096 3.54 -> 2.55, 96 5.07 -> 3.85, 128 5.80 -> 4.90, 128x1024x1024 0.319
// -> 0.286; but 128-row calls of 256^3 0.022 -> 0.024, 256-row ones of 512^3 0.182 -> 0.212).
// A constant B's kept tiles take the same blocking: its depth chunks set the order of the sums,
// which must not change with constness (so a B kept for both few and many rows is kept in both
// blockings).
constexpr Blocking kOneBand{2048, 256};

// f16's bits, apart from bf16's.
struct HalfBits {
  uint16_t bits;
};

// What differs between the kinds of product: the operands' element (Source) and the element the
// tiles multiply, how many of k share a 4-byte group of B's tiles, the sums' type (and so the
// tile product), and a tag telling a kind's kept panels apart. f16 and f32 in low precision are
// rounded to bf16 as they are packed (vcvtne2ps2bf16: to nearest even, f32 denormals to zero, as
// the _dpbf16 ukernels round them).
template <class SourceType, class ElementType, class SumType, int64_t Group, int64_t Tag, int64_t Expand = 1>
struct Kind {
  using Source = SourceType;
  using Element = ElementType;
  using Sum = SumType;
  static constexpr int64_t kGroup = Group, kTag = Tag, kExpand = Expand;
};
using Bf16 = Kind<uint16_t, uint16_t, float, 2, 1>;
using S8 = Kind<int8_t, int8_t, int32_t, 4, 2>;
using F16Rounded = Kind<HalfBits, uint16_t, float, 2, 3>;
using F32Rounded = Kind<float, uint16_t, float, 2, 4>;
// f16 exactly: x = hi + lo, hi = bf16(x) and lo = x - hi (f16's 11 significant bits leave at
// most 4 to lo: exact in bf16, and no bf16 denormal). Each k becomes four of the tiles' depth,
// A's (hi, lo, hi, lo) against B's (hi, hi, lo, lo): a b = ah bh + al bh + ah bl + al bl, every
// product exact in f32, as the exact f16 ukernels' products are. Four times the bf16 tiles'
// work, still twice the f32 FMA's rate.
using F16Exact = Kind<HalfBits, uint16_t, float, 2, 5, 4>;

// Tile steps over `depth` of k (each k kExpand of the tiles' depth; a step is a row of 64 bytes).
template <class Type>
constexpr int64_t tileSteps(int64_t depth) {
  constexpr int64_t kTileDepth = kTileBytes / int64_t(sizeof(typename Type::Element));
  return (depth * Type::kExpand + kTileDepth - 1) / kTileDepth;
}

// The fewest rows a product takes to the tiles (a band of fewer than 16 multiplies zeros in the
// rest); fewer go to the vector ukernel. 1 thread, B (4096 x 4096) every call, ms, vector ->
// tiles: s8 M = 1 1.83 -> 0.81, 4 1.85 -> 0.83, 12 2.23 -> 0.96; bf16 M = 2 1.15 -> 1.54 and 4
// 1.26 -> 1.55 (the vector ukernel streams up to 4 rows' B row by row), 8 2.86 -> 1.64, 12 4.11
// -> 1.78; f32 in low precision M = 4 2.55 -> 2.91, 8 6.05 -> 3.03; f16 in low precision M = 8
// 4.51 -> 1.80. Exact f16 packs B four times over (hi and lo, each twice): M = 16 5.71 -> 7.42,
// 48 11.8 -> 14.1, 64 15.4 -> 13.6.
template <class Type>
constexpr int64_t fewestRows() {
  return std::is_same_v<Type, S8> ? 1 : Type::kExpand == 4 ? 64 : 5;
}

// An operand's element as the tiles take it.
uint16_t tileElement(uint16_t bf16) { return bf16; }
int8_t tileElement(int8_t s8) { return s8; }
uint16_t tileElement(float value) {
  return static_cast<uint16_t>(_mm_extract_epi16(reinterpret_cast<__m128i>(_mm_cvtneps_pbh(_mm_set_ss(value))), 0));
}
uint16_t tileElement(HalfBits half) { return tileElement(_cvtsh_ss(half.bits)); }

// The first `lanes` of 32 elements from p as bf16 (a masked load, rounded where p is f16 or f32).
__m512i load32(__mmask32 lanes, const uint16_t *p) { return _mm512_maskz_loadu_epi16(lanes, p); }
// Sixteen f16 or f32 as f32 (f16 loaded sixteen at a time: one load of 32 and a vextracti64x4 put
// one more shuffle on port 5, which the conversions load already).
__m512 load16(__mmask16 lanes, const HalfBits *p) { return _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(lanes, p)); }
__m512 load16(__mmask16 lanes, const float *p) { return _mm512_maskz_loadu_ps(lanes, p); }
// Sixteen f16 or f32 from `low` and sixteen from `high` rounded to 32 bf16, low's first.
template <class Source>
__m512i rounded(__mmask16 lowLanes, const Source *low, __mmask16 highLanes, const Source *high) {
  return reinterpret_cast<__m512i>(_mm512_cvtne2ps_pbh(load16(highLanes, high), load16(lowLanes, low)));
}
__m512i load32(__mmask32 lanes, const float *p) {
  return rounded(static_cast<__mmask16>(lanes), p, static_cast<__mmask16>(lanes >> 16), p + 16);
}
__m512i load32(__mmask32 lanes, const HalfBits *p) {
  return rounded(static_cast<__mmask16>(lanes), p, static_cast<__mmask16>(lanes >> 16), p + 16);
}

// Tile c += tile a times tile b, for the element type `Type` in scope. GCC's tile intrinsics are
// macros that spell the tile's number into the instruction: it must be a literal.
#define ACLCPU_MULTIPLY_TILES(c, a, b) \
  do {                                 \
    if constexpr (Type::kGroup == 2)   \
      _tile_dpbf16ps(c, a, b);         \
    else                               \
      _tile_dpbssd(c, a, b);           \
  } while (false)

struct alignas(64) TileConfig {
  uint8_t palette;
  uint8_t startRow;
  uint8_t reserved[14];
  uint16_t bytesPerRow[16];
  uint8_t rows[16];
  uint8_t unused[16];
};

// Every tile of the eight is 16 rows of 64 bytes, but for a band of `height` rows other than 16 or
// 32: its C and A tiles (0, 1 and 4 of the upper half, 2, 3 and 5 of the lower) have its rows, so
// that its blocks of C load and store through the tiles as whole bands' do, not a 32-row buffer
// and the epilogue's vector code each depth chunk (bf16, B every call, 24 x 4096 x 4096: 4.16 ms
// against 3.23 for 32 rows). The configuration stays loaded from one call to the next (the
// ukernels leave it, no `tilerelease`), because loading it takes ~70 ns (it zeroes the tiles)
// against ~5 for reading it back and comparing (the same tile product after each, 1 thread: 85
// against 15 ns a call). It is read back rather than remembered, because other code in the
// thread may have loaded its own configuration or released the tiles since. Returns whether it
// loaded the configuration.
bool configureTiles(int64_t height) {
  alignas(64) TileConfig config = {};
  config.palette = 1;
  const int64_t upper = height < kTileRows ? height : kTileRows;
  const int64_t lower = height > kTileRows && height < 2 * kTileRows ? height - kTileRows : kTileRows;
  for (int tile = 0; tile < 8; ++tile) {
    config.bytesPerRow[tile] = kTileBytes;
    config.rows[tile] = static_cast<uint8_t>(tile == 0 || tile == 1 || tile == 4   ? upper
                                             : tile == 2 || tile == 3 || tile == 5 ? lower
                                                                                   : kTileRows);
  }
  alignas(64) TileConfig loaded;
  _tile_storeconfig(&loaded);
  const __m512i wanted = _mm512_load_si512(&config), current = _mm512_load_si512(&loaded);
  if (_mm512_cmpneq_epi64_mask(wanted, current) == 0) return false;
  _tile_loadconfig(&config);
  return true;
}

int64_t smaller(int64_t x, int64_t y) { return x < y ? x : y; }
int64_t roundUp(int64_t x, int64_t step) { return (x + step - 1) / step * step; }

// The lanes of the first `count` of 32 (or 64) elements.
__mmask32 firstLanes32(int64_t count) {
  return count >= 32 ? ~__mmask32{0} : count <= 0 ? __mmask32{0} : (__mmask32{1} << count) - 1;
}
__mmask64 firstLanes64(int64_t count) {
  return count >= 64 ? ~__mmask64{0} : count <= 0 ? __mmask64{0} : (__mmask64{1} << count) - 1;
}

// hi = bf16(x) and lo = bf16(x - hi) of sixteen floats (exact where x came from f16); lo is 0
// where hi is infinite or NaN (not inf - inf).
void split16(__m512 x, __m256i &hi, __m256i &lo) {
  hi = reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(x));
  const __m512 hiValue = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(hi), 16));
  const __mmask16 finite = _mm512_cmp_ps_mask(_mm512_abs_ps(hiValue), _mm512_set1_ps(__builtin_inff()), _CMP_LT_OQ);
  lo = reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(_mm512_maskz_sub_ps(finite, x, hiValue)));
}
uint16_t hiBits(HalfBits half) { return tileElement(half); }
uint16_t loBits(HalfBits half) {
  __m256i hi, lo;
  split16(_mm512_set1_ps(_cvtsh_ss(half.bits)), hi, lo);
  return static_cast<uint16_t>(_mm256_extract_epi16(lo, 0));
}

// Two vectors of 32 16-bit columns, their pairs interleaved: a row of strips j / 16 and j / 16 + 1
// (`strip` bytes apart). Unpacking interleaves within 128-bit lanes: lanes 0-1 of the low and
// high halves hold the first strip's columns 0-3, 4-7, 8-11, 12-15.
void storePairs(__m512i even, __m512i odd, uint8_t *row, int64_t strip) {
  const __m512i low = _mm512_unpacklo_epi16(even, odd), high = _mm512_unpackhi_epi16(even, odd);
  _mm512_storeu_si512(row, _mm512_permutex2var_epi64(low, _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0), high));
  _mm512_storeu_si512(row + strip, _mm512_permutex2var_epi64(low, _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4), high));
}

// Row p of tile step t of a B stored row-major (k, n): 16-bit rows k and k + 1 of 32 columns from
// column j.
template <class Source>
void packRowMajorGroup(const Source *b, int64_t depthStride, int64_t k, int64_t depth, __mmask32 lanes, uint8_t *row,
                       int64_t strip, int64_t) {
  storePairs(load32(k < depth ? lanes : 0, b + k * depthStride),
             load32(k + 1 < depth ? lanes : 0, b + (k + 1) * depthStride), row, strip);
}

// A strip's row of tile pairs from f16 or f32 rows k and k + 1 of its 16 columns, rounded to bf16
// together (vcvtne2ps2bf16 puts k's below k + 1's) and interleaved by one vpermw. Rounding each
// row's 32 columns and interleaving them as 16-bit rows (storePairs) took more shuffles, on the
// port the conversions load as well (the packing alone, 16K f16: 2570 -> 1950 TSC cycles).
template <class Source>
__m512i roundedPairs(__mmask16 even, __mmask16 odd, const Source *k, const Source *k1) {
  const __m512i interleave = _mm512_set_epi16(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8, 23, 7, 22,
                                              6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
  return _mm512_permutexvar_epi16(interleave, rounded(even, k, odd, k1));
}

// Rows p and p + 1 of tile step t of an exact f16 B stored row-major: its row k's (hi, hi) and
// (lo, lo) pairs (expanded k = 4 k to 4 k + 3), for 32 columns, from one load and split.
void packRowMajorSplit(const HalfBits *b, int64_t depthStride, int64_t k, int64_t depth, __mmask32 lanes,
                       uint8_t *row, int64_t strip) {
  const __m512i bits = _mm512_maskz_loadu_epi16(k < depth ? lanes : 0, b + k * depthStride);
  __m256i hiLow, loLow, hiHigh, loHigh;
  split16(_mm512_cvtph_ps(_mm512_castsi512_si256(bits)), hiLow, loLow);
  split16(_mm512_cvtph_ps(_mm512_extracti64x4_epi64(bits, 1)), hiHigh, loHigh);
  const __m512i hi = _mm512_inserti64x4(_mm512_castsi256_si512(hiLow), hiHigh, 1);
  const __m512i lo = _mm512_inserti64x4(_mm512_castsi256_si512(loLow), loHigh, 1);
  storePairs(hi, hi, row, strip);
  storePairs(lo, lo, row + kTileBytes, strip);
}
// The same for s8: rows k to k + 3 of 64 columns, quads interleaved, row p of four strips (the
// last two only if `strips` has them). After the unpacks, 128-bit lane L of quads q0-q3 holds
// columns 16 L + 0-3, 4-7, 8-11, 12-15: strip L is lane L of each, a 4 x 4 transpose of lanes.
void packRowMajorGroup(const int8_t *b, int64_t depthStride, int64_t k, int64_t depth, __mmask64 lanes, uint8_t *row,
                       int64_t strip, int64_t strips) {
  __m512i r[4];
  for (int64_t g = 0; g < 4; ++g) r[g] = _mm512_maskz_loadu_epi8(k + g < depth ? lanes : 0, b + (k + g) * depthStride);
  const __m512i low01 = _mm512_unpacklo_epi8(r[0], r[1]), high01 = _mm512_unpackhi_epi8(r[0], r[1]);
  const __m512i low23 = _mm512_unpacklo_epi8(r[2], r[3]), high23 = _mm512_unpackhi_epi8(r[2], r[3]);
  const __m512i q0 = _mm512_unpacklo_epi16(low01, low23), q1 = _mm512_unpackhi_epi16(low01, low23);
  const __m512i q2 = _mm512_unpacklo_epi16(high01, high23), q3 = _mm512_unpackhi_epi16(high01, high23);
  const __m512i t0 = _mm512_shuffle_i64x2(q0, q1, 0x44), t1 = _mm512_shuffle_i64x2(q2, q3, 0x44);
  const __m512i t2 = _mm512_shuffle_i64x2(q0, q1, 0xee), t3 = _mm512_shuffle_i64x2(q2, q3, 0xee);
  _mm512_storeu_si512(row, _mm512_shuffle_i64x2(t0, t1, 0x88));
  _mm512_storeu_si512(row + strip, _mm512_shuffle_i64x2(t0, t1, 0xdd));
  if (strips <= 2) return;
  _mm512_storeu_si512(row + 2 * strip, _mm512_shuffle_i64x2(t2, t3, 0x88));
  _mm512_storeu_si512(row + 3 * strip, _mm512_shuffle_i64x2(t2, t3, 0xdd));
}
template <class Source>
__mmask32 lanesOf(const Source *, int64_t count) { return firstLanes32(count); }
__mmask64 lanesOf(const int8_t *, int64_t count) { return firstLanes64(count); }

// B[0, depth) x [0, columns) as tiles, zero past the ends: strip s (16 columns) and step t at
// byte s * stripBytes(steps) + t * 1 KiB; element g of group p of column j at byte 64 p + 4 j + g
// x element size of its tile.
template <class Type>
void packB(const typename Type::Source *b, int64_t depthStride, int64_t columnStride, int64_t depth, int64_t columns,
           uint8_t *packed) {
  using Element = typename Type::Element;
  constexpr int64_t kGroup = Type::kGroup, kTileDepth = kTileRows * kGroup;
  const int64_t steps = tileSteps<Type>(depth);
  // Whole pairs of strips: the blocks read two, the second all zeros past an odd last one.
  const int64_t strips = roundUp(columns, kBlockColumns) / kTileColumns;
  constexpr int64_t kTile = kTileRows * kTileBytes;
  const int64_t strip = stripBytes(steps);
  if constexpr (Type::kExpand == 4) {  // exact f16: pair p of step t is one k's (hi, hi) or (lo, lo)
    for (int64_t s = 0; s < strips; s += 2) {
      const int64_t j0 = s * kTileColumns, width = smaller(kBlockColumns, columns - j0);
      const __mmask32 lanes = firstLanes32(width);
      for (int64_t t = 0; t < steps; ++t)
        for (int64_t p = 0; p < kTileRows; p += 2) {  // rows p (hi) and p + 1 (lo) of one k
          const int64_t k = (t * kTileDepth + kGroup * p) / 4;
          uint8_t *row = packed + s * strip + t * kTile + kTileBytes * p;
          if (columnStride == 1) {
            packRowMajorSplit(b + (j0 < columns ? j0 : 0), depthStride, k, depth, lanes, row, strip);
            continue;
          }
          for (int64_t half = 0; half < 2; ++half) {
            Element *hi = reinterpret_cast<Element *>(row + half * strip);
            Element *lo = reinterpret_cast<Element *>(row + half * strip + kTileBytes);
            for (int64_t j = 0; j < kTileColumns; ++j) {
              const int64_t column = half * kTileColumns + j;
              const HalfBits x = column < width && k < depth ? b[(j0 + column) * columnStride + k * depthStride]
                                                             : HalfBits{0};
              hi[2 * j] = hi[2 * j + 1] = hiBits(x);
              lo[2 * j] = lo[2 * j + 1] = loBits(x);
            }
          }
        }
    }
    return;
  }
  if (columnStride == 1) {
    if constexpr (!std::is_same_v<typename Type::Source, Element>) {
      // f16 and f32 rounded: rows k and k + 1 a strip at a time, whole strips without masks.
      for (int64_t t = 0; t < steps; ++t)
        for (int64_t p = 0; p < kTileRows; ++p) {
          const int64_t k = t * kTileDepth + kGroup * p;
          const typename Type::Source *even = b + smaller(k, depth - 1) * depthStride;
          const typename Type::Source *odd = b + smaller(k + 1, depth - 1) * depthStride;
          uint8_t *row = packed + t * kTile + kTileBytes * p;
          int64_t s = 0;
          if (k + 1 < depth)
            for (; (s + 1) * kTileColumns <= columns; ++s)
              _mm512_storeu_si512(row + s * strip, roundedPairs(0xffff, 0xffff, even + s * kTileColumns,
                                                                odd + s * kTileColumns));
          for (; s < strips; ++s) {
            const int64_t j0 = s * kTileColumns;
            const __mmask16 lanes = j0 < columns ? firstLanes(columns - j0) : 0;
            _mm512_storeu_si512(row + s * strip, roundedPairs(k < depth ? lanes : 0, k + 1 < depth ? lanes : 0,
                                                              even + (lanes ? j0 : 0), odd + (lanes ? j0 : 0)));
          }
        }
    } else {  // kGroup rows of B at a time, a vector of columns: 2 strips (bf16) or 4 (s8)
      constexpr int64_t kVectorStrips = kGroup;
      for (int64_t t = 0; t < steps; ++t)
        for (int64_t p = 0; p < kTileRows; ++p)
          for (int64_t s = 0; s < strips; s += kVectorStrips) {
            const int64_t j0 = s * kTileColumns;
            packRowMajorGroup(b + (j0 < columns ? j0 : 0), depthStride, t * kTileDepth + kGroup * p, depth,
                              lanesOf(b, columns - j0), packed + s * strip + t * kTile + kTileBytes * p, strip,
                              strips - s);
          }
    }
    return;
  }
  for (int64_t s = 0; s < strips; ++s) {
    const int64_t j0 = s * kTileColumns, width = smaller(kTileColumns, columns - j0);
    for (int64_t t = 0; t < steps; ++t) {
      uint8_t *tile = packed + s * strip + t * kTile;
      for (int64_t p = 0; p < kTileRows; ++p) {
        const int64_t k = t * kTileDepth + kGroup * p;
        Element *out = reinterpret_cast<Element *>(tile + kTileBytes * p);
        for (int64_t j = 0; j < kTileColumns; ++j)
          for (int64_t g = 0; g < kGroup; ++g)
            out[kGroup * j + g] = j < width && k + g < depth
                                      ? tileElement(b[(j0 + j) * columnStride + (k + g) * depthStride])
                                      : Element{0};
      }
    }
  }
}

// A band's rows [0, height) x depth as two halves of tiles, zero past the ends: half h and step
// t at tile h * steps + t, row r's k at element r x (64 bytes) + k. A tile (16 rows of a half at
// one step) at a time; exact f16 packs two steps at once, so its tiles come in pairs.
template <class Type>
struct BandPacking {
  using Source = typename Type::Source;
  using Element = typename Type::Element;
  static constexpr int64_t kTileDepth = kTileBytes / int64_t(sizeof(Element));
  static constexpr int64_t kStepsAtOnce = Type::kExpand == 4 ? 2 : 1;

  const Source *a = nullptr;  // null: no band
  int64_t rowStride = 0, depthStride = 0, height = 0, depth = 0;
  uint8_t *packed = nullptr;

  int64_t steps() const { return tileSteps<Type>(depth); }
  // Tiles (pairs of them for exact f16) in the band: each half's steps.
  int64_t units() const { return 2 * ((steps() + kStepsAtOnce - 1) / kStepsAtOnce); }

  // Units [begin, end): half by half, step by step, the sixteen rows of each.
  void pack(int64_t begin, int64_t end) const {
    if (begin >= end) return;
    const int64_t steps = this->steps(), unitsOfHalf = units() / 2;
    constexpr int64_t kTile = kTileRows * kTileBytes;
    int64_t half = begin / unitsOfHalf, t = begin % unitsOfHalf * kStepsAtOnce;  // of unit `begin`
    for (int64_t unit = begin; unit < end; ++unit, t += kStepsAtOnce) {
      if (t >= steps) {  // the second half's first unit
        half = 1;
        t = 0;
      }
      uint8_t *tile = packed + (half * steps + t) * kTile;
      if constexpr (Type::kExpand == 4) {  // each k as (hi, lo, hi, lo), eight k a tile row
        constexpr int64_t kPerRow = kTileDepth / 4;
        // Sixteen k of a row at a time, as (hi, lo) pairs, each twice: two steps' rows.
        const __m512i firstEight = _mm512_set_epi32(7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0);
        const __m512i lastEight = _mm512_set_epi32(15, 15, 14, 14, 13, 13, 12, 12, 11, 11, 10, 10, 9, 9, 8, 8);
        const int64_t k0 = t * kPerRow;
        for (int64_t r = 0; r < kTileRows; ++r) {
          const int64_t row = half * kTileRows + r;
          __m512 x = _mm512_setzero_ps();
          if (row < height && depthStride == 1) {
            x = _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(firstLanes(depth - k0), a + row * rowStride + k0));
          } else if (row < height) {
            HalfBits values[16];
            for (int64_t k = 0; k < 16; ++k)
              values[k] = k0 + k < depth ? a[row * rowStride + (k0 + k) * depthStride] : HalfBits{0};
            x = _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(values)));
          }
          __m256i hi, lo;
          split16(x, hi, lo);
          const __m512i pairs =
              _mm512_or_si512(_mm512_cvtepu16_epi32(hi), _mm512_slli_epi32(_mm512_cvtepu16_epi32(lo), 16));
          uint8_t *out = tile + kTileBytes * r;
          _mm512_storeu_si512(out, _mm512_permutexvar_epi32(firstEight, pairs));
          if (t + 1 < steps) _mm512_storeu_si512(out + kTile, _mm512_permutexvar_epi32(lastEight, pairs));
        }
        continue;
      }
      const int64_t k0 = t * kTileDepth, length = smaller(kTileDepth, depth - k0);
      const __mmask64 lanes = firstLanes64(length * int64_t(sizeof(Element)));
      for (int64_t r = 0; r < kTileRows; ++r) {
        const int64_t row = half * kTileRows + r;
        uint8_t *out = tile + kTileBytes * r;
        if (row >= height) {
          _mm512_storeu_si512(out, _mm512_setzero_si512());
        } else if (depthStride == 1) {
          if constexpr (!std::is_same_v<Source, Element>)
            _mm512_storeu_si512(out, load32(firstLanes32(length), a + row * rowStride + k0));
          else
            _mm512_storeu_si512(out, _mm512_maskz_loadu_epi8(lanes, a + row * rowStride + k0));
        } else {
          Element *elements = reinterpret_cast<Element *>(out);
          for (int64_t k = 0; k < kTileDepth; ++k)
            elements[k] = k < length ? tileElement(a[row * rowStride + (k0 + k) * depthStride]) : Element{0};
        }
      }
    }
  }
  void all() const { pack(0, units()); }
};

// The next band's A tiles, packed a tile or so after each step of the current band's tile
// products, which the tile unit works through meanwhile (a tile product leaves the vector units
// free). Its tiles are spread evenly over the current band's steps. In the same process (lib-ab),
// 1 thread: f16 in low precision 1000^3 and 1024^3 +21%, 2048^3 +19%, 128 x 4096 x 4096 +11%;
// f32 in low precision 1024^3 +24%, exact f16 +25%.
template <class Type>
struct NextBandOfA {
  BandPacking<Type> band;
  int64_t stepsOfBand = 1, stepsDone = 0;
  int64_t unitsDone = 0, units = 0;  // nothing to pack unless set up

  bool pending() const { return unitsDone < units; }
  void step() {
    if (unitsDone == units) return;
    const int64_t target = smaller(units, (++stepsDone * units + stepsOfBand - 1) / stepsOfBand);
    if (target <= unitsDone) return;
    band.pack(unitsDone, target);
    unitsDone = target;
  }
  void finish() {
    band.pack(unitsDone, units);
    unitsDone = units;
  }
};

struct NothingToPack {
  void step() {}
};

// Where a band's A tiles are: packed (BandPacking), or A itself where its rows run along k.
struct BandOfA {
  const uint8_t *start;
  int64_t rowBytes, stepBytes, halfBytes;  // from a row to the next, a step of k to the next, half to half
};

// The 32 x 32 block of C from the band's A tiles and two strips of B tiles, over `steps` steps
// of k: tiles 0-3 start from zero, or from C itself (StartFromC), and end in `out` (row stride
// in bytes). A band of at most 16 rows (Lower false) multiplies its upper half alone: half the
// products (bf16 M = 16, N = K = 4096, B every call, 180 -> 195 GFLOP/s).
template <class Type, bool StartFromC, bool Lower, class Next>
void block(const BandOfA &a, const uint8_t *bTiles, int64_t steps, typename Type::Sum *out, int64_t outStride,
           Next &next) {
  constexpr int64_t kTile = kTileRows * kTileBytes;
  const uint8_t *a1 = a.start + a.halfBytes, *b1 = bTiles + stripBytes(steps);
  typename Type::Sum *lower = out + kTileRows * (outStride / 4);
  if (StartFromC) {
    _tile_loadd(0, out, outStride);
    _tile_loadd(1, out + kTileColumns, outStride);
    if (Lower) {
      _tile_loadd(2, lower, outStride);
      _tile_loadd(3, lower + kTileColumns, outStride);
    }
  } else {
    _tile_zero(0);
    _tile_zero(1);
    if (Lower) {
      _tile_zero(2);
      _tile_zero(3);
    }
  }
  for (int64_t t = 0; t < steps; ++t) {
    _tile_loadd(4, a.start + t * a.stepBytes, a.rowBytes);
    _tile_loadd(6, bTiles + t * kTile, kTileBytes);
    ACLCPU_MULTIPLY_TILES(0, 4, 6);
    _tile_loadd(7, b1 + t * kTile, kTileBytes);
    ACLCPU_MULTIPLY_TILES(1, 4, 7);
    if (Lower) {
      _tile_loadd(5, a1 + t * a.stepBytes, a.rowBytes);
      ACLCPU_MULTIPLY_TILES(2, 5, 6);
      ACLCPU_MULTIPLY_TILES(3, 5, 7);
    }
    next.step();
  }
  _tile_stored(0, out, outStride);
  _tile_stored(1, out + kTileColumns, outStride);
  if (Lower) {
    _tile_stored(2, lower, outStride);
    _tile_stored(3, lower + kTileColumns, outStride);
  }
}

// How a depth chunk's sums may reach a whole block of C through the tiles: added to C as it is
// (C += x), written over it (C = x), or only through the epilogue (alpha != 1, or Cin apart).
enum class Direct { Add, Overwrite, None };

template <class T>
Direct directOf(const Epilogue<T> &epilogue, bool first, const T *c, int64_t cRowStride) {
  if (!epilogue.scaled()) return Direct::Add;
  if (*epilogue.alpha != T(1)) return Direct::None;
  if (!first) return Direct::Add;
  if (*epilogue.beta == T(0)) return Direct::Overwrite;
  const bool inPlace = epilogue.cIn == c && epilogue.cInRowStride == cRowStride && epilogue.cInColumnStride == 1;
  return *epilogue.beta == T(1) && inPlace ? Direct::Add : Direct::None;
}

template <class Type, bool StartFromC>
void runBlock(bool lower, const BandOfA &a, const uint8_t *bTiles, int64_t steps, typename Type::Sum *out,
              int64_t outStride, NextBandOfA<Type> &next) {
  // Without a band to pack, the tiles' loop is the plain one (with the check in every step, f16 in
  // low precision lost 3-7% at 64^3-256^3, where no band packs the next).
  NothingToPack nothing;
  if (lower && next.pending())
    block<Type, StartFromC, true>(a, bTiles, steps, out, outStride, next);
  else if (lower)
    block<Type, StartFromC, true>(a, bTiles, steps, out, outStride, nothing);
  else if (next.pending())
    block<Type, StartFromC, false>(a, bTiles, steps, out, outStride, next);
  else
    block<Type, StartFromC, false>(a, bTiles, steps, out, outStride, nothing);
}

template <class Type>
void gemm(const typename Type::Source *a, int64_t aRowStride, int64_t aDepthStride, const typename Type::Source *b,
          int64_t bDepthStride, int64_t bColumnStride, typename Type::Sum *c, int64_t cRowStride, int64_t rows,
          int64_t columns, int64_t depth, const Epilogue<typename Type::Sum> &epilogue, const void *bBase,
          int64_t bOffset) {
  using Sum = typename Type::Sum;
  constexpr int64_t kTileDepth = kTileBytes / int64_t(sizeof(typename Type::Element));  // of the tiles' depth
  constexpr int64_t kSumBytes = int64_t(sizeof(Sum));
  constexpr int64_t kTile = kTileRows * kTileBytes;
  // Whole bands of A whose rows run along k, in whole lines, are read in place (512^3 bf16 1.33
  // -> 1.53 TFLOP/s), unless their rows lie a whole number of 4 KiB apart: then a tile's sixteen
  // rows would share one set of L1. Rows off the lines would take two lines a row of a tile.
  const int64_t aRowBytes = aRowStride * int64_t(sizeof(typename Type::Element));
  const bool inPlaceA = std::is_same_v<typename Type::Source, typename Type::Element> && aDepthStride == 1 &&
                        aRowBytes % 64 == 0 && aRowBytes % 4096 != 0 && reinterpret_cast<uintptr_t>(a) % 64 == 0;
  const int64_t bBytes = depth * columns * int64_t(sizeof(typename Type::Source));
  const bool fewBands = rows <= kBandRows || (rows <= 4 * kBandRows && bBytes >= aclcpu::ukernelL2Bytes());
  const Blocking blocking = fewBands ? kOneBand : kBands;
  const int64_t depthChunk = blocking.chunkBytes / int64_t(sizeof(typename Type::Element)) / Type::kExpand;
  // The tiles' rows as configured: a whole band's (16 rows take those too), or a ragged band's
  // where that pays: a band alone keeps its configuration across calls, and over several depth
  // chunks the buffer would take C in and out each chunk; otherwise (200^3 bf16: one chunk, a band
  // of 8 rows after six whole ones) two loads of the configuration a call cost more (-2 to -7%).
  const bool raggedTiles = rows <= kBandRows || depth > depthChunk;
  auto tileRowsOf = [&](int64_t height) { return height == kTileRows || !raggedTiles ? kBandRows : height; };
  int64_t configuredRows = tileRowsOf(smaller(kBandRows, rows));
  const bool configured = configureTiles(configuredRows);
  // f16 and f32 in low precision, where the configuration was just loaded: a tile product of zeros
  // right away, so that the first real one does not wait on whatever the tile unit takes to start
  // after the configuration (in a 64^3 product a third of the tile loop's samples sat on it) but
  // the packing and rounding overlap it. 1 thread, each call loading it: lib-ab f16 64^3 +4 to
  // +15% (five runs), 128 x 64 x 64 +12 to +16%, f32 64^3 +9 to +12%, 96^3 to 512^3 even; op-bench
  // f16 64^3 384 -> 470 GFLOP/s. bf16 (A read in place) and exact f16 gained nothing and do
  // without; with the configuration found loaded it is even (f16) or +1.5% (f32) left out.
  if (!std::is_same_v<typename Type::Source, typename Type::Element> && Type::kExpand == 1 && configured) {
    _tile_zero(0);
    _tile_zero(4);
    _tile_zero(6);
    ACLCPU_MULTIPLY_TILES(0, 4, 6);
  }
  uint8_t *packedB = aclcpu::ukernelScratch(0, blocking.packedBytes());
  // Two bands' A tiles: the current band's, and the next one's, packed during the current one's
  // products. The second starts 2 KiB and a line further than a whole number of 4 KiB on: its
  // stores would otherwise alias the loads of the first band's tiles at the same offset, which wait
  // on them (f16 in low precision 256^3 with its 8 blocks a band packing the next: 0.95 -> 1.01x).
  const int64_t bandBytes = kBandRows * blocking.chunkBytes, slotBytes = bandBytes + 2048 + 64;
  uint8_t *const packedBands = aclcpu::ukernelScratch(1, slotBytes + bandBytes);
  auto bandTiles = [&](int64_t slot) { return packedBands + slot * slotBytes; };
  int64_t currentBand = 0;
  bool packedAhead = false;  // the band about to run was packed during the one before
  alignas(64) Sum sums[kBandRows * kBlockColumns];
  // A constant B's tiles are packed once and kept across calls (const_panels.h).
  const void *constB = aclcpu::isConstOperand(bBase) ? bBase : nullptr;
  auto tilesOfB = [&](int64_t k0, int64_t j0, int64_t slice, int64_t width) -> const uint8_t * {
    const typename Type::Source *from = b + k0 * bDepthStride + j0 * bColumnStride;
    if (constB) {
      const aclcpu::ConstPanelKey key{
          {bOffset, bDepthStride, bColumnStride, j0, k0, slice, width, 512 + Type::kTag}};
      const int64_t bytes = bTilesBytes(width, tileSteps<Type>(slice));
      bool fill = false;
      if (uint8_t *kept = aclcpu::constPanel(constB, key, bytes, fill)) {
        if (fill) {
          packB<Type>(from, bDepthStride, bColumnStride, slice, width, kept);
          aclcpu::constPanelFilled(constB, key);
        }
        return kept;
      }
    }
    packB<Type>(from, bDepthStride, bColumnStride, slice, width, packedB);
    return packedB;
  };
  const int64_t panelColumns = blocking.panelColumns;
  // Whether the band of rows i0 over k0's chunk is read in place, unpacked.
  auto readsInPlace = [&](int64_t i0, int64_t k0) {
    return inPlaceA && rows - i0 >= kBandRows && smaller(depthChunk, depth - k0) % kTileDepth == 0;
  };
  // The band after (j0, k0, i0) in the loops' order, set to be packed into the other band's tiles
  // during the current band's `blocks` blocks of `steps` steps; none if there is none, or it is
  // read in place, or the current band is narrower than 16 blocks: its steps are then too few to
  // hide the packing (8 blocks, 256^3 f16 in low precision: 0.97x). Exact f16 takes four tile
  // steps a k, so 4 blocks do (lib-ab against 16: 128^3 +12%, 192^3 +17%, 256^3 +14%).
  auto nextBand = [&](int64_t j0, int64_t k0, int64_t i0, int64_t blocks, int64_t steps) {
    NextBandOfA<Type> next;
    if (blocks < (Type::kExpand == 4 ? 4 : 16)) return next;
    if ((i0 += kBandRows) >= rows) {
      i0 = 0;
      if ((k0 += depthChunk) >= depth) {
        k0 = 0;
        if (j0 + panelColumns >= columns) return next;
      }
    }
    if (readsInPlace(i0, k0)) return next;
    next.band = {a + i0 * aRowStride + k0 * aDepthStride, aRowStride, aDepthStride, smaller(kBandRows, rows - i0),
                 smaller(depthChunk, depth - k0), bandTiles(1 - currentBand)};
    next.stepsOfBand = blocks * steps;
    next.units = next.band.units();
    return next;
  };
  for (int64_t j0 = 0; j0 < columns; j0 += panelColumns) {
    const int64_t width = smaller(panelColumns, columns - j0);
    const int64_t strips = roundUp(width, kTileColumns) / kTileColumns;
    for (int64_t k0 = 0; k0 < depth; k0 += depthChunk) {
      const int64_t slice = smaller(depthChunk, depth - k0);
      const int64_t steps = tileSteps<Type>(slice);
      const bool first = k0 == 0;
      const uint8_t *tiles = tilesOfB(k0, j0, slice, width);
      const Destination<Sum> destination = epilogue.chunk(first, c, cRowStride, j0);
      const Direct direct = directOf(epilogue, first, c, cRowStride);
      for (int64_t i0 = 0; i0 < rows; i0 += kBandRows) {
        const int64_t height = smaller(kBandRows, rows - i0);
        const bool lower = height > kTileRows;
        if (tileRowsOf(height) != configuredRows) configureTiles(configuredRows = tileRowsOf(height));
        // Whether its blocks of C may load and store through the tiles: whole bands' tiles serve 16
        // rows too, a ragged band needs its own.
        const bool tilesFit = height == kBandRows || height == kTileRows || configuredRows == height;
        const typename Type::Source *band = a + i0 * aRowStride + k0 * aDepthStride;
        BandOfA tilesOfA{bandTiles(currentBand), kTileBytes, kTile, steps * kTile};
        if (readsInPlace(i0, k0))
          tilesOfA = {reinterpret_cast<const uint8_t *>(band), aRowBytes, kTileBytes, kTileRows * aRowBytes};
        else if (!packedAhead)
          BandPacking<Type>{band, aRowStride, aDepthStride, height, slice, bandTiles(currentBand)}.all();
        NextBandOfA<Type> next = nextBand(j0, k0, i0, (strips + 1) / 2, steps);
        // Pairs of strips; an odd last strip pairs with one of zeros (packB), whose sums are not stored.
        for (int64_t s = 0; s < strips; s += 2) {
          const int64_t jj = s * kTileColumns, blockWidth = smaller(kBlockColumns, width - jj);
          const uint8_t *bTiles = tiles + s * stripBytes(steps);
          Sum *target = c + i0 * cRowStride + j0 + jj;
          if (tilesFit && blockWidth == kBlockColumns && direct != Direct::None) {
            if (direct == Direct::Add)
              runBlock<Type, true>(lower, tilesOfA, bTiles, steps, target, cRowStride * kSumBytes, next);
            else
              runBlock<Type, false>(lower, tilesOfA, bTiles, steps, target, cRowStride * kSumBytes, next);
            continue;
          }
          runBlock<Type, false>(lower, tilesOfA, bTiles, steps, sums, kBlockColumns * kSumBytes, next);
          for (int64_t r = 0; r < height; ++r)
            for (int64_t half = 0; half < 2; ++half) {
              const int64_t j = half * kTileColumns;
              const __mmask16 lanes = firstLanes(blockWidth - j);
              if (lanes)
                destination.put(i0 + r, jj + j, Vector<Sum>::loadAll(sums + r * kBlockColumns + j), lanes);
            }
        }
        next.finish();
        packedAhead = next.band.a != nullptr;
        if (packedAhead) currentBand = 1 - currentBand;
      }
    }
  }
}

}  // namespace

// The f32-accumulating ones: bf16, and f16 and f32 in low precision (each input rounded to bf16 as
// it is packed). Products of fewer rows than fewestRows, or empty ones, or in a process without AMX
// permission, take `fallback`, the AVX-512 ukernel of the same contract.
#define ACLCPU_FLOAT_AMX_UKERNEL(name, Type, fallback)                                                           \
  extern "C" void name(ACLCPU_GEMM_UKERNEL_PARAMETERS(void, float)) {                                             \
    if (rows < fewestRows<Type>() || depth == 0 || !aclcpu::ukernelAmxPermitted()) {                                  \
      fallback(ACLCPU_GEMM_UKERNEL_ARGUMENTS);                                                                      \
      return;                                                                                                       \
    }                                                                                                               \
    using Source = Type::Source;                                                                                    \
    gemm<Type>(static_cast<const Source *>(a) + aOffset, aRowStride, aDepthStride,                                  \
               static_cast<const Source *>(b) + bOffset, bDepthStride, bColumnStride, c + cOffset, cRowStride, rows, \
               columns, depth, Epilogue<float>::of(ACLCPU_GEMM_EPILOGUE_ARGUMENTS), b, bOffset);                     \
  }
ACLCPU_FLOAT_AMX_UKERNEL(aclcpu_ukernel_gemm_bf16bf16f32_amx, Bf16, aclcpu_ukernel_gemm_bf16bf16f32_dpbf16)
ACLCPU_FLOAT_AMX_UKERNEL(aclcpu_ukernel_gemm_f16f16f32_rounded_amx, F16Rounded, aclcpu_ukernel_gemm_f16f16f32_dpbf16)

namespace {

// Whether an f16 matrix (outer x inner, element strides) holds an infinity.
bool holdsInfinity(const HalfBits *p, int64_t outer, int64_t outerStride, int64_t inner, int64_t innerStride) {
  const __m512i magnitude = _mm512_set1_epi16(0x7fff), infinity = _mm512_set1_epi16(0x7c00);
  for (int64_t i = 0; i < outer; ++i) {
    const HalfBits *line = p + i * outerStride;
    if (innerStride != 1) {
      for (int64_t k = 0; k < inner; ++k)
        if ((line[k * innerStride].bits & 0x7fff) == 0x7c00) return true;
      continue;
    }
    for (int64_t k = 0; k < inner; k += 32) {
      const __m512i bits = _mm512_maskz_loadu_epi16(firstLanes32(inner - k), line + k);
      if (_mm512_cmpeq_epi16_mask(_mm512_and_si512(bits, magnitude), infinity)) return true;
    }
  }
  return false;
}

}  // namespace

// Exact f16: an infinity's split would meet a zero lo of the other operand (inf x 0 = NaN where
// the product is infinite), so operands holding one take the widening ukernel, as do products of
// fewer than 64 rows (fewestRows). (NaN needs nothing: it propagates either way.)
extern "C" void aclcpu_ukernel_gemm_f16f16f32_amx(ACLCPU_GEMM_UKERNEL_PARAMETERS(void, float)) {
  const HalfBits *aHalves = static_cast<const HalfBits *>(a) + aOffset;
  const HalfBits *bHalves = static_cast<const HalfBits *>(b) + bOffset;
  if (rows < fewestRows<F16Exact>() || depth == 0 || !aclcpu::ukernelAmxPermitted() ||
      holdsInfinity(aHalves, rows, aRowStride, depth, aDepthStride) ||
      holdsInfinity(bHalves, depth, bDepthStride, columns, bColumnStride)) {
    aclcpu_ukernel_gemm_f16f16f32(ACLCPU_GEMM_UKERNEL_ARGUMENTS);
    return;
  }
  gemm<F16Exact>(aHalves, aRowStride, aDepthStride, bHalves, bDepthStride, bColumnStride, c + cOffset, cRowStride, rows,
                 columns, depth, Epilogue<float>::of(ACLCPU_GEMM_EPILOGUE_ARGUMENTS), b, bOffset);
}
ACLCPU_FLOAT_AMX_UKERNEL(aclcpu_ukernel_gemm_f32f32f32_rounded_amx, F32Rounded, aclcpu_ukernel_gemm_f32f32f32_dpbf16)

extern "C" void aclcpu_ukernel_gemm_s8s8s32_amx(ACLCPU_GEMM_UKERNEL_PARAMETERS(int8_t, int32_t)) {
  if (rows < fewestRows<S8>() || depth == 0 || !aclcpu::ukernelAmxPermitted()) {
    aclcpu_ukernel_gemm_s8s8s32_vnni(ACLCPU_GEMM_UKERNEL_ARGUMENTS);
    return;
  }
  gemm<S8>(a + aOffset, aRowStride, aDepthStride, b + bOffset, bDepthStride, bColumnStride, c + cOffset, cRowStride,
           rows, columns, depth, Epilogue<int32_t>::of(ACLCPU_GEMM_EPILOGUE_ARGUMENTS), b, bOffset);
}
