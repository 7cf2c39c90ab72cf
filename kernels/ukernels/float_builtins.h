// compiler-rt's f32 -> bf16 and f64 -> bf16 conversions (__truncsfbf2, __truncdfbf2), which the
// JIT gives generated code under those names (ukernelSymbols).
#pragma once

#include <cstdint>

extern "C" {
float aclcpu_truncsfbf2(float value);   // the bf16's bits in the low 16 bits of the result
float aclcpu_truncdfbf2(double value);  // the same, rounded once
}
