//===- RaiseAttention.h - Internals of --flash-raise-attention --*- C++ -*-===//

#ifndef FLASH_LIB_DIALECT_FLASH_TRANSFORMS_RAISEATTENTION_H
#define FLASH_LIB_DIALECT_FLASH_TRANSFORMS_RAISEATTENTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace mlir {
namespace flash {
namespace raise {

/// Why a candidate was not raised; empty on success.
using Reason = std::string;

/// What a matched attention computes, in flash.attention's terms.
struct AttentionParts {
  Value q, k, v, mask;
  /// A row log-sum-exp of the original program, served by the lse result.
  Value lse;
  double scale = 1.0;
  std::optional<int64_t> causalOffset;
};

/// Creates flash.attention for `parts` in place of `replacedResult` (a result
/// of `replaced`), verifies it, and erases what became dead. Returns the
/// reason when the parts do not form a valid op (nothing is changed then).
Reason buildAttention(RewriterBase &rewriter, Location loc,
                      const AttentionParts &parts, Operation *replaced,
                      Value replacedResult);

/// `t` with its elements extended to `elt` (an elementwise extf generic; an
/// O(N * D) copy), `t` itself when it already has them, null when `elt` is
/// narrower.
Value widenTo(OpBuilder &b, Location loc, Value t, Type elt);

/// `lse` ([B..., Hq, Nq] f32) laid out as `want`: itself, or with a
/// trailing unit dim (keepdim reductions); null when it cannot be.
Value lseAs(RewriterBase &rewriter, Location loc, Value lse,
            RankedTensorType want);

/// Erases `roots` and, transitively, the producers that become trivially
/// dead (the N x N intermediates of a raised attention).
void eraseDeadFrom(RewriterBase &rewriter, ArrayRef<Operation *> roots);

/// The first value a linalg body yields.
inline Value yielded(Block &body) {
  return cast<linalg::YieldOp>(body.getTerminator()).getValues()[0];
}

/// -inf, or the lowest finite float (masked_fill(finfo.min)); scalar or splat.
bool isNegInfLike(Value v);
/// A scalar or splat float constant.
std::optional<double> floatConstant(Value v);


//===----------------------------------------------------------------------===//
// linalg matchers (LinalgMatchers.cpp)
//===----------------------------------------------------------------------===//

/// C[b..., m, n] = sum_k A[b..., m, k] * B[b..., n, k]   (rhsTransposed)
///              or sum_k A[b..., m, k] * B[b..., k, n]
struct BatchedMatmul {
  linalg::LinalgOp op;
  Value lhs, rhs, init;
  bool rhsTransposed = false;
  /// A read as [batch..., reduction, rows] (a product with A^T).
  bool lhsTransposed = false;
};

bool isZeroFill(Value v);
bool isFloatTensor(Value v);
/// A (batched) matrix product into a zero-filled tensor; `what` names it in
/// the reason.
FailureOr<BatchedMatmul> matchMatmul(Value result, StringRef what,
                                     Reason &why);
/// The input of an elementwise extf/truncf generic (or null), and `v` with
/// all such casts skipped.
Value throughCast(Value v);
Value skipCasts(Value v);
/// `root` and every value made from it by a chain of such casts.
SmallVector<Value> castFamily(Value root);
/// True when `v`'s only use is `sink`, possibly through single-use casts.
bool onlyFeeds(Value v, Operation *sink);
/// Whether `m` indexes a tensor reduced along loop `dim` (dropped or
/// keepdim) of an `n`-loop op.
bool isRowMap(AffineMap m, unsigned n, unsigned dim);
/// A reduction generic over the last loop dim: input map identity, output a
/// row map. Returns the reduced dim and the combining op of the first result.
struct Reduction {
  linalg::GenericOp op;
  Value input;
  unsigned dim;
  Operation *combiner;
};
std::optional<Reduction> matchReduction(Value v);
/// Whether `init` is a linalg.fill of a value satisfying `pred`.
bool initIs(Value init, function_ref<bool(Value)> pred);
struct SoftmaxMatch {
  Value input;
  int64_t dim = -1;
  Operation *root = nullptr; // where remarks go
  /// The row max and row sum of a decomposed softmax (max is null when it
  /// is not stabilized) and every op of it but the root.
  Value maxV, sumV;
  SmallVector<Operation *> ops;
};
/// The row log-sum-exp of the softmax input computed from the softmax's own
/// max and sum (`max + log(sum)`, or `log(sum)` when not stabilized): the op
/// computing it, or null.
Operation *matchLogSumExp(const SoftmaxMatch &sm, Operation *user);
std::optional<SoftmaxMatch> matchSoftmax(Value p, Reason &why);
/// One tensor mask read by a score generic: the tensor and how the generic
/// indexes it.
struct MaskUse {
  Value tensor;
  AffineMap map;
};

struct ScoreChain {
  Value scores;
  double scale = 1.0;
  std::optional<MaskUse> addMask, keepMask;
  std::optional<int64_t> causalOffset;
};
/// From the softmax input up to Q*K^T through elementwise generics.
Reason analyzeScoreChain(Value x, ScoreChain &chain);
/// The flash.attention mask operand for a mask read with `use.map` by an op
/// whose loops are [B..., Nq, Nk].
FailureOr<Value> maskOperand(RewriterBase &rewriter, Location loc,
                             const MaskUse &use, unsigned numLoops,
                             Reason &why);
/// GQA written as a repeat of K/V heads: the unrepeated tensor and the group.
std::pair<Value, int64_t> unrepeatHeads(Value t);
/// K from the right-hand side of Q*K^T (`created` when a transpose is made).
Value keyFromRhs(RewriterBase &rewriter, Location loc, const BatchedMatmul &qk,
                 bool &created);

/// P (a softmax result) has uses besides the forward's `pvOp`: if they are
/// the autodiff backward of the attention `fwd` (K as [.., Nk, D] is
/// `kRows`, as [.., D, Nk] `kCols` when the forward read it so), raises the
/// forward to flash.attention with lse and the backward to
/// flash.attention_grad. Returns the reason when not.
Reason raiseJointAt(RewriterBase &rewriter, Location loc, Value p,
                    Operation *pvOp, const AttentionParts &fwd, Value kRows,
                    Value kCols);

/// TOSA: whether `op` is a tosa.matmul that could be P*V, and the matcher.
bool isTosaCandidate(Operation *op);
std::optional<std::pair<Reason, Location>> raiseTosaAt(RewriterBase &rewriter,
                                                       Operation *op);

} // namespace raise
} // namespace flash
} // namespace mlir

#endif // FLASH_LIB_DIALECT_FLASH_TRANSFORMS_RAISEATTENTION_H
