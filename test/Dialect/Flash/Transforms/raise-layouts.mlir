// Held-out spellings of attention: tensor layouts ([N,D], [B,N,D],
// [B,H,N,D], [B,N,H,D], [N,B,D], two batch dims) and the many ways of
// writing Q*K^T and P*V (named ops with and without indexing_maps, K^T as
// an argument, generics with the transpose in their maps and unusual loop
// orders).
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// [N,D]: linalg.matmul with matmul_transpose_b maps for Q*K^T, scale by a
// multiply in its own generic, linalg.softmax, plain linalg.matmul for P*V.
// CHECK-LABEL: func.func @nd_matmul_transpose_b_maps
// CHECK: flash.attention
// EXEC: nd_matmul_transpose_b_maps: raised=yes
func.func @nd_matmul_transpose_b_maps(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
                                      %v: tensor<45x20xf32>) -> tensor<37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<37x24xf32>, tensor<45x24xf32>)
      outs(%z0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %e2 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<37x45xf32>) outs(%e2 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x20xf32>) outs(%z3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  return %o : tensor<37x20xf32>
}

// -----

// [N,D]: K transposed by linalg.transpose, then a plain linalg.matmul; the
// scale divides by sqrt(24); P*V is a linalg.generic contraction.
// CHECK-LABEL: func.func @nd_linalg_transpose_k
// CHECK: flash.attention
// EXEC: nd_linalg_transpose_k: raised=yes
func.func @nd_linalg_transpose_k(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
                                 %v: tensor<45x20xf32>) -> tensor<37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<24x45xf32>
  %kt = linalg.transpose ins(%k : tensor<45x24xf32>) outs(%et : tensor<24x45xf32>) permutation = [1, 0]
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<37x24xf32>, tensor<24x45xf32>) outs(%z0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 4.8989797 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                        affine_map<(m, n, k) -> (k, n)>,
                                        affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<37x45xf32>, tensor<45x20xf32>) outs(%z3 : tensor<37x20xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x20xf32>
  return %o : tensor<37x20xf32>
}

// -----

// [N,D] with K^T given as a [D, Nk] function argument, plain linalg.matmul
// for Q*K^T, no scale (scale 1), P*V a linalg.matmul with its default maps
// spelled out.
// CHECK-LABEL: func.func @nd_kt_argument
// CHECK: flash.attention
// EXEC: nd_kt_argument: raised=yes
func.func @nd_kt_argument(%q: tensor<37x24xf32>, %kt: tensor<24x45xf32>,
                          %v: tensor<45x20xf32>) -> tensor<37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<37x24xf32>, tensor<24x45xf32>) outs(%z0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  %o = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (k, n)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%p, %v : tensor<37x45xf32>, tensor<45x20xf32>)
      outs(%z3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  return %o : tensor<37x20xf32>
}

// -----

// [B,N,D]: linalg.batch_matmul with transposing indexing_maps for Q*K^T and
// with its default maps written out for P*V.
// CHECK-LABEL: func.func @bnd_batch_matmul_maps
// CHECK: flash.attention
// EXEC: bnd_batch_matmul_maps: raised=yes
func.func @bnd_batch_matmul_maps(%q: tensor<3x37x24xf32>, %k: tensor<3x45x24xf32>,
                                 %v: tensor<3x45x20xf32>) -> tensor<3x37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<3x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x37x45xf32>) -> tensor<3x37x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<3x37x24xf32>, tensor<3x45x24xf32>)
      outs(%z0 : tensor<3x37x45xf32>) -> tensor<3x37x45xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x37x45xf32>) outs(%e0 : tensor<3x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %c, %x : f32
    linalg.yield %y : f32
  } -> tensor<3x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<3x37x45xf32>) outs(%e0 : tensor<3x37x45xf32>) -> tensor<3x37x45xf32>
  %e3 = tensor.empty() : tensor<3x37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x37x20xf32>) -> tensor<3x37x20xf32>
  %o = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, k, n)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%p, %v : tensor<3x37x45xf32>, tensor<3x45x20xf32>)
      outs(%z3 : tensor<3x37x20xf32>) -> tensor<3x37x20xf32>
  return %o : tensor<3x37x20xf32>
}

// -----

// [B,N,D] with K^T given as a [B, D, Nk] argument: plain batch_matmul for
// both products.
// CHECK-LABEL: func.func @bnd_kt_argument_batch_matmul
// CHECK: flash.attention
// EXEC: bnd_kt_argument_batch_matmul: raised=yes
func.func @bnd_kt_argument_batch_matmul(%q: tensor<3x37x24xf32>, %kt: tensor<3x24x45xf32>,
                                        %v: tensor<3x45x20xf32>) -> tensor<3x37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<3x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x37x45xf32>) -> tensor<3x37x45xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<3x37x24xf32>, tensor<3x24x45xf32>) outs(%z0 : tensor<3x37x45xf32>) -> tensor<3x37x45xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x37x45xf32>) outs(%e0 : tensor<3x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 4.8989797 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<3x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<3x37x45xf32>) outs(%e0 : tensor<3x37x45xf32>) -> tensor<3x37x45xf32>
  %e3 = tensor.empty() : tensor<3x37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x37x20xf32>) -> tensor<3x37x20xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<3x37x45xf32>, tensor<3x45x20xf32>) outs(%z3 : tensor<3x37x20xf32>) -> tensor<3x37x20xf32>
  return %o : tensor<3x37x20xf32>
}

// -----

// [B,H,N,D]: both products as torch-mlir-style linalg.generic contractions
// (the K transpose in the first one's maps).
// CHECK-LABEL: func.func @bhnd_generic_contractions
// CHECK: flash.attention
// EXEC: bhnd_generic_contractions: raised=yes
func.func @bhnd_generic_contractions(%q: tensor<2x3x37x24xf32>, %k: tensor<2x3x45x24xf32>,
                                     %v: tensor<2x3x45x20xf32>) -> tensor<2x3x37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x3x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x3x37x45xf32>) -> tensor<2x3x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x3x37x24xf32>, tensor<2x3x45x24xf32>) outs(%z0 : tensor<2x3x37x45xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x37x45xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x3x37x45xf32>) outs(%e0 : tensor<2x3x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x3x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x3x37x45xf32>) outs(%e0 : tensor<2x3x37x45xf32>) -> tensor<2x3x37x45xf32>
  %e3 = tensor.empty() : tensor<2x3x37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x3x37x20xf32>) -> tensor<2x3x37x20xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x3x37x45xf32>, tensor<2x3x45x20xf32>) outs(%z3 : tensor<2x3x37x20xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x37x20xf32>
  return %o : tensor<2x3x37x20xf32>
}

// -----

// [N,D] contractions with unusual loop orders: Q*K^T iterates (d, i, j)
// with the reduction first, P*V iterates (e, j, i); the Q*K^T body
// multiplies k * q and adds the accumulator last.
// CHECK-LABEL: func.func @nd_generic_loop_order_dij
// CHECK: flash.attention
// EXEC: nd_generic_loop_order_dij: raised=yes
func.func @nd_generic_loop_order_dij(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
                                     %v: tensor<45x20xf32>) -> tensor<37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d, i, j) -> (i, d)>,
                                        affine_map<(d, i, j) -> (j, d)>,
                                        affine_map<(d, i, j) -> (i, j)>],
                       iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%q, %k : tensor<37x24xf32>, tensor<45x24xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %b, %a : f32
    %r = arith.addf %m, %c : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(e, j, i) -> (i, j)>,
                                        affine_map<(e, j, i) -> (j, e)>,
                                        affine_map<(e, j, i) -> (i, e)>],
                       iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%p, %v : tensor<37x45xf32>, tensor<45x20xf32>) outs(%z3 : tensor<37x20xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x20xf32>
  return %o : tensor<37x20xf32>
}

// -----

// [B,N,D] contractions with loops (j, b, i, d) for Q*K^T and (b, j, e, i)
// for P*V.
// CHECK-LABEL: func.func @bnd_generic_loop_order_jbid
// CHECK: flash.attention
// EXEC: bnd_generic_loop_order_jbid: raised=yes
func.func @bnd_generic_loop_order_jbid(%q: tensor<3x37x24xf32>, %k: tensor<3x45x24xf32>,
                                       %v: tensor<3x45x20xf32>) -> tensor<3x37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<3x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x37x45xf32>) -> tensor<3x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(j, b, i, d) -> (b, i, d)>,
                                        affine_map<(j, b, i, d) -> (b, j, d)>,
                                        affine_map<(j, b, i, d) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<3x37x24xf32>, tensor<3x45x24xf32>) outs(%z0 : tensor<3x37x45xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<3x37x45xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x37x45xf32>) outs(%e0 : tensor<3x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 4.8989797 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<3x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<3x37x45xf32>) outs(%e0 : tensor<3x37x45xf32>) -> tensor<3x37x45xf32>
  %e3 = tensor.empty() : tensor<3x37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x37x20xf32>) -> tensor<3x37x20xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, j, e, i) -> (b, i, j)>,
                                        affine_map<(b, j, e, i) -> (b, j, e)>,
                                        affine_map<(b, j, e, i) -> (b, i, e)>],
                       iterator_types = ["parallel", "reduction", "parallel", "parallel"]}
      ins(%p, %v : tensor<3x37x45xf32>, tensor<3x45x20xf32>) outs(%z3 : tensor<3x37x20xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<3x37x20xf32>
  return %o : tensor<3x37x20xf32>
}

// -----

// Hugging Face [B,N,H,D] as torch-mlir lowers it: q/k/v permuted to
// [B,H,N,D] with linalg.transpose, K transposed again for K^T, heads
// collapsed into the batch around linalg.batch_matmul and the scores
// expanded back to 4-D, scaled by / sqrt(d), linalg.softmax on the last dim,
// the output expanded and transposed back to [B,N,H,Dv].
// CHECK-LABEL: func.func @bnhd_hf_transpose_collapse_bmm
// CHECK: flash.attention
// EXEC: bnhd_hf_transpose_collapse_bmm: raised=yes
func.func @bnhd_hf_transpose_collapse_bmm(%q: tensor<2x37x3x24xf32>, %k: tensor<2x45x3x24xf32>,
                                          %v: tensor<2x45x3x20xf32>) -> tensor<2x37x3x20xf32> {
  %zero = arith.constant 0.0 : f32
  %eq = tensor.empty() : tensor<2x3x37x24xf32>
  %qt = linalg.transpose ins(%q : tensor<2x37x3x24xf32>) outs(%eq : tensor<2x3x37x24xf32>) permutation = [0, 2, 1, 3]
  %ek = tensor.empty() : tensor<2x3x45x24xf32>
  %kh = linalg.transpose ins(%k : tensor<2x45x3x24xf32>) outs(%ek : tensor<2x3x45x24xf32>) permutation = [0, 2, 1, 3]
  %ekt = tensor.empty() : tensor<2x3x24x45xf32>
  %kt = linalg.transpose ins(%kh : tensor<2x3x45x24xf32>) outs(%ekt : tensor<2x3x24x45xf32>) permutation = [0, 1, 3, 2]
  %ev = tensor.empty() : tensor<2x3x45x20xf32>
  %vt = linalg.transpose ins(%v : tensor<2x45x3x20xf32>) outs(%ev : tensor<2x3x45x20xf32>) permutation = [0, 2, 1, 3]
  %qc = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x3x37x24xf32> into tensor<6x37x24xf32>
  %kc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x3x24x45xf32> into tensor<6x24x45xf32>
  %vc = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x3x45x20xf32> into tensor<6x45x20xf32>
  %e0 = tensor.empty() : tensor<6x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<6x37x45xf32>) -> tensor<6x37x45xf32>
  %s = linalg.batch_matmul ins(%qc, %kc : tensor<6x37x24xf32>, tensor<6x24x45xf32>) outs(%z0 : tensor<6x37x45xf32>) -> tensor<6x37x45xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 3, 37, 45] : tensor<6x37x45xf32> into tensor<2x3x37x45xf32>
  %e4 = tensor.empty() : tensor<2x3x37x45xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s4 : tensor<2x3x37x45xf32>) outs(%e4 : tensor<2x3x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 4.8989797 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x3x37x45xf32>
  %p4 = linalg.softmax dimension(3) ins(%sc : tensor<2x3x37x45xf32>) outs(%e4 : tensor<2x3x37x45xf32>) -> tensor<2x3x37x45xf32>
  %pc = tensor.collapse_shape %p4 [[0, 1], [2], [3]] : tensor<2x3x37x45xf32> into tensor<6x37x45xf32>
  %e3 = tensor.empty() : tensor<6x37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<6x37x20xf32>) -> tensor<6x37x20xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<6x37x45xf32>, tensor<6x45x20xf32>) outs(%z3 : tensor<6x37x20xf32>) -> tensor<6x37x20xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 3, 37, 20] : tensor<6x37x20xf32> into tensor<2x3x37x20xf32>
  %eo = tensor.empty() : tensor<2x37x3x20xf32>
  %ot = linalg.transpose ins(%o4 : tensor<2x3x37x20xf32>) outs(%eo : tensor<2x37x3x20xf32>) permutation = [0, 2, 1, 3]
  return %ot : tensor<2x37x3x20xf32>
}

// -----

// [B,N,H,D] read directly by the contraction maps (no transposes): the
// scores are [B,H,Nq,Nk] and P*V writes the output as [B,Nq,H,Dv].
// CHECK-LABEL: func.func @bnhd_generic_direct_maps
// CHECK: flash.attention
// EXEC: bnhd_generic_direct_maps: raised=yes
func.func @bnhd_generic_direct_maps(%q: tensor<2x37x3x24xf32>, %k: tensor<2x45x3x24xf32>,
                                    %v: tensor<2x45x3x20xf32>) -> tensor<2x37x3x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x3x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x3x37x45xf32>) -> tensor<2x3x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, j, h, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x37x3x24xf32>, tensor<2x45x3x24xf32>) outs(%z0 : tensor<2x3x37x45xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x37x45xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x3x37x45xf32>) outs(%e0 : tensor<2x3x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x3x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x3x37x45xf32>) outs(%e0 : tensor<2x3x37x45xf32>) -> tensor<2x3x37x45xf32>
  %e3 = tensor.empty() : tensor<2x37x3x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x37x3x20xf32>) -> tensor<2x37x3x20xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, j, h, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, i, h, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x3x37x45xf32>, tensor<2x45x3x20xf32>) outs(%z3 : tensor<2x37x3x20xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x37x3x20xf32>
  return %o : tensor<2x37x3x20xf32>
}

// -----

// Sequence-first [N,B,D] (nn.MultiheadAttention without batch_first): the
// contraction maps read q/k/v as (seq, batch, d) and P*V writes [Nq,B,Dv].
// CHECK-LABEL: func.func @nbd_sequence_first
// CHECK: flash.attention
// EXEC: nbd_sequence_first: raised=yes
func.func @nbd_sequence_first(%q: tensor<37x3x24xf32>, %k: tensor<45x3x24xf32>,
                              %v: tensor<45x3x20xf32>) -> tensor<37x3x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<3x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x37x45xf32>) -> tensor<3x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, i, j, d) -> (i, b, d)>,
                                        affine_map<(b, i, j, d) -> (j, b, d)>,
                                        affine_map<(b, i, j, d) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x3x24xf32>, tensor<45x3x24xf32>) outs(%z0 : tensor<3x37x45xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<3x37x45xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x37x45xf32>) outs(%e0 : tensor<3x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<3x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<3x37x45xf32>) outs(%e0 : tensor<3x37x45xf32>) -> tensor<3x37x45xf32>
  %e3 = tensor.empty() : tensor<37x3x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x3x20xf32>) -> tensor<37x3x20xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, i, e, j) -> (b, i, j)>,
                                        affine_map<(b, i, e, j) -> (j, b, e)>,
                                        affine_map<(b, i, e, j) -> (i, b, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<3x37x45xf32>, tensor<45x3x20xf32>) outs(%z3 : tensor<37x3x20xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x3x20xf32>
  return %o : tensor<37x3x20xf32>
}

// -----

// Two batch dims with K^T given as a [A, B, D, Nk] argument; Q*K^T iterates
// (a, i, b, j, d), interleaving a batch dim after the query dim.
// CHECK-LABEL: func.func @two_batch_kt_argument_interleaved_loops
// CHECK: flash.attention
// EXEC: two_batch_kt_argument_interleaved_loops: raised=yes
func.func @two_batch_kt_argument_interleaved_loops(%q: tensor<2x3x37x24xf32>, %kt: tensor<2x3x24x45xf32>,
                                                   %v: tensor<2x3x45x20xf32>) -> tensor<2x3x37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x3x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x3x37x45xf32>) -> tensor<2x3x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(a, i, b, j, d) -> (a, b, i, d)>,
                                        affine_map<(a, i, b, j, d) -> (a, b, d, j)>,
                                        affine_map<(a, i, b, j, d) -> (a, b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kt : tensor<2x3x37x24xf32>, tensor<2x3x24x45xf32>) outs(%z0 : tensor<2x3x37x45xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x37x45xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(a, b, i, j) -> (a, b, i, j)>, affine_map<(a, b, i, j) -> (a, b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x3x37x45xf32>) outs(%e0 : tensor<2x3x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 4.8989797 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x3x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x3x37x45xf32>) outs(%e0 : tensor<2x3x37x45xf32>) -> tensor<2x3x37x45xf32>
  %e3 = tensor.empty() : tensor<2x3x37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x3x37x20xf32>) -> tensor<2x3x37x20xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(a, b, i, e, j) -> (a, b, i, j)>,
                                        affine_map<(a, b, i, e, j) -> (a, b, j, e)>,
                                        affine_map<(a, b, i, e, j) -> (a, b, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x3x37x45xf32>, tensor<2x3x45x20xf32>) outs(%z3 : tensor<2x3x37x20xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x37x20xf32>
  return %o : tensor<2x3x37x20xf32>
}

// -----

// V given transposed as a [Dv, Nk] argument, read by a matmul_transpose_b
// map in P*V (o = P * (V^T)^T).
// CHECK-LABEL: func.func @nd_v_transposed_argument
// CHECK: flash.attention
// EXEC: nd_v_transposed_argument: raised=yes
func.func @nd_v_transposed_argument(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
                                    %vt: tensor<20x45xf32>) -> tensor<37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<37x24xf32>, tensor<45x24xf32>)
      outs(%z0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  %o = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%p, %vt : tensor<37x45xf32>, tensor<20x45xf32>)
      outs(%z3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  return %o : tensor<37x20xf32>
}

// -----

// f16 [N,D] with mixed-precision named ops: linalg.matmul (transpose_b
// maps) on f16 operands into an f32 accumulator, softmax in f32, P
// truncated to f16, P*V f16 x f16 -> f32, the output truncated to f16.
// CHECK-LABEL: func.func @nd_f16_mixed_matmul_transpose_b
// CHECK: flash.attention
// EXEC: nd_f16_mixed_matmul_transpose_b: raised=yes
func.func @nd_f16_mixed_matmul_transpose_b(%q: tensor<37x24xf16>, %k: tensor<45x24xf16>,
                                           %v: tensor<45x20xf16>) -> tensor<37x20xf16> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<37x24xf16>, tensor<45x24xf16>)
      outs(%z0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %eh = tensor.empty() : tensor<37x45xf16>
  %ph = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<37x45xf32>) outs(%eh : tensor<37x45xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<37x45xf16>
  %e3 = tensor.empty() : tensor<37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  %o = linalg.matmul ins(%ph, %v : tensor<37x45xf16>, tensor<45x20xf16>) outs(%z3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  %eo = tensor.empty() : tensor<37x20xf16>
  %oh = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%o : tensor<37x20xf32>) outs(%eo : tensor<37x20xf16>) {
  ^bb0(%x: f32, %y: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<37x20xf16>
  return %oh : tensor<37x20xf16>
}

// -----

// bf16 [B,N,D]: K transposed by linalg.transpose in bf16, batch_matmul
// bf16 x bf16 -> f32, softmax in f32, P truncated to bf16, P*V into f32 and
// the output truncated to bf16.
// CHECK-LABEL: func.func @bnd_bf16_transpose_batch_matmul
// CHECK: flash.attention
// EXEC: bnd_bf16_transpose_batch_matmul: raised=yes
func.func @bnd_bf16_transpose_batch_matmul(%q: tensor<3x37x24xbf16>, %k: tensor<3x45x24xbf16>,
                                           %v: tensor<3x45x20xbf16>) -> tensor<3x37x20xbf16> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<3x24x45xbf16>
  %kt = linalg.transpose ins(%k : tensor<3x45x24xbf16>) outs(%et : tensor<3x24x45xbf16>) permutation = [0, 2, 1]
  %e0 = tensor.empty() : tensor<3x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x37x45xf32>) -> tensor<3x37x45xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<3x37x24xbf16>, tensor<3x24x45xbf16>) outs(%z0 : tensor<3x37x45xf32>) -> tensor<3x37x45xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x37x45xf32>) outs(%e0 : tensor<3x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 4.8989797 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<3x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<3x37x45xf32>) outs(%e0 : tensor<3x37x45xf32>) -> tensor<3x37x45xf32>
  %eh = tensor.empty() : tensor<3x37x45xbf16>
  %ph = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p : tensor<3x37x45xf32>) outs(%eh : tensor<3x37x45xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %y = arith.truncf %x : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<3x37x45xbf16>
  %e3 = tensor.empty() : tensor<3x37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x37x20xf32>) -> tensor<3x37x20xf32>
  %o = linalg.batch_matmul ins(%ph, %v : tensor<3x37x45xbf16>, tensor<3x45x20xbf16>) outs(%z3 : tensor<3x37x20xf32>) -> tensor<3x37x20xf32>
  %eo = tensor.empty() : tensor<3x37x20xbf16>
  %oh = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o : tensor<3x37x20xf32>) outs(%eo : tensor<3x37x20xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<3x37x20xbf16>
  return %oh : tensor<3x37x20xbf16>
}
