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

// -----

// Scalar arguments (runtime sizes) become one i32 buffer, the kernel's last
// argument, read at entry; the launch fills a host-shared buffer and frees
// it after the launch is waited for.
// CHECK-LABEL: func.func @host
// CHECK: %[[B:.*]] = gpu.alloc  host_shared () : memref<2xi32>
// CHECK: %[[N0:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: memref.store %[[N0]], %[[B]][%c0{{[_0-9]*}}] : memref<2xi32>
// CHECK: memref.store %{{.*}}, %[[B]][%c1{{[_0-9]*}}] : memref<2xi32>
// CHECK: %[[T:.*]] = gpu.launch_func async {{.*}} @m::@k {{.*}} args(%{{.*}} : memref<?xf32>, %[[B]] : memref<2xi32>)
// CHECK: gpu.wait [%[[T]]]
// CHECK: gpu.dealloc async [%{{.*}}] %[[B]] : memref<2xi32>
// CHECK: gpu.func @k(%{{.*}}: memref<?xf32>, %[[S:.*]]: memref<2xi32>) kernel
// CHECK:   %[[X:.*]] = memref.load %[[S]][%c0{{[_0-9]*}}] : memref<2xi32>
// CHECK:   arith.index_cast %[[X]] : i32 to index
module attributes {gpu.container_module} {
  func.func @host(%a: memref<?xf32>, %n: index, %m: i32) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %t = gpu.launch_func async [%t0] @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<?xf32>, %n : index, %m : i32)
    gpu.wait [%t]
    return
  }
  gpu.module @m {
    gpu.func @k(%a: memref<?xf32>, %n: index, %m: i32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %f = arith.sitofp %m : i32 to f32
      memref.store %f, %a[%n] : memref<?xf32>
      gpu.return
    }
  }
}
