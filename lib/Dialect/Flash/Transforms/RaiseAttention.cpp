//===- RaiseAttention.cpp - softmax(Q K^T * scale) V -> flash.attention ---===//
//
// Recognizes attention in linalg IR by walking up from every linalg.softmax:
//
//   Q K^T      a contraction (named or generic, any batch rank) into zeros
//   * scale    optional: elementwise multiply/divide by one float constant
//   softmax    over the last (key) dim
//   P V        a contraction of the probabilities with V into zeros
//
// and proves each step before rewriting; every reason for not raising is a
// string that `report=true` turns into a remark at the softmax. Upstream has
// no attention matcher (IREE's was removed), hence this file.
//
//===----------------------------------------------------------------------===//

#include "flash/Dialect/Flash/IR/FlashOps.h"
#include "flash/Dialect/Flash/Transforms/Passes.h"
#include "flash/Dialect/Flash/Transforms/Transforms.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHRAISEATTENTION
#include "flash/Dialect/Flash/Transforms/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;
using namespace mlir::flash;

namespace {

/// C[b..., m, n] = sum_k A[b..., m, k] * B[b..., n, k]   (rhsTransposed)
///              or sum_k A[b..., m, k] * B[b..., k, n]
struct BatchedMatmul {
  linalg::LinalgOp op;
  Value lhs, rhs, init;
  bool rhsTransposed = false;
};

/// The reason a candidate was not raised; empty on success.
using Reason = std::string;

bool isZeroFill(Value v) {
  auto fill = v.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return false;
  return matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
}

FailureOr<BatchedMatmul> matchMatmul(Value result, StringRef what,
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
  if (maps[2] != expect({m, n}) || maps[0] != expect({m, k})) {
    why = (what + " does not index its operands as [batch..., rows, "
                  "reduction] and [batch..., rows, cols]")
              .str();
    return failure();
  }
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
  for (Value v : {mm.lhs, mm.rhs, result})
    if (!getElementTypeOrSelf(v.getType()).isF32()) {
      why = (what + " is not f32 (other element types are not raised yet)")
                .str();
      return failure();
    }
  return mm;
}

/// `v` = elementwise `x * c` or `x / c` with one float constant `c`: sets
/// `x` and multiplies `scale` by c (or 1/c).
bool matchScale(Value v, Value &x, double &scale) {
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g || g.getNumDpsInputs() != 1 || g.getNumDpsInits() != 1 ||
      g.getNumParallelLoops() != g.getNumLoops() ||
      !llvm::all_of(g.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return false;
  Block &body = g.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Operation *def = yield.getValues()[0].getDefiningOp();
  if (!def || def->getBlock() != &body)
    return false;
  Value arg = body.getArgument(0);
  FloatAttr c;
  auto constOf = [&](Value operand) {
    return matchPattern(operand, m_Constant(&c));
  };
  if (auto mul = dyn_cast<arith::MulFOp>(def)) {
    if (mul.getLhs() == arg && constOf(mul.getRhs()))
      scale *= c.getValueAsDouble();
    else if (mul.getRhs() == arg && constOf(mul.getLhs()))
      scale *= c.getValueAsDouble();
    else
      return false;
  } else if (auto div = dyn_cast<arith::DivFOp>(def)) {
    if (div.getLhs() != arg || !constOf(div.getRhs()) ||
        c.getValueAsDouble() == 0.0)
      return false;
    scale /= c.getValueAsDouble();
  } else {
    return false;
  }
  x = g.getDpsInputs()[0];
  return true;
}

/// K from the right-hand side of Q K^T: the operand itself when the product
/// reads it transposed, else what a last-two-dims linalg.transpose read, else
/// a new transpose.
Value keyFromRhs(RewriterBase &rewriter, Location loc,
                 const BatchedMatmul &qk) {
  if (qk.rhsTransposed)
    return qk.rhs;
  auto rhsTy = cast<RankedTensorType>(qk.rhs.getType());
  int64_t r = rhsTy.getRank();
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, r));
  std::swap(perm[r - 1], perm[r - 2]);
  if (auto t = qk.rhs.getDefiningOp<linalg::TransposeOp>())
    if (t.getPermutation() == ArrayRef<int64_t>(perm))
      return t.getInput();
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(rewriter, loc, qk.rhs);
  std::swap(sizes[r - 1], sizes[r - 2]);
  Value empty = tensor::EmptyOp::create(rewriter, loc, sizes,
                                        rhsTy.getElementType());
  return linalg::TransposeOp::create(rewriter, loc, qk.rhs, empty, perm)
      .getResult()[0];
}

/// Tries to raise the attention around `softmax`; on failure returns why.
Reason raiseAt(RewriterBase &rewriter, linalg::SoftmaxOp softmax) {
  auto inTy = cast<RankedTensorType>(softmax.getInput().getType());
  int64_t rank = inTy.getRank();
  if (rank < 2)
    return "softmax input has rank < 2";
  if (static_cast<int64_t>(softmax.getDimension()) != rank - 1)
    return "softmax is over axis " + std::to_string(softmax.getDimension()) +
           ", not the key axis (" + std::to_string(rank - 1) + ")";
  Value p = softmax.getResult()[0];
  if (!p.hasOneUse())
    return "the probabilities have other uses than the P*V product";

  // P V.
  Reason why;
  Operation *user = *p.getUsers().begin();
  if (user->getNumResults() != 1)
    return "the probabilities do not feed a matrix product with V";
  FailureOr<BatchedMatmul> pv =
      matchMatmul(user->getResult(0), "P*V", why);
  if (failed(pv))
    return why;
  if (pv->lhs != p)
    return "the probabilities are the right-hand side of the second product";
  if (pv->rhsTransposed)
    return "the second product contracts V along its last dim, not its "
           "sequence dim";

  // Scores: optional scale over Q K^T.
  Value scores = softmax.getInput();
  double scale = 1.0;
  Value unscaled;
  if (matchScale(scores, unscaled, scale)) {
    if (!scores.hasOneUse())
      return "the scaled scores have other uses than the softmax";
    scores = unscaled;
  }
  if (!scores.hasOneUse())
    return "the scores have other uses than the softmax";
  FailureOr<BatchedMatmul> qk = matchMatmul(scores, "Q*K^T", why);
  if (failed(qk))
    return why;

  // Shapes: batch dims of the two products must be the same iteration
  // dims; the verifier of flash.attention checks the rest below.
  auto qTy = cast<RankedTensorType>(qk->lhs.getType());
  auto vTy = cast<RankedTensorType>(pv->rhs.getType());
  if (qTy.getRank() != rank || vTy.getRank() != rank)
    return "query, key and value do not have the scores' batch dims";

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(pv->op);
  Location loc = softmax.getLoc();
  Value k = keyFromRhs(rewriter, loc, *qk);
  auto attn = AttentionOp::create(
      rewriter, loc, TypeRange{pv->init.getType()}, qk->lhs, k, pv->rhs,
      /*mask=*/Value(), pv->init, /*lse_init=*/Value(),
      rewriter.getF32FloatAttr(static_cast<float>(scale)),
      /*causal=*/nullptr, /*causal_offset=*/nullptr);
  LogicalResult valid = success();
  {
    // Check silently: a mismatch is a reason not to raise, not an error.
    ScopedDiagnosticHandler silence(attn->getContext(),
                                    [](Diagnostic &) { return success(); });
    valid = mlir::verify(attn);
  }
  if (failed(valid)) {
    rewriter.eraseOp(attn);
    return "the operands do not form a valid flash.attention";
  }
  Operation *softmaxOp = softmax, *qkOp = qk->op;
  Operation *scaleOp = softmax.getInput().getDefiningOp();
  rewriter.replaceOp(pv->op, attn.getResult());
  // The N x N intermediates and whatever fed only them are now dead.
  SmallVector<Operation *> worklist{softmaxOp, scaleOp, qkOp};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!op || !isOpTriviallyDead(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.push_back(def);
    rewriter.eraseOp(op);
  }
  return "";
}

struct FlashRaiseAttentionPass
    : flash::impl::FlashRaiseAttentionBase<FlashRaiseAttentionPass> {
  using FlashRaiseAttentionBase::FlashRaiseAttentionBase;

  void runOnOperation() override {
    SmallVector<linalg::SoftmaxOp> candidates;
    getOperation()->walk(
        [&](linalg::SoftmaxOp op) { candidates.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::SoftmaxOp softmax : candidates) {
      Location loc = softmax.getLoc();
      Reason why = raiseAt(rewriter, softmax);
      if (report && !why.empty())
        emitRemark(loc) << "attention not raised: " << why;
    }
  }
};
} // namespace
