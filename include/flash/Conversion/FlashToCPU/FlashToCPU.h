//===- FlashToCPU.h - The --flash-to-cpu pipeline ---------------*- C++ -*-===//

#ifndef FLASH_CONVERSION_FLASHTOCPU_FLASHTOCPU_H
#define FLASH_CONVERSION_FLASHTOCPU_FLASHTOCPU_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace flash {

struct FlashToCPUOptions : public PassPipelineOptions<FlashToCPUOptions> {
  // 128 x 64: 4-20 % faster forwards than 64 x 64 on this machine's
  // AVX-512 core at N = 1k..16k, d = 64 and 128 (bench/RESULTS.md).
  PassOptions::Option<int64_t> blockQ{*this, "block-q",
                                      llvm::cl::desc("Query rows per block"),
                                      llvm::cl::init(128)};
  PassOptions::Option<int64_t> blockKV{*this, "block-kv",
                                       llvm::cl::desc("Keys per block"),
                                       llvm::cl::init(64)};
  PassOptions::Option<std::string> loopOrder{
      *this, "loop-order", llvm::cl::desc("fa2 (default) or fa1"),
      llvm::cl::init("fa2")};
  PassOptions::Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Vectorize the block computations (default on)"),
      llvm::cl::init(true)};
};

/// Whole-module lowering to the LLVM dialect: flash ops are tiled into the
/// online-softmax loop nest, TOSA/linalg/tensor are lowered, bufferized and
/// converted so that mlir-runner (with the C runner utils) executes the
/// module, or mlir-translate + clang compile it ahead of time.
void buildFlashToCPUPipeline(OpPassManager &pm,
                             const FlashToCPUOptions &options);

void registerFlashToCPUPipeline();

} // namespace flash
} // namespace mlir

#endif // FLASH_CONVERSION_FLASHTOCPU_FLASHTOCPU_H
