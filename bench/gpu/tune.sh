#!/usr/bin/env bash
# Tuning runs for the tensor-core forward: self-checking AOT programs for each
# `--flash-to-nvvm` variant, and programs that time the kernel
# (FLASH_CUDA_TIMING). Those times include the managed-memory migration of
# the AOT programs' buffers (tens of ms): compare variants' throughput with
#   FLASH_BENCH_DIMS=128 FLASH_MLIR_NVVM_OPTIONS=mma-warps=8 bench/gpu/bench.py
# instead (precompile the variant here with --precompile into the same cache).
# Run from the repository root after `make build`; on the GPU machine, with
# `tune_out` carried: bash tune_out/run.sh
set -euo pipefail
OUT=${OUT:-tune_out}
VARIANTS=${VARIANTS:-"mma-warps=4 mma-warps=8"}
source bench/aot.sh
link() { # src name options
  aot_link "$1" "$2" "--flash-to-nvvm=format=bin $3" flash_cuda_runtime
}
/usr/bin/python3 - "$tmp" <<'PY'
import sys
sys.path.insert(0, "python"); sys.path.insert(0, "bench/cpu")
from flash_mlir import program
from bench import timing_program
tmp = sys.argv[1]
for d in (64, 128):
    for causal in (False, True):
        cfg = program.Config(batch=[4], hq=2048 // d, hkv=2048 // d, nq=4096,
                             nk=4096, d=d, dv=d, dtype="bf16", causal=causal,
                             causal_offset=0 if causal else None, lse=True)
        open(f"{tmp}/time_d{d}_{'c' if causal else 'n'}.mlir", "w").write(
            timing_program(cfg, "fused", 3))
PY
i=0
for v in $VARIANTS; do
  i=$((i+1)); echo "v$i: $v" >> "$OUT/variants.txt"
  for f in "$tmp"/time_*.mlir; do
    n=$(basename "$f" .mlir); link "$f" "v${i}_$n" "$v"
  done
  for c in "--batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --dtype f16 --tol 2e-3" \
           "--nq 37 --nk 300 --d 128 --hq 3 --hkv 1 --causal --causal-offset -20 --dtype bf16 --tol 8e-3" \
           "--nq 200 --nk 200 --d 128 --hq 2 --causal --dtype bf16 --tol 8e-3" \
           "--nq 1000 --nk 1000 --d 64 --batch 2 --hq 2 --hkv 1 --dtype bf16 --tol 8e-3"; do
    i2=$(ls "$OUT" | grep -c "^v${i}_check" || true)
    /usr/bin/python3 utils/mlirgen.py $c > "$tmp/c.mlir"
    link "$tmp/c.mlir" "v${i}_check$i2" "$v"
  done
done
cp build/lib/libflash_cuda_runtime.so "$OUT/"
cat > "$OUT/run.sh" <<'RUN'
cd "$(dirname "$0")"
cat variants.txt
for t in v*_check*; do printf '%s: ' $t; ./$t | tail -1; done
for t in v*_time_*; do
  printf '%s: ' $t
  FLASH_CUDA_TIMING=1 ./$t 2>&1 | grep flash_attention | tail -3 | awk '{s+=$3} END {printf "%.3f ms\n", s/NR}'
done
RUN
