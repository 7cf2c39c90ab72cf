// Conv2D on one core through handles, side by side (paired_runs.h) with the two CPU baselines a
// CNN framework would otherwise call: im2col + OpenBLAS's sgemm (Caffe's scheme, the patch
// matrix rebuilt on every call) and, where Debian's libdnnl-dev is installed, oneDNN's own
// convolution primitive on plain (not blocked) layouts. Depthwise convolutions, which no GEMM
// serves, run beside oneDNN and a plain loop instead. Figures are GFLOP/s (2 per multiply-add
// of the direct convolution). Part of op_bench, whose main() puts OpenBLAS and oneDNN on one
// core.
#include "bench_support.h"

#include "acl/acl_op.h"

#include <benchmark/benchmark.h>
#include <cblas.h>

#ifdef ACLCPU_HAVE_ONEDNN
#include <dnnl.hpp>
#endif

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

extern "C" void openblas_set_num_threads(int);

namespace {

using namespace aclcpu_bench;

constexpr int kPairedRounds = 15;

// Batch 1, f32, a bias where `bias` says. NHWC data takes an HWCN filter (TensorFlow's); NCHW
// data an NCHW (OIHW) one.
struct ConvCase {
  const char *name;
  bool nhwc;
  int64_t c, h, w, oc, k, stride, pad, groups = 1;
  bool bias = false;
  int64_t oh() const { return (h + 2 * pad - k) / stride + 1; }
  int64_t ow() const { return (w + 2 * pad - k) / stride + 1; }
  std::vector<int64_t> input() const { return nhwc ? std::vector<int64_t>{1, h, w, c} : std::vector<int64_t>{1, c, h, w}; }
  std::vector<int64_t> filter() const {
    return nhwc ? std::vector<int64_t>{k, k, c / groups, oc} : std::vector<int64_t>{oc, c / groups, k, k};
  }
  std::vector<int64_t> output() const {
    return nhwc ? std::vector<int64_t>{1, oh(), ow(), oc} : std::vector<int64_t>{1, oc, oh(), ow()};
  }
  int64_t depth() const { return c / groups * k * k; }  // per output element
  bool depthwise() const { return groups == c && oc == c; }
  double flops() const { return 2.0 * double(oh() * ow()) * double(oc) * double(depth()); }
};

const std::vector<ConvCase> &convCases() {
  static const std::vector<ConvCase> cases = {
      {"Conv2D 3x3/1 NHWC 1x56x56x64 -> 64 f32 (ResNet-50 stage 1)", true, 64, 56, 56, 64, 3, 1, 1},
      {"Conv2D 3x3/1 NCHW 1x64x56x56 -> 64 f32", false, 64, 56, 56, 64, 3, 1, 1},
      {"Conv2D 1x1 NCHW 1x256x56x56 -> 64 f32", false, 256, 56, 56, 64, 1, 1, 0},
      {"Conv2D 7x7/2 NCHW 1x3x224x224 -> 64 f32 (stem)", false, 3, 224, 224, 64, 7, 2, 3},
      {"Conv2D 3x3/1 NHWC 1x14x14x256 -> 256 f32 (stage 3)", true, 256, 14, 14, 256, 3, 1, 1},
      // MobileNet's depthwise convolutions (groups = channels) and a ResNeXt 32x4d group.
      {"Conv2D depthwise 3x3/1 NHWC 1x112x112x32 f32 (MobileNet)", true, 32, 112, 112, 32, 3, 1, 1, 32},
      {"Conv2D depthwise 3x3/2 NHWC 1x112x112x96 f32 (MobileNetV2)", true, 96, 112, 112, 96, 3, 2, 1, 96},
      {"Conv2D depthwise 3x3/1 NHWC 1x14x14x576 f32 (MobileNetV2)", true, 576, 14, 14, 576, 3, 1, 1, 576},
      {"Conv2D depthwise 3x3/1 NCHW 1x32x112x112 f32", false, 32, 112, 112, 32, 3, 1, 1, 32},
      {"Conv2D 3x3/1 NCHW 1x128x56x56 -> 128 f32, 32 groups (ResNeXt)", false, 128, 56, 56, 128, 3, 1, 1, 32},
      {"Conv2D 3x3/1 NHWC 1x56x56x128 -> 128 f32, 32 groups (ResNeXt)", true, 128, 56, 56, 128, 3, 1, 1, 32},
      // Cases 0 and 2 with a bias, as a framework's convolution layer passes one.
      {"Conv2D 3x3/1 NHWC 1x56x56x64 -> 64 f32 + bias", true, 64, 56, 56, 64, 3, 1, 1, 1, true},
      {"Conv2D 1x1 NCHW 1x256x56x56 -> 64 f32 + bias", false, 256, 56, 56, 64, 1, 1, 0, 1, true},
  };
  return cases;
}

class ConvRun : public HandleContender {
 public:
  ConvRun(const Runtime &runtime, const ConvCase &p, std::string name = "aclcpu")
      : HandleContender(runtime, std::move(name)), in_(ACL_FLOAT, p.input(), 4), filter_(ACL_FLOAT, p.filter(), 4),
        bias_(ACL_FLOAT, {p.oc}, 4), out_(ACL_FLOAT, p.output(), 4) {
    const aclFormat data = p.nhwc ? ACL_FORMAT_NHWC : ACL_FORMAT_NCHW;
    std::vector<int64_t> in = p.input(), filter = p.filter(), out = p.output();
    aclTensorDesc *inDesc = aclCreateTensorDesc(ACL_FLOAT, 4, in.data(), data);
    aclTensorDesc *filterDesc =
        aclCreateTensorDesc(ACL_FLOAT, 4, filter.data(), p.nhwc ? ACL_FORMAT_HWCN : ACL_FORMAT_NCHW);
    aclTensorDesc *outDesc = aclCreateTensorDesc(ACL_FLOAT, 4, out.data(), data);
    aclopAttr *attr = aclopCreateAttr();
    std::vector<int64_t> strides = p.nhwc ? std::vector<int64_t>{1, p.stride, p.stride, 1}
                                          : std::vector<int64_t>{1, 1, p.stride, p.stride};
    std::vector<int64_t> pads(4, p.pad), dilations(4, 1);
    aclopSetAttrListInt(attr, "strides", 4, strides.data());
    aclopSetAttrListInt(attr, "pads", 4, pads.data());
    aclopSetAttrListInt(attr, "dilations", 4, dilations.data());
    aclopSetAttrInt(attr, "groups", p.groups);
    aclopSetAttrInt(attr, "offset_x", 0);
    aclopSetAttrString(attr, "data_format", p.nhwc ? "NHWC" : "NCHW");
    std::vector<const aclTensorDesc *> inDescs{inDesc, filterDesc};
    std::vector<const aclDataBuffer *> inputs{in_.buffer, filter_.buffer};
    if (p.bias) {
      inDescs.push_back(bias_.desc);
      inputs.push_back(bias_.buffer);
    }
    compileAndBind("Conv2D", inDescs, outDesc, inputs, out_.buffer, attr);
    aclopDestroyAttr(attr);
    aclDestroyTensorDesc(inDesc);
    aclDestroyTensorDesc(filterDesc);
    aclDestroyTensorDesc(outDesc);
    label = p.name;
  }

 private:
  Tensor in_, filter_, bias_, out_;
};

// im2col into a patch matrix, then one sgemm: NCHW out[oc][pixel] = W[oc][ckk] * P[ckk][pixel];
// NHWC out[pixel][oc] = P[pixel][kkc] * W[kkc][oc] (the HWCN filter is that matrix as stored).
// A bias is written into the output first and the sgemm adds to it (beta 1).
class Im2colSgemmRun : public Contender {
 public:
  explicit Im2colSgemmRun(const ConvCase &p)
      : Contender("im2col+OpenBLAS"), case_(p), in_(size_t(p.c * p.h * p.w), 1.0f),
        filter_(size_t(p.oc * p.depth()), 0.5f), patches_(size_t(p.depth() * p.oh() * p.ow()), 0.0f),
        bias_(size_t(p.oc), 0.25f), out_(size_t(p.oc * p.oh() * p.ow()), 0.0f) {
    openblas_set_num_threads(1);
  }
  bool call() override {
    const ConvCase &p = case_;
    const int64_t pixels = p.oh() * p.ow();
    float *patches = patches_.data();
    const float *in = in_.data();
    for (int64_t y = 0; y < p.oh(); ++y)
      for (int64_t x = 0; x < p.ow(); ++x)
        for (int64_t i = 0; i < p.k; ++i)
          for (int64_t j = 0; j < p.k; ++j) {
            const int64_t row = y * p.stride + i - p.pad, col = x * p.stride + j - p.pad;
            const bool inside = row >= 0 && row < p.h && col >= 0 && col < p.w;
            for (int64_t c = 0; c < p.c; ++c) {
              const float v = inside ? (p.nhwc ? in[(row * p.w + col) * p.c + c] : in[(c * p.h + row) * p.w + col]) : 0.0f;
              if (p.nhwc) patches[(y * p.ow() + x) * p.depth() + (i * p.k + j) * p.c + c] = v;
              else patches[((c * p.k + i) * p.k + j) * pixels + y * p.ow() + x] = v;
            }
          }
    const int m = int(p.nhwc ? pixels : p.oc), n = int(p.nhwc ? p.oc : pixels), k = int(p.depth());
    const float *a = p.nhwc ? patches : filter_.data(), *b = p.nhwc ? filter_.data() : patches;
    if (p.bias)
      for (int64_t row = 0; row < m; ++row)
        for (int64_t col = 0; col < n; ++col) out_.data()[row * n + col] = bias_.data()[p.nhwc ? col : row];
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, p.bias ? 1.0f : 0.0f,
                out_.data(), n);
    benchmark::ClobberMemory();
    return true;
  }

 private:
  ConvCase case_;
  AlignedHostArray<float> in_, filter_, patches_, bias_, out_;
};

// A depthwise convolution as plain loops, the compiler vectorizing the innermost: channels for
// NHWC (each window position updates a row of outputs), output columns for NCHW (each window
// column's valid range worked out first, so the loop has no branch).
ACLCPU_WIDEST_VECTORS
void depthwiseByHand(const ConvCase &p, const float *in, const float *filter, float *out) {
  const int64_t oh = p.oh(), ow = p.ow(), c = p.c, k = p.k, s = p.stride;
  if (p.nhwc) {
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x) {
        float *o = out + (y * ow + x) * c;
        std::fill(o, o + c, 0.0f);
        for (int64_t i = 0; i < k; ++i)
          for (int64_t j = 0; j < k; ++j) {
            const int64_t row = y * s + i - p.pad, col = x * s + j - p.pad;
            if (row < 0 || row >= p.h || col < 0 || col >= p.w) continue;
            const float *v = in + (row * p.w + col) * c, *f = filter + (i * k + j) * c;
            for (int64_t ch = 0; ch < c; ++ch) o[ch] += v[ch] * f[ch];
          }
      }
    return;
  }
  for (int64_t ch = 0; ch < c; ++ch)
    for (int64_t y = 0; y < oh; ++y) {
      float *o = out + (ch * oh + y) * ow;
      std::fill(o, o + ow, 0.0f);
      for (int64_t i = 0; i < k; ++i) {
        const int64_t row = y * s + i - p.pad;
        if (row < 0 || row >= p.h) continue;
        const float *v = in + (ch * p.h + row) * p.w;
        for (int64_t j = 0; j < k; ++j) {
          const float f = filter[(ch * k + i) * k + j];
          const int64_t first = std::max<int64_t>(0, (p.pad - j + s - 1) / s);
          const int64_t end = std::min<int64_t>(ow, (p.w - 1 + p.pad - j) / s + 1);
          for (int64_t x = first; x < end; ++x) o[x] += f * v[x * s + j - p.pad];
        }
      }
    }
}

class DepthwiseLoopRun : public Contender {
 public:
  explicit DepthwiseLoopRun(const ConvCase &p)
      : Contender("plain loop"), case_(p), in_(size_t(p.c * p.h * p.w), 1.0f), filter_(size_t(p.oc * p.k * p.k), 0.5f),
        out_(size_t(p.oc * p.oh() * p.ow()), 0.0f) {}
  bool call() override {
    depthwiseByHand(case_, in_.data(), filter_.data(), out_.data());
    benchmark::ClobberMemory();
    return true;
  }

 private:
  ConvCase case_;
  AlignedHostArray<float> in_, filter_, out_;
};

#ifdef ACLCPU_HAVE_ONEDNN
// oneDNN's convolution on the case's own plain layouts (NCHW/OIHW or NHWC/HWIO).
class OneDnnConvRun : public Contender {
 public:
  explicit OneDnnConvRun(const ConvCase &p) : Contender("oneDNN"), engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {
    using tag = dnnl::memory::format_tag;
    const auto f32 = dnnl::memory::data_type::f32;
    dnnl::memory::desc src({1, p.c, p.h, p.w}, f32, p.nhwc ? tag::nhwc : tag::nchw);
    // Groups: weights (groups, out channels, in channels of a group, ...), stored as our filter is.
    dnnl::memory::desc weights = p.groups == 1
                                     ? dnnl::memory::desc({p.oc, p.c, p.k, p.k}, f32, p.nhwc ? tag::hwio : tag::oihw)
                                     : dnnl::memory::desc({p.groups, p.oc / p.groups, p.c / p.groups, p.k, p.k}, f32,
                                                          p.nhwc ? tag::hwigo : tag::goihw);
    dnnl::memory::desc dst({1, p.oc, p.oh(), p.ow()}, f32, p.nhwc ? tag::nhwc : tag::nchw);
    dnnl::memory::desc bias({p.oc}, f32, tag::x);
    const auto forward = dnnl::prop_kind::forward_inference;
    const auto direct = dnnl::algorithm::convolution_direct;
    const dnnl::memory::dims strides{p.stride, p.stride}, pads{p.pad, p.pad};
    dnnl::convolution_forward::primitive_desc pd(
        p.bias ? dnnl::convolution_forward::desc(forward, direct, src, weights, bias, dst, strides, pads, pads)
               : dnnl::convolution_forward::desc(forward, direct, src, weights, dst, strides, pads, pads),
        engine_);
    conv_ = dnnl::convolution_forward(pd);
    src_ = dnnl::memory(src, engine_);
    weights_ = dnnl::memory(weights, engine_);
    dst_ = dnnl::memory(dst, engine_);
    if (p.bias) bias_ = dnnl::memory(bias, engine_);
    label = pd.impl_info_str();
  }
  bool call() override {
    std::unordered_map<int, dnnl::memory> args{
        {DNNL_ARG_SRC, src_}, {DNNL_ARG_WEIGHTS, weights_}, {DNNL_ARG_DST, dst_}};
    if (bias_) args.emplace(DNNL_ARG_BIAS, bias_);
    conv_.execute(stream_, args);
    stream_.wait();
    return true;
  }

 private:
  dnnl::engine engine_;
  dnnl::stream stream_;
  dnnl::convolution_forward conv_;
  dnnl::memory src_, weights_, bias_, dst_;
};
#endif

void BM_PairedConv2D(benchmark::State &state) {
  const ConvCase &p = convCases()[state.range(0)];
  Runtime runtime;
  std::vector<std::unique_ptr<Contender>> contenders;
  contenders.push_back(std::make_unique<ConvRun>(runtime, p));
  if (p.groups == 1) contenders.push_back(std::make_unique<Im2colSgemmRun>(p));
  if (p.depthwise()) contenders.push_back(std::make_unique<DepthwiseLoopRun>(p));
#ifdef ACLCPU_HAVE_ONEDNN
  contenders.push_back(std::make_unique<OneDnnConvRun>(p));
#endif
  aclcpu_bench::runPaired(state, contenders, p.flops(), "GFLOP/s");
}
BENCHMARK(BM_PairedConv2D)
    ->DenseRange(0, int(convCases().size()) - 1)
    ->Iterations(kPairedRounds)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Thread scaling: ours on a worker per usable core beside ours on one (OnOneWorker), each case.
// Meant to run unpinned; "threads" counts the workers.
void BM_PairedConv2DThreads(benchmark::State &state) {
  const ConvCase &p = convCases()[state.range(0)];
  Runtime runtime(0);
  uint32_t threads = 0;
  aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &threads);
  if (threads < 2) return state.SkipWithError("one usable core: run unpinned on a machine with several");
  std::vector<std::unique_ptr<Contender>> contenders;
  contenders.push_back(std::make_unique<ConvRun>(runtime, p));
  contenders.push_back(std::make_unique<OnOneWorker<ConvRun>>(runtime, p, "1 thread"));
  aclcpu_bench::runPaired(state, contenders, p.flops(), "GFLOP/s");
  state.counters["threads"] = threads;
}
BENCHMARK(BM_PairedConv2DThreads)
    ->DenseRange(0, int(convCases().size()) - 1)
    ->Iterations(kPairedRounds)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
