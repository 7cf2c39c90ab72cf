// Where a ukernel's register tiles leave their sums: the two modes of the ABI (ukernels.h).
// Shared by the ukernel files, in an anonymous namespace on purpose: each file compiles its
// own copy with its own instruction sets (see gemm_s8s8s32_vnni.cpp on inline code).
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
  static auto load(__mmask16 mask, const T *p) {
    return mask == kAllLanes ? Lanes::loadAll(p) : Lanes::loadSome(mask, p);
  }
  template <class Value>
  static void store(__mmask16 mask, T *p, Value value) {
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

// What one depth chunk does with its sums x: C += x (accumulate mode), or, in scaled mode,
// C = alpha * x + beta * Cin for the first chunk (Cin read only if beta != 0: it may be C
// itself, each element read just before it is written) and C += alpha * x for the others, as
// BLAS's kernels do. The sums of earlier chunks are thus kept in C, in place.
template <class T>
struct Destination {
  enum class Mode { Add, ScaleAndAdd, Scale };
  Mode mode = Mode::Add;
  T *out = nullptr;
  int64_t outRowStride = 0;
  T alpha = 0, beta = 0;
  const T *cIn = nullptr;  // Scale: null when beta == 0 (Cin is then not read, as in BLAS)
  int64_t cInRowStride = 0;

  // What a register tile's sums start from: nothing (the chunk's sums reach C through put).
  typename Vector<T>::Type start(int64_t, int64_t, __mmask16) const { return Vector<T>::zero(); }

  // The same destination from (row, column) on, built field by field: a copy of a destination
  // just built read it back wider than it was written, which stalls (the streamed tiles, per
  // tile).
  Destination at(int64_t row, int64_t column) const {
    Destination moved;
    moved.mode = mode;
    moved.out = out + row * outRowStride + column;
    moved.outRowStride = outRowStride;
    moved.alpha = alpha;
    moved.beta = beta;
    moved.cIn = cIn ? cIn + row * cInRowStride + column : nullptr;
    moved.cInRowStride = cInRowStride;
    return moved;
  }

  // Sixteen sums of row `row` from column `column` on, the lanes in `mask`.
  void put(int64_t row, int64_t column, typename Vector<T>::Type x, __mmask16 mask) const {
    using V = Vector<T>;
    T *target = out + row * outRowStride + column;
    if (mode != Mode::Add) x = V::mul(V::splat(alpha), x);
    if (mode != Mode::Scale) x = V::add(V::load(mask, target), x);
    else if (cIn) x = V::add(x, V::mul(V::splat(beta), V::load(mask, cIn + row * cInRowStride + column)));
    V::store(mask, target, x);
  }
};

// The epilogue arguments of a call (ukernels.h) and the destination of each depth chunk.
template <class T>
struct Epilogue {
  const T *alpha, *beta, *cIn;
  int64_t cInRowStride;

  bool scaled() const { return alpha != nullptr; }

  // The destination of the first or a later depth chunk of C's columns from `column` on.
  Destination<T> chunk(bool first, T *c, int64_t cRowStride, int64_t column) const {
    Destination<T> d;
    d.out = c + column;
    d.outRowStride = cRowStride;
    if (!scaled()) return d;
    d.alpha = *alpha;
    d.mode = first ? Destination<T>::Mode::Scale : Destination<T>::Mode::ScaleAndAdd;
    d.beta = *beta;
    if (first && d.beta != 0) {
      d.cIn = cIn + column;
      d.cInRowStride = cInRowStride;
    }
    return d;
  }

  // The epilogue over C from `sums` (rows x columns, row stride sumsRowStride; null: an empty
  // product, all zero) of the first or a later depth chunk, for a product that did not go
  // through the register tiles.
  void finish(const T *sums, int64_t sumsRowStride, T *c, int64_t cRowStride, int64_t rows, int64_t columns,
              bool first = true) const {
    const Destination<T> out = chunk(first, c, cRowStride, 0);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < columns; j += 16) {
        const __mmask16 mask = firstLanes(columns - j);
        out.put(r, j, sums ? Vector<T>::load(mask, sums + r * sumsRowStride + j) : Vector<T>::zero(), mask);
      }
  }
};

}  // namespace
