// Joint graphs whose backward recomputes P (activation checkpointing, or
// a partitioner that recomputes the softmax instead of saving it): a
// second copy of the forward's scores and softmax, from the same Q, K and
// mask, feeds the backward. The raise finds copies made like the forward's
// P (the same op and type) whose model is P, proves the backward on them,
// and the copy dies with it: no N x N tensor is left. A copy that is not
// P (another scale) is not the forward's backward and stays unfused.
// RUN: flash-opt %s --split-input-file --flash-raise-attention | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// activation checkpointing: the backward recomputes S and P (linalg.softmax) from Q and K
// CHECK-LABEL: func.func @joint_recompute_plain
// CHECK-NOT: linalg.softmax
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: linalg.softmax
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: joint_recompute_plain: raised=yes
func.func @joint_recompute_plain(%q: tensor<1x2x13x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>, %do: tensor<1x2x13x8xf32>) -> (tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>) {
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
  %e7 = tensor.empty() : tensor<1x2x13x17xf32>
  %p8 = linalg.softmax dimension(3) ins(%g6 : tensor<1x2x13x17xf32>) outs(%e7 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %e9 = tensor.empty() : tensor<1x2x13x8xf32>
  %z10 = linalg.fill ins(%cst2 : f32) outs(%e9 : tensor<1x2x13x8xf32>) -> tensor<1x2x13x8xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %v : tensor<1x2x13x17xf32>, tensor<1x2x17x8xf32>) outs(%z10 : tensor<1x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x8xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>) outs(%z3 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e13 = tensor.empty() : tensor<1x2x13x17xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g12 : tensor<1x2x13x17xf32>) outs(%e13 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e15 = tensor.empty() : tensor<1x2x13x17xf32>
  %p16 = linalg.softmax dimension(3) ins(%g14 : tensor<1x2x13x17xf32>) outs(%e15 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %e17 = tensor.empty() : tensor<1x2x17x8xf32>
  %z18 = linalg.fill ins(%cst2 : f32) outs(%e17 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p16, %do : tensor<1x2x13x17xf32>, tensor<1x2x13x8xf32>) outs(%z18 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  %e20 = tensor.empty() : tensor<1x2x13x17xf32>
  %z21 = linalg.fill ins(%cst2 : f32) outs(%e20 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>) outs(%z21 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e23 = tensor.empty() : tensor<1x2x13xf32>
  %z24 = linalg.fill ins(%cst2 : f32) outs(%e23 : tensor<1x2x13xf32>) -> tensor<1x2x13xf32>
  %g25 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p16, %g22 : tensor<1x2x13x17xf32>, tensor<1x2x13x17xf32>) outs(%z24 : tensor<1x2x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13xf32>
  %e26 = tensor.empty() : tensor<1x2x13x17xf32>
  %g27 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p16, %g22, %g25 : tensor<1x2x13x17xf32>, tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%e26 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %d = arith.subf %a1, %a2 : f32
      %y = arith.mulf %a0, %d : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e28 = tensor.empty() : tensor<1x2x13x17xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g27 : tensor<1x2x13x17xf32>) outs(%e28 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e30 = tensor.empty() : tensor<1x2x13x8xf32>
  %z31 = linalg.fill ins(%cst2 : f32) outs(%e30 : tensor<1x2x13x8xf32>) -> tensor<1x2x13x8xf32>
  %g32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g29, %k : tensor<1x2x13x17xf32>, tensor<1x2x17x8xf32>) outs(%z31 : tensor<1x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x8xf32>
  %e33 = tensor.empty() : tensor<1x2x17x8xf32>
  %z34 = linalg.fill ins(%cst2 : f32) outs(%e33 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %g35 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g29, %q : tensor<1x2x13x17xf32>, tensor<1x2x13x8xf32>) outs(%z34 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  return %g11, %g32, %g35, %g19 : tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>
}

// -----

// the recomputed P in the decomposed softmax spelling (max, exp, sum, div), bottom-right causal, Delta from dO O
// CHECK-LABEL: func.func @joint_recompute_causal_decomposed
// CHECK-NOT: linalg.softmax
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: linalg.softmax
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: joint_recompute_causal_decomposed: raised=yes
func.func @joint_recompute_causal_decomposed(%q: tensor<2x2x13x8xf32>, %k: tensor<2x2x17x8xf32>, %v: tensor<2x2x17x8xf32>, %do: tensor<2x2x13x8xf32>) -> (tensor<2x2x13x8xf32>, tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>) {
  %e1 = tensor.empty() : tensor<2x2x13x17xf32>
  %cst2 = arith.constant 0.0 : f32
  %z3 = linalg.fill ins(%cst2 : f32) outs(%e1 : tensor<2x2x13x17xf32>) -> tensor<2x2x13x17xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>) outs(%z3 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e5 = tensor.empty() : tensor<2x2x13x17xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<2x2x13x17xf32>) outs(%e5 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %b_ = linalg.index 0 : index
      %h_ = linalg.index 1 : index
      %i_ = linalg.index 2 : index
      %j_ = linalg.index 3 : index
      %c4 = arith.constant 4 : index
      %lim = arith.addi %i_, %c4 : index
      %keep = arith.cmpi ule, %j_, %lim : index
      %sc_ = arith.constant 0.35355339 : f32
      %y0_ = arith.mulf %a0, %sc_ : f32
      %nf_ = arith.constant 0xFF800000 : f32
      %y_ = arith.select %keep, %y0_, %nf_ : f32
      linalg.yield %y_ : f32
    } -> tensor<2x2x13x17xf32>
  %e7 = tensor.empty() : tensor<2x2x13x17xf32>
  %e8 = tensor.empty() : tensor<2x2x13xf32>
  %cst9 = arith.constant 0xFF800000 : f32
  %z10 = linalg.fill ins(%cst9 : f32) outs(%e8 : tensor<2x2x13xf32>) -> tensor<2x2x13xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g6 : tensor<2x2x13x17xf32>) outs(%z10 : tensor<2x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.maximumf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g6, %g11 : tensor<2x2x13x17xf32>, tensor<2x2x13xf32>) outs(%e7 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %d = arith.subf %a0, %a1 : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e13 = tensor.empty() : tensor<2x2x13xf32>
  %z14 = linalg.fill ins(%cst2 : f32) outs(%e13 : tensor<2x2x13xf32>) -> tensor<2x2x13xf32>
  %g15 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g12 : tensor<2x2x13x17xf32>) outs(%z14 : tensor<2x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g12, %g15 : tensor<2x2x13x17xf32>, tensor<2x2x13xf32>) outs(%e7 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.divf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e17 = tensor.empty() : tensor<2x2x13x8xf32>
  %z18 = linalg.fill ins(%cst2 : f32) outs(%e17 : tensor<2x2x13x8xf32>) -> tensor<2x2x13x8xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g16, %v : tensor<2x2x13x17xf32>, tensor<2x2x17x8xf32>) outs(%z18 : tensor<2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x8xf32>
  %g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>) outs(%z3 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e21 = tensor.empty() : tensor<2x2x13x17xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g20 : tensor<2x2x13x17xf32>) outs(%e21 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %b_ = linalg.index 0 : index
      %h_ = linalg.index 1 : index
      %i_ = linalg.index 2 : index
      %j_ = linalg.index 3 : index
      %c4 = arith.constant 4 : index
      %lim = arith.addi %i_, %c4 : index
      %keep = arith.cmpi ule, %j_, %lim : index
      %sc_ = arith.constant 0.35355339 : f32
      %y0_ = arith.mulf %a0, %sc_ : f32
      %nf_ = arith.constant 0xFF800000 : f32
      %y_ = arith.select %keep, %y0_, %nf_ : f32
      linalg.yield %y_ : f32
    } -> tensor<2x2x13x17xf32>
  %e23 = tensor.empty() : tensor<2x2x13x17xf32>
  %e24 = tensor.empty() : tensor<2x2x13xf32>
  %z25 = linalg.fill ins(%cst9 : f32) outs(%e24 : tensor<2x2x13xf32>) -> tensor<2x2x13xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g22 : tensor<2x2x13x17xf32>) outs(%z25 : tensor<2x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.maximumf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13xf32>
  %g27 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g22, %g26 : tensor<2x2x13x17xf32>, tensor<2x2x13xf32>) outs(%e23 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %d = arith.subf %a0, %a1 : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e28 = tensor.empty() : tensor<2x2x13xf32>
  %z29 = linalg.fill ins(%cst2 : f32) outs(%e28 : tensor<2x2x13xf32>) -> tensor<2x2x13xf32>
  %g30 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g27 : tensor<2x2x13x17xf32>) outs(%z29 : tensor<2x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13xf32>
  %g31 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g27, %g30 : tensor<2x2x13x17xf32>, tensor<2x2x13xf32>) outs(%e23 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.divf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e32 = tensor.empty() : tensor<2x2x17x8xf32>
  %z33 = linalg.fill ins(%cst2 : f32) outs(%e32 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %g34 = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g31, %do : tensor<2x2x13x17xf32>, tensor<2x2x13x8xf32>) outs(%z33 : tensor<2x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x17x8xf32>
  %e35 = tensor.empty() : tensor<2x2x13x17xf32>
  %z36 = linalg.fill ins(%cst2 : f32) outs(%e35 : tensor<2x2x13x17xf32>) -> tensor<2x2x13x17xf32>
  %g37 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>) outs(%z36 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e38 = tensor.empty() : tensor<2x2x13xf32>
  %z39 = linalg.fill ins(%cst2 : f32) outs(%e38 : tensor<2x2x13xf32>) -> tensor<2x2x13xf32>
  %g40 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e) -> (b, h, i, e)>, affine_map<(b, h, i, e) -> (b, h, i, e)>, affine_map<(b, h, i, e) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %g19 : tensor<2x2x13x8xf32>, tensor<2x2x13x8xf32>) outs(%z39 : tensor<2x2x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13xf32>
  %e41 = tensor.empty() : tensor<2x2x13x17xf32>
  %g42 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g31, %g37, %g40 : tensor<2x2x13x17xf32>, tensor<2x2x13x17xf32>, tensor<2x2x13xf32>) outs(%e41 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %d = arith.subf %a1, %a2 : f32
      %y = arith.mulf %a0, %d : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e43 = tensor.empty() : tensor<2x2x13x17xf32>
  %g44 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g42 : tensor<2x2x13x17xf32>) outs(%e43 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e45 = tensor.empty() : tensor<2x2x13x8xf32>
  %z46 = linalg.fill ins(%cst2 : f32) outs(%e45 : tensor<2x2x13x8xf32>) -> tensor<2x2x13x8xf32>
  %g47 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g44, %k : tensor<2x2x13x17xf32>, tensor<2x2x17x8xf32>) outs(%z46 : tensor<2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x8xf32>
  %e48 = tensor.empty() : tensor<2x2x17x8xf32>
  %z49 = linalg.fill ins(%cst2 : f32) outs(%e48 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %g50 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g44, %q : tensor<2x2x13x17xf32>, tensor<2x2x13x8xf32>) outs(%z49 : tensor<2x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x17x8xf32>
  return %g19, %g47, %g50, %g34 : tensor<2x2x13x8xf32>, tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>
}

// -----

// GQA (repeat_kv) with an exp2 softmax, recomputed
// CHECK-LABEL: func.func @joint_recompute_gqa_exp2
// CHECK-NOT: linalg.softmax
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: linalg.softmax
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: joint_recompute_gqa_exp2: raised=yes
func.func @joint_recompute_gqa_exp2(%q: tensor<1x4x13x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>, %do: tensor<1x4x13x8xf32>) -> (tensor<1x4x13x8xf32>, tensor<1x4x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>) {
  %e1 = tensor.empty() : tensor<1x2x2x17x8xf32>
  %bc2 = linalg.broadcast ins(%k : tensor<1x2x17x8xf32>) outs(%e1 : tensor<1x2x2x17x8xf32>) dimensions = [2]
  %rep3 = tensor.collapse_shape %bc2 [[0], [1, 2], [3], [4]] : tensor<1x2x2x17x8xf32> into tensor<1x4x17x8xf32>
  %e4 = tensor.empty() : tensor<1x2x2x17x8xf32>
  %bc5 = linalg.broadcast ins(%v : tensor<1x2x17x8xf32>) outs(%e4 : tensor<1x2x2x17x8xf32>) dimensions = [2]
  %rep6 = tensor.collapse_shape %bc5 [[0], [1, 2], [3], [4]] : tensor<1x2x2x17x8xf32> into tensor<1x4x17x8xf32>
  %e7 = tensor.empty() : tensor<1x4x13x17xf32>
  %cst8 = arith.constant 0.0 : f32
  %z9 = linalg.fill ins(%cst8 : f32) outs(%e7 : tensor<1x4x13x17xf32>) -> tensor<1x4x13x17xf32>
  %g10 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %rep3 : tensor<1x4x13x8xf32>, tensor<1x4x17x8xf32>) outs(%z9 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e11 = tensor.empty() : tensor<1x4x13x17xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g10 : tensor<1x4x13x17xf32>) outs(%e11 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e13 = tensor.empty() : tensor<1x4x13x17xf32>
  %e14 = tensor.empty() : tensor<1x4x13xf32>
  %cst15 = arith.constant 0xFF800000 : f32
  %z16 = linalg.fill ins(%cst15 : f32) outs(%e14 : tensor<1x4x13xf32>) -> tensor<1x4x13xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g12 : tensor<1x4x13x17xf32>) outs(%z16 : tensor<1x4x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.maximumf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13xf32>
  %g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g12, %g17 : tensor<1x4x13x17xf32>, tensor<1x4x13xf32>) outs(%e13 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %d = arith.subf %a0, %a1 : f32
      %l = arith.constant 1.44269504 : f32
      %t = arith.mulf %d, %l : f32
      %y = math.exp2 %t : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e19 = tensor.empty() : tensor<1x4x13xf32>
  %z20 = linalg.fill ins(%cst8 : f32) outs(%e19 : tensor<1x4x13xf32>) -> tensor<1x4x13xf32>
  %g21 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g18 : tensor<1x4x13x17xf32>) outs(%z20 : tensor<1x4x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g18, %g21 : tensor<1x4x13x17xf32>, tensor<1x4x13xf32>) outs(%e13 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.divf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e23 = tensor.empty() : tensor<1x4x13x8xf32>
  %z24 = linalg.fill ins(%cst8 : f32) outs(%e23 : tensor<1x4x13x8xf32>) -> tensor<1x4x13x8xf32>
  %g25 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g22, %rep6 : tensor<1x4x13x17xf32>, tensor<1x4x17x8xf32>) outs(%z24 : tensor<1x4x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x8xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %rep3 : tensor<1x4x13x8xf32>, tensor<1x4x17x8xf32>) outs(%z9 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e27 = tensor.empty() : tensor<1x4x13x17xf32>
  %g28 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g26 : tensor<1x4x13x17xf32>) outs(%e27 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e29 = tensor.empty() : tensor<1x4x13x17xf32>
  %e30 = tensor.empty() : tensor<1x4x13xf32>
  %z31 = linalg.fill ins(%cst15 : f32) outs(%e30 : tensor<1x4x13xf32>) -> tensor<1x4x13xf32>
  %g32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g28 : tensor<1x4x13x17xf32>) outs(%z31 : tensor<1x4x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.maximumf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13xf32>
  %g33 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g28, %g32 : tensor<1x4x13x17xf32>, tensor<1x4x13xf32>) outs(%e29 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %d = arith.subf %a0, %a1 : f32
      %l = arith.constant 1.44269504 : f32
      %t = arith.mulf %d, %l : f32
      %y = math.exp2 %t : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e34 = tensor.empty() : tensor<1x4x13xf32>
  %z35 = linalg.fill ins(%cst8 : f32) outs(%e34 : tensor<1x4x13xf32>) -> tensor<1x4x13xf32>
  %g36 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g33 : tensor<1x4x13x17xf32>) outs(%z35 : tensor<1x4x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13xf32>
  %g37 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g33, %g36 : tensor<1x4x13x17xf32>, tensor<1x4x13xf32>) outs(%e29 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.divf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e38 = tensor.empty() : tensor<1x4x17x8xf32>
  %z39 = linalg.fill ins(%cst8 : f32) outs(%e38 : tensor<1x4x17x8xf32>) -> tensor<1x4x17x8xf32>
  %g40 = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g37, %do : tensor<1x4x13x17xf32>, tensor<1x4x13x8xf32>) outs(%z39 : tensor<1x4x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x4x17x8xf32>
  %e41 = tensor.empty() : tensor<1x4x13x17xf32>
  %z42 = linalg.fill ins(%cst8 : f32) outs(%e41 : tensor<1x4x13x17xf32>) -> tensor<1x4x13x17xf32>
  %g43 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %rep6 : tensor<1x4x13x8xf32>, tensor<1x4x17x8xf32>) outs(%z42 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e44 = tensor.empty() : tensor<1x4x13xf32>
  %z45 = linalg.fill ins(%cst8 : f32) outs(%e44 : tensor<1x4x13xf32>) -> tensor<1x4x13xf32>
  %g46 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g37, %g43 : tensor<1x4x13x17xf32>, tensor<1x4x13x17xf32>) outs(%z45 : tensor<1x4x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13xf32>
  %e47 = tensor.empty() : tensor<1x4x13x17xf32>
  %g48 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g37, %g43, %g46 : tensor<1x4x13x17xf32>, tensor<1x4x13x17xf32>, tensor<1x4x13xf32>) outs(%e47 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %d = arith.subf %a1, %a2 : f32
      %y = arith.mulf %a0, %d : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e49 = tensor.empty() : tensor<1x4x13x17xf32>
  %g50 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g48 : tensor<1x4x13x17xf32>) outs(%e49 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e51 = tensor.empty() : tensor<1x4x13x8xf32>
  %z52 = linalg.fill ins(%cst8 : f32) outs(%e51 : tensor<1x4x13x8xf32>) -> tensor<1x4x13x8xf32>
  %g53 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g50, %rep3 : tensor<1x4x13x17xf32>, tensor<1x4x17x8xf32>) outs(%z52 : tensor<1x4x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x8xf32>
  %e54 = tensor.empty() : tensor<1x4x17x8xf32>
  %z55 = linalg.fill ins(%cst8 : f32) outs(%e54 : tensor<1x4x17x8xf32>) -> tensor<1x4x17x8xf32>
  %g56 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g50, %q : tensor<1x4x13x17xf32>, tensor<1x4x13x8xf32>) outs(%z55 : tensor<1x4x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x4x17x8xf32>
  %gx57 = tensor.expand_shape %g56 [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 17, 8] : tensor<1x4x17x8xf32> into tensor<1x2x2x17x8xf32>
  %e58 = tensor.empty() : tensor<1x2x17x8xf32>
  %z59 = linalg.fill ins(%cst8 : f32) outs(%e58 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %rd60 = linalg.reduce ins(%gx57 : tensor<1x2x2x17x8xf32>) outs(%z59 : tensor<1x2x17x8xf32>) dimensions = [2]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  %gx61 = tensor.expand_shape %g40 [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 17, 8] : tensor<1x4x17x8xf32> into tensor<1x2x2x17x8xf32>
  %e62 = tensor.empty() : tensor<1x2x17x8xf32>
  %z63 = linalg.fill ins(%cst8 : f32) outs(%e62 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %rd64 = linalg.reduce ins(%gx61 : tensor<1x2x2x17x8xf32>) outs(%z63 : tensor<1x2x17x8xf32>) dimensions = [2]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  return %g25, %g53, %rd60, %rd64 : tensor<1x4x13x8xf32>, tensor<1x4x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>
}

// -----

// sliding window of 5, maxnumf softmax, dS as P dP - P D, recomputed
// CHECK-LABEL: func.func @joint_recompute_window_maxnum
// CHECK-NOT: linalg.softmax
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: linalg.softmax
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: joint_recompute_window_maxnum: raised=yes
func.func @joint_recompute_window_maxnum(%q: tensor<1x2x15x8xf32>, %k: tensor<1x2x15x8xf32>, %v: tensor<1x2x15x8xf32>, %do: tensor<1x2x15x8xf32>) -> (tensor<1x2x15x8xf32>, tensor<1x2x15x8xf32>, tensor<1x2x15x8xf32>, tensor<1x2x15x8xf32>) {
  %e1 = tensor.empty() : tensor<1x2x15x15xf32>
  %cst2 = arith.constant 0.0 : f32
  %z3 = linalg.fill ins(%cst2 : f32) outs(%e1 : tensor<1x2x15x15xf32>) -> tensor<1x2x15x15xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x15x8xf32>, tensor<1x2x15x8xf32>) outs(%z3 : tensor<1x2x15x15xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15x15xf32>
  %e5 = tensor.empty() : tensor<1x2x15x15xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x15x15xf32>) outs(%e5 : tensor<1x2x15x15xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %b_ = linalg.index 0 : index
      %h_ = linalg.index 1 : index
      %i_ = linalg.index 2 : index
      %j_ = linalg.index 3 : index
      %c4 = arith.constant 4 : index
      %d = arith.subi %i_, %j_ : index
      %k1 = arith.cmpi sle, %d, %c4 : index
      %c0 = arith.constant 0 : index
      %k2 = arith.cmpi sge, %d, %c0 : index
      %keep = arith.andi %k1, %k2 : i1
      %sc_ = arith.constant 0.35355339 : f32
      %y0_ = arith.mulf %a0, %sc_ : f32
      %nf_ = arith.constant 0xFF800000 : f32
      %y_ = arith.select %keep, %y0_, %nf_ : f32
      linalg.yield %y_ : f32
    } -> tensor<1x2x15x15xf32>
  %e7 = tensor.empty() : tensor<1x2x15x15xf32>
  %e8 = tensor.empty() : tensor<1x2x15xf32>
  %cst9 = arith.constant 0xFF800000 : f32
  %z10 = linalg.fill ins(%cst9 : f32) outs(%e8 : tensor<1x2x15xf32>) -> tensor<1x2x15xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g6 : tensor<1x2x15x15xf32>) outs(%z10 : tensor<1x2x15xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.maxnumf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g6, %g11 : tensor<1x2x15x15xf32>, tensor<1x2x15xf32>) outs(%e7 : tensor<1x2x15x15xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %d = arith.subf %a0, %a1 : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15x15xf32>
  %e13 = tensor.empty() : tensor<1x2x15xf32>
  %z14 = linalg.fill ins(%cst2 : f32) outs(%e13 : tensor<1x2x15xf32>) -> tensor<1x2x15xf32>
  %g15 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g12 : tensor<1x2x15x15xf32>) outs(%z14 : tensor<1x2x15xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g12, %g15 : tensor<1x2x15x15xf32>, tensor<1x2x15xf32>) outs(%e7 : tensor<1x2x15x15xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.divf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15x15xf32>
  %e17 = tensor.empty() : tensor<1x2x15x8xf32>
  %z18 = linalg.fill ins(%cst2 : f32) outs(%e17 : tensor<1x2x15x8xf32>) -> tensor<1x2x15x8xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g16, %v : tensor<1x2x15x15xf32>, tensor<1x2x15x8xf32>) outs(%z18 : tensor<1x2x15x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15x8xf32>
  %g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x15x8xf32>, tensor<1x2x15x8xf32>) outs(%z3 : tensor<1x2x15x15xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15x15xf32>
  %e21 = tensor.empty() : tensor<1x2x15x15xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g20 : tensor<1x2x15x15xf32>) outs(%e21 : tensor<1x2x15x15xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %b_ = linalg.index 0 : index
      %h_ = linalg.index 1 : index
      %i_ = linalg.index 2 : index
      %j_ = linalg.index 3 : index
      %c4 = arith.constant 4 : index
      %d = arith.subi %i_, %j_ : index
      %k1 = arith.cmpi sle, %d, %c4 : index
      %c0 = arith.constant 0 : index
      %k2 = arith.cmpi sge, %d, %c0 : index
      %keep = arith.andi %k1, %k2 : i1
      %sc_ = arith.constant 0.35355339 : f32
      %y0_ = arith.mulf %a0, %sc_ : f32
      %nf_ = arith.constant 0xFF800000 : f32
      %y_ = arith.select %keep, %y0_, %nf_ : f32
      linalg.yield %y_ : f32
    } -> tensor<1x2x15x15xf32>
  %e23 = tensor.empty() : tensor<1x2x15x15xf32>
  %e24 = tensor.empty() : tensor<1x2x15xf32>
  %z25 = linalg.fill ins(%cst9 : f32) outs(%e24 : tensor<1x2x15xf32>) -> tensor<1x2x15xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g22 : tensor<1x2x15x15xf32>) outs(%z25 : tensor<1x2x15xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.maxnumf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15xf32>
  %g27 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g22, %g26 : tensor<1x2x15x15xf32>, tensor<1x2x15xf32>) outs(%e23 : tensor<1x2x15x15xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %d = arith.subf %a0, %a1 : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15x15xf32>
  %e28 = tensor.empty() : tensor<1x2x15xf32>
  %z29 = linalg.fill ins(%cst2 : f32) outs(%e28 : tensor<1x2x15xf32>) -> tensor<1x2x15xf32>
  %g30 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g27 : tensor<1x2x15x15xf32>) outs(%z29 : tensor<1x2x15xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15xf32>
  %g31 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g27, %g30 : tensor<1x2x15x15xf32>, tensor<1x2x15xf32>) outs(%e23 : tensor<1x2x15x15xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.divf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15x15xf32>
  %e32 = tensor.empty() : tensor<1x2x15x8xf32>
  %z33 = linalg.fill ins(%cst2 : f32) outs(%e32 : tensor<1x2x15x8xf32>) -> tensor<1x2x15x8xf32>
  %g34 = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g31, %do : tensor<1x2x15x15xf32>, tensor<1x2x15x8xf32>) outs(%z33 : tensor<1x2x15x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15x8xf32>
  %e35 = tensor.empty() : tensor<1x2x15x15xf32>
  %z36 = linalg.fill ins(%cst2 : f32) outs(%e35 : tensor<1x2x15x15xf32>) -> tensor<1x2x15x15xf32>
  %g37 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<1x2x15x8xf32>, tensor<1x2x15x8xf32>) outs(%z36 : tensor<1x2x15x15xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15x15xf32>
  %e38 = tensor.empty() : tensor<1x2x15xf32>
  %z39 = linalg.fill ins(%cst2 : f32) outs(%e38 : tensor<1x2x15xf32>) -> tensor<1x2x15xf32>
  %g40 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g31, %g37 : tensor<1x2x15x15xf32>, tensor<1x2x15x15xf32>) outs(%z39 : tensor<1x2x15xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15xf32>
  %e41 = tensor.empty() : tensor<1x2x15x15xf32>
  %g42 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g31, %g37, %g40 : tensor<1x2x15x15xf32>, tensor<1x2x15x15xf32>, tensor<1x2x15xf32>) outs(%e41 : tensor<1x2x15x15xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %x = arith.mulf %a0, %a1 : f32
      %w = arith.mulf %a0, %a2 : f32
      %y = arith.subf %x, %w : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15x15xf32>
  %e43 = tensor.empty() : tensor<1x2x15x15xf32>
  %g44 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g42 : tensor<1x2x15x15xf32>) outs(%e43 : tensor<1x2x15x15xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15x15xf32>
  %e45 = tensor.empty() : tensor<1x2x15x8xf32>
  %z46 = linalg.fill ins(%cst2 : f32) outs(%e45 : tensor<1x2x15x8xf32>) -> tensor<1x2x15x8xf32>
  %g47 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g44, %k : tensor<1x2x15x15xf32>, tensor<1x2x15x8xf32>) outs(%z46 : tensor<1x2x15x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15x8xf32>
  %e48 = tensor.empty() : tensor<1x2x15x8xf32>
  %z49 = linalg.fill ins(%cst2 : f32) outs(%e48 : tensor<1x2x15x8xf32>) -> tensor<1x2x15x8xf32>
  %g50 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g44, %q : tensor<1x2x15x15xf32>, tensor<1x2x15x8xf32>) outs(%z49 : tensor<1x2x15x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x15x8xf32>
  return %g19, %g47, %g50, %g34 : tensor<1x2x15x8xf32>, tensor<1x2x15x8xf32>, tensor<1x2x15x8xf32>, tensor<1x2x15x8xf32>
}

// -----

// the "recomputed" P has another scale (0.5): not the forward's P, so not its backward
// CHECK-LABEL: func.func @negative_recompute_other_scale
// CHECK: flash.attention
// CHECK-NOT: flash.attention_grad
// CHECK: return
func.func @negative_recompute_other_scale(%q: tensor<1x2x13x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>, %do: tensor<1x2x13x8xf32>) -> (tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>) {
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
  %e7 = tensor.empty() : tensor<1x2x13x17xf32>
  %p8 = linalg.softmax dimension(3) ins(%g6 : tensor<1x2x13x17xf32>) outs(%e7 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %e9 = tensor.empty() : tensor<1x2x13x8xf32>
  %z10 = linalg.fill ins(%cst2 : f32) outs(%e9 : tensor<1x2x13x8xf32>) -> tensor<1x2x13x8xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %v : tensor<1x2x13x17xf32>, tensor<1x2x17x8xf32>) outs(%z10 : tensor<1x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x8xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>) outs(%z3 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e13 = tensor.empty() : tensor<1x2x13x17xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g12 : tensor<1x2x13x17xf32>) outs(%e13 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.5 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e15 = tensor.empty() : tensor<1x2x13x17xf32>
  %p16 = linalg.softmax dimension(3) ins(%g14 : tensor<1x2x13x17xf32>) outs(%e15 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %e17 = tensor.empty() : tensor<1x2x17x8xf32>
  %z18 = linalg.fill ins(%cst2 : f32) outs(%e17 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p16, %do : tensor<1x2x13x17xf32>, tensor<1x2x13x8xf32>) outs(%z18 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  %e20 = tensor.empty() : tensor<1x2x13x17xf32>
  %z21 = linalg.fill ins(%cst2 : f32) outs(%e20 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>) outs(%z21 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e23 = tensor.empty() : tensor<1x2x13xf32>
  %z24 = linalg.fill ins(%cst2 : f32) outs(%e23 : tensor<1x2x13xf32>) -> tensor<1x2x13xf32>
  %g25 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p16, %g22 : tensor<1x2x13x17xf32>, tensor<1x2x13x17xf32>) outs(%z24 : tensor<1x2x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13xf32>
  %e26 = tensor.empty() : tensor<1x2x13x17xf32>
  %g27 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p16, %g22, %g25 : tensor<1x2x13x17xf32>, tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%e26 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %d = arith.subf %a1, %a2 : f32
      %y = arith.mulf %a0, %d : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e28 = tensor.empty() : tensor<1x2x13x17xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g27 : tensor<1x2x13x17xf32>) outs(%e28 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e30 = tensor.empty() : tensor<1x2x13x8xf32>
  %z31 = linalg.fill ins(%cst2 : f32) outs(%e30 : tensor<1x2x13x8xf32>) -> tensor<1x2x13x8xf32>
  %g32 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g29, %k : tensor<1x2x13x17xf32>, tensor<1x2x17x8xf32>) outs(%z31 : tensor<1x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x8xf32>
  %e33 = tensor.empty() : tensor<1x2x17x8xf32>
  %z34 = linalg.fill ins(%cst2 : f32) outs(%e33 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %g35 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g29, %q : tensor<1x2x13x17xf32>, tensor<1x2x13x8xf32>) outs(%z34 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  return %g11, %g32, %g35, %g19 : tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>
}

// -----

// A recompute that reuses the forward's saved row max and sum: P2 =
// exp(S2 - m) / l, with m and l the forward's (found by an adversarial
// tester, session 39). The backward reads intermediates of P: proven
// through P.
// CHECK-LABEL: func.func @joint_recompute_saved_stats
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: math.exp
// CHECK: return
// EXEC: joint_recompute_saved_stats: raised=yes
func.func @joint_recompute_saved_stats(%q: tensor<1x2x13x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>, %do: tensor<1x2x13x8xf32>) -> (tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>) {
  %e1 = tensor.empty() : tensor<1x2x8x17xf32>
  %tr2 = linalg.transpose ins(%k : tensor<1x2x17x8xf32>) outs(%e1 : tensor<1x2x8x17xf32>) permutation = [0, 1, 3, 2]
  %e3 = tensor.empty() : tensor<1x2x13x17xf32>
  %cst4 = arith.constant 0.0 : f32
  %z5 = linalg.fill ins(%cst4 : f32) outs(%e3 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %cl6 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x13x8xf32> into tensor<2x13x8xf32>
  %cl7 = tensor.collapse_shape %tr2 [[0, 1], [2], [3]] : tensor<1x2x8x17xf32> into tensor<2x8x17xf32>
  %cl8 = tensor.collapse_shape %z5 [[0, 1], [2], [3]] : tensor<1x2x13x17xf32> into tensor<2x13x17xf32>
  %bmm9 = linalg.batch_matmul ins(%cl6, %cl7 : tensor<2x13x8xf32>, tensor<2x8x17xf32>) outs(%cl8 : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %ex10 = tensor.expand_shape %bmm9 [[0, 1], [2], [3]] output_shape [1, 2, 13, 17] : tensor<2x13x17xf32> into tensor<1x2x13x17xf32>
  %e11 = tensor.empty() : tensor<1x2x13x17xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex10 : tensor<1x2x13x17xf32>) outs(%e11 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y0 = arith.mulf %a0, %c : f32
      linalg.yield %y0 : f32
    } -> tensor<1x2x13x17xf32>
  %e13 = tensor.empty() : tensor<1x2x13xf32>
  %cst14 = arith.constant 0xFF800000 : f32
  %z15 = linalg.fill ins(%cst14 : f32) outs(%e13 : tensor<1x2x13xf32>) -> tensor<1x2x13xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g12 : tensor<1x2x13x17xf32>) outs(%z15 : tensor<1x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.maximumf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13xf32>
  %e17 = tensor.empty() : tensor<1x2x13x17xf32>
  %g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g12, %g16 : tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%e17 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %d = arith.subf %a0, %a1 : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e19 = tensor.empty() : tensor<1x2x13xf32>
  %z20 = linalg.fill ins(%cst4 : f32) outs(%e19 : tensor<1x2x13xf32>) -> tensor<1x2x13xf32>
  %g21 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g18 : tensor<1x2x13x17xf32>) outs(%z20 : tensor<1x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13xf32>
  %e22 = tensor.empty() : tensor<1x2x13x17xf32>
  %g23 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g18, %g21 : tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%e22 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.divf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e24 = tensor.empty() : tensor<1x2x13x8xf32>
  %z25 = linalg.fill ins(%cst4 : f32) outs(%e24 : tensor<1x2x13x8xf32>) -> tensor<1x2x13x8xf32>
  %cl26 = tensor.collapse_shape %g23 [[0, 1], [2], [3]] : tensor<1x2x13x17xf32> into tensor<2x13x17xf32>
  %cl27 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x17x8xf32> into tensor<2x17x8xf32>
  %cl28 = tensor.collapse_shape %z25 [[0, 1], [2], [3]] : tensor<1x2x13x8xf32> into tensor<2x13x8xf32>
  %bmm29 = linalg.batch_matmul ins(%cl26, %cl27 : tensor<2x13x17xf32>, tensor<2x17x8xf32>) outs(%cl28 : tensor<2x13x8xf32>) -> tensor<2x13x8xf32>
  %ex30 = tensor.expand_shape %bmm29 [[0, 1], [2], [3]] output_shape [1, 2, 13, 8] : tensor<2x13x8xf32> into tensor<1x2x13x8xf32>
  %e31 = tensor.empty() : tensor<1x2x8x17xf32>
  %tr32 = linalg.transpose ins(%k : tensor<1x2x17x8xf32>) outs(%e31 : tensor<1x2x8x17xf32>) permutation = [0, 1, 3, 2]
  %e33 = tensor.empty() : tensor<1x2x13x17xf32>
  %z34 = linalg.fill ins(%cst4 : f32) outs(%e33 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %cl35 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x13x8xf32> into tensor<2x13x8xf32>
  %cl36 = tensor.collapse_shape %tr32 [[0, 1], [2], [3]] : tensor<1x2x8x17xf32> into tensor<2x8x17xf32>
  %cl37 = tensor.collapse_shape %z34 [[0, 1], [2], [3]] : tensor<1x2x13x17xf32> into tensor<2x13x17xf32>
  %bmm38 = linalg.batch_matmul ins(%cl35, %cl36 : tensor<2x13x8xf32>, tensor<2x8x17xf32>) outs(%cl37 : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %ex39 = tensor.expand_shape %bmm38 [[0, 1], [2], [3]] output_shape [1, 2, 13, 17] : tensor<2x13x17xf32> into tensor<1x2x13x17xf32>
  %e40 = tensor.empty() : tensor<1x2x13x17xf32>
  %g41 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex39 : tensor<1x2x13x17xf32>) outs(%e40 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y0 = arith.mulf %a0, %c : f32
      linalg.yield %y0 : f32
    } -> tensor<1x2x13x17xf32>
  %e42 = tensor.empty() : tensor<1x2x13x17xf32>
  %g43 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g41, %g16 : tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%e42 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %d = arith.subf %a0, %a1 : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e44 = tensor.empty() : tensor<1x2x13x17xf32>
  %g45 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g43, %g21 : tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%e44 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.divf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e46 = tensor.empty() : tensor<1x2x17x13xf32>
  %tr47 = linalg.transpose ins(%g45 : tensor<1x2x13x17xf32>) outs(%e46 : tensor<1x2x17x13xf32>) permutation = [0, 1, 3, 2]
  %e48 = tensor.empty() : tensor<1x2x17x8xf32>
  %z49 = linalg.fill ins(%cst4 : f32) outs(%e48 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %cl50 = tensor.collapse_shape %tr47 [[0, 1], [2], [3]] : tensor<1x2x17x13xf32> into tensor<2x17x13xf32>
  %cl51 = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<1x2x13x8xf32> into tensor<2x13x8xf32>
  %cl52 = tensor.collapse_shape %z49 [[0, 1], [2], [3]] : tensor<1x2x17x8xf32> into tensor<2x17x8xf32>
  %bmm53 = linalg.batch_matmul ins(%cl50, %cl51 : tensor<2x17x13xf32>, tensor<2x13x8xf32>) outs(%cl52 : tensor<2x17x8xf32>) -> tensor<2x17x8xf32>
  %ex54 = tensor.expand_shape %bmm53 [[0, 1], [2], [3]] output_shape [1, 2, 17, 8] : tensor<2x17x8xf32> into tensor<1x2x17x8xf32>
  %e55 = tensor.empty() : tensor<1x2x8x17xf32>
  %tr56 = linalg.transpose ins(%v : tensor<1x2x17x8xf32>) outs(%e55 : tensor<1x2x8x17xf32>) permutation = [0, 1, 3, 2]
  %e57 = tensor.empty() : tensor<1x2x13x17xf32>
  %z58 = linalg.fill ins(%cst4 : f32) outs(%e57 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %cl59 = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<1x2x13x8xf32> into tensor<2x13x8xf32>
  %cl60 = tensor.collapse_shape %tr56 [[0, 1], [2], [3]] : tensor<1x2x8x17xf32> into tensor<2x8x17xf32>
  %cl61 = tensor.collapse_shape %z58 [[0, 1], [2], [3]] : tensor<1x2x13x17xf32> into tensor<2x13x17xf32>
  %bmm62 = linalg.batch_matmul ins(%cl59, %cl60 : tensor<2x13x8xf32>, tensor<2x8x17xf32>) outs(%cl61 : tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %ex63 = tensor.expand_shape %bmm62 [[0, 1], [2], [3]] output_shape [1, 2, 13, 17] : tensor<2x13x17xf32> into tensor<1x2x13x17xf32>
  %e64 = tensor.empty() : tensor<1x2x13x17xf32>
  %g65 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex63, %g45 : tensor<1x2x13x17xf32>, tensor<1x2x13x17xf32>) outs(%e64 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.mulf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e66 = tensor.empty() : tensor<1x2x13xf32>
  %z67 = linalg.fill ins(%cst4 : f32) outs(%e66 : tensor<1x2x13xf32>) -> tensor<1x2x13xf32>
  %g68 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g65 : tensor<1x2x13x17xf32>) outs(%z67 : tensor<1x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13xf32>
  %e69 = tensor.empty() : tensor<1x2x13x17xf32>
  %g70 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g65, %g45, %g68 : tensor<1x2x13x17xf32>, tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%e69 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %w = arith.mulf %a1, %a2 : f32
      %y = arith.subf %a0, %w : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e71 = tensor.empty() : tensor<1x2x13x17xf32>
  %g72 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g70 : tensor<1x2x13x17xf32>) outs(%e71 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e73 = tensor.empty() : tensor<1x2x13x8xf32>
  %z74 = linalg.fill ins(%cst4 : f32) outs(%e73 : tensor<1x2x13x8xf32>) -> tensor<1x2x13x8xf32>
  %cl75 = tensor.collapse_shape %g72 [[0, 1], [2], [3]] : tensor<1x2x13x17xf32> into tensor<2x13x17xf32>
  %cl76 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<1x2x17x8xf32> into tensor<2x17x8xf32>
  %cl77 = tensor.collapse_shape %z74 [[0, 1], [2], [3]] : tensor<1x2x13x8xf32> into tensor<2x13x8xf32>
  %bmm78 = linalg.batch_matmul ins(%cl75, %cl76 : tensor<2x13x17xf32>, tensor<2x17x8xf32>) outs(%cl77 : tensor<2x13x8xf32>) -> tensor<2x13x8xf32>
  %ex79 = tensor.expand_shape %bmm78 [[0, 1], [2], [3]] output_shape [1, 2, 13, 8] : tensor<2x13x8xf32> into tensor<1x2x13x8xf32>
  %e80 = tensor.empty() : tensor<1x2x17x13xf32>
  %tr81 = linalg.transpose ins(%g72 : tensor<1x2x13x17xf32>) outs(%e80 : tensor<1x2x17x13xf32>) permutation = [0, 1, 3, 2]
  %e82 = tensor.empty() : tensor<1x2x17x8xf32>
  %z83 = linalg.fill ins(%cst4 : f32) outs(%e82 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %cl84 = tensor.collapse_shape %tr81 [[0, 1], [2], [3]] : tensor<1x2x17x13xf32> into tensor<2x17x13xf32>
  %cl85 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x13x8xf32> into tensor<2x13x8xf32>
  %cl86 = tensor.collapse_shape %z83 [[0, 1], [2], [3]] : tensor<1x2x17x8xf32> into tensor<2x17x8xf32>
  %bmm87 = linalg.batch_matmul ins(%cl84, %cl85 : tensor<2x17x13xf32>, tensor<2x13x8xf32>) outs(%cl86 : tensor<2x17x8xf32>) -> tensor<2x17x8xf32>
  %ex88 = tensor.expand_shape %bmm87 [[0, 1], [2], [3]] output_shape [1, 2, 17, 8] : tensor<2x17x8xf32> into tensor<1x2x17x8xf32>
  return %ex30, %ex79, %ex88, %ex54 : tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>
}
