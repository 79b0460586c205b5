#!/usr/bin/env bash
# The persistent window forward (persistent-captures: a mask_mod whose
# diagonal is a captured run-time operand, as flash_mlir.cuda builds it):
# the self-checks (prepare_mods.sh's, mo1-mo6 and gmo1 new) with it on,
# and bench_mods.py's kernels with it on and off (persistent-captures=0: the window
# kernel: one block per query block). From the repository root after the
# build; then on the GPU machine, with $OUT (gpu_win) carried:
# bash bench/gpu/run_window.sh
set -euo pipefail
G=${OUT:-gpu_win}
export FLASH_MLIR_DYNAMIC=0
mkdir -p $G
FLASH_AOT_NVVM_OPTIONS=persistent-captures=1 OUT=$G/m CHECKS_ONLY=1 bash bench/gpu/prepare_mods.sh > $G/prep_m.log 2>&1 &
FLASH_MLIR_NVVM_OPTIONS=persistent-captures=1 FLASH_MLIR_CACHE=$PWD/$G/mcache /usr/bin/python3 bench/gpu/bench_mods.py --precompile --cases causal,window,full,softcap > $G/prep_c.log 2>&1
FLASH_MLIR_NVVM_OPTIONS=persistent-captures=0 FLASH_MLIR_CACHE=$PWD/$G/mcache0 /usr/bin/python3 bench/gpu/bench_mods.py --precompile --cases causal,window > $G/prep_c0.log 2>&1
wait
find $G -name '*pycache*' -prune -exec rm -rf {} +
du -sh $G
