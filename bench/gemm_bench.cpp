// GEMM through a handle, alone (BM_Gemm*Handle) and side by side with the anchors in one process
// (BM_PairedGemm*, paired_runs.h): OpenBLAS's sgemm and oneDNN's sgemm for fp32, oneDNN's
// gemm_s8s8s32 for s8, oneDNN's bf16 matmul (B pre-packed) for bf16 and f16 (oneDNN has no f16
// GEMM on CPU), and ours with B constant beside oneDNN's matmul with B pre-packed. Everything
// on one core: ACLCPU_NUM_THREADS=1, openblas_set_num_threads(1), and OMP_NUM_THREADS=1 for
// oneDNN (op_bench.cpp's main). Part of op_bench.
#include "bench_support.h"

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"

#include <benchmark/benchmark.h>
#include <cblas-openblas.h>
#ifdef ACLCPU_HAVE_ONEDNN
#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl.hpp>
#endif

#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

extern "C" void openblas_set_num_threads(int);
extern "C" char *openblas_get_corename(void);

namespace {

using aclcpu_bench::AlignedHostArray;
using aclcpu_bench::Contender;
using aclcpu_bench::OnOneWorker;
using aclcpu_bench::Runtime;
using aclcpu_bench::Tensor;

constexpr int kPairedRounds = 15;

// C = 1 * op(A) op(B) + 0 * C (m x n x k, row-major) through an aclblasGemmEx handle on device
// tensors; a zero alpha would be a different GEMM. `compute`: the handle's aclComputeType.
class HandleGemm : public aclcpu_bench::HandleContender {
 public:
  HandleGemm(const Runtime &runtime, aclDataType in, size_t inBytes, aclDataType out, int64_t m, int64_t n, int64_t k,
             bool ta, bool tb, aclComputeType compute = ACL_COMPUTE_HIGH_PRECISION, std::string name = "aclcpu")
      : HandleContender(runtime, std::move(name)), a_(in, {m, k}, inBytes), b_(in, {k, n}, inBytes), c_(out, {m, n}, 4),
        alpha_(out, {}, 4), beta_(out, {}, 4) {
    float oneF32 = 1;
    int32_t oneS32 = 1;
    aclrtMemcpy(alpha_.device, 4, out == ACL_INT32 ? static_cast<const void *>(&oneS32) : &oneF32, 4,
                ACL_MEMCPY_HOST_TO_DEVICE);
    aclopHandle *handle = nullptr;
    if (aclblasCreateHandleForGemmEx(ta ? ACL_TRANS_T : ACL_TRANS_N, tb ? ACL_TRANS_T : ACL_TRANS_N, ACL_TRANS_N, m, n,
                                     k, in, in, out, compute, &handle) != ACL_SUCCESS)
      handle = nullptr;
    bind(handle, {a_.buffer, b_.buffer, c_.buffer, alpha_.buffer, beta_.buffer}, c_.buffer);
  }

 private:
  Tensor a_, b_, c_, alpha_, beta_;
};

// Ours with B declared constant (aclSetTensorConst), as weights are: a MatMul through a handle
// whose GEMM ukernel packs B's panels in its first call and reads them again in later ones
// (kernels/ukernels/const_panels.h), as oneDNN's matmul reads a B reordered ahead.
class ConstBMatMul : public aclcpu_bench::HandleContender {
 public:
  ConstBMatMul(const Runtime &runtime, aclDataType in, size_t inBytes, int64_t m, int64_t n, int64_t k)
      : HandleContender(runtime), a_(in, {m, k}, inBytes), b_(in, {k, n}, inBytes), c_(ACL_FLOAT, {m, n}, 4),
        values_(size_t(k) * size_t(n) * inBytes, 0) {
    aclSetTensorConst(b_.desc, values_.data(), values_.size());
    compileAndBind("MatMul", {a_.desc, b_.desc}, c_.desc, {a_.buffer, b_.buffer}, c_.buffer);
  }

 private:
  Tensor a_, b_, c_;
  std::vector<uint8_t> values_;
};

class OpenBlasSgemm : public Contender {
 public:
  OpenBlasSgemm(int m, int n, int k, bool ta, bool tb)
      : Contender("OpenBLAS"), m_(m), n_(n), k_(k), ta_(ta), tb_(tb), a_(size_t(m) * k, 0.5f), b_(size_t(k) * n, 0.25f),
        c_(size_t(m) * n, 0.0f) {
    openblas_set_num_threads(1);
  }
  bool call() override {
    cblas_sgemm(CblasRowMajor, ta_ ? CblasTrans : CblasNoTrans, tb_ ? CblasTrans : CblasNoTrans, m_, n_, k_, 1.0f,
                a_.data(), ta_ ? m_ : k_, b_.data(), tb_ ? k_ : n_, 0.0f, c_.data(), n_);
    benchmark::ClobberMemory();
    return true;
  }

 private:
  const int m_, n_, k_;
  const bool ta_, tb_;
  AlignedHostArray<float> a_, b_, c_;
};

#ifdef ACLCPU_HAVE_ONEDNN
// oneDNN's sgemm (row-major, n x n x n).
class OneDnnSgemm : public Contender {
 public:
  explicit OneDnnSgemm(int64_t n) : Contender("oneDNN"), n_(n), a_(size_t(n) * n, 0.5f), b_(size_t(n) * n, 0.25f),
                                    c_(size_t(n) * n, 0.0f) {}
  bool call() override {
    if (dnnl_sgemm('N', 'N', n_, n_, n_, 1.0f, a_.data(), n_, b_.data(), n_, 0.0f, c_.data(), n_) != dnnl_success)
      return fail("dnnl_sgemm failed");
    benchmark::ClobberMemory();
    return true;
  }

 private:
  const int64_t n_;
  AlignedHostArray<float> a_, b_, c_;
};

// oneDNN's s8 x s8 -> s32 gemm (row-major, no offsets).
class OneDnnGemmS8 : public Contender {
 public:
  explicit OneDnnGemmS8(int64_t n) : Contender("oneDNN"), n_(n), a_(size_t(n) * n, 3), b_(size_t(n) * n, -2),
                                     c_(size_t(n) * n, 0) {}
  bool call() override {
    const int32_t offsetC = 0;
    if (dnnl_gemm_s8s8s32('N', 'N', 'F', n_, n_, n_, 1.0f, a_.data(), n_, 0, b_.data(), n_, 0, 0.0f, c_.data(), n_,
                          &offsetC) != dnnl_success)
      return fail("dnnl_gemm_s8s8s32 failed");
    benchmark::ClobberMemory();
    return true;
  }

 private:
  const int64_t n_;
  AlignedHostArray<int8_t> a_, b_;
  AlignedHostArray<int32_t> c_;
};

// oneDNN's matmul primitive, m x k `in` by k x n `in` -> `out` (f32; s32 for s8) (A stored
// transposed if `ta`), with B reordered once into the layout the primitive prefers (pre-packed
// weights, as the oneDNN anchors are measured; `tb` says how B is stored before that).
class OneDnnMatmul : public Contender {
 public:
  OneDnnMatmul(int64_t n, dnnl::memory::data_type in, std::string name,
               dnnl::memory::data_type out = dnnl::memory::data_type::f32)
      : OneDnnMatmul(n, n, n, false, false, in, std::move(name), out) {}
  OneDnnMatmul(int64_t m, int64_t n, int64_t k, bool ta, bool tb, dnnl::memory::data_type in, std::string name,
               dnnl::memory::data_type out = dnnl::memory::data_type::f32)
      : Contender(std::move(name)) {
    using tag = dnnl::memory::format_tag;
    try {
      dnnl::memory::desc plainA({m, k}, in, ta ? tag::ba : tag::ab), plainB({k, n}, in, tb ? tag::ba : tag::ab);
      dnnl::memory::desc anyLayout({k, n}, in, tag::any);
      dnnl::memory::desc result({m, n}, out, tag::ab);
      dnnl::matmul::primitive_desc matmul(dnnl::matmul::desc(plainA, anyLayout, result), engine_);
      a_ = dnnl::memory(plainA, engine_);
      b_ = dnnl::memory(matmul.weights_desc(), engine_);
      c_ = dnnl::memory(result, engine_);
      dnnl::memory bPlain(plainB, engine_);
      for (const dnnl::memory *m : {&a_, &bPlain, &c_}) std::memset(m->get_data_handle(), 0, m->get_desc().get_size());
      dnnl::reorder(bPlain, b_).execute(stream_, bPlain, b_);
      stream_.wait();
      primitive_ = dnnl::matmul(matmul);
      label = matmul.impl_info_str();
    } catch (const dnnl::error &error) {
      fail(error.what());
    }
  }
  bool call() override {
    if (!primitive_) return false;
    primitive_.execute(stream_, {{DNNL_ARG_SRC, a_}, {DNNL_ARG_WEIGHTS, b_}, {DNNL_ARG_DST, c_}});
    stream_.wait();
    return true;
  }

 private:
  dnnl::engine engine_{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream_{engine_};
  dnnl::memory a_, b_, c_;
  dnnl::matmul primitive_;
};
#endif

using Contenders = std::vector<std::unique_ptr<Contender>>;

// Ours alone: an m x n x k GEMM through a handle, `counter` = 2 m n k operations per second.
void runGemmHandle(benchmark::State &state, aclDataType in, size_t inBytes, aclDataType out, const char *counter,
                   int64_t m, int64_t n, int64_t k, bool ta = false, bool tb = false) {
  Runtime runtime;
  HandleGemm gemm(runtime, in, inBytes, out, m, n, k, ta, tb);
  aclcpu_bench::runAlone(state, gemm, 2.0 * m * n * k, counter);
}

void runGemmHandle(benchmark::State &state, aclDataType in, size_t inBytes, aclDataType out, const char *counter) {
  int64_t n = state.range(0);
  runGemmHandle(state, in, inBytes, out, counter, n, n, n);
}

void squareSizes(benchmark::internal::Benchmark *b) {
  for (int n : {64, 256, 512, 1024, 2048}) b->Arg(n);
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

void BM_GemmF32Handle(benchmark::State &state) { runGemmHandle(state, ACL_FLOAT, 4, ACL_FLOAT, "GFLOP/s"); }
BENCHMARK(BM_GemmF32Handle)->Apply(squareSizes);

// The other fp32 shapes, (m, n, k, transpose a, transpose b): sizes that divide no tile,
// few rows against a large B, and transposed operands.
void gemmShapes(benchmark::internal::Benchmark *b) {
  for (auto [m, n, k, ta, tb] : {std::tuple{255, 255, 255, 0, 0}, {1000, 1000, 1000, 0, 0}, {1023, 777, 513, 0, 0},
                                 {1, 4096, 4096, 0, 0}, {16, 4096, 4096, 0, 0}, {128, 4096, 4096, 0, 0}})
    b->Args({m, n, k, ta, tb});
  for (int size : {256, 512, 1024})
    for (auto [ta, tb] : {std::pair{0, 1}, {1, 0}, {1, 1}}) b->Args({size, size, size, ta, tb});
  b->ArgNames({"m", "n", "k", "ta", "tb"})->Unit(benchmark::kMillisecond)->UseRealTime();
}

void BM_GemmF32HandleShapes(benchmark::State &state) {
  runGemmHandle(state, ACL_FLOAT, 4, ACL_FLOAT, "GFLOP/s", state.range(0), state.range(1), state.range(2),
                state.range(3) != 0, state.range(4) != 0);
}
BENCHMARK(BM_GemmF32HandleShapes)->Apply(gemmShapes);

// s8 x s8 -> s32 (the AVX512-VNNI ukernel where the CPU has it), GOP/s; bf16 and f16 -> f32.
void BM_GemmS8Handle(benchmark::State &state) { runGemmHandle(state, ACL_INT8, 1, ACL_INT32, "GOP/s"); }
BENCHMARK(BM_GemmS8Handle)->Apply(squareSizes);
void BM_GemmBf16Handle(benchmark::State &state) { runGemmHandle(state, ACL_BF16, 2, ACL_FLOAT, "GFLOP/s"); }
BENCHMARK(BM_GemmBf16Handle)->Apply(squareSizes);
void BM_GemmF16Handle(benchmark::State &state) { runGemmHandle(state, ACL_FLOAT16, 2, ACL_FLOAT, "GFLOP/s"); }
BENCHMARK(BM_GemmF16Handle)->Apply(squareSizes);

// Side by side: ours first, then the anchors (paired_runs.h).
void pairedSizes(benchmark::internal::Benchmark *b) {
  squareSizes(b);
  b->Iterations(kPairedRounds);
}

void BM_PairedGemmF32(benchmark::State &state) {
  const int64_t n = state.range(0);
  Runtime runtime;
  Contenders contenders;
  contenders.push_back(std::make_unique<HandleGemm>(runtime, ACL_FLOAT, 4, ACL_FLOAT, n, n, n, false, false));
  contenders.push_back(std::make_unique<OpenBlasSgemm>(n, n, n, false, false));
#ifdef ACLCPU_HAVE_ONEDNN
  contenders.push_back(std::make_unique<OneDnnSgemm>(n));
#endif
  aclcpu_bench::runPaired(state, contenders, 2.0 * n * n * n, "GFLOP/s");
}
BENCHMARK(BM_PairedGemmF32)->Apply(pairedSizes);

// The thread scaling (2 threads >= 1.8x one at 1024^3 and above), side by side in one
// process: ours on a worker per usable core beside ours on one (OnOneWorker). Meant to run
// with every CPU (scripts/bench-report.py does not pin it); "threads" counts the workers.
void BM_PairedGemmF32Threads(benchmark::State &state) {
  const int64_t n = state.range(0);
  Runtime runtime(0);
  uint32_t threads = 0;
  aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &threads);
  if (threads < 2) return state.SkipWithError("one usable core: run unpinned on a machine with several");
  Contenders contenders;
  contenders.push_back(std::make_unique<HandleGemm>(runtime, ACL_FLOAT, 4, ACL_FLOAT, n, n, n, false, false));
  contenders.push_back(std::make_unique<OnOneWorker<HandleGemm>>(runtime, ACL_FLOAT, 4, ACL_FLOAT, n, n, n, false, false,
                                                                 ACL_COMPUTE_HIGH_PRECISION, "1 thread"));
  aclcpu_bench::runPaired(state, contenders, 2.0 * n * n * n, "GFLOP/s");
  state.counters["threads"] = threads;
}
BENCHMARK(BM_PairedGemmF32Threads)
    ->Arg(512)
    ->Arg(1024)
    ->Arg(2048)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kPairedRounds);

void BM_PairedGemmF32Shapes(benchmark::State &state) {
  const int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  const bool ta = state.range(3) != 0, tb = state.range(4) != 0;
  Runtime runtime;
  Contenders contenders;
  contenders.push_back(std::make_unique<HandleGemm>(runtime, ACL_FLOAT, 4, ACL_FLOAT, m, n, k, ta, tb));
  contenders.push_back(std::make_unique<OpenBlasSgemm>(m, n, k, ta, tb));
#ifdef ACLCPU_HAVE_ONEDNN
  contenders.push_back(std::make_unique<OneDnnMatmul>(m, n, k, ta, tb, dnnl::memory::data_type::f32, "oneDNN"));
#endif
  aclcpu_bench::runPaired(state, contenders, 2.0 * m * n * k, "GFLOP/s");
}
BENCHMARK(BM_PairedGemmF32Shapes)->Apply(gemmShapes)->Iterations(kPairedRounds);

#ifdef ACLCPU_HAVE_ONEDNN
void BM_PairedGemmS8(benchmark::State &state) {
  const int64_t n = state.range(0);
  Runtime runtime;
  Contenders contenders;
  contenders.push_back(std::make_unique<HandleGemm>(runtime, ACL_INT8, 1, ACL_INT32, n, n, n, false, false));
  contenders.push_back(std::make_unique<OneDnnGemmS8>(n));
  // The matmul primitive with B pre-packed: AMX's tiles where the CPU has them (the gemm call does not use them).
  contenders.push_back(std::make_unique<OneDnnMatmul>(n, dnnl::memory::data_type::s8, "oneDNN matmul",
                                                      dnnl::memory::data_type::s32));
  aclcpu_bench::runPaired(state, contenders, 2.0 * n * n * n, "GOP/s");
}
BENCHMARK(BM_PairedGemmS8)->Apply(pairedSizes);

// bf16 and f16 beside oneDNN's bf16 matmul; f16 also in low precision (ACL_COMPUTE_LOW_PRECISION:
// its inputs rounded to bf16, then bf16 pairs as bf16's).
void runPairedHalf(benchmark::State &state, aclDataType in, aclComputeType compute = ACL_COMPUTE_HIGH_PRECISION) {
  const int64_t n = state.range(0);
  Runtime runtime;
  Contenders contenders;
  contenders.push_back(std::make_unique<HandleGemm>(runtime, in, 2, ACL_FLOAT, n, n, n, false, false, compute));
  contenders.push_back(std::make_unique<OneDnnMatmul>(n, dnnl::memory::data_type::bf16, "oneDNN bf16"));
  aclcpu_bench::runPaired(state, contenders, 2.0 * n * n * n, "GFLOP/s");
}
void BM_PairedGemmBf16(benchmark::State &state) { runPairedHalf(state, ACL_BF16); }
BENCHMARK(BM_PairedGemmBf16)->Apply(pairedSizes);
void BM_PairedGemmF16(benchmark::State &state) { runPairedHalf(state, ACL_FLOAT16); }
BENCHMARK(BM_PairedGemmF16)->Apply(pairedSizes);
void BM_PairedGemmF16Low(benchmark::State &state) { runPairedHalf(state, ACL_FLOAT16, ACL_COMPUTE_LOW_PRECISION); }
BENCHMARK(BM_PairedGemmF16Low)->Apply(pairedSizes);

// B constant on both sides: ours declared so (ConstBMatMul) beside oneDNN's matmul with B
// reordered ahead, f32 and bf16 -> f32, where packing B costs the most (few rows) and at 1024^3.
void BM_PairedGemmConstB(benchmark::State &state) {
  const int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  const bool bf16 = state.range(3) != 0;
  Runtime runtime;
  Contenders contenders;
  contenders.push_back(std::make_unique<ConstBMatMul>(runtime, bf16 ? ACL_BF16 : ACL_FLOAT, bf16 ? 2 : 4, m, n, k));
  contenders.push_back(std::make_unique<OneDnnMatmul>(
      m, n, k, false, false, bf16 ? dnnl::memory::data_type::bf16 : dnnl::memory::data_type::f32, "oneDNN"));
  aclcpu_bench::runPaired(state, contenders, 2.0 * m * n * k, "GFLOP/s");
}
BENCHMARK(BM_PairedGemmConstB)
    ->ArgsProduct({{1, 16, 128}, {4096}, {4096}, {0, 1}})
    ->Args({1024, 1024, 1024, 0})
    ->Args({1024, 1024, 1024, 1})
    ->ArgNames({"m", "n", "k", "bf16"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kPairedRounds);

// bf16 with B passed in every call (ours packs or streams it each time) beside oneDNN's bf16
// matmul with B reordered ahead, as the issue measures oneDNN at M = 16 and 128.
void BM_PairedGemmBf16Shapes(benchmark::State &state) {
  const int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  Runtime runtime;
  Contenders contenders;
  contenders.push_back(std::make_unique<HandleGemm>(runtime, ACL_BF16, 2, ACL_FLOAT, m, n, k, false, false));
  contenders.push_back(std::make_unique<OneDnnMatmul>(m, n, k, false, false, dnnl::memory::data_type::bf16, "oneDNN"));
  aclcpu_bench::runPaired(state, contenders, 2.0 * m * n * k, "GFLOP/s");
}
BENCHMARK(BM_PairedGemmBf16Shapes)
    ->ArgsProduct({{1, 16, 128}, {4096}, {4096}, {1}})
    ->ArgNames({"m", "n", "k", "bf16"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(kPairedRounds);
#endif

}  // namespace
