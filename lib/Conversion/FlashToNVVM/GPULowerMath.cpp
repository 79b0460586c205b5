//===- GPULowerMath.cpp - exp2 / log2 of the kernels per target -----------===//
//
// flash-gpu-lower-math: the kernels' math.exp2 / math.log2 become the
// target's approximate instructions (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToNVVM/FlashToNVVM.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHGPULOWERMATH
#include "flash/Conversion/FlashToNVVM/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;

namespace {
struct FlashGPULowerMathPass
    : flash::impl::FlashGPULowerMathBase<FlashGPULowerMathPass> {
  using FlashGPULowerMathBase::FlashGPULowerMathBase;

  void runOnOperation() override {
    if (target != "nvvm" && target != "spirv") {
      getOperation().emitError("flash-gpu-lower-math: unknown target '")
          << target << "' (nvvm or spirv)";
      return signalPassFailure();
    }
    // tanh (soft-capping score_mods) on NVIDIA: the SFU's tanh.approx.f32
    // (sm_75+, max relative error 2^-11, as FlashAttention-3 uses it),
    // instead of libdevice's exp-based tanhf; LLVM 22 has no intrinsic.
    if (target == "nvvm") {
      SmallVector<math::TanhOp> tanhs;
      getOperation()->walk([&](math::TanhOp t) {
        if (t.getType().isF32())
          tanhs.push_back(t);
      });
      for (math::TanhOp t : tanhs) {
        OpBuilder b(t);
        auto asmOp = LLVM::InlineAsmOp::create(
            b, t.getLoc(), b.getF32Type(), ValueRange{t.getOperand()},
            "tanh.approx.f32 $0, $1;", "=f,f", /*has_side_effects=*/false,
            /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
            LLVM::AsmDialectAttr::get(b.getContext(),
                                      LLVM::AsmDialect::AD_ATT),
            ArrayAttr());
        t.replaceAllUsesWith(asmOp.getResult(0));
        t.erase();
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
      if (target == "nvvm") {
        r = LLVM::CallIntrinsicOp::create(
                b, loc, b.getF32Type(),
                b.getStringAttr(isExp ? "llvm.nvvm.ex2.approx.f32"
                                      : "llvm.nvvm.lg2.approx.f"),
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
