// RUN: flash-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(flash-gpu-lower-math{target=nvvm}))' | FileCheck %s --check-prefix=NVVM
// RUN: flash-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(flash-gpu-lower-math{target=spirv}))' | FileCheck %s --check-prefix=SPIRV
// RUN: not flash-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(flash-gpu-lower-math{target=rocdl}))' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: for the --target option: Cannot find option named 'rocdl'

// The kernels' exp2 / log2 per target; f64 is left alone.
// NVVM-LABEL: gpu.func @k
// NVVM: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%{{.*}}) : (f32) -> f32
// NVVM: llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"(%{{.*}}) : (f32) -> f32
// NVVM: math.exp2 %{{.*}} : f64
// SPIRV-LABEL: gpu.func @k
// SPIRV: %[[LN2:.*]] = arith.constant 0.693147182 : f32
// SPIRV: %[[X:.*]] = arith.mulf %{{.*}}, %[[LN2]] : f32
// SPIRV: math.exp %[[X]] : f32
// SPIRV: %[[L:.*]] = math.log %{{.*}} : f32
// SPIRV: arith.mulf %[[L]], %{{.*}} : f32
// SPIRV: math.exp2 %{{.*}} : f64
gpu.module @m {
  gpu.func @k(%x: f32, %y: f64, %out: memref<3xf32>, %out64: memref<1xf64>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %e = math.exp2 %x fastmath<afn> : f32
    %l = math.log2 %x fastmath<afn> : f32
    %e64 = math.exp2 %y : f64
    memref.store %e, %out[%c0] : memref<3xf32>
    memref.store %l, %out[%c1] : memref<3xf32>
    memref.store %e64, %out64[%c0] : memref<1xf64>
    gpu.return
  }
}

// -----

// tanh (soft-capping) on the SFU on NVIDIA; SPIR-V keeps math.tanh.
// NVVM-LABEL: gpu.func @t
// NVVM: llvm.intr.tanh(%{{.*}}) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> f32
// SPIRV-LABEL: gpu.func @t
// SPIRV: math.tanh
gpu.module @m {
  gpu.func @t(%x: f32, %out: memref<1xf32>) kernel {
    %c0 = arith.constant 0 : index
    %y = math.tanh %x : f32
    memref.store %y, %out[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

// Branch-free f32 math on NVIDIA (ptxas' IEEE division and square root
// have a data-dependent slow path, wrong between warpgroup MMAs): divf and
// sqrt get afn (div.approx / sqrt.approx), exp and log go through exp2 and
// log2; f64 is left alone. SPIR-V keeps them.
// NVVM-LABEL: gpu.func @d
// NVVM: arith.divf %{{.*}}, %{{.*}} fastmath<afn> : f32
// NVVM: math.sqrt %{{.*}} fastmath<afn> : f32
// NVVM: %[[L2E:.*]] = arith.constant 1.44269502 : f32
// NVVM: %[[E:.*]] = arith.mulf %{{.*}}, %[[L2E]] : f32
// NVVM: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[E]])
// NVVM: %[[LN2:.*]] = arith.constant 0.693147182 : f32
// NVVM: %[[LG:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.ftz.f"
// NVVM: arith.mulf %[[LG]], %[[LN2]] : f32
// NVVM: arith.divf %{{.*}}, %{{.*}} : f64
// SPIRV-LABEL: gpu.func @d
// SPIRV: arith.divf %{{.*}}, %{{.*}} : f32
// SPIRV: math.sqrt %{{.*}} : f32
// SPIRV: math.exp %{{.*}} : f32
// SPIRV: math.log %{{.*}} : f32
gpu.module @m {
  gpu.func @d(%x: f32, %y: f32, %z: f64, %out: memref<4xf32>, %out64: memref<1xf64>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %q = arith.divf %x, %y : f32
    %r = math.sqrt %q : f32
    %e = math.exp %r : f32
    %l = math.log %e : f32
    %z2 = arith.divf %z, %z : f64
    memref.store %q, %out[%c0] : memref<4xf32>
    memref.store %r, %out[%c1] : memref<4xf32>
    memref.store %e, %out[%c2] : memref<4xf32>
    memref.store %l, %out[%c3] : memref<4xf32>
    memref.store %z2, %out64[%c0] : memref<1xf64>
    gpu.return
  }
}

// -----

// Division by a constant (a soft-cap's s / cap) on NVIDIA: a multiply by
// the rounded reciprocal (no MUFU.RCP next to the softmax's ex2 and the
// tanh); not by zero, nor where 1 / c would be subnormal (c = 1e38) or
// overflow (c = 1e-39); SPIR-V keeps the division.
// NVVM-LABEL: gpu.func @c
// NVVM: %[[R:.*]] = arith.constant 2.000000e-02 : f32
// NVVM: arith.mulf %{{.*}}, %[[R]] : f32
// NVVM: arith.divf %{{.*}}, %{{.*}} fastmath<afn> : f32
// NVVM: arith.divf %{{.*}}, %{{.*}} fastmath<afn> : f32
// NVVM: arith.divf %{{.*}}, %{{.*}} fastmath<afn> : f32
// NVVM-NOT: arith.divf
// SPIRV-LABEL: gpu.func @c
// SPIRV-COUNT-4: arith.divf
gpu.module @m {
  gpu.func @c(%x: f32, %out: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %cap = arith.constant 50.0 : f32
    %zero = arith.constant 0.0 : f32
    %big = arith.constant 1.0e38 : f32
    %tiny = arith.constant 1.0e-39 : f32
    %a = arith.divf %x, %cap : f32
    %b = arith.divf %x, %zero : f32
    %c = arith.divf %x, %big : f32
    %d = arith.divf %x, %tiny : f32
    memref.store %a, %out[%c0] : memref<4xf32>
    memref.store %b, %out[%c1] : memref<4xf32>
    memref.store %c, %out[%c2] : memref<4xf32>
    memref.store %d, %out[%c3] : memref<4xf32>
    gpu.return
  }
}

// -----

// A chain of multiplies by constants is one multiply on NVVM (a soft-cap's
// ((s scale) / cap) and (tanh cap) log2 e); not where the inner product has
// another use, or the constants' product would overflow. SPIR-V keeps it.
// NVVM-LABEL: gpu.func @p
// NVVM: %[[K1:.*]] = arith.constant 0.0166666675 : f32
// NVVM: %[[A:.*]] = arith.mulf %{{.*}}, %[[K1]] : f32
// NVVM: %[[T:.*]] = llvm.intr.tanh(%[[A]])
// NVVM: %[[K2:.*]] = arith.constant 43.2808495 : f32
// NVVM: arith.mulf %[[T]], %[[K2]] : f32
// NVVM: %[[U:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// NVVM: arith.mulf %[[U]], %{{.*}} : f32
// NVVM: memref.store %[[U]]
// NVVM: %[[B:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// NVVM: arith.mulf %[[B]], %{{.*}} : f32
// SPIRV-LABEL: gpu.func @p
// SPIRV: arith.divf
// SPIRV-COUNT-6: arith.mulf
gpu.module @m {
  gpu.func @p(%x: f32, %out: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %scale = arith.constant 0.5 : f32
    %cap = arith.constant 30.0 : f32
    %log2e = arith.constant 1.44269502 : f32
    %big = arith.constant 3.0e38 : f32
    %s = arith.mulf %x, %scale : f32
    %a = arith.divf %s, %cap : f32
    %t = math.tanh %a : f32
    %y = arith.mulf %t, %cap : f32
    %z = arith.mulf %y, %log2e : f32
    memref.store %z, %out[%c0] : memref<4xf32>
    %u = arith.mulf %x, %scale : f32
    %v = arith.mulf %u, %log2e : f32
    memref.store %u, %out[%c1] : memref<4xf32>
    memref.store %v, %out[%c2] : memref<4xf32>
    %b = arith.mulf %x, %big : f32
    %w = arith.mulf %b, %big : f32
    memref.store %w, %out[%c2] : memref<4xf32>
    gpu.return
  }
}

// -----

// Integer-to-float conversions of index arithmetic (ALiBi's slope |i - j|
// inlined into a kernel) in i32 on every target: the operations on the
// leaves' truncations; a leaf used twice is truncated once, and the index
// operations stay for their other users.
// NVVM-LABEL: gpu.func @pos
// NVVM-DAG: %[[I:.*]] = arith.index_cast %arg0 : index to i32
// NVVM-DAG: %[[J:.*]] = arith.index_cast %arg1 : index to i32
// NVVM-DAG: %[[C:.*]] = arith.constant 3 : i32
// NVVM: %[[A:.*]] = arith.addi %[[J]], %[[C]] : i32
// NVVM: %[[D:.*]] = arith.subi %[[I]], %[[A]] : i32
// NVVM: %[[M:.*]] = math.absi %[[D]] : i32
// NVVM: arith.sitofp %[[M]] : i32 to f32
// NVVM: %[[X:.*]] = arith.maxsi %[[I]], %[[J]] : i32
// NVVM: arith.uitofp %[[X]] : i32 to f32
// NVVM: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xindex>
// SPIRV-LABEL: gpu.func @pos
// SPIRV: arith.sitofp %{{.*}} : i32 to f32
// SPIRV: arith.uitofp %{{.*}} : i32 to f32
gpu.module @m {
  gpu.func @pos(%i: index, %j: index, %out: memref<2xf32>, %idx: memref<4xindex>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %a = arith.addi %j, %c3 : index
    %d = arith.subi %i, %a : index
    %m = math.absi %d : index
    %m64 = arith.index_cast %m : index to i64
    %f = arith.sitofp %m64 : i64 to f32
    %x = arith.maxsi %i, %j : index
    %x64 = arith.index_castui %x : index to i64
    %g = arith.uitofp %x64 : i64 to f32
    memref.store %f, %out[%c0] : memref<2xf32>
    memref.store %g, %out[%c1] : memref<2xf32>
    memref.store %d, %idx[%c0] : memref<4xindex>
    gpu.return
  }
}
