#!/usr/bin/env python3
"""GPU benchmark of the SIMT kernels --flash-to-nvvm falls back to: f32
inputs (no tensor cores) and the bf16 backward at d = 256, against torch
SDPA in the same process (memory-efficient backend for f32; flash and
cuDNN for bf16), on the same inputs; errors against an f64 reference.

  # here (flash-opt available): compile the kernels into a cache, with the
  # default mapping and with one thread per row (row-lanes=1)
  FLASH_MLIR_CACHE=gpu_out/cache python3 bench/gpu/bench_simt.py --precompile
  FLASH_MLIR_CACHE=gpu_out/cache FLASH_MLIR_NVVM_OPTIONS=row-lanes=1 \\
      python3 bench/gpu/bench_simt.py --precompile
  # on the GPU machine: the same two, without --precompile

B*N = 16k tokens, H*d = 2048, N = 4096, not causal. FLOPs 4 B H N^2 d (bwd
2.5x).
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))

from flash_mlir import cuda, program  # noqa: E402

# Kernels compiled for each shape (the static-shape tables); bench_dynamic.py
# compares them with the per-class kernels of runtime shapes.
os.environ.setdefault("FLASH_MLIR_DYNAMIC", "0")
from bench import timeit as bench_timeit  # noqa: E402  (bench/gpu/bench.py)

N = 4096
# (dtype, d, passes)
CONFIGS = [("f32", 64, ("fwd", "bwd")), ("f32", 128, ("fwd", "bwd")),
           ("bf16", 256, ("bwd",))]


def shape(d):
    return 16384 // N, 2048 // d  # B, H


def config(dtype, d):
    b, h = shape(d)
    return program.Config(batch=[b], hq=h, hkv=h, nq=N, nk=N, d=d, dv=d,
                          dtype=dtype, causal=False, lse=True)


def precompile():
    for dtype, d, passes in CONFIGS:
        cuda.compile_kernel(cuda.kernel_class(config(dtype, d)))
        if "bwd" in passes:
            cuda.compile_kernel(cuda.kernel_class(config(dtype, d)), grad=True)
        print(f"compiled {dtype} d={d}", flush=True)


def bench(only=None):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    def timeit(fn):
        return bench_timeit(fn, iters=3, warmup=1)

    print("mapping:", os.environ.get("FLASH_MLIR_NVVM_OPTIONS") or "default")
    print("| dtype | d | pass | ours TFLOP/s | SDPA backend | SDPA TFLOP/s | "
          "ours/SDPA | err ours | err SDPA | kinds |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for dtype, d, passes in CONFIGS:
        b, h = shape(d)
        tdt = torch.float32 if dtype == "f32" else torch.bfloat16
        backend = (SDPBackend.EFFICIENT_ATTENTION if dtype == "f32"
                   else SDPBackend.FLASH_ATTENTION)
        torch.manual_seed(0)
        q, k, v, do = (torch.randn(b, h, N, d, device="cuda", dtype=tdt)
                       for _ in range(4))
        q64, k64, v64 = (t.double().requires_grad_(True) for t in (q, k, v))
        ref_o = F.scaled_dot_product_attention(q64, k64, v64)
        ref_o.backward(do.double())
        fwd_flops = 4 * b * h * N * N * d
        o, lse = cuda.forward(q, k, v)
        for p in passes:
            if only and p != only:
                continue
            if p == "fwd":
                err = (o.double() - ref_o).abs().max().item()
                with sdpa_kernel(backend):
                    sd = F.scaled_dot_product_attention(q, k, v)
                    t_sd = timeit(lambda: F.scaled_dot_product_attention(
                        q, k, v))
                err_sd = (sd.double() - ref_o).abs().max().item()
                t = timeit(lambda: cuda.forward(q, k, v))
                flops = fwd_flops
            else:
                grads = cuda.backward(q, k, v, o, lse, do)
                refs = (q64.grad, k64.grad, v64.grad)
                err = max((g.double() - r).abs().max().item()
                          for g, r in zip(grads, refs))
                qs, ks, vs = (x.detach().clone().requires_grad_(True)
                              for x in (q, k, v))
                with sdpa_kernel(backend):
                    out = F.scaled_dot_product_attention(qs, ks, vs)
                    sdg = torch.autograd.grad(out, (qs, ks, vs), do,
                                              retain_graph=True)
                    t_sd = timeit(lambda: torch.autograd.grad(
                        out, (qs, ks, vs), do, retain_graph=True))
                err_sd = max((g.double() - r).abs().max().item()
                             for g, r in zip(sdg, refs))
                t = timeit(lambda: cuda.backward(q, k, v, o, lse, do))
                flops = 2.5 * fwd_flops
            kinds = ",".join(sorted(set(cuda.kernel_kinds(
                config(dtype, d), grad=(p == "bwd")))))
            ok = err <= 2 * err_sd + 1e-6
            print(f"| {dtype} | {d} | {p} | {flops / t / 1e12:.2f} | "
                  f"{backend.name.lower()} | {flops / t_sd / 1e12:.2f} | "
                  f"{t_sd / t:.3f} | {err:.2e}{'' if ok else ' FAIL'} | "
                  f"{err_sd:.2e} | {kinds} |", flush=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--precompile", action="store_true")
    ap.add_argument("--only", choices=("fwd", "bwd"),
                    help="time one pass (one thread per row spills: its "
                    "backward takes minutes)")
    a = ap.parse_args()
    precompile() if a.precompile else bench(a.only)
