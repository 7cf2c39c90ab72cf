// The exact GEMM ukernels this host runs (AVX-512 or AVX2; f32, f16 and bf16 operands summed in
// f32, s8 in s32), called directly against plain loops in double: every operand layout the
// `aclop-call-ukernels` ABI passes (A and B either way round or strided, C with a wider row
// stride), both modes (C += P; C = alpha P + beta Cin with Cin apart, Cin == C, and beta = 0 with
// NaN in Cin, which must not leak), and shapes that cross every blocking edge: ragged register
// tiles, the few-rows path, several depth chunks, row bands and column panels (one band of rows
// across several panels and chunks too, where the tiles fetch the next panel's lines).
#include "op_compiler.h"

#include "../../kernels/ukernels/ukernels.h"
#include "../common/host_tensor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

using namespace aclcpu;

namespace {

enum class Element { F32, F16, BF16 };

struct UkernelUnderTest {
  std::string name;
  Element element;
  GemmF32Ukernel *function;
};

// The exact ones among the host's ukernels, and bf16 through pairs (vdpbf16ps) or AMX's tiles,
// which only flush denormals: the values here have none (f16 and f32 through pairs round).
std::vector<UkernelUnderTest> hostGemmUkernels() {
  const struct {
    const char *name;
    Element element;
  } exact[] = {{"aclcpu_ukernel_gemm_f32f32f32", Element::F32},       {"aclcpu_ukernel_gemm_f16f16f32", Element::F16},
               {"aclcpu_ukernel_gemm_bf16bf16f32", Element::BF16},    {"aclcpu_ukernel_gemm_f32f32f32_avx2", Element::F32},
               {"aclcpu_ukernel_gemm_f16f16f32_avx2", Element::F16}, {"aclcpu_ukernel_gemm_bf16bf16f32_avx2", Element::BF16},
               {"aclcpu_ukernel_gemm_bf16bf16f32_dpbf16", Element::BF16},
               {"aclcpu_ukernel_gemm_bf16bf16f32_amx", Element::BF16},
               {"aclcpu_ukernel_gemm_f16f16f32_amx", Element::F16}};
  int count = 0;
  const UkernelSymbol *symbols = ukernelSymbols(count);
  std::vector<UkernelUnderTest> found;
  const auto &host = hostTarget().ukernels;
  for (const auto &candidate : exact) {
    if (std::find(host.begin(), host.end(), candidate.name) == host.end()) continue;
    for (int i = 0; i < count; ++i)
      if (std::string(symbols[i].name) == candidate.name)
        found.push_back({candidate.name, candidate.element, reinterpret_cast<GemmF32Ukernel *>(symbols[i].address)});
  }
  return found;
}

// Element storage: f32 as it is, f16 and bf16 as 16-bit words of values chosen to be exact in them.
struct Operand {
  Element element;
  std::vector<float> values;  // what the words hold, for the reference
  std::vector<uint16_t> words;
  std::vector<float> floats;
  const void *data() const { return element == Element::F32 ? static_cast<const void *>(floats.data()) : words.data(); }
};

uint16_t wordOf(float value, Element element) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if (element == Element::BF16) return static_cast<uint16_t>(bits >> 16);  // exact: low bits are zero
  // f16 of a value with at most 11 significant bits in [2^-10, 8): exact
  const uint32_t sign = bits >> 31, exponent = (bits >> 23) & 0xff, mantissa = bits & 0x7fffff;
  if (exponent == 0) return static_cast<uint16_t>(sign << 15);
  return static_cast<uint16_t>(sign << 15 | (exponent - 127 + 15) << 10 | mantissa >> 13);
}

// `size` elements, those at the offsets `read` marks small multiples of 2^-6 (exact in every
// type), the others NaN: read by mistake (even times a zero of padding), they show in C.
Operand randomOperand(Element element, const std::vector<bool> &read, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_int_distribution<int> steps(-128, 128);
  const size_t size = read.size();
  Operand operand{element, std::vector<float>(size), {}, {}};
  for (size_t i = 0; i < size; ++i)
    operand.values[i] = read[i] ? steps(generator) / 64.0f : std::numeric_limits<float>::quiet_NaN();
  if (element == Element::F32) {
    operand.floats = operand.values;
  } else {
    operand.words.resize(size);
    const uint16_t nan = element == Element::F16 ? 0x7e00 : 0x7fc0;
    for (size_t i = 0; i < size; ++i) operand.words[i] = read[i] ? wordOf(operand.values[i], element) : nan;
  }
  return operand;
}

// Which of `size` elements a matrix of (outer x inner) at `offset` with those strides covers.
std::vector<bool> covered(size_t size, int64_t offset, int64_t outer, int64_t outerStride, int64_t inner,
                          int64_t innerStride) {
  std::vector<bool> read(size, false);
  for (int64_t i = 0; i < outer; ++i)
    for (int64_t k = 0; k < inner; ++k) read[size_t(offset + i * outerStride + k * innerStride)] = true;
  return read;
}

struct Layout {
  bool transposedA, transposedB;
  int64_t bColumnStride;  // 1, or 2 (B's columns every other element) when not transposed
  int64_t cPadding;       // C's row stride is columns + cPadding
};

// Scaled by alpha = 1.25 with beta = -0.75 (Cin apart or C itself) or 0; or by alpha = 1 with
// beta = 0 (C = P) or beta = 1 in place (C += P), which a ukernel may take as plain sums (AMX's
// tiles load and store C). Or Cin a bias: one element a row broadcast along it (column stride 0,
// a convolution's bias over its out channels) scaled as above or not, or one row that every row
// reads (row stride 0, MatMul's bias).
enum class Mode {
  Accumulate,
  ScaledApart,
  ScaledInPlace,
  ScaledBetaZero,
  UnitBetaZero,
  UnitInPlace,
  ScaledRowBias,
  UnitRowBias,
  UnitColumnBias
};

// Cin's strides (row, column) in `mode`, given C's row stride.
std::pair<int64_t, int64_t> cInStrides(Mode mode, int64_t cRowStride) {
  if (mode == Mode::ScaledRowBias || mode == Mode::UnitRowBias) return {1, 0};
  if (mode == Mode::UnitColumnBias) return {0, 1};
  return {cRowStride, 1};
}

// Runs one product and compares every element of C with the reference; returns false on the
// first mismatch (reported).
bool checkProduct(const UkernelUnderTest &ukernel, int64_t rows, int64_t columns, int64_t depth, Layout layout,
                  Mode mode, unsigned seed) {
  const int64_t aRowStride = layout.transposedA ? 1 : depth + 3, aDepthStride = layout.transposedA ? rows + 5 : 1;
  const int64_t bDepthStride = layout.transposedB ? 1 : columns * layout.bColumnStride + 7;
  const int64_t bColumnStride = layout.transposedB ? depth + 2 : layout.bColumnStride;
  const int64_t aOffset = 3, bOffset = 5, cOffset = 2, cInOffset = 1;
  const int64_t cRowStride = columns + layout.cPadding;
  // Each operand ends at its last element, so that a read past it leaves the allocation (the
  // sanitizer build reports it; reads between rows meet NaN: randomOperand).
  auto end = [](int64_t offset, int64_t outer, int64_t outerStride, int64_t inner, int64_t innerStride) {
    return size_t(offset + std::max<int64_t>(outer - 1, 0) * outerStride + std::max<int64_t>(inner - 1, 0) * innerStride + 1);
  };
  const size_t aSize = end(aOffset, rows, aRowStride, depth, aDepthStride);
  const size_t bSize = end(bOffset, depth, bDepthStride, columns, bColumnStride);
  const size_t cSize = size_t(cOffset + rows * cRowStride + 8);
  Operand a = randomOperand(ukernel.element, covered(aSize, aOffset, rows, aRowStride, depth, aDepthStride), seed);
  Operand b =
      randomOperand(ukernel.element, covered(bSize, bOffset, depth, bDepthStride, columns, bColumnStride), seed + 1);
  std::vector<float> c(cSize), cIn(cSize);
  std::mt19937 generator(seed + 2);
  std::uniform_int_distribution<int> steps(-64, 64);
  for (float &value : c) value = steps(generator) / 16.0f;
  for (float &value : cIn) value = steps(generator) / 16.0f;
  const bool unit = mode == Mode::UnitBetaZero || mode == Mode::UnitInPlace || mode == Mode::UnitRowBias ||
                    mode == Mode::UnitColumnBias;
  const bool betaZero = mode == Mode::ScaledBetaZero || mode == Mode::UnitBetaZero;
  const bool inPlace = mode == Mode::ScaledInPlace || mode == Mode::UnitInPlace;
  const float alpha = unit ? 1.0f : 1.25f, beta = betaZero ? 0.0f : unit ? 1.0f : -0.75f;
  if (betaZero) std::fill(cIn.begin(), cIn.end(), std::numeric_limits<float>::quiet_NaN());
  const std::vector<float> before = c;
  const bool scaled = mode != Mode::Accumulate;
  const float *cInData = inPlace ? c.data() + cOffset : cIn.data() + cInOffset;
  const int64_t cInStart = 0;
  const auto [cInRowStride, cInColumnStride] = cInStrides(mode, cRowStride);
  ukernel.function(a.data(), aOffset, aRowStride, aDepthStride, b.data(), bOffset, bDepthStride, bColumnStride, c.data(),
                   cOffset, cRowStride, rows, columns, depth, scaled ? &alpha : nullptr, scaled ? &beta : nullptr,
                   scaled ? cInData : nullptr, cInStart, cInRowStride, cInColumnStride);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < columns; ++j) {
      double product = 0, magnitude = 0;
      for (int64_t k = 0; k < depth; ++k) {
        const double term = double(a.values[size_t(aOffset + i * aRowStride + k * aDepthStride)]) *
                            b.values[size_t(bOffset + j * bColumnStride + k * bDepthStride)];
        product += term;
        magnitude += std::fabs(term);
      }
      const size_t at = size_t(cOffset + i * cRowStride + j);
      const double old = before[at];
      const double inValue = inPlace ? old : cInData[i * cInRowStride + j * cInColumnStride];
      const double expected = !scaled ? old + product : alpha * product + (beta != 0 ? beta * inValue : 0.0);
      // f32 sums of `depth` terms: each rounding at most 2^-24 of the running magnitude.
      const double scaledIn = scaled && beta != 0 ? std::fabs(beta * inValue) : 0.0;
      const double tolerance =
          1e-6 + 2.0 * double(depth + 4) * 0x1p-24 * (std::fabs(alpha) * magnitude + std::fabs(old) + scaledIn);
      if (!(std::fabs(c[at] - expected) <= tolerance)) {
        ADD_FAILURE() << ukernel.name << " " << rows << "x" << columns << "x" << depth << " ta " << layout.transposedA
                      << " tb " << layout.transposedB << " bColumnStride " << layout.bColumnStride << " mode "
                      << int(mode) << ": C[" << i << "][" << j << "] = " << c[at] << ", expected " << expected;
        return false;
      }
    }
  // Outside C's rows x columns nothing changed (the padding of each row, the ends).
  for (size_t at = 0; at < c.size(); ++at) {
    const int64_t offset = int64_t(at) - cOffset;
    const bool inside = offset >= 0 && offset < rows * cRowStride && offset % cRowStride < columns;
    if (!inside && std::memcmp(&c[at], &before[at], sizeof(float)) != 0) {
      ADD_FAILURE() << ukernel.name << " " << rows << "x" << columns << "x" << depth << " wrote outside C at " << at;
      return false;
    }
  }
  return true;
}

TEST(UkernelGemm, MatchesPlainLoopsOverLayoutsModesAndShapes) {
  const auto ukernels = hostGemmUkernels();
  if (ukernels.empty()) GTEST_SKIP() << "no exact f32-accumulating GEMM ukernel on this CPU";
  struct Shape {
    int64_t rows, columns, depth;
  } shapes[] = {{1, 1, 1},   {3, 17, 5},  {4, 100, 300}, {2, 9, 0},      {5, 33, 257},   {6, 16, 8},
                {7, 15, 31}, {13, 40, 9}, {64, 64, 64},  {170, 50, 513}, {20, 4100, 3}, {40, 150, 300},
                {48, 1030, 70}, {32, 32, 1100}, {16, 100, 300}, {62, 270, 37}};
  const Layout layouts[] = {{false, false, 1, 0}, {true, false, 1, 3}, {false, true, 1, 1},
                            {true, true, 1, 0},   {false, false, 2, 5}};
  const Mode modes[] = {Mode::Accumulate,     Mode::ScaledApart,   Mode::ScaledInPlace,
                        Mode::ScaledBetaZero, Mode::UnitBetaZero,  Mode::UnitInPlace,
                        Mode::ScaledRowBias,  Mode::UnitRowBias,   Mode::UnitColumnBias};
  int checked = 0;
  unsigned seed = 1;
  for (const auto &ukernel : ukernels)
    for (const Shape &shape : shapes)
      for (const Layout &layout : layouts)
        for (Mode mode : modes) {
          ASSERT_TRUE(checkProduct(ukernel, shape.rows, shape.columns, shape.depth, layout, mode, seed++));
          ++checked;
        }
  printf("%zu ukernels, %d products checked\n", ukernels.size(), checked);
}

// One band of rows (48 to 132) over several column panels and depth chunks packs each chunk of B
// either during the tiles of the chunk before (PanelShare) or in a pass just before it, as the
// CPU suits (ukernelPacksDuringTiles): both ways here, whichever this CPU takes. A skipped or
// misplaced step of the shared packing shows in C; B's rows strided (bColumnStride 2) take the pass.
TEST(UkernelGemm, OneBandPacksBDuringItsTilesOrBeforeThem) {
  const auto ukernels = hostGemmUkernels();
  if (ukernels.empty()) GTEST_SKIP() << "no exact f32-accumulating GEMM ukernel on this CPU";
  const bool cpuDefault = ukernelPacksDuringTiles();
  struct Shape {
    int64_t rows, columns, depth;
  } shapes[] = {{48, 1030, 70}, {61, 300, 1100}, {130, 260, 1030}};
  unsigned seed = 11;
  for (bool during : {true, false}) {
    setUkernelPacksDuringTiles(during);
    for (const auto &ukernel : ukernels) {
      if (ukernel.name.find("_avx2") != std::string::npos || ukernel.name.find("_amx") != std::string::npos) continue;
      for (const Shape &shape : shapes)
        for (Layout layout : {Layout{false, false, 1, 0}, Layout{true, false, 1, 3}, Layout{false, false, 2, 0}})
          for (Mode mode : {Mode::Accumulate, Mode::ScaledApart, Mode::UnitBetaZero})
            EXPECT_TRUE(checkProduct(ukernel, shape.rows, shape.columns, shape.depth, layout, mode, seed++))
                << "packing during tiles " << during;
    }
  }
  setUkernelPacksDuringTiles(cpuDefault);
}

// Few rows with B's rows contiguous stream B in place (f32, bf16 pairs); where B is larger than
// L2 the pieces are shallower on CPUs that take shallow ones (ukernelStreamsShallowPieces: both
// ways here), and a wrong piece walk shows here: one row tile and two, the second ragged, one
// mode with the sums resumed across pieces and one scaled.
// The L2 size the tests size a B larger than L2 by: up to 8 MiB (a larger one would make them slow).
int64_t testedL2Bytes() { return std::min<int64_t>(aclcpu::ukernelL2Bytes(), int64_t{8} << 20); }

TEST(UkernelGemm, StreamsABLargerThanL2) {
  const auto ukernels = hostGemmUkernels();
  if (ukernels.empty()) GTEST_SKIP() << "no exact f32-accumulating GEMM ukernel on this CPU";
  const int64_t columns = 1000, depth = testedL2Bytes() / (2 * columns) + 66;  // 16-bit B: > L2
  const bool cpuDefault = ukernelStreamsShallowPieces();
  unsigned seed = 7;
  for (bool shallow : {true, false}) {
    setUkernelStreamsShallowPieces(shallow);
    for (const auto &ukernel : ukernels)
      for (int64_t rows : {9, 20, 40})
        for (Mode mode : {Mode::Accumulate, Mode::ScaledApart})
          EXPECT_TRUE(checkProduct(ukernel, rows, columns, depth, Layout{false, false, 1, 0}, mode, seed++))
              << ukernel.name << " rows " << rows << " shallow pieces " << shallow;
  }
  setUkernelStreamsShallowPieces(cpuDefault);
}

// f32 tiles over B larger than L2 keep B's rows for the tiles after the first (KeepingB, Kept)
// and share fetching the micro-panel ahead, a half (2-3 tiles) or a quarter (4 and more) of its
// rows each; a product at most 256 deep is one piece. A row of a share fetched from the wrong
// place costs only time, but a kept row stored or read at the wrong step shows in C: 20, 40,
// 64 and 100 rows (two, four, six and nine tiles, the last of 4 rows; more than 48 stream only
// where one band packs B in a pass), deep and shallow, the last micro-panel ragged.
TEST(UkernelGemm, StreamedTilesKeepBAndShareItsFetching) {
  const auto ukernels = hostGemmUkernels();
  const auto f32 = std::find_if(ukernels.begin(), ukernels.end(),
                                [](const UkernelUnderTest &u) { return u.name == "aclcpu_ukernel_gemm_f32f32f32"; });
  if (f32 == ukernels.end()) GTEST_SKIP() << "no AVX-512 f32 GEMM ukernel on this CPU";
  const bool cpuDefault = ukernelPacksDuringTiles();
  setUkernelPacksDuringTiles(false);
  struct Shape {
    int64_t columns, depth;
  } shapes[] = {{1000, testedL2Bytes() / (4 * 1000) + 66}, {testedL2Bytes() / (4 * 200) + 37, 200}};
  unsigned seed = 31;
  for (const Shape &shape : shapes)
    for (int64_t rows : {20, 40, 64, 100})
      for (Mode mode : {Mode::Accumulate, Mode::ScaledApart})
        EXPECT_TRUE(checkProduct(*f32, rows, shape.columns, shape.depth, Layout{false, false, 1, 0}, mode, seed++))
            << rows << "x" << shape.columns << "x" << shape.depth;
  setUkernelPacksDuringTiles(cpuDefault);
}

// Whether C (rows x columns, row-major) holds A B, A (rows x depth) and B (depth x columns)
// row-major with each input through `input`, within f32 summation's rounding: each of `depth`
// sums at most 2^-24 of the running magnitude, twice over. The first element outside is reported.
template <class Input>
testing::AssertionResult nearProduct(const std::vector<float> &c, const std::vector<float> &a,
                                     const std::vector<float> &b, int64_t rows, int64_t columns, int64_t depth,
                                     Input input) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < columns; ++j) {
      double expected = 0, magnitude = 0;
      for (int64_t k = 0; k < depth; ++k) {
        const double term = double(input(a[size_t(i * depth + k)])) * input(b[size_t(k * columns + j)]);
        expected += term;
        magnitude += std::fabs(term);
      }
      const double tolerance = 1e-6 + 2.0 * double(depth) * 0x1p-24 * magnitude;
      const float got = c[size_t(i * columns + j)];
      if (!(std::fabs(got - expected) <= tolerance))
        return testing::AssertionFailure() << "C[" << i << "][" << j << "] = " << got << ", expected " << expected
                                           << " within " << tolerance;
    }
  return testing::AssertionSuccess();
}

float unchanged(float value) { return value; }

// AMX's ukernels read whole bands of A in place where A and its rows are 64-byte aligned (the
// layout above never is): rows of 96 and 1152 bf16 (one depth chunk, and two, the second ragged
// and packed), against double sums; C = P (alpha 1, beta 0, written through the tiles).
TEST(UkernelGemm, AmxReadsAnAlignedAInPlace) {
  const auto &host = hostTarget().ukernels;
  if (std::find(host.begin(), host.end(), "aclcpu_ukernel_gemm_bf16bf16f32_amx") == host.end())
    GTEST_SKIP() << "no AMX-BF16 ukernel on this CPU";
  std::mt19937 generator(11);
  std::uniform_int_distribution<int> steps(-64, 64);
  for (auto [rows, columns, depth, rowStride] : {std::tuple<int64_t, int64_t, int64_t, int64_t>{64, 48, 96, 96},
                                                 {40, 33, 64, 96},
                                                 {96, 70, 1100, 1152}}) {
    SCOPED_TRACE(depth);
    auto free = [](void *p) { std::free(p); };
    std::unique_ptr<uint16_t, decltype(free)> a(
        static_cast<uint16_t *>(std::aligned_alloc(64, size_t(rows * rowStride * 2))), free);
    std::vector<float> aValues(size_t(rows * depth)), b(size_t(depth * columns));
    std::vector<uint16_t> bWords(b.size());
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t k = 0; k < rowStride; ++k) {
        const float value = k < depth ? steps(generator) / 64.0f : std::numeric_limits<float>::quiet_NaN();
        if (k < depth) aValues[size_t(i * depth + k)] = value;
        a.get()[i * rowStride + k] = aclcpu_test::toBf16(value);
      }
    for (size_t at = 0; at < b.size(); ++at) {
      b[at] = steps(generator) / 64.0f;
      bWords[at] = aclcpu_test::toBf16(b[at]);
    }
    std::vector<float> c(size_t(rows * columns), -1.0f);
    const float one = 1, zero = 0;
    aclcpu_ukernel_gemm_bf16bf16f32_amx(a.get(), 0, rowStride, 1, bWords.data(), 0, columns, 1, c.data(), 0, columns,
                                        rows, columns, depth, &one, &zero, c.data(), 0, columns, 1);
    ASSERT_TRUE(nearProduct(c, aValues, b, rows, columns, depth, unchanged));
  }
}

// AMX's ukernels leave their tile configuration loaded from one call to the next, and load it only
// where the thread's tiles hold another: here they run again with theirs still loaded and their
// tiles' old contents, after other code loaded a configuration of its own (one tile of 8 rows of
// 32 bytes) and filled the tiles with NaN, and after it released them (a tile instruction would
// then fault). Outside the ukernels, so through the assembler: this file has no AMX flags.
void loadForeignTiles() {
  struct alignas(64) {
    uint8_t palette = 1, startRow = 0, reserved[14] = {};
    uint16_t bytesPerRow[16] = {64, 64, 64, 64, 64, 64, 32, 64};
    uint8_t rows[16] = {16, 16, 16, 16, 16, 16, 8, 16};
  } config;
  alignas(64) static uint16_t nans[16 * 32];
  std::fill(std::begin(nans), std::end(nans), uint16_t{0x7fc0});
  const int64_t stride = 64;
  asm volatile("ldtilecfg %0" : : "m"(config));
#define ACLCPU_TEST_FILL_TILE(n) asm volatile("tileloadd (%0,%1,1), %%tmm" #n : : "r"(nans), "r"(stride) : "memory")
  ACLCPU_TEST_FILL_TILE(0);
  ACLCPU_TEST_FILL_TILE(1);
  ACLCPU_TEST_FILL_TILE(2);
  ACLCPU_TEST_FILL_TILE(3);
  ACLCPU_TEST_FILL_TILE(4);
  ACLCPU_TEST_FILL_TILE(5);
  ACLCPU_TEST_FILL_TILE(6);
  ACLCPU_TEST_FILL_TILE(7);
#undef ACLCPU_TEST_FILL_TILE
}

TEST(UkernelGemm, AmxTilesAfterOtherCodeConfiguredOrReleasedThem) {
  int checked = 0;
  for (const UkernelUnderTest &ukernel : hostGemmUkernels()) {
    if (ukernel.name.find("_amx") == std::string::npos) continue;
    SCOPED_TRACE(ukernel.name);
    const Layout layout{false, false, 1, 3};
    auto run = [&](Mode mode, unsigned seed) { return checkProduct(ukernel, 70, 50, 90, layout, mode, seed); };
    ASSERT_TRUE(run(Mode::Accumulate, 1));    // loads the configuration (or finds it loaded)
    ASSERT_TRUE(run(Mode::UnitInPlace, 2));   // finds it loaded, its tiles holding the last sums
    loadForeignTiles();
    ASSERT_TRUE(run(Mode::UnitBetaZero, 3));  // finds another one, and NaN in the tiles
    asm volatile("tilerelease");
    ASSERT_TRUE(run(Mode::ScaledApart, 4));   // finds none
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no AMX ukernel on this CPU";
}

// bf16 rounding to nearest even, as generated code's truncf rounds (denormals kept, NaN quiet).
float roundedToBf16(float value) { return aclcpu_test::fromBf16(aclcpu_test::toBf16(value)); }

// The AVX2 low-precision ukernels round each f16 or f32 input to bf16 before its products: ties
// go to even (1 + 2^-8 down to 1, 1 + 3 x 2^-8 up to 1 + 2^-6), anything past a tie up, a
// denormal f32 stays one (not flushed), NaN stays NaN; over a product that packs both operands
// (9 rows) and one that reads B in place (3 rows), against double sums of rounded inputs.
TEST(UkernelGemm, LowPrecisionRoundsEachInputToBf16) {
  const auto &host = hostTarget().ukernels;
  int checked = 0;
  for (bool f16 : {false, true}) {
    const char *name = f16 ? "aclcpu_ukernel_gemm_f16f16f32_rounded_avx2" : "aclcpu_ukernel_gemm_f32f32f32_rounded_avx2";
    if (std::find(host.begin(), host.end(), name) == host.end()) continue;
    GemmF32Ukernel *ukernel = f16 ? aclcpu_ukernel_gemm_f16f16f32_rounded_avx2 : aclcpu_ukernel_gemm_f32f32f32_rounded_avx2;
    const Element element = f16 ? Element::F16 : Element::F32;
    // One value per row of A (depth 1, B all ones): C's rows are the rounded values.
    std::vector<float> special = {1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, 1.0f + 0x1p-8f + 0x1p-10f, -1.0f - 3 * 0x1p-8f,
                                  0.5f, 3.0f + 0x1p-7f, 1.0f - 0x1p-9f, 2.0f, 0.0f};
    if (!f16) special.push_back(0x1.8p-130f);  // an f32 denormal: bf16 keeps it (f16 has none this small)
    special.push_back(std::numeric_limits<float>::quiet_NaN());
    for (int64_t rows : {int64_t(3), int64_t(special.size())}) {
      const int64_t columns = 20;
      std::vector<uint16_t> words;
      std::vector<float> values(special.begin(), special.begin() + rows);
      std::vector<float> ones(size_t(columns), 1.0f), c(size_t(rows * columns), -7.0f);
      std::vector<uint16_t> oneWords(size_t(columns), wordOf(1.0f, Element::F16));
      for (float value : values) words.push_back(std::isnan(value) ? uint16_t{0x7e00} : wordOf(value, element));
      const void *a = f16 ? static_cast<const void *>(words.data()) : values.data();
      const void *b = f16 ? static_cast<const void *>(oneWords.data()) : ones.data();
      ukernel(a, 0, 1, 1, b, 0, columns, 1, c.data(), 0, columns, rows, columns, 1, nullptr, nullptr, nullptr, 0, 0, 1);
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < columns; ++j) {
          const float expected = -7.0f + roundedToBf16(values[size_t(i)]);
          const float got = c[size_t(i * columns + j)];
          if (std::isnan(expected)) EXPECT_TRUE(std::isnan(got)) << name << " row " << i;
          else EXPECT_EQ(got, expected) << name << " row " << i << " of " << rows << ": " << values[size_t(i)];
        }
      ++checked;
    }
    // A product of values with more significant bits than bf16 keeps (f32: random; f16: multiples
    // of 2^-10, which f16 holds exactly), packed and transposed as usual.
    const int64_t rows = 9, columns = 40, depth = 300;
    std::mt19937 generator(7);
    std::uniform_real_distribution<float> uniform(-2, 2);
    std::uniform_int_distribution<int> steps(-2047, 2047);
    std::vector<float> av(size_t(rows * depth)), bv(size_t(depth * columns));
    std::vector<uint16_t> aw, bw;
    for (std::vector<float> *values : {&av, &bv})
      for (float &x : *values) x = f16 ? steps(generator) / 1024.0f : uniform(generator);
    if (f16) {
      for (float x : av) aw.push_back(wordOf(x, Element::F16));
      for (float x : bv) bw.push_back(wordOf(x, Element::F16));
    }
    std::vector<float> c(size_t(rows * columns), 0.0f);
    ukernel(f16 ? static_cast<const void *>(aw.data()) : av.data(), 0, depth, 1,
            f16 ? static_cast<const void *>(bw.data()) : bv.data(), 0, columns, 1, c.data(), 0, columns, rows, columns,
            depth, nullptr, nullptr, nullptr, 0, 0, 1);
    EXPECT_TRUE(nearProduct(c, av, bv, rows, columns, depth, roundedToBf16)) << name;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no AVX2 low-precision ukernel on this CPU";
}

// The s8 x s8 -> s32 ukernels (VNNI or AVX2): the same layouts and modes, exact (wrapping)
// against 64-bit sums; the operands cover the whole s8 range, -128 and 127 included.
using S8Ukernel = GemmS8Ukernel;

// The s8 ukernel of that symbol name, or null if the library has none.
S8Ukernel *s8UkernelNamed(const std::string &name) {
  int count = 0;
  const UkernelSymbol *symbols = ukernelSymbols(count);
  for (int i = 0; i < count; ++i)
    if (name == symbols[i].name) return reinterpret_cast<S8Ukernel *>(symbols[i].address);
  return nullptr;
}

bool checkS8Product(const std::string &name, S8Ukernel *ukernel, int64_t rows, int64_t columns, int64_t depth,
                    Layout layout, Mode mode, unsigned seed) {
  const int64_t aRowStride = layout.transposedA ? 1 : depth + 3, aDepthStride = layout.transposedA ? rows + 5 : 1;
  const int64_t bDepthStride = layout.transposedB ? 1 : columns * layout.bColumnStride + 7;
  const int64_t bColumnStride = layout.transposedB ? depth + 2 : layout.bColumnStride;
  const int64_t aOffset = 3, bOffset = 5, cOffset = 2, cRowStride = columns + layout.cPadding;
  auto end = [](int64_t offset, int64_t outer, int64_t outerStride, int64_t inner, int64_t innerStride) {
    return size_t(offset + std::max<int64_t>(outer - 1, 0) * outerStride + std::max<int64_t>(inner - 1, 0) * innerStride + 1);
  };
  std::mt19937 generator(seed);
  std::uniform_int_distribution<int> byte(-128, 127), small(-1000, 1000);
  // Elements outside the matrices are large (-128): read by mistake they change sums.
  auto operand = [&](size_t size, const std::vector<bool> &read) {
    std::vector<int8_t> values(size);
    for (size_t i = 0; i < size; ++i) values[i] = static_cast<int8_t>(read[i] ? byte(generator) : -128);
    return values;
  };
  const size_t aSize = end(aOffset, rows, aRowStride, depth, aDepthStride);
  const size_t bSize = end(bOffset, depth, bDepthStride, columns, bColumnStride);
  const std::vector<int8_t> a = operand(aSize, covered(aSize, aOffset, rows, aRowStride, depth, aDepthStride));
  const std::vector<int8_t> b = operand(bSize, covered(bSize, bOffset, depth, bDepthStride, columns, bColumnStride));
  std::vector<int32_t> c(size_t(cOffset + rows * cRowStride + 8)), cIn(c.size());
  for (int32_t &value : c) value = small(generator);
  const bool unit = mode == Mode::UnitBetaZero || mode == Mode::UnitInPlace || mode == Mode::UnitRowBias ||
                    mode == Mode::UnitColumnBias;
  const bool betaZero = mode == Mode::ScaledBetaZero || mode == Mode::UnitBetaZero;
  const bool inPlace = mode == Mode::ScaledInPlace || mode == Mode::UnitInPlace;
  for (int32_t &value : cIn) value = betaZero ? INT32_MIN : small(generator);
  const std::vector<int32_t> before = c;
  const int32_t alpha = unit ? 1 : 3, beta = betaZero ? 0 : unit ? 1 : -2;
  const auto [cInRowStride, cInColumnStride] = cInStrides(mode, cRowStride);
  const bool scaled = mode != Mode::Accumulate;
  const int32_t *cInData = inPlace ? c.data() + cOffset : cIn.data() + 1;
  ukernel(a.data(), aOffset, aRowStride, aDepthStride, b.data(), bOffset, bDepthStride, bColumnStride, c.data(), cOffset,
          cRowStride, rows, columns, depth, scaled ? &alpha : nullptr, scaled ? &beta : nullptr,
          scaled ? cInData : nullptr, 0, cInRowStride, cInColumnStride);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < columns; ++j) {
      int64_t product = 0;
      for (int64_t k = 0; k < depth; ++k)
        product += int64_t{a[size_t(aOffset + i * aRowStride + k * aDepthStride)]} *
                   b[size_t(bOffset + j * bColumnStride + k * bDepthStride)];
      const size_t at = size_t(cOffset + i * cRowStride + j);
      const int64_t inValue = inPlace ? before[at] : cInData[i * cInRowStride + j * cInColumnStride];
      const int64_t wide = !scaled ? before[at] + product : alpha * product + (beta != 0 ? beta * inValue : 0);
      const auto expected = static_cast<int32_t>(static_cast<uint32_t>(wide));
      if (c[at] != expected) {
        ADD_FAILURE() << name << " " << rows << "x" << columns << "x" << depth << " ta " << layout.transposedA
                      << " tb " << layout.transposedB << " mode " << int(mode) << ": C[" << i << "][" << j
                      << "] = " << c[at] << ", expected " << expected;
        return false;
      }
    }
  for (size_t at = 0; at < c.size(); ++at) {
    const int64_t offset = int64_t(at) - cOffset;
    const bool inside = offset >= 0 && offset < rows * cRowStride && offset % cRowStride < columns;
    if (!inside && c[at] != before[at]) {
      ADD_FAILURE() << name << " " << rows << "x" << columns << "x" << depth << " wrote outside C at " << at;
      return false;
    }
  }
  return true;
}

// AMX's low-precision ukernels round each f16 or f32 input to bf16 as they pack it (to nearest
// even), and the exact f16 one splits it into two bf16 (hi + lo): in both of each operand's
// layouts, one depth chunk or two, bands whole and padded, against double sums of the rounded
// (or exact) inputs. The f16 values have 11 significant bits, so lo is rarely zero. Fewer rows
// than fewestRows go to the vector ukernels (the rounding ones take 5 rows on, exact f16 64):
// 80 rows end in a padded band of 16, for exact f16 too. 520 columns: a panel wide enough that
// each band's tiles pack the next band's A (NextBandOfA), the next panel's first band included.
// An odd depth leaves B's last pair of rows half zeros.
TEST(UkernelGemm, AmxRoundsOrSplitsEachInputToBf16) {
  const auto &host = hostTarget().ukernels;
  int checked = 0;
  std::mt19937 generator(12);
  const struct {
    const char *name;
    GemmF32Ukernel *ukernel;
    bool f16, rounds;
  } kinds[] = {{"aclcpu_ukernel_gemm_f32f32f32_rounded_amx", aclcpu_ukernel_gemm_f32f32f32_rounded_amx, false, true},
               {"aclcpu_ukernel_gemm_f16f16f32_rounded_amx", aclcpu_ukernel_gemm_f16f16f32_rounded_amx, true, true},
               {"aclcpu_ukernel_gemm_f16f16f32_amx", aclcpu_ukernel_gemm_f16f16f32_amx, true, false}};
  for (const auto &kind : kinds) {
    const char *name = kind.name;
    const bool f16 = kind.f16;
    if (std::find(host.begin(), host.end(), name) == host.end()) continue;
    GemmF32Ukernel *ukernel = kind.ukernel;
    auto input = [&](float x) { return kind.rounds ? roundedToBf16(x) : x; };
    // f16: 11 significant bits, 3 more than bf16 keeps; f32: all 24.
    std::uniform_int_distribution<int> steps(-2048, 2048);
    std::uniform_real_distribution<float> reals(-2.0f, 2.0f);
    auto value = [&] { return f16 ? steps(generator) / 1024.0f : reals(generator); };
    for (auto [rows, columns, depth] : {std::tuple<int64_t, int64_t, int64_t>{16, 40, 70}, {33, 100, 1100},
                                        {64, 64, 64}, {7, 20, 30}, {80, 100, 1100}, {80, 520, 600},
                                        {20, 33, 31}})
      for (bool transposed : {false, true}) {
        SCOPED_TRACE(std::string(name) + " " + std::to_string(rows) + "x" + std::to_string(columns) + "x" +
                     std::to_string(depth) + (transposed ? " transposed" : ""));
        std::vector<float> a(size_t(rows * depth)), b(size_t(depth * columns));
        for (float &x : a) x = value();
        for (float &x : b) x = value();
        std::vector<uint16_t> aWords(a.size()), bWords(b.size());
        for (size_t i = 0; i < a.size(); ++i) aWords[i] = wordOf(a[i], Element::F16);
        for (size_t i = 0; i < b.size(); ++i) bWords[i] = wordOf(b[i], Element::F16);
        // A (rows x depth) row-major or stored transposed; B (depth x columns) likewise.
        const int64_t aRowStride = transposed ? 1 : depth, aDepthStride = transposed ? rows : 1;
        const int64_t bDepthStride = transposed ? 1 : columns, bColumnStride = transposed ? depth : 1;
        std::vector<float> aStored(a.size()), bStored(b.size());
        std::vector<uint16_t> aStoredWords(a.size()), bStoredWords(b.size());
        for (int64_t i = 0; i < rows; ++i)
          for (int64_t k = 0; k < depth; ++k) {
            aStored[size_t(i * aRowStride + k * aDepthStride)] = a[size_t(i * depth + k)];
            aStoredWords[size_t(i * aRowStride + k * aDepthStride)] = aWords[size_t(i * depth + k)];
          }
        for (int64_t k = 0; k < depth; ++k)
          for (int64_t j = 0; j < columns; ++j) {
            bStored[size_t(k * bDepthStride + j * bColumnStride)] = b[size_t(k * columns + j)];
            bStoredWords[size_t(k * bDepthStride + j * bColumnStride)] = bWords[size_t(k * columns + j)];
          }
        std::vector<float> c(size_t(rows * columns), -1.0f);
        const float one = 1, zero = 0;
        const void *aData = f16 ? static_cast<const void *>(aStoredWords.data()) : aStored.data();
        const void *bData = f16 ? static_cast<const void *>(bStoredWords.data()) : bStored.data();
        ukernel(aData, 0, aRowStride, aDepthStride, bData, 0, bDepthStride, bColumnStride, c.data(), 0, columns, rows,
                columns, depth, &one, &zero, c.data(), 0, columns, 1);
        ASSERT_TRUE(nearProduct(c, a, b, rows, columns, depth, input));
        ++checked;
      }
  }
  if (checked == 0) GTEST_SKIP() << "no AMX-BF16 ukernel on this CPU";
}

// An odd depth leaves the second row of B's last pairs to padding, which must hold zeros: whatever
// else (B's last row again, say) meets A's zero padding there, and an infinity in it would turn the
// infinite sums of its column into NaN (inf x 0). A of ones, B of halves but one infinity in its last
// row, in both rounding kinds.
TEST(UkernelGemm, AmxRoundedPaddingMultipliesNoInfinity) {
  const auto &host = hostTarget().ukernels;
  int checked = 0;
  const int64_t rows = 20, columns = 33, depth = 31, infiniteColumn = 5;
  for (bool f16 : {true, false}) {
    const char *name = f16 ? "aclcpu_ukernel_gemm_f16f16f32_rounded_amx" : "aclcpu_ukernel_gemm_f32f32f32_rounded_amx";
    if (std::find(host.begin(), host.end(), name) == host.end()) continue;
    SCOPED_TRACE(name);
    std::vector<float> a(size_t(rows * depth), 1.0f), b(size_t(depth * columns), 0.5f);
    b[size_t((depth - 1) * columns + infiniteColumn)] = std::numeric_limits<float>::infinity();
    std::vector<uint16_t> aWords(a.size(), wordOf(1.0f, Element::F16)), bWords(b.size(), wordOf(0.5f, Element::F16));
    bWords[size_t((depth - 1) * columns + infiniteColumn)] = 0x7c00;
    std::vector<float> c(size_t(rows * columns), -1.0f);
    const float one = 1, zero = 0;
    (f16 ? aclcpu_ukernel_gemm_f16f16f32_rounded_amx : aclcpu_ukernel_gemm_f32f32f32_rounded_amx)(
        f16 ? static_cast<const void *>(aWords.data()) : a.data(), 0, depth, 1,
        f16 ? static_cast<const void *>(bWords.data()) : b.data(), 0, columns, 1, c.data(), 0, columns, rows, columns,
        depth, &one, &zero, c.data(), 0, columns, 1);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < columns; ++j)
        ASSERT_EQ(c[size_t(i * columns + j)],
                  j == infiniteColumn ? std::numeric_limits<float>::infinity() : 0.5f * float(depth))
            << i << ", " << j;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "no AMX-BF16 ukernel on this CPU";
}

// Products with an f16 infinity are infinite, or NaN against a zero, as in f32 (a split infinity
// would meet the other operand's zero lo: inf x 0 = NaN, so such operands take the widening
// ukernel); NaN stays NaN, through the split too (no infinity). 64 rows: the tiles' fewest.
TEST(UkernelGemm, AmxSplitF16KeepsInfinitiesAndNaN) {
  const auto &host = hostTarget().ukernels;
  if (std::find(host.begin(), host.end(), "aclcpu_ukernel_gemm_f16f16f32_amx") == host.end())
    GTEST_SKIP() << "no AMX-BF16 ukernel on this CPU";
  const int64_t rows = 64, columns = 32, depth = 40;
  for (bool infinities : {true, false}) {
    for (bool transposed : {false, true}) {  // each operand's vector path, and the element-wise one
      std::vector<uint16_t> a(size_t(rows * depth), 0x3c00), b(size_t(depth * columns), 0x3800);  // 1, 0.5
      if (infinities) {
        a[size_t(3 * depth + 5)] = 0x7c00;  // A[3][5] = inf
        a[size_t(4 * depth + 6)] = 0xfc00;  // A[4][6] = -inf
      }
      a[size_t(5 * depth + 7)] = 0x7e00;  // A[5][7] = NaN
      for (int64_t j = 0; j < columns; ++j) b[size_t(6 * columns + j)] = j == 9 ? 0 : 0x3800;  // B[6][9] = 0
      std::vector<uint16_t> aStored = a;
      const int64_t aRowStride = transposed ? 1 : depth, aDepthStride = transposed ? rows : 1;
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t k = 0; k < depth; ++k)
          aStored[size_t(i * aRowStride + k * aDepthStride)] = a[size_t(i * depth + k)];
      std::vector<float> c(size_t(rows * columns));
      const float one = 1, zero = 0;
      aclcpu_ukernel_gemm_f16f16f32_amx(aStored.data(), 0, aRowStride, aDepthStride, b.data(), 0, columns, 1, c.data(),
                                        0, columns, rows, columns, depth, &one, &zero, c.data(), 0, columns, 1);
      for (int64_t j = 0; j < columns; ++j) {
        if (!infinities) {
          EXPECT_EQ(c[size_t(3 * columns + j)], j == 9 ? 19.5f : 20.0f) << j;
        } else {
          EXPECT_EQ(c[size_t(3 * columns + j)], std::numeric_limits<float>::infinity()) << j;
          if (j == 9) EXPECT_TRUE(std::isnan(c[size_t(4 * columns + j)]));  // -inf x 0
          else EXPECT_EQ(c[size_t(4 * columns + j)], -std::numeric_limits<float>::infinity()) << j;
        }
        EXPECT_TRUE(std::isnan(c[size_t(5 * columns + j)])) << j;
        EXPECT_EQ(c[size_t(6 * columns + j)], j == 9 ? 19.5f : 20.0f) << j;  // 40 (39) x 1 x 0.5
      }
    }
  }
}

// Up to four bands of rows over a B larger than L2 take AMX's few-band blocking (wide, shallow
// chunks, each packed once for every band): 70 rows end in a padded band; C through the tiles
// (C = P) and through the epilogue (scaled). The other ukernels check their own paths here.
TEST(UkernelGemm, SeveralBandsOverABLargerThanL2) {
  const int64_t rows = 70, columns = 1000, depth = testedL2Bytes() / columns + 66;  // 8-bit B: > L2
  const Layout rowMajor{false, false, 1, 0};
  unsigned seed = 11;
  int checked = 0;
  for (const auto &ukernel : hostGemmUkernels())
    if (ukernel.name.find("_amx") != std::string::npos)
      for (Mode mode : {Mode::UnitBetaZero, Mode::ScaledApart}) {
        ASSERT_TRUE(checkProduct(ukernel, rows, columns, depth, rowMajor, mode, seed++)) << ukernel.name;
        ++checked;
      }
  const auto &host = hostTarget().ukernels;
  const char *s8Tiles = "aclcpu_ukernel_gemm_s8s8s32_amx";
  if (std::find(host.begin(), host.end(), s8Tiles) != host.end()) {
    S8Ukernel *ukernel = s8UkernelNamed(s8Tiles);
    ASSERT_NE(ukernel, nullptr) << s8Tiles;
    for (Mode mode : {Mode::UnitBetaZero, Mode::ScaledApart}) {
      ASSERT_TRUE(checkS8Product(s8Tiles, ukernel, rows, columns, depth, rowMajor, mode, seed++));
      ++checked;
    }
  }
  if (checked == 0) GTEST_SKIP() << "no AMX ukernel on this CPU";
}

TEST(UkernelGemm, S8MatchesPlainLoopsOverLayoutsModesAndShapes) {
  const auto &host = hostTarget().ukernels;
  int checked = 0;
  unsigned seed = 1;
  for (const char *name :
       {"aclcpu_ukernel_gemm_s8s8s32_vnni", "aclcpu_ukernel_gemm_s8s8s32_amx", "aclcpu_ukernel_gemm_s8s8s32_avx2"}) {
    if (std::find(host.begin(), host.end(), name) == host.end()) continue;
    S8Ukernel *ukernel = s8UkernelNamed(name);
    ASSERT_NE(ukernel, nullptr) << name;
    struct Shape {
      int64_t rows, columns, depth;
    } shapes[] = {{1, 1, 1}, {3, 17, 5}, {4, 100, 300}, {2, 9, 0}, {5, 33, 257}, {6, 16, 8}, {7, 15, 31},
                  {13, 40, 9}, {64, 64, 64}, {170, 50, 1025}, {20, 4100, 3}, {40, 150, 1100}, {48, 1030, 70},
                  {32, 32, 2100}, {16, 100, 600}};
    const Layout layouts[] = {{false, false, 1, 0}, {true, false, 1, 3}, {false, true, 1, 1},
                              {true, true, 1, 0},   {false, false, 2, 5}};
    for (const Shape &shape : shapes)
      for (const Layout &layout : layouts)
        for (Mode mode : {Mode::Accumulate, Mode::ScaledApart, Mode::ScaledInPlace, Mode::ScaledBetaZero,
                          Mode::UnitBetaZero, Mode::UnitInPlace, Mode::ScaledRowBias, Mode::UnitRowBias,
                          Mode::UnitColumnBias}) {
          ASSERT_TRUE(checkS8Product(name, ukernel, shape.rows, shape.columns, shape.depth, layout, mode, seed++));
          ++checked;
        }
  }
  if (checked == 0) GTEST_SKIP() << "no s8 GEMM ukernel on this CPU";
  printf("%d s8 products checked\n", checked);
}

}  // namespace
