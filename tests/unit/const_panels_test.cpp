// Constant operands' packed panels (kernels/ukernels/const_panels.h), through the f32-accumulating
// GEMM ukernels called directly: a registered B is packed once and its panels read again by
// later calls, whatever path the call takes (panels packed just in time for one band of rows,
// or ahead for several), with the same results as an unregistered B; an unregistered operand
// keeps nothing.
#include "op_compiler.h"

#include "../../kernels/ukernels/const_panels.h"
#include "../../kernels/ukernels/ukernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace aclcpu;

namespace {

bool hostHas(const std::string &symbol) {
  const auto &ukernels = hostTarget().ukernels;
  return std::find(ukernels.begin(), ukernels.end(), symbol) != ukernels.end();
}

std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> value(-1, 1);
  std::vector<float> out(n);
  for (float &x : out) x = value(generator);
  return out;
}

// C = A (rows x depth) B (depth x columns), both row-major, by an f32 ukernel in scaled mode.
std::vector<float> multiply(GemmF32Ukernel *ukernel, const std::vector<float> &a, const float *b, int64_t rows,
                            int64_t columns, int64_t depth) {
  std::vector<float> c(size_t(rows * columns), -1.0f);
  const float one = 1, zero = 0;
  ukernel(a.data(), 0, depth, 1, b, 0, columns, 1, c.data(), 0, columns, rows, columns, depth, &one, &zero, c.data(),
          0, columns, 1);
  return c;
}

void expectProduct(const std::vector<float> &c, const std::vector<float> &a, const std::vector<float> &b,
                   int64_t rows, int64_t columns, int64_t depth) {
  for (int64_t i = 0; i < rows; i += 7)
    for (int64_t j = 0; j < columns; j += 5) {
      double sum = 0;
      for (int64_t k = 0; k < depth; ++k) sum += double(a[i * depth + k]) * b[k * columns + j];
      ASSERT_NEAR(c[i * columns + j], sum, 1e-4 * std::sqrt(double(depth))) << i << "," << j;
    }
}

// The f32 ukernel of this host (AVX-512 or AVX2), or null.
GemmF32Ukernel *hostF32Ukernel() {
  if (hostHas("aclcpu_ukernel_gemm_f32f32f32")) return aclcpu_ukernel_gemm_f32f32f32;
  if (hostHas("aclcpu_ukernel_gemm_f32f32f32_avx2")) return aclcpu_ukernel_gemm_f32f32f32_avx2;
  return nullptr;
}

TEST(ConstPanels, AConstantBIsPackedOnceAndItsPanelsReused) {
  GemmF32Ukernel *ukernel = hostF32Ukernel();
  if (!ukernel) GTEST_SKIP() << "no f32 ukernel on this CPU";
  // (The paths below are the AVX-512 file's. The AVX2 one's: up to 4 rows read B in place,
  // registered or not, and keep nothing; the rest pack B, in bands of 168 rows, depth chunks of
  // at most 256 all alike: the same bits on every path.)
  const bool avx2 = ukernel == aclcpu_ukernel_gemm_f32f32f32_avx2;
  // One band (panels just in time; B unregistered, 16, 20 and 40 rows take the streamed path and 1
  // to 4 fewRows, which must give the same bits, its last steps of a depth chunk (700 deep: chunks
  // of 352 and 348) a row of B at a time; registered, 1 to 4 read the panels side by side)
  // and three (panels ahead; 300 x 520 x 1024's rows of A lie 4 KiB apart and are packed, not read in
  // place). Streamed tiles of 8 rows (16) transpose their rows of A, 16 steps at a time, and gather
  // the rest; of 10 (20, 40) gather them all. 700 deep gives ragged depth chunks; 520 columns end in
  // a ragged micro-panel; 40 x 1700 streams in two panels of columns (its sums exceed one panel's),
  // the second ragged. Unregistered, 60 rows pack each chunk's micro-panels of B during the tiles of
  // the chunk before; 60 x 288 x 16385 ends each panel of columns in a chunk one deep, whose tiles
  // have one step each for their share of the next panel's first chunk (the rest packed after them).
  for (auto [rows, columns, depth] :
       {std::tuple<int64_t, int64_t, int64_t>{1, 520, 700}, {2, 520, 700}, {3, 520, 700}, {4, 520, 700},
        {16, 520, 700}, {20, 520, 700}, {40, 520, 700}, {60, 520, 700}, {300, 520, 700}, {300, 520, 1024},
        {40, 1700, 700}, {60, 288, 16385}}) {
    SCOPED_TRACE(rows);
    SCOPED_TRACE(columns);
    SCOPED_TRACE(depth);
    std::vector<float> b = randomFloats(size_t(depth * columns), 1);
    std::vector<float> a = randomFloats(size_t(rows * depth), unsigned(rows));
    std::vector<float> plain = multiply(ukernel, a, b.data(), rows, columns, depth);
    expectProduct(plain, a, b, rows, columns, depth);
    ConstPanelCounts before = constPanelCounts();
    EXPECT_EQ(multiply(ukernel, a, b.data(), rows, columns, depth), plain);
    EXPECT_EQ(constPanelCounts().filled, before.filled) << "an unregistered B keeps nothing";
    ConstOperand constant(b.data(), int64_t(b.size() * sizeof(float)));
    EXPECT_EQ(multiply(ukernel, a, b.data(), rows, columns, depth), plain);
    ConstPanelCounts first = constPanelCounts();
    if (avx2 && rows <= 4)
      EXPECT_EQ(first.filled, before.filled) << "B read in place";
    else
      EXPECT_GT(first.filled, before.filled);
    for (int call = 0; call < 2; ++call) EXPECT_EQ(multiply(ukernel, a, b.data(), rows, columns, depth), plain);
    ConstPanelCounts later = constPanelCounts();
    EXPECT_EQ(later.filled, first.filled) << "nothing packed twice";
    EXPECT_GE(later.reused - first.reused, 2 * (first.filled - before.filled));
  }
}

// bf16 pairs (vdpbf16ps), f16 widened to f32 and f16 rounded to bf16 pairs (low precision)
// keep their own panels, as the same product. (bf16 pairs of 16 and 20 rows take the streamed
// path when B is not registered: the same bits again, two tiles whose first keeps its pairs for
// the second, and 16's rows of A transposed into pairs; 60 rows pack B's next chunk during the
// tiles, pairs or widened; AMX takes all four, 16 and 20 rows as a band padded with zeros.)
// One registered f16 B read both widened and as rounded pairs keeps
// both kinds of panel apart.
struct SixteenBitUkernel {
  const char *symbol;
  GemmF32Ukernel *ukernel;
  bool bf16;  // the operands' type: bf16, or f16
};
const SixteenBitUkernel kSixteenBitUkernels[] = {
    {"aclcpu_ukernel_gemm_bf16bf16f32_dpbf16", aclcpu_ukernel_gemm_bf16bf16f32_dpbf16, true},
    {"aclcpu_ukernel_gemm_bf16bf16f32_amx", aclcpu_ukernel_gemm_bf16bf16f32_amx, true},
    {"aclcpu_ukernel_gemm_f16f16f32", aclcpu_ukernel_gemm_f16f16f32, false},
    {"aclcpu_ukernel_gemm_f16f16f32_dpbf16", aclcpu_ukernel_gemm_f16f16f32_dpbf16, false}};

// Values of magnitude 1/4 to 2: sign, exponent near the bias, random mantissa.
std::vector<uint16_t> sixteenBitValues(int64_t n, bool bf16, std::mt19937 &generator) {
  std::vector<uint16_t> out(static_cast<size_t>(n));
  for (uint16_t &bits : out) {
    const uint32_t random = generator();
    bits = bf16 ? uint16_t((random & 0x8000) | ((125 + random % 3) << 7) | (random >> 16 & 0x7f))
                : uint16_t((random & 0x8000) | ((13 + random % 3) << 10) | (random >> 16 & 0x3ff));
  }
  return out;
}

std::vector<float> runSixteenBit(GemmF32Ukernel *ukernel, const std::vector<uint16_t> &a, const std::vector<uint16_t> &b,
                                 int64_t rows, int64_t columns, int64_t depth) {
  std::vector<float> c(size_t(rows * columns));
  const float one = 1, zero = 0;
  ukernel(a.data(), 0, depth, 1, b.data(), 0, columns, 1, c.data(), 0, columns, rows, columns, depth, &one, &zero,
          c.data(), 0, columns, 1);
  return c;
}

TEST(ConstPanels, SixteenBitOperandsKeepTheirPanels) {
  const int64_t columns = 300, depth = 530;
  for (int64_t rows : {16, 20, 40, 60}) {
    for (const SixteenBitUkernel &kind : kSixteenBitUkernels) {
      SCOPED_TRACE(kind.symbol);
      SCOPED_TRACE(rows);
      if (!hostHas(kind.symbol)) continue;
      std::mt19937 generator(5);
      std::vector<uint16_t> a16 = sixteenBitValues(rows * depth, kind.bf16, generator);
      std::vector<uint16_t> b16 = sixteenBitValues(depth * columns, kind.bf16, generator);
      auto run = [&] { return runSixteenBit(kind.ukernel, a16, b16, rows, columns, depth); };
      std::vector<float> plain = run();
      ConstOperand constant(b16.data(), int64_t(b16.size() * 2));
      ConstPanelCounts before = constPanelCounts();
      EXPECT_EQ(run(), plain);
      ConstPanelCounts first = constPanelCounts();
      EXPECT_GT(first.filled, before.filled);
      EXPECT_EQ(run(), plain);
      EXPECT_EQ(constPanelCounts().filled, first.filled);
      EXPECT_GT(constPanelCounts().reused, first.reused);
    }
  }
}

TEST(ConstPanels, WidenedAndRoundedF16KeepApartPanels) {
  if (!hostHas("aclcpu_ukernel_gemm_f16f16f32_dpbf16")) GTEST_SKIP() << "no AVX512-BF16 ukernel on this CPU";
  const int64_t rows = 60, columns = 300, depth = 530;
  std::mt19937 generator(6);
  std::vector<uint16_t> a16 = sixteenBitValues(rows * depth, false, generator);
  std::vector<uint16_t> b16 = sixteenBitValues(depth * columns, false, generator);
  auto widened = [&] { return runSixteenBit(aclcpu_ukernel_gemm_f16f16f32, a16, b16, rows, columns, depth); };
  auto rounded = [&] { return runSixteenBit(aclcpu_ukernel_gemm_f16f16f32_dpbf16, a16, b16, rows, columns, depth); };
  const std::vector<float> plainWidened = widened(), plainRounded = rounded();
  EXPECT_NE(plainWidened, plainRounded);
  ConstOperand constant(b16.data(), int64_t(b16.size() * 2));
  EXPECT_EQ(widened(), plainWidened);
  ConstPanelCounts afterWidened = constPanelCounts();
  EXPECT_EQ(rounded(), plainRounded);
  EXPECT_GT(constPanelCounts().filled, afterWidened.filled);
  EXPECT_EQ(widened(), plainWidened);
  EXPECT_EQ(rounded(), plainRounded);
}

// A constant bf16 B of a few rows is read from its pair panels (vdpbf16ps) too, where a B not
// registered is widened row by row (fewRows): both within f32 rounding of the exact product,
// the panels packed in the first call and read again in the next.
TEST(ConstPanels, FewRowsReadAConstantBf16BFromItsPairPanels) {
  if (!hostHas("aclcpu_ukernel_gemm_bf16bf16f32_dpbf16")) GTEST_SKIP() << "no AVX512-BF16 ukernel on this CPU";
  const int64_t columns = 300, depth = 530;
  std::mt19937 generator(9);
  auto values = [&](int64_t n) {  // magnitudes 1/4 to 2, random mantissas
    std::vector<uint16_t> out(static_cast<size_t>(n));
    for (uint16_t &bits : out) {
      const uint32_t random = generator();
      bits = uint16_t((random & 0x8000) | ((125 + random % 3) << 7) | (random >> 16 & 0x7f));
    }
    return out;
  };
  auto widen = [](uint16_t bits) {
    const uint32_t word = uint32_t{bits} << 16;
    float x;
    std::memcpy(&x, &word, sizeof(x));
    return double(x);
  };
  for (int64_t rows : {1, 3}) {
    SCOPED_TRACE(rows);
    std::vector<uint16_t> a = values(rows * depth), b = values(depth * columns);
    auto run = [&] {
      std::vector<float> c(size_t(rows * columns));
      const float one = 1, zero = 0;
      aclcpu_ukernel_gemm_bf16bf16f32_dpbf16(a.data(), 0, depth, 1, b.data(), 0, columns, 1, c.data(), 0, columns,
                                             rows, columns, depth, &one, &zero, c.data(), 0, columns, 1);
      return c;
    };
    auto expectExact = [&](const std::vector<float> &c) {
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < columns; ++j) {
          double sum = 0, magnitude = 0;
          for (int64_t k = 0; k < depth; ++k) {
            const double term = widen(a[size_t(i * depth + k)]) * widen(b[size_t(k * columns + j)]);
            sum += term;
            magnitude += std::fabs(term);
          }
          ASSERT_NEAR(c[size_t(i * columns + j)], sum, magnitude * depth * 0x1p-24) << i << "," << j;
        }
    };
    expectExact(run());
    ConstOperand constant(b.data(), int64_t(b.size() * 2));
    ConstPanelCounts before = constPanelCounts();
    expectExact(run());
    ConstPanelCounts first = constPanelCounts();
    EXPECT_GT(first.filled, before.filled) << "the few rows did not read the kept panels";
    expectExact(run());
    EXPECT_EQ(constPanelCounts().filled, first.filled);
    EXPECT_GT(constPanelCounts().reused, first.reused);
  }
}

}  // namespace

// One constant f32 B read exact and in low precision (AVX2: the rounding tiles) keeps two kinds
// of panel: each call gives the bits it gives with B unregistered.
TEST(ConstPanels, ExactAndRoundedAvx2KeepApartPanels) {
  if (!hostHas("aclcpu_ukernel_gemm_f32f32f32_rounded_avx2")) GTEST_SKIP() << "no AVX2 low-precision ukernel";
  const int64_t rows = 20, columns = 100, depth = 300;  // past the small products that read B in place
  std::vector<float> b = randomFloats(size_t(depth * columns), 11), a = randomFloats(size_t(rows * depth), 12);
  const std::vector<float> exact = multiply(aclcpu_ukernel_gemm_f32f32f32_avx2, a, b.data(), rows, columns, depth);
  const std::vector<float> rounded =
      multiply(aclcpu_ukernel_gemm_f32f32f32_rounded_avx2, a, b.data(), rows, columns, depth);
  ASSERT_NE(exact, rounded) << "random inputs lose bits to bf16";
  ConstOperand constant(b.data(), int64_t(b.size() * sizeof(float)));
  for (int call = 0; call < 2; ++call) {
    EXPECT_EQ(multiply(aclcpu_ukernel_gemm_f32f32f32_avx2, a, b.data(), rows, columns, depth), exact);
    EXPECT_EQ(multiply(aclcpu_ukernel_gemm_f32f32f32_rounded_avx2, a, b.data(), rows, columns, depth), rounded);
  }
}
