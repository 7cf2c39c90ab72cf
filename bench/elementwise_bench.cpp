// Memory-bound operators on one core, 64M elements (256 MiB of f32): Add f32 and Casts
// through handles, alone (BM_CastHandle, BM_AddF32Handle) and side by side in one process
// (BM_PairedCast, BM_PairedAdd: paired_runs.h) with memcpy moving the same number of bytes and
// a hand-written AVX-512 loop per conversion (streaming stores, the same rounding as the
// operator). Every figure is GB/s of traffic: bytes read plus bytes written.
#include "bench_support.h"
#include "paired_runs.h"

#include "acl/acl_op.h"

#include <benchmark/benchmark.h>
#include "intrinsics.h"  // <immintrin.h> without GCC 12's false warnings

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace {

using aclcpu_bench::Contender;
using aclcpu_bench::runHandle;
using aclcpu_bench::Runtime;
using aclcpu_bench::Tensor;

constexpr int64_t kElements = int64_t(64) << 20;

struct CastCase {
  const char *name;
  aclDataType from, to;
  size_t fromBytes, toBytes;
};
const CastCase kCasts[] = {
    {"f32->f16", ACL_FLOAT, ACL_FLOAT16, 4, 2}, {"f16->f32", ACL_FLOAT16, ACL_FLOAT, 2, 4},
    {"f32->bf16", ACL_FLOAT, ACL_BF16, 4, 2},   {"bf16->f32", ACL_BF16, ACL_FLOAT, 2, 4},
    {"f32->i32", ACL_FLOAT, ACL_INT32, 4, 4},   {"i32->f32", ACL_INT32, ACL_FLOAT, 4, 4},
};

void setTraffic(benchmark::State &state, double bytesPerIteration) {
  state.counters["GB/s"] = benchmark::Counter(bytesPerIteration * state.iterations(), benchmark::Counter::kIsRate,
                                              benchmark::Counter::kIs1000);
}

void BM_CastHandle(benchmark::State &state) {
  const CastCase &c = kCasts[state.range(0)];
  Runtime runtime;
  Tensor in(c.from, {kElements}, c.fromBytes), out(c.to, {kElements}, c.toBytes);
  aclopHandle *handle = nullptr;
  if (aclopCreateHandleForCast(in.desc, out.desc, 0, &handle)) return state.SkipWithError(aclGetRecentErrMsg());
  const aclDataBuffer *inputs[] = {in.buffer};
  runHandle(state, runtime, handle, inputs, out.buffer);
  state.SetLabel(c.name);
  setTraffic(state, double(kElements) * (c.fromBytes + c.toBytes));
}
BENCHMARK(BM_CastHandle)->DenseRange(0, 5)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_AddF32Handle(benchmark::State &state) {
  Runtime runtime;
  Tensor a(ACL_FLOAT, {kElements}, 4), b(ACL_FLOAT, {kElements}, 4), out(ACL_FLOAT, {kElements}, 4);
  const aclTensorDesc *descs[] = {a.desc, b.desc};
  const aclTensorDesc *outDescs[] = {out.desc};
  if (aclopCompile("Add", 2, descs, 1, outDescs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr))
    return state.SkipWithError(aclGetRecentErrMsg());
  aclopHandle *handle = nullptr;
  if (aclopCreateHandle("Add", 2, descs, 1, outDescs, nullptr, &handle)) return state.SkipWithError(aclGetRecentErrMsg());
  const aclDataBuffer *inputs[] = {a.buffer, b.buffer};
  runHandle(state, runtime, handle, inputs, out.buffer);
  setTraffic(state, double(kElements) * 12);
}
BENCHMARK(BM_AddF32Handle)->Unit(benchmark::kMillisecond)->UseRealTime();

// memcpy of half the traffic (it reads and writes each byte once): 6, 8 and 12 bytes of
// traffic per element match the 16-to-32-bit casts, the 32-to-32-bit casts and Add.
void BM_MemcpySameTraffic(benchmark::State &state) {
  size_t bytes = size_t(kElements) * state.range(0) / 2;
  Runtime runtime;
  Tensor from(ACL_UINT8, {int64_t(bytes)}, 1), to(ACL_UINT8, {int64_t(bytes)}, 1);
  for (auto _ : state) {
    memcpy(to.device, from.device, bytes);
    benchmark::ClobberMemory();
  }
  setTraffic(state, 2.0 * bytes);
}
BENCHMARK(BM_MemcpySameTraffic)->Arg(6)->Arg(8)->Arg(12)->Unit(benchmark::kMillisecond)->UseRealTime();

#if defined(__x86_64__)
#define ACLCPU_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,f16c")))

// Sixteen f32 rounded to bf16 to nearest even, NaN kept quiet: what Cast computes.
ACLCPU_AVX512 __m256i toBf16(__m512 x) {
  __m512i bits = _mm512_castps_si512(x);
  __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(1));
  __m512i rounded = _mm512_srli_epi32(_mm512_add_epi32(bits, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff))), 16);
  __mmask16 nan = _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
  __m512i quiet = _mm512_or_si512(_mm512_srli_epi32(bits, 16), _mm512_set1_epi32(0x40));
  return _mm512_cvtepi32_epi16(_mm512_mask_mov_epi32(rounded, nan, quiet));
}

// Streaming stores, and the input prefetched into L2 8 KiB ahead, as the operator's streaming
// code does (it made the difference on this VM's memory).
ACLCPU_AVX512 void handCast(int which, const void *in, int64_t inBytes, void *out, int64_t n) {
  for (int64_t i = 0; i < n; i += 16) {
    _mm_prefetch(static_cast<const char *>(in) + i * inBytes + 8192, _MM_HINT_T1);
    switch (which) {
      case 0: {
        __m512 x = _mm512_loadu_ps(static_cast<const float *>(in) + i);
        _mm256_stream_si256(reinterpret_cast<__m256i *>(static_cast<uint16_t *>(out) + i),
                            _mm512_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT));
        break;
      }
      case 1: {
        __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(static_cast<const uint16_t *>(in) + i));
        _mm512_stream_ps(static_cast<float *>(out) + i, _mm512_cvtph_ps(h));
        break;
      }
      case 2:
        _mm256_stream_si256(reinterpret_cast<__m256i *>(static_cast<uint16_t *>(out) + i),
                            toBf16(_mm512_loadu_ps(static_cast<const float *>(in) + i)));
        break;
      case 3: {
        __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(static_cast<const uint16_t *>(in) + i));
        _mm512_stream_si512(reinterpret_cast<__m512i *>(static_cast<float *>(out) + i), _mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
        break;
      }
      case 4: {  // truncating, saturated (NaN -> 0) like Cast
        __m512 x = _mm512_loadu_ps(static_cast<const float *>(in) + i);
        __m512 clamped = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(-2147483648.0f)), _mm512_set1_ps(2147483520.0f));
        __m512i v = _mm512_maskz_cvttps_epi32(_mm512_cmp_ps_mask(x, x, _CMP_ORD_Q), clamped);
        v = _mm512_mask_mov_epi32(v, _mm512_cmp_ps_mask(x, _mm512_set1_ps(2147483648.0f), _CMP_GE_OQ),
                                  _mm512_set1_epi32(INT32_MAX));
        _mm512_stream_si512(reinterpret_cast<__m512i *>(static_cast<int32_t *>(out) + i), v);
        break;
      }
      default:
        _mm512_stream_ps(static_cast<float *>(out) + i,
                         _mm512_cvtepi32_ps(_mm512_loadu_si512(static_cast<const int32_t *>(in) + i)));
    }
  }
  _mm_sfence();
}

void BM_HandWrittenCast(benchmark::State &state) {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw"))
    return state.SkipWithError("needs AVX-512");
  const CastCase &c = kCasts[state.range(0)];
  Runtime runtime;
  Tensor in(c.from, {kElements}, c.fromBytes), out(c.to, {kElements}, c.toBytes);
  for (auto _ : state) {
    handCast(static_cast<int>(state.range(0)), in.device, static_cast<int64_t>(c.fromBytes), out.device, kElements);
    benchmark::ClobberMemory();
  }
  state.SetLabel(c.name);
  setTraffic(state, double(kElements) * (c.fromBytes + c.toBytes));
}
BENCHMARK(BM_HandWrittenCast)->DenseRange(0, 5)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

// A handle over `inputs` (the tensors of `descs`) writing `out`, synchronized.
class HandleRun : public Contender {
 public:
  HandleRun(const Runtime &runtime, aclopHandle *handle, std::vector<const aclDataBuffer *> inputs,
            aclDataBuffer *output)
      : Contender("aclcpu"), runtime_(runtime), handle_(handle), inputs_(std::move(inputs)), output_(output) {
    if (handle_ == nullptr) fail(aclGetRecentErrMsg());
  }
  ~HandleRun() override { aclopDestroyHandle(handle_); }
  bool call() override {
    if (handle_ == nullptr) return false;
    aclDataBuffer *outputs[] = {output_};
    if (aclopExecWithHandle(handle_, static_cast<int>(inputs_.size()), inputs_.data(), 1, outputs, runtime_.stream) !=
            ACL_SUCCESS ||
        aclrtSynchronizeStream(runtime_.stream) != ACL_SUCCESS)
      return fail(aclGetRecentErrMsg());
    return true;
  }

 private:
  const Runtime &runtime_;
  aclopHandle *handle_;
  std::vector<const aclDataBuffer *> inputs_;
  aclDataBuffer *output_;
};

// memcpy of `bytes` (traffic: twice that).
class MemcpyRun : public Contender {
 public:
  explicit MemcpyRun(size_t bytes)
      : Contender("memcpy"), bytes_(bytes), from_(ACL_UINT8, {int64_t(bytes)}, 1), to_(ACL_UINT8, {int64_t(bytes)}, 1) {}
  bool call() override {
    memcpy(to_.device, from_.device, bytes_);
    benchmark::ClobberMemory();
    return true;
  }

 private:
  size_t bytes_;
  Tensor from_, to_;
};

#if defined(__x86_64__)
class HandWrittenCastRun : public Contender {
 public:
  explicit HandWrittenCastRun(int which)
      : Contender("hand-written"), which_(which), in_(kCasts[which].from, {kElements}, kCasts[which].fromBytes),
        out_(kCasts[which].to, {kElements}, kCasts[which].toBytes) {}
  bool call() override {
    handCast(which_, in_.device, static_cast<int64_t>(kCasts[which_].fromBytes), out_.device, kElements);
    benchmark::ClobberMemory();
    return true;
  }

 private:
  int which_;
  Tensor in_, out_;
};
#endif

constexpr int kPairedRounds = 15;

// A cast beside memcpy of the same traffic and the hand-written loop; ours is labelled with the cast.
void BM_PairedCast(benchmark::State &state) {
  const CastCase &c = kCasts[state.range(0)];
  Runtime runtime;
  Tensor in(c.from, {kElements}, c.fromBytes), out(c.to, {kElements}, c.toBytes);
  aclopHandle *handle = nullptr;
  aclopCreateHandleForCast(in.desc, out.desc, 0, &handle);
  std::vector<std::unique_ptr<Contender>> contenders;
  contenders.push_back(std::make_unique<HandleRun>(runtime, handle, std::vector<const aclDataBuffer *>{in.buffer},
                                                   out.buffer));
  contenders.back()->label = c.name;
  const size_t traffic = size_t(kElements) * (c.fromBytes + c.toBytes);
  contenders.push_back(std::make_unique<MemcpyRun>(traffic / 2));
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
    contenders.push_back(std::make_unique<HandWrittenCastRun>(static_cast<int>(state.range(0))));
#endif
  aclcpu_bench::runPaired(state, contenders, double(traffic), "GB/s");
}
BENCHMARK(BM_PairedCast)->DenseRange(0, 5)->Iterations(kPairedRounds)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_PairedAdd(benchmark::State &state) {
  Runtime runtime;
  Tensor a(ACL_FLOAT, {kElements}, 4), b(ACL_FLOAT, {kElements}, 4), out(ACL_FLOAT, {kElements}, 4);
  const aclTensorDesc *descs[] = {a.desc, b.desc};
  const aclTensorDesc *outDescs[] = {out.desc};
  aclopHandle *handle = nullptr;
  if (aclopCompile("Add", 2, descs, 1, outDescs, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr) == ACL_SUCCESS)
    aclopCreateHandle("Add", 2, descs, 1, outDescs, nullptr, &handle);
  std::vector<std::unique_ptr<Contender>> contenders;
  contenders.push_back(std::make_unique<HandleRun>(runtime, handle,
                                                   std::vector<const aclDataBuffer *>{a.buffer, b.buffer}, out.buffer));
  contenders.push_back(std::make_unique<MemcpyRun>(size_t(kElements) * 6));
  aclcpu_bench::runPaired(state, contenders, double(kElements) * 12, "GB/s");
}
BENCHMARK(BM_PairedAdd)->Iterations(kPairedRounds)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
