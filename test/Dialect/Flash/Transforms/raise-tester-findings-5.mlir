// Spellings found in session 44: a soft-cap's backward in a joint graph
// written with 1 / cosh(s / c)^2 (sech^2, which equals the derivative
// rule's 1 - tanh^2), as powf(cosh, -2) or as two divisions by cosh (dS /
// cosh, sech and not its square, is not the derivative: raise-remarks.mlir
// has it refused); P*V accumulated into a tensor that is not zero; the
// attention's output times a constant.
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
