// Attention inside whole programs: Q, K, V computed by projections (and a
// rotary-style embedding), dO computed from the output, GQA repeated with
// tensor.concat, TOSA with reshapes around 4-D. The raise names computed
// tensors as leaves; nothing upstream of them changes.
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// CHECK-LABEL: func.func @projected_rope
// CHECK: %[[Q0:.*]] = linalg.matmul
// CHECK: %[[K0:.*]] = linalg.matmul
// CHECK: %[[V:.*]] = linalg.matmul
// CHECK: %[[Q:.*]] = linalg.generic
// CHECK: %[[K:.*]] = linalg.generic
// CHECK-NOT: linalg.softmax
// CHECK: flash.attention ins(%[[Q]], %[[K]], %[[V]] : {{.*}}) outs({{.*}}) {causal, causal_offset = 0 : i64, scale = 0.35355{{[0-9]*}} : f32}
// EXEC: projected_rope: raised=yes
func.func @projected_rope(%x: tensor<13x16xf32>, %wq: tensor<16x8xf32>, %wk: tensor<16x8xf32>, %wv: tensor<16x8xf32>,
                          %cos: tensor<13x8xf32>, %sin: tensor<13x8xf32>) -> tensor<13x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e8 = tensor.empty() : tensor<13x8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %q0 = linalg.matmul ins(%x, %wq : tensor<13x16xf32>, tensor<16x8xf32>) outs(%z8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %k0 = linalg.matmul ins(%x, %wk : tensor<13x16xf32>, tensor<16x8xf32>) outs(%z8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %v = linalg.matmul ins(%x, %wv : tensor<13x16xf32>, tensor<16x8xf32>) outs(%z8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  // rotate pairs: r[i, d] = x[i, d] * cos[i, d] + x[i, d xor 1-ish] * sin: use a reversed read (7 - d)
  %q = linalg.generic {indexing_maps = [affine_map<(i, d) -> (i, d)>, affine_map<(i, d) -> (i, 7 - d)>, affine_map<(i, d) -> (i, d)>, affine_map<(i, d) -> (i, d)>, affine_map<(i, d) -> (i, d)>], iterator_types = ["parallel", "parallel"]}
      ins(%q0, %q0, %cos, %sin : tensor<13x8xf32>, tensor<13x8xf32>, tensor<13x8xf32>, tensor<13x8xf32>) outs(%e8 : tensor<13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %s: f32, %o: f32):
    %t0 = arith.mulf %a, %c : f32
    %t1 = arith.mulf %b, %s : f32
    %t2 = arith.addf %t0, %t1 : f32
    linalg.yield %t2 : f32
  } -> tensor<13x8xf32>
  %k = linalg.generic {indexing_maps = [affine_map<(i, d) -> (i, d)>, affine_map<(i, d) -> (i, 7 - d)>, affine_map<(i, d) -> (i, d)>, affine_map<(i, d) -> (i, d)>, affine_map<(i, d) -> (i, d)>], iterator_types = ["parallel", "parallel"]}
      ins(%k0, %k0, %cos, %sin : tensor<13x8xf32>, tensor<13x8xf32>, tensor<13x8xf32>, tensor<13x8xf32>) outs(%e8 : tensor<13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %s: f32, %o: f32):
    %t0 = arith.mulf %a, %c : f32
    %t1 = arith.mulf %b, %s : f32
    %t2 = arith.addf %t0, %t1 : f32
    linalg.yield %t2 : f32
  } -> tensor<13x8xf32>
  %e0 = tensor.empty() : tensor<13x13xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, kk) -> (m, kk)>, affine_map<(m, n, kk) -> (n, kk)>, affine_map<(m, n, kk) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%z0 : tensor<13x13xf32>) -> tensor<13x13xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x13xf32>) outs(%e0 : tensor<13x13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %a, %c : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi ule, %j, %i : index
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<13x13xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<13x13xf32>) outs(%e0 : tensor<13x13xf32>) -> tensor<13x13xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x8xf32>) outs(%z8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  return %o : tensor<13x8xf32>
}

// -----

// CHECK-LABEL: func.func @joint_projected
// CHECK-NOT: tensor<13x13xf32>
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention
// CHECK: %[[DO:.*]] = linalg.generic {{.*}} ins(%[[O]],
// CHECK: flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %[[DO]] :
// EXEC: joint_projected: raised=yes
func.func @joint_projected(%x: tensor<13x16xf32>, %wq: tensor<16x8xf32>, %wk: tensor<16x8xf32>, %wv: tensor<16x8xf32>, %y: tensor<13x8xf32>)
    -> (tensor<13x8xf32>, tensor<16x8xf32>, tensor<13x8xf32>, tensor<13x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<13x8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<13x16xf32>, tensor<16x8xf32>) outs(%z8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<13x16xf32>, tensor<16x8xf32>) outs(%z8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %v = linalg.matmul ins(%x, %wv : tensor<13x16xf32>, tensor<16x8xf32>) outs(%z8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %e0 = tensor.empty() : tensor<13x13xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, kk) -> (m, kk)>, affine_map<(m, n, kk) -> (n, kk)>, affine_map<(m, n, kk) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%z0 : tensor<13x13xf32>) -> tensor<13x13xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x13xf32>) outs(%e0 : tensor<13x13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %r = arith.mulf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<13x13xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<13x13xf32>) outs(%e0 : tensor<13x13xf32>) -> tensor<13x13xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x8xf32>) outs(%z8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %do = linalg.generic {indexing_maps = [affine_map<(i, d) -> (i, d)>, affine_map<(i, d) -> (i, d)>, affine_map<(i, d) -> (i, d)>], iterator_types = ["parallel", "parallel"]}
      ins(%o, %y : tensor<13x8xf32>, tensor<13x8xf32>) outs(%e8 : tensor<13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %t = arith.subf %a, %b : f32
    %two = arith.constant 2.0 : f32
    %r = arith.mulf %t, %two : f32
    linalg.yield %r : f32
  } -> tensor<13x8xf32>
  %dv = linalg.matmul indexing_maps = [affine_map<(m, n, kk) -> (kk, m)>, affine_map<(m, n, kk) -> (kk, n)>, affine_map<(m, n, kk) -> (m, n)>]
      ins(%p, %do : tensor<13x13xf32>, tensor<13x8xf32>) outs(%z8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %dp = linalg.matmul indexing_maps = [affine_map<(m, n, kk) -> (m, kk)>, affine_map<(m, n, kk) -> (n, kk)>, affine_map<(m, n, kk) -> (m, n)>]
      ins(%do, %v : tensor<13x8xf32>, tensor<13x8xf32>) outs(%z0 : tensor<13x13xf32>) -> tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %dl = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%dp, %p : tensor<13x13xf32>, tensor<13x13xf32>) outs(%zr : tensor<13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%p, %dp, %dl : tensor<13x13xf32>, tensor<13x13xf32>, tensor<13xf32>) outs(%e0 : tensor<13x13xf32>) {
  ^bb0(%pp: f32, %g: f32, %rr: f32, %out: f32):
    %d = arith.subf %g, %rr : f32
    %t = arith.mulf %pp, %d : f32
    %c = arith.constant 0.35355339 : f32
    %r = arith.mulf %t, %c : f32
    linalg.yield %r : f32
  } -> tensor<13x13xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<13x13xf32>, tensor<13x8xf32>) outs(%z8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %dk = linalg.matmul indexing_maps = [affine_map<(m, n, kk) -> (kk, m)>, affine_map<(m, n, kk) -> (kk, n)>, affine_map<(m, n, kk) -> (m, n)>]
      ins(%ds, %q : tensor<13x13xf32>, tensor<13x8xf32>) outs(%z8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %e16 = tensor.empty() : tensor<16x8xf32>
  %z16 = linalg.fill ins(%zero : f32) outs(%e16 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dwq = linalg.matmul indexing_maps = [affine_map<(m, n, kk) -> (kk, m)>, affine_map<(m, n, kk) -> (kk, n)>, affine_map<(m, n, kk) -> (m, n)>]
      ins(%x, %dq : tensor<13x16xf32>, tensor<13x8xf32>) outs(%z16 : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o, %dwq, %dk, %dv : tensor<13x8xf32>, tensor<16x8xf32>, tensor<13x8xf32>, tensor<13x8xf32>
}

// -----

// GQA: K and V [1, 2, 17, 8] repeated to 6 heads by a concat of unsqueezed
// copies and a collapse: raised on the unrepeated K and V.
// CHECK-LABEL: func.func @gqa_concat
// CHECK-SAME: (%[[Q:[a-z0-9]+]]: tensor<1x6x13x8xf32>, %[[K:[a-z0-9]+]]: tensor<1x2x17x8xf32>, %[[V:[a-z0-9]+]]: tensor<1x2x17x8xf32>)
// CHECK-NOT: tensor.concat
// CHECK: flash.attention ins(%[[Q]], %[[K]], %[[V]] : tensor<1x6x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>)
// EXEC: gqa_concat: raised=yes
func.func @gqa_concat(%q: tensor<1x6x13x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>) -> tensor<1x6x13x8xf32> {
  %zero = arith.constant 0.0 : f32
  %k5 = tensor.expand_shape %k [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 17, 8] : tensor<1x2x17x8xf32> into tensor<1x2x1x17x8xf32>
  %v5 = tensor.expand_shape %v [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 17, 8] : tensor<1x2x17x8xf32> into tensor<1x2x1x17x8xf32>
  %kc = tensor.concat dim(2) %k5, %k5, %k5 : (tensor<1x2x1x17x8xf32>, tensor<1x2x1x17x8xf32>, tensor<1x2x1x17x8xf32>) -> tensor<1x2x3x17x8xf32>
  %vc = tensor.concat dim(2) %v5, %v5, %v5 : (tensor<1x2x1x17x8xf32>, tensor<1x2x1x17x8xf32>, tensor<1x2x1x17x8xf32>) -> tensor<1x2x3x17x8xf32>
  %kr = tensor.collapse_shape %kc [[0], [1, 2], [3], [4]] : tensor<1x2x3x17x8xf32> into tensor<1x6x17x8xf32>
  %vr = tensor.collapse_shape %vc [[0], [1, 2], [3], [4]] : tensor<1x2x3x17x8xf32> into tensor<1x6x17x8xf32>
  %e0 = tensor.empty() : tensor<1x6x13x17xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x6x13x17xf32>) -> tensor<1x6x13x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<1x6x13x8xf32>, tensor<1x6x17x8xf32>) outs(%z0 : tensor<1x6x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %c, %m : f32
    linalg.yield %y : f32
  } -> tensor<1x6x13x17xf32>
  %e2 = tensor.empty() : tensor<1x6x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<1x6x13x17xf32>) outs(%e2 : tensor<1x6x13x17xf32>) -> tensor<1x6x13x17xf32>
  %e3 = tensor.empty() : tensor<1x6x13x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x6x13x8xf32>) -> tensor<1x6x13x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vr : tensor<1x6x13x17xf32>, tensor<1x6x17x8xf32>) outs(%z3 : tensor<1x6x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %c, %m : f32
    linalg.yield %y : f32
  } -> tensor<1x6x13x8xf32>
  return %o : tensor<1x6x13x8xf32>
}

// -----

// TOSA: [B, H, N, D] reshaped to [B*H, N, D] around the two matmuls and back.
// CHECK-LABEL: func.func @tosa_reshape_4d
// CHECK-SAME: (%[[Q:[a-z0-9]+]]: tensor<2x3x13x8xf32>, %[[K:[a-z0-9]+]]: tensor<2x3x17x8xf32>, %[[V:[a-z0-9]+]]: tensor<2x3x17x8xf32>)
// CHECK-NOT: tosa.
// CHECK: flash.attention ins(%[[Q]], %[[K]], %[[V]] : tensor<2x3x13x8xf32>, tensor<2x3x17x8xf32>, tensor<2x3x17x8xf32>)
// EXEC: tosa_reshape_4d: raised=yes
func.func @tosa_reshape_4d(%q: tensor<2x3x13x8xf32>, %k: tensor<2x3x17x8xf32>, %v: tensor<2x3x17x8xf32>) -> tensor<2x3x13x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sc = "tosa.const"() <{values = dense<0.35355339> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %s3 = tosa.const_shape {values = dense<[6, 13, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s3k = tosa.const_shape {values = dense<[6, 17, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[2, 3, 13, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %s3 : (tensor<2x3x13x8xf32>, !tosa.shape<3>) -> tensor<6x13x8xf32>
  %k3 = tosa.reshape %k, %s3k : (tensor<2x3x17x8xf32>, !tosa.shape<3>) -> tensor<6x17x8xf32>
  %v3 = tosa.reshape %v, %s3k : (tensor<2x3x17x8xf32>, !tosa.shape<3>) -> tensor<6x17x8xf32>
  %kt = tosa.transpose %k3 {perms = array<i32: 0, 2, 1>} : (tensor<6x17x8xf32>) -> tensor<6x8x17xf32>
  %s = tosa.matmul %q3, %kt, %zp, %zp : (tensor<6x13x8xf32>, tensor<6x8x17xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<6x13x17xf32>
  %x = tosa.mul %s, %sc, %shift : (tensor<6x13x17xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<6x13x17xf32>
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<6x13x17xf32>) -> tensor<6x13x1xf32>
  %t = tosa.sub %x, %m : (tensor<6x13x17xf32>, tensor<6x13x1xf32>) -> tensor<6x13x17xf32>
  %e = tosa.exp %t : (tensor<6x13x17xf32>) -> tensor<6x13x17xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<6x13x17xf32>) -> tensor<6x13x1xf32>
  %r = tosa.reciprocal %sum : (tensor<6x13x1xf32>) -> tensor<6x13x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<6x13x17xf32>, tensor<6x13x1xf32>, tensor<1xi8>) -> tensor<6x13x17xf32>
  %o = tosa.matmul %p, %v3, %zp, %zp : (tensor<6x13x17xf32>, tensor<6x17x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<6x13x8xf32>
  %o4 = tosa.reshape %o, %s4 : (tensor<6x13x8xf32>, !tosa.shape<4>) -> tensor<2x3x13x8xf32>
  return %o4 : tensor<2x3x13x8xf32>
}

// -----

// Decode: one query row (Nq = 1) against a KV cache, GQA by a floordiv
// generic; the unit query axis is read at 0 everywhere.
// CHECK-LABEL: func.func @decode_gqa
// CHECK: flash.attention ins({{.*}} : tensor<2x4x1x8xf32>, tensor<2x2x37x8xf32>, tensor<2x2x37x8xf32>)
// EXEC: decode_gqa: raised=yes
func.func @decode_gqa(%q: tensor<2x4x1x8xf32>, %k: tensor<2x2x37x8xf32>, %v: tensor<2x2x37x8xf32>) -> tensor<2x4x1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x1x37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x1x37xf32>) -> tensor<2x4x1x37xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h floordiv 2, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x1x8xf32>, tensor<2x2x37x8xf32>) outs(%z0 : tensor<2x4x1x37xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %c, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1x37xf32>
  %e2 = tensor.empty() : tensor<2x4x1x37xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x4x1x37xf32>) outs(%e2 : tensor<2x4x1x37xf32>) -> tensor<2x4x1x37xf32>
  %e3 = tensor.empty() : tensor<2x4x1x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x1x8xf32>) -> tensor<2x4x1x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h floordiv 2, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x1x37xf32>, tensor<2x2x37x8xf32>) outs(%z3 : tensor<2x4x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %c, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x1x8xf32>
  return %o : tensor<2x4x1x8xf32>
}

// -----

// f16 attention with the probabilities truncated by a tensor-level
// arith.truncf (not a generic) and an f16 accumulator in the P*V payload.
// CHECK-LABEL: func.func @f16_tensor_truncf
// CHECK: flash.attention
// EXEC: f16_tensor_truncf: raised=yes
func.func @f16_tensor_truncf(%q: tensor<13x8xf16>, %k: tensor<17x8xf16>, %v: tensor<17x6xf16>) -> tensor<13x6xf16> {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, kk) -> (m, kk)>, affine_map<(m, n, kk) -> (n, kk)>, affine_map<(m, n, kk) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf16>, tensor<17x8xf16>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %ph = arith.truncf %p : tensor<13x17xf32> to tensor<13x17xf16>
  %eo = tensor.empty() : tensor<13x6xf16>
  %zo = linalg.fill ins(%zh : f16) outs(%eo : tensor<13x6xf16>) -> tensor<13x6xf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ph, %v : tensor<13x17xf16>, tensor<17x6xf16>) outs(%zo : tensor<13x6xf16>) {
  ^bb0(%a: f16, %b: f16, %c: f16):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %c32 = arith.extf %c : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c32, %m : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  } -> tensor<13x6xf16>
  return %o : tensor<13x6xf16>
}

// -----

// A per-key padding mask [Nk] (i1) and a per-key additive bias [Nk]: O(N)
// masks, reshaped to [1, Nk] for the op.
// CHECK-LABEL: func.func @key_padding_1d
// CHECK: %[[M:.*]] = tensor.expand_shape
// CHECK: flash.attention {{.*}} mask(%[[M]] : tensor<1x17xi1>)
// EXEC: key_padding_1d: raised=yes
func.func @key_padding_1d(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>, %keep: tensor<17xi1>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, kk) -> (m, kk)>, affine_map<(m, n, kk) -> (n, kk)>, affine_map<(m, n, kk) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %keep : tensor<13x17xf32>, tensor<17xi1>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %m: i1, %o: f32):
    %r = arith.select %m, %a, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}
