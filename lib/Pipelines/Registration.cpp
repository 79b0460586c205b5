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

/// `description` and the options' defaults as the options struct holds
/// them (what `flash-opt --help` shows).
template <typename Options>
static std::string withDefaults(StringRef description) {
  std::string text = description.str();
  llvm::raw_string_ostream os(text);
  os << "; defaults ";
  Options().print(os);
  return text;
}

void mlir::flash::registerFlashPipelines() {
  PassPipelineRegistration<FlashToCPUPipelineOptions>(
      "flash-to-cpu",
      withDefaults<FlashToCPUPipelineOptions>(
          "Lower a whole module (flash, tosa, linalg, tensor, arith, math) "
          "to the LLVM dialect for mlir-runner or ahead-of-time "
          "compilation"),
      buildFlashToCPUPipeline);
  PassPipelineRegistration<FlashToNVVMPipelineOptions>(
      "flash-to-nvvm",
      withDefaults<FlashToNVVMPipelineOptions>(
          "Lower a whole module with flash ops to host LLVM + gpu.binary "
          "(NVIDIA GPUs, run by the mgpu* runtime "
          "libflash_cuda_runtime.so)"),
      buildFlashToNVVMPipeline);
  PassPipelineRegistration<FlashToSPIRVPipelineOptions>(
      "flash-to-spirv",
      withDefaults<FlashToSPIRVPipelineOptions>(
          "Lower a whole module with flash ops to host LLVM + gpu.binary of "
          "SPIR-V kernels (Vulkan, run by the mgpu* runtime "
          "libflash_vulkan_runtime.so; or the OpenCL/Kernel flavour)"),
      buildFlashToSPIRVPipeline);
}

void mlir::flash::registerAllFlashPassesAndPipelines() {
  registerFlashPasses();
  // flash-map-to-gpu with every target's kernel kinds.
  registerFlashToGPUPasses(tensorCoreKernelKinds());
  registerFlashToNVVMPasses();
  registerFlashToSPIRVPasses();
  registerFlashPipelines();
}
