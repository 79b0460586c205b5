//===- TensorCoreKernels.cpp - The tensor-core kernels as kernel kinds ----===//
//
// The NVVM library's kernel kinds for flash-map-to-gpu (with its
// `tensor-cores`): f16/bf16 forward and backward on mma.sync (sm_80+) or,
// with `wgmma` and a head dim that is a multiple of 64, on Hopper's
// warpgroup MMA. The kernels: MmaKernels.cpp (forward), MmaGradKernels.cpp
// (dQ, dK/dV).
//
//===----------------------------------------------------------------------===//

#include "TensorCoreKernels.h"
#include "flash/Conversion/FlashToNVVM/FlashToNVVM.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

Value gpukernels::anyInTile(
    OpBuilder &b, Location loc, Value t, Value t2, int64_t nTiles,
    function_ref<Value(OpBuilder &, Location, Value, int)> seen) {
  Value any = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
  for (int64_t nt = 0; nt < nTiles; ++nt)
    for (int64_t j = 0; j < 2; ++j) {
      Value pos = arith::AddIOp::create(
          b, loc, t,
          arith::AddIOp::create(
              b, loc, t2, arith::ConstantIndexOp::create(b, loc, nt * 8 + j)));
      for (int r = 0; r < 2; ++r)
        any = arith::OrIOp::create(b, loc, any, seen(b, loc, pos, r));
    }
  Value p = arith::ExtUIOp::create(b, loc, b.getI32Type(), any);
  Value red = NVVM::BarrierOp::create(
                  b, loc, b.getI32Type(), Value(), Value(),
                  NVVM::BarrierReductionAttr::get(b.getContext(),
                                                  NVVM::BarrierReduction::OR),
                  p)
                  .getRes();
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne, red,
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0));
}

namespace {
struct TensorCoreKind : KernelKind {
  bool applies(KernelSpec &s, const FlashMapToGPUOptions &o,
               bool backward) const override {
    if (!o.tensorCores ||
        !(backward ? mmaGradApplies(s) : mmaForwardApplies(s)))
      return false;
    s.wgmma = o.wgmma && wgmmaApplies(s);
    s.mmaMaxRegisters = o.mmaMaxRegisters;
    chooseMmaTiles(s, o.mmaWarps, o.mmaTileKV, backward);
    return true;
  }

  FailureOr<SmallVector<MappedKernel>>
  build(OpBuilder &b, Operation *op, ArrayRef<std::string> names,
        KernelSpec &s, const FlashMapToGPUOptions &,
        bool backward) const override {
    StringRef kind = s.wgmma ? "wgmma" : "mma.sync";
    int64_t threads = mmaThreads(s), rows = mmaRowsPerBlock(s);
    Location loc = op->getLoc();
    if (!backward)
      return SmallVector<MappedKernel>{
          {buildForwardMmaKernel(b, loc, names[0], s), threads, rows, kind}};
    return SmallVector<MappedKernel>{
        {buildGradQMmaKernel(b, loc, names[0], s), threads, rows, kind},
        {buildGradKVMmaKernel(b, loc, names[1], s), threads, rows, kind}};
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect,
                    nvgpu::NVGPUDialect>();
  }
};
} // namespace

KernelKinds flash::tensorCoreKernelKinds() {
  return {std::make_shared<TensorCoreKind>()};
}
