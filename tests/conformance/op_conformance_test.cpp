// Conformance: every operator x data type x a table of shapes (scalars, 1, odd sizes,
// broadcasting, zero-size, large), through the public API. Each case is compiled once and run
// twice: with aclopExecuteV2 on one stream and through a handle on another; both results are
// compared with an independent plain-loop reference, with tolerances from the data type.
#include "conformance_fixture.h"

#include "acl/ops/acl_cblas.h"

#include <Eigen/Dense>

#include <cfloat>
#include <functional>
#include <tuple>
#include <sstream>
#include <string>

using namespace aclcpu_test;

namespace {

const aclDataType kFloats[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

std::vector<int64_t> broadcastShape(const std::vector<int64_t> &a, const std::vector<int64_t> &b) {
  std::vector<int64_t> out(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t x = i + a.size() >= out.size() ? a[i + a.size() - out.size()] : 1;
    int64_t y = i + b.size() >= out.size() ? b[i + b.size() - out.size()] : 1;
    out[i] = x == 1 ? y : x;
  }
  return out;
}

// Python's // and %, with 0 for a zero integer divisor (a float one is not drawn).
double floorDivide(double a, double b) { return b == 0 ? 0 : std::floor(a / b); }
double floorModulo(double a, double b) {
  if (b == 0) return 0;
  double r = std::fmod(a, b);
  return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}

TEST_F(Conformance, BinaryOperators) {
  struct Binary {
    const char *type;
    std::function<double(double, double)> f;
    double lhsLo, lhsHi, rhsLo, rhsHi;
    bool integers;
  };
  const Binary ops[] = {
      {"Add", [](double a, double b) { return a + b; }, -2, 2, -2, 2, true},
      {"Sub", [](double a, double b) { return a - b; }, -2, 2, -2, 2, true},
      {"Mul", [](double a, double b) { return a * b; }, -2, 2, -2, 2, true},
      {"RealDiv", [](double a, double b) { return a / b; }, -2, 2, 0.5, 3, false},
      {"Maximum", [](double a, double b) { return std::max(a, b); }, -2, 2, -2, 2, true},
      {"Minimum", [](double a, double b) { return std::min(a, b); }, -2, 2, -2, 2, true},
      {"Pow", [](double a, double b) { return std::pow(a, b); }, 0.5, 2, -2, 2, false},
      {"SquaredDifference", [](double a, double b) { return (a - b) * (a - b); }, -2, 2, -2, 2, true},
      // Integer divisors in [-2, 2], 0 among them (x / 0 and x % 0 are 0); float ones away from
      // 0 on either side.
      {"FloorDiv", floorDivide, -9, 9, -3, 3, true},
      {"FloorDiv", floorDivide, -9, 9, 0.5, 3, false},
      {"FloorDiv", floorDivide, -9, 9, -3, -0.5, false},
      {"FloorMod", floorModulo, -9, 9, -3, 3, true},
      {"FloorMod", floorModulo, -9, 9, 0.5, 3, false},
      {"FloorMod", floorModulo, -9, 9, -3, -0.5, false}};
  const std::pair<std::vector<int64_t>, std::vector<int64_t>> shapes[] = {
      {{}, {}}, {{1}, {1}}, {{7}, {7}}, {{33, 1}, {1, 17}}, {{2, 3, 4}, {4}}, {{1000}, {1}}, {{0, 3}, {0, 3}},
      {{256, 256}, {256}}};
  for (const Binary &op : ops)
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32}) {
      if (type == ACL_INT32 && !op.integers) continue;
      for (const auto &[lhs, rhs] : shapes) {
        Case c{op.type,
               {randomTensor(type, lhs, 1, op.lhsLo, op.lhsHi), randomTensor(type, rhs, 2, op.rhsLo, op.rhsHi)},
               nullptr,
               HostTensor(type, broadcastShape(lhs, rhs)),
               [f = op.f](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 return f(broadcastAt(in[0], index), broadcastAt(in[1], index));
               }};
        check(c);
      }
    }
  printf("binary operators: %d cases\n", checked_);
}

TEST_F(Conformance, UnaryOperators) {
  struct Unary {
    const char *type;
    std::function<double(double)> f;
    double lo, hi;
    bool integers;
  };
  const Unary ops[] = {{"Relu", [](double x) { return std::max(x, 0.0); }, -2, 2, true},
                       {"Gelu", [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }, -3, 3, false},
                       {"Sigmoid", [](double x) { return 1 / (1 + std::exp(-x)); }, -5, 5, false},
                       {"Tanh", [](double x) { return std::tanh(x); }, -3, 3, false},
                       {"Exp", [](double x) { return std::exp(x); }, -3, 3, false},
                       {"Log", [](double x) { return std::log(x); }, 0.1, 10, false},
                       {"Sqrt", [](double x) { return std::sqrt(x); }, 0, 10, false},
                       {"Rsqrt", [](double x) { return 1 / std::sqrt(x); }, 0.1, 10, false},
                       {"Abs", [](double x) { return std::fabs(x); }, -2, 2, true},
                       {"Neg", [](double x) { return -x; }, -2, 2, true},
                       {"Square", [](double x) { return x * x; }, -3, 3, true},
                       {"Reciprocal", [](double x) { return 1 / x; }, 0.25, 4, false},
                       {"Inv", [](double x) { return 1 / x; }, -4, -0.25, false},
                       {"Sign", [](double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0; }, -2, 2, true},
                       {"Floor", [](double x) { return std::floor(x); }, -5, 5, false},
                       {"Ceil", [](double x) { return std::ceil(x); }, -5, 5, false},
                       {"Round", [](double x) { return std::nearbyint(x); }, -5, 5, false},  // halves to even
                       {"Sin", [](double x) { return std::sin(x); }, -7, 7, false},
                       {"Cos", [](double x) { return std::cos(x); }, -7, 7, false},
                       {"Erf", [](double x) { return std::erf(x); }, -3, 3, false},
                       {"Softplus", [](double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }, -30, 30, false},
                       {"Log1p", [](double x) { return std::log1p(x); }, -0.9, 5, false},
                       {"Expm1", [](double x) { return std::expm1(x); }, -5, 3, false},
                       {"ZerosLike", [](double) { return 0.0; }, -2, 2, true},
                       {"OnesLike", [](double) { return 1.0; }, -2, 2, true}};
  const std::vector<int64_t> shapes[] = {{}, {1}, {7}, {33, 17}, {0}, {1000}};
  for (const Unary &op : ops)
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32}) {
      if (type == ACL_INT32 && !op.integers) continue;
      for (const auto &shape : shapes) {
        Case c{op.type, {randomTensor(type, shape, 3, op.lo, op.hi)}, nullptr, HostTensor(type, shape),
               [f = op.f](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 return f(in[0].at(ravel(index, in[0].shape)));
               }};
        check(c);
      }
    }
  printf("unary operators: %d cases\n", checked_);
}

// Values random tables rarely draw: halfway cases, signed zeros, NaN, infinities, and the tails
// where a naive formula loses the result (log(1 + exp(x)) is 0 below x = -17 in f32).
TEST_F(Conformance, UnaryEdgeValues) {
  auto run = [&](const char *op, const std::vector<float> &x, std::function<void(aclopAttr *)> set = nullptr) {
    int64_t n = static_cast<int64_t>(x.size());
    aclTensorDesc *inDesc = aclCreateTensorDesc(ACL_FLOAT, 1, &n, ACL_FORMAT_ND);
    aclTensorDesc *outDesc = aclCreateTensorDesc(ACL_FLOAT, 1, &n, ACL_FORMAT_ND);
    void *in = nullptr, *out = nullptr;
    EXPECT_EQ(aclrtMalloc(&in, 4 * n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&out, 4 * n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtMemcpy(in, 4 * n, x.data(), 4 * n, ACL_MEMCPY_HOST_TO_DEVICE);
    aclDataBuffer *inBuffer = aclCreateDataBuffer(in, 4 * n), *outBuffer = aclCreateDataBuffer(out, 4 * n);
    aclopAttr *attr = aclopCreateAttr();
    if (set) set(attr);
    const aclTensorDesc *inDescs[] = {inDesc}, *outDescs[] = {outDesc};
    const aclDataBuffer *inputs[] = {inBuffer};
    aclDataBuffer *outputs[] = {outBuffer};
    EXPECT_EQ(aclopCompileAndExecute(op, 1, inDescs, inputs, 1, outDescs, outputs, attr, ACL_ENGINE_SYS,
                                     ACL_COMPILE_SYS, nullptr, first_),
              ACL_SUCCESS) << op << ": " << recentError();
    EXPECT_EQ(aclrtSynchronizeStream(first_), ACL_SUCCESS);
    std::vector<float> y(n);
    aclrtMemcpy(y.data(), 4 * n, out, 4 * n, ACL_MEMCPY_DEVICE_TO_HOST);
    aclopDestroyAttr(attr);
    aclDestroyDataBuffer(inBuffer);
    aclDestroyDataBuffer(outBuffer);
    aclDestroyTensorDesc(inDesc);
    aclDestroyTensorDesc(outDesc);
    aclrtFree(in);
    aclrtFree(out);
    return y;
  };
  // Bit for bit, NaN as any NaN: signed zeros must come out with their sign.
  auto expectSame = [](const std::vector<float> &got, const std::vector<float> &want, const char *op) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(got[i])) << op << " element " << i;
      else EXPECT_TRUE(got[i] == want[i] && std::signbit(got[i]) == std::signbit(want[i]))
          << op << " element " << i << ": " << got[i] << " vs " << want[i];
    }
  };
  const float nan = std::nanf(""), inf = INFINITY;
  expectSame(run("Round", {0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 3.7f, -3.7f, 8388609.0f, nan}),
             {0.0f, 2.0f, 2.0f, -0.0f, -2.0f, 4.0f, -4.0f, 8388609.0f, nan}, "Round");
  expectSame(run("Floor", {-0.5f, -0.0f, 2.0f, -inf}), {-1.0f, -0.0f, 2.0f, -inf}, "Floor");
  expectSame(run("Ceil", {-0.5f, 0.25f, inf}), {-0.0f, 1.0f, inf}, "Ceil");
  expectSame(run("Sign", {nan, -0.0f, 0.0f, -inf, inf, 1e-30f, -1e-30f}), {nan, -0.0f, 0.0f, -1.0f, 1.0f, 1.0f, -1.0f},
             "Sign");
  expectSame(run("LeakyRelu", {-2.0f, 3.0f, -0.0f, nan}), {-0.0f, 3.0f, -0.0f, nan}, "LeakyRelu (slope 0)");
  expectSame(run("LeakyRelu", {-2.0f, 3.0f, -inf}, [](aclopAttr *attr) { aclopSetAttrFloat(attr, "negative_slope", 0.25f); }),
             {-0.5f, 3.0f, -inf}, "LeakyRelu (slope 0.25)");
  expectSame(run("Reciprocal", {0.0f, -0.0f, inf, 4.0f}), {inf, -inf, 0.0f, 0.25f}, "Reciprocal");
  const std::vector<float> tails = {-20.0f, -40.0f, -80.0f, 1e-7f, 100.0f, 1e30f, -inf, inf};
  std::vector<float> softplus = run("Softplus", tails);
  for (size_t i = 0; i < tails.size(); ++i) {
    double x = tails[i], want = x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
    if (std::isinf(want)) EXPECT_EQ(softplus[i], want) << "Softplus(" << x << ")";
    else EXPECT_NEAR(softplus[i], want, 4e-7 * std::fabs(want)) << "Softplus(" << x << ")";
  }
  expectSame(run("Softplus", {nan}), {nan}, "Softplus");
  // Where 1 + x or exp(x) rounds to 1, a naive log(1 + x) or exp(x) - 1 gives 0.
  const std::vector<float> small = {1e-10f, -1e-10f, 3e-8f, -2e-30f, 1e-3f, -60.0f, 100.0f};
  std::vector<float> log1p = run("Log1p", small), expm1 = run("Expm1", small);
  for (size_t i = 0; i < small.size(); ++i) {
    double x = small[i];
    if (x > -1) {
      EXPECT_NEAR(log1p[i], std::log1p(x), 4e-7 * std::fabs(std::log1p(x))) << "Log1p(" << x << ")";
    }
    double want = std::expm1(x);
    if (std::isinf(float(want))) {
      EXPECT_EQ(expm1[i], float(want)) << "Expm1(" << x << ")";
    } else {
      EXPECT_NEAR(expm1[i], want, 4e-7 * std::fabs(want)) << "Expm1(" << x << ")";
    }
  }
  expectSame(run("Expm1", {-0.0f, 0.0f, -inf, inf, nan}), {-0.0f, 0.0f, -1.0f, inf, nan}, "Expm1");
  expectSame(run("Log1p", {-0.0f, -1.0f, inf, nan}), {-0.0f, -inf, inf, nan}, "Log1p");
  // erf: odd, exactly +-1 past its clamp (3.925) and at the infinities, within 6 ulp across
  // [-5, 5] (a rational function of f32 arithmetic; tiny x where a^2 underflows included).
  expectSame(run("Erf", {-0.0f, 0.0f, 3.925f, -4.0f, 9.0f, 1e30f, inf, -inf, nan}),
             {-0.0f, 0.0f, 1.0f, -1.0f, 1.0f, 1.0f, 1.0f, -1.0f, nan}, "Erf");
  std::vector<float> erfArguments = {1e-30f, -3e-20f, 1e-5f};
  for (int i = -5000; i <= 5000; ++i) erfArguments.push_back(float(i) / 1000.0f);
  std::vector<float> erf = run("Erf", erfArguments);
  // An ulp of an f32 result (of the smallest normal at 0, where ilogb has no exponent to give).
  auto ulpOf = [](double want) {
    return std::ldexp(1.0, std::ilogb(std::max(std::fabs(want), double(FLT_MIN))) - 23);
  };
  for (size_t i = 0; i < erfArguments.size(); ++i) {
    double want = std::erf(double(erfArguments[i]));
    EXPECT_NEAR(erf[i], want, 6 * ulpOf(want)) << "Erf(" << erfArguments[i] << ")";
    EXPECT_LE(std::fabs(erf[i]), 1.0f) << "Erf(" << erfArguments[i] << ")";
  }
  expectSame(run("Gelu", {-0.0f, 0.0f, 10.0f, inf, nan}), {-0.0f, 0.0f, 10.0f, inf, nan}, "Gelu");
  // exp: 1 at +-0, 0 at -inf and far below, inf at inf and past log(FLT_MAX) (88.7228), the
  // largest finite results finite. Within 1 ulp where e^x is normal up to 88.37, 6 ulp above
  // (where k = 127 leaves r outside the polynomial's interval), and 2 x 2^-149 where it is
  // subnormal. (Before the subnormal path's shift was made exact, results near -87.2 were off by
  // 45 ulp, and subnormal ones by 32 x 2^-149.)
  expectSame(run("Exp", {-0.0f, 0.0f, -inf, -200.0f, inf, 88.73f, 100.0f, nan}),
             {1.0f, 1.0f, 0.0f, 0.0f, inf, inf, inf, nan}, "Exp");
  std::vector<float> expArguments = {88.72283f, 88.7f, 88.5f, 88.38f};
  for (int i = -10400; i <= 8880; ++i) expArguments.push_back(float(i) / 100.0f);
  std::vector<float> exps = run("Exp", expArguments);
  double worstNormal = 0, worstTop = 0, worstSubnormal = 0;
  for (size_t i = 0; i < expArguments.size(); ++i) {
    double x = expArguments[i], want = std::exp(x);
    if (want > FLT_MAX) continue;
    ASSERT_TRUE(std::isfinite(exps[i])) << "Exp(" << x << ")";
    if (want < FLT_MIN) {
      worstSubnormal = std::max(worstSubnormal, std::fabs(exps[i] - want) / 0x1p-149);
      continue;
    }
    double &worst = x > 88.37 ? worstTop : worstNormal;
    worst = std::max(worst, std::fabs(exps[i] - want) / ulpOf(want));
  }
  printf("exp: worst %.2f ulp (normal), %.2f (above 88.37), %.1f x 2^-149 (subnormal)\n", worstNormal, worstTop,
         worstSubnormal);
  EXPECT_LE(worstNormal, 1.0);
  EXPECT_LE(worstTop, 6.0);
  EXPECT_LE(worstSubnormal, 2.0);
}

// ClipByValue: x, low and high broadcast together; AddN of one to five tensors; BiasAdd along
// the last dim (NHWC) or the second (NCHW).
TEST_F(Conformance, ClipAddNBiasAdd) {
  struct ClipCase {
    std::vector<int64_t> x, low, high;
  };
  const ClipCase clips[] = {{{7}, {7}, {7}}, {{33, 17}, {1, 17}, {}}, {{0, 3}, {3}, {1}}, {{4, 5}, {4, 1}, {5}}};
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_UINT8})
    for (const ClipCase &cc : clips) {
      double lo = type == ACL_UINT8 ? 0 : -3, hi = type == ACL_UINT8 ? 200 : 3;
      Case c{"ClipByValue",
             {randomTensor(type, cc.x, 50, lo, hi), randomTensor(type, cc.low, 51, lo, hi / 2),
              randomTensor(type, cc.high, 52, hi / 4, hi)},
             nullptr, HostTensor(type, broadcastShape(cc.x, broadcastShape(cc.low, cc.high))),
             [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
               return std::min(std::max(broadcastAt(in[0], index), broadcastAt(in[1], index)), broadcastAt(in[2], index));
             }};
      check(c);
    }
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT8})
    for (int n : {1, 2, 5})
      for (const std::vector<int64_t> &shape : {std::vector<int64_t>{}, {7}, {33, 17}, {0, 4}}) {
        std::vector<HostTensor> inputs;
        for (int k = 0; k < n; ++k) inputs.push_back(randomTensor(type, shape, 53 + unsigned(k), -20, 20));
        Case c{"AddN", inputs, [n](aclopAttr *attr) { aclopSetAttrInt(attr, "N", n); }, HostTensor(type, shape),
               [type](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 double sum = 0;
                 for (const HostTensor &t : in) sum += t.at(ravel(index, t.shape));
                 return type == ACL_INT8 ? double(int8_t(int64_t(sum))) : sum;  // i8 wraps
               }};
        check(c);
      }
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32})
    for (const char *format : {"NHWC", "NCHW"}) {
      bool channelsLast = std::string(format) == "NHWC";
      std::vector<int64_t> shape = channelsLast ? std::vector<int64_t>{2, 5, 3, 16} : std::vector<int64_t>{2, 16, 5, 3};
      Case c{"BiasAdd", {randomTensor(type, shape, 58), randomTensor(type, {16}, 59)},
             [format](aclopAttr *attr) { aclopSetAttrString(attr, "data_format", format); }, HostTensor(type, shape),
             [channelsLast](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
               return in[0].at(ravel(index, in[0].shape)) + in[1].at(channelsLast ? index[3] : index[1]);
             }};
      check(c);
    }
  printf("clip, add_n, bias_add: %d cases\n", checked_);
}

// Random values rounded to integers, so that comparisons see equal operands, with a NaN first
// for float types.
HostTensor comparable(aclDataType type, const std::vector<int64_t> &shape, unsigned seed) {
  HostTensor t = randomTensor(type, shape, seed, -2, 2);
  for (int64_t i = 0; i < t.count(); ++i) t.set(i, std::round(t.at(i)));
  if (isFloatType(type) && t.count() > 0) t.set(0, std::nan(""));
  return t;
}

const std::pair<std::vector<int64_t>, std::vector<int64_t>> kBroadcastPairs[] = {
    {{}, {}}, {{1}, {1}}, {{7}, {7}}, {{33, 1}, {1, 17}}, {{2, 3, 4}, {4}}, {{1000}, {1}}, {{0, 3}, {0, 3}},
    {{3, 0}, {1}}};

TEST_F(Conformance, ComparisonAndLogicalOperators) {
  const std::pair<const char *, std::function<bool(double, double)>> comparisons[] = {
      {"Equal", [](double a, double b) { return a == b; }},
      {"NotEqual", [](double a, double b) { return a != b; }},  // true with a NaN
      {"Greater", [](double a, double b) { return a > b; }},
      {"GreaterEqual", [](double a, double b) { return a >= b; }},
      {"Less", [](double a, double b) { return a < b; }},
      {"LessEqual", [](double a, double b) { return a <= b; }}};
  for (const auto &[op, f] : comparisons)
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT32, ACL_INT64,
                             ACL_BOOL}) {
      bool ordering = std::string(op) != "Equal" && std::string(op) != "NotEqual";
      if (type == ACL_BOOL && ordering) continue;
      for (const auto &[lhs, rhs] : kBroadcastPairs) {
        Case c{op, {comparable(type, lhs, 21), comparable(type, rhs, 22)}, nullptr,
               HostTensor(ACL_BOOL, broadcastShape(lhs, rhs)),
               [f = f](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 return f(broadcastAt(in[0], index), broadcastAt(in[1], index)) ? 1.0 : 0.0;
               }};
        check(c);
      }
    }
  const std::pair<const char *, std::function<bool(bool, bool)>> logical[] = {
      {"LogicalAnd", [](bool a, bool b) { return a && b; }}, {"LogicalOr", [](bool a, bool b) { return a || b; }}};
  for (const auto &[op, f] : logical)
    for (const auto &[lhs, rhs] : kBroadcastPairs) {
      Case c{op, {randomTensor(ACL_BOOL, lhs, 23, 0, 1), randomTensor(ACL_BOOL, rhs, 24, 0, 1)}, nullptr,
             HostTensor(ACL_BOOL, broadcastShape(lhs, rhs)),
             [f = f](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
               return f(broadcastAt(in[0], index) != 0, broadcastAt(in[1], index) != 0) ? 1.0 : 0.0;
             }};
      check(c);
    }
  for (const std::vector<int64_t> &shape : {std::vector<int64_t>{}, {1}, {37}, {0}, {33, 17}}) {
    Case c{"LogicalNot", {randomTensor(ACL_BOOL, shape, 25, 0, 1)}, nullptr, HostTensor(ACL_BOOL, shape),
           [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
             return in[0].at(ravel(index, in[0].shape)) != 0 ? 0.0 : 1.0;
           }};
    check(c);
  }
  printf("comparison and logical operators: %d cases\n", checked_);
}

TEST_F(Conformance, Select) {
  struct Shapes {
    std::vector<int64_t> condition, x, y;
  };
  // SelectV2 broadcasts its three inputs as NumPy does.
  const Shapes broadcasting[] = {{{}, {}, {}},          {{7}, {7}, {7}},       {{33, 1}, {33, 17}, {17}},
                                 {{1}, {2, 3, 4}, {4}}, {{4}, {3, 1}, {1, 4}}, {{0, 3}, {0, 3}, {3}},
                                 {{1000}, {1000}, {1}}};
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT32, ACL_INT64, ACL_BOOL})
    for (const Shapes &shapes : broadcasting) {
      std::vector<int64_t> out = broadcastShape(shapes.condition, broadcastShape(shapes.x, shapes.y));
      Case c{"SelectV2",
             {randomTensor(ACL_BOOL, shapes.condition, 26, 0, 1), randomTensor(type, shapes.x, 27),
              randomTensor(type, shapes.y, 28)},
             nullptr, HostTensor(type, out),
             [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
               return broadcastAt(in[0], index) != 0 ? broadcastAt(in[1], index) : broadcastAt(in[2], index);
             }};
      check(c);
    }
  // Select (TensorFlow's): a condition of x's shape, or a vector over x's first dim; a square x
  // tells the two readings apart.
  for (const Shapes &shapes : {Shapes{{5, 5}, {5, 5}, {5, 5}}, Shapes{{5}, {5, 5}, {5, 5}}, Shapes{{3}, {3, 4, 2}, {3, 4, 2}},
                               Shapes{{9}, {9}, {9}}}) {
    Case c{"Select",
           {randomTensor(ACL_BOOL, shapes.condition, 29, 0, 1), randomTensor(ACL_FLOAT, shapes.x, 30),
            randomTensor(ACL_FLOAT, shapes.y, 31)},
           nullptr, HostTensor(ACL_FLOAT, shapes.x),
           [rowWise = shapes.condition.size() < shapes.x.size()](const std::vector<HostTensor> &in,
                                                                  const std::vector<int64_t> &index) {
             bool pick = rowWise ? in[0].at(index[0]) != 0 : in[0].at(ravel(index, in[0].shape)) != 0;
             size_t at = ravel(index, in[1].shape);
             return pick ? in[1].at(at) : in[2].at(at);
           }};
    check(c);
  }
  printf("select: %d cases\n", checked_);
}

TEST_F(Conformance, LeakyRelu) {
  for (aclDataType type : kFloats)
    for (float slope : {0.0f, 0.01f, 0.2f, -1.5f})
      for (const std::vector<int64_t> &shape : {std::vector<int64_t>{}, {37}, {0}, {33, 17}}) {
        Case c{"LeakyRelu", {randomTensor(type, shape, 32, -3, 3)},
               [slope](aclopAttr *attr) { aclopSetAttrFloat(attr, "negative_slope", slope); }, HostTensor(type, shape),
               [slope](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 double x = in[0].at(ravel(index, in[0].shape));
                 return x >= 0 ? x : x * double(slope);
               }};
        check(c);
      }
  printf("leaky relu: %d cases\n", checked_);
}

// One int as a tensor of `type` and `shape` (0-d or [1]): an axis given as a const input.
HostTensor intScalar(aclDataType type, int64_t value, std::vector<int64_t> shape = {}) {
  HostTensor t(type, std::move(shape));
  t.set(0, double(value));
  return t;
}

// An int64 vector as a tensor (a const input's values).
HostTensor int64Tensor(const std::vector<int64_t> &values) {
  HostTensor t(ACL_INT64, {static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i) t.set(static_cast<int64_t>(i), double(values[i]));
  return t;
}

std::function<void(aclopAttr *)> listAttributes(std::vector<std::pair<const char *, std::vector<int64_t>>> lists) {
  return [lists](aclopAttr *attr) {
    for (const auto &[name, values] : lists) aclopSetAttrListInt(attr, name, int(values.size()), values.data());
  };
}

TEST_F(Conformance, SliceBroadcastToTile) {
  struct SliceCase {
    std::vector<int64_t> shape, offsets, size, out;
  };
  const SliceCase slices[] = {{{7}, {2}, {3}, {3}},          {{4, 37}, {1, 3}, {2, -1}, {2, 34}},
                              {{4, 37}, {0, 0}, {4, 37}, {4, 37}}, {{3, 4, 5}, {1, 0, 2}, {2, 4, 3}, {2, 4, 3}},
                              {{5, 6}, {5, 2}, {0, 3}, {0, 3}},    {{2, 1000}, {1, 17}, {1, 900}, {1, 900}}};
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT64, ACL_BOOL})
    for (const SliceCase &sc : slices)
      for (bool asInputs : {false, true}) {
        Case c{asInputs ? "Slice" : "SliceD", {randomTensor(type, sc.shape, 40)},
               asInputs ? nullptr : listAttributes({{"offsets", sc.offsets}, {"size", sc.size}}), HostTensor(type, sc.out),
               [sc](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 std::vector<int64_t> source = index;
                 for (size_t d = 0; d < source.size(); ++d) source[d] += sc.offsets[d];
                 return in[0].at(ravel(source, sc.shape));
               }};
        if (asInputs) {
          c.inputs.push_back(int64Tensor(sc.offsets));
          c.inputs.push_back(int64Tensor(sc.size));
          c.constInputs = {1, 2};
        }
        check(c);
      }
  struct ShapeCase {
    std::vector<int64_t> shape, target;
  };
  const ShapeCase broadcasts[] = {{{}, {5}}, {{1}, {37}}, {{3, 1}, {3, 40}}, {{3, 1}, {2, 3, 40}}, {{4}, {4}}, {{1, 1}, {0, 7}}};
  for (aclDataType type : {ACL_FLOAT, ACL_BF16, ACL_INT32, ACL_BOOL})
    for (const ShapeCase &bc : broadcasts)
      for (bool asInput : {false, true}) {
        Case c{asInput ? "BroadcastTo" : "BroadcastToD", {randomTensor(type, bc.shape, 41)},
               asInput ? nullptr : listAttributes({{"shape", bc.target}}), HostTensor(type, bc.target),
               [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 return broadcastAt(in[0], index);
               }};
        if (asInput) {
          c.inputs.push_back(int64Tensor(bc.target));
          c.constInputs = {1};
        }
        check(c);
      }
  // Fill: a 0-d value broadcast to const dims.
  for (aclDataType type : {ACL_FLOAT, ACL_INT8, ACL_BOOL})
    for (const std::vector<int64_t> &dims : {std::vector<int64_t>{5}, {3, 40}, {0, 2}}) {
      Case c{"Fill", {int64Tensor(dims), randomTensor(type, {}, 44)}, nullptr, HostTensor(type, dims),
             [](const std::vector<HostTensor> &in, const std::vector<int64_t> &) { return in[1].at(0); }};
      c.constInputs = {0};
      check(c);
    }
  const ShapeCase tiles[] = {{{3}, {4}}, {{1}, {100}}, {{3, 5}, {2, 7}}, {{2, 3, 4}, {1, 3, 2}}, {{4, 4}, {0, 2}}, {{}, {}}};
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_BOOL})
    for (const ShapeCase &tc : tiles)
      for (bool asInput : {false, true}) {
        if (asInput && tc.target.empty()) continue;  // a const input holds at least one value
        std::vector<int64_t> out;
        for (size_t d = 0; d < tc.shape.size(); ++d) out.push_back(tc.shape[d] * tc.target[d]);
        Case c{asInput ? "Tile" : "TileD", {randomTensor(type, tc.shape, 42)},
               asInput ? nullptr : listAttributes({{"multiples", tc.target}}), HostTensor(type, out),
               [shape = tc.shape](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 std::vector<int64_t> source = index;
                 for (size_t d = 0; d < source.size(); ++d) source[d] %= shape[d];
                 return in[0].at(ravel(source, shape));
               }};
        if (asInput) {
          c.inputs.push_back(int64Tensor(tc.target));
          c.constInputs = {1};
        }
        check(c);
      }
  printf("slice, broadcast_to, tile: %d cases\n", checked_);
}

// A StridedSlice spec and the result it gives, worked out by hand: `picks` the indices each
// input dim takes, `layout` the result's dims (an input dim, or -1 for a new axis; shrunk dims
// are absent).
struct StridedSliceCase {
  const char *spec;  // the Python slice it stands for
  std::vector<int64_t> shape, begin, end, strides;
  int64_t beginMask, endMask, ellipsisMask, newAxisMask, shrinkMask;
  std::vector<std::vector<int64_t>> picks;  // per input dim
  std::vector<int64_t> layout;
};

// StridedSliceD (the lists as attributes) or StridedSlice (as const inputs 1-3) of `sc`.
Case stridedSliceCase(aclDataType type, const StridedSliceCase &sc, bool asInputs) {
  std::vector<int64_t> out;
  for (int64_t d : sc.layout) out.push_back(d < 0 ? 1 : int64_t(sc.picks[d].size()));
  Case c{asInputs ? "StridedSlice" : "StridedSliceD", {randomTensor(type, sc.shape, 49)},
         [sc, asInputs](aclopAttr *attr) {
           if (!asInputs) {
             aclopSetAttrListInt(attr, "begin", int(sc.begin.size()), sc.begin.data());
             aclopSetAttrListInt(attr, "end", int(sc.end.size()), sc.end.data());
             aclopSetAttrListInt(attr, "strides", int(sc.strides.size()), sc.strides.data());
           }
           aclopSetAttrInt(attr, "begin_mask", sc.beginMask);
           aclopSetAttrInt(attr, "end_mask", sc.endMask);
           aclopSetAttrInt(attr, "ellipsis_mask", sc.ellipsisMask);
           aclopSetAttrInt(attr, "new_axis_mask", sc.newAxisMask);
           aclopSetAttrInt(attr, "shrink_axis_mask", sc.shrinkMask);
         },
         HostTensor(type, out),
         [sc](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
           std::vector<int64_t> source(sc.shape.size());
           for (size_t d = 0; d < source.size(); ++d) source[d] = sc.picks[d].empty() ? 0 : sc.picks[d][0];  // shrunk
           for (size_t at = 0; at < sc.layout.size(); ++at)
             if (sc.layout[at] >= 0) source[sc.layout[at]] = sc.picks[sc.layout[at]][index[at]];
           return in[0].at(ravel(source, sc.shape));
         }};
  if (asInputs) {
    c.inputs.push_back(int64Tensor(sc.begin));
    c.inputs.push_back(int64Tensor(sc.end));
    c.inputs.push_back(int64Tensor(sc.strides));
    c.constInputs = {1, 2, 3};
  }
  return c;
}

// The lists over the input's dims, as TensorFlow reads them: negative begin/end from the end,
// clamping, begin_mask/end_mask, negative strides, shrink_axis_mask (down to a 0-d result), an
// empty slice, dims past the lists, and enough rows for several blocks.
TEST_F(Conformance, StridedSlice) {
  auto range = [](int64_t from, int64_t count, int64_t step) {
    std::vector<int64_t> v;
    for (int64_t i = 0; i < count; ++i) v.push_back(from + i * step);
    return v;
  };
  // The result's dims are the input's less the shrunk ones.
  auto kept = [](size_t rank, int64_t shrinkMask) {
    std::vector<int64_t> layout;
    for (size_t d = 0; d < rank; ++d)
      if (!(shrinkMask >> d & 1)) layout.push_back(int64_t(d));
    return layout;
  };
  const struct {
    std::vector<int64_t> shape, begin, end, strides;
    int64_t beginMask, endMask, shrinkMask;
    std::vector<std::vector<int64_t>> picks;
  } cases[] = {
      {{10}, {2}, {8}, {2}, 0, 0, 0, {{2, 4, 6}}},
      {{10}, {8}, {1}, {-3}, 0, 0, 0, {{8, 5, 2}}},
      {{4, 5}, {1, -1}, {3, 0}, {1, -1}, 0, 0, 0, {{1, 2}, {4, 3, 2, 1}}},
      {{4, 5}, {0, 3}, {0, 0}, {1, 1}, 1, 3, 0, {{0, 1, 2, 3}, {3, 4}}},
      {{3, 4, 5}, {1, 0, 2}, {2, 0, 5}, {1, 1, 1}, 2, 2, 1, {{1}, {0, 1, 2, 3}, {2, 3, 4}}},
      {{3, 4}, {2, -1}, {3, 0}, {1, 1}, 0, 0, 3, {{2}, {3}}},
      {{300, 200}, {0, 1}, {300, 200}, {1, 2}, 0, 0, 0, {range(0, 300, 1), range(1, 100, 2)}},
      {{6}, {-100}, {100}, {1}, 0, 0, 0, {{0, 1, 2, 3, 4, 5}}},
      {{5, 3}, {0, 0}, {0, 0}, {-1, 1}, 3, 3, 0, {{4, 3, 2, 1, 0}, {0, 1, 2}}},
      {{5}, {3}, {1}, {1}, 0, 0, 0, {{}}},
      {{2, 3, 4}, {1}, {2}, {1}, 0, 0, 0, {{1}, {0, 1, 2}, {0, 1, 2, 3}}},
      // Strides past any dim (the most negative int64 and 2^62, exact as the doubles the const
      // inputs pass through): one element each.
      {{7, 5}, {6, 1}, {-100, 5}, {INT64_MIN, int64_t{1} << 62}, 0, 0, 0, {{6}, {1}}}};
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_BOOL})
    for (const auto &sc : cases)
      for (bool asInputs : {false, true})
        check(stridedSliceCase(type,
                               {"", sc.shape, sc.begin, sc.end, sc.strides, sc.beginMask, sc.endMask, 0, 0,
                                sc.shrinkMask, sc.picks, kept(sc.shape.size(), sc.shrinkMask)},
                               asInputs));
  printf("strided slice: %d cases\n", checked_);
}

// ellipsis_mask and new_axis_mask, as TensorFlow lays a spec's entries over the input's dims.
TEST_F(Conformance, StridedSliceEllipsisAndNewAxes) {
  const StridedSliceCase cases[] = {
      {"[..., 1]", {2, 3, 4}, {0, 1}, {0, 2}, {1, 1}, 0, 0, 1, 0, 2, {{0, 1}, {0, 1, 2}, {1}}, {0, 1}},
      {"[:, None, 1:3]", {4, 5}, {0, 0, 1}, {0, 0, 3}, {1, 1, 1}, 1, 1, 0, 2, 0, {{0, 1, 2, 3}, {1, 2}}, {0, -1, 1}},
      {"[None, ..., None]", {3, 2}, {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, 0, 0, 2, 5, 0, {{0, 1, 2}, {0, 1}}, {-1, 0, 1, -1}},
      {"[1, ..., ::-1]", {3, 4, 5}, {1, 0, 0}, {2, 0, 0}, {1, 1, -1}, 4, 4, 2, 0, 1,
       {{1}, {0, 1, 2, 3}, {4, 3, 2, 1, 0}}, {1, 2}},
      {"[..., 0, 1] (an empty ellipsis, a 0-d result)", {2, 3}, {0, 0, 1}, {0, 1, 2}, {1, 1, 1}, 0, 0, 1, 0, 6,
       {{0}, {1}}, {}},
      {"[None, 1] with the new axis's shrink bit set too (ignored)", {3}, {0, 1}, {0, 2}, {1, 1}, 0, 0, 0, 1, 1,
       {{1}}, {-1, 0}},
      {"[1:, ..., None, ::2]", {2, 3, 4, 5}, {1, 0, 0, 0}, {0, 0, 0, 0}, {1, 1, 1, 2}, 8, 9, 2, 4, 0,
       {{1}, {0, 1, 2}, {0, 1, 2, 3}, {0, 2, 4}}, {0, 1, 2, -1, 3}},
      {"[None, ..., 2] (several blocks)", {64, 50, 3}, {0, 0, 2}, {0, 0, 3}, {1, 1, 1}, 0, 0, 2, 1, 4,
       {[] { std::vector<int64_t> v; for (int64_t i = 0; i < 64; ++i) v.push_back(i); return v; }(),
        [] { std::vector<int64_t> v; for (int64_t i = 0; i < 50; ++i) v.push_back(i); return v; }(), {2}},
       {-1, 0, 1}},
      {"[...]", {2, 3}, {0}, {0}, {1}, 0, 0, 1, 0, 0, {{0, 1}, {0, 1, 2}}, {0, 1}},
      {"[None, None, ::-1]", {4}, {0, 0, 0}, {0, 0, 0}, {1, 1, -1}, 4, 4, 0, 3, 0, {{3, 2, 1, 0}}, {-1, -1, 0}}};
  for (aclDataType type : {ACL_FLOAT, ACL_INT8, ACL_BOOL})
    for (const StridedSliceCase &sc : cases)
      for (bool asInputs : {false, true}) {
        SCOPED_TRACE(sc.spec);
        check(stridedSliceCase(type, sc, asInputs));
      }
  printf("strided slice with ellipsis and new axes: %d cases\n", checked_);
}

TEST_F(Conformance, Concat) {
  struct ConcatCase {
    std::vector<std::vector<int64_t>> shapes;
    int64_t axis;
  };
  const ConcatCase cases[] = {{{{3}, {5}}, 0},
                              {{{2, 3}, {2, 40}, {2, 1}}, -1},
                              {{{2, 3}, {4, 3}}, 0},
                              {{{2, 3, 4}, {2, 0, 4}, {2, 5, 4}}, 1},
                              {{{7, 9}}, 1},
                              {{{1, 300}, {2, 300}, {3, 300}, {1, 300}}, 0},
                              // Large enough for several blocks: each divides every part's rows.
                              {{{200, 3}, {200, 500}}, 1},
                              {{{64, 300}, {100, 300}}, 0},
                              // More tensors than a launch's fixed argument slots.
                              {std::vector<std::vector<int64_t>>(20, {2, 3}), 1}};
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_BOOL})
    for (const ConcatCase &cc : cases)
      for (const char *op : {"ConcatD", "ConcatV2D", "ConcatV2", "Concat"}) {
        std::vector<HostTensor> inputs;
        std::vector<int64_t> out = cc.shapes[0];
        int64_t rank = int64_t(out.size()), axis = cc.axis < 0 ? cc.axis + rank : cc.axis;
        out[axis] = 0;
        for (size_t k = 0; k < cc.shapes.size(); ++k) {
          inputs.push_back(randomTensor(type, cc.shapes[k], 43 + unsigned(k)));
          out[axis] += cc.shapes[k][axis];
        }
        std::string name = op;
        bool attribute = name == "ConcatD" || name == "ConcatV2D";
        int64_t n = int64_t(inputs.size());
        Case c{op, inputs,
               attribute ? std::function<void(aclopAttr *)>([cc, n](aclopAttr *attr) {
                 aclopSetAttrInt(attr, "concat_dim", cc.axis);
                 aclopSetAttrInt(attr, "N", n);
               })
                         : nullptr,
               HostTensor(type, out),
               [axis](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 std::vector<int64_t> source = index;
                 for (const HostTensor &part : in) {
                   if (part.shape.empty()) continue;  // the axis, as an input
                   if (source[axis] < part.shape[axis]) return part.at(ravel(source, part.shape));
                   source[axis] -= part.shape[axis];
                 }
                 return std::nan("");
               }};
        HostTensor axisTensor = intScalar(ACL_INT32, cc.axis);
        if (name == "ConcatV2") {
          c.inputs.push_back(axisTensor);
          c.constInputs = {c.inputs.size() - 1};
        } else if (name == "Concat") {
          c.inputs.insert(c.inputs.begin(), axisTensor);
          c.constInputs = {0};
        }
        check(c);
      }
  printf("concat: %d cases\n", checked_);
}

// Indices in [-2, size + 1]: those outside [0, size) give zeros.
HostTensor gatherIndices(aclDataType type, const std::vector<int64_t> &shape, int64_t size, unsigned seed) {
  HostTensor t = randomTensor(type, shape, seed, -2, double(size + 1));
  for (int64_t i = 0; i < t.count(); ++i) t.set(i, std::round(t.at(i)));
  return t;
}

TEST_F(Conformance, Gather) {
  struct GatherCase {
    std::vector<int64_t> params, indices;
    int64_t axis;
  };
  const GatherCase cases[] = {{{7}, {5}, 0},          {{7}, {}, 0},           {{6, 5}, {2, 3}, 0},
                              {{6, 5}, {4}, 1},       {{3, 4, 5}, {7}, -2},   {{3, 4, 5}, {2, 2}, -1},
                              {{6, 5}, {0}, 0},       {{1000, 64}, {300}, 0}, {{64, 1000}, {3, 50}, 1},
                              {{0, 5}, {3}, 0}};  // nothing to gather from: zeros
  int variant = 0;
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT64, ACL_BOOL})
    for (const GatherCase &gc : cases) {
      int64_t rank = int64_t(gc.params.size()), axis = gc.axis < 0 ? gc.axis + rank : gc.axis;
      aclDataType indexType = ++variant % 2 ? ACL_INT32 : ACL_INT64;
      std::vector<int64_t> out(gc.params.begin(), gc.params.begin() + axis);
      out.insert(out.end(), gc.indices.begin(), gc.indices.end());
      out.insert(out.end(), gc.params.begin() + axis + 1, gc.params.end());
      int64_t indexRank = int64_t(gc.indices.size());
      // Three spellings of the same gather: the axis as a const input, as an attribute, or 0.
      const char *op = axis == 0 && variant % 3 == 0 ? "Gather" : variant % 3 == 1 ? "GatherV2D" : "GatherV2";
      Case c{op, {randomTensor(type, gc.params, 50), gatherIndices(indexType, gc.indices, gc.params[axis], 51)},
             std::string(op) == "GatherV2D" ? std::function<void(aclopAttr *)>([gc](aclopAttr *attr) {
               aclopSetAttrInt(attr, "axis", gc.axis);
             })
                                            : nullptr,
             HostTensor(type, out),
             [gc, axis, indexRank](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
               std::vector<int64_t> at(index.begin() + axis, index.begin() + axis + indexRank);
               int64_t picked = int64_t(in[1].at(ravel(at, gc.indices)));
               if (picked < 0 || picked >= gc.params[axis]) return 0.0;
               std::vector<int64_t> source(index.begin(), index.begin() + axis);
               source.push_back(picked);
               source.insert(source.end(), index.begin() + axis + indexRank, index.end());
               return in[0].at(ravel(source, gc.params));
             }};
      if (std::string(op) == "GatherV2") {
        c.inputs.push_back(intScalar(ACL_INT32, gc.axis, {1}));
        c.constInputs = {2};
      }
      check(c);
    }
  printf("gather: %d cases\n", checked_);
}

// Arg max / min with ties (values rounded to a few integers: the first index wins) and, for
// floats, NaNs (never picked).
// The index ArgMax (ArgMin) gives along `axis`: the first element strictly larger (smaller)
// than every one before it, starting from -inf (+inf), so a NaN is never picked and a slice
// with nothing beyond the start gives 0.
Reference argReference(std::vector<int64_t> shape, int64_t axis, bool isMax) {
  return [shape, axis, isMax](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
    std::vector<int64_t> at = index;
    at.insert(at.begin() + axis, 0);
    int64_t picked = 0;
    double best = isMax ? -INFINITY : INFINITY;
    for (int64_t k = 0; k < shape[axis]; ++k) {
      at[axis] = k;
      double v = in[0].at(ravel(at, shape));
      if (isMax ? v > best : v < best) {
        best = v;
        picked = k;
      }
    }
    return double(picked);
  };
}

TEST_F(Conformance, ArgMaxArgMin) {
  struct ArgCase {
    std::vector<int64_t> shape;
    int64_t axis;
  };
  // Over axis 0 of 5x33, 37x100 and 4x3x20, rows streamed a vector at a time with a partial
  // last one (4x3x20 iterated (3, 4, 20): its index is of the leading dim).
  const ArgCase cases[] = {{{7}, 0},       {{5, 33}, 1}, {{5, 33}, 0},    {{5, 33}, -1},
                           {{3, 4, 5}, 1}, {{0, 4}, 1},  {{300, 100}, 1}, {{37, 100}, 0}, {{4, 3, 20}, 0}};
  int variant = 0;
  for (bool isMax : {true, false})
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_UINT8, ACL_INT8})
      for (const ArgCase &ac : cases) {
        ++variant;
        HostTensor x = randomTensor(type, ac.shape, 60, type == ACL_UINT8 ? 0 : -3, 3);
        for (int64_t i = 0; i < x.count(); ++i) {
          x.set(i, std::round(x.at(i)));
          if (isFloatType(type) && i % 7 == 3) x.set(i, std::nan(""));
        }
        int64_t rank = int64_t(ac.shape.size()), axis = ac.axis < 0 ? ac.axis + rank : ac.axis;
        std::vector<int64_t> out = ac.shape;
        out.erase(out.begin() + axis);
        aclDataType indexType = variant % 2 ? ACL_INT32 : ACL_INT64;
        bool asInput = variant % 3 != 0;
        const char *op = isMax ? (asInput ? "ArgMaxV2" : "ArgMaxD") : (asInput ? "ArgMin" : "ArgMinD");
        Case c{op, {x},
               asInput ? nullptr : std::function<void(aclopAttr *)>([ac](aclopAttr *attr) {
                 aclopSetAttrInt(attr, "dimension", ac.axis);
               }),
               HostTensor(indexType, out), argReference(ac.shape, axis, isMax)};
        if (asInput) {
          c.inputs.push_back(intScalar(variant % 4 ? ACL_INT32 : ACL_INT64, ac.axis));
          c.constInputs = {1};
        }
        check(c);
      }
  printf("arg max / min: %d cases\n", checked_);
}

// Along the last axis ArgMax and ArgMin take each row's extreme first, then the first index
// holding it: rows of infinities, NaNs, both, signed zeros and repeated extremes, where that must
// agree with the strict scan (a row holding a NaN takes the scan).
TEST_F(Conformance, ArgMaxArgMinRowsOfInfinitiesAndNaNs) {
  const double nan = std::nan(""), inf = INFINITY;
  const std::vector<std::vector<double>> rows = {
      {nan, -inf, -inf, 1, nan}, {-inf, -inf, -inf, -inf, -inf}, {nan, nan, nan, nan, nan}, {nan, -inf, nan, nan, nan},
      {2, 7, 7, -1, 7},          {-0.0, 0.0, -0.0, 0.0, -1},      {inf, inf, 3, inf, -inf}, {-5, -3, -3, -7, -7},
      {inf, nan, inf, -inf, 0}};
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16})
    for (bool isMax : {true, false}) {
      std::vector<int64_t> shape = {int64_t(rows.size()), 5};
      HostTensor x(type, shape);
      for (size_t r = 0; r < rows.size(); ++r)
        for (size_t k = 0; k < 5; ++k) x.set(int64_t(r * 5 + k), rows[r][k]);
      check(Case{isMax ? "ArgMaxD" : "ArgMinD", {x}, [](aclopAttr *attr) { aclopSetAttrInt(attr, "dimension", 1); },
                 HostTensor(ACL_INT32, {shape[0]}), argReference(shape, 1, isMax)});
    }
  // Integers at the extremes of their range: a row of the identity (INT8_MIN for max) gives 0.
  HostTensor ints(ACL_INT8, {3, 4});
  const double values[] = {-128, -128, -128, -128, 127, -128, 127, 0, -128, 5, -128, 5};
  for (int64_t i = 0; i < 12; ++i) ints.set(i, values[i]);
  for (bool isMax : {true, false})
    check(Case{isMax ? "ArgMaxD" : "ArgMinD", {ints}, [](aclopAttr *attr) { aclopSetAttrInt(attr, "dimension", -1); },
               HostTensor(ACL_INT64, {3}), argReference({3, 4}, 1, isMax)});
  // One kernel for every shape (ACL_OP_COMPILE_FUZZ): the rows' length known at run time, 0 too
  // (each row's index then 0).
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
  for (std::vector<int64_t> shape : {std::vector<int64_t>{4, 7}, std::vector<int64_t>{3, 0}})
    for (bool isMax : {true, false})
      check(Case{isMax ? "ArgMaxD" : "ArgMinD", {randomTensor(ACL_FLOAT, shape, 62, -3, 3)},
                 [](aclopAttr *attr) { aclopSetAttrInt(attr, "dimension", 1); }, HostTensor(ACL_INT32, {shape[0]}),
                 argReference(shape, 1, isMax)});
  // Over axis 0, both dims known at run time: the rows' last vector masked.
  for (bool isMax : {true, false})
    check(Case{isMax ? "ArgMaxD" : "ArgMinD", {randomTensor(ACL_FLOAT, {9, 40}, 63, -3, 3)},
               [](aclopAttr *attr) { aclopSetAttrInt(attr, "dimension", 0); }, HostTensor(ACL_INT32, {40}),
               argReference({9, 40}, 0, isMax)});
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_DEFAULT), ACL_SUCCESS);
  printf("arg max / min rows: %d cases\n", checked_);
}

// Pad and PadV3 (paddings a const input) and PadD (a list_list_int attribute).
TEST_F(Conformance, Pad) {
  struct PadCase {
    std::vector<int64_t> shape, paddings;  // (before, after) per dim
  };
  const PadCase cases[] = {{{7}, {2, 3}},          {{3, 4}, {1, 0, 0, 2}}, {{2, 3, 4}, {0, 0, 1, 1, 2, 0}},
                           {{0, 3}, {1, 1, 0, 0}}, {{5}, {0, 0}},          {{40, 50}, {3, 4, 5, 6}},
                           // Several blocks: filled, then the input copied in (the divided dim
                           // unpadded, after leading 1s or not), and padded along the divided dim.
                           {{300, 200}, {0, 0, 3, 5}}, {{1, 300, 100}, {0, 0, 0, 0, 2, 2}},
                           {{1, 300, 100}, {0, 0, 1, 1, 2, 2}}};
  int variant = 0;
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_BOOL})
    for (const PadCase &pc : cases)
      for (const char *op : {"Pad", "PadV3", "PadD"}) {
        ++variant;
        size_t rank = pc.shape.size();
        const bool asAttribute = std::string(op) == "PadD";
        std::vector<int64_t> out;
        for (size_t d = 0; d < rank; ++d) out.push_back(pc.shape[d] + pc.paddings[2 * d] + pc.paddings[2 * d + 1]);
        // PadV3 of a float tensor pads with 2.5 (a constant_values input), else zeros.
        bool withValue = std::string(op) == "PadV3" && type == ACL_FLOAT;
        double value = withValue ? 2.5 : 0.0;
        HostTensor paddings(variant % 2 ? ACL_INT32 : ACL_INT64, {int64_t(rank), 2});
        for (size_t i = 0; i < pc.paddings.size(); ++i) paddings.set(int64_t(i), double(pc.paddings[i]));
        Case c{op, {randomTensor(type, pc.shape, 70), paddings},
               std::string(op) == "PadV3" ? std::function<void(aclopAttr *)>([](aclopAttr *attr) {
                 aclopSetAttrString(attr, "mode", "constant");
               })
               : asAttribute ? std::function<void(aclopAttr *)>([pc](aclopAttr *attr) {  // aclopSetAttrListListInt
                   std::vector<int> counts(pc.shape.size(), 2);
                   std::vector<const int64_t *> pairs;
                   for (size_t d = 0; d < pc.shape.size(); ++d) pairs.push_back(pc.paddings.data() + 2 * d);
                   aclopSetAttrListListInt(attr, "paddings", int(counts.size()), counts.data(), pairs.data());
                 })
                             : nullptr,
               HostTensor(type, out),
               [pc, value](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 std::vector<int64_t> source = index;
                 for (size_t d = 0; d < source.size(); ++d) {
                   source[d] -= pc.paddings[2 * d];
                   if (source[d] < 0 || source[d] >= pc.shape[d]) return value;
                 }
                 return in[0].at(ravel(source, pc.shape));
               }};
        c.constInputs = {1};
        if (asAttribute) {
          c.inputs.pop_back();
          c.constInputs.clear();
        }
        if (withValue) {
          HostTensor constant(ACL_FLOAT, {});
          constant.set(0, value);
          c.inputs.push_back(constant);
          c.constInputs.push_back(2);
        }
        check(c);
      }
  printf("pad: %d cases\n", checked_);
}

// Outputs of 32 MiB and more take non-temporal stores where every vector store is aligned
// (aclop-stream-stores): an Add's, whose vectors start at multiples of 16 floats, a
// transpose's tiles, a row of 16 floats at a time, and not a Pad's, whose interior starts 8
// floats into each row (its 64-byte non-temporal stores faulted).
TEST_F(Conformance, LargeOutputs) {
  const std::vector<int64_t> shape{4096, 2048};  // 32 MiB of f32
  Case add{"Add", {randomTensor(ACL_FLOAT, shape, 80), randomTensor(ACL_FLOAT, shape, 81)}, nullptr,
           HostTensor(ACL_FLOAT, shape), [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
             int64_t i = index[0] * 2048 + index[1];
             return double(float(in[0].at(i)) + float(in[1].at(i)));
           }};
  check(add);
  HostTensor paddings(ACL_INT32, {2, 2});
  for (int64_t i = 0; i < 4; ++i) paddings.set(i, 8.0);
  Case pad{"Pad", {randomTensor(ACL_FLOAT, {4080, 2032}, 82), paddings}, nullptr, HostTensor(ACL_FLOAT, shape),
           [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
             int64_t row = index[0] - 8, column = index[1] - 8;
             return row < 0 || row >= 4080 || column < 0 || column >= 2032 ? 0.0 : in[0].at(row * 2032 + column);
           }};
  pad.constInputs = {1};
  check(pad);
  // A transpose's 16x16 tiles stored a row at a time, its next block's rows fetched ahead.
  Case transpose{"TransposeD", {randomTensor(ACL_FLOAT, {2048, 4096}, 83)},
                 [](aclopAttr *attr) {
                   const int64_t perm[] = {1, 0};
                   aclopSetAttrListInt(attr, "perm", 2, perm);
                 },
                 HostTensor(ACL_FLOAT, shape), [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                   return in[0].at(index[1] * 4096 + index[0]);
                 }};
  check(transpose);
}

// Mirrored and repeated padding: PadV3 (`mode` reflect or edge) and MirrorPad (REFLECT or
// SYMMETRIC), paddings a const input. Each output element reads the input element its position
// mirrors (about the edge element, or with it repeated) or clamps to, per dim; the paddings
// reach the most each mode allows (size - 1, size), over 1-element dims, an empty dim left
// unpadded, and rows over several blocks.
TEST_F(Conformance, MirrorPad) {
  struct PadCase {
    std::vector<int64_t> shape, paddings;  // (before, after) per dim
  };
  const PadCase cases[] = {{{7}, {2, 3}},          {{3, 4}, {2, 0, 1, 3}},        {{2, 3, 4}, {1, 1, 2, 2, 0, 3}},
                           {{1, 5}, {0, 0, 4, 4}}, {{0, 3}, {0, 0, 2, 2}},        {{5}, {0, 0}},
                           {{300, 200}, {0, 0, 3, 5}}, {{1, 300, 100}, {0, 0, 2, 1, 7, 7}}};
  struct Mode {
    const char *op, *mode;
    int64_t slack;  // how far past an edge the padding may reach: size - 1 + slack (-1: any)
  };
  const Mode modes[] = {{"PadV3", "reflect", 0}, {"PadV3", "edge", -1}, {"MirrorPad", "REFLECT", 0},
                        {"MirrorPad", "SYMMETRIC", 1}};
  int variant = 0;
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_INT8})
    for (const Mode &m : modes)
      for (const PadCase &pc : cases) {
        size_t rank = pc.shape.size();
        bool fits = true;  // the case's paddings within what the mode takes
        for (size_t d = 0; d < rank; ++d) {
          int64_t most = m.slack < 0 ? (pc.shape[d] == 0 ? 0 : INT64_MAX) : std::max<int64_t>(pc.shape[d] - 1 + m.slack, 0);
          fits = fits && std::max(pc.paddings[2 * d], pc.paddings[2 * d + 1]) <= most;
        }
        if (!fits) continue;
        ++variant;
        std::vector<int64_t> out;
        for (size_t d = 0; d < rank; ++d) out.push_back(pc.shape[d] + pc.paddings[2 * d] + pc.paddings[2 * d + 1]);
        HostTensor paddings(variant % 2 ? ACL_INT32 : ACL_INT64, {int64_t(rank), 2});
        for (size_t i = 0; i < pc.paddings.size(); ++i) paddings.set(int64_t(i), double(pc.paddings[i]));
        std::string mode = m.mode;
        Case c{m.op, {randomTensor(type, pc.shape, 71), paddings},
               [mode](aclopAttr *attr) { aclopSetAttrString(attr, "mode", mode.c_str()); }, HostTensor(type, out),
               [pc, mode](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 std::vector<int64_t> source = index;
                 for (size_t d = 0; d < source.size(); ++d) {
                   int64_t j = source[d] - pc.paddings[2 * d], n = pc.shape[d];
                   if (mode == "edge") j = std::min(std::max<int64_t>(j, 0), n - 1);
                   else if (mode == "reflect" || mode == "REFLECT") j = j < 0 ? -j : j >= n ? 2 * (n - 1) - j : j;
                   else j = j < 0 ? -j - 1 : j >= n ? 2 * n - 1 - j : j;
                   source[d] = j;
                 }
                 return in[0].at(ravel(source, pc.shape));
               }};
        c.constInputs = {1};
        check(c);
      }
  printf("mirror pad: %d cases\n", checked_);
}

// The Split family, each piece an output: equal pieces (Split, SplitD) and pieces of size_splits
// (SplitV, SplitVD), with an empty piece, a -1 (the rest), a negative axis, pieces large enough
// for several blocks along either dim, and 20 outputs (more tensors than a launch's fixed slots).
TEST_F(Conformance, Split) {
  struct SplitCase {
    std::vector<int64_t> shape;
    int64_t axis;
    std::vector<int64_t> sizes;
  };
  const SplitCase cases[] = {{{7}, 0, {3, 4}},
                             {{6, 4}, 0, {2, 2, 2}},
                             {{4, 37}, -1, {10, -1, 0, 7}},
                             {{2, 3, 4}, 1, {1, 2}},
                             {{2, 3, 4}, 2, {2, 2}},
                             {{300, 200}, 1, {100, 100}},
                             {{512, 64}, 0, {100, -1, 12}},
                             {{4, 40}, 1, std::vector<int64_t>(20, 2)}};
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT64, ACL_BOOL})
    for (const SplitCase &sc : cases) {
      int64_t rank = int64_t(sc.shape.size()), axis = sc.axis < 0 ? sc.axis + rank : sc.axis;
      int64_t known = 0;
      for (int64_t size : sc.sizes) known += std::max<int64_t>(size, 0);
      bool equal = std::all_of(sc.sizes.begin(), sc.sizes.end(), [&](int64_t size) { return size == sc.sizes[0]; });
      int64_t n = int64_t(sc.sizes.size());
      for (const char *op : {"Split", "SplitD", "SplitV", "SplitVD"}) {
        std::string name = op;
        bool equalOnly = name == "Split" || name == "SplitD";
        if (equalOnly && !equal) continue;
        int data = name == "Split" ? 1 : 0;
        std::vector<std::pair<HostTensor, Reference>> outputs;
        int64_t offset = 0;
        for (int64_t size : sc.sizes) {
          std::vector<int64_t> shape = sc.shape;
          shape[axis] = size >= 0 ? size : sc.shape[axis] - known;
          outputs.push_back({HostTensor(type, shape),
                             [=](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                               std::vector<int64_t> source = index;
                               source[axis] += offset;
                               return in[data].at(ravel(source, sc.shape));
                             }});
          offset += shape[axis];
        }
        std::function<void(aclopAttr *)> attributes = [=](aclopAttr *attr) {
          aclopSetAttrInt(attr, "num_split", n);
          if (name == "SplitD" || name == "SplitVD") aclopSetAttrInt(attr, "split_dim", sc.axis);
          if (name == "SplitVD") aclopSetAttrListInt(attr, "size_splits", int(n), sc.sizes.data());
        };
        Case c{op, {randomTensor(type, sc.shape, 45)}, attributes, outputs[0].first, outputs[0].second};
        c.moreOutputs.assign(outputs.begin() + 1, outputs.end());
        if (name == "Split") {
          c.inputs.insert(c.inputs.begin(), intScalar(ACL_INT32, sc.axis));
          c.constInputs = {0};
        } else if (name == "SplitV") {
          c.inputs.push_back(int64Tensor(sc.sizes));
          c.inputs.push_back(intScalar(ACL_INT32, sc.axis, {1}));
          c.constInputs = {1, 2};
        }
        check(c);
      }
    }
  printf("split: %d cases\n", checked_);
}

// LayerNorm against a double-precision two-pass reference: y, mean and variance (population),
// normalizing from begin_norm_axis and scaling from begin_params_axis (which may start before
// it), an f32 gamma and beta with f16 x, rows enough for several blocks, an empty batch, x far
// from 0 for its spread (32 +- 2: a one-pass E[x^2] - E[x]^2 in f32 loses the variance there),
// and kernels compiled for every shape.
TEST_F(Conformance, LayerNorm) {
  struct NormCase {
    std::vector<int64_t> shape;
    int64_t normAxis, paramsAxis;
    double offset;
  };
  const NormCase cases[] = {{{5}, 0, 0, 0},        {{4, 37}, 1, 1, 0},   {{4, 37}, -1, -1, 0},
                            {{3, 4, 5}, 1, 1, 0},  {{3, 4, 5}, 1, 2, 0}, {{3, 4, 5}, 0, 0, 0},
                            {{2, 3, 4}, 2, 1, 0},  {{300, 512}, 1, 1, 0}, {{0, 8}, 1, 1, 0},
                            {{4, 37}, 1, 1, 32}};
  const float epsilon = 1e-5f;
  auto normCase = [&](aclDataType type, aclDataType paramType, const NormCase &nc) {
    int64_t rank = int64_t(nc.shape.size());
    int64_t normAxis = nc.normAxis < 0 ? nc.normAxis + rank : nc.normAxis;
    int64_t paramsAxis = nc.paramsAxis < 0 ? nc.paramsAxis + rank : nc.paramsAxis;
    std::vector<int64_t> params(nc.shape.begin() + paramsAxis, nc.shape.end()), statistics = nc.shape;
    for (int64_t d = normAxis; d < rank; ++d) statistics[d] = 1;
    // Mean and variance of the row holding `index` (the dims from normAxis varied).
    auto moments = [=](const HostTensor &x, std::vector<int64_t> index) {
      int64_t count = 1;
      for (int64_t d = normAxis; d < rank; ++d) count *= nc.shape[d];
      std::vector<double> values;
      for (int64_t k = 0; k < count; ++k) {
        int64_t rest = k;
        for (int64_t d = rank - 1; d >= normAxis; --d) {
          index[d] = rest % nc.shape[d];
          rest /= nc.shape[d];
        }
        values.push_back(x.at(ravel(index, nc.shape)));
      }
      double mean = 0, variance = 0;
      for (double v : values) mean += v / double(count);
      for (double v : values) variance += (v - mean) * (v - mean) / double(count);
      return std::pair{mean, variance};
    };
    auto y = [=](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
      auto [mean, variance] = moments(in[0], index);
      std::vector<int64_t> p(index.begin() + paramsAxis, index.end());
      return (in[0].at(ravel(index, nc.shape)) - mean) / std::sqrt(variance + epsilon) * in[1].at(ravel(p, params)) +
             in[2].at(ravel(p, params));
    };
    Case c{"LayerNorm",
           {randomTensor(type, nc.shape, 46, nc.offset - 2, nc.offset + 2), randomTensor(paramType, params, 47),
            randomTensor(paramType, params, 48)},
           [=](aclopAttr *attr) {
             aclopSetAttrInt(attr, "begin_norm_axis", nc.normAxis);
             aclopSetAttrInt(attr, "begin_params_axis", nc.paramsAxis);
             aclopSetAttrFloat(attr, "epsilon", epsilon);
           },
           HostTensor(type, nc.shape), y};
    c.moreOutputs = {{HostTensor(type, statistics),
                      [=](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                        return moments(in[0], index).first;
                      }},
                     {HostTensor(type, statistics),
                      [=](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                        return moments(in[0], index).second;
                      }}};
    return c;
  };
  for (aclDataType type : kFloats)
    for (int variant = 0; variant < (type == ACL_FLOAT16 ? 2 : 1); ++variant) {
      aclDataType paramType = variant ? ACL_FLOAT : type;  // f32 parameters: one x type is enough
      for (const NormCase &nc : cases)
        if (nc.offset == 0 || type == ACL_FLOAT) check(normCase(type, paramType, nc));
    }
  // One kernel for every shape (ACL_OP_COMPILE_FUZZ): rows and their length known at run time.
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
  for (const NormCase &nc : {NormCase{{3, 4, 5}, 1, 2, 0}, NormCase{{6, 33}, 1, 1, 0}, NormCase{{2, 70}, 1, 1, 0}})
    check(normCase(ACL_FLOAT16, ACL_FLOAT, nc));
  ASSERT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_DEFAULT), ACL_SUCCESS);
  printf("layer norm: %d cases\n", checked_);
}

TEST_F(Conformance, CastEveryPair) {
  const aclDataType types[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8,
                               ACL_UINT8, ACL_INT16,   ACL_INT32, ACL_INT64,  ACL_BOOL};
  for (aclDataType from : types)
    for (aclDataType to : types) {
      Case c{"Cast", {randomTensor(from, {1000}, 4, -100, 100)},
             [to](aclopAttr *attr) { aclopSetAttrInt(attr, "dst_type", to); }, HostTensor(to, {1000}),
             [from, to](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
               double v = in[0].at(index[0]);
               if (to == ACL_BOOL) return v != 0 ? 1.0 : 0.0;
               if (isFloatType(to)) return v;
               if (!isFloatType(from)) return roundTo(to, v);  // integer narrowing wraps
               double lo = to == ACL_UINT8 ? 0 : to == ACL_INT8 ? -128 : -1e300;
               double hi = to == ACL_UINT8 ? 255 : to == ACL_INT8 ? 127 : 1e300;
               return std::clamp(std::trunc(v), lo, hi);  // float sources round toward zero, saturate
             }};
      check(c);
    }
  printf("cast pairs: %d\n", checked_);
}

// Cast f32 -> bf16 bit for bit against round-to-nearest-even (toBf16), NaN staying NaN: ties
// and overflow, and denormals, which vcvtneps2bf16 (taken where the CPU has AVX512-BF16) reads
// as zero: a vector without any, one mixing them with normals and a NaN, one of only
// denormals, and a masked tail. The tolerance of CastEveryPair would let a flushed denormal pass.
TEST_F(Conformance, CastToBf16RoundsExactly) {
  const uint32_t patterns[] = {
      // no denormals: ties to even, just above and below a tie, signed zeros, infinities, NaN,
      // overflow to infinity, the smallest normals
      0x3f800000, 0x3f808000, 0x3f818000, 0x3f808001, 0x3f807fff, 0x80000000, 0x00000000, 0x7f800000, 0xff800000,
      0x7fc00001, 0x7f7fffff, 0xff7fffff, 0x00800000, 0x00ffffff, 0x40490fdb, 0xd0ba43b7,
      // denormals beside normals and a NaN: ties among denormals, rounding up into the normals
      0x00000001, 0x80000001, 0x007fffff, 0x00008000, 0x00018000, 0x0000ffff, 0x807f0000, 0xffc00000, 0x3fc00000,
      0xc0400000, 0x00400000, 0x00408000, 0x00418000, 0x000ae398, 0x80011d87, 0x00000003};
  std::vector<uint32_t> bits(std::begin(patterns), std::end(patterns));
  for (uint32_t i = 0; i < 16; ++i) bits.push_back(((i * 0x00123457u) & 0x007fffffu) | (i % 2 ? 0x80000000u : 0u));
  for (uint32_t tail : {0x00007fffu, 0x3f80c000u, 0x80400001u, 0x4b800000u, 0x00000000u}) bits.push_back(tail);
  const int64_t n = static_cast<int64_t>(bits.size());
  HostTensor input(ACL_FLOAT, {n});
  memcpy(input.bytes.data(), bits.data(), input.byteSize());
  aclTensorDesc *inDesc = aclCreateTensorDesc(ACL_FLOAT, 1, &n, ACL_FORMAT_ND);
  aclTensorDesc *outDesc = aclCreateTensorDesc(ACL_BF16, 1, &n, ACL_FORMAT_ND);
  void *in = nullptr, *out = nullptr;
  ASSERT_EQ(aclrtMalloc(&in, input.byteSize(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&out, 2 * n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(in, input.byteSize(), input.bytes.data(), input.byteSize(), ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  aclDataBuffer *inBuffer = aclCreateDataBuffer(in, input.byteSize()), *outBuffer = aclCreateDataBuffer(out, 2 * n);
  ASSERT_EQ(aclopCast(inDesc, inBuffer, outDesc, outBuffer, 0, first_), ACL_SUCCESS) << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(first_), ACL_SUCCESS);
  std::vector<uint16_t> actual(n);
  ASSERT_EQ(aclrtMemcpy(actual.data(), 2 * n, out, 2 * n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (int64_t i = 0; i < n; ++i) {
    float value;
    memcpy(&value, &bits[i], 4);
    if (std::isnan(value))
      EXPECT_TRUE((actual[i] & 0x7f80) == 0x7f80 && (actual[i] & 0x7f) != 0) << "element " << i;
    else
      EXPECT_EQ(actual[i], toBf16(value)) << "element " << i << ": f32 bits 0x" << std::hex << bits[i];
  }
  aclDestroyDataBuffer(inBuffer);
  aclDestroyDataBuffer(outBuffer);
  aclDestroyTensorDesc(inDesc);
  aclDestroyTensorDesc(outDesc);
  aclrtFree(in);
  aclrtFree(out);
}

double product(const HostTensor &a, const HostTensor &b, bool ta, bool tb, int64_t batch, int64_t i, int64_t j) {
  size_t r = a.shape.size();
  int64_t k = ta ? a.shape[r - 2] : a.shape[r - 1];
  int64_t aRows = a.shape[r - 2], aCols = a.shape[r - 1], bRows = b.shape[r - 2], bCols = b.shape[r - 1];
  int64_t aBase = r == 3 ? (a.shape[0] == 1 ? 0 : batch) * aRows * aCols : 0;
  int64_t bBase = r == 3 ? (b.shape[0] == 1 ? 0 : batch) * bRows * bCols : 0;
  double sum = 0;
  for (int64_t p = 0; p < k; ++p)
    sum += (ta ? a.at(aBase + p * aCols + i) : a.at(aBase + i * aCols + p)) *
           (tb ? b.at(bBase + j * bCols + p) : b.at(bBase + p * bCols + j));
  return sum;
}

TEST_F(Conformance, MatrixProducts) {
  // MatMulV2 of m x k by k x n (either stored transposed) with inputs uniform in [lo, hi], and
  // with `bias` a third input over n, of the result type.
  auto matMul = [&](aclDataType type, aclDataType out, int64_t m, int64_t n, int64_t k, double lo, double hi,
                    bool bias = false) {
    for (bool ta : {false, true})
      for (bool tb : {false, true}) {
        std::vector<HostTensor> inputs{
            randomTensor(type, ta ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k}, 5, lo, hi),
            randomTensor(type, tb ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n}, 6, lo, hi)};
        if (bias) inputs.push_back(randomTensor(out, {n}, 28));
        Case c{"MatMulV2", inputs,
               [ta, tb](aclopAttr *attr) {
                 aclopSetAttrBool(attr, "transpose_x1", ta);
                 aclopSetAttrBool(attr, "transpose_x2", tb);
               },
               HostTensor(out, {m, n}),
               [ta, tb, bias](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 return product(in[0], in[1], ta, tb, 0, index[0], index[1]) + (bias ? in[2].at(index[1]) : 0.0);
               }};
        check(c);
      }
  };
  for (aclDataType type : kFloats) matMul(type, ACL_FLOAT, 7, 5, 33, -2, 2);  // f16/bf16 widen to f32
  for (int64_t size : {1, 64, 129}) {
    HostTensor alpha = randomTensor(ACL_FLOAT, {}, 7), beta = randomTensor(ACL_FLOAT, {}, 8);
    Case c{"GEMM",
           {randomTensor(ACL_FLOAT, {size, 31}, 9), randomTensor(ACL_FLOAT, {size, 31}, 10),
            randomTensor(ACL_FLOAT, {size, size}, 11), alpha, beta},
           [](aclopAttr *attr) { aclopSetAttrBool(attr, "transpose_b", 1); },
           HostTensor(ACL_FLOAT, {size, size}),
           [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
             return in[3].at(0) * product(in[0], in[1], false, true, 0, index[0], index[1]) +
                    in[4].at(0) * in[2].at(ravel(index, in[2].shape));
           }};
    check(c);
  }
  {  // GEMM's low_precision (what ACL_COMPUTE_LOW_PRECISION sets): f16 inputs rounded to bf16
    const int64_t m = 70, n = 33, k = 45;
    HostTensor alpha = randomTensor(ACL_FLOAT, {}, 17), beta = randomTensor(ACL_FLOAT, {}, 18);
    Case c{"GEMM",
           {randomTensor(ACL_FLOAT16, {m, k}, 19), randomTensor(ACL_FLOAT16, {k, n}, 20),
            randomTensor(ACL_FLOAT, {m, n}, 21), alpha, beta},
           [](aclopAttr *attr) { aclopSetAttrBool(attr, "low_precision", 1); },
           HostTensor(ACL_FLOAT, {m, n}),
           [=](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
             auto rounded = [](double x) { return double(fromBf16(toBf16(float(x)))); };
             double sum = 0;
             for (int64_t p = 0; p < k; ++p)
               sum += rounded(in[0].at(index[0] * k + p)) * rounded(in[1].at(p * n + index[1]));
             return in[3].at(0) * sum + in[4].at(0) * in[2].at(ravel(index, in[2].shape));
           }};
    check(c);
  }
  Case batched{"BatchMatMul", {randomTensor(ACL_FLOAT, {3, 4, 6}, 12), randomTensor(ACL_FLOAT, {1, 6, 5}, 13)}, nullptr,
               HostTensor(ACL_FLOAT, {3, 4, 5}),
               [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 return product(in[0], in[1], false, false, index[0], index[1], index[2]);
               }};
  check(batched);
  // A bias over N, of the input type (f16 accumulating in f32) or of the widened result type.
  for (auto [type, biasType, out] : {std::tuple{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},
                                     std::tuple{ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16},
                                     std::tuple{ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT}}) {
    const int64_t m = 9, n = 6, k = 17;
    Case withBias{"MatMulV2",
                  {randomTensor(type, {m, k}, 14), randomTensor(type, {n, k}, 15), randomTensor(biasType, {n}, 16)},
                  [](aclopAttr *attr) { aclopSetAttrBool(attr, "transpose_x2", true); },
                  HostTensor(out, {m, n}),
                  [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                    return product(in[0], in[1], false, true, 0, index[0], index[1]) + in[2].at(index[1]);
                  }};
    check(withBias);
  }
  Case batchedBias{"BatchMatMulV2",
                   {randomTensor(ACL_FLOAT, {2, 4, 6}, 17), randomTensor(ACL_FLOAT, {2, 6, 5}, 18),
                    randomTensor(ACL_FLOAT, {5}, 19)},
                   nullptr, HostTensor(ACL_FLOAT, {2, 4, 5}),
                   [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                     return product(in[0], in[1], false, false, index[0], index[1], index[2]) + in[2].at(index[2]);
                   }};
  check(batchedBias);
  // Whole 8 x 32 register tiles without an epilogue (a plain product) run in generated tiles that
  // hold each accumulator from its zeroing to the result where those win (up to 256 each way,
  // but for B alone transposed): 8-row tiles (16 x 64 x 40: 12 + 4 rows would sweep B as often),
  // 12-row ones (48 x 128 x 288) and 12-row ones with the 4 or 8 rows past them a product of
  // their own (40 and 32 x 128 x 288; B transposed, 8-row tiles), in every transpose; batches of them, with B's
  // batch of one broadcast or not, and either operand transposed. (Inputs within 1/2: f32 sums
  // of 288 products of up to 4 err past the fixture's fixed 2e-5.)
  for (auto [m, n, k] :
       {std::tuple<int64_t, int64_t, int64_t>{16, 64, 40}, {40, 128, 288}, {32, 128, 288}, {48, 128, 288}})
    matMul(ACL_FLOAT, ACL_FLOAT, m, n, k, -0.5, 0.5);
  for (int64_t bBatch : {1, 3})
    for (bool ta : {false, true})
      for (bool tb : {false, true}) {
        const int64_t m = 16, n = 64, k = 24;
        Case c{"BatchMatMul",
               {randomTensor(ACL_FLOAT, ta ? std::vector<int64_t>{3, k, m} : std::vector<int64_t>{3, m, k}, 22),
                randomTensor(ACL_FLOAT, tb ? std::vector<int64_t>{bBatch, n, k} : std::vector<int64_t>{bBatch, k, n},
                             23)},
               [ta, tb](aclopAttr *attr) {
                 aclopSetAttrBool(attr, "adj_x1", ta);
                 aclopSetAttrBool(attr, "adj_x2", tb);
               },
               HostTensor(ACL_FLOAT, {3, m, n}),
               [ta, tb](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 return product(in[0], in[1], ta, tb, index[0], index[1], index[2]);
               }};
        check(c);
      }
  // The same tiles add a bias over N before they store (MatMulV2's and BatchMatMulV2's): 8-row
  // tiles (16 x 64 x 40), 12-row ones with the 4 rows past them split off (40 x 128 x 288), in
  // every transpose, and a batch with B's batch broadcast.
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{16, 64, 40}, {40, 128, 288}})
    matMul(ACL_FLOAT, ACL_FLOAT, m, n, k, -0.5, 0.5, /*bias=*/true);
  // A bias over a product the ukernel computes is its Cin (alpha = beta = 1, row stride 0),
  // added with the first depth chunk: ragged tiles, a few rows, B streamed, several bands over
  // two depth chunks; bf16 and f16 through their own ukernels.
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{100, 333, 257}, {3, 300, 70}, {64, 1000, 200},
                         {300, 96, 1100}})
    matMul(ACL_FLOAT, ACL_FLOAT, m, n, k, -0.5, 0.5, /*bias=*/true);
  for (aclDataType type : {ACL_BF16, ACL_FLOAT16}) matMul(type, ACL_FLOAT, 100, 333, 257, -0.5, 0.5, /*bias=*/true);
  Case batchedTilesBias{"BatchMatMulV2",
                        {randomTensor(ACL_FLOAT, {3, 16, 24}, 29), randomTensor(ACL_FLOAT, {1, 24, 64}, 30),
                         randomTensor(ACL_FLOAT, {64}, 31)},
                        nullptr, HostTensor(ACL_FLOAT, {3, 16, 64}),
                        [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                          return product(in[0], in[1], false, false, index[0], index[1], index[2]) +
                                 in[2].at(index[2]);
                        }};
  check(batchedTilesBias);
  // A batch whose rows 12 do not divide: each matrix's 36 rows in 12-row tiles, then its last 4
  // rows in tiles of their own (split over the rows, the batch's second dim), plain and with a
  // bias, B's batch broadcast or not.
  for (int64_t bBatch : {1, 2})
    for (bool withBias : {false, true}) {
      std::vector<HostTensor> inputs{randomTensor(ACL_FLOAT, {2, 40, 24}, 32, -0.5, 0.5),
                                     randomTensor(ACL_FLOAT, {bBatch, 24, 64}, 33, -0.5, 0.5)};
      if (withBias) inputs.push_back(randomTensor(ACL_FLOAT, {64}, 34));
      Case c{withBias ? "BatchMatMulV2" : "BatchMatMul", inputs, nullptr, HostTensor(ACL_FLOAT, {2, 40, 64}),
             [withBias](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
               return product(in[0], in[1], false, false, index[0], index[1], index[2]) +
                      (withBias ? in[2].at(index[2]) : 0.0);
             }};
      check(c);
    }
  // One batch of 333 rows: several blocks split the rows (the batch dim is a unit), in row tiles.
  Case tallBatch{"BatchMatMul", {randomTensor(ACL_FLOAT, {1, 333, 40}, 20), randomTensor(ACL_FLOAT, {1, 40, 100}, 21)},
                 nullptr, HostTensor(ACL_FLOAT, {1, 333, 100}),
                 [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                   return product(in[0], in[1], false, false, index[0], index[1], index[2]);
                 }};
  check(tallBatch);
  // s8 x s8 -> s32 over the whole byte range (-128 included: the VNNI ukernel biases A by 128),
  // every transpose, shapes that cross a cache tile in each dimension (rows > 64 and 128, depth
  // > 512 and not a multiple of 4, columns past 16/32/64-column blocks) and a broadcast batch.
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1}, {7, 5, 33}, {130, 70, 517}, {9, 97, 1030}})
    matMul(ACL_INT8, ACL_INT32, m, n, k, -128.49, 127.49);
  // GEMM's epilogue computed by the ukernels (scaled mode): s8 with alpha = 3, beta = -2 over
  // the byte range, shapes crossing the VNNI panels (depth > 512 just in time, > 2048 packed
  // ahead with a 2 MiB L2: C scaled by the first depth chunk, added to by the others); and f32
  // with beta = 0 and NaN in c, which must not be read (BLAS's rule), also through the float
  // ukernel's depth chunks (depth > 256, or > 1024 with a 2 MiB L2), its few-rows path and its
  // in-place path.
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1}, {7, 5, 33}, {130, 70, 517}, {300, 40, 1030},
                         {300, 40, 2100}}) {
    HostTensor alpha(ACL_INT32, {}), beta(ACL_INT32, {});
    alpha.set(0, 3);
    beta.set(0, -2);
    Case c{"GEMM",
           {randomTensor(ACL_INT8, {m, k}, 26, -128.49, 127.49), randomTensor(ACL_INT8, {k, n}, 27, -128.49, 127.49),
            randomTensor(ACL_INT32, {m, n}, 28, -1e6, 1e6), alpha, beta},
           nullptr, HostTensor(ACL_INT32, {m, n}),
           [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
             return in[3].at(0) * product(in[0], in[1], false, false, 0, index[0], index[1]) +
                    in[4].at(0) * in[2].at(ravel(index, in[2].shape));
           }};
    check(c);
  }
  // NaN in C with beta 0: the ukernel's few-rows, in-place and packed paths (130 x 70 x 1100:
  // two depth chunks with a 2 MiB L2), and generated register tiles with the epilogue fused into
  // them (16 x 64 x 40: 8 rows; 32 x 128 x 288: 12 rows, then 8 split off). A and B hold
  // multiples of 1/8, so every sum is exact and the tolerance need not grow with the depth.
  auto eighths = [](HostTensor t) {
    for (int64_t i = 0; i < t.count(); ++i) t.set(i, std::round(t.at(i) * 8) / 8);
    return t;
  };
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{3, 37, 50}, {13, 37, 50}, {130, 70, 300}, {130, 70, 1100},
                         {16, 64, 40}, {32, 128, 288}}) {
    HostTensor alpha(ACL_FLOAT, {}), beta(ACL_FLOAT, {}), nan(ACL_FLOAT, {m, n});
    alpha.set(0, 0.5);
    for (int64_t i = 0; i < nan.count(); ++i) nan.set(i, std::nan(""));
    Case c{"GEMM",
           {eighths(randomTensor(ACL_FLOAT, {m, k}, 29)), eighths(randomTensor(ACL_FLOAT, {k, n}, 30)), nan, alpha, beta},
           nullptr, HostTensor(ACL_FLOAT, {m, n}),
           [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
             return in[3].at(0) * product(in[0], in[1], false, false, 0, index[0], index[1]);
           }};
    check(c);
  }
  Case batchedBytes{"BatchMatMul",
                    {randomTensor(ACL_INT8, {3, 300, 70}, 24, -128.49, 127.49),
                     randomTensor(ACL_INT8, {1, 70, 40}, 25, -128.49, 127.49)},
                    nullptr, HostTensor(ACL_INT32, {3, 300, 40}),
                    [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                      return product(in[0], in[1], false, false, index[0], index[1], index[2]);
                    }};
  check(batchedBytes);
  printf("matrix products: %d cases\n", checked_);
}

// aclblasGemmEx against Eigen (an independent GEMM): op(A) op(B) scaled by alpha plus beta C,
// with op(A), op(B) uniform in [-1, 1] and C in [-1, 1] (NaN when beta = 0: BLAS does not read
// C then). The bound is the f32 accumulation error: 2 k eps (|op(A)| |op(B)|)_ij plus |beta c|
// eps, plus an f16 result's rounding. In low precision (computeType) f16 and f32 inputs are
// rounded to bf16 before their products: Eigen multiplies the rounded values (toBf16, the test's own
// round-to-nearest-even), and the results must lie far closer to that than to the exact product
// (the bound grows with k, the rounding's error only with its square root: a kernel that did not
// round would pass the bound at large k, not this).
void checkGemmAgainstEigen(aclDataType inputType, aclDataType outputType, int m, int n, int k, bool ta, bool tb,
                           float alphaValue, float betaValue, aclrtStream stream,
                           aclComputeType computeType = ACL_COMPUTE_HIGH_PRECISION) {
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  SCOPED_TRACE(testing::Message() << inputType << " -> " << outputType << " " << m << "x" << n << "x" << k << " " << ta
                                  << tb << " alpha " << alphaValue << " beta " << betaValue << " compute "
                                  << computeType);
  const bool roundsToBf16 =
      computeType == ACL_COMPUTE_LOW_PRECISION && (inputType == ACL_FLOAT16 || inputType == ACL_FLOAT);
  HostTensor a = randomTensor(inputType, ta ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k}, 31, -1, 1);
  HostTensor b = randomTensor(inputType, tb ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n}, 32, -1, 1);
  HostTensor c = randomTensor(outputType, {m, n}, 33, -1, 1);
  if (betaValue == 0)
    for (int64_t i = 0; i < c.count(); ++i) c.set(i, std::nan(""));
  HostTensor alpha(outputType, {}), beta(outputType, {});
  alpha.set(0, alphaValue);
  beta.set(0, betaValue);
  auto toEigen = [](const HostTensor &t) {
    Matrix matrix(t.shape[0], t.shape[1]);
    for (int64_t i = 0; i < t.count(); ++i) matrix.data()[i] = static_cast<float>(t.at(i));
    return matrix;
  };
  Matrix ea = toEigen(a), eb = toEigen(b), ec = betaValue == 0 ? Matrix::Zero(m, n) : toEigen(c);
  Matrix opA = ta ? Matrix(ea.transpose()) : ea, opB = tb ? Matrix(eb.transpose()) : eb;
  const Matrix exact = alphaValue * opA * opB + betaValue * ec;
  if (roundsToBf16) {
    auto round = [](float x) { return fromBf16(toBf16(x)); };
    opA = opA.unaryExpr(round);
    opB = opB.unaryExpr(round);
  }
  Matrix expected = alphaValue * opA * opB + betaValue * ec;
  float resultEps = outputType == ACL_FLOAT16 ? 9.8e-4f : 0.0f;  // an f16 result's rounding, relative
  Matrix bound = 2.0f * k * 1.2e-7f * std::fabs(alphaValue) * (opA.cwiseAbs() * opB.cwiseAbs()) +
                 Matrix::Constant(m, n, 1.2e-7f * std::fabs(betaValue)).cwiseProduct(ec.cwiseAbs()) +
                 resultEps * expected.cwiseAbs() + Matrix::Constant(m, n, 1e-6f);
  void *da = nullptr, *db = nullptr, *dc = nullptr, *dAlpha = nullptr, *dBeta = nullptr;
  for (auto [device, host] : {std::pair{&da, &a}, std::pair{&db, &b}, std::pair{&dc, &c}, std::pair{&dAlpha, &alpha},
                              std::pair{&dBeta, &beta}}) {
    size_t bytes = std::max<size_t>(host->byteSize(), 1);
    ASSERT_EQ(aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(*device, bytes, host->bytes.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  ASSERT_EQ(aclblasGemmEx(ta ? ACL_TRANS_T : ACL_TRANS_N, tb ? ACL_TRANS_T : ACL_TRANS_N, ACL_TRANS_N, m, n, k, dAlpha,
                          da, -1, inputType, db, -1, inputType, dBeta, dc, -1, outputType, computeType, stream),
            ACL_SUCCESS)
      << recentError();
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  HostTensor result(outputType, {m, n});
  if (result.byteSize() > 0) {
    ASSERT_EQ(aclrtMemcpy(result.bytes.data(), result.byteSize(), dc, c.byteSize(), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
  }
  Matrix actual = toEigen(result);
  double fromExpected = 0, fromExact = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      ASSERT_LE(std::fabs(actual(i, j) - expected(i, j)), bound(i, j))
          << i << "," << j << ": " << actual(i, j) << " vs Eigen " << expected(i, j);
      fromExpected += std::fabs(actual(i, j) - expected(i, j));
      fromExact += std::fabs(actual(i, j) - exact(i, j));
    }
  if (roundsToBf16 && int64_t{m} * n >= 16 && k >= 8) {
    EXPECT_LT(fromExpected, 0.1 * fromExact) << "the inputs were not rounded to bf16";
  }
  for (void *p : {da, db, dc, dAlpha, dBeta}) aclrtFree(p);
}

struct GemmSize {
  int m, n, k;
};

// checkGemmAgainstEigen over f32, f16 and bf16 inputs, every transpose and `sizes`, alpha = 1.25,
// beta = -0.75; false after a fatal failure. Counts the cases in `checked`.
bool checkGemmSizesAgainstEigen(std::initializer_list<GemmSize> sizes, aclrtStream stream, int &checked) {
  for (aclDataType inputType : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16})
    for (GemmSize size : sizes)
      for (bool ta : {false, true})
        for (bool tb : {false, true}) {
          checkGemmAgainstEigen(inputType, ACL_FLOAT, size.m, size.n, size.k, ta, tb, 1.25f, -0.75f, stream);
          if (testing::Test::HasFatalFailure()) return false;
          ++checked;
        }
  return true;
}

// Odd and larger sizes. 1000x100 runs on several blocks whose row boundaries are not multiples of
// the row tile; 140x530x300 crosses each of the float ukernel's panels where L2 is under 2 MiB
// (132-row chunks, 512 columns, 256 deep); where L2 is larger, 5x1100x4000 (one row tile),
// 17x530x700 (two, of 9 and 8 rows) and 41x600x1100 (four) take the streamed path for up to 48 rows
// (B read in place, in pieces resumed within each depth chunk: f32 128 deep across all the columns,
// a ragged last micro-panel; bf16 pairs 128 deep across 512-column panels, a ragged last one, the
// first tile's pairs kept for the second), and 140x40x4200 has two depth chunks (2100 deep each, B
// packed ahead for two bands: C scaled by the first chunk, added to by the second); 704x64x48 takes
// the f32 ukernel for whole register tiles past 640, 3x37x50 its few-rows path (B unpacked,
// 16-column vectors then a scalar tail, depth in eights then a ragged two), and 45x70x33 its
// in-place path (A and B unpacked, ragged rows and columns); f32 64x64x64, 264x128x72 (two blocks,
// split at a multiple of 8 rows) and 520x96x400 (12-row tiles, 4 rows split off, three blocks) take
// generated register tiles with the epilogue fused in when B is (k, n). 100x600x2048 is one band
// whose rows of A lie a whole number of 4 KiB apart: A is packed, each depth chunk once, and kept
// for the column panels after the first (f32: four chunks, three panels; A transposed or widened,
// packed anyway, too); with B untransposed, each chunk's tiles pack the next chunk's whole
// micro-panels of B as they run, and the ragged one after them.
TEST_F(Conformance, GemmAgainstEigen) {
  if (!checkGemmSizesAgainstEigen({{1, 1, 1}, {64, 64, 64}, {127, 65, 300}, {256, 192, 256}, {1000, 100, 70},
                                   {140, 530, 300}, {5, 1100, 4000}, {17, 530, 700}, {41, 600, 1100}, {140, 40, 4200},
                                   {704, 64, 48}, {3, 37, 50}, {45, 70, 33}, {264, 128, 72}, {520, 96, 400},
                                   {100, 600, 2048}},
                                  first_, checked_))
    return;
  printf("GEMM against Eigen: %d cases\n", checked_);
}

// aclblasGemmEx in low precision (ACL_COMPUTE_LOW_PRECISION): f16 and f32 inputs rounded to bf16,
// then multiplied as bf16 pairs (the f16 and f32 pair ukernels where the CPU has AVX512-BF16,
// generated code rounding as written elsewhere). Every path of those: one band packing B during its tiles
// (100x600x2048, rows of A 4 KiB apart), several bands with B packed ahead (1000x100x70,
// 140x530x300), three or four rows over B in L2 on several micro-panels at once (3x37x50), one
// or two rows, or B past L2, streaming B's rows rounded (2x300x64, 3x600x1100, 1x4096x4096: from
// memory, fetching each pass's next rows), rows that would stream B in bf16 (17x530x700), an odd
// depth (45x70x33, 127x65x301), ragged everything, each transpose (a transposed operand is
// rounded into scratch, then packed); an f16 result; empty dims. bf16 inputs compute as in high
// precision (they are bf16 already).
TEST_F(Conformance, GemmLowPrecisionAgainstEigen) {
  for (GemmSize size : std::initializer_list<GemmSize>{{1, 1, 1}, {64, 64, 64}, {127, 65, 301}, {1000, 100, 70},
                                                       {140, 530, 300}, {3, 37, 50}, {2, 300, 64}, {3, 600, 1100},
                                                       {1, 4096, 4096}, {17, 530, 700}, {45, 70, 33},
                                                       {100, 600, 2048}, {5, 5, 0}, {0, 5, 5}})
    for (aclDataType input : {ACL_FLOAT16, ACL_FLOAT})
      for (bool ta : {false, true})
        for (bool tb : {false, true}) {
          checkGemmAgainstEigen(input, ACL_FLOAT, size.m, size.n, size.k, ta, tb, 1.25f, -0.75f, first_,
                                ACL_COMPUTE_LOW_PRECISION);
          if (HasFatalFailure()) return;
          ++checked_;
        }
  for (auto [input, output] : {std::pair{ACL_FLOAT16, ACL_FLOAT16}, std::pair{ACL_BF16, ACL_FLOAT}}) {
    checkGemmAgainstEigen(input, output, 130, 70, 300, false, false, 1.0f, 0.0f, first_, ACL_COMPUTE_LOW_PRECISION);
    if (HasFatalFailure()) return;
    ++checked_;
  }
  printf("GEMM in low precision against Eigen: %d cases\n", checked_);
}

// A GEMM with an empty dim: no output (m or n of 0), or a depth of 0, whose C is beta C alone.
// Generated register tiles and the ukernel's sizes alike; tiling a static 0 crashed the
// compiler (m, n or k of 0 at 5x5x5).
TEST_F(Conformance, GemmWithAnEmptyDim) {
  if (!checkGemmSizesAgainstEigen({{0, 5, 5}, {5, 0, 5}, {5, 5, 0}, {0, 0, 0}, {0, 64, 64}, {64, 64, 0},
                                   {300, 200, 0}, {3, 37, 0}},
                                  first_, checked_))
    return;
  printf("GEMM with an empty dim: %d cases\n", checked_);
}

// The scalings GEMM's epilogue treats apart, on generated register tiles (64^3, two blocks of
// 264x128x72, 12-row tiles of 520x96x400; f16 and bf16 on widened panels; an f16 result) and on
// the f32 ukernel (NT): alpha = 1 and beta = 0 stores the accumulator alone
// (aclop-version-gemm-epilogue); beta = 0 with alpha = 2, and alpha = 1 with beta = 0.5, take
// the full epilogue. C holds NaN where beta = 0.
TEST_F(Conformance, GemmScalings) {
  struct Shape {
    aclDataType input, output;
    int m, n, k;
    bool tb;
  };
  for (Shape shape : {Shape{ACL_FLOAT, ACL_FLOAT, 64, 64, 64, false}, Shape{ACL_FLOAT, ACL_FLOAT, 264, 128, 72, false},
                      Shape{ACL_FLOAT, ACL_FLOAT, 520, 96, 400, false}, Shape{ACL_FLOAT16, ACL_FLOAT, 64, 64, 64, false},
                      Shape{ACL_BF16, ACL_FLOAT, 64, 64, 64, false}, Shape{ACL_FLOAT16, ACL_FLOAT16, 64, 64, 64, false},
                      Shape{ACL_FLOAT, ACL_FLOAT, 64, 64, 64, true}})
    for (auto [alpha, beta] : {std::pair{1.0f, 0.0f}, std::pair{2.0f, 0.0f}, std::pair{1.0f, 0.5f}}) {
      checkGemmAgainstEigen(shape.input, shape.output, shape.m, shape.n, shape.k, false, shape.tb, alpha, beta, first_);
      if (HasFatalFailure()) return;
      ++checked_;
    }
  printf("GEMM scalings: %d cases\n", checked_);
}

enum class ReductionKind { Sum, Max, Min, Prod, Mean };
struct Reduction {
  const char *type;
  ReductionKind kind;
};
constexpr Reduction kReductions[] = {{"ReduceSumD", ReductionKind::Sum}, {"ReduceMaxD", ReductionKind::Max},
                                     {"ReduceMeanD", ReductionKind::Mean}, {"ReduceMin", ReductionKind::Min},
                                     {"ReduceProdD", ReductionKind::Prod}};

// Whether `op` is checked on `type`: means of floats only, u8 only ordered (no wrapping sums).
bool reducesType(Reduction op, aclDataType type) {
  if (op.kind == ReductionKind::Mean && !isFloatType(type)) return false;
  return type != ACL_UINT8 || op.kind == ReductionKind::Max || op.kind == ReductionKind::Min;
}

// `op` over `axes` of a random tensor of `shape`, against a plain loop over every element of the
// input for each output element. Products of up to 33 factors stay in range with factors in
// [-1.4, 1.4] (-1, 0, 1 as integers); longer products get smaller and smaller, which the
// tolerance's absolute part takes.
Case reductionCase(Reduction op, aclDataType type, std::vector<int64_t> shape, std::vector<int64_t> axes, bool keep) {
  using Kind = ReductionKind;
  const int64_t rank = int64_t(shape.size());
  double lo = type == ACL_UINT8 ? 0 : op.kind == Kind::Prod ? -1.4 : -2, hi = type == ACL_UINT8 ? 255 : -lo;
  auto reduced = [axes, rank](int64_t d) {
    for (int64_t a : axes) if ((a < 0 ? a + rank : a) == d) return true;
    return false;
  };
  std::vector<int64_t> out;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced(d)) out.push_back(shape[d]);
    else if (keep) out.push_back(1);
  }
  return Case{op.type, {randomTensor(type, shape, 14, lo, hi)},
              [axes, keep](aclopAttr *attr) {
                aclopSetAttrListInt(attr, "axes", int(axes.size()), axes.data());
                aclopSetAttrBool(attr, "keep_dims", keep);
              },
              HostTensor(type, out),
              [op, shape, rank, reduced, keep](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                double acc = op.kind == Kind::Max    ? -1e300
                             : op.kind == Kind::Min  ? 1e300
                             : op.kind == Kind::Prod ? 1
                                                     : 0;
                int64_t count = 0;
                for (int64_t flat = 0; flat < in[0].count(); ++flat) {
                  auto full = unravel(flat, shape);
                  size_t next = 0;
                  bool inGroup = true;
                  for (int64_t d = 0; d < rank; ++d) {
                    if (reduced(d)) { next += keep; continue; }
                    inGroup &= full[d] == index[next++];
                  }
                  if (!inGroup) continue;
                  double v = in[0].at(flat);
                  acc = op.kind == Kind::Max ? std::max(acc, v) : op.kind == Kind::Min ? std::min(acc, v)
                        : op.kind == Kind::Prod ? acc * v : acc + v;
                  ++count;
                }
                return op.kind == Kind::Mean ? acc / count : acc;
              }};
}

TEST_F(Conformance, ReductionsSoftmaxTranspose) {
  for (Reduction op : kReductions)
    for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_UINT8}) {
      if (!reducesType(op, type)) continue;
      for (std::vector<int64_t> axes : {std::vector<int64_t>{1}, std::vector<int64_t>{0, 2}, std::vector<int64_t>{-1}})
        for (bool keep : {false, true}) check(reductionCase(op, type, {5, 33, 4}, axes, keep));
    }
  for (aclDataType type : kFloats)
    for (int64_t axis : {-1, 0})
      for (bool log : {false, true}) {
        // LogSoftmaxV2 on values up to 40: exp would overflow f16 without the max subtracted.
        double range = log ? 40 : 4;
        Case c{log ? "LogSoftmaxV2" : "SoftmaxV2", {randomTensor(type, {6, 45}, 15, -range, range)},
               [axis](aclopAttr *attr) { aclopSetAttrListInt(attr, "axes", 1, &axis); }, HostTensor(type, {6, 45}),
               [axis, log](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 auto value = [&](int64_t j) { return axis == 0 ? in[0].at(j * 45 + index[1]) : in[0].at(index[0] * 45 + j); };
                 int64_t n = axis == 0 ? 6 : 45;
                 double max = -1e300, sum = 0;
                 for (int64_t j = 0; j < n; ++j) max = std::max(max, value(j));
                 for (int64_t j = 0; j < n; ++j) sum += std::exp(value(j) - max);
                 double x = in[0].at(ravel(index, in[0].shape));
                 return log ? x - max - std::log(sum) : std::exp(x - max) / sum;
               }};
        check(c);
      }
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_BOOL, ACL_INT8})
    for (std::vector<int64_t> perm : {std::vector<int64_t>{1, 0, 2}, std::vector<int64_t>{2, 0, 1}}) {
      std::vector<int64_t> shape = {3, 4, 5}, out;
      for (int64_t p : perm) out.push_back(shape[p]);
      Case c{"TransposeD", {randomTensor(type, shape, 16)},
             [perm](aclopAttr *attr) { aclopSetAttrListInt(attr, "perm", int(perm.size()), perm.data()); },
             HostTensor(type, out),
             [perm, shape](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
               std::vector<int64_t> source(3);
               for (size_t i = 0; i < 3; ++i) source[perm[i]] = index[i];
               return in[0].at(ravel(source, shape));
             }};
      check(c);
    }
  printf("reductions, softmax, transpose: %d cases\n", checked_);
}

// Transposes whose input is contiguous along another dim than the output's: V x V tiles read V
// rows and transpose them in registers, in 64 x 64 blocks where both dims divide, a ragged
// innermost dim split off, and a dim vectors do not divide left to gathers; every element type's
// vector length (V = 8 f32 lanes on AVX2, 32 of bytes).
TEST_F(Conformance, TransposesInTiles) {
  struct Transpose {
    std::vector<int64_t> shape, perm;
  };
  for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8, ACL_BOOL, ACL_DOUBLE})
    for (const Transpose &t : {Transpose{{128, 192}, {1, 0}}, Transpose{{3, 64, 200}, {0, 2, 1}},
                               Transpose{{40, 72}, {1, 0}}, Transpose{{37, 24}, {1, 0}}, Transpose{{24, 37}, {1, 0}},
                               Transpose{{2, 32, 3, 64}, {0, 3, 2, 1}}, Transpose{{64, 2, 64}, {2, 1, 0}}}) {
      std::vector<int64_t> out;
      for (int64_t p : t.perm) out.push_back(t.shape[p]);
      Case c{"TransposeD", {randomTensor(type, t.shape, 17)},
             [perm = t.perm](aclopAttr *attr) { aclopSetAttrListInt(attr, "perm", int(perm.size()), perm.data()); },
             HostTensor(type, out),
             [t](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
               std::vector<int64_t> source(t.shape.size());
               for (size_t i = 0; i < source.size(); ++i) source[t.perm[i]] = index[i];
               return in[0].at(ravel(source, t.shape));
             }};
      check(c);
    }
  printf("transposes in tiles: %d cases\n", checked_);
}

// Reductions along short rows (trailing dims whose product is at most 16 vectors), each row read
// as one vector and reduced across lanes: global average pooling's 7x7 planes, rows of 49 and of
// three dims, 128 elements (16 vectors of f32 on AVX2) and 129 (past that: left to LLVM), rows
// of 2, and a kept dim of one element.
TEST_F(Conformance, ReductionsAlongShortRows) {
  struct Rows {
    std::vector<int64_t> shape, axes;
  };
  for (const Rows &rows : {Rows{{3, 10, 7, 7}, {2, 3}}, Rows{{6, 49}, {-1}}, Rows{{2, 5, 3, 2}, {1, 2, 3}},
                           Rows{{4, 128}, {1}}, Rows{{3, 129}, {1}}, Rows{{9, 2}, {1}}, Rows{{1, 7, 7}, {1, 2}}})
    for (Reduction op : kReductions)
      for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8, ACL_UINT8}) {
        const bool ordered = op.kind == ReductionKind::Max || op.kind == ReductionKind::Min;
        if (!reducesType(op, type) || (type == ACL_INT8 && !ordered)) continue;  // i8 sums would wrap
        for (bool keep : {false, true}) {
          check(reductionCase(op, type, rows.shape, rows.axes, keep));
          if (HasFatalFailure()) return;
        }
      }
  printf("reductions along short rows: %d cases\n", checked_);
}

// Reductions over leading dims into at least a vector's worth of trailing ones, read a row at a
// time into a row of accumulators (SelectStrategy's `streamed_rows`): whole vectors (64 columns),
// a ragged row (100: 6 vectors of 16 and 4 on AVX-512, 12 of 8 and 4 on AVX2), two leading dims
// reduced over a row of 37, NHWC's global sum and maximum over h and w, a leading dim reduced
// into 6 rows of 40 (rows a plane apart), one row, and kept dims LLVM's loops still take:
// 5 x 8 after the reduced dim (a last dim under 16), a row of 3. keep_dims (a reshape of the same
// result) on the first shape.
TEST_F(Conformance, ReductionsOverLeadingDims) {
  struct Rows {
    std::vector<int64_t> shape, axes;
  };
  for (const Rows &rows : {Rows{{37, 64}, {0}}, Rows{{9, 100}, {0}}, Rows{{3, 4, 37}, {0, 1}},
                           Rows{{2, 3, 5, 40}, {1, 2}}, Rows{{5, 6, 40}, {0}}, Rows{{1, 48}, {0}}, Rows{{7, 5, 8}, {0}},
                           Rows{{6, 3}, {0}}})
    for (Reduction op : kReductions)
      for (aclDataType type : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT8, ACL_UINT8}) {
        const bool ordered = op.kind == ReductionKind::Max || op.kind == ReductionKind::Min;
        if (!reducesType(op, type) || (type == ACL_INT8 && !ordered)) continue;  // i8 sums would wrap
        for (bool keep : {false, true}) {
          if (keep && rows.shape != std::vector<int64_t>{37, 64}) continue;
          check(reductionCase(op, type, rows.shape, rows.axes, keep));
          if (HasFatalFailure()) return;
        }
      }
  printf("reductions over leading dims: %d cases\n", checked_);
}

// A NaN wins every maximum and minimum (IEEE 754-2019 maximum / minimum, llvm.maximum's
// semantics): along the last axis, where the reduction is carried in vector registers, along the
// first, where a row of accumulators is updated in memory, element-wise, and in max pooling.
TEST_F(Conformance, MaxAndMinPropagateNaN) {
  const double nan = std::nan("");
  auto withNaNs = [&](HostTensor t, std::vector<int64_t> at) {
    for (int64_t i : at) t.set(i, nan);
    return t;
  };
  const std::vector<int64_t> shape = {37, 64};
  HostTensor x = withNaNs(randomTensor(ACL_FLOAT, shape, 31), {5, 64 * 20 + 63, 64 * 36 + 7});
  for (const char *op : {"ReduceMaxD", "ReduceMin"})
    for (int64_t axis : {0, 1}) {
      Reference reference = [op, axis, shape](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
        bool max = std::string(op) == "ReduceMaxD";
        double best = max ? -INFINITY : INFINITY;
        for (int64_t k = 0; k < shape[axis]; ++k) {
          double v = in[0].at(axis == 0 ? k * shape[1] + index[0] : index[0] * shape[1] + k);
          if (std::isnan(v)) return v;
          best = max ? std::max(best, v) : std::min(best, v);
        }
        return best;
      };
      check(Case{op, {x},
                 [axis](aclopAttr *attr) {
                   aclopSetAttrListInt(attr, "axes", 1, &axis);
                   aclopSetAttrBool(attr, "keep_dims", false);
                 },
                 HostTensor(ACL_FLOAT, {shape[1 - axis]}), reference});
    }
  HostTensor y = withNaNs(randomTensor(ACL_FLOAT, shape, 32), {6, 100, 64 * 30});
  for (const char *op : {"Maximum", "Minimum"})
    check(Case{op, {x, y}, nullptr, HostTensor(ACL_FLOAT, shape),
               [op](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
                 double a = in[0].at(index[0] * 64 + index[1]), b = in[1].at(index[0] * 64 + index[1]);
                 if (std::isnan(a) || std::isnan(b)) return std::nan("");
                 return std::string(op) == "Maximum" ? std::max(a, b) : std::min(a, b);
               }});
  // 2x2 windows, stride 2, over a 1x8x8x64 NHWC input: the NaNs at (0, 5) and (3, 4) rule theirs.
  HostTensor image = withNaNs(randomTensor(ACL_FLOAT, {1, 8, 8, 64}, 33), {5 * 64 + 9, (3 * 8 + 4) * 64 + 63});
  check(Case{"MaxPool", {image},
             [](aclopAttr *attr) {
               int64_t ksize[] = {1, 2, 2, 1};
               aclopSetAttrListInt(attr, "ksize", 4, ksize);
               aclopSetAttrListInt(attr, "strides", 4, ksize);
               aclopSetAttrString(attr, "padding", "VALID");
             },
             HostTensor(ACL_FLOAT, {1, 4, 4, 64}),
             [](const std::vector<HostTensor> &in, const std::vector<int64_t> &index) {
               double best = -INFINITY;
               for (int64_t i = 0; i < 2; ++i)
                 for (int64_t j = 0; j < 2; ++j) {
                   double v = in[0].at(((index[1] * 2 + i) * 8 + index[2] * 2 + j) * 64 + index[3]);
                   if (std::isnan(v)) return v;
                   best = std::max(best, v);
                 }
               return best;
             }});
}

}  // namespace
