#!/usr/bin/env bash
# On the GPU machine: the d = 256 backward's self-checks and bench.py's
# d = 256 rows, as bench/gpu/prepare_persistent.sh built them.
set -o pipefail
export PYTHONUNBUFFERED=1 FLASH_MLIR_DYNAMIC=0
G=$PWD/${PERS:-gpu_pers}
(cd $G/h && for t in gd*[0-9]; do echo "== $t: $(timeout -s KILL 30 ./$t 2>&1 | tail -1)"; done)
FLASH_BENCH_DIMS=256 FLASH_MLIR_CACHE=$G/bwd256 timeout -s KILL 300 python3 bench/gpu/bench.py 2>&1 | grep -v Warning
