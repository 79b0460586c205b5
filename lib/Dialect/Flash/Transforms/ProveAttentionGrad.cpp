//===- ProveAttentionGrad.cpp - Prove a joint graph's backward ------------===//
//
// The probabilities P of a proven forward may also feed the backward that
// autodiff wrote for it. Starting from P's uses, every value reached is
// modeled (with P and the forward's output O as leaves) and compared with
// the backward's products, built in the same normal form:
//
//   dP(i, j) = sum_e dO(i, e) V(j, e)
//   D(i)     = sum_j P(i, j) dP(i, j)       or  sum_e dO(i, e) O(i, e)
//   dS(i, j) = P(i, j) (dP(i, j) - D(i))
//   dV(j, e) = sum_i P(i, j) dO(i, e)
//   dQ(i, d) = scale sum_j dS(i, j) K(j, d)
//   dK(j, d) = scale sum_i dS(i, j) Q(i, d)
//
// With grouped K/V heads (GQA: K and V read at kv head h floordiv G; MQA:
// K and V without a head), dK and dV are the sums over each kv head's query
// heads, which is what autodiff writes for the repeat (an expand_shape of
// the heads and a sum over the group): the templates read Q, P, O and dO at
// query head G hk + g (MQA: g), K and V at kv head hk, and sum over g.
//
// Because both sides are in normal form, every algebraically equal spelling
// (dS as P dP - P D, the scale on dS, on the products or folded, D from
// either formula, transposes anywhere) is one pointer. A value equal to dQ,
// dK or dV is an output; every other value reached must die with P.
//
//===----------------------------------------------------------------------===//

#include "RaiseAttention.h"
#include "mlir/IR/IRMapping.h"
#include "flash/Dialect/Flash/Transforms/Transforms.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <limits>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::model;
using namespace mlir::flash::raise;

namespace {

/// Free dims of the role space the templates are built in: the root's dims,
/// plus J (a key) and Dd (Q/K's head dim).
constexpr unsigned kJ = 30, kDd = 31;
/// The kv head of grouped K/V heads (dK and dV's head dim).
constexpr unsigned kHk = 32;
/// A backward value's own dims start here.
constexpr unsigned kOwn = 48;

struct GradProver {
  ExprContext &ec;
  const ForwardFacts &f;
  const Expr *rootExpr;
  Value root;
  /// P (one of its forms) and its index in role space.
  Value p;
  const Expr *pT = nullptr;
  /// Forward leaves in role space.
  const Expr *qT = nullptr, *kT = nullptr, *vT = nullptr, *oT = nullptr;
  /// Whether the backward reads intermediates of P (a hand-written
  /// softmax's e and l, differentiated through: e dP / l - e sum(e dP) /
  /// l^2) instead of P: its models then read through them to Q and K, and
  /// the templates' P is the probability's own expression.
  bool throughP = false;
  /// dO once known, and its read in role space.
  Value dO;
  const Expr *dOT = nullptr;
  LeafLayout dOLayout;
  /// Set where a dQ or dK matched but for rows without keys under a
  /// finite fill that the program does not re-mask (match()): rows of
  /// positions (refused), or of a mask read from tensors (BackwardFacts).
  bool unmaskedEmptyRows = false, dSNotRemasked = false;

  AffineExpr dim(unsigned d) { return getAffineDimExpr(d, ec.getContext()); }

  /// `read` (a Read over root dims and the bound names of j and d) in role
  /// space.
  const Expr *toRoles(const Expr *read) {
    const Expr *r = ec.substitute(read, f.jName, dim(kJ));
    return ec.substitute(r, f.dName, dim(kDd));
  }

  /// sum over a fresh copy of role dim `d` of `body`.
  const Expr *sumOver(unsigned d, const Expr *body) {
    unsigned fr = ec.freshDim();
    return ec.reduce(ReduceKind::Sum, fr, ec.substitute(body, d, dim(fr)));
  }

  unsigned iDim() const { return f.canonical[f.numBatch]; }
  unsigned eDim() const { return f.canonical[f.numBatch + 1]; }

  const Expr *dP() { return sumOver(eDim(), ec.mul(dOT, vT)); }
  const Expr *delta(bool fromO) {
    if (fromO)
      return sumOver(eDim(), ec.mul(dOT, oT));
    return sumOver(kJ, ec.mul(pT, dP()));
  }
  /// d score_mod / d s at (i, j) in role space (null: no score_mod).
  const Expr *modDerivative = nullptr;
  const Expr *dS(bool fromO) {
    const Expr *r = ec.mul(pT, ec.sub(dP(), delta(fromO)));
    return modDerivative ? ec.mul(r, modDerivative) : r;
  }
  const Expr *dV() { return sumOver(iDim(), ec.mul(pT, dOT)); }
  const Expr *dQ(bool fromO) {
    return ec.scale(sumOver(kJ, ec.mul(dS(fromO), kT)), f.scale);
  }
  const Expr *dK(bool fromO) {
    return ec.scale(sumOver(iDim(), ec.mul(dS(fromO), qT)), f.scale);
  }

  bool groupedHeads() const { return f.group > 1 || f.kvBroadcastHead; }

  /// The leaves' reads a template is built from (those of a grouped one
  /// differ).
  struct Leaves {
    const Expr *p, *q, *k, *v, *o, *dO, *modDerivative;
  };
  Leaves leaves() const { return {pT, qT, kT, vT, oT, dOT, modDerivative}; }
  void setLeaves(const Leaves &l) {
    std::tie(pT, qT, kT, vT, oT, dOT, modDerivative) =
        std::tie(l.p, l.q, l.k, l.v, l.o, l.dO, l.modDerivative);
  }

  /// `build()` (dK or dV) for grouped K/V heads: summed over the query heads
  /// G hk + g of kv head hk (MQA: every head g), with the leaves it reads
  /// in `used`. With `split` = b (a divisor of G), the group's sum as two, over
  /// g1 < G / b and g2 < b with g = b g1 + g2 (heads expanded to [Hkv, G / b,
  /// b]), g2's the inner one, or g1's with `swap`.
  const Expr *grouped(function_ref<const Expr *()> build, Leaves &used,
                      int64_t split = 1, bool swap = false) {
    unsigned h = f.canonical[f.numBatch - 1];
    unsigned g = ec.freshDim(), g2 = ec.freshDim();
    AffineExpr inGroup = split > 1 ? dim(g) * split + dim(g2) : dim(g);
    AffineExpr qHead =
        f.kvBroadcastHead ? dim(g) : dim(kHk) * f.group + inGroup;
    Leaves saved = leaves();
    // (K's and V's h floordiv G inside, in a score modifier's derivative,
    // becomes hk + g floordiv G: 0 <= g < G makes it hk.)
    ExtentFn extents = [&](unsigned d) -> std::optional<int64_t> {
      if (d == g && !f.kvBroadcastHead)
        return f.group / split;
      if (d == g2 && split > 1)
        return split;
      return std::nullopt;
    };
    auto atQueryHead = [&](const Expr *t) {
      return t ? ec.substitute(t, h, qHead, &extents) : nullptr;
    };
    // K and V at the kv head: their index `h floordiv G` becomes hk.
    auto atKvHead = [&](const Expr *t) {
      SmallVector<AffineExpr> idx;
      for (AffineExpr e : t->index)
        idx.push_back(e.isFunctionOfDim(h) ? dim(kHk) : e);
      return ec.read(t->tensor, idx);
    };
    setLeaves({atQueryHead(pT), atQueryHead(qT), atKvHead(kT), atKvHead(vT),
               atQueryHead(oT), atQueryHead(dOT), atQueryHead(modDerivative)});
    used = leaves();
    const Expr *r = build();
    if (split > 1) {
      r = ec.reduce(ReduceKind::Sum, swap ? g : g2, r);
      r = ec.reduce(ReduceKind::Sum, swap ? g2 : g, r);
    } else {
      r = ec.reduce(ReduceKind::Sum, g, r);
    }
    setLeaves(saved);
    return r;
  }

  /// Maps role dims to the expressions of `m`'s space by aligning the reads
  /// of the templates' leaves with those in `m`.
  std::optional<DenseMap<unsigned, AffineExpr>> align(const Expr *m,
                                                      const Leaves &l) {
    DenseMap<unsigned, AffineExpr> map;
    SmallVector<const Expr *> reads;
    for (const Expr *t : {l.p, l.q, l.k, l.v, l.o, l.dO})
      if (t && t->kind == Kind::Read)
        reads.push_back(t);
    for (const Expr *t : reads) {
      SmallVector<const Expr *> found;
      collectReads(m, t->tensor, found);
      for (const Expr *r : found)
        for (auto [te, me] : llvm::zip(t->index, r->index))
          if (!alignIndex(te, me, map))
            return std::nullopt;
    }
    return map;
  }

  /// Maps the role dims of index `te` to the own dims at the same places of
  /// `me` (a grouped head G hk + g against 2 d49 + g'); false on a clash.
  static bool alignIndex(AffineExpr te, AffineExpr me,
                         DenseMap<unsigned, AffineExpr> &map) {
    auto td = dyn_cast<AffineDimExpr>(te);
    auto md = dyn_cast<AffineDimExpr>(me);
    if (td && md) {
      if (md.getPosition() < kOwn)
        return true; // bound dims
      auto [it, inserted] = map.insert({td.getPosition(), me});
      return inserted || it->second == me;
    }
    auto tb = dyn_cast<AffineBinaryOpExpr>(te);
    auto mb = dyn_cast<AffineBinaryOpExpr>(me);
    if (tb && mb && tb.getKind() == mb.getKind() &&
        tb.getKind() != AffineExprKind::FloorDiv &&
        tb.getKind() != AffineExprKind::Mod)
      return alignIndex(tb.getLHS(), mb.getLHS(), map) &&
             alignIndex(tb.getRHS(), mb.getRHS(), map);
    return true; // constants, floordivs and mods: nothing to learn
  }

  static bool isSumOfTwo(const Expr *e) {
    return e->kind == Kind::Reduce &&
           e->aux == static_cast<int64_t>(ReduceKind::Sum) &&
           e->ops[0]->kind == Kind::Mul && e->ops[0]->ops.size() == 2;
  }

  void collectReads(const Expr *e, Value t, SmallVectorImpl<const Expr *> &out) {
    if (!e->reads.contains(t))
      return;
    if (e->kind == Kind::Read && e->tensor == t) {
      if (!llvm::is_contained(out, e))
        out.push_back(e);
      return;
    }
    for (const Expr *o : e->ops)
      collectReads(o, t, out);
  }

  /// Learns dO's layout from a product P(x, j) dO(x, e) or dO(i, e) V(j, e)
  /// in `m`: the dims of its read are P's or the one left (e).
  void learnDO(const Expr *m, ModelBuilder &mb) {
    if (dO)
      return;
    // dO is the other factor of a product with P (dV = sum P dO) or with V
    // (dP = sum dO V); a computed dO (2 (O - Y), a projection) is read as
    // the value it comes from, which then becomes a leaf of the model.
    // (A constant times the product, c sum P dO: dO scaled before the
    // backward, by a mean loss's 1/n, is the computed dO c dO when the
    // program has it as a value.)
    const Expr *fac = nullptr;
    double facScale = 1;
    std::function<void(const Expr *)> search = [&](const Expr *e) {
      if (fac)
        return;
      // (Also over sums of the product: dV of grouped heads sums over the
      // group too, c sum_g sum_i P dO.)
      if (e->kind == Kind::Mul && e->ops.size() == 1 && e->value != 1) {
        search(e->ops[0]);
        if (fac)
          facScale = e->value;
        return;
      }
      if (isSumOfTwo(e)) {
        const Expr *a = e->ops[0]->ops[0], *b = e->ops[0]->ops[1];
        auto isLeaf = [&](const Expr *x, Value t) {
          return x->kind == Kind::Read && x->tensor == t;
        };
        for (auto [x, y] : {std::make_pair(a, b), std::make_pair(b, a)})
          if ((isLeaf(x, p) || isLeaf(x, f.v.tensor)) &&
              !isLeaf(y, p) && !isLeaf(y, f.v.tensor) && y != oT) {
            fac = y;
            return;
          }
      }
      // (Through P: a product under a sum whose one plain leaf is not Q,
      // K, V or O, the others reading K or V: sum_i e recip(l) dO.)
      if (throughP && e->kind == Kind::Reduce && e->ops[0]->kind == Kind::Mul) {
        const Expr *leaf = nullptr;
        bool others = true;
        for (const Expr *o : e->ops[0]->ops) {
          bool plain =
              o->kind == Kind::Read &&
              !llvm::is_contained({f.q.tensor, f.k.tensor, f.v.tensor, root},
                                  o->tensor);
          if (plain && !leaf)
            leaf = o;
          else
            others &=
                o->reads.contains(f.k.tensor) || o->reads.contains(f.v.tensor);
        }
        if (leaf && others && e->ops[0]->ops.size() > 1) {
          fac = leaf;
          return;
        }
      }
      for (const Expr *o : e->ops)
        search(o);
    };
    search(m);
    if (!fac)
      return;
    const Expr *leafRead = nullptr;
    if (facScale != 1) {
      if ((leafRead = mb.asLeaf(ec.scale(fac, facScale))))
        fac = ec.scale(fac, facScale);
    }
    if (!leafRead)
      leafRead = mb.asLeaf(fac);
    if (!leafRead || leafRead->tensor == root)
      return;
    // Align P's (or V's) dims in m with role dims; dO's remaining dim is e.
    auto ownMap = [&](const Expr *t) {
      DenseMap<AffineExpr, unsigned> inv;
      SmallVector<const Expr *> rs;
      collectReads(m, t->tensor, rs);
      for (const Expr *r : rs)
        for (auto [te, me] : llvm::zip(t->index, r->index))
          if (auto td = dyn_cast<AffineDimExpr>(te))
            inv.insert({me, td.getPosition()});
      return inv;
    };
    DenseMap<AffineExpr, unsigned> inv =
        pT->kind == Kind::Read ? ownMap(pT) : DenseMap<AffineExpr, unsigned>();
    for (auto [k, v] : ownMap(vT))
      inv.insert({k, v});
    // (Through P, Q's reads inside P's expression give the query axis.)
    if (throughP)
      for (auto [k, v] : ownMap(qT))
        inv.insert({k, v});
    // dO's layout from its read `r`, or false.
    auto learn = [&](const Expr *r, bool computed) {
      Value cand = r->tensor;
      SmallVector<AffineExpr> roleIdx;
      LeafLayout layout{cand, {}};
      bool sawE = false;
      for (AffineExpr me : r->index) {
        if (auto c = dyn_cast<AffineConstantExpr>(me); c && c.getValue() == 0) {
          roleIdx.push_back(me);
          layout.dims.push_back({DimRole::Unit});
          continue;
        }
        auto it = inv.find(me);
        unsigned role;
        if (it != inv.end() && it->second != kJ && it->second != eDim()) {
          role = it->second;
        } else if (!sawE) {
          role = eDim();
          sawE = true;
        } else {
          return false;
        }
        if (role == kDd)
          return false;
        roleIdx.push_back(dim(role));
        auto pos = llvm::find(f.canonical, role) - f.canonical.begin();
        if (pos >= static_cast<long>(f.canonical.size()))
          return false;
        layout.dims.push_back(
            pos < f.numBatch
                ? DimRole{DimRole::Batch, static_cast<unsigned>(pos)}
            : role == iDim() ? DimRole{DimRole::Query}
                             : DimRole{DimRole::Value});
      }
      if (!sawE)
        return false;
      dO = cand;
      dOT = ec.read(cand, roleIdx);
      dOLayout = layout;
      if (computed) {
        mb.stopAt.insert(cand);
        mb.resetMemo();
      }
      return true;
    };
    if (learn(leafRead, fac->kind != Kind::Read))
      return;
    // dO read at a combined index (2 k + g) where the program's canonical
    // space spells the grouped heads out: the view of dO that does too (an
    // expand_shape to [B, Hkv, G, N, D]), then a leaf of the models.
    if (llvm::any_of(leafRead->index, [](AffineExpr e) {
          return !isa<AffineDimExpr, AffineConstantExpr>(e);
        }))
      if (const Expr *view = mb.asLeaf(leafRead, /*ofViews=*/true))
        learn(view, /*computed=*/true);
  }

  /// Whether `c` implies `d` (both visibility conditions at one position):
  /// equal, a conjunction with a conjunct that does, or the same signed
  /// bound on a position difference, looser (j <= i + 4 implies j <= i + 6:
  /// a backward re-masking with a wider window than its forward's).
  static bool implies(const Expr *c, const Expr *d) {
    if (c == d)
      return true;
    if (c->kind == Kind::And)
      return llvm::any_of(c->ops, [&](const Expr *o) { return implies(o, d); });
    using P = arith::CmpIPredicate;
    if (c->kind != Kind::CmpI || d->kind != Kind::CmpI || c->aux != d->aux ||
        (c->aux != static_cast<int64_t>(P::sle) &&
         c->aux != static_cast<int64_t>(P::slt)))
      return false;
    // c: a <pred> 0, d: a' <pred> 0, a' = a - delta with delta >= 0.
    auto delta = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(
        c->index[0] - d->index[0], kFirstFresh + 4096, kMaxSymbols));
    return delta && delta.getValue() >= 0;
  }

  /// `m` without the selects that re-apply the forward's mask to a
  /// multiple of P: select(c, x, 0) is x where every term of x has the
  /// same read of P as a factor and c is one of the forward's visibility
  /// conditions at that read's (i, j) (the causal limit, the mask_mod, a
  /// keep mask, or a conjunction of them), since P is 0 wherever c is
  /// false. That is torch's masked_fill backward (dS.masked_fill(~keep,
  /// 0)), inside the sums of dQ and dK too.
  const Expr *withoutMaskedZeros(const Expr *m) {
    using P = arith::CmpIPredicate;
    SmallVector<const Expr *> conds;
    if (f.causalOffset)
      conds.push_back(ec.cmpi(static_cast<int64_t>(P::sle), dim(kJ),
                              dim(iDim()) + *f.causalOffset));
    else if (f.causalDefaultOffset && f.defaultOffset)
      conds.push_back(ec.cmpi(static_cast<int64_t>(P::sle), dim(kJ),
                              dim(iDim()) + f.defaultOffset));
    if (f.maskMod)
      conds.push_back(toRoles(f.maskMod));
    if (f.maskExpr && f.maskIsKeep)
      conds.push_back(toRoles(f.maskExpr));
    if (conds.empty())
      return m;
    const size_t n = conds.size();
    for (size_t a = 0; a < n; ++a)
      for (size_t b = a + 1; b < n; ++b)
        conds.push_back(ec.land(conds[a], conds[b]));
    if (n == 3)
      conds.push_back(ec.land(conds[0], ec.land(conds[1], conds[2])));
    // The read of P that every term of x has as a factor, or null.
    auto pFactor = [&](const Expr *x) -> const Expr * {
      auto factorOf = [&](const Expr *t) -> const Expr * {
        if (t->kind == Kind::Read && t->tensor == p)
          return t;
        if (t->kind == Kind::Mul)
          for (const Expr *o : t->ops)
            if (o->kind == Kind::Read && o->tensor == p)
              return o;
        return nullptr;
      };
      if (x->kind != Kind::Add)
        return factorOf(x);
      if (x->value != 0)
        return nullptr;
      const Expr *r = nullptr;
      for (const Expr *t : x->ops) {
        const Expr *ft = factorOf(t);
        if (!ft || (r && ft != r))
          return nullptr;
        r = ft;
      }
      return r;
    };
    SmallVector<std::pair<const Expr *, const Expr *>> drops;
    // The select's condition without the conjuncts the forward's visibility
    // implies (null: none is left; the select itself where none goes).
    auto remaining = [&](const Expr *cond,
                         const DenseMap<unsigned, AffineExpr> &at)
        -> std::optional<const Expr *> {
      auto impliedByForward = [&](const Expr *d) {
        auto byOne = [&](const Expr *x) {
          return llvm::any_of(conds, [&](const Expr *c) {
            return implies(substituteAll(ec, c, at), x);
          });
        };
        // (e == 0 as the forward holds it: e <= 0 and -e <= 0, chunked
        // attention's i / c == j / c.)
        using P = arith::CmpIPredicate;
        if (d->kind == Kind::CmpI && d->aux == static_cast<int64_t>(P::eq)) {
          AffineExpr zero = getAffineConstantExpr(0, ec.getContext());
          return byOne(ec.cmpi(static_cast<int64_t>(P::sle), d->index[0],
                               zero)) &&
                 byOne(
                     ec.cmpi(static_cast<int64_t>(P::sge), d->index[0], zero));
        }
        return byOne(d);
      };
      if (impliedByForward(cond))
        return nullptr;
      if (cond->kind != Kind::And)
        return std::nullopt;
      // (A clamp's backward, where(lo <= s & s <= hi & keep, g, 0): the
      // clamp's conditions stay, the mask's go.)
      SmallVector<const Expr *> kept;
      for (const Expr *o : cond->ops)
        if (!impliedByForward(o))
          kept.push_back(o);
      if (kept.size() == cond->ops.size())
        return std::nullopt;
      if (kept.empty())
        return nullptr;
      const Expr *r = kept.front();
      for (const Expr *o : llvm::drop_begin(kept))
        r = ec.land(r, o);
      return r;
    };
    std::function<void(const Expr *)> find = [&](const Expr *e) {
      if (!e->reads.contains(p))
        return;
      if (e->kind == Kind::Select && e->ops[2]->isConst(0)) {
        const Expr *x = e->ops[1];
        const Expr *pr = pFactor(x);
        if (!pr)
          pr = pFactor(ec.expand(x));
        if (pr) {
          // The role dims at this read of P.
          DenseMap<unsigned, AffineExpr> at;
          for (auto [te, me] : llvm::zip(pT->index, pr->index))
            if (auto td = dyn_cast<AffineDimExpr>(te))
              at[td.getPosition()] = me;
          if (std::optional<const Expr *> rest = remaining(e->ops[0], at))
            drops.push_back(
                {e, *rest ? ec.select(*rest, x, ec.constant(0)) : x});
        }
      }
      for (const Expr *o : e->ops)
        find(o);
    };
    find(m);
    for (auto [sel, x] : drops)
      m = ec.replace(m, sel, x);
    return m;
  }

  /// `e` with every select on condition `c` replaced by its branch for
  /// `c` = `v`.
  const Expr *resolve(const Expr *e, const Expr *c, bool v) {
    SmallVector<const Expr *> sels;
    std::function<void(const Expr *)> find = [&](const Expr *x) {
      if (x->kind == Kind::Select && x->ops[0] == c &&
          !llvm::is_contained(sels, x))
        sels.push_back(x);
      for (const Expr *o : x->ops)
        find(o);
    };
    find(e);
    for (const Expr *sel : sels)
      e = ec.replace(e, sel, resolve(sel->ops[v ? 1 : 2], c, v));
    return e;
  }

  /// Whether `t` and `m` are equal for each value of the conditions on the
  /// scores that `t` selects by (a piecewise score_mod's derivative,
  /// select(s > 0, 1, 0.1), against autodiff's where(c, g, 0) + where(c,
  /// 0, 0.1 g) with the scale inside the branches): the normal form keeps
  /// a select's factors where they were written.
  bool sameOnEveryBranch(const Expr *t, const Expr *m) {
    auto conditions = [](const Expr *e) {
      SmallVector<const Expr *> conds;
      std::function<void(const Expr *)> find = [&](const Expr *x) {
        if (x->kind == Kind::Select && x->ops[0]->height > 0 &&
            !llvm::is_contained(conds, x->ops[0]))
          conds.push_back(x->ops[0]);
        for (const Expr *o : x->ops)
          find(o);
      };
      find(e);
      return conds;
    };
    SmallVector<const Expr *> conds = conditions(t), inM = conditions(m);
    if (conds.empty() || conds.size() > 3)
      return false;
    // m's spelling of each condition (its constants rounded as the
    // program has them).
    SmallVector<const Expr *> mConds;
    for (const Expr *c : conds) {
      auto it = llvm::find_if(inM, [&](const Expr *x) {
        return ExprContext::equalUpToRounding(x, c);
      });
      mConds.push_back(it == inM.end() ? c : *it);
    }
    for (unsigned bits = 0; bits < (1u << conds.size()); ++bits) {
      const Expr *a = t, *b = m;
      for (auto [k, c] : llvm::enumerate(conds)) {
        a = resolve(a, c, bits >> k & 1);
        b = resolve(b, mConds[k], bits >> k & 1);
      }
      if (!ExprContext::equalUpToRounding(ec.expand(a), ec.expand(b))) {
        if (getenv("FLASH_RAISE_DEBUG"))
          llvm::errs() << "    branch " << bits << ": " << ec.str(ec.expand(a))
                       << "\n      vs " << ec.str(ec.expand(b)) << "\n";
        return false;
      }
    }
    return true;
  }

  /// Whether one tensor is both K and V with one layout: its gradient is
  /// dK + dV, which autodiff sums.
  static bool sameLeaf(const LeafLayout &a, const LeafLayout &b) {
    if (a.tensor != b.tensor || a.dims.size() != b.dims.size())
      return false;
    auto kind = [](DimRole r) {
      return r.kind == DimRole::Value ? DimRole::Head
             : r.kind == DimRole::Key ? DimRole::Query
                                      : r.kind;
    };
    for (auto [x, y] : llvm::zip(a.dims, b.dims))
      if (kind(x) != kind(y) ||
          (x.kind == DimRole::Batch && x.batch != y.batch))
        return false;
    return true;
  }
  bool tiedKV() const { return !groupedHeads() && sameLeaf(f.k, f.v); }

  /// Which output `m` (over its own dims kOwn...) is, and its layout.
  std::optional<GradOutput> match(const Expr *m, Value y) {
    if (!dOT)
      return std::nullopt;
    struct Cand {
      GradOutput::Which which;
      const Expr *t;
      Leaves leaves;
    };
    SmallVector<Cand> cands;
    auto add = [&](GradOutput::Which w, function_ref<const Expr *()> build) {
      Leaves l = leaves();
      if (!groupedHeads() || w == GradOutput::DQ) {
        cands.push_back({w, build(), l});
        return;
      }
      cands.push_back({w, grouped(build, l), l});
      // (The group's sum split in two: heads expanded to [Hkv, G / b, b].)
      for (int64_t b = 2; !f.kvBroadcastHead && b < f.group; ++b)
        if (f.group % b == 0)
          for (bool swap : {false, true}) {
            Leaves ls = leaves();
            cands.push_back({w, grouped(build, ls, b, swap), ls});
          }
    };
    add(GradOutput::DV, [&] { return dV(); });
    add(GradOutput::DQ, [&] { return dQ(false); });
    add(GradOutput::DQ, [&] { return dQ(true); });
    add(GradOutput::DK, [&] { return dK(false); });
    add(GradOutput::DK, [&] { return dK(true); });
    // One tensor in two roles gets the sum of their gradients (autodiff
    // adds them): K = V, dK + dV over (j, d); Q = K, dQ + dK over (i, d)
    // (the same layout in both roles: one read, one set of dims).
    if (tiedKV())
      for (bool fromO : {false, true})
        add(GradOutput::DKV, [&, fromO] {
          return ec.add(dK(fromO), ec.substitute(dV(), eDim(), dim(kDd)));
        });
    if (getenv("FLASH_RAISE_DEBUG"))
      llvm::errs() << "  backward value " << y << "\n    model " << ec.str(m)
                   << "\n    dV  " << ec.str(cands[0].t) << "\n    dQ  "
                   << ec.str(cands[1].t) << "\n";
    const Expr *unmasked = nullptr, *original = m;
    for (auto &c : cands) {
      auto map = align(m, c.leaves);
      if (!map)
        continue;
      if (!unmasked) {
        unmasked = withoutMaskedZeros(m);
        if (getenv("FLASH_RAISE_DEBUG"))
          llvm::errs() << "    expanded " << ec.str(ec.expand(unmasked))
                       << "\n";
      }
      m = unmasked;
      // Distributed on both sides: P (dP - D) and P dP - P D are one form.
      const Expr *t = ec.expand(substituteAll(ec, c.t, *map));
      bool same = ExprContext::equalUpToRounding(t, ec.expand(m)) ||
                  sameOnEveryBranch(t, m) || sameOnEveryBranch(t, ec.expand(m));
      if (getenv("FLASH_RAISE_DEBUG"))
        llvm::errs() << "    try " << ec.str(t) << (same ? " MATCH" : "")
                     << "\n";
      if (!same)
        continue;
      // Rows without keys under a finite fill: the program's P there is 1
      // / Nk, its dS zero only where it re-masks dS (the fill's select
      // does); with the fill added, its dQ and dK have those rows' terms,
      // which the op's (P = 0 there) have not.
      if (c.which != GradOutput::DV && unmasked == original) {
        if (f.emptyRowsAverage) {
          unmaskedEmptyRows = true;
          continue;
        }
        dSNotRemasked |= f.emptyRowsFromTensors;
      }
      // The layout of y: the role each own dim holds.
      auto ty = cast<RankedTensorType>(y.getType());
      GradOutput out{c.which, y, LeafLayout{y, {}}};
      bool rolesFit = true;
      for (int64_t d = 0; d < ty.getRank() && rolesFit; ++d) {
        AffineExpr own = dim(kOwn + d);
        std::optional<unsigned> role;
        for (auto [r, e] : *map)
          if (e == own)
            role = r;
        if (!role) {
          if (ty.getDimSize(d) != 1)
            return std::nullopt;
          out.layout.dims.push_back({DimRole::Unit});
          continue;
        }
        // dQ's rows are queries, dK's and dV's keys: where one tensor is
        // both Q and K (shared query-key attention) the alignment may name
        // a gradient's rows by the other role; that candidate is not this
        // output's.
        bool queryRows = c.which == GradOutput::DQ;
        if ((*role == kJ && queryRows) || (*role == iDim() && !queryRows)) {
          rolesFit = false;
          continue;
        }
        auto pos = llvm::find(f.canonical, *role) - f.canonical.begin();
        if (*role == kJ)
          out.layout.dims.push_back({DimRole::Key});
        else if (*role == kHk)
          out.layout.dims.push_back(
              {DimRole::Batch, static_cast<unsigned>(f.numBatch - 1)});
        else if (*role == kDd)
          out.layout.dims.push_back({DimRole::Head});
        else if (*role == iDim())
          out.layout.dims.push_back({DimRole::Query});
        else if (*role == eDim())
          out.layout.dims.push_back({DimRole::Value});
        else if (pos < static_cast<long>(f.numBatch))
          out.layout.dims.push_back(
              {DimRole::Batch, static_cast<unsigned>(pos)});
        else
          return std::nullopt;
      }
      if (!rolesFit)
        continue;
      return out;
    }
    return std::nullopt;
  }
};

/// Aligns a P form's model with the forward's probability: the map from
/// root dims and j to its index expressions.
std::optional<DenseMap<unsigned, AffineExpr>>
alignP(ExprContext &ec, const ForwardFacts &f, const Expr *rootExpr,
       const Expr *m) {
  // (Where Q and K are one tensor, the query's read is the one without the
  // key; in m each read of it is tried, the one that makes m P taken.)
  const bool tied = f.q.tensor == f.k.tensor;
  const Expr *fq = findRead(rootExpr, f.q.tensor, [&](const Expr *r) {
    return !tied || !r->dependsOn(f.jName);
  });
  const Expr *fk = findRead(f.numerator, f.k.tensor, [&](const Expr *r) {
    return r->dependsOn(f.jName);
  });
  const Expr *mq = findRead(m, f.q.tensor);
  if (!fq || !fk || !mq)
    return std::nullopt;
  if (tied) {
    SmallVector<const Expr *> reads;
    collectReads(m, reads);
    for (const Expr *r : reads) {
      if (r->tensor != f.q.tensor)
        continue;
      for (const Expr *rk : reads) {
        if (rk->tensor != f.k.tensor || rk == r)
          continue;
        auto map = alignRoots(fq, r->index);
        if (!map)
          continue;
        unsigned kpos = 0;
        for (auto [k, e] : llvm::enumerate(fk->index))
          if (e == getAffineDimExpr(f.jName, ec.getContext()))
            kpos = k;
        auto d = dyn_cast<AffineDimExpr>(rk->index[kpos]);
        if (!d || !m->dependsOn(d.getPosition()))
          continue;
        (*map)[f.jName] = rk->index[kpos];
        map->erase(f.dName);
        if (substituteAll(ec, f.probability, *map) == m)
          return map;
      }
    }
    return std::nullopt;
  }
  // K's key position in the forward read, and in m a read whose key is a
  // free dim of m (the numerator's, not a reduction's).
  unsigned kpos = 0;
  for (auto [k, e] : llvm::enumerate(fk->index))
    if (e == getAffineDimExpr(f.jName, ec.getContext()))
      kpos = k;
  const Expr *mk = findRead(m, f.k.tensor, [&](const Expr *r) {
    auto d = dyn_cast<AffineDimExpr>(r->index[kpos]);
    return d && m->dependsOn(d.getPosition());
  });
  if (!mk)
    return std::nullopt;
  auto map = alignRoots(fq, mq->index);
  if (!map)
    return std::nullopt;
  (*map)[f.jName] = mk->index[kpos];
  map->erase(f.dName);
  return map;
}

} // namespace

/// Whether `x`'s model (read at `idx`) is the forward's probability P.
static bool isProbability(ExprContext &ec, ModelBuilder &mb,
                          const ForwardFacts &f, const Expr *rootExpr, Value x,
                          ArrayRef<AffineExpr> idx) {
  const Expr *m = mb.eval(x, idx);
  auto map = alignP(ec, f, rootExpr, m);
  return map && substituteAll(ec, f.probability, *map) == m;
}

SmallVector<std::pair<Value, Operation *>>
raise::recomputedProbabilities(ExprContext &ec, ModelBuilder &mb,
                               const ForwardFacts &f, const Expr *rootExpr,
                               const DenseSet<Operation *> &forward) {
  SmallVector<std::pair<Value, Operation *>> out;
  // The ops that make P in the forward, as patterns.
  SmallVector<Operation *> makers;
  auto visited = mb.visited.takeVector();
  for (auto &[v, idx] : visited)
    mb.visited.insert({v, idx});
  for (auto &[v, idx] : visited) {
    Operation *d = v.getDefiningOp();
    if (d && forward.contains(d) && d->getNumResults() == 1 &&
        isProbability(ec, mb, f, rootExpr, v, idx))
      makers.push_back(d);
  }
  if (makers.empty())
    return out;
  Operation *anchor = makers.front();
  Region *region = anchor->getParentRegion();
  // (The ops the backward may read: those after the forward's P in its
  // block, of P's type, made like it; each modeled once.)
  unsigned modeled = 0;
  SmallVector<Operation *> copies;
  region->walk([&](Operation *op) {
    if (forward.contains(op) || op->getNumResults() != 1 || modeled > 16)
      return;
    bool like = llvm::any_of(makers, [&](Operation *m) {
      return m->getName() == op->getName() &&
             m->getResultTypes() == op->getResultTypes();
    });
    if (!like)
      return;
    // A value computed from the forward's P (a view of it, a transpose: of
    // P's type where Nq = Nk) is not a copy: the backward's walk reaches it
    // from P. Nor is a view of a copy found before (the walk reaches it
    // from the copy).
    SetVector<Operation *> slice;
    BackwardSliceOptions opts;
    opts.omitBlockArguments = true;
    opts.filter = [&](Operation *o) { return o->getParentRegion() == region; };
    (void)getBackwardSlice(op, &slice, opts);
    if (llvm::any_of(slice, [&](Operation *o) {
          return llvm::is_contained(makers, o) || llvm::is_contained(copies, o);
        }))
      return;
    Value x = op->getResult(0);
    auto ty = cast<RankedTensorType>(x.getType());
    SmallVector<AffineExpr> idx;
    for (int64_t d = 0; d < ty.getRank(); ++d) {
      // (Fresh dims: their extents are this value's alone.)
      unsigned dim = ec.freshDim();
      idx.push_back(getAffineDimExpr(dim, ec.getContext()));
      if (!ty.isDynamicDim(d))
        mb.extents[dim] = ty.getDimSize(d);
    }
    ++modeled;
    if (!isProbability(ec, mb, f, rootExpr, x, idx))
      return;
    if (getenv("FLASH_RAISE_DEBUG"))
      llvm::errs() << "  recomputed P: " << *op << "\n";
    copies.push_back(op);
    for (Operation *user : x.getUsers())
      if (!mb.isScratch(user))
        out.push_back({x, user});
  });
  return out;
}

/// The backward's proof from the forward's values it reads: the forms of
/// P (`ps`), functions of the scores alone (`scoreSide`) and, `throughP`,
/// other intermediates of P (`inner`), read through to Q and K.
static Reason proveWith(ExprContext &ec, ModelBuilder &mb,
                        const ForwardFacts &f, const Expr *rootExpr, Value root,
                        const DenseSet<Operation *> &forward,
                        ArrayRef<Value> ps, ArrayRef<Value> scoreSide,
                        ArrayRef<Value> inner, bool throughP,
                        std::optional<BackwardFacts> &out) {
  GradProver g{ec,      f,       rootExpr, root,        Value(),
               nullptr, nullptr, nullptr,  nullptr,     nullptr,
               false,   Value(), nullptr,  LeafLayout()};
  g.throughP = throughP;
  g.p = throughP ? Value() : ps.front();
  // P's read in role space: P[idx] with idx over root dims and j -> J; every
  // form of P must be read the same way (they are casts of one another).
  auto roleIndex = [&](Value x) -> std::optional<SmallVector<AffineExpr>> {
    const Expr *m = mb.eval(x, mb.visited.find(x)->second);
    auto map = alignP(ec, f, rootExpr, m);
    if (!map)
      return std::nullopt;
    SmallVector<AffineExpr> roleIdx;
    DenseMap<AffineExpr, unsigned> inv;
    for (auto [d, e] : *map)
      inv[e] = d == f.jName ? kJ : d;
    for (AffineExpr e : mb.visited.find(x)->second) {
      auto it = inv.find(e);
      if (it != inv.end())
        roleIdx.push_back(g.dim(it->second));
      else if (auto c = dyn_cast<AffineConstantExpr>(e); c && c.getValue() == 0)
        roleIdx.push_back(e);
      else
        return std::nullopt;
    }
    return roleIdx;
  };
  std::optional<SmallVector<AffineExpr>> pIdx;
  if (throughP) {
    g.pT = g.toRoles(f.probability);
  } else {
    pIdx = roleIndex(g.p);
    if (!pIdx)
      return "the probabilities are read at an index the backward's model "
             "cannot follow";
    g.pT = ec.read(g.p, *pIdx);
  }
  ModelBuilder bm(ec);
  bm.foldLinearViews = g.groupedHeads();
  if (!throughP)
    bm.stopAt.insert(g.p);
  bm.stopAt.insert(root);
  // The forward's leaves (projections, say) are leaves here too.
  for (Value t : {f.q.tensor, f.k.tensor, f.v.tensor})
    bm.stopAt.insert(t);
  for (Value x : throughP ? ArrayRef<Value>() : ps.drop_front()) {
    if (roleIndex(x) != pIdx)
      return "the probabilities are used in two layouts";
    bm.aliases[x] = g.p;
  }
  // (Each role's own read where one tensor is Q and K, or K and V: the
  // first read of it may be the other role's. Else the first: a unit dim
  // is read at 0.)
  auto readOf = [&](const Expr *in, Value t, bool tied,
                    function_ref<bool(const Expr *)> own) {
    const Expr *r = tied ? findRead(in, t, own) : nullptr;
    return r ? r : findRead(in, t);
  };
  g.qT = g.toRoles(readOf(rootExpr, f.q.tensor, f.q.tensor == f.k.tensor,
                          [&](const Expr *r) {
                            return !r->dependsOn(f.jName);
                          }));
  g.kT = g.toRoles(findRead(f.numerator, f.k.tensor, [&](const Expr *r) {
    return r->dependsOn(f.jName);
  }));
  g.vT = g.toRoles(readOf(rootExpr, f.v.tensor, f.v.tensor == f.k.tensor,
                          [&](const Expr *r) {
                            return r->dependsOn(g.eDim());
                          }));
  if (f.scoreMod) {
    const Expr *dm = ec.derivative(f.scoreMod, f.score);
    if (!dm)
      return "the backward of this score modifier cannot be derived (an "
             "operation without a derivative rule in the raise's model)";
    dm = ec.replace(dm, f.score, f.scoreValue);
    if (!dm->isConst(1))
      g.modDerivative = g.toRoles(dm);
  }
  {
    auto rt = cast<RankedTensorType>(root.getType());
    SmallVector<AffineExpr> idx;
    // (A unit dim is read at 0, as the models of the backward read it:
    // B = 1 or H = 1.)
    for (int64_t d = 0; d < rt.getRank(); ++d)
      idx.push_back(rt.getDimSize(d) == 1
                        ? getAffineConstantExpr(0, ec.getContext())
                        : g.dim(d));
    g.oT = ec.read(root, idx);
  }

  // 2. Walk the backward from P: every value is an output or dies with P.
  SetVector<Operation *> reached;
  SmallVector<Operation *> work;
  for (ArrayRef<Value> vs : {ps, scoreSide, inner})
    for (Value x : vs)
      for (Operation *u : x.getUsers())
        if (!forward.contains(u) && !mb.isScratch(u))
          work.push_back(u);
  BackwardFacts facts;
  DenseSet<Operation *> outputs;
  // Values reached in order; a value may need dO, which a later one
  // reveals, so unmatched ones are retried.
  SmallVector<Value> pending;
  auto modelOf = [&](Value y) {
    auto ty = cast<RankedTensorType>(y.getType());
    SmallVector<AffineExpr> idx;
    for (int64_t d = 0; d < ty.getRank(); ++d) {
      idx.push_back(g.dim(kOwn + d));
      // (The own dims are every value's: a dynamic one must not keep the
      // extent another value's dim had, a decode's one query read as
      // Nk's keys.)
      if (!ty.isDynamicDim(d))
        bm.extents[kOwn + d] = ty.getDimSize(d);
      else
        bm.extents.erase(kOwn + d);
    }
    return bm.eval(y, idx);
  };
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!reached.insert(op))
      continue;
    if (reached.size() > 256)
      return "the probabilities have too many uses to follow";
    if (op->getNumResults() != 1 ||
        !isa<RankedTensorType>(op->getResult(0).getType())) {
      std::string user = op->getName().getStringRef().str();
      Operation *from = nullptr;
      for (Value o : op->getOperands())
        if (Operation *d = o.getDefiningOp(); d && reached.contains(d))
          from = d;
      if (!from)
        return "the probabilities are also used by '" + user +
               "' (e.g. returned), not only by P*V and its backward";
      if (g.unmaskedEmptyRows)
        return "the mask's finite fill (finfo.min, -1e9) may leave rows "
               "without any key, where the program's probabilities are 1 / "
               "Nk, and its backward does not re-mask dS (an added fill): "
               "dQ and dK get those rows' terms, which the raised backward "
               "would not";
      return "the probabilities feed '" +
             from->getName().getStringRef().str() +
             "', which is not dQ, dK or dV of the attention's backward, and "
             "whose result reaches '" +
             user + "'";
    }
    Value y = op->getResult(0);
    const Expr *m = modelOf(y);
    if (!g.dO) {
      g.learnDO(m, bm);
      if (g.dO)
        m = modelOf(y); // dO may have become a leaf
    }
    if (getenv("FLASH_RAISE_DEBUG"))
      llvm::errs() << "  reached " << *op << "\n    model " << ec.str(m)
                   << "\n    dO " << (g.dOT ? ec.str(g.dOT) : "?") << " P "
                   << ec.str(g.pT) << "\n";
    if (auto o = g.match(m, y)) {
      facts.outputs.push_back(*o);
      outputs.insert(op);
      // (A tied tensor's gradient adds two of them: on to the sum, not to
      // the ops that take the gradients as they are.)
      if (g.tiedKV())
        for (Operation *u : y.getUsers())
          if (u->getNumResults() == 1 &&
              isa<RankedTensorType>(u->getResult(0).getType()))
            work.push_back(u);
      continue;
    }
    pending.push_back(y);
    for (Operation *u : y.getUsers())
      work.push_back(u);
  }
  // Retry what came before dO was known.
  for (Value y : pending) {
    if (auto o = g.match(modelOf(y), y)) {
      facts.outputs.push_back(*o);
      outputs.insert(y.getDefiningOp());
    }
  }
  // (Intermediates die with P: the walk followed every user of every value
  // that is not an output, so all of them are in `reached`.)
  if (facts.outputs.empty())
    return "the probabilities have other uses than the P*V product and its "
           "backward";
  for (auto w :
       {GradOutput::DQ, GradOutput::DK, GradOutput::DV, GradOutput::DKV})
    if (llvm::count_if(facts.outputs,
                       [&](const GradOutput &o) { return o.which == w; }) > 1)
      return "the backward computes one gradient twice";
  facts.dO = g.dOLayout;
  facts.dSNotRemasked = g.dSNotRemasked;
  facts.reached.assign(reached.begin(), reached.end());
  out = facts;
  return "";
}

Reason raise::proveBackward(ExprContext &ec, ModelBuilder &mb,
                            const ForwardFacts &f, const Expr *rootExpr,
                            Value root, const DenseSet<Operation *> &forward,
                            ArrayRef<std::pair<Value, Operation *>> uses,
                            std::optional<BackwardFacts> &out) {
  // 1. Every value with outside uses is P (in some form) or a function of
  // the score alone (no reduction over the keys: autodiff's saved tanh of a
  // soft-cap, say), which the backward's model reads through to Q and K.
  SmallVector<Value> ps, scoreSide, inner;
  Reason innerReason;
  for (auto [x, user] : uses) {
    if (llvm::is_contained(ps, x) || llvm::is_contained(scoreSide, x) ||
        llvm::is_contained(inner, x))
      continue;
    auto it = mb.visited.find(x);
    const Expr *m = mb.eval(x, it->second);
    auto map = alignP(ec, f, rootExpr, m);
    if (!map || substituteAll(ec, f.probability, *map) != m) {
      if (m->height <= 1) {
        scoreSide.push_back(x);
        continue;
      }
      // Another intermediate (e or l of a hand-written softmax that
      // autodiff went through): the backward is then proven through P.
      if (innerReason.empty()) {
        std::string name =
            x.getDefiningOp()
                ? x.getDefiningOp()->getName().getStringRef().str()
                : "argument";
        innerReason = "an intermediate of the attention ('" + name +
                      "') has a use outside it ('" +
                      user->getName().getStringRef().str() +
                      "') that is not the backward of the attention";
      }
      inner.push_back(x);
      continue;
    }
    ps.push_back(x);
  }
  if (!inner.empty()) {
    ec.cancelSumsOfExp = true;
    Reason why = proveWith(ec, mb, f, rootExpr, root, forward, ps, scoreSide,
                           inner, /*throughP=*/true, out);
    ec.cancelSumsOfExp = false;
    return why.empty() ? why : innerReason;
  }
  if (ps.empty()) {
    Value x = scoreSide.front();
    std::string name = x.getDefiningOp()
                           ? x.getDefiningOp()->getName().getStringRef().str()
                           : "argument";
    Operation *user =
        llvm::find_if(uses, [&](auto &u) { return u.first == x; })->second;
    return "an intermediate of the attention ('" + name +
           "') has a use outside it ('" + user->getName().getStringRef().str() +
           "')";
  }
  for (Value x : llvm::concat<Value>(ps, scoreSide))
    for (Operation *u : x.getUsers())
      if (!forward.contains(u) && !mb.isScratch(u) &&
          (u->getNumResults() != 1 ||
           !isa<RankedTensorType>(u->getResult(0).getType())))
        return "the probabilities are also used by '" +
               u->getName().getStringRef().str() +
               "' (e.g. returned), not only by P*V and its backward";

  return proveWith(ec, mb, f, rootExpr, root, forward, ps, scoreSide, {},
                   /*throughP=*/false, out);
}

/// dV of rows without keys under a finite fill (the forward averages V
/// into them, RaiseAttention.cpp): the program's P there is 1 / Nk on every
/// key and its dS zero (the fill's select takes the gradient), so its dV
/// has (1 / Nk) sum of those rows' dO on every key, which the op's (lse =
/// -inf there: P = 0) has not. `lse` [batch..., Nq], `dO` [batch..., Nq,
/// Dv], `v` and `dV` [kv batch..., Nk, Dv]; a kv head sums its group's
/// query heads (GQA h floordiv G, MQA all).
static Value addEmptyRowsToGradValue(RewriterBase &rw, Location loc,
                                     const ForwardFacts &f, Value lse,
                                     Value dO, Value v, Value dV,
                                     SmallVectorImpl<Operation *> &made) {
  MLIRContext *ctx = rw.getContext();
  unsigned nb = f.numBatch;
  FloatType f32 = rw.getF32Type();
  auto constant = [&](float x) {
    Value c = arith::ConstantOp::create(rw, loc, rw.getF32FloatAttr(x));
    made.push_back(c.getDefiningOp());
    return c;
  };
  auto zeros = [&](ArrayRef<OpFoldResult> sizes) {
    auto e = tensor::EmptyOp::create(rw, loc, sizes, f32);
    auto z = linalg::FillOp::create(rw, loc, constant(0), e.getResult());
    made.append({e, z});
    return z.getResult(0);
  };
  auto dims = [&](unsigned n) {
    SmallVector<AffineExpr> d;
    for (unsigned i = 0; i < n; ++i)
      d.push_back(getAffineDimExpr(i, ctx));
    return d;
  };
  auto extended = [&](OpBuilder &b, Location l, Value x) {
    return x.getType() == f32 ? x : arith::ExtFOp::create(b, l, f32, x);
  };
  // rows[batch..., e]: dO summed over the rows whose lse is -inf.
  SmallVector<OpFoldResult> rowsSizes;
  for (unsigned d = 0; d < nb; ++d)
    rowsSizes.push_back(tensor::getMixedSize(rw, loc, dO, d));
  rowsSizes.push_back(tensor::getMixedSize(rw, loc, dO, nb + 1));
  Value negInf = constant(-std::numeric_limits<float>::infinity());
  SmallVector<AffineExpr> d = dims(nb + 2);
  SmallVector<AffineExpr> rowsOut(d.begin(), d.begin() + nb);
  rowsOut.push_back(d[nb + 1]);
  SmallVector<utils::IteratorType> its(nb + 2, utils::IteratorType::parallel);
  its[nb] = utils::IteratorType::reduction;
  Value rowsInit = zeros(rowsSizes);
  auto rows = linalg::GenericOp::create(
      rw, loc, TypeRange{rowsInit.getType()}, ValueRange{dO, lse},
      ValueRange{rowsInit},
      ArrayRef<AffineMap>{AffineMap::get(nb + 2, 0, d, ctx),
                          AffineMap::get(nb + 2, 0,
                                         ArrayRef(d).take_front(nb + 1), ctx),
                          AffineMap::get(nb + 2, 0, rowsOut, ctx)},
      its, [&](OpBuilder &b, Location l, ValueRange a) {
        Value empty =
            arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, a[1], negInf);
        Value x = arith::SelectOp::create(b, l, empty, extended(b, l, a[0]),
                                          constant(0));
        linalg::YieldOp::create(
            b, l, ValueRange{arith::AddFOp::create(b, l, a[2], x)});
      });
  made.push_back(rows);
  // perKV[kv batch..., e] = (1 / Nk) sum over g < G of rows[..., h G + g,
  // e] (G: the group; every query head under MQA; 1 without heads).
  Value group;
  if (nb == 0) {
    group = arith::ConstantIndexOp::create(rw, loc, 1);
  } else if (f.kvBroadcastHead) {
    group = tensor::DimOp::create(rw, loc, dO, nb - 1);
  } else {
    group = arith::ConstantIndexOp::create(rw, loc, f.group);
  }
  made.push_back(group.getDefiningOp());
  auto groupRange = tensor::EmptyOp::create(
      rw, loc, ArrayRef<OpFoldResult>{group}, f32);
  made.push_back(groupRange);
  SmallVector<OpFoldResult> kvSizes;
  for (unsigned i = 0; i < nb; ++i)
    kvSizes.push_back(tensor::getMixedSize(rw, loc, v, i));
  kvSizes.push_back(tensor::getMixedSize(rw, loc, v, nb + 1));
  auto nk = tensor::DimOp::create(rw, loc, v, nb);
  auto nk64 = arith::IndexCastUIOp::create(rw, loc, rw.getI64Type(), nk);
  auto nkF = arith::UIToFPOp::create(rw, loc, f32, nk64);
  auto inv = arith::DivFOp::create(rw, loc, constant(1), nkF);
  made.append({nk, nk64, nkF, inv});
  // Query head h G + g of kv head h (MQA: the one kv head is 0, g every
  // query head).
  SmallVector<AffineExpr> e = dims(nb + 2); // kv batch..., e, g
  SmallVector<AffineExpr> at(e.begin(), e.begin() + nb);
  if (nb > 0)
    at[nb - 1] = at[nb - 1] * (f.kvBroadcastHead ? 0 : f.group) + e[nb + 1];
  at.push_back(e[nb]);
  AffineMap rowsAt = AffineMap::get(nb + 2, 0, at, ctx);
  SmallVector<utils::IteratorType> its2(nb + 2, utils::IteratorType::parallel);
  its2[nb + 1] = utils::IteratorType::reduction;
  Value perKVInit = zeros(kvSizes);
  auto perKV = linalg::GenericOp::create(
      rw, loc, TypeRange{perKVInit.getType()},
      ValueRange{rows.getResult(0), groupRange.getResult()},
      ValueRange{perKVInit},
      ArrayRef<AffineMap>{
          rowsAt, AffineMap::get(nb + 2, 0, {e[nb + 1]}, ctx),
          AffineMap::get(nb + 2, 0, ArrayRef(e).take_front(nb + 1), ctx)},
      its2, [&](OpBuilder &b, Location l, ValueRange a) {
        linalg::YieldOp::create(
            b, l,
            ValueRange{arith::AddFOp::create(
                b, l, a[2], arith::MulFOp::create(b, l, a[0], inv.getResult()))});
      });
  made.push_back(perKV);
  // dV + perKV on every key.
  SmallVector<AffineExpr> kv = dims(nb + 2); // kv batch..., j, e
  SmallVector<AffineExpr> perKVAt(kv.begin(), kv.begin() + nb);
  perKVAt.push_back(kv[nb + 1]);
  auto dvInit = tensor::EmptyOp::create(rw, loc,
                                        tensor::getMixedSizes(rw, loc, dV),
                                        getElementTypeOrSelf(dV.getType()));
  made.push_back(dvInit);
  Type dvElt = getElementTypeOrSelf(dV.getType());
  auto sum = linalg::GenericOp::create(
      rw, loc, TypeRange{dV.getType()}, ValueRange{dV, perKV.getResult(0)},
      ValueRange{dvInit.getResult()},
      ArrayRef<AffineMap>{AffineMap::get(nb + 2, 0, kv, ctx),
                          AffineMap::get(nb + 2, 0, perKVAt, ctx),
                          AffineMap::get(nb + 2, 0, kv, ctx)},
      SmallVector<utils::IteratorType>(nb + 2, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location l, ValueRange a) {
        Value x = arith::AddFOp::create(b, l, extended(b, l, a[0]), a[1]);
        if (dvElt != f32)
          x = arith::TruncFOp::create(b, l, dvElt, x);
        linalg::YieldOp::create(b, l, ValueRange{x});
      });
  made.push_back(sum);
  return sum.getResult(0);
}

Reason raise::emitBackward(RewriterBase &rw, const ForwardFacts &f,
                           const BackwardFacts &b, AttentionOp attn, Value q,
                           Value k, Value v, Value mask,
                           SmallVectorImpl<Operation *> &made,
                           SmallVectorImpl<Operation *> &roots) {
  Location loc = attn.getLoc();
  OpBuilder::InsertionGuard guard(rw);
  // After the forward and dO.
  Block *block = attn->getBlock();
  Operation *after = attn;
  if (Operation *d = b.dO.tensor.getDefiningOp())
    if (Operation *anc = block->findAncestorOpInBlock(*d))
      if (after->isBeforeInBlock(anc))
        after = anc;
  rw.setInsertionPointAfter(after);
  unsigned nb = f.numBatch;
  SmallVector<Target> t;
  for (unsigned i = 0; i < nb; ++i)
    t.push_back({{DimRole::Batch, i}, {}});
  t.push_back({{DimRole::Query}, {}});
  t.push_back({{DimRole::Value}, {}});
  Value dO = materialize(rw, loc, b.dO, t, made);
  Type et = getElementTypeOrSelf(q.getType());
  if (getElementTypeOrSelf(dO.getType()) != et) {
    dO = convertElements(rw, loc, dO, et);
    made.push_back(dO.getDefiningOp());
  }
  auto emptyLike = [&](Value x) {
    Value e = tensor::EmptyOp::create(rw, loc, tensor::getMixedSizes(rw, loc, x),
                                      getElementTypeOrSelf(x.getType()));
    made.push_back(e.getDefiningOp());
    return e;
  };
  Value dq0 = emptyLike(q), dk0 = emptyLike(k), dv0 = emptyLike(v);
  auto grad = AttentionGradOp::create(
      rw, loc, TypeRange{q.getType(), k.getType(), v.getType()}, q, k, v,
      attn.getResult(), attn.getLse(), dO, mask, attn.getCaptures(), dq0, dk0,
      dv0, attn.getScaleAttr(), attn.getCausalAttr(),
      attn.getCausalOffsetAttr(), /*deterministic=*/nullptr);
  made.push_back(grad);
  // The same modifiers (the backward's proof compared the joint graph with
  // the probabilities they define, derivative of the score_mod included).
  {
    IRMapping map;
    attn.getScoreMod().cloneInto(&grad.getScoreMod(), map);
    attn.getMaskMod().cloneInto(&grad.getMaskMod(), map);
  }
  {
    ScopedDiagnosticHandler silence(rw.getContext(),
                                    [](Diagnostic &) { return success(); });
    if (failed(mlir::verify(grad)))
      return "the backward's operands do not form a valid "
             "flash.attention_grad";
  }
  Value gradValue = grad.getGradValue();
  if (f.emptyRowsAverage || f.emptyRowsFromTensors)
    gradValue = addEmptyRowsToGradValue(rw, loc, f, attn.getLse(), dO, v,
                                        gradValue, made);
  DominanceInfo dom;
  SmallVector<std::pair<Value, Value>> repl;
  for (const GradOutput &o : b.outputs) {
    for (Operation *user : o.value.getUsers())
      if (!dom.properlyDominates(grad.getOperation(), user))
        return "a gradient is used before the backward's inputs are all "
               "defined";
    Value src;
    switch (o.which) {
    case GradOutput::DQ:
      src = grad.getGradQuery();
      break;
    case GradOutput::DK:
      src = grad.getGradKey();
      break;
    case GradOutput::DV:
      src = gradValue;
      break;
    case GradOutput::DKV: {
      // The tied tensor's gradient: the two roles' sum.
      Value a = grad.getGradKey(), b = gradValue;
      if (a.getType() != b.getType())
        return "the tied operand's two gradients differ in shape";
      Value init = tensor::EmptyOp::create(
          rw, loc, tensor::getMixedSizes(rw, loc, a),
          cast<RankedTensorType>(a.getType()).getElementType());
      auto sum = linalg::AddOp::create(rw, loc, ValueRange{a, b},
                                       ValueRange{init});
      made.push_back(init.getDefiningOp());
      made.push_back(sum);
      src = sum.getResult(0);
      break;
    }
    }
    bool queryRows = o.which == GradOutput::DQ;
    LeafLayout l{src, {}};
    for (unsigned i = 0; i < nb; ++i)
      l.dims.push_back({DimRole::Batch, i});
    l.dims.push_back(queryRows ? DimRole{DimRole::Query}
                               : DimRole{DimRole::Key});
    l.dims.push_back(o.which == GradOutput::DV ? DimRole{DimRole::Value}
                                               : DimRole{DimRole::Head});
    SmallVector<Target> ts;
    for (DimRole r : o.layout.dims)
      ts.push_back({r, {}});
    Value x = materialize(rw, loc, l, ts, made);
    auto ty = cast<RankedTensorType>(o.value.getType());
    x = convertElements(rw, loc, x, ty.getElementType());
    if (x.getType() != ty) {
      if (!tensor::CastOp::areCastCompatible(x.getType(), ty))
        return "a gradient's layout does not match its tensor (its dims' "
               "roles)";
      x = tensor::CastOp::create(rw, loc, ty, x);
    }
    repl.push_back({o.value, x});
  }
  for (auto [from, to] : repl) {
    rw.replaceAllUsesWith(from, to);
    roots.push_back(from.getDefiningOp());
  }
  return "";
}
