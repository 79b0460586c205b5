//===- LinalgMatchers.cpp - The linalg pieces of attention ----------------===//
//
// Matchers shared by the forward and backward raising: (batched) matrix
// products, casts, reductions, softmax (named or decomposed), the score
// chain between Q*K^T and the softmax (scale, masks, causal predicates),
// masks as flash.attention operands, GQA written as repeated heads.
//
//===----------------------------------------------------------------------===//

#include "RaiseAttention.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::raise;


bool raise::isZeroFill(Value v) {
  if (auto fill = v.getDefiningOp<linalg::FillOp>())
    return matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
  return false;
}

bool raise::isFloatTensor(Value v) {
  return isa<FloatType>(getElementTypeOrSelf(v.getType()));
}

FailureOr<BatchedMatmul> raise::matchMatmul(Value result, StringRef what,
                                     Reason &why) {
  auto op = result.getDefiningOp<linalg::LinalgOp>();
  if (!op || !linalg::isaContractionOpInterface(op) ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1) {
    why = ("the input of " + what + " is not a linalg contraction").str();
    return failure();
  }
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1) {
    why = (what + " is not a (batched) matrix product").str();
    return failure();
  }
  MLIRContext *ctx = op->getContext();
  auto expect = [&](ArrayRef<unsigned> tail) {
    SmallVector<AffineExpr> exprs;
    for (unsigned b : dims->batch)
      exprs.push_back(getAffineDimExpr(b, ctx));
    for (unsigned t : tail)
      exprs.push_back(getAffineDimExpr(t, ctx));
    return AffineMap::get(op.getNumLoops(), 0, exprs, ctx);
  };
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  BatchedMatmul mm{op, op.getDpsInputs()[0], op.getDpsInputs()[1],
                   op.getDpsInits()[0]};
  if (maps[2] != expect({m, n}) ||
      (maps[0] != expect({m, k}) && maps[0] != expect({k, m}))) {
    why = (what + " does not index its operands as [batch..., rows, "
                  "reduction] and [batch..., rows, cols]")
              .str();
    return failure();
  }
  mm.lhsTransposed = maps[0] == expect({k, m});
  if (maps[1] == expect({n, k}))
    mm.rhsTransposed = true;
  else if (maps[1] != expect({k, n})) {
    why = (what + " has an unsupported right-hand side layout").str();
    return failure();
  }
  if (!isZeroFill(mm.init)) {
    why = (what + " does not accumulate into a zero-filled tensor").str();
    return failure();
  }
  if (!isFloatTensor(mm.lhs) || !isFloatTensor(mm.rhs) ||
      !isFloatTensor(result)) {
    why = (what + " is not a floating-point product").str();
    return failure();
  }
  return mm;
}

/// An all-parallel generic with identity maps whose body only converts its
/// single input (extf/truncf): the input.
Value raise::throughCast(Value v) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || g.getNumDpsInputs() != 1 || g.getNumDpsInits() != 1 ||
      g.getNumParallelLoops() != g.getNumLoops() ||
      !llvm::all_of(g.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return Value();
  Block &body = g.getRegion().front();
  Value y = yielded(body);
  Operation *def = y.getDefiningOp();
  if (!isa_and_nonnull<arith::ExtFOp, arith::TruncFOp>(def) ||
      def->getOperand(0) != body.getArgument(0))
    return Value();
  return g.getDpsInputs()[0];
}

Value raise::skipCasts(Value v) {
  while (Value in = throughCast(v))
    v = in;
  return v;
}

SmallVector<Value> raise::castFamily(Value root) {
  SmallVector<Value> family{root};
  for (size_t i = 0; i < family.size(); ++i)
    for (Operation *user : family[i].getUsers())
      if (user->getNumResults() == 1 &&
          throughCast(user->getResult(0)) == family[i] &&
          !llvm::is_contained(family, user->getResult(0)))
        family.push_back(user->getResult(0));
  return family;
}

/// True when `v`'s only use is `sink`, possibly through single-use casts.
bool raise::onlyFeeds(Value v, Operation *sink) {
  while (true) {
    if (!v.hasOneUse())
      return false;
    Operation *user = *v.getUsers().begin();
    if (user == sink)
      return true;
    if (user->getNumResults() != 1 || throughCast(user->getResult(0)) != v)
      return false;
    v = user->getResult(0);
  }
}

/// Whether `m` indexes a reduced tensor [dims except `dim`] of an
/// `n`-loop op: identity on the kept dims, the reduced dim dropped or a
/// constant 0 (keepdim).
bool raise::isRowMap(AffineMap m, unsigned n, unsigned dim) {
  unsigned pos = 0;
  for (AffineExpr e : m.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      if (d.getPosition() == dim)
        return false;
      if (pos == dim)
        ++pos;
      if (d.getPosition() != pos++)
        return false;
    } else if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      if (c.getValue() != 0 || pos != dim)
        return false;
      ++pos;
    } else {
      return false;
    }
  }
  return m.getNumDims() == n && (pos == n || (pos == n - 1 && dim == n - 1));
}

std::optional<Reduction> raise::matchReduction(Value v) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || g.getNumDpsInputs() != 1 || g.getNumReductionLoops() != 1)
    return std::nullopt;
  unsigned n = g.getNumLoops();
  SmallVector<utils::IteratorType> iters = g.getIteratorTypesArray();
  unsigned dim = 0;
  for (unsigned i = 0; i < n; ++i)
    if (iters[i] == utils::IteratorType::reduction)
      dim = i;
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  if (!maps[0].isIdentity())
    return std::nullopt;
  for (unsigned r = 1; r < maps.size(); ++r)
    if (!isRowMap(maps[r], n, dim))
      return std::nullopt;
  Block &body = g.getRegion().front();
  Value y = yielded(body);
  Operation *comb = y.getDefiningOp();
  if (!comb || comb->getNumOperands() != 2)
    return std::nullopt;
  Value in = body.getArgument(0), acc = body.getArgument(1);
  if (!((comb->getOperand(0) == in && comb->getOperand(1) == acc) ||
        (comb->getOperand(0) == acc && comb->getOperand(1) == in)))
    return std::nullopt;
  // Other results (torch-mlir's argmax) must be unused.
  for (unsigned r = 1; r < g->getNumResults(); ++r)
    if (!g->getResult(r).use_empty())
      return std::nullopt;
  return Reduction{g, g.getDpsInputs()[0], dim, comb};
}

bool raise::initIs(Value init, function_ref<bool(Value)> pred) {
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    return pred(fill.getInputs()[0]);
  return false;
}


/// `p` = softmax(x) along some dim, as linalg.softmax or decomposed.
/// Returns nullopt when `p` does not look like a softmax at all.
std::optional<SoftmaxMatch> raise::matchSoftmax(Value p, Reason &why) {
  if (auto sm = p.getDefiningOp<linalg::SoftmaxOp>())
    return SoftmaxMatch{sm.getInput(),
                        static_cast<int64_t>(sm.getDimension()),
                        sm,
                        {},
                        {},
                        {}};
  // p = e / sum(e), or e * (1 / sum(e)).
  auto div = p.getDefiningOp<linalg::GenericOp>();
  if (!div || div.getNumDpsInputs() != 2 ||
      div.getNumParallelLoops() != div.getNumLoops())
    return std::nullopt;
  Block &body = div.getRegion().front();
  Operation *y = yielded(body).getDefiningOp();
  if (!y || y->getNumOperands() != 2)
    return std::nullopt;
  bool isDiv = isa<arith::DivFOp>(y), isMul = isa<arith::MulFOp>(y);
  if (!isDiv && !isMul)
    return std::nullopt;
  unsigned n = div.getNumLoops();
  SmallVector<Operation *> ops;
  // Which input is the (full) numerator, which the row denominator.
  int num = -1;
  SmallVector<AffineMap> maps = div.getIndexingMapsArray();
  for (int i = 0; i < 2; ++i)
    if (maps[i].isIdentity() && y->getOperand(isDiv ? 0 : i) ==
                                    body.getArgument(i))
      num = i;
  if (num < 0)
    return std::nullopt;
  int den = 1 - num;
  if (y->getOperand(isDiv ? 1 : 1 - num) != body.getArgument(den))
    return std::nullopt;
  unsigned dim = n - 1;
  bool rowFound = false;
  for (unsigned d = 0; d < n && !rowFound; ++d)
    if (isRowMap(maps[den], n, d)) {
      dim = d;
      rowFound = true;
    }
  if (!rowFound)
    return std::nullopt;
  Value e = div.getDpsInputs()[num];
  Value denom = div.getDpsInputs()[den];
  if (isMul) {
    // denom = 1 / sum.
    auto rec = denom.getDefiningOp<linalg::GenericOp>();
    if (!rec || rec.getNumDpsInputs() != 1)
      return std::nullopt;
    Block &rb = rec.getRegion().front();
    auto rdiv = yielded(rb).getDefiningOp<arith::DivFOp>();
    std::optional<double> one =
        rdiv ? floatConstant(rdiv.getLhs()) : std::nullopt;
    if (!rdiv || !one || *one != 1.0 || rdiv.getRhs() != rb.getArgument(0))
      return std::nullopt;
    denom = rec.getDpsInputs()[0];
    ops.push_back(rec);
  }
  std::optional<Reduction> sum = matchReduction(denom);
  if (!sum || !isa<arith::AddFOp>(sum->combiner) || sum->input != e ||
      !initIs(sum->op.getDpsInits()[0],
              [](Value c) { return matchPattern(c, m_AnyZeroFloat()); }))
    return std::nullopt;
  if (sum->dim != dim)
    return std::nullopt;
  ops.push_back(sum->op);
  Value sumV = denom;
  // e = exp(x - max(x)) or exp(x); possibly as two generics.
  auto expG = e.getDefiningOp<linalg::GenericOp>();
  if (!expG || expG.getNumParallelLoops() != expG.getNumLoops())
    return std::nullopt;
  Block &eb = expG.getRegion().front();
  auto ex = yielded(eb).getDefiningOp<math::ExpOp>();
  if (!ex)
    return std::nullopt;
  ops.push_back(expG);
  Value arg = ex.getOperand();
  Value x;
  Value maxV;
  SmallVector<AffineMap> emaps = expG.getIndexingMapsArray();
  auto inputOf = [&](Value blockArg) -> Value {
    auto ba = dyn_cast<BlockArgument>(blockArg);
    if (!ba || ba.getOwner() != &eb ||
        ba.getArgNumber() >= expG.getNumDpsInputs())
      return Value();
    return expG.getDpsInputs()[ba.getArgNumber()];
  };
  if (auto sub = arg.getDefiningOp<arith::SubFOp>()) {
    auto ba = dyn_cast<BlockArgument>(sub.getLhs());
    auto bm = dyn_cast<BlockArgument>(sub.getRhs());
    if (!ba || !bm || !emaps[ba.getArgNumber()].isIdentity() ||
        !isRowMap(emaps[bm.getArgNumber()], n, dim))
      return std::nullopt;
    x = inputOf(sub.getLhs());
    maxV = inputOf(sub.getRhs());
  } else if (isa<BlockArgument>(arg) &&
             emaps[cast<BlockArgument>(arg).getArgNumber()].isIdentity()) {
    Value t = inputOf(arg);
    // exp(t) where t = x - max (a separate generic), or the unstabilized
    // exp(x).
    auto subG = t ? t.getDefiningOp<linalg::GenericOp>() : nullptr;
    if (subG && subG.getNumDpsInputs() == 2) {
      Block &sb = subG.getRegion().front();
      auto sub = yielded(sb).getDefiningOp<arith::SubFOp>();
      SmallVector<AffineMap> smaps = subG.getIndexingMapsArray();
      auto ba = sub ? dyn_cast<BlockArgument>(sub.getLhs()) : BlockArgument();
      auto bm = sub ? dyn_cast<BlockArgument>(sub.getRhs()) : BlockArgument();
      if (sub && ba && bm && smaps[ba.getArgNumber()].isIdentity() &&
          isRowMap(smaps[bm.getArgNumber()], n, dim)) {
        x = subG.getDpsInputs()[ba.getArgNumber()];
        maxV = subG.getDpsInputs()[bm.getArgNumber()];
        ops.push_back(subG);
      }
    }
    if (!x)
      x = t; // unstabilized
  } else {
    return std::nullopt;
  }
  if (!x)
    return std::nullopt;
  if (maxV) {
    std::optional<Reduction> mx = matchReduction(maxV);
    if (!mx || mx->input != x || mx->dim != dim ||
        !isa<arith::MaximumFOp, arith::MaxNumFOp>(mx->combiner) ||
        !initIs(mx->op.getDpsInits()[0],
                [](Value c) { return isNegInfLike(c); }))
      return std::nullopt;
    ops.push_back(mx->op);
  }
  return SoftmaxMatch{x, static_cast<int64_t>(dim), div, maxV, sumV,
                      std::move(ops)};
}

Operation *raise::matchLogSumExp(const SoftmaxMatch &sm, Operation *user) {
  auto g = dyn_cast<linalg::GenericOp>(user);
  if (!sm.sumV || !g || g->getNumResults() != 1 ||
      g.getNumParallelLoops() != g.getNumLoops() ||
      g.getNumDpsInputs() != (sm.maxV ? 2u : 1u) ||
      !getElementTypeOrSelf(g->getResult(0).getType()).isF32())
    return nullptr;
  // Both rows are read the same way, element by element.
  auto sumTy = cast<RankedTensorType>(sm.sumV.getType());
  for (auto [in, map] :
       llvm::zip(g.getDpsInputs(), g.getIndexingMapsArray()))
    if (in.getType() != sumTy || !map.isIdentity())
      return nullptr;
  if (g->getResult(0).getType() != sumTy)
    return nullptr;
  Block &b = g.getRegion().front();
  auto argOf = [&](Value input) -> Value {
    for (auto [i, in] : llvm::enumerate(g.getDpsInputs()))
      if (in == input)
        return b.getArgument(i);
    return Value();
  };
  Value sumArg = argOf(sm.sumV);
  Value y = yielded(b);
  auto isLogOfSum = [&](Value v) {
    auto log = v.getDefiningOp<math::LogOp>();
    return sumArg && log && log.getOperand() == sumArg;
  };
  if (!sm.maxV)
    return isLogOfSum(y) ? g.getOperation() : nullptr;
  Value maxArg = argOf(sm.maxV);
  auto add = y.getDefiningOp<arith::AddFOp>();
  if (!maxArg || !add)
    return nullptr;
  for (int s = 0; s < 2; ++s)
    if (add->getOperand(s) == maxArg && isLogOfSum(add->getOperand(1 - s)))
      return g.getOperation();
  return nullptr;
}

//===----------------------------------------------------------------------===//
// The score chain
//===----------------------------------------------------------------------===//



namespace {

/// value = index(dim) + constant.
struct IndexTerm {
  int64_t dim = -1;
  int64_t c = 0;
};
std::optional<IndexTerm> indexTerm(Value v) {
  if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
    v = cast.getIn();
  if (auto idx = v.getDefiningOp<linalg::IndexOp>())
    return IndexTerm{static_cast<int64_t>(idx.getDim()), 0};
  if (auto add = v.getDefiningOp<arith::AddIOp>()) {
    APInt c;
    for (int s = 0; s < 2; ++s)
      if (matchPattern(add->getOperand(1 - s), m_ConstantInt(&c)))
        if (auto t = indexTerm(add->getOperand(s)))
          return IndexTerm{t->dim, t->c + c.getSExtValue()};
  }
  if (auto sub = v.getDefiningOp<arith::SubIOp>()) {
    APInt c;
    if (matchPattern(sub.getRhs(), m_ConstantInt(&c)))
      if (auto t = indexTerm(sub.getLhs()))
        return IndexTerm{t->dim, t->c - c.getSExtValue()};
  }
  return std::nullopt;
}

/// The predicate with its operands swapped (a < b  <=>  b > a).
arith::CmpIPredicate swapOperands(arith::CmpIPredicate p) {
  using P = arith::CmpIPredicate;
  switch (p) {
  case P::slt: return P::sgt;
  case P::sgt: return P::slt;
  case P::sle: return P::sge;
  case P::sge: return P::sle;
  case P::ult: return P::ugt;
  case P::ugt: return P::ult;
  case P::ule: return P::uge;
  case P::uge: return P::ule;
  default: return p;
  }
}

/// The causal offset o such that `pred` (when `visibleWhenTrue`) means key
/// j <= query i + o, for the query loop dim `qd` and key loop dim `kd`.
std::optional<int64_t> causalOffsetOf(Value pred, bool visibleWhenTrue,
                                      int64_t qd, int64_t kd) {
  auto cmp = pred.getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return std::nullopt;
  auto l = indexTerm(cmp.getLhs()), r = indexTerm(cmp.getRhs());
  if (!l || !r)
    return std::nullopt;
  using P = arith::CmpIPredicate;
  P p = cmp.getPredicate();
  // Normalize to key on the left.
  if (l->dim == qd && r->dim == kd) {
    std::swap(l, r);
    p = swapOperands(p);
  } else if (!(l->dim == kd && r->dim == qd)) {
    return std::nullopt;
  }
  if (!visibleWhenTrue)
    p = arith::invertPredicate(p);
  // j + a (p) i + b.
  int64_t a = l->c, b = r->c;
  switch (p) {
  case P::sle:
  case P::ule:
    return b - a;
  case P::slt:
  case P::ult:
    return b - a - 1;
  default:
    return std::nullopt;
  }
}

/// Walks the body of one elementwise score generic from its yield down to
/// the score argument, accumulating into `chain`. `scaled` is whether a
/// scale has been applied outside of this point.
Reason analyzeScoreBody(linalg::GenericOp g, unsigned scoreArg,
                        ScoreChain &chain, bool &scaled) {
  Block &body = g.getRegion().front();
  unsigned n = g.getNumLoops();
  int64_t qd = n - 2, kd = n - 1;
  Value v = yielded(body);
  auto inputArg = [&](Value x) -> std::optional<unsigned> {
    if (auto cast = x.getDefiningOp<arith::ExtFOp>())
      x = cast.getIn();
    auto ba = dyn_cast<BlockArgument>(x);
    if (!ba || ba.getOwner() != &body ||
        ba.getArgNumber() >= g.getNumDpsInputs() ||
        ba.getArgNumber() == scoreArg)
      return std::nullopt;
    return ba.getArgNumber();
  };
  while (v != body.getArgument(scoreArg)) {
    Operation *op = v.getDefiningOp();
    if (!op || op->getBlock() != &body)
      return "the scores are combined with something other than a scale, a "
             "mask or a causal predicate";
    if (isa<arith::ExtFOp, arith::TruncFOp>(op)) {
      v = op->getOperand(0);
    } else if (isa<arith::MulFOp>(op)) {
      std::optional<double> c0 = floatConstant(op->getOperand(0));
      std::optional<double> c1 = floatConstant(op->getOperand(1));
      if (!c0 && !c1)
        return "the scores are multiplied by something that varies per "
               "element (not a constant scale)";
      double c = c1 ? *c1 : *c0;
      if (!(c > 0))
        return "the scale is not positive";
      chain.scale *= c;
      scaled = true;
      v = op->getOperand(c1 ? 0 : 1);
    } else if (auto div = dyn_cast<arith::DivFOp>(op)) {
      std::optional<double> c = floatConstant(div.getRhs());
      if (!c)
        return "the scores are divided by something that varies per element "
               "(not a constant scale)";
      if (!(*c > 0))
        return "the scale is not positive";
      chain.scale /= *c;
      scaled = true;
      v = div.getLhs();
    } else if (isa<arith::AddFOp>(op)) {
      std::optional<unsigned> m0 = inputArg(op->getOperand(0));
      std::optional<unsigned> m1 = inputArg(op->getOperand(1));
      if (!m0 && !m1)
        return "the scores are added to something that is not a mask tensor";
      if (chain.addMask)
        return "more than one additive mask";
      // Walking outside-in: a scale already seen is applied after the mask.
      if (scaled)
        return "the additive mask is scaled together with the scores";
      unsigned a = m1 ? *m1 : *m0;
      chain.addMask = MaskUse{g.getDpsInputs()[a], g.getIndexingMapsArray()[a]};
      v = op->getOperand(m1 ? 0 : 1);
    } else if (auto sel = dyn_cast<arith::SelectOp>(op)) {
      bool visibleWhenTrue;
      if (isNegInfLike(sel.getFalseValue())) {
        visibleWhenTrue = true;
        v = sel.getTrueValue();
      } else if (isNegInfLike(sel.getTrueValue())) {
        visibleWhenTrue = false;
        v = sel.getFalseValue();
      } else {
        return "a select on the scores does not pick -inf";
      }
      Value pred = sel.getCondition();
      if (auto c = causalOffsetOf(pred, visibleWhenTrue, qd, kd)) {
        if (chain.causalOffset)
          return "more than one causal predicate";
        chain.causalOffset = *c;
      } else if (auto a = inputArg(pred)) {
        if (!visibleWhenTrue)
          return "an i1 mask selects -inf where it is true (an inverted "
                 "keep-mask)";
        if (chain.keepMask)
          return "more than one boolean mask";
        chain.keepMask =
            MaskUse{g.getDpsInputs()[*a], g.getIndexingMapsArray()[*a]};
      } else {
        return "a mask depends on something other than an i1 tensor or the "
               "query/key positions (e.g. on the scores)";
      }
    } else {
      return ("the scores go through '" + op->getName().getStringRef() +
              "', which is not part of attention")
          .str();
    }
  }
  return "";
}

} // namespace

/// From the softmax input up to Q*K^T through elementwise generics.
Reason raise::analyzeScoreChain(Value x, ScoreChain &chain) {
  bool scaled = false;
  while (true) {
    auto g = x.getDefiningOp<linalg::GenericOp>();
    if (!g || linalg::isaContractionOpInterface(g))
      break;
    if (g.getNumParallelLoops() != g.getNumLoops() ||
        g.getNumDpsInits() != 1 || g->getNumResults() != 1 ||
        !g.getIndexingMapsArray().back().isIdentity())
      return "the scores go through a generic that is not elementwise";
    // The score input: the one identity-mapped float input that is not a
    // mask; try each and keep the first that analyzes.
    Reason last = "the scores go through a generic without a score input";
    bool found = false;
    for (OpOperand *in : g.getDpsInputOperands()) {
      if (!g.getMatchingIndexingMap(in).isIdentity() ||
          !isFloatTensor(in->get()))
        continue;
      ScoreChain trial = chain;
      bool trialScaled = scaled;
      Reason r = analyzeScoreBody(g, in->getOperandNumber(), trial,
                                  trialScaled);
      if (r.empty()) {
        chain = trial;
        scaled = trialScaled;
        x = in->get();
        found = true;
        break;
      }
      last = r;
    }
    if (!found)
      return last;
    if (!x.hasOneUse())
      return "the scores have other uses than the softmax";
  }
  chain.scores = x;
  return "";
}

/// The tensor to pass as flash.attention's mask for a mask read with `use.map`
/// by an op whose loops are [B..., Nq, Nk]: right-aligned, with unit dims
/// inserted where the map skips a loop dim.
FailureOr<Value> raise::maskOperand(RewriterBase &rewriter, Location loc,
                             const MaskUse &use, unsigned numLoops,
                             Reason &why) {
  auto ty = cast<RankedTensorType>(use.tensor.getType());
  SmallVector<int64_t> target; // loop dim (or -1 for a unit constant) per res
  for (AffineExpr e : use.map.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      target.push_back(d.getPosition());
    else if (auto c = dyn_cast<AffineConstantExpr>(e); c && c.getValue() == 0)
      target.push_back(-1);
    else {
      why = "the mask is indexed in a way that is not a broadcast";
      return failure();
    }
  }
  // Constant-0 results read a unit dim; they must keep the position of the
  // loop dim they broadcast over, so only dims are checked for order.
  int64_t prev = -1;
  for (auto [i, t] : llvm::enumerate(target)) {
    if (t == -1) {
      if (ty.getDimSize(i) != 1) {
        why = "the mask reads index 0 of a dim that is not 1";
        return failure();
      }
      continue;
    }
    if (t <= prev) {
      why = "the mask's dims are permuted";
      return failure();
    }
    prev = t;
  }
  if (target.empty() || target.back() != static_cast<int64_t>(numLoops) - 1) {
    why = "the mask does not vary along the keys' dim";
    return failure();
  }
  // Positions: a present result at its loop dim; constant-0 results take the
  // next position. The mask is right-aligned from its first position.
  SmallVector<int64_t> pos;
  int64_t next = 0;
  for (int64_t t : target) {
    int64_t p = t == -1 ? next : t;
    pos.push_back(p);
    next = p + 1;
  }
  int64_t first = pos.front();
  int64_t outRank = numLoops - first;
  if (static_cast<int64_t>(pos.size()) == outRank)
    return use.tensor; // already right-aligned
  if (!ty.hasStaticShape()) {
    why = "a mask that needs unit dims inserted must have a static shape";
    return failure();
  }
  SmallVector<int64_t> shape(outRank, 1);
  SmallVector<ReassociationIndices> groups;
  for (auto [i, p] : llvm::enumerate(pos)) {
    shape[p - first] = ty.getDimSize(i);
    ReassociationIndices grp{p - first};
    int64_t end = i + 1 < pos.size() ? pos[i + 1] : numLoops;
    for (int64_t q = p + 1; q < end; ++q)
      grp.push_back(q - first);
    groups.push_back(grp);
  }
  auto outTy = RankedTensorType::get(shape, ty.getElementType());
  return tensor::ExpandShapeOp::create(rewriter, loc, outTy, use.tensor, groups)
      .getResult();
}

/// K (or V) with GQA written as a repeat: collapse_shape([B.., Hkv, G, N, D]
/// -> [B.., Hkv*G, N, D]) of a broadcast of [B.., Hkv, N, D] along G.
/// Returns the unrepeated tensor and G, or the value itself and 1.
std::pair<Value, int64_t> raise::unrepeatHeads(Value t) {
  auto collapse = t.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse)
    return {t, 1};
  SmallVector<ReassociationIndices> groups =
      collapse.getReassociationIndices();
  int64_t rank = cast<RankedTensorType>(t.getType()).getRank();
  if (rank < 3)
    return {t, 1};
  // The head dim (rank - 3 of the result) must come from exactly (h, g).
  for (int64_t i = 0; i < rank; ++i)
    if (static_cast<int64_t>(groups[i].size()) != (i == rank - 3 ? 2 : 1))
      return {t, 1};
  unsigned gDim = groups[rank - 3][1];
  Value src = collapse.getSrc();
  Value base;
  if (auto bc = src.getDefiningOp<linalg::BroadcastOp>()) {
    if (bc.getDimensions() != ArrayRef<int64_t>{static_cast<int64_t>(gDim)})
      return {t, 1};
    base = bc.getInput();
  } else if (auto g = src.getDefiningOp<linalg::GenericOp>()) {
    // A generic broadcast: out = in, with the input map skipping gDim.
    if (g.getNumDpsInputs() != 1 ||
        g.getNumParallelLoops() != g.getNumLoops())
      return {t, 1};
    Block &body = g.getRegion().front();
    if (yielded(body) != body.getArgument(0))
      return {t, 1};
    AffineMap in = g.getIndexingMapsArray()[0];
    AffineMap expect = g.getIndexingMapsArray()[1].dropResult(gDim);
    if (in != expect)
      return {t, 1};
    base = g.getDpsInputs()[0];
  } else {
    return {t, 1};
  }
  int64_t groupSize =
      cast<RankedTensorType>(src.getType()).getDimSize(gDim);
  if (ShapedType::isDynamic(groupSize))
    return {t, 1};
  return {base, groupSize};
}

/// K from the right-hand side of Q K^T: the operand itself when the product
/// reads it transposed, else what a last-two-dims linalg.transpose read, else
/// a new transpose (`created` is set then).
Value raise::keyFromRhs(RewriterBase &rewriter, Location loc,
                 const BatchedMatmul &qk, bool &created) {
  created = false;
  if (qk.rhsTransposed)
    return qk.rhs;
  auto rhsTy = cast<RankedTensorType>(qk.rhs.getType());
  int64_t r = rhsTy.getRank();
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, r));
  std::swap(perm[r - 1], perm[r - 2]);
  if (auto t = qk.rhs.getDefiningOp<linalg::TransposeOp>())
    if (t.getPermutation() == ArrayRef<int64_t>(perm))
      return t.getInput();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfterValue(qk.rhs);
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(rewriter, loc, qk.rhs);
  std::swap(sizes[r - 1], sizes[r - 2]);
  Value empty = tensor::EmptyOp::create(rewriter, loc, sizes,
                                        rhsTy.getElementType());
  created = true;
  return linalg::TransposeOp::create(rewriter, loc, qk.rhs, empty, perm)
      .getResult()[0];
}

