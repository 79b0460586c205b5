// Decode shapes get the split-KV kernels (SplitKVKernels.cpp): a static Nq
// whose GQA group packs into at most 16 query rows, keys split across
// blocks, a combine kernel; the launch contracts on the module
// (flash.kernels), the host's scratch buffer and two launches.
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="tensor-cores=0" | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="tensor-cores=0 split-kv=0" | FileCheck %s --check-prefix=OFF
// With tensor cores, a bf16 decode's partial kernel is the wgmma forward
// over one split of the keys (the packed problem: 4 rows of one kv head),
// its rows' records to the scratch after lse; the combine is the same.
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="tensor-cores=1 wgmma=1" | FileCheck %s --check-prefix=TC
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="tensor-cores=0 split-kv-blocks=512" | FileCheck %s --check-prefix=BLOCKS
// RUN: not flash-opt %s --split-input-file --flash-map-to-gpu="split-kv-blocks=0" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: flash-map-to-gpu: threads, tile-kv and split-kv-blocks must be positive

// Nq = 1, GQA 8 / 2: 4 packed rows; Nk dynamic.
// CHECK-LABEL: module attributes {flash.kernels = [
// CHECK-SAME: {args = ["q", "k", "v", "o", "lse", "scratch"], batch_heads = "bhkv", block = 128 : i64, kind = "split-kv", max_blocks_x = 128 : i64, min_blocks_x = 2 : i64, name = "flash_attention_0", rows = "nk", rows_per_block = 128 : i64, scratch_per_block = 264 : i64, sizes = ["nk"], target_blocks = 256 : i64}
// CHECK-SAME: {args = ["q", "k", "v", "o", "lse", "scratch"], batch_heads = "bh", block = 128 : i64, kind = "split-kv", name = "flash_attention_0_combine", rows = "nq", rows_per_block = 1 : i64, sizes = ["nk"]}
// The grid: min(ceil(Nk / 128), max(ceil(256 / 4), 2), 128) = min(ceil(Nk /
// 128), 64) splits of the 4 kv batch-heads (folded); with split-kv-blocks
// = 512, min(ceil(Nk / 128), 128).
// CHECK: func.func private @flash_gpu_0
// CHECK: %[[BYKEYS:.*]] = arith.ceildivui %{{.*}}, %c128
// CHECK: %[[SPLITS:.*]] = arith.minui %[[BYKEYS]], %c64
// BLOCKS-LABEL: module attributes {flash.kernels = [
// BLOCKS-SAME: target_blocks = 512 : i64}
// BLOCKS: %[[BYKEYS:.*]] = arith.ceildivui %{{.*}}, %c128
// BLOCKS: arith.minui %[[BYKEYS]], %c128
// CHECK: arith.muli %[[SPLITS]], %c4
// CHECK: %[[WORDS:.*]] = arith.muli %{{.*}}, %c264
// CHECK: %[[ATLEAST1:.*]] = arith.maxui %[[WORDS]], %c1
// CHECK: gpu.alloc host_shared (%[[ATLEAST1]]) : memref<?xf32>
// CHECK: gpu.launch_func async {{.*}} @flash_kernels::@flash_attention_0 blocks in (%{{.*}}, %c4{{.*}}, %{{.*}}) threads in (%c128
// CHECK: gpu.launch_func async {{.*}} @flash_kernels::@flash_attention_0_combine blocks in (%c1{{.*}}, %c16{{.*}}, %{{.*}}) threads in (%c128
// The partial kernel: q, k, v, o, lse, scratch, Nk; K/V rows in 16-byte
// vectors; scores summed over a slot's 8 lanes (d = 64: 3 shuffles).
// CHECK: gpu.func @flash_attention_0(%{{.*}}: memref<16x64xbf16>, %{{.*}}: memref<?x64xbf16>, %{{.*}}: memref<?x64xbf16>, %{{.*}}: memref<16x64xbf16>, %{{.*}}: memref<16xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: index) workgroup(%{{.*}} : memref<64x66xf32, #gpu.address_space<workgroup>>)
// CHECK-SAME: flash.kernel_kind = "split-kv"
// CHECK: scf.for
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?x64xbf16>, vector<8xbf16>
// CHECK: gpu.shuffle xor %{{.*}}, %c4_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32
// CHECK-NOT: gpu.shuffle xor %{{.*}}, %c8_i32
// CHECK: math.exp2
// CHECK: gpu.barrier
// CHECK: gpu.func @flash_attention_0_combine
// CHECK-SAME: workgroup(%{{.*}} : memref<1x128xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<1x128xf32, #gpu.address_space<workgroup>>)
// OFF-LABEL: module attributes
// OFF-NOT: split-kv
// TC-LABEL: module attributes {flash.kernels = [
// TC-SAME: {args = ["q", "k", "v", "o", "lse", "scratch"], batch_heads = "bhkv", block = 128 : i64, kind = "wgmma", max_blocks_x = 128 : i64, min_blocks_x = 2 : i64, name = "flash_attention_0", rows = "nk", rows_per_block = 128 : i64, scratch_per_block = 264 : i64, sizes = ["nk"], target_blocks = 256 : i64}
// TC-SAME: kind = "split-kv", name = "flash_attention_0_combine", rows = "nq", rows_per_block = 1 : i64, sizes = ["nk"], waits_for_previous = true}
// TC: gpu.func @flash_attention_0(%{{.*}}: memref<16x64xbf16>, %{{.*}}: memref<?x64xbf16>, %{{.*}}: memref<?x64xbf16>, %{{.*}}: memref<16x64xbf16>, %{{.*}}: memref<16xf32>, %{{.*}}: memref<?xf32>, %{{.*}}: index)
// TC: llvm.inline_asm {{.*}}wgmma.mma_async
// After the key loop the partial kernel lets the combine launch; the
// combine waits for the partial grid before it reads the records.
// TC: nvvm.griddepcontrol launch_dependents
// TC: vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 8 : i64} : memref<?xf32>, vector<2xf32>
// TC: gpu.func @flash_attention_0_combine
// TC-SAME: waits_for_previous = true
// TC-NEXT: nvvm.griddepcontrol wait
func.func @decode(%q: tensor<2x8x1x64xbf16>, %k: tensor<2x2x?x64xbf16>, %v: tensor<2x2x?x64xbf16>) -> tensor<2x8x1x64xbf16> {
  %o = tensor.empty() : tensor<2x8x1x64xbf16>
  %r = flash.attention ins(%q, %k, %v : tensor<2x8x1x64xbf16>, tensor<2x2x?x64xbf16>, tensor<2x2x?x64xbf16>)
       outs(%o : tensor<2x8x1x64xbf16>) -> tensor<2x8x1x64xbf16>
  return %r : tensor<2x8x1x64xbf16>
}

// -----

// Causal Nq = 3 (packed rows r see keys up to r % 3 + Nk - 3), f32
// (vectors of 4): still split-KV (SIMT also with tensor
// cores: the packed rows see different keys).
// CHECK-LABEL: module attributes {flash.kernels
// CHECK-SAME: kind = "split-kv"
// TC-LABEL: module attributes {flash.kernels
// TC-SAME: kind = "split-kv"
// CHECK: gpu.func @flash_attention_0(
// CHECK-SAME: flash.kernel_kind = "split-kv"
// OFF-LABEL: module attributes
// OFF-NOT: split-kv
func.func @causal(%q: tensor<4x3x32xf32>, %k: tensor<2x?x32xf32>) -> tensor<4x3x32xf32> {
  %o = tensor.empty() : tensor<4x3x32xf32>
  %r = flash.attention ins(%q, %k, %k : tensor<4x3x32xf32>, tensor<2x?x32xf32>, tensor<2x?x32xf32>)
       outs(%o : tensor<4x3x32xf32>) {causal} -> tensor<4x3x32xf32>
  return %r : tensor<4x3x32xf32>
}

// -----

// d = 128 decode on wgmma: 128-key K/V tiles (2 x 128 x 128 bf16 + 1 KiB of
// alignment), twice the forward's 64, for more bytes in flight; causal
// draft tokens keep 64-key tiles (and Q in shared memory).
// TC-LABEL: module attributes {flash.kernels
// TC: gpu.func @flash_attention_0({{.*}}) workgroup(%{{.*}} : memref<33280xbf16, #gpu.address_space<workgroup>>)
// TC: gpu.func @flash_attention_1({{.*}}) workgroup(%{{.*}} : memref<25088xbf16, #gpu.address_space<workgroup>>)
// CHECK-LABEL: module attributes {flash.kernels
// OFF-LABEL: module attributes
func.func @decode_d128(%q: tensor<2x8x1x128xbf16>, %k: tensor<2x2x?x128xbf16>, %v: tensor<2x2x?x128xbf16>) -> tensor<2x8x1x128xbf16> {
  %o = tensor.empty() : tensor<2x8x1x128xbf16>
  %r = flash.attention ins(%q, %k, %v : tensor<2x8x1x128xbf16>, tensor<2x2x?x128xbf16>, tensor<2x2x?x128xbf16>)
       outs(%o : tensor<2x8x1x128xbf16>) -> tensor<2x8x1x128xbf16>
  return %r : tensor<2x8x1x128xbf16>
}
func.func @draft_d128(%q: tensor<2x4x4x128xbf16>, %k: tensor<2x1x?x128xbf16>) -> tensor<2x4x4x128xbf16> {
  %o = tensor.empty() : tensor<2x4x4x128xbf16>
  %r = flash.attention ins(%q, %k, %k : tensor<2x4x4x128xbf16>, tensor<2x1x?x128xbf16>, tensor<2x1x?x128xbf16>)
       outs(%o : tensor<2x4x4x128xbf16>) {causal} -> tensor<2x4x4x128xbf16>
  return %r : tensor<2x4x4x128xbf16>
}

// -----

// Draft tokens: causal Nq = 4, GQA 8 / 2 (16 packed rows), bf16: with tensor
// cores the wgmma forward over a split, each row's causal limit by its
// query (row % 4 + Nk - 4: the dynamic offset from the original Nq).
// TC-LABEL: module attributes {flash.kernels
// TC-SAME: kind = "wgmma", max_blocks_x
// TC: gpu.func @flash_attention_0(%{{.*}}: memref<32x64xbf16>, %{{.*}}: memref<?x64xbf16>, %{{.*}}: memref<?x64xbf16>, %{{.*}}: memref<32x64xbf16>, %{{.*}}: memref<32xf32>, %{{.*}}: memref<?xf32>, %[[NK:[a-z0-9]+]]: index)
// TC: %[[SHIFT:.*]] = arith.subi %[[NK]], %c4{{.*}} : index
// TC-NEXT: arith.addi %{{.*}}, %[[SHIFT]] : index
// TC: llvm.inline_asm {{.*}}wgmma.mma_async
// TC: gpu.func @flash_attention_0_combine
// CHECK-LABEL: module attributes {flash.kernels
// CHECK-SAME: kind = "split-kv"
// OFF-LABEL: module attributes
// OFF-NOT: split-kv
func.func @draft(%q: tensor<2x4x4x64xbf16>, %k: tensor<2x1x?x64xbf16>) -> tensor<2x4x4x64xbf16> {
  %o = tensor.empty() : tensor<2x4x4x64xbf16>
  %r = flash.attention ins(%q, %k, %k : tensor<2x4x4x64xbf16>, tensor<2x1x?x64xbf16>, tensor<2x1x?x64xbf16>)
       outs(%o : tensor<2x4x4x64xbf16>) {causal} -> tensor<2x4x4x64xbf16>
  return %r : tensor<2x4x4x64xbf16>
}

// -----

// Not decode: a group of 4 heads x 5 queries (20 rows > 16), a mask, a
// static Nk below two blocks, dynamic Nq: the other kinds.
// CHECK-LABEL: module attributes {flash.kernels
// CHECK-NOT: split-kv
// CHECK: func.func @not_decode
// TC-LABEL: module attributes {flash.kernels
// TC-NOT: split-kv
// TC: func.func @not_decode
func.func @not_decode(%q: tensor<8x5x32xf32>, %k: tensor<2x300x32xf32>,
                      %q1: tensor<2x1x32xf32>, %k1: tensor<2x200x32xf32>,
                      %m: tensor<1x300xi1>, %qd: tensor<2x?x32xf32>,
                      %kd: tensor<2x?x32xf32>)
    -> (tensor<8x5x32xf32>, tensor<2x1x32xf32>, tensor<2x1x32xf32>, tensor<2x?x32xf32>) {
  %o = tensor.empty() : tensor<8x5x32xf32>
  %r = flash.attention ins(%q, %k, %k : tensor<8x5x32xf32>, tensor<2x300x32xf32>, tensor<2x300x32xf32>)
       outs(%o : tensor<8x5x32xf32>) -> tensor<8x5x32xf32>
  %o1 = tensor.empty() : tensor<2x1x32xf32>
  %k3 = tensor.empty() : tensor<2x300x32xf32>
  %r1 = flash.attention ins(%q1, %k3, %k3 : tensor<2x1x32xf32>, tensor<2x300x32xf32>, tensor<2x300x32xf32>)
        mask(%m : tensor<1x300xi1>)
        outs(%o1 : tensor<2x1x32xf32>) -> tensor<2x1x32xf32>
  %r2 = flash.attention ins(%q1, %k1, %k1 : tensor<2x1x32xf32>, tensor<2x200x32xf32>, tensor<2x200x32xf32>)
        outs(%o1 : tensor<2x1x32xf32>) -> tensor<2x1x32xf32>
  %c1 = arith.constant 1 : index
  %nq = tensor.dim %qd, %c1 : tensor<2x?x32xf32>
  %od = tensor.empty(%nq) : tensor<2x?x32xf32>
  %r3 = flash.attention ins(%qd, %kd, %kd : tensor<2x?x32xf32>, tensor<2x?x32xf32>, tensor<2x?x32xf32>)
        outs(%od : tensor<2x?x32xf32>) -> tensor<2x?x32xf32>
  return %r, %r1, %r2, %r3 : tensor<8x5x32xf32>, tensor<2x1x32xf32>, tensor<2x1x32xf32>, tensor<2x?x32xf32>
}
