//===- FlashToSPIRV.h - The --flash-to-spirv pipeline -----------*- C++ -*-===//
//
// Whole-module lowering to host LLVM + gpu.binary of SPIR-V kernels.
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_PIPELINES_FLASHTOSPIRV_H
#define FLASH_PIPELINES_FLASHTOSPIRV_H

#include "flash/Conversion/FlashToGPU/FlashToGPU.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace flash {

/// The options of --flash-to-spirv. The knobs it forwards to
/// flash-map-to-gpu take that pass's default (Passes.td, written once); the
/// target's knobs are defined here. The resource limits describe the
/// target (a Vulkan 1.2 device's guaranteed limits, with 32-wide
/// subgroups); flash-map-to-gpu and flash-prepare-spirv-kernels get them
/// from here.
struct FlashToSPIRVPipelineOptions
    : public PassPipelineOptions<FlashToSPIRVPipelineOptions> {
  enum class ClientAPI { Vulkan, OpenCL };
  PassOptions::Option<ClientAPI> clientAPI{
      *this, "client-api", llvm::cl::desc("The SPIR-V client API"),
      llvm::cl::init(ClientAPI::Vulkan),
      llvm::cl::values(
          clEnumValN(ClientAPI::Vulkan, "vulkan",
                     "Shader, storage buffers (spirv.module beside the "
                     "gpu.module)"),
          clEnumValN(ClientAPI::OpenCL, "opencl",
                     "Kernel, Addresses, Int64 (spirv.module inside the "
                     "gpu.module)"))};
  PassOptions::Option<std::string> version{
      *this, "version",
      llvm::cl::desc("SPIR-V version (v1.0 ... v1.6); empty, the default: "
                     "v1.4 for vulkan (v1.6 with cooperative matrices), "
                     "v1.0 for opencl")};
  PassOptions::ListOption<std::string> caps{
      *this, "caps",
      llvm::cl::desc("Capabilities besides those of the client API")};
  PassOptions::ListOption<std::string> exts{
      *this, "exts",
      llvm::cl::desc("Extensions besides those of the client API")};
  PassOptions::Option<int64_t> maxWorkgroupMemory{
      *this, "max-workgroup-memory",
      llvm::cl::desc("Workgroup memory per kernel in bytes (the target "
                     "environment's max_compute_shared_memory_size): SIMT "
                     "kernels take fewer keys per tile to fit"),
      llvm::cl::init(32768)};
  PassOptions::Option<int64_t> maxInvocations{
      *this, "max-invocations",
      llvm::cl::desc("Invocations per workgroup (max_compute_workgroup_"
                     "invocations): the SIMT kernels' block size is at "
                     "most this"),
      llvm::cl::init(128)};
  PassOptions::Option<int64_t> subgroupSize{
      *this, "subgroup-size",
      llvm::cl::desc("The device's subgroup size (the cooperative-matrix "
                     "kernels need 32)"),
      llvm::cl::init(32)};
  // The one knob whose default is the target's: one row per thread (the
  // pass's default, what CUDA runs fastest) made the Vulkan compilers spill
  // or unroll for minutes (NVIDIA's Vulkan driver: 2.4x slower at
  // d = 128; lavapipe: minutes per d = 256 kernel), so SPIR-V splits each
  // row by head dim (bench/RESULTS.md, session 4).
  PassOptions::Option<int64_t> rowLanes{
      *this, "row-lanes",
      llvm::cl::desc("Threads per query row of the SIMT forward, which "
                     "exchange values by subgroup shuffles "
                     "(flash-map-to-gpu; 0: by head dim, up to 8; OpenCL: "
                     "always 1)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> gradRowLanes{
      *this, "grad-row-lanes",
      llvm::cl::desc("Threads per row of the SIMT backward "
                     "(flash-map-to-gpu; OpenCL: always 1)"),
      llvm::cl::init(FlashMapToGPUOptions().gradRowLanes)};
  PassOptions::Option<int64_t> splitKV{
      *this, "split-kv",
      llvm::cl::desc("Keys per block of the split-KV (decode) forward; 0: "
                     "never split (flash-map-to-gpu)"),
      llvm::cl::init(FlashMapToGPUOptions().splitKV)};
  PassOptions::Option<int64_t> splitKVBlocks{
      *this, "split-kv-blocks",
      llvm::cl::desc("Blocks of a split-KV launch to aim for "
                     "(flash-map-to-gpu)"),
      llvm::cl::init(FlashMapToGPUOptions().splitKVBlocks)};
  PassOptions::Option<bool> kernelsOnly{
      *this, "kernels-only",
      llvm::cl::desc("Stop once the kernels are spirv.modules (inside their "
                     "gpu.modules), before serialization and the host "
                     "lowering"),
      llvm::cl::init(false)};
};

/// Adds --flash-to-spirv to `pm`: flash-map-to-gpu, the shared host
/// preparation, the kernels to a spirv.module inside each gpu.module
/// (Shader for Vulkan, Kernel for OpenCL), then gpu.binary and host LLVM
/// that calls the mgpu* runtime with bare-pointer + size kernel arguments
/// (libflash_vulkan_runtime.so).
void buildFlashToSPIRVPipeline(OpPassManager &pm,
                               const FlashToSPIRVPipelineOptions &options);

} // namespace flash
} // namespace mlir

#endif // FLASH_PIPELINES_FLASHTOSPIRV_H
