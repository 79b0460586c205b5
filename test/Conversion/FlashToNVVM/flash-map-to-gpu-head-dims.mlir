// Head dims past the table's 64 / 128 / 256 on wgmma.
// 192 (a multiple of 64) takes the kernels of d = 256: the warp-specialized
// forward (a producer warpgroup, two consumer warpgroups of 64 queries,
// 64-key tiles) and the backward with Q/dO and K/V read from shared memory,
// two consumer warpgroups and a producer (the dQ kernel's all of dQ in one
// m64n192 product). On an H100 forward 0.91-1.12x cuDNN (1.6x the
// one-warpgroup kernel), backward 1.29-1.40x (the SIMT kernels before;
// bench/RESULTS.md, session 40).
// Past 64, head dims 64 does not divide (80, 96, 112; 160, ...) run on
// tiles of whole 64-column groups (tileD: 128; 192): the copies fill the
// columns past d with zeros (cp.async with a source size of 0 there; TMA's
// out-of-bounds fill, the tensor maps' columns being d), so the products
// sum zeros there, and no store writes them. Below 64 (16, 32, 48) and off
// sm_90a, mma.sync.
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

// -----

// d = 96 forward: warp-specialized on 128-column tiles, 128-key tiles as at
// d = 128; o's staged rows stored only where the column is below 96.
// CHECK-LABEL: module attributes {flash.kernels = [{args = ["q", "k", "v", "o", "lse"], batch_heads = "bh", block = 384 : i64, kind = "wgmma", name = "flash_attention_0", rows = "nq", rows_per_block = 128 : i64, sizes = [], tensor_maps = {{\[\[}}0, 128, 64], [1, 128, 64], [2, 128, 64]]}]
// CHECK: m64n128k16.f32.bf16.bf16
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c96
// CHECK: arith.andi %{{.*}}, %[[IN]]
// CHECK: vector.store %{{.*}} : memref<8x300x96xbf16>, vector<8xbf16>
// SYNC: kind = "mma.sync", name = "flash_attention_0"
func.func @fwd_d96(%q: tensor<2x4x300x96xbf16>, %k: tensor<2x2x777x96xbf16>, %v: tensor<2x2x777x96xbf16>) -> tensor<2x4x300x96xbf16> {
  %o0 = tensor.empty() : tensor<2x4x300x96xbf16>
  %o = flash.attention ins(%q, %k, %v : tensor<2x4x300x96xbf16>, tensor<2x2x777x96xbf16>, tensor<2x2x777x96xbf16>) outs(%o0 : tensor<2x4x300x96xbf16>) {causal} -> tensor<2x4x300x96xbf16>
  return %o : tensor<2x4x300x96xbf16>
}

// -----

// d = 80 with a mask operand: the one-warpgroup kernel, whose cp.async
// copies read no source bytes past column 80 (a source size operand).
// CHECK-LABEL: module attributes {flash.kernels = [{args = ["q", "k", "v", "o", "lse", "mask"], batch_heads = "bh", block = 128 : i64, kind = "wgmma"
// CHECK: %[[COL:.*]] = arith.muli %{{.*}}, %c8
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[COL]], %c80
// CHECK: %[[AT:.*]] = arith.minui %[[COL]], %c72
// CHECK: %[[N:.*]] = arith.select %[[IN]], %c8{{.*}}, %c0
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}, %[[AT]]], %{{.*}}[%{{.*}}], 8, %[[N]] {bypassL1} : memref<2x65x80xf16>
// SYNC: kind = "mma.sync", name = "flash_attention_0"
func.func @fwd_d80_mask(%q: tensor<2x65x80xf16>, %k: tensor<2x90x80xf16>, %v: tensor<2x90x80xf16>, %m: tensor<65x90xi1>) -> tensor<2x65x80xf16> {
  %o0 = tensor.empty() : tensor<2x65x80xf16>
  %o = flash.attention ins(%q, %k, %v : tensor<2x65x80xf16>, tensor<2x90x80xf16>, tensor<2x90x80xf16>) mask(%m : tensor<65x90xi1>) outs(%o0 : tensor<2x65x80xf16>) -> tensor<2x65x80xf16>
  return %o : tensor<2x65x80xf16>
}

// -----

// d = 96 backward: both kernels on 128-column tiles; dQ / dK / dV stored
// for their 96 columns only.
// CHECK-LABEL: module attributes {flash.kernels = [{args = ["q", "k", "v", "o", "lse", "do", "dq", "delta"], batch_heads = "bh", {{.*}}kind = "wgmma", name = "flash_attention_grad_dq_0"
// CHECK-SAME: kind = "wgmma", name = "flash_attention_grad_dkdv_0"
// CHECK: gpu.func @flash_attention_grad_dq_0
// CHECK: m64n128k16.f32.bf16.bf16
// CHECK: gpu.func @flash_attention_grad_dkdv_0
// SYNC: kind = "mma.sync", name = "flash_attention_grad_dq_0"
func.func @grad_d96(%q: tensor<2x4x100x96xbf16>, %k: tensor<2x2x130x96xbf16>,
                    %l: tensor<2x4x100xf32>) -> (tensor<2x4x100x96xbf16>, tensor<2x2x130x96xbf16>) {
  %r:3 = flash.attention_grad ins(%q, %k, %k, %q, %l, %q : tensor<2x4x100x96xbf16>,
             tensor<2x2x130x96xbf16>, tensor<2x2x130x96xbf16>, tensor<2x4x100x96xbf16>,
             tensor<2x4x100xf32>, tensor<2x4x100x96xbf16>)
         outs(%q, %k, %k : tensor<2x4x100x96xbf16>, tensor<2x2x130x96xbf16>, tensor<2x2x130x96xbf16>)
         {causal} -> tensor<2x4x100x96xbf16>, tensor<2x2x130x96xbf16>, tensor<2x2x130x96xbf16>
  return %r#0, %r#1 : tensor<2x4x100x96xbf16>, tensor<2x2x130x96xbf16>
}

// -----

// V's head dim not q's and k's (DeepSeek's d = 192, dv = 128): tiles of the
// wider, V's columns past 128 zero (its tensor map's columns are 128), o
// stored for its 128 columns.
// CHECK-LABEL: module attributes {flash.kernels = [{args = ["q", "k", "v", "o", "lse"], batch_heads = "bh", block = 384 : i64, kind = "wgmma", name = "flash_attention_0"
// CHECK: m64n192k16.f32.bf16.bf16
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c128
// CHECK: arith.andi %{{.*}}, %[[IN]]
// CHECK: vector.store %{{.*}} : memref<8x300x128xbf16>, vector<8xbf16>
// SYNC: kind = "simt", name = "flash_attention_0"
func.func @fwd_d192_dv128(%q: tensor<2x4x300x192xbf16>, %k: tensor<2x2x777x192xbf16>, %v: tensor<2x2x777x128xbf16>) -> tensor<2x4x300x128xbf16> {
  %o0 = tensor.empty() : tensor<2x4x300x128xbf16>
  %o = flash.attention ins(%q, %k, %v : tensor<2x4x300x192xbf16>, tensor<2x2x777x192xbf16>, tensor<2x2x777x128xbf16>) outs(%o0 : tensor<2x4x300x128xbf16>) {causal} -> tensor<2x4x300x128xbf16>
  return %o : tensor<2x4x300x128xbf16>
}
