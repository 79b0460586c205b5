#!/usr/bin/env python3
"""Decode on the GPU: flash-mlir's split-KV forward (one kernel per Nq and
configuration, every cache length) against cuDNN and FlashAttention-2
(torch SDPA backends) in the same process, same inputs; then the per-call
overhead of a small forward against SDPA's.

  # here (flash-opt available): compile the kernels into a cache
  FLASH_MLIR_CACHE=gpu_dyn/cache python3 bench/gpu/bench_decode.py --precompile
  # on the GPU machine
  FLASH_MLIR_CACHE=gpu_dyn/cache python3 bench/gpu/bench_decode.py

bf16, d = 128, GQA Hq / Hkv = 32 / 8, Nq = 1 (and a causal Nq = 4 row:
speculative decoding). Bandwidth = bytes of K and V read / t; t = median
over 10 CUDA-graph replays of 20 back-to-back calls (no Python in the
timing), each side checked against an f32 reference first.
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))

from flash_mlir import cuda, program  # noqa: E402
from timing import graph_time  # noqa: E402

# B, Hq, Hkv, Nq, Nk, causal
DECODE = ([(8, 32, 8, 1, 4096, False)] +
          [(b, 32, 8, 1, nk, False) for b in (1, 8, 64)
           for nk in (1024, 8192, 32768)] +
          [(8, 32, 8, 4, 8192, True)])
# Cache lengths one compiled kernel runs (correctness only).
LENGTHS = [1, 5, 127, 128, 129, 1000, 4097, 32771]
SMALL = (1, 8, 128, 64)  # B, H, N, d of the per-call overhead row


def config(b, hq, hkv, nq, nk, d, causal):
    return program.Config(batch=[b], hq=hq, hkv=hkv, nq=nq, nk=nk, d=d, dv=d,
                          dtype="bf16", causal=causal,
                          causal_offset=nk - nq if causal else None,
                          lse=True)


def precompile():
    classes = {repr(cuda.kernel_class(config(*c[:5], 128, c[5])))
               : config(*c[:5], 128, c[5]) for c in DECODE}
    for cfg in classes.values():
        cuda.compile_kernel(cuda.kernel_class(cfg))
    b, h, n, d = SMALL
    cuda.compile_kernel(cuda.kernel_class(config(b, h, h, n, n, d, False)))
    print(f"kernel cache ready ({len(classes) + 1} classes)")


def bench():
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    ok_all = True
    # One compiled class at many cache lengths.
    torch.manual_seed(0)
    errs = []
    before = cuda.COMPILES
    for nk in LENGTHS:
        q = torch.randn(8, 32, 1, 128, device="cuda", dtype=torch.bfloat16)
        k, v = (torch.randn(8, 8, nk, 128, device="cuda", dtype=torch.bfloat16)
                for _ in range(2))
        ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                             enable_gqa=True)
        o, lse = cuda.forward(q, k, v)
        rl = torch.logsumexp((q.float() @ k.float().repeat_interleave(4, 1)
                              .transpose(-1, -2)) / 128 ** 0.5, -1)
        errs.append(max((o.float() - ref).abs().max().item(),
                        (lse - rl).abs().max().item()))
    kinds = cuda.kernel_kinds(cuda.kernel_class(
        config(8, 32, 8, 1, 1, 128, False)))
    ok = max(errs) <= 1e-2 and cuda.COMPILES == before
    ok_all &= ok
    print(f"lengths {LENGTHS}: one class ({','.join(kinds)}), compiles "
          f"{cuda.COMPILES - before}, worst err {max(errs):.2e}"
          f"{'' if ok else ' FAIL'}\n")

    print("| B | Hq/Hkv | Nq | Nk | causal | ours µs | ours TB/s | cuDNN µs | "
          "cuDNN TB/s | ours / cuDNN | FA2 µs | ours / FA2 | err ours | "
          "err cuDNN |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for b, hq, hkv, nq, nk, causal in DECODE:
        torch.manual_seed(1)
        q = torch.randn(b, hq, nq, 128, device="cuda", dtype=torch.bfloat16)
        k, v = (torch.randn(b, hkv, nk, 128, device="cuda",
                            dtype=torch.bfloat16) for _ in range(2))
        mask = None
        if causal:
            mask = torch.ones(nq, nk, dtype=torch.bool,
                              device="cuda").tril(nk - nq)
        ref = F.scaled_dot_product_attention(
            q.float(), k.float(), v.float(), attn_mask=mask, enable_gqa=True)
        off = nk - nq if causal else None

        def ours():
            return cuda.forward(q, k, v, causal=causal, causal_offset=off)[0]

        def cudnn():
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                return F.scaled_dot_product_attention(
                    q, k, v, attn_mask=mask, enable_gqa=True)

        kx, vx = (t.repeat_interleave(hq // hkv, 1) for t in (k, v))

        def fa2():
            with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                # FA2 through SDPA takes no bottom-right mask: the
                # non-causal timing for the causal row.
                return F.scaled_dot_product_attention(q, kx, vx)

        e_ours = (ours().float() - ref).abs().max().item()
        try:
            e_cudnn = (cudnn().float() - ref).abs().max().item()
            t_cudnn = graph_time(cudnn)
        except RuntimeError as ex:
            e_cudnn, t_cudnn = float("nan"), float("nan")
            print(f"(cuDNN: {str(ex).splitlines()[0][:80]})")
        t_ours = graph_time(ours)
        t_fa2 = graph_time(fa2)
        kv_bytes = 2 * b * hkv * nk * 128 * 2
        ok = e_ours <= max(1e-2, 2 * e_cudnn)
        ok_all &= ok
        print(f"| {b} | {hq}/{hkv} | {nq} | {nk} | {causal} | "
              f"{t_ours * 1e6:.1f} | {kv_bytes / t_ours / 1e12:.2f} | "
              f"{t_cudnn * 1e6:.1f} | {kv_bytes / t_cudnn / 1e12:.2f} | "
              f"{t_cudnn / t_ours:.3f} | {t_fa2 * 1e6:.1f} | "
              f"{t_fa2 / t_ours:.3f} | {e_ours:.2e}{'' if ok else ' FAIL'} | "
              f"{e_cudnn:.2e} |", flush=True)

    # Per-call overhead: wall time of many calls with Python in the loop.
    b, h, n, d = SMALL
    q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.bfloat16)
               for _ in range(3))

    def wall(fn, calls=2000):
        for _ in range(50):
            fn()
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        return (time.perf_counter() - t0) / calls

    import flash_mlir
    t_ours = wall(lambda: cuda.forward(q, k, v))
    t_front = wall(lambda: flash_mlir.attention(q, k, v))
    t_sdpa = wall(lambda: F.scaled_dot_product_attention(q, k, v))
    t_gpu = graph_time(lambda: cuda.forward(q, k, v))
    t_sdpa_gpu = graph_time(lambda: F.scaled_dot_product_attention(q, k, v))
    print(f"\nper call, B={b} H={h} N={n} d={d}: cuda.forward "
          f"{t_ours * 1e6:.1f} µs, flash_mlir.attention {t_front * 1e6:.1f} µs "
          f"(GPU {t_gpu * 1e6:.1f}), SDPA {t_sdpa * 1e6:.1f} µs (GPU "
          f"{t_sdpa_gpu * 1e6:.1f}); flash_mlir.attention / SDPA "
          f"{t_front / t_sdpa:.2f}")
    print("ALL OK" if ok_all else "SOME FAILED")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--precompile", action="store_true")
    a = p.parse_args()
    precompile() if a.precompile else bench()
