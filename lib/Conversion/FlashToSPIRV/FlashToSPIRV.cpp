//===- FlashToSPIRV.cpp - The --flash-to-spirv pipeline -------------------===//
//
// flash ops -> kernels + host glue (flash-map-to-gpu, shared with NVVM) ->
// exp2/log2 for SPIR-V (flash-gpu-lower-math) -> entry-point ABI and
// workgroup memory (flash-prepare-spirv-kernels) -> upstream: attach the
// Vulkan target environment, math/GPU to SPIR-V, ABI lowering, VCE
// triple. The result holds one spirv.module per gpu.module; serialize it
// with `mlir-translate --serialize-spirv`.
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToSPIRV/FlashToSPIRV.h"
#include "flash/Conversion/FlashToNVVM/FlashToNVVM.h"

#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRVPass.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHPREPARESPIRVKERNELS
#define GEN_PASS_REGISTRATION
#include "flash/Conversion/FlashToSPIRV/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;

namespace {
struct FlashPrepareSPIRVKernelsPass
    : flash::impl::FlashPrepareSPIRVKernelsBase<FlashPrepareSPIRVKernelsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    // The attached target, where the math and ABI conversions look for it.
    getOperation()->walk([&](gpu::GPUModuleOp m) {
      if (ArrayAttr targets = m.getTargetsAttr())
        for (Attribute t : targets)
          if (auto env = dyn_cast<spirv::TargetEnvAttr>(t))
            m->setAttr(spirv::getTargetEnvAttrName(), env);
    });
    auto workgroup =
        spirv::StorageClassAttr::get(ctx, spirv::StorageClass::Workgroup);
    WalkResult r = getOperation()->walk([&](gpu::GPUFuncOp f) {
      if (!f.isKernel())
        return WalkResult::advance();
      std::optional<ArrayRef<int32_t>> block = f.getKnownBlockSize();
      if (!block) {
        f.emitError("a SPIR-V kernel needs a known block size");
        return WalkResult::interrupt();
      }
      f->setAttr(spirv::getEntryPointABIAttrName(),
                 spirv::getEntryPointABIAttr(ctx, *block));
      Block &entry = f.getBody().front();
      OpBuilder b(&entry, entry.begin());
      unsigned first = f.getFirstWorkgroupAttributionIndex();
      unsigned n = f.getNumWorkgroupAttributions();
      for (unsigned i = 0; i < n; ++i) {
        BlockArgument arg = entry.getArgument(first);
        auto ty = cast<MemRefType>(arg.getType());
        auto wgTy = MemRefType::get(ty.getShape(), ty.getElementType(),
                                    MemRefLayoutAttrInterface(), workgroup);
        Value alloc = memref::AllocOp::create(b, arg.getLoc(), wgTy);
        // Only loads and stores use it: their types follow the operand.
        arg.replaceAllUsesWith(alloc);
        entry.eraseArgument(first);
      }
      f->setAttr(f.getNumWorkgroupAttributionsAttrName(),
                 b.getI64IntegerAttr(0));
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

void mlir::flash::buildFlashToSPIRVPipeline(
    OpPassManager &pm, const FlashToSPIRVOptions &options) {
  bool opencl = options.clientAPI == FlashToSPIRVOptions::ClientAPI::OpenCL;
  std::string version = options.version;
  GpuSPIRVAttachTargetOptions target;
  if (opencl) {
    target.spirvVersion = version.empty() ? "v1.0" : version;
    target.spirvCapabilities = {"Addresses", "Int64", "Kernel"};
    target.clientApi = "OpenCL";
  } else {
    target.spirvVersion = version.empty() ? "v1.3" : version;
    target.spirvCapabilities = {"Shader"};
    target.spirvExtensions = {"SPV_KHR_storage_buffer_storage_class"};
    target.clientApi = "Vulkan";
  }
  llvm::append_range(target.spirvCapabilities, options.caps);
  llvm::append_range(target.spirvExtensions, options.exts);

  pm.addPass(createFlashMapToGPU());
  pm.addNestedPass<gpu::GPUModuleOp>(
      createFlashGPULowerMath(FlashGPULowerMathOptions{"spirv"}));
  buildGPUHostPreparation(pm);
  pm.addPass(createGpuSPIRVAttachTarget(target));
  pm.addPass(createFlashPrepareSPIRVKernels());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertMathToSPIRVPass());
  pm.addPass(createConvertGPUToSPIRVPass(/*mapMemorySpace=*/true));
  // Vulkan: spirv.module beside the gpu.module; OpenCL: inside it.
  for (OpPassManager *spv :
       {&pm.nest<spirv::ModuleOp>(),
        &pm.nest<gpu::GPUModuleOp>().nest<spirv::ModuleOp>()}) {
    spv->addPass(spirv::createSPIRVLowerABIAttributesPass());
    spv->addPass(spirv::createSPIRVUpdateVCEPass());
  }
}

void mlir::flash::registerFlashToSPIRVPipeline() {
  registerFlashToSPIRVPasses();
  PassPipelineRegistration<FlashToSPIRVOptions>(
      "flash-to-spirv",
      "flash ops to host code + SPIR-V compute kernels for Vulkan (the "
      "kernels of the shared GPU mapping; no Vulkan runtime yet)",
      buildFlashToSPIRVPipeline);
}
