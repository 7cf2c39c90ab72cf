// Single-operator figures: dispatch cost of a 1-element Add (handle and ExecuteV2 paths),
// compile time (cold and warm cache), and (gemm_bench.cpp) GEMM through a handle, alone and
// beside OpenBLAS and oneDNN in the same process, all on one core.
// OpenBLAS's DYNAMIC_ARCH picks its kernels when it loads; on CPUs it does not recognize it
// falls back to SSE3 ("Prescott") kernels that run ~5x slower than its AVX-512 ones, which
// would make a meaningless anchor. main() then re-executes this program with
// OPENBLAS_CORETYPE naming the best kernel set the CPU supports, and prints which one ran.
// oneDNN is the second anchor when Debian's libdnnl-dev is installed; its OpenMP pool reads
// OMP_NUM_THREADS when it loads, so main() sets that to 1 the same way.
#include "bench_support.h"

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

extern "C" char *openblas_get_corename(void);

namespace {

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

// The target is a ratio (aclopExecuteV2 at most twice the handle path), so the two paths also
// run side by side in one process (paired_runs.h): ExecuteV2's calls a second over the handle's.
class AddThroughExecute : public aclcpu_bench::Contender {
 public:
  AddThroughExecute(const Runtime &runtime, const Tensor &a, const Tensor &out)
      : Contender("ExecuteV2"), runtime_(runtime), inDescs_{a.desc, a.desc}, outDescs_{out.desc},
        inputs_{a.buffer, a.buffer}, outputs_{out.buffer} {}
  bool call() override {
    if (aclopExecuteV2("Add", 2, inDescs_, inputs_, 1, outDescs_, outputs_, nullptr, runtime_.stream) != ACL_SUCCESS ||
        aclrtSynchronizeStream(runtime_.stream) != ACL_SUCCESS)
      return fail(aclGetRecentErrMsg());
    return true;
  }

 private:
  const Runtime &runtime_;
  aclTensorDesc *inDescs_[2], *outDescs_[1];
  aclDataBuffer *inputs_[2], *outputs_[1];
};

class AddThroughHandle : public aclcpu_bench::HandleContender {
 public:
  AddThroughHandle(const Runtime &runtime, const Tensor &a, const Tensor &out) : HandleContender(runtime, "handle") {
    compileAndBind("Add", {a.desc, a.desc}, out.desc, {a.buffer, a.buffer}, out.buffer);
  }
};

void BM_PairedAddDispatch(benchmark::State &state) {
  Runtime runtime;
  Tensor a(ACL_FLOAT, {1}, 4), out(ACL_FLOAT, {1}, 4);
  std::vector<std::unique_ptr<aclcpu_bench::Contender>> contenders;
  contenders.push_back(std::make_unique<AddThroughExecute>(runtime, a, out));
  contenders.push_back(std::make_unique<AddThroughHandle>(runtime, a, out));
  aclcpu_bench::runPaired(state, contenders, 1e3, "M calls/s");
}
BENCHMARK(BM_PairedAddDispatch)->Iterations(15)->UseRealTime();

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

}  // namespace

namespace {

// The OpenBLAS kernel set for this CPU, or "" when OpenBLAS's own choice should stand (always
// off x86: its SSE3 fallback for unknown CPUs is an x86 matter).
const char *preferredOpenBlasCore() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl")) return "SkylakeX";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
#endif
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
    setenv("ACLCPU_BENCH_SET_CORETYPE", "1", 1);  // ours, not the caller's (below)
    restart = true;
  }
#ifdef ACLCPU_HAVE_ONEDNN
  if (getenv("OMP_NUM_THREADS") == nullptr) {
    setenv("OMP_NUM_THREADS", "1", 1);  // oneDNN's OpenMP pool: one thread, like the others
    restart = true;
  }
#endif
  if (restart) execv("/proc/self/exe", argv);
  // A kernel set the environment forced is kept (the run asked for it), but said: some machines
  // set OPENBLAS_CORETYPE to an AVX2 set, which halves OpenBLAS on an AVX-512 CPU
  // (scripts/bench-report.py runs without it).
  const char *forced = getenv("OPENBLAS_CORETYPE");
  if (forced != nullptr && getenv("ACLCPU_BENCH_SET_CORETYPE") == nullptr)
    printf("OpenBLAS kernels: %s (forced by OPENBLAS_CORETYPE=%s; unset it to let OpenBLAS choose)\n",
           openblas_get_corename(), forced);
  else
    printf("OpenBLAS kernels: %s\n", openblas_get_corename());
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
