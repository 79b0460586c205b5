// linalg.softmax through --flash-to-cpu where the normalized dim has one
// element (a single key) or a few, vectorized: upstream's decomposition
// starts its row max at NaN (maxnumf's identity), which a max reduction
// flagged nnan made poison (every row NaN; an independent tester's
// finding). The accumulator now joins the row's max without nnan.
//
// RUN: flash-opt %s --flash-to-cpu | %run | FileCheck %s
// RUN: flash-opt %s --flash-to-cpu=vectorize=false | %run | FileCheck %s

// CHECK: rank = 2 offset = 0 sizes = [3, 1]
// CHECK-NEXT: [1]
// CHECK-NEXT: [1]
// CHECK-NEXT: [1]
// CHECK: rank = 2 offset = 0 sizes = [2, 3]
// CHECK-NEXT: [0.0900306, 0.244728, 0.665241]
// CHECK-NEXT: [0, 1, 0]
func.func @main() {
  %x = arith.constant dense<[[0.5], [-3.0], [2.0]]> : tensor<3x1xf32>
  %e = tensor.empty() : tensor<3x1xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<3x1xf32>)
         outs(%e : tensor<3x1xf32>) -> tensor<3x1xf32>
  %u = tensor.cast %r : tensor<3x1xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %y = arith.constant dense<[[1.0, 2.0, 3.0], [0xFF800000, 7.0, 0xFF800000]]>
         : tensor<2x3xf32>
  %e2 = tensor.empty() : tensor<2x3xf32>
  %r2 = linalg.softmax dimension(1) ins(%y : tensor<2x3xf32>)
          outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %u2 = tensor.cast %r2 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
