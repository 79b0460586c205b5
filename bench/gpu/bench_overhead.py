#!/usr/bin/env python3
"""Per-call overhead on the GPU: the wall time of a small forward with
Python in the loop, flash-mlir (flash_mlir.attention, cuda.forward) against
torch SDPA in the same process, and what one call of ours is made of (the
allocations, the current stream, the launch), each timed alone.

  # here (flash-opt available): compile the kernels into a cache
  FLASH_MLIR_CACHE=gpu_ovh/cache python3 bench/gpu/bench_overhead.py --precompile
  # on the GPU machine
  FLASH_MLIR_CACHE=gpu_ovh/cache python3 bench/gpu/bench_overhead.py

Wall time = (perf_counter around `calls` back-to-back calls, then a
synchronize) / calls, the median of 5 such rounds, after a warm-up; the
GPU time of the same call from CUDA-graph replays (timing.graph_time). A
call is CPU-bound when its wall time is above its GPU time: that
difference is the overhead.
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))

from flash_mlir import cuda, program  # noqa: E402

# (B, Hq, Hkv, Nq, Nk, d): the small shape, and a decode step.
SHAPES = [(1, 8, 8, 128, 128, 64), (1, 32, 8, 1, 1024, 128)]


def config(b, hq, hkv, nq, nk, d):
    return program.Config(batch=[b], hq=hq, hkv=hkv, nq=nq, nk=nk, d=d, dv=d,
                          dtype="bf16", causal=False, causal_offset=None,
                          lse=True)


def precompile():
    for s in SHAPES:
        cuda.compile_kernel(cuda.kernel_class(config(*s)))
    print(f"kernel cache ready ({len(SHAPES)} classes)")


def walls(fns, calls=2000, rounds=7):
    """Median wall seconds per call of each of `fns`, timed in interleaved
    rounds (this machine's load drifts: one function timed after another
    would compare different moments)."""
    import torch
    for fn in fns:
        for _ in range(200):
            fn()
    torch.cuda.synchronize()
    ts = [[] for _ in fns]
    for _ in range(rounds):
        for t, fn in zip(ts, fns):
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            torch.cuda.synchronize()
            t.append((time.perf_counter() - t0) / calls)
    return [sorted(t)[rounds // 2] for t in ts]


def bench():
    import torch
    import torch.nn.functional as F

    import flash_mlir
    from timing import graph_time

    ok_all = True
    for b, hq, hkv, nq, nk, d in SHAPES:
        torch.manual_seed(0)
        q = torch.randn(b, hq, nq, d, device="cuda", dtype=torch.bfloat16)
        k, v = (torch.randn(b, hkv, nk, d, device="cuda",
                            dtype=torch.bfloat16) for _ in range(2))
        gqa = hq != hkv
        ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                             enable_gqa=gqa)
        before = cuda.COMPILES
        err = (flash_mlir.attention(q, k, v).float() - ref).abs().max().item()
        ok = err <= 1e-2 and cuda.COMPILES == before
        ok_all &= ok
        print(f"\nB={b} Hq={hq} Hkv={hkv} Nq={nq} Nk={nk} d={d}: error "
              f"{err:.2e}{'' if ok else ' FAIL'}")

        def sdpa():
            return F.scaled_dot_product_attention(q, k, v, enable_gqa=gqa)

        def front():
            return flash_mlir.attention(q, k, v)

        def fwd():
            return cuda.forward(q, k, v)

        t_sdpa, t_front, t_fwd = walls([sdpa, front, fwd])
        g_sdpa, g_ours = graph_time(sdpa), graph_time(fwd)
        print("| call | wall µs | GPU µs | wall / SDPA's |")
        print("|---|---|---|---|")
        print(f"| SDPA | {t_sdpa * 1e6:.1f} | {g_sdpa * 1e6:.1f} | 1.00 |")
        print(f"| flash_mlir.attention | {t_front * 1e6:.1f} | "
              f"{g_ours * 1e6:.1f} | {t_front / t_sdpa:.2f} |")
        print(f"| cuda.forward (with lse) | {t_fwd * 1e6:.1f} | "
              f"{g_ours * 1e6:.1f} | {t_fwd / t_sdpa:.2f} |")

        # The pieces of one call of ours, each alone.
        def lookup():
            return cuda._plan(cuda._Plan, q, k, v, False, None, None, None)
        plan = lookup()
        o, lse = plan(q, k, v, True, None)
        ptrs = [q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(),
                lse.data_ptr()]
        stream = plan.stream()
        pieces = [
            ("o = q.new_empty", lambda: q.new_empty(plan.o_shape)),
            ("torch.empty (lse)", lambda: torch.empty(
                plan.lse_shape, dtype=torch.float32, device=q.device)),
            ("raw current stream", plan.stream),
            ("torch.cuda.current_stream().cuda_stream",
             lambda: torch.cuda.current_stream().cuda_stream),
            ("5 x data_ptr()", lambda: (q.data_ptr(), k.data_ptr(),
                                        v.data_ptr(), o.data_ptr(),
                                        lse.data_ptr())),
            ("plan lookup", lookup),
        ]
        if not plan.scratch:
            # (A split-KV plan's launches need its scratch buffer.)
            pieces.append((f"{len(plan.runs)} x cuLaunchKernel (ctypes; "
                           "GPU-bound when longer than the GPU time)",
                           lambda: [ln(ptrs, stream) for ln in plan.runs]))
        print("| piece of a call | wall µs |")
        print("|---|---|")
        for (name, _), t in zip(pieces, walls([f for _, f in pieces],
                                              calls=5000, rounds=3)):
            print(f"| {name} | {t * 1e6:.2f} |")
    print("ALL OK" if ok_all else "SOME FAILED")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--precompile", action="store_true")
    a = p.parse_args()
    if a.precompile:
        precompile()
    else:
        sys.path.append(HERE)
        bench()
