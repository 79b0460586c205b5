//===- FlashToSPIRV.cpp - The --flash-to-spirv pipeline -------------------===//
//
// flash ops -> kernels + host glue (flash-map-to-gpu, shared with NVVM) ->
// exp2/log2 for SPIR-V (flash-gpu-lower-math) -> entry-point ABI and
// workgroup memory (flash-prepare-spirv-kernels) -> upstream: attach the
// Vulkan target environment, math/GPU to SPIR-V, ABI lowering, VCE
// triple -> the spirv.module inside its gpu.module
// (flash-nest-spirv-modules) -> gpu-module-to-binary and the host to LLVM
// with the Vulkan runtime's calling convention (bare pointers + sizes).
// `kernels-only` stops at the spirv.module (for inspection and spirv-val).
//
//===----------------------------------------------------------------------===//

#include "flash/Pipelines/FlashToSPIRV.h"
#include "GPUHostPreparation.h"
#include "flash/Conversion/FlashToGPU/FlashToGPU.h"
#include "flash/Conversion/FlashToSPIRV/FlashToSPIRV.h"
#include "flash/Dialect/Flash/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRVPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::flash::buildFlashToSPIRVPipeline(
    OpPassManager &pm, const FlashToSPIRVPipelineOptions &options) {
  bool opencl = options.clientAPI == FlashToSPIRVPipelineOptions::ClientAPI::OpenCL;
  std::string version = options.version;
  GpuSPIRVAttachTargetOptions target;
  if (opencl) {
    target.spirvVersion = version.empty() ? "v1.0" : version;
    // f16 arithmetic is optional in OpenCL: f16 ops are widened to f32
    // like bf16 ones.
    target.spirvCapabilities = {"Addresses", "Int64", "Kernel"};
    target.clientApi = "OpenCL";
  } else {
    // 1.4: entry points list every global they use, workgroup memory
    // included. Under 1.3 the H200's Vulkan driver took each kernel of a
    // module to use all of the module's workgroup variables: a forward and
    // backward at d = 128 (49 KB together) lost the device.
    target.spirvVersion = version.empty() ? "v1.4" : version;
    // f16 buffers natively (update-vce keeps only what a kernel uses);
    // bf16 ones are widened to f32 before the mapping (flash-widen-bf16).
    // Subgroup shuffles: the SIMT forward's threads of one query row sum
    // their partial scores. 64- and 8-bit integers: the modifier regions'
    // arithmetic and their captured operands (index staged as i64, i1 as
    // i8).
    target.spirvCapabilities = {"Shader",
                                "Float16",
                                "StorageBuffer16BitAccess",
                                "GroupNonUniformShuffle",
                                "Int64",
                                "Int8",
                                "StorageBuffer8BitAccess"};
    target.spirvExtensions = {"SPV_KHR_storage_buffer_storage_class",
                              "SPV_KHR_16bit_storage", "SPV_KHR_8bit_storage"};
    target.clientApi = "Vulkan";
  }
  // Resource limits: the kernels are mapped to fit them and checked
  // against them (the Vulkan runtime checks the device's again).
  FlashPrepareSPIRVKernelsOptions limits{
      options.maxWorkgroupMemory, options.maxInvocations, options.subgroupSize};
  llvm::append_range(target.spirvCapabilities, options.caps);
  llvm::append_range(target.spirvExtensions, options.exts);
  // A target with KHR cooperative matrices gets the f16 forward's products
  // on them (its extension implied by the capability; upstream's
  // conversion makes the ops available from SPIR-V 1.6, Vulkan 1.3).
  FlashMapToGPUOptions map;
  map.maxWorkgroupMemory = options.maxWorkgroupMemory;
  // Vulkan: several threads per query row, so that a thread's share of q
  // and o stays in registers (the NVIDIA Vulkan compiler spilled the
  // one-row-per-thread kernel at d = 128). OpenCL: one row per thread (no
  // subgroup shuffles in its SPIR-V 1.0).
  map.rowLanes = opencl ? 1 : options.rowLanes;
  map.gradRowLanes = opencl ? 1 : options.gradRowLanes;
  // The split-KV kernel: scalar loads (SPIR-V vectors have at most 4
  // elements), rows shared by at most 8 threads (lavapipe's subgroups; a
  // Vulkan device's have 8 to 64).
  map.splitKV = options.splitKV;
  map.splitKVBlocks = options.splitKVBlocks;
  map.vectorLoadBytes = 0;
  map.subgroupSize = 8;
  // No NVIDIA kernel kinds here (the pass is created without them).
  map.tensorCores = map.wgmma = false;
  map.threads = std::min<int64_t>(map.threads, options.maxInvocations);
  map.cooperativeMatrix =
      !opencl && llvm::is_contained(options.caps, "CooperativeMatrixKHR");
  if (map.cooperativeMatrix) {
    if (!llvm::is_contained(target.spirvExtensions,
                            "SPV_KHR_cooperative_matrix"))
      target.spirvExtensions.push_back("SPV_KHR_cooperative_matrix");
    if (version.empty())
      target.spirvVersion = "v1.6";
  }

  pm.addPass(createFlashWidenBF16(FlashWidenBF16Options{opencl}));
  pm.addPass(createFlashMapToGPU(map));
  pm.addNestedPass<gpu::GPUModuleOp>(
      createFlashGPULowerMath(FlashGPULowerMathOptions{GPUMathTarget::SPIRV}));
  buildGPUHostPreparation(pm);
  pm.addPass(createGpuSPIRVAttachTarget(target));
  pm.addPass(createFlashPrepareSPIRVKernels(limits));
  // The modifiers' block bounds round with floor/ceil divisions, which
  // SPIR-V has no instruction for.
  pm.addNestedPass<gpu::GPUModuleOp>(arith::createArithExpandOpsPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertMathToSPIRVPass());
  pm.addPass(createConvertGPUToSPIRVPass(/*mapMemorySpace=*/true));
  // Vulkan: convert-gpu-to-spirv put the spirv.module beside the
  // gpu.module; OpenCL: already inside it.
  if (!opencl)
    pm.addPass(createFlashNestSPIRVModules());
  OpPassManager &spv = pm.nest<gpu::GPUModuleOp>().nest<spirv::ModuleOp>();
  spv.addPass(spirv::createSPIRVLowerABIAttributesPass());
  spv.addPass(spirv::createSPIRVUpdateVCEPass());
  spv.addPass(createFlashPinSPIRVVersion());
  if (options.kernelsOnly)
    return;

  // The SPIR-V blob into gpu.binary, then the host to LLVM: launches call
  // mgpu* with (pointer, size) pairs, the Vulkan runtime's ABI.
  pm.addPass(createGpuModuleToBinaryPass());
  // Dynamically sized buffers: a static type for the host's launch ABI.
  pm.addPass(createFlashStaticKernelBuffers(
      FlashStaticKernelBuffersOptions{/*kernels=*/false}));
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  GpuToLLVMConversionPassOptions host;
  host.kernelBarePtrCallConv = true;
  host.kernelIntersperseSizeCallConv = true;
  pm.addPass(createGpuToLLVMConversionPass(host));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}
