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
// loop-order=fa2 (default): KV blocks outer, dk_j/dv_j finished per block.
// The keys of each kv head are split into chunks (a function of the shapes:
// at least 8 (batch..., kv head, chunk) iterations where there are enough
// blocks); each iteration accumulates its keys' dq contributions (f32) into
// a slab of its own, and dq is the sum of the slabs in chunk order. With
// `parallel` the iterations are an scf.forall, else an scf.for nest: the
// same operations in the same order, so the results do not depend on the
// thread count, and nothing is recomputed or shared between threads.
// loop-order=fa1: query blocks outer, dq_i finished per block, dk/dv
// accumulated; with `parallel`, (batch..., kv head) in parallel. With GQA
// the query heads of a group run inside the KV-block loop, so dk/dv sum over
// them without copies. Every accumulation happens in a fixed order: the
// result is bitwise repeatable whether or not `deterministic` is set.
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

/// How the FA2 backward splits each kv head's keys: `chunks` ranges of
/// `blocksPerChunk` key blocks. A function of the shapes only (never of the
/// thread count), so that the results are the same for any: at least
/// kParallelIterations (kv head, chunk) pairs where there are enough blocks.
constexpr int64_t kParallelIterations = 8;
struct KeyChunks {
  Value chunks, blocksPerChunk;
};
KeyChunks keyChunks(OpBuilder &b, Location l, ArrayRef<OpFoldResult> lead,
                    Value nk, int64_t bk) {
  IndexMath im{b, l};
  auto ceilDiv = [&](Value x, Value y) {
    return b.createOrFold<arith::CeilDivUIOp>(l, x, y);
  };
  Value heads = im.c(1);
  for (OpFoldResult d : lead)
    heads = im.mul(heads, getValueOrCreateConstantIndexOp(b, l, d));
  Value blocks = im.max(ceilDiv(nk, im.c(bk)), im.c(1));
  Value want = im.max(im.min(ceilDiv(im.c(kParallelIterations), heads),
                             blocks),
                      im.c(1));
  Value per = ceilDiv(blocks, want);
  return {ceilDiv(blocks, per), per};
}

/// The FA2 backward of keys [jLo, jHi) (jLo a multiple of the key block) of
/// the kv head at `kvIvs`: their dk and dv ([jHi - jLo, D], f32) and the
/// group's dq contributions, accumulated onto `dqAll` ([G, Nq, D], f32):
/// key blocks in order; in each, the group's query heads in order; in each,
/// its query blocks in order.
SmallVector<Value> keyRangeGrads(OpBuilder &b, Location l,
                                 const GradProblem &p, ValueRange kvIvs,
                                 Value jLo, Value jHi, Value dqAll) {
  IndexMath im{b, l};
  int64_t bq = p.options.blockQ, bk = p.options.blockKV;
  OpFoldResult zero = b.getIndexAttr(0);
  OpFoldResult dA = b.getIndexAttr(p.d), dvA = b.getIndexAttr(p.dv);
  OpFoldResult nqO = getAsOpFoldResult(p.nq);
  OpFoldResult len = getAsOpFoldResult(im.sub(jHi, jLo));
  auto dqRows = [&](OpBuilder &nb, Location nl, Value all, Value g) {
    auto t = RankedTensorType::get(
        {AttentionGradOp(p.op).getQuery().getType().getDimSize(p.rank - 2), p.d},
        nb.getF32Type());
    SmallVector<OpFoldResult> ones(3, nb.getIndexAttr(1));
    return tensor::ExtractSliceOp::create(
               nb, nl, t, all, {g, nb.getIndexAttr(0), nb.getIndexAttr(0)},
               {nb.getIndexAttr(1), nqO, dA}, ones)
        .getResult();
  };
  auto setDqRows = [&](OpBuilder &nb, Location nl, Value all, Value g,
                       Value dq2) {
    SmallVector<OpFoldResult> ones(3, nb.getIndexAttr(1));
    return tensor::InsertSliceOp::create(
               nb, nl, dq2, all,
               ArrayRef<OpFoldResult>{g, nb.getIndexAttr(0),
                                      nb.getIndexAttr(0)},
               ArrayRef<OpFoldResult>{nb.getIndexAttr(1), nqO, dA}, ones)
        .getResult();
  };
  auto kvBody = [&](OpBuilder &b1, Location l1, Value j0, OpFoldResult cols,
                    ValueRange st) -> SmallVector<Value> {
    IndexMath i1{b1, l1};
    Value dK = filled(b1, l1, {cols, dA}, 0.0f);
    Value dV = filled(b1, l1, {cols, dvA}, 0.0f);
    auto loop = scf::ForOp::create(
        b1, l1, i1.c(0), p.group, i1.c(1), ValueRange{dK, dV, st[2]},
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
              OpFoldResult z = b3.getIndexAttr(0);
              Grads acc{c[0], c[1], slice(b3, l3, c[2], {i0, z}, {rows, dA})};
              return ifVisible(
                  b3, l3, h.spec, i0, rows, j0, cols, c,
                  [&](OpBuilder &b4, Location l4) -> SmallVector<Value> {
                    Grads n = gradBlock(b4, l4, h, i0, rows, j0, cols,
                                        withCausal, acc);
                    return {n.dk, n.dv,
                            insert(b4, l4, n.dq, c[2], {i0, z}, {rows, dA})};
                  });
            };
          };
          QueryRanges qr = queryRanges(
              i2, j0, getValueOrCreateConstantIndexOp(b2, l2, cols), p.nq,
              p.off, bq, h.spec.boundsOrNull());
          SmallVector<Value> c{a[0], a[1], dqRows(b2, l2, a[2], g)};
          if (p.off)
            c = fullBlocks(b2, l2, qr.start, qr.visStart, bq, c, qBody(true));
          c = fullBlocks(b2, l2, qr.visStart, qr.fullEnd, bq, c,
                         qBody(false));
          c = lastBlock(b2, l2, qr.fullEnd, qr.end, c,
                        qBody(static_cast<bool>(p.off)));
          scf::YieldOp::create(
              b2, l2, ValueRange{c[0], c[1], setDqRows(b2, l2, a[2], g, c[2])});
        });
    Value at = i1.sub(j0, jLo);
    return {insert(b1, l1, loop.getResult(0), st[0], {at, zero}, {cols, dA}),
            insert(b1, l1, loop.getResult(1), st[1], {at, zero}, {cols, dvA}),
            loop.getResult(2)};
  };
  SmallVector<Value> st{filled(b, l, {len, dA}, 0.0f),
                        filled(b, l, {len, dvA}, 0.0f), dqAll};
  Value fullEnd = im.min(jHi, im.floorTo(p.nk, bk));
  st = fullBlocks(b, l, jLo, fullEnd, bk, st, kvBody);
  st = lastBlock(b, l, fullEnd, jHi, st, kvBody);
  return st;
}

/// The FA2 backward (KV blocks outer): one iteration per (batch..., kv head,
/// key chunk) — an scf.forall with `parallel`, else an scf.for nest of the
/// same iterations — computes its keys' dk/dv whole and its dq
/// contributions into a slab of its own of [B..., Hkv, chunks, G, Nq, D];
/// then dq is the sum of the slabs in chunk order. No atomics, no races, no
/// recomputation; the same operations in the same order whether parallel
/// or not, for any thread count. Returns dq, dk, dv.
SmallVector<Value> tileAttentionGradFA2(OpBuilder &b, Location loc,
                                        const GradProblem &p, bool parallel) {
  AttentionGradOp op = p.op;
  int64_t bk = p.options.blockKV;
  SmallVector<OpFoldResult> lead;
  for (int64_t i = 0; i < p.rank - 2; ++i)
    lead.push_back(tensor::getMixedSize(b, loc, op.getKey(), i));
  KeyChunks kc = keyChunks(b, loc, lead, p.nk, bk);
  Type kElt = op.getKey().getType().getElementType();
  Type vElt = op.getValue().getType().getElementType();
  OpFoldResult gO = getAsOpFoldResult(p.group);
  OpFoldResult nqO = getAsOpFoldResult(p.nq);
  OpFoldResult dA = b.getIndexAttr(p.d);
  SmallVector<OpFoldResult> partSizes(lead);
  partSizes.append({getAsOpFoldResult(kc.chunks), gO, nqO, dA});
  Value parts = tensor::EmptyOp::create(b, loc, partSizes, b.getF32Type());
  SmallVector<Value> inits(op.getDpsInits());
  SmallVector<OpFoldResult> ubs(lead);
  ubs.push_back(getAsOpFoldResult(kc.chunks));
  SmallVector<Value> r = forEachIteration(
      b, loc, parallel, ubs, ValueRange{inits[1], inits[2], parts},
      [&](OpBuilder &nb, Location nl, ValueRange ivs,
          ValueRange) -> SmallVector<ParallelWrite> {
        IndexMath in{nb, nl};
        ValueRange kvIvs = ivs.drop_back();
        Value jLo = in.mul(ivs.back(), in.c(bk));
        jLo = in.mul(jLo, kc.blocksPerChunk);
        Value jHi =
            in.min(in.add(jLo, in.mul(kc.blocksPerChunk, in.c(bk))), p.nk);
        Value dqAll = filled(nb, nl, {gO, nqO, dA}, 0.0f);
        SmallVector<Value> g = keyRangeGrads(nb, nl, p, kvIvs, jLo, jHi, dqAll);
        OpFoldResult z = nb.getIndexAttr(0);
        return {writeAt(nb, castTensor(nb, nl, g[0], kElt), 0, kvIvs,
                        {jLo, z}),
                writeAt(nb, castTensor(nb, nl, g[1], vElt), 1, kvIvs,
                        {jLo, z}),
                writeAt(nb, g[2], 2, ivs)};
      });

  // dq = the sum of the chunks' slabs, in chunk order.
  int64_t nLead = lead.size();
  int64_t partRank = nLead + 4;
  SmallVector<OpFoldResult> sumSizes(lead);
  sumSizes.append({gO, nqO, dA});
  Value sum = filled(b, loc, sumSizes, 0.0f);
  SmallVector<AffineExpr> outExprs;
  for (int64_t i = 0; i < partRank; ++i)
    if (i != nLead)
      outExprs.push_back(b.getAffineDimExpr(i));
  SmallVector<IteratorType> iters(partRank, kPar);
  iters[nLead] = kRed;
  // The chunk dim outermost of the loops: the slabs are added in order.
  Value dqF = linalg::GenericOp::create(
                  b, loc, sum.getType(), ValueRange{r[2]}, ValueRange{sum},
                  {b.getMultiDimIdentityMap(partRank),
                   map(b, partRank, outExprs)},
                  iters,
                  [&](OpBuilder &nb, Location nl, ValueRange a) {
                    linalg::YieldOp::create(
                        nb, nl,
                        ValueRange{arith::AddFOp::create(nb, nl, a[1], a[0])});
                  })
                  .getResult(0);
  Type qElt = op.getQuery().getType().getElementType();
  Value dq = castTensor(b, loc, dqF, qElt);
  // [B..., Hkv, G, Nq, D] -> the query's [B..., Hq, Nq, D] (or [Nq, D]).
  SmallVector<ReassociationIndices> groups;
  for (int64_t i = 0; i + 1 < nLead; ++i)
    groups.push_back({i});
  if (nLead) {
    groups.push_back({nLead - 1, nLead});
    groups.push_back({nLead + 1});
    groups.push_back({nLead + 2});
  } else {
    groups.push_back({0, 1});
    groups.push_back({2});
  }
  dq = tensor::CollapseShapeOp::create(b, loc, dq, groups);
  if (dq.getType() != inits[0].getType())
    dq = tensor::CastOp::create(b, loc, inits[0].getType(), dq);
  return {dq, r[0], r[1]};
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
  if (options.loopOrder == LoopOrder::FA2) {
    GradProblem p{op, options, rank, nq, nk, off, group, delta, d, dv};
    SmallVector<Value> results =
        tileAttentionGradFA2(rewriter, loc, p, options.parallel);
    rewriter.replaceOp(op, results);
    return results;
  }

  // loop-order=fa1: one iteration per (batch..., kv head), an scf.forall
  // with `parallel`; the key blocks sequential.
  SmallVector<OpFoldResult> ubs;
  for (int64_t i = 0; i < rank - 2; ++i)
    ubs.push_back(tensor::getMixedSize(rewriter, loc, k, i));
  SmallVector<Value> inits(op.getDpsInits());
  SmallVector<Value> results = forEachIteration(
      rewriter, loc, options.parallel, ubs, inits,
      [&](OpBuilder &b, Location l, ValueRange ivs,
          ValueRange args) -> SmallVector<ParallelWrite> {
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
        // loop-order=fa1, sequential (fa2 and parallel: tileAttentionGradFA2).
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

        // Write back: dq of the group's heads, dk and dv of this kv head.
        Value dqOut = castTensor(b, l, res[0], qElt);
        ParallelWrite dq =
            hasHeads ? writeAt(b, dqOut, 0, ivs.take_front(numBatch),
                               {ib.mul(ivs.back(), group), zero, zero})
                     : writeAt(b, dqOf(b, l, dqOut, ib.c(0)), 0, {});
        return {dq, writeAt(b, res[1], 1, ivs), writeAt(b, res[2], 2, ivs)};
      });
  rewriter.replaceOp(op, results);
  return results;
}
