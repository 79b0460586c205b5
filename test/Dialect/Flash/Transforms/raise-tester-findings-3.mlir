// Spellings a third independent tester wrote (session 42, score and mask
// modifiers), each checked against the unraised program on the CPU:
// positions computed in f16 / bf16 (a window scaled by 0.1, ALiBi past
// 2048), whose rounding moves the mask's edges (rebuilt in f32 they were
// wrong answers, errors 0.06-0.44: now rounded as computed), and torch's
// triu of a bool ones tensor (a select of predicates: refused before), and
// window bounds as affine.apply of positions, segment ids read at a
// shifted query position, a predicate stored as uint8 and compared again.
// RUN: flash-opt %s --split-input-file --flash-raise-attention | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// masked_fill(triu(ones(bool), 1), -inf): select(j - i >= 1, true, false)
// is the predicate itself.
// CHECK-LABEL: func.func @bool_triu_ones_masked_fill_fwd
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK-NOT: linalg.generic
// EXEC: bool_triu_ones_masked_fill_fwd: raised=yes
func.func @bool_triu_ones_masked_fill_fwd(%A_q: tensor<1x2x25x8xf32>, %A_k: tensor<1x2x25x8xf32>, %A_v: tensor<1x2x25x8xf32>) -> (tensor<1x2x25x8xf32>) {
  %_cl1 = tensor.collapse_shape %A_q [[0, 1], [2], [3]] : tensor<1x2x25x8xf32> into tensor<2x25x8xf32>
  %_cl2 = tensor.collapse_shape %A_k [[0, 1], [2], [3]] : tensor<1x2x25x8xf32> into tensor<2x25x8xf32>
  %_e3 = tensor.empty() : tensor<2x25x25xf32>
  %_c4 = arith.constant 0.0 : f32
  %_f5 = linalg.fill ins(%_c4 : f32) outs(%_e3 : tensor<2x25x25xf32>) -> tensor<2x25x25xf32>
  %_mm6 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%_cl1, %_cl2 : tensor<2x25x8xf32>, tensor<2x25x8xf32>) outs(%_f5 : tensor<2x25x25xf32>) -> tensor<2x25x25xf32>
  %_ex7 = tensor.expand_shape %_mm6 [[0, 1], [2], [3]] output_shape [1, 2, 25, 25] : tensor<2x25x25xf32> into tensor<1x2x25x25xf32>
  %_e8 = tensor.empty() : tensor<1x2x25x25xf32>
  %_g9 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_ex7 : tensor<1x2x25x25xf32>) outs(%_e8 : tensor<1x2x25x25xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x25x25xf32>
  %_e10 = tensor.empty() : tensor<25x25xi1>
  %_c11 = arith.constant 1 : i1
  %_f12 = linalg.fill ins(%_c11 : i1) outs(%_e10 : tensor<25x25xi1>) -> tensor<25x25xi1>
  %_e13 = tensor.empty() : tensor<25x25xi1>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%_f12 : tensor<25x25xi1>) outs(%_e13 : tensor<25x25xi1>) {
  ^bb0(%a0: i1, %out: i1):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %d = arith.subi %jc, %ic : i64
    %o = arith.constant 1 : i64
    %k = arith.cmpi sge, %d, %o : i64
    %f = arith.constant false
    %r = arith.select %k, %a0, %f : i1
    linalg.yield %r : i1
  } -> tensor<25x25xi1>
  %_e15 = tensor.empty() : tensor<1x2x25x25xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g9, %_g14 : tensor<1x2x25x25xf32>, tensor<25x25xi1>) outs(%_e15 : tensor<1x2x25x25xf32>) {
  ^bb0(%a0: f32, %a1: i1, %out: f32):
    %mn = arith.constant 0xFF800000 : f32
    %r = arith.select %a1, %mn, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x25x25xf32>
  %_e17 = tensor.empty() : tensor<1x2x25x1xf32>
  %_c18 = arith.constant 0xFF800000 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<1x2x25x1xf32>) -> tensor<1x2x25x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<1x2x25x25xf32>) outs(%_f19 : tensor<1x2x25x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x25x1xf32>
  %_e21 = tensor.empty() : tensor<1x2x25x25xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<1x2x25x25xf32>, tensor<1x2x25x1xf32>) outs(%_e21 : tensor<1x2x25x25xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x25x25xf32>
  %_e23 = tensor.empty() : tensor<1x2x25x25xf32>
  %_g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g22 : tensor<1x2x25x25xf32>) outs(%_e23 : tensor<1x2x25x25xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x25x25xf32>
  %_e25 = tensor.empty() : tensor<1x2x25x1xf32>
  %_c26 = arith.constant 0.0 : f32
  %_f27 = linalg.fill ins(%_c26 : f32) outs(%_e25 : tensor<1x2x25x1xf32>) -> tensor<1x2x25x1xf32>
  %_g28 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g24 : tensor<1x2x25x25xf32>) outs(%_f27 : tensor<1x2x25x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x25x1xf32>
  %_e29 = tensor.empty() : tensor<1x2x25x25xf32>
  %_g30 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g24, %_g28 : tensor<1x2x25x25xf32>, tensor<1x2x25x1xf32>) outs(%_e29 : tensor<1x2x25x25xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x25x25xf32>
  %_cl31 = tensor.collapse_shape %_g30 [[0, 1], [2], [3]] : tensor<1x2x25x25xf32> into tensor<2x25x25xf32>
  %_cl32 = tensor.collapse_shape %A_v [[0, 1], [2], [3]] : tensor<1x2x25x8xf32> into tensor<2x25x8xf32>
  %_e33 = tensor.empty() : tensor<2x25x8xf32>
  %_c34 = arith.constant 0.0 : f32
  %_f35 = linalg.fill ins(%_c34 : f32) outs(%_e33 : tensor<2x25x8xf32>) -> tensor<2x25x8xf32>
  %_mm36 = linalg.batch_matmul ins(%_cl31, %_cl32 : tensor<2x25x25xf32>, tensor<2x25x8xf32>) outs(%_f35 : tensor<2x25x8xf32>) -> tensor<2x25x8xf32>
  %_ex37 = tensor.expand_shape %_mm36 [[0, 1], [2], [3]] output_shape [1, 2, 25, 8] : tensor<2x25x8xf32> into tensor<1x2x25x8xf32>
  return %_ex37 : tensor<1x2x25x8xf32>
}

// -----

// 0 <= i 0.1 - j 0.1 < 0.5 with the positions in f16: each product and
// the difference rounded to f16 as the program computes them.
// CHECK-LABEL: func.func @pos_f16_scaled_window_fwd
// CHECK: flash.attention
// CHECK: mask_mod
// CHECK-COUNT-3: arith.truncf {{.*}} : f32 to f16
// CHECK: flash.yield
// EXEC: pos_f16_scaled_window_fwd: raised=yes
func.func @pos_f16_scaled_window_fwd(%A_q: tensor<1x2x64x8xf32>, %A_k: tensor<1x2x64x8xf32>, %A_v: tensor<1x2x64x8xf32>) -> (tensor<1x2x64x8xf32>) {
  %_e1 = tensor.empty() : tensor<1x2x64x64xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<1x2x64x64xf32>) -> tensor<1x2x64x64xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<1x2x64x8xf32>, tensor<1x2x64x8xf32>) outs(%_f3 : tensor<1x2x64x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x64x64xf32>
  %_e5 = tensor.empty() : tensor<1x2x64x64xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<1x2x64x64xf32>) outs(%_e5 : tensor<1x2x64x64xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x64x64xf32>
  %_e7 = tensor.empty() : tensor<1x2x64x64xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<1x2x64x64xf32>) outs(%_e7 : tensor<1x2x64x64xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f16
    %fj = arith.sitofp %jj : i32 to f16
    %t = arith.constant 0.1 : f16
    %pi = arith.mulf %fi, %t : f16
    %pj = arith.mulf %fj, %t : f16
    %d = arith.subf %pi, %pj : f16
    %z0 = arith.constant 0.0 : f16
    %w = arith.constant 0.5 : f16
    %c1 = arith.cmpf oge, %d, %z0 : f16
    %c2 = arith.cmpf olt, %d, %w : f16
    %keep = arith.andi %c1, %c2 : i1
    %mn = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<1x2x64x64xf32>
  %_e9 = tensor.empty() : tensor<1x2x64x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<1x2x64x1xf32>) -> tensor<1x2x64x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<1x2x64x64xf32>) outs(%_f11 : tensor<1x2x64x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x64x1xf32>
  %_e13 = tensor.empty() : tensor<1x2x64x64xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g12 : tensor<1x2x64x64xf32>, tensor<1x2x64x1xf32>) outs(%_e13 : tensor<1x2x64x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x64x64xf32>
  %_e15 = tensor.empty() : tensor<1x2x64x64xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14 : tensor<1x2x64x64xf32>) outs(%_e15 : tensor<1x2x64x64xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x64x64xf32>
  %_e17 = tensor.empty() : tensor<1x2x64x1xf32>
  %_c18 = arith.constant 0.0 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<1x2x64x1xf32>) -> tensor<1x2x64x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<1x2x64x64xf32>) outs(%_f19 : tensor<1x2x64x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x64x1xf32>
  %_e21 = tensor.empty() : tensor<1x2x64x64xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<1x2x64x64xf32>, tensor<1x2x64x1xf32>) outs(%_e21 : tensor<1x2x64x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x64x64xf32>
  %_e23 = tensor.empty() : tensor<1x2x64x8xf32>
  %_c24 = arith.constant 0.0 : f32
  %_f25 = linalg.fill ins(%_c24 : f32) outs(%_e23 : tensor<1x2x64x8xf32>) -> tensor<1x2x64x8xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_v : tensor<1x2x64x64xf32>, tensor<1x2x64x8xf32>) outs(%_f25 : tensor<1x2x64x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x64x8xf32>
  return %_g26 : tensor<1x2x64x8xf32>
}

// -----

// ALiBi on f16 positions offset by 1000 (past 2048 an f16 holds even
// integers only).
// CHECK-LABEL: func.func @alibi_f16_positions_off1000_fwd
// CHECK: flash.attention
// CHECK: score_mod
// CHECK: arith.truncf {{.*}} : f32 to f16
// EXEC: alibi_f16_positions_off1000_fwd: raised=yes
func.func @alibi_f16_positions_off1000_fwd(%A_q: tensor<1x2x48x8xf32>, %A_k: tensor<1x2x48x8xf32>, %A_v: tensor<1x2x48x8xf32>) -> (tensor<1x2x48x8xf32>) {
  %_e1 = tensor.empty() : tensor<1x2x48x48xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<1x2x48x48xf32>) -> tensor<1x2x48x48xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<1x2x48x8xf32>, tensor<1x2x48x8xf32>) outs(%_f3 : tensor<1x2x48x48xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x48x48xf32>
  %_e5 = tensor.empty() : tensor<1x2x48x48xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<1x2x48x48xf32>) outs(%_e5 : tensor<1x2x48x48xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x48x48xf32>
  %_e7 = tensor.empty() : tensor<1x2x48x48xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<1x2x48x48xf32>) outs(%_e7 : tensor<1x2x48x48xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %o = arith.constant 1000 : i32
    %io = arith.addi %ii, %o : i32
    %jo = arith.addi %jj, %o : i32
    %fi = arith.sitofp %io : i32 to f16
    %fj = arith.sitofp %jo : i32 to f16
    %sl = arith.constant 0.3 : f16
    %pi = arith.mulf %fi, %sl : f16
    %pj = arith.mulf %fj, %sl : f16
    %d = arith.subf %pj, %pi : f16
    %df = arith.extf %d : f16 to f32
    %r = arith.addf %a0, %df : f32
    linalg.yield %r : f32
  } -> tensor<1x2x48x48xf32>
  %_e9 = tensor.empty() : tensor<1x2x48x48xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8 : tensor<1x2x48x48xf32>) outs(%_e9 : tensor<1x2x48x48xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %off = arith.constant 0 : i64
    %ip = arith.addi %ic, %off : i64
    %keep = arith.cmpi sle, %jc, %ip : i64
    %mn = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<1x2x48x48xf32>
  %_e11 = tensor.empty() : tensor<1x2x48x1xf32>
  %_c12 = arith.constant 0xFF800000 : f32
  %_f13 = linalg.fill ins(%_c12 : f32) outs(%_e11 : tensor<1x2x48x1xf32>) -> tensor<1x2x48x1xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g10 : tensor<1x2x48x48xf32>) outs(%_f13 : tensor<1x2x48x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x48x1xf32>
  %_e15 = tensor.empty() : tensor<1x2x48x48xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g10, %_g14 : tensor<1x2x48x48xf32>, tensor<1x2x48x1xf32>) outs(%_e15 : tensor<1x2x48x48xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x48x48xf32>
  %_e17 = tensor.empty() : tensor<1x2x48x48xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16 : tensor<1x2x48x48xf32>) outs(%_e17 : tensor<1x2x48x48xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x48x48xf32>
  %_e19 = tensor.empty() : tensor<1x2x48x1xf32>
  %_c20 = arith.constant 0.0 : f32
  %_f21 = linalg.fill ins(%_c20 : f32) outs(%_e19 : tensor<1x2x48x1xf32>) -> tensor<1x2x48x1xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g18 : tensor<1x2x48x48xf32>) outs(%_f21 : tensor<1x2x48x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x48x1xf32>
  %_e23 = tensor.empty() : tensor<1x2x48x48xf32>
  %_g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g18, %_g22 : tensor<1x2x48x48xf32>, tensor<1x2x48x1xf32>) outs(%_e23 : tensor<1x2x48x48xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x48x48xf32>
  %_e25 = tensor.empty() : tensor<1x2x48x8xf32>
  %_c26 = arith.constant 0.0 : f32
  %_f27 = linalg.fill ins(%_c26 : f32) outs(%_e25 : tensor<1x2x48x8xf32>) -> tensor<1x2x48x8xf32>
  %_g28 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g24, %A_v : tensor<1x2x48x48xf32>, tensor<1x2x48x8xf32>) outs(%_f27 : tensor<1x2x48x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x48x8xf32>
  return %_g28 : tensor<1x2x48x8xf32>
}

// -----

// The same window with bf16 positions.
// CHECK-LABEL: func.func @win_bf16_pos_scaled_fwd
// CHECK: flash.attention
// CHECK: mask_mod
// CHECK: arith.truncf {{.*}} : f32 to bf16
// EXEC: win_bf16_pos_scaled_fwd: raised=yes
func.func @win_bf16_pos_scaled_fwd(%A_q: tensor<2x2x64x8xf32>, %A_k: tensor<2x2x64x8xf32>, %A_v: tensor<2x2x64x8xf32>) -> (tensor<2x2x64x8xf32>) {
  %_e1 = tensor.empty() : tensor<2x2x64x64xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x2x64x64xf32>) -> tensor<2x2x64x64xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x2x64x8xf32>, tensor<2x2x64x8xf32>) outs(%_f3 : tensor<2x2x64x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x64x64xf32>
  %_e5 = tensor.empty() : tensor<2x2x64x64xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x2x64x64xf32>) outs(%_e5 : tensor<2x2x64x64xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x2x64x64xf32>
  %_e7 = tensor.empty() : tensor<2x2x64x64xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<2x2x64x64xf32>) outs(%_e7 : tensor<2x2x64x64xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to bf16
    %fj = arith.sitofp %jj : i32 to bf16
    %t = arith.constant 0.1 : bf16
    %pi = arith.mulf %fi, %t : bf16
    %pj = arith.mulf %fj, %t : bf16
    %d = arith.subf %pi, %pj : bf16
    %z0 = arith.constant 0.0 : bf16
    %w = arith.constant 0.5 : bf16
    %c1 = arith.cmpf oge, %d, %z0 : bf16
    %c2 = arith.cmpf olt, %d, %w : bf16
    %keep = arith.andi %c1, %c2 : i1
    %mn = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x2x64x64xf32>
  %_e9 = tensor.empty() : tensor<2x2x64x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<2x2x64x1xf32>) -> tensor<2x2x64x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x2x64x64xf32>) outs(%_f11 : tensor<2x2x64x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x2x64x1xf32>
  %_e13 = tensor.empty() : tensor<2x2x64x64xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g12 : tensor<2x2x64x64xf32>, tensor<2x2x64x1xf32>) outs(%_e13 : tensor<2x2x64x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x64x64xf32>
  %_e15 = tensor.empty() : tensor<2x2x64x64xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14 : tensor<2x2x64x64xf32>) outs(%_e15 : tensor<2x2x64x64xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x64x64xf32>
  %_e17 = tensor.empty() : tensor<2x2x64x1xf32>
  %_c18 = arith.constant 0.0 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<2x2x64x1xf32>) -> tensor<2x2x64x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<2x2x64x64xf32>) outs(%_f19 : tensor<2x2x64x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x2x64x1xf32>
  %_e21 = tensor.empty() : tensor<2x2x64x64xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<2x2x64x64xf32>, tensor<2x2x64x1xf32>) outs(%_e21 : tensor<2x2x64x64xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x64x64xf32>
  %_e23 = tensor.empty() : tensor<2x2x64x8xf32>
  %_c24 = arith.constant 0.0 : f32
  %_f25 = linalg.fill ins(%_c24 : f32) outs(%_e23 : tensor<2x2x64x8xf32>) -> tensor<2x2x64x8xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_v : tensor<2x2x64x64xf32>, tensor<2x2x64x8xf32>) outs(%_f25 : tensor<2x2x64x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x64x8xf32>
  return %_g26 : tensor<2x2x64x8xf32>
}

// -----

// A window whose bounds are affine.apply of the query position (d0 + 8,
// d0 + 3): the maps composed with the positions (an opaque value before,
// refused with a remark on the compare).
// CHECK-LABEL: func.func @win_affine_apply_fwd
// CHECK: flash.attention
// CHECK-NOT: affine.apply
// CHECK: return
// EXEC: win_affine_apply_fwd: raised=yes
func.func @win_affine_apply_fwd(%A_q: tensor<2x2x29x8xf32>, %A_k: tensor<2x2x37x8xf32>, %A_v: tensor<2x2x37x8xf32>) -> (tensor<2x2x29x8xf32>) {
  %_e1 = tensor.empty() : tensor<2x2x29x37xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x2x29x37xf32>) -> tensor<2x2x29x37xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x2x29x8xf32>, tensor<2x2x37x8xf32>) outs(%_f3 : tensor<2x2x29x37xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x37xf32>
  %_e5 = tensor.empty() : tensor<2x2x29x37xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x2x29x37xf32>) outs(%_e5 : tensor<2x2x29x37xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x37xf32>
  %_e7 = tensor.empty() : tensor<2x2x29x37xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<2x2x29x37xf32>) outs(%_e7 : tensor<2x2x29x37xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ip = affine.apply affine_map<(d0) -> (d0 + 8)>(%i)
    %lo = affine.apply affine_map<(d0) -> (d0 + 3)>(%i)
    %c1 = arith.cmpi ule, %j, %ip : index
    %c2 = arith.cmpi ugt, %j, %lo : index
    %keep = arith.andi %c1, %c2 : i1
    %mn = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x37xf32>
  %_e9 = tensor.empty() : tensor<2x2x29x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<2x2x29x1xf32>) -> tensor<2x2x29x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x2x29x37xf32>) outs(%_f11 : tensor<2x2x29x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x1xf32>
  %_e13 = tensor.empty() : tensor<2x2x29x37xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g12 : tensor<2x2x29x37xf32>, tensor<2x2x29x1xf32>) outs(%_e13 : tensor<2x2x29x37xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x37xf32>
  %_e15 = tensor.empty() : tensor<2x2x29x37xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14 : tensor<2x2x29x37xf32>) outs(%_e15 : tensor<2x2x29x37xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x37xf32>
  %_e17 = tensor.empty() : tensor<2x2x29x1xf32>
  %_c18 = arith.constant 0.0 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<2x2x29x1xf32>) -> tensor<2x2x29x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<2x2x29x37xf32>) outs(%_f19 : tensor<2x2x29x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x1xf32>
  %_e21 = tensor.empty() : tensor<2x2x29x37xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<2x2x29x37xf32>, tensor<2x2x29x1xf32>) outs(%_e21 : tensor<2x2x29x37xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x37xf32>
  %_e23 = tensor.empty() : tensor<2x2x29x8xf32>
  %_c24 = arith.constant 0.0 : f32
  %_f25 = linalg.fill ins(%_c24 : f32) outs(%_e23 : tensor<2x2x29x8xf32>) -> tensor<2x2x29x8xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_v : tensor<2x2x29x37xf32>, tensor<2x2x37x8xf32>) outs(%_f25 : tensor<2x2x29x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x8xf32>
  return %_g26 : tensor<2x2x29x8xf32>
}

// -----

// Query segment ids read from the key ids at (b, i + 1) (the queries are the
// last Nq of the keys) under P V written as collapse_shape / batch_matmul /
// expand_shape: a position plus a constant is the program's index, not a
// reshape's (the view was kept as a leaf, and the remark blamed the
// probabilities).
// CHECK-LABEL: func.func @dg_br_nq29_ninf_nocausal_fwd
// CHECK: flash.attention
// CHECK: mask_mod
// CHECK: tensor.extract
// CHECK: return
// EXEC: dg_br_nq29_ninf_nocausal_fwd: raised=yes
func.func @dg_br_nq29_ninf_nocausal_fwd(%A_q: tensor<2x2x29x16xf32>, %A_k: tensor<2x2x30x16xf32>, %A_v: tensor<2x2x30x16xf32>) -> (tensor<2x2x29x16xf32>) {
  %_seg1 = arith.constant dense<[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1]]> : tensor<2x30xi32>
  %_cl2 = tensor.collapse_shape %A_q [[0, 1], [2], [3]] : tensor<2x2x29x16xf32> into tensor<4x29x16xf32>
  %_cl3 = tensor.collapse_shape %A_k [[0, 1], [2], [3]] : tensor<2x2x30x16xf32> into tensor<4x30x16xf32>
  %_e4 = tensor.empty() : tensor<4x29x30xf32>
  %_c5 = arith.constant 0.0 : f32
  %_f6 = linalg.fill ins(%_c5 : f32) outs(%_e4 : tensor<4x29x30xf32>) -> tensor<4x29x30xf32>
  %_mm7 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%_cl2, %_cl3 : tensor<4x29x16xf32>, tensor<4x30x16xf32>) outs(%_f6 : tensor<4x29x30xf32>) -> tensor<4x29x30xf32>
  %_ex8 = tensor.expand_shape %_mm7 [[0, 1], [2], [3]] output_shape [2, 2, 29, 30] : tensor<4x29x30xf32> into tensor<2x2x29x30xf32>
  %_e9 = tensor.empty() : tensor<2x2x29x30xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_ex8 : tensor<2x2x29x30xf32>) outs(%_e9 : tensor<2x2x29x30xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x30xf32>
  %_e11 = tensor.empty() : tensor<2x2x29x30xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, i + 1)>, affine_map<(b, h, i, j) -> (b, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g10, %_seg1, %_seg1 : tensor<2x2x29x30xf32>, tensor<2x30xi32>, tensor<2x30xi32>) outs(%_e11 : tensor<2x2x29x30xf32>) {
  ^bb0(%a0: f32, %a1: i32, %a2: i32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %keep0 = arith.cmpi eq, %a1, %a2 : i32
    %mn = arith.constant 0xFF800000 : f32
    %r = arith.select %keep0, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x30xf32>
  %_e13 = tensor.empty() : tensor<2x2x29x1xf32>
  %_c14 = arith.constant 0xFF800000 : f32
  %_f15 = linalg.fill ins(%_c14 : f32) outs(%_e13 : tensor<2x2x29x1xf32>) -> tensor<2x2x29x1xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g12 : tensor<2x2x29x30xf32>) outs(%_f15 : tensor<2x2x29x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x1xf32>
  %_e17 = tensor.empty() : tensor<2x2x29x30xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g12, %_g16 : tensor<2x2x29x30xf32>, tensor<2x2x29x1xf32>) outs(%_e17 : tensor<2x2x29x30xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x30xf32>
  %_e19 = tensor.empty() : tensor<2x2x29x30xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g18 : tensor<2x2x29x30xf32>) outs(%_e19 : tensor<2x2x29x30xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x30xf32>
  %_e21 = tensor.empty() : tensor<2x2x29x1xf32>
  %_c22 = arith.constant 0.0 : f32
  %_f23 = linalg.fill ins(%_c22 : f32) outs(%_e21 : tensor<2x2x29x1xf32>) -> tensor<2x2x29x1xf32>
  %_g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g20 : tensor<2x2x29x30xf32>) outs(%_f23 : tensor<2x2x29x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x1xf32>
  %_e25 = tensor.empty() : tensor<2x2x29x30xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g20, %_g24 : tensor<2x2x29x30xf32>, tensor<2x2x29x1xf32>) outs(%_e25 : tensor<2x2x29x30xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x29x30xf32>
  %_cl27 = tensor.collapse_shape %_g26 [[0, 1], [2], [3]] : tensor<2x2x29x30xf32> into tensor<4x29x30xf32>
  %_cl28 = tensor.collapse_shape %A_v [[0, 1], [2], [3]] : tensor<2x2x30x16xf32> into tensor<4x30x16xf32>
  %_e29 = tensor.empty() : tensor<4x29x16xf32>
  %_c30 = arith.constant 0.0 : f32
  %_f31 = linalg.fill ins(%_c30 : f32) outs(%_e29 : tensor<4x29x16xf32>) -> tensor<4x29x16xf32>
  %_mm32 = linalg.batch_matmul ins(%_cl27, %_cl28 : tensor<4x29x30xf32>, tensor<4x30x16xf32>) outs(%_f31 : tensor<4x29x16xf32>) -> tensor<4x29x16xf32>
  %_ex33 = tensor.expand_shape %_mm32 [[0, 1], [2], [3]] output_shape [2, 2, 29, 16] : tensor<4x29x16xf32> into tensor<2x2x29x16xf32>
  return %_ex33 : tensor<2x2x29x16xf32>
}

// -----

// A causal window stored as a uint8 mask (extui of the predicate) and read
// with (m != 0) under a -1e9 fill: a compare of select(p, 1, 0) with a
// constant is p, so every row provably sees its diagonal (it was an opaque
// integer compare: "may leave rows without any key").
// CHECK-LABEL: func.func @dg_int_i8_m1e9_fwd
// CHECK: flash.attention
// CHECK-NOT: tensor<26x26xi8>
// CHECK: return
// EXEC: dg_int_i8_m1e9_fwd: raised=yes
func.func @dg_int_i8_m1e9_fwd(%A_q: tensor<2x2x26x9xf32>, %A_k: tensor<2x2x26x9xf32>, %A_v: tensor<2x2x26x9xf32>) -> (tensor<2x2x26x9xf32>) {
  %_cl1 = tensor.collapse_shape %A_q [[0, 1], [2], [3]] : tensor<2x2x26x9xf32> into tensor<4x26x9xf32>
  %_cl2 = tensor.collapse_shape %A_k [[0, 1], [2], [3]] : tensor<2x2x26x9xf32> into tensor<4x26x9xf32>
  %_e3 = tensor.empty() : tensor<4x26x26xf32>
  %_c4 = arith.constant 0.0 : f32
  %_f5 = linalg.fill ins(%_c4 : f32) outs(%_e3 : tensor<4x26x26xf32>) -> tensor<4x26x26xf32>
  %_mm6 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%_cl1, %_cl2 : tensor<4x26x9xf32>, tensor<4x26x9xf32>) outs(%_f5 : tensor<4x26x26xf32>) -> tensor<4x26x26xf32>
  %_ex7 = tensor.expand_shape %_mm6 [[0, 1], [2], [3]] output_shape [2, 2, 26, 26] : tensor<4x26x26xf32> into tensor<2x2x26x26xf32>
  %_e8 = tensor.empty() : tensor<2x2x26x26xf32>
  %_g9 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_ex7 : tensor<2x2x26x26xf32>) outs(%_e8 : tensor<2x2x26x26xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.3333333333333333 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x2x26x26xf32>
  %_e10 = tensor.empty() : tensor<26x26xi8>
  %_g11 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%_e10 : tensor<26x26xi8>) {
  ^bb0(%out: i8):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %d = arith.subi %ic, %jc : i64
    %w = arith.constant 5 : i64
    %z = arith.constant 0 : i64
    %c1 = arith.cmpi sge, %d, %z : i64
    %c2 = arith.cmpi slt, %d, %w : i64
    %c = arith.andi %c1, %c2 : i1
    %r = arith.extui %c : i1 to i8
    linalg.yield %r : i8
  } -> tensor<26x26xi8>
  %_e12 = tensor.empty() : tensor<2x2x26x26xf32>
  %_g13 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g9, %_g11 : tensor<2x2x26x26xf32>, tensor<26x26xi8>) outs(%_e12 : tensor<2x2x26x26xf32>) {
  ^bb0(%a0: f32, %a1: i8, %out: f32):
    %z = arith.constant 0 : i8
    %k = arith.cmpi ne, %a1, %z : i8
    %mn = arith.constant -1.0e9 : f32
    %r = arith.select %k, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x2x26x26xf32>
  %_e14 = tensor.empty() : tensor<2x2x26x1xf32>
  %_c15 = arith.constant 0xFF800000 : f32
  %_f16 = linalg.fill ins(%_c15 : f32) outs(%_e14 : tensor<2x2x26x1xf32>) -> tensor<2x2x26x1xf32>
  %_g17 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g13 : tensor<2x2x26x26xf32>) outs(%_f16 : tensor<2x2x26x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x2x26x1xf32>
  %_e18 = tensor.empty() : tensor<2x2x26x26xf32>
  %_g19 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g13, %_g17 : tensor<2x2x26x26xf32>, tensor<2x2x26x1xf32>) outs(%_e18 : tensor<2x2x26x26xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x26x26xf32>
  %_e20 = tensor.empty() : tensor<2x2x26x26xf32>
  %_g21 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g19 : tensor<2x2x26x26xf32>) outs(%_e20 : tensor<2x2x26x26xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x26x26xf32>
  %_e22 = tensor.empty() : tensor<2x2x26x1xf32>
  %_c23 = arith.constant 0.0 : f32
  %_f24 = linalg.fill ins(%_c23 : f32) outs(%_e22 : tensor<2x2x26x1xf32>) -> tensor<2x2x26x1xf32>
  %_g25 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g21 : tensor<2x2x26x26xf32>) outs(%_f24 : tensor<2x2x26x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x2x26x1xf32>
  %_e26 = tensor.empty() : tensor<2x2x26x26xf32>
  %_g27 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g21, %_g25 : tensor<2x2x26x26xf32>, tensor<2x2x26x1xf32>) outs(%_e26 : tensor<2x2x26x26xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x2x26x26xf32>
  %_cl28 = tensor.collapse_shape %_g27 [[0, 1], [2], [3]] : tensor<2x2x26x26xf32> into tensor<4x26x26xf32>
  %_cl29 = tensor.collapse_shape %A_v [[0, 1], [2], [3]] : tensor<2x2x26x9xf32> into tensor<4x26x9xf32>
  %_e30 = tensor.empty() : tensor<4x26x9xf32>
  %_c31 = arith.constant 0.0 : f32
  %_f32 = linalg.fill ins(%_c31 : f32) outs(%_e30 : tensor<4x26x9xf32>) -> tensor<4x26x9xf32>
  %_mm33 = linalg.batch_matmul ins(%_cl28, %_cl29 : tensor<4x26x26xf32>, tensor<4x26x9xf32>) outs(%_f32 : tensor<4x26x9xf32>) -> tensor<4x26x9xf32>
  %_ex34 = tensor.expand_shape %_mm33 [[0, 1], [2], [3]] output_shape [2, 2, 26, 9] : tensor<4x26x9xf32> into tensor<2x2x26x9xf32>
  return %_ex34 : tensor<2x2x26x9xf32>
}
