//===- CPUTargetFeatures.cpp - target features of the CPU pipeline --------===//
//
// flash-cpu-target-features: `target_cpu` and `target_features` on every
// llvm.func definition (see Passes.td for why); +avx512bf16 on those that
// call its intrinsics. Upstream's
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
    auto attrOf = [&](ArrayRef<std::string> l) {
      SmallVector<StringRef> refs(l.begin(), l.end());
      return l.empty() ? LLVM::TargetFeaturesAttr()
                       : LLVM::TargetFeaturesAttr::get(ctx, refs);
    };
    LLVM::TargetFeaturesAttr featuresAttr = attrOf(list);
    // A function that calls AVX512-BF16 intrinsics (flash-vectorize-bf16-dot)
    // cannot be compiled without the feature, whatever `features` says.
    SmallVector<std::string> bf16List(list);
    llvm::erase_if(bf16List, [](const std::string &h) {
      return StringRef(h).drop_front() == "avx512bf16";
    });
    bf16List.push_back("+avx512bf16");
    LLVM::TargetFeaturesAttr bf16Attr = attrOf(bf16List);
    getOperation().walk([&](LLVM::LLVMFuncOp f) {
      if (f.isExternal())
        return;
      if (!name.empty() && !f.getTargetCpuAttr())
        f.setTargetCpuAttr(StringAttr::get(ctx, name));
      if (f.getTargetFeaturesAttr())
        return;
      bool usesBF16 = f.walk([](LLVM::CallIntrinsicOp call) {
                         return call.getIntrin().starts_with(
                                    "llvm.x86.avx512bf16.")
                                    ? WalkResult::interrupt()
                                    : WalkResult::advance();
                       }).wasInterrupted();
      if (usesBF16)
        f.setTargetFeaturesAttr(bf16Attr);
      else if (featuresAttr)
        f.setTargetFeaturesAttr(featuresAttr);
    });
  }
};
} // namespace
