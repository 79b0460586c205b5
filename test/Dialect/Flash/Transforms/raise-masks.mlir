// Held-out spellings of masked attention: causal masks from linalg.index
// compares (in the score generic, as a separate additive tensor, as an i1
// tensor, torch-mlir's i64 compares, Nq != Nk top-left and bottom-right),
// i1 keep-masks and additive float masks broadcast from [N,N], [B,1,N,N]
// or [B,1,1,N], inverted bool masks and Hugging Face's padding-mask to
// finfo.min conversion.
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// Causal (square, 41 x 41): the score generic scales and selects -inf
// where j > i (cmpi ugt on the linalg.index values).
// CHECK-LABEL: func.func @causal_select_neg_inf_in_score_generic
// CHECK: flash.attention
// EXEC: causal_select_neg_inf_in_score_generic: raised=yes
func.func @causal_select_neg_inf_in_score_generic(%q: tensor<2x41x24xf32>, %k: tensor<2x41x24xf32>,
                                                  %v: tensor<2x41x20xf32>) -> tensor<2x41x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x41x41xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x41x41xf32>) -> tensor<2x41x41xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x41x24xf32>, tensor<2x41x24xf32>)
      outs(%z0 : tensor<2x41x41xf32>) -> tensor<2x41x41xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x41x41xf32>) outs(%e0 : tensor<2x41x41xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %above = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %above, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x41x41xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<2x41x41xf32>) outs(%e0 : tensor<2x41x41xf32>) -> tensor<2x41x41xf32>
  %e3 = tensor.empty() : tensor<2x41x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x41x20xf32>) -> tensor<2x41x20xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x41x41xf32>, tensor<2x41x20xf32>) outs(%z3 : tensor<2x41x20xf32>) -> tensor<2x41x20xf32>
  return %o : tensor<2x41x20xf32>
}

// -----

// Causal [N,D] with the lowest finite float (-3.40282347e+38, finfo.min)
// instead of -inf, compared with cmpi sgt; the scale applied after the mask.
// CHECK-LABEL: func.func @causal_select_finfo_min_sgt
// CHECK: flash.attention
// EXEC: causal_select_finfo_min_sgt: raised=yes
func.func @causal_select_finfo_min_sgt(%q: tensor<41x24xf32>, %k: tensor<41x24xf32>,
                                       %v: tensor<41x20xf32>) -> tensor<41x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<41x41xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<41x41xf32>) -> tensor<41x41xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<41x24xf32>, tensor<41x24xf32>)
      outs(%z0 : tensor<41x41xf32>) -> tensor<41x41xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<41x41xf32>) outs(%e0 : tensor<41x41xf32>) {
  ^bb0(%x: f32, %o: f32):
    %lowest = arith.constant -3.40282347e+38 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %above = arith.cmpi sgt, %j, %i : index
    %r = arith.select %above, %lowest, %x : f32
    linalg.yield %r : f32
  } -> tensor<41x41xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%sm : tensor<41x41xf32>) outs(%e0 : tensor<41x41xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 4.8989797 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<41x41xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<41x41xf32>) outs(%e0 : tensor<41x41xf32>) -> tensor<41x41xf32>
  %e3 = tensor.empty() : tensor<41x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<41x20xf32>) -> tensor<41x20xf32>
  %o = linalg.matmul ins(%p, %v : tensor<41x41xf32>, tensor<41x20xf32>) outs(%z3 : tensor<41x20xf32>) -> tensor<41x20xf32>
  return %o : tensor<41x20xf32>
}

// -----

// Causal as a keep condition: select(j <= i (cmpi sle), s, -inf), in a
// 4-D score generic that also scales; decomposed softmax.
// CHECK-LABEL: func.func @causal_keep_sle_select_bhnd
// CHECK: flash.attention
// EXEC: causal_keep_sle_select_bhnd: raised=yes
func.func @causal_keep_sle_select_bhnd(%q: tensor<2x3x41x24xf32>, %k: tensor<2x3x41x24xf32>,
                                       %v: tensor<2x3x41x20xf32>) -> tensor<2x3x41x20xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<2x3x41x41xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x3x41x41xf32>) -> tensor<2x3x41x41xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x3x41x24xf32>, tensor<2x3x41x24xf32>) outs(%z0 : tensor<2x3x41x41xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x41x41xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x3x41x41xf32>) outs(%e0 : tensor<2x3x41x41xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %keep = arith.cmpi sle, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x3x41x41xf32>
  %em = tensor.empty() : tensor<2x3x41xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%em : tensor<2x3x41xf32>) -> tensor<2x3x41xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%sm : tensor<2x3x41x41xf32>) outs(%mi : tensor<2x3x41xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x3x41xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sm, %mx : tensor<2x3x41x41xf32>, tensor<2x3x41xf32>) outs(%e0 : tensor<2x3x41x41xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<2x3x41x41xf32>
  %li = linalg.fill ins(%zero : f32) outs(%em : tensor<2x3x41xf32>) -> tensor<2x3x41xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x3x41x41xf32>) outs(%li : tensor<2x3x41xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x3x41xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %l : tensor<2x3x41x41xf32>, tensor<2x3x41xf32>) outs(%e0 : tensor<2x3x41x41xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<2x3x41x41xf32>
  %e3 = tensor.empty() : tensor<2x3x41x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x3x41x20xf32>) -> tensor<2x3x41x20xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x3x41x41xf32>, tensor<2x3x41x20xf32>) outs(%z3 : tensor<2x3x41x20xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x41x20xf32>
  return %o : tensor<2x3x41x20xf32>
}

// -----

// Causal as an additive tensor: a separate generic (no inputs) builds the
// [N,N] 0 / -inf mask from linalg.index compares, another generic adds it
// (broadcast over the batch) to the scaled scores.
// CHECK-LABEL: func.func @causal_additive_tensor_from_index_generic
// CHECK: flash.attention
// EXEC: causal_additive_tensor_from_index_generic: raised=yes
func.func @causal_additive_tensor_from_index_generic(%q: tensor<2x41x24xf32>, %k: tensor<2x41x24xf32>,
                                                     %v: tensor<2x41x20xf32>) -> tensor<2x41x20xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %em = tensor.empty() : tensor<41x41xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%em : tensor<41x41xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %above = arith.cmpi ugt, %j, %i : index
    %r = arith.select %above, %ninf, %zero : f32
    linalg.yield %r : f32
  } -> tensor<41x41xf32>
  %e0 = tensor.empty() : tensor<2x41x41xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x41x41xf32>) -> tensor<2x41x41xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x41x24xf32>, tensor<2x41x24xf32>)
      outs(%z0 : tensor<2x41x41xf32>) -> tensor<2x41x41xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x41x41xf32>, tensor<41x41xf32>) outs(%e0 : tensor<2x41x41xf32>) {
  ^bb0(%x: f32, %mk: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    %r = arith.addf %y, %mk : f32
    linalg.yield %r : f32
  } -> tensor<2x41x41xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<2x41x41xf32>) outs(%e0 : tensor<2x41x41xf32>) -> tensor<2x41x41xf32>
  %e3 = tensor.empty() : tensor<2x41x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x41x20xf32>) -> tensor<2x41x20xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x41x41xf32>, tensor<2x41x20xf32>) outs(%z3 : tensor<2x41x20xf32>) -> tensor<2x41x20xf32>
  return %o : tensor<2x41x20xf32>
}

// -----

// An i1 keep-mask argument [Nq,Nk] broadcast over batch and heads (read
// with (b, h, i, j) -> (i, j)) selecting -inf where false.
// CHECK-LABEL: func.func @keep_mask_i1_nn_broadcast_bhnd
// CHECK: flash.attention
// EXEC: keep_mask_i1_nn_broadcast_bhnd: raised=yes
func.func @keep_mask_i1_nn_broadcast_bhnd(%q: tensor<2x3x37x24xf32>, %k: tensor<2x3x45x24xf32>,
                                          %v: tensor<2x3x45x20xf32>, %keep: tensor<37x45xi1>) -> tensor<2x3x37x20xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %keep : tensor<2x3x37x45xf32>, tensor<37x45xi1>) outs(%e0 : tensor<2x3x37x45xf32>) {
  ^bb0(%x: f32, %kp: i1, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %c : f32
    %r = arith.select %kp, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x3x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x3x37x45xf32>) outs(%e0 : tensor<2x3x37x45xf32>) -> tensor<2x3x37x45xf32>
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

// An i1 keep-mask argument [B,1,Nq,Nk] (torch's [B,1,N,N] attn_mask) read
// with (b, h, i, j) -> (b, 0, i, j), selecting finfo.min where false.
// CHECK-LABEL: func.func @keep_mask_i1_b1nn_finfo_min
// CHECK: flash.attention
// EXEC: keep_mask_i1_b1nn_finfo_min: raised=yes
func.func @keep_mask_i1_b1nn_finfo_min(%q: tensor<2x3x37x24xf32>, %k: tensor<2x3x45x24xf32>,
                                       %v: tensor<2x3x45x20xf32>, %keep: tensor<2x1x37x45xi1>) -> tensor<2x3x37x20xf32> {
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
    %c = arith.constant 4.8989797 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x3x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, 0, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sc, %keep : tensor<2x3x37x45xf32>, tensor<2x1x37x45xi1>) outs(%e0 : tensor<2x3x37x45xf32>) {
  ^bb0(%x: f32, %kp: i1, %o: f32):
    %lowest = arith.constant -3.40282347e+38 : f32
    %r = arith.select %kp, %x, %lowest : f32
    linalg.yield %r : f32
  } -> tensor<2x3x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x3x37x45xf32>) outs(%e0 : tensor<2x3x37x45xf32>) -> tensor<2x3x37x45xf32>
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

// An additive float mask argument [B,1,Nq,Nk] read with
// (b, h, i, j) -> (b, 0, i, j), added after the scale.
// CHECK-LABEL: func.func @additive_mask_b1nn
// CHECK: flash.attention
// EXEC: additive_mask_b1nn: raised=yes
func.func @additive_mask_b1nn(%q: tensor<2x3x37x24xf32>, %k: tensor<2x3x45x24xf32>,
                              %v: tensor<2x3x45x20xf32>, %mask: tensor<2x1x37x45xf32>) -> tensor<2x3x37x20xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, 0, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x3x37x45xf32>, tensor<2x1x37x45xf32>) outs(%e0 : tensor<2x3x37x45xf32>) {
  ^bb0(%x: f32, %mk: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %y = arith.mulf %x, %c : f32
    %r = arith.addf %y, %mk : f32
    linalg.yield %r : f32
  } -> tensor<2x3x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x3x37x45xf32>) outs(%e0 : tensor<2x3x37x45xf32>) -> tensor<2x3x37x45xf32>
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

// An additive float mask argument [Nq,Nk] on 4-D scores, added by its own
// generic (mask first) after a separate scale generic.
// CHECK-LABEL: func.func @additive_mask_nn_on_bhnd
// CHECK: flash.attention
// EXEC: additive_mask_nn_on_bhnd: raised=yes
func.func @additive_mask_nn_on_bhnd(%q: tensor<2x3x37x24xf32>, %k: tensor<2x3x45x24xf32>,
                                    %v: tensor<2x3x45x20xf32>, %mask: tensor<37x45xf32>) -> tensor<2x3x37x20xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%mask, %sc : tensor<37x45xf32>, tensor<2x3x37x45xf32>) outs(%e0 : tensor<2x3x37x45xf32>) {
  ^bb0(%mk: f32, %x: f32, %o: f32):
    %r = arith.addf %mk, %x : f32
    linalg.yield %r : f32
  } -> tensor<2x3x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x3x37x45xf32>) outs(%e0 : tensor<2x3x37x45xf32>) -> tensor<2x3x37x45xf32>
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

// Causal with Nq = 29 < Nk = 45, top-left aligned (PyTorch is_causal):
// key j is masked where j > i.
// CHECK-LABEL: func.func @causal_top_left_nq_lt_nk
// CHECK: flash.attention
// EXEC: causal_top_left_nq_lt_nk: raised=yes
func.func @causal_top_left_nq_lt_nk(%q: tensor<2x29x24xf32>, %k: tensor<2x45x24xf32>,
                                    %v: tensor<2x45x20xf32>) -> tensor<2x29x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x29x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x29x45xf32>) -> tensor<2x29x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x29x24xf32>, tensor<2x45x24xf32>)
      outs(%z0 : tensor<2x29x45xf32>) -> tensor<2x29x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x29x45xf32>) outs(%e0 : tensor<2x29x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %above = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %above, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x29x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<2x29x45xf32>) outs(%e0 : tensor<2x29x45xf32>) -> tensor<2x29x45xf32>
  %e3 = tensor.empty() : tensor<2x29x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x29x20xf32>) -> tensor<2x29x20xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x29x45xf32>, tensor<2x45x20xf32>) outs(%z3 : tensor<2x29x20xf32>) -> tensor<2x29x20xf32>
  return %o : tensor<2x29x20xf32>
}

// -----

// Causal with Nq = 29 < Nk = 45, bottom-right aligned (FlashAttention >= 2.1,
// a KV cache): key j is kept where j <= i + (Nk - Nq) = i + 16.
// CHECK-LABEL: func.func @causal_bottom_right_nq_lt_nk
// CHECK: flash.attention
// EXEC: causal_bottom_right_nq_lt_nk: raised=yes
func.func @causal_bottom_right_nq_lt_nk(%q: tensor<2x29x24xf32>, %k: tensor<2x45x24xf32>,
                                        %v: tensor<2x45x20xf32>) -> tensor<2x29x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x29x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x29x45xf32>) -> tensor<2x29x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x29x24xf32>, tensor<2x45x24xf32>)
      outs(%z0 : tensor<2x29x45xf32>) -> tensor<2x29x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x29x45xf32>) outs(%e0 : tensor<2x29x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %off = arith.constant 16 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %lim = arith.addi %i, %off : index
    %keep = arith.cmpi ule, %j, %lim : index
    %y = arith.mulf %x, %c : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x29x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<2x29x45xf32>) outs(%e0 : tensor<2x29x45xf32>) -> tensor<2x29x45xf32>
  %e3 = tensor.empty() : tensor<2x29x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x29x20xf32>) -> tensor<2x29x20xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x29x45xf32>, tensor<2x45x20xf32>) outs(%z3 : tensor<2x29x20xf32>) -> tensor<2x29x20xf32>
  return %o : tensor<2x29x20xf32>
}

// -----

// torch-mlir's causal mask: an i1 [N,N] tensor from torch.triu(ones,
// diagonal=1) built by a generic comparing the i64 index_casts of the
// positions (j > i), then masked_fill: select(m, -inf, s).
// CHECK-LABEL: func.func @causal_torch_i64_triu_bool_tensor
// CHECK: flash.attention
// EXEC: causal_torch_i64_triu_bool_tensor: raised=yes
func.func @causal_torch_i64_triu_bool_tensor(%q: tensor<2x41x24xf32>, %k: tensor<2x41x24xf32>,
                                             %v: tensor<2x41x20xf32>) -> tensor<2x41x20xf32> {
  %zero = arith.constant 0.0 : f32
  %eb = tensor.empty() : tensor<41x41xi1>
  %triu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%eb : tensor<41x41xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %ji = arith.index_cast %j : index to i64
    %one = arith.constant 1 : i64
    %d = arith.subi %ji, %ii : i64
    %r = arith.cmpi sge, %d, %one : i64
    linalg.yield %r : i1
  } -> tensor<41x41xi1>
  %e0 = tensor.empty() : tensor<2x41x41xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x41x41xf32>) -> tensor<2x41x41xf32>
  %et = tensor.empty() : tensor<2x24x41xf32>
  %kt = linalg.transpose ins(%k : tensor<2x41x24xf32>) outs(%et : tensor<2x24x41xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x41x24xf32>, tensor<2x24x41xf32>) outs(%z0 : tensor<2x41x41xf32>) -> tensor<2x41x41xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x41x41xf32>) outs(%e0 : tensor<2x41x41xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 4.8989797 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x41x41xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc, %triu : tensor<2x41x41xf32>, tensor<41x41xi1>) outs(%e0 : tensor<2x41x41xf32>) {
  ^bb0(%x: f32, %m: i1, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.select %m, %ninf, %x : f32
    linalg.yield %r : f32
  } -> tensor<2x41x41xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<2x41x41xf32>) outs(%e0 : tensor<2x41x41xf32>) -> tensor<2x41x41xf32>
  %e3 = tensor.empty() : tensor<2x41x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x41x20xf32>) -> tensor<2x41x20xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x41x41xf32>, tensor<2x41x20xf32>) outs(%z3 : tensor<2x41x20xf32>) -> tensor<2x41x20xf32>
  return %o : tensor<2x41x20xf32>
}

// -----

// torch-mlir style inline causal compare on i64: the linalg.index values
// are index_cast to i64 and compared with cmpi sge (i >= j keeps), inside
// the score generic, with Nq = 29 < Nk = 45 (top-left).
// CHECK-LABEL: func.func @causal_torch_i64_inline_compare
// CHECK: flash.attention
// EXEC: causal_torch_i64_inline_compare: raised=yes
func.func @causal_torch_i64_inline_compare(%q: tensor<2x29x24xf32>, %k: tensor<2x45x24xf32>,
                                           %v: tensor<2x45x20xf32>) -> tensor<2x29x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x29x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x29x45xf32>) -> tensor<2x29x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>,
                                        affine_map<(b, i, j, d) -> (b, j, d)>,
                                        affine_map<(b, i, j, d) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x29x24xf32>, tensor<2x45x24xf32>) outs(%z0 : tensor<2x29x45xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x29x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x29x45xf32>) outs(%e0 : tensor<2x29x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %lowest = arith.constant -3.40282347e+38 : f32
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ii = arith.index_cast %i : index to i64
    %ji = arith.index_cast %j : index to i64
    %keep = arith.cmpi sge, %ii, %ji : i64
    %y = arith.mulf %x, %c : f32
    %r = arith.select %keep, %y, %lowest : f32
    linalg.yield %r : f32
  } -> tensor<2x29x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<2x29x45xf32>) outs(%e0 : tensor<2x29x45xf32>) -> tensor<2x29x45xf32>
  %e3 = tensor.empty() : tensor<2x29x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x29x20xf32>) -> tensor<2x29x20xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x29x45xf32>, tensor<2x45x20xf32>) outs(%z3 : tensor<2x29x20xf32>) -> tensor<2x29x20xf32>
  return %o : tensor<2x29x20xf32>
}

// -----

// Causal plus an additive float bias [Nq,Nk] (e.g. a relative-position bias
// table already materialized), both in the score generic.
// CHECK-LABEL: func.func @causal_plus_additive_bias
// CHECK: flash.attention
// EXEC: causal_plus_additive_bias: raised=yes
func.func @causal_plus_additive_bias(%q: tensor<2x41x24xf32>, %k: tensor<2x41x24xf32>,
                                     %v: tensor<2x41x20xf32>, %bias: tensor<41x41xf32>) -> tensor<2x41x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x41x41xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x41x41xf32>) -> tensor<2x41x41xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x41x24xf32>, tensor<2x41x24xf32>)
      outs(%z0 : tensor<2x41x41xf32>) -> tensor<2x41x41xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %bias : tensor<2x41x41xf32>, tensor<41x41xf32>) outs(%e0 : tensor<2x41x41xf32>) {
  ^bb0(%x: f32, %bb: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %above = arith.cmpi ugt, %j, %i : index
    %y = arith.mulf %x, %c : f32
    %yb = arith.addf %y, %bb : f32
    %r = arith.select %above, %ninf, %yb : f32
    linalg.yield %r : f32
  } -> tensor<2x41x41xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<2x41x41xf32>) outs(%e0 : tensor<2x41x41xf32>) -> tensor<2x41x41xf32>
  %e3 = tensor.empty() : tensor<2x41x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x41x20xf32>) -> tensor<2x41x20xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x41x41xf32>, tensor<2x41x20xf32>) outs(%z3 : tensor<2x41x20xf32>) -> tensor<2x41x20xf32>
  return %o : tensor<2x41x20xf32>
}

// -----

// An inverted i1 mask [B,1,1,Nk] (true = masked out, as key_padding_mask):
// select(m, -inf, s).
// CHECK-LABEL: func.func @inverted_bool_padding_mask
// CHECK: flash.attention
// EXEC: inverted_bool_padding_mask: raised=yes
func.func @inverted_bool_padding_mask(%q: tensor<2x3x37x24xf32>, %k: tensor<2x3x45x24xf32>,
                                      %v: tensor<2x3x45x20xf32>, %pad: tensor<2x1x1x45xi1>) -> tensor<2x3x37x20xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, 0, 0, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %pad : tensor<2x3x37x45xf32>, tensor<2x1x1x45xi1>) outs(%e0 : tensor<2x3x37x45xf32>) {
  ^bb0(%x: f32, %pm: i1, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %c : f32
    %r = arith.select %pm, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x3x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x3x37x45xf32>) outs(%e0 : tensor<2x3x37x45xf32>) -> tensor<2x3x37x45xf32>
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

// Hugging Face's padding mask: attention_mask [B,Nk] (i1, true = attend)
// converted to an additive [B,1,1,Nk] mask (1 - float(m)) * finfo.min by a
// generic, then added to the scaled scores with (b, h, i, j) -> (b, 0, 0, j).
// CHECK-LABEL: func.func @hf_padding_mask_to_additive_finfo_min
// CHECK: flash.attention
// EXEC: hf_padding_mask_to_additive_finfo_min: raised=yes
func.func @hf_padding_mask_to_additive_finfo_min(%q: tensor<2x3x37x24xf32>, %k: tensor<2x3x45x24xf32>,
                                                 %v: tensor<2x3x45x20xf32>, %am: tensor<2x45xi1>) -> tensor<2x3x37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<2x1x1x45xf32>
  %add = linalg.generic {indexing_maps = [affine_map<(b, u, w, j) -> (b, j)>, affine_map<(b, u, w, j) -> (b, u, w, j)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%am : tensor<2x45xi1>) outs(%ea : tensor<2x1x1x45xf32>) {
  ^bb0(%m: i1, %o: f32):
    %one = arith.constant 1.0 : f32
    %lowest = arith.constant -3.40282347e+38 : f32
    %mf = arith.uitofp %m : i1 to f32
    %inv = arith.subf %one, %mf : f32
    %r = arith.mulf %inv, %lowest : f32
    linalg.yield %r : f32
  } -> tensor<2x1x1x45xf32>
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
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, 0, 0, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %add : tensor<2x3x37x45xf32>, tensor<2x1x1x45xf32>) outs(%e0 : tensor<2x3x37x45xf32>) {
  ^bb0(%x: f32, %mk: f32, %o: f32):
    %c = arith.constant 4.8989797 : f32
    %y = arith.divf %x, %c : f32
    %r = arith.addf %y, %mk : f32
    linalg.yield %r : f32
  } -> tensor<2x3x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x3x37x45xf32>) outs(%e0 : tensor<2x3x37x45xf32>) -> tensor<2x3x37x45xf32>
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
