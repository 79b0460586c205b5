// The deterministic wgmma backward's kernels with a producer warpgroup
// (grad-producer, the default: the dK/dV kernel up to d = 128, the dQ
// kernel at d = 128): 128 threads after the consumer warps (256 a block).
// Every thread copies the block's fixed A tiles once (K and V; Q and dO:
// sharedATiles, the one block-wide barrier, which also publishes the
// ring's four mbarriers: stage 0, 1 landed, count 128 producer threads;
// stage 0, 1 read, count 128 consumer threads). Then the roles split: the
// producer (setmaxnreg down to 24 of the launch's 128, 40 in the dQ
// kernel) walks the tiles in
// the consumers' order (the dK/dV kernel's over the query heads of the
// group); per tile it waits for the stage to be free (parity ^ 1), copies
// the tiles by cp.async (K and V; the dK/dV kernel's lse and D columns,
// then Q and dO) and arrives on the stage's landed barrier once they land
// (noinc). The consumers (setmaxnreg up to 232, 216 in the dQ kernel: two
// blocks an SM; the dQ kernel's compute D = rowsum(dO * O) first) wait for the stage, fence
// the async proxy, issue their products, wait for the last ones (dK and dV
// together) and arrive on the stage's read barrier: no block-wide barrier
// after the split. grad-producer=0 keeps every thread copying its tiles
// (flash-map-to-gpu-mma.mlir). dQ by reductions: the dK/dV kernel's two
// consumer warpgroups (384 threads), the producer also its dQ writer
// (flash-map-to-gpu-atomic-dq.mlir).
// RUN: flash-opt %s --flash-map-to-gpu | FileCheck %s
// RUN: flash-opt %s --flash-map-to-gpu=grad-producer=0 | FileCheck %s --check-prefix=OFF
// RUN: flash-opt %s --flash-map-to-gpu=deterministic=0 | FileCheck %s --check-prefix=RED

// CHECK: block = 256 : i64, kind = "wgmma", name = "flash_attention_grad_dq_0"
// CHECK: block = 256 : i64, kind = "wgmma", name = "flash_attention_grad_dkdv_0"
// The dQ kernel's producer is one warp walking the tiles, its first lane
// copying K and V by TMA: the
// kernels take the op's tensor maps of k and v (64-key boxes) last, each
// stage lands on its one arrival with the copies' bytes (2 x 64 x 128 x 2),
// and its consumers need no proxy fence.
// CHECK-LABEL: gpu.func @flash_attention_grad_dq_0
// CHECK-SAME: %[[KMAP:arg[0-9]+]]: !llvm.ptr, %[[VMAP:arg[0-9]+]]: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK-SAME: %{{.*}} : memref<4xi64, #gpu.address_space<workgroup>>)
// CHECK-SAME: tensor_maps = {{\[}}[1, 64, 64], [2, 64, 64], [0, 64, 64], [5, 64, 64]]
// CHECK-SAME: nvvm.maxnreg = 128
// CHECK-COUNT-2: nvvm.mbarrier.init %{{.*}}, %c1_i32
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// The roles by warpgroup, a warp-uniform value (lane 0's).
// CHECK: %[[WGQ:.*]], %{{.*}} = gpu.shuffle  idx
// CHECK: %[[QPRODUCER:.*]] = arith.cmpi uge, %{{.*}}, %c1
// CHECK: scf.if %[[QPRODUCER]] {
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: %[[WARP:.*]] = arith.cmpi ult, %{{.*}}, %c160
// CHECK: scf.if %[[WARP]] {
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %{{.*}}, %c128
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: scf.if %[[LEADER]] {
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[KMAP]]
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[VMAP]]
// CHECK: } else {
// CHECK: nvvm.setmaxregister  increase 216
// CHECK: gpu.shuffle  xor
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NOT: fence.proxy.async
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: nvvm.mbarrier.arrive
// CHECK: gpu.return
// The dK/dV kernel's producer: Q and dO by TMA from its first thread,
// which adds their bytes (2 x 64 x 128 x 2) to the stage's phase first,
// the lse and D columns by every producer thread's cp.async.
// CHECK-LABEL: gpu.func @flash_attention_grad_dkdv_0
// CHECK-SAME: %[[QMAP:arg[0-9]+]]: !llvm.ptr, %[[DOMAP:arg[0-9]+]]: !llvm.ptr)
// CHECK-SAME: %{{.*}} : memref<4xi64, #gpu.address_space<workgroup>>)
// CHECK-SAME: nvvm.maxnreg = 128
// CHECK-COUNT-2: nvvm.mbarrier.init %{{.*}}, %c128_i32
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// The roles by warpgroup, a warp-uniform value (lane 0's).
// CHECK: %[[WGP:.*]], %{{.*}} = gpu.shuffle  idx
// CHECK: %[[PRODUCER:.*]] = arith.cmpi uge, %{{.*}}, %c1
// CHECK: scf.if %[[PRODUCER]] {
// CHECK: nvvm.setmaxregister  decrease 24
// CHECK: scf.for
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.expect_tx %{{.*}}, %c32768_i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[QMAP]]
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[DOMAP]]
// CHECK: nvgpu.device_async_copy {{.*}} : memref<8x100xf32> to memref<256xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: nvgpu.device_async_copy {{.*}}xbf16>
// CHECK: nvvm.cp.async.mbarrier.arrive %{{.*}} {noinc = true}
// CHECK: } else {
// CHECK: nvvm.setmaxregister  increase 232
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NOT: fence.proxy.async
// CHECK: m64n64k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// CHECK: m64n128k16.f32.bf16.bf16 {{.*}} d, p, 1, 1, 1;
// CHECK-NOT: wgmma.wait_group
// CHECK: m64n128k16.f32.bf16.bf16 {{.*}} d, p, 1, 1, 1;
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: nvvm.mbarrier.arrive
// CHECK-NEXT: arith.constant 1 : index
// CHECK-NEXT: arith.addi
// CHECK-NEXT: scf.yield
// CHECK: gpu.return
// OFF: block = 128 : i64, kind = "wgmma", name = "flash_attention_grad_dq_0"
// OFF: block = 128 : i64, kind = "wgmma", name = "flash_attention_grad_dkdv_0"
// OFF-NOT: nvvm.setmaxregister
// RED: block = 384 : i64, kind = "wgmma", name = "flash_attention_grad_dkdv_0"
// RED: nvvm.setmaxregister  decrease 24
// RED: nvvm.setmaxregister  increase 240
func.func @grad_d128(%q: tensor<2x4x100x128xbf16>, %k: tensor<2x2x130x128xbf16>,
                     %l: tensor<2x4x100xf32>) -> (tensor<2x4x100x128xbf16>, tensor<2x2x130x128xbf16>) {
  %r:3 = flash.attention_grad ins(%q, %k, %k, %q, %l, %q : tensor<2x4x100x128xbf16>,
             tensor<2x2x130x128xbf16>, tensor<2x2x130x128xbf16>, tensor<2x4x100x128xbf16>,
             tensor<2x4x100xf32>, tensor<2x4x100x128xbf16>)
         outs(%q, %k, %k : tensor<2x4x100x128xbf16>, tensor<2x2x130x128xbf16>, tensor<2x2x130x128xbf16>)
         {causal} -> tensor<2x4x100x128xbf16>, tensor<2x2x130x128xbf16>, tensor<2x2x130x128xbf16>
  return %r#0, %r#1 : tensor<2x4x100x128xbf16>, tensor<2x2x130x128xbf16>
}
