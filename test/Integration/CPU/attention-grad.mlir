// flash.attention_grad (recomputation from lse) vs the unfused backward
// (full softmax matrix P, dS = P * (dP - rowsum(P * dP))) on the same
// inputs; o and lse come from the unfused forward. f32: <= 2e-5.
//
// RUN: %gen --grad --n 1 --d 16 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --grad --n 7 --d 16 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --grad --n 65 --d 32 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --grad --n 100 --d 64 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --grad --n 100 --d 64 | flash-opt --flash-to-cpu="loop-order=fa1" | %run | FileCheck %s
// RUN: %gen --grad --nq 65 --nk 100 --d 48 --dv 32 | flash-opt --flash-to-cpu="block-q=24 block-kv=40" | %run | FileCheck %s
// RUN: %gen --grad --nq 65 --nk 100 --d 48 --dv 32 | flash-opt --flash-to-cpu="block-q=24 block-kv=40 loop-order=fa1" | %run | FileCheck %s
// Head dims that 16 does not divide (d = 72, dv = 40: 8-lane register
// tiles; a 60-row remainder query block: 4 accumulator rows).
// RUN: %gen --grad --nq 124 --nk 200 --d 72 --dv 40 --hq 2 --causal | flash-opt --flash-to-cpu | %run | FileCheck %s
// Causal (Nq = Nk, Nq < Nk, Nq > Nk: rows that see no key), both orders.
// RUN: %gen --grad --n 100 --d 32 --causal | flash-opt --flash-to-cpu="block-q=32 block-kv=16" | %run | FileCheck %s
// RUN: %gen --grad --n 100 --d 32 --causal | flash-opt --flash-to-cpu="block-q=32 block-kv=16 loop-order=fa1" | %run | FileCheck %s
// RUN: %gen --grad --nq 37 --nk 100 --d 32 --causal | flash-opt --flash-to-cpu="block-q=16 block-kv=16" | %run | FileCheck %s
// RUN: %gen --grad --nq 100 --nk 37 --d 32 --causal | flash-opt --flash-to-cpu="block-q=16 block-kv=16 loop-order=fa1" | %run | FileCheck %s
// RUN: %gen --grad --nq 100 --nk 37 --d 32 --causal | flash-opt --flash-to-cpu="block-q=16 block-kv=16" | %run | FileCheck %s
// Masks with fully masked rows, GQA (dk/dv summed over a group), batch dims.
// RUN: %gen --grad --n 100 --d 32 --mask add | flash-opt --flash-to-cpu="block-q=32 block-kv=16" | %run | FileCheck %s
// RUN: %gen --grad --n 100 --d 32 --mask bool --causal | flash-opt --flash-to-cpu="block-q=32 block-kv=16 loop-order=fa1" | %run | FileCheck %s
// RUN: %gen --grad --batch 2 --hq 4 --hkv 2 --n 65 --d 32 | flash-opt --flash-to-cpu="block-q=16 block-kv=32" | %run | FileCheck %s
// RUN: %gen --grad --batch 2 --hq 4 --hkv 2 --n 65 --d 32 --causal --deterministic | flash-opt --flash-to-cpu="block-q=16 block-kv=32 loop-order=fa1" | %run | FileCheck %s
// RUN: %gen --grad --hq 3 --hkv 1 --nq 33 --nk 70 --d 16 --mask bool --full-mask | flash-opt --flash-to-cpu="block-q=16 block-kv=16" | %run | FileCheck %s
// bf16 inputs (f32 accumulation; the tolerance is bf16 rounding of O(1)
// gradients).
// RUN: %gen --grad --n 65 --d 32 --dtype bf16 --tol 2e-2 | flash-opt --flash-to-cpu="block-q=16 block-kv=16" | %run | FileCheck %s
// RUN: %gen --grad --n 65 --d 32 --dtype f16 --tol 4e-3 --causal | flash-opt --flash-to-cpu="block-q=16 block-kv=16 loop-order=fa1" | %run | FileCheck %s

// CHECK: dq_err:
// CHECK: dk_err:
// CHECK: dv_err:
// CHECK: ok: 1
