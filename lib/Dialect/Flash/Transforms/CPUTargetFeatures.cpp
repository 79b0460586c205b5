//===- CPUTargetFeatures.cpp - target features of the CPU pipeline --------===//
//
// flash-cpu-target-features: `target_features` on every llvm.func
// definition (see Passes.td for why). Upstream's llvm-target-to-target-
// features fills an #llvm.target attribute from a TargetMachine; nothing
// upstream sets per-function features from a list, hence this pass.
//
//===----------------------------------------------------------------------===//

#include "flash/Dialect/Flash/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHCPUTARGETFEATURES
#include "flash/Dialect/Flash/Transforms/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;

namespace {
struct FlashCPUTargetFeaturesPass
    : flash::impl::FlashCPUTargetFeaturesBase<FlashCPUTargetFeaturesPass> {
  using FlashCPUTargetFeaturesBase::FlashCPUTargetFeaturesBase;

  void runOnOperation() override {
    if (features.empty())
      return;
    auto attr = LLVM::TargetFeaturesAttr::get(&getContext(), features);
    getOperation().walk([&](LLVM::LLVMFuncOp f) {
      if (!f.isExternal() && !f.getTargetFeaturesAttr())
        f.setTargetFeaturesAttr(attr);
    });
  }
};
} // namespace
