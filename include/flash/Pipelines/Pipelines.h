//===- Pipelines.h - flash-mlir's pipelines and their registration -*- C++ -*-//
//
// The three whole-module pipelines (--flash-to-cpu, --flash-to-nvvm,
// --flash-to-spirv) as C++ functions with one options struct each, and the
// registration of every flash pass and pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_PIPELINES_PIPELINES_H
#define FLASH_PIPELINES_PIPELINES_H

#include "flash/Pipelines/FlashToCPU.h"
#include "flash/Pipelines/FlashToNVVM.h"
#include "flash/Pipelines/FlashToSPIRV.h"

namespace mlir {
class DialectRegistry;
namespace flash {

/// What a context needs for the pipelines to run: the flash dialect,
/// upstream's dialects with the interface models their registration
/// attaches (tiling and bufferization of linalg, tensor, ...), upstream's
/// extensions (the conversions to LLVM, the NVVM and SPIR-V targets the GPU
/// pipelines attach) and the translations to LLVM IR (gpu-module-to-binary,
/// the ExecutionEngine). flash-opt's registry.
void registerPipelineDependencies(DialectRegistry &registry);

/// Registers flash-to-cpu, flash-to-nvvm and flash-to-spirv.
void registerFlashPipelines();

/// Registers every flash pass (flash-map-to-gpu with every target's kernel
/// kinds) and the pipelines: what flash-opt and flashRegisterPasses() of the
/// C API offer.
void registerAllFlashPassesAndPipelines();

} // namespace flash
} // namespace mlir

#endif // FLASH_PIPELINES_PIPELINES_H
