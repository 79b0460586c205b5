#!/usr/bin/env bash
# On the GPU machine: bench/gpu/prepare_bwd_tiles.sh's self-checks, then
# bench.py's d = 64 / 128 backward rows with each variant's kernels (the
# peers, cuDNN and FlashAttention-2, timed with the first).
set -o pipefail
export PYTHONUNBUFFERED=1 FLASH_MLIR_DYNAMIC=0 FLASH_BENCH_DIMS=${FLASH_BENCH_DIMS:-64,128}
G=$PWD/${BWD:-gpu_bwd}
(cd $G && for t in bs[0-9]* bw[0-9]*; do echo "== $t: $(timeout -s KILL 20 ./$t 2>&1 | tail -1)"; done)
first=1
while IFS= read -r c; do
  n=${c%%:*}
  echo "== $n [${c#*:}]"
  FLASH_BENCH_PEERS=$first FLASH_MLIR_NVVM_OPTIONS="${c#*:}" \
    FLASH_MLIR_CACHE=$G/c_$n timeout -s KILL 150 python3 bench/gpu/bench.py \
    --skip-fwd 2>&1 | grep "^| [0-9]"
  first=0
done < $G/variants.txt
