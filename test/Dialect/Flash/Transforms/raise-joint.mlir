// Joint forward + backward attention programs in the forms frontends and
// autodiff emit (the softmax's P saved and reused by the backward): each is
// raised into flash.attention (with lse) + flash.attention_grad. The
// @negative_ functions are near misses whose backward is not the gradient of
// their forward; the backward must not become flash.attention_grad.
// Every function takes (q, k, v, dO) and returns (O, dQ, dK, dV); the
// positive ones were checked against torch autograd of
// softmax(q k^T * scale (+ causal mask)) v.
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// 2-D, Nq != Nk: K, P, V and dS transposed by linalg.transpose before
// plain linalg.matmuls; the rowsum as one reduction generic; dS scaled
// by its own generic.
// CHECK-LABEL: func.func @joint_transpose_2d
// CHECK-NOT: {{(<|x)16x20xf32>}}
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention ins({{.*}}) outs({{.*}}) lse({{.*}}scale = 0.35355{{[0-9]*}} : f32
// CHECK-NOT: {{(<|x)16x20xf32>}}
// CHECK: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} :
// CHECK-NOT: {{(<|x)16x20xf32>}}
// CHECK: return %[[O]], %[[DQ]], %[[DK]], %[[DV]]
// EXEC: joint_transpose_2d: raised=yes
func.func @joint_transpose_2d(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
  %ekt = tensor.empty() : tensor<8x20xf32>
  %kt = linalg.transpose ins(%k : tensor<20x8xf32>) outs(%ekt : tensor<8x20xf32>) permutation = [1, 0]
  %s = linalg.matmul ins(%q, %kt : tensor<16x8xf32>, tensor<8x20xf32>) outs(%zs : tensor<16x20xf32>) -> tensor<16x20xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) -> tensor<16x20xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  // Backward: dV = P^T dO, dP = dO V^T through linalg.transpose.
  %ept = tensor.empty() : tensor<20x16xf32>
  %pt = linalg.transpose ins(%p : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dv = linalg.matmul ins(%pt, %do : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  %vt = linalg.transpose ins(%v : tensor<20x8xf32>) outs(%ekt : tensor<8x20xf32>) permutation = [1, 0]
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
    %y = arith.mulf %pp, %d : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ds : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%dss, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%dss : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// Odd sizes (Nq = 19, Nk = 23, D = 12): transposes as matmul indexing maps,
// the scores divided by sqrt(D), the rowsum as an elementwise product then
// a sum, the scale folded into dS's generic.
// CHECK-LABEL: func.func @joint_matmul_maps_odd
// CHECK-NOT: {{(<|x)19x23xf32>}}
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention ins({{.*}}) outs({{.*}}) lse({{.*}}scale = 0.28867{{[0-9]*}} : f32
// CHECK-NOT: {{(<|x)19x23xf32>}}
// CHECK: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} :
// CHECK-NOT: {{(<|x)19x23xf32>}}
// CHECK: return %[[O]], %[[DQ]], %[[DK]], %[[DV]]
// EXEC: joint_matmul_maps_odd: raised=yes
func.func @joint_matmul_maps_odd(%q: tensor<19x12xf32>, %k: tensor<23x12xf32>, %v: tensor<23x12xf32>,
                                 %do: tensor<19x12xf32>)
    -> (tensor<19x12xf32>, tensor<19x12xf32>, tensor<23x12xf32>, tensor<23x12xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<19x23xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<19x23xf32>) -> tensor<19x23xf32>
  %eo = tensor.empty() : tensor<19x12xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<19x12xf32>) -> tensor<19x12xf32>
  %ek = tensor.empty() : tensor<23x12xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<23x12xf32>) -> tensor<23x12xf32>
  %er = tensor.empty() : tensor<19xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<19xf32>) -> tensor<19xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<19x12xf32>, tensor<23x12xf32>) outs(%zs : tensor<19x23xf32>) -> tensor<19x23xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<19x23xf32>) outs(%es : tensor<19x23xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 3.46410162 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<19x23xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<19x23xf32>) outs(%es : tensor<19x23xf32>) -> tensor<19x23xf32>
  %o = linalg.matmul ins(%p, %v : tensor<19x23xf32>, tensor<23x12xf32>) outs(%zo : tensor<19x12xf32>) -> tensor<19x12xf32>
  // Backward: every transpose is in the matmuls' indexing maps.
  %dv = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%p, %do : tensor<19x23xf32>, tensor<19x12xf32>) outs(%zk : tensor<23x12xf32>) -> tensor<23x12xf32>
  %dp = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%do, %v : tensor<19x12xf32>, tensor<23x12xf32>) outs(%zs : tensor<19x23xf32>) -> tensor<19x23xf32>
  %pdp = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%dp, %p : tensor<19x23xf32>, tensor<19x23xf32>) outs(%es : tensor<19x23xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %y = arith.mulf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<19x23xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%pdp : tensor<19x23xf32>) outs(%zr : tensor<19xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<19xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<19x23xf32>, tensor<19x23xf32>, tensor<19xf32>) outs(%es : tensor<19x23xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %c = arith.constant 0.28867513 : f32
    %d = arith.subf %g, %r : f32
    %t = arith.mulf %pp, %d : f32
    %y = arith.mulf %t, %c : f32
    linalg.yield %y : f32
  } -> tensor<19x23xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<19x23xf32>, tensor<23x12xf32>) outs(%zo : tensor<19x12xf32>) -> tensor<19x12xf32>
  %dk = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%ds, %q : tensor<19x23xf32>, tensor<19x12xf32>) outs(%zk : tensor<23x12xf32>) -> tensor<23x12xf32>
  return %o, %dq, %dk, %dv : tensor<19x12xf32>, tensor<19x12xf32>, tensor<23x12xf32>, tensor<23x12xf32>
}

// -----

// The decomposed softmax (max, sub-exp, sum, div generics) and
// Delta = rowsum(dO * O) over the head dim instead of rowsum(dP * P).
// CHECK-LABEL: func.func @joint_delta_from_o
// CHECK-NOT: {{(<|x)16x24xf32>}}
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention ins({{.*}}) outs({{.*}}) lse({{.*}}scale = 0.35355{{[0-9]*}} : f32
// CHECK-NOT: {{(<|x)16x24xf32>}}
// CHECK: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} :
// CHECK-NOT: {{(<|x)16x24xf32>}}
// CHECK: return %[[O]], %[[DQ]], %[[DK]], %[[DV]]
// EXEC: joint_delta_from_o: raised=yes
func.func @joint_delta_from_o(%q: tensor<16x8xf32>, %k: tensor<24x8xf32>, %v: tensor<24x8xf32>,
                              %do: tensor<16x8xf32>)
    -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<24x8xf32>, tensor<24x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<16x24xf32>) -> tensor<16x24xf32>
  %eo = tensor.empty() : tensor<16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %ek = tensor.empty() : tensor<24x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<24x8xf32>) -> tensor<24x8xf32>
  %er = tensor.empty() : tensor<16xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %ekt = tensor.empty() : tensor<8x24xf32>
  %kt = linalg.transpose ins(%k : tensor<24x8xf32>) outs(%ekt : tensor<8x24xf32>) permutation = [1, 0]
  %s = linalg.matmul ins(%q, %kt : tensor<16x8xf32>, tensor<8x24xf32>) outs(%zs : tensor<16x24xf32>) -> tensor<16x24xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x24xf32>) outs(%es : tensor<16x24xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<16x24xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%sc : tensor<16x24xf32>) outs(%mi : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.maximumf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%sc, %mx : tensor<16x24xf32>, tensor<16xf32>) outs(%es : tensor<16x24xf32>) {
  ^bb0(%x: f32, %m: f32, %out: f32):
    %d = arith.subf %x, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<16x24xf32>
  %zsum = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<16x24xf32>) outs(%zsum : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<16x24xf32>, tensor<16xf32>) outs(%es : tensor<16x24xf32>) {
  ^bb0(%x: f32, %den: f32, %out: f32):
    %y = arith.divf %x, %den : f32
    linalg.yield %y : f32
  } -> tensor<16x24xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x24xf32>, tensor<24x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  // Backward; Delta = rowsum(dO * O), the other form of rowsum(dP * P).
  %ept = tensor.empty() : tensor<24x16xf32>
  %pt = linalg.transpose ins(%p : tensor<16x24xf32>) outs(%ept : tensor<24x16xf32>) permutation = [1, 0]
  %dv = linalg.matmul ins(%pt, %do : tensor<24x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<24x8xf32>) -> tensor<24x8xf32>
  %vt = linalg.transpose ins(%v : tensor<24x8xf32>) outs(%ekt : tensor<8x24xf32>) permutation = [1, 0]
  %dp = linalg.matmul ins(%do, %vt : tensor<16x8xf32>, tensor<8x24xf32>) outs(%zs : tensor<16x24xf32>) -> tensor<16x24xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(i, d) -> (i, d)>, affine_map<(i, d) -> (i, d)>, affine_map<(i, d) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%do, %o : tensor<16x8xf32>, tensor<16x8xf32>) outs(%zr : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%dp, %p, %delta : tensor<16x24xf32>, tensor<16x24xf32>, tensor<16xf32>) outs(%es : tensor<16x24xf32>) {
  ^bb0(%g: f32, %pp: f32, %r: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %d, %pp : f32
    linalg.yield %y : f32
  } -> tensor<16x24xf32>
  %dss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ds : tensor<16x24xf32>) outs(%es : tensor<16x24xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<16x24xf32>
  %dq = linalg.matmul ins(%dss, %k : tensor<16x24xf32>, tensor<24x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%dss : tensor<16x24xf32>) outs(%ept : tensor<24x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<24x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<24x8xf32>) -> tensor<24x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<24x8xf32>, tensor<24x8xf32>
}

// -----

// 3-D [B, N, D] with linalg.batch_matmul and linalg.transpose; the
// backward's scale applied to the products' results.
// CHECK-LABEL: func.func @joint_batch3d_scale_after
// CHECK-NOT: {{(<|x)16x24xf32>}}
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention ins({{.*}}) outs({{.*}}) lse({{.*}}scale = 0.35355{{[0-9]*}} : f32
// CHECK-NOT: {{(<|x)16x24xf32>}}
// CHECK: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} :
// CHECK-NOT: {{(<|x)16x24xf32>}}
// CHECK: return %[[O]], %[[DQ]], %[[DK]], %[[DV]]
// EXEC: joint_batch3d_scale_after: raised=yes
func.func @joint_batch3d_scale_after(%q: tensor<2x16x8xf32>, %k: tensor<2x24x8xf32>, %v: tensor<2x24x8xf32>,
                                     %do: tensor<2x16x8xf32>)
    -> (tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x24x8xf32>, tensor<2x24x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %eo = tensor.empty() : tensor<2x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %ek = tensor.empty() : tensor<2x24x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x24x8xf32>) -> tensor<2x24x8xf32>
  %er = tensor.empty() : tensor<2x16xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x16xf32>) -> tensor<2x16xf32>
  %ekt = tensor.empty() : tensor<2x8x24xf32>
  %kt = linalg.transpose ins(%k : tensor<2x24x8xf32>) outs(%ekt : tensor<2x8x24xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x16x8xf32>, tensor<2x8x24xf32>) outs(%zs : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x16x24xf32>) outs(%es : tensor<2x16x24xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x16x24xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<2x16x24xf32>) outs(%es : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x16x24xf32>, tensor<2x24x8xf32>) outs(%zo : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  // Backward; the scale multiplies dQ and dK, not dS.
  %ept = tensor.empty() : tensor<2x24x16xf32>
  %pt = linalg.transpose ins(%p : tensor<2x16x24xf32>) outs(%ept : tensor<2x24x16xf32>) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : tensor<2x24x16xf32>, tensor<2x16x8xf32>) outs(%zk : tensor<2x24x8xf32>) -> tensor<2x24x8xf32>
  %vt = linalg.transpose ins(%v : tensor<2x24x8xf32>) outs(%ekt : tensor<2x8x24xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x16x8xf32>, tensor<2x8x24xf32>) outs(%zs : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %dp : tensor<2x16x24xf32>, tensor<2x16x24xf32>) outs(%zr : tensor<2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x16xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<2x16x24xf32>, tensor<2x16x24xf32>, tensor<2x16xf32>) outs(%es : tensor<2x16x24xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %pp, %d : f32
    linalg.yield %y : f32
  } -> tensor<2x16x24xf32>
  %dqu = linalg.batch_matmul ins(%ds, %k : tensor<2x16x24xf32>, tensor<2x24x8xf32>) outs(%zo : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%dqu : tensor<2x16x8xf32>) outs(%eo : tensor<2x16x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<2x16x24xf32>) outs(%ept : tensor<2x24x16xf32>) permutation = [0, 2, 1]
  %dku = linalg.batch_matmul ins(%dst, %q : tensor<2x24x16xf32>, tensor<2x16x8xf32>) outs(%zk : tensor<2x24x8xf32>) -> tensor<2x24x8xf32>
  %dk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%dku : tensor<2x24x8xf32>) outs(%ek : tensor<2x24x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x24x8xf32>
  return %o, %dq, %dk, %dv : tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x24x8xf32>, tensor<2x24x8xf32>
}

// -----

// 3-D, linalg.batch_matmul with transposing indexing maps; dS expanded as
// P * dP - P * Delta (as JAX writes the softmax gradient).
// CHECK-LABEL: func.func @joint_batch3d_expanded_ds
// CHECK-NOT: {{(<|x)12x20xf32>}}
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention ins({{.*}}) outs({{.*}}) lse({{.*}}scale = 0.35355{{[0-9]*}} : f32
// CHECK-NOT: {{(<|x)12x20xf32>}}
// CHECK: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} :
// CHECK-NOT: {{(<|x)12x20xf32>}}
// CHECK: return %[[O]], %[[DQ]], %[[DK]], %[[DV]]
// EXEC: joint_batch3d_expanded_ds: raised=yes
func.func @joint_batch3d_expanded_ds(%q: tensor<3x12x8xf32>, %k: tensor<3x20x8xf32>, %v: tensor<3x20x8xf32>,
                                     %do: tensor<3x12x8xf32>)
    -> (tensor<3x12x8xf32>, tensor<3x12x8xf32>, tensor<3x20x8xf32>, tensor<3x20x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<3x12x20xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<3x12x20xf32>) -> tensor<3x12x20xf32>
  %eo = tensor.empty() : tensor<3x12x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<3x12x8xf32>) -> tensor<3x12x8xf32>
  %ek = tensor.empty() : tensor<3x20x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<3x20x8xf32>) -> tensor<3x20x8xf32>
  %er = tensor.empty() : tensor<3x12xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<3x12xf32>) -> tensor<3x12xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<3x12x8xf32>, tensor<3x20x8xf32>) outs(%zs : tensor<3x12x20xf32>) -> tensor<3x12x20xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x12x20xf32>) outs(%es : tensor<3x12x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<3x12x20xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<3x12x20xf32>) outs(%es : tensor<3x12x20xf32>) -> tensor<3x12x20xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<3x12x20xf32>, tensor<3x20x8xf32>) outs(%zo : tensor<3x12x8xf32>) -> tensor<3x12x8xf32>
  // Backward; dS = P * dP - P * Delta (expanded), then scaled.
  %dv = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%p, %do : tensor<3x12x20xf32>, tensor<3x12x8xf32>) outs(%zk : tensor<3x20x8xf32>) -> tensor<3x20x8xf32>
  %dp = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%do, %v : tensor<3x12x8xf32>, tensor<3x20x8xf32>) outs(%zs : tensor<3x12x20xf32>) -> tensor<3x12x20xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%dp, %p : tensor<3x12x20xf32>, tensor<3x12x20xf32>) outs(%zr : tensor<3x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<3x12xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<3x12x20xf32>, tensor<3x12x20xf32>, tensor<3x12xf32>) outs(%es : tensor<3x12x20xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %a = arith.mulf %pp, %g : f32
    %b = arith.mulf %pp, %r : f32
    %y = arith.subf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<3x12x20xf32>
  %dss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ds : tensor<3x12x20xf32>) outs(%es : tensor<3x12x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<3x12x20xf32>
  %dq = linalg.batch_matmul ins(%dss, %k : tensor<3x12x20xf32>, tensor<3x20x8xf32>) outs(%zo : tensor<3x12x8xf32>) -> tensor<3x12x8xf32>
  %dk = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%dss, %q : tensor<3x12x20xf32>, tensor<3x12x8xf32>) outs(%zk : tensor<3x20x8xf32>) -> tensor<3x20x8xf32>
  return %o, %dq, %dk, %dv : tensor<3x12x8xf32>, tensor<3x12x8xf32>, tensor<3x20x8xf32>, tensor<3x20x8xf32>
}

// -----

// 4-D [B, H, N, D] as torch-mlir lowers a 4-D matmul: the (B, H) dims
// collapsed, linalg.batch_matmul, expanded back; 4-D linalg.transpose.
// CHECK-LABEL: func.func @joint_batch4d_collapse
// CHECK-NOT: {{(<|x)16x20xf32>}}
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention ins({{.*}}) outs({{.*}}) lse({{.*}}scale = 0.35355{{[0-9]*}} : f32
// CHECK-NOT: {{(<|x)16x20xf32>}}
// CHECK: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} :
// CHECK-NOT: {{(<|x)16x20xf32>}}
// CHECK: return %[[O]], %[[DQ]], %[[DK]], %[[DV]]
// EXEC: joint_batch4d_collapse: raised=yes
func.func @joint_batch4d_collapse(%q: tensor<2x2x16x8xf32>, %k: tensor<2x2x20x8xf32>, %v: tensor<2x2x20x8xf32>,
                                  %do: tensor<2x2x16x8xf32>)
    -> (tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x20x8xf32>, tensor<2x2x20x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x2x16x20xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x16x20xf32>) -> tensor<2x2x16x20xf32>
  %eo = tensor.empty() : tensor<2x2x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x16x8xf32>) -> tensor<2x2x16x8xf32>
  %ek = tensor.empty() : tensor<2x2x20x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x2x20x8xf32>) -> tensor<2x2x20x8xf32>
  %er = tensor.empty() : tensor<2x2x16xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x2x16xf32>) -> tensor<2x2x16xf32>
  %ekt = tensor.empty() : tensor<2x2x8x20xf32>
  %kt = linalg.transpose ins(%k : tensor<2x2x20x8xf32>) outs(%ekt : tensor<2x2x8x20xf32>) permutation = [0, 1, 3, 2]
  %s_a = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x2x16x8xf32> into tensor<4x16x8xf32>
  %s_b = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x2x8x20xf32> into tensor<4x8x20xf32>
  %s_c = tensor.collapse_shape %zs [[0, 1], [2], [3]] : tensor<2x2x16x20xf32> into tensor<4x16x20xf32>
  %s_3 = linalg.batch_matmul ins(%s_a, %s_b : tensor<4x16x8xf32>, tensor<4x8x20xf32>) outs(%s_c : tensor<4x16x20xf32>) -> tensor<4x16x20xf32>
  %s = tensor.expand_shape %s_3 [[0, 1], [2], [3]] output_shape [2, 2, 16, 20] : tensor<4x16x20xf32> into tensor<2x2x16x20xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x2x16x20xf32>) outs(%es : tensor<2x2x16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x2x16x20xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x2x16x20xf32>) outs(%es : tensor<2x2x16x20xf32>) -> tensor<2x2x16x20xf32>
  %o_a = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x2x16x20xf32> into tensor<4x16x20xf32>
  %o_b = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x2x20x8xf32> into tensor<4x20x8xf32>
  %o_c = tensor.collapse_shape %zo [[0, 1], [2], [3]] : tensor<2x2x16x8xf32> into tensor<4x16x8xf32>
  %o_3 = linalg.batch_matmul ins(%o_a, %o_b : tensor<4x16x20xf32>, tensor<4x20x8xf32>) outs(%o_c : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = tensor.expand_shape %o_3 [[0, 1], [2], [3]] output_shape [2, 2, 16, 8] : tensor<4x16x8xf32> into tensor<2x2x16x8xf32>
  // Backward.
  %ept = tensor.empty() : tensor<2x2x20x16xf32>
  %pt = linalg.transpose ins(%p : tensor<2x2x16x20xf32>) outs(%ept : tensor<2x2x20x16xf32>) permutation = [0, 1, 3, 2]
  %dv_a = tensor.collapse_shape %pt [[0, 1], [2], [3]] : tensor<2x2x20x16xf32> into tensor<4x20x16xf32>
  %dv_b = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<2x2x16x8xf32> into tensor<4x16x8xf32>
  %dv_c = tensor.collapse_shape %zk [[0, 1], [2], [3]] : tensor<2x2x20x8xf32> into tensor<4x20x8xf32>
  %dv_3 = linalg.batch_matmul ins(%dv_a, %dv_b : tensor<4x20x16xf32>, tensor<4x16x8xf32>) outs(%dv_c : tensor<4x20x8xf32>) -> tensor<4x20x8xf32>
  %dv = tensor.expand_shape %dv_3 [[0, 1], [2], [3]] output_shape [2, 2, 20, 8] : tensor<4x20x8xf32> into tensor<2x2x20x8xf32>
  %vt = linalg.transpose ins(%v : tensor<2x2x20x8xf32>) outs(%ekt : tensor<2x2x8x20xf32>) permutation = [0, 1, 3, 2]
  %dp_a = tensor.collapse_shape %do [[0, 1], [2], [3]] : tensor<2x2x16x8xf32> into tensor<4x16x8xf32>
  %dp_b = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x2x8x20xf32> into tensor<4x8x20xf32>
  %dp_c = tensor.collapse_shape %zs [[0, 1], [2], [3]] : tensor<2x2x16x20xf32> into tensor<4x16x20xf32>
  %dp_3 = linalg.batch_matmul ins(%dp_a, %dp_b : tensor<4x16x8xf32>, tensor<4x8x20xf32>) outs(%dp_c : tensor<4x16x20xf32>) -> tensor<4x16x20xf32>
  %dp = tensor.expand_shape %dp_3 [[0, 1], [2], [3]] output_shape [2, 2, 16, 20] : tensor<4x16x20xf32> into tensor<2x2x16x20xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%dp, %p : tensor<2x2x16x20xf32>, tensor<2x2x16x20xf32>) outs(%zr : tensor<2x2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x2x16xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<2x2x16x20xf32>, tensor<2x2x16x20xf32>, tensor<2x2x16xf32>) outs(%es : tensor<2x2x16x20xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %pp, %d : f32
    linalg.yield %y : f32
  } -> tensor<2x2x16x20xf32>
  %dss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ds : tensor<2x2x16x20xf32>) outs(%es : tensor<2x2x16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x2x16x20xf32>
  %dq_a = tensor.collapse_shape %dss [[0, 1], [2], [3]] : tensor<2x2x16x20xf32> into tensor<4x16x20xf32>
  %dq_b = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x2x20x8xf32> into tensor<4x20x8xf32>
  %dq_c = tensor.collapse_shape %zo [[0, 1], [2], [3]] : tensor<2x2x16x8xf32> into tensor<4x16x8xf32>
  %dq_3 = linalg.batch_matmul ins(%dq_a, %dq_b : tensor<4x16x20xf32>, tensor<4x20x8xf32>) outs(%dq_c : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %dq = tensor.expand_shape %dq_3 [[0, 1], [2], [3]] output_shape [2, 2, 16, 8] : tensor<4x16x8xf32> into tensor<2x2x16x8xf32>
  %dst = linalg.transpose ins(%dss : tensor<2x2x16x20xf32>) outs(%ept : tensor<2x2x20x16xf32>) permutation = [0, 1, 3, 2]
  %dk_a = tensor.collapse_shape %dst [[0, 1], [2], [3]] : tensor<2x2x20x16xf32> into tensor<4x20x16xf32>
  %dk_b = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x2x16x8xf32> into tensor<4x16x8xf32>
  %dk_c = tensor.collapse_shape %zk [[0, 1], [2], [3]] : tensor<2x2x20x8xf32> into tensor<4x20x8xf32>
  %dk_3 = linalg.batch_matmul ins(%dk_a, %dk_b : tensor<4x20x16xf32>, tensor<4x16x8xf32>) outs(%dk_c : tensor<4x20x8xf32>) -> tensor<4x20x8xf32>
  %dk = tensor.expand_shape %dk_3 [[0, 1], [2], [3]] output_shape [2, 2, 20, 8] : tensor<4x20x8xf32> into tensor<2x2x20x8xf32>
  return %o, %dq, %dk, %dv : tensor<2x2x16x8xf32>, tensor<2x2x16x8xf32>, tensor<2x2x20x8xf32>, tensor<2x2x20x8xf32>
}

// -----

// 4-D [1, 3, 19|23, 12] with every product an einsum-style linalg.generic;
// the rowsum as product then sum; the scale folded into dS's generic.
// CHECK-LABEL: func.func @joint_batch4d_generic_odd
// CHECK-NOT: {{(<|x)19x23xf32>}}
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention ins({{.*}}) outs({{.*}}) lse({{.*}}scale = 0.28867{{[0-9]*}} : f32
// CHECK-NOT: {{(<|x)19x23xf32>}}
// CHECK: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} :
// CHECK-NOT: {{(<|x)19x23xf32>}}
// CHECK: return %[[O]], %[[DQ]], %[[DK]], %[[DV]]
// EXEC: joint_batch4d_generic_odd: raised=yes
func.func @joint_batch4d_generic_odd(%q: tensor<1x3x19x12xf32>, %k: tensor<1x3x23x12xf32>, %v: tensor<1x3x23x12xf32>,
                                     %do: tensor<1x3x19x12xf32>)
    -> (tensor<1x3x19x12xf32>, tensor<1x3x19x12xf32>, tensor<1x3x23x12xf32>, tensor<1x3x23x12xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<1x3x19x23xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x3x19x23xf32>) -> tensor<1x3x19x23xf32>
  %eo = tensor.empty() : tensor<1x3x19x12xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x3x19x12xf32>) -> tensor<1x3x19x12xf32>
  %ek = tensor.empty() : tensor<1x3x23x12xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<1x3x23x12xf32>) -> tensor<1x3x23x12xf32>
  %er = tensor.empty() : tensor<1x3x19xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<1x3x19xf32>) -> tensor<1x3x19xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>, affine_map<(b, h, m, n, k) -> (b, h, n, k)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x3x19x12xf32>, tensor<1x3x23x12xf32>) outs(%zs : tensor<1x3x19x23xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<1x3x19x23xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x3x19x23xf32>) outs(%es : tensor<1x3x19x23xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.28867513 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<1x3x19x23xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<1x3x19x23xf32>) outs(%es : tensor<1x3x19x23xf32>) -> tensor<1x3x19x23xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>, affine_map<(b, h, m, n, k) -> (b, h, k, n)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x3x19x23xf32>, tensor<1x3x23x12xf32>) outs(%zo : tensor<1x3x19x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<1x3x19x12xf32>
  // Backward: einsum-style generics.
  %dv = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, k, m)>, affine_map<(b, h, m, n, k) -> (b, h, k, n)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %do : tensor<1x3x19x23xf32>, tensor<1x3x19x12xf32>) outs(%zk : tensor<1x3x23x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<1x3x23x12xf32>
  %dp = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>, affine_map<(b, h, m, n, k) -> (b, h, n, k)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<1x3x19x12xf32>, tensor<1x3x23x12xf32>) outs(%zs : tensor<1x3x19x23xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<1x3x19x23xf32>
  %pdp = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %dp : tensor<1x3x19x23xf32>, tensor<1x3x19x23xf32>) outs(%es : tensor<1x3x19x23xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %y = arith.mulf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<1x3x19x23xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%pdp : tensor<1x3x19x23xf32>) outs(%zr : tensor<1x3x19xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x3x19xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%dp, %delta, %p : tensor<1x3x19x23xf32>, tensor<1x3x19xf32>, tensor<1x3x19x23xf32>) outs(%es : tensor<1x3x19x23xf32>) {
  ^bb0(%g: f32, %r: f32, %pp: f32, %out: f32):
    %c = arith.constant 0.28867513 : f32
    %d = arith.subf %g, %r : f32
    %t = arith.mulf %d, %c : f32
    %y = arith.mulf %pp, %t : f32
    linalg.yield %y : f32
  } -> tensor<1x3x19x23xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>, affine_map<(b, h, m, n, k) -> (b, h, k, n)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %k : tensor<1x3x19x23xf32>, tensor<1x3x23x12xf32>) outs(%zo : tensor<1x3x19x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<1x3x19x12xf32>
  %dk = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, k, m)>, affine_map<(b, h, m, n, k) -> (b, h, k, n)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ds, %q : tensor<1x3x19x23xf32>, tensor<1x3x19x12xf32>) outs(%zk : tensor<1x3x23x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<1x3x23x12xf32>
  return %o, %dq, %dk, %dv : tensor<1x3x19x12xf32>, tensor<1x3x19x12xf32>, tensor<1x3x23x12xf32>, tensor<1x3x23x12xf32>
}

// -----

// Causal (key j seen iff j <= i, top-left with Nq = 16 < Nk = 20): the
// index compare and the scale in one generic on the scores.
// CHECK-LABEL: func.func @joint_causal_2d
// CHECK-NOT: {{(<|x)16x20xf32>}}
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention ins({{.*}}) outs({{.*}}) lse({{.*}}causal, causal_offset = 0 : i64{{.*}}scale = 0.35355{{[0-9]*}} : f32
// CHECK-NOT: {{(<|x)16x20xf32>}}
// CHECK: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} :{{.*}}causal
// CHECK-NOT: {{(<|x)16x20xf32>}}
// CHECK: return %[[O]], %[[DQ]], %[[DK]], %[[DV]]
// EXEC: joint_causal_2d: raised=yes
func.func @joint_causal_2d(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
    %y = arith.mulf %t, %scale : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// 4-D causal, bottom-right aligned (j <= i + Nk - Nq, Nq = 12, Nk = 20),
// the decomposed softmax, Delta = rowsum(dO * O), einsum generics.
// CHECK-LABEL: func.func @joint_causal_4d_offset
// CHECK-NOT: {{(<|x)12x20xf32>}}
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention ins({{.*}}) outs({{.*}}) lse({{.*}}causal{{.*}}scale = 0.35355{{[0-9]*}} : f32
// CHECK-NOT: {{(<|x)12x20xf32>}}
// CHECK: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} :{{.*}}causal
// CHECK-NOT: {{(<|x)12x20xf32>}}
// CHECK: return %[[O]], %[[DQ]], %[[DK]], %[[DV]]
// EXEC: joint_causal_4d_offset: raised=yes
func.func @joint_causal_4d_offset(%q: tensor<2x2x12x8xf32>, %k: tensor<2x2x20x8xf32>, %v: tensor<2x2x20x8xf32>,
                                  %do: tensor<2x2x12x8xf32>)
    -> (tensor<2x2x12x8xf32>, tensor<2x2x12x8xf32>, tensor<2x2x20x8xf32>, tensor<2x2x20x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x2x12x20xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x2x12x20xf32>) -> tensor<2x2x12x20xf32>
  %eo = tensor.empty() : tensor<2x2x12x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x2x12x8xf32>) -> tensor<2x2x12x8xf32>
  %ek = tensor.empty() : tensor<2x2x20x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x2x20x8xf32>) -> tensor<2x2x20x8xf32>
  %er = tensor.empty() : tensor<2x2x12xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x2x12xf32>) -> tensor<2x2x12xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %off = arith.constant 8 : index
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>, affine_map<(b, h, m, n, k) -> (b, h, n, k)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x12x8xf32>, tensor<2x2x20x8xf32>) outs(%zs : tensor<2x2x12x20xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x2x12x20xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x2x12x20xf32>) outs(%es : tensor<2x2x12x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %x2 = arith.mulf %x, %c : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %io = arith.addi %i, %off : index
    %vis = arith.cmpi ule, %j, %io : index
    %y = arith.select %vis, %x2, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<2x2x12x20xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x2x12xf32>) -> tensor<2x2x12xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%sm : tensor<2x2x12x20xf32>) outs(%mi : tensor<2x2x12xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.maximumf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x2x12xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sm, %mx : tensor<2x2x12x20xf32>, tensor<2x2x12xf32>) outs(%es : tensor<2x2x12x20xf32>) {
  ^bb0(%x: f32, %m: f32, %out: f32):
    %d = arith.subf %x, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<2x2x12x20xf32>
  %zsum = linalg.fill ins(%zero : f32) outs(%er : tensor<2x2x12xf32>) -> tensor<2x2x12xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x2x12x20xf32>) outs(%zsum : tensor<2x2x12xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x2x12xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x2x12x20xf32>, tensor<2x2x12xf32>) outs(%es : tensor<2x2x12x20xf32>) {
  ^bb0(%x: f32, %den: f32, %out: f32):
    %y = arith.divf %x, %den : f32
    linalg.yield %y : f32
  } -> tensor<2x2x12x20xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>, affine_map<(b, h, m, n, k) -> (b, h, k, n)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x2x12x20xf32>, tensor<2x2x20x8xf32>) outs(%zo : tensor<2x2x12x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x2x12x8xf32>
  // Backward.
  %dv = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, k, m)>, affine_map<(b, h, m, n, k) -> (b, h, k, n)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %do : tensor<2x2x12x20xf32>, tensor<2x2x12x8xf32>) outs(%zk : tensor<2x2x20x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x2x20x8xf32>
  %dp = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>, affine_map<(b, h, m, n, k) -> (b, h, n, k)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %v : tensor<2x2x12x8xf32>, tensor<2x2x20x8xf32>) outs(%zs : tensor<2x2x12x20xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x2x12x20xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(b, h, i, d) -> (b, h, i, d)>, affine_map<(b, h, i, d) -> (b, h, i, d)>, affine_map<(b, h, i, d) -> (b, h, i)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%do, %o : tensor<2x2x12x8xf32>, tensor<2x2x12x8xf32>) outs(%zr : tensor<2x2x12xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x2x12xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<2x2x12x20xf32>, tensor<2x2x12x20xf32>, tensor<2x2x12xf32>) outs(%es : tensor<2x2x12x20xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %pp, %d : f32
    linalg.yield %y : f32
  } -> tensor<2x2x12x20xf32>
  %dss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ds : tensor<2x2x12x20xf32>) outs(%es : tensor<2x2x12x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x2x12x20xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>, affine_map<(b, h, m, n, k) -> (b, h, k, n)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%dss, %k : tensor<2x2x12x20xf32>, tensor<2x2x20x8xf32>) outs(%zo : tensor<2x2x12x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x2x12x8xf32>
  %dk = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, k, m)>, affine_map<(b, h, m, n, k) -> (b, h, k, n)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%dss, %q : tensor<2x2x12x20xf32>, tensor<2x2x12x8xf32>) outs(%zk : tensor<2x2x20x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x2x20x8xf32>
  return %o, %dq, %dk, %dv : tensor<2x2x12x8xf32>, tensor<2x2x12x8xf32>, tensor<2x2x20x8xf32>, tensor<2x2x20x8xf32>
}

// -----

// The scale on Q before the product (S = (Q c) K^T): autodiff gives
// dK = dS^T (Q c) and dQ = (dS K) c (raised with scale c on Q, or with
// scale 1 on Q c and the final dQ scaling kept).
// CHECK-LABEL: func.func @joint_scale_on_q
// CHECK-NOT: {{(<|x)16x20xf32>}}
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention ins({{.*}}) outs({{.*}}) lse(
// CHECK-NOT: {{(<|x)16x20xf32>}}
// CHECK: %[[DQ:.*]], %[[DK:.*]], %[[DV:.*]] = flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} :
// CHECK-NOT: {{(<|x)16x20xf32>}}
// CHECK: return %[[O]], %{{.*}}, %[[DK]], %[[DV]]
// EXEC: joint_scale_on_q: raised=yes
func.func @joint_scale_on_q(%q: tensor<2x16x8xf32>, %k: tensor<2x20x8xf32>, %v: tensor<2x20x8xf32>,
                            %do: tensor<2x16x8xf32>)
    -> (tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x20x8xf32>, tensor<2x20x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x16x20xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x16x20xf32>) -> tensor<2x16x20xf32>
  %eo = tensor.empty() : tensor<2x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %ek = tensor.empty() : tensor<2x20x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x20x8xf32>) -> tensor<2x20x8xf32>
  %er = tensor.empty() : tensor<2x16xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x16xf32>) -> tensor<2x16xf32>
  %qs = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%q : tensor<2x16x8xf32>) outs(%eo : tensor<2x16x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x16x8xf32>
  %ekt = tensor.empty() : tensor<2x8x20xf32>
  %kt = linalg.transpose ins(%k : tensor<2x20x8xf32>) outs(%ekt : tensor<2x8x20xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%qs, %kt : tensor<2x16x8xf32>, tensor<2x8x20xf32>) outs(%zs : tensor<2x16x20xf32>) -> tensor<2x16x20xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x16x20xf32>) outs(%es : tensor<2x16x20xf32>) -> tensor<2x16x20xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x16x20xf32>, tensor<2x20x8xf32>) outs(%zo : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  // Backward: dK = dS^T (Q c), dQ = (dS K) c, as autodiff writes them.
  %ept = tensor.empty() : tensor<2x20x16xf32>
  %pt = linalg.transpose ins(%p : tensor<2x16x20xf32>) outs(%ept : tensor<2x20x16xf32>) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : tensor<2x20x16xf32>, tensor<2x16x8xf32>) outs(%zk : tensor<2x20x8xf32>) -> tensor<2x20x8xf32>
  %vt = linalg.transpose ins(%v : tensor<2x20x8xf32>) outs(%ekt : tensor<2x8x20xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x16x8xf32>, tensor<2x8x20xf32>) outs(%zs : tensor<2x16x20xf32>) -> tensor<2x16x20xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%dp, %p : tensor<2x16x20xf32>, tensor<2x16x20xf32>) outs(%zr : tensor<2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x16xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<2x16x20xf32>, tensor<2x16x20xf32>, tensor<2x16xf32>) outs(%es : tensor<2x16x20xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %pp, %d : f32
    linalg.yield %y : f32
  } -> tensor<2x16x20xf32>
  %dqs = linalg.batch_matmul ins(%ds, %k : tensor<2x16x20xf32>, tensor<2x20x8xf32>) outs(%zo : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%dqs : tensor<2x16x8xf32>) outs(%eo : tensor<2x16x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<2x16x20xf32>) outs(%ept : tensor<2x20x16xf32>) permutation = [0, 2, 1]
  %dk = linalg.batch_matmul ins(%dst, %qs : tensor<2x20x16xf32>, tensor<2x16x8xf32>) outs(%zk : tensor<2x20x8xf32>) -> tensor<2x20x8xf32>
  return %o, %dq, %dk, %dv : tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x20x8xf32>, tensor<2x20x8xf32>
}

// -----

// Near miss: dS = P * dP without the - rowsum(dP * P) term is not the
// softmax gradient, so no attention_grad.
// CHECK-LABEL: func.func @negative_no_delta
// CHECK-NOT: flash.attention_grad
func.func @negative_no_delta(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
  %ekt = tensor.empty() : tensor<8x20xf32>
  %kt = linalg.transpose ins(%k : tensor<20x8xf32>) outs(%ekt : tensor<8x20xf32>) permutation = [1, 0]
  %s = linalg.matmul ins(%q, %kt : tensor<16x8xf32>, tensor<8x20xf32>) outs(%zs : tensor<16x20xf32>) -> tensor<16x20xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) -> tensor<16x20xf32>
  // expected-remark @+1 {{attention not raised: the probabilities feed 'linalg.matmul', which is not dQ, dK or dV of the attention's backward, and whose result reaches 'func.return'}}
  %o = linalg.matmul ins(%p, %v : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  // Backward.
  %ept = tensor.empty() : tensor<20x16xf32>
  %pt = linalg.transpose ins(%p : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dv = linalg.matmul ins(%pt, %do : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  %vt = linalg.transpose ins(%v : tensor<20x8xf32>) outs(%ekt : tensor<8x20xf32>) permutation = [1, 0]
  %dp = linalg.matmul ins(%do, %vt : tensor<16x8xf32>, tensor<8x20xf32>) outs(%zs : tensor<16x20xf32>) -> tensor<16x20xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p, %dp : tensor<16x20xf32>, tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%pp: f32, %g: f32, %out: f32):
    %y = arith.mulf %pp, %g : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ds : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%dss, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%dss : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// Near miss: Delta summed over the query axis (Delta_j = sum_i dP_ij P_ij,
// subtracted per key column) instead of over the keys of each row.
// CHECK-LABEL: func.func @negative_delta_wrong_axis
// CHECK-NOT: flash.attention_grad
func.func @negative_delta_wrong_axis(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
  %ekt = tensor.empty() : tensor<8x20xf32>
  %kt = linalg.transpose ins(%k : tensor<20x8xf32>) outs(%ekt : tensor<8x20xf32>) permutation = [1, 0]
  %s = linalg.matmul ins(%q, %kt : tensor<16x8xf32>, tensor<8x20xf32>) outs(%zs : tensor<16x20xf32>) -> tensor<16x20xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) -> tensor<16x20xf32>
  // expected-remark @+1 {{attention not raised: the probabilities feed 'linalg.matmul', which is not dQ, dK or dV of the attention's backward, and whose result reaches 'func.return'}}
  %o = linalg.matmul ins(%p, %v : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  // Backward.
  %ept = tensor.empty() : tensor<20x16xf32>
  %pt = linalg.transpose ins(%p : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dv = linalg.matmul ins(%pt, %do : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  %vt = linalg.transpose ins(%v : tensor<20x8xf32>) outs(%ekt : tensor<8x20xf32>) permutation = [1, 0]
  %dp = linalg.matmul ins(%do, %vt : tensor<16x8xf32>, tensor<8x20xf32>) outs(%zs : tensor<16x20xf32>) -> tensor<16x20xf32>
  %ec = tensor.empty() : tensor<20xf32>
  %zc = linalg.fill ins(%zero : f32) outs(%ec : tensor<20xf32>) -> tensor<20xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (j)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%dp, %p : tensor<16x20xf32>, tensor<16x20xf32>) outs(%zc : tensor<20xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<20xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<16x20xf32>, tensor<16x20xf32>, tensor<20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %pp, %d : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ds : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%dss, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%dss : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// Near miss: Nq = Nk, and dK = dS Q (contracting dS's key axis with Q's
// rows) instead of dS^T Q: it type-checks but is not the gradient.
// CHECK-LABEL: func.func @negative_dk_wrong_axis
// CHECK-NOT: flash.attention_grad
func.func @negative_dk_wrong_axis(%q: tensor<16x8xf32>, %k: tensor<16x8xf32>, %v: tensor<16x8xf32>,
                                  %do: tensor<16x8xf32>)
    -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<16x16xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<16x16xf32>) -> tensor<16x16xf32>
  %eo = tensor.empty() : tensor<16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %ek = tensor.empty() : tensor<16x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<16x8xf32>) -> tensor<16x8xf32>
  %er = tensor.empty() : tensor<16xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %ekt = tensor.empty() : tensor<8x16xf32>
  %kt = linalg.transpose ins(%k : tensor<16x8xf32>) outs(%ekt : tensor<8x16xf32>) permutation = [1, 0]
  %s = linalg.matmul ins(%q, %kt : tensor<16x8xf32>, tensor<8x16xf32>) outs(%zs : tensor<16x16xf32>) -> tensor<16x16xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x16xf32>) outs(%es : tensor<16x16xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<16x16xf32>) outs(%es : tensor<16x16xf32>) -> tensor<16x16xf32>
  // expected-remark @+1 {{attention not raised: the probabilities feed 'linalg.matmul', which is not dQ, dK or dV of the attention's backward, and whose result reaches 'func.return'}}
  %o = linalg.matmul ins(%p, %v : tensor<16x16xf32>, tensor<16x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  // Backward.
  %ept = tensor.empty() : tensor<16x16xf32>
  %pt = linalg.transpose ins(%p : tensor<16x16xf32>) outs(%ept : tensor<16x16xf32>) permutation = [1, 0]
  %dv = linalg.matmul ins(%pt, %do : tensor<16x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<16x8xf32>) -> tensor<16x8xf32>
  %vt = linalg.transpose ins(%v : tensor<16x8xf32>) outs(%ekt : tensor<8x16xf32>) permutation = [1, 0]
  %dp = linalg.matmul ins(%do, %vt : tensor<16x8xf32>, tensor<8x16xf32>) outs(%zs : tensor<16x16xf32>) -> tensor<16x16xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}
      ins(%dp, %p : tensor<16x16xf32>, tensor<16x16xf32>) outs(%zr : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16xf32>) outs(%es : tensor<16x16xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %pp, %d : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %dss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ds : tensor<16x16xf32>) outs(%es : tensor<16x16xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<16x16xf32>
  %dq = linalg.matmul ins(%dss, %k : tensor<16x16xf32>, tensor<16x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dk = linalg.matmul ins(%dss, %q : tensor<16x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>
}

// -----

// Near miss: the backward scales dS by 0.5 while the forward's scale is
// 0.35355339; dQ and dK are then not the gradients.
// CHECK-LABEL: func.func @negative_scale_mismatch
// CHECK-NOT: flash.attention_grad
func.func @negative_scale_mismatch(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
  %ekt = tensor.empty() : tensor<8x20xf32>
  %kt = linalg.transpose ins(%k : tensor<20x8xf32>) outs(%ekt : tensor<8x20xf32>) permutation = [1, 0]
  %s = linalg.matmul ins(%q, %kt : tensor<16x8xf32>, tensor<8x20xf32>) outs(%zs : tensor<16x20xf32>) -> tensor<16x20xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) -> tensor<16x20xf32>
  // expected-remark @+1 {{attention not raised: the probabilities feed 'linalg.matmul', which is not dQ, dK or dV of the attention's backward, and whose result reaches 'func.return'}}
  %o = linalg.matmul ins(%p, %v : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  // Backward.
  %ept = tensor.empty() : tensor<20x16xf32>
  %pt = linalg.transpose ins(%p : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dv = linalg.matmul ins(%pt, %do : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  %vt = linalg.transpose ins(%v : tensor<20x8xf32>) outs(%ekt : tensor<8x20xf32>) permutation = [1, 0]
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
    %y = arith.mulf %pp, %d : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ds : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.5 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%dss, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%dss : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// A sliding window (causal, 5 keys) in a joint graph: the forward and the
// backward both get the mask_mod.
// CHECK-LABEL: func.func @joint_sliding_window_2d
// CHECK: flash.attention {{.*}}causal, causal_offset = 0 : i64
// CHECK-SAME: mask_mod
// CHECK: flash.attention_grad
// CHECK-SAME: mask_mod
// EXEC: joint_sliding_window_2d: raised=yes
func.func @joint_sliding_window_2d(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
    %vis0 = arith.cmpi ule, %j, %i : index
    %dij = arith.subi %i, %j : index
    %c5w = arith.constant 5 : index
    %inw = arith.cmpi slt, %dij, %c5w : index
    %vis = arith.andi %vis0, %inw : i1
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
    %y = arith.mulf %t, %scale : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// Soft-capped scores (Gemma 2), 2-D: the backward reads the forward's
// tanh(s / c), as autodiff saves it, for d(c tanh(s / c))/ds = 1 - tanh^2;
// one generic for dS.
// CHECK-LABEL: func.func @joint_softcap_2d
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention
// CHECK-SAME: score_mod
// CHECK: math.tanh
// CHECK: flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} :
// CHECK-SAME: score_mod
// CHECK: math.tanh
// CHECK-NOT: linalg.matmul
// EXEC: joint_softcap_2d: raised=yes
func.func @joint_softcap_2d(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
  %scale = arith.constant 0.35355339 : f32
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x8xf32>, tensor<20x8xf32>) outs(%zs : tensor<16x20xf32>) -> tensor<16x20xf32>
  %th = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %x2 = arith.mulf %x, %scale : f32
    %cap = arith.constant 5.0 : f32
    %x3 = arith.divf %x2, %cap : f32
    %t = math.tanh %x3 : f32
    linalg.yield %t : f32
  } -> tensor<16x20xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%th : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %cap = arith.constant 5.0 : f32
    %y = arith.mulf %x, %cap : f32
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
  %ds = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p, %dp, %delta, %th : tensor<16x20xf32>, tensor<16x20xf32>, tensor<16xf32>, tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %tt: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %t = arith.mulf %pp, %d : f32
    %one = arith.constant 1.0 : f32
    %t2 = arith.mulf %tt, %tt : f32
    %dt = arith.subf %one, %t2 : f32
    %t3 = arith.mulf %t, %dt : f32
    %y = arith.mulf %t3, %scale : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// The same soft-cap with the chain rule spelled as autodiff emits it:
// one generic per factor (* c, * (1 - t^2), / c, * scale).
// CHECK-LABEL: func.func @joint_softcap_autodiff_chain
// CHECK: flash.attention
// CHECK-SAME: score_mod
// CHECK: flash.attention_grad
// CHECK-SAME: score_mod
// CHECK-NOT: linalg.matmul
// EXEC: joint_softcap_autodiff_chain: raised=yes
func.func @joint_softcap_autodiff_chain(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
  %scale = arith.constant 0.35355339 : f32
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x8xf32>, tensor<20x8xf32>) outs(%zs : tensor<16x20xf32>) -> tensor<16x20xf32>
  %th = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %x2 = arith.mulf %x, %scale : f32
    %cap = arith.constant 5.0 : f32
    %x3 = arith.divf %x2, %cap : f32
    %t = math.tanh %x3 : f32
    linalg.yield %t : f32
  } -> tensor<16x20xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%th : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %cap = arith.constant 5.0 : f32
    %y = arith.mulf %x, %cap : f32
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
  %dsm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<16x20xf32>, tensor<16x20xf32>, tensor<16xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %t = arith.mulf %pp, %d : f32
    linalg.yield %t : f32
  } -> tensor<16x20xf32>
  %g1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%dsm : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %cap = arith.constant 5.0 : f32
    %y = arith.mulf %x, %cap : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %g2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%g1, %th : tensor<16x20xf32>, tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %tt: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %t2 = arith.mulf %tt, %tt : f32
    %dt = arith.subf %one, %t2 : f32
    %y = arith.mulf %x, %dt : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%g2 : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %cap = arith.constant 5.0 : f32
    %y0 = arith.divf %x, %cap : f32
    %y = arith.mulf %y0, %scale : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// Near miss: the soft-cap's derivative written 1 - tanh (not 1 - tanh^2)
// is not the gradient of the forward, so no attention_grad.
// CHECK-LABEL: func.func @negative_joint_softcap_wrong_derivative
// CHECK-NOT: flash.attention_grad
func.func @negative_joint_softcap_wrong_derivative(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
  %scale = arith.constant 0.35355339 : f32
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x8xf32>, tensor<20x8xf32>) outs(%zs : tensor<16x20xf32>) -> tensor<16x20xf32>
  %th = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %x2 = arith.mulf %x, %scale : f32
    %cap = arith.constant 5.0 : f32
    %x3 = arith.divf %x2, %cap : f32
    %t = math.tanh %x3 : f32
    linalg.yield %t : f32
  } -> tensor<16x20xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%th : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %cap = arith.constant 5.0 : f32
    %y = arith.mulf %x, %cap : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) -> tensor<16x20xf32>
  // expected-remark @+1 {{attention not raised: the probabilities feed 'linalg.matmul', which is not dQ, dK or dV of the attention's backward, and whose result reaches 'func.return'}}
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
  %ds = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p, %dp, %delta, %th : tensor<16x20xf32>, tensor<16x20xf32>, tensor<16xf32>, tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %tt: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %t = arith.mulf %pp, %d : f32
    %one = arith.constant 1.0 : f32
    %t2 = arith.mulf %tt, %one : f32
    %dt = arith.subf %one, %t2 : f32
    %t3 = arith.mulf %t, %dt : f32
    %y = arith.mulf %t3, %scale : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// ALiBi (slope_h (j - i), slopes captured) with a causal limit j <= i + 8,
// 3-D: the bias's derivative is 1, so dS is the plain one.
// CHECK-LABEL: func.func @joint_alibi_causal_3d
// CHECK: %[[O:.*]], %[[LSE:.*]] = flash.attention ins({{.*}}) captures(%{{.*}} : tensor<2xf32>)
// CHECK-SAME: score_mod
// CHECK: flash.attention_grad ins({{.*}}, %[[O]], %[[LSE]], %{{.*}} : {{.*}}) captures(%{{.*}} : tensor<2xf32>)
// CHECK-SAME: score_mod
// CHECK-NOT: linalg.batch_matmul
// EXEC: joint_alibi_causal_3d: raised=yes
func.func @joint_alibi_causal_3d(%q: tensor<2x16x8xf32>, %k: tensor<2x24x8xf32>, %v: tensor<2x24x8xf32>,
                                 %do: tensor<2x16x8xf32>, %slopes: tensor<2xf32>)
    -> (tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x24x8xf32>, tensor<2x24x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %eo = tensor.empty() : tensor<2x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %ek = tensor.empty() : tensor<2x24x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x24x8xf32>) -> tensor<2x24x8xf32>
  %er = tensor.empty() : tensor<2x16xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x16xf32>) -> tensor<2x16xf32>
  %ekt = tensor.empty() : tensor<2x8x24xf32>
  %kt = linalg.transpose ins(%k : tensor<2x24x8xf32>) outs(%ekt : tensor<2x8x24xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x16x8xf32>, tensor<2x8x24xf32>) outs(%zs : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h)>, affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%slopes, %s : tensor<2xf32>, tensor<2x16x24xf32>) outs(%es : tensor<2x16x24xf32>) {
  ^bb0(%sl: f32, %x: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ninf = arith.constant 0xFF800000 : f32
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i64
    %df = arith.sitofp %di : i64 to f32
    %bias = arith.mulf %sl, %df : f32
    %yb = arith.addf %y, %bias : f32
    %c8 = arith.constant 8 : index
    %lim = arith.addi %i, %c8 : index
    %fut = arith.cmpi ugt, %j, %lim : index
    %r = arith.select %fut, %ninf, %yb : f32
    linalg.yield %r : f32
  } -> tensor<2x16x24xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<2x16x24xf32>) outs(%es : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x16x24xf32>, tensor<2x24x8xf32>) outs(%zo : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  // Backward; the scale multiplies dQ and dK, not dS.
  %ept = tensor.empty() : tensor<2x24x16xf32>
  %pt = linalg.transpose ins(%p : tensor<2x16x24xf32>) outs(%ept : tensor<2x24x16xf32>) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : tensor<2x24x16xf32>, tensor<2x16x8xf32>) outs(%zk : tensor<2x24x8xf32>) -> tensor<2x24x8xf32>
  %vt = linalg.transpose ins(%v : tensor<2x24x8xf32>) outs(%ekt : tensor<2x8x24xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x16x8xf32>, tensor<2x8x24xf32>) outs(%zs : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %dp : tensor<2x16x24xf32>, tensor<2x16x24xf32>) outs(%zr : tensor<2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x16xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p, %dp, %delta : tensor<2x16x24xf32>, tensor<2x16x24xf32>, tensor<2x16xf32>) outs(%es : tensor<2x16x24xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %pp, %d : f32
    linalg.yield %y : f32
  } -> tensor<2x16x24xf32>
  %dqu = linalg.batch_matmul ins(%ds, %k : tensor<2x16x24xf32>, tensor<2x24x8xf32>) outs(%zo : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%dqu : tensor<2x16x8xf32>) outs(%eo : tensor<2x16x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<2x16x24xf32>) outs(%ept : tensor<2x24x16xf32>) permutation = [0, 2, 1]
  %dku = linalg.batch_matmul ins(%dst, %q : tensor<2x24x16xf32>, tensor<2x16x8xf32>) outs(%zk : tensor<2x24x8xf32>) -> tensor<2x24x8xf32>
  %dk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%dku : tensor<2x24x8xf32>) outs(%ek : tensor<2x24x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x24x8xf32>
  return %o, %dq, %dk, %dv : tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x24x8xf32>, tensor<2x24x8xf32>
}

// -----

// Soft-cap and a causal limit, 3-D, the scale applied to dQ and dK after
// the products; the backward reads the saved tanh.
// CHECK-LABEL: func.func @joint_softcap_causal_3d
// CHECK: flash.attention {{.*}}causal
// CHECK-SAME: score_mod
// CHECK: flash.attention_grad
// CHECK-SAME: score_mod
// CHECK-NOT: linalg.batch_matmul
// EXEC: joint_softcap_causal_3d: raised=yes
func.func @joint_softcap_causal_3d(%q: tensor<2x16x8xf32>, %k: tensor<2x24x8xf32>, %v: tensor<2x24x8xf32>,
                                     %do: tensor<2x16x8xf32>)
    -> (tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x24x8xf32>, tensor<2x24x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<2x16x24xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %eo = tensor.empty() : tensor<2x16x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %ek = tensor.empty() : tensor<2x24x8xf32>
  %zk = linalg.fill ins(%zero : f32) outs(%ek : tensor<2x24x8xf32>) -> tensor<2x24x8xf32>
  %er = tensor.empty() : tensor<2x16xf32>
  %zr = linalg.fill ins(%zero : f32) outs(%er : tensor<2x16xf32>) -> tensor<2x16xf32>
  %ekt = tensor.empty() : tensor<2x8x24xf32>
  %kt = linalg.transpose ins(%k : tensor<2x24x8xf32>) outs(%ekt : tensor<2x8x24xf32>) permutation = [0, 2, 1]
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x16x8xf32>, tensor<2x8x24xf32>) outs(%zs : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %th = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x16x24xf32>) outs(%es : tensor<2x16x24xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    %cap = arith.constant 2.5 : f32
    %y2 = arith.divf %y, %cap : f32
    %t = math.tanh %y2 : f32
    linalg.yield %t : f32
  } -> tensor<2x16x24xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%th : tensor<2x16x24xf32>) outs(%es : tensor<2x16x24xf32>) {
  ^bb0(%x: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ninf = arith.constant 0xFF800000 : f32
    %cap = arith.constant 2.5 : f32
    %y = arith.mulf %x, %cap : f32
    %off = arith.constant 8 : index
    %lim = arith.addi %i, %off : index
    %fut = arith.cmpi ugt, %j, %lim : index
    %r = arith.select %fut, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x16x24xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<2x16x24xf32>) outs(%es : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x16x24xf32>, tensor<2x24x8xf32>) outs(%zo : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  // Backward; the scale multiplies dQ and dK, not dS.
  %ept = tensor.empty() : tensor<2x24x16xf32>
  %pt = linalg.transpose ins(%p : tensor<2x16x24xf32>) outs(%ept : tensor<2x24x16xf32>) permutation = [0, 2, 1]
  %dv = linalg.batch_matmul ins(%pt, %do : tensor<2x24x16xf32>, tensor<2x16x8xf32>) outs(%zk : tensor<2x24x8xf32>) -> tensor<2x24x8xf32>
  %vt = linalg.transpose ins(%v : tensor<2x24x8xf32>) outs(%ekt : tensor<2x8x24xf32>) permutation = [0, 2, 1]
  %dp = linalg.batch_matmul ins(%do, %vt : tensor<2x16x8xf32>, tensor<2x8x24xf32>) outs(%zs : tensor<2x16x24xf32>) -> tensor<2x16x24xf32>
  %delta = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %dp : tensor<2x16x24xf32>, tensor<2x16x24xf32>) outs(%zr : tensor<2x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x16xf32>
  %ds = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>, affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p, %dp, %delta, %th : tensor<2x16x24xf32>, tensor<2x16x24xf32>, tensor<2x16xf32>, tensor<2x16x24xf32>) outs(%es : tensor<2x16x24xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %tt: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %y = arith.mulf %pp, %d : f32
    %one = arith.constant 1.0 : f32
    %t2 = arith.mulf %tt, %tt : f32
    %dt = arith.subf %one, %t2 : f32
    %z = arith.mulf %y, %dt : f32
    linalg.yield %z : f32
  } -> tensor<2x16x24xf32>
  %dqu = linalg.batch_matmul ins(%ds, %k : tensor<2x16x24xf32>, tensor<2x24x8xf32>) outs(%zo : tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %dq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%dqu : tensor<2x16x8xf32>) outs(%eo : tensor<2x16x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<2x16x24xf32>) outs(%ept : tensor<2x24x16xf32>) permutation = [0, 2, 1]
  %dku = linalg.batch_matmul ins(%dst, %q : tensor<2x24x16xf32>, tensor<2x16x8xf32>) outs(%zk : tensor<2x24x8xf32>) -> tensor<2x24x8xf32>
  %dk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%dku : tensor<2x24x8xf32>) outs(%ek : tensor<2x24x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %c = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x24x8xf32>
  return %o, %dq, %dk, %dv : tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x24x8xf32>, tensor<2x24x8xf32>
}

// -----

// Chunked causal attention (i / 4 == j / 4) in a joint graph: both ops take the mask_mod (its tiles skipped by a predicate check on the CPU too).
// CHECK-LABEL: func.func @joint_chunked_eq
// CHECK: flash.attention {{.*}}mask_mod
// CHECK: flash.attention_grad {{.*}}mask_mod
// EXEC: joint_chunked_eq: raised=yes
func.func @joint_chunked_eq(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
    %c4 = arith.constant 4 : index
    %ci = arith.divui %i, %c4 : index
    %cj = arith.divui %j, %c4 : index
    %same = arith.cmpi eq, %ci, %cj : index
    %vis0 = arith.cmpi ule, %j, %i : index
    %vis = arith.andi %vis0, %same : i1
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
    %y = arith.mulf %t, %scale : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// A window added as log of a 0 / 1 mask (Mistral's spelling) in a joint graph.
// CHECK-LABEL: func.func @joint_mistral_log_mask
// CHECK: flash.attention {{.*}}mask_mod
// CHECK: flash.attention_grad {{.*}}mask_mod
// EXEC: joint_mistral_log_mask: raised=yes
func.func @joint_mistral_log_mask(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
    %vis0 = arith.cmpi ule, %j, %i : index
    %dij = arith.subi %i, %j : index
    %c5w = arith.constant 5 : index
    %inw = arith.cmpi slt, %dij, %c5w : index
    %vis = arith.andi %vis0, %inw : i1
    %one = arith.constant 1.0 : f32
    %zf = arith.constant 0.0 : f32
    %m01 = arith.select %vis, %one, %zf : f32
    %lg = math.log %m01 : f32
    %y = arith.addf %x2, %lg : f32
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
    %y = arith.mulf %t, %scale : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// j != i in a joint graph.
// CHECK-LABEL: func.func @joint_no_self_ne
// CHECK: flash.attention {{.*}}mask_mod
// CHECK: flash.attention_grad {{.*}}mask_mod
// EXEC: joint_no_self_ne: raised=yes
func.func @joint_no_self_ne(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
    %vis = arith.cmpi ne, %j, %i : index
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
    %y = arith.mulf %t, %scale : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// torch's float 0 / 1 causal mask through masked_fill(m == 0, -inf), masked_fill(m == 1, 0) in a joint graph.
// CHECK-LABEL: func.func @joint_square_subsequent_float
// CHECK: flash.attention {{.*}}
// CHECK: flash.attention_grad
// EXEC: joint_square_subsequent_float: raised=yes
func.func @joint_square_subsequent_float(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
    %vis0 = arith.cmpi ule, %j, %i : index
    %one = arith.constant 1.0 : f32
    %zf = arith.constant 0.0 : f32
    %m01 = arith.select %vis0, %one, %zf : f32
    %is0 = arith.cmpf oeq, %m01, %zf : f32
    %a = arith.select %is0, %ninf, %m01 : f32
    %is1 = arith.cmpf oeq, %m01, %one : f32
    %mk = arith.select %is1, %zf, %a : f32
    %y = arith.addf %x2, %mk : f32
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
    %y = arith.mulf %t, %scale : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// A soft-capped joint graph with the soft-cap's derivative from the capped score y: 1 - (y / c)^2.
// CHECK-LABEL: func.func @joint_softcap_d_from_capped
// CHECK: flash.attention
// CHECK-SAME: score_mod
// CHECK: flash.attention_grad
// CHECK-SAME: score_mod
// EXEC: joint_softcap_d_from_capped: raised=yes
func.func @joint_softcap_d_from_capped(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
  %scale = arith.constant 0.35355339 : f32
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x8xf32>, tensor<20x8xf32>) outs(%zs : tensor<16x20xf32>) -> tensor<16x20xf32>
  %th = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %x2 = arith.mulf %x, %scale : f32
    %cap = arith.constant 5.0 : f32
    %x3 = arith.divf %x2, %cap : f32
    %t = math.tanh %x3 : f32
    linalg.yield %t : f32
  } -> tensor<16x20xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%th : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %cap = arith.constant 5.0 : f32
    %y = arith.mulf %x, %cap : f32
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
  %ds = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p, %dp, %delta, %th : tensor<16x20xf32>, tensor<16x20xf32>, tensor<16xf32>, tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %tt: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %t = arith.mulf %pp, %d : f32
    %one = arith.constant 1.0 : f32
    %c5 = arith.constant 5.0 : f32
    %yc = arith.mulf %tt, %c5 : f32
    %yy = arith.divf %yc, %c5 : f32
    %t2 = arith.mulf %yy, %yy : f32
    %dt = arith.subf %one, %t2 : f32
    %t3 = arith.mulf %t, %dt : f32
    %y = arith.mulf %t3, %scale : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// A soft-capped joint graph with the soft-cap's derivative as (1 - t)(1 + t).
// CHECK-LABEL: func.func @joint_softcap_d_one_minus_one_plus
// CHECK: flash.attention
// CHECK-SAME: score_mod
// CHECK: flash.attention_grad
// CHECK-SAME: score_mod
// EXEC: joint_softcap_d_one_minus_one_plus: raised=yes
func.func @joint_softcap_d_one_minus_one_plus(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
  %scale = arith.constant 0.35355339 : f32
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x8xf32>, tensor<20x8xf32>) outs(%zs : tensor<16x20xf32>) -> tensor<16x20xf32>
  %th = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %x2 = arith.mulf %x, %scale : f32
    %cap = arith.constant 5.0 : f32
    %x3 = arith.divf %x2, %cap : f32
    %t = math.tanh %x3 : f32
    linalg.yield %t : f32
  } -> tensor<16x20xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%th : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %cap = arith.constant 5.0 : f32
    %y = arith.mulf %x, %cap : f32
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
  %ds = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p, %dp, %delta, %th : tensor<16x20xf32>, tensor<16x20xf32>, tensor<16xf32>, tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %tt: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %t = arith.mulf %pp, %d : f32
    %one = arith.constant 1.0 : f32
    %a1 = arith.subf %one, %tt : f32
    %a2 = arith.addf %one, %tt : f32
    %dt = arith.mulf %a1, %a2 : f32
    %t3 = arith.mulf %t, %dt : f32
    %y = arith.mulf %t3, %scale : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// A soft-capped joint graph with the soft-cap's derivative from tanh recomputed from the raw scores.
// CHECK-LABEL: func.func @joint_softcap_d_recomputed
// CHECK: flash.attention
// CHECK-SAME: score_mod
// CHECK: flash.attention_grad
// CHECK-SAME: score_mod
// EXEC: joint_softcap_d_recomputed: raised=yes
func.func @joint_softcap_d_recomputed(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
  %scale = arith.constant 0.35355339 : f32
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : tensor<16x8xf32>, tensor<20x8xf32>) outs(%zs : tensor<16x20xf32>) -> tensor<16x20xf32>
  %th = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %x2 = arith.mulf %x, %scale : f32
    %cap = arith.constant 5.0 : f32
    %x3 = arith.divf %x2, %cap : f32
    %t = math.tanh %x3 : f32
    linalg.yield %t : f32
  } -> tensor<16x20xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%th : tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%x: f32, %out: f32):
    %cap = arith.constant 5.0 : f32
    %y = arith.mulf %x, %cap : f32
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
  %ds = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%p, %dp, %delta, %s : tensor<16x20xf32>, tensor<16x20xf32>, tensor<16xf32>, tensor<16x20xf32>) outs(%es : tensor<16x20xf32>) {
  ^bb0(%pp: f32, %g: f32, %r: f32, %sraw: f32, %out: f32):
    %d = arith.subf %g, %r : f32
    %t = arith.mulf %pp, %d : f32
    %one = arith.constant 1.0 : f32
    %sx = arith.mulf %sraw, %scale : f32
    %cc = arith.constant 5.0 : f32
    %sx2 = arith.divf %sx, %cc : f32
    %rt = math.tanh %sx2 : f32
    %t2 = arith.mulf %rt, %rt : f32
    %dt = arith.subf %one, %t2 : f32
    %t3 = arith.mulf %t, %dt : f32
    %y = arith.mulf %t3, %scale : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}

// -----

// A symmetric window through maxsi with a symmetric ALiBi whose slope is a
// literal inside the payload (session 27's forms) in a joint graph: both
// ops take the window's affine bounds and the bias as a score_mod (the
// literal's element read at a constant index folds: -0.125 |i - j|).
// CHECK-LABEL: func.func @joint_maxsi_window_literal_alibi
// CHECK: flash.attention {{.*}}causal, causal_offset = 5 : i64
// CHECK: score_mod {
// CHECK: arith.constant -1.250000e-01 : f32
// CHECK: mask_mod {
// CHECK: flash.attention_grad {{.*}}causal, causal_offset = 5 : i64
// CHECK: score_mod {
// CHECK: mask_mod {
// EXEC: joint_maxsi_window_literal_alibi: raised=yes
func.func @joint_maxsi_window_literal_alibi(%q: tensor<16x8xf32>, %k: tensor<20x8xf32>, %v: tensor<20x8xf32>,
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
    %x1 = arith.mulf %x, %scale : f32
    %slopes = arith.constant dense<[0.125]> : tensor<1xf32>
    %c0 = arith.constant 0 : index
    %sl = tensor.extract %slopes[%c0] : tensor<1xf32>
    %dij = arith.subi %i, %j : index
    %dji = arith.subi %j, %i : index
    %ad = arith.maxsi %dij, %dji : index
    %adi = arith.index_cast %ad : index to i64
    %adf = arith.sitofp %adi : i64 to f32
    %b = arith.mulf %sl, %adf : f32
    %x2 = arith.subf %x1, %b : f32
    %c5w = arith.constant 5 : index
    %vis = arith.cmpi sle, %ad, %c5w : index
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
    %y = arith.mulf %t, %scale : f32
    linalg.yield %y : f32
  } -> tensor<16x20xf32>
  %dq = linalg.matmul ins(%ds, %k : tensor<16x20xf32>, tensor<20x8xf32>) outs(%zo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dst = linalg.transpose ins(%ds : tensor<16x20xf32>) outs(%ept : tensor<20x16xf32>) permutation = [1, 0]
  %dk = linalg.matmul ins(%dst, %q : tensor<20x16xf32>, tensor<16x8xf32>) outs(%zk : tensor<20x8xf32>) -> tensor<20x8xf32>
  return %o, %dq, %dk, %dv : tensor<16x8xf32>, tensor<16x8xf32>, tensor<20x8xf32>, tensor<20x8xf32>
}
