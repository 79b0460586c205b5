#!/usr/bin/env python3
"""The peer of bench/cpu/bench.py: unfused attention in numpy (BLAS GEMMs,
the N x N scores and probabilities materialized), f32, the same FLOP count
as the fused programs. Run in its own process so that OPENBLAS_NUM_THREADS
(set by the caller) fixes the BLAS threads.

  OPENBLAS_NUM_THREADS=1 python3 numpy_peer.py N D [--grad] [--reps R]

Prints `seconds: <mean per call>`, `blas: <the BLAS library loaded>` and
`rss_mb: <peak RSS>`.
"""

import argparse
import resource
import time

import numpy as np


def forward(q, k, v, scale):
    s = (q @ k.T) * scale
    m = s.max(axis=1, keepdims=True)
    p = np.exp(s - m)
    l = p.sum(axis=1, keepdims=True)
    o = (p @ v) / l
    return o, (m + np.log(l))[:, 0]


def backward(q, k, v, o, lse, do, scale):
    """Recomputes P from lse, as the fused backward does (5 GEMMs)."""
    p = np.exp((q @ k.T) * scale - lse[:, None])
    dv = p.T @ do
    dp = do @ v.T
    delta = (do * o).sum(axis=1, keepdims=True)
    ds = p * (dp - delta)
    dq = (ds @ k) * scale
    dk = (ds.T @ q) * scale
    return dq, dk, dv


def blas():
    with open("/proc/self/maps") as f:
        libs = {line.split()[-1] for line in f if "blas" in line.lower()}
    return ",".join(sorted(x.rsplit("/", 1)[-1] for x in libs)) or "?"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int)
    ap.add_argument("d", type=int)
    ap.add_argument("--grad", action="store_true")
    ap.add_argument("--reps", type=int, default=1)
    a = ap.parse_args()
    rng = np.random.default_rng(0)
    q, k, v, do = (rng.standard_normal((a.n, a.d), dtype=np.float32)
                   for _ in range(4))
    scale = np.float32(1.0 / np.sqrt(a.d))
    o, lse = forward(q, k, v, scale)
    call = ((lambda: backward(q, k, v, o, lse, do, scale)) if a.grad
            else (lambda: forward(q, k, v, scale)))
    call()  # warm-up
    t0 = time.perf_counter()
    for _ in range(a.reps):
        call()
    secs = (time.perf_counter() - t0) / a.reps
    print(f"seconds: {secs}")
    print(f"blas: {blas()}")
    print(f"rss_mb: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}")


if __name__ == "__main__":
    main()
