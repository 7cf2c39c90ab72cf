// What the JIT compiles for: this process's triple, CPU name and features, and from those the
// vector register width the strategy pass plans with.
#include "op_compiler.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"

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
    if (host.triple.rfind("x86_64", 0) == 0 && has("avx512f") && has("avx512bw") && has("avx512vnni"))
      host.ukernels.push_back("aclcpu_ukernel_gemm_s8s8s32_vnni");
    return host;
  }();
  return target;
}

}  // namespace aclcpu
