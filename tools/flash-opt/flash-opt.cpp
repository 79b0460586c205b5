//===- flash-opt.cpp - The flash-mlir optimizer driver --------------------===//
//
// mlir-opt with the flash dialect, its passes and pipelines next to every
// upstream dialect and pass a user of an ML compiler needs.
//
//===----------------------------------------------------------------------===//

#include "flash/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::flash::registerAllFlashPassesAndPipelines();

  // flash, every upstream dialect and extension, and the translations to
  // LLVM IR (which gpu-module-to-binary uses inside flash-opt).
  mlir::DialectRegistry registry;
  mlir::flash::registerPipelineDependencies(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "flash-mlir optimizer driver\n", registry));
}
