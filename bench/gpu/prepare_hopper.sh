#!/usr/bin/env bash
# Prepares the Hopper-forward run (issue 17) for the GPU machine: the
# self-checking programs of the wgmma forward (AOT, fused on the GPU vs the
# unfused reference on the host) and the kernel cache of
# bench/gpu/bench_hopper.py's variants. From the repository root after the
# build; FLASH_OPT_BASE / FLASH_HOPPER_VARIANTS as bench_hopper.py says;
# FLASH_OPT (the programs' compiler), P (their name prefix, h) and
# SKIP_CACHE=1 (programs only) to add another compiler's programs.
# On the GPU machine, with $OUT carried:
#   cd $OUT && for t in h*; do ./$t | tail -1; done   (P's programs too)
#   FLASH_MLIR_CACHE=$OUT/cache python3 bench/gpu/bench_hopper.py
set -euo pipefail
OUT=${OUT:-gpu_hop}
source bench/aot.sh
# The pipelined wgmma forward: several tiles and both K/V stages, odd
# sizes, causal with Nq != Nk, GQA, rows with no key (o = 0, lse = -inf),
# one query, one tile, modifiers (a document mask's tile skipping, a
# window, soft-capping), masks, runtime sizes, d = 256.
exe ${P:-h}1 --n 1000 --d 128 --hq 2 --dtype bf16 --tol 8e-3
exe ${P:-h}2 --batch 2 --hq 4 --hkv 2 --nq 1000 --nk 777 --d 64 --causal --dtype bf16 --tol 8e-3
exe ${P:-h}3 --nq 130 --nk 200 --d 64 --causal --causal-offset -70 --hq 2 --dtype bf16 --tol 8e-3
exe ${P:-h}4 --nq 1 --nk 1000 --d 128 --hq 2 --dtype bf16 --tol 8e-3
exe ${P:-h}5 --nq 70 --nk 33 --d 64 --dtype f16 --tol 2e-3
exe ${P:-h}6 --nq 300 --nk 1000 --d 128 --segments 3 --dtype bf16 --tol 8e-3
exe ${P:-h}7 --n 700 --d 64 --window 100,0 --dtype bf16 --tol 8e-3
exe ${P:-h}8 --n 500 --d 128 --softcap 30 --dtype f16 --tol 2e-3
exe ${P:-h}9 --batch 2 --hq 4 --hkv 2 --nq 300 --nk 500 --d 128 --causal --mask add --dtype bf16 --tol 8e-3
exe ${P:-h}10 --batch 2 --hq 3 --nq 37 --nk 700 --d 64 --mask bool --full-mask --dtype f16 --tol 2e-3
exe ${P:-h}11 --dynamic --n 333 --d 128 --causal --hq 2 --dtype bf16 --tol 8e-3
exe ${P:-h}12 --batch 2 --hq 4 --hkv 2 --nq 100 --nk 530 --d 256 --causal --dtype bf16 --tol 8e-3
# The earlier tensor-core forward programs (prepare.sh's t9-t18).
exe ${P:-h}13 --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --dtype f16 --tol 2e-3
exe ${P:-h}14 --n 200 --d 128 --dtype bf16 --tol 8e-3 --hq 3
exe ${P:-h}15 --nq 37 --nk 300 --d 128 --hq 3 --hkv 1 --causal --dtype f16 --tol 2e-3
exe ${P:-h}16 --nq 1000 --nk 1000 --d 64 --batch 2 --hq 2 --hkv 1 --dtype bf16 --tol 8e-3
exe ${P:-h}17 --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --mask add --dtype bf16 --tol 8e-3
exe ${P:-h}18 --batch 2 --hq 3 --nq 37 --nk 100 --d 128 --mask bool --full-mask --dtype f16 --tol 2e-3
exe ${P:-h}19 --batch 2 --hq 4 --hkv 2 --nq 100 --nk 130 --d 256 --causal --dtype bf16 --tol 8e-3
exe ${P:-h}20 --n 65 --d 256 --hq 2 --mask bool --full-mask --dtype f16 --tol 2e-3
# The warp-specialized d = 128 forward (128-row blocks, 128-key tiles in a
# two-stage ring): exactly one tile, one row into the second, a last block
# of one row, many rounds of the ring with GQA 8:1, runtime sizes (static
# shapes of at most 1024 keys take the one-warpgroup kernel: the short ones
# have runtime sizes).
exe ${P:-h}21 --dynamic --nq 128 --nk 128 --d 128 --hq 2 --dtype bf16 --tol 8e-3
exe ${P:-h}22 --dynamic --nq 129 --nk 129 --d 128 --hq 2 --causal --dtype f16 --tol 2e-3
exe ${P:-h}23 --batch 2 --hq 8 --hkv 1 --nq 257 --nk 1500 --d 128 --dtype bf16 --tol 8e-3
exe ${P:-h}24 --dynamic --nq 700 --nk 333 --d 128 --hq 4 --hkv 2 --dtype bf16 --tol 8e-3
# Affine mask_mods on the warp-specialized forward (the producer streams
# the window's tiles only): a window narrower than a tile, one wider than
# the 128-row block with Nq != Nk and GQA, a two-sided window, a window with
# soft-capping, a window with a causal limit off the corner, runtime sizes.
exe ${P:-h}25 --dynamic --n 700 --d 128 --window 100,0 --hq 2 --dtype bf16 --tol 8e-3
exe ${P:-h}26 --batch 2 --hq 4 --hkv 2 --nq 500 --nk 1300 --d 128 --window 300,0 --dtype bf16 --tol 8e-3
exe ${P:-h}27 --dynamic --n 1000 --d 128 --window 200,57 --hq 2 --dtype f16 --tol 2e-3
exe ${P:-h}28 --dynamic --n 900 --d 128 --window 256,0 --softcap 20 --hq 2 --dtype bf16 --tol 8e-3
exe ${P:-h}29 --dynamic --nq 333 --nk 800 --d 128 --causal --window 130,-1 --hq 2 --dtype bf16 --tol 8e-3
# The warp-specialized forward at d = 256 (64-key tiles, Q in two of them):
# several ring rounds, one tile exactly, one row into the second tile,
# causal GQA with Nq != Nk, a window, a one-row last block.
exe ${P:-h}30 --n 1100 --d 256 --hq 2 --dtype bf16 --tol 8e-3
exe ${P:-h}31 --dynamic --nq 64 --nk 64 --d 256 --hq 2 --dtype f16 --tol 2e-3
exe ${P:-h}32 --dynamic --nq 65 --nk 65 --d 256 --hq 2 --causal --dtype bf16 --tol 8e-3
exe ${P:-h}33 --dynamic --batch 2 --hq 4 --hkv 2 --nq 300 --nk 777 --d 256 --causal --dtype bf16 --tol 8e-3
exe ${P:-h}34 --dynamic --n 600 --d 256 --window 150,20 --softcap 30 --hq 2 --dtype bf16 --tol 8e-3
exe ${P:-h}35 --batch 2 --hq 3 --nq 257 --nk 700 --d 256 --dtype f16 --tol 2e-3
# The persistent warp-specialized forward (static sizes, no causal limit
# or a window's): query blocks of every batch-head in turn per block, Q in
# two buffers, the ring's position carried across query blocks. Few
# blocks (persistent-blocks) give each many query blocks of different tile
# counts: the Nk edge, windows whose first rows see fewer tiles, rows that
# see no key (no tile at all), GQA, one query, odd sizes, d = 256 (one Q
# buffer). persistent-blocks is 0 by default: each program names it.
FLASH_AOT_NVVM_OPTIONS=persistent-blocks=132 \
  exe ${P:-h}36 --batch 2 --hq 16 --nq 1100 --nk 1000 --d 128 --dtype bf16 --tol 8e-3
FLASH_AOT_NVVM_OPTIONS=persistent-blocks=5 \
  exe ${P:-h}37 --batch 2 --hq 4 --hkv 2 --nq 700 --nk 333 --d 128 --dtype bf16 --tol 8e-3
FLASH_AOT_NVVM_OPTIONS=persistent-blocks=3 \
  exe ${P:-h}38 --hq 3 --n 900 --d 128 --window 300,0 --causal --dtype bf16 --tol 8e-3
FLASH_AOT_NVVM_OPTIONS=persistent-blocks=2 \
  exe ${P:-h}39 --hq 2 --nq 500 --nk 300 --d 128 --window=-1,-200 --dtype f16 --tol 2e-3
FLASH_AOT_NVVM_OPTIONS=persistent-blocks=7 \
  exe ${P:-h}40 --batch 3 --hq 5 --nq 1 --nk 1000 --d 128 --dtype bf16 --tol 8e-3
FLASH_AOT_NVVM_OPTIONS=persistent-blocks=4 \
  exe ${P:-h}41 --hq 2 --nq 600 --nk 800 --d 128 --window 200,57 --dtype f16 --tol 2e-3
FLASH_AOT_NVVM_OPTIONS=persistent-blocks=3 \
  exe ${P:-h}42 --batch 2 --hq 3 --nq 257 --nk 700 --d 256 --dtype bf16 --tol 8e-3
FLASH_AOT_NVVM_OPTIONS=persistent-blocks=2 \
  exe ${P:-h}43 --hq 2 --n 1000 --d 256 --window 150,20 --causal --dtype bf16 --tol 8e-3
FLASH_AOT_NVVM_OPTIONS=persistent-blocks=1 \
  exe ${P:-h}44 --batch 2 --hq 2 --nq 129 --nk 128 --d 128 --dtype f16 --tol 2e-3
# Exponentials on the FMA units (fma-exp2: all of them, or the soft-cap's
# default share): rows with no key (2^-inf must be exactly 0), masks,
# soft-capping on the warp-specialized and the one-warpgroup kernels.
FLASH_AOT_NVVM_OPTIONS=fma-exp2=8 \
  exe ${P:-h}45 --batch 2 --hq 3 --nq 37 --nk 700 --d 64 --mask bool --full-mask --dtype f16 --tol 2e-3
FLASH_AOT_NVVM_OPTIONS="fma-exp2=8 persistent-blocks=3" \
  exe ${P:-h}46 --hq 2 --nq 500 --nk 300 --d 128 --window=-1,-200 --dtype bf16 --tol 8e-3
FLASH_AOT_NVVM_OPTIONS=fma-exp2=-1 \
  exe ${P:-h}47 --dynamic --batch 2 --hq 4 --hkv 2 --nq 700 --nk 1500 --d 128 --softcap 30 --dtype bf16 --tol 8e-3
FLASH_AOT_NVVM_OPTIONS=fma-exp2=-1 \
  exe ${P:-h}48 --nq 300 --nk 1000 --d 64 --softcap 20 --causal --dtype f16 --tol 2e-3
FLASH_AOT_NVVM_OPTIONS=fma-exp2=8 \
  exe ${P:-h}49 --n 1000 --d 256 --softcap 30 --hq 2 --dtype bf16 --tol 8e-3
cp build/lib/libflash_cuda_runtime.so "$OUT/"
[ -n "${SKIP_CACHE:-}" ] ||
  FLASH_MLIR_CACHE="$OUT/cache" /usr/bin/python3 bench/gpu/bench_hopper.py --precompile
