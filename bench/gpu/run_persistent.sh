#!/usr/bin/env bash
# On the GPU machine: bench/gpu/prepare_persistent.sh's run (see there).
set -o pipefail
export PYTHONUNBUFFERED=1 FLASH_MLIR_DYNAMIC=0
G=$PWD/${PERS:-gpu_pers}
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu,power.draw --format=csv
(cd $G/h && for t in h*[0-9]; do echo "== $t: $(timeout -s KILL 20 ./$t 2>&1 | tail -1)"; done)
echo "== softcap fma-exp2"
for o in 0 2 3 4 6; do FLASH_MLIR_NVVM_OPTIONS=fma-exp2=$o FLASH_MLIR_CACHE=$G/sc$o timeout -s KILL 60 python3 bench/gpu/bench_fma_exp2.py 2>&1 | grep -v Warning | tail -3; done
FLASH_MLIR_NVVM_OPTIONS=persistent-blocks=132 timeout -s KILL 240 python3 bench/gpu/bench_trees.py --other $G/other_python --other-cache $G/other --cache $G/cache --rounds 3 --passes fwd 2>&1 | grep -v Warning
echo "== mods persistent"
FLASH_MLIR_NVVM_OPTIONS=persistent-blocks=132 FLASH_MLIR_CACHE=$G/mcache timeout -s KILL 150 python3 bench/gpu/bench_mods.py --cases causal,window,full,softcap 2>&1 | grep -v Warning | tail -30
echo "== mods persistent-blocks=0"
FLASH_MLIR_NVVM_OPTIONS=persistent-blocks=0 FLASH_MLIR_CACHE=$G/mcache0 timeout -s KILL 150 python3 bench/gpu/bench_mods.py --cases causal,window,full,softcap 2>&1 | grep -v Warning | tail -30
