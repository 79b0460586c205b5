// Held-out spellings of attention with dynamic sequence lengths: inits
// sized with tensor.dim, linalg.softmax and decomposed softmaxes, Nq != Nk,
// dynamic transposes, reshapes, broadcasts, masks and a causal offset
// computed from the dynamic lengths. Each chunk's SIZES comment gives the
// run-time sizes of its `?` dims (in order across the arguments) for
// raisecheck.py.
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// RUN: flash-opt %s --split-input-file --flash-raise-attention --flash-to-nvvm=format=isa -o /dev/null
// EXEC-NOT: FAIL

// [?, 48] Q, K, V with independent dynamic lengths, K^T in the matmul
// maps, linalg.softmax, inits sized with tensor.dim.
// CHECK-LABEL: func.func @dyn_nd_linalg_softmax
// CHECK: flash.attention
// SIZES: 37, 45, 45
// EXEC: dyn_nd_linalg_softmax: raised=yes
func.func @dyn_nd_linalg_softmax(%q: tensor<?x48xf32>, %k: tensor<?x48xf32>,
                                 %v: tensor<?x40xf32>) -> tensor<?x40xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %nq = tensor.dim %q, %c0 : tensor<?x48xf32>
  %nk = tensor.dim %k, %c0 : tensor<?x48xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<?x48xf32>, tensor<?x48xf32>)
      outs(%z0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<?x?xf32>) outs(%e0 : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.14433756 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  %e1 = tensor.empty(%nq, %nk) : tensor<?x?xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<?x?xf32>) outs(%e1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<?x40xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<?x40xf32>) -> tensor<?x40xf32>
  %o = linalg.matmul ins(%p, %v : tensor<?x?xf32>, tensor<?x40xf32>) outs(%z3 : tensor<?x40xf32>) -> tensor<?x40xf32>
  return %o : tensor<?x40xf32>
}

// -----

// [2, ?, 64] with a decomposed keepdim softmax (-FLT_MAX max init, sub,
// exp, sum, divide), all inits sized with tensor.dim.
// CHECK-LABEL: func.func @dyn_bnd_decomposed_keepdim
// CHECK: flash.attention
// SIZES: 23, 41, 41
// EXEC: dyn_bnd_decomposed_keepdim: raised=yes
func.func @dyn_bnd_decomposed_keepdim(%q: tensor<2x?x64xf32>, %k: tensor<2x?x64xf32>,
                                      %v: tensor<2x?x64xf32>) -> tensor<2x?x64xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347e+38 : f32
  %c1 = arith.constant 1 : index
  %nq = tensor.dim %q, %c1 : tensor<2x?x64xf32>
  %nk = tensor.dim %k, %c1 : tensor<2x?x64xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<2x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x?x64xf32>, tensor<2x?x64xf32>)
      outs(%z0 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x?x?xf32>) outs(%e0 : tensor<2x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 8.0 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x?x?xf32>
  %em = tensor.empty(%nq) : tensor<2x?x1xf32>
  %mi = linalg.fill ins(%lowest : f32) outs(%em : tensor<2x?x1xf32>) -> tensor<2x?x1xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%sc : tensor<2x?x?xf32>) outs(%mi : tensor<2x?x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x?x1xf32>
  %sub = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc, %mx : tensor<2x?x?xf32>, tensor<2x?x1xf32>) outs(%e0 : tensor<2x?x?xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %y = arith.subf %x, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x?x?xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sub : tensor<2x?x?xf32>) outs(%e0 : tensor<2x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<2x?x?xf32>
  %li = linalg.fill ins(%zero : f32) outs(%em : tensor<2x?x1xf32>) -> tensor<2x?x1xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x?x?xf32>) outs(%li : tensor<2x?x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x?x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %l : tensor<2x?x?xf32>, tensor<2x?x1xf32>) outs(%e0 : tensor<2x?x?xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<2x?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<2x?x64xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x?x64xf32>) -> tensor<2x?x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x?x?xf32>, tensor<2x?x64xf32>) outs(%z3 : tensor<2x?x64xf32>) -> tensor<2x?x64xf32>
  return %o : tensor<2x?x64xf32>
}

// -----

// [1, 4, ?, 32] with generic contractions and linalg.softmax.
// CHECK-LABEL: func.func @dyn_bhnd_generic_contractions
// CHECK: flash.attention
// SIZES: 29, 37, 37
// EXEC: dyn_bhnd_generic_contractions: raised=yes
func.func @dyn_bhnd_generic_contractions(%q: tensor<1x4x?x32xf32>, %k: tensor<1x4x?x32xf32>,
                                         %v: tensor<1x4x?x32xf32>) -> tensor<1x4x?x32xf32> {
  %zero = arith.constant 0.0 : f32
  %c2 = arith.constant 2 : index
  %nq = tensor.dim %q, %c2 : tensor<1x4x?x32xf32>
  %nk = tensor.dim %k, %c2 : tensor<1x4x?x32xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<1x4x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x4x?x?xf32>) -> tensor<1x4x?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x4x?x32xf32>, tensor<1x4x?x32xf32>) outs(%z0 : tensor<1x4x?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x?x?xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x4x?x?xf32>) outs(%e0 : tensor<1x4x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.17677669 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<1x4x?x?xf32>
  %e1 = tensor.empty(%nq, %nk) : tensor<1x4x?x?xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<1x4x?x?xf32>) outs(%e1 : tensor<1x4x?x?xf32>) -> tensor<1x4x?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<1x4x?x32xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x4x?x32xf32>) -> tensor<1x4x?x32xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x4x?x?xf32>, tensor<1x4x?x32xf32>) outs(%z3 : tensor<1x4x?x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x?x32xf32>
  return %o : tensor<1x4x?x32xf32>
}

// -----

// Dynamic Nq != Nk ([2, ?, 24] queries, [2, ?, 24] keys), batch_matmul with
// transposing maps, decomposed softmax with rank-2 (non-keepdim) -inf max
// and sum inits.
// CHECK-LABEL: func.func @dyn_nq_ne_nk_decomposed
// CHECK: flash.attention
// SIZES: 29, 45, 45
// EXEC: dyn_nq_ne_nk_decomposed: raised=yes
func.func @dyn_nq_ne_nk_decomposed(%q: tensor<2x?x24xf32>, %k: tensor<2x?x24xf32>,
                                   %v: tensor<2x?x20xf32>) -> tensor<2x?x20xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c1 = arith.constant 1 : index
  %nq = tensor.dim %q, %c1 : tensor<2x?x24xf32>
  %nk = tensor.dim %k, %c1 : tensor<2x?x24xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<2x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x?x24xf32>, tensor<2x?x24xf32>)
      outs(%z0 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %er = tensor.empty(%nq) : tensor<2x?xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x?xf32>) -> tensor<2x?xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : tensor<2x?x?xf32>) outs(%mi : tensor<2x?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x?xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mx : tensor<2x?x?xf32>, tensor<2x?xf32>) outs(%e0 : tensor<2x?x?xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %d = arith.subf %x, %m : f32
    %t = arith.mulf %d, %c : f32
    %e = math.exp %t : f32
    linalg.yield %e : f32
  } -> tensor<2x?x?xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<2x?xf32>) -> tensor<2x?xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x?x?xf32>) outs(%li : tensor<2x?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x?xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %l : tensor<2x?x?xf32>, tensor<2x?xf32>) outs(%e0 : tensor<2x?x?xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<2x?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<2x?x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x?x20xf32>) -> tensor<2x?x20xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x?x?xf32>, tensor<2x?x20xf32>) outs(%z3 : tensor<2x?x20xf32>) -> tensor<2x?x20xf32>
  return %o : tensor<2x?x20xf32>
}

// -----

// [?, 24] with K transposed by a dynamic linalg.transpose, plain
// linalg.matmul, scale by a divide.
// CHECK-LABEL: func.func @dyn_kt_linalg_transpose
// CHECK: flash.attention
// SIZES: 37, 45, 45
// EXEC: dyn_kt_linalg_transpose: raised=yes
func.func @dyn_kt_linalg_transpose(%q: tensor<?x24xf32>, %k: tensor<?x24xf32>,
                                   %v: tensor<?x20xf32>) -> tensor<?x20xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %nq = tensor.dim %q, %c0 : tensor<?x24xf32>
  %nk = tensor.dim %k, %c0 : tensor<?x24xf32>
  %et = tensor.empty(%nk) : tensor<24x?xf32>
  %kt = linalg.transpose ins(%k : tensor<?x24xf32>) outs(%et : tensor<24x?xf32>) permutation = [1, 0]
  %e0 = tensor.empty(%nq, %nk) : tensor<?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<?x24xf32>, tensor<24x?xf32>) outs(%z0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<?x?xf32>) outs(%e0 : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 4.8989797 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<?x?xf32>) outs(%e0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<?x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<?x20xf32>) -> tensor<?x20xf32>
  %o = linalg.matmul ins(%p, %v : tensor<?x?xf32>, tensor<?x20xf32>) outs(%z3 : tensor<?x20xf32>) -> tensor<?x20xf32>
  return %o : tensor<?x20xf32>
}

// -----

// Dynamic causal, top-left aligned (j > i masked with -inf) in the score
// generic; run with Nq != Nk.
// CHECK-LABEL: func.func @dyn_causal_top_left
// CHECK: flash.attention
// SIZES: 29, 45, 45
// EXEC: dyn_causal_top_left: raised=yes
func.func @dyn_causal_top_left(%q: tensor<2x?x24xf32>, %k: tensor<2x?x24xf32>,
                               %v: tensor<2x?x20xf32>) -> tensor<2x?x20xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %nq = tensor.dim %q, %c1 : tensor<2x?x24xf32>
  %nk = tensor.dim %k, %c1 : tensor<2x?x24xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<2x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x?x24xf32>, tensor<2x?x24xf32>)
      outs(%z0 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x?x?xf32>) outs(%e0 : tensor<2x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %above = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %above, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<2x?x?xf32>) outs(%e0 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<2x?x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x?x20xf32>) -> tensor<2x?x20xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x?x?xf32>, tensor<2x?x20xf32>) outs(%z3 : tensor<2x?x20xf32>) -> tensor<2x?x20xf32>
  return %o : tensor<2x?x20xf32>
}

// -----

// Dynamic causal, bottom-right aligned: the offset Nk - Nq is computed from
// tensor.dim outside the generic and captured; key j is kept where
// j <= i + (Nk - Nq). Run with Nq <= Nk.
// CHECK-LABEL: func.func @dyn_causal_bottom_right_offset_from_dims
// CHECK: flash.attention
// SIZES: 29, 45, 45
// EXEC: dyn_causal_bottom_right_offset_from_dims: raised=yes
func.func @dyn_causal_bottom_right_offset_from_dims(%q: tensor<2x?x24xf32>, %k: tensor<2x?x24xf32>,
                                                    %v: tensor<2x?x20xf32>) -> tensor<2x?x20xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %nq = tensor.dim %q, %c1 : tensor<2x?x24xf32>
  %nk = tensor.dim %k, %c1 : tensor<2x?x24xf32>
  %off = arith.subi %nk, %nq : index
  %e0 = tensor.empty(%nq, %nk) : tensor<2x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x?x24xf32>, tensor<2x?x24xf32>)
      outs(%z0 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x?x?xf32>) outs(%e0 : tensor<2x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %lim = arith.addi %i, %off : index
    %keep = arith.cmpi sle, %j, %lim : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<2x?x?xf32>) outs(%e0 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<2x?x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x?x20xf32>) -> tensor<2x?x20xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x?x?xf32>, tensor<2x?x20xf32>) outs(%z3 : tensor<2x?x20xf32>) -> tensor<2x?x20xf32>
  return %o : tensor<2x?x20xf32>
}

// -----

// A dynamic additive mask [?, ?] broadcast over the batch.
// CHECK-LABEL: func.func @dyn_additive_mask
// CHECK: flash.attention
// SIZES: 29, 45, 45, 29, 45
// EXEC: dyn_additive_mask: raised=yes
func.func @dyn_additive_mask(%q: tensor<2x?x24xf32>, %k: tensor<2x?x24xf32>,
                             %v: tensor<2x?x20xf32>, %mask: tensor<?x?xf32>) -> tensor<2x?x20xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %nq = tensor.dim %q, %c1 : tensor<2x?x24xf32>
  %nk = tensor.dim %k, %c1 : tensor<2x?x24xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<2x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x?x24xf32>, tensor<2x?x24xf32>)
      outs(%z0 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x?x?xf32>, tensor<?x?xf32>) outs(%e0 : tensor<2x?x?xf32>) {
  ^bb0(%x: f32, %mk: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    %r = arith.addf %y, %mk : f32
    linalg.yield %r : f32
  } -> tensor<2x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<2x?x?xf32>) outs(%e0 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<2x?x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x?x20xf32>) -> tensor<2x?x20xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x?x?xf32>, tensor<2x?x20xf32>) outs(%z3 : tensor<2x?x20xf32>) -> tensor<2x?x20xf32>
  return %o : tensor<2x?x20xf32>
}

// -----

// torch-mlir's bmm with dynamic sequence lengths: [2, 3, ?, 24] heads
// collapsed into [6, ?, 24], K^T by a dynamic linalg.transpose, batch_matmul,
// linalg.softmax, and the output expanded back with a dynamic output_shape.
// CHECK-LABEL: func.func @dyn_collapse_expand_bmm
// CHECK: flash.attention
// SIZES: 29, 45, 45
// EXEC: dyn_collapse_expand_bmm: raised=yes
func.func @dyn_collapse_expand_bmm(%q: tensor<2x3x?x24xf32>, %k: tensor<2x3x?x24xf32>,
                                   %v: tensor<2x3x?x20xf32>) -> tensor<2x3x?x20xf32> {
  %zero = arith.constant 0.0 : f32
  %c2 = arith.constant 2 : index
  %nq = tensor.dim %q, %c2 : tensor<2x3x?x24xf32>
  %nk = tensor.dim %k, %c2 : tensor<2x3x?x24xf32>
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x3x?x24xf32> into tensor<6x?x24xf32>
  %kc = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x3x?x24xf32> into tensor<6x?x24xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x3x?x20xf32> into tensor<6x?x20xf32>
  %et = tensor.empty(%nk) : tensor<6x24x?xf32>
  %kt = linalg.transpose ins(%kc : tensor<6x?x24xf32>) outs(%et : tensor<6x24x?xf32>) permutation = [0, 2, 1]
  %e0 = tensor.empty(%nq, %nk) : tensor<6x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<6x?x?xf32>) -> tensor<6x?x?xf32>
  %s = linalg.batch_matmul ins(%qc, %kt : tensor<6x?x24xf32>, tensor<6x24x?xf32>) outs(%z0 : tensor<6x?x?xf32>) -> tensor<6x?x?xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<6x?x?xf32>) outs(%e0 : tensor<6x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<6x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<6x?x?xf32>) outs(%e0 : tensor<6x?x?xf32>) -> tensor<6x?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<6x?x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<6x?x20xf32>) -> tensor<6x?x20xf32>
  %o = linalg.batch_matmul ins(%p, %vc : tensor<6x?x?xf32>, tensor<6x?x20xf32>) outs(%z3 : tensor<6x?x20xf32>) -> tensor<6x?x20xf32>
  %oe = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 3, %nq, 20] : tensor<6x?x20xf32> into tensor<2x3x?x20xf32>
  return %oe : tensor<2x3x?x20xf32>
}

// -----

// Dynamic GQA by repeat_kv: K and V [1, 2, ?, 32] broadcast to
// [1, 2, 2, ?, 32] and collapsed to [1, 4, ?, 32].
// CHECK-LABEL: func.func @dyn_gqa_repeat_kv
// CHECK: flash.attention
// SIZES: 29, 37, 37
// EXEC: dyn_gqa_repeat_kv: raised=yes
func.func @dyn_gqa_repeat_kv(%q: tensor<1x4x?x32xf32>, %k: tensor<1x2x?x32xf32>,
                             %v: tensor<1x2x?x32xf32>) -> tensor<1x4x?x32xf32> {
  %zero = arith.constant 0.0 : f32
  %c2 = arith.constant 2 : index
  %nq = tensor.dim %q, %c2 : tensor<1x4x?x32xf32>
  %nk = tensor.dim %k, %c2 : tensor<1x2x?x32xf32>
  %eb = tensor.empty(%nk) : tensor<1x2x2x?x32xf32>
  %kb = linalg.broadcast ins(%k : tensor<1x2x?x32xf32>) outs(%eb : tensor<1x2x2x?x32xf32>) dimensions = [2]
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<1x2x2x?x32xf32> into tensor<1x4x?x32xf32>
  %vb = linalg.broadcast ins(%v : tensor<1x2x?x32xf32>) outs(%eb : tensor<1x2x2x?x32xf32>) dimensions = [2]
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<1x2x2x?x32xf32> into tensor<1x4x?x32xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<1x4x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x4x?x?xf32>) -> tensor<1x4x?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<1x4x?x32xf32>, tensor<1x4x?x32xf32>) outs(%z0 : tensor<1x4x?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x?x?xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x4x?x?xf32>) outs(%e0 : tensor<1x4x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 5.656854 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<1x4x?x?xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<1x4x?x?xf32>) outs(%e0 : tensor<1x4x?x?xf32>) -> tensor<1x4x?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<1x4x?x32xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x4x?x32xf32>) -> tensor<1x4x?x32xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vr : tensor<1x4x?x?xf32>, tensor<1x4x?x32xf32>) outs(%z3 : tensor<1x4x?x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x?x32xf32>
  return %o : tensor<1x4x?x32xf32>
}

// -----

// Dynamic bf16: bf16 x bf16 -> f32 batch_matmul, linalg.softmax in f32, P
// truncated to bf16, P*V into f32 and the output truncated to bf16.
// CHECK-LABEL: func.func @dyn_bf16_mixed_precision
// CHECK: flash.attention
// SIZES: 29, 45, 45
// EXEC: dyn_bf16_mixed_precision: raised=yes
func.func @dyn_bf16_mixed_precision(%q: tensor<2x?x24xbf16>, %k: tensor<2x?x24xbf16>,
                                    %v: tensor<2x?x20xbf16>) -> tensor<2x?x20xbf16> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %nq = tensor.dim %q, %c1 : tensor<2x?x24xbf16>
  %nk = tensor.dim %k, %c1 : tensor<2x?x24xbf16>
  %e0 = tensor.empty(%nq, %nk) : tensor<2x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x?x24xbf16>, tensor<2x?x24xbf16>)
      outs(%z0 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x?x?xf32>) outs(%e0 : tensor<2x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x?x?xf32>
  %e1 = tensor.empty(%nq, %nk) : tensor<2x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<2x?x?xf32>) outs(%e1 : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
  %eh = tensor.empty(%nq, %nk) : tensor<2x?x?xbf16>
  %ph = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p : tensor<2x?x?xf32>) outs(%eh : tensor<2x?x?xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %y = arith.truncf %x : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<2x?x?xbf16>
  %e3 = tensor.empty(%nq) : tensor<2x?x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x?x20xf32>) -> tensor<2x?x20xf32>
  %o = linalg.batch_matmul ins(%ph, %v : tensor<2x?x?xbf16>, tensor<2x?x20xbf16>) outs(%z3 : tensor<2x?x20xf32>) -> tensor<2x?x20xf32>
  %eo = tensor.empty(%nq) : tensor<2x?x20xbf16>
  %oh = linalg.generic {indexing_maps = [affine_map<(b, i, e) -> (b, i, e)>, affine_map<(b, i, e) -> (b, i, e)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o : tensor<2x?x20xf32>) outs(%eo : tensor<2x?x20xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x?x20xbf16>
  return %oh : tensor<2x?x20xbf16>
}

// -----

// Dynamic, normalization deferred after P*V: o = (exp(s - max) * V) / l.
// CHECK-LABEL: func.func @dyn_deferred_normalization
// CHECK: flash.attention
// SIZES: 37, 45, 45
// EXEC: dyn_deferred_normalization: raised=yes
func.func @dyn_deferred_normalization(%q: tensor<?x24xf32>, %k: tensor<?x24xf32>,
                                      %v: tensor<?x20xf32>) -> tensor<?x20xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : index
  %nq = tensor.dim %q, %c0 : tensor<?x24xf32>
  %nk = tensor.dim %k, %c0 : tensor<?x24xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<?x24xf32>, tensor<?x24xf32>)
      outs(%z0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %er = tensor.empty(%nq) : tensor<?xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<?x?xf32>) outs(%mi : tensor<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s, %mx : tensor<?x?xf32>, tensor<?xf32>) outs(%e0 : tensor<?x?xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %d = arith.subf %x, %m : f32
    %t = arith.mulf %d, %c : f32
    %e = math.exp %t : f32
    linalg.yield %e : f32
  } -> tensor<?x?xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<?x?xf32>) outs(%li : tensor<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %acc, %x : f32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  %e3 = tensor.empty(%nq) : tensor<?x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<?x20xf32>) -> tensor<?x20xf32>
  %u = linalg.matmul ins(%ex, %v : tensor<?x?xf32>, tensor<?x20xf32>) outs(%z3 : tensor<?x20xf32>) -> tensor<?x20xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, e) -> (i, e)>, affine_map<(i, e) -> (i)>, affine_map<(i, e) -> (i, e)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%u, %l : tensor<?x20xf32>, tensor<?xf32>) outs(%e3 : tensor<?x20xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<?x20xf32>
  return %o : tensor<?x20xf32>
}

// -----

// Varlen packing: a document mask read from segment ids tensor<?xi32>
// captured as it is (a dynamic captured operand, a flat buffer of dynamic
// length on the GPU path). Found by an adversarial tester, session 38.
// SIZES: 29, 29, 29, 29
// CHECK-LABEL: func.func @dyn_document_mask_varlen_ids
// CHECK: flash.attention {{.*}}captures(%{{.*}} : tensor<?xi32>)
// EXEC: dyn_document_mask_varlen_ids: raised=yes
func.func @dyn_document_mask_varlen_ids(%q: tensor<?x8xf32>, %k: tensor<?x8xf32>, %v: tensor<?x8xf32>, %seg: tensor<?xi32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %q, %c0 : tensor<?x8xf32>
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty(%n, %n) : tensor<?x?xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<?x8xf32>, tensor<?x8xf32>) outs(%zs : tensor<?x?xf32>) -> tensor<?x?xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %seg, %seg : tensor<?x?xf32>, tensor<?xi32>, tensor<?xi32>) outs(%es : tensor<?x?xf32>) {
  ^bb0(%x: f32, %si: i32, %sj: i32, %o: f32):
    %c = arith.constant 0.35355339 : f32
    %xs = arith.mulf %x, %c : f32
    %e = arith.cmpi eq, %si, %sj : i32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %e, %xs, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  %p = linalg.softmax dimension(1) ins(%m : tensor<?x?xf32>) outs(%es : tensor<?x?xf32>) -> tensor<?x?xf32>
  %eo = tensor.empty(%n) : tensor<?x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<?x8xf32>) -> tensor<?x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<?x?xf32>, tensor<?x8xf32>) outs(%zo : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %o : tensor<?x8xf32>
}

// -----

// A decode step's joint graph (one query, a dynamic number of keys): the
// backward's values share their own dims' extents no more (the one query's
// extent 1 had made dK's dynamic key dim a unit one, read at key 0).
// CHECK-LABEL: func.func @dyn_decode_joint
// CHECK: flash.attention
// CHECK: flash.attention_grad
// SIZES: 45
// EXEC: dyn_decode_joint: raised=yes
func.func @dyn_decode_joint(%A_q: tensor<2x4x1x16xf32>, %A_k: tensor<2x4x?x16xf32>, %A_v: tensor<2x4x?x16xf32>, %A_dout: tensor<2x4x1x16xf32>) -> (tensor<2x4x1x16xf32>, tensor<2x4x1x16xf32>, tensor<2x4x?x16xf32>, tensor<2x4x?x16xf32>) {
  %_c1 = arith.constant 2 : index
  %_d2 = tensor.dim %A_k, %_c1 : tensor<2x4x?x16xf32>
  %_e3 = tensor.empty(%_d2) : tensor<2x4x1x?xf32>
  %_c4 = arith.constant 0.0 : f32
  %_f5 = linalg.fill ins(%_c4 : f32) outs(%_e3 : tensor<2x4x1x?xf32>) -> tensor<2x4x1x?xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x1x16xf32>, tensor<2x4x?x16xf32>) outs(%_f5 : tensor<2x4x1x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x?xf32>
  %_e7 = tensor.empty(%_d2) : tensor<2x4x1x?xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<2x4x1x?xf32>) outs(%_e7 : tensor<2x4x1x?xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x?xf32>
  %_e9 = tensor.empty() : tensor<2x4x1x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<2x4x1x1xf32>) -> tensor<2x4x1x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x4x1x?xf32>) outs(%_f11 : tensor<2x4x1x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x1xf32>
  %_e13 = tensor.empty(%_d2) : tensor<2x4x1x?xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g12 : tensor<2x4x1x?xf32>, tensor<2x4x1x1xf32>) outs(%_e13 : tensor<2x4x1x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x?xf32>
  %_e15 = tensor.empty(%_d2) : tensor<2x4x1x?xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14 : tensor<2x4x1x?xf32>) outs(%_e15 : tensor<2x4x1x?xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x?xf32>
  %_e17 = tensor.empty() : tensor<2x4x1x1xf32>
  %_c18 = arith.constant 0.0 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<2x4x1x1xf32>) -> tensor<2x4x1x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<2x4x1x?xf32>) outs(%_f19 : tensor<2x4x1x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x1xf32>
  %_e21 = tensor.empty(%_d2) : tensor<2x4x1x?xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<2x4x1x?xf32>, tensor<2x4x1x1xf32>) outs(%_e21 : tensor<2x4x1x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x?xf32>
  %_e23 = tensor.empty() : tensor<2x4x1x16xf32>
  %_c24 = arith.constant 0.0 : f32
  %_f25 = linalg.fill ins(%_c24 : f32) outs(%_e23 : tensor<2x4x1x16xf32>) -> tensor<2x4x1x16xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_v : tensor<2x4x1x?xf32>, tensor<2x4x?x16xf32>) outs(%_f25 : tensor<2x4x1x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x16xf32>
  %_e27 = tensor.empty(%_d2) : tensor<2x4x?x16xf32>
  %_c28 = arith.constant 0.0 : f32
  %_f29 = linalg.fill ins(%_c28 : f32) outs(%_e27 : tensor<2x4x?x16xf32>) -> tensor<2x4x?x16xf32>
  %_g30 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_dout : tensor<2x4x1x?xf32>, tensor<2x4x1x16xf32>) outs(%_f29 : tensor<2x4x?x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x16xf32>
  %_e31 = tensor.empty(%_d2) : tensor<2x4x1x?xf32>
  %_c32 = arith.constant 0.0 : f32
  %_f33 = linalg.fill ins(%_c32 : f32) outs(%_e31 : tensor<2x4x1x?xf32>) -> tensor<2x4x1x?xf32>
  %_g34 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_dout, %A_v : tensor<2x4x1x16xf32>, tensor<2x4x?x16xf32>) outs(%_f33 : tensor<2x4x1x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x?xf32>
  %_e35 = tensor.empty(%_d2) : tensor<2x4x1x?xf32>
  %_g36 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g34, %_g22 : tensor<2x4x1x?xf32>, tensor<2x4x1x?xf32>) outs(%_e35 : tensor<2x4x1x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x?xf32>
  %_e37 = tensor.empty() : tensor<2x4x1x1xf32>
  %_c38 = arith.constant 0.0 : f32
  %_f39 = linalg.fill ins(%_c38 : f32) outs(%_e37 : tensor<2x4x1x1xf32>) -> tensor<2x4x1x1xf32>
  %_g40 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g36 : tensor<2x4x1x?xf32>) outs(%_f39 : tensor<2x4x1x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x1xf32>
  %_e41 = tensor.empty(%_d2) : tensor<2x4x1x?xf32>
  %_g42 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g34, %_g40 : tensor<2x4x1x?xf32>, tensor<2x4x1x1xf32>) outs(%_e41 : tensor<2x4x1x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x?xf32>
  %_e43 = tensor.empty(%_d2) : tensor<2x4x1x?xf32>
  %_g44 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g42, %_g22 : tensor<2x4x1x?xf32>, tensor<2x4x1x?xf32>) outs(%_e43 : tensor<2x4x1x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x?xf32>
  %_e45 = tensor.empty(%_d2) : tensor<2x4x1x?xf32>
  %_g46 = linalg.generic {indexing_maps = [affine_map<(b, h, n, d) -> (b, h, n, d)>, affine_map<(b, h, n, d) -> (b, h, n, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g44 : tensor<2x4x1x?xf32>) outs(%_e45 : tensor<2x4x1x?xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x?xf32>
  %_e47 = tensor.empty() : tensor<2x4x1x16xf32>
  %_c48 = arith.constant 0.0 : f32
  %_f49 = linalg.fill ins(%_c48 : f32) outs(%_e47 : tensor<2x4x1x16xf32>) -> tensor<2x4x1x16xf32>
  %_g50 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g46, %A_k : tensor<2x4x1x?xf32>, tensor<2x4x?x16xf32>) outs(%_f49 : tensor<2x4x1x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x16xf32>
  %_e51 = tensor.empty(%_d2) : tensor<2x4x?x16xf32>
  %_c52 = arith.constant 0.0 : f32
  %_f53 = linalg.fill ins(%_c52 : f32) outs(%_e51 : tensor<2x4x?x16xf32>) -> tensor<2x4x?x16xf32>
  %_g54 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g46, %A_q : tensor<2x4x1x?xf32>, tensor<2x4x1x16xf32>) outs(%_f53 : tensor<2x4x?x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x16xf32>
  return %_g26, %_g50, %_g54, %_g30 : tensor<2x4x1x16xf32>, tensor<2x4x1x16xf32>, tensor<2x4x?x16xf32>, tensor<2x4x?x16xf32>
}

// -----

// A decode step's causal finfo.min mask, j <=u i + Nk - 1: key 0 is seen
// by the one row (!(1 <= Nk & Nk <= 0) once the unsigned compare is
// split: two bounds whose sum is 1 cannot both hold).
// CHECK-LABEL: func.func @dyn_decode_causal_finfo_min
// CHECK: flash.attention
// SIZES: 45
// EXEC: dyn_decode_causal_finfo_min: raised=yes
func.func @dyn_decode_causal_finfo_min(%A_q: tensor<2x4x1x16xf32>, %A_k: tensor<2x4x?x16xf32>, %A_v: tensor<2x4x?x16xf32>) -> (tensor<2x4x1x16xf32>) {
  %_cl1 = tensor.collapse_shape %A_q [[0, 1], [2], [3]] : tensor<2x4x1x16xf32> into tensor<8x1x16xf32>
  %_cl2 = tensor.collapse_shape %A_k [[0, 1], [2], [3]] : tensor<2x4x?x16xf32> into tensor<8x?x16xf32>
  %_c3 = arith.constant 2 : index
  %_d4 = tensor.dim %A_k, %_c3 : tensor<2x4x?x16xf32>
  %_e5 = tensor.empty(%_d4) : tensor<8x1x?xf32>
  %_c6 = arith.constant 0.0 : f32
  %_f7 = linalg.fill ins(%_c6 : f32) outs(%_e5 : tensor<8x1x?xf32>) -> tensor<8x1x?xf32>
  %_mm8 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%_cl1, %_cl2 : tensor<8x1x16xf32>, tensor<8x?x16xf32>) outs(%_f7 : tensor<8x1x?xf32>) -> tensor<8x1x?xf32>
  %_ex9 = tensor.expand_shape %_mm8 [[0, 1], [2], [3]] output_shape [2, 4, 1, %_d4] : tensor<8x1x?xf32> into tensor<2x4x1x?xf32>
  %_e10 = tensor.empty(%_d4) : tensor<2x4x1x?xf32>
  %_g11 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_ex9 : tensor<2x4x1x?xf32>) outs(%_e10 : tensor<2x4x1x?xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 4.0 : f32
    %r = arith.divf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x?xf32>
  %_c12 = arith.constant 1 : index
  %_off13 = arith.subi %_d4, %_c12 : index
  %_e14 = tensor.empty(%_d4) : tensor<2x4x1x?xf32>
  %_g15 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g11 : tensor<2x4x1x?xf32>) outs(%_e14 : tensor<2x4x1x?xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ip = arith.addi %i, %_off13 : index
    %keep = arith.cmpi ule, %j, %ip : index
    %mn = arith.constant -3.40282347E+38 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x?xf32>
  %_e16 = tensor.empty() : tensor<2x4x1x1xf32>
  %_c17 = arith.constant 0xFF800000 : f32
  %_f18 = linalg.fill ins(%_c17 : f32) outs(%_e16 : tensor<2x4x1x1xf32>) -> tensor<2x4x1x1xf32>
  %_g19 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g15 : tensor<2x4x1x?xf32>) outs(%_f18 : tensor<2x4x1x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x1xf32>
  %_e20 = tensor.empty(%_d4) : tensor<2x4x1x?xf32>
  %_g21 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g15, %_g19 : tensor<2x4x1x?xf32>, tensor<2x4x1x1xf32>) outs(%_e20 : tensor<2x4x1x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x?xf32>
  %_e22 = tensor.empty(%_d4) : tensor<2x4x1x?xf32>
  %_g23 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g21 : tensor<2x4x1x?xf32>) outs(%_e22 : tensor<2x4x1x?xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x?xf32>
  %_e24 = tensor.empty() : tensor<2x4x1x1xf32>
  %_c25 = arith.constant 0.0 : f32
  %_f26 = linalg.fill ins(%_c25 : f32) outs(%_e24 : tensor<2x4x1x1xf32>) -> tensor<2x4x1x1xf32>
  %_g27 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g23 : tensor<2x4x1x?xf32>) outs(%_f26 : tensor<2x4x1x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x1xf32>
  %_e28 = tensor.empty(%_d4) : tensor<2x4x1x?xf32>
  %_g29 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g23, %_g27 : tensor<2x4x1x?xf32>, tensor<2x4x1x1xf32>) outs(%_e28 : tensor<2x4x1x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x1x?xf32>
  %_cl30 = tensor.collapse_shape %_g29 [[0, 1], [2], [3]] : tensor<2x4x1x?xf32> into tensor<8x1x?xf32>
  %_cl31 = tensor.collapse_shape %A_v [[0, 1], [2], [3]] : tensor<2x4x?x16xf32> into tensor<8x?x16xf32>
  %_e32 = tensor.empty() : tensor<8x1x16xf32>
  %_c33 = arith.constant 0.0 : f32
  %_f34 = linalg.fill ins(%_c33 : f32) outs(%_e32 : tensor<8x1x16xf32>) -> tensor<8x1x16xf32>
  %_mm35 = linalg.batch_matmul ins(%_cl30, %_cl31 : tensor<8x1x?xf32>, tensor<8x?x16xf32>) outs(%_f34 : tensor<8x1x16xf32>) -> tensor<8x1x16xf32>
  %_ex36 = tensor.expand_shape %_mm35 [[0, 1], [2], [3]] output_shape [2, 4, 1, 16] : tensor<8x1x16xf32> into tensor<2x4x1x16xf32>
  return %_ex36 : tensor<2x4x1x16xf32>
}

// -----

// A bottom-right causal finfo.min mask of dynamic sizes compared unsigned,
// j <=u i + Nk - Nq: where Nq > Nk the first rows' limit wraps and they
// see every key (as the program computes it), so key 0 is seen by every row.
// CHECK-LABEL: func.func @dyn_causal_unsigned_finfo_min
// CHECK: flash.attention
// SIZES: 37, 45
// EXEC: dyn_causal_unsigned_finfo_min: raised=yes
func.func @dyn_causal_unsigned_finfo_min(%A_q: tensor<2x4x?x16xf32>, %A_k: tensor<2x4x?x16xf32>, %A_v: tensor<2x4x?x16xf32>) -> (tensor<2x4x?x16xf32>) {
  %_c1 = arith.constant 2 : index
  %_d2 = tensor.dim %A_q, %_c1 : tensor<2x4x?x16xf32>
  %_c3 = arith.constant 2 : index
  %_d4 = tensor.dim %A_k, %_c3 : tensor<2x4x?x16xf32>
  %_e5 = tensor.empty(%_d2, %_d4) : tensor<2x4x?x?xf32>
  %_c6 = arith.constant 0.0 : f32
  %_f7 = linalg.fill ins(%_c6 : f32) outs(%_e5 : tensor<2x4x?x?xf32>) -> tensor<2x4x?x?xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x?x16xf32>, tensor<2x4x?x16xf32>) outs(%_f7 : tensor<2x4x?x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x?xf32>
  %_e9 = tensor.empty(%_d2, %_d4) : tensor<2x4x?x?xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8 : tensor<2x4x?x?xf32>) outs(%_e9 : tensor<2x4x?x?xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x?xf32>
  %_off11 = arith.subi %_d4, %_d2 : index
  %_e12 = tensor.empty(%_d2, %_d4) : tensor<2x4x?x?xf32>
  %_g13 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g10 : tensor<2x4x?x?xf32>) outs(%_e12 : tensor<2x4x?x?xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ip = arith.addi %i, %_off11 : index
    %keep = arith.cmpi ule, %j, %ip : index
    %mn = arith.constant -3.40282347E+38 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x?xf32>
  %_e14 = tensor.empty(%_d2) : tensor<2x4x?x1xf32>
  %_c15 = arith.constant 0xFF800000 : f32
  %_f16 = linalg.fill ins(%_c15 : f32) outs(%_e14 : tensor<2x4x?x1xf32>) -> tensor<2x4x?x1xf32>
  %_g17 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g13 : tensor<2x4x?x?xf32>) outs(%_f16 : tensor<2x4x?x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x1xf32>
  %_e18 = tensor.empty(%_d2, %_d4) : tensor<2x4x?x?xf32>
  %_g19 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g13, %_g17 : tensor<2x4x?x?xf32>, tensor<2x4x?x1xf32>) outs(%_e18 : tensor<2x4x?x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x?xf32>
  %_e20 = tensor.empty(%_d2, %_d4) : tensor<2x4x?x?xf32>
  %_g21 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g19 : tensor<2x4x?x?xf32>) outs(%_e20 : tensor<2x4x?x?xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x?xf32>
  %_e22 = tensor.empty(%_d2) : tensor<2x4x?x1xf32>
  %_c23 = arith.constant 0.0 : f32
  %_f24 = linalg.fill ins(%_c23 : f32) outs(%_e22 : tensor<2x4x?x1xf32>) -> tensor<2x4x?x1xf32>
  %_g25 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g21 : tensor<2x4x?x?xf32>) outs(%_f24 : tensor<2x4x?x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x1xf32>
  %_e26 = tensor.empty(%_d2, %_d4) : tensor<2x4x?x?xf32>
  %_g27 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g21, %_g25 : tensor<2x4x?x?xf32>, tensor<2x4x?x1xf32>) outs(%_e26 : tensor<2x4x?x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x?xf32>
  %_e28 = tensor.empty(%_d2) : tensor<2x4x?x16xf32>
  %_c29 = arith.constant 0.0 : f32
  %_f30 = linalg.fill ins(%_c29 : f32) outs(%_e28 : tensor<2x4x?x16xf32>) -> tensor<2x4x?x16xf32>
  %_g31 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g27, %A_v : tensor<2x4x?x?xf32>, tensor<2x4x?x16xf32>) outs(%_f30 : tensor<2x4x?x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x16xf32>
  return %_g31 : tensor<2x4x?x16xf32>
}

// -----

// A bottom-right causal finfo.min mask of dynamic sizes compared unsigned,
// j <=u i + Nk - Nq: where Nq > Nk the first rows' limit wraps and they
// see every key (as the program computes it), so key 0 is seen by every row.
// CHECK-LABEL: func.func @dyn_causal_unsigned_finfo_min_nq_above_nk
// CHECK: flash.attention
// SIZES: 45, 37
// EXEC: dyn_causal_unsigned_finfo_min_nq_above_nk: raised=yes
func.func @dyn_causal_unsigned_finfo_min_nq_above_nk(%A_q: tensor<2x4x?x16xf32>, %A_k: tensor<2x4x?x16xf32>, %A_v: tensor<2x4x?x16xf32>) -> (tensor<2x4x?x16xf32>) {
  %_c1 = arith.constant 2 : index
  %_d2 = tensor.dim %A_q, %_c1 : tensor<2x4x?x16xf32>
  %_c3 = arith.constant 2 : index
  %_d4 = tensor.dim %A_k, %_c3 : tensor<2x4x?x16xf32>
  %_e5 = tensor.empty(%_d2, %_d4) : tensor<2x4x?x?xf32>
  %_c6 = arith.constant 0.0 : f32
  %_f7 = linalg.fill ins(%_c6 : f32) outs(%_e5 : tensor<2x4x?x?xf32>) -> tensor<2x4x?x?xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x?x16xf32>, tensor<2x4x?x16xf32>) outs(%_f7 : tensor<2x4x?x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x?xf32>
  %_e9 = tensor.empty(%_d2, %_d4) : tensor<2x4x?x?xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8 : tensor<2x4x?x?xf32>) outs(%_e9 : tensor<2x4x?x?xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x?xf32>
  %_off11 = arith.subi %_d4, %_d2 : index
  %_e12 = tensor.empty(%_d2, %_d4) : tensor<2x4x?x?xf32>
  %_g13 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g10 : tensor<2x4x?x?xf32>) outs(%_e12 : tensor<2x4x?x?xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ip = arith.addi %i, %_off11 : index
    %keep = arith.cmpi ule, %j, %ip : index
    %mn = arith.constant -3.40282347E+38 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x?xf32>
  %_e14 = tensor.empty(%_d2) : tensor<2x4x?x1xf32>
  %_c15 = arith.constant 0xFF800000 : f32
  %_f16 = linalg.fill ins(%_c15 : f32) outs(%_e14 : tensor<2x4x?x1xf32>) -> tensor<2x4x?x1xf32>
  %_g17 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g13 : tensor<2x4x?x?xf32>) outs(%_f16 : tensor<2x4x?x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x1xf32>
  %_e18 = tensor.empty(%_d2, %_d4) : tensor<2x4x?x?xf32>
  %_g19 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g13, %_g17 : tensor<2x4x?x?xf32>, tensor<2x4x?x1xf32>) outs(%_e18 : tensor<2x4x?x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x?xf32>
  %_e20 = tensor.empty(%_d2, %_d4) : tensor<2x4x?x?xf32>
  %_g21 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g19 : tensor<2x4x?x?xf32>) outs(%_e20 : tensor<2x4x?x?xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x?xf32>
  %_e22 = tensor.empty(%_d2) : tensor<2x4x?x1xf32>
  %_c23 = arith.constant 0.0 : f32
  %_f24 = linalg.fill ins(%_c23 : f32) outs(%_e22 : tensor<2x4x?x1xf32>) -> tensor<2x4x?x1xf32>
  %_g25 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g21 : tensor<2x4x?x?xf32>) outs(%_f24 : tensor<2x4x?x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x1xf32>
  %_e26 = tensor.empty(%_d2, %_d4) : tensor<2x4x?x?xf32>
  %_g27 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g21, %_g25 : tensor<2x4x?x?xf32>, tensor<2x4x?x1xf32>) outs(%_e26 : tensor<2x4x?x?xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x?xf32>
  %_e28 = tensor.empty(%_d2) : tensor<2x4x?x16xf32>
  %_c29 = arith.constant 0.0 : f32
  %_f30 = linalg.fill ins(%_c29 : f32) outs(%_e28 : tensor<2x4x?x16xf32>) -> tensor<2x4x?x16xf32>
  %_g31 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g27, %A_v : tensor<2x4x?x?xf32>, tensor<2x4x?x16xf32>) outs(%_f30 : tensor<2x4x?x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x?x16xf32>
  return %_g31 : tensor<2x4x?x16xf32>
}
