// The forward and backward kernels of the shared GPU mapping as SPIR-V for
// Vulkan and in the OpenCL (Kernel) flavour; every module serializes and
// passes spirv-val for its environment.
// RUN: flash-opt %s --split-input-file --flash-to-spirv | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-to-spirv | %python %S/spirv_val.py vulkan1.1 | FileCheck %s --check-prefix=VAL
// RUN: flash-opt %s --split-input-file --flash-to-spirv=client-api=opencl | FileCheck %s --check-prefix=CL
// RUN: flash-opt %s --split-input-file --flash-to-spirv=client-api=opencl | %python %S/spirv_val.py opencl2.0 | FileCheck %s --check-prefix=VAL
// REQUIRES: spirv-val
// VAL-COUNT-3: __spv__flash_kernels: {{[0-9]+}} bytes, spirv-val ok

// CL: gpu.module @flash_kernels
// CL:   spirv.module @__spv__flash_kernels Physical{{32|64}} OpenCL
// CL:     spirv.CL.exp
// CL:     spirv.EntryPoint "Kernel" @flash_attention_0

// CHECK-LABEL: func.func @gqa_causal
// CHECK: gpu.launch_func {{.*}} @flash_kernels::@flash_attention_0
// CHECK: spirv.module @__spv__flash_kernels Logical GLSL450
// CHECK-DAG: spirv.GlobalVariable @flash_attention_0_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<51200 x f32, stride=4> [0])>, StorageBuffer>
// CHECK-DAG: spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<1024 x f32>)>, Workgroup>
// CHECK: spirv.func @flash_attention_0
// CHECK:   spirv.ControlBarrier <Workgroup>, <Workgroup>
// CHECK:   spirv.GL.Exp
// CHECK:   spirv.GL.Log
// CHECK: spirv.EntryPoint "GLCompute" @flash_attention_0
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

// CHECK-LABEL: func.func @grad_f16
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
