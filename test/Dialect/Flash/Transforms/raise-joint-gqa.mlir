// Joint forward + backward graphs with grouped K/V heads (GQA and MQA):
// autodiff's backward of the repeat (K and V broadcast over each group of
// query heads) sums the per-query-head dK and dV over the group, with an
// expand_shape of the heads and a linalg.reduce, or one generic reducing
// over the heads. The raise proves those sums equal the grouped dK and dV
// of flash.attention_grad. A sum over the wrong heads (interleaved
// instead of the repeat's contiguous groups) is not the gradient and
// stays unraised, with a remark.
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
