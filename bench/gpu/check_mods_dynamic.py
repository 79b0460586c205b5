#!/usr/bin/env python3
"""The Python CUDA front's window and ALiBi kernels with run-time lengths
(the diagonal passed as a run-time argument, one kernel per class for every
length) on the GPU machine: flash_mlir.attention with autograd at several
(Nq, Nk) of one class each, against torch in float64 with the same
modifiers. `--precompile` (here, with flash-opt) fills the cache; on the
GPU machine a missing kernel is a failure (no compiler there).

  FLASH_MLIR_CACHE=gpu_dyn/cache python3 bench/gpu/check_mods_dynamic.py --precompile
  FLASH_MLIR_CACHE=gpu_dyn/cache python3 bench/gpu/check_mods_dynamic.py   # GPU
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))
from flash_mlir import cuda, program  # noqa: E402

CASES = [  # (B, Hq, Hkv, d, dtype, causal, window, alibi)
    (2, 4, 2, 64, "bf16", True, (40, 0), False),
    (2, 4, 2, 128, "f16", False, (30, 17), True),
    (1, 4, 4, 128, "bf16", True, None, True),
]
LENGTHS = [(37, 50), (100, 70), (129, 300), (300, 129)]
TOL = {"bf16": 3e-2, "f16": 4e-3}


def config(b, hq, hkv, d, dt, causal, window, alibi, nq, nk):
    cfg = program.Config(batch=[b], hq=hq, hkv=hkv, nq=nq, nk=nk, d=d, dv=d,
                         dtype=dt, causal=causal,
                         causal_offset=0 if causal else None, lse=True)
    cfg.window, cfg.alibi, cfg.mod_offset = window, alibi, True
    return cfg


def precompile():
    for c in CASES:
        for nq, nk in LENGTHS:
            for grad in (False, True):
                cls = cuda.kernel_class(config(*c, nq, nk), grad)
                cuda.compile_kernel(cls, grad=grad)
    print("ok")


def reference(q, k, v, causal, window, slopes):
    """float64 attention with the front's semantics: top-left causal, the
    window and ALiBi around the bottom-right diagonal i + Nk - Nq."""
    import torch
    nq, nk = q.shape[-2], k.shape[-2]
    g = q.shape[1] // k.shape[1]
    k, v = (x.repeat_interleave(g, dim=1) for x in (k, v))
    s = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    i = torch.arange(nq, device=q.device)[:, None]
    j = torch.arange(nk, device=q.device)[None, :]
    diag = i + nk - nq
    keep = torch.ones(nq, nk, dtype=torch.bool, device=q.device)
    if causal:
        keep &= j <= i
    if window is not None:
        left, right = window
        if left >= 0:
            keep &= j >= diag - left
        if right >= 0:
            keep &= j <= diag + right
    if slopes is not None:
        s = s - slopes.double()[None, :, None, None] * (diag - j).abs()
    s = s.masked_fill(~keep, float("-inf"))
    p = torch.softmax(s, dim=-1).nan_to_num(0.0)
    return p @ v


def run():
    import torch
    dts = {"bf16": torch.bfloat16, "f16": torch.float16}
    bad = 0
    compiles = cuda.COMPILES
    for b, hq, hkv, d, dt, causal, window, alibi in CASES:
        # Each length twice, with new contents (the second time the slopes
        # as a Python list): the second call of a signature reuses the
        # first one's launch plan and must read this call's tensors.
        for (nq, nk), rep in ((n, r) for n in LENGTHS for r in range(3)):
            torch.manual_seed(nq + nk + 1000 * rep)
            q = torch.randn(b, hq, nq, d, device="cuda", dtype=dts[dt],
                            requires_grad=True)
            k, v = (torch.randn(b, hkv, nk, d, device="cuda", dtype=dts[dt],
                                requires_grad=True) for _ in range(2))
            slopes = (torch.rand(hq, device="cuda") * 0.5 if alibi else None)
            do = torch.randn(b, hq, nq, d, device="cuda", dtype=dts[dt])
            o = cuda.attention(q, k, v, causal=causal, window=window,
                               alibi_slopes=(slopes.tolist() if rep == 2 and
                                             alibi else slopes))
            o.backward(do)
            got = [o] + [x.grad for x in (q, k, v)]
            qd, kd, vd = (x.detach().double().requires_grad_()
                          for x in (q, k, v))
            ro = reference(qd, kd, vd, causal, window, slopes)
            ro.backward(do.double())
            want = [ro, qd.grad, kd.grad, vd.grad]
            errs = [float((g.double() - w).abs().max())
                    for g, w in zip(got, want)]
            scale = max(float(w.abs().max()) for w in want[:1])
            ok = all(e <= TOL[dt] * max(1.0, scale) for e in errs)
            bad += not ok
            print(f"{dt} d={d} causal={causal} window={window} "
                  f"alibi={alibi} Nq={nq} Nk={nk} rep={rep}: o/dq/dk/dv "
                  + " ".join(f"{e:.1e}" for e in errs)
                  + ("" if ok else " FAIL"))
    print(f"compiles on this machine: {cuda.COMPILES - compiles}")
    print("ALL OK" if not bad else f"{bad} FAILED")
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--precompile", action="store_true")
    a = ap.parse_args()
    if a.precompile:
        precompile()
    else:
        sys.exit(1 if run() else 0)


if __name__ == "__main__":
    main()
