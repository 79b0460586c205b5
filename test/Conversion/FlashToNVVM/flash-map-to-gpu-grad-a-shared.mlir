// The wgmma backward at d <= 128 with `grad-a-shared` (MmaGradKernels.cpp):
// S / dP (dQ kernel) and S^T / dP^T (dK/dV kernel) read their fixed A
// operands from a shared [rows, 128] tile (`da`) instead of register
// fragments, as at d = 256, but without the split by roles (each
// warpgroup its own 64 keys, all of dK and dV). With two warpgroups
// (mma-warps=8: 128 rows a block, and the kernels' producer
// warpgroup: 384 threads) each reads its own 64 rows of the tile:
// 64 rows x 128 bytes = 512 in the descriptor's 16-byte units. dQ by
// reductions (deterministic=0) takes it and two warpgroups: no dQ kernel,
// each warpgroup's dQ^T one 64-row group of D (K^T's by the descriptor:
// 128 rows x 128 bytes apart), over the block's 128 keys. On by
// default (1.04-1.12x at d = 128); grad-a-shared=0 keeps K/V (Q/dO) in
// register fragments.
// RUN: flash-opt %s --flash-map-to-gpu="grad-a-shared=1 mma-warps=8 mma-tile-kv=64" | FileCheck %s
// RUN: flash-opt %s --flash-map-to-gpu="grad-a-shared=1 deterministic=0" | FileCheck %s --check-prefix=ONE
// RUN: flash-opt %s --flash-map-to-gpu=grad-a-shared=0 | FileCheck %s --check-prefix=REGS
// RUN: flash-opt %s --flash-map-to-gpu | FileCheck %s --check-prefix=DEFAULT
// RUN: flash-opt %s --flash-map-to-gpu | FileCheck %s --check-prefix=MASKED
// RUN: flash-opt %s --flash-map-to-gpu | FileCheck %s --check-prefix=WINDOW
// RUN: flash-opt %s --flash-map-to-gpu="deterministic=0" | FileCheck %s --check-prefix=WINDOW-RED

// CHECK-LABEL: module attributes {flash.kernels = [{args = ["q", "k", "v", "o", "lse", "do", "dq", "delta"], batch_heads = "bh", block = 384 : i64, kind = "wgmma", name = "flash_attention_grad_dq_0", rows = "nq", rows_per_block = 128 : i64
// CHECK-SAME: {args = ["q", "k", "v", "lse", "do", "delta", "dk", "dv"], batch_heads = "bhkv", block = 384 : i64, kind = "wgmma", name = "flash_attention_grad_dkdv_0", rows = "nk", rows_per_block = 128 : i64
// CHECK-LABEL: gpu.func @flash_attention_grad_dq_0
// CHECK: %[[TID:.*]] = gpu.thread_id  x
// The warpgroup's A tiles, by a warp-uniform warpgroup index (lane 0's).
// CHECK: %[[WG:.*]] = arith.divui %[[TID]], %c128
// CHECK: %[[WG32:.*]] = arith.index_castui %[[WG]] : index to i32
// CHECK: %[[WGU:.*]], %{{.*}} = gpu.shuffle  idx %[[WG32]]
// CHECK: %[[WGI:.*]] = arith.index_castui %[[WGU]] : i32 to index
// CHECK: %[[WG64:.*]] = arith.index_castui %[[WGI]] : index to i64
// CHECK: arith.muli %[[WG64]], %c512_i64
// CHECK: m64n64k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// CHECK: m64n128k16.f32.bf16.bf16 {{.*}} d, p, 1, 1, 1;
// CHECK-LABEL: gpu.func @flash_attention_grad_dkdv_0
// CHECK: arith.muli %{{.*}}, %c512_i64
// CHECK: m64n64k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// CHECK: m64n128k16.f32.bf16.bf16 {{.*}} d, p, 1, 1, 1;
// ONE: name = "flash_attention_grad_dkdv_0", rows = "nk", rows_per_block = 128 : i64
// ONE: m64n64k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// ONE: arith.muli %{{.*}}, %c1024_i64
// ONE: m64n64k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 1, 0;
// ONE: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [g], [$1], 512;
// REGS-NOT: , da, d, z,
// The default: 64-key tiles of the dQ kernel (m64n64), 64-query tiles of
// the dK/dV kernel (m64n64) also under the causal limit (32 with a mask:
// MASKED below).
// DEFAULT-LABEL: gpu.func @flash_attention_grad_dq_0
// DEFAULT: m64n64k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// DEFAULT-LABEL: gpu.func @flash_attention_grad_dkdv_0
// DEFAULT: m64n64k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
func.func @grad_d128(%q: tensor<2x4x100x128xbf16>, %k: tensor<2x2x130x128xbf16>,
                     %l: tensor<2x4x100xf32>) -> (tensor<2x4x100x128xbf16>, tensor<2x2x130x128xbf16>) {
  %r:3 = flash.attention_grad ins(%q, %k, %k, %q, %l, %q : tensor<2x4x100x128xbf16>,
             tensor<2x2x130x128xbf16>, tensor<2x2x130x128xbf16>, tensor<2x4x100x128xbf16>,
             tensor<2x4x100xf32>, tensor<2x4x100x128xbf16>)
         outs(%q, %k, %k : tensor<2x4x100x128xbf16>, tensor<2x2x130x128xbf16>, tensor<2x2x130x128xbf16>)
         {causal} -> tensor<2x4x100x128xbf16>, tensor<2x2x130x128xbf16>, tensor<2x2x130x128xbf16>
  return %r#0, %r#1 : tensor<2x4x100x128xbf16>, tensor<2x2x130x128xbf16>
}

// With an additive mask the dK/dV kernel takes 32-query tiles (m64n32).
// MASKED-LABEL: gpu.func @flash_attention_grad_dkdv_1
// MASKED: m64n32k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
func.func @grad_d128_masked(%q: tensor<2x4x100x128xbf16>, %k: tensor<2x2x130x128xbf16>,
                            %l: tensor<2x4x100xf32>, %m: tensor<100x130xbf16>)
    -> tensor<2x2x130x128xbf16> {
  %r:3 = flash.attention_grad ins(%q, %k, %k, %q, %l, %q : tensor<2x4x100x128xbf16>,
             tensor<2x2x130x128xbf16>, tensor<2x2x130x128xbf16>, tensor<2x4x100x128xbf16>,
             tensor<2x4x100xf32>, tensor<2x4x100x128xbf16>) mask(%m : tensor<100x130xbf16>)
         outs(%q, %k, %k : tensor<2x4x100x128xbf16>, tensor<2x2x130x128xbf16>, tensor<2x2x130x128xbf16>)
         -> tensor<2x4x100x128xbf16>, tensor<2x2x130x128xbf16>, tensor<2x2x130x128xbf16>
  return %r#1 : tensor<2x2x130x128xbf16>
}

// A sliding window (a mask_mod of affine bounds alone): 64-query dK/dV
// tiles as under the causal limit, its dS^T = P^T (dP^T - D) without a
// select on the scores' predicates (P^T is 0 where not seen); with dQ by
// reductions 32 (64 would spill), and with GQA (runtime sizes: 36 bytes
// at 64). A document mask (not affine): 32.
// WINDOW-LABEL: gpu.func @flash_attention_grad_dkdv_2
// WINDOW-NOT: gpu.func
// WINDOW: m64n64k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// WINDOW-LABEL: gpu.func @flash_attention_grad_dkdv_3
// WINDOW-NOT: gpu.func
// WINDOW: m64n32k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// WINDOW-LABEL: gpu.func @flash_attention_grad_dkdv_4
// WINDOW-NOT: gpu.func
// WINDOW: m64n32k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// WINDOW-LABEL: gpu.func @flash_attention_grad_dkdv_5
// WINDOW-NOT: gpu.func
// WINDOW: m64n32k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// WINDOW-RED-LABEL: gpu.func @flash_attention_grad_dkdv_2
// WINDOW-RED-NOT: gpu.func
// WINDOW-RED: m64n32k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
func.func @grad_d128_window(%q: tensor<2x4x300x128xbf16>, %k: tensor<2x4x300x128xbf16>,
                            %l: tensor<2x4x300xf32>) -> tensor<2x4x300x128xbf16> {
  %r:3 = flash.attention_grad ins(%q, %k, %k, %q, %l, %q : tensor<2x4x300x128xbf16>,
             tensor<2x4x300x128xbf16>, tensor<2x4x300x128xbf16>, tensor<2x4x300x128xbf16>,
             tensor<2x4x300xf32>, tensor<2x4x300x128xbf16>)
         outs(%q, %k, %k : tensor<2x4x300x128xbf16>, tensor<2x4x300x128xbf16>, tensor<2x4x300x128xbf16>)
         {causal} -> tensor<2x4x300x128xbf16>, tensor<2x4x300x128xbf16>, tensor<2x4x300x128xbf16>
    mask_mod {
    ^bb0(%b: index, %h: index, %i: index, %j: index):
      %w = arith.constant -100 : index
      %lo = arith.addi %i, %w : index
      %in = arith.cmpi sge, %j, %lo : index
      flash.yield %in : i1
    }
  return %r#1 : tensor<2x4x300x128xbf16>
}

func.func @grad_d128_documents(%q: tensor<2x300x128xbf16>, %l: tensor<2x300xf32>,
                               %seg: tensor<300xi32>) -> tensor<2x300x128xbf16> {
  %r:3 = flash.attention_grad ins(%q, %q, %q, %q, %l, %q : tensor<2x300x128xbf16>,
             tensor<2x300x128xbf16>, tensor<2x300x128xbf16>, tensor<2x300x128xbf16>,
             tensor<2x300xf32>, tensor<2x300x128xbf16>)
         captures(%seg : tensor<300xi32>)
         outs(%q, %q, %q : tensor<2x300x128xbf16>, tensor<2x300x128xbf16>, tensor<2x300x128xbf16>)
         -> tensor<2x300x128xbf16>, tensor<2x300x128xbf16>, tensor<2x300x128xbf16>
    mask_mod {
    ^bb0(%h: index, %i: index, %j: index, %s: tensor<300xi32>):
      %a = tensor.extract %s[%i] : tensor<300xi32>
      %b = tensor.extract %s[%j] : tensor<300xi32>
      %same = arith.cmpi eq, %a, %b : i32
      flash.yield %same : i1
    }
  return %r#1 : tensor<2x300x128xbf16>
}

func.func @grad_d128_window_dynamic(%q: tensor<2x4x?x128xbf16>, %k: tensor<2x2x?x128xbf16>,
                                    %l: tensor<2x4x?xf32>) -> tensor<2x2x?x128xbf16> {
  %r:3 = flash.attention_grad ins(%q, %k, %k, %q, %l, %q : tensor<2x4x?x128xbf16>,
             tensor<2x2x?x128xbf16>, tensor<2x2x?x128xbf16>, tensor<2x4x?x128xbf16>,
             tensor<2x4x?xf32>, tensor<2x4x?x128xbf16>)
         outs(%q, %k, %k : tensor<2x4x?x128xbf16>, tensor<2x2x?x128xbf16>, tensor<2x2x?x128xbf16>)
         {causal} -> tensor<2x4x?x128xbf16>, tensor<2x2x?x128xbf16>, tensor<2x2x?x128xbf16>
    mask_mod {
    ^bb0(%b: index, %h: index, %i: index, %j: index):
      %w = arith.constant -100 : index
      %lo = arith.addi %i, %w : index
      %in = arith.cmpi sge, %j, %lo : index
      flash.yield %in : i1
    }
  return %r#1 : tensor<2x2x?x128xbf16>
}

func.func @grad_d128_window_gqa(%q: tensor<2x4x300x128xbf16>, %k: tensor<2x2x300x128xbf16>,
                                %l: tensor<2x4x300xf32>) -> tensor<2x2x300x128xbf16> {
  %r:3 = flash.attention_grad ins(%q, %k, %k, %q, %l, %q : tensor<2x4x300x128xbf16>,
             tensor<2x2x300x128xbf16>, tensor<2x2x300x128xbf16>, tensor<2x4x300x128xbf16>,
             tensor<2x4x300xf32>, tensor<2x4x300x128xbf16>)
         outs(%q, %k, %k : tensor<2x4x300x128xbf16>, tensor<2x2x300x128xbf16>, tensor<2x2x300x128xbf16>)
         {causal} -> tensor<2x4x300x128xbf16>, tensor<2x2x300x128xbf16>, tensor<2x2x300x128xbf16>
    mask_mod {
    ^bb0(%b: index, %h: index, %i: index, %j: index):
      %w = arith.constant -100 : index
      %lo = arith.addi %i, %w : index
      %in = arith.cmpi sge, %j, %lo : index
      flash.yield %in : i1
    }
  return %r#1 : tensor<2x2x300x128xbf16>
}
