#!/usr/bin/env python3
"""What a block of the forward costs besides its key tiles, ours next to
cuDNN SDPA in the same process: bf16, d = 128, non-causal, Nq = 1024 (a
fixed grid of query blocks) and Nk from 128 to 8192, kernel times from
CUDA-graph replays (no host time). A least-squares line t = a + b * Nk
gives the per-key cost (b) and the fixed cost (a: the blocks' prologue
and epilogue, the launch, the last wave's tail); a / waves is the fixed
cost per block when one block runs per SM at a time. Static shapes (a
kernel per Nk, as bench.py's rows: the forward's blocks are persistent
there), so the fixed cost is per query block (a persistent block's unit of
work), not per launched block.

  FLASH_MLIR_CACHE=gpu_out/cache python3 bench/gpu/bench_block_cost.py --precompile
  FLASH_MLIR_CACHE=gpu_out/cache python3 bench/gpu/bench_block_cost.py   # GPU
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))
from flash_mlir import cuda, program  # noqa: E402
from timing import graph_time  # noqa: E402

os.environ.setdefault("FLASH_MLIR_DYNAMIC", "0")

B, H, NQ = 8, 16, 1024
KEYS = (128, 256, 512, 1024, 2048, 4096, 8192)


def config(d, nk):
    return program.Config(batch=[B], hq=H, hkv=H, nq=NQ, nk=nk, d=d, dv=d,
                          dtype="bf16", causal=False, causal_offset=None,
                          lse=True)


def fit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    b = (sum((x - mx) * (y - my) for x, y in zip(xs, ys)) /
         sum((x - mx) ** 2 for x in xs))
    return my - b * mx, b


def run(dims):
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    F = torch.nn.functional
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    for d in dims:
        ours, peer = [], []
        for nk in KEYS:
            q = torch.randn(B, H, NQ, d, device="cuda", dtype=torch.bfloat16)
            k, v = (torch.randn(B, H, nk, d, device="cuda",
                                dtype=torch.bfloat16) for _ in range(2))
            o, _ = cuda.forward(q, k, v)
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                r = F.scaled_dot_product_attention(q, k, v)
                err = (o.float() - r.float()).abs().max().item()
                t_peer = graph_time(
                    lambda: F.scaled_dot_product_attention(q, k, v))
            t_ours = graph_time(lambda: cuda.forward(q, k, v,
                                                     want_lse=False))
            ours.append(t_ours * 1e6)
            peer.append(t_peer * 1e6)
            print(f"d={d} Nk={nk}: ours {t_ours * 1e6:.1f} us, cuDNN "
                  f"{t_peer * 1e6:.1f} us ({t_peer / t_ours:.2f}x), "
                  f"|o - cuDNN| {err:.1e}", flush=True)
        # Query blocks (a persistent block's unit of work) of the Nk = 128
        # kernel.
        c = cuda.compile_kernel(cuda.kernel_class(config(d, KEYS[0])))[2][0]
        blocks = -(-NQ // c["rows_per_block"]) * B * H
        for name, ts in (("ours", ours), ("cuDNN", peer)):
            a, b = fit(KEYS, ts)
            waves = blocks / sms
            print(f"d={d} {name}: fixed {a:.1f} us ({a / waves:.2f} us per "
                  f"block, {blocks} blocks, {waves:.1f} waves), "
                  f"{b * 128 / waves:.2f} us per 128-key tile of a block")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--precompile", action="store_true")
    ap.add_argument("--dims", default="64,128")
    a = ap.parse_args()
    dims = [int(x) for x in a.dims.split(",")]
    if a.precompile:
        for d in dims:
            for nk in KEYS:
                cuda.compile_kernel(cuda.kernel_class(config(d, nk)))
        print("ok")
    else:
        run(dims)


if __name__ == "__main__":
    main()
