// Causal (Nq = Nk and Nq != Nk, bottom-right and top-left), additive and
// i1 masks with fully masked rows and rows whose first blocks are masked,
// broadcast and full masks, both loop orders.
//
// RUN: %gen --n 100 --d 64 --causal | flash-opt --flash-to-cpu="block-q=32 block-kv=16" | %run | FileCheck %s
// RUN: %gen --n 100 --d 64 --causal | flash-opt --flash-to-cpu="block-q=32 block-kv=16 loop-order=fa1" | %run | FileCheck %s
// RUN: %gen --nq 37 --nk 100 --d 32 --causal | flash-opt --flash-to-cpu="block-q=16 block-kv=16" | %run | FileCheck %s
// d = 72 (8-lane register tiles), a remainder key block of 40, an additive
// mask, GQA.
// RUN: %gen --nq 188 --nk 360 --d 72 --causal --mask add --hq 4 --hkv 2 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --nq 37 --nk 100 --d 32 --causal | flash-opt --flash-to-cpu="block-q=16 block-kv=16 loop-order=fa1" | %run | FileCheck %s
// Nq > Nk: the first Nq - Nk rows see no key at all (o = 0, lse = -inf).
// RUN: %gen --nq 100 --nk 37 --d 32 --causal | flash-opt --flash-to-cpu="block-q=16 block-kv=16" | %run | FileCheck %s
// RUN: %gen --nq 100 --nk 37 --d 32 --causal | flash-opt --flash-to-cpu="block-q=16 block-kv=16 loop-order=fa1" | %run | FileCheck %s
// Top-left alignment (PyTorch is_causal) and a negative offset.
// RUN: %gen --nq 37 --nk 100 --d 32 --causal --causal-offset 0 | flash-opt --flash-to-cpu="block-q=16 block-kv=8" | %run | FileCheck %s
// RUN: %gen --n 70 --d 32 --causal --causal-offset -5 | flash-opt --flash-to-cpu="block-q=16 block-kv=8 loop-order=fa1" | %run | FileCheck %s
// Masks (rows i % 5 == 3 fully masked, rows i % 7 == 2 lose keys < 40).
// RUN: %gen --n 100 --d 64 --mask add | flash-opt --flash-to-cpu="block-q=32 block-kv=16" | %run | FileCheck %s
// RUN: %gen --n 100 --d 64 --mask bool | flash-opt --flash-to-cpu="block-q=32 block-kv=16" | %run | FileCheck %s
// RUN: %gen --n 100 --d 64 --mask bool | flash-opt --flash-to-cpu="block-q=32 block-kv=16 loop-order=fa1" | %run | FileCheck %s
// RUN: %gen --nq 65 --nk 90 --d 16 --batch 2 --hq 2 --mask add --full-mask | flash-opt --flash-to-cpu="block-q=16 block-kv=32" | %run | FileCheck %s
// RUN: %gen --nq 65 --nk 90 --d 16 --batch 2 --hq 2 --mask bool --full-mask --causal | flash-opt --flash-to-cpu="block-q=16 block-kv=32 loop-order=fa1" | %run | FileCheck %s
// RUN: %gen --n 100 --d 48 --mask bool --causal --hq 4 --hkv 2 | flash-opt --flash-to-cpu | %run | FileCheck %s

// CHECK: o_err:
// CHECK: lse_err:
// CHECK: ok: 1
