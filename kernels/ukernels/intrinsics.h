// <immintrin.h> for the ukernel files, and the lane mask they share. GCC 12's unmasked AVX-512 intrinsics
// (_mm512_shuffle_i32x4, _mm512_cvtph_ps, ...) pass an undefined vector as the merge source,
// which -Wmaybe-uninitialized reports inside the header wherever they are inlined.
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include <cstdint>

// Every one of sixteen lanes.
constexpr __mmask16 kAllLanes = 0xffff;

// The mask of the first `count` of 16 lanes (none if count <= 0, all if count >= 16).
static inline __mmask16 firstLanes(int64_t count) {
  return count >= 16 ? kAllLanes
                     : count <= 0 ? static_cast<__mmask16>(0) : static_cast<__mmask16>((1u << count) - 1);
}
