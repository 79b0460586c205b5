//===- AttentionModel.cpp - Tensor programs as scalar expressions ---------===//
//
// The expression algebra (ExprContext) and the reader of IR into it
// (ModelBuilder). See AttentionModel.h for the normal form.
//
//===----------------------------------------------------------------------===//

#include "AttentionModel.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

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
  if (n->kind == Kind::Read)
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

static bool isNegInfLike(double v) { return v < -1e38; }

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
  Expr e{Kind::Index};
  e.index.push_back(x);
  return intern(std::move(e));
}

const Expr *ExprContext::indexToFloat(AffineExpr x) {
  if (auto c = dyn_cast<AffineConstantExpr>(x))
    return constant(static_cast<double>(c.getValue()));
  Expr e{Kind::IndexF};
  e.index.push_back(x);
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
  for (auto [t, c] : flat)
    if (t->kind == Kind::NegInf && c > 0 &&
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

const Expr *ExprContext::max(const Expr *a, const Expr *b) {
  SmallVector<const Expr *> ops;
  for (const Expr *x : {a, b}) {
    if (x->kind == Kind::Max)
      ops.append(x->ops.begin(), x->ops.end());
    else if (x->kind != Kind::NegInf &&
             !(x->kind == Kind::Const && std::isnan(x->value)))
      ops.push_back(x);
  }
  if (ops.empty())
    return negInf();
  llvm::sort(ops, [](const Expr *x, const Expr *y) { return x->id < y->id; });
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  if (ops.size() == 1)
    return ops[0];
  Expr e{Kind::Max};
  e.ops.assign(ops.begin(), ops.end());
  return intern(std::move(e));
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
  // exp(x + log y) = exp(x) * y, exp(x - log y) = exp(x) / y.
  if (a->kind == Kind::Add) {
    for (auto [t, c] : llvm::zip(a->ops, a->coefs)) {
      if (t->kind != Kind::Log || (c != 1 && c != -1))
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
  // select(c1, select(c2, x, y), y) = select(c1 & c2, x, y).
  if (t->kind == Kind::Select && t->ops[2] == f)
    return select(land(c, t->ops[0]), t->ops[1], f);
  Expr e{Kind::Select};
  e.ops = {c, t, f};
  return intern(std::move(e));
}

const Expr *ExprContext::cmpf(int64_t pred, const Expr *a, const Expr *b) {
  Expr e{Kind::CmpF};
  e.aux = pred;
  e.ops = {a, b};
  return intern(std::move(e));
}

const Expr *ExprContext::cmpi(int64_t pred, AffineExpr a, AffineExpr b) {
  using P = arith::CmpIPredicate;
  // Canonical: e <= 0, e == 0 or e != 0 (indices are non-negative, so the
  // signed and unsigned orders agree).
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
  if (ops.empty())
    return constant(1);
  llvm::sort(ops, [](const Expr *x, const Expr *y) { return x->id < y->id; });
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  if (ops.size() == 1)
    return ops[0];
  Expr e{Kind::And};
  e.ops.assign(ops.begin(), ops.end());
  return intern(std::move(e));
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

const Expr *ExprContext::substitute(const Expr *e, unsigned from,
                                    AffineExpr to) {
  if (!e->freeDims.contains(from))
    return e;
  AffineExpr fromE = getAffineDimExpr(from, ctx);
  auto sub = [&](AffineExpr x) { return x.replace(fromE, to); };
  auto s = [&](const Expr *o) { return substitute(o, from, to); };
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
  case Kind::Opaque: {
    SmallVector<const Expr *> ops;
    for (const Expr *o : e->ops)
      ops.push_back(s(o));
    return opaque(e->name, ops);
  }
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
                  substitute(body, from, to));
  }
  case Kind::Const:
  case Kind::NegInf:
    return e;
  }
  return e;
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

AffineExpr model::simplifyDivMod(AffineExpr e, const ExtentFn &extentOf) {
  auto b = dyn_cast<AffineBinaryOpExpr>(e);
  if (!b)
    return e;
  AffineExpr l = simplifyDivMod(b.getLHS(), extentOf);
  AffineExpr r = simplifyDivMod(b.getRHS(), extentOf);
  AffineExprKind k = e.getKind();
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
      std::optional<int64_t> ext;
      if (auto d = dyn_cast<AffineDimExpr>(atom))
        ext = extentOf(d.getPosition());
      if (!ext || *ext <= 0) {
        bounded = false;
        continue;
      }
      (coef > 0 ? hi : lo) += coef * (*ext - 1);
    }
    if (bounded && lo >= 0 && hi < div)
      return simplifyAffineExpr(k == AffineExprKind::FloorDiv ? q : rem,
                                kFirstFresh + 4096, kMaxSymbols);
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

//===----------------------------------------------------------------------===//
// ModelBuilder
//===----------------------------------------------------------------------===//

ModelBuilder::ModelBuilder(ExprContext &ec) : ec(ec) {}
ModelBuilder::~ModelBuilder() { releaseScratch(); }

void ModelBuilder::releaseScratch() {
  memo.clear();
  memoKeys.clear();
  decomposed.clear();
  tosaMap.clear();
  scratchArgs.clear();
  scratch = nullptr;
}

bool ModelBuilder::isScratch(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op)
    op = v.getParentBlock()->getParentOp();
  return isScratch(op);
}

bool ModelBuilder::isScratch(Operation *op) {
  return scratch && op && scratch->getOperation()->isAncestor(op);
}

AffineExpr ModelBuilder::simplify(AffineExpr e) {
  return simplifyDivMod(e, [&](unsigned d) -> std::optional<int64_t> {
    auto it = extents.find(d);
    if (it == extents.end())
      return std::nullopt;
    return it->second;
  });
}

bool ModelBuilder::isSimple(ArrayRef<AffineExpr> index) {
  for (AffineExpr e : index) {
    if (isa<AffineDimExpr, AffineConstantExpr>(e))
      continue;
    if (e.getKind() == AffineExprKind::FloorDiv) {
      auto b = cast<AffineBinaryOpExpr>(e);
      if (isa<AffineDimExpr>(b.getLHS()) && isa<AffineConstantExpr>(b.getRHS()))
        continue;
    }
    return false;
  }
  return true;
}

bool ModelBuilder::readsComplex(const Expr *e) {
  auto it = complexCache.find(e);
  if (it != complexCache.end())
    return it->second;
  bool r = e->kind == Kind::Read && !isSimple(e->index);
  for (const Expr *o : e->ops)
    r = r || readsComplex(o);
  complexCache[e] = r;
  return r;
}

const Expr *ModelBuilder::throughView(Value view, Value src,
                                      ArrayRef<AffineExpr> idx,
                                      ArrayRef<AffineExpr> srcIdx) {
  const Expr *inner = eval(src, srcIdx);
  // A reshape that cannot be folded into the leaves' index expressions (a
  // collapsed dim that stays collapsed) is itself the leaf.
  if (isSimple(idx) && readsComplex(inner))
    return ec.read(view, idx);
  visited.insert({view, SmallVector<AffineExpr, 4>(idx.begin(), idx.end())});
  return inner;
}

namespace {
/// Matches a value's model (pattern: its index dims are variables) against
/// an expression, binding the variables.
struct Unifier {
  llvm::SmallDenseSet<unsigned, 8> vars;
  DenseMap<unsigned, AffineExpr> bound;

  bool index(AffineExpr p, AffineExpr t) {
    if (auto d = dyn_cast<AffineDimExpr>(p); d && vars.contains(d.getPosition())) {
      auto [it, inserted] = bound.insert({d.getPosition(), t});
      return inserted || it->second == t;
    }
    // A compound pattern: every variable in it must be bound already.
    bool ok = true;
    AffineExpr q = p;
    p.walk([&](AffineExpr s) {
      if (auto d = dyn_cast<AffineDimExpr>(s); d && vars.contains(d.getPosition())) {
        auto it = bound.find(d.getPosition());
        if (it == bound.end())
          ok = false;
        else
          q = q.replace(s, it->second);
      }
    });
    return ok && q == t;
  }

  bool match(const Expr *p, const Expr *t) {
    if (p == t && llvm::none_of(p->freeDims, [&](unsigned d) {
          return vars.contains(d);
        }))
      return true;
    if (p->kind != t->kind || p->value != t->value || p->aux != t->aux ||
        p->tensor != t->tensor || p->name != t->name ||
        p->ops.size() != t->ops.size() || p->index.size() != t->index.size())
      return false;
    if (p->kind == Kind::Reduce)
      return p->index[0] == t->index[0] && match(p->ops[0], t->ops[0]);
    for (auto [a, b] : llvm::zip(p->index, t->index))
      if (!index(a, b))
        return false;
    bool commutative = p->kind == Kind::Add || p->kind == Kind::Mul ||
                       p->kind == Kind::Max || p->kind == Kind::And;
    if (!commutative || p->ops.size() > 4) {
      if (p->coefs != t->coefs)
        return false;
      for (auto [a, b] : llvm::zip(p->ops, t->ops))
        if (!match(a, b))
          return false;
      return true;
    }
    // Operands are sorted by creation, which differs between the two: try
    // the orders.
    SmallVector<unsigned> perm;
    for (unsigned k = 0; k < t->ops.size(); ++k)
      perm.push_back(k);
    do {
      auto saved = bound;
      bool ok = true;
      for (unsigned k = 0; ok && k < perm.size(); ++k)
        ok = (p->coefs.empty() || p->coefs[k] == t->coefs[perm[k]]) &&
             match(p->ops[k], t->ops[perm[k]]);
      if (ok)
        return true;
      bound = saved;
    } while (std::next_permutation(perm.begin(), perm.end()));
    return false;
  }
};
} // namespace

const Expr *ModelBuilder::asLeaf(const Expr *x) {
  if (x->kind == Kind::Read)
    return x;
  for (auto &[v, idx] : visited) {
    if (isScratch(v) || !isa<RankedTensorType>(v.getType()))
      continue;
    const Expr *m = eval(v, idx);
    if (m->kind != x->kind || m->height != x->height)
      continue;
    Unifier u;
    for (AffineExpr e : idx)
      if (auto d = dyn_cast<AffineDimExpr>(e))
        u.vars.insert(d.getPosition());
      else if (!isa<AffineConstantExpr>(e))
        goto next; // only plain indices
    if (u.match(m, x)) {
      SmallVector<AffineExpr> at;
      for (AffineExpr e : idx) {
        if (auto d = dyn_cast<AffineDimExpr>(e)) {
          auto it = u.bound.find(d.getPosition());
          if (it == u.bound.end())
            goto next;
          at.push_back(it->second);
        } else {
          at.push_back(e);
        }
      }
      return ec.read(v, at);
    }
  next:;
  }
  return nullptr;
}

AffineExpr ModelBuilder::indexExprOf(Value v) {
  MLIRContext *ctx = ec.getContext();
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return getAffineConstantExpr(c.getSExtValue(), ctx);
  Operation *d = v.getDefiningOp();
  if (!d)
    return AffineExpr();
  if (auto dim = dyn_cast<tensor::DimOp>(d)) {
    std::optional<int64_t> k = dim.getConstantIndex();
    if (!k)
      return AffineExpr();
    auto ty = cast<RankedTensorType>(dim.getSource().getType());
    if (!ty.isDynamicDim(*k))
      return getAffineConstantExpr(ty.getDimSize(*k), ctx);
    for (auto [n, s] : llvm::enumerate(symbols))
      if (s.first == dim.getSource() && s.second == *k)
        return getAffineSymbolExpr(n, ctx);
    if (symbols.size() >= kMaxSymbols)
      return AffineExpr();
    symbols.push_back({dim.getSource(), *k});
    return getAffineSymbolExpr(symbols.size() - 1, ctx);
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(d))
    return indexExprOf(d->getOperand(0));
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(d)) {
    AffineExpr a = indexExprOf(d->getOperand(0));
    AffineExpr b = indexExprOf(d->getOperand(1));
    if (!a || !b)
      return AffineExpr();
    if (isa<arith::AddIOp>(d))
      return a + b;
    if (isa<arith::SubIOp>(d))
      return a - b;
    if (isa<AffineConstantExpr>(a) || isa<AffineConstantExpr>(b))
      return a * b;
  }
  return AffineExpr();
}

const Expr *ModelBuilder::evalAtIdentity(Value v) {
  auto ty = cast<RankedTensorType>(v.getType());
  SmallVector<AffineExpr> idx;
  for (int64_t d = 0; d < ty.getRank(); ++d) {
    idx.push_back(getAffineDimExpr(d, ec.getContext()));
    if (!ty.isDynamicDim(d))
      extents[d] = ty.getDimSize(d);
  }
  return eval(v, idx);
}

const Expr *ModelBuilder::eval(Value v, ArrayRef<AffineExpr> index) {
  SmallVector<AffineExpr, 4> idx;
  for (AffineExpr e : index)
    idx.push_back(simplify(e));
  // Memo on (value, index): one bucket per value.
  llvm::hash_code h = llvm::hash_value(v.getAsOpaquePointer());
  for (AffineExpr e : idx)
    h = llvm::hash_combine(h, e.getAsOpaquePointer());
  auto key = std::make_pair(v, static_cast<unsigned>(h));
  auto it = memo.find(key);
  if (it != memo.end() && memoKeys[key] == idx)
    return it->second;
  const Expr *r = evalOp(v, idx);
  memo[key] = r;
  memoKeys[key] = idx;
  return r;
}

/// The scalar value of a splat constant (float, int or bool).
static std::optional<double> splatValue(Value v) {
  Attribute a;
  if (!matchPattern(v, m_Constant(&a)))
    return std::nullopt;
  if (auto d = dyn_cast<DenseElementsAttr>(a)) {
    if (!d.isSplat())
      return std::nullopt;
    a = d.getSplatValue<Attribute>();
  }
  if (auto f = dyn_cast<FloatAttr>(a))
    return f.getValueAsDouble();
  if (auto i = dyn_cast<IntegerAttr>(a))
    return i.getType().isInteger(1) ? (i.getValue().isZero() ? 0.0 : 1.0)
                                    : static_cast<double>(i.getInt());
  return std::nullopt;
}

const Expr *ModelBuilder::evalOp(Value v, ArrayRef<AffineExpr> idx) {
  MLIRContext *ctx = ec.getContext();
  auto leaf = [&]() { return ec.read(v, idx); };
  if (auto it = aliases.find(v); it != aliases.end())
    return eval(it->second, idx);
  if (stopAt.contains(v))
    return leaf();
  // A scratch function's argument stands for an original value.
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto it = scratchArgs.find(v);
    if (it != scratchArgs.end())
      return eval(it->second, idx);
    return leaf();
  }
  Operation *op = v.getDefiningOp();
  if (std::optional<double> c = splatValue(v)) {
    if (isNegInfLike(*c))
      return ec.negInf();
    return ec.constant(*c);
  }
  auto record = [&]() {
    visited.insert({v, SmallVector<AffineExpr, 4>(idx.begin(), idx.end())});
  };
  if (auto cast = dyn_cast<tensor::CastOp>(op)) {
    record();
    return eval(cast.getSource(), idx);
  }
  if (auto c = dyn_cast<tensor::CollapseShapeOp>(op)) {
    auto srcTy = c.getSrcType();
    SmallVector<AffineExpr> src(srcTy.getRank());
    for (auto [k, group] : llvm::enumerate(c.getReassociationIndices())) {
      AffineExpr x = idx[k];
      for (int64_t g = group.size() - 1; g >= 0; --g) {
        int64_t d = group[g];
        if (g == 0) {
          src[d] = x;
          break;
        }
        int64_t n = srcTy.getDimSize(d);
        if (ShapedType::isDynamic(n))
          return leaf();
        src[d] = n == 1 ? getAffineConstantExpr(0, ctx) : x % n;
        x = n == 1 ? x : x.floorDiv(n);
      }
    }
    for (AffineExpr &e : src)
      e = simplify(e);
    return throughView(v, c.getSrc(), idx, src);
  }
  if (auto e = dyn_cast<tensor::ExpandShapeOp>(op)) {
    auto resTy = e.getResultType();
    SmallVector<AffineExpr> src;
    for (ReassociationIndices group : e.getReassociationIndices()) {
      AffineExpr x = getAffineConstantExpr(0, ctx);
      for (int64_t d : group) {
        int64_t n = resTy.getDimSize(d);
        if (n == 1)
          continue;
        if (ShapedType::isDynamic(n) && d != group.front() &&
            !llvm::all_of(group, [&](int64_t o) {
              return o == d || resTy.getDimSize(o) == 1;
            }))
          return leaf();
        // x * n + idx[d]; a dynamic n only multiplies a zero x.
        x = ShapedType::isDynamic(n) ? idx[d] : x * n + idx[d];
      }
      src.push_back(simplify(x));
    }
    return throughView(v, e.getSrc(), idx, src);
  }
  if (auto cat = dyn_cast<tensor::ConcatOp>(op)) {
    // Copies of one tensor (GQA's repeat_kv written with cat): equal pieces
    // of size s read at x are the first piece read at x mod s.
    int64_t dim = cat.getDim();
    auto first = cast<RankedTensorType>(cat.getInputs()[0].getType());
    int64_t s = first.getDimSize(dim);
    if (ShapedType::isDynamic(s))
      return leaf();
    unsigned u = ec.freshDim();
    extents[u] = s;
    SmallVector<AffineExpr> local(idx.begin(), idx.end());
    local[dim] = getAffineDimExpr(u, ctx);
    const Expr *piece = nullptr;
    for (Value in : cat.getInputs()) {
      if (cast<RankedTensorType>(in.getType()).getDimSize(dim) != s)
        return leaf();
      const Expr *m = eval(in, local);
      if (piece && m != piece)
        return leaf();
      piece = m;
    }
    SmallVector<AffineExpr> src(idx.begin(), idx.end());
    src[dim] = simplify(idx[dim] % s);
    return throughView(v, cat.getInputs()[0], idx, src);
  }
  if (auto sm = dyn_cast<linalg::SoftmaxOp>(op)) {
    // Upstream's decomposition (max, sub+exp, sum, div generics), made on
    // a scratch copy so that the program is untouched.
    auto it = decomposed.find(op);
    if (it == decomposed.end()) {
      if (!scratch)
        scratch = ModuleOp::create(UnknownLoc::get(ctx));
      OpBuilder b(ctx);
      b.setInsertionPointToEnd(scratch->getBody());
      Operation *clone = b.clone(*op);
      IRRewriter rewriter(ctx);
      rewriter.setInsertionPoint(clone);
      FailureOr<SmallVector<Value>> res =
          cast<linalg::AggregatedOpInterface>(clone).decomposeOperation(
              rewriter);
      if (failed(res))
        return leaf();
      it = decomposed.insert({op, *res}).first;
    }
    record();
    return eval(it->second[cast<OpResult>(v).getResultNumber()], idx);
  }
  if (isa<tosa::TosaDialect>(op->getDialect())) {
    Value lowered = lowerTosa(v);
    if (!lowered)
      return leaf();
    record();
    return eval(lowered, idx);
  }
  if (auto lop = dyn_cast<linalg::LinalgOp>(op)) {
    if (lop->getNumRegions() != 1 || !lop.hasPureTensorSemantics())
      return leaf();
    const Expr *r = evalLinalg(op, cast<OpResult>(v).getResultNumber(), idx);
    if (!r)
      return leaf();
    record();
    return r;
  }
  return leaf();
}

namespace {
/// Evaluates the payload of one linalg op at given loop values.
struct PayloadEval {
  PayloadEval(ModelBuilder &mb, ExprContext &ec, linalg::LinalgOp op,
              SmallVector<AffineExpr> loops)
      : mb(mb), ec(ec), op(op), loops(std::move(loops)) {}
  ModelBuilder &mb;
  ExprContext &ec;
  linalg::LinalgOp op;
  SmallVector<AffineExpr> loops;
  /// The accumulator's block argument when it may not be read.
  Value forbidden;
  bool failedRead = false;
  DenseMap<Value, const Expr *> local;

  SmallVector<AffineExpr> compose(AffineMap m) {
    SmallVector<AffineExpr> out;
    for (AffineExpr e : m.getResults())
      out.push_back(e.replaceDims(loops));
    return out;
  }

  /// An integer index value as an affine expression, or null.
  AffineExpr affineOf(Value v) {
    const Expr *e = eval(v);
    if (e && e->kind == Kind::Index)
      return e->index[0];
    if (e && e->kind == Kind::Const && std::floor(e->value) == e->value)
      return getAffineConstantExpr(static_cast<int64_t>(e->value),
                                   ec.getContext());
    return AffineExpr();
  }

  const Expr *eval(Value v) {
    auto it = local.find(v);
    if (it != local.end())
      return it->second;
    const Expr *r = compute(v);
    local[v] = r;
    return r;
  }

  const Expr *compute(Value v) {
    Block *body = &op->getRegion(0).front();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != body)
        return ec.read(v, {});
      if (v == forbidden) {
        failedRead = true;
        return ec.opaque("acc", {});
      }
      OpOperand *operand = op.getMatchingOpOperand(arg);
      return mb.eval(operand->get(),
                     compose(op.getMatchingIndexingMap(operand)));
    }
    Operation *d = v.getDefiningOp();
    if (!op->isAncestor(d)) {
      // A captured scalar: a constant, arithmetic on constants, a tensor
      // size (a symbol), or a leaf.
      if (std::optional<double> c = splatValue(v))
        return isNegInfLike(*c) ? ec.negInf() : ec.constant(*c);
      if (v.getType().isIndex() || v.getType().isSignlessInteger(64) ||
          v.getType().isSignlessInteger(32))
        if (AffineExpr a = mb.indexExprOf(v))
          return ec.index(a);
      if (!d || !isa<arith::ArithDialect, math::MathDialect>(d->getDialect()) ||
          d->getNumRegions() != 0)
        return ec.read(v, {});
    }
    if (std::optional<double> c = splatValue(v)) {
      if (v.getType().isIntOrIndex() && !v.getType().isInteger(1))
        return ec.index(
            getAffineConstantExpr(static_cast<int64_t>(*c), ec.getContext()));
      return isNegInfLike(*c) ? ec.negInf() : ec.constant(*c);
    }
    auto x = [&](unsigned k) { return eval(d->getOperand(k)); };
    if (isa<math::SqrtOp, math::RsqrtOp>(d) && x(0)->kind == Kind::Const &&
        x(0)->value > 0)
      return ec.constant(isa<math::SqrtOp>(d) ? std::sqrt(x(0)->value)
                                              : 1 / std::sqrt(x(0)->value));
    if (auto idx = dyn_cast<linalg::IndexOp>(d))
      return ec.index(loops[idx.getDim()]);
    if (isa<arith::ExtFOp, arith::TruncFOp>(d))
      return x(0);
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp>(d) &&
        !d->getResult(0).getType().isInteger(1))
      return x(0);
    if (isa<arith::SIToFPOp, arith::UIToFPOp>(d) &&
        d->getOperand(0).getType().isInteger(1))
      return ec.select(x(0), ec.constant(isa<arith::UIToFPOp>(d) ? 1 : -1),
                       ec.constant(0));
    if (isa<arith::SIToFPOp, arith::UIToFPOp>(d)) {
      if (AffineExpr a = affineOf(d->getOperand(0)))
        return ec.indexToFloat(a);
      return ec.opaque(d->getName().getStringRef(), {x(0)});
    }
    if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(d) &&
        !v.getType().isInteger(1)) {
      AffineExpr a = affineOf(d->getOperand(0)), b = affineOf(d->getOperand(1));
      if (a && b) {
        AffineExpr r = isa<arith::AddIOp>(d)   ? a + b
                       : isa<arith::SubIOp>(d) ? a - b
                                               : AffineExpr();
        if (isa<arith::MulIOp>(d) &&
            (isa<AffineConstantExpr>(a) || isa<AffineConstantExpr>(b)))
          r = a * b;
        if (r)
          return ec.index(simplifyAffineExpr(r, kFirstFresh + 4096, kMaxSymbols));
      }
      return ec.opaque(d->getName().getStringRef(), {x(0), x(1)});
    }
    if (auto c = dyn_cast<arith::CmpIOp>(d)) {
      AffineExpr a = affineOf(c.getLhs()), b = affineOf(c.getRhs());
      if (a && b)
        return ec.cmpi(static_cast<int64_t>(c.getPredicate()), a, b);
      return ec.opaque("arith.cmpi", {x(0), x(1)});
    }
    if (auto c = dyn_cast<arith::CmpFOp>(d))
      return ec.cmpf(static_cast<int64_t>(c.getPredicate()), x(0), x(1));
    if (isa<arith::AndIOp>(d) && v.getType().isInteger(1))
      return ec.land(x(0), x(1));
    if (isa<arith::OrIOp>(d) && v.getType().isInteger(1))
      return ec.lnot(ec.land(ec.lnot(x(0)), ec.lnot(x(1))));
    if (isa<arith::XOrIOp>(d) && v.getType().isInteger(1)) {
      const Expr *a = x(0), *b = x(1);
      if (b->isConst(1))
        return ec.lnot(a);
      if (a->isConst(1))
        return ec.lnot(b);
      return ec.opaque("arith.xori", {a, b});
    }
    if (isa<arith::SelectOp>(d))
      return ec.select(x(0), x(1), x(2));
    if (isa<arith::AddFOp>(d))
      return ec.add(x(0), x(1));
    if (isa<arith::SubFOp>(d))
      return ec.sub(x(0), x(1));
    if (isa<arith::MulFOp>(d))
      return ec.mul(x(0), x(1));
    if (isa<arith::DivFOp>(d))
      return ec.div(x(0), x(1));
    if (isa<arith::NegFOp>(d))
      return ec.scale(x(0), -1);
    if (isa<arith::MaximumFOp, arith::MaxNumFOp>(d))
      return ec.max(x(0), x(1));
    if (isa<math::ExpOp>(d))
      return ec.exp(x(0));
    if (isa<math::Exp2Op>(d))
      return ec.exp(ec.scale(x(0), M_LN2));
    if (isa<math::LogOp>(d))
      return ec.log(x(0));
    if (isa<math::SqrtOp>(d) && x(0)->kind == Kind::Const &&
        x(0)->value >= 0)
      return ec.constant(std::sqrt(x(0)->value));
    if (isa<math::RsqrtOp>(d) && x(0)->kind == Kind::Const &&
        x(0)->value > 0)
      return ec.constant(1 / std::sqrt(x(0)->value));
    SmallVector<const Expr *> ops;
    for (Value o : d->getOperands())
      ops.push_back(eval(o));
    return ec.opaque(d->getName().getStringRef(), ops);
  }
};
} // namespace

/// For `y` yielded as the accumulation of a reduction: the combining kind
/// and the combined value (the operand that is not `acc`).
static std::optional<std::pair<ReduceKind, Value>> combiner(Value y,
                                                            Value acc) {
  Operation *d = y.getDefiningOp();
  if (!d)
    return std::nullopt;
  auto other = [&](Value a, Value b) -> Value {
    if (a == acc && b != acc)
      return b;
    if (b == acc && a != acc)
      return a;
    return Value();
  };
  if (isa<arith::AddFOp>(d))
    if (Value o = other(d->getOperand(0), d->getOperand(1)))
      return std::make_pair(ReduceKind::Sum, o);
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(d))
    if (Value o = other(d->getOperand(0), d->getOperand(1)))
      return std::make_pair(ReduceKind::Max, o);
  // select(x > acc, x, acc) (torch-mlir's max with index).
  if (auto sel = dyn_cast<arith::SelectOp>(d)) {
    auto cmp = sel.getCondition().getDefiningOp<arith::CmpFOp>();
    using P = arith::CmpFPredicate;
    if (cmp && sel.getFalseValue() == acc && cmp.getRhs() == acc &&
        cmp.getLhs() == sel.getTrueValue() &&
        llvm::is_contained({P::OGT, P::OGE, P::UGT, P::UGE},
                           cmp.getPredicate()))
      return std::make_pair(ReduceKind::Max, sel.getTrueValue());
  }
  return std::nullopt;
}

const Expr *ModelBuilder::evalLinalg(Operation *o, unsigned result,
                                     ArrayRef<AffineExpr> index) {
  auto op = cast<linalg::LinalgOp>(o);
  unsigned n = op.getNumLoops();
  SmallVector<AffineExpr> loops(n);
  AffineMap out = op.getIndexingMapMatchingResult(op->getResult(result));
  for (auto [k, e] : llvm::enumerate(out.getResults())) {
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      if (loops[d.getPosition()] && loops[d.getPosition()] != index[k])
        return nullptr;
      loops[d.getPosition()] = index[k];
    } else if (!isa<AffineConstantExpr>(e)) {
      return nullptr;
    }
  }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  SmallVector<unsigned> fresh;
  for (unsigned l = 0; l < n; ++l) {
    if (loops[l])
      continue;
    if (iters[l] != utils::IteratorType::reduction)
      return nullptr;
    unsigned f = ec.freshDim();
    if (!ShapedType::isDynamic(ranges[l]))
      extents[f] = ranges[l];
    loops[l] = getAffineDimExpr(f, ec.getContext());
    fresh.push_back(f);
  }
  Block &body = op->getRegion(0).front();
  Value y = body.getTerminator()->getOperand(result);
  PayloadEval pe(*this, ec, op, loops);
  OpOperand *init = op.getDpsInitOperand(result);
  if (fresh.empty())
    return pe.eval(y);
  Value acc = op.getMatchingBlockArgument(init);
  auto comb = combiner(y, acc);
  if (!comb)
    return nullptr;
  pe.forbidden = acc;
  const Expr *x = pe.eval(comb->second);
  if (pe.failedRead)
    return nullptr;
  for (unsigned f : llvm::reverse(fresh))
    x = ec.reduce(comb->first, f, x);
  const Expr *start = eval(init->get(), index);
  if (comb->first == ReduceKind::Sum)
    return isZero(start) ? x : ec.add(start, x);
  return ec.max(start, x);
}

/// The TOSA ops of `root`'s backward slice, cloned into a scratch function
/// (their other operands become its arguments) and lowered there by
/// upstream's tosa-to-linalg(-named), tosa-to-tensor and tosa-to-arith.
Value ModelBuilder::lowerTosa(Value root) {
  auto it = tosaMap.find(root);
  if (it != tosaMap.end())
    return it->second;
  MLIRContext *ctx = ec.getContext();
  // The slice, in program order.
  SetVector<Operation *> slice;
  SmallVector<Operation *> work{root.getDefiningOp()};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!op || !isa<tosa::TosaDialect>(op->getDialect()) ||
        !slice.insert(op))
      continue;
    for (Value o : op->getOperands())
      work.push_back(o.getDefiningOp());
  }
  SmallVector<Operation *> ops(slice.begin(), slice.end());
  Block *block = root.getDefiningOp()->getBlock();
  if (llvm::any_of(ops, [&](Operation *o) { return o->getBlock() != block; }))
    return Value();
  llvm::sort(ops, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  SmallVector<Value> outside;
  for (Operation *op : ops)
    for (Value o : op->getOperands())
      if (!slice.contains(o.getDefiningOp()) && !llvm::is_contained(outside, o))
        outside.push_back(o);
  SmallVector<Value> results;
  for (Operation *op : ops)
    for (Value r : op->getResults())
      results.push_back(r);
  if (!scratch)
    scratch = ModuleOp::create(UnknownLoc::get(ctx));
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(scratch->getBody());
  SmallVector<Type> argTypes, resTypes;
  for (Value o : outside)
    argTypes.push_back(o.getType());
  for (Value r : results)
    resTypes.push_back(r.getType());
  auto fn = func::FuncOp::create(b, root.getLoc(), "tosa_slice",
                                 b.getFunctionType(argTypes, resTypes));
  Block *entry = fn.addEntryBlock();
  IRMapping map;
  for (auto [o, a] : llvm::zip(outside, entry->getArguments())) {
    map.map(o, a);
    scratchArgs[a] = o;
  }
  b.setInsertionPointToEnd(entry);
  for (Operation *op : ops)
    b.clone(*op, map);
  SmallVector<Value> mapped;
  for (Value r : results)
    mapped.push_back(map.lookup(r));
  func::ReturnOp::create(b, root.getLoc(), mapped);
  PassManager pm(ctx);
  pm.enableVerifier(false);
  OpPassManager &fpm = pm.nest<func::FuncOp>();
  fpm.addPass(tosa::createTosaToLinalgNamed());
  fpm.addPass(tosa::createTosaToLinalg());
  fpm.addPass(createTosaToTensorPass());
  fpm.addPass(createTosaToArithPass());
  {
    ScopedDiagnosticHandler silence(ctx, [](Diagnostic &) { return success(); });
    if (failed(pm.run(*scratch)))
      return Value();
  }
  auto ret = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
  for (auto [r, l] : llvm::zip(results, ret.getOperands())) {
    tosaMap[r] = l;
  }
  return tosaMap.lookup(root);
}
