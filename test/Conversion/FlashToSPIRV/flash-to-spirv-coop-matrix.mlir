// A Vulkan target environment with KHR cooperative matrices: the f16
// forward's two products on them (flash-map-to-gpu cooperative-matrix: one
// subgroup per 16 query rows, gpu.subgroup_mma ops, the softmax through
// workgroup memory), SPIR-V 1.6 by default. Debian's spirv-val predates the
// extension; these modules ran correctly on the H200's Vulkan driver
// (bench/vulkan, bench/RESULTS.md). bf16 is widened to f32 first and takes
// the SIMT kernels, like the backward.
// RUN: flash-opt %s --split-input-file --flash-to-spirv="caps=CooperativeMatrixKHR kernels-only=1" | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu=cooperative-matrix=1 | FileCheck %s --check-prefix=MAP

// CHECK-LABEL: func.func @f16_gqa_causal
// CHECK: spirv.module @__spv__flash_kernels Logical GLSL450 requires #spirv.vce<v1.6, [{{.*}}CooperativeMatrixKHR{{.*}}], [{{.*}}SPV_KHR_cooperative_matrix{{.*}}]>
// Q's four 16-column A matrices, then per 16-key tile K^T (column-major B)
// into S, stored for the softmax:
// CHECK-COUNT-4: spirv.KHR.CooperativeMatrixLoad {{.*}} <RowMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
// CHECK: spirv.mlir.loop
// CHECK: spirv.KHR.CooperativeMatrixLoad {{.*}} <ColumnMajor> : !spirv.ptr<f16, Workgroup>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
// CHECK: spirv.KHR.CooperativeMatrixMulAdd {{.*}} -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
// CHECK: spirv.KHR.CooperativeMatrixStore {{.*}} <RowMajor> : !spirv.ptr<f32, Workgroup>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
// The rescale of O by each row's alpha, then O += P V:
// CHECK: spirv.FMul {{.*}} : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
// CHECK: spirv.KHR.CooperativeMatrixMulAdd
// CHECK: spirv.ExecutionMode @flash_attention_0 "LocalSize", 32, 1, 1
// MAP-LABEL: func.func @f16_gqa_causal
// MAP: gpu.launch_func {{.*}} blocks in (%c7{{[_0-9]*}}, %c8{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c32
// MAP: gpu.subgroup_mma_load_matrix {{.*}} {leadDimension = 64 : index, transpose} : memref<16x64xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
// MAP: gpu.subgroup_mma_compute
// MAP: gpu.subgroup_mma_elementwise  mulf
func.func @f16_gqa_causal(%q: tensor<2x4x100x64xf16>, %k: tensor<2x2x70x64xf16>,
                          %v: tensor<2x2x70x64xf16>) -> tensor<2x4x100x64xf16> {
  %o = tensor.empty() : tensor<2x4x100x64xf16>
  %r = flash.attention ins(%q, %k, %v : tensor<2x4x100x64xf16>,
           tensor<2x2x70x64xf16>, tensor<2x2x70x64xf16>)
       outs(%o : tensor<2x4x100x64xf16>) {causal} -> tensor<2x4x100x64xf16>
  return %r : tensor<2x4x100x64xf16>
}

// -----

// CHECK-LABEL: func.func @bf16_is_simt
// CHECK-NOT: CooperativeMatrix
// CHECK: return
func.func @bf16_is_simt(%q: tensor<1x37x32xbf16>) -> tensor<1x37x32xbf16> {
  %o = tensor.empty() : tensor<1x37x32xbf16>
  %r = flash.attention ins(%q, %q, %q : tensor<1x37x32xbf16>,
           tensor<1x37x32xbf16>, tensor<1x37x32xbf16>)
       outs(%o : tensor<1x37x32xbf16>) -> tensor<1x37x32xbf16>
  return %r : tensor<1x37x32xbf16>
}

// -----

// Modifiers on the cooperative-matrix forward: the row threads apply the
// score_mod (soft-cap, an ALiBi slope from the captured operand's buffer)
// and the mask_mod (a sliding window) in their softmax; the key loop starts
// at the block's first window start.
// CHECK-LABEL: func.func @f16_modifiers
// CHECK: spirv.GL.Tanh
// CHECK: spirv.KHR.CooperativeMatrixMulAdd
// MAP-LABEL: func.func @f16_modifiers
// MAP: gpu.func @flash_attention_0({{.*}}, %{{.*}}: memref<4xf32>)
// The head's slope is read once, before the loop:
// MAP: memref.load %{{.*}}[%{{.*}}] : memref<4xf32>
// MAP: arith.floordivsi
// MAP: scf.for
// MAP: gpu.subgroup_mma_compute
// MAP: math.tanh
// MAP: arith.cmpi sge
func.func @f16_modifiers(%q: tensor<4x100x32xf16>, %slopes: tensor<4xf32>) -> tensor<4x100x32xf16> {
  %o = tensor.empty() : tensor<4x100x32xf16>
  %r = flash.attention ins(%q, %q, %q : tensor<4x100x32xf16>,
           tensor<4x100x32xf16>, tensor<4x100x32xf16>) captures(%slopes : tensor<4xf32>)
       outs(%o : tensor<4x100x32xf16>) {causal} -> tensor<4x100x32xf16>
    score_mod {
    ^bb0(%s: f32, %h: index, %i: index, %j: index, %sl: tensor<4xf32>):
      %c = arith.constant 5.0 : f32
      %x = arith.divf %s, %c : f32
      %t = math.tanh %x : f32
      %y = arith.mulf %t, %c : f32
      %d = arith.subi %j, %i : index
      %di = arith.index_cast %d : index to i64
      %df = arith.sitofp %di : i64 to f32
      %m = tensor.extract %sl[%h] : tensor<4xf32>
      %b = arith.mulf %m, %df : f32
      %z = arith.addf %y, %b : f32
      flash.yield %z : f32
    }
    mask_mod {
    ^bb0(%h: index, %i: index, %j: index, %sl: tensor<4xf32>):
      %w = arith.constant -20 : index
      %lo = arith.addi %i, %w : index
      %in = arith.cmpi sge, %j, %lo : index
      flash.yield %in : i1
    }
  return %r : tensor<4x100x32xf16>
}
