// Attention with score and mask modifiers, written the way frontends write
// them (the modifier inside the score generic, torch-mlir's index compares,
// gathers of small tensors): sliding windows, soft-capping, ALiBi, document
// masks, prefix-LM, relative-position tables, key-length cutoffs. Each is
// raised into flash.attention with score_mod / mask_mod regions reading the
// small tensors (no N x N mask), and the raised program agrees with the
// unfused one on the CPU.
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" --verify-diagnostics | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// Mistral: causal within a window of 6 keys (j <= i and i - j < 6).
// CHECK-LABEL: func.func @sliding_window_causal
// CHECK: flash.attention
// CHECK: mask_mod {
// CHECK: arith.cmpi
// CHECK: flash.yield %{{.*}} : i1
// EXEC: sliding_window_causal: raised=yes
func.func @sliding_window_causal(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ninf = arith.constant 0xFF800000 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %d = arith.subi %i, %j : index
    %c6 = arith.constant 6 : index
    %inw = arith.cmpi slt, %d, %c6 : index
    %past = arith.cmpi sle, %j, %i : index
    %keep = arith.andi %inw, %past : i1
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %out : tensor<4x37x16xf32>
}

// -----

// A window of 5 aligned bottom-right (Nk - Nq = 8) with finfo.min, i64 compares as torch-mlir writes them.
// CHECK-LABEL: func.func @sliding_window_bottom_right_finfo_min
// CHECK: flash.attention
// CHECK: mask_mod {
// EXEC: sliding_window_bottom_right_finfo_min: raised=yes
func.func @sliding_window_bottom_right_finfo_min(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ninf = arith.constant 0xFF800000 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %c8 = arith.constant 8 : i64
    %c3 = arith.constant 3 : i64
    %hi = arith.addi %ii, %c8 : i64
    %lo = arith.addi %ii, %c3 : i64
    %a = arith.cmpi sgt, %jj, %hi : i64
    %b = arith.cmpi slt, %jj, %lo : i64
    %out = arith.ori %a, %b : i1
    %r = arith.select %out, %fmin, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %out : tensor<4x37x16xf32>
}

// -----

// Gemma 2: soft-capped scores c * tanh(s / c) with c = 2.
// CHECK-LABEL: func.func @softcap
// CHECK: flash.attention
// CHECK: {scale = 1.250000e-01 : f32}
// CHECK: score_mod {
// CHECK: math.tanh
// CHECK: flash.yield %{{.*}} : f32
// EXEC: softcap: raised=yes
func.func @softcap(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ninf = arith.constant 0xFF800000 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %cap = arith.constant 2.0 : f32
    %t0 = arith.divf %y, %cap : f32
    %t1 = math.tanh %t0 : f32
    %r = arith.mulf %t1, %cap : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %out : tensor<4x37x16xf32>
}

// -----

// Soft-capping and a sliding window together (Gemma 2's local layers).
// CHECK-LABEL: func.func @softcap_window
// CHECK: flash.attention
// CHECK: {causal, causal_offset = 4 : i64, scale = 0.166666672 : f32}
// CHECK: score_mod {
// CHECK: math.tanh
// EXEC: softcap_window: raised=yes
func.func @softcap_window(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ninf = arith.constant 0xFF800000 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %cap = arith.constant 1.5 : f32
    %t0 = arith.divf %y, %cap : f32
    %t1 = math.tanh %t0 : f32
    %t2 = arith.mulf %t1, %cap : f32
    %d = arith.subi %j, %i : index
    %c4 = arith.constant 4 : index
    %far = arith.cmpi sgt, %d, %c4 : index
    %r = arith.select %far, %ninf, %t2 : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %out : tensor<4x37x16xf32>
}

// -----

// BLOOM: causal with the ALiBi bias slope[h] * (j - i), slopes a tensor.
// CHECK-LABEL: func.func @alibi_causal
// CHECK: flash.attention
// CHECK: captures(%{{.*}} : tensor<4xf32>)
// CHECK: score_mod {
// CHECK: tensor.extract
// EXEC: alibi_causal: raised=yes
func.func @alibi_causal(%q: tensor<4x45x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %slopes: tensor<4xf32>) -> tensor<4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<4x45x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h)>, affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%slopes, %s : tensor<4xf32>, tensor<4x45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) {
  ^bb0(%slopes_e: f32, %x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ninf = arith.constant 0xFF800000 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i64
    %df = arith.sitofp %di : i64 to f32
    %bias = arith.mulf %slopes_e, %df : f32
    %yb = arith.addf %y, %bias : f32
    %fut = arith.cmpi ugt, %j, %i : index
    %r = arith.select %fut, %ninf, %yb : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %e3 = tensor.empty() : tensor<4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x45x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  return %out : tensor<4x45x16xf32>
}

// -----

// Packed documents: keys of the query's document only (segment ids).
// CHECK-LABEL: func.func @document_mask
// CHECK: flash.attention
// CHECK: captures(%{{.*}}, %{{.*}} : tensor<37xi32>, tensor<45xi32>)
// CHECK: mask_mod {
// CHECK: arith.cmpi eq
// EXEC: document_mask: raised=yes
func.func @document_mask(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %segq: tensor<37xi32>, %segk: tensor<45xi32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (i)>, affine_map<(h, i, j) -> (j)>, affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%segq, %segk, %s : tensor<37xi32>, tensor<45xi32>, tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%segq_e: i32, %segk_e: i32, %x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ninf = arith.constant 0xFF800000 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %same = arith.cmpi eq, %segq_e, %segk_e : i32
    %r = arith.select %same, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %out : tensor<4x37x16xf32>
}

// -----

// Prefix-LM: bidirectional over the first 5 keys, causal after.
// CHECK-LABEL: func.func @prefix_lm
// CHECK: flash.attention
// CHECK: mask_mod {
// EXEC: prefix_lm: raised=yes
func.func @prefix_lm(%q: tensor<4x45x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<4x45x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ninf = arith.constant 0xFF800000 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %c5 = arith.constant 5 : index
    %pre = arith.cmpi slt, %j, %c5 : index
    %past = arith.cmpi sle, %j, %i : index
    %keep = arith.ori %pre, %past : i1
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %e3 = tensor.empty() : tensor<4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x45x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  return %out : tensor<4x45x16xf32>
}

// -----

// T5-like learned relative-position bias table[h, j - i + 36].
// CHECK-LABEL: func.func @relative_position_table
// CHECK: flash.attention
// CHECK: captures(%{{.*}} : tensor<4x81xf32>)
// CHECK: score_mod {
// CHECK: tensor.extract
// EXEC: relative_position_table: raised=yes
func.func @relative_position_table(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %tab: tensor<4x81xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, j - i + 36)>, affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%tab, %s : tensor<4x81xf32>, tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%tab_e: f32, %x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ninf = arith.constant 0xFF800000 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %r = arith.addf %y, %tab_e : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %out : tensor<4x37x16xf32>
}

// -----

// Keys beyond a fixed length 30 are padding (j < 30).
// CHECK-LABEL: func.func @key_length_cutoff
// CHECK: flash.attention
// CHECK: mask_mod {
// EXEC: key_length_cutoff: raised=yes
func.func @key_length_cutoff(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ninf = arith.constant 0xFF800000 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %c30 = arith.constant 30 : index
    %pad = arith.cmpi sge, %j, %c30 : index
    %r = arith.select %pad, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %out : tensor<4x37x16xf32>
}

// -----

// Anti-causal: each query sees itself and the keys after it.
// CHECK-LABEL: func.func @anti_causal
// CHECK: flash.attention
// CHECK: mask_mod {
// EXEC: anti_causal: raised=yes
func.func @anti_causal(%q: tensor<4x45x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x45x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x45x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<4x45x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ninf = arith.constant 0xFF800000 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %before = arith.cmpi slt, %j, %i : index
    %r = arith.select %before, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x45x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x45x45xf32>) outs(%e0 : tensor<4x45x45xf32>) -> tensor<4x45x45xf32>
  %e3 = tensor.empty() : tensor<4x45x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x45x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x45x16xf32>) -> tensor<4x45x16xf32>
  return %out : tensor<4x45x16xf32>
}

// -----

// The soft-cap's argument adds K's first element: not a function of the scores and positions.
// CHECK-LABEL: func.func @negative_softcap_of_scores_and_keys
// CHECK: linalg.softmax
func.func @negative_softcap_of_scores_and_keys(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, j, 0)>, affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%k, %s : tensor<4x45x16xf32>, tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%k_e: f32, %x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ninf = arith.constant 0xFF800000 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %cap = arith.constant 2.0 : f32
    %t = arith.addf %y, %k_e : f32
    %t0 = arith.divf %t, %cap : f32
    %r = math.tanh %t0 : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  // expected-remark @+1 {{attention not raised: the scores add a value read from the query or key tensor outside their product}}
  %out = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %out : tensor<4x37x16xf32>
}

// -----

// (A near miss before score_mod / mask_mod.)
// CHECK-LABEL: func.func @score_softcap_tanh
// CHECK: flash.attention
// EXEC: score_softcap_tanh: raised=yes

// Gemma-2 style soft-capping: the scores go through tanh(s / 30) * 30, which flash.attention has no attribute for.
func.func @score_softcap_tanh(%q: tensor<13x6xf32>, %k: tensor<17x6xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q, %k : tensor<13x6xf32>, tensor<17x6xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.033333335 : f32
    %cap = arith.constant 30.0 : f32
    %y = arith.mulf %x, %c : f32
    %t = math.tanh %y : f32
    %r = arith.mulf %t, %cap : f32
    linalg.yield %r : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// ALiBi: the scores add slope * (j - i), a bias computed from linalg.index, not read from a tensor.
// (A near miss before score_mod / mask_mod.)
// CHECK-LABEL: func.func @score_alibi_bias
// CHECK: flash.attention
// EXEC: score_alibi_bias: raised=yes
func.func @score_alibi_bias(%q: tensor<13x6xf32>, %k: tensor<17x6xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q, %k : tensor<13x6xf32>, tensor<17x6xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %d = arith.subi %j, %i : index
    %di = arith.index_cast %d : index to i64
    %df = arith.sitofp %di : i64 to f32
    %slope = arith.constant 0.0625 : f32
    %b = arith.mulf %df, %slope : f32
    %y = arith.addf %x, %b : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// The scores are multiplied elementwise by a weight tensor w[i, j] (not a constant scale).
// (A near miss before score_mod / mask_mod.)
// CHECK-LABEL: func.func @score_times_weights
// CHECK: flash.attention
// EXEC: score_times_weights: raised=yes
func.func @score_times_weights(%q: tensor<13x6xf32>, %k: tensor<17x6xf32>, %v: tensor<17x6xf32>, %w: tensor<13x17xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q, %k : tensor<13x6xf32>, tensor<17x6xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %w : tensor<13x17xf32>, tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%sc : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// A per-head bias shared by pairs of heads, read as bias[h floordiv 2, i, j].
// (A near miss before score_mod / mask_mod.)
// CHECK-LABEL: func.func @mask_read_at_floordiv
// CHECK: flash.attention
// EXEC: mask_read_at_floordiv: raised=yes
func.func @mask_read_at_floordiv(%q: tensor<4x13x6xf32>, %k: tensor<4x17x6xf32>, %v: tensor<4x17x6xf32>, %bias: tensor<2x13x17xf32>) -> tensor<4x13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<4x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x13x17xf32>) -> tensor<4x13x17xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%q, %k : tensor<4x13x6xf32>, tensor<4x17x6xf32>) outs(%zs : tensor<4x13x17xf32>) -> tensor<4x13x17xf32>
  %sb = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h floordiv 2, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %bias : tensor<4x13x17xf32>, tensor<2x13x17xf32>) outs(%es : tensor<4x13x17xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %y = arith.addf %x, %b : f32
    linalg.yield %y : f32
  } -> tensor<4x13x17xf32>
  %p = linalg.softmax dimension(2) ins(%sb : tensor<4x13x17xf32>) outs(%es : tensor<4x13x17xf32>) -> tensor<4x13x17xf32>
  %eo = tensor.empty() : tensor<4x13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x13x6xf32>) -> tensor<4x13x6xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x13x17xf32>, tensor<4x17x6xf32>) outs(%zo : tensor<4x13x6xf32>) -> tensor<4x13x6xf32>
  return %o : tensor<4x13x6xf32>
}

// -----

// A causal mask whose offset is the head index (keep iff j <= i + h): it compares a third position.
// (A near miss before score_mod / mask_mod.)
// CHECK-LABEL: func.func @mask_offset_per_head
// CHECK: flash.attention
// EXEC: mask_offset_per_head: raised=yes
func.func @mask_offset_per_head(%q: tensor<3x13x6xf32>, %k: tensor<3x17x6xf32>, %v: tensor<3x17x6xf32>) -> tensor<3x13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<3x13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<3x13x17xf32>) -> tensor<3x13x17xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%q, %k : tensor<3x13x6xf32>, tensor<3x17x6xf32>) outs(%zs : tensor<3x13x17xf32>) -> tensor<3x13x17xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x13x17xf32>) outs(%es : tensor<3x13x17xf32>) {
  ^bb0(%x: f32, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ih = arith.addi %i, %h : index
    %keep = arith.cmpi sle, %j, %ih : index
    %y = arith.select %keep, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<3x13x17xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<3x13x17xf32>) outs(%es : tensor<3x13x17xf32>) -> tensor<3x13x17xf32>
  %eo = tensor.empty() : tensor<3x13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<3x13x6xf32>) -> tensor<3x13x6xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<3x13x17xf32>, tensor<3x17x6xf32>) outs(%zo : tensor<3x13x6xf32>) -> tensor<3x13x6xf32>
  return %o : tensor<3x13x6xf32>
}

// -----

// A causal keep mask built at half key resolution and upsampled by the read map (j floordiv 2): keep iff j floordiv 2 <= i.
// (A near miss before score_mod / mask_mod.)
// CHECK-LABEL: func.func @mask_nonlinear
// CHECK: flash.attention
// EXEC: mask_nonlinear: raised=yes
func.func @mask_nonlinear(%q: tensor<13x6xf32>, %k: tensor<17x6xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q, %k : tensor<13x6xf32>, tensor<17x6xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %ekm = tensor.empty() : tensor<13x9xi1>
  %km = linalg.generic {indexing_maps = [affine_map<(i, c) -> (i, c)>], iterator_types = ["parallel", "parallel"]}
      outs(%ekm : tensor<13x9xi1>) {
  ^bb0(%o: i1):
    %i = linalg.index 0 : index
    %c = linalg.index 1 : index
    %keep = arith.cmpi sle, %c, %i : index
    linalg.yield %keep : i1
  } -> tensor<13x9xi1>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j floordiv 2)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %km : tensor<13x17xf32>, tensor<13x9xi1>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%x: f32, %keep: i1, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.select %keep, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// Mistral-style sliding window: keys older than i - 4 are masked (with the causal bound).
// (A near miss before score_mod / mask_mod.)
// CHECK-LABEL: func.func @mask_sliding_window
// CHECK: flash.attention
// EXEC: mask_sliding_window: raised=yes
func.func @mask_sliding_window(%q: tensor<13x6xf32>, %k: tensor<17x6xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q, %k : tensor<13x6xf32>, tensor<17x6xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%x: f32, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c4 = arith.constant 4 : index
    %lo = arith.subi %i, %c4 : index
    %k1 = arith.cmpi sge, %j, %lo : index
    %k2 = arith.cmpi sle, %j, %i : index
    %keep = arith.andi %k1, %k2 : i1
    %y = arith.select %keep, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// Queries at half the key rate: keep iff j <= 2 i + 1, a compare with slope 2 (not causal).
// (A near miss before score_mod / mask_mod.)
// CHECK-LABEL: func.func @mask_strided_causal
// CHECK: flash.attention
// EXEC: mask_strided_causal: raised=yes
func.func @mask_strided_causal(%q: tensor<13x6xf32>, %k: tensor<17x6xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q, %k : tensor<13x6xf32>, tensor<17x6xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%x: f32, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %i2 = arith.muli %i, %c2 : index
    %i21 = arith.addi %i2, %c1 : index
    %keep = arith.cmpi sle, %j, %i21 : index
    %y = arith.select %keep, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// KV-cache causal mask keep iff j <= i + len(past) with the offset taken from a separate past tensor, not Nk - Nq.
// (A near miss before score_mod / mask_mod.)
// CHECK-LABEL: func.func @causal_offset_from_past
// CHECK: flash.attention
// EXEC: causal_offset_from_past: raised=yes
func.func @causal_offset_from_past(%q: tensor<13x6xf32>, %k: tensor<17x6xf32>, %v: tensor<17x6xf32>, %past: tensor<?x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q, %k : tensor<13x6xf32>, tensor<17x6xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %c0 = arith.constant 0 : index
  %np = tensor.dim %past, %c0 : tensor<?x6xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%x: f32, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ip = arith.addi %i, %np : index
    %keep = arith.cmpi sle, %j, %ip : index
    %y = arith.select %keep, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// Prefix-LM: keep iff j <= i or j < 5 (a disjunction of position compares).
// (A near miss before score_mod / mask_mod.)
// CHECK-LABEL: func.func @mask_prefix_lm
// CHECK: flash.attention
// EXEC: mask_prefix_lm: raised=yes
func.func @mask_prefix_lm(%q: tensor<13x6xf32>, %k: tensor<17x6xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q, %k : tensor<13x6xf32>, tensor<17x6xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%x: f32, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %k1 = arith.cmpi sle, %j, %i : index
    %k2 = arith.cmpi slt, %j, %c5 : index
    %keep = arith.ori %k1, %k2 : i1
    %y = arith.select %keep, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// StreamingLLM-style sinks: keep iff window[i, j] or j < len(sinks), with a dynamic sink count.
// (A near miss before score_mod / mask_mod.)
// CHECK-LABEL: func.func @mask_dynamic_sinks
// CHECK: flash.attention
// EXEC: mask_dynamic_sinks: raised=yes
func.func @mask_dynamic_sinks(%q: tensor<13x6xf32>, %k: tensor<17x6xf32>, %v: tensor<17x6xf32>, %window: tensor<13x17xi1>, %sinks: tensor<?x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q, %k : tensor<13x6xf32>, tensor<17x6xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %c0 = arith.constant 0 : index
  %ns = tensor.dim %sinks, %c0 : tensor<?x6xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %window : tensor<13x17xf32>, tensor<13x17xi1>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%x: f32, %w: i1, %o: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %j = linalg.index 1 : index
    %sink = arith.cmpi slt, %j, %ns : index
    %keep = arith.ori %w, %sink : i1
    %y = arith.select %keep, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// The scale is a function argument (sdpa's scale=): flash.attention takes it as an attribute.
// (A near miss before score_mod / mask_mod.)
// CHECK-LABEL: func.func @runtime_scale
// CHECK: flash.attention
// EXEC: runtime_scale: raised=yes
func.func @runtime_scale(%q: tensor<13x6xf32>, %k: tensor<17x6xf32>, %v: tensor<17x6xf32>, %sc: f32) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, kk) -> (m, kk)>, affine_map<(m, n, kk) -> (n, kk)>, affine_map<(m, n, kk) -> (m, n)>] ins(%q, %k : tensor<13x6xf32>, tensor<17x6xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.mulf %a, %sc : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// Keys past a fixed length are masked (j < 11): no query position is involved.
// (A near miss before score_mod / mask_mod.)
// CHECK-LABEL: func.func @key_length_cutoff
// CHECK: flash.attention
// EXEC: key_length_cutoff: raised=yes
func.func @key_length_cutoff(%q: tensor<13x6xf32>, %k: tensor<17x6xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, kk) -> (m, kk)>, affine_map<(m, n, kk) -> (n, kk)>, affine_map<(m, n, kk) -> (m, n)>] ins(%q, %k : tensor<13x6xf32>, tensor<17x6xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %j = linalg.index 1 : index
    %c11 = arith.constant 11 : index
    %keep = arith.cmpi ult, %j, %c11 : index
    %y = arith.select %keep, %a, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// Anti-causal (j >= i): the key position is bounded from below.
// (A near miss before score_mod / mask_mod.)
// CHECK-LABEL: func.func @anti_causal
// CHECK: flash.attention
// EXEC: anti_causal: raised=yes
func.func @anti_causal(%q: tensor<13x6xf32>, %k: tensor<17x6xf32>, %v: tensor<17x6xf32>) -> tensor<13x6xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<13x17xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, kk) -> (m, kk)>, affine_map<(m, n, kk) -> (n, kk)>, affine_map<(m, n, kk) -> (m, n)>] ins(%q, %k : tensor<13x6xf32>, tensor<17x6xf32>) outs(%zs : tensor<13x17xf32>) -> tensor<13x17xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi uge, %j, %i : index
    %y = arith.select %keep, %a, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<13x17xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<13x17xf32>) outs(%es : tensor<13x17xf32>) -> tensor<13x17xf32>
  %eo = tensor.empty() : tensor<13x6xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<13x6xf32>) -> tensor<13x6xf32>
  %o = linalg.matmul ins(%p, %v : tensor<13x17xf32>, tensor<17x6xf32>) outs(%zo : tensor<13x6xf32>) -> tensor<13x6xf32>
  return %o : tensor<13x6xf32>
}

// -----

// Not attention: the scores are multiplied by a per-element weight w[i,j] (not a scale).
// (A near miss before score_mod / mask_mod.)
// CHECK-LABEL: func.func @multiplicative_score_weights
// CHECK: flash.attention
// EXEC: multiplicative_score_weights: raised=yes
func.func @multiplicative_score_weights(%q: tensor<2x37x24xf32>, %k: tensor<2x45x24xf32>,
                                                 %v: tensor<2x45x20xf32>, %w: tensor<37x45xf32>) -> tensor<2x37x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                                            affine_map<(b, m, n, k) -> (b, n, k)>,
                                            affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<2x37x24xf32>, tensor<2x45x24xf32>)
      outs(%z0 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %sw = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %w : tensor<2x37x45xf32>, tensor<37x45xf32>) outs(%e0 : tensor<2x37x45xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %c = arith.constant 0.20412415 : f32
    %t = arith.mulf %x, %c : f32
    %r = arith.mulf %t, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x37x45xf32>
  %e1 = tensor.empty() : tensor<2x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sw : tensor<2x37x45xf32>) outs(%e1 : tensor<2x37x45xf32>) -> tensor<2x37x45xf32>
  %e3 = tensor.empty() : tensor<2x37x20xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x37x20xf32>) -> tensor<2x37x20xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x37x45xf32>, tensor<2x45x20xf32>) outs(%z3 : tensor<2x37x20xf32>) -> tensor<2x37x20xf32>
  return %o : tensor<2x37x20xf32>
}
