//===- op-opt.cpp - mlir-opt for the aclop dialect -------------------------===//
//
// Registers aclop, every upstream dialect and pass (so the whole lowering path can be run and
// inspected step by step), and aclop's own passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "aclop/AclopDialect.h"
#include "aclop/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::aclop::registerAclopPasses();
  mlir::aclop::registerAclopPipelines();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::aclop::AclopDialect>();
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "aclop optimizer driver\n", registry));
}
