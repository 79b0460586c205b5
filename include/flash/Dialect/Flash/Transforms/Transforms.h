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

namespace mlir {
namespace flash {

enum class LoopOrder {
  /// Query blocks outer and independent, KV blocks inner.
  FA2,
  /// KV blocks outer, every query block's (m, l, acc) carried across.
  FA1,
};

struct TileAttentionOptions {
  int64_t blockQ = 64;
  int64_t blockKV = 64;
  LoopOrder loopOrder = LoopOrder::FA2;
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
/// ones between conversions.
void populateWidenBF16Patterns(RewritePatternSet &patterns,
                               bool includeF16 = false);

/// Decomposes every op implementing AggregatedOpInterface (linalg.softmax).
void populateDecomposeAggregatesPatterns(RewritePatternSet &patterns);

} // namespace flash
} // namespace mlir

#endif // FLASH_DIALECT_FLASH_TRANSFORMS_TRANSFORMS_H
