// RUN: flash-opt %s --split-input-file --flash-map-to-gpu --verify-diagnostics | FileCheck %s

// One kernel per attention: grid (ceil(Nq / 128), B*H), 128 threads, the
// operands as rows ([B*H*N, D]; lse [B*H*N]), K/V
// tiles in workgroup memory, the q row scaled by scale (scores in natural
// units), P = exp2((s - m) log2(e)) with the difference taken first, causal
// rows limited to row + offset (offset 30 = Nk - Nq here); host code
// stages the operands in managed memory around the launch.
// CHECK-LABEL: func.func @gqa_causal
// CHECK-COUNT-3: gpu.alloc host_shared
// CHECK: gpu.launch_func async [%{{[0-9]+}}] @flash_kernels::@flash_attention_0 blocks in
// CHECK-SAME: args(%{{[a-z_0-9]+}} : memref<800x64xf32>, %{{[a-z_0-9]+}} : memref<520x64xf32>, %{{[a-z_0-9]+}} : memref<520x64xf32>, %{{[a-z_0-9]+}} : memref<800x64xf32>, %{{[a-z_0-9]+}} : memref<800xf32>)
// CHECK: gpu.wait [
// CHECK: gpu.module @flash_kernels
// CHECK: gpu.func @flash_attention_0({{.*}}) workgroup(%{{.*}} : memref<16x64xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x64xf32, #gpu.address_space<workgroup>>) kernel
// CHECK:   gpu.block_id x
// CHECK:   arith.constant 1.250000e-01 : f32
// CHECK:   scf.for
// CHECK:     gpu.barrier
// CHECK:     arith.mulf {{.*}} fastmath<contract>
// CHECK:     %[[D:.*]] = arith.subf
// CHECK:     %[[E:.*]] = arith.mulf %[[D]], %{{.*}} : f32
// CHECK:     math.exp2 %[[E]] fastmath<afn>
// CHECK:     gpu.barrier
func.func @gqa_causal(%q: tensor<2x4x100x64xf32>, %k: tensor<2x2x130x64xf32>,
                      %v: tensor<2x2x130x64xf32>) -> tensor<2x4x100x64xf32> {
  %o = tensor.empty() : tensor<2x4x100x64xf32>
  %r = flash.attention ins(%q, %k, %v : tensor<2x4x100x64xf32>,
           tensor<2x2x130x64xf32>, tensor<2x2x130x64xf32>)
       outs(%o : tensor<2x4x100x64xf32>) {causal} -> tensor<2x4x100x64xf32>
  return %r : tensor<2x4x100x64xf32>
}

// -----

// A broadcast keep-mask: the host stages it as f32 in its own shape (0 /
// -inf), flattened; the kernels read it in place (stride 0 along the
// broadcast dims) and add it to the scores.
// CHECK-LABEL: func.func @bool_mask
// CHECK: %[[M:.*]] = gpu.alloc host_shared () : memref<2x1x1x9xf32>
// CHECK: linalg.generic {{.*}}ins(%{{.*}} : memref<2x1x1x9xi1>) outs(%[[M]] : memref<2x1x1x9xf32>)
// CHECK:   arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: %[[F:.*]] = memref.collapse_shape %[[M]] {{\[\[}}0, 1, 2, 3]] : memref<2x1x1x9xf32> into memref<18xf32>
// CHECK: gpu.launch_func {{.*}} args({{.*}}, %[[F]] : memref<18xf32>)
// CHECK: gpu.func @flash_attention_0({{.*}}, %{{.*}}: memref<18xf32>)
// CHECK:   memref.load %{{.*}} : memref<18xf32>
func.func @bool_mask(%q: tensor<2x3x8x16xf32>, %k: tensor<2x3x9x16xf32>,
                     %m: tensor<2x1x1x9xi1>) -> tensor<2x3x8x16xf32> {
  %o = tensor.empty() : tensor<2x3x8x16xf32>
  %r = flash.attention ins(%q, %k, %k : tensor<2x3x8x16xf32>,
           tensor<2x3x9x16xf32>, tensor<2x3x9x16xf32>)
       mask(%m : tensor<2x1x1x9xi1>) outs(%o : tensor<2x3x8x16xf32>)
       -> tensor<2x3x8x16xf32>
  return %r : tensor<2x3x8x16xf32>
}

// -----

// Dynamic lengths and batch: the kernels take the operands as rows of any
// length (memref<?x16xf32>) and the sizes as their last arguments (Nq, Nk,
// B in the order of KernelSpec::sizeList); the host computes the grid from
// them and launches only a non-empty one; the causal offset is Nk - Nq at
// run time.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[NQ:.*]] = tensor.dim %{{.*}}, %c2{{[_0-9]*}} : tensor<?x2x?x16xf32>
// CHECK: %[[NK:.*]] = tensor.dim %{{.*}}, %c2{{[_0-9]*}} : tensor<?x2x?x16xf32>
// CHECK: %[[B:.*]] = tensor.dim %{{.*}}, %c0{{[_0-9]*}} : tensor<?x2x?x16xf32>
// CHECK: %[[BH:.*]] = arith.muli %[[B]], %c2{{[_0-9]*}} : index
// CHECK: %[[GX:.*]] = arith.ceildivui %[[NQ]], %c128
// CHECK: scf.if
// CHECK: gpu.launch_func {{.*}} blocks in (%[[GX]], %[[BH]], %c1{{[_0-9]*}}) {{.*}} args({{.*}} : memref<?x16xf32>, {{.*}} : memref<?xf32>, %[[NQ]] : index, %[[NK]] : index, %[[B]] : index)
// CHECK: gpu.func @flash_attention_0(%{{.*}}: memref<?x16xf32>, {{.*}}, %[[KNQ:.*]]: index, %[[KNK:.*]]: index, %{{.*}}: index)
// CHECK: arith.subi %[[KNK]], %[[KNQ]] : index
func.func @dynamic(%q: tensor<?x2x?x16xf32>, %k: tensor<?x2x?x16xf32>) -> tensor<?x2x?x16xf32> {
  %r = flash.attention ins(%q, %k, %k : tensor<?x2x?x16xf32>, tensor<?x2x?x16xf32>,
           tensor<?x2x?x16xf32>) outs(%q : tensor<?x2x?x16xf32>) {causal}
       -> tensor<?x2x?x16xf32>
  return %r : tensor<?x2x?x16xf32>
}

// -----

func.func @negative_dynamic_heads(%q: tensor<?x8x16xf32>) -> tensor<?x8x16xf32> {
  // expected-error @+1 {{needs static head counts and head dims on the GPU path}}
  %r = flash.attention ins(%q, %q, %q : tensor<?x8x16xf32>, tensor<?x8x16xf32>,
           tensor<?x8x16xf32>) outs(%q : tensor<?x8x16xf32>) -> tensor<?x8x16xf32>
  return %r : tensor<?x8x16xf32>
}

// -----

// fp8 at a head dim the fp8 kernel does not take: an error, not a kernel
// that drops the descales (the SIMT kernels refuse fp8).
func.func @negative_fp8(%q: tensor<2x64x32xf8E4M3FN>, %d: tensor<f32>) -> tensor<2x64x32xbf16> {
  %o = tensor.empty() : tensor<2x64x32xbf16>
  // expected-error @+1 {{has no GPU kernel for this fp8 configuration: the wgmma fp8 forward takes head dims D = Dv = 128 on sm_90a, without a document mask}}
  %r = flash.attention ins(%q, %q, %q : tensor<2x64x32xf8E4M3FN>, tensor<2x64x32xf8E4M3FN>,
           tensor<2x64x32xf8E4M3FN>) descale(%d, %d, %d : tensor<f32>, tensor<f32>, tensor<f32>)
       outs(%o : tensor<2x64x32xbf16>) -> tensor<2x64x32xbf16>
  return %r : tensor<2x64x32xbf16>
}

// -----

// The backward: a dQ kernel (query rows) then a dK/dV kernel (key rows).
// CHECK-LABEL: func.func @grad
// CHECK: gpu.launch_func async [%{{[0-9]+}}] @flash_kernels::@flash_attention_grad_dq_0
// CHECK: gpu.launch_func async [%{{[0-9]+}}] @flash_kernels::@flash_attention_grad_dkdv_0
// CHECK: gpu.func @flash_attention_grad_dq_0
// CHECK: gpu.func @flash_attention_grad_dkdv_0
func.func @grad(%t: tensor<8x16xf32>, %l: tensor<8xf32>) -> tensor<8x16xf32> {
  %r:3 = flash.attention_grad ins(%t, %t, %t, %t, %l, %t : tensor<8x16xf32>,
      tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8xf32>,
      tensor<8x16xf32>) outs(%t, %t, %t : tensor<8x16xf32>, tensor<8x16xf32>,
      tensor<8x16xf32>) -> tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
  return %r#0 : tensor<8x16xf32>
}

// -----

// A mask with a dynamic dim: its strides are computed on the host (0 where
// the dim is 1 at run time, a broadcast).
// CHECK-LABEL: func.func @dynamic_mask
// CHECK: %[[M0:.*]] = tensor.dim %{{.*}}, %c0{{[_0-9]*}} : tensor<?x8xf32>
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[M0]], %c1{{[_0-9]*}} : index
// CHECK: %[[S:.*]] = arith.select %[[ONE]], %c0{{[_0-9]*}}, %c8{{[_0-9]*}} : index
// CHECK: gpu.launch_func {{.*}} args({{.*}}, %{{.*}} : memref<?xf32>, %[[S]] : index)
func.func @dynamic_mask(%q: tensor<8x16xf32>, %m: tensor<?x8xf32>) -> tensor<8x16xf32> {
  %r = flash.attention ins(%q, %q, %q : tensor<8x16xf32>, tensor<8x16xf32>,
           tensor<8x16xf32>) mask(%m : tensor<?x8xf32>) outs(%q : tensor<8x16xf32>)
       -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
