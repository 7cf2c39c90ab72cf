//===- AclopDialect.td - the aclop dialect -----------------*- tablegen -*-===//
//
// Operators of CANN's single-operator API on ranked tensors. Each op mirrors a CANN operator
// type and its attributes (transpose_a, dst_type, axes, keep_dims, perm); the compiler lowers
// them through linalg to native kernels with the aclcpu kernel ABI.
//
//===----------------------------------------------------------------------===//

#ifndef ACLOP_DIALECT_TD
#define ACLOP_DIALECT_TD

include "mlir/IR/OpBase.td"

def Aclop_Dialect : Dialect {
  let name = "aclop";
  let cppNamespace = "::mlir::aclop";
  let summary = "CANN operators on ranked tensors";
  let description = [{
    The `aclop` dialect holds one operation per CANN operator type that aclcpu compiles. Ops
    work on ranked tensors with static or dynamic (`?`) dimensions; every op infers its result
    type from its operands and attributes, and that inference is what `aclopInferShape` uses.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

class Aclop_Op<string mnemonic, list<Trait> traits = []> : Op<Aclop_Dialect, mnemonic, traits>;

#endif // ACLOP_DIALECT_TD
