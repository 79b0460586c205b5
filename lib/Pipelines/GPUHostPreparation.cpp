//===- GPUHostPreparation.cpp - The host side of the GPU pipelines --------===//
//
// What the GPU pipelines run on the host code after flash-map-to-gpu: the
// rest of the module lowered as --flash-to-cpu lowers it, up to
// bufferization and loops, with buffer deallocation everywhere but in the
// GPU glue (flash-host-deallocation).
//
//===----------------------------------------------------------------------===//

#include "GPUHostPreparation.h"
#include "flash/Conversion/FlashToGPU/FlashToGPU.h"
#include "flash/Dialect/Flash/Transforms/Passes.h"

#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::flash::addHostBufferization(OpPassManager &pm) {
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
}

void mlir::flash::addHostFP8Lowering(OpPassManager &pm) {
  arith::ArithEmulateUnsupportedFloatsOptions fp8Arith;
  fp8Arith.sourceTypeStrs = {"f8E4M3FN"};
  pm.addPass(arith::createArithEmulateUnsupportedFloats(fp8Arith));
  pm.addPass(createFlashExpandFP8());
}

void mlir::flash::buildGPUHostPreparation(OpPassManager &pm) {
  // The rest of the module's TOSA, as --flash-to-cpu lowers it (constants
  // and reshapes too: a raised TOSA program's other uses of them).
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions());
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass());
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  pm.addPass(createFlashDecomposeAggregates());
  pm.addPass(createConvertElementwiseToLinalgPass());
  pm.addPass(createCanonicalizerPass());
  addHostBufferization(pm);
  // Deallocation everywhere but in the GPU glue functions (which free
  // their own staging buffers).
  pm.addPass(createFlashHostDeallocation());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  addHostFP8Lowering(pm);
  pm.addPass(createCanonicalizerPass());
}
