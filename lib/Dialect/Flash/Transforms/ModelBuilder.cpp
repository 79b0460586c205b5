//===- ModelBuilder.cpp - Reading IR into model expressions ---------------===//
//
// ModelBuilder: the element of a tensor value at an index, as an expression
// of ExprContext. Linalg ops through their indexing maps and payloads,
// reshapes and concats as index arithmetic, linalg.softmax through upstream's
// decomposition and TOSA through upstream's tosa-to-linalg (both on scratch
// copies); and the way back from an expression to the value it came from
// (asLeaf).
//
//===----------------------------------------------------------------------===//

#include "AttentionModel.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
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

/// Constants at or below the lowest finite f16 (-65504) stand for -inf in a
/// mask: finfo.min of every float type, -1e9. exp of any of them minus a
/// row's max is 0 in f32 unless the row has no other key.
static bool isNegInfLike(double v) { return v <= -65504.0; }
/// -inf for a constant that stands for it (the lowest finite float too,
/// which `ec` remembers having seen).
static const Expr *negInfOf(ExprContext &ec, double v) {
  if (!std::isinf(v) && !llvm::is_contained(ec.lowestFiniteFills, v))
    ec.lowestFiniteFills.push_back(v);
  return ec.negInf();
}
static const Expr *applyScalarOp(ExprContext &ec, Operation *d,
                                 ArrayRef<const Expr *> xs);
static bool isZero(const Expr *e) { return e->isConst(0); }

/// In exact mode: float arithmetic as an opaque node of its own name, so
/// that it is rebuilt op by op; null for anything else.
static const Expr *exactOp(ExprContext &ec, Operation *d,
                           ArrayRef<const Expr *> xs) {
  if (d->getNumResults() != 1 ||
      !isa<FloatType>(getElementTypeOrSelf(d->getResult(0).getType())) ||
      isa<arith::ExtFOp, arith::TruncFOp, arith::SelectOp, arith::ConstantOp,
          arith::SIToFPOp, arith::UIToFPOp>(d) ||
      !isa<arith::ArithDialect, math::MathDialect>(d->getDialect()))
    return nullptr;
  return ec.opaque(d->getName().getStringRef(), xs);
}

/// The width of an integer or index type (index: 64).
static unsigned bitsOf(Type t) {
  t = getElementTypeOrSelf(t);
  return t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
}

/// Whether extf / truncf `d` of `x` keeps its value where the model cares:
/// always but for a position converted to float (IndexF), which a narrower
/// float keeps only while it is exactly representable.
static bool exactNarrowing(Operation *d, const Expr *x,
                           const ExtentFn &extentOf) {
  if (!isa<arith::TruncFOp>(d) || x->kind != Kind::IndexF)
    return true;
  auto ft = cast<FloatType>(getElementTypeOrSelf(d->getResult(0).getType()));
  return exactInFloat(x->index[0], ft.getFPMantissaWidth(), extentOf);
}

/// `x` (an f32 value) rounded to the narrower float type `t` and back
/// ("round.bf16", "round.f16"): a position in bf16 rounds past 256.
static const Expr *roundFloat(ExprContext &ec, Type t, const Expr *x) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "round." << t;
  return ec.opaque(os.str(), {x});
}

/// `r`, the value of float op `d`, as the program computes it: where `d`
/// computes in a float narrower than f32 from positions alone (a mask's or
/// bias's arithmetic on positions converted to f16 / bf16), rounded to that
/// type ("round.f16") unless it is an integer the type holds exactly; the
/// model's arithmetic is exact, and a rounded position moves a window's
/// edge (0 <= i 0.1 - j 0.1 < 0.5 in f16: error 0.44 without). Values that
/// read tensors are the scores' and a bias's, which flash.attention
/// computes in f32 or wider (the op's precision, not the program's).
static const Expr *asComputed(ExprContext &ec, Operation *d, const Expr *r,
                              const ExtentFn &extentOf) {
  auto ft = dyn_cast<FloatType>(getElementTypeOrSelf(d->getResult(0).getType()));
  if (!ft || ft.getWidth() >= 32 || !r->reads.empty() ||
      r->kind == Kind::Const || r->freeDims.empty() ||
      isa<arith::SelectOp, arith::CmpFOp, arith::NegFOp, arith::MaximumFOp,
          arith::MaxNumFOp, arith::MinimumFOp, arith::MinNumFOp>(d))
    return r;
  // An integer combination of positions: exact while the type holds it.
  AffineExpr a;
  if (r->kind == Kind::IndexF) {
    a = r->index[0];
  } else if (r->kind == Kind::Add && r->value == std::floor(r->value)) {
    a = getAffineConstantExpr(static_cast<int64_t>(r->value), ec.getContext());
    for (auto [x, c] : llvm::zip_equal(r->ops, r->coefs)) {
      if (x->kind != Kind::IndexF || c != std::floor(c)) {
        a = AffineExpr();
        break;
      }
      a = a + x->index[0] * static_cast<int64_t>(c);
    }
  }
  if (a && exactInFloat(a, ft.getFPMantissaWidth(), extentOf))
    return r;
  return roundFloat(ec, ft, r);
}

/// Conversions whose result jumps at integer boundaries of their operand.
static bool isRounding(Operation *d) {
  return isa<arith::FPToSIOp, arith::FPToUIOp, math::FloorOp, math::CeilOp,
             math::RoundOp, math::RoundEvenOp, math::TruncOp>(d);
}

//===----------------------------------------------------------------------===//
// ModelBuilder
//===----------------------------------------------------------------------===//

ModelBuilder::ModelBuilder(ExprContext &ec) : ec(ec) {}

ExtentFn ModelBuilder::extentOf() const {
  return [this](unsigned dim) -> std::optional<int64_t> {
    auto it = extents.find(dim);
    if (it == extents.end() || ShapedType::isDynamic(it->second))
      return std::nullopt;
    return it->second;
  };
}
ModelBuilder::~ModelBuilder() { releaseScratch(); }

void ModelBuilder::releaseScratch() {
  memo.clear();
  memoKeys.clear();
  decomposed.clear();
  tosaMap.clear();
  scratchArgs.clear();
  scratch = nullptr;
}

bool mlir::flash::model::isConstantLeafOp(Operation *op) {
  return op && op->hasTrait<OpTrait::ConstantLike>() &&
         op->getNumOperands() == 0 && op->getNumRegions() == 0;
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
  // A dim of extent 1 is 0: a unit batch read as d0 in one place and as 0
  // (a keepdim or broadcast map) in another is one element.
  SmallVector<std::pair<AffineExpr, AffineExpr>> unit;
  e.walk([&](AffineExpr s) {
    if (auto d = dyn_cast<AffineDimExpr>(s)) {
      auto it = extents.find(d.getPosition());
      if (it != extents.end() && it->second == 1)
        unit.push_back({s, getAffineConstantExpr(0, s.getContext())});
    }
  });
  for (auto [from, to] : unit)
    e = e.replace(from, to);
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

/// Whether an index is a relative position: an affine sum without
/// quotients or remainders in which some dim has a negative coefficient (a
/// relative-position table read at j - i + c), or a position plus a
/// constant. Those are the program's own index arithmetic, not what
/// folding a reshape puts there (h * 64 + d, a dim's quotient and
/// remainder).
static bool isRelativePosition(AffineExpr e) {
  bool divMod = false, negative = false;
  e.walk([&](AffineExpr s) {
    if (s.getKind() == AffineExprKind::Mod ||
        s.getKind() == AffineExprKind::FloorDiv ||
        s.getKind() == AffineExprKind::CeilDiv)
      divMod = true;
    if (s.getKind() == AffineExprKind::Mul) {
      auto b = cast<AffineBinaryOpExpr>(s);
      auto c = dyn_cast<AffineConstantExpr>(b.getRHS());
      if (isa<AffineDimExpr>(b.getLHS()) && c && c.getValue() < 0)
        negative = true;
    }
  });
  if (negative && !divMod)
    return true;
  // A position shifted by a constant (queries read at i + c of a key-length
  // table: the queries are the last of the keys) is the program's too: a
  // reshape's folding puts products and quotients there, not offsets.
  if (auto sum = dyn_cast<AffineBinaryOpExpr>(e);
      sum && sum.getKind() == AffineExprKind::Add)
    return (isa<AffineDimExpr>(sum.getLHS()) &&
            isa<AffineConstantExpr>(sum.getRHS())) ||
           (isa<AffineConstantExpr>(sum.getLHS()) &&
            isa<AffineDimExpr>(sum.getRHS()));
  return false;
}

bool ModelBuilder::readsComplex(const Expr *e) {
  auto it = complexCache.find(e);
  if (it != complexCache.end())
    return it->second;
  bool r = e->kind == Kind::Read && !isSimple(e->index) &&
           !llvm::all_of(e->index, [&](AffineExpr x) {
             return isSimple(x) || isRelativePosition(x);
           });
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
  if (isSimple(idx) && readsComplex(inner) &&
      !(foldLinearViews && view.getDefiningOp<tensor::ExpandShapeOp>())) {
    if (getenv("FLASH_RAISE_DEBUG"))
      llvm::errs() << "  view kept as a leaf: " << ec.str(inner).substr(0, 600)
                   << "\n";
    return ec.read(view, idx);
  }
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
    // A compound pattern of the same shape as t (2 k + g against 2 d49 +
    // d18: a view's combined dims): part by part.
    auto pb = dyn_cast<AffineBinaryOpExpr>(p);
    auto tb = dyn_cast<AffineBinaryOpExpr>(t);
    if (pb && tb && pb.getKind() == tb.getKind()) {
      auto saved = bound;
      if (index(pb.getLHS(), tb.getLHS()) && index(pb.getRHS(), tb.getRHS()))
        return true;
      bound = saved;
    }
    if (isa<AffineConstantExpr>(p))
      return p == t;
    // Otherwise every variable in it must be bound already.
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

const Expr *ModelBuilder::asLeaf(const Expr *x, bool ofViews) {
  if (x->kind == Kind::Read && !ofViews)
    return x;
  // (visited grows while values are evaluated at new indices: a copy.)
  auto values = visited.takeVector();
  for (auto &[v, idx] : values)
    visited.insert({v, idx});
  for (auto [v, recorded] : values) {
    if (isScratch(v) || !isa<RankedTensorType>(v.getType()))
      continue;
    // A value read at combined indices (a view's 2 k + g) is matched at
    // its own dims.
    SmallVector<AffineExpr, 4> idx(recorded);
    if (!llvm::all_of(idx, [](AffineExpr e) {
          return isa<AffineDimExpr, AffineConstantExpr>(e);
        }))
      for (AffineExpr &e : idx)
        e = getAffineDimExpr(ec.freshDim(), ec.getContext());
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
  // (The mode is part of the key: a last entry 1 in exact mode.)
  SmallVector<AffineExpr, 4> stored(idx);
  stored.push_back(getAffineConstantExpr(exact, ec.getContext()));
  llvm::hash_code h = llvm::hash_value(v.getAsOpaquePointer());
  for (AffineExpr e : stored)
    h = llvm::hash_combine(h, e.getAsOpaquePointer());
  auto key = std::make_pair(v, static_cast<unsigned>(h));
  auto it = memo.find(key);
  if (it != memo.end() && memoKeys[key] == stored)
    return it->second;
  const Expr *r = evalOp(v, idx);
  memo[key] = r;
  memoKeys[key] = stored;
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
      return negInfOf(ec, *c);
    return ec.constant(*c);
  }
  if (const Expr *band = constantBand(v, idx))
    return band;
  auto record = [&]() {
    visited.insert({v, SmallVector<AffineExpr, 4>(idx.begin(), idx.end())});
  };
  // Elementwise arith/math on tensors (arith.truncf %p : tensor<..>) and
  // scalar arithmetic outside payloads (math.sqrt of a constant).
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
      op->getNumResults() == 1 &&
      llvm::all_of(op->getOperands(), [&](Value o) {
        return o.getType() == v.getType() ||
               getElementTypeOrSelf(o.getType()) == o.getType() ||
               (isa<RankedTensorType>(o.getType()) &&
                cast<RankedTensorType>(o.getType()).getShape() ==
                    cast<ShapedType>(v.getType()).getShape());
      })) {
    bool tensorOp = isa<RankedTensorType>(v.getType());
    SmallVector<const Expr *> xs;
    for (Value o : op->getOperands())
      xs.push_back(eval(o, isa<RankedTensorType>(o.getType())
                               ? idx
                               : ArrayRef<AffineExpr>()));
    if (isa<arith::ExtFOp, arith::TruncFOp>(op)) {
      if (tensorOp)
        record();
      if (!exactNarrowing(op, xs[0], extentOf()))
        return roundFloat(ec, getElementTypeOrSelf(op->getResult(0).getType()),
                          xs[0]);
      return xs[0];
    }
    if (const Expr *r = exact ? exactOp(ec, op, xs) : nullptr) {
      if (tensorOp)
        record();
      return r;
    }
    if (const Expr *r = applyScalarOp(ec, op, xs)) {
      if (tensorOp)
        record();
      return asComputed(ec, op, r, extentOf());
    }
    return leaf();
  }
  if (auto cast = dyn_cast<tensor::CastOp>(op)) {
    record();
    return eval(cast.getSource(), idx);
  }
  // A slice of a tensor of constants and positions (GPT-2's causal mask:
  // rows Nk - Nq .. Nk of a constant lower triangle) reads its source at
  // offset + stride * index; a slice of anything that reads tensors (Q, K
  // and V cut out of a fused projection, a query slice) stays a leaf.
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    SmallVector<AffineExpr> src;
    unsigned k = 0;
    for (auto [d, off, stride] :
         llvm::enumerate(slice.getMixedOffsets(), slice.getMixedStrides())) {
      std::optional<int64_t> st = getConstantIntValue(stride);
      AffineExpr o;
      if (std::optional<int64_t> c = getConstantIntValue(off))
        o = getAffineConstantExpr(*c, ctx);
      else
        o = indexExprOf(cast<Value>(off));
      if (!st || !o)
        return leaf();
      src.push_back(dropped.test(d) ? o : simplify(o + idx[k++] * *st));
    }
    const Expr *inner = eval(slice.getSource(), src);
    if (!inner->reads.empty())
      return leaf();
    record();
    return inner;
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
  if (auto gen = dyn_cast<tensor::GenerateOp>(op)) {
    const Expr *r = evalGenerate(gen, idx);
    if (!r)
      return leaf();
    record();
    return r;
  }
  return leaf();
}

/// The expression of a float/bool arith or math op applied to `xs` (its
/// operands' expressions), or null for an op the model does not know.
static const Expr *applyScalarOp(ExprContext &ec, Operation *d,
                               ArrayRef<const Expr *> xs) {
  if (auto c = dyn_cast<arith::CmpFOp>(d))
    return ec.cmpf(static_cast<int64_t>(c.getPredicate()), xs[0], xs[1]);
  if (isa<arith::AndIOp>(d) && d->getResult(0).getType().isInteger(1))
    return ec.land(xs[0], xs[1]);
  if (isa<arith::OrIOp>(d) && d->getResult(0).getType().isInteger(1))
    return ec.lnot(ec.land(ec.lnot(xs[0]), ec.lnot(xs[1])));
  if (isa<arith::XOrIOp>(d) && d->getResult(0).getType().isInteger(1)) {
    const Expr *a = xs[0], *b = xs[1];
    if (b->isConst(1))
      return ec.lnot(a);
    if (a->isConst(1))
      return ec.lnot(b);
    return ec.opaque("arith.xori", {a, b});
  }
  if (isa<arith::SelectOp>(d) && d->getResult(0).getType().isInteger(1)) {
    // A select of predicates is their and / or (torch.triu of a bool ones
    // tensor: select(j - i >= 1, true, false)).
    const Expr *c = xs[0], *a = xs[1], *b = xs[2];
    auto lor = [&](const Expr *x, const Expr *y) {
      return ec.lnot(ec.land(ec.lnot(x), ec.lnot(y)));
    };
    if (a->isConst(1) && b->isConst(0))
      return c;
    if (a->isConst(0) && b->isConst(1))
      return ec.lnot(c);
    if (b->isConst(0))
      return ec.land(c, a);
    if (a->isConst(0))
      return ec.land(ec.lnot(c), b);
    if (a->isConst(1))
      return lor(c, b);
    if (b->isConst(1))
      return lor(ec.lnot(c), a);
    return ec.select(c, a, b);
  }
  if (isa<arith::SelectOp>(d))
    return ec.select(xs[0], xs[1], xs[2]);
  if (isa<arith::AddFOp>(d))
    return ec.add(xs[0], xs[1]);
  if (isa<arith::SubFOp>(d))
    return ec.sub(xs[0], xs[1]);
  if (isa<arith::MulFOp>(d))
    return ec.mul(xs[0], xs[1]);
  if (isa<arith::DivFOp>(d))
    return ec.div(xs[0], xs[1]);
  if (isa<arith::NegFOp>(d))
    return ec.scale(xs[0], -1);
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(d))
    return ec.max(xs[0], xs[1]);
  // x^n for a small constant n (1 - tanh^2 as powf(t, 2), fpowi(t, 2);
  // sech^2 as powf(cosh, -2)) as products; fma(a, b, c) as a b + c.
  if (isa<math::PowFOp, math::FPowIOp>(d)) {
    const Expr *n = xs[1];
    std::optional<int64_t> k;
    if (n->kind == Kind::Const && n->value == std::floor(n->value))
      k = static_cast<int64_t>(n->value);
    else if (n->kind == Kind::Index)
      if (auto c = dyn_cast<AffineConstantExpr>(n->index[0]))
        k = c.getValue();
    if (k && *k >= -4 && *k <= 4) {
      const Expr *r = ec.constant(1);
      for (int64_t i = 0; i < std::abs(*k); ++i)
        r = ec.mul(r, xs[0]);
      return *k < 0 ? ec.recip(r) : r;
    }
    // b^x for a constant base b > 0 (a softmax in base 10 or 2 written
    // with powf): exp(x ln b).
    if (isa<math::PowFOp>(d) && xs[0]->kind == Kind::Const && xs[0]->value > 0)
      return ec.exp(ec.scale(xs[1], std::log(xs[0]->value)));
    return nullptr;
  }
  if (isa<math::ExpM1Op>(d))
    return ec.add(ec.exp(xs[0]), ec.constant(-1));
  if (isa<math::FmaOp>(d))
    return ec.add(ec.mul(xs[0], xs[1]), xs[2]);
  if (isa<math::ExpOp>(d))
    return ec.exp(xs[0]);
  if (isa<math::Exp2Op>(d))
    return ec.exp(ec.scale(xs[0], M_LN2));
  if (isa<math::LogOp>(d))
    return ec.log(xs[0]);
  if (isa<math::SqrtOp>(d) && xs[0]->kind == Kind::Const &&
      xs[0]->value >= 0)
    return ec.constant(std::sqrt(xs[0]->value));
  if (isa<math::RsqrtOp>(d) && xs[0]->kind == Kind::Const &&
      xs[0]->value > 0)
    return ec.constant(1 / std::sqrt(xs[0]->value));
  return nullptr;
}

namespace {
/// Evaluates the payload of one linalg op at given loop values.
struct PayloadEval {
  /// `op`: a linalg op (its loops), or a tensor.generate (`loops`: its
  /// indices, which its body's arguments are).
  PayloadEval(ModelBuilder &mb, ExprContext &ec, Operation *op,
              SmallVector<AffineExpr> loops)
      : mb(mb), ec(ec), op(op), loops(std::move(loops)) {}
  ModelBuilder &mb;
  ExprContext &ec;
  Operation *op;
  SmallVector<AffineExpr> loops;
  /// The accumulator's block argument when it may not be read.
  Value forbidden;
  bool failedRead = false;
  DenseMap<Value, const Expr *> local, localExact;

  SmallVector<AffineExpr> compose(AffineMap m) {
    SmallVector<AffineExpr> out;
    for (AffineExpr e : m.getResults())
      out.push_back(e.replaceDims(loops));
    return out;
  }

  ExtentFn extents() const { return mb.extentOf(); }

  /// An integer op the model keeps by name, which the regions compute in
  /// i64 (Materialize.cpp): in a narrower type, its operands as that type's
  /// unsigned ops read them (zero-extended) and its result wrapped to it,
  /// so that i8 arithmetic wraps where it does in the program.
  const Expr *integerOp(Operation *d, std::string name,
                        SmallVector<const Expr *> xs) {
    unsigned w = bitsOf(d->getOperand(0).getType());
    bool readsUnsigned =
        isa<arith::DivUIOp, arith::RemUIOp, arith::ShRUIOp, arith::MaxUIOp,
            arith::MinUIOp, arith::CeilDivUIOp>(d);
    if (auto c = dyn_cast<arith::CmpIOp>(d))
      readsUnsigned = llvm::is_contained(
          {arith::CmpIPredicate::ult, arith::CmpIPredicate::ule,
           arith::CmpIPredicate::ugt, arith::CmpIPredicate::uge},
          c.getPredicate());
    if (w < 64 && readsUnsigned)
      for (const Expr *&x : xs)
        x = wrapInteger(ec, w, true, x);
    const Expr *r = ec.opaque(name, xs);
    Type t = d->getResult(0).getType();
    if (t.isIntOrIndex() && !t.isInteger(1) && bitsOf(t) < 64)
      r = wrapInteger(ec, bitsOf(t), false, r);
    return r;
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

  /// A signed comparison (<=, <, >, >=; either side) of |x|, max(a, b) or
  /// min(a, b) of affine positions with an affine bound, as the comparisons
  /// of the two operands it means (|x| = max(x, -x)): |i - j| <= w and
  /// max(i - j, j - i) <= w are a symmetric window's two affine bounds,
  /// which tiling can take as loop bounds.
  const Expr *absCompare(arith::CmpIOp c) {
    using P = arith::CmpIPredicate;
    // v as max (or min) of two affine operands.
    struct Extremum {
      AffineExpr a, b;
      bool isMax = true;
    };
    auto extremumOf = [&](Value v) -> std::optional<Extremum> {
      if (auto abs = v.getDefiningOp<math::AbsIOp>()) {
        if (AffineExpr x = affineOf(abs.getOperand()))
          return Extremum{x, -x, true};
        return std::nullopt;
      }
      Operation *d = v.getDefiningOp();
      if (!isa_and_nonnull<arith::MaxSIOp, arith::MinSIOp>(d))
        return std::nullopt;
      AffineExpr a = affineOf(d->getOperand(0)), b = affineOf(d->getOperand(1));
      if (!a || !b)
        return std::nullopt;
      return Extremum{a, b, isa<arith::MaxSIOp>(d)};
    };
    P p = c.getPredicate();
    std::optional<Extremum> x = extremumOf(c.getLhs());
    AffineExpr y = affineOf(c.getRhs());
    if (!x) {
      // y <pred> m: m <swapped pred> y.
      x = extremumOf(c.getRhs());
      y = affineOf(c.getLhs());
      p = p == P::sle   ? P::sge
          : p == P::slt ? P::sgt
          : p == P::sge ? P::sle
          : p == P::sgt ? P::slt
                        : p;
    }
    if (!x || !y)
      return nullptr;
    auto cmp = [&](P q, AffineExpr a, AffineExpr b) {
      return ec.cmpi(static_cast<int64_t>(q), a, b);
    };
    // max(a, b) <= y  <=>  a <= y and b <= y; min(a, b) > y  <=>  a > y
    // and b > y; the other predicates are their negations.
    auto both = [&](P q) { return ec.land(cmp(q, x->a, y), cmp(q, x->b, y)); };
    const bool below = p == P::sle || p == P::slt;
    if (!below && p != P::sgt && p != P::sge)
      return nullptr;
    const bool strict = p == P::slt || p == P::sgt;
    if (x->isMax)
      return below ? both(strict ? P::slt : P::sle)
                   : ec.lnot(both(strict ? P::sle : P::slt));
    return below ? ec.lnot(both(strict ? P::sge : P::sgt))
                 : both(strict ? P::sgt : P::sge);
  }

  /// A float comparison of positions (sitofp(i) - sitofp(j) <= 5.0) as the
  /// integer comparison it is: exact while every value the program computes
  /// stays below 2^24 in magnitude (f32 holds those integers exactly), which
  /// the dims' static extents must show.
  const Expr *positionCompare(arith::CmpFOp c) {
    using P = arith::CmpFPredicate;
    using I = arith::CmpIPredicate;
    if (!c.getLhs().getType().isF32())
      return nullptr;
    const Expr *e = ec.sub(eval(c.getLhs()), eval(c.getRhs()));
    SmallVector<std::pair<const Expr *, double>> terms;
    if (e->kind == Kind::Add) {
      for (auto [o, k] : llvm::zip(e->ops, e->coefs))
        terms.push_back({o, k});
    } else if (e->kind == Kind::IndexF) {
      terms.push_back({e, 1});
    } else if (e->kind == Kind::Mul && e->ops.size() == 1) {
      terms.push_back({e->ops[0], e->value});
    } else {
      return nullptr;
    }
    double c0 = e->kind == Kind::Add ? e->value : 0;
    AffineExpr sum = getAffineConstantExpr(0, ec.getContext());
    double bound = std::fabs(c0);
    for (auto [o, k] : terms) {
      if (o->kind != Kind::IndexF || k != std::floor(k) || std::fabs(k) > 1024)
        return nullptr;
      AffineExpr x = o->index[0];
      // The largest |x|: a sum of dims (below their extents) and constants.
      std::optional<int64_t> m = maxAbs(x);
      if (!m)
        return nullptr;
      bound += std::fabs(k) * static_cast<double>(*m);
      sum = sum + x * static_cast<int64_t>(k);
    }
    if (bound >= 16777216.0 || !std::isfinite(c0))
      return nullptr;
    // sum + c0 <pred> 0 with sum an integer.
    auto lit = [&](double v) {
      return getAffineConstantExpr(static_cast<int64_t>(v), ec.getContext());
    };
    auto cmp = [&](I q, double rhs) {
      return ec.cmpi(static_cast<int64_t>(q), sum, lit(rhs));
    };
    double t = -c0;
    switch (c.getPredicate()) {
    case P::OLE:
    case P::ULE:
      return cmp(I::sle, std::floor(t));
    case P::OLT:
    case P::ULT:
      return cmp(I::slt, std::ceil(t));
    case P::OGE:
    case P::UGE:
      return cmp(I::sge, std::ceil(t));
    case P::OGT:
    case P::UGT:
      return cmp(I::sgt, std::floor(t));
    case P::OEQ:
    case P::UEQ:
      return t == std::floor(t) ? cmp(I::eq, t) : ec.constant(0);
    case P::ONE:
    case P::UNE:
      return t == std::floor(t) ? cmp(I::ne, t) : ec.constant(1);
    default:
      return nullptr;
    }
  }

  /// The largest magnitude of an affine sum of dims (below their static
  /// extents) and constants; nullopt for anything else.
  std::optional<int64_t> maxAbs(AffineExpr x) {
    if (auto k = dyn_cast<AffineConstantExpr>(x))
      return std::abs(k.getValue());
    if (auto dd = dyn_cast<AffineDimExpr>(x)) {
      auto it = mb.extents.find(dd.getPosition());
      if (it == mb.extents.end() || ShapedType::isDynamic(it->second))
        return std::nullopt;
      return it->second;
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(x);
    if (!bin)
      return std::nullopt;
    std::optional<int64_t> l = maxAbs(bin.getLHS()), r = maxAbs(bin.getRHS());
    if (!l || !r)
      return std::nullopt;
    if (x.getKind() == AffineExprKind::Add)
      return *l + *r;
    if (x.getKind() == AffineExprKind::Mul)
      return *l * *r;
    return std::nullopt;
  }

  const Expr *eval(Value v) {
    auto &m = mb.exact ? localExact : local;
    auto it = m.find(v);
    if (it != m.end())
      return it->second;
    const Expr *r = compute(v);
    (mb.exact ? localExact : local)[v] = r;
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
      if (isa<tensor::GenerateOp>(op))
        return ec.index(loops[arg.getArgNumber()]);
      auto linalgOp = cast<linalg::LinalgOp>(op);
      OpOperand *operand = linalgOp.getMatchingOpOperand(arg);
      return mb.eval(operand->get(),
                     compose(linalgOp.getMatchingIndexingMap(operand)));
    }
    Operation *d = v.getDefiningOp();
    if (!op->isAncestor(d)) {
      // A captured scalar: a constant, arithmetic on constants, a tensor
      // size (a symbol), or a leaf.
      if (std::optional<double> c = splatValue(v))
        return isNegInfLike(*c) ? negInfOf(ec, *c) : ec.constant(*c);
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
      return isNegInfLike(*c) ? negInfOf(ec, *c) : ec.constant(*c);
    }
    auto x = [&](unsigned k) { return eval(d->getOperand(k)); };
    if (isa<math::SqrtOp, math::RsqrtOp>(d) && x(0)->kind == Kind::Const &&
        x(0)->value > 0)
      return ec.constant(isa<math::SqrtOp>(d) ? std::sqrt(x(0)->value)
                                              : 1 / std::sqrt(x(0)->value));
    if (auto idx = dyn_cast<linalg::IndexOp>(d))
      return ec.index(loops[idx.getDim()]);
    if (auto ap = dyn_cast<affine::AffineApplyOp>(d)) {
      // affine.apply of positions: its map composed with their expressions.
      AffineMap m = ap.getAffineMap();
      SmallVector<AffineExpr> args;
      for (Value o : ap.getMapOperands()) {
        AffineExpr a = affineOf(o);
        if (!a)
          return ec.opaque(d->getName().getStringRef(), {x(0)});
        args.push_back(a);
      }
      AffineExpr r = m.getResult(0).replaceDimsAndSymbols(
          ArrayRef<AffineExpr>(args).take_front(m.getNumDims()),
          ArrayRef<AffineExpr>(args).drop_front(m.getNumDims()));
      return ec.index(
          simplifyAffineExpr(r, kFirstFresh + 4096, kMaxSymbols));
    }
    if (isa<arith::ExtFOp, arith::TruncFOp>(d)) {
      // (Float precision is not the model's: the scores are f32 or wider
      // in flash.attention. Positions as floats are, below.)
      if (exactNarrowing(d, x(0), extents()))
        return x(0);
      return roundFloat(ec, getElementTypeOrSelf(v.getType()), x(0));
    }
    if (isa<arith::ExtSIOp, arith::ExtUIOp>(d) &&
        d->getOperand(0).getType().isInteger(1)) {
      // A predicate as an integer: 1 (or -1, sign-extended) and 0.
      int64_t one = isa<arith::ExtUIOp>(d) ? 1 : -1;
      return ec.select(x(0),
                       ec.index(getAffineConstantExpr(one, ec.getContext())),
                       ec.index(getAffineConstantExpr(0, ec.getContext())));
    }
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp>(d) &&
        !d->getResult(0).getType().isInteger(1)) {
      // The same value where a position fits the narrower type (and is
      // >= 0 where the cast reads it unsigned); another integer (a tensor
      // element) where the cast only widens it.
      unsigned from = bitsOf(d->getOperand(0).getType()),
               to = bitsOf(d->getResult(0).getType());
      bool readUnsigned = isa<arith::IndexCastUIOp, arith::ExtUIOp>(d);
      if (AffineExpr a = affineOf(d->getOperand(0))) {
        if (fitsInteger(a, std::min(from, to), readUnsigned, extents()))
          return x(0);
      } else if (to >= from) {
        return x(0);
      }
      // (The result's bits as the model reads integers, signed, but for a
      // zero extension.)
      return wrapInteger(ec, std::min(from, to), readUnsigned && to > from,
                         x(0));
    }
    if (isa<arith::SIToFPOp, arith::UIToFPOp>(d) &&
        d->getOperand(0).getType().isInteger(1))
      return ec.select(x(0), ec.constant(isa<arith::UIToFPOp>(d) ? 1 : -1),
                       ec.constant(0));
    if (isa<arith::SIToFPOp, arith::UIToFPOp>(d)) {
      if (AffineExpr a = affineOf(d->getOperand(0))) {
        auto ft = cast<FloatType>(getElementTypeOrSelf(v.getType()));
        unsigned from = bitsOf(d->getOperand(0).getType());
        bool nonNegative =
            isa<arith::SIToFPOp>(d) || fitsInteger(a, from, true, extents());
        if (nonNegative && exactInFloat(a, ft.getFPMantissaWidth(), extents()))
          return ec.indexToFloat(a);
        // As written: the conversion of the integer's (unsigned) bits, in
        // f32, rounded again to a narrower type.
        // (An i64 or index operand has the regions' own width: uitofp reads
        // its bits unsigned as they are.)
        const Expr *bits = from < 64 ? wrapInteger(ec, from, true, x(0)) : x(0);
        const Expr *f = nonNegative ? ec.opaque("arith.sitofp", {x(0)})
                                    : ec.opaque("arith.uitofp", {bits});
        return ft.getWidth() < 32 ? roundFloat(ec, ft, f) : f;
      }
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
          r = simplifyAffineExpr(r, kFirstFresh + 4096, kMaxSymbols);
        // (In a narrow type, wrapped where a position overflows it.)
        if (r && !fitsInteger(r, bitsOf(v.getType()), false, extents()))
          return wrapInteger(ec, bitsOf(v.getType()), false, ec.index(r));
        if (r)
          return ec.index(r);
      }
      return integerOp(d, d->getName().getStringRef().str(), {x(0), x(1)});
    }
    if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp,
            arith::RemUIOp, arith::RemSIOp>(d) &&
        !v.getType().isInteger(1)) {
      // Division and remainder of a non-negative position by a positive
      // constant: floordiv and mod (block-sparse layouts, strides).
      AffineExpr a = affineOf(d->getOperand(0)), b = affineOf(d->getOperand(1));
      auto c = dyn_cast_or_null<AffineConstantExpr>(b);
      if (a && c && c.getValue() > 0 && knownNonNegative(a)) {
        AffineExpr r = isa<arith::RemUIOp, arith::RemSIOp>(d) ? a % c
                                                              : a.floorDiv(c);
        return ec.index(
            simplifyAffineExpr(r, kFirstFresh + 4096, kMaxSymbols));
      }
    }
    if (auto ex = dyn_cast<tensor::ExtractOp>(d)) {
      // An element of a tensor from outside the payload at affine indices
      // (a gather by positions: seg[b, j], table[h, j - i + c]).
      Value t = ex.getTensor();
      auto arg = dyn_cast<BlockArgument>(t);
      bool outside = arg ? arg.getOwner() != body
                         : !op->isAncestor(t.getDefiningOp());
      // A constant tensor defined in the payload (ALiBi's slopes as a
      // dense literal next to their use) reads nothing of it: the raise
      // clones it where the op is built (adoptForeignLeaves).
      if (!outside && !arg)
        outside = isConstantLeafOp(t.getDefiningOp());
      SmallVector<AffineExpr> idx;
      for (Value i : ex.getIndices())
        if (AffineExpr a = affineOf(i))
          idx.push_back(a);
      if (outside && idx.size() == ex.getIndices().size())
        return mb.eval(t, idx);
      // At integer expressions that are not affine (a relative position
      // clamped with minsi/maxsi, T5's log buckets): a gather of the tensor
      // as it is, which a modifier can capture.
      if (outside && !mb.isScratch(t)) {
        SmallVector<const Expr *> xs;
        for (Value i : ex.getIndices())
          xs.push_back(eval(i));
        return ec.gather(t, xs);
      }
    }
    if (auto c = dyn_cast<arith::CmpIOp>(d))
      if (const Expr *r = absCompare(c))
        return r;
    if (auto c = dyn_cast<arith::CmpFOp>(d))
      if (const Expr *r = positionCompare(c))
        return r;
    if (auto c = dyn_cast<arith::CmpIOp>(d)) {
      AffineExpr a = affineOf(c.getLhs()), b = affineOf(c.getRhs());
      if (a && b) {
        // A comparison the loop bounds decide (j < Nk) is a constant.
        if (std::optional<bool> r = decideCmpI(
                static_cast<int64_t>(c.getPredicate()), a, b, extents()))
          return ec.constant(*r ? 1 : 0);
        return ec.cmpi(static_cast<int64_t>(c.getPredicate()), a, b);
      }
      // A predicate widened to an integer (select(p, 1, 0): extui of an
      // i1, a uint8 mask) compared with a constant is p, !p or a constant.
      auto constInt = [&](const Expr *e) -> std::optional<int64_t> {
        if (e->kind == Kind::Index)
          if (auto k = dyn_cast<AffineConstantExpr>(e->index[0]))
            return k.getValue();
        return std::nullopt;
      };
      const Expr *l = x(0), *r = x(1);
      bool swapped = false;
      if (l->kind != Kind::Select) {
        std::swap(l, r);
        swapped = true;
      }
      std::optional<int64_t> k = constInt(r);
      if (l->kind == Kind::Select && k) {
        std::optional<int64_t> a = constInt(l->ops[1]),
                               b = constInt(l->ops[2]);
        using P = arith::CmpIPredicate;
        P pred = c.getPredicate();
        bool unsignedPred = pred == P::ult || pred == P::ule ||
                            pred == P::ugt || pred == P::uge;
        if (a && b && (!unsignedPred || (*a >= 0 && *b >= 0 && *k >= 0))) {
          auto holds = [&](int64_t v) {
            APInt lhs(64, swapped ? *k : v, /*isSigned=*/true),
                rhs(64, swapped ? v : *k, /*isSigned=*/true);
            return arith::applyCmpPredicate(pred, lhs, rhs);
          };
          bool ta = holds(*a), tb = holds(*b);
          const Expr *p = l->ops[0];
          return ta == tb ? ec.constant(ta ? 1 : 0) : ta ? p : ec.lnot(p);
        }
      }
      // The predicate is part of the name: "arith.cmpi:eq".
      return integerOp(
          d,
          ("arith.cmpi:" + arith::stringifyCmpIPredicate(c.getPredicate()))
              .str(),
          {x(0), x(1)});
    }
    if (isRounding(d)) {
      // The operand as written (see ModelBuilder::exact).
      bool saved = mb.exact;
      mb.exact = true;
      const Expr *a = eval(d->getOperand(0));
      mb.exact = saved;
      return ec.opaque(d->getName().getStringRef(), {a});
    }
    SmallVector<const Expr *> xs;
    for (Value o : d->getOperands())
      xs.push_back(eval(o));
    if (const Expr *r = mb.exact ? exactOp(ec, d, xs) : nullptr)
      return r;
    if (const Expr *r = applyScalarOp(ec, d, xs))
      return asComputed(ec, d, r, extents());
    SmallVector<const Expr *> ops;
    for (Value o : d->getOperands())
      ops.push_back(eval(o));
    if (d->getNumOperands() && d->getOperand(0).getType().isIntOrIndex() &&
        !d->getOperand(0).getType().isInteger(1))
      return integerOp(d, d->getName().getStringRef().str(), ops);
    return ec.opaque(d->getName().getStringRef(), ops);
  }
};
} // namespace

/// For `y` yielded as the accumulation of a reduction: the combining kind
/// and the combined value (the operand that is not `acc`).
static std::optional<std::pair<ReduceKind, Value>> combiner(Value y,
                                                            Value acc) {
  // An accumulator in a narrower type: truncf(extf(acc) + x).
  auto throughCast = [](Value v) {
    while (Operation *c = v.getDefiningOp()) {
      if (!isa<arith::ExtFOp, arith::TruncFOp>(c))
        break;
      v = c->getOperand(0);
    }
    return v;
  };
  y = throughCast(y);
  Operation *d = y.getDefiningOp();
  if (!d)
    return std::nullopt;
  auto isAcc = [&](Value v) { return throughCast(v) == acc; };
  auto other = [&](Value a, Value b) -> Value {
    if (isAcc(a) && !isAcc(b))
      return b;
    if (isAcc(b) && !isAcc(a))
      return a;
    return Value();
  };
  if (isa<arith::AddFOp>(d))
    if (Value o = other(d->getOperand(0), d->getOperand(1)))
      return std::make_pair(ReduceKind::Sum, o);
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(d))
    if (Value o = other(d->getOperand(0), d->getOperand(1)))
      return std::make_pair(ReduceKind::Max, o);
  // select(a > b, a, b) or select(a < b, b, a) with acc one of a, b
  // (torch-mlir's max with index: select(x > acc, x, acc); select(acc >=
  // x, acc, x)).
  if (auto sel = dyn_cast<arith::SelectOp>(d)) {
    auto cmp = sel.getCondition().getDefiningOp<arith::CmpFOp>();
    using P = arith::CmpFPredicate;
    if (cmp) {
      Value a = cmp.getLhs(), b = cmp.getRhs();
      P p = cmp.getPredicate();
      bool greater = llvm::is_contained({P::OGT, P::OGE, P::UGT, P::UGE}, p);
      bool less = llvm::is_contained({P::OLT, P::OLE, P::ULT, P::ULE}, p);
      bool isMax =
          (greater && sel.getTrueValue() == a && sel.getFalseValue() == b) ||
          (less && sel.getTrueValue() == b && sel.getFalseValue() == a);
      if (isMax)
        if (Value o = other(a, b))
          return std::make_pair(ReduceKind::Max, o);
    }
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
  // all_j (x_j == -inf), an i1 reduction by andi from true (torch's
  // _safe_softmax: the rows whose every score is masked), is max_j x_j ==
  // -inf: a row max, which the proof knows.
  if (auto andOp = y.getDefiningOp<arith::AndIOp>()) {
    Value c = andOp.getLhs() == acc   ? andOp.getRhs()
              : andOp.getRhs() == acc ? andOp.getLhs()
                                      : Value();
    auto cmp = c ? c.getDefiningOp<arith::CmpFOp>() : nullptr;
    using P = arith::CmpFPredicate;
    std::optional<double> k;
    Value x;
    if (cmp && llvm::is_contained({P::OEQ, P::UEQ}, cmp.getPredicate())) {
      if ((k = splatValue(cmp.getRhs())))
        x = cmp.getLhs();
      else if ((k = splatValue(cmp.getLhs())))
        x = cmp.getRhs();
    }
    if (x && k && std::isinf(*k) && *k < 0 &&
        isZero(ec.sub(eval(init->get(), index), ec.constant(1)))) {
      pe.forbidden = acc;
      const Expr *e = pe.eval(x);
      if (pe.failedRead || !e)
        return nullptr;
      for (unsigned f : llvm::reverse(fresh))
        e = ec.reduce(ReduceKind::Max, f, e);
      return ec.cmpf(static_cast<int64_t>(P::OEQ), e, ec.negInf());
    }
  }
  // fma(a, b, acc): a sum of a * b (a contraction's body as math.fma).
  std::optional<std::pair<ReduceKind, Value>> comb;
  math::FmaOp fma;
  if ((fma = y.getDefiningOp<math::FmaOp>()) && fma.getC() == acc &&
      fma.getA() != acc && fma.getB() != acc)
    comb = std::make_pair(ReduceKind::Sum, Value());
  else
    comb = combiner(y, acc);
  if (!comb)
    return nullptr;
  pe.forbidden = acc;
  const Expr *x;
  if (fma) {
    const Expr *a = pe.eval(fma.getA()), *b = pe.eval(fma.getB());
    x = a && b ? ec.mul(a, b) : nullptr;
  } else {
    x = pe.eval(comb->second);
  }
  if (!x)
    return nullptr;
  if (pe.failedRead)
    return nullptr;
  for (unsigned f : llvm::reverse(fresh))
    x = ec.reduce(comb->first, f, x);
  const Expr *start = eval(init->get(), index);
  if (comb->first == ReduceKind::Sum)
    return isZero(start) ? x : ec.add(start, x);
  return ec.max(start, x);
}

const Expr *ModelBuilder::constantBand(Value v, ArrayRef<AffineExpr> index) {
  DenseElementsAttr d;
  if (!matchPattern(v, m_Constant(&d)) || d.isSplat())
    return nullptr;
  auto type = cast<ShapedType>(d.getType());
  int64_t rank = type.getRank();
  Type elt = type.getElementType();
  if (rank < 2 || !(elt.isInteger(1) || isa<FloatType>(elt)) ||
      static_cast<int64_t>(index.size()) != rank ||
      llvm::any_of(type.getShape().drop_back(2),
                   [](int64_t n) { return n != 1; }))
    return nullptr;
  auto it = bands.find(d);
  if (it == bands.end())
    it = bands.try_emplace(d, findBand(d)).first;
  if (!it->second)
    return nullptr;
  const Band &band = *it->second;
  using P = arith::CmpIPredicate;
  AffineExpr i = index[rank - 2], j = index[rank - 1];
  const Expr *in = ec.constant(1);
  if (band.upper)
    in = ec.land(in, ec.cmpi(static_cast<int64_t>(P::sle), j, i + *band.upper));
  if (band.lower)
    in = ec.land(in, ec.cmpi(static_cast<int64_t>(P::sge), j, i - *band.lower));
  if (elt.isInteger(1))
    return band.inside != 0 ? in : ec.lnot(in);
  auto valueOf = [&](double x) {
    return isNegInfLike(x) ? negInfOf(ec, x) : ec.constant(x);
  };
  return ec.select(in, valueOf(band.inside), valueOf(band.outside));
}

std::optional<ModelBuilder::Band> ModelBuilder::findBand(DenseElementsAttr d) {
  auto type = cast<ShapedType>(d.getType());
  int64_t rows = type.getDimSize(type.getRank() - 2),
          cols = type.getDimSize(type.getRank() - 1);
  if (rows * cols > (int64_t(1) << 24))
    return std::nullopt;
  // Two values at most (a weight matrix stops at its third element value).
  SmallVector<double> values;
  values.reserve(rows * cols);
  double first = 0, second = 0;
  auto add = [&](double x) {
    if (values.empty())
      first = second = x;
    else if (x != first && second == first)
      second = x;
    else if (x != first && x != second)
      return false;
    values.push_back(x);
    return true;
  };
  if (type.getElementType().isInteger(1)) {
    for (bool b : d.getValues<bool>())
      add(b ? 1.0 : 0.0);
  } else {
    for (APFloat f : d.getValues<APFloat>())
      if (!add(f.convertToDouble()))
        return std::nullopt;
  }
  // Some value x is a band: each row's x elements are the columns
  // [max(0, r - w), min(cols - 1, r + k)] (w or k absent: unbounded).
  for (bool insideIsFirst : {true, false}) {
    double x = insideIsFirst ? first : second;
    std::optional<int64_t> upper, lower;
    bool ok = true;
    for (int64_t r = 0; r < rows && ok; ++r) {
      const double *row = &values[r * cols];
      int64_t lo = 0, hi = cols - 1;
      while (lo < cols && row[lo] != x)
        ++lo;
      while (hi >= 0 && row[hi] != x)
        --hi;
      if (lo > hi)
        continue; // decided by the offsets found in other rows
      if (hi < cols - 1) {
        ok &= !upper || *upper == hi - r;
        upper = hi - r;
      }
      if (lo > 0) {
        ok &= !lower || *lower == r - lo;
        lower = r - lo;
      }
    }
    if (!ok || (!upper && !lower))
      continue;
    // Every element agrees with the band.
    for (int64_t r = 0; r < rows && ok; ++r)
      for (int64_t c = 0; c < cols && ok; ++c) {
        bool in = (!upper || c <= r + *upper) && (!lower || c >= r - *lower);
        ok = in == (values[r * cols + c] == x);
      }
    if (ok)
      return Band{x, insideIsFirst ? second : first, upper, lower};
  }
  return std::nullopt;
}

const Expr *ModelBuilder::evalGenerate(Operation *generate,
                                       ArrayRef<AffineExpr> index) {
  PayloadEval pe(*this, ec, generate, SmallVector<AffineExpr>(index));
  Value y = cast<tensor::GenerateOp>(generate)
                .getBody()
                .front()
                .getTerminator()
                ->getOperand(0);
  const Expr *x = pe.eval(y);
  return pe.failedRead ? nullptr : x;
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
