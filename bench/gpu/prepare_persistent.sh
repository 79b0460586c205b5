#!/usr/bin/env bash
# The persistent warp-specialized forward (persistent-blocks) and P's
# exponentials on the FMA units (fma-exp2), both off by default until this
# has run on a GPU: the self-checks (prepare_hopper.sh, h36-h49), bench.py's
# forward kernels with persistent-blocks=132 and =0 (for bench_trees.py),
# bench_mods.py's kernels both ways, bench_fma_exp2.py's per share. From the
# repository root after the build; then on the GPU machine, with $OUT
# (gpu_pers) carried: bash bench/gpu/run_persistent.sh
set -euo pipefail
G=${OUT:-gpu_pers}
export FLASH_MLIR_DYNAMIC=0
mkdir -p $G
OUT=$G/h SKIP_CACHE=1 bash bench/gpu/prepare_hopper.sh > $G/prep_h.log 2>&1 &
FLASH_MLIR_NVVM_OPTIONS=persistent-blocks=132 FLASH_MLIR_CACHE=$PWD/$G/cache /usr/bin/python3 bench/gpu/bench.py --precompile --skip-bwd > $G/prep_c.log 2>&1
FLASH_MLIR_NVVM_OPTIONS=persistent-blocks=0 FLASH_MLIR_CACHE=$PWD/$G/other /usr/bin/python3 bench/gpu/bench.py --precompile --skip-bwd > $G/prep_o.log 2>&1
mkdir -p $G
rm -rf $G/other_python && cp -r python $G/other_python
G=$G /usr/bin/python3 - <<'PY'
import os
p = os.environ["G"] + "/other_python/flash_mlir/cuda.py"
s = open(p).read()
old = 'return os.environ.get("FLASH_MLIR_NVVM_OPTIONS", "").strip()'
assert old in s
s = s.replace(old, 'return "persistent-blocks=0"')
open(p, "w").write(s)
PY
FLASH_MLIR_NVVM_OPTIONS=persistent-blocks=132 FLASH_MLIR_CACHE=$PWD/$G/mcache /usr/bin/python3 bench/gpu/bench_mods.py --precompile --cases causal,window,full,softcap > $G/prep_m.log 2>&1
FLASH_MLIR_NVVM_OPTIONS=persistent-blocks=0 FLASH_MLIR_CACHE=$PWD/$G/mcache0 /usr/bin/python3 bench/gpu/bench_mods.py --precompile --cases causal,window,full,softcap > $G/prep_m0.log 2>&1
wait
find $G -name '*pycache*' -prune -exec rm -rf {} +
du -sh $G
for o in 0 2 3 4 6; do
  FLASH_MLIR_NVVM_OPTIONS=fma-exp2=$o FLASH_MLIR_CACHE=$PWD/$G/sc$o /usr/bin/python3 bench/gpu/bench_fma_exp2.py --precompile
done
find $G -name '*pycache*' -prune -exec rm -rf {} +
# The d = 256 backward on wgmma (K/V and Q/dO from shared memory, dK/dV in
# column halves): self-checks, and bench.py's d = 256 rows (forward and
# backward) next to cuDNN's.
OUT=$G/h P=gd bash bench/gpu/prepare_d256_grad.sh > $G/prep_gd.log 2>&1
FLASH_BENCH_DIMS=256 FLASH_MLIR_CACHE=$PWD/$G/bwd256 /usr/bin/python3 bench/gpu/bench.py --precompile > $G/prep_b256.log 2>&1
find $G -name '*pycache*' -prune -exec rm -rf {} +
