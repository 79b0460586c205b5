// The raised program and the original unraised program, both run on the
// CPU on the same inputs, must agree (examples/demo.py exits non-zero when
// the max abs error exceeds 2e-5).
// RUN: %python %flash_src_root/examples/demo.py --input %s --build %flash_obj_root | FileCheck %s
// CHECK: flash.attention
// CHECK: max |fused - unfused|
func.func @attention(%q: tensor<3x100x48xf32>, %k: tensor<3x100x48xf32>,
                     %v: tensor<3x100x48xf32>) -> tensor<3x100x48xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<3x48x100xf32>
  %kt = linalg.transpose ins(%k : tensor<3x100x48xf32>) outs(%et : tensor<3x48x100xf32>) permutation = [0, 2, 1]
  %e0 = tensor.empty() : tensor<3x100x100xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3x100x100xf32>) -> tensor<3x100x100xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<3x100x48xf32>, tensor<3x48x100xf32>)
      outs(%z0 : tensor<3x100x100xf32>) -> tensor<3x100x100xf32>
  %e1 = tensor.empty() : tensor<3x100x100xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<3x100x100xf32>) outs(%e1 : tensor<3x100x100xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 6.92820323 : f32
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<3x100x100xf32>
  %e2 = tensor.empty() : tensor<3x100x100xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<3x100x100xf32>) outs(%e2 : tensor<3x100x100xf32>) -> tensor<3x100x100xf32>
  %e3 = tensor.empty() : tensor<3x100x48xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3x100x48xf32>) -> tensor<3x100x48xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<3x100x100xf32>, tensor<3x100x48xf32>)
      outs(%z3 : tensor<3x100x48xf32>) -> tensor<3x100x48xf32>
  return %o : tensor<3x100x48xf32>
}
