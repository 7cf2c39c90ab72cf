// The eight-lane f32 and s32 vectors of the AVX2 ukernel file, as epilogue.h's Destination reads and
// writes C through them. A mask is the count of leading lanes (AVX2 has no mask registers; its
// masked loads and stores take a vector built from the count). In an anonymous namespace on
// purpose, as epilogue.h is.
#pragma once

#include "intrinsics.h"

#include <cstdint>

namespace {

template <class T>
struct Vector;

template <>
struct Vector<float> {
  using Type = __m256;
  using Mask = int64_t;  // the first `Mask` lanes (8: all)
  static constexpr int64_t kLanes = 8;
  static Mask firstLanes(int64_t count) { return count >= kLanes ? kLanes : count <= 0 ? 0 : count; }
  static __m256i laneMask(Mask mask) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(mask)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  static Type load(Mask mask, const float *p) {
    return mask == kLanes ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, laneMask(mask));
  }
  static void store(Mask mask, float *p, Type value) {
    if (mask == kLanes)
      _mm256_storeu_ps(p, value);
    else
      _mm256_maskstore_ps(p, laneMask(mask), value);
  }
  static Type add(Type x, Type y) { return _mm256_add_ps(x, y); }
  static Type mul(Type x, Type y) { return _mm256_mul_ps(x, y); }
  static Type splat(float x) { return _mm256_set1_ps(x); }
  static Type zero() { return _mm256_setzero_ps(); }
};

template <>
struct Vector<int32_t> {  // wrapping, like the reference
  using Type = __m256i;
  using Mask = int64_t;
  static constexpr int64_t kLanes = 8;
  static Mask firstLanes(int64_t count) { return Vector<float>::firstLanes(count); }
  static Type load(Mask mask, const int32_t *p) {
    return mask == kLanes ? _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p))
                          : _mm256_maskload_epi32(reinterpret_cast<const int *>(p), Vector<float>::laneMask(mask));
  }
  static void store(Mask mask, int32_t *p, Type value) {
    if (mask == kLanes)
      _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), value);
    else
      _mm256_maskstore_epi32(reinterpret_cast<int *>(p), Vector<float>::laneMask(mask), value);
  }
  static Type add(Type x, Type y) { return _mm256_add_epi32(x, y); }
  static Type mul(Type x, Type y) { return _mm256_mullo_epi32(x, y); }
  static Type splat(int32_t x) { return _mm256_set1_epi32(x); }
  static Type zero() { return _mm256_setzero_si256(); }
};

}  // namespace
