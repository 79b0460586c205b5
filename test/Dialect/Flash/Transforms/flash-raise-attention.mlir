// Every near miss (@negative_*) is left alone with a remark naming why.
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics | FileCheck %s

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
  // expected-remark @+1 {{attention not raised: softmax is over axis 0, not the key axis (1)}}
  %p = linalg.softmax dimension(0) ins(%s : tensor<16x20xf32>) outs(%e2 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %e3 = tensor.empty() : tensor<16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8xf32>) -> tensor<16x8xf32>
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
  // expected-remark @+1 {{attention not raised: the probabilities have other uses than the P*V product}}
  %p = linalg.softmax dimension(1) ins(%s : tensor<16x20xf32>) outs(%e2 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %e3 = tensor.empty() : tensor<16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8xf32>) -> tensor<16x8xf32>
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
  // expected-remark @+1 {{attention not raised: P*V does not index its operands as [batch..., rows, reduction] and [batch..., rows, cols]}}
  %p = linalg.softmax dimension(1) ins(%s : tensor<16x16xf32>) outs(%e2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e3 = tensor.empty() : tensor<16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%p, %v : tensor<16x16xf32>, tensor<16x8xf32>) outs(%z3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// -----

// Near miss: a "scale" that varies per element (an added tensor that is not
// a constant) is not a scale.
// CHECK-LABEL: func.func @negative_elementwise_scale
// CHECK-NOT: flash.attention
func.func @negative_elementwise_scale(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>,
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
  // expected-remark @+1 {{attention not raised: the input of Q*K^T is not a linalg contraction}}
  %p = linalg.softmax dimension(1) ins(%sc : tensor<16x20xf32>) outs(%e2 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %e3 = tensor.empty() : tensor<16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x20xf32>, tensor<20x8xf32>) outs(%z3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// -----

// Near miss: Q K^T accumulates into a non-zero init (s = init + q k^T).
// CHECK-LABEL: func.func @negative_nonzero_init
// CHECK-NOT: flash.attention
func.func @negative_nonzero_init(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>,
                                 %v: tensor<20x8xf32>, %init: tensor<16x20xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x8xf32>, tensor<20x8xf32>) outs(%init : tensor<16x20xf32>) -> tensor<16x20xf32>
  %e2 = tensor.empty() : tensor<16x20xf32>
  // expected-remark @+1 {{attention not raised: Q*K^T does not accumulate into a zero-filled tensor}}
  %p = linalg.softmax dimension(1) ins(%s : tensor<16x20xf32>) outs(%e2 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %e3 = tensor.empty() : tensor<16x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x20xf32>, tensor<20x8xf32>) outs(%z3 : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}
