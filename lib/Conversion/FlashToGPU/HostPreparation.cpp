//===- HostPreparation.cpp - The host side of the GPU pipelines -----------===//
//
// What the GPU pipelines run on the host code after flash-map-to-gpu: the
// rest of the module lowered as --flash-to-cpu lowers it, up to
// bufferization and loops, with buffer deallocation everywhere but in the
// GPU glue (flash-host-deallocation).
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToGPU/FlashToGPU.h"
#include "flash/Dialect/Flash/Transforms/Passes.h"

#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/Passes.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHHOSTDEALLOCATION
#include "flash/Conversion/FlashToGPU/Passes.h.inc"
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

