// Kernels for runtime tests: block bookkeeping, faults and an empty kernel.
#include "aclcpu/kernel.h"

// Counts how often each block ran and records the largest worker index seen.
ACLCPU_KERNEL(mark_blocks, uint32_t *hits, uint32_t *maxWorker) {
  __atomic_fetch_add(&hits[GetBlockIdx()], 1u, __ATOMIC_RELAXED);
  uint32_t worker = GetWorkerIdx();
  uint32_t seen = __atomic_load_n(maxWorker, __ATOMIC_RELAXED);
  while (worker > seen && !__atomic_compare_exchange_n(maxWorker, &seen, worker, true, __ATOMIC_RELAXED,
                                                       __ATOMIC_RELAXED)) {
  }
}

// Returns 7 from block `failingBlock`; every block that runs bumps *ran.
ACLCPU_KERNEL_WITH_STATUS(fail_at_block, uint32_t failingBlock, uint32_t *ran) {
  __atomic_fetch_add(ran, 1u, __ATOMIC_RELAXED);
  return GetBlockIdx() == failingBlock ? 7 : 0;
}

// Writes the scratch size it got and proves the scratch memory is writable.
ACLCPU_KERNEL(probe_scratch, uint64_t *sizes) {
  auto *scratch = static_cast<unsigned char *>(GetScratch());
  for (uint64_t i = 0; i < GetScratchSize(); i += 4096) scratch[i] = 1;
  sizes[GetBlockIdx()] = GetScratchSize();
}

// Reads the block count the runtime patched into its arguments (NUMBLOCKS_OFFSET).
ACLCPU_KERNEL(echo_num_blocks, uint32_t *out, uint32_t patched) {
  if (GetBlockIdx() == 0) *out = patched;
}

ACLCPU_KERNEL(empty_kernel) {}

// Written against the raw ABI, without the macro.
extern "C" int32_t raw_copy(const void *args, const aclcpuBlockCtx *ctx) {
  const int32_t *const *source = static_cast<const int32_t *const *>(args);
  int32_t *const *target = static_cast<int32_t *const *>(args) + 1;
  if (ctx->blockIdx == 0) **target = **source;
  return 0;
}

// Records which worker ran each block, after work long enough (~10-20 us) that every thread
// the launch may use takes some of its blocks.
ACLCPU_KERNEL(record_workers, uint32_t *workers) {
  for (volatile uint32_t spin = 0; spin < 20000; spin = spin + 1) {
  }
  workers[GetBlockIdx()] = GetWorkerIdx();
}
