// y = x * scale + bias, with the parameters in a struct passed as a placeholder: the runtime
// copies the struct with the launch and hands the kernel a pointer to the copy.
#include "aclcpu/kernel.h"

struct AffineParams {
  float scale;
  float bias;
  uint32_t n;
};

ACLCPU_KERNEL(affine_custom, const float *x, float *y, const AffineParams *params) {
  uint64_t n = params->n;
  uint64_t begin = n * GetBlockIdx() / GetBlockNum();
  uint64_t end = n * (GetBlockIdx() + 1) / GetBlockNum();
  for (uint64_t i = begin; i < end; ++i) y[i] = x[i] * params->scale + params->bias;
}
