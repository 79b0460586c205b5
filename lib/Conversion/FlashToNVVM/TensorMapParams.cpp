//===- TensorMapParams.cpp - Tensor maps as 128-byte kernel parameters ----===//
//
// flash-tensor-map-params (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToNVVM/FlashToNVVM.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHTENSORMAPPARAMS
#include "flash/Conversion/FlashToNVVM/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;

namespace {
struct FlashTensorMapParamsPass
    : flash::impl::FlashTensorMapParamsBase<FlashTensorMapParamsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    WalkResult r = getOperation()->walk([&](LLVM::LLVMFuncOp fn) {
      auto params = fn->getAttrOfType<DenseI64ArrayAttr>("flash.tensor_maps");
      if (!params)
        return WalkResult::advance();
      // CUtensorMap: 16 opaque i64 words.
      auto map = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 64), 16);
      for (int64_t i : params.asArrayRef()) {
        if (i < 0 || i >= fn.getNumArguments() ||
            !isa<LLVM::LLVMPointerType>(fn.getArgument(i).getType())) {
          fn.emitOpError("flash.tensor_maps names parameter ")
              << i << ", which is not a pointer";
          return WalkResult::interrupt();
        }
        fn.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                      TypeAttr::get(map));
        fn.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                      IntegerAttr::get(IntegerType::get(ctx, 64), 64));
        fn.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                      UnitAttr::get(ctx));
      }
      fn->removeAttr("flash.tensor_maps");
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
