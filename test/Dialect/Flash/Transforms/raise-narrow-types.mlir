// Positions in narrow types: the raise's integers are unbounded and its
// position floats exact only where the program's types hold every value
// (found by an adversarial tester, session 38). A position in i8 wraps past
// 127, a product in i16 overflows, an extui of a negative i32 is 2^32 - n, a
// position in bf16 rounds past 256: the modifier regions compute those
// values as the program does (trunci / extsi / extui / truncf), never the
// unbounded ones; where the values fit (f16 positions below 2048) nothing
// changes. Also: a size a modifier uses is captured as a scalar (a 0-d
// tensor), not as the dynamic tensor it is the size of (the GPU path needs
// static captured operands). (A piecewise function of the scores is
// raise-piecewise.mlir's.)
// RUN: flash-opt %s --split-input-file --flash-raise-attention | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK --allow-empty
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// RUN: flash-opt %s --split-input-file --flash-raise-attention --flash-to-nvvm="format=isa" -o /dev/null
// EXEC-NOT: FAIL
// REMARK-NOT: remark

// causal compare done in i8: positions wrap above 127 (N=160), so the mask is NOT plain causal
// CHECK-LABEL: func.func @causal_i8_wrap_2d
// CHECK: flash.attention
// CHECK-NOT: causal
// CHECK: mask_mod
// CHECK: arith.trunci {{.*}} to i8
// CHECK: arith.extsi
// EXEC: causal_i8_wrap_2d: raised=yes
func.func @causal_i8_wrap_2d(%q: tensor<160x8xf32>, %k: tensor<160x8xf32>, %v: tensor<160x8xf32>) -> tensor<160x8xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<160x160xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<160x160xf32>) -> tensor<160x160xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %k : tensor<160x8xf32>, tensor<160x8xf32>) outs(%z0 : tensor<160x160xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<160x160xf32>
  %st0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<160x160xf32>) outs(%e0 : tensor<160x160xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i8 = arith.index_cast %i : index to i8
    %j8 = arith.index_cast %j : index to i8
    %keep = arith.cmpi sle, %j8, %i8 : i8
    %y = arith.select %keep, %x, %lowest : f32
    linalg.yield %y : f32
  } -> tensor<160x160xf32>
  %e1 = tensor.empty() : tensor<160x160xf32>
  %p = linalg.softmax dimension(1) ins(%st0 : tensor<160x160xf32>) outs(%e1 : tensor<160x160xf32>) -> tensor<160x160xf32>
  %e3 = tensor.empty() : tensor<160x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<160x8xf32>) -> tensor<160x8xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %v : tensor<160x160xf32>, tensor<160x8xf32>) outs(%z3 : tensor<160x8xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<160x8xf32>
  return %o32 : tensor<160x8xf32>
}

// -----

// causal on the difference truncated to i8: trunci(j - i) <= 0 (wraps for |j-i| > 127, N=160)
// CHECK-LABEL: func.func @diff_trunci_i8_wrap
// CHECK: flash.attention
// CHECK: mask_mod
// CHECK: arith.trunci {{.*}} to i8
// EXEC: diff_trunci_i8_wrap: raised=yes
func.func @diff_trunci_i8_wrap(%q: tensor<160x8xf32>, %k: tensor<160x8xf32>, %v: tensor<160x8xf32>) -> tensor<160x8xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<160x160xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<160x160xf32>) -> tensor<160x160xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %k : tensor<160x8xf32>, tensor<160x8xf32>) outs(%z0 : tensor<160x160xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<160x160xf32>
  %st0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<160x160xf32>) outs(%e0 : tensor<160x160xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i6 = arith.index_cast %i : index to i64
    %j6 = arith.index_cast %j : index to i64
    %d = arith.subi %j6, %i6 : i64
    %d8 = arith.trunci %d : i64 to i8
    %z = arith.constant 0 : i8
    %keep = arith.cmpi sle, %d8, %z : i8
    %y = arith.select %keep, %x, %lowest : f32
    linalg.yield %y : f32
  } -> tensor<160x160xf32>
  %e1 = tensor.empty() : tensor<160x160xf32>
  %p = linalg.softmax dimension(1) ins(%st0 : tensor<160x160xf32>) outs(%e1 : tensor<160x160xf32>) -> tensor<160x160xf32>
  %e3 = tensor.empty() : tensor<160x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<160x8xf32>) -> tensor<160x8xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %v : tensor<160x160xf32>, tensor<160x8xf32>) outs(%z3 : tensor<160x8xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<160x8xf32>
  return %o32 : tensor<160x8xf32>
}

// -----

// ALiBi distance computed in i8 (wraps for N=160): bias = 0.01 * sitofp(j8 - i8), no mask
// CHECK-LABEL: func.func @alibi_i8_distance_wrap
// CHECK: flash.attention
// CHECK: score_mod
// CHECK: arith.trunci {{.*}} to i8
// CHECK: arith.subi
// CHECK: arith.trunci {{.*}} to i8
// EXEC: alibi_i8_distance_wrap: raised=yes
func.func @alibi_i8_distance_wrap(%q: tensor<160x8xf32>, %k: tensor<160x8xf32>, %v: tensor<160x8xf32>) -> tensor<160x8xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<160x160xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<160x160xf32>) -> tensor<160x160xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %k : tensor<160x8xf32>, tensor<160x8xf32>) outs(%z0 : tensor<160x160xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<160x160xf32>
  %st0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<160x160xf32>) outs(%e0 : tensor<160x160xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i8 = arith.index_cast %i : index to i8
    %j8 = arith.index_cast %j : index to i8
    %d = arith.subi %j8, %i8 : i8
    %df = arith.sitofp %d : i8 to f32
    %sl = arith.constant 0.01 : f32
    %bias = arith.mulf %df, %sl : f32
    %y = arith.addf %x, %bias : f32
    linalg.yield %y : f32
  } -> tensor<160x160xf32>
  %e1 = tensor.empty() : tensor<160x160xf32>
  %p = linalg.softmax dimension(1) ins(%st0 : tensor<160x160xf32>) outs(%e1 : tensor<160x160xf32>) -> tensor<160x160xf32>
  %e3 = tensor.empty() : tensor<160x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<160x8xf32>) -> tensor<160x8xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %v : tensor<160x160xf32>, tensor<160x8xf32>) outs(%z3 : tensor<160x8xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<160x8xf32>
  return %o32 : tensor<160x8xf32>
}

// -----

// d = i - j in i32, extui to i64 (negatives become 2^32 - n), keep iff d64 < 6 signed: a causal window of 6
// CHECK-LABEL: func.func @extui_i32_negative_diff_window
// CHECK: flash.attention
// CHECK: mask_mod
// CHECK: arith.trunci {{.*}} to i32
// CHECK: arith.extui
// EXEC: extui_i32_negative_diff_window: raised=yes
func.func @extui_i32_negative_diff_window(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %st0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i3 = arith.index_cast %i : index to i32
    %j3 = arith.index_cast %j : index to i32
    %d = arith.subi %i3, %j3 : i32
    %d6 = arith.extui %d : i32 to i64
    %c6 = arith.constant 6 : i64
    %keep = arith.cmpi slt, %d6, %c6 : i64
    %y = arith.select %keep, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%st0 : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x16xf32>
  return %o32 : tensor<37x16xf32>
}

// -----

// document mask on segment ids scaled by 256 in i32 then trunci to i8 before comparing (all ids truncate to 0, so every key is visible)
// CHECK-LABEL: func.func @document_ids_trunci_i8
// CHECK: flash.attention
// CHECK: mask_mod
// CHECK: arith.trunci {{.*}} to i8
// EXEC: document_ids_trunci_i8: raised=yes
func.func @document_ids_trunci_i8(%q: tensor<2x37x16xf32>, %k: tensor<2x37x16xf32>, %v: tensor<2x37x16xf32>, %seg: tensor<2x37xi32>) -> tensor<2x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<2x37x37xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x37x37xf32>) -> tensor<2x37x37xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x37x16xf32>, tensor<2x37x16xf32>) outs(%z0 : tensor<2x37x37xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x37x37xf32>
  %st0 = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %seg, %seg : tensor<2x37x37xf32>, tensor<2x37xi32>, tensor<2x37xi32>) outs(%e0 : tensor<2x37x37xf32>) {
  ^bb0(%x: f32, %in0: i32, %in1: i32, %o: f32):
    %c256 = arith.constant 256 : i32
    %a = arith.muli %in0, %c256 : i32
    %c = arith.muli %in1, %c256 : i32
    %a8 = arith.trunci %a : i32 to i8
    %c8 = arith.trunci %c : i32 to i8
    %keep = arith.cmpi eq, %a8, %c8 : i8
    %y = arith.select %keep, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<2x37x37xf32>
  %e1 = tensor.empty() : tensor<2x37x37xf32>
  %p = linalg.softmax dimension(2) ins(%st0 : tensor<2x37x37xf32>) outs(%e1 : tensor<2x37x37xf32>) -> tensor<2x37x37xf32>
  %e3 = tensor.empty() : tensor<2x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x37x16xf32>) -> tensor<2x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(b, i, e, j) -> (b, i, j)>, affine_map<(b, i, e, j) -> (b, j, e)>, affine_map<(b, i, e, j) -> (b, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x37x37xf32>, tensor<2x37x16xf32>) outs(%z3 : tensor<2x37x16xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x37x16xf32>
  return %o32 : tensor<2x37x16xf32>
}

// -----

// keep iff (i - j) * 1024 in i16 is in [0, 8192): the product wraps for |i-j| >= 32, N=45
// CHECK-LABEL: func.func @window_i16_mul_overflow
// CHECK: flash.attention
// CHECK: mask_mod
// CHECK: arith.trunci {{.*}} to i16
// EXEC: window_i16_mul_overflow: raised=yes
func.func @window_i16_mul_overflow(%q: tensor<45x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<45x45xf32>) -> tensor<45x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %k : tensor<45x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<45x45xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<45x45xf32>
  %st0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<45x45xf32>) outs(%e0 : tensor<45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %d = arith.subi %i, %j : index
    %d16 = arith.index_cast %d : index to i16
    %c = arith.constant 1024 : i16
    %m = arith.muli %d16, %c : i16
    %z = arith.constant 0 : i16
    %lim = arith.constant 8192 : i16
    %a = arith.cmpi sge, %m, %z : i16
    %bb = arith.cmpi slt, %m, %lim : i16
    %keep = arith.andi %a, %bb : i1
    %y = arith.select %keep, %x, %lowest : f32
    linalg.yield %y : f32
  } -> tensor<45x45xf32>
  %e1 = tensor.empty() : tensor<45x45xf32>
  %p = linalg.softmax dimension(1) ins(%st0 : tensor<45x45xf32>) outs(%e1 : tensor<45x45xf32>) -> tensor<45x45xf32>
  %e3 = tensor.empty() : tensor<45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<45x16xf32>) -> tensor<45x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %v : tensor<45x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<45x16xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<45x16xf32>
  return %o32 : tensor<45x16xf32>
}

// -----

// causal via f16 positions (exact for N=45): control for the bf16 case
// CHECK-LABEL: func.func @causal_f16_positions_small
// CHECK: flash.attention
// CHECK-NOT: truncf
// CHECK: flash.yield
// EXEC: causal_f16_positions_small: raised=yes
func.func @causal_f16_positions_small(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %st0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i3 = arith.index_cast %i : index to i32
    %j3 = arith.index_cast %j : index to i32
    %fi = arith.sitofp %i3 : i32 to f16
    %fj = arith.sitofp %j3 : i32 to f16
    %keep = arith.cmpf ole, %fj, %fi : f16
    %y = arith.select %keep, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%st0 : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x16xf32>
  return %o32 : tensor<37x16xf32>
}

// -----

// causal via bf16 positions (sitofp i32 -> bf16, exact only up to 256), N=300: rounding makes some j > i look equal to i
// CHECK-LABEL: func.func @causal_bf16_positions
// CHECK: flash.attention
// CHECK: mask_mod
// CHECK: arith.truncf {{.*}} to bf16
// EXEC: causal_bf16_positions: raised=yes
func.func @causal_bf16_positions(%q: tensor<300x8xf32>, %k: tensor<300x8xf32>, %v: tensor<300x8xf32>) -> tensor<300x8xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<300x300xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<300x300xf32>) -> tensor<300x300xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %k : tensor<300x8xf32>, tensor<300x8xf32>) outs(%z0 : tensor<300x300xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<300x300xf32>
  %st0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<300x300xf32>) outs(%e0 : tensor<300x300xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i3 = arith.index_cast %i : index to i32
    %j3 = arith.index_cast %j : index to i32
    %fi = arith.sitofp %i3 : i32 to bf16
    %fj = arith.sitofp %j3 : i32 to bf16
    %keep = arith.cmpf ole, %fj, %fi : bf16
    %y = arith.select %keep, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<300x300xf32>
  %e1 = tensor.empty() : tensor<300x300xf32>
  %p = linalg.softmax dimension(1) ins(%st0 : tensor<300x300xf32>) outs(%e1 : tensor<300x300xf32>) -> tensor<300x300xf32>
  %e3 = tensor.empty() : tensor<300x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<300x8xf32>) -> tensor<300x8xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %v : tensor<300x300xf32>, tensor<300x8xf32>) outs(%z3 : tensor<300x8xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<300x8xf32>
  return %o32 : tensor<300x8xf32>
}

// -----

// ALiBi with the distance converted to bf16 (sitofp i32 -> bf16, rounds above 256), N=300, bias = 0.01 * extf(d_bf16)
// CHECK-LABEL: func.func @alibi_bf16_distance
// CHECK: flash.attention
// CHECK: score_mod
// CHECK: arith.truncf {{.*}} to bf16
// EXEC: alibi_bf16_distance: raised=yes
func.func @alibi_bf16_distance(%q: tensor<300x8xf32>, %k: tensor<300x8xf32>, %v: tensor<300x8xf32>) -> tensor<300x8xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<300x300xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<300x300xf32>) -> tensor<300x300xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %k : tensor<300x8xf32>, tensor<300x8xf32>) outs(%z0 : tensor<300x300xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<300x300xf32>
  %st0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<300x300xf32>) outs(%e0 : tensor<300x300xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i3 = arith.index_cast %i : index to i32
    %j3 = arith.index_cast %j : index to i32
    %d = arith.subi %j3, %i3 : i32
    %db = arith.sitofp %d : i32 to bf16
    %df = arith.extf %db : bf16 to f32
    %sl = arith.constant 0.01 : f32
    %bias = arith.mulf %df, %sl : f32
    %y = arith.addf %x, %bias : f32
    linalg.yield %y : f32
  } -> tensor<300x300xf32>
  %e1 = tensor.empty() : tensor<300x300xf32>
  %p = linalg.softmax dimension(1) ins(%st0 : tensor<300x300xf32>) outs(%e1 : tensor<300x300xf32>) -> tensor<300x300xf32>
  %e3 = tensor.empty() : tensor<300x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<300x8xf32>) -> tensor<300x8xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %v : tensor<300x300xf32>, tensor<300x8xf32>) outs(%z3 : tensor<300x8xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<300x8xf32>
  return %o32 : tensor<300x8xf32>
}

// -----

// dynamic Nq/Nk; causal via sitofp(i64) positions and cmpf oge with offset computed from tensor.dim (bottom-right)
// SIZES: 29, 41
// CHECK-LABEL: func.func @dyn_causal_cmpf_sitofp_i64
// CHECK: flash.attention {{.*}} captures({{.*}} : tensor<index>, tensor<index>)
// CHECK: mask_mod
// CHECK: tensor.extract %{{.*}}[] : tensor<index>
// EXEC: dyn_causal_cmpf_sitofp_i64: raised=yes
func.func @dyn_causal_cmpf_sitofp_i64(%q: tensor<?x16xf32>, %k: tensor<?x16xf32>, %v: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %cq = arith.constant 0 : index
  %nq = tensor.dim %q, %cq : tensor<?x16xf32>
  %ck = arith.constant 0 : index
  %nk = tensor.dim %k, %ck : tensor<?x16xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %k : tensor<?x16xf32>, tensor<?x16xf32>) outs(%z0 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  %st0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<?x?xf32>) outs(%e0 : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %off = arith.subi %nk, %nq : index
    %ii = arith.addi %i, %off : index
    %i6 = arith.index_cast %ii : index to i64
    %j6 = arith.index_cast %j : index to i64
    %fi = arith.sitofp %i6 : i64 to f32
    %fj = arith.sitofp %j6 : i64 to f32
    %keep = arith.cmpf oge, %fi, %fj : f32
    %y = arith.select %keep, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  %e1 = tensor.empty(%nq, %nk) : tensor<?x?xf32>
  %p = linalg.softmax dimension(1) ins(%st0 : tensor<?x?xf32>) outs(%e1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<?x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<?x16xf32>) -> tensor<?x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %v : tensor<?x?xf32>, tensor<?x16xf32>) outs(%z3 : tensor<?x16xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<?x16xf32>
  return %o32 : tensor<?x16xf32>
}

// -----

// d = j - i in i32, index_castui to index (zero-extends: negative d becomes 2^32 - n > 0), keep iff d_idx > 0 signed, i.e. every key except the diagonal
// CHECK-LABEL: func.func @index_castui_negative_diff
// CHECK: flash.attention
// CHECK: mask_mod
// CHECK: arith.extui
// EXEC: index_castui_negative_diff: raised=yes
func.func @index_castui_negative_diff(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %st0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<37x45xf32>) outs(%e0 : tensor<37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i3 = arith.index_cast %i : index to i32
    %j3 = arith.index_cast %j : index to i32
    %d = arith.subi %j3, %i3 : i32
    %di = arith.index_castui %d : i32 to index
    %c0 = arith.constant 0 : index
    %keep = arith.cmpi sgt, %di, %c0 : index
    %y = arith.select %keep, %x, %lowest : f32
    linalg.yield %y : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%st0 : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(i, e, j) -> (i, j)>, affine_map<(i, e, j) -> (j, e)>, affine_map<(i, e, j) -> (i, e)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) {
  ^bb0(%a: f32, %bq: f32, %c: f32):
    %m = arith.mulf %a, %bq : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x16xf32>
  return %o32 : tensor<37x16xf32>
}

// -----

// ALiBi's distance i - j (index) read unsigned by uitofp under a causal
// mask: negative where masked, so not provably the same value; rebuilt as
// uitofp of the 64-bit value, as written.
// CHECK-LABEL: func.func @fwd_alibi_uitofp_causal
// CHECK: flash.attention
// CHECK: score_mod
// CHECK: arith.uitofp
// EXEC: fwd_alibi_uitofp_causal: raised=yes
func.func @fwd_alibi_uitofp_causal(%q: tensor<2x3x19x8xf32>, %k: tensor<2x3x19x8xf32>, %v: tensor<2x3x19x8xf32>, %sl: tensor<3xf32>) -> (tensor<2x3x19x8xf32>) {
  %e1 = tensor.empty() : tensor<2x3x19x19xf32>
  %cst2 = arith.constant 0.0 : f32
  %z3 = linalg.fill ins(%cst2 : f32) outs(%e1 : tensor<2x3x19x19xf32>) -> tensor<2x3x19x19xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x3x19x8xf32>, tensor<2x3x19x8xf32>) outs(%z3 : tensor<2x3x19x19xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x3x19x19xf32>
  %e5 = tensor.empty() : tensor<2x3x19x19xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (h)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4, %sl : tensor<2x3x19x19xf32>, tensor<3xf32>) outs(%e5 : tensor<2x3x19x19xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %b_ = linalg.index 0 : index
      %h_ = linalg.index 1 : index
      %i_ = linalg.index 2 : index
      %j_ = linalg.index 3 : index
      %sc_ = arith.constant 0.35355339 : f32
      %s_ = arith.mulf %a0, %sc_ : f32
      %ii = arith.index_cast %i_ : index to i64
      %jj = arith.index_cast %j_ : index to i64
      %d = arith.subi %ii, %jj : i64
      %df = arith.uitofp %d : i64 to f32
      %bias = arith.mulf %a1, %df : f32
      %y1 = arith.subf %s_, %bias : f32
      %z = arith.constant 0 : i64
      %keep = arith.cmpi sge, %d, %z : i64
      %nf_ = arith.constant 0xFF800000 : f32
      %y_ = arith.select %keep, %y1, %nf_ : f32
      linalg.yield %y_ : f32
    } -> tensor<2x3x19x19xf32>
  %e7 = tensor.empty() : tensor<2x3x19x19xf32>
  %p8 = linalg.softmax dimension(3) ins(%g6 : tensor<2x3x19x19xf32>) outs(%e7 : tensor<2x3x19x19xf32>) -> tensor<2x3x19x19xf32>
  %e9 = tensor.empty() : tensor<2x3x19x8xf32>
  %z10 = linalg.fill ins(%cst2 : f32) outs(%e9 : tensor<2x3x19x8xf32>) -> tensor<2x3x19x8xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %v : tensor<2x3x19x19xf32>, tensor<2x3x19x8xf32>) outs(%z10 : tensor<2x3x19x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x3x19x8xf32>
  return %g11 : tensor<2x3x19x8xf32>
}

// -----

// A dilated mask (j - i) remsi 3 == 0 with finfo.min: the remainder of a
// negative difference is not affine, so the check that every row sees a
// key evaluates it at every position (the diagonal always passes).
// CHECK-LABEL: func.func @fwd_remsi_dilated
// CHECK: flash.attention
// CHECK: mask_mod
// EXEC: fwd_remsi_dilated: raised=yes
func.func @fwd_remsi_dilated(%q: tensor<1x2x17x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>) -> (tensor<1x2x17x8xf32>) {
  %e1 = tensor.empty() : tensor<1x2x17x17xf32>
  %cst2 = arith.constant 0.0 : f32
  %z3 = linalg.fill ins(%cst2 : f32) outs(%e1 : tensor<1x2x17x17xf32>) -> tensor<1x2x17x17xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>) outs(%z3 : tensor<1x2x17x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x17xf32>
  %e5 = tensor.empty() : tensor<1x2x17x17xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x17x17xf32>) outs(%e5 : tensor<1x2x17x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %b_ = linalg.index 0 : index
      %h_ = linalg.index 1 : index
      %i_ = linalg.index 2 : index
      %j_ = linalg.index 3 : index
      %sc_ = arith.constant 0.35355339 : f32
      %s_ = arith.mulf %a0, %sc_ : f32
      %ii = arith.index_cast %i_ : index to i32
      %jj = arith.index_cast %j_ : index to i32
      %d = arith.subi %jj, %ii : i32
      %c3 = arith.constant 3 : i32
      %r = arith.remsi %d, %c3 : i32
      %z = arith.constant 0 : i32
      %cc = arith.cmpi eq, %r, %z : i32
      %f = arith.constant -1.0e+09 : f32
      %y_ = arith.select %cc, %s_, %f : f32
      linalg.yield %y_ : f32
    } -> tensor<1x2x17x17xf32>
  %e7 = tensor.empty() : tensor<1x2x17x17xf32>
  %p8 = linalg.softmax dimension(3) ins(%g6 : tensor<1x2x17x17xf32>) outs(%e7 : tensor<1x2x17x17xf32>) -> tensor<1x2x17x17xf32>
  %e9 = tensor.empty() : tensor<1x2x17x8xf32>
  %z10 = linalg.fill ins(%cst2 : f32) outs(%e9 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %v : tensor<1x2x17x17xf32>, tensor<1x2x17x8xf32>) outs(%z10 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  return %g11 : tensor<1x2x17x8xf32>
}
