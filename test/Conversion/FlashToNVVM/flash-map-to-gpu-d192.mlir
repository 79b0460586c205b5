// Head dim 192 (a multiple of 64 between the table's 128 and 256) takes the
// kernels of d = 256 on wgmma: the warp-specialized forward (a producer
// warpgroup, two consumer warpgroups of 64 queries, 64-key tiles) and the
// backward with Q/dO and K/V read from shared memory, two consumer
// warpgroups and a producer (the dQ kernel's all of dQ in one m64n192
// product). On an H100 forward 0.91-1.12x cuDNN (1.6x the one-warpgroup
// kernel), backward 1.29-1.40x (the SIMT kernels before; bench/RESULTS.md,
// session 40). Head dims 64 does not divide (96) stay on mma.sync.
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="wgmma=0" | FileCheck %s --check-prefix=SYNC

// CHECK-LABEL: module attributes {flash.kernels = [{args = ["q", "k", "v", "o", "lse"], batch_heads = "bh", block = 384 : i64, kind = "wgmma", name = "flash_attention_0", rows = "nq", rows_per_block = 128 : i64, sizes = [], tensor_maps = {{\[\[}}0, 64, 64], [1, 64, 64], [2, 64, 64]]}]
// CHECK: nvvm.setmaxregister
// CHECK: m64n64k16.f32.bf16.bf16
// CHECK: m64n192k16.f32.bf16.bf16
// SYNC: kind = "mma.sync", name = "flash_attention_0"
func.func @fwd_d192(%q: tensor<2x4x300x192xbf16>, %k: tensor<2x2x777x192xbf16>, %v: tensor<2x2x777x192xbf16>) -> tensor<2x4x300x192xbf16> {
  %o0 = tensor.empty() : tensor<2x4x300x192xbf16>
  %o = flash.attention ins(%q, %k, %v : tensor<2x4x300x192xbf16>, tensor<2x2x777x192xbf16>, tensor<2x2x777x192xbf16>) outs(%o0 : tensor<2x4x300x192xbf16>) {causal} -> tensor<2x4x300x192xbf16>
  return %o : tensor<2x4x300x192xbf16>
}

// -----

// CHECK-LABEL: module attributes {flash.kernels = [{args = ["q", "k", "v", "o", "lse", "do", "dq", "delta"], batch_heads = "bh", block = 384 : i64, kind = "wgmma", name = "flash_attention_grad_dq_0", rows = "nq", rows_per_block = 128 : i64
// CHECK-SAME: {args = ["q", "k", "v", "lse", "do", "delta", "dk", "dv"], batch_heads = "bhkv", block = 384 : i64, kind = "wgmma", name = "flash_attention_grad_dkdv_0", rows = "nk", rows_per_block = 64 : i64
// CHECK: gpu.func @flash_attention_grad_dq_0
// CHECK: m64n192k16.f32.bf16.bf16
// CHECK: gpu.func @flash_attention_grad_dkdv_0
// CHECK: m64n192k16.f32.bf16.bf16
// SYNC: kind = "simt", name = "flash_attention_grad_dq_0"
func.func @grad_d192(%q: tensor<2x4x100x192xbf16>, %k: tensor<2x2x130x192xbf16>,
                     %l: tensor<2x4x100xf32>) -> (tensor<2x4x100x192xbf16>, tensor<2x2x130x192xbf16>) {
  %r:3 = flash.attention_grad ins(%q, %k, %k, %q, %l, %q : tensor<2x4x100x192xbf16>,
             tensor<2x2x130x192xbf16>, tensor<2x2x130x192xbf16>, tensor<2x4x100x192xbf16>,
             tensor<2x4x100xf32>, tensor<2x4x100x192xbf16>)
         outs(%q, %k, %k : tensor<2x4x100x192xbf16>, tensor<2x2x130x192xbf16>, tensor<2x2x130x192xbf16>)
         {causal} -> tensor<2x4x100x192xbf16>, tensor<2x2x130x192xbf16>, tensor<2x2x130x192xbf16>
  return %r#0, %r#1 : tensor<2x4x100x192xbf16>, tensor<2x2x130x192xbf16>
}
