// RUN: flash-opt %s --split-input-file --flash-tile-attention="block-q=32 block-kv=16" --canonicalize --cse | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-tile-attention="block-q=32 block-kv=16 loop-order=fa1" --canonicalize --cse | FileCheck %s --check-prefix=FA1

// FA2: full query blocks of 32 rows outside, full key blocks of 16 inside,
// each followed by its exact remainder block (100 = 3*32 + 4, 70 = 4*16 + 6),
// all with static shapes; no 100x70 (nor 32x70) tensor anywhere.
// CHECK-LABEL: func.func @fa2_remainders
// CHECK-NOT: tensor<100x70xf32>
// CHECK-NOT: tensor<32x70xf32>
// CHECK: scf.for %[[I:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:[a-z0-9_]+]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<100x32xf32>, tensor<100xf32>)
// CHECK:   %[[S:.*]]:3 = scf.for %[[J:[a-z0-9_]+]] = {{.*}} iter_args({{.*}}) -> (tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>)
// CHECK:     tensor.extract_slice %{{.*}}[%[[I]], 0] [32, 64]
// CHECK:     tensor.extract_slice %{{.*}}[%[[J]], 0] [16, 64]
// CHECK:     linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}}outs(%{{.*}} : tensor<32x16xf32>)
// CHECK:     arith.maxnumf
// CHECK:     math.exp
// CHECK:     scf.yield
// The remainder key block [64, 70):
// CHECK:   tensor.extract_slice %{{.*}}[64, 0] [6, 64]
// CHECK:   -> tensor<32x6xf32>
// o = acc / l, lse = m + log(l):
// CHECK:   arith.divf
// CHECK:   math.log
// CHECK:   tensor.insert_slice %{{.*}} into %[[O]][%[[I]], 0] [32, 32]
// The remainder query block [96, 100):
// CHECK: scf.for {{.*}} -> (tensor<4xf32>, tensor<4xf32>, tensor<4x32xf32>)
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[96, 0] [4, 32]

// Under loop-order=fa1: key blocks outside, every query block's (m, l, acc) carried in
// full-length state tensors.
// FA1-LABEL: func.func @fa2_remainders
// FA1: scf.for %[[J:[a-z0-9_]+]] = {{.*}} iter_args({{.*}}) -> (tensor<100xf32>, tensor<100xf32>, tensor<100x32xf32>)
// FA1:   scf.for %[[I:[a-z0-9_]+]] = {{.*}} -> (tensor<100xf32>, tensor<100xf32>, tensor<100x32xf32>)
// FA1:     tensor.extract_slice %{{.*}}[%[[I]]] [32]
// FA1:     -> tensor<32x16xf32>
func.func @fa2_remainders(%q: tensor<100x64xf32>, %k: tensor<70x64xf32>,
                          %v: tensor<70x32xf32>, %o: tensor<100x32xf32>,
                          %l: tensor<100xf32>)
    -> (tensor<100x32xf32>, tensor<100xf32>) {
  %r:2 = flash.attention ins(%q, %k, %v : tensor<100x64xf32>,
             tensor<70x64xf32>, tensor<70x32xf32>)
         outs(%o : tensor<100x32xf32>) lse(%l : tensor<100xf32>)
         -> tensor<100x32xf32>, tensor<100xf32>
  return %r#0, %r#1 : tensor<100x32xf32>, tensor<100xf32>
}

// -----

// Causal + GQA: a loop over the 4 query heads reading kv head h / 2; the key
// scan stops at the diagonal (dynamic bound), blocks before it need no
// mask, blocks that cross it compare indices, and the last partial block is
// guarded by an scf.if.
// CHECK-LABEL: func.func @causal_gqa
// CHECK: scf.for %[[H:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step
// CHECK:   %[[KVH:[a-z0-9_]+]] = arith.divui %[[H]], %{{.*}} : index
// CHECK:   tensor.extract_slice %{{.*}}[%[[KVH]], 0, 0] [1, 100, 64]
// CHECK:   scf.for
// CHECK:     arith.minsi
// CHECK:     scf.for %{{.*}} = %{{.*}} to %[[VIS:.*]] step
// CHECK-NOT:   arith.cmpi sle
// CHECK:       scf.yield
// CHECK:     scf.for %{{.*}} = %[[VIS]] to %{{.*}} step
// CHECK:       arith.cmpi sle
// CHECK:       arith.select
// CHECK:     scf.if
// FA1-LABEL: func.func @causal_gqa
// FA1: arith.divui
func.func @causal_gqa(%q: tensor<4x100x64xf32>, %k: tensor<2x100x64xf32>,
                      %v: tensor<2x100x64xf32>, %o: tensor<4x100x64xf32>)
    -> tensor<4x100x64xf32> {
  %r = flash.attention ins(%q, %k, %v : tensor<4x100x64xf32>,
           tensor<2x100x64xf32>, tensor<2x100x64xf32>)
       outs(%o : tensor<4x100x64xf32>) {causal} -> tensor<4x100x64xf32>
  return %r : tensor<4x100x64xf32>
}

// -----

// f16 inputs: products and sums in f32, o truncated to f16; an i1 mask
// broadcast over heads selects -inf.
// CHECK-LABEL: func.func @f16_bool_mask
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @f16_bool_mask(%q: tensor<2x64x32xf16>, %k: tensor<2x64x32xf16>,
                         %v: tensor<2x64x32xf16>, %m: tensor<64x64xi1>,
                         %o: tensor<2x64x32xf16>) -> tensor<2x64x32xf16> {
  %r = flash.attention ins(%q, %k, %v : tensor<2x64x32xf16>,
           tensor<2x64x32xf16>, tensor<2x64x32xf16>)
       mask(%m : tensor<64x64xi1>) outs(%o : tensor<2x64x32xf16>)
       -> tensor<2x64x32xf16>
  return %r : tensor<2x64x32xf16>
}

// -----

// Dynamic sequence lengths: the remainder blocks have dynamic sizes.
// CHECK-LABEL: func.func @dynamic
// CHECK: tensor.dim
// CHECK: scf.for
// CHECK: scf.if
// CHECK: tensor<?x16xf32>
func.func @dynamic(%q: tensor<?x16xf32>, %k: tensor<?x16xf32>,
                   %v: tensor<?x16xf32>, %o: tensor<?x16xf32>)
    -> tensor<?x16xf32> {
  %r = flash.attention ins(%q, %k, %v : tensor<?x16xf32>, tensor<?x16xf32>,
           tensor<?x16xf32>) outs(%o : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

// The backward: D = rowsum(dO * O) once, then KV blocks outside (fa2) with
// dk/dv of each block finished in f32 accumulators and dq accumulated; p is
// recomputed from lse (exp(s - lse)); no Nq x Nk tensor. The keys are split
// into chunks (here 5, one 16-key block each: at least 8 (head, chunk)
// iterations where the blocks allow), each with a dq slab of its own, summed
// in chunk order at the end.
// CHECK-LABEL: func.func @grad
// CHECK-NOT: tensor<100x70xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}}ins(%{{.*}}, %{{.*}} : tensor<100x32xf32>, tensor<100x32xf32>)
// CHECK: scf.for {{.*}} -> (tensor<70x64xf32>, tensor<70x32xf32>, tensor<5x1x100x64xf32>)
// CHECK:   scf.for {{.*}} step %c16 {{.*}} -> (tensor<?x64xf32>, tensor<?x32xf32>, tensor<1x100x64xf32>)
// (The loop over the query heads of a GQA group folds away: one head.)
// CHECK:     scf.for {{.*}} -> (tensor<16x64xf32>, tensor<16x32xf32>, tensor<100x64xf32>)
// CHECK:       -> tensor<32x16xf32>
// CHECK:       math.exp
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "parallel", "parallel"]{{.*}}ins(%{{.*}} : tensor<5x1x100x64xf32>) outs(%{{.*}} : tensor<1x100x64xf32>)
// CHECK: tensor.collapse_shape {{.*}} : tensor<1x100x64xf32> into tensor<100x64xf32>
// FA1-LABEL: func.func @grad
// FA1-NOT: tensor<100x70xf32>
// FA1: scf.for {{.*}} -> (tensor<70x64xf32>, tensor<70x32xf32>, tensor<1x100x64xf32>)
// FA1:   scf.for {{.*}} -> (tensor<70x64xf32>, tensor<70x32xf32>, tensor<32x64xf32>)
func.func @grad(%q: tensor<100x64xf32>, %k: tensor<70x64xf32>,
                %v: tensor<70x32xf32>, %o: tensor<100x32xf32>,
                %lse: tensor<100xf32>, %do: tensor<100x32xf32>)
    -> (tensor<100x64xf32>, tensor<70x64xf32>, tensor<70x32xf32>) {
  %dq0 = tensor.empty() : tensor<100x64xf32>
  %dk0 = tensor.empty() : tensor<70x64xf32>
  %dv0 = tensor.empty() : tensor<70x32xf32>
  %r:3 = flash.attention_grad
      ins(%q, %k, %v, %o, %lse, %do : tensor<100x64xf32>, tensor<70x64xf32>,
          tensor<70x32xf32>, tensor<100x32xf32>, tensor<100xf32>,
          tensor<100x32xf32>)
      outs(%dq0, %dk0, %dv0 : tensor<100x64xf32>, tensor<70x64xf32>,
           tensor<70x32xf32>)
      -> tensor<100x64xf32>, tensor<70x64xf32>, tensor<70x32xf32>
  return %r#0, %r#1, %r#2 : tensor<100x64xf32>, tensor<70x64xf32>, tensor<70x32xf32>
}

// -----

// fp8: the e4m3 blocks enter the products (extended to f32 there); the
// scores take scale * qd * kd, with qd and kd this kv head's; o takes vd
// before its conversion to bf16.
// CHECK-LABEL: func.func @fp8_descales
// CHECK: scf.for %[[H:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step
// CHECK:   %[[KVH:[a-z0-9_]+]] = arith.divui %[[H]], %{{.*}} : index
// CHECK:   %[[QD:.*]] = tensor.extract %{{.*}}[%[[KVH]]] : tensor<2xf32>
// CHECK:   %[[KD:.*]] = tensor.extract %{{.*}}[%[[KVH]]] : tensor<2xf32>
// CHECK:   %[[QKD:.*]] = arith.mulf %[[QD]], %[[KD]] : f32
// CHECK:   %[[VD:.*]] = tensor.extract %{{.*}}[%[[KVH]]] : tensor<2xf32>
// CHECK:   linalg.generic {{.*}}ins(%{{.*}}, %{{.*}} : tensor<32x64xf8E4M3FN>, tensor<64x16xf8E4M3FN>)
// CHECK:     arith.extf %{{.*}} : f8E4M3FN to f32
// CHECK:   linalg.generic
// CHECK:     %[[S:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:     arith.mulf %[[S]], %[[QKD]] : f32
// CHECK:   arith.divf
// CHECK:   %[[OV:.*]] = arith.mulf %{{.*}}, %[[VD]] : f32
// CHECK:   arith.truncf %{{.*}} : f32 to bf16
func.func @fp8_descales(%q: tensor<4x100x64xf8E4M3FN>, %k: tensor<2x70x64xf8E4M3FN>,
                        %v: tensor<2x70x32xf8E4M3FN>, %qd: tensor<2xf32>,
                        %kd: tensor<2xf32>, %vd: tensor<2xf32>,
                        %o: tensor<4x100x32xbf16>) -> tensor<4x100x32xbf16> {
  %r = flash.attention ins(%q, %k, %v : tensor<4x100x64xf8E4M3FN>,
           tensor<2x70x64xf8E4M3FN>, tensor<2x70x32xf8E4M3FN>)
       descale(%qd, %kd, %vd : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
       outs(%o : tensor<4x100x32xbf16>) -> tensor<4x100x32xbf16>
  return %r : tensor<4x100x32xbf16>
}
