//===- Registration.cpp - Registering flash passes and pipelines ----------===//

#include "flash/Conversion/FlashToGPU/FlashToGPU.h"
#include "flash/Conversion/FlashToNVVM/FlashToNVVM.h"
#include "flash/Conversion/FlashToSPIRV/FlashToSPIRV.h"
#include "flash/Dialect/Flash/IR/FlashDialect.h"
#include "flash/Dialect/Flash/Transforms/Passes.h"
#include "flash/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

using namespace mlir;

void mlir::flash::registerPipelineDependencies(DialectRegistry &registry) {
  registry.insert<FlashDialect>();
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
}

void mlir::flash::registerFlashPipelines() {
  PassPipelineRegistration<FlashToCPUPipelineOptions>(
      "flash-to-cpu",
      "Lower a whole module (flash, tosa, linalg, tensor, arith, math) to the "
      "LLVM dialect for mlir-runner or ahead-of-time compilation",
      buildFlashToCPUPipeline);
  PassPipelineRegistration<FlashToNVVMPipelineOptions>(
      "flash-to-nvvm",
      "Lower a whole module with flash ops to host LLVM + gpu.binary "
      "(NVIDIA GPUs, run by the mgpu* runtime libflash_cuda_runtime.so)",
      buildFlashToNVVMPipeline);
  PassPipelineRegistration<FlashToSPIRVPipelineOptions>(
      "flash-to-spirv",
      "Lower a whole module with flash ops to host LLVM + gpu.binary of "
      "SPIR-V kernels (Vulkan, run by the mgpu* runtime "
      "libflash_vulkan_runtime.so; or the OpenCL/Kernel flavour)",
      buildFlashToSPIRVPipeline);
}

void mlir::flash::registerAllFlashPassesAndPipelines() {
  registerFlashPasses();
  // flash-map-to-gpu with every target's kernel kinds.
  registerFlashToGPUPasses(tensorCoreKernelKinds());
  registerFlashToSPIRVPasses();
  registerFlashPipelines();
}
