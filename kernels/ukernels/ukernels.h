// Hand-written micro-kernels that generated operator code calls (as IREE does with its
// ukernels) where they beat the generated code (measured; see docs/design-notes.md): the
// s8 x s8 -> s32 GEMM tile on AVX512-VNNI (vpdpbusd multiplies u8 by s8, so the kernel biases
// A by 128 and subtracts 128 x the column sums of B), and the f32-accumulating GEMM tile on
// AVX-512 for f32, f16 and bf16 operands (packed micro-panels, a 12 x 32 register tile), the
// same on AVX2 (a 6 x 16 register tile) for the x86 CPUs without AVX-512, and on AMX's tiles
// (gemm_amx.cpp: s8, bf16, f16 exact and f16/f32 in low precision) where the CPU has them.
//
// The ABI is plain C: each operand is a base pointer plus an element offset and element
// strides, which is what `aclop-call-ukernels` reads out of a memref. A ukernel is selected
// at compile time only when the host has its CPU features (and a `.om` model records them), so
// it never runs where it cannot.
#pragma once

#include <cstdint>

extern "C" {
// Every GEMM ukernel computes the product P = A[rows x depth] * B[depth x cols] into
// C[rows x cols] (row stride cRowStride, unit column stride) in one of two modes:
//   alpha == null: C += P (the caller initialized C);
//   otherwise:     C = alpha * P + beta * Cin, alpha and beta pointing at one accumulator
//                  element each; Cin (row stride cInRowStride, column stride cInColumnStride:
//                  1, or 0 for a column whose element each row broadcasts) is not read
//                  when beta == 0 (BLAS's rule: NaN in it does not leak), may be C itself but
//                  must not overlap it otherwise; C need not be initialized. As in BLAS, alpha
//                  scales the sums of each depth panel, which then add up in C. This is GEMM's
//                  epilogue folded into the product: one pass over C instead of three.
// s8 x s8 -> s32 wraps modulo 2^32 like the reference.
//
// Every GEMM ukernel takes these parameters, `In` its operands' element (void where its name says
// which) and `Sum` C's.
#define ACLCPU_GEMM_UKERNEL_PARAMETERS(In, Sum)                                                                    \
  const In *a, int64_t aOffset, int64_t aRowStride, int64_t aDepthStride, const In *b, int64_t bOffset,           \
      int64_t bDepthStride, int64_t bColumnStride, Sum *c, int64_t cOffset, int64_t cRowStride, int64_t rows,     \
      int64_t columns, int64_t depth, const Sum *alpha, const Sum *beta, const Sum *cIn, int64_t cInOffset,       \
      int64_t cInRowStride, int64_t cInColumnStride
// The same, passed on unchanged (to the ukernel a product falls back to).
#define ACLCPU_GEMM_UKERNEL_ARGUMENTS                                                                              \
  a, aOffset, aRowStride, aDepthStride, b, bOffset, bDepthStride, bColumnStride, c, cOffset, cRowStride, rows,   \
      columns, depth, alpha, beta, cIn, cInOffset, cInRowStride, cInColumnStride
// Their epilogue's part (epilogue.h's Epilogue::of).
#define ACLCPU_GEMM_EPILOGUE_ARGUMENTS alpha, beta, cIn, cInOffset, cInRowStride, cInColumnStride
typedef void GemmS8Ukernel(ACLCPU_GEMM_UKERNEL_PARAMETERS(int8_t, int32_t));
// vpdpbusd on AVX512-VNNI (gemm_s8s8s32_vnni.cpp).
GemmS8Ukernel aclcpu_ukernel_gemm_s8s8s32_vnni;
// The same on AMX-INT8 (gemm_amx.cpp): tdpbssd multiplies s8 by s8, whatever the rows; empty
// products and every product in a process without AMX permission go to the _vnni one.
GemmS8Ukernel aclcpu_ukernel_gemm_s8s8s32_amx;
// The same on AVX2 (gemm_avx2.cpp): pairs of k widened to s16, summed by vpmaddwd.
GemmS8Ukernel aclcpu_ukernel_gemm_s8s8s32_avx2;
// The same contract for f32 accumulation; a and b are f32, f16 or bf16 as the name says. The
// _dpbf16 ones multiply bf16 pairs with vdpbf16ps (AVX512-BF16): their products are exact and
// accumulate in f32 like the others', but they read bf16 denormals as zero and flush f32
// denormal sums to zero. The f16 and f32 ones are low precision (ACL_COMPUTE_LOW_PRECISION): they
// round each input to bf16 (to nearest even, f32 denormals to zero) before its products.
typedef void GemmF32Ukernel(ACLCPU_GEMM_UKERNEL_PARAMETERS(void, float));
GemmF32Ukernel aclcpu_ukernel_gemm_f32f32f32, aclcpu_ukernel_gemm_f16f16f32, aclcpu_ukernel_gemm_bf16bf16f32,
    aclcpu_ukernel_gemm_bf16bf16f32_dpbf16, aclcpu_ukernel_gemm_f16f16f32_dpbf16, aclcpu_ukernel_gemm_f32f32f32_dpbf16;
// bf16 on AMX-BF16 (gemm_amx.cpp): tdpbf16ps, with the _dpbf16 ukernel's numerics, which it
// calls for products of up to 4 rows (and everywhere if the process has no AMX permission).
GemmF32Ukernel aclcpu_ukernel_gemm_bf16bf16f32_amx;
// f16 and f32 in low precision on AMX-BF16: each input rounded to bf16 as it is packed, as the
// _dpbf16 ones round it (and to which they hand products of up to 4 rows).
GemmF32Ukernel aclcpu_ukernel_gemm_f16f16f32_rounded_amx, aclcpu_ukernel_gemm_f32f32f32_rounded_amx;
// Exact f16 on AMX-BF16: each input split into two bf16 (hi + lo, both exact), four tile products a
// product; fewer than 64 rows go to aclcpu_ukernel_gemm_f16f16f32.
GemmF32Ukernel aclcpu_ukernel_gemm_f16f16f32_amx;
// The same contract on AVX2 with FMA and F16C (gemm_avx2.cpp), for x86 CPUs without AVX-512:
// f32, f16 and bf16 operands widened to f32, exact.
GemmF32Ukernel aclcpu_ukernel_gemm_f32f32f32_avx2, aclcpu_ukernel_gemm_f16f16f32_avx2,
    aclcpu_ukernel_gemm_bf16bf16f32_avx2;
// ... and in low precision: each f16 or f32 input rounded to bf16 (to nearest even, denormals
// kept) as it is read, the products summed in f32.
GemmF32Ukernel aclcpu_ukernel_gemm_f16f16f32_rounded_avx2, aclcpu_ukernel_gemm_f32f32f32_rounded_avx2;
}

namespace aclcpu {

struct UkernelSymbol {
  const char *name;
  void *address;
};

// The ukernels this build contains (on x86), the float builtins generated code may call
// (float_builtins.h) and, on AArch64, libgcc's outline atomics that g++-compiled kernels call
// (aarch64_outline_atomics.h); the JIT resolves loaded code's calls against this table.
const UkernelSymbol *ukernelSymbols(int &count);

// Scratch for packed panels (slots 0, 1) and slot 2 (the f32 few-rows path's sums, the s8 panels'
// bias corrections), one per thread, grown on demand and kept: a tile's packing must not allocate
// on every call. Returns 64-byte-aligned memory of at least `bytes`.
uint8_t *ukernelScratch(int slot, int64_t bytes);

// True if Linux granted this process AMX's tile data (arch_prctl ARCH_REQ_XCOMP_PERM, asked on
// the first call; a process must ask before its first tile instruction, which otherwise faults).
// False on CPUs without AMX and off x86-64 Linux.
bool ukernelAmxPermitted();

// This core's L2 cache in bytes (0 if the system does not say), for the ukernels' blocking:
// from kLargeL2Bytes on, they take deeper chunks (gemm_f32_avx512.cpp's Blocking).
int64_t ukernelL2Bytes();
constexpr int64_t kLargeL2Bytes = int64_t{1} << 20;

// The L3 cache this core shares, in bytes (0 if the system does not say): operands larger than
// it stream from memory in every call.
int64_t ukernelL3Bytes();

// Whether the AVX-512 f32-accumulating ukernel's one band of rows packs B's next depth chunk
// during the tiles of the chunk before (gemm_f32_avx512.cpp's PanelShare) rather than in a pass
// just before it. The tiles then also load B's rows, each fetched ahead by a software prefetch:
// on AMD that hid the packing (Zen 5, 1 thread: f32 M = 128, N = K = 4096 0.87x -> 0.98x
// oneDNN), on Intel those prefetches stall the tiles (Xeon with AMX, same process, the pass
// against packing during tiles: M = 128, N = K = 4096 +6%, 128 x 2048 x 2048 +7%, 130 x 1000 x
// 1001 +11%, 48 x 4096 x 4096 +2.5%, 128 x 16384 x 16384 (B past L3) +49%). True on AMD CPUs
// unless set; tests set it both ways.
bool ukernelPacksDuringTiles();
void setUkernelPacksDuringTiles(bool packs);

// Whether the AVX-512 f32-accumulating ukernel's streamed products (few rows reading B in place,
// gemm_f32_avx512.cpp's streamedProduct) take shallow pieces where B is larger than L2: 32 rows
// of B, 64 under more than 32 rows of A, rather than 128. On Intel, whose L2 streamer follows 32
// pages at a time, 128 rows in flight left B to the software fetches alone (Xeon, f32 M = 16,
// N = K = 4096: 47-53 -> 105-110 GF/s); on AMD the deeper pieces ran faster (Zen 5, paired with
// oneDNN's matmul with B pre-packed, a process for each depth in turn: bf16 M = 16 0.73-0.79x ->
// 1.01-1.04x, f32 M = 16 1.00-1.06x -> 1.13-1.24x). False on AMD CPUs unless set; tests set it
// both ways.
bool ukernelStreamsShallowPieces();
void setUkernelStreamsShallowPieces(bool shallow);

}  // namespace aclcpu
