// The sixteen-lane vectors of the AVX-512 ukernel files, as epilogue.h's Destination reads and
// writes C through them. In an anonymous namespace on purpose, as epilogue.h is: each ukernel
// file compiles its own copy with its own instruction sets.
#pragma once

#include "intrinsics.h"

#include <cstdint>

namespace {

template <class T>
struct Vector;

// Loads and stores of sixteen lanes, plain where the mask has them all: on Zen 5 a masked store
// (or load) that misses L1 stalls where a plain one does not, and a register tile's rows of C
// are lines that left L1 long before. 1 thread, against masked stores in the same process:
// bf16 1024^3 +4%, M = 16, N = K = 4096 +19-25% (the streamed tiles' partial sums). `Lanes`
// gives each kind: loadAll/storeAll and the masked loadSome/storeSome.
template <class Lanes, class T>
struct PlainWhereWhole {
  using Mask = __mmask16;
  static constexpr int64_t kLanes = 16;
  static Mask firstLanes(int64_t count) { return ::firstLanes(count); }
  static auto load(Mask mask, const T *p) { return mask == kAllLanes ? Lanes::loadAll(p) : Lanes::loadSome(mask, p); }
  template <class Value>
  static void store(Mask mask, T *p, Value value) {
    if (mask == kAllLanes)
      Lanes::storeAll(p, value);
    else
      Lanes::storeSome(mask, p, value);
  }
};

template <>
struct Vector<float> : PlainWhereWhole<Vector<float>, float> {
  using Type = __m512;
  static Type loadAll(const float *p) { return _mm512_loadu_ps(p); }
  static Type loadSome(__mmask16 mask, const float *p) { return _mm512_maskz_loadu_ps(mask, p); }
  static void storeAll(float *p, Type value) { _mm512_storeu_ps(p, value); }
  static void storeSome(__mmask16 mask, float *p, Type value) { _mm512_mask_storeu_ps(p, mask, value); }
  static Type add(Type x, Type y) { return _mm512_add_ps(x, y); }
  static Type mul(Type x, Type y) { return _mm512_mul_ps(x, y); }
  static Type splat(float x) { return _mm512_set1_ps(x); }
  static Type zero() { return _mm512_setzero_ps(); }
};
template <>
struct Vector<int32_t> : PlainWhereWhole<Vector<int32_t>, int32_t> {  // wrapping, like the reference
  using Type = __m512i;
  static Type loadAll(const int32_t *p) { return _mm512_loadu_si512(p); }
  static Type loadSome(__mmask16 mask, const int32_t *p) { return _mm512_maskz_loadu_epi32(mask, p); }
  static void storeAll(int32_t *p, Type value) { _mm512_storeu_si512(p, value); }
  static void storeSome(__mmask16 mask, int32_t *p, Type value) { _mm512_mask_storeu_epi32(p, mask, value); }
  static Type add(Type x, Type y) { return _mm512_add_epi32(x, y); }
  static Type mul(Type x, Type y) { return _mm512_mullo_epi32(x, y); }
  static Type splat(int32_t x) { return _mm512_set1_epi32(x); }
  static Type zero() { return _mm512_setzero_si512(); }
};

}  // namespace
