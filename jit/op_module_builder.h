// OpSpec -> the MLIR module the aclop-to-llvm pipeline compiles:
//   func.func @compute(%in...: memref, %out...: memref, %block: index, %blocks: index)
//       attributes {aclop.kernel = "<name>"}
// reading inputs with bufferization.to_tensor and writing the op's result into the output
// buffer with bufferization.materialize_in_destination.
#pragma once

#include "op_spec.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace aclcpu {

mlir::Type toMlirElementType(mlir::MLIRContext &context, ElementType type);

// Null on failure (the reason goes to the context's diagnostic handler). Fills `outputs`.
mlir::OwningOpRef<mlir::ModuleOp> buildOpModule(mlir::MLIRContext &context, const OpSpec &spec,
                                                llvm::StringRef kernelName, std::vector<TensorSpec> &outputs);

}  // namespace aclcpu
