#!/usr/bin/env python3
"""One call, one answer on every device: `flash_mlir.attention` and
`attention_grad` on the CPU (here) and on CUDA (the GPU machine) for the
same inputs, causal with Nq != Nk both ways (top-left `causal=True`, an
explicit `causal_offset`, bottom-right for decode), GQA, the lse included.
The CPU results are computed here and carried; the GPU machine compares.

  FLASH_MLIR_CACHE=gpu_dec/cache python3 bench/gpu/check_agree.py \
      --prepare gpu_dec/agree                                 # here
  FLASH_MLIR_CACHE=gpu_dec/cache python3 bench/gpu/check_agree.py \
      --check gpu_dec/agree                                   # GPU machine

f32 on both (the CUDA f32 kernels: SIMT, and split-KV for decode).
"""

import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))
import flash_mlir  # noqa: E402

# (B, Hq, Hkv, Nq, Nk, d, causal, causal_offset)
CASES = [
    (2, 4, 2, 37, 100, 64, True, None),   # Nq < Nk, top-left
    (2, 4, 2, 100, 37, 64, True, None),   # Nq > Nk: rows past Nk see all
    (1, 2, 2, 50, 130, 32, True, 80),     # bottom-right by offset
    (2, 4, 1, 70, 70, 48, True, -10),     # rows that see no key
    (2, 8, 2, 1, 300, 64, True, 299),     # decode step (split-KV)
    (1, 8, 2, 3, 700, 128, True, 697),    # 3 draft tokens (split-KV)
    (2, 4, 2, 1, 513, 64, False, None),   # decode, not causal
]


def inputs(i, b, hq, hkv, nq, nk, d):
    r = np.random.RandomState(i)
    q = r.randn(b, hq, nq, d).astype(np.float32)
    k = r.randn(b, hkv, nk, d).astype(np.float32)
    v = r.randn(b, hkv, nk, d).astype(np.float32)
    do = r.randn(b, hq, nq, d).astype(np.float32)
    return q, k, v, do


def prepare(out):
    os.makedirs(out, exist_ok=True)
    for i, (b, hq, hkv, nq, nk, d, causal, off) in enumerate(CASES):
        q, k, v, do = inputs(i, b, hq, hkv, nq, nk, d)
        o, lse = flash_mlir.attention(q, k, v, causal=causal,
                                      causal_offset=off, return_lse=True)
        dq, dk, dv = flash_mlir.attention_grad(q, k, v, o, lse, do,
                                               causal=causal,
                                               causal_offset=off)
        np.savez(os.path.join(out, f"case{i}.npz"), o=o, lse=lse, dq=dq,
                 dk=dk, dv=dv)
        # The CUDA kernels of the case, into the kernel cache.
        from flash_mlir import cuda, program
        cfg = program.Config(batch=[b], hq=hq, hkv=hkv, nq=nq, nk=nk, d=d,
                             dv=d, dtype="f32", causal=causal,
                             causal_offset=(0 if off is None else off)
                             if causal else None, lse=True)
        cuda.compile_kernel(cuda.kernel_class(cfg))
        cuda.compile_kernel(cuda.kernel_class(cfg, grad=True), grad=True)
    print(f"{len(CASES)} CPU results in {out}, their CUDA kernels cached")


def check(out):
    import torch

    bad = 0
    for i, (b, hq, hkv, nq, nk, d, causal, off) in enumerate(CASES):
        ref = np.load(os.path.join(out, f"case{i}.npz"))
        q, k, v, do = (torch.from_numpy(t).cuda()
                       for t in inputs(i, b, hq, hkv, nq, nk, d))
        o, lse = flash_mlir.attention(q, k, v, causal=causal,
                                      causal_offset=off, return_lse=True)
        dq, dk, dv = flash_mlir.attention_grad(q, k, v, o, lse, do,
                                               causal=causal,
                                               causal_offset=off)
        errs = {}
        for name, x in (("o", o), ("lse", lse), ("dq", dq), ("dk", dk),
                        ("dv", dv)):
            r = torch.from_numpy(ref[name]).cuda()
            fin = torch.isfinite(r)
            same_inf = bool((torch.isfinite(x) == fin).all())
            e = (x[fin] - r[fin]).abs().max().item() if fin.any() else 0.0
            errs[name] = e if same_inf else float("inf")
        ok = max(errs.values()) <= 1e-4
        bad += not ok
        kinds = flash_mlir.cuda.kernel_kinds(
            flash_mlir.cuda.kernel_class(flash_mlir.cuda._config(
                q, k, v, causal, None, None, off)))
        print(f"B={b} H={hq}/{hkv} Nq={nq} Nk={nk} d={d} causal={causal} "
              f"offset={off} ({','.join(kinds)}): " +
              " ".join(f"{n} {e:.1e}" for n, e in errs.items()) +
              ("" if ok else "  FAIL"), flush=True)
    print("CPU and CUDA agree" if not bad else f"{bad} cases disagree")
    return bad


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--prepare")
    p.add_argument("--check")
    a = p.parse_args()
    if a.prepare:
        prepare(a.prepare)
    else:
        sys.exit(1 if check(a.check) else 0)
