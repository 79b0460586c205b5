// GQA/MQA (no K/V copies), f16/bf16 inputs with f32 accumulation, and
// logits around +-1e4.
//
// RUN: %gen --batch 2 --hq 8 --hkv 2 --n 65 --d 64 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --batch 2 --hq 8 --hkv 2 --n 65 --d 64 | flash-opt --flash-to-cpu="block-q=16 block-kv=16 loop-order=fa1" | %run | FileCheck %s
// RUN: %gen --hq 4 --hkv 1 --nq 33 --nk 70 --d 32 --causal | flash-opt --flash-to-cpu="block-q=16 block-kv=16" | %run | FileCheck %s
// f16/bf16: both programs round o to the input type; the tolerance is the
// rounding of o (one ulp of ~1).
// RUN: %gen --n 100 --d 64 --dtype f16 --tol 1e-3 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --n 100 --d 64 --dtype bf16 --tol 8e-3 --causal --mask add | flash-opt --flash-to-cpu="block-q=32 block-kv=16" | %run | FileCheck %s
// RUN: %gen --hq 4 --hkv 2 --n 70 --d 48 --dtype bf16 --tol 8e-3 | flash-opt --flash-to-cpu="loop-order=fa1 block-q=16 block-kv=16" | %run | FileCheck %s
// Logits around +-1e4 (amplitude 100 at d = 64; softmax nearly one-hot): no NaN, no overflow; the
// tolerance is relative to the f32 rounding of such logits.
// RUN: %gen --n 100 --d 64 --amp 100 --tol 1e-2 --lse-tol 1e-2 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --n 100 --d 64 --amp 100 --tol 1e-2 --lse-tol 1e-2 --causal | flash-opt --flash-to-cpu="loop-order=fa1" | %run | FileCheck %s

// CHECK: o_err:
// CHECK: lse_err:
// CHECK: ok: 1
