// flash.attention implements TilingInterface over its batch, head and query
// dims: upstream transform-dialect tiling composes with it.
// RUN: flash-opt %s --transform-interpreter --split-input-file --canonicalize | FileCheck %s

// Tile heads by 2 and queries by 32: each tile reads its query rows and its
// kv heads (GQA group 2: query heads [h, h+2) read kv head h / 2), and all
// keys.
// CHECK-LABEL: func.func @tile_heads_queries
// CHECK: scf.for %[[H:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:   scf.for %[[I:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:     %[[KH:.*]] = affine.apply #{{.*}}(%[[H]])
// CHECK:     tensor.extract_slice %{{.*}}[0, %[[H]], %[[I]], 0] [2, 2, 32, 64]
// CHECK:     tensor.extract_slice %{{.*}}[0, %[[KH]], 0, 0] [2, 1, 128, 64]
// CHECK:     flash.attention ins({{.*}} : tensor<2x2x32x64xf32>, tensor<2x1x128x64xf32>, tensor<2x1x128x64xf32>) outs({{.*}} : tensor<2x2x32x64xf32>)
// CHECK:     tensor.insert_slice
func.func @tile_heads_queries(%q: tensor<2x8x128x64xf32>, %k: tensor<2x4x128x64xf32>,
                              %v: tensor<2x4x128x64xf32>, %o: tensor<2x8x128x64xf32>)
    -> tensor<2x8x128x64xf32> {
  %r = flash.attention ins(%q, %k, %v : tensor<2x8x128x64xf32>,
           tensor<2x4x128x64xf32>, tensor<2x4x128x64xf32>)
       outs(%o : tensor<2x8x128x64xf32>) -> tensor<2x8x128x64xf32>
  return %r : tensor<2x8x128x64xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["flash.attention"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %a tile_sizes [0, 2, 32]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Causal attention tiled over the batch keeps its diagonal (the default
// bottom-right offset Nk - Nq is pinned on the tile).
// CHECK-LABEL: func.func @tile_causal_batch
// CHECK: scf.for
// CHECK:   flash.attention {{.*}} mask(%{{.*}} : tensor<1x100x70xi1>) {{.*}}{causal, causal_offset = -30 : i64, scale = 5.000000e-01 : f32} -> tensor<1x100x16xf32>
func.func @tile_causal_batch(%q: tensor<4x100x16xf32>, %k: tensor<4x70x16xf32>,
                             %v: tensor<4x70x16xf32>, %m: tensor<4x100x70xi1>,
                             %o: tensor<4x100x16xf32>) -> tensor<4x100x16xf32> {
  %r = flash.attention ins(%q, %k, %v : tensor<4x100x16xf32>,
           tensor<4x70x16xf32>, tensor<4x70x16xf32>)
       mask(%m : tensor<4x100x70xi1>) outs(%o : tensor<4x100x16xf32>)
       {causal, scale = 0.5 : f32} -> tensor<4x100x16xf32>
  return %r : tensor<4x100x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["flash.attention"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %a tile_sizes [1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// With modifiers, each tile adds its (dynamic) offsets to the positions its
// regions see: they enter as captured 0-d tensors.
// CHECK-LABEL: func.func @tile_modifiers
// CHECK: %[[HO:.*]] = tensor.from_elements %{{.*}} : tensor<index>
// CHECK: %[[IO:.*]] = tensor.from_elements %{{.*}} : tensor<index>
// CHECK: flash.attention ins({{.*}}) captures(%{{.*}}, %[[HO]], %[[IO]] : tensor<4xf32>, tensor<index>, tensor<index>)
// CHECK: score_mod {
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: index, %[[H:.*]]: index, %[[I:.*]]: index, %[[J:.*]]: index, %[[SL:.*]]: tensor<4xf32>, %[[HC:.*]]: tensor<index>, %[[IC:.*]]: tensor<index>):
// CHECK: %[[HX:.*]] = tensor.extract %[[HC]][] : tensor<index>
// CHECK: %[[HG:.*]] = arith.addi %[[H]], %[[HX]] : index
// CHECK: %[[IX:.*]] = tensor.extract %[[IC]][] : tensor<index>
// CHECK: %[[IG:.*]] = arith.addi %[[I]], %[[IX]] : index
// CHECK: tensor.extract %[[SL]][%[[HG]]]
// CHECK: arith.subi %[[J]], %[[IG]]
// CHECK: mask_mod {
func.func @tile_modifiers(%q: tensor<2x4x37x16xf32>, %k: tensor<2x4x41x16xf32>, %v: tensor<2x4x41x16xf32>, %slopes: tensor<4xf32>, %o0: tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32> {
  %o = flash.attention ins(%q, %k, %v : tensor<2x4x37x16xf32>, tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>)
      captures(%slopes : tensor<4xf32>)
      outs(%o0 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
    score_mod {
    ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index, %sl: tensor<4xf32>):
      %m = tensor.extract %sl[%h] : tensor<4xf32>
      %d = arith.subi %j, %i : index
      %di = arith.index_cast %d : index to i64
      %df = arith.sitofp %di : i64 to f32
      %bias = arith.mulf %m, %df : f32
      %y = arith.addf %s, %bias : f32
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
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["flash.attention"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %a tile_sizes [0, 2, 16]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// fp8 descales: per kv head ones follow the kv heads of the tile, per
// tensor ones stay whole.
// CHECK-LABEL: func.func @tile_fp8_descales
// CHECK: scf.for %[[H:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:   %[[KH:.*]] = affine.apply #{{.*}}(%[[H]])
// CHECK:   %[[QD:.*]] = tensor.extract_slice %{{.*}}[0, %[[KH]]] [2, 1] [1, 1] : tensor<2x4xf32> to tensor<2x1xf32>
// CHECK:   flash.attention {{.*}} descale(%[[QD]], %{{.*}}, %{{.*}} : tensor<2x1xf32>, tensor<f32>, tensor<2x1xf32>) outs({{.*}} : tensor<2x2x128x64xbf16>)
func.func @tile_fp8_descales(%q: tensor<2x8x128x64xf8E4M3FN>, %k: tensor<2x4x128x64xf8E4M3FN>,
                             %v: tensor<2x4x128x64xf8E4M3FN>, %qd: tensor<2x4xf32>,
                             %kd: tensor<f32>, %vd: tensor<2x4xf32>,
                             %o: tensor<2x8x128x64xbf16>) -> tensor<2x8x128x64xbf16> {
  %r = flash.attention ins(%q, %k, %v : tensor<2x8x128x64xf8E4M3FN>,
           tensor<2x4x128x64xf8E4M3FN>, tensor<2x4x128x64xf8E4M3FN>)
       descale(%qd, %kd, %vd : tensor<2x4xf32>, tensor<f32>, tensor<2x4xf32>)
       outs(%o : tensor<2x8x128x64xbf16>) -> tensor<2x8x128x64xbf16>
  return %r : tensor<2x8x128x64xbf16>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.structured.match ops{["flash.attention"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %a tile_sizes [0, 2]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
