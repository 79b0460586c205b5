//===- GPULowerMath.cpp - exp2 / log2 of the kernels per target -----------===//
//
// flash-gpu-lower-math: the kernels' math.exp2 / math.log2 (and on NVVM
// exp, log, tanh, f32 division and square root) become the target's
// approximate, branch-free instructions (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToGPU/FlashToGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHGPULOWERMATH
#include "flash/Conversion/FlashToGPU/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;

namespace {
/// x (index arithmetic) computed in i32: the same operations on the i32
/// truncations of its leaves (positions, sizes, constants, captured
/// integers). Memoized in `done`; new operations right after the ones they
/// narrow.
Value narrowIndex(Value x, DenseMap<Value, Value> &done) {
  if (Value n = done.lookup(x))
    return n;
  Type i32 = IntegerType::get(x.getContext(), 32);
  Operation *def = x.getDefiningOp();
  OpBuilder b(x.getContext());
  if (def)
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(x).getOwner());
  Location loc = x.getLoc();
  Value n;
  IntegerAttr c;
  if (matchPattern(x, m_Constant(&c))) {
    n = arith::ConstantIntOp::create(b, loc, i32, c.getInt());
  } else if (def && def->getNumResults() == 1 &&
             isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::MaxSIOp,
                 arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp, arith::DivSIOp,
                 arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
                 arith::SelectOp, math::AbsIOp>(def)) {
    IRMapping map;
    for (Value o : def->getOperands())
      if (o.getType().isIndex())
        map.map(o, narrowIndex(o, done));
    // (The operands' i32 forms may come after def: the new operation goes
    // after the last of them.)
    for (Value o : def->getOperands())
      if (Operation *od = map.lookupOrDefault(o).getDefiningOp())
        if (od->getBlock() == def->getBlock() && def->isBeforeInBlock(od))
          b.setInsertionPointAfter(od);
    Operation *op = b.clone(*def, map);
    op->getResult(0).setType(i32);
    n = op->getResult(0);
  } else {
    n = arith::IndexCastOp::create(b, loc, i32, x);
  }
  done[x] = n;
  return n;
}

/// Integer-to-float conversions of index arithmetic (a score_mod's
/// positions: ALiBi's slope |i - j|, a relative bias's distance) in i32:
/// index is 64-bit on NVVM, where each of those operations is two
/// instructions and the conversion from 64 bits (cvt.rn.f32.u64 per score
/// in the ALiBi forward) runs on the units the softmax's exp2 needs. The
/// kernels' positions and sizes fit in i32 (relativeBound compares them in
/// 32 bits too). Our own: upstream's integer range narrowing
/// (arith-int-range-narrowing) needs bounds it cannot prove for runtime
/// sizes.
void narrowPositionConversions(Operation *root) {
  SmallVector<Operation *> convs;
  root->walk([&](Operation *op) {
    if (!isa<arith::SIToFPOp, arith::UIToFPOp>(op))
      return;
    Operation *cast = op->getOperand(0).getDefiningOp();
    if (cast && isa<arith::IndexCastOp, arith::IndexCastUIOp>(cast) &&
        cast->getOperand(0).getType().isIndex() &&
        cast->getResult(0).getType().getIntOrFloatBitWidth() >= 32)
      convs.push_back(op);
  });
  DenseMap<Value, Value> done;
  for (Operation *op : convs) {
    Value n =
        narrowIndex(op->getOperand(0).getDefiningOp()->getOperand(0), done);
    op->getOpOperand(0).set(n);
  }
}

struct FlashGPULowerMathPass
    : flash::impl::FlashGPULowerMathBase<FlashGPULowerMathPass> {
  using FlashGPULowerMathBase::FlashGPULowerMathBase;

  void runOnOperation() override {
    narrowPositionConversions(getOperation());
    // tanh (soft-capping score_mods) on NVIDIA: the SFU's tanh.approx.f32
    // (sm_75+, max relative error 2^-11, as FlashAttention-3 uses it),
    // instead of libdevice's exp-based tanhf: LLVM's tanh intrinsic with
    // afn, which the NVPTX backend selects as that instruction.
    if (target == flash::GPUMathTarget::NVVM) {
      SmallVector<math::TanhOp> tanhs;
      getOperation()->walk([&](math::TanhOp t) {
        if (t.getType().isF32())
          tanhs.push_back(t);
      });
      for (math::TanhOp t : tanhs) {
        OpBuilder b(t);
        auto op = LLVM::TanhOp::create(b, t.getLoc(), t.getOperand());
        op.setFastmathFlags(LLVM::FastmathFlags::afn);
        t.replaceAllUsesWith(op.getResult());
        t.erase();
      }
    }
    // Branch-free f32 arithmetic on NVIDIA. ptxas expands IEEE division and
    // square root (div.rn / sqrt.rn) into code with a data-dependent slow
    // path; between warpgroup MMAs (wgmma.*.sync.aligned, which need the
    // whole warpgroup converged) that divergence gave wrong results (a
    // score_mod's s / c in the backward, measured on the H200). With afn
    // they are div.approx / sqrt.approx (MUFU, <= 2 ulp). exp / log become
    // exp2 / log2 (below) instead of libdevice calls.
    if (target == flash::GPUMathTarget::NVVM) {
      auto afn = arith::FastMathFlags::afn;
      // x / c for a constant c (a soft-cap's s / cap, per score): x times
      // 1 / c, one FMUL (<= 1.5 ulp) where div.approx is MUFU.RCP + FMUL
      // (<= 2 ulp) and the RCP competes with the softmax's ex2 and the
      // tanh for the SFU.
      SmallVector<std::pair<arith::DivFOp, float>> byConstant;
      getOperation()->walk([&](arith::DivFOp d) {
        APFloat c(0.0f);
        if (!d.getType().isF32() ||
            !matchPattern(d.getRhs(), m_ConstantFloat(&c)) ||
            !c.isFiniteNonZero())
          return;
        // (1 / c rounded; not where it would overflow or be subnormal.)
        APFloat r(1.0f);
        r.divide(c, APFloat::rmNearestTiesToEven);
        if (r.isNormal())
          byConstant.push_back({d, r.convertToFloat()});
      });
      for (auto [d, r] : byConstant) {
        OpBuilder b(d);
        Value inv =
            arith::ConstantOp::create(b, d.getLoc(), b.getF32FloatAttr(r));
        d.replaceAllUsesWith(
            arith::MulFOp::create(b, d.getLoc(), d.getLhs(), inv).getResult());
        d.erase();
      }
      // (x c1) c2 with constants and an x c1 used only there: x (c1 c2),
      // one FMUL (the product rounded once instead of twice). A soft-cap
      // inlined into the kernel's scores is ((s scale) / cap), tanh, then
      // (t cap) log2 e: two multiplies per score instead of four. Not where
      // c1 c2 rounds to zero, a subnormal or infinity.
      auto constantF32 = [](Value v, APFloat &c) {
        return matchPattern(v, m_ConstantFloat(&c));
      };
      SmallVector<arith::MulFOp> products;
      getOperation()->walk([&](arith::MulFOp m) {
        if (m.getType().isF32())
          products.push_back(m);
      });
      for (arith::MulFOp outer : products) {
        APFloat c2(0.0f), c1(0.0f);
        Value inner = outer.getLhs();
        if (!constantF32(outer.getRhs(), c2)) {
          if (!constantF32(inner, c2))
            continue;
          inner = outer.getRhs();
        }
        auto m = inner.getDefiningOp<arith::MulFOp>();
        if (!m || !m->hasOneUse())
          continue;
        Value x = m.getLhs();
        if (!constantF32(m.getRhs(), c1)) {
          if (!constantF32(x, c1))
            continue;
          x = m.getRhs();
        }
        APFloat c = c1;
        // (Inexact is the point; overflow and underflow are not.)
        if ((c.multiply(c2, APFloat::rmNearestTiesToEven) &
             ~APFloat::opInexact) != APFloat::opOK ||
            !c.isNormal())
          continue;
        OpBuilder b(outer);
        Value k = arith::ConstantOp::create(
            b, outer.getLoc(), b.getF32FloatAttr(c.convertToFloat()));
        outer.getLhsMutable().assign(x);
        outer.getRhsMutable().assign(k);
        m.erase();
      }
      getOperation()->walk([&](Operation *op) {
        if (op->getNumResults() != 1 || !op->getResult(0).getType().isF32())
          return;
        if (auto d = dyn_cast<arith::DivFOp>(op))
          d.setFastmath(d.getFastmath() | afn);
        else if (auto r = dyn_cast<math::SqrtOp>(op))
          r.setFastmath(r.getFastmath() | afn);
      });
      SmallVector<Operation *> expLog;
      getOperation()->walk([&](Operation *op) {
        if (isa<math::ExpOp, math::LogOp>(op) &&
            op->getResult(0).getType().isF32())
          expLog.push_back(op);
      });
      for (Operation *op : expLog) {
        OpBuilder b(op);
        Location loc = op->getLoc();
        Value x = op->getOperand(0), r;
        if (isa<math::ExpOp>(op)) {
          Value log2e = arith::ConstantOp::create(
              b, loc, b.getF32FloatAttr(1.4426950408889634f));
          r = math::Exp2Op::create(b, loc,
                                   arith::MulFOp::create(b, loc, x, log2e),
                                   afn);
        } else {
          Value ln2 = arith::ConstantOp::create(
              b, loc, b.getF32FloatAttr(0.69314718055994531f));
          r = arith::MulFOp::create(b, loc, math::Log2Op::create(b, loc, x, afn),
                                    ln2);
        }
        op->getResult(0).replaceAllUsesWith(r);
        op->erase();
      }
    }
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<math::Exp2Op, math::Log2Op>(op) &&
          op->getResult(0).getType().isF32())
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value x = op->getOperand(0);
      bool isExp = isa<math::Exp2Op>(op);
      Value r;
      if (target == flash::GPUMathTarget::NVVM) {
        // The .ftz forms: without it ptxas guards every ex2 whose input it
        // cannot bound with a range check and two predicated multiplies
        // (FSETP, FMUL, MUFU.EX2, FMUL: four instructions where one does,
        // seen in sm_90a SASS), to give subnormal results. A softmax term
        // below 2^-126 of the row's largest, or a subnormal row sum (never:
        // the largest term is 1), changes nothing at f32 precision; the
        // FlashAttention kernels compile exp2 the same way (fast math).
        r = LLVM::CallIntrinsicOp::create(
                b, loc, b.getF32Type(),
                b.getStringAttr(isExp ? "llvm.nvvm.ex2.approx.ftz.f32"
                                      : "llvm.nvvm.lg2.approx.ftz.f"),
                ValueRange{x})
                .getResult(0);
      } else if (isExp) {
        Value ln2 = arith::ConstantOp::create(
            b, loc, b.getF32FloatAttr(0.69314718055994531f));
        r = math::ExpOp::create(b, loc, arith::MulFOp::create(b, loc, x, ln2));
      } else {
        Value log2e = arith::ConstantOp::create(
            b, loc, b.getF32FloatAttr(1.4426950408889634f));
        r = arith::MulFOp::create(b, loc, math::LogOp::create(b, loc, x),
                                  log2e);
      }
      op->getResult(0).replaceAllUsesWith(r);
      op->erase();
    }
  }
};
} // namespace
