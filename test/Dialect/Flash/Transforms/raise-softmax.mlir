// Held-out spellings of attention: the softmax (linalg.softmax, decomposed
// with -inf or -FLT_MAX max inits, maximumf/maxnumf/cmpf+select maxima,
// divide or reciprocal-multiply, keepdim maps, partially fused generics,
// exp2 with log2(e), unstabilized, normalization deferred after P*V,
// StableHLO-style named ops, exp of a log-softmax).
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// linalg.softmax on the last dim of [B,H,Nq,Nk] scores, scale 1/sqrt(20)
// by a multiply.
// CHECK-LABEL: func.func @linalg_softmax_bhnd
// CHECK: flash.attention
// EXEC: linalg_softmax_bhnd: raised=yes
func.func @linalg_softmax_bhnd(%q: tensor<2x2x31x20xf32>, %k: tensor<2x2x43x20xf32>,
                               %v: tensor<2x2x43x18xf32>) -> tensor<2x2x31x18xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x2x31x43xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x2x31x43xf32>) -> tensor<2x2x31x43xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x31x20xf32>, tensor<2x2x43x20xf32>) outs(%z0 : tensor<2x2x31x43xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x31x43xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x2x31x43xf32>) outs(%e0 : tensor<2x2x31x43xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.2236068 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x2x31x43xf32>
  %e1 = tensor.empty() : tensor<2x2x31x43xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x2x31x43xf32>) outs(%e1 : tensor<2x2x31x43xf32>) -> tensor<2x2x31x43xf32>
  %e3 = tensor.empty() : tensor<2x2x31x18xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x2x31x18xf32>) -> tensor<2x2x31x18xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x31x43xf32>, tensor<2x2x43x18xf32>) outs(%z3 : tensor<2x2x31x18xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x31x18xf32>
  return %o : tensor<2x2x31x18xf32>
}

// -----

// Decomposed softmax on [Nq,Nk] with rank-1 reductions: max with a -inf
// init and arith.maximumf, x - max, exp, sum, divide, each its own generic.
// CHECK-LABEL: func.func @decomposed_neg_inf_maximumf
// CHECK: flash.attention
// EXEC: decomposed_neg_inf_maximumf: raised=yes
func.func @decomposed_neg_inf_maximumf(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
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
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %er = tensor.empty() : tensor<37xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%sc : tensor<37x45xf32>) outs(%mi : tensor<37xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<37xf32>
  %sub = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%sc, %mx : tensor<37x45xf32>, tensor<37xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %y = arith.subf %x, %m : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%sub : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<37x45xf32>) outs(%li : tensor<37xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
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

// Decomposed softmax on [B,Nq,Nk] with keepdim reductions ([B,Nq,1] read
// with (b, i, j) -> (b, i, 0)), the max initialized to -FLT_MAX and reduced
// with arith.maxnumf.
// CHECK-LABEL: func.func @decomposed_flt_max_maxnumf_keepdim
// CHECK: flash.attention
// EXEC: decomposed_flt_max_maxnumf_keepdim: raised=yes
func.func @decomposed_flt_max_maxnumf_keepdim(%q: tensor<3x31x20xf32>, %k: tensor<3x43x20xf32>,
                                              %v: tensor<3x43x18xf32>) -> tensor<3x31x18xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347e+38 : f32
  %e0 = tensor.empty() : tensor<3x31x43xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<3x31x20xf32>, tensor<3x43x20xf32>)
      outs(%z0 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x31x43xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 4.472136 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<3x31x43xf32>
  %em = tensor.empty() : tensor<3x31x1xf32>
  %mi = linalg.fill ins(%lowest : f32) outs(%em : tensor<3x31x1xf32>) -> tensor<3x31x1xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<3x31x43xf32>) outs(%mi : tensor<3x31x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maxnumf %acc, %x : f32
    linalg.yield %m : f32
  } -> tensor<3x31x1xf32>
  %sub = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc, %mx : tensor<3x31x43xf32>, tensor<3x31x1xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %y = arith.subf %x, %m : f32
    linalg.yield %y : f32
  } -> tensor<3x31x43xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sub : tensor<3x31x43xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<3x31x43xf32>
  %li = linalg.fill ins(%zero : f32) outs(%em : tensor<3x31x1xf32>) -> tensor<3x31x1xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<3x31x43xf32>) outs(%li : tensor<3x31x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<3x31x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %l : tensor<3x31x43xf32>, tensor<3x31x1xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<3x31x43xf32>
  %e3 = tensor.empty() : tensor<3x31x18xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x31x18xf32>) -> tensor<3x31x18xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<3x31x43xf32>, tensor<3x43x18xf32>) outs(%z3 : tensor<3x31x18xf32>) -> tensor<3x31x18xf32>
  return %o : tensor<3x31x18xf32>
}

// -----

// Normalization by the reciprocal: r = 1.0 / sum (keepdim), then p = e * r.
// CHECK-LABEL: func.func @reciprocal_then_multiply_keepdim
// CHECK: flash.attention
// EXEC: reciprocal_then_multiply_keepdim: raised=yes
func.func @reciprocal_then_multiply_keepdim(%q: tensor<3x31x20xf32>, %k: tensor<3x43x20xf32>,
                                            %v: tensor<3x43x18xf32>) -> tensor<3x31x18xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<3x31x43xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<3x31x20xf32>, tensor<3x43x20xf32>)
      outs(%z0 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x31x43xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.2236068 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<3x31x43xf32>
  %em = tensor.empty() : tensor<3x31x1xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%em : tensor<3x31x1xf32>) -> tensor<3x31x1xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<3x31x43xf32>) outs(%mi : tensor<3x31x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<3x31x1xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc, %mx : tensor<3x31x43xf32>, tensor<3x31x1xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<3x31x43xf32>
  %li = linalg.fill ins(%zero : f32) outs(%em : tensor<3x31x1xf32>) -> tensor<3x31x1xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<3x31x43xf32>) outs(%li : tensor<3x31x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<3x31x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, u) -> (b, i, u)>, affine_map<(b, i, u) -> (b, i, u)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%l : tensor<3x31x1xf32>) outs(%em : tensor<3x31x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %y = arith.divf %one, %x : f32
    linalg.yield %y : f32
  } -> tensor<3x31x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %r : tensor<3x31x43xf32>, tensor<3x31x1xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %rr: f32, %o: f32):
    %y = arith.mulf %x, %rr : f32
    linalg.yield %y : f32
  } -> tensor<3x31x43xf32>
  %e3 = tensor.empty() : tensor<3x31x18xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x31x18xf32>) -> tensor<3x31x18xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<3x31x43xf32>, tensor<3x43x18xf32>) outs(%z3 : tensor<3x31x18xf32>) -> tensor<3x31x18xf32>
  return %o : tensor<3x31x18xf32>
}

// -----

// Partially fused: the row max reduces the scores scaled inline; the scale,
// the subtraction of the broadcast row max and the exp in one generic; then
// a plain sum and divide.
// CHECK-LABEL: func.func @fused_scale_sub_exp
// CHECK: flash.attention
// EXEC: fused_scale_sub_exp: raised=yes
func.func @fused_scale_sub_exp(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
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
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    %m = arith.maximumf %acc, %y : f32
    linalg.yield %m : f32
  } -> tensor<37xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s, %mx : tensor<37x45xf32>, tensor<37xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    %d = arith.subf %y, %m : f32
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

// The sum reduction computes exp(s - max) inline from the scores and the
// max (it does not read the exp tensor); the exp tensor feeds only the
// normalization.
// CHECK-LABEL: func.func @sum_reduction_computes_exp_inline
// CHECK: flash.attention
// EXEC: sum_reduction_computes_exp_inline: raised=yes
func.func @sum_reduction_computes_exp_inline(%q: tensor<3x31x20xf32>, %k: tensor<3x43x20xf32>,
                                             %v: tensor<3x43x18xf32>) -> tensor<3x31x18xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<3x31x43xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<3x31x20xf32>, tensor<3x43x20xf32>)
      outs(%z0 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %er = tensor.empty() : tensor<3x31xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<3x31xf32>) -> tensor<3x31xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : tensor<3x31x43xf32>) outs(%mi : tensor<3x31xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<3x31xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<3x31xf32>) -> tensor<3x31xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s, %mx : tensor<3x31x43xf32>, tensor<3x31xf32>) outs(%li : tensor<3x31xf32>) {
  ^bb0(%x: f32, %m: f32, %acc: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    %y = arith.addf %acc, %e : f32
    linalg.yield %y : f32
  } -> tensor<3x31xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mx : tensor<3x31x43xf32>, tensor<3x31xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<3x31x43xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %l : tensor<3x31x43xf32>, tensor<3x31xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<3x31x43xf32>
  %e3 = tensor.empty() : tensor<3x31x18xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x31x18xf32>) -> tensor<3x31x18xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<3x31x43xf32>, tensor<3x43x18xf32>) outs(%z3 : tensor<3x31x18xf32>) -> tensor<3x31x18xf32>
  return %o : tensor<3x31x18xf32>
}

// -----

// math.exp2 of (s - max) * log2(e): the same softmax as exp(s - max).
// CHECK-LABEL: func.func @exp2_times_log2e
// CHECK: flash.attention
// EXEC: exp2_times_log2e: raised=yes
func.func @exp2_times_log2e(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
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
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %er = tensor.empty() : tensor<37xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%sc : tensor<37x45xf32>) outs(%mi : tensor<37xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<37xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%sc, %mx : tensor<37x45xf32>, tensor<37xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %log2e = arith.constant 1.44269504 : f32
    %d = arith.subf %x, %m : f32
    %t = arith.mulf %d, %log2e : f32
    %e = math.exp2 %t : f32
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

// FlashAttention-kernel style exp2: the scores are pre-multiplied by
// scale * log2(e) = 0.32259643 (D = 20) and the softmax uses exp2 of
// (s' - max s'): softmax(s / sqrt(20)).
// CHECK-LABEL: func.func @exp2_prescaled_by_scale_log2e
// CHECK: flash.attention
// EXEC: exp2_prescaled_by_scale_log2e: raised=yes
func.func @exp2_prescaled_by_scale_log2e(%q: tensor<3x31x20xf32>, %k: tensor<3x43x20xf32>,
                                         %v: tensor<3x43x18xf32>) -> tensor<3x31x18xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<3x31x43xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<3x31x20xf32>, tensor<3x43x20xf32>)
      outs(%z0 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x31x43xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.32259643 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<3x31x43xf32>
  %em = tensor.empty() : tensor<3x31x1xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%em : tensor<3x31x1xf32>) -> tensor<3x31x1xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<3x31x43xf32>) outs(%mi : tensor<3x31x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<3x31x1xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc, %mx : tensor<3x31x43xf32>, tensor<3x31x1xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp2 %d : f32
    linalg.yield %e : f32
  } -> tensor<3x31x43xf32>
  %li = linalg.fill ins(%zero : f32) outs(%em : tensor<3x31x1xf32>) -> tensor<3x31x1xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<3x31x43xf32>) outs(%li : tensor<3x31x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<3x31x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %l : tensor<3x31x43xf32>, tensor<3x31x1xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<3x31x43xf32>
  %e3 = tensor.empty() : tensor<3x31x18xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x31x18xf32>) -> tensor<3x31x18xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<3x31x43xf32>, tensor<3x43x18xf32>) outs(%z3 : tensor<3x31x18xf32>) -> tensor<3x31x18xf32>
  return %o : tensor<3x31x18xf32>
}

// -----

// Unstabilized softmax (no max subtraction): exp fused with the scale,
// keepdim sum, divide.
// CHECK-LABEL: func.func @unstabilized_exp_sum_div
// CHECK: flash.attention
// EXEC: unstabilized_exp_sum_div: raised=yes
func.func @unstabilized_exp_sum_div(%q: tensor<3x31x20xf32>, %k: tensor<3x43x20xf32>,
                                    %v: tensor<3x43x18xf32>) -> tensor<3x31x18xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<3x31x43xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<3x31x20xf32>, tensor<3x43x20xf32>)
      outs(%z0 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x31x43xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.2236068 : f32
    %y = arith.mulf %x, %c : f32
    %e = math.exp %y : f32
    linalg.yield %e : f32
  } -> tensor<3x31x43xf32>
  %em = tensor.empty() : tensor<3x31x1xf32>
  %li = linalg.fill ins(%zero : f32) outs(%em : tensor<3x31x1xf32>) -> tensor<3x31x1xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<3x31x43xf32>) outs(%li : tensor<3x31x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<3x31x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %l : tensor<3x31x43xf32>, tensor<3x31x1xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<3x31x43xf32>
  %e3 = tensor.empty() : tensor<3x31x18xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x31x18xf32>) -> tensor<3x31x18xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<3x31x43xf32>, tensor<3x43x18xf32>) outs(%z3 : tensor<3x31x18xf32>) -> tensor<3x31x18xf32>
  return %o : tensor<3x31x18xf32>
}

// -----

// Normalization deferred to after P*V: o = (exp(s - max) * V) / l, the row
// sum l dividing the unnormalized product.
// CHECK-LABEL: func.func @deferred_normalization_divide
// CHECK: flash.attention
// EXEC: deferred_normalization_divide: raised=yes
func.func @deferred_normalization_divide(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
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
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %er = tensor.empty() : tensor<37xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%sc : tensor<37x45xf32>) outs(%mi : tensor<37xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<37xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%sc, %mx : tensor<37x45xf32>, tensor<37xf32>) outs(%e0 : tensor<37x45xf32>) {
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
  %e3 = tensor.empty() : tensor<37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  %u = linalg.matmul ins(%ex, %v : tensor<37x45xf32>, tensor<45x20xf32>) outs(%z3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, e) -> (i, e)>, affine_map<(i, e) -> (i)>, affine_map<(i, e) -> (i, e)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%u, %l : tensor<37x20xf32>, tensor<37xf32>) outs(%e3 : tensor<37x20xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<37x20xf32>
  return %o : tensor<37x20xf32>
}

// -----

// [B,H,N,D], normalization deferred after P*V through the reciprocal of a
// keepdim row sum: o = (exp(s - max) * V) * (1 / l).
// CHECK-LABEL: func.func @deferred_normalization_reciprocal_bhnd
// CHECK: flash.attention
// EXEC: deferred_normalization_reciprocal_bhnd: raised=yes
func.func @deferred_normalization_reciprocal_bhnd(%q: tensor<2x2x31x20xf32>, %k: tensor<2x2x43x20xf32>,
                                                  %v: tensor<2x2x43x18xf32>) -> tensor<2x2x31x18xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347e+38 : f32
  %e0 = tensor.empty() : tensor<2x2x31x43xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x2x31x43xf32>) -> tensor<2x2x31x43xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x31x20xf32>, tensor<2x2x43x20xf32>) outs(%z0 : tensor<2x2x31x43xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x31x43xf32>
  %em = tensor.empty() : tensor<2x2x31x1xf32>
  %mi = linalg.fill ins(%lowest : f32) outs(%em : tensor<2x2x31x1xf32>) -> tensor<2x2x31x1xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%s : tensor<2x2x31x43xf32>) outs(%mi : tensor<2x2x31x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x2x31x1xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %mx : tensor<2x2x31x43xf32>, tensor<2x2x31x1xf32>) outs(%e0 : tensor<2x2x31x43xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %c = arith.constant 0.2236068 : f32
    %d = arith.subf %x, %m : f32
    %t = arith.mulf %d, %c : f32
    %e = math.exp %t : f32
    linalg.yield %e : f32
  } -> tensor<2x2x31x43xf32>
  %li = linalg.fill ins(%zero : f32) outs(%em : tensor<2x2x31x1xf32>) -> tensor<2x2x31x1xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x2x31x43xf32>) outs(%li : tensor<2x2x31x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x2x31x1xf32>
  %e3 = tensor.empty() : tensor<2x2x31x18xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x2x31x18xf32>) -> tensor<2x2x31x18xf32>
  %u = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ex, %v : tensor<2x2x31x43xf32>, tensor<2x2x43x18xf32>) outs(%z3 : tensor<2x2x31x18xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x31x18xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, h, i, u) -> (b, h, i, u)>, affine_map<(b, h, i, u) -> (b, h, i, u)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%l : tensor<2x2x31x1xf32>) outs(%em : tensor<2x2x31x1xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %y = arith.divf %one, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x2x31x1xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e) -> (b, h, i, e)>, affine_map<(b, h, i, e) -> (b, h, i, 0)>, affine_map<(b, h, i, e) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%u, %r : tensor<2x2x31x18xf32>, tensor<2x2x31x1xf32>) outs(%e3 : tensor<2x2x31x18xf32>) {
  ^bb0(%x: f32, %rr: f32, %o: f32):
    %y = arith.mulf %x, %rr : f32
    linalg.yield %y : f32
  } -> tensor<2x2x31x18xf32>
  return %o : tensor<2x2x31x18xf32>
}

// -----

// The row max spelled as cmpf ogt + select (no max op), -inf init.
// CHECK-LABEL: func.func @max_as_cmpf_select
// CHECK: flash.attention
// EXEC: max_as_cmpf_select: raised=yes
func.func @max_as_cmpf_select(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
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
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 4.8989797 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %er = tensor.empty() : tensor<37xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%sc : tensor<37x45xf32>) outs(%mi : tensor<37xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %gt = arith.cmpf ogt, %x, %acc : f32
    %m = arith.select %gt, %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<37xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%sc, %mx : tensor<37x45xf32>, tensor<37xf32>) outs(%e0 : tensor<37x45xf32>) {
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

// StableHLO -> linalg style, all named ops: linalg.reduce (max, -inf init),
// linalg.broadcast of the max, linalg.sub, linalg.exp, linalg.reduce (add),
// linalg.broadcast of the sum, linalg.div; the scale a linalg.mul by a
// splat constant.
// CHECK-LABEL: func.func @stablehlo_named_ops_softmax
// CHECK: flash.attention
// EXEC: stablehlo_named_ops_softmax: raised=yes
func.func @stablehlo_named_ops_softmax(%q: tensor<3x31x20xf32>, %k: tensor<3x43x20xf32>,
                                       %v: tensor<3x43x18xf32>) -> tensor<3x31x18xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %cs = arith.constant dense<0.2236068> : tensor<3x31x43xf32>
  %e0 = tensor.empty() : tensor<3x31x43xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<3x31x20xf32>, tensor<3x43x20xf32>)
      outs(%z0 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %e1 = tensor.empty() : tensor<3x31x43xf32>
  %sc = linalg.mul ins(%s, %cs : tensor<3x31x43xf32>, tensor<3x31x43xf32>) outs(%e1 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %er = tensor.empty() : tensor<3x31xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<3x31xf32>) -> tensor<3x31xf32>
  %mx = linalg.reduce ins(%sc : tensor<3x31x43xf32>) outs(%mi : tensor<3x31xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %e2 = tensor.empty() : tensor<3x31x43xf32>
  %mb = linalg.broadcast ins(%mx : tensor<3x31xf32>) outs(%e2 : tensor<3x31x43xf32>) dimensions = [2]
  %e4 = tensor.empty() : tensor<3x31x43xf32>
  %d = linalg.sub ins(%sc, %mb : tensor<3x31x43xf32>, tensor<3x31x43xf32>) outs(%e4 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %e5 = tensor.empty() : tensor<3x31x43xf32>
  %ex = linalg.exp ins(%d : tensor<3x31x43xf32>) outs(%e5 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<3x31xf32>) -> tensor<3x31xf32>
  %l = linalg.reduce ins(%ex : tensor<3x31x43xf32>) outs(%li : tensor<3x31xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %y = arith.addf %in, %acc : f32
      linalg.yield %y : f32
    }
  %e6 = tensor.empty() : tensor<3x31x43xf32>
  %lb = linalg.broadcast ins(%l : tensor<3x31xf32>) outs(%e6 : tensor<3x31x43xf32>) dimensions = [2]
  %e7 = tensor.empty() : tensor<3x31x43xf32>
  %p = linalg.div ins(%ex, %lb : tensor<3x31x43xf32>, tensor<3x31x43xf32>) outs(%e7 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %e3 = tensor.empty() : tensor<3x31x18xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x31x18xf32>) -> tensor<3x31x18xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<3x31x43xf32>, tensor<3x43x18xf32>) outs(%z3 : tensor<3x31x18xf32>) -> tensor<3x31x18xf32>
  return %o : tensor<3x31x18xf32>
}

// -----

// torch.exp(log_softmax(s)): p = exp(s - max - log(sum exp(s - max))), the
// same probabilities as softmax(s).
// CHECK-LABEL: func.func @exp_of_log_softmax
// CHECK: flash.attention
// EXEC: exp_of_log_softmax: raised=yes
func.func @exp_of_log_softmax(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
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
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %er = tensor.empty() : tensor<37xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%sc : tensor<37x45xf32>) outs(%mi : tensor<37xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<37xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%sc, %mx : tensor<37x45xf32>, tensor<37xf32>) outs(%li : tensor<37xf32>) {
  ^bb0(%x: f32, %m: f32, %acc: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    %y = arith.addf %acc, %e : f32
    linalg.yield %y : f32
  } -> tensor<37xf32>
  %ls = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%sc, %mx, %l : tensor<37x45xf32>, tensor<37xf32>, tensor<37xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %m: f32, %sum: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %lg = math.log %sum : f32
    %y = arith.subf %d, %lg : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%ls : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x20xf32>) outs(%z3 : tensor<37x20xf32>) -> tensor<37x20xf32>
  return %o : tensor<37x20xf32>
}

// -----

// bf16 with the softmax upcast (Llama's softmax(dtype=float32)): scores
// accumulated in f32 from extf'd bf16, -FLT_MAX keepdim max, fused
// sub+exp, keepdim sum, divide, P truncated to bf16, P*V accumulated in
// f32 and the output truncated to bf16.
// CHECK-LABEL: func.func @bf16_upcast_decomposed_softmax
// CHECK: flash.attention
// EXEC: bf16_upcast_decomposed_softmax: raised=yes
func.func @bf16_upcast_decomposed_softmax(%q: tensor<3x31x20xbf16>, %k: tensor<3x43x20xbf16>,
                                          %v: tensor<3x43x18xbf16>) -> tensor<3x31x18xbf16> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347e+38 : f32
  %e0 = tensor.empty() : tensor<3x31x43xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x31x43xf32>) -> tensor<3x31x43xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>,
                                        affine_map<(b, i, j, d) -> (b, j, d)>,
                                        affine_map<(b, i, j, d) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<3x31x20xbf16>, tensor<3x43x20xbf16>) outs(%z0 : tensor<3x31x43xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %m = arith.mulf %af, %bf : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<3x31x43xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x31x43xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.2236068 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<3x31x43xf32>
  %em = tensor.empty() : tensor<3x31x1xf32>
  %mi = linalg.fill ins(%lowest : f32) outs(%em : tensor<3x31x1xf32>) -> tensor<3x31x1xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<3x31x43xf32>) outs(%mi : tensor<3x31x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<3x31x1xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc, %mx : tensor<3x31x43xf32>, tensor<3x31x1xf32>) outs(%e0 : tensor<3x31x43xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<3x31x43xf32>
  %li = linalg.fill ins(%zero : f32) outs(%em : tensor<3x31x1xf32>) -> tensor<3x31x1xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<3x31x43xf32>) outs(%li : tensor<3x31x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<3x31x1xf32>
  %eh = tensor.empty() : tensor<3x31x43xbf16>
  %ph = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %l : tensor<3x31x43xf32>, tensor<3x31x1xf32>) outs(%eh : tensor<3x31x43xbf16>) {
  ^bb0(%x: f32, %d: f32, %o: bf16):
    %y = arith.divf %x, %d : f32
    %t = arith.truncf %y : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<3x31x43xbf16>
  %e3 = tensor.empty() : tensor<3x31x18xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x31x18xf32>) -> tensor<3x31x18xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, i, e, j) -> (b, i, j)>,
                                        affine_map<(b, i, e, j) -> (b, j, e)>,
                                        affine_map<(b, i, e, j) -> (b, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ph, %v : tensor<3x31x43xbf16>, tensor<3x43x18xbf16>) outs(%z3 : tensor<3x31x18xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %m = arith.mulf %af, %bf : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<3x31x18xf32>
  %eo = tensor.empty() : tensor<3x31x18xbf16>
  %oh = linalg.generic {indexing_maps = [affine_map<(b, i, e) -> (b, i, e)>, affine_map<(b, i, e) -> (b, i, e)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o : tensor<3x31x18xf32>) outs(%eo : tensor<3x31x18xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<3x31x18xbf16>
  return %oh : tensor<3x31x18xbf16>
}

// -----

// The normalization guarded for rows without keys, where(l == 0, 0, o / l)
// (with a sliding window, bottom-right): flash.attention gives those rows 0
// itself, so the guard goes.
// CHECK-LABEL: func.func @guarded_normalization
// CHECK: flash.attention {{.*}}causal, causal_offset = 8
// CHECK-NOT: arith.cmpf
// EXEC: guarded_normalization: raised=yes
func.func @guarded_normalization(%q: tensor<2x2x37x16xf32>, %k: tensor<2x2x45x16xf32>, %v: tensor<2x2x45x16xf32>) -> tensor<2x2x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<2x2x37x45xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x2x37x45xf32>) -> tensor<2x2x37x45xf32>
  %s1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x37x16xf32>, tensor<2x2x45x16xf32>) outs(%s0 : tensor<2x2x37x45xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x2x37x45xf32>
  %s2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%s1 : tensor<2x2x37x45xf32>) {
  ^bb0(%x: f32):
    %sc = arith.constant 2.500000000e-01 : f32
    %t0 = arith.mulf %x, %sc : f32
    %ri = linalg.index 2 : index
    %rj = linalg.index 3 : index
    %ii = linalg.index 2 : index
    %jj = linalg.index 3 : index
    %iic = arith.index_cast %ii : index to i64
    %jjc = arith.index_cast %jj : index to i64
    %off = arith.constant 8 : i64
    %lim = arith.addi %iic, %off : i64
    %vis = arith.cmpi sle, %jjc, %lim : i64
    %t2 = arith.select %vis, %t0, %ninf : f32
    %wdo = arith.constant 8 : index
    %wi = arith.addi %ri, %wdo : index
    %wlo = arith.constant 5 : index
    %wl = arith.subi %wi, %wlo : index
    %wkl = arith.cmpi sge, %rj, %wl : index
    %whi = arith.constant 0 : index
    %wh = arith.addi %wi, %whi : index
    %wkh = arith.cmpi sle, %rj, %wh : index
    %mka0 = arith.andi %wkl, %wkh : i1
    %t3 = arith.select %mka0, %t2, %ninf : f32
    linalg.yield %t3 : f32
  } -> tensor<2x2x37x45xf32>
  %me = tensor.empty() : tensor<2x2x37xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<2x2x37xf32>) -> tensor<2x2x37xf32>
  %m1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s2 : tensor<2x2x37x45xf32>) outs(%m0 : tensor<2x2x37xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.maximumf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<2x2x37xf32>
  %pe = tensor.empty() : tensor<2x2x37x45xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2, %m1 : tensor<2x2x37x45xf32>, tensor<2x2x37xf32>) outs(%pe : tensor<2x2x37x45xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %d = arith.subf %x, %mx : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<2x2x37x45xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%me : tensor<2x2x37xf32>) -> tensor<2x2x37xf32>
  %l1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p : tensor<2x2x37x45xf32>) outs(%l0 : tensor<2x2x37xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<2x2x37xf32>
  %oe = tensor.empty() : tensor<2x2x37x16xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x37x16xf32>) -> tensor<2x2x37x16xf32>
  %o1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%p, %v : tensor<2x2x37x45xf32>, tensor<2x2x45x16xf32>) outs(%o0 : tensor<2x2x37x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %pr = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %pr : f32
    linalg.yield %y : f32
  } -> tensor<2x2x37x16xf32>
  %ore = tensor.empty() : tensor<2x2x37x16xf32>
  %o2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o1, %l1 : tensor<2x2x37x16xf32>, tensor<2x2x37xf32>) outs(%ore : tensor<2x2x37x16xf32>) {
  ^bb0(%a: f32, %l: f32, %o: f32):
    %emp = arith.cmpf oeq, %l, %zero : f32
    %dv = arith.divf %a, %l : f32
    %y = arith.select %emp, %zero, %dv : f32
    linalg.yield %y : f32
  } -> tensor<2x2x37x16xf32>
  return %o2 : tensor<2x2x37x16xf32>
}

// -----

// A safe softmax (flash-mlir's own reference): the shift guarded, exp(s - where(m == -inf, 0, m)), and the normalization, where(l == 0, 0, o / l).
// CHECK-LABEL: func.func @safe_softmax_reference
// CHECK: flash.attention {{.*}}causal, causal_offset = 8
// CHECK-NOT: arith.cmpf
// EXEC: safe_softmax_reference: raised=yes
func.func @safe_softmax_reference(%q: tensor<2x2x37x16xf32>, %k: tensor<2x2x45x16xf32>, %v: tensor<2x2x45x16xf32>) -> tensor<2x2x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<2x2x37x45xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x2x37x45xf32>) -> tensor<2x2x37x45xf32>
  %s1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x37x16xf32>, tensor<2x2x45x16xf32>) outs(%s0 : tensor<2x2x37x45xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x2x37x45xf32>
  %s2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%s1 : tensor<2x2x37x45xf32>) {
  ^bb0(%x: f32):
    %sc = arith.constant 2.500000000e-01 : f32
    %t0 = arith.mulf %x, %sc : f32
    %ri = linalg.index 2 : index
    %rj = linalg.index 3 : index
    %ii = linalg.index 2 : index
    %jj = linalg.index 3 : index
    %iic = arith.index_cast %ii : index to i64
    %jjc = arith.index_cast %jj : index to i64
    %off = arith.constant 8 : i64
    %lim = arith.addi %iic, %off : i64
    %vis = arith.cmpi sle, %jjc, %lim : i64
    %t2 = arith.select %vis, %t0, %ninf : f32
    %wdo = arith.constant 8 : index
    %wi = arith.addi %ri, %wdo : index
    %wlo = arith.constant 5 : index
    %wl = arith.subi %wi, %wlo : index
    %wkl = arith.cmpi sge, %rj, %wl : index
    %whi = arith.constant 0 : index
    %wh = arith.addi %wi, %whi : index
    %wkh = arith.cmpi sle, %rj, %wh : index
    %mka0 = arith.andi %wkl, %wkh : i1
    %t3 = arith.select %mka0, %t2, %ninf : f32
    linalg.yield %t3 : f32
  } -> tensor<2x2x37x45xf32>
  %me = tensor.empty() : tensor<2x2x37xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<2x2x37xf32>) -> tensor<2x2x37xf32>
  %m1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s2 : tensor<2x2x37x45xf32>) outs(%m0 : tensor<2x2x37xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.maximumf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<2x2x37xf32>
  %pe = tensor.empty() : tensor<2x2x37x45xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2, %m1 : tensor<2x2x37x45xf32>, tensor<2x2x37xf32>) outs(%pe : tensor<2x2x37x45xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %isinf = arith.cmpf oeq, %mx, %ninf : f32
    %ms = arith.select %isinf, %zero, %mx : f32
    %d = arith.subf %x, %ms : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<2x2x37x45xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%me : tensor<2x2x37xf32>) -> tensor<2x2x37xf32>
  %l1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p : tensor<2x2x37x45xf32>) outs(%l0 : tensor<2x2x37xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<2x2x37xf32>
  %oe = tensor.empty() : tensor<2x2x37x16xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x37x16xf32>) -> tensor<2x2x37x16xf32>
  %o1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%p, %v : tensor<2x2x37x45xf32>, tensor<2x2x45x16xf32>) outs(%o0 : tensor<2x2x37x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %pr = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %pr : f32
    linalg.yield %y : f32
  } -> tensor<2x2x37x16xf32>
  %ore = tensor.empty() : tensor<2x2x37x16xf32>
  %o2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o1, %l1 : tensor<2x2x37x16xf32>, tensor<2x2x37xf32>) outs(%ore : tensor<2x2x37x16xf32>) {
  ^bb0(%a: f32, %l: f32, %o: f32):
    %emp = arith.cmpf oeq, %l, %zero : f32
    %dv = arith.divf %a, %l : f32
    %y = arith.select %emp, %zero, %dv : f32
    linalg.yield %y : f32
  } -> tensor<2x2x37x16xf32>
  return %o2 : tensor<2x2x37x16xf32>
}

// -----

// The same with Nq > Nk, bottom-right: the first 8 rows see no key, 0 in the program and in flash.attention.
// CHECK-LABEL: func.func @safe_softmax_rows_without_keys
// CHECK: flash.attention {{.*}}causal, causal_offset = -8
// CHECK-NOT: arith.cmpf
// EXEC: safe_softmax_rows_without_keys: raised=yes
func.func @safe_softmax_rows_without_keys(%q: tensor<2x2x45x16xf32>, %k: tensor<2x2x37x16xf32>, %v: tensor<2x2x37x16xf32>) -> tensor<2x2x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<2x2x45x37xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x2x45x37xf32>) -> tensor<2x2x45x37xf32>
  %s1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x45x16xf32>, tensor<2x2x37x16xf32>) outs(%s0 : tensor<2x2x45x37xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x2x45x37xf32>
  %s2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%s1 : tensor<2x2x45x37xf32>) {
  ^bb0(%x: f32):
    %sc = arith.constant 2.500000000e-01 : f32
    %t0 = arith.mulf %x, %sc : f32
    %ri = linalg.index 2 : index
    %rj = linalg.index 3 : index
    %ii = linalg.index 2 : index
    %jj = linalg.index 3 : index
    %iic = arith.index_cast %ii : index to i64
    %jjc = arith.index_cast %jj : index to i64
    %off = arith.constant -8 : i64
    %lim = arith.addi %iic, %off : i64
    %vis = arith.cmpi sle, %jjc, %lim : i64
    %t2 = arith.select %vis, %t0, %ninf : f32
    %wdo = arith.constant -8 : index
    %wi = arith.addi %ri, %wdo : index
    %wlo = arith.constant 5 : index
    %wl = arith.subi %wi, %wlo : index
    %wkl = arith.cmpi sge, %rj, %wl : index
    %whi = arith.constant 0 : index
    %wh = arith.addi %wi, %whi : index
    %wkh = arith.cmpi sle, %rj, %wh : index
    %mka0 = arith.andi %wkl, %wkh : i1
    %t3 = arith.select %mka0, %t2, %ninf : f32
    linalg.yield %t3 : f32
  } -> tensor<2x2x45x37xf32>
  %me = tensor.empty() : tensor<2x2x45xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<2x2x45xf32>) -> tensor<2x2x45xf32>
  %m1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s2 : tensor<2x2x45x37xf32>) outs(%m0 : tensor<2x2x45xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.maximumf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<2x2x45xf32>
  %pe = tensor.empty() : tensor<2x2x45x37xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2, %m1 : tensor<2x2x45x37xf32>, tensor<2x2x45xf32>) outs(%pe : tensor<2x2x45x37xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %isinf = arith.cmpf oeq, %mx, %ninf : f32
    %ms = arith.select %isinf, %zero, %mx : f32
    %d = arith.subf %x, %ms : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<2x2x45x37xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%me : tensor<2x2x45xf32>) -> tensor<2x2x45xf32>
  %l1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p : tensor<2x2x45x37xf32>) outs(%l0 : tensor<2x2x45xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<2x2x45xf32>
  %oe = tensor.empty() : tensor<2x2x45x16xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x45x16xf32>) -> tensor<2x2x45x16xf32>
  %o1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%p, %v : tensor<2x2x45x37xf32>, tensor<2x2x37x16xf32>) outs(%o0 : tensor<2x2x45x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %pr = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %pr : f32
    linalg.yield %y : f32
  } -> tensor<2x2x45x16xf32>
  %ore = tensor.empty() : tensor<2x2x45x16xf32>
  %o2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o1, %l1 : tensor<2x2x45x16xf32>, tensor<2x2x45xf32>) outs(%ore : tensor<2x2x45x16xf32>) {
  ^bb0(%a: f32, %l: f32, %o: f32):
    %emp = arith.cmpf oeq, %l, %zero : f32
    %dv = arith.divf %a, %l : f32
    %y = arith.select %emp, %zero, %dv : f32
    linalg.yield %y : f32
  } -> tensor<2x2x45x16xf32>
  return %o2 : tensor<2x2x45x16xf32>
}

// -----

// The safe softmax returning its row log-sum-exp guarded too, where(l == 0, -inf, m + log l): served by the op's lse.
// CHECK-LABEL: func.func @safe_softmax_with_lse
// CHECK: %{{.*}}, %[[LSE:.*]] = flash.attention {{.*}}lse({{.*}}causal, causal_offset = 8
// CHECK-NOT: math.log
// CHECK: return %{{.*}}, %[[LSE]]
// EXEC: safe_softmax_with_lse: raised=yes
func.func @safe_softmax_with_lse(%q: tensor<2x2x37x16xf32>, %k: tensor<2x2x45x16xf32>, %v: tensor<2x2x45x16xf32>) -> (tensor<2x2x37x16xf32>, tensor<2x2x37xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<2x2x37x45xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x2x37x45xf32>) -> tensor<2x2x37x45xf32>
  %s1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x37x16xf32>, tensor<2x2x45x16xf32>) outs(%s0 : tensor<2x2x37x45xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x2x37x45xf32>
  %s2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%s1 : tensor<2x2x37x45xf32>) {
  ^bb0(%x: f32):
    %sc = arith.constant 2.500000000e-01 : f32
    %t0 = arith.mulf %x, %sc : f32
    %ri = linalg.index 2 : index
    %rj = linalg.index 3 : index
    %ii = linalg.index 2 : index
    %jj = linalg.index 3 : index
    %iic = arith.index_cast %ii : index to i64
    %jjc = arith.index_cast %jj : index to i64
    %off = arith.constant 8 : i64
    %lim = arith.addi %iic, %off : i64
    %vis = arith.cmpi sle, %jjc, %lim : i64
    %t2 = arith.select %vis, %t0, %ninf : f32
    %wdo = arith.constant 8 : index
    %wi = arith.addi %ri, %wdo : index
    %wlo = arith.constant 5 : index
    %wl = arith.subi %wi, %wlo : index
    %wkl = arith.cmpi sge, %rj, %wl : index
    %whi = arith.constant 0 : index
    %wh = arith.addi %wi, %whi : index
    %wkh = arith.cmpi sle, %rj, %wh : index
    %mka0 = arith.andi %wkl, %wkh : i1
    %t3 = arith.select %mka0, %t2, %ninf : f32
    linalg.yield %t3 : f32
  } -> tensor<2x2x37x45xf32>
  %me = tensor.empty() : tensor<2x2x37xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<2x2x37xf32>) -> tensor<2x2x37xf32>
  %m1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s2 : tensor<2x2x37x45xf32>) outs(%m0 : tensor<2x2x37xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.maximumf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<2x2x37xf32>
  %pe = tensor.empty() : tensor<2x2x37x45xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2, %m1 : tensor<2x2x37x45xf32>, tensor<2x2x37xf32>) outs(%pe : tensor<2x2x37x45xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %isinf = arith.cmpf oeq, %mx, %ninf : f32
    %ms = arith.select %isinf, %zero, %mx : f32
    %d = arith.subf %x, %ms : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<2x2x37x45xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%me : tensor<2x2x37xf32>) -> tensor<2x2x37xf32>
  %l1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p : tensor<2x2x37x45xf32>) outs(%l0 : tensor<2x2x37xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<2x2x37xf32>
  %oe = tensor.empty() : tensor<2x2x37x16xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x37x16xf32>) -> tensor<2x2x37x16xf32>
  %o1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%p, %v : tensor<2x2x37x45xf32>, tensor<2x2x45x16xf32>) outs(%o0 : tensor<2x2x37x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %pr = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %pr : f32
    linalg.yield %y : f32
  } -> tensor<2x2x37x16xf32>
  %ore = tensor.empty() : tensor<2x2x37x16xf32>
  %o2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o1, %l1 : tensor<2x2x37x16xf32>, tensor<2x2x37xf32>) outs(%ore : tensor<2x2x37x16xf32>) {
  ^bb0(%a: f32, %l: f32, %o: f32):
    %emp = arith.cmpf oeq, %l, %zero : f32
    %dv = arith.divf %a, %l : f32
    %y = arith.select %emp, %zero, %dv : f32
    linalg.yield %y : f32
  } -> tensor<2x2x37x16xf32>
  %lse = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m1, %l1 : tensor<2x2x37xf32>, tensor<2x2x37xf32>) outs(%me : tensor<2x2x37xf32>) {
  ^bb0(%mx: f32, %l: f32, %o: f32):
    %emp = arith.cmpf oeq, %l, %zero : f32
    %lg = math.log %l : f32
    %y0 = arith.addf %mx, %lg : f32
    %y = arith.select %emp, %ninf, %y0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x37xf32>
  return %o2, %lse : tensor<2x2x37x16xf32>, tensor<2x2x37xf32>
}

// -----

// The same with rows without keys (Nq > Nk, bottom-right): o = 0 and lse = -inf on both sides.
// CHECK-LABEL: func.func @safe_softmax_with_lse_rows_without_keys
// CHECK: %{{.*}}, %[[LSE:.*]] = flash.attention {{.*}}lse({{.*}}causal, causal_offset = -8
// CHECK-NOT: math.log
// CHECK: return %{{.*}}, %[[LSE]]
// EXEC: safe_softmax_with_lse_rows_without_keys: raised=yes
func.func @safe_softmax_with_lse_rows_without_keys(%q: tensor<2x2x45x16xf32>, %k: tensor<2x2x37x16xf32>, %v: tensor<2x2x37x16xf32>) -> (tensor<2x2x45x16xf32>, tensor<2x2x45xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %se = tensor.empty() : tensor<2x2x45x37xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<2x2x45x37xf32>) -> tensor<2x2x45x37xf32>
  %s1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x45x16xf32>, tensor<2x2x37x16xf32>) outs(%s0 : tensor<2x2x45x37xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x2x45x37xf32>
  %s2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%s1 : tensor<2x2x45x37xf32>) {
  ^bb0(%x: f32):
    %sc = arith.constant 2.500000000e-01 : f32
    %t0 = arith.mulf %x, %sc : f32
    %ri = linalg.index 2 : index
    %rj = linalg.index 3 : index
    %ii = linalg.index 2 : index
    %jj = linalg.index 3 : index
    %iic = arith.index_cast %ii : index to i64
    %jjc = arith.index_cast %jj : index to i64
    %off = arith.constant -8 : i64
    %lim = arith.addi %iic, %off : i64
    %vis = arith.cmpi sle, %jjc, %lim : i64
    %t2 = arith.select %vis, %t0, %ninf : f32
    %wdo = arith.constant -8 : index
    %wi = arith.addi %ri, %wdo : index
    %wlo = arith.constant 5 : index
    %wl = arith.subi %wi, %wlo : index
    %wkl = arith.cmpi sge, %rj, %wl : index
    %whi = arith.constant 0 : index
    %wh = arith.addi %wi, %whi : index
    %wkh = arith.cmpi sle, %rj, %wh : index
    %mka0 = arith.andi %wkl, %wkh : i1
    %t3 = arith.select %mka0, %t2, %ninf : f32
    linalg.yield %t3 : f32
  } -> tensor<2x2x45x37xf32>
  %me = tensor.empty() : tensor<2x2x45xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<2x2x45xf32>) -> tensor<2x2x45xf32>
  %m1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s2 : tensor<2x2x45x37xf32>) outs(%m0 : tensor<2x2x45xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.maximumf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<2x2x45xf32>
  %pe = tensor.empty() : tensor<2x2x45x37xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2, %m1 : tensor<2x2x45x37xf32>, tensor<2x2x45xf32>) outs(%pe : tensor<2x2x45x37xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %isinf = arith.cmpf oeq, %mx, %ninf : f32
    %ms = arith.select %isinf, %zero, %mx : f32
    %d = arith.subf %x, %ms : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<2x2x45x37xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%me : tensor<2x2x45xf32>) -> tensor<2x2x45xf32>
  %l1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p : tensor<2x2x45x37xf32>) outs(%l0 : tensor<2x2x45xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<2x2x45xf32>
  %oe = tensor.empty() : tensor<2x2x45x16xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x2x45x16xf32>) -> tensor<2x2x45x16xf32>
  %o1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%p, %v : tensor<2x2x45x37xf32>, tensor<2x2x37x16xf32>) outs(%o0 : tensor<2x2x45x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %pr = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %pr : f32
    linalg.yield %y : f32
  } -> tensor<2x2x45x16xf32>
  %ore = tensor.empty() : tensor<2x2x45x16xf32>
  %o2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o1, %l1 : tensor<2x2x45x16xf32>, tensor<2x2x45xf32>) outs(%ore : tensor<2x2x45x16xf32>) {
  ^bb0(%a: f32, %l: f32, %o: f32):
    %emp = arith.cmpf oeq, %l, %zero : f32
    %dv = arith.divf %a, %l : f32
    %y = arith.select %emp, %zero, %dv : f32
    linalg.yield %y : f32
  } -> tensor<2x2x45x16xf32>
  %lse = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m1, %l1 : tensor<2x2x45xf32>, tensor<2x2x45xf32>) outs(%me : tensor<2x2x45xf32>) {
  ^bb0(%mx: f32, %l: f32, %o: f32):
    %emp = arith.cmpf oeq, %l, %zero : f32
    %lg = math.log %l : f32
    %y0 = arith.addf %mx, %lg : f32
    %y = arith.select %emp, %ninf, %y0 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x45xf32>
  return %o2, %lse : tensor<2x2x45x16xf32>, tensor<2x2x45xf32>
}
