// flash-tensor-map-params: the parameters a lowered kernel's
// flash.tensor_maps names become CUDA's 128-byte CUtensorMap by value
// (byval, 64-byte aligned, a grid constant), which NVPTX addresses in the
// parameter space itself; the attribute is consumed. A parameter that is
// not a pointer is an error at the kernel.
// RUN: flash-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(gpu.module(flash-tensor-map-params))" | FileCheck %s

// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %{{.*}}: !llvm.ptr,
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant})
// CHECK-NOT: flash.tensor_maps
// CHECK: nvvm.prefetch tensormap
gpu.module @m {
  llvm.func @k(%buf: !llvm.ptr, %map: !llvm.ptr) attributes {flash.tensor_maps = array<i64: 1>, gpu.kernel, nvvm.kernel} {
    nvvm.prefetch tensormap, %map : !llvm.ptr
    llvm.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{flash.tensor_maps names parameter 1, which is not a pointer}}
  llvm.func @k(%buf: !llvm.ptr, %n: i64) attributes {flash.tensor_maps = array<i64: 1>, gpu.kernel, nvvm.kernel} {
    llvm.return
  }
}
