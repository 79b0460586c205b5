//===- Modifiers.cpp - score_mod / mask_mod regions of the flash ops ------===//
//
// Verification, inlining, forward-mode differentiation of a score_mod with
// respect to the score, and the affine analysis of a mask_mod. Upstream has
// no symbolic derivative of a scalar region (its autodiff lives outside
// MLIR), hence the small rule table here.
//
//===----------------------------------------------------------------------===//

#include "flash/Dialect/Flash/IR/Modifiers.h"
#include "flash/Dialect/Flash/IR/FlashOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::flash;

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

static LogicalResult verifyRegion(Operation *op, StringRef name,
                                  Region &region, bool isScore, int64_t rank,
                                  ValueRange captures) {
  if (!region.hasOneBlock())
    return op->emitOpError() << "'" << name << "' must have one block";
  Block &block = region.front();
  unsigned lead = isScore ? 1 : 0;
  unsigned expected = lead + rank + captures.size();
  if (block.getNumArguments() != expected)
    return op->emitOpError()
           << "'" << name << "' must have " << expected << " arguments ("
           << (isScore ? "the f32 score, " : "") << rank
           << " index positions (batch..., head, query, key) and "
           << captures.size() << " captured operand(s)), got "
           << block.getNumArguments();
  if (isScore && !block.getArgument(0).getType().isF32())
    return op->emitOpError() << "'" << name
                             << "' argument #0 (the score) must be f32, got "
                             << block.getArgument(0).getType();
  for (int64_t k = 0; k < rank; ++k) {
    Type t = block.getArgument(lead + k).getType();
    if (!t.isIndex())
      return op->emitOpError()
             << "'" << name << "' argument #" << lead + k
             << " (a position) must be index, got " << t;
  }
  for (auto [k, c] : llvm::enumerate(captures)) {
    Type t = block.getArgument(lead + rank + k).getType();
    if (t != c.getType())
      return op->emitOpError()
             << "'" << name << "' argument #" << lead + rank + k
             << " must have the type of captured operand #" << k << " ("
             << c.getType() << "), got " << t;
  }
  // (An empty block has no terminator to ask for.)
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield)
    return op->emitOpError() << "'" << name
                             << "' must end in flash.yield";
  Type want = isScore ? Type(Float32Type::get(op->getContext()))
                      : Type(IntegerType::get(op->getContext(), 1));
  if (yield.getValue().getType() != want)
    return yield.emitOpError() << "in '" << name << "' must yield " << want
                               << ", got " << yield.getValue().getType();
  auto isCapture = [&](Value v) {
    auto a = dyn_cast<BlockArgument>(v);
    return a && a.getOwner() == &block && a.getArgNumber() >= lead + rank;
  };
  for (Operation &inner : block.without_terminator()) {
    if (isa<YieldOp>(inner))
      return inner.emitOpError("may only terminate the region");
    if (inner.getNumRegions() != 0)
      return inner.emitOpError() << "is not allowed in '" << name
                                 << "': modifier regions hold no nested "
                                    "regions";
    if (isa<tensor::ExtractOp, tensor::DimOp>(inner)) {
      if (!isCapture(inner.getOperand(0)))
        return inner.emitOpError()
               << "in '" << name
               << "' must read a captured operand (a block argument after "
                  "the positions)";
      continue;
    }
    if (!isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()))
      return inner.emitOpError()
             << "is not allowed in '" << name
             << "': only arith and math ops, tensor.extract and tensor.dim "
                "of captured operands";
    if (!isMemoryEffectFree(&inner))
      return inner.emitOpError() << "in '" << name
                                 << "' must not have side effects";
    for (Value operand : inner.getOperands())
      if (isCapture(operand))
        return inner.emitOpError()
               << "in '" << name
               << "' uses a captured tensor; read it with tensor.extract";
    for (Type t : inner.getResultTypes())
      if (isa<ShapedType>(t))
        return inner.emitOpError() << "in '" << name
                                   << "' must compute scalars, got " << t;
  }
  return success();
}

LogicalResult flash::verifyModifiers(Operation *op, int64_t rank,
                                     ValueRange captures, Region &scoreMod,
                                     Region &maskMod) {
  if (!scoreMod.empty() &&
      failed(verifyRegion(op, "score_mod", scoreMod, true, rank, captures)))
    return failure();
  if (!maskMod.empty() &&
      failed(verifyRegion(op, "mask_mod", maskMod, false, rank, captures)))
    return failure();
  if (!captures.empty() && scoreMod.empty() && maskMod.empty())
    return op->emitOpError("captures(...) requires a score_mod or mask_mod "
                           "region that reads them");
  return success();
}

//===----------------------------------------------------------------------===//
// Inlining and the derivative of a score_mod
//===----------------------------------------------------------------------===//

/// Clones `op` of a modifier region at `b`; with `read`, accesses to the
/// captured operands (block arguments from `firstCapture` on) are read
/// through it instead. Returns the clone (null when read through).
static Operation *cloneModifierOp(OpBuilder &b, Operation &op, IRMapping &map,
                                  unsigned firstCapture, CaptureReader read) {
  auto captureOf = [&](Value t) -> std::optional<unsigned> {
    auto arg = dyn_cast<BlockArgument>(t);
    if (!read || !arg || arg.getOwner() != op.getBlock() ||
        arg.getArgNumber() < firstCapture)
      return std::nullopt;
    return arg.getArgNumber() - firstCapture;
  };
  Location loc = op.getLoc();
  if (auto ex = dyn_cast<tensor::ExtractOp>(op))
    if (auto k = captureOf(ex.getTensor())) {
      SmallVector<Value> idx;
      for (Value i : ex.getIndices())
        idx.push_back(map.lookup(i));
      map.map(ex.getResult(), read(b, loc, *k, idx));
      return nullptr;
    }
  if (auto dim = dyn_cast<tensor::DimOp>(op))
    if (captureOf(dim.getSource())) {
      std::optional<int64_t> d = dim.getConstantIndex();
      auto ty = cast<RankedTensorType>(dim.getSource().getType());
      assert(d && !ty.isDynamicDim(*d) && "a read capture has static dims");
      map.map(dim.getResult(),
              arith::ConstantIndexOp::create(b, loc, ty.getDimSize(*d)));
      return nullptr;
    }
  return b.clone(op, map);
}

/// The number of a region's block arguments before its captured operands,
/// given the ones a caller binds (all of them without a reader).
static unsigned firstCaptureOf(Block &block, ValueRange args,
                               CaptureReader read) {
  return read ? args.size() : block.getNumArguments();
}

/// Whether hoistModifier already computed every result of `op`.
static bool wasHoisted(Operation &op, const IRMapping &map) {
  return llvm::all_of(op.getResults(),
                      [&](Value r) { return map.contains(r); });
}

Value flash::inlineModifier(OpBuilder &b, Location loc, Region &region,
                            ValueRange args, CaptureReader read,
                            const IRMapping *hoisted) {
  Block &block = region.front();
  IRMapping map = hoisted ? *hoisted : IRMapping();
  unsigned first = firstCaptureOf(block, args, read);
  map.map(block.getArguments().take_front(args.size()), args);
  for (Operation &op : block.without_terminator())
    if (!hoisted || !wasHoisted(op, map))
      cloneModifierOp(b, op, map, first, read);
  return map.lookup(cast<YieldOp>(block.getTerminator()).getValue());
}

IRMapping flash::hoistModifier(OpBuilder &b, Location loc, Region &region,
                               ArrayRef<Value> args, CaptureReader read) {
  assert(read && "hoisting reads captured operands through a reader");
  Block &block = region.front();
  IRMapping map;
  unsigned first = args.size();
  DenseSet<Value> varying;
  for (auto [k, v] : llvm::enumerate(args)) {
    if (v)
      map.map(block.getArgument(k), v);
    else
      varying.insert(block.getArgument(k));
  }
  for (Operation &op : block.without_terminator()) {
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return varying.contains(v); })) {
      varying.insert(op.result_begin(), op.result_end());
      continue;
    }
    cloneModifierOp(b, op, map, first, read);
  }
  // The arguments are bound again by each inlining.
  for (unsigned k = 0; k < args.size(); ++k)
    map.erase(block.getArgument(k));
  return map;
}

/// Ops whose float result the backward can differentiate.
static bool hasDerivativeRule(Operation *op) {
  return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
             arith::NegFOp, arith::MaximumFOp, arith::MaxNumFOp,
             arith::MinimumFOp, arith::MinNumFOp, arith::SelectOp,
             arith::ExtFOp, arith::TruncFOp, arith::ConstantOp, math::TanhOp,
             math::ExpOp, math::Exp2Op, math::LogOp, math::SqrtOp,
             math::AbsFOp, math::FmaOp>(op);
}

/// Values of the region's block that depend on `roots`.
static DenseSet<Value> dependents(Block &block, ArrayRef<Value> roots) {
  DenseSet<Value> dep(roots.begin(), roots.end());
  for (Operation &op : block.without_terminator())
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return dep.contains(v); }))
      for (Value r : op.getResults())
        dep.insert(r);
  return dep;
}

Operation *flash::findNonDifferentiable(Region &scoreMod) {
  Block &block = scoreMod.front();
  DenseSet<Value> dep = dependents(block, {block.getArgument(0)});
  for (Operation &op : block.without_terminator()) {
    bool floatResult = llvm::any_of(op.getResultTypes(), [](Type t) {
      return isa<FloatType>(t);
    });
    bool fromScore = llvm::any_of(op.getOperands(), [&](Value v) {
      return dep.contains(v) && isa<FloatType>(v.getType());
    });
    if (floatResult && fromScore && !hasDerivativeRule(&op))
      return &op;
  }
  return nullptr;
}

FailureOr<std::pair<Value, Value>>
flash::inlineScoreModWithDerivative(OpBuilder &b, Location loc,
                                    Region &scoreMod, ValueRange args,
                                    CaptureReader read,
                                    const IRMapping *hoisted) {
  Block &block = scoreMod.front();
  IRMapping map = hoisted ? *hoisted : IRMapping();
  unsigned first = firstCaptureOf(block, args, read);
  map.map(block.getArguments().take_front(args.size()), args);
  // Tangents (d/ds) of the original values; absent = 0.
  DenseMap<Value, Value> tan;
  tan[block.getArgument(0)] =
      arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0f));
  auto zero = [&](Type t) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, 0.0)).getResult();
  };
  auto add = [&](Value x, Value y) -> Value {
    if (!x)
      return y;
    if (!y)
      return x;
    return arith::AddFOp::create(b, loc, x, y);
  };
  auto mul = [&](Value t, Value f) -> Value {
    return t ? arith::MulFOp::create(b, loc, t, f).getResult() : Value();
  };
  auto neg = [&](Value t) -> Value {
    return t ? arith::NegFOp::create(b, loc, t).getResult() : Value();
  };
  auto orZero = [&](Value t, Type ty) { return t ? t : zero(ty); };
  auto cst = [&](Type t, double v) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v)).getResult();
  };
  for (Operation &op : block.without_terminator()) {
    // Hoisted values and captured ones do not depend on the score.
    if (hoisted && wasHoisted(op, map))
      continue;
    Operation *c = cloneModifierOp(b, op, map, first, read);
    if (!c)
      continue;
    SmallVector<Value> ta;
    bool any = false;
    for (Value v : op.getOperands()) {
      ta.push_back(tan.lookup(v));
      any |= static_cast<bool>(ta.back());
    }
    if (!any || op.getNumResults() != 1 ||
        !isa<FloatType>(op.getResult(0).getType()))
      continue;
    if (!hasDerivativeRule(&op))
      return failure();
    Type ty = op.getResult(0).getType();
    Value r = c->getResult(0);
    auto x = [&](unsigned k) { return c->getOperand(k); };
    Value t =
        llvm::TypeSwitch<Operation *, Value>(&op)
            .Case([&](arith::AddFOp) { return add(ta[0], ta[1]); })
            .Case([&](arith::SubFOp) { return add(ta[0], neg(ta[1])); })
            .Case([&](arith::MulFOp) {
              return add(mul(ta[0], x(1)), mul(ta[1], x(0)));
            })
            .Case([&](arith::DivFOp) {
              // d(x / y) = (dx - r dy) / y.
              Value n = add(ta[0], neg(mul(ta[1], r)));
              return arith::DivFOp::create(b, loc, n, x(1)).getResult();
            })
            .Case([&](arith::NegFOp) { return neg(ta[0]); })
            .Case<arith::MaximumFOp, arith::MaxNumFOp>([&](Operation *) {
              Value ge = arith::CmpFOp::create(
                  b, loc, arith::CmpFPredicate::OGE, x(0), x(1));
              return arith::SelectOp::create(b, loc, ge, orZero(ta[0], ty),
                                             orZero(ta[1], ty))
                  .getResult();
            })
            .Case<arith::MinimumFOp, arith::MinNumFOp>([&](Operation *) {
              Value le = arith::CmpFOp::create(
                  b, loc, arith::CmpFPredicate::OLE, x(0), x(1));
              return arith::SelectOp::create(b, loc, le, orZero(ta[0], ty),
                                             orZero(ta[1], ty))
                  .getResult();
            })
            .Case([&](arith::SelectOp) {
              return arith::SelectOp::create(b, loc, x(0), orZero(ta[1], ty),
                                             orZero(ta[2], ty))
                  .getResult();
            })
            .Case([&](arith::ExtFOp) {
              return arith::ExtFOp::create(b, loc, ty, ta[0]).getResult();
            })
            .Case([&](arith::TruncFOp) {
              return arith::TruncFOp::create(b, loc, ty, ta[0]).getResult();
            })
            .Case([&](math::TanhOp) {
              // (1 - tanh^2) dx.
              Value sq = arith::MulFOp::create(b, loc, r, r);
              return mul(ta[0], arith::SubFOp::create(b, loc, cst(ty, 1), sq));
            })
            .Case([&](math::ExpOp) { return mul(ta[0], r); })
            .Case([&](math::Exp2Op) {
              return mul(mul(ta[0], r), cst(ty, M_LN2));
            })
            .Case([&](math::LogOp) {
              return arith::DivFOp::create(b, loc, ta[0], x(0)).getResult();
            })
            .Case([&](math::SqrtOp) {
              Value twice = arith::MulFOp::create(b, loc, r, cst(ty, 2));
              return arith::DivFOp::create(b, loc, ta[0], twice).getResult();
            })
            .Case([&](math::AbsFOp) {
              Value lt = arith::CmpFOp::create(
                  b, loc, arith::CmpFPredicate::OLT, x(0), zero(ty));
              return arith::SelectOp::create(b, loc, lt, neg(ta[0]), ta[0])
                  .getResult();
            })
            .Case([&](math::FmaOp) {
              return add(add(mul(ta[0], x(1)), mul(ta[1], x(0))), ta[2]);
            })
            .Default([&](Operation *) { return Value(); });
    if (t)
      tan[op.getResult(0)] = t;
  }
  Value y = cast<YieldOp>(block.getTerminator()).getValue();
  Value dy = tan.lookup(y);
  if (!dy)
    dy = zero(b.getF32Type());
  return std::make_pair(map.lookup(y), dy);
}

//===----------------------------------------------------------------------===//
// The affine part of a mask_mod
//===----------------------------------------------------------------------===//

namespace {
/// ci * i + cj * j + c + sum(k * v), v independent of i and j.
struct Linear {
  int64_t ci = 0, cj = 0, c = 0;
  SmallVector<std::pair<int64_t, Value>> inv;

  Linear scaled(int64_t k) const {
    Linear r = *this;
    r.ci *= k;
    r.cj *= k;
    r.c *= k;
    for (auto &p : r.inv)
      p.first *= k;
    return r;
  }
  Linear plus(const Linear &o) const {
    Linear r = *this;
    r.ci += o.ci;
    r.cj += o.cj;
    r.c += o.c;
    r.inv.append(o.inv.begin(), o.inv.end());
    return r;
  }
  bool isConstant() const { return !ci && !cj && inv.empty(); }
};

struct MaskAnalysis {
  Block &block;
  Value iArg, jArg;
  DenseSet<Value> dep;

  std::optional<Linear> linear(Value v) {
    if (v == iArg)
      return Linear{1, 0, 0, {}};
    if (v == jArg)
      return Linear{0, 1, 0, {}};
    if (!dep.contains(v)) {
      APInt c;
      if (matchPattern(v, m_ConstantInt(&c)))
        return Linear{0, 0, c.getSExtValue(), {}};
      Linear l;
      l.inv.push_back({1, v});
      return l;
    }
    Operation *d = v.getDefiningOp();
    if (!d)
      return std::nullopt;
    // Casts keep a position's value: sign extensions always, truncations
    // to 32 bits and more (positions stay below 2^31; an i8 position
    // wraps past 127, which no affine bound describes).
    if (isa<arith::ExtSIOp>(d) ||
        (isa<arith::IndexCastOp, arith::TruncIOp>(d) &&
         (d->getResult(0).getType().isIndex() ||
          d->getResult(0).getType().getIntOrFloatBitWidth() >= 32)))
      return linear(d->getOperand(0));
    if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(d))
      return std::nullopt;
    auto a = linear(d->getOperand(0)), b = linear(d->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    if (isa<arith::AddIOp>(d))
      return a->plus(*b);
    if (isa<arith::SubIOp>(d))
      return a->plus(b->scaled(-1));
    if (a->isConstant())
      return b->scaled(a->c);
    if (b->isConstant())
      return a->scaled(b->c);
    return std::nullopt;
  }

  /// Adds the conjuncts of `v` (an i1) to `out`; false when some conjunct
  /// is not affine (those go to `other`, when given).
  bool conjuncts(Value v, SmallVectorImpl<Linear> &out,
                 SmallVectorImpl<Value> *other = nullptr) {
    if (auto a = v.getDefiningOp<arith::AndIOp>()) {
      // Both sides, even when one is not affine.
      bool l = conjuncts(a.getLhs(), out, other);
      bool r = conjuncts(a.getRhs(), out, other);
      return l && r;
    }
    if (!affineLeaf(v, out)) {
      if (other)
        other->push_back(v);
      return false;
    }
    return true;
  }

  bool affineLeaf(Value v, SmallVectorImpl<Linear> &out) {
    if (matchPattern(v, m_One()))
      return true;
    auto cmp = v.getDefiningOp<arith::CmpIOp>();
    if (!cmp)
      return false;
    auto l = linear(cmp.getLhs()), r = linear(cmp.getRhs());
    if (!l || !r)
      return false;
    Linear diff = l->plus(r->scaled(-1)); // lhs - rhs
    using P = arith::CmpIPredicate;
    auto le = [](Linear x, int64_t plus) {
      x.c += plus;
      return x;
    };
    SmallVector<Linear> forms; // each: form <= 0
    switch (cmp.getPredicate()) {
    case P::sle:
      forms.push_back(diff);
      break;
    case P::slt:
      forms.push_back(le(diff, 1));
      break;
    case P::sge:
      forms.push_back(diff.scaled(-1));
      break;
    case P::sgt:
      forms.push_back(le(diff.scaled(-1), 1));
      break;
    case P::eq:
      forms.push_back(diff);
      forms.push_back(diff.scaled(-1));
      break;
    default:
      return false;
    }
    for (const Linear &f : forms) {
      if (std::abs(f.ci) > 1 || std::abs(f.cj) > 1 || (!f.ci && !f.cj))
        return false;
      out.push_back(f);
    }
    return true;
  }
};
} // namespace

void flash::boundPositions(OpBuilder &b, Location loc,
                           const MaskBounds &bounds, bool swap, Value tMin,
                           Value tMax, Value &lo, Value &hi, Value *innerLo,
                           Value *innerHi) {
  auto c = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  auto sub = [&](Value x, Value y) {
    return b.createOrFold<arith::SubIOp>(loc, x, y);
  };
  for (const MaskConstraint &k : bounds.constraints) {
    // cu * u + ct * t + rest <= 0.
    int64_t cu = swap ? k.ci : k.cj, ct = swap ? k.cj : k.ci;
    if (cu != 1 && cu != -1)
      continue;
    // ct * t at the end of the range that loosens the bound (where ct * t
    // is smallest) and at the one that tightens it.
    auto at = [&](bool loosest) -> Value {
      if (!ct)
        return c(0);
      Value t = (ct < 0) == loosest ? tMax : tMin;
      return b.createOrFold<arith::MulIOp>(loc, c(ct), t);
    };
    auto narrow = [&](Value &bound, Value lim, bool upper) {
      bound = upper ? b.createOrFold<arith::MinSIOp>(loc, bound, lim)
                    : b.createOrFold<arith::MaxSIOp>(loc, bound, lim);
    };
    if (cu == 1) { // u <= -rest - ct * t: u < 1 - rest - ct * t
      Value oneMinusRest = sub(c(1), k.rest);
      narrow(hi, sub(oneMinusRest, at(true)), true);
      if (innerHi)
        narrow(*innerHi, sub(oneMinusRest, at(false)), true);
    } else { // u >= rest + ct * t
      narrow(lo, b.createOrFold<arith::AddIOp>(loc, k.rest, at(true)), false);
      if (innerLo)
        narrow(*innerLo,
               b.createOrFold<arith::AddIOp>(loc, k.rest, at(false)), false);
    }
  }
}

/// The affine conjuncts of a mask_mod with `leadRank` leading positions into
/// `forms`; whether they are the whole mask_mod.
static bool affineConjuncts(Region &maskMod, unsigned leadRank,
                            SmallVectorImpl<Linear> &forms) {
  Block &block = maskMod.front();
  unsigned rank = leadRank + 2;
  Value iArg = block.getArgument(rank - 2), jArg = block.getArgument(rank - 1);
  MaskAnalysis an{block, iArg, jArg, dependents(block, {iArg, jArg})};
  return an.conjuncts(cast<YieldOp>(block.getTerminator()).getValue(), forms);
}

/// The conjuncts of a mask_mod that are not affine.
static SmallVector<Value> maskModOtherConjuncts(Region &maskMod,
                                                unsigned leadRank) {
  Block &block = maskMod.front();
  unsigned rank = leadRank + 2;
  Value iArg = block.getArgument(rank - 2), jArg = block.getArgument(rank - 1);
  MaskAnalysis an{block, iArg, jArg, dependents(block, {iArg, jArg})};
  SmallVector<Linear> forms;
  SmallVector<Value> other;
  an.conjuncts(cast<YieldOp>(block.getTerminator()).getValue(), forms, &other);
  return other;
}

std::optional<SmallVector<MaskSplitCompare>>
flash::maskModSplitCompares(Region &maskMod, unsigned leadRank) {
  using P = arith::CmpIPredicate;
  Block &block = maskMod.front();
  unsigned rank = leadRank + 2;
  DenseSet<Value> onI = dependents(block, {block.getArgument(rank - 2)});
  DenseSet<Value> onJ = dependents(block, {block.getArgument(rank - 1)});
  auto only = [](Value v, const DenseSet<Value> &in,
                 const DenseSet<Value> &out) {
    return in.contains(v) && !out.contains(v);
  };
  SmallVector<MaskSplitCompare> out;
  for (Value c : maskModOtherConjuncts(maskMod, leadRank)) {
    auto cmp = c.getDefiningOp<arith::CmpIOp>();
    if (!cmp ||
        !llvm::is_contained({P::eq, P::ne, P::slt, P::sle, P::sgt, P::sge},
                            cmp.getPredicate()))
      return std::nullopt;
    Value l = cmp.getLhs(), r = cmp.getRhs();
    P p = cmp.getPredicate();
    if (only(l, onI, onJ) && only(r, onJ, onI)) {
      out.push_back({l, r, p});
    } else if (only(l, onJ, onI) && only(r, onI, onJ)) {
      // y pred x as x swapped(pred) y.
      P swapped = p == P::slt   ? P::sgt
                  : p == P::sgt ? P::slt
                  : p == P::sle ? P::sge
                  : p == P::sge ? P::sle
                                : p;
      out.push_back({r, l, swapped});
    } else {
      return std::nullopt;
    }
  }
  return out;
}

bool flash::maskModIsAffine(Region &maskMod, unsigned leadRank) {
  SmallVector<Linear> forms;
  return affineConjuncts(maskMod, leadRank, forms);
}

MaskBounds flash::analyzeMaskMod(OpBuilder &b, Location loc, Region &maskMod,
                                 ValueRange lead, ValueRange captures,
                                 CaptureReader read) {
  Block &block = maskMod.front();
  unsigned rank = lead.size() + 2;
  SmallVector<Linear> forms;
  MaskBounds bounds;
  bounds.exact = affineConjuncts(maskMod, lead.size(), forms);

  // The invariant parts, emitted at `b` from the leading positions and the
  // captured operands.
  IRMapping map;
  for (auto [k, v] : llvm::enumerate(lead))
    map.map(block.getArgument(k), v);
  for (auto [k, v] : llvm::enumerate(captures))
    map.map(block.getArgument(rank + k), v);
  std::function<Value(Value)> emit = [&](Value v) -> Value {
    if (Value m = map.lookupOrNull(v))
      return m;
    Operation *d = v.getDefiningOp();
    for (Value o : d->getOperands())
      if (!read || !isa<BlockArgument>(o) ||
          cast<BlockArgument>(o).getArgNumber() < rank)
        emit(o);
    cloneModifierOp(b, *d, map, rank, read);
    return map.lookup(v);
  };
  auto toIndex = [&](Value v) -> Value {
    if (v.getType().isIndex())
      return v;
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  };
  for (const Linear &f : forms) {
    Value rest = arith::ConstantIndexOp::create(b, loc, f.c);
    for (auto [k, v] : f.inv) {
      Value x = toIndex(emit(v));
      if (k != 1)
        x = b.createOrFold<arith::MulIOp>(
            loc, x, arith::ConstantIndexOp::create(b, loc, k));
      rest = b.createOrFold<arith::AddIOp>(loc, rest, x);
    }
    bounds.constraints.push_back({f.ci, f.cj, rest});
  }
  return bounds;
}
