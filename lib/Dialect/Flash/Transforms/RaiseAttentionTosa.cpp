//===- RaiseAttentionTosa.cpp - TOSA attention -> flash.attention ---------===//
//
// The TOSA spelling of attention (3-D tensors [N, rows, cols]):
//
//   s = tosa.matmul(q, tosa.transpose(k, [0, 2, 1]))
//   x = tosa.mul(s, splat scale)            (optional)
//   x = tosa.add(x, mask)                   (optional)
//   m = tosa.reduce_max(x, axis = 2)        (absent in the unstabilized form)
//   e = tosa.exp(tosa.sub(x, m))            (or tosa.exp(x))
//   p = tosa.mul(e, tosa.reciprocal(tosa.reduce_sum(e, axis = 2)))
//   o = tosa.matmul(p, v)
//
//===----------------------------------------------------------------------===//

#include "RaiseAttention.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::raise;

bool raise::isTosaCandidate(Operation *op) { return isa<tosa::MatMulOp>(op); }

namespace {
/// The non-constant operand of a binary op whose other operand is a splat
/// constant, with that constant.
std::optional<std::pair<Value, double>> withConstant(Value a, Value b) {
  if (auto c = floatConstant(b))
    return std::make_pair(a, *c);
  if (auto c = floatConstant(a))
    return std::make_pair(b, *c);
  return std::nullopt;
}

bool isZeroShift(Value shift) {
  if (!shift)
    return true;
  APInt c;
  if (matchPattern(shift, m_ConstantInt(&c)))
    return c.isZero();
  DenseElementsAttr d;
  return matchPattern(shift, m_Constant(&d)) && d.isSplat() &&
         d.getSplatValue<APInt>().isZero();
}

/// p = softmax(x) along `axis`: returns x and the axis.
std::optional<std::pair<Value, int64_t>> matchTosaSoftmax(Value p) {
  auto mul = p.getDefiningOp<tosa::MulOp>();
  if (!mul || !isZeroShift(mul.getShift()))
    return std::nullopt;
  Value e = mul.getInput1(), r = mul.getInput2();
  if (!r.getDefiningOp<tosa::ReciprocalOp>())
    std::swap(e, r);
  auto rec = r.getDefiningOp<tosa::ReciprocalOp>();
  if (!rec)
    return std::nullopt;
  auto sum = rec.getInput1().getDefiningOp<tosa::ReduceSumOp>();
  if (!sum || sum.getInput() != e)
    return std::nullopt;
  int64_t axis = sum.getAxis();
  auto ex = e.getDefiningOp<tosa::ExpOp>();
  if (!ex)
    return std::nullopt;
  Value t = ex.getInput1();
  if (auto sub = t.getDefiningOp<tosa::SubOp>()) {
    auto mx = sub.getInput2().getDefiningOp<tosa::ReduceMaxOp>();
    if (mx && mx.getInput() == sub.getInput1() &&
        static_cast<int64_t>(mx.getAxis()) == axis)
      return std::make_pair(sub.getInput1(), axis);
  }
  return std::make_pair(t, axis); // unstabilized
}
} // namespace

std::optional<std::pair<Reason, Location>>
raise::raiseTosaAt(RewriterBase &rewriter, Operation *op) {
  auto pv = cast<tosa::MatMulOp>(op);
  Value p = pv.getA();
  auto sm = matchTosaSoftmax(p);
  if (!sm)
    return std::nullopt;
  Location loc = p.getDefiningOp()->getLoc();
  auto fail = [&](Reason r) { return std::make_pair(r, loc); };
  Value x = sm->first;
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  if (sm->second != rank - 1)
    return fail("softmax is over axis " + std::to_string(sm->second) +
                ", not the key axis (" + std::to_string(rank - 1) + ")");
  if (!p.hasOneUse())
    return fail("the probabilities have other uses than the P*V product");
  if (!isZeroShift(Value()) ||
      !matchPattern(pv.getAZp(), m_AnyZeroFloat()) ||
      !matchPattern(pv.getBZp(), m_AnyZeroFloat()))
    return fail("P*V has non-zero zero points");

  AttentionParts parts;
  // Scale and additive mask between Q*K^T and the softmax.
  while (true) {
    if (auto add = x.getDefiningOp<tosa::AddOp>()) {
      if (parts.mask)
        return fail("more than one additive mask");
      Value a = add.getInput1(), b = add.getInput2();
      // The scores are the operand that comes from a matmul or a mul.
      if (!a.getDefiningOp<tosa::MatMulOp>() && !a.getDefiningOp<tosa::MulOp>())
        std::swap(a, b);
      parts.mask = b;
      x = a;
      continue;
    }
    if (auto mul = x.getDefiningOp<tosa::MulOp>()) {
      auto c = withConstant(mul.getInput1(), mul.getInput2());
      if (!c || !isZeroShift(mul.getShift()))
        return fail("the scores are multiplied by something that varies per "
                    "element (not a constant scale)");
      if (parts.mask)
        return fail("the additive mask is scaled together with the scores");
      if (!(c->second > 0))
        return fail("the scale is not positive");
      parts.scale *= c->second;
      x = c->first;
      continue;
    }
    break;
  }
  auto qk = x.getDefiningOp<tosa::MatMulOp>();
  if (!qk)
    return fail("the input of Q*K^T is not a tosa.matmul");
  if (!x.hasOneUse())
    return fail("the scores have other uses than the softmax");
  parts.q = qk.getA();
  Value kt = qk.getB();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  if (auto tr = kt.getDefiningOp<tosa::TransposeOp>();
      tr && tr.getPerms() == ArrayRef<int32_t>{0, 2, 1}) {
    parts.k = tr.getInput1();
  } else {
    auto ty = cast<RankedTensorType>(kt.getType());
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, kt);
    std::swap(sizes[1], sizes[2]);
    Value e = tensor::EmptyOp::create(rewriter, loc, sizes,
                                      ty.getElementType());
    parts.k = linalg::TransposeOp::create(rewriter, loc, kt, e,
                                          ArrayRef<int64_t>{0, 2, 1})
                  .getResult()[0];
  }
  parts.v = pv.getB();
  return fail(buildAttention(rewriter, loc, parts, op, pv.getResult()));
}
