//===- RaiseAttentionGrad.cpp - The autodiff graph -> flash.attention_grad ===//
//
// The backward of attention as autodiff emits it for the forward forms,
// with the saved probabilities P reused:
//
//   dV = P^T dO                           a product reading P transposed
//   dP = dO V^T                           V read transposed (or transposed)
//   r  = rowsum(dP * P)                   one reduction, or a product then a
//                                         sum
//   dS = P * (dP - r)                     one elementwise generic
//   dS' = dS * scale                      optional (the forward's scale)
//   dQ = dS' K ;  dK = dS'^T Q
//
// When P's uses are exactly the forward's P*V and this graph, the forward
// becomes flash.attention producing lse and the backward
// flash.attention_grad reading it: P, dP and dS (all N x N) disappear.
//
//===----------------------------------------------------------------------===//

#include "RaiseAttention.h"
#include "flash/Dialect/Flash/IR/FlashOps.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"

#include <cmath>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::raise;

namespace {

bool isElementwise(linalg::GenericOp g) {
  return g && g.getNumParallelLoops() == g.getNumLoops() &&
         g.getNumDpsInits() == 1 && g->getNumResults() == 1 &&
         g.getIndexingMapsArray().back().isIdentity();
}

/// The input operand of generic `g` that block argument `a` stands for.
Value inputOf(linalg::GenericOp g, Value a) {
  auto ba = dyn_cast<BlockArgument>(a);
  if (!ba || ba.getOwner() != &g.getRegion().front() ||
      ba.getArgNumber() >= g.getNumDpsInputs())
    return Value();
  return g.getDpsInputs()[ba.getArgNumber()];
}

/// `r` = rowsum(a * b) over the last dim (one reduction generic with two
/// inputs, or a sum of an elementwise product); returns {a, b}.
std::optional<std::pair<Value, Value>> matchRowDot(Value r) {
  auto g = r.getDefiningOp<linalg::GenericOp>();
  if (!g)
    return std::nullopt;
  if (std::optional<Reduction> red = matchReduction(r)) {
    // sum(t) with t = a * b elementwise.
    auto t = red->input.getDefiningOp<linalg::GenericOp>();
    if (!isa<arith::AddFOp>(red->combiner) || !isElementwise(t) ||
        t.getNumDpsInputs() != 2 || !t->hasOneUse() ||
        !initIs(red->op.getDpsInits()[0],
                [](Value c) { return matchPattern(c, m_AnyZeroFloat()); }))
      return std::nullopt;
    Block &b = t.getRegion().front();
    auto mul = yielded(b).getDefiningOp<arith::MulFOp>();
    if (!mul || !llvm::all_of(t.getIndexingMapsArray(),
                              [](AffineMap m) { return m.isIdentity(); }))
      return std::nullopt;
    Value x = inputOf(t, mul.getLhs()), y = inputOf(t, mul.getRhs());
    if (!x || !y)
      return std::nullopt;
    return std::make_pair(x, y);
  }
  // One generic: acc + a * b, reduced over the last dim.
  unsigned n = g.getNumLoops();
  if (g.getNumDpsInputs() != 2 || g.getNumReductionLoops() != 1 ||
      g.getIteratorTypesArray().back() != utils::IteratorType::reduction)
    return std::nullopt;
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  if (!maps[0].isIdentity() || !maps[1].isIdentity() ||
      !isRowMap(maps[2], n, n - 1) ||
      !initIs(g.getDpsInits()[0],
              [](Value c) { return matchPattern(c, m_AnyZeroFloat()); }))
    return std::nullopt;
  Block &b = g.getRegion().front();
  auto add = yielded(b).getDefiningOp<arith::AddFOp>();
  if (!add)
    return std::nullopt;
  Value acc = b.getArgument(2);
  Value prodV = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  auto mul = prodV.getDefiningOp<arith::MulFOp>();
  if (!mul || (add.getLhs() != acc && add.getRhs() != acc))
    return std::nullopt;
  Value x = inputOf(g, mul.getLhs()), y = inputOf(g, mul.getRhs());
  if (!x || !y)
    return std::nullopt;
  return std::make_pair(x, y);
}

/// dS = P * (dP - r), P possibly through casts: returns {dP, r}.
std::optional<std::pair<Value, Value>> matchSoftmaxGrad(linalg::GenericOp g,
                                                        Value p) {
  if (!isElementwise(g) || g.getNumDpsInputs() != 3)
    return std::nullopt;
  Block &b = g.getRegion().front();
  auto mul = yielded(b).getDefiningOp<arith::MulFOp>();
  if (!mul)
    return std::nullopt;
  for (int s = 0; s < 2; ++s) {
    Value pa = mul->getOperand(s);
    auto sub = mul->getOperand(1 - s).getDefiningOp<arith::SubFOp>();
    if (!sub || skipCasts(inputOf(g, pa)) != p)
      continue;
    Value dp = inputOf(g, sub.getLhs()), r = inputOf(g, sub.getRhs());
    if (!dp || !r)
      continue;
    unsigned n = g.getNumLoops();
    auto mapOf = [&](Value blockArg) {
      return g.getIndexingMapsArray()[cast<BlockArgument>(blockArg)
                                          .getArgNumber()];
    };
    if (!mapOf(pa).isIdentity() || !mapOf(sub.getLhs()).isIdentity() ||
        !isRowMap(mapOf(sub.getRhs()), n, n - 1))
      continue;
    return std::make_pair(dp, r);
  }
  return std::nullopt;
}

/// `v` = elementwise x * c: returns {x, c}.
std::optional<std::pair<Value, double>> matchScaled(Value v) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!isElementwise(g) || g.getNumDpsInputs() != 1)
    return std::nullopt;
  Block &b = g.getRegion().front();
  auto mul = yielded(b).getDefiningOp<arith::MulFOp>();
  if (!mul)
    return std::nullopt;
  for (int s = 0; s < 2; ++s)
    if (mul->getOperand(s) == b.getArgument(0))
      if (auto c = floatConstant(mul->getOperand(1 - s)))
        return std::make_pair(g.getDpsInputs()[0], *c);
  return std::nullopt;
}

} // namespace

Reason raise::raiseJointAt(RewriterBase &rewriter, Location loc, Value p,
                           Operation *pvOp, const AttentionParts &fwd,
                           Value kRows, Value kCols) {
  // P's other uses: dV, dS and the rowsum, reading P or a cast of it (an
  // f16/bf16 graph truncates P for the products and may extend it back).
  SmallVector<Value> pForms = castFamily(p);
  auto isP = [&](Value v) { return v && skipCasts(v) == p; };
  Operation *dvOp = nullptr, *dsOp = nullptr, *rowOp = nullptr;
  Value dO;
  Reason why;
  bool unknownUse = false;
  SmallPtrSet<Operation *, 8> seen;
  for (Value form : pForms)
    for (Operation *user : form.getUsers()) {
      if (user == pvOp || !seen.insert(user).second ||
          (user->getNumResults() == 1 &&
           llvm::is_contained(pForms, user->getResult(0))))
        continue;
      if (user->getNumResults() != 1) {
        unknownUse = true;
        continue;
      }
      Value res = user->getResult(0);
      auto g = dyn_cast<linalg::GenericOp>(user);
      if (g && !dsOp && matchSoftmaxGrad(g, p)) {
        dsOp = user;
        continue;
      }
      // rowsum(dP * P) as one generic, or the product feeding a sum.
      if (g && !rowOp &&
          (matchRowDot(res) ||
           (res.hasOneUse() &&
            matchRowDot((*res.getUsers().begin())->getResult(0))))) {
        rowOp = user;
        continue;
      }
      if (auto lo = dyn_cast<linalg::LinalgOp>(user);
          lo && linalg::isaContractionOpInterface(lo)) {
        FailureOr<BatchedMatmul> mm = matchMatmul(res, "dV", why);
        if (failed(mm) || !isP(mm->lhs) || !mm->lhsTransposed ||
            mm->rhsTransposed || dvOp)
          return "the probabilities feed a product that is not dV = P^T dO";
        dvOp = user;
        dO = skipCasts(mm->rhs);
        continue;
      }
      unknownUse = true;
    }
  if (unknownUse && !dvOp && !dsOp && !rowOp)
    return "the probabilities have other uses than the P*V product";
  if (unknownUse)
    return "the probabilities have other uses than the P*V product and its "
           "backward";
  if (!dvOp || !dsOp || !rowOp)
    return "the probabilities have other uses than the P*V product (and no "
           "complete backward: dV = P^T dO, dS = P * (dP - rowsum(dP * P)))";
  auto [dp, r] = *matchSoftmaxGrad(cast<linalg::GenericOp>(dsOp), p);
  auto rd = matchRowDot(r);
  Value dpRoot = skipCasts(dp);
  auto isDP = [&](Value v) { return skipCasts(v) == dpRoot; };
  if (!rd || !((isDP(rd->first) && isP(rd->second)) ||
               (isP(rd->first) && isDP(rd->second))))
    return "the softmax gradient does not subtract rowsum(dP * P)";
  Operation *rowRoot = r.getDefiningOp();
  if (rowOp != rowRoot && rowOp != rd->first.getDefiningOp() &&
      !(rowOp->getNumResults() == 1 &&
        llvm::is_contained(rowRoot->getOperands(), rowOp->getResult(0))))
    return "the probabilities have other uses than the P*V product and its "
           "backward";
  FailureOr<BatchedMatmul> dpm = matchMatmul(skipCasts(dp), "dP", why);
  if (failed(dpm))
    return why;
  if (skipCasts(dpm->lhs) != dO || dpm->lhsTransposed)
    return "dP is not dO V^T with the dO of dV";
  auto sameAs = [](Value a, Value b) { return skipCasts(a) == skipCasts(b); };
  bool vOk = (dpm->rhsTransposed && sameAs(dpm->rhs, fwd.v));
  if (!vOk && !dpm->rhsTransposed)
    if (auto t = skipCasts(dpm->rhs).getDefiningOp<linalg::TransposeOp>())
      vOk = sameAs(t.getInput(), fwd.v);
  if (!vOk)
    return "dP does not read the forward's V";

  // dS' = dS * scale (and casts, in f16/bf16 graphs), then dQ = dS' K and
  // dK = dS'^T Q.
  Value ds = dsOp->getResult(0);
  double scaleB = 1.0;
  while (ds.hasOneUse()) {
    Operation *user = *ds.getUsers().begin();
    if (user->getNumResults() != 1)
      break;
    Value next = user->getResult(0);
    if (throughCast(next) == ds) {
      ds = next;
      continue;
    }
    auto sc = matchScaled(next);
    if (!sc || sc->first != ds)
      break;
    scaleB *= sc->second;
    ds = next;
  }
  Operation *dqOp = nullptr, *dkOp = nullptr;
  for (Operation *user : ds.getUsers()) {
    if (user->getNumResults() != 1)
      return "dS feeds an op that is not dQ or dK";
    FailureOr<BatchedMatmul> mm = matchMatmul(user->getResult(0), "dQ", why);
    if (failed(mm) || mm->lhs != ds)
      return "dS feeds an op that is not dQ = dS K or dK = dS^T Q";
    if (!mm->lhsTransposed &&
        ((!mm->rhsTransposed && sameAs(mm->rhs, kRows)) ||
         (mm->rhsTransposed && kCols && sameAs(mm->rhs, kCols))))
      dqOp = user;
    else if (mm->lhsTransposed && !mm->rhsTransposed &&
             sameAs(mm->rhs, fwd.q))
      dkOp = user;
    else
      return "dS feeds a product that is not dQ = dS K or dK = dS^T Q";
  }
  if (!dqOp || !dkOp)
    return "the backward does not compute both dQ and dK";
  // The scale may also be applied to the products' results (dQ = (dS K) c,
  // dK = (dS^T Q) c): then those scaled values are what the grad replaces.
  auto postScale = [&](Operation *&op) -> std::optional<double> {
    Value r = op->getResult(0);
    if (!r.hasOneUse())
      return std::nullopt;
    Operation *user = *r.getUsers().begin();
    if (user->getNumResults() != 1)
      return std::nullopt;
    auto sc = matchScaled(user->getResult(0));
    if (!sc || sc->first != r)
      return std::nullopt;
    op = user;
    return sc->second;
  };
  auto close = [](double a, double b) {
    return std::abs(a - b) <= 1e-6 * std::max(std::abs(a), std::abs(b));
  };
  if (!close(scaleB, fwd.scale)) {
    Operation *dqScaled = dqOp, *dkScaled = dkOp;
    std::optional<double> cq = postScale(dqScaled), ck = postScale(dkScaled);
    if (!cq || !ck || !close(*cq, *ck) || !close(scaleB * *cq, fwd.scale))
      return "the backward's scale differs from the forward's";
    dqOp = dqScaled;
    dkOp = dkScaled;
  }
  for (Operation *op : {dqOp, dkOp, dvOp})
    if (op->getBlock() != pvOp->getBlock())
      return "the backward is not in the forward's block";
  // Everything is computed in the forward output's element type: f16/bf16
  // inputs of an f32-accumulating graph are extended (O(N * D) copies).
  Value oRes = pvOp->getResult(0);
  auto oTy = cast<RankedTensorType>(oRes.getType());
  Type ct = oTy.getElementType();
  for (Operation *op : {dqOp, dkOp, dvOp})
    if (getElementTypeOrSelf(op->getResult(0).getType()) != ct)
      return "the gradients' element type differs from the forward output's";
  for (Value t : {fwd.q, fwd.k, fwd.v, dO})
    if (getElementTypeOrSelf(t.getType()).getIntOrFloatBitWidth() >
        ct.getIntOrFloatBitWidth())
      return "an input is wider than the forward output";

  // Build: flash.attention with lse, flash.attention_grad reading it.
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(pvOp);
  Value q = widenTo(rewriter, loc, fwd.q, ct);
  Value k = widenTo(rewriter, loc, fwd.k, ct);
  Value v = widenTo(rewriter, loc, fwd.v, ct);
  Value dOc;
  // On failure: the extended copies made here go again.
  auto dropCopies = [&]() {
    SmallVector<Operation *> made;
    for (auto [mine, orig] : llvm::zip(SmallVector<Value>{q, k, v, dOc},
                                       SmallVector<Value>{fwd.q, fwd.k, fwd.v,
                                                          dO}))
      if (mine && mine != orig)
        made.push_back(mine.getDefiningOp());
    eraseDeadFrom(rewriter, made);
  };
  SmallVector<OpFoldResult> oSizes = tensor::getMixedSizes(rewriter, loc, oRes);
  Value oInit = tensor::EmptyOp::create(rewriter, loc, oSizes,
                                        oTy.getElementType());
  SmallVector<OpFoldResult> lseSizes(oSizes.begin(), oSizes.end() - 1);
  Value lseInit = tensor::EmptyOp::create(rewriter, loc, lseSizes,
                                          rewriter.getF32Type());
  FloatAttr scale = rewriter.getF32FloatAttr(static_cast<float>(fwd.scale));
  UnitAttr causal = fwd.causalOffset ? rewriter.getUnitAttr() : nullptr;
  IntegerAttr offset =
      fwd.causalOffset ? rewriter.getI64IntegerAttr(*fwd.causalOffset)
                       : nullptr;
  auto attn = AttentionOp::create(rewriter, loc,
                                  TypeRange{oTy, lseInit.getType()}, q, k, v,
                                  fwd.mask, oInit, lseInit, scale,
                                  causal, offset);
  // A log-sum-exp the program also returns is served by the lse result.
  Value lseRepl;
  if (fwd.lse &&
      !(lseRepl = lseAs(rewriter, loc, attn.getLse(),
                        cast<RankedTensorType>(fwd.lse.getType())))) {
    rewriter.eraseOp(attn);
    dropCopies();
    return "the log-sum-exp is not laid out as [batch..., rows]";
  }
  // The grad goes after the last of its operands' producers (dO may be
  // defined after the forward).
  Operation *last = dqOp;
  for (Operation *op : {dkOp, dvOp})
    if (last->isBeforeInBlock(op))
      last = op;
  rewriter.setInsertionPoint(last);
  dOc = widenTo(rewriter, loc, dO, ct);
  SmallVector<Value> inits;
  for (Operation *op : {dqOp, dkOp, dvOp}) {
    Value res = op->getResult(0);
    inits.push_back(tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, res),
        getElementTypeOrSelf(res.getType())));
  }
  auto grad = AttentionGradOp::create(
      rewriter, loc,
      TypeRange{dqOp->getResult(0).getType(), dkOp->getResult(0).getType(),
                dvOp->getResult(0).getType()},
      q, k, v, attn.getResult(), attn.getLse(), dOc, fwd.mask,
      inits[0], inits[1], inits[2], scale, causal, offset,
      /*deterministic=*/nullptr);
  LogicalResult valid = success();
  {
    ScopedDiagnosticHandler silence(attn->getContext(),
                                    [](Diagnostic &) { return success(); });
    valid = success(succeeded(mlir::verify(attn)) &&
                    succeeded(mlir::verify(grad)));
  }
  if (failed(valid)) {
    rewriter.eraseOp(grad);
    if (lseRepl && lseRepl != attn.getLse())
      rewriter.eraseOp(lseRepl.getDefiningOp());
    rewriter.eraseOp(attn);
    dropCopies();
    return "the operands do not form valid flash.attention/_grad ops";
  }
  rewriter.replaceAllUsesWith(oRes, attn.getResult());
  rewriter.replaceAllUsesWith(dqOp->getResult(0), grad.getGradQuery());
  rewriter.replaceAllUsesWith(dkOp->getResult(0), grad.getGradKey());
  rewriter.replaceAllUsesWith(dvOp->getResult(0), grad.getGradValue());
  SmallVector<Operation *> roots{pvOp, dqOp, dkOp, dvOp};
  if (lseRepl) {
    rewriter.replaceAllUsesWith(fwd.lse, lseRepl);
    roots.push_back(fwd.lse.getDefiningOp());
  }
  eraseDeadFrom(rewriter, roots);
  return "";
}
