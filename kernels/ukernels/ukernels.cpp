// The ukernel symbol table and the per-thread scratch the ukernels pack into. Compiled for
// the baseline CPU: nothing here may use the ukernels' instruction sets.
#include "ukernels.h"

#include "aarch64_outline_atomics.h"
#include "float_builtins.h"

#include <unistd.h>
#if defined(__x86_64__) && defined(__linux__)
#include <sys/syscall.h>
#endif

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

namespace aclcpu {

const UkernelSymbol *ukernelSymbols(int &count) {
  static const UkernelSymbol symbols[] = {
      {"__truncsfbf2", reinterpret_cast<void *>(&aclcpu_truncsfbf2)},
      {"__truncdfbf2", reinterpret_cast<void *>(&aclcpu_truncdfbf2)},
#if defined(__x86_64__)
      {"aclcpu_ukernel_gemm_s8s8s32_vnni", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_s8s8s32_vnni)},
      {"aclcpu_ukernel_gemm_f32f32f32", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_f32f32f32)},
      {"aclcpu_ukernel_gemm_f16f16f32", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_f16f16f32)},
      {"aclcpu_ukernel_gemm_bf16bf16f32", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_bf16bf16f32)},
      {"aclcpu_ukernel_gemm_bf16bf16f32_dpbf16", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_bf16bf16f32_dpbf16)},
      {"aclcpu_ukernel_gemm_f16f16f32_dpbf16", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_f16f16f32_dpbf16)},
      {"aclcpu_ukernel_gemm_f32f32f32_dpbf16", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_f32f32f32_dpbf16)},
      {"aclcpu_ukernel_gemm_bf16bf16f32_amx", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_bf16bf16f32_amx)},
      {"aclcpu_ukernel_gemm_s8s8s32_amx", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_s8s8s32_amx)},
      {"aclcpu_ukernel_gemm_f16f16f32_amx", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_f16f16f32_amx)},
      {"aclcpu_ukernel_gemm_f16f16f32_rounded_amx",
       reinterpret_cast<void *>(&aclcpu_ukernel_gemm_f16f16f32_rounded_amx)},
      {"aclcpu_ukernel_gemm_f32f32f32_rounded_amx",
       reinterpret_cast<void *>(&aclcpu_ukernel_gemm_f32f32f32_rounded_amx)},
      {"aclcpu_ukernel_gemm_s8s8s32_avx2", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_s8s8s32_avx2)},
      {"aclcpu_ukernel_gemm_f32f32f32_avx2", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_f32f32f32_avx2)},
      {"aclcpu_ukernel_gemm_f16f16f32_avx2", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_f16f16f32_avx2)},
      {"aclcpu_ukernel_gemm_bf16bf16f32_avx2", reinterpret_cast<void *>(&aclcpu_ukernel_gemm_bf16bf16f32_avx2)},
      {"aclcpu_ukernel_gemm_f16f16f32_rounded_avx2",
       reinterpret_cast<void *>(&aclcpu_ukernel_gemm_f16f16f32_rounded_avx2)},
      {"aclcpu_ukernel_gemm_f32f32f32_rounded_avx2",
       reinterpret_cast<void *>(&aclcpu_ukernel_gemm_f32f32f32_rounded_avx2)},
#elif defined(__aarch64__)
#define ACLCPU_OUTLINE_ATOMIC_SYMBOL(name) {"__aarch64_" #name, reinterpret_cast<void *>(&__aarch64_##name)},
      ACLCPU_FOR_EACH_OUTLINE_ATOMIC(ACLCPU_OUTLINE_ATOMIC_SYMBOL)
#undef ACLCPU_OUTLINE_ATOMIC_SYMBOL
#endif
  };
  count = static_cast<int>(sizeof(symbols) / sizeof(symbols[0]));
  return symbols;
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

bool ukernelAmxPermitted() {
#if defined(__x86_64__) && defined(__linux__)
  static const bool granted = [] {
    constexpr long kRequestPermission = 0x1023;  // ARCH_REQ_XCOMP_PERM
    constexpr long kTileData = 18;               // XFEATURE_XTILEDATA
    return syscall(SYS_arch_prctl, kRequestPermission, kTileData) == 0;
  }();
  return granted;
#else
  return false;
#endif
}

int64_t ukernelL3Bytes() {
  static const int64_t bytes = [] {
    // sysconf's L3 on AMD counts every L3 of the package (384 MiB on a 32 MiB VM), so the L3
    // this core shares is read from sysfs.
    for (int index = 0; index < 8; ++index) {
      const std::string cache = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
      std::ifstream level(cache + "level"), size(cache + "size");
      int levelNumber = 0;
      int64_t amount = 0;
      std::string unit;  // "32768K"; none for bytes
      if (!(level >> levelNumber) || levelNumber != 3 || !(size >> amount)) continue;
      size >> unit;
      return unit == "K" ? amount << 10 : unit == "M" ? amount << 20 : amount;
    }
    return int64_t{0};
  }();
  return bytes;
}

namespace {
bool cpuIsAmd() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  return __builtin_cpu_is("amd") != 0;
#else
  return false;
#endif
}

// Whether the CPU is AMD's until set otherwise.
std::atomic<bool> &packsDuringTiles() {
  static std::atomic<bool> packs{cpuIsAmd()};
  return packs;
}

// Whether the CPU is not AMD's until set otherwise.
std::atomic<bool> &streamsShallowPieces() {
  static std::atomic<bool> shallow{!cpuIsAmd()};
  return shallow;
}
}  // namespace

bool ukernelPacksDuringTiles() { return packsDuringTiles().load(std::memory_order_relaxed); }

void setUkernelPacksDuringTiles(bool packs) { packsDuringTiles().store(packs, std::memory_order_relaxed); }

bool ukernelStreamsShallowPieces() { return streamsShallowPieces().load(std::memory_order_relaxed); }

void setUkernelStreamsShallowPieces(bool shallow) {
  streamsShallowPieces().store(shallow, std::memory_order_relaxed);
}

int64_t ukernelL2Bytes() {
  static const int64_t bytes = [] {
    const long size = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return size > 0 ? static_cast<int64_t>(size) : int64_t{0};
  }();
  return bytes;
}

}  // namespace aclcpu
