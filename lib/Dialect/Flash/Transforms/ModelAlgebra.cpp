//===- ModelAlgebra.cpp - The normal form of model expressions ------------===//
//
// ExprContext: interning, the constructors that keep expressions in normal
// form (AttentionModel.h lists the rules), substitution with capture
// avoidance, expansion, printing, and the range-aware simplification of
// floordiv/mod that lets reshapes fold into index expressions.
//
//===----------------------------------------------------------------------===//

#include "AttentionModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::model;

//===----------------------------------------------------------------------===//
// Interning
//===----------------------------------------------------------------------===//

static void collectDims(AffineExpr e, llvm::SmallDenseSet<unsigned, 8> &out) {
  e.walk([&](AffineExpr s) {
    if (auto d = dyn_cast<AffineDimExpr>(s))
      out.insert(d.getPosition());
  });
}

static bool sameFields(const Expr &a, const Expr &b) {
  return a.kind == b.kind && a.value == b.value && a.aux == b.aux &&
         a.tensor == b.tensor && a.index == b.index && a.ops == b.ops &&
         a.coefs == b.coefs && a.name == b.name;
}

const Expr *ExprContext::intern(Expr &&e) {
  llvm::hash_code h = llvm::hash_combine(
      static_cast<int>(e.kind), llvm::hash_value(llvm::bit_cast<uint64_t>(e.value)), e.aux,
      e.tensor.getAsOpaquePointer(), llvm::hash_value(e.name));
  for (AffineExpr x : e.index)
    h = llvm::hash_combine(h, x.getAsOpaquePointer());
  for (const Expr *o : e.ops)
    h = llvm::hash_combine(h, o);
  for (double c : e.coefs)
    h = llvm::hash_combine(h, llvm::bit_cast<uint64_t>(c));
  unsigned key = static_cast<unsigned>(h);
  auto &bucket = table[key];
  for (const Expr *c : bucket)
    if (sameFields(*c, e))
      return c;
  Expr *n = new (alloc.Allocate()) Expr(std::move(e));
  n->id = nextId++;
  n->hash = key;
  for (AffineExpr x : n->index)
    collectDims(x, n->freeDims);
  if (n->kind == Kind::Read || n->kind == Kind::Gather)
    n->reads.insert(n->tensor);
  n->hasNegInf = n->kind == Kind::NegInf;
  unsigned height = 0;
  for (const Expr *o : n->ops) {
    height = std::max(height, o->height);
    for (unsigned d : o->freeDims)
      n->freeDims.insert(d);
    for (Value r : o->reads)
      n->reads.insert(r);
    n->hasNegInf |= o->hasNegInf;
  }
  if (n->kind == Kind::Reduce) {
    n->freeDims.erase(cast<AffineDimExpr>(n->index[0]).getPosition());
    height += 1;
  }
  n->height = height;
  bucket.push_back(n);
  return n;
}

//===----------------------------------------------------------------------===//
// Constructors in normal form
//===----------------------------------------------------------------------===//


/// Constants and coefficients are kept at f32 precision (what the programs
/// compute in), so that spellings differing only in how a constant was
/// rounded are one expression.
static double roundF32(double v) {
  return std::isfinite(v) ? static_cast<double>(static_cast<float>(v)) : v;
}

const Expr *ExprContext::constant(double v) {
  v = roundF32(v);
  if (std::isinf(v) && v < 0)
    return negInf();
  Expr e{Kind::Const};
  e.value = v == 0 ? 0.0 : v; // one zero
  return intern(std::move(e));
}

const Expr *ExprContext::negInf() { return intern(Expr{Kind::NegInf}); }

const Expr *ExprContext::read(Value tensor, ArrayRef<AffineExpr> index) {
  Expr e{Kind::Read};
  e.tensor = tensor;
  e.index.assign(index.begin(), index.end());
  return intern(std::move(e));
}

const Expr *ExprContext::index(AffineExpr x) {
  // (Simplified, as cmpi's are: one spelling of a position, d2 - d3 and
  // -d3 + d2 alike, in the opaque compares that read it.)
  Expr e{Kind::Index};
  e.index.push_back(simplifyAffineExpr(x, kFirstFresh + 4096, kMaxSymbols));
  return intern(std::move(e));
}

const Expr *ExprContext::indexToFloat(AffineExpr x) {
  if (auto c = dyn_cast<AffineConstantExpr>(x))
    return constant(static_cast<double>(c.getValue()));
  Expr e{Kind::IndexF};
  e.index.push_back(simplifyAffineExpr(x, kFirstFresh + 4096, kMaxSymbols));
  return intern(std::move(e));
}

static bool isZero(const Expr *e) { return e->isConst(0); }

const Expr *ExprContext::makeAdd(
    double c0, SmallVector<std::pair<const Expr *, double>> terms) {
  // Flatten nested sums and constants; split coefficients off products.
  SmallVector<std::pair<const Expr *, double>> flat;
  for (size_t k = 0; k < terms.size(); ++k) {
    auto [t, c] = terms[k];
    if (c == 0)
      continue;
    if (t->kind == Kind::Const) {
      c0 += c * t->value;
    } else if (t->kind == Kind::Add) {
      c0 += c * t->value;
      for (auto [o, oc] : llvm::zip(t->ops, t->coefs))
        terms.push_back({o, c * oc});
    } else if (t->kind == Kind::Mul && t->value != 1) {
      SmallVector<const Expr *> fs(t->ops.begin(), t->ops.end());
      terms.push_back({makeMul(1, fs), c * t->value});
    } else {
      flat.push_back({t, c});
    }
  }
  // -inf absorbs finite terms (and selects whose masked branch is -inf).
  for (auto &term : flat)
    if (const Expr *t = term.first; t->kind == Kind::NegInf && term.second > 0 &&
        llvm::all_of(flat, [&](auto &o) {
          // Rows where every key is masked aside, a max or a sum of masked
          // values is finite; a product with -inf is not.
          return o.first == t || o.first->kind != Kind::Mul ||
                 llvm::none_of(o.first->ops, [](const Expr *x) {
                   return x->kind == Kind::NegInf;
                 });
        }))
      return negInf();
  // a + select(c, x, y) = select(c, a + x, a + y).
  for (size_t k = 0; k < flat.size(); ++k) {
    auto [t, c] = flat[k];
    if (t->kind != Kind::Select)
      continue;
    SmallVector<std::pair<const Expr *, double>> rest;
    for (size_t l = 0; l < flat.size(); ++l)
      if (l != k)
        rest.push_back(flat[l]);
    auto rt = rest;
    rt.push_back({t->ops[1], c});
    auto rf = rest;
    rf.push_back({t->ops[2], c});
    return select(t->ops[0], makeAdd(c0, rt), makeAdd(c0, rf));
  }
  // Like terms.
  llvm::sort(flat, [](auto &a, auto &b) { return a.first->id < b.first->id; });
  SmallVector<std::pair<const Expr *, double>> merged;
  for (auto [t, c] : flat) {
    if (!merged.empty() && merged.back().first == t)
      merged.back().second += c;
    else
      merged.push_back({t, c});
  }
  for (auto &m : merged)
    m.second = roundF32(m.second);
  c0 = roundF32(c0);
  llvm::erase_if(merged, [](auto &p) { return p.second == 0; });
  if (merged.empty())
    return constant(c0);
  if (merged.size() == 1 && c0 == 0) {
    auto [t, c] = merged[0];
    return c == 1 ? t : scale(t, c);
  }
  Expr e{Kind::Add};
  e.value = c0;
  for (auto [t, c] : merged) {
    e.ops.push_back(t);
    e.coefs.push_back(c);
  }
  return intern(std::move(e));
}

/// Whether a float expression of positions and constants is >= 0: the
/// positions (IndexF of a non-negative index), exponentials, and sums and
/// products of such with non-negative coefficients.
static bool nonNegativeFloat(const Expr *e) {
  switch (e->kind) {
  case Kind::Const:
    return e->value >= 0;
  case Kind::IndexF:
    return knownNonNegative(e->index[0]);
  case Kind::Exp:
    return true;
  case Kind::Add:
    return e->value >= 0 &&
           llvm::all_of(e->coefs, [](double c) { return c >= 0; }) &&
           llvm::all_of(e->ops, nonNegativeFloat);
  case Kind::Mul:
    return e->value >= 0 && llvm::all_of(e->ops, nonNegativeFloat);
  default:
    return false;
  }
}

const Expr *ExprContext::makeMul(double c, SmallVector<const Expr *> factors) {
  SmallVector<const Expr *> flat;
  for (size_t k = 0; k < factors.size(); ++k) {
    const Expr *f = factors[k];
    if (f->kind == Kind::Const) {
      c *= f->value;
    } else if (f->kind == Kind::Mul) {
      c *= f->value;
      factors.append(f->ops.begin(), f->ops.end());
    } else {
      flat.push_back(f);
    }
  }
  c = roundF32(c);
  if (c == 0)
    return constant(0);
  // sech(x)^2 = 1 - tanh(x)^2: a soft-cap's backward written as dS /
  // cosh(s / c)^2, where the derivative rule gives 1 - tanh^2.
  for (size_t k = 0; k < flat.size(); ++k) {
    const Expr *f = flat[k];
    if (f->kind != Kind::Recip || f->ops[0]->kind != Kind::Opaque ||
        f->ops[0]->name != "math.cosh" || f->ops[0]->ops.size() != 1)
      continue;
    auto twin = std::find(flat.begin() + k + 1, flat.end(), f);
    if (twin == flat.end())
      continue;
    const Expr *t = opaque("math.tanh", {f->ops[0]->ops[0]});
    flat.erase(twin);
    flat[k] = sub(constant(1), mul(t, t));
    return makeMul(c, flat);
  }
  // exp(a) exp(b) = exp(a + b) where b has no reduction inside: weights of
  // positions or a bias multiplied onto the exponentials (e exp(-0.1 |i -
  // j|) / sum, ALiBi written after the exp), also under a mask's select(c,
  // exp(a), 0). Two exponentials of the scores (Q.K's sum inside both) stay
  // apart: P e is no softmax.
  // A weight of the positions alone that is provably >= 0 (j + 1) is
  // exp(log w) there (log 0 = -inf: a weight of 0 masks the key).
  // (Returns the weight's log.)
  auto positionalWeight = [&](const Expr *w) -> const Expr * {
    if (w->kind == Kind::Exp)
      return w->height == 0 ? w->ops[0] : nullptr;
    if (!w->reads.empty() || w->height != 0 || w->hasNegInf ||
        w->freeDims.empty() || !nonNegativeFloat(w))
      return nullptr;
    return log(w);
  };
  for (size_t k = 0; k < flat.size(); ++k) {
    const Expr *w = flat[k];
    // (Only next to an exponential of the scores for a weight that is not
    // itself an exponential.)
    if (w->kind != Kind::Exp &&
        llvm::none_of(flat, [](const Expr *g) {
          return g->height != 0 &&
                 (g->kind == Kind::Exp ||
                  (g->kind == Kind::Select && g->ops[1]->kind == Kind::Exp &&
                   g->ops[2]->isConst(0)));
        }))
      continue;
    const Expr *logW = positionalWeight(w);
    if (!logW)
      continue;
    for (size_t l = 0; l < flat.size(); ++l) {
      const Expr *g = flat[l];
      const Expr *merged = nullptr;
      if (l != k && g->kind == Kind::Exp)
        merged = exp(add(g->ops[0], logW));
      else if (g->kind == Kind::Select && g->ops[2]->isConst(0) &&
               g->ops[1]->kind == Kind::Exp)
        merged = select(g->ops[0], exp(add(g->ops[1]->ops[0], logW)),
                        constant(0));
      if (!merged)
        continue;
      SmallVector<const Expr *> rest{merged};
      for (size_t n = 0; n < flat.size(); ++n)
        if (n != k && n != l)
          rest.push_back(flat[n]);
      return makeMul(c, rest);
    }
  }
  // x recip(x) is 1 where x is a sum of exponentials (> 0, or 0 only for a
  // row its mask hides entirely, where the program divides by 0 anyway):
  // the row sum l of a hand-written softmax, which its autodiff divides by
  // twice (e dP / l - e sum(e dP) / l^2, against P (dP - sum(P dP))).
  auto positiveSum = [](const Expr *x) {
    if (x->kind != Kind::Reduce ||
        x->aux != static_cast<int64_t>(ReduceKind::Sum))
      return false;
    const Expr *b = x->ops[0];
    return b->kind == Kind::Exp ||
           (b->kind == Kind::Select && b->ops[1]->kind == Kind::Exp &&
            b->ops[2]->isConst(0));
  };
  for (size_t a = 0; cancelSumsOfExp && a < flat.size(); ++a) {
    if (flat[a]->kind != Kind::Recip || !positiveSum(flat[a]->ops[0]))
      continue;
    auto it = llvm::find(flat, flat[a]->ops[0]);
    if (it == flat.end())
      continue;
    size_t b = it - flat.begin();
    flat.erase(flat.begin() + std::max(a, b));
    flat.erase(flat.begin() + std::min(a, b));
    a = static_cast<size_t>(-1);
  }
  if (flat.empty())
    return constant(c);
  for (const Expr *f : flat)
    if (f->kind == Kind::NegInf && flat.size() == 1 && c > 0)
      return negInf();
  // A constant multiple of a sum is distributed (c * (s - m) is c*s - c*m);
  // products of sums are kept as they are (expand() distributes them when
  // two forms must be compared): the factors of Q . K must stay apart.
  if (flat.size() == 1 && flat[0]->kind == Kind::Add && c != 1)
    return scale(flat[0], c);
  // A constant multiple of a select goes into its branches.
  if (flat.size() == 1 && flat[0]->kind == Kind::Select && c != 1)
    return select(flat[0]->ops[0], scale(flat[0]->ops[1], c),
                  scale(flat[0]->ops[2], c));
  // A product with an indicator, select(cond, k1, k2) of constants (a mask
  // as float: s * m + (1 - m) * -1e9), is a select of the products: exact
  // for finite other factors (without -inf inside), and for the fill alone
  // (-1e9 or finfo.min, read as -inf: times 0 it is 0; a real -inf there
  // would have made the program's every unmasked score NaN).
  if (flat.size() > 1)
    for (size_t k = 0; k < flat.size(); ++k) {
      const Expr *f = flat[k];
      if (f->kind != Kind::Select || f->ops[1]->kind != Kind::Const ||
          f->ops[2]->kind != Kind::Const)
        continue;
      SmallVector<const Expr *> rest;
      for (size_t l = 0; l < flat.size(); ++l)
        if (l != k)
          rest.push_back(flat[l]);
      const bool fill = rest.size() == 1 && rest[0]->kind == Kind::NegInf;
      if (!fill &&
          llvm::any_of(rest, [](const Expr *x) { return x->hasNegInf; }))
        break;
      return select(f->ops[0], makeMul(c * f->ops[1]->value, rest),
                    makeMul(c * f->ops[2]->value, rest));
    }
  if (flat.empty())
    return constant(c);
  if (flat.size() == 1 && c == 1)
    return flat[0];
  llvm::sort(flat, [](const Expr *a, const Expr *b) { return a->id < b->id; });
  Expr e{Kind::Mul};
  e.value = c;
  e.ops.assign(flat.begin(), flat.end());
  return intern(std::move(e));
}

const Expr *ExprContext::add(const Expr *a, const Expr *b) {
  return makeAdd(0, {{a, 1}, {b, 1}});
}
const Expr *ExprContext::sub(const Expr *a, const Expr *b) {
  if (b->kind == Kind::NegInf)
    return opaque("sub-inf", {a});
  return makeAdd(0, {{a, 1}, {b, -1}});
}
const Expr *ExprContext::scale(const Expr *a, double c) {
  if (c == 1)
    return a;
  if (a->kind == Kind::Add) {
    SmallVector<std::pair<const Expr *, double>> terms;
    for (auto [o, oc] : llvm::zip(a->ops, a->coefs))
      terms.push_back({o, oc * c});
    return makeAdd(a->value * c, terms);
  }
  return makeMul(c, {a});
}
const Expr *ExprContext::mul(const Expr *a, const Expr *b) {
  return makeMul(1, {a, b});
}
const Expr *ExprContext::div(const Expr *a, const Expr *b) {
  return mul(a, recip(b));
}

const Expr *ExprContext::recip(const Expr *a) {
  if (a->kind == Kind::Const && a->value != 0)
    return constant(1.0 / a->value);
  if (a->kind == Kind::Recip)
    return a->ops[0];
  if (a->kind == Kind::Mul && a->value != 0) {
    SmallVector<const Expr *> fs;
    for (const Expr *f : a->ops)
      fs.push_back(recip(f));
    return makeMul(1.0 / a->value, fs);
  }
  Expr e{Kind::Recip};
  e.ops.push_back(a);
  return intern(std::move(e));
}

const Expr *ExprContext::makeIdempotent(Kind kind,
                                        SmallVector<const Expr *> ops,
                                        const Expr *identity) {
  // Sorted, without duplicates (max and and are idempotent).
  if (ops.empty())
    return identity;
  llvm::sort(ops, [](const Expr *x, const Expr *y) { return x->id < y->id; });
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  if (ops.size() == 1)
    return ops[0];
  Expr e{kind};
  e.ops.assign(ops.begin(), ops.end());
  return intern(std::move(e));
}

const Expr *ExprContext::max(const Expr *a, const Expr *b) {
  SmallVector<const Expr *> ops;
  for (const Expr *x : {a, b}) {
    if (x->kind == Kind::Max)
      ops.append(x->ops.begin(), x->ops.end());
    else if (x->kind != Kind::NegInf &&
             !(x->kind == Kind::Const && std::isnan(x->value)))
      ops.push_back(x);
  }
  return makeIdempotent(Kind::Max, std::move(ops), negInf());
}

const Expr *ExprContext::exp(const Expr *a) {
  if (a->kind == Kind::NegInf)
    return constant(0);
  if (a->kind == Kind::Const)
    return constant(std::exp(a->value));
  if (a->kind == Kind::Log)
    return a->ops[0];
  if (a->kind == Kind::Select)
    return select(a->ops[0], exp(a->ops[1]), exp(a->ops[2]));
  // exp(x + log y) = exp(x) * y, exp(x - log y) = exp(x) / y (a
  // log-softmax's x - log sum exp). Not for a log of elementwise values
  // (no reduction under it): x + log m, m a 0 / 1 tensor, is an additive
  // mask, which a product exp(x) * m would hide.
  auto reduces = [](const Expr *e, auto &self) -> bool {
    return e->kind == Kind::Reduce ||
           llvm::any_of(e->ops, [&](const Expr *o) { return self(o, self); });
  };
  if (a->kind == Kind::Add) {
    for (auto [t, c] : llvm::zip(a->ops, a->coefs)) {
      if (t->kind != Kind::Log || (c != 1 && c != -1) ||
          !reduces(t->ops[0], reduces))
        continue;
      const Expr *rest = sub(a, scale(t, c));
      return mul(exp(rest), c == 1 ? t->ops[0] : recip(t->ops[0]));
    }
  }
  Expr e{Kind::Exp};
  e.ops.push_back(a);
  return intern(std::move(e));
}

const Expr *ExprContext::log(const Expr *a) {
  if (a->kind == Kind::Const && a->value > 0)
    return constant(std::log(a->value));
  // log(0) = -inf: Mistral's reference mask, log(tril(triu(ones))), is an
  // additive 0 / -inf mask (the select below).
  if (a->kind == Kind::Const && a->value == 0)
    return negInf();
  if (a->kind == Kind::Select)
    return select(a->ops[0], log(a->ops[1]), log(a->ops[2]));
  if (a->kind == Kind::Exp)
    return a->ops[0];
  Expr e{Kind::Log};
  e.ops.push_back(a);
  return intern(std::move(e));
}

/// A branch a mask sends masked elements to.
static bool isMaskedValue(const Expr *e) {
  return e->kind == Kind::NegInf || isZero(e);
}

const Expr *ExprContext::select(const Expr *c, const Expr *t, const Expr *f) {
  if (t == f)
    return t;
  if (c->kind == Kind::Const)
    return c->value != 0 ? t : f;
  // The masked value goes right; otherwise no negation on top.
  if (isMaskedValue(t) && !isMaskedValue(f)) {
    c = lnot(c);
    std::swap(t, f);
  } else if (c->kind == Kind::Not &&
             !(isMaskedValue(f) && !isMaskedValue(t))) {
    return select(c->ops[0], f, t);
  }
  // select(c, recip(sum) a, 0) = recip(sum) select(c, a, 0): a softmax's
  // normalizer outside its mask (exp(select(c, s - lse, -inf)), a masked
  // log-softmax, is the masked exponential over its row sum).
  for (bool left : {true, false}) {
    const Expr *x = left ? t : f, *other = left ? f : t;
    if (!(other->kind == Kind::Const && other->value == 0) ||
        x->kind != Kind::Mul)
      continue;
    SmallVector<const Expr *> outside, inside;
    // (Not where the condition reads the sum: a guard for rows without
    // keys, where(l == 0, 0, o / l), is its own form.)
    for (const Expr *o : x->ops)
      (o->kind == Kind::Recip && o->ops[0]->kind == Kind::Reduce &&
               !contains(c, o->ops[0])
           ? outside
           : inside)
          .push_back(o);
    // (Not from a select of constants: makeMul distributes a product with
    // an indicator into it.)
    if (outside.empty() || inside.empty())
      continue;
    const Expr *rest = makeMul(x->value, std::move(inside));
    if (rest->kind == Kind::Const)
      continue;
    const Expr *r = left ? select(c, rest, other) : select(c, other, rest);
    for (const Expr *o : outside)
      r = mul(o, r);
    return r;
  }
  // select(c1, select(c2, x, y), y) = select(c1 & c2, x, y).
  if (t->kind == Kind::Select && t->ops[2] == f)
    return select(land(c, t->ops[0]), t->ops[1], f);
  // A branch's select on c (or !c) is decided there: select(c, x,
  // select(!c, y, z)) = select(c, x, y) (masked_fill(m == 0, -inf) then
  // masked_fill(m == 1, 0)).
  const Expr *notC = lnot(c);
  if (f->kind == Kind::Select && (f->ops[0] == c || f->ops[0] == notC))
    return select(c, t, f->ops[0] == c ? f->ops[2] : f->ops[1]);
  if (t->kind == Kind::Select && (t->ops[0] == c || t->ops[0] == notC))
    return select(c, t->ops[0] == c ? t->ops[1] : t->ops[2], f);
  Expr e{Kind::Select};
  e.ops = {c, t, f};
  return intern(std::move(e));
}

const Expr *ExprContext::cmpf(int64_t pred, const Expr *a, const Expr *b) {
  // Of constants: decided (NaN compares as IEEE does). Of a select between
  // constants and a constant: a select of the decided compares, a predicate
  // of the select's condition (torch's generate_square_subsequent_mask:
  // masked_fill(m == 0, -inf) of a float 0 / 1 mask).
  auto constantOrNegInf = [](const Expr *x) {
    return x->kind == Kind::Const || x->kind == Kind::NegInf;
  };
  if (constantOrNegInf(a) && constantOrNegInf(b)) {
    auto v = [](const Expr *x) {
      return x->kind == Kind::NegInf ? -std::numeric_limits<double>::infinity()
                                     : x->value;
    };
    APFloat x(v(a)), y(v(b));
    return constant(
        arith::applyCmpPredicate(static_cast<arith::CmpFPredicate>(pred), x, y)
            ? 1
            : 0);
  }
  // (As a predicate: the condition, its negation or a constant.)
  auto ofCondition = [&](const Expr *c, const Expr *t, const Expr *f) {
    if (t->value == f->value)
      return t;
    return t->value != 0 ? c : lnot(c);
  };
  if (a->kind == Kind::Select && constantOrNegInf(b) &&
      constantOrNegInf(a->ops[1]) && constantOrNegInf(a->ops[2]))
    return ofCondition(a->ops[0], cmpf(pred, a->ops[1], b),
                       cmpf(pred, a->ops[2], b));
  if (b->kind == Kind::Select && constantOrNegInf(a) &&
      constantOrNegInf(b->ops[1]) && constantOrNegInf(b->ops[2]))
    return ofCondition(b->ops[0], cmpf(pred, a, b->ops[1]),
                       cmpf(pred, a, b->ops[2]));
  // A clamp's other bound, compared with a constant it lies on the true side
  // of, drops out: max(x, lo) <= hi is x <= hi where lo <= hi, min(x, hi)
  // >= lo is x >= lo where hi >= lo (a two-sided clamp's backward: the
  // outer bound's derivative compares the inner clamp; autodiff's where
  // compares x with both).
  if (b->kind == Kind::Const) {
    auto p = static_cast<arith::CmpFPredicate>(pred);
    bool below =
        p == arith::CmpFPredicate::OLE || p == arith::CmpFPredicate::OLT;
    bool above =
        p == arith::CmpFPredicate::OGE || p == arith::CmpFPredicate::OGT;
    bool isMin = a->kind == Kind::Opaque && a->ops.size() == 2 &&
                 (a->name == "arith.minimumf" || a->name == "arith.minnumf");
    if ((below && a->kind == Kind::Max) || (above && isMin)) {
      SmallVector<const Expr *> kept;
      for (const Expr *o : a->ops)
        if (!(o->kind == Kind::Const && cmpf(pred, o, b)->kind == Kind::Const &&
              cmpf(pred, o, b)->value != 0))
          kept.push_back(o);
      if (kept.size() == 1)
        return cmpf(pred, kept.front(), b);
    }
  }
  Expr e{Kind::CmpF};
  e.aux = pred;
  e.ops = {a, b};
  return intern(std::move(e));
}

bool model::knownNonNegative(AffineExpr e) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return c.getValue() >= 0;
  if (isa<AffineDimExpr, AffineSymbolExpr>(e))
    return true;
  auto bin = cast<AffineBinaryOpExpr>(e);
  auto rc = dyn_cast<AffineConstantExpr>(bin.getRHS());
  switch (e.getKind()) {
  case AffineExprKind::Add:
  case AffineExprKind::Mul:
    return knownNonNegative(bin.getLHS()) && knownNonNegative(bin.getRHS());
  default: // floordiv, ceildiv, mod by a positive constant
    return knownNonNegative(bin.getLHS()) && rc && rc.getValue() > 0;
  }
}

namespace {
/// A range [lo, hi] of integer values; nullopt is unbounded.
struct Range {
  std::optional<int64_t> lo, hi;
};
} // namespace

static std::optional<int64_t> addBound(std::optional<int64_t> x,
                                       std::optional<int64_t> y) {
  int64_t r;
  if (!x || !y || llvm::AddOverflow(*x, *y, r))
    return std::nullopt;
  return r;
}

/// The values a position expression takes: dims (loop indices) and symbols
/// (sizes) are >= 0, dims below their extent where it is known.
static Range rangeOf(AffineExpr e, const ExtentFn &extentOf) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return {c.getValue(), c.getValue()};
  if (auto d = dyn_cast<AffineDimExpr>(e)) {
    std::optional<int64_t> n = extentOf ? extentOf(d.getPosition())
                                        : std::nullopt;
    return {0, n && *n > 0 ? std::optional<int64_t>(*n - 1) : std::nullopt};
  }
  if (isa<AffineSymbolExpr>(e))
    return {0, std::nullopt};
  auto bin = cast<AffineBinaryOpExpr>(e);
  Range l = rangeOf(bin.getLHS(), extentOf), r = rangeOf(bin.getRHS(), extentOf);
  auto rc = dyn_cast<AffineConstantExpr>(bin.getRHS());
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return {addBound(l.lo, r.lo), addBound(l.hi, r.hi)};
  case AffineExprKind::Mul: {
    if (!rc || rc.getValue() == INT64_MIN)
      return {};
    int64_t c = rc.getValue();
    auto scaleBound = [&](std::optional<int64_t> x) -> std::optional<int64_t> {
      int64_t r;
      if (!x || llvm::MulOverflow(*x, c, r))
        return std::nullopt;
      return r;
    };
    return c >= 0 ? Range{scaleBound(l.lo), scaleBound(l.hi)}
                  : Range{scaleBound(l.hi), scaleBound(l.lo)};
  }
  case AffineExprKind::FloorDiv:
    if (rc && rc.getValue() > 0 && l.lo && *l.lo >= 0)
      return {*l.lo / rc.getValue(),
              l.hi ? std::optional<int64_t>(*l.hi / rc.getValue())
                   : std::nullopt};
    return {};
  case AffineExprKind::Mod:
    if (rc && rc.getValue() > 0)
      return {0, rc.getValue() - 1};
    return {};
  default:
    return {};
  }
}

const Expr *model::wrapInteger(ExprContext &ec, unsigned width, bool zeroExtend,
                               const Expr *x) {
  return ec.opaque(
      ("wrap." + Twine(zeroExtend ? "u" : "s") + Twine(width)).str(), {x});
}

std::optional<Wrap> model::asWrap(const Expr *e) {
  if (e->kind != Kind::Opaque || e->ops.size() != 1)
    return std::nullopt;
  StringRef name = e->name;
  if (!name.consume_front("wrap.") || name.empty() ||
      (name.front() != 's' && name.front() != 'u'))
    return std::nullopt;
  Wrap w{0, name.front() == 'u'};
  if (name.drop_front().getAsInteger(10, w.width) || w.width == 0 ||
      w.width >= 64)
    return std::nullopt;
  return w;
}

bool model::fitsInteger(AffineExpr e, unsigned width, bool nonNegative,
                        const ExtentFn &extentOf) {
  Range r = rangeOf(e, extentOf);
  if (nonNegative && !(r.lo ? *r.lo >= 0 : knownNonNegative(e)))
    return false;
  if (width >= 64)
    return true;
  // (An unbounded side: positions and sizes stay below 2^31.)
  const int64_t top = (int64_t(1) << (width - 1)) - 1;
  if (r.hi ? *r.hi > top : width < 32)
    return false;
  return r.lo ? *r.lo >= -top - 1 : width >= 32;
}

bool model::exactInFloat(AffineExpr e, unsigned precision,
                         const ExtentFn &extentOf) {
  if (precision >= 53)
    return true;
  Range r = rangeOf(e, extentOf);
  // Every integer of magnitude up to 2^precision is exact. (Unbounded: f32
  // and wider, positions below 2^24.)
  const int64_t top = int64_t(1) << precision;
  if (!r.lo || !r.hi)
    return precision >= 24;
  return *r.lo >= -top && *r.hi <= top;
}

std::optional<bool> model::decideCmpI(int64_t pred, AffineExpr a,
                                      AffineExpr b, const ExtentFn &extentOf) {
  using P = arith::CmpIPredicate;
  P p = static_cast<P>(pred);
  bool isUnsigned = p == P::ult || p == P::ule || p == P::ugt || p == P::uge;
  if (isUnsigned) {
    // Unsigned orders are the signed ones on non-negative values.
    std::optional<int64_t> la = rangeOf(a, extentOf).lo,
                           lb = rangeOf(b, extentOf).lo;
    if (!la || !lb || *la < 0 || *lb < 0)
      return std::nullopt;
  }
  Range d = rangeOf(simplifyAffineExpr(a - b, kFirstFresh + 4096, kMaxSymbols),
                    extentOf);
  auto below = [&](int64_t v) { return d.hi && *d.hi <= v; }; // a - b <= v
  auto above = [&](int64_t v) { return d.lo && *d.lo >= v; }; // a - b >= v
  switch (p) {
  case P::sle:
  case P::ule:
    return below(0) ? std::optional<bool>(true)
                    : above(1) ? std::optional<bool>(false) : std::nullopt;
  case P::slt:
  case P::ult:
    return below(-1) ? std::optional<bool>(true)
                     : above(0) ? std::optional<bool>(false) : std::nullopt;
  case P::sge:
  case P::uge:
    return above(0) ? std::optional<bool>(true)
                    : below(-1) ? std::optional<bool>(false) : std::nullopt;
  case P::sgt:
  case P::ugt:
    return above(1) ? std::optional<bool>(true)
                    : below(0) ? std::optional<bool>(false) : std::nullopt;
  case P::eq:
  case P::ne: {
    if (above(1) || below(-1))
      return p == P::ne;
    if (above(0) && below(0))
      return p == P::eq;
    return std::nullopt;
  }
  }
  return std::nullopt;
}

const Expr *ExprContext::cmpi(int64_t pred, AffineExpr a, AffineExpr b) {
  using P = arith::CmpIPredicate;
  // Decided by the positions' ranges alone (q_idx >= 0, transformers'
  // bidirectional mask): a constant.
  if (std::optional<bool> r = decideCmpI(pred, a, b, nullptr))
    return constant(*r ? 1 : 0);
  // Unsigned orders agree with the signed ones on non-negative values; a
  // negative side (i - j) is a huge unsigned value.
  P p = static_cast<P>(pred);
  bool ult = p == P::ult || p == P::ule, ugt = p == P::ugt || p == P::uge;
  if ((ult || ugt) && !(knownNonNegative(a) && knownNonNegative(b))) {
    AffineExpr zero = getAffineConstantExpr(0, ctx);
    // x <u y (or <=u) with y >= 0: 0 <= x < y (<=).
    auto below = [&](AffineExpr x, AffineExpr y, bool orEqual) {
      return land(cmpi(static_cast<int64_t>(P::sge), x, zero),
                  cmpi(static_cast<int64_t>(orEqual ? P::sle : P::slt), x,
                       y));
    };
    bool eq = p == P::ule || p == P::uge;
    if (ult && knownNonNegative(b))
      return below(a, b, eq);
    if (ugt && knownNonNegative(a))
      return below(b, a, eq);
    if (ugt && knownNonNegative(b)) // a >u b = !(a <=u b), a >=u b = !(a <u b)
      return lnot(below(a, b, !eq));
    if (ult && knownNonNegative(a)) // a <u b = !(b <=u a)
      return lnot(below(b, a, !eq));
    return opaque(("arith.cmpi:" + arith::stringifyCmpIPredicate(p)).str(),
                  {index(a), index(b)});
  }
  // Canonical: e <= 0, e == 0 or e != 0.
  AffineExpr e;
  P canon = P::sle;
  switch (static_cast<P>(pred)) {
  case P::sle:
  case P::ule:
    e = a - b;
    break;
  case P::slt:
  case P::ult:
    e = a - b + 1;
    break;
  case P::sge:
  case P::uge:
    e = b - a;
    break;
  case P::sgt:
  case P::ugt:
    e = b - a + 1;
    break;
  case P::eq:
    e = a - b;
    canon = P::eq;
    break;
  case P::ne:
    e = a - b;
    canon = P::ne;
    break;
  }
  e = simplifyAffineExpr(e, kFirstFresh + 4096, kMaxSymbols);
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    int64_t v = c.getValue();
    bool r = canon == P::sle ? v <= 0 : canon == P::eq ? v == 0 : v != 0;
    return constant(r ? 1 : 0);
  }
  Expr x{Kind::CmpI};
  x.aux = static_cast<int64_t>(canon);
  x.index.push_back(e);
  return intern(std::move(x));
}

const Expr *ExprContext::land(const Expr *a, const Expr *b) {
  SmallVector<const Expr *> ops;
  for (const Expr *x : {a, b}) {
    if (x->kind == Kind::Const) {
      if (x->value == 0)
        return x;
      continue;
    }
    if (x->kind == Kind::And)
      ops.append(x->ops.begin(), x->ops.end());
    else
      ops.push_back(x);
  }
  // a & !(a & b) = a & !b: masked_fill(causal) then masked_fill(causal &
  // too far), a window spelled as two fills. With b one compare, !b is
  // one too (an affine bound where b is).
  for (size_t k = 0; k < ops.size(); ++k) {
    const Expr *x = ops[k];
    if (x->kind != Kind::Not || x->ops[0]->kind != Kind::And)
      continue;
    SmallVector<const Expr *> rest;
    for (const Expr *y : x->ops[0]->ops)
      if (!llvm::is_contained(ops, y))
        rest.push_back(y);
    if (rest.size() == x->ops[0]->ops.size())
      continue;
    const Expr *r = constant(1);
    for (const Expr *y : rest)
      r = land(r, y);
    SmallVector<const Expr *> others;
    for (size_t l = 0; l < ops.size(); ++l)
      if (l != k)
        others.push_back(ops[l]);
    const Expr *acc = lnot(r);
    for (const Expr *y : others)
      acc = land(acc, y);
    return acc;
  }
  return makeIdempotent(Kind::And, std::move(ops), constant(1));
}

const Expr *ExprContext::lnot(const Expr *a) {
  using P = arith::CmpIPredicate;
  if (a->kind == Kind::Const)
    return constant(a->value != 0 ? 0 : 1);
  if (a->kind == Kind::Not)
    return a->ops[0];
  if (a->kind == Kind::CmpI) {
    AffineExpr e = a->index[0];
    switch (static_cast<P>(a->aux)) {
    case P::sle: // !(e <= 0) <=> -e + 1 <= 0
      return cmpi(static_cast<int64_t>(P::sle), -e + 1,
                  getAffineConstantExpr(0, ctx));
    case P::eq:
      return cmpi(static_cast<int64_t>(P::ne), e,
                  getAffineConstantExpr(0, ctx));
    case P::ne:
      return cmpi(static_cast<int64_t>(P::eq), e,
                  getAffineConstantExpr(0, ctx));
    default:
      break;
    }
  }
  Expr e{Kind::Not};
  e.ops.push_back(a);
  return intern(std::move(e));
}

const Expr *ExprContext::gather(Value tensor, ArrayRef<const Expr *> index) {
  Expr e{Kind::Gather};
  e.tensor = tensor;
  e.ops.assign(index.begin(), index.end());
  return intern(std::move(e));
}

const Expr *ExprContext::opaque(StringRef name, ArrayRef<const Expr *> ops) {
  Expr e{Kind::Opaque};
  e.name = name.str();
  e.ops.assign(ops.begin(), ops.end());
  return intern(std::move(e));
}

const Expr *ExprContext::reduceCanonical(ReduceKind kind, unsigned dim,
                                         const Expr *body) {
  unsigned name = kFirstBound + body->height + 1;
  if (name != dim)
    body = substitute(body, dim, getAffineDimExpr(name, ctx));
  Expr e{Kind::Reduce};
  e.aux = static_cast<int64_t>(kind);
  e.index.push_back(getAffineDimExpr(name, ctx));
  e.ops.push_back(body);
  return intern(std::move(e));
}

const Expr *ExprContext::reduce(ReduceKind kind, unsigned dim,
                                const Expr *body) {
  if (kind == ReduceKind::Sum) {
    // Linearity: a sum of sums, constants and independent factors out.
    if (body->kind == Kind::Add && body->value == 0) {
      SmallVector<std::pair<const Expr *, double>> terms;
      for (auto [o, c] : llvm::zip(body->ops, body->coefs)) {
        // Each term gets its own copy of the dim.
        unsigned d = freshDim();
        terms.push_back(
            {reduce(kind, d, substitute(o, dim, getAffineDimExpr(d, ctx))),
             c});
      }
      return makeAdd(0, terms);
    }
    if (body->kind == Kind::Mul) {
      SmallVector<const Expr *> in, out;
      for (const Expr *f : body->ops)
        (f->dependsOn(dim) ? in : out).push_back(f);
      if (!in.empty() && (!out.empty() || body->value != 1)) {
        out.push_back(reduceCanonical(kind, dim, makeMul(1, in)));
        return makeMul(body->value, out);
      }
    }
    if (body->kind == Kind::Select && !body->ops[0]->dependsOn(dim) &&
        isZero(body->ops[2]))
      return select(body->ops[0], reduce(kind, dim, body->ops[1]),
                    constant(0));
  }
  return reduceCanonical(kind, dim, body);
}

/// The derivative of max(a, t) or min(a, t), t free of x, as autodiff takes
/// it: a's where `a pred t` holds (a piecewise function; the flip points have
/// measure zero).
static const Expr *clampDerivative(ExprContext &ec, const Expr *a,
                                   const Expr *t, arith::CmpFPredicate pred,
                                   const Expr *x) {
  const Expr *da = ec.derivative(a, x);
  return da ? ec.select(ec.cmpf(static_cast<int64_t>(pred), a, t), da,
                        ec.constant(0))
            : nullptr;
}

const Expr *ExprContext::derivative(const Expr *e, const Expr *x) {
  if (e == x)
    return constant(1);
  if (!contains(e, x))
    return constant(0);
  auto d = [&](const Expr *o) { return derivative(o, x); };
  switch (e->kind) {
  case Kind::Add: {
    const Expr *r = constant(0);
    for (auto [o, c] : llvm::zip(e->ops, e->coefs)) {
      const Expr *t = d(o);
      if (!t)
        return nullptr;
      r = add(r, scale(t, c));
    }
    return r;
  }
  case Kind::Mul: {
    const Expr *r = constant(0);
    for (unsigned k = 0; k < e->ops.size(); ++k) {
      const Expr *t = d(e->ops[k]);
      if (!t)
        return nullptr;
      for (unsigned l = 0; l < e->ops.size(); ++l)
        if (l != k)
          t = mul(t, e->ops[l]);
      r = add(r, t);
    }
    return scale(r, e->value);
  }
  case Kind::Recip: {
    const Expr *t = d(e->ops[0]);
    return t ? scale(mul(t, mul(e, e)), -1) : nullptr;
  }
  case Kind::Exp: {
    const Expr *t = d(e->ops[0]);
    return t ? mul(t, e) : nullptr;
  }
  case Kind::Log: {
    const Expr *t = d(e->ops[0]);
    return t ? mul(t, recip(e->ops[0])) : nullptr;
  }
  case Kind::Select: {
    // (A condition on x, a piecewise function such as s > 0 ? s : 0.1 s:
    // the branch's derivative, as autodiff takes it; the points where the
    // condition flips have measure zero.)
    const Expr *a = d(e->ops[1]), *b = d(e->ops[2]);
    return a && b ? select(e->ops[0], a, b) : nullptr;
  }
  case Kind::Max: {
    // max(a, t) with t free of x (a clamp; torch's clamp_min backward: grad
    // where x >= min).
    const Expr *a = nullptr;
    SmallVector<const Expr *> rest;
    for (const Expr *o : e->ops) {
      if (!contains(o, x)) {
        rest.push_back(o);
        continue;
      }
      if (a)
        return nullptr;
      a = o;
    }
    if (!a || rest.empty())
      return nullptr;
    const Expr *t = rest.front();
    for (const Expr *o : llvm::drop_begin(rest))
      t = max(t, o);
    return clampDerivative(*this, a, t, arith::CmpFPredicate::OGE, x);
  }
  case Kind::Opaque:
    if (e->name == "math.tanh" && e->ops.size() == 1) {
      const Expr *t = d(e->ops[0]);
      return t ? mul(t, sub(constant(1), mul(e, e))) : nullptr;
    }
    // min(a, t) with t free of x (clamp_max: grad where x <= max).
    if ((e->name == "arith.minimumf" || e->name == "arith.minnumf") &&
        e->ops.size() == 2 &&
        contains(e->ops[0], x) != contains(e->ops[1], x)) {
      bool first = contains(e->ops[0], x);
      return clampDerivative(*this, e->ops[first ? 0 : 1],
                             e->ops[first ? 1 : 0], arith::CmpFPredicate::OLE,
                             x);
    }
    return nullptr;
  default:
    return nullptr;
  }
}

bool ExprContext::contains(const Expr *e, const Expr *x) {
  return e == x ||
         llvm::any_of(e->ops, [&](const Expr *o) { return contains(o, x); });
}

static bool closeF32(double a, double b) {
  if (a == b)
    return true;
  if (!std::isfinite(a) || !std::isfinite(b))
    return false;
  // 8 f32 ulps, relative to the larger magnitude.
  return std::abs(a - b) <= 0x1p-21 * std::max(std::abs(a), std::abs(b));
}

bool ExprContext::equalUpToRounding(const Expr *a, const Expr *b) {
  if (a == b)
    return true;
  if (a->kind != b->kind || a->aux != b->aux || a->tensor != b->tensor ||
      a->index != b->index || a->name != b->name ||
      a->ops.size() != b->ops.size() || a->coefs.size() != b->coefs.size() ||
      a->height != b->height || a->reads != b->reads ||
      !closeF32(a->value, b->value))
    return false;
  bool unordered = a->kind == Kind::Add || a->kind == Kind::Mul ||
                   a->kind == Kind::Max || a->kind == Kind::And;
  if (!unordered) {
    for (auto [x, y] : llvm::zip(a->ops, b->ops))
      if (!equalUpToRounding(x, y))
        return false;
    return true;
  }
  // Greedy matching: an operand of `a` takes the first free operand of `b`
  // equal to it (with its coefficient, in a sum). Exact pointers first.
  SmallVector<bool> used(b->ops.size(), false);
  auto coef = [](const Expr *e, size_t k) {
    return e->coefs.empty() ? 1.0 : e->coefs[k];
  };
  for (size_t k = 0; k < a->ops.size(); ++k) {
    bool found = false;
    for (int pass = 0; pass < 2 && !found; ++pass)
      for (size_t l = 0; l < b->ops.size() && !found; ++l) {
        if (used[l] || !closeF32(coef(a, k), coef(b, l)))
          continue;
        if (pass == 0 ? a->ops[k] == b->ops[l]
                      : equalUpToRounding(a->ops[k], b->ops[l]))
          used[l] = found = true;
      }
    if (!found)
      return false;
  }
  return true;
}

const Expr *ExprContext::rebuild(const Expr *e,
                                 function_ref<const Expr *(const Expr *)> s) {
  switch (e->kind) {
  case Kind::Add: {
    SmallVector<std::pair<const Expr *, double>> terms;
    for (auto [o, c] : llvm::zip(e->ops, e->coefs))
      terms.push_back({s(o), c});
    return makeAdd(e->value, terms);
  }
  case Kind::Mul: {
    SmallVector<const Expr *> fs;
    for (const Expr *o : e->ops)
      fs.push_back(s(o));
    return makeMul(e->value, fs);
  }
  case Kind::Recip:
    return recip(s(e->ops[0]));
  case Kind::Max: {
    const Expr *r = negInf();
    for (const Expr *o : e->ops)
      r = max(r, s(o));
    return r;
  }
  case Kind::Exp:
    return exp(s(e->ops[0]));
  case Kind::Log:
    return log(s(e->ops[0]));
  case Kind::Select:
    return select(s(e->ops[0]), s(e->ops[1]), s(e->ops[2]));
  case Kind::CmpF:
    return cmpf(e->aux, s(e->ops[0]), s(e->ops[1]));
  case Kind::And: {
    const Expr *r = constant(1);
    for (const Expr *o : e->ops)
      r = land(r, s(o));
    return r;
  }
  case Kind::Not:
    return lnot(s(e->ops[0]));
  case Kind::Opaque:
  case Kind::Gather: {
    SmallVector<const Expr *> ops;
    for (const Expr *o : e->ops)
      ops.push_back(s(o));
    return e->kind == Kind::Gather ? gather(e->tensor, ops)
                                   : opaque(e->name, ops);
  }
  default:
    return e;
  }
}

const Expr *ExprContext::replace(const Expr *e, const Expr *from,
                                 const Expr *to) {
  if (e == from)
    return to;
  if (!contains(e, from))
    return e;
  auto s = [&](const Expr *o) { return replace(o, from, to); };
  if (e->kind == Kind::Reduce)
    return reduceCanonical(static_cast<ReduceKind>(e->aux),
                           cast<AffineDimExpr>(e->index[0]).getPosition(),
                           s(e->ops[0]));
  return rebuild(e, s);
}

const Expr *ExprContext::substitute(const Expr *e, unsigned from, AffineExpr to,
                                    const ExtentFn *extents) {
  if (!e->freeDims.contains(from))
    return e;
  AffineExpr fromE = getAffineDimExpr(from, ctx);
  auto sub = [&](AffineExpr x) {
    x = x.replace(fromE, to);
    return extents ? simplifyDivMod(x, *extents) : x;
  };
  auto s = [&](const Expr *o) { return substitute(o, from, to, extents); };
  switch (e->kind) {
  case Kind::Read: {
    SmallVector<AffineExpr> idx;
    for (AffineExpr x : e->index)
      idx.push_back(sub(x));
    return read(e->tensor, idx);
  }
  case Kind::Index:
    return index(sub(e->index[0]));
  case Kind::IndexF:
    return indexToFloat(sub(e->index[0]));
  case Kind::CmpI:
    return cmpi(e->aux, sub(e->index[0]), getAffineConstantExpr(0, ctx));
  case Kind::Reduce: {
    unsigned bound = cast<AffineDimExpr>(e->index[0]).getPosition();
    const Expr *body = e->ops[0];
    llvm::SmallDenseSet<unsigned, 8> toDims;
    collectDims(to, toDims);
    if (toDims.contains(bound)) {
      // Avoid capture: rename the bound dim first.
      unsigned f = freshDim();
      body = substitute(body, bound, getAffineDimExpr(f, ctx));
      bound = f;
    }
    return reduce(static_cast<ReduceKind>(e->aux), bound,
                  substitute(body, from, to, extents));
  }
  default:
    return rebuild(e, s);
  }
}

const Expr *ExprContext::replaceTensor(const Expr *e, Value from, Value to) {
  if (!e->reads.contains(from))
    return e;
  if (e->kind == Kind::Read)
    return read(e->tensor == from ? to : e->tensor, e->index);
  SmallVector<const Expr *> ops;
  for (const Expr *o : e->ops)
    ops.push_back(replaceTensor(o, from, to));
  if (e->kind == Kind::Gather)
    return gather(e->tensor == from ? to : e->tensor, ops);
  // Rebuild through the constructors (a Read is never the only thing that
  // changes the normal form, so the node kind stays).
  Expr x(e->kind);
  x.value = e->value;
  x.aux = e->aux;
  x.tensor = e->tensor;
  x.index = e->index;
  x.ops.assign(ops.begin(), ops.end());
  x.coefs = e->coefs;
  x.name = e->name;
  return intern(std::move(x));
}

/// A constant factor k of select(c, k y, 0) (or select(c, 0, k y)), y a
/// product or a sum whose coefficients k divides into 1 and -1: (k,
/// select(c, y, 0)); (1, e) otherwise.
std::pair<double, const Expr *> ExprContext::selectFactor(const Expr *e) {
  if (e->kind != Kind::Select)
    return {1, e};
  for (unsigned b : {1u, 2u}) {
    const Expr *x = e->ops[b], *other = e->ops[3 - b];
    if (!(other->kind == Kind::Const && other->value == 0))
      continue;
    double k = 1;
    if (x->kind == Kind::Mul)
      k = x->value;
    else if (x->kind == Kind::Add && x->value == 0 && !x->coefs.empty() &&
             llvm::all_of(x->coefs, [&](double c) {
               return std::abs(c) == std::abs(x->coefs.front());
             }))
      k = std::abs(x->coefs.front());
    if (k == 1 || k == 0)
      continue;
    const Expr *y = scale(x, 1 / k);
    return {k,
            b == 1 ? select(e->ops[0], y, other) : select(e->ops[0], other, y)};
  }
  return {1, e};
}

const Expr *ExprContext::expand(const Expr *e) {
  auto it = expanded.find(e);
  if (it != expanded.end())
    return it->second;
  const Expr *r = e;
  switch (e->kind) {
  case Kind::Add: {
    SmallVector<std::pair<const Expr *, double>> terms;
    for (auto [o, c] : llvm::zip(e->ops, e->coefs))
      terms.push_back({expand(o), c});
    r = makeAdd(e->value, terms);
    break;
  }
  case Kind::Mul: {
    // The product of sums as a sum of products.
    SmallVector<std::pair<SmallVector<const Expr *>, double>> acc{{{}, e->value}};
    for (const Expr *o : e->ops) {
      const Expr *x = expand(o);
      SmallVector<std::pair<const Expr *, double>> parts;
      if (x->kind == Kind::Add && !x->hasNegInf) {
        if (x->value != 0)
          parts.push_back({constant(1), x->value});
        for (auto [t, c] : llvm::zip(x->ops, x->coefs))
          parts.push_back({t, c});
      } else if (auto [k, rest] = selectFactor(x); k != 1) {
        // select(c, k y, 0) as k select(c, y, 0): a scale applied before or
        // after autodiff's where on dS compares alike.
        parts.push_back({rest, k});
      } else {
        parts.push_back({x, 1});
      }
      if (acc.size() * parts.size() > 64)
        return expanded[e] = e;
      SmallVector<std::pair<SmallVector<const Expr *>, double>> next;
      for (auto &[fs, c] : acc)
        for (auto [t, tc] : parts) {
          auto f2 = fs;
          f2.push_back(t);
          next.push_back({f2, c * tc});
        }
      acc = std::move(next);
    }
    SmallVector<std::pair<const Expr *, double>> terms;
    for (auto &[fs, c] : acc)
      terms.push_back({makeMul(c, fs), 1});
    r = makeAdd(0, terms);
    break;
  }
  case Kind::Reduce:
    r = reduce(static_cast<ReduceKind>(e->aux),
               cast<AffineDimExpr>(e->index[0]).getPosition(),
               expand(e->ops[0]));
    break;
  case Kind::Recip:
    r = recip(expand(e->ops[0]));
    break;
  case Kind::Exp:
    r = exp(expand(e->ops[0]));
    break;
  case Kind::Select:
    r = select(expand(e->ops[0]), expand(e->ops[1]), expand(e->ops[2]));
    break;
  default:
    break;
  }
  // A reduction's linearity may expose more to expand.
  if (r != e && r->kind != e->kind)
    r = expand(r);
  expanded[e] = r;
  return r;
}

std::string ExprContext::str(const Expr *e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  auto idx = [&](ArrayRef<AffineExpr> xs) {
    os << "[";
    llvm::interleaveComma(xs, os, [&](AffineExpr x) { os << x; });
    os << "]";
  };
  switch (e->kind) {
  case Kind::Const:
    os << e->value;
    break;
  case Kind::NegInf:
    os << "-inf";
    break;
  case Kind::Read:
    if (auto r = dyn_cast<OpResult>(e->tensor))
      os << r.getOwner()->getName().getStringRef();
    else
      os << "arg" << cast<BlockArgument>(e->tensor).getArgNumber();
    idx(e->index);
    break;
  case Kind::Index:
    os << "idx(" << e->index[0] << ")";
    break;
  case Kind::Gather:
    if (auto r = dyn_cast<OpResult>(e->tensor))
      os << r.getOwner()->getName().getStringRef();
    else
      os << "arg" << cast<BlockArgument>(e->tensor).getArgNumber();
    os << "[";
    for (size_t k = 0; k < e->ops.size(); ++k)
      os << (k ? ", " : "") << str(e->ops[k]);
    os << "]";
    break;
  case Kind::IndexF:
    os << "float(" << e->index[0] << ")";
    break;
  case Kind::CmpI:
    os << "(" << e->index[0] << " "
       << arith::stringifyCmpIPredicate(
              static_cast<arith::CmpIPredicate>(e->aux))
       << " 0)";
    break;
  case Kind::Add:
    os << "(";
    if (e->value != 0)
      os << e->value << " + ";
    for (size_t k = 0; k < e->ops.size(); ++k)
      os << (k ? " + " : "") << e->coefs[k] << "*" << str(e->ops[k]);
    os << ")";
    break;
  case Kind::Mul:
    os << "(";
    if (e->value != 1)
      os << e->value << " * ";
    for (size_t k = 0; k < e->ops.size(); ++k)
      os << (k ? " * " : "") << str(e->ops[k]);
    os << ")";
    break;
  case Kind::Reduce:
    os << (e->aux == static_cast<int64_t>(ReduceKind::Sum) ? "sum" : "max")
       << "_" << e->index[0] << "(" << str(e->ops[0]) << ")";
    break;
  default: {
    StringRef n = e->kind == Kind::Recip    ? "recip"
                  : e->kind == Kind::Max    ? "max"
                  : e->kind == Kind::Exp    ? "exp"
                  : e->kind == Kind::Log    ? "log"
                  : e->kind == Kind::Select ? "select"
                  : e->kind == Kind::CmpF   ? "cmpf"
                  : e->kind == Kind::And    ? "and"
                  : e->kind == Kind::Not    ? "not"
                                            : StringRef(e->name);
    os << n << "(";
    for (size_t k = 0; k < e->ops.size(); ++k)
      os << (k ? ", " : "") << str(e->ops[k]);
    os << ")";
  }
  }
  return s;
}

void model::collectTensors(const Expr *e, SmallVectorImpl<Value> &out) {
  if ((e->kind == Kind::Read || e->kind == Kind::Gather) &&
      !llvm::is_contained(out, e->tensor))
    out.push_back(e->tensor);
  for (const Expr *o : e->ops)
    collectTensors(o, out);
}

void model::collectReads(const Expr *e, SmallVectorImpl<const Expr *> &out) {
  if (e->kind == Kind::Read) {
    if (!llvm::is_contained(out, e))
      out.push_back(e);
    return;
  }
  for (const Expr *o : e->ops)
    collectReads(o, out);
}

//===----------------------------------------------------------------------===//
// Affine simplification with ranges
//===----------------------------------------------------------------------===//

namespace {
/// A linear form: sum of coef * atom + constant; atoms are dims or
/// non-linear subexpressions.
struct Linear {
  SmallVector<std::pair<AffineExpr, int64_t>> terms;
  int64_t c = 0;
};
} // namespace

static bool toLinear(AffineExpr e, int64_t scale, Linear &out) {
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    out.c += scale * c.getValue();
    return true;
  }
  if (auto b = dyn_cast<AffineBinaryOpExpr>(e)) {
    if (e.getKind() == AffineExprKind::Add)
      return toLinear(b.getLHS(), scale, out) &&
             toLinear(b.getRHS(), scale, out);
    if (e.getKind() == AffineExprKind::Mul) {
      if (auto c = dyn_cast<AffineConstantExpr>(b.getRHS()))
        return toLinear(b.getLHS(), scale * c.getValue(), out);
      if (auto c = dyn_cast<AffineConstantExpr>(b.getLHS()))
        return toLinear(b.getRHS(), scale * c.getValue(), out);
    }
  }
  out.terms.push_back({e, scale});
  return true;
}

/// The largest value of a non-negative atom (a dim, d floordiv c, x mod c),
/// when known.
static std::optional<int64_t> maxOf(AffineExpr atom, const ExtentFn &extentOf) {
  if (auto d = dyn_cast<AffineDimExpr>(atom)) {
    std::optional<int64_t> ext = extentOf(d.getPosition());
    if (!ext || *ext <= 0)
      return std::nullopt;
    return *ext - 1;
  }
  auto b = dyn_cast<AffineBinaryOpExpr>(atom);
  auto c = b ? dyn_cast<AffineConstantExpr>(b.getRHS()) : AffineConstantExpr();
  if (!c || c.getValue() <= 0)
    return std::nullopt;
  if (atom.getKind() == AffineExprKind::Mod)
    return c.getValue() - 1;
  if (atom.getKind() == AffineExprKind::FloorDiv)
    if (std::optional<int64_t> m = maxOf(b.getLHS(), extentOf))
      return *m / c.getValue();
  return std::nullopt;
}

AffineExpr model::simplifyDivMod(AffineExpr e, const ExtentFn &extentOf) {
  auto b = dyn_cast<AffineBinaryOpExpr>(e);
  if (!b)
    return e;
  AffineExpr l = simplifyDivMod(b.getLHS(), extentOf);
  AffineExpr r = simplifyDivMod(b.getRHS(), extentOf);
  AffineExprKind k = e.getKind();
  // (x floordiv a) floordiv b = x floordiv (a * b).
  if (k == AffineExprKind::FloorDiv && l.getKind() == AffineExprKind::FloorDiv)
    if (auto rc = dyn_cast<AffineConstantExpr>(r))
      if (auto lc = dyn_cast<AffineConstantExpr>(
              cast<AffineBinaryOpExpr>(l).getRHS()))
        return simplifyDivMod(cast<AffineBinaryOpExpr>(l).getLHS().floorDiv(
                                  lc.getValue() * rc.getValue()),
                              extentOf);
  auto n = dyn_cast<AffineConstantExpr>(r);
  if ((k == AffineExprKind::FloorDiv || k == AffineExprKind::Mod) && n &&
      n.getValue() > 0) {
    int64_t div = n.getValue();
    Linear lin;
    toLinear(l, 1, lin);
    AffineExpr q = getAffineConstantExpr(0, e.getContext());
    AffineExpr rem = getAffineConstantExpr(lin.c, e.getContext());
    int64_t lo = lin.c, hi = lin.c;
    bool bounded = true;
    for (auto [atom, coef] : lin.terms) {
      if (coef % div == 0) {
        q = q + atom * (coef / div);
        continue;
      }
      rem = rem + atom * coef;
      std::optional<int64_t> top = maxOf(atom, extentOf);
      if (!top) {
        bounded = false;
        continue;
      }
      (coef > 0 ? hi : lo) += coef * *top;
    }
    if (bounded && lo >= 0 && hi < div)
      return simplifyAffineExpr(k == AffineExprKind::FloorDiv ? q : rem,
                                kFirstFresh + 4096, kMaxSymbols);
    // Multiples of the divisor leave the remainder alone and go to the
    // quotient whatever the ranges: (n a + r) mod n = r mod n and
    // (n a + r) floordiv n = a + r floordiv n.
    if (!isa<AffineConstantExpr>(q) || cast<AffineConstantExpr>(q).getValue()) {
      AffineExpr inner = simplifyDivMod(
          k == AffineExprKind::FloorDiv ? rem.floorDiv(div) : rem % div,
          extentOf);
      return simplifyAffineExpr(k == AffineExprKind::FloorDiv ? q + inner
                                                              : inner,
                                kFirstFresh + 4096, kMaxSymbols);
    }
  }
  AffineExpr res;
  switch (k) {
  case AffineExprKind::Add:
    res = l + r;
    break;
  case AffineExprKind::Mul:
    res = l * r;
    break;
  case AffineExprKind::FloorDiv:
    res = l.floorDiv(r);
    break;
  case AffineExprKind::CeilDiv:
    res = l.ceilDiv(r);
    break;
  case AffineExprKind::Mod:
    res = l % r;
    break;
  default:
    res = e;
  }
  return simplifyAffineExpr(res, kFirstFresh + 4096, kMaxSymbols);
}

