//===- FlashToSPIRV.h - flash ops to SPIR-V kernels ------------*- C++ -*-===//

#ifndef FLASH_CONVERSION_FLASHTOSPIRV_FLASHTOSPIRV_H
#define FLASH_CONVERSION_FLASHTOSPIRV_FLASHTOSPIRV_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace flash {

#define GEN_PASS_DECL_FLASHPREPARESPIRVKERNELS
#include "flash/Conversion/FlashToSPIRV/Passes.h.inc"

struct FlashToSPIRVOptions : public PassPipelineOptions<FlashToSPIRVOptions> {
  PassOptions::Option<std::string> version{
      *this, "version", llvm::cl::desc("SPIR-V version (v1.0 ... v1.6)"),
      llvm::cl::init("v1.3")};
  PassOptions::ListOption<std::string> caps{
      *this, "caps", llvm::cl::desc("Capabilities besides Shader")};
  PassOptions::ListOption<std::string> exts{
      *this, "exts",
      llvm::cl::desc("Extensions besides SPV_KHR_storage_buffer_storage_class")};
};

/// flash-map-to-gpu, the shared host preparation, then the kernels to a
/// spirv.module for Vulkan (Shader). The host code keeps its
/// gpu.launch_func calls: there is no Vulkan runtime yet.
void buildFlashToSPIRVPipeline(OpPassManager &pm,
                               const FlashToSPIRVOptions &options);

void registerFlashToSPIRVPipeline();

} // namespace flash
} // namespace mlir

#endif // FLASH_CONVERSION_FLASHTOSPIRV_FLASHTOSPIRV_H
