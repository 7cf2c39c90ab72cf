//===- AclopOps.h - aclop operations ----------------------------*- C++ -*-===//
#ifndef ACLOP_ACLOPOPS_H
#define ACLOP_ACLOPOPS_H

#include "aclop/AclopDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::aclop {
// Markers of how an op's operands broadcast (Aclop_BroadcastsOperands, Aclop_BroadcastsBatch in
// AclopOps.td); they verify nothing.
template <typename ConcreteType>
class BroadcastsOperands : public OpTrait::TraitBase<ConcreteType, BroadcastsOperands> {};
template <typename ConcreteType>
class BroadcastsBatch : public OpTrait::TraitBase<ConcreteType, BroadcastsBatch> {};
} // namespace mlir::aclop

#define GET_OP_CLASSES
#include "aclop/AclopOps.h.inc"

namespace mlir::aclop {

// Creates the aclop operation `name` with the result type inferred from `operands` and
// `attributes` (the shape inference every op defines). On failure nothing is created and
// the diagnostics say why; never aborts, unlike the generated builders.
FailureOr<Operation *> createInferredOp(OpBuilder &builder, Location loc, StringRef name, ValueRange operands,
                                        ArrayRef<NamedAttribute> attributes);

// Where a conv2d tensor keeps its batch (or output-channel) dim `n`, channel dim `c`, height
// `h` and width `w`, from a format name: "NCHW" or "NHWC" for data, also "HWCN" for filters.
struct ConvLayout {
  int64_t n, c, h, w;
};
std::optional<ConvLayout> convLayout(StringRef format, bool filter);

} // namespace mlir::aclop

#endif // ACLOP_ACLOPOPS_H
