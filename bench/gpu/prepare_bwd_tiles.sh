#!/usr/bin/env bash
# The wgmma backward's operands and tiles at d = 64 / 128 (issue 17): K/V
# (Q/dO) read from shared memory instead of held as register fragments
# (`grad-a-shared`), two warpgroups per block (mma-warps=8), 64-row tiles
# (mma-tile-kv=64). Self-checks of the new forms (odd sizes, Nq = 1, causal
# Nq != Nk with an offset, GQA, masks with fully masked rows, modifiers,
# runtime sizes) and bench.py's backward caches for every variant. From the
# repository root after the build; on the GPU machine, with $OUT (gpu_bwd)
# carried: bash bench/gpu/run_bwd_tiles.sh
set -euo pipefail
OUT=${OUT:-gpu_bwd}
export FLASH_MLIR_DYNAMIC=0
# (Session 27's first run compared, with grad-a-shared off by default:
# def: w8:mma-warps=8 gas:grad-a-shared=1 gast64:"grad-a-shared=1
# mma-tile-kv=64" gasw8:"grad-a-shared=1 mma-warps=8" gasw8t64:...; the
# second the defaults that came of it with the registers form and 64 / 64.)
VARIANTS=(def: regs:grad-a-shared=0 t64:mma-tile-kv=64)
source bench/aot.sh
checks() { # prefix
  local p=$1
  exe ${p}1 --grad --n 130 --d 64 --dtype bf16 --tol 2e-2
  exe ${p}2 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --dtype f16 --tol 4e-3
  exe ${p}3 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 170 --d 128 --causal --dtype bf16 --tol 2e-2
  exe ${p}4 --grad --nq 300 --nk 260 --d 128 --hq 4 --hkv 2 --causal --causal-offset -20 --dtype bf16 --tol 2e-2
  exe ${p}5 --grad --nq 1 --nk 33 --d 128 --dtype f16 --tol 4e-3
  exe ${p}6 --grad --hq 2 --nq 65 --nk 90 --d 128 --mask bool --full-mask --dtype f16 --tol 4e-3
  exe ${p}7 --grad --hq 2 --nq 37 --nk 300 --d 128 --dtype bf16 --causal --tol 2e-2 --dynamic
  exe ${p}8 --grad --batch 2 --hq 4 --hkv 2 --n 300 --d 128 --dtype f16 --window 30,5 --softcap 1.5 --tol 4e-3
  exe ${p}9 --grad --hq 2 --n 200 --d 128 --dtype bf16 --segments 3 --tol 2e-2
}
FLASH_AOT_NVVM_OPTIONS="" checks bs > "$OUT/prep_bs.log" 2>&1 &
FLASH_AOT_NVVM_OPTIONS="grad-a-shared=1 mma-warps=8 mma-tile-kv=64" checks bw > "$OUT/prep_bw.log" 2>&1
wait
for c in "${VARIANTS[@]}"; do
  n=${c%%:*}
  FLASH_BENCH_DIMS=64,128 FLASH_MLIR_NVVM_OPTIONS="${c#*:}" \
    FLASH_MLIR_CACHE=$PWD/$OUT/c_$n /usr/bin/python3 bench/gpu/bench.py \
    --precompile --skip-fwd > "$OUT/prep_$n.log" 2>&1
done
cp build/lib/libflash_cuda_runtime.so "$OUT/"
printf '%s\n' "${VARIANTS[@]}" > "$OUT/variants.txt"
du -sh "$OUT"
