//===- FlashToNVVM.h - flash ops on NVIDIA GPUs -----------------*- C++ -*-===//
//
// The NVVM pipeline and the NVIDIA tensor-core kernels it adds to the
// shared GPU mapping (FlashToGPU).
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_CONVERSION_FLASHTONVVM_FLASHTONVVM_H
#define FLASH_CONVERSION_FLASHTONVVM_FLASHTONVVM_H

#include "flash/Conversion/FlashToGPU/FlashToGPU.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace flash {

struct FlashToNVVMOptions : public PassPipelineOptions<FlashToNVVMOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target chip"), llvm::cl::init("sm_90a")};
  PassOptions::Option<std::string> features{*this, "features",
                                            llvm::cl::desc("PTX features"),
                                            llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> format{
      *this, "format", llvm::cl::desc("isa (PTX), bin (cubin) or fatbin"),
      llvm::cl::init("fatbin")};
  PassOptions::Option<int> optLevel{*this, "opt-level",
                                    llvm::cl::desc("Optimization level"),
                                    llvm::cl::init(3)};
  PassOptions::Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("Tensor-core (mma.sync) forward kernels where they "
                     "apply (sm_80 and newer)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> mmaWarps{
      *this, "mma-warps",
      llvm::cl::desc("Warps per block of the tensor-core forward (4 or 8; "
                     "0: by head dim)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> mmaMaxRegisters{
      *this, "mma-max-registers",
      llvm::cl::desc("Registers per thread for the tensor-core kernels "
                     "(64..255; 0: by block size)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> mapOnly{
      *this, "map-only",
      llvm::cl::desc("Stop after flash-map-to-gpu (with the options this "
                     "pipeline gives it): the kernels and their launches"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> wgmma{
      *this, "wgmma",
      llvm::cl::desc("Forward kernels on warpgroup MMA (wgmma) where they "
                     "apply (chip sm_90a)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> rowLanes{
      *this, "row-lanes",
      llvm::cl::desc("Threads per query row of the SIMT forward (f32, head "
                     "dims the tensor-core kernels do not take), which sum "
                     "dot products by warp shuffles (0: by head dim, up to "
                     "8; 1, the default, measured 1.5-1.7x faster than 0 "
                     "on the H200 at d = 64 and 128)"),
      llvm::cl::init(1)};
  PassOptions::Option<int64_t> gradRowLanes{
      *this, "grad-row-lanes",
      llvm::cl::desc("The same for the SIMT backward (0, the default: by "
                     "head dim, so that a thread holds at most 64 values; "
                     "one row per thread spills kilobytes from d = 64 on)"),
      llvm::cl::init(0)};
  PassOptions::Option<int64_t> mmaTileKV{
      *this, "mma-tile-kv",
      llvm::cl::desc("Keys per K/V tile of the tensor-core forward, keys / "
                     "queries per tile of its backward (32, 64 or 128; 0: by "
                     "head dim)"),
      llvm::cl::init(0)};
};

/// The NVIDIA tensor-core kernels (mma.sync, wgmma; forward and backward)
/// as kernel kinds of flash-map-to-gpu, taken with its `tensor-cores`.
KernelKinds tensorCoreKernelKinds();

/// Whole-module lowering to host LLVM + gpu.binary: flash ops become
/// kernels (flash-map-to-gpu), the rest is lowered as --flash-to-cpu does,
/// and upstream's NVVM pipeline serializes the kernels.
void buildFlashToNVVMPipeline(OpPassManager &pm,
                              const FlashToNVVMOptions &options);

/// Registers the flash-to-nvvm pipeline.
void registerFlashToNVVMPipeline();

} // namespace flash
} // namespace mlir

#endif // FLASH_CONVERSION_FLASHTONVVM_FLASHTONVVM_H
