#!/usr/bin/env bash
# On the GPU machine: bench/gpu/prepare_ab.sh's self-checks (and
# check_forward.py with its cache, c_check), then bench.py's
# rows with each variant's kernels (the peers, cuDNN and FlashAttention-2,
# timed with the first variant of each pass).
set -o pipefail
export PYTHONUNBUFFERED=1 FLASH_MLIR_DYNAMIC=0
G=$PWD/${AB:-gpu_ab}
# The self-checks in parallel (the GPU machine has 16 cores; a check's
# host reference takes 10-30 s at a few thousand positions), each line
# its errors and verdict, and its time (a killed one: rc 137). Printed in
# full for the failures only, the passes by name (the device tool keeps
# the output's last 12,000 characters). At most CHECK_JOBS (16) at once:
# each holds a CUDA context, and 137 at once aborted (rc 134) for want of
# device memory (session 38). The failures' logs' last lines too.
(cd $G && for t in $(ls | grep -E '^[a-z]+[0-9]+$'); do
  while [ "$(jobs -rp | wc -l)" -ge "${CHECK_JOBS:-16}" ]; do wait -n; done
  ( s=$(date +%s); timeout -s KILL ${CHECK_TIMEOUT:-60} stdbuf -oL ./$t > $t.log 2>&1
    rc=$?
    line="== $t rc=$rc $(( $(date +%s) - s ))s: $(grep -E 'err|ok' $t.log | tr '\n' ' ')"
    if [ $rc = 0 ] && grep -q "ok: 1" $t.log && ! grep -q "ok: 0" $t.log; then
      echo "$t" > $t.pass
    else
      echo "$line $(grep -v -E 'err|ok' $t.log | tail -n 2 | cut -c1-200 | tr '\n' ' ')" > $t.sum
    fi ) &
  done; wait
  echo "passed ($(ls *.pass 2>/dev/null | wc -l)): $(ls *.pass 2>/dev/null | sort -V | sed 's/.pass$//' | tr '\n' ' ')"
  echo "failed ($(ls *.sum 2>/dev/null | wc -l)):"
  [ -n "$(ls *.sum 2>/dev/null)" ] && cat $(ls *.sum | sort -V); rm -f *.pass *.sum)
[ -d $G/c_check ] && FLASH_MLIR_CACHE=$G/c_check timeout -s KILL 200 \
  python3 bench/gpu/check_forward.py
declare -A seen
while IFS='|' read -r n pass dims opts envs; do
  [ -z "$n" ] && continue
  peers=1
  [ -n "${seen[$pass]:-}" ] && peers=0
  seen[$pass]=1
  case $pass in
    # (MODS_ARGS=--kernels: also each kernel's time, by torch.profiler.)
    mods) cmd=(bench/gpu/bench_mods.py --cases "$dims" ${MODS_ARGS:-})
          keep='^[|a-z]|^  kernel' ;;
    fwd) cmd=(bench/gpu/bench.py --skip-bwd); keep='^\| [0-9]' ;;
    *) cmd=(bench/gpu/bench.py --skip-fwd); keep='^\| [0-9]' ;;
  esac
  echo "== $n $pass [$opts]"
  FLASH_BENCH_DIMS=$dims FLASH_BENCH_PEERS=$peers FLASH_MLIR_NVVM_OPTIONS="$opts" \
    FLASH_MLIR_CACHE=$G/c_$n timeout -s KILL 150 python3 "${cmd[@]}" 2>&1 |
    grep -E "$keep"
done < $G/variants.txt
