#!/usr/bin/env python3
"""The Python CUDA front on the GPU machine with per-class kernels (dynamic
lengths): masks (bool / float, [Nq, Nk] or full), causal with Nq != Nk,
GQA, forward and backward, at several lengths of one class each, against
torch in float64. `--precompile` (here, with flash-opt) fills the cache.

  FLASH_MLIR_CACHE=gpu_dyn/cache python3 bench/gpu/check_front.py --precompile
  FLASH_MLIR_CACHE=gpu_dyn/cache python3 bench/gpu/check_front.py   # GPU
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))
from flash_mlir import cuda, program  # noqa: E402

CASES = [  # (B, Hq, Hkv, d, dtype, causal, mask: None | "bool2" | "add4")
    (2, 4, 2, 64, "bf16", True, None),
    (2, 4, 2, 64, "f16", False, "bool2"),
    (2, 4, 2, 128, "bf16", True, "add4"),
    (1, 2, 2, 64, "f32", True, "add4"),
]
LENGTHS = [(37, 50), (100, 70), (129, 300)]


def config(b, hq, hkv, d, dt, causal, mask, nq, nk):
    cfg = program.Config(batch=[b], hq=hq, hkv=hkv, nq=nq, nk=nk, d=d, dv=d,
                         dtype=dt, causal=causal,
                         causal_offset=0 if causal else None, lse=True)
    if mask:
        cfg.mask, cfg.mask_bcast = "add", mask.endswith("2")
    return cfg


def precompile():
    for c in CASES:
        cls = cuda.kernel_class(config(*c, *LENGTHS[0]))
        cuda.compile_kernel(cls)
        cuda.compile_kernel(cls, grad=True)
    print("ok")


def run():
    import torch
    dts = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
    bad = 0
    for b, hq, hkv, d, dt, causal, mask in CASES:
        # Each length twice, with new contents: the second call reuses the
        # first one's launch plan and must read this call's tensors.
        for (nq, nk), rep in ((n, r) for n in LENGTHS for r in range(2)):
            torch.manual_seed(nq + 1000 * rep)
            q = torch.randn(b, hq, nq, d, device="cuda", dtype=dts[dt],
                            requires_grad=True)
            k, v = (torch.randn(b, hkv, nk, d, device="cuda", dtype=dts[dt],
                                requires_grad=True) for _ in range(2))
            m = None
            if mask == "bool2":
                m = torch.rand(nq, nk, device="cuda") > 0.3
            elif mask == "add4":
                m = torch.randn(b, hq, nq, nk, device="cuda")
            o = cuda.attention(q, k, v, causal, mask=m)
            do = torch.randn_like(o)
            o.backward(do)
            g = [t.grad for t in (q, k, v)]
            qd, kd, vd = (t.detach().double() for t in (q, k, v))
            kd, vd = (t.repeat_interleave(hq // hkv, 1) for t in (kd, vd))
            s = qd @ kd.transpose(-1, -2) / d ** 0.5
            if causal:
                s = s.masked_fill(torch.ones(nq, nk, device="cuda",
                                             dtype=torch.bool).triu(1),
                                  float("-inf"))
            if mask == "bool2":
                s = s.masked_fill(~m, float("-inf"))
            elif mask == "add4":
                s = s + m.double()
            p = torch.softmax(s, -1).nan_to_num(0.0)
            ro = p @ vd
            dp = do.double() @ vd.transpose(-1, -2)
            ds = p * (dp - (dp * p).sum(-1, keepdim=True)) / d ** 0.5
            rq = ds @ kd
            rk = (ds.transpose(-1, -2) @ qd).unflatten(
                1, (hkv, hq // hkv)).sum(2)
            rv = (p.transpose(-1, -2) @ do.double()).unflatten(
                1, (hkv, hq // hkv)).sum(2)
            tol = {"bf16": 3e-2, "f16": 8e-3, "f32": 1e-4}[dt]
            errs = [(x.double() - r).abs().max().item()
                    for x, r in zip([o] + g, [ro, rq, rk, rv])]
            ok = all(e <= tol * 4 for e in errs)
            bad += not ok
            print(dt, d, "causal" if causal else "full", mask, nq, nk, rep,
                  " ".join(f"{e:.1e}" for e in errs), "ok" if ok else "FAIL",
                  flush=True)
    print("compiles here", cuda.COMPILES, "failures", bad)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--precompile", action="store_true")
    precompile() if p.parse_args().precompile else run()
