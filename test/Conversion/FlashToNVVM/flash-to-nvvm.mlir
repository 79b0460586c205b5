// The whole pipeline: PTX for sm_80 and sm_90a (wgmma or mma.sync), and
// ptxas accepts both
// (format=bin runs ptxas from the CUDA toolkit).
// REQUIRES: ptxas
// RUN: flash-opt %s --flash-to-nvvm="chip=sm_80 features=+ptx70 format=isa" | FileCheck %s --check-prefix=PTX80
// RUN: flash-opt %s --flash-to-nvvm="chip=sm_90a features=+ptx80 format=isa" | FileCheck %s --check-prefix=PTX90
// RUN: flash-opt %s --flash-to-nvvm="chip=sm_90a features=+ptx80 format=isa wgmma=0" | FileCheck %s --check-prefix=PTX90MMA
// RUN: flash-opt %s --flash-to-nvvm="chip=sm_80 features=+ptx70 format=bin" | FileCheck %s --check-prefix=BIN
// RUN: flash-opt %s --flash-to-nvvm="chip=sm_90a features=+ptx80 format=bin" | FileCheck %s --check-prefix=BIN
// ptxas-options reach ptxas (default: -split-compile 0, the module's kernels
// on every core); none at all works too.
// RUN: flash-opt %s --flash-to-nvvm="chip=sm_90a features=+ptx80 format=bin ptxas-options=" | FileCheck %s --check-prefix=BIN
// RUN: not flash-opt %s --flash-to-nvvm="chip=sm_90a features=+ptx80 format=bin ptxas-options=-bogus" 2>&1 | FileCheck %s --check-prefix=PTXAS
// PTXAS: Unknown option 'bogus'
// bf16 with head dim 64 and no mask: the tensor-core forward.
// PTX80: gpu.binary @flash_kernels
// PTX80-SAME: .target sm_80
// PTX80-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// On sm_90a warpgroup MMA (wgmma) by default, mma.sync on request.
// PTX90: .target sm_90a
// PTX90-SAME: fence.proxy.async.shared::cta;
// PTX90-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// PTX90-NOT: mma.sync.aligned.m16n8k16
// PTX90MMA: .target sm_90a
// PTX90MMA-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// RUN: flash-opt %s --flash-to-nvvm="chip=sm_90a map-only=1" | FileCheck %s --check-prefix=MAP
// RUN: flash-opt %s --flash-to-nvvm="chip=sm_80 map-only=1" | FileCheck %s --check-prefix=MAP80
// map-only: the kernels as the pipeline maps them for the chip, unlowered.
// MAP: gpu.launch_func {{.*}} threads in (%c128
// MAP: flash.kernel_kind = "wgmma"
// MAP-NOT: gpu.binary
// MAP80: flash.kernel_kind = "mma.sync"
// BIN: llvm.call @mgpuStreamCreate
// BIN: gpu.launch_func
// BIN: gpu.binary @flash_kernels [#gpu.object<#nvvm.target<{{.*}}>, {{.*}}bin = "\7FELF
func.func @attention(%q: tensor<2x4x100x64xbf16>, %k: tensor<2x4x100x64xbf16>,
                     %v: tensor<2x4x100x64xbf16>) -> tensor<2x4x100x64xbf16> {
  %o = tensor.empty() : tensor<2x4x100x64xbf16>
  %r = flash.attention ins(%q, %k, %v : tensor<2x4x100x64xbf16>,
           tensor<2x4x100x64xbf16>, tensor<2x4x100x64xbf16>)
       outs(%o : tensor<2x4x100x64xbf16>) {causal} -> tensor<2x4x100x64xbf16>
  return %r : tensor<2x4x100x64xbf16>
}
