//===- Passes.h - aclop passes and pipelines --------------------*- C++ -*-===//
#ifndef ACLOP_PASSES_H
#define ACLOP_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::aclop {

#define GEN_PASS_DECL
#include "aclop/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "aclop/Passes.h.inc"

// The largest static temporary promote-buffers-to-stack turns into a memref.alloca (which
// aclop-hoist-static-allocas then allocates once per call): a narrow-typed softmax's f32 row
// of exponentials fits if its row does.
constexpr unsigned kMaxStackBufferBytes = 16384;

// How far ahead a loop streaming through a large input prefetches it (aclop-stream-stores'
// copies, aclop-prefetch-streamed-rows): on Zen 5's VM memory the hardware prefetchers alone
// left the loads waiting, and 4 or 16 KiB ahead gained less than 8.
constexpr int64_t kStreamPrefetchBytes = 8192;

// Options of the aclop-to-llvm pipeline.
struct AclopToLlvmOptions {
  int64_t vectorBits = 256;
  std::vector<std::string> ukernels;  // symbols the target provides (aclop-select-strategy)
  bool streamStores = false;          // x86: non-temporal stores for large outputs (aclop-stream-stores)
  bool fastBf16 = false;              // AVX512-BF16: f32 -> bf16 by vcvtneps2bf16 (aclop-fast-bf16-truncation)
};

// aclop on tensors -> a module of LLVM dialect kernels (see Pipelines.cpp for the stages).
LogicalResult buildAclopToLlvmPipeline(OpPassManager &pm, const AclopToLlvmOptions &options, raw_ostream &errors);
// Registers the pipeline as `aclop-to-llvm` (with option vector-bits).
void registerAclopPipelines();

} // namespace mlir::aclop

#endif // ACLOP_PASSES_H
