//===- TileAttention.cpp - flash.attention -> online-softmax loop nest ----===//
//
// Lowers flash.attention into the FlashAttention forward on tensors:
//
//   for each (batch..., head):                      scf.for nest
//     q-blocks x kv-blocks, FA2 or FA1 order        scf.for, exact remainders
//       s   = scale * q_i k_j^T (+ mask, causal)    linalg.generic (f32)
//       m'  = max(m, rowmax(s)); p = exp(s - m')
//       l'  = exp(m - m') l + rowsum(p)
//       acc'= exp(m - m') acc + p v_j
//     o = acc / l ; lse = m + log(l)                (0 and -inf for rows
//                                                    whose keys are all masked)
//
// Every block is a full `block-q` x `block-kv` block with static shapes except
// the last one along each axis, which gets its own exact (possibly dynamic)
// size: no padding, no out-of-range reads. Causal attention iterates only up
// to the diagonal and applies the causal predicate only to the blocks that
// cross it. The running max starts at -inf; exp is always taken relative to
// a "safe" max (0 while the max is still -inf) so that -inf - (-inf) never
// occurs.
//
// Upstream has no online-softmax rewrite for a dialect-agnostic attention op
// (IREE's lives in its own LinalgExt dialect), hence this file.
//
//===----------------------------------------------------------------------===//

#include "BlockBuilder.h"
#include "flash/Dialect/Flash/Transforms/Passes.h"
#include "flash/Dialect/Flash/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHTILEATTENTION
#include "flash/Dialect/Flash/Transforms/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::detail;

namespace {

using utils::IteratorType;
constexpr IteratorType kPar = IteratorType::parallel;
constexpr IteratorType kRed = IteratorType::reduction;

/// The online-softmax state of a block of query rows, all f32:
/// m: [rows], l: [rows], acc: [rows, Dv].
struct State {
  Value m, l, acc;
  SmallVector<Value> values() const { return {m, l, acc}; }
  static State from(ValueRange r) { return {r[0], r[1], r[2]}; }
};

AffineMap map(OpBuilder &b, unsigned numDims, ArrayRef<AffineExpr> exprs) {
  return AffineMap::get(numDims, 0, exprs, b.getContext());
}

/// Emits the block computations of one (batch, head) slice: 2-D q [Nq, D],
/// k [Nk, D], v [Nk, Dv] and the scores' mask/scale/causal spec.
class SliceEmitter {
public:
  SliceEmitter(const TileAttentionOptions &options, Value q, Value k, Value v,
               const ScoreSpec &spec, Value outFactor, Value nq, Value nk)
      : opts(options), q(q), k(k), v(v), spec(spec), outFactor(outFactor),
        nq(nq), nk(nk) {
    dv = cast<RankedTensorType>(v.getType()).getShape().back();
  }

  /// o [Nq, Dv] (element type of the output) and lse [Nq] (or null).
  std::pair<Value, Value> emit(OpBuilder &b, Location loc, Value out,
                               Value lse) {
    return opts.loopOrder == LoopOrder::FA2 ? emitFA2(b, loc, out, lse)
                                            : emitFA1(b, loc, out, lse);
  }

private:
  bool causal() const { return static_cast<bool>(spec.causalOffset); }

  State initState(OpBuilder &b, Location loc, OpFoldResult rows) {
    float inf = std::numeric_limits<float>::infinity();
    return {filled(b, loc, {rows}, -inf), filled(b, loc, {rows}, 0.0f),
            filled(b, loc, {rows, b.getIndexAttr(dv)}, 0.0f)};
  }

  /// Folds key block [j0, j0 + cols) into the state of query rows
  /// [i0, i0 + rows). `applyCausal` adds the causal predicate (for blocks
  /// that cross the diagonal).
  State update(OpBuilder &b, Location loc, State st, Value i0,
               OpFoldResult rows, Value j0, OpFoldResult cols,
               bool applyCausal) {
    AffineExpr i, j;
    bindDims(b.getContext(), i, j);
    Value s = scoreBlock(b, loc, spec, q, k, i0, rows, j0, cols, applyCausal);
    Value vb = slice(b, loc, v, {j0, b.getIndexAttr(0)},
                     {cols, b.getIndexAttr(dv)});

    // Row max of the block. maxnumf: scores hold -inf but no NaN (a NaN
    // input still reaches o through exp), and it vectorizes to a max tree.
    float inf = std::numeric_limits<float>::infinity();
    Value mBlk = filled(b, loc, {rows}, -inf);
    mBlk = linalg::GenericOp::create(
               b, loc, mBlk.getType(), ValueRange{s}, ValueRange{mBlk},
               {map(b, 2, {i, j}), map(b, 2, {i})}, {kPar, kRed},
               [&](OpBuilder &nb, Location nl, ValueRange a) {
                 linalg::YieldOp::create(
                     nb, nl,
                     ValueRange{arith::MaxNumFOp::create(nb, nl, a[0], a[1])});
               })
               .getResult(0);

    // m' = max(m, mBlk); alpha = exp(m - m'); l * alpha.
    Value alpha = empty(b, loc, {rows}, b.getF32Type());
    auto upd = linalg::GenericOp::create(
        b, loc, TypeRange{st.m.getType(), st.l.getType(), alpha.getType()},
        ValueRange{mBlk}, ValueRange{st.m, st.l, alpha},
        SmallVector<AffineMap>(4, map(b, 1, {i})), {kPar},
        [&](OpBuilder &nb, Location nl, ValueRange a) {
          Value mNew = arith::MaxNumFOp::create(nb, nl, a[1], a[0]);
          Value al = math::ExpOp::create(
              nb, nl,
              arith::SubFOp::create(nb, nl, a[1], safeMax(nb, nl, mNew)));
          Value lSc = arith::MulFOp::create(nb, nl, a[2], al);
          linalg::YieldOp::create(nb, nl, ValueRange{mNew, lSc, al});
        });
    Value mNew = upd.getResult(0), lScaled = upd.getResult(1);
    alpha = upd.getResult(2);

    // p = exp(s - m'), in place of s.
    Value p = linalg::GenericOp::create(
                  b, loc, s.getType(), ValueRange{mNew}, ValueRange{s},
                  {map(b, 2, {i}), map(b, 2, {i, j})}, {kPar, kPar},
                  [&](OpBuilder &nb, Location nl, ValueRange a) {
                    Value e = math::ExpOp::create(
                        nb, nl,
                        arith::SubFOp::create(nb, nl, a[1],
                                              safeMax(nb, nl, a[0])));
                    linalg::YieldOp::create(nb, nl, ValueRange{e});
                  })
                  .getResult(0);

    // l' = l * alpha + rowsum(p).
    Value lNew =
        linalg::GenericOp::create(
            b, loc, lScaled.getType(), ValueRange{p}, ValueRange{lScaled},
            {map(b, 2, {i, j}), map(b, 2, {i})}, {kPar, kRed},
            [&](OpBuilder &nb, Location nl, ValueRange a) {
              linalg::YieldOp::create(
                  nb, nl, ValueRange{arith::AddFOp::create(nb, nl, a[0], a[1])});
            })
            .getResult(0);

    // acc' = acc * alpha + p v_j.
    Value acc =
        linalg::GenericOp::create(
            b, loc, st.acc.getType(), ValueRange{alpha}, ValueRange{st.acc},
            {map(b, 2, {i}), map(b, 2, {i, j})}, {kPar, kPar},
            [&](OpBuilder &nb, Location nl, ValueRange a) {
              linalg::YieldOp::create(
                  nb, nl, ValueRange{arith::MulFOp::create(nb, nl, a[0], a[1])});
            })
            .getResult(0);
    acc = matmulAcc(b, loc, p, vb, acc);
    return {mNew, lNew, acc};
  }

  /// o = acc / l (0 when l = 0; times the fp8 op's vd) in `outElt`;
  /// lse = m + log(l) (-inf when l = 0), or null when not requested.
  std::pair<Value, Value> finalize(OpBuilder &b, Location loc, State st,
                                   OpFoldResult rows, Type outElt,
                                   bool wantLse) {
    AffineExpr i, j;
    bindDims(b.getContext(), i, j);
    Value o = empty(b, loc, {rows, b.getIndexAttr(dv)}, outElt);
    o = linalg::GenericOp::create(
            b, loc, o.getType(), ValueRange{st.acc, st.l}, ValueRange{o},
            {map(b, 2, {i, j}), map(b, 2, {i}), map(b, 2, {i, j})},
            {kPar, kPar},
            [&](OpBuilder &nb, Location nl, ValueRange a) {
              Value zero =
                  arith::ConstantOp::create(nb, nl, nb.getF32FloatAttr(0.0f));
              Value none = arith::CmpFOp::create(
                  nb, nl, arith::CmpFPredicate::OEQ, a[1], zero);
              Value r = arith::DivFOp::create(nb, nl, a[0], a[1]);
              if (outFactor)
                r = arith::MulFOp::create(nb, nl, r, outFactor);
              r = arith::SelectOp::create(nb, nl, none, zero, r);
              if (a[2].getType() != r.getType())
                r = arith::TruncFOp::create(nb, nl, a[2].getType(), r);
              linalg::YieldOp::create(nb, nl, ValueRange{r});
            })
            .getResult(0);
    if (!wantLse)
      return {o, Value()};
    Value lse = empty(b, loc, {rows}, b.getF32Type());
    lse = linalg::GenericOp::create(
              b, loc, lse.getType(), ValueRange{st.m, st.l}, ValueRange{lse},
              SmallVector<AffineMap>(3, map(b, 1, {i})), {kPar},
              [&](OpBuilder &nb, Location nl, ValueRange a) {
                Value zero = arith::ConstantOp::create(nb, nl,
                                                       nb.getF32FloatAttr(0.0f));
                Value none = arith::CmpFOp::create(
                    nb, nl, arith::CmpFPredicate::OEQ, a[1], zero);
                Value r = arith::AddFOp::create(
                    nb, nl, a[0], math::LogOp::create(nb, nl, a[1]));
                r = arith::SelectOp::create(nb, nl, none, negInf(nb, nl), r);
                linalg::YieldOp::create(nb, nl, ValueRange{r});
              })
              .getResult(0);
    return {o, lse};
  }

  //===--------------------------------------------------------------------===//
  // FA2: query blocks outer, KV blocks inner
  //===--------------------------------------------------------------------===//

  /// Scans the keys visible from rows [i0, i0 + rows).
  State scanKeys(OpBuilder &b, Location loc, State st, Value i0,
                 OpFoldResult rows) {
    IndexMath im{b, loc};
    BlockRanges r =
        keyRanges(im, i0, getValueOrCreateConstantIndexOp(b, loc, rows), nk,
                  spec.causalOffset, opts.blockKV, spec.boundsOrNull());
    auto body = [&](bool withCausal) {
      return [&, withCausal](OpBuilder &nb, Location nl, Value j0,
                             OpFoldResult cols, ValueRange args) {
        return ifVisible(nb, nl, spec, i0, rows, j0, cols, args,
                         [&](OpBuilder &b2, Location l2) {
                           return update(b2, l2, State::from(args), i0, rows,
                                         j0, cols, withCausal)
                               .values();
                         });
      };
    };
    SmallVector<Value> s = st.values();
    s = fullBlocks(b, loc, r.start, r.visEnd, opts.blockKV, s, body(false));
    if (causal())
      s = fullBlocks(b, loc, r.visEnd, r.fullEnd, opts.blockKV, s, body(true));
    s = lastBlock(b, loc, r.fullEnd, r.end, s, body(causal()));
    return State::from(s);
  }

public:
  /// o [rows, Dv] and lse [rows] (null unless `wantLse`) of query rows
  /// [i0, i0 + rows): one FA2 query block, all its keys.
  std::pair<Value, Value> queryBlock(OpBuilder &b, Location loc, Value i0,
                                     OpFoldResult rows, Type outElt,
                                     bool wantLse) {
    State st = initState(b, loc, rows);
    st = scanKeys(b, loc, st, i0, rows);
    return finalize(b, loc, st, rows, outElt, wantLse);
  }

private:
  std::pair<Value, Value> emitFA2(OpBuilder &b, Location loc, Value out,
                                  Value lse) {
    IndexMath im{b, loc};
    Type outElt = cast<RankedTensorType>(out.getType()).getElementType();
    SmallVector<Value> inits{out};
    if (lse)
      inits.push_back(lse);
    auto body = [&](OpBuilder &nb, Location nl, Value i0, OpFoldResult rows,
                    ValueRange args) -> SmallVector<Value> {
      auto [o, l] = queryBlock(nb, nl, i0, rows, outElt, lse != nullptr);
      OpFoldResult zero = nb.getIndexAttr(0);
      SmallVector<Value> r{insert(nb, nl, o, args[0], {i0, zero},
                                  {rows, nb.getIndexAttr(dv)})};
      if (lse)
        r.push_back(insert(nb, nl, l, args[1], {i0}, {rows}));
      return r;
    };
    Value fullEnd = im.floorTo(nq, opts.blockQ);
    SmallVector<Value> r =
        fullBlocks(b, loc, im.c(0), fullEnd, opts.blockQ, inits, body);
    r = lastBlock(b, loc, fullEnd, nq, r, body);
    return {r[0], lse ? r[1] : Value()};
  }

  //===--------------------------------------------------------------------===//
  // FA1: KV blocks outer, every query block's state carried across
  //===--------------------------------------------------------------------===//

  std::pair<Value, Value> emitFA1(OpBuilder &b, Location loc, Value out,
                                  Value lse) {
    IndexMath im{b, loc};
    OpFoldResult nqOfr = getAsOpFoldResult(nq);
    State all = initState(b, loc, nqOfr);
    OpFoldResult zero = b.getIndexAttr(0);

    // Keys beyond the last query's diagonal are never visible.
    Value kvEnd =
        causal() ? im.clamp(im.add(nq, spec.causalOffset), im.c(0), nk) : nk;

    auto kvBody = [&](OpBuilder &b1, Location l1, Value j0, OpFoldResult cols,
                      ValueRange args) -> SmallVector<Value> {
      IndexMath im1{b1, l1};
      auto qBody = [&](bool withCausal) {
        return [&, withCausal](OpBuilder &b2, Location l2, Value i0,
                               OpFoldResult rows,
                               ValueRange st) -> SmallVector<Value> {
          OpFoldResult z = b2.getIndexAttr(0), dvA = b2.getIndexAttr(dv);
          State blk{slice(b2, l2, st[0], {i0}, {rows}),
                    slice(b2, l2, st[1], {i0}, {rows}),
                    slice(b2, l2, st[2], {i0, z}, {rows, dvA})};
          SmallVector<Value> n = ifVisible(
              b2, l2, spec, i0, rows, j0, cols, blk.values(),
              [&](OpBuilder &b3, Location l3) {
                return update(b3, l3, blk, i0, rows, j0, cols, withCausal)
                    .values();
              });
          blk = State::from(n);
          return {insert(b2, l2, blk.m, st[0], {i0}, {rows}),
                  insert(b2, l2, blk.l, st[1], {i0}, {rows}),
                  insert(b2, l2, blk.acc, st[2], {i0, z}, {rows, dvA})};
        };
      };
      QueryRanges r = queryRanges(
          im1, j0, getValueOrCreateConstantIndexOp(b1, l1, cols), nq,
          spec.causalOffset, opts.blockQ, spec.boundsOrNull());
      SmallVector<Value> st(args);
      if (causal())
        st = fullBlocks(b1, l1, r.start, r.visStart, opts.blockQ, st,
                        qBody(true));
      st = fullBlocks(b1, l1, r.visStart, r.fullEnd, opts.blockQ, st,
                      qBody(false));
      st = lastBlock(b1, l1, r.fullEnd, r.end, st, qBody(causal()));
      return st;
    };
    Value kvFullEnd = im.floorTo(kvEnd, opts.blockKV);
    SmallVector<Value> st = all.values();
    st = fullBlocks(b, loc, im.c(0), kvFullEnd, opts.blockKV, st, kvBody);
    st = lastBlock(b, loc, kvFullEnd, kvEnd, st, kvBody);

    Type outElt = cast<RankedTensorType>(out.getType()).getElementType();
    auto [o, l] = finalize(b, loc, State::from(st), nqOfr, outElt,
                           lse != nullptr);
    // Write into the destinations (keeps destination-passing style).
    Value oRes = insert(b, loc, o, out, {zero, zero},
                        {nqOfr, b.getIndexAttr(dv)});
    Value lRes = lse ? insert(b, loc, l, lse, {zero}, {nqOfr}) : Value();
    return {oRes, lRes};
  }

  const TileAttentionOptions &opts;
  Value q, k, v;
  ScoreSpec spec;
  Value outFactor;
  Value nq, nk;
  int64_t dv = 0;
};

} // namespace

/// The parallel forms (`parallel`): every iteration of an scf.forall
/// computes its own rows of o and lse, in the order of the sequential nest,
/// so the results do not depend on how the iterations are scheduled.
///  - fa2: one forall over (batch..., head, full query block), then one over
///    (batch..., head) for the remainder block of each slice;
///  - fa1: one forall over (batch..., head), the key blocks sequential.
static SmallVector<Value> tileAttentionParallel(
    OpBuilder &b, Location loc, const TileAttentionOptions &options,
    ArrayRef<Value> outerUbs, ValueRange inits, Value nq, bool wantLse,
    function_ref<SliceEmitter(OpBuilder &, Location, ValueRange)> emitterAt) {
  SmallVector<OpFoldResult> ubs = getAsOpFoldResult(outerUbs);
  Type outElt = cast<RankedTensorType>(inits[0].getType()).getElementType();
  int64_t bq = options.blockQ;

  if (options.loopOrder == LoopOrder::FA1)
    return parallelBlocks(
        b, loc, ubs, inits,
        [&](OpBuilder &nb, Location nl, ValueRange ivs,
            ValueRange shared) -> SmallVector<ParallelWrite> {
          SliceEmitter emitter = emitterAt(nb, nl, ivs);
          Value o2 = slice2D(nb, nl, shared[0], ivs);
          Value lse1 = wantLse ? slice1D(nb, nl, shared[1], ivs) : Value();
          auto [o, lse] = emitter.emit(nb, nl, o2, lse1);
          SmallVector<ParallelWrite> w{writeAt(nb, o, 0, ivs)};
          if (lse)
            w.push_back(writeAt(nb, lse, 1, ivs));
          return w;
        });

  // FA2: query blocks.
  return blockedParallel(
      b, loc, ubs, nq, bq, inits,
      [&](OpBuilder &nb, Location nl, ValueRange ivs, Value i0,
          OpFoldResult rows) -> SmallVector<Value> {
        SliceEmitter emitter = emitterAt(nb, nl, ivs);
        auto [o, lse] = emitter.queryBlock(nb, nl, i0, rows, outElt, wantLse);
        SmallVector<Value> blocks{o};
        if (lse)
          blocks.push_back(lse);
        return blocks;
      });
}

FailureOr<SmallVector<Value>>
mlir::flash::tileAttention(RewriterBase &rewriter, AttentionOp op,
                           const TileAttentionOptions &options) {
  if (options.blockQ <= 0 || options.blockKV <= 0)
    return rewriter.notifyMatchFailure(op, "block sizes must be positive");
  Location loc = op.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  IndexMath im{rewriter, loc};

  int64_t rank = op.getRank();
  int64_t numOuter = rank - 2; // batch dims and heads
  Value q = op.getQuery(), k = op.getKey(), v = op.getValue();
  Value nq = tensor::DimOp::create(rewriter, loc, q, rank - 2).getResult();
  Value nk = tensor::DimOp::create(rewriter, loc, k, rank - 2).getResult();
  if (auto c = getConstantIntValue(tensor::getMixedSize(rewriter, loc, q, rank - 2)))
    nq = im.c(*c);
  if (auto c = getConstantIntValue(tensor::getMixedSize(rewriter, loc, k, rank - 2)))
    nk = im.c(*c);
  Value off = causalOffset(rewriter, loc, op, nq, nk);

  // GQA: query head h reads kv head h / group.
  Value group;
  if (rank >= 3) {
    OpFoldResult hq = tensor::getMixedSize(rewriter, loc, q, rank - 3);
    OpFoldResult hkv = tensor::getMixedSize(rewriter, loc, k, rank - 3);
    group = rewriter.createOrFold<arith::DivUIOp>(
        loc, getValueOrCreateConstantIndexOp(rewriter, loc, hq),
        getValueOrCreateConstantIndexOp(rewriter, loc, hkv));
  }

  SmallVector<Value> lbs, ubs, steps;
  for (int64_t i = 0; i < numOuter; ++i) {
    lbs.push_back(im.c(0));
    ubs.push_back(getValueOrCreateConstantIndexOp(
        rewriter, loc, tensor::getMixedSize(rewriter, loc, q, i)));
    steps.push_back(im.c(1));
  }
  SmallVector<Value> inits{op.getOutput()};
  if (op.getLseInit())
    inits.push_back(op.getLseInit());

  Value mask = op.getMask();
  // The emitter of the (batch..., head) slice at `ivs`.
  auto emitterAt = [&](OpBuilder &b, Location l, ValueRange ivs) {
    SmallVector<Value> kvIvs(ivs);
    if (rank >= 3 && !isConstantIntValue(group, 1))
      kvIvs.back() = b.createOrFold<arith::DivUIOp>(l, ivs.back(), group);
    ScoreSpec spec;
    spec.scale = op.getScaleValue();
    if (mask)
      sliceHeadMask(b, l, mask, rank, ivs, spec);
    spec.causalOffset = off;
    setModifiers(b, l, op, ivs, spec);
    // fp8: the scores take qd * kd, o takes vd (per tensor, or this kv
    // head's).
    Value outFactor;
    if (!op.getDescales().empty()) {
      auto at = [&](Value d) -> Value {
        bool perHead = cast<RankedTensorType>(d.getType()).getRank() != 0;
        return tensor::ExtractOp::create(
            b, l, d, perHead ? ValueRange(kvIvs) : ValueRange());
      };
      spec.scaleFactor = arith::MulFOp::create(b, l, at(op.getQueryDescale()),
                                               at(op.getKeyDescale()));
      outFactor = at(op.getValueDescale());
    }
    return SliceEmitter(options, slice2D(b, l, q, ivs), slice2D(b, l, k, kvIvs),
                        slice2D(b, l, v, kvIvs), spec, outFactor, nq, nk);
  };
  bool wantLse = static_cast<bool>(op.getLseInit());
  SmallVector<Value> results;
  if (!options.parallel || (numOuter == 0 &&
                            options.loopOrder == LoopOrder::FA1)) {
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps, inits,
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange args) -> scf::ValueVector {
          SliceEmitter emitter = emitterAt(b, l, ivs);
          Value o2 = slice2D(b, l, args[0], ivs);
          Value lse1 = wantLse ? slice1D(b, l, args[1], ivs) : Value();
          auto [o, lse] = emitter.emit(b, l, o2, lse1);
          scf::ValueVector r{insertLeading(b, l, o, args[0], ivs)};
          if (lse)
            r.push_back(insertLeading(b, l, lse, args[1], ivs));
          return r;
        });
    results.assign(nest.results.begin(), nest.results.end());
  } else {
    results = tileAttentionParallel(rewriter, loc, options, ubs, inits, nq,
                                    wantLse, emitterAt);
  }
  rewriter.replaceOp(op, results);
  return results;
}

namespace {
struct TileAttentionPattern : OpRewritePattern<AttentionOp> {
  TileAttentionPattern(MLIRContext *ctx, const TileAttentionOptions &options)
      : OpRewritePattern(ctx), options(options) {}
  LogicalResult matchAndRewrite(AttentionOp op,
                                PatternRewriter &rewriter) const override {
    return failure(failed(tileAttention(rewriter, op, options)));
  }
  TileAttentionOptions options;
};

struct FlashTileAttentionPass
    : flash::impl::FlashTileAttentionBase<FlashTileAttentionPass> {
  using FlashTileAttentionBase::FlashTileAttentionBase;

  void runOnOperation() override {
    TileAttentionOptions options;
    options.blockQ = blockQ;
    options.blockKV = blockKV;
    options.loopOrder = loopOrder;
    options.parallel = parallel;
    if (blockQ <= 0 || blockKV <= 0) {
      getOperation()->emitError("flash-tile-attention: block-q and block-kv "
                                "must be positive, got ")
          << static_cast<int64_t>(blockQ) << " and "
          << static_cast<int64_t>(blockKV);
      return signalPassFailure();
    }
    // Walk instead of a greedy driver: every op is rewritten exactly once
    // and the generated IR is not revisited.
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<AttentionOp, AttentionGradOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      bool ok;
      if (auto fwd = dyn_cast<AttentionOp>(op))
        ok = succeeded(tileAttention(rewriter, fwd, options));
      else
        ok = succeeded(
            tileAttentionGrad(rewriter, cast<AttentionGradOp>(op), options));
      if (!ok) {
        op->emitOpError("could not be lowered to the FlashAttention loop nest");
        return signalPassFailure();
      }
    }
  }
};
} // namespace

void mlir::flash::populateTileAttentionPatterns(
    RewritePatternSet &patterns, const TileAttentionOptions &options) {
  patterns.add<TileAttentionPattern>(patterns.getContext(), options);
}
