// y = alpha * x: a scalar parameter between pointers (its offset follows the append rules).
#include "aclcpu/kernel.h"

ACLCPU_KERNEL(scale_custom, const float *x, uint8_t tag, float alpha, float *y, uint64_t n) {
  (void)tag;  // a one-byte parameter, so alpha sits at a 4-byte aligned offset after it
  uint64_t begin = n * GetBlockIdx() / GetBlockNum();
  uint64_t end = n * (GetBlockIdx() + 1) / GetBlockNum();
  for (uint64_t i = begin; i < end; ++i) y[i] = alpha * x[i];
}
