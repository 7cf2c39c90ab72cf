// The compiler-rt float conversions generated code may call that the process need not have.
// LLVM keeps a bf16 value in a register as an f32 on a CPU without native bf16 arithmetic
// (AVX2, say): moving one through a phi or a vector insert (convert-vector-to-scf's masked
// tails do) truncates it back with __truncsfbf2, which GCC 12's libgcc lacks. Compiled for the
// baseline CPU.
#include "float_builtins.h"

#include <cmath>
#include <cstring>

namespace {

uint32_t bitsOf(float value) {
  uint32_t bits;
  memcpy(&bits, &value, 4);
  return bits;
}

float fromBits(uint32_t bits) {
  float value;
  memcpy(&value, &bits, 4);
  return value;
}

}  // namespace

extern "C" {

// A bf16 comes back in the low 16 bits of the first float return register (xmm0 or v0), as a
// float's bits do: returning the bits as a float's is the calling convention of a bf16 result.
float aclcpu_truncsfbf2(float value) {
  uint32_t bits = bitsOf(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return fromBits((bits >> 16) | 0x40u);  // NaN: quiet, sign kept
  bits += 0x7fffu + ((bits >> 16) & 1u);  // to nearest, ties to even
  return fromBits(bits >> 16);
}

// f64 -> bf16 rounded once: to f32 rounding to odd (truncated, the last bit set if anything was
// lost), which keeps what the second rounding needs, then to bf16 to nearest even.
float aclcpu_truncdfbf2(double value) {
  if (std::isnan(value)) return aclcpu_truncsfbf2(static_cast<float>(value));
  float narrowed = static_cast<float>(value);
  if (static_cast<double>(narrowed) != value) {
    if (std::fabs(static_cast<double>(narrowed)) > std::fabs(value)) narrowed = std::nextafter(narrowed, 0.0f);
    narrowed = fromBits(bitsOf(narrowed) | 1u);
  }
  return aclcpu_truncsfbf2(narrowed);
}
}
