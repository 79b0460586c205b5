//===- TileAttentionGrad.cpp - flash.attention_grad -> recomputation nest -===//
//
// Lowers flash.attention_grad into the FlashAttention backward on tensors,
// recomputing the probabilities of each block from the saved log-sum-exp
// instead of reading a stored N x N matrix:
//
//   D = rowsum(dO * O)                                  once, [B..., Hq, Nq]
//   for each (batch..., kv head):                       scf.for nest
//     for each block pair (i, j) that is not above the diagonal:
//       p   = exp(scale * q_i k_j^T (+ mask) - lse_i)   (0 where lse = -inf)
//       dv_j += p^T dO_i ;  dp = dO_i v_j^T ;  ds = scale * p * (dp - D_i)
//       dq_i += ds k_j   ;  dk_j += ds^T q_i
//
// loop-order=fa2 (default): KV blocks outer, dk_j/dv_j finished per block,
// dq accumulated (in f32) over the KV blocks; loop-order=fa1: query blocks
// outer, dq_i finished per block, dk/dv accumulated. With GQA the query
// heads of a group run inside the KV-block loop, so dk/dv sum over them
// without copies. Every accumulation happens in a fixed sequential order:
// the result is bitwise repeatable whether or not `deterministic` is set.
//
// With `parallel`, dk/dv and dq are two scf.foralls (over key blocks and
// over query blocks) that accumulate in the same orders.
//
//===----------------------------------------------------------------------===//

#include "BlockBuilder.h"
#include "flash/Dialect/Flash/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::detail;

namespace {

using utils::IteratorType;
constexpr IteratorType kPar = IteratorType::parallel;
constexpr IteratorType kRed = IteratorType::reduction;

AffineMap map(OpBuilder &b, unsigned numDims, ArrayRef<AffineExpr> exprs) {
  return AffineMap::get(numDims, 0, exprs, b.getContext());
}

/// The 2-D slices of one query head (and its kv head) the block updates read.
struct HeadSlices {
  Value q, k, v, dO, lse, delta; // [Nq,D] [Nk,D] [Nk,Dv] [Nq,Dv] [Nq] [Nq]
  ScoreSpec spec;
};

/// f32 accumulators of one block pair.
struct Grads {
  Value dk, dv, dq; // [cols, D], [cols, Dv], [rows, D]
};

/// Recomputes p for rows [i0, +rows) x keys [j0, +cols) and accumulates the
/// gradients whose accumulators are given (dk and dv together, dq: a null
/// accumulator is not computed).
Grads gradBlock(OpBuilder &b, Location loc, const HeadSlices &h, Value i0,
                OpFoldResult rows, Value j0, OpFoldResult cols,
                bool applyCausal, Grads acc) {
  AffineExpr i, j;
  bindDims(b.getContext(), i, j);
  OpFoldResult zero = b.getIndexAttr(0);
  auto width = [](Value t) {
    return cast<RankedTensorType>(t.getType()).getShape().back();
  };
  auto [s, dsdtBlock] = scoreBlockWithDerivative(
      b, loc, h.spec, h.q, h.k, i0, rows, j0, cols, applyCausal);
  Value dsdt = dsdtBlock;
  Value lseB = slice(b, loc, h.lse, {i0}, {rows});
  Value deltaB = slice(b, loc, h.delta, {i0}, {rows});
  // p = exp(s - lse), 0 for rows that see no key (lse = -inf), in place.
  Value p = linalg::GenericOp::create(
                b, loc, s.getType(), ValueRange{lseB}, ValueRange{s},
                {map(b, 2, {i}), map(b, 2, {i, j})}, {kPar, kPar},
                [&](OpBuilder &nb, Location nl, ValueRange a) {
                  Value none = arith::CmpFOp::create(
                      nb, nl, arith::CmpFPredicate::OEQ, a[0],
                      negInf(nb, nl));
                  Value e = math::ExpOp::create(
                      nb, nl, arith::SubFOp::create(nb, nl, a[1], a[0]));
                  Value z = arith::ConstantOp::create(nb, nl,
                                                      nb.getF32FloatAttr(0.0f));
                  linalg::YieldOp::create(
                      nb, nl,
                      ValueRange{arith::SelectOp::create(nb, nl, none, z, e)});
                })
                .getResult(0);
  Value dOb = slice(b, loc, h.dO, {i0, zero},
                    {rows, b.getIndexAttr(width(h.dO))});
  Value vb = slice(b, loc, h.v, {j0, zero}, {cols, b.getIndexAttr(width(h.v))});
  Value kb = slice(b, loc, h.k, {j0, zero}, {cols, b.getIndexAttr(width(h.k))});
  Value qb = slice(b, loc, h.q, {i0, zero}, {rows, b.getIndexAttr(width(h.q))});

  Grads out;
  if (acc.dv)
    out.dv = matmulAcc(b, loc, p, dOb, acc.dv, /*transposeA=*/true);
  Value dp = matmulAcc(b, loc, dOb, transpose2D(b, loc, vb),
                       filled(b, loc, {rows, cols}, 0.0f));
  float scale = h.spec.scale;
  // ds = scale * p * (dp - D) (* the score_mod's derivative), in place of
  // dp.
  SmallVector<Value> dsIns{p, deltaB};
  SmallVector<AffineMap> dsMaps{map(b, 2, {i, j}), map(b, 2, {i})};
  if (dsdt) {
    dsIns.push_back(dsdt);
    dsMaps.push_back(map(b, 2, {i, j}));
  }
  dsMaps.push_back(map(b, 2, {i, j}));
  Value ds = linalg::GenericOp::create(
                 b, loc, dp.getType(), dsIns, ValueRange{dp}, dsMaps,
                 {kPar, kPar},
                 [&](OpBuilder &nb, Location nl, ValueRange a) {
                   Value sc = arith::ConstantOp::create(
                       nb, nl, nb.getF32FloatAttr(scale));
                   Value diff = arith::SubFOp::create(nb, nl, a.back(), a[1]);
                   Value r = arith::MulFOp::create(nb, nl, a[0], diff);
                   if (dsdt)
                     r = arith::MulFOp::create(nb, nl, r, a[2]);
                   r = arith::MulFOp::create(nb, nl, r, sc);
                   linalg::YieldOp::create(nb, nl, ValueRange{r});
                 })
                 .getResult(0);
  if (acc.dq)
    out.dq = matmulAcc(b, loc, ds, kb, acc.dq);
  if (acc.dk)
    out.dk = matmulAcc(b, loc, ds, qb, acc.dk, /*transposeA=*/true);
  return out;
}

/// D = rowsum(dO * O) over [B..., Hq, Nq], in f32.
Value rowDot(OpBuilder &b, Location loc, Value dO, Value o, Value lseLike) {
  auto ty = cast<RankedTensorType>(dO.getType());
  int64_t rank = ty.getRank();
  Value init = filled(b, loc, tensor::getMixedSizes(b, loc, lseLike), 0.0f);
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap red = id.dropResult(rank - 1);
  SmallVector<IteratorType> iters(rank, kPar);
  iters.back() = kRed;
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{dO, o}, ValueRange{init},
             {id, id, red}, iters,
             [&](OpBuilder &nb, Location nl, ValueRange a) {
               Value prod = arith::MulFOp::create(nb, nl, toF32(nb, nl, a[0]),
                                                  toF32(nb, nl, a[1]));
               linalg::YieldOp::create(
                   nb, nl,
                   ValueRange{arith::AddFOp::create(nb, nl, a[2], prod)});
             })
      .getResult(0);
}

/// What the parallel backward needs of the op, computed once.
struct GradProblem {
  AttentionGradOp op;
  const TileAttentionOptions &options;
  int64_t rank;
  Value nq, nk, off, group, delta;
  int64_t d, dv;
};

/// The slices of query head `qIvs` (batch..., query head) whose kv head is
/// at `kvIvs`.
HeadSlices headSlicesAt(OpBuilder &b, Location l, const GradProblem &p,
                        ValueRange qIvs, ValueRange kvIvs) {
  AttentionGradOp op = p.op;
  HeadSlices h;
  h.q = slice2D(b, l, op.getQuery(), qIvs);
  h.k = slice2D(b, l, op.getKey(), kvIvs);
  h.v = slice2D(b, l, op.getValue(), kvIvs);
  h.dO = slice2D(b, l, op.getGradOutput(), qIvs);
  h.lse = slice1D(b, l, op.getLse(), qIvs);
  h.delta = slice1D(b, l, p.delta, qIvs);
  h.spec.scale = op.getScaleValue();
  h.spec.causalOffset = p.off;
  if (Value mask = op.getMask())
    sliceHeadMask(b, l, mask, p.rank, qIvs, h.spec);
  setModifiers(b, l, op, qIvs, h.spec);
  return h;
}

/// dk_j, dv_j (f32) of key block [j0, +cols) of the kv head at `kvIvs`:
/// the query heads of its group in order, each one's query blocks in order
/// (the order of both sequential nests).
std::pair<Value, Value> keyBlockGrads(OpBuilder &b, Location l,
                                      const GradProblem &p, ValueRange kvIvs,
                                      Value j0, OpFoldResult cols) {
  IndexMath im{b, l};
  int64_t bq = p.options.blockQ;
  OpFoldResult dA = b.getIndexAttr(p.d), dvA = b.getIndexAttr(p.dv);
  Value dK = filled(b, l, {cols, dA}, 0.0f);
  Value dV = filled(b, l, {cols, dvA}, 0.0f);
  auto loop = scf::ForOp::create(
      b, l, im.c(0), p.group, im.c(1), ValueRange{dK, dV},
      [&](OpBuilder &b2, Location l2, Value g, ValueRange a) {
        IndexMath i2{b2, l2};
        SmallVector<Value> qIvs(kvIvs);
        if (p.rank >= 3)
          qIvs.back() = i2.add(i2.mul(kvIvs.back(), p.group), g);
        HeadSlices h = headSlicesAt(b2, l2, p, qIvs, kvIvs);
        auto qBody = [&](bool withCausal) {
          return [&, withCausal](OpBuilder &b3, Location l3, Value i0,
                                 OpFoldResult rows,
                                 ValueRange c) -> SmallVector<Value> {
            return ifVisible(
                b3, l3, h.spec, i0, rows, j0, cols, c,
                [&](OpBuilder &b4, Location l4) -> SmallVector<Value> {
                  Grads n = gradBlock(b4, l4, h, i0, rows, j0, cols,
                                      withCausal, {c[0], c[1], Value()});
                  return {n.dk, n.dv};
                });
          };
        };
        QueryRanges qr = queryRanges(
            i2, j0, getValueOrCreateConstantIndexOp(b2, l2, cols), p.nq,
            p.off, bq, h.spec.boundsOrNull());
        SmallVector<Value> c(a);
        if (p.off)
          c = fullBlocks(b2, l2, qr.start, qr.visStart, bq, c, qBody(true));
        c = fullBlocks(b2, l2, qr.visStart, qr.fullEnd, bq, c, qBody(false));
        c = lastBlock(b2, l2, qr.fullEnd, qr.end, c,
                      qBody(static_cast<bool>(p.off)));
        scf::YieldOp::create(b2, l2, c);
      });
  return {loop.getResult(0), loop.getResult(1)};
}

/// dq_i (f32) of query rows [i0, +rows) of the query head at `qIvs`: its key
/// blocks in order.
Value queryBlockGrad(OpBuilder &b, Location l, const GradProblem &p,
                     ValueRange qIvs, Value i0, OpFoldResult rows) {
  IndexMath im{b, l};
  int64_t bk = p.options.blockKV;
  SmallVector<Value> kvIvs(qIvs);
  if (p.rank >= 3 && !isConstantIntValue(p.group, 1))
    kvIvs.back() = b.createOrFold<arith::DivUIOp>(l, qIvs.back(), p.group);
  HeadSlices h = headSlicesAt(b, l, p, qIvs, kvIvs);
  auto kvBody = [&](bool withCausal) {
    return [&, withCausal](OpBuilder &b2, Location l2, Value j0,
                           OpFoldResult cols,
                           ValueRange e) -> SmallVector<Value> {
      return ifVisible(b2, l2, h.spec, i0, rows, j0, cols, e,
                       [&](OpBuilder &b3, Location l3) -> SmallVector<Value> {
                         return {gradBlock(b3, l3, h, i0, rows, j0, cols,
                                           withCausal,
                                           {Value(), Value(), e[0]})
                                     .dq};
                       });
    };
  };
  BlockRanges kr =
      keyRanges(im, i0, getValueOrCreateConstantIndexOp(b, l, rows), p.nk,
                p.off, bk, h.spec.boundsOrNull());
  SmallVector<Value> e{filled(b, l, {rows, b.getIndexAttr(p.d)}, 0.0f)};
  e = fullBlocks(b, l, kr.start, kr.visEnd, bk, e, kvBody(false));
  if (p.off)
    e = fullBlocks(b, l, kr.visEnd, kr.fullEnd, bk, e, kvBody(true));
  e = lastBlock(b, l, kr.fullEnd, kr.end, e, kvBody(static_cast<bool>(p.off)));
  return e[0];
}

/// The parallel backward (`parallel`): one scf.forall over (batch..., kv
/// head, key block) for dk and dv, then one over (batch..., query head,
/// query block) for dq, which recomputes p a second time instead of
/// sharing dq between threads (no atomics, no races; each gradient element
/// is accumulated by one iteration in the sequential nests' order, so the
/// results are bitwise theirs). Returns dq, dk, dv.
SmallVector<Value> tileAttentionGradParallel(OpBuilder &b, Location loc,
                                             const GradProblem &p) {
  AttentionGradOp op = p.op;
  auto leading = [&](Value t) {
    SmallVector<OpFoldResult> r;
    for (int64_t i = 0; i < p.rank - 2; ++i)
      r.push_back(tensor::getMixedSize(b, loc, t, i));
    return r;
  };
  Type qElt = op.getQuery().getType().getElementType();
  Type kElt = op.getKey().getType().getElementType();
  Type vElt = op.getValue().getType().getElementType();
  SmallVector<Value> inits(op.getDpsInits());
  SmallVector<Value> kv = blockedParallel(
      b, loc, leading(op.getKey()), p.nk, p.options.blockKV,
      ValueRange{inits[1], inits[2]},
      [&](OpBuilder &nb, Location nl, ValueRange ivs, Value j0,
          OpFoldResult cols) -> SmallVector<Value> {
        auto [dk, dv] = keyBlockGrads(nb, nl, p, ivs, j0, cols);
        return {castTensor(nb, nl, dk, kElt), castTensor(nb, nl, dv, vElt)};
      });
  SmallVector<Value> dq = blockedParallel(
      b, loc, leading(op.getQuery()), p.nq, p.options.blockQ,
      ValueRange{inits[0]},
      [&](OpBuilder &nb, Location nl, ValueRange ivs, Value i0,
          OpFoldResult rows) -> SmallVector<Value> {
        return {castTensor(nb, nl, queryBlockGrad(nb, nl, p, ivs, i0, rows),
                           qElt)};
      });
  return {dq[0], kv[0], kv[1]};
}

} // namespace

FailureOr<SmallVector<Value>>
mlir::flash::tileAttentionGrad(RewriterBase &rewriter, AttentionGradOp op,
                               const TileAttentionOptions &options) {
  if (options.blockQ <= 0 || options.blockKV <= 0)
    return rewriter.notifyMatchFailure(op, "block sizes must be positive");
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  IndexMath im{rewriter, loc};
  int64_t bq = options.blockQ, bk = options.blockKV;

  int64_t rank = op.getRank();
  bool hasHeads = rank >= 3;
  int64_t numBatch = hasHeads ? rank - 3 : 0;
  TypedValue<RankedTensorType> q = op.getQuery(), k = op.getKey(),
                               v = op.getValue();
  auto sizeOf = [&](Value t, int64_t dim) {
    return getValueOrCreateConstantIndexOp(
        rewriter, loc, tensor::getMixedSize(rewriter, loc, t, dim));
  };
  Value nq = sizeOf(q, rank - 2), nk = sizeOf(k, rank - 2);
  int64_t d = q.getType().getShape().back();
  int64_t dv = v.getType().getShape().back();
  Value off = causalOffset(rewriter, loc, op, nq, nk);
  Value group = im.c(1);
  if (hasHeads)
    group = rewriter.createOrFold<arith::DivUIOp>(loc, sizeOf(q, rank - 3),
                                                  sizeOf(k, rank - 3));
  float scale = op.getScaleValue();
  Value mask = op.getMask();
  Type qElt = q.getType().getElementType();
  Type kElt = k.getType().getElementType();
  Type vElt = v.getType().getElementType();

  Value delta = rowDot(rewriter, loc, op.getGradOutput(), op.getOutput(),
                       op.getLse());
  if (options.parallel) {
    GradProblem p{op, options, rank, nq, nk, off, group, delta, d, dv};
    SmallVector<Value> results = tileAttentionGradParallel(rewriter, loc, p);
    rewriter.replaceOp(op, results);
    return results;
  }

  // Loops over batch dims and kv heads.
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t i = 0; i < rank - 2; ++i) {
    lbs.push_back(im.c(0));
    ubs.push_back(sizeOf(k, i));
    steps.push_back(im.c(1));
  }
  SmallVector<Value> inits(op.getDpsInits());
  scf::LoopNest nest = scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps, inits,
      [&](OpBuilder &b, Location l, ValueRange ivs,
          ValueRange args) -> scf::ValueVector {
        IndexMath ib{b, l};
        Value k2 = slice2D(b, l, k, ivs), v2 = slice2D(b, l, v, ivs);
        // Query head g of this kv head's group: the leading ivs with the
        // head replaced by hkv * group + g.
        auto qIvs = [&](OpBuilder &nb, Location nl, Value g) {
          SmallVector<Value> r(ivs);
          if (hasHeads) {
            IndexMath in{nb, nl};
            r.back() = in.add(in.mul(ivs.back(), group), g);
          }
          return r;
        };
        auto headSlices = [&](OpBuilder &nb, Location nl, Value g) {
          SmallVector<Value> hi = qIvs(nb, nl, g);
          HeadSlices h;
          h.q = slice2D(nb, nl, q, hi);
          h.k = k2;
          h.v = v2;
          h.dO = slice2D(nb, nl, op.getGradOutput(), hi);
          h.lse = slice1D(nb, nl, op.getLse(), hi);
          h.delta = slice1D(nb, nl, delta, hi);
          h.spec.scale = scale;
          h.spec.causalOffset = off;
          if (mask)
            sliceHeadMask(nb, nl, mask, rank, hi, h.spec);
          setModifiers(nb, nl, op, hi, h.spec);
          return h;
        };
        OpFoldResult zero = b.getIndexAttr(0);
        OpFoldResult dA = b.getIndexAttr(d), dvA = b.getIndexAttr(dv);
        OpFoldResult nqO = getAsOpFoldResult(nq), nkO = getAsOpFoldResult(nk);
        OpFoldResult gO = getAsOpFoldResult(group);

        // dq of the whole group, f32: [G, Nq, D].
        Value dqAll = filled(b, l, {gO, nqO, dA}, 0.0f);
        auto dqOf = [&](OpBuilder &nb, Location nl, Value all, Value g) {
          auto t = RankedTensorType::get(
              {q.getType().getDimSize(rank - 2), d},
              cast<RankedTensorType>(all.getType()).getElementType());
          SmallVector<OpFoldResult> ones{nb.getIndexAttr(1), nb.getIndexAttr(1),
                                         nb.getIndexAttr(1)};
          Value r = tensor::ExtractSliceOp::create(
              nb, nl, t, all, {g, nb.getIndexAttr(0), nb.getIndexAttr(0)},
              {nb.getIndexAttr(1), nqO, dA}, ones);
          return r;
        };
        auto setDqOf = [&](OpBuilder &nb, Location nl, Value all, Value g,
                           Value dq2) {
          return tensor::InsertSliceOp::create(
                     nb, nl, dq2, all,
                     ArrayRef<OpFoldResult>{g, nb.getIndexAttr(0),
                                            nb.getIndexAttr(0)},
                     ArrayRef<OpFoldResult>{nb.getIndexAttr(1), nqO, dA},
                     ArrayRef<OpFoldResult>{nb.getIndexAttr(1),
                                            nb.getIndexAttr(1),
                                            nb.getIndexAttr(1)})
              .getResult();
        };
        auto overGroup = [&](OpBuilder &nb, Location nl, ValueRange init,
                             function_ref<SmallVector<Value>(
                                 OpBuilder &, Location, Value, ValueRange)>
                                 body) {
          IndexMath in{nb, nl};
          auto loop = scf::ForOp::create(
              nb, nl, in.c(0), group, in.c(1), init,
              [&](OpBuilder &b2, Location l2, Value g, ValueRange a) {
                scf::YieldOp::create(b2, l2, body(b2, l2, g, a));
              });
          return SmallVector<Value>(loop.getResults());
        };

        Value dkF, dvF; // f32 [Nk, D] / [Nk, Dv] (fa1 only)
        SmallVector<Value> res;
        if (options.loopOrder == LoopOrder::FA2) {
          // KV blocks outer: dk_j, dv_j finished per block.
          Value dk2 = slice2D(b, l, args[1], ivs);
          Value dv2 = slice2D(b, l, args[2], ivs);
          auto kvBody = [&](OpBuilder &b1, Location l1, Value j0,
                            OpFoldResult cols,
                            ValueRange st) -> SmallVector<Value> {
            Value dKacc = filled(b1, l1, {cols, dA}, 0.0f);
            Value dVacc = filled(b1, l1, {cols, dvA}, 0.0f);
            SmallVector<Value> r = overGroup(
                b1, l1, ValueRange{dKacc, dVacc, st[2]},
                [&](OpBuilder &b2, Location l2, Value g,
                    ValueRange a) -> SmallVector<Value> {
                  HeadSlices h = headSlices(b2, l2, g);
                  Value dq2 = dqOf(b2, l2, a[2], g);
                  auto qBody = [&](bool withCausal) {
                    return [&, withCausal](OpBuilder &b3, Location l3,
                                           Value i0, OpFoldResult rows,
                                           ValueRange c) -> SmallVector<Value> {
                      OpFoldResult z = b3.getIndexAttr(0);
                      Grads acc{c[0], c[1],
                                slice(b3, l3, c[2], {i0, z}, {rows, dA})};
                      return ifVisible(
                          b3, l3, h.spec, i0, rows, j0, cols, c,
                          [&](OpBuilder &b4, Location l4) -> SmallVector<Value> {
                            Grads n = gradBlock(b4, l4, h, i0, rows, j0, cols,
                                                withCausal, acc);
                            return {n.dk, n.dv,
                                    insert(b4, l4, n.dq, c[2], {i0, z},
                                           {rows, dA})};
                          });
                    };
                  };
                  IndexMath i2{b2, l2};
                  QueryRanges qr = queryRanges(
                      i2, j0, getValueOrCreateConstantIndexOp(b2, l2, cols),
                      nq, off, bq, h.spec.boundsOrNull());
                  SmallVector<Value> c{a[0], a[1], dq2};
                  if (off)
                    c = fullBlocks(b2, l2, qr.start, qr.visStart, bq, c,
                                   qBody(true));
                  c = fullBlocks(b2, l2, qr.visStart, qr.fullEnd, bq, c,
                                 qBody(false));
                  c = lastBlock(b2, l2, qr.fullEnd, qr.end, c,
                                qBody(static_cast<bool>(off)));
                  return {c[0], c[1], setDqOf(b2, l2, a[2], g, c[2])};
                });
            return {insert(b1, l1, castTensor(b1, l1, r[0], kElt), st[0],
                           {j0, zero}, {cols, dA}),
                    insert(b1, l1, castTensor(b1, l1, r[1], vElt), st[1],
                           {j0, zero}, {cols, dvA}),
                    r[2]};
          };
          Value fullEnd = ib.floorTo(nk, bk);
          SmallVector<Value> st{dk2, dv2, dqAll};
          st = fullBlocks(b, l, ib.c(0), fullEnd, bk, st, kvBody);
          st = lastBlock(b, l, fullEnd, nk, st, kvBody);
          res = {st[2], st[0], st[1]};
        } else {
          // Query blocks outer: dq_i finished per block, dk/dv accumulated
          // over the whole key range in f32.
          dkF = filled(b, l, {nkO, dA}, 0.0f);
          dvF = filled(b, l, {nkO, dvA}, 0.0f);
          SmallVector<Value> r = overGroup(
              b, l, ValueRange{dkF, dvF, dqAll},
              [&](OpBuilder &b2, Location l2, Value g,
                  ValueRange a) -> SmallVector<Value> {
                HeadSlices h = headSlices(b2, l2, g);
                auto qBody = [&](OpBuilder &b3, Location l3, Value i0,
                                 OpFoldResult rows,
                                 ValueRange c) -> SmallVector<Value> {
                  IndexMath i3{b3, l3};
                  auto kvBody = [&](bool withCausal) {
                    return [&, withCausal](OpBuilder &b4, Location l4,
                                           Value j0, OpFoldResult cols,
                                           ValueRange e) -> SmallVector<Value> {
                      OpFoldResult z = b4.getIndexAttr(0);
                      Grads acc{slice(b4, l4, e[0], {j0, z}, {cols, dA}),
                                slice(b4, l4, e[1], {j0, z}, {cols, dvA}),
                                e[2]};
                      return ifVisible(
                          b4, l4, h.spec, i0, rows, j0, cols, e,
                          [&](OpBuilder &b5, Location l5) -> SmallVector<Value> {
                            Grads n = gradBlock(b5, l5, h, i0, rows, j0, cols,
                                                withCausal, acc);
                            return {insert(b5, l5, n.dk, e[0], {j0, z},
                                           {cols, dA}),
                                    insert(b5, l5, n.dv, e[1], {j0, z},
                                           {cols, dvA}),
                                    n.dq};
                          });
                    };
                  };
                  BlockRanges kr = keyRanges(
                      i3, i0, getValueOrCreateConstantIndexOp(b3, l3, rows),
                      nk, off, bk, h.spec.boundsOrNull());
                  Value dqB = filled(b3, l3, {rows, dA}, 0.0f);
                  SmallVector<Value> e{c[0], c[1], dqB};
                  e = fullBlocks(b3, l3, kr.start, kr.visEnd, bk, e,
                                 kvBody(false));
                  if (off)
                    e = fullBlocks(b3, l3, kr.visEnd, kr.fullEnd, bk, e,
                                   kvBody(true));
                  e = lastBlock(b3, l3, kr.fullEnd, kr.end, e,
                                kvBody(static_cast<bool>(off)));
                  Value dq2 = dqOf(b3, l3, c[2], g);
                  dq2 = insert(b3, l3, e[2], dq2, {i0, b3.getIndexAttr(0)},
                               {rows, dA});
                  return {e[0], e[1], setDqOf(b3, l3, c[2], g, dq2)};
                };
                IndexMath i2{b2, l2};
                Value fullEnd = i2.floorTo(nq, bq);
                SmallVector<Value> c(a);
                c = fullBlocks(b2, l2, i2.c(0), fullEnd, bq, c, qBody);
                c = lastBlock(b2, l2, fullEnd, nq, c, qBody);
                return c;
              });
          Value dk2 = castTensor(b, l, r[0], kElt);
          Value dv2 = castTensor(b, l, r[1], vElt);
          res = {r[2], insert(b, l, dk2, slice2D(b, l, args[1], ivs),
                              {zero, zero}, {nkO, dA}),
                 insert(b, l, dv2, slice2D(b, l, args[2], ivs), {zero, zero},
                        {nkO, dvA})};
        }

        // Write back: dq of the group's heads, dk and dv of this kv head.
        Value dqOut = castTensor(b, l, res[0], qElt);
        Value dq;
        if (hasHeads) {
          SmallVector<OpFoldResult> offs, sizes, strides(rank,
                                                         b.getIndexAttr(1));
          for (int64_t t = 0; t < numBatch; ++t) {
            offs.push_back(ivs[t]);
            sizes.push_back(b.getIndexAttr(1));
          }
          offs.push_back(ib.mul(ivs.back(), group));
          sizes.push_back(gO);
          offs.append({zero, zero});
          sizes.append({nqO, dA});
          dq = tensor::InsertSliceOp::create(b, l, dqOut, args[0], offs, sizes,
                                             strides);
        } else {
          Value dq2 = dqOf(b, l, dqOut, ib.c(0));
          dq = insert(b, l, dq2, args[0], {zero, zero}, {nqO, dA});
        }
        return {dq, insertLeading(b, l, res[1], args[1], ivs),
                insertLeading(b, l, res[2], args[2], ivs)};
      });
  SmallVector<Value> results(nest.results);
  rewriter.replaceOp(op, results);
  return results;
}
