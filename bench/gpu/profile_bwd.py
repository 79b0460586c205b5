#!/usr/bin/env python3
"""One backward of flash-mlir's kernels and one of cuDNN's SDPA on the same
inputs (bf16, bench.py's shapes), for Nsight Compute on the GPU machine:

  ncu --clock-control none -k regex:'dkdv|cudnn|sm90' \
      --section WarpStateStats --section SchedulerStats \
      python3 bench/gpu/profile_bwd.py --d 128 --n 16384 [--causal]

The kernels are compiled beforehand (bench.py --precompile) into
FLASH_MLIR_CACHE; both run once untimed first, then once between
cudaProfilerStart/Stop (ncu --profile-from-start off takes those only)."""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))
os.environ.setdefault("FLASH_MLIR_DYNAMIC", "0")
from flash_mlir import cuda  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--d", type=int, default=128)
    ap.add_argument("--n", type=int, default=16384)
    ap.add_argument("--causal", action="store_true")
    a = ap.parse_args()
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    b, h = 16384 // a.n, 2048 // a.d
    torch.manual_seed(0)
    q, k, v = (torch.randn(b, h, a.n, a.d, device="cuda",
                           dtype=torch.bfloat16, requires_grad=True)
               for _ in range(3))
    do = torch.randn_like(q)
    o, lse = cuda.forward(q.detach(), k.detach(), v.detach(), a.causal)

    def ours():
        cuda.backward(q.detach(), k.detach(), v.detach(), o, lse, do,
                      a.causal)

    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        out = F.scaled_dot_product_attention(q, k, v, is_causal=a.causal)

    def cudnn():
        torch.autograd.grad(out, (q, k, v), do, retain_graph=True)

    for f in (ours, cudnn):
        f()
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    for f in (ours, cudnn):
        f()
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()


if __name__ == "__main__":
    main()
