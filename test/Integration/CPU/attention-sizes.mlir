// Fused (flash-to-cpu, online softmax) vs the unfused reference on the same
// pseudo-random inputs: sequence lengths around and not multiple of the
// blocks, every head dim the issue lists. f32: max abs error <= 2e-5.
//
// RUN: %gen --n 1 --d 16 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --n 7 --d 48 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --n 63 --d 64 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --n 64 --d 80 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --n 65 --d 128 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --n 100 --d 16 --batch 2 --hq 3 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --n 1000 --d 64 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --nq 100 --nk 37 --d 48 --dv 80 | flash-opt --flash-to-cpu | %run | FileCheck %s
// Block sizes that do not divide the lengths, both loop orders.
// RUN: %gen --n 100 --d 64 | flash-opt --flash-to-cpu="block-q=24 block-kv=40" | %run | FileCheck %s
// RUN: %gen --n 100 --d 64 | flash-opt --flash-to-cpu="block-q=24 block-kv=40 loop-order=fa1" | %run | FileCheck %s
// RUN: %gen --nq 65 --nk 130 --d 32 | flash-opt --flash-to-cpu="block-q=16 block-kv=48 loop-order=fa1" | %run | FileCheck %s
// RUN: %gen --n 1000 --d 16 | flash-opt --flash-to-cpu="block-q=7 block-kv=13 loop-order=fa1" | %run | FileCheck %s
// Without vectorization (the scalar path of the same pipeline).
// RUN: %gen --n 65 --d 48 | flash-opt --flash-to-cpu="vectorize=false" | %run | FileCheck %s
// Dynamic sequence lengths.
// RUN: %gen --nq 70 --nk 100 --d 32 --batch 2 --hq 2 --dynamic | flash-opt --flash-to-cpu="block-q=32 block-kv=32" | %run | FileCheck %s
// RUN: %gen --nq 70 --nk 100 --d 32 --dynamic --causal --mask bool | flash-opt --flash-to-cpu="block-q=32 block-kv=32 loop-order=fa1" | %run | FileCheck %s

// CHECK: o_err:
// CHECK: lse_err:
// CHECK: ok: 1
