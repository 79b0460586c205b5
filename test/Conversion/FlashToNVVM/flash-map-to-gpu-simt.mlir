// The SIMT kernels' options: several threads per row (row-lanes for the
// forward, grad-row-lanes for the backward; each thread holds every L-th
// element, dot products summed by xor shuffles), and max-workgroup-memory
// (fewer keys per shared tile until every kernel fits; the error when even
// one key per tile does not is in flash-map-to-gpu-simt-errors.mlir).
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="row-lanes=4 grad-row-lanes=8" | FileCheck %s --check-prefix=LANES
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="max-workgroup-memory=4096" | FileCheck %s --check-prefix=FIT
// RUN: not flash-opt %s --split-input-file --flash-map-to-gpu="row-lanes=3" 2>&1 | FileCheck %s --check-prefix=BAD

// 128 threads, 4 per query row: 32 rows per block, ceil(100 / 32) = 4.
// LANES-LABEL: func.func private @flash_gpu_0
// LANES: gpu.launch_func {{.*}} @flash_kernels::@flash_attention_0 blocks in (%c4{{[_0-9]*}}, %c2{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c128
// LANES: gpu.func @flash_attention_0
// LANES-COUNT-2: gpu.shuffle  xor
// The K and V tiles fit 4096 bytes with 8 keys of 64 f32 each.
// FIT: gpu.func @flash_attention_0({{.*}}) workgroup({{.*}} : memref<8x64xf32, #gpu.address_space<workgroup>>, {{.*}} : memref<8x64xf32, #gpu.address_space<workgroup>>)
// BAD: flash-map-to-gpu: row-lanes and grad-row-lanes must be powers of 2 up to 32 (0: by head dim)
func.func @fwd(%q: tensor<2x100x64xf32>) -> tensor<2x100x64xf32> {
  %o = tensor.empty() : tensor<2x100x64xf32>
  %r = flash.attention ins(%q, %q, %q : tensor<2x100x64xf32>,
           tensor<2x100x64xf32>, tensor<2x100x64xf32>)
       outs(%o : tensor<2x100x64xf32>) -> tensor<2x100x64xf32>
  return %r : tensor<2x100x64xf32>
}

// -----

// The backward with 8 threads per query (key) row: 16 rows per block,
// ceil(100 / 16) = 7 blocks for dQ and for dK/dV.
// LANES-LABEL: func.func private @flash_gpu_0
// LANES: gpu.launch_func {{.*}} @flash_kernels::@flash_attention_grad_dq_0 blocks in (%c7{{[_0-9]*}}, %c2
// LANES: gpu.launch_func {{.*}} @flash_kernels::@flash_attention_grad_dkdv_0 blocks in (%c7{{[_0-9]*}}, %c2
// LANES: gpu.func @flash_attention_grad_dq_0
// LANES: gpu.shuffle  xor
// LANES: gpu.func @flash_attention_grad_dkdv_0
// LANES: gpu.shuffle  xor
func.func @grad(%t: tensor<2x100x64xf32>, %l: tensor<2x100xf32>) -> tensor<2x100x64xf32> {
  %r:3 = flash.attention_grad ins(%t, %t, %t, %t, %l, %t : tensor<2x100x64xf32>,
      tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<2x100xf32>,
      tensor<2x100x64xf32>) outs(%t, %t, %t : tensor<2x100x64xf32>, tensor<2x100x64xf32>,
      tensor<2x100x64xf32>) -> tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<2x100x64xf32>
  return %r#0 : tensor<2x100x64xf32>
}
