// z = x + y over n elements; block b takes the b-th contiguous slice, as an Ascend C kernel
// would split its input across AI cores.
#include "aclcpu/kernel.h"

ACLCPU_KERNEL(add_custom, const float *x, const float *y, float *z, uint32_t n) {
  uint64_t begin = uint64_t(n) * GetBlockIdx() / GetBlockNum();
  uint64_t end = uint64_t(n) * (GetBlockIdx() + 1) / GetBlockNum();
  for (uint64_t i = begin; i < end; ++i) z[i] = x[i] + y[i];
}
