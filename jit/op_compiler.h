// The JIT: one operator instance (OpSpec) -> an aclop module -> the aclop-to-llvm pipeline ->
// LLVM IR optimized at -O3 for the host CPU -> an ELF object -> linked by the runtime's ORC
// loader into its own JITDylib. The result launches like any loaded kernel binary.
#pragma once

#include "aclcpu/kernel.h"
#include "kernel_binary.h"
#include "op_spec.h"

#include <memory>
#include <string>
#include <vector>

namespace aclcpu {

struct CompileOptions {
  int64_t vectorBits = 0;  // 0: the host's widest vector registers
  std::string dumpDir;     // empty: ACLCPU_DUMP_DIR, if set
};

// How a kernel is launched: over blocks that divide its work (else as one block), and at most
// how many blocks per worker. More blocks balance the load; fewer repeat less per-block work,
// as a GEMM whose ukernel calls each pack all of b asks for one (aclop.blocks_per_worker). The
// work of one output element, in element-wise elements, sizes the blocks: a product's is its
// depth in vector FMAs (aclop.work_per_element). A product of dynamic depth reads its depth at
// launch, from dim `depthDim` of kernel input `depthInput`, over `depthLanes` (aclop.work_depth).
struct LaunchRecipe {
  static constexpr uint32_t kMaxBlocksPerWorker = 64;
  static constexpr uint32_t kMaxWorkPerElement = 1u << 24;
  static constexpr int32_t kMaxDepthInput = 15;  // a kernel has at most 16 buffers
  static constexpr uint32_t kMaxDepthDim = 63, kMaxDepthLanes = 1u << 10;
  bool partitioned = false;
  uint32_t blocksPerWorker = 4;
  uint32_t workPerElement = 1;
  int32_t depthInput = -1;  // -1: the depth is static (or unknown), workPerElement says it all
  uint32_t depthDim = 0, depthLanes = 1;

  // Whether a work depth read from a compiled module or a model file is one a kernel can have
  // (`input` -1: none).
  static bool validWorkDepth(int64_t input, int64_t dim, int64_t lanes) {
    return input >= -1 && input <= kMaxDepthInput && dim >= 0 && dim <= kMaxDepthDim && lanes >= 1 &&
           lanes <= kMaxDepthLanes;
  }
};

// A compiled operator. Its argument block is one 8-byte data pointer per input, then per
// output, then one int64 per dynamic dim of each of them in the same order (the kernel ABI of
// aclop-map-to-kernel-abi).
struct CompiledKernel {
  std::unique_ptr<KernelBinary> binary;  // owns the code; dropping it frees the JITDylib
  aclcpuKernelEntry entry = nullptr;
  std::vector<TensorSpec> outputs;       // inferred; dynamic dims stay -1
  LaunchRecipe launch;
  double compileMilliseconds = 0;
  std::vector<char> object;              // the ELF object the kernel was linked from
};

// Never aborts: failures return nullptr with the MLIR/LLVM diagnostics in `error`.
std::unique_ptr<CompiledKernel> compileOp(const OpSpec &spec, const CompileOptions &options, std::string &error);

// Links a previously emitted object (e.g. from the disk cache) into a kernel, without MLIR.
std::unique_ptr<CompiledKernel> loadCompiledObject(std::vector<char> object, std::vector<TensorSpec> outputs,
                                                   LaunchRecipe launch, std::string &error);

// Identifies the code the compiler emits for this host: compiler version, triple, CPU, features.
// A cached object is reused only under the same fingerprint.
const std::string &compilerFingerprint();

// The output tensors `spec` produces (the dialect's shape inference), without compiling.
bool inferOutputs(const OpSpec &spec, std::vector<TensorSpec> &outputs, std::string &error);

// How the operands of the aclop op `name` ("add") broadcast, from the dialect's traits: not
// at all, every operand as in NumPy, or only the leading batch dim of the first two.
enum class OperandBroadcasting { None, Elementwise, Batch };
OperandBroadcasting operandBroadcasting(const std::string &name);

// The host CPU as the compiler sees it: name, features, and vector width in bits.
struct HostTarget {
  std::string triple, cpu, features;
  int64_t vectorBits = 128;
  std::vector<std::string> ukernels;  // the ukernels (kernels/ukernels) this CPU can run
  bool streamStores = false;           // non-temporal stores for large outputs (x86)
  bool fastBf16 = false;               // f32 -> bf16 by vcvtneps2bf16 (AVX512-BF16)
};
const HostTarget &hostTarget();

}  // namespace aclcpu
