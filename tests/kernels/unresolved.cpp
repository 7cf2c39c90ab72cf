// Calls a function that exists nowhere: linking must fail with a message naming it.
#include "aclcpu/kernel.h"

extern "C" float aclcpu_test_function_that_does_not_exist(float);

ACLCPU_KERNEL(needs_missing_symbol, float *x) { x[0] = aclcpu_test_function_that_does_not_exist(x[0]); }
