// Spellings a second independent tester wrote (session 41), each checked
// against the unraised program on the CPU: the guards a safe softmax puts
// on rows without keys, QK-norm before the scores, near misses whose
// numerator is e times another exponential (raised before as plain
// attention: a wrong answer), other spellings of exp and of the products
// (fma bodies, powf(10, s), expm1 + 1, computed Q, K and V whose factors
// the normal form spreads), a piecewise score function a constant apart,
// and refusals that were silent (attention sinks, one key, a zero scale,
// a residual as P*V's init in a collapsed batch layout).
// RUN: flash-opt %s --split-input-file --flash-raise-attention | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-raise-attention=report=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// torch's _safe_softmax (SDPA's math path): where(all(s == -inf), 0,
// softmax(s)). The all-reduction is max(s) == -inf, and a probability's
// guard !(m == -inf) merged into the mask's select goes (a row it holds for
// has no key, which flash.attention gives 0).
// CHECK-LABEL: func.func @torch_safe_softmax_causal
// CHECK: flash.attention
// CHECK-NOT: linalg.generic
// CHECK-NOT: tosa.
// CHECK: return
// EXEC: torch_safe_softmax_causal: raised=yes
func.func @torch_safe_softmax_causal(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_e7 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %off = arith.constant 8 : i64
    %ip = arith.addi %ic, %off : i64
    %keep = arith.cmpi sle, %jc, %ip : i64
    %mn = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e9 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x4x37x45xf32>) outs(%_f11 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g12 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e13 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e15 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14 : tensor<2x4x37x45xf32>) outs(%_e15 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c18 = arith.constant 0.0 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<2x4x37x45xf32>) outs(%_f19 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e21 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e21 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e23 = tensor.empty() : tensor<2x4x37x1xi1>
  %_c24 = arith.constant 1 : i1
  %_f25 = linalg.fill ins(%_c24 : i1) outs(%_e23 : tensor<2x4x37x1xi1>) -> tensor<2x4x37x1xi1>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x4x37x45xf32>) outs(%_f25 : tensor<2x4x37x1xi1>) {
  ^bb0(%a0: f32, %out: i1):
    %ni = arith.constant 0xFF800000 : f32
    %c = arith.cmpf oeq, %a0, %ni : f32
    %r = arith.andi %c, %out : i1
    linalg.yield %r : i1
  } -> tensor<2x4x37x1xi1>
  %_e27 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g28 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g22, %_g26 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xi1>) outs(%_e27 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: i1, %out: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.select %a1, %z, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e29 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c30 = arith.constant 0.0 : f32
  %_f31 = linalg.fill ins(%_c30 : f32) outs(%_e29 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g28, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f31 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g32 : tensor<2x4x37x16xf32>
}

// -----

// The same with a causal offset of -3: the first three rows see no key,
// the guard gives them 0, as flash.attention does.
// CHECK-LABEL: func.func @torch_safe_softmax_empty_rows
// CHECK: flash.attention
// CHECK-NOT: linalg.generic
// CHECK-NOT: tosa.
// CHECK: return
// EXEC: torch_safe_softmax_empty_rows: raised=yes
func.func @torch_safe_softmax_empty_rows(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_e7 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %off = arith.constant -3 : i64
    %ip = arith.addi %ic, %off : i64
    %keep = arith.cmpi sle, %jc, %ip : i64
    %mn = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e9 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x4x37x45xf32>) outs(%_f11 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g12 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e13 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e15 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14 : tensor<2x4x37x45xf32>) outs(%_e15 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c18 = arith.constant 0.0 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<2x4x37x45xf32>) outs(%_f19 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e21 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e21 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e23 = tensor.empty() : tensor<2x4x37x1xi1>
  %_c24 = arith.constant 1 : i1
  %_f25 = linalg.fill ins(%_c24 : i1) outs(%_e23 : tensor<2x4x37x1xi1>) -> tensor<2x4x37x1xi1>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x4x37x45xf32>) outs(%_f25 : tensor<2x4x37x1xi1>) {
  ^bb0(%a0: f32, %out: i1):
    %ni = arith.constant 0xFF800000 : f32
    %c = arith.cmpf oeq, %a0, %ni : f32
    %r = arith.andi %c, %out : i1
    linalg.yield %r : i1
  } -> tensor<2x4x37x1xi1>
  %_e27 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g28 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g22, %_g26 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xi1>) outs(%_e27 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: i1, %out: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.select %a1, %z, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e29 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c30 = arith.constant 0.0 : f32
  %_f31 = linalg.fill ins(%_c30 : f32) outs(%_e29 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g28, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f31 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g32 : tensor<2x4x37x16xf32>
}

// -----

// where(l == 0, 0, e / l) on each probability (the guard inside P*V's
// sum; its reciprocal of l leaves the sum once the guard goes).
// CHECK-LABEL: func.func @sum_zero_guard_causal
// CHECK: flash.attention
// CHECK-NOT: linalg.generic
// CHECK-NOT: tosa.
// CHECK: return
// EXEC: sum_zero_guard_causal: raised=yes
func.func @sum_zero_guard_causal(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_e7 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %off = arith.constant 8 : i64
    %ip = arith.addi %ic, %off : i64
    %keep = arith.cmpi sle, %jc, %ip : i64
    %mn = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e9 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x4x37x45xf32>) outs(%_f11 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g12 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e13 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e15 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c16 = arith.constant 0.0 : f32
  %_f17 = linalg.fill ins(%_c16 : f32) outs(%_e15 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g14 : tensor<2x4x37x45xf32>) outs(%_f17 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e19 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14, %_g18 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e19 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf oeq, %a1, %z : f32
    %p = arith.divf %a0, %a1 : f32
    %r = arith.select %c, %z, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e21 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c22 = arith.constant 0.0 : f32
  %_f23 = linalg.fill ins(%_c22 : f32) outs(%_e21 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g20, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f23 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g24 : tensor<2x4x37x16xf32>
}

// -----

// FlexAttention's pair: the shift where(m == -inf, 0, m) and the divisor
// where(l == 0, 1, l).
// CHECK-LABEL: func.func @flex_style_guards_causal
// CHECK: flash.attention
// CHECK-NOT: linalg.generic
// CHECK-NOT: tosa.
// CHECK: return
// EXEC: flex_style_guards_causal: raised=yes
func.func @flex_style_guards_causal(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_e7 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %off = arith.constant 8 : i64
    %ip = arith.addi %ic, %off : i64
    %keep = arith.cmpi sle, %jc, %ip : i64
    %mn = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e9 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x4x37x45xf32>) outs(%_f11 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x1xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, z) -> (b, h, i, z)>, affine_map<(b, h, i, z) -> (b, h, i, z)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g12 : tensor<2x4x37x1xf32>) outs(%_e13 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %ni = arith.constant 0xFF800000 : f32
    %c = arith.cmpf oeq, %a0, %ni : f32
    %z = arith.constant 0.0 : f32
    %r = arith.select %c, %z, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e15 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g14 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e15 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c18 = arith.constant 0.0 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<2x4x37x45xf32>) outs(%_f19 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e21 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e21 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf oeq, %a1, %z : f32
    %one = arith.constant 1.0 : f32
    %d = arith.select %c, %one, %a1 : f32
    %r = arith.divf %a0, %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e23 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c24 = arith.constant 0.0 : f32
  %_f25 = linalg.fill ins(%_c24 : f32) outs(%_e23 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f25 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g26 : tensor<2x4x37x16xf32>
}

// -----

// The same where the first three rows see no key.
// CHECK-LABEL: func.func @flex_style_guards_empty_rows
// CHECK: flash.attention
// CHECK-NOT: linalg.generic
// CHECK-NOT: tosa.
// CHECK: return
// EXEC: flex_style_guards_empty_rows: raised=yes
func.func @flex_style_guards_empty_rows(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_e7 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %off = arith.constant -3 : i64
    %ip = arith.addi %ic, %off : i64
    %keep = arith.cmpi sle, %jc, %ip : i64
    %mn = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e9 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x4x37x45xf32>) outs(%_f11 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x1xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, z) -> (b, h, i, z)>, affine_map<(b, h, i, z) -> (b, h, i, z)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g12 : tensor<2x4x37x1xf32>) outs(%_e13 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %ni = arith.constant 0xFF800000 : f32
    %c = arith.cmpf oeq, %a0, %ni : f32
    %z = arith.constant 0.0 : f32
    %r = arith.select %c, %z, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e15 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g14 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e15 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c18 = arith.constant 0.0 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<2x4x37x45xf32>) outs(%_f19 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e21 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e21 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf oeq, %a1, %z : f32
    %one = arith.constant 1.0 : f32
    %d = arith.select %c, %one, %a1 : f32
    %r = arith.divf %a0, %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e23 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c24 = arith.constant 0.0 : f32
  %_f25 = linalg.fill ins(%_c24 : f32) outs(%_e23 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f25 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g26 : tensor<2x4x37x16xf32>
}

// -----

// QK-norm (Qwen 3, Gemma 3, OLMo 2): RMSNorm of q and k with per-feature
// weights before the scores. The normal form spreads the product (each
// row's rsqrt out of the sum over d); it is regrouped into the normalized
// Q and K the program computes, which flash.attention reads.
// CHECK-LABEL: func.func @qk_rms_norm_causal
// CHECK: flash.attention
// CHECK-NOT: linalg.generic
// CHECK-NOT: tosa.
// CHECK: return
// EXEC: qk_rms_norm_causal: raised=yes
func.func @qk_rms_norm_causal(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>, %A_wq: tensor<16xf32>, %A_wk: tensor<16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, n, d) -> (b, h, n, d)>, affine_map<(b, h, n, d) -> (b, h, n, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%A_q : tensor<2x4x37x16xf32>) outs(%_f3 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %a0 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x16xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, n, d) -> (b, h, n, d)>, affine_map<(b, h, n, d) -> (b, h, n, 0)>, affine_map<(b, h, n, d) -> (d)>, affine_map<(b, h, n, d) -> (b, h, n, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%A_q, %_g4, %A_wq : tensor<2x4x37x16xf32>, tensor<2x4x37x1xf32>, tensor<16xf32>) outs(%_e5 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
    %nd = arith.constant 16.0 : f32
    %mean = arith.divf %a1, %nd : f32
    %eps = arith.constant 1.0e-6 : f32
    %t = arith.addf %mean, %eps : f32
    %rs = math.rsqrt %t : f32
    %y = arith.mulf %a0, %rs : f32
    %r = arith.mulf %y, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  %_e7 = tensor.empty() : tensor<2x4x45x1xf32>
  %_c8 = arith.constant 0.0 : f32
  %_f9 = linalg.fill ins(%_c8 : f32) outs(%_e7 : tensor<2x4x45x1xf32>) -> tensor<2x4x45x1xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, n, d) -> (b, h, n, d)>, affine_map<(b, h, n, d) -> (b, h, n, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%A_k : tensor<2x4x45x16xf32>) outs(%_f9 : tensor<2x4x45x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %a0 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x1xf32>
  %_e11 = tensor.empty() : tensor<2x4x45x16xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, n, d) -> (b, h, n, d)>, affine_map<(b, h, n, d) -> (b, h, n, 0)>, affine_map<(b, h, n, d) -> (d)>, affine_map<(b, h, n, d) -> (b, h, n, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%A_k, %_g10, %A_wk : tensor<2x4x45x16xf32>, tensor<2x4x45x1xf32>, tensor<16xf32>) outs(%_e11 : tensor<2x4x45x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
    %nd = arith.constant 16.0 : f32
    %mean = arith.divf %a1, %nd : f32
    %eps = arith.constant 1.0e-6 : f32
    %t = arith.addf %mean, %eps : f32
    %rs = math.rsqrt %t : f32
    %y = arith.mulf %a0, %rs : f32
    %r = arith.mulf %y, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x16xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c14 = arith.constant 0.0 : f32
  %_f15 = linalg.fill ins(%_c14 : f32) outs(%_e13 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g6, %_g12 : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f15 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16 : tensor<2x4x37x45xf32>) outs(%_e17 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e19 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g18 : tensor<2x4x37x45xf32>) outs(%_e19 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %off = arith.constant 8 : i64
    %ip = arith.addi %ic, %off : i64
    %keep = arith.cmpi sle, %jc, %ip : i64
    %mn = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e21 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c22 = arith.constant 0xFF800000 : f32
  %_f23 = linalg.fill ins(%_c22 : f32) outs(%_e21 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g20 : tensor<2x4x37x45xf32>) outs(%_f23 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e25 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g20, %_g24 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e25 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e27 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g28 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g26 : tensor<2x4x37x45xf32>) outs(%_e27 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e29 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c30 = arith.constant 0.0 : f32
  %_f31 = linalg.fill ins(%_c30 : f32) outs(%_e29 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g28 : tensor<2x4x37x45xf32>) outs(%_f31 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e33 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g34 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g28, %_g32 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e33 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e35 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c36 = arith.constant 0.0 : f32
  %_f37 = linalg.fill ins(%_c36 : f32) outs(%_e35 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g38 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g34, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f37 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g38 : tensor<2x4x37x16xf32>
}

// -----

// e * e / sum e is no softmax (its rows do not sum to 1): not raised (it
// was, as plain attention, the second e dropped).
// CHECK-LABEL: func.func @negative_e_squared_over_sum
// CHECK-NOT: flash.attention
// CHECK: return
// REMARK: remark: attention not raised: the probabilities are multiplied by another exponential of the scores
// Minimal: P = e*e / sum(e) with e = exp(s - max(s)) is NOT a softmax (rows do not sum to 1),
// but --flash-raise-attention replaces it by plain flash.attention {scale = 0.25}.
func.func @negative_e_squared_over_sum(%q: tensor<8x37x16xf32>, %k: tensor<8x45x16xf32>, %v: tensor<8x45x16xf32>) -> tensor<8x37x16xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<8x37x45xf32>
  %s0f = linalg.fill ins(%z : f32) outs(%e0 : tensor<8x37x45xf32>) -> tensor<8x37x45xf32>
  %s0 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, kk) -> (b, m, kk)>, affine_map<(b, m, n, kk) -> (b, n, kk)>, affine_map<(b, m, n, kk) -> (b, m, n)>]
        ins(%q, %k : tensor<8x37x16xf32>, tensor<8x45x16xf32>) outs(%s0f : tensor<8x37x45xf32>) -> tensor<8x37x45xf32>
  %r0 = tensor.empty() : tensor<8x37xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%r0 : tensor<8x37xf32>) -> tensor<8x37xf32>
  %li = linalg.fill ins(%z : f32) outs(%r0 : tensor<8x37xf32>) -> tensor<8x37xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s0 : tensor<8x37x45xf32>) outs(%e0 : tensor<8x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.25 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<8x37x45xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<8x37x45xf32>) outs(%mi : tensor<8x37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<8x37xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<8x37x45xf32>, tensor<8x37xf32>) outs(%e0 : tensor<8x37x45xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %d = arith.subf %x, %mx : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<8x37x45xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<8x37x45xf32>) outs(%li : tensor<8x37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<8x37xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<8x37x45xf32>, tensor<8x37xf32>) outs(%e0 : tensor<8x37x45xf32>) {
  ^bb0(%x: f32, %sum: f32, %o: f32):
    %x2 = arith.mulf %x, %x : f32
    %y = arith.divf %x2, %sum : f32
    linalg.yield %y : f32
  } -> tensor<8x37x45xf32>
  %oe = tensor.empty() : tensor<8x37x16xf32>
  %of = linalg.fill ins(%z : f32) outs(%oe : tensor<8x37x16xf32>) -> tensor<8x37x16xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<8x37x45xf32>, tensor<8x45x16xf32>) outs(%of : tensor<8x37x16xf32>) -> tensor<8x37x16xf32>
  return %out : tensor<8x37x16xf32>
}

// -----

// P * e before P*V: not raised.
// CHECK-LABEL: func.func @negative_p_times_e
// CHECK-NOT: flash.attention
// CHECK: return
// REMARK: remark: attention not raised: the probabilities are multiplied by another exponential of the scores
func.func @negative_p_times_e(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c8 = arith.constant 0xFF800000 : f32
  %_f9 = linalg.fill ins(%_c8 : f32) outs(%_e7 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_f9 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e11 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6, %_g10 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e11 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c14 = arith.constant 0.0 : f32
  %_f15 = linalg.fill ins(%_c14 : f32) outs(%_e13 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g12 : tensor<2x4x37x45xf32>) outs(%_f15 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g12, %_g16 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e17 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.divf %a0, %a1 : f32
    %r = arith.mulf %d, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e19 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c20 = arith.constant 0.0 : f32
  %_f21 = linalg.fill ins(%_c20 : f32) outs(%_e19 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g18, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f21 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g22 : tensor<2x4x37x16xf32>
}

// -----

// e multiplied inside P*V's contraction body: not raised.
// CHECK-LABEL: func.func @negative_e_in_pv_body
// CHECK-NOT: flash.attention
// CHECK: return
// REMARK: remark: attention not raised: the probabilities are multiplied by another exponential of the scores
func.func @negative_e_in_pv_body(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c8 = arith.constant 0xFF800000 : f32
  %_f9 = linalg.fill ins(%_c8 : f32) outs(%_e7 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_f9 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e11 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6, %_g10 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e11 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c14 = arith.constant 0.0 : f32
  %_f15 = linalg.fill ins(%_c14 : f32) outs(%_e13 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g12 : tensor<2x4x37x45xf32>) outs(%_f15 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g12, %_g16 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e17 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e19 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c20 = arith.constant 0.0 : f32
  %_f21 = linalg.fill ins(%_c20 : f32) outs(%_e19 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g18, %_g12, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f21 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
    %w = arith.mulf %a0, %a1 : f32
    %m = arith.mulf %w, %a2 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g22 : tensor<2x4x37x16xf32>
}

// -----

// P * e in TOSA: not raised.
// CHECK-LABEL: func.func @negative_tosa_p_times_e
// CHECK-NOT: flash.attention
// CHECK: return
// REMARK: remark: attention not raised: the probabilities are multiplied by another exponential of the scores
func.func @negative_tosa_p_times_e(%q: tensor<8x37x16xf32>, %k: tensor<8x45x16xf32>, %v: tensor<8x45x16xf32>) -> tensor<8x37x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<8x45x16xf32>) -> tensor<8x16x45xf32>
  %s0 = tosa.matmul %q, %kt, %zp, %zp : (tensor<8x37x16xf32>, tensor<8x16x45xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x37x45xf32>
  %sc = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %s1 = tosa.mul %s0, %sc, %shift : (tensor<8x37x45xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x37x45xf32>
  %mx = tosa.reduce_max %s1 {axis = 2 : i32} : (tensor<8x37x45xf32>) -> tensor<8x37x1xf32>
  %ex0 = tosa.sub %s1, %mx : (tensor<8x37x45xf32>, tensor<8x37x1xf32>) -> tensor<8x37x45xf32>
  %ex = tosa.exp %ex0 : (tensor<8x37x45xf32>) -> tensor<8x37x45xf32>
  %sm = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<8x37x45xf32>) -> tensor<8x37x1xf32>
  %rc = tosa.reciprocal %sm : (tensor<8x37x1xf32>) -> tensor<8x37x1xf32>
  %p0 = tosa.mul %ex, %rc, %shift : (tensor<8x37x45xf32>, tensor<8x37x1xf32>, tensor<1xi8>) -> tensor<8x37x45xf32>
  %p = tosa.mul %p0, %ex, %shift : (tensor<8x37x45xf32>, tensor<8x37x45xf32>, tensor<1xi8>) -> tensor<8x37x45xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<8x37x45xf32>, tensor<8x45x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x37x16xf32>
  return %o : tensor<8x37x16xf32>
}

// -----

// Both contractions written with math.fma(a, b, acc): a sum of a * b.
// CHECK-LABEL: func.func @contraction_bodies_fma
// CHECK: flash.attention
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: contraction_bodies_fma: raised=yes
func.func @contraction_bodies_fma(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = math.fma %a0, %a1, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c8 = arith.constant 0xFF800000 : f32
  %_f9 = linalg.fill ins(%_c8 : f32) outs(%_e7 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_f9 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e11 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6, %_g10 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e11 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g12 : tensor<2x4x37x45xf32>) outs(%_e13 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e15 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c16 = arith.constant 0.0 : f32
  %_f17 = linalg.fill ins(%_c16 : f32) outs(%_e15 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g14 : tensor<2x4x37x45xf32>) outs(%_f17 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e19 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14, %_g18 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e19 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e21 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c22 = arith.constant 0.0 : f32
  %_f23 = linalg.fill ins(%_c22 : f32) outs(%_e21 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g20, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f23 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = math.fma %a0, %a1, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g24 : tensor<2x4x37x16xf32>
}

// -----

// A softmax in base 10, powf(10, s) / sum powf(10, s): exp(s ln 10).
// CHECK-LABEL: func.func @softmax_base_10
// CHECK: flash.attention
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: softmax_base_10: raised=yes
func.func @softmax_base_10(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_e7 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %b = arith.constant 10.0 : f32
    %r = math.powf %b, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e9 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c10 = arith.constant 0.0 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x4x37x45xf32>) outs(%_f11 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g12 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e13 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e15 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c16 = arith.constant 0.0 : f32
  %_f17 = linalg.fill ins(%_c16 : f32) outs(%_e15 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g14, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f17 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g18 : tensor<2x4x37x16xf32>
}

// -----

// exp written as expm1(x) + 1.
// CHECK-LABEL: func.func @softmax_expm1_plus_one
// CHECK: flash.attention
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: softmax_expm1_plus_one: raised=yes
func.func @softmax_expm1_plus_one(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c8 = arith.constant 0xFF800000 : f32
  %_f9 = linalg.fill ins(%_c8 : f32) outs(%_e7 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_f9 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e11 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6, %_g10 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e11 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %x = math.expm1 %d : f32
    %one = arith.constant 1.0 : f32
    %r = arith.addf %x, %one : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c14 = arith.constant 0.0 : f32
  %_f15 = linalg.fill ins(%_c14 : f32) outs(%_e13 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g12 : tensor<2x4x37x45xf32>) outs(%_f15 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g12, %_g16 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e17 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e19 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c20 = arith.constant 0.0 : f32
  %_f21 = linalg.fill ins(%_c20 : f32) outs(%_e19 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g18, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f21 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g22 : tensor<2x4x37x16xf32>
}

// -----

// s > 0 ? s : s - 10: a condition on the scores with exponents a constant
// apart is a piecewise score function (it was taken for a finite mask fill).
// CHECK-LABEL: func.func @piecewise_shift
// CHECK: flash.attention
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: piecewise_shift: raised=yes
func.func @piecewise_shift(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_e7 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %a0, %z : f32
    %t = arith.constant 10.0 : f32
    %x = arith.subf %a0, %t : f32
    %r = arith.select %c, %a0, %x : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e9 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x4x37x45xf32>) outs(%_f11 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g12 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e13 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e15 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14 : tensor<2x4x37x45xf32>) outs(%_e15 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c18 = arith.constant 0.0 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<2x4x37x45xf32>) outs(%_f19 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e21 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e21 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e23 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c24 = arith.constant 0.0 : f32
  %_f25 = linalg.fill ins(%_c24 : f32) outs(%_e23 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f25 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g26 : tensor<2x4x37x16xf32>
}

// -----

// Q computed as q * q (its factors spread in the product): the computed Q.
// CHECK-LABEL: func.func @q_squared
// CHECK: flash.attention
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: q_squared: raised=yes
func.func @q_squared(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x16xf32>
  %_g2 = linalg.generic {indexing_maps = [affine_map<(b, h, n, d) -> (b, h, n, d)>, affine_map<(b, h, n, d) -> (b, h, n, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%A_q : tensor<2x4x37x16xf32>) outs(%_e1 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  %_e3 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c4 = arith.constant 0.0 : f32
  %_f5 = linalg.fill ins(%_c4 : f32) outs(%_e3 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g2, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_e7 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e9 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x4x37x45xf32>) outs(%_f11 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g12 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e13 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e15 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14 : tensor<2x4x37x45xf32>) outs(%_e15 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c18 = arith.constant 0.0 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<2x4x37x45xf32>) outs(%_f19 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e21 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e21 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e23 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c24 = arith.constant 0.0 : f32
  %_f25 = linalg.fill ins(%_c24 : f32) outs(%_e23 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f25 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g26 : tensor<2x4x37x16xf32>
}

// -----

// K scaled per feature, k * w[d]: the weight goes with K.
// CHECK-LABEL: func.func @k_feature_weight
// CHECK: flash.attention
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: k_feature_weight: raised=yes
func.func @k_feature_weight(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>, %A_w: tensor<16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x45x16xf32>
  %_g2 = linalg.generic {indexing_maps = [affine_map<(b, h, n, d) -> (b, h, n, d)>, affine_map<(b, h, n, d) -> (d)>, affine_map<(b, h, n, d) -> (b, h, n, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%A_k, %A_w : tensor<2x4x45x16xf32>, tensor<16xf32>) outs(%_e1 : tensor<2x4x45x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x16xf32>
  %_e3 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c4 = arith.constant 0.0 : f32
  %_f5 = linalg.fill ins(%_c4 : f32) outs(%_e3 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %_g2 : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c8 = arith.constant 0xFF800000 : f32
  %_f9 = linalg.fill ins(%_c8 : f32) outs(%_e7 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_f9 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e11 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6, %_g10 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e11 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g12 : tensor<2x4x37x45xf32>) outs(%_e13 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e15 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c16 = arith.constant 0.0 : f32
  %_f17 = linalg.fill ins(%_c16 : f32) outs(%_e15 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g14 : tensor<2x4x37x45xf32>) outs(%_f17 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e19 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14, %_g18 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e19 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e21 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c22 = arith.constant 0.0 : f32
  %_f23 = linalg.fill ins(%_c22 : f32) outs(%_e21 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g20, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f23 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g24 : tensor<2x4x37x16xf32>
}

// -----

// V computed as v * v (flattened into P*V's product): the computed V.
// CHECK-LABEL: func.func @v_squared
// CHECK: flash.attention
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: v_squared: raised=yes
func.func @v_squared(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x45x16xf32>
  %_g2 = linalg.generic {indexing_maps = [affine_map<(b, h, n, d) -> (b, h, n, d)>, affine_map<(b, h, n, d) -> (b, h, n, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%A_v : tensor<2x4x45x16xf32>) outs(%_e1 : tensor<2x4x45x16xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x16xf32>
  %_e3 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c4 = arith.constant 0.0 : f32
  %_f5 = linalg.fill ins(%_c4 : f32) outs(%_e3 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_e7 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e9 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x4x37x45xf32>) outs(%_f11 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g12 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e13 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e15 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14 : tensor<2x4x37x45xf32>) outs(%_e15 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c18 = arith.constant 0.0 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<2x4x37x45xf32>) outs(%_f19 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e21 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e21 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e23 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c24 = arith.constant 0.0 : f32
  %_f25 = linalg.fill ins(%_c24 : f32) outs(%_e23 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %_g2 : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f25 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g26 : tensor<2x4x37x16xf32>
}

// -----

// gpt-oss attention sinks as an extra column of the scores (concat, a
// softmax over Nk + 1, the column sliced off): not raised, with a remark
// (it was a silent miss).
// CHECK-LABEL: func.func @negative_sinks_concat
// CHECK-NOT: flash.attention
// CHECK: return
// REMARK: remark: attention not raised: the probabilities reach the product through
func.func @negative_sinks_concat(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>, %A_sinks: tensor<4xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x1xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (h)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%A_sinks : tensor<4xf32>) outs(%_e7 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    linalg.yield %a0 : f32
  } -> tensor<2x4x37x1xf32>
  %_cat9 = tensor.concat dim(3) %_g6, %_g8 : (tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) -> tensor<2x4x37x46xf32>
  %_e10 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c11 = arith.constant 0xFF800000 : f32
  %_f12 = linalg.fill ins(%_c11 : f32) outs(%_e10 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g13 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_cat9 : tensor<2x4x37x46xf32>) outs(%_f12 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e14 = tensor.empty() : tensor<2x4x37x46xf32>
  %_g15 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_cat9, %_g13 : tensor<2x4x37x46xf32>, tensor<2x4x37x1xf32>) outs(%_e14 : tensor<2x4x37x46xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x46xf32>
  %_e16 = tensor.empty() : tensor<2x4x37x46xf32>
  %_sm17 = linalg.softmax dimension(3) ins(%_g15 : tensor<2x4x37x46xf32>) outs(%_e16 : tensor<2x4x37x46xf32>) -> tensor<2x4x37x46xf32>
  %_sl18 = tensor.extract_slice %_sm17[0, 0, 0, 0] [2, 4, 37, 45] [1, 1, 1, 1] : tensor<2x4x37x46xf32> to tensor<2x4x37x45xf32>
  %_e19 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c20 = arith.constant 0.0 : f32
  %_f21 = linalg.fill ins(%_c20 : f32) outs(%_e19 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_sl18, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f21 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g22 : tensor<2x4x37x16xf32>
}

// -----

// The same in TOSA.
// CHECK-LABEL: func.func @negative_sinks_tosa
// CHECK-NOT: flash.attention
// CHECK: return
// REMARK: remark: attention not raised: the probabilities reach the product through
func.func @negative_sinks_tosa(%q: tensor<8x37x16xf32>, %k: tensor<8x45x16xf32>, %v: tensor<8x45x16xf32>, %sink: tensor<8xf32>) -> tensor<8x37x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<8x45x16xf32>) -> tensor<8x16x45xf32>
  %s0 = tosa.matmul %q, %kt, %zp, %zp : (tensor<8x37x16xf32>, tensor<8x16x45xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x37x45xf32>
  %sc = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %s1 = tosa.mul %s0, %sc, %shift : (tensor<8x37x45xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x37x45xf32>
  %shp = tosa.const_shape {values = dense<[8, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sk = tosa.reshape %sink, %shp : (tensor<8xf32>, !tosa.shape<3>) -> tensor<8x1x1xf32>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<8x37x1xf32>}> : () -> tensor<8x37x1xf32>
  %skb = tosa.add %z, %sk : (tensor<8x37x1xf32>, tensor<8x1x1xf32>) -> tensor<8x37x1xf32>
  %cat = tosa.concat %s1, %skb {axis = 2 : i32} : (tensor<8x37x45xf32>, tensor<8x37x1xf32>) -> tensor<8x37x46xf32>
  %mx = tosa.reduce_max %cat {axis = 2 : i32} : (tensor<8x37x46xf32>) -> tensor<8x37x1xf32>
  %ex0 = tosa.sub %cat, %mx : (tensor<8x37x46xf32>, tensor<8x37x1xf32>) -> tensor<8x37x46xf32>
  %ex = tosa.exp %ex0 : (tensor<8x37x46xf32>) -> tensor<8x37x46xf32>
  %sm = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<8x37x46xf32>) -> tensor<8x37x1xf32>
  %rc = tosa.reciprocal %sm : (tensor<8x37x1xf32>) -> tensor<8x37x1xf32>
  %pf = tosa.mul %ex, %rc, %shift : (tensor<8x37x46xf32>, tensor<8x37x1xf32>, tensor<1xi8>) -> tensor<8x37x46xf32>
  %st = tosa.const_shape {values = dense<[0, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sz = tosa.const_shape {values = dense<[8, 37, 45]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p = tosa.slice %pf, %st, %sz : (tensor<8x37x46xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<8x37x45xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<8x37x45xf32>, tensor<8x45x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x37x16xf32>
  return %o : tensor<8x37x16xf32>
}

// -----

// One key (the first decode step): every weight is 1, nothing to fuse;
// said (it was a silent miss).
// CHECK-LABEL: func.func @negative_one_key
// CHECK-NOT: flash.attention
// CHECK: return
// REMARK: remark: attention not raised: the softmax is over a single key
func.func @negative_one_key(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x1x16xf32>, %A_v: tensor<2x4x1x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x1x16xf32>) outs(%_f3 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x1xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x1xf32>) outs(%_e5 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c8 = arith.constant 0xFF800000 : f32
  %_f9 = linalg.fill ins(%_c8 : f32) outs(%_e7 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g6 : tensor<2x4x37x1xf32>) outs(%_f9 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e11 = tensor.empty() : tensor<2x4x37x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6, %_g10 : tensor<2x4x37x1xf32>, tensor<2x4x37x1xf32>) outs(%_e11 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x1xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g12 : tensor<2x4x37x1xf32>) outs(%_e13 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e15 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c16 = arith.constant 0.0 : f32
  %_f17 = linalg.fill ins(%_c16 : f32) outs(%_e15 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g14 : tensor<2x4x37x1xf32>) outs(%_f17 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e19 = tensor.empty() : tensor<2x4x37x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14, %_g18 : tensor<2x4x37x1xf32>, tensor<2x4x37x1xf32>) outs(%_e19 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e21 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c22 = arith.constant 0.0 : f32
  %_f23 = linalg.fill ins(%_c22 : f32) outs(%_e21 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g20, %A_v : tensor<2x4x37x1xf32>, tensor<2x4x1x16xf32>) outs(%_f23 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g24 : tensor<2x4x37x16xf32>
}

// -----

// A zero scale: uniform weights; said.
// CHECK-LABEL: func.func @negative_zero_scale
// CHECK-NOT: flash.attention
// CHECK: return
// REMARK: remark: attention not raised: the scores do not vary along the keys
func.func @negative_zero_scale(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.0 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c8 = arith.constant 0xFF800000 : f32
  %_f9 = linalg.fill ins(%_c8 : f32) outs(%_e7 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_f9 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e11 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6, %_g10 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e11 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g12 : tensor<2x4x37x45xf32>) outs(%_e13 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e15 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c16 = arith.constant 0.0 : f32
  %_f17 = linalg.fill ins(%_c16 : f32) outs(%_e15 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g14 : tensor<2x4x37x45xf32>) outs(%_f17 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e19 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14, %_g18 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e19 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e21 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c22 = arith.constant 0.0 : f32
  %_f23 = linalg.fill ins(%_c22 : f32) outs(%_e21 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g20, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f23 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g24 : tensor<2x4x37x16xf32>
}

// -----

// P*V as a batch_matmul into a residual, its batch and heads collapsed
// into one dim and left so: the accumulator is split off (an init that
// is not zero is added after the op), the collapsed probabilities are
// not followed; said.
// CHECK-LABEL: func.func @negative_residual_init_bmm
// CHECK-NOT: flash.attention
// CHECK: return
// REMARK: remark: attention not raised: the probabilities reach the product through 'tensor.collapse_shape'
func.func @negative_residual_init_bmm(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>, %A_x: tensor<8x37x16xf32>) -> (tensor<8x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x45xf32>
  %_sm8 = linalg.softmax dimension(3) ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_e7 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_cl9 = tensor.collapse_shape %_sm8 [[0, 1], [2], [3]] : tensor<2x4x37x45xf32> into tensor<8x37x45xf32>
  %_cl10 = tensor.collapse_shape %A_v [[0, 1], [2], [3]] : tensor<2x4x45x16xf32> into tensor<8x45x16xf32>
  %_mm11 = linalg.batch_matmul ins(%_cl9, %_cl10 : tensor<8x37x45xf32>, tensor<8x45x16xf32>) outs(%A_x : tensor<8x37x16xf32>) -> tensor<8x37x16xf32>
  return %_mm11 : tensor<8x37x16xf32>
}

// -----

// The row max as select(acc >= x, acc, x) (a max whose compare has the
// accumulator first).
// CHECK-LABEL: func.func @row_max_by_select
// CHECK: flash.attention
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: row_max_by_select: raised=yes
func.func @row_max_by_select(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c8 = arith.constant -3.40282347E+38 : f32
  %_f9 = linalg.fill ins(%_c8 : f32) outs(%_e7 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_f9 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.cmpf uge, %out, %a0 : f32
    %r = arith.select %c, %out, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e11 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6, %_g10 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e11 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c14 = arith.constant 0.0 : f32
  %_f15 = linalg.fill ins(%_c14 : f32) outs(%_e13 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g12 : tensor<2x4x37x45xf32>) outs(%_f15 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %out, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g12, %_g16 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e17 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e19 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c20 = arith.constant 0.0 : f32
  %_f21 = linalg.fill ins(%_c20 : f32) outs(%_e19 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g18, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f21 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g22 : tensor<2x4x37x16xf32>
}

// -----

// The row max starts at +inf (or 1e30): every exponential underflows in
// the program (NaN rows); refused, said.
// CHECK-LABEL: func.func @negative_max_init_inf
// CHECK-NOT: flash.attention
// CHECK: return
// REMARK: remark: attention not raised: the row max starts at
func.func @negative_max_init_inf(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c8 = arith.constant 0x7F800000 : f32
  %_f9 = linalg.fill ins(%_c8 : f32) outs(%_e7 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_f9 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e11 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6, %_g10 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e11 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c14 = arith.constant 0.0 : f32
  %_f15 = linalg.fill ins(%_c14 : f32) outs(%_e13 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g12 : tensor<2x4x37x45xf32>) outs(%_f15 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g12, %_g16 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e17 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e19 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c20 = arith.constant 0.0 : f32
  %_f21 = linalg.fill ins(%_c20 : f32) outs(%_e19 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g18, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f21 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g22 : tensor<2x4x37x16xf32>
}

// -----

// The same from 1e30.
// CHECK-LABEL: func.func @negative_max_init_1e30
// CHECK-NOT: flash.attention
// CHECK: return
// REMARK: remark: attention not raised: the row max starts at
func.func @negative_max_init_1e30(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>) -> (tensor<2x4x37x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f3 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e5 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x37x45xf32>) outs(%_e5 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e7 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c8 = arith.constant 1.0e30 : f32
  %_f9 = linalg.fill ins(%_c8 : f32) outs(%_e7 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g6 : tensor<2x4x37x45xf32>) outs(%_f9 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e11 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6, %_g10 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e11 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e13 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c14 = arith.constant 0.0 : f32
  %_f15 = linalg.fill ins(%_c14 : f32) outs(%_e13 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g12 : tensor<2x4x37x45xf32>) outs(%_f15 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g12, %_g16 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e17 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e19 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c20 = arith.constant 0.0 : f32
  %_f21 = linalg.fill ins(%_c20 : f32) outs(%_e19 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g18, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f21 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  return %_g22 : tensor<2x4x37x16xf32>
}
