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
// Bool tensors hold a byte an element (ACL_BOOL's layout; LLVM would pack vectors of i1 to
// bits in memory): the storage type of aclop element type `type` (i1 -> i8; ui8 -> i8, the ops
// carrying the signedness), a stored element's value (a byte is true when not zero), and back.
Type storageType(Type type);
Value fromStorage(OpBuilder &b, Location loc, Value stored, Type type);
Value toStorage(OpBuilder &b, Location loc, Value value, Type type);
// exp(x) and log(x), x a float. f32 is computed by polynomial approximations in the end
// (aclop-approximate-math), which work on normal numbers: these scale what would be, or is,
// subnormal (exp below -87, log of a positive subnormal) into their range and back.
Value expOf(OpBuilder &b, Location loc, Value x);
Value logOf(OpBuilder &b, Location loc, Value x);
// Any element-wise op (unary, binary, comparison, select) applied to its scalar operands.
Value elementwiseScalar(OpBuilder &b, Location loc, Operation *op, ValueRange operands);

} // namespace mlir::aclop

#endif // ACLOP_CONVERSION_SCALAROPS_H
