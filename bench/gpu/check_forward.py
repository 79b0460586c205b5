#!/usr/bin/env python3
"""Correctness of the Python front's forward (flash_mlir.cuda.attention) on
the shapes the warp-specialized kernel's edges are made of: odd lengths,
GQA, one query, causal with Nq != Nk, d = 256, inputs that are views
(offset by an element, so 2 bytes off the 16-byte alignment the tensor maps
need, or strided), with the kernels of runtime sizes (the front's default)
and of static ones. Each output against a float64 reference: its max error
must be at most 2x SDPA's (bf16, the same inputs) plus 1e-3.

  # here (flash-opt available): compile the kernels into a cache
  FLASH_MLIR_CACHE=gpu_out/cache python3 bench/gpu/check_forward.py --precompile
  # on the GPU machine
  FLASH_MLIR_CACHE=gpu_out/cache python3 bench/gpu/check_forward.py
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))
from flash_mlir import cuda, program  # noqa: E402

# (B, Hq, Hkv, Nq, Nk, D, causal, layout): layout "plain", "offset" (a
# contiguous view one element into a larger buffer) or "strided" ([B, N,
# H, D] transposed to [B, H, N, D]).
CASES = [
    (2, 4, 2, 1000, 1777, 128, True, "plain"),
    (1, 3, 3, 333, 333, 256, False, "plain"),
    (1, 2, 2, 1, 2000, 128, True, "plain"),
    (2, 4, 4, 1300, 2100, 128, False, "offset"),
    (1, 6, 2, 700, 1500, 128, True, "strided"),
    (1, 2, 1, 1500, 1300, 256, True, "offset"),
    (2, 4, 2, 900, 1333, 64, True, "strided"),
    (1, 3, 3, 1, 700, 64, False, "offset"),
]
DYNAMIC = ("1", "0")


def config(B, Hq, Hkv, Nq, Nk, D, causal):
    return program.Config(batch=[B], hq=Hq, hkv=Hkv, nq=Nq, nk=Nk, d=D, dv=D,
                          dtype="bf16", causal=causal,
                          causal_offset=0 if causal else None, scale=None,
                          lse=True)


def precompile():
    for dyn in DYNAMIC:
        os.environ["FLASH_MLIR_DYNAMIC"] = dyn
        for c in CASES:
            cfg = config(*c[:7])
            cuda.compile_kernel(cuda.kernel_class(cfg))


def make(shape, layout, gen):
    import torch
    B, H, N, D = shape
    if layout == "offset":
        flat = torch.randn(B * H * N * D + 1, generator=gen, device="cuda")
        return flat.to(torch.bfloat16)[1:].view(B, H, N, D)
    if layout == "strided":
        return torch.randn(B, N, H, D, generator=gen, device="cuda").to(
            torch.bfloat16).transpose(1, 2)
    return torch.randn(B, H, N, D, generator=gen, device="cuda").to(
        torch.bfloat16)


def check():
    import torch
    import torch.nn.functional as F

    gen = torch.Generator(device="cuda").manual_seed(0)
    failed = 0
    for dyn in DYNAMIC:
        os.environ["FLASH_MLIR_DYNAMIC"] = dyn
        for B, Hq, Hkv, Nq, Nk, D, causal, layout in CASES:
            q = make((B, Hq, Nq, D), layout, gen)
            k = make((B, Hkv, Nk, D), layout, gen)
            v = make((B, Hkv, Nk, D), layout, gen)
            g = Hq // Hkv
            kr = k.double().repeat_interleave(g, dim=1)
            vr = v.double().repeat_interleave(g, dim=1)
            s = q.double() @ kr.transpose(-1, -2) / D ** 0.5
            if causal:
                i = torch.arange(Nq, device="cuda")[:, None]
                j = torch.arange(Nk, device="cuda")[None, :]
                s = s.masked_fill(j > i, float("-inf"))
            ref = torch.softmax(s, -1).nan_to_num() @ vr
            ours = cuda.attention(q, k, v, causal=causal)
            # (The peer on an aligned copy: cuDNN's SDPA reads q with
            # 16-byte loads, a misaligned address on the offset views.)
            peer = F.scaled_dot_product_attention(
                q.clone(), kr.to(q.dtype), vr.to(q.dtype),
                attn_mask=None if not causal else (
                    torch.arange(Nk, device="cuda")[None, :] <=
                    torch.arange(Nq, device="cuda")[:, None]))
            err = (ours.double() - ref).abs().max().item()
            perr = (peer.double() - ref).abs().max().item()
            ok = err <= 2 * perr + 1e-3
            failed += not ok
            print(f"dynamic={dyn} B={B} Hq={Hq} Hkv={Hkv} Nq={Nq} Nk={Nk} "
                  f"D={D} causal={causal} {layout}: err {err:.2e} "
                  f"(SDPA {perr:.2e}) {'ok' if ok else 'FAILED'}")
    print("check_forward:", "all ok" if not failed else f"{failed} FAILED")
    return failed


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--precompile", action="store_true")
    a = ap.parse_args()
    if a.precompile:
        precompile()
    else:
        sys.exit(1 if check() else 0)
