//===- flash-opt.cpp - The flash-mlir optimizer driver --------------------===//
//
// mlir-opt with the flash dialect, its passes and pipelines next to every
// upstream dialect and pass a user of an ML compiler needs.
//
//===----------------------------------------------------------------------===//

#include "flash/Dialect/Flash/IR/FlashDialect.h"
#include "flash/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::flash::registerAllFlashPassesAndPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR inside flash-opt.
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::flash::FlashDialect>();

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "flash-mlir optimizer driver\n", registry));
}
