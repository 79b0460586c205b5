// The target environment's resource limits (--flash-to-spirv options
// max-workgroup-memory, max-invocations, subgroup-size): written into the
// spirv.target_env, the SIMT kernels mapped to fit them (fewer keys per
// shared tile, fewer threads per block), a cooperative-matrix forward that
// does not fit replaced by the SIMT one, and a clear error at the flash op
// where nothing fits.
// RUN: flash-opt %s --split-input-file --flash-to-spirv=kernels-only=1 | FileCheck %s --check-prefix=DEF
// RUN: flash-opt %s --split-input-file --flash-to-spirv="kernels-only=1 max-workgroup-memory=65536 max-invocations=64" | FileCheck %s --check-prefix=BIG
// RUN: flash-opt %s --split-input-file --flash-to-spirv="kernels-only=1 caps=CooperativeMatrixKHR" | FileCheck %s --check-prefix=COOP32K
// RUN: flash-opt %s --split-input-file --flash-to-spirv="kernels-only=1 caps=CooperativeMatrixKHR max-workgroup-memory=49152" | FileCheck %s --check-prefix=COOP48K
// RUN: not flash-opt %s --split-input-file --flash-to-spirv="kernels-only=1 max-workgroup-memory=1000" 2>&1 | FileCheck %s --check-prefix=TINY
// RUN: not flash-opt %s --split-input-file --flash-to-spirv="kernels-only=1 caps=CooperativeMatrixKHR max-workgroup-memory=49152 subgroup-size=64" 2>&1 | FileCheck %s --check-prefix=SG64

// The d = 256 backward: 16 keys per tile need 32 KiB + 128 bytes in the
// dK/dV kernel (Q and dO tiles, f32), over the default 32 KiB: 8 keys.
// DEF-LABEL: func.func @grad_d256
// DEF: spirv.module {{.*}}#spirv.resource_limits<max_compute_shared_memory_size = 32768>
// DEF-NOT: 4096 x f32
// DEF: spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<2048 x f32>)>, Workgroup>
// DEF: spirv.ExecutionMode @flash_attention_grad_dq_0 "LocalSize", 128, 1, 1
// BIG-LABEL: func.func @grad_d256
// BIG: spirv.module {{.*}}max_compute_shared_memory_size = 65536, max_compute_workgroup_invocations = 64
// BIG: spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<4096 x f32>)>, Workgroup>
// BIG: spirv.ExecutionMode @flash_attention_grad_dq_0 "LocalSize", 64, 1, 1
// TINY: error: 'flash.attention_grad' op needs 2056 bytes of workgroup memory with one key per tile; the limit is 1000 (max-workgroup-memory)
func.func @grad_d256(%t: tensor<2x40x256xf32>, %l: tensor<2x40xf32>) -> tensor<2x40x256xf32> {
  %r:3 = flash.attention_grad ins(%t, %t, %t, %t, %l, %t : tensor<2x40x256xf32>,
      tensor<2x40x256xf32>, tensor<2x40x256xf32>, tensor<2x40x256xf32>, tensor<2x40xf32>,
      tensor<2x40x256xf32>) outs(%t, %t, %t : tensor<2x40x256xf32>, tensor<2x40x256xf32>,
      tensor<2x40x256xf32>) -> tensor<2x40x256xf32>, tensor<2x40x256xf32>, tensor<2x40x256xf32>
  return %r#0 : tensor<2x40x256xf32>
}

// -----

// The f16 d = 256 forward on cooperative matrices needs more than 32 KiB:
// the SIMT kernel under the default limit, the cooperative one under 48 KiB;
// it is written for 32-wide subgroups.
// COOP32K-LABEL: func.func @fwd_d256
// COOP32K: spirv.func @flash_attention_0() "None" attributes {flash.kernel_kind = "simt"
// COOP48K-LABEL: func.func @fwd_d256
// COOP48K: spirv.func @flash_attention_0() "None" attributes {flash.kernel_kind = "cooperative-matrix"
// COOP48K: spirv.KHR.CooperativeMatrixMulAdd
// SG64: error: kernel 'flash_attention_0' is written for 32-wide subgroups; the SPIR-V target's subgroup size is 64 (subgroup-size)
func.func @fwd_d256(%q: tensor<2x50x256xf16>) -> tensor<2x50x256xf16> {
  %o = tensor.empty() : tensor<2x50x256xf16>
  %r = flash.attention ins(%q, %q, %q : tensor<2x50x256xf16>,
           tensor<2x50x256xf16>, tensor<2x50x256xf16>)
       outs(%o : tensor<2x50x256xf16>) -> tensor<2x50x256xf16>
  return %r : tensor<2x50x256xf16>
}
