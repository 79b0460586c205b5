//===- FlashToNVVM.h - flash ops on NVIDIA GPUs -----------------*- C++ -*-===//
//
// The NVIDIA tensor-core kernels the NVVM pipeline (lib/Pipelines) adds to
// the shared GPU mapping (FlashToGPU).
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_CONVERSION_FLASHTONVVM_FLASHTONVVM_H
#define FLASH_CONVERSION_FLASHTONVVM_FLASHTONVVM_H

#include "flash/Conversion/FlashToGPU/FlashToGPU.h"

namespace mlir {
namespace flash {

/// The NVIDIA tensor-core kernels (mma.sync, wgmma; forward and backward)
/// as kernel kinds of flash-map-to-gpu, taken with its `tensor-cores`.
KernelKinds tensorCoreKernelKinds();

} // namespace flash
} // namespace mlir

#endif // FLASH_CONVERSION_FLASHTONVVM_FLASHTONVVM_H
