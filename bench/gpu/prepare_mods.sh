#!/usr/bin/env bash
# The GPU machine's artifacts for the score/mask modifiers on the
# tensor-core kernels (mma.sync / wgmma, forward and backward): self-checking
# programs (fused on the GPU vs the unfused reference with the same
# modifiers on the host) and the kernel cache of bench/gpu/bench_mods.py.
# From the repository root after `make build`; then on the GPU machine, with
# gpu_out carried:
#   cd gpu_out && for t in m* gm* sm*; do ./$t | tail -1; done
#   FLASH_MLIR_CACHE=$PWD/gpu_out/cache PYTHONPATH=$PWD/python \
#     python3 bench/gpu/bench_mods.py
set -euo pipefail
OUT=${OUT:-gpu_out}
source bench/aot.sh
# Windows smaller than a tile, GQA, causal; soft-capping at d = 128 (wgmma);
# window + soft-cap with Nq != Nk; a window left of every key (rows that
# see nothing); mma.sync (d = 48).
exe m1 --batch 2 --hq 4 --hkv 2 --n 100 --d 64 --dtype bf16 --window 9,0 --causal --tol 8e-3
exe m2 --hq 3 --nq 37 --nk 100 --d 128 --dtype f16 --softcap 2.0 --amp 2 --tol 2e-3
exe m3 --hq 2 --nq 150 --nk 200 --d 64 --dtype bf16 --window 30,5 --softcap 1.5 --tol 8e-3
exe m4 --hq 2 --nq 100 --nk 37 --d 64 --dtype f16 --window=-1,-25 --tol 2e-3
exe m5 --hq 2 --n 300 --d 48 --dtype f16 --window 70,3 --softcap 3.0 --tol 2e-3
# Windows wider than a tile (unmasked interior tiles), causal or two-sided.
exe m6 --batch 2 --hq 2 --n 600 --d 128 --dtype bf16 --window 200,0 --causal --tol 8e-3
exe m7 --hq 2 --nq 500 --nk 700 --d 64 --dtype f16 --window 150,40 --softcap 5.0 --tol 2e-3
# Captured operands: ALiBi slopes per head (GQA, Nq != Nk), document masks
# (segment ids shared or per sequence), with windows and soft-caps.
exe m8 --batch 2 --hq 4 --hkv 2 --nq 100 --nk 130 --d 64 --dtype bf16 --alibi --causal --tol 8e-3
exe m9 --batch 2 --hq 2 --n 300 --d 128 --dtype f16 --segments 3 --segments-batched --tol 2e-3
exe m10 --hq 3 --n 250 --d 64 --dtype bf16 --alibi --segments 4 --window 60,10 --tol 8e-3
# Document masks skip the tiles no row of a block sees (its block mask).
exe m12 --hq 2 --n 700 --d 128 --dtype bf16 --segments 5 --causal --tol 8e-3
exe m13 --batch 3 --hq 2 --nq 300 --nk 500 --d 64 --dtype f16 --segments 4 --segments-batched --tol 2e-3
exe m11 --hq 2 --nq 70 --nk 200 --d 48 --dtype f16 --softcap 4.0 --alibi --tol 2e-3
# The backward with modifiers (dQ and dK/dV kernels): windows smaller and
# wider than a tile, soft-caps (dS scaled by the derivative), ALiBi,
# documents, GQA, Nq != Nk, rows that see nothing.
exe gm1 --grad --batch 2 --hq 4 --hkv 2 --n 100 --d 64 --dtype f16 --window 9,0 --causal --tol 4e-3
exe gm2 --grad --hq 3 --nq 37 --nk 100 --d 128 --dtype bf16 --softcap 2.0 --amp 2 --tol 2e-2
exe gm3 --grad --hq 2 --nq 150 --nk 200 --d 64 --dtype f16 --window 30,5 --softcap 1.5 --tol 4e-3
exe gm4 --grad --hq 2 --nq 100 --nk 37 --d 64 --dtype f16 --window=-1,-25 --tol 4e-3
exe gm5 --grad --batch 2 --hq 2 --n 600 --d 128 --dtype bf16 --window 200,0 --causal --tol 2e-2
exe gm6 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 130 --d 64 --dtype f16 --alibi --segments 3 --segments-batched --tol 4e-3
exe gm8 --grad --hq 2 --n 128 --d 64 --dtype f16 --softcap 1.5 --tol 4e-3
# Document masks: key tiles (dQ) and query tiles (dK/dV) hidden from a block
# are skipped.
exe gm9 --grad --hq 2 --n 700 --d 128 --dtype bf16 --segments 5 --causal --tol 2e-2
exe gm10 --grad --batch 3 --hq 4 --hkv 2 --nq 300 --nk 500 --d 64 --dtype f16 --segments 4 --segments-batched --tol 4e-3
# Over 1024 keys at d = 128 and 256: the warp-specialized forward, whose
# producer and consumers walk the block mask's tiles.
exe m16 --hq 2 --nq 1500 --nk 1400 --d 128 --dtype bf16 --segments 5 --causal --tol 8e-3
exe m17 --batch 2 --hq 2 --n 1300 --d 256 --dtype bf16 --segments 3 --segments-batched --tol 8e-3
# Segment ids per query head: the block mask per batch-head (the others'
# is per batch), GQA, Nq != Nk.
exe m14 --batch 2 --hq 4 --hkv 2 --nq 333 --nk 270 --d 128 --dtype bf16 --segments 4 --segments-per-head --causal --tol 8e-3
exe gm11 --grad --batch 2 --hq 4 --hkv 2 --nq 150 --nk 230 --d 64 --dtype f16 --segments 5 --segments-per-head --causal --tol 4e-3
# The same spelled seg_q[i] - seg_k[j] == 0: its block mask evaluates
# every position (not by the ranges of the two sides).
exe m15 --batch 2 --hq 2 --nq 300 --nk 410 --d 64 --dtype f16 --segments 4 --segments-diff --causal --tol 2e-3
exe gm12 --grad --hq 2 --n 333 --d 128 --dtype bf16 --segments 3 --segments-diff --tol 2e-2
exe gm7 --grad --hq 2 --n 300 --d 48 --dtype f16 --window 70,3 --softcap 3.0 --alibi --tol 4e-3
# The SIMT kernels (f32; the backward at d = 256) with modifiers.
exe sm1 --hq 2 --nq 300 --nk 280 --d 64 --window 20,3 --softcap 2.0
exe sm2 --grad --batch 2 --hq 4 --hkv 2 --nq 200 --nk 230 --d 64 --segments 5 --alibi --causal
exe sm3 --grad --hq 2 --nq 150 --nk 120 --d 256 --dtype bf16 --window 30,-1 --softcap 3.0 --tol 2e-2
# The window's diagonal as a captured run-time operand (what
# flash_mlir.cuda passes): the persistent warp-specialized forward reads it
# in each query block's setup. Nq != Nk, GQA, Nq = 1, d = 256, a two-sided
# window whose first rows see no key, ALiBi, the backward.
exe mo1 --hq 2 --nq 300 --nk 700 --d 128 --dtype bf16 --window 200,0 --causal --mod-offset --tol 8e-3
exe mo2 --batch 2 --hq 4 --hkv 2 --n 1000 --d 128 --dtype bf16 --window 255,0 --causal --mod-offset --tol 8e-3
exe mo3 --hq 2 --nq 1 --nk 900 --d 128 --dtype bf16 --window 100,0 --causal --mod-offset --tol 8e-3
exe mo4 --hq 2 --n 700 --d 256 --dtype bf16 --window 300,0 --causal --mod-offset --tol 8e-3
exe mo5 --hq 3 --nq 500 --nk 333 --d 128 --dtype f16 --window 64,64 --mod-offset --tol 2e-3
exe mo6 --batch 2 --hq 4 --hkv 2 --nq 200 --nk 260 --d 128 --dtype bf16 --alibi --causal --mod-offset --tol 8e-3
exe gmo1 --grad --hq 2 --nq 300 --nk 500 --d 128 --dtype bf16 --window 100,0 --causal --mod-offset --tol 2e-2
# Chunked attention ((i + off) / C == j / C: a block mask of split
# compares on the tensor-core kernels), Nq != Nk, the backward.
exe ch1 --hq 2 --nq 300 --nk 700 --d 128 --dtype bf16 --chunk 96 --causal --tol 8e-3
exe ch2 --batch 2 --hq 4 --hkv 2 --n 500 --d 64 --dtype f16 --chunk 64 --tol 2e-3
exe gch1 --grad --hq 2 --nq 300 --nk 500 --d 128 --dtype bf16 --chunk 100 --causal --tol 2e-2
cp build/lib/libflash_cuda_runtime.so "$OUT/"
[ -n "${CHECKS_ONLY:-}" ] && exit 0 # no kernel cache for the benchmark
FLASH_MLIR_CACHE=$PWD/$OUT/cache /usr/bin/python3 bench/gpu/bench_mods.py --precompile --cases causal,window,full,softcap,alibi,document
