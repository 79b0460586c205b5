// Held-out attention programs with score_mod / mask_mod modifiers, spelled
// the way frontends (torch-mlir, IREE imports, StableHLO-to-linalg, hand
// written linalg) write them. Written by an adversarial tester that had not seen the code (session 6);
// every program not named negative_* is raised and run against the unraised
// program on the CPU.
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// [B,N,H,D] with permuted maps; soft-cap on the raw scores, then the 1/sqrt(D) scale: 0.25 * (3 * tanh(s / 3)).
// CHECK-LABEL: func.func @bnhd_softcap_before_scale
// CHECK: flash.attention
// CHECK: score_mod {
// CHECK: math.tanh
// EXEC: bnhd_softcap_before_scale: raised=yes
func.func @bnhd_softcap_before_scale(%q: tensor<2x37x4x16xf32>, %k: tensor<2x45x4x16xf32>, %v: tensor<2x45x4x16xf32>) -> tensor<2x37x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x37x4x16xf32>, tensor<2x45x4x16xf32>) outs(%z0 : tensor<2x4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x37x45xf32>) outs(%e0 : tensor<2x4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %cap = arith.constant 3.0 : f32
    %sc = arith.constant 0.25 : f32
    %t0 = arith.divf %x, %cap : f32
    %t1 = math.tanh %t0 : f32
    %t2 = arith.mulf %cap, %t1 : f32
    %y = arith.mulf %t2, %sc : f32
    linalg.yield %y : f32
  } -> tensor<2x4x37x45xf32>
  %e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x37x45xf32>) outs(%e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %e3 = tensor.empty() : tensor<2x37x4x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x37x4x16xf32>) -> tensor<2x37x4x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, j, h, e)>, affine_map<(b, h, i, e, j) -> (b, i, h, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x37x45xf32>, tensor<2x45x4x16xf32>) outs(%z3 : tensor<2x37x4x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x37x4x16xf32>
  return %o32 : tensor<2x37x4x16xf32>
}

// -----

// 2-D, scale then soft-cap written tanh(y * (1/5)) * 5, decomposed softmax.
// CHECK-LABEL: func.func @softcap_mul_reciprocal_2d_decomposed
// CHECK: flash.attention
// EXEC: softcap_mul_reciprocal_2d_decomposed: raised=yes
func.func @softcap_mul_reciprocal_2d_decomposed(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %rc = arith.constant 0.2 : f32
    %cap = arith.constant 5.0 : f32
    %y = arith.mulf %sc, %x : f32
    %t0 = arith.mulf %y, %rc : f32
    %t1 = math.tanh %t0 : f32
    %r = arith.mulf %t1, %cap : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %lowest = arith.constant -3.40282347E+38 : f32
  %er = tensor.empty() : tensor<37xf32>
  %mi = linalg.fill ins(%lowest : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%sm : tensor<37x45xf32>) outs(%mi : tensor<37xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %mm = arith.maximumf %x, %acc : f32
    linalg.yield %mm : f32
  } -> tensor<37xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%sm, %mx : tensor<37x45xf32>, tensor<37xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %mm: f32, %o: f32):
    %dd = arith.subf %x, %mm : f32
    %ee = math.exp %dd : f32
    linalg.yield %ee : f32
  } -> tensor<37x45xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<37xf32>) -> tensor<37xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<37x45xf32>) outs(%li : tensor<37xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %yy = arith.addf %x, %acc : f32
    linalg.yield %yy : f32
  } -> tensor<37xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ex, %sum : tensor<37x45xf32>, tensor<37xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %dn: f32, %o: f32):
    %yy = arith.divf %x, %dn : f32
    linalg.yield %yy : f32
  } -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x16xf32>
  return %o32 : tensor<37x16xf32>
}

// -----

// [B,H,N,D]: the scale, the tanh soft-cap and a causal select (uge i, j) each in their own elementwise generic, one per aten op.
// CHECK-LABEL: func.func @softcap_separate_generics_bhnd
// CHECK: flash.attention
// EXEC: softcap_separate_generics_bhnd: raised=yes
func.func @softcap_separate_generics_bhnd(%q: tensor<2x4x45x16xf32>, %k: tensor<2x4x45x16xf32>, %v: tensor<2x4x45x16xf32>) -> tensor<2x4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x45x45xf32>) -> tensor<2x4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x45x16xf32>, tensor<2x4x45x16xf32>) outs(%z0 : tensor<2x4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %s1 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x45x45xf32>) outs(%e0 : tensor<2x4x45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 4.0 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x45x45xf32>
  %s2 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s1 : tensor<2x4x45x45xf32>) outs(%e0 : tensor<2x4x45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %cap = arith.constant 2.5 : f32
    %t0 = arith.divf %x, %cap : f32
    %t1 = math.tanh %t0 : f32
    %t2 = arith.mulf %t1, %cap : f32
    linalg.yield %t2 : f32
  } -> tensor<2x4x45x45xf32>
  %s3 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2 : tensor<2x4x45x45xf32>) outs(%e0 : tensor<2x4x45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ninf = arith.constant 0xFF800000 : f32
    %keep = arith.cmpi uge, %i, %j : index
    %r = arith.select %keep, %x, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %e1 = tensor.empty() : tensor<2x4x45x45xf32>
  %p = linalg.softmax dimension(3) ins(%s3 : tensor<2x4x45x45xf32>) outs(%e1 : tensor<2x4x45x45xf32>) -> tensor<2x4x45x45xf32>
  %e3 = tensor.empty() : tensor<2x4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x45x16xf32>) -> tensor<2x4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x45x45xf32>, tensor<2x4x45x16xf32>) outs(%z3 : tensor<2x4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x16xf32>
  return %o32 : tensor<2x4x45x16xf32>
}

// -----

// [B,H,N,D] ALiBi: slopes[h] * sitofp(j64 - i64) with the positions cast to i64 first; causal with the i64 compare swapped (i >= j).
// CHECK-LABEL: func.func @alibi_i64_sitofp_bhnd_causal
// CHECK: flash.attention
// CHECK: captures(%{{.*}} : tensor<4xf32>)
// CHECK: score_mod {
// EXEC: alibi_i64_sitofp_bhnd_causal: raised=yes
func.func @alibi_i64_sitofp_bhnd_causal(%q: tensor<2x4x45x16xf32>, %k: tensor<2x4x45x16xf32>, %v: tensor<2x4x45x16xf32>, %slopes: tensor<4xf32>) -> tensor<2x4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x45x45xf32>) -> tensor<2x4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x45x16xf32>, tensor<2x4x45x16xf32>) outs(%z0 : tensor<2x4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (h)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %slopes : tensor<2x4x45x45xf32>, tensor<4xf32>) outs(%e0 : tensor<2x4x45x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %j64, %i64 : i64
    %df = arith.sitofp %d : i64 to f32
    %bias = arith.mulf %in0, %df : f32
    %z = arith.addf %y, %bias : f32
    %keep = arith.cmpi sge, %i64, %j64 : i64
    %r = arith.select %keep, %z, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %e1 = tensor.empty() : tensor<2x4x45x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x45x45xf32>) outs(%e1 : tensor<2x4x45x45xf32>) -> tensor<2x4x45x45xf32>
  %e3 = tensor.empty() : tensor<2x4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x45x16xf32>) -> tensor<2x4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x45x45xf32>, tensor<2x4x45x16xf32>) outs(%z3 : tensor<2x4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x16xf32>
  return %o32 : tensor<2x4x45x16xf32>
}

// -----

// GQA: Q has 4 heads, K/V 2 heads read at h floordiv 2; symmetric ALiBi -slopes[h] * |i - j| (math.absi on i64); no mask.
// CHECK-LABEL: func.func @alibi_gqa_bhnd
// CHECK: flash.attention
// EXEC: alibi_gqa_bhnd: raised=yes
func.func @alibi_gqa_bhnd(%q: tensor<2x4x37x16xf32>, %k: tensor<2x2x45x16xf32>, %v: tensor<2x2x45x16xf32>, %slopes: tensor<4xf32>) -> tensor<2x4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h floordiv 2, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x37x16xf32>, tensor<2x2x45x16xf32>) outs(%z0 : tensor<2x4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (h)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %slopes : tensor<2x4x37x45xf32>, tensor<4xf32>) outs(%e0 : tensor<2x4x37x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %i64, %j64 : i64
    %ad = math.absi %d : i64
    %df = arith.sitofp %ad : i64 to f32
    %bias = arith.mulf %in0, %df : f32
    %z = arith.subf %y, %bias : f32
    linalg.yield %z : f32
  } -> tensor<2x4x37x45xf32>
  %e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x37x45xf32>) outs(%e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %e3 = tensor.empty() : tensor<2x4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h floordiv 2, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x37x45xf32>, tensor<2x2x45x16xf32>) outs(%z3 : tensor<2x4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %o32 : tensor<2x4x37x16xf32>
}

// -----

// T5 relative-position bias gathered by the indexing map (h, i, j) -> (h, j - i + 36) from a [4, 81] table; no scale (T5 has none).
// CHECK-LABEL: func.func @t5_bias_affine_map_3d
// CHECK: flash.attention
// CHECK: captures(%{{.*}} : tensor<4x81xf32>)
// EXEC: t5_bias_affine_map_3d: raised=yes
func.func @t5_bias_affine_map_3d(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %tab: tensor<4x81xf32>) -> tensor<4x37x16xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, j - i + 36)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %tab : tensor<4x37x45xf32>, tensor<4x81xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %z = arith.addf %x, %in0 : f32
    linalg.yield %z : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// [B,N,H,D]: relative bias in buckets of 4 positions, table[h, (j - i + 36) floordiv 4] read by the map from a [4, 21] table, plus scale.
// CHECK-LABEL: func.func @t5_bias_bucketed_floordiv_bnhd
// CHECK: flash.attention
// EXEC: t5_bias_bucketed_floordiv_bnhd: raised=yes
func.func @t5_bias_bucketed_floordiv_bnhd(%q: tensor<2x37x4x16xf32>, %k: tensor<2x45x4x16xf32>, %v: tensor<2x45x4x16xf32>, %tab: tensor<4x21xf32>) -> tensor<2x37x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x37x4x16xf32>, tensor<2x45x4x16xf32>) outs(%z0 : tensor<2x4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (h, (j - i + 36) floordiv 4)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %tab : tensor<2x4x37x45xf32>, tensor<4x21xf32>) outs(%e0 : tensor<2x4x37x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %z = arith.addf %in0, %y : f32
    linalg.yield %z : f32
  } -> tensor<2x4x37x45xf32>
  %e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x37x45xf32>) outs(%e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %e3 = tensor.empty() : tensor<2x37x4x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x37x4x16xf32>) -> tensor<2x37x4x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, j, h, e)>, affine_map<(b, h, i, e, j) -> (b, i, h, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x37x45xf32>, tensor<2x45x4x16xf32>) outs(%z3 : tensor<2x37x4x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x37x4x16xf32>
  return %o32 : tensor<2x37x4x16xf32>
}

// -----

// Relative bias table[h, clamp(j - i, -8, 8) + 8] read with tensor.extract (clamped distance, as T5's max_distance does), [4, 17] table.
// Raised since session 25 (a gather at computed positions; it was not when this program was written).
// CHECK-LABEL: func.func @t5_bias_extract_clamped
// CHECK: flash.attention
// CHECK: score_mod {
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: tensor.extract
// EXEC: t5_bias_extract_clamped: raised=yes
func.func @t5_bias_extract_clamped(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %tab: tensor<4x17xf32>) -> tensor<4x37x16xf32> {
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
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %d = arith.subi %j, %i : index
    %lo = arith.constant -8 : index
    %hi = arith.constant 8 : index
    %d1 = arith.maxsi %d, %lo : index
    %d2 = arith.minsi %d1, %hi : index
    %pos = arith.addi %d2, %hi : index
    %bv = tensor.extract %tab[%h, %pos] : tensor<4x17xf32>
    %z = arith.addf %y, %bv : f32
    linalg.yield %z : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// Document mask with i64 segment ids read by maps (i) and (j), cmpi eq with the key id first, finfo.min.
// CHECK-LABEL: func.func @document_mask_i64_maps
// CHECK: flash.attention
// EXEC: document_mask_i64_maps: raised=yes
func.func @document_mask_i64_maps(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %sq: tensor<37xi64>, %sk: tensor<45xi64>) -> tensor<4x37x16xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (i)>, affine_map<(h, i, j) -> (j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %sq, %sk : tensor<4x37x45xf32>, tensor<37xi64>, tensor<45xi64>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %in0: i64, %in1: i64, %o: f32):
    %sc = arith.constant 0.25 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %y = arith.mulf %x, %sc : f32
    %same = arith.cmpi eq, %in1, %in0 : i64
    %r = arith.select %same, %y, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// [B,H,N,D] self-attention with per-batch segment ids seg[B, N] (i32) read at (b, i) and (b, j); plus causal, -inf.
// CHECK-LABEL: func.func @document_mask_per_batch_i32_bhnd
// CHECK: flash.attention
// EXEC: document_mask_per_batch_i32_bhnd: raised=yes
func.func @document_mask_per_batch_i32_bhnd(%q: tensor<2x4x45x16xf32>, %k: tensor<2x4x45x16xf32>, %v: tensor<2x4x45x16xf32>, %seg: tensor<2x45xi32>) -> tensor<2x4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x45x45xf32>) -> tensor<2x4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x45x16xf32>, tensor<2x4x45x16xf32>) outs(%z0 : tensor<2x4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, i)>, affine_map<(b, h, i, j) -> (b, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %seg, %seg : tensor<2x4x45x45xf32>, tensor<2x45xi32>, tensor<2x45xi32>) outs(%e0 : tensor<2x4x45x45xf32>) {
  ^bb0(%x: f32, %in0: i32, %in1: i32, %o: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %same = arith.cmpi eq, %in0, %in1 : i32
    %past = arith.cmpi ule, %j, %i : index
    %keep = arith.andi %past, %same : i1
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %e1 = tensor.empty() : tensor<2x4x45x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x45x45xf32>) outs(%e1 : tensor<2x4x45x45xf32>) -> tensor<2x4x45x45xf32>
  %e3 = tensor.empty() : tensor<2x4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x45x16xf32>) -> tensor<2x4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x45x45xf32>, tensor<2x4x45x16xf32>) outs(%z3 : tensor<2x4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x16xf32>
  return %o32 : tensor<2x4x45x16xf32>
}

// -----

// Document mask built as a separate [B,1,Nq,Nk] i1 tensor by a generic that tensor.extracts seg[b, i] and seg[b, j] (i64) at linalg.index positions, consumed by a select generic.
// CHECK-LABEL: func.func @document_mask_i1_tensor_from_extract
// CHECK: flash.attention
// EXEC: document_mask_i1_tensor_from_extract: raised=yes
func.func @document_mask_i1_tensor_from_extract(%q: tensor<2x4x45x16xf32>, %k: tensor<2x4x45x16xf32>, %v: tensor<2x4x45x16xf32>, %seg: tensor<2x45xi64>) -> tensor<2x4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x45x45xf32>) -> tensor<2x4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x45x16xf32>, tensor<2x4x45x16xf32>) outs(%z0 : tensor<2x4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %em = tensor.empty() : tensor<2x1x45x45xi1>
  %mask = linalg.generic {indexing_maps = [affine_map<(b, u, i, j) -> (b, u, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%em : tensor<2x1x45x45xi1>) {
  ^bb0(%o: i1):
    %b = linalg.index 0 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %a = tensor.extract %seg[%b, %i] : tensor<2x45xi64>
    %c = tensor.extract %seg[%b, %j] : tensor<2x45xi64>
    %eq = arith.cmpi eq, %a, %c : i64
    linalg.yield %eq : i1
  } -> tensor<2x1x45x45xi1>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, 0, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %mask : tensor<2x4x45x45xf32>, tensor<2x1x45x45xi1>) outs(%e0 : tensor<2x4x45x45xf32>) {
  ^bb0(%x: f32, %in0: i1, %o: f32):
    %sc = arith.constant 0.25 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %y = arith.mulf %x, %sc : f32
    %r = arith.select %in0, %y, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %e1 = tensor.empty() : tensor<2x4x45x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x45x45xf32>) outs(%e1 : tensor<2x4x45x45xf32>) -> tensor<2x4x45x45xf32>
  %e3 = tensor.empty() : tensor<2x4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x45x16xf32>) -> tensor<2x4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x45x45xf32>, tensor<2x4x45x16xf32>) outs(%z3 : tensor<2x4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x16xf32>
  return %o32 : tensor<2x4x45x16xf32>
}

// -----

// Bottom-right causal (offset 8) within a window of 16, built as a separate [Nq,Nk] i1 tensor from linalg.index (i64 compares), AND a key padding tensor<2x45xi1> argument read at (b, j), consumed by one select generic with finfo.min.
// CHECK-LABEL: func.func @window_causal_padding_tensors
// CHECK: flash.attention
// EXEC: window_causal_padding_tensors: raised=yes
func.func @window_causal_padding_tensors(%q: tensor<2x4x37x16xf32>, %k: tensor<2x4x45x16xf32>, %v: tensor<2x4x45x16xf32>, %pad: tensor<2x45xi1>) -> tensor<2x4x37x16xf32> {
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
  %em = tensor.empty() : tensor<37x45xi1>
  %wm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%em : tensor<37x45xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %c8 = arith.constant 8 : i64
    %c16 = arith.constant 16 : i64
    %ia = arith.addi %i64, %c8 : i64
    %causal = arith.cmpi sle, %j64, %ia : i64
    %dist = arith.subi %ia, %j64 : i64
    %inw = arith.cmpi slt, %dist, %c16 : i64
    %kk = arith.andi %causal, %inw : i1
    linalg.yield %kk : i1
  } -> tensor<37x45xi1>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (i, j)>, affine_map<(b, h, i, j) -> (b, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %wm, %pad : tensor<2x4x37x45xf32>, tensor<37x45xi1>, tensor<2x45xi1>) outs(%e0 : tensor<2x4x37x45xf32>) {
  ^bb0(%x: f32, %in0: i1, %in1: i1, %o: f32):
    %sc = arith.constant 0.25 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %y = arith.mulf %x, %sc : f32
    %keep = arith.andi %in0, %in1 : i1
    %r = arith.select %keep, %y, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x37x45xf32>) outs(%e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %e3 = tensor.empty() : tensor<2x4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%z3 : tensor<2x4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %o32 : tensor<2x4x37x16xf32>
}

// -----

// Sliding window (|i - j| <= 5, non-causal) as a separate additive [1,1,Nq,Nk] f32 tensor of 0 / -inf built from linalg.index, read with (b, h, i, j) -> (0, 0, i, j).
// CHECK-LABEL: func.func @additive_window_mask_1x1nn
// CHECK: flash.attention
// EXEC: additive_window_mask_1x1nn: raised=yes
func.func @additive_window_mask_1x1nn(%q: tensor<2x4x37x16xf32>, %k: tensor<2x4x45x16xf32>, %v: tensor<2x4x45x16xf32>) -> tensor<2x4x37x16xf32> {
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
  %em = tensor.empty() : tensor<1x1x37x45xf32>
  %am = linalg.generic {indexing_maps = [affine_map<(a, u, i, j) -> (a, u, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%em : tensor<1x1x37x45xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ninf = arith.constant 0xFF800000 : f32
    %zz = arith.constant 0.0 : f32
    %c5 = arith.constant 5 : index
    %d = arith.subi %i, %j : index
    %nd = arith.subi %j, %i : index
    %a1 = arith.cmpi sgt, %d, %c5 : index
    %a2 = arith.cmpi sgt, %nd, %c5 : index
    %far = arith.ori %a1, %a2 : i1
    %r = arith.select %far, %ninf, %zz : f32
    linalg.yield %r : f32
  } -> tensor<1x1x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (0, 0, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %am : tensor<2x4x37x45xf32>, tensor<1x1x37x45xf32>) outs(%e0 : tensor<2x4x37x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %r = arith.addf %y, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x37x45xf32>) outs(%e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %e3 = tensor.empty() : tensor<2x4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%z3 : tensor<2x4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %o32 : tensor<2x4x37x16xf32>
}

// -----

// Prefix-LM (keys < 7 bidirectional, else causal) as a separate additive [Nq,Nk] tensor 0 / -3.40282347E+38 built with i64 compares, added before the scale-free scores (scale applied after the add).
// CHECK-LABEL: func.func @additive_prefix_lm_finfo_min_i64
// CHECK: flash.attention
// EXEC: additive_prefix_lm_finfo_min_i64: raised=yes
func.func @additive_prefix_lm_finfo_min_i64(%q: tensor<4x45x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x45x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %em = tensor.empty() : tensor<45x45xf32>
  %am = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%em : tensor<45x45xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %c7 = arith.constant 7 : i64
    %fmin = arith.constant -3.40282347E+38 : f32
    %zz = arith.constant 0.0 : f32
    %pre = arith.cmpi slt, %j64, %c7 : i64
    %cz = arith.cmpi sge, %i64, %j64 : i64
    %keep = arith.ori %pre, %cz : i1
    %r = arith.select %keep, %zz, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %am : tensor<4x45x45xf32>, tensor<45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.addf %x, %in0 : f32
    %r = arith.mulf %y, %sc : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %e1 = tensor.empty() : tensor<4x45x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x45x45xf32>) outs(%e1 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %e3 = tensor.empty() : tensor<4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x45x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x16xf32>
  return %o32 : tensor<4x45x16xf32>
}

// -----

// 2-D anti-causal written select(i > j, -inf, s) with i64 casts and sgt (query position first).
// CHECK-LABEL: func.func @anti_causal_i64_swapped_2d
// CHECK: flash.attention
// EXEC: anti_causal_i64_swapped_2d: raised=yes
func.func @anti_causal_i64_swapped_2d(%q: tensor<45x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<45x45xf32>) -> tensor<45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<45x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<45x45xf32>) outs(%e0 : tensor<45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %before = arith.cmpi sgt, %i64, %j64 : i64
    %r = arith.select %before, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<45x45xf32>
  %e1 = tensor.empty() : tensor<45x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<45x45xf32>) outs(%e1 : tensor<45x45xf32>) -> tensor<45x45xf32>
  %e3 = tensor.empty() : tensor<45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<45x16xf32>) -> tensor<45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<45x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<45x16xf32>
  return %o32 : tensor<45x16xf32>
}

// -----

// Block-causal: keep iff j floordiv 8 <= i floordiv 8 computed with arith.floordivsi in i64 (blockwise-parallel decoding).
// CHECK-LABEL: func.func @block_causal_floordivsi
// CHECK: flash.attention
// EXEC: block_causal_floordivsi: raised=yes
func.func @block_causal_floordivsi(%q: tensor<4x45x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x45x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %c8 = arith.constant 8 : i64
    %bi = arith.floordivsi %i64, %c8 : i64
    %bj = arith.floordivsi %j64, %c8 : i64
    %keep = arith.cmpi sge, %bi, %bj : i64
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %e1 = tensor.empty() : tensor<4x45x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x45x45xf32>) outs(%e1 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %e3 = tensor.empty() : tensor<4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x45x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x16xf32>
  return %o32 : tensor<4x45x16xf32>
}

// -----

// Block-sparse: keep iff layout[h, i divui 8, j divui 8] from an i1 [4, 5, 6] block layout tensor (tensor.extract), plus the diagonal block always kept.
// CHECK-LABEL: func.func @block_sparse_layout_tensor
// CHECK: flash.attention
// EXEC: block_sparse_layout_tensor: raised=yes
func.func @block_sparse_layout_tensor(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %lay: tensor<4x5x6xi1>) -> tensor<4x37x16xf32> {
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
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %c8 = arith.constant 8 : index
    %bi = arith.divui %i, %c8 : index
    %bj = arith.divui %j, %c8 : index
    %lk = tensor.extract %lay[%h, %bi, %bj] : tensor<4x5x6xi1>
    %diag = arith.cmpi eq, %bi, %bj : index
    %keep = arith.ori %lk, %diag : i1
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// [B,N,H,D]: causal with a per-head window: keep iff j <= i and i - j < 4 * (h + 1) (multi-scale heads).
// CHECK-LABEL: func.func @per_head_window_bnhd
// CHECK: flash.attention
// EXEC: per_head_window_bnhd: raised=yes
func.func @per_head_window_bnhd(%q: tensor<2x45x4x16xf32>, %k: tensor<2x45x4x16xf32>, %v: tensor<2x45x4x16xf32>) -> tensor<2x45x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x45x45xf32>) -> tensor<2x4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x45x4x16xf32>, tensor<2x45x4x16xf32>) outs(%z0 : tensor<2x4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x45x45xf32>) outs(%e0 : tensor<2x4x45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %h1 = arith.addi %h, %c1 : index
    %w = arith.muli %h1, %c4 : index
    %d = arith.subi %i, %j : index
    %inw = arith.cmpi slt, %d, %w : index
    %past = arith.cmpi sge, %i, %j : index
    %keep = arith.andi %past, %inw : i1
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %e1 = tensor.empty() : tensor<2x4x45x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x45x45xf32>) outs(%e1 : tensor<2x4x45x45xf32>) -> tensor<2x4x45x45xf32>
  %e3 = tensor.empty() : tensor<2x45x4x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x45x4x16xf32>) -> tensor<2x45x4x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, j, h, e)>, affine_map<(b, h, i, e, j) -> (b, i, h, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x45x45xf32>, tensor<2x45x4x16xf32>) outs(%z3 : tensor<2x45x4x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x45x4x16xf32>
  return %o32 : tensor<2x45x4x16xf32>
}

// -----

// Per-head window sizes from a tensor<4xi64> argument read by the map (h): keep iff i - j < w[h] (non-causal lower bound only) and j <= i + 8.
// CHECK-LABEL: func.func @per_head_window_from_tensor_i64
// CHECK: flash.attention
// EXEC: per_head_window_from_tensor_i64: raised=yes
func.func @per_head_window_from_tensor_i64(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %w: tensor<4xi64>) -> tensor<4x37x16xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %w : tensor<4x37x45xf32>, tensor<4xi64>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %in0: i64, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %c8 = arith.constant 8 : i64
    %c10 = arith.constant 10 : i64
    %ww = arith.addi %in0, %c10 : i64
    %d = arith.subi %i64, %j64 : i64
    %inw = arith.cmpi slt, %d, %ww : i64
    %ia = arith.addi %i64, %c8 : i64
    %c = arith.cmpi sle, %j64, %ia : i64
    %keep = arith.andi %inw, %c : i1
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// Dynamic Nq, Nk: bottom-right causal (offset Nk - Nq from tensor.dim) with a window of 10, i64 compares.
// CHECK-LABEL: func.func @dyn_bottom_right_causal_window
// CHECK: flash.attention
// SIZES: 37, 45, 45
// EXEC: dyn_bottom_right_causal_window: raised=yes
func.func @dyn_bottom_right_causal_window(%q: tensor<4x?x16xf32>, %k: tensor<4x?x16xf32>, %v: tensor<4x?x16xf32>) -> tensor<4x?x16xf32> {
  %zero = arith.constant 0.0 : f32
  %cq = arith.constant 1 : index
  %ck = arith.constant 1 : index
  %nq = tensor.dim %q, %cq : tensor<4x?x16xf32>
  %nk = tensor.dim %k, %ck : tensor<4x?x16xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<4x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x?x16xf32>, tensor<4x?x16xf32>) outs(%z0 : tensor<4x?x?xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x?x?xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x?x?xf32>) outs(%e0 : tensor<4x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %off = arith.subi %nk, %nq : index
    %ia = arith.addi %i, %off : index
    %i64 = arith.index_cast %ia : index to i64
    %j64 = arith.index_cast %j : index to i64
    %c10 = arith.constant 10 : i64
    %c = arith.cmpi sle, %j64, %i64 : i64
    %d = arith.subi %i64, %j64 : i64
    %inw = arith.cmpi slt, %d, %c10 : i64
    %keep = arith.andi %c, %inw : i1
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x?x?xf32>
  %e1 = tensor.empty(%nq, %nk) : tensor<4x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x?x?xf32>) outs(%e1 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<4x?x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x?x16xf32>) -> tensor<4x?x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x?x?xf32>, tensor<4x?x16xf32>) outs(%z3 : tensor<4x?x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x?x16xf32>
  return %o32 : tensor<4x?x16xf32>
}

// -----

// Dynamic 2-D with soft-cap 4 * tanh(y / 4) after the scale.
// CHECK-LABEL: func.func @dyn_softcap_2d
// CHECK: flash.attention
// SIZES: 37, 45, 45
// EXEC: dyn_softcap_2d: raised=yes
func.func @dyn_softcap_2d(%q: tensor<?x16xf32>, %k: tensor<?x16xf32>, %v: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %zero = arith.constant 0.0 : f32
  %cq = arith.constant 0 : index
  %ck = arith.constant 0 : index
  %nq = tensor.dim %q, %cq : tensor<?x16xf32>
  %nk = tensor.dim %k, %ck : tensor<?x16xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<?x16xf32>, tensor<?x16xf32>) outs(%z0 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<?x?xf32>) outs(%e0 : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %cap = arith.constant 4.0 : f32
    %y = arith.mulf %x, %sc : f32
    %t0 = arith.divf %y, %cap : f32
    %t1 = math.tanh %t0 : f32
    %r = arith.mulf %t1, %cap : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  %e1 = tensor.empty(%nq, %nk) : tensor<?x?xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<?x?xf32>) outs(%e1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<?x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<?x16xf32>) -> tensor<?x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<?x?xf32>, tensor<?x16xf32>) outs(%z3 : tensor<?x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x16xf32>
  return %o32 : tensor<?x16xf32>
}

// -----

// Dynamic lengths with document masks: segq tensor<?xi32>, segk tensor<?xi32> read at (i) and (j).
// CHECK-LABEL: func.func @dyn_document_mask_i32
// CHECK: flash.attention
// SIZES: 37, 45, 45, 37, 45
// EXEC: dyn_document_mask_i32: raised=yes
func.func @dyn_document_mask_i32(%q: tensor<4x?x16xf32>, %k: tensor<4x?x16xf32>, %v: tensor<4x?x16xf32>, %sq: tensor<?xi32>, %sk: tensor<?xi32>) -> tensor<4x?x16xf32> {
  %zero = arith.constant 0.0 : f32
  %cq = arith.constant 1 : index
  %ck = arith.constant 1 : index
  %nq = tensor.dim %q, %cq : tensor<4x?x16xf32>
  %nk = tensor.dim %k, %ck : tensor<4x?x16xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<4x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x?x16xf32>, tensor<4x?x16xf32>) outs(%z0 : tensor<4x?x?xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x?x?xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (i)>, affine_map<(h, i, j) -> (j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %sq, %sk : tensor<4x?x?xf32>, tensor<?xi32>, tensor<?xi32>) outs(%e0 : tensor<4x?x?xf32>) {
  ^bb0(%x: f32, %in0: i32, %in1: i32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %ne = arith.cmpi ne, %in0, %in1 : i32
    %r = arith.select %ne, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x?x?xf32>
  %e1 = tensor.empty(%nq, %nk) : tensor<4x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x?x?xf32>) outs(%e1 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<4x?x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x?x16xf32>) -> tensor<4x?x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x?x?xf32>, tensor<4x?x16xf32>) outs(%z3 : tensor<4x?x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x?x16xf32>
  return %o32 : tensor<4x?x16xf32>
}

// -----

// f16 Q, K, V with f32 accumulation; soft-cap 2 * tanh(y / 2), P truncated to f16 for the PV matmul, f16 output.
// CHECK-LABEL: func.func @f16_softcap_bhnd
// CHECK: flash.attention
// EXEC: f16_softcap_bhnd: raised=yes
func.func @f16_softcap_bhnd(%q: tensor<2x4x37x16xf16>, %k: tensor<2x4x45x16xf16>, %v: tensor<2x4x45x16xf16>) -> tensor<2x4x37x16xf16> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x37x16xf16>, tensor<2x4x45x16xf16>) outs(%z0 : tensor<2x4x37x45xf32>) {
  ^bb0(%a: f16, %bb: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %bb : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x37x45xf32>) outs(%e0 : tensor<2x4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %cap = arith.constant 2.0 : f32
    %y = arith.mulf %x, %sc : f32
    %t0 = arith.divf %y, %cap : f32
    %t1 = math.tanh %t0 : f32
    %r = arith.mulf %t1, %cap : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x37x45xf32>) outs(%e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %pe = tensor.empty() : tensor<2x4x37x45xf16>
  %pp = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<2x4x37x45xf32>) outs(%pe : tensor<2x4x37x45xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x4x37x45xf16>
  %e3 = tensor.empty() : tensor<2x4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%pp, %v : tensor<2x4x37x45xf16>, tensor<2x4x45x16xf16>) outs(%z3 : tensor<2x4x37x16xf32>) {
  ^bb0(%a: f16, %bb: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %bb : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  %eo = tensor.empty() : tensor<2x4x37x16xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(b, h, i, e) -> (b, h, i, e)>, affine_map<(b, h, i, e) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o32 : tensor<2x4x37x16xf32>) outs(%eo : tensor<2x4x37x16xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x4x37x16xf16>
  return %out : tensor<2x4x37x16xf16>
}

// -----

// bf16 [B,N,H,D] GQA (4 query heads, 2 KV heads at h floordiv 2), causal ALiBi slopes[h] * (j - i) with f32 slopes, f32 output.
// CHECK-LABEL: func.func @bf16_alibi_gqa_bnhd
// CHECK: flash.attention
// EXEC: bf16_alibi_gqa_bnhd: raised=yes
func.func @bf16_alibi_gqa_bnhd(%q: tensor<2x45x4x16xbf16>, %k: tensor<2x45x2x16xbf16>, %v: tensor<2x45x2x16xbf16>, %slopes: tensor<4xf32>) -> tensor<2x45x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x45x45xf32>) -> tensor<2x4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h floordiv 2, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x45x4x16xbf16>, tensor<2x45x2x16xbf16>) outs(%z0 : tensor<2x4x45x45xf32>) {
  ^bb0(%a: bf16, %bb: bf16, %c: f32):
    %a32 = arith.extf %a : bf16 to f32
    %b32 = arith.extf %bb : bf16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (h)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %slopes : tensor<2x4x45x45xf32>, tensor<4xf32>) outs(%e0 : tensor<2x4x45x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i32
    %df = arith.sitofp %di : i32 to f32
    %bias = arith.mulf %df, %in0 : f32
    %z = arith.addf %y, %bias : f32
    %keep = arith.cmpi sle, %j, %i : index
    %r = arith.select %keep, %z, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %e1 = tensor.empty() : tensor<2x4x45x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x45x45xf32>) outs(%e1 : tensor<2x4x45x45xf32>) -> tensor<2x4x45x45xf32>
  %e3 = tensor.empty() : tensor<2x45x4x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x45x4x16xf32>) -> tensor<2x45x4x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, j, h floordiv 2, e)>, affine_map<(b, h, i, e, j) -> (b, i, h, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x45x45xf32>, tensor<2x45x2x16xbf16>) outs(%z3 : tensor<2x45x4x16xf32>) {
  ^bb0(%a: f32, %bb: bf16, %c: f32):
    %b32 = arith.extf %bb : bf16 to f32
    %m = arith.mulf %a, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x45x4x16xf32>
  return %o32 : tensor<2x45x4x16xf32>
}

// -----

// f16 3-D GQA (4 heads / 2), document mask with i64 segment ids, f16 output.
// CHECK-LABEL: func.func @f16_document_mask_gqa_3d
// CHECK: flash.attention
// EXEC: f16_document_mask_gqa_3d: raised=yes
func.func @f16_document_mask_gqa_3d(%q: tensor<4x37x16xf16>, %k: tensor<2x45x16xf16>, %v: tensor<2x45x16xf16>, %sq: tensor<37xi64>, %sk: tensor<45xi64>) -> tensor<4x37x16xf16> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h floordiv 2, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf16>, tensor<2x45x16xf16>) outs(%z0 : tensor<4x37x45xf32>) {
  ^bb0(%a: f16, %bb: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %bb : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (i)>, affine_map<(h, i, j) -> (j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %sq, %sk : tensor<4x37x45xf32>, tensor<37xi64>, tensor<45xi64>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %in0: i64, %in1: i64, %o: f32):
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %same = arith.cmpi eq, %in0, %in1 : i64
    %r = arith.select %same, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h floordiv 2, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<2x45x16xf16>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f16, %c: f32):
    %b32 = arith.extf %bb : f16 to f32
    %m = arith.mulf %a, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  %eo = tensor.empty() : tensor<4x37x16xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(h, i, e) -> (h, i, e)>, affine_map<(h, i, e) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o32 : tensor<4x37x16xf32>) outs(%eo : tensor<4x37x16xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x37x16xf16>
  return %out : tensor<4x37x16xf16>
}

// -----

// Runtime scalar scale and runtime soft-cap (both f32 function arguments): cap * tanh(s * scale / cap).
// CHECK-LABEL: func.func @runtime_scale_and_cap
// CHECK: flash.attention
// EXEC: runtime_scale_and_cap: raised=yes
func.func @runtime_scale_and_cap(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %scale: f32, %cap: f32) -> tensor<4x37x16xf32> {
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
    %y = arith.mulf %x, %scale : f32
    %t0 = arith.divf %y, %cap : f32
    %t1 = math.tanh %t0 : f32
    %r = arith.mulf %t1, %cap : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// Per-head learned temperature: scores times tau[h] (tensor<4xf32> read by map (h)), then a key cutoff j < 40 (i64).
// CHECK-LABEL: func.func @per_head_temperature_bhnd
// CHECK: flash.attention
// EXEC: per_head_temperature_bhnd: raised=yes
func.func @per_head_temperature_bhnd(%q: tensor<2x4x37x16xf32>, %k: tensor<2x4x45x16xf32>, %v: tensor<2x4x45x16xf32>, %tau: tensor<4xf32>) -> tensor<2x4x37x16xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (h)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %tau : tensor<2x4x37x45xf32>, tensor<4xf32>) outs(%e0 : tensor<2x4x37x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %in0 : f32
    %j64 = arith.index_cast %j : index to i64
    %c40 = arith.constant 40 : i64
    %pad = arith.cmpi sge, %j64, %c40 : i64
    %r = arith.select %pad, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x37x45xf32>) outs(%e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %e3 = tensor.empty() : tensor<2x4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%z3 : tensor<2x4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %o32 : tensor<2x4x37x16xf32>
}

// -----

// Scores times a weight tensor w[b, 0, i, j] plus a per-head bias bias[h, j] (key bias), scale applied first.
// CHECK-LABEL: func.func @multiplicative_weights_b1nn_plus_bias
// CHECK: flash.attention
// EXEC: multiplicative_weights_b1nn_plus_bias: raised=yes
func.func @multiplicative_weights_b1nn_plus_bias(%q: tensor<2x4x37x16xf32>, %k: tensor<2x4x45x16xf32>, %v: tensor<2x4x45x16xf32>, %w: tensor<2x1x37x45xf32>, %kb: tensor<4x45xf32>) -> tensor<2x4x37x16xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, 0, i, j)>, affine_map<(b, h, i, j) -> (h, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %w, %kb : tensor<2x4x37x45xf32>, tensor<2x1x37x45xf32>, tensor<4x45xf32>) outs(%e0 : tensor<2x4x37x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %in1: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %z = arith.mulf %y, %in0 : f32
    %r = arith.addf %z, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x37x45xf32>) outs(%e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %e3 = tensor.empty() : tensor<2x4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%z3 : tensor<2x4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %o32 : tensor<2x4x37x16xf32>
}

// -----

// [B,N,H,D] Gemma-like: soft-cap, then document mask seg[b, i] == seg[b, j] (i32) and causal, decomposed softmax.
// CHECK-LABEL: func.func @softcap_document_causal_bnhd_decomposed
// CHECK: flash.attention
// EXEC: softcap_document_causal_bnhd_decomposed: raised=yes
func.func @softcap_document_causal_bnhd_decomposed(%q: tensor<2x45x4x16xf32>, %k: tensor<2x45x4x16xf32>, %v: tensor<2x45x4x16xf32>, %seg: tensor<2x45xi32>) -> tensor<2x45x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x45x45xf32>) -> tensor<2x4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x45x4x16xf32>, tensor<2x45x4x16xf32>) outs(%z0 : tensor<2x4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, i)>, affine_map<(b, h, i, j) -> (b, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %seg, %seg : tensor<2x4x45x45xf32>, tensor<2x45xi32>, tensor<2x45xi32>) outs(%e0 : tensor<2x4x45x45xf32>) {
  ^bb0(%x: f32, %in0: i32, %in1: i32, %o: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    
    %sc = arith.constant 0.25 : f32
    %cap = arith.constant 1.5 : f32
    %true = arith.constant true
    %fmin = arith.constant -3.40282347E+38 : f32
    %y = arith.mulf %x, %sc : f32
    %t0 = arith.divf %y, %cap : f32
    %t1 = math.tanh %t0 : f32
    %t2 = arith.mulf %t1, %cap : f32
    %same = arith.cmpi eq, %in0, %in1 : i32
    %past = arith.cmpi slt, %i, %j : index
    %np = arith.xori %past, %true : i1
    %keep = arith.andi %same, %np : i1
    %r = arith.select %keep, %t2, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %lowest = arith.constant -3.40282347E+38 : f32
  %er = tensor.empty() : tensor<2x4x45xf32>
  %mi = linalg.fill ins(%lowest : f32) outs(%er : tensor<2x4x45xf32>) -> tensor<2x4x45xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%sm : tensor<2x4x45x45xf32>) outs(%mi : tensor<2x4x45xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %mm = arith.maximumf %x, %acc : f32
    linalg.yield %mm : f32
  } -> tensor<2x4x45xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sm, %mx : tensor<2x4x45x45xf32>, tensor<2x4x45xf32>) outs(%e0 : tensor<2x4x45x45xf32>) {
  ^bb0(%x: f32, %mm: f32, %o: f32):
    %dd = arith.subf %x, %mm : f32
    %ee = math.exp %dd : f32
    linalg.yield %ee : f32
  } -> tensor<2x4x45x45xf32>
  %li = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4x45xf32>) -> tensor<2x4x45xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<2x4x45x45xf32>) outs(%li : tensor<2x4x45xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %yy = arith.addf %x, %acc : f32
    linalg.yield %yy : f32
  } -> tensor<2x4x45xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<2x4x45x45xf32>, tensor<2x4x45xf32>) outs(%e0 : tensor<2x4x45x45xf32>) {
  ^bb0(%x: f32, %dn: f32, %o: f32):
    %yy = arith.divf %x, %dn : f32
    linalg.yield %yy : f32
  } -> tensor<2x4x45x45xf32>
  %e3 = tensor.empty() : tensor<2x45x4x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x45x4x16xf32>) -> tensor<2x45x4x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, j, h, e)>, affine_map<(b, h, i, e, j) -> (b, i, h, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x45x45xf32>, tensor<2x45x4x16xf32>) outs(%z3 : tensor<2x45x4x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x45x4x16xf32>
  return %o32 : tensor<2x45x4x16xf32>
}

// -----

// torch-style bool attn_mask where true means masked: a separate generic builds [Nq,Nk] i1 = (j64 > i64 + 8) or (j64 < 3) in i64; select(mask, -inf, s).
// CHECK-LABEL: func.func @bool_mask_tensor_masked_true_i64
// CHECK: flash.attention
// EXEC: bool_mask_tensor_masked_true_i64: raised=yes
func.func @bool_mask_tensor_masked_true_i64(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
  %em = tensor.empty() : tensor<37x45xi1>
  %mk = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%em : tensor<37x45xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %c8 = arith.constant 8 : i64
    %c3 = arith.constant 3 : i64
    %ia = arith.addi %c8, %i64 : i64
    %a = arith.cmpi sgt, %j64, %ia : i64
    %b = arith.cmpi slt, %j64, %c3 : i64
    %m = arith.ori %a, %b : i1
    linalg.yield %m : i1
  } -> tensor<37x45xi1>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mk : tensor<4x37x45xf32>, tensor<37x45xi1>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %in0: i1, %o: f32):
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %r = arith.select %in0, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// StableHLO-to-linalg style: two iota tensors (i32 [Nq,Nk] from linalg.index 0 and 1) materialized by generics, compared elementwise into an i1 mask (ge), then a select generic.
// CHECK-LABEL: func.func @stablehlo_iota_compare_mask
// CHECK: flash.attention
// EXEC: stablehlo_iota_compare_mask: raised=yes
func.func @stablehlo_iota_compare_mask(%q: tensor<4x45x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x45x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %ei = tensor.empty() : tensor<45x45xi32>
  %io0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%ei : tensor<45x45xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  } -> tensor<45x45xi32>
  %io1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%ei : tensor<45x45xi32>) {
  ^bb0(%o: i32):
    %j = linalg.index 1 : index
    %c = arith.index_cast %j : index to i32
    linalg.yield %c : i32
  } -> tensor<45x45xi32>
  %eb = tensor.empty() : tensor<45x45xi1>
  %mk = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%io0, %io1 : tensor<45x45xi32>, tensor<45x45xi32>) outs(%eb : tensor<45x45xi1>) {
  ^bb0(%a: i32, %b: i32, %o: i1):
    %ge = arith.cmpi sge, %a, %b : i32
    linalg.yield %ge : i1
  } -> tensor<45x45xi1>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mk : tensor<4x45x45xf32>, tensor<45x45xi1>) outs(%e0 : tensor<4x45x45xf32>) {
  ^bb0(%x: f32, %in0: i1, %o: f32):
    %sc = arith.constant 0.25 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %y = arith.mulf %x, %sc : f32
    %r = arith.select %in0, %y, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %e1 = tensor.empty() : tensor<4x45x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x45x45xf32>) outs(%e1 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %e3 = tensor.empty() : tensor<4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x45x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x16xf32>
  return %o32 : tensor<4x45x16xf32>
}

// -----

// The bias reads K[h, j, 0] itself (tensor.extract on the key tensor): not a modifier of the score.
// CHECK-LABEL: func.func @negative_score_mod_reads_k
// CHECK-NOT: flash.attention
func.func @negative_score_mod_reads_k(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %c0 = arith.constant 0 : index
    %y = arith.mulf %x, %sc : f32
    %kv = tensor.extract %k[%h, %j, %c0] : tensor<4x45x16xf32>
    %r = arith.addf %y, %kv : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// The mask keeps only positive scores (cmpf on the score): a mask that depends on the scores.
// CHECK-LABEL: func.func @negative_mask_depends_on_scores
// CHECK-NOT: flash.attention
func.func @negative_mask_depends_on_scores(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
    %fmin = arith.constant -3.40282347E+38 : f32
    %zz = arith.constant 0.0 : f32
    %y = arith.mulf %x, %sc : f32
    %pos = arith.cmpf ogt, %x, %zz : f32
    %r = arith.select %pos, %y, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// Dropout-like: the probabilities are multiplied by a keep tensor / 0.9 after the softmax.
// CHECK-LABEL: func.func @negative_dropout_after_softmax
// CHECK-NOT: flash.attention
func.func @negative_dropout_after_softmax(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %keep: tensor<4x37x45xi1>) -> tensor<4x37x16xf32> {
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
    linalg.yield %y : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %pp = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %keep : tensor<4x37x45xf32>, tensor<4x37x45xi1>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %kp: i1, %o: f32):
    %zz = arith.constant 0.0 : f32
    %inv = arith.constant 1.11111116 : f32
    %y = arith.mulf %x, %inv : f32
    %r = arith.select %kp, %y, %zz : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%pp, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// The score generic also reads the scores at the transposed position s[h, j, i] (s + s^T): not elementwise in the score.
// CHECK-LABEL: func.func @negative_score_transposed_read
// CHECK-NOT: flash.attention
func.func @negative_score_transposed_read(%q: tensor<4x45x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x45x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, j, i)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %s : tensor<4x45x45xf32>, tensor<4x45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %a = arith.addf %x, %in0 : f32
    %y = arith.mulf %a, %sc : f32
    linalg.yield %y : f32
  } -> tensor<4x45x45xf32>
  %e1 = tensor.empty() : tensor<4x45x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x45x45xf32>) outs(%e1 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %e3 = tensor.empty() : tensor<4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x45x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x16xf32>
  return %o32 : tensor<4x45x16xf32>
}

// -----

// The mask compares each score with its row maximum (keep iff s > rowmax - 1): depends on other scores.
// CHECK-LABEL: func.func @negative_mask_from_row_max
// CHECK-NOT: flash.attention
func.func @negative_mask_from_row_max(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
  %lowest = arith.constant -3.40282347E+38 : f32
  %er = tensor.empty() : tensor<4x37xf32>
  %mi = linalg.fill ins(%lowest : f32) outs(%er : tensor<4x37xf32>) -> tensor<4x37xf32>
  %rm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<4x37x45xf32>) outs(%mi : tensor<4x37xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %mm = arith.maximumf %x, %acc : f32
    linalg.yield %mm : f32
  } -> tensor<4x37xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %rm : tensor<4x37x45xf32>, tensor<4x37xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %one = arith.constant 1.0 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %y = arith.mulf %x, %sc : f32
    %th = arith.subf %in0, %one : f32
    %keep = arith.cmpf ogt, %x, %th : f32
    %r = arith.select %keep, %y, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// A relative-position bias is added to the probabilities after the softmax (p + 0.01 * (j - i)): not attention.
// CHECK-LABEL: func.func @negative_bias_after_softmax
// CHECK-NOT: flash.attention
func.func @negative_bias_after_softmax(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
    linalg.yield %y : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %pp = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i64
    %df = arith.sitofp %di : i64 to f32
    %c = arith.constant 0.01 : f32
    %b = arith.mulf %df, %c : f32
    %r = arith.addf %x, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%pp, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// The score adds V[h, j, 0] (a column of the value tensor, i.e. a per-key bias that happens to live in V); legitimately a captured bias[h, j].
// CHECK-LABEL: func.func @value_column_as_key_bias
// CHECK: flash.attention
// EXEC: value_column_as_key_bias: raised=yes
func.func @value_column_as_key_bias(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, j, 0)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %r = arith.addf %y, %in0 : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// absi i64 no GQA
// CHECK-LABEL: func.func @p_absi_i64_3d
// CHECK: flash.attention
// EXEC: p_absi_i64_3d: raised=yes
func.func @p_absi_i64_3d(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %slopes: tensor<4xf32>) -> tensor<4x37x16xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %slopes : tensor<4x37x45xf32>, tensor<4xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %i64, %j64 : i64
    %ad = math.absi %d : i64
    %df = arith.sitofp %ad : i64 to f32
    %bias = arith.mulf %in0, %df : f32
    %z = arith.subf %y, %bias : f32
    linalg.yield %z : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// absi on index
// CHECK-LABEL: func.func @p_absi_index_3d
// CHECK: flash.attention
// EXEC: p_absi_index_3d: raised=yes
func.func @p_absi_index_3d(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %slopes: tensor<4xf32>) -> tensor<4x37x16xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %slopes : tensor<4x37x45xf32>, tensor<4xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %d = arith.subi %i, %j : index
    %d64 = arith.index_cast %d : index to i64
    %ad = math.absi %d64 : i64
    %df = arith.sitofp %ad : i64 to f32
    %bias = arith.mulf %in0, %df : f32
    %z = arith.subf %y, %bias : f32
    linalg.yield %z : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// abs via maxsi(d, -d)
// CHECK-LABEL: func.func @p_abs_via_maxsi_3d
// CHECK: flash.attention
// EXEC: p_abs_via_maxsi_3d: raised=yes
func.func @p_abs_via_maxsi_3d(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %slopes: tensor<4xf32>) -> tensor<4x37x16xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %slopes : tensor<4x37x45xf32>, tensor<4xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %i64, %j64 : i64
    %nd = arith.subi %j64, %i64 : i64
    %ad = arith.maxsi %d, %nd : i64
    %df = arith.sitofp %ad : i64 to f32
    %bias = arith.mulf %in0, %df : f32
    %z = arith.subf %y, %bias : f32
    linalg.yield %z : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// abs via math.absf of sitofp
// CHECK-LABEL: func.func @p_abs_via_absf_3d
// CHECK: flash.attention
// EXEC: p_abs_via_absf_3d: raised=yes
func.func @p_abs_via_absf_3d(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %slopes: tensor<4xf32>) -> tensor<4x37x16xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %slopes : tensor<4x37x45xf32>, tensor<4xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %i64, %j64 : i64
    %df = arith.sitofp %d : i64 to f32
    %ad = math.absf %df : f32
    %bias = arith.mulf %in0, %ad : f32
    %z = arith.subf %y, %bias : f32
    linalg.yield %z : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// keep iff remsi(i - j, 3) == 1 or j == i (C remainder: negative d never gives 1 except ... )
// CHECK-LABEL: func.func @dilated_remsi_eq1
// CHECK: flash.attention
// EXEC: dilated_remsi_eq1: raised=yes
func.func @dilated_remsi_eq1(%q: tensor<4x45x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x45x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %d = arith.subi %i, %j : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %r3 = arith.remsi %d, %c3 : index
    %k1 = arith.cmpi eq, %r3, %c1 : index
    %k2 = arith.cmpi eq, %i, %j : index
    %keep = arith.ori %k1, %k2 : i1
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %e1 = tensor.empty() : tensor<4x45x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x45x45xf32>) outs(%e1 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %e3 = tensor.empty() : tensor<4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x45x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x16xf32>
  return %o32 : tensor<4x45x16xf32>
}

// -----

// keep iff divsi(i - j, 8) == 0 (truncating: |i - j| < 8)
// CHECK-LABEL: func.func @band_divsi_trunc
// CHECK: flash.attention
// EXEC: band_divsi_trunc: raised=yes
func.func @band_divsi_trunc(%q: tensor<4x45x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x45x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %i64, %j64 : i64
    %c8 = arith.constant 8 : i64
    %c0 = arith.constant 0 : i64
    %q8 = arith.divsi %d, %c8 : i64
    %keep = arith.cmpi eq, %q8, %c0 : i64
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %e1 = tensor.empty() : tensor<4x45x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x45x45xf32>) outs(%e1 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %e3 = tensor.empty() : tensor<4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x45x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x16xf32>
  return %o32 : tensor<4x45x16xf32>
}

// -----

// causal+window in one unsigned compare: keep iff (i - j) ult 6
// CHECK-LABEL: func.func @window_ult_trick
// CHECK: flash.attention
// EXEC: window_ult_trick: raised=yes
func.func @window_ult_trick(%q: tensor<4x45x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x45x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %d = arith.subi %i, %j : index
    %c6 = arith.constant 6 : index
    %keep = arith.cmpi ult, %d, %c6 : index
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %e1 = tensor.empty() : tensor<4x45x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x45x45xf32>) outs(%e1 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %e3 = tensor.empty() : tensor<4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x45x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x16xf32>
  return %o32 : tensor<4x45x16xf32>
}

// -----

// same in i32
// CHECK-LABEL: func.func @window_ult_trick_i32
// CHECK: flash.attention
// EXEC: window_ult_trick_i32: raised=yes
func.func @window_ult_trick_i32(%q: tensor<4x45x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x45x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %i32 = arith.index_cast %i : index to i32
    %j32 = arith.index_cast %j : index to i32
    %d = arith.subi %i32, %j32 : i32
    %c6 = arith.constant 6 : i32
    %keep = arith.cmpi ult, %d, %c6 : i32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %e1 = tensor.empty() : tensor<4x45x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x45x45xf32>) outs(%e1 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %e3 = tensor.empty() : tensor<4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x45x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x16xf32>
  return %o32 : tensor<4x45x16xf32>
}

// -----

// keep iff j < len with len an i64 scalar argument (=3 at run time)
// CHECK-LABEL: func.func @runtime_len_i64
// CHECK: flash.attention
// EXEC: runtime_len_i64: raised=yes
func.func @runtime_len_i64(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %len: i64) -> tensor<4x37x16xf32> {
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
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %j64 = arith.index_cast %j : index to i64
    %keep = arith.cmpi slt, %j64, %len : i64
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// keep iff j < i with finfo.min: row 0 fully masked (HF semantics: uniform).
// Causal with offset -1, and row 0 (lse -inf) replaced by V's average, as
// the program's is.
// CHECK-LABEL: func.func @strict_causal_finfo_min
// CHECK: flash.attention {{.*}}causal, causal_offset = -1
// CHECK: arith.cmpf oeq
// CHECK: arith.select
// EXEC: strict_causal_finfo_min: raised=yes
func.func @strict_causal_finfo_min(%q: tensor<4x45x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x45x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %y = arith.mulf %x, %sc : f32
    %keep = arith.cmpi slt, %j, %i : index
    %r = arith.select %keep, %y, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %e1 = tensor.empty() : tensor<4x45x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x45x45xf32>) outs(%e1 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %e3 = tensor.empty() : tensor<4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x45x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x16xf32>
  return %o32 : tensor<4x45x16xf32>
}

// -----

// old BERT: additive (1 - keep) * -10000 from a key padding i1 tensor [B, Nk]
// ((1 - uitofp(pad)) * -10000 is select(pad, 0, -10000): an additive mask
// with finite values, exactly as the program adds it).
// CHECK-LABEL: func.func @bert_minus_10000_additive
// CHECK: flash.attention
// EXEC: bert_minus_10000_additive: raised=yes
func.func @bert_minus_10000_additive(%q: tensor<2x4x37x16xf32>, %k: tensor<2x4x45x16xf32>, %v: tensor<2x4x45x16xf32>, %pad: tensor<2x45xi1>) -> tensor<2x4x37x16xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %pad : tensor<2x4x37x45xf32>, tensor<2x45xi1>) outs(%e0 : tensor<2x4x37x45xf32>) {
  ^bb0(%x: f32, %in0: i1, %o: f32):
    %sc = arith.constant 0.25 : f32
    %one = arith.constant 1.0 : f32
    %big = arith.constant -10000.0 : f32
    %y = arith.mulf %x, %sc : f32
    %kf = arith.uitofp %in0 : i1 to f32
    %inv = arith.subf %one, %kf : f32
    %m = arith.mulf %inv, %big : f32
    %r = arith.addf %y, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x37x45xf32>) outs(%e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %e3 = tensor.empty() : tensor<2x4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%z3 : tensor<2x4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %o32 : tensor<2x4x37x16xf32>
}

// -----

// ALiBi slopes computed in the body: 2^(-2 (h + 1)) via math.exp2 of sitofp(h)
// CHECK-LABEL: func.func @alibi_slopes_from_head_exp2
// CHECK: flash.attention
// EXEC: alibi_slopes_from_head_exp2: raised=yes
func.func @alibi_slopes_from_head_exp2(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %h64 = arith.index_cast %h : index to i64
    %hf = arith.sitofp %h64 : i64 to f32
    %one = arith.constant 1.0 : f32
    %m2 = arith.constant -2.0 : f32
    %h1 = arith.addf %hf, %one : f32
    %ex = arith.mulf %h1, %m2 : f32
    %slope = math.exp2 %ex : f32
    %d = arith.subi %j, %i : index
    %d64 = arith.index_cast %d : index to i64
    %df = arith.sitofp %d64 : i64 to f32
    %b = arith.mulf %slope, %df : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// scores * exp(logtau[h])
// CHECK-LABEL: func.func @log_temperature_exp
// CHECK: flash.attention
// EXEC: log_temperature_exp: raised=yes
func.func @log_temperature_exp(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %lt: tensor<4xf32>) -> tensor<4x37x16xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %lt : tensor<4x37x45xf32>, tensor<4xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %e = math.exp %in0 : f32
    %y = arith.mulf %x, %e : f32
    linalg.yield %y : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// HF: causal bool tensor built separately + additive padding [B,1,1,Nk] float argument, in one generic
// CHECK-LABEL: func.func @hf_causal_plus_padding_two_tensors
// CHECK: flash.attention
// EXEC: hf_causal_plus_padding_two_tensors: raised=yes
func.func @hf_causal_plus_padding_two_tensors(%q: tensor<2x4x45x16xf32>, %k: tensor<2x4x45x16xf32>, %v: tensor<2x4x45x16xf32>, %padf: tensor<2x1x1x45xf32>) -> tensor<2x4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x45x45xf32>) -> tensor<2x4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x45x16xf32>, tensor<2x4x45x16xf32>) outs(%z0 : tensor<2x4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %em = tensor.empty() : tensor<45x45xi1>
  %cm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%em : tensor<45x45xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi sgt, %i, %j : index
    %eq = arith.cmpi eq, %i, %j : index
    %kk = arith.ori %c, %eq : i1
    linalg.yield %kk : i1
  } -> tensor<45x45xi1>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (i, j)>, affine_map<(b, h, i, j) -> (b, 0, 0, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %cm, %padf : tensor<2x4x45x45xf32>, tensor<45x45xi1>, tensor<2x1x1x45xf32>) outs(%e0 : tensor<2x4x45x45xf32>) {
  ^bb0(%x: f32, %in0: i1, %in1: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %y = arith.mulf %x, %sc : f32
    %a = arith.addf %y, %in1 : f32
    %r = arith.select %in0, %a, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x45xf32>
  %e1 = tensor.empty() : tensor<2x4x45x45xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x4x45x45xf32>) outs(%e1 : tensor<2x4x45x45xf32>) -> tensor<2x4x45x45xf32>
  %e3 = tensor.empty() : tensor<2x4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x45x16xf32>) -> tensor<2x4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x45x45xf32>, tensor<2x4x45x16xf32>) outs(%z3 : tensor<2x4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x16xf32>
  return %o32 : tensor<2x4x45x16xf32>
}

// -----

// key cutoff with the constant on the left: 40 > j (sgt)
// CHECK-LABEL: func.func @cmp_const_left
// CHECK: flash.attention
// EXEC: cmp_const_left: raised=yes
func.func @cmp_const_left(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %c40 = arith.constant 40 : index
    %keep = arith.cmpi sgt, %c40, %j : index
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// bias 0.1 * uitofp(i - j) on i32 where i - j may be negative (wraps to huge): weird but defined
// CHECK-LABEL: func.func @uitofp_distance
// CHECK: flash.attention
// EXEC: uitofp_distance: raised=yes
func.func @uitofp_distance(%q: tensor<4x45x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x45x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %keep = arith.cmpi sge, %i, %j : index
    %d = arith.subi %i, %j : index
    %d32 = arith.index_cast %d : index to i32
    %df = arith.uitofp %d32 : i32 to f32
    %c = arith.constant -0.1 : f32
    %b = arith.mulf %df, %c : f32
    %z = arith.addf %y, %b : f32
    %r = arith.select %keep, %z, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %e1 = tensor.empty() : tensor<4x45x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x45x45xf32>) outs(%e1 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %e3 = tensor.empty() : tensor<4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x45x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x16xf32>
  return %o32 : tensor<4x45x16xf32>
}

// -----

// the score generic writes t[h, j, i] = 0.25 * s[h, i, j]; softmax and P*V then run over the Q index, i.e. attention with the roles of Q and K swapped (raisable with Q and K exchanged)
// CHECK-LABEL: func.func @transposed_scores_swap_qk
// CHECK: flash.attention
// EXEC: transposed_scores_swap_qk: raised=yes
func.func @transposed_scores_swap_qk(%q: tensor<4x45x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x45x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x45x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %st = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, j, i)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    linalg.yield %y : f32
  } -> tensor<4x45x45xf32>
  %e1 = tensor.empty() : tensor<4x45x45xf32>
  %p = linalg.softmax dimension(2) ins(%st : tensor<4x45x45xf32>) outs(%e1 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %e3 = tensor.empty() : tensor<4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x45x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x45x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x45x16xf32>
  return %o32 : tensor<4x45x16xf32>
}

// -----

// keep iff Q[h, i, 0] > 0 read by the map (h, i, 0): a per-query mask from a tensor; masked queries are fully masked rows (finfo.min: uniform)
// Not raised (the mask reads Q and masks whole rows with finfo.min).
// CHECK-LABEL: func.func @negative_query_mask_from_q_column
// CHECK-NOT: flash.attention
func.func @negative_query_mask_from_q_column(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, 0)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %q : tensor<4x37x45xf32>, tensor<4x37x16xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %in0: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %zz = arith.constant 0.0 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %y = arith.mulf %x, %sc : f32
    %keep = arith.cmpf ogt, %in0, %zz : f32
    %r = arith.select %keep, %y, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}
