// Multi-head attention as a frontend emits it: Q K^T with a transposing
// batch_matmul, a scale, a softmax over the keys, and P V.
// q, k, v: [batch * heads, seq, head_dim] = [8, 1000, 64].
func.func @attention(%q: tensor<8x1000x64xf32>, %k: tensor<8x1000x64xf32>,
                     %v: tensor<8x1000x64xf32>) -> tensor<8x1000x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x1000x1000xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x1000x1000xf32>)
      -> tensor<8x1000x1000xf32>
  %s = linalg.batch_matmul
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                       affine_map<(b, m, n, k) -> (b, n, k)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<8x1000x64xf32>, tensor<8x1000x64xf32>)
      outs(%z0 : tensor<8x1000x1000xf32>) -> tensor<8x1000x1000xf32>
  %e1 = tensor.empty() : tensor<8x1000x1000xf32>
  %scaled = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                       affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<8x1000x1000xf32>) outs(%e1 : tensor<8x1000x1000xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<8x1000x1000xf32>
  %e2 = tensor.empty() : tensor<8x1000x1000xf32>
  %p = linalg.softmax dimension(2) ins(%scaled : tensor<8x1000x1000xf32>)
      outs(%e2 : tensor<8x1000x1000xf32>) -> tensor<8x1000x1000xf32>
  %e3 = tensor.empty() : tensor<8x1000x64xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x1000x64xf32>)
      -> tensor<8x1000x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x1000x1000xf32>,
                                        tensor<8x1000x64xf32>)
      outs(%z3 : tensor<8x1000x64xf32>) -> tensor<8x1000x64xf32>
  return %o : tensor<8x1000x64xf32>
}
