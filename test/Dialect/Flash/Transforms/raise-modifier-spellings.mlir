// Modifier spellings beyond the textbook ones: windows through math.absi
// (|i - j| <= w, or its negation with the constant first) and through f32
// positions (sitofp(i) - sitofp(j) <= 5.0, exact below 2^24), both read as
// affine bounds (causal_offset plus an affine mask_mod, which tiling turns
// into loop bounds); BLOOM's ALiBi (slopes[h] * j, through baddbmm's bias
// init or added after the scale); a prefix-LM disjunction; a soft-cap
// whose tanh is spelled with exp; HF T5's position_bias summed with its
// padding mask before the scores (a score_mod and a [B, 1, 1, Nk] mask);
// Gemma 2 (q pre-scaled, soft-cap, a window as an f32 0 / finfo.min
// tensor); ALiBi slopes computed in the graph (exp2 of the head index).
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// symmetric window |i - j| <= 6 with math.absi on i64
// CHECK-LABEL: func.func @window_absi_i64
// CHECK: flash.attention {{.*}}causal, causal_offset = 6
// CHECK: mask_mod {
// CHECK-NOT: math.absi
// CHECK: flash.yield
// EXEC: window_absi_i64: raised=yes
func.func @window_absi_i64(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %i64, %j64 : i64
    %ad = math.absi %d : i64
    %w = arith.constant 6 : i64
    %keep = arith.cmpi sle, %ad, %w : i64
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// symmetric window spelled 6 < |i - j| -> masked (the constant on the left, negated)
// CHECK-LABEL: func.func @window_absi_swapped_gt
// CHECK: flash.attention {{.*}}causal, causal_offset = 6
// CHECK: mask_mod {
// CHECK-NOT: math.absi
// CHECK: flash.yield
// EXEC: window_absi_swapped_gt: raised=yes
func.func @window_absi_swapped_gt(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %i64, %j64 : i64
    %ad = math.absi %d : i64
    %w = arith.constant 6 : i64
    %far = arith.cmpi slt, %w, %ad : i64
    %true = arith.constant true
    %keep = arith.xori %far, %true : i1
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// causal window of 5 in float positions (cmpf on sitofp), -1e9
// CHECK-LABEL: func.func @window_float_compare
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK: mask_mod {
// CHECK-NOT: arith.cmpf
// CHECK: arith.cmpi sle
// CHECK: flash.yield
// EXEC: window_float_compare: raised=yes
func.func @window_float_compare(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %fi = arith.sitofp %i64 : i64 to f32
    %fj = arith.sitofp %j64 : i64 to f32
    %d = arith.subf %fi, %fj : f32
    %w = arith.constant 5.0 : f32
    %keep1 = arith.cmpf ole, %d, %w : f32
    %z = arith.constant 0.0 : f32
    %keep2 = arith.cmpf oge, %d, %z : f32
    %keep = arith.andi %keep1, %keep2 : i1
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %ninf = arith.constant -1.0e9 : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// BLOOM: baddbmm(alibi, q, k^T): the product accumulates onto slopes[h] * j (no scale on the bias), then * 0.25 -- note the scale applies to the bias too here
// CHECK-LABEL: func.func @bloom_alibi_baddbmm
// CHECK: flash.attention {{.*}}captures(%{{.*}} : tensor<4xf32>)
// CHECK: score_mod {
// EXEC: bloom_alibi_baddbmm: raised=yes
func.func @bloom_alibi_baddbmm(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %slopes: tensor<4xf32>) -> tensor<4x37x16xf32> {
  %eb = tensor.empty() : tensor<4x1x45xf32>
  %alibi = linalg.generic {indexing_maps = [affine_map<(h, u, j) -> (h)>, affine_map<(h, u, j) -> (h, u, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%slopes : tensor<4xf32>) outs(%eb : tensor<4x1x45xf32>) {
  ^bb0(%sl: f32, %o: f32):
    %j = linalg.index 2 : index
    %j64 = arith.index_cast %j : index to i64
    %fj = arith.sitofp %j64 : i64 to f32
    %r = arith.mulf %sl, %fj : f32
    linalg.yield %r : f32
  } -> tensor<4x1x45xf32>
  %ebb = tensor.empty() : tensor<4x37x45xf32>
  %alb = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, 0, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alibi : tensor<4x1x45xf32>) outs(%ebb : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x37x45xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%alb : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    linalg.yield %y : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// BLOOM-like: scores * 0.25 + slopes[h] * j broadcast over i
// CHECK-LABEL: func.func @bloom_alibi_added_after_scale
// CHECK: flash.attention {{.*}}captures(%{{.*}} : tensor<4xf32>)
// CHECK: score_mod {
// EXEC: bloom_alibi_added_after_scale: raised=yes
func.func @bloom_alibi_added_after_scale(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %slopes: tensor<4xf32>) -> tensor<4x37x16xf32> {
  %eb = tensor.empty() : tensor<4x1x45xf32>
  %alibi = linalg.generic {indexing_maps = [affine_map<(h, u, j) -> (h)>, affine_map<(h, u, j) -> (h, u, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%slopes : tensor<4xf32>) outs(%eb : tensor<4x1x45xf32>) {
  ^bb0(%sl: f32, %o: f32):
    %j = linalg.index 2 : index
    %j64 = arith.index_cast %j : index to i64
    %fj = arith.sitofp %j64 : i64 to f32
    %r = arith.mulf %sl, %fj : f32
    linalg.yield %r : f32
  } -> tensor<4x1x45xf32>
  %ebb = tensor.empty() : tensor<4x37x45xf32>
  %alb = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, 0, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alibi : tensor<4x1x45xf32>) outs(%ebb : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x37x45xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %alb : tensor<4x37x45xf32>, tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %bv: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %z = arith.addf %y, %bv : f32
    linalg.yield %z : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// prefix-LM: keys < 10 seen by all, causal after
// CHECK-LABEL: func.func @prefix_lm_or
// CHECK: flash.attention
// CHECK: mask_mod {
// EXEC: prefix_lm_or: raised=yes
func.func @prefix_lm_or(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %p = arith.constant 10 : index
    %inpre = arith.cmpi slt, %j, %p : index
    %caus = arith.cmpi sle, %j, %i : index
    %keep = arith.ori %inpre, %caus : i1
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// soft-cap with tanh spelled through exp: c * (1 - 2 / (exp(2 s / c) + 1))
// CHECK-LABEL: func.func @softcap_tanh_via_exp
// CHECK: flash.attention
// CHECK: score_mod {
// CHECK: math.exp
// EXEC: softcap_tanh_via_exp: raised=yes
func.func @softcap_tanh_via_exp(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %c = arith.constant 5.0 : f32
    %t = arith.divf %y, %c : f32
    %two = arith.constant 2.0 : f32
    %t2 = arith.mulf %t, %two : f32
    %e = math.exp %t2 : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %e, %one : f32
    %fr = arith.divf %two, %den : f32
    %th = arith.subf %one, %fr : f32
    %r = arith.mulf %th, %c : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// HF T5-style: position_bias [1, H, Nq, Nk] (table[clamp(j - i, -8, 8) + 8, h]) plus the padding mask (1 - m) * finfo.min [B, 1, 1, Nk], summed first, then added to the unscaled scores.
// CHECK-LABEL: func.func @t5_position_bias_plus_padding
// CHECK: flash.attention {{.*}} mask(%{{.*}} : tensor<2x1x1x45xf32>) captures(%{{.*}} : tensor<17x4xf32>)
// CHECK: score_mod {
// CHECK: tensor.extract
// EXEC: t5_position_bias_plus_padding: raised=yes
func.func @t5_position_bias_plus_padding(%q: tensor<2x4x37x16xf32>, %k: tensor<2x4x45x16xf32>, %v: tensor<2x4x45x16xf32>, %tab: tensor<17x4xf32>, %pad: tensor<2x45xf32>) -> tensor<2x4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%z0 : tensor<2x4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %ep = tensor.empty() : tensor<1x4x37x45xf32>
  %pb = linalg.generic {indexing_maps = [affine_map<(u, h, i, j) -> (u, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%ep : tensor<1x4x37x45xf32>) {
  ^bb0(%o: f32):
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %d = arith.subi %j, %i : index
    %lo = arith.constant -8 : index
    %hi = arith.constant 8 : index
    %d1 = arith.maxsi %d, %lo : index
    %d2 = arith.minsi %d1, %hi : index
    %ix = arith.addi %d2, %hi : index
    %x = tensor.extract %tab[%ix, %h] : tensor<17x4xf32>
    linalg.yield %x : f32
  } -> tensor<1x4x37x45xf32>
  %em = tensor.empty() : tensor<2x1x1x45xf32>
  %ext = linalg.generic {indexing_maps = [affine_map<(b, u, w, j) -> (b, j)>, affine_map<(b, u, w, j) -> (b, u, w, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pad : tensor<2x45xf32>) outs(%em : tensor<2x1x1x45xf32>) {
  ^bb0(%m: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %inv = arith.subf %one, %m : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %r = arith.mulf %inv, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<2x1x1x45xf32>
  %eb = tensor.empty() : tensor<2x4x37x45xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (0, h, i, j)>, affine_map<(b, h, i, j) -> (b, 0, 0, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pb, %ext : tensor<1x4x37x45xf32>, tensor<2x1x1x45xf32>) outs(%eb : tensor<2x4x37x45xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<2x4x37x45xf32>, tensor<2x4x37x45xf32>) outs(%e0 : tensor<2x4x37x45xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x37x45xf32>) outs(%e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %e3 = tensor.empty() : tensor<2x4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%z3 : tensor<2x4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %o : tensor<2x4x37x16xf32>
}

// -----

// Gemma-2-like: q scaled before the product (query_pre_attn_scalar), soft-cap 50 (s / 50, tanh, * 50), then a sliding-window causal mask (window 16) as an f32 [Nq, Nk] tensor of 0 / finfo.min built from index compares, added.
// CHECK-LABEL: func.func @gemma2_prescaled_softcap_window_tensor
// CHECK: flash.attention {{.*}}causal, causal_offset = 8
// CHECK: score_mod {
// CHECK: math.tanh
// CHECK: mask_mod {
// EXEC: gemma2_prescaled_softcap_window_tensor: raised=yes
func.func @gemma2_prescaled_softcap_window_tensor(%q: tensor<2x4x37x16xf32>, %k: tensor<2x4x45x16xf32>, %v: tensor<2x4x45x16xf32>) -> tensor<2x4x37x16xf32> {
  %eq = tensor.empty() : tensor<2x4x37x16xf32>
  %qs = linalg.generic {indexing_maps = [affine_map<(b, h, i, d) -> (b, h, i, d)>, affine_map<(b, h, i, d) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<2x4x37x16xf32>) outs(%eq : tensor<2x4x37x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.0625 : f32
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%qs, %k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%z0 : tensor<2x4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %emk = tensor.empty() : tensor<37x45xf32>
  %mk = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%emk : tensor<37x45xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c8 = arith.constant 8 : index
    %ii = arith.addi %i, %c8 : index
    %fut = arith.cmpi sgt, %j, %ii : index
    %c16 = arith.constant 16 : index
    %lo = arith.subi %ii, %c16 : index
    %old = arith.cmpi sle, %j, %lo : index
    %hide = arith.ori %fut, %old : i1
    %fmin = arith.constant -3.40282347E+38 : f32
    %z = arith.constant 0.0 : f32
    %r = arith.select %hide, %fmin, %z : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mk : tensor<2x4x37x45xf32>, tensor<37x45xf32>) outs(%e0 : tensor<2x4x37x45xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %cap = arith.constant 50.0 : f32
    %t = arith.divf %x, %cap : f32
    %th = math.tanh %t : f32
    %y = arith.mulf %th, %cap : f32
    %r = arith.addf %y, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x37x45xf32>) outs(%e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %e3 = tensor.empty() : tensor<2x4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%z3 : tensor<2x4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %o : tensor<2x4x37x16xf32>
}

// -----

// ALiBi with slopes computed in the graph: slope_h = exp2(-8 (h + 1) / 4) from linalg.index, times -(i - j) clamped at 0 (causal-style distance), plus a causal mask via select.
// CHECK-LABEL: func.func @alibi_slopes_in_graph
// CHECK: flash.attention {{.*}}causal, causal_offset = 8
// CHECK: score_mod {
// EXEC: alibi_slopes_in_graph: raised=yes
func.func @alibi_slopes_in_graph(%q: tensor<2x4x37x16xf32>, %k: tensor<2x4x45x16xf32>, %v: tensor<2x4x45x16xf32>) -> tensor<2x4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%z0 : tensor<2x4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x37x45xf32>) outs(%e0 : tensor<2x4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c1 = arith.constant 1 : index
    %h1 = arith.addi %h, %c1 : index
    %h64 = arith.index_cast %h1 : index to i64
    %hf = arith.sitofp %h64 : i64 to f32
    %m8 = arith.constant -2.0 : f32
    %ex = arith.mulf %hf, %m8 : f32
    %sl = math.exp2 %ex : f32
    %c8 = arith.constant 8 : index
    %ii = arith.addi %i, %c8 : index
    %d = arith.subi %j, %ii : index
    %d64 = arith.index_cast %d : index to i64
    %df = arith.sitofp %d64 : i64 to f32
    %b = arith.mulf %sl, %df : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %z = arith.addf %y, %b : f32
    %vis = arith.cmpi sle, %j, %ii : index
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.select %vis, %z, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x37x45xf32>) outs(%e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %e3 = tensor.empty() : tensor<2x4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%z3 : tensor<2x4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %o : tensor<2x4x37x16xf32>
}
