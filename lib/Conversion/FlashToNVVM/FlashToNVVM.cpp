//===- FlashToNVVM.cpp - The --flash-to-nvvm pipeline ---------------------===//
//
// flash ops -> kernels + host glue (flash-map-to-gpu) -> the host and the
// rest of the module as --flash-to-cpu lowers them up to bufferization ->
// upstream's GPU-to-NVVM pipeline (NVVM kernels with bare-pointer
// arguments, host calls to the mgpu* runtime, gpu.binary for the chip).
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToNVVM/FlashToNVVM.h"
#include "flash/Dialect/Flash/Transforms/Passes.h"

#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <cctype>

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHHOSTDEALLOCATION
#define GEN_PASS_REGISTRATION
#include "flash/Conversion/FlashToNVVM/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;

namespace {
struct FlashHostDeallocationPass
    : flash::impl::FlashHostDeallocationBase<FlashHostDeallocationPass> {
  void runOnOperation() override {
    OpPassManager fpm(func::FuncOp::getOperationName());
    fpm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
    fpm.addPass(createCanonicalizerPass());
    fpm.addPass(bufferization::createBufferDeallocationSimplificationPass());
    auto gpuHost = [](func::FuncOp fn) {
      return fn->hasAttr("flash.gpu_host") ||
             fn.walk([](Operation *op) {
                 return isa<gpu::GPUDialect>(op->getDialect())
                            ? WalkResult::interrupt()
                            : WalkResult::advance();
               }).wasInterrupted();
    };
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isExternal() || gpuHost(fn))
        continue;
      if (failed(runPipeline(fpm, fn)))
        return signalPassFailure();
    }
  }
};
} // namespace

void mlir::flash::buildGPUHostPreparation(OpPassManager &pm) {
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions());
  pm.addPass(createFlashDecomposeAggregates());
  pm.addPass(createConvertElementwiseToLinalgPass());
  pm.addPass(createCanonicalizerPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Deallocation everywhere but in the GPU glue functions (which free
  // their own staging buffers).
  pm.addPass(createFlashHostDeallocation());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::flash::buildFlashToNVVMPipeline(OpPassManager &pm,
                                           const FlashToNVVMOptions &options) {
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
  map.gradRowLanes = options.gradRowLanes;
  // wgmma exists only on sm_90a (the "a" features of Hopper).
  map.wgmma = map.tensorCores && options.wgmma && options.chip == "sm_90a";
  pm.addPass(createFlashMapToGPU(map));
  if (options.mapOnly)
    return;
  pm.addNestedPass<gpu::GPUModuleOp>(
      createFlashGPULowerMath(FlashGPULowerMathOptions{"nvvm"}));
  buildGPUHostPreparation(pm);

  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.chip;
  nvvm.cubinFeatures = options.features;
  nvvm.cubinFormat = options.format;
  nvvm.optLevel = options.optLevel;
  nvvm.kernelUseBarePtrCallConv = true;
  gpu::buildLowerToNVVMPassPipeline(pm, nvvm);
}

void mlir::flash::registerFlashToNVVMPipeline() {
  registerFlashToNVVMPasses();
  PassPipelineRegistration<FlashToNVVMOptions>(
      "flash-to-nvvm",
      "Lower a whole module with flash ops to host LLVM + gpu.binary "
      "(NVIDIA GPUs, run by the mgpu* runtime libflash_cuda_runtime.so)",
      buildFlashToNVVMPipeline);
}
