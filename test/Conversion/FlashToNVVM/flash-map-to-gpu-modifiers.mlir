// score_mod / mask_mod on the GPU: the tensor-core kernels (mma.sync, wgmma;
// forward and backward) inline both regions per score element (the
// score_mod on scale * q.k, in the kernel's units), read captured operands
// from buffers, and start their loops at the first tile a mask_mod's affine
// bounds let the block see. So do the SIMT kernels (f32 here; the SPIR-V
// path's kernels).
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="tensor-cores=1 wgmma=1 persistent-blocks=132 fma-exp2=-1" --verify-diagnostics | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="tensor-cores=1 wgmma=1 fma-exp2=0" --verify-diagnostics | FileCheck %s --check-prefix=NOFMA

// CHECK-LABEL: func.func @window_softcap
// CHECK: gpu.func @flash_attention_0
// The block's first key tile: its first row's window start, floored to a
// tile.
// CHECK: arith.divsi %{{[0-9]+}}, %c64{{[_0-9]*}} : index
// CHECK: arith.muli %{{[0-9]+}}, %c64
// The window is a key range per row: its bounds relative to the tile, in
// i32 (truncated before the clamp), then two 32-bit compares with a
// constant per score.
// CHECK: scf.for
// CHECK: arith.index_cast %{{.*}} : index to i32
// CHECK: %[[LO:.*]] = arith.minsi %{{.*}}, %c64{{.*}} : i32
// CHECK: %[[HI:.*]] = arith.minsi %{{.*}}, %c64{{.*}} : i32
// CHECK: math.tanh
// CHECK: arith.cmpi sle, %[[LO]], %c0{{.*}} : i32
// CHECK: arith.cmpi sgt, %[[HI]], %c0{{.*}} : i32
// CHECK: arith.andi
// A soft-cap's tanh shares the SFU with the softmax's exp2: 3 of every 8
// of P's exponentials are a polynomial on the FMA units (fma-exp2's
// -1): 2^round(x) by the exponent field, 2^frac by Horner's rule.
// CHECK: math.exp2
// CHECK: %[[X:.*]] = arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: %[[T:.*]] = arith.addf %[[X]], %{{.*}} : f32
// CHECK: arith.subf %[[T]]
// CHECK-COUNT-5: arith.addf %{{.*}}, %{{.*}} fastmath<contract> : f32
// CHECK: %[[E:.*]] = arith.bitcast %[[T]] : f32 to i32
// CHECK: arith.shli %[[E]]
// NOFMA-LABEL: func.func @window_softcap
// NOFMA: math.tanh
// NOFMA-NOT: arith.shli
// NOFMA-LABEL: func.func @alibi_captures
func.func @window_softcap(%q: tensor<1x2x300x64xbf16>, %k: tensor<1x2x300x64xbf16>, %v: tensor<1x2x300x64xbf16>) -> tensor<1x2x300x64xbf16> {
  %o0 = tensor.empty() : tensor<1x2x300x64xbf16>
  %o = flash.attention ins(%q, %k, %v : tensor<1x2x300x64xbf16>, tensor<1x2x300x64xbf16>, tensor<1x2x300x64xbf16>)
      outs(%o0 : tensor<1x2x300x64xbf16>) {causal} -> tensor<1x2x300x64xbf16>
    score_mod {
    ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
      %c = arith.constant 5.0 : f32
      %x = arith.divf %s, %c : f32
      %t = math.tanh %x : f32
      %y = arith.mulf %t, %c : f32
      flash.yield %y : f32
    }
    mask_mod {
    ^bb0(%b: index, %h: index, %i: index, %j: index):
      %w = arith.constant -40 : index
      %lo = arith.addi %i, %w : index
      %in = arith.cmpi sge, %j, %lo : index
      flash.yield %in : i1
    }
  return %o : tensor<1x2x300x64xbf16>
}

// -----

// Captured operands become the kernel's last arguments, flat buffers the
// host glue stages (index as i64); the region's tensor.extract is a load at
// the row-major offset. The slope depends only on the head: loaded once,
// before the key loop.
// CHECK-LABEL: func.func @alibi_captures
// CHECK: %[[SL:.*]] = gpu.alloc host_shared () : memref<2xf32>
// CHECK: %[[OFF:.*]] = gpu.alloc host_shared () : memref<i64>
// CHECK: linalg.generic
// CHECK: arith.index_cast %{{.*}} : index to i64
// CHECK: %[[OFF1:.*]] = memref.expand_shape %[[OFF]] [] output_shape [1] : memref<i64> into memref<1xi64>
// CHECK: gpu.launch_func {{.*}} args({{.*}}, %[[SL]] : memref<2xf32>, %[[OFF1]] : memref<1xi64>)
// CHECK: gpu.func @flash_attention_0({{.*}}, %[[SLK:.*]]: memref<2xf32>, %[[OFFK:.*]]: memref<1xi64>)
// CHECK: memref.load %[[SLK]][%{{.*}}] : memref<2xf32>
// CHECK: memref.load %[[OFFK]][%{{.*}}] : memref<1xi64>
// CHECK: scf.for
// CHECK-NOT: memref.load %[[SLK]]
// CHECK: gpu.return
func.func @alibi_captures(%q: tensor<1x2x100x64xbf16>, %sl: tensor<2xf32>, %off: tensor<index>) -> tensor<1x2x100x64xbf16> {
  %o0 = tensor.empty() : tensor<1x2x100x64xbf16>
  %o = flash.attention ins(%q, %q, %q : tensor<1x2x100x64xbf16>, tensor<1x2x100x64xbf16>, tensor<1x2x100x64xbf16>)
      captures(%sl, %off : tensor<2xf32>, tensor<index>) outs(%o0 : tensor<1x2x100x64xbf16>) -> tensor<1x2x100x64xbf16>
    score_mod {
    ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index, %c: tensor<2xf32>, %o: tensor<index>):
      %m = tensor.extract %c[%h] : tensor<2xf32>
      %d = arith.subi %j, %i : index
      %di = arith.index_cast %d : index to i32
      %df = arith.sitofp %di : i32 to f32
      %bias = arith.mulf %m, %df : f32
      %y = arith.addf %s, %bias : f32
      flash.yield %y : f32
    }
    mask_mod {
    ^bb0(%b: index, %h: index, %i: index, %j: index, %c: tensor<2xf32>, %o: tensor<index>):
      %p = tensor.extract %o[] : tensor<index>
      %lim = arith.addi %i, %p : index
      %in = arith.cmpi sle, %j, %lim : index
      flash.yield %in : i1
    }
  return %o : tensor<1x2x100x64xbf16>
}

// -----

// The SIMT forward: the key loop starts at the block's first row's window
// start (floored to the tile), the region is inlined per key.
// CHECK-LABEL: func.func @simt_f32
// CHECK: gpu.func @flash_attention_0
// CHECK-SAME: kernel
// CHECK: arith.floordivsi
// CHECK: scf.for
// CHECK: arith.cmpi sge
// CHECK: gpu.return
func.func @simt_f32(%q: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %o0 = tensor.empty() : tensor<64x64xf32>
  %o = flash.attention ins(%q, %q, %q : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>)
      outs(%o0 : tensor<64x64xf32>) -> tensor<64x64xf32>
    mask_mod {
    ^bb0(%i: index, %j: index):
      %w = arith.constant -7 : index
      %lo = arith.addi %i, %w : index
      %in = arith.cmpi sge, %j, %lo : index
      flash.yield %in : i1
    }
  return %o : tensor<64x64xf32>
}

// -----

// The tensor-core backward: both kernels take the captured operands, narrow
// their loops by the mask_mod's bounds (keys of a query block in dQ, queries
// of a key block in dK/dV) and scale dS by d score_mod / ds.
// CHECK-LABEL: func.func @grad_window_softcap
// CHECK: gpu.func @flash_attention_grad_dq_0
// CHECK: scf.for
// CHECK: math.tanh
// CHECK: arith.cmpi sgt, %{{.*}}, %c
// CHECK: gpu.func @flash_attention_grad_dkdv_0
// CHECK: scf.for
// CHECK: scf.for
// CHECK: math.tanh
// CHECK: arith.cmpi sgt, %{{.*}}, %c
func.func @grad_window_softcap(%q: tensor<2x100x64xbf16>, %lse: tensor<2x100xf32>) -> tensor<2x100x64xbf16> {
  %r:3 = flash.attention_grad ins(%q, %q, %q, %q, %lse, %q : tensor<2x100x64xbf16>, tensor<2x100x64xbf16>, tensor<2x100x64xbf16>, tensor<2x100x64xbf16>, tensor<2x100xf32>, tensor<2x100x64xbf16>)
      outs(%q, %q, %q : tensor<2x100x64xbf16>, tensor<2x100x64xbf16>, tensor<2x100x64xbf16>) {causal} -> tensor<2x100x64xbf16>, tensor<2x100x64xbf16>, tensor<2x100x64xbf16>
    score_mod {
    ^bb0(%s: f32, %h: index, %i: index, %j: index):
      %c = arith.constant 5.0 : f32
      %x = arith.divf %s, %c : f32
      %t = math.tanh %x : f32
      %y = arith.mulf %t, %c : f32
      flash.yield %y : f32
    }
    mask_mod {
    ^bb0(%h: index, %i: index, %j: index):
      %w = arith.constant -20 : index
      %lo = arith.addi %i, %w : index
      %in = arith.cmpi sge, %j, %lo : index
      flash.yield %in : i1
    }
  return %r#0 : tensor<2x100x64xbf16>
}

// -----

// The SIMT backward: dQ's key loop and dK/dV's query loop (per query head)
// narrowed by the mask_mod's bounds.
// CHECK-LABEL: func.func @grad_simt
// CHECK: gpu.func @flash_attention_grad_dq_0
// CHECK: arith.minsi
// CHECK: scf.for
// CHECK: arith.cmpi sle
// CHECK: gpu.func @flash_attention_grad_dkdv_0
// CHECK: scf.for
// CHECK: arith.maxsi
// CHECK: scf.for
// CHECK: arith.cmpi sle
func.func @grad_simt(%q: tensor<64x64xf32>, %lse: tensor<64xf32>) -> tensor<64x64xf32> {
  %r:3 = flash.attention_grad ins(%q, %q, %q, %q, %lse, %q : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64x64xf32>)
      outs(%q, %q, %q : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
    mask_mod {
    ^bb0(%i: index, %j: index):
      %in = arith.cmpi sle, %j, %i : index
      flash.yield %in : i1
    }
  return %r#0 : tensor<64x64xf32>
}

// -----

// A document mask (not affine in i, j): a kernel launched first fills a
// block mask (per batch: the mask_mod does not read the head; 4 x 4 entries
// of 64 x 64 in a scratch buffer), from which the forward and both backward
// kernels read one word a tile to skip hidden tiles (scf.while; a warp's
// lanes read 32 tiles' at a time, a ballot picks the first) and the
// forward its tiles seen in full to leave unmasked; no tile check by CTA
// barrier is left in them.
// CHECK-LABEL: func.func @documents
// CHECK: gpu.alloc host_shared (%c16{{.*}}) : memref<?xf32>
// CHECK: gpu.launch_func {{.*}}@flash_attention_0_block_mask blocks in (%c4{{.*}}, %c1{{.*}}, %c1{{.*}}) threads in (%c512
// CHECK: gpu.launch_func {{.*}}@flash_attention_0 blocks in (%c4{{.*}}, %c2
// CHECK: gpu.launch_func {{.*}}@flash_attention_grad_dq_1_block_mask
// CHECK: gpu.launch_func {{.*}}@flash_attention_grad_dq_1 blocks
// CHECK: gpu.launch_func {{.*}}@flash_attention_grad_dkdv_1 blocks
// CHECK: gpu.func @flash_attention_0(
// CHECK-NOT: nvvm.barrier #nvvm.reduction
// CHECK: scf.while
// CHECK: memref.load %arg6[%{{.*}}] : memref<?xf32>
// CHECK: nvvm.vote.sync  ballot
// CHECK: scf.if
// CHECK-NOT: nvvm.barrier #nvvm.reduction
// CHECK: gpu.func @flash_attention_0_block_mask(
// CHECK-SAME: flash.kernel_kind = "block-mask"
// CHECK-SAME: batch_heads = "b", block = 512 : i64, rows = "nq", rows_per_block = 64 : i64, scratch_keys_per_word = 64 : i64
// The rows' segment ids' range, once (a warp's min and max), then each
// entry's keys' range: seg[i] == seg[j] somewhere if they overlap, everywhere
// if both are one id.
// CHECK: gpu.shuffle  xor
// CHECK: scf.for
// CHECK: gpu.shuffle  xor
// CHECK: arith.cmpi slt
// CHECK: memref.store %{{.*}}, %arg6[
// CHECK: gpu.func @flash_attention_grad_dq_1(
// CHECK-NOT: nvvm.barrier #nvvm.reduction
// CHECK: scf.while
// CHECK: memref.load %arg9[%{{.*}}] : memref<?xf32>
// CHECK: gpu.func @flash_attention_grad_dkdv_1(
// CHECK-NOT: nvvm.barrier #nvvm.reduction
// CHECK: scf.while
// CHECK: memref.load %arg9[%{{.*}}] : memref<?xf32>
// CHECK-NOT: nvvm.barrier #nvvm.reduction
// CHECK: gpu.func @flash_attention_grad_dq_1_block_mask(
func.func @documents(%q: tensor<2x200x64xbf16>, %lse: tensor<2x200xf32>, %seg: tensor<200xi32>) -> (tensor<2x200x64xbf16>, tensor<2x200x64xbf16>) {
  %o0 = tensor.empty() : tensor<2x200x64xbf16>
  %o = flash.attention ins(%q, %q, %q : tensor<2x200x64xbf16>, tensor<2x200x64xbf16>, tensor<2x200x64xbf16>)
      captures(%seg : tensor<200xi32>) outs(%o0 : tensor<2x200x64xbf16>) {causal} -> tensor<2x200x64xbf16>
    mask_mod {
    ^bb0(%h: index, %i: index, %j: index, %s: tensor<200xi32>):
      %a = tensor.extract %s[%i] : tensor<200xi32>
      %b = tensor.extract %s[%j] : tensor<200xi32>
      %same = arith.cmpi eq, %a, %b : i32
      flash.yield %same : i1
    }
  %r:3 = flash.attention_grad ins(%q, %q, %q, %o, %lse, %q : tensor<2x200x64xbf16>, tensor<2x200x64xbf16>, tensor<2x200x64xbf16>, tensor<2x200x64xbf16>, tensor<2x200xf32>, tensor<2x200x64xbf16>)
      captures(%seg : tensor<200xi32>)
      outs(%q, %q, %q : tensor<2x200x64xbf16>, tensor<2x200x64xbf16>, tensor<2x200x64xbf16>) {causal} -> tensor<2x200x64xbf16>, tensor<2x200x64xbf16>, tensor<2x200x64xbf16>
    mask_mod {
    ^bb0(%h: index, %i: index, %j: index, %s: tensor<200xi32>):
      %a = tensor.extract %s[%i] : tensor<200xi32>
      %b = tensor.extract %s[%j] : tensor<200xi32>
      %same = arith.cmpi eq, %a, %b : i32
      flash.yield %same : i1
    }
  return %o, %r#0 : tensor<2x200x64xbf16>, tensor<2x200x64xbf16>
}

// -----

// Spelled seg[i] - seg[j] == 0 (one side depends on both positions), the
// block mask evaluates the predicate at every position of an entry (each
// lane its keys, over the rows) and the warp votes.
// CHECK-LABEL: func.func @documents_difference
// CHECK: gpu.func @flash_attention_0_block_mask(
// CHECK-NOT: gpu.shuffle
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.subi
// CHECK: nvvm.vote.sync  any
// CHECK: nvvm.vote.sync  all
func.func @documents_difference(%q: tensor<2x200x64xbf16>, %seg: tensor<200xi32>) -> tensor<2x200x64xbf16> {
  %o0 = tensor.empty() : tensor<2x200x64xbf16>
  %o = flash.attention ins(%q, %q, %q : tensor<2x200x64xbf16>, tensor<2x200x64xbf16>, tensor<2x200x64xbf16>)
      captures(%seg : tensor<200xi32>) outs(%o0 : tensor<2x200x64xbf16>) -> tensor<2x200x64xbf16>
    mask_mod {
    ^bb0(%h: index, %i: index, %j: index, %s: tensor<200xi32>):
      %a = tensor.extract %s[%i] : tensor<200xi32>
      %b = tensor.extract %s[%j] : tensor<200xi32>
      %d = arith.subi %a, %b : i32
      %z = arith.constant 0 : i32
      %same = arith.cmpi eq, %d, %z : i32
      flash.yield %same : i1
    }
  return %o : tensor<2x200x64xbf16>
}

// -----

// Segment ids per head (the mask_mod reads %h): a table per batch-head.
// CHECK-LABEL: func.func @documents_per_head
// CHECK: gpu.launch_func {{.*}}@flash_attention_0_block_mask blocks in (%c4{{.*}}, %c2
// CHECK: gpu.func @flash_attention_0_block_mask(
// CHECK-SAME: batch_heads = "bh"
func.func @documents_per_head(%q: tensor<2x200x64xbf16>, %seg: tensor<2x200xi32>) -> tensor<2x200x64xbf16> {
  %o0 = tensor.empty() : tensor<2x200x64xbf16>
  %o = flash.attention ins(%q, %q, %q : tensor<2x200x64xbf16>, tensor<2x200x64xbf16>, tensor<2x200x64xbf16>)
      captures(%seg : tensor<2x200xi32>) outs(%o0 : tensor<2x200x64xbf16>) -> tensor<2x200x64xbf16>
    mask_mod {
    ^bb0(%h: index, %i: index, %j: index, %s: tensor<2x200xi32>):
      %a = tensor.extract %s[%h, %i] : tensor<2x200xi32>
      %b = tensor.extract %s[%h, %j] : tensor<2x200xi32>
      %same = arith.cmpi eq, %a, %b : i32
      flash.yield %same : i1
    }
  return %o : tensor<2x200x64xbf16>
}

// -----

// At d = 128 (over 1024 keys) a mask_mod that is just affine bounds (a
// sliding window) runs
// on the warp-specialized forward: the producer warpgroup streams only the
// window's tiles (the first from the block's first row's window start);
// a document mask, whose tiles its block mask skips, stays on the
// one-warpgroup kernel. (A causal window's query blocks do about equal
// work: the kernel is persistent with static sizes where the keys fill its
// tiles; over 1100 keys, whose last tile is partial, a persistent kernel
// would have its wgmmas serialized by ptxas: one block per query block.)
// CHECK-LABEL: func.func @window_d128
// CHECK: gpu.func @flash_attention_0
// CHECK-SAME: block = 384 : i64
// CHECK-NOT: persistent_blocks
// CHECK: nvvm.setmaxregister  decrease 24
// CHECK: nvvm.setmaxregister  increase 240
// CHECK: arith.cmpi sgt, %{{.*}}, %c
// CHECK: gpu.func @flash_attention_1
// CHECK-SAME: block = 128 : i64
// CHECK-NOT: nvvm.setmaxregister
// CHECK: scf.while
// CHECK-NOT: nvvm.setmaxregister
// CHECK: gpu.return
func.func @window_d128(%q: tensor<2x1100x128xbf16>) -> tensor<2x1100x128xbf16> {
  %o0 = tensor.empty() : tensor<2x1100x128xbf16>
  %o = flash.attention ins(%q, %q, %q : tensor<2x1100x128xbf16>, tensor<2x1100x128xbf16>, tensor<2x1100x128xbf16>)
      outs(%o0 : tensor<2x1100x128xbf16>) {causal} -> tensor<2x1100x128xbf16>
    mask_mod {
    ^bb0(%h: index, %i: index, %j: index):
      %w = arith.constant -100 : index
      %lo = arith.addi %i, %w : index
      %in = arith.cmpi sge, %j, %lo : index
      flash.yield %in : i1
    }
  return %o : tensor<2x1100x128xbf16>
}
func.func @documents_d128(%q: tensor<2x200x128xbf16>, %seg: tensor<200xi32>) -> tensor<2x200x128xbf16> {
  %o0 = tensor.empty() : tensor<2x200x128xbf16>
  %o = flash.attention ins(%q, %q, %q : tensor<2x200x128xbf16>, tensor<2x200x128xbf16>, tensor<2x200x128xbf16>)
      captures(%seg : tensor<200xi32>) outs(%o0 : tensor<2x200x128xbf16>) {causal} -> tensor<2x200x128xbf16>
    mask_mod {
    ^bb0(%h: index, %i: index, %j: index, %s: tensor<200xi32>):
      %a = tensor.extract %s[%i] : tensor<200xi32>
      %b = tensor.extract %s[%j] : tensor<200xi32>
      %same = arith.cmpi eq, %a, %b : i32
      flash.yield %same : i1
    }
  return %o : tensor<2x200x128xbf16>
}

// -----

// A captured operand of dynamic shape (varlen segment ids, a slope table
// sized at run time): a flat buffer of dynamic length; a dim past its first
// would be a size argument (capture<c>_dim<d>).
// CHECK-LABEL: func.func @dynamic_capture
// CHECK: gpu.alloc host_shared (%{{.*}}) : memref<?xf32>
// CHECK: gpu.launch_func {{.*}}memref<?xf32>
func.func @dynamic_capture(%q: tensor<1x2x64x64xbf16>, %sl: tensor<?xf32>) -> tensor<1x2x64x64xbf16> {
  %o0 = tensor.empty() : tensor<1x2x64x64xbf16>
  %o = flash.attention ins(%q, %q, %q : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>)
      captures(%sl : tensor<?xf32>) outs(%o0 : tensor<1x2x64x64xbf16>) -> tensor<1x2x64x64xbf16>
    score_mod {
    ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index, %c: tensor<?xf32>):
      %m = tensor.extract %c[%h] : tensor<?xf32>
      %y = arith.addf %s, %m : f32
      flash.yield %y : f32
    }
  return %o : tensor<1x2x64x64xbf16>
}
