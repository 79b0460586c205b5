//===- FlashToNVVM.h - flash ops on NVIDIA GPUs -----------------*- C++ -*-===//
//
// The NVIDIA tensor-core kernels the NVVM pipeline (lib/Pipelines) adds to
// the shared GPU mapping (FlashToGPU), and the pass that gives their
// lowered form its tensor-map parameters.
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_CONVERSION_FLASHTONVVM_FLASHTONVVM_H
#define FLASH_CONVERSION_FLASHTONVVM_FLASHTONVVM_H

#include "flash/Conversion/FlashToGPU/FlashToGPU.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace flash {

/// The NVIDIA tensor-core kernels (mma.sync, wgmma; forward and backward)
/// as kernel kinds of flash-map-to-gpu, taken with its `tensor-cores`.
KernelKinds tensorCoreKernelKinds();

#define GEN_PASS_DECL_FLASHTENSORMAPPARAMS
#include "flash/Conversion/FlashToNVVM/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "flash/Conversion/FlashToNVVM/Passes.h.inc"

} // namespace flash
} // namespace mlir

#endif // FLASH_CONVERSION_FLASHTONVVM_FLASHTONVVM_H
