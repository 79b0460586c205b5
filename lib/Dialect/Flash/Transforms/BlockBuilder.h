//===- BlockBuilder.h - Shared pieces of the attention loop nests -*- C++ -*-===//
//
// What the forward (TileAttention.cpp) and the backward
// (TileAttentionGrad.cpp) loop nests have in common: index arithmetic that
// folds, loops over full blocks plus one exact remainder block, the causal
// block ranges, tensor slicing, and the block computations (masked scaled
// scores, block products accumulated in f32). Internal to the transforms.
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_LIB_DIALECT_FLASH_TRANSFORMS_BLOCKBUILDER_H
#define FLASH_LIB_DIALECT_FLASH_TRANSFORMS_BLOCKBUILDER_H

#include "flash/Dialect/Flash/IR/Modifiers.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace flash {
namespace detail {

/// Index arithmetic that folds when its operands are constants.
struct IndexMath {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v);
  Value add(Value x, Value y);
  Value sub(Value x, Value y);
  Value mul(Value x, Value y);
  Value min(Value x, Value y);
  Value max(Value x, Value y);
  Value clamp(Value x, Value lo, Value hi) { return min(max(x, lo), hi); }
  /// floor(x / m) * m and ceil(x / m) * m, for signed x.
  Value floorTo(Value x, int64_t m);
  Value ceilTo(Value x, int64_t m);
};

//===----------------------------------------------------------------------===//
// Loops over blocks
//===----------------------------------------------------------------------===//

/// Builds one block [start, start + size) and returns the new iter values.
using BlockBody = function_ref<SmallVector<Value>(
    OpBuilder &, Location, Value start, OpFoldResult size, ValueRange)>;

/// scf.for over full blocks of `step` in [lb, ub) (ub - lb a multiple of
/// step); the body sees a static size.
SmallVector<Value> fullBlocks(OpBuilder &b, Location loc, Value lb, Value ub,
                              int64_t step, ValueRange iterArgs,
                              BlockBody body);
/// One block [start, end) of size < step if it is not empty (scf.if when
/// the size is not a constant).
SmallVector<Value> lastBlock(OpBuilder &b, Location loc, Value start,
                             Value end, ValueRange iterArgs, BlockBody body);

/// One result of an iteration of parallelBlocks(): `src` goes into shared
/// output number `dest` at `offsets` (sizes: `src`'s, after unit sizes for
/// the leading offsets that `src` does not have).
struct ParallelWrite {
  Value src;
  unsigned dest;
  SmallVector<OpFoldResult> offsets;
};
/// Builds one iteration at `ivs`, reading the shared outputs `shared` (the
/// loop's region arguments) and returning what it writes into them.
using ParallelBody = function_ref<SmallVector<ParallelWrite>(
    OpBuilder &, Location, ValueRange ivs, ValueRange shared)>;
/// scf.forall over [0, ubs) (step 1) with shared outputs `outs`; each
/// iteration's writes become tensor.parallel_insert_slice ops, which must
/// not overlap between iterations. Returns the loop's results.
SmallVector<Value> parallelBlocks(OpBuilder &b, Location loc,
                                  ArrayRef<OpFoldResult> ubs, ValueRange outs,
                                  ParallelBody body);
/// The same iterations as parallelBlocks() either as that scf.forall
/// (`parallel`) or as an scf.for nest in row-major order whose writes are
/// tensor.insert_slice ops on the carried outputs.
SmallVector<Value> forEachIteration(OpBuilder &b, Location loc, bool parallel,
                                    ArrayRef<OpFoldResult> ubs,
                                    ValueRange outs, ParallelBody body);
/// A ParallelWrite of `src` (the trailing dims of shared output `dest`)
/// at leading positions `lead` and trailing offsets `trailing` (zeros when
/// empty).
ParallelWrite writeAt(OpBuilder &b, Value src, unsigned dest, ValueRange lead,
                      ArrayRef<OpFoldResult> trailing = {});

/// Builds the blocks that one iteration of blockedParallel() computes: for
/// the slice at `ivs` and rows [start, start + size), one 2-D (or 1-D)
/// block per shared output, written at [start, 0] of that slice.
using BlockedBody = function_ref<SmallVector<Value>(
    OpBuilder &, Location, ValueRange ivs, Value start, OpFoldResult size)>;
/// The blocks of `step` rows of [0, n) of every slice (the leading dims
/// [0, outerUbs)) of the shared outputs `outs`, in parallel: an scf.forall
/// over (slice, full block), then one over the slices for the remainder
/// block (exact size, possibly dynamic). Returns the outputs.
SmallVector<Value> blockedParallel(OpBuilder &b, Location loc,
                                   ArrayRef<OpFoldResult> outerUbs, Value n,
                                   int64_t step, ValueRange outs,
                                   BlockedBody body);

/// The causal structure of a scan: `[start, visEnd)` needs no causal
/// predicate, `[visEnd, fullEnd)` are full blocks that cross the diagonal,
/// `[fullEnd, end)` is the last partial block. Keys before `start` and from
/// `end` on are not visible (causal limit, a mask_mod's affine bounds).
struct BlockRanges {
  Value start, visEnd, fullEnd, end;
};
/// Key blocks (of `bk`) seen by query rows [i0, i0 + rows); `bounds` (may
/// be null) are a mask_mod's affine conjuncts.
BlockRanges keyRanges(IndexMath &im, Value i0, Value rows, Value nk,
                      Value causalOffset, int64_t bk,
                      const MaskBounds *bounds = nullptr);
/// Query blocks (of `bq`) that see key block [j0, j0 + cols), as
/// [start, visStart) crossing the diagonal, [visStart, fullEnd) fully
/// visible, and the last partial block [fullEnd, end).
struct QueryRanges {
  Value start, visStart, fullEnd, end;
};
QueryRanges queryRanges(IndexMath &im, Value j0, Value cols, Value nq,
                        Value causalOffset, int64_t bq,
                        const MaskBounds *bounds = nullptr);

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

Value slice(OpBuilder &b, Location loc, Value src,
            ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes);
Value insert(OpBuilder &b, Location loc, Value src, Value dest,
             ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes);
Value empty(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
            Type elt);
Value filled(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
             float value);
/// The rank-reduced trailing 2-D (or 1-D) slice of `src` at leading `ivs`.
Value slice2D(OpBuilder &b, Location loc, Value src, ValueRange ivs);
Value slice1D(OpBuilder &b, Location loc, Value src, ValueRange ivs);
/// Inserts `src` (the trailing dims) into `dest` at leading `ivs`.
Value insertLeading(OpBuilder &b, Location loc, Value src, Value dest,
                    ValueRange ivs);
/// Converts `t` ([.., f32]) to element type `elt` (truncf) if needed.
Value castTensor(OpBuilder &b, Location loc, Value t, Type elt);

Value toF32(OpBuilder &b, Location loc, Value x);
Value negInf(OpBuilder &b, Location loc);
/// 0 while `m` is -inf (so that exp(x - m) never sees -inf - -inf), else m.
Value safeMax(OpBuilder &b, Location loc, Value m);

//===----------------------------------------------------------------------===//
// Block computations
//===----------------------------------------------------------------------===//

/// C[m, n] += sum_k A[m, k] * B[k, n] (A read as [k, m] when `transposeA`),
/// accumulated in f32 with FMA-contractable products.
Value matmulAcc(OpBuilder &b, Location loc, Value a, Value bMat, Value c,
                bool transposeA = false);
/// [cols, rows] = transpose of a 2-D tensor.
Value transpose2D(OpBuilder &b, Location loc, Value t);

/// What turns q k^T into scores: scale, the 2-D mask of the current head
/// (rows/cols of size 1 broadcast) and the causal offset (null: none).
struct ScoreSpec {
  float scale = 1.0f;
  /// A run-time factor of the scores after `scale` (an fp8 op's qd * kd,
  /// f32), or null.
  Value scaleFactor;
  Value mask;
  bool maskRowsBcast = false, maskColsBcast = false;
  Value causalOffset;
  /// The op's modifier regions (null when absent), the positions of the
  /// current (batch..., query head) and the captured operands; `bounds`
  /// are the mask_mod's affine conjuncts at this head.
  Region *scoreMod = nullptr, *maskMod = nullptr;
  SmallVector<Value> lead;
  SmallVector<Value> captures;
  MaskBounds bounds;
  /// Whether a block may be skipped only after evaluating the mask_mod on
  /// it (some conjunct is not affine).
  bool needsBlockCheck() const { return maskMod && !bounds.exact; }
  const MaskBounds *boundsOrNull() const { return maskMod ? &bounds : nullptr; }
};
/// Fills the modifier fields of `spec` for the head at `lead` of `op`.
void setModifiers(OpBuilder &b, Location loc, Operation *op, ValueRange lead,
                  ScoreSpec &spec);
/// The 2-D [Mq, Mk] slice of `mask` (right-aligned to [B..., Hq, Nq, Nk] of
/// an op of rank `rank`) for the query head at leading indices `ivs`; unit
/// dims broadcast (read at 0). Fills `spec.mask` and its broadcast flags.
void sliceHeadMask(OpBuilder &b, Location loc, Value mask, int64_t rank,
                   ValueRange ivs, ScoreSpec &spec);

/// scale * q[i0:rows] k[j0:cols]^T (+ mask) in f32 [rows, cols]; with
/// `applyCausal`, -inf where key j0 + jj > query i0 + ii + offset.
/// The score_mod and mask_mod, when present, are applied too.
Value scoreBlock(OpBuilder &b, Location loc, const ScoreSpec &spec, Value q,
                 Value k, Value i0, OpFoldResult rows, Value j0,
                 OpFoldResult cols, bool applyCausal);
/// scoreBlock() and, as a second block, the derivative of the score_mod
/// at each element (d s / d(scale q.k); 1 without a score_mod: null).
std::pair<Value, Value> scoreBlockWithDerivative(
    OpBuilder &b, Location loc, const ScoreSpec &spec, Value q, Value k,
    Value i0, OpFoldResult rows, Value j0, OpFoldResult cols,
    bool applyCausal);
/// Whether the mask_mod keeps any key of the block (an i1).
Value anyVisible(OpBuilder &b, Location loc, const ScoreSpec &spec, Value i0,
                 OpFoldResult rows, Value j0, OpFoldResult cols);
/// `body` when the block has a visible key under the mask_mod (scf.if),
/// `iterArgs` otherwise; just `body` when no check is needed.
SmallVector<Value> ifVisible(OpBuilder &b, Location loc,
                             const ScoreSpec &spec, Value i0,
                             OpFoldResult rows, Value j0, OpFoldResult cols,
                             ValueRange iterArgs,
                             function_ref<SmallVector<Value>(OpBuilder &,
                                                             Location)>
                                 body);

} // namespace detail
} // namespace flash
} // namespace mlir

#endif // FLASH_LIB_DIALECT_FLASH_TRANSFORMS_BLOCKBUILDER_H
