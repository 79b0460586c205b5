// flash-static-kernel-buffers: dynamically sized kernel buffers get a static
// "unbounded" type for the bare-pointer conventions: launch operands are
// reinterpreted (row-major strides kept) and, with kernels=1, the kernels'
// arguments retyped and cast back at entry; static buffers and scalars stay.
// RUN: flash-opt %s --split-input-file --flash-static-kernel-buffers | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-static-kernel-buffers=kernels=0 --verify-diagnostics | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: func.func @host
// CHECK: %[[R:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [2147483647, 16], strides: [16, 1] : memref<?x16xf32> to memref<2147483647x16xf32>
// CHECK: gpu.launch_func @k::@f {{.*}} args(%[[R]] : memref<2147483647x16xf32>, %{{.*}} : memref<8xf32>, %{{.*}} : index)
// CHECK: gpu.func @f(%[[A:.*]]: memref<2147483647x16xf32>, %{{.*}}: memref<8xf32>, %{{.*}}: index) kernel
// CHECK: %[[C:.*]] = memref.cast %[[A]] : memref<2147483647x16xf32> to memref<?x16xf32>
// CHECK: memref.load %[[C]]
module attributes {gpu.container_module} {
  func.func @host(%a: memref<?x16xf32>, %b: memref<8xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{launches a kernel still in IR; flash-static-kernel-buffers{kernels=0} is for serialized kernels (after gpu-module-to-binary)}}
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<?x16xf32>, %b : memref<8xf32>, %n : index)
    return
  }
  gpu.module @k {
    gpu.func @f(%a: memref<?x16xf32>, %b: memref<8xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %a[%n, %c0] : memref<?x16xf32>
      memref.store %x, %b[%c0] : memref<8xf32>
      gpu.return
    }
  }
}

// -----

// kernels=0 (the SPIR-V pipeline, after its kernels became a gpu.binary):
// only the launch operands change.
// CHECK-LABEL: func.func @serialized
// HOST-LABEL: func.func @serialized
// HOST: %[[R:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [2147483647], strides: [1] : memref<?xf16> to memref<2147483647xf16>
// HOST: gpu.launch_func @k::@f {{.*}} args(%[[R]] : memref<2147483647xf16>)
module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>, "">]
  func.func @serialized(%a: memref<?xf16>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<?xf16>)
    return
  }
}
