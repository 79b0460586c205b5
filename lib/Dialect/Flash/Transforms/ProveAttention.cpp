//===- ProveAttention.cpp - Prove that a model computes attention ---------===//
//
// Works on the normal form of AttentionModel.h, where the algebra has
// already been applied (reciprocal-multiply is division, the scale may sit
// anywhere in the product, exp2 * log2(e) is exp, -FLT_MAX is -inf, an
// additive -inf mask is a select). What is left to prove:
//
//   root  = [coef *] recip(D) * sum_j N(j) * V[.., j, e]        coef == 1
//   N(j)  = exp(E(j))  or  select(keep(j), exp(E(j)), 0)
//   D     = sum_j' N(j')                 the same numerator, summed over
//                                        the keys P*V contracts
//   E(j)  = scale * sum_d Q[.., i, d] K[.., j, d]  (+ mask[.., i, j])
//           + terms without j            (a per-row shift: any max or none)
//   keep  = j <= i + offset (causal)  and/or an i1 mask tensor
//
// and that the leaves are read through maps that flash.attention's layout
// can express (any permutation, unit dims, GQA's h floordiv g, MQA).
//
//===----------------------------------------------------------------------===//

#include "AttentionProof.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::model;

static unsigned boundName(const Expr *reduce) {
  return cast<AffineDimExpr>(reduce->index[0]).getPosition();
}

static bool isSum(const Expr *e) {
  return e->kind == Kind::Reduce &&
         e->aux == static_cast<int64_t>(ReduceKind::Sum);
}

static SmallVector<const Expr *> factorsOf(const Expr *e, double &coef) {
  if (e->kind == Kind::Mul) {
    coef = e->value;
    return SmallVector<const Expr *>(e->ops.begin(), e->ops.end());
  }
  coef = 1;
  return {e};
}

/// exp(E), select(c, exp(E), 0), or select(c, exp(E), exp(E')): a mask
/// with a finite value, which the normal form puts outside the exp.
static bool isNumerator(const Expr *e) {
  if (e->kind == Kind::Exp)
    return true;
  if (e->kind != Kind::Select)
    return false;
  const Expr *t = e->ops[1];
  // A mask around a shift guarded for rows without keys (unguardedShift).
  if (t->kind == Kind::Select && t->ops[1]->kind == Kind::Exp &&
      t->ops[2]->kind == Kind::Exp && e->ops[2]->isConst(0))
    t = t->ops[1];
  return t->kind == Kind::Exp &&
         (e->ops[2]->isConst(0) || e->ops[2]->kind == Kind::Exp);
}

/// The guards of a safe softmax for rows without keys: `x` where `c` is
/// x == 0 (`negInf`: x == -inf), ordered or not, either side; else null.
static const Expr *comparedWith(const Expr *c, bool negInf) {
  using P = arith::CmpFPredicate;
  if (c->kind != Kind::CmpF || (c->aux != static_cast<int64_t>(P::OEQ) &&
                                c->aux != static_cast<int64_t>(P::UEQ)))
    return nullptr;
  auto isK = [&](const Expr *x) {
    return negInf ? x->kind == Kind::NegInf : x->isConst(0);
  };
  return isK(c->ops[1]) ? c->ops[0] : isK(c->ops[0]) ? c->ops[1] : nullptr;
}
/// A row max, and a row sum of exponentials.
static bool isRowMax(const Expr *e) {
  return e && e->kind == Kind::Reduce &&
         e->aux == static_cast<int64_t>(ReduceKind::Max);
}
static bool containsExp(const Expr *e);
static bool isExpRowSum(const Expr *e) {
  return e && isSum(e) && containsExp(e->ops[0]);
}

/// exp(E - shift) with the shift guarded for rows without keys, as a safe
/// softmax writes it, exp(s - where(m == -inf, 0, m)): the model's
/// select(m == -inf, exp(A), exp(B)) with m a row max and A - B the same
/// for every key. Where the guard holds every exponential is 0 either way
/// (all scores are -inf), so it is exp(B); `e` itself otherwise.
static const Expr *unguardedShift(ExprContext &ec, const Expr *e, unsigned j) {
  if (e->kind != Kind::Select || e->ops[1]->kind != Kind::Exp ||
      e->ops[2]->kind != Kind::Exp)
    return e;
  const Expr *c = e->ops[0];
  bool negated = c->kind == Kind::Not;
  if (negated)
    c = c->ops[0];
  if (c->dependsOn(j) || !isRowMax(comparedWith(c, /*negInf=*/true)))
    return e;
  const Expr *taken = negated ? e->ops[1] : e->ops[2];
  const Expr *guard = negated ? e->ops[2] : e->ops[1];
  if (ec.sub(guard->ops[0], taken->ops[0])->dependsOn(j))
    return e;
  return taken;
}

static bool approx(double a, double b) {
  return std::fabs(a - b) <= 1e-6 * std::max(1.0, std::fabs(b));
}

std::string model::firstOpaque(const Expr *e) {
  if (e->kind == Kind::Opaque && e->name != "acc")
    return e->name;
  for (const Expr *o : e->ops) {
    std::string s = firstOpaque(o);
    if (!s.empty())
      return s;
  }
  return "";
}

const Expr *model::findRead(const Expr *e, Value tensor,
                            function_ref<bool(const Expr *)> pred) {
  if (e->kind == Kind::Read && e->tensor == tensor && (!pred || pred(e)))
    return e;
  if (!e->reads.contains(tensor))
    return nullptr;
  for (const Expr *o : e->ops)
    if (const Expr *r = findRead(o, tensor, pred))
      return r;
  return nullptr;
}


namespace {
/// How one leaf index expression reads the root's index space.
struct Atom {
  enum { Dim, Div, Zero, Other } kind;
  unsigned dim = 0;
  int64_t div = 1;
};
} // namespace

static Atom atomOf(AffineExpr e) {
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return {Atom::Dim, d.getPosition()};
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return {c.getValue() == 0 ? Atom::Zero : Atom::Other};
  if (e.getKind() == AffineExprKind::FloorDiv) {
    auto b = cast<AffineBinaryOpExpr>(e);
    auto d = dyn_cast<AffineDimExpr>(b.getLHS());
    auto c = dyn_cast<AffineConstantExpr>(b.getRHS());
    if (d && c && c.getValue() > 0)
      return {Atom::Div, d.getPosition(), c.getValue()};
  }
  return {Atom::Other};
}

/// An expression a mask operand can be made from: tensors, positions,
/// constants and arithmetic (no reduction, nothing opaque).
static bool isMaskExpr(const Expr *e) {
  if (e->kind == Kind::Reduce || e->kind == Kind::Opaque ||
      e->kind == Kind::Gather)
    return false;
  if (e->kind == Kind::Read && !isa<RankedTensorType>(e->tensor.getType()))
    return false;
  if (!e->reads.size() && e->kind != Kind::Read)
    return false; // positions only: a bias or window, not a mask tensor
  return llvm::all_of(e->ops, [](const Expr *o) {
    return o->kind == Kind::Const || o->kind == Kind::NegInf ||
           o->kind == Kind::Index || o->kind == Kind::IndexF ||
           o->kind == Kind::CmpI || isMaskExpr(o);
  });
}

/// Whether `e` depends on positions (an index or its conversion; a compare
/// of tensor values, BERT's `am != 0` of an i64 mask, is not).
static bool isPositional(const Expr *e) {
  if (e->kind == Kind::Index || e->kind == Kind::IndexF ||
      (e->kind == Kind::CmpI && e->reads.empty()))
    return true;
  return llvm::any_of(e->ops, isPositional);
}

/// Whether every tensor `e` reads is read through a permutation of dims
/// (with unit dims at 0): what a mask operand can be laid out from.
static bool readsPlainly(const Expr *e) {
  if (e->kind == Kind::Read)
    return llvm::all_of(e->index, [](AffineExpr x) {
      Atom a = atomOf(x);
      return a.kind == Atom::Dim || a.kind == Atom::Zero;
    });
  return llvm::all_of(e->ops, readsPlainly);
}

/// Whether `e` can be a modifier region's body: scalar arithmetic of the
/// score placeholder, positions and tensors read elementwise; no
/// reduction, no op outside arith/math, no read of `forbidden` tensors.
static bool isModifierExpr(const Expr *e, ArrayRef<Value> forbidden) {
  if (e->kind == Kind::Reduce)
    return false;
  // (wrap.* and round.*: a narrower type's values, ModelBuilder.cpp.)
  if (e->kind == Kind::Opaque && e->name != "flash.score" &&
      !StringRef(e->name).starts_with("arith.") &&
      !StringRef(e->name).starts_with("math.") &&
      !StringRef(e->name).starts_with("wrap.") &&
      !StringRef(e->name).starts_with("round."))
    return false;
  if ((e->kind == Kind::Read || e->kind == Kind::Gather) &&
      llvm::is_contained(forbidden, e->tensor))
    return false;
  return llvm::all_of(e->ops, [&](const Expr *o) {
    return isModifierExpr(o, forbidden);
  });
}

/// Whether `e` reads one of `tensors` elementwise (not inside a reduction
/// such as a product): a bias read from Q or K.
static bool readsOutsideProducts(const Expr *e, ArrayRef<Value> tensors) {
  if (e->kind == Kind::Reduce ||
      llvm::none_of(tensors, [&](Value t) { return e->reads.contains(t); }))
    return false;
  if ((e->kind == Kind::Read || e->kind == Kind::Gather) &&
      llvm::is_contained(tensors, e->tensor))
    return true;
  return llvm::any_of(
      e->ops, [&](const Expr *o) { return readsOutsideProducts(o, tensors); });
}

/// select(c, exp(A), exp(B)) as one exponent: the terms without j that A
/// and B share (the row max of the piecewise scores, subtracted from both),
/// then select(c, A - shift, B - shift); empty when they share none. (As
/// terms: the normal form would push a sum back into the select.)
static SmallVector<std::pair<const Expr *, double>>
piecewiseExponent(ExprContext &ec, const Expr *num, unsigned j) {
  SmallVector<std::pair<const Expr *, double>> out;
  if (num->ops[1]->kind != Kind::Exp || num->ops[2]->kind != Kind::Exp)
    return out;
  const Expr *a = num->ops[1]->ops[0], *b = num->ops[2]->ops[0];
  auto terms = [](const Expr *e) {
    SmallVector<std::pair<const Expr *, double>> t;
    if (e->kind == Kind::Add)
      for (auto [o, c] : llvm::zip(e->ops, e->coefs))
        t.push_back({o, c});
    else
      t.push_back({e, 1});
    return t;
  };
  auto tb = terms(b);
  const Expr *shift = nullptr;
  for (auto [t, c] : terms(a))
    if (!t->dependsOn(j) && llvm::is_contained(tb, std::make_pair(t, c))) {
      out.push_back({t, c});
      shift = shift ? ec.add(shift, ec.scale(t, c)) : ec.scale(t, c);
    }
  if (!shift)
    return out;
  out.push_back(
      {ec.select(num->ops[0], ec.sub(a, shift), ec.sub(b, shift)), 1});
  return out;
}

/// The q.k products of the form sum_d a * b (a and b leaves, exactly one
/// varying along j) inside `e`.
static void findDots(const Expr *e, unsigned j,
                     function_ref<const Expr *(const Expr *)> asLeaf,
                     SmallVectorImpl<const Expr *> &out) {
  if (e->kind == Kind::Reduce && e->aux == static_cast<int64_t>(ReduceKind::Sum) &&
      e->ops[0]->kind == Kind::Mul && e->ops[0]->ops.size() == 2) {
    const Expr *a = asLeaf(e->ops[0]->ops[0]), *b = asLeaf(e->ops[0]->ops[1]);
    if (a && b && a->dependsOn(j) != b->dependsOn(j)) {
      if (!llvm::is_contained(out, e))
        out.push_back(e);
      return;
    }
  }
  for (const Expr *o : e->ops)
    findDots(o, j, asLeaf, out);
}

/// A product of queries and keys whose factors the normal form spread:
/// sum_d over more than two factors, or with factors that do not vary
/// along d outside the sum (QK-norm's per-row rsqrt and per-feature
/// weights: the scores of RMSNorm(q) and RMSNorm(k)). Regrouped into one
/// factor per side that `asLeaf` finds as a computed value of the program
/// (the normalized Q and K): sum_d A(.., d) B(.., d), with the constant it
/// was scaled by in `coef`; null where no grouping is.
static const Expr *
regroupedDot(ExprContext &ec, const Expr *t, unsigned j,
             function_ref<const Expr *(const Expr *)> asLeaf, double &coef) {
  const Expr *sum = nullptr;
  SmallVector<const Expr *> factors;
  coef = 1;
  if (isSum(t)) {
    sum = t;
  } else if (t->kind == Kind::Mul) {
    coef = t->value;
    for (const Expr *o : t->ops) {
      if (isSum(o) && o->ops[0]->kind == Kind::Mul && !sum) {
        sum = o;
        continue;
      }
      factors.push_back(o);
    }
  }
  if (!sum || sum->ops[0]->kind != Kind::Mul)
    return nullptr;
  const Expr *body = sum->ops[0];
  unsigned d = boundName(sum);
  coef *= body->value;
  factors.append(body->ops.begin(), body->ops.end());
  if (factors.size() <= 2 || factors.size() > 6)
    return nullptr;
  SmallVector<const Expr *> keySide, either;
  for (const Expr *x : factors)
    (x->dependsOn(j) ? keySide : either).push_back(x);
  if (keySide.empty() || either.empty())
    return nullptr;
  auto product = [&](ArrayRef<const Expr *> xs) {
    const Expr *r = ec.constant(1);
    for (const Expr *x : xs)
      r = ec.mul(r, x);
    return r;
  };
  // Which of the factors that do not vary along the keys go with K (a
  // per-feature weight of k's norm does).
  for (unsigned mask = 0; mask < (1u << either.size()); ++mask) {
    SmallVector<const Expr *> a, b(keySide);
    for (auto [n, x] : llvm::enumerate(either))
      (mask >> n & 1 ? b : a).push_back(x);
    if (a.empty())
      continue;
    const Expr *pa = product(a), *pb = product(b);
    if (!pa->dependsOn(d) || !pb->dependsOn(d))
      continue;
    const Expr *la = asLeaf(pa), *lb = asLeaf(pb);
    if (!la || !lb || la->kind != Kind::Read || lb->kind != Kind::Read)
      continue;
    const Expr *r = ec.reduce(ReduceKind::Sum, d, ec.mul(la, lb));
    // (A sum of two reads, as the plain product is.)
    if (isSum(r) && r->ops[0]->kind == Kind::Mul &&
        r->ops[0]->ops.size() == 2 && r->ops[0]->value == 1)
      return r;
  }
  return nullptr;
}

/// The constant `x` is scaled by where it occurs in `e` (the first
/// occurrence), or 1.
static double coefficientOf(const Expr *e, const Expr *x) {
  if (e->kind == Kind::Mul && e->ops.size() == 1 && e->ops[0] == x)
    return e->value;
  if (e->kind == Kind::Add)
    for (auto [o, c] : llvm::zip(e->ops, e->coefs))
      if (o == x)
        return c;
  for (const Expr *o : e->ops)
    if (ExprContext::contains(o, x))
      return coefficientOf(o, x);
  return 1;
}

/// A sum over a dim of terms that contain an exp of something varying along
/// it and read a tensor along it: the shape of P*V.
static bool hasExpWeightedSum(const Expr *e) {
  if (isSum(e)) {
    unsigned j = boundName(e);
    std::function<bool(const Expr *)> expAlong = [&](const Expr *x) {
      if (x->kind == Kind::Exp && x->dependsOn(j))
        return true;
      return llvm::any_of(x->ops, expAlong);
    };
    std::function<bool(const Expr *)> readAlong = [&](const Expr *x) {
      if (x->kind == Kind::Read && x->dependsOn(j))
        return true;
      if (x->kind == Kind::Exp)
        return false;
      return llvm::any_of(x->ops, readAlong);
    };
    if (expAlong(e->ops[0]) && readAlong(e->ops[0]))
      return true;
  }
  return llvm::any_of(e->ops, hasExpWeightedSum);
}

static bool containsReduce(const Expr *e) {
  return e->kind == Kind::Reduce || llvm::any_of(e->ops, containsReduce);
}

static bool containsExp(const Expr *e) {
  return e->kind == Kind::Exp || llvm::any_of(e->ops, containsExp);
}

/// A short name of what `e` is, for remarks (no internal dim names).
static std::string describe(const Expr *e) {
  std::string op = firstOpaque(e);
  if (!op.empty())
    return "a value computed by '" + op + "'";
  switch (e->kind) {
  case Kind::Read:
    if (auto r = dyn_cast<OpResult>(e->tensor))
      return "the result of '" +
             r.getOwner()->getName().getStringRef().str() + "'";
    return e->index.empty() ? "a scalar argument" : "a tensor argument";
  case Kind::Reduce:
    return "a reduction";
  case Kind::Select:
    return "a select";
  case Kind::Recip:
    return "a reciprocal";
  case Kind::Exp:
    return "an exponential";
  case Kind::IndexF:
    return "a position";
  default:
    return e->freeDims.empty() ? "a value that is not a constant"
                               : "an expression of other tensors";
  }
}

/// Whether `e` reads a tensor at an index computed from a reduction (a
/// table looked up by the scores' value).
static bool gathersByReduction(const Expr *e) {
  if (e->kind == Kind::Gather &&
      llvm::any_of(e->ops, [](const Expr *o) { return containsReduce(o); }))
    return true;
  return llvm::any_of(e->ops, gathersByReduction);
}

/// The static number of keys (K's key dim), or kDynamic.
static int64_t keyExtent(const ForwardFacts &f) {
  for (auto [t, role] : llvm::zip(
           cast<RankedTensorType>(f.k.tensor.getType()).getShape(), f.k.dims))
    if (role.kind == DimRole::Key)
      return t;
  return ShapedType::kDynamic;
}

/// Whether `e`, a predicate of the query position `i` (the key
/// substituted), holds for every row 0 <= i < nq: constants, conjunctions,
/// affine compares true for all non-negative dims and sizes, those of i
/// alone without floordiv or mod (linear in i: decided at the rows where
/// they are largest; with a dynamic nq only where that is row 0), and
/// equalities of a value with itself (seg[i] == seg[i]).
static bool holdsForEveryRow(ExprContext &ec, const Expr *e, unsigned i,
                             int64_t nq) {
  using P = arith::CmpIPredicate;
  MLIRContext *ctx = ec.getContext();
  if (e->kind == Kind::Const)
    return e->value != 0;
  if (e->kind == Kind::And)
    return llvm::all_of(
        e->ops, [&](const Expr *o) { return holdsForEveryRow(ec, o, i, nq); });
  if (e->kind == Kind::Opaque && e->ops.size() == 2 && e->ops[0] == e->ops[1] &&
      llvm::is_contained({"arith.cmpi:eq", "arith.cmpi:sle", "arith.cmpi:sge",
                          "arith.cmpi:ule", "arith.cmpi:uge"},
                         e->name))
    return true;
  // !(x <= 0 & y <= 0 & ...) where x + y >= 1 always (x <= 0 and y <= 0
  // would give x + y <= 0): a decode's j <=u i + Nk - 1 at key 0, not(1 <=
  // Nk & Nk <= 0) once unsigned.
  if (e->kind == Kind::Not && e->ops[0]->kind == Kind::And) {
    SmallVector<AffineExpr> bounds;
    for (const Expr *o : e->ops[0]->ops)
      if (o->kind == Kind::CmpI && o->aux == static_cast<int64_t>(P::sle))
        bounds.push_back(o->index[0]);
    for (size_t a = 0; a < bounds.size(); ++a)
      for (size_t b = a + 1; b < bounds.size(); ++b)
        if (knownNonNegative(simplifyAffineExpr(bounds[a] + bounds[b] - 1,
                                                kFirstFresh + 64, kMaxSymbols)))
          return true;
    return false;
  }
  if (e->kind != Kind::CmpI || e->aux != static_cast<int64_t>(P::sle))
    return false;
  AffineExpr x = e->index[0];
  // x <= 0 for every value of its dims and sizes (all >= 0): a per-head
  // window's -(h + 1) <= 0.
  if (knownNonNegative(simplifyAffineExpr(-x, kFirstFresh + 64, kMaxSymbols)))
    return true;
  if (llvm::any_of(e->freeDims, [&](unsigned d) { return d != i; }))
    return false;
  bool linear = true;
  x.walk([&](AffineExpr t) {
    if (isa<AffineBinaryOpExpr>(t) && t.getKind() != AffineExprKind::Add &&
        t.getKind() != AffineExprKind::Mul)
      linear = false;
  });
  if (!linear)
    return false;
  auto at = [&](int64_t row) -> std::optional<int64_t> {
    AffineExpr v = simplifyAffineExpr(
        x.replace(getAffineDimExpr(i, ctx), getAffineConstantExpr(row, ctx)),
        kFirstFresh + 64, kMaxSymbols);
    if (auto c = dyn_cast<AffineConstantExpr>(v))
      return c.getValue();
    return std::nullopt;
  };
  std::optional<int64_t> x0 = at(0), x1 = at(1);
  if (!x0 || !x1)
    return false;
  // x(i) = x0 + (x1 - x0) i <= 0 for every row: at row 0 and, growing, at
  // the last one.
  if (*x0 > 0)
    return false;
  if (*x1 <= *x0)
    return true;
  if (ShapedType::isDynamic(nq))
    return false;
  std::optional<int64_t> last = at(nq - 1);
  return last && *last <= 0;
}

/// Whether some key j(i) passes `maskMod` and the causal limit (j <= i +
/// off) in every row: the diagonal j = i + off, j = i, the first key or the
/// last one (`sizesOffset`: the diagonal of dynamic sizes). With the lowest
/// finite float for masked scores the program averages V over a row without
/// keys, where flash.attention gives 0.
static bool everyRowSeesAKey(ExprContext &ec, const Expr *maskMod, unsigned i,
                             unsigned j, int64_t nq, int64_t nk,
                             std::optional<int64_t> off,
                             AffineExpr sizesOffset) {
  using P = arith::CmpIPredicate;
  MLIRContext *ctx = ec.getContext();
  AffineExpr iE = getAffineDimExpr(i, ctx),
             zero = getAffineConstantExpr(0, ctx);
  // With dynamic sizes, the bottom-right diagonal i + Nk - Nq: that it is a
  // key of every row is the causal limit's own question (above: refused
  // where it provably is not).
  if (sizesOffset &&
      holdsForEveryRow(ec, ec.substitute(maskMod, j, iE + sizesOffset), i, nq))
    return true;
  SmallVector<AffineExpr> candidates;
  if (off)
    candidates.push_back(iE + *off);
  candidates.push_back(iE);
  candidates.push_back(zero);
  if (!ShapedType::isDynamic(nk))
    candidates.push_back(getAffineConstantExpr(nk - 1, ctx));
  for (AffineExpr key : candidates) {
    // The key exists (0 <= key < nk) and the causal limit lets it be seen.
    const Expr *all = ec.land(ec.substitute(maskMod, j, key),
                              ec.cmpi(static_cast<int64_t>(P::sge), key, zero));
    if (!ShapedType::isDynamic(nk))
      all = ec.land(all, ec.cmpi(static_cast<int64_t>(P::slt), key,
                                 getAffineConstantExpr(nk, ctx)));
    if (off)
      all = ec.land(all, ec.cmpi(static_cast<int64_t>(P::sle), key, iE + *off));
    if (holdsForEveryRow(ec, all, i, nq))
      return true;
  }
  return false;
}

/// `e` at concrete positions (`i` = iv, `j` = jv): an affine value, or
/// nullopt where it reads anything else (a symbol, another dim).
static std::optional<int64_t> evalAt(AffineExpr e, unsigned i, unsigned j,
                                     int64_t iv, int64_t jv) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue();
  if (auto d = dyn_cast<AffineDimExpr>(e)) {
    if (d.getPosition() == i)
      return iv;
    if (d.getPosition() == j)
      return jv;
    return std::nullopt;
  }
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return std::nullopt;
  std::optional<int64_t> l = evalAt(bin.getLHS(), i, j, iv, jv),
                         r = evalAt(bin.getRHS(), i, j, iv, jv);
  if (!l || !r)
    return std::nullopt;
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return *l + *r;
  case AffineExprKind::Mul:
    return *l * *r;
  case AffineExprKind::FloorDiv:
    return *r > 0 ? std::optional<int64_t>(llvm::divideFloorSigned(*l, *r))
                  : std::nullopt;
  case AffineExprKind::CeilDiv:
    return *r > 0 ? std::optional<int64_t>(llvm::divideCeilSigned(*l, *r))
                  : std::nullopt;
  case AffineExprKind::Mod:
    return *r > 0 ? std::optional<int64_t>(llvm::mod(*l, *r)) : std::nullopt;
  default:
    return std::nullopt;
  }
}

/// An integer of positions only at (iv, jv) (an index expression, or one a
/// narrower type wrapped: ModelBuilder.cpp's wrap.*), or nullopt.
static std::optional<int64_t> evalIntAt(const Expr *e, unsigned i, unsigned j,
                                        int64_t iv, int64_t jv) {
  if (e->kind == Kind::Index)
    return evalAt(e->index[0], i, j, iv, jv);
  if (e->kind == Kind::Const && e->value == std::floor(e->value) &&
      std::fabs(e->value) < 0x1p62)
    return static_cast<int64_t>(e->value);
  StringRef name = e->kind == Kind::Opaque ? StringRef(e->name) : "";
  if (std::optional<Wrap> w = asWrap(e)) {
    std::optional<int64_t> x = evalIntAt(e->ops[0], i, j, iv, jv);
    if (!x)
      return std::nullopt;
    APInt bits =
        APInt(64, static_cast<uint64_t>(*x), /*isSigned=*/true).trunc(w->width);
    return w->zeroExtend ? static_cast<int64_t>(bits.getZExtValue())
                         : bits.getSExtValue();
  }
  // Integer arithmetic the model kept by name, as the regions compute it
  // in i64 (a remainder of a negative difference, (j - i) remsi 3).
  if (e->ops.size() == 2 && name.starts_with("arith.")) {
    std::optional<int64_t> a = evalIntAt(e->ops[0], i, j, iv, jv),
                           b = evalIntAt(e->ops[1], i, j, iv, jv);
    if (!a || !b)
      return std::nullopt;
    APInt x(64, *a, true), y(64, *b, true);
    bool divides = name == "arith.divsi" || name == "arith.remsi" ||
                   name == "arith.divui" || name == "arith.remui" ||
                   name == "arith.floordivsi" || name == "arith.ceildivsi";
    if (divides && y.isZero())
      return std::nullopt;
    std::optional<APInt> r;
    if (name == "arith.addi")
      r = x + y;
    else if (name == "arith.subi")
      r = x - y;
    else if (name == "arith.muli")
      r = x * y;
    else if (name == "arith.divsi")
      r = x.sdiv(y);
    else if (name == "arith.remsi")
      r = x.srem(y);
    else if (name == "arith.divui")
      r = x.udiv(y);
    else if (name == "arith.remui")
      r = x.urem(y);
    else if (name == "arith.maxsi")
      r = x.sge(y) ? x : y;
    else if (name == "arith.minsi")
      r = x.sle(y) ? x : y;
    if (r)
      return r->getSExtValue();
  }
  return std::nullopt;
}

/// A predicate of positions only at (iv, jv), or nullopt.
static std::optional<bool> evalAt(const Expr *e, unsigned i, unsigned j,
                                  int64_t iv, int64_t jv) {
  using P = arith::CmpIPredicate;
  switch (e->kind) {
  case Kind::Const:
    return e->value != 0;
  case Kind::Opaque: {
    // A compare of integers a narrower type wrapped ("arith.cmpi:sle").
    StringRef name = e->name;
    std::optional<P> p;
    if (e->ops.size() == 2 && name.consume_front("arith.cmpi:"))
      p = arith::symbolizeCmpIPredicate(name);
    if (!p)
      return std::nullopt;
    std::optional<int64_t> a = evalIntAt(e->ops[0], i, j, iv, jv),
                           b = evalIntAt(e->ops[1], i, j, iv, jv);
    if (!a || !b)
      return std::nullopt;
    return arith::applyCmpPredicate(*p, APInt(64, *a, true),
                                    APInt(64, *b, true));
  }
  case Kind::CmpI: {
    std::optional<int64_t> x = evalAt(e->index[0], i, j, iv, jv);
    if (!x)
      return std::nullopt;
    switch (static_cast<P>(e->aux)) {
    case P::sle:
      return *x <= 0;
    case P::eq:
      return *x == 0;
    case P::ne:
      return *x != 0;
    default:
      return std::nullopt;
    }
  }
  case Kind::And:
    for (const Expr *o : e->ops) {
      std::optional<bool> b = evalAt(o, i, j, iv, jv);
      if (!b || !*b)
        return b;
    }
    return true;
  case Kind::Not:
    if (std::optional<bool> b = evalAt(e->ops[0], i, j, iv, jv))
      return !*b;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

/// Whether a predicate of the positions alone leaves a row 0 <= i < nq
/// without any key 0 <= j < nk (j <= i + off too), decided by evaluating it
/// at every position of shapes up to 2^22 of them; nullopt where it cannot
/// be (dynamic or larger shapes, or a predicate of anything else).
static std::optional<bool> someRowSeesNoKey(const Expr *maskMod, unsigned i,
                                            unsigned j, int64_t nq, int64_t nk,
                                            std::optional<int64_t> off) {
  if (ShapedType::isDynamic(nq) || ShapedType::isDynamic(nk) ||
      !maskMod->reads.empty() || nq * nk > (int64_t(1) << 22))
    return std::nullopt;
  for (int64_t iv = 0; iv < nq; ++iv) {
    bool seen = false;
    int64_t last = off ? std::min(nk - 1, iv + *off) : nk - 1;
    for (int64_t jv = 0; jv <= last && !seen; ++jv) {
      std::optional<bool> b = evalAt(maskMod, i, j, iv, jv);
      if (!b)
        return std::nullopt;
      seen = *b;
    }
    if (!seen)
      return true;
  }
  return false;
}

/// A reason naming what a score term is, for remarks.
static Reason describeTerm(ExprContext &ec, const Expr *t) {
  if (gathersByReduction(t))
    return "the scores add a table read at positions computed from the "
           "scores themselves, which the raise does not move into a "
           "score_mod";
  std::string op = firstOpaque(t);
  if (!op.empty())
    return "the scores go through '" + op + "'";
  if (t->kind == Kind::IndexF ||
      (t->kind == Kind::Mul &&
       llvm::any_of(t->ops, [](const Expr *o) {
         return o->kind == Kind::IndexF;
       })))
    return "the scores add a bias computed from the positions (e.g. ALiBi), "
           "which flash.attention cannot express yet";
  if (t->kind == Kind::Mul) {
    // A factor without free dims is a runtime scalar; else it varies.
    bool scalar = llvm::any_of(t->ops, [](const Expr *o) {
      return o->freeDims.empty() && o->kind != Kind::Const;
    });
    if (scalar)
      return "the scale is not a constant (a runtime scalar); flash.attention "
             "takes it as an attribute";
    return "the scores are multiplied by something that varies per element "
           "(not a constant scale)";
  }
  if (t->kind == Kind::Reduce &&
      t->aux == static_cast<int64_t>(ReduceKind::Max))
    return "the softmax subtracts a max taken over the query axis, not the "
           "key axis";
  return "the scores have a term that is neither a product of Q and K nor "
         "a mask (" +
         describe(t) + ")";
}

/// `e` without the guards for rows that see no key that a safe softmax puts
/// on its output or on each probability (flash-mlir's own reference and
/// JAX's guarded normalization: where(m == -inf, 0, o); torch's
/// _safe_softmax: where(all(s == -inf), 0, p); where(l == 0, 0, e / l)): a
/// select's conjunct !(m == -inf), m a row max, or !(l == 0), l a row sum
/// of exponentials, which the normal form may merge with the mask's
/// condition. Where it is false the row has no key, which
/// flash.attention gives 0, as the guard does.
static const Expr *withoutEmptyRowConjuncts(ExprContext &ec, const Expr *e) {
  auto isGuard = [](const Expr *c) {
    if (c->kind != Kind::Not)
      return false;
    return isRowMax(comparedWith(c->ops[0], /*negInf=*/true)) ||
           isExpRowSum(comparedWith(c->ops[0], /*negInf=*/false));
  };
  // (Rebuilt bottom-up with the sums renormalized: a guard's reciprocal
  // of the row sum leaves P*V's sum once the guard is gone.)
  std::function<const Expr *(const Expr *)> strip =
      [&](const Expr *x) -> const Expr * {
    if (x->ops.empty())
      return x;
    // A guarded divisor, e / where(l == 0, 1, l) (FlexAttention's form):
    // where the guard holds, every numerator it divides is 0.
    if (x->kind == Kind::Select && x->ops[1]->kind == Kind::Const &&
        x->ops[1]->value != 0 && isGuard(ec.lnot(x->ops[0])))
      return strip(x->ops[2]);
    if (x->kind == Kind::Select && x->ops[2]->isConst(0)) {
      const Expr *c = x->ops[0];
      if (isGuard(c))
        return strip(x->ops[1]);
      if (c->kind == Kind::And && llvm::any_of(c->ops, isGuard)) {
        const Expr *kept = ec.constant(1);
        for (const Expr *o : c->ops)
          if (!isGuard(o))
            kept = ec.land(kept, o);
        return ec.select(kept, strip(x->ops[1]), x->ops[2]);
      }
    }
    if (x->kind == Kind::Reduce)
      return ec.reduce(static_cast<ReduceKind>(x->aux), boundName(x),
                       strip(x->ops[0]));
    return ec.rebuild(x, strip);
  };
  return strip(e);
}

std::optional<Reason>
model::proveForward(ExprContext &ec, const Expr *root, ArrayRef<int64_t> shape,
                    ArrayRef<std::pair<Value, int64_t>> symbols,
                    function_ref<const Expr *(const Expr *)> asLeaf,
                    ForwardFacts &f) {
  unsigned rank = shape.size();
  root = withoutEmptyRowConjuncts(ec, root);
  // A product whose operand the model found identically 0: the weights of a
  // softmax whose every score is masked (the program's rows are NaN, or,
  // with a finite fill added, the unmasked softmax), said rather than
  // passed over as no candidate.
  if (isSum(root) && root->ops[0]->isConst(0))
    return Reason("the contraction's operand is identically zero (a softmax "
                  "whose every score is masked, for every row?)");
  // 1. recip(D) * sum_j N(j) * V.
  double coef;
  SmallVector<const Expr *> outer = factorsOf(root, coef);
  const Expr *pv = nullptr;
  const Expr *num = nullptr, *vRead = nullptr;
  for (const Expr *x : outer) {
    if (!isSum(x))
      continue;
    double ic;
    SmallVector<const Expr *> inner = factorsOf(x->ops[0], ic);
    unsigned j = boundName(x);
    const Expr *n = nullptr;
    for (const Expr *y : inner)
      if (isNumerator(y) && y->dependsOn(j))
        n = y;
    bool hasRead = llvm::any_of(inner, [&](const Expr *y) {
      return y != n && y->dependsOn(j) && y->kind != Kind::Recip;
    });
    if (!n || !hasRead)
      continue;
    if (pv)
      return Reason("the output sums two exponential-weighted products");
    pv = x;
    num = n;
  }
  if (!pv) {
    // One key (a unit key dim, read at 0): the sum over it has nothing
    // varying along it, each probability is 1.
    auto normalizer = [](const Expr *y) {
      return y->kind == Kind::Recip && isExpRowSum(y->ops[0]);
    };
    for (const Expr *x : outer) {
      if (!isSum(x) || x->ops[0]->dependsOn(boundName(x)) ||
          !containsExp(x->ops[0]))
        continue;
      double c3;
      if (llvm::any_of(outer, normalizer) ||
          llvm::any_of(factorsOf(x->ops[0], c3), normalizer))
        return Reason("the softmax is over a single key (its weight is 1, "
                      "the output is V): nothing to fuse");
    }
    // Exponentials that do not vary along the keys over their row sum (a
    // zero scale, or scores of no key): uniform weights.
    if (llvm::any_of(outer,
                     [&](const Expr *x) {
                       return normalizer(x) && !x->ops[0]->ops[0]->dependsOn(
                                                   boundName(x->ops[0]));
                     }) &&
        llvm::any_of(outer, [](const Expr *x) {
          return isSum(x) && !containsExp(x->ops[0]);
        }))
      return Reason("the scores do not vary along the keys (a zero scale?): "
                    "every weight of the softmax is equal");
    // A sum weighted by exponentials that is not in the P*V position: a
    // candidate with something in the way.
    if (!hasExpWeightedSum(root)) {
      // exp-weighted sums times something that does not vary along their
      // keys: P*V reading V at the query index, say.
      double c2;
      SmallVector<const Expr *> fs = factorsOf(root, c2);
      bool expSum = llvm::any_of(fs, [](const Expr *x) {
        return isSum(x) && containsExp(x->ops[0]);
      });
      bool other = llvm::any_of(fs, [](const Expr *x) {
        return !isSum(x) && x->kind != Kind::Recip && x->kind != Kind::Const;
      });
      if (expSum && other)
        return Reason("the product with the probabilities reads its other "
                      "operand along the query axis, not along the keys it "
                      "sums over");
      return std::nullopt;
    }
    if (root->kind == Kind::Add)
      return Reason("the P*V product is added to something (its accumulator "
                    "is not zero, or the output has other terms)");
    return Reason("the probabilities are modified between the softmax and "
                  "P*V (e.g. dropout or a mask applied after the softmax)");
  }
  unsigned j = boundName(pv);
  f.jName = j;
  double ic;
  SmallVector<const Expr *> inner = factorsOf(pv->ops[0], ic);
  // V reads a root dim the numerator does not.
  SmallVector<const Expr *> others;
  bool numSeen = false;
  // A computed V whose own factors the normal form flattened into P*V's
  // product (v * v, a gate times v): all the factors but P's, read as one
  // value of the program, where they are one.
  {
    SmallVector<const Expr *> rest;
    bool skipped = false;
    for (const Expr *y : inner) {
      if (y == num && !skipped) {
        skipped = true;
        continue;
      }
      if (y->kind != Kind::Recip)
        rest.push_back(y);
    }
    if (rest.size() > 1 &&
        llvm::none_of(rest, [](const Expr *y) { return containsExp(y); })) {
      const Expr *prod = ec.constant(1);
      for (const Expr *y : rest)
        prod = ec.mul(prod, y);
      const Expr *leaf = asLeaf(prod);
      if (leaf && leaf->kind == Kind::Read &&
          llvm::any_of(leaf->freeDims, [&](unsigned d) {
            return d < rank && !num->dependsOn(d);
          })) {
        SmallVector<const Expr *> kept{num};
        for (const Expr *y : inner)
          if (y->kind == Kind::Recip)
            kept.push_back(y);
        kept.push_back(leaf);
        inner = kept;
      }
    }
  }
  for (const Expr *y : inner) {
    // (Once: a second factor equal to it, e e / sum e, is another factor.)
    if (y == num && !numSeen) {
      numSeen = true;
      continue;
    }
    // A computed V (a projection, ...) is read as the value it comes from.
    if (y->kind != Kind::Read && y->kind != Kind::Recip && !vRead &&
        !hasExpWeightedSum(y) && !containsExp(y))
      if (const Expr *leaf = asLeaf(y))
        y = leaf;
    if (y->kind == Kind::Read && !vRead &&
        llvm::any_of(y->freeDims, [&](unsigned d) {
          return d < rank && !num->dependsOn(d);
        })) {
      vRead = y;
      continue;
    }
    others.push_back(y);
  }
  // V's own dim may be a unit one (Dv = 1), read at 0.
  if (!vRead)
    for (auto it = others.begin(); it != others.end(); ++it)
      if ((*it)->kind == Kind::Read && (*it)->dependsOn(j) &&
          llvm::any_of(shape, [](int64_t n) { return n == 1; })) {
        vRead = *it;
        others.erase(it);
        break;
      }
  // A weight of the positions alone on the exponentials (e w / sum e w):
  // ModelAlgebra.cpp folds it into the exponent as log(w) where w >= 0
  // follows from its form (exponentials, j + 1); what is left is not.
  for (const Expr *y : inner)
    if (y != num && y->kind != Kind::Recip && y->reads.empty() &&
        y->height == 0 && y->dependsOn(j) && !containsExp(y))
      return Reason("the exponentials are multiplied by a weight of the "
                    "query and key positions that the raise cannot prove "
                    ">= 0 (it adds log(weight) to the scores where it can)");
  if (!vRead)
    return Reason("the product with the probabilities does not read a value "
                  "tensor along a dim of its own");
  for (const Expr *y : others) {
    if (y->kind == Kind::Recip && isSum(y->ops[0]) &&
        containsExp(y->ops[0]))
      return Reason("the softmax normalizes over a different axis than the "
                    "one P*V contracts");
    if (containsExp(y) && y->kind != Kind::Recip)
      return Reason("the probabilities are multiplied by another exponential "
                    "of the scores before P*V (a power of the softmax's "
                    "numerator: P * P, e * e / sum e)");
    if (y->kind == Kind::Recip)
      return Reason("the probabilities are divided by something that varies "
                    "along the keys (" +
                    describe(y->ops[0]) + ")");
    if (y->kind == Kind::Read)
      return Reason("the probabilities are multiplied by a tensor that varies "
                    "per element (dropout-like) before P*V");
    return Reason("the probabilities are multiplied by " + describe(y) +
                  " before P*V");
  }
  // Outside the sum: one reciprocal of the row sum, nothing else.
  const Expr *den = nullptr;
  for (const Expr *x : outer) {
    if (x == pv)
      continue;
    if (x->kind == Kind::Recip && !den) {
      den = x->ops[0];
      continue;
    }
    return Reason("the attention output is multiplied by " + describe(x));
  }
  if (!approx(coef * ic, 1))
    f.outputScale = coef * ic;
  if (!den)
    return Reason("the exponentials are not normalized by their sum over the "
                  "keys (no softmax division)");
  // A mask that does not vary along the keys is pulled out of their sum:
  // it keeps or drops whole query rows, and a row it drops is all masked
  // (NaN or a uniform average in the program, 0 in flash.attention).
  if (den->kind == Kind::Select && !den->ops[0]->dependsOn(j))
    return Reason("the mask does not depend on the key position (it keeps "
                  "or hides whole query rows, e.g. a query-side padding "
                  "mask); a row it hides has no keys, whose softmax is not "
                  "what flash.attention computes");
  if (!isSum(den) ||
      ec.substitute(den->ops[0], boundName(den),
                    getAffineDimExpr(j, ec.getContext())) != num)
    return Reason("the softmax divides by something other than the sum of its "
                  "numerators over the keys P*V contracts");
  f.denominator = den;
  f.probability = ec.mul(num, ec.recip(den));
  f.numerator = num;

  // 2. The exponent: scale * Q.K + mask + row shift.
  const Expr *cond = nullptr, *ex = num;
  // select(c, exp(E), exp(E')) = exp(E + select(c, 0, E' - E)): an additive
  // mask with finite values ((1 - keep) * -10000 over a compare) when
  // E' - E has no product of Q and K, a finite fill otherwise.
  const Expr *selectBias = nullptr, *positionalBias = nullptr;
  // A piecewise function of the scores (s > 0 ? s : 0.1 s): the exponent
  // itself, select(c, A, B), once both exponentials' shared row shift is
  // taken out of it.
  SmallVector<std::pair<const Expr *, double>> piecewise;
  const Expr *unguarded = unguardedShift(ec, num, j);
  if (unguarded != num) {
    ex = unguarded;
  } else if (num->kind == Kind::Select && num->ops[1]->kind == Kind::Select) {
    // A mask around a guarded shift.
    cond = num->ops[0];
    ex = unguardedShift(ec, num->ops[1], j);
    // (A piecewise function of the scores under the mask.)
    if (ex->kind == Kind::Select && ex->ops[1]->kind == Kind::Exp &&
        ex->ops[2]->kind == Kind::Exp)
      piecewise = piecewiseExponent(ec, ex, j);
    if (ex->kind != Kind::Exp && piecewise.empty())
      return Reason("the probabilities' numerator selects between "
                    "exponentials in a way the raise does not prove");
  } else if (num->kind == Kind::Select && num->ops[2]->kind == Kind::Exp) {
    ex = num->ops[1];
    const Expr *d = ec.sub(num->ops[2]->ops[0], ex->ops[0]);
    // (Both exponents varying along the keys, or a condition on the
    // scores: a function of the scores, select(s > t, s, t) too; a fill
    // varies along the rows only, by their max or sum.)
    // (A condition on the scores with exponents a constant apart, s > 0 ?
    // s : s - 10, is one too.)
    if ((containsReduce(d) && ex->ops[0]->dependsOn(j) &&
         num->ops[2]->ops[0]->dependsOn(j)) ||
        containsReduce(num->ops[0])) {
      piecewise = piecewiseExponent(ec, num, j);
      if (piecewise.empty())
        return Reason("the exponent is chosen by a condition between two "
                      "functions of the scores (a piecewise score "
                      "function) whose exponentials do not share their "
                      "row shift");
    } else if (containsReduce(d)) {
      // A finite fill (GPT-2's masked_bias, -10000) leaves the masked
      // scores a weight, so it is no mask: the score_mod select(c, s,
      // fill) keeps it, as a piecewise function of the scores (the row
      // shift both exponentials share taken out).
      piecewise = piecewiseExponent(ec, num, j);
      if (piecewise.empty())
        return Reason("the mask fills the masked scores with a finite "
                      "constant (above -65504, e.g. -10000) whose "
                      "exponential does not share the scores' row shift");
    } else {
      selectBias = ec.select(num->ops[0], ec.constant(0), d);
      // A finite bias on positions (0 / -10000 by an index compare) leaves
      // the masked scores their weight: a score_mod term, exact, rather
      // than a mask.
      if (isPositional(selectBias)) {
        positionalBias = selectBias;
        selectBias = nullptr;
      } else if (!isMaskExpr(selectBias) || !readsPlainly(selectBias)) {
        return Reason("the mask fills the masked scores with " + describe(d) +
                      ", not -inf, finfo.min or -1e9, in a way the raise "
                      "cannot take as an additive mask");
      }
    }
  } else if (num->kind == Kind::Select) {
    cond = num->ops[0];
    ex = num->ops[1];
  }
  const Expr *E = ex->ops[0];
  SmallVector<std::pair<const Expr *, double>> terms;
  double c0 = 0;
  if (!piecewise.empty()) {
    terms = piecewise;
  } else if (E->kind == Kind::Add) {
    c0 = E->value;
    for (auto [t, c] : llvm::zip(E->ops, E->coefs))
      terms.push_back({t, c});
  } else if (E->kind == Kind::Mul && E->ops.size() == 1) {
    terms.push_back({E->ops[0], E->value});
  } else {
    terms.push_back({E, 1});
  }
  SmallVector<std::pair<const Expr *, double>> shift;
  const Expr *dot = nullptr;
  const Expr *qRead = nullptr, *kRead = nullptr;
  SmallVector<std::pair<const Expr *, double>> bias;
  // Terms for the score_mod: functions of the product (soft-capping) and
  // biases of positions (ALiBi, relative-position tables).
  SmallVector<std::pair<const Expr *, double>> modTerms;
  double dotCoef = 1;
  for (auto [t, c] : terms) {
    if (!t->dependsOn(j)) {
      // A row max that starts far above any score (its init +inf or 1e30
      // instead of -inf): exact as a shift, but the program's exponentials
      // all underflow (rows of NaN), flash.attention's would not.
      if (c < 0 && t->kind == Kind::Max)
        for (const Expr *o : t->ops)
          if (o->kind == Kind::Const && o->value >= 1e4) {
            char v[32];
            std::snprintf(v, sizeof(v), "%g", o->value);
            return Reason(std::string("the row max starts at ") + v +
                          ", above the scores: the program's exponentials "
                          "all underflow (its rows are NaN)");
          }
      shift.push_back({t, c});
      continue;
    }
    double spread;
    if (!(isSum(t) && t->ops[0]->kind == Kind::Mul &&
          t->ops[0]->ops.size() == 2))
      if (const Expr *r = regroupedDot(ec, t, j, asLeaf, spread)) {
        t = r;
        c *= spread;
      }
    if (isSum(t) && t->ops[0]->kind == Kind::Mul &&
        t->ops[0]->ops.size() == 2) {
      if (dot)
        return Reason("the scores add two products");
      unsigned d = boundName(t);
      const Expr *a = t->ops[0]->ops[0], *b = t->ops[0]->ops[1];
      // Computed Q and K (projections, rotary embeddings) are read as the
      // values they come from.
      const Expr *la = asLeaf(a), *lb = asLeaf(b);
      if (!la || !lb)
        return Reason("the scores' product reads a computed " +
                      std::string(!la ? "query" : "key") +
                      " operand that is not a tensor of the program");
      a = la;
      b = lb;
      if (a->dependsOn(j))
        std::swap(a, b);
      if (a->dependsOn(j) || !b->dependsOn(j))
        return Reason("the scores' product does not read one operand per "
                      "query and one per key");
      // (Both depend on d: the normal form pulls independent factors out
      // of the sum.)
      dot = t;
      qRead = a;
      kRead = b;
      f.scale = c * t->ops[0]->value;
      f.dName = d;
      dotCoef = c;
      continue;
    }
    // Any other term without Q or K: an additive mask (a tensor, or an
    // expression of tensors such as (1 - m) * finfo.min), or a modifier.
    if (isMaskExpr(t) && !isPositional(t) && readsPlainly(t)) {
      bias.push_back({t, c});
      continue;
    }
    modTerms.push_back({t, c});
  }
  // (With the exponent's constant, as a mask's below: without it the bias
  // would add 10000 to the scores it keeps, rounding them.)
  if (positionalBias) {
    if (c0 != 0)
      positionalBias = ec.add(positionalBias, ec.constant(c0));
    c0 = 0;
    modTerms.push_back({positionalBias, 1});
  }
  // The product inside a function of the scores (c * tanh(s / c)).
  if (!dot) {
    SmallVector<const Expr *> dots;
    for (auto [t, c] : modTerms)
      findDots(t, j, asLeaf, dots);
    if (dots.size() > 1)
      return Reason("the scores combine two different products of queries "
                    "and keys");
    if (dots.size() == 1) {
      dot = dots[0];
      const Expr *a = asLeaf(dot->ops[0]->ops[0]),
                 *b = asLeaf(dot->ops[0]->ops[1]);
      if (a->dependsOn(j))
        std::swap(a, b);
      qRead = a;
      kRead = b;
      f.dName = boundName(dot);
      for (auto [t, c] : modTerms)
        if (ExprContext::contains(t, dot)) {
          dotCoef = coefficientOf(t, dot);
          break;
        }
      f.scale = dotCoef * dot->ops[0]->value;
    }
  }
  if (!dot) {
    if (!modTerms.empty())
      return describeTerm(ec, modTerms.front().first);
    return Reason("the exponent is not a product of queries and keys (" +
                  describe(E) + ")");
  }
  if (!modTerms.empty()) {
    // score_mod(s) with s = scale * q.k: the product is s / dotCoef.
    const Expr *S = ec.opaque("flash.score", {});
    bool plain = llvm::none_of(modTerms, [&](auto &p) {
      return ExprContext::contains(p.first, dot);
    }) || llvm::any_of(terms, [&](auto &p) { return p.first == dot; });
    const Expr *sm = plain ? S : ec.constant(0);
    SmallVector<Value> qk{qRead->tensor, kRead->tensor};
    for (auto [t, c] : modTerms) {
      const Expr *r = ec.replace(t, dot, ec.scale(S, 1.0 / dotCoef));
      if (readsOutsideProducts(r, qk))
        return Reason("the scores add a value read from the query or key "
                      "tensor outside their product, which a score_mod "
                      "cannot read");
      if (!isModifierExpr(r, qk))
        return describeTerm(ec, t);
      sm = ec.add(sm, ec.scale(r, c));
    }
    f.score = S;
    f.scoreMod = sm;
    f.scoreValue = ec.scale(dot, dotCoef);
  }
  if (selectBias)
    bias.push_back({selectBias, 1});
  const Expr *maskAdd = nullptr;
  for (auto [t, c] : bias) {
    if (t->reads.contains(qRead->tensor) || t->reads.contains(kRead->tensor))
      return Reason("the scores add a tensor that is also Q or K");
    maskAdd = maskAdd ? ec.add(maskAdd, ec.scale(t, c)) : ec.scale(t, c);
  }
  // The constant of the exponent goes with the mask: the normal form spells
  // (1 - m) * -1e9 as -1e9 + 1e9 * m, and a mask without its constant adds
  // 1e9 to the scores it keeps, which rounds them away (exact in real
  // arithmetic, softmax being shift-invariant; not in floats).
  if (maskAdd && c0 != 0) {
    maskAdd = ec.add(maskAdd, ec.constant(c0));
    c0 = 0;
  }
  f.rowShift = ec.constant(c0);
  for (auto [t, c] : shift)
    f.rowShift = ec.add(f.rowShift, ec.scale(t, c));
  const Expr *maskRead = maskAdd && maskAdd->kind == Kind::Read ? maskAdd
                                                                : nullptr;

  // 3. Roles of the root dims.
  auto dimsOf = [&](const Expr *r) {
    llvm::SmallDenseSet<unsigned, 8> s;
    for (AffineExpr e : r->index) {
      Atom a = atomOf(e);
      if (a.kind == Atom::Dim || a.kind == Atom::Div)
        s.insert(a.dim);
    }
    return s;
  };
  auto qd = dimsOf(qRead), kd = dimsOf(kRead), vd = dimsOf(vRead);
  std::optional<unsigned> iDim, eDim;
  SmallVector<unsigned> queryLike;
  for (unsigned d = 0; d < rank; ++d) {
    if (qd.contains(d) && !kd.contains(d) && !vd.contains(d))
      queryLike.push_back(d);
    if (vd.contains(d) && !qd.contains(d) && !kd.contains(d)) {
      if (eDim)
        return Reason("V varies along two dims that Q and K do not");
      eDim = d;
    }
  }
  // Several dims only Q reads (MQA: K/V have no head dim): any of them may
  // be the query axis, the others are heads with one kv head; the mask, or
  // else the longest (a dynamic one, or the last), is taken.
  for (unsigned d : queryLike) {
    auto longer = [&](unsigned a, unsigned b) {
      int64_t x = shape[a], y = shape[b];
      if (ShapedType::isDynamic(x) != ShapedType::isDynamic(y))
        return ShapedType::isDynamic(x);
      return x > y || (x == y && a > b);
    };
    if (!iDim || longer(d, *iDim))
      iDim = d;
  }
  if (maskRead)
    for (unsigned d : queryLike)
      if (maskRead->dependsOn(d) && !maskRead->dependsOn(*iDim))
        iDim = d;
  // Dims of extent 1 are read at 0 everywhere: a unit query axis (decode,
  // Nq = 1) or value dim is one of them, the others are unit batch dims.
  auto unitDims = [&]() {
    SmallVector<unsigned> u;
    for (unsigned d = 0; d < rank; ++d)
      if (shape[d] == 1 && !qd.contains(d) && !kd.contains(d) &&
          !vd.contains(d) && d != iDim && d != eDim)
        u.push_back(d);
    return u;
  };
  if (!eDim && !unitDims().empty())
    eDim = unitDims().back();
  if (!iDim && !unitDims().empty())
    iDim = unitDims().back();
  if (!iDim)
    return Reason("no dim of the output is the query axis of Q");
  if (!eDim)
    return Reason("no dim of the output is the head dim of V");
  // The GQA dim: read as h floordiv g by K and V.
  std::optional<unsigned> gqa;
  for (const Expr *r : {kRead, vRead})
    for (AffineExpr e : r->index) {
      Atom a = atomOf(e);
      if (a.kind != Atom::Div)
        continue;
      if ((gqa && *gqa != a.dim) || (f.group != 1 && f.group != a.div))
        return Reason("K and V group the query heads differently");
      gqa = a.dim;
      f.group = a.div;
    }
  SmallVector<unsigned> batch;
  for (unsigned d = 0; d < rank; ++d)
    if (d != *iDim && d != *eDim && (!gqa || d != *gqa))
      batch.push_back(d);
  std::optional<unsigned> head = gqa;
  if (!head) {
    // MQA: the last batch dim that neither K nor V reads is the head.
    for (unsigned d : llvm::reverse(batch))
      if (!kd.contains(d) && !vd.contains(d) && shape[d] != 1) {
        head = d;
        f.kvBroadcastHead = true;
        break;
      }
    if (head)
      llvm::erase(batch, *head);
  }
  if (head)
    batch.push_back(*head);
  f.numBatch = batch.size();
  f.canonical = batch;
  f.canonical.push_back(*iDim);
  f.canonical.push_back(*eDim);
  auto batchIndex = [&](unsigned d) -> std::optional<unsigned> {
    auto it = llvm::find(batch, d);
    if (it == batch.end())
      return std::nullopt;
    return it - batch.begin();
  };

  // 4. Leaf layouts.
  enum Leaf { LQ, LK, LV, LMask };
  auto layout = [&](const Expr *r, Leaf which, StringRef name,
                    LeafLayout &out) -> Reason {
    out.tensor = r->tensor;
    llvm::SmallDenseSet<unsigned, 8> seen;
    for (AffineExpr e : r->index) {
      Atom a = atomOf(e);
      DimRole role{DimRole::Unit};
      if (a.kind == Atom::Zero) {
        out.dims.push_back(role);
        continue;
      }
      if (a.kind == Atom::Other)
        return (name + " is read at a shifted or combined index (a "
                       "relative-position table, a gather), not through a "
                       "permutation of the attention's dims")
            .str();
      if (!seen.insert(a.dim).second)
        return (name + " reads one dim twice").str();
      bool kv = which == LK || which == LV;
      if (a.kind == Atom::Div) {
        if (!kv)
          return (name + " is read at a grouped index (h floordiv g), which "
                         "only K and V may be")
              .str();
        role = {DimRole::Batch, f.numBatch - 1};
      } else if (a.dim == j && which != LQ) {
        role = {DimRole::Key};
      } else if (a.dim == f.dName && (which == LQ || which == LK)) {
        role = {DimRole::Head};
      } else if (a.dim == *eDim && which == LV) {
        role = {DimRole::Value};
      } else if (a.dim == *iDim && (which == LQ || which == LMask)) {
        role = {DimRole::Query};
      } else if (auto b = batchIndex(a.dim);
                 b && !(kv && gqa && a.dim == *gqa)) {
        role = {DimRole::Batch, *b};
      } else {
        return (name + " varies along a dim it should not (" +
                (a.dim == *iDim   ? "the query axis"
                 : a.dim == *eDim ? "V's head dim"
                 : a.dim == j     ? "the key axis"
                                  : "a head dim") +
                ")")
            .str();
      }
      out.dims.push_back(role);
    }
    return "";
  };
  Reason why;
  if (!(why = layout(qRead, LQ, "Q", f.q)).empty() ||
      !(why = layout(kRead, LK, "K", f.k)).empty() ||
      !(why = layout(vRead, LV, "V", f.v)).empty())
    return why;
  // Q reads every batch dim.
  for (unsigned d : batch)
    if (!qd.contains(d) && shape[d] != 1)
      return Reason("Q does not vary along the batch dim " +
                    std::to_string(d) + " of the output");

  // 5. The keep condition: causal compares and i1 masks.
  SmallVector<const Expr *> atoms;
  if (cond) {
    if (cond->kind == Kind::And)
      atoms.append(cond->ops.begin(), cond->ops.end());
    else
      atoms.push_back(cond);
  }
  const Expr *keep = nullptr;
  SmallVector<const Expr *> keepMods;
  // e == 0 is e <= 0 and -e <= 0 (chunked attention's i / c == j / c: two
  // affine bounds); e != 0 (no self-attention, j != i) stays a mask_mod
  // predicate.
  using P = arith::CmpIPredicate;
  for (size_t n = 0; n < atoms.size(); ++n) {
    const Expr *a = atoms[n];
    if (a->kind != Kind::CmpI || a->aux != static_cast<int64_t>(P::eq))
      continue;
    AffineExpr zero = getAffineConstantExpr(0, ec.getContext());
    atoms[n] = ec.cmpi(static_cast<int64_t>(P::sle), a->index[0], zero);
    atoms.push_back(ec.cmpi(static_cast<int64_t>(P::sge), a->index[0], zero));
  }
  for (const Expr *a : atoms) {
    if (a->kind == Kind::CmpI && a->aux == static_cast<int64_t>(P::ne)) {
      keepMods.push_back(a);
      continue;
    }
    if (a->kind == Kind::CmpI) {
      assert(a->aux == static_cast<int64_t>(P::sle) && "canonical compare");
      // e <= 0 with e = cj * j + ci * i + rest (rest: constants and
      // tensor sizes).
      AffineExpr e = a->index[0];
      MLIRContext *ctx = ec.getContext();
      auto at = [&](int64_t iv, int64_t jv) {
        SmallVector<AffineExpr> repl;
        for (unsigned d = 0; d < kFirstFresh + 64; ++d)
          repl.push_back(getAffineDimExpr(d, ctx));
        repl[*iDim] = getAffineConstantExpr(iv, ctx);
        repl[j] = getAffineConstantExpr(jv, ctx);
        return simplifyAffineExpr(e.replaceDims(repl), kFirstFresh + 64,
                                  kMaxSymbols);
      };
      auto diff = [&](AffineExpr x, AffineExpr y) -> std::optional<int64_t> {
        if (auto c = dyn_cast<AffineConstantExpr>(
                simplifyAffineExpr(x - y, kFirstFresh + 64, kMaxSymbols)))
          return c.getValue();
        return std::nullopt;
      };
      AffineExpr rest = at(0, 0);
      auto ci = diff(at(1, 0), rest), cj = diff(at(0, 1), rest);
      auto c23 = diff(at(2, 3), rest);
      // Anything but j <= i + offset is a mask_mod (windows, prefixes,
      // length cutoffs, block masks).
      if (!ci || !cj || !c23 || llvm::any_of(a->freeDims, [&](unsigned d) {
            return d != *iDim && d != j;
          }) || *c23 != 2 * *ci + 3 * *cj || *cj != 1 || *ci != -1) {
        keepMods.push_back(a);
        continue;
      }
      // j <= i - rest.
      if (auto c = dyn_cast<AffineConstantExpr>(rest)) {
        int64_t off = -c.getValue();
        f.causalOffset =
            f.causalOffset ? std::min(*f.causalOffset, off) : off;
        continue;
      }
      // -rest = Nk - Nq: the default (bottom-right) offset.
      std::optional<unsigned> nk, nq;
      for (auto [n, symbol] : llvm::enumerate(symbols)) {
        const std::pair<Value, int64_t> &sym = symbol;
        auto role = [&](const LeafLayout &l) -> std::optional<DimRole> {
          if (sym.first != l.tensor ||
              sym.second >= static_cast<int64_t>(l.dims.size()))
            return std::nullopt;
          return l.dims[sym.second];
        };
        for (const LeafLayout *l : {&f.k, &f.v})
          if (auto r = role(*l); r && r->kind == DimRole::Key)
            nk = n;
        if (auto r = role(f.q); r && r->kind == DimRole::Query)
          nq = n;
      }
      if (nk && nq &&
          diff(rest, getAffineSymbolExpr(*nq, ctx) -
                         getAffineSymbolExpr(*nk, ctx)) == 0) {
        f.causalDefaultOffset = true;
        f.defaultOffset = -rest;
        continue;
      }
      // Another offset (from other sizes): a mask_mod reading them.
      keepMods.push_back(a);
      continue;
    }
    if (a->reads.contains(qRead->tensor) || a->reads.contains(kRead->tensor))
      return Reason("the mask depends on the scores");
    if (isMaskExpr(a) && !isPositional(a) && readsPlainly(a)) {
      keep = keep ? ec.land(keep, a) : a;
      continue;
    }
    if (!isModifierExpr(a, {qRead->tensor, kRead->tensor}))
      return Reason("the mask is a predicate flash.attention cannot take as "
                    "an operand or a mask_mod (" +
                    describe(a) + ")");
    keepMods.push_back(a);
  }
  for (const Expr *a : keepMods)
    f.maskMod = f.maskMod ? ec.land(f.maskMod, a) : a;
  // The modifiers see the batch dims, i and j only.
  for (const Expr *m : {f.scoreMod, f.maskMod})
    if (m && llvm::any_of(m->freeDims, [&](unsigned d) {
          return d != *iDim && d != j && !llvm::is_contained(batch, d);
        }))
      return Reason(std::string("the ") +
                    (m == f.scoreMod ? "score modifier" : "mask") +
                    " varies along a dim that is not a batch, query or key "
                    "position (the head dim of Q, K or V)");
  if (f.causalDefaultOffset && f.causalOffset)
    return Reason("two causal masks with different offsets");
  // With finfo.min instead of -inf, a row whose every key is masked is the
  // uniform average of V in the program, where flash.attention gives 0 and
  // lse = -inf. Where the positions may leave a row without keys, the
  // raise averages V into those rows after the op (RaiseAttention.cpp):
  // the mask stays a mask (its key blocks skipped).
  if (!ec.lowestFiniteFills.empty()) {
    std::optional<int64_t> off = f.causalOffset;
    if (!off && f.causalDefaultOffset && !ShapedType::isDynamic(shape[*iDim])) {
      int64_t nk = keyExtent(f);
      if (!ShapedType::isDynamic(nk))
        off = nk - shape[*iDim];
    }
    bool emptyRows = off && *off < 0;
    // A mask_mod too: where it leaves rows without keys, or where it reads
    // only positions and no key every row sees could be found. (One that
    // reads tensors, a document mask, below.)
    if (!emptyRows && f.maskMod &&
        !everyRowSeesAKey(ec, f.maskMod, *iDim, j, shape[*iDim], keyExtent(f),
                          off, off ? AffineExpr() : f.defaultOffset)) {
      std::optional<bool> empty = someRowSeesNoKey(
          f.maskMod, *iDim, j, shape[*iDim], keyExtent(f), off);
      emptyRows = empty.value_or(f.maskMod->reads.empty());
    }
    // The average is the program's only where every masked score is one
    // value, the fill (one fill, selected rather than added: an additive
    // mask tensor may add two), and nothing else sends a score to -inf.
    bool oneFill = ec.lowestFiniteFills.size() == 1 && !maskAdd;
    if (emptyRows) {
      if (!oneFill)
        return Reason(
            "the mask fills with a finite stand-in for -inf (finfo.min, "
            "-1e9), leaves rows without any key (where the program averages "
            "V uniformly, flash.attention gives 0) and mixes fills or mask "
            "tensors, whose rows the raise cannot average");
      f.emptyRowsAverage = true;
    } else if (oneFill &&
               (keep || (f.maskMod && !f.maskMod->reads.empty()))) {
      // A mask read from tensors (padding, documents) may hide whole rows
      // too: averaged in a forward alone (RaiseAttention.cpp).
      f.emptyRowsFromTensors = true;
    }
  }
  // One mask operand: a tensor as it is, or an expression materialized.
  if (keep && maskAdd)
    f.maskExpr = ec.select(keep, maskAdd, ec.negInf());
  else
    f.maskExpr = keep ? keep : maskAdd;
  f.maskIsKeep = keep && !maskAdd;
  if (f.maskExpr) {
    SmallVector<const Expr *> leaves;
    collectReads(f.maskExpr, leaves);
    for (const Expr *r : leaves) {
      LeafLayout ml;
      if (!(why = layout(r, LMask, "the mask", ml)).empty())
        return why;
      if (r == f.maskExpr &&
          (!f.maskIsKeep ||
           getElementTypeOrSelf(r->tensor.getType()).isInteger(1)))
        f.mask = ml;
    }
    f.maskDims = f.canonical;
    f.maskDims.pop_back();
  }
  return Reason();
}

const Expr *model::logSumExp(ExprContext &ec, const ForwardFacts &f) {
  return ec.sub(ec.log(f.denominator), f.rowShift);
}

const Expr *model::withoutEmptyRowLseGuard(const Expr *e) {
  // select(!(l == 0), x, -inf), the masked value normalized to the right.
  if (e->kind != Kind::Select || e->ops[2]->kind != Kind::NegInf ||
      e->ops[0]->kind != Kind::Not)
    return e;
  if (!isExpRowSum(comparedWith(e->ops[0]->ops[0], /*negInf=*/false)))
    return e;
  return e->ops[1];
}

std::optional<DenseMap<unsigned, AffineExpr>>
model::alignRoots(const Expr *forwardRead, ArrayRef<AffineExpr> index) {
  if (forwardRead->index.size() != index.size())
    return std::nullopt;
  DenseMap<unsigned, AffineExpr> map;
  for (auto [fe, e] : llvm::zip(forwardRead->index, index)) {
    Atom a = atomOf(fe);
    if (a.kind == Atom::Zero)
      continue;
    if (a.kind != Atom::Dim)
      return std::nullopt;
    auto [it, inserted] = map.insert({a.dim, e});
    if (!inserted && it->second != e)
      return std::nullopt;
  }
  return map;
}

const Expr *model::substituteAll(ExprContext &ec, const Expr *e,
                                 const DenseMap<unsigned, AffineExpr> &map) {
  // Two steps (old -> fresh -> new) so that the renamings do not collide.
  SmallVector<std::pair<unsigned, AffineExpr>> second;
  for (auto [from, to] : map) {
    unsigned f = ec.freshDim();
    e = ec.substitute(e, from, getAffineDimExpr(f, ec.getContext()));
    second.push_back({f, to});
  }
  for (auto [f, to] : second)
    e = ec.substitute(e, f, to);
  return e;
}
