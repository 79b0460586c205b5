// Resource limits given to flash-prepare-spirv-kernels replace those of the
// attached target environment, and every kernel is checked against them,
// with an error at the kernel rather than a driver failure at run time.
// RUN: flash-opt %s --split-input-file --spirv-attach-target="ver=v1.4 caps=Shader" --flash-prepare-spirv-kernels="max-workgroup-memory=20000 max-invocations=64 subgroup-size=64" --verify-diagnostics | FileCheck %s

// Within the limits: the target environment carries them.
// CHECK: gpu.module @m [#spirv.target_env<{{.*}}#spirv.resource_limits<max_compute_shared_memory_size = 20000, max_compute_workgroup_invocations = 64, subgroup_size = 64>>]
gpu.module @m {
  gpu.func @k(%a: memref<4xf32>) workgroup(%w : memref<4096xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{kernel 'k' has 128 invocations per workgroup; the SPIR-V target allows 64 (max-invocations)}}
  gpu.func @k(%a: memref<4xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{kernel 'k' needs 20004 bytes of workgroup memory; the SPIR-V target allows 20000 (max-workgroup-memory)}}
  gpu.func @k(%a: memref<4xf32>) workgroup(%w : memref<5001xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{kernel 'k' is written for 32-wide subgroups; the SPIR-V target's subgroup size is 64 (subgroup-size)}}
  gpu.func @k(%a: memref<4xf32>) kernel attributes {flash.kernel_kind = "cooperative-matrix", known_block_size = array<i32: 32, 1, 1>} {
    gpu.return
  }
}
