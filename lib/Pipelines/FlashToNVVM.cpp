//===- FlashToNVVM.cpp - The --flash-to-nvvm pipeline ---------------------===//
//
// flash ops -> kernels + host glue (flash-map-to-gpu with the tensor-core
// kernel kinds) -> the host and the rest of the module as --flash-to-cpu
// lowers them up to bufferization (buildGPUHostPreparation) ->
// upstream's GPU-to-NVVM pipeline (NVVM kernels with bare-pointer
// arguments, host calls to the mgpu* runtime, gpu.binary for the chip).
//
//===----------------------------------------------------------------------===//

#include "flash/Pipelines/FlashToNVVM.h"
#include "flash/Conversion/FlashToNVVM/FlashToNVVM.h"
#include "GPUHostPreparation.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"

#include <cctype>

using namespace mlir;

void mlir::flash::buildFlashToNVVMPipeline(
    OpPassManager &pm, const FlashToNVVMPipelineOptions &options) {
  // mma.sync needs sm_80 or newer ("sm_90a" -> 90).
  int sm = 0;
  StringRef chip = options.chip;
  if (chip.consume_front("sm_"))
    chip.take_while([](char c) { return std::isdigit(c); })
        .getAsInteger(10, sm);
  FlashMapToGPUOptions map;
  map.tensorCores = options.tensorCores && sm >= 80;
  map.mmaWarps = options.mmaWarps;
  map.mmaTileKV = options.mmaTileKV;
  map.mmaMaxRegisters = options.mmaMaxRegisters;
  map.rowLanes = options.rowLanes;
  map.splitKV = options.splitKV;
  map.splitKVBlocks = options.splitKVBlocks;
  map.gradRowLanes = options.gradRowLanes;
  // wgmma exists only on sm_90a (the "a" features of Hopper).
  map.wgmma = map.tensorCores && options.wgmma && options.chip == "sm_90a";
  map.warpSpecialize = options.warpSpecialize;
  map.deterministic = options.deterministic;
  map.persistentBlocks = options.persistentBlocks;
  map.persistentCaptures = options.persistentCaptures;
  map.fmaExp2 = options.fmaExp2;
  map.mergeMaskedTiles = options.mergeMaskedTiles;
  map.gradD256 = options.gradD256;
  map.gradAShared = options.gradAShared;
  map.gradProducer = options.gradProducer;
  pm.addPass(createFlashMapToGPU(map, tensorCoreKernelKinds()));
  if (options.mapOnly)
    return;
  pm.addNestedPass<gpu::GPUModuleOp>(
      createFlashGPULowerMath(FlashGPULowerMathOptions{GPUMathTarget::NVVM}));
  buildGPUHostPreparation(pm);

  // Dynamically sized buffers: a static type for the bare pointers.
  pm.addPass(createFlashStaticKernelBuffers());

  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.chip;
  nvvm.cubinFeatures = options.features;
  switch (options.format) {
  case gpu::CompilationTarget::Assembly:
    nvvm.cubinFormat = "isa";
    break;
  case gpu::CompilationTarget::Binary:
    nvvm.cubinFormat = "bin";
    break;
  default:
    nvvm.cubinFormat = "fatbin";
    break;
  }
  nvvm.optLevel = options.optLevel;
  nvvm.cmdOptions = options.ptxasOptions;
  nvvm.kernelUseBarePtrCallConv = true;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
}
