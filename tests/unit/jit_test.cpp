// JIT-compiles aclop ops for several shapes and dtypes, runs them through the runtime's block
// dispatcher, and compares with plain-loop references written independently of the lowering.
#include "kernel_launch.h"
#include "op_compiler.h"

#include "acl/acl_base.h"
#include "../common/host_tensor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <unistd.h>

using namespace aclcpu;
using namespace aclcpu_test;
using namespace std::chrono_literals;

namespace {

// ---- the JIT's element types on the shared host tensors ------------------------------------

aclDataType aclType(ElementType type) { return toAclDataType(type); }

ElementType elementType(aclDataType type) {
  ElementType element = ElementType::F32;
  toElementType(type, element);
  return element;
}

struct Tensor : HostTensor {
  Tensor(ElementType t, std::vector<int64_t> s) : HostTensor(aclType(t), std::move(s)) {}
  Tensor(HostTensor host) : HostTensor(std::move(host)) {}
};

Tensor randomTensor(ElementType type, std::vector<int64_t> shape, unsigned seed, double lo = -2, double hi = 2) {
  return aclcpu_test::randomTensor(aclType(type), std::move(shape), seed, lo, hi);
}
bool isFloat(ElementType t) { return isFloatType(aclType(t)); }
double roundTo(ElementType type, double value) { return aclcpu_test::roundTo(aclType(type), value); }

// ---- running kernels ----------------------------------------------------------------------

class JitTest : public ::testing::Test {
 protected:
  static inline WorkerPool *pool = nullptr;
  static void SetUpTestSuite() { pool = new WorkerPool(2, 20us, false); }
  static void TearDownTestSuite() {
    delete pool;
    pool = nullptr;
  }

  // Compiles `op` with the inputs' shapes (or `compileShapes`, to make dims dynamic), runs it
  // and returns the outputs (whose concrete shapes the caller gives).
  std::vector<Tensor> run(const std::string &op, std::vector<Tensor> inputs, std::vector<Tensor> outputs,
                          std::vector<std::pair<std::string, AttributeValue>> attributes = {},
                          std::vector<std::vector<int64_t>> compileShapes = {}, CompileOptions options = {}) {
    OpSpec spec{op, {}, std::move(attributes)};
    for (size_t i = 0; i < inputs.size(); ++i)
      spec.inputs.push_back({elementType(inputs[i].type), compileShapes.empty() ? inputs[i].shape : compileShapes[i]});
    std::string error;
    auto kernel = compileOp(spec, options, error);
    EXPECT_TRUE(kernel) << error;
    if (!kernel) return outputs;
    EXPECT_EQ(kernel->outputs.size(), outputs.size());
    std::vector<void *> pointers;
    std::vector<int64_t> dynamicSizes;
    auto addTensor = [&](Tensor &t, const TensorSpec &compiled) {
      pointers.push_back(t.bytes.data());
      for (size_t d = 0; d < compiled.shape.size(); ++d)
        if (compiled.shape[d] < 0) dynamicSizes.push_back(t.shape[d]);
    };
    for (size_t i = 0; i < inputs.size(); ++i) addTensor(inputs[i], spec.inputs[i]);
    for (size_t i = 0; i < outputs.size(); ++i) {
      EXPECT_EQ(kernel->outputs[i].type, elementType(outputs[i].type));
      EXPECT_EQ(kernel->outputs[i].shape.size(), outputs[i].shape.size());
      addTensor(outputs[i], kernel->outputs[i]);
    }
    std::vector<uint8_t> args(8 * (pointers.size() + dynamicSizes.size()));
    memcpy(args.data(), pointers.data(), 8 * pointers.size());
    if (!dynamicSizes.empty()) memcpy(args.data() + 8 * pointers.size(), dynamicSizes.data(), 8 * dynamicSizes.size());
    uint32_t blocks = kernel->launch.partitioned ? 5 : 1, faultBlock = 0;
    EXPECT_EQ(runBlocks(*pool, kernel->entry, args.data(), blocks, 0, faultBlock), 0);
    return outputs;
  }

  void expectClose(const Tensor &actual, const std::function<double(int64_t)> &expected, const std::string &what) {
    double tol = relativeTolerance(actual.type);
    for (int64_t i = 0; i < actual.count(); ++i) {
      double want = aclcpu_test::roundTo(actual.type, expected(i)), got = actual.at(i);
      if (std::isnan(want)) {
        ASSERT_TRUE(std::isnan(got)) << what << " element " << i;
        continue;
      }
      ASSERT_NEAR(got, want, tol * std::max(1.0, std::fabs(want))) << what << " element " << i;
    }
  }

  // reduce_sum and reduce_max of a rows x columns `x` of `type` over axis 0, compiled for
  // `compiled` (dims of -1 known at launch) with `options`, against loops over the rows.
  void expectColumnSumAndMax(ElementType type, const Tensor &x, std::vector<int64_t> compiled,
                             CompileOptions options) {
    const int64_t rows = x.shape[0], columns = x.shape[1];
    const std::vector<std::pair<std::string, AttributeValue>> axis0 = {{"axes", std::vector<int64_t>{0}}};
    auto sum = run("reduce_sum", {x}, {Tensor(type, {columns})}, axis0, {compiled}, options);
    expectClose(sum[0], [&](int64_t c) {
      double s = 0;
      for (int64_t r = 0; r < rows; ++r) s += x.at(r * columns + c);
      return s;
    }, "sum");
    auto max = run("reduce_max", {x}, {Tensor(type, {columns})}, axis0, {compiled}, options);
    expectClose(max[0], [&](int64_t c) {
      double m = -1e300;
      for (int64_t r = 0; r < rows; ++r) m = std::max(m, x.at(r * columns + c));
      return m;
    }, "max");
  }
};

const ElementType kFloatTypes[] = {ElementType::F32, ElementType::F16, ElementType::BF16};

// ---- element-wise -------------------------------------------------------------------------

TEST_F(JitTest, BinaryOpsWithBroadcastingOverShapesAndTypes) {
  struct Case {
    std::vector<int64_t> lhs, rhs, out;
  };
  const Case cases[] = {{{7}, {7}, {7}}, {{33, 1}, {1, 17}, {33, 17}}, {{1000}, {1}, {1000}},
                        {{1}, {1}, {1}}, {{0, 5}, {0, 5}, {0, 5}}, {{2, 3, 4}, {4}, {2, 3, 4}}};
  const std::pair<const char *, std::function<double(double, double)>> ops[] = {
      {"add", [](double a, double b) { return a + b; }}, {"sub", [](double a, double b) { return a - b; }},
      {"mul", [](double a, double b) { return a * b; }}, {"maximum", [](double a, double b) { return std::max(a, b); }},
      {"minimum", [](double a, double b) { return std::min(a, b); }}};
  std::vector<ElementType> types(std::begin(kFloatTypes), std::end(kFloatTypes));
  types.push_back(ElementType::I32);
  for (ElementType type : types)
    for (const Case &c : cases)
      for (const auto &[op, reference] : ops) {
        Tensor a = randomTensor(type, c.lhs, 1), b = randomTensor(type, c.rhs, 2);
        auto out = run(op, {a, b}, {Tensor(type, c.out)});
        expectClose(out[0], [&](int64_t i) {
          auto index = unravel(i, c.out);
          return reference(broadcastAt(a, index), broadcastAt(b, index));
        }, std::string(op) + " " + elementTypeName(type));
      }
}

TEST_F(JitTest, PowAndDivision) {
  for (ElementType type : kFloatTypes)
    for (int64_t n : {1, 7, 33, 1000}) {
      Tensor base = randomTensor(type, {n}, 21, 0.1, 3), exponent = randomTensor(type, {n}, 22, -2, 2);
      auto pow = run("pow", {base, exponent}, {Tensor(type, {n})});
      expectClose(pow[0], [&](int64_t i) { return std::pow(base.at(i), exponent.at(i)); }, "pow");
      auto div = run("div", {exponent, base}, {Tensor(type, {n})});
      expectClose(div[0], [&](int64_t i) { return exponent.at(i) / base.at(i); }, "div");
    }
  // Integer pow wraps; ui8 exponents above 127 are not negative.
  Tensor base(ElementType::I32, {4}), exponent(ElementType::I32, {4});
  const double bases[] = {3, -2, 7, 2}, exponents[] = {4, 3, 0, 40};
  for (int i = 0; i < 4; ++i) { base.set(i, bases[i]); exponent.set(i, exponents[i]); }
  auto ints = run("pow", {base, exponent}, {Tensor(ElementType::I32, {4})});
  EXPECT_EQ(ints[0].at(0), 81);
  EXPECT_EQ(ints[0].at(1), -8);
  EXPECT_EQ(ints[0].at(2), 1);
  EXPECT_EQ(ints[0].at(3), 0) << "2^40 wraps to 0 in 32 bits";
  Tensor ub(ElementType::U8, {1}), ue(ElementType::U8, {1});
  ub.set(0, 3);
  ue.set(0, 200);
  auto u8 = run("pow", {ub, ue}, {Tensor(ElementType::U8, {1})});
  double expected = 1;
  for (int i = 0; i < 200; ++i) expected = std::fmod(expected * 3, 256);
  EXPECT_EQ(u8[0].at(0), expected);
}

TEST_F(JitTest, DynamicShapesTakeTheirSizesAtLaunch) {
  Tensor a = randomTensor(ElementType::F32, {33, 17}, 3), b = randomTensor(ElementType::F32, {17}, 4);
  auto out = run("add", {a, b}, {Tensor(ElementType::F32, {33, 17})}, {}, {{-1, 17}, {-1}});
  expectClose(out[0], [&](int64_t i) { return broadcastAt(a, unravel(i, {33, 17})) + broadcastAt(b, unravel(i, {33, 17})); },
              "dynamic add");
}

// Params of a dynamic size along the axis may be empty: the gather then reads nothing (an
// out-of-range index gives zero without a read; ASan sees any read past the 0-row buffer).
TEST_F(JitTest, GatherReadsDynamicParamsOnlyInRange) {
  Tensor indices(ElementType::I32, {3});
  const double picks[] = {1, -1, 4};
  for (int i = 0; i < 3; ++i) indices.set(i, picks[i]);
  for (int64_t rows : {0, 5}) {
    Tensor params = randomTensor(ElementType::F32, {rows, 4}, 7);
    auto out = run("gather", {params, indices}, {Tensor(ElementType::F32, {3, 4})}, {{"axis", int64_t(0)}},
                   {{-1, 4}, {3}});
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 4; ++j) {
        int64_t row = int64_t(picks[i]);
        double want = row >= 0 && row < rows ? params.at(row * 4 + j) : 0.0;
        EXPECT_EQ(out[0].at(i * 4 + j), want) << rows << " rows, element " << i << ", " << j;
      }
  }
}

TEST_F(JitTest, IntegerDivisionNeverTraps) {
  Tensor a(ElementType::I32, {4}), b(ElementType::I32, {4});
  const double as[] = {7, -7, -2147483648.0, 5}, bs[] = {2, 2, -1, 0};
  for (int i = 0; i < 4; ++i) { a.set(i, as[i]); b.set(i, bs[i]); }
  auto out = run("div", {a, b}, {Tensor(ElementType::I32, {4})});
  EXPECT_EQ(out[0].at(0), 3);
  EXPECT_EQ(out[0].at(1), -3);
  EXPECT_EQ(out[0].at(2), -2147483648.0) << "MIN / -1 wraps";
  EXPECT_EQ(out[0].at(3), 0) << "x / 0 is 0";
}

TEST_F(JitTest, UnaryOps) {
  const std::pair<const char *, std::function<double(double)>> ops[] = {
      {"exp", [](double x) { return std::exp(x); }},
      {"tanh", [](double x) { return std::tanh(x); }},
      {"sigmoid", [](double x) { return 1 / (1 + std::exp(-x)); }},
      {"gelu", [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }},
      {"relu", [](double x) { return std::max(x, 0.0); }},
      {"abs", [](double x) { return std::fabs(x); }},
      {"neg", [](double x) { return -x; }}};
  for (ElementType type : kFloatTypes)
    for (int64_t n : {1, 7, 33, 1000})
      for (const auto &[op, reference] : ops) {
        Tensor x = randomTensor(type, {n}, 5);
        auto out = run(op, {x}, {Tensor(type, {n})});
        expectClose(out[0], [&](int64_t i) { return reference(x.at(i)); }, std::string(op) + " " + elementTypeName(type));
      }
  const std::pair<const char *, std::function<double(double)>> positive[] = {
      {"log", [](double x) { return std::log(x); }}, {"sqrt", [](double x) { return std::sqrt(x); }},
      {"rsqrt", [](double x) { return 1 / std::sqrt(x); }}};
  for (ElementType type : kFloatTypes)
    for (const auto &[op, reference] : positive) {
      Tensor x = randomTensor(type, {3, 11}, 6, 0.1, 9);
      auto out = run(op, {x}, {Tensor(type, {3, 11})});
      expectClose(out[0], [&](int64_t i) { return reference(x.at(i)); }, op);
    }
}

// ---- cast ---------------------------------------------------------------------------------

TEST_F(JitTest, CastRoundsTowardZeroSaturatesAndMapsNanToZero) {
  Tensor x(ElementType::F32, {8});
  const double values[] = {1.9, -1.9, 3e9, -3e9, std::nan(""), 300.5, -0.5, 65504.0};
  for (int i = 0; i < 8; ++i) x.set(i, values[i]);
  auto i32 = run("cast", {x}, {Tensor(ElementType::I32, {8})}, {{"dst_type", TypeValue{ElementType::I32}}});
  const double wantI32[] = {1, -1, 2147483647.0, -2147483648.0, 0, 300, 0, 65504};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(i32[0].at(i), wantI32[i]) << i;
  auto u8 = run("cast", {x}, {Tensor(ElementType::U8, {8})}, {{"dst_type", TypeValue{ElementType::U8}}});
  const double wantU8[] = {1, 0, 255, 0, 0, 255, 0, 255};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(u8[0].at(i), wantU8[i]) << i;
  auto b = run("cast", {x}, {Tensor(ElementType::Bool, {8})}, {{"dst_type", TypeValue{ElementType::Bool}}});
  for (int i = 0; i < 8; ++i) EXPECT_EQ(b[0].at(i), values[i] != 0 ? 1 : 0) << i;
}

// 1 + 2^-8 + 2^-40 is just above halfway between bf16 neighbours 1 and 1 + 2^-7; rounding
// through f32 first would land exactly on the halfway point and wrongly round to 1.
TEST_F(JitTest, CastF64ToBf16RoundsOnce) {
  Tensor x(ElementType::F64, {2});
  x.set(0, 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40));
  x.set(1, -(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)));
  auto out = run("cast", {x}, {Tensor(ElementType::BF16, {2})}, {{"dst_type", TypeValue{ElementType::BF16}}});
  EXPECT_EQ(out[0].at(0), 1.0 + std::ldexp(1.0, -7));
  EXPECT_EQ(out[0].at(1), -(1.0 + std::ldexp(1.0, -7)));
}

TEST_F(JitTest, CastBetweenFloatTypesAndIntegers) {
  const ElementType all[] = {ElementType::F32, ElementType::F16, ElementType::BF16, ElementType::F64,
                             ElementType::I32, ElementType::I8, ElementType::I64, ElementType::U8};
  for (ElementType from : all)
    for (ElementType to : all) {
      Tensor x = randomTensor(from, {37}, 7, -100, 100);
      auto out = run("cast", {x}, {Tensor(to, {37})}, {{"dst_type", TypeValue{to}}});
      expectClose(out[0], [&](int64_t i) {
        double v = x.at(i);
        if (!isFloat(to)) v = std::trunc(v);
        if (to == ElementType::U8) v = std::clamp(v, 0.0, 255.0);   // float sources saturate
        if (to == ElementType::I8) v = std::clamp(v, -128.0, 127.0);
        if (!isFloat(from) && !isFloat(to)) v = roundTo(to, x.at(i));  // integers wrap (truncate)
        return v;
      }, std::string("cast ") + elementTypeName(from) + " -> " + elementTypeName(to));
    }
}

// ---- products -----------------------------------------------------------------------------

double product(const Tensor &a, const Tensor &b, bool ta, bool tb, int64_t m, int64_t n, int64_t k, int64_t batch = 0) {
  int64_t rowsA = ta ? a.shape[a.shape.size() - 1] : a.shape[a.shape.size() - 2];
  int64_t colsA = ta ? a.shape[a.shape.size() - 2] : a.shape[a.shape.size() - 1];
  int64_t colsB = b.shape.back();
  (void)rowsA;
  double sum = 0;
  int64_t K = colsA;
  int64_t aBase = a.shape.size() == 3 ? (a.shape[0] == 1 ? 0 : batch) * a.shape[1] * a.shape[2] : 0;
  int64_t bBase = b.shape.size() == 3 ? (b.shape[0] == 1 ? 0 : batch) * b.shape[1] * b.shape[2] : 0;
  for (int64_t p = 0; p < K; ++p) {
    double x = ta ? a.at(aBase + p * a.shape[a.shape.size() - 1] + m) : a.at(aBase + m * a.shape.back() + p);
    double y = tb ? b.at(bBase + n * colsB + p) : b.at(bBase + p * colsB + n);
    sum += x * y;
  }
  (void)k;
  return sum;
}

TEST_F(JitTest, MatMulWithTransposesAndTypes) {
  const int64_t m = 7, n = 5, k = 33;
  for (ElementType type : {ElementType::F32, ElementType::F16, ElementType::BF16})
    for (bool ta : {false, true})
      for (bool tb : {false, true}) {
        Tensor a = randomTensor(type, ta ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k}, 8);
        Tensor b = randomTensor(type, tb ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n}, 9);
        // f16/bf16 products may widen to f32 (result_type), which checks the accumulation too.
        ElementType result = type == ElementType::F32 ? type : ElementType::F32;
        auto out = run("matmul", {a, b}, {Tensor(result, {m, n})},
                       {{"transpose_a", ta}, {"transpose_b", tb}, {"result_type", TypeValue{result}}});
        expectClose(out[0], [&](int64_t i) { return product(a, b, ta, tb, i / n, i % n, k); }, "matmul");
      }
  Tensor a = randomTensor(ElementType::I8, {m, k}, 10, -128, 127), b = randomTensor(ElementType::I8, {k, n}, 11, -128, 127);
  auto out = run("matmul", {a, b}, {Tensor(ElementType::I32, {m, n})});
  for (int64_t i = 0; i < m * n; ++i) ASSERT_EQ(out[0].at(i), product(a, b, false, false, i / n, i % n, k)) << i;
}

TEST_F(JitTest, GemmAlphaBetaAndInPlaceC) {
  const int64_t m = 33, n = 17, k = 9;
  Tensor a = randomTensor(ElementType::F32, {m, k}, 12), b = randomTensor(ElementType::F32, {k, n}, 13);
  Tensor c = randomTensor(ElementType::F32, {m, n}, 14), alpha(ElementType::F32, {}), beta(ElementType::F32, {});
  alpha.set(0, 1.5);
  beta.set(0, -0.5);
  auto out = run("gemm", {a, b, c, alpha, beta}, {Tensor(ElementType::F32, {m, n})});
  expectClose(out[0], [&](int64_t i) { return 1.5 * product(a, b, false, false, i / n, i % n, k) - 0.5 * c.at(i); }, "gemm");
  // beta == 0: C is not read, so NaN there does not leak.
  for (int64_t i = 0; i < c.count(); ++i) c.set(i, std::nan(""));
  beta.set(0, 0);
  out = run("gemm", {a, b, c, alpha, beta}, {Tensor(ElementType::F32, {m, n})});
  expectClose(out[0], [&](int64_t i) { return 1.5 * product(a, b, false, false, i / n, i % n, k); }, "gemm beta=0");
}

// A GEMM whose epilogue a ukernel computes runs one row tile per block and asks the launch
// for one block per worker; other partitioned kernels keep the default of four. Its work per
// output element is its depth in vector FMAs; element-wise kernels' is one.
TEST_F(JitTest, UkernelGemmAsksForOneBlockPerWorker) {
  auto compile = [](const char *op, std::vector<TensorSpec> inputs) {
    std::string error;
    auto kernel = compileOp(OpSpec{op, std::move(inputs), {}}, CompileOptions{}, error);
    EXPECT_TRUE(kernel) << error;
    return kernel;
  };
  auto gemm = compile("gemm", {{ElementType::I8, {300, 200}}, {ElementType::I8, {200, 70}},
                               {ElementType::I32, {300, 70}}, {ElementType::I32, {}}, {ElementType::I32, {}}});
  auto add = compile("add", {{ElementType::F32, {300, 70}}, {ElementType::F32, {300, 70}}});
  auto matmul = compile("matmul", {{ElementType::F32, {300, 200}}, {ElementType::F32, {200, 70}}});
  ASSERT_TRUE(gemm && add && matmul);
  const auto &ukernels = hostTarget().ukernels;
  bool s8Ukernel = std::any_of(ukernels.begin(), ukernels.end(), [](const std::string &name) {
    return name == "aclcpu_ukernel_gemm_s8s8s32_vnni" || name == "aclcpu_ukernel_gemm_s8s8s32_avx2";
  });
  EXPECT_TRUE(gemm->launch.partitioned);
  EXPECT_EQ(gemm->launch.blocksPerWorker, s8Ukernel ? 1u : 4u);
  EXPECT_TRUE(add->launch.partitioned);
  EXPECT_EQ(add->launch.blocksPerWorker, 4u);
  // Each output element is worth the product's depth in vector FMAs: 200 over 32-bit lanes,
  // each summing four i8 products for s8.
  auto vectors = [](int64_t macsPerVector) { return uint32_t((200 + macsPerVector - 1) / macsPerVector); };
  EXPECT_EQ(matmul->launch.workPerElement, vectors(hostTarget().vectorBits / 32));
  EXPECT_EQ(gemm->launch.workPerElement, vectors(hostTarget().vectorBits / 32 * 4));
  EXPECT_EQ(add->launch.workPerElement, 1u);
  EXPECT_EQ(matmul->launch.depthInput, -1) << "a static depth";
  // A dynamic depth is read at launch from A's columns (input 0, dim 1), or its rows when A is
  // transposed (dim 0). Only an f32 ukernel (AVX-512 or AVX2) divides a one-row product over
  // blocks: generated code (NEON, say) runs it as one, which has no recipe to record.
  auto dynamicDepth = compile("matmul", {{ElementType::F32, {1, -1}}, {ElementType::F32, {-1, 4096}}});
  ASSERT_TRUE(dynamicDepth);
  bool f32Ukernel = std::any_of(ukernels.begin(), ukernels.end(), [](const std::string &name) {
    return name == "aclcpu_ukernel_gemm_f32f32f32" || name == "aclcpu_ukernel_gemm_f32f32f32_avx2";
  });
  EXPECT_EQ(dynamicDepth->launch.partitioned, f32Ukernel);
  if (!f32Ukernel) return;
  EXPECT_EQ(dynamicDepth->launch.depthInput, 0);
  EXPECT_EQ(dynamicDepth->launch.depthDim, 1u);
  EXPECT_EQ(dynamicDepth->launch.depthLanes, uint32_t(hostTarget().vectorBits / 32));
  std::string error;
  auto transposed = compileOp(OpSpec{"matmul", {{ElementType::F32, {-1, 8}}, {ElementType::F32, {-1, 64}}},
                                     {{"transpose_a", true}}},
                              CompileOptions{}, error);
  ASSERT_TRUE(transposed) << error;
  EXPECT_EQ(transposed->launch.depthInput, 0);
  EXPECT_EQ(transposed->launch.depthDim, 0u);
}

// Which ops broadcast comes from the dialect's traits (a dynamic request that would broadcast
// along a dynamic dim is refused by it: op_api's DynamicDimsNeverBroadcast).
TEST(OperandBroadcastingTest, ComesFromTheDialectsTraits) {
  for (const char *op : {"add", "sub", "pow", "squared_difference", "floor_div", "floor_mod", "greater", "less_equal",
                         "logical_and", "logical_or", "select", "clip_by_value"})
    EXPECT_EQ(operandBroadcasting(op), OperandBroadcasting::Elementwise) << op;
  EXPECT_EQ(operandBroadcasting("batch_matmul"), OperandBroadcasting::Batch);
  for (const char *op : {"matmul", "gemm", "add_n", "concat", "exp", "cast", "split", "layer_norm", "no_such_op"})
    EXPECT_EQ(operandBroadcasting(op), OperandBroadcasting::None) << op;
}

TEST_F(JitTest, BatchMatMulBroadcastsTheBatch) {
  Tensor a = randomTensor(ElementType::F32, {3, 4, 6}, 15), b = randomTensor(ElementType::F32, {1, 6, 5}, 16);
  auto out = run("batch_matmul", {a, b}, {Tensor(ElementType::F32, {3, 4, 5})});
  expectClose(out[0], [&](int64_t i) { return product(a, b, false, false, (i / 5) % 4, i % 5, 6, i / 20); }, "bmm");
}

// ---- reductions, softmax, transpose -------------------------------------------------------

TEST_F(JitTest, Reductions) {
  for (ElementType type : {ElementType::F32, ElementType::F16, ElementType::I32}) {
    Tensor x = randomTensor(type, {33, 7}, 17);
    auto sum = run("reduce_sum", {x}, {Tensor(type, {33, 1})},
                   {{"axes", std::vector<int64_t>{1}}, {"keep_dims", true}});
    expectClose(sum[0], [&](int64_t r) { double s = 0; for (int c = 0; c < 7; ++c) s += x.at(r * 7 + c); return s; }, "sum");
    auto max = run("reduce_max", {x}, {Tensor(type, {7})}, {{"axes", std::vector<int64_t>{0}}});
    expectClose(max[0], [&](int64_t c) { double m = -1e300; for (int r = 0; r < 33; ++r) m = std::max(m, x.at(r * 7 + c)); return m; }, "max");
  }
  Tensor x = randomTensor(ElementType::F32, {5, 1000}, 18);
  auto mean = run("reduce_mean", {x}, {Tensor(ElementType::F32, {})}, {{"axes", std::vector<int64_t>{}}});
  double total = 0;
  for (int64_t i = 0; i < x.count(); ++i) total += x.at(i);
  expectClose(mean[0], [&](int64_t) { return total / x.count(); }, "mean of all");
  auto empty = run("reduce_sum", {Tensor(ElementType::F32, {0, 4})}, {Tensor(ElementType::F32, {4})},
                   {{"axes", std::vector<int64_t>{0}}});
  for (int i = 0; i < 4; ++i) EXPECT_EQ(empty[0].at(i), 0) << "a sum over zero elements";
}

// A reduction over the leading dim streams the rows into a row of accumulators (aclop-select-
// strategy's `streamed_rows`): sized at launch, the row's last vector is masked (100 columns:
// partial on every vector width), and with the rows alone dynamic it is one of its own length.
TEST_F(JitTest, ReductionOverLeadingDimSizedAtLaunch) {
  for (ElementType type : {ElementType::F32, ElementType::F16, ElementType::I32}) {
    Tensor x = randomTensor(type, {29, 100}, 23);
    for (std::vector<int64_t> compiled :
         {std::vector<int64_t>{-1, -1}, std::vector<int64_t>{29, -1}, std::vector<int64_t>{-1, 100}})
      expectColumnSumAndMax(type, x, compiled, {});
  }
}

// The same on AVX2's and SSE's or NEON's vector widths (8 and 4 f32 lanes): a row of 64 is whole
// in registers on 256-bit vectors (8 vectors) and in vectors along a loop on 128-bit ones (16);
// a row of 203 in vectors on both, its last one partial.
TEST_F(JitTest, ReductionOverLeadingDimOnNarrowerVectors) {
  for (int64_t bits : {256, 128})
    for (ElementType type : {ElementType::F32, ElementType::F16})
      for (std::vector<int64_t> shape : {std::vector<int64_t>{37, 64}, std::vector<int64_t>{9, 203}}) {
        CompileOptions options;
        options.vectorBits = bits;
        expectColumnSumAndMax(type, randomTensor(type, shape, 24), shape, options);
      }
}

TEST_F(JitTest, SoftmaxOverEitherAxis) {
  for (ElementType type : kFloatTypes)
    for (int64_t axis : {-1, 0}) {
      Tensor x = randomTensor(type, {7, 33}, 19, -5, 5);
      auto out = run("softmax", {x}, {Tensor(type, {7, 33})}, {{"axes", std::vector<int64_t>{axis}}});
      expectClose(out[0], [&](int64_t i) {
        int64_t r = i / 33, c = i % 33;
        double max = -1e300, sum = 0;
        for (int j = 0; j < (axis == 0 ? 7 : 33); ++j) max = std::max(max, axis == 0 ? x.at(j * 33 + c) : x.at(r * 33 + j));
        for (int j = 0; j < (axis == 0 ? 7 : 33); ++j) sum += std::exp((axis == 0 ? x.at(j * 33 + c) : x.at(r * 33 + j)) - max);
        return std::exp(x.at(i) - max) / sum;
      }, "softmax");
    }
}

// Over the leading axis of a 3-D tensor, iterated kept dims first ((6, 5, 20): rows of 20 a plane
// apart): the maxima and sums stream those rows.
TEST_F(JitTest, SoftmaxOverTheLeadingAxisOfThree) {
  for (ElementType type : kFloatTypes) {
    Tensor x = randomTensor(type, {5, 6, 20}, 25, -5, 5);
    auto out = run("softmax", {x}, {Tensor(type, {5, 6, 20})}, {{"axes", std::vector<int64_t>{0}}});
    expectClose(out[0], [&](int64_t i) {
      const int64_t rest = i % 120;
      double max = -1e300, sum = 0;
      for (int64_t a = 0; a < 5; ++a) max = std::max(max, x.at(a * 120 + rest));
      for (int64_t a = 0; a < 5; ++a) sum += std::exp(x.at(a * 120 + rest) - max);
      return std::exp(x.at(i) - max) / sum;
    }, "softmax over axis 0");
  }
}

// Along rows, a row's maximum and sum gather in partial results a tile of four vectors wide
// (`row_partials`), the rest of the row masked: rows of 300 (four tiles of 64 and 44 more on
// 512-bit vectors, nine of 32 and 12 on 256-bit, eighteen of 16 and 12 on 128-bit) and of 40 (less
// than one tile of four on each: LLVM's loop where the length is static), sized at compile time
// and at launch.
TEST_F(JitTest, SoftmaxAlongRowsOnEveryVectorWidth) {
  for (int64_t bits : {0, 256, 128})
    for (ElementType type : {ElementType::F32, ElementType::F16})
      for (int64_t length : {300, 40})
        for (std::vector<int64_t> compiled : {std::vector<int64_t>{6, length}, std::vector<int64_t>{-1, -1}}) {
          CompileOptions options;
          if (bits) options.vectorBits = bits;
          Tensor x = randomTensor(type, {6, length}, 26, -6, 6);
          auto out = run("softmax", {x}, {Tensor(type, {6, length})}, {{"axes", std::vector<int64_t>{-1}}}, {compiled},
                         options);
          expectClose(out[0], [&](int64_t i) {
            const int64_t first = i / length * length;
            double max = -1e300, sum = 0;
            for (int64_t j = 0; j < length; ++j) max = std::max(max, x.at(first + j));
            for (int64_t j = 0; j < length; ++j) sum += std::exp(x.at(first + j) - max);
            return std::exp(x.at(i) - max) / sum;
          }, "softmax along rows");
        }
}

TEST_F(JitTest, Transpose) {
  for (ElementType type : {ElementType::F32, ElementType::BF16, ElementType::I32, ElementType::Bool}) {
    Tensor x = randomTensor(type, {2, 3, 5}, 20);
    auto out = run("transpose", {x}, {Tensor(type, {5, 2, 3})}, {{"perm", std::vector<int64_t>{2, 0, 1}}});
    expectClose(out[0], [&](int64_t i) {
      auto index = unravel(i, {5, 2, 3});
      return x.at(ravel({index[1], index[2], index[0]}, {2, 3, 5}));
    }, "transpose");
  }
}

// A transpose read in V x V tiles (aclop-select-strategy) whose innermost dim is sized at launch:
// its tiles are masked along it (67 rows: a partial last tile), and with every dim known, 64 x 64
// blocks of tiles.
TEST_F(JitTest, TransposeInTilesWithADynamicDim) {
  for (ElementType type : {ElementType::F32, ElementType::F16, ElementType::I8}) {
    Tensor x = randomTensor(type, {67, 64}, 21);
    for (std::vector<int64_t> compiled : {std::vector<int64_t>{-1, 64}, std::vector<int64_t>{67, 64}}) {
      auto out = run("transpose", {x}, {Tensor(type, {64, 67})}, {{"perm", std::vector<int64_t>{1, 0}}}, {compiled});
      expectClose(out[0], [&](int64_t i) { return x.at((i % 67) * 64 + i / 67); }, "transpose in tiles");
    }
    Tensor square = randomTensor(type, {128, 192}, 22);
    auto out = run("transpose", {square}, {Tensor(type, {192, 128})}, {{"perm", std::vector<int64_t>{1, 0}}});
    expectClose(out[0], [&](int64_t i) { return square.at((i % 128) * 192 + i / 128); }, "transpose in blocks");
  }
}

// ---- errors and figures -------------------------------------------------------------------

TEST_F(JitTest, InvalidOperatorsComeBackAsErrorsWithDiagnostics) {
  std::string error;
  OpSpec mixed{"add", {{ElementType::F32, {3}}, {ElementType::F16, {3}}}, {}};
  EXPECT_EQ(compileOp(mixed, {}, error), nullptr);
  EXPECT_NE(error.find("lhs and rhs must have the same element type"), std::string::npos) << error;
  OpSpec unknown{"frobnicate", {{ElementType::F32, {3}}}, {}};
  EXPECT_EQ(compileOp(unknown, {}, error), nullptr);
  EXPECT_NE(error.find("'aclop.frobnicate' is not an aclop operation"), std::string::npos) << error;
  // Malformed specs are errors too, never a crash: wrong arity, missing or mistyped attributes.
  OpSpec arity{"add", {{ElementType::F32, {3}}}, {}};
  EXPECT_EQ(compileOp(arity, {}, error), nullptr);
  EXPECT_NE(error.find("takes 2 operands, not 1"), std::string::npos) << error;
  OpSpec missing{"softmax", {{ElementType::F32, {3}}}, {}};
  EXPECT_EQ(compileOp(missing, {}, error), nullptr);
  EXPECT_NE(error.find("requires attribute 'axes'"), std::string::npos) << error;
  OpSpec mistyped{"cast", {{ElementType::F32, {3}}}, {{"dst_type", int64_t(3)}}};
  EXPECT_EQ(compileOp(mistyped, {}, error), nullptr);
  EXPECT_NE(error.find("dst_type"), std::string::npos) << error;
  OpSpec axes{"softmax", {{ElementType::F32, {3}}}, {{"axes", std::vector<int64_t>{4}}}};
  std::vector<TensorSpec> outputs;
  EXPECT_FALSE(inferOutputs(axes, outputs, error));
  EXPECT_NE(error.find("axis 4 is out of range for rank 1"), std::string::npos) << error;
  OpSpec good{"reduce_sum", {{ElementType::F32, {-1, 4, 6}}}, {{"axes", std::vector<int64_t>{1}}, {"keep_dims", true}}};
  ASSERT_TRUE(inferOutputs(good, outputs, error)) << error;
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].shape, (std::vector<int64_t>{-1, 1, 6}));
}

// Inference answers are remembered per spec: specs that differ in any input or attribute
// (including ones whose text is alike) get their own answers, repeated calls the same answer.
TEST_F(JitTest, RememberedInferenceTellsSpecsApart) {
  auto infer = [](const OpSpec &spec) {
    std::vector<TensorSpec> outputs;
    std::string error;
    EXPECT_TRUE(inferOutputs(spec, outputs, error)) << error;
    return outputs.empty() ? std::vector<int64_t>{} : outputs[0].shape;
  };
  auto reduce = [](std::vector<int64_t> shape, std::vector<int64_t> axes, bool keep) {
    return OpSpec{"reduce_sum", {{ElementType::F32, shape}}, {{"axes", axes}, {"keep_dims", keep}}};
  };
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(infer(reduce({2, 3, 4}, {1}, true)), (std::vector<int64_t>{2, 1, 4}));
    EXPECT_EQ(infer(reduce({2, 3, 4}, {1}, false)), (std::vector<int64_t>{2, 4}));
    EXPECT_EQ(infer(reduce({2, 3, 4}, {1, 2}, false)), (std::vector<int64_t>{2}));
    EXPECT_EQ(infer(reduce({23, 4}, {1}, false)), (std::vector<int64_t>{23}));
    EXPECT_EQ(infer(reduce({2, 34}, {1}, false)), (std::vector<int64_t>{2}));
    EXPECT_EQ(infer(reduce({-1, 4}, {1}, false)), (std::vector<int64_t>{-1}));
    OpSpec cast{"cast", {{ElementType::F32, {3}}}, {{"dst_type", TypeValue{ElementType::I32}}}};
    std::vector<TensorSpec> outputs;
    std::string error;
    ASSERT_TRUE(inferOutputs(cast, outputs, error)) << error;
    EXPECT_EQ(outputs[0].type, ElementType::I32);
    cast.attributes[0].second = TypeValue{ElementType::F16};
    ASSERT_TRUE(inferOutputs(cast, outputs, error)) << error;
    EXPECT_EQ(outputs[0].type, ElementType::F16);
    OpSpec bad = reduce({2, 3}, {5}, false);
    EXPECT_FALSE(inferOutputs(bad, outputs, error));
    EXPECT_NE(error.find("out of range"), std::string::npos) << error;
  }
}

TEST_F(JitTest, DumpDirectoryHoldsEveryStage) {
  char pattern[] = "/tmp/aclcpu-dump-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  CompileOptions options;
  options.dumpDir = pattern;
  std::string error;
  OpSpec spec{"exp", {{ElementType::F32, {8}}}, {}};
  ASSERT_TRUE(compileOp(spec, options, error)) << error;
  for (const char *suffix : {".input.mlir", ".passes.mlir", ".ll", ".opt.ll", ".o"}) {
    std::string path = std::string(pattern) + "/1-exp" + suffix;
    FILE *file = fopen(path.c_str(), "rb");
    ASSERT_NE(file, nullptr) << path;
    fseek(file, 0, SEEK_END);
    EXPECT_GT(ftell(file), 0) << path;
    fclose(file);
    remove(path.c_str());
  }
  rmdir(pattern);
}

// Figures for the notes (printed, never asserted): compile time per op, cold context each time.
TEST_F(JitTest, CompileTimeFigures) {
  const OpSpec specs[] = {
      {"add", {{ElementType::F32, {1000}}, {ElementType::F32, {1000}}}, {}},
      {"exp", {{ElementType::F16, {-1, 256}}}, {}},
      {"cast", {{ElementType::F32, {4096}}}, {{"dst_type", TypeValue{ElementType::BF16}}}},
      {"matmul", {{ElementType::F32, {256, 256}}, {ElementType::F32, {256, 256}}}, {}},
      {"gemm", {{ElementType::F32, {64, 32}}, {ElementType::F32, {32, 48}}, {ElementType::F32, {64, 48}},
                {ElementType::F32, {}}, {ElementType::F32, {}}}, {}},
      {"softmax", {{ElementType::F32, {64, 1000}}}, {{"axes", std::vector<int64_t>{-1}}}},
      {"reduce_sum", {{ElementType::F32, {64, 1000}}}, {{"axes", std::vector<int64_t>{1}}}}};
  for (const OpSpec &spec : specs) {
    std::vector<double> times;
    for (int i = 0; i < 3; ++i) {
      std::string error;
      auto kernel = compileOp(spec, {}, error);
      ASSERT_TRUE(kernel) << error;
      times.push_back(kernel->compileMilliseconds);
    }
    std::sort(times.begin(), times.end());
    printf("JIT compile %-10s median %6.1f ms (host %s, %lld-bit vectors)\n", spec.op.c_str(), times[1],
           hostTarget().cpu.c_str(), static_cast<long long>(hostTarget().vectorBits));
  }
}

}  // namespace
