// Held-out programs written by an adversarial tester (a session helper that
// had not seen the raise's code), kept as regression tests: layouts, scales,
// softmax spellings, masks, GQA, TOSA, joint graphs, dynamic shapes, f16,
// computed Q/K/V, and near misses.
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// linalg.contract for QK^T and PV
// CHECK-LABEL: func.func @contract_nd
// CHECK: flash.attention
// EXEC: contract_nd: raised=yes
func.func @contract_nd(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.contract indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.contract indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>]
      ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// key-major scores: St[j,i] = K Q^T, softmax over dim 0 (keys), O = St^T V
// CHECK-LABEL: func.func @key_major_scores
// CHECK: flash.attention
// EXEC: key_major_scores: raised=yes
func.func @key_major_scores(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<17x13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<17x13xf32>) -> tensor<17x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%k, %q : tensor<17x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<17x13xf32>) -> tensor<17x13xf32>
  %p = linalg.softmax dimension(0) ins(%s : tensor<17x13xf32>) outs(%es : tensor<17x13xf32>) -> tensor<17x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%p, %v : tensor<17x13xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// output produced transposed: O^T[e,i] = sum_j V[j,e] P[i,j]; returned as [E, Nq]
// CHECK-LABEL: func.func @output_transposed
// CHECK: flash.attention
// EXEC: output_transposed: raised=yes
func.func @output_transposed(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>) -> tensor<6x13xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<6x13xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x13xf32>) -> tensor<6x13xf32>
  %o = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%v, %p : tensor<17x6xf32>, tensor<13x17xf32>) outs(%zo : tensor<6x13xf32>) -> tensor<6x13xf32>
  return %o : tensor<6x13xf32>
}

// -----

// seq-first [N,B,H,D] layout, generic direct maps, loop order (h, e, i, b, j)
// CHECK-LABEL: func.func @nbhd_seq_first
// CHECK: flash.attention
// EXEC: nbhd_seq_first: raised=yes
func.func @nbhd_seq_first(%q: tensor<13x2x3x8xf32>, %k: tensor<17x2x3x8xf32>, %v: tensor<17x2x3x6xf32>) -> tensor<13x2x3x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x3x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3x13x17xf32>) -> tensor<2x3x13x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (i, b, h, d)>, affine_map<(b, h, i, j, d) -> (j, b, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<13x2x3x8xf32>, tensor<17x2x3x8xf32>) outs(%zs : tensor<2x3x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x3x13x17xf32>) outs(%es : tensor<2x3x13x17xf32>) -> tensor<2x3x13x17xf32>
  %eo = tensor.empty() : tensor<13x2x3x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x2x3x6xf32>) -> tensor<13x2x3x6xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(h, e, i, b, j) -> (b, h, i, j)>, affine_map<(h, e, i, b, j) -> (j, b, h, e)>, affine_map<(h, e, i, b, j) -> (i, b, h, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x3x13x17xf32>, tensor<17x2x3x6xf32>) outs(%zo : tensor<13x2x3x6xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<13x2x3x6xf32>
  return %o : tensor<13x2x3x6xf32>
}

// -----

// Q given pre-transposed [D, Nq]
// CHECK-LABEL: func.func @q_pretransposed
// CHECK: flash.attention
// EXEC: q_pretransposed: raised=yes
func.func @q_pretransposed(%qt: tensor<8x13xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%qt, %k : tensor<8x13xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// linalg.elementwise spelling of the softmax (LLVM 21+)
// CHECK-LABEL: func.func @elementwise_ops_softmax
// CHECK: flash.attention
// EXEC: elementwise_ops_softmax: raised=yes
func.func @elementwise_ops_softmax(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %er = tensor.empty() : tensor<13xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %m = linalg.reduce ins(%s : tensor<13x17xf32>) outs(%mi : tensor<13xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %x = arith.maximumf %in, %init : f32
      linalg.yield %x : f32
    }
  %mb = linalg.broadcast ins(%m : tensor<13xf32>) outs(%es : tensor<13x17xf32>) dimensions = [1]
  %t = linalg.elementwise kind=#linalg.elementwise_kind<sub> ins(%s, %mb : tensor<13x17xf32>, tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %e = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%t : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.reduce ins(%e : tensor<13x17xf32>) outs(%si : tensor<13xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %x = arith.addf %in, %init : f32
      linalg.yield %x : f32
    }
  %p = linalg.elementwise kind=#linalg.elementwise_kind<div> indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>]
      ins(%e, %sum : tensor<13x17xf32>, tensor<13xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// keepdim via tensor.expand_shape of the reductions + unit-dim broadcast maps
// CHECK-LABEL: func.func @keepdim_expand_shape
// CHECK: flash.attention
// EXEC: keepdim_expand_shape: raised=yes
func.func @keepdim_expand_shape(%q: tensor<2x13x8xf32>, %k: tensor<2x17x8xf32>, %v: tensor<2x17x6xf32>) -> tensor<2x13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347e+38 : f32
  %es = tensor.empty() : tensor<2x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %kt0 = tensor.empty() : tensor<2x8x17xf32>
  %kt = linalg.transpose ins(%k : tensor<2x17x8xf32>) outs(%kt0 : tensor<2x8x17xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x13x8xf32>, tensor<2x8x17xf32>) outs(%zs : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %er = tensor.empty() : tensor<2x13xf32>
  %mi = linalg.fill ins(%lowest : f32) outs(%er : tensor<2x13xf32>) -> tensor<2x13xf32>
  %m = linalg.reduce ins(%s : tensor<2x13x17xf32>) outs(%mi : tensor<2x13xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %x = arith.maxnumf %in, %init : f32
      linalg.yield %x : f32
    }
  %m1 = tensor.expand_shape %m [[0], [1, 2]] output_shape [2, 13, 1] : tensor<2x13xf32> into tensor<2x13x1xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %m1 : tensor<2x13x17xf32>, tensor<2x13x1xf32>) outs(%es : tensor<2x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %sc = arith.constant 0.35355339 : f32
    %d = arith.subf %a, %b : f32
    %d2 = arith.mulf %d, %sc : f32
    %x = math.exp %d2 : f32
    linalg.yield %x : f32
  } -> tensor<2x13x17xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<2x13xf32>) -> tensor<2x13xf32>
  %sum = linalg.reduce ins(%e : tensor<2x13x17xf32>) outs(%si : tensor<2x13xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %x = arith.addf %in, %init : f32
      linalg.yield %x : f32
    }
  %sum1 = tensor.expand_shape %sum [[0], [1, 2]] output_shape [2, 13, 1] : tensor<2x13xf32> into tensor<2x13x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %sum1 : tensor<2x13x17xf32>, tensor<2x13x1xf32>) outs(%es : tensor<2x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %x = arith.divf %a, %b : f32
    linalg.yield %x : f32
  } -> tensor<2x13x17xf32>
  %eo = tensor.empty() : tensor<2x13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x13x6xf32>) -> tensor<2x13x6xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x13x17xf32>, tensor<2x17x6xf32>) outs(%zo : tensor<2x13x6xf32>) -> tensor<2x13x6xf32>
  return %o : tensor<2x13x6xf32>
}

// -----

// three leading dims collapsed into one bmm batch: [2,2,3,N,D] -> [12,N,D]
// CHECK-LABEL: func.func @collapse_three_batch_dims
// CHECK: flash.attention
// EXEC: collapse_three_batch_dims: raised=yes
func.func @collapse_three_batch_dims(%q: tensor<2x2x3x13x8xf32>, %k: tensor<2x2x3x17x8xf32>, %v: tensor<2x2x3x17x6xf32>) -> tensor<2x2x3x13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %q3 = tensor.collapse_shape %q [[0, 1, 2], [3], [4]] : tensor<2x2x3x13x8xf32> into tensor<12x13x8xf32>
  %k3 = tensor.collapse_shape %k [[0, 1, 2], [3], [4]] : tensor<2x2x3x17x8xf32> into tensor<12x17x8xf32>
  %v3 = tensor.collapse_shape %v [[0, 1, 2], [3], [4]] : tensor<2x2x3x17x6xf32> into tensor<12x17x6xf32>
  %es = tensor.empty() : tensor<12x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<12x13x17xf32>) -> tensor<12x13x17xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q3, %k3 : tensor<12x13x8xf32>, tensor<12x17x8xf32>) outs(%zs : tensor<12x13x17xf32>) -> tensor<12x13x17xf32>
  %s5 = tensor.expand_shape %s [[0, 1, 2], [3], [4]] output_shape [2, 2, 3, 13, 17] : tensor<12x13x17xf32> into tensor<2x2x3x13x17xf32>
  %e5 = tensor.empty() : tensor<2x2x3x13x17xf32>
  %p5 = linalg.softmax dimension(4) ins(%s5 : tensor<2x2x3x13x17xf32>) outs(%e5 : tensor<2x2x3x13x17xf32>) -> tensor<2x2x3x13x17xf32>
  %p = tensor.collapse_shape %p5 [[0, 1, 2], [3], [4]] : tensor<2x2x3x13x17xf32> into tensor<12x13x17xf32>
  %eo = tensor.empty() : tensor<12x13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<12x13x6xf32>) -> tensor<12x13x6xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<12x13x17xf32>, tensor<12x17x6xf32>) outs(%zo : tensor<12x13x6xf32>) -> tensor<12x13x6xf32>
  %o5 = tensor.expand_shape %o [[0, 1, 2], [3], [4]] output_shape [2, 2, 3, 13, 6] : tensor<12x13x6xf32> into tensor<2x2x3x13x6xf32>
  return %o5 : tensor<2x2x3x13x6xf32>
}

// -----

// exp2 with the scale*log2e folded into Q (FlashAttention-style), max over the prescaled scores
// CHECK-LABEL: func.func @exp2_log2e_on_q
// CHECK: flash.attention
// EXEC: exp2_log2e_on_q: raised=yes
func.func @exp2_log2e_on_q(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %eq = tensor.empty() : tensor<13x8xf32>
  %qs = linalg.generic {indexing_maps = [affine_map<(i, d) -> (i, d)>, affine_map<(i, d) -> (i, d)>], iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<13x8xf32>) outs(%eq : tensor<13x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.51006973 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<13x8xf32>
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%qs, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %er = tensor.empty() : tensor<13xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<13x17xf32>) outs(%mi : tensor<13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maximumf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<13xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<13x17xf32>, tensor<13xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %y = math.exp2 %d : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<13x17xf32>) outs(%si : tensor<13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<13x17xf32>, tensor<13xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.divf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// softmax shifted by a per-row max of the UNSCALED scores while the exponent uses scaled ones;
// max initialised with 0.0 (still a per-row shift)
// CHECK-LABEL: func.func @shift_by_unscaled_max_zero_init
// CHECK: flash.attention
// EXEC: shift_by_unscaled_max_zero_init: raised=yes
func.func @shift_by_unscaled_max_zero_init(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %er = tensor.empty() : tensor<13xf32>
  %mi = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<13x17xf32>) outs(%mi : tensor<13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maximumf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<13xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<13x17xf32>, tensor<13xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %x = arith.mulf %a, %c : f32
    %d = arith.subf %x, %b : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<13x17xf32>) outs(%si : tensor<13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %u = linalg.matmul ins(%e, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, e) -> (i, e)>, affine_map<(i, e) -> (i)>, affine_map<(i, e) -> (i, e)>], iterator_types = ["parallel", "parallel"]}
      ins(%u, %sum : tensor<13x6xf32>, tensor<13xf32>) outs(%eo : tensor<13x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o2: f32):
    %r = arith.constant 1.0 : f32
    %ri = arith.divf %r, %b : f32
    %y = arith.mulf %ri, %a : f32
    linalg.yield %y : f32
  } -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// row sum computed by linalg.matvec with a ones vector
// CHECK-LABEL: func.func @sum_by_matvec_ones
// CHECK: flash.attention
// EXEC: sum_by_matvec_ones: raised=yes
func.func @sum_by_matvec_ones(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %ones = arith.constant dense<1.0> : tensor<17xf32>
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = math.exp %a : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %er = tensor.empty() : tensor<13xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.matvec ins(%e, %ones : tensor<13x17xf32>, tensor<17xf32>) outs(%si : tensor<13xf32>) -> tensor<13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<13x17xf32>, tensor<13xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.divf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// Q and K scaled by different factors (0.5 and 0.25 -> 0.125), K scaled by linalg.mul with splat tensor
// CHECK-LABEL: func.func @q_and_k_scaled_differently
// CHECK: flash.attention
// EXEC: q_and_k_scaled_differently: raised=yes
func.func @q_and_k_scaled_differently(%q: tensor<2x13x8xf32>, %k: tensor<2x17x8xf32>, %v: tensor<2x17x6xf32>) -> tensor<2x13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant dense<0.5> : tensor<2x13x8xf32>
  %quarter = arith.constant dense<0.25> : tensor<2x17x8xf32>
  %eq = tensor.empty() : tensor<2x13x8xf32>
  %qs = linalg.mul ins(%q, %half : tensor<2x13x8xf32>, tensor<2x13x8xf32>) outs(%eq : tensor<2x13x8xf32>) -> tensor<2x13x8xf32>
  %ek = tensor.empty() : tensor<2x17x8xf32>
  %ks = linalg.mul ins(%quarter, %k : tensor<2x17x8xf32>, tensor<2x17x8xf32>) outs(%ek : tensor<2x17x8xf32>) -> tensor<2x17x8xf32>
  %es = tensor.empty() : tensor<2x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%qs, %ks : tensor<2x13x8xf32>, tensor<2x17x8xf32>) outs(%zs : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x13x17xf32>) outs(%es : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %eo = tensor.empty() : tensor<2x13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x13x6xf32>) -> tensor<2x13x6xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x13x17xf32>, tensor<2x17x6xf32>) outs(%zo : tensor<2x13x6xf32>) -> tensor<2x13x6xf32>
  return %o : tensor<2x13x6xf32>
}

// -----

// scale computed in-function: 1 / sqrt(8.0) via math.sqrt on a constant outside the generic, divf on scores
// CHECK-LABEL: func.func @scale_computed_outside
// CHECK: flash.attention
// EXEC: scale_computed_outside: raised=yes
func.func @scale_computed_outside(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %d = arith.constant 8.0 : f32
  %sq = math.sqrt %d : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %sqt = linalg.fill ins(%sq : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %x = linalg.div ins(%s, %sqt : tensor<13x17xf32>, tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// constant shift (exp(s - 4.0)) instead of the max, and reciprocal via math.powf(-1)? no: 1/sum multiplied in; scale negative -0.3
// CHECK-LABEL: func.func @constant_shift_negative_scale
// CHECK: flash.attention
// EXEC: constant_shift_negative_scale: raised=yes
func.func @constant_shift_negative_scale(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant -0.3 : f32
    %sh = arith.constant 4.0 : f32
    %x = arith.mulf %c, %a : f32
    %d = arith.subf %x, %sh : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %er = tensor.empty() : tensor<13xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.reduce ins(%e : tensor<13x17xf32>) outs(%si : tensor<13xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %x = arith.addf %init, %in : f32
      linalg.yield %x : f32
    }
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<13x17xf32>, tensor<13xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.divf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// runtime scale as a scalar argument (torch sdpa scale=...), no checker (scalar arg)
// Raised: the factor goes into a score_mod (captured, read per element).
// CHECK-LABEL: func.func @runtime_scalar_scale
// CHECK: flash.attention
// CHECK-SAME: score_mod
func.func @runtime_scalar_scale(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>, %scale: f32) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.mulf %a, %scale : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// scale given as a splat tensor argument broadcast from tensor<1x1xf32> via maps (runtime 1x1 scale)
// Raised: the factor goes into a score_mod (captured, read per element).
// CHECK-LABEL: func.func @runtime_tensor_scale_1x1
// CHECK: flash.attention
// CHECK-SAME: score_mod
func.func @runtime_tensor_scale_1x1(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>, %scale: tensor<1x1xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (0, 0)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %scale : tensor<13x17xf32>, tensor<1x1xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// BERT extended mask: (1 - m) * -10000 from a [B,N] f32 keep mask broadcast to [B,1,1,Nk], on [B,H,N,D]
// CHECK-LABEL: func.func @bert_extended_mask
// CHECK: flash.attention
// EXEC: bert_extended_mask: raised=yes
func.func @bert_extended_mask(%q: tensor<2x3x13x8xf32>, %k: tensor<2x3x17x8xf32>, %v: tensor<2x3x17x8xf32>, %m: tensor<2x17xf32>) -> tensor<2x3x13x8xf32> {
  %zero = arith.constant 0.0 : f32
  %em = tensor.empty() : tensor<2x1x1x17xf32>
  %ext = linalg.generic {indexing_maps = [affine_map<(b, x, y, j) -> (b, j)>, affine_map<(b, x, y, j) -> (b, x, y, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%m : tensor<2x17xf32>) outs(%em : tensor<2x1x1x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %big = arith.constant -10000.0 : f32
    %d = arith.subf %one, %a : f32
    %y = arith.mulf %d, %big : f32
    linalg.yield %y : f32
  } -> tensor<2x1x1x17xf32>
  %es = tensor.empty() : tensor<2x3x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3x13x17xf32>) -> tensor<2x3x13x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x3x13x8xf32>, tensor<2x3x17x8xf32>) outs(%zs : tensor<2x3x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %mm = arith.mulf %a, %b : f32
    %r = arith.addf %c, %mm : f32
    linalg.yield %r : f32
  } -> tensor<2x3x13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, 0, 0, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %ext : tensor<2x3x13x17xf32>, tensor<2x1x1x17xf32>) outs(%es : tensor<2x3x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %sc = arith.constant 0.35355339 : f32
    %y = arith.mulf %a, %sc : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<2x3x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x3x13x17xf32>) outs(%es : tensor<2x3x13x17xf32>) -> tensor<2x3x13x17xf32>
  %eo = tensor.empty() : tensor<2x3x13x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x3x13x8xf32>) -> tensor<2x3x13x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x3x13x17xf32>, tensor<2x3x17x8xf32>) outs(%zo : tensor<2x3x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %mm = arith.mulf %a, %b : f32
    %r = arith.addf %c, %mm : f32
    linalg.yield %r : f32
  } -> tensor<2x3x13x8xf32>
  return %o : tensor<2x3x13x8xf32>
}

// -----

// additive float mask added BEFORE the scale: (s + M) * c  (mask gets scaled too)
// CHECK-LABEL: func.func @mask_added_before_scale
// CHECK: flash.attention
// EXEC: mask_added_before_scale: raised=yes
func.func @mask_added_before_scale(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>, %mk: tensor<13x17xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %mk : tensor<13x17xf32>, tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %t = arith.addf %a, %b : f32
    %y = arith.mulf %t, %c : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// causal mask built by tensor.generate (additive 0/-inf), Nq > Nk top-left
// CHECK-LABEL: func.func @causal_tensor_generate_nq_gt_nk
// CHECK: flash.attention
// EXEC: causal_tensor_generate_nq_gt_nk: raised=yes
func.func @causal_tensor_generate_nq_gt_nk(%q: tensor<17x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<17x6xf32> {
  %zero = arith.constant 0.0 : f32
  %mask = tensor.generate {
  ^bb0(%i: index, %j: index):
    %ninf = arith.constant 0xFF800000 : f32
    %z = arith.constant 0.0 : f32
    %c = arith.cmpi ule, %j, %i : index
    %r = arith.select %c, %z, %ninf : f32
    tensor.yield %r : f32
  } : tensor<17x13xf32>
  %es = tensor.empty() : tensor<17x13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<17x13xf32>) -> tensor<17x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<17x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<17x13xf32>) -> tensor<17x13xf32>
  %x = linalg.add ins(%s, %mask : tensor<17x13xf32>, tensor<17x13xf32>) outs(%es : tensor<17x13xf32>) -> tensor<17x13xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<17x13xf32>) outs(%es : tensor<17x13xf32>) -> tensor<17x13xf32>
  %eo = tensor.empty() : tensor<17x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<17x6xf32>) -> tensor<17x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<17x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<17x6xf32>) -> tensor<17x6xf32>
  return %o : tensor<17x6xf32>
}

// -----

// causal mask as a dense i1 constant (5x5 lower triangle), select with -1e9
// CHECK-LABEL: func.func @causal_dense_constant_mask
// CHECK: flash.attention
// EXEC: causal_dense_constant_mask: raised=yes
func.func @causal_dense_constant_mask(%q: tensor<5x8xf32>, %k: tensor<5x8xf32>, %v: tensor<5x6xf32>) -> tensor<5x6xf32> {
  %zero = arith.constant 0.0 : f32
  %mask = arith.constant dense<[[true, false, false, false, false], [true, true, false, false, false], [true, true, true, false, false], [true, true, true, true, false], [true, true, true, true, true]]> : tensor<5x5xi1>
  %es = tensor.empty() : tensor<5x5xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<5x5xf32>) -> tensor<5x5xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<5x8xf32>, tensor<5x8xf32>) outs(%zs : tensor<5x5xf32>) -> tensor<5x5xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %mask : tensor<5x5xf32>, tensor<5x5xi1>) outs(%es : tensor<5x5xf32>) {
  ^bb0(%a: f32, %b: i1, %o: f32):
    %big = arith.constant -3.40282347e+38 : f32
    %y = arith.select %b, %a, %big : f32
    linalg.yield %y : f32
  } -> tensor<5x5xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<5x5xf32>) outs(%es : tensor<5x5xf32>) -> tensor<5x5xf32>
  %eo = tensor.empty() : tensor<5x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<5x6xf32>) -> tensor<5x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<5x5xf32>, tensor<5x6xf32>) outs(%zo : tensor<5x6xf32>) -> tensor<5x6xf32>
  return %o : tensor<5x6xf32>
}

// -----

// key padding mask i1 [B, Nk] read directly through (b, h, i, j) -> (b, j) with select finfo.min, 4-D, mask applied after softmax-shift? no: before
// CHECK-LABEL: func.func @key_padding_i1_bn
// CHECK: flash.attention
// EXEC: key_padding_i1_bn: raised=yes
func.func @key_padding_i1_bn(%q: tensor<2x3x13x8xf32>, %k: tensor<2x3x17x8xf32>, %v: tensor<2x3x17x8xf32>, %m: tensor<2x17xi1>) -> tensor<2x3x13x8xf32> {
  %zero = arith.constant 0.0 : f32
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x3x13x8xf32> into tensor<6x13x8xf32>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x3x17x8xf32> into tensor<6x17x8xf32>
  %es3 = tensor.empty() : tensor<6x13x17xf32>
  %zs3 = linalg.fill ins(%zero : f32) outs(%es3 : tensor<6x13x17xf32>) -> tensor<6x13x17xf32>
  %s3 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q3, %k3 : tensor<6x13x8xf32>, tensor<6x17x8xf32>) outs(%zs3 : tensor<6x13x17xf32>) -> tensor<6x13x17xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 3, 13, 17] : tensor<6x13x17xf32> into tensor<2x3x13x17xf32>
  %es = tensor.empty() : tensor<2x3x13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<2x3x13x17xf32>, tensor<2x17xi1>) outs(%es : tensor<2x3x13x17xf32>) {
  ^bb0(%a: f32, %b: i1, %c: f32):
    %sc = arith.constant 0.35355339 : f32
    %big = arith.constant -3.40282347e+38 : f32
    %y = arith.mulf %a, %sc : f32
    %z = arith.select %b, %y, %big : f32
    linalg.yield %z : f32
  } -> tensor<2x3x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x3x13x17xf32>) outs(%es : tensor<2x3x13x17xf32>) -> tensor<2x3x13x17xf32>
  %eo = tensor.empty() : tensor<2x3x13x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x3x13x8xf32>) -> tensor<2x3x13x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x3x13x17xf32>, tensor<2x3x17x8xf32>) outs(%zo : tensor<2x3x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %mm = arith.mulf %a, %b : f32
    %r = arith.addf %c, %mm : f32
    linalg.yield %r : f32
  } -> tensor<2x3x13x8xf32>
  return %o : tensor<2x3x13x8xf32>
}

// -----

// causal expressed with affine.apply / arith.addi offsets on indices: keep iff j < i + 1 (cmpi slt), -inf via arith.minimumf? no: select
// CHECK-LABEL: func.func @causal_j_lt_i_plus_1
// CHECK: flash.attention
// EXEC: causal_j_lt_i_plus_1: raised=yes
func.func @causal_j_lt_i_plus_1(%q: tensor<2x13x8xf32>, %k: tensor<2x13x8xf32>, %v: tensor<2x13x6xf32>) -> tensor<2x13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x13x13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x13x13xf32>) -> tensor<2x13x13xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x13x8xf32>, tensor<2x13x8xf32>) outs(%zs : tensor<2x13x13xf32>) -> tensor<2x13x13xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x13x13xf32>) outs(%es : tensor<2x13x13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %c1 = arith.constant 1 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %i1 = arith.addi %i, %c1 : index
    %keep = arith.cmpi slt, %j, %i1 : index
    %y = arith.select %keep, %a, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<2x13x13xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x13x13xf32>) outs(%es : tensor<2x13x13xf32>) -> tensor<2x13x13xf32>
  %eo = tensor.empty() : tensor<2x13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x13x6xf32>) -> tensor<2x13x6xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x13x13xf32>, tensor<2x13x6xf32>) outs(%zo : tensor<2x13x6xf32>) -> tensor<2x13x6xf32>
  return %o : tensor<2x13x6xf32>
}

// -----

// causal applied via uitofp of the keep bit: s*keep + (1-keep)*finfo.min with keep from index compare
// CHECK-LABEL: func.func @causal_arith_blend
// CHECK: flash.attention
// EXEC: causal_arith_blend: raised=yes
func.func @causal_arith_blend(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %keep = arith.cmpi sle, %jj, %ii : i64
    %neg = arith.xori %keep, %true : i1
    %y = arith.select %neg, %ninf, %a : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @negative_norm_sum_read_at_j
// CHECK-NOT: flash.attention
func.func @negative_norm_sum_read_at_j(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %oo: f32):
    %y = math.exp %a0 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %sum_i = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<13x13xf32>) outs(%sum_i : tensor<13xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %y = arith.divf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  // expected-remark @+1 {{attention not raised: the softmax normalizes over a different axis than the one P*V contracts}}
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @negative_shift_by_max_read_at_j
// CHECK-NOT: flash.attention
func.func @negative_shift_by_max_read_at_j(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %m_i = linalg.fill ins(%ninf : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<13x13xf32>) outs(%m_i : tensor<13xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.maximumf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %d = arith.subf %a0, %a1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %sum_i = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<13x13xf32>) outs(%sum_i : tensor<13xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %y = arith.divf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  // expected-remark @+1 {{attention not raised: the softmax subtracts a max taken over the query axis, not the key axis}}
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @negative_numerator_unshifted_denominator_shifted
// CHECK-NOT: flash.attention
func.func @negative_numerator_unshifted_denominator_shifted(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %m_i = linalg.fill ins(%ninf : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<13x13xf32>) outs(%m_i : tensor<13xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.maximumf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %d = arith.subf %a0, %a1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %sum_i = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<13x13xf32>) outs(%sum_i : tensor<13xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %sum : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %x = math.exp %a0 : f32
    %y = arith.divf %x, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  // expected-remark @+1 {{attention not raised: the softmax divides by something other than the sum of its numerators over the keys P*V contracts}}
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @negative_pv_contracts_query_square
// CHECK-NOT: flash.attention
func.func @negative_pv_contracts_query_square(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  // expected-remark @+1 {{attention not raised: the softmax normalizes over a different axis than the one P*V contracts}}
  %o = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @negative_no_exp_linear_norm
// CHECK-NOT: flash.attention
func.func @negative_no_exp_linear_norm(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %sum_i = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<13x13xf32>) outs(%sum_i : tensor<13xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %sum : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %y = arith.divf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @negative_eps_in_denominator
// CHECK-NOT: flash.attention
func.func @negative_eps_in_denominator(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %oo: f32):
    %y = math.exp %a0 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %sum_i = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<13x13xf32>) outs(%sum_i : tensor<13xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %eps = arith.constant 1.0e-1 : f32
    %t = arith.addf %a1, %eps : f32
    %y = arith.divf %a0, %t : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  // expected-remark @+1 {{attention not raised: the softmax divides by something other than the sum of its numerators over the keys P*V contracts}}
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @negative_sigmoid_attention
// CHECK-NOT: flash.attention
func.func @negative_sigmoid_attention(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %oo: f32):
    %n = arith.negf %a0 : f32
    %x = math.exp %n : f32
    %t = arith.addf %x, %one : f32
    %y = arith.divf %one, %t : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  // expected-remark @+1 {{attention not raised: the probabilities are modified between the softmax and P*V (e.g. dropout or a mask applied after the softmax)}}
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @negative_mask_on_score_sign
// CHECK-NOT: flash.attention
func.func @negative_mask_on_score_sign(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %oo: f32):
    %c = arith.cmpf ogt, %a0, %zero : f32
    %y = arith.select %c, %a0, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  // expected-remark @+1 {{attention not raised: the mask depends on the scores}}
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @negative_probs_squared
// CHECK-NOT: flash.attention
func.func @negative_probs_squared(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %p0 = linalg.softmax dimension(1) ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%p0 : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %oo: f32):
    %y = arith.mulf %a0, %a0 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  // expected-remark @+1 {{attention not raised: the probabilities are multiplied by another exponential of the scores before P*V (a power of the softmax's numerator: P * P, e * e / sum e)}}
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @negative_dropout_rescaled
// CHECK-NOT: flash.attention
func.func @negative_dropout_rescaled(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>, %dm: tensor<13x13xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %p0 = linalg.softmax dimension(1) ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%p0, %dm : tensor<13x13xf32>, tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %c = arith.constant 1.25 : f32
    %t = arith.mulf %a0, %a1 : f32
    %y = arith.mulf %t, %c : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  // expected-remark @+1 {{attention not raised: the probabilities are multiplied by a tensor that varies per element (dropout-like) before P*V}}
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @negative_p_returned_second
// CHECK-NOT: flash.attention
func.func @negative_p_returned_second(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> (tensor<13x6xf32>, tensor<13x13xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  // expected-remark @+1 {{attention not raised: the probabilities are also used by 'func.return' (e.g. returned), not only by P*V and its backward}}
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o, %p : tensor<13x6xf32>, tensor<13x13xf32>
}

// -----

// CHECK-LABEL: func.func @negative_shift_by_column_max
// CHECK-NOT: flash.attention
func.func @negative_shift_by_column_max(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %m_i = linalg.fill ins(%ninf : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]}
      ins(%s : tensor<13x13xf32>) outs(%m_i : tensor<13xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.maximumf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %d = arith.subf %a0, %a1 : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %sum_i = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<13x13xf32>) outs(%sum_i : tensor<13xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %y = arith.divf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  // expected-remark @+1 {{attention not raised: the softmax subtracts a max taken over the query axis, not the key axis}}
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @negative_norm_over_query_axis
// CHECK-NOT: flash.attention
func.func @negative_norm_over_query_axis(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %oo: f32):
    %y = math.exp %a0 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %sum_i = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]}
      ins(%e : tensor<13x13xf32>) outs(%sum_i : tensor<13xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %y = arith.divf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  // expected-remark @+1 {{attention not raised: the softmax normalizes over a different axis than the one P*V contracts}}
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @negative_denominator_different_scale
// CHECK-NOT: flash.attention
func.func @negative_denominator_different_scale(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %oo: f32):
    %y = math.exp %a0 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %e2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %oo: f32):
    %c2 = arith.constant 2.0 : f32
    %t = arith.mulf %a0, %c2 : f32
    %y = math.exp %t : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %sum_i = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%e2 : tensor<13x13xf32>) outs(%sum_i : tensor<13xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %y = arith.divf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  // expected-remark @+1 {{attention not raised: the softmax divides by something other than the sum of its numerators over the keys P*V contracts}}
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @causal_mask_applied_after_exp
// CHECK: flash.attention
// EXEC: causal_mask_applied_after_exp: raised=yes
func.func @causal_mask_applied_after_exp(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %oo: f32):
    %y = math.exp %a0 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi ule, %j, %i : index
    %z = arith.select %c, %y, %zero : f32
    linalg.yield %z : f32
  } -> tensor<13x13xf32>
  %sum_i = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<13x13xf32>) outs(%sum_i : tensor<13xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %y = arith.divf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @k_is_q_tied
// CHECK: flash.attention
// EXEC: k_is_q_tied: raised=yes
func.func @k_is_q_tied(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %q : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @global_max_shift
// CHECK: flash.attention
// EXEC: global_max_shift: raised=yes
func.func @global_max_shift(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %gi = tensor.empty() : tensor<f32>
  %g0 = linalg.fill ins(%ninf : f32) outs(%gi : tensor<f32>) -> tensor<f32>
  %g = linalg.reduce ins(%s : tensor<13x13xf32>) outs(%g0 : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %init: f32) {
      %x = arith.maximumf %in, %init : f32
      linalg.yield %x : f32
    }
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %g : tensor<13x13xf32>, tensor<f32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %sum_i = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<13x13xf32>) outs(%sum_i : tensor<13xf32>) {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %y = arith.divf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// joint, 3-D, batch_matmul with maps only (no linalg.transpose), scale on Q, distributed dS = P*dP - P*delta,
// delta = rowsum(dO * O), dQ = (dS K) * c, dK = dS^T qs
// CHECK-LABEL: func.func @joint_maps_distributed_ds
// CHECK: flash.attention
// EXEC: joint_maps_distributed_ds: raised=yes
func.func @joint_maps_distributed_ds(%q: tensor<2x13x8xf32>, %k: tensor<2x17x8xf32>, %v: tensor<2x17x8xf32>, %do: tensor<2x13x8xf32>)
    -> (tensor<2x13x8xf32>, tensor<2x13x8xf32>, tensor<2x17x8xf32>, tensor<2x17x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %eq = tensor.empty() : tensor<2x13x8xf32>
  %zq = linalg.fill ins(%zero : f32) outs(%eq : tensor<2x13x8xf32>) -> tensor<2x13x8xf32>
  %ek = tensor.empty() : tensor<2x17x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x17x8xf32>) -> tensor<2x17x8xf32>
  %es = tensor.empty() : tensor<2x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %er = tensor.empty() : tensor<2x13xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x13xf32>) -> tensor<2x13xf32>
  %qs = linalg.generic {indexing_maps = [affine_map<(b, i, d) -> (b, i, d)>, affine_map<(b, i, d) -> (b, i, d)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q : tensor<2x13x8xf32>) outs(%eq : tensor<2x13x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x13x8xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%qs, %k : tensor<2x13x8xf32>, tensor<2x17x8xf32>) outs(%zs : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x13x17xf32>) outs(%es : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x13x17xf32>, tensor<2x17x8xf32>) outs(%zq : tensor<2x13x8xf32>) -> tensor<2x13x8xf32>
  // dV = P^T dO via maps
  %dv = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%p, %do : tensor<2x13x17xf32>, tensor<2x13x8xf32>) outs(%zk : tensor<2x17x8xf32>) -> tensor<2x17x8xf32>
  // dP = dO V^T
  %dp = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%do, %v : tensor<2x13x8xf32>, tensor<2x17x8xf32>) outs(%zs : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  // delta = rowsum(dO * O)
  %delta = linalg.generic {indexing_maps = [affine_map<(b, i, e) -> (b, i, e)>, affine_map<(b, i, e) -> (b, i, e)>, affine_map<(b, i, e) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%do, %o : tensor<2x13x8xf32>, tensor<2x13x8xf32>) outs(%zr : tensor<2x13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x13xf32>
  %pdp = linalg.mul ins(%p, %dp : tensor<2x13x17xf32>, tensor<2x13x17xf32>) outs(%es : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%pdp, %p, %delta : tensor<2x13x17xf32>, tensor<2x13x17xf32>, tensor<2x13xf32>) outs(%es : tensor<2x13x17xf32>) {
  ^bb0(%a: f32, %pp: f32, %r: f32, %out: f32):
    %t = arith.mulf %pp, %r : f32
    %y = arith.subf %a, %t : f32
    linalg.yield %y : f32
  } -> tensor<2x13x17xf32>
  %dqs = linalg.batch_matmul ins(%ds, %k : tensor<2x13x17xf32>, tensor<2x17x8xf32>) outs(%zq : tensor<2x13x8xf32>) -> tensor<2x13x8xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(b, i, d) -> (b, i, d)>, affine_map<(b, i, d) -> (b, i, d)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%dqs : tensor<2x13x8xf32>) outs(%eq : tensor<2x13x8xf32>) {
  ^bb0(%a: f32, %o2: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x13x8xf32>
  %dk = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%ds, %qs : tensor<2x13x17xf32>, tensor<2x13x8xf32>) outs(%zk : tensor<2x17x8xf32>) -> tensor<2x17x8xf32>
  return %o, %dq, %dk, %dv : tensor<2x13x8xf32>, tensor<2x13x8xf32>, tensor<2x17x8xf32>, tensor<2x17x8xf32>
}

// -----

// joint 2-D, decomposed softmax (max/exp/sum/div generics), causal Nq=Nk with finfo.min, only O, dQ and dV returned (no dK),
// returned in the order dV, O, dQ
// CHECK-LABEL: func.func @joint_decomposed_causal_partial
// CHECK: flash.attention
// EXEC: joint_decomposed_causal_partial: raised=yes
func.func @joint_decomposed_causal_partial(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>, %do: tensor<13x6xf32>)
    -> (tensor<13x6xf32>, tensor<13x6xf32>, tensor<13x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %mr = linalg.fill ins(%ninf : f32) outs(%er : tensor<13xf32>) -> tensor<13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %lowest = arith.constant -3.40282347e+38 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %gt = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %a, %c : f32
    %r = arith.select %gt, %lowest, %y : f32
    linalg.yield %r : f32
  } -> tensor<13x13xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<13x13xf32>) outs(%mr : tensor<13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.maxnumf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<13xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<13x13xf32>) outs(%zr : tensor<13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %o : f32
    linalg.yield %y : f32
  } -> tensor<13xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.divf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %ev = tensor.empty() : tensor<13x6xf32>
  %zv = linalg.fill ins(%zero : f32) outs(%ev : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zv : tensor<13x6xf32>) -> tensor<13x6xf32>
  %ept = tensor.empty() : tensor<13x13xf32>
  %pt = linalg.transpose ins(%p : tensor<13x13xf32>) outs(%ept : tensor<13x13xf32>) permutation = [1, 0]
  %dv = linalg.matmul ins(%pt, %do : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zv : tensor<13x6xf32>) -> tensor<13x6xf32>
  %dp = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%do, %v : tensor<13x6xf32>, tensor<13x6xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%dp, %p : tensor<13x13xf32>, tensor<13x13xf32>) outs(%zr : tensor<13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %mm = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %mm : f32
    linalg.yield %y : f32
  } -> tensor<13xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<13x13xf32>, tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %pp, %d : f32
    %z = arith.mulf %y, %c : f32
    linalg.yield %z : f32
  } -> tensor<13x13xf32>
  %eq = tensor.empty() : tensor<13x8xf32>
  %zq = linalg.fill ins(%zero : f32) outs(%eq : tensor<13x8xf32>) -> tensor<13x8xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<13x13xf32>, tensor<13x8xf32>) outs(%zq : tensor<13x8xf32>) -> tensor<13x8xf32>
  return %dv, %o, %dq : tensor<13x6xf32>, tensor<13x6xf32>, tensor<13x8xf32>
}

// -----

// joint 4-D [B,N,H,D] (HF layout) with generics reading the permuted layout directly, scale on scores
// CHECK-LABEL: func.func @joint_bnhd_generics
// CHECK: flash.attention
// EXEC: joint_bnhd_generics: raised=yes
func.func @joint_bnhd_generics(%q: tensor<2x13x3x8xf32>, %k: tensor<2x17x3x8xf32>, %v: tensor<2x17x3x8xf32>, %do: tensor<2x13x3x8xf32>)
    -> (tensor<2x13x3x8xf32>, tensor<2x13x3x8xf32>, tensor<2x17x3x8xf32>, tensor<2x17x3x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %eq = tensor.empty() : tensor<2x13x3x8xf32>
  %zq = linalg.fill ins(%zero : f32) outs(%eq : tensor<2x13x3x8xf32>) -> tensor<2x13x3x8xf32>
  %ek = tensor.empty() : tensor<2x17x3x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x17x3x8xf32>) -> tensor<2x17x3x8xf32>
  %es = tensor.empty() : tensor<2x3x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3x13x17xf32>) -> tensor<2x3x13x17xf32>
  %er = tensor.empty() : tensor<2x3x13xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x3x13xf32>) -> tensor<2x3x13xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x13x3x8xf32>, tensor<2x17x3x8xf32>) outs(%zs : tensor<2x3x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x3x13x17xf32>) outs(%es : tensor<2x3x13x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x3x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x3x13x17xf32>) outs(%es : tensor<2x3x13x17xf32>) -> tensor<2x3x13x17xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, j, h, e)>, affine_map<(b, h, i, e, j) -> (b, i, h, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x3x13x17xf32>, tensor<2x17x3x8xf32>) outs(%zq : tensor<2x13x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x13x3x8xf32>
  // dV[b,j,h,e] = sum_i P[b,h,i,j] dO[b,i,h,e]
  %dv = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, i, h, e)>, affine_map<(b, h, j, e, i) -> (b, j, h, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %do : tensor<2x3x13x17xf32>, tensor<2x13x3x8xf32>) outs(%zk : tensor<2x17x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x17x3x8xf32>
  // dP[b,h,i,j] = sum_e dO[b,i,h,e] V[b,j,h,e]
  %dp = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, i, h, e)>, affine_map<(b, h, i, j, e) -> (b, j, h, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<2x13x3x8xf32>, tensor<2x17x3x8xf32>) outs(%zs : tensor<2x3x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x13x17xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%dp, %p : tensor<2x3x13x17xf32>, tensor<2x3x13x17xf32>) outs(%zr : tensor<2x3x13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x3x13xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<2x3x13x17xf32>, tensor<2x3x13x17xf32>, tensor<2x3x13xf32>) outs(%es : tensor<2x3x13x17xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %pp, %d : f32
    %z = arith.mulf %c, %y : f32
    linalg.yield %z : f32
  } -> tensor<2x3x13x17xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, j, h, d)>, affine_map<(b, h, i, d, j) -> (b, i, h, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %k : tensor<2x3x13x17xf32>, tensor<2x17x3x8xf32>) outs(%zq : tensor<2x13x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x13x3x8xf32>
  %dk = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, i, h, d)>, affine_map<(b, h, j, d, i) -> (b, j, h, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %q : tensor<2x3x13x17xf32>, tensor<2x13x3x8xf32>) outs(%zk : tensor<2x17x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x17x3x8xf32>
  return %o, %dq, %dk, %dv : tensor<2x13x3x8xf32>, tensor<2x13x3x8xf32>, tensor<2x17x3x8xf32>, tensor<2x17x3x8xf32>
}

// -----

// GQA as JAX-style grouped einsum: Q reshaped [B, Hkv, G, N, D], K [B, Hkv, N, D] read without G
// CHECK-LABEL: func.func @gqa_grouped_5d_einsum
// CHECK: flash.attention
// EXEC: gqa_grouped_5d_einsum: raised=yes
func.func @gqa_grouped_5d_einsum(%q: tensor<2x6x13x8xf32>, %k: tensor<2x2x17x8xf32>, %v: tensor<2x2x17x8xf32>) -> tensor<2x6x13x8xf32> {
  %zero = arith.constant 0.0 : f32
  %q5 = tensor.expand_shape %q [[0], [1, 2], [3], [4]] output_shape [2, 2, 3, 13, 8] : tensor<2x6x13x8xf32> into tensor<2x2x3x13x8xf32>
  %es = tensor.empty() : tensor<2x2x3x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x3x13x17xf32>) -> tensor<2x2x3x13x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, g, i, j, d) -> (b, h, g, i, d)>, affine_map<(b, h, g, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, g, i, j, d) -> (b, h, g, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q5, %k : tensor<2x2x3x13x8xf32>, tensor<2x2x17x8xf32>) outs(%zs : tensor<2x2x3x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x13x17xf32>
  %p = linalg.softmax dimension(4) ins(%s : tensor<2x2x3x13x17xf32>) outs(%es : tensor<2x2x3x13x17xf32>) -> tensor<2x2x3x13x17xf32>
  %eo = tensor.empty() : tensor<2x2x3x13x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x3x13x8xf32>) -> tensor<2x2x3x13x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, g, i, e, j) -> (b, h, g, i, j)>, affine_map<(b, h, g, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, g, i, e, j) -> (b, h, g, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x3x13x17xf32>, tensor<2x2x17x8xf32>) outs(%zo : tensor<2x2x3x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x13x8xf32>
  %o4 = tensor.collapse_shape %o [[0], [1, 2], [3], [4]] : tensor<2x2x3x13x8xf32> into tensor<2x6x13x8xf32>
  return %o4 : tensor<2x6x13x8xf32>
}

// -----

// GQA via tensor.concat of K/V along heads in interleaved order is NOT grouped: use block order k0,k0,k0,k1,k1,k1 via concat of broadcasts
// CHECK-LABEL: func.func @gqa_concat_broadcast_blocks
// CHECK: flash.attention
// EXEC: gqa_concat_broadcast_blocks: raised=yes
func.func @gqa_concat_broadcast_blocks(%q: tensor<6x13x8xf32>, %k: tensor<2x17x8xf32>, %v: tensor<2x17x8xf32>) -> tensor<6x13x8xf32> {
  %zero = arith.constant 0.0 : f32
  %k0 = tensor.extract_slice %k[0, 0, 0] [1, 17, 8] [1, 1, 1] : tensor<2x17x8xf32> to tensor<17x8xf32>
  %k1 = tensor.extract_slice %k[1, 0, 0] [1, 17, 8] [1, 1, 1] : tensor<2x17x8xf32> to tensor<17x8xf32>
  %v0 = tensor.extract_slice %v[0, 0, 0] [1, 17, 8] [1, 1, 1] : tensor<2x17x8xf32> to tensor<17x8xf32>
  %v1 = tensor.extract_slice %v[1, 0, 0] [1, 17, 8] [1, 1, 1] : tensor<2x17x8xf32> to tensor<17x8xf32>
  %eb = tensor.empty() : tensor<3x17x8xf32>
  %kb0 = linalg.broadcast ins(%k0 : tensor<17x8xf32>) outs(%eb : tensor<3x17x8xf32>) dimensions = [0]
  %kb1 = linalg.broadcast ins(%k1 : tensor<17x8xf32>) outs(%eb : tensor<3x17x8xf32>) dimensions = [0]
  %vb0 = linalg.broadcast ins(%v0 : tensor<17x8xf32>) outs(%eb : tensor<3x17x8xf32>) dimensions = [0]
  %vb1 = linalg.broadcast ins(%v1 : tensor<17x8xf32>) outs(%eb : tensor<3x17x8xf32>) dimensions = [0]
  %kr = tensor.concat dim(0) %kb0, %kb1 : (tensor<3x17x8xf32>, tensor<3x17x8xf32>) -> tensor<6x17x8xf32>
  %vr = tensor.concat dim(0) %vb0, %vb1 : (tensor<3x17x8xf32>, tensor<3x17x8xf32>) -> tensor<6x17x8xf32>
  %es = tensor.empty() : tensor<6x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<6x13x17xf32>) -> tensor<6x13x17xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %kr : tensor<6x13x8xf32>, tensor<6x17x8xf32>) outs(%zs : tensor<6x13x17xf32>) -> tensor<6x13x17xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<6x13x17xf32>) outs(%es : tensor<6x13x17xf32>) -> tensor<6x13x17xf32>
  %eo = tensor.empty() : tensor<6x13x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x13x8xf32>) -> tensor<6x13x8xf32>
  %o = linalg.batch_matmul ins(%p, %vr : tensor<6x13x17xf32>, tensor<6x17x8xf32>) outs(%zo : tensor<6x13x8xf32>) -> tensor<6x13x8xf32>
  return %o : tensor<6x13x8xf32>
}

// -----

// MQA: K/V 2-D [N, D] shared by all batch*heads via batch_matmul maps without batch dim? Use generic: K read (j, d)
// CHECK-LABEL: func.func @mqa_shared_kv_2d
// CHECK: flash.attention
// EXEC: mqa_shared_kv_2d: raised=yes
func.func @mqa_shared_kv_2d(%q: tensor<2x4x13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x8xf32>) -> tensor<2x4x13x8xf32> {
  %zero = arith.constant 0.0 : f32
  %q3 = tensor.collapse_shape %q [[0, 1, 2], [3]] : tensor<2x4x13x8xf32> into tensor<104x8xf32>
  %es = tensor.empty() : tensor<104x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<104x17xf32>) -> tensor<104x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q3, %k : tensor<104x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<104x17xf32>) -> tensor<104x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<104x17xf32>) outs(%es : tensor<104x17xf32>) -> tensor<104x17xf32>
  %eo = tensor.empty() : tensor<104x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<104x8xf32>) -> tensor<104x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<104x17xf32>, tensor<17x8xf32>) outs(%zo : tensor<104x8xf32>) -> tensor<104x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1, 2], [3]] output_shape [2, 4, 13, 8] : tensor<104x8xf32> into tensor<2x4x13x8xf32>
  return %o4 : tensor<2x4x13x8xf32>
}

// -----

// GQA with heads in [B,N,H,D] layout, repeat_kv via linalg.generic writing [B,N,Hkv,G,D] and collapse; f16 inputs with extf
// CHECK-LABEL: func.func @gqa_bnhd_generic_repeat_f16
// CHECK: flash.attention
// EXEC: gqa_bnhd_generic_repeat_f16: raised=yes
func.func @gqa_bnhd_generic_repeat_f16(%q: tensor<2x13x4x8xf16>, %k: tensor<2x17x2x8xf16>, %v: tensor<2x17x2x8xf16>) -> tensor<2x13x4x8xf16> {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<2x17x2x2x8xf16>
  %kr5 = linalg.generic {indexing_maps = [affine_map<(b, j, h, g, d) -> (b, j, h, d)>, affine_map<(b, j, h, g, d) -> (b, j, h, g, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<2x17x2x8xf16>) outs(%er : tensor<2x17x2x2x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    linalg.yield %a : f16
  } -> tensor<2x17x2x2x8xf16>
  %vr5 = linalg.generic {indexing_maps = [affine_map<(b, j, h, g, d) -> (b, j, h, d)>, affine_map<(b, j, h, g, d) -> (b, j, h, g, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<2x17x2x8xf16>) outs(%er : tensor<2x17x2x2x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    linalg.yield %a : f16
  } -> tensor<2x17x2x2x8xf16>
  %kr = tensor.collapse_shape %kr5 [[0], [1], [2, 3], [4]] : tensor<2x17x2x2x8xf16> into tensor<2x17x4x8xf16>
  %vr = tensor.collapse_shape %vr5 [[0], [1], [2, 3], [4]] : tensor<2x17x2x2x8xf16> into tensor<2x17x4x8xf16>
  %es = tensor.empty() : tensor<2x4x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x13x4x8xf16>, tensor<2x17x4x8xf16>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %ph = arith.truncf %p : tensor<2x4x13x17xf32> to tensor<2x4x13x17xf16>
  %zh = arith.constant 0.0 : f16
  %eo = tensor.empty() : tensor<2x13x4x8xf16>
  %zo = linalg.fill ins(%zh : f16) outs(%eo : tensor<2x13x4x8xf16>) -> tensor<2x13x4x8xf16>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, j, h, e)>, affine_map<(b, h, i, e, j) -> (b, i, h, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ph, %vr : tensor<2x4x13x17xf16>, tensor<2x17x4x8xf16>) outs(%zo : tensor<2x13x4x8xf16>) {
  ^bb0(%a: f16, %b: f16, %c: f16):
    %m = arith.mulf %a, %b : f16
    %r = arith.addf %c, %m : f16
    linalg.yield %r : f16
  } -> tensor<2x13x4x8xf16>
  return %o : tensor<2x13x4x8xf16>
}

// -----

// minimal: f16 inputs, QK^T generic with extf inside the body, f32 softmax, P·V f32 via generic extf
// CHECK-LABEL: func.func @f16_extf_in_generic_body
// CHECK: flash.attention
// EXEC: f16_extf_in_generic_body: raised=yes
func.func @f16_extf_in_generic_body(%q: tensor<13x8xf16>, %k: tensor<17x8xf16>, %v: tensor<17x6xf16>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<13x8xf16>, tensor<17x8xf16>) outs(%zs : tensor<13x17xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf16>) outs(%zo : tensor<13x6xf32>) {
  ^bb0(%a: f32, %b: f16, %c: f32):
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// f16 extf done as separate tensor ops (arith.extf on tensors), then f32 attention
// CHECK-LABEL: func.func @f16_tensor_extf
// CHECK: flash.attention
// EXEC: f16_tensor_extf: raised=yes
func.func @f16_tensor_extf(%q: tensor<13x8xf16>, %k: tensor<17x8xf16>, %v: tensor<17x6xf16>) -> tensor<13x6xf16> {
  %zero = arith.constant 0.0 : f32
  %q32 = arith.extf %q : tensor<13x8xf16> to tensor<13x8xf32>
  %k32 = arith.extf %k : tensor<17x8xf16> to tensor<17x8xf32>
  %v32 = arith.extf %v : tensor<17x6xf16> to tensor<17x6xf32>
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q32, %k32 : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v32 : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %oh = arith.truncf %o : tensor<13x6xf32> to tensor<13x6xf16>
  return %oh : tensor<13x6xf16>
}

// -----

// bf16: scores truncated to bf16 then softmax in bf16 (all-bf16 program), P·V bf16 matmul
// CHECK-LABEL: func.func @bf16_all_low_precision
// CHECK: flash.attention
// EXEC: bf16_all_low_precision: raised=yes
func.func @bf16_all_low_precision(%q: tensor<13x8xbf16>, %k: tensor<17x8xbf16>, %v: tensor<17x6xbf16>) -> tensor<13x6xbf16> {
  %zero = arith.constant 0.0 : bf16
  %es = tensor.empty() : tensor<13x17xbf16>
  %zs = linalg.fill ins(%zero : bf16) outs(%es : tensor<13x17xbf16>) -> tensor<13x17xbf16>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xbf16>, tensor<17x8xbf16>) outs(%zs : tensor<13x17xbf16>) -> tensor<13x17xbf16>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xbf16>) outs(%es : tensor<13x17xbf16>) -> tensor<13x17xbf16>
  %eo = tensor.empty() : tensor<13x6xbf16>
  %zo = linalg.fill ins(%zero : bf16) outs(%eo : tensor<13x6xbf16>) -> tensor<13x6xbf16>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xbf16>, tensor<17x6xbf16>) outs(%zo : tensor<13x6xbf16>) -> tensor<13x6xbf16>
  return %o : tensor<13x6xbf16>
}

// -----

// GQA with heads in [B,N,H,D] layout, repeat_kv via linalg.generic writing [B,N,Hkv,G,D] and collapse; f16 inputs with extf
// CHECK-LABEL: func.func @v1_noscale
// CHECK: flash.attention
// EXEC: v1_noscale: raised=yes
func.func @v1_noscale(%q: tensor<2x13x4x8xf16>, %kr: tensor<2x17x4x8xf16>, %vr: tensor<2x17x4x8xf16>) -> tensor<2x13x4x8xf16> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x4x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x13x4x8xf16>, tensor<2x17x4x8xf16>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %ph = arith.truncf %p : tensor<2x4x13x17xf32> to tensor<2x4x13x17xf16>
  %zh = arith.constant 0.0 : f16
  %eo = tensor.empty() : tensor<2x13x4x8xf16>
  %zo = linalg.fill ins(%zh : f16) outs(%eo : tensor<2x13x4x8xf16>) -> tensor<2x13x4x8xf16>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, j, h, e)>, affine_map<(b, h, i, e, j) -> (b, i, h, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ph, %vr : tensor<2x4x13x17xf16>, tensor<2x17x4x8xf16>) outs(%zo : tensor<2x13x4x8xf16>) {
  ^bb0(%a: f16, %b: f16, %c: f16):
    %m = arith.mulf %a, %b : f16
    %r = arith.addf %c, %m : f16
    linalg.yield %r : f16
  } -> tensor<2x13x4x8xf16>
  return %o : tensor<2x13x4x8xf16>
}

// -----

// GQA with heads in [B,N,H,D] layout, repeat_kv via linalg.generic writing [B,N,Hkv,G,D] and collapse; f16 inputs with extf
// CHECK-LABEL: func.func @v2_pv_f32
// CHECK: flash.attention
// EXEC: v2_pv_f32: raised=yes
func.func @v2_pv_f32(%q: tensor<2x13x4x8xf16>, %kr: tensor<2x17x4x8xf16>, %vr: tensor<2x17x4x8xf16>) -> tensor<2x13x4x8xf16> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x4x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x13x4x8xf16>, tensor<2x17x4x8xf16>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %zh = arith.constant 0.0 : f16
  %eo = tensor.empty() : tensor<2x13x4x8xf16>
  %zo = linalg.fill ins(%zh : f16) outs(%eo : tensor<2x13x4x8xf16>) -> tensor<2x13x4x8xf16>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, j, h, e)>, affine_map<(b, h, i, e, j) -> (b, i, h, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vr : tensor<2x4x13x17xf32>, tensor<2x17x4x8xf16>) outs(%zo : tensor<2x13x4x8xf16>) {
  ^bb0(%a: f32, %b: f16, %c: f16):
    %b32 = arith.extf %b : f16 to f32
    %c32 = arith.extf %c : f16 to f32
    %m = arith.mulf %a, %b32 : f32
    %r = arith.addf %c32, %m : f32
    %rh = arith.truncf %r : f32 to f16
    linalg.yield %rh : f16
  } -> tensor<2x13x4x8xf16>
  return %o : tensor<2x13x4x8xf16>
}

// -----

// CHECK-LABEL: func.func @v3_2d_p_trunc_f16_pv
// CHECK: flash.attention
// EXEC: v3_2d_p_trunc_f16_pv: raised=yes
func.func @v3_2d_p_trunc_f16_pv(%q: tensor<13x8xf16>, %k: tensor<17x8xf16>, %v: tensor<17x6xf16>) -> tensor<13x6xf16> {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf16>, tensor<17x8xf16>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %ph = arith.truncf %p : tensor<13x17xf32> to tensor<13x17xf16>
  %eo = tensor.empty() : tensor<13x6xf16>
  %zo = linalg.fill ins(%zh : f16) outs(%eo : tensor<13x6xf16>) -> tensor<13x6xf16>
  %o = linalg.matmul ins(%ph, %v : tensor<13x17xf16>, tensor<17x6xf16>) outs(%zo : tensor<13x6xf16>) -> tensor<13x6xf16>
  return %o : tensor<13x6xf16>
}

// -----

// CHECK-LABEL: func.func @v4_2d_generic_pv
// CHECK: flash.attention
// EXEC: v4_2d_generic_pv: raised=yes
func.func @v4_2d_generic_pv(%q: tensor<13x8xf16>, %k: tensor<17x8xf16>, %v: tensor<17x6xf16>) -> tensor<13x6xf16> {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf16>, tensor<17x8xf16>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %ph = arith.truncf %p : tensor<13x17xf32> to tensor<13x17xf16>
  %eo = tensor.empty() : tensor<13x6xf16>
  %zo = linalg.fill ins(%zh : f16) outs(%eo : tensor<13x6xf16>) -> tensor<13x6xf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ph, %v : tensor<13x17xf16>, tensor<17x6xf16>) outs(%zo : tensor<13x6xf16>) {
  ^bb0(%a: f16, %b: f16, %c: f16):
    %m = arith.mulf %a, %b : f16
    %r = arith.addf %c, %m : f16
    linalg.yield %r : f16
  } -> tensor<13x6xf16>
  return %o : tensor<13x6xf16>
}

// -----

// CHECK-LABEL: func.func @v5_generic_trunc_f16_accum
// CHECK: flash.attention
// EXEC: v5_generic_trunc_f16_accum: raised=yes
func.func @v5_generic_trunc_f16_accum(%q: tensor<13x8xf16>, %k: tensor<17x8xf16>, %v: tensor<17x6xf16>) -> tensor<13x6xf16> {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf16>, tensor<17x8xf16>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eh = tensor.empty() : tensor<13x17xf16>
  %ph = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<13x17xf32>) outs(%eh : tensor<13x17xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<13x17xf16>
  %eo = tensor.empty() : tensor<13x6xf16>
  %zo = linalg.fill ins(%zh : f16) outs(%eo : tensor<13x6xf16>) -> tensor<13x6xf16>
  %o = linalg.matmul ins(%ph, %v : tensor<13x17xf16>, tensor<17x6xf16>) outs(%zo : tensor<13x6xf16>) -> tensor<13x6xf16>
  return %o : tensor<13x6xf16>
}

// -----

// CHECK-LABEL: func.func @v6_tensor_truncf_f32_accum
// CHECK: flash.attention
// EXEC: v6_tensor_truncf_f32_accum: raised=yes
func.func @v6_tensor_truncf_f32_accum(%q: tensor<13x8xf16>, %k: tensor<17x8xf16>, %v: tensor<17x6xf16>) -> tensor<13x6xf16> {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf16>, tensor<17x8xf16>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %ph = arith.truncf %p : tensor<13x17xf32> to tensor<13x17xf16>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%ph, %v : tensor<13x17xf16>, tensor<17x6xf16>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %oh = arith.truncf %o : tensor<13x6xf32> to tensor<13x6xf16>
  return %oh : tensor<13x6xf16>
}

// -----

// P·V generic: f32 P, f16 V, f16 accumulator; body extf(acc) + P*extf(V) then truncf
// CHECK-LABEL: func.func @pv_body_extf_acc_truncf
// CHECK: flash.attention
// EXEC: pv_body_extf_acc_truncf: raised=yes
func.func @pv_body_extf_acc_truncf(%q: tensor<13x8xf16>, %k: tensor<17x8xf16>, %v: tensor<17x6xf16>) -> tensor<13x6xf16> {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf16>, tensor<17x8xf16>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf16>
  %zo = linalg.fill ins(%zh : f16) outs(%eo : tensor<13x6xf16>) -> tensor<13x6xf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf16>) outs(%zo : tensor<13x6xf16>) {
  ^bb0(%a: f32, %b: f16, %c: f16):
    %b32 = arith.extf %b : f16 to f32
    %c32 = arith.extf %c : f16 to f32
    %m = arith.mulf %a, %b32 : f32
    %r = arith.addf %c32, %m : f32
    %rh = arith.truncf %r : f32 to f16
    linalg.yield %rh : f16
  } -> tensor<13x6xf16>
  return %o : tensor<13x6xf16>
}

// -----

// P·V: f32 P times f16 V with V extended by a separate generic, f32 accumulate, output truncated by a generic
// CHECK-LABEL: func.func @pv_f32_accum_generic_trunc
// CHECK: flash.attention
// EXEC: pv_f32_accum_generic_trunc: raised=yes
func.func @pv_f32_accum_generic_trunc(%q: tensor<13x8xf16>, %k: tensor<17x8xf16>, %v: tensor<17x6xf16>) -> tensor<13x6xf16> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf16>, tensor<17x8xf16>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf16>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %eh = tensor.empty() : tensor<13x6xf16>
  %oh = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%o : tensor<13x6xf32>) outs(%eh : tensor<13x6xf16>) {
  ^bb0(%x: f32, %y: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<13x6xf16>
  return %oh : tensor<13x6xf16>
}

// -----

// SIZES: 2, 13, 2, 17, 2, 17
// fully dynamic 3-D (batch too), decomposed softmax, K transposed via linalg.transpose, inits via tensor.dim
// CHECK-LABEL: func.func @dyn_all_dims_3d
// CHECK: flash.attention
// EXEC: dyn_all_dims_3d: raised=yes
func.func @dyn_all_dims_3d(%q: tensor<?x?x8xf32>, %k: tensor<?x?x8xf32>, %v: tensor<?x?x6xf32>) -> tensor<?x?x6xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %q, %c0 : tensor<?x?x8xf32>
  %nq = tensor.dim %q, %c1 : tensor<?x?x8xf32>
  %nk = tensor.dim %k, %c1 : tensor<?x?x8xf32>
  %ekt = tensor.empty(%b, %nk) : tensor<?x8x?xf32>
  %kt = linalg.transpose ins(%k : tensor<?x?x8xf32>) outs(%ekt : tensor<?x8x?xf32>) permutation = [0, 2, 1]
  %es = tensor.empty(%b, %nq, %nk) : tensor<?x?x?xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<?x?x8xf32>, tensor<?x8x?xf32>) outs(%zs : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %er = tensor.empty(%b, %nq) : tensor<?x?xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<?x?xf32>) -> tensor<?x?xf32>
  %m = linalg.reduce ins(%s : tensor<?x?x?xf32>) outs(%mi : tensor<?x?xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %x = arith.maximumf %in, %init : f32
      linalg.yield %x : f32
    }
  %e = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<?x?x?xf32>, tensor<?x?xf32>) outs(%es : tensor<?x?x?xf32>) {
  ^bb0(%a: f32, %mm: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %d = arith.subf %a, %mm : f32
    %d2 = arith.mulf %d, %c : f32
    %y = math.exp %d2 : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<?x?xf32>) -> tensor<?x?xf32>
  %sum = linalg.reduce ins(%e : tensor<?x?x?xf32>) outs(%si : tensor<?x?xf32>) dimensions = [2]
    (%in: f32, %init: f32) {
      %x = arith.addf %in, %init : f32
      linalg.yield %x : f32
    }
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %sum : tensor<?x?x?xf32>, tensor<?x?xf32>) outs(%es : tensor<?x?x?xf32>) {
  ^bb0(%a: f32, %ss: f32, %o: f32):
    %y = arith.divf %a, %ss : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?xf32>
  %eo = tensor.empty(%b, %nq) : tensor<?x?x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<?x?x6xf32>) -> tensor<?x?x6xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<?x?x?xf32>, tensor<?x?x6xf32>) outs(%zo : tensor<?x?x6xf32>) -> tensor<?x?x6xf32>
  return %o : tensor<?x?x6xf32>
}

// -----

// SIZES: 13, 17, 17
// dynamic 2-D causal bottom-right (offset nk - nq computed from tensor.dim inside the generic via captured values), Nq < Nk
// CHECK-LABEL: func.func @dyn_causal_bottom_right_captured
// CHECK: flash.attention
// EXEC: dyn_causal_bottom_right_captured: raised=yes
func.func @dyn_causal_bottom_right_captured(%q: tensor<?x8xf32>, %k: tensor<?x8xf32>, %v: tensor<?x6xf32>) -> tensor<?x6xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %nq = tensor.dim %q, %c0 : tensor<?x8xf32>
  %nk = tensor.dim %k, %c0 : tensor<?x8xf32>
  %off = arith.subi %nk, %nq : index
  %es = tensor.empty(%nq, %nk) : tensor<?x?xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<?x8xf32>, tensor<?x8xf32>) outs(%zs : tensor<?x?xf32>) -> tensor<?x?xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<?x?xf32>) outs(%es : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %io = arith.addi %i, %off : index
    %gt = arith.cmpi sgt, %j, %io : index
    %y = arith.select %gt, %ninf, %a : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%es : tensor<?x?xf32>) -> tensor<?x?xf32>
  %eo = tensor.empty(%nq) : tensor<?x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<?x6xf32>) -> tensor<?x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<?x?xf32>, tensor<?x6xf32>) outs(%zo : tensor<?x6xf32>) -> tensor<?x6xf32>
  return %o : tensor<?x6xf32>
}

// -----

// SIZES: 2, 13, 2, 17, 2, 17
// dynamic B and N in [B,N,H,D] with linalg.transpose to [B,H,N,D] and collapse(B*H) around batch_matmul, expand back
// CHECK-LABEL: func.func @dyn_bnhd_transpose_collapse
// CHECK: flash.attention
// EXEC: dyn_bnhd_transpose_collapse: raised=yes
func.func @dyn_bnhd_transpose_collapse(%q: tensor<?x?x3x8xf32>, %k: tensor<?x?x3x8xf32>, %v: tensor<?x?x3x8xf32>) -> tensor<?x?x3x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %q, %c0 : tensor<?x?x3x8xf32>
  %n = tensor.dim %q, %c1 : tensor<?x?x3x8xf32>
  %nk = tensor.dim %k, %c1 : tensor<?x?x3x8xf32>
  %et = tensor.empty(%b, %n) : tensor<?x3x?x8xf32>
  %qt = linalg.transpose ins(%q : tensor<?x?x3x8xf32>) outs(%et : tensor<?x3x?x8xf32>) permutation = [0, 2, 1, 3]
  %etk = tensor.empty(%b, %nk) : tensor<?x3x?x8xf32>
  %kt = linalg.transpose ins(%k : tensor<?x?x3x8xf32>) outs(%etk : tensor<?x3x?x8xf32>) permutation = [0, 2, 1, 3]
  %vt = linalg.transpose ins(%v : tensor<?x?x3x8xf32>) outs(%etk : tensor<?x3x?x8xf32>) permutation = [0, 2, 1, 3]
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<?x3x?x8xf32> into tensor<?x?x8xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<?x3x?x8xf32> into tensor<?x?x8xf32>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<?x3x?x8xf32> into tensor<?x?x8xf32>
  %bh = tensor.dim %q3, %c0 : tensor<?x?x8xf32>
  %es = tensor.empty(%bh, %n, %nk) : tensor<?x?x?xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q3, %k3 : tensor<?x?x8xf32>, tensor<?x?x8xf32>) outs(%zs : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<?x?x?xf32>) outs(%es : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %eo = tensor.empty(%bh, %n) : tensor<?x?x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<?x?x?xf32>, tensor<?x?x8xf32>) outs(%zo : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [%b, 3, %n, 8] : tensor<?x?x8xf32> into tensor<?x3x?x8xf32>
  %eb = tensor.empty(%b, %n) : tensor<?x?x3x8xf32>
  %ob = linalg.transpose ins(%o4 : tensor<?x3x?x8xf32>) outs(%eb : tensor<?x?x3x8xf32>) permutation = [0, 2, 1, 3]
  return %ob : tensor<?x?x3x8xf32>
}

// -----

// TOSA: [B,N,H,D] inputs transposed to [B,H,N,D], reshaped to 3-D, i1 keep-mask input [N,N] applied by tosa.select with -inf const, scale on Q
// CHECK-LABEL: func.func @tosa_bnhd_select_mask
// CHECK: flash.attention
// EXEC: tosa_bnhd_select_mask: raised=yes
func.func @tosa_bnhd_select_mask(%q: tensor<2x13x3x8xf32>, %k: tensor<2x13x3x8xf32>, %v: tensor<2x13x3x8xf32>, %mask: tensor<13x13xi1>) -> tensor<2x13x3x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sc = "tosa.const"() <{values = dense<0.35355339> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %qs = tosa.mul %q, %sc, %shift : (tensor<2x13x3x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x13x3x8xf32>
  %qt = tosa.transpose %qs {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x13x3x8xf32>) -> tensor<2x3x13x8xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 3, 1>} : (tensor<2x13x3x8xf32>) -> tensor<2x3x8x13xf32>
  %vt = tosa.transpose %v {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x13x3x8xf32>) -> tensor<2x3x13x8xf32>
  %s3 = tosa.const_shape {values = dense<[6, 13, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s3k = tosa.const_shape {values = dense<[6, 8, 13]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s3m = tosa.const_shape {values = dense<[1, 13, 13]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[2, 3, 13, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %qt, %s3 : (tensor<2x3x13x8xf32>, !tosa.shape<3>) -> tensor<6x13x8xf32>
  %k3 = tosa.reshape %kt, %s3k : (tensor<2x3x8x13xf32>, !tosa.shape<3>) -> tensor<6x8x13xf32>
  %v3 = tosa.reshape %vt, %s3 : (tensor<2x3x13x8xf32>, !tosa.shape<3>) -> tensor<6x13x8xf32>
  %m3 = tosa.reshape %mask, %s3m : (tensor<13x13xi1>, !tosa.shape<3>) -> tensor<1x13x13xi1>
  %s = tosa.matmul %q3, %k3, %zp, %zp : (tensor<6x13x8xf32>, tensor<6x8x13xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<6x13x13xf32>
  %x = tosa.select %m3, %s, %ninf : (tensor<1x13x13xi1>, tensor<6x13x13xf32>, tensor<1x1x1xf32>) -> tensor<6x13x13xf32>
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<6x13x13xf32>) -> tensor<6x13x1xf32>
  %t = tosa.sub %x, %m : (tensor<6x13x13xf32>, tensor<6x13x1xf32>) -> tensor<6x13x13xf32>
  %e = tosa.exp %t : (tensor<6x13x13xf32>) -> tensor<6x13x13xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<6x13x13xf32>) -> tensor<6x13x1xf32>
  %r = tosa.reciprocal %sum : (tensor<6x13x1xf32>) -> tensor<6x13x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<6x13x13xf32>, tensor<6x13x1xf32>, tensor<1xi8>) -> tensor<6x13x13xf32>
  %o = tosa.matmul %p, %v3, %zp, %zp : (tensor<6x13x13xf32>, tensor<6x13x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<6x13x8xf32>
  %o4 = tosa.reshape %o, %s4 : (tensor<6x13x8xf32>, !tosa.shape<4>) -> tensor<2x3x13x8xf32>
  %ob = tosa.transpose %o4 {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x3x13x8xf32>) -> tensor<2x13x3x8xf32>
  return %ob : tensor<2x13x3x8xf32>
}

// -----

// TOSA: 2-D inputs reshaped to 3-D [1,N,D] for tosa.matmul; causal additive const mask; deferred normalization after P·V; exp2-free
// CHECK-LABEL: func.func @tosa_2d_reshape_deferred_norm
// CHECK: flash.attention
// EXEC: tosa_2d_reshape_deferred_norm: raised=yes
func.func @tosa_2d_reshape_deferred_norm(%q: tensor<5x8xf32>, %k: tensor<5x8xf32>, %v: tensor<5x6xf32>) -> tensor<5x6xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mask = "tosa.const"() <{values = dense<[[[0.0, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0xFF800000, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0xFF800000, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0xFF800000], [0.0, 0.0, 0.0, 0.0, 0.0]]]> : tensor<1x5x5xf32>}> : () -> tensor<1x5x5xf32>
  %sq = tosa.const_shape {values = dense<[1, 5, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sv = tosa.const_shape {values = dense<[1, 5, 6]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %so = tosa.const_shape {values = dense<[5, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %q3 = tosa.reshape %q, %sq : (tensor<5x8xf32>, !tosa.shape<3>) -> tensor<1x5x8xf32>
  %k3 = tosa.reshape %k, %sq : (tensor<5x8xf32>, !tosa.shape<3>) -> tensor<1x5x8xf32>
  %v3 = tosa.reshape %v, %sv : (tensor<5x6xf32>, !tosa.shape<3>) -> tensor<1x5x6xf32>
  %kt = tosa.transpose %k3 {perms = array<i32: 0, 2, 1>} : (tensor<1x5x8xf32>) -> tensor<1x8x5xf32>
  %s = tosa.matmul %q3, %kt, %zp, %zp : (tensor<1x5x8xf32>, tensor<1x8x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5xf32>
  %x = tosa.add %mask, %s : (tensor<1x5x5xf32>, tensor<1x5x5xf32>) -> tensor<1x5x5xf32>
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<1x5x5xf32>) -> tensor<1x5x1xf32>
  %t = tosa.sub %x, %m : (tensor<1x5x5xf32>, tensor<1x5x1xf32>) -> tensor<1x5x5xf32>
  %e = tosa.exp %t : (tensor<1x5x5xf32>) -> tensor<1x5x5xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x5x5xf32>) -> tensor<1x5x1xf32>
  %u = tosa.matmul %e, %v3, %zp, %zp : (tensor<1x5x5xf32>, tensor<1x5x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x6xf32>
  %r = tosa.reciprocal %sum : (tensor<1x5x1xf32>) -> tensor<1x5x1xf32>
  %o = tosa.mul %u, %r, %shift : (tensor<1x5x6xf32>, tensor<1x5x1xf32>, tensor<1xi8>) -> tensor<1x5x6xf32>
  %o2 = tosa.reshape %o, %so : (tensor<1x5x6xf32>, !tosa.shape<2>) -> tensor<5x6xf32>
  return %o2 : tensor<5x6xf32>
}

// -----

// TOSA GQA: K/V [B,Hkv,N,D] tiled to heads with tosa.tile on a reshaped [B,Hkv,1,N,D] -> [B,Hkv,G,N,D]
// CHECK-LABEL: func.func @tosa_gqa_tile
// CHECK: flash.attention
// EXEC: tosa_gqa_tile: raised=yes
func.func @tosa_gqa_tile(%q: tensor<1x4x13x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>) -> tensor<1x4x13x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s5 = tosa.const_shape {values = dense<[1, 2, 1, 17, 8]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %mul = tosa.const_shape {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %s3 = tosa.const_shape {values = dense<[4, 17, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s3q = tosa.const_shape {values = dense<[4, 13, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[1, 4, 13, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %k5 = tosa.reshape %k, %s5 : (tensor<1x2x17x8xf32>, !tosa.shape<5>) -> tensor<1x2x1x17x8xf32>
  %v5 = tosa.reshape %v, %s5 : (tensor<1x2x17x8xf32>, !tosa.shape<5>) -> tensor<1x2x1x17x8xf32>
  %kt5 = tosa.tile %k5, %mul : (tensor<1x2x1x17x8xf32>, !tosa.shape<5>) -> tensor<1x2x2x17x8xf32>
  %vt5 = tosa.tile %v5, %mul : (tensor<1x2x1x17x8xf32>, !tosa.shape<5>) -> tensor<1x2x2x17x8xf32>
  %k3 = tosa.reshape %kt5, %s3 : (tensor<1x2x2x17x8xf32>, !tosa.shape<3>) -> tensor<4x17x8xf32>
  %v3 = tosa.reshape %vt5, %s3 : (tensor<1x2x2x17x8xf32>, !tosa.shape<3>) -> tensor<4x17x8xf32>
  %q3 = tosa.reshape %q, %s3q : (tensor<1x4x13x8xf32>, !tosa.shape<3>) -> tensor<4x13x8xf32>
  %kt = tosa.transpose %k3 {perms = array<i32: 0, 2, 1>} : (tensor<4x17x8xf32>) -> tensor<4x8x17xf32>
  %s = tosa.matmul %q3, %kt, %zp, %zp : (tensor<4x13x8xf32>, tensor<4x8x17xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x13x17xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<4x13x17xf32>) -> tensor<4x13x1xf32>
  %t = tosa.sub %s, %m : (tensor<4x13x17xf32>, tensor<4x13x1xf32>) -> tensor<4x13x17xf32>
  %e = tosa.exp %t : (tensor<4x13x17xf32>) -> tensor<4x13x17xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x13x17xf32>) -> tensor<4x13x1xf32>
  %r = tosa.reciprocal %sum : (tensor<4x13x1xf32>) -> tensor<4x13x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<4x13x17xf32>, tensor<4x13x1xf32>, tensor<1xi8>) -> tensor<4x13x17xf32>
  %o = tosa.matmul %p, %v3, %zp, %zp : (tensor<4x13x17xf32>, tensor<4x17x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x13x8xf32>
  %o4 = tosa.reshape %o, %s4 : (tensor<4x13x8xf32>, !tosa.shape<4>) -> tensor<1x4x13x8xf32>
  return %o4 : tensor<1x4x13x8xf32>
}

// -----

// TOSA near miss: P·V with P transposed (contracting the query axis), square
// CHECK-LABEL: func.func @negative_tosa_pv_transposed_p
// CHECK-NOT: flash.attention
func.func @negative_tosa_pv_transposed_p(%q: tensor<2x13x8xf32>, %kt: tensor<2x8x13xf32>, %v: tensor<2x13x8xf32>) -> tensor<2x13x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x13x8xf32>, tensor<2x8x13xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x13x13xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x13x13xf32>) -> tensor<2x13x1xf32>
  %t = tosa.sub %s, %m : (tensor<2x13x13xf32>, tensor<2x13x1xf32>) -> tensor<2x13x13xf32>
  %e = tosa.exp %t : (tensor<2x13x13xf32>) -> tensor<2x13x13xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x13x13xf32>) -> tensor<2x13x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x13x1xf32>) -> tensor<2x13x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x13x13xf32>, tensor<2x13x1xf32>, tensor<1xi8>) -> tensor<2x13x13xf32>
  %pt = tosa.transpose %p {perms = array<i32: 0, 2, 1>} : (tensor<2x13x13xf32>) -> tensor<2x13x13xf32>
  // expected-remark @+1 {{attention not raised: the softmax normalizes over a different axis than the one P*V contracts}}
  %o = tosa.matmul %pt, %v, %zp, %zp : (tensor<2x13x13xf32>, tensor<2x13x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x13x8xf32>
  return %o : tensor<2x13x8xf32>
}

// -----

// linalg analog: 2-D inputs expanded to [1,N,D] around batch_matmul, softmax, collapsed back
// CHECK-LABEL: func.func @expand_unit_batch_2d
// CHECK: flash.attention
// EXEC: expand_unit_batch_2d: raised=yes
func.func @expand_unit_batch_2d(%q: tensor<5x8xf32>, %k: tensor<5x8xf32>, %v: tensor<5x6xf32>) -> tensor<5x6xf32> {
  %zero = arith.constant 0.0 : f32
  %q3 = tensor.expand_shape %q [[0, 1], [2]] output_shape [1, 5, 8] : tensor<5x8xf32> into tensor<1x5x8xf32>
  %k3 = tensor.expand_shape %k [[0, 1], [2]] output_shape [1, 5, 8] : tensor<5x8xf32> into tensor<1x5x8xf32>
  %v3 = tensor.expand_shape %v [[0, 1], [2]] output_shape [1, 5, 6] : tensor<5x6xf32> into tensor<1x5x6xf32>
  %es = tensor.empty() : tensor<1x5x5xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x5x5xf32>) -> tensor<1x5x5xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q3, %k3 : tensor<1x5x8xf32>, tensor<1x5x8xf32>) outs(%zs : tensor<1x5x5xf32>) -> tensor<1x5x5xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<1x5x5xf32>) outs(%es : tensor<1x5x5xf32>) -> tensor<1x5x5xf32>
  %eo = tensor.empty() : tensor<1x5x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x5x6xf32>) -> tensor<1x5x6xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<1x5x5xf32>, tensor<1x5x6xf32>) outs(%zo : tensor<1x5x6xf32>) -> tensor<1x5x6xf32>
  %o2 = tensor.collapse_shape %o [[0, 1], [2]] : tensor<1x5x6xf32> into tensor<5x6xf32>
  return %o2 : tensor<5x6xf32>
}

// -----

// tosa only 2-D->3-D reshape without mask, normal normalization
// CHECK-LABEL: func.func @tosa_2d_reshape_plain
// CHECK: flash.attention
// EXEC: tosa_2d_reshape_plain: raised=yes
func.func @tosa_2d_reshape_plain(%q: tensor<5x8xf32>, %k: tensor<5x8xf32>, %v: tensor<5x6xf32>) -> tensor<5x6xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sq = tosa.const_shape {values = dense<[1, 5, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sv = tosa.const_shape {values = dense<[1, 5, 6]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %so = tosa.const_shape {values = dense<[5, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %q3 = tosa.reshape %q, %sq : (tensor<5x8xf32>, !tosa.shape<3>) -> tensor<1x5x8xf32>
  %k3 = tosa.reshape %k, %sq : (tensor<5x8xf32>, !tosa.shape<3>) -> tensor<1x5x8xf32>
  %v3 = tosa.reshape %v, %sv : (tensor<5x6xf32>, !tosa.shape<3>) -> tensor<1x5x6xf32>
  %kt = tosa.transpose %k3 {perms = array<i32: 0, 2, 1>} : (tensor<1x5x8xf32>) -> tensor<1x8x5xf32>
  %s = tosa.matmul %q3, %kt, %zp, %zp : (tensor<1x5x8xf32>, tensor<1x8x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<1x5x5xf32>) -> tensor<1x5x1xf32>
  %t = tosa.sub %s, %m : (tensor<1x5x5xf32>, tensor<1x5x1xf32>) -> tensor<1x5x5xf32>
  %e = tosa.exp %t : (tensor<1x5x5xf32>) -> tensor<1x5x5xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x5x5xf32>) -> tensor<1x5x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x5x1xf32>) -> tensor<1x5x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x5x5xf32>, tensor<1x5x1xf32>, tensor<1xi8>) -> tensor<1x5x5xf32>
  %o = tosa.matmul %p, %v3, %zp, %zp : (tensor<1x5x5xf32>, tensor<1x5x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x6xf32>
  %o2 = tosa.reshape %o, %so : (tensor<1x5x6xf32>, !tosa.shape<2>) -> tensor<5x6xf32>
  return %o2 : tensor<5x6xf32>
}

// -----

// tosa 3-D with B=1 and no reshape at all
// CHECK-LABEL: func.func @tosa_batch1_plain
// CHECK: flash.attention
// EXEC: tosa_batch1_plain: raised=yes
func.func @tosa_batch1_plain(%q: tensor<1x5x8xf32>, %kt: tensor<1x8x5xf32>, %v: tensor<1x5x6xf32>) -> tensor<1x5x6xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<1x5x8xf32>, tensor<1x8x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<1x5x5xf32>) -> tensor<1x5x1xf32>
  %t = tosa.sub %s, %m : (tensor<1x5x5xf32>, tensor<1x5x1xf32>) -> tensor<1x5x5xf32>
  %e = tosa.exp %t : (tensor<1x5x5xf32>) -> tensor<1x5x5xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x5x5xf32>) -> tensor<1x5x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x5x1xf32>) -> tensor<1x5x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x5x5xf32>, tensor<1x5x1xf32>, tensor<1xi8>) -> tensor<1x5x5xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<1x5x5xf32>, tensor<1x5x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x6xf32>
  return %o : tensor<1x5x6xf32>
}

// -----

// B = 1 3-D linalg, plain
// CHECK-LABEL: func.func @batch1_bmm_softmax
// CHECK: flash.attention
// EXEC: batch1_bmm_softmax: raised=yes
func.func @batch1_bmm_softmax(%q: tensor<1x13x8xf32>, %k: tensor<1x17x8xf32>, %v: tensor<1x17x6xf32>) -> tensor<1x13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<1x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x13x17xf32>) -> tensor<1x13x17xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<1x13x8xf32>, tensor<1x17x8xf32>) outs(%zs : tensor<1x13x17xf32>) -> tensor<1x13x17xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<1x13x17xf32>) outs(%es : tensor<1x13x17xf32>) -> tensor<1x13x17xf32>
  %eo = tensor.empty() : tensor<1x13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x13x6xf32>) -> tensor<1x13x6xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<1x13x17xf32>, tensor<1x17x6xf32>) outs(%zo : tensor<1x13x6xf32>) -> tensor<1x13x6xf32>
  return %o : tensor<1x13x6xf32>
}

// -----

// [1,H,N,D] 4-D generics (batch 1, typical inference)
// CHECK-LABEL: func.func @batch1_bhnd_generics
// CHECK: flash.attention
// EXEC: batch1_bhnd_generics: raised=yes
func.func @batch1_bhnd_generics(%q: tensor<1x3x13x8xf32>, %k: tensor<1x3x17x8xf32>, %v: tensor<1x3x17x8xf32>) -> tensor<1x3x13x8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<1x3x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x3x13x17xf32>) -> tensor<1x3x13x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x3x13x8xf32>, tensor<1x3x17x8xf32>) outs(%zs : tensor<1x3x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x3x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<1x3x13x17xf32>) outs(%es : tensor<1x3x13x17xf32>) -> tensor<1x3x13x17xf32>
  %eo = tensor.empty() : tensor<1x3x13x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x3x13x8xf32>) -> tensor<1x3x13x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x3x13x17xf32>, tensor<1x3x17x8xf32>) outs(%zo : tensor<1x3x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x3x13x8xf32>
  return %o : tensor<1x3x13x8xf32>
}

// -----

// single query (decode step): Nq = 1, [B,H,1,D] against a KV cache
// CHECK-LABEL: func.func @decode_single_query
// CHECK: flash.attention
// EXEC: decode_single_query: raised=yes
func.func @decode_single_query(%q: tensor<2x3x1x8xf32>, %k: tensor<2x3x17x8xf32>, %v: tensor<2x3x17x8xf32>) -> tensor<2x3x1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x3x1x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3x1x17xf32>) -> tensor<2x3x1x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x3x1x8xf32>, tensor<2x3x17x8xf32>) outs(%zs : tensor<2x3x1x17xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x1x17xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x3x1x17xf32>) outs(%es : tensor<2x3x1x17xf32>) -> tensor<2x3x1x17xf32>
  %eo = tensor.empty() : tensor<2x3x1x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x3x1x8xf32>) -> tensor<2x3x1x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x3x1x17xf32>, tensor<2x3x17x8xf32>) outs(%zo : tensor<2x3x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x1x8xf32>
  return %o : tensor<2x3x1x8xf32>
}

// -----

// head dim 1 (D = 1) and value dim 1
// CHECK-LABEL: func.func @head_dim_one
// CHECK: flash.attention
// EXEC: head_dim_one: raised=yes
func.func @head_dim_one(%q: tensor<2x13x1xf32>, %k: tensor<2x17x1xf32>, %v: tensor<2x17x1xf32>) -> tensor<2x13x1xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x13x1xf32>, tensor<2x17x1xf32>) outs(%zs : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x13x17xf32>) outs(%es : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %eo = tensor.empty() : tensor<2x13x1xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x13x1xf32>) -> tensor<2x13x1xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x13x17xf32>, tensor<2x17x1xf32>) outs(%zo : tensor<2x13x1xf32>) -> tensor<2x13x1xf32>
  return %o : tensor<2x13x1xf32>
}

// -----

// projections: X [N, C] times Wq/Wk/Wv [C, D] with bias add, then attention, then output projection
// CHECK-LABEL: func.func @projections_bias_out_proj
// CHECK: flash.attention
// EXEC: projections_bias_out_proj: raised=yes
func.func @projections_bias_out_proj(%x: tensor<13x10xf32>, %wq: tensor<10x8xf32>, %wk: tensor<10x8xf32>, %wv: tensor<10x8xf32>, %bq: tensor<8xf32>, %wo: tensor<8x10xf32>) -> tensor<13x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<13x8xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %q0 = linalg.matmul ins(%x, %wq : tensor<13x10xf32>, tensor<10x8xf32>) outs(%z8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(i, d) -> (i, d)>, affine_map<(i, d) -> (d)>, affine_map<(i, d) -> (i, d)>], iterator_types = ["parallel", "parallel"]}
      ins(%q0, %bq : tensor<13x8xf32>, tensor<8xf32>) outs(%e8 : tensor<13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.addf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<13x8xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<13x10xf32>, tensor<10x8xf32>) outs(%z8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %v = linalg.matmul ins(%x, %wv : tensor<13x10xf32>, tensor<10x8xf32>) outs(%z8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %es = tensor.empty() : tensor<13x13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %a = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x8xf32>) outs(%z8 : tensor<13x8xf32>) -> tensor<13x8xf32>
  %e10 = tensor.empty() : tensor<13x10xf32>
  %z10 = linalg.fill ins(%zero : f32) outs(%e10 : tensor<13x10xf32>) -> tensor<13x10xf32>
  %out = linalg.matmul ins(%a, %wo : tensor<13x8xf32>, tensor<8x10xf32>) outs(%z10 : tensor<13x10xf32>) -> tensor<13x10xf32>
  return %out : tensor<13x10xf32>
}

// -----

// fused QKV projection: one matmul to [N, 3*D], Q/K/V taken with tensor.extract_slice, heads via expand_shape [N, H, Dh]
// CHECK-LABEL: func.func @fused_qkv_extract_slice_heads
// CHECK: flash.attention
// EXEC: fused_qkv_extract_slice_heads: raised=yes
func.func @fused_qkv_extract_slice_heads(%x: tensor<13x12xf32>, %w: tensor<12x36xf32>) -> tensor<13x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<13x36xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<13x36xf32>) -> tensor<13x36xf32>
  %qkv = linalg.matmul ins(%x, %w : tensor<13x12xf32>, tensor<12x36xf32>) outs(%z : tensor<13x36xf32>) -> tensor<13x36xf32>
  %q2 = tensor.extract_slice %qkv[0, 0] [13, 12] [1, 1] : tensor<13x36xf32> to tensor<13x12xf32>
  %k2 = tensor.extract_slice %qkv[0, 12] [13, 12] [1, 1] : tensor<13x36xf32> to tensor<13x12xf32>
  %v2 = tensor.extract_slice %qkv[0, 24] [13, 12] [1, 1] : tensor<13x36xf32> to tensor<13x12xf32>
  %q = tensor.expand_shape %q2 [[0], [1, 2]] output_shape [13, 3, 4] : tensor<13x12xf32> into tensor<13x3x4xf32>
  %k = tensor.expand_shape %k2 [[0], [1, 2]] output_shape [13, 3, 4] : tensor<13x12xf32> into tensor<13x3x4xf32>
  %v = tensor.expand_shape %v2 [[0], [1, 2]] output_shape [13, 3, 4] : tensor<13x12xf32> into tensor<13x3x4xf32>
  %es = tensor.empty() : tensor<3x13x13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<3x13x13xf32>) -> tensor<3x13x13xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (i, h, d)>, affine_map<(h, i, j, d) -> (j, h, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<13x3x4xf32>, tensor<13x3x4xf32>) outs(%zs : tensor<3x13x13xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<3x13x13xf32>
  %x2 = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x13x13xf32>) outs(%es : tensor<3x13x13xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c2 = arith.constant 2.0 : f32
    %y = arith.divf %a, %c2 : f32
    linalg.yield %y : f32
  } -> tensor<3x13x13xf32>
  %p = linalg.softmax dimension(2) ins(%x2 : tensor<3x13x13xf32>) outs(%es : tensor<3x13x13xf32>) -> tensor<3x13x13xf32>
  %eo = tensor.empty() : tensor<13x3x4xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x3x4xf32>) -> tensor<13x3x4xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (j, h, e)>, affine_map<(h, i, e, j) -> (i, h, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<3x13x13xf32>, tensor<13x3x4xf32>) outs(%zo : tensor<13x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<13x3x4xf32>
  return %o : tensor<13x3x4xf32>
}

// -----

// two attention blocks chained (output of the first is Q of the second), plus residual add
// CHECK-LABEL: func.func @two_chained_blocks
// CHECK: flash.attention
// EXEC: two_chained_blocks: raised=yes
func.func @two_chained_blocks(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x8xf32>) -> tensor<13x8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x8xf32>) -> tensor<13x8xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x8xf32>) outs(%zo : tensor<13x8xf32>) -> tensor<13x8xf32>
  %r = linalg.add ins(%o, %q : tensor<13x8xf32>, tensor<13x8xf32>) outs(%eo : tensor<13x8xf32>) -> tensor<13x8xf32>
  %s2 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%r, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p2 = linalg.softmax dimension(1) ins(%s2 : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %o2 = linalg.matmul ins(%p2, %v : tensor<13x17xf32>, tensor<17x8xf32>) outs(%zo : tensor<13x8xf32>) -> tensor<13x8xf32>
  return %o2 : tensor<13x8xf32>
}

// -----

// the same scores tensor feeds two softmaxes? No: self-attention where V = K (tied keys/values)
// CHECK-LABEL: func.func @v_is_k_tied
// CHECK: flash.attention
// EXEC: v_is_k_tied: raised=yes
func.func @v_is_k_tied(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>) -> tensor<13x8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x8xf32>) -> tensor<13x8xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %o = linalg.matmul ins(%p, %k : tensor<13x17xf32>, tensor<17x8xf32>) outs(%zo : tensor<13x8xf32>) -> tensor<13x8xf32>
  return %o : tensor<13x8xf32>
}

// -----

// CHECK-LABEL: func.func @key_padding_i1_1d_on_2d
// CHECK: flash.attention
// EXEC: key_padding_i1_1d_on_2d: raised=yes
func.func @key_padding_i1_1d_on_2d(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>, %pad: tensor<13xi1>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %pad : tensor<13x13xf32>, tensor<13xi1>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: i1, %oo: f32):
    %y = arith.select %a1, %a0, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @key_bias_f32_1d_on_2d
// CHECK: flash.attention
// EXEC: key_bias_f32_1d_on_2d: raised=yes
func.func @key_bias_f32_1d_on_2d(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>, %bias: tensor<13xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %bias : tensor<13x13xf32>, tensor<13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @mask_transposed_nk_nq_input
// CHECK: flash.attention
// EXEC: mask_transposed_nk_nq_input: raised=yes
func.func @mask_transposed_nk_nq_input(%q: tensor<13x8xf32>, %k: tensor<13x8xf32>, %v: tensor<13x6xf32>, %mt: tensor<13x13xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x13xf32>
  %er = tensor.empty() : tensor<13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<13x8xf32>) outs(%zs : tensor<13x13xf32>) -> tensor<13x13xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %mt : tensor<13x13xf32>, tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) {
  ^bb0(%a0: f32, %a1: f32, %oo: f32):
    %y = arith.addf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<13x13xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x13xf32>) outs(%es : tensor<13x13xf32>) -> tensor<13x13xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x13xf32>, tensor<13x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @key_padding_bn_on_3d
// CHECK: flash.attention
// EXEC: key_padding_bn_on_3d: raised=yes
func.func @key_padding_bn_on_3d(%q: tensor<2x13x8xf32>, %k: tensor<2x17x8xf32>, %v: tensor<2x17x6xf32>, %pad: tensor<2x17xi1>) -> tensor<2x13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x13x8xf32>, tensor<2x17x8xf32>) outs(%zs : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %pad : tensor<2x13x17xf32>, tensor<2x17xi1>) outs(%es : tensor<2x13x17xf32>) {
  ^bb0(%a: f32, %m: i1, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %m, %a, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<2x13x17xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x13x17xf32>) outs(%es : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %eo = tensor.empty() : tensor<2x13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x13x6xf32>) -> tensor<2x13x6xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x13x17xf32>, tensor<2x17x6xf32>) outs(%zo : tensor<2x13x6xf32>) -> tensor<2x13x6xf32>
  return %o : tensor<2x13x6xf32>
}

// -----

// CHECK-LABEL: func.func @key_bias_nk_on_bhnd
// CHECK: flash.attention
// EXEC: key_bias_nk_on_bhnd: raised=yes
func.func @key_bias_nk_on_bhnd(%q: tensor<2x3x13x8xf32>, %k: tensor<2x3x17x8xf32>, %v: tensor<2x3x17x8xf32>, %bias: tensor<17xf32>) -> tensor<2x3x13x8xf32> {
  %zero = arith.constant 0.0 : f32
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x3x13x8xf32> into tensor<6x13x8xf32>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x3x17x8xf32> into tensor<6x17x8xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x3x17x8xf32> into tensor<6x17x8xf32>
  %es = tensor.empty() : tensor<6x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<6x13x17xf32>) -> tensor<6x13x17xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q3, %k3 : tensor<6x13x8xf32>, tensor<6x17x8xf32>) outs(%zs : tensor<6x13x17xf32>) -> tensor<6x13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %bias : tensor<6x13x17xf32>, tensor<17xf32>) outs(%es : tensor<6x13x17xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %y = arith.addf %a, %m : f32
    linalg.yield %y : f32
  } -> tensor<6x13x17xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<6x13x17xf32>) outs(%es : tensor<6x13x17xf32>) -> tensor<6x13x17xf32>
  %eo = tensor.empty() : tensor<6x13x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<6x13x8xf32>) -> tensor<6x13x8xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<6x13x17xf32>, tensor<6x17x8xf32>) outs(%zo : tensor<6x13x8xf32>) -> tensor<6x13x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 3, 13, 8] : tensor<6x13x8xf32> into tensor<2x3x13x8xf32>
  return %o4 : tensor<2x3x13x8xf32>
}

// -----

// near miss: V read at the query index in P·V (sum_j P[i,j] V[i,e])
// CHECK-LABEL: func.func @negative_v_read_at_query_index
// CHECK-NOT: flash.attention
func.func @negative_v_read_at_query_index(%q: tensor<2x13x8xf32>, %k: tensor<2x13x8xf32>, %v: tensor<2x13x6xf32>) -> tensor<2x13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x13x13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x13x13xf32>) -> tensor<2x13x13xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x13x8xf32>, tensor<2x13x8xf32>) outs(%zs : tensor<2x13x13xf32>) -> tensor<2x13x13xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x13x13xf32>) outs(%es : tensor<2x13x13xf32>) -> tensor<2x13x13xf32>
  %eo = tensor.empty() : tensor<2x13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x13x6xf32>) -> tensor<2x13x6xf32>
  // expected-remark @+1 {{attention not raised: the product with the probabilities reads its other operand along the query axis, not along the keys it sums over}}
  %o = linalg.generic {indexing_maps = [affine_map<(b, i, e, j) -> (b, i, j)>, affine_map<(b, i, e, j) -> (b, i, e)>, affine_map<(b, i, e, j) -> (b, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x13x13xf32>, tensor<2x13x6xf32>) outs(%zo : tensor<2x13x6xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x13x6xf32>
  return %o : tensor<2x13x6xf32>
}

// -----

// near miss: 4-D HF layout, linalg.softmax over the query dim (2) with Nq = Nk
// CHECK-LABEL: func.func @negative_bnhd_softmax_query_dim
// CHECK-NOT: flash.attention
func.func @negative_bnhd_softmax_query_dim(%q: tensor<2x13x3x8xf32>, %k: tensor<2x13x3x8xf32>, %v: tensor<2x13x3x8xf32>) -> tensor<2x13x3x8xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x3x13x13xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3x13x13xf32>) -> tensor<2x3x13x13xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x13x3x8xf32>, tensor<2x13x3x8xf32>) outs(%zs : tensor<2x3x13x13xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x13x13xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x3x13x13xf32>) outs(%es : tensor<2x3x13x13xf32>) -> tensor<2x3x13x13xf32>
  %eo = tensor.empty() : tensor<2x13x3x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x13x3x8xf32>) -> tensor<2x13x3x8xf32>
  // expected-remark @+1 {{attention not raised: the softmax normalizes over a different axis than the one P*V contracts}}
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, j, h, e)>, affine_map<(b, h, i, e, j) -> (b, i, h, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x3x13x13xf32>, tensor<2x13x3x8xf32>) outs(%zo : tensor<2x13x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x13x3x8xf32>
  return %o : tensor<2x13x3x8xf32>
}

// -----

// combo: GQA floordiv maps + causal (Nq<Nk bottom-right offset 4) + additive [B,1,N,N] mask + scale on K + exp2/log2e decomposed softmax
// CHECK-LABEL: func.func @combo_gqa_causal_mask_scale_k_exp2
// CHECK: flash.attention
// EXEC: combo_gqa_causal_mask_scale_k_exp2: raised=yes
func.func @combo_gqa_causal_mask_scale_k_exp2(%q: tensor<2x4x13x8xf32>, %k: tensor<2x2x17x8xf32>, %v: tensor<2x2x17x8xf32>, %mk: tensor<2x1x13x17xf32>) -> tensor<2x4x13x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ek = tensor.empty() : tensor<2x2x17x8xf32>
  %ks = linalg.generic {indexing_maps = [affine_map<(b, h, j, d) -> (b, h, j, d)>, affine_map<(b, h, j, d) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<2x2x17x8xf32>) outs(%ek : tensor<2x2x17x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x2x17x8xf32>
  %es = tensor.empty() : tensor<2x4x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h floordiv 2, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %ks : tensor<2x4x13x8xf32>, tensor<2x2x17x8xf32>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, 0, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %mk : tensor<2x4x13x17xf32>, tensor<2x1x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %c4 = arith.constant 4 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ii = arith.addi %i, %c4 : index
    %gt = arith.cmpi ugt, %j, %ii : index
    %t = arith.addf %a, %m : f32
    %y = arith.select %gt, %ninf, %t : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %er = tensor.empty() : tensor<2x4x13xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4x13xf32>) -> tensor<2x4x13xf32>
  %mx = linalg.reduce ins(%x : tensor<2x4x13x17xf32>) outs(%mi : tensor<2x4x13xf32>) dimensions = [3]
    (%in: f32, %init: f32) {
      %r = arith.maximumf %in, %init : f32
      linalg.yield %r : f32
    }
  %e = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mx : tensor<2x4x13x17xf32>, tensor<2x4x13xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %l = arith.constant 1.44269504 : f32
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %l : f32
    %y = math.exp2 %d2 : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4x13xf32>) -> tensor<2x4x13xf32>
  %sum = linalg.reduce ins(%e : tensor<2x4x13x17xf32>) outs(%si : tensor<2x4x13xf32>) dimensions = [3]
    (%in: f32, %init: f32) {
      %r = arith.addf %in, %init : f32
      linalg.yield %r : f32
    }
  %eo = tensor.empty() : tensor<2x4x13x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x13x8xf32>) -> tensor<2x4x13x8xf32>
  %u = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h floordiv 2, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%e, %v : tensor<2x4x13x17xf32>, tensor<2x2x17x8xf32>) outs(%zo : tensor<2x4x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x13x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e) -> (b, h, i, e)>, affine_map<(b, h, i, e) -> (b, h, i)>, affine_map<(b, h, i, e) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%u, %sum : tensor<2x4x13x8xf32>, tensor<2x4x13xf32>) outs(%eo : tensor<2x4x13x8xf32>) {
  ^bb0(%a: f32, %s2: f32, %o2: f32):
    %y = arith.divf %a, %s2 : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x8xf32>
  return %o : tensor<2x4x13x8xf32>
}

// -----

// GQA with heads in [B,N,H,D] layout, repeat_kv via linalg.generic writing [B,N,Hkv,G,D] and collapse; f32 inputs with extf
// CHECK-LABEL: func.func @x
// CHECK: flash.attention
// EXEC: x: raised=yes
func.func @x(%q: tensor<2x13x4x8xf32>, %k: tensor<2x17x2x8xf32>, %v: tensor<2x17x2x8xf32>) -> tensor<2x13x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<2x17x2x2x8xf32>
  %kr5 = linalg.generic {indexing_maps = [affine_map<(b, j, h, g, d) -> (b, j, h, d)>, affine_map<(b, j, h, g, d) -> (b, j, h, g, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<2x17x2x8xf32>) outs(%er : tensor<2x17x2x2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x17x2x2x8xf32>
  %vr5 = linalg.generic {indexing_maps = [affine_map<(b, j, h, g, d) -> (b, j, h, d)>, affine_map<(b, j, h, g, d) -> (b, j, h, g, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<2x17x2x8xf32>) outs(%er : tensor<2x17x2x2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x17x2x2x8xf32>
  %kr = tensor.collapse_shape %kr5 [[0], [1], [2, 3], [4]] : tensor<2x17x2x2x8xf32> into tensor<2x17x4x8xf32>
  %vr = tensor.collapse_shape %vr5 [[0], [1], [2, 3], [4]] : tensor<2x17x2x2x8xf32> into tensor<2x17x4x8xf32>
  %es = tensor.empty() : tensor<2x4x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x13x4x8xf32>, tensor<2x17x4x8xf32>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %zh = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<2x13x4x8xf32>
  %zo = linalg.fill ins(%zh : f32) outs(%eo : tensor<2x13x4x8xf32>) -> tensor<2x13x4x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, j, h, e)>, affine_map<(b, h, i, e, j) -> (b, i, h, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vr : tensor<2x4x13x17xf32>, tensor<2x17x4x8xf32>) outs(%zo : tensor<2x13x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x13x4x8xf32>
  return %o : tensor<2x13x4x8xf32>
}

// -----

// GQA with heads in [B,N,H,D] layout, repeat_kv via linalg.generic writing [B,N,Hkv,G,D] and collapse; f16 inputs with extf
// CHECK-LABEL: func.func @bnhd_f16_pv_in_f16
// CHECK: flash.attention
// EXEC: bnhd_f16_pv_in_f16: raised=yes
func.func @bnhd_f16_pv_in_f16(%q: tensor<2x13x4x8xf16>, %kr: tensor<2x17x4x8xf16>, %vr: tensor<2x17x4x8xf16>) -> tensor<2x13x4x8xf16> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x4x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x13x4x8xf16>, tensor<2x17x4x8xf16>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %ph = arith.truncf %p : tensor<2x4x13x17xf32> to tensor<2x4x13x17xf16>
  %zh = arith.constant 0.0 : f16
  %eo = tensor.empty() : tensor<2x13x4x8xf16>
  %zo = linalg.fill ins(%zh : f16) outs(%eo : tensor<2x13x4x8xf16>) -> tensor<2x13x4x8xf16>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, j, h, e)>, affine_map<(b, h, i, e, j) -> (b, i, h, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ph, %vr : tensor<2x4x13x17xf16>, tensor<2x17x4x8xf16>) outs(%zo : tensor<2x13x4x8xf16>) {
  ^bb0(%a: f16, %b: f16, %c: f16):
    %m = arith.mulf %a, %b : f16
    %r = arith.addf %c, %m : f16
    linalg.yield %r : f16
  } -> tensor<2x13x4x8xf16>
  return %o : tensor<2x13x4x8xf16>
}

// -----

// GQA with heads in [B,N,H,D] layout, repeat_kv via linalg.generic writing [B,N,Hkv,G,D] and collapse; f16 inputs with extf
// CHECK-LABEL: func.func @gqa_bnhd_f16_pv_f32acc
// CHECK: flash.attention
// EXEC: gqa_bnhd_f16_pv_f32acc: raised=yes
func.func @gqa_bnhd_f16_pv_f32acc(%q: tensor<2x13x4x8xf16>, %k: tensor<2x17x2x8xf16>, %v: tensor<2x17x2x8xf16>) -> tensor<2x13x4x8xf16> {
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<2x17x2x2x8xf16>
  %kr5 = linalg.generic {indexing_maps = [affine_map<(b, j, h, g, d) -> (b, j, h, d)>, affine_map<(b, j, h, g, d) -> (b, j, h, g, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<2x17x2x8xf16>) outs(%er : tensor<2x17x2x2x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    linalg.yield %a : f16
  } -> tensor<2x17x2x2x8xf16>
  %vr5 = linalg.generic {indexing_maps = [affine_map<(b, j, h, g, d) -> (b, j, h, d)>, affine_map<(b, j, h, g, d) -> (b, j, h, g, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<2x17x2x8xf16>) outs(%er : tensor<2x17x2x2x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    linalg.yield %a : f16
  } -> tensor<2x17x2x2x8xf16>
  %kr = tensor.collapse_shape %kr5 [[0], [1], [2, 3], [4]] : tensor<2x17x2x2x8xf16> into tensor<2x17x4x8xf16>
  %vr = tensor.collapse_shape %vr5 [[0], [1], [2, 3], [4]] : tensor<2x17x2x2x8xf16> into tensor<2x17x4x8xf16>
  %es = tensor.empty() : tensor<2x4x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x13x4x8xf16>, tensor<2x17x4x8xf16>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %ph = arith.truncf %p : tensor<2x4x13x17xf32> to tensor<2x4x13x17xf16>
  %zh = arith.constant 0.0 : f16
  %eo = tensor.empty() : tensor<2x13x4x8xf16>
  %eo2 = tensor.empty() : tensor<2x13x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo2 : tensor<2x13x4x8xf32>) -> tensor<2x13x4x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, j, h, e)>, affine_map<(b, h, i, e, j) -> (b, i, h, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ph, %vr : tensor<2x4x13x17xf16>, tensor<2x17x4x8xf16>) outs(%zo : tensor<2x13x4x8xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x13x4x8xf32>
  %oh = arith.truncf %o : tensor<2x13x4x8xf32> to tensor<2x13x4x8xf16>
  return %oh : tensor<2x13x4x8xf16>
}
