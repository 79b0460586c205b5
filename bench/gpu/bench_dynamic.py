#!/usr/bin/env python3
"""Kernels with runtime shapes on the GPU: one kernel per configuration
class (dynamic sequence lengths, flash_mlir.cuda.kernel_class) against the
kernels compiled for each shape (FLASH_MLIR_DYNAMIC=0), cuDNN SDPA in the
same process, same inputs; then one class run at many sequence lengths
(compiles counted), and decode (Nq = 1) bandwidth.

  # here (flash-opt available): compile both kinds of kernels into a cache
  FLASH_MLIR_CACHE=gpu_dyn/cache python3 bench/gpu/bench_dynamic.py --precompile
  # on the GPU machine
  FLASH_MLIR_CACHE=gpu_dyn/cache python3 bench/gpu/bench_dynamic.py

bf16, B*N = 16k tokens, H*d = 2048; TFLOP/s = 4 B H N^2 d / t (halved for
causal; backward 2.5x); median of 10 CUDA-event timings.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))

from flash_mlir import cuda, program  # noqa: E402
from timing import timeit  # noqa: E402

CONFIGS = [(d, n, causal) for d in (64, 128) for n in (1024, 4096, 16384)
           for causal in (False, True)]
# Sequence lengths of the many-lengths run (odd, Nq != Nk included).
LENGTHS = [(1, 1), (1, 4096), (7, 300), (100, 100), (128, 128), (129, 129),
           (255, 511), (300, 7), (513, 513), (1000, 1000), (1023, 2047),
           (1024, 1024), (1500, 1500), (2000, 4000), (2048, 2048),
           (3000, 3000), (4095, 4095), (4096, 4096), (5000, 5000),
           (8191, 8191)]
# Decode: B, Hq, Hkv, Nk (Nq = 1, d = 128).
DECODE = [(8, 32, 8, 4096), (1, 32, 8, 8192), (64, 32, 8, 1024)]


def shape(d, n):
    return 16384 // n, 2048 // d  # B, H


def config(b, hq, hkv, nq, nk, d, causal):
    return program.Config(batch=[b], hq=hq, hkv=hkv, nq=nq, nk=nk, d=d, dv=d,
                          dtype="bf16", causal=causal,
                          causal_offset=0 if causal else None, lse=True)


def with_dynamic(flag, fn):
    old = os.environ.get("FLASH_MLIR_DYNAMIC")
    os.environ["FLASH_MLIR_DYNAMIC"] = "1" if flag else "0"
    try:
        return fn()
    finally:
        if old is None:
            del os.environ["FLASH_MLIR_DYNAMIC"]
        else:
            os.environ["FLASH_MLIR_DYNAMIC"] = old


def precompile():
    for d, n, causal in CONFIGS:
        b, h = shape(d, n)
        cfg = config(b, h, h, n, n, d, causal)
        for flag in (False, True):
            for grad in (False, True):
                with_dynamic(flag, lambda: cuda.compile_kernel(
                    cuda.kernel_class(cfg), grad=grad))
        print(f"compiled d={d} N={n} causal={causal}", flush=True)
    for causal in (False, True):
        with_dynamic(True, lambda: cuda.compile_kernel(
            cuda.kernel_class(config(2, 8, 2, 64, 64, 128, causal))))
    for b, hq, hkv, nk in DECODE:
        with_dynamic(True, lambda: cuda.compile_kernel(
            cuda.kernel_class(config(b, hq, hkv, 1, nk, 128, False))))
    print("kernel cache ready")


def bench():
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    def sdpa(q, k, v, causal, backend=SDPBackend.CUDNN_ATTENTION):
        with sdpa_kernel(backend):
            return F.scaled_dot_product_attention(q, k, v, is_causal=causal,
                                                  enable_gqa=True)

    print("| pass | d | N | causal | static TFLOP/s | dynamic TFLOP/s | "
          "dynamic / static | cuDNN | dynamic / cuDNN | err static | "
          "err dynamic | err cuDNN |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for d, n, causal in CONFIGS:
        b, h = shape(d, n)
        torch.manual_seed(0)
        q, k, v = (torch.randn(b, h, n, d, device="cuda",
                               dtype=torch.bfloat16, requires_grad=True)
                   for _ in range(3))
        do = torch.randn_like(q)
        ref = F.scaled_dot_product_attention(
            q.float(), k.float(), v.float(), is_causal=causal)
        flops = 4 * b * h * n * n * d / (2 if causal else 1)
        errs, times = {}, {}
        for flag in (False, True):
            o = with_dynamic(flag, lambda: cuda.attention(q, k, v, causal))
            errs[flag] = (o.float() - ref).abs().max().item()
            times[flag] = with_dynamic(flag, lambda: timeit(
                lambda: cuda.forward(q, k, v, causal)))
        with torch.no_grad():
            errs["c"] = (sdpa(q, k, v, causal).float() - ref).abs().max().item()
            times["c"] = timeit(lambda: sdpa(q, k, v, causal))
        tf = lambda t: flops / t / 1e12
        ok = all(errs[f] <= 2 * errs["c"] + 2e-3 for f in (False, True))
        print(f"| fwd | {d} | {n} | {causal} | {tf(times[False]):.1f} | "
              f"{tf(times[True]):.1f} | {times[False] / times[True]:.3f} | "
              f"{tf(times['c']):.1f} | {times['c'] / times[True]:.3f} | "
              f"{errs[False]:.2e} | {errs[True]:.2e}{'' if ok else ' FAIL'} | "
              f"{errs['c']:.2e} |", flush=True)
        # Backward (loss.backward(): our dQ, dK/dV kernels).
        bt = {}
        for flag in (False, True):
            def step(flag=flag):
                q.grad = k.grad = v.grad = None
                with_dynamic(flag, lambda: cuda.attention(
                    q, k, v, causal).backward(do))
            def fwd_only(flag=flag):
                with torch.no_grad():
                    with_dynamic(flag, lambda: cuda.forward(q, k, v, causal))
            bt[flag] = max(timeit(step) - timeit(fwd_only), 1e-9)
        def cstep():
            q.grad = k.grad = v.grad = None
            sdpa(q, k, v, causal).backward(do)
        def cfwd():
            with torch.no_grad():
                sdpa(q, k, v, causal)
        bt["c"] = max(timeit(cstep) - timeit(cfwd), 1e-9)
        tb = lambda t: 2.5 * flops / t / 1e12
        print(f"| bwd | {d} | {n} | {causal} | {tb(bt[False]):.1f} | "
              f"{tb(bt[True]):.1f} | {bt[False] / bt[True]:.3f} | "
              f"{tb(bt['c']):.1f} | {bt['c'] / bt[True]:.3f} | | | |",
              flush=True)

    # One class, many lengths: no compile on this machine, one cached
    # kernel per (class, pass), results against SDPA (math, fp32).
    before = cuda.COMPILES
    worst, fails = 0.0, 0
    for causal in (False, True):
        for nq, nk in LENGTHS:
            torch.manual_seed(1)
            q = torch.randn(2, 8, nq, 128, device="cuda", dtype=torch.bfloat16)
            k, v = (torch.randn(2, 2, nk, 128, device="cuda",
                                dtype=torch.bfloat16) for _ in range(2))
            ref = F.scaled_dot_product_attention(
                q.float(), k.float().repeat_interleave(4, 1),
                v.float().repeat_interleave(4, 1), is_causal=causal)
            o = with_dynamic(True, lambda: cuda.attention(q, k, v, causal))
            err = (o.float() - ref).abs().max().item()
            bad = not err <= 2e-2
            fails += bad
            worst = max(worst, err)
    kernels = {k for k in cuda._KERNELS}
    print(f"\nmany lengths: {2 * len(LENGTHS)} calls (GQA 8/2, d = 128, "
          f"causal and not), compiles here {cuda.COMPILES - before}, "
          f"kernels loaded {len(kernels)}, worst err {worst:.2e}, "
          f"failures {fails}")

    print("\n| decode B, Hq/Hkv, Nk | ours us | ours TB/s | cuDNN us | "
          "cuDNN TB/s | ours / cuDNN | err ours | err cuDNN |")
    print("|---|---|---|---|---|---|---|---|")
    for b, hq, hkv, nk in DECODE:
        torch.manual_seed(2)
        q = torch.randn(b, hq, 1, 128, device="cuda", dtype=torch.bfloat16)
        k, v = (torch.randn(b, hkv, nk, 128, device="cuda",
                            dtype=torch.bfloat16) for _ in range(2))
        ref = F.scaled_dot_product_attention(
            q.float(), k.float().repeat_interleave(hq // hkv, 1),
            v.float().repeat_interleave(hq // hkv, 1))
        o, _ = with_dynamic(True, lambda: cuda.forward(q, k, v))
        err = (o.float() - ref).abs().max().item()
        t = with_dynamic(True, lambda: timeit(lambda: cuda.forward(q, k, v)))
        try:
            c = sdpa(q, k, v, False)
            errc = (c.float() - ref).abs().max().item()
            tc = timeit(lambda: sdpa(q, k, v, False))
        except RuntimeError:
            errc, tc = float("nan"), float("nan")
        bytes_ = 2 * b * hkv * nk * 128 * 2
        print(f"| {b}, {hq}/{hkv}, {nk} | {t * 1e6:.1f} | "
              f"{bytes_ / t / 1e12:.2f} | {tc * 1e6:.1f} | "
              f"{bytes_ / tc / 1e12:.2f} | {tc / t:.3f} | {err:.2e} | "
              f"{errc:.2e} |", flush=True)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--precompile", action="store_true")
    a = p.parse_args()
    precompile() if a.precompile else bench()
