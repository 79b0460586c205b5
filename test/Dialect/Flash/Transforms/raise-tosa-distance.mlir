// TOSA masks from a constant [1, N, N] i32 distance table (TFLite-style
// exports bake positions into constants): tosa.greater / logical_and of the
// table with a splat threshold, then tosa.select with -inf. The compare's
// threshold (a splat integer constant) and the table's element (an i32
// read) are both integers in the mask_mod region (the constant was emitted
// as f32 before, so the region could not be built and the raise refused).
// Found by an adversarial tester, session 38.
// RUN: flash-opt %s --split-input-file --flash-raise-attention | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// CHECK-LABEL: func.func @tosa_f32_distance_single_greater
// CHECK: flash.attention
// CHECK: mask_mod
// CHECK: arith.cmpi
// EXEC: tosa_f32_distance_single_greater: raised=yes
func.func @tosa_f32_distance_single_greater(%q: tensor<3x11x8xf32>, %k: tensor<3x11x8xf32>, %v: tensor<3x11x8xf32>) -> tensor<3x11x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %dist = "tosa.const"() <{values = dense<[[[0,-1,-2,-3,-4,-5,-6,-7,-8,-9,-10],[1,0,-1,-2,-3,-4,-5,-6,-7,-8,-9],[2,1,0,-1,-2,-3,-4,-5,-6,-7,-8],[3,2,1,0,-1,-2,-3,-4,-5,-6,-7],[4,3,2,1,0,-1,-2,-3,-4,-5,-6],[5,4,3,2,1,0,-1,-2,-3,-4,-5],[6,5,4,3,2,1,0,-1,-2,-3,-4],[7,6,5,4,3,2,1,0,-1,-2,-3],[8,7,6,5,4,3,2,1,0,-1,-2],[9,8,7,6,5,4,3,2,1,0,-1],[10,9,8,7,6,5,4,3,2,1,0]]]> : tensor<1x11x11xi32>}> : () -> tensor<1x11x11xi32>
  %w = "tosa.const"() <{values = dense<4> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %z = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %sc = "tosa.const"() <{values = dense<0.35355339> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<3x11x8xf32>) -> tensor<3x8x11xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<3x11x8xf32>, tensor<3x8x11xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x11x11xf32>
  %x0 = tosa.mul %s, %sc, %shift : (tensor<3x11x11xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<3x11x11xf32>
  %near = tosa.greater %w, %dist : (tensor<1x1x1xi32>, tensor<1x11x11xi32>) -> tensor<1x11x11xi1>
  %x = tosa.select %near, %x0, %ninf : (tensor<1x11x11xi1>, tensor<3x11x11xf32>, tensor<1x1x1xf32>) -> tensor<3x11x11xf32>
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<3x11x11xf32>) -> tensor<3x11x1xf32>
  %t = tosa.sub %x, %m : (tensor<3x11x11xf32>, tensor<3x11x1xf32>) -> tensor<3x11x11xf32>
  %e = tosa.exp %t : (tensor<3x11x11xf32>) -> tensor<3x11x11xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<3x11x11xf32>) -> tensor<3x11x1xf32>
  %r = tosa.reciprocal %sum : (tensor<3x11x1xf32>) -> tensor<3x11x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<3x11x11xf32>, tensor<3x11x1xf32>, tensor<1xi8>) -> tensor<3x11x11xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<3x11x11xf32>, tensor<3x11x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x11x8xf32>
  return %o : tensor<3x11x8xf32>
}

// -----

// CHECK-LABEL: func.func @tosa_f32_window_distance
// CHECK: flash.attention
// CHECK: mask_mod
// CHECK: arith.cmpi
// EXEC: tosa_f32_window_distance: raised=yes
func.func @tosa_f32_window_distance(%q: tensor<3x11x8xf32>, %k: tensor<3x11x8xf32>, %v: tensor<3x11x8xf32>) -> tensor<3x11x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %dist = "tosa.const"() <{values = dense<[[[0,-1,-2,-3,-4,-5,-6,-7,-8,-9,-10],[1,0,-1,-2,-3,-4,-5,-6,-7,-8,-9],[2,1,0,-1,-2,-3,-4,-5,-6,-7,-8],[3,2,1,0,-1,-2,-3,-4,-5,-6,-7],[4,3,2,1,0,-1,-2,-3,-4,-5,-6],[5,4,3,2,1,0,-1,-2,-3,-4,-5],[6,5,4,3,2,1,0,-1,-2,-3,-4],[7,6,5,4,3,2,1,0,-1,-2,-3],[8,7,6,5,4,3,2,1,0,-1,-2],[9,8,7,6,5,4,3,2,1,0,-1],[10,9,8,7,6,5,4,3,2,1,0]]]> : tensor<1x11x11xi32>}> : () -> tensor<1x11x11xi32>
  %w = "tosa.const"() <{values = dense<4> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %z = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %sc = "tosa.const"() <{values = dense<0.35355339> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<3x11x8xf32>) -> tensor<3x8x11xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<3x11x8xf32>, tensor<3x8x11xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x11x11xf32>
  %x0 = tosa.mul %s, %sc, %shift : (tensor<3x11x11xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<3x11x11xf32>
  %near = tosa.greater %w, %dist : (tensor<1x1x1xi32>, tensor<1x11x11xi32>) -> tensor<1x11x11xi1>
  %past = tosa.greater_equal %dist, %z : (tensor<1x11x11xi32>, tensor<1x1x1xi32>) -> tensor<1x11x11xi1>
  %keep = tosa.logical_and %near, %past : (tensor<1x11x11xi1>, tensor<1x11x11xi1>) -> tensor<1x11x11xi1>
  %x = tosa.select %keep, %x0, %ninf : (tensor<1x11x11xi1>, tensor<3x11x11xf32>, tensor<1x1x1xf32>) -> tensor<3x11x11xf32>
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<3x11x11xf32>) -> tensor<3x11x1xf32>
  %t = tosa.sub %x, %m : (tensor<3x11x11xf32>, tensor<3x11x1xf32>) -> tensor<3x11x11xf32>
  %e = tosa.exp %t : (tensor<3x11x11xf32>) -> tensor<3x11x11xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<3x11x11xf32>) -> tensor<3x11x1xf32>
  %r = tosa.reciprocal %sum : (tensor<3x11x1xf32>) -> tensor<3x11x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<3x11x11xf32>, tensor<3x11x1xf32>, tensor<1xi8>) -> tensor<3x11x11xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<3x11x11xf32>, tensor<3x11x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x11x8xf32>
  return %o : tensor<3x11x8xf32>
}

// -----

// CHECK-LABEL: func.func @tosa_f16_cast_window_distance
// CHECK: flash.attention
// CHECK: mask_mod
// CHECK: arith.cmpi
// EXEC: tosa_f16_cast_window_distance: raised=yes
func.func @tosa_f16_cast_window_distance(%q: tensor<3x11x8xf16>, %k: tensor<3x11x8xf16>, %v: tensor<3x11x8xf16>) -> tensor<3x11x8xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %dist = "tosa.const"() <{values = dense<[[[0,-1,-2,-3,-4,-5,-6,-7,-8,-9,-10],[1,0,-1,-2,-3,-4,-5,-6,-7,-8,-9],[2,1,0,-1,-2,-3,-4,-5,-6,-7,-8],[3,2,1,0,-1,-2,-3,-4,-5,-6,-7],[4,3,2,1,0,-1,-2,-3,-4,-5,-6],[5,4,3,2,1,0,-1,-2,-3,-4,-5],[6,5,4,3,2,1,0,-1,-2,-3,-4],[7,6,5,4,3,2,1,0,-1,-2,-3],[8,7,6,5,4,3,2,1,0,-1,-2],[9,8,7,6,5,4,3,2,1,0,-1],[10,9,8,7,6,5,4,3,2,1,0]]]> : tensor<1x11x11xi32>}> : () -> tensor<1x11x11xi32>
  %w = "tosa.const"() <{values = dense<4> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %z = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %sc = "tosa.const"() <{values = dense<0.35355339> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<3x11x8xf16>) -> tensor<3x8x11xf16>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<3x11x8xf16>, tensor<3x8x11xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x11x11xf32>
  %x0 = tosa.mul %s, %sc, %shift : (tensor<3x11x11xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<3x11x11xf32>
  %near = tosa.greater %w, %dist : (tensor<1x1x1xi32>, tensor<1x11x11xi32>) -> tensor<1x11x11xi1>
  %past = tosa.greater_equal %dist, %z : (tensor<1x11x11xi32>, tensor<1x1x1xi32>) -> tensor<1x11x11xi1>
  %keep = tosa.logical_and %near, %past : (tensor<1x11x11xi1>, tensor<1x11x11xi1>) -> tensor<1x11x11xi1>
  %x = tosa.select %keep, %x0, %ninf : (tensor<1x11x11xi1>, tensor<3x11x11xf32>, tensor<1x1x1xf32>) -> tensor<3x11x11xf32>
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<3x11x11xf32>) -> tensor<3x11x1xf32>
  %t = tosa.sub %x, %m : (tensor<3x11x11xf32>, tensor<3x11x1xf32>) -> tensor<3x11x11xf32>
  %e = tosa.exp %t : (tensor<3x11x11xf32>) -> tensor<3x11x11xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<3x11x11xf32>) -> tensor<3x11x1xf32>
  %r = tosa.reciprocal %sum : (tensor<3x11x1xf32>) -> tensor<3x11x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<3x11x11xf32>, tensor<3x11x1xf32>, tensor<1xi8>) -> tensor<3x11x11xf32>
  %ph = tosa.cast %p : (tensor<3x11x11xf32>) -> tensor<3x11x11xf16>
  %o = tosa.matmul %ph, %v, %zp, %zp : (tensor<3x11x11xf16>, tensor<3x11x8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<3x11x8xf32>
  %oh = tosa.cast %o : (tensor<3x11x8xf32>) -> tensor<3x11x8xf16>
  return %oh : tensor<3x11x8xf16>
}
