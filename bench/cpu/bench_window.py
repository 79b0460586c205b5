#!/usr/bin/env python3
"""CPU benchmark of sliding-window attention (mask_mod with affine bounds:
each query block visits only the key blocks its window reaches) against
full causal attention, through the Python front (--flash-to-cpu, AOT), f32,
one head, d = 64, one thread. Prints seconds per forward and the ratio; the
windowed time should grow with N (rows) times the window, not N^2.

  /usr/bin/python3 bench/cpu/bench_window.py [--ns 4096,16384] [--window 1024]
"""

import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))
import flash_mlir as fm  # noqa: E402


def timed(fn, reps):
    fn()  # compile + warm up
    t = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t) / reps


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ns", default="4096,16384")
    p.add_argument("--window", type=int, default=1024)
    p.add_argument("--d", type=int, default=64)
    a = p.parse_args()
    rng = np.random.default_rng(0)
    print(f"| N | window | causal (s) | window (s) | causal / window | "
          f"ideal |")
    print("|---|---|---|---|---|---|")
    for n in (int(x) for x in a.ns.split(",")):
        q, k, v = (rng.standard_normal((1, 1, n, a.d)).astype(np.float32)
                   for _ in range(3))
        reps = 3 if n <= 4096 else 1
        tc = timed(lambda: fm.attention(q, k, v, causal=True), reps)
        tw = timed(lambda: fm.attention(q, k, v, causal=True,
                                        window=(a.window - 1, 0)), reps)
        # Visited score elements: N^2 / 2 causal, about N * window windowed.
        ideal = (n * n / 2) / (n * a.window - a.window * a.window / 2)
        print(f"| {n} | {a.window} | {tc:.3f} | {tw:.3f} | {tc / tw:.1f}x | "
              f"{ideal:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
