//===- RaiseAttention.cpp - Attention in linalg/TOSA -> flash ops ---------===//
//
// --flash-raise-attention in three steps (DESIGN.md, "Raising"):
//
// 1. Normalize a copy. A candidate is every contraction (linalg op with a
//    sum reduction, or tosa.matmul). Its backward slice is read as one
//    scalar expression per output element (AttentionModel.h): named linalg
//    ops through their indexing maps and payloads (what
//    linalg-generalize-named-ops would materialize), elementwise producers
//    inlined (elementwise fusion), transposes, broadcasts and
//    collapse/expand_shape folded into the index expressions (reshape
//    propagation), linalg.softmax through upstream's decomposition and TOSA
//    through upstream's tosa-to-linalg, both made on scratch copies. The
//    program is untouched until a raise succeeds.
// 2. Prove (ProveAttention.cpp, ProveAttentionGrad.cpp) that the expression
//    is softmax(scale * Q K^T + mask) V, that the probabilities' other uses
//    are a row log-sum-exp (served by lse) or the backward of a joint graph.
// 3. Emit flash.attention (and flash.attention_grad) on the original
//    leaves, made canonical by O(N * D) transposes/copies where their layout
//    differs; the N x N intermediates die.
//
// Every candidate not raised gets a remark (with report=true) naming the
// first fact not proven. Upstream has no attention matcher (IREE's was
// removed), hence this file.
//
//===----------------------------------------------------------------------===//

#include "AttentionProof.h"
#include "RaiseAttention.h"
#include "flash/Dialect/Flash/IR/FlashOps.h"
#include "flash/Dialect/Flash/Transforms/Passes.h"
#include "flash/Dialect/Flash/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHRAISEATTENTION
#include "flash/Dialect/Flash/Transforms/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::model;
using namespace mlir::flash::raise;

//===----------------------------------------------------------------------===//
// Emission helpers
//===----------------------------------------------------------------------===//

/// The op after which every value of `values` is defined, in `block`
/// (null: the block's start).
static Operation *lastDefinition(Block *block, ArrayRef<Value> values) {
  Operation *last = nullptr;
  for (Value v : values) {
    if (!v)
      continue;
    Operation *def = v.getDefiningOp();
    if (!def)
      continue;
    Operation *anc = block->findAncestorOpInBlock(*def);
    if (!anc)
      continue;
    if (!last || last->isBeforeInBlock(anc))
      last = anc;
  }
  return last;
}

//===----------------------------------------------------------------------===//
// The forward
//===----------------------------------------------------------------------===//

namespace {

/// One candidate's analysis: the model, the proof and what it found.
struct Candidate {
  Operation *op;
  Value root;
  ExprContext ec;
  std::unique_ptr<ModelBuilder> mb;
  ForwardFacts facts;
  const Expr *rootExpr = nullptr;
  /// Values served by the lse result, with the map from root dims to their
  /// own dims.
  SmallVector<std::pair<Value, DenseMap<unsigned, AffineExpr>>> lseUses;
  /// Set when the probabilities feed a backward (ProveAttentionGrad.cpp).
  std::optional<raise::BackwardFacts> backward;
  /// Ops downstream of the probabilities when the forward was proven but
  /// its other uses were not (a joint graph not raised).
  SmallVector<Operation *> covers;
  /// The root op's init where it is not zero (P*V accumulated into a
  /// residual, or into ones: torch.baddbmm, a fused residual add): added to
  /// the attention after the op.
  Value accumulator;

  explicit Candidate(Operation *op)
      : op(op), ec(op->getContext()) {}
};

/// Secondary index spaces (a use's own dims) start here.
constexpr unsigned kSecondDims = 40;

/// The values `op`'s result may be read through before the attention is
/// complete: single-use expand_shape / tosa.reshape, or elementwise ops
/// (a normalization deferred after P*V, a final cast).
SmallVector<Value> rootChain(Operation *op) {
  SmallVector<Value> chain{op->getResult(0)};
  for (int step = 0; step < 4; ++step) {
    Value v = chain.back();
    if (!v.hasOneUse())
      break;
    Operation *user = *v.getUsers().begin();
    if (user->getNumResults() != 1 ||
        !isa<RankedTensorType>(user->getResult(0).getType()))
      break;
    bool ok = isa<tensor::ExpandShapeOp, tosa::ReshapeOp, tosa::MulOp,
                  tosa::CastOp>(user);
    if (auto g = dyn_cast<linalg::GenericOp>(user))
      ok = g.getNumLoops() == g.getNumParallelLoops();
    if (!ok)
      break;
    chain.push_back(user->getResult(0));
  }
  return chain;
}

/// Whether `m` is an N x N (or row) value of the attention: it reads K and
/// varies along the queries, or, with one query (decode, Nq = 1, whose axis
/// the models read at 0), is computed from the scores (not a view of K).
bool isScoreSpace(const Expr *m, const ForwardFacts &f, Value root) {
  unsigned i = f.canonical[f.numBatch];
  return m->reads.contains(f.k.tensor) &&
         (m->dependsOn(i) ||
          (cast<RankedTensorType>(root.getType()).getDimSize(i) == 1 &&
           m->height > 0));
}

/// Checks the uses of the slice's N x N (and row) values: each stays inside
/// the slice, is a row log-sum-exp (served by lse) or, for P, the backward.
Reason checkUses(Candidate &c) {
  ModelBuilder &mb = *c.mb;
  ForwardFacts &f = c.facts;
  DenseSet<Operation *> slice;
  for (auto &[v, idx] : mb.visited)
    if (Operation *d = v.getDefiningOp())
      slice.insert(d);
  if (Operation *d = c.root.getDefiningOp())
    slice.insert(d);
  const Expr *lse = logSumExp(c.ec, f);
  SmallVector<std::pair<Value, Operation *>> external;
  // visited grows while uses are modeled: iterate over a copy.
  auto visited = mb.visited.takeVector();
  for (auto &[v, idx] : visited)
    mb.visited.insert({v, idx});
  for (auto &[v, idx] : visited) {
    if (v == c.root || mb.isScratch(v))
      continue;
    const Expr *m = mb.eval(v, idx);
    if (!isScoreSpace(m, f, c.root))
      continue;
    for (Operation *user : v.getUsers())
      if (!slice.contains(user) && !mb.isScratch(user) &&
          !isOpTriviallyDead(user))
        external.push_back({v, user});
  }
  SmallVector<std::pair<Value, Operation *>> forBackward;
  for (auto [v, user] : external) {
    // A row log-sum-exp of the scores?
    if (user->getNumResults() == 1 &&
        isa<RankedTensorType>(user->getResult(0).getType())) {
      Value r = user->getResult(0);
      auto rt = cast<RankedTensorType>(r.getType());
      SmallVector<AffineExpr> idx;
      for (int64_t d = 0; d < rt.getRank(); ++d) {
        idx.push_back(getAffineDimExpr(kSecondDims + d, c.ec.getContext()));
        if (!rt.isDynamicDim(d))
          mb.extents[kSecondDims + d] = rt.getDimSize(d);
      }
      const Expr *m = withoutEmptyRowLseGuard(mb.eval(r, idx));
      const Expr *qr = findRead(m, f.q.tensor);
      const Expr *fq = findRead(c.rootExpr, f.q.tensor);
      if (qr && fq) {
        if (auto map = alignRoots(fq, qr->index)) {
          DenseMap<unsigned, AffineExpr> rows;
          for (unsigned d : ArrayRef<unsigned>(f.canonical).drop_back())
            if (map->count(d))
              rows[d] = (*map)[d];
          if (substituteAll(c.ec, lse, rows) == m) {
            if (!llvm::any_of(c.lseUses,
                              [&](auto &p) { return p.first == r; }))
              c.lseUses.push_back({r, rows});
            continue;
          }
        }
      }
    }
    forBackward.push_back({v, user});
  }
  // P recomputed for the backward (activation checkpointing).
  for (auto use :
       raise::recomputedProbabilities(c.ec, mb, f, c.rootExpr, slice))
    forBackward.push_back(use);
  // A row without keys under a finite fill has lse = fill + log(Nk), which
  // f32 rounds to the fill. A backward's P there is 1 / Nk (dV gets those
  // rows' dO / Nk on every key, emitBackward) and its dS zero (the fill's
  // select takes the gradient).
  Reason why;
  if (!c.lseUses.empty())
    f.emptyRowsFromTensors = false;
  if (f.emptyRowsAverage && !c.lseUses.empty())
    why = "the mask fills with a finite stand-in for -inf (finfo.min, "
          "-1e9) and may leave rows without any key, where the program "
          "averages V uniformly: the raise averages V into those rows of "
          "the output, but not into the row log-sum-exp (-inf there, the "
          "fill plus log Nk in the program), which the program reads";
  else if (forBackward.empty())
    return "";
  else
    why = raise::proveBackward(c.ec, mb, f, c.rootExpr, c.root, slice,
                               forBackward, c.backward);
  if (why.empty() && c.backward && c.backward->dSNotRemasked)
    f.emptyRowsFromTensors = false;
  if (!why.empty()) {
    SmallVector<Operation *> work;
    for (auto [v, user] : forBackward)
      work.push_back(user);
    DenseSet<Operation *> seen;
    while (!work.empty() && seen.size() < 256) {
      Operation *op = work.pop_back_val();
      if (slice.contains(op) || !seen.insert(op).second)
        continue;
      c.covers.push_back(op);
      for (Value r : op->getResults())
        for (Operation *u : r.getUsers())
          work.push_back(u);
    }
  }
  return why;
}

/// Whether `v` is computed, within a few ops, from exponentials (a softmax:
/// linalg.softmax, tosa.exp, math.exp in a linalg body).
static bool fromExponentials(Value v) {
  SmallVector<std::pair<Value, int>> work{{v, 0}};
  DenseSet<Operation *> seen;
  while (!work.empty()) {
    auto [x, depth] = work.pop_back_val();
    Operation *op = x.getDefiningOp();
    if (!op || depth > 6 || !seen.insert(op).second)
      continue;
    if (isa<linalg::SoftmaxOp, tosa::ExpOp>(op))
      return true;
    if (auto l = dyn_cast<linalg::LinalgOp>(op)) {
      bool exps = false;
      l->walk([&](Operation *o) { exps |= isa<math::ExpOp, math::Exp2Op>(o); });
      if (exps)
        return true;
    }
    for (Value o : op->getOperands())
      work.push_back({o, depth + 1});
  }
  return false;
}

/// For a contraction the model found no attention in: a reason where one
/// of its operands is a value the model reads as a leaf (an op it does not
/// follow: a slice of a concatenation, say) computed from a softmax, a
/// miss that would otherwise be silent (attention sinks as an extra column
/// of the scores).
static std::optional<Reason> unfollowedSoftmax(Candidate &c) {
  if (!c.rootExpr)
    return std::nullopt;
  // (A product with an accumulator: P*V + R, a residual as the product's
  // init.)
  const Expr *product = c.rootExpr;
  if (product->kind == Kind::Add)
    for (const Expr *t : c.rootExpr->ops)
      if (t->kind == Kind::Reduce)
        product = t;
  if (product->kind != Kind::Reduce)
    return std::nullopt;
  SmallVector<const Expr *> reads;
  collectReads(product, reads);
  for (const Expr *r : reads) {
    Operation *def = r->tensor.getDefiningOp();
    if (!def || isa<linalg::LinalgOp>(def) || !fromExponentials(r->tensor))
      continue;
    if (product != c.rootExpr)
      return Reason("the P*V product is added to something (its accumulator "
                    "is not zero, or the output has other terms)");
    return Reason("the probabilities reach the product through '" +
                  def->getName().getStringRef().str() +
                  "', which the raise's model does not follow (a softmax "
                  "over other columns than the keys, such as attention "
                  "sinks?)");
  }
  return std::nullopt;
}

/// The root's model, less the init of the op that defines it where that is
/// not zero and the model is the init plus a product (`c.accumulator`): the
/// attention is then proven on the product alone.
static void modelRoot(Candidate &c) {
  c.accumulator = Value();
  c.rootExpr = c.mb->evalAtIdentity(c.root);
  auto op = c.root.getDefiningOp<linalg::LinalgOp>();
  if (!op || c.rootExpr->kind != Kind::Add || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1 || op.getNumReductionLoops() == 0)
    return;
  Value init = op.getDpsInitOperand(0)->get();
  if (init.getType() != c.root.getType())
    return;
  // (A scratch model: the init's producers are not the attention's.)
  ModelBuilder scratch(c.ec);
  const Expr *acc = scratch.evalAtIdentity(init);
  if (!acc || acc->isConst(0) ||
      (!llvm::is_contained(c.rootExpr->ops, acc) && acc->kind != Kind::Const))
    return;
  const Expr *product = c.ec.sub(c.rootExpr, acc);
  if (product->kind == Kind::Add)
    return;
  c.rootExpr = product;
  c.accumulator = init;
}

/// Runs the model and the proofs for `op`. Returns nullopt when `op` is not
/// a candidate, else "" (with the facts in `c`) or the reason.
std::optional<Reason> analyze(Candidate &c) {
  SmallVector<Value> chain = rootChain(c.op);
  // (The front's reason; else a view's of it, the product reshaped back
  // to the program's layout.)
  std::optional<Reason> nearest, outer;
  for (Value root : llvm::reverse(chain)) {
    auto ty = dyn_cast<RankedTensorType>(root.getType());
    if (!ty || ty.getRank() < 2 || ty.getRank() > 12 ||
        !isa<FloatType>(ty.getElementType()))
      continue;
    c.mb = std::make_unique<ModelBuilder>(c.ec);
    c.facts = ForwardFacts();
    c.lseUses.clear();
    c.backward.reset();
    c.root = root;
    modelRoot(c);
    auto prove = [&]() {
      return proveForward(
          c.ec, c.rootExpr, ty.getShape(), c.mb->symbols,
          [&](const Expr *x) { return c.mb->asLeaf(x); }, c.facts);
    };
    std::optional<Reason> r = prove();
    // Leaves that are computed tensors (projections) were inlined by the
    // model: model again with them as leaves, so that every value of the
    // slice is expressed over Q, K and V.
    if (r && r->empty()) {
      SmallVector<Value> leaves{c.facts.q.tensor, c.facts.k.tensor,
                                c.facts.v.tensor};
      if (llvm::any_of(leaves,
                       [&](Value t) { return c.mb->visited.contains(t); })) {
        c.mb = std::make_unique<ModelBuilder>(c.ec);
        for (Value t : leaves)
          c.mb->stopAt.insert(t);
        c.facts = ForwardFacts();
        modelRoot(c);
        r = prove();
      }
    }
    if (r && r->empty())
      r = checkUses(c);
    // (A backward reads the program's output, attention plus the init.)
    if (r && r->empty() && c.accumulator && c.backward)
      r = Reason("the P*V product is accumulated into a tensor that is not "
                 "zero and the output feeds a backward");
    if (r && r->empty() && c.facts.outputScale != 1 && c.backward)
      r = Reason("the attention output is scaled by a constant (" +
                 std::to_string(c.facts.outputScale) +
                 ") and feeds a backward");
    if (getenv("FLASH_RAISE_DEBUG"))
      llvm::errs() << "root " << root << "\n  model " << c.ec.str(c.rootExpr)
                   << "\n  -> " << (r ? *r : std::string("not a candidate"))
                   << "\n";
    if (r && r->empty())
      return r;
    if (root == chain.front())
      nearest = r ? r : outer ? outer : unfollowedSoftmax(c);
    else if (r && !outer)
      outer = r;
  }
  return nearest;
}

/// Builds flash.attention (and flash.attention_grad) for a proven candidate.
/// Rows without keys under a finite fill (finfo.min): the program's
/// scores there are all the fill, its probabilities 1 / Nk, its output the
/// average of V over every key. flash.attention gives 0 and lse = -inf on
/// them: `o` with those rows replaced by that average, computed (V's sum
/// over the keys) only where some row's lse is -inf. `v` is the op's V,
/// [kv batch..., Nk, Dv]; `o` [batch..., Nq, Dv], `lse` [batch..., Nq].
static Value averageEmptyRows(RewriterBase &rw, Location loc,
                              const ForwardFacts &f, Value o, Value lse,
                              Value v, SmallVectorImpl<Operation *> &made) {
  MLIRContext *ctx = rw.getContext();
  unsigned nb = f.numBatch;
  auto vt = cast<RankedTensorType>(v.getType());
  auto ot = cast<RankedTensorType>(o.getType());
  Type f32 = rw.getF32Type();
  Value negInf = arith::ConstantOp::create(
      rw, loc, rw.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  made.push_back(negInf.getDefiningOp());
  // Whether any row's lse is -inf.
  Value none = arith::ConstantIntOp::create(rw, loc, rw.getI1Type(), 0);
  made.push_back(none.getDefiningOp());
  auto anyEmpty0 = tensor::EmptyOp::create(rw, loc, ArrayRef<int64_t>{},
                                           rw.getI1Type());
  made.push_back(anyEmpty0);
  auto anyInit = linalg::FillOp::create(rw, loc, none, anyEmpty0.getResult());
  made.push_back(anyInit);
  unsigned lr = nb + 1;
  auto anyEmpty = linalg::GenericOp::create(
      rw, loc, anyInit.getResult(0).getType(), ValueRange{lse},
      anyInit.getResults(),
      ArrayRef<AffineMap>{AffineMap::getMultiDimIdentityMap(lr, ctx),
                          AffineMap::get(lr, 0, {}, ctx)},
      SmallVector<utils::IteratorType>(lr, utils::IteratorType::reduction),
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value e = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                        args[0], negInf);
        linalg::YieldOp::create(b, l,
                                ValueRange{arith::OrIOp::create(b, l, args[1], e)});
      });
  made.push_back(anyEmpty);
  auto any = tensor::ExtractOp::create(rw, loc, anyEmpty.getResult(0),
                                       ValueRange{});
  made.push_back(any);
  auto ifOp = scf::IfOp::create(rw, loc, TypeRange{ot}, any,
                                /*addThenBlock=*/true, /*addElseBlock=*/true);
  made.push_back(ifOp);
  {
    OpBuilder::InsertionGuard g(rw);
    rw.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(rw, loc, ValueRange{o});
    rw.setInsertionPointToStart(ifOp.thenBlock());
    // V's sum over the keys, in f32: [kv batch..., Dv].
    SmallVector<OpFoldResult> sumSizes;
    for (unsigned d = 0; d < nb; ++d)
      sumSizes.push_back(tensor::getMixedSize(rw, loc, v, d));
    sumSizes.push_back(tensor::getMixedSize(rw, loc, v, nb + 1));
    Value zero = arith::ConstantOp::create(rw, loc, rw.getF32FloatAttr(0));
    Value sumInit =
        linalg::FillOp::create(
            rw, loc, zero,
            ValueRange{tensor::EmptyOp::create(rw, loc, sumSizes, f32)})
            .getResult(0);
    SmallVector<AffineExpr> outIdx;
    for (unsigned d = 0; d < nb; ++d)
      outIdx.push_back(getAffineDimExpr(d, ctx));
    outIdx.push_back(getAffineDimExpr(nb + 1, ctx));
    SmallVector<utils::IteratorType> iters(nb + 2,
                                           utils::IteratorType::parallel);
    iters[nb] = utils::IteratorType::reduction;
    auto sum = linalg::GenericOp::create(
        rw, loc, sumInit.getType(), ValueRange{v}, ValueRange{sumInit},
        ArrayRef<AffineMap>{AffineMap::getMultiDimIdentityMap(nb + 2, ctx),
                            AffineMap::get(nb + 2, 0, outIdx, ctx)},
        iters, [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0];
          if (x.getType() != b.getF32Type())
            x = arith::ExtFOp::create(b, l, b.getF32Type(), x);
          linalg::YieldOp::create(
              b, l, ValueRange{arith::AddFOp::create(b, l, args[1], x)});
        });
    // Nk as f32.
    Value nk = arith::IndexCastOp::create(
        rw, loc, rw.getI64Type(), tensor::DimOp::create(rw, loc, v, nb));
    nk = arith::SIToFPOp::create(rw, loc, f32, nk);
    // o where lse > -inf, else the average: V's batch dims from o's (the
    // query heads' kv head: h floordiv G, or 0 for one kv head).
    unsigned rank = nb + 2;
    SmallVector<AffineExpr> vIdx, lseIdx;
    for (unsigned d = 0; d < nb; ++d) {
      AffineExpr e = getAffineDimExpr(d, ctx);
      if (d == nb - 1 && f.kvBroadcastHead)
        e = getAffineConstantExpr(0, ctx);
      else if (d == nb - 1 && f.group > 1)
        e = e.floorDiv(f.group);
      if (!vt.isDynamicDim(d) && vt.getDimSize(d) == 1)
        e = getAffineConstantExpr(0, ctx);
      vIdx.push_back(e);
      lseIdx.push_back(getAffineDimExpr(d, ctx));
    }
    vIdx.push_back(getAffineDimExpr(nb + 1, ctx));
    lseIdx.push_back(getAffineDimExpr(nb, ctx));
    Value init = tensor::EmptyOp::create(
        rw, loc, tensor::getMixedSizes(rw, loc, o), ot.getElementType());
    auto fixed = linalg::GenericOp::create(
        rw, loc, ot, ValueRange{o, lse, sum.getResult(0)}, ValueRange{init},
        ArrayRef<AffineMap>{AffineMap::getMultiDimIdentityMap(rank, ctx),
                            AffineMap::get(rank, 0, lseIdx, ctx),
                            AffineMap::get(rank, 0, vIdx, ctx),
                            AffineMap::getMultiDimIdentityMap(rank, ctx)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value empty = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                              args[1], negInf);
          Value avg = arith::DivFOp::create(b, l, args[2], nk);
          if (avg.getType() != args[0].getType())
            avg = arith::TruncFOp::create(b, l, args[0].getType(), avg);
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::SelectOp::create(b, l, empty, avg, args[0])});
        });
    scf::YieldOp::create(rw, loc, fixed->getResults());
  }
  return ifOp.getResult(0);
}

/// An elementwise linalg.generic over `ins` (one shape) into the first:
/// `body` of their elements. (All as inputs: the FX front reads a
/// generic's inputs back.)
static Value
elementwise(RewriterBase &rw, Location loc, ValueRange ins,
            SmallVectorImpl<Operation *> &made,
            function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  auto rank = cast<RankedTensorType>(ins[0].getType()).getRank();
  SmallVector<AffineMap> maps(
      ins.size() + 1, AffineMap::getMultiDimIdentityMap(rank, rw.getContext()));
  auto op = linalg::GenericOp::create(
      rw, loc, ins[0].getType(), ins, ValueRange{ins[0]}, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(b, l, ValueRange{body(b, l, args)});
      });
  made.push_back(op);
  return op.getResult(0);
}

Reason emit(RewriterBase &rw, Candidate &c) {
  ForwardFacts &f = c.facts;
  Location loc = c.op->getLoc();
  Operation *rootDef = c.root.getDefiningOp();
  Block *block = rootDef->getBlock();
  SmallVector<Value> leaves{f.q.tensor, f.k.tensor, f.v.tensor};
  if (f.mask)
    leaves.push_back(f.mask->tensor);
  // A mask rebuilt from an expression reads its tensors where it is built:
  // after their definitions (a constant defined after the scores' product
  // was used before it).
  if (f.maskExpr) {
    SmallVector<const Expr *> reads;
    collectReads(f.maskExpr, reads);
    for (const Expr *r : reads)
      leaves.push_back(r->tensor);
  }
  // The modifiers' captured operands: every tensor they read, and the
  // sizes they use (tensor.dim below, captured as scalars).
  SmallVector<Value> captures;
  SmallVector<Value> sizes(c.mb->symbols.size());
  llvm::SetVector<unsigned> sizesUsed;
  for (const Expr *m : {f.scoreMod, f.maskMod}) {
    if (!m)
      continue;
    collectTensors(m, captures);
    std::function<void(const Expr *)> symbolsOf = [&](const Expr *e) {
      for (AffineExpr x : e->index)
        x.walk([&](AffineExpr s) {
          if (auto sym = dyn_cast<AffineSymbolExpr>(s))
            if (sym.getPosition() < c.mb->symbols.size())
              sizesUsed.insert(sym.getPosition());
        });
      for (const Expr *o : e->ops)
        symbolsOf(o);
    };
    symbolsOf(m);
  }
  for (unsigned s : sizesUsed)
    leaves.push_back(c.mb->symbols[s].first);
  for (Value cv : captures) {
    if (!isa<RankedTensorType>(cv.getType()) &&
        !isa<FloatType, IntegerType, IndexType>(cv.getType()))
      return "a score or mask modifier reads a value that is neither a "
             "tensor nor a scalar";
    leaves.push_back(cv);
  }
  OpBuilder::InsertionGuard guard(rw);
  if (Operation *last = lastDefinition(block, leaves))
    rw.setInsertionPointAfter(last);
  else
    rw.setInsertionPointToStart(block);
  SmallVector<Operation *> made;
  auto fail = [&](Reason r) {
    for (Operation *op : llvm::reverse(made))
      if (op->use_empty())
        rw.eraseOp(op);
    return r;
  };
  unsigned nb = f.numBatch;
  MLIRContext *ctx = rw.getContext();
  // Batch sizes from Q.
  SmallVector<OpFoldResult> batchSize;
  for (unsigned b = 0; b < nb; ++b) {
    auto it = llvm::find_if(f.q.dims, [&](DimRole r) {
      return r.kind == DimRole::Batch && r.batch == b;
    });
    // A unit batch dim Q reads at 0.
    batchSize.push_back(it == f.q.dims.end()
                            ? OpFoldResult(rw.getIndexAttr(1))
                            : tensor::getMixedSize(rw, loc, f.q.tensor,
                                                   it - f.q.dims.begin()));
  }
  auto batchTargets = [&](bool kv) {
    SmallVector<Target> t;
    for (unsigned b = 0; b < nb; ++b)
      t.push_back({{DimRole::Batch, b},
                   kv && b == nb - 1 && (f.kvBroadcastHead || f.group > 1)
                       ? OpFoldResult()
                       : batchSize[b]});
    return t;
  };
  SmallVector<Target> qt = batchTargets(false), kt = batchTargets(true),
                      vt = batchTargets(true);
  qt.append({{{DimRole::Query}, {}}, {{DimRole::Head}, {}}});
  kt.append({{{DimRole::Key}, {}}, {{DimRole::Head}, {}}});
  vt.append({{{DimRole::Key}, {}}, {{DimRole::Value}, {}}});
  Value q = materialize(rw, loc, f.q, qt, made);
  Value k = materialize(rw, loc, f.k, kt, made);
  Value v = materialize(rw, loc, f.v, vt, made);
  Value mask;
  if (f.mask) {
    // One tensor: right-aligned broadcast; use it when its dims line up.
    SmallVector<DimRole> want;
    for (unsigned b = 0; b < nb; ++b)
      want.push_back({DimRole::Batch, b});
    want.push_back({DimRole::Query});
    want.push_back({DimRole::Key});
    ArrayRef<DimRole> have = f.mask->dims;
    bool aligned = have.size() <= want.size();
    for (size_t k2 = 0; aligned && k2 < have.size(); ++k2) {
      DimRole h = have[have.size() - 1 - k2];
      aligned &= h.kind == DimRole::Unit ||
                 sameRole(h, want[want.size() - 1 - k2]);
    }
    if (aligned) {
      mask = f.mask->tensor;
      // A per-key mask [Nk]: the op takes rank >= 2, so [1, Nk].
      auto mt = cast<RankedTensorType>(mask.getType());
      if (mt.getRank() < 2) {
        SmallVector<int64_t> shape(2 - mt.getRank(), 1);
        llvm::append_range(shape, mt.getShape());
        SmallVector<OpFoldResult> sizes(2 - mt.getRank(), rw.getIndexAttr(1));
        llvm::append_range(sizes, tensor::getMixedSizes(rw, loc, mask));
        SmallVector<ReassociationIndices> re;
        if (mt.getRank() == 1)
          re.push_back({0, 1});
        auto e = tensor::ExpandShapeOp::create(
            rw, loc, RankedTensorType::get(shape, mt.getElementType()), mask,
            re, sizes);
        made.push_back(e);
        mask = e;
      }
    } else {
      SmallVector<Target> mt;
      for (DimRole r : want)
        mt.push_back({r, {}});
      mask = materialize(rw, loc, *f.mask, mt, made);
    }
  } else if (f.maskExpr) {
    // An expression of tensors: one generic over [batch..., Nq, Nk] (unit
    // where it does not vary).
    SmallVector<unsigned> dims(f.maskDims);
    dims.push_back(f.jName);
    SmallVector<OpFoldResult> sizes;
    for (auto [t, d] : llvm::enumerate(dims)) {
      if (!f.maskExpr->dependsOn(d))
        sizes.push_back(rw.getIndexAttr(1));
      else if (t < nb)
        sizes.push_back(batchSize[t]);
      else if (t == nb)
        sizes.push_back(tensor::getMixedSize(rw, loc, q, nb));
      else
        sizes.push_back(tensor::getMixedSize(rw, loc, k, nb));
    }
    Type elt = f.maskIsKeep ? Type(rw.getI1Type()) : Type(rw.getF32Type());
    mask = materializeExpr(rw, loc, f.maskExpr, dims, sizes, elt, made);
    if (!mask)
      return fail("the mask reads values the raise cannot recompute");
  }
  // Mixed element types: compute in the widest of the inputs' and the
  // output's (extf copies are O(N * D)); the output is converted back.
  auto rootTy = cast<RankedTensorType>(c.root.getType());
  Type outElt = rootTy.getElementType();
  Type et = getElementTypeOrSelf(v.getType());
  auto wider = [](Type a, Type b) {
    unsigned x = a.getIntOrFloatBitWidth(), y = b.getIntOrFloatBitWidth();
    return x > y || (x == y && b.isBF16() && !a.isBF16());
  };
  if (getElementTypeOrSelf(q.getType()) != et ||
      getElementTypeOrSelf(k.getType()) != et || outElt != et) {
    Type w = outElt;
    for (Value x : {q, k, v})
      if (wider(getElementTypeOrSelf(x.getType()), w))
        w = getElementTypeOrSelf(x.getType());
    if (w.getIntOrFloatBitWidth() == 16 && outElt != w)
      w = Float32Type::get(rw.getContext());
    for (Value *x : {&q, &k, &v}) {
      Value cv = convertElements(rw, loc, *x, w);
      if (cv != *x)
        made.push_back(cv.getDefiningOp());
      *x = cv;
    }
    et = w;
  }
  SmallVector<OpFoldResult> oSizes = tensor::getMixedSizes(rw, loc, q);
  oSizes.back() = tensor::getMixedSize(rw, loc, v, nb + 1);
  Value init = tensor::EmptyOp::create(rw, loc, oSizes, et);
  made.push_back(init.getDefiningOp());
  bool average = f.emptyRowsAverage || f.emptyRowsFromTensors;
  bool needLse = !c.lseUses.empty() || c.backward || average;
  Value lseInit;
  SmallVector<Type, 2> resultTypes{init.getType()};
  if (needLse) {
    SmallVector<OpFoldResult> ls(oSizes.begin(), oSizes.end() - 1);
    lseInit = tensor::EmptyOp::create(rw, loc, ls, rw.getF32Type());
    made.push_back(lseInit.getDefiningOp());
    resultTypes.push_back(lseInit.getType());
  }
  FloatAttr scale = rw.getF32FloatAttr(static_cast<float>(f.scale));
  for (unsigned s : sizesUsed) {
    auto dim = tensor::DimOp::create(rw, loc, c.mb->symbols[s].first,
                                     c.mb->symbols[s].second);
    made.push_back(dim);
    sizes[s] = dim;
    captures.push_back(dim);
  }
  // Scalars (a runtime scale or cap, a size) are captured as 0-d tensors.
  SmallVector<Value> captureOperands;
  for (Value cv : captures) {
    if (isa<RankedTensorType>(cv.getType())) {
      captureOperands.push_back(cv);
      continue;
    }
    auto t = tensor::FromElementsOp::create(
        rw, loc, RankedTensorType::get({}, cv.getType()), ValueRange{cv});
    made.push_back(t);
    captureOperands.push_back(t);
  }
  // The regions, over (batch..., i, j) of the model.
  SmallVector<unsigned> modDims(f.canonical.begin(),
                                f.canonical.begin() + nb + 1);
  modDims.push_back(f.jName);
  UnitAttr causal = f.causalOffset || f.causalDefaultOffset
                        ? rw.getUnitAttr()
                        : nullptr;
  IntegerAttr offset =
      f.causalOffset ? rw.getI64IntegerAttr(*f.causalOffset) : nullptr;
  auto attn = AttentionOp::create(rw, loc, resultTypes, q, k, v, mask,
                                  captureOperands, /*descales=*/ValueRange(),
                                  init, lseInit, scale, causal, offset);
  made.push_back(attn);
  if (f.scoreMod &&
      failed(buildModifier(rw, loc, attn.getScoreMod(), f.scoreMod, f.score,
                           modDims, captures, captureOperands, sizes)))
    return fail("the score modifier uses an operation the raise cannot "
                "rebuild in a score_mod region");
  if (f.maskMod &&
      failed(buildModifier(rw, loc, attn.getMaskMod(), f.maskMod, nullptr,
                           modDims, captures, captureOperands, sizes)))
    return fail("the mask uses an operation the raise cannot rebuild in a "
                "mask_mod region");
  {
    // Check silently: a mismatch is a reason not to raise, not an error.
    std::string msg;
    ScopedDiagnosticHandler silence(ctx, [&](Diagnostic &d) {
      if (msg.empty())
        msg = d.str();
      return success();
    });
    if (failed(mlir::verify(attn)))
      return fail("the operands do not form a valid flash.attention (" + msg +
                  ")");
  }
  Value o = attn.getResult();
  if (average)
    o = averageEmptyRows(rw, loc, f, o, attn.getLse(), v, made);
  // The output in the root's layout and type.
  SmallVector<int64_t> perm;
  for (unsigned d = 0; d < rootTy.getRank(); ++d)
    perm.push_back(llvm::find(f.canonical, d) - f.canonical.begin());
  LeafLayout ol{o, {}};
  for (unsigned b = 0; b < nb; ++b)
    ol.dims.push_back({DimRole::Batch, b});
  ol.dims.push_back({DimRole::Query});
  ol.dims.push_back({DimRole::Value});
  SmallVector<Target> rt;
  for (int64_t p : perm)
    rt.push_back({ol.dims[p], {}});
  Value out = materialize(rw, loc, ol, rt, made);
  out = convertElements(rw, loc, out, outElt);
  if (out.getType() != c.root.getType())
    out = tensor::CastOp::create(rw, loc, c.root.getType(), out);
  // The program's constant factor on the output, then the product's init
  // added as the program's op accumulated into it (where that op was: the
  // init may be defined after the leaves).
  if (f.outputScale != 1) {
    auto et = cast<FloatType>(getElementTypeOrSelf(out.getType()));
    out = elementwise(rw, loc, {out}, made,
                      [&](OpBuilder &b, Location l, ValueRange args) {
                        // (In f32 at least: the constant not rounded to
                        // bf16.)
                        FloatType wt = et.getWidth() < 32 ? b.getF32Type() : et;
                        Value x = args[0];
                        if (wt != et)
                          x = arith::ExtFOp::create(b, l, wt, x);
                        x = arith::MulFOp::create(
                            b, l, x,
                            arith::ConstantOp::create(
                                b, l, b.getFloatAttr(wt, f.outputScale)));
                        if (wt != et)
                          x = arith::TruncFOp::create(b, l, et, x);
                        return x;
                      });
  }
  if (c.accumulator) {
    OpBuilder::InsertionGuard atRoot(rw);
    rw.setInsertionPoint(rootDef);
    out = elementwise(rw, loc, {out, c.accumulator}, made,
                      [&](OpBuilder &b, Location l, ValueRange args) {
                        return arith::AddFOp::create(b, l, args[1], args[0]);
                      });
  }
  // lse uses: [batch..., i] laid out as each use.
  SmallVector<std::pair<Value, Value>> lseRepl;
  for (auto &[use, rows] : c.lseUses) {
    auto ut = cast<RankedTensorType>(use.getType());
    LeafLayout ll{attn.getLse(), {}};
    for (unsigned b = 0; b < nb; ++b)
      ll.dims.push_back({DimRole::Batch, b});
    ll.dims.push_back({DimRole::Query});
    SmallVector<Target> ut2;
    for (int64_t d = 0; d < ut.getRank(); ++d) {
      AffineExpr me = getAffineDimExpr(kSecondDims + d, ctx);
      DimRole role{DimRole::Unit};
      for (auto [rootDim, e] : rows)
        if (e == me) {
          unsigned pos = llvm::find(f.canonical, rootDim) - f.canonical.begin();
          role = ll.dims[pos];
        }
      if (role.kind == DimRole::Unit && ut.getDimSize(d) != 1)
        return fail("the log-sum-exp is not laid out as [batch..., rows]");
      ut2.push_back({role, {}});
    }
    // Unit target dims have no source: materialize as a copy with size 1.
    Value l = materialize(rw, loc, ll, ut2, made);
    if (getElementTypeOrSelf(ut) != rw.getF32Type())
      l = convertElements(rw, loc, l, getElementTypeOrSelf(ut));
    if (l.getType() != use.getType())
      l = tensor::CastOp::create(rw, loc, use.getType(), l);
    lseRepl.push_back({use, l});
  }
  SmallVector<Operation *> roots{rootDef};
  if (c.backward) {
    Reason why = raise::emitBackward(rw, c.facts, *c.backward, attn, q, k, v,
                                     mask, made, roots);
    if (!why.empty())
      return fail(why);
  }
  for (auto [use, l] : lseRepl) {
    rw.replaceAllUsesWith(use, l);
    roots.push_back(use.getDefiningOp());
  }
  rw.replaceAllUsesWith(c.root, out);
  eraseDeadFrom(rw, roots);
  return "";
}

/// Leaves of the facts that the op cannot read where they are: those on the
/// model's scratch copy, and constants defined inside a payload (a dense
/// table next to its tensor.extract). Constants are cloned into the program
/// (at the start of the root's block), anything else is a reason not to
/// raise.
Reason adoptForeignLeaves(RewriterBase &rw, Candidate &c) {
  ForwardFacts &f = c.facts;
  ModelBuilder &mb = *c.mb;
  Operation *rootOp = c.root.getDefiningOp();
  Block *block = rootOp->getBlock();
  auto foreign = [&](Value v) {
    if (mb.isScratch(v))
      return true;
    Operation *d = v.getDefiningOp();
    return d && !d->getBlock()->findAncestorOpInBlock(*rootOp);
  };
  DenseMap<Value, Value> cloned;
  auto adopt = [&](Value v) -> Value {
    if (!v || !foreign(v))
      return v;
    auto it = cloned.find(v);
    if (it != cloned.end())
      return it->second;
    Operation *d = v.getDefiningOp();
    if (!d || d->getNumOperands() != 0 || d->getNumRegions() != 0)
      return Value();
    OpBuilder::InsertionGuard g(rw);
    rw.setInsertionPointToStart(block);
    Value n = rw.clone(*d)->getResult(cast<OpResult>(v).getResultNumber());
    cloned[v] = n;
    return n;
  };
  for (LeafLayout *l : {&f.q, &f.k, &f.v})
    if (!(l->tensor = adopt(l->tensor)))
      return "a query, key or value is computed on the TOSA copy in a way "
             "the raise cannot rebuild";
  if (f.mask && !(f.mask->tensor = adopt(f.mask->tensor)))
    return "the mask is computed in a way the raise cannot rebuild";
  // Every tensor an expression reads, adopted in it; false where one cannot
  // be.
  auto adoptReads = [&](const Expr *&e) {
    if (!e)
      return true;
    SmallVector<Value> tensors;
    collectTensors(e, tensors);
    for (Value t : tensors) {
      Value n = adopt(t);
      if (!n)
        return false;
      if (n != t)
        e = c.ec.replaceTensor(e, t, n);
    }
    return true;
  };
  if (!adoptReads(f.maskExpr))
    return "the mask is computed in a way the raise cannot rebuild";
  if (!adoptReads(f.scoreMod) || !adoptReads(f.maskMod))
    return "a score or mask modifier reads a tensor computed in a way the "
           "raise cannot rebuild";
  if (c.backward &&
      !(c.backward->dO.tensor = adopt(c.backward->dO.tensor)))
    return "dO is computed in a way the raise cannot rebuild";
  return "";
}

bool isCandidateOp(Operation *op) {
  if (isa<tosa::MatMulOp>(op))
    return true;
  auto l = dyn_cast<linalg::LinalgOp>(op);
  return l && l->getNumResults() == 1 && l.getNumReductionLoops() > 0 &&
         l.hasPureTensorSemantics() && !isa<linalg::SoftmaxOp>(op);
}

} // namespace

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

FailureOr<AttentionMatch> flash::matchAttention(Operation *op,
                                                std::string *reason) {
  if (!isCandidateOp(op))
    return failure();
  Candidate c(op);
  std::optional<Reason> r = analyze(c);
  if (!r || !r->empty()) {
    if (reason && r)
      *reason = *r;
    return failure();
  }
  AttentionMatch m;
  m.root = c.root;
  m.query = c.facts.q.tensor;
  m.key = c.facts.k.tensor;
  m.value = c.facts.v.tensor;
  m.mask = c.facts.mask ? c.facts.mask->tensor : Value();
  m.scale = c.facts.scale;
  m.causalOffset = c.facts.causalOffset;
  m.groupSize = c.facts.group;
  m.withBackward = c.backward.has_value();
  return m;
}

/// raiseAttention, also returning the ops a failed joint graph's backward
/// reached (their own remarks would only repeat this one's).
static FailureOr<Operation *>
raiseOne(RewriterBase &rewriter, Operation *op, std::string *reason,
         DenseMap<Operation *, SmallVector<Operation *>> *covered,
         bool averageEmptyRows = true) {
  if (!isCandidateOp(op))
    return failure();
  auto c = std::make_unique<Candidate>(op);
  std::optional<Reason> r = analyze(*c);
  // Without the average after the op (a front that maps the op alone back
  // to its framework): rows a mask of positions may leave without keys are
  // refused, those of a mask read from tensors taken as -inf.
  if (r && r->empty() && !averageEmptyRows) {
    c->facts.emptyRowsFromTensors = false;
    if (c->facts.emptyRowsAverage)
      r = "the mask fills with a finite stand-in for -inf (finfo.min, -1e9) "
          "and may leave rows without any key, where the program averages V "
          "uniformly (flash.attention gives 0; the average after the op is "
          "off: average-empty-rows=false)";
  }
  auto cover = [&]() {
    if (covered)
      for (Operation *o : c->covers)
        (*covered)[o].push_back(op);
  };
  if (!r)
    return failure();
  // A refused forward: the other candidates that read its softmax's
  // intermediates (the backward's products of a joint graph it did not
  // get to) are covered by its remark.
  if (covered && !r->empty() && c->mb) {
    // (Those past an op between them, dS's products; not the products of
    // the intermediates themselves, a P*V or P^T dO with a reason of its
    // own; not past this candidate's own product.)
    SmallVector<std::pair<Operation *, bool>> work;
    for (auto &entry : c->mb->visited) {
      Value v = entry.first;
      if (v.getDefiningOp() && v != c->root && !c->mb->isScratch(v) &&
          fromExponentials(v))
        for (Operation *u : v.getUsers())
          work.push_back({u, false});
    }
    DenseSet<Operation *> seen;
    while (!work.empty() && seen.size() < 256) {
      auto [u, past] = work.pop_back_val();
      if (u == op || u == c->root.getDefiningOp() || !seen.insert(u).second)
        continue;
      if (isCandidateOp(u)) {
        if (past)
          (*covered)[u].push_back(op);
        continue;
      }
      for (Value res : u->getResults())
        for (Operation *w : res.getUsers())
          work.push_back({w, true});
    }
  }
  // Leaves made on the scratch copy (a TOSA constant mask) or inside a
  // payload are cloned into the program; the scratch copies go before the
  // program changes.
  if (r->empty())
    r = adoptForeignLeaves(rewriter, *c);
  c->mb->releaseScratch();
  if (r->empty()) {
    // A backward that was proven but not emitted: its products are covered.
    if (c->backward)
      c->covers.append(c->backward->reached.begin(),
                       c->backward->reached.end());
    r = emit(rewriter, *c);
    if (r->empty())
      c->covers.clear();
  }
  cover();
  if (!r->empty()) {
    if (reason)
      *reason = *r;
    return failure();
  }
  return op;
}

FailureOr<Operation *> flash::raiseAttention(RewriterBase &rewriter,
                                             Operation *op,
                                             std::string *reason) {
  return raiseOne(rewriter, op, reason, nullptr);
}

namespace {
struct RaiseAttentionPattern : RewritePattern {
  RaiseAttentionPattern(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    std::string why;
    if (failed(flash::raiseAttention(rewriter, op, &why)))
      return rewriter.notifyMatchFailure(op, why.empty() ? "not attention"
                                                         : why);
    return success();
  }
};

struct FlashRaiseAttentionPass
    : flash::impl::FlashRaiseAttentionBase<FlashRaiseAttentionPass> {
  using FlashRaiseAttentionBase::FlashRaiseAttentionBase;

  void runOnOperation() override {
    SmallVector<Operation *> candidates;
    getOperation()->walk([&](Operation *op) {
      if (isCandidateOp(op))
        candidates.push_back(op);
    });
    // A raise erases other candidates (Q*K^T is a contraction too).
    struct ErasedTracker : RewriterBase::Listener {
      DenseSet<Operation *> erased;
      void notifyOperationErased(Operation *op) override { erased.insert(op); }
    } tracker;
    IRRewriter rewriter(&getContext(), &tracker);
    // Remarks are emitted at the end: a candidate whose probabilities also
    // feed a forward candidate that was analyzed (the backward's P^T dO of a
    // joint graph) is covered by that candidate's remark.
    SmallVector<std::pair<Operation *, std::string>> missed;
    for (Operation *op : candidates) {
      if (tracker.erased.contains(op))
        continue;
      std::string why;
      if (succeeded(raiseOne(rewriter, op, &why, &covered,
                             averageEmptyRows)) ||
          why.empty())
        continue;
      missed.push_back({op, why});
    }
    if (!report)
      return;
    // A covered candidate stays quiet only when one that covers it spoke.
    DenseSet<Operation *> spoken;
    for (auto &[op, why] : missed) {
      if (tracker.erased.contains(op))
        continue;
      auto it = covered.find(op);
      if (it != covered.end() &&
          llvm::any_of(it->second, [&](Operation *by) {
            return spoken.contains(by);
          }))
        continue;
      spoken.insert(op);
      emitRemark(op->getLoc()) << "attention not raised: " << why;
    }
  }

  /// Candidate -> the candidates whose failed joint graphs reached it.
  DenseMap<Operation *, SmallVector<Operation *>> covered;
};
} // namespace

void flash::populateRaiseAttentionPatterns(RewritePatternSet &patterns) {
  patterns.add<RaiseAttentionPattern>(patterns.getContext());
}
