// The wgmma backward with dQ by reductions (flash-map-to-gpu
// deterministic=0): a prep kernel over query blocks of 64 (D = rowsum(dO *
// O), the f32 dQ accumulator zeroed: it owns the scratch, 64 x D words a
// block), the dK/dV kernel of two warpgroups (128 keys a block) with K and
// V in shared memory (A of S^T = K Q^T and dP^T = V dO^T, K-major; K also
// of dQ^T = K^T dS^T, M-contiguous: imm-trans-a 1, over all 128 keys: eight
// k16 steps) and dS's tile [64 queries, 128 keys]; at d = 64 each
// warpgroup takes 32 of the tile's queries (m64n32). S^T and dP^T are
// issued together (P^T is computed while dP^T runs); dK is issued before
// the barrier that publishes dS, dQ^T and dV after it, and dV runs while
// dQ^T is staged (complete before the step's last barrier, after which the
// next step's copies overwrite its tiles); each query tile's dQ is staged in shared
// memory [queries, D + 4] f32 (16 bytes aligned; rows 4 words apart
// from D's for the banks) and added into the accumulator by one bulk
// reduction per row (the previous ones waited for with .read before the
// tile is rewritten, all of them before the block ends), then the conversion into dq. The backward's kernels over keys
// take the dK/dV buffers, the others the dQ kernel's. An op marked
// `deterministic` keeps the dQ kernel.
// With a producer warpgroup (grad-producer, the default; PROD), the
// producer copies the Q/dO tiles and their lse/D columns into the
// two-stage ring and is the dQ writer (FlashAttention-3's): the consumers
// stage tile n's dQ into dQ tile n % 2 (once the producer's reductions of
// tile n - 2 read it: its own mbarrier) before they release stage n % 2,
// and write dS once every consumer released the previous tile's stage (its
// dQ^T read dS); the producer, after issuing tile n's copies, adds tile
// n - 2's dQ by one bulk reduction per row, waits for their reads and
// releases the dQ tile, and after its loop the last two tiles'. The
// consumers pass one named barrier a step (dS published).
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="deterministic=0 grad-producer=0" | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="deterministic=0" | FileCheck %s --check-prefix=PROD
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu | FileCheck %s --check-prefix=DEFAULT

// CHECK-LABEL: module attributes {flash.kernels = [{args = ["q", "k", "v", "o", "lse", "do", "dq", "delta", "scratch"], batch_heads = "bh", block = 128 : i64, kind = "simt", name = "flash_attention_grad_dq_0_prep", rows = "nq", rows_per_block = 64 : i64, scratch_per_block = 4096 : i64
// CHECK-SAME: {args = ["q", "k", "v", "lse", "do", "delta", "dk", "dv", "scratch"], batch_heads = "bhkv", block = 256 : i64, kind = "wgmma", name = "flash_attention_grad_dkdv_0", rows = "nk", rows_per_block = 128 : i64
// CHECK-SAME: {args = ["q", "k", "v", "o", "lse", "do", "dq", "delta", "scratch"], batch_heads = "bh", block = 128 : i64, kind = "simt", name = "flash_attention_grad_dq_0", rows = "nq", rows_per_block = 64 : i64
// The scratch: ceil(100 / 64) blocks x 8 batch-heads x 64 x 64 words.
// CHECK-LABEL: func.func private @flash_gpu_0
// CHECK: gpu.alloc {{.*}}(%c65536{{[_0-9]*}}) : memref<?xf32>
// CHECK: gpu.launch_func {{.*}} @flash_kernels::@flash_attention_grad_dq_0_prep blocks in (%c2{{[_0-9]*}}, %c8{{[_0-9]*}}, %c1{{[_0-9]*}})
// CHECK: gpu.launch_func {{.*}} @flash_kernels::@flash_attention_grad_dkdv_0 blocks in (%c1{{[_0-9]*}}, %c4{{[_0-9]*}}, %c1{{[_0-9]*}})
// CHECK: gpu.launch_func {{.*}} @flash_kernels::@flash_attention_grad_dq_0 blocks in (%c2{{[_0-9]*}}, %c8{{[_0-9]*}}, %c1{{[_0-9]*}})
// CHECK: gpu.func @flash_attention_grad_dkdv_0({{.*}}workgroup(%{{.*}} : memref<16896xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16896xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<8704xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<4356xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK: m64n64k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: m64n64k16.f32.bf16.bf16 {{.*}}, {{.*}}, d, p, 1, 1, 1;
// CHECK-NOT: wgmma.wait_group
// CHECK: cp.async.bulk.wait_group.read 0;
// CHECK: m64n32k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 1, 0;
// CHECK-SAME: add.s64 da, ${{[0-9]+}}, 896;{{.*}}m64n32k16.f32.bf16.bf16 {{.*}} da, d, p, 1, 1, 1, 0;
// CHECK-NOT: wgmma.wait_group
// CHECK: m64n64k16.f32.bf16.bf16 {{.*}}, {{.*}}, d, p, 1, 1, 1;
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: gpu.barrier
// CHECK: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [g], [$1], 256;
// CHECK: cp.async.bulk.commit_group;
// CHECK: cp.async.bulk.wait_group 0;
// CHECK: gpu.func @flash_attention_grad_dq_0_prep
// CHECK: gpu.shuffle  xor
// CHECK: vector.store %{{.*}} : memref<?xf32>, vector<4xf32>
// CHECK: gpu.func @flash_attention_grad_dq_0(
// CHECK: vector.load %{{.*}} : memref<?xf32>, vector<4xf32>
// CHECK: arith.truncf %{{.*}} : vector<4xf32> to vector<4xbf16>
// PROD: name = "flash_attention_grad_dq_0_prep"
// PROD-SAME: block = 384 : i64, kind = "wgmma", name = "flash_attention_grad_dkdv_0"
// PROD-LABEL: gpu.func @flash_attention_grad_dkdv_0
// PROD-SAME: %{{.*}} : memref<8708xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<6xi64, #gpu.address_space<workgroup>>)
// PROD-COUNT-6: nvvm.mbarrier.init
// PROD: gpu.barrier
// PROD-NOT: gpu.barrier
// PROD: nvvm.setmaxregister  decrease 40
// PROD: nvvm.cp.async.mbarrier.arrive %{{.*}} {noinc = true}
// PROD: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [g], [$1], 256;
// PROD: cp.async.bulk.wait_group.read 0;
// PROD: nvvm.mbarrier.arrive
// PROD: nvvm.mbarrier.try_wait.parity
// PROD: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [g], [$1], 256;
// PROD: nvvm.mbarrier.try_wait.parity
// PROD: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [g], [$1], 256;
// PROD: cp.async.bulk.wait_group 0;
// PROD: nvvm.setmaxregister  increase 232
// (Q and dO by TMA: no proxy fence after the wait.)
// PROD: nvvm.mbarrier.try_wait.parity
// PROD-NOT: fence.proxy.async
// PROD: wgmma.wait_group.sync.aligned 1;
// PROD: wgmma.wait_group.sync.aligned 0;
// PROD: nvvm.mbarrier.try_wait.parity
// PROD: fence.proxy.async.shared::cta;
// PROD: nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// PROD: wgmma.wait_group.sync.aligned 1;
// PROD: nvvm.mbarrier.try_wait.parity
// PROD: wgmma.wait_group.sync.aligned 0;
// PROD: fence.proxy.async.shared::cta;
// PROD: nvvm.mbarrier.arrive
// PROD-NOT: cp.reduce.async.bulk
// PROD: gpu.return
// DEFAULT-LABEL: func.func private @flash_gpu_0
// DEFAULT: @flash_attention_grad_dq_0 blocks
// DEFAULT: @flash_attention_grad_dkdv_0 blocks
// DEFAULT-NOT: cp.reduce.async.bulk
func.func @grad_bf16_gqa(%q: tensor<2x4x100x64xbf16>, %k: tensor<2x2x70x64xbf16>,
                         %l: tensor<2x4x100xf32>) -> (tensor<2x4x100x64xbf16>, tensor<2x2x70x64xbf16>) {
  %r:3 = flash.attention_grad ins(%q, %k, %k, %q, %l, %q : tensor<2x4x100x64xbf16>,
             tensor<2x2x70x64xbf16>, tensor<2x2x70x64xbf16>, tensor<2x4x100x64xbf16>,
             tensor<2x4x100xf32>, tensor<2x4x100x64xbf16>)
         outs(%q, %k, %k : tensor<2x4x100x64xbf16>, tensor<2x2x70x64xbf16>, tensor<2x2x70x64xbf16>)
         {causal} -> tensor<2x4x100x64xbf16>, tensor<2x2x70x64xbf16>, tensor<2x2x70x64xbf16>
  return %r#0, %r#1 : tensor<2x4x100x64xbf16>, tensor<2x2x70x64xbf16>
}

// -----

// `deterministic` on the op: the dQ kernel, no reductions.
// CHECK-LABEL: func.func private @flash_gpu_0
// CHECK: @flash_attention_grad_dq_0 blocks
// CHECK: @flash_attention_grad_dkdv_0 blocks
// CHECK-NOT: cp.reduce.async.bulk
func.func @grad_deterministic(%q: tensor<2x100x64xbf16>, %l: tensor<2x100xf32>)
    -> tensor<2x100x64xbf16> {
  %r:3 = flash.attention_grad ins(%q, %q, %q, %q, %l, %q : tensor<2x100x64xbf16>,
             tensor<2x100x64xbf16>, tensor<2x100x64xbf16>, tensor<2x100x64xbf16>,
             tensor<2x100xf32>, tensor<2x100x64xbf16>)
         outs(%q, %q, %q : tensor<2x100x64xbf16>, tensor<2x100x64xbf16>, tensor<2x100x64xbf16>)
         {deterministic} -> tensor<2x100x64xbf16>, tensor<2x100x64xbf16>, tensor<2x100x64xbf16>
  return %r#0 : tensor<2x100x64xbf16>
}
