#!/usr/bin/env python3
"""GPU benchmark: flash-mlir's --flash-to-nvvm forward and backward against
torch SDPA (flash, cuDNN, memory-efficient backends) in the same process,
same inputs, over d in {64, 128, 256}, N in {1k, 4k, 16k}, causal or not.

  # here (flash-opt available): compile the kernels into a cache
  FLASH_MLIR_CACHE=gpu_out/cache python3 bench/gpu/bench.py --precompile
  # on the GPU machine (torch, no MLIR): check and time
  FLASH_MLIR_CACHE=gpu_out/cache python3 bench/gpu/bench.py

Correctness: bf16 error of each implementation against an fp32 reference on
the same inputs; ours must be <= 2x SDPA's. FLOPs: 4 B H N^2 d (halved for
causal; bwd 2.5x). bf16, B*N = 16k tokens, H*d = 2048. `--json PATH` also
writes every measurement (bench/gpu/plot.py draws them).
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))

from flash_mlir import cuda, program  # noqa: E402
from timing import timeit  # noqa: E402

# Kernels compiled for each shape (the static-shape tables); bench_dynamic.py
# compares them with the per-class kernels of runtime shapes.
os.environ.setdefault("FLASH_MLIR_DYNAMIC", "0")

CONFIGS = [(d, n, causal) for d in (64, 128, 256) for n in (1024, 4096, 16384)
           for causal in (False, True)]


def configs():
    """CONFIGS, or the rows of the head dims of FLASH_BENCH_DIMS (e.g.
    "128", or "96,192": head dims outside the table, H = 2048 // d)."""
    dims = os.environ.get("FLASH_BENCH_DIMS")
    if not dims:
        return CONFIGS
    return [(d, n, causal) for d in (int(x) for x in dims.split(","))
            for n in (1024, 4096, 16384) for causal in (False, True)]


# FLASH_BENCH_PEERS=0: the backward without the peers' timings (a sweep
# over our own variants, the peers timed once in the same run).
PEERS = os.environ.get("FLASH_BENCH_PEERS", "1") != "0"

# The backward runs on tensor cores at every head dim of the table (and at
# 96 and 192).
BWD_DIMS = (64, 96, 128, 192, 256)


def shape(d, n):
    return 16384 // n, 2048 // d  # B, H


# FLASH_BENCH_DV: v's head dim where it is not q's and k's (DeepSeek's
# d = 192, dv = 128: FLASH_BENCH_DIMS=192 FLASH_BENCH_DV=128); FLOPs
# 2 B H N^2 (d + dv).
DV = int(os.environ.get("FLASH_BENCH_DV", "0"))


def value_dim(d):
    return DV or d


def problem(d, n, causal):
    """The inputs of one row: bf16 q, k, v [B, H, N, d] (seed 0), the fp32
    SDPA output on them (the reference) and the forward's FLOPs."""
    import torch
    import torch.nn.functional as F
    b, h = shape(d, n)
    torch.manual_seed(0)
    q, k, v = (torch.randn(b, h, n, x, device="cuda", dtype=torch.bfloat16)
               for x in (d, d, value_dim(d)))
    ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                         is_causal=causal)
    flops = 2 * b * h * n * n * (d + value_dim(d)) / (2 if causal else 1)
    return q, k, v, ref, flops


def precompile(skip_bwd=False):
    for d, n, causal in configs():
        b, h = shape(d, n)
        cfg = program.Config(batch=[b], hq=h, hkv=h, nq=n, nk=n, d=d,
                             dv=value_dim(d),
                             dtype="bf16", causal=causal,
                             causal_offset=0 if causal else None, lse=True)
        # (The backward's timing calls the forward once.)
        cuda.compile_kernel(cuda.kernel_class(cfg))
        if not skip_bwd and d in BWD_DIMS:
            cuda.compile_kernel(cuda.kernel_class(cfg), grad=True)
        print(f"compiled d={d} N={n} causal={causal}", flush=True)


def bench(skip_bwd=False, json_path=None, skip_fwd=False):
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    import torch.nn.functional as F

    rows, results = [], []

    def dump():
        if json_path:
            import json
            # (Each row names the GPU: plot.py's title.)
            device = torch.cuda.get_device_name()
            with open(json_path, "w") as f:
                json.dump([dict(r, device=device) for r in results], f,
                          indent=1)
    def sdpa_ref(run):
        """SDPA's result by its flash backend, or (a v head dim it does not
        take) the first other that runs."""
        for backend in (SDPBackend.FLASH_ATTENTION, SDPBackend.CUDNN_ATTENTION,
                        SDPBackend.EFFICIENT_ATTENTION):
            try:
                with sdpa_kernel(backend):
                    return run()
            except RuntimeError:
                continue
        raise RuntimeError("no SDPA backend runs this row")

    print("| d | N | causal | ours TFLOP/s | flash | cuDNN | mem-eff | "
          "ours/flash | ours/cuDNN | err ours | err SDPA |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for d, n, causal in [] if skip_fwd else configs():
        q, k, v, ref, flops = problem(d, n, causal)
        ours, _ = cuda.forward(q, k, v, causal=causal)
        sd = sdpa_ref(lambda: F.scaled_dot_product_attention(
            q, k, v, is_causal=causal))
        err_ours = (ours.float() - ref).abs().max().item()
        err_sdpa = (sd.float() - ref).abs().max().item()
        nan = torch.isnan(ours).any().item()
        t_ours = timeit(lambda: cuda.forward(q, k, v, causal=causal))
        res = {}
        for name, backend in (("flash", SDPBackend.FLASH_ATTENTION),
                              ("cudnn", SDPBackend.CUDNN_ATTENTION),
                              ("eff", SDPBackend.EFFICIENT_ATTENTION)):
            try:
                with sdpa_kernel(backend):
                    res[name] = timeit(lambda: F.scaled_dot_product_attention(
                        q, k, v, is_causal=causal))
            except RuntimeError:
                res[name] = float("nan")
        tf = lambda t: flops / t / 1e12
        ok = (not nan) and err_ours <= 2 * err_sdpa
        row = (f"| {d} | {n} | {causal} | {tf(t_ours):.1f} | "
               f"{tf(res['flash']):.1f} | {tf(res['cudnn']):.1f} | "
               f"{tf(res['eff']):.1f} | {res['flash'] / t_ours:.3f} | "
               f"{res['cudnn'] / t_ours:.3f} | {err_ours:.2e}"
               f"{'' if ok else ' FAIL'} | {err_sdpa:.2e} |")
        print(row, flush=True)
        rows.append(row)
        results.append(dict(pass_="fwd", d=d, n=n, causal=causal,
                            ours=tf(t_ours), flash=tf(res["flash"]),
                            cudnn=tf(res["cudnn"]), eff=tf(res["eff"]),
                            err=err_ours, err_sdpa=err_sdpa, ok=ok))

    dump()
    if skip_bwd:
        return
    # Backward: autograd through flash_mlir.cuda.attention vs SDPA.
    print("\n| d | N | causal | ours bwd TFLOP/s | flash bwd | cuDNN bwd | "
          "ours/flash | ours/cuDNN | max grad err ours | SDPA |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for d, n, causal in configs():
        if d not in BWD_DIMS:
            continue
        b, h = shape(d, n)
        torch.manual_seed(0)
        q, k, v = (torch.randn(b, h, n, x, device="cuda", dtype=torch.bfloat16,
                               requires_grad=True)
                   for x in (d, d, value_dim(d)))
        do = torch.randn(b, h, n, value_dim(d), device="cuda",
                         dtype=torch.bfloat16)
        qf, kf, vf = (t.detach().float().requires_grad_(True)
                      for t in (q, k, v))
        F.scaled_dot_product_attention(qf, kf, vf, is_causal=causal).backward(
            do.float())
        ref = (qf.grad, kf.grad, vf.grad)
        cuda.attention(q, k, v, causal=causal).backward(do)
        ours = (q.grad, k.grad, v.grad)
        q.grad = k.grad = v.grad = None
        sdpa_ref(lambda: F.scaled_dot_product_attention(
            q, k, v, is_causal=causal).backward(do))
        sd = (q.grad, k.grad, v.grad)
        e_ours = max((a.float() - r).abs().max().item() for a, r in zip(ours, ref))
        e_sdpa = max((a.float() - r).abs().max().item() for a, r in zip(sd, ref))
        nan = any(torch.isnan(a).any().item() for a in ours)
        o_ours, lse = cuda.forward(q.detach(), k.detach(), v.detach(), causal)
        flops = 2.5 * 2 * b * h * n * n * (d + value_dim(d)) / (
            2 if causal else 1)
        t_ours = timeit(lambda: cuda.backward(q.detach(), k.detach(), v.detach(),
                                              o_ours, lse, do, causal), iters=3)
        res = {}
        for name, backend in (("flash", SDPBackend.FLASH_ATTENTION),
                              ("cudnn", SDPBackend.CUDNN_ATTENTION)):
            if not PEERS:
                res[name] = float("nan")
                continue
            try:
                with sdpa_kernel(backend):
                    out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                    res[name] = timeit(lambda: torch.autograd.grad(
                        out, (q, k, v), do, retain_graph=True), iters=3)
            except RuntimeError:
                res[name] = float("nan")
        tf = lambda t: flops / t / 1e12
        ok = (not nan) and e_ours <= 2 * e_sdpa
        print(f"| {d} | {n} | {causal} | {tf(t_ours):.1f} | {tf(res['flash']):.1f} | "
              f"{tf(res['cudnn']):.1f} | {res['flash'] / t_ours:.3f} | "
              f"{res['cudnn'] / t_ours:.3f} | {e_ours:.2e}{'' if ok else ' FAIL'} | "
              f"{e_sdpa:.2e} |", flush=True)
        results.append(dict(pass_="bwd", d=d, n=n, causal=causal,
                            ours=tf(t_ours), flash=tf(res["flash"]),
                            cudnn=tf(res["cudnn"]), err=e_ours,
                            err_sdpa=e_sdpa, ok=ok))
        dump()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--precompile", action="store_true")
    ap.add_argument("--json", help="write the measurements to this file")
    ap.add_argument("--skip-bwd", action="store_true",
                    help="forward only (FLASH_MLIR_NVVM_OPTIONS picks a "
                    "tuning variant, e.g. mma-warps=8)")
    ap.add_argument("--skip-fwd", action="store_true",
                    help="backward only")
    a = ap.parse_args()
    (precompile(a.skip_bwd) if a.precompile
     else bench(a.skip_bwd, a.json, a.skip_fwd))
