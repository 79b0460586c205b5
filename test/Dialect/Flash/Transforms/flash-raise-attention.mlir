// Every near miss (@negative_*) is left alone with a remark naming why.
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics | FileCheck %s
// Every other function, raised and not, runs on the CPU on the same inputs
// and must agree (utils/raisecheck.py).
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL
// EXEC: matmul_transposed_maps: raised=yes

// linalg.matmul with a transposing indexing_maps for K, scale by multiply.
// CHECK-LABEL: func.func @matmul_transposed_maps
// CHECK-SAME: (%[[Q:.*]]: tensor<128x64xf32>, %[[K:.*]]: tensor<100x64xf32>, %[[V:.*]]: tensor<100x32xf32>)
// CHECK-NOT: linalg.softmax
// CHECK-NOT: tensor<128x100xf32>
// CHECK: %[[O:.*]] = flash.attention ins(%[[Q]], %[[K]], %[[V]] : tensor<128x64xf32>, tensor<100x64xf32>, tensor<100x32xf32>) outs(%{{.*}} : tensor<128x32xf32>) {scale = 1.250000e-01 : f32}
// CHECK: return %[[O]]
func.func @matmul_transposed_maps(%q: tensor<128x64xf32>, %k: tensor<100x64xf32>,
                                  %v: tensor<100x32xf32>) -> tensor<128x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<128x100xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x100xf32>) -> tensor<128x100xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<128x64xf32>, tensor<100x64xf32>)
      outs(%z0 : tensor<128x100xf32>) -> tensor<128x100xf32>
  %e1 = tensor.empty() : tensor<128x100xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<128x100xf32>) outs(%e1 : tensor<128x100xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<128x100xf32>
  %e2 = tensor.empty() : tensor<128x100xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<128x100xf32>) outs(%e2 : tensor<128x100xf32>) -> tensor<128x100xf32>
  %e3 = tensor.empty() : tensor<128x32xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<128x32xf32>) -> tensor<128x32xf32>
  %o = linalg.matmul ins(%p, %v : tensor<128x100xf32>, tensor<100x32xf32>) outs(%z3 : tensor<128x32xf32>) -> tensor<128x32xf32>
  return %o : tensor<128x32xf32>
}

// -----

// batch_matmul of Q with linalg.transpose(K), scale as a divide by sqrt(d).
// CHECK-LABEL: func.func @batch_transpose_divide
// CHECK-SAME: (%[[Q:.*]]: tensor<4x16x8xf32>, %[[K:.*]]: tensor<4x20x8xf32>, %[[V:.*]]: tensor<4x20x8xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: flash.attention ins(%[[Q]], %[[K]], %[[V]] :
// CHECK-SAME: {scale = 0.35355{{[0-9]*}} : f32}
func.func @batch_transpose_divide(%q: tensor<4x16x8xf32>, %k: tensor<4x20x8xf32>,
                                  %v: tensor<4x20x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<4x8x20xf32>
  %kt = linalg.transpose ins(%k : tensor<4x20x8xf32>) outs(%et : tensor<4x8x20xf32>) permutation = [0, 2, 1]
  %e0 = tensor.empty() : tensor<4x16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x16x20xf32>) -> tensor<4x16x20xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xf32>, tensor<4x8x20xf32>) outs(%z0 : tensor<4x16x20xf32>) -> tensor<4x16x20xf32>
  %e1 = tensor.empty() : tensor<4x16x20xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x16x20xf32>) outs(%e1 : tensor<4x16x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 2.82842712 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x16x20xf32>
  %e2 = tensor.empty() : tensor<4x16x20xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<4x16x20xf32>) outs(%e2 : tensor<4x16x20xf32>) -> tensor<4x16x20xf32>
  %e3 = tensor.empty() : tensor<4x16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x20xf32>, tensor<4x20x8xf32>) outs(%z3 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

// A torch-mlir-style contraction generic with two batch dims, K^T given
// directly (not as a transpose): a transpose of it is materialized; no scale
// means scale 1.
// CHECK-LABEL: func.func @generic_two_batch_dims
// CHECK: %[[KT:.*]] = linalg.transpose
// CHECK: flash.attention ins(%{{.*}}, %[[KT]], %{{.*}} : tensor<2x3x16x8xf32>, tensor<2x3x20x8xf32>, tensor<2x3x20x8xf32>)
// CHECK-SAME: {scale = 1.000000e+00 : f32}
func.func @generic_two_batch_dims(%q: tensor<2x3x16x8xf32>, %kt: tensor<2x3x8x20xf32>,
                                  %v: tensor<2x3x20x8xf32>) -> tensor<2x3x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x3x16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x3x16x20xf32>) -> tensor<2x3x16x20xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(a, b, m, n, k) -> (a, b, m, k)>,
                                        affine_map<(a, b, m, n, k) -> (a, b, k, n)>,
                                        affine_map<(a, b, m, n, k) -> (a, b, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kt : tensor<2x3x16x8xf32>, tensor<2x3x8x20xf32>) outs(%z0 : tensor<2x3x16x20xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x16x20xf32>
  %e2 = tensor.empty() : tensor<2x3x16x20xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x3x16x20xf32>) outs(%e2 : tensor<2x3x16x20xf32>) -> tensor<2x3x16x20xf32>
  %e3 = tensor.empty() : tensor<2x3x16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x3x16x8xf32>) -> tensor<2x3x16x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(a, b, m, n, k) -> (a, b, m, k)>,
                                        affine_map<(a, b, m, n, k) -> (a, b, k, n)>,
                                        affine_map<(a, b, m, n, k) -> (a, b, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x3x16x20xf32>, tensor<2x3x20x8xf32>) outs(%z3 : tensor<2x3x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x16x8xf32>
  return %o : tensor<2x3x16x8xf32>
}

// -----

// Near miss: softmax over the query axis is not attention.
// CHECK-LABEL: func.func @negative_softmax_query_axis
// CHECK: linalg.softmax
// CHECK-NOT: flash.attention
func.func @negative_softmax_query_axis(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>,
                                       %v: tensor<20x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x8xf32>, tensor<20x8xf32>) outs(%z0 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %e2 = tensor.empty() : tensor<16x20xf32>
  %p = linalg.softmax dimension(0) ins(%s : tensor<16x20xf32>) outs(%e2 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %e3 = tensor.empty() : tensor<16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark @+1 {{attention not raised: the softmax normalizes over a different axis than the one P*V contracts}}
  %o = linalg.matmul ins(%p, %v : tensor<16x20xf32>, tensor<20x8xf32>) outs(%z3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// -----

// Near miss: the probabilities are also returned (the N x N matrix is
// needed), so nothing may change.
// CHECK-LABEL: func.func @negative_probabilities_escape
// CHECK-NOT: flash.attention
func.func @negative_probabilities_escape(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>,
                                         %v: tensor<20x8xf32>) -> (tensor<16x8xf32>, tensor<16x20xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x8xf32>, tensor<20x8xf32>) outs(%z0 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %e2 = tensor.empty() : tensor<16x20xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<16x20xf32>) outs(%e2 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %e3 = tensor.empty() : tensor<16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark @+1 {{attention not raised: the probabilities are also used by 'func.return' (e.g. returned), not only by P*V and its backward}}
  %o = linalg.matmul ins(%p, %v : tensor<16x20xf32>, tensor<20x8xf32>) outs(%z3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o, %p : tensor<16x8xf32>, tensor<16x20xf32>
}

// -----

// Near miss: the second product contracts the query axis (P^T V).
// CHECK-LABEL: func.func @negative_second_matmul_other_axis
// CHECK-NOT: flash.attention
func.func @negative_second_matmul_other_axis(%q: tensor<16x8xf32>, %k: tensor<16x8xf32>,
                                             %v: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x16xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x8xf32>, tensor<16x8xf32>) outs(%z0 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e2 = tensor.empty() : tensor<16x16xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<16x16xf32>) outs(%e2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e3 = tensor.empty() : tensor<16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark @+1 {{attention not raised: the softmax normalizes over a different axis than the one P*V contracts}}
  %o = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%p, %v : tensor<16x16xf32>, tensor<16x8xf32>) outs(%z3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// -----

// Raised: the factor goes into a score_mod (captured, read per element).
// a constant) is not a scale.
// CHECK-LABEL: func.func @elementwise_scale
// CHECK: flash.attention
// CHECK-SAME: score_mod
func.func @elementwise_scale(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>,
                                      %v: tensor<20x8xf32>, %w: tensor<16x20xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x8xf32>, tensor<20x8xf32>) outs(%z0 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %e1 = tensor.empty() : tensor<16x20xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s, %w : tensor<16x20xf32>, tensor<16x20xf32>) outs(%e1 : tensor<16x20xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<16x20xf32>
  %e2 = tensor.empty() : tensor<16x20xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<16x20xf32>) outs(%e2 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %e3 = tensor.empty() : tensor<16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x20xf32>, tensor<20x8xf32>) outs(%z3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// -----

// Q K^T accumulated into a tensor (s = init + q k^T): the init is an
// additive mask.
// CHECK-LABEL: func.func @qk_accumulates_into_mask
// CHECK-SAME: %[[INIT:[a-z0-9]+]]: tensor<16x20xf32>
// CHECK: flash.attention {{.*}} mask(%[[INIT]] : tensor<16x20xf32>)
// EXEC: qk_accumulates_into_mask: raised=yes
func.func @qk_accumulates_into_mask(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>,
                                 %v: tensor<20x8xf32>, %init: tensor<16x20xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x8xf32>, tensor<20x8xf32>) outs(%init : tensor<16x20xf32>) -> tensor<16x20xf32>
  %e2 = tensor.empty() : tensor<16x20xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<16x20xf32>) outs(%e2 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %e3 = tensor.empty() : tensor<16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x20xf32>, tensor<20x8xf32>) outs(%z3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// -----

// torch-mlir's decomposed softmax: divide by sqrt(d), the two-result
// max+index generic with keepdim maps and a -FLT_MAX init, x - max, exp,
// keepdim sum, divide.
// CHECK-LABEL: func.func @torch_decomposed_softmax
// CHECK-NOT: linalg.generic
// CHECK: flash.attention
// CHECK-SAME: {scale = 0.35355{{[0-9]*}} : f32}
// EXEC: torch_decomposed_softmax: raised=yes
func.func @torch_decomposed_softmax(%q: tensor<4x16x8xf32>, %k: tensor<4x20x8xf32>,
                                    %v: tensor<4x20x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %c0i = arith.constant 0 : i64
  %et = tensor.empty() : tensor<4x8x20xf32>
  %kt = linalg.transpose ins(%k : tensor<4x20x8xf32>) outs(%et : tensor<4x8x20xf32>) permutation = [0, 2, 1]
  %e0 = tensor.empty() : tensor<4x16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x16x20xf32>) -> tensor<4x16x20xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xf32>, tensor<4x8x20xf32>) outs(%z0 : tensor<4x16x20xf32>) -> tensor<4x16x20xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x16x20xf32>) outs(%e0 : tensor<4x16x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 2.82842712 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x16x20xf32>
  %em = tensor.empty() : tensor<4x16x1xf32>
  %mi = linalg.fill ins(%lowest : f32) outs(%em : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %ei = tensor.empty() : tensor<4x16x1xi64>
  %ii = linalg.fill ins(%c0i : i64) outs(%ei : tensor<4x16x1xi64>) -> tensor<4x16x1xi64>
  %mx:2 = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, 0)>],
                          iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<4x16x20xf32>) outs(%mi, %ii : tensor<4x16x1xf32>, tensor<4x16x1xi64>) {
  ^bb0(%in: f32, %out: f32, %outi: i64):
    %j = linalg.index 2 : index
    %ji = arith.index_cast %j : index to i64
    %m = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ji, %outi : i64
    linalg.yield %m, %sel : f32, i64
  } -> (tensor<4x16x1xf32>, tensor<4x16x1xi64>)
  %sub = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc, %mx#0 : tensor<4x16x20xf32>, tensor<4x16x1xf32>) outs(%e0 : tensor<4x16x20xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %y = arith.subf %x, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x16x20xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sub : tensor<4x16x20xf32>) outs(%e0 : tensor<4x16x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x20xf32>
  %si = linalg.fill ins(%zero : f32) outs(%em : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%exp : tensor<4x16x20xf32>) outs(%si : tensor<4x16x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%exp, %sum : tensor<4x16x20xf32>, tensor<4x16x1xf32>) outs(%e0 : tensor<4x16x20xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<4x16x20xf32>
  %e3 = tensor.empty() : tensor<4x16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x20xf32>, tensor<4x20x8xf32>) outs(%z3 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}

// -----

// The program also returns the row log-sum-exp (max + log(sum), keepdim):
// it is served by flash.attention's lse result, not by the N x N scores.
// CHECK-LABEL: func.func @torch_decomposed_logsumexp
// CHECK-NOT: linalg.generic
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention {{.*}} lse(
// CHECK: %[[L:.*]] = tensor.expand_shape %[[LSE]] {{\[\[}}0], [1, 2]]
// CHECK: return %[[O]], %[[L]]
// EXEC: torch_decomposed_logsumexp: raised=yes
func.func @torch_decomposed_logsumexp(%q: tensor<4x16x8xf32>, %k: tensor<4x20x8xf32>,
                                      %v: tensor<4x20x8xf32>) -> (tensor<4x16x8xf32>, tensor<4x16x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %c0i = arith.constant 0 : i64
  %et = tensor.empty() : tensor<4x8x20xf32>
  %kt = linalg.transpose ins(%k : tensor<4x20x8xf32>) outs(%et : tensor<4x8x20xf32>) permutation = [0, 2, 1]
  %e0 = tensor.empty() : tensor<4x16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x16x20xf32>) -> tensor<4x16x20xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xf32>, tensor<4x8x20xf32>) outs(%z0 : tensor<4x16x20xf32>) -> tensor<4x16x20xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x16x20xf32>) outs(%e0 : tensor<4x16x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 2.82842712 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x16x20xf32>
  %em = tensor.empty() : tensor<4x16x1xf32>
  %mi = linalg.fill ins(%lowest : f32) outs(%em : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %ei = tensor.empty() : tensor<4x16x1xi64>
  %ii = linalg.fill ins(%c0i : i64) outs(%ei : tensor<4x16x1xi64>) -> tensor<4x16x1xi64>
  %mx:2 = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, 0)>],
                          iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<4x16x20xf32>) outs(%mi, %ii : tensor<4x16x1xf32>, tensor<4x16x1xi64>) {
  ^bb0(%in: f32, %out: f32, %outi: i64):
    %j = linalg.index 2 : index
    %ji = arith.index_cast %j : index to i64
    %m = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ji, %outi : i64
    linalg.yield %m, %sel : f32, i64
  } -> (tensor<4x16x1xf32>, tensor<4x16x1xi64>)
  %sub = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc, %mx#0 : tensor<4x16x20xf32>, tensor<4x16x1xf32>) outs(%e0 : tensor<4x16x20xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %y = arith.subf %x, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x16x20xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sub : tensor<4x16x20xf32>) outs(%e0 : tensor<4x16x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x20xf32>
  %si = linalg.fill ins(%zero : f32) outs(%em : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%exp : tensor<4x16x20xf32>) outs(%si : tensor<4x16x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%exp, %sum : tensor<4x16x20xf32>, tensor<4x16x1xf32>) outs(%e0 : tensor<4x16x20xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<4x16x20xf32>
  %e3 = tensor.empty() : tensor<4x16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x20xf32>, tensor<4x20x8xf32>) outs(%z3 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %lse = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mx#0, %sum : tensor<4x16x1xf32>, tensor<4x16x1xf32>) outs(%em : tensor<4x16x1xf32>) {
  ^bb0(%m: f32, %s1: f32, %o1: f32):
    %l = math.log %s1 : f32
    %y = arith.addf %m, %l : f32
    linalg.yield %y : f32
  } -> tensor<4x16x1xf32>
  return %o, %lse : tensor<4x16x8xf32>, tensor<4x16x1xf32>
}

// -----

// The row max is returned by itself: serving it would need the N x N
// scores, so nothing is raised.
// CHECK-LABEL: func.func @negative_row_max_escapes
// CHECK-NOT: flash.attention
func.func @negative_row_max_escapes(%q: tensor<4x16x8xf32>, %k: tensor<4x20x8xf32>,
                                    %v: tensor<4x20x8xf32>) -> (tensor<4x16x8xf32>, tensor<4x16x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %c0i = arith.constant 0 : i64
  %et = tensor.empty() : tensor<4x8x20xf32>
  %kt = linalg.transpose ins(%k : tensor<4x20x8xf32>) outs(%et : tensor<4x8x20xf32>) permutation = [0, 2, 1]
  %e0 = tensor.empty() : tensor<4x16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x16x20xf32>) -> tensor<4x16x20xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xf32>, tensor<4x8x20xf32>) outs(%z0 : tensor<4x16x20xf32>) -> tensor<4x16x20xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x16x20xf32>) outs(%e0 : tensor<4x16x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 2.82842712 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x16x20xf32>
  %em = tensor.empty() : tensor<4x16x1xf32>
  %mi = linalg.fill ins(%lowest : f32) outs(%em : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %ei = tensor.empty() : tensor<4x16x1xi64>
  %ii = linalg.fill ins(%c0i : i64) outs(%ei : tensor<4x16x1xi64>) -> tensor<4x16x1xi64>
  %mx:2 = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, 0)>],
                          iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<4x16x20xf32>) outs(%mi, %ii : tensor<4x16x1xf32>, tensor<4x16x1xi64>) {
  ^bb0(%in: f32, %out: f32, %outi: i64):
    %j = linalg.index 2 : index
    %ji = arith.index_cast %j : index to i64
    %m = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ji, %outi : i64
    linalg.yield %m, %sel : f32, i64
  } -> (tensor<4x16x1xf32>, tensor<4x16x1xi64>)
  %sub = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc, %mx#0 : tensor<4x16x20xf32>, tensor<4x16x1xf32>) outs(%e0 : tensor<4x16x20xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %y = arith.subf %x, %m : f32
    linalg.yield %y : f32
  } -> tensor<4x16x20xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sub : tensor<4x16x20xf32>) outs(%e0 : tensor<4x16x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x16x20xf32>
  %si = linalg.fill ins(%zero : f32) outs(%em : tensor<4x16x1xf32>) -> tensor<4x16x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%exp : tensor<4x16x20xf32>) outs(%si : tensor<4x16x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4x16x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%exp, %sum : tensor<4x16x20xf32>, tensor<4x16x1xf32>) outs(%e0 : tensor<4x16x20xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<4x16x20xf32>
  %e3 = tensor.empty() : tensor<4x16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  // expected-remark @+1 {{attention not raised: an intermediate of the attention ('linalg.generic') has a use outside it ('func.return')}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x20xf32>, tensor<4x20x8xf32>) outs(%z3 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o, %mx#0 : tensor<4x16x8xf32>, tensor<4x16x1xf32>
}

// -----

// Unstabilized softmax (no max subtraction: raising makes it safe), sum
// without keepdim, reciprocal then multiply; the scale folded into Q.
// CHECK-LABEL: func.func @unstabilized_reciprocal_scaled_q
// CHECK-SAME: (%[[Q:[a-z0-9]+]]: tensor<16x8xf32>
// CHECK-NOT: math.exp
// CHECK: flash.attention ins(%[[Q]], {{.*}}{scale = 0.35355{{[0-9]*}} : f32}
// EXEC: unstabilized_reciprocal_scaled_q: raised=yes
func.func @unstabilized_reciprocal_scaled_q(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>,
                                            %v: tensor<20x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %eq = tensor.empty() : tensor<16x8xf32>
  %qs = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<16x8xf32>) outs(%eq : tensor<16x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<16x8xf32>
  %e0 = tensor.empty() : tensor<16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%qs, %k : tensor<16x8xf32>, tensor<20x8xf32>) outs(%z0 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x20xf32>) outs(%e0 : tensor<16x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %es = tensor.empty() : tensor<16xf32>
  %si = linalg.fill ins(%zero : f32) outs(%es : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<16x20xf32>) outs(%si : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %acc, %x : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %rec = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                         iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%es : tensor<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %y = arith.divf %one, %x : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%exp, %rec : tensor<16x20xf32>, tensor<16xf32>) outs(%e0 : tensor<16x20xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %y = arith.mulf %x, %r : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %e3 = tensor.empty() : tensor<16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x20xf32>, tensor<20x8xf32>) outs(%z3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// -----

// Unstabilized, with log(sum) returned: the lse result serves it.
// CHECK-LABEL: func.func @unstabilized_logsumexp
// CHECK-NOT: math.exp
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention {{.*}} lse(
// CHECK: return %[[O]], %[[LSE]]
// EXEC: unstabilized_logsumexp: raised=yes
func.func @unstabilized_logsumexp(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>,
                                  %v: tensor<20x8xf32>) -> (tensor<16x8xf32>, tensor<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %eq = tensor.empty() : tensor<16x8xf32>
  %qs = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<16x8xf32>) outs(%eq : tensor<16x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<16x8xf32>
  %e0 = tensor.empty() : tensor<16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%qs, %k : tensor<16x8xf32>, tensor<20x8xf32>) outs(%z0 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x20xf32>) outs(%e0 : tensor<16x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %es = tensor.empty() : tensor<16xf32>
  %si = linalg.fill ins(%zero : f32) outs(%es : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<16x20xf32>) outs(%si : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %acc, %x : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %rec = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                         iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%es : tensor<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %y = arith.divf %one, %x : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%exp, %rec : tensor<16x20xf32>, tensor<16xf32>) outs(%e0 : tensor<16x20xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %y = arith.mulf %x, %r : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %e3 = tensor.empty() : tensor<16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x20xf32>, tensor<20x8xf32>) outs(%z3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %lse = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                         iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%es : tensor<16xf32>) {
  ^bb0(%x: f32, %o1: f32):
    %y = math.log %x : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  return %o, %lse : tensor<16x8xf32>, tensor<16xf32>
}

// -----

// A causal mask built from linalg.index compares (masked_fill of the upper
// triangle with -inf, top-left aligned: causal_offset = 0) and a scale in
// the same generic, followed by linalg.softmax.
// CHECK-LABEL: func.func @causal_index_compare
// CHECK: flash.attention
// CHECK-SAME: {causal, causal_offset = 0 : i64, scale = 1.250000e-01 : f32}
// EXEC: causal_index_compare: raised=yes
func.func @causal_index_compare(%q: tensor<2x24x64xf32>, %k: tensor<2x30x64xf32>,
                                %v: tensor<2x30x16xf32>) -> tensor<2x24x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x24x30xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x24x30xf32>) -> tensor<2x24x30xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x24x64xf32>, tensor<2x30x64xf32>) outs(%z0 : tensor<2x24x30xf32>) -> tensor<2x24x30xf32>
  %masked = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x24x30xf32>) outs(%e0 : tensor<2x24x30xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %above = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %above, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x24x30xf32>
  %p = linalg.softmax dimension(2) ins(%masked : tensor<2x24x30xf32>) outs(%e0 : tensor<2x24x30xf32>) -> tensor<2x24x30xf32>
  %e3 = tensor.empty() : tensor<2x24x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x24x16xf32>) -> tensor<2x24x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x24x30xf32>, tensor<2x30x16xf32>) outs(%z3 : tensor<2x24x16xf32>) -> tensor<2x24x16xf32>
  return %o : tensor<2x24x16xf32>
}

// -----

// An additive mask [Nq, Nk] broadcast over the batch (the map skips the
// batch dim), added after the scale.
// CHECK-LABEL: func.func @additive_mask
// CHECK-SAME: %[[M:[a-z0-9]+]]: tensor<16x20xf32>
// CHECK: flash.attention ins({{.*}}) mask(%[[M]] : tensor<16x20xf32>)
// EXEC: additive_mask: raised=yes
func.func @additive_mask(%q: tensor<3x16x8xf32>, %k: tensor<3x20x8xf32>,
                         %v: tensor<3x20x8xf32>, %m: tensor<16x20xf32>) -> tensor<3x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<3x16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x16x20xf32>) -> tensor<3x16x20xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<3x16x8xf32>, tensor<3x20x8xf32>) outs(%z0 : tensor<3x16x20xf32>) -> tensor<3x16x20xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<3x16x20xf32>, tensor<16x20xf32>) outs(%e0 : tensor<3x16x20xf32>) {
  ^bb0(%x: f32, %mk: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    %r = arith.addf %y, %mk : f32
    linalg.yield %r : f32
  } -> tensor<3x16x20xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<3x16x20xf32>) outs(%e0 : tensor<3x16x20xf32>) -> tensor<3x16x20xf32>
  %e3 = tensor.empty() : tensor<3x16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x16x8xf32>) -> tensor<3x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<3x16x20xf32>, tensor<3x20x8xf32>) outs(%z3 : tensor<3x16x8xf32>) -> tensor<3x16x8xf32>
  return %o : tensor<3x16x8xf32>
}

// -----

// An i1 keep-mask [B, 1, Nk] (a padding mask read with a keepdim map): a
// unit dim is inserted for the heads.
// CHECK-LABEL: func.func @keep_mask
// CHECK: %[[KM:.*]] = tensor.expand_shape
// CHECK: flash.attention ins({{.*}}) mask(%[[KM]] : tensor<2x1x1x20xi1>)
// EXEC: keep_mask: raised=yes
func.func @keep_mask(%q: tensor<2x3x16x8xf32>, %k: tensor<2x3x20x8xf32>,
                     %v: tensor<2x3x20x8xf32>, %keep: tensor<2x1x20xi1>) -> tensor<2x3x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x3x16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x3x16x20xf32>) -> tensor<2x3x16x20xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(a, b, m, n, k) -> (a, b, m, k)>,
                                        affine_map<(a, b, m, n, k) -> (a, b, n, k)>,
                                        affine_map<(a, b, m, n, k) -> (a, b, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x3x16x8xf32>, tensor<2x3x20x8xf32>) outs(%z0 : tensor<2x3x16x20xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x16x20xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(a, h, i, j) -> (a, h, i, j)>, affine_map<(a, h, i, j) -> (a, 0, j)>, affine_map<(a, h, i, j) -> (a, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %keep : tensor<2x3x16x20xf32>, tensor<2x1x20xi1>) outs(%e0 : tensor<2x3x16x20xf32>) {
  ^bb0(%x: f32, %kp: i1, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.select %kp, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x3x16x20xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x3x16x20xf32>) outs(%e0 : tensor<2x3x16x20xf32>) -> tensor<2x3x16x20xf32>
  %e3 = tensor.empty() : tensor<2x3x16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x3x16x8xf32>) -> tensor<2x3x16x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(a, b, m, n, k) -> (a, b, m, k)>,
                                        affine_map<(a, b, m, n, k) -> (a, b, k, n)>,
                                        affine_map<(a, b, m, n, k) -> (a, b, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x3x16x20xf32>, tensor<2x3x20x8xf32>) outs(%z3 : tensor<2x3x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x16x8xf32>
  return %o : tensor<2x3x16x8xf32>
}

// -----

// f16 inputs with f32 accumulation (extf in the contraction bodies), P
// truncated to f16 before P*V, the output f32: attention in f32 on
// extended inputs.
// CHECK-LABEL: func.func @f16_mixed_precision
// CHECK: flash.attention ins({{.*}} : tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>)
// EXEC: f16_mixed_precision: raised=yes
func.func @f16_mixed_precision(%q: tensor<16x8xf16>, %k: tensor<20x8xf16>,
                               %v: tensor<20x8xf16>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<16x8xf16>, tensor<20x8xf16>) outs(%z0 : tensor<16x20xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %af = arith.extf %a : f16 to f32
    %bf = arith.extf %b : f16 to f32
    %m = arith.mulf %af, %bf : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<16x20xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<16x20xf32>) outs(%e0 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %eh = tensor.empty() : tensor<16x20xf16>
  %ph = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<16x20xf32>) outs(%eh : tensor<16x20xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<16x20xf16>
  %e3 = tensor.empty() : tensor<16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ph, %v : tensor<16x20xf16>, tensor<20x8xf16>) outs(%z3 : tensor<16x8xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %af = arith.extf %a : f16 to f32
    %bf = arith.extf %b : f16 to f32
    %m = arith.mulf %af, %bf : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// -----

// GQA written by repeating the K/V heads (linalg.broadcast + collapse_shape,
// as repeat_interleave lowers): raised on the unrepeated K/V.
// CHECK-LABEL: func.func @gqa_repeated_heads
// CHECK-SAME: %[[K:[a-z0-9]+]]: tensor<2x2x20x8xf32>, %[[V:[a-z0-9]+]]: tensor<2x2x20x8xf32>
// CHECK: flash.attention ins(%{{.*}}, %[[K]], %[[V]] : tensor<2x4x16x8xf32>, tensor<2x2x20x8xf32>, tensor<2x2x20x8xf32>)
// EXEC: gqa_repeated_heads: raised=yes
func.func @gqa_repeated_heads(%q: tensor<2x4x16x8xf32>, %k: tensor<2x2x20x8xf32>,
                              %v: tensor<2x2x20x8xf32>) -> tensor<2x4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %eb = tensor.empty() : tensor<2x2x2x20x8xf32>
  %kb = linalg.broadcast ins(%k : tensor<2x2x20x8xf32>) outs(%eb : tensor<2x2x2x20x8xf32>) dimensions = [2]
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<2x2x2x20x8xf32> into tensor<2x4x20x8xf32>
  %vb = linalg.broadcast ins(%v : tensor<2x2x20x8xf32>) outs(%eb : tensor<2x2x2x20x8xf32>) dimensions = [2]
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<2x2x2x20x8xf32> into tensor<2x4x20x8xf32>
  %e0 = tensor.empty() : tensor<2x4x16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x16x20xf32>) -> tensor<2x4x16x20xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(a, b, m, n, k) -> (a, b, m, k)>,
                                        affine_map<(a, b, m, n, k) -> (a, b, n, k)>,
                                        affine_map<(a, b, m, n, k) -> (a, b, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x4x16x8xf32>, tensor<2x4x20x8xf32>) outs(%z0 : tensor<2x4x16x20xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x20xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x4x16x20xf32>) outs(%e0 : tensor<2x4x16x20xf32>) -> tensor<2x4x16x20xf32>
  %e3 = tensor.empty() : tensor<2x4x16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(a, b, m, n, k) -> (a, b, m, k)>,
                                        affine_map<(a, b, m, n, k) -> (a, b, k, n)>,
                                        affine_map<(a, b, m, n, k) -> (a, b, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vr : tensor<2x4x16x20xf32>, tensor<2x4x20x8xf32>) outs(%z3 : tensor<2x4x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x8xf32>
  return %o : tensor<2x4x16x8xf32>
}

// -----

// Near miss: a mask that depends on the scores (select(s > 0, s, -inf)).
// CHECK-LABEL: func.func @negative_mask_depends_on_scores
// CHECK-NOT: flash.attention
func.func @negative_mask_depends_on_scores(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>,
                                           %v: tensor<20x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x8xf32>, tensor<20x8xf32>) outs(%z0 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x20xf32>) outs(%e0 : tensor<16x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %pos = arith.cmpf ogt, %x, %zero : f32
    %r = arith.select %pos, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<16x20xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<16x20xf32>) outs(%e0 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %e3 = tensor.empty() : tensor<16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-remark @+1 {{attention not raised: the mask depends on the scores}}
  %o = linalg.matmul ins(%p, %v : tensor<16x20xf32>, tensor<20x8xf32>) outs(%z3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// -----

// torch-mlir's bmm around 4-D attention: [B, H, N, D] collapsed to
// [B*H, N, D] for the products and expanded back: the reshapes fold into
// the model's index expressions, so the raise reads the 4-D tensors.
// CHECK-LABEL: func.func @collapse_expand_bmm
// CHECK-SAME: (%[[Q:[a-z0-9]+]]: tensor<2x3x16x8xf32>, %[[K:[a-z0-9]+]]: tensor<2x3x20x8xf32>, %[[V:[a-z0-9]+]]: tensor<2x3x20x8xf32>)
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[O:.*]] = flash.attention ins(%[[Q]], %[[K]], %[[V]] : tensor<2x3x16x8xf32>, tensor<2x3x20x8xf32>, tensor<2x3x20x8xf32>)
// CHECK: return %[[O]]
// EXEC: collapse_expand_bmm: raised=yes
func.func @collapse_expand_bmm(%q: tensor<2x3x16x8xf32>, %k: tensor<2x3x20x8xf32>,
                               %v: tensor<2x3x20x8xf32>) -> tensor<2x3x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x3x16x8xf32> into tensor<6x16x8xf32>
  %kc = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x3x20x8xf32> into tensor<6x20x8xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x3x20x8xf32> into tensor<6x20x8xf32>
  %et = tensor.empty() : tensor<6x8x20xf32>
  %kt = linalg.transpose ins(%kc : tensor<6x20x8xf32>) outs(%et : tensor<6x8x20xf32>) permutation = [0, 2, 1]
  %e0 = tensor.empty() : tensor<6x16x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<6x16x20xf32>) -> tensor<6x16x20xf32>
  %s = linalg.batch_matmul ins(%qc, %kt : tensor<6x16x8xf32>, tensor<6x8x20xf32>) outs(%z0 : tensor<6x16x20xf32>) -> tensor<6x16x20xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<6x16x20xf32>) outs(%e0 : tensor<6x16x20xf32>) -> tensor<6x16x20xf32>
  %e3 = tensor.empty() : tensor<6x16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<6x16x8xf32>) -> tensor<6x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %vc : tensor<6x16x20xf32>, tensor<6x20x8xf32>) outs(%z3 : tensor<6x16x8xf32>) -> tensor<6x16x8xf32>
  %oe = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 3, 16, 8] : tensor<6x16x8xf32> into tensor<2x3x16x8xf32>
  return %oe : tensor<2x3x16x8xf32>
}
