// A transformer layer's operators besides its products, on one core through handles, side by
// side (paired_runs.h) with oneDNN's primitives on the same shapes (softmax_forward,
// layer_normalization_forward, eltwise gelu_erf, logistic, tanh and exp; one OpenMP thread)
// where Debian's libdnnl-dev is installed, and with memcpy of the same traffic. Figures are GB/s of traffic:
// the input read once plus every output written once (LayerNorm's mean and variance included;
// oneDNN's inference LayerNorm does not write them). The f16 cases (an Ascend model's usual
// type) run beside memcpy only: oneDNN has no f16 kernels without AVX512-FP16. Part of op_bench.
#include "bench_support.h"

#include "acl/acl_op.h"

#include <benchmark/benchmark.h>
#include <cblas.h>

#ifdef ACLCPU_HAVE_ONEDNN
#include <dnnl.hpp>
#endif

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

extern "C" void openblas_set_num_threads(int);

namespace {

using namespace aclcpu_bench;

constexpr int kPairedRounds = 15;

// SoftmaxV2 and LayerNorm over the last axis of [rows, columns]; the activations element-wise.
struct RowCase {
  const char *name, *op;
  int64_t rows, columns;
  aclDataType type = ACL_FLOAT;
  double elements() const { return double(rows) * double(columns); }
  double elementSize() const { return double(aclDataTypeSize(type)); }
  double traffic() const {
    double bytes = 2 * elementSize() * elements();  // in and out
    if (std::string(op) == "LayerNorm")  // statistics, gamma, beta
      bytes += 2 * elementSize() * (double(rows) + double(columns));
    return bytes;
  }
};

const std::vector<RowCase> &rowCases() {
  static const std::vector<RowCase> cases = {
      {"SoftmaxV2 last axis 4096x1024 f32 (attention scores)", "SoftmaxV2", 4096, 1024},
      {"SoftmaxV2 last axis 32768x128 f32", "SoftmaxV2", 32768, 128},
      {"LayerNorm last axis 8192x768 f32 (BERT-base)", "LayerNorm", 8192, 768},
      {"LayerNorm last axis 2048x4096 f32", "LayerNorm", 2048, 4096},
      {"Gelu 4096x4096 f32", "Gelu", 4096, 4096},
      {"Sigmoid 4096x4096 f32 (SiLU's)", "Sigmoid", 4096, 4096},
      {"Tanh 4096x4096 f32", "Tanh", 4096, 4096},
      {"Exp 4096x4096 f32", "Exp", 4096, 4096},
      {"SoftmaxV2 last axis 4096x1024 f16", "SoftmaxV2", 4096, 1024, ACL_FLOAT16},
      {"LayerNorm last axis 8192x768 f16", "LayerNorm", 8192, 768, ACL_FLOAT16},
      {"Gelu 4096x4096 f16", "Gelu", 4096, 4096, ACL_FLOAT16},
      // 256 KiB in and out: held in L2, so arithmetic, not memory, sets the pace (the large
      // softmax ran only 15% faster from L2 than from memory: exp is the bound).
      {"SoftmaxV2 last axis 32x1024 f32 (in L2)", "SoftmaxV2", 32, 1024},
      {"Exp 32x1024 f32 (in L2)", "Exp", 32, 1024},
  };
  return cases;
}

class RowRun : public HandleContender {
 public:
  RowRun(const Runtime &runtime, const RowCase &p)
      : HandleContender(runtime), x_(p.type, {p.rows, p.columns}, aclDataTypeSize(p.type)),
        y_(p.type, {p.rows, p.columns}, aclDataTypeSize(p.type)), gamma_(p.type, {p.columns}, aclDataTypeSize(p.type)),
        beta_(p.type, {p.columns}, aclDataTypeSize(p.type)), mean_(p.type, {p.rows, 1}, aclDataTypeSize(p.type)),
        variance_(p.type, {p.rows, 1}, aclDataTypeSize(p.type)) {
    aclopAttr *attr = aclopCreateAttr();
    const std::string op = p.op;
    if (op == "LayerNorm") {
      aclopSetAttrInt(attr, "begin_norm_axis", -1);
      aclopSetAttrInt(attr, "begin_params_axis", -1);
      compileAndBind("LayerNorm", {x_.desc, gamma_.desc, beta_.desc}, {y_.desc, mean_.desc, variance_.desc},
                     {x_.buffer, gamma_.buffer, beta_.buffer}, {y_.buffer, mean_.buffer, variance_.buffer}, attr);
    } else {
      compileAndBind(p.op, {x_.desc}, y_.desc, {x_.buffer}, y_.buffer, attr);
    }
    aclopDestroyAttr(attr);
    label = p.name;
  }

 private:
  Tensor x_, y_, gamma_, beta_, mean_, variance_;
};

#ifdef ACLCPU_HAVE_ONEDNN
class OneDnnRowRun : public Contender {
 public:
  explicit OneDnnRowRun(const RowCase &p) : Contender("oneDNN"), engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {
    const dnnl::memory::desc data({p.rows, p.columns}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::ab);
    const auto inference = dnnl::prop_kind::forward_inference;
    src_ = dnnl::memory(data, engine_);
    dst_ = dnnl::memory(data, engine_);
    const std::string op = p.op;
    if (op == "SoftmaxV2") {
      dnnl::softmax_forward::primitive_desc pd(dnnl::softmax_forward::desc(inference, data, 1), engine_);
      primitive_ = dnnl::softmax_forward(pd);
      label = pd.impl_info_str();
    } else if (op == "LayerNorm") {
      const auto flags = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
      dnnl::layer_normalization_forward::primitive_desc pd(
          dnnl::layer_normalization_forward::desc(inference, data, 1e-5f, flags), engine_);
      primitive_ = dnnl::layer_normalization_forward(pd);
      const dnnl::memory::desc params({p.columns}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a);
      scale_ = dnnl::memory(params, engine_);
      shift_ = dnnl::memory(params, engine_);
      label = pd.impl_info_str();
    } else {
      const dnnl::algorithm algorithm = op == "Gelu"      ? dnnl::algorithm::eltwise_gelu_erf
                                        : op == "Sigmoid" ? dnnl::algorithm::eltwise_logistic
                                        : op == "Tanh"    ? dnnl::algorithm::eltwise_tanh
                                                          : dnnl::algorithm::eltwise_exp;
      dnnl::eltwise_forward::primitive_desc pd(dnnl::eltwise_forward::desc(inference, algorithm, data), engine_);
      primitive_ = dnnl::eltwise_forward(pd);
      label = pd.impl_info_str();
    }
    std::fill_n(static_cast<float *>(src_.get_data_handle()), size_t(p.elements()), 0.5f);
    arguments_ = {{DNNL_ARG_SRC, src_}, {DNNL_ARG_DST, dst_}};
    if (scale_) arguments_.insert({{DNNL_ARG_SCALE, scale_}, {DNNL_ARG_SHIFT, shift_}});
  }
  bool call() override {
    primitive_.execute(stream_, arguments_);
    stream_.wait();
    return true;
  }

 private:
  dnnl::engine engine_;
  dnnl::stream stream_;
  dnnl::primitive primitive_;
  dnnl::memory src_, dst_, scale_, shift_;
  std::unordered_map<int, dnnl::memory> arguments_;
};
#endif

void BM_PairedTransformerOp(benchmark::State &state) {
  const RowCase &p = rowCases()[state.range(0)];
  Runtime runtime;
  std::vector<std::unique_ptr<Contender>> contenders;
  contenders.push_back(std::make_unique<RowRun>(runtime, p));
  contenders.push_back(std::make_unique<MemcpyRun>(size_t(p.traffic() / 2)));
#ifdef ACLCPU_HAVE_ONEDNN
  if (p.type == ACL_FLOAT) contenders.push_back(std::make_unique<OneDnnRowRun>(p));
#endif
  aclcpu_bench::runPaired(state, contenders, p.traffic(), "GB/s");
}
BENCHMARK(BM_PairedTransformerOp)
    ->DenseRange(0, int(rowCases().size()) - 1)
    ->Iterations(kPairedRounds)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Attention's batched products, f32, one matrix a head: scores = Q K^T (BatchMatMul with
// adj_x2) and context = P V. Beside OpenBLAS's sgemm a head and oneDNN's batched matmul on
// plain layouts. Figures are GFLOP/s.
struct BatchCase {
  const char *name;
  int64_t batch, m, n, k;
  bool transposeB;
  double flops() const { return 2.0 * double(batch) * double(m) * double(n) * double(k); }
  std::vector<int64_t> b() const {
    return transposeB ? std::vector<int64_t>{batch, n, k} : std::vector<int64_t>{batch, k, n};
  }
};

const std::vector<BatchCase> &batchCases() {
  static const std::vector<BatchCase> cases = {
      {"BatchMatMul scores 12x128x64 . (12x128x64)^T f32 (BERT-base, 128 tokens)", 12, 128, 128, 64, true},
      {"BatchMatMul context 12x128x128 . 12x128x64 f32", 12, 128, 64, 128, false},
      {"BatchMatMul scores 12x512x64 . (12x512x64)^T f32 (512 tokens)", 12, 512, 512, 64, true},
      {"BatchMatMul context 12x512x512 . 12x512x64 f32", 12, 512, 64, 512, false},
  };
  return cases;
}

class BatchMatMulRun : public HandleContender {
 public:
  BatchMatMulRun(const Runtime &runtime, const BatchCase &p)
      : HandleContender(runtime), a_(ACL_FLOAT, {p.batch, p.m, p.k}, 4), b_(ACL_FLOAT, p.b(), 4),
        c_(ACL_FLOAT, {p.batch, p.m, p.n}, 4) {
    aclopAttr *attr = aclopCreateAttr();
    aclopSetAttrBool(attr, "adj_x1", false);
    aclopSetAttrBool(attr, "adj_x2", p.transposeB);
    compileAndBind("BatchMatMul", {a_.desc, b_.desc}, c_.desc, {a_.buffer, b_.buffer}, c_.buffer, attr);
    aclopDestroyAttr(attr);
    label = p.name;
  }

 private:
  Tensor a_, b_, c_;
};

class SgemmPerHeadRun : public Contender {
 public:
  explicit SgemmPerHeadRun(const BatchCase &p)
      : Contender("OpenBLAS"), case_(p), a_(size_t(p.batch * p.m * p.k), 0.5f), b_(size_t(p.batch * p.k * p.n), 0.25f),
        c_(size_t(p.batch * p.m * p.n), 0.0f) {
    openblas_set_num_threads(1);
  }
  bool call() override {
    const BatchCase &p = case_;
    const int m = int(p.m), n = int(p.n), k = int(p.k);
    for (int64_t h = 0; h < p.batch; ++h)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, p.transposeB ? CblasTrans : CblasNoTrans, m, n, k, 1.0f,
                  a_.data() + h * p.m * p.k, k, b_.data() + h * p.k * p.n, p.transposeB ? k : n, 0.0f,
                  c_.data() + h * p.m * p.n, n);
    benchmark::ClobberMemory();
    return true;
  }

 private:
  BatchCase case_;
  AlignedHostArray<float> a_, b_, c_;
};

#ifdef ACLCPU_HAVE_ONEDNN
class OneDnnBatchMatMulRun : public Contender {
 public:
  explicit OneDnnBatchMatMulRun(const BatchCase &p)
      : Contender("oneDNN"), engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {
    using tag = dnnl::memory::format_tag;
    const auto f32 = dnnl::memory::data_type::f32;
    // B (k, n) of each matrix, stored (n, k) when transposed: dims abc, layout acb.
    dnnl::memory::desc a({p.batch, p.m, p.k}, f32, tag::abc);
    dnnl::memory::desc b({p.batch, p.k, p.n}, f32, p.transposeB ? tag::acb : tag::abc);
    dnnl::memory::desc c({p.batch, p.m, p.n}, f32, tag::abc);
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a, b, c), engine_);
    primitive_ = dnnl::matmul(pd);
    a_ = dnnl::memory(a, engine_);
    b_ = dnnl::memory(b, engine_);
    c_ = dnnl::memory(c, engine_);
    for (const dnnl::memory *m : {&a_, &b_, &c_}) std::memset(m->get_data_handle(), 0, m->get_desc().get_size());
    label = pd.impl_info_str();
  }
  bool call() override {
    primitive_.execute(stream_, {{DNNL_ARG_SRC, a_}, {DNNL_ARG_WEIGHTS, b_}, {DNNL_ARG_DST, c_}});
    stream_.wait();
    return true;
  }

 private:
  dnnl::engine engine_;
  dnnl::stream stream_;
  dnnl::matmul primitive_;
  dnnl::memory a_, b_, c_;
};
#endif

void BM_PairedAttentionProduct(benchmark::State &state) {
  const BatchCase &p = batchCases()[state.range(0)];
  Runtime runtime;
  std::vector<std::unique_ptr<Contender>> contenders;
  contenders.push_back(std::make_unique<BatchMatMulRun>(runtime, p));
  contenders.push_back(std::make_unique<SgemmPerHeadRun>(p));
#ifdef ACLCPU_HAVE_ONEDNN
  contenders.push_back(std::make_unique<OneDnnBatchMatMulRun>(p));
#endif
  aclcpu_bench::runPaired(state, contenders, p.flops(), "GFLOP/s");
}
BENCHMARK(BM_PairedAttentionProduct)
    ->DenseRange(0, int(batchCases().size()) - 1)
    ->Iterations(kPairedRounds)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
