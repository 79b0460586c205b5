//===- HostDeallocation.cpp - Deallocation around the GPU glue ------------===//
//
// flash-host-deallocation: ownership-based buffer deallocation for every
// host function but the GPU glue of flash-map-to-gpu (which frees its own
// staging buffers).
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToGPU/FlashToGPU.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
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
