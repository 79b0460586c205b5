//===- StaticKernelBuffers.cpp - Unbounded static types for kernel buffers ===//
//
// flash-static-kernel-buffers (Passes.td): dynamically sized buffers of
// gpu.launch_func (and, with `kernels`, of the kernels) as
// memref<kUnbounded x W x T>, for upstream's bare-pointer conventions.
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToGPU/FlashToGPU.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHSTATICKERNELBUFFERS
#include "flash/Conversion/FlashToGPU/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;

namespace {
/// The extent that stands for "any length": only the pointer is passed.
constexpr int64_t kUnbounded = 2147483647;

/// The static twin of a buffer whose leading dim alone is dynamic (identity
/// layout), or null.
MemRefType unboundedType(Type t) {
  auto ty = dyn_cast<MemRefType>(t);
  if (!ty || ty.getRank() == 0 || !ty.getLayout().isIdentity() ||
      !ty.isDynamicDim(0) ||
      llvm::any_of(ty.getShape().drop_front(), ShapedType::isDynamic))
    return {};
  SmallVector<int64_t> shape(ty.getShape());
  shape[0] = kUnbounded;
  return MemRefType::get(shape, ty.getElementType(), MemRefLayoutAttrInterface(),
                         ty.getMemorySpace());
}

struct FlashStaticKernelBuffersPass
    : flash::impl::FlashStaticKernelBuffersBase<FlashStaticKernelBuffersPass> {
  using FlashStaticKernelBuffersBase::FlashStaticKernelBuffersBase;

  void runOnOperation() override {
    WalkResult r = getOperation()->walk([&](gpu::LaunchFuncOp launch) {
      // Without `kernels`, a kernel still in IR would no longer match its
      // launch: that mode is for serialized kernels (gpu.binary).
      if (!kernels && SymbolTable::lookupNearestSymbolFrom<gpu::GPUFuncOp>(
                          launch, launch.getKernel())) {
        launch.emitOpError("launches a kernel still in IR; "
                           "flash-static-kernel-buffers{kernels=0} is for "
                           "serialized kernels (after gpu-module-to-binary)");
        return WalkResult::interrupt();
      }
      OpBuilder b(launch);
      SmallVector<Value> operands(launch.getKernelOperands());
      bool changed = false;
      for (Value &v : operands) {
        MemRefType ty = unboundedType(v.getType());
        if (!ty)
          continue;
        // Row-major strides of the static type (the dynamic one's).
        SmallVector<int64_t> strides(ty.getRank(), 1);
        for (int64_t i = ty.getRank() - 2; i >= 0; --i)
          strides[i] = strides[i + 1] * ty.getDimSize(i + 1);
        v = memref::ReinterpretCastOp::create(b, launch.getLoc(), ty, v,
                                              /*offset=*/0, ty.getShape(),
                                              strides);
        changed = true;
      }
      if (changed)
        launch.getKernelOperandsMutable().assign(operands);
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      return signalPassFailure();
    if (!kernels)
      return;
    getOperation()->walk([&](gpu::GPUFuncOp fn) {
      if (!fn.isKernel())
        return;
      Block &entry = fn.getBody().front();
      OpBuilder b(&entry, entry.begin());
      SmallVector<Type> inputs(fn.getFunctionType().getInputs());
      for (unsigned i = 0; i < inputs.size(); ++i) {
        MemRefType ty = unboundedType(inputs[i]);
        if (!ty)
          continue;
        BlockArgument arg = entry.getArgument(i);
        Type dynTy = arg.getType();
        arg.setType(ty);
        Value cast = memref::CastOp::create(b, fn.getLoc(), dynTy, arg);
        arg.replaceAllUsesExcept(cast, cast.getDefiningOp());
        inputs[i] = ty;
      }
      fn.setFunctionType(
          FunctionType::get(fn.getContext(), inputs,
                            fn.getFunctionType().getResults()));
    });
  }
};
} // namespace
