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

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

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

  // Upstream's gpu-lower-to-nvvm-pipeline (GPUToNVVMPipeline.cpp, as LLVM
  // 22 builds it: kernels with bare-pointer arguments), with
  // flash-tensor-map-params between the kernels' lowering and their
  // serialization (upstream's builder has no place for a pass there).
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  target.cmdOptions = options.ptxasOptions;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  ConvertIndexToLLVMPassOptions index;
  index.indexBitwidth = 64;
  pm.addPass(createConvertIndexToLLVMPass(index));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  ConvertGpuOpsToNVVMOpsOptions kernels;
  kernels.useBarePtrCallConv = true;
  kernels.indexBitwidth = 64;
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps(kernels));
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createFlashTensorMapParams());
  GpuToLLVMConversionPassOptions host;
  host.kernelBarePtrCallConv = true;
  pm.addPass(createGpuToLLVMConversionPass(host));
  GpuModuleToBinaryPassOptions binary;
  switch (options.format) {
  case gpu::CompilationTarget::Assembly:
    binary.compilationTarget = "isa";
    break;
  case gpu::CompilationTarget::Binary:
    binary.compilationTarget = "bin";
    break;
  default:
    binary.compilationTarget = "fatbin";
    break;
  }
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
