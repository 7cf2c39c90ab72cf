// The GEMM tiles on AVX2 with FMA, for x86 CPUs without AVX-512, same ABI as the AVX-512 files
// (ukernels.h): f32 accumulation of f32, f16 (F16C) and bf16 operands, widened to f32 as they
// are packed (FloatProducts; in low precision f16 and f32 rounded to bf16 first, Rounded), and
// s8 x s8 -> s32 (PairProducts: operands packed as pairs of k
// widened to s16, each vpmaddwd summing two exact products a lane). Like the other ukernel files, this one
// is compiled with its own instruction sets and must stay free of inline library code.
//
// GotoBLAS's scheme with BLIS's Haswell sizes: for each depth chunk of up to kDepthSteps steps
// (k, or pairs of k) and each panel of kColumnChunk columns, B is packed into 16-column
// micro-panels ([block][step][16] words, zero-padded); bands of kRowChunk rows of A are packed
// into a micro-panel a register tile ([step][6], TileRows); a 6 x 16 register tile (12
// accumulators of the 16 ymm registers) runs over a micro-panel of B (16 KiB, in L1) while the
// band's micro-panels of A (168 KiB, in L2) pass it. One band of rows takes narrow panels
// (kJustInTimeColumns) whose tiles fetch the next panel's lines of B as they run (LineFetch).
// Up to kFewRows rows of floats read B where it lies instead (fewRows): packing it would cost
// as much as the product; so do small f32 products (inPlace operands), and f32 products of few
// columns read A where it lies (RowsInPlace). Otherwise a constant B's panels are packed once
// and kept (const_panels.h).
#include "ukernels.h"

#include "const_panels.h"
#include "vector_avx2.h"
#include "epilogue.h"
#include "intrinsics.h"

#include <cstdint>
#include <type_traits>

namespace {

constexpr int64_t kRows = 6;           // rows of a register tile
constexpr int64_t kColumns = 16;       // columns of a register tile: two ymm
constexpr int64_t kDepthSteps = 256;   // deepest chunk: a micro-panel of B of 16 KiB, in L1
constexpr int64_t kRowChunk = 168;     // rows of A packed at a time: 168 KiB, in L2
constexpr int64_t kColumnChunk = 4080; // columns of B packed at a time: 4 MiB, in L3
// ... with one band of rows (gemm): 64 KiB a chunk, packed from lines the tiles before fetched.
// 1 thread, paired with OpenBLAS, M = 16 / M = 128, N = K = 4096: 4080 columns 0.95x / 0.91x;
// 256 0.95x / 0.95x without fetching lines, 1.00x / 0.94x with; 128 1.12x / 0.96x; 64 1.24x /
// 0.99x; 48 about the same as 64; 32 0.89x / 0.99x.
constexpr int64_t kJustInTimeColumns = 64;
constexpr int64_t kFewRows = 4;        // up to this many rows of floats, B is not packed
constexpr int64_t kInPlaceElements = 16384;  // f32 products this small (A, B and C) are not packed
constexpr int64_t kAInPlaceColumns = 256;    // f32 products this narrow read A unpacked (RowsInPlace)

using Mask = Vector<float>::Mask;  // the same for both sums
static_assert(sizeof(Vector<int32_t>::Mask) == sizeof(Mask), "one mask for both sums");

struct Half {
  uint16_t bits;
};
struct BFloat {
  uint16_t bits;
};

// Eight consecutive elements as f32.
__m256 load8(const float *p) { return _mm256_loadu_ps(p); }
__m256 load8(const Half *p) { return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p))); }
__m256 load8(const BFloat *p) {
  const __m128i bits = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(bits), 16));
}
float load1(const float *p) { return *p; }
float load1(const Half *p) { return _cvtsh_ss(p->bits); }
float load1(const BFloat *p) {
  uint32_t bits = static_cast<uint32_t>(p->bits) << 16;
  float value;
  __builtin_memcpy(&value, &bits, sizeof(value));
  return value;
}

// f16 or f32 read as their values rounded to bf16 (ACL_COMPUTE_LOW_PRECISION), to nearest even
// as generated code's truncf rounds (denormals kept; a NaN stays a quiet NaN), then widened.
template <class T>
struct Rounded {
  T value;
};
__m256 roundToBf16(__m256 x) {
  const __m256i bits = _mm256_castps_si256(x);
  const __m256i lowestKept = _mm256_and_si256(_mm256_srli_epi32(bits, 16), _mm256_set1_epi32(1));
  const __m256i rounded = _mm256_add_epi32(bits, _mm256_add_epi32(_mm256_set1_epi32(0x7fff), lowestKept));
  const __m256i quietNan = _mm256_or_si256(bits, _mm256_set1_epi32(0x400000));
  const __m256 nan = _mm256_cmp_ps(x, x, _CMP_UNORD_Q);
  const __m256i chosen = _mm256_castps_si256(
      _mm256_blendv_ps(_mm256_castsi256_ps(rounded), _mm256_castsi256_ps(quietNan), nan));
  return _mm256_castsi256_ps(_mm256_and_si256(chosen, _mm256_set1_epi32(static_cast<int>(0xffff0000u))));
}
template <class T>
constexpr bool kRounds = false;
template <class T>
constexpr bool kRounds<Rounded<T>> = true;
template <class T>
__m256 load8(const Rounded<T> *p) {
  return roundToBf16(load8(reinterpret_cast<const T *>(p)));
}
template <class T>
float load1(const Rounded<T> *p) {
  return _mm256_cvtss_f32(roundToBf16(_mm256_set1_ps(load1(reinterpret_cast<const T *>(p)))));
}

// The first `count` (< 8) elements as f32, zero in the other lanes; nothing past them is read.
__m256 loadFirst(const float *p, int64_t count) { return _mm256_maskload_ps(p, Vector<float>::laneMask(count)); }
template <class T>
__m256 loadFirst(const T *p, int64_t count) {
  alignas(32) float values[8] = {};
  for (int64_t i = 0; i < count; ++i) values[i] = load1(p + i);
  return _mm256_load_ps(values);
}

// Eight vectors transposed: lane j of r[i] goes to lane i of r[j].
void transpose8(__m256 (&r)[8]) {
  __m256 t[8], s[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {  // s[i + j]: column j (low half) and j + 4 (high) of rows i..i+3
    s[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
    s[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xee);
    s[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
    s[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xee);
  }
  for (int j = 0; j < 4; ++j) {
    r[j] = _mm256_permute2f128_ps(s[j], s[j + 4], 0x20);
    r[j + 4] = _mm256_permute2f128_ps(s[j], s[j + 4], 0x31);
  }
}

// B[depth x columns] -> 16-column micro-panels [block][k][16], zero-padded past `columns`.
template <class T>
void packB(const T *b, int64_t depthStride, int64_t columnStride, int64_t depth, int64_t columns, float *packed) {
  if (columnStride == 1) {  // row by row: one stream the prefetchers follow
    const int64_t wholeBlocks = columns / kColumns, rest = columns - wholeBlocks * kColumns;
    for (int64_t k = 0; k < depth; ++k) {
      const T *row = b + k * depthStride;
      for (int64_t block = 0; block < wholeBlocks; ++block) {
        float *out = packed + (block * depth + k) * kColumns;
        _mm256_storeu_ps(out, load8(row + block * kColumns));
        _mm256_storeu_ps(out + 8, load8(row + block * kColumns + 8));
      }
      if (rest > 0) {
        const T *tail = row + wholeBlocks * kColumns;
        float *out = packed + (wholeBlocks * depth + k) * kColumns;
        _mm256_storeu_ps(out, rest >= 8 ? load8(tail) : loadFirst(tail, rest));
        _mm256_storeu_ps(out + 8, rest > 8 ? loadFirst(tail + 8, rest - 8) : _mm256_setzero_ps());
      }
    }
    return;
  }
  const int64_t blocks = (columns + kColumns - 1) / kColumns;
  for (int64_t block = 0; block < blocks; ++block) {
    float *out = packed + block * depth * kColumns;
    const int64_t column0 = block * kColumns;
    const int64_t width = columns - column0 < kColumns ? columns - column0 : kColumns;
    int64_t done = 0;
    if (depthStride == 1 && width == kColumns) {  // transposed B (k contiguous): 8 x 8 transposes
      for (; done + 8 <= depth; done += 8)
        for (int64_t half = 0; half < 2; ++half) {
          __m256 r[8];
          for (int64_t i = 0; i < 8; ++i) r[i] = load8(b + (column0 + 8 * half + i) * columnStride + done);
          transpose8(r);
          for (int64_t i = 0; i < 8; ++i) _mm256_storeu_ps(out + (done + i) * kColumns + 8 * half, r[i]);
        }
    }
    for (int64_t k = done; k < depth; ++k)
      for (int64_t j = 0; j < kColumns; ++j)
        out[k * kColumns + j] = j < width ? load1(b + (column0 + j) * columnStride + k * depthStride) : 0.0f;
  }
}

// How rows divide into register tiles: as many as 6-row tiles take, their heights as equal as
// can be (128 rows as 18 x 6 + 4 x 5, not 21 x 6 + 2). A tile of 5 rows holds 10 sums, enough to
// keep both FMA units busy through their latency; one of 2 rows keeps them busy 40% of its time.
// That predicts 2% at M = 128; measured, both splits were within this host's noise (+-1%).
struct TileRows {
  int64_t tiles, height, taller;  // the first `taller` tiles have height + 1 rows
  explicit TileRows(int64_t rows)
      : tiles((rows + kRows - 1) / kRows), height(tiles > 0 ? rows / tiles : 0), taller(tiles > 0 ? rows % tiles : 0) {}
  int64_t first(int64_t tile) const { return tile * height + (tile < taller ? tile : taller); }
  int64_t rowsOf(int64_t tile) const { return tile < taller ? height + 1 : height; }
};

// A[rows x depth] -> a micro-panel [k][6] per register tile (TileRows), so that a tile's
// broadcasts at one k read one 24-byte run; rows past a tile's height are zero.
template <class T>
void packA(const T *a, int64_t rowStride, int64_t depthStride, int64_t rows, int64_t depth, float *packed) {
  const TileRows tiles(rows);
  for (int64_t tile = 0; tile < tiles.tiles; ++tile) {
    float *out = packed + tile * kRows * depth;
    const T *rowsOfA = a + tiles.first(tile) * rowStride;
    const int64_t height = tiles.rowsOf(tile);
    int64_t done = 0;
    if (depthStride == 1) {  // rows along k: eight steps at a time, transposed
      for (; done + 8 <= depth; done += 8) {
        __m256 r[8];
        for (int64_t i = 0; i < 8; ++i) r[i] = i < height ? load8(rowsOfA + i * rowStride + done) : _mm256_setzero_ps();
        transpose8(r);
        for (int64_t j = 0; j < 8; ++j) {  // six lanes: four, then two
          float *step = out + (done + j) * kRows;
          _mm_storeu_ps(step, _mm256_castps256_ps128(r[j]));
          _mm_storel_pi(reinterpret_cast<__m64 *>(step + 4), _mm256_extractf128_ps(r[j], 1));
        }
      }
    }
    for (int64_t k = done; k < depth; ++k)
      for (int64_t r = 0; r < kRows; ++r)
        out[k * kRows + r] = r < height ? load1(rowsOfA + r * rowStride + k * depthStride) : 0.0f;
  }
}

// s8 operands as pairs of k widened to s16: a 32-bit word holds an operand's value at k = 2 step
// (low half) and 2 step + 1 (high half, zero past the depth).
int32_t pairOf(const int8_t *p, int64_t depthStride, bool second) {
  const uint32_t low = static_cast<uint16_t>(int16_t{p[0]});
  const uint32_t high = second ? static_cast<uint16_t>(int16_t{p[depthStride]}) : 0u;
  return static_cast<int32_t>(low | high << 16);
}

// s8 B[depth x columns] -> 16-column micro-panels of pairs [block][step][16], zero-padded past
// `columns`. Rows along columns: rows 2 step and 2 step + 1 widened and interleaved word by word,
// sixteen columns at a time.
void packB(const int8_t *b, int64_t depthStride, int64_t columnStride, int64_t depth, int64_t columns,
           int32_t *packed) {
  const int64_t steps = (depth + 1) / 2, blocks = (columns + kColumns - 1) / kColumns;
  const int64_t wholeBlocks = columnStride == 1 ? columns / kColumns : 0;
  for (int64_t step = 0; step < steps; ++step) {
    const int8_t *first = b + 2 * step * depthStride;
    const bool second = 2 * step + 1 < depth;
    for (int64_t block = 0; block < wholeBlocks; ++block) {
      const auto *at = reinterpret_cast<const __m128i *>(first + block * kColumns);
      const __m256i r0 = _mm256_cvtepi8_epi16(_mm_loadu_si128(at));
      const __m256i r1 = second ? _mm256_cvtepi8_epi16(_mm_loadu_si128(
                                      reinterpret_cast<const __m128i *>(first + depthStride + block * kColumns)))
                                : _mm256_setzero_si256();
      // Within 128-bit lanes: columns 0-3 and 8-11 (lo), 4-7 and 12-15 (hi).
      const __m256i lo = _mm256_unpacklo_epi16(r0, r1), hi = _mm256_unpackhi_epi16(r0, r1);
      auto *out = reinterpret_cast<__m256i *>(packed + (block * steps + step) * kColumns);
      _mm256_storeu_si256(out, _mm256_permute2x128_si256(lo, hi, 0x20));
      _mm256_storeu_si256(out + 1, _mm256_permute2x128_si256(lo, hi, 0x31));
    }
    for (int64_t block = wholeBlocks; block < blocks; ++block)  // ragged, or other layouts
      for (int64_t j = 0; j < kColumns; ++j) {
        const int64_t column = block * kColumns + j;
        packed[(block * steps + step) * kColumns + j] =
            column < columns ? pairOf(first + column * columnStride, depthStride, second) : 0;
      }
  }
}

// s8 A[rows x depth] -> a micro-panel of pairs [step][6] per register tile (TileRows); rows past
// a tile's height are zero.
void packA(const int8_t *a, int64_t rowStride, int64_t depthStride, int64_t rows, int64_t depth, int32_t *packed) {
  const int64_t steps = (depth + 1) / 2;
  const TileRows tiles(rows);
  for (int64_t tile = 0; tile < tiles.tiles; ++tile) {
    int32_t *out = packed + tile * kRows * steps;
    const int8_t *rowsOfA = a + tiles.first(tile) * rowStride;
    const int64_t height = tiles.rowsOf(tile);
    for (int64_t step = 0; step < steps; ++step)
      for (int64_t r = 0; r < kRows; ++r)
        out[step * kRows + r] =
            r < height ? pairOf(rowsOfA + r * rowStride + 2 * step * depthStride, depthStride, 2 * step + 1 < depth) : 0;
  }
}

// How a register tile multiplies the words of its micro-panels into its sums: f32 FMAs, or s8
// pairs by vpmaddwd (two exact products a lane, summed into s32; the sums wrap like the
// reference's).
struct FloatProducts {
  using Word = float;
  using Sum = float;
  using Type = __m256;
  static constexpr int64_t kStepDepth = 1;
  static constexpr bool kUnrollSteps = false;
  static Type zero() { return _mm256_setzero_ps(); }
  static Type load(const float *p) { return _mm256_loadu_ps(p); }
  static Type splat(const float *p) { return _mm256_broadcast_ss(p); }
  static Type multiplyAdd(Type a, Type b, Type sum) { return _mm256_fmadd_ps(a, b, sum); }
};
struct PairProducts {
  using Word = int32_t;
  using Sum = int32_t;
  using Type = __m256i;
  static constexpr int64_t kStepDepth = 2;
  static constexpr bool kUnrollSteps = true;
  static Type zero() { return _mm256_setzero_si256(); }
  static Type load(const int32_t *p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)); }
  static Type splat(const int32_t *p) { return _mm256_set1_epi32(*p); }
  // One asm statement, its product in a scratch register: as two intrinsics GCC issued a row's
  // vpmaddwd ahead of their adds, and the tile's 12 sums, 2 of B, 1 of A and the products
  // outgrew the 16 registers (9 sums spilled; 1 thread, paired with oneDNN, 1024^3 77-87 -> 137
  // GOP/s, 256^3 83 -> 123).
  static Type multiplyAdd(Type a, Type b, Type sum) {
    Type product;
    asm("vpmaddwd %3, %2, %1\n\tvpaddd %1, %0, %0" : "+x"(sum), "=&x"(product) : "x"(a), "x"(b));
    return sum;
  }
};

// Where a register tile reads its operands, a depth step at a time (next() moves to the next
// step): packed micro-panels of A ([step][6]) and B ([step][16]),
template <class ProductsType>
struct PackedOperands {
  using Products = ProductsType;
  using Type = typename Products::Type;
  const typename Products::Word *a, *b;
  int64_t step = 0;  // an index, not moving pointers: GCC then counts the loop by B's pointer (s8 3% faster)
  Type aAt(int r) const { return Products::splat(a + step * kRows + r); }
  Type bAt(int h) const { return Products::load(b + step * kColumns + 8 * h); }
  void next() { ++step; }
};

// f32 A where it lies, a depth step at a time. Rows 3-5 are read through a second pointer, so
// that each broadcast is one addressing mode off two bases and the row stride: with every address
// computed from k, a step took 40 instructions around its 12 FMAs, and the tile ran at half
// OpenBLAS's speed whenever the core's other hyperthread was busy.
struct RowsOfA {
  const float *a, *aFourthRow;
  int64_t aRowStride, aDepthStride;
  RowsOfA(const float *a, int64_t aRowStride, int64_t aDepthStride)
      : a(a), aFourthRow(a + 3 * aRowStride), aRowStride(aRowStride), aDepthStride(aDepthStride) {}
  __m256 aAt(int r) const { return _mm256_broadcast_ss((r < 3 ? a : aFourthRow) + (r % 3) * aRowStride); }
  void nextA() {
    a += aDepthStride;
    aFourthRow += aDepthStride;
  }
};

// ... or, for a small f32 product (inPlace), A and B where they lie (B's rows contiguous), the
// columns past B's width not read (Whole: none are),
template <bool Whole>
struct InPlaceOperands : RowsOfA {
  using Products = FloatProducts;
  const float *b;
  int64_t bDepthStride;
  Mask low, high;
  __m256 bAt(int h) const {
    return Whole ? _mm256_loadu_ps(b + 8 * h) : Vector<float>::load(h == 0 ? low : high, b + 8 * h);
  }
  void next() {
    nextA();
    b += bDepthStride;
  }
};

// ... or f32 A where it lies, its rows along k, beside a packed micro-panel of B: each line of A
// serves 16 steps. Where few column blocks share A (kAInPlaceColumns), packing it costs more
// than the tiles gain from it (1 thread, the ukernel beside its packing self: 128 x 64 x 128
// 1.18x, 128^3 1.06-1.09x, 256^3 1.03-1.05x, 2000 x 64 x 2000 1.21x); wider products lost 2-8%
// (1000^3, M = 128 with N = K = 4096), A's six strided rows fetched worse than its packed copy.
struct RowsInPlace : RowsOfA {
  using Products = FloatProducts;
  const float *b;
  __m256 bAt(int h) const { return _mm256_loadu_ps(b + 8 * h); }
  void next() {
    nextA();
    b += kColumns;
  }
};

// The cache lines of the next panel of B where it lies (runs of bytes a stride apart: B's rows
// or, transposed, its columns), fetched by the tiles of the panel before, a share a tile, one
// line every few steps, so that packing the panel reads them from cache while the memory
// traffic overlaps the FMAs. The lines run on from tile to tile. (Passed to the tile by
// reference, the fetcher's counters lived in memory, a store and reload every step: M = 128,
// N = K = 4096 at 0.94x OpenBLAS, 1.01x with the tile's own copy in registers.)
struct NoFetch {
  void step() {}
};
struct LineFetch {
  const char *at = nullptr, *runEnd = nullptr;
  int64_t runStride = 0, runBytes = 0, lines = 0;
  int64_t share = 0, taller = 0, every = 1;  // of each tile; the first `taller` fetch share + 1
  int64_t left = 0, countdown = 0;           // of the tile now running
  // Spreads the lines over `tiles` tiles of `steps` each.
  void shareAmong(int64_t tiles, int64_t steps) {
    share = lines / tiles;
    taller = lines % tiles;
    every = share > 0 && steps / share > 1 ? steps / share : 1;
  }
  void startTile(int64_t tile) {
    left = tile < taller ? share + 1 : share;
    countdown = 1;
  }
  void step() {
    if (--countdown > 0 || left <= 0) return;
    countdown = every;
    --left;
    _mm_prefetch(at, _MM_HINT_T0);
    at += 64;
    if (at == runEnd) {
      runEnd += runStride;
      at = runEnd - runBytes;
    }
  }
};

// Rows (<= 6) x 8 * Halves columns of A times B over `steps`, to `out`; the columns past B's
// width are masked off. Never inlined, as in gemm_f32_avx512.cpp: inlined into the loops over
// tiles, GCC kept the sums in memory.
template <int Rows, int Halves, class Operands, class Fetch>
__attribute__((noinline)) void registerTile(const Operands &operands, int64_t steps,
                                            const Destination<typename Operands::Products::Sum> &outIn, Mask low,
                                            Mask high, Fetch &fetchInOut) {
  using Products = typename Operands::Products;
  using Type = typename Products::Type;
  // The tile's rows of C, fetched while the sums run: each depth chunk reads them back from
  // wherever the chunk before left them.
  for (int r = 0; r < Rows; ++r) {
    const char *row = reinterpret_cast<const char *>(outIn.out + r * outIn.outRowStride);
    _mm_prefetch(row, _MM_HINT_T0);
    _mm_prefetch(row + 8 * Halves * 4 - 1, _MM_HINT_T0);
  }
  Type acc[Rows][Halves];
  for (int r = 0; r < Rows; ++r)
    for (int h = 0; h < Halves; ++h) acc[r][h] = Products::zero();
  Fetch fetch = fetchInOut;  // copies, kept in registers; the fetcher is handed back for the next tile
  Operands at = operands;
  auto step = [&]() __attribute__((always_inline)) {
    fetch.step();
    Type bk[Halves];
    for (int h = 0; h < Halves; ++h) bk[h] = at.bAt(h);
#pragma GCC unroll 6
    for (int r = 0; r < Rows; ++r) {
      const Type ak = at.aAt(r);
      for (int h = 0; h < Halves; ++h) acc[r][h] = Products::multiplyAdd(ak, bk[h], acc[r][h]);
    }
    at.next();
  };
  // s8 steps two at a time: its loop ran at 122 or 146 GOP/s (1024^3) depending on where it lay;
  // unrolled, and with loops 64-byte aligned (jit/CMakeLists.txt), at 146.
  if constexpr (Products::kUnrollSteps) {
#pragma GCC unroll 2
    for (int64_t k = 0; k < steps; ++k) step();
  } else {  // four steps a pass: 1-3% over one (fewer loop instructions a step)
#pragma GCC unroll 4
    for (int64_t k = 0; k < steps; ++k) step();
  }
  const auto out = outIn;  // a copy: GCC otherwise reloads its fields at every store
#pragma GCC unroll 6
  for (int r = 0; r < Rows; ++r)
    for (int h = 0; h < Halves; ++h) out.put(r, 8 * h, acc[r][h], h == 0 ? low : high);
  fetchInOut = fetch;
}

// A tile of `rows` (<= 6); 8 columns wide when no more are left.
template <class Operands, class Fetch>
void registerTileRows(int64_t rows, const Operands &operands, int64_t steps,
                      const Destination<typename Operands::Products::Sum> &out, Mask low, Mask high, Fetch &fetch) {
  switch (rows + (high == 0 ? 0 : kRows)) {
#define ACLCPU_ROWS(n)                                                             \
  case n: return registerTile<n, 1>(operands, steps, out, low, high, fetch); \
  case n + kRows: return registerTile<n, 2>(operands, steps, out, low, high, fetch);
    ACLCPU_ROWS(1) ACLCPU_ROWS(2) ACLCPU_ROWS(3) ACLCPU_ROWS(4) ACLCPU_ROWS(5) ACLCPU_ROWS(6)
#undef ACLCPU_ROWS
  }
}

// Up to kFewRows rows with B's rows contiguous: sums[rows][columns] += A x B over `depth` steps,
// B read where it lies, four of its rows at a time (four streams), each sum loaded and stored
// once per four steps. The sums run in the same order as a register tile's (one FMA a step, from
// k = 0 on), so a row's result does not depend on how many rows share its call.
template <int Rows, class T>
void fewRows(const T *a, int64_t aRowStride, int64_t aDepthStride, const T *b, int64_t bDepthStride, float *sums,
             int64_t columns, int64_t depth) {
  const int64_t wholeColumns = columns / 8 * 8;
  int64_t k = 0;
  for (; k + 4 <= depth; k += 4) {
    __m256 ak[Rows][4];
    for (int r = 0; r < Rows; ++r)
      for (int u = 0; u < 4; ++u) ak[r][u] = _mm256_set1_ps(load1(a + r * aRowStride + (k + u) * aDepthStride));
    const T *row = b + k * bDepthStride;
    for (int64_t j = 0; j < wholeColumns; j += 8) {
      __m256 bk[4];
      for (int u = 0; u < 4; ++u) bk[u] = load8(row + u * bDepthStride + j);
      for (int r = 0; r < Rows; ++r) {
        __m256 sum = _mm256_loadu_ps(sums + r * columns + j);
        for (int u = 0; u < 4; ++u) sum = _mm256_fmadd_ps(ak[r][u], bk[u], sum);
        _mm256_storeu_ps(sums + r * columns + j, sum);
      }
    }
    for (int64_t j = wholeColumns; j < columns; ++j)
      for (int r = 0; r < Rows; ++r)
        for (int u = 0; u < 4; ++u)
          sums[r * columns + j] = __builtin_fmaf(_mm256_cvtss_f32(ak[r][u]), load1(row + u * bDepthStride + j),
                                                 sums[r * columns + j]);
  }
  for (; k < depth; ++k)
    for (int r = 0; r < Rows; ++r) {
      const float ak = load1(a + r * aRowStride + k * aDepthStride);
      const T *row = b + k * bDepthStride;
      int64_t j = 0;
      for (; j < wholeColumns; j += 8)
        _mm256_storeu_ps(sums + r * columns + j,
                         _mm256_fmadd_ps(_mm256_set1_ps(ak), load8(row + j), _mm256_loadu_ps(sums + r * columns + j)));
      for (; j < columns; ++j) sums[r * columns + j] = __builtin_fmaf(ak, load1(row + j), sums[r * columns + j]);
    }
}

// The depth of each chunk: as deep as kDepthSteps steps of `stepDepth` allow, all alike (513 as
// 3 x 171, not 256 + 256 + 1: each chunk costs a pass over C and the packing of its panels), a
// whole number of steps. Both float paths sum in these chunks, so that a row's result does not
// depend on the path.
int64_t depthChunkOf(int64_t depth, int64_t stepDepth) {
  const int64_t deepest = kDepthSteps * stepDepth;
  const int64_t chunks = (depth + deepest - 1) / deepest;
  return ((depth + chunks - 1) / chunks + stepDepth - 1) / stepDepth * stepDepth;
}

// visit(k0, slice) for each depth chunk of `depth` (depthChunkOf), in order.
template <class Visit>
void forEachDepthChunk(int64_t depth, int64_t stepDepth, Visit &&visit) {
  const int64_t depthChunk = depthChunkOf(depth, stepDepth);
  for (int64_t k0 = 0; k0 < depth; k0 += depthChunk) visit(k0, depth - k0 < depthChunk ? depth - k0 : depthChunk);
}

template <class T>
using ProductsOf = std::conditional_t<std::is_same_v<T, int8_t>, PairProducts, FloatProducts>;

// B is `bBase` from `bOffset` on: where that buffer is a constant operand (const_panels.h), its
// packed panels are kept across calls and read again instead of packing B.
template <class T>
void gemm(const T *a, int64_t aRowStride, int64_t aDepthStride, const T *b, int64_t bDepthStride,
          int64_t bColumnStride, typename ProductsOf<T>::Sum *c, int64_t cRowStride, int64_t rows, int64_t columns,
          int64_t depth, const Epilogue<typename ProductsOf<T>::Sum> &epilogue, const void *bBase, int64_t bOffset) {
  using Products = ProductsOf<T>;
  using Word = typename Products::Word;
  using Sum = typename Products::Sum;
  constexpr int64_t kStepDepth = Products::kStepDepth;
  if (rows <= 0 || columns <= 0) return;
  if (depth <= 0) {  // an empty product: the epilogue alone
    if (epilogue.scaled()) epilogue.finish(nullptr, 0, c, cRowStride, rows, columns);
    return;
  }
  if constexpr (std::is_same_v<Products, FloatProducts>) {
    // Constant or not: B in place beat its kept panels here (1 thread, M = 1, N = K = 4096, 12.3
    // against 7.9 GF/s, paired with oneDNN's matmul with B pre-packed: 1.03-1.07x against 0.69-0.71x).
    if (rows <= kFewRows && bColumnStride == 1) {
      // Summed in the packed path's depth chunks, each into zeroed sums that then reach C as a
      // chunk's tiles put theirs: the same bits as with B's panels.
      auto *sums = reinterpret_cast<float *>(aclcpu::ukernelScratch(2, rows * columns * 4));
      forEachDepthChunk(depth, 1, [&](int64_t k0, int64_t slice) {
        for (int64_t i = 0; i < rows * columns; ++i) sums[i] = 0.0f;
        const T *chunkOfA = a + k0 * aDepthStride, *chunkOfB = b + k0 * bDepthStride;
        switch (rows) {
          case 1: fewRows<1>(chunkOfA, aRowStride, aDepthStride, chunkOfB, bDepthStride, sums, columns, slice); break;
          case 2: fewRows<2>(chunkOfA, aRowStride, aDepthStride, chunkOfB, bDepthStride, sums, columns, slice); break;
          case 3: fewRows<3>(chunkOfA, aRowStride, aDepthStride, chunkOfB, bDepthStride, sums, columns, slice); break;
          default: fewRows<4>(chunkOfA, aRowStride, aDepthStride, chunkOfB, bDepthStride, sums, columns, slice); break;
        }
        epilogue.finish(sums, columns, c, cRowStride, rows, columns, k0 == 0);
      });
      return;
    }
  }
  if constexpr (std::is_same_v<T, float>) {
    if (bColumnStride == 1 && (rows + columns) * depth + rows * columns <= kInPlaceElements) {
      // A small product: the tiles read A and B where they lie, in the same depth chunks.
      // Packing them cost 64^3 8% (1 thread, paired with OpenBLAS: 1.09-1.12x -> 1.18-1.19x).
      const TileRows tiles(rows);
      forEachDepthChunk(depth, 1, [&](int64_t k0, int64_t slice) {
        const Destination<float> out = epilogue.chunk(k0 == 0, c, cRowStride, 0);
        for (int64_t j = 0; j < columns; j += kColumns) {
          const Mask low = Vector<float>::firstLanes(columns - j), high = Vector<float>::firstLanes(columns - j - 8);
          for (int64_t tile = 0; tile < tiles.tiles; ++tile) {
            const int64_t r = tiles.first(tile);
            const float *aAt = a + r * aRowStride + k0 * aDepthStride, *bAt = b + k0 * bDepthStride + j;
            const Destination<float> at = out.at(r, j);
            NoFetch none;
            if (columns - j >= kColumns)
              registerTileRows(tiles.rowsOf(tile),
                               InPlaceOperands<true>{{aAt, aRowStride, aDepthStride}, bAt, bDepthStride, low, high},
                               slice, at, low, high, none);
            else
              registerTileRows(tiles.rowsOf(tile),
                               InPlaceOperands<false>{{aAt, aRowStride, aDepthStride}, bAt, bDepthStride, low, high},
                               slice, at, low, high, none);
          }
        }
      });
      return;
    }
  }
  auto stepsOf = [](int64_t slice) { return (slice + kStepDepth - 1) / kStepDepth; };
  const void *constB = aclcpu::isConstOperand(bBase) ? bBase : nullptr;
  // One band of rows with B packed anew: narrow panels (kJustInTimeColumns), each packed from
  // lines the tiles of the one before fetched (LineFetch), and A packed once a depth chunk for
  // all of them (depth chunks outside column panels).
  // f32 A with its rows along k is read where it lies (RowsInPlace) by products of up to
  // kAInPlaceColumns columns, whose few column blocks would not repay packing it.
  const bool aInPlace = std::is_same_v<T, float> && aDepthStride == 1 && columns <= kAInPlaceColumns;
  const bool oneBand = rows <= kRowChunk;
  const int64_t columnChunk = oneBand && !constB ? kJustInTimeColumns : kColumnChunk;
  const int64_t depthChunk = depthChunkOf(depth, kStepDepth);
  const int64_t panelColumns = columns < columnChunk ? columns : columnChunk;
  const int64_t panelSteps = stepsOf(depth < depthChunk ? depth : depthChunk);
  const int64_t bandRows = rows < kRowChunk ? rows : kRowChunk;
  auto *packedB = reinterpret_cast<Word *>(aclcpu::ukernelScratch(
      0, (panelColumns + kColumns - 1) / kColumns * kColumns * panelSteps * int64_t{sizeof(Word)}));
  auto *packedA = reinterpret_cast<Word *>(
      aclcpu::ukernelScratch(1, (bandRows + kRows - 1) / kRows * kRows * panelSteps * int64_t{sizeof(Word)}));
  // A panel of B: packed into scratch or, for a constant B, kept from an earlier call (or packed
  // now and kept). The key tells these panels from the AVX-512 files' (other micro-panels), and
  // rounded ones (low precision) from exact ones of the same B.
  auto panelOfB = [&](int64_t k0, int64_t j0, int64_t slice, int64_t width) -> const Word * {
    const T *from = b + k0 * bDepthStride + j0 * bColumnStride;
    if (constB) {
      const aclcpu::ConstPanelKey key{{bOffset, bDepthStride, bColumnStride, j0, k0, slice, width,
                                       256 + int64_t{sizeof(T)} + (kRounds<T> ? 1 : 0)}};
      const int64_t bytes = (width + kColumns - 1) / kColumns * kColumns * stepsOf(slice) * int64_t{sizeof(Word)};
      bool fill = false;
      if (uint8_t *kept = aclcpu::constPanel(constB, key, bytes, fill)) {
        auto *panel = reinterpret_cast<Word *>(kept);
        if (fill) {
          packB(from, bDepthStride, bColumnStride, slice, width, panel);
          aclcpu::constPanelFilled(constB, key);
        }
        return panel;
      }
    }
    packB(from, bDepthStride, bColumnStride, slice, width, packedB);
    return packedB;
  };
  // Where B is packed anew for one band, the lines of its next panel, fetched by this one's tiles.
  auto nextPanelLines = [&](int64_t k0, int64_t j0) {
    LineFetch lines;
    if (!oneBand || constB) return lines;
    int64_t nextK0 = k0, nextJ0 = j0 + columnChunk;
    if (nextJ0 >= columns) nextK0 += depthChunk, nextJ0 = 0;
    if (nextK0 >= depth) return lines;
    const int64_t slice = depth - nextK0 < depthChunk ? depth - nextK0 : depthChunk;
    const int64_t width = columns - nextJ0 < columnChunk ? columns - nextJ0 : columnChunk;
    const int64_t runs = bColumnStride == 1 ? slice : bDepthStride == 1 ? width : 0;
    const int64_t runLength = bColumnStride == 1 ? width : slice;
    const char *from = reinterpret_cast<const char *>(b + nextK0 * bDepthStride + nextJ0 * bColumnStride);
    const char *firstLine = reinterpret_cast<const char *>(reinterpret_cast<uintptr_t>(from) & ~uintptr_t{63});
    lines.at = firstLine;
    lines.runStride = (bColumnStride == 1 ? bDepthStride : bColumnStride) * int64_t{sizeof(T)};
    lines.runBytes = (from + runLength * int64_t{sizeof(T)} - firstLine + 63) / 64 * 64;
    lines.runEnd = firstLine + lines.runBytes;
    lines.lines = runs * (lines.runBytes / 64);
    return lines;
  };
  forEachDepthChunk(depth, kStepDepth, [&](int64_t k0, int64_t slice) {
    const int64_t steps = stepsOf(slice);
    for (int64_t j0 = 0; j0 < columns; j0 += columnChunk) {
      const int64_t width = columns - j0 < columnChunk ? columns - j0 : columnChunk;
      const int64_t blocks = (width + kColumns - 1) / kColumns;
      const Word *packedPanel = panelOfB(k0, j0, slice, width);
      const Destination<Sum> out = epilogue.chunk(k0 == 0, c, cRowStride, j0);
      LineFetch next = nextPanelLines(k0, j0);
      for (int64_t row0 = 0; row0 < rows; row0 += kRowChunk) {
        const int64_t band = rows - row0 < kRowChunk ? rows - row0 : kRowChunk;
        if (!aInPlace && (!oneBand || j0 == 0))
          packA(a + row0 * aRowStride + k0 * aDepthStride, aRowStride, aDepthStride, band, slice, packedA);
        const TileRows tiles(band);
        next.shareAmong(blocks * tiles.tiles, steps);  // one band when fetching
        NoFetch none;
        // Micro-panels of B outside, rows inside: a micro-panel stays in L1 while the band passes.
        for (int64_t block = 0; block < blocks; ++block) {
          const int64_t left = width - block * kColumns;
          const Mask low = Vector<Sum>::firstLanes(left), high = Vector<Sum>::firstLanes(left - 8);
          const Word *panel = packedPanel + block * steps * kColumns;
          for (int64_t tile = 0; tile < tiles.tiles; ++tile) {
            const int64_t row = row0 + tiles.first(tile);
            const Destination<Sum> at = out.at(row, block * kColumns);
            auto run = [&](const auto &operands) {
              if (next.lines > 0) {
                next.startTile(block * tiles.tiles + tile);
                registerTileRows(tiles.rowsOf(tile), operands, steps, at, low, high, next);
              } else {
                registerTileRows(tiles.rowsOf(tile), operands, steps, at, low, high, none);
              }
            };
            if constexpr (std::is_same_v<T, float>) {
              if (aInPlace) {
                run(RowsInPlace{{a + row * aRowStride + k0, aRowStride, 1}, panel});
                continue;
              }
            }
            run(PackedOperands<Products>{packedA + tile * kRows * steps, panel});
          }
        }
      }
    }
  });
}

}  // namespace

#define ACLCPU_GEMM_UKERNEL_AVX2(name, T)                                                                         \
  extern "C" void name(ACLCPU_GEMM_UKERNEL_PARAMETERS(void, float)) {                                             \
    gemm<T>(static_cast<const T *>(a) + aOffset, aRowStride, aDepthStride, static_cast<const T *>(b) + bOffset,     \
            bDepthStride, bColumnStride, c + cOffset, cRowStride, rows, columns, depth,                             \
            Epilogue<float>::of(ACLCPU_GEMM_EPILOGUE_ARGUMENTS), b, bOffset);                                       \
  }
ACLCPU_GEMM_UKERNEL_AVX2(aclcpu_ukernel_gemm_f32f32f32_avx2, float)
ACLCPU_GEMM_UKERNEL_AVX2(aclcpu_ukernel_gemm_f16f16f32_avx2, Half)
ACLCPU_GEMM_UKERNEL_AVX2(aclcpu_ukernel_gemm_bf16bf16f32_avx2, BFloat)
ACLCPU_GEMM_UKERNEL_AVX2(aclcpu_ukernel_gemm_f16f16f32_rounded_avx2, Rounded<Half>)
ACLCPU_GEMM_UKERNEL_AVX2(aclcpu_ukernel_gemm_f32f32f32_rounded_avx2, Rounded<float>)

extern "C" void aclcpu_ukernel_gemm_s8s8s32_avx2(ACLCPU_GEMM_UKERNEL_PARAMETERS(int8_t, int32_t)) {
  gemm<int8_t>(a + aOffset, aRowStride, aDepthStride, b + bOffset, bDepthStride, bColumnStride, c + cOffset,
               cRowStride, rows, columns, depth, Epilogue<int32_t>::of(ACLCPU_GEMM_EPILOGUE_ARGUMENTS), b,
               bOffset);
}
