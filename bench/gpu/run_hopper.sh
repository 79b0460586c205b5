#!/usr/bin/env bash
# On the GPU machine, from the repository root with gpu_hop carried
# (bench/gpu/prepare_hopper.sh made it; the same FLASH_HOPPER_VARIANTS and
# FLASH_BENCH_DIMS): the self-checking programs, bench_hopper.py, and ncu
# profiles of the variants named in $PROFILE ("name:d:n[:causal] ...");
# everything in $OUT/hop.tgz, the summary on stdout.
set -o pipefail
export PYTHONUNBUFFERED=1 FLASH_MLIR_CACHE=$PWD/gpu_hop/cache \
  PYTHONPATH=$PWD/python
R=$OUT/r
mkdir -p "$R"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv > "$R/smi.txt" 2>&1
# A kernel that deadlocks hangs until killed: short limits (each program
# takes about a second).
(cd gpu_hop && for t in [a-z]*[0-9]; do echo "== $t: $(timeout -s KILL 20 ./$t 2>&1 | tail -1)"; done) \
  > "$R/aot.txt" 2>&1
timeout -s KILL 300 python3 bench/gpu/bench_hopper.py --json "$R/bench.json" \
  > "$R/bench.txt" 2>&1
for p in $PROFILE; do
  IFS=: read -r v d n c <<< "$p"
  timeout 150 ncu --clock-control none --section SpeedOfLight \
    --section ComputeWorkloadAnalysis --section WarpStateStats \
    --section Occupancy --section LaunchStats --print-details all \
    -k regex:flash_attention \
    -s 1 -c 1 python3 bench/gpu/bench_hopper.py --profile "$v" "$d" "$n" $c \
    > "$R/ncu_${v}_${d}_${n}_${c:-full}.txt" 2>&1
done
tar czf "$OUT/hop.tgz" -C "$OUT" r
cat "$R/smi.txt" "$R/aot.txt" "$R/bench.txt"
for f in "$R"/ncu_*; do
  echo "== $f"
  grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|Executed Ipc A|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Warp Cycles Per Issued|No Eligible|Issue Slots Busy" "$f" | head -20
done
