// RUN: flash-opt %s --split-input-file | flash-opt --split-input-file | FileCheck %s

// score_mod / mask_mod regions and captured operands round-trip.

// CHECK-LABEL: func.func @softcap_alibi_window
// CHECK: flash.attention ins({{.*}}) captures(%[[SL:.*]] : tensor<4xf32>) outs({{.*}}) {causal}
// CHECK-SAME: score_mod {
// CHECK: ^bb0(%[[S:.*]]: f32, %{{.*}}: index, %[[H:.*]]: index, %{{.*}}: index, %{{.*}}: index, %[[C:.*]]: tensor<4xf32>):
// CHECK: math.tanh
// CHECK: tensor.extract %[[C]][%[[H]]] : tensor<4xf32>
// CHECK: flash.yield %{{.*}} : f32
// CHECK: } mask_mod {
// CHECK: arith.cmpi slt
// CHECK: flash.yield %{{.*}} : i1
func.func @softcap_alibi_window(%q: tensor<2x4x37x16xf32>, %k: tensor<2x4x41x16xf32>, %v: tensor<2x4x41x16xf32>, %slopes: tensor<4xf32>) -> tensor<2x4x37x16xf32> {
  %o0 = tensor.empty() : tensor<2x4x37x16xf32>
  %o = flash.attention ins(%q, %k, %v : tensor<2x4x37x16xf32>, tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>)
      captures(%slopes : tensor<4xf32>)
      outs(%o0 : tensor<2x4x37x16xf32>) {causal} -> tensor<2x4x37x16xf32>
    score_mod {
    ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index, %sl: tensor<4xf32>):
      %c = arith.constant 5.0 : f32
      %x = arith.divf %s, %c : f32
      %t = math.tanh %x : f32
      %r = arith.mulf %c, %t : f32
      %m = tensor.extract %sl[%h] : tensor<4xf32>
      %d = arith.subi %j, %i : index
      %di = arith.index_cast %d : index to i64
      %df = arith.sitofp %di : i64 to f32
      %bias = arith.mulf %m, %df : f32
      %y = arith.addf %r, %bias : f32
      flash.yield %y : f32
    }
    mask_mod {
    ^bb0(%b: index, %h: index, %i: index, %j: index, %sl: tensor<4xf32>):
      %w = arith.constant 7 : index
      %d = arith.subi %i, %j : index
      %in = arith.cmpi slt, %d, %w : index
      flash.yield %in : i1
    }
  return %o : tensor<2x4x37x16xf32>
}

// -----

// CHECK-LABEL: func.func @grad_with_mods
// CHECK: flash.attention_grad ins({{.*}}) captures(%{{.*}}, %{{.*}} : tensor<33xi32>, tensor<33xi32>) outs({{.*}}) -> {{.*}} score_mod {
// CHECK: } mask_mod {
// CHECK: arith.cmpi eq
func.func @grad_with_mods(%q: tensor<33x16xf32>, %o: tensor<33x16xf32>, %lse: tensor<33xf32>, %sq: tensor<33xi32>, %sk: tensor<33xi32>) -> tensor<33x16xf32> {
  %r:3 = flash.attention_grad ins(%q, %q, %q, %o, %lse, %o : tensor<33x16xf32>, tensor<33x16xf32>, tensor<33x16xf32>, tensor<33x16xf32>, tensor<33xf32>, tensor<33x16xf32>)
      captures(%sq, %sk : tensor<33xi32>, tensor<33xi32>)
      outs(%q, %q, %q : tensor<33x16xf32>, tensor<33x16xf32>, tensor<33x16xf32>) -> tensor<33x16xf32>, tensor<33x16xf32>, tensor<33x16xf32>
    score_mod {
    ^bb0(%s: f32, %i: index, %j: index, %a: tensor<33xi32>, %b: tensor<33xi32>):
      %c = arith.constant 30.0 : f32
      %x = arith.divf %s, %c : f32
      %t = math.tanh %x : f32
      %y = arith.mulf %t, %c : f32
      flash.yield %y : f32
    }
    mask_mod {
    ^bb0(%i: index, %j: index, %a: tensor<33xi32>, %b: tensor<33xi32>):
      %x = tensor.extract %a[%i] : tensor<33xi32>
      %y = tensor.extract %b[%j] : tensor<33xi32>
      %e = arith.cmpi eq, %x, %y : i32
      flash.yield %e : i1
    }
  return %r#0 : tensor<33x16xf32>
}
