//===- FlashToCPU.h - The --flash-to-cpu pipeline ---------------*- C++ -*-===//
//
// Whole-module lowering to the LLVM dialect, for mlir-runner, the
// ExecutionEngine or ahead-of-time compilation.
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_PIPELINES_FLASHTOCPU_H
#define FLASH_PIPELINES_FLASHTOCPU_H

#include "flash/Dialect/Flash/Transforms/Transforms.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace flash {

/// How --flash-to-cpu computes the block products of bf16 attention.
enum class BF16Dot {
  /// AVX512-BF16 dot products where the host has them, else f32.
  Host,
  /// AVX512-BF16 dot products (flash-vectorize-bf16-dot), whatever the host.
  On,
  /// f32 FMAs on widened copies (flash-widen-bf16).
  Off,
};

/// The options of --flash-to-cpu. The knobs it forwards to a pass take that
/// pass's default (written once, where the pass's options are); the others
/// are defined here.
struct FlashToCPUPipelineOptions
    : public PassPipelineOptions<FlashToCPUPipelineOptions> {
  PassOptions::Option<int64_t> blockQ{
      *this, "block-q",
      llvm::cl::desc("Query rows per block (flash-tile-attention)"),
      llvm::cl::init(TileAttentionOptions().blockQ)};
  PassOptions::Option<int64_t> blockKV{
      *this, "block-kv",
      llvm::cl::desc("Keys per block (flash-tile-attention)"),
      llvm::cl::init(TileAttentionOptions().blockKV)};
  PassOptions::Option<LoopOrder> loopOrder{
      *this, "loop-order",
      llvm::cl::desc("The loop order of the attention nests "
                     "(flash-tile-attention)"),
      llvm::cl::init(TileAttentionOptions().loopOrder),
      llvm::cl::values(
          clEnumValN(LoopOrder::FA2, "fa2",
                     "Query blocks outer (independent), KV blocks inner"),
          clEnumValN(LoopOrder::FA1, "fa1",
                     "KV blocks outer, every query block's state carried "
                     "across"))};
  PassOptions::Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Threads of the attention loop nests: 0, the default, "
                     "all cores (OpenMP; the runtime's default, "
                     "OMP_NUM_THREADS; link libomp); n: n threads; 1: "
                     "sequential code that needs no OpenMP runtime. Results "
                     "are bitwise the same for any count"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Vectorize the block computations (flash-vectorize-cpu)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Vector register bits the register tiles are sized for "
                     "(flash-vectorize-cpu); 0: the host's"),
      llvm::cl::init(0)};
  PassOptions::Option<BF16Dot> bf16Dot{
      *this, "bf16-dot",
      llvm::cl::desc("bf16 forward attention's block products: AVX512-BF16 "
                     "dot products on bf16 (P rounded to bf16 as on GPUs), or "
                     "f32 FMAs on widened copies"),
      llvm::cl::init(BF16Dot::Host),
      llvm::cl::values(
          clEnumValN(BF16Dot::Host, "host",
                     "dot products where the host has avx512bf16"),
          clEnumValN(BF16Dot::On, "on",
                     "dot products (the code needs avx512bf16)"),
          clEnumValN(BF16Dot::Off, "off", "f32 on widened copies"))};
  PassOptions::Option<std::string> targetCPU{
      *this, "target-cpu",
      llvm::cl::desc("LLVM CPU of the generated functions "
                     "(flash-cpu-target-features): host, the default, the "
                     "host's name and features; a name; or empty"),
      llvm::cl::init("host")};
};

/// Adds --flash-to-cpu to `pm` (on a builtin.module): flash ops are tiled
/// into the online-softmax loop nest, TOSA/linalg/tensor are lowered,
/// bufferized and converted so that mlir-runner (with the C runner utils)
/// executes the module, or mlir-translate + clang compile it.
void buildFlashToCPUPipeline(OpPassManager &pm,
                             const FlashToCPUPipelineOptions &options);

} // namespace flash
} // namespace mlir

#endif // FLASH_PIPELINES_FLASHTOCPU_H
