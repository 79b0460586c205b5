// The forward and backward kernels of the shared GPU mapping as SPIR-V for
// Vulkan and in the OpenCL (Kernel) flavour; every module serializes and
// passes spirv-val for its environment.
// `kernels-only` stops at the spirv.modules (inside their gpu.modules); the
// full pipeline then serializes them into gpu.binary and lowers the host
// (HOST prefix).
// RUN: flash-opt %s --split-input-file --flash-to-spirv=kernels-only=1 | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-to-spirv=kernels-only=1 | %python %S/spirv_val.py vulkan1.2 | FileCheck %s --check-prefix=VAL
// RUN: flash-opt %s --split-input-file --flash-to-spirv="client-api=opencl kernels-only=1" | FileCheck %s --check-prefix=CL
// RUN: flash-opt %s --split-input-file --flash-to-spirv="client-api=opencl kernels-only=1" | %python %S/spirv_val.py opencl2.0 | FileCheck %s --check-prefix=VAL
// RUN: flash-opt %s --split-input-file --flash-to-spirv | FileCheck %s --check-prefix=HOST
// REQUIRES: spirv-val
// VAL-COUNT-4: __spv__flash_kernels: {{[0-9]+}} bytes, spirv-val ok

// CL: gpu.module @flash_kernels
// CL:   spirv.module @__spv__flash_kernels Physical{{32|64}} OpenCL
// CL-NOT: GroupNonUniformShuffle
// CL:     spirv.CL.exp
// CL:     spirv.EntryPoint "Kernel" @flash_attention_0

// Host: each launch passes (pointer, size in bytes) per buffer, the ABI of
// libflash_vulkan_runtime.so; the kernels are one SPIR-V blob.
// HOST-LABEL: llvm.func @gqa_causal
// HOST: llvm.call @mgpuMemAlloc
// HOST: gpu.launch_func <%{{.*}} : !llvm.ptr> @flash_kernels::@flash_attention_0 {{.*}} args(%{{.*}} : !llvm.ptr, %{{.*}} : i64, %{{.*}} : !llvm.ptr, %{{.*}} : i64,
// HOST: gpu.binary @flash_kernels [#gpu.object<#spirv.target_env<{{.*}}api=Vulkan

// CHECK-LABEL: func.func @gqa_causal
// CHECK: gpu.launch_func {{.*}} @flash_kernels::@flash_attention_0
// CHECK: gpu.module @flash_kernels
// SPIR-V 1.4 (flash-pin-spirv-version keeps it there): each entry point
// lists the globals it uses, its workgroup memory included, so a driver
// need not assume every kernel of the module uses all of it.
// CHECK: spirv.module @__spv__flash_kernels Logical GLSL450 requires #spirv.vce<v1.4,
// CHECK-DAG: spirv.GlobalVariable @flash_attention_0_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<51200 x f32, stride=4> [0])>, StorageBuffer>
// CHECK-DAG: spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<1024 x f32>)>, Workgroup>
// d = 64: two threads per query row (row-lanes), 64 rows per block of 128,
// each thread's partial score of a key completed by one xor shuffle.
// CHECK: spirv.func @flash_attention_0
// CHECK:   spirv.ControlBarrier <Workgroup>, <Workgroup>
// CHECK:   spirv.GroupNonUniformShuffleXor <Subgroup> %{{.*}}, %{{.*}} : f32, i32
// CHECK:   spirv.GL.Exp
// CHECK:   spirv.GL.Log
// CHECK: spirv.EntryPoint "GLCompute" @flash_attention_0, {{.*}}@__workgroup_mem__
// CHECK: spirv.ExecutionMode @flash_attention_0 "LocalSize", 128, 1, 1
func.func @gqa_causal(%q: tensor<2x4x100x64xf32>, %k: tensor<2x2x130x64xf32>,
                      %v: tensor<2x2x130x64xf32>) -> tensor<2x4x100x64xf32> {
  %o = tensor.empty() : tensor<2x4x100x64xf32>
  %r = flash.attention ins(%q, %k, %v : tensor<2x4x100x64xf32>,
           tensor<2x2x130x64xf32>, tensor<2x2x130x64xf32>)
       outs(%o : tensor<2x4x100x64xf32>) {causal} -> tensor<2x4x100x64xf32>
  return %r : tensor<2x4x100x64xf32>
}

// -----

// f16 buffers are stored as f16 (16-bit storage), not emulated as f32.
// CHECK-LABEL: func.func @grad_f16
// CHECK: spirv.module @__spv__flash_kernels {{.*}}requires #spirv.vce<{{.*}}Float16{{.*}}StorageBuffer16BitAccess
// CHECK: spirv.GlobalVariable @flash_attention_grad_dq_0_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<{{[0-9]+}} x f16, stride=2> [0])>, StorageBuffer>
// CHECK: spirv.func @flash_attention_grad_dq_0
// CHECK: spirv.func @flash_attention_grad_dkdv_0
func.func @grad_f16(%t: tensor<3x37x16xf16>, %l: tensor<3x37xf32>) -> tensor<3x37x16xf16> {
  %r:3 = flash.attention_grad ins(%t, %t, %t, %t, %l, %t : tensor<3x37x16xf16>,
      tensor<3x37x16xf16>, tensor<3x37x16xf16>, tensor<3x37x16xf16>, tensor<3x37xf32>,
      tensor<3x37x16xf16>) outs(%t, %t, %t : tensor<3x37x16xf16>, tensor<3x37x16xf16>,
      tensor<3x37x16xf16>) {causal} -> tensor<3x37x16xf16>, tensor<3x37x16xf16>, tensor<3x37x16xf16>
  return %r#0 : tensor<3x37x16xf16>
}

// -----

// An additive mask: one more storage buffer, read in the score loop.
// CHECK-LABEL: func.func @additive_mask
// CHECK: spirv.GlobalVariable @flash_attention_0_arg_5 bind(0, 5) : !spirv.ptr<!spirv.struct<(!spirv.array<800 x f32, stride=4> [0])>, StorageBuffer>
func.func @additive_mask(%q: tensor<2x3x20x16xf32>, %k: tensor<2x3x40x16xf32>,
                         %m: tensor<20x40xf32>) -> tensor<2x3x20x16xf32> {
  %o = tensor.empty() : tensor<2x3x20x16xf32>
  %r = flash.attention ins(%q, %k, %k : tensor<2x3x20x16xf32>,
           tensor<2x3x40x16xf32>, tensor<2x3x40x16xf32>)
       mask(%m : tensor<20x40xf32>) outs(%o : tensor<2x3x20x16xf32>)
       -> tensor<2x3x20x16xf32>
  return %r : tensor<2x3x20x16xf32>
}

// -----

// bf16 has no SPIR-V storage here: flash-widen-bf16 runs the op on f32
// copies, so the kernel's buffers are f32 and the host converts around it.
// CHECK-LABEL: func.func @bf16_widened
// CHECK: arith.extf {{.*}} : bf16 to f32
// CHECK: call @flash_gpu_0
// CHECK: arith.truncf {{.*}} : f32 to bf16
// CHECK: func.func private @flash_gpu_0({{.*}}) -> {{.*}} attributes {flash.gpu_host}
// CHECK: gpu.launch_func
// CHECK: spirv.GlobalVariable @flash_attention_0_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<1200 x f32, stride=4> [0])>, StorageBuffer>
// CHECK-NOT: bf16
// CL-LABEL: func.func @bf16_widened
func.func @bf16_widened(%q: tensor<3x25x16xbf16>) -> tensor<3x25x16xbf16> {
  %o = tensor.empty() : tensor<3x25x16xbf16>
  %r = flash.attention ins(%q, %q, %q : tensor<3x25x16xbf16>,
           tensor<3x25x16xbf16>, tensor<3x25x16xbf16>)
       outs(%o : tensor<3x25x16xbf16>) {causal} -> tensor<3x25x16xbf16>
  return %r : tensor<3x25x16xbf16>
}
