// <immintrin.h> for the ukernel files. GCC 12's unmasked AVX-512 intrinsics
// (_mm512_shuffle_i32x4, _mm512_cvtph_ps, ...) pass an undefined vector as the merge source,
// which -Wmaybe-uninitialized reports inside the header wherever they are inlined.
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
