// Joint graphs whose backward re-masks dS with a condition of its own
// (an independent tester's programs, sessions 40-41), each checked against
// the unraised program on the CPU:
// - a two-sided clamp of the scores, min(max(s, lo), hi) or max(min(s, hi),
//   lo): autodiff's where(lo <= s & s <= hi, g, 0) is the clamp's
//   derivative once the outer bound's compare of the inner clamp drops the
//   bound it lies inside (max(s, lo) <= hi is s <= hi where lo <= hi).
// - chunked attention (Llama 4's i / c == j / c, alone and with causal):
//   the backward's where on dS with the forward's chunk condition is P's
//   own zero (the forward holds e == 0 as e <= 0 and -e <= 0); with the
//   causal condition too, each conjunct the forward implies goes (a crash
//   before when all of them did one by one).
// - not with another chunk size in the backward (not the forward's zeros).
// RUN: flash-opt %s --split-input-file --flash-raise-attention | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-raise-attention=report=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// CHECK-LABEL: func.func @clamp_two_sided_joint
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: linalg.generic
// CHECK: return
// EXEC: clamp_two_sided_joint: raised=yes
func.func @clamp_two_sided_joint(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>, %A_dout: tensor<2x4x37x16xf32>) -> (tensor<2x4x37x16xf32>, tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>, tensor<2x4x45x16xf32>) {
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
    %lo = arith.constant -0.75 : f32
    %hi = arith.constant 0.75 : f32
    %x = arith.maximumf %a0, %lo : f32
    %r = arith.minimumf %x, %hi : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e9 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8 : tensor<2x4x37x45xf32>) outs(%_e9 : tensor<2x4x37x45xf32>) {
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
  %_e11 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c12 = arith.constant 0xFF800000 : f32
  %_f13 = linalg.fill ins(%_c12 : f32) outs(%_e11 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g10 : tensor<2x4x37x45xf32>) outs(%_f13 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e15 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g10, %_g14 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e15 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16 : tensor<2x4x37x45xf32>) outs(%_e17 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e19 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c20 = arith.constant 0.0 : f32
  %_f21 = linalg.fill ins(%_c20 : f32) outs(%_e19 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g18 : tensor<2x4x37x45xf32>) outs(%_f21 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e23 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g18, %_g22 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e23 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e25 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c26 = arith.constant 0.0 : f32
  %_f27 = linalg.fill ins(%_c26 : f32) outs(%_e25 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g28 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g24, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f27 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  %_e29 = tensor.empty() : tensor<2x4x45x16xf32>
  %_c30 = arith.constant 0.0 : f32
  %_f31 = linalg.fill ins(%_c30 : f32) outs(%_e29 : tensor<2x4x45x16xf32>) -> tensor<2x4x45x16xf32>
  %_g32 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g24, %A_dout : tensor<2x4x37x45xf32>, tensor<2x4x37x16xf32>) outs(%_f31 : tensor<2x4x45x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x16xf32>
  %_e33 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c34 = arith.constant 0.0 : f32
  %_f35 = linalg.fill ins(%_c34 : f32) outs(%_e33 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g36 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_dout, %A_v : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f35 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e37 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g38 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g36, %_g24 : tensor<2x4x37x45xf32>, tensor<2x4x37x45xf32>) outs(%_e37 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e39 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c40 = arith.constant 0.0 : f32
  %_f41 = linalg.fill ins(%_c40 : f32) outs(%_e39 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g42 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g38 : tensor<2x4x37x45xf32>) outs(%_f41 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e43 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g44 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g36, %_g42 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e43 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e45 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g46 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g44, %_g24 : tensor<2x4x37x45xf32>, tensor<2x4x37x45xf32>) outs(%_e45 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e47 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g48 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g46 : tensor<2x4x37x45xf32>) outs(%_e47 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %off = arith.constant 8 : i64
    %ip = arith.addi %ic, %off : i64
    %keep = arith.cmpi sle, %jc, %ip : i64
    %z = arith.constant 0.0 : f32
    %r = arith.select %keep, %a0, %z : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e49 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g50 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g48, %_g6 : tensor<2x4x37x45xf32>, tensor<2x4x37x45xf32>) outs(%_e49 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %lo = arith.constant -0.75 : f32
    %hi = arith.constant 0.75 : f32
    %c1 = arith.cmpf oge, %a1, %lo : f32
    %c2 = arith.cmpf ole, %a1, %hi : f32
    %k = arith.andi %c1, %c2 : i1
    %z = arith.constant 0.0 : f32
    %r = arith.select %k, %a0, %z : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e51 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g52 = linalg.generic {indexing_maps = [affine_map<(b, h, n, d) -> (b, h, n, d)>, affine_map<(b, h, n, d) -> (b, h, n, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g50 : tensor<2x4x37x45xf32>) outs(%_e51 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e53 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c54 = arith.constant 0.0 : f32
  %_f55 = linalg.fill ins(%_c54 : f32) outs(%_e53 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g56 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g52, %A_k : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f55 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  %_e57 = tensor.empty() : tensor<2x4x45x16xf32>
  %_c58 = arith.constant 0.0 : f32
  %_f59 = linalg.fill ins(%_c58 : f32) outs(%_e57 : tensor<2x4x45x16xf32>) -> tensor<2x4x45x16xf32>
  %_g60 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g52, %A_q : tensor<2x4x37x45xf32>, tensor<2x4x37x16xf32>) outs(%_f59 : tensor<2x4x45x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x16xf32>
  return %_g28, %_g56, %_g60, %_g32 : tensor<2x4x37x16xf32>, tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>, tensor<2x4x45x16xf32>
}

// -----

// CHECK-LABEL: func.func @clamp_two_sided_max_of_min_joint
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: linalg.generic
// CHECK: return
// EXEC: clamp_two_sided_max_of_min_joint: raised=yes
func.func @clamp_two_sided_max_of_min_joint(%A_q: tensor<2x4x37x16xf32>, %A_k: tensor<2x4x45x16xf32>, %A_v: tensor<2x4x45x16xf32>, %A_dout: tensor<2x4x37x16xf32>) -> (tensor<2x4x37x16xf32>, tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>, tensor<2x4x45x16xf32>) {
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
    %lo = arith.constant -0.75 : f32
    %hi = arith.constant 0.75 : f32
    %x = arith.minimumf %a0, %hi : f32
    %r = arith.maximumf %x, %lo : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e9 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8 : tensor<2x4x37x45xf32>) outs(%_e9 : tensor<2x4x37x45xf32>) {
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
  %_e11 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c12 = arith.constant 0xFF800000 : f32
  %_f13 = linalg.fill ins(%_c12 : f32) outs(%_e11 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g10 : tensor<2x4x37x45xf32>) outs(%_f13 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e15 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g10, %_g14 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e15 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e17 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16 : tensor<2x4x37x45xf32>) outs(%_e17 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e19 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c20 = arith.constant 0.0 : f32
  %_f21 = linalg.fill ins(%_c20 : f32) outs(%_e19 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g18 : tensor<2x4x37x45xf32>) outs(%_f21 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e23 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g18, %_g22 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e23 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e25 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c26 = arith.constant 0.0 : f32
  %_f27 = linalg.fill ins(%_c26 : f32) outs(%_e25 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g28 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g24, %A_v : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f27 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  %_e29 = tensor.empty() : tensor<2x4x45x16xf32>
  %_c30 = arith.constant 0.0 : f32
  %_f31 = linalg.fill ins(%_c30 : f32) outs(%_e29 : tensor<2x4x45x16xf32>) -> tensor<2x4x45x16xf32>
  %_g32 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g24, %A_dout : tensor<2x4x37x45xf32>, tensor<2x4x37x16xf32>) outs(%_f31 : tensor<2x4x45x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x16xf32>
  %_e33 = tensor.empty() : tensor<2x4x37x45xf32>
  %_c34 = arith.constant 0.0 : f32
  %_f35 = linalg.fill ins(%_c34 : f32) outs(%_e33 : tensor<2x4x37x45xf32>) -> tensor<2x4x37x45xf32>
  %_g36 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_dout, %A_v : tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>) outs(%_f35 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e37 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g38 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g36, %_g24 : tensor<2x4x37x45xf32>, tensor<2x4x37x45xf32>) outs(%_e37 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e39 = tensor.empty() : tensor<2x4x37x1xf32>
  %_c40 = arith.constant 0.0 : f32
  %_f41 = linalg.fill ins(%_c40 : f32) outs(%_e39 : tensor<2x4x37x1xf32>) -> tensor<2x4x37x1xf32>
  %_g42 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g38 : tensor<2x4x37x45xf32>) outs(%_f41 : tensor<2x4x37x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x1xf32>
  %_e43 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g44 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g36, %_g42 : tensor<2x4x37x45xf32>, tensor<2x4x37x1xf32>) outs(%_e43 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e45 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g46 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g44, %_g24 : tensor<2x4x37x45xf32>, tensor<2x4x37x45xf32>) outs(%_e45 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e47 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g48 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g46 : tensor<2x4x37x45xf32>) outs(%_e47 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %off = arith.constant 8 : i64
    %ip = arith.addi %ic, %off : i64
    %keep = arith.cmpi sle, %jc, %ip : i64
    %z = arith.constant 0.0 : f32
    %r = arith.select %keep, %a0, %z : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e49 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g50 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g48, %_g6 : tensor<2x4x37x45xf32>, tensor<2x4x37x45xf32>) outs(%_e49 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %lo = arith.constant -0.75 : f32
    %hi = arith.constant 0.75 : f32
    %c1 = arith.cmpf oge, %a1, %lo : f32
    %c2 = arith.cmpf ole, %a1, %hi : f32
    %k = arith.andi %c1, %c2 : i1
    %z = arith.constant 0.0 : f32
    %r = arith.select %k, %a0, %z : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e51 = tensor.empty() : tensor<2x4x37x45xf32>
  %_g52 = linalg.generic {indexing_maps = [affine_map<(b, h, n, d) -> (b, h, n, d)>, affine_map<(b, h, n, d) -> (b, h, n, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g50 : tensor<2x4x37x45xf32>) outs(%_e51 : tensor<2x4x37x45xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x45xf32>
  %_e53 = tensor.empty() : tensor<2x4x37x16xf32>
  %_c54 = arith.constant 0.0 : f32
  %_f55 = linalg.fill ins(%_c54 : f32) outs(%_e53 : tensor<2x4x37x16xf32>) -> tensor<2x4x37x16xf32>
  %_g56 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g52, %A_k : tensor<2x4x37x45xf32>, tensor<2x4x45x16xf32>) outs(%_f55 : tensor<2x4x37x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x37x16xf32>
  %_e57 = tensor.empty() : tensor<2x4x45x16xf32>
  %_c58 = arith.constant 0.0 : f32
  %_f59 = linalg.fill ins(%_c58 : f32) outs(%_e57 : tensor<2x4x45x16xf32>) -> tensor<2x4x45x16xf32>
  %_g60 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g52, %A_q : tensor<2x4x37x45xf32>, tensor<2x4x37x16xf32>) outs(%_f59 : tensor<2x4x45x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x45x16xf32>
  return %_g28, %_g56, %_g60, %_g32 : tensor<2x4x37x16xf32>, tensor<2x4x37x16xf32>, tensor<2x4x45x16xf32>, tensor<2x4x45x16xf32>
}

// -----

// CHECK-LABEL: func.func @chunked_where_ds_joint
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: linalg.generic
// CHECK: return
// EXEC: chunked_where_ds_joint: raised=yes
func.func @chunked_where_ds_joint(%A_q: tensor<2x4x41x16xf32>, %A_k: tensor<2x4x41x16xf32>, %A_v: tensor<2x4x41x16xf32>, %A_dout: tensor<2x4x41x16xf32>) -> (tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x41x41xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x41x41xf32>) -> tensor<2x4x41x41xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>) outs(%_f3 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e5 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x41x41xf32>) outs(%_e5 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e7 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<2x4x41x41xf32>) outs(%_e7 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c8 = arith.constant 8 : index
    %ib = arith.divui %i, %c8 : index
    %jb = arith.divui %j, %c8 : index
    %keep = arith.cmpi eq, %ib, %jb : index
    %mn = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e9 = tensor.empty() : tensor<2x4x41x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<2x4x41x1xf32>) -> tensor<2x4x41x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x4x41x41xf32>) outs(%_f11 : tensor<2x4x41x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x1xf32>
  %_e13 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g12 : tensor<2x4x41x41xf32>, tensor<2x4x41x1xf32>) outs(%_e13 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e15 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14 : tensor<2x4x41x41xf32>) outs(%_e15 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e17 = tensor.empty() : tensor<2x4x41x1xf32>
  %_c18 = arith.constant 0.0 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<2x4x41x1xf32>) -> tensor<2x4x41x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<2x4x41x41xf32>) outs(%_f19 : tensor<2x4x41x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x1xf32>
  %_e21 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<2x4x41x41xf32>, tensor<2x4x41x1xf32>) outs(%_e21 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e23 = tensor.empty() : tensor<2x4x41x16xf32>
  %_c24 = arith.constant 0.0 : f32
  %_f25 = linalg.fill ins(%_c24 : f32) outs(%_e23 : tensor<2x4x41x16xf32>) -> tensor<2x4x41x16xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_v : tensor<2x4x41x41xf32>, tensor<2x4x41x16xf32>) outs(%_f25 : tensor<2x4x41x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x16xf32>
  %_e27 = tensor.empty() : tensor<2x4x41x16xf32>
  %_c28 = arith.constant 0.0 : f32
  %_f29 = linalg.fill ins(%_c28 : f32) outs(%_e27 : tensor<2x4x41x16xf32>) -> tensor<2x4x41x16xf32>
  %_g30 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_dout : tensor<2x4x41x41xf32>, tensor<2x4x41x16xf32>) outs(%_f29 : tensor<2x4x41x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x16xf32>
  %_e31 = tensor.empty() : tensor<2x4x41x41xf32>
  %_c32 = arith.constant 0.0 : f32
  %_f33 = linalg.fill ins(%_c32 : f32) outs(%_e31 : tensor<2x4x41x41xf32>) -> tensor<2x4x41x41xf32>
  %_g34 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_dout, %A_v : tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>) outs(%_f33 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e35 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g36 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g34, %_g22 : tensor<2x4x41x41xf32>, tensor<2x4x41x41xf32>) outs(%_e35 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e37 = tensor.empty() : tensor<2x4x41x1xf32>
  %_c38 = arith.constant 0.0 : f32
  %_f39 = linalg.fill ins(%_c38 : f32) outs(%_e37 : tensor<2x4x41x1xf32>) -> tensor<2x4x41x1xf32>
  %_g40 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g36 : tensor<2x4x41x41xf32>) outs(%_f39 : tensor<2x4x41x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x1xf32>
  %_e41 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g42 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g34, %_g40 : tensor<2x4x41x41xf32>, tensor<2x4x41x1xf32>) outs(%_e41 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e43 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g44 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g42, %_g22 : tensor<2x4x41x41xf32>, tensor<2x4x41x41xf32>) outs(%_e43 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e45 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g46 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g44 : tensor<2x4x41x41xf32>) outs(%_e45 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c8 = arith.constant 8 : index
    %ib = arith.divui %i, %c8 : index
    %jb = arith.divui %j, %c8 : index
    %keep = arith.cmpi eq, %ib, %jb : index
    %z = arith.constant 0.0 : f32
    %r = arith.select %keep, %a0, %z : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e47 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g48 = linalg.generic {indexing_maps = [affine_map<(b, h, n, d) -> (b, h, n, d)>, affine_map<(b, h, n, d) -> (b, h, n, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g46 : tensor<2x4x41x41xf32>) outs(%_e47 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e49 = tensor.empty() : tensor<2x4x41x16xf32>
  %_c50 = arith.constant 0.0 : f32
  %_f51 = linalg.fill ins(%_c50 : f32) outs(%_e49 : tensor<2x4x41x16xf32>) -> tensor<2x4x41x16xf32>
  %_g52 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g48, %A_k : tensor<2x4x41x41xf32>, tensor<2x4x41x16xf32>) outs(%_f51 : tensor<2x4x41x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x16xf32>
  %_e53 = tensor.empty() : tensor<2x4x41x16xf32>
  %_c54 = arith.constant 0.0 : f32
  %_f55 = linalg.fill ins(%_c54 : f32) outs(%_e53 : tensor<2x4x41x16xf32>) -> tensor<2x4x41x16xf32>
  %_g56 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g48, %A_q : tensor<2x4x41x41xf32>, tensor<2x4x41x16xf32>) outs(%_f55 : tensor<2x4x41x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x16xf32>
  return %_g26, %_g52, %_g56, %_g30 : tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>
}

// -----

// CHECK-LABEL: func.func @chunked_causal_where_ds_joint
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: linalg.generic
// CHECK: return
// EXEC: chunked_causal_where_ds_joint: raised=yes
func.func @chunked_causal_where_ds_joint(%A_q: tensor<2x4x41x16xf32>, %A_k: tensor<2x4x41x16xf32>, %A_v: tensor<2x4x41x16xf32>, %A_dout: tensor<2x4x41x16xf32>) -> (tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x41x41xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x41x41xf32>) -> tensor<2x4x41x41xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>) outs(%_f3 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e5 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x41x41xf32>) outs(%_e5 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e7 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<2x4x41x41xf32>) outs(%_e7 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c8 = arith.constant 8 : index
    %ib = arith.divui %i, %c8 : index
    %jb = arith.divui %j, %c8 : index
    %e = arith.cmpi eq, %ib, %jb : index
    %cz = arith.cmpi ule, %j, %i : index
    %keep = arith.andi %e, %cz : i1
    %mn = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e9 = tensor.empty() : tensor<2x4x41x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<2x4x41x1xf32>) -> tensor<2x4x41x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x4x41x41xf32>) outs(%_f11 : tensor<2x4x41x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x1xf32>
  %_e13 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g12 : tensor<2x4x41x41xf32>, tensor<2x4x41x1xf32>) outs(%_e13 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e15 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14 : tensor<2x4x41x41xf32>) outs(%_e15 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e17 = tensor.empty() : tensor<2x4x41x1xf32>
  %_c18 = arith.constant 0.0 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<2x4x41x1xf32>) -> tensor<2x4x41x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<2x4x41x41xf32>) outs(%_f19 : tensor<2x4x41x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x1xf32>
  %_e21 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<2x4x41x41xf32>, tensor<2x4x41x1xf32>) outs(%_e21 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e23 = tensor.empty() : tensor<2x4x41x16xf32>
  %_c24 = arith.constant 0.0 : f32
  %_f25 = linalg.fill ins(%_c24 : f32) outs(%_e23 : tensor<2x4x41x16xf32>) -> tensor<2x4x41x16xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_v : tensor<2x4x41x41xf32>, tensor<2x4x41x16xf32>) outs(%_f25 : tensor<2x4x41x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x16xf32>
  %_e27 = tensor.empty() : tensor<2x4x41x16xf32>
  %_c28 = arith.constant 0.0 : f32
  %_f29 = linalg.fill ins(%_c28 : f32) outs(%_e27 : tensor<2x4x41x16xf32>) -> tensor<2x4x41x16xf32>
  %_g30 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_dout : tensor<2x4x41x41xf32>, tensor<2x4x41x16xf32>) outs(%_f29 : tensor<2x4x41x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x16xf32>
  %_e31 = tensor.empty() : tensor<2x4x41x41xf32>
  %_c32 = arith.constant 0.0 : f32
  %_f33 = linalg.fill ins(%_c32 : f32) outs(%_e31 : tensor<2x4x41x41xf32>) -> tensor<2x4x41x41xf32>
  %_g34 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_dout, %A_v : tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>) outs(%_f33 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e35 = tensor.empty() : tensor<2x4x41xf32>
  %_c36 = arith.constant 0.0 : f32
  %_f37 = linalg.fill ins(%_c36 : f32) outs(%_e35 : tensor<2x4x41xf32>) -> tensor<2x4x41xf32>
  %_g38 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d) -> (b, h, i, d)>, affine_map<(b, h, i, d) -> (b, h, i, d)>, affine_map<(b, h, i, d) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%A_dout, %_g26 : tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>) outs(%_f37 : tensor<2x4x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41xf32>
  %_e39 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g40 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g22, %_g34, %_g38 : tensor<2x4x41x41xf32>, tensor<2x4x41x41xf32>, tensor<2x4x41xf32>) outs(%_e39 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
    %d = arith.subf %a1, %a2 : f32
    %r = arith.mulf %a0, %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e41 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g42 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g40 : tensor<2x4x41x41xf32>) outs(%_e41 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c8 = arith.constant 8 : index
    %ib = arith.divui %i, %c8 : index
    %jb = arith.divui %j, %c8 : index
    %e = arith.cmpi eq, %ib, %jb : index
    %cz = arith.cmpi ule, %j, %i : index
    %keep = arith.andi %e, %cz : i1
    %z = arith.constant 0.0 : f32
    %r = arith.select %keep, %a0, %z : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e43 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g44 = linalg.generic {indexing_maps = [affine_map<(b, h, n, d) -> (b, h, n, d)>, affine_map<(b, h, n, d) -> (b, h, n, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g42 : tensor<2x4x41x41xf32>) outs(%_e43 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e45 = tensor.empty() : tensor<2x4x41x16xf32>
  %_c46 = arith.constant 0.0 : f32
  %_f47 = linalg.fill ins(%_c46 : f32) outs(%_e45 : tensor<2x4x41x16xf32>) -> tensor<2x4x41x16xf32>
  %_g48 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g44, %A_k : tensor<2x4x41x41xf32>, tensor<2x4x41x16xf32>) outs(%_f47 : tensor<2x4x41x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x16xf32>
  %_e49 = tensor.empty() : tensor<2x4x41x16xf32>
  %_c50 = arith.constant 0.0 : f32
  %_f51 = linalg.fill ins(%_c50 : f32) outs(%_e49 : tensor<2x4x41x16xf32>) -> tensor<2x4x41x16xf32>
  %_g52 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g44, %A_q : tensor<2x4x41x41xf32>, tensor<2x4x41x16xf32>) outs(%_f51 : tensor<2x4x41x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x16xf32>
  return %_g26, %_g48, %_g52, %_g30 : tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>
}

// -----

// CHECK-LABEL: func.func @negative_chunked_where_ds_other_chunks
// CHECK-NOT: flash.attention
// CHECK: return
// REMARK: remark: attention not raised: the probabilities feed
func.func @negative_chunked_where_ds_other_chunks(%A_q: tensor<2x4x41x16xf32>, %A_k: tensor<2x4x41x16xf32>, %A_v: tensor<2x4x41x16xf32>, %A_dout: tensor<2x4x41x16xf32>) -> (tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>) {
  %_e1 = tensor.empty() : tensor<2x4x41x41xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<2x4x41x41xf32>) -> tensor<2x4x41x41xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>) outs(%_f3 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e5 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<2x4x41x41xf32>) outs(%_e5 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e7 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<2x4x41x41xf32>) outs(%_e7 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c8 = arith.constant 8 : index
    %ib = arith.divui %i, %c8 : index
    %jb = arith.divui %j, %c8 : index
    %keep = arith.cmpi eq, %ib, %jb : index
    %mn = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e9 = tensor.empty() : tensor<2x4x41x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<2x4x41x1xf32>) -> tensor<2x4x41x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<2x4x41x41xf32>) outs(%_f11 : tensor<2x4x41x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x1xf32>
  %_e13 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g12 : tensor<2x4x41x41xf32>, tensor<2x4x41x1xf32>) outs(%_e13 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e15 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14 : tensor<2x4x41x41xf32>) outs(%_e15 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e17 = tensor.empty() : tensor<2x4x41x1xf32>
  %_c18 = arith.constant 0.0 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<2x4x41x1xf32>) -> tensor<2x4x41x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<2x4x41x41xf32>) outs(%_f19 : tensor<2x4x41x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x1xf32>
  %_e21 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<2x4x41x41xf32>, tensor<2x4x41x1xf32>) outs(%_e21 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e23 = tensor.empty() : tensor<2x4x41x16xf32>
  %_c24 = arith.constant 0.0 : f32
  %_f25 = linalg.fill ins(%_c24 : f32) outs(%_e23 : tensor<2x4x41x16xf32>) -> tensor<2x4x41x16xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_v : tensor<2x4x41x41xf32>, tensor<2x4x41x16xf32>) outs(%_f25 : tensor<2x4x41x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x16xf32>
  %_e27 = tensor.empty() : tensor<2x4x41x16xf32>
  %_c28 = arith.constant 0.0 : f32
  %_f29 = linalg.fill ins(%_c28 : f32) outs(%_e27 : tensor<2x4x41x16xf32>) -> tensor<2x4x41x16xf32>
  %_g30 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_dout : tensor<2x4x41x41xf32>, tensor<2x4x41x16xf32>) outs(%_f29 : tensor<2x4x41x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x16xf32>
  %_e31 = tensor.empty() : tensor<2x4x41x41xf32>
  %_c32 = arith.constant 0.0 : f32
  %_f33 = linalg.fill ins(%_c32 : f32) outs(%_e31 : tensor<2x4x41x41xf32>) -> tensor<2x4x41x41xf32>
  %_g34 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_dout, %A_v : tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>) outs(%_f33 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e35 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g36 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g34, %_g22 : tensor<2x4x41x41xf32>, tensor<2x4x41x41xf32>) outs(%_e35 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e37 = tensor.empty() : tensor<2x4x41x1xf32>
  %_c38 = arith.constant 0.0 : f32
  %_f39 = linalg.fill ins(%_c38 : f32) outs(%_e37 : tensor<2x4x41x1xf32>) -> tensor<2x4x41x1xf32>
  %_g40 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g36 : tensor<2x4x41x41xf32>) outs(%_f39 : tensor<2x4x41x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x1xf32>
  %_e41 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g42 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g34, %_g40 : tensor<2x4x41x41xf32>, tensor<2x4x41x1xf32>) outs(%_e41 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e43 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g44 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g42, %_g22 : tensor<2x4x41x41xf32>, tensor<2x4x41x41xf32>) outs(%_e43 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e45 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g46 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g44 : tensor<2x4x41x41xf32>) outs(%_e45 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c8 = arith.constant 4 : index
    %ib = arith.divui %i, %c8 : index
    %jb = arith.divui %j, %c8 : index
    %keep = arith.cmpi eq, %ib, %jb : index
    %z = arith.constant 0.0 : f32
    %r = arith.select %keep, %a0, %z : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e47 = tensor.empty() : tensor<2x4x41x41xf32>
  %_g48 = linalg.generic {indexing_maps = [affine_map<(b, h, n, d) -> (b, h, n, d)>, affine_map<(b, h, n, d) -> (b, h, n, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g46 : tensor<2x4x41x41xf32>) outs(%_e47 : tensor<2x4x41x41xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.25 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x41xf32>
  %_e49 = tensor.empty() : tensor<2x4x41x16xf32>
  %_c50 = arith.constant 0.0 : f32
  %_f51 = linalg.fill ins(%_c50 : f32) outs(%_e49 : tensor<2x4x41x16xf32>) -> tensor<2x4x41x16xf32>
  %_g52 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g48, %A_k : tensor<2x4x41x41xf32>, tensor<2x4x41x16xf32>) outs(%_f51 : tensor<2x4x41x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x16xf32>
  %_e53 = tensor.empty() : tensor<2x4x41x16xf32>
  %_c54 = arith.constant 0.0 : f32
  %_f55 = linalg.fill ins(%_c54 : f32) outs(%_e53 : tensor<2x4x41x16xf32>) -> tensor<2x4x41x16xf32>
  %_g56 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g48, %A_q : tensor<2x4x41x41xf32>, tensor<2x4x41x16xf32>) outs(%_f55 : tensor<2x4x41x16xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x41x16xf32>
  return %_g26, %_g52, %_g56, %_g30 : tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>, tensor<2x4x41x16xf32>
}
