#!/usr/bin/env bash
# Prepares everything the GPU machine needs (it has no MLIR): the CUDA
# runtime, ahead-of-time compiled self-checking test programs (fused on the
# GPU vs the unfused reference on the host), and the kernel cache for the
# Python front and bench/gpu/bench.py. Run from the repository root after
# `make build`; then, on the GPU machine, with `gpu_out` carried:
#   cd gpu_out && for t in t* g*; do ./$t | tail -1; done
#   FLASH_MLIR_CACHE=$PWD/gpu_out/cache PYTHONPATH=$PWD/python \
#     python3 bench/gpu/bench.py
set -euo pipefail
OUT=${OUT:-gpu_out}
source bench/aot.sh
exe t1 --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal
exe t2 --n 65 --d 128
exe t3 --nq 37 --nk 100 --d 32 --causal --dtype bf16 --tol 8e-3 --hq 3
exe t4 --nq 100 --nk 37 --d 32 --causal --causal-offset 0 --hq 2
exe t5 --nq 1000 --nk 1000 --d 64 --batch 2 --hq 2 --hkv 1
exe t6 --n 130 --d 48 --dv 80 --dtype f16 --tol 1e-3
exe t7 --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --mask add
exe t8 --batch 2 --hq 3 --nq 37 --nk 100 --d 32 --mask bool --full-mask --dtype f16 --tol 1e-3
# The tensor-core forward (f16/bf16, head dim a multiple of 16 up to 128,
# no mask): odd sizes, causal with Nq != Nk, GQA, fully masked rows.
exe t9 --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --dtype f16 --tol 2e-3
exe t10 --n 200 --d 128 --dtype bf16 --tol 8e-3 --hq 3
exe t11 --nq 1 --nk 33 --d 16 --dtype bf16 --tol 8e-3
exe t12 --nq 37 --nk 300 --d 128 --hq 3 --hkv 1 --causal --dtype f16 --tol 2e-3
exe t13 --nq 130 --nk 65 --d 32 --causal --causal-offset -20 --dtype bf16 --tol 8e-3 --hq 2
exe t14 --nq 1000 --nk 1000 --d 64 --batch 2 --hq 2 --hkv 1 --dtype bf16 --tol 8e-3
# Masks on tensor cores: additive broadcast, bool with fully masked rows.
exe t15 --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --mask add --dtype bf16 --tol 8e-3
exe t16 --batch 2 --hq 3 --nq 37 --nk 100 --d 128 --mask bool --full-mask --dtype f16 --tol 2e-3
# d = 256 forward on tensor cores (32-key tiles).
exe t17 --batch 2 --hq 4 --hkv 2 --nq 100 --nk 130 --d 256 --causal --dtype bf16 --tol 8e-3
exe t18 --n 65 --d 256 --hq 2 --mask bool --full-mask --dtype f16 --tol 2e-3
# The d = 256 wgmma forward: two warpgroups, a two-stage K/V ring (several
# tiles through both stages, GQA, causal Nq != Nk, rows without keys, one
# query, runtime sizes, a document mask's tile skipping, masked rows).
exe t20 --batch 2 --hq 4 --hkv 2 --nq 300 --nk 530 --d 256 --causal --dtype bf16 --tol 8e-3
exe t21 --nq 1 --nk 200 --d 256 --dtype f16 --tol 2e-3
exe t22 --nq 130 --nk 200 --d 256 --causal --causal-offset -70 --hq 2 --dtype bf16 --tol 8e-3
exe t23 --dynamic --n 333 --d 256 --hq 2 --dtype bf16 --tol 8e-3
exe t24 --nq 300 --nk 700 --d 256 --segments 3 --dtype bf16 --tol 8e-3
exe t25 --batch 2 --hq 3 --nq 37 --nk 300 --d 256 --mask bool --full-mask --dtype f16 --tol 2e-3
exe g1 --grad --n 65 --d 32
exe g2 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal
exe g3 --grad --nq 100 --nk 37 --d 32 --causal --hq 2
exe g4 --grad --n 130 --d 64 --dtype bf16 --tol 2e-2
exe g5 --grad --nq 37 --nk 100 --d 48 --dv 32 --causal --causal-offset 0
exe g6 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 32 --mask add --causal
exe g7 --grad --hq 2 --nq 65 --nk 90 --d 32 --mask bool --full-mask
# The tensor-core backward (f16/bf16, head dim a multiple of 16 up to 128).
exe g8 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --dtype f16 --tol 4e-3
exe g9 --grad --nq 130 --nk 65 --d 32 --hq 2 --causal --causal-offset -20 --dtype bf16 --tol 2e-2
exe g10 --grad --nq 37 --nk 300 --d 16 --hq 3 --hkv 1 --dtype bf16 --tol 2e-2
exe g11 --grad --n 200 --d 48 --hq 2 --causal --dtype f16 --tol 4e-3
exe g12 --grad --nq 1 --nk 33 --d 64 --dtype f16 --tol 4e-3
exe g13 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 128 --causal --dtype bf16 --tol 2e-2
exe g14 --grad --n 130 --d 96 --hq 2 --dtype f16 --tol 4e-3
exe g15 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --mask add --dtype bf16 --tol 2e-2
exe g16 --grad --hq 2 --nq 65 --nk 90 --d 32 --mask bool --full-mask --dtype f16 --tol 4e-3
# wgmma backward (sm_90a, head dim 64 / 128): a partial query tile with
# one query (its zero P fragments once shared a register with the wgmma
# accumulators), several double-buffered tiles with GQA, causal.
exe g17 --grad --nq 1 --nk 33 --d 64 --dtype bf16 --tol 2e-2
exe g18 --grad --batch 2 --hq 3 --nq 37 --nk 300 --d 64 --causal --dtype f16 --tol 4e-3
exe g19 --grad --nq 300 --nk 260 --d 128 --hq 4 --hkv 2 --causal --causal-offset -20 --dtype bf16 --tol 2e-2
# The SIMT kernels with several threads per row (row-lanes): f32 at
# d = 128, the bf16 backward at d = 256, d = 48 / dv = 64.
exe t19 --batch 2 --hq 4 --hkv 2 --nq 300 --nk 260 --d 128 --causal --causal-offset -20 --mask bool --full-mask
exe g20 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 130 --d 256 --causal --dtype bf16 --tol 2e-2
exe g21 --grad --batch 2 --hq 4 --hkv 2 --nq 300 --nk 260 --d 128 --causal --causal-offset -20 --mask add
exe g22 --grad --nq 33 --nk 65 --d 48 --dv 64 --hq 2 --mask bool --full-mask
cp build/lib/libflash_cuda_runtime.so "$OUT/"
FLASH_MLIR_CACHE="$OUT/cache" /usr/bin/python3 bench/gpu/bench.py --precompile
FLASH_MLIR_CACHE="$OUT/cache" /usr/bin/python3 bench/gpu/bench_simt.py --precompile
FLASH_MLIR_CACHE="$OUT/cache" FLASH_MLIR_NVVM_OPTIONS=row-lanes=1 \
  /usr/bin/python3 bench/gpu/bench_simt.py --precompile
FLASH_MLIR_CACHE="$OUT/cache" /usr/bin/python3 - <<'PY'
import sys
sys.path.insert(0, "python")
from flash_mlir import cuda, program
# The configurations of test/Python/cuda_autograd.py (masks as the Python
# front passes them: additive f32, [Nq, Nk] or the full [B, H, Nq, Nk]).
for B, Hq, Hkv, N, D, causal, dt, masked in [
        (2, 4, 2, 100, 64, True, "f32", None),
        (1, 3, 3, 65, 32, False, "f32", None),
        (2, 2, 1, 130, 64, True, "bf16", None),
        (2, 4, 2, 100, 64, False, "f32", "full"),
        (1, 3, 3, 65, 32, True, "f32", "2d")]:
    cfg = program.Config(batch=[B], hq=Hq, hkv=Hkv, nq=N, nk=N, d=D, dv=D,
                         dtype=dt, causal=causal,
                         causal_offset=0 if causal else None, lse=True)
    if masked:
        cfg.mask, cfg.mask_bcast = "add", masked == "2d"
    cuda.compile_kernel(cfg)
    cuda.compile_kernel(cfg, grad=True)
print("kernel cache ready")
PY
