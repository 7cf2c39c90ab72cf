//===- AclopDialect.h - the aclop dialect -----------------------*- C++ -*-===//
#ifndef ACLOP_ACLOPDIALECT_H
#define ACLOP_ACLOPDIALECT_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"

#include "aclop/AclopDialect.h.inc"

#endif // ACLOP_ACLOPDIALECT_H
