#!/usr/bin/env bash
# The backward with dQ by atomics (deterministic=false; issue 17) for the
# GPU machine: self-checking programs (the fused backward on the GPU
# against the unfused gradient program on the host) and bench.py's kernel
# cache with the option. From the repository root after the build; on the
# GPU machine, with $OUT carried:
#   cd $OUT && for t in ga*; do timeout -s KILL 20 ./$t | tail -1; done
#   FLASH_MLIR_NVVM_OPTIONS=deterministic=false FLASH_BENCH_DIMS=64,128 \
#     FLASH_MLIR_CACHE=$OUT/cache python3 bench/gpu/bench.py
# Odd sizes (a last key block of one key, query tiles past Nq, several
# accumulator blocks), GQA (a kv block's atomics into every query head of
# its group), causal with Nq != Nk and offsets (rows with no key), one
# query, masks (additive; a keep-mask with fully masked rows), affine
# mask_mods and score_mods, runtime sizes; d = 64 and 128. GA_BASE replaces
# deterministic=false (GA_BASE= GA_PREFIX=gd: the same checks on the
# deterministic default).
set -euo pipefail
OUT=${OUT:-gpu_atomic}
export FLASH_AOT_NVVM_OPTIONS="${GA_BASE-deterministic=false} ${GA_OPTIONS:-}"
P=${GA_PREFIX:-ga}
source bench/aot.sh
exe ${P}1 --grad --n 130 --d 64 --dtype bf16 --tol 2e-2
exe ${P}2 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --dtype f16 --tol 4e-3
exe ${P}3 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 128 --causal --dtype bf16 --tol 2e-2
exe ${P}4 --grad --nq 300 --nk 260 --d 128 --hq 4 --hkv 2 --causal --causal-offset -20 --dtype bf16 --tol 2e-2
exe ${P}5 --grad --nq 1 --nk 33 --d 64 --dtype f16 --tol 4e-3
exe ${P}6 --grad --nq 37 --nk 300 --d 128 --hq 3 --hkv 1 --dtype f16 --tol 4e-3
exe ${P}7 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --mask add --dtype bf16 --tol 2e-2
exe ${P}8 --grad --hq 2 --nq 65 --nk 90 --d 128 --mask bool --full-mask --dtype f16 --tol 4e-3
exe ${P}9 --grad --batch 2 --hq 4 --hkv 2 --nq 300 --nk 260 --d 128 --causal --causal-offset -20 --mask add --dtype bf16 --tol 2e-2
exe ${P}10 --grad --nq 700 --nk 1000 --d 128 --hq 2 --dtype bf16 --tol 2e-2
exe ${P}11 --grad --hq 2 --nq 37 --nk 300 --d 128 --dtype bf16 --causal --tol 2e-2 --dynamic
exe ${P}12 --grad --batch 2 --hq 4 --hkv 2 --n 300 --d 64 --dtype f16 --window 30,5 --softcap 1.5 --tol 4e-3
exe ${P}13 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 130 --d 128 --dtype bf16 --alibi --causal --tol 2e-2
exe ${P}14 --grad --n 600 --d 128 --hq 2 --window 200,0 --causal --dtype bf16 --tol 2e-2
# A GQA group of 4 under a causal limit (its dv reaches 4-8: the bf16
# tolerance scaled, mlirgen); Nq > Nk with an offset (f16: its host
# reference took 62-64 s before aot.sh's -mf16c). Both pass in both forms
# (session 36).
exe ${P}15 --grad --hq 8 --hkv 2 --n 777 --d 128 --causal --dtype bf16 --tol 2e-2
exe ${P}16 --grad --hq 3 --nq 2000 --nk 1500 --d 64 --causal --causal-offset 300 --dtype f16 --tol 4e-3
cp build/lib/libflash_cuda_runtime.so "$OUT/"
[ -n "${SKIP_CACHE:-}" ] ||
  FLASH_MLIR_NVVM_OPTIONS="deterministic=false" FLASH_BENCH_DIMS=64,128 \
    FLASH_MLIR_CACHE="$OUT/cache" /usr/bin/python3 bench/gpu/bench.py --precompile
