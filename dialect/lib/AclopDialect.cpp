//===- AclopDialect.cpp - the aclop dialect -------------------------------===//
#include "aclop/AclopDialect.h"
#include "aclop/AclopOps.h"

using namespace mlir;
using namespace mlir::aclop;

#include "aclop/AclopDialect.cpp.inc"

void AclopDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "aclop/AclopOps.cpp.inc"
      >();
}
