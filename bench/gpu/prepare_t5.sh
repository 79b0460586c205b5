#!/usr/bin/env bash
# Self-checking programs of a score_mod that reads a captured table at
# computed positions: T5's relative-position bias (a [32, H] table at the
# bidirectional log bucket of j - i: math.log, fptosi, minsi, select, then
# tensor.extract), on every GPU kernel kind, forward and backward: the wgmma
# forward (one warpgroup; warp-specialized over 1024 keys; d = 256; runtime
# sizes), the wgmma backward (d = 64, 128, 256), mma.sync-free f32 (SIMT).
# Odd sizes, GQA, causal with Nq != Nk, past max_distance (128). From the
# repository root after the build; on the GPU machine:
#   for t in $OUT/t5*; do $t | tail -1; done
set -euo pipefail
OUT=${OUT:-gpu_t5}
source bench/aot.sh
exe ${P:-t5}1 --batch 2 --hq 4 --hkv 2 --nq 300 --nk 700 --d 128 --t5-buckets 32 --dtype bf16 --tol 8e-3
exe ${P:-t5}2 --hq 2 --n 1500 --d 128 --t5-buckets 32 --causal --dtype bf16 --tol 8e-3
exe ${P:-t5}3 --batch 2 --hq 4 --hkv 1 --nq 130 --nk 333 --d 64 --t5-buckets 32 --causal --dtype f16 --tol 2e-3
exe ${P:-t5}4 --hq 2 --n 600 --d 256 --t5-buckets 32 --dtype bf16 --tol 8e-3
exe ${P:-t5}5 --dynamic --hq 2 --nq 500 --nk 900 --d 128 --t5-buckets 32 --dtype bf16 --tol 8e-3
exe ${P:-t5}6 --hq 2 --nq 70 --nk 200 --d 32 --t5-buckets 32 --dtype f32 --tol 1e-4
exe ${P:-t5}7 --grad --batch 2 --hq 4 --hkv 2 --nq 300 --nk 400 --d 128 --t5-buckets 32 --causal --dtype bf16 --tol 2e-2
exe ${P:-t5}8 --grad --hq 2 --nq 200 --nk 170 --d 64 --t5-buckets 32 --dtype f16 --tol 4e-3
exe ${P:-t5}9 --grad --hq 2 --n 300 --d 256 --t5-buckets 32 --dtype bf16 --tol 2e-2
cp build/lib/libflash_cuda_runtime.so "$OUT/"
