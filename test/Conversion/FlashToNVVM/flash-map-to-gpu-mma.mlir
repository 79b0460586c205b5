// The tensor-core forward of flash-map-to-gpu (tensor-cores, on by default;
// --flash-to-nvvm keeps it for sm_80 and newer; wgmma=0: mma.sync, which is
// what --flash-to-nvvm keeps below sm_90a): f16 through nvgpu.mma.sync,
// bf16 through nvvm.mma.sync; 16 query rows per warp, 4 warps per block at
// head dim 64 and 8 at 128; K/V tiles of 64 keys in shared memory in the
// input type.
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu=wgmma=0 | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu=tensor-cores=0 | FileCheck %s --check-prefix=SIMT
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="wgmma=0 mma-warps=8 mma-tile-kv=32" | FileCheck %s --check-prefix=OPT
// RUN: not flash-opt %s --split-input-file --flash-map-to-gpu="wgmma=0 mma-warps=3" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not flash-opt %s --split-input-file --flash-map-to-gpu="wgmma=0 mma-max-registers=300" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="wgmma=0 mma-max-registers=96" | FileCheck %s --check-prefix=REGS
// REGS-LABEL: func.func @f16_gqa_causal
// REGS: gpu.func @flash_attention_0({{.*}} kernel attributes {{{.*}}nvvm.maxnreg = 96
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="warp-specialize=0 grad-producer=0" | FileCheck %s --check-prefix=WGMMA
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu=persistent-blocks=0 | FileCheck %s --check-prefix=WS
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu=persistent-blocks=132 | FileCheck %s --check-prefix=PERSIST
// BAD: error: flash-map-to-gpu: mma-warps must be 4 or 8, mma-tile-kv 32, 64 or 128 (0: by head dim), mma-max-registers 64..255 (0: by block size)

// Explicit tiles: 8 warps (128 rows) per block, 32-key tiles.
// OPT-LABEL: func.func @f16_gqa_causal
// OPT: blocks in (%c1{{[_0-9]*}}, %c8{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c256
// OPT: workgroup(%{{.*}} : memref<32x72xf16, #gpu.address_space<workgroup>>

// wgmma (sm_90a): 4 warps = one warpgroup of 64 rows, 64-key tiles at head
// dim 64 when causal (128 otherwise); K and V by cp.async into one buffer (aligned to 1024 bytes at run
// time) in the 128-byte swizzle, each 16-byte chunk at chunk ^ (row % 8);
// after each landing a proxy fence; S = Q K^T and O += P V as inline PTX
// (A in registers, B by descriptor: K K-major, V transposed).
// Causal (two loop bodies) at head dim 64: capped at 128 registers, so that
// 4 blocks share an SM.
// WGMMA-LABEL: func.func @f16_gqa_causal
// WGMMA: blocks in (%c2{{[_0-9]*}}, %c8{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c128
// WGMMA: gpu.func @flash_attention_0({{.*}}) workgroup(%{{.*}} : memref<8704xf16, #gpu.address_space<workgroup>>) kernel attributes {{{.*}}nvvm.maxnreg = 128
// WGMMA: memref.extract_aligned_pointer_as_index
// WGMMA: arith.xori
// WGMMA: nvgpu.device_async_copy {{.*}} : memref<4x70x64xf16> to memref<8704xf16, #gpu.address_space<workgroup>>
// WGMMA: scf.for
// WGMMA: llvm.inline_asm has_side_effects asm_dialect = att "fence.proxy.async.shared::cta;"
// WGMMA: gpu.barrier
// WGMMA: llvm.inline_asm {{.*}}wgmma.fence.sync.aligned;{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}} d, z, 1, 1, 0;{{.*}}wgmma.commit_group.sync.aligned;{{.*}}wgmma.wait_group.sync.aligned 0;
// The rows' maxima over the scores as the products give them, p = 2^(x u -
// m u) with u = scale log2 e by one FMA (mulf and addf, contract): m u is
// rounded once per row.
// WGMMA-NOT: arith.mulf %{{.*}}, %cst{{.*}} : f32
// WGMMA: gpu.shuffle xor
// WGMMA: %[[MAX:.*]] = arith.maxnumf %arg{{[0-9]+}}, %{{.*}} : f32
// WGMMA: %[[M:.*]] = arith.select %{{.*}}, %{{.*}}, %[[MAX]] : f32
// WGMMA: %[[NEGMU:.*]] = arith.mulf %[[M]], %[[NEGU:.*]] : f32
// WGMMA: %[[ALPHA:.*]] = arith.addf %{{.*}}, %[[NEGMU]] fastmath<contract> : f32
// WGMMA-NEXT: math.exp2 %[[ALPHA]]
// WGMMA: %[[XU:.*]] = arith.mulf %{{[0-9]+}}, %{{.*}} fastmath<contract> : f32
// WGMMA-NEXT: %[[E:.*]] = arith.addf %[[XU]], %[[NEGMU]] fastmath<contract> : f32
// WGMMA-NEXT: math.exp2 %[[E]]
// WGMMA: llvm.inline_asm {{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}} d, p, 1, 1, 1;
// WGMMA-NOT: ldmatrix

// CHECK-LABEL: func.func @f16_gqa_causal
// K and V arrive by cp.async into rows padded to 72 elements; B fragments
// by ldmatrix (V transposed).
// CHECK: gpu.launch_func {{.*}} @flash_kernels::@flash_attention_0 blocks in (%c2{{[_0-9]*}}, %c8{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c128{{[_0-9]*}}, %c1{{[_0-9]*}}, %c1{{[_0-9]*}})
// CHECK: gpu.func @flash_attention_0({{.*}}) workgroup(%{{.*}} : memref<64x72xf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<64x72xf16, #gpu.address_space<workgroup>>) kernel
// CHECK: nvgpu.device_async_copy {{.*}}, 8 {bypassL1} : memref<4x70x64xf16> to memref<64x72xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: nvgpu.device_async_wait
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK-COUNT-2: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: gpu.shuffle xor
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// o is stored a lane's column pair at a time, one 32-bit access (aligned:
// else NVPTX splits it into two 16-bit stores).
// CHECK: vector.store {{.*}} {alignment = 4 : i64} : memref<8x100x64xf16>, vector<2xf16>
// SIMT-LABEL: func.func @f16_gqa_causal
// SIMT: blocks in (%c1{{[_0-9]*}}, %c8{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c128{{[_0-9]*}}, %c1{{[_0-9]*}}, %c1{{[_0-9]*}})
// SIMT-NOT: mma.sync
func.func @f16_gqa_causal(%q: tensor<2x4x100x64xf16>, %k: tensor<2x2x70x64xf16>,
                          %v: tensor<2x2x70x64xf16>) -> tensor<2x4x100x64xf16> {
  %o = tensor.empty() : tensor<2x4x100x64xf16>
  %r = flash.attention ins(%q, %k, %v : tensor<2x4x100x64xf16>,
           tensor<2x2x70x64xf16>, tensor<2x2x70x64xf16>)
       outs(%o : tensor<2x4x100x64xf16>) {causal} -> tensor<2x4x100x64xf16>
  return %r : tensor<2x4x100x64xf16>
}

// -----

// Head dim 256 on wgmma: two warpgroups (256 threads, 128 query rows) share
// a two-stage ring of 32-key K and V tiles (4 x 32 x 256 elements, plus 1
// KiB to align them); each tile waits for its copies once, one barrier,
// then streams the next tile's K and V into the other stage.
// WGMMA-LABEL: func.func @bf16_d256
// WGMMA: blocks in (%c1{{[_0-9]*}}, %c2{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c256
// WGMMA: workgroup(%{{.*}} : memref<33280xbf16, #gpu.address_space<workgroup>>){{.*}}flash.kernel_kind = "wgmma"
// WGMMA-COUNT-8: nvgpu.device_async_copy
// WGMMA: scf.for
// WGMMA: nvgpu.device_async_wait
// WGMMA-NEXT: fence.proxy.async.shared::cta
// WGMMA-NEXT: gpu.barrier
// WGMMA-NOT: gpu.barrier
// WGMMA-COUNT-8: nvgpu.device_async_copy
// WGMMA-NOT: gpu.barrier
// WGMMA: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16
// WGMMA-NOT: gpu.barrier
// WGMMA: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// WGMMA-NOT: gpu.barrier
// WGMMA: scf.yield
func.func @bf16_d256(%q: tensor<1x2x100x256xbf16>, %k: tensor<1x2x130x256xbf16>,
                     %v: tensor<1x2x130x256xbf16>) -> tensor<1x2x100x256xbf16> {
  %o = tensor.empty() : tensor<1x2x100x256xbf16>
  %r = flash.attention ins(%q, %k, %v : tensor<1x2x100x256xbf16>,
           tensor<1x2x130x256xbf16>, tensor<1x2x130x256xbf16>)
       outs(%o : tensor<1x2x100x256xbf16>) {causal} -> tensor<1x2x100x256xbf16>
  return %r : tensor<1x2x100x256xbf16>
}

// -----

// Head dim 128: 64-key tiles in two 64-column groups (K steps 4.. one
// group further: 64 keys * 128 bytes = 8192 bytes = 512 in descriptor units);
// Q in a third tile of shared memory (3 x 64 x 128 elements + 1 KiB to align
// them), the A operand of S = Q K^T by descriptor, stepping as K does.
// WGMMA-LABEL: func.func @bf16
// WGMMA: threads in (%c128
// WGMMA: memref<25088xbf16, #gpu.address_space<workgroup>>{{.*}}flash.kernel_kind = "wgmma"
// WGMMA: add.s64 d, ${{[0-9]+}}, 512;\0Aadd.s64 da, ${{[0-9]+}}, 512;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, da, d, p, 1, 1, 0, 0;
// WGMMA: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// The default at head dim 128: warp-specialized blocks of 384 threads (two
// consumer warpgroups of 64 rows, then the producer), Q and a two-stage
// ring of 128-key K/V tiles (5 x 128 x 128 elements + 1 KiB) and 12
// mbarriers (those of a second Q buffer unused); the producer gives
// registers away and one of its threads copies by TMA (K a tile ahead of
// V), each copy's bytes expected on the stage's mbarrier; the consumers
// wait for each stage, take
// turns to issue S = Q K^T and O += P V asynchronously (named barriers),
// and run the softmax while P V is in flight.
// Explicit tuning options select the one-warpgroup kernel.
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu=mma-tile-kv=64 | FileCheck %s --check-prefix=TUNED
// TUNED-LABEL: func.func @bf16
// TUNED: threads in (%c128
// WS-LABEL: func.func @bf16
// The tensor maps of q, k and v (128-row boxes of 64 columns), encoded on
// the host, passed after the sizes.
// WS: %[[QMAP:.*]] = llvm.alloca %{{.*}} x !llvm.array<16 x i64> {alignment = 64 : i64}
// WS: call @flashTensorMapEncode(%[[QMAP]], %{{.*}}, %c2_i64, %{{.*}}, %{{.*}}, %{{.*}}, %c64_i64, %c128_i64)
// WS-COUNT-2: call @flashTensorMapEncode
// WS: threads in (%c384{{.*}} args({{.*}}, %[[QMAP]] : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr)
// WS: gpu.func @flash_attention_0({{.*}}%[[Q:arg[0-9]+]]: !llvm.ptr, %[[K:arg[0-9]+]]: !llvm.ptr, %[[V:arg[0-9]+]]: !llvm.ptr) workgroup(%{{.*}} : memref<82432xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<12xi64, #gpu.address_space<workgroup>>){{.*}}flash.kernel_kind = "wgmma", flash.launch = {{.*}}tensor_maps = {{\[}}[0, 128, 64], [1, 128, 64], [2, 128, 64]]{{.*}}flash.tensor_maps = array<i64: 5, 6, 7>
// WS-COUNT-6: nvvm.mbarrier.init %{{.*}}, %c1_i32
// WS-COUNT-6: nvvm.mbarrier.init %{{.*}}, %c256_i32
// WS: gpu.barrier
// The roles by warpgroup, a warp-uniform value (lane 0's): warpgroup 2 on.
// WS: gpu.shuffle  idx
// WS: %[[WGI:.*]] = arith.index_castui %{{.*}} : i32 to index
// WS: %[[PRODUCER:.*]] = arith.cmpi uge, %[[WGI]], %c2
// WS: scf.if %[[PRODUCER]] {
// WS: nvvm.setmaxregister  decrease 24
// The first warp walks the tiles, its first lane issues.
// WS: %[[WARP:.*]] = arith.cmpi ult, %{{.*}}, %c288
// WS: scf.if %[[WARP]] {
// WS: %[[LEADER:.*]] = arith.cmpi eq, %{{.*}}, %c256
// Q (128 rows, two 64-column groups of 16 KiB).
// WS: scf.if %[[LEADER]] {
// WS: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
// WS-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[Q]], %{{.*}}, box[
// K a tile ahead of V: the first tile's K, then each step K of the next
// tile (if any) before its own V.
// WS: scf.if
// WS: nvvm.mbarrier.try_wait.parity
// WS: scf.if %[[LEADER]] {
// WS: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
// WS-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[K]], %{{.*}}, box[
// WS: scf.for %[[T:.*]] = {{.*}} iter_args
// WS: %[[AFTER:.*]] = arith.addi %[[T]], %c128
// WS: %[[HAS:.*]] = arith.cmpi slt, %[[AFTER]],
// WS: scf.if %[[HAS]] {
// WS: nvvm.mbarrier.try_wait.parity
// WS: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[K]]
// WS: }
// WS: nvvm.mbarrier.try_wait.parity
// WS: nvvm.mbarrier.arrive.expect_tx
// WS: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[V]]
// WS-NOT: nvgpu.device_async_copy
// WS: nvvm.setmaxregister  increase 240
// WS: nvvm.barrier.arrive id
// WS: scf.for
// WS: nvvm.barrier id = %{{.*}} number_of_threads = %c256_i32
// WS: wgmma.mma_async.sync.aligned.m64n128k16
// WS: wgmma.commit_group.sync.aligned;\0A}
// WS: nvvm.barrier.arrive id
// WS: "wgmma.wait_group.sync.aligned 1;"
// WS: nvvm.mbarrier.arrive
// WS: "wgmma.wait_group.sync.aligned 0;"
// WS: nvvm.mbarrier.arrive
// o goes out through Q's shared memory: each warpgroup (named barriers 3
// and 4) writes its column pairs there, then copies 16-byte chunks.
// WS: nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// WS-COUNT-16: vector.store {{.*}} {alignment = 4 : i64} : memref<82432xbf16, #gpu.address_space<workgroup>>, vector<2xbf16>
// WS: nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// WS: vector.load {{.*}} {alignment = 16 : i64} : memref<82432xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// WS-NEXT: vector.store {{.*}} {alignment = 16 : i64} : memref<{{.*}}xbf16{{.*}}>, vector<8xbf16>
// With static sizes and no causal limit: the same kernel,
// persistent (persistent-blocks = 132 blocks at most, one per SM): each
// role loops over query blocks of every batch-head (LLVM's LICM kept out
// of the loop), Q in two buffers (6 tiles), 12 mbarriers (Q landed and Q
// free per buffer); the producer's thread waits for Q's buffer to be free
// before it copies the next one's; the consumers free it after their
// epilogue. The
// producer keeps 40 registers, the consumers 232.
// (Here 3 query blocks of 37 rows in 3 batch-heads: 3 blocks.)
// PERSIST-LABEL: func.func @bf16(
// PERSIST: gpu.launch_func {{.*}} blocks in (%c3{{[_0-9]*}}, %c1{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c384
// PERSIST: gpu.func @flash_attention_0({{.*}}workgroup(%{{.*}} : memref<98816xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<12xi64, #gpu.address_space<workgroup>>){{.*}}persistent_blocks = 132
// PERSIST-COUNT-6: nvvm.mbarrier.init %{{.*}}, %c1_i32
// PERSIST-COUNT-6: nvvm.mbarrier.init %{{.*}}, %c256_i32
// PERSIST: nvvm.setmaxregister  decrease 40
// PERSIST: scf.if
// PERSIST: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (i32, i32)  : i32
// PERSIST: nvvm.mbarrier.try_wait.parity
// PERSIST: nvvm.mbarrier.arrive.expect_tx
// PERSIST: nvvm.cp.async.bulk.tensor.shared.cluster.global
// PERSIST: scf.for
// PERSIST: scf.yield
// PERSIST: } {loop_annotation = #{{.*}}}
// PERSIST: nvvm.setmaxregister  increase 232
// PERSIST: nvvm.barrier.arrive id
// PERSIST: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (i32, i32)  : i32
// PERSIST: nvvm.mbarrier.try_wait.parity
// PERSIST: wgmma.mma_async.sync.aligned.m64n128k16
// PERSIST: vector.store {{.*}} {alignment = 16 : i64} : memref<{{.*}}xbf16{{.*}}>, vector<8xbf16>
// The staging's reads before the next Q's tensor copy (a proxy fence).
// PERSIST: fence.proxy.async.shared::cta
// PERSIST: nvvm.mbarrier.arrive
// PERSIST-NOT: nvvm.
// PERSIST: scf.yield
// PERSIST-NEXT: } {loop_annotation = #{{.*}}}
// With at most 1024 keys too (the next query block's first tiles overlap
// this one's last ones).
// PERSIST-LABEL: func.func @bf16_short
// PERSIST: threads in (%c384
// PERSIST: persistent_blocks = 132
// CHECK-LABEL: func.func @bf16
// CHECK: gpu.launch_func {{.*}} blocks in (%c1{{[_0-9]*}}, %c3{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c256{{[_0-9]*}}, %c1{{[_0-9]*}}, %c1{{[_0-9]*}})
// CHECK: workgroup(%{{.*}} : memref<64x136xbf16, #gpu.address_space<workgroup>>{{.*}}flash.kernel_kind = "mma.sync"
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// With at most 1024 keys (static) and not persistent, the one-warpgroup
// kernel.
// WS-LABEL: func.func @bf16_short
// WS: threads in (%c128
// WS-NOT: nvvm.setmaxregister
// WS: gpu.return
func.func @bf16(%q: tensor<3x37x128xbf16>, %k: tensor<3x1100x128xbf16>) -> tensor<3x37x128xbf16> {
  %o = tensor.empty() : tensor<3x37x128xbf16>
  %r = flash.attention ins(%q, %k, %k : tensor<3x37x128xbf16>,
           tensor<3x1100x128xbf16>, tensor<3x1100x128xbf16>)
       outs(%o : tensor<3x37x128xbf16>) -> tensor<3x37x128xbf16>
  return %r : tensor<3x37x128xbf16>
}

// -----

func.func @bf16_short(%q: tensor<3x37x128xbf16>, %k: tensor<3x1024x128xbf16>) -> tensor<3x37x128xbf16> {
  %o = tensor.empty() : tensor<3x37x128xbf16>
  %r = flash.attention ins(%q, %k, %k : tensor<3x37x128xbf16>,
           tensor<3x1024x128xbf16>, tensor<3x1024x128xbf16>)
       outs(%o : tensor<3x37x128xbf16>) -> tensor<3x37x128xbf16>
  return %r : tensor<3x37x128xbf16>
}

// -----

// Where the tensor-core kernels do not apply (f32; head dims that are not
// multiples of 16, or over 256): the SIMT kernels.
// CHECK-LABEL: func.func @simt_cases
// CHECK: return
// CHECK-COUNT-3: flash.kernel_kind = "simt"
// CHECK-NOT: nvgpu.mma.sync
func.func @simt_cases(%q: tensor<2x40x64xf32>, %h24: tensor<2x40x24xf16>,
                      %h272: tensor<2x40x272xf16>)
    -> (tensor<2x40x64xf32>, tensor<2x40x24xf16>, tensor<2x40x272xf16>) {
  %o = tensor.empty() : tensor<2x40x64xf32>
  %r = flash.attention ins(%q, %q, %q : tensor<2x40x64xf32>, tensor<2x40x64xf32>, tensor<2x40x64xf32>)
       outs(%o : tensor<2x40x64xf32>) -> tensor<2x40x64xf32>
  %o24 = tensor.empty() : tensor<2x40x24xf16>
  %r24 = flash.attention ins(%h24, %h24, %h24 : tensor<2x40x24xf16>, tensor<2x40x24xf16>, tensor<2x40x24xf16>)
         outs(%o24 : tensor<2x40x24xf16>) -> tensor<2x40x24xf16>
  %o272 = tensor.empty() : tensor<2x40x272xf16>
  %r272 = flash.attention ins(%h272, %h272, %h272 : tensor<2x40x272xf16>, tensor<2x40x272xf16>, tensor<2x40x272xf16>)
          outs(%o272 : tensor<2x40x272xf16>) -> tensor<2x40x272xf16>
  return %r, %r24, %r272 : tensor<2x40x64xf32>, tensor<2x40x24xf16>, tensor<2x40x272xf16>
}

// -----

// A mask on tensor cores: staged as f32 in its own shape ([Nq, Nk] here,
// broadcast over batch and heads) and added to the scores of every tile.
// CHECK-LABEL: func.func @masked_f16
// CHECK: gpu.func @flash_attention_0({{.*}}, %{{.*}}: memref<1600xf32>) workgroup
// CHECK: nvgpu.mma.sync
// CHECK: memref.load %{{.*}} : memref<1600xf32>
func.func @masked_f16(%h: tensor<2x40x64xf16>, %m: tensor<40x40xi1>) -> tensor<2x40x64xf16> {
  %oh = tensor.empty() : tensor<2x40x64xf16>
  %rh = flash.attention ins(%h, %h, %h : tensor<2x40x64xf16>, tensor<2x40x64xf16>, tensor<2x40x64xf16>)
        mask(%m : tensor<40x40xi1>) outs(%oh : tensor<2x40x64xf16>) -> tensor<2x40x64xf16>
  return %rh : tensor<2x40x64xf16>
}

// -----

// The backward on tensor cores: a dQ kernel (16 query rows per warp) and a
// dK/dV kernel (16 key rows per warp), 4 warps each; P^T, dS^T come from
// the accumulators, the transposed operands from ldmatrix.trans.
// The wgmma backward: each kernel's two input tiles double-buffered in one
// swizzled buffer (4 tiles of 64 rows); a step's copies, issued at the top
// of the step before, are waited for at its end, before the one barrier a
// step (after which its own tiles may be overwritten); the fixed A operands (Q and dO, K and V) read from one
// more shared tile (grad-a-shared: `da`); the products with the tiles as
// B^T (K-major), then as B (MN-major, transposed: dQ += dS K, dK += dS^T Q,
// dV += P^T dO).
// WGMMA-LABEL: func.func @grad_bf16_gqa
// WGMMA: gpu.func @flash_attention_grad_dq_0({{.*}}workgroup(%{{.*}} : memref<16896xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<8704xbf16, #gpu.address_space<workgroup>>)
// WGMMA: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// WGMMA: fence.proxy.async.shared::cta;
// WGMMA: m64n64k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// WGMMA: m64n64k16.f32.bf16.bf16 {{.*}} d, p, 1, 1, 1;
// The dK/dV kernel copies each query tile's lse and D (4-byte cp.async,
// a group before the tile's) into [stage][lse, D][64] f32.
// WGMMA: gpu.func @flash_attention_grad_dkdv_0({{.*}}workgroup(%{{.*}} : memref<16896xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8704xbf16, #gpu.address_space<workgroup>>)
// WGMMA: nvgpu.device_async_copy {{.*}}, 1, %{{.*}} : memref<8x100xf32> to memref<256xf32, #gpu.address_space<workgroup>>
// WGMMA: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// WGMMA-COUNT-2: m64n64k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// WGMMA-COUNT-2: m64n64k16.f32.bf16.bf16 {{.*}} d, p, 1, 1, 1;
// CHECK-LABEL: func.func @grad_bf16_gqa
// CHECK: gpu.launch_func {{.*}} @flash_kernels::@flash_attention_grad_dq_0 blocks in (%c2{{[_0-9]*}}, %c8{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c128
// CHECK: gpu.launch_func {{.*}} @flash_kernels::@flash_attention_grad_dkdv_0 blocks in (%c2{{[_0-9]*}}, %c4{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c128
// CHECK: gpu.func @flash_attention_grad_dq_0
// CHECK: nvvm.mma.sync
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK: vector.store {{.*}} {alignment = 4 : i64} : memref<8x100x64xbf16>, vector<2xbf16>
// CHECK: gpu.func @flash_attention_grad_dkdv_0
// CHECK: nvvm.mma.sync
// CHECK: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK: vector.store {{.*}} {alignment = 4 : i64} : memref<4x70x64xbf16>, vector<2xbf16>
// SIMT-LABEL: func.func @grad_bf16_gqa
// SIMT-NOT: mma.sync
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

// The backward with an additive mask computes P's exponent in the
// forward's order: the score scaled and rounded (no `contract`: LLVM would
// fuse it into the add), the mask added, then lse subtracted; the
// forward's max element then has P = 2^(-log2 l) in both passes.
// CHECK-LABEL: func.func @grad_add_mask
// CHECK: gpu.func @flash_attention_grad_dq_0
// CHECK: %[[SL2:.*]] = arith.constant 0.360673755 : f32
// CHECK-NEXT: %[[S:.*]] = arith.mulf %{{.*}}, %[[SL2]] : f32
// CHECK: %[[M:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<4160xf32>
// CHECK: %[[ML:.*]] = arith.mulf %[[M]], %{{.*}} fastmath<contract> : f32
// CHECK: %[[X:.*]] = arith.addf %[[ML]], %[[S]] fastmath<contract> : f32
// CHECK: %[[A:.*]] = arith.subf %[[X]], %{{.*}} : f32
// CHECK: math.exp2 %[[A]]
// CHECK: gpu.func @flash_attention_grad_dkdv_0
// CHECK: %[[SL22:.*]] = arith.constant 0.360673755 : f32
// CHECK-NEXT: %[[S2:.*]] = arith.mulf %{{.*}}, %[[SL22]] : f32
// CHECK: %[[X2:.*]] = arith.addf %{{.*}}, %[[S2]] fastmath<contract> : f32
// CHECK: %[[A2:.*]] = arith.subf %[[X2]], %{{.*}} : f32
// CHECK: math.exp2 %[[A2]]
func.func @grad_add_mask(%q: tensor<2x65x16xf16>, %k: tensor<2x64x16xf16>, %lse: tensor<2x65xf32>, %m: tensor<65x64xf16>) -> tensor<2x65x16xf16> {
  %dq0 = tensor.empty() : tensor<2x65x16xf16>
  %dk0 = tensor.empty() : tensor<2x64x16xf16>
  %r:3 = flash.attention_grad ins(%q, %k, %k, %q, %lse, %q : tensor<2x65x16xf16>, tensor<2x64x16xf16>, tensor<2x64x16xf16>, tensor<2x65x16xf16>, tensor<2x65xf32>, tensor<2x65x16xf16>) mask(%m : tensor<65x64xf16>) outs(%dq0, %dk0, %dk0 : tensor<2x65x16xf16>, tensor<2x64x16xf16>, tensor<2x64x16xf16>) -> tensor<2x65x16xf16>, tensor<2x64x16xf16>, tensor<2x64x16xf16>
  return %r#0 : tensor<2x65x16xf16>
}
