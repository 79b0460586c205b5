// Spellings found in session 44: a soft-cap's backward in a joint graph
// written with 1 / cosh(s / c)^2 (sech^2, which equals the derivative
// rule's 1 - tanh^2), as powf(cosh, -2) or as two divisions by cosh (dS /
// cosh, sech and not its square, is not the derivative: raise-remarks.mlir
// has it refused); P*V accumulated into a tensor that is not zero; the
// attention's output times a constant; joint graphs whose finite fill may
// leave rows without keys.
// RUN: flash-opt %s --split-input-file --flash-raise-attention | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// CHECK-LABEL: func.func @capb_sech2_powneg2
// CHECK: flash.attention
// CHECK-SAME: score_mod
// CHECK: flash.attention_grad
// CHECK-SAME: score_mod
// EXEC: capb_sech2_powneg2: raised=yes
func.func @capb_sech2_powneg2(%A_q: tensor<1x2x19x8xf32>, %A_k: tensor<1x2x19x8xf32>, %A_v: tensor<1x2x19x8xf32>, %A_dout: tensor<1x2x19x8xf32>) -> (tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>) {
  %_e1 = tensor.empty() : tensor<1x2x19x19xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<1x2x19x19xf32>) -> tensor<1x2x19x19xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>) outs(%_f3 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e5 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<1x2x19x19xf32>) outs(%_e5 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e7 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<1x2x19x19xf32>) outs(%_e7 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 3.0 : f32
    %x = arith.divf %a0, %c : f32
    %t = math.tanh %x : f32
    %r = arith.mulf %c, %t : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e9 = tensor.empty() : tensor<1x2x19x19xf32>
  %_sm10 = linalg.softmax dimension(3) ins(%_g8 : tensor<1x2x19x19xf32>) outs(%_e9 : tensor<1x2x19x19xf32>) -> tensor<1x2x19x19xf32>
  %_e11 = tensor.empty() : tensor<1x2x19x8xf32>
  %_c12 = arith.constant 0.0 : f32
  %_f13 = linalg.fill ins(%_c12 : f32) outs(%_e11 : tensor<1x2x19x8xf32>) -> tensor<1x2x19x8xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_sm10, %A_v : tensor<1x2x19x19xf32>, tensor<1x2x19x8xf32>) outs(%_f13 : tensor<1x2x19x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x8xf32>
  %_e15 = tensor.empty() : tensor<1x2x19x8xf32>
  %_c16 = arith.constant 0.0 : f32
  %_f17 = linalg.fill ins(%_c16 : f32) outs(%_e15 : tensor<1x2x19x8xf32>) -> tensor<1x2x19x8xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_sm10, %A_dout : tensor<1x2x19x19xf32>, tensor<1x2x19x8xf32>) outs(%_f17 : tensor<1x2x19x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x8xf32>
  %_e19 = tensor.empty() : tensor<1x2x19x19xf32>
  %_c20 = arith.constant 0.0 : f32
  %_f21 = linalg.fill ins(%_c20 : f32) outs(%_e19 : tensor<1x2x19x19xf32>) -> tensor<1x2x19x19xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_dout, %A_v : tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>) outs(%_f21 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e23 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g22, %_sm10 : tensor<1x2x19x19xf32>, tensor<1x2x19x19xf32>) outs(%_e23 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e25 = tensor.empty() : tensor<1x2x19x1xf32>
  %_c26 = arith.constant 0.0 : f32
  %_f27 = linalg.fill ins(%_c26 : f32) outs(%_e25 : tensor<1x2x19x1xf32>) -> tensor<1x2x19x1xf32>
  %_g28 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g24 : tensor<1x2x19x19xf32>) outs(%_f27 : tensor<1x2x19x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x1xf32>
  %_e29 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g30 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g22, %_g28 : tensor<1x2x19x19xf32>, tensor<1x2x19x1xf32>) outs(%_e29 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e31 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g30, %_sm10 : tensor<1x2x19x19xf32>, tensor<1x2x19x19xf32>) outs(%_e31 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e33 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g34 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<1x2x19x19xf32>) outs(%_e33 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 3.0 : f32
    %x = arith.divf %a0, %c : f32
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<1x2x19x19xf32>
  %_e35 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g36 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g32, %_g6 : tensor<1x2x19x19xf32>, tensor<1x2x19x19xf32>) outs(%_e35 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %c = arith.constant 3.0 : f32
    %x = arith.divf %a1, %c : f32
    %ch = math.cosh %x : f32
    %m2 = arith.constant -2.0 : f32
    %c2 = math.powf %ch, %m2 : f32
    %r = arith.mulf %a0, %c2 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e37 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g38 = linalg.generic {indexing_maps = [affine_map<(b, h, n, d) -> (b, h, n, d)>, affine_map<(b, h, n, d) -> (b, h, n, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g36 : tensor<1x2x19x19xf32>) outs(%_e37 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e39 = tensor.empty() : tensor<1x2x19x8xf32>
  %_c40 = arith.constant 0.0 : f32
  %_f41 = linalg.fill ins(%_c40 : f32) outs(%_e39 : tensor<1x2x19x8xf32>) -> tensor<1x2x19x8xf32>
  %_g42 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g38, %A_k : tensor<1x2x19x19xf32>, tensor<1x2x19x8xf32>) outs(%_f41 : tensor<1x2x19x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x8xf32>
  %_e43 = tensor.empty() : tensor<1x2x19x8xf32>
  %_c44 = arith.constant 0.0 : f32
  %_f45 = linalg.fill ins(%_c44 : f32) outs(%_e43 : tensor<1x2x19x8xf32>) -> tensor<1x2x19x8xf32>
  %_g46 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g38, %A_q : tensor<1x2x19x19xf32>, tensor<1x2x19x8xf32>) outs(%_f45 : tensor<1x2x19x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x8xf32>
  return %_g14, %_g42, %_g46, %_g18 : tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>
}

// -----

// CHECK-LABEL: func.func @capb_sech2_twodiv
// CHECK: flash.attention
// CHECK-SAME: score_mod
// CHECK: flash.attention_grad
// CHECK-SAME: score_mod
// EXEC: capb_sech2_twodiv: raised=yes
func.func @capb_sech2_twodiv(%A_q: tensor<1x2x19x8xf32>, %A_k: tensor<1x2x19x8xf32>, %A_v: tensor<1x2x19x8xf32>, %A_dout: tensor<1x2x19x8xf32>) -> (tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>) {
  %_e1 = tensor.empty() : tensor<1x2x19x19xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<1x2x19x19xf32>) -> tensor<1x2x19x19xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>) outs(%_f3 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e5 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<1x2x19x19xf32>) outs(%_e5 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e7 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<1x2x19x19xf32>) outs(%_e7 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 3.0 : f32
    %x = arith.divf %a0, %c : f32
    %t = math.tanh %x : f32
    %r = arith.mulf %c, %t : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e9 = tensor.empty() : tensor<1x2x19x19xf32>
  %_sm10 = linalg.softmax dimension(3) ins(%_g8 : tensor<1x2x19x19xf32>) outs(%_e9 : tensor<1x2x19x19xf32>) -> tensor<1x2x19x19xf32>
  %_e11 = tensor.empty() : tensor<1x2x19x8xf32>
  %_c12 = arith.constant 0.0 : f32
  %_f13 = linalg.fill ins(%_c12 : f32) outs(%_e11 : tensor<1x2x19x8xf32>) -> tensor<1x2x19x8xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_sm10, %A_v : tensor<1x2x19x19xf32>, tensor<1x2x19x8xf32>) outs(%_f13 : tensor<1x2x19x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x8xf32>
  %_e15 = tensor.empty() : tensor<1x2x19x8xf32>
  %_c16 = arith.constant 0.0 : f32
  %_f17 = linalg.fill ins(%_c16 : f32) outs(%_e15 : tensor<1x2x19x8xf32>) -> tensor<1x2x19x8xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_sm10, %A_dout : tensor<1x2x19x19xf32>, tensor<1x2x19x8xf32>) outs(%_f17 : tensor<1x2x19x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x8xf32>
  %_e19 = tensor.empty() : tensor<1x2x19x19xf32>
  %_c20 = arith.constant 0.0 : f32
  %_f21 = linalg.fill ins(%_c20 : f32) outs(%_e19 : tensor<1x2x19x19xf32>) -> tensor<1x2x19x19xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_dout, %A_v : tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>) outs(%_f21 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e23 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g22, %_sm10 : tensor<1x2x19x19xf32>, tensor<1x2x19x19xf32>) outs(%_e23 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e25 = tensor.empty() : tensor<1x2x19x1xf32>
  %_c26 = arith.constant 0.0 : f32
  %_f27 = linalg.fill ins(%_c26 : f32) outs(%_e25 : tensor<1x2x19x1xf32>) -> tensor<1x2x19x1xf32>
  %_g28 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g24 : tensor<1x2x19x19xf32>) outs(%_f27 : tensor<1x2x19x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x1xf32>
  %_e29 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g30 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g22, %_g28 : tensor<1x2x19x19xf32>, tensor<1x2x19x1xf32>) outs(%_e29 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e31 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g30, %_sm10 : tensor<1x2x19x19xf32>, tensor<1x2x19x19xf32>) outs(%_e31 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e33 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g34 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<1x2x19x19xf32>) outs(%_e33 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 3.0 : f32
    %x = arith.divf %a0, %c : f32
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<1x2x19x19xf32>
  %_e35 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g36 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g32, %_g6 : tensor<1x2x19x19xf32>, tensor<1x2x19x19xf32>) outs(%_e35 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %c = arith.constant 3.0 : f32
    %x = arith.divf %a1, %c : f32
    %ch = math.cosh %x : f32
    %r0 = arith.divf %a0, %ch : f32
    %r = arith.divf %r0, %ch : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e37 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g38 = linalg.generic {indexing_maps = [affine_map<(b, h, n, d) -> (b, h, n, d)>, affine_map<(b, h, n, d) -> (b, h, n, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g36 : tensor<1x2x19x19xf32>) outs(%_e37 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e39 = tensor.empty() : tensor<1x2x19x8xf32>
  %_c40 = arith.constant 0.0 : f32
  %_f41 = linalg.fill ins(%_c40 : f32) outs(%_e39 : tensor<1x2x19x8xf32>) -> tensor<1x2x19x8xf32>
  %_g42 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g38, %A_k : tensor<1x2x19x19xf32>, tensor<1x2x19x8xf32>) outs(%_f41 : tensor<1x2x19x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x8xf32>
  %_e43 = tensor.empty() : tensor<1x2x19x8xf32>
  %_c44 = arith.constant 0.0 : f32
  %_f45 = linalg.fill ins(%_c44 : f32) outs(%_e43 : tensor<1x2x19x8xf32>) -> tensor<1x2x19x8xf32>
  %_g46 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g38, %A_q : tensor<1x2x19x19xf32>, tensor<1x2x19x8xf32>) outs(%_f45 : tensor<1x2x19x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x8xf32>
  return %_g14, %_g42, %_g46, %_g18 : tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>
}

// -----

// P*V accumulated into a tensor that is not zero (o = x + P V: a residual
// add fused into the product's init, torch.baddbmm, an init of ones): the
// attention, then the init added where the product was.
// CHECK-LABEL: func.func @pv_accumulates_residual
// CHECK: %[[O:.*]] = flash.attention
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[O]]
// CHECK: arith.addf
// EXEC: pv_accumulates_residual: raised=yes
func.func @pv_accumulates_residual(%q: tensor<13x6xf32>, %k: tensor<17x6xf32>, %v: tensor<17x6xf32>, %x: tensor<13x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q, %k : tensor<13x6xf32>, tensor<17x6xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%x : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// CHECK-LABEL: func.func @pv_accumulates_into_argument
// CHECK: %[[O:.*]] = flash.attention
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[O]]
// CHECK: arith.addf
// EXEC: pv_accumulates_into_argument: raised=yes
func.func @pv_accumulates_into_argument(%q: tensor<37x24xf32>, %k: tensor<45x24xf32>,
                                                 %v: tensor<45x20xf32>, %acc: tensor<37x20xf32>) -> tensor<37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<37x24xf32>, tensor<45x24xf32>)
      outs(%z0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x20xf32>) outs(%acc : tensor<37x20xf32>) -> tensor<37x20xf32>
  return %o : tensor<37x20xf32>
}

// -----

// CHECK-LABEL: func.func @pv_init_filled_with_one
// CHECK: %[[O:.*]] = flash.attention
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[O]]
// CHECK: arith.addf
// EXEC: pv_init_filled_with_one: raised=yes
func.func @pv_init_filled_with_one(%q: tensor<2x37x24xf32>, %k: tensor<2x45x24xf32>,
                                            %v: tensor<2x45x20xf32>) -> tensor<2x37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<2x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>,
                                        affine_map<(b, i, j, d) -> (b, j, d)>,
                                        affine_map<(b, i, j, d) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x37x24xf32>, tensor<2x45x24xf32>) outs(%z0 : tensor<2x37x45xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x37x45xf32>
  %e1 = tensor.empty() : tensor<2x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x37x45xf32>) outs(%e1 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %e3 = tensor.empty() : tensor<2x37x20xf32>
  %o3 = linalg.fill ins(%one : f32) outs(%e3 : tensor<2x37x20xf32>) -> tensor<2x37x20xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, i, e, j) -> (b, i, j)>,
                                        affine_map<(b, i, e, j) -> (b, j, e)>,
                                        affine_map<(b, i, e, j) -> (b, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x37x45xf32>, tensor<2x45x20xf32>) outs(%o3 : tensor<2x37x20xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x37x20xf32>
  return %o : tensor<2x37x20xf32>
}

// -----

// The attention's output times a constant (here 1/sqrt(D) applied to the
// probabilities instead of the scores; V scaled, an eval-mode dropout's
// factor): the op with scale 1, its output multiplied by the constant in
// f32.
// CHECK-LABEL: func.func @scale_after_softmax
// CHECK: %[[O:.*]] = flash.attention
// CHECK-SAME: scale = 1.0
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[O]]
// CHECK: arith.constant 0.408248
// CHECK: arith.mulf
// EXEC: scale_after_softmax: raised=yes
func.func @scale_after_softmax(%q: tensor<13x6xf32>, %k: tensor<17x6xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q, %k : tensor<13x6xf32>, tensor<17x6xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %pd = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.408248305 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%pd, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// Joint graphs whose mask selects a finite fill (finfo.min) and may leave
// rows without keys: the forward's rows get V's average (as in a forward
// alone), and dV gets (1 / Nk) times those rows' dO on every key (the
// program's P there is uniform; its dS is zero: the fill's select takes
// the gradient). An added fill's backward does not re-mask dS
// (raise-remarks.mlir has it refused).
// causal with offset -3 under finfo.min: rows 0-2 have no key.
// CHECK-LABEL: func.func @joint_empty_rows_causal_neg_offset_fmin_bwd
// CHECK: %{{.*}}, %[[LSE:.*]] = flash.attention
// CHECK: %{{.*}}, %{{.*}}, %[[DV:.*]] = flash.attention_grad
// CHECK: arith.cmpf oeq
// CHECK: linalg.generic {{.*}} ins(%[[DV]]
// CHECK: scf.if
// EXEC: joint_empty_rows_causal_neg_offset_fmin_bwd: raised=yes
func.func @joint_empty_rows_causal_neg_offset_fmin_bwd(%A_q: tensor<1x2x19x8xf32>, %A_k: tensor<1x2x19x8xf32>, %A_v: tensor<1x2x19x8xf32>, %A_dout: tensor<1x2x19x8xf32>) -> (tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>) {
  %_e1 = tensor.empty() : tensor<1x2x19x19xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<1x2x19x19xf32>) -> tensor<1x2x19x19xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>) outs(%_f3 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e5 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<1x2x19x19xf32>) outs(%_e5 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e7 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6 : tensor<1x2x19x19xf32>) outs(%_e7 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %off = arith.constant -3 : i64
    %ip = arith.addi %ic, %off : i64
    %keep = arith.cmpi sle, %jc, %ip : i64
    %mn = arith.constant -3.40282347E+38 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e9 = tensor.empty() : tensor<1x2x19x1xf32>
  %_c10 = arith.constant 0xFF800000 : f32
  %_f11 = linalg.fill ins(%_c10 : f32) outs(%_e9 : tensor<1x2x19x1xf32>) -> tensor<1x2x19x1xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g8 : tensor<1x2x19x19xf32>) outs(%_f11 : tensor<1x2x19x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x1xf32>
  %_e13 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g8, %_g12 : tensor<1x2x19x19xf32>, tensor<1x2x19x1xf32>) outs(%_e13 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e15 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14 : tensor<1x2x19x19xf32>) outs(%_e15 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e17 = tensor.empty() : tensor<1x2x19x1xf32>
  %_c18 = arith.constant 0.0 : f32
  %_f19 = linalg.fill ins(%_c18 : f32) outs(%_e17 : tensor<1x2x19x1xf32>) -> tensor<1x2x19x1xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g16 : tensor<1x2x19x19xf32>) outs(%_f19 : tensor<1x2x19x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x1xf32>
  %_e21 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g16, %_g20 : tensor<1x2x19x19xf32>, tensor<1x2x19x1xf32>) outs(%_e21 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e23 = tensor.empty() : tensor<1x2x19x8xf32>
  %_c24 = arith.constant 0.0 : f32
  %_f25 = linalg.fill ins(%_c24 : f32) outs(%_e23 : tensor<1x2x19x8xf32>) -> tensor<1x2x19x8xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_v : tensor<1x2x19x19xf32>, tensor<1x2x19x8xf32>) outs(%_f25 : tensor<1x2x19x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x8xf32>
  %_e27 = tensor.empty() : tensor<1x2x19x8xf32>
  %_c28 = arith.constant 0.0 : f32
  %_f29 = linalg.fill ins(%_c28 : f32) outs(%_e27 : tensor<1x2x19x8xf32>) -> tensor<1x2x19x8xf32>
  %_g30 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g22, %A_dout : tensor<1x2x19x19xf32>, tensor<1x2x19x8xf32>) outs(%_f29 : tensor<1x2x19x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x8xf32>
  %_e31 = tensor.empty() : tensor<1x2x19x19xf32>
  %_c32 = arith.constant 0.0 : f32
  %_f33 = linalg.fill ins(%_c32 : f32) outs(%_e31 : tensor<1x2x19x19xf32>) -> tensor<1x2x19x19xf32>
  %_g34 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_dout, %A_v : tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>) outs(%_f33 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e35 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g36 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g34, %_g22 : tensor<1x2x19x19xf32>, tensor<1x2x19x19xf32>) outs(%_e35 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e37 = tensor.empty() : tensor<1x2x19x1xf32>
  %_c38 = arith.constant 0.0 : f32
  %_f39 = linalg.fill ins(%_c38 : f32) outs(%_e37 : tensor<1x2x19x1xf32>) -> tensor<1x2x19x1xf32>
  %_g40 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g36 : tensor<1x2x19x19xf32>) outs(%_f39 : tensor<1x2x19x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x1xf32>
  %_e41 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g42 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g34, %_g40 : tensor<1x2x19x19xf32>, tensor<1x2x19x1xf32>) outs(%_e41 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e43 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g44 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g42, %_g22 : tensor<1x2x19x19xf32>, tensor<1x2x19x19xf32>) outs(%_e43 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e45 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g46 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g44 : tensor<1x2x19x19xf32>) outs(%_e45 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %off = arith.constant -3 : i64
    %ip = arith.addi %ic, %off : i64
    %keep = arith.cmpi sle, %jc, %ip : i64
    %z = arith.constant 0.0 : f32
    %r = arith.select %keep, %a0, %z : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e47 = tensor.empty() : tensor<1x2x19x19xf32>
  %_g48 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g46 : tensor<1x2x19x19xf32>) outs(%_e47 : tensor<1x2x19x19xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x19xf32>
  %_e49 = tensor.empty() : tensor<1x2x19x8xf32>
  %_c50 = arith.constant 0.0 : f32
  %_f51 = linalg.fill ins(%_c50 : f32) outs(%_e49 : tensor<1x2x19x8xf32>) -> tensor<1x2x19x8xf32>
  %_g52 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g48, %A_k : tensor<1x2x19x19xf32>, tensor<1x2x19x8xf32>) outs(%_f51 : tensor<1x2x19x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x8xf32>
  %_e53 = tensor.empty() : tensor<1x2x19x8xf32>
  %_c54 = arith.constant 0.0 : f32
  %_f55 = linalg.fill ins(%_c54 : f32) outs(%_e53 : tensor<1x2x19x8xf32>) -> tensor<1x2x19x8xf32>
  %_g56 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g48, %A_q : tensor<1x2x19x19xf32>, tensor<1x2x19x8xf32>) outs(%_f55 : tensor<1x2x19x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x19x8xf32>
  return %_g26, %_g52, %_g56, %_g30 : tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>, tensor<1x2x19x8xf32>
}

// -----

// the same with one kv head (MQA): the kv head sums every query head's rows.
// CHECK-LABEL: func.func @joint_empty_rows_causal_neg_offset_fmin_mqa_bwd
// CHECK: %{{.*}}, %[[LSE:.*]] = flash.attention
// CHECK: %{{.*}}, %{{.*}}, %[[DV:.*]] = flash.attention_grad
// CHECK: arith.cmpf oeq
// CHECK: linalg.generic {{.*}} ins(%[[DV]]
// CHECK: scf.if
// EXEC: joint_empty_rows_causal_neg_offset_fmin_mqa_bwd: raised=yes
func.func @joint_empty_rows_causal_neg_offset_fmin_mqa_bwd(%A_q: tensor<1x3x17x8xf32>, %A_k: tensor<1x1x17x8xf32>, %A_v: tensor<1x1x17x8xf32>, %A_dout: tensor<1x3x17x8xf32>) -> (tensor<1x3x17x8xf32>, tensor<1x3x17x8xf32>, tensor<1x1x17x8xf32>, tensor<1x1x17x8xf32>) {
  %_e1 = tensor.empty() : tensor<1x1x3x17x8xf32>
  %_bc2 = linalg.broadcast ins(%A_k : tensor<1x1x17x8xf32>) outs(%_e1 : tensor<1x1x3x17x8xf32>) dimensions = [2]
  %_cl3 = tensor.collapse_shape %_bc2 [[0], [1, 2], [3], [4]] : tensor<1x1x3x17x8xf32> into tensor<1x3x17x8xf32>
  %_e4 = tensor.empty() : tensor<1x1x3x17x8xf32>
  %_bc5 = linalg.broadcast ins(%A_v : tensor<1x1x17x8xf32>) outs(%_e4 : tensor<1x1x3x17x8xf32>) dimensions = [2]
  %_cl6 = tensor.collapse_shape %_bc5 [[0], [1, 2], [3], [4]] : tensor<1x1x3x17x8xf32> into tensor<1x3x17x8xf32>
  %_e7 = tensor.empty() : tensor<1x3x17x17xf32>
  %_c8 = arith.constant 0.0 : f32
  %_f9 = linalg.fill ins(%_c8 : f32) outs(%_e7 : tensor<1x3x17x17xf32>) -> tensor<1x3x17x17xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %_cl3 : tensor<1x3x17x8xf32>, tensor<1x3x17x8xf32>) outs(%_f9 : tensor<1x3x17x17xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x17xf32>
  %_e11 = tensor.empty() : tensor<1x3x17x17xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g10 : tensor<1x3x17x17xf32>) outs(%_e11 : tensor<1x3x17x17xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x17xf32>
  %_e13 = tensor.empty() : tensor<1x3x17x17xf32>
  %_g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g12 : tensor<1x3x17x17xf32>) outs(%_e13 : tensor<1x3x17x17xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %off = arith.constant -2 : i64
    %ip = arith.addi %ic, %off : i64
    %keep = arith.cmpi sle, %jc, %ip : i64
    %mn = arith.constant -3.40282347E+38 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x17xf32>
  %_e15 = tensor.empty() : tensor<1x3x17x1xf32>
  %_c16 = arith.constant 0xFF800000 : f32
  %_f17 = linalg.fill ins(%_c16 : f32) outs(%_e15 : tensor<1x3x17x1xf32>) -> tensor<1x3x17x1xf32>
  %_g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g14 : tensor<1x3x17x17xf32>) outs(%_f17 : tensor<1x3x17x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x1xf32>
  %_e19 = tensor.empty() : tensor<1x3x17x17xf32>
  %_g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g14, %_g18 : tensor<1x3x17x17xf32>, tensor<1x3x17x1xf32>) outs(%_e19 : tensor<1x3x17x17xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x17xf32>
  %_e21 = tensor.empty() : tensor<1x3x17x17xf32>
  %_g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g20 : tensor<1x3x17x17xf32>) outs(%_e21 : tensor<1x3x17x17xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x17xf32>
  %_e23 = tensor.empty() : tensor<1x3x17x1xf32>
  %_c24 = arith.constant 0.0 : f32
  %_f25 = linalg.fill ins(%_c24 : f32) outs(%_e23 : tensor<1x3x17x1xf32>) -> tensor<1x3x17x1xf32>
  %_g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g22 : tensor<1x3x17x17xf32>) outs(%_f25 : tensor<1x3x17x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x1xf32>
  %_e27 = tensor.empty() : tensor<1x3x17x17xf32>
  %_g28 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g22, %_g26 : tensor<1x3x17x17xf32>, tensor<1x3x17x1xf32>) outs(%_e27 : tensor<1x3x17x17xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x17xf32>
  %_e29 = tensor.empty() : tensor<1x3x17x8xf32>
  %_c30 = arith.constant 0.0 : f32
  %_f31 = linalg.fill ins(%_c30 : f32) outs(%_e29 : tensor<1x3x17x8xf32>) -> tensor<1x3x17x8xf32>
  %_g32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g28, %_cl6 : tensor<1x3x17x17xf32>, tensor<1x3x17x8xf32>) outs(%_f31 : tensor<1x3x17x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x8xf32>
  %_e33 = tensor.empty() : tensor<1x3x17x8xf32>
  %_c34 = arith.constant 0.0 : f32
  %_f35 = linalg.fill ins(%_c34 : f32) outs(%_e33 : tensor<1x3x17x8xf32>) -> tensor<1x3x17x8xf32>
  %_g36 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g28, %A_dout : tensor<1x3x17x17xf32>, tensor<1x3x17x8xf32>) outs(%_f35 : tensor<1x3x17x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x8xf32>
  %_e37 = tensor.empty() : tensor<1x3x17x17xf32>
  %_c38 = arith.constant 0.0 : f32
  %_f39 = linalg.fill ins(%_c38 : f32) outs(%_e37 : tensor<1x3x17x17xf32>) -> tensor<1x3x17x17xf32>
  %_g40 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_dout, %_cl6 : tensor<1x3x17x8xf32>, tensor<1x3x17x8xf32>) outs(%_f39 : tensor<1x3x17x17xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x17xf32>
  %_e41 = tensor.empty() : tensor<1x3x17x17xf32>
  %_g42 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g40, %_g28 : tensor<1x3x17x17xf32>, tensor<1x3x17x17xf32>) outs(%_e41 : tensor<1x3x17x17xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x17xf32>
  %_e43 = tensor.empty() : tensor<1x3x17x1xf32>
  %_c44 = arith.constant 0.0 : f32
  %_f45 = linalg.fill ins(%_c44 : f32) outs(%_e43 : tensor<1x3x17x1xf32>) -> tensor<1x3x17x1xf32>
  %_g46 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g42 : tensor<1x3x17x17xf32>) outs(%_f45 : tensor<1x3x17x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x1xf32>
  %_e47 = tensor.empty() : tensor<1x3x17x17xf32>
  %_g48 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g40, %_g46 : tensor<1x3x17x17xf32>, tensor<1x3x17x1xf32>) outs(%_e47 : tensor<1x3x17x17xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x17xf32>
  %_e49 = tensor.empty() : tensor<1x3x17x17xf32>
  %_g50 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g48, %_g28 : tensor<1x3x17x17xf32>, tensor<1x3x17x17xf32>) outs(%_e49 : tensor<1x3x17x17xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x17xf32>
  %_e51 = tensor.empty() : tensor<1x3x17x17xf32>
  %_g52 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g50 : tensor<1x3x17x17xf32>) outs(%_e51 : tensor<1x3x17x17xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %off = arith.constant -2 : i64
    %ip = arith.addi %ic, %off : i64
    %keep = arith.cmpi sle, %jc, %ip : i64
    %z = arith.constant 0.0 : f32
    %r = arith.select %keep, %a0, %z : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x17xf32>
  %_e53 = tensor.empty() : tensor<1x3x17x17xf32>
  %_g54 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g52 : tensor<1x3x17x17xf32>) outs(%_e53 : tensor<1x3x17x17xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x17xf32>
  %_e55 = tensor.empty() : tensor<1x3x17x8xf32>
  %_c56 = arith.constant 0.0 : f32
  %_f57 = linalg.fill ins(%_c56 : f32) outs(%_e55 : tensor<1x3x17x8xf32>) -> tensor<1x3x17x8xf32>
  %_g58 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g54, %_cl3 : tensor<1x3x17x17xf32>, tensor<1x3x17x8xf32>) outs(%_f57 : tensor<1x3x17x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x8xf32>
  %_e59 = tensor.empty() : tensor<1x3x17x8xf32>
  %_c60 = arith.constant 0.0 : f32
  %_f61 = linalg.fill ins(%_c60 : f32) outs(%_e59 : tensor<1x3x17x8xf32>) -> tensor<1x3x17x8xf32>
  %_g62 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g54, %A_q : tensor<1x3x17x17xf32>, tensor<1x3x17x8xf32>) outs(%_f61 : tensor<1x3x17x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x3x17x8xf32>
  %_ex63 = tensor.expand_shape %_g62 [[0], [1, 2], [3], [4]] output_shape [1, 1, 3, 17, 8] : tensor<1x3x17x8xf32> into tensor<1x1x3x17x8xf32>
  %_e64 = tensor.empty() : tensor<1x1x17x8xf32>
  %_c65 = arith.constant 0.0 : f32
  %_f66 = linalg.fill ins(%_c65 : f32) outs(%_e64 : tensor<1x1x17x8xf32>) -> tensor<1x1x17x8xf32>
  %_rd67 = linalg.reduce ins(%_ex63 : tensor<1x1x3x17x8xf32>) outs(%_f66 : tensor<1x1x17x8xf32>) dimensions = [2] (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  %_ex68 = tensor.expand_shape %_g36 [[0], [1, 2], [3], [4]] output_shape [1, 1, 3, 17, 8] : tensor<1x3x17x8xf32> into tensor<1x1x3x17x8xf32>
  %_e69 = tensor.empty() : tensor<1x1x17x8xf32>
  %_c70 = arith.constant 0.0 : f32
  %_f71 = linalg.fill ins(%_c70 : f32) outs(%_e69 : tensor<1x1x17x8xf32>) -> tensor<1x1x17x8xf32>
  %_rd72 = linalg.reduce ins(%_ex68 : tensor<1x1x3x17x8xf32>) outs(%_f71 : tensor<1x1x17x8xf32>) dimensions = [2] (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  return %_g32, %_g58, %_rd67, %_rd72 : tensor<1x3x17x8xf32>, tensor<1x3x17x8xf32>, tensor<1x1x17x8xf32>, tensor<1x1x17x8xf32>
}

// -----

// left padding read from a length tensor, causal, GQA: batch 0's first 5 rows have no key.
// CHECK-LABEL: func.func @joint_empty_rows_leftpad_causal_fmin_gqa_bwd
// CHECK: %{{.*}}, %[[LSE:.*]] = flash.attention
// CHECK: %{{.*}}, %{{.*}}, %[[DV:.*]] = flash.attention_grad
// CHECK: arith.cmpf oeq
// CHECK: linalg.generic {{.*}} ins(%[[DV]]
// CHECK: scf.if
// EXEC: joint_empty_rows_leftpad_causal_fmin_gqa_bwd: raised=yes
func.func @joint_empty_rows_leftpad_causal_fmin_gqa_bwd(%A_q: tensor<2x4x20x8xf32>, %A_k: tensor<2x2x20x8xf32>, %A_v: tensor<2x2x20x8xf32>, %A_dout: tensor<2x4x20x8xf32>) -> (tensor<2x4x20x8xf32>, tensor<2x4x20x8xf32>, tensor<2x2x20x8xf32>, tensor<2x2x20x8xf32>) {
  %_e1 = tensor.empty() : tensor<2x2x2x20x8xf32>
  %_bc2 = linalg.broadcast ins(%A_k : tensor<2x2x20x8xf32>) outs(%_e1 : tensor<2x2x2x20x8xf32>) dimensions = [2]
  %_cl3 = tensor.collapse_shape %_bc2 [[0], [1, 2], [3], [4]] : tensor<2x2x2x20x8xf32> into tensor<2x4x20x8xf32>
  %_e4 = tensor.empty() : tensor<2x2x2x20x8xf32>
  %_bc5 = linalg.broadcast ins(%A_v : tensor<2x2x20x8xf32>) outs(%_e4 : tensor<2x2x2x20x8xf32>) dimensions = [2]
  %_cl6 = tensor.collapse_shape %_bc5 [[0], [1, 2], [3], [4]] : tensor<2x2x2x20x8xf32> into tensor<2x4x20x8xf32>
  %_e7 = tensor.empty() : tensor<2x4x20x20xf32>
  %_c8 = arith.constant 0.0 : f32
  %_f9 = linalg.fill ins(%_c8 : f32) outs(%_e7 : tensor<2x4x20x20xf32>) -> tensor<2x4x20x20xf32>
  %_g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %_cl3 : tensor<2x4x20x8xf32>, tensor<2x4x20x8xf32>) outs(%_f9 : tensor<2x4x20x20xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x20xf32>
  %_e11 = tensor.empty() : tensor<2x4x20x20xf32>
  %_g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g10 : tensor<2x4x20x20xf32>) outs(%_e11 : tensor<2x4x20x20xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x20xf32>
  %_len13 = arith.constant dense<[5, 0]> : tensor<2xi64>
  %_e14 = tensor.empty() : tensor<2x4x20x20xf32>
  %_g15 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g12, %_len13 : tensor<2x4x20x20xf32>, tensor<2xi64>) outs(%_e14 : tensor<2x4x20x20xf32>) {
  ^bb0(%a0: f32, %a1: i64, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %jc = arith.index_cast %j : index to i64
    %k1 = arith.cmpi sge, %jc, %a1 : i64
    %c = arith.cmpi ule, %j, %i : index
    %keep = arith.andi %k1, %c : i1
    %mn = arith.constant -3.40282347E+38 : f32
    %r = arith.select %keep, %a0, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x20xf32>
  %_e16 = tensor.empty() : tensor<2x4x20x1xf32>
  %_c17 = arith.constant 0xFF800000 : f32
  %_f18 = linalg.fill ins(%_c17 : f32) outs(%_e16 : tensor<2x4x20x1xf32>) -> tensor<2x4x20x1xf32>
  %_g19 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g15 : tensor<2x4x20x20xf32>) outs(%_f18 : tensor<2x4x20x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x1xf32>
  %_e20 = tensor.empty() : tensor<2x4x20x20xf32>
  %_g21 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g15, %_g19 : tensor<2x4x20x20xf32>, tensor<2x4x20x1xf32>) outs(%_e20 : tensor<2x4x20x20xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x20xf32>
  %_e22 = tensor.empty() : tensor<2x4x20x20xf32>
  %_g23 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g21 : tensor<2x4x20x20xf32>) outs(%_e22 : tensor<2x4x20x20xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x20xf32>
  %_e24 = tensor.empty() : tensor<2x4x20x1xf32>
  %_c25 = arith.constant 0.0 : f32
  %_f26 = linalg.fill ins(%_c25 : f32) outs(%_e24 : tensor<2x4x20x1xf32>) -> tensor<2x4x20x1xf32>
  %_g27 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g23 : tensor<2x4x20x20xf32>) outs(%_f26 : tensor<2x4x20x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x1xf32>
  %_e28 = tensor.empty() : tensor<2x4x20x20xf32>
  %_g29 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g23, %_g27 : tensor<2x4x20x20xf32>, tensor<2x4x20x1xf32>) outs(%_e28 : tensor<2x4x20x20xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x20xf32>
  %_e30 = tensor.empty() : tensor<2x4x20x8xf32>
  %_c31 = arith.constant 0.0 : f32
  %_f32 = linalg.fill ins(%_c31 : f32) outs(%_e30 : tensor<2x4x20x8xf32>) -> tensor<2x4x20x8xf32>
  %_g33 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g29, %_cl6 : tensor<2x4x20x20xf32>, tensor<2x4x20x8xf32>) outs(%_f32 : tensor<2x4x20x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x8xf32>
  %_e34 = tensor.empty() : tensor<2x4x20x8xf32>
  %_c35 = arith.constant 0.0 : f32
  %_f36 = linalg.fill ins(%_c35 : f32) outs(%_e34 : tensor<2x4x20x8xf32>) -> tensor<2x4x20x8xf32>
  %_g37 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g29, %A_dout : tensor<2x4x20x20xf32>, tensor<2x4x20x8xf32>) outs(%_f36 : tensor<2x4x20x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x8xf32>
  %_e38 = tensor.empty() : tensor<2x4x20x20xf32>
  %_c39 = arith.constant 0.0 : f32
  %_f40 = linalg.fill ins(%_c39 : f32) outs(%_e38 : tensor<2x4x20x20xf32>) -> tensor<2x4x20x20xf32>
  %_g41 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_dout, %_cl6 : tensor<2x4x20x8xf32>, tensor<2x4x20x8xf32>) outs(%_f40 : tensor<2x4x20x20xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x20xf32>
  %_e42 = tensor.empty() : tensor<2x4x20x20xf32>
  %_g43 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g41, %_g29 : tensor<2x4x20x20xf32>, tensor<2x4x20x20xf32>) outs(%_e42 : tensor<2x4x20x20xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x20xf32>
  %_e44 = tensor.empty() : tensor<2x4x20x1xf32>
  %_c45 = arith.constant 0.0 : f32
  %_f46 = linalg.fill ins(%_c45 : f32) outs(%_e44 : tensor<2x4x20x1xf32>) -> tensor<2x4x20x1xf32>
  %_g47 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g43 : tensor<2x4x20x20xf32>) outs(%_f46 : tensor<2x4x20x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x1xf32>
  %_e48 = tensor.empty() : tensor<2x4x20x20xf32>
  %_g49 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g41, %_g47 : tensor<2x4x20x20xf32>, tensor<2x4x20x1xf32>) outs(%_e48 : tensor<2x4x20x20xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x20xf32>
  %_e50 = tensor.empty() : tensor<2x4x20x20xf32>
  %_g51 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g49, %_g29 : tensor<2x4x20x20xf32>, tensor<2x4x20x20xf32>) outs(%_e50 : tensor<2x4x20x20xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x20xf32>
  %_e52 = tensor.empty() : tensor<2x4x20x20xf32>
  %_g53 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g51, %_len13 : tensor<2x4x20x20xf32>, tensor<2xi64>) outs(%_e52 : tensor<2x4x20x20xf32>) {
  ^bb0(%a0: f32, %a1: i64, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %jc = arith.index_cast %j : index to i64
    %k1 = arith.cmpi sge, %jc, %a1 : i64
    %c = arith.cmpi ule, %j, %i : index
    %keep = arith.andi %k1, %c : i1
    %z = arith.constant 0.0 : f32
    %r = arith.select %keep, %a0, %z : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x20xf32>
  %_e54 = tensor.empty() : tensor<2x4x20x20xf32>
  %_g55 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g53 : tensor<2x4x20x20xf32>) outs(%_e54 : tensor<2x4x20x20xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x20xf32>
  %_e56 = tensor.empty() : tensor<2x4x20x8xf32>
  %_c57 = arith.constant 0.0 : f32
  %_f58 = linalg.fill ins(%_c57 : f32) outs(%_e56 : tensor<2x4x20x8xf32>) -> tensor<2x4x20x8xf32>
  %_g59 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g55, %_cl3 : tensor<2x4x20x20xf32>, tensor<2x4x20x8xf32>) outs(%_f58 : tensor<2x4x20x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x8xf32>
  %_e60 = tensor.empty() : tensor<2x4x20x8xf32>
  %_c61 = arith.constant 0.0 : f32
  %_f62 = linalg.fill ins(%_c61 : f32) outs(%_e60 : tensor<2x4x20x8xf32>) -> tensor<2x4x20x8xf32>
  %_g63 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g55, %A_q : tensor<2x4x20x20xf32>, tensor<2x4x20x8xf32>) outs(%_f62 : tensor<2x4x20x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x20x8xf32>
  %_ex64 = tensor.expand_shape %_g63 [[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 20, 8] : tensor<2x4x20x8xf32> into tensor<2x2x2x20x8xf32>
  %_e65 = tensor.empty() : tensor<2x2x20x8xf32>
  %_c66 = arith.constant 0.0 : f32
  %_f67 = linalg.fill ins(%_c66 : f32) outs(%_e65 : tensor<2x2x20x8xf32>) -> tensor<2x2x20x8xf32>
  %_rd68 = linalg.reduce ins(%_ex64 : tensor<2x2x2x20x8xf32>) outs(%_f67 : tensor<2x2x20x8xf32>) dimensions = [2] (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  %_ex69 = tensor.expand_shape %_g37 [[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 20, 8] : tensor<2x4x20x8xf32> into tensor<2x2x2x20x8xf32>
  %_e70 = tensor.empty() : tensor<2x2x20x8xf32>
  %_c71 = arith.constant 0.0 : f32
  %_f72 = linalg.fill ins(%_c71 : f32) outs(%_e70 : tensor<2x2x20x8xf32>) -> tensor<2x2x20x8xf32>
  %_rd73 = linalg.reduce ins(%_ex69 : tensor<2x2x2x20x8xf32>) outs(%_f72 : tensor<2x2x20x8xf32>) dimensions = [2] (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  return %_g33, %_g59, %_rd68, %_rd73 : tensor<2x4x20x8xf32>, tensor<2x4x20x8xf32>, tensor<2x2x20x8xf32>, tensor<2x2x20x8xf32>
}

// -----

// A tester's window, 28 <= j - i <= 32, leaves rows i > 6 of 35 keys
// without any (refused in session 43).
// CHECK-LABEL: func.func @joint_window_finfo_min_rows_without_keys
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK: scf.if
// EXEC: joint_window_finfo_min_rows_without_keys: raised=yes
func.func @joint_window_finfo_min_rows_without_keys(%A_q: tensor<1x2x11x8xf32>, %A_k: tensor<1x2x35x8xf32>, %A_v: tensor<1x2x35x8xf32>, %A_dout: tensor<1x2x11x8xf32>) -> (tensor<1x2x11x8xf32>, tensor<1x2x11x8xf32>, tensor<1x2x35x8xf32>, tensor<1x2x35x8xf32>) {
  %_e1 = tensor.empty() : tensor<1x2x11x35xf32>
  %_c2 = arith.constant 0.0 : f32
  %_f3 = linalg.fill ins(%_c2 : f32) outs(%_e1 : tensor<1x2x11x35xf32>) -> tensor<1x2x11x35xf32>
  %_g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_q, %A_k : tensor<1x2x11x8xf32>, tensor<1x2x35x8xf32>) outs(%_f3 : tensor<1x2x11x35xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x35xf32>
  %_e5 = tensor.empty() : tensor<1x2x11x35xf32>
  %_g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g4 : tensor<1x2x11x35xf32>) outs(%_e5 : tensor<1x2x11x35xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x35xf32>
  %_e7 = tensor.empty() : tensor<11x35xf32>
  %_c8 = arith.constant 1.0 : f32
  %_f9 = linalg.fill ins(%_c8 : f32) outs(%_e7 : tensor<11x35xf32>) -> tensor<11x35xf32>
  %_e10 = tensor.empty() : tensor<11x35xf32>
  %_g11 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%_f9 : tensor<11x35xf32>) outs(%_e10 : tensor<11x35xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %d = arith.subi %jc, %ic : i64
    %o = arith.constant 32 : i64
    %k = arith.cmpi sle, %d, %o : i64
    %z = arith.constant 0.0 : f32
    %r = arith.select %k, %a0, %z : f32
    linalg.yield %r : f32
  } -> tensor<11x35xf32>
  %_e12 = tensor.empty() : tensor<11x35xf32>
  %_g13 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%_g11 : tensor<11x35xf32>) outs(%_e12 : tensor<11x35xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ic = arith.index_cast %i : index to i64
    %jc = arith.index_cast %j : index to i64
    %d = arith.subi %jc, %ic : i64
    %o = arith.constant 28 : i64
    %k = arith.cmpi sge, %d, %o : i64
    %z = arith.constant 0.0 : f32
    %r = arith.select %k, %a0, %z : f32
    linalg.yield %r : f32
  } -> tensor<11x35xf32>
  %_e14 = tensor.empty() : tensor<1x2x11x35xf32>
  %_g15 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g6, %_g13 : tensor<1x2x11x35xf32>, tensor<11x35xf32>) outs(%_e14 : tensor<1x2x11x35xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %e = arith.cmpf oeq, %a1, %z : f32
    %mn = arith.constant -3.40282347E+38 : f32
    %r = arith.select %e, %mn, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x35xf32>
  %_e16 = tensor.empty() : tensor<1x2x11x1xf32>
  %_c17 = arith.constant 0xFF800000 : f32
  %_f18 = linalg.fill ins(%_c17 : f32) outs(%_e16 : tensor<1x2x11x1xf32>) -> tensor<1x2x11x1xf32>
  %_g19 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g15 : tensor<1x2x11x35xf32>) outs(%_f18 : tensor<1x2x11x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.maximumf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x1xf32>
  %_e20 = tensor.empty() : tensor<1x2x11x35xf32>
  %_g21 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g15, %_g19 : tensor<1x2x11x35xf32>, tensor<1x2x11x1xf32>) outs(%_e20 : tensor<1x2x11x35xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x35xf32>
  %_e22 = tensor.empty() : tensor<1x2x11x35xf32>
  %_g23 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g21 : tensor<1x2x11x35xf32>) outs(%_e22 : tensor<1x2x11x35xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = math.exp %a0 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x35xf32>
  %_e24 = tensor.empty() : tensor<1x2x11x1xf32>
  %_c25 = arith.constant 0.0 : f32
  %_f26 = linalg.fill ins(%_c25 : f32) outs(%_e24 : tensor<1x2x11x1xf32>) -> tensor<1x2x11x1xf32>
  %_g27 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g23 : tensor<1x2x11x35xf32>) outs(%_f26 : tensor<1x2x11x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x1xf32>
  %_e28 = tensor.empty() : tensor<1x2x11x35xf32>
  %_g29 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g23, %_g27 : tensor<1x2x11x35xf32>, tensor<1x2x11x1xf32>) outs(%_e28 : tensor<1x2x11x35xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x35xf32>
  %_e30 = tensor.empty() : tensor<1x2x11x8xf32>
  %_c31 = arith.constant 0.0 : f32
  %_f32 = linalg.fill ins(%_c31 : f32) outs(%_e30 : tensor<1x2x11x8xf32>) -> tensor<1x2x11x8xf32>
  %_g33 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g29, %A_v : tensor<1x2x11x35xf32>, tensor<1x2x35x8xf32>) outs(%_f32 : tensor<1x2x11x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x8xf32>
  %_e34 = tensor.empty() : tensor<1x2x35x8xf32>
  %_c35 = arith.constant 0.0 : f32
  %_f36 = linalg.fill ins(%_c35 : f32) outs(%_e34 : tensor<1x2x35x8xf32>) -> tensor<1x2x35x8xf32>
  %_g37 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g29, %A_dout : tensor<1x2x11x35xf32>, tensor<1x2x11x8xf32>) outs(%_f36 : tensor<1x2x35x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x35x8xf32>
  %_e38 = tensor.empty() : tensor<1x2x11x35xf32>
  %_c39 = arith.constant 0.0 : f32
  %_f40 = linalg.fill ins(%_c39 : f32) outs(%_e38 : tensor<1x2x11x35xf32>) -> tensor<1x2x11x35xf32>
  %_g41 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%A_dout, %A_v : tensor<1x2x11x8xf32>, tensor<1x2x35x8xf32>) outs(%_f40 : tensor<1x2x11x35xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x35xf32>
  %_e42 = tensor.empty() : tensor<1x2x11x35xf32>
  %_g43 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g41, %_g29 : tensor<1x2x11x35xf32>, tensor<1x2x11x35xf32>) outs(%_e42 : tensor<1x2x11x35xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x35xf32>
  %_e44 = tensor.empty() : tensor<1x2x11x1xf32>
  %_c45 = arith.constant 0.0 : f32
  %_f46 = linalg.fill ins(%_c45 : f32) outs(%_e44 : tensor<1x2x11x1xf32>) -> tensor<1x2x11x1xf32>
  %_g47 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%_g43 : tensor<1x2x11x35xf32>) outs(%_f46 : tensor<1x2x11x1xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.addf %a0, %out : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x1xf32>
  %_e48 = tensor.empty() : tensor<1x2x11x35xf32>
  %_g49 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, 0)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g41, %_g47 : tensor<1x2x11x35xf32>, tensor<1x2x11x1xf32>) outs(%_e48 : tensor<1x2x11x35xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.subf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x35xf32>
  %_e50 = tensor.empty() : tensor<1x2x11x35xf32>
  %_g51 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g49, %_g29 : tensor<1x2x11x35xf32>, tensor<1x2x11x35xf32>) outs(%_e50 : tensor<1x2x11x35xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.mulf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x35xf32>
  %_e52 = tensor.empty() : tensor<1x2x11x35xf32>
  %_g53 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g51, %_g13 : tensor<1x2x11x35xf32>, tensor<11x35xf32>) outs(%_e52 : tensor<1x2x11x35xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %e = arith.cmpf oeq, %a1, %z : f32
    %r = arith.select %e, %z, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x35xf32>
  %_e54 = tensor.empty() : tensor<1x2x11x35xf32>
  %_g55 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%_g53 : tensor<1x2x11x35xf32>) outs(%_e54 : tensor<1x2x11x35xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %c = arith.constant 0.35355339059327373 : f32
    %r = arith.mulf %a0, %c : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x35xf32>
  %_e56 = tensor.empty() : tensor<1x2x11x8xf32>
  %_c57 = arith.constant 0.0 : f32
  %_f58 = linalg.fill ins(%_c57 : f32) outs(%_e56 : tensor<1x2x11x8xf32>) -> tensor<1x2x11x8xf32>
  %_g59 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g55, %A_k : tensor<1x2x11x35xf32>, tensor<1x2x35x8xf32>) outs(%_f58 : tensor<1x2x11x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x11x8xf32>
  %_e60 = tensor.empty() : tensor<1x2x35x8xf32>
  %_c61 = arith.constant 0.0 : f32
  %_f62 = linalg.fill ins(%_c61 : f32) outs(%_e60 : tensor<1x2x35x8xf32>) -> tensor<1x2x35x8xf32>
  %_g63 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%_g55, %A_q : tensor<1x2x11x35xf32>, tensor<1x2x11x8xf32>) outs(%_f62 : tensor<1x2x35x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %m = arith.mulf %a0, %a1 : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x35x8xf32>
  return %_g33, %_g59, %_g63, %_g37 : tensor<1x2x11x8xf32>, tensor<1x2x11x8xf32>, tensor<1x2x35x8xf32>, tensor<1x2x35x8xf32>
}
