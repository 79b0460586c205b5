#!/usr/bin/env python3
"""bf16 attention on the CPU (forward, or with --grad the backward), one
thread, the three ways this machine can run it, in one run: --flash-to-cpu with bf16-dot=on (AVX512-BF16
`vdpbf16ps` block products, flash-vectorize-bf16-dot), the same bf16
program with bf16-dot=off (flash-widen-bf16: f32 copies, the f32 FMA
kernel), and the peer, unfused attention in numpy + OpenBLAS on f32
(numpy_peer.py: numpy has no bf16 GEMM). The f32 fused program is timed
too, for reference.

GFLOP/s count 4 N^2 d FLOPs per forward (2.5x that per backward) whatever
the element type; the
share of the core's measured f32 FMA peak (fma_peak.c) is given for each
(a vdpbf16ps does twice the FLOPs of an f32 FMA, so the dot path's block
products alone could reach 200 %). Each number is the best of --runs
runs; the load average before and after is printed (other processes on the
same cores make the numbers noisy).

  /usr/bin/python3 bench/cpu/bench_bf16.py [--ns 1024,4096] [--ds 64,128]
      [--grad]
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "utils"))
import bench  # noqa: E402  (host(), fma_peak(), run(), run_numpy())
import mlirgen  # noqa: E402


def has_avx512bf16():
    with open("/proc/cpuinfo") as f:
        return "avx512_bf16" in f.read().split()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--ns", default="1024,4096")
    ap.add_argument("--ds", default="64,128")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--grad", action="store_true",
                    help="the backward (flash.attention_grad)")
    a = ap.parse_args()
    if not has_avx512bf16():
        sys.exit("this host has no avx512bf16: bf16-dot code cannot run")
    model, lanes, _ = bench.host()
    load0 = os.getloadavg()
    peak = bench.fma_peak(lanes)
    print(f"CPU: {model}, {lanes} f32 lanes, avx512bf16; one core's measured "
          f"f32 FMA peak: {peak:.1f} GFLOP/s; "
          f"{'backward' if a.grad else 'forward'}, 1 thread, GFLOP/s "
          f"(% of the FMA peak)")
    print("| N | d | bf16, dot products | bf16, widened to f32 | "
          "dot / widened | f32 fused | numpy + OpenBLAS f32 | "
          "dot / numpy |")
    print("|" + "---|" * 8)
    blas = None
    for n in [int(x) for x in a.ns.split(",")]:
        for d in [int(x) for x in a.ds.split(",")]:
            flops = 4.0 * n * n * d * (2.5 if a.grad else 1.0)
            which = "fused_grad" if a.grad else "fused"
            reps = max(1, int(4e9 / flops))

            def fused(dtype, options):
                cfg = mlirgen.Config(nq=n, nk=n, d=d, lse=True, dtype=dtype)
                return min(bench.run(cfg, which, reps, 1, a.build,
                                     options)[0] for _ in range(a.runs))

            dot = fused("bf16", "bf16-dot=on")
            wide = fused("bf16", "bf16-dot=off")
            f32 = fused("f32", "")
            runs = [bench.run_numpy(n, d, a.grad, reps, 1)
                    for _ in range(a.runs)]
            peer, blas = min(r[0] for r in runs), runs[0][1]
            g = lambda s: flops / s / 1e9  # noqa: E731
            cell = lambda s: f"{g(s):.1f} ({100 * g(s) / peak:.0f} %)"  # noqa
            print(f"| {n} | {d} | {cell(dot)} | {cell(wide)} | "
                  f"{wide / dot:.2f}x | {cell(f32)} | {cell(peer)} | "
                  f"{peer / dot:.2f}x |", flush=True)
    load1 = os.getloadavg()
    print(f"numpy's BLAS: {blas}; load average (1 min) before "
          f"{load0[0]:.2f}, after {load1[0]:.2f}")


if __name__ == "__main__":
    main()
