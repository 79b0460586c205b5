// The GPU pipelines free host buffers: flash-map-to-gpu puts each flash
// op's host glue in a private function of its own (flash.gpu_host), which
// frees its staging buffers (gpu.dealloc) and returns fresh host buffers;
// flash-host-deallocation gives every other function ownership-based
// deallocation, so a loop over a GPU attention call frees each result.
// Functions with GPU ops of their own are left alone (upstream's pass
// rejects gpu.wait).
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --flash-host-deallocation | FileCheck %s

// CHECK-LABEL: func.func @loop
// CHECK: scf.for
// CHECK:   %[[R:.*]] = func.call @attn(
// CHECK:   memref.extract_strided_metadata %[[R]]
// CHECK:   bufferization.dealloc
// CHECK:   scf.yield
// CHECK-LABEL: func.func @attn
// CHECK: call @flash_gpu_0
// CHECK: bufferization.dealloc
// CHECK: func.func private @flash_gpu_0({{.*}}) -> memref<2x40x16xf32> attributes {flash.gpu_host}
// CHECK-NOT: bufferization.dealloc
// CHECK: gpu.launch_func
// CHECK: gpu.dealloc
// CHECK-NOT: bufferization.dealloc
// CHECK: gpu.module @flash_kernels
func.func @loop(%q: tensor<2x40x16xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f32 {
    %r = func.call @attn(%q) : (tensor<2x40x16xf32>) -> tensor<2x40x16xf32>
    %x = tensor.extract %r[%c0, %c0, %c0] : tensor<2x40x16xf32>
    %a = arith.addf %acc, %x : f32
    scf.yield %a : f32
  }
  return %s : f32
}

func.func @attn(%q: tensor<2x40x16xf32>) -> tensor<2x40x16xf32> {
  %o = tensor.empty() : tensor<2x40x16xf32>
  %r = flash.attention ins(%q, %q, %q : tensor<2x40x16xf32>,
           tensor<2x40x16xf32>, tensor<2x40x16xf32>)
       outs(%o : tensor<2x40x16xf32>) -> tensor<2x40x16xf32>
  return %r : tensor<2x40x16xf32>
}
