// --flash-to-cpu on contractions with a zero-size dim (an attention
// program with no keys or an empty head dim, left unraised): the register
// tiling leaves empty loops alone (upstream's tile-size computation
// crashed on them; an independent tester's finding).
//
// RUN: flash-opt %s --flash-to-cpu | %run | FileCheck %s

// CHECK: rank = 2 offset = 0 sizes = [3, 2]
// CHECK-NEXT: [1, 1]
// CHECK-NEXT: [1, 1]
// CHECK-NEXT: [1, 1]
// CHECK: rank = 2 offset = 0 sizes = [3, 0]
func.func @contract(%a: tensor<3x0xf32>, %b: tensor<0x2xf32>) -> tensor<3x2xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<3x0xf32>, tensor<0x2xf32>)
         outs(%f : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
// Scores with no keys: a zero-size parallel dim.
func.func @no_columns(%a: tensor<3x4xf32>, %b: tensor<4x0xf32>) -> tensor<3x0xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x0xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x0xf32>) -> tensor<3x0xf32>
  %r = linalg.matmul ins(%a, %b : tensor<3x4xf32>, tensor<4x0xf32>)
         outs(%f : tensor<3x0xf32>) -> tensor<3x0xf32>
  return %r : tensor<3x0xf32>
}
func.func @main() {
  %a = tensor.empty() : tensor<3x0xf32>
  %b = tensor.empty() : tensor<0x2xf32>
  %r = call @contract(%a, %b) : (tensor<3x0xf32>, tensor<0x2xf32>) -> tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %one = arith.constant 1.0 : f32
  %ea = tensor.empty() : tensor<3x4xf32>
  %a2 = linalg.fill ins(%one : f32) outs(%ea : tensor<3x4xf32>) -> tensor<3x4xf32>
  %b2 = tensor.empty() : tensor<4x0xf32>
  %r2 = call @no_columns(%a2, %b2) : (tensor<3x4xf32>, tensor<4x0xf32>) -> tensor<3x0xf32>
  %u2 = tensor.cast %r2 : tensor<3x0xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
