// RUN: flash-opt %s --split-input-file --flash-tile-attention="block-q=64 block-kv=16" --canonicalize --cse | FileCheck %s

// A sliding window (causal, 32 keys) as a mask_mod with affine bounds: each
// query block's key loop starts at its window, not at key 0, and the
// predicate is applied inside the score block.
// CHECK-LABEL: func.func @window
// CHECK: scf.for %[[I0:arg[0-9]+]] = %c0 to %c256 step %c64
// CHECK: arith.addi %[[I0]], %c-31 : index
// CHECK-NOT: scf.for %{{.*}} = %c0 to %{{.*}} step %c16
// CHECK: scf.for %{{.*}} = %{{[0-9]+}} to %{{[0-9]+}} step %c16
// CHECK: arith.cmpi slt, %{{.*}}, %c32 : index
func.func @window(%q: tensor<256x16xf32>, %k: tensor<256x16xf32>, %v: tensor<256x16xf32>) -> tensor<256x16xf32> {
  %o0 = tensor.empty() : tensor<256x16xf32>
  %o = flash.attention ins(%q, %k, %v : tensor<256x16xf32>, tensor<256x16xf32>, tensor<256x16xf32>)
      outs(%o0 : tensor<256x16xf32>) {causal} -> tensor<256x16xf32>
    mask_mod {
    ^bb0(%i: index, %j: index):
      %w = arith.constant 32 : index
      %d = arith.subi %i, %j : index
      %in = arith.cmpi slt, %d, %w : index
      flash.yield %in : i1
    }
  return %o : tensor<256x16xf32>
}

// -----

// A document mask is not affine: every key block is first checked for a
// visible key (an `or` reduction over the block's positions) and skipped
// when it has none.
// CHECK-LABEL: func.func @document
// CHECK: scf.for
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]
// CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<100xi32>
// CHECK: arith.ori
// CHECK: %[[ANY:.*]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK: scf.if %[[ANY]]
func.func @document(%q: tensor<100x16xf32>, %k: tensor<100x16xf32>, %v: tensor<100x16xf32>, %seg: tensor<100xi32>) -> tensor<100x16xf32> {
  %o0 = tensor.empty() : tensor<100x16xf32>
  %o = flash.attention ins(%q, %k, %v : tensor<100x16xf32>, tensor<100x16xf32>, tensor<100x16xf32>)
      captures(%seg : tensor<100xi32>)
      outs(%o0 : tensor<100x16xf32>) -> tensor<100x16xf32>
    mask_mod {
    ^bb0(%i: index, %j: index, %s: tensor<100xi32>):
      %a = tensor.extract %s[%i] : tensor<100xi32>
      %b = tensor.extract %s[%j] : tensor<100xi32>
      %e = arith.cmpi eq, %a, %b : i32
      flash.yield %e : i1
    }
  return %o : tensor<100x16xf32>
}

// -----

// The backward of a soft-capped score multiplies dS by the score_mod's
// derivative 1 - tanh(s / c)^2, computed next to the recomputed score.
// CHECK-LABEL: func.func @softcap_grad
// CHECK: math.tanh
// CHECK: %[[SQ:.*]] = arith.mulf %[[T:.*]], %[[T]] : f32
// CHECK: arith.subf %{{.*}}, %[[SQ]] : f32
// CHECK: linalg.yield %{{.*}}, %{{.*}} : f32, f32
func.func @softcap_grad(%q: tensor<100x16xf32>, %o: tensor<100x16xf32>, %lse: tensor<100xf32>) -> tensor<100x16xf32> {
  %r:3 = flash.attention_grad ins(%q, %q, %q, %o, %lse, %o : tensor<100x16xf32>, tensor<100x16xf32>, tensor<100x16xf32>, tensor<100x16xf32>, tensor<100xf32>, tensor<100x16xf32>)
      outs(%q, %q, %q : tensor<100x16xf32>, tensor<100x16xf32>, tensor<100x16xf32>) -> tensor<100x16xf32>, tensor<100x16xf32>, tensor<100x16xf32>
    score_mod {
    ^bb0(%s: f32, %i: index, %j: index):
      %c = arith.constant 30.0 : f32
      %x = arith.divf %s, %c : f32
      %t = math.tanh %x : f32
      %y = arith.mulf %t, %c : f32
      flash.yield %y : f32
    }
  return %r#0 : tensor<100x16xf32>
}
