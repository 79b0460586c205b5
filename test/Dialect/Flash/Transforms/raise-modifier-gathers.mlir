// Modifiers that read a table at computed positions: relative-position
// buckets clamped with minsi/select, T5's log buckets (computed in f32 and
// converted with fptosi: the raise rebuilds such float arithmetic op by op,
// in the program's order, since a reassociated constant could move a value
// across an integer boundary), document masks at clamped positions. The
// reads become tensor.extract of captured operands in score_mod / mask_mod.
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL

// HF T5 encoder: bidirectional relative-position buckets (num_buckets 32,
// max_distance 128) computed as torch-mlir lowers aten ops: an i64 [Nq, Nk]
// bucket tensor from aranges, abs, the log-bucket formula in f32, min,
// where; then the embedding [32, H] gathered at (bucket, h) into [Nq, Nk, H],
// transposed to [H, Nq, Nk] and added to the unscaled scores.
// CHECK-LABEL: func.func @t5_encoder_log_buckets
// CHECK: flash.attention {{.*}} captures(%{{.*}} : tensor<32x4xf32>)
// CHECK: score_mod {
// CHECK: math.absi
// CHECK: arith.sitofp
// CHECK-NEXT: arith.constant 8.0
// CHECK-NEXT: arith.divf
// CHECK-NEXT: math.log
// CHECK-NEXT: arith.constant 2.77258873
// CHECK-NEXT: arith.divf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.fptosi
// CHECK: arith.minsi
// CHECK: arith.select
// CHECK: tensor.extract
// EXEC: t5_encoder_log_buckets: raised=yes
func.func @t5_encoder_log_buckets(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %emb: tensor<32x4xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  // context_position = arange(Nq)[:, None], memory_position = arange(Nk)[None, :]
  %ei = tensor.empty() : tensor<37x1xi64>
  %ctx = linalg.generic {indexing_maps = [affine_map<(i, u) -> (i, u)>], iterator_types = ["parallel", "parallel"]} outs(%ei : tensor<37x1xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    linalg.yield %ii : i64
  } -> tensor<37x1xi64>
  %ej = tensor.empty() : tensor<1x45xi64>
  %mem = linalg.generic {indexing_maps = [affine_map<(u, j) -> (u, j)>], iterator_types = ["parallel", "parallel"]} outs(%ej : tensor<1x45xi64>) {
  ^bb0(%o: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    linalg.yield %jj : i64
  } -> tensor<1x45xi64>
  %eb = tensor.empty() : tensor<37x45xi64>
  %rel = linalg.generic {indexing_maps = [affine_map<(i, j) -> (0, j)>, affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mem, %ctx : tensor<1x45xi64>, tensor<37x1xi64>) outs(%eb : tensor<37x45xi64>) {
  ^bb0(%a: i64, %b: i64, %o: i64):
    %d = arith.subi %a, %b : i64
    linalg.yield %d : i64
  } -> tensor<37x45xi64>
  // relative_buckets = (rel > 0).long() * 16; rel = abs(rel)
  %side = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%rel : tensor<37x45xi64>) outs(%eb : tensor<37x45xi64>) {
  ^bb0(%a: i64, %o: i64):
    %c0 = arith.constant 0 : i64
    %gt = arith.cmpi sgt, %a, %c0 : i64
    %g = arith.extui %gt : i1 to i64
    %c16 = arith.constant 16 : i64
    %r = arith.muli %g, %c16 : i64
    linalg.yield %r : i64
  } -> tensor<37x45xi64>
  %abs = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%rel : tensor<37x45xi64>) outs(%eb : tensor<37x45xi64>) {
  ^bb0(%a: i64, %o: i64):
    %r = math.absi %a : i64
    linalg.yield %r : i64
  } -> tensor<37x45xi64>
  // large = 8 + (log(abs / 8) / log(128 / 8) * (16 - 8)).long(); min(large, 15)
  %large = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%abs : tensor<37x45xi64>) outs(%eb : tensor<37x45xi64>) {
  ^bb0(%a: i64, %o: i64):
    %f = arith.sitofp %a : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %x = arith.divf %f, %c8 : f32
    %l = math.log %x : f32
    %den = arith.constant 2.77258873 : f32
    %y = arith.divf %l, %den : f32
    %c8b = arith.constant 8.0 : f32
    %z = arith.mulf %y, %c8b : f32
    %t = arith.fptosi %z : f32 to i64
    %c8i = arith.constant 8 : i64
    %u = arith.addi %t, %c8i : i64
    %c15 = arith.constant 15 : i64
    %w = arith.minsi %u, %c15 : i64
    linalg.yield %w : i64
  } -> tensor<37x45xi64>
  %bucket = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%abs, %large, %side : tensor<37x45xi64>, tensor<37x45xi64>, tensor<37x45xi64>) outs(%eb : tensor<37x45xi64>) {
  ^bb0(%a: i64, %lg: i64, %sd: i64, %o: i64):
    %c8 = arith.constant 8 : i64
    %small = arith.cmpi slt, %a, %c8 : i64
    %w = arith.select %small, %a, %lg : i64
    %r = arith.addi %sd, %w : i64
    linalg.yield %r : i64
  } -> tensor<37x45xi64>
  // values = embedding(bucket) : [Nq, Nk, H]; permute to [H, Nq, Nk]
  %ev = tensor.empty() : tensor<37x45x4xf32>
  %vals = linalg.generic {indexing_maps = [affine_map<(i, j, h) -> (i, j)>, affine_map<(i, j, h) -> (i, j, h)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bucket : tensor<37x45xi64>) outs(%ev : tensor<37x45x4xf32>) {
  ^bb0(%bk: i64, %o: f32):
    %h = linalg.index 2 : index
    %bi = arith.index_cast %bk : i64 to index
    %x = tensor.extract %emb[%bi, %h] : tensor<32x4xf32>
    linalg.yield %x : f32
  } -> tensor<37x45x4xf32>
  %et = tensor.empty() : tensor<4x37x45xf32>
  %bias = linalg.transpose ins(%vals : tensor<37x45x4xf32>) outs(%et : tensor<4x37x45xf32>) permutation = [2, 0, 1]
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %bias : tensor<4x37x45xf32>, tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %z = arith.addf %x, %b : f32
    linalg.yield %z : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// HF T5 decoder: unidirectional buckets (32, max_distance 128) of -min(j - (i + 8), 0), log path in f32, causal with offset 8; one payload.
// CHECK-LABEL: func.func @t5_decoder_causal_buckets
// CHECK: flash.attention {{.*}}causal
// CHECK: score_mod {
// CHECK: math.log
// CHECK: arith.fptosi
// CHECK: tensor.extract
// EXEC: t5_decoder_causal_buckets: raised=yes
func.func @t5_decoder_causal_buckets(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %emb: tensor<32x4xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %c8o = arith.constant 8 : i64
    %ii = arith.addi %i64, %c8o : i64
    %rel = arith.subi %j64, %ii : i64
    %c0 = arith.constant 0 : i64
    %mn = arith.minsi %rel, %c0 : i64
    %rp = arith.subi %c0, %mn : i64
    %c16 = arith.constant 16 : i64
    %small = arith.cmpi slt, %rp, %c16 : i64
    %f = arith.sitofp %rp : i64 to f32
    %c16f = arith.constant 16.0 : f32
    %x1 = arith.divf %f, %c16f : f32
    %l = math.log %x1 : f32
    %den = arith.constant 2.07944155 : f32
    %y = arith.divf %l, %den : f32
    %y2 = arith.mulf %y, %c16f : f32
    %t = arith.fptosi %y2 : f32 to i64
    %u = arith.addi %t, %c16 : i64
    %c31 = arith.constant 31 : i64
    %w = arith.minsi %u, %c31 : i64
    %bk = arith.select %small, %rp, %w : i64
    %bi = arith.index_cast %bk : i64 to index
    %bv = tensor.extract %emb[%bi, %h] : tensor<32x4xf32>
    %z = arith.addf %x, %bv : f32
    %keep = arith.cmpi sle, %j64, %ii : i64
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %z, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// Shaw et al. relative positions: clip(j - i, -4, 4) + 4 with cmpi/select on index, table [9, H].
// CHECK-LABEL: func.func @shaw_clip_select_index
// CHECK: flash.attention {{.*}} captures(%{{.*}} : tensor<9x4xf32>)
// CHECK: score_mod {
// CHECK: arith.select
// CHECK: tensor.extract
// EXEC: shaw_clip_select_index: raised=yes
func.func @shaw_clip_select_index(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %tab: tensor<9x4xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %d = arith.subi %j, %i : index
    %lo = arith.constant -4 : index
    %hi = arith.constant 4 : index
    %clo = arith.cmpi slt, %d, %lo : index
    %d1 = arith.select %clo, %lo, %d : index
    %chi = arith.cmpi sgt, %d1, %hi : index
    %d2 = arith.select %chi, %hi, %d1 : index
    %pos = arith.addi %d2, %hi : index
    %bv = tensor.extract %tab[%pos, %h] : tensor<9x4xf32>
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %z = arith.addf %y, %bv : f32
    linalg.yield %z : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// Not raised: the bias gathers from K itself (k[h, min(j, 3), 0]).
// REMARK-NOT: remark
// REMARK: remark: attention not raised: the scores add a value read from the query or key tensor outside their product
// CHECK-LABEL: func.func @negative_gather_from_k
// CHECK-NOT: flash.attention
func.func @negative_gather_from_k(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %j = linalg.index 2 : index
    %c3 = arith.constant 3 : index
    %c0 = arith.constant 0 : index
    %jj = arith.minsi %j, %c3 : index
    %bv = tensor.extract %k[%h, %jj, %c0] : tensor<4x45x16xf32>
    %z = arith.addf %x, %bv : f32
    linalg.yield %z : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// A bucket floor((j - i) / 3) clamped to [-5, 5] in f32, then fptosi to i32; table [H, 11].
// CHECK-LABEL: func.func @float_floor_clamp_bucket
// CHECK: flash.attention
// CHECK: score_mod {
// CHECK: arith.divf
// CHECK-NEXT: math.floor
// CHECK-NEXT: arith.constant -5.0
// CHECK-NEXT: arith.maximumf
// CHECK: arith.fptosi
// CHECK: tensor.extract
// EXEC: float_floor_clamp_bucket: raised=yes
func.func @float_floor_clamp_bucket(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %tab: tensor<4x11xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %d = arith.subi %j, %i : index
    %d64 = arith.index_cast %d : index to i64
    %df = arith.sitofp %d64 : i64 to f32
    %c3 = arith.constant 3.0 : f32
    %q3 = arith.divf %df, %c3 : f32
    %fl = math.floor %q3 : f32
    %lo = arith.constant -5.0 : f32
    %hi = arith.constant 5.0 : f32
    %a1 = arith.maximumf %fl, %lo : f32
    %a2 = arith.minimumf %a1, %hi : f32
    %a3 = arith.addf %a2, %hi : f32
    %ii = arith.fptosi %a3 : f32 to i32
    %ix = arith.index_cast %ii : i32 to index
    %bv = tensor.extract %tab[%h, %ix] : tensor<4x11xf32>
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %z = arith.addf %y, %bv : f32
    linalg.yield %z : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// Document mask seg[i + 8] == seg[min(j, 40)] (keys past 40 share the last id), i32 ids, finfo.min.
// CHECK-LABEL: func.func @document_mask_clamped_key
// CHECK: flash.attention {{.*}} captures(%{{.*}} : tensor<45xi32>)
// CHECK: mask_mod {
// CHECK: arith.minsi
// CHECK: tensor.extract
// CHECK: arith.cmpi eq
// EXEC: document_mask_clamped_key: raised=yes
func.func @document_mask_clamped_key(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %seg: tensor<45xi32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c8 = arith.constant 8 : index
    %c40 = arith.constant 40 : index
    %ik = arith.addi %i, %c8 : index
    %jk = arith.minsi %j, %c40 : index
    %si = tensor.extract %seg[%ik] : tensor<45xi32>
    %sj = tensor.extract %seg[%jk] : tensor<45xi32>
    %same = arith.cmpi eq, %si, %sj : i32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %ninf = arith.constant -3.40282347E+38 : f32
    %r = arith.select %same, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// A table read at an index computed from another tensor of the program: tab[clamp(fptosi(8 * m[i, j]), 0, 8), h] (both captured).
// CHECK-LABEL: func.func @gather_index_from_tensor
// CHECK: flash.attention {{.*}} captures(%{{.*}}, %{{.*}} : tensor<9x4xf32>, tensor<37x45xf32>)
// CHECK: score_mod {
// CHECK: arith.fptosi
// CHECK: tensor.extract
// EXEC: gather_index_from_tensor: raised=yes
func.func @gather_index_from_tensor(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %tab: tensor<9x4xf32>, %mt: tensor<37x45xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %mv = tensor.extract %mt[%i, %j] : tensor<37x45xf32>
    %c8f = arith.constant 8.0 : f32
    %mm = arith.mulf %mv, %c8f : f32
    %mi = arith.fptosi %mm : f32 to i32
    %c0i = arith.constant 0 : i32
    %c8i = arith.constant 8 : i32
    %m1 = arith.maxsi %mi, %c0i : i32
    %m2 = arith.minsi %m1, %c8i : i32
    %pos = arith.index_cast %m2 : i32 to index
    %bv = tensor.extract %tab[%pos, %h] : tensor<9x4xf32>
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %z = arith.addf %y, %bv : f32
    linalg.yield %z : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// Not raised: the table is read at positions computed from the raw scores (fptosi(q.k)), which a tiled product does not reproduce bit for bit.
// REMARK: remark: attention not raised: the scores add a table read at positions computed from the scores themselves
// CHECK-LABEL: func.func @negative_gather_index_from_score
// CHECK-NOT: flash.attention
func.func @negative_gather_index_from_score(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %tab: tensor<9x4xf32>) -> tensor<4x37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x37x16xf32>, tensor<4x45x16xf32>) outs(%z0 : tensor<4x37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x37x45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %mi = arith.fptosi %x : f32 to i32
    %c0i = arith.constant 0 : i32
    %c8i = arith.constant 8 : i32
    %m1 = arith.maxsi %mi, %c0i : i32
    %m2 = arith.minsi %m1, %c8i : i32
    %pos = arith.index_cast %m2 : i32 to index
    %bv = tensor.extract %tab[%pos, %h] : tensor<9x4xf32>
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %z = arith.addf %y, %bv : f32
    linalg.yield %z : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}
