//===- Pipelines.cpp - the aclop-to-llvm pipeline ---------------------------===//
//
// Stages, each inspectable with op-opt: aclop -> linalg on tensors; strategy; tiling and
// vectorization; bufferization (outputs written in place, temporaries freed); ukernel calls;
// loops (strided copies too); strided gathers as loads and shuffles; register tiles hoisted;
// block partitioning and the kernel entry; non-temporal stores (x86); f32 -> bf16 by
// vcvtneps2bf16 (AVX512-BF16); expand_shapes LLVM 22 cannot expand, as casts; bf16 vector
// selects on their bits; LLVM dialect; a final check that nothing else is left.
//
//===----------------------------------------------------------------------===//

#include "aclop/Passes.h"

#include "mlir/Pass/PassRegistry.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace {

std::string pipelineText(const aclop::AclopToLlvmOptions &options) {
  std::string strategy = "vector-bits=" + std::to_string(options.vectorBits);
  if (!options.ukernels.empty()) strategy += " ukernels=" + llvm::join(options.ukernels, ",");
  return "convert-aclop-to-linalg,canonicalize,cse,"
         "aclop-select-strategy{" + strategy + "},"
         "func.func(aclop-tile-and-vectorize),canonicalize,cse,"
         "func.func(aclop-eliminate-expanded-empty-tensors),eliminate-empty-tensors,"
         "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map "
         "buffer-alignment=64},"
         // Row statistics (a softmax row's max and sum) and static temporaries up to
         // kMaxStackBufferBytes live on the stack, not in a malloc a row, allocated once per call,
         // not once per row.
         "drop-equivalent-buffer-results,func.func(promote-buffers-to-stack{max-alloc-size-in-bytes=" +
         std::to_string(aclop::kMaxStackBufferBytes) + " max-rank-of-allocated-memref=8},aclop-hoist-static-allocas),"
         "buffer-deallocation-pipeline,"
         "aclop-call-ukernels,"
         "func.func(convert-linalg-to-parallel-loops),scf-forall-to-parallel,canonicalize,cse,"
         "func.func(aclop-lower-strided-copies,aclop-lower-strided-gathers,aclop-lower-register-tiles,"
         "aclop-prefetch-transposed-blocks,aclop-prefetch-streamed-rows,aclop-version-gemm-epilogue),aclop-map-to-kernel-abi," +
         std::string(options.streamStores ? "func.func(aclop-stream-stores)," : "") +
         std::string(options.fastBf16 ? "func.func(aclop-fast-bf16-truncation)," : "") +
         "func.func(convert-vector-to-scf{full-unroll=true}),lower-affine,convert-scf-to-cf,"
         "func.func(aclop-float-min-max-to-llvm,aclop-approximate-math,"
         "aclop-lower-transposes{vector-bits=" + std::to_string(options.vectorBits) + "},"
         "aclop-lower-dynamic-expand-shapes,aclop-bf16-selects-as-integers),arith-expand{include-bf16=true},"
         "expand-strided-metadata,lower-affine,"
         // Math first: libm calls for what LLVM has no intrinsic for (erf) scalarize vectors.
         // enable-x86vector lowers only x86vector ops (aclop-fast-bf16-truncation's): a no-op elsewhere.
         "convert-math-to-funcs,convert-math-to-llvm,convert-math-to-libm,convert-vector-to-llvm{enable-x86vector},"
         "finalize-memref-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,convert-func-to-llvm,"
         "convert-cf-to-llvm,convert-ub-to-llvm,reconcile-unrealized-casts,aclop-verify-lowered";
}

struct PipelineOptions : PassPipelineOptions<PipelineOptions> {
  Option<int64_t> vectorBits{*this, "vector-bits", llvm::cl::desc("Vector register width in bits"),
                             llvm::cl::init(256)};
  ListOption<std::string> ukernels{*this, "ukernels", llvm::cl::desc("Ukernel symbols the target provides")};
  Option<bool> streamStores{*this, "stream-stores", llvm::cl::desc("Non-temporal stores for large outputs (x86)"),
                            llvm::cl::init(false)};
  Option<bool> fastBf16{*this, "fast-bf16", llvm::cl::desc("f32 -> bf16 by vcvtneps2bf16 (AVX512-BF16)"),
                        llvm::cl::init(false)};
};

} // namespace

LogicalResult aclop::buildAclopToLlvmPipeline(OpPassManager &pm, const AclopToLlvmOptions &options,
                                              raw_ostream &errors) {
  return parsePassPipeline(pipelineText(options), pm, errors);
}

void aclop::registerAclopPipelines() {
  PassPipelineRegistration<PipelineOptions>(
      "aclop-to-llvm", "Lower aclop ops to LLVM dialect kernels with the aclcpu kernel ABI",
      [](OpPassManager &pm, const PipelineOptions &options) {
        aclop::AclopToLlvmOptions settings;
        settings.vectorBits = options.vectorBits;
        settings.ukernels.assign(options.ukernels.begin(), options.ukernels.end());
        settings.streamStores = options.streamStores;
        settings.fastBf16 = options.fastBf16;
        // The text names only registered passes, so this fails only on a broken build (lit catches it).
        if (failed(buildAclopToLlvmPipeline(pm, settings, llvm::errs())))
          llvm::report_fatal_error("aclop-to-llvm: the pipeline does not parse");
      });
}
