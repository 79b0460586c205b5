#!/usr/bin/env bash
# On the GPU machine: bench/gpu/prepare_window.sh's run (see there).
set -o pipefail
export PYTHONUNBUFFERED=1 FLASH_MLIR_DYNAMIC=0
G=$PWD/${WIN:-gpu_win}
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu,power.draw --format=csv
(cd $G/m && for t in m[0-9]* gm[0-9]* sm[0-9]* mo[0-9]* gmo[0-9]* ch[0-9]* gch[0-9]*; do echo "== $t: $(timeout -s KILL 20 ./$t 2>&1 | tail -1)"; done)
echo "== mods, persistent-captures=0 (window: one block per query block)"
FLASH_MLIR_NVVM_OPTIONS=persistent-captures=0 FLASH_MLIR_CACHE=$G/mcache0 timeout -s KILL 120 python3 bench/gpu/bench_mods.py --cases causal,window 2>&1 | grep -v Warning | tail -12
echo "== mods, persistent-captures=1 (window: persistent)"
FLASH_MLIR_NVVM_OPTIONS=persistent-captures=1 FLASH_MLIR_CACHE=$G/mcache timeout -s KILL 180 python3 bench/gpu/bench_mods.py --kernels --cases causal,window,full,softcap 2>&1 | grep -v Warning | tail -60
