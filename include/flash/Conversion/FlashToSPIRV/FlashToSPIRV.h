//===- FlashToSPIRV.h - flash ops to SPIR-V kernels ------------*- C++ -*-===//
//
// The passes that make flash-map-to-gpu's kernels convertible to SPIR-V
// (the pipeline is in flash/Pipelines/FlashToSPIRV.h).
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_CONVERSION_FLASHTOSPIRV_FLASHTOSPIRV_H
#define FLASH_CONVERSION_FLASHTOSPIRV_FLASHTOSPIRV_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace flash {

#define GEN_PASS_DECL_FLASHPREPARESPIRVKERNELS
#define GEN_PASS_DECL_FLASHNESTSPIRVMODULES
#define GEN_PASS_DECL_FLASHPINSPIRVVERSION
#include "flash/Conversion/FlashToSPIRV/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "flash/Conversion/FlashToSPIRV/Passes.h.inc"

} // namespace flash
} // namespace mlir

#endif // FLASH_CONVERSION_FLASHTOSPIRV_FLASHTOSPIRV_H
