// What the JIT compiles for: this process's triple, CPU name and features, and from those the
// vector register width the strategy pass plans with.
#include "op_compiler.h"

#include "../kernels/ukernels/ukernels.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>
#include <string>

namespace aclcpu {

const HostTarget &hostTarget() {
  static const HostTarget target = [] {
    HostTarget host;
    host.triple = llvm::sys::getProcessTriple();
    host.cpu = llvm::sys::getHostCPUName().str();
    llvm::SubtargetFeatures features;
    llvm::StringMap<bool> available = llvm::sys::getHostCPUFeatures();
    for (const auto &feature : available) features.AddFeature(feature.getKey(), feature.getValue());
    host.features = features.getString();
    auto has = [&](const char *name) { return available.lookup(name); };
    if (has("avx512f")) host.vectorBits = 512;
    else if (has("avx2") || has("avx")) host.vectorBits = 256;
    else host.vectorBits = 128;  // SSE, NEON
    bool x86 = host.triple.rfind("x86_64", 0) == 0;
    host.streamStores = x86;  // aclop-stream-stores emits sfence and vmovntdq
    host.fastBf16 = x86 && has("avx512bf16");  // aclop-fast-bf16-truncation emits vcvtneps2bf16
    // The ukernels of kernels/ukernels this CPU runs; ACLCPU_UKERNELS=0 leaves every product to
    // the generated register tiles (to compare the two).
    const char *enabled = std::getenv("ACLCPU_UKERNELS");
    if (x86 && !(enabled && std::string(enabled) == "0")) {
      // AMX's tiles where the process may use them (eight times the vector instructions' products).
      const bool amx = has("amx-tile") && has("avx512f") && has("avx512bw") && has("avx512vl") && ukernelAmxPermitted();
      if (has("avx512f") && has("avx512bw") && has("avx512vnni")) {
        host.ukernels.push_back("aclcpu_ukernel_gemm_s8s8s32_vnni");
        if (amx && has("amx-int8")) host.ukernels.push_back("aclcpu_ukernel_gemm_s8s8s32_amx");
      } else if (has("avx2")) {  // generated code ran s8 at 0.13-0.16x oneDNN there
        host.ukernels.push_back("aclcpu_ukernel_gemm_s8s8s32_avx2");
      }
      if (has("avx512f") && has("avx512bw") && has("avx512vl") && has("f16c") && has("fma")) {
        for (const char *name : {"aclcpu_ukernel_gemm_f32f32f32", "aclcpu_ukernel_gemm_f16f16f32",
                                 "aclcpu_ukernel_gemm_bf16bf16f32"})
          host.ukernels.push_back(name);
        // bf16 products multiply pairs with vdpbf16ps (twice the f32 FMA's products a cycle).
        if (has("avx512bf16")) {
          host.ukernels.push_back("aclcpu_ukernel_gemm_bf16bf16f32_dpbf16");
          // Low-precision f16 and f32, rounded to bf16.
          host.ukernels.push_back("aclcpu_ukernel_gemm_f16f16f32_dpbf16");
          host.ukernels.push_back("aclcpu_ukernel_gemm_f32f32f32_dpbf16");
          if (amx && has("amx-bf16")) {
            host.ukernels.push_back("aclcpu_ukernel_gemm_bf16bf16f32_amx");
            host.ukernels.push_back("aclcpu_ukernel_gemm_f16f16f32_amx");
            host.ukernels.push_back("aclcpu_ukernel_gemm_f16f16f32_rounded_amx");
            host.ukernels.push_back("aclcpu_ukernel_gemm_f32f32f32_rounded_amx");
          }
        }
      } else if (has("avx2") && has("fma") && has("f16c")) {
        // Without AVX-512: the AVX2 tiles (generated code ran 0.16-0.54x OpenBLAS there).
        for (const char *name : {"aclcpu_ukernel_gemm_f32f32f32_avx2", "aclcpu_ukernel_gemm_f16f16f32_avx2",
                                 "aclcpu_ukernel_gemm_bf16bf16f32_avx2", "aclcpu_ukernel_gemm_f16f16f32_rounded_avx2",
                                 "aclcpu_ukernel_gemm_f32f32f32_rounded_avx2"})
          host.ukernels.push_back(name);
      }
    }
    return host;
  }();
  return target;
}

}  // namespace aclcpu
