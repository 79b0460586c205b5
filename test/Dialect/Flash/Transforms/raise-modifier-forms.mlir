// Modifier forms found by probing the raise with spellings it had not seen
// (session 26): Mistral's log-of-0/1 mask, chunked attention by an
// equality of chunk indices (split into two bounds), j != i, log of a bool
// tensor as float, a window from tensor.generate, sinks, a sigmoid-spelled
// soft-cap, mixed -inf / finfo.min additive masks, an i8 mask tensor;
// masks stored as constants (a band of positions: TOSA's, GPT-2's buffer
// sliced by extract_slice) read as positions. Session 27: constants defined
// inside the payload (ALiBi's slopes as a dense literal), windows through
// maxsi (max(i - j, j - i), a lower bound clamped at 0), j >u i, a float
// mask blended in (s * m + (1 - m) * -1e9), BERT's -10000 key mask.
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL
// Mistral's reference mask: log(triu(tril(ones), -w)) added to the scores (log 0 = -inf)
// CHECK-LABEL: func.func @mistral_log_tril_triu
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK: mask_mod {
// CHECK-NOT: math.log
// CHECK: flash.yield
// EXEC: mistral_log_tril_triu: raised=yes
func.func @mistral_log_tril_triu(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %tr_e = tensor.empty() : tensor<37x45xf32>
  %tr = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%tr_e : tensor<37x45xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi sle, %j, %i : index
    %one = arith.constant 1.0 : f32
    %z = arith.constant 0.0 : f32
    %r = arith.select %keep, %one, %z : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %tu_e = tensor.empty() : tensor<37x45xf32>
  %tu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%tr : tensor<37x45xf32>) outs(%tu_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %lo = arith.subi %i, %c7 : index
    %keep = arith.cmpi sge, %j, %lo : index
    %z = arith.constant 0.0 : f32
    %r = arith.select %keep, %in0, %z : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %lg_e = tensor.empty() : tensor<37x45xf32>
  %lg = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%tu : tensor<37x45xf32>) outs(%lg_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = math.log %in0 : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %sm_e = tensor.empty() : tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s, %lg : tensor<37x45xf32>, tensor<37x45xf32>) outs(%sm_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %in0, %sc : f32
    %r = arith.addf %y, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  return %o : tensor<37x16xf32>
}

// -----

// Llama 4's chunked attention: i / c == j / c (unsigned), and causal; the equality is two bounds
// CHECK-LABEL: func.func @chunked_local_divui
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK: mask_mod {
// CHECK: arith.floordivsi
// CHECK: arith.cmpi sle
// CHECK: arith.andi
// EXEC: chunked_local_divui: raised=yes
func.func @chunked_local_divui(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %sm_e = tensor.empty() : tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<37x45xf32>) outs(%sm_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c8 = arith.constant 8 : index
    %ci = arith.divui %i, %c8 : index
    %cj = arith.divui %j, %c8 : index
    %same = arith.cmpi eq, %ci, %cj : index
    %causal = arith.cmpi ule, %j, %i : index
    %keep = arith.andi %same, %causal : i1
    %y = arith.mulf %in0, %sc : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  return %o : tensor<37x16xf32>
}

// -----

// the same in i64 with floordivsi
// CHECK-LABEL: func.func @chunked_floordivsi_i64_causal
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK: mask_mod {
// CHECK: arith.floordivsi
// EXEC: chunked_floordivsi_i64_causal: raised=yes
func.func @chunked_floordivsi_i64_causal(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %sm_e = tensor.empty() : tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<37x45xf32>) outs(%sm_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %c8 = arith.constant 8 : i64
    %ci = arith.floordivsi %i64, %c8 : i64
    %cj = arith.floordivsi %j64, %c8 : i64
    %same = arith.cmpi eq, %ci, %cj : i64
    %causal = arith.cmpi sge, %i64, %j64 : i64
    %keep = arith.andi %same, %causal : i1
    %y = arith.mulf %in0, %sc : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  return %o : tensor<37x16xf32>
}

// -----

// no attention to the own position: j != i
// CHECK-LABEL: func.func @no_self_attention_ne
// CHECK: flash.attention
// CHECK: mask_mod {
// CHECK: arith.cmpi ne
// EXEC: no_self_attention_ne: raised=yes
func.func @no_self_attention_ne(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %sm_e = tensor.empty() : tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<37x45xf32>) outs(%sm_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi ne, %j, %i : index
    %y = arith.mulf %in0, %sc : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  return %o : tensor<37x16xf32>
}

// -----

// log(mask.float()) of a bool tensor: the tensor as the mask operand
// CHECK-LABEL: func.func @log_of_bool_mask_as_float
// CHECK: flash.attention {{.*}}mask(%{{.*}} : tensor<37x45xi1>)
// CHECK-NOT: math.log
// EXEC: log_of_bool_mask_as_float: raised=yes
func.func @log_of_bool_mask_as_float(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>, %mk: tensor<37x45xi1>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %mf_e = tensor.empty() : tensor<37x45xf32>
  %mf = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mk : tensor<37x45xi1>) outs(%mf_e : tensor<37x45xf32>) {
  ^bb0(%in0: i1, %out: f32):
    %f = arith.uitofp %in0 : i1 to f32
    linalg.yield %f : f32
  } -> tensor<37x45xf32>
  %sm_e = tensor.empty() : tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s, %mf : tensor<37x45xf32>, tensor<37x45xf32>) outs(%sm_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %in0, %sc : f32
    %l = math.log %in1 : f32
    %r = arith.addf %y, %l : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  return %o : tensor<37x16xf32>
}

// -----

// a window as j == clamp(j, i - w, i)
// CHECK-LABEL: func.func @window_clamp_equality
// CHECK: flash.attention
// CHECK: mask_mod {
// EXEC: window_clamp_equality: raised=yes
func.func @window_clamp_equality(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %sm_e = tensor.empty() : tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<37x45xf32>) outs(%sm_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c6 = arith.constant 6 : index
    %lo = arith.subi %i, %c6 : index
    %a = arith.maxsi %j, %lo : index
    %cl = arith.minsi %a, %i : index
    %keep = arith.cmpi eq, %cl, %j : index
    %y = arith.mulf %in0, %sc : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  return %o : tensor<37x16xf32>
}

// -----

// attention sinks or a window, under causal
// CHECK-LABEL: func.func @sinks_plus_window_or
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK: mask_mod {
// EXEC: sinks_plus_window_or: raised=yes
func.func @sinks_plus_window_or(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %sm_e = tensor.empty() : tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<37x45xf32>) outs(%sm_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %sink = arith.cmpi slt, %j, %c2 : index
    %lo = arith.subi %i, %c5 : index
    %inw = arith.cmpi sge, %j, %lo : index
    %causal = arith.cmpi sle, %j, %i : index
    %k1 = arith.ori %sink, %inw : i1
    %keep = arith.andi %k1, %causal : i1
    %y = arith.mulf %in0, %sc : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  return %o : tensor<37x16xf32>
}

// -----

// a soft-cap with tanh spelled as 2 sigmoid(2x) - 1
// CHECK-LABEL: func.func @softcap_via_sigmoid
// CHECK: flash.attention
// CHECK: score_mod {
// CHECK: math.exp
// EXEC: softcap_via_sigmoid: raised=yes
func.func @softcap_via_sigmoid(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %sm_e = tensor.empty() : tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<37x45xf32>) outs(%sm_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %sc = arith.constant 0.25 : f32
    %c = arith.constant 5.0 : f32
    %two = arith.constant 2.0 : f32
    %one = arith.constant 1.0 : f32
    %y = arith.mulf %in0, %sc : f32
    %t = arith.divf %y, %c : f32
    %t2 = arith.mulf %t, %two : f32
    %nt = arith.negf %t2 : f32
    %ex = math.exp %nt : f32
    %den = arith.addf %ex, %one : f32
    %sg = arith.divf %one, %den : f32
    %s2 = arith.mulf %sg, %two : f32
    %th = arith.subf %s2, %one : f32
    %r = arith.mulf %th, %c : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  return %o : tensor<37x16xf32>
}

// -----

// a window built by tensor.generate
// CHECK-LABEL: func.func @window_tensor_generate_i1
// CHECK-NOT: tensor.generate
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK: mask_mod {
// EXEC: window_tensor_generate_i1: raised=yes
func.func @window_tensor_generate_i1(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %wm = tensor.generate {
  ^bb0(%i: index, %j: index):
    %c4 = arith.constant 4 : index
    %lo = arith.subi %i, %c4 : index
    %a = arith.cmpi sge, %j, %lo : index
    %b = arith.cmpi sle, %j, %i : index
    %keep = arith.andi %a, %b : i1
    tensor.yield %keep : i1
  } : tensor<37x45xi1>
  %sm_e = tensor.empty() : tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s, %wm : tensor<37x45xf32>, tensor<37x45xi1>) outs(%sm_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %in1: i1, %out: f32):
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %in0, %sc : f32
    %r = arith.select %in1, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  return %o : tensor<37x16xf32>
}

// -----

// two additive masks, one -inf (causal), one finfo.min (a window)
// CHECK-LABEL: func.func @two_additive_masks_inf_and_finfo
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK: mask_mod {
// EXEC: two_additive_masks_inf_and_finfo: raised=yes
func.func @two_additive_masks_inf_and_finfo(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %m1_e = tensor.empty() : tensor<37x45xf32>
  %m1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%m1_e : tensor<37x45xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi sle, %j, %i : index
    %z = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.select %c, %z, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %m2_e = tensor.empty() : tensor<37x45xf32>
  %m2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%m2_e : tensor<37x45xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %d = arith.subi %i, %j : index
    %c = arith.cmpi sle, %d, %c3 : index
    %z = arith.constant 0.0 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %r = arith.select %c, %z, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %sm_e = tensor.empty() : tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s, %m1, %m2 : tensor<37x45xf32>, tensor<37x45xf32>, tensor<37x45xf32>) outs(%sm_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %in1: f32, %in2: f32, %out: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %in0, %sc : f32
    %a = arith.addf %y, %in1 : f32
    %r = arith.addf %a, %in2 : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  return %o : tensor<37x16xf32>
}

// -----

// (1 - window) * -1e9 added: -1e9 reads as -inf, exact here since every row
// sees its diagonal (a row without keys is refused: raise-remarks.mlir)
// CHECK-LABEL: func.func @window_float01_times_minus_1e9
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK-NOT: score_mod
// CHECK: mask_mod {
// EXEC: window_float01_times_minus_1e9: raised=yes
func.func @window_float01_times_minus_1e9(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %wm_e = tensor.empty() : tensor<37x45xf32>
  %wm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%wm_e : tensor<37x45xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %lo = arith.subi %i, %c5 : index
    %a = arith.cmpi sge, %j, %lo : index
    %b = arith.cmpi sle, %j, %i : index
    %keep = arith.andi %a, %b : i1
    %f = arith.uitofp %keep : i1 to f32
    linalg.yield %f : f32
  } -> tensor<37x45xf32>
  %sm_e = tensor.empty() : tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s, %wm : tensor<37x45xf32>, tensor<37x45xf32>) outs(%sm_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %sc = arith.constant 0.25 : f32
    %one = arith.constant 1.0 : f32
    %big = arith.constant -1.0e+09 : f32
    %y = arith.mulf %in0, %sc : f32
    %inv = arith.subf %one, %in1 : f32
    %add = arith.mulf %inv, %big : f32
    %r = arith.addf %y, %add : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  return %o : tensor<37x16xf32>
}

// -----

// an i8 mask tensor, nonzero = seen: read by the mask_mod
// CHECK-LABEL: func.func @mask_i8_nonzero
// CHECK: flash.attention {{.*}}captures(%{{.*}} : tensor<37x45xi8>)
// CHECK: mask_mod {
// CHECK: arith.cmpi ne
// EXEC: mask_i8_nonzero: raised=yes
func.func @mask_i8_nonzero(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>, %mk: tensor<37x45xi8>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %sm_e = tensor.empty() : tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s, %mk : tensor<37x45xf32>, tensor<37x45xi8>) outs(%sm_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %in1: i8, %out: f32):
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %z = arith.constant 0 : i8
    %keep = arith.cmpi ne, %in1, %z : i8
    %y = arith.mulf %in0, %sc : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  return %o : tensor<37x16xf32>
}

// -----

// torch's old generate_square_subsequent_mask: a float 0 / 1 lower triangle,
// masked_fill(m == 0, -inf).masked_fill(m == 1, 0.0), added to the scores.
// CHECK-LABEL: func.func @torch_square_subsequent_mask_float
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// EXEC: torch_square_subsequent_mask_float: raised=yes
func.func @torch_square_subsequent_mask_float(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %tri_e = tensor.empty() : tensor<37x45xf32>
  %tri = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%tri_e : tensor<37x45xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi sle, %j, %i : index
    %one = arith.constant 1.0 : f32
    %z = arith.constant 0.0 : f32
    %r = arith.select %c, %one, %z : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %mk_e = tensor.empty() : tensor<37x45xf32>
  %mk = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%tri : tensor<37x45xf32>) outs(%mk_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %is0 = arith.cmpf oeq, %in0, %z : f32
    %a = arith.select %is0, %ninf, %in0 : f32
    %is1 = arith.cmpf oeq, %in0, %one : f32
    %r = arith.select %is1, %z, %a : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %sm_e = tensor.empty() : tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s, %mk : tensor<37x45xf32>, tensor<37x45xf32>) outs(%sm_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %in0, %sc : f32
    %r = arith.addf %y, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  return %o : tensor<37x16xf32>
}

// -----

// Hugging Face's sliding window with dynamic sizes: bottom-right causal, finfo.min (the diagonal is every row's key)
// CHECK-LABEL: func.func @dyn_window_bottom_right_finfo_min
// CHECK: flash.attention {{.*}}causal
// CHECK: mask_mod {
// SIZES: 37, 45, 45
// EXEC: dyn_window_bottom_right_finfo_min: raised=yes
func.func @dyn_window_bottom_right_finfo_min(%q: tensor<4x?x16xf32>, %k: tensor<4x?x16xf32>, %v: tensor<4x?x16xf32>) -> tensor<4x?x16xf32> {
  %zero = arith.constant 0.0 : f32
  %cq = arith.constant 1 : index
  %ck = arith.constant 1 : index
  %nq = tensor.dim %q, %cq : tensor<4x?x16xf32>
  %nk = tensor.dim %k, %ck : tensor<4x?x16xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<4x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x?x16xf32>, tensor<4x?x16xf32>) outs(%z0 : tensor<4x?x?xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x?x?xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x?x?xf32>) outs(%e0 : tensor<4x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant -3.40282347E+38 : f32
    %y = arith.mulf %x, %sc : f32
    %off = arith.subi %nk, %nq : index
    %ia = arith.addi %i, %off : index
    %i64 = arith.index_cast %ia : index to i64
    %j64 = arith.index_cast %j : index to i64
    %c10 = arith.constant 10 : i64
    %c = arith.cmpi sle, %j64, %i64 : i64
    %d = arith.subi %i64, %j64 : i64
    %inw = arith.cmpi slt, %d, %c10 : i64
    %keep = arith.andi %c, %inw : i1
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x?x?xf32>
  %e1 = tensor.empty(%nq, %nk) : tensor<4x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x?x?xf32>) outs(%e1 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<4x?x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x?x16xf32>) -> tensor<4x?x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x?x?xf32>, tensor<4x?x16xf32>) outs(%z3 : tensor<4x?x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x?x16xf32>
  return %o32 : tensor<4x?x16xf32>
}

// -----

// chunked attention with dynamic sizes
// CHECK-LABEL: func.func @dyn_chunked_eq
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK: mask_mod {
// SIZES: 37, 45, 45
// EXEC: dyn_chunked_eq: raised=yes
func.func @dyn_chunked_eq(%q: tensor<4x?x16xf32>, %k: tensor<4x?x16xf32>, %v: tensor<4x?x16xf32>) -> tensor<4x?x16xf32> {
  %zero = arith.constant 0.0 : f32
  %cq = arith.constant 1 : index
  %ck = arith.constant 1 : index
  %nq = tensor.dim %q, %cq : tensor<4x?x16xf32>
  %nk = tensor.dim %k, %ck : tensor<4x?x16xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<4x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x?x16xf32>, tensor<4x?x16xf32>) outs(%z0 : tensor<4x?x?xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x?x?xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x?x?xf32>) outs(%e0 : tensor<4x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %y = arith.mulf %x, %sc : f32
    %c8 = arith.constant 8 : index
    %ci = arith.divui %i, %c8 : index
    %cj = arith.divui %j, %c8 : index
    %same = arith.cmpi eq, %ci, %cj : index
    %c = arith.cmpi sle, %j, %i : index
    %keep = arith.andi %same, %c : i1
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x?x?xf32>
  %e1 = tensor.empty(%nq, %nk) : tensor<4x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x?x?xf32>) outs(%e1 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<4x?x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x?x16xf32>) -> tensor<4x?x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x?x?xf32>, tensor<4x?x16xf32>) outs(%z3 : tensor<4x?x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x?x16xf32>
  return %o32 : tensor<4x?x16xf32>
}

// -----

// the same with finfo.min (the diagonal is every row's key)
// CHECK-LABEL: func.func @dyn_chunked_eq_finfo_min
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK: mask_mod {
// SIZES: 37, 45, 45
// EXEC: dyn_chunked_eq_finfo_min: raised=yes
func.func @dyn_chunked_eq_finfo_min(%q: tensor<4x?x16xf32>, %k: tensor<4x?x16xf32>, %v: tensor<4x?x16xf32>) -> tensor<4x?x16xf32> {
  %zero = arith.constant 0.0 : f32
  %cq = arith.constant 1 : index
  %ck = arith.constant 1 : index
  %nq = tensor.dim %q, %cq : tensor<4x?x16xf32>
  %nk = tensor.dim %k, %ck : tensor<4x?x16xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<4x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x?x16xf32>, tensor<4x?x16xf32>) outs(%z0 : tensor<4x?x?xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x?x?xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x?x?xf32>) outs(%e0 : tensor<4x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant -3.40282347E+38 : f32
    %y = arith.mulf %x, %sc : f32
    %c8 = arith.constant 8 : index
    %ci = arith.divui %i, %c8 : index
    %cj = arith.divui %j, %c8 : index
    %same = arith.cmpi eq, %ci, %cj : index
    %c = arith.cmpi sle, %j, %i : index
    %keep = arith.andi %same, %c : i1
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x?x?xf32>
  %e1 = tensor.empty(%nq, %nk) : tensor<4x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x?x?xf32>) outs(%e1 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<4x?x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x?x16xf32>) -> tensor<4x?x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x?x?xf32>, tensor<4x?x16xf32>) outs(%z3 : tensor<4x?x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x?x16xf32>
  return %o32 : tensor<4x?x16xf32>
}

// -----

// |i - j| <= 3 with finfo.min and dynamic sizes
// CHECK-LABEL: func.func @dyn_symmetric_window_finfo_min
// CHECK: flash.attention
// CHECK: mask_mod {
// SIZES: 37, 45, 45
// EXEC: dyn_symmetric_window_finfo_min: raised=yes
func.func @dyn_symmetric_window_finfo_min(%q: tensor<4x?x16xf32>, %k: tensor<4x?x16xf32>, %v: tensor<4x?x16xf32>) -> tensor<4x?x16xf32> {
  %zero = arith.constant 0.0 : f32
  %cq = arith.constant 1 : index
  %ck = arith.constant 1 : index
  %nq = tensor.dim %q, %cq : tensor<4x?x16xf32>
  %nk = tensor.dim %k, %ck : tensor<4x?x16xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<4x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x?x16xf32>, tensor<4x?x16xf32>) outs(%z0 : tensor<4x?x?xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x?x?xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x?x?xf32>) outs(%e0 : tensor<4x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    
    %sc = arith.constant 0.25 : f32
    %ninf = arith.constant -3.40282347E+38 : f32
    %y = arith.mulf %x, %sc : f32
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %dd = arith.subi %ii, %jj : i64
    %ab = math.absi %dd : i64
    %c3 = arith.constant 3 : i64
    %keep = arith.cmpi sle, %ab, %c3 : i64
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x?x?xf32>
  %e1 = tensor.empty(%nq, %nk) : tensor<4x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x?x?xf32>) outs(%e1 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<4x?x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x?x16xf32>) -> tensor<4x?x16xf32>
  %o32 = linalg.generic {indexing_maps = [affine_map<(h, i, e, j) -> (h, i, j)>, affine_map<(h, i, e, j) -> (h, j, e)>, affine_map<(h, i, e, j) -> (h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<4x?x?xf32>, tensor<4x?x16xf32>) outs(%z3 : tensor<4x?x16xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x?x16xf32>
  return %o32 : tensor<4x?x16xf32>
}

// -----

// TOSA soft-cap: tosa.mul by 1 / c, tosa.tanh, tosa.mul by c
// CHECK-LABEL: func.func @tosa_softcap_tanh
// CHECK: flash.attention
// CHECK: score_mod {
// CHECK: math.tanh
// EXEC: tosa_softcap_tanh: raised=yes
func.func @tosa_softcap_tanh(%q: tensor<2x13x8xf32>, %kt: tensor<2x8x17xf32>, %v: tensor<2x17x8xf32>) -> tensor<2x13x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sc = "tosa.const"() <{values = dense<0.35355339> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %rc = "tosa.const"() <{values = dense<0.2> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %cap = "tosa.const"() <{values = dense<5.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x13x8xf32>, tensor<2x8x17xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x13x17xf32>
  %s1 = tosa.mul %s, %sc, %shift : (tensor<2x13x17xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x13x17xf32>
  %s2 = tosa.mul %s1, %rc, %shift : (tensor<2x13x17xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x13x17xf32>
  %th = tosa.tanh %s2 : (tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %x = tosa.mul %th, %cap, %shift : (tensor<2x13x17xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x13x17xf32>
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x13x17xf32>) -> tensor<2x13x1xf32>
  %t = tosa.sub %x, %m : (tensor<2x13x17xf32>, tensor<2x13x1xf32>) -> tensor<2x13x17xf32>
  %e = tosa.exp %t : (tensor<2x13x17xf32>) -> tensor<2x13x17xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x13x17xf32>) -> tensor<2x13x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x13x1xf32>) -> tensor<2x13x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x13x17xf32>, tensor<2x13x1xf32>, tensor<1xi8>) -> tensor<2x13x17xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x13x17xf32>, tensor<2x17x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x13x8xf32>
  return %o : tensor<2x13x8xf32>
}

// -----

// TOSA: a sliding window as a constant i1 band (TOSA has no iota), recognized as positions
// CHECK-LABEL: func.func @tosa_window_const_mask
// CHECK-NOT: tosa.const
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK: mask_mod {
// EXEC: tosa_window_const_mask: raised=yes
func.func @tosa_window_const_mask(%q: tensor<2x6x8xf32>, %kt: tensor<2x8x6xf32>, %v: tensor<2x6x8xf32>) -> tensor<2x6x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %sc = "tosa.const"() <{values = dense<0.35355339> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %mask = "tosa.const"() <{values = dense<[[[true, false, false, false, false, false], [true, true, false, false, false, false], [false, true, true, false, false, false], [false, false, true, true, false, false], [false, false, false, true, true, false], [false, false, false, false, true, true]]]> : tensor<1x6x6xi1>}> : () -> tensor<1x6x6xi1>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x6x8xf32>, tensor<2x8x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x6xf32>
  %s1 = tosa.mul %s, %sc, %shift : (tensor<2x6x6xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x6x6xf32>
  %x = tosa.select %mask, %s1, %ninf : (tensor<1x6x6xi1>, tensor<2x6x6xf32>, tensor<1x1x1xf32>) -> tensor<2x6x6xf32>
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x6x6xf32>) -> tensor<2x6x1xf32>
  %t = tosa.sub %x, %m : (tensor<2x6x6xf32>, tensor<2x6x1xf32>) -> tensor<2x6x6xf32>
  %e = tosa.exp %t : (tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x6x6xf32>) -> tensor<2x6x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x6x1xf32>) -> tensor<2x6x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x6x6xf32>, tensor<2x6x1xf32>, tensor<1xi8>) -> tensor<2x6x6xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x6x6xf32>, tensor<2x6x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x6x8xf32>
  return %o : tensor<2x6x8xf32>
}

// -----

// GPT-2's causal mask: a constant lower-triangular `bias` buffer [1, 1, 16, 16] sliced at rows Nk - Nq .. Nk, finfo.min
// CHECK-LABEL: func.func @gpt2_bias_buffer_slice
// CHECK: flash.attention {{.*}}causal, causal_offset = 7
// EXEC: gpt2_bias_buffer_slice: raised=yes
func.func @gpt2_bias_buffer_slice(%q: tensor<2x3x5x8xf32>, %k: tensor<2x3x12x8xf32>, %v: tensor<2x3x12x8xf32>) -> tensor<2x3x5x8xf32> {
  %zero = arith.constant 0.0 : f32
  %bias = arith.constant dense<[[[[true, false, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, false, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, false, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, false, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, false, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, false, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, false, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, false, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, false, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, false, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, false, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, false, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, false], [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]]]]> : tensor<1x1x16x16xi1>
  %cm = tensor.extract_slice %bias[0, 0, 7, 0] [1, 1, 5, 12] [1, 1, 1, 1] : tensor<1x1x16x16xi1> to tensor<1x1x5x12xi1>
  %e0 = tensor.empty() : tensor<2x3x5x12xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x3x5x12xf32>) -> tensor<2x3x5x12xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x3x5x8xf32>, tensor<2x3x12x8xf32>) outs(%z0 : tensor<2x3x5x12xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x5x12xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (0, 0, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %cm : tensor<2x3x5x12xf32>, tensor<1x1x5x12xi1>) outs(%e0 : tensor<2x3x5x12xf32>) {
  ^bb0(%x: f32, %keep: i1, %o: f32):
    %sc = arith.constant 0.35355339 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %y = arith.mulf %x, %sc : f32
    %r = arith.select %keep, %y, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<2x3x5x12xf32>
  %e1 = tensor.empty() : tensor<2x3x5x12xf32>
  %p = linalg.softmax dimension(3) ins(%sm : tensor<2x3x5x12xf32>) outs(%e1 : tensor<2x3x5x12xf32>) -> tensor<2x3x5x12xf32>
  %e3 = tensor.empty() : tensor<2x3x5x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x3x5x8xf32>) -> tensor<2x3x5x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e, j) -> (b, h, i, j)>, affine_map<(b, h, i, e, j) -> (b, h, j, e)>, affine_map<(b, h, i, e, j) -> (b, h, i, e)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x3x5x12xf32>, tensor<2x3x12x8xf32>) outs(%z3 : tensor<2x3x5x8xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x3x5x8xf32>
  return %o : tensor<2x3x5x8xf32>
}

// -----

// an additive constant triu(-inf, 1)
// CHECK-LABEL: func.func @additive_triu_neg_inf_constant
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// EXEC: additive_triu_neg_inf_constant: raised=yes
func.func @additive_triu_neg_inf_constant(%q: tensor<12x8xf32>, %k: tensor<12x8xf32>, %v: tensor<12x8xf32>) -> tensor<12x8xf32> {
  %zero = arith.constant 0.0 : f32
  %mask = arith.constant dense<[[0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]> : tensor<12x12xf32>
  %e0 = tensor.empty() : tensor<12x12xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<12x12xf32>) -> tensor<12x12xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q, %k : tensor<12x8xf32>, tensor<12x8xf32>) outs(%z0 : tensor<12x12xf32>) -> tensor<12x12xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %mask : tensor<12x12xf32>, tensor<12x12xf32>) outs(%e0 : tensor<12x12xf32>) {
  ^bb0(%x: f32, %mk: f32, %o: f32):
    %sc = arith.constant 0.35355339 : f32
    %y = arith.mulf %x, %sc : f32
    %r = arith.addf %y, %mk : f32
    linalg.yield %r : f32
  } -> tensor<12x12xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<12x12xf32>) outs(%e0 : tensor<12x12xf32>) -> tensor<12x12xf32>
  %e3 = tensor.empty() : tensor<12x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<12x8xf32>) -> tensor<12x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<12x12xf32>, tensor<12x8xf32>) outs(%z3 : tensor<12x8xf32>) -> tensor<12x8xf32>
  return %o : tensor<12x8xf32>
}

// -----

// keep iff j == 44 - i with finfo.min: no key every row sees, but each row
// has one (found by evaluating the predicate at every position), so the
// program is raised.
// CHECK-LABEL: func.func @anti_diagonal_finfo_min
// CHECK: flash.attention
// CHECK-SAME: mask_mod
// EXEC: anti_diagonal_finfo_min: raised=yes
func.func @anti_diagonal_finfo_min(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<37x45xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, d) -> (i, d)>, affine_map<(i, j, d) -> (j, d)>, affine_map<(i, j, d) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<37x16xf32>, tensor<45x16xf32>) outs(%z0 : tensor<37x45xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %sm_e = tensor.empty() : tensor<37x45xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<37x45xf32>) outs(%sm_e : tensor<37x45xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %sc = arith.constant 0.25 : f32
    %fmin = arith.constant -3.40282347E+38 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.constant 44 : index
    %ai = arith.subi %c, %i : index
    %keep = arith.cmpi eq, %j, %ai : index
    %y = arith.mulf %in0, %sc : f32
    %r = arith.select %keep, %y, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  return %o : tensor<37x16xf32>
}

// -----

// a symmetric ALiBi, scale * s - slopes[h] * |i - j|, its slopes a dense literal inside the payload (cloned out as a capture)
// CHECK-LABEL: func.func @sym_alibi_abs
// CHECK: %[[SL:.*]] = arith.constant dense<[5.000000e-01, 2.500000e-01, 1.250000e-01, 6.250000e-02]> : tensor<4xf32>
// CHECK: flash.attention {{.*}}captures(%[[SL]] : tensor<4xf32>)
// CHECK: score_mod {
// CHECK: tensor.extract
// EXEC: sym_alibi_abs: raised=yes
func.func @sym_alibi_abs(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
    %slopes = arith.constant dense<[0.5, 0.25, 0.125, 0.0625]> : tensor<4xf32>
    %sl = tensor.extract %slopes[%h] : tensor<4xf32>
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %i64, %j64 : i64
    %ad = math.absi %d : i64
    %adf = arith.sitofp %ad : i64 to f32
    %b = arith.mulf %sl, %adf : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %r = arith.subf %y, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// a symmetric window spelled max(i - j, j - i) > 6 -> masked: the window's two affine bounds
// CHECK-LABEL: func.func @window_maxsi
// CHECK: flash.attention {{.*}}causal, causal_offset = 6
// CHECK: mask_mod {
// CHECK-NOT: arith.maxsi
// CHECK: flash.yield
// EXEC: window_maxsi: raised=yes
func.func @window_maxsi(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
    %a1 = arith.subi %i, %j : index
    %a2 = arith.subi %j, %i : index
    %ad = arith.maxsi %a1, %a2 : index
    %w = arith.constant 6 : index
    %far = arith.cmpi sgt, %ad, %w : index
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.select %far, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// causal as j >u i -> masked
// CHECK-LABEL: func.func @causal_ugt_masked
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK-NOT: mask_mod
// EXEC: causal_ugt_masked: raised=yes
func.func @causal_ugt_masked(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
    %fut = arith.cmpi ugt, %j, %i : index
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.select %fut, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// a window whose lower bound is clamped at 0: j >= max(i - 5, 0)
// CHECK-LABEL: func.func @window_clamped_lo
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK: mask_mod {
// CHECK-NOT: arith.maxsi
// CHECK: flash.yield
// EXEC: window_clamped_lo: raised=yes
func.func @window_clamped_lo(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
    %w = arith.constant 5 : index
    %c0 = arith.constant 0 : index
    %lo0 = arith.subi %i, %w : index
    %lo = arith.maxsi %lo0, %c0 : index
    %ge = arith.cmpi sge, %j, %lo : index
    %le = arith.cmpi sle, %j, %i : index
    %keep = arith.andi %ge, %le : i1
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// a dilated causal mask, (i - j) mod 2 == 0 (a predicate: a block mask on the GPU)
// CHECK-LABEL: func.func @dilated_mod2
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK: mask_mod {
// CHECK: flash.yield
// EXEC: dilated_mod2: raised=yes
func.func @dilated_mod2(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
    %d = arith.subi %i, %j : index
    %c2 = arith.constant 2 : index
    %m2 = arith.remsi %d, %c2 : index
    %c0 = arith.constant 0 : index
    %even = arith.cmpi eq, %m2, %c0 : index
    %le = arith.cmpi sle, %j, %i : index
    %keep = arith.andi %even, %le : i1
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.select %keep, %y, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// Gemma-like: soft-cap, then ALiBi from an in-payload slope literal, then a window with finfo.min
// CHECK-LABEL: func.func @softcap_then_alibi_window
// CHECK: flash.attention {{.*}}captures(%{{.*}} : tensor<4xf32>){{.*}}causal, causal_offset = 0
// CHECK: score_mod {
// CHECK: math.tanh
// CHECK: mask_mod {
// EXEC: softcap_then_alibi_window: raised=yes
func.func @softcap_then_alibi_window(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
    %slopes = arith.constant dense<[0.5, 0.25, 0.125, 0.0625]> : tensor<4xf32>
    %sl = tensor.extract %slopes[%h] : tensor<4xf32>
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %cap = arith.constant 3.0 : f32
    %rc = arith.constant 0.33333334 : f32
    %y1 = arith.mulf %y, %rc : f32
    %t = math.tanh %y1 : f32
    %y2 = arith.mulf %t, %cap : f32
    %i32 = arith.index_cast %i : index to i32
    %j32 = arith.index_cast %j : index to i32
    %dj = arith.subi %j32, %i32 : i32
    %df = arith.sitofp %dj : i32 to f32
    %b = arith.mulf %sl, %df : f32
    %y3 = arith.addf %y2, %b : f32
    %w = arith.constant -8 : i32
    %ge = arith.cmpi sge, %dj, %w : i32
    %c0 = arith.constant 0 : i32
    %le = arith.cmpi sle, %dj, %c0 : i32
    %keep = arith.andi %ge, %le : i1
    %ninf = arith.constant -3.40282347E+38 : f32
    %r = arith.select %keep, %y3, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// BERT's extended key mask, (1 - m) * -10000 added: an additive mask operand (finite: kept exact)
// CHECK-LABEL: func.func @bert_keymask_10000
// CHECK: flash.attention {{.*}}mask(%{{.*}} : tensor<1x1x45xf32>)
// EXEC: bert_keymask_10000: raised=yes
func.func @bert_keymask_10000(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>, %kmask: tensor<45xf32>) -> tensor<4x37x16xf32> {
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
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %kmask : tensor<4x37x45xf32>, tensor<45xf32>) outs(%e0 : tensor<4x37x45xf32>) {
  ^bb0(%x: f32, %km: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %one = arith.constant 1.0 : f32
    %inv = arith.subf %one, %km : f32
    %neg = arith.constant -10000.0 : f32
    %add = arith.mulf %inv, %neg : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %r = arith.addf %y, %add : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// a mask as float blended in: s * m + (1 - m) * -1e9 (TF style): the indicator's products are a select, so causal
// CHECK-LABEL: func.func @mul_mask_blend
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK-NOT: score_mod
// CHECK-NOT: mask_mod
// EXEC: mul_mask_blend: raised=yes
func.func @mul_mask_blend(%q: tensor<4x37x16xf32>, %k: tensor<4x45x16xf32>, %v: tensor<4x45x16xf32>) -> tensor<4x37x16xf32> {
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
    %le = arith.cmpi ule, %j, %i : index
    %mf = arith.uitofp %le : i1 to f32
    %one = arith.constant 1.0 : f32
    %inv = arith.subf %one, %mf : f32
    %neg = arith.constant -1.0e9 : f32
    %pen = arith.mulf %inv, %neg : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %ym = arith.mulf %y, %mf : f32
    %r = arith.addf %ym, %pen : f32
    linalg.yield %r : f32
  } -> tensor<4x37x45xf32>
  %e1 = tensor.empty() : tensor<4x37x45xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x37x45xf32>) outs(%e1 : tensor<4x37x45xf32>) -> tensor<4x37x45xf32>
  %e3 = tensor.empty() : tensor<4x37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x37x45xf32>, tensor<4x45x16xf32>) outs(%z3 : tensor<4x37x16xf32>) -> tensor<4x37x16xf32>
  return %o32 : tensor<4x37x16xf32>
}

// -----

// the symmetric ALiBi with runtime lengths: its |i - j| vectorized on the CPU
// (math.absi on vector<1x32xi64>, which upstream's math-to-llvm does not
// lower: flash-vectorize-cpu rewrites it as maxsi(x, -x))
// CHECK-LABEL: func.func @dyn_sym_alibi_abs
// CHECK: flash.attention {{.*}}captures(%{{.*}} : tensor<4xf32>)
// CHECK: score_mod {
// EXEC: dyn_sym_alibi_abs: raised=yes
func.func @dyn_sym_alibi_abs(%q: tensor<4x?x16xf32>, %k: tensor<4x?x16xf32>, %v: tensor<4x?x16xf32>) -> tensor<4x?x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %nq = tensor.dim %q, %c1 : tensor<4x?x16xf32>
  %nk = tensor.dim %k, %c1 : tensor<4x?x16xf32>
  %e0 = tensor.empty(%nq, %nk) : tensor<4x?x?xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(h, i, j, d) -> (h, i, d)>, affine_map<(h, i, j, d) -> (h, j, d)>, affine_map<(h, i, j, d) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x?x16xf32>, tensor<4x?x16xf32>) outs(%z0 : tensor<4x?x?xf32>) {
  ^bb0(%a: f32, %bb: f32, %c: f32):
    %m = arith.mulf %a, %bb : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<4x?x?xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(h, i, j) -> (h, i, j)>, affine_map<(h, i, j) -> (h, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x?x?xf32>) outs(%e0 : tensor<4x?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %slopes = arith.constant dense<[0.5, 0.25, 0.125, 0.0625]> : tensor<4xf32>
    %sl = tensor.extract %slopes[%h] : tensor<4xf32>
    %i64 = arith.index_cast %i : index to i64
    %j64 = arith.index_cast %j : index to i64
    %d = arith.subi %i64, %j64 : i64
    %ad = math.absi %d : i64
    %adf = arith.sitofp %ad : i64 to f32
    %b = arith.mulf %sl, %adf : f32
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %x, %sc : f32
    %r = arith.subf %y, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x?x?xf32>
  %e1 = tensor.empty(%nq, %nk) : tensor<4x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%sm : tensor<4x?x?xf32>) outs(%e1 : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %e3 = tensor.empty(%nq) : tensor<4x?x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x?x16xf32>) -> tensor<4x?x16xf32>
  %o32 = linalg.batch_matmul ins(%p, %v : tensor<4x?x?xf32>, tensor<4x?x16xf32>) outs(%z3 : tensor<4x?x16xf32>) -> tensor<4x?x16xf32>
  return %o32 : tensor<4x?x16xf32>
}
