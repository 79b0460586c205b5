// --flash-raise-attention="average-empty-rows=false" (what the FX front
// runs, whose reader maps the op alone back to torch): a finfo.min mask of
// positions that leaves rows without keys is refused, with the reason.
// (raise-tester-findings-4.mlir has the averaged forms, on by default.)
// RUN: flash-opt %s --flash-raise-attention="report=true average-empty-rows=false" --verify-diagnostics | FileCheck %s

// keep iff j == i + 40 with finfo.min: rows 5 and later have no key among
// 45.
// CHECK-LABEL: func.func @finfo_min_rows_without_keys
// CHECK-NOT: flash.attention
func.func @finfo_min_rows_without_keys(%q: tensor<37x16xf32>, %k: tensor<45x16xf32>, %v: tensor<45x16xf32>) -> tensor<37x16xf32> {
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
    %c40 = arith.constant 40 : index
    %i2 = arith.addi %i, %c40 : index
    %keep = arith.cmpi eq, %j, %i2 : index
    %y = arith.mulf %in0, %sc : f32
    %r = arith.select %keep, %y, %fmin : f32
    linalg.yield %r : f32
  } -> tensor<37x45xf32>
  %e1 = tensor.empty() : tensor<37x45xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<37x45xf32>) outs(%e1 : tensor<37x45xf32>) -> tensor<37x45xf32>
  %e3 = tensor.empty() : tensor<37x16xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  // expected-remark @+1 {{attention not raised: the mask fills with a finite stand-in for -inf (finfo.min, -1e9) and may leave rows without any key, where the program averages V uniformly (flash.attention gives 0; the average after the op is off: average-empty-rows=false)}}
  %o = linalg.matmul ins(%p, %v : tensor<37x45xf32>, tensor<45x16xf32>) outs(%z3 : tensor<37x16xf32>) -> tensor<37x16xf32>
  return %o : tensor<37x16xf32>
}
