//===- Passes.td - flash on NVIDIA GPUs ---------------------*- tablegen -*-===//

#ifndef FLASH_CONVERSION_FLASHTONVVM_PASSES_TD
#define FLASH_CONVERSION_FLASHTONVVM_PASSES_TD

include "mlir/Pass/PassBase.td"

def FlashTensorMapParams
    : Pass<"flash-tensor-map-params", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make the tensor-map parameters of lowered kernels 128-byte "
                "grid constants";
  let description = [{
    A kernel that takes TMA tensor maps (flash-map-to-gpu records their
    parameters in the kernel's `flash.tensor_maps`) takes each as CUDA's
    128-byte `CUtensorMap` by value, as `const __grid_constant__
    CUtensorMap` is in CUDA C++: the pointer argument the kernel body uses
    becomes `llvm.byval` of 128 bytes, 64-byte aligned, with
    `nvvm.grid_constant` (NVPTX then addresses the parameter itself, what
    `cp.async.bulk.tensor` reads). Runs on the kernels once they are
    `llvm.func`s (convert-gpu-to-nvvm drops such argument attributes, and
    the NVVM dialect allows `nvvm.grid_constant` on LLVM kernels only);
    our own pass: upstream has no way to declare a by-value kernel
    parameter on `gpu.func`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // FLASH_CONVERSION_FLASHTONVVM_PASSES_TD
