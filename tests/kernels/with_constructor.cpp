// Has a global constructor: the runtime must refuse to load it as a .o.
#include "aclcpu/kernel.h"

struct Counter {
  Counter();
  int value;
};
Counter::Counter() : value(42) {}
Counter counter;

ACLCPU_KERNEL(uses_counter, int *out) { *out = counter.value; }
