// Mask values and position compares the raise decides (flash-raise-attention):
// compares of positions that the index ranges decide are constants
// (transformers 5's bidirectional mask `q_idx >= 0`, `j < Nk`); constants at
// or below -65504 stand for -inf (-1e9, finfo.min of f16/bf16/f32); a
// finite additive mask keeps its constant ((1 - m) * -10000); masks that keep
// or hide whole query rows and finite fills get remarks.
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// transformers 5's eager bidirectional mask: where(q_idx >= 0, 0, finfo.min)
// added to the scores; q_idx >= 0 holds for every row, so no mask is left.
// CHECK-LABEL: func.func @bidirectional_query_position_mask
// CHECK: flash.attention
// CHECK-NOT: mask(
// CHECK-NOT: linalg.softmax
// EXEC: bidirectional_query_position_mask: raised=yes
func.func @bidirectional_query_position_mask(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %min = arith.constant -3.40282347e+38 : f32
    %z = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : i64
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %keep = arith.cmpi sge, %ii, %c0 : i64
    %m = arith.select %keep, %z, %min : f32
    %y = arith.addf %a, %m : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// j < 17 (the key length) as a keep condition: true on every key.
// CHECK-LABEL: func.func @key_position_below_length
// CHECK: flash.attention
// CHECK-NOT: mask(
// CHECK-NOT: linalg.softmax
// EXEC: key_position_below_length: raised=yes
func.func @key_position_below_length(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %n = arith.constant 17 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi ult, %j, %n : index
    %y = arith.select %keep, %a, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// A keep condition on the query position only (i < 10): rows 10.. have no key
// (NaN in the program, 0 in flash.attention): not raised.
// CHECK-LABEL: func.func @negative_query_row_mask
// CHECK-NOT: flash.attention
func.func @negative_query_row_mask(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %c10 = arith.constant 10 : index
    %i = linalg.index 0 : index
    %keep = arith.cmpi slt, %i, %c10 : index
    %y = arith.select %keep, %a, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  // expected-remark @+1 {{attention not raised: the mask does not depend on the key position}}
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// masked_fill(~keep, -1e9) with an i1 key mask: -1e9 stands for -inf.
// CHECK-LABEL: func.func @pad_fill_minus_1e9
// CHECK: flash.attention
// EXEC: pad_fill_minus_1e9: raised=yes
func.func @pad_fill_minus_1e9(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>, %pad: tensor<17xi1>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %pad : tensor<13x17xf32>, tensor<17xi1>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %b: i1, %o: f32):
    %big = arith.constant -1.0e+09 : f32
    %y = arith.select %b, %a, %big : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// (1 - keep) * -1e9 added, keep a 0/1 f32 key mask.
// CHECK-LABEL: func.func @additive_minus_1e9
// CHECK: flash.attention
// EXEC: additive_minus_1e9: raised=yes
func.func @additive_minus_1e9(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>, %keep: tensor<17xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %keep : tensor<13x17xf32>, tensor<17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %big = arith.constant -1.0e+09 : f32
    %inv = arith.subf %one, %b : f32
    %m = arith.mulf %inv, %big : f32
    %y = arith.addf %a, %m : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// (1 - keep) * -10000 added (old BERT): a finite additive mask; its materialized
// operand keeps the constant (-10000 + 10000 * keep), not 10000 * keep, which
// would add 10000 to the kept scores and round them.
// CHECK-LABEL: func.func @additive_minus_10000_keeps_constant
// CHECK: %[[M:.*]] = linalg.generic
// CHECK: arith.constant -1.000000e+04
// CHECK: flash.attention {{.*}} mask(%[[M]] :
// EXEC: additive_minus_10000_keeps_constant: raised=yes
func.func @additive_minus_10000_keeps_constant(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>, %keep: tensor<17xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %keep : tensor<13x17xf32>, tensor<17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %big = arith.constant -10000.0 : f32
    %inv = arith.subf %one, %b : f32
    %m = arith.mulf %inv, %big : f32
    %y = arith.addf %a, %m : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// masked_fill(~keep, -10000): the masked keys keep a weight exp(-10000 - max)
// that no flash.attention mask gives (only -inf does), so it is no mask but
// a score_mod, select(keep, s, -10000): exact, a fully masked row's uniform
// weights included.
// CHECK-LABEL: func.func @fill_minus_10000
// CHECK: flash.attention
// CHECK: score_mod
// CHECK: arith.constant -1.000000e+04
// CHECK: arith.select
// EXEC: fill_minus_10000: raised=yes
func.func @fill_minus_10000(%q: tensor<13x8xf32>, %k: tensor<17x8xf32>, %v: tensor<17x6xf32>, %pad: tensor<17xi1>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf32>, tensor<17x8xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %pad : tensor<13x17xf32>, tensor<17xi1>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %b: i1, %o: f32):
    %big = arith.constant -10000.0 : f32
    %y = arith.select %b, %a, %big : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// f16 scores, masked_fill with finfo(f16).min = -65504.
// CHECK-LABEL: func.func @f16_finfo_min_pad_fill
// CHECK: flash.attention
// EXEC: f16_finfo_min_pad_fill: raised=yes
func.func @f16_finfo_min_pad_fill(%q: tensor<13x8xf16>, %k: tensor<17x8xf16>, %v: tensor<17x6xf16>, %pad: tensor<17xi1>) -> tensor<13x6xf16> {
  %zero = arith.constant 0.0 : f16
  %es = tensor.empty() : tensor<13x17xf16>
  %zs = linalg.fill ins(%zero : f16) outs(%es : tensor<13x17xf16>) -> tensor<13x17xf16>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<13x8xf16>, tensor<17x8xf16>) outs(%zs : tensor<13x17xf16>) -> tensor<13x17xf16>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %pad : tensor<13x17xf16>, tensor<17xi1>) outs(%es : tensor<13x17xf16>) {
  ^bb0(%a: f16, %b: i1, %o: f16):
    %big = arith.constant -65504.0 : f16
    %y = arith.select %b, %a, %big : f16
    linalg.yield %y : f16
  } -> tensor<13x17xf16>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf16>) outs(%es : tensor<13x17xf16>) -> tensor<13x17xf16>
  %eo = tensor.empty() : tensor<13x6xf16>
  %zo = linalg.fill ins(%zero : f16) outs(%eo : tensor<13x6xf16>) -> tensor<13x6xf16>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf16>, tensor<17x6xf16>) outs(%zo : tensor<13x6xf16>) -> tensor<13x6xf16>
  return %o : tensor<13x6xf16>
}
