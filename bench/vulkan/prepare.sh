#!/usr/bin/env bash
# Prepares the Vulkan run on the GPU machine (it has no MLIR, no Vulkan
# loader): self-checking programs through --flash-to-spirv (SPIR-V kernels vs
# the unfused reference on the host), timing programs (not with
# CHECKS_ONLY=1) through --flash-to-spirv
# and --flash-to-nvvm for the same configurations, both runtimes, and the
# Vulkan loader + glvnd libraries from this machine. Run from the repository
# root after `make build`; then, on the GPU machine, with `vk_out` carried:
#   bash vk_out/run.sh
set -euo pipefail
OUT=${OUT:-vk_out}
source bench/aot.sh
link() { # name pipeline runtime
  aot_link "$tmp/$1.mlir" "$1" "$2" "$3"
}
check() { # name mlirgen-args...
  local name=$1; shift
  /usr/bin/python3 utils/mlirgen.py "$@" > "$tmp/$name.mlir"
  link "$name" --flash-to-spirv flash_vulkan_runtime
}
check v1 --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal
check v2 --n 65 --d 128
check v3 --nq 37 --nk 100 --d 32 --causal --dtype bf16 --tol 8e-3 --hq 3
check v4 --nq 130 --nk 130 --d 64 --dtype f16 --tol 2e-3 --hq 2
check v5 --batch 2 --hq 3 --nq 37 --nk 100 --d 32 --mask bool --full-mask --causal
check v6 --nq 1000 --nk 1000 --d 64 --batch 2 --hq 2 --hkv 1
check w1 --grad --n 65 --d 32
check w2 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal
check w3 --grad --n 130 --d 64 --dtype f16 --tol 4e-3
check w4 --grad --hq 2 --nq 65 --nk 90 --d 32 --mask bool --full-mask --dtype bf16 --tol 2e-2
check w5 --grad --n 1024 --d 128 --dtype f16 --tol 4e-3
# The f16 forward on KHR cooperative matrices (a target environment with the
# CooperativeMatrixKHR capability): odd sizes, causal, GQA, masks with fully
# masked rows, head dims 16..256.
# The H200's Vulkan driver offers 48 KiB of workgroup memory (the d = 256
# forward needs more than the default 32 KiB).
COOP='--flash-to-spirv=caps=CooperativeMatrixKHR max-workgroup-memory=49152'
checkc() { # name mlirgen-args...
  local name=$1; shift
  /usr/bin/python3 utils/mlirgen.py "$@" > "$tmp/$name.mlir"
  link "$name" "$COOP" flash_vulkan_runtime
}
checkc c1 --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --dtype f16 --tol 2e-3
checkc c2 --n 65 --d 128 --dtype f16 --tol 2e-3
checkc c3 --batch 2 --hq 3 --nq 37 --nk 100 --d 32 --mask bool --full-mask --causal --dtype f16 --tol 2e-3
checkc c4 --nq 1000 --nk 1000 --d 64 --batch 2 --hq 2 --hkv 1 --dtype f16 --tol 2e-3
checkc c5 --nq 17 --nk 5 --d 16 --dtype f16 --tol 2e-3 --mask add
checkc c6 --n 300 --d 256 --causal --causal-offset -20 --dtype f16 --tol 2e-3
# score_mod / mask_mod: the SIMT kernels (m: forward and backward) and the
# cooperative-matrix forward (n): windows, soft-caps, ALiBi slopes and
# segment ids read from captured operands.
check m1 --hq 2 --nq 300 --nk 280 --d 64 --window 20,3 --softcap 2.0
check m2 --grad --batch 2 --hq 4 --hkv 2 --nq 200 --nk 230 --d 64 --segments 5 --alibi --causal
check m3 --grad --hq 2 --nq 150 --nk 120 --d 128 --window 30,-1 --softcap 3.0 --dtype f16 --tol 4e-3
checkc n1 --hq 4 --hkv 2 --nq 300 --nk 280 --d 64 --window 40,0 --softcap 2.0 --alibi --dtype f16 --tol 2e-3
checkc n2 --batch 2 --hq 2 --nq 200 --nk 230 --d 128 --segments 5 --segments-batched --causal --dtype f16 --tol 2e-3
[ -n "${CHECKS_ONLY:-}" ] && { cp build/lib/libflash_vulkan_runtime.so "$OUT/"; for l in libvulkan.so.1 libGLdispatch.so.0 libEGL.so.1 libGLX.so.0 libOpenGL.so.0 libGL.so.1 libGLESv2.so.2; do cp -L /usr/lib/x86_64-linux-gnu/$l "$OUT/"; done; cp bench/vulkan/run.sh "$OUT/"; exit 0; }
# Timing: B·N = 16k, H·d = 2048, N = 4096, f16 (native 16-bit storage on
# both targets); each runtime prints every kernel's device time.
/usr/bin/python3 - "$tmp" <<'PY'
import sys
sys.path.insert(0, "python"); sys.path.insert(0, "bench/cpu")
from flash_mlir import program
from bench import timing_program
tmp = sys.argv[1]
for d, h in [(64, 32), (128, 16)]:
    cfg = program.Config(batch=[4], hq=h, hkv=h, nq=4096, nk=4096, d=d, dv=d,
                         dtype="f16", causal=False, lse=True)
    open(f"{tmp}/f{d}.mlir", "w").write(timing_program(cfg, "fused", 2))
    open(f"{tmp}/b{d}.mlir", "w").write(timing_program(cfg, "fused_grad", 1))
# The forward and the backward on the GPU in one module at d = 128 (their
# workgroup variables add up to more than 48 KiB): the two runtimes'
# checksums agree.
cfg = program.Config(batch=[1], hq=1, hkv=1, nq=1024, nk=1024, d=128, dv=128,
                     dtype="f16", causal=False, lse=True)
open(f"{tmp}/s128.mlir", "w").write(timing_program(cfg, "fused_grad", 1))
PY
for p in f64 f128; do
  cp "$tmp/$p.mlir" "$tmp/tc_$p.mlir"; link "tc_$p" "$COOP" flash_vulkan_runtime
done
for p in s128 f64 f128 b64 b128; do
  cp "$tmp/$p.mlir" "$tmp/tv_$p.mlir"; link "tv_$p" --flash-to-spirv flash_vulkan_runtime
  cp "$tmp/$p.mlir" "$tmp/tn_$p.mlir"; link "tn_$p" --flash-to-nvvm=format=bin flash_cuda_runtime
done
cp build/lib/libflash_vulkan_runtime.so build/lib/libflash_cuda_runtime.so "$OUT/"
for l in libvulkan.so.1 libGLdispatch.so.0 libEGL.so.1 libGLX.so.0 libOpenGL.so.0 \
         libGL.so.1 libGLESv2.so.2; do
  cp -L /usr/lib/x86_64-linux-gnu/$l "$OUT/"
done
cp bench/vulkan/run.sh "$OUT/"
