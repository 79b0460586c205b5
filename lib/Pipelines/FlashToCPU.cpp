//===- FlashToCPU.cpp - The --flash-to-cpu pipeline -----------------------===//
//
// frontend IR (flash, tosa, linalg, tensor, arith, math)
//   -> flash-widen-bf16 include-f16  bf16/f16 flash ops on f32 tensors
//                                    (bf16 ones stay bf16 with bf16-dot)
//   -> flash-tile-attention          online-softmax loop nests on tensors
//                                    (scf.forall where independent, unless
//                                    threads=1)
//   -> tosa-to-linalg, flash-decompose-aggregates (linalg.softmax)
//   -> flash-vectorize-bf16-dot      (bf16-dot) bf16 block products ->
//                                    x86vector.avx512.dot register tiles
//   -> flash-vectorize-cpu           register tiles -> vector dialect
//   -> one-shot-bufferize + deallocation
//   -> scf.forall -> scf.parallel -> OpenMP (convert-scf-to-openmp,
//                                    flash-openmp-schedule: dynamic)
//   -> loops, vector/math/arith/memref/func -> LLVM
//                                    (flash-expand-fp8: f8E4M3FN
//                                    conversions as integer arithmetic)
//   -> flash-cpu-target-features     the target CPU on every function
//                                    (+avx512bf16 where the dots are)
//
// Only upstream passes except the first, the softmax decomposition (no
// upstream pass) and the CPU vectorization heuristics (f32 FMA tiles and
// bf16 dot-product tiles).
//
//===----------------------------------------------------------------------===//

#include "flash/Pipelines/FlashToCPU.h"
#include "GPUHostPreparation.h"
#include "flash/Dialect/Flash/Transforms/CPUTarget.h"
#include "flash/Dialect/Flash/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::flash::buildFlashToCPUPipeline(
    OpPassManager &pm, const FlashToCPUPipelineOptions &options) {
  // bf16/f16 attention runs in f32 between conversions (O(N d) copies for
  // O(N^2 d) work): the register tiles are f32 vectors, which x86 has FMAs
  // for, and the results are those the op defines (f32 accumulation).
  // With bf16-dot, bf16 ops stay bf16 and their block products become
  // AVX512-BF16 dot products (f32 accumulation too).
  bool bf16Dot = options.vectorize &&
                 (options.bf16Dot == BF16Dot::On ||
                  (options.bf16Dot == BF16Dot::Host && hostHasAVX512BF16()));
  FlashWidenBF16Options widen;
  widen.includeF16 = true;
  widen.widenForward = !bf16Dot;
  widen.widenBackward = !bf16Dot;
  pm.addPass(createFlashWidenBF16(widen));
  // Attention first, while it is still one op.
  FlashTileAttentionOptions tile;
  tile.blockQ = options.blockQ;
  tile.blockKV = options.blockKV;
  tile.loopOrder = options.loopOrder;
  tile.parallel = options.threads != 1;
  pm.addPass(createFlashTileAttention(tile));

  // Whatever else the module holds: TOSA and aggregate linalg ops.
  TosaToLinalgOptions tosaOptions;
  tosa::addTosaToLinalgPasses(pm, tosaOptions);
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass());
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  pm.addPass(createFlashDecomposeAggregates());
  pm.addPass(createConvertElementwiseToLinalgPass());
  // No CSE before bufferization: merging equal fills would make blocks share
  // one init tensor and cost a copy each.
  pm.addPass(createCanonicalizerPass());

  if (options.vectorize) {
    if (bf16Dot)
      pm.addNestedPass<func::FuncOp>(createFlashVectorizeBF16Dot());
    FlashVectorizeCPUOptions vec;
    vec.vectorBits = options.vectorBits;
    pm.addNestedPass<func::FuncOp>(createFlashVectorizeCPU(vec));
    pm.addPass(createCanonicalizerPass());
  }

  // Tensors -> buffers.
  addHostBufferization(pm);
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferLoopHoistingPass());
  // The parallel loops on buffers: each iteration writes its own rows.
  pm.addNestedPass<func::FuncOp>(createForallToParallelLoopPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  // The clones deallocation inserts where a buffer's ownership is known only
  // at run time (a tiled backward's accumulators through an scf.if): alloc
  // and copy.
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  if (options.vectorize)
    pm.addNestedPass<func::FuncOp>(createFlashHoistVectorTransfers());
  if (options.threads != 1) {
    ConvertSCFToOpenMPPassOptions omp;
    omp.numThreads = options.threads;
    pm.addPass(createConvertSCFToOpenMPPass(omp));
    pm.addPass(createFlashOpenMPSchedule());
    // The memref.alloca_scope that wraps each parallel body (no allocas in
    // it here, but maybe calls of dealloc helpers) is inlined: the loops
    // inside it become several blocks later.
    pm.addPass(createFlashInlineAllocaScopes());
    pm.addPass(createCanonicalizerPass());
  }

  // Buffers -> loops -> LLVM.
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  addHostFP8Lowering(pm);
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass(
      vector::VectorMultiReductionLowering::InnerParallel));
  // Unrolled, so that n-D transfers do not become loops over stack buffers
  // (an alloca per loop iteration).
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  vectorToLLVM.vectorTransposeLowering = vector::VectorTransposeLowering::Shuffle1D;
  // Row sums as a tree of vector adds, not a chain of scalar ones (any
  // fixed order is deterministic; every thread count runs the same code).
  vectorToLLVM.reassociateFPReductions = true;
  vectorToLLVM.x86Vector = bf16Dot;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  // math.fpowi by a constant (a soft-cap's 1 - tanh^2 written fpowi(t, 2))
  // as products: LLVM's powi takes no vector exponent, which the
  // vectorized loops' fpowi has.
  pm.addPass(math::createMathExpandOpsPass(
      math::MathExpandOpsPassOptions{{"fpowi"}}));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  if (options.threads != 1)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  FlashCPUTargetFeaturesOptions target;
  target.cpu = options.targetCPU;
  pm.addPass(createFlashCPUTargetFeatures(target));
}
