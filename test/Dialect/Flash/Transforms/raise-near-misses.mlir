// Near misses: programs that look like attention but compute something
// else, and must stay unraised (each @negative_* gets a remark on its P*V
// contraction). The first function is the attention they all perturb, as a
// control (and so that raisecheck.py has a function to run).
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// Control: the decomposed attention the near misses below perturb (-inf
// max over keys, exp(s - max), sum over keys, divide, P*V from a zero fill).
// CHECK-LABEL: func.func @control_decomposed_attention
// CHECK: flash.attention
// EXEC: control_decomposed_attention: raised=yes
func.func @control_decomposed_attention(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
                                        %v: tensor<45x20xf32>) -> tensor<37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<37x24xf32>, tensor<45x24xf32>)
      outs(%z0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %er = tensor.empty() : tensor<37xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<37x45xf32>) outs(%mi : tensor<37xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<37xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s, %mx : tensor<37x45xf32>, tensor<37xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<37x45xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<37x45xf32>) outs(%li : tensor<37xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %acc, %x : f32
    linalg.yield %y : f32
  } -> tensor<37xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%ex, %l : tensor<37x45xf32>, tensor<37xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x20xf32>) outs(%z3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  return %o : tensor<37x20xf32>
}

// -----

// Not attention: the decomposed softmax (max and sum) normalizes over the query axis i.
// CHECK-LABEL: func.func @negative_decomposed_softmax_over_query_axis
// CHECK-NOT: flash.attention
func.func @negative_decomposed_softmax_over_query_axis(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
                                                       %v: tensor<45x20xf32>) -> tensor<37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<37x24xf32>, tensor<45x24xf32>)
      outs(%z0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %er = tensor.empty() : tensor<45xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<45xf32>) -> tensor<45xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                        iterator_types = ["reduction", "parallel"]}
      ins(%s : tensor<37x45xf32>) outs(%mi : tensor<45xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<45xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s, %mx : tensor<37x45xf32>, tensor<45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<37x45xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<45xf32>) -> tensor<45xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                       iterator_types = ["reduction", "parallel"]}
      ins(%ex : tensor<37x45xf32>) outs(%li : tensor<45xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %acc, %x : f32
    linalg.yield %y : f32
  } -> tensor<45xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%ex, %l : tensor<37x45xf32>, tensor<45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  // expected-remark @+1 {{attention not raised}}
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x20xf32>) outs(%z3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  return %o : tensor<37x20xf32>
}

// -----

// Not attention: the max is over the query axis, so exp(s_ij - m_j) is not a per-row shift.
// CHECK-LABEL: func.func @negative_max_over_query_axis_only
// CHECK-NOT: flash.attention
func.func @negative_max_over_query_axis_only(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
                                             %v: tensor<45x20xf32>) -> tensor<37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<37x24xf32>, tensor<45x24xf32>)
      outs(%z0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %ec = tensor.empty() : tensor<45xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%ec : tensor<45xf32>) -> tensor<45xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                        iterator_types = ["reduction", "parallel"]}
      ins(%s : tensor<37x45xf32>) outs(%mi : tensor<45xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<45xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s, %mx : tensor<37x45xf32>, tensor<45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<37x45xf32>
  %er = tensor.empty() : tensor<37xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<37x45xf32>) outs(%li : tensor<37xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %acc, %x : f32
    linalg.yield %y : f32
  } -> tensor<37xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%ex, %l : tensor<37x45xf32>, tensor<37xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  // expected-remark @+1 {{attention not raised}}
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x20xf32>) outs(%z3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  return %o : tensor<37x20xf32>
}

// -----

// Not attention: linalg.softmax over dim 1 of the [B,Nq,Nk] scores, the query axis.
// CHECK-LABEL: func.func @negative_linalg_softmax_query_dim_3d
// CHECK-NOT: flash.attention
func.func @negative_linalg_softmax_query_dim_3d(%q: tensor<2x37x24xf32>, %k: tensor<2x45x24xf32>,
                                                %v: tensor<2x45x20xf32>) -> tensor<2x37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x37x24xf32>, tensor<2x45x24xf32>)
      outs(%z0 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %e1 = tensor.empty() : tensor<2x37x45xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<2x37x45xf32>) outs(%e1 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %e3 = tensor.empty() : tensor<2x37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x37x20xf32>) -> tensor<2x37x20xf32>
  // expected-remark @+1 {{attention not raised}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x37x45xf32>, tensor<2x45x20xf32>) outs(%z3 : tensor<2x37x20xf32>) -> tensor<2x37x20xf32>
  return %o : tensor<2x37x20xf32>
}

// -----

// Not attention: P*V contracts the query axis (o[j,e] = sum_i p[i,j] v[i,e], i.e. P^T V).
// CHECK-LABEL: func.func @negative_pv_contracts_query_axis
// CHECK-NOT: flash.attention
func.func @negative_pv_contracts_query_axis(%q: tensor<41x24xf32>, %k: tensor<41x24xf32>,
                                            %v: tensor<41x20xf32>) -> tensor<41x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<41x41xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<41x41xf32>) -> tensor<41x41xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<41x24xf32>, tensor<41x24xf32>)
      outs(%z0 : tensor<41x41xf32>) -> tensor<41x41xf32>
  %e1 = tensor.empty() : tensor<41x41xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<41x41xf32>) outs(%e1 : tensor<41x41xf32>) -> tensor<41x41xf32>
  %e3 = tensor.empty() : tensor<41x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<41x20xf32>) -> tensor<41x20xf32>
  // expected-remark @+1 {{attention not raised}}
  %o = linalg.generic {indexing_maps = [affine_map<(j, e, i) -> (i, j)>,
                                        affine_map<(j, e, i) -> (i, e)>,
                                        affine_map<(j, e, i) -> (j, e)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<41x41xf32>, tensor<41x20xf32>) outs(%z3 : tensor<41x20xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<41x20xf32>
  return %o : tensor<41x20xf32>
}

// -----

// Not attention: the mask depends on the scores (select(s < -0.5, -inf, s)).
// CHECK-LABEL: func.func @negative_score_dependent_mask
// CHECK-NOT: flash.attention
func.func @negative_score_dependent_mask(%q: tensor<2x37x24xf32>, %k: tensor<2x45x24xf32>,
                                         %v: tensor<2x45x20xf32>) -> tensor<2x37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x37x24xf32>, tensor<2x45x24xf32>)
      outs(%z0 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x37x45xf32>) outs(%e0 : tensor<2x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %th = arith.constant -0.5 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %c : f32
    %low = arith.cmpf olt, %y, %th : f32
    %r = arith.select %low, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x37x45xf32>
  %e1 = tensor.empty() : tensor<2x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<2x37x45xf32>) outs(%e1 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %e3 = tensor.empty() : tensor<2x37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x37x20xf32>) -> tensor<2x37x20xf32>
  // expected-remark @+1 {{attention not raised}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x37x45xf32>, tensor<2x45x20xf32>) outs(%z3 : tensor<2x37x20xf32>) -> tensor<2x37x20xf32>
  return %o : tensor<2x37x20xf32>
}

// -----

// Not attention: P is multiplied by keep[i,j] after the softmax (dropout-like).
// CHECK-LABEL: func.func @negative_dropout_multiply_after_softmax
// CHECK-NOT: flash.attention
func.func @negative_dropout_multiply_after_softmax(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
                                                   %v: tensor<45x20xf32>, %keep: tensor<37x45xf32>) -> tensor<37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<37x24xf32>, tensor<45x24xf32>)
      outs(%z0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e2 = tensor.empty() : tensor<37x45xf32>
  %pd = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p, %keep : tensor<37x45xf32>, tensor<37x45xf32>) outs(%e2 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %kp: f32, %o: f32):
    %y = arith.mulf %x, %kp : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  // expected-remark @+1 {{attention not raised}}
  %o = linalg.matmul ins(%pd, %v : tensor<37x45xf32>, tensor<45x20xf32>) outs(%z3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  return %o : tensor<37x20xf32>
}

// -----

// Not attention: dropout select(keep_ij, p / 0.9, 0) applied to P after the softmax.
// CHECK-LABEL: func.func @negative_dropout_i1_select_after_softmax
// CHECK-NOT: flash.attention
func.func @negative_dropout_i1_select_after_softmax(%q: tensor<2x37x24xf32>, %k: tensor<2x45x24xf32>,
                                                    %v: tensor<2x45x20xf32>, %keep: tensor<2x37x45xi1>) -> tensor<2x37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x37x24xf32>, tensor<2x45x24xf32>)
      outs(%z0 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %e1 = tensor.empty() : tensor<2x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x37x45xf32>) outs(%e1 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %e2 = tensor.empty() : tensor<2x37x45xf32>
  %pd = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p, %keep : tensor<2x37x45xf32>, tensor<2x37x45xi1>) outs(%e2 : tensor<2x37x45xf32>) {
  ^bb0(%x: f32, %kp: i1, %o: f32):
    %r = arith.constant 0.9 : f32
    %y = arith.divf %x, %r : f32
    %d = arith.select %kp, %y, %zero : f32
    linalg.yield %d : f32
  } -> tensor<2x37x45xf32>
  %e3 = tensor.empty() : tensor<2x37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x37x20xf32>) -> tensor<2x37x20xf32>
  // expected-remark @+1 {{attention not raised}}
  %o = linalg.batch_matmul ins(%pd, %v : tensor<2x37x45xf32>, tensor<2x45x20xf32>) outs(%z3 : tensor<2x37x20xf32>) -> tensor<2x37x20xf32>
  return %o : tensor<2x37x20xf32>
}

// -----

// Not attention: the normalizing sum runs over the query axis (p_ij = e_ij / sum_i e_ij).
// CHECK-LABEL: func.func @negative_sum_over_query_axis
// CHECK-NOT: flash.attention
func.func @negative_sum_over_query_axis(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
                                        %v: tensor<45x20xf32>) -> tensor<37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<37x24xf32>, tensor<45x24xf32>)
      outs(%z0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %er = tensor.empty() : tensor<37xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<37x45xf32>) outs(%mi : tensor<37xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<37xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s, %mx : tensor<37x45xf32>, tensor<37xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<37x45xf32>
  %ec = tensor.empty() : tensor<45xf32>
  %li = linalg.fill ins(%zero : f32) outs(%ec : tensor<45xf32>) -> tensor<45xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                       iterator_types = ["reduction", "parallel"]}
      ins(%ex : tensor<37x45xf32>) outs(%li : tensor<45xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %acc, %x : f32
    linalg.yield %y : f32
  } -> tensor<45xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%ex, %l : tensor<37x45xf32>, tensor<45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  // expected-remark @+1 {{attention not raised}}
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x20xf32>) outs(%z3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  return %o : tensor<37x20xf32>
}

// -----

// Not raisable: P is also returned, so the N x N probabilities must be materialized.
// CHECK-LABEL: func.func @negative_probabilities_returned
// CHECK-NOT: flash.attention
func.func @negative_probabilities_returned(%q: tensor<2x37x24xf32>, %k: tensor<2x45x24xf32>,
                                           %v: tensor<2x45x20xf32>) -> (tensor<2x37x20xf32>, tensor<2x37x45xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x37x24xf32>, tensor<2x45x24xf32>)
      outs(%z0 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x37x45xf32>) outs(%e0 : tensor<2x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x37x45xf32>
  %e1 = tensor.empty() : tensor<2x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<2x37x45xf32>) outs(%e1 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %e3 = tensor.empty() : tensor<2x37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x37x20xf32>) -> tensor<2x37x20xf32>
  // expected-remark @+1 {{attention not raised}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x37x45xf32>, tensor<2x45x20xf32>) outs(%z3 : tensor<2x37x20xf32>) -> tensor<2x37x20xf32>
  return %o, %p : tensor<2x37x20xf32>, tensor<2x37x45xf32>
}

// -----

// Not attention: numerator exp(c*s - max(c*s)), denominator sum exp(c*s - max(s)): rows don't sum to 1.
// CHECK-LABEL: func.func @negative_denominator_different_max
// CHECK-NOT: flash.attention
func.func @negative_denominator_different_max(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
                                              %v: tensor<45x20xf32>) -> tensor<37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c = arith.constant 0.20412415 : f32
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
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %er = tensor.empty() : tensor<37xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %m1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%sc : tensor<37x45xf32>) outs(%mi : tensor<37xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<37xf32>
  %m2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<37x45xf32>) outs(%mi : tensor<37xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<37xf32>
  %num = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%sc, %m1 : tensor<37x45xf32>, tensor<37xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<37x45xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%sc, %m2 : tensor<37x45xf32>, tensor<37xf32>) outs(%li : tensor<37xf32>) {
  ^bb0(%x: f32, %m: f32, %acc: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    %y = arith.addf %acc, %e : f32
    linalg.yield %y : f32
  } -> tensor<37xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%num, %l : tensor<37x45xf32>, tensor<37xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  // expected-remark @+1 {{attention not raised}}
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x20xf32>) outs(%z3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  return %o : tensor<37x20xf32>
}

// -----

// Not attention: numerator exp(s - max), denominator sum exp(s): P = softmax(s) * exp(-max).
// CHECK-LABEL: func.func @negative_denominator_without_max
// CHECK-NOT: flash.attention
func.func @negative_denominator_without_max(%q: tensor<2x37x24xf32>, %k: tensor<2x45x24xf32>,
                                            %v: tensor<2x45x20xf32>) -> tensor<2x37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<2x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x37x24xf32>, tensor<2x45x24xf32>)
      outs(%z0 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %em = tensor.empty() : tensor<2x37x1xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%em : tensor<2x37x1xf32>) -> tensor<2x37x1xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : tensor<2x37x45xf32>) outs(%mi : tensor<2x37x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x37x1xf32>
  %num = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mx : tensor<2x37x45xf32>, tensor<2x37x1xf32>) outs(%e0 : tensor<2x37x45xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x37x45xf32>
  %li = linalg.fill ins(%zero : f32) outs(%em : tensor<2x37x1xf32>) -> tensor<2x37x1xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : tensor<2x37x45xf32>) outs(%li : tensor<2x37x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %e = math.exp %x : f32
    %y = arith.addf %acc, %e : f32
    linalg.yield %y : f32
  } -> tensor<2x37x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%num, %l : tensor<2x37x45xf32>, tensor<2x37x1xf32>) outs(%e0 : tensor<2x37x45xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<2x37x45xf32>
  %e3 = tensor.empty() : tensor<2x37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x37x20xf32>) -> tensor<2x37x20xf32>
  // expected-remark @+1 {{attention not raised}}
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x37x45xf32>, tensor<2x45x20xf32>) outs(%z3 : tensor<2x37x20xf32>) -> tensor<2x37x20xf32>
  return %o : tensor<2x37x20xf32>
}
