// Single-operator figures: dispatch cost of a 1-element Add (handle and ExecuteV2 paths),
// compile time (cold and warm cache), and fp32 GEMM GFLOP/s through a handle beside OpenBLAS
// (single thread both: ACLCPU_NUM_THREADS=1 and openblas_set_num_threads(1)) in the same run.
// OpenBLAS's DYNAMIC_ARCH picks its kernels when it loads; on CPUs it does not recognize it
// falls back to SSE3 ("Prescott") kernels that run ~5x slower than its AVX-512 ones, which
// would make a meaningless anchor. main() then re-executes this program with
// OPENBLAS_CORETYPE naming the best kernel set the CPU supports, and prints which one ran.
// oneDNN's sgemm is the second anchor when Debian's libdnnl-dev is installed.
#include "bench_support.h"

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"

#include <benchmark/benchmark.h>
#include <cblas-openblas.h>
#ifdef ACLCPU_HAVE_ONEDNN
#include <oneapi/dnnl/dnnl.h>
#include <oneapi/dnnl/dnnl.hpp>
#endif

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <unistd.h>

extern "C" void openblas_set_num_threads(int);
extern "C" char *openblas_get_corename(void);

namespace {

using aclcpu_bench::AlignedHostArray;
using aclcpu_bench::runHandle;
using aclcpu_bench::runSynchronized;
using aclcpu_bench::Runtime;
using aclcpu_bench::Tensor;

// Compiles a 1-element Add over `a` + `a` -> `out`; false (and the benchmark skipped) on failure.
bool compileAdd(benchmark::State &state, const Tensor &a, const Tensor &out) {
  const aclTensorDesc *in[] = {a.desc, a.desc};
  const aclTensorDesc *outDesc[] = {out.desc};
  if (aclopCompile("Add", 2, in, 1, outDesc, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr) == ACL_SUCCESS) return true;
  state.SkipWithError(aclGetRecentErrMsg());
  return false;
}

void BM_AddDispatchWithHandle(benchmark::State &state) {
  Runtime runtime;
  Tensor a(ACL_FLOAT, {1}, 4), out(ACL_FLOAT, {1}, 4);
  if (!compileAdd(state, a, out)) return;
  const aclTensorDesc *in[] = {a.desc, a.desc};
  const aclTensorDesc *outDesc[] = {out.desc};
  aclopHandle *handle = nullptr;
  aclopCreateHandle("Add", 2, in, 1, outDesc, nullptr, &handle);
  const aclDataBuffer *inputs[] = {a.buffer, a.buffer};
  runHandle(state, runtime, handle, inputs, out.buffer);
}
BENCHMARK(BM_AddDispatchWithHandle)->UseRealTime();

void BM_AddDispatchExecuteV2(benchmark::State &state) {
  Runtime runtime;
  Tensor a(ACL_FLOAT, {1}, 4), out(ACL_FLOAT, {1}, 4);
  if (!compileAdd(state, a, out)) return;
  aclTensorDesc *inDescs[] = {a.desc, a.desc};
  aclTensorDesc *outDescs[] = {out.desc};
  aclDataBuffer *inputs[] = {a.buffer, a.buffer};
  aclDataBuffer *outputs[] = {out.buffer};
  runSynchronized(state, runtime.stream, [&] {
    return aclopExecuteV2("Add", 2, inDescs, inputs, 1, outDescs, outputs, nullptr, runtime.stream);
  });
}
BENCHMARK(BM_AddDispatchExecuteV2)->UseRealTime();

// ExecuteV2 on a dynamic model (ACL_OP_COMPILE_FUZZ): the output shape follows from the inputs.
void BM_AddDispatchExecuteV2Dynamic(benchmark::State &state) {
  Runtime runtime;
  Tensor a(ACL_FLOAT, {64}, 4), out(ACL_FLOAT, {64}, 4);
  aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ);
  bool compiled = compileAdd(state, a, out);
  aclopSetCompileFlag(ACL_OP_COMPILE_DEFAULT);
  if (!compiled) return;
  aclTensorDesc *inDescs[] = {a.desc, a.desc};
  aclTensorDesc *outDescs[] = {out.desc};
  aclDataBuffer *inputs[] = {a.buffer, a.buffer};
  aclDataBuffer *outputs[] = {out.buffer};
  runSynchronized(state, runtime.stream, [&] {
    return aclopExecuteV2("Add", 2, inDescs, inputs, 1, outDescs, outputs, nullptr, runtime.stream);
  });
}
BENCHMARK(BM_AddDispatchExecuteV2Dynamic)->UseRealTime();

// The per-call entry points that compile on first use and resolve their request on every call:
// aclopCast of one element, and aclblasGemmEx of 1 x 1 x 1 (scalars in device memory).
void BM_CastDispatch(benchmark::State &state) {
  Runtime runtime;
  Tensor x(ACL_FLOAT, {1}, 4), y(ACL_FLOAT16, {1}, 2);
  runSynchronized(state, runtime.stream,
                  [&] { return aclopCast(x.desc, x.buffer, y.desc, y.buffer, 0, runtime.stream); });
}
BENCHMARK(BM_CastDispatch)->UseRealTime();

void BM_GemmExDispatch(benchmark::State &state) {
  Runtime runtime;
  Tensor a(ACL_FLOAT, {1}, 4), b(ACL_FLOAT, {1}, 4), c(ACL_FLOAT, {1}, 4);
  Tensor alpha(ACL_FLOAT, {1}, 4), beta(ACL_FLOAT, {1}, 4);
  runSynchronized(state, runtime.stream, [&] {
    return aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 1, 1, 1, alpha.device, a.device, -1, ACL_FLOAT, b.device,
                         -1, ACL_FLOAT, beta.device, c.device, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, runtime.stream);
  });
}
BENCHMARK(BM_GemmExDispatch)->UseRealTime();

// aclopInferShape for a shape never seen before (every iteration a new M): what the first
// dynamic ExecuteV2 of a new shape pays; repeated shapes are answered from a memo.
void BM_InferShapeNewShape(benchmark::State &state) {
  Runtime runtime;
  int64_t m = 1;
  for (auto _ : state) {
    int64_t dims[] = {++m, 64};
    aclTensorDesc *a = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
    aclTensorDesc *out = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);
    aclTensorDesc *in[] = {a, a};
    aclTensorDesc *outs[] = {out};
    aclError error = aclopInferShape("Add", 2, in, nullptr, 1, outs, nullptr);
    aclDestroyTensorDesc(a);
    aclDestroyTensorDesc(out);
    if (error) return state.SkipWithError(aclGetRecentErrMsg());
  }
}
BENCHMARK(BM_InferShapeNewShape)->Unit(benchmark::kMicrosecond)->UseRealTime();

// Cold: every iteration a new signature (a new M). Warm: the same signature again.
void BM_CompileGemm(benchmark::State &state) {
  Runtime runtime;
  bool cold = state.range(0) == 1;
  int64_t m = 64;
  for (auto _ : state) {
    if (cold) ++m;
    Tensor a(ACL_FLOAT, {m, 64}, 4), b(ACL_FLOAT, {64, 64}, 4), c(ACL_FLOAT, {m, 64}, 4), s(ACL_FLOAT, {}, 4);
    const aclTensorDesc *in[] = {a.desc, b.desc, c.desc, s.desc, s.desc};
    const aclTensorDesc *out[] = {c.desc};
    if (aclopCompile("GEMM", 5, in, 1, out, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr))
      return state.SkipWithError(aclGetRecentErrMsg());
  }
  state.SetLabel(cold ? "cold" : "warm (memory cache)");
}
BENCHMARK(BM_CompileGemm)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

// Warm from the disk cache: aclFinalize empties the memory cache, as a new process starts empty.
void BM_CompileGemmFromDiskCache(benchmark::State &state) {
  char dir[] = "/tmp/aclcpu-bench-cache-XXXXXX";
  if (mkdtemp(dir) == nullptr) return state.SkipWithError("mkdtemp");
  setenv("ACLCPU_CACHE_DIR", dir, 1);
  auto compile = [&] {
    Tensor a(ACL_FLOAT, {64, 64}, 4), s(ACL_FLOAT, {}, 4);
    const aclTensorDesc *in[] = {a.desc, a.desc, a.desc, s.desc, s.desc};
    const aclTensorDesc *out[] = {a.desc};
    return aclopCompile("GEMM", 5, in, 1, out, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr);
  };
  {
    Runtime fill;  // writes the cache file
    if (compile()) return state.SkipWithError(aclGetRecentErrMsg());
  }
  for (auto _ : state) {
    state.PauseTiming();
    auto runtime = std::make_unique<Runtime>();  // fresh memory cache
    state.ResumeTiming();
    aclError error = compile();
    state.PauseTiming();
    runtime.reset();
    state.ResumeTiming();
    if (error) return state.SkipWithError("compile from the disk cache failed");
  }
  unsetenv("ACLCPU_CACHE_DIR");
  std::string command = std::string("rm -rf ") + dir;
  if (system(command.c_str()) != 0) state.SkipWithError("cleanup");
}
BENCHMARK(BM_CompileGemmFromDiskCache)->Unit(benchmark::kMillisecond)->Iterations(20);

// An m x n x k GEMM through a handle (C = op(A) op(B), row-major), `counter` = 2 m n k
// operations per second.
void runGemmHandle(benchmark::State &state, aclDataType in, size_t inBytes, aclDataType out, const char *counter,
                   int64_t m, int64_t n, int64_t k, bool ta = false, bool tb = false) {
  Runtime runtime;
  aclopHandle *handle = nullptr;
  if (aclblasCreateHandleForGemmEx(ta ? ACL_TRANS_T : ACL_TRANS_N, tb ? ACL_TRANS_T : ACL_TRANS_N, ACL_TRANS_N, m, n, k,
                                   in, in, out, ACL_COMPUTE_HIGH_PRECISION, &handle))
    return state.SkipWithError(aclGetRecentErrMsg());
  Tensor a(in, {m, k}, inBytes), b(in, {k, n}, inBytes), c(out, {m, n}, 4), alpha(out, {}, 4), beta(out, {}, 4);
  // C = 1 * A B + 0 * C, as the anchors compute (a zero alpha would be a different GEMM).
  float oneF32 = 1;
  int32_t oneS32 = 1;
  aclrtMemcpy(alpha.device, 4, out == ACL_INT32 ? static_cast<const void *>(&oneS32) : &oneF32, 4,
              ACL_MEMCPY_HOST_TO_DEVICE);
  const aclDataBuffer *inputs[] = {a.buffer, b.buffer, c.buffer, alpha.buffer, beta.buffer};
  runHandle(state, runtime, handle, inputs, c.buffer);
  state.counters[counter] =
      benchmark::Counter(2.0 * m * n * k * state.iterations(), benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

void runGemmHandle(benchmark::State &state, aclDataType in, size_t inBytes, aclDataType out, const char *counter) {
  int64_t n = state.range(0);
  runGemmHandle(state, in, inBytes, out, counter, n, n, n);
}

void BM_GemmF32Handle(benchmark::State &state) { runGemmHandle(state, ACL_FLOAT, 4, ACL_FLOAT, "GFLOP/s"); }
BENCHMARK(BM_GemmF32Handle)->Arg(64)->Arg(256)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_OpenBlasSgemm(benchmark::State &state) {
  openblas_set_num_threads(1);
  int n = static_cast<int>(state.range(0));
  AlignedHostArray<float> a(size_t(n) * n, 0.5f), b(size_t(n) * n, 0.25f), c(size_t(n) * n, 0);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
    benchmark::ClobberMemory();
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * n * n * n * state.iterations(), benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_OpenBlasSgemm)->Arg(64)->Arg(256)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

// The other fp32 shapes, (m, n, k, transpose a, transpose b), beside OpenBLAS: sizes
// that divide no tile, few rows against a large B, and transposed operands (at 256^3 and 512^3
// generated register tiles and the ukernel split them; 1024^3 is the ukernel's).
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

void BM_OpenBlasSgemmShapes(benchmark::State &state) {
  openblas_set_num_threads(1);
  int m = static_cast<int>(state.range(0)), n = static_cast<int>(state.range(1)), k = static_cast<int>(state.range(2));
  bool ta = state.range(3) != 0, tb = state.range(4) != 0;
  AlignedHostArray<float> a(size_t(m) * k, 0.5f), b(size_t(k) * n, 0.25f), c(size_t(m) * n, 0);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a.data(),
                ta ? m : k, b.data(), tb ? k : n, 0.0f, c.data(), n);
    benchmark::ClobberMemory();
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * m * n * k * state.iterations(), benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_OpenBlasSgemmShapes)->Apply(gemmShapes);

// s8 x s8 -> s32 GEMM through a handle (the AVX512-VNNI ukernel where the CPU has it), GOP/s.
void BM_GemmS8Handle(benchmark::State &state) { runGemmHandle(state, ACL_INT8, 1, ACL_INT32, "GOP/s"); }
BENCHMARK(BM_GemmS8Handle)->Arg(64)->Arg(256)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

// bf16 and f16 x same -> f32 GEMM through a handle.
void BM_GemmBf16Handle(benchmark::State &state) { runGemmHandle(state, ACL_BF16, 2, ACL_FLOAT, "GFLOP/s"); }
BENCHMARK(BM_GemmBf16Handle)->Arg(64)->Arg(256)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();
void BM_GemmF16Handle(benchmark::State &state) { runGemmHandle(state, ACL_FLOAT16, 2, ACL_FLOAT, "GFLOP/s"); }
BENCHMARK(BM_GemmF16Handle)->Arg(64)->Arg(256)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

#ifdef ACLCPU_HAVE_ONEDNN
// oneDNN's matmul primitive, `in` x `in` -> f32, with B reordered once into the layout the
// primitive prefers (pre-packed weights, as the oneDNN anchors are measured), one thread.
void runOneDnnMatmul(benchmark::State &state, dnnl::memory::data_type in) {
  using tag = dnnl::memory::format_tag;
  int64_t n = state.range(0);
  try {
    dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    dnnl::stream stream(engine);
    dnnl::memory::desc plain({n, n}, in, tag::ab), anyLayout({n, n}, in, tag::any);
    dnnl::memory::desc result({n, n}, dnnl::memory::data_type::f32, tag::ab);
    dnnl::matmul::primitive_desc matmul(dnnl::matmul::desc(plain, anyLayout, result), engine);
    dnnl::memory a(plain, engine), bPlain(plain, engine), b(matmul.weights_desc(), engine), c(result, engine);
    for (const dnnl::memory *m : {&a, &bPlain, &c})
      std::memset(m->get_data_handle(), 0, m->get_desc().get_size());
    dnnl::reorder(bPlain, b).execute(stream, bPlain, b);
    dnnl::matmul primitive(matmul);
    for (auto _ : state) {
      primitive.execute(stream, {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, c}});
      stream.wait();
    }
    state.SetLabel(matmul.impl_info_str());
  } catch (const dnnl::error &error) {
    return state.SkipWithError(error.what());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * n * n * n * state.iterations(), benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}
void BM_OneDnnMatmulBf16(benchmark::State &state) { runOneDnnMatmul(state, dnnl::memory::data_type::bf16); }
BENCHMARK(BM_OneDnnMatmulBf16)->Arg(64)->Arg(256)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

// oneDNN's s8 x s8 -> s32 gemm (row-major, no offsets), one thread.
void BM_OneDnnGemmS8(benchmark::State &state) {
  int64_t n = state.range(0);
  AlignedHostArray<int8_t> a(size_t(n) * n, 3), b(size_t(n) * n, -2);
  AlignedHostArray<int32_t> c(size_t(n) * n, 0);
  const int32_t offsetC = 0;
  for (auto _ : state) {
    if (dnnl_gemm_s8s8s32('N', 'N', 'F', n, n, n, 1.0f, a.data(), n, 0, b.data(), n, 0, 0.0f, c.data(), n, &offsetC) !=
        dnnl_success)
      return state.SkipWithError("dnnl_gemm_s8s8s32 failed");
    benchmark::ClobberMemory();
  }
  state.counters["GOP/s"] =
      benchmark::Counter(2.0 * n * n * n * state.iterations(), benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_OneDnnGemmS8)->Arg(64)->Arg(256)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();

// oneDNN's sgemm (row-major), one OpenMP thread (OMP_NUM_THREADS=1 is set before it loads).
void BM_OneDnnSgemm(benchmark::State &state) {
  int64_t n = state.range(0);
  AlignedHostArray<float> a(size_t(n) * n, 0.5f), b(size_t(n) * n, 0.25f), c(size_t(n) * n, 0);
  for (auto _ : state) {
    if (dnnl_sgemm('N', 'N', n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n) != dnnl_success)
      return state.SkipWithError("dnnl_sgemm failed");
    benchmark::ClobberMemory();
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * n * n * n * state.iterations(), benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_OneDnnSgemm)->Arg(64)->Arg(256)->Arg(512)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

}  // namespace

namespace {

// The OpenBLAS kernel set for this CPU, or "" when OpenBLAS's own choice should stand.
const char *preferredOpenBlasCore() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")) return "SkylakeX";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
  return "";
}

}  // namespace

int main(int argc, char **argv) {
  std::string core = openblas_get_corename();
  const char *preferred = preferredOpenBlasCore();
  // Both libraries read their settings when they load: set them, then start again.
  bool restart = false;
  if (getenv("OPENBLAS_CORETYPE") == nullptr && *preferred && core != preferred &&
      (core == "Prescott" || core == "Core2" || core == "Nehalem" || core == "Sandybridge")) {
    setenv("OPENBLAS_CORETYPE", preferred, 1);
    restart = true;
  }
#ifdef ACLCPU_HAVE_ONEDNN
  if (getenv("OMP_NUM_THREADS") == nullptr) {
    setenv("OMP_NUM_THREADS", "1", 1);  // oneDNN's OpenMP pool: one thread, like the others
    restart = true;
  }
#endif
  if (restart) execv("/proc/self/exe", argv);
  printf("OpenBLAS kernels: %s\n", openblas_get_corename());
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
