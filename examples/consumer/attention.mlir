// The program both consumers compile: attention as a frontend emits it
// (Q K^T by a transposing batch_matmul, a scale, linalg.softmax over the
// keys, P V), which flash-raise-attention turns into one flash.attention.
// q: [6, 77, 32], k, v: [6, 93, 32] (batch * heads, sequence, head dim);
// scale 1/sqrt(32). `llvm.emit_c_interface`: the consumers call
// _mlir_ciface_attention(result, q, k, v) on strided memref descriptors.
func.func @attention(%q: tensor<6x77x32xf32>, %k: tensor<6x93x32xf32>,
                     %v: tensor<6x93x32xf32>) -> tensor<6x77x32xf32>
    attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<6x77x93xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<6x77x93xf32>)
      -> tensor<6x77x93xf32>
  %s = linalg.batch_matmul
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>,
                       affine_map<(b, m, n, k) -> (b, n, k)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<6x77x32xf32>, tensor<6x93x32xf32>)
      outs(%z0 : tensor<6x77x93xf32>) -> tensor<6x77x93xf32>
  %e1 = tensor.empty() : tensor<6x77x93xf32>
  %scaled = linalg.generic {
      indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                       affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<6x77x93xf32>) outs(%e1 : tensor<6x77x93xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 0.176776695 : f32
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<6x77x93xf32>
  %e2 = tensor.empty() : tensor<6x77x93xf32>
  %p = linalg.softmax dimension(2) ins(%scaled : tensor<6x77x93xf32>)
      outs(%e2 : tensor<6x77x93xf32>) -> tensor<6x77x93xf32>
  %e3 = tensor.empty() : tensor<6x77x32xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<6x77x32xf32>)
      -> tensor<6x77x32xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<6x77x93xf32>,
                                        tensor<6x93x32xf32>)
      outs(%z3 : tensor<6x77x32xf32>) -> tensor<6x77x32xf32>
  return %o : tensor<6x77x32xf32>
}
