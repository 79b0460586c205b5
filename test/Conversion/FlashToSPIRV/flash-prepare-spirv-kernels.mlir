// RUN: flash-opt %s --split-input-file --spirv-attach-target="ver=v1.3 caps=Shader" --flash-prepare-spirv-kernels --verify-diagnostics | FileCheck %s

// The target env where the conversions look for it, the entry-point ABI from
// the known block size, workgroup attributions as Workgroup allocations.
// CHECK: gpu.module @m [#spirv.target_env{{.*}}] attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], []>
// CHECK: gpu.func @k(%[[A:.*]]: memref<4xf32>) kernel attributes {{{.*}}spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>
// CHECK-NOT: workgroup(
// CHECK:   %[[W:.*]] = memref.alloc() : memref<4xf32, #spirv.storage_class<Workgroup>>
// CHECK:   memref.store %{{.*}}, %[[W]][%{{.*}}] : memref<4xf32, #spirv.storage_class<Workgroup>>
gpu.module @m {
  gpu.func @k(%a: memref<4xf32>) workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %x = memref.load %a[%c0] : memref<4xf32>
    memref.store %x, %w[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{a SPIR-V kernel needs a known block size}}
  gpu.func @k(%a: memref<4xf32>) kernel {
    gpu.return
  }
}

// -----

// Upstream's conversion would store these as f32 ("emulation") and misread
// the host's buffers: refused instead.
gpu.module @m {
  // expected-error @+1 {{a SPIR-V kernel cannot take bf16 buffers (run flash-widen-bf16 before flash-map-to-gpu)}}
  gpu.func @k(%a: memref<4xbf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{f16 buffers need the Float16 and StorageBuffer16BitAccess (Vulkan) or Float16Buffer (OpenCL) capabilities}}
  gpu.func @k(%a: memref<4xf16>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    gpu.return
  }
}
