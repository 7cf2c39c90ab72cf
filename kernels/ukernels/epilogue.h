// Where a ukernel's register tiles leave their sums: the two modes of the ABI (ukernels.h) and
// the partial sums of a product deeper than one packed panel. Shared by the ukernel files, in
// an anonymous namespace on purpose: each file compiles its own copy with its own instruction
// sets (see gemm_s8s8s32_vnni.cpp on inline code).
#pragma once

#include "intrinsics.h"

#include <cstdint>

namespace {

template <class T>
struct Vector;
template <>
struct Vector<float> {
  using Type = __m512;
  static Type load(__mmask16 mask, const float *p) { return _mm512_maskz_loadu_ps(mask, p); }
  static void store(__mmask16 mask, float *p, Type value) { _mm512_mask_storeu_ps(p, mask, value); }
  static Type add(Type x, Type y) { return _mm512_add_ps(x, y); }
  static Type mul(Type x, Type y) { return _mm512_mul_ps(x, y); }
  static Type splat(float x) { return _mm512_set1_ps(x); }
};
template <>
struct Vector<int32_t> {  // wrapping arithmetic, like the reference
  using Type = __m512i;
  static Type load(__mmask16 mask, const int32_t *p) { return _mm512_maskz_loadu_epi32(mask, p); }
  static void store(__mmask16 mask, int32_t *p, Type value) { _mm512_mask_storeu_epi32(p, mask, value); }
  static Type add(Type x, Type y) { return _mm512_add_epi32(x, y); }
  static Type mul(Type x, Type y) { return _mm512_mullo_epi32(x, y); }
  static Type splat(int32_t x) { return _mm512_set1_epi32(x); }
};

// What one depth chunk does with its sums x: out += x (accumulate mode, or the partial sums of
// a middle chunk), out = x (the first of several chunks), or, for the last chunk of a scaled
// call, out = alpha * (partial + x) + beta * cIn, computed as GEMM's generated epilogue does
// (the same operations in the same order, so the result does not depend on the path).
template <class T>
struct Destination {
  enum class Mode { Add, Store, Scale };
  Mode mode = Mode::Add;
  T *out = nullptr;
  int64_t outRowStride = 0;
  const T *partial = nullptr;  // Scale: the earlier chunks' sums, if any
  int64_t partialRowStride = 0;
  T alpha = 0, beta = 0;
  const T *cIn = nullptr;  // Scale: null when beta == 0 (C is then not read, as in BLAS)
  int64_t cInRowStride = 0;

  // The same destination from (row, column) on.
  Destination at(int64_t row, int64_t column) const {
    Destination moved = *this;
    moved.out += row * outRowStride + column;
    if (partial) moved.partial += row * partialRowStride + column;
    if (cIn) moved.cIn += row * cInRowStride + column;
    return moved;
  }

  // Sixteen sums of row `row` from column `column` on, the lanes in `mask`.
  void put(int64_t row, int64_t column, typename Vector<T>::Type x, __mmask16 mask) const {
    using V = Vector<T>;
    T *target = out + row * outRowStride + column;
    if (mode == Mode::Add) x = V::add(V::load(mask, target), x);
    if (mode == Mode::Scale) {
      if (partial) x = V::add(V::load(mask, partial + row * partialRowStride + column), x);
      x = V::mul(V::splat(alpha), x);
      if (cIn) x = V::add(x, V::mul(V::splat(beta), V::load(mask, cIn + row * cInRowStride + column)));
    }
    V::store(mask, target, x);
  }
};

// The epilogue arguments of a call (ukernels.h) and the destination of each depth chunk.
template <class T>
struct Epilogue {
  const T *alpha, *beta, *cIn;
  int64_t cInRowStride;

  bool scaled() const { return alpha != nullptr; }

  // The chunk [first?, last?] of the columns from `column` on: in accumulate mode always C;
  // in scaled mode C only for the last chunk, the partial sums (row stride partialRowStride,
  // from column 0 of the panel) before it.
  Destination<T> chunk(bool first, bool last, T *c, int64_t cRowStride, int64_t column, T *partial,
                       int64_t partialRowStride) const {
    Destination<T> d;
    if (!scaled() || last) {
      d.out = c + column;
      d.outRowStride = cRowStride;
    } else {
      d.out = partial;
      d.outRowStride = partialRowStride;
    }
    if (!scaled()) return d;
    d.mode = !last ? (first ? Destination<T>::Mode::Store : Destination<T>::Mode::Add) : Destination<T>::Mode::Scale;
    if (last) {
      if (!first) {
        d.partial = partial;
        d.partialRowStride = partialRowStride;
      }
      d.alpha = *alpha;
      d.beta = *beta;
      if (d.beta != 0) {
        d.cIn = cIn + column;
        d.cInRowStride = cInRowStride;
      }
    }
    return d;
  }
};

}  // namespace
