// Held-out spellings of grouped-query and multi-query attention: Llama's
// repeat_kv (linalg.broadcast + tensor.collapse_shape), generics reading
// K/V with `h floordiv G`, MQA with Hkv = 1 or without a head dim, and the
// whole Llama attention block (repeat_kv, heads collapsed around
// batch_matmul, a finfo.min causal mask, linalg.softmax, transpose back).
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// Llama repeat_kv (Hq = 4, Hkv = 2): K and V [B,Hkv,N,D] broadcast to
// [B,Hkv,2,N,D] and collapsed to [B,Hq,N,D]; then all heads collapsed into
// the batch for batch_matmul (K^T in its maps) and the output expanded back.
// CHECK-LABEL: func.func @gqa_repeat_kv_collapse_batch_matmul
// CHECK: flash.attention
// EXEC: gqa_repeat_kv_collapse_batch_matmul: raised=yes
func.func @gqa_repeat_kv_collapse_batch_matmul(%q: tensor<2x4x29x20xf32>, %k: tensor<2x2x37x20xf32>,
                                               %v: tensor<2x2x37x12xf32>) -> tensor<2x4x29x12xf32> {
  %zero = arith.constant 0.0 : f32
  %ebk = tensor.empty() : tensor<2x2x2x37x20xf32>
  %kb = linalg.broadcast ins(%k : tensor<2x2x37x20xf32>) outs(%ebk : tensor<2x2x2x37x20xf32>) dimensions = [2]
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<2x2x2x37x20xf32> into tensor<2x4x37x20xf32>
  %ebv = tensor.empty() : tensor<2x2x2x37x12xf32>
  %vb = linalg.broadcast ins(%v : tensor<2x2x37x12xf32>) outs(%ebv : tensor<2x2x2x37x12xf32>) dimensions = [2]
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<2x2x2x37x12xf32> into tensor<2x4x37x12xf32>
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x29x20xf32> into tensor<8x29x20xf32>
  %kc = tensor.collapse_shape %kr [[0, 1], [2], [3]] : tensor<2x4x37x20xf32> into tensor<8x37x20xf32>
  %vc = tensor.collapse_shape %vr [[0, 1], [2], [3]] : tensor<2x4x37x12xf32> into tensor<8x37x12xf32>
  %e0 = tensor.empty() : tensor<8x29x37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x29x37xf32>) -> tensor<8x29x37xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%qc, %kc : tensor<8x29x20xf32>, tensor<8x37x20xf32>)
      outs(%z0 : tensor<8x29x37xf32>) -> tensor<8x29x37xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<8x29x37xf32>) outs(%e0 : tensor<8x29x37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.2236068 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<8x29x37xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<8x29x37xf32>) outs(%e0 : tensor<8x29x37xf32>) -> tensor<8x29x37xf32>
  %e3 = tensor.empty() : tensor<8x29x12xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x29x12xf32>) -> tensor<8x29x12xf32>
  %o = linalg.batch_matmul ins(%p, %vc : tensor<8x29x37xf32>, tensor<8x37x12xf32>) outs(%z3 : tensor<8x29x12xf32>) -> tensor<8x29x12xf32>
  %oe = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 4, 29, 12] : tensor<8x29x12xf32> into tensor<2x4x29x12xf32>
  return %oe : tensor<2x4x29x12xf32>
}

// -----

// GQA by generics that materialize the repeated K and V, reading them with
// affine_map<(b, h, i, d) -> (b, h floordiv 2, i, d)>.
// CHECK-LABEL: func.func @gqa_floordiv_materialized_repeat
// CHECK: flash.attention
// EXEC: gqa_floordiv_materialized_repeat: raised=yes
func.func @gqa_floordiv_materialized_repeat(%q: tensor<2x4x29x20xf32>, %k: tensor<2x2x37x20xf32>,
                                            %v: tensor<2x2x37x12xf32>) -> tensor<2x4x29x12xf32> {
  %zero = arith.constant 0.0 : f32
  %ekr = tensor.empty() : tensor<2x4x37x20xf32>
  %kr = linalg.generic {indexing_maps = [affine_map<(b, h, i, d) -> (b, h floordiv 2, i, d)>, affine_map<(b, h, i, d) -> (b, h, i, d)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<2x2x37x20xf32>) outs(%ekr : tensor<2x4x37x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x4x37x20xf32>
  %evr = tensor.empty() : tensor<2x4x37x12xf32>
  %vr = linalg.generic {indexing_maps = [affine_map<(b, h, i, d) -> (b, h floordiv 2, i, d)>, affine_map<(b, h, i, d) -> (b, h, i, d)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<2x2x37x12xf32>) outs(%evr : tensor<2x4x37x12xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x4x37x12xf32>
  %e0 = tensor.empty() : tensor<2x4x29x37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x4x29x20xf32>, tensor<2x4x37x20xf32>) outs(%z0 : tensor<2x4x29x37xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x37xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x29x37xf32>) outs(%e0 : tensor<2x4x29x37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 4.472136 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x29x37xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x4x29x37xf32>) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %e3 = tensor.empty() : tensor<2x4x29x12xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x29x12xf32>) -> tensor<2x4x29x12xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vr : tensor<2x4x29x37xf32>, tensor<2x4x37x12xf32>) outs(%z3 : tensor<2x4x29x12xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x12xf32>
  return %o : tensor<2x4x29x12xf32>
}

// -----

// GQA read directly by the contraction maps: K through
// (b, h, i, j, d) -> (b, h floordiv 2, j, d) and V through
// (b, h, i, e, j) -> (b, h floordiv 2, j, e), no repeated tensors.
// CHECK-LABEL: func.func @gqa_floordiv_in_contraction_maps
// CHECK: flash.attention
// EXEC: gqa_floordiv_in_contraction_maps: raised=yes
func.func @gqa_floordiv_in_contraction_maps(%q: tensor<2x4x29x20xf32>, %k: tensor<2x2x37x20xf32>,
                                            %v: tensor<2x2x37x12xf32>) -> tensor<2x4x29x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x29x37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h floordiv 2, j, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x29x20xf32>, tensor<2x2x37x20xf32>) outs(%z0 : tensor<2x4x29x37xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x37xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x29x37xf32>) outs(%e0 : tensor<2x4x29x37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.2236068 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x29x37xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x4x29x37xf32>) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %e3 = tensor.empty() : tensor<2x4x29x12xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x29x12xf32>) -> tensor<2x4x29x12xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, h floordiv 2, j, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x29x37xf32>, tensor<2x2x37x12xf32>) outs(%z3 : tensor<2x4x29x12xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x12xf32>
  return %o : tensor<2x4x29x12xf32>
}

// -----

// GQA with groups of 3 (Hq = 6, Hkv = 2) by repeat_kv, 4-D generic
// contractions and a decomposed keepdim softmax.
// CHECK-LABEL: func.func @gqa_group3_repeat_kv_decomposed
// CHECK: flash.attention
// EXEC: gqa_group3_repeat_kv_decomposed: raised=yes
func.func @gqa_group3_repeat_kv_decomposed(%q: tensor<2x6x29x20xf32>, %k: tensor<2x2x37x20xf32>,
                                           %v: tensor<2x2x37x12xf32>) -> tensor<2x6x29x12xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ebk = tensor.empty() : tensor<2x2x3x37x20xf32>
  %kb = linalg.broadcast ins(%k : tensor<2x2x37x20xf32>) outs(%ebk : tensor<2x2x3x37x20xf32>) dimensions = [2]
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<2x2x3x37x20xf32> into tensor<2x6x37x20xf32>
  %ebv = tensor.empty() : tensor<2x2x3x37x12xf32>
  %vb = linalg.broadcast ins(%v : tensor<2x2x37x12xf32>) outs(%ebv : tensor<2x2x3x37x12xf32>) dimensions = [2]
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<2x2x3x37x12xf32> into tensor<2x6x37x12xf32>
  %e0 = tensor.empty() : tensor<2x6x29x37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x6x29x37xf32>) -> tensor<2x6x29x37xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x6x29x20xf32>, tensor<2x6x37x20xf32>) outs(%z0 : tensor<2x6x29x37xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x6x29x37xf32>
  %em = tensor.empty() : tensor<2x6x29x1xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%em : tensor<2x6x29x1xf32>) -> tensor<2x6x29x1xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%s : tensor<2x6x29x37xf32>) outs(%mi : tensor<2x6x29x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x6x29x1xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %mx : tensor<2x6x29x37xf32>, tensor<2x6x29x1xf32>) outs(%e0 : tensor<2x6x29x37xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %c = arith.constant 0.2236068 : f32
    %d = arith.subf %x, %m : f32
    %t = arith.mulf %d, %c : f32
    %e = math.exp %t : f32
    linalg.yield %e : f32
  } -> tensor<2x6x29x37xf32>
  %li = linalg.fill ins(%zero : f32) outs(%em : tensor<2x6x29x1xf32>) -> tensor<2x6x29x1xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x6x29x37xf32>) outs(%li : tensor<2x6x29x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x6x29x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %l : tensor<2x6x29x37xf32>, tensor<2x6x29x1xf32>) outs(%e0 : tensor<2x6x29x37xf32>) {
  ^bb0(%x: f32, %d: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<2x6x29x37xf32>
  %e3 = tensor.empty() : tensor<2x6x29x12xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x6x29x12xf32>) -> tensor<2x6x29x12xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vr : tensor<2x6x29x37xf32>, tensor<2x6x37x12xf32>) outs(%z3 : tensor<2x6x29x12xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x6x29x12xf32>
  return %o : tensor<2x6x29x12xf32>
}

// -----

// MQA with Hkv = 1: K and V [B,1,N,D] read by the contraction maps with
// (b, h, ...) -> (b, 0, ...).
// CHECK-LABEL: func.func @mqa_hkv1_unit_dim_maps
// CHECK: flash.attention
// EXEC: mqa_hkv1_unit_dim_maps: raised=yes
func.func @mqa_hkv1_unit_dim_maps(%q: tensor<2x4x29x20xf32>, %k: tensor<2x1x37x20xf32>,
                                  %v: tensor<2x1x37x12xf32>) -> tensor<2x4x29x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x29x37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, 0, j, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x29x20xf32>, tensor<2x1x37x20xf32>) outs(%z0 : tensor<2x4x29x37xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x37xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x29x37xf32>) outs(%e0 : tensor<2x4x29x37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.2236068 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x29x37xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x4x29x37xf32>) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %e3 = tensor.empty() : tensor<2x4x29x12xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x29x12xf32>) -> tensor<2x4x29x12xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, 0, j, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x29x37xf32>, tensor<2x1x37x12xf32>) outs(%z3 : tensor<2x4x29x12xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x12xf32>
  return %o : tensor<2x4x29x12xf32>
}

// -----

// MQA without a head dim: K and V [B,N,D] read by the contraction maps
// (b, h, i, j, d) -> (b, j, d), shared by all query heads.
// CHECK-LABEL: func.func @mqa_no_head_dim_maps
// CHECK: flash.attention
// EXEC: mqa_no_head_dim_maps: raised=yes
func.func @mqa_no_head_dim_maps(%q: tensor<2x4x29x20xf32>, %k: tensor<2x37x20xf32>,
                                %v: tensor<2x37x12xf32>) -> tensor<2x4x29x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x29x37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, j, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x29x20xf32>, tensor<2x37x20xf32>) outs(%z0 : tensor<2x4x29x37xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x37xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x29x37xf32>) outs(%e0 : tensor<2x4x29x37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 4.472136 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x29x37xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x4x29x37xf32>) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %e3 = tensor.empty() : tensor<2x4x29x12xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x29x12xf32>) -> tensor<2x4x29x12xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, j, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x29x37xf32>, tensor<2x37x12xf32>) outs(%z3 : tensor<2x4x29x12xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x12xf32>
  return %o : tensor<2x4x29x12xf32>
}

// -----

// MQA without a head dim, the heads made by linalg.broadcast of K and V
// [B,N,D] -> [B,H,N,D] (dimensions = [1]); then a batch_matmul over the
// collapsed heads.
// CHECK-LABEL: func.func @mqa_linalg_broadcast_heads
// CHECK: flash.attention
// EXEC: mqa_linalg_broadcast_heads: raised=yes
func.func @mqa_linalg_broadcast_heads(%q: tensor<2x4x29x20xf32>, %k: tensor<2x37x20xf32>,
                                      %v: tensor<2x37x12xf32>) -> tensor<2x4x29x12xf32> {
  %zero = arith.constant 0.0 : f32
  %ebk = tensor.empty() : tensor<2x4x37x20xf32>
  %kb = linalg.broadcast ins(%k : tensor<2x37x20xf32>) outs(%ebk : tensor<2x4x37x20xf32>) dimensions = [1]
  %ebv = tensor.empty() : tensor<2x4x37x12xf32>
  %vb = linalg.broadcast ins(%v : tensor<2x37x12xf32>) outs(%ebv : tensor<2x4x37x12xf32>) dimensions = [1]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x29x20xf32> into tensor<8x29x20xf32>
  %kc = tensor.collapse_shape %kb [[0, 1], [2], [3]] : tensor<2x4x37x20xf32> into tensor<8x37x20xf32>
  %vc = tensor.collapse_shape %vb [[0, 1], [2], [3]] : tensor<2x4x37x12xf32> into tensor<8x37x12xf32>
  %e0 = tensor.empty() : tensor<8x29x37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x29x37xf32>) -> tensor<8x29x37xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%qc, %kc : tensor<8x29x20xf32>, tensor<8x37x20xf32>)
      outs(%z0 : tensor<8x29x37xf32>) -> tensor<8x29x37xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<8x29x37xf32>) outs(%e0 : tensor<8x29x37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.2236068 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<8x29x37xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<8x29x37xf32>) outs(%e0 : tensor<8x29x37xf32>) -> tensor<8x29x37xf32>
  %e3 = tensor.empty() : tensor<8x29x12xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x29x12xf32>) -> tensor<8x29x12xf32>
  %o = linalg.batch_matmul ins(%p, %vc : tensor<8x29x37xf32>, tensor<8x37x12xf32>) outs(%z3 : tensor<8x29x12xf32>) -> tensor<8x29x12xf32>
  %oe = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 4, 29, 12] : tensor<8x29x12xf32> into tensor<2x4x29x12xf32>
  return %oe : tensor<2x4x29x12xf32>
}

// -----

// MQA by repeat_kv with Hkv = 1: K and V [B,1,N,D] broadcast to
// [B,1,4,N,D] and collapsed to [B,4,N,D].
// CHECK-LABEL: func.func @mqa_hkv1_repeat_kv
// CHECK: flash.attention
// EXEC: mqa_hkv1_repeat_kv: raised=yes
func.func @mqa_hkv1_repeat_kv(%q: tensor<2x4x29x20xf32>, %k: tensor<2x1x37x20xf32>,
                              %v: tensor<2x1x37x12xf32>) -> tensor<2x4x29x12xf32> {
  %zero = arith.constant 0.0 : f32
  %ebk = tensor.empty() : tensor<2x1x4x37x20xf32>
  %kb = linalg.broadcast ins(%k : tensor<2x1x37x20xf32>) outs(%ebk : tensor<2x1x4x37x20xf32>) dimensions = [2]
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<2x1x4x37x20xf32> into tensor<2x4x37x20xf32>
  %ebv = tensor.empty() : tensor<2x1x4x37x12xf32>
  %vb = linalg.broadcast ins(%v : tensor<2x1x37x12xf32>) outs(%ebv : tensor<2x1x4x37x12xf32>) dimensions = [2]
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<2x1x4x37x12xf32> into tensor<2x4x37x12xf32>
  %e0 = tensor.empty() : tensor<2x4x29x37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x4x29x20xf32>, tensor<2x4x37x20xf32>) outs(%z0 : tensor<2x4x29x37xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x37xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x29x37xf32>) outs(%e0 : tensor<2x4x29x37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.2236068 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x29x37xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x4x29x37xf32>) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %e3 = tensor.empty() : tensor<2x4x29x12xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x29x12xf32>) -> tensor<2x4x29x12xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vr : tensor<2x4x29x37xf32>, tensor<2x4x37x12xf32>) outs(%z3 : tensor<2x4x29x12xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x12xf32>
  return %o : tensor<2x4x29x12xf32>
}

// -----

// The Llama attention block (f32, Hq = 4, Hkv = 2, N = 37): repeat_kv of K
// and V, K^T by linalg.transpose, heads collapsed around batch_matmul and
// the scores expanded back to [B,Hq,N,N], divided by sqrt(head_dim), plus
// the additive causal mask [1,1,N,N] (finfo.min above the diagonal, built
// by a generic), linalg.softmax on the last dim, P*V by batch_matmul on the
// collapsed heads, expanded and transposed back to [B,N,Hq,D].
// CHECK-LABEL: func.func @llama_attention_block
// CHECK: flash.attention
// EXEC: llama_attention_block: raised=yes
func.func @llama_attention_block(%q: tensor<2x4x37x20xf32>, %k: tensor<2x2x37x20xf32>,
                                 %v: tensor<2x2x37x20xf32>) -> tensor<2x37x4x20xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347e+38 : f32
  %eb = tensor.empty() : tensor<2x2x2x37x20xf32>
  %kb = linalg.broadcast ins(%k : tensor<2x2x37x20xf32>) outs(%eb : tensor<2x2x2x37x20xf32>) dimensions = [2]
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<2x2x2x37x20xf32> into tensor<2x4x37x20xf32>
  %vb = linalg.broadcast ins(%v : tensor<2x2x37x20xf32>) outs(%eb : tensor<2x2x2x37x20xf32>) dimensions = [2]
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<2x2x2x37x20xf32> into tensor<2x4x37x20xf32>
  %ekt = tensor.empty() : tensor<2x4x20x37xf32>
  %kt = linalg.transpose ins(%kr : tensor<2x4x37x20xf32>) outs(%ekt : tensor<2x4x20x37xf32>) permutation = [0, 1, 3, 2]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x37x20xf32> into tensor<8x37x20xf32>
  %ktc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x20x37xf32> into tensor<8x20x37xf32>
  %e0 = tensor.empty() : tensor<8x37x37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x37x37xf32>) -> tensor<8x37x37xf32>
  %s = linalg.batch_matmul ins(%qc, %ktc : tensor<8x37x20xf32>, tensor<8x20x37xf32>) outs(%z0 : tensor<8x37x37xf32>) -> tensor<8x37x37xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 4, 37, 37] : tensor<8x37x37xf32> into tensor<2x4x37x37xf32>
  %e4 = tensor.empty() : tensor<2x4x37x37xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s4 : tensor<2x4x37x37xf32>) outs(%e4 : tensor<2x4x37x37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 4.472136 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x37x37xf32>
  %emk = tensor.empty() : tensor<1x1x37x37xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(u, w, i, j) -> (u, w, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%emk : tensor<1x1x37x37xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %above = arith.cmpi ugt, %j, %i : index
    %r = arith.select %above, %lowest, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x1x37x37xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (0, 0, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sc, %mask : tensor<2x4x37x37xf32>, tensor<1x1x37x37xf32>) outs(%e4 : tensor<2x4x37x37xf32>) {
  ^bb0(%x: f32, %mk: f32, %o: f32):
    %r = arith.addf %x, %mk : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x37xf32>
  %e5 = tensor.empty() : tensor<2x4x37x37xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x37x37xf32>) outs(%e5 : tensor<2x4x37x37xf32>) -> tensor<2x4x37x37xf32>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x4x37x37xf32> into tensor<8x37x37xf32>
  %vc = tensor.collapse_shape %vr [[0, 1], [2], [3]] : tensor<2x4x37x20xf32> into tensor<8x37x20xf32>
  %e3 = tensor.empty() : tensor<8x37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x37x20xf32>) -> tensor<8x37x20xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<8x37x37xf32>, tensor<8x37x20xf32>) outs(%z3 : tensor<8x37x20xf32>) -> tensor<8x37x20xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 4, 37, 20] : tensor<8x37x20xf32> into tensor<2x4x37x20xf32>
  %eo = tensor.empty() : tensor<2x37x4x20xf32>
  %ot = linalg.transpose ins(%o4 : tensor<2x4x37x20xf32>) outs(%eo : tensor<2x37x4x20xf32>) permutation = [0, 2, 1, 3]
  return %ot : tensor<2x37x4x20xf32>
}

// -----

// The Llama block in bf16 with a KV cache (Nq = 29 new queries, Nk = 37
// keys): repeat_kv, K^T in the batch_matmul maps, bf16 x bf16 -> f32
// scores, the finfo.min causal mask bottom-right aligned (j > i + 8 is
// masked), the softmax in f32 then truncated to bf16, P*V into f32,
// truncated to bf16, expanded and transposed to [B,Nq,Hq,D].
// CHECK-LABEL: func.func @llama_attention_block_bf16_kv_cache
// CHECK: flash.attention
// EXEC: llama_attention_block_bf16_kv_cache: raised=yes
func.func @llama_attention_block_bf16_kv_cache(%q: tensor<2x4x29x20xbf16>, %k: tensor<2x2x37x20xbf16>,
                                               %v: tensor<2x2x37x20xbf16>) -> tensor<2x29x4x20xbf16> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347e+38 : f32
  %eb = tensor.empty() : tensor<2x2x2x37x20xbf16>
  %kb = linalg.broadcast ins(%k : tensor<2x2x37x20xbf16>) outs(%eb : tensor<2x2x2x37x20xbf16>) dimensions = [2]
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<2x2x2x37x20xbf16> into tensor<2x4x37x20xbf16>
  %vb = linalg.broadcast ins(%v : tensor<2x2x37x20xbf16>) outs(%eb : tensor<2x2x2x37x20xbf16>) dimensions = [2]
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<2x2x2x37x20xbf16> into tensor<2x4x37x20xbf16>
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x29x20xbf16> into tensor<8x29x20xbf16>
  %kc = tensor.collapse_shape %kr [[0, 1], [2], [3]] : tensor<2x4x37x20xbf16> into tensor<8x37x20xbf16>
  %vc = tensor.collapse_shape %vr [[0, 1], [2], [3]] : tensor<2x4x37x20xbf16> into tensor<8x37x20xbf16>
  %e0 = tensor.empty() : tensor<8x29x37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x29x37xf32>) -> tensor<8x29x37xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%qc, %kc : tensor<8x29x20xbf16>, tensor<8x37x20xbf16>)
      outs(%z0 : tensor<8x29x37xf32>) -> tensor<8x29x37xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 4, 29, 37] : tensor<8x29x37xf32> into tensor<2x4x29x37xf32>
  %emk = tensor.empty() : tensor<1x1x29x37xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(u, w, i, j) -> (u, w, i, j)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%emk : tensor<1x1x29x37xf32>) {
  ^bb0(%o: f32):
    %off = arith.constant 8 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %lim = arith.addi %i, %off : index
    %above = arith.cmpi ugt, %j, %lim : index
    %r = arith.select %above, %lowest, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x1x29x37xf32>
  %e4 = tensor.empty() : tensor<2x4x29x37xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (0, 0, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s4, %mask : tensor<2x4x29x37xf32>, tensor<1x1x29x37xf32>) outs(%e4 : tensor<2x4x29x37xf32>) {
  ^bb0(%x: f32, %mk: f32, %o: f32):
    %c = arith.constant 4.472136 : f32
    %y = arith.divf %x, %c : f32
    %r = arith.addf %y, %mk : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x37xf32>
  %e5 = tensor.empty() : tensor<2x4x29x37xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x29x37xf32>) outs(%e5 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %eh = tensor.empty() : tensor<2x4x29x37xbf16>
  %ph = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p : tensor<2x4x29x37xf32>) outs(%eh : tensor<2x4x29x37xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %y = arith.truncf %x : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<2x4x29x37xbf16>
  %pc = tensor.collapse_shape %ph [[0, 1], [2], [3]] : tensor<2x4x29x37xbf16> into tensor<8x29x37xbf16>
  %e3 = tensor.empty() : tensor<8x29x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x29x20xf32>) -> tensor<8x29x20xf32>
  %o = linalg.batch_matmul ins(%pc, %vc : tensor<8x29x37xbf16>, tensor<8x37x20xbf16>) outs(%z3 : tensor<8x29x20xf32>) -> tensor<8x29x20xf32>
  %eoh = tensor.empty() : tensor<8x29x20xbf16>
  %oh = linalg.generic {indexing_maps = [affine_map<(b, i, e) -> (b, i, e)>, affine_map<(b, i, e) -> (b, i, e)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o : tensor<8x29x20xf32>) outs(%eoh : tensor<8x29x20xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x29x20xbf16>
  %o4 = tensor.expand_shape %oh [[0, 1], [2], [3]] output_shape [2, 4, 29, 20] : tensor<8x29x20xbf16> into tensor<2x4x29x20xbf16>
  %eo = tensor.empty() : tensor<2x29x4x20xbf16>
  %ot = linalg.transpose ins(%o4 : tensor<2x4x29x20xbf16>) outs(%eo : tensor<2x29x4x20xbf16>) permutation = [0, 2, 1, 3]
  return %ot : tensor<2x29x4x20xbf16>
}

// -----

// K/V repeated by tiling (torch `k.repeat(1, 2, 1, 1)`: broadcast on a new
// dim BEFORE the kv heads, so query head h reads kv head h mod 2, not
// h / 2). Still attention, on the repeated K/V; it must not be raised as
// grouped GQA on the unrepeated tensors.
// CHECK-LABEL: func.func @gqa_tiled_repeat_not_grouped
// CHECK: flash.attention
// EXEC: gqa_tiled_repeat_not_grouped: raised=yes
func.func @gqa_tiled_repeat_not_grouped(%q: tensor<2x4x29x20xf32>, %k: tensor<2x2x37x20xf32>,
                                        %v: tensor<2x2x37x12xf32>) -> tensor<2x4x29x12xf32> {
  %zero = arith.constant 0.0 : f32
  %ebk = tensor.empty() : tensor<2x2x2x37x20xf32>
  %kb = linalg.broadcast ins(%k : tensor<2x2x37x20xf32>) outs(%ebk : tensor<2x2x2x37x20xf32>) dimensions = [1]
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<2x2x2x37x20xf32> into tensor<2x4x37x20xf32>
  %ebv = tensor.empty() : tensor<2x2x2x37x12xf32>
  %vb = linalg.broadcast ins(%v : tensor<2x2x37x12xf32>) outs(%ebv : tensor<2x2x2x37x12xf32>) dimensions = [1]
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<2x2x2x37x12xf32> into tensor<2x4x37x12xf32>
  %e0 = tensor.empty() : tensor<2x4x29x37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x4x29x20xf32>, tensor<2x4x37x20xf32>) outs(%z0 : tensor<2x4x29x37xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x37xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x29x37xf32>) outs(%e0 : tensor<2x4x29x37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.2236068 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x29x37xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x4x29x37xf32>) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %e3 = tensor.empty() : tensor<2x4x29x12xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x29x12xf32>) -> tensor<2x4x29x12xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, j, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vr : tensor<2x4x29x37xf32>, tensor<2x4x37x12xf32>) outs(%z3 : tensor<2x4x29x12xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x12xf32>
  return %o : tensor<2x4x29x12xf32>
}

// -----

// GQA in the Hugging Face [B,N,H,D] layout read directly by the maps: Q as
// (b, i, h, d), K as (b, j, h floordiv 2, d), V as (b, j, h floordiv 2, e),
// the output written as [B,Nq,Hq,Dv].
// CHECK-LABEL: func.func @gqa_bnhd_floordiv_direct_maps
// CHECK: flash.attention
// EXEC: gqa_bnhd_floordiv_direct_maps: raised=yes
func.func @gqa_bnhd_floordiv_direct_maps(%q: tensor<2x29x4x20xf32>, %k: tensor<2x37x2x20xf32>,
                                         %v: tensor<2x37x2x12xf32>) -> tensor<2x29x4x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x29x37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, j, h floordiv 2, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x29x4x20xf32>, tensor<2x37x2x20xf32>) outs(%z0 : tensor<2x4x29x37xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x37xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x29x37xf32>) outs(%e0 : tensor<2x4x29x37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.2236068 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x29x37xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x4x29x37xf32>) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %e3 = tensor.empty() : tensor<2x29x4x12xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x29x4x12xf32>) -> tensor<2x29x4x12xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, j, h floordiv 2, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, i, h, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x29x37xf32>, tensor<2x37x2x12xf32>) outs(%z3 : tensor<2x29x4x12xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x29x4x12xf32>
  return %o : tensor<2x29x4x12xf32>
}

// -----

// GQA (floordiv maps) with an i1 keep-mask [B,1,Nq,Nk] read with
// (b, h, i, j) -> (b, 0, i, j).
// CHECK-LABEL: func.func @gqa_floordiv_with_keep_mask
// CHECK: flash.attention
// EXEC: gqa_floordiv_with_keep_mask: raised=yes
func.func @gqa_floordiv_with_keep_mask(%q: tensor<2x4x29x20xf32>, %k: tensor<2x2x37x20xf32>,
                                       %v: tensor<2x2x37x12xf32>, %keep: tensor<2x1x29x37xi1>) -> tensor<2x4x29x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x29x37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h floordiv 2, j, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x29x20xf32>, tensor<2x2x37x20xf32>) outs(%z0 : tensor<2x4x29x37xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x37xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, 0, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %keep : tensor<2x4x29x37xf32>, tensor<2x1x29x37xi1>) outs(%e0 : tensor<2x4x29x37xf32>) {
  ^bb0(%x: f32, %kp: i1, %o: f32):
    %c = arith.constant 0.2236068 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %c : f32
    %r = arith.select %kp, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x37xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x29x37xf32>) outs(%e0 : tensor<2x4x29x37xf32>) -> tensor<2x4x29x37xf32>
  %e3 = tensor.empty() : tensor<2x4x29x12xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x29x12xf32>) -> tensor<2x4x29x12xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, e, j) -> (b, h floordiv 2, j, e)>,
                                        affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x29x37xf32>, tensor<2x2x37x12xf32>) outs(%z3 : tensor<2x4x29x12xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x29x12xf32>
  return %o : tensor<2x4x29x12xf32>
}
