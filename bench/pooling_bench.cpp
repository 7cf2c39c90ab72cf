// Pooling on one core through handles, side by side (paired_runs.h) with a plain loop of the
// same pooling (built for the host's widest vectors: GCC's target_clones on x86-64) and with
// memcpy moving the same bytes. Figures are GB/s of traffic: the input read once plus the
// output written.
#include "bench_support.h"

#include "acl/acl_op.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace aclcpu_bench;

constexpr int kPairedRounds = 15;

struct PoolCase {
  const char *name, *op;
  bool nhwc, average, global;
  int64_t n, c, h, w;  // the input
  int64_t window, stride;
  const char *padding;  // SAME or VALID (TensorFlow's); global pooling takes the whole plane
  int64_t outSize(int64_t in) const {
    if (global) return 1;
    return std::string(padding) == "SAME" ? (in + stride - 1) / stride : (in - window) / stride + 1;
  }
  int64_t padBefore(int64_t in) const {
    if (global || std::string(padding) != "SAME") return 0;
    return std::max<int64_t>((outSize(in) - 1) * stride + window - in, 0) / 2;
  }
  std::vector<int64_t> dims(int64_t height, int64_t width) const {
    return nhwc ? std::vector<int64_t>{n, height, width, c} : std::vector<int64_t>{n, c, height, width};
  }
  double traffic() const { return 4.0 * double(n * c) * double(h * w + outSize(h) * outSize(w)); }
};

const std::vector<PoolCase> &poolCases() {
  static const std::vector<PoolCase> cases = {
      {"MaxPool 3x3/2 SAME NHWC 8x112x112x64 f32 (ResNet stem)", "MaxPool", true, false, false, 8, 64, 112, 112, 3, 2,
       "SAME"},
      {"AvgPool 3x3/2 SAME NHWC 8x56x56x128 f32", "AvgPool", true, true, false, 8, 128, 56, 56, 3, 2, "SAME"},
      {"MaxPool 2x2/2 VALID NCHW 8x64x112x112 f32", "MaxPool", false, false, false, 8, 64, 112, 112, 2, 2, "VALID"},
      {"AvgPoolV2 global NCHW 32x2048x7x7 f32 (ResNet head)", "AvgPoolV2", false, true, true, 32, 2048, 7, 7, 7, 1,
       "VALID"},
      {"AvgPoolV2 global NCHW 1x2048x7x7 f32 (ResNet head, one image)", "AvgPoolV2", false, true, true, 1, 2048, 7, 7, 7,
       1, "VALID"},
      {"MaxPoolV3 global NCHW 32x2048x7x7 f32", "MaxPoolV3", false, false, true, 32, 2048, 7, 7, 7, 1, "VALID"},
      {"AvgPoolV2 global NHWC 32x7x7x2048 f32 (ResNet head, TensorFlow's layout)", "AvgPoolV2", true, true, true, 32, 2048,
       7, 7, 7, 1, "VALID"},
  };
  return cases;
}

// The plain loop: NHWC keeps channels innermost, so each window position updates a row of C
// outputs (vectorized by the compiler); NCHW walks each plane's windows. Averages exclude the
// padding, as TensorFlow's do.
ACLCPU_WIDEST_VECTORS
void poolByHand(const PoolCase &p, const float *in, float *out) {
  const int64_t oh = p.outSize(p.h), ow = p.outSize(p.w), top = p.padBefore(p.h), left = p.padBefore(p.w);
  const int64_t kh = p.global ? p.h : p.window, kw = p.global ? p.w : p.window, stride = p.global ? 1 : p.stride;
  const float start = p.average ? 0.0f : -std::numeric_limits<float>::infinity();
  for (int64_t n = 0; n < p.n; ++n) {
    if (p.nhwc) {
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t x = 0; x < ow; ++x) {
          float *o = out + ((n * oh + y) * ow + x) * p.c;
          std::fill(o, o + p.c, start);
          int64_t inside = 0;
          for (int64_t i = 0; i < kh; ++i)
            for (int64_t j = 0; j < kw; ++j) {
              int64_t row = y * stride + i - top, col = x * stride + j - left;
              if (row < 0 || row >= p.h || col < 0 || col >= p.w) continue;
              const float *v = in + ((n * p.h + row) * p.w + col) * p.c;
              ++inside;
              if (p.average)
                for (int64_t c = 0; c < p.c; ++c) o[c] += v[c];
              else
                for (int64_t c = 0; c < p.c; ++c) o[c] = std::max(o[c], v[c]);
            }
          if (p.average)
            for (int64_t c = 0; c < p.c; ++c) o[c] /= float(inside);
        }
      continue;
    }
    for (int64_t c = 0; c < p.c; ++c) {
      const float *plane = in + (n * p.c + c) * p.h * p.w;
      float *o = out + (n * p.c + c) * oh * ow;
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t x = 0; x < ow; ++x) {
          float acc = start;
          int64_t inside = 0;
          for (int64_t i = 0; i < kh; ++i)
            for (int64_t j = 0; j < kw; ++j) {
              int64_t row = y * stride + i - top, col = x * stride + j - left;
              if (row < 0 || row >= p.h || col < 0 || col >= p.w) continue;
              float v = plane[row * p.w + col];
              acc = p.average ? acc + v : std::max(acc, v);
              ++inside;
            }
          o[y * ow + x] = p.average ? acc / float(inside) : acc;
        }
    }
  }
}

class PoolRun : public HandleContender {
 public:
  PoolRun(const Runtime &runtime, const PoolCase &p)
      : HandleContender(runtime), in_(ACL_FLOAT, p.dims(p.h, p.w), 4), out_(ACL_FLOAT, p.dims(p.outSize(p.h), p.outSize(p.w)), 4) {
    aclopAttr *attr = aclopCreateAttr();
    std::vector<int64_t> ksize = p.nhwc ? std::vector<int64_t>{1, p.window, p.window, 1}
                                        : std::vector<int64_t>{1, 1, p.window, p.window};
    std::vector<int64_t> strides = p.nhwc ? std::vector<int64_t>{1, p.stride, p.stride, 1}
                                          : std::vector<int64_t>{1, 1, p.stride, p.stride};
    aclopSetAttrListInt(attr, "ksize", 4, ksize.data());
    aclopSetAttrListInt(attr, "strides", 4, strides.data());
    aclopSetAttrString(attr, p.global ? "padding_mode" : "padding", p.padding);
    aclopSetAttrString(attr, "data_format", p.nhwc ? "NHWC" : "NCHW");
    if (p.global) aclopSetAttrBool(attr, "global_pooling", true);
    compileAndBind(p.op, {in_.desc}, out_.desc, {in_.buffer}, out_.buffer, attr);
    aclopDestroyAttr(attr);
    label = p.name;
  }

 private:
  Tensor in_, out_;
};

class HandLoopRun : public Contender {
 public:
  explicit HandLoopRun(const PoolCase &p)
      : Contender("plain loop"), case_(p), in_(ACL_FLOAT, p.dims(p.h, p.w), 4),
        out_(ACL_FLOAT, p.dims(p.outSize(p.h), p.outSize(p.w)), 4) {}
  bool call() override {
    poolByHand(case_, static_cast<const float *>(in_.device), static_cast<float *>(out_.device));
    benchmark::ClobberMemory();
    return true;
  }

 private:
  PoolCase case_;
  Tensor in_, out_;
};

void BM_PairedPooling(benchmark::State &state) {
  const PoolCase &p = poolCases()[state.range(0)];
  Runtime runtime;
  std::vector<std::unique_ptr<Contender>> contenders;
  contenders.push_back(std::make_unique<PoolRun>(runtime, p));
  contenders.push_back(std::make_unique<HandLoopRun>(p));
  contenders.push_back(std::make_unique<MemcpyRun>(size_t(p.traffic()) / 2));
  aclcpu_bench::runPaired(state, contenders, p.traffic(), "GB/s");
}
BENCHMARK(BM_PairedPooling)->DenseRange(0, 6)->Iterations(kPairedRounds)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
