#!/usr/bin/env bash
# A/B runs of kernel variants on the GPU machine (issue 17): self-checking
# programs of the variants (the fused kernels on the GPU against the
# unfused program on the host) and bench.py's kernel caches, one per
# variant. From the repository root after the build; on the GPU machine,
# with $OUT (gpu_ab) carried: bash bench/gpu/run_ab.sh
#
# A variant is NAME|PASS|DIMS|OPTIONS[|ENV]: bench.py's rows of head dims
# DIMS, the forward (PASS fwd) or the backward (bwd), or bench_mods.py's
# cases DIMS (PASS mods), with FLASH_MLIR_NVVM_OPTIONS = OPTIONS and the
# compiler run under ENV (VAR=value ..., for a variant behind an
# environment variable while it is measured); run_ab.sh times the
# backward's peers (cuDNN, FlashAttention-2) with the first backward
# variant only (the forward's with each).
#
# Session 28, first run: dQ by reductions (deterministic=false) with two
# warpgroups of 64 keys (the new form), one (mma-warps=4), 32-query tiles
# (mma-tile-kv=32), against the deterministic default ("def|bwd|64,128|",
# "red|bwd|64,128|deterministic=false", ...); the causal forward with its
# masked tiles merged ("merge|fwd|128,256|merge-masked-tiles=1" against
# the default then); exp2-f16x2 (the forward's exponentials in f16x2
# pairs, since removed: slower) on bench.py and on bench_mods.py's
# "full,softcap" cases; self-checks ga (prepare_atomic.sh), mm, fx. Second
# run: the merged forward (now the default up to d = 128) against
# merge-masked-tiles=0, self-checks mm of shapes that take the
# warp-specialized kernel. Session 29 (each behind a FLASH_EXP_*
# variable while measured): the reduction backward's dV after dQ^T, the
# products of a step issued together, each warpgroup's own reductions
# (dropped), 64-query causal tiles (mma-tile-kv=64); then one barrier a
# step ("red2", "det2" against the caches before it). Session 30: the
# producer warpgroups (grad-producer=0 against the default; the dQ
# kernel's and the dQ writer's behind FLASH_EXP_* variables while
# measured, since removed), then the defaults with checks bs, ga, bw (set
# below).
# Session 31: the d = 256 backward with producers, 32-row tiles and two
# warpgroups, then its dK/dV kernel split by roles and 64-query tiles
# (behind FLASH_EXP_* variables while measured, now the default:
# self-checks b2), two warpgroups at d = 64 ("w8|bwd|64|mma-warps=8",
# dropped: 0.92-1.04x), a persistent soft-capped forward (dropped:
# 0.99-1.01x; its self-check sm3 only outlasted run_ab.sh's 20 s), the
# modifiers' bench_mods.py cases ("mcw|mods|causal,window|",
# "mfs|mods|full,softcap|").
# Session 32: the whole table (bench.py --json, for tflops.png), fma-exp2
# at d = 64 ("f2|fwd|64|fma-exp2=2", dropped), persistent-blocks=0 at d =
# 128, the window's 32-bit masks and the warp-uniform roles against the
# caches of the commit before (a second cache directory listed in
# variants.txt by hand, as "of|fwd|128,256|"); checks bs10-bs12 (the window
# alone in the d = 128 backward) new.
# Session 33: the window's 64-query dK/dV tiles and dS^T without the
# scores' predicates against the kernels before (behind FLASH_EXP_*
# variables while measured: "old|bwd|64,128,256||FLASH_EXP_SEL=1 ...",
# and "mods|causal,window" the same way; new / old / new in one call by
# listing "new" twice in variants.txt), checks bs b2 sm ga mm; the
# consumers' turns also around the peeled first tile and the last P V
# (FLASH_EXP_TURNS, dropped: within the noise) and the warp-specialized
# forward at <= 1024 keys (now the default without modifiers: checks
# mm11-mm15, with mm16-mm18 the persistent non-causal kernel; sm8, sm9
# document masks on it); ncu of the d = 128 16k forward (ours and cuDNN's);
# the producer's K a tile ahead of V (FLASH_EXP_KAHEAD while measured, now
# the default; mm18 then outlasted the 20 s at 4 x 8 heads x 1100, now
# smaller).
# Session 34: the producers' copies by TMA (tensor maps; the forward's,
# the dQ kernel's K / V, the dK/dV kernel's Q / dO) against the kernels
# of the commit before (its flash-opt as FLASH_OPT in ENV:
# "head|fwd|64,128,256||FLASH_OPT=/tmp/head/flash-opt"), checks bs b2 ga
# mm sm and py (bench/gpu/check_forward.py: the Python front's forward on
# odd shapes and unaligned or strided views).
# Session 35: the d = 64 forward warp-specialized ("new|fwd|64|" against
# "old|fwd|64||FLASH_OPT=<the commit before's flash-opt>", new / old / new;
# checks f6 and py), the window's persistent blocks ("mp|mods|causal,window|"
# against "mnp|mods|causal,window|persistent-blocks=0"); the ordered-dq
# experiment's rows (since removed) came from the same run_ab.sh.
# Session 36: ordered-dq restored from the history (commit f483c0c has it,
# with an `od) GA_BASE=ordered-dq=1 GA_PREFIX=od ... prepare_atomic.sh`
# check group): "ord|bwd|64,128|ordered-dq=1", "det|bwd|64,128|",
# "red|bwd|64,128|deterministic=false", "redh|...|FLASH_OPT=<head's>",
# checks ga and od (the run script ran the self-checks in parallel: an f16
# host reference then took a minute, since -mf16c in aot.sh).
# Session 37: the forward's one-sided key-range checks and the score_mods'
# position arithmetic in i32 against the commit before ("new|mods|causal,
# window|" against "old|...||FLASH_OPT=<head's flash-opt>", new / old / new;
# "na|mods|full,softcap,alibi|" the same way; bench.py's forward nf / of),
# checks wd (windows) and al (ALiBi) new, with sm mm f6 bs; ordered-dq's
# third form from a worktree of the history (its flash-opt as FLASH_OPT,
# the od checks by prepare_atomic.sh with GA_BASE=ordered-dq=1). Variants
# given by AB_VARIANTS.
# Session 38: O's rescale skipped by warps whose rows kept their max
# (FLASH_EXP_SKIP_RESCALE while measured: "sk|fwd|64,128,256||
# FLASH_EXP_SKIP_RESCALE=1" against "ns|...=0", sk / ns / sk, and the
# same for "mods|causal,window,full,softcap"), checks mm f6 sm wd with it
# on at every head dim; run_ab.sh then printed the passing checks by name.
# Then the raised programs of the raise tests as GPU self-checks
# (bench/gpu/prepare_raised.sh) and check group dc (captured operands of
# dynamic shape, new).
# Session 39: the soft-capped forward with a share of P's exponentials
# on the FMA units again, with degree-3 and -4 polynomials (behind
# FLASH_EXP_FMA_DEG while measured, since removed): "b0|mods|full,softcap|",
# "f3d3|mods|softcap|fma-exp2=3|FLASH_EXP_FMA_DEG=3", ..., b0 again last,
# with MODS_ARGS=--kernels (run_ab.sh: each kernel's time); checks of the
# score_mods with fma-exp2=4 and degree 3 (sx1-sx9, passed).
# Session 42: ordered-dq's fourth form (commit 84a1762: a shift schedule of
# the key blocks a wave runs, the GPU's SM count a kernel argument, the dQ
# writers' warps in turn), built from that commit: "det|bwd|64,128|",
# "ords|bwd|64,128|ordered-dq=1", "ordr|...|ordered-dq=1|
# FLASH_EXP_RELEASE_READ=1", "red|...|deterministic=false", checks od (its
# prepare_atomic.sh, GA_BASE=ordered-dq=1 GA_PREFIX=od) and ga, and
# check_determinism.py with FLASH_MLIR_NVVM_OPTIONS=ordered-dq=1.
# (Session 27 compared the backward's A operands
# and tiles: grad-a-shared=0, mma-warps=8, mma-tile-kv=64; its
# self-checks are `checks bs` and `checks bw` below.)
set -euo pipefail
OUT=${OUT:-gpu_ab}
export FLASH_MLIR_DYNAMIC=0
VARIANTS=(
  "fwd|fwd|64,128,256|"
  "bwd|bwd|64,128,256|"
)
# (AB_VARIANTS, one variant a line, replaces them; "none": self-checks
# only.)
[ -n "${AB_VARIANTS:-}" ] && mapfile -t VARIANTS <<< "$AB_VARIANTS"
[ "${AB_VARIANTS:-}" = none ] && VARIANTS=()

CHECKS=${CHECKS:-bs b2 sm py}
source bench/aot.sh
checks() { # prefix: the backward's
  local p=$1
  exe ${p}1 --grad --n 130 --d 64 --dtype bf16 --tol 2e-2
  exe ${p}2 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --dtype f16 --tol 4e-3
  exe ${p}3 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 170 --d 128 --causal --dtype bf16 --tol 2e-2
  exe ${p}4 --grad --nq 300 --nk 260 --d 128 --hq 4 --hkv 2 --causal --causal-offset -20 --dtype bf16 --tol 2e-2
  exe ${p}5 --grad --nq 1 --nk 33 --d 128 --dtype f16 --tol 4e-3
  exe ${p}6 --grad --hq 2 --nq 65 --nk 90 --d 128 --mask bool --full-mask --dtype f16 --tol 4e-3
  exe ${p}7 --grad --hq 2 --nq 37 --nk 300 --d 128 --dtype bf16 --causal --tol 2e-2 --dynamic
  exe ${p}8 --grad --batch 2 --hq 4 --hkv 2 --n 300 --d 128 --dtype f16 --window 30,5 --softcap 1.5 --tol 4e-3
  exe ${p}9 --grad --hq 2 --n 200 --d 128 --dtype bf16 --segments 3 --tol 2e-2
  exe ${p}10 --grad --hq 2 --nq 300 --nk 260 --d 128 --dtype f16 --window 40,7 --tol 4e-3
  exe ${p}11 --grad --batch 2 --hq 3 --n 333 --d 128 --dtype bf16 --causal --window 100,0 --mod-offset --dynamic --tol 2e-2
  exe ${p}12 --grad --hq 2 --nq 200 --nk 500 --d 128 --dtype f16 --causal --causal-offset 300 --window 64,0 --tol 4e-3
}
checks256() { # prefix: the backward at d = 256
  local p=$1
  exe ${p}1 --grad --n 130 --d 256 --dtype bf16 --tol 2e-2
  exe ${p}2 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 170 --d 256 --causal --dtype bf16 --tol 2e-2
  exe ${p}3 --grad --nq 300 --nk 260 --d 256 --hq 4 --hkv 2 --causal --causal-offset -20 --dtype f16 --tol 4e-3
  exe ${p}4 --grad --nq 1 --nk 33 --d 256 --dtype f16 --tol 4e-3
  exe ${p}5 --grad --hq 2 --nq 65 --nk 90 --d 256 --mask bool --full-mask --dtype f16 --tol 4e-3
  exe ${p}6 --grad --hq 2 --nq 37 --nk 300 --d 256 --dtype bf16 --causal --tol 2e-2 --dynamic
  exe ${p}7 --grad --batch 2 --hq 4 --hkv 2 --n 300 --d 256 --dtype f16 --window 30,5 --softcap 1.5 --tol 4e-3
  exe ${p}8 --grad --hq 2 --n 200 --d 256 --dtype bf16 --segments 3 --tol 2e-2
}
scoremods() { # prefix: the forward with score_mods (soft-cap, ALiBi)
  local p=$1
  exe ${p}1 --n 1000 --d 128 --hq 2 --softcap 30 --dtype bf16 --tol 8e-3
  exe ${p}2 --batch 2 --hq 4 --hkv 2 --nq 1300 --nk 1777 --d 128 --softcap 5 --dtype bf16 --tol 8e-3
  exe ${p}3 --hq 4 --hkv 2 --nq 500 --nk 1100 --d 128 --window 200,0 --softcap 3 --dtype f16 --tol 2e-3
  exe ${p}4 --nq 300 --nk 777 --d 256 --hq 3 --hkv 1 --softcap 20 --dtype bf16 --tol 8e-3
  exe ${p}5 --nq 1 --nk 1500 --d 128 --hq 2 --softcap 2 --dtype f16 --tol 2e-3
  exe ${p}6 --n 1200 --d 128 --hq 4 --alibi --causal --dtype bf16 --tol 8e-3
  exe ${p}7 --nq 1500 --nk 1300 --d 128 --hq 2 --window 100,30 --alibi --dtype bf16 --tol 8e-3
  exe ${p}8 --batch 2 --hq 2 --n 2000 --d 128 --segments 3 --causal --dtype bf16 --tol 8e-3
  exe ${p}9 --hq 4 --hkv 2 --nq 300 --nk 1500 --d 256 --segments 4 --dtype f16 --tol 2e-3
}
merged() { # prefix: the warp-specialized causal forward (d = 128 past
  # 1024 keys or with runtime sizes; odd sizes, offsets, GQA, one query)
  local p=$1
  exe ${p}1 --batch 2 --hq 4 --hkv 2 --nq 1000 --nk 1777 --d 128 --causal --dtype bf16 --tol 8e-3
  exe ${p}2 --nq 1300 --nk 1200 --d 128 --causal --causal-offset -70 --hq 2 --dtype bf16 --tol 8e-3
  exe ${p}3 --dynamic --n 333 --d 128 --causal --hq 2 --dtype bf16 --tol 8e-3
  exe ${p}4 --batch 2 --hq 4 --hkv 2 --nq 100 --nk 530 --d 256 --causal --dtype bf16 --tol 8e-3
  exe ${p}5 --dynamic --batch 2 --hq 4 --hkv 2 --nq 300 --nk 777 --d 128 --causal --dtype bf16 --tol 8e-3
  exe ${p}6 --nq 37 --nk 3000 --d 128 --hq 3 --hkv 1 --causal --dtype f16 --tol 2e-3
  exe ${p}7 --nq 1 --nk 2000 --d 128 --hq 2 --causal --dtype bf16 --tol 8e-3
  exe ${p}8 --nq 2100 --nk 1500 --d 128 --hq 2 --causal --causal-offset 300 --dtype f16 --tol 2e-3
  exe ${p}9 --nq 1100 --nk 1100 --d 128 --batch 2 --hq 4 --causal --dtype bf16 --tol 8e-3
  exe ${p}10 --dynamic --nq 1 --nk 1 --d 128 --hq 2 --causal --dtype bf16 --tol 8e-3
  exe ${p}11 --nq 1000 --nk 1000 --d 128 --hq 4 --causal --dtype bf16 --tol 8e-3
  exe ${p}12 --nq 77 --nk 1024 --d 128 --hq 2 --causal --causal-offset 947 --dtype f16 --tol 2e-3
  exe ${p}13 --nq 1 --nk 500 --d 128 --hq 2 --causal --dtype bf16 --tol 8e-3
  exe ${p}14 --n 130 --d 128 --hq 2 --causal --dtype f16 --tol 2e-3
  exe ${p}15 --batch 2 --hq 4 --hkv 2 --n 1024 --d 128 --causal --dtype bf16 --tol 8e-3
  exe ${p}16 --batch 2 --hq 4 --nq 1300 --nk 2100 --d 128 --dtype bf16 --tol 8e-3
  exe ${p}17 --hq 4 --hkv 2 --nq 700 --nk 1500 --d 256 --dtype bf16 --tol 8e-3
  exe ${p}18 --hq 33 --hkv 11 --n 520 --d 128 --dtype f16 --tol 2e-3
}
forward64() { # prefix: the d = 64 forward (session 35, when it ran
  # warp-specialized as well; odd sizes, offsets, GQA, one query, runtime
  # sizes, windows, modifiers)
  local p=$1
  exe ${p}1 --batch 2 --hq 4 --hkv 2 --nq 1000 --nk 1777 --d 64 --dtype bf16 --tol 8e-3
  exe ${p}2 --nq 1300 --nk 1200 --d 64 --causal --causal-offset -70 --hq 2 --dtype bf16 --tol 8e-3
  exe ${p}3 --dynamic --n 333 --d 64 --causal --hq 2 --dtype bf16 --tol 8e-3
  exe ${p}4 --dynamic --batch 2 --hq 4 --hkv 2 --nq 300 --nk 777 --d 64 --dtype f16 --tol 2e-3
  exe ${p}5 --nq 1 --nk 2000 --d 64 --hq 2 --causal --dtype bf16 --tol 8e-3
  exe ${p}6 --dynamic --nq 1 --nk 1 --d 64 --hq 2 --dtype bf16 --tol 8e-3
  exe ${p}7 --nq 2100 --nk 1500 --d 64 --hq 2 --causal --causal-offset 300 --dtype f16 --tol 2e-3
  exe ${p}8 --hq 33 --hkv 11 --n 520 --d 64 --dtype f16 --tol 2e-3
  exe ${p}9 --hq 2 --n 2000 --d 64 --window 512,0 --dtype bf16 --tol 8e-3
  exe ${p}10 --hq 2 --nq 1500 --nk 2048 --d 64 --window 100,100 --dtype f16 --tol 2e-3
  exe ${p}11 --batch 2 --hq 3 --n 1333 --d 64 --dtype bf16 --causal --window 200,0 --mod-offset --tol 8e-3
  exe ${p}12 --hq 2 --nq 700 --nk 1300 --d 64 --softcap 5 --causal --dtype bf16 --tol 8e-3
  exe ${p}13 --hq 4 --n 1200 --d 64 --alibi --causal --dtype bf16 --tol 8e-3
  exe ${p}14 --batch 2 --hq 2 --n 1000 --d 64 --segments 3 --causal --dtype bf16 --tol 8e-3
  exe ${p}15 --hq 2 --n 4096 --d 64 --causal --dtype bf16 --tol 8e-3
}
windows() { # prefix: the forward's windows (session 37: the first tile's
  # and the tail's one-sided checks; windows wider and narrower than a
  # tile and a block, two-sided, past N, with offsets, one query, each
  # head dim, persistent and not)
  local p=$1
  exe ${p}1 --hq 2 --n 3000 --d 128 --dtype bf16 --window 1023,0 --causal --tol 8e-3
  exe ${p}2 --hq 2 --n 2048 --d 128 --dtype bf16 --window 1023,0 --causal --tol 8e-3
  exe ${p}3 --hq 2 --nq 1500 --nk 2100 --d 128 --dtype f16 --window 300,40 --tol 2e-3
  exe ${p}4 --hq 2 --n 1777 --d 128 --dtype bf16 --window 130,0 --causal --tol 8e-3
  exe ${p}5 --hq 2 --n 1500 --d 128 --dtype bf16 --window 60,60 --tol 8e-3
  exe ${p}6 --dynamic --hq 2 --nq 1300 --nk 1100 --d 128 --dtype bf16 --window 400,0 --causal --causal-offset -50 --tol 8e-3
  exe ${p}7 --hq 2 --n 2000 --d 64 --dtype bf16 --window 700,0 --causal --tol 8e-3
  exe ${p}8 --hq 2 --n 1500 --d 256 --dtype bf16 --window 500,20 --tol 8e-3
  exe ${p}9 --batch 2 --hq 4 --hkv 2 --nq 1 --nk 1500 --d 128 --dtype bf16 --window 200,0 --causal --tol 8e-3
  exe ${p}10 --hq 2 --nq 700 --nk 3000 --d 128 --dtype f16 --window 5000,0 --causal --causal-offset 2300 --tol 2e-3
  exe ${p}11 --hq 2 --n 1500 --d 128 --dtype bf16 --window 300,0 --causal --softcap 20 --tol 8e-3
  exe ${p}12 --hq 2 --nq 500 --nk 300 --d 128 --dtype f16 --window=-1,-25 --tol 2e-3
  exe ${p}13 --hq 2 --n 2000 --d 128 --dtype bf16 --window 200,0 --causal --mod-offset --tol 8e-3
  exe ${p}14 --hq 2 --n 4096 --d 128 --dtype bf16 --window 1023,0 --causal --tol 8e-3
}
alibi() { # prefix: ALiBi forward and backward (session 37: its position
  # arithmetic in i32)
  local p=$1
  exe ${p}1 --grad --batch 2 --hq 4 --hkv 2 --n 1000 --d 128 --dtype bf16 --alibi --causal --tol 2e-2
  exe ${p}2 --grad --hq 2 --nq 300 --nk 700 --d 64 --dtype f16 --alibi --tol 4e-3
  exe ${p}3 --hq 4 --n 3000 --d 128 --dtype bf16 --alibi --window 500,0 --causal --tol 8e-3
  exe ${p}4 --dynamic --hq 2 --nq 1300 --nk 900 --d 128 --dtype bf16 --alibi --causal --causal-offset -100 --tol 8e-3
  exe ${p}5 --grad --hq 2 --n 700 --d 256 --dtype bf16 --alibi --tol 2e-2
  exe ${p}6 --hq 4 --n 4096 --d 128 --dtype bf16 --alibi --causal --tol 8e-3
}
dyncaptures() { # prefix: captured operands of dynamic shape (session 38:
  # varlen segment ids tensor<?xi32>, tensor<Bx?xi32>; a dim past the
  # first is a size argument)
  local p=$1
  exe ${p}1 --hq 2 --nq 150 --nk 200 --d 64 --dtype f32 --segments 3 --segments-dynamic --tol 1e-3
  exe ${p}2 --batch 2 --hq 2 --nq 300 --nk 700 --d 128 --dtype bf16 --segments 4 --segments-batched --segments-dynamic --tol 8e-3
  exe ${p}3 --dynamic --batch 2 --hq 4 --hkv 2 --n 1000 --d 128 --dtype bf16 --segments 3 --segments-batched --segments-dynamic --causal --tol 8e-3
  exe ${p}4 --batch 2 --hq 2 --n 600 --d 64 --dtype f16 --segments 3 --segments-batched --segments-dynamic --tol 2e-3
  exe ${p}5 --grad --batch 2 --hq 2 --n 300 --d 128 --dtype bf16 --segments 3 --segments-batched --segments-dynamic --tol 2e-2
  exe ${p}6 --grad --hq 2 --nq 200 --nk 333 --d 64 --dtype f16 --segments 4 --segments-dynamic --tol 4e-3
  exe ${p}7 --hq 4 --nq 1 --nk 900 --d 128 --dtype bf16 --segments 3 --segments-per-head --segments-dynamic --tol 8e-3
  exe ${p}8 --hq 2 --nq 400 --nk 400 --d 256 --dtype bf16 --segments 5 --segments-dynamic --causal --tol 8e-3
}
headdims() { # prefix: head dims 96 and 192 (session 40: d = 192 on the
  # wgmma backward and the warp-specialized forward; odd sizes, one query,
  # causal Nq != Nk, GQA, fully masked rows, modifiers, runtime sizes)
  local p=$1
  exe ${p}1 --batch 2 --hq 4 --hkv 2 --nq 1000 --nk 1777 --d 192 --dtype bf16 --tol 8e-3
  exe ${p}2 --nq 1300 --nk 1200 --d 192 --causal --causal-offset -70 --hq 2 --dtype bf16 --tol 8e-3
  exe ${p}3 --dynamic --batch 2 --hq 4 --hkv 2 --nq 300 --nk 777 --d 192 --causal --dtype f16 --tol 2e-3
  exe ${p}4 --nq 1 --nk 2000 --d 192 --hq 2 --causal --dtype bf16 --tol 8e-3
  exe ${p}5 --hq 2 --nq 65 --nk 90 --d 192 --mask bool --full-mask --dtype f16 --tol 2e-3
  exe ${p}6 --hq 2 --n 1500 --d 192 --dtype bf16 --window 300,40 --softcap 20 --tol 8e-3
  exe ${p}7 --grad --n 130 --d 192 --dtype bf16 --tol 2e-2
  exe ${p}8 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 170 --d 192 --causal --dtype bf16 --tol 2e-2
  exe ${p}9 --grad --nq 300 --nk 260 --d 192 --hq 4 --hkv 2 --causal --causal-offset -20 --dtype f16 --tol 4e-3
  exe ${p}10 --grad --nq 1 --nk 33 --d 192 --dtype f16 --tol 4e-3
  exe ${p}11 --grad --hq 2 --nq 65 --nk 90 --d 192 --mask bool --full-mask --dtype f16 --tol 4e-3
  exe ${p}12 --grad --hq 2 --nq 37 --nk 300 --d 192 --dtype bf16 --causal --tol 2e-2 --dynamic
  exe ${p}13 --grad --batch 2 --hq 4 --hkv 2 --n 300 --d 192 --dtype f16 --window 30,5 --softcap 1.5 --tol 4e-3
  exe ${p}14 --grad --hq 2 --n 200 --d 192 --dtype bf16 --segments 3 --tol 2e-2
  exe ${p}15 --grad --hq 2 --n 1000 --d 192 --dtype bf16 --alibi --causal --tol 2e-2
  # Head dims 64 does not divide, on wgmma with tiles padded to 64-column
  # groups (tileD): 96, 80, 112 (128-column tiles), 160 (192).
  exe ${p}16 --batch 2 --hq 4 --hkv 2 --nq 300 --nk 777 --d 96 --causal --dtype bf16 --tol 8e-3
  exe ${p}17 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 170 --d 96 --causal --dtype bf16 --tol 2e-2
  exe ${p}18 --batch 2 --hq 4 --hkv 2 --nq 1000 --nk 1777 --d 96 --dtype bf16 --tol 8e-3
  exe ${p}19 --nq 1300 --nk 1200 --d 96 --causal --causal-offset -70 --hq 2 --dtype f16 --tol 2e-3
  exe ${p}20 --dynamic --batch 2 --hq 4 --hkv 2 --nq 300 --nk 777 --d 80 --causal --dtype bf16 --tol 8e-3
  exe ${p}21 --nq 1 --nk 2000 --d 96 --hq 4 --hkv 2 --causal --dtype bf16 --tol 8e-3
  exe ${p}22 --hq 2 --nq 65 --nk 90 --d 112 --mask bool --full-mask --dtype f16 --tol 2e-3
  exe ${p}23 --hq 2 --n 1500 --d 96 --dtype bf16 --window 300,40 --softcap 20 --tol 8e-3
  exe ${p}24 --batch 2 --hq 2 --n 1000 --d 80 --segments 3 --causal --dtype bf16 --tol 8e-3
  exe ${p}25 --nq 300 --nk 777 --d 160 --hq 3 --hkv 1 --causal --dtype bf16 --tol 8e-3
  exe ${p}26 --hq 4 --n 1200 --d 112 --alibi --causal --dtype bf16 --tol 8e-3
  exe ${p}27 --grad --n 130 --d 96 --dtype bf16 --tol 2e-2
  exe ${p}28 --grad --nq 300 --nk 260 --d 80 --hq 4 --hkv 2 --causal --causal-offset -20 --dtype f16 --tol 4e-3
  exe ${p}29 --grad --nq 1 --nk 33 --d 112 --dtype f16 --tol 4e-3
  exe ${p}30 --grad --hq 2 --nq 65 --nk 90 --d 96 --mask bool --full-mask --dtype f16 --tol 4e-3
  exe ${p}31 --grad --hq 2 --nq 37 --nk 300 --d 96 --dtype bf16 --causal --tol 2e-2 --dynamic
  exe ${p}32 --grad --batch 2 --hq 4 --hkv 2 --n 300 --d 80 --dtype f16 --window 30,5 --softcap 1.5 --tol 4e-3
  exe ${p}33 --grad --hq 2 --n 200 --d 112 --dtype bf16 --segments 3 --tol 2e-2
  exe ${p}34 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 170 --d 160 --causal --dtype bf16 --tol 2e-2
  exe ${p}35 --grad --hq 2 --n 1000 --d 96 --dtype bf16 --alibi --causal --tol 2e-2
  # dQ by reductions (deterministic=0) at padded head dims.
  FLASH_AOT_NVVM_OPTIONS="deterministic=0" exe ${p}36 --grad --batch 2 --hq 4 --hkv 2 --nq 300 --nk 170 --d 96 --causal --dtype bf16 --tol 2e-2
  FLASH_AOT_NVVM_OPTIONS="deterministic=0" exe ${p}37 --grad --hq 2 --nq 77 --nk 300 --d 80 --dtype f16 --tol 4e-3
  FLASH_AOT_NVVM_OPTIONS="deterministic=0" exe ${p}38 --grad --hq 2 --n 333 --d 112 --dtype bf16 --causal --dynamic --tol 2e-2
  # V's head dim not q's and k's (DeepSeek's 192 / 128; 128 / 64, 64 / 128,
  # 96 / 64), tiles of the wider.
  exe ${p}39 --batch 2 --hq 4 --hkv 2 --nq 1000 --nk 1777 --d 192 --dv 128 --dtype bf16 --causal --tol 8e-3
  exe ${p}40 --hq 2 --nq 1300 --nk 1200 --d 128 --dv 64 --causal --causal-offset -70 --dtype f16 --tol 2e-3
  exe ${p}41 --dynamic --batch 2 --hq 4 --hkv 2 --nq 300 --nk 777 --d 64 --dv 128 --dtype bf16 --tol 8e-3
  exe ${p}42 --nq 1 --nk 2000 --d 192 --dv 128 --hq 4 --hkv 2 --causal --dtype bf16 --tol 8e-3
  exe ${p}43 --hq 2 --nq 65 --nk 90 --d 96 --dv 64 --mask bool --full-mask --dtype f16 --tol 2e-3
  exe ${p}44 --hq 2 --n 1500 --d 192 --dv 128 --dtype bf16 --window 300,40 --softcap 20 --tol 8e-3
  exe ${p}45 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 170 --d 192 --dv 128 --causal --dtype bf16 --tol 2e-2
  exe ${p}46 --grad --nq 300 --nk 260 --d 128 --dv 64 --hq 4 --hkv 2 --causal --causal-offset -20 --dtype f16 --tol 4e-3
  exe ${p}47 --grad --hq 2 --nq 37 --nk 300 --d 64 --dv 128 --dtype bf16 --causal --tol 2e-2 --dynamic
  exe ${p}48 --grad --hq 2 --nq 65 --nk 90 --d 192 --dv 128 --mask bool --full-mask --dtype f16 --tol 4e-3
  exe ${p}49 --grad --batch 2 --hq 4 --hkv 2 --n 300 --d 96 --dv 64 --dtype f16 --window 30,5 --softcap 1.5 --tol 4e-3
  FLASH_AOT_NVVM_OPTIONS="deterministic=0" exe ${p}50 --grad --batch 2 --hq 4 --hkv 2 --nq 300 --nk 170 --d 128 --dv 96 --causal --dtype bf16 --tol 2e-2
}
for c in $CHECKS; do
  case $c in
    bs) FLASH_AOT_NVVM_OPTIONS="" checks bs ;;
    bw) FLASH_AOT_NVVM_OPTIONS="grad-a-shared=1 mma-warps=8 mma-tile-kv=64" checks bw ;;
    ga) SKIP_CACHE=1 OUT=$OUT bash bench/gpu/prepare_atomic.sh ;;
    mm) FLASH_AOT_NVVM_OPTIONS="" merged mm ;;
    b2) FLASH_AOT_NVVM_OPTIONS="" checks256 b2 ;;
    sm) FLASH_AOT_NVVM_OPTIONS="" scoremods sm ;;
    f6) FLASH_AOT_NVVM_OPTIONS="" forward64 f ;;
    wd) FLASH_AOT_NVVM_OPTIONS="" windows wd ;;
    al) FLASH_AOT_NVVM_OPTIONS="" alibi al ;;
    dc) FLASH_AOT_NVVM_OPTIONS="" dyncaptures dc ;;
    hd) FLASH_AOT_NVVM_OPTIONS="" headdims hd ;;
    py) FLASH_MLIR_CACHE=$PWD/$OUT/c_check /usr/bin/python3 \
          bench/gpu/check_forward.py --precompile ;;
  esac > "$OUT/prep_$c.log" 2>&1
done
for v in "${VARIANTS[@]}"; do
  IFS='|' read -r n pass dims opts envs <<< "$v"
  case $pass in
    mods) cmd=(bench/gpu/bench_mods.py --cases "$dims") ;;
    fwd) cmd=(bench/gpu/bench.py --skip-bwd) ;;
    *) cmd=(bench/gpu/bench.py --skip-fwd) ;;
  esac
  env $envs FLASH_BENCH_DIMS=$dims FLASH_MLIR_NVVM_OPTIONS="$opts" \
    FLASH_MLIR_CACHE=$PWD/$OUT/c_$n /usr/bin/python3 "${cmd[@]}" \
    --precompile > "$OUT/prep_$n.log" 2>&1
done
cp build/lib/libflash_cuda_runtime.so "$OUT/"
printf '%s\n' "${VARIANTS[@]}" > "$OUT/variants.txt"
du -sh "$OUT"
