//===- FlashToSPIRV.cpp - SPIR-V preparation of the GPU kernels -----------===//
//
// The passes --flash-to-spirv (lib/Pipelines) adds around upstream's GPU to
// SPIR-V conversion: flash-prepare-spirv-kernels (entry-point ABI,
// workgroup memory, scalar arguments, target limits),
// flash-nest-spirv-modules (the Vulkan spirv.module into its gpu.module)
// and flash-pin-spirv-version.
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToSPIRV/FlashToSPIRV.h"
#include "flash/Conversion/FlashToGPU/FlashToGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHPREPARESPIRVKERNELS
#define GEN_PASS_DEF_FLASHNESTSPIRVMODULES
#define GEN_PASS_DEF_FLASHPINSPIRVVERSION
#include "flash/Conversion/FlashToSPIRV/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;

namespace {
struct FlashPrepareSPIRVKernelsPass
    : flash::impl::FlashPrepareSPIRVKernelsBase<FlashPrepareSPIRVKernelsPass> {
  using FlashPrepareSPIRVKernelsBase::FlashPrepareSPIRVKernelsBase;

  /// `env` with the resource limits given as options.
  spirv::TargetEnvAttr withLimits(spirv::TargetEnvAttr env) {
    spirv::ResourceLimitsAttr l = env.getResourceLimits();
    auto pick = [](int64_t option, int current) {
      return option > 0 ? static_cast<int>(option) : current;
    };
    auto limits = spirv::ResourceLimitsAttr::get(
        env.getContext(),
        pick(maxWorkgroupMemory, l.getMaxComputeSharedMemorySize()),
        pick(maxInvocations, l.getMaxComputeWorkgroupInvocations()),
        l.getMaxComputeWorkgroupSize(), pick(subgroupSize, l.getSubgroupSize()),
        l.getMinSubgroupSize(), l.getMaxSubgroupSize(),
        l.getCooperativeMatrixPropertiesKhr(),
        l.getCooperativeMatrixPropertiesNv());
    return spirv::TargetEnvAttr::get(env.getTripleAttr(), limits,
                                     env.getClientAPI(), env.getVendorID(),
                                     env.getDeviceType(), env.getDeviceID());
  }

  /// The kernel against its target's limits.
  LogicalResult checkLimits(gpu::GPUFuncOp f, ArrayRef<int32_t> block) {
    spirv::ResourceLimitsAttr limits =
        spirv::lookupTargetEnvOrDefault(f).getResourceLimits();
    int64_t invocations = int64_t(block[0]) * block[1] * block[2];
    if (invocations > limits.getMaxComputeWorkgroupInvocations())
      return f.emitError("kernel '")
             << f.getName() << "' has " << invocations
             << " invocations per workgroup; the SPIR-V target allows "
             << limits.getMaxComputeWorkgroupInvocations()
             << " (max-invocations)";
    int64_t bytes = flash::workgroupBytes(f);
    if (bytes > limits.getMaxComputeSharedMemorySize())
      return f.emitError("kernel '")
             << f.getName() << "' needs " << bytes
             << " bytes of workgroup memory; the SPIR-V target allows "
             << limits.getMaxComputeSharedMemorySize()
             << " (max-workgroup-memory)";
    auto kind = f->getAttrOfType<StringAttr>("flash.kernel_kind");
    if (kind && kind.getValue() == "cooperative-matrix" &&
        limits.getSubgroupSize() != 32)
      return f.emitError("kernel '")
             << f.getName()
             << "' is written for 32-wide subgroups; the SPIR-V target's "
                "subgroup size is "
             << limits.getSubgroupSize() << " (subgroup-size)";
    return success();
  }

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    // The attached target, with the given limits, where the math and ABI
    // conversions look for it.
    getOperation()->walk([&](gpu::GPUModuleOp m) {
      ArrayAttr targets = m.getTargetsAttr();
      if (!targets)
        return;
      SmallVector<Attribute> updated(targets.begin(), targets.end());
      for (Attribute &t : updated)
        if (auto env = dyn_cast<spirv::TargetEnvAttr>(t)) {
          t = withLimits(env);
          m->setAttr(spirv::getTargetEnvAttrName(), t);
        }
      m.setTargetsAttr(ArrayAttr::get(ctx, updated));
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
      // Upstream's type conversion would silently store unsupported
      // 16-bit floats as f32 ("emulation"): the host's buffers would be
      // misread. Refuse instead.
      spirv::TargetEnv target(spirv::lookupTargetEnvOrDefault(f));
      bool f16Buffers =
          target.allows(spirv::Capability::Float16) &&
          (target.allows(spirv::Capability::StorageBuffer16BitAccess) ||
           target.allows(spirv::Capability::Float16Buffer));
      for (Type t : f.getArgumentTypes()) {
        Type elt = getElementTypeOrSelf(t);
        if (elt.isBF16()) {
          f.emitError("a SPIR-V kernel cannot take bf16 buffers (run "
                      "flash-widen-bf16 before flash-map-to-gpu)");
          return WalkResult::interrupt();
        }
        if (elt.isF16() && !f16Buffers) {
          f.emitError("f16 buffers need the Float16 and "
                      "StorageBuffer16BitAccess (Vulkan) or Float16Buffer "
                      "(OpenCL) capabilities in the SPIR-V target "
                      "environment (or run flash-widen-bf16{include-f16})");
          return WalkResult::interrupt();
        }
      }
      if (failed(checkLimits(f, *block)))
        return WalkResult::interrupt();
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
      packScalars(f);
      return WalkResult::advance();
    });
    if (r.wasInterrupted())
      signalPassFailure();
  }

  /// The Vulkan runtime binds buffers only: a kernel's scalar arguments
  /// (the runtime sizes of flash-map-to-gpu's dynamic kernels) become one
  /// i32 buffer, its last argument, read at entry; each launch passes a
  /// host-shared buffer it fills (and frees after the launch's wait).
  void packScalars(gpu::GPUFuncOp f) {
    SmallVector<unsigned> scalars;
    for (auto [i, t] : llvm::enumerate(f.getArgumentTypes()))
      if (t.isIntOrIndex())
        scalars.push_back(i);
    if (scalars.empty())
      return;
    MLIRContext *ctx = f.getContext();
    Type i32 = IntegerType::get(ctx, 32);
    auto bufTy = MemRefType::get({static_cast<int64_t>(scalars.size())}, i32);
    Location loc = f.getLoc();
    unsigned last = f.getNumArguments();
    if (failed(f.insertArgument(last, bufTy, DictionaryAttr(), loc)))
      return;
    Block &entry = f.getBody().front();
    OpBuilder b(&entry, entry.begin());
    Value buf = entry.getArgument(last);
    llvm::BitVector erase(f.getNumArguments());
    for (auto [k, i] : llvm::enumerate(scalars)) {
      BlockArgument arg = entry.getArgument(i);
      Value x = memref::LoadOp::create(
          b, loc, buf,
          ValueRange{arith::ConstantIndexOp::create(b, loc, k)});
      Value v = arg.getType().isIndex()
                    ? arith::IndexCastOp::create(b, loc, arg.getType(), x)
                          .getResult()
                    : x;
      arg.replaceAllUsesWith(v);
      erase.set(i);
    }
    (void)f.eraseArguments(erase);

    auto module = f->getParentOfType<gpu::GPUModuleOp>();
    getOperation()->walk([&](gpu::LaunchFuncOp launch) {
      if (launch.getKernelModuleName() != module.getName() ||
          launch.getKernelName() != f.getName())
        return;
      OpBuilder hb(launch);
      Location hl = launch.getLoc();
      Value host = gpu::AllocOp::create(hb, hl, bufTy, Type(), ValueRange{},
                                        ValueRange{}, ValueRange{},
                                        hb.getUnitAttr())
                       .getMemref();
      SmallVector<Value> operands;
      for (auto [i, v] : llvm::enumerate(launch.getKernelOperands())) {
        auto at = llvm::find(scalars, i);
        if (at == scalars.end()) {
          operands.push_back(v);
          continue;
        }
        Value x = v.getType().isIndex()
                      ? arith::IndexCastOp::create(hb, hl, i32, v).getResult()
                      : v;
        memref::StoreOp::create(
            hb, hl, x, host,
            ValueRange{arith::ConstantIndexOp::create(
                hb, hl, std::distance(scalars.begin(), at))});
      }
      operands.push_back(host);
      launch.getKernelOperandsMutable().assign(operands);
      // Freed once the launch is waited for.
      Value token = launch.getAsyncToken();
      Operation *wait = nullptr;
      if (token)
        for (Operation *u : token.getUsers())
          if (isa<gpu::WaitOp>(u))
            wait = u;
      OpBuilder ab = wait ? OpBuilder(wait->getBlock(), ++wait->getIterator())
                          : OpBuilder(launch->getBlock(),
                                      ++launch->getIterator());
      auto tokTy = gpu::AsyncTokenType::get(ctx);
      Value t = gpu::WaitOp::create(ab, hl, tokTy, ValueRange{}).getAsyncToken();
      t = gpu::DeallocOp::create(ab, hl, tokTy, ValueRange{t}, host)
              .getAsyncToken();
      gpu::WaitOp::create(ab, hl, Type(), ValueRange{t});
    });
  }
};

struct FlashNestSPIRVModulesPass
    : flash::impl::FlashNestSPIRVModulesBase<FlashNestSPIRVModulesPass> {
  void runOnOperation() override {
    ModuleOp top = getOperation();
    for (auto spv : llvm::make_early_inc_range(top.getOps<spirv::ModuleOp>())) {
      std::optional<StringRef> name = spv.getName();
      if (!name || !name->starts_with("__spv__"))
        continue;
      auto gpuMod = top.lookupSymbol<gpu::GPUModuleOp>(name->drop_front(7));
      if (!gpuMod) {
        spv.emitError("no gpu.module '")
            << name->drop_front(7) << "' to move this module into";
        return signalPassFailure();
      }
      spv->moveBefore(&gpuMod.getBody()->front());
    }
  }
};
struct FlashPinSPIRVVersionPass
    : flash::impl::FlashPinSPIRVVersionBase<FlashPinSPIRVVersionPass> {
  void runOnOperation() override {
    spirv::ModuleOp m = getOperation();
    std::optional<spirv::VerCapExtAttr> vce = m.getVceTriple();
    spirv::TargetEnvAttr target = spirv::lookupTargetEnvOrDefault(m);
    if (!vce || vce->getVersion() >= target.getVersion())
      return;
    m.setVceTripleAttr(spirv::VerCapExtAttr::get(
        IntegerAttr::get(IntegerType::get(&getContext(), 32),
                         static_cast<uint32_t>(target.getVersion())),
        vce->getCapabilitiesAttr(), vce->getExtensionsAttr()));
  }
};
} // namespace
