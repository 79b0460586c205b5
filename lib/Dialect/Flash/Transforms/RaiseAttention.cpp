//===- RaiseAttention.cpp - softmax(Q K^T * scale + mask) V -> flash.attention ===//
//
// Finds attention in linalg IR by starting at every contraction that could
// be P*V and walking up:
//
//   P * V        a (batched) matrix product into zeros; P may pass through
//                extf/truncf
//   softmax      linalg.softmax, or its decomposition as frontends emit it:
//                max-reduce (also torch-mlir's max+index), exp(x - max) (or
//                exp(x): the unstabilized form), sum-reduce, divide or
//                multiply by the reciprocal; keepdim maps accepted
//   score chain  elementwise generics between Q*K^T and the softmax whose
//                bodies are proven to compute
//                  select(keep & causal, scale * s + mask, -inf)
//                by walking their SSA graph (scale: mul/div by a constant;
//                mask: an added tensor; keep: select on an i1 tensor;
//                causal: select on a compare of linalg.index values)
//   Q * K^T      a (batched) product into zeros, K read transposed or through
//                a linalg.transpose; with GQA written as K/V heads broadcast
//                and collapsed, the unrepeated K/V are used
//
// Every failure returns the reason; `report=true` turns it into a remark at
// the softmax. Upstream has no attention matcher (IREE's was removed), hence
// this file; the TOSA forms are in RaiseAttentionTosa.cpp.
//
//===----------------------------------------------------------------------===//

#include "BlockBuilder.h"
#include "RaiseAttention.h"
#include "flash/Dialect/Flash/Transforms/Transforms.h"
#include "flash/Dialect/Flash/IR/FlashOps.h"
#include "flash/Dialect/Flash/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHRAISEATTENTION
#include "flash/Dialect/Flash/Transforms/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::raise;

//===----------------------------------------------------------------------===//
// Shared helpers (also used by the TOSA matcher)
//===----------------------------------------------------------------------===//

void raise::eraseDeadFrom(RewriterBase &rewriter,
                          ArrayRef<Operation *> roots) {
  SmallVector<Operation *> worklist(roots);
  DenseSet<Operation *> erased;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    // An op can be queued once per erased user: never touch it again.
    if (!op || erased.contains(op) || !isOpTriviallyDead(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.push_back(def);
    erased.insert(op);
    rewriter.eraseOp(op);
  }
}

bool raise::isNegInfLike(Value v) {
  FloatAttr f;
  if (!matchPattern(v, m_Constant(&f))) {
    DenseElementsAttr d;
    if (!matchPattern(v, m_Constant(&d)) || !d.isSplat() ||
        !isa<FloatType>(d.getElementType()))
      return false;
    APFloat x = d.getSplatValue<APFloat>();
    return x.isNegative() && (x.isInfinity() || x.isLargest());
  }
  APFloat x = f.getValue();
  // -inf, or the lowest finite value (torch's masked_fill(finfo.min)).
  return x.isNegative() && (x.isInfinity() || x.isLargest());
}

std::optional<double> raise::floatConstant(Value v) {
  FloatAttr f;
  if (matchPattern(v, m_Constant(&f)))
    return f.getValueAsDouble();
  DenseElementsAttr d;
  if (matchPattern(v, m_Constant(&d)) && d.isSplat() &&
      isa<FloatType>(d.getElementType()))
    return d.getSplatValue<APFloat>().convertToDouble();
  return std::nullopt;
}

Value raise::lseAs(RewriterBase &rewriter, Location loc, Value lse,
                   RankedTensorType want) {
  auto have = cast<RankedTensorType>(lse.getType());
  if (have == want)
    return lse;
  if (want.getRank() != have.getRank() + 1 || want.getShape().back() != 1 ||
      want.getShape().drop_back() != have.getShape() ||
      want.getElementType() != have.getElementType())
    return Value();
  SmallVector<ReassociationIndices> re;
  for (int64_t i = 0; i < have.getRank(); ++i)
    re.push_back({i});
  re.back().push_back(have.getRank());
  return tensor::ExpandShapeOp::create(rewriter, loc, want, lse, re);
}

Value raise::widenTo(OpBuilder &b, Location loc, Value t, Type elt) {
  auto ty = cast<RankedTensorType>(t.getType());
  if (ty.getElementType().getIntOrFloatBitWidth() >
      elt.getIntOrFloatBitWidth())
    return Value();
  return convertElements(b, loc, t, elt);
}

Reason raise::buildAttention(RewriterBase &rewriter, Location loc,
                             const AttentionParts &parts, Operation *replaced,
                             Value replacedResult) {
  Value q = parts.q, k = parts.k, v = parts.v;
  auto outTy = cast<RankedTensorType>(replacedResult.getType());
  Type outElt = outTy.getElementType();
  Type et = getElementTypeOrSelf(v.getType());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(replaced);
  // Mixed element types (or an output wider than V): compute in the
  // output's type (extf copies of q, k, v are O(N * D)).
  if (getElementTypeOrSelf(q.getType()) != et ||
      getElementTypeOrSelf(k.getType()) != et || outElt != et) {
    q = widenTo(rewriter, loc, q, outElt);
    k = widenTo(rewriter, loc, k, outElt);
    v = widenTo(rewriter, loc, v, outElt);
    if (!q || !k || !v)
      return "the output is narrower than the inputs";
  }
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(rewriter, loc, replacedResult);
  Value init = tensor::EmptyOp::create(rewriter, loc, sizes, outElt);
  FloatAttr scale = rewriter.getF32FloatAttr(static_cast<float>(parts.scale));
  UnitAttr causal = parts.causalOffset ? rewriter.getUnitAttr() : nullptr;
  IntegerAttr offset =
      parts.causalOffset ? rewriter.getI64IntegerAttr(*parts.causalOffset)
                         : nullptr;
  // lse is [B..., Hq, Nq]; the program's log-sum-exp may keep the reduced
  // dim as a trailing 1.
  Value lseInit;
  SmallVector<Type, 2> resultTypes{outTy};
  if (parts.lse) {
    SmallVector<OpFoldResult> lseSizes =
        tensor::getMixedSizes(rewriter, loc, replacedResult);
    lseSizes.pop_back();
    lseInit = tensor::EmptyOp::create(rewriter, loc, lseSizes,
                                      rewriter.getF32Type());
    resultTypes.push_back(lseInit.getType());
  }
  auto attn = AttentionOp::create(rewriter, loc, resultTypes, q, k, v,
                                  parts.mask, init, lseInit, scale, causal,
                                  offset);
  LogicalResult valid = success();
  {
    // Check silently: a mismatch is a reason not to raise, not an error.
    ScopedDiagnosticHandler silence(attn->getContext(),
                                    [](Diagnostic &) { return success(); });
    valid = mlir::verify(attn);
  }
  if (failed(valid)) {
    rewriter.eraseOp(attn);
    return "the operands do not form a valid flash.attention (shapes do not "
           "line up)";
  }
  SmallVector<Operation *> roots{replaced};
  if (parts.lse) {
    Value lse = lseAs(rewriter, loc, attn.getLse(),
                      cast<RankedTensorType>(parts.lse.getType()));
    if (!lse) {
      rewriter.eraseOp(attn);
      return "the log-sum-exp is not laid out as [batch..., rows]";
    }
    rewriter.replaceAllUsesWith(parts.lse, lse);
    roots.push_back(parts.lse.getDefiningOp());
  }
  rewriter.replaceAllUsesWith(replacedResult, attn.getResult());
  // The N x N intermediates and whatever fed only them are now dead.
  eraseDeadFrom(rewriter, roots);
  return "";
}

namespace {

/// Whether `op` computes P^T X for a P that also feeds a P*V product.
bool isBackwardDV(linalg::LinalgOp op) {
  Reason ignored;
  FailureOr<BatchedMatmul> mm = matchMatmul(op->getResult(0), "dV", ignored);
  if (failed(mm) || !mm->lhsTransposed)
    return false;
  // P may reach the two products through different casts (f16 graphs).
  for (Value form : castFamily(skipCasts(mm->lhs)))
    for (Operation *user : form.getUsers()) {
      auto other = dyn_cast<linalg::LinalgOp>(user);
      if (!other || other == op || other->getNumResults() != 1)
        continue;
      FailureOr<BatchedMatmul> pv =
          matchMatmul(other->getResult(0), "P*V", ignored);
      if (succeeded(pv) && !pv->lhsTransposed && pv->lhs == form)
        return true;
    }
  return false;
}

/// Tries to raise the attention whose P*V is `pv`. Returns nullopt when `pv`
/// is not a candidate (its left operand is not a softmax), else the reason
/// it was not raised ("" when it was) and where to report it.
std::optional<std::pair<Reason, Location>>
raiseAt(RewriterBase &rewriter, linalg::LinalgOp pvOp) {
  if (!linalg::isaContractionOpInterface(pvOp) ||
      pvOp.getNumDpsInputs() != 2 || pvOp->getNumResults() != 1)
    return std::nullopt;
  // Only (batched) matrix products are candidates (not, e.g., the row dot
  // products of a softmax gradient).
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(pvOp);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1)
    return std::nullopt;
  // P^T dO next to a P*V of the same P is a backward's dV, not a candidate.
  if (isBackwardDV(pvOp))
    return std::nullopt;
  Value p = skipCasts(pvOp.getDpsInputs()[0]);
  Reason why;
  std::optional<SoftmaxMatch> sm = matchSoftmax(p, why);
  if (!sm) {
    // The right operand may be the probabilities (P^T-style products).
    Value p1 = skipCasts(pvOp.getDpsInputs()[1]);
    std::optional<SoftmaxMatch> sm1 = matchSoftmax(p1, why);
    if (!sm1)
      return std::nullopt;
    return std::make_pair(
        Reason("the probabilities are the right-hand side of the second "
               "product"),
        sm1->root->getLoc());
  }
  Location loc = sm->root->getLoc();
  auto fail = [&](Reason r) { return std::make_pair(r, loc); };
  int64_t rank = cast<RankedTensorType>(sm->input.getType()).getRank();
  if (rank < 2)
    return fail("softmax input has rank < 2");
  if (sm->dim != rank - 1)
    return fail("softmax is over axis " + std::to_string(sm->dim) +
                ", not the key axis (" + std::to_string(rank - 1) + ")");
  // The softmax's intermediates may only feed the softmax itself, or a row
  // log-sum-exp (served by the lse result instead).
  Operation *lseOp = nullptr;
  for (Operation *op : sm->ops)
    for (Operation *user : op->getUsers()) {
      if (user == sm->root || llvm::is_contained(sm->ops, user) ||
          user == lseOp)
        continue;
      if (!lseOp && (lseOp = matchLogSumExp(*sm, user)))
        continue;
      return fail("an intermediate of the softmax ('" +
                  op->getName().getStringRef().str() +
                  "') has a use that is not a log-sum-exp of the scores");
    }
  Value pvResult = pvOp->getResult(0);
  // With other uses, P must be the saved probabilities of a backward.
  bool joint = !onlyFeeds(p, pvOp);
  FailureOr<BatchedMatmul> pv = matchMatmul(pvResult, "P*V", why);
  if (failed(pv))
    return fail(why);
  if (pv->rhsTransposed)
    return fail("the second product contracts V along its last dim, not its "
                "sequence dim");
  if (pv->lhsTransposed)
    return fail("P*V does not index its operands as [batch..., rows, "
                "reduction] and [batch..., rows, cols]");

  ScoreChain chain;
  why = analyzeScoreChain(sm->input, chain);
  if (!why.empty())
    return fail(why);
  if (!chain.scores.hasOneUse())
    return fail("the scores have other uses than the softmax");
  FailureOr<BatchedMatmul> qk = matchMatmul(chain.scores, "Q*K^T", why);
  if (failed(qk))
    return fail(why);
  if (qk->lhsTransposed)
    return fail("Q*K^T reads Q transposed");
  if (cast<RankedTensorType>(qk->lhs.getType()).getRank() != rank ||
      cast<RankedTensorType>(pv->rhs.getType()).getRank() != rank)
    return fail("query, key and value do not have the scores' batch dims");
  if (chain.addMask && chain.keepMask)
    return fail("both an additive and a boolean mask (only one mask operand "
                "is supported)");

  AttentionParts parts;
  parts.q = qk->lhs;
  if (lseOp)
    parts.lse = lseOp->getResult(0);
  parts.scale = chain.scale;
  parts.causalOffset = chain.causalOffset;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(pvOp);
  // Ops made for the new operands (a transpose of K^T and its init, a
  // reshaped mask) are erased again if the raise fails.
  SmallVector<Operation *> made;
  auto cleanup = [&]() {
    for (Operation *op : llvm::reverse(made))
      if (isOpTriviallyDead(op))
        rewriter.eraseOp(op);
  };
  bool kCreated;
  Value k = keyFromRhs(rewriter, loc, *qk, kCreated);
  if (kCreated) {
    auto t = k.getDefiningOp<linalg::TransposeOp>();
    made.push_back(t.getInit().getDefiningOp());
    made.push_back(t);
  }
  auto [k0, gk] = unrepeatHeads(k);
  auto [v0, gv] = unrepeatHeads(pv->rhs);
  if (gk == gv && gk > 1) {
    parts.k = k0;
    parts.v = v0;
  } else {
    parts.k = k;
    parts.v = pv->rhs;
  }
  if (chain.addMask || chain.keepMask) {
    FailureOr<Value> m =
        maskOperand(rewriter, loc, chain.addMask ? *chain.addMask
                                                 : *chain.keepMask,
                    rank, why);
    if (failed(m)) {
      cleanup();
      return fail(why);
    }
    if (*m != (chain.addMask ? chain.addMask->tensor : chain.keepMask->tensor))
      made.push_back(m->getDefiningOp());
    parts.mask = *m;
  }
  if (joint) {
    // The backward reads the repeated K/V as the forward wrote them.
    parts.k = k;
    parts.v = pv->rhs;
    why = raiseJointAt(rewriter, loc, p, pvOp, parts, k,
                       qk->rhsTransposed ? Value() : qk->rhs);
    if (!why.empty())
      cleanup();
    return fail(why);
  }
  why = buildAttention(rewriter, loc, parts, pvOp, pvResult);
  if (!why.empty())
    cleanup();
  return fail(why);
}

struct FlashRaiseAttentionPass
    : flash::impl::FlashRaiseAttentionBase<FlashRaiseAttentionPass> {
  using FlashRaiseAttentionBase::FlashRaiseAttentionBase;

  void runOnOperation() override {
    SmallVector<Operation *> candidates;
    getOperation()->walk([&](Operation *op) {
      if (isa<linalg::LinalgOp>(op) || isTosaCandidate(op))
        candidates.push_back(op);
    });
    // A raise erases other candidates (Q*K^T is a contraction too).
    struct ErasedTracker : RewriterBase::Listener {
      DenseSet<Operation *> erased;
      void notifyOperationErased(Operation *op) override { erased.insert(op); }
    } tracker;
    IRRewriter rewriter(&getContext(), &tracker);
    for (Operation *op : candidates) {
      if (tracker.erased.contains(op))
        continue;
      std::optional<std::pair<Reason, Location>> r =
          isTosaCandidate(op)
              ? raiseTosaAt(rewriter, op)
              : raiseAt(rewriter, cast<linalg::LinalgOp>(op));
      if (r && report && !r->first.empty())
        emitRemark(r->second) << "attention not raised: " << r->first;
    }
  }
};
} // namespace
