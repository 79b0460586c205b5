// TOSA spellings of attention.
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// Stabilized softmax (reduce_max, sub, exp, reduce_sum, reciprocal, mul),
// scale by tosa.mul with a splat constant, K transposed by tosa.transpose.
// CHECK-LABEL: func.func @tosa_stabilized
// CHECK-SAME: (%[[Q:.*]]: tensor<4x16x8xf32>, %[[K:.*]]: tensor<4x20x8xf32>, %[[V:.*]]: tensor<4x20x8xf32>)
// CHECK-NOT: tosa.
// CHECK: flash.attention ins(%[[Q]], %[[K]], %[[V]] : {{.*}}) outs({{.*}}) {scale = 0.353553{{[0-9]*}} : f32}
// EXEC: tosa_stabilized: raised=yes
func.func @tosa_stabilized(%q: tensor<4x16x8xf32>, %k: tensor<4x20x8xf32>, %v: tensor<4x20x8xf32>) -> tensor<4x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sc = "tosa.const"() <{values = dense<0.35355339> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x20x8xf32>) -> tensor<4x8x20xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x16x8xf32>, tensor<4x8x20xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x20xf32>
  %x = tosa.mul %s, %sc, %shift : (tensor<4x16x20xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x16x20xf32>
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x16x20xf32>) -> tensor<4x16x1xf32>
  %t = tosa.sub %x, %m : (tensor<4x16x20xf32>, tensor<4x16x1xf32>) -> tensor<4x16x20xf32>
  %e = tosa.exp %t : (tensor<4x16x20xf32>) -> tensor<4x16x20xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x16x20xf32>) -> tensor<4x16x1xf32>
  %r = tosa.reciprocal %sum : (tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x16x20xf32>, tensor<4x16x1xf32>, tensor<1xi8>) -> tensor<4x16x20xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x16x20xf32>, tensor<4x20x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

// The unstabilized form (no max), an additive mask, K^T given directly.
// CHECK-LABEL: func.func @tosa_unstabilized_mask
// CHECK: %[[KT:.*]] = linalg.transpose
// CHECK: flash.attention ins(%{{.*}}, %[[KT]], %{{.*}}) mask(%{{.*}} : tensor<1x16x20xf32>)
// CHECK-SAME: {scale = 1.000000e+00 : f32}
// EXEC: tosa_unstabilized_mask: raised=yes
func.func @tosa_unstabilized_mask(%q: tensor<2x16x8xf32>, %kt: tensor<2x8x20xf32>, %v: tensor<2x20x8xf32>, %mask: tensor<1x16x20xf32>) -> tensor<2x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x16x8xf32>, tensor<2x8x20xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x20xf32>
  %x = tosa.add %s, %mask : (tensor<2x16x20xf32>, tensor<1x16x20xf32>) -> tensor<2x16x20xf32>
  %e = tosa.exp %x : (tensor<2x16x20xf32>) -> tensor<2x16x20xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x16x20xf32>) -> tensor<2x16x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
  %p = tosa.mul %r, %e, %shift : (tensor<2x16x1xf32>, tensor<2x16x20xf32>, tensor<1xi8>) -> tensor<2x16x20xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x16x20xf32>, tensor<2x20x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x8xf32>
  return %o : tensor<2x16x8xf32>
}

// -----

// Near miss: the softmax reduces over the query axis.
// CHECK-LABEL: func.func @negative_tosa_query_axis
// CHECK-NOT: flash.attention
func.func @negative_tosa_query_axis(%q: tensor<2x16x8xf32>, %kt: tensor<2x8x16xf32>, %v: tensor<2x16x8xf32>) -> tensor<2x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x16x8xf32>, tensor<2x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x16xf32>
  %e = tosa.exp %s : (tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  %sum = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<2x16x16xf32>) -> tensor<2x1x16xf32>
  %r = tosa.reciprocal %sum : (tensor<2x1x16xf32>) -> tensor<2x1x16xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x16x16xf32>, tensor<2x1x16xf32>, tensor<1xi8>) -> tensor<2x16x16xf32>
  // expected-remark @+1 {{attention not raised: the softmax normalizes over a different axis than the one P*V contracts}}
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x16x16xf32>, tensor<2x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x8xf32>
  return %o : tensor<2x16x8xf32>
}

// -----

// Raised: the factor goes into a score_mod (captured, read per element).
// CHECK-LABEL: func.func @tosa_elementwise_scale
// CHECK: flash.attention
// CHECK-SAME: score_mod
func.func @tosa_elementwise_scale(%q: tensor<2x16x8xf32>, %kt: tensor<2x8x20xf32>, %v: tensor<2x20x8xf32>, %w: tensor<2x16x20xf32>) -> tensor<2x16x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x16x8xf32>, tensor<2x8x20xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x20xf32>
  %x = tosa.mul %s, %w, %shift : (tensor<2x16x20xf32>, tensor<2x16x20xf32>, tensor<1xi8>) -> tensor<2x16x20xf32>
  %e = tosa.exp %x : (tensor<2x16x20xf32>) -> tensor<2x16x20xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x16x20xf32>) -> tensor<2x16x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x16x1xf32>) -> tensor<2x16x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x16x20xf32>, tensor<2x16x1xf32>, tensor<1xi8>) -> tensor<2x16x20xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x16x20xf32>, tensor<2x20x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x16x8xf32>
  return %o : tensor<2x16x8xf32>
}
