//===- Transforms.h - flash dialect rewrites as functions -------*- C++ -*-===//
//
// The core rewrites behind the flash passes, as functions on one op, so that
// other compilers can call them without the passes.
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_DIALECT_FLASH_TRANSFORMS_TRANSFORMS_H
#define FLASH_DIALECT_FLASH_TRANSFORMS_TRANSFORMS_H

#include "flash/Dialect/Flash/IR/FlashOps.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace mlir {
namespace linalg {
class LinalgOp;
} // namespace linalg
namespace flash {

enum class LoopOrder {
  /// Query blocks outer and independent, KV blocks inner.
  FA2,
  /// KV blocks outer, every query block's (m, l, acc) carried across.
  FA1,
};

/// The tiling of flash-tile-attention. These defaults are the only ones:
/// the pass options and --flash-to-cpu take theirs from here.
struct TileAttentionOptions {
  /// Query rows per block. 128 x 64: 4-20 % faster forwards than 64 x 64 on
  /// an AVX-512 core at N = 1k..16k, d = 64 and 128 (bench/RESULTS.md).
  int64_t blockQ = 128;
  /// Keys per block.
  int64_t blockKV = 64;
  LoopOrder loopOrder = LoopOrder::FA2;
  /// Independent iterations as scf.forall (which --flash-to-cpu runs on
  /// OpenMP threads) instead of scf.for: fa2's (batch..., head, query block)
  /// iterations and fa1's (batch..., head) ones; the backward's (batch...,
  /// kv head, key chunk) iterations (fa2; dq summed over the chunks' slabs
  /// in order) or (batch..., kv head) ones (fa1). Each result element is
  /// computed by one iteration in the sequential nest's order: the results
  /// are bitwise the same either way.
  bool parallel = false;
};

/// Lowers `op` into the online-softmax loop nest on tensors and replaces it.
/// Returns the values that replaced the op's results.
FailureOr<SmallVector<Value>> tileAttention(RewriterBase &rewriter,
                                            AttentionOp op,
                                            const TileAttentionOptions &options);

/// Lowers `op` into the recomputation loop nest of the backward pass (same
/// options: blocks and loop order) and replaces it.
FailureOr<SmallVector<Value>>
tileAttentionGrad(RewriterBase &rewriter, AttentionGradOp op,
                  const TileAttentionOptions &options);

void populateTileAttentionPatterns(RewritePatternSet &patterns,
                                   const TileAttentionOptions &options);

/// `t` with its elements converted to `elt` by an elementwise linalg.generic
/// (extf when wider, truncf when narrower); `t` itself when they already
/// are `elt`.
Value convertElements(OpBuilder &b, Location loc, Value t, Type elt);

/// Rewrites flash ops on bf16 (and, with `includeF16`, f16) tensors into f32
/// ones between conversions; bf16 flash.attention only with `widenForward`,
/// bf16 flash.attention_grad only with `widenBackward`.
void populateWidenBF16Patterns(RewritePatternSet &patterns,
                               bool includeF16 = false,
                               bool widenForward = true,
                               bool widenBackward = true);

/// Rewrites a bf16 contraction `C[m, n] += A[m, k] * B[k, n]` (C f32; B bf16,
/// or `linalg.transpose` of a bf16 [n, k]; A bf16, or f32 rounded to bf16)
/// with static shapes into AVX512-BF16 dot products on register tiles
/// (x86vector.avx512.dot) and replaces it; fails, changing nothing, on any
/// other op or shape (flash-vectorize-bf16-dot).
FailureOr<Value> vectorizeBF16Dot(RewriterBase &rewriter, linalg::LinalgOp op);

/// What --flash-raise-attention proved about a candidate.
struct AttentionMatch {
  /// The value flash.attention replaces (the P*V product or a view of it).
  Value root;
  /// The original leaves (before any transpose to flash.attention's
  /// layout) and the mask tensor, if any.
  Value query, key, value, mask;
  double scale = 1.0;
  std::optional<int64_t> causalOffset;
  /// Query heads per kv head (1 without GQA).
  int64_t groupSize = 1;
  /// The probabilities also feed the autodiff backward (raised to
  /// flash.attention_grad).
  bool withBackward = false;
};

/// Proves that `op` (a contraction: a linalg op with a sum reduction, or
/// tosa.matmul) is the P*V product of an attention. On failure, `reason`
/// (when given) names the first fact not proven; it stays empty when `op`
/// is not a candidate at all. Changes nothing.
FailureOr<AttentionMatch> matchAttention(Operation *op,
                                         std::string *reason = nullptr);

/// Raises the attention whose P*V product is `op` (and, for a joint graph,
/// its backward) to flash.attention (+ flash.attention_grad); the N x N
/// intermediates are erased. Changes nothing on failure.
FailureOr<Operation *> raiseAttention(RewriterBase &rewriter, Operation *op,
                                      std::string *reason = nullptr);

/// A pattern applying raiseAttention to every candidate.
void populateRaiseAttentionPatterns(RewritePatternSet &patterns);

/// Decomposes every op implementing AggregatedOpInterface (linalg.softmax).
void populateDecomposeAggregatesPatterns(RewritePatternSet &patterns);
/// arith.extf / arith.truncf on f8E4M3FN (scalars and vectors) -> integer
/// and f32 arithmetic (--flash-expand-fp8).
void populateExpandFP8Patterns(RewritePatternSet &patterns);

} // namespace flash
} // namespace mlir

#endif // FLASH_DIALECT_FLASH_TRANSFORMS_TRANSFORMS_H
