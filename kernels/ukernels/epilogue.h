// Where a ukernel's register tiles leave their sums: the two modes of the ABI (ukernels.h).
// Shared by the ukernel files, in an anonymous namespace on purpose: each file compiles its
// own copy with its own instruction sets (see gemm_s8s8s32_vnni.cpp on inline code), over the
// vectors of its own width (Vector).
#pragma once

#include <cstdint>

namespace {

// The vectors C is read and written through: Vector<T> gives Type, Mask (which lanes),
// kLanes, firstLanes(count), load/store under a mask, add, mul, splat and zero. The file
// including this one defines it first, for its instruction set (vector_avx512.h, vector_avx2.h).
template <class T>
struct Vector;

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
  int64_t cInColumnStride = 1;  // or 0: each row's one element of Cin, broadcast (a bias per row)

  // What a register tile's sums start from: nothing (the chunk's sums reach C through put).
  typename Vector<T>::Type start(int64_t, int64_t, typename Vector<T>::Mask) const { return Vector<T>::zero(); }

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
    moved.cIn = cIn ? cIn + row * cInRowStride + column * cInColumnStride : nullptr;
    moved.cInRowStride = cInRowStride;
    moved.cInColumnStride = cInColumnStride;
    return moved;
  }

  // A vector of sums of row `row` from column `column` on, the lanes in `mask`.
  void put(int64_t row, int64_t column, typename Vector<T>::Type x, typename Vector<T>::Mask mask) const {
    using V = Vector<T>;
    T *target = out + row * outRowStride + column;
    if (mode != Mode::Add) x = V::mul(V::splat(alpha), x);
    if (mode != Mode::Scale) x = V::add(V::load(mask, target), x);
    else if (cIn) x = V::add(x, V::mul(V::splat(beta), in(row, column, mask)));
    V::store(mask, target, x);
  }

  // Cin's vector at (row, column): loaded, or its row's element broadcast.
  typename Vector<T>::Type in(int64_t row, int64_t column, typename Vector<T>::Mask mask) const {
    const T *first = cIn + row * cInRowStride;
    return cInColumnStride ? Vector<T>::load(mask, first + column) : Vector<T>::splat(*first);
  }
};

// The epilogue arguments of a call (ukernels.h) and the destination of each depth chunk.
template <class T>
struct Epilogue {
  const T *alpha, *beta, *cIn;
  int64_t cInRowStride, cInColumnStride;

  // From a ukernel's own parameters (Cin given as a base and an element offset).
  static Epilogue of(const T *alpha, const T *beta, const T *cIn, int64_t cInOffset, int64_t cInRowStride,
                     int64_t cInColumnStride) {
    return {alpha, beta, cIn ? cIn + cInOffset : nullptr, cInRowStride, cInColumnStride};
  }

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
      d.cIn = cIn + column * cInColumnStride;
      d.cInRowStride = cInRowStride;
      d.cInColumnStride = cInColumnStride;
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
      for (int64_t j = 0; j < columns; j += Vector<T>::kLanes) {
        const auto mask = Vector<T>::firstLanes(columns - j);
        out.put(r, j, sums ? Vector<T>::load(mask, sums + r * sumsRowStride + j) : Vector<T>::zero(), mask);
      }
  }
};

}  // namespace
