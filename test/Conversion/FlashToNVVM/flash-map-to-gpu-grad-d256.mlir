// The backward at head dim 256 on wgmma (MmaGradKernels.cpp): Q and dO
// (dQ kernel), K and V (dK/dV kernel) as A fragments would take 128
// registers next to the accumulators' 128, so S / dP and S^T / dP^T read
// them from shared memory (K-major: `da`). Both kernels take two consumer
// warpgroups and a producer warpgroup (384 threads; setmaxnreg: 24 / 40
// registers for the producers) that streams 32-row tiles into a two-stage
// ring. The dQ kernel's warpgroups take 64 queries each (128 a block) and
// all of dQ (m64n256); the dK/dV kernel's split each step by roles on the
// block's 64 keys (gx = ceil(130 / 64)): the first computes S^T, P^T and
// dV += P^T dO, the second dP^T, dS^T and dK += dS^T Q (one m64n32
// product and one m64n256 with A from registers each); the first hands
// the second P^T's f32 factors of dS^T through shared memory (named
// barrier 2: published; 3: read, with a producer). dQ by atomics stops at d = 128
// (deterministic=0 keeps the two kernels here); mma.sync has no such form
// (wgmma=0: the SIMT kernels). On by default since it ran on the H200
// (grad-d256=0: the SIMT kernels).
// RUN: flash-opt %s --flash-map-to-gpu | FileCheck %s
// RUN: flash-opt %s --flash-map-to-gpu="deterministic=0" | FileCheck %s
// RUN: flash-opt %s --flash-map-to-gpu="wgmma=0" | FileCheck %s --check-prefix=SIMT
// RUN: flash-opt %s --flash-map-to-gpu="grad-d256=0" | FileCheck %s --check-prefix=SIMT
// Without producers (grad-producer=0): 256 threads, no setmaxnreg; two
// warpgroups even with mma-warps=4.
// RUN: flash-opt %s --flash-map-to-gpu="mma-warps=4 grad-producer=0" | FileCheck %s --check-prefix=NOPROD

// CHECK-LABEL: module attributes {flash.kernels = [{args = ["q", "k", "v", "o", "lse", "do", "dq", "delta"], batch_heads = "bh", block = 384 : i64, kind = "wgmma", name = "flash_attention_grad_dq_0", rows = "nq", rows_per_block = 128 : i64
// CHECK-SAME: {args = ["q", "k", "v", "lse", "do", "delta", "dk", "dv"], batch_heads = "bhkv", block = 384 : i64, kind = "wgmma", name = "flash_attention_grad_dkdv_0", rows = "nk", rows_per_block = 64 : i64
// CHECK-LABEL: func.func private @flash_gpu_0
// CHECK-NOT: cp.reduce.async.bulk
// CHECK: gpu.launch_func {{.*}} @flash_kernels::@flash_attention_grad_dq_0 blocks in (%c1{{[_0-9]*}}, %c8{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c384
// CHECK: gpu.launch_func {{.*}} @flash_kernels::@flash_attention_grad_dkdv_0 blocks in (%c3{{[_0-9]*}}, %c4{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c384
// The ring: two stages of two 32-row tiles (+1024 bytes to align them),
// then the fixed A tiles and the ring's four mbarriers.
// CHECK: gpu.func @flash_attention_grad_dq_0({{.*}}workgroup(%{{.*}} : memref<33280xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<66048xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<4xi64, #gpu.address_space<workgroup>>)
// CHECK: nvvm.setmaxregister  decrease 24
// CHECK: nvvm.setmaxregister  increase 240
// CHECK: m64n32k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// CHECK: m64n256k16.f32.bf16.bf16 {{.*}} d, p, 1, 1, 1;
// The dK/dV kernel: the ring, its lse / D columns, K and V of 64 keys,
// P^T's f32 factors (16 a thread).
// CHECK: gpu.func @flash_attention_grad_dkdv_0({{.*}}workgroup(%{{.*}} : memref<33280xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<128xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<33280xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<2048xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<4xi64, #gpu.address_space<workgroup>>)
// The role (tid / 128).
// CHECK: %[[ROLE:.*]] = arith.divui %{{.*}}, %c128
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: m64n32k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// The second: waits for the factors, reports them read; the first: waits
// for the last step's to be read (past the first step), publishes.
// CHECK: scf.if
// CHECK: nvvm.barrier id = %c2_i32
// CHECK: nvvm.barrier.arrive id = %c3_i32
// CHECK: } else {
// CHECK: scf.if
// CHECK: nvvm.barrier id = %c3_i32
// CHECK: nvvm.barrier.arrive id = %c2_i32
// CHECK: m64n256k16.f32.bf16.bf16 {{.*}} d, p, 1, 1, 1;
// After the loop the first passes barrier 3 once more.
// CHECK: nvvm.barrier id = %c3_i32
// NOPROD: block = 256 : i64, kind = "wgmma", name = "flash_attention_grad_dq_0", rows = "nq", rows_per_block = 128 : i64
// NOPROD-SAME: block = 256 : i64, kind = "wgmma", name = "flash_attention_grad_dkdv_0", rows = "nk", rows_per_block = 64 : i64
// NOPROD-NOT: nvvm.setmaxregister
// NOPROD-NOT: id = %c3_i32
// SIMT: kind = "simt", name = "flash_attention_grad_dq_0"
// SIMT-NOT: kind = "wgmma"
func.func @grad_d256(%q: tensor<2x4x100x256xbf16>, %k: tensor<2x2x130x256xbf16>,
                     %l: tensor<2x4x100xf32>) -> (tensor<2x4x100x256xbf16>, tensor<2x2x130x256xbf16>) {
  %r:3 = flash.attention_grad ins(%q, %k, %k, %q, %l, %q : tensor<2x4x100x256xbf16>,
             tensor<2x2x130x256xbf16>, tensor<2x2x130x256xbf16>, tensor<2x4x100x256xbf16>,
             tensor<2x4x100xf32>, tensor<2x4x100x256xbf16>)
         outs(%q, %k, %k : tensor<2x4x100x256xbf16>, tensor<2x2x130x256xbf16>, tensor<2x2x130x256xbf16>)
         {causal} -> tensor<2x4x100x256xbf16>, tensor<2x2x130x256xbf16>, tensor<2x2x130x256xbf16>
  return %r#0, %r#1 : tensor<2x4x100x256xbf16>, tensor<2x2x130x256xbf16>
}
