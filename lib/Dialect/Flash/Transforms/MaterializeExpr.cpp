//===- MaterializeExpr.cpp - A model expression as a linalg.generic -------===//
//
// The way back from the model to IR: an expression over a few model dims
// (an additive mask such as (1 - m) * finfo.min, a keep predicate such as
// !padding[b, j]) becomes one elementwise linalg.generic whose loops are
// those dims, whose inputs are the tensors the expression reads through
// their index expressions, and whose payload computes it in f32 (or i1).
//
//===----------------------------------------------------------------------===//

#include "RaiseAttention.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

#include <cfloat>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::model;
using namespace mlir::flash::raise;

namespace {
struct Emitter {
  Emitter(OpBuilder &b, Location loc) : b(b), loc(loc) {}
  OpBuilder &b;
  Location loc;
  /// Model dim -> loop position.
  DenseMap<unsigned, unsigned> loopOf;
  /// Read -> block argument.
  DenseMap<const Expr *, Value> args;
  DenseMap<const Expr *, Value> memo;
  bool failed = false;

  Value f32(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }

  Value index(AffineExpr e) {
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return arith::ConstantIndexOp::create(b, loc, c.getValue());
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      auto it = loopOf.find(d.getPosition());
      if (it == loopOf.end()) {
        failed = true;
        return arith::ConstantIndexOp::create(b, loc, 0);
      }
      return linalg::IndexOp::create(b, loc, it->second);
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin) {
      failed = true; // a symbol: not available in the payload
      return arith::ConstantIndexOp::create(b, loc, 0);
    }
    Value l = index(bin.getLHS()), r = index(bin.getRHS());
    switch (e.getKind()) {
    case AffineExprKind::Add:
      return arith::AddIOp::create(b, loc, l, r);
    case AffineExprKind::Mul:
      return arith::MulIOp::create(b, loc, l, r);
    case AffineExprKind::FloorDiv:
      return arith::FloorDivSIOp::create(b, loc, l, r);
    case AffineExprKind::Mod:
      return arith::RemSIOp::create(b, loc, l, r);
    default:
      failed = true;
      return l;
    }
  }

  Value emit(const Expr *e, bool inSelect = false) {
    auto it = memo.find(e);
    if (it != memo.end())
      return it->second;
    Value v = compute(e, inSelect);
    memo[e] = v;
    return v;
  }

  Value compute(const Expr *e, bool inSelect) {
    auto x = [&](unsigned k) { return emit(e->ops[k]); };
    switch (e->kind) {
    case Kind::Const:
      return f32(e->value);
    case Kind::NegInf:
      // -inf where it selects masked elements; the lowest finite float
      // where it is multiplied (0 * -inf would be NaN).
      return f32(inSelect ? -INFINITY : -FLT_MAX);
    case Kind::Read: {
      Value a = args.lookup(e);
      if (isa<FloatType>(a.getType()) && !a.getType().isF32())
        a = arith::ExtFOp::create(b, loc, b.getF32Type(), a);
      return a;
    }
    case Kind::IndexF: {
      Value i = index(e->index[0]);
      Value n = arith::IndexCastOp::create(b, loc, b.getI64Type(), i);
      return arith::SIToFPOp::create(b, loc, b.getF32Type(), n);
    }
    case Kind::CmpI: {
      using P = arith::CmpIPredicate;
      Value i = index(e->index[0]);
      Value z = arith::ConstantIndexOp::create(b, loc, 0);
      return arith::CmpIOp::create(b, loc, static_cast<P>(e->aux), i, z);
    }
    case Kind::Add: {
      Value acc = f32(e->value);
      for (auto [o, c] : llvm::zip(e->ops, e->coefs)) {
        Value t = emit(o);
        if (c != 1)
          t = arith::MulFOp::create(b, loc, t, f32(c));
        acc = arith::AddFOp::create(b, loc, acc, t);
      }
      return acc;
    }
    case Kind::Mul: {
      Value acc = f32(e->value);
      for (const Expr *o : e->ops)
        acc = arith::MulFOp::create(b, loc, acc, emit(o));
      return acc;
    }
    case Kind::Recip:
      return arith::DivFOp::create(b, loc, f32(1), x(0));
    case Kind::Max: {
      Value acc = x(0);
      for (unsigned k = 1; k < e->ops.size(); ++k)
        acc = arith::MaximumFOp::create(b, loc, acc, x(k));
      return acc;
    }
    case Kind::Exp:
      return math::ExpOp::create(b, loc, x(0));
    case Kind::Log:
      return math::LogOp::create(b, loc, x(0));
    case Kind::Select:
      return arith::SelectOp::create(b, loc, x(0), emit(e->ops[1], true),
                                     emit(e->ops[2], true));
    case Kind::CmpF:
      return arith::CmpFOp::create(
          b, loc, static_cast<arith::CmpFPredicate>(e->aux), x(0), x(1));
    case Kind::And: {
      Value acc = x(0);
      for (unsigned k = 1; k < e->ops.size(); ++k)
        acc = arith::AndIOp::create(b, loc, acc, x(k));
      return acc;
    }
    case Kind::Not: {
      Value t = arith::ConstantIntOp::create(b, loc, 1, 1);
      return arith::XOrIOp::create(b, loc, x(0), t);
    }
    default:
      failed = true;
      return f32(0);
    }
  }
};

void collectReads(const Expr *e, SmallVectorImpl<const Expr *> &out) {
  if (e->kind == Kind::Read) {
    if (!llvm::is_contained(out, e))
      out.push_back(e);
    return;
  }
  for (const Expr *o : e->ops)
    collectReads(o, out);
}
} // namespace

Value raise::materializeExpr(RewriterBase &rw, Location loc, const Expr *e,
                             ArrayRef<unsigned> dims,
                             ArrayRef<OpFoldResult> sizes, Type elt,
                             SmallVectorImpl<Operation *> &made) {
  MLIRContext *ctx = rw.getContext();
  unsigned n = dims.size();
  SmallVector<const Expr *> reads;
  collectReads(e, reads);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  SmallVector<AffineExpr> repl;
  for (unsigned d = 0; d < kFirstFresh + 64; ++d)
    repl.push_back(getAffineConstantExpr(0, ctx));
  for (auto [t, d] : llvm::enumerate(dims))
    repl[d] = getAffineDimExpr(t, ctx);
  for (const Expr *r : reads) {
    SmallVector<AffineExpr> idx;
    for (AffineExpr x : r->index) {
      llvm::SmallDenseSet<unsigned, 8> used;
      x.walk([&](AffineExpr s) {
        if (auto dd = dyn_cast<AffineDimExpr>(s))
          used.insert(dd.getPosition());
      });
      for (unsigned u : used)
        if (!llvm::is_contained(dims, u))
          return Value();
      idx.push_back(x.replaceDims(repl));
    }
    inputs.push_back(r->tensor);
    maps.push_back(AffineMap::get(n, 0, idx, ctx));
  }
  Value init = tensor::EmptyOp::create(rw, loc, sizes, elt);
  made.push_back(init.getDefiningOp());
  maps.push_back(AffineMap::getMultiDimIdentityMap(n, ctx));
  SmallVector<utils::IteratorType> iters(n, utils::IteratorType::parallel);
  bool failed = false;
  auto g = linalg::GenericOp::create(
      rw, loc, init.getType(), inputs, ValueRange{init}, maps, iters,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Emitter em(b, l);
        for (auto [t, d] : llvm::enumerate(dims))
          em.loopOf[d] = t;
        for (auto [r, a] : llvm::zip(reads, args))
          em.args[r] = a;
        Value v = em.emit(e);
        if (v.getType() != elt) {
          if (isa<FloatType>(elt) && isa<FloatType>(v.getType()))
            v = arith::TruncFOp::create(b, l, elt, v);
          else
            em.failed = true;
        }
        failed = em.failed;
        linalg::YieldOp::create(b, l, v);
      });
  made.push_back(g);
  if (failed)
    return Value();
  return g->getResult(0);
}
