//===- Materialize.cpp - From the model back to IR ------------------------===//
//
// The way back from the model to IR. A leaf tensor laid out as the flash ops
// want it (itself, a linalg.transpose, a collapse/expand_shape of unit dims,
// or an elementwise copy for broadcasts); and an expression over a few model dims
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
#include "mlir/IR/Verifier.h"

#include <functional>

#include <cfloat>
#include <cmath>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::model;
using namespace mlir::flash::raise;

void raise::eraseDeadFrom(RewriterBase &rewriter,
                          ArrayRef<Operation *> roots) {
  SmallVector<Operation *> worklist(roots);
  DenseSet<Operation *> erased;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!op || erased.contains(op) || !isOpTriviallyDead(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.push_back(def);
    erased.insert(op);
    rewriter.eraseOp(op);
  }
}


bool raise::sameRole(DimRole a, DimRole b) {
  return a.kind == b.kind && (a.kind != DimRole::Batch || a.batch == b.batch);
}

/// `leaf` as `targets` when they hold the same dims in the same order and
/// differ only in unit dims: a collapse_shape of the leaf's unit dims and an
/// expand_shape to the targets' (views, no copy). Null otherwise.
static Value reshapeUnits(RewriterBase &rw, Location loc,
                          const LeafLayout &leaf, ArrayRef<Target> targets,
                          ArrayRef<int64_t> from,
                          SmallVectorImpl<Operation *> &made) {
  auto ty = cast<RankedTensorType>(leaf.tensor.getType());
  SmallVector<int64_t> order;
  for (auto [t, f] : llvm::enumerate(from)) {
    if (f < 0) {
      if (targets[t].size)
        return Value(); // a broadcast
      continue;
    }
    order.push_back(f);
  }
  if (!llvm::is_sorted(order))
    return Value();
  SmallVector<bool> keepLeaf;
  for (int64_t k = 0; k < ty.getRank(); ++k) {
    keepLeaf.push_back(llvm::is_contained(from, k));
    if (!keepLeaf.back() && ty.getDimSize(k) != 1)
      return Value();
  }
  // Collapse away the leaf's unit dims: each joins a kept neighbour.
  Value x = leaf.tensor;
  auto groupsFor = [](ArrayRef<bool> keep) {
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices pending;
    for (auto [k, kept] : llvm::enumerate(keep)) {
      pending.push_back(k);
      if (kept) {
        groups.push_back(pending);
        pending.clear();
      }
    }
    if (!pending.empty()) {
      if (groups.empty())
        groups.push_back({});
      groups.back().append(pending.begin(), pending.end());
    }
    return groups;
  };
  if (order.empty())
    return Value();
  if (llvm::is_contained(keepLeaf, false)) {
    auto c = tensor::CollapseShapeOp::create(rw, loc, x, groupsFor(keepLeaf));
    made.push_back(c);
    x = c;
  }
  SmallVector<bool> keepTarget;
  for (int64_t f : from)
    keepTarget.push_back(f >= 0);
  if (llvm::is_contained(keepTarget, false)) {
    auto xt = cast<RankedTensorType>(x.getType());
    SmallVector<int64_t> shape;
    SmallVector<OpFoldResult> sizes;
    unsigned k = 0;
    for (bool kept : keepTarget) {
      if (kept) {
        shape.push_back(xt.getDimSize(k));
        sizes.push_back(tensor::getMixedSize(rw, loc, x, k));
        ++k;
      } else {
        shape.push_back(1);
        sizes.push_back(rw.getIndexAttr(1));
      }
    }
    auto e = tensor::ExpandShapeOp::create(
        rw, loc, RankedTensorType::get(shape, xt.getElementType()), x,
        groupsFor(keepTarget), sizes);
    made.push_back(e);
    x = e;
  }
  return x;
}

/// `leaf` laid out as `targets` (a role per dim): the tensor itself, a
/// transpose, or an elementwise copy (for unit dims and broadcasts).
Value raise::materialize(RewriterBase &rw, Location loc,
                         const LeafLayout &leaf, ArrayRef<Target> targets,
                         SmallVectorImpl<Operation *> &made) {
  auto ty = cast<RankedTensorType>(leaf.tensor.getType());
  SmallVector<int64_t> from(targets.size(), -1); // leaf dim per target dim
  for (auto [t, target] : llvm::enumerate(targets))
    for (auto [k, role] : llvm::enumerate(leaf.dims))
      if (role.kind != DimRole::Unit && sameRole(role, target.role))
        from[t] = k;
  // A unit leaf dim stands for a target dim of extent 1 (a batch of one
  // that the model read at index 0).
  {
    SmallVector<int64_t> freeUnits;
    // Leaf dims of size 1 that no target takes (unit roles, or a batch of
    // one that the target reads at 0).
    for (int64_t k = 0; k < ty.getRank(); ++k)
      if (ty.getDimSize(k) == 1 && !llvm::is_contained(from, k))
        freeUnits.push_back(k);
    SmallVector<int64_t> open;
    for (auto [t, f] : llvm::enumerate(from))
      if (f < 0 && (!targets[t].size || getConstantIntValue(targets[t].size) ==
                                            std::optional<int64_t>(1)))
        open.push_back(t);
    if (!open.empty() && open.size() == freeUnits.size())
      for (auto [t, k] : llvm::zip(open, freeUnits))
        from[t] = k;
  }
  unsigned present = llvm::count_if(from, [](int64_t f) { return f >= 0; });
  bool complete = llvm::all_of(from, [](int64_t f) { return f >= 0; }) &&
                  present == targets.size() && ty.getRank() == (int64_t)present;
  if (complete) {
    bool identity = true;
    for (auto [t, f] : llvm::enumerate(from))
      identity &= f == static_cast<int64_t>(t);
    if (identity)
      return leaf.tensor;
    SmallVector<OpFoldResult> sizes;
    for (int64_t f : from)
      sizes.push_back(tensor::getMixedSize(rw, loc, leaf.tensor, f));
    Value init = tensor::EmptyOp::create(rw, loc, sizes, ty.getElementType());
    auto t = linalg::TransposeOp::create(rw, loc, leaf.tensor, init, from);
    made.push_back(init.getDefiningOp());
    made.push_back(t);
    return t->getResult(0);
  }
  // Only unit dims differ (same data order): collapse_shape / expand_shape.
  if (Value r = reshapeUnits(rw, loc, leaf, targets, from, made))
    return r;
  // A copy: out[targets] = leaf[map], unit dims read at 0.
  SmallVector<OpFoldResult> sizes;
  for (auto [t, f] : llvm::enumerate(from))
    sizes.push_back(f >= 0 ? tensor::getMixedSize(rw, loc, leaf.tensor, f)
                    : targets[t].size ? targets[t].size
                                      : OpFoldResult(rw.getIndexAttr(1)));
  MLIRContext *ctx = rw.getContext();
  SmallVector<AffineExpr> in;
  for (auto [k, role] : llvm::enumerate(leaf.dims)) {
    int64_t t = llvm::find(from, static_cast<int64_t>(k)) - from.begin();
    in.push_back(t < static_cast<int64_t>(from.size())
                     ? getAffineDimExpr(t, ctx)
                     : getAffineConstantExpr(0, ctx));
  }
  unsigned n = targets.size();
  Value init = tensor::EmptyOp::create(rw, loc, sizes, ty.getElementType());
  SmallVector<AffineMap> maps{AffineMap::get(n, 0, in, ctx),
                              AffineMap::getMultiDimIdentityMap(n, ctx)};
  SmallVector<utils::IteratorType> iters(n, utils::IteratorType::parallel);
  auto g = linalg::GenericOp::create(
      rw, loc, init.getType(), ValueRange{leaf.tensor}, ValueRange{init}, maps,
      iters, [](OpBuilder &b, Location l, ValueRange a) {
        linalg::YieldOp::create(b, l, a[0]);
      });
  made.push_back(init.getDefiningOp());
  made.push_back(g);
  return g->getResult(0);
}


namespace {
struct Emitter {
  Emitter(OpBuilder &b, Location loc) : b(b), loc(loc) {}
  OpBuilder &b;
  Location loc;
  /// Model dim -> its index value (null: not available).
  std::function<Value(unsigned)> dimValue;
  /// Affine symbol -> its index value (null: not available).
  std::function<Value(unsigned)> symbolValue = [](unsigned) { return Value(); };
  /// Read -> its element.
  std::function<Value(const Expr *)> readValue;
  /// A Gather's tensor -> the value to extract from (a captured operand's
  /// region argument, or the tensor itself where it dominates).
  std::function<Value(Value)> gatherTensor = [](Value t) { return t; };
  /// The score placeholder's value (a score_mod's argument).
  const Expr *score = nullptr;
  Value scoreValue;
  DenseMap<const Expr *, Value> memo;
  bool failed = false;

  Value f32(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }

  Value index(AffineExpr e) {
    if (auto c = dyn_cast<AffineConstantExpr>(e))
      return arith::ConstantIndexOp::create(b, loc, c.getValue());
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      Value v = dimValue(d.getPosition());
      if (!v) {
        failed = true;
        return arith::ConstantIndexOp::create(b, loc, 0);
      }
      return v;
    }
    if (auto s = dyn_cast<AffineSymbolExpr>(e)) {
      Value v = symbolValue(s.getPosition());
      if (!v) {
        failed = true;
        return arith::ConstantIndexOp::create(b, loc, 0);
      }
      return v;
    }
    auto bin = dyn_cast<AffineBinaryOpExpr>(e);
    if (!bin) {
      failed = true;
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
      Value a = readValue(e);
      if (!a) {
        failed = true;
        return f32(0);
      }
      if (isa<FloatType>(a.getType()) && !a.getType().isF32())
        a = arith::ExtFOp::create(b, loc, b.getF32Type(), a);
      return a;
    }
    case Kind::Index:
      return index(e->index[0]);
    case Kind::Opaque:
      return opaque(e);
    case Kind::Gather:
      return gather(e);
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
      // The constant first, then the terms by decreasing coefficient: the
      // normal form spells b + (1 - m) * -1e4 as b - 1e4 + 1e4 * m, whose
      // large parts must cancel before b is added (b + 1e4 would round b).
      Value acc = f32(e->value);
      SmallVector<std::pair<const Expr *, double>> terms;
      for (auto [o, c] : llvm::zip(e->ops, e->coefs))
        terms.push_back({o, c});
      llvm::stable_sort(terms, [](auto &x, auto &y) {
        return std::fabs(x.second) > std::fabs(y.second);
      });
      for (auto [o, c] : terms) {
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
    case Kind::Select: {
      Value t = emit(e->ops[1], true), f = emit(e->ops[2], true);
      // Integers (a position, an integer op's i64) meet in i64.
      if (t.getType() != f.getType()) {
        t = toI64(t);
        f = toI64(f);
        if (!t || !f) {
          failed = true;
          return f32(0);
        }
      }
      return arith::SelectOp::create(b, loc, x(0), t, f);
    }
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

  /// An integer (index or iN, N > 1) as i64; null for anything else.
  Value toI64(Value v) {
    Type i64 = b.getI64Type();
    if (v.getType().isInteger(1) || !v.getType().isIntOrIndex())
      return Value();
    if (v.getType().isIndex())
      return arith::IndexCastOp::create(b, loc, i64, v);
    if (v.getType().getIntOrFloatBitWidth() < 64)
      return arith::ExtSIOp::create(b, loc, i64, v);
    if (v.getType() != i64)
      return arith::TruncIOp::create(b, loc, i64, v);
    return v;
  }

  /// tensor[indices] at computed integer indices.
  Value gather(const Expr *e) {
    Value t = gatherTensor(e->tensor);
    if (!t) {
      failed = true;
      return f32(0);
    }
    SmallVector<Value> idx;
    for (const Expr *o : e->ops) {
      Value v = emit(o);
      if (!v.getType().isIndex()) {
        if (!(v = toI64(v))) {
          failed = true;
          return f32(0);
        }
        v = arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
      }
      idx.push_back(v);
    }
    Value r = tensor::ExtractOp::create(b, loc, t, idx);
    if (isa<FloatType>(r.getType()) && !r.getType().isF32())
      r = arith::ExtFOp::create(b, loc, b.getF32Type(), r);
    return r;
  }

  /// An arith/math op the model kept by name: integer operands (index
  /// expressions, integer tensor elements) computed in index, float ones
  /// in f32; "arith.cmpi:<pred>" compares.
  Value opaque(const Expr *e) {
    if (e == score && scoreValue)
      return scoreValue;
    StringRef name = e->name;
    SmallVector<Value> ops;
    for (const Expr *o : e->ops)
      ops.push_back(emit(o));
    bool isInt = llvm::any_of(ops, [](Value v) {
      return v.getType().isIntOrIndex() && !v.getType().isInteger(1);
    });
    // Integers (index expressions, integer tensor elements) in i64; an
    // integral constant among them (emitted as f32, the model's constants
    // being numbers) as an i64 constant.
    if (isInt)
      for (auto [v, o] : llvm::zip(ops, e->ops)) {
        if (o->kind == Kind::Const && o->value == std::floor(o->value) &&
            std::fabs(o->value) < 0x1p62)
          v = arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                           static_cast<int64_t>(o->value));
        if (!(v = toI64(v))) {
          failed = true;
          return f32(0);
        }
      }
    if (name.consume_front("arith.cmpi:")) {
      std::optional<arith::CmpIPredicate> p = arith::symbolizeCmpIPredicate(name);
      if (!p || ops.size() != 2 || !isInt) {
        failed = true;
        return f32(0);
      }
      return arith::CmpIOp::create(b, loc, *p, ops[0], ops[1]);
    }
    // A narrower type's value (ModelBuilder.cpp: wrapInteger, roundFloat).
    if (std::optional<Wrap> w = asWrap(e)) {
      if (!isInt) {
        failed = true;
        return f32(0);
      }
      Value t =
          arith::TruncIOp::create(b, loc, b.getIntegerType(w->width), ops[0]);
      if (w->zeroExtend)
        return arith::ExtUIOp::create(b, loc, b.getI64Type(), t).getResult();
      return arith::ExtSIOp::create(b, loc, b.getI64Type(), t).getResult();
    }
    if (ops.size() == 1 && name.consume_front("round.")) {
      Type t = name == "bf16"  ? Type(b.getBF16Type())
               : name == "f16" ? Type(b.getF16Type())
                               : Type();
      if (!t || !ops[0].getType().isF32()) {
        failed = true;
        return f32(0);
      }
      Value narrow = arith::TruncFOp::create(b, loc, t, ops[0]);
      return arith::ExtFOp::create(b, loc, b.getF32Type(), narrow);
    }
    if ((!name.starts_with("arith.") && !name.starts_with("math.")) ||
        ops.empty()) {
      failed = true;
      return f32(0);
    }
    OperationState st(loc, name);
    st.addOperands(ops);
    // Integer-to-float conversions give f32; the rest keep their operands'
    // type.
    bool toFloat = name == "arith.sitofp" || name == "arith.uitofp";
    bool toInt = name == "arith.fptosi" || name == "arith.fptoui";
    st.addTypes(toFloat ? Type(b.getF32Type())
                : toInt ? Type(b.getI64Type())
                        : ops[0].getType());
    Operation *op = b.create(st);
    bool invalid;
    {
      // A mismatch is a reason not to raise, not an error.
      ScopedDiagnosticHandler silence(b.getContext(),
                                      [](Diagnostic &) { return success(); });
      invalid = !op->isRegistered() || op->getNumResults() != 1 ||
                mlir::failed(mlir::verify(op));
    }
    if (invalid) {
      failed = true;
      return f32(0);
    }
    return op->getResult(0);
  }
};
} // namespace

LogicalResult raise::buildModifier(RewriterBase &rw, Location loc,
                                   Region &region, const Expr *e,
                                   const Expr *score, ArrayRef<unsigned> dims,
                                   ArrayRef<Value> read,
                                   ArrayRef<Value> captures,
                                   ArrayRef<Value> sizes) {
  OpBuilder::InsertionGuard guard(rw);
  SmallVector<Type> types;
  if (score)
    types.push_back(rw.getF32Type());
  types.append(dims.size(), rw.getIndexType());
  for (Value c : captures)
    types.push_back(c.getType());
  Block *block = rw.createBlock(&region, {}, types,
                                SmallVector<Location>(types.size(), loc));
  unsigned first = score ? 1 : 0;
  auto captureArg = [&](Value t) -> Value {
    auto it = llvm::find(read, t);
    if (it == read.end())
      return Value();
    return block->getArgument(first + dims.size() + (it - read.begin()));
  };
  Emitter em(rw, loc);
  em.dimValue = [&](unsigned d) -> Value {
    auto it = llvm::find(dims, d);
    return it == dims.end() ? Value()
                            : block->getArgument(first + (it - dims.begin()));
  };
  em.symbolValue = [&](unsigned s) -> Value {
    if (s >= sizes.size() || !sizes[s])
      return Value();
    Value t = captureArg(sizes[s]);
    if (!t)
      return Value();
    return tensor::ExtractOp::create(rw, loc, t, ValueRange());
  };
  em.readValue = [&](const Expr *r) -> Value {
    Value t = captureArg(r->tensor);
    if (!t)
      return Value();
    SmallVector<Value> idx;
    for (AffineExpr x : r->index)
      idx.push_back(em.index(x));
    return tensor::ExtractOp::create(rw, loc, t, idx);
  };
  em.gatherTensor = captureArg;
  em.score = score;
  if (score)
    em.scoreValue = block->getArgument(0);
  Value v = em.emit(e);
  Type want = score ? Type(rw.getF32Type()) : Type(rw.getI1Type());
  if (em.failed || v.getType() != want)
    return failure();
  YieldOp::create(rw, loc, v);
  return success();
}

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
        em.dimValue = [&](unsigned d) -> Value {
          auto it = llvm::find(dims, d);
          if (it == dims.end())
            return Value();
          return linalg::IndexOp::create(b, l, it - dims.begin());
        };
        DenseMap<const Expr *, Value> readArgs;
        for (auto [r, a] : llvm::zip(reads, args))
          readArgs[r] = a;
        em.readValue = [&](const Expr *r) { return readArgs.lookup(r); };
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
