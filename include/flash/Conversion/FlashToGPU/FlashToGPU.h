//===- FlashToGPU.h - flash ops as GPU kernels, any GPU target --*- C++ -*-===//
//
// The GPU mapping the NVVM and SPIR-V pipelines share: flash-map-to-gpu
// (flash ops -> kernels of the kernel kinds it is given + host glue),
// flash-gpu-lower-math (the target's exp2 / log2 / ... instructions),
// and flash-host-deallocation (part of the host-side preparation the
// pipelines run after the mapping, lib/Pipelines).
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_CONVERSION_FLASHTOGPU_FLASHTOGPU_H
#define FLASH_CONVERSION_FLASHTOGPU_FLASHTOGPU_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <memory>

namespace mlir {
namespace gpu {
class GPUFuncOp;
} // namespace gpu
namespace flash {
namespace gpukernels {
class KernelKind;
} // namespace gpukernels

/// The instruction set flash-gpu-lower-math picks exp2 / log2 from.
enum class GPUMathTarget { NVVM, SPIRV };

#define GEN_PASS_DECL_FLASHMAPTOGPU
#define GEN_PASS_DECL_FLASHGPULOWERMATH
#define GEN_PASS_DECL_FLASHHOSTDEALLOCATION
#define GEN_PASS_DECL_FLASHSTATICKERNELBUFFERS
#include "flash/Conversion/FlashToGPU/Passes.h.inc"

/// Kernel kinds a target library adds to flash-map-to-gpu (tried after the
/// cooperative-matrix forward and before SIMT).
using KernelKinds = SmallVector<std::shared_ptr<const gpukernels::KernelKind>>;

/// flash-map-to-gpu with the target's kernel kinds.
std::unique_ptr<Pass> createFlashMapToGPU(const FlashMapToGPUOptions &options,
                                          KernelKinds targetKinds);

/// Registers flash-map-to-gpu (with `targetKinds`; the tool that links every
/// target passes them all), flash-gpu-lower-math, flash-host-deallocation
/// and flash-static-kernel-buffers.
void registerFlashToGPUPasses(KernelKinds targetKinds = {});

/// Bytes of a kernel's workgroup buffers (its workgroup attributions): what
/// flash-map-to-gpu fits to max-workgroup-memory and the SPIR-V pipeline
/// checks against its target.
int64_t workgroupBytes(gpu::GPUFuncOp fn);

} // namespace flash
} // namespace mlir

#endif // FLASH_CONVERSION_FLASHTOGPU_FLASHTOGPU_H
