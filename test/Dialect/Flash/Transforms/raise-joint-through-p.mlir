// Joint graphs whose backward autodiff took through a hand-written
// softmax (JAX's exp / sum without jax.nn.softmax's custom rule): it reads
// the exponentials e and their row sum l, dS = e (dP / l - sum(dP e) / l^2),
// not P. Found unraised by an adversarial tester, session 39. The backward
// is proven through P: its models read e and l through to Q and K, and
// the templates' P is the probability's expression. A wrong derivative
// (sum(dP e) / l for / l^2) is not the backward and stays unraised.
// RUN: flash-opt %s --split-input-file --flash-raise-attention | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics -o /dev/null
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// GQA (G = 2) in JAX's [B, Hkv, G, N, D] einsums.
// CHECK-LABEL: func.func @j5_gqa2_jaxdiv
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: j5_gqa2_jaxdiv: raised=yes
func.func @j5_gqa2_jaxdiv(%q: tensor<1x4x13x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>, %do: tensor<1x4x13x8xf32>) -> (tensor<1x4x13x8xf32>, tensor<1x4x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>) {
  %x51 = tensor.expand_shape %q [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 13, 8] : tensor<1x4x13x8xf32> into tensor<1x2x2x13x8xf32>
  %x52 = tensor.expand_shape %do [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 13, 8] : tensor<1x4x13x8xf32> into tensor<1x2x2x13x8xf32>
  %e3 = tensor.empty() : tensor<1x2x2x13x17xf32>
  %cst4 = arith.constant 0.0 : f32
  %z5 = linalg.fill ins(%cst4 : f32) outs(%e3 : tensor<1x2x2x13x17xf32>) -> tensor<1x2x2x13x17xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j, d) -> (b, k, g, i, d)>, affine_map<(b, k, g, i, j, d) -> (b, k, j, d)>, affine_map<(b, k, g, i, j, d) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x51, %k : tensor<1x2x2x13x8xf32>, tensor<1x2x17x8xf32>) outs(%z5 : tensor<1x2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x2x13x17xf32>
  %e7 = tensor.empty() : tensor<1x2x2x13x17xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g6 : tensor<1x2x2x13x17xf32>) outs(%e7 : tensor<1x2x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x2x2x13x17xf32>
  %e9 = tensor.empty() : tensor<1x2x2x13xf32>
  %cst10 = arith.constant 0xFF800000 : f32
  %z11 = linalg.fill ins(%cst10 : f32) outs(%e9 : tensor<1x2x2x13xf32>) -> tensor<1x2x2x13xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g8 : tensor<1x2x2x13x17xf32>) outs(%z11 : tensor<1x2x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.maximumf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x2x2x13xf32>
  %e13 = tensor.empty() : tensor<1x2x2x13x17xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g8, %g12 : tensor<1x2x2x13x17xf32>, tensor<1x2x2x13xf32>) outs(%e13 : tensor<1x2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %d = arith.subf %a0, %a1 : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<1x2x2x13x17xf32>
  %e15 = tensor.empty() : tensor<1x2x2x13xf32>
  %z16 = linalg.fill ins(%cst4 : f32) outs(%e15 : tensor<1x2x2x13xf32>) -> tensor<1x2x2x13xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g14 : tensor<1x2x2x13x17xf32>) outs(%z16 : tensor<1x2x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x2x2x13xf32>
  %e18 = tensor.empty() : tensor<1x2x2x13x17xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g14, %g17 : tensor<1x2x2x13x17xf32>, tensor<1x2x2x13xf32>) outs(%e18 : tensor<1x2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.divf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x2x2x13x17xf32>
  %e20 = tensor.empty() : tensor<1x2x2x13x8xf32>
  %z21 = linalg.fill ins(%cst4 : f32) outs(%e20 : tensor<1x2x2x13x8xf32>) -> tensor<1x2x2x13x8xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, e, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, e, j) -> (b, k, j, e)>, affine_map<(b, k, g, i, e, j) -> (b, k, g, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x2x2x13x17xf32>, tensor<1x2x17x8xf32>) outs(%z21 : tensor<1x2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x2x13x8xf32>
  %c423 = tensor.collapse_shape %g22 [[0], [1, 2], [3], [4]] : tensor<1x2x2x13x8xf32> into tensor<1x4x13x8xf32>
  %e24 = tensor.empty() : tensor<1x2x17x8xf32>
  %z25 = linalg.fill ins(%cst4 : f32) outs(%e24 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, k, j, e, g, i) -> (b, k, g, i, j)>, affine_map<(b, k, j, e, g, i) -> (b, k, g, i, e)>, affine_map<(b, k, j, e, g, i) -> (b, k, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%g19, %x52 : tensor<1x2x2x13x17xf32>, tensor<1x2x2x13x8xf32>) outs(%z25 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  %e27 = tensor.empty() : tensor<1x2x2x13x17xf32>
  %z28 = linalg.fill ins(%cst4 : f32) outs(%e27 : tensor<1x2x2x13x17xf32>) -> tensor<1x2x2x13x17xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j, e) -> (b, k, g, i, e)>, affine_map<(b, k, g, i, j, e) -> (b, k, j, e)>, affine_map<(b, k, g, i, j, e) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x52, %v : tensor<1x2x2x13x8xf32>, tensor<1x2x17x8xf32>) outs(%z28 : tensor<1x2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x2x13x17xf32>
  %e30 = tensor.empty() : tensor<1x2x2x13xf32>
  %z31 = linalg.fill ins(%cst4 : f32) outs(%e30 : tensor<1x2x2x13xf32>) -> tensor<1x2x2x13xf32>
  %g32 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g29, %g14 : tensor<1x2x2x13x17xf32>, tensor<1x2x2x13x17xf32>) outs(%z31 : tensor<1x2x2x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x2x13xf32>
  %e33 = tensor.empty() : tensor<1x2x2x13x17xf32>
  %g34 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g29, %g14, %g17, %g32 : tensor<1x2x2x13x17xf32>, tensor<1x2x2x13x17xf32>, tensor<1x2x2x13xf32>, tensor<1x2x2x13xf32>) outs(%e33 : tensor<1x2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %acc: f32):
      %q1 = arith.divf %a0, %a2 : f32
      %l2 = arith.mulf %a2, %a2 : f32
      %q2 = arith.divf %a3, %l2 : f32
      %de = arith.subf %q1, %q2 : f32
      %y = arith.mulf %de, %a1 : f32
      %c = arith.constant 0.35355339 : f32
      %z = arith.mulf %y, %c : f32
      linalg.yield %z : f32
    } -> tensor<1x2x2x13x17xf32>
  %e35 = tensor.empty() : tensor<1x2x2x13x8xf32>
  %z36 = linalg.fill ins(%cst4 : f32) outs(%e35 : tensor<1x2x2x13x8xf32>) -> tensor<1x2x2x13x8xf32>
  %g37 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, d, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, d, j) -> (b, k, j, d)>, affine_map<(b, k, g, i, d, j) -> (b, k, g, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g34, %k : tensor<1x2x2x13x17xf32>, tensor<1x2x17x8xf32>) outs(%z36 : tensor<1x2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x2x13x8xf32>
  %c438 = tensor.collapse_shape %g37 [[0], [1, 2], [3], [4]] : tensor<1x2x2x13x8xf32> into tensor<1x4x13x8xf32>
  %e39 = tensor.empty() : tensor<1x2x17x8xf32>
  %z40 = linalg.fill ins(%cst4 : f32) outs(%e39 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %g41 = linalg.generic {indexing_maps = [affine_map<(b, k, j, d, g, i) -> (b, k, g, i, j)>, affine_map<(b, k, j, d, g, i) -> (b, k, g, i, d)>, affine_map<(b, k, j, d, g, i) -> (b, k, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%g34, %x51 : tensor<1x2x2x13x17xf32>, tensor<1x2x2x13x8xf32>) outs(%z40 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  return %c423, %c438, %g41, %g26 : tensor<1x4x13x8xf32>, tensor<1x4x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>
}

// -----

// MQA (one kv head, G = 4).
// CHECK-LABEL: func.func @j5_mqa_jaxdiv
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: j5_mqa_jaxdiv: raised=yes
func.func @j5_mqa_jaxdiv(%q: tensor<1x4x13x8xf32>, %k: tensor<1x1x17x8xf32>, %v: tensor<1x1x17x8xf32>, %do: tensor<1x4x13x8xf32>) -> (tensor<1x4x13x8xf32>, tensor<1x4x13x8xf32>, tensor<1x1x17x8xf32>, tensor<1x1x17x8xf32>) {
  %x51 = tensor.expand_shape %q [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 13, 8] : tensor<1x4x13x8xf32> into tensor<1x1x4x13x8xf32>
  %x52 = tensor.expand_shape %do [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 13, 8] : tensor<1x4x13x8xf32> into tensor<1x1x4x13x8xf32>
  %e3 = tensor.empty() : tensor<1x1x4x13x17xf32>
  %cst4 = arith.constant 0.0 : f32
  %z5 = linalg.fill ins(%cst4 : f32) outs(%e3 : tensor<1x1x4x13x17xf32>) -> tensor<1x1x4x13x17xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j, d) -> (b, k, g, i, d)>, affine_map<(b, k, g, i, j, d) -> (b, k, j, d)>, affine_map<(b, k, g, i, j, d) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x51, %k : tensor<1x1x4x13x8xf32>, tensor<1x1x17x8xf32>) outs(%z5 : tensor<1x1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13x17xf32>
  %e7 = tensor.empty() : tensor<1x1x4x13x17xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g6 : tensor<1x1x4x13x17xf32>) outs(%e7 : tensor<1x1x4x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13x17xf32>
  %e9 = tensor.empty() : tensor<1x1x4x13xf32>
  %cst10 = arith.constant 0xFF800000 : f32
  %z11 = linalg.fill ins(%cst10 : f32) outs(%e9 : tensor<1x1x4x13xf32>) -> tensor<1x1x4x13xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g8 : tensor<1x1x4x13x17xf32>) outs(%z11 : tensor<1x1x4x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.maximumf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13xf32>
  %e13 = tensor.empty() : tensor<1x1x4x13x17xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g8, %g12 : tensor<1x1x4x13x17xf32>, tensor<1x1x4x13xf32>) outs(%e13 : tensor<1x1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %d = arith.subf %a0, %a1 : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13x17xf32>
  %e15 = tensor.empty() : tensor<1x1x4x13xf32>
  %z16 = linalg.fill ins(%cst4 : f32) outs(%e15 : tensor<1x1x4x13xf32>) -> tensor<1x1x4x13xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g14 : tensor<1x1x4x13x17xf32>) outs(%z16 : tensor<1x1x4x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13xf32>
  %e18 = tensor.empty() : tensor<1x1x4x13x17xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g14, %g17 : tensor<1x1x4x13x17xf32>, tensor<1x1x4x13xf32>) outs(%e18 : tensor<1x1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.divf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13x17xf32>
  %e20 = tensor.empty() : tensor<1x1x4x13x8xf32>
  %z21 = linalg.fill ins(%cst4 : f32) outs(%e20 : tensor<1x1x4x13x8xf32>) -> tensor<1x1x4x13x8xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, e, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, e, j) -> (b, k, j, e)>, affine_map<(b, k, g, i, e, j) -> (b, k, g, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x1x4x13x17xf32>, tensor<1x1x17x8xf32>) outs(%z21 : tensor<1x1x4x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13x8xf32>
  %c423 = tensor.collapse_shape %g22 [[0], [1, 2], [3], [4]] : tensor<1x1x4x13x8xf32> into tensor<1x4x13x8xf32>
  %e24 = tensor.empty() : tensor<1x1x17x8xf32>
  %z25 = linalg.fill ins(%cst4 : f32) outs(%e24 : tensor<1x1x17x8xf32>) -> tensor<1x1x17x8xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, k, j, e, g, i) -> (b, k, g, i, j)>, affine_map<(b, k, j, e, g, i) -> (b, k, g, i, e)>, affine_map<(b, k, j, e, g, i) -> (b, k, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%g19, %x52 : tensor<1x1x4x13x17xf32>, tensor<1x1x4x13x8xf32>) outs(%z25 : tensor<1x1x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x1x17x8xf32>
  %e27 = tensor.empty() : tensor<1x1x4x13x17xf32>
  %z28 = linalg.fill ins(%cst4 : f32) outs(%e27 : tensor<1x1x4x13x17xf32>) -> tensor<1x1x4x13x17xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j, e) -> (b, k, g, i, e)>, affine_map<(b, k, g, i, j, e) -> (b, k, j, e)>, affine_map<(b, k, g, i, j, e) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x52, %v : tensor<1x1x4x13x8xf32>, tensor<1x1x17x8xf32>) outs(%z28 : tensor<1x1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13x17xf32>
  %e30 = tensor.empty() : tensor<1x1x4x13xf32>
  %z31 = linalg.fill ins(%cst4 : f32) outs(%e30 : tensor<1x1x4x13xf32>) -> tensor<1x1x4x13xf32>
  %g32 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g29, %g14 : tensor<1x1x4x13x17xf32>, tensor<1x1x4x13x17xf32>) outs(%z31 : tensor<1x1x4x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13xf32>
  %e33 = tensor.empty() : tensor<1x1x4x13x17xf32>
  %g34 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g29, %g14, %g17, %g32 : tensor<1x1x4x13x17xf32>, tensor<1x1x4x13x17xf32>, tensor<1x1x4x13xf32>, tensor<1x1x4x13xf32>) outs(%e33 : tensor<1x1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %acc: f32):
      %q1 = arith.divf %a0, %a2 : f32
      %l2 = arith.mulf %a2, %a2 : f32
      %q2 = arith.divf %a3, %l2 : f32
      %de = arith.subf %q1, %q2 : f32
      %y = arith.mulf %de, %a1 : f32
      %c = arith.constant 0.35355339 : f32
      %z = arith.mulf %y, %c : f32
      linalg.yield %z : f32
    } -> tensor<1x1x4x13x17xf32>
  %e35 = tensor.empty() : tensor<1x1x4x13x8xf32>
  %z36 = linalg.fill ins(%cst4 : f32) outs(%e35 : tensor<1x1x4x13x8xf32>) -> tensor<1x1x4x13x8xf32>
  %g37 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, d, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, d, j) -> (b, k, j, d)>, affine_map<(b, k, g, i, d, j) -> (b, k, g, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g34, %k : tensor<1x1x4x13x17xf32>, tensor<1x1x17x8xf32>) outs(%z36 : tensor<1x1x4x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13x8xf32>
  %c438 = tensor.collapse_shape %g37 [[0], [1, 2], [3], [4]] : tensor<1x1x4x13x8xf32> into tensor<1x4x13x8xf32>
  %e39 = tensor.empty() : tensor<1x1x17x8xf32>
  %z40 = linalg.fill ins(%cst4 : f32) outs(%e39 : tensor<1x1x17x8xf32>) -> tensor<1x1x17x8xf32>
  %g41 = linalg.generic {indexing_maps = [affine_map<(b, k, j, d, g, i) -> (b, k, g, i, j)>, affine_map<(b, k, j, d, g, i) -> (b, k, g, i, d)>, affine_map<(b, k, j, d, g, i) -> (b, k, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%g34, %x51 : tensor<1x1x4x13x17xf32>, tensor<1x1x4x13x8xf32>) outs(%z40 : tensor<1x1x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x1x17x8xf32>
  return %c423, %c438, %g41, %g26 : tensor<1x4x13x8xf32>, tensor<1x4x13x8xf32>, tensor<1x1x17x8xf32>, tensor<1x1x17x8xf32>
}

// -----

// torch eager's hand-written softmax, e = exp(s - s.amax(-1, keepdim)),
// p = e / e.sum(-1, keepdim), with autograd through all of it: amax's
// backward adds grad * (s == m) / count, whose grad is the sum of dS over
// the keys, 0 (l / l^2 = 1 / l: a sum of exponentials over itself is 1).
// CHECK-LABEL: func.func @joint_torch_handwritten_softmax_amax
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: joint_torch_handwritten_softmax_amax: raised=yes
func.func @joint_torch_handwritten_softmax_amax(%q: tensor<1x2x13x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>, %do: tensor<1x2x13x8xf32>) -> (tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>) {
  %e1 = tensor.empty() : tensor<1x2x13x17xf32>
  %cst2 = arith.constant 0.0 : f32
  %z3 = linalg.fill ins(%cst2 : f32) outs(%e1 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>) outs(%z3 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e5 = tensor.empty() : tensor<1x2x13x17xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x13x17xf32>) outs(%e5 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e7 = tensor.empty() : tensor<1x2x13xf32>
  %cst8 = arith.constant 0xFF800000 : f32
  %z9 = linalg.fill ins(%cst8 : f32) outs(%e7 : tensor<1x2x13xf32>) -> tensor<1x2x13xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g6 : tensor<1x2x13x17xf32>) outs(%z9 : tensor<1x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.maximumf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13xf32>
  %e11 = tensor.empty() : tensor<1x2x13x17xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g6, %g10 : tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%e11 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %d = arith.subf %a0, %a1 : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e13 = tensor.empty() : tensor<1x2x13xf32>
  %z14 = linalg.fill ins(%cst2 : f32) outs(%e13 : tensor<1x2x13xf32>) -> tensor<1x2x13xf32>
  %g15 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g12 : tensor<1x2x13x17xf32>) outs(%z14 : tensor<1x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13xf32>
  %e16 = tensor.empty() : tensor<1x2x13x17xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g12, %g15 : tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%e16 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.divf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e18 = tensor.empty() : tensor<1x2x13x8xf32>
  %z19 = linalg.fill ins(%cst2 : f32) outs(%e18 : tensor<1x2x13x8xf32>) -> tensor<1x2x13x8xf32>
  %g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g17, %v : tensor<1x2x13x17xf32>, tensor<1x2x17x8xf32>) outs(%z19 : tensor<1x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x8xf32>
  %e21 = tensor.empty() : tensor<1x2x17x8xf32>
  %z22 = linalg.fill ins(%cst2 : f32) outs(%e21 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g17, %do : tensor<1x2x13x17xf32>, tensor<1x2x13x8xf32>) outs(%z22 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  %e24 = tensor.empty() : tensor<1x2x13x17xf32>
  %z25 = linalg.fill ins(%cst2 : f32) outs(%e24 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>) outs(%z25 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e27 = tensor.empty() : tensor<1x2x13x17xf32>
  %g28 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g26, %g15 : tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%e27 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.divf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e29 = tensor.empty() : tensor<1x2x13xf32>
  %z30 = linalg.fill ins(%cst2 : f32) outs(%e29 : tensor<1x2x13xf32>) -> tensor<1x2x13xf32>
  %g31 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g26, %g12, %g15 : tensor<1x2x13x17xf32>, tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%z30 : tensor<1x2x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %n = arith.mulf %a0, %a1 : f32
      %l2 = arith.mulf %a2, %a2 : f32
      %qq = arith.divf %n, %l2 : f32
      %y = arith.addf %acc, %qq : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13xf32>
  %e32 = tensor.empty() : tensor<1x2x13xf32>
  %g33 = linalg.generic {indexing_maps = [affine_map<(b, h, i) -> (b, h, i)>, affine_map<(b, h, i) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g31 : tensor<1x2x13xf32>) outs(%e32 : tensor<1x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.negf %a0 : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13xf32>
  %e34 = tensor.empty() : tensor<1x2x13x17xf32>
  %g35 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g28, %g33 : tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%e34 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.addf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e36 = tensor.empty() : tensor<1x2x13x17xf32>
  %g37 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g35, %g12 : tensor<1x2x13x17xf32>, tensor<1x2x13x17xf32>) outs(%e36 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.mulf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e38 = tensor.empty() : tensor<1x2x13xf32>
  %z39 = linalg.fill ins(%cst2 : f32) outs(%e38 : tensor<1x2x13xf32>) -> tensor<1x2x13xf32>
  %g40 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g37 : tensor<1x2x13x17xf32>) outs(%z39 : tensor<1x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %acc, %a0 : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13xf32>
  %e41 = tensor.empty() : tensor<1x2x13xf32>
  %g42 = linalg.generic {indexing_maps = [affine_map<(b, h, i) -> (b, h, i)>, affine_map<(b, h, i) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%g40 : tensor<1x2x13xf32>) outs(%e41 : tensor<1x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.negf %a0 : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13xf32>
  %e43 = tensor.empty() : tensor<1x2x13xf32>
  %z44 = linalg.fill ins(%cst2 : f32) outs(%e43 : tensor<1x2x13xf32>) -> tensor<1x2x13xf32>
  %g45 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g6, %g10 : tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%z44 : tensor<1x2x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %eq = arith.cmpf oeq, %a0, %a1 : f32
      %one = arith.constant 1.0 : f32
      %zz = arith.constant 0.0 : f32
      %w = arith.select %eq, %one, %zz : f32
      %y = arith.addf %acc, %w : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13xf32>
  %e46 = tensor.empty() : tensor<1x2x13x17xf32>
  %g47 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g37, %g6, %g10, %g42, %g45 : tensor<1x2x13x17xf32>, tensor<1x2x13x17xf32>, tensor<1x2x13xf32>, tensor<1x2x13xf32>, tensor<1x2x13xf32>) outs(%e46 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %acc: f32):
      %eq = arith.cmpf oeq, %a1, %a2 : f32
      %g = arith.divf %a3, %a4 : f32
      %zz = arith.constant 0.0 : f32
      %w = arith.select %eq, %g, %zz : f32
      %t = arith.addf %a0, %w : f32
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %t, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e48 = tensor.empty() : tensor<1x2x13x8xf32>
  %z49 = linalg.fill ins(%cst2 : f32) outs(%e48 : tensor<1x2x13x8xf32>) -> tensor<1x2x13x8xf32>
  %g50 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g47, %k : tensor<1x2x13x17xf32>, tensor<1x2x17x8xf32>) outs(%z49 : tensor<1x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x8xf32>
  %e51 = tensor.empty() : tensor<1x2x17x8xf32>
  %z52 = linalg.fill ins(%cst2 : f32) outs(%e51 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %g53 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g47, %q : tensor<1x2x13x17xf32>, tensor<1x2x13x8xf32>) outs(%z52 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  return %g20, %g50, %g53, %g23 : tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>
}

// -----

// The wrong derivative of 1 / l.
// CHECK-LABEL: func.func @negative_through_p_wrong_dl
// CHECK-NOT: flash.attention_grad
// CHECK: return
func.func @negative_through_p_wrong_dl(%q: tensor<1x4x13x8xf32>, %k: tensor<1x1x17x8xf32>, %v: tensor<1x1x17x8xf32>, %do: tensor<1x4x13x8xf32>) -> (tensor<1x4x13x8xf32>, tensor<1x4x13x8xf32>, tensor<1x1x17x8xf32>, tensor<1x1x17x8xf32>) {
  %x51 = tensor.expand_shape %q [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 13, 8] : tensor<1x4x13x8xf32> into tensor<1x1x4x13x8xf32>
  %x52 = tensor.expand_shape %do [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 13, 8] : tensor<1x4x13x8xf32> into tensor<1x1x4x13x8xf32>
  %e3 = tensor.empty() : tensor<1x1x4x13x17xf32>
  %cst4 = arith.constant 0.0 : f32
  %z5 = linalg.fill ins(%cst4 : f32) outs(%e3 : tensor<1x1x4x13x17xf32>) -> tensor<1x1x4x13x17xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j, d) -> (b, k, g, i, d)>, affine_map<(b, k, g, i, j, d) -> (b, k, j, d)>, affine_map<(b, k, g, i, j, d) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x51, %k : tensor<1x1x4x13x8xf32>, tensor<1x1x17x8xf32>) outs(%z5 : tensor<1x1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13x17xf32>
  %e7 = tensor.empty() : tensor<1x1x4x13x17xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g6 : tensor<1x1x4x13x17xf32>) outs(%e7 : tensor<1x1x4x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13x17xf32>
  %e9 = tensor.empty() : tensor<1x1x4x13xf32>
  %cst10 = arith.constant 0xFF800000 : f32
  %z11 = linalg.fill ins(%cst10 : f32) outs(%e9 : tensor<1x1x4x13xf32>) -> tensor<1x1x4x13xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g8 : tensor<1x1x4x13x17xf32>) outs(%z11 : tensor<1x1x4x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.maximumf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13xf32>
  %e13 = tensor.empty() : tensor<1x1x4x13x17xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g8, %g12 : tensor<1x1x4x13x17xf32>, tensor<1x1x4x13xf32>) outs(%e13 : tensor<1x1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %d = arith.subf %a0, %a1 : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13x17xf32>
  %e15 = tensor.empty() : tensor<1x1x4x13xf32>
  %z16 = linalg.fill ins(%cst4 : f32) outs(%e15 : tensor<1x1x4x13xf32>) -> tensor<1x1x4x13xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g14 : tensor<1x1x4x13x17xf32>) outs(%z16 : tensor<1x1x4x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13xf32>
  %e18 = tensor.empty() : tensor<1x1x4x13x17xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g14, %g17 : tensor<1x1x4x13x17xf32>, tensor<1x1x4x13xf32>) outs(%e18 : tensor<1x1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.divf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13x17xf32>
  %e20 = tensor.empty() : tensor<1x1x4x13x8xf32>
  %z21 = linalg.fill ins(%cst4 : f32) outs(%e20 : tensor<1x1x4x13x8xf32>) -> tensor<1x1x4x13x8xf32>
  // expected-remark @+1 {{attention not raised: an intermediate of the attention ('linalg.generic') has a use outside it ('linalg.generic') that is not the backward of the attention}}
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, e, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, e, j) -> (b, k, j, e)>, affine_map<(b, k, g, i, e, j) -> (b, k, g, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x1x4x13x17xf32>, tensor<1x1x17x8xf32>) outs(%z21 : tensor<1x1x4x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13x8xf32>
  %c423 = tensor.collapse_shape %g22 [[0], [1, 2], [3], [4]] : tensor<1x1x4x13x8xf32> into tensor<1x4x13x8xf32>
  %e24 = tensor.empty() : tensor<1x1x17x8xf32>
  %z25 = linalg.fill ins(%cst4 : f32) outs(%e24 : tensor<1x1x17x8xf32>) -> tensor<1x1x17x8xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, k, j, e, g, i) -> (b, k, g, i, j)>, affine_map<(b, k, j, e, g, i) -> (b, k, g, i, e)>, affine_map<(b, k, j, e, g, i) -> (b, k, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%g19, %x52 : tensor<1x1x4x13x17xf32>, tensor<1x1x4x13x8xf32>) outs(%z25 : tensor<1x1x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x1x17x8xf32>
  %e27 = tensor.empty() : tensor<1x1x4x13x17xf32>
  %z28 = linalg.fill ins(%cst4 : f32) outs(%e27 : tensor<1x1x4x13x17xf32>) -> tensor<1x1x4x13x17xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j, e) -> (b, k, g, i, e)>, affine_map<(b, k, g, i, j, e) -> (b, k, j, e)>, affine_map<(b, k, g, i, j, e) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x52, %v : tensor<1x1x4x13x8xf32>, tensor<1x1x17x8xf32>) outs(%z28 : tensor<1x1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13x17xf32>
  %e30 = tensor.empty() : tensor<1x1x4x13xf32>
  %z31 = linalg.fill ins(%cst4 : f32) outs(%e30 : tensor<1x1x4x13xf32>) -> tensor<1x1x4x13xf32>
  %g32 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g29, %g14 : tensor<1x1x4x13x17xf32>, tensor<1x1x4x13x17xf32>) outs(%z31 : tensor<1x1x4x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13xf32>
  %e33 = tensor.empty() : tensor<1x1x4x13x17xf32>
  %g34 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g29, %g14, %g17, %g32 : tensor<1x1x4x13x17xf32>, tensor<1x1x4x13x17xf32>, tensor<1x1x4x13xf32>, tensor<1x1x4x13xf32>) outs(%e33 : tensor<1x1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %acc: f32):
      %q1 = arith.divf %a0, %a2 : f32
      %l2 = arith.mulf %a2, %a2 : f32
      %q2 = arith.divf %a3, %a2 : f32
      %de = arith.subf %q1, %q2 : f32
      %y = arith.mulf %de, %a1 : f32
      %c = arith.constant 0.35355339 : f32
      %z = arith.mulf %y, %c : f32
      linalg.yield %z : f32
    } -> tensor<1x1x4x13x17xf32>
  %e35 = tensor.empty() : tensor<1x1x4x13x8xf32>
  %z36 = linalg.fill ins(%cst4 : f32) outs(%e35 : tensor<1x1x4x13x8xf32>) -> tensor<1x1x4x13x8xf32>
  %g37 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, d, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, d, j) -> (b, k, j, d)>, affine_map<(b, k, g, i, d, j) -> (b, k, g, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g34, %k : tensor<1x1x4x13x17xf32>, tensor<1x1x17x8xf32>) outs(%z36 : tensor<1x1x4x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x1x4x13x8xf32>
  %c438 = tensor.collapse_shape %g37 [[0], [1, 2], [3], [4]] : tensor<1x1x4x13x8xf32> into tensor<1x4x13x8xf32>
  %e39 = tensor.empty() : tensor<1x1x17x8xf32>
  %z40 = linalg.fill ins(%cst4 : f32) outs(%e39 : tensor<1x1x17x8xf32>) -> tensor<1x1x17x8xf32>
  %g41 = linalg.generic {indexing_maps = [affine_map<(b, k, j, d, g, i) -> (b, k, g, i, j)>, affine_map<(b, k, j, d, g, i) -> (b, k, g, i, d)>, affine_map<(b, k, j, d, g, i) -> (b, k, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%g34, %x51 : tensor<1x1x4x13x17xf32>, tensor<1x1x4x13x8xf32>) outs(%z40 : tensor<1x1x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x1x17x8xf32>
  return %c423, %c438, %g41, %g26 : tensor<1x4x13x8xf32>, tensor<1x4x13x8xf32>, tensor<1x1x17x8xf32>, tensor<1x1x17x8xf32>
}
