// RUN: flash-opt %s --split-input-file --flash-nest-spirv-modules --verify-diagnostics | FileCheck %s

// The Vulkan spirv.module that convert-gpu-to-spirv put beside its
// gpu.module moves inside it (where gpu-module-to-binary serializes it).
// CHECK: gpu.module @kernels {
// CHECK-NEXT: spirv.module @__spv__kernels Logical GLSL450
// CHECK: gpu.func @k
// CHECK-NOT: spirv.module
module attributes {gpu.container_module} {
  spirv.module @__spv__kernels Logical GLSL450 {
  }
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// A converted module without its gpu.module is an error, not a silent drop.
module attributes {gpu.container_module} {
  // expected-error @+1 {{no gpu.module 'orphan' to move this module into}}
  spirv.module @__spv__orphan Logical GLSL450 {
  }
}
