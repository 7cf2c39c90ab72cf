// The ukernel symbol table and the per-thread scratch the ukernels pack into. Compiled for
// the baseline CPU: nothing here may use the ukernels' instruction sets.
#include "ukernels.h"

#include <unistd.h>

#include <cstdlib>
#include <memory>

namespace aclcpu {

const UkernelSymbol *ukernelSymbols(int &count) {
#if defined(__x86_64__)
  static const UkernelSymbol symbols[] = {
      {"aclcpu_ukernel_gemm_s8s8s32_vnni", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_s8s8s32_vnni)},
      {"aclcpu_ukernel_gemm_f32f32f32", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_f32f32f32)},
      {"aclcpu_ukernel_gemm_f16f16f32", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_f16f16f32)},
      {"aclcpu_ukernel_gemm_bf16bf16f32", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_bf16bf16f32)},
      {"aclcpu_ukernel_gemm_bf16bf16f32_dpbf16", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_bf16bf16f32_dpbf16)},
  };
  count = static_cast<int>(sizeof(symbols) / sizeof(symbols[0]));
  return symbols;
#else
  count = 0;
  return nullptr;
#endif
}

namespace {

struct FreeDeleter {
  void operator()(uint8_t *p) const { std::free(p); }
};

struct Scratch {
  std::unique_ptr<uint8_t, FreeDeleter> memory;
  int64_t bytes = 0;
};

}  // namespace

uint8_t *ukernelScratch(int slot, int64_t bytes) {
  thread_local Scratch scratch[3];
  Scratch &s = scratch[slot];
  if (bytes > s.bytes) {
    // Rounded up to whole cache lines (aligned_alloc's rule) with room to grow.
    int64_t size = (bytes + bytes / 4 + 63) / 64 * 64;
    s.memory.reset(static_cast<uint8_t *>(std::aligned_alloc(64, static_cast<size_t>(size))));
    if (!s.memory) std::abort();  // nothing sensible to return to generated code
    s.bytes = size;
  }
  return s.memory.get();
}

int64_t ukernelL2Bytes() {
  static const int64_t bytes = [] {
    const long size = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return size > 0 ? static_cast<int64_t>(size) : int64_t{0};
  }();
  return bytes;
}

}  // namespace aclcpu
