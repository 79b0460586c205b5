// Joint forward + backward graphs with grouped K/V heads (GQA and MQA):
// autodiff's backward of the repeat (K and V broadcast over each group of
// query heads) sums the per-query-head dK and dV over the group, with an
// expand_shape of the heads and a linalg.reduce, or one generic reducing
// over the heads, or with the group spelled out as a dim of its own (JAX's
// [B, Hkv, G, N, D] einsums). The raise proves those sums equal the
// grouped dK and dV of flash.attention_grad; also with Nq = Nk (where a
// transpose of P has P's type), a scaled dO, and one query. A sum over
// the wrong heads (interleaved instead of the repeat's contiguous groups)
// is not the gradient and stays unraised, with a remark.
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// Llama repeat_kv (Hq = 4, Hkv = 2) and its backward: dK and dV per query head, expand_shape [B, Hkv, G, N, D], linalg.reduce over G.
// CHECK-LABEL: func.func @joint_gqa_repeat_kv
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention
// CHECK: flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} : tensor<2x4x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>
// CHECK-NOT: linalg.reduce
// EXEC: joint_gqa_repeat_kv: raised=yes
func.func @joint_gqa_repeat_kv(%q: tensor<2x4x13x8xf32>, %k: tensor<2x2x17x8xf32>, %v: tensor<2x2x17x8xf32>, %do: tensor<2x4x13x8xf32>)
    -> (tensor<2x4x13x8xf32>, tensor<2x4x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ebk = tensor.empty() : tensor<2x2x2x17x8xf32>
  %kb = linalg.broadcast ins(%k : tensor<2x2x17x8xf32>) outs(%ebk : tensor<2x2x2x17x8xf32>) dimensions = [2]
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<2x2x2x17x8xf32> into tensor<2x4x17x8xf32>
  %vb = linalg.broadcast ins(%v : tensor<2x2x17x8xf32>) outs(%ebk : tensor<2x2x2x17x8xf32>) dimensions = [2]
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<2x2x2x17x8xf32> into tensor<2x4x17x8xf32>
  %es = tensor.empty() : tensor<2x4x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %eo = tensor.empty() : tensor<2x4x13x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x13x8xf32>) -> tensor<2x4x13x8xf32>
  %ek = tensor.empty() : tensor<2x4x17x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x4x17x8xf32>) -> tensor<2x4x17x8xf32>
  %er = tensor.empty() : tensor<2x4x13xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4x13xf32>) -> tensor<2x4x13xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x4x13x8xf32>, tensor<2x4x17x8xf32>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vr : tensor<2x4x13x17xf32>, tensor<2x4x17x8xf32>) outs(%zo : tensor<2x4x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x8xf32>
  // Backward.
  %dvx = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %do : tensor<2x4x13x17xf32>, tensor<2x4x13x8xf32>) outs(%zk : tensor<2x4x17x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x17x8xf32>
  %dp = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %vr : tensor<2x4x13x8xf32>, tensor<2x4x17x8xf32>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%dp, %p : tensor<2x4x13x17xf32>, tensor<2x4x13x17xf32>) outs(%zr : tensor<2x4x13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<2x4x13x17xf32>, tensor<2x4x13x17xf32>, tensor<2x4x13xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %pp, %d : f32
    %c = arith.constant 0.35355339 : f32
    %z = arith.mulf %y, %c : f32
    linalg.yield %z : f32
  } -> tensor<2x4x13x17xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %kr : tensor<2x4x13x17xf32>, tensor<2x4x17x8xf32>) outs(%zo : tensor<2x4x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x8xf32>
  %dkx = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %q : tensor<2x4x13x17xf32>, tensor<2x4x13x8xf32>) outs(%zk : tensor<2x4x17x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x17x8xf32>
  // The repeat's backward: [B, Hq, N, D] -> [B, Hkv, G, N, D], summed over G.
  %ekv = tensor.empty() : tensor<2x2x17x8xf32>
  %zkv = linalg.fill ins(%zero : f32) outs(%ekv : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %dk5 = tensor.expand_shape %dkx [[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 17, 8] : tensor<2x4x17x8xf32> into tensor<2x2x2x17x8xf32>
  %dk = linalg.reduce ins(%dk5 : tensor<2x2x2x17x8xf32>) outs(%zkv : tensor<2x2x17x8xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %y = arith.addf %a, %acc : f32
      linalg.yield %y : f32
    }
  %dv5 = tensor.expand_shape %dvx [[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 17, 8] : tensor<2x4x17x8xf32> into tensor<2x2x2x17x8xf32>
  %dv = linalg.reduce ins(%dv5 : tensor<2x2x2x17x8xf32>) outs(%zkv : tensor<2x2x17x8xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %y = arith.addf %a, %acc : f32
      linalg.yield %y : f32
    }
  return %o, %dq, %dk, %dv : tensor<2x4x13x8xf32>, tensor<2x4x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>
}

// -----

// MQA with a unit kv head (K, V [B, 1, N, D] read at head 0): dK and dV summed over the heads by a generic into [B, 1, N, D].
// CHECK-LABEL: func.func @joint_mqa_unit_head
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention
// CHECK: flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} : tensor<2x4x13x8xf32>, tensor<2x1x17x8xf32>, tensor<2x1x17x8xf32>
// CHECK-NOT: linalg.reduce
// EXEC: joint_mqa_unit_head: raised=yes
func.func @joint_mqa_unit_head(%q: tensor<2x4x13x8xf32>, %k: tensor<2x1x17x8xf32>, %v: tensor<2x1x17x8xf32>, %do: tensor<2x4x13x8xf32>)
    -> (tensor<2x4x13x8xf32>, tensor<2x4x13x8xf32>, tensor<2x1x17x8xf32>, tensor<2x1x17x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ek4 = tensor.empty() : tensor<2x4x17x8xf32>
  %kr = linalg.generic {indexing_maps = [affine_map<(b, h, j, d) -> (b, 0, j, d)>, affine_map<(b, h, j, d) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%k : tensor<2x1x17x8xf32>) outs(%ek4 : tensor<2x4x17x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x4x17x8xf32>
  %vr = linalg.generic {indexing_maps = [affine_map<(b, h, j, d) -> (b, 0, j, d)>, affine_map<(b, h, j, d) -> (b, h, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%v : tensor<2x1x17x8xf32>) outs(%ek4 : tensor<2x4x17x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x4x17x8xf32>
  %es = tensor.empty() : tensor<2x4x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %eo = tensor.empty() : tensor<2x4x13x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x13x8xf32>) -> tensor<2x4x13x8xf32>
  %ek = tensor.empty() : tensor<2x4x17x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x4x17x8xf32>) -> tensor<2x4x17x8xf32>
  %er = tensor.empty() : tensor<2x4x13xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4x13xf32>) -> tensor<2x4x13xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x4x13x8xf32>, tensor<2x4x17x8xf32>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vr : tensor<2x4x13x17xf32>, tensor<2x4x17x8xf32>) outs(%zo : tensor<2x4x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x8xf32>
  // Backward.
  %dvx = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %do : tensor<2x4x13x17xf32>, tensor<2x4x13x8xf32>) outs(%zk : tensor<2x4x17x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x17x8xf32>
  %dp = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %vr : tensor<2x4x13x8xf32>, tensor<2x4x17x8xf32>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%dp, %p : tensor<2x4x13x17xf32>, tensor<2x4x13x17xf32>) outs(%zr : tensor<2x4x13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<2x4x13x17xf32>, tensor<2x4x13x17xf32>, tensor<2x4x13xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %pp, %d : f32
    %c = arith.constant 0.35355339 : f32
    %z = arith.mulf %y, %c : f32
    linalg.yield %z : f32
  } -> tensor<2x4x13x17xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %kr : tensor<2x4x13x17xf32>, tensor<2x4x17x8xf32>) outs(%zo : tensor<2x4x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x8xf32>
  %dkx = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %q : tensor<2x4x13x17xf32>, tensor<2x4x13x8xf32>) outs(%zk : tensor<2x4x17x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x17x8xf32>
  %ekv = tensor.empty() : tensor<2x1x17x8xf32>
  %zkv = linalg.fill ins(%zero : f32) outs(%ekv : tensor<2x1x17x8xf32>) -> tensor<2x1x17x8xf32>
  %dk = linalg.generic {indexing_maps = [affine_map<(b, h, j, d) -> (b, h, j, d)>, affine_map<(b, h, j, d) -> (b, 0, j, d)>], iterator_types = ["parallel", "reduction", "parallel", "parallel"]}
      ins(%dkx : tensor<2x4x17x8xf32>) outs(%zkv : tensor<2x1x17x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %acc, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x1x17x8xf32>
  %dv = linalg.generic {indexing_maps = [affine_map<(b, h, j, d) -> (b, h, j, d)>, affine_map<(b, h, j, d) -> (b, 0, j, d)>], iterator_types = ["parallel", "reduction", "parallel", "parallel"]}
      ins(%dvx : tensor<2x4x17x8xf32>) outs(%zkv : tensor<2x1x17x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %acc, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x1x17x8xf32>
  return %o, %dq, %dk, %dv : tensor<2x4x13x8xf32>, tensor<2x4x13x8xf32>, tensor<2x1x17x8xf32>, tensor<2x1x17x8xf32>
}

// -----

// MQA without a head dim (K, V [B, N, D]): dK and dV by one generic reducing over the heads and the queries.
// CHECK-LABEL: func.func @joint_mqa_no_head_dim
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention
// (K and V as the op reads them: [B, 1, N, D].)
// CHECK: flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} : tensor<2x4x13x8xf32>, tensor<2x1x17x8xf32>, tensor<2x1x17x8xf32>
// CHECK-NOT: linalg.reduce
// EXEC: joint_mqa_no_head_dim: raised=yes
func.func @joint_mqa_no_head_dim(%q: tensor<2x4x13x8xf32>, %k: tensor<2x17x8xf32>, %v: tensor<2x17x8xf32>, %do: tensor<2x4x13x8xf32>)
    -> (tensor<2x4x13x8xf32>, tensor<2x4x13x8xf32>, tensor<2x17x8xf32>, tensor<2x17x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x4x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %eo = tensor.empty() : tensor<2x4x13x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x13x8xf32>) -> tensor<2x4x13x8xf32>
  %ek = tensor.empty() : tensor<2x4x17x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x4x17x8xf32>) -> tensor<2x4x17x8xf32>
  %er = tensor.empty() : tensor<2x4x13xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4x13xf32>) -> tensor<2x4x13xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x13x8xf32>, tensor<2x17x8xf32>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x13x17xf32>, tensor<2x17x8xf32>) outs(%zo : tensor<2x4x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x8xf32>
  // Backward.
  %ekv = tensor.empty() : tensor<2x17x8xf32>
  %zkv = linalg.fill ins(%zero : f32) outs(%ekv : tensor<2x17x8xf32>) -> tensor<2x17x8xf32>
  %dv = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, j, e)>],
                       iterator_types = ["parallel", "reduction", "parallel", "parallel", "reduction"]}
      ins(%p, %do : tensor<2x4x13x17xf32>, tensor<2x4x13x8xf32>) outs(%zkv : tensor<2x17x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x17x8xf32>
  %dp = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<2x4x13x8xf32>, tensor<2x17x8xf32>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%dp, %p : tensor<2x4x13x17xf32>, tensor<2x4x13x17xf32>) outs(%zr : tensor<2x4x13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<2x4x13x17xf32>, tensor<2x4x13x17xf32>, tensor<2x4x13xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %pp, %d : f32
    %c = arith.constant 0.35355339 : f32
    %z = arith.mulf %y, %c : f32
    linalg.yield %z : f32
  } -> tensor<2x4x13x17xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %k : tensor<2x4x13x17xf32>, tensor<2x17x8xf32>) outs(%zo : tensor<2x4x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x8xf32>
  %dk = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, j, d)>],
                       iterator_types = ["parallel", "reduction", "parallel", "parallel", "reduction"]}
      ins(%ds, %q : tensor<2x4x13x17xf32>, tensor<2x4x13x8xf32>) outs(%zkv : tensor<2x17x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x17x8xf32>
  return %o, %dq, %dk, %dv : tensor<2x4x13x8xf32>, tensor<2x4x13x8xf32>, tensor<2x17x8xf32>, tensor<2x17x8xf32>
}

// -----

// GQA with a bottom-right causal mask (finfo.min), a soft-cap, torch's masked_fill backward on dS and the soft-cap's derivative (K read at h floordiv 2 inside it).
// CHECK-LABEL: func.func @joint_gqa_causal_softcap_masked_fill
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention
// CHECK: flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} : tensor<2x4x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>
// CHECK-NOT: linalg.reduce
// EXEC: joint_gqa_causal_softcap_masked_fill: raised=yes
func.func @joint_gqa_causal_softcap_masked_fill(%q: tensor<2x4x13x8xf32>, %k: tensor<2x2x17x8xf32>, %v: tensor<2x2x17x8xf32>, %do: tensor<2x4x13x8xf32>)
    -> (tensor<2x4x13x8xf32>, tensor<2x4x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ebk = tensor.empty() : tensor<2x2x2x17x8xf32>
  %kb = linalg.broadcast ins(%k : tensor<2x2x17x8xf32>) outs(%ebk : tensor<2x2x2x17x8xf32>) dimensions = [2]
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<2x2x2x17x8xf32> into tensor<2x4x17x8xf32>
  %vb = linalg.broadcast ins(%v : tensor<2x2x17x8xf32>) outs(%ebk : tensor<2x2x2x17x8xf32>) dimensions = [2]
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<2x2x2x17x8xf32> into tensor<2x4x17x8xf32>
  %es = tensor.empty() : tensor<2x4x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %eo = tensor.empty() : tensor<2x4x13x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x13x8xf32>) -> tensor<2x4x13x8xf32>
  %ek = tensor.empty() : tensor<2x4x17x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x4x17x8xf32>) -> tensor<2x4x17x8xf32>
  %er = tensor.empty() : tensor<2x4x13xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4x13xf32>) -> tensor<2x4x13xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x4x13x8xf32>, tensor<2x4x17x8xf32>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    %cap = arith.constant 5.0 : f32
    %t0 = arith.divf %y, %cap : f32
    %t1 = math.tanh %t0 : f32
    %t2 = arith.mulf %t1, %cap : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c4 = arith.constant 4 : index
    %lim = arith.addi %i, %c4 : index
    %keep = arith.cmpi ule, %j, %lim : index
    %mn = arith.constant -3.40282347E+38 : f32
    %r = arith.select %keep, %t2, %mn : f32
    linalg.yield %r : f32
  } -> tensor<2x4x13x17xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vr : tensor<2x4x13x17xf32>, tensor<2x4x17x8xf32>) outs(%zo : tensor<2x4x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x8xf32>
  // Backward.
  %dvx = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %do : tensor<2x4x13x17xf32>, tensor<2x4x13x8xf32>) outs(%zk : tensor<2x4x17x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x17x8xf32>
  %dp = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %vr : tensor<2x4x13x8xf32>, tensor<2x4x17x8xf32>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%dp, %p : tensor<2x4x13x17xf32>, tensor<2x4x13x17xf32>) outs(%zr : tensor<2x4x13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %dp, %delta, %s : tensor<2x4x13x17xf32>, tensor<2x4x13x17xf32>, tensor<2x4x13xf32>, tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %raw: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %pp, %d : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c4 = arith.constant 4 : index
    %lim = arith.addi %i, %c4 : index
    %keep = arith.cmpi ule, %j, %lim : index
    %zf = arith.constant 0.0 : f32
    %ym = arith.select %keep, %y, %zf : f32
    %c = arith.constant 0.35355339 : f32
    %cap = arith.constant 5.0 : f32
    %sy = arith.mulf %raw, %c : f32
    %t0 = arith.divf %sy, %cap : f32
    %t1 = math.tanh %t0 : f32
    %t2 = arith.mulf %t1, %t1 : f32
    %one = arith.constant 1.0 : f32
    %der = arith.subf %one, %t2 : f32
    %z0 = arith.mulf %ym, %der : f32
    %z = arith.mulf %z0, %c : f32
    linalg.yield %z : f32
  } -> tensor<2x4x13x17xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %kr : tensor<2x4x13x17xf32>, tensor<2x4x17x8xf32>) outs(%zo : tensor<2x4x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x8xf32>
  %dkx = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %q : tensor<2x4x13x17xf32>, tensor<2x4x13x8xf32>) outs(%zk : tensor<2x4x17x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x17x8xf32>
  // The repeat's backward: [B, Hq, N, D] -> [B, Hkv, G, N, D], summed over G.
  %ekv = tensor.empty() : tensor<2x2x17x8xf32>
  %zkv = linalg.fill ins(%zero : f32) outs(%ekv : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %dk5 = tensor.expand_shape %dkx [[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 17, 8] : tensor<2x4x17x8xf32> into tensor<2x2x2x17x8xf32>
  %dk = linalg.reduce ins(%dk5 : tensor<2x2x2x17x8xf32>) outs(%zkv : tensor<2x2x17x8xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %y = arith.addf %a, %acc : f32
      linalg.yield %y : f32
    }
  %dv5 = tensor.expand_shape %dvx [[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 17, 8] : tensor<2x4x17x8xf32> into tensor<2x2x2x17x8xf32>
  %dv = linalg.reduce ins(%dv5 : tensor<2x2x2x17x8xf32>) outs(%zkv : tensor<2x2x17x8xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %y = arith.addf %a, %acc : f32
      linalg.yield %y : f32
    }
  return %o, %dq, %dk, %dv : tensor<2x4x13x8xf32>, tensor<2x4x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>
}

// -----

// torch style, Nq = Nk: P^T (transpose, then collapse for batch_matmul) has P's type; it is a view of P, not a recomputed copy (these had refused "the probabilities are used in two layouts") (found by an adversarial tester, session 39).
// CHECK-LABEL: func.func @t_gqa2_square
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: linalg.softmax
// CHECK: return
// EXEC: t_gqa2_square: raised=yes
func.func @t_gqa2_square(%q: tensor<1x4x16x8xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<1x2x16x8xf32>, %do: tensor<1x4x16x8xf32>) -> (tensor<1x4x16x8xf32>, tensor<1x4x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) {
  %e1 = tensor.empty() : tensor<1x2x2x16x8xf32>
  %bc2 = linalg.broadcast ins(%k : tensor<1x2x16x8xf32>) outs(%e1 : tensor<1x2x2x16x8xf32>) dimensions = [2]
  %rep3 = tensor.collapse_shape %bc2 [[0], [1, 2], [3], [4]] : tensor<1x2x2x16x8xf32> into tensor<1x4x16x8xf32>
  %e4 = tensor.empty() : tensor<1x2x2x16x8xf32>
  %bc5 = linalg.broadcast ins(%v : tensor<1x2x16x8xf32>) outs(%e4 : tensor<1x2x2x16x8xf32>) dimensions = [2]
  %rep6 = tensor.collapse_shape %bc5 [[0], [1, 2], [3], [4]] : tensor<1x2x2x16x8xf32> into tensor<1x4x16x8xf32>
  %e7 = tensor.empty() : tensor<1x4x8x16xf32>
  %tr8 = linalg.transpose ins(%rep3 : tensor<1x4x16x8xf32>) outs(%e7 : tensor<1x4x8x16xf32>) permutation = [0, 1, 3, 2]
  %e9 = tensor.empty() : tensor<1x4x16x16xf32>
  %cst10 = arith.constant 0.0 : f32
  %z11 = linalg.fill ins(%cst10 : f32) outs(%e9 : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %cl12 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %cl13 = tensor.collapse_shape %tr8 [[0, 1], [2], [3]] : tensor<1x4x8x16xf32> into tensor<4x8x16xf32>
  %cl14 = tensor.collapse_shape %z11 [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %bmm15 = linalg.batch_matmul ins(%cl12, %cl13 : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%cl14 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %ex16 = tensor.expand_shape %bmm15 [[0, 1], [2], [3]] output_shape [1, 4, 16, 16] : tensor<4x16x16xf32> into tensor<1x4x16x16xf32>
  %e17 = tensor.empty() : tensor<1x4x16x16xf32>
  %g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex16 : tensor<1x4x16x16xf32>) outs(%e17 : tensor<1x4x16x16xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y0 = arith.mulf %a0, %c : f32
      linalg.yield %y0 : f32
    } -> tensor<1x4x16x16xf32>
  %e19 = tensor.empty() : tensor<1x4x16x16xf32>
  %p20 = linalg.softmax dimension(3) ins(%g18 : tensor<1x4x16x16xf32>) outs(%e19 : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %e21 = tensor.empty() : tensor<1x4x16x8xf32>
  %z22 = linalg.fill ins(%cst10 : f32) outs(%e21 : tensor<1x4x16x8xf32>) -> tensor<1x4x16x8xf32>
  %cl23 = tensor.collapse_shape %p20 [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %cl24 = tensor.collapse_shape %rep6 [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %cl25 = tensor.collapse_shape %z22 [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %bmm26 = linalg.batch_matmul ins(%cl23, %cl24 : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%cl25 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %ex27 = tensor.expand_shape %bmm26 [[0, 1], [2], [3]] output_shape [1, 4, 16, 8] : tensor<4x16x8xf32> into tensor<1x4x16x8xf32>
  %e28 = tensor.empty() : tensor<1x4x16x16xf32>
  %tr29 = linalg.transpose ins(%p20 : tensor<1x4x16x16xf32>) outs(%e28 : tensor<1x4x16x16xf32>) permutation = [0, 1, 3, 2]
  %e30 = tensor.empty() : tensor<1x4x16x8xf32>
  %z31 = linalg.fill ins(%cst10 : f32) outs(%e30 : tensor<1x4x16x8xf32>) -> tensor<1x4x16x8xf32>
  %cl32 = tensor.collapse_shape %tr29 [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %cl33 = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %cl34 = tensor.collapse_shape %z31 [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %bmm35 = linalg.batch_matmul ins(%cl32, %cl33 : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%cl34 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %ex36 = tensor.expand_shape %bmm35 [[0, 1], [2], [3]] output_shape [1, 4, 16, 8] : tensor<4x16x8xf32> into tensor<1x4x16x8xf32>
  %e37 = tensor.empty() : tensor<1x4x8x16xf32>
  %tr38 = linalg.transpose ins(%rep6 : tensor<1x4x16x8xf32>) outs(%e37 : tensor<1x4x8x16xf32>) permutation = [0, 1, 3, 2]
  %e39 = tensor.empty() : tensor<1x4x16x16xf32>
  %z40 = linalg.fill ins(%cst10 : f32) outs(%e39 : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %cl41 = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %cl42 = tensor.collapse_shape %tr38 [[0, 1], [2], [3]] : tensor<1x4x8x16xf32> into tensor<4x8x16xf32>
  %cl43 = tensor.collapse_shape %z40 [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %bmm44 = linalg.batch_matmul ins(%cl41, %cl42 : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%cl43 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %ex45 = tensor.expand_shape %bmm44 [[0, 1], [2], [3]] output_shape [1, 4, 16, 16] : tensor<4x16x16xf32> into tensor<1x4x16x16xf32>
  %e46 = tensor.empty() : tensor<1x4x16x16xf32>
  %g47 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex45, %p20 : tensor<1x4x16x16xf32>, tensor<1x4x16x16xf32>) outs(%e46 : tensor<1x4x16x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.mulf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x4x16x16xf32>
  %e48 = tensor.empty() : tensor<1x4x16xf32>
  %z49 = linalg.fill ins(%cst10 : f32) outs(%e48 : tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  %g50 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g47 : tensor<1x4x16x16xf32>) outs(%z49 : tensor<1x4x16xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x4x16xf32>
  %e51 = tensor.empty() : tensor<1x4x16x16xf32>
  %g52 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g47, %p20, %g50 : tensor<1x4x16x16xf32>, tensor<1x4x16x16xf32>, tensor<1x4x16xf32>) outs(%e51 : tensor<1x4x16x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %w = arith.mulf %a1, %a2 : f32
      %y = arith.subf %a0, %w : f32
      linalg.yield %y : f32
    } -> tensor<1x4x16x16xf32>
  %e53 = tensor.empty() : tensor<1x4x16x16xf32>
  %g54 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g52 : tensor<1x4x16x16xf32>) outs(%e53 : tensor<1x4x16x16xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x4x16x16xf32>
  %e55 = tensor.empty() : tensor<1x4x16x8xf32>
  %z56 = linalg.fill ins(%cst10 : f32) outs(%e55 : tensor<1x4x16x8xf32>) -> tensor<1x4x16x8xf32>
  %cl57 = tensor.collapse_shape %g54 [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %cl58 = tensor.collapse_shape %rep3 [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %cl59 = tensor.collapse_shape %z56 [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %bmm60 = linalg.batch_matmul ins(%cl57, %cl58 : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%cl59 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %ex61 = tensor.expand_shape %bmm60 [[0, 1], [2], [3]] output_shape [1, 4, 16, 8] : tensor<4x16x8xf32> into tensor<1x4x16x8xf32>
  %e62 = tensor.empty() : tensor<1x4x16x16xf32>
  %tr63 = linalg.transpose ins(%g54 : tensor<1x4x16x16xf32>) outs(%e62 : tensor<1x4x16x16xf32>) permutation = [0, 1, 3, 2]
  %e64 = tensor.empty() : tensor<1x4x16x8xf32>
  %z65 = linalg.fill ins(%cst10 : f32) outs(%e64 : tensor<1x4x16x8xf32>) -> tensor<1x4x16x8xf32>
  %cl66 = tensor.collapse_shape %tr63 [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %cl67 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %cl68 = tensor.collapse_shape %z65 [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %bmm69 = linalg.batch_matmul ins(%cl66, %cl67 : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%cl68 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %ex70 = tensor.expand_shape %bmm69 [[0, 1], [2], [3]] output_shape [1, 4, 16, 8] : tensor<4x16x8xf32> into tensor<1x4x16x8xf32>
  %gx71 = tensor.expand_shape %ex70 [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 16, 8] : tensor<1x4x16x8xf32> into tensor<1x2x2x16x8xf32>
  %e72 = tensor.empty() : tensor<1x2x16x8xf32>
  %z73 = linalg.fill ins(%cst10 : f32) outs(%e72 : tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32>
  %rd74 = linalg.reduce ins(%gx71 : tensor<1x2x2x16x8xf32>) outs(%z73 : tensor<1x2x16x8xf32>) dimensions = [2]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  %gx75 = tensor.expand_shape %ex36 [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 16, 8] : tensor<1x4x16x8xf32> into tensor<1x2x2x16x8xf32>
  %e76 = tensor.empty() : tensor<1x2x16x8xf32>
  %z77 = linalg.fill ins(%cst10 : f32) outs(%e76 : tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32>
  %rd78 = linalg.reduce ins(%gx75 : tensor<1x2x2x16x8xf32>) outs(%z77 : tensor<1x2x16x8xf32>) dimensions = [2]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  return %ex27, %ex61, %rd74, %rd78 : tensor<1x4x16x8xf32>, tensor<1x4x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>
}

// -----

// MQA (one kv head), Nq = Nk, torch style (found by an adversarial tester, session 39).
// CHECK-LABEL: func.func @t_mqa_square
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: linalg.softmax
// CHECK: return
// EXEC: t_mqa_square: raised=yes
func.func @t_mqa_square(%q: tensor<1x4x16x8xf32>, %k: tensor<1x1x16x8xf32>, %v: tensor<1x1x16x8xf32>, %do: tensor<1x4x16x8xf32>) -> (tensor<1x4x16x8xf32>, tensor<1x4x16x8xf32>, tensor<1x1x16x8xf32>, tensor<1x1x16x8xf32>) {
  %e1 = tensor.empty() : tensor<1x1x4x16x8xf32>
  %bc2 = linalg.broadcast ins(%k : tensor<1x1x16x8xf32>) outs(%e1 : tensor<1x1x4x16x8xf32>) dimensions = [2]
  %rep3 = tensor.collapse_shape %bc2 [[0], [1, 2], [3], [4]] : tensor<1x1x4x16x8xf32> into tensor<1x4x16x8xf32>
  %e4 = tensor.empty() : tensor<1x1x4x16x8xf32>
  %bc5 = linalg.broadcast ins(%v : tensor<1x1x16x8xf32>) outs(%e4 : tensor<1x1x4x16x8xf32>) dimensions = [2]
  %rep6 = tensor.collapse_shape %bc5 [[0], [1, 2], [3], [4]] : tensor<1x1x4x16x8xf32> into tensor<1x4x16x8xf32>
  %e7 = tensor.empty() : tensor<1x4x8x16xf32>
  %tr8 = linalg.transpose ins(%rep3 : tensor<1x4x16x8xf32>) outs(%e7 : tensor<1x4x8x16xf32>) permutation = [0, 1, 3, 2]
  %e9 = tensor.empty() : tensor<1x4x16x16xf32>
  %cst10 = arith.constant 0.0 : f32
  %z11 = linalg.fill ins(%cst10 : f32) outs(%e9 : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %cl12 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %cl13 = tensor.collapse_shape %tr8 [[0, 1], [2], [3]] : tensor<1x4x8x16xf32> into tensor<4x8x16xf32>
  %cl14 = tensor.collapse_shape %z11 [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %bmm15 = linalg.batch_matmul ins(%cl12, %cl13 : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%cl14 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %ex16 = tensor.expand_shape %bmm15 [[0, 1], [2], [3]] output_shape [1, 4, 16, 16] : tensor<4x16x16xf32> into tensor<1x4x16x16xf32>
  %e17 = tensor.empty() : tensor<1x4x16x16xf32>
  %g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex16 : tensor<1x4x16x16xf32>) outs(%e17 : tensor<1x4x16x16xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y0 = arith.mulf %a0, %c : f32
      linalg.yield %y0 : f32
    } -> tensor<1x4x16x16xf32>
  %e19 = tensor.empty() : tensor<1x4x16x16xf32>
  %p20 = linalg.softmax dimension(3) ins(%g18 : tensor<1x4x16x16xf32>) outs(%e19 : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %e21 = tensor.empty() : tensor<1x4x16x8xf32>
  %z22 = linalg.fill ins(%cst10 : f32) outs(%e21 : tensor<1x4x16x8xf32>) -> tensor<1x4x16x8xf32>
  %cl23 = tensor.collapse_shape %p20 [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %cl24 = tensor.collapse_shape %rep6 [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %cl25 = tensor.collapse_shape %z22 [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %bmm26 = linalg.batch_matmul ins(%cl23, %cl24 : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%cl25 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %ex27 = tensor.expand_shape %bmm26 [[0, 1], [2], [3]] output_shape [1, 4, 16, 8] : tensor<4x16x8xf32> into tensor<1x4x16x8xf32>
  %e28 = tensor.empty() : tensor<1x4x16x16xf32>
  %tr29 = linalg.transpose ins(%p20 : tensor<1x4x16x16xf32>) outs(%e28 : tensor<1x4x16x16xf32>) permutation = [0, 1, 3, 2]
  %e30 = tensor.empty() : tensor<1x4x16x8xf32>
  %z31 = linalg.fill ins(%cst10 : f32) outs(%e30 : tensor<1x4x16x8xf32>) -> tensor<1x4x16x8xf32>
  %cl32 = tensor.collapse_shape %tr29 [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %cl33 = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %cl34 = tensor.collapse_shape %z31 [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %bmm35 = linalg.batch_matmul ins(%cl32, %cl33 : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%cl34 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %ex36 = tensor.expand_shape %bmm35 [[0, 1], [2], [3]] output_shape [1, 4, 16, 8] : tensor<4x16x8xf32> into tensor<1x4x16x8xf32>
  %e37 = tensor.empty() : tensor<1x4x8x16xf32>
  %tr38 = linalg.transpose ins(%rep6 : tensor<1x4x16x8xf32>) outs(%e37 : tensor<1x4x8x16xf32>) permutation = [0, 1, 3, 2]
  %e39 = tensor.empty() : tensor<1x4x16x16xf32>
  %z40 = linalg.fill ins(%cst10 : f32) outs(%e39 : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  %cl41 = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %cl42 = tensor.collapse_shape %tr38 [[0, 1], [2], [3]] : tensor<1x4x8x16xf32> into tensor<4x8x16xf32>
  %cl43 = tensor.collapse_shape %z40 [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %bmm44 = linalg.batch_matmul ins(%cl41, %cl42 : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%cl43 : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %ex45 = tensor.expand_shape %bmm44 [[0, 1], [2], [3]] output_shape [1, 4, 16, 16] : tensor<4x16x16xf32> into tensor<1x4x16x16xf32>
  %e46 = tensor.empty() : tensor<1x4x16x16xf32>
  %g47 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex45, %p20 : tensor<1x4x16x16xf32>, tensor<1x4x16x16xf32>) outs(%e46 : tensor<1x4x16x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.mulf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x4x16x16xf32>
  %e48 = tensor.empty() : tensor<1x4x16xf32>
  %z49 = linalg.fill ins(%cst10 : f32) outs(%e48 : tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  %g50 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g47 : tensor<1x4x16x16xf32>) outs(%z49 : tensor<1x4x16xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x4x16xf32>
  %e51 = tensor.empty() : tensor<1x4x16x16xf32>
  %g52 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g47, %p20, %g50 : tensor<1x4x16x16xf32>, tensor<1x4x16x16xf32>, tensor<1x4x16xf32>) outs(%e51 : tensor<1x4x16x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %w = arith.mulf %a1, %a2 : f32
      %y = arith.subf %a0, %w : f32
      linalg.yield %y : f32
    } -> tensor<1x4x16x16xf32>
  %e53 = tensor.empty() : tensor<1x4x16x16xf32>
  %g54 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g52 : tensor<1x4x16x16xf32>) outs(%e53 : tensor<1x4x16x16xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x4x16x16xf32>
  %e55 = tensor.empty() : tensor<1x4x16x8xf32>
  %z56 = linalg.fill ins(%cst10 : f32) outs(%e55 : tensor<1x4x16x8xf32>) -> tensor<1x4x16x8xf32>
  %cl57 = tensor.collapse_shape %g54 [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %cl58 = tensor.collapse_shape %rep3 [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %cl59 = tensor.collapse_shape %z56 [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %bmm60 = linalg.batch_matmul ins(%cl57, %cl58 : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%cl59 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %ex61 = tensor.expand_shape %bmm60 [[0, 1], [2], [3]] output_shape [1, 4, 16, 8] : tensor<4x16x8xf32> into tensor<1x4x16x8xf32>
  %e62 = tensor.empty() : tensor<1x4x16x16xf32>
  %tr63 = linalg.transpose ins(%g54 : tensor<1x4x16x16xf32>) outs(%e62 : tensor<1x4x16x16xf32>) permutation = [0, 1, 3, 2]
  %e64 = tensor.empty() : tensor<1x4x16x8xf32>
  %z65 = linalg.fill ins(%cst10 : f32) outs(%e64 : tensor<1x4x16x8xf32>) -> tensor<1x4x16x8xf32>
  %cl66 = tensor.collapse_shape %tr63 [[0, 1], [2], [3]] : tensor<1x4x16x16xf32> into tensor<4x16x16xf32>
  %cl67 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %cl68 = tensor.collapse_shape %z65 [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %bmm69 = linalg.batch_matmul ins(%cl66, %cl67 : tensor<4x16x16xf32>, tensor<4x16x8xf32>) outs(%cl68 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %ex70 = tensor.expand_shape %bmm69 [[0, 1], [2], [3]] output_shape [1, 4, 16, 8] : tensor<4x16x8xf32> into tensor<1x4x16x8xf32>
  %gx71 = tensor.expand_shape %ex70 [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 16, 8] : tensor<1x4x16x8xf32> into tensor<1x1x4x16x8xf32>
  %e72 = tensor.empty() : tensor<1x1x16x8xf32>
  %z73 = linalg.fill ins(%cst10 : f32) outs(%e72 : tensor<1x1x16x8xf32>) -> tensor<1x1x16x8xf32>
  %rd74 = linalg.reduce ins(%gx71 : tensor<1x1x4x16x8xf32>) outs(%z73 : tensor<1x1x16x8xf32>) dimensions = [2]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  %gx75 = tensor.expand_shape %ex36 [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 16, 8] : tensor<1x4x16x8xf32> into tensor<1x1x4x16x8xf32>
  %e76 = tensor.empty() : tensor<1x1x16x8xf32>
  %z77 = linalg.fill ins(%cst10 : f32) outs(%e76 : tensor<1x1x16x8xf32>) -> tensor<1x1x16x8xf32>
  %rd78 = linalg.reduce ins(%gx75 : tensor<1x1x4x16x8xf32>) outs(%z77 : tensor<1x1x16x8xf32>) dimensions = [2]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  return %ex27, %ex61, %rd74, %rd78 : tensor<1x4x16x8xf32>, tensor<1x4x16x8xf32>, tensor<1x1x16x8xf32>, tensor<1x1x16x8xf32>
}

// -----

// JAX style: Q and dO expanded to [B, Hkv, G, N, D], 5-D einsums; dK and dV reduce over (g, i) in one generic (dO is read through its expand_shape: the view names it) (found by an adversarial tester, session 39).
// CHECK-LABEL: func.func @j5_gqa2
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: linalg.softmax
// CHECK: return
// EXEC: j5_gqa2: raised=yes
func.func @j5_gqa2(%q: tensor<2x4x13x8xf32>, %k: tensor<2x2x17x8xf32>, %v: tensor<2x2x17x8xf32>, %do: tensor<2x4x13x8xf32>) -> (tensor<2x4x13x8xf32>, tensor<2x4x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>) {
  %x51 = tensor.expand_shape %q [[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 13, 8] : tensor<2x4x13x8xf32> into tensor<2x2x2x13x8xf32>
  %x52 = tensor.expand_shape %do [[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 13, 8] : tensor<2x4x13x8xf32> into tensor<2x2x2x13x8xf32>
  %e3 = tensor.empty() : tensor<2x2x2x13x17xf32>
  %cst4 = arith.constant 0.0 : f32
  %z5 = linalg.fill ins(%cst4 : f32) outs(%e3 : tensor<2x2x2x13x17xf32>) -> tensor<2x2x2x13x17xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j, d) -> (b, k, g, i, d)>, affine_map<(b, k, g, i, j, d) -> (b, k, j, d)>, affine_map<(b, k, g, i, j, d) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x51, %k : tensor<2x2x2x13x8xf32>, tensor<2x2x17x8xf32>) outs(%z5 : tensor<2x2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x2x13x17xf32>
  %e7 = tensor.empty() : tensor<2x2x2x13x17xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g6 : tensor<2x2x2x13x17xf32>) outs(%e7 : tensor<2x2x2x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<2x2x2x13x17xf32>
  %e9 = tensor.empty() : tensor<2x2x2x13xf32>
  %cst10 = arith.constant 0xFF800000 : f32
  %z11 = linalg.fill ins(%cst10 : f32) outs(%e9 : tensor<2x2x2x13xf32>) -> tensor<2x2x2x13xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g8 : tensor<2x2x2x13x17xf32>) outs(%z11 : tensor<2x2x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.maximumf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<2x2x2x13xf32>
  %e13 = tensor.empty() : tensor<2x2x2x13x17xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g8, %g12 : tensor<2x2x2x13x17xf32>, tensor<2x2x2x13xf32>) outs(%e13 : tensor<2x2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %d = arith.subf %a0, %a1 : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<2x2x2x13x17xf32>
  %e15 = tensor.empty() : tensor<2x2x2x13xf32>
  %z16 = linalg.fill ins(%cst4 : f32) outs(%e15 : tensor<2x2x2x13xf32>) -> tensor<2x2x2x13xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g14 : tensor<2x2x2x13x17xf32>) outs(%z16 : tensor<2x2x2x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<2x2x2x13xf32>
  %e18 = tensor.empty() : tensor<2x2x2x13x17xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g14, %g17 : tensor<2x2x2x13x17xf32>, tensor<2x2x2x13xf32>) outs(%e18 : tensor<2x2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.divf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<2x2x2x13x17xf32>
  %e20 = tensor.empty() : tensor<2x2x2x13x8xf32>
  %z21 = linalg.fill ins(%cst4 : f32) outs(%e20 : tensor<2x2x2x13x8xf32>) -> tensor<2x2x2x13x8xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, e, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, e, j) -> (b, k, j, e)>, affine_map<(b, k, g, i, e, j) -> (b, k, g, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<2x2x2x13x17xf32>, tensor<2x2x17x8xf32>) outs(%z21 : tensor<2x2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x2x13x8xf32>
  %c423 = tensor.collapse_shape %g22 [[0], [1, 2], [3], [4]] : tensor<2x2x2x13x8xf32> into tensor<2x4x13x8xf32>
  %e24 = tensor.empty() : tensor<2x2x17x8xf32>
  %z25 = linalg.fill ins(%cst4 : f32) outs(%e24 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, k, j, e, g, i) -> (b, k, g, i, j)>, affine_map<(b, k, j, e, g, i) -> (b, k, g, i, e)>, affine_map<(b, k, j, e, g, i) -> (b, k, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%g19, %x52 : tensor<2x2x2x13x17xf32>, tensor<2x2x2x13x8xf32>) outs(%z25 : tensor<2x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x17x8xf32>
  %e27 = tensor.empty() : tensor<2x2x2x13x17xf32>
  %z28 = linalg.fill ins(%cst4 : f32) outs(%e27 : tensor<2x2x2x13x17xf32>) -> tensor<2x2x2x13x17xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j, e) -> (b, k, g, i, e)>, affine_map<(b, k, g, i, j, e) -> (b, k, j, e)>, affine_map<(b, k, g, i, j, e) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x52, %v : tensor<2x2x2x13x8xf32>, tensor<2x2x17x8xf32>) outs(%z28 : tensor<2x2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x2x13x17xf32>
  %e30 = tensor.empty() : tensor<2x2x2x13xf32>
  %z31 = linalg.fill ins(%cst4 : f32) outs(%e30 : tensor<2x2x2x13xf32>) -> tensor<2x2x2x13xf32>
  %g32 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %g29 : tensor<2x2x2x13x17xf32>, tensor<2x2x2x13x17xf32>) outs(%z31 : tensor<2x2x2x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x2x13xf32>
  %e33 = tensor.empty() : tensor<2x2x2x13x17xf32>
  %g34 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g19, %g29, %g32 : tensor<2x2x2x13x17xf32>, tensor<2x2x2x13x17xf32>, tensor<2x2x2x13xf32>) outs(%e33 : tensor<2x2x2x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %d = arith.subf %a1, %a2 : f32
      %y = arith.mulf %a0, %d : f32
      %c = arith.constant 0.35355339 : f32
      %z = arith.mulf %y, %c : f32
      linalg.yield %z : f32
    } -> tensor<2x2x2x13x17xf32>
  %e35 = tensor.empty() : tensor<2x2x2x13x8xf32>
  %z36 = linalg.fill ins(%cst4 : f32) outs(%e35 : tensor<2x2x2x13x8xf32>) -> tensor<2x2x2x13x8xf32>
  %g37 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, d, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, d, j) -> (b, k, j, d)>, affine_map<(b, k, g, i, d, j) -> (b, k, g, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g34, %k : tensor<2x2x2x13x17xf32>, tensor<2x2x17x8xf32>) outs(%z36 : tensor<2x2x2x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x2x13x8xf32>
  %c438 = tensor.collapse_shape %g37 [[0], [1, 2], [3], [4]] : tensor<2x2x2x13x8xf32> into tensor<2x4x13x8xf32>
  %e39 = tensor.empty() : tensor<2x2x17x8xf32>
  %z40 = linalg.fill ins(%cst4 : f32) outs(%e39 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %g41 = linalg.generic {indexing_maps = [affine_map<(b, k, j, d, g, i) -> (b, k, g, i, j)>, affine_map<(b, k, j, d, g, i) -> (b, k, g, i, d)>, affine_map<(b, k, j, d, g, i) -> (b, k, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%g34, %x51 : tensor<2x2x2x13x17xf32>, tensor<2x2x2x13x8xf32>) outs(%z40 : tensor<2x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<2x2x17x8xf32>
  return %c423, %c438, %g41, %g26 : tensor<2x4x13x8xf32>, tensor<2x4x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>
}

// -----

// JAX style, G = 3, Nq = Nk (found by an adversarial tester, session 39).
// CHECK-LABEL: func.func @j5_gqa3_square
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: linalg.softmax
// CHECK: return
// EXEC: j5_gqa3_square: raised=yes
func.func @j5_gqa3_square(%q: tensor<1x6x16x8xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<1x2x16x8xf32>, %do: tensor<1x6x16x8xf32>) -> (tensor<1x6x16x8xf32>, tensor<1x6x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>) {
  %x51 = tensor.expand_shape %q [[0], [1, 2], [3], [4]] output_shape [1, 2, 3, 16, 8] : tensor<1x6x16x8xf32> into tensor<1x2x3x16x8xf32>
  %x52 = tensor.expand_shape %do [[0], [1, 2], [3], [4]] output_shape [1, 2, 3, 16, 8] : tensor<1x6x16x8xf32> into tensor<1x2x3x16x8xf32>
  %e3 = tensor.empty() : tensor<1x2x3x16x16xf32>
  %cst4 = arith.constant 0.0 : f32
  %z5 = linalg.fill ins(%cst4 : f32) outs(%e3 : tensor<1x2x3x16x16xf32>) -> tensor<1x2x3x16x16xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j, d) -> (b, k, g, i, d)>, affine_map<(b, k, g, i, j, d) -> (b, k, j, d)>, affine_map<(b, k, g, i, j, d) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x51, %k : tensor<1x2x3x16x8xf32>, tensor<1x2x16x8xf32>) outs(%z5 : tensor<1x2x3x16x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x3x16x16xf32>
  %e7 = tensor.empty() : tensor<1x2x3x16x16xf32>
  %g8 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g6 : tensor<1x2x3x16x16xf32>) outs(%e7 : tensor<1x2x3x16x16xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x2x3x16x16xf32>
  %e9 = tensor.empty() : tensor<1x2x3x16xf32>
  %cst10 = arith.constant 0xFF800000 : f32
  %z11 = linalg.fill ins(%cst10 : f32) outs(%e9 : tensor<1x2x3x16xf32>) -> tensor<1x2x3x16xf32>
  %g12 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g8 : tensor<1x2x3x16x16xf32>) outs(%z11 : tensor<1x2x3x16xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.maximumf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x2x3x16xf32>
  %e13 = tensor.empty() : tensor<1x2x3x16x16xf32>
  %g14 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g8, %g12 : tensor<1x2x3x16x16xf32>, tensor<1x2x3x16xf32>) outs(%e13 : tensor<1x2x3x16x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %d = arith.subf %a0, %a1 : f32
      %y = math.exp %d : f32
      linalg.yield %y : f32
    } -> tensor<1x2x3x16x16xf32>
  %e15 = tensor.empty() : tensor<1x2x3x16xf32>
  %z16 = linalg.fill ins(%cst4 : f32) outs(%e15 : tensor<1x2x3x16xf32>) -> tensor<1x2x3x16xf32>
  %g17 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g14 : tensor<1x2x3x16x16xf32>) outs(%z16 : tensor<1x2x3x16xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x2x3x16xf32>
  %e18 = tensor.empty() : tensor<1x2x3x16x16xf32>
  %g19 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g14, %g17 : tensor<1x2x3x16x16xf32>, tensor<1x2x3x16xf32>) outs(%e18 : tensor<1x2x3x16x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.divf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x2x3x16x16xf32>
  %e20 = tensor.empty() : tensor<1x2x3x16x8xf32>
  %z21 = linalg.fill ins(%cst4 : f32) outs(%e20 : tensor<1x2x3x16x8xf32>) -> tensor<1x2x3x16x8xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, e, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, e, j) -> (b, k, j, e)>, affine_map<(b, k, g, i, e, j) -> (b, k, g, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %v : tensor<1x2x3x16x16xf32>, tensor<1x2x16x8xf32>) outs(%z21 : tensor<1x2x3x16x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x3x16x8xf32>
  %c423 = tensor.collapse_shape %g22 [[0], [1, 2], [3], [4]] : tensor<1x2x3x16x8xf32> into tensor<1x6x16x8xf32>
  %e24 = tensor.empty() : tensor<1x2x16x8xf32>
  %z25 = linalg.fill ins(%cst4 : f32) outs(%e24 : tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, k, j, e, g, i) -> (b, k, g, i, j)>, affine_map<(b, k, j, e, g, i) -> (b, k, g, i, e)>, affine_map<(b, k, j, e, g, i) -> (b, k, j, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%g19, %x52 : tensor<1x2x3x16x16xf32>, tensor<1x2x3x16x8xf32>) outs(%z25 : tensor<1x2x16x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x16x8xf32>
  %e27 = tensor.empty() : tensor<1x2x3x16x16xf32>
  %z28 = linalg.fill ins(%cst4 : f32) outs(%e27 : tensor<1x2x3x16x16xf32>) -> tensor<1x2x3x16x16xf32>
  %g29 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j, e) -> (b, k, g, i, e)>, affine_map<(b, k, g, i, j, e) -> (b, k, j, e)>, affine_map<(b, k, g, i, j, e) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x52, %v : tensor<1x2x3x16x8xf32>, tensor<1x2x16x8xf32>) outs(%z28 : tensor<1x2x3x16x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x3x16x16xf32>
  %e30 = tensor.empty() : tensor<1x2x3x16xf32>
  %z31 = linalg.fill ins(%cst4 : f32) outs(%e30 : tensor<1x2x3x16xf32>) -> tensor<1x2x3x16xf32>
  %g32 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g19, %g29 : tensor<1x2x3x16x16xf32>, tensor<1x2x3x16x16xf32>) outs(%z31 : tensor<1x2x3x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x3x16xf32>
  %e33 = tensor.empty() : tensor<1x2x3x16x16xf32>
  %g34 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, j) -> (b, k, g, i)>, affine_map<(b, k, g, i, j) -> (b, k, g, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%g19, %g29, %g32 : tensor<1x2x3x16x16xf32>, tensor<1x2x3x16x16xf32>, tensor<1x2x3x16xf32>) outs(%e33 : tensor<1x2x3x16x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %d = arith.subf %a1, %a2 : f32
      %y = arith.mulf %a0, %d : f32
      %c = arith.constant 0.35355339 : f32
      %z = arith.mulf %y, %c : f32
      linalg.yield %z : f32
    } -> tensor<1x2x3x16x16xf32>
  %e35 = tensor.empty() : tensor<1x2x3x16x8xf32>
  %z36 = linalg.fill ins(%cst4 : f32) outs(%e35 : tensor<1x2x3x16x8xf32>) -> tensor<1x2x3x16x8xf32>
  %g37 = linalg.generic {indexing_maps = [affine_map<(b, k, g, i, d, j) -> (b, k, g, i, j)>, affine_map<(b, k, g, i, d, j) -> (b, k, j, d)>, affine_map<(b, k, g, i, d, j) -> (b, k, g, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g34, %k : tensor<1x2x3x16x16xf32>, tensor<1x2x16x8xf32>) outs(%z36 : tensor<1x2x3x16x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x3x16x8xf32>
  %c438 = tensor.collapse_shape %g37 [[0], [1, 2], [3], [4]] : tensor<1x2x3x16x8xf32> into tensor<1x6x16x8xf32>
  %e39 = tensor.empty() : tensor<1x2x16x8xf32>
  %z40 = linalg.fill ins(%cst4 : f32) outs(%e39 : tensor<1x2x16x8xf32>) -> tensor<1x2x16x8xf32>
  %g41 = linalg.generic {indexing_maps = [affine_map<(b, k, j, d, g, i) -> (b, k, g, i, j)>, affine_map<(b, k, j, d, g, i) -> (b, k, g, i, d)>, affine_map<(b, k, j, d, g, i) -> (b, k, j, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%g34, %x51 : tensor<1x2x3x16x16xf32>, tensor<1x2x3x16x8xf32>) outs(%z40 : tensor<1x2x16x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x16x8xf32>
  return %c423, %c438, %g41, %g26 : tensor<1x6x16x8xf32>, tensor<1x6x16x8xf32>, tensor<1x2x16x8xf32>, tensor<1x2x16x8xf32>
}

// -----

// dO scaled by 1/4 before the backward, K and V read at h floordiv 2, dV over an expand_shape of the scaled dO (c sum_g sum_i P dO) (found by an adversarial tester, session 39).
// CHECK-LABEL: func.func @x_doscale_maps_g2
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: linalg.softmax
// CHECK: return
// EXEC: x_doscale_maps_g2: raised=yes
func.func @x_doscale_maps_g2(%q: tensor<1x4x13x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>, %do: tensor<1x4x13x8xf32>) -> (tensor<1x4x13x8xf32>, tensor<1x4x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>) {
  %e1 = tensor.empty() : tensor<1x4x13x17xf32>
  %cst2 = arith.constant 0.0 : f32
  %z3 = linalg.fill ins(%cst2 : f32) outs(%e1 : tensor<1x4x13x17xf32>) -> tensor<1x4x13x17xf32>
  %g4 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h floordiv 2, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x4x13x8xf32>, tensor<1x2x17x8xf32>) outs(%z3 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e5 = tensor.empty() : tensor<1x4x13x17xf32>
  %g6 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g4 : tensor<1x4x13x17xf32>) outs(%e5 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e7 = tensor.empty() : tensor<1x4x13x17xf32>
  %p8 = linalg.softmax dimension(3) ins(%g6 : tensor<1x4x13x17xf32>) outs(%e7 : tensor<1x4x13x17xf32>) -> tensor<1x4x13x17xf32>
  %e9 = tensor.empty() : tensor<1x4x13x8xf32>
  %z10 = linalg.fill ins(%cst2 : f32) outs(%e9 : tensor<1x4x13x8xf32>) -> tensor<1x4x13x8xf32>
  %g11 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h floordiv 2, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %v : tensor<1x4x13x17xf32>, tensor<1x2x17x8xf32>) outs(%z10 : tensor<1x4x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x8xf32>
  %e12 = tensor.empty() : tensor<1x4x13x8xf32>
  %g13 = linalg.generic {indexing_maps = [affine_map<(b, h, i, e) -> (b, h, i, e)>, affine_map<(b, h, i, e) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%do : tensor<1x4x13x8xf32>) outs(%e12 : tensor<1x4x13x8xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.25 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x8xf32>
  %e14 = tensor.empty() : tensor<1x2x17x8xf32>
  %z15 = linalg.fill ins(%cst2 : f32) outs(%e14 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %gx16 = tensor.expand_shape %p8 [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 13, 17] : tensor<1x4x13x17xf32> into tensor<1x2x2x13x17xf32>
  %gx17 = tensor.expand_shape %g13 [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 13, 8] : tensor<1x4x13x8xf32> into tensor<1x2x2x13x8xf32>
  %g18 = linalg.generic {indexing_maps = [affine_map<(b, g, r, j, e, i) -> (b, g, r, i, j)>, affine_map<(b, g, r, j, e, i) -> (b, g, r, i, e)>, affine_map<(b, g, r, j, e, i) -> (b, g, j, e)>], iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "reduction"]}
      ins(%gx16, %gx17 : tensor<1x2x2x13x17xf32>, tensor<1x2x2x13x8xf32>) outs(%z15 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  %e19 = tensor.empty() : tensor<1x4x13x17xf32>
  %z20 = linalg.fill ins(%cst2 : f32) outs(%e19 : tensor<1x4x13x17xf32>) -> tensor<1x4x13x17xf32>
  %g21 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h floordiv 2, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g13, %v : tensor<1x4x13x8xf32>, tensor<1x2x17x8xf32>) outs(%z20 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x17xf32>
  %e22 = tensor.empty() : tensor<1x4x13xf32>
  %z23 = linalg.fill ins(%cst2 : f32) outs(%e22 : tensor<1x4x13xf32>) -> tensor<1x4x13xf32>
  %g24 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p8, %g21 : tensor<1x4x13x17xf32>, tensor<1x4x13x17xf32>) outs(%z23 : tensor<1x4x13xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13xf32>
  %e25 = tensor.empty() : tensor<1x4x13x17xf32>
  %g26 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p8, %g21, %g24 : tensor<1x4x13x17xf32>, tensor<1x4x13x17xf32>, tensor<1x4x13xf32>) outs(%e25 : tensor<1x4x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %d = arith.subf %a1, %a2 : f32
      %y = arith.mulf %a0, %d : f32
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
  %e29 = tensor.empty() : tensor<1x4x13x8xf32>
  %z30 = linalg.fill ins(%cst2 : f32) outs(%e29 : tensor<1x4x13x8xf32>) -> tensor<1x4x13x8xf32>
  %g31 = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h floordiv 2, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%g28, %k : tensor<1x4x13x17xf32>, tensor<1x2x17x8xf32>) outs(%z30 : tensor<1x4x13x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x4x13x8xf32>
  %e32 = tensor.empty() : tensor<1x2x17x8xf32>
  %z33 = linalg.fill ins(%cst2 : f32) outs(%e32 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %gx34 = tensor.expand_shape %g28 [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 13, 17] : tensor<1x4x13x17xf32> into tensor<1x2x2x13x17xf32>
  %gx35 = tensor.expand_shape %q [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 13, 8] : tensor<1x4x13x8xf32> into tensor<1x2x2x13x8xf32>
  %g36 = linalg.generic {indexing_maps = [affine_map<(b, g, r, j, d, i) -> (b, g, r, i, j)>, affine_map<(b, g, r, j, d, i) -> (b, g, r, i, d)>, affine_map<(b, g, r, j, d, i) -> (b, g, j, d)>], iterator_types = ["parallel", "parallel", "reduction", "parallel", "parallel", "reduction"]}
      ins(%gx34, %gx35 : tensor<1x2x2x13x17xf32>, tensor<1x2x2x13x8xf32>) outs(%z33 : tensor<1x2x17x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %m = arith.mulf %a0, %a1 : f32
      %y = arith.addf %acc, %m : f32
      linalg.yield %y : f32
    } -> tensor<1x2x17x8xf32>
  return %g11, %g31, %g36, %g18 : tensor<1x4x13x8xf32>, tensor<1x4x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>
}

// -----

// one query (Nq = 1, decode shape), GQA: the backward reads P with its unit query axis (found by an adversarial tester, session 39).
// CHECK-LABEL: func.func @t_gqa2_decode_nq1
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK-NOT: linalg.softmax
// CHECK: return
// EXEC: t_gqa2_decode_nq1: raised=yes
func.func @t_gqa2_decode_nq1(%q: tensor<2x4x1x8xf32>, %k: tensor<2x2x17x8xf32>, %v: tensor<2x2x17x8xf32>, %do: tensor<2x4x1x8xf32>) -> (tensor<2x4x1x8xf32>, tensor<2x4x1x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>) {
  %e1 = tensor.empty() : tensor<2x2x2x17x8xf32>
  %bc2 = linalg.broadcast ins(%k : tensor<2x2x17x8xf32>) outs(%e1 : tensor<2x2x2x17x8xf32>) dimensions = [2]
  %rep3 = tensor.collapse_shape %bc2 [[0], [1, 2], [3], [4]] : tensor<2x2x2x17x8xf32> into tensor<2x4x17x8xf32>
  %e4 = tensor.empty() : tensor<2x2x2x17x8xf32>
  %bc5 = linalg.broadcast ins(%v : tensor<2x2x17x8xf32>) outs(%e4 : tensor<2x2x2x17x8xf32>) dimensions = [2]
  %rep6 = tensor.collapse_shape %bc5 [[0], [1, 2], [3], [4]] : tensor<2x2x2x17x8xf32> into tensor<2x4x17x8xf32>
  %e7 = tensor.empty() : tensor<2x4x8x17xf32>
  %tr8 = linalg.transpose ins(%rep3 : tensor<2x4x17x8xf32>) outs(%e7 : tensor<2x4x8x17xf32>) permutation = [0, 1, 3, 2]
  %e9 = tensor.empty() : tensor<2x4x1x17xf32>
  %cst10 = arith.constant 0.0 : f32
  %z11 = linalg.fill ins(%cst10 : f32) outs(%e9 : tensor<2x4x1x17xf32>) -> tensor<2x4x1x17xf32>
  %cl12 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x1x8xf32> into tensor<8x1x8xf32>
  %cl13 = tensor.collapse_shape %tr8 [[0, 1], [2], [3]] : tensor<2x4x8x17xf32> into tensor<8x8x17xf32>
  %cl14 = tensor.collapse_shape %z11 [[0, 1], [2], [3]] : tensor<2x4x1x17xf32> into tensor<8x1x17xf32>
  %bmm15 = linalg.batch_matmul ins(%cl12, %cl13 : tensor<8x1x8xf32>, tensor<8x8x17xf32>) outs(%cl14 : tensor<8x1x17xf32>) -> tensor<8x1x17xf32>
  %ex16 = tensor.expand_shape %bmm15 [[0, 1], [2], [3]] output_shape [2, 4, 1, 17] : tensor<8x1x17xf32> into tensor<2x4x1x17xf32>
  %e17 = tensor.empty() : tensor<2x4x1x17xf32>
  %g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex16 : tensor<2x4x1x17xf32>) outs(%e17 : tensor<2x4x1x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y0 = arith.mulf %a0, %c : f32
      linalg.yield %y0 : f32
    } -> tensor<2x4x1x17xf32>
  %e19 = tensor.empty() : tensor<2x4x1x17xf32>
  %p20 = linalg.softmax dimension(3) ins(%g18 : tensor<2x4x1x17xf32>) outs(%e19 : tensor<2x4x1x17xf32>) -> tensor<2x4x1x17xf32>
  %e21 = tensor.empty() : tensor<2x4x1x8xf32>
  %z22 = linalg.fill ins(%cst10 : f32) outs(%e21 : tensor<2x4x1x8xf32>) -> tensor<2x4x1x8xf32>
  %cl23 = tensor.collapse_shape %p20 [[0, 1], [2], [3]] : tensor<2x4x1x17xf32> into tensor<8x1x17xf32>
  %cl24 = tensor.collapse_shape %rep6 [[0, 1], [2], [3]] : tensor<2x4x17x8xf32> into tensor<8x17x8xf32>
  %cl25 = tensor.collapse_shape %z22 [[0, 1], [2], [3]] : tensor<2x4x1x8xf32> into tensor<8x1x8xf32>
  %bmm26 = linalg.batch_matmul ins(%cl23, %cl24 : tensor<8x1x17xf32>, tensor<8x17x8xf32>) outs(%cl25 : tensor<8x1x8xf32>) -> tensor<8x1x8xf32>
  %ex27 = tensor.expand_shape %bmm26 [[0, 1], [2], [3]] output_shape [2, 4, 1, 8] : tensor<8x1x8xf32> into tensor<2x4x1x8xf32>
  %e28 = tensor.empty() : tensor<2x4x17x1xf32>
  %tr29 = linalg.transpose ins(%p20 : tensor<2x4x1x17xf32>) outs(%e28 : tensor<2x4x17x1xf32>) permutation = [0, 1, 3, 2]
  %e30 = tensor.empty() : tensor<2x4x17x8xf32>
  %z31 = linalg.fill ins(%cst10 : f32) outs(%e30 : tensor<2x4x17x8xf32>) -> tensor<2x4x17x8xf32>
  %cl32 = tensor.collapse_shape %tr29 [[0, 1], [2], [3]] : tensor<2x4x17x1xf32> into tensor<8x17x1xf32>
  %cl33 = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<2x4x1x8xf32> into tensor<8x1x8xf32>
  %cl34 = tensor.collapse_shape %z31 [[0, 1], [2], [3]] : tensor<2x4x17x8xf32> into tensor<8x17x8xf32>
  %bmm35 = linalg.batch_matmul ins(%cl32, %cl33 : tensor<8x17x1xf32>, tensor<8x1x8xf32>) outs(%cl34 : tensor<8x17x8xf32>) -> tensor<8x17x8xf32>
  %ex36 = tensor.expand_shape %bmm35 [[0, 1], [2], [3]] output_shape [2, 4, 17, 8] : tensor<8x17x8xf32> into tensor<2x4x17x8xf32>
  %e37 = tensor.empty() : tensor<2x4x8x17xf32>
  %tr38 = linalg.transpose ins(%rep6 : tensor<2x4x17x8xf32>) outs(%e37 : tensor<2x4x8x17xf32>) permutation = [0, 1, 3, 2]
  %e39 = tensor.empty() : tensor<2x4x1x17xf32>
  %z40 = linalg.fill ins(%cst10 : f32) outs(%e39 : tensor<2x4x1x17xf32>) -> tensor<2x4x1x17xf32>
  %cl41 = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<2x4x1x8xf32> into tensor<8x1x8xf32>
  %cl42 = tensor.collapse_shape %tr38 [[0, 1], [2], [3]] : tensor<2x4x8x17xf32> into tensor<8x8x17xf32>
  %cl43 = tensor.collapse_shape %z40 [[0, 1], [2], [3]] : tensor<2x4x1x17xf32> into tensor<8x1x17xf32>
  %bmm44 = linalg.batch_matmul ins(%cl41, %cl42 : tensor<8x1x8xf32>, tensor<8x8x17xf32>) outs(%cl43 : tensor<8x1x17xf32>) -> tensor<8x1x17xf32>
  %ex45 = tensor.expand_shape %bmm44 [[0, 1], [2], [3]] output_shape [2, 4, 1, 17] : tensor<8x1x17xf32> into tensor<2x4x1x17xf32>
  %e46 = tensor.empty() : tensor<2x4x1x17xf32>
  %g47 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex45, %p20 : tensor<2x4x1x17xf32>, tensor<2x4x1x17xf32>) outs(%e46 : tensor<2x4x1x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.mulf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<2x4x1x17xf32>
  %e48 = tensor.empty() : tensor<2x4x1xf32>
  %z49 = linalg.fill ins(%cst10 : f32) outs(%e48 : tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %g50 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g47 : tensor<2x4x1x17xf32>) outs(%z49 : tensor<2x4x1xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<2x4x1xf32>
  %e51 = tensor.empty() : tensor<2x4x1x17xf32>
  %g52 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g47, %p20, %g50 : tensor<2x4x1x17xf32>, tensor<2x4x1x17xf32>, tensor<2x4x1xf32>) outs(%e51 : tensor<2x4x1x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %w = arith.mulf %a1, %a2 : f32
      %y = arith.subf %a0, %w : f32
      linalg.yield %y : f32
    } -> tensor<2x4x1x17xf32>
  %e53 = tensor.empty() : tensor<2x4x1x17xf32>
  %g54 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g52 : tensor<2x4x1x17xf32>) outs(%e53 : tensor<2x4x1x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<2x4x1x17xf32>
  %e55 = tensor.empty() : tensor<2x4x1x8xf32>
  %z56 = linalg.fill ins(%cst10 : f32) outs(%e55 : tensor<2x4x1x8xf32>) -> tensor<2x4x1x8xf32>
  %cl57 = tensor.collapse_shape %g54 [[0, 1], [2], [3]] : tensor<2x4x1x17xf32> into tensor<8x1x17xf32>
  %cl58 = tensor.collapse_shape %rep3 [[0, 1], [2], [3]] : tensor<2x4x17x8xf32> into tensor<8x17x8xf32>
  %cl59 = tensor.collapse_shape %z56 [[0, 1], [2], [3]] : tensor<2x4x1x8xf32> into tensor<8x1x8xf32>
  %bmm60 = linalg.batch_matmul ins(%cl57, %cl58 : tensor<8x1x17xf32>, tensor<8x17x8xf32>) outs(%cl59 : tensor<8x1x8xf32>) -> tensor<8x1x8xf32>
  %ex61 = tensor.expand_shape %bmm60 [[0, 1], [2], [3]] output_shape [2, 4, 1, 8] : tensor<8x1x8xf32> into tensor<2x4x1x8xf32>
  %e62 = tensor.empty() : tensor<2x4x17x1xf32>
  %tr63 = linalg.transpose ins(%g54 : tensor<2x4x1x17xf32>) outs(%e62 : tensor<2x4x17x1xf32>) permutation = [0, 1, 3, 2]
  %e64 = tensor.empty() : tensor<2x4x17x8xf32>
  %z65 = linalg.fill ins(%cst10 : f32) outs(%e64 : tensor<2x4x17x8xf32>) -> tensor<2x4x17x8xf32>
  %cl66 = tensor.collapse_shape %tr63 [[0, 1], [2], [3]] : tensor<2x4x17x1xf32> into tensor<8x17x1xf32>
  %cl67 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x1x8xf32> into tensor<8x1x8xf32>
  %cl68 = tensor.collapse_shape %z65 [[0, 1], [2], [3]] : tensor<2x4x17x8xf32> into tensor<8x17x8xf32>
  %bmm69 = linalg.batch_matmul ins(%cl66, %cl67 : tensor<8x17x1xf32>, tensor<8x1x8xf32>) outs(%cl68 : tensor<8x17x8xf32>) -> tensor<8x17x8xf32>
  %ex70 = tensor.expand_shape %bmm69 [[0, 1], [2], [3]] output_shape [2, 4, 17, 8] : tensor<8x17x8xf32> into tensor<2x4x17x8xf32>
  %gx71 = tensor.expand_shape %ex70 [[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 17, 8] : tensor<2x4x17x8xf32> into tensor<2x2x2x17x8xf32>
  %e72 = tensor.empty() : tensor<2x2x17x8xf32>
  %z73 = linalg.fill ins(%cst10 : f32) outs(%e72 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %rd74 = linalg.reduce ins(%gx71 : tensor<2x2x2x17x8xf32>) outs(%z73 : tensor<2x2x17x8xf32>) dimensions = [2]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  %gx75 = tensor.expand_shape %ex36 [[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 17, 8] : tensor<2x4x17x8xf32> into tensor<2x2x2x17x8xf32>
  %e76 = tensor.empty() : tensor<2x2x17x8xf32>
  %z77 = linalg.fill ins(%cst10 : f32) outs(%e76 : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %rd78 = linalg.reduce ins(%gx75 : tensor<2x2x2x17x8xf32>) outs(%z77 : tensor<2x2x17x8xf32>) dimensions = [2]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  return %ex27, %ex61, %rd74, %rd78 : tensor<2x4x1x8xf32>, tensor<2x4x1x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>
}

// -----

// G = 4 with the heads expanded to [Hkv, 2, 2] and the group summed by two linalg.reduce ops (found by an adversarial tester, session 39).
// CHECK-LABEL: func.func @t_gqa4_two_reductions
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK: return
// EXEC: t_gqa4_two_reductions: raised=yes
func.func @t_gqa4_two_reductions(%q: tensor<1x8x13x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>, %do: tensor<1x8x13x8xf32>) -> (tensor<1x8x13x8xf32>, tensor<1x8x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>) {
  %e1 = tensor.empty() : tensor<1x2x4x17x8xf32>
  %bc2 = linalg.broadcast ins(%k : tensor<1x2x17x8xf32>) outs(%e1 : tensor<1x2x4x17x8xf32>) dimensions = [2]
  %rep3 = tensor.collapse_shape %bc2 [[0], [1, 2], [3], [4]] : tensor<1x2x4x17x8xf32> into tensor<1x8x17x8xf32>
  %e4 = tensor.empty() : tensor<1x2x4x17x8xf32>
  %bc5 = linalg.broadcast ins(%v : tensor<1x2x17x8xf32>) outs(%e4 : tensor<1x2x4x17x8xf32>) dimensions = [2]
  %rep6 = tensor.collapse_shape %bc5 [[0], [1, 2], [3], [4]] : tensor<1x2x4x17x8xf32> into tensor<1x8x17x8xf32>
  %e7 = tensor.empty() : tensor<1x8x8x17xf32>
  %tr8 = linalg.transpose ins(%rep3 : tensor<1x8x17x8xf32>) outs(%e7 : tensor<1x8x8x17xf32>) permutation = [0, 1, 3, 2]
  %e9 = tensor.empty() : tensor<1x8x13x17xf32>
  %cst10 = arith.constant 0.0 : f32
  %z11 = linalg.fill ins(%cst10 : f32) outs(%e9 : tensor<1x8x13x17xf32>) -> tensor<1x8x13x17xf32>
  %cl12 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x8x13x8xf32> into tensor<8x13x8xf32>
  %cl13 = tensor.collapse_shape %tr8 [[0, 1], [2], [3]] : tensor<1x8x8x17xf32> into tensor<8x8x17xf32>
  %cl14 = tensor.collapse_shape %z11 [[0, 1], [2], [3]] : tensor<1x8x13x17xf32> into tensor<8x13x17xf32>
  %bmm15 = linalg.batch_matmul ins(%cl12, %cl13 : tensor<8x13x8xf32>, tensor<8x8x17xf32>) outs(%cl14 : tensor<8x13x17xf32>) -> tensor<8x13x17xf32>
  %ex16 = tensor.expand_shape %bmm15 [[0, 1], [2], [3]] output_shape [1, 8, 13, 17] : tensor<8x13x17xf32> into tensor<1x8x13x17xf32>
  %e17 = tensor.empty() : tensor<1x8x13x17xf32>
  %g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex16 : tensor<1x8x13x17xf32>) outs(%e17 : tensor<1x8x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y0 = arith.mulf %a0, %c : f32
      linalg.yield %y0 : f32
    } -> tensor<1x8x13x17xf32>
  %e19 = tensor.empty() : tensor<1x8x13x17xf32>
  %p20 = linalg.softmax dimension(3) ins(%g18 : tensor<1x8x13x17xf32>) outs(%e19 : tensor<1x8x13x17xf32>) -> tensor<1x8x13x17xf32>
  %e21 = tensor.empty() : tensor<1x8x13x8xf32>
  %z22 = linalg.fill ins(%cst10 : f32) outs(%e21 : tensor<1x8x13x8xf32>) -> tensor<1x8x13x8xf32>
  %cl23 = tensor.collapse_shape %p20 [[0, 1], [2], [3]] : tensor<1x8x13x17xf32> into tensor<8x13x17xf32>
  %cl24 = tensor.collapse_shape %rep6 [[0, 1], [2], [3]] : tensor<1x8x17x8xf32> into tensor<8x17x8xf32>
  %cl25 = tensor.collapse_shape %z22 [[0, 1], [2], [3]] : tensor<1x8x13x8xf32> into tensor<8x13x8xf32>
  %bmm26 = linalg.batch_matmul ins(%cl23, %cl24 : tensor<8x13x17xf32>, tensor<8x17x8xf32>) outs(%cl25 : tensor<8x13x8xf32>) -> tensor<8x13x8xf32>
  %ex27 = tensor.expand_shape %bmm26 [[0, 1], [2], [3]] output_shape [1, 8, 13, 8] : tensor<8x13x8xf32> into tensor<1x8x13x8xf32>
  %e28 = tensor.empty() : tensor<1x8x17x13xf32>
  %tr29 = linalg.transpose ins(%p20 : tensor<1x8x13x17xf32>) outs(%e28 : tensor<1x8x17x13xf32>) permutation = [0, 1, 3, 2]
  %e30 = tensor.empty() : tensor<1x8x17x8xf32>
  %z31 = linalg.fill ins(%cst10 : f32) outs(%e30 : tensor<1x8x17x8xf32>) -> tensor<1x8x17x8xf32>
  %cl32 = tensor.collapse_shape %tr29 [[0, 1], [2], [3]] : tensor<1x8x17x13xf32> into tensor<8x17x13xf32>
  %cl33 = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<1x8x13x8xf32> into tensor<8x13x8xf32>
  %cl34 = tensor.collapse_shape %z31 [[0, 1], [2], [3]] : tensor<1x8x17x8xf32> into tensor<8x17x8xf32>
  %bmm35 = linalg.batch_matmul ins(%cl32, %cl33 : tensor<8x17x13xf32>, tensor<8x13x8xf32>) outs(%cl34 : tensor<8x17x8xf32>) -> tensor<8x17x8xf32>
  %ex36 = tensor.expand_shape %bmm35 [[0, 1], [2], [3]] output_shape [1, 8, 17, 8] : tensor<8x17x8xf32> into tensor<1x8x17x8xf32>
  %e37 = tensor.empty() : tensor<1x8x8x17xf32>
  %tr38 = linalg.transpose ins(%rep6 : tensor<1x8x17x8xf32>) outs(%e37 : tensor<1x8x8x17xf32>) permutation = [0, 1, 3, 2]
  %e39 = tensor.empty() : tensor<1x8x13x17xf32>
  %z40 = linalg.fill ins(%cst10 : f32) outs(%e39 : tensor<1x8x13x17xf32>) -> tensor<1x8x13x17xf32>
  %cl41 = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<1x8x13x8xf32> into tensor<8x13x8xf32>
  %cl42 = tensor.collapse_shape %tr38 [[0, 1], [2], [3]] : tensor<1x8x8x17xf32> into tensor<8x8x17xf32>
  %cl43 = tensor.collapse_shape %z40 [[0, 1], [2], [3]] : tensor<1x8x13x17xf32> into tensor<8x13x17xf32>
  %bmm44 = linalg.batch_matmul ins(%cl41, %cl42 : tensor<8x13x8xf32>, tensor<8x8x17xf32>) outs(%cl43 : tensor<8x13x17xf32>) -> tensor<8x13x17xf32>
  %ex45 = tensor.expand_shape %bmm44 [[0, 1], [2], [3]] output_shape [1, 8, 13, 17] : tensor<8x13x17xf32> into tensor<1x8x13x17xf32>
  %e46 = tensor.empty() : tensor<1x8x13x17xf32>
  %g47 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex45, %p20 : tensor<1x8x13x17xf32>, tensor<1x8x13x17xf32>) outs(%e46 : tensor<1x8x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.mulf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x8x13x17xf32>
  %e48 = tensor.empty() : tensor<1x8x13xf32>
  %z49 = linalg.fill ins(%cst10 : f32) outs(%e48 : tensor<1x8x13xf32>) -> tensor<1x8x13xf32>
  %g50 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g47 : tensor<1x8x13x17xf32>) outs(%z49 : tensor<1x8x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x8x13xf32>
  %e51 = tensor.empty() : tensor<1x8x13x17xf32>
  %g52 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g47, %p20, %g50 : tensor<1x8x13x17xf32>, tensor<1x8x13x17xf32>, tensor<1x8x13xf32>) outs(%e51 : tensor<1x8x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %w = arith.mulf %a1, %a2 : f32
      %y = arith.subf %a0, %w : f32
      linalg.yield %y : f32
    } -> tensor<1x8x13x17xf32>
  %e53 = tensor.empty() : tensor<1x8x13x17xf32>
  %g54 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g52 : tensor<1x8x13x17xf32>) outs(%e53 : tensor<1x8x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x8x13x17xf32>
  %e55 = tensor.empty() : tensor<1x8x13x8xf32>
  %z56 = linalg.fill ins(%cst10 : f32) outs(%e55 : tensor<1x8x13x8xf32>) -> tensor<1x8x13x8xf32>
  %cl57 = tensor.collapse_shape %g54 [[0, 1], [2], [3]] : tensor<1x8x13x17xf32> into tensor<8x13x17xf32>
  %cl58 = tensor.collapse_shape %rep3 [[0, 1], [2], [3]] : tensor<1x8x17x8xf32> into tensor<8x17x8xf32>
  %cl59 = tensor.collapse_shape %z56 [[0, 1], [2], [3]] : tensor<1x8x13x8xf32> into tensor<8x13x8xf32>
  %bmm60 = linalg.batch_matmul ins(%cl57, %cl58 : tensor<8x13x17xf32>, tensor<8x17x8xf32>) outs(%cl59 : tensor<8x13x8xf32>) -> tensor<8x13x8xf32>
  %ex61 = tensor.expand_shape %bmm60 [[0, 1], [2], [3]] output_shape [1, 8, 13, 8] : tensor<8x13x8xf32> into tensor<1x8x13x8xf32>
  %e62 = tensor.empty() : tensor<1x8x17x13xf32>
  %tr63 = linalg.transpose ins(%g54 : tensor<1x8x13x17xf32>) outs(%e62 : tensor<1x8x17x13xf32>) permutation = [0, 1, 3, 2]
  %e64 = tensor.empty() : tensor<1x8x17x8xf32>
  %z65 = linalg.fill ins(%cst10 : f32) outs(%e64 : tensor<1x8x17x8xf32>) -> tensor<1x8x17x8xf32>
  %cl66 = tensor.collapse_shape %tr63 [[0, 1], [2], [3]] : tensor<1x8x17x13xf32> into tensor<8x17x13xf32>
  %cl67 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x8x13x8xf32> into tensor<8x13x8xf32>
  %cl68 = tensor.collapse_shape %z65 [[0, 1], [2], [3]] : tensor<1x8x17x8xf32> into tensor<8x17x8xf32>
  %bmm69 = linalg.batch_matmul ins(%cl66, %cl67 : tensor<8x17x13xf32>, tensor<8x13x8xf32>) outs(%cl68 : tensor<8x17x8xf32>) -> tensor<8x17x8xf32>
  %ex70 = tensor.expand_shape %bmm69 [[0, 1], [2], [3]] output_shape [1, 8, 17, 8] : tensor<8x17x8xf32> into tensor<1x8x17x8xf32>
  %gx71 = tensor.expand_shape %ex70 [[0], [1, 2, 3], [4], [5]] output_shape [1, 2, 2, 2, 17, 8] : tensor<1x8x17x8xf32> into tensor<1x2x2x2x17x8xf32>
  %e72 = tensor.empty() : tensor<1x2x2x17x8xf32>
  %z73 = linalg.fill ins(%cst10 : f32) outs(%e72 : tensor<1x2x2x17x8xf32>) -> tensor<1x2x2x17x8xf32>
  %rd74 = linalg.reduce ins(%gx71 : tensor<1x2x2x2x17x8xf32>) outs(%z73 : tensor<1x2x2x17x8xf32>) dimensions = [3]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  %e75 = tensor.empty() : tensor<1x2x17x8xf32>
  %z76 = linalg.fill ins(%cst10 : f32) outs(%e75 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %rd77 = linalg.reduce ins(%rd74 : tensor<1x2x2x17x8xf32>) outs(%z76 : tensor<1x2x17x8xf32>) dimensions = [2]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  %gx78 = tensor.expand_shape %ex36 [[0], [1, 2, 3], [4], [5]] output_shape [1, 2, 2, 2, 17, 8] : tensor<1x8x17x8xf32> into tensor<1x2x2x2x17x8xf32>
  %e79 = tensor.empty() : tensor<1x2x2x17x8xf32>
  %z80 = linalg.fill ins(%cst10 : f32) outs(%e79 : tensor<1x2x2x17x8xf32>) -> tensor<1x2x2x17x8xf32>
  %rd81 = linalg.reduce ins(%gx78 : tensor<1x2x2x2x17x8xf32>) outs(%z80 : tensor<1x2x2x17x8xf32>) dimensions = [3]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  %e82 = tensor.empty() : tensor<1x2x17x8xf32>
  %z83 = linalg.fill ins(%cst10 : f32) outs(%e82 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %rd84 = linalg.reduce ins(%rd81 : tensor<1x2x2x17x8xf32>) outs(%z83 : tensor<1x2x17x8xf32>) dimensions = [2]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  return %ex27, %ex61, %rd77, %rd84 : tensor<1x8x13x8xf32>, tensor<1x8x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>
}

// -----

// the same, one linalg.reduce over both dims [2, 3] (found by an adversarial tester, session 39).
// CHECK-LABEL: func.func @t_gqa4_reduce_two_dims
// CHECK: flash.attention
// CHECK: flash.attention_grad
// CHECK: return
// EXEC: t_gqa4_reduce_two_dims: raised=yes
func.func @t_gqa4_reduce_two_dims(%q: tensor<1x8x13x8xf32>, %k: tensor<1x2x17x8xf32>, %v: tensor<1x2x17x8xf32>, %do: tensor<1x8x13x8xf32>) -> (tensor<1x8x13x8xf32>, tensor<1x8x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>) {
  %e1 = tensor.empty() : tensor<1x2x4x17x8xf32>
  %bc2 = linalg.broadcast ins(%k : tensor<1x2x17x8xf32>) outs(%e1 : tensor<1x2x4x17x8xf32>) dimensions = [2]
  %rep3 = tensor.collapse_shape %bc2 [[0], [1, 2], [3], [4]] : tensor<1x2x4x17x8xf32> into tensor<1x8x17x8xf32>
  %e4 = tensor.empty() : tensor<1x2x4x17x8xf32>
  %bc5 = linalg.broadcast ins(%v : tensor<1x2x17x8xf32>) outs(%e4 : tensor<1x2x4x17x8xf32>) dimensions = [2]
  %rep6 = tensor.collapse_shape %bc5 [[0], [1, 2], [3], [4]] : tensor<1x2x4x17x8xf32> into tensor<1x8x17x8xf32>
  %e7 = tensor.empty() : tensor<1x8x8x17xf32>
  %tr8 = linalg.transpose ins(%rep3 : tensor<1x8x17x8xf32>) outs(%e7 : tensor<1x8x8x17xf32>) permutation = [0, 1, 3, 2]
  %e9 = tensor.empty() : tensor<1x8x13x17xf32>
  %cst10 = arith.constant 0.0 : f32
  %z11 = linalg.fill ins(%cst10 : f32) outs(%e9 : tensor<1x8x13x17xf32>) -> tensor<1x8x13x17xf32>
  %cl12 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x8x13x8xf32> into tensor<8x13x8xf32>
  %cl13 = tensor.collapse_shape %tr8 [[0, 1], [2], [3]] : tensor<1x8x8x17xf32> into tensor<8x8x17xf32>
  %cl14 = tensor.collapse_shape %z11 [[0, 1], [2], [3]] : tensor<1x8x13x17xf32> into tensor<8x13x17xf32>
  %bmm15 = linalg.batch_matmul ins(%cl12, %cl13 : tensor<8x13x8xf32>, tensor<8x8x17xf32>) outs(%cl14 : tensor<8x13x17xf32>) -> tensor<8x13x17xf32>
  %ex16 = tensor.expand_shape %bmm15 [[0, 1], [2], [3]] output_shape [1, 8, 13, 17] : tensor<8x13x17xf32> into tensor<1x8x13x17xf32>
  %e17 = tensor.empty() : tensor<1x8x13x17xf32>
  %g18 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex16 : tensor<1x8x13x17xf32>) outs(%e17 : tensor<1x8x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y0 = arith.mulf %a0, %c : f32
      linalg.yield %y0 : f32
    } -> tensor<1x8x13x17xf32>
  %e19 = tensor.empty() : tensor<1x8x13x17xf32>
  %p20 = linalg.softmax dimension(3) ins(%g18 : tensor<1x8x13x17xf32>) outs(%e19 : tensor<1x8x13x17xf32>) -> tensor<1x8x13x17xf32>
  %e21 = tensor.empty() : tensor<1x8x13x8xf32>
  %z22 = linalg.fill ins(%cst10 : f32) outs(%e21 : tensor<1x8x13x8xf32>) -> tensor<1x8x13x8xf32>
  %cl23 = tensor.collapse_shape %p20 [[0, 1], [2], [3]] : tensor<1x8x13x17xf32> into tensor<8x13x17xf32>
  %cl24 = tensor.collapse_shape %rep6 [[0, 1], [2], [3]] : tensor<1x8x17x8xf32> into tensor<8x17x8xf32>
  %cl25 = tensor.collapse_shape %z22 [[0, 1], [2], [3]] : tensor<1x8x13x8xf32> into tensor<8x13x8xf32>
  %bmm26 = linalg.batch_matmul ins(%cl23, %cl24 : tensor<8x13x17xf32>, tensor<8x17x8xf32>) outs(%cl25 : tensor<8x13x8xf32>) -> tensor<8x13x8xf32>
  %ex27 = tensor.expand_shape %bmm26 [[0, 1], [2], [3]] output_shape [1, 8, 13, 8] : tensor<8x13x8xf32> into tensor<1x8x13x8xf32>
  %e28 = tensor.empty() : tensor<1x8x17x13xf32>
  %tr29 = linalg.transpose ins(%p20 : tensor<1x8x13x17xf32>) outs(%e28 : tensor<1x8x17x13xf32>) permutation = [0, 1, 3, 2]
  %e30 = tensor.empty() : tensor<1x8x17x8xf32>
  %z31 = linalg.fill ins(%cst10 : f32) outs(%e30 : tensor<1x8x17x8xf32>) -> tensor<1x8x17x8xf32>
  %cl32 = tensor.collapse_shape %tr29 [[0, 1], [2], [3]] : tensor<1x8x17x13xf32> into tensor<8x17x13xf32>
  %cl33 = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<1x8x13x8xf32> into tensor<8x13x8xf32>
  %cl34 = tensor.collapse_shape %z31 [[0, 1], [2], [3]] : tensor<1x8x17x8xf32> into tensor<8x17x8xf32>
  %bmm35 = linalg.batch_matmul ins(%cl32, %cl33 : tensor<8x17x13xf32>, tensor<8x13x8xf32>) outs(%cl34 : tensor<8x17x8xf32>) -> tensor<8x17x8xf32>
  %ex36 = tensor.expand_shape %bmm35 [[0, 1], [2], [3]] output_shape [1, 8, 17, 8] : tensor<8x17x8xf32> into tensor<1x8x17x8xf32>
  %e37 = tensor.empty() : tensor<1x8x8x17xf32>
  %tr38 = linalg.transpose ins(%rep6 : tensor<1x8x17x8xf32>) outs(%e37 : tensor<1x8x8x17xf32>) permutation = [0, 1, 3, 2]
  %e39 = tensor.empty() : tensor<1x8x13x17xf32>
  %z40 = linalg.fill ins(%cst10 : f32) outs(%e39 : tensor<1x8x13x17xf32>) -> tensor<1x8x13x17xf32>
  %cl41 = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<1x8x13x8xf32> into tensor<8x13x8xf32>
  %cl42 = tensor.collapse_shape %tr38 [[0, 1], [2], [3]] : tensor<1x8x8x17xf32> into tensor<8x8x17xf32>
  %cl43 = tensor.collapse_shape %z40 [[0, 1], [2], [3]] : tensor<1x8x13x17xf32> into tensor<8x13x17xf32>
  %bmm44 = linalg.batch_matmul ins(%cl41, %cl42 : tensor<8x13x8xf32>, tensor<8x8x17xf32>) outs(%cl43 : tensor<8x13x17xf32>) -> tensor<8x13x17xf32>
  %ex45 = tensor.expand_shape %bmm44 [[0, 1], [2], [3]] output_shape [1, 8, 13, 17] : tensor<8x13x17xf32> into tensor<1x8x13x17xf32>
  %e46 = tensor.empty() : tensor<1x8x13x17xf32>
  %g47 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex45, %p20 : tensor<1x8x13x17xf32>, tensor<1x8x13x17xf32>) outs(%e46 : tensor<1x8x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %acc: f32):
      %y = arith.mulf %a0, %a1 : f32
      linalg.yield %y : f32
    } -> tensor<1x8x13x17xf32>
  %e48 = tensor.empty() : tensor<1x8x13xf32>
  %z49 = linalg.fill ins(%cst10 : f32) outs(%e48 : tensor<1x8x13xf32>) -> tensor<1x8x13xf32>
  %g50 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%g47 : tensor<1x8x13x17xf32>) outs(%z49 : tensor<1x8x13xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %y = arith.addf %a0, %acc : f32
      linalg.yield %y : f32
    } -> tensor<1x8x13xf32>
  %e51 = tensor.empty() : tensor<1x8x13x17xf32>
  %g52 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g47, %p20, %g50 : tensor<1x8x13x17xf32>, tensor<1x8x13x17xf32>, tensor<1x8x13xf32>) outs(%e51 : tensor<1x8x13x17xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %acc: f32):
      %w = arith.mulf %a1, %a2 : f32
      %y = arith.subf %a0, %w : f32
      linalg.yield %y : f32
    } -> tensor<1x8x13x17xf32>
  %e53 = tensor.empty() : tensor<1x8x13x17xf32>
  %g54 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%g52 : tensor<1x8x13x17xf32>) outs(%e53 : tensor<1x8x13x17xf32>) {
    ^bb0(%a0: f32, %acc: f32):
      %c = arith.constant 0.35355339 : f32
      %y = arith.mulf %a0, %c : f32
      linalg.yield %y : f32
    } -> tensor<1x8x13x17xf32>
  %e55 = tensor.empty() : tensor<1x8x13x8xf32>
  %z56 = linalg.fill ins(%cst10 : f32) outs(%e55 : tensor<1x8x13x8xf32>) -> tensor<1x8x13x8xf32>
  %cl57 = tensor.collapse_shape %g54 [[0, 1], [2], [3]] : tensor<1x8x13x17xf32> into tensor<8x13x17xf32>
  %cl58 = tensor.collapse_shape %rep3 [[0, 1], [2], [3]] : tensor<1x8x17x8xf32> into tensor<8x17x8xf32>
  %cl59 = tensor.collapse_shape %z56 [[0, 1], [2], [3]] : tensor<1x8x13x8xf32> into tensor<8x13x8xf32>
  %bmm60 = linalg.batch_matmul ins(%cl57, %cl58 : tensor<8x13x17xf32>, tensor<8x17x8xf32>) outs(%cl59 : tensor<8x13x8xf32>) -> tensor<8x13x8xf32>
  %ex61 = tensor.expand_shape %bmm60 [[0, 1], [2], [3]] output_shape [1, 8, 13, 8] : tensor<8x13x8xf32> into tensor<1x8x13x8xf32>
  %e62 = tensor.empty() : tensor<1x8x17x13xf32>
  %tr63 = linalg.transpose ins(%g54 : tensor<1x8x13x17xf32>) outs(%e62 : tensor<1x8x17x13xf32>) permutation = [0, 1, 3, 2]
  %e64 = tensor.empty() : tensor<1x8x17x8xf32>
  %z65 = linalg.fill ins(%cst10 : f32) outs(%e64 : tensor<1x8x17x8xf32>) -> tensor<1x8x17x8xf32>
  %cl66 = tensor.collapse_shape %tr63 [[0, 1], [2], [3]] : tensor<1x8x17x13xf32> into tensor<8x17x13xf32>
  %cl67 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x8x13x8xf32> into tensor<8x13x8xf32>
  %cl68 = tensor.collapse_shape %z65 [[0, 1], [2], [3]] : tensor<1x8x17x8xf32> into tensor<8x17x8xf32>
  %bmm69 = linalg.batch_matmul ins(%cl66, %cl67 : tensor<8x17x13xf32>, tensor<8x13x8xf32>) outs(%cl68 : tensor<8x17x8xf32>) -> tensor<8x17x8xf32>
  %ex70 = tensor.expand_shape %bmm69 [[0, 1], [2], [3]] output_shape [1, 8, 17, 8] : tensor<8x17x8xf32> into tensor<1x8x17x8xf32>
  %gx71 = tensor.expand_shape %ex70 [[0], [1, 2, 3], [4], [5]] output_shape [1, 2, 2, 2, 17, 8] : tensor<1x8x17x8xf32> into tensor<1x2x2x2x17x8xf32>
  %e72 = tensor.empty() : tensor<1x2x17x8xf32>
  %z73 = linalg.fill ins(%cst10 : f32) outs(%e72 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %rd74 = linalg.reduce ins(%gx71 : tensor<1x2x2x2x17x8xf32>) outs(%z73 : tensor<1x2x17x8xf32>) dimensions = [2, 3]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  %gx75 = tensor.expand_shape %ex36 [[0], [1, 2, 3], [4], [5]] output_shape [1, 2, 2, 2, 17, 8] : tensor<1x8x17x8xf32> into tensor<1x2x2x2x17x8xf32>
  %e76 = tensor.empty() : tensor<1x2x17x8xf32>
  %z77 = linalg.fill ins(%cst10 : f32) outs(%e76 : tensor<1x2x17x8xf32>) -> tensor<1x2x17x8xf32>
  %rd78 = linalg.reduce ins(%gx75 : tensor<1x2x2x2x17x8xf32>) outs(%z77 : tensor<1x2x17x8xf32>) dimensions = [2, 3]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
  return %ex27, %ex61, %rd74, %rd78 : tensor<1x8x13x8xf32>, tensor<1x8x13x8xf32>, tensor<1x2x17x8xf32>, tensor<1x2x17x8xf32>
}

// -----

// The repeat's backward summing the wrong heads (dims [1] of [B, 2, 2, N, D]:
// heads h and h + 2, not the group 2 hk + g): not dK, so not raised.
// CHECK-LABEL: func.func @negative_gqa_interleaved_sum
// CHECK-NOT: flash.attention
func.func @negative_gqa_interleaved_sum(%q: tensor<2x4x13x8xf32>, %k: tensor<2x2x17x8xf32>, %v: tensor<2x2x17x8xf32>, %do: tensor<2x4x13x8xf32>)
    -> (tensor<2x4x13x8xf32>, tensor<2x4x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ebk = tensor.empty() : tensor<2x2x2x17x8xf32>
  %kb = linalg.broadcast ins(%k : tensor<2x2x17x8xf32>) outs(%ebk : tensor<2x2x2x17x8xf32>) dimensions = [2]
  %kr = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<2x2x2x17x8xf32> into tensor<2x4x17x8xf32>
  %vb = linalg.broadcast ins(%v : tensor<2x2x17x8xf32>) outs(%ebk : tensor<2x2x2x17x8xf32>) dimensions = [2]
  %vr = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<2x2x2x17x8xf32> into tensor<2x4x17x8xf32>
  %es = tensor.empty() : tensor<2x4x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %eo = tensor.empty() : tensor<2x4x13x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x13x8xf32>) -> tensor<2x4x13x8xf32>
  %ek = tensor.empty() : tensor<2x4x17x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x4x17x8xf32>) -> tensor<2x4x17x8xf32>
  %er = tensor.empty() : tensor<2x4x13xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4x13xf32>) -> tensor<2x4x13xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %kr : tensor<2x4x13x8xf32>, tensor<2x4x17x8xf32>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  // expected-remark @+2 {{attention not raised: the probabilities feed 'linalg.reduce', which is not dQ, dK or dV}}
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x4x13x17xf32>) outs(%es : tensor<2x4x13x17xf32>) -> tensor<2x4x13x17xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %vr : tensor<2x4x13x17xf32>, tensor<2x4x17x8xf32>) outs(%zo : tensor<2x4x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x8xf32>
  // Backward.
  %dvx = linalg.generic {indexing_maps = [affine_map<(b, h, j, e, i) -> (b, h, i, j)>, affine_map<(b, h, j, e, i) -> (b, h, i, e)>, affine_map<(b, h, j, e, i) -> (b, h, j, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %do : tensor<2x4x13x17xf32>, tensor<2x4x13x8xf32>) outs(%zk : tensor<2x4x17x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x17x8xf32>
  %dp = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, e) -> (b, h, i, e)>, affine_map<(b, h, i, j, e) -> (b, h, j, e)>, affine_map<(b, h, i, j, e) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %vr : tensor<2x4x13x8xf32>, tensor<2x4x17x8xf32>) outs(%zs : tensor<2x4x13x17xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x17xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%dp, %p : tensor<2x4x13x17xf32>, tensor<2x4x13x17xf32>) outs(%zr : tensor<2x4x13xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<2x4x13x17xf32>, tensor<2x4x13x17xf32>, tensor<2x4x13xf32>) outs(%es : tensor<2x4x13x17xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %pp, %d : f32
    %c = arith.constant 0.35355339 : f32
    %z = arith.mulf %y, %c : f32
    linalg.yield %z : f32
  } -> tensor<2x4x13x17xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, h, j, d)>, affine_map<(b, h, i, d, j) -> (b, h, i, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %kr : tensor<2x4x13x17xf32>, tensor<2x4x17x8xf32>) outs(%zo : tensor<2x4x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x13x8xf32>
  %dkx = linalg.generic {indexing_maps = [affine_map<(b, h, j, d, i) -> (b, h, i, j)>, affine_map<(b, h, j, d, i) -> (b, h, i, d)>, affine_map<(b, h, j, d, i) -> (b, h, j, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %q : tensor<2x4x13x17xf32>, tensor<2x4x13x8xf32>) outs(%zk : tensor<2x4x17x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x17x8xf32>
  // The repeat's backward: [B, Hq, N, D] -> [B, Hkv, G, N, D], summed over G.
  %ekv = tensor.empty() : tensor<2x2x17x8xf32>
  %zkv = linalg.fill ins(%zero : f32) outs(%ekv : tensor<2x2x17x8xf32>) -> tensor<2x2x17x8xf32>
  %dk5 = tensor.expand_shape %dkx [[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 17, 8] : tensor<2x4x17x8xf32> into tensor<2x2x2x17x8xf32>
  %dk = linalg.reduce ins(%dk5 : tensor<2x2x2x17x8xf32>) outs(%zkv : tensor<2x2x17x8xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %y = arith.addf %a, %acc : f32
      linalg.yield %y : f32
    }
  %dv5 = tensor.expand_shape %dvx [[0], [1, 2], [3], [4]] output_shape [2, 2, 2, 17, 8] : tensor<2x4x17x8xf32> into tensor<2x2x2x17x8xf32>
  %dv = linalg.reduce ins(%dv5 : tensor<2x2x2x17x8xf32>) outs(%zkv : tensor<2x2x17x8xf32>) dimensions = [2]
    (%a: f32, %acc: f32) {
      %y = arith.addf %a, %acc : f32
      linalg.yield %y : f32
    }
  return %o, %dq, %dk, %dv : tensor<2x4x13x8xf32>, tensor<2x4x13x8xf32>, tensor<2x2x17x8xf32>, tensor<2x2x17x8xf32>
}
