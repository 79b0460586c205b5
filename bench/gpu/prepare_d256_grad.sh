#!/usr/bin/env bash
# Self-checking programs of the d = 256 backward on wgmma (MmaGradKernels.cpp:
# Q/dO and K/V read from shared memory, dK/dV in two column halves per key
# block): a partial tile of one query, several double-buffered tiles with
# GQA, causal with Nq != Nk and an offset, masks with fully masked rows,
# runtime sizes, modifiers (a window with soft-capping, a document mask's
# block skipping, ALiBi), f16 and bf16. From the repository root after the
# build (grad-d256 is the default since they passed on the H200, session
# 25); on the GPU machine: for t in $OUT/gd*; do $t | tail -1; done
set -euo pipefail
OUT=${OUT:-gpu_gd}
source bench/aot.sh
exe ${P:-gd}1 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 130 --d 256 --causal --dtype bf16 --tol 2e-2
exe ${P:-gd}2 --grad --n 1000 --d 256 --hq 2 --dtype bf16 --tol 2e-2
exe ${P:-gd}3 --grad --nq 1 --nk 33 --d 256 --dtype f16 --tol 4e-3
exe ${P:-gd}4 --grad --nq 300 --nk 260 --d 256 --hq 4 --hkv 2 --causal --causal-offset -20 --dtype bf16 --tol 2e-2
exe ${P:-gd}5 --grad --batch 2 --hq 3 --nq 37 --nk 300 --d 256 --mask bool --full-mask --dtype f16 --tol 4e-3
exe ${P:-gd}6 --grad --dynamic --n 333 --d 256 --causal --hq 2 --dtype bf16 --tol 2e-2
exe ${P:-gd}7 --grad --hq 2 --n 600 --d 256 --window 200,0 --causal --softcap 20 --dtype bf16 --tol 2e-2
exe ${P:-gd}8 --grad --hq 2 --n 333 --d 256 --segments 3 --dtype f16 --tol 4e-3
exe ${P:-gd}9 --grad --nq 130 --nk 65 --d 256 --hq 2 --mask add --causal --dtype bf16 --tol 2e-2
exe ${P:-gd}10 --grad --hq 2 --n 200 --d 256 --alibi --causal --dtype f16 --tol 4e-3
exe ${P:-gd}11 --grad --hq 2 --n 300 --d 256 --dtype bf16 --tol 2e-2 --deterministic
