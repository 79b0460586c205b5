//===- AttentionProof.h - What a model proves about attention --*- C++ -*-===//
//
// Proofs over the expression model (AttentionModel.h): that a value computes
// softmax(scale * Q K^T + mask) V, that another computes its row
// log-sum-exp, and that the values of a joint graph compute its backward
// products. A proof either returns the facts flash.attention needs, or the
// first fact it could not establish.
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_LIB_DIALECT_FLASH_TRANSFORMS_ATTENTIONPROOF_H
#define FLASH_LIB_DIALECT_FLASH_TRANSFORMS_ATTENTIONPROOF_H

#include "AttentionModel.h"

#include <optional>
#include <string>

namespace mlir {
namespace flash {
namespace model {

/// The role of one dim of a leaf tensor in the attention's index space.
struct DimRole {
  enum Kind { Batch, Query, Key, Head, Value, Unit } kind;
  /// Batch: the index of the batch dim (in the canonical order).
  unsigned batch = 0;
};

/// A leaf tensor and the canonical role of each of its dims.
struct LeafLayout {
  Value tensor;
  SmallVector<DimRole> dims;
};

/// What a proven forward computes, in flash.attention's terms. Canonical
/// order: batch dims 0..nb-1 (the GQA head dim last), then query, then the
/// value's head dim.
struct ForwardFacts {
  /// Root dims in canonical order (batch..., i, e).
  SmallVector<unsigned> canonical;
  unsigned numBatch = 0;
  /// q [batch..., i, d], k [kvbatch..., j, d], v [kvbatch..., j, e].
  LeafLayout q, k, v;
  /// The GQA group (query heads per kv head) when K/V read h floordiv g.
  int64_t group = 1;
  /// K/V do not read the last batch dim (MQA: one kv head).
  bool kvBroadcastHead = false;
  double scale = 1;
  std::optional<int64_t> causalOffset;
  /// Causal with the op's default offset (Nk - Nq, from dynamic sizes).
  bool causalDefaultOffset = false;
  /// That offset, Nk - Nq, over the model's size symbols.
  AffineExpr defaultOffset;
  /// The mask: an additive (float) or keep (i1) expression over the root's
  /// batch dims, i and j; `mask` is its layout when it is one tensor read.
  const Expr *maskExpr = nullptr;
  bool maskIsKeep = false;
  std::optional<LeafLayout> mask;
  /// The root dims of the mask's batch dims and i (canonical order).
  SmallVector<unsigned> maskDims;
  /// The pieces a log-sum-exp proof compares with.
  const Expr *denominator = nullptr;
  const Expr *rowShift = nullptr;
  /// The bound names of j (in the P*V reduction) and d.
  unsigned jName = 0, dName = 0;
  /// The modifiers: `scoreMod` is an f32 expression of `score` (the
  /// placeholder for scale * q.k), the root's batch dims, i, j and small
  /// tensors (slopes, tables, segment ids); `maskMod` an i1 expression of
  /// the same positions and tensors. Null when absent.
  const Expr *score = nullptr, *scoreMod = nullptr, *maskMod = nullptr;
  /// Rows without keys under a finite fill (finfo.min) average V over
  /// every key in the program: the raise does so after the op, on the
  /// rows whose lse is -inf.
  bool emptyRowsAverage = false;
  /// The same for a mask read from tensors (padding, documents), which may
  /// hide whole rows: averaged where the forward is raised alone; a
  /// backward or an lse use takes its fill as -inf (a row it hides gives
  /// 0).
  bool emptyRowsFromTensors = false;
  /// The program's output is this constant times the attention (V or P
  /// scaled, an eval-mode dropout's factor): the raise multiplies the op's
  /// output by it.
  double outputScale = 1;
  /// What `score` stands for: scale * q.k as an expression of the leaves.
  const Expr *scoreValue = nullptr;
  /// The probabilities as one expression at (root dims, j), and their
  /// numerator.
  const Expr *probability = nullptr;
  const Expr *numerator = nullptr;
};

using Reason = std::string;

/// Proves that `root` (the model of a value at its own dims) is attention.
/// Returns nullopt when `root` is not a candidate at all (no exp-weighted
/// sum), a reason when it is one but the proof fails, or "" with `facts`.
std::optional<Reason> proveForward(ExprContext &ec, const Expr *root,
                                   ArrayRef<int64_t> shape,
                                   ArrayRef<std::pair<Value, int64_t>> symbols,
                                   function_ref<const Expr *(const Expr *)> asLeaf,
                                   ForwardFacts &facts);

/// The row log-sum-exp of the proven forward, at root dims.
const Expr *logSumExp(ExprContext &ec, const ForwardFacts &facts);

/// A row log-sum-exp `e` without a guard for rows that see no key,
/// where(l == 0, -inf, m + log l) with l a row sum of exponentials:
/// flash.attention's lse is -inf there itself.
const Expr *withoutEmptyRowLseGuard(const Expr *e);

/// For an expression over some other index space that reads `leaf` (one of
/// the forward's leaves) at `index`: the map from root dims to the
/// expressions of that space, by aligning it with the forward's read.
/// Empty when the reads do not align.
std::optional<DenseMap<unsigned, AffineExpr>>
alignRoots(const Expr *forwardRead, ArrayRef<AffineExpr> index);

/// `e` with root dims replaced simultaneously by `map`.
const Expr *substituteAll(ExprContext &ec, const Expr *e,
                          const DenseMap<unsigned, AffineExpr> &map);

/// Finds a Read of `tensor` in `e` (depth first) satisfying `pred`, or null.
const Expr *findRead(const Expr *e, Value tensor,
                     function_ref<bool(const Expr *)> pred = nullptr);

/// The name of the first op the model could not interpret inside `e`.
std::string firstOpaque(const Expr *e);

} // namespace model
} // namespace flash
} // namespace mlir

#endif // FLASH_LIB_DIALECT_FLASH_TRANSFORMS_ATTENTIONPROOF_H
