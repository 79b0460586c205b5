#!/usr/bin/env bash
# GPU self-checks of raised programs (issue 15: modifiers on every target):
# every function of the raise tests that --flash-raise-attention raises
# (static shapes), as written and as raised, in one module whose @main runs
# both on the same pseudo-random inputs (utils/raisecheck.py --emit), the
# raised one's flash.attention on the GPU (--flash-to-nvvm) and the
# unfused one on the host, printing each result's error and `ok:`. From
# the repository root after the build; the programs go to $OUT as rz1,
# rz2, ... (names.txt maps them to their functions); on the GPU machine
# bench/gpu/run_ab.sh runs them with the other self-checks (AB=$OUT).
#   OUT=gpu_rz bash bench/gpu/prepare_raised.sh [test files...]
# Tolerances: 1e-3 for f32 programs (the GPU's exp2 and tanh are the SFU's
# approximations), 2e-2 where f16/bf16 values are involved.
set -euo pipefail
OUT=${OUT:-gpu_rz}
FILES=("$@")
[ ${#FILES[@]} -eq 0 ] && FILES=(test/Dialect/Flash/Transforms/raise-modifier*.mlir
  test/Dialect/Flash/Transforms/raise-narrow-types.mlir
  test/Dialect/Flash/Transforms/raise-masks.mlir
  test/Dialect/Flash/Transforms/raise-mask-values.mlir
  test/Dialect/Flash/Transforms/raise-joint*.mlir)
source bench/aot.sh
mods=$tmp/mods
for f in "${FILES[@]}"; do
  /usr/bin/python3 utils/raisecheck.py "$f" --build build --tol 1e-3 \
    --tol16 2e-2 --emit "$mods/$(basename "$f" .mlir)"
done
n=0
: > "$OUT/names.txt"
for m in "$mods"/*/*.mlir; do
  n=$((n + 1))
  if aot_link "$m" "rz$n" --flash-to-nvvm=format=bin flash_cuda_runtime \
      > "$tmp/rz$n.log" 2>&1; then
    echo "rz$n $(basename "$(dirname "$m")")/$(basename "$m" .mlir)" >> "$OUT/names.txt"
  else
    echo "rz$n $(basename "$(dirname "$m")")/$(basename "$m" .mlir): not compiled: $(grep -m1 error "$tmp/rz$n.log")" >> "$OUT/names.txt"
  fi
done
cp build/lib/libflash_cuda_runtime.so "$OUT/"
grep -c "not compiled" "$OUT/names.txt" || true
wc -l < "$OUT/names.txt"
