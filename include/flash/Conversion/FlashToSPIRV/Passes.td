//===- Passes.td - flash through SPIR-V ---------------------*- tablegen -*-===//

#ifndef FLASH_CONVERSION_FLASHTOSPIRV_PASSES_TD
#define FLASH_CONVERSION_FLASHTOSPIRV_PASSES_TD

include "mlir/Pass/PassBase.td"

def FlashPrepareSPIRVKernels
    : Pass<"flash-prepare-spirv-kernels", "::mlir::ModuleOp"> {
  let summary = "Make the kernels of flash-map-to-gpu convertible to SPIR-V";
  let description = [{
    Upstream's convert-gpu-to-spirv needs what the shared GPU mapping
    does not state (our own pass; upstream has no equivalent):

    - `spirv.target_env` on each gpu.module, from the SPIR-V target that
      spirv-attach-target put in its target list (the math conversion
      looks for the attribute);
    - `spirv.entry_point_abi` with the workgroup size, taken from the
      kernel's `known_block_size`;
    - workgroup memory as `memref.alloc` in the `Workgroup` storage class
      (it becomes a `spirv.GlobalVariable`) instead of `gpu.func`
      workgroup attributions, which it does not convert;
    - buffers only as kernel arguments (what the Vulkan runtime binds): the
      scalar arguments of a kernel (the runtime sizes of kernels for
      dynamic shapes) packed into one i32 buffer, its last argument, which
      each launch fills in host-shared memory.

    The resource limits given as options replace those of the target
    environment, and every kernel is checked against its target's limits
    (workgroup memory, invocations per workgroup, the 32-wide subgroups of
    the cooperative-matrix kernels), with an error at the kernel (the
    location of its flash op) rather than a driver failure at run time.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::spirv::SPIRVDialect"
  ];
  let options = [
    Option<"maxWorkgroupMemory", "max-workgroup-memory", "int64_t",
           /*default=*/"0",
           "max_compute_shared_memory_size in bytes (0: the target's)">,
    Option<"maxInvocations", "max-invocations", "int64_t", /*default=*/"0",
           "max_compute_workgroup_invocations (0: the target's)">,
    Option<"subgroupSize", "subgroup-size", "int64_t", /*default=*/"0",
           "subgroup_size (0: the target's)">
  ];
}

def FlashNestSPIRVModules
    : Pass<"flash-nest-spirv-modules", "::mlir::ModuleOp"> {
  let summary = "Move each Vulkan spirv.module into the gpu.module it was "
                "converted from";
  let description = [{
    For a Shader (Vulkan) target, convert-gpu-to-spirv places
    `spirv.module @__spv__<name>` beside `gpu.module @<name>`, where
    gpu-module-to-binary does not look for it. This pass moves it inside
    (as the OpenCL flavour already is), so that gpu-module-to-binary
    serializes it into the `gpu.binary` the host's launches load. Our own
    pass: upstream only does this in a test pass (test-convert-to-spirv's
    nest-in-gpu-module).
  }];
}

def FlashPinSPIRVVersion
    : Pass<"flash-pin-spirv-version", "::mlir::spirv::ModuleOp"> {
  let summary = "Keep a spirv.module at its target environment's SPIR-V "
                "version";
  let description = [{
    spirv-update-vce sets the module's version to the least its ops need,
    but from SPIR-V 1.4 on an entry point lists every global variable it
    uses (spirv-lower-abi-attrs writes them when the target is 1.4+), which
    an older version forbids. This pass (our own; upstream has no
    equivalent) raises the module's version back to the target's.
  }];
}

#endif // FLASH_CONVERSION_FLASHTOSPIRV_PASSES_TD
