// score_mod / mask_mod (sliding windows, soft-capping, ALiBi, document
// masks) through --flash-to-cpu vs the unfused reference that applies the
// same modifiers to the full score matrix; forward (o, lse) and backward
// (dq, dk, dv; the reference differentiates the soft-cap by hand). Odd
// sizes, windows smaller and larger than the blocks, Nq != Nk, rows that
// see no key (a window left of the keys), both loop orders. f32: <= 2e-5.
//
// Sliding windows (FlashAttention's bottom-right aligned (left, right)).
// RUN: %gen --hq 2 --n 37 --d 16 --window 5,0 | flash-opt --flash-to-cpu="block-q=8 block-kv=8" | %run | FileCheck %s
// RUN: %gen --hq 2 --n 37 --d 16 --window 5,0 | flash-opt --flash-to-cpu="block-q=8 block-kv=8 loop-order=fa1" | %run | FileCheck %s
// RUN: %gen --hq 3 --nq 20 --nk 45 --d 16 --window 3,2 --causal | flash-opt --flash-to-cpu="block-q=8 block-kv=8" | %run | FileCheck %s
// RUN: %gen --hq 2 --nq 45 --nk 20 --d 16 --window 30,-1 | flash-opt --flash-to-cpu="block-q=16 block-kv=8" | %run | FileCheck %s
// RUN: %gen --n 70 --d 16 --window 100,100 | flash-opt --flash-to-cpu="block-q=16 block-kv=16" | %run | FileCheck %s
// RUN: %gen --nq 40 --nk 30 --d 16 --window=-1,-25 | flash-opt --flash-to-cpu="block-q=16 block-kv=8" | %run | FileCheck %s
// Soft-capping, ALiBi (GQA), document masks (block-level skipping).
// RUN: %gen --hq 4 --hkv 2 --n 50 --d 16 --softcap 2.0 --amp 2 | flash-opt --flash-to-cpu="block-q=16 block-kv=16" | %run | FileCheck %s
// RUN: %gen --hq 4 --hkv 2 --n 50 --d 16 --alibi --causal | flash-opt --flash-to-cpu="block-q=16 block-kv=16" | %run | FileCheck %s
// RUN: %gen --batch 2 --hq 2 --nq 33 --nk 47 --d 16 --segments 3 | flash-opt --flash-to-cpu="block-q=8 block-kv=8" | %run | FileCheck %s
// RUN: %gen --batch 2 --hq 2 --nq 33 --nk 47 --d 16 --segments 3 --window 4,4 --softcap 1.5 --alibi | flash-opt --flash-to-cpu="block-q=8 block-kv=8 loop-order=fa1" | %run | FileCheck %s
// Segment ids per sequence of the batch ([B, N] captured, read at (b, i)).
// RUN: %gen --batch 3 --hq 2 --nq 33 --nk 47 --d 16 --segments 3 --segments-batched | flash-opt --flash-to-cpu="block-q=8 block-kv=8" | %run | FileCheck %s
// Backward.
// RUN: %gen --grad --batch 2 --hq 2 --nq 33 --nk 47 --d 16 --segments 4 --segments-batched --window 9,2 | flash-opt --flash-to-cpu="block-q=8 block-kv=16 loop-order=fa1" | %run | FileCheck %s
// RUN: %gen --grad --hq 4 --hkv 2 --n 50 --d 16 --window 7,0 --softcap 2.0 | flash-opt --flash-to-cpu="block-q=16 block-kv=8" | %run | FileCheck %s
// RUN: %gen --grad --hq 4 --hkv 2 --n 50 --d 16 --window 7,0 --softcap 2.0 | flash-opt --flash-to-cpu="block-q=16 block-kv=8 loop-order=fa1" | %run | FileCheck %s
// RUN: %gen --grad --batch 2 --hq 2 --nq 33 --nk 47 --d 16 --segments 3 --alibi --causal | flash-opt --flash-to-cpu="block-q=8 block-kv=16" | %run | FileCheck %s
// RUN: %gen --grad --batch 2 --hq 2 --nq 47 --nk 33 --d 16 --segments 3 --window 3,5 --softcap 1.5 | flash-opt --flash-to-cpu="block-q=8 block-kv=16 loop-order=fa1" | %run | FileCheck %s
// RUN: %gen --grad --nq 40 --nk 30 --d 16 --window=-1,-25 --softcap 3.0 | flash-opt --flash-to-cpu="block-q=16 block-kv=8" | %run | FileCheck %s
// T5's relative-position bias: a [32, H] table read at the log bucket of
// j - i (computed positions: tensor.extract at fptosi / minsi / select of
// them), past max_distance 128 at these lengths.
// RUN: %gen --hq 3 --nq 150 --nk 170 --d 16 --t5-buckets 32 | flash-opt --flash-to-cpu="block-q=16 block-kv=16" | %run | FileCheck %s
// RUN: %gen --grad --batch 2 --hq 2 --nq 140 --nk 133 --d 16 --t5-buckets 32 --causal | flash-opt --flash-to-cpu="block-q=16 block-kv=8 loop-order=fa1" | %run | FileCheck %s
// Chunked attention (Llama 4: (i + off) / C == j / C), its equality read as
// two bounds: chunks smaller than the blocks and across them, Nq > Nk (the
// first rows' chunk has no keys), with a window.
// RUN: %gen --hq 2 --nq 37 --nk 45 --d 16 --chunk 8 --causal | flash-opt --flash-to-cpu="block-q=16 block-kv=8" | %run | FileCheck %s
// RUN: %gen --grad --hq 2 --nq 45 --nk 37 --d 16 --chunk 20 --window 6,0 | flash-opt --flash-to-cpu="block-q=8 block-kv=16" | %run | FileCheck %s

// CHECK: ok: 1
