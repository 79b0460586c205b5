//===- GPUHostPreparation.h - The host side of the GPU pipelines -*- C++ -*-===//

#ifndef FLASH_LIB_PIPELINES_GPUHOSTPREPARATION_H
#define FLASH_LIB_PIPELINES_GPUHOSTPREPARATION_H

namespace mlir {
class OpPassManager;
namespace flash {

/// The host side shared by the GPU pipelines, after flash-map-to-gpu: TOSA
/// and the rest of the module as --flash-to-cpu lowers them, bufferized
/// (deallocation everywhere but in the GPU glue: flash-host-deallocation),
/// linalg as loops.
void buildGPUHostPreparation(OpPassManager &pm);

/// Tensors to buffers as every pipeline's host side does it: one-shot
/// bufferization across function boundaries, identity layouts at them.
void addHostBufferization(OpPassManager &pm);

/// fp8 on the host (LLVM has no fp8 types): arithmetic on f8E4M3FN through
/// f32 (arith-emulate-unsupported-floats), its conversions as integer
/// arithmetic (flash-expand-fp8). After linalg is lowered to loops.
void addHostFP8Lowering(OpPassManager &pm);

} // namespace flash
} // namespace mlir

#endif // FLASH_LIB_PIPELINES_GPUHOSTPREPARATION_H
