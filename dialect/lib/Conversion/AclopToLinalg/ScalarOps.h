//===- ScalarOps.h - per-element semantics of aclop ops ---------*- C++ -*-===//
//
// The scalar computation behind every element-wise op and cast, shared by all the linalg
// bodies the conversion builds. `type` arguments are the aclop (signedness-carrying) types;
// the values themselves are signless.
//
//===----------------------------------------------------------------------===//
#ifndef ACLOP_CONVERSION_SCALAROPS_H
#define ACLOP_CONVERSION_SCALAROPS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"

namespace mlir::aclop {

// The type arithmetic on `type` is done in: f32 for f16/bf16, else `type` made signless.
Type computeType(Type type);
// Converts between aclop types with Cast semantics (see AclopOps.td).
Value castScalar(OpBuilder &b, Location loc, Value value, Type from, Type to, bool truncate);
// `op` is the aclop op whose semantics to apply to scalar operands of type `type`.
Value binaryScalar(OpBuilder &b, Location loc, Operation *op, Value lhs, Value rhs, Type type);
Value unaryScalar(OpBuilder &b, Location loc, Operation *op, Value input, Type type);

} // namespace mlir::aclop

#endif // ACLOP_CONVERSION_SCALAROPS_H
