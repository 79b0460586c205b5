//===- WidenBF16.cpp - bf16 flash ops computed on f32 tensors -------------===//
//
// For targets that cannot hold bf16 in their buffers (SPIR-V without
// SPV_KHR_bfloat16): the flash op runs on f32 copies of its inputs and its
// results are rounded back to bf16. The kernels accumulate in f32 anyway,
// so this changes where the conversion happens, not the result.
//
//===----------------------------------------------------------------------===//

#include "flash/Dialect/Flash/Transforms/Passes.h"
#include "flash/Dialect/Flash/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHWIDENBF16
#include "flash/Dialect/Flash/Transforms/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;
using namespace mlir::flash;

Value flash::convertElements(OpBuilder &b, Location loc, Value t, Type elt) {
  auto ty = cast<RankedTensorType>(t.getType());
  Type from = ty.getElementType();
  if (from == elt)
    return t;
  bool wider =
      elt.getIntOrFloatBitWidth() > from.getIntOrFloatBitWidth() ||
      (elt.getIntOrFloatBitWidth() == from.getIntOrFloatBitWidth() &&
       from.isBF16());
  Value init = tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, t),
                                       elt);
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(ty.getRank()));
  SmallVector<utils::IteratorType> iters(ty.getRank(),
                                         utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{t}, ValueRange{init}, maps,
             iters,
             [&](OpBuilder &nb, Location l, ValueRange a) {
               Value c =
                   wider ? Value(arith::ExtFOp::create(nb, l, elt, a[0]))
                         : Value(arith::TruncFOp::create(nb, l, elt, a[0]));
               linalg::YieldOp::create(nb, l, c);
             })
      .getResult(0);
}

namespace {

/// Whether `v`'s elements are a type these patterns widen.
bool isNarrow(Value v, bool includeF16) {
  Type t = getElementTypeOrSelf(v.getType());
  return t.isBF16() || (includeF16 && t.isF16());
}

/// An empty f32 tensor shaped like `t`.
Value f32Init(OpBuilder &b, Location loc, Value t) {
  return tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, t),
                                 b.getF32Type());
}

/// Copies the score_mod / mask_mod regions of `from` into `to`.
template <typename OpTy>
void cloneModifiers(OpTy from, OpTy to) {
  IRMapping map;
  from.getScoreMod().cloneInto(&to.getScoreMod(), map);
  from.getMaskMod().cloneInto(&to.getMaskMod(), map);
}

/// The op on f32 copies of its narrow inputs, with f32 outs; results in op
/// order.
SmallVector<Value> buildWide(AttentionOp op, OpBuilder &b,
                             function_ref<Value(Value)> wide) {
  Location loc = op.getLoc();
  Value out = f32Init(b, loc, op.getOutput());
  auto w = AttentionOp::create(
      b, loc,
      op.getLse() ? TypeRange{out.getType(), op.getLse().getType()}
                  : TypeRange{out.getType()},
      wide(op.getQuery()), wide(op.getKey()), wide(op.getValue()), op.getMask(),
      op.getCaptures(), op.getDescales(), out, op.getLseInit(),
      op.getScaleAttr(), op.getCausalAttr(), op.getCausalOffsetAttr());
  cloneModifiers(op, w);
  return SmallVector<Value>(w->getResults());
}

SmallVector<Value> buildWide(AttentionGradOp op, OpBuilder &b,
                             function_ref<Value(Value)> wide) {
  Location loc = op.getLoc();
  Value dq = f32Init(b, loc, op.getGradQueryInit());
  Value dk = f32Init(b, loc, op.getGradKeyInit());
  Value dv = f32Init(b, loc, op.getGradValueInit());
  auto w = AttentionGradOp::create(
      b, loc, TypeRange{dq.getType(), dk.getType(), dv.getType()},
      wide(op.getQuery()), wide(op.getKey()), wide(op.getValue()),
      wide(op.getOutput()), op.getLse(), wide(op.getGradOutput()),
      op.getMask(), op.getCaptures(), dq, dk, dv, op.getScaleAttr(),
      op.getCausalAttr(), op.getCausalOffsetAttr(),
      op.getDeterministicAttr());
  cloneModifiers(op, w);
  return SmallVector<Value>(w->getResults());
}

/// A flash op on narrow tensors -> the same op on f32 copies, each result
/// converted back to its original element type (lse stays f32).
template <typename OpT>
struct WidenOp : OpRewritePattern<OpT> {
  WidenOp(MLIRContext *ctx, bool includeF16, bool widenBF16)
      : OpRewritePattern<OpT>(ctx), includeF16(includeF16),
        widenBF16(widenBF16) {}
  bool includeF16, widenBF16;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    if (!isNarrow(op.getQuery(), includeF16))
      return rewriter.notifyMatchFailure(op, "not a narrow float op");
    if (!widenBF16 && getElementTypeOrSelf(op.getQuery().getType()).isBF16())
      return rewriter.notifyMatchFailure(op, "bf16 op left as is");
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    SmallVector<Value> wideResults = buildWide(op, rewriter, [&](Value v) {
      return convertElements(rewriter, loc, v, f32);
    });
    SmallVector<Value> repl;
    for (auto [orig, w] : llvm::zip(op->getResults(), wideResults))
      repl.push_back(convertElements(rewriter, loc, w,
                                     getElementTypeOrSelf(orig.getType())));
    rewriter.replaceOp(op, repl);
    return success();
  }
};

struct FlashWidenBF16Pass
    : flash::impl::FlashWidenBF16Base<FlashWidenBF16Pass> {
  using FlashWidenBF16Base::FlashWidenBF16Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateWidenBF16Patterns(patterns, includeF16, widenForward,
                              widenBackward);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

void flash::populateWidenBF16Patterns(RewritePatternSet &patterns,
                                      bool includeF16, bool widenForward,
                                      bool widenBackward) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<WidenOp<AttentionOp>>(ctx, includeF16, widenForward);
  patterns.add<WidenOp<AttentionGradOp>>(ctx, includeF16, widenBackward);
}
