// Joint forward + backward graphs in spellings autodiff front ends emit
// (found by an adversarial tester, session 38): torch's masked_fill
// backward re-applying the forward's mask to dS (P is 0 there already, so
// select(mask, dS, 0) is dS, inside dQ's and dK's sums too), dO scaled
// before the backward (a mean loss's 1/n), Delta = rowsum(dO O) with a
// unit batch or head dim, the soft-cap's derivative 1 - tanh^2 written with
// math.powf or math.fpowi, dS with math.fma. A mask only in the backward,
// or a tighter one than the forward's, is not the backward of the forward
// and stays unraised.
// RUN: flash-opt %s --split-input-file --flash-raise-attention | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// @joint_causal_2d of raise-joint.mlir with the backward's dS also zeroed where the forward masked
// (torch autograd's masked_fill backward: grad.masked_fill(mask, 0)). Still exactly the gradient.
// CHECK-LABEL: func.func @joint_causal_masked_fill_bwd
// CHECK: flash.attention 
// CHECK: flash.attention_grad
// EXEC: joint_causal_masked_fill_bwd: raised=yes
func.func @joint_causal_masked_fill_bwd(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
                           %do: tensor<16x8xf32>)
    -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<16x20xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<16x20xf32>) -> tensor<16x20xf32>
  %eo = tensor.empty() : tensor<16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %ek = tensor.empty() : tensor<20x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<20x8xf32>) -> tensor<20x8xf32>
  %er = tensor.empty() : tensor<16xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.35355339 : f32
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x8xf32>, tensor<20x8xf32>) outs(%zs : tensor<16x20xf32>) -> tensor<16x20xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %x2 = arith.mulf %x, %scale : f32
    %vis = arith.cmpi ule, %j, %i : index
    %y = arith.select %vis, %x2, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) -> tensor<16x20xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  // Backward.
  %ept = tensor.empty() : tensor<20x16xf32>
  %pt = linalg.transpose ins(%p : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dv = linalg.matmul ins(%pt, %do : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  %evt = tensor.empty() : tensor<8x20xf32>
  %vt = linalg.transpose ins(%v : tensor<20x8xf32>) outs(%evt : tensor<8x20xf32>) permutation = [1, 0]
  %dp = linalg.matmul ins(%do, %vt : tensor<16x8xf32>, tensor<8x20xf32>) outs(%zs : tensor<16x20xf32>) -> tensor<16x20xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%dp, %p : tensor<16x20xf32>, tensor<16x20xf32>) outs(%zr : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<16x20xf32>, tensor<16x20xf32>, tensor<16xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %t = arith.mulf %pp, %d : f32
    %y0 = arith.mulf %t, %scale : f32
    // torch's masked_fill backward: grad.masked_fill(~vis, 0)
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %vis = arith.cmpi ule, %j, %i : index
    %zf = arith.constant 0.0 : f32
    %y = arith.select %vis, %y0, %zf : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// causal forward; backward re-applies the same mask to dS (redundant, still the gradient)
// CHECK-LABEL: func.func @joint_bwd_redundant_mask
// CHECK: flash.attention 
// CHECK: flash.attention_grad
// EXEC: joint_bwd_redundant_mask: raised=yes
func.func @joint_bwd_redundant_mask(%q: tensor<2x2x13x8xf32>, %k: tensor<2x2x17x8xf32>, %v: tensor<2x2x17x8xf32>, %do: tensor<2x2x13x8xf32>) -> (tensor<2x2x13x8xf32>, tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>) {
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
      %keep = arith.cmpi ule, %j_, %i_ : index
      %sc_ = arith.constant 0.35355339 : f32
      %y0_ = arith.mulf %a0, %sc_ : f32
      %nf_ = arith.constant 0xFF800000 : f32
      %y_ = arith.select %keep, %y0_, %nf_ : f32
      linalg.yield %y_ : f32
    } -> tensor<2x2x13x17xf32>
  %e7 = tensor.empty() : tensor<2x2x13x17xf32>
  %p8 = linalg.softmax dimension(3) ins(%g6 : tensor<2x2x13x17xf32>) outs(%e7 : tensor<2x2x13x17xf32>) -> tensor<2x2x13x17xf32>
  %e9 = tensor.empty() : tensor<2x2x13x8xf32>
  %z10 = linalg.fill ins(%cst2 : f32) outs(%e9 : tensor<2x2x13x8xf32>) -> tensor<2x2x13x8xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %v : tensor<2x2x13x17xf32>, tensor<2x2x17x8xf32>) outs(%z10 : tensor<2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x8xf32>
  %e12 = tensor.empty() : tensor<2x2x17x8xf32>
  %z13 = linalg.fill ins(%cst2 : f32) outs(%e12 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %do : tensor<2x2x13x17xf32>, tensor<2x2x13x8xf32>) outs(%z13 : tensor<2x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x17x8xf32>
  %e15 = tensor.empty() : tensor<2x2x13x17xf32>
  %z16 = linalg.fill ins(%cst2 : f32) outs(%e15 : tensor<2x2x13x17xf32>) -> tensor<2x2x13x17xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>) outs(%z16 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e18 = tensor.empty() : tensor<2x2x13xf32>
  %z19 = linalg.fill ins(%cst2 : f32) outs(%e18 : tensor<2x2x13xf32>) -> tensor<2x2x13xf32>
  %g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %g17 : tensor<2x2x13x17xf32>, tensor<2x2x13x17xf32>) outs(%z19 : tensor<2x2x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13xf32>
  %e21 = tensor.empty() : tensor<2x2x13x17xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p8, %g17, %g20 : tensor<2x2x13x17xf32>, tensor<2x2x13x17xf32>, tensor<2x2x13xf32>) outs(%e21 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %d = arith.subf %a1, %a2 : f32
      %y = arith.mulf %a0, %d : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e23 = tensor.empty() : tensor<2x2x13x17xf32>
  %g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g22 : tensor<2x2x13x17xf32>) outs(%e23 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %b_ = linalg.index 0 : index
      %h_ = linalg.index 1 : index
      %i_ = linalg.index 2 : index
      %j_ = linalg.index 3 : index
      %keep = arith.cmpi ule, %j_, %i_ : index
      %c = arith.constant 0.35355339 : f32
      %y0 = arith.mulf %a0, %c : f32
      %z = arith.constant 0.0 : f32
      %y = arith.select %keep, %y0, %z : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e25 = tensor.empty() : tensor<2x2x13x8xf32>
  %z26 = linalg.fill ins(%cst2 : f32) outs(%e25 : tensor<2x2x13x8xf32>) -> tensor<2x2x13x8xf32>
  %g27 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g24, %k : tensor<2x2x13x17xf32>, tensor<2x2x17x8xf32>) outs(%z26 : tensor<2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x8xf32>
  %e28 = tensor.empty() : tensor<2x2x17x8xf32>
  %z29 = linalg.fill ins(%cst2 : f32) outs(%e28 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %g30 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g24, %q : tensor<2x2x13x17xf32>, tensor<2x2x13x8xf32>) outs(%z29 : tensor<2x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x17x8xf32>
  return %g11, %g27, %g30, %g14 : tensor<2x2x13x8xf32>, tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>
}

// -----

// dO multiplied by 0.25 (e.g. mean loss) before the backward
// CHECK-LABEL: func.func @joint_do_scaled
// CHECK: flash.attention 
// CHECK: flash.attention_grad
// EXEC: joint_do_scaled: raised=yes
func.func @joint_do_scaled(%q: tensor<2x2x13x8xf32>, %k: tensor<2x2x17x8xf32>, %v: tensor<2x2x17x8xf32>, %do: tensor<2x2x13x8xf32>) -> (tensor<2x2x13x8xf32>, tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>) {
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
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e7 = tensor.empty() : tensor<2x2x13x17xf32>
  %p8 = linalg.softmax dimension(3) ins(%g6 : tensor<2x2x13x17xf32>) outs(%e7 : tensor<2x2x13x17xf32>) -> tensor<2x2x13x17xf32>
  %e9 = tensor.empty() : tensor<2x2x13x8xf32>
  %z10 = linalg.fill ins(%cst2 : f32) outs(%e9 : tensor<2x2x13x8xf32>) -> tensor<2x2x13x8xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %v : tensor<2x2x13x17xf32>, tensor<2x2x17x8xf32>) outs(%z10 : tensor<2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x8xf32>
  %e12 = tensor.empty() : tensor<2x2x13x8xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e) -> (b, h, i, e)>, affine_map<(b, h, i, e) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%do : tensor<2x2x13x8xf32>) outs(%e12 : tensor<2x2x13x8xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.25 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x8xf32>
  %e14 = tensor.empty() : tensor<2x2x17x8xf32>
  %z15 = linalg.fill ins(%cst2 : f32) outs(%e14 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %g13 : tensor<2x2x13x17xf32>, tensor<2x2x13x8xf32>) outs(%z15 : tensor<2x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x17x8xf32>
  %e17 = tensor.empty() : tensor<2x2x13x17xf32>
  %z18 = linalg.fill ins(%cst2 : f32) outs(%e17 : tensor<2x2x13x17xf32>) -> tensor<2x2x13x17xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g13, %v : tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>) outs(%z18 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e20 = tensor.empty() : tensor<2x2x13xf32>
  %z21 = linalg.fill ins(%cst2 : f32) outs(%e20 : tensor<2x2x13xf32>) -> tensor<2x2x13xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %g19 : tensor<2x2x13x17xf32>, tensor<2x2x13x17xf32>) outs(%z21 : tensor<2x2x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13xf32>
  %e23 = tensor.empty() : tensor<2x2x13x17xf32>
  %g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p8, %g19, %g22 : tensor<2x2x13x17xf32>, tensor<2x2x13x17xf32>, tensor<2x2x13xf32>) outs(%e23 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %d = arith.subf %a1, %a2 : f32
      %y = arith.mulf %a0, %d : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e25 = tensor.empty() : tensor<2x2x13x17xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g24 : tensor<2x2x13x17xf32>) outs(%e25 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e27 = tensor.empty() : tensor<2x2x13x8xf32>
  %z28 = linalg.fill ins(%cst2 : f32) outs(%e27 : tensor<2x2x13x8xf32>) -> tensor<2x2x13x8xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g26, %k : tensor<2x2x13x17xf32>, tensor<2x2x17x8xf32>) outs(%z28 : tensor<2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x8xf32>
  %e30 = tensor.empty() : tensor<2x2x17x8xf32>
  %z31 = linalg.fill ins(%cst2 : f32) outs(%e30 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %g32 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g26, %q : tensor<2x2x13x17xf32>, tensor<2x2x13x8xf32>) outs(%z31 : tensor<2x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x17x8xf32>
  return %g11, %g29, %g32, %g16 : tensor<2x2x13x8xf32>, tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>
}

// -----

// Delta = rowsum(dO * O); B = 1 (same program with B = 2 is raised)
// CHECK-LABEL: func.func @joint_delta_do_o_batch1
// CHECK: flash.attention 
// CHECK: flash.attention_grad
// EXEC: joint_delta_do_o_batch1: raised=yes
func.func @joint_delta_do_o_batch1(%q: tensor<1x2x13x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>, %do: tensor<1x2x13x8xf32>) -> (tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>) {
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
  %e12 = tensor.empty() : tensor<1x2x17x8xf32>
  %z13 = linalg.fill ins(%cst2 : f32) outs(%e12 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %do : tensor<1x2x13x17xf32>, tensor<1x2x13x8xf32>) outs(%z13 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  %e15 = tensor.empty() : tensor<1x2x13x17xf32>
  %z16 = linalg.fill ins(%cst2 : f32) outs(%e15 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>) outs(%z16 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e18 = tensor.empty() : tensor<1x2x13xf32>
  %z19 = linalg.fill ins(%cst2 : f32) outs(%e18 : tensor<1x2x13xf32>) -> tensor<1x2x13xf32>
  %g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e) -> (b, h, i, e)>, affine_map<(b, h, i, e) -> (b, h, i, e)>, affine_map<(b, h, i, e) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %g11 : tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>) outs(%z19 : tensor<1x2x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13xf32>
  %e21 = tensor.empty() : tensor<1x2x13x17xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p8, %g17, %g20 : tensor<1x2x13x17xf32>, tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%e21 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %d = arith.subf %a1, %a2 : f32
      %y = arith.mulf %a0, %d : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e23 = tensor.empty() : tensor<1x2x13x17xf32>
  %g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g22 : tensor<1x2x13x17xf32>) outs(%e23 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e25 = tensor.empty() : tensor<1x2x13x8xf32>
  %z26 = linalg.fill ins(%cst2 : f32) outs(%e25 : tensor<1x2x13x8xf32>) -> tensor<1x2x13x8xf32>
  %g27 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g24, %k : tensor<1x2x13x17xf32>, tensor<1x2x17x8xf32>) outs(%z26 : tensor<1x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x8xf32>
  %e28 = tensor.empty() : tensor<1x2x17x8xf32>
  %z29 = linalg.fill ins(%cst2 : f32) outs(%e28 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %g30 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g24, %q : tensor<1x2x13x17xf32>, tensor<1x2x13x8xf32>) outs(%z29 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  return %g11, %g27, %g30, %g14 : tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>
}

// -----

// softcap; derivative written 1 - powf(t, 2.0)
// CHECK-LABEL: func.func @joint_softcap_powf
// CHECK: flash.attention 
// CHECK: flash.attention_grad
// EXEC: joint_softcap_powf: raised=yes
func.func @joint_softcap_powf(%q: tensor<2x2x13x8xf32>, %k: tensor<2x2x17x8xf32>, %v: tensor<2x2x17x8xf32>, %do: tensor<2x2x13x8xf32>) -> (tensor<2x2x13x8xf32>, tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>) {
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
  %e6 = tensor.empty() : tensor<2x2x13x17xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<2x2x13x17xf32>) outs(%e5 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y0 = arith.mulf %a0, %c : f32
      %cap = arith.constant 5.0 : f32
      %y1 = arith.divf %y0, %cap : f32
      %y = math.tanh %y1 : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7 : tensor<2x2x13x17xf32>) outs(%e6 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %cap = arith.constant 5.0 : f32
      %y = arith.mulf %a0, %cap : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e9 = tensor.empty() : tensor<2x2x13x17xf32>
  %p10 = linalg.softmax dimension(3) ins(%g8 : tensor<2x2x13x17xf32>) outs(%e9 : tensor<2x2x13x17xf32>) -> tensor<2x2x13x17xf32>
  %e11 = tensor.empty() : tensor<2x2x13x8xf32>
  %z12 = linalg.fill ins(%cst2 : f32) outs(%e11 : tensor<2x2x13x8xf32>) -> tensor<2x2x13x8xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p10, %v : tensor<2x2x13x17xf32>, tensor<2x2x17x8xf32>) outs(%z12 : tensor<2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x8xf32>
  %e14 = tensor.empty() : tensor<2x2x17x8xf32>
  %z15 = linalg.fill ins(%cst2 : f32) outs(%e14 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p10, %do : tensor<2x2x13x17xf32>, tensor<2x2x13x8xf32>) outs(%z15 : tensor<2x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x17x8xf32>
  %e17 = tensor.empty() : tensor<2x2x13x17xf32>
  %z18 = linalg.fill ins(%cst2 : f32) outs(%e17 : tensor<2x2x13x17xf32>) -> tensor<2x2x13x17xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>) outs(%z18 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e20 = tensor.empty() : tensor<2x2x13xf32>
  %z21 = linalg.fill ins(%cst2 : f32) outs(%e20 : tensor<2x2x13xf32>) -> tensor<2x2x13xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p10, %g19 : tensor<2x2x13x17xf32>, tensor<2x2x13x17xf32>) outs(%z21 : tensor<2x2x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13xf32>
  %e23 = tensor.empty() : tensor<2x2x13x17xf32>
  %g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p10, %g19, %g22 : tensor<2x2x13x17xf32>, tensor<2x2x13x17xf32>, tensor<2x2x13xf32>) outs(%e23 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %d = arith.subf %a1, %a2 : f32
      %y = arith.mulf %a0, %d : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e25 = tensor.empty() : tensor<2x2x13x17xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g24, %g7 : tensor<2x2x13x17xf32>, tensor<2x2x13x17xf32>) outs(%e25 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %two = arith.constant 2.0 : f32
      %t2 = math.powf %a1, %two : f32
      %one = arith.constant 1.0 : f32
      %dd = arith.subf %one, %t2 : f32
      %c = arith.constant 0.35355339 : f32
      %y0 = arith.mulf %a0, %dd : f32
      %y = arith.mulf %y0, %c : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e27 = tensor.empty() : tensor<2x2x13x8xf32>
  %z28 = linalg.fill ins(%cst2 : f32) outs(%e27 : tensor<2x2x13x8xf32>) -> tensor<2x2x13x8xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g26, %k : tensor<2x2x13x17xf32>, tensor<2x2x17x8xf32>) outs(%z28 : tensor<2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x8xf32>
  %e30 = tensor.empty() : tensor<2x2x17x8xf32>
  %z31 = linalg.fill ins(%cst2 : f32) outs(%e30 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %g32 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g26, %q : tensor<2x2x13x17xf32>, tensor<2x2x13x8xf32>) outs(%z31 : tensor<2x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x17x8xf32>
  return %g13, %g29, %g32, %g16 : tensor<2x2x13x8xf32>, tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>
}

// -----

// CHECK-LABEL: func.func @joint_ds_fma
// CHECK: flash.attention 
// CHECK: flash.attention_grad
// EXEC: joint_ds_fma: raised=yes
func.func @joint_ds_fma(%q: tensor<1x2x13x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>, %do: tensor<1x2x13x8xf32>) -> (tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>) {
  %e1 = tensor.empty() : tensor<1x2x13x17xf32>
  %c2 = arith.constant 0.0 : f32
  %z3 = linalg.fill ins(%c2 : f32) outs(%e1 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
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
  %z10 = linalg.fill ins(%c2 : f32) outs(%e9 : tensor<1x2x13x8xf32>) -> tensor<1x2x13x8xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %v : tensor<1x2x13x17xf32>, tensor<1x2x17x8xf32>) outs(%z10 : tensor<1x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x8xf32>
  %e12 = tensor.empty() : tensor<1x2x17x8xf32>
  %z13 = linalg.fill ins(%c2 : f32) outs(%e12 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %do : tensor<1x2x13x17xf32>, tensor<1x2x13x8xf32>) outs(%z13 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  %e15 = tensor.empty() : tensor<1x2x13x17xf32>
  %z16 = linalg.fill ins(%c2 : f32) outs(%e15 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>) outs(%z16 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e18 = tensor.empty() : tensor<1x2x13xf32>
  %z19 = linalg.fill ins(%c2 : f32) outs(%e18 : tensor<1x2x13xf32>) -> tensor<1x2x13xf32>
  %g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %g17 : tensor<1x2x13x17xf32>, tensor<1x2x13x17xf32>) outs(%z19 : tensor<1x2x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13xf32>
  %e21 = tensor.empty() : tensor<1x2x13x17xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p8, %g17, %g20 : tensor<1x2x13x17xf32>, tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%e21 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %n = arith.negf %a2 : f32
      %w = arith.mulf %a0, %n : f32
      %y = math.fma %a0, %a1, %w : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e23 = tensor.empty() : tensor<1x2x13x17xf32>
  %g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g22 : tensor<1x2x13x17xf32>) outs(%e23 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e25 = tensor.empty() : tensor<1x2x13x8xf32>
  %z26 = linalg.fill ins(%c2 : f32) outs(%e25 : tensor<1x2x13x8xf32>) -> tensor<1x2x13x8xf32>
  %g27 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g24, %k : tensor<1x2x13x17xf32>, tensor<1x2x17x8xf32>) outs(%z26 : tensor<1x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x8xf32>
  %e28 = tensor.empty() : tensor<1x2x17x8xf32>
  %z29 = linalg.fill ins(%c2 : f32) outs(%e28 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %g30 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g24, %q : tensor<1x2x13x17xf32>, tensor<1x2x13x8xf32>) outs(%z29 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  return %g11, %g27, %g30, %g14 : tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>
}

// -----

// forward j<=i+2, backward zeroes dS for j>i: not the gradient
// CHECK-LABEL: func.func @negative_joint_bwd_tighter_mask
// CHECK-NOT: flash.attention_grad
// CHECK: return
func.func @negative_joint_bwd_tighter_mask(%q: tensor<2x2x13x8xf32>, %k: tensor<2x2x17x8xf32>, %v: tensor<2x2x17x8xf32>, %do: tensor<2x2x13x8xf32>) -> (tensor<2x2x13x8xf32>, tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>) {
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
      %c2 = arith.constant 2 : index
      %ip = arith.addi %i_, %c2 : index
      %keep = arith.cmpi ule, %j_, %ip : index
      %sc_ = arith.constant 0.35355339 : f32
      %y0_ = arith.mulf %a0, %sc_ : f32
      %nf_ = arith.constant 0xFF800000 : f32
      %y_ = arith.select %keep, %y0_, %nf_ : f32
      linalg.yield %y_ : f32
    } -> tensor<2x2x13x17xf32>
  %e7 = tensor.empty() : tensor<2x2x13x17xf32>
  %p8 = linalg.softmax dimension(3) ins(%g6 : tensor<2x2x13x17xf32>) outs(%e7 : tensor<2x2x13x17xf32>) -> tensor<2x2x13x17xf32>
  %e9 = tensor.empty() : tensor<2x2x13x8xf32>
  %z10 = linalg.fill ins(%cst2 : f32) outs(%e9 : tensor<2x2x13x8xf32>) -> tensor<2x2x13x8xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %v : tensor<2x2x13x17xf32>, tensor<2x2x17x8xf32>) outs(%z10 : tensor<2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x8xf32>
  %e12 = tensor.empty() : tensor<2x2x17x8xf32>
  %z13 = linalg.fill ins(%cst2 : f32) outs(%e12 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %do : tensor<2x2x13x17xf32>, tensor<2x2x13x8xf32>) outs(%z13 : tensor<2x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x17x8xf32>
  %e15 = tensor.empty() : tensor<2x2x13x17xf32>
  %z16 = linalg.fill ins(%cst2 : f32) outs(%e15 : tensor<2x2x13x17xf32>) -> tensor<2x2x13x17xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>) outs(%z16 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e18 = tensor.empty() : tensor<2x2x13xf32>
  %z19 = linalg.fill ins(%cst2 : f32) outs(%e18 : tensor<2x2x13xf32>) -> tensor<2x2x13xf32>
  %g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %g17 : tensor<2x2x13x17xf32>, tensor<2x2x13x17xf32>) outs(%z19 : tensor<2x2x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13xf32>
  %e21 = tensor.empty() : tensor<2x2x13x17xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p8, %g17, %g20 : tensor<2x2x13x17xf32>, tensor<2x2x13x17xf32>, tensor<2x2x13xf32>) outs(%e21 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %d = arith.subf %a1, %a2 : f32
      %y = arith.mulf %a0, %d : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e23 = tensor.empty() : tensor<2x2x13x17xf32>
  %g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g22 : tensor<2x2x13x17xf32>) outs(%e23 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %b_ = linalg.index 0 : index
      %h_ = linalg.index 1 : index
      %i_ = linalg.index 2 : index
      %j_ = linalg.index 3 : index
      %keep = arith.cmpi ule, %j_, %i_ : index
      %c = arith.constant 0.35355339 : f32
      %y0 = arith.mulf %a0, %c : f32
      %z = arith.constant 0.0 : f32
      %y = arith.select %keep, %y0, %z : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e25 = tensor.empty() : tensor<2x2x13x8xf32>
  %z26 = linalg.fill ins(%cst2 : f32) outs(%e25 : tensor<2x2x13x8xf32>) -> tensor<2x2x13x8xf32>
  %g27 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g24, %k : tensor<2x2x13x17xf32>, tensor<2x2x17x8xf32>) outs(%z26 : tensor<2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x8xf32>
  %e28 = tensor.empty() : tensor<2x2x17x8xf32>
  %z29 = linalg.fill ins(%cst2 : f32) outs(%e28 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %g30 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g24, %q : tensor<2x2x13x17xf32>, tensor<2x2x13x8xf32>) outs(%z29 : tensor<2x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x17x8xf32>
  return %g11, %g27, %g30, %g14 : tensor<2x2x13x8xf32>, tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>
}

// -----

// forward unmasked, backward zeroes dS above the diagonal: not the gradient
// CHECK-LABEL: func.func @negative_joint_bwd_only_mask
// CHECK-NOT: flash.attention_grad
// CHECK: return
func.func @negative_joint_bwd_only_mask(%q: tensor<2x2x13x8xf32>, %k: tensor<2x2x17x8xf32>, %v: tensor<2x2x17x8xf32>, %do: tensor<2x2x13x8xf32>) -> (tensor<2x2x13x8xf32>, tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>) {
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
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e7 = tensor.empty() : tensor<2x2x13x17xf32>
  %p8 = linalg.softmax dimension(3) ins(%g6 : tensor<2x2x13x17xf32>) outs(%e7 : tensor<2x2x13x17xf32>) -> tensor<2x2x13x17xf32>
  %e9 = tensor.empty() : tensor<2x2x13x8xf32>
  %z10 = linalg.fill ins(%cst2 : f32) outs(%e9 : tensor<2x2x13x8xf32>) -> tensor<2x2x13x8xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %v : tensor<2x2x13x17xf32>, tensor<2x2x17x8xf32>) outs(%z10 : tensor<2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x8xf32>
  %e12 = tensor.empty() : tensor<2x2x17x8xf32>
  %z13 = linalg.fill ins(%cst2 : f32) outs(%e12 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %do : tensor<2x2x13x17xf32>, tensor<2x2x13x8xf32>) outs(%z13 : tensor<2x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x17x8xf32>
  %e15 = tensor.empty() : tensor<2x2x13x17xf32>
  %z16 = linalg.fill ins(%cst2 : f32) outs(%e15 : tensor<2x2x13x17xf32>) -> tensor<2x2x13x17xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>) outs(%z16 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e18 = tensor.empty() : tensor<2x2x13xf32>
  %z19 = linalg.fill ins(%cst2 : f32) outs(%e18 : tensor<2x2x13xf32>) -> tensor<2x2x13xf32>
  %g20 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %g17 : tensor<2x2x13x17xf32>, tensor<2x2x13x17xf32>) outs(%z19 : tensor<2x2x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13xf32>
  %e21 = tensor.empty() : tensor<2x2x13x17xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p8, %g17, %g20 : tensor<2x2x13x17xf32>, tensor<2x2x13x17xf32>, tensor<2x2x13xf32>) outs(%e21 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %d = arith.subf %a1, %a2 : f32
      %y = arith.mulf %a0, %d : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e23 = tensor.empty() : tensor<2x2x13x17xf32>
  %g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g22 : tensor<2x2x13x17xf32>) outs(%e23 : tensor<2x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %b_ = linalg.index 0 : index
      %h_ = linalg.index 1 : index
      %i_ = linalg.index 2 : index
      %j_ = linalg.index 3 : index
      %keep = arith.cmpi ule, %j_, %i_ : index
      %c = arith.constant 0.35355339 : f32
      %y0 = arith.mulf %a0, %c : f32
      %z = arith.constant 0.0 : f32
      %y = arith.select %keep, %y0, %z : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x17xf32>
  %e25 = tensor.empty() : tensor<2x2x13x8xf32>
  %z26 = linalg.fill ins(%cst2 : f32) outs(%e25 : tensor<2x2x13x8xf32>) -> tensor<2x2x13x8xf32>
  %g27 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g24, %k : tensor<2x2x13x17xf32>, tensor<2x2x17x8xf32>) outs(%z26 : tensor<2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x13x8xf32>
  %e28 = tensor.empty() : tensor<2x2x17x8xf32>
  %z29 = linalg.fill ins(%cst2 : f32) outs(%e28 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %g30 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g24, %q : tensor<2x2x13x17xf32>, tensor<2x2x13x8xf32>) outs(%z29 : tensor<2x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x17x8xf32>
  return %g11, %g27, %g30, %g14 : tensor<2x2x13x8xf32>, tensor<2x2x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>
}

// -----

// The soft-cap's derivative as 1 - fpowi(t, 2) (the CPU pipeline expands
// fpowi by a constant: LLVM's powi takes no vector exponent).
// CHECK-LABEL: func.func @joint_softcap_fpowi
// CHECK: flash.attention 
// CHECK: flash.attention_grad
// EXEC: joint_softcap_fpowi: raised=yes
func.func @joint_softcap_fpowi(%q: tensor<1x2x13x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>, %do: tensor<1x2x13x8xf32>) -> (tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>) {
  %e1 = tensor.empty() : tensor<1x2x13x17xf32>
  %c2 = arith.constant 0.0 : f32
  %z3 = linalg.fill ins(%c2 : f32) outs(%e1 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>) outs(%z3 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e5 = tensor.empty() : tensor<1x2x13x17xf32>
  %e6 = tensor.empty() : tensor<1x2x13x17xf32>
  %g7 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x2x13x17xf32>) outs(%e5 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y0 = arith.mulf %a0, %c : f32
      %cap = arith.constant 5.0 : f32
      %y1 = arith.divf %y0, %cap : f32
      %y = math.tanh %y1 : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g7 : tensor<1x2x13x17xf32>) outs(%e6 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %cap = arith.constant 5.0 : f32
      %y = arith.mulf %a0, %cap : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e9 = tensor.empty() : tensor<1x2x13x17xf32>
  %p10 = linalg.softmax dimension(3) ins(%g8 : tensor<1x2x13x17xf32>) outs(%e9 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %e11 = tensor.empty() : tensor<1x2x13x8xf32>
  %z12 = linalg.fill ins(%c2 : f32) outs(%e11 : tensor<1x2x13x8xf32>) -> tensor<1x2x13x8xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p10, %v : tensor<1x2x13x17xf32>, tensor<1x2x17x8xf32>) outs(%z12 : tensor<1x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x8xf32>
  %e14 = tensor.empty() : tensor<1x2x17x8xf32>
  %z15 = linalg.fill ins(%c2 : f32) outs(%e14 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p10, %do : tensor<1x2x13x17xf32>, tensor<1x2x13x8xf32>) outs(%z15 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  %e17 = tensor.empty() : tensor<1x2x13x17xf32>
  %z18 = linalg.fill ins(%c2 : f32) outs(%e17 : tensor<1x2x13x17xf32>) -> tensor<1x2x13x17xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>) outs(%z18 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e20 = tensor.empty() : tensor<1x2x13xf32>
  %z21 = linalg.fill ins(%c2 : f32) outs(%e20 : tensor<1x2x13xf32>) -> tensor<1x2x13xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p10, %g19 : tensor<1x2x13x17xf32>, tensor<1x2x13x17xf32>) outs(%z21 : tensor<1x2x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13xf32>
  %e23 = tensor.empty() : tensor<1x2x13x17xf32>
  %g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p10, %g19, %g22 : tensor<1x2x13x17xf32>, tensor<1x2x13x17xf32>, tensor<1x2x13xf32>) outs(%e23 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %d = arith.subf %a1, %a2 : f32
      %y = arith.mulf %a0, %d : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e25 = tensor.empty() : tensor<1x2x13x17xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g24, %g7 : tensor<1x2x13x17xf32>, tensor<1x2x13x17xf32>) outs(%e25 : tensor<1x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %two = arith.constant 2 : i32
      %t2 = math.fpowi %a1, %two : f32, i32
      %one = arith.constant 1.0 : f32
      %dd = arith.subf %one, %t2 : f32
      %c = arith.constant 0.35355339 : f32
      %y0 = arith.mulf %a0, %dd : f32
      %y = arith.mulf %y0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x17xf32>
  %e27 = tensor.empty() : tensor<1x2x13x8xf32>
  %z28 = linalg.fill ins(%c2 : f32) outs(%e27 : tensor<1x2x13x8xf32>) -> tensor<1x2x13x8xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g26, %k : tensor<1x2x13x17xf32>, tensor<1x2x17x8xf32>) outs(%z28 : tensor<1x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x13x8xf32>
  %e30 = tensor.empty() : tensor<1x2x17x8xf32>
  %z31 = linalg.fill ins(%c2 : f32) outs(%e30 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %g32 = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g26, %q : tensor<1x2x13x17xf32>, tensor<1x2x13x8xf32>) outs(%z31 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  return %g13, %g29, %g32, %g16 : tensor<1x2x13x8xf32>, tensor<1x2x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>
}

// -----

// The backward re-masks dS with a wider causal offset (j <= i + 6) than
// the forward's (j <= i + 4): P is 0 past i + 4, so the select changes
// nothing and the backward is the forward's (found by an adversarial
// tester, session 39). A tighter one is not: @negative_joint_bwd_tighter_mask.
// CHECK-LABEL: func.func @joint_bwd_mask_looser
// CHECK: flash.attention
// CHECK: flash.attention_grad
// EXEC: joint_bwd_mask_looser: raised=yes
func.func @joint_bwd_mask_looser(%q: tensor<1x4x13x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>, %do: tensor<1x4x13x8xf32>) -> (tensor<1x4x13x8xf32>, tensor<1x4x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>) {
  %e1 = tensor.empty() : tensor<1x2x2x17x8xf32>
  %bc2 = linalg.broadcast ins(%k : tensor<1x2x17x8xf32>) outs(%e1 : tensor<1x2x2x17x8xf32>) dimensions = [2]
  %rep3 = tensor.collapse_shape %bc2 [[0], [1, 2], [3], [4]] : tensor<1x2x2x17x8xf32> into tensor<1x4x17x8xf32>
  %e4 = tensor.empty() : tensor<1x2x2x17x8xf32>
  %bc5 = linalg.broadcast ins(%v : tensor<1x2x17x8xf32>) outs(%e4 : tensor<1x2x2x17x8xf32>) dimensions = [2]
  %rep6 = tensor.collapse_shape %bc5 [[0], [1, 2], [3], [4]] : tensor<1x2x2x17x8xf32> into tensor<1x4x17x8xf32>
  %e7 = tensor.empty() : tensor<1x4x8x17xf32>
  %tr8 = linalg.transpose ins(%rep3 : tensor<1x4x17x8xf32>) outs(%e7 : tensor<1x4x8x17xf32>) permutation = [0, 1, 3, 2]
  %e9 = tensor.empty() : tensor<1x4x13x17xf32>
  %cst10 = arith.constant 0.0 : f32
  %z11 = linalg.fill ins(%cst10 : f32) outs(%e9 : tensor<1x4x13x17xf32>) -> tensor<1x4x13x17xf32>
  %cl12 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x4x13x8xf32> into tensor<4x13x8xf32>
  %cl13 = tensor.collapse_shape %tr8 [[0, 1], [2], [3]] : tensor<1x4x8x17xf32> into tensor<4x8x17xf32>
  %cl14 = tensor.collapse_shape %z11 [[0, 1], [2], [3]] : tensor<1x4x13x17xf32> into tensor<4x13x17xf32>
  %bmm15 = linalg.batch_matmul ins(%cl12, %cl13 : tensor<4x13x8xf32>, tensor<4x8x17xf32>) outs(%cl14 : tensor<4x13x17xf32>) -> tensor<4x13x17xf32>
  %ex16 = tensor.expand_shape %bmm15 [[0, 1], [2], [3]] output_shape [1, 4, 13, 17] : tensor<4x13x17xf32> into tensor<1x4x13x17xf32>
  %e17 = tensor.empty() : tensor<1x4x13x17xf32>
  %g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex16 : tensor<1x4x13x17xf32>) outs(%e17 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y0 = arith.mulf %a0, %c : f32
      %i_ = linalg.index 2 : index
      %j_ = linalg.index 3 : index
      %o_ = arith.constant 4 : index
      %l_ = arith.addi %i_, %o_ : index
      %keep = arith.cmpi ule, %j_, %l_ : index
      %ninf = arith.constant 0xFF800000 : f32
      %y = arith.select %keep, %y0, %ninf : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e19 = tensor.empty() : tensor<1x4x13x17xf32>
  %p20 = linalg.softmax dimension(3) ins(%g18 : tensor<1x4x13x17xf32>) outs(%e19 : tensor<1x4x13x17xf32>) -> tensor<1x4x13x17xf32>
  %e21 = tensor.empty() : tensor<1x4x13x8xf32>
  %z22 = linalg.fill ins(%cst10 : f32) outs(%e21 : tensor<1x4x13x8xf32>) -> tensor<1x4x13x8xf32>
  %cl23 = tensor.collapse_shape %p20 [[0, 1], [2], [3]] : tensor<1x4x13x17xf32> into tensor<4x13x17xf32>
  %cl24 = tensor.collapse_shape %rep6 [[0, 1], [2], [3]] : tensor<1x4x17x8xf32> into tensor<4x17x8xf32>
  %cl25 = tensor.collapse_shape %z22 [[0, 1], [2], [3]] : tensor<1x4x13x8xf32> into tensor<4x13x8xf32>
  %bmm26 = linalg.batch_matmul ins(%cl23, %cl24 : tensor<4x13x17xf32>, tensor<4x17x8xf32>) outs(%cl25 : tensor<4x13x8xf32>) -> tensor<4x13x8xf32>
  %ex27 = tensor.expand_shape %bmm26 [[0, 1], [2], [3]] output_shape [1, 4, 13, 8] : tensor<4x13x8xf32> into tensor<1x4x13x8xf32>
  %e28 = tensor.empty() : tensor<1x4x17x13xf32>
  %tr29 = linalg.transpose ins(%p20 : tensor<1x4x13x17xf32>) outs(%e28 : tensor<1x4x17x13xf32>) permutation = [0, 1, 3, 2]
  %e30 = tensor.empty() : tensor<1x4x17x8xf32>
  %z31 = linalg.fill ins(%cst10 : f32) outs(%e30 : tensor<1x4x17x8xf32>) -> tensor<1x4x17x8xf32>
  %cl32 = tensor.collapse_shape %tr29 [[0, 1], [2], [3]] : tensor<1x4x17x13xf32> into tensor<4x17x13xf32>
  %cl33 = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<1x4x13x8xf32> into tensor<4x13x8xf32>
  %cl34 = tensor.collapse_shape %z31 [[0, 1], [2], [3]] : tensor<1x4x17x8xf32> into tensor<4x17x8xf32>
  %bmm35 = linalg.batch_matmul ins(%cl32, %cl33 : tensor<4x17x13xf32>, tensor<4x13x8xf32>) outs(%cl34 : tensor<4x17x8xf32>) -> tensor<4x17x8xf32>
  %ex36 = tensor.expand_shape %bmm35 [[0, 1], [2], [3]] output_shape [1, 4, 17, 8] : tensor<4x17x8xf32> into tensor<1x4x17x8xf32>
  %e37 = tensor.empty() : tensor<1x4x8x17xf32>
  %tr38 = linalg.transpose ins(%rep6 : tensor<1x4x17x8xf32>) outs(%e37 : tensor<1x4x8x17xf32>) permutation = [0, 1, 3, 2]
  %e39 = tensor.empty() : tensor<1x4x13x17xf32>
  %z40 = linalg.fill ins(%cst10 : f32) outs(%e39 : tensor<1x4x13x17xf32>) -> tensor<1x4x13x17xf32>
  %cl41 = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<1x4x13x8xf32> into tensor<4x13x8xf32>
  %cl42 = tensor.collapse_shape %tr38 [[0, 1], [2], [3]] : tensor<1x4x8x17xf32> into tensor<4x8x17xf32>
  %cl43 = tensor.collapse_shape %z40 [[0, 1], [2], [3]] : tensor<1x4x13x17xf32> into tensor<4x13x17xf32>
  %bmm44 = linalg.batch_matmul ins(%cl41, %cl42 : tensor<4x13x8xf32>, tensor<4x8x17xf32>) outs(%cl43 : tensor<4x13x17xf32>) -> tensor<4x13x17xf32>
  %ex45 = tensor.expand_shape %bmm44 [[0, 1], [2], [3]] output_shape [1, 4, 13, 17] : tensor<4x13x17xf32> into tensor<1x4x13x17xf32>
  %e46 = tensor.empty() : tensor<1x4x13x17xf32>
  %g47 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex45, %p20 : tensor<1x4x13x17xf32>, tensor<1x4x13x17xf32>) outs(%e46 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.mulf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e48 = tensor.empty() : tensor<1x4x13xf32>
  %z49 = linalg.fill ins(%cst10 : f32) outs(%e48 : tensor<1x4x13xf32>) -> tensor<1x4x13xf32>
  %g50 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g47 : tensor<1x4x13x17xf32>) outs(%z49 : tensor<1x4x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13xf32>
  %e51 = tensor.empty() : tensor<1x4x13x17xf32>
  %g52 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g47, %p20, %g50 : tensor<1x4x13x17xf32>, tensor<1x4x13x17xf32>, tensor<1x4x13xf32>) outs(%e51 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %w = arith.mulf %a1, %a2 : f32
      %y = arith.subf %a0, %w : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e53 = tensor.empty() : tensor<1x4x13x17xf32>
  %g54 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g52 : tensor<1x4x13x17xf32>) outs(%e53 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %i_ = linalg.index 2 : index
      %j_ = linalg.index 3 : index
      %o_ = arith.constant 6 : index
      %l_ = arith.addi %i_, %o_ : index
      %keep = arith.cmpi ule, %j_, %l_ : index
      %zz = arith.constant 0.0 : f32
      %y = arith.select %keep, %a0, %zz : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e55 = tensor.empty() : tensor<1x4x13x17xf32>
  %g56 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g54 : tensor<1x4x13x17xf32>) outs(%e55 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e57 = tensor.empty() : tensor<1x4x13x8xf32>
  %z58 = linalg.fill ins(%cst10 : f32) outs(%e57 : tensor<1x4x13x8xf32>) -> tensor<1x4x13x8xf32>
  %cl59 = tensor.collapse_shape %g56 [[0, 1], [2], [3]] : tensor<1x4x13x17xf32> into tensor<4x13x17xf32>
  %cl60 = tensor.collapse_shape %rep3 [[0, 1], [2], [3]] : tensor<1x4x17x8xf32> into tensor<4x17x8xf32>
  %cl61 = tensor.collapse_shape %z58 [[0, 1], [2], [3]] : tensor<1x4x13x8xf32> into tensor<4x13x8xf32>
  %bmm62 = linalg.batch_matmul ins(%cl59, %cl60 : tensor<4x13x17xf32>, tensor<4x17x8xf32>) outs(%cl61 : tensor<4x13x8xf32>) -> tensor<4x13x8xf32>
  %ex63 = tensor.expand_shape %bmm62 [[0, 1], [2], [3]] output_shape [1, 4, 13, 8] : tensor<4x13x8xf32> into tensor<1x4x13x8xf32>
  %e64 = tensor.empty() : tensor<1x4x17x13xf32>
  %tr65 = linalg.transpose ins(%g56 : tensor<1x4x13x17xf32>) outs(%e64 : tensor<1x4x17x13xf32>) permutation = [0, 1, 3, 2]
  %e66 = tensor.empty() : tensor<1x4x17x8xf32>
  %z67 = linalg.fill ins(%cst10 : f32) outs(%e66 : tensor<1x4x17x8xf32>) -> tensor<1x4x17x8xf32>
  %cl68 = tensor.collapse_shape %tr65 [[0, 1], [2], [3]] : tensor<1x4x17x13xf32> into tensor<4x17x13xf32>
  %cl69 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x4x13x8xf32> into tensor<4x13x8xf32>
  %cl70 = tensor.collapse_shape %z67 [[0, 1], [2], [3]] : tensor<1x4x17x8xf32> into tensor<4x17x8xf32>
  %bmm71 = linalg.batch_matmul ins(%cl68, %cl69 : tensor<4x17x13xf32>, tensor<4x13x8xf32>) outs(%cl70 : tensor<4x17x8xf32>) -> tensor<4x17x8xf32>
  %ex72 = tensor.expand_shape %bmm71 [[0, 1], [2], [3]] output_shape [1, 4, 17, 8] : tensor<4x17x8xf32> into tensor<1x4x17x8xf32>
  %gx73 = tensor.expand_shape %ex72 [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 17, 8] : tensor<1x4x17x8xf32> into tensor<1x2x2x17x8xf32>
  %e74 = tensor.empty() : tensor<1x2x17x8xf32>
  %z75 = linalg.fill ins(%cst10 : f32) outs(%e74 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %rd76 = linalg.reduce ins(%gx73 : tensor<1x2x2x17x8xf32>) outs(%z75 : tensor<1x2x17x8xf32>) dimensions = [2]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  %gx77 = tensor.expand_shape %ex36 [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 17, 8] : tensor<1x4x17x8xf32> into tensor<1x2x2x17x8xf32>
  %e78 = tensor.empty() : tensor<1x2x17x8xf32>
  %z79 = linalg.fill ins(%cst10 : f32) outs(%e78 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %rd80 = linalg.reduce ins(%gx77 : tensor<1x2x2x17x8xf32>) outs(%z79 : tensor<1x2x17x8xf32>) dimensions = [2]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  return %ex27, %ex63, %rd76, %rd80 : tensor<1x4x13x8xf32>, tensor<1x4x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>
}
