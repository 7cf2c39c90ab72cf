// Memory-bound operators on one core, 64M elements (256 MiB of f32): Add f32 and Casts
// through handles, alone (BM_CastHandle, BM_AddF32Handle) and side by side in one process
// (BM_PairedCast, BM_PairedAdd: paired_runs.h) with memcpy moving the same number of bytes and
// a hand-written loop per conversion (AVX-512, or AVX2 with F16C on CPUs without it; streaming
// stores, the same rounding as the operator). Every figure is GB/s of traffic: bytes read plus
// bytes written.
#include "bench_support.h"

#include "acl/acl_op.h"

#include <benchmark/benchmark.h>
#if defined(__x86_64__)
#include "intrinsics.h"  // <immintrin.h> without GCC 12's false warnings
#endif

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace {

using aclcpu_bench::Contender;
using aclcpu_bench::HandleContender;
using aclcpu_bench::MemcpyRun;
using aclcpu_bench::Runtime;
using aclcpu_bench::Tensor;

constexpr int64_t kElements = int64_t(64) << 20;
constexpr int kPairedRounds = 15;

struct CastCase {
  const char *name;
  aclDataType from, to;
  size_t fromBytes, toBytes;
  double traffic() const { return double(kElements) * double(fromBytes + toBytes); }
};
const CastCase kCasts[] = {
    {"f32->f16", ACL_FLOAT, ACL_FLOAT16, 4, 2}, {"f16->f32", ACL_FLOAT16, ACL_FLOAT, 2, 4},
    {"f32->bf16", ACL_FLOAT, ACL_BF16, 4, 2},   {"bf16->f32", ACL_BF16, ACL_FLOAT, 2, 4},
    {"f32->i32", ACL_FLOAT, ACL_INT32, 4, 4},   {"i32->f32", ACL_INT32, ACL_FLOAT, 4, 4},
};

// A Cast through a handle, labelled with the conversion.
class CastRun : public HandleContender {
 public:
  CastRun(const Runtime &runtime, const CastCase &c)
      : HandleContender(runtime), in_(c.from, {kElements}, c.fromBytes), out_(c.to, {kElements}, c.toBytes) {
    aclopHandle *handle = nullptr;
    if (aclopCreateHandleForCast(in_.desc, out_.desc, 0, &handle) != ACL_SUCCESS) handle = nullptr;
    bind(handle, {in_.buffer}, out_.buffer);
    label = c.name;
  }

 private:
  Tensor in_, out_;
};

// Add f32 through a handle.
class AddRun : public HandleContender {
 public:
  explicit AddRun(const Runtime &runtime)
      : HandleContender(runtime), a_(ACL_FLOAT, {kElements}, 4), b_(ACL_FLOAT, {kElements}, 4),
        out_(ACL_FLOAT, {kElements}, 4) {
    compileAndBind("Add", {a_.desc, b_.desc}, out_.desc, {a_.buffer, b_.buffer}, out_.buffer);
  }

 private:
  Tensor a_, b_, out_;
};

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

#define ACLCPU_AVX2 __attribute__((target("avx2,fma,f16c")))

// Eight f32 rounded to bf16 as toBf16 rounds them.
ACLCPU_AVX2 __m128i toBf16(__m256 x) {
  __m256i bits = _mm256_castps_si256(x);
  __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(bits, 16), _mm256_set1_epi32(1));
  __m256i rounded = _mm256_srli_epi32(_mm256_add_epi32(bits, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7fff))), 16);
  __m256i quiet = _mm256_or_si256(_mm256_srli_epi32(bits, 16), _mm256_set1_epi32(0x40));
  __m256i chosen = _mm256_blendv_epi8(rounded, quiet, _mm256_castps_si256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q)));
  return _mm_packus_epi32(_mm256_castsi256_si128(chosen), _mm256_extracti128_si256(chosen, 1));
}

// handCast on AVX2: eight elements a step, the same prefetching and streaming stores.
ACLCPU_AVX2 void handCastAvx2(int which, const void *in, int64_t inBytes, void *out, int64_t n) {
  for (int64_t i = 0; i < n; i += 8) {
    _mm_prefetch(static_cast<const char *>(in) + i * inBytes + 8192, _MM_HINT_T1);
    auto *half = reinterpret_cast<__m128i *>(static_cast<uint16_t *>(out) + i);
    auto *word = static_cast<float *>(out) + i;
    const auto *halfIn = reinterpret_cast<const __m128i *>(static_cast<const uint16_t *>(in) + i);
    switch (which) {
      case 0:
        _mm_stream_si128(half, _mm256_cvtps_ph(_mm256_loadu_ps(static_cast<const float *>(in) + i),
                                               _MM_FROUND_TO_NEAREST_INT));
        break;
      case 1: _mm256_stream_ps(word, _mm256_cvtph_ps(_mm_loadu_si128(halfIn))); break;
      case 2: _mm_stream_si128(half, toBf16(_mm256_loadu_ps(static_cast<const float *>(in) + i))); break;
      case 3:
        _mm256_stream_si256(reinterpret_cast<__m256i *>(word),
                            _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128(halfIn)), 16));
        break;
      case 4: {  // truncating, saturated (NaN -> 0) like Cast
        __m256 x = _mm256_loadu_ps(static_cast<const float *>(in) + i);
        __m256 clamped = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-2147483648.0f)), _mm256_set1_ps(2147483520.0f));
        __m256i v = _mm256_and_si256(_mm256_cvttps_epi32(clamped), _mm256_castps_si256(_mm256_cmp_ps(x, x, _CMP_ORD_Q)));
        v = _mm256_blendv_epi8(v, _mm256_set1_epi32(INT32_MAX),
                               _mm256_castps_si256(_mm256_cmp_ps(x, _mm256_set1_ps(2147483648.0f), _CMP_GE_OQ)));
        _mm256_stream_si256(reinterpret_cast<__m256i *>(word), v);
        break;
      }
      default:
        _mm256_stream_ps(word, _mm256_cvtepi32_ps(_mm256_loadu_si256(
                                   reinterpret_cast<const __m256i *>(static_cast<const int32_t *>(in) + i))));
    }
  }
  _mm_sfence();
}

// Which hand-written loop this CPU runs: 512 (AVX-512), 256 (AVX2 with F16C) or none (0).
int handCastWidth() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) return 512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c")) return 256;
  return 0;
}

// The hand-written loop of kCasts[which], on device buffers.
class HandWrittenCastRun : public Contender {
 public:
  explicit HandWrittenCastRun(int which)
      : Contender("hand-written"), which_(which), in_(kCasts[which].from, {kElements}, kCasts[which].fromBytes),
        out_(kCasts[which].to, {kElements}, kCasts[which].toBytes) {}
  bool call() override {
    const auto inBytes = static_cast<int64_t>(kCasts[which_].fromBytes);
    if (width_ == 512)
      handCast(which_, in_.device, inBytes, out_.device, kElements);
    else
      handCastAvx2(which_, in_.device, inBytes, out_.device, kElements);
    benchmark::ClobberMemory();
    return true;
  }

 private:
  int which_;
  int width_ = handCastWidth();
  Tensor in_, out_;
};
#endif

// Alone: ours, memcpy and the hand-written loops, each in a benchmark of its own.
void BM_CastHandle(benchmark::State &state) {
  const CastCase &c = kCasts[state.range(0)];
  Runtime runtime;
  CastRun cast(runtime, c);
  aclcpu_bench::runAlone(state, cast, c.traffic(), "GB/s");
}
BENCHMARK(BM_CastHandle)->DenseRange(0, 5)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_AddF32Handle(benchmark::State &state) {
  Runtime runtime;
  AddRun add(runtime);
  aclcpu_bench::runAlone(state, add, double(kElements) * 12, "GB/s");
}
BENCHMARK(BM_AddF32Handle)->Unit(benchmark::kMillisecond)->UseRealTime();

// memcpy of half the traffic (it reads and writes each byte once): 6, 8 and 12 bytes of
// traffic per element match the 16-to-32-bit casts, the 32-to-32-bit casts and Add.
void BM_MemcpySameTraffic(benchmark::State &state) {
  size_t bytes = size_t(kElements) * state.range(0) / 2;
  Runtime runtime;
  MemcpyRun copy(bytes);
  aclcpu_bench::runAlone(state, copy, 2.0 * double(bytes), "GB/s");
}
BENCHMARK(BM_MemcpySameTraffic)->Arg(6)->Arg(8)->Arg(12)->Unit(benchmark::kMillisecond)->UseRealTime();

#if defined(__x86_64__)
void BM_HandWrittenCast(benchmark::State &state) {
  if (handCastWidth() == 0) return state.SkipWithError("needs AVX-512, or AVX2 with FMA and F16C");
  Runtime runtime;
  HandWrittenCastRun cast(static_cast<int>(state.range(0)));
  cast.label = kCasts[state.range(0)].name;
  aclcpu_bench::runAlone(state, cast, kCasts[state.range(0)].traffic(), "GB/s");
}
BENCHMARK(BM_HandWrittenCast)->DenseRange(0, 5)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

// Side by side (paired_runs.h): a cast beside memcpy of the same traffic and the hand-written
// loop (labelled by ours, with the cast's name), Add beside memcpy.
void BM_PairedCast(benchmark::State &state) {
  const CastCase &c = kCasts[state.range(0)];
  Runtime runtime;
  std::vector<std::unique_ptr<Contender>> contenders;
  contenders.push_back(std::make_unique<CastRun>(runtime, c));
  contenders.push_back(std::make_unique<MemcpyRun>(size_t(c.traffic()) / 2));
#if defined(__x86_64__)
  if (handCastWidth() != 0) contenders.push_back(std::make_unique<HandWrittenCastRun>(static_cast<int>(state.range(0))));
#endif
  aclcpu_bench::runPaired(state, contenders, c.traffic(), "GB/s");
}
BENCHMARK(BM_PairedCast)->DenseRange(0, 5)->Iterations(kPairedRounds)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_PairedAdd(benchmark::State &state) {
  Runtime runtime;
  std::vector<std::unique_ptr<Contender>> contenders;
  contenders.push_back(std::make_unique<AddRun>(runtime));
  contenders.push_back(std::make_unique<MemcpyRun>(size_t(kElements) * 6));
  aclcpu_bench::runPaired(state, contenders, double(kElements) * 12, "GB/s");
}
BENCHMARK(BM_PairedAdd)->Iterations(kPairedRounds)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
