//===- RaiseAttention.h - Internals of --flash-raise-attention --*- C++ -*-===//

#ifndef FLASH_LIB_DIALECT_FLASH_TRANSFORMS_RAISEATTENTION_H
#define FLASH_LIB_DIALECT_FLASH_TRANSFORMS_RAISEATTENTION_H

#include "AttentionProof.h"
#include "flash/Dialect/Flash/IR/FlashOps.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace mlir {
namespace flash {
namespace raise {

using model::DimRole;
using model::Expr;
using model::ExprContext;
using model::ForwardFacts;
using model::LeafLayout;
using model::ModelBuilder;
using model::Reason;

/// One dim of a tensor to materialize: the role it holds, and its size when
/// the leaf lacks it (a broadcast; null for a unit dim).
struct Target {
  DimRole role;
  OpFoldResult size;
};

/// Whether two roles are the same dim (the same batch index for batches).
bool sameRole(DimRole a, DimRole b);

/// `leaf` laid out as `targets`: the tensor itself, a linalg.transpose, or
/// an elementwise copy (unit dims, broadcasts). Ops made go to `made`.
Value materialize(RewriterBase &rw, Location loc, const LeafLayout &leaf,
                  ArrayRef<Target> targets, SmallVectorImpl<Operation *> &made);

/// `e` (an expression over the model dims `dims`) as a tensor whose dim t
/// runs over dims[t] with size sizes[t]: one elementwise linalg.generic.
/// Null when `e` reads something the payload cannot (other dims, symbols).
Value materializeExpr(RewriterBase &rw, Location loc, const Expr *e,
                      ArrayRef<unsigned> dims, ArrayRef<OpFoldResult> sizes,
                      Type elt, SmallVectorImpl<Operation *> &made);

/// Builds the body of a modifier region from `e` (an f32 expression of the
/// placeholder `score` for a score_mod, an i1 for a mask_mod with `score`
/// null): one index argument per model dim of `dims` (batch..., i, j), then
/// one per captured operand; reads of the values `read[k]` become
/// tensor.extract of operand `captures[k]` (itself, or a 0-d tensor holding
/// a scalar), and the model's symbol s (a tensor size) the scalar
/// `sizes[s]`, one of `read` (so the region's operands keep static shapes
/// where the program's tensors have dynamic ones).
LogicalResult buildModifier(RewriterBase &rw, Location loc, Region &region,
                            const Expr *e, const Expr *score,
                            ArrayRef<unsigned> dims, ArrayRef<Value> read,
                            ArrayRef<Value> captures, ArrayRef<Value> sizes);

/// Erases `roots` and, transitively, the producers that become trivially
/// dead (the N x N intermediates of a raised attention).
void eraseDeadFrom(RewriterBase &rewriter, ArrayRef<Operation *> roots);

/// One output of a joint graph's backward, proven.
struct GradOutput {
  /// DKV: dK + dV where K and V are one tensor (tied keys and values).
  enum Which { DQ, DK, DV, DKV } which;
  /// The value replaced, and the role of each of its dims.
  Value value;
  LeafLayout layout;
};

/// What a proven backward computes.
struct BackwardFacts {
  /// dO and its layout (batch..., i, e).
  LeafLayout dO;
  SmallVector<GradOutput> outputs;
  /// Every op the walk from P reached.
  SmallVector<Operation *> reached;
  /// dQ or dK was proven where the program does not re-mask dS while a
  /// mask read from tensors may leave rows without keys under a finite
  /// fill (an added padding mask): exact only where no row is, so the fill
  /// is taken as -inf (no average of V, no dV of those rows).
  bool dSNotRemasked = false;
};

/// Proves that the uses `uses` of the forward's values (P, by autodiff) are
/// the backward of the attention `f` and that its outputs are dQ, dK, dV.
Reason proveBackward(ExprContext &ec, ModelBuilder &mb, const ForwardFacts &f,
                     const Expr *rootExpr, Value root,
                     const DenseSet<Operation *> &forward,
                     ArrayRef<std::pair<Value, Operation *>> uses,
                     std::optional<BackwardFacts> &out);

/// The uses of probabilities the backward recomputes: values outside the
/// forward `forward` made by ops like those that make P in it (the same op
/// name and result types: activation checkpointing's second copy of the
/// forward, or a partitioner that recomputes P instead of saving it) whose
/// model is P, with each of their users.
SmallVector<std::pair<Value, Operation *>>
recomputedProbabilities(ExprContext &ec, ModelBuilder &mb,
                        const ForwardFacts &f, const Expr *rootExpr,
                        const DenseSet<Operation *> &forward);

/// Builds flash.attention_grad after `attn` for the proven backward and
/// replaces its outputs (their defining ops go to `roots`).
Reason emitBackward(RewriterBase &rw, const ForwardFacts &f,
                    const BackwardFacts &b, AttentionOp attn, Value q, Value k,
                    Value v, Value mask, SmallVectorImpl<Operation *> &made,
                    SmallVectorImpl<Operation *> &roots);

} // namespace raise
} // namespace flash
} // namespace mlir

#endif // FLASH_LIB_DIALECT_FLASH_TRANSFORMS_RAISEATTENTION_H
