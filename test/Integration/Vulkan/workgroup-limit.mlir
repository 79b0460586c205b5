// libflash_vulkan_runtime.so refuses a kernel whose workgroup variables
// exceed the device's maxComputeSharedMemorySize (NVIDIA's driver builds the
// pipeline and then loses the device), with a message naming the kernel;
// --flash-to-spirv checks the same against its target environment's limit
// (max-workgroup-memory, 32 KiB by default) at compile time.
// Five kernels of 16,000 bytes each (under Vulkan's guaranteed 16 KiB),
// 80,000 bytes together. SPIR-V 1.4 entry points list the variables they
// use: every kernel runs. Before 1.4 they do not, and a driver may reserve
// all of the module's workgroup variables for each kernel: refused.
// REQUIRES: vulkan
// RUN: flash-opt %s --flash-to-spirv | %vkrun | FileCheck %s
// RUN: flash-opt %s --flash-to-spirv=version=v1.3 | not --crash %vkrun 2>&1 | FileCheck %s --check-prefix=V13
// RUN: sed 's/4000xf32/100000xf32/' %s | not flash-opt --flash-to-spirv 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: sed 's/4000xf32/100000xf32/' %s | flash-opt --flash-to-spirv=max-workgroup-memory=1000000 | not --crash %vkrun 2>&1 | FileCheck %s --check-prefix=BIG

// CHECK: ( 1.5, 2.5, 3.5, 4.5, 5.5 )
// V13: flash_vulkan_runtime: kernel k0 needs 80000 bytes of workgroup memory; the device offers {{[0-9]+}} (maxComputeSharedMemorySize; before SPIR-V 1.4 every workgroup variable of the module counts)
// COMPILE: error: kernel 'k0' needs 400000 bytes of workgroup memory; the SPIR-V target allows 32768 (max-workgroup-memory)
// BIG: flash_vulkan_runtime: kernel k0 needs 400000 bytes of workgroup memory; the device offers {{[0-9]+}} (maxComputeSharedMemorySize)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k0(%out: memref<5xf32>) workgroup(%buf : memref<4000xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c = arith.constant 0 : index
      %last = arith.constant 3999 : index
      %x = arith.constant 1.5 : f32
      memref.store %x, %buf[%last] : memref<4000xf32, #gpu.address_space<workgroup>>
      %y = memref.load %buf[%last] : memref<4000xf32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%c] : memref<5xf32>
      gpu.return
    }
    gpu.func @k1(%out: memref<5xf32>) workgroup(%buf : memref<4000xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c = arith.constant 1 : index
      %last = arith.constant 3999 : index
      %x = arith.constant 2.5 : f32
      memref.store %x, %buf[%last] : memref<4000xf32, #gpu.address_space<workgroup>>
      %y = memref.load %buf[%last] : memref<4000xf32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%c] : memref<5xf32>
      gpu.return
    }
    gpu.func @k2(%out: memref<5xf32>) workgroup(%buf : memref<4000xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c = arith.constant 2 : index
      %last = arith.constant 3999 : index
      %x = arith.constant 3.5 : f32
      memref.store %x, %buf[%last] : memref<4000xf32, #gpu.address_space<workgroup>>
      %y = memref.load %buf[%last] : memref<4000xf32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%c] : memref<5xf32>
      gpu.return
    }
    gpu.func @k3(%out: memref<5xf32>) workgroup(%buf : memref<4000xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c = arith.constant 3 : index
      %last = arith.constant 3999 : index
      %x = arith.constant 4.5 : f32
      memref.store %x, %buf[%last] : memref<4000xf32, #gpu.address_space<workgroup>>
      %y = memref.load %buf[%last] : memref<4000xf32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%c] : memref<5xf32>
      gpu.return
    }
    gpu.func @k4(%out: memref<5xf32>) workgroup(%buf : memref<4000xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c = arith.constant 4 : index
      %last = arith.constant 3999 : index
      %x = arith.constant 5.5 : f32
      memref.store %x, %buf[%last] : memref<4000xf32, #gpu.address_space<workgroup>>
      %y = memref.load %buf[%last] : memref<4000xf32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%c] : memref<5xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %m = memref.alloc() : memref<5xf32>
    gpu.launch_func @kernels::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<5xf32>)
    gpu.launch_func @kernels::@k1 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<5xf32>)
    gpu.launch_func @kernels::@k2 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<5xf32>)
    gpu.launch_func @kernels::@k3 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<5xf32>)
    gpu.launch_func @kernels::@k4 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<5xf32>)
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    %v = vector.transfer_read %m[%c0], %pad : memref<5xf32>, vector<5xf32>
    vector.print %v : vector<5xf32>
    return
  }
}
