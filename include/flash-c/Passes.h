//===- Passes.h - C API of the flash passes and pipelines -------*- C -*-===//
//
// Registration of every flash pass and pipeline (so that
// mlirParsePassPipeline / mlirOpPassManagerAddPipeline know them by name),
// and one function per pipeline that adds it to a pass manager from an
// options string, as its --flash-to-<target>="..." option would:
//
//   flashRegisterPasses();
//   MlirPassManager pm = mlirPassManagerCreate(ctx);
//   MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
//   if (mlirLogicalResultIsFailure(flashAddFlashToCPUPipeline(
//           opm, mlirStringRefCreateFromCString("block-q=64"), onError, 0)))
//     ...
//
// Options and their defaults: README, "Pass and pipeline options".
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_C_PASSES_H
#define FLASH_C_PASSES_H

#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every flash pass and the flash-to-cpu, flash-to-nvvm and
/// flash-to-spirv pipelines in the global registry.
MLIR_CAPI_EXPORTED void flashRegisterPasses(void);

/// Adds --flash-to-cpu with `options` (space-separated key=value pairs, as
/// in `flash-to-cpu{...}`; empty: the defaults) to `passManager`, which
/// must run on builtin.module. On a bad option, calls `errorCallback` with
/// the message (when not null), adds nothing and fails.
MLIR_CAPI_EXPORTED MlirLogicalResult flashAddFlashToCPUPipeline(
    MlirOpPassManager passManager, MlirStringRef options,
    MlirStringCallback errorCallback, void *userData);

/// The same for --flash-to-nvvm.
MLIR_CAPI_EXPORTED MlirLogicalResult flashAddFlashToNVVMPipeline(
    MlirOpPassManager passManager, MlirStringRef options,
    MlirStringCallback errorCallback, void *userData);

/// The same for --flash-to-spirv.
MLIR_CAPI_EXPORTED MlirLogicalResult flashAddFlashToSPIRVPipeline(
    MlirOpPassManager passManager, MlirStringRef options,
    MlirStringCallback errorCallback, void *userData);

#ifdef __cplusplus
}
#endif

#endif // FLASH_C_PASSES_H
