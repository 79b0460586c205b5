#!/usr/bin/env python3
"""GPU benchmark of the score/mask modifiers on the tensor-core forward:
a sliding window (causal, 1024 keys) against the plain causal kernel, and
tanh soft-capping (c = 50) against the plain kernel, each next to
FlexAttention (torch.compile'd flex_attention with the same mask_mod /
score_mod and a block mask) and cuDNN SDPA (plain causal / full) in the same
process, bf16, B = 1, H = 16, N = 16384, d = 128 (B*N = 16k tokens,
H*d = 2048).

  # here (flash-opt available): compile the kernels into a cache
  FLASH_MLIR_CACHE=gpu_out/cache python3 bench/gpu/bench_mods.py --precompile
  # on the GPU machine (torch, no MLIR)
  FLASH_MLIR_CACHE=gpu_out/cache python3 bench/gpu/bench_mods.py

Correctness first at N = 1024: each implementation's max error against an
fp32 reference that applies the modifier to the full score matrix; ours
must be <= 2x FlexAttention's. Times are medians of CUDA-event timings.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# bench/gpu/profile.py would shadow the standard library's `profile`
# (torch.compile imports cProfile).
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != HERE]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))
from flash_mlir import cuda, mlirgen  # noqa: E402

B, H, D = 1, 16, 128
WINDOW, CAP = 1024, 50.0
# name: (causal, window, softcap)
CASES = {"causal": (True, None, None),
         "window": (True, (WINDOW - 1, 0), None),
         "full": (False, None, None),
         "softcap": (False, None, CAP)}


def config(n, causal, window, softcap):
    """The mlirgen config flash_mlir.cuda builds for these arguments."""
    cfg = mlirgen.Config(batch=[B], hq=H, hkv=H, nq=n, nk=n, d=D, dv=D,
                         dtype="bf16", causal=causal,
                         causal_offset=0 if causal else None, scale=None,
                         lse=True)
    if window is not None:
        cfg.window = tuple(window)
    if softcap:
        cfg.softcap = float(softcap)
    return cfg


def precompile():
    for n in (1024, 16384):
        for causal, window, softcap in CASES.values():
            cuda.compile_kernel(config(n, causal, window, softcap))


def timeit(fn, iters=10, warmup=3):
    import torch
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(iters):
        a, b = (torch.cuda.Event(enable_timing=True) for _ in range(2))
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        ts.append(a.elapsed_time(b) / 1e3)
    return sorted(ts)[len(ts) // 2]


def bench():
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from torch.nn.attention.flex_attention import (create_block_mask,
                                                   flex_attention)
    import torch.nn.functional as F

    flex = torch.compile(flex_attention)

    def mask_mod_of(causal, window):
        if window is not None:
            return lambda b, h, q, kv: (q >= kv) & (q - kv < WINDOW)
        if causal:
            return lambda b, h, q, kv: q >= kv
        return None

    def score_mod_of(softcap):
        if not softcap:
            return None
        return lambda s, b, h, q, kv: softcap * torch.tanh(s / softcap)

    def reference(q, k, v, causal, window, softcap):
        s = (q.float() @ k.float().transpose(-1, -2)) / D ** 0.5
        if softcap:
            s = softcap * torch.tanh(s / softcap)
        n = q.shape[2]
        i = torch.arange(n, device=q.device)[:, None]
        j = torch.arange(n, device=q.device)[None, :]
        keep = torch.ones(n, n, dtype=torch.bool, device=q.device)
        if causal:
            keep &= j <= i
        if window is not None:
            keep &= i - j < WINDOW
        s = s.masked_fill(~keep, float("-inf"))
        return torch.softmax(s, -1) @ v.float()

    torch.manual_seed(0)
    print("| case | N | ours (ms) | FlexAttention (ms) | ours / flex | "
          "cuDNN (ms) | err ours | err flex |")
    print("|---|---|---|---|---|---|---|---|")
    times = {}
    for n in (1024, 16384):
        q, k, v = (torch.randn(B, H, n, D, device="cuda", dtype=torch.bfloat16)
                   for _ in range(3))
        for name, (causal, window, softcap) in CASES.items():
            ours = lambda: cuda.forward(q, k, v, causal=causal,
                                        window=window, softcap=softcap)[0]
            mm = mask_mod_of(causal, window)
            bm = (create_block_mask(mm, B=None, H=None, Q_LEN=n, KV_LEN=n)
                  if mm else None)
            sm = score_mod_of(softcap)
            fl = lambda: flex(q, k, v, score_mod=sm, block_mask=bm)
            eo = ef = float("nan")
            if n == 1024:
                ref = reference(q, k, v, causal, window, softcap)
                eo = (ours().float() - ref).abs().max().item()
                ef = (fl().float() - ref).abs().max().item()
            to, tf = timeit(ours), timeit(fl)
            tc = float("nan")
            if window is None and not softcap:
                with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                    tc = timeit(lambda: F.scaled_dot_product_attention(
                        q, k, v, is_causal=causal))
            times[(name, n)] = to
            ok = "" if n != 1024 or eo <= 2 * ef + 1e-6 else " FAIL"
            print(f"| {name} | {n} | {to * 1e3:.3f} | {tf * 1e3:.3f} | "
                  f"{to / tf:.2f} | {tc * 1e3:.3f} | {eo:.2e} | "
                  f"{ef:.2e}{ok} |", flush=True)
    n = 16384
    print(f"window vs causal at N = {n}: {times[('causal', n)] / times[('window', n)]:.2f}x "
          f"faster; visited-element ratio "
          f"{(n * n / 2) / (n * WINDOW - WINDOW * WINDOW / 2):.2f}x")
    print(f"softcap / full at N = {n}: "
          f"{times[('softcap', n)] / times[('full', n)]:.2f}x the time")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--precompile", action="store_true")
    a = ap.parse_args()
    precompile() if a.precompile else bench()


if __name__ == "__main__":
    main()
