//===- ExpandFP8.cpp - f8E4M3FN conversions as integer arithmetic ---------===//
//
// e4m3 ("FN": no infinities, one NaN per sign, S.1111.111) has 4 exponent
// bits (bias 7) and 3 mantissa bits. Placing its 7 magnitude bits at bits
// 20..26 of an f32 gives an f32 whose exponent field is e and whose top
// mantissa bits are m, i.e. 2^(e-127) (1 + m/8) or, for e = 0, the f32
// subnormal (m/8) 2^-126; both are the e4m3 value times 2^-120 exactly, so
// one multiplication by 2^120 converts normals and subnormals alike. The
// reverse rounds the f32 mantissa to 3 bits (nearest even) with the same
// placement, and rounds magnitudes below 2^-6 (e4m3's subnormals) as the
// integer |x| * 2^9.
//
// Upstream's arith-expand has such patterns for f8E8M0 and f4E2M1 only.
//
//===----------------------------------------------------------------------===//

#include "flash/Dialect/Flash/Transforms/Passes.h"
#include "flash/Dialect/Flash/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHEXPANDFP8
#include "flash/Dialect/Flash/Transforms/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;

namespace {

bool isE4M3(Type t) { return isa<Float8E4M3FNType>(getElementTypeOrSelf(t)); }

/// `t` (a scalar or vector type) with element type `elt`.
Type withElement(Type t, Type elt) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.clone(elt);
  return elt;
}

/// Scalar-or-vector constants and ops of one shape.
struct Lanes {
  OpBuilder &b;
  Location loc;
  Type like; // any type of the shape

  Value i32(int64_t v) {
    return constant(b.getI32Type(), b.getI32IntegerAttr(v));
  }
  Value f32(float v) { return constant(b.getF32Type(), b.getF32FloatAttr(v)); }
  Value constant(Type elt, TypedAttr scalar) {
    Type t = withElement(like, elt);
    if (auto v = dyn_cast<VectorType>(t))
      return arith::ConstantOp::create(b, loc,
                                       DenseElementsAttr::get(v, scalar));
    return arith::ConstantOp::create(b, loc, scalar);
  }
  Type type(Type elt) { return withElement(like, elt); }
};

/// extf f8E4M3FN -> f32, then to the result type.
struct ExpandExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    if (!isE4M3(op.getIn().getType()))
      return rewriter.notifyMatchFailure(op, "not an f8E4M3FN source");
    Location loc = op.getLoc();
    Lanes c{rewriter, loc, op.getType()};
    Value bits = arith::BitcastOp::create(
        rewriter, loc, c.type(rewriter.getI8Type()), op.getIn());
    Value u = arith::ExtUIOp::create(rewriter, loc,
                                     c.type(rewriter.getI32Type()), bits);
    Value mag = arith::AndIOp::create(rewriter, loc, u, c.i32(0x7F));
    Value sign = arith::ShLIOp::create(
        rewriter, loc, arith::AndIOp::create(rewriter, loc, u, c.i32(0x80)),
        c.i32(24));
    Value placed = arith::ShLIOp::create(rewriter, loc, mag, c.i32(20));
    Value f = arith::BitcastOp::create(rewriter, loc,
                                       c.type(rewriter.getF32Type()), placed);
    f = arith::MulFOp::create(rewriter, loc, f, c.f32(0x1p120f));
    Value fb = arith::BitcastOp::create(rewriter, loc,
                                        c.type(rewriter.getI32Type()), f);
    // S.1111.111 is NaN: an f32 NaN with the same sign and payload (the
    // bits APFloat gives).
    Value isNaN = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        mag, c.i32(0x7F));
    fb = arith::SelectOp::create(rewriter, loc, isNaN, c.i32(0x7FF00000), fb);
    fb = arith::OrIOp::create(rewriter, loc, fb, sign);
    f = arith::BitcastOp::create(rewriter, loc, c.type(rewriter.getF32Type()),
                                 fb);
    Type res = getElementTypeOrSelf(op.getType());
    if (!res.isF32())
      f = res.getIntOrFloatBitWidth() > 32
              ? Value(arith::ExtFOp::create(rewriter, loc, op.getType(), f))
              : Value(arith::TruncFOp::create(rewriter, loc, op.getType(), f));
    rewriter.replaceOp(op, f);
    return success();
  }
};

/// truncf (through f32) -> f8E4M3FN, round to nearest even, NaN above 448.
struct ExpandTruncF : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    if (!isE4M3(op.getType()))
      return rewriter.notifyMatchFailure(op, "not an f8E4M3FN result");
    if (op.getRoundingmodeAttr() && op.getRoundingmodeAttr().getValue() !=
                                        arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "only round to nearest even");
    Location loc = op.getLoc();
    Lanes c{rewriter, loc, op.getType()};
    Value x = op.getIn();
    Type f32 = c.type(rewriter.getF32Type()),
         i32 = c.type(rewriter.getI32Type());
    Type srcElt = getElementTypeOrSelf(x.getType());
    if (!srcElt.isF32())
      x = srcElt.getIntOrFloatBitWidth() > 32
              ? Value(arith::TruncFOp::create(rewriter, loc, f32, x))
              : Value(arith::ExtFOp::create(rewriter, loc, f32, x));
    auto ci = [&](int64_t v) { return c.i32(v); };
    Value bits = arith::BitcastOp::create(rewriter, loc, i32, x);
    Value sign = arith::AndIOp::create(
        rewriter, loc, arith::ShRUIOp::create(rewriter, loc, bits, ci(24)),
        ci(0x80));
    Value a = arith::AndIOp::create(rewriter, loc, bits, ci(0x7FFFFFFF));
    // Normal range: round bit 20 to nearest even, rebias 127 -> 7; NaN (0x7F)
    // for everything that rounds past 448 (infinities and NaNs included).
    Value lsb = arith::AndIOp::create(
        rewriter, loc, arith::ShRUIOp::create(rewriter, loc, a, ci(20)), ci(1));
    Value r = arith::AddIOp::create(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, a, ci(0x7FFFF)),
        lsb);
    r = arith::SubIOp::create(rewriter, loc, r, ci(120 << 23));
    r = arith::ShRUIOp::create(rewriter, loc, r, ci(20));
    r = arith::MinUIOp::create(rewriter, loc, r, ci(0x7F));
    // Below 2^-6: the integer nearest |x| * 2^9 (0..8; 8 is 2^-6's code).
    Value absX = arith::BitcastOp::create(rewriter, loc, f32, a);
    Value sub = math::RoundEvenOp::create(
        rewriter, loc,
        arith::MulFOp::create(rewriter, loc, absX, c.f32(512.0f)));
    sub = arith::FPToUIOp::create(rewriter, loc, i32, sub);
    Value small = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, a, ci(121 << 23));
    r = arith::SelectOp::create(rewriter, loc, small, sub, r);
    r = arith::OrIOp::create(rewriter, loc, r, sign);
    Value b8 =
        arith::TruncIOp::create(rewriter, loc, c.type(rewriter.getI8Type()), r);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), b8);
    return success();
  }
};

struct FlashExpandFP8Pass
    : flash::impl::FlashExpandFP8Base<FlashExpandFP8Pass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    flash::populateExpandFP8Patterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // What is left cannot reach LLVM: say so here, at the op.
    WalkResult r = getOperation()->walk([](arith::TruncFOp op) {
      if (!isE4M3(op.getType()))
        return WalkResult::advance();
      op.emitOpError("to f8E4M3FN rounds to nearest even only on this "
                     "target");
      return WalkResult::interrupt();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

void mlir::flash::populateExpandFP8Patterns(RewritePatternSet &patterns) {
  patterns.add<ExpandExtF, ExpandTruncF>(patterns.getContext());
}
