// The GPU pipelines lower the rest of a module's TOSA as --flash-to-cpu
// does: constants (tosa.const, through tosa-to-arith) and reshapes
// (tosa-to-tensor) too. A raised TOSA program keeps such ops beside the
// flash.attention (the unraised reference of a self-check, a projection);
// --flash-to-nvvm and --flash-to-spirv left them unbufferized ("op was
// not bufferized", session 39).
// RUN: flash-opt %s --flash-to-nvvm="chip=sm_90a features=+ptx80 format=isa" | FileCheck %s
// RUN: flash-opt %s --flash-to-spirv | FileCheck %s
// CHECK-NOT: tosa.
// CHECK: gpu.binary
// CHECK-NOT: tosa.
func.func @attention(%q: tensor<2x13x8xf32>, %k: tensor<2x17x8xf32>,
                     %v: tensor<2x17x8xf32>) -> tensor<2x13x8xf32> {
  %o = tensor.empty() : tensor<2x13x8xf32>
  %r = flash.attention ins(%q, %k, %v : tensor<2x13x8xf32>,
           tensor<2x17x8xf32>, tensor<2x17x8xf32>)
         outs(%o : tensor<2x13x8xf32>) -> tensor<2x13x8xf32>
  return %r : tensor<2x13x8xf32>
}

func.func @projection(%x: tensor<2x13x8xf32>) -> tensor<26x8xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %y = tosa.mul %x, %c, %shift : (tensor<2x13x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x13x8xf32>
  %s = tosa.const_shape {values = dense<[26, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %y, %s : (tensor<2x13x8xf32>, !tosa.shape<2>) -> tensor<26x8xf32>
  return %r : tensor<26x8xf32>
}
