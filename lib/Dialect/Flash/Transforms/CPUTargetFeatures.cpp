//===- CPUTargetFeatures.cpp - target features of the CPU pipeline --------===//
//
// flash-cpu-target-features: `target_cpu` and `target_features` on every
// llvm.func definition (see Passes.td for why). Upstream's
// llvm-target-to-target-features fills an #llvm.target attribute from a
// TargetMachine; nothing upstream sets the host's CPU and features on
// functions, hence this pass.
//
//===----------------------------------------------------------------------===//

#include "flash/Dialect/Flash/Transforms/CPUTarget.h"
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
    MLIRContext *ctx = &getContext();
    std::string name = cpu == "host" ? flash::hostCPUName() : cpu;
    SmallVector<std::string> list;
    if (cpu == "host")
      list = flash::hostCPUFeatures();
    for (StringRef f : llvm::split(features, ',')) {
      f = f.trim();
      if (f.empty())
        continue;
      // An explicit +x / -x replaces the host's entry for x.
      llvm::erase_if(list, [&](const std::string &h) {
        return StringRef(h).drop_front() == f.drop_front();
      });
      list.push_back(f.str());
    }
    SmallVector<StringRef> refs(list.begin(), list.end());
    auto featuresAttr = list.empty()
                            ? LLVM::TargetFeaturesAttr()
                            : LLVM::TargetFeaturesAttr::get(ctx, refs);
    getOperation().walk([&](LLVM::LLVMFuncOp f) {
      if (f.isExternal())
        return;
      if (!name.empty() && !f.getTargetCpuAttr())
        f.setTargetCpuAttr(StringAttr::get(ctx, name));
      if (featuresAttr && !f.getTargetFeaturesAttr())
        f.setTargetFeaturesAttr(featuresAttr);
    });
  }
};
} // namespace
