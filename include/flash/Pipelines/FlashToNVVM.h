//===- FlashToNVVM.h - The --flash-to-nvvm pipeline -------------*- C++ -*-===//
//
// Whole-module lowering to host LLVM + gpu.binary for NVIDIA GPUs.
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_PIPELINES_FLASHTONVVM_H
#define FLASH_PIPELINES_FLASHTONVVM_H

#include "flash/Conversion/FlashToGPU/FlashToGPU.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace flash {

/// The options of --flash-to-nvvm. The knobs it forwards to
/// flash-map-to-gpu take that pass's default (Passes.td, written once); the
/// target's knobs are defined here.
struct FlashToNVVMPipelineOptions
    : public PassPipelineOptions<FlashToNVVMPipelineOptions> {
  PassOptions::Option<std::string> chip{*this, "chip",
                                        llvm::cl::desc("Target chip"),
                                        llvm::cl::init("sm_90a")};
  PassOptions::Option<std::string> features{*this, "features",
                                            llvm::cl::desc("PTX features"),
                                            llvm::cl::init("+ptx80")};
  PassOptions::Option<gpu::CompilationTarget> format{
      *this, "format", llvm::cl::desc("What gpu.binary holds"),
      llvm::cl::init(gpu::CompilationTarget::Fatbin),
      llvm::cl::values(
          clEnumValN(gpu::CompilationTarget::Assembly, "isa", "PTX"),
          clEnumValN(gpu::CompilationTarget::Binary, "bin", "A cubin"),
          clEnumValN(gpu::CompilationTarget::Fatbin, "fatbin",
                     "A fat binary (cubin + PTX)"))};
  PassOptions::Option<int> optLevel{*this, "opt-level",
                                    llvm::cl::desc("Optimization level"),
                                    llvm::cl::init(3)};
  PassOptions::Option<std::string> ptxasOptions{
      *this, "ptxas-options",
      llvm::cl::desc(
          "Options for ptxas (format=bin, fatbin). The default compiles "
          "a module's kernels on every core (the backward's dQ and dK/dV "
          "kernels: 0.54 -> 0.40 s at d = 256 on 2 cores; the kernels' code "
          "is the same)"),
      llvm::cl::init("-split-compile 0")};
  PassOptions::Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("Tensor-core (mma.sync) kernels where they apply "
                     "(flash-map-to-gpu; only for chips sm_80 and newer)"),
      llvm::cl::init(FlashMapToGPUOptions().tensorCores)};
  PassOptions::Option<bool> wgmma{
      *this, "wgmma",
      llvm::cl::desc("Forward kernels on warpgroup MMA where they apply "
                     "(flash-map-to-gpu; only for chip sm_90a)"),
      llvm::cl::init(FlashMapToGPUOptions().wgmma)};
  PassOptions::Option<bool> warpSpecialize{
      *this, "warp-specialize",
      llvm::cl::desc("The wgmma forward in warp-specialized blocks (a "
                     "producer warpgroup, two consumers; flash-map-to-gpu)"),
      llvm::cl::init(FlashMapToGPUOptions().warpSpecialize)};
  PassOptions::Option<int64_t> persistentBlocks{
      *this, "persistent-blocks",
      llvm::cl::desc("Blocks of the persistent warp-specialized forward "
                     "(the SM count; 0: not persistent; flash-map-to-gpu)"),
      llvm::cl::init(FlashMapToGPUOptions().persistentBlocks)};
  PassOptions::Option<bool> persistentCaptures{
      *this, "persistent-captures",
      llvm::cl::desc("Persistent blocks also where the mask_mod reads "
                     "captured operands (flash-map-to-gpu)"),
      llvm::cl::init(FlashMapToGPUOptions().persistentCaptures)};
  PassOptions::Option<bool> mergeMaskedTiles{
      *this, "merge-masked-tiles",
      llvm::cl::desc("The warp-specialized causal forward's masked and "
                     "unmasked key tiles in one loop, up to d = 128 "
                     "(flash-map-to-gpu)"),
      llvm::cl::init(FlashMapToGPUOptions().mergeMaskedTiles)};
  PassOptions::Option<int64_t> fmaExp2{
      *this, "fma-exp2",
      llvm::cl::desc("Of every 8 exponentials of P in the wgmma forward, "
                     "how many on the FMA units (-1: by the score_mod; "
                     "flash-map-to-gpu)"),
      llvm::cl::init(FlashMapToGPUOptions().fmaExp2)};
  PassOptions::Option<bool> gradD256{
      *this, "grad-d256",
      llvm::cl::desc("The d = 256 backward on wgmma (false: SIMT; "
                     "flash-map-to-gpu)"),
      llvm::cl::init(FlashMapToGPUOptions().gradD256)};
  PassOptions::Option<bool> gradAShared{
      *this, "grad-a-shared",
      llvm::cl::desc("The wgmma backward's fixed A operands from shared "
                     "memory at d <= 128 too (flash-map-to-gpu)"),
      llvm::cl::init(FlashMapToGPUOptions().gradAShared)};
  PassOptions::Option<bool> gradProducer{
      *this, "grad-producer",
      llvm::cl::desc("The wgmma backward's dK/dV kernel with a producer "
                     "warpgroup and an mbarrier ring (flash-map-to-gpu)"),
      llvm::cl::init(FlashMapToGPUOptions().gradProducer)};
  PassOptions::Option<bool> deterministic{
      *this, "deterministic",
      llvm::cl::desc("The backward's dQ in a fixed order of additions "
                     "(false: atomics in the wgmma dK/dV kernel)"),
      llvm::cl::init(FlashMapToGPUOptions().deterministic)};
  PassOptions::Option<int64_t> mmaWarps{
      *this, "mma-warps",
      llvm::cl::desc("Warps per block of the tensor-core kernels; the "
                     "d = 256 backward always takes 8 (flash-map-to-gpu)"),
      llvm::cl::init(FlashMapToGPUOptions().mmaWarps)};
  PassOptions::Option<int64_t> mmaMaxRegisters{
      *this, "mma-max-registers",
      llvm::cl::desc("Registers per thread for the tensor-core kernels "
                     "(flash-map-to-gpu)"),
      llvm::cl::init(FlashMapToGPUOptions().mmaMaxRegisters)};
  PassOptions::Option<int64_t> mmaTileKV{
      *this, "mma-tile-kv",
      llvm::cl::desc("Keys per K/V tile of the tensor-core kernels "
                     "(flash-map-to-gpu)"),
      llvm::cl::init(FlashMapToGPUOptions().mmaTileKV)};
  PassOptions::Option<int64_t> rowLanes{
      *this, "row-lanes",
      llvm::cl::desc("Threads per query row of the SIMT forward "
                     "(flash-map-to-gpu)"),
      llvm::cl::init(FlashMapToGPUOptions().rowLanes)};
  PassOptions::Option<int64_t> gradRowLanes{
      *this, "grad-row-lanes",
      llvm::cl::desc("Threads per row of the SIMT backward "
                     "(flash-map-to-gpu)"),
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
  PassOptions::Option<bool> mapOnly{
      *this, "map-only",
      llvm::cl::desc("Stop after flash-map-to-gpu (with the options this "
                     "pipeline gives it): the kernels and their launches"),
      llvm::cl::init(false)};
};

/// Adds --flash-to-nvvm to `pm`: flash ops become kernels
/// (flash-map-to-gpu with the NVIDIA tensor-core kernel kinds), the rest of
/// the module is lowered as --flash-to-cpu lowers it, and upstream's NVVM
/// pipeline serializes the kernels (bare-pointer arguments; the host calls
/// the mgpu* runtime, libflash_cuda_runtime.so).
void buildFlashToNVVMPipeline(OpPassManager &pm,
                              const FlashToNVVMPipelineOptions &options);

} // namespace flash
} // namespace mlir

#endif // FLASH_PIPELINES_FLASHTONVVM_H
