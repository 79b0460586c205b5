#!/usr/bin/env python3
"""The numerics grid on the GPU (issue 22): flash_mlir.attention on CUDA
tensors, forward and backward (autograd), f32 / f16 / bf16, over the CPU
grid's cases (test/Python/numerics_grid.py: head dims 16..256, lengths
1..1000 with Nq != Nk, causal with offsets and rows that see no key, bool
masks with fully masked rows, GQA 1/2/8, logits up to +-1e4) and the GPU's
own (lengths 4096, decode, additive masks with -inf rows, GQA 8 causal);
then the GPU cases' forward and backward run 3 times each: bitwise equal.

Each result must have no NaN, infinities only where the float64 reference
has them, and an error against that reference within 2x the error of the
same computation done unfused in the inputs' precision (torch, on the GPU)
plus one rounding at the result's scale: FlashAttention's tests'
precision-relative tolerance.

  # here (flash-opt available): compile every case's kernels into a cache
  FLASH_MLIR_CACHE=gpu_grid/cache python3 bench/gpu/numerics_grid.py --precompile
  # on the GPU machine (no compiler there: a missing kernel is a failure)
  FLASH_MLIR_CACHE=gpu_grid/cache python3 bench/gpu/numerics_grid.py
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "test", "Python"))

from numerics_grid import CASES as CPU_CASES  # noqa: E402

# (B, Hq, Hkv, Nq, Nk, d, causal_offset or None, mask, logit scale)
GPU_CASES = [
    (1, 8, 1, 4096, 4096, 128, 0, None, 1.0),      # GQA 8, causal, long
    (2, 4, 2, 4096, 1000, 64, None, "add", 1.0),   # additive, -inf rows
    (8, 32, 8, 1, 4096, 128, None, None, 1.0),     # decode (split-KV)
    (2, 8, 2, 7, 4096, 64, 4089, None, 1.0),       # draft tokens
    (1, 4, 4, 1000, 1000, 256, 0, None, 1.0),
    (1, 2, 2, 65, 64, 16, None, "add", 1e4),
    (1, 4, 1, 64, 4096, 96, -30, "bool", 30.0),    # rows < 30 see none
]
CASES = CPU_CASES + GPU_CASES
DTYPES = ("f32", "f16", "bf16")


class _Spec:
    """What cuda._config reads of a tensor: enough to name a case's kernel
    classes on a machine without a GPU."""

    is_cuda = True

    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype

    def dim(self):
        return len(self.shape)


def precompile():
    import torch

    from flash_mlir import cuda
    tdt = {"f32": torch.float32, "f16": torch.float16,
           "bf16": torch.bfloat16}
    seen = set()
    for dt in DTYPES:
        for b, hq, hkv, nq, nk, d, off, mask, _ in CASES:
            q = _Spec((b, hq, nq, d), tdt[dt])
            k = _Spec((b, hkv, nk, d), tdt[dt])
            m = None if mask is None else _Spec((nq, nk) if mask == "bool"
                                                else (b, hq, nq, nk),
                                                torch.float32)
            cfg = cuda._config(q, k, k, off is not None, None, m, off)
            for grad in (False, True):
                cls = cuda.kernel_class(cfg, grad)
                if (repr(cls), grad) not in seen:
                    seen.add((repr(cls), grad))
                    cuda.compile_kernel(cls, grad=grad)
    print(f"kernel cache ready ({len(seen)} kernels)")


def reference(q, k, v, do, scale, keep, mask_add, dtype, rounding=None):
    """o, lse, dq, dk, dv of softmax(scale q k^T + mask_add, keys where
    keep) v, computed unfused with every tensor in `dtype` (torch); with
    `rounding`, in `dtype` but P, O and dS rounded to `rounding` (what a
    low-precision kernel does with an f32 range)."""
    import torch
    rnd = ((lambda t: t) if rounding is None else
           (lambda t: t.to(rounding).to(dtype)))
    q, k, v, do = (t.to(dtype) for t in (q, k, v, do))
    g = q.shape[1] // k.shape[1]
    kx, vx = (t.repeat_interleave(g, 1) for t in (k, v))
    s = scale * (q @ kx.transpose(-1, -2))
    if mask_add is not None:
        s = s + mask_add.to(dtype)
    s = s.masked_fill(~keep, float("-inf"))
    mx = s.amax(-1, keepdim=True)
    mx = torch.where(torch.isfinite(mx), mx, torch.zeros_like(mx))
    e = torch.exp(s - mx)
    lsum = e.sum(-1, keepdim=True)
    seen = lsum > 0
    p = torch.where(seen, e / torch.where(seen, lsum, torch.ones_like(lsum)),
                    torch.zeros_like(e))
    p = rnd(p)
    # O is the program's output, in the type (what D = rowsum(dO o) of the
    # backward sees in any program that stores it).
    o = rnd(p @ vx)
    lse = torch.where(seen[..., 0], torch.log(torch.where(
        seen, lsum, torch.ones_like(lsum)))[..., 0] + mx[..., 0],
        torch.full_like(mx[..., 0], float("-inf")))
    dvx = p.transpose(-1, -2) @ do
    dp = do @ vx.transpose(-1, -2)
    ds = rnd(p * (dp - (do * o).sum(-1, keepdim=True)))
    dq = scale * (ds @ kx)
    dkx = scale * (ds.transpose(-1, -2) @ q)

    def fold(t):
        return t.reshape(t.shape[0], -1, g, *t.shape[2:]).sum(2)
    return o, lse, dq, fold(dkx), fold(dvx)


def err(a, b):
    import torch
    a, b = a.double(), b.double()
    fin = torch.isfinite(b)
    if not fin.any():
        return 0.0
    return float((a[fin] - b[fin]).abs().max())


def peers(q, k, v, do, keep, madd, exact):
    """The errors (o dq dk dv) of torch SDPA's cuDNN, memory-efficient and
    flash backends on these inputs, where each takes the case."""
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    g = q.shape[1] // k.shape[1]
    kx, vx = (t.repeat_interleave(g, 1) for t in (k, v))
    mask = keep if madd is None else (
        madd.masked_fill(~keep, float("-inf")).to(q.dtype))
    out = []
    for name, be in (("cuDNN", SDPBackend.CUDNN_ATTENTION),
                     ("mem-eff", SDPBackend.EFFICIENT_ATTENTION),
                     ("FA2", SDPBackend.FLASH_ATTENTION)):
        try:
            qg, kg, vg = (t.clone().requires_grad_() for t in (q, kx, vx))
            with sdpa_kernel(be):
                o = F.scaled_dot_product_attention(
                    qg, kg, vg,
                    attn_mask=None if bool(keep.all()) and madd is None
                    else mask)
            o.backward(do)

            def fold(t):
                return t.reshape(t.shape[0], -1, g, *t.shape[2:]).sum(2)
            es = [err(x, r) for x, r in zip(
                (o, qg.grad, fold(kg.grad), fold(vg.grad)),
                (exact[0], exact[2], exact[3], exact[4]))]
            out.append(f"{name} " + "/".join(f"{e:.1e}" for e in es))
        except RuntimeError:
            out.append(f"{name} n/a")
    return "[peers o/dq/dk/dv: " + "; ".join(out) + "]"


def run():
    import torch

    import flash_mlir as fm
    tdt = {"f32": torch.float32, "f16": torch.float16,
           "bf16": torch.bfloat16}
    bad = total = 0
    for dt in DTYPES:
        for b, hq, hkv, nq, nk, d, off, mask, amp in CASES:
            total += 1
            g = torch.Generator(device="cuda").manual_seed(11)

            def randn(*shape):
                return torch.randn(*shape, generator=g, device="cuda",
                                   dtype=torch.float64)
            # Inputs rounded to the case's precision first: the reference
            # and the unfused computation see the same numbers.
            q = (randn(b, hq, nq, d) * amp ** 0.5).to(tdt[dt])
            k = (randn(b, hkv, nk, d) * amp ** 0.5).to(tdt[dt])
            v = randn(b, hkv, nk, d).to(tdt[dt])
            do = randn(b, hq, nq, d).to(tdt[dt])
            keep = torch.ones(nq, nk, dtype=torch.bool, device="cuda")
            if off is not None:
                keep &= (torch.arange(nk, device="cuda")[None, :] <=
                         torch.arange(nq, device="cuda")[:, None] + off)
            m, madd = None, None
            if mask == "bool":
                m = torch.rand(nq, nk, generator=g, device="cuda",
                               dtype=torch.float64) > 0.4
                m[::5] = False  # fully masked rows
                keep &= m
            elif mask == "add":
                madd = randn(b, hq, nq, nk).float()
                madd[:, :, ::7] = float("-inf")  # rows that see no key
                m = madd
            scale = d ** -0.5
            msgs, ok = [], True
            try:
                qg, kg, vg = (t.clone().requires_grad_() for t in (q, k, v))
                o, lse = fm.attention(qg, kg, vg, causal=off is not None,
                                      causal_offset=off, mask=m,
                                      return_lse=True)
                o.backward(do)
                ours = (o, lse, qg.grad, kg.grad, vg.grad)
            except Exception as ex:  # a missing kernel, a refusal: a FAIL
                ours, ok = None, False
                msgs.append(f"ERROR {type(ex).__name__}: "
                            f"{str(ex).splitlines()[0][:160]}")
            if ours is not None:
                madd64 = None if madd is None else madd.double()
                exact = reference(q, k, v, do, scale, keep, madd64,
                                  torch.float64)
                unfused = reference(q, k, v, do, scale, keep, madd,
                                    tdt[dt])
                if not all(bool((torch.isfinite(u) | ~torch.isfinite(r))
                                .all()) for u, r in zip(unfused, exact)):
                    # The unfused computation overflows the type (f16
                    # scores of 1e4): the yardstick is the same computation
                    # with an f32 range, P, O and dS rounded to the type.
                    unfused = reference(q, k, v, do, scale, keep, madd,
                                        torch.float32, rounding=tdt[dt])
                eps = torch.finfo(tdt[dt]).eps
                eps32 = torch.finfo(torch.float32).eps
                for n, x, r, u in zip(("o", "lse", "dq", "dk", "dv"), ours,
                                      exact, unfused):
                    x = x.double()
                    finite_ok = (not torch.isnan(x).any() and bool(
                        (torch.isfinite(x) == torch.isfinite(r)).all()))
                    scale_r = max(1.0, float(torch.where(
                        torch.isfinite(r), r, torch.zeros_like(r))
                        .abs().max()))
                    # One rounding to the type at the result's scale, and
                    # the f32 rounding of a sum of `terms` in another order.
                    terms = nk if n in ("o", "lse", "dq") else nq * hq // hkv
                    floor = (eps + eps32 * terms ** 0.5) * scale_r
                    e, eu = err(x, r), err(u, r)
                    good = finite_ok and e <= 2 * eu + floor
                    ok &= good
                    msgs.append(f"{n} {e:.1e}/{eu:.1e}"
                                f"{'' if good else ' FAIL'}")
            if not ok and ours is not None and dt != "f32":
                # Where we fail: torch SDPA's fused kernels on the same
                # inputs, against the same reference (is it shared?).
                msgs.append(peers(q, k, v, do, keep, madd, exact))
            bad += not ok
            print(f"{dt} B={b} H={hq}/{hkv} Nq={nq} Nk={nk} d={d} "
                  f"offset={off} mask={mask} amp={amp:g}: " + " ".join(msgs),
                  flush=True)
    print(f"grid: {bad} of {total} cases FAIL" if bad else
          f"grid: {total} cases, all within tolerance")
    return determinism() and bad == 0


def determinism(runs=3):
    """The forward and backward of the GPU cases (split-KV decode, GQA
    causal, additive masks), each dtype, run `runs` times: every result
    bitwise the same (the kernels write each output element from one
    thread in a fixed order; no atomics)."""
    import torch

    import flash_mlir as fm
    tdt = {"f32": torch.float32, "f16": torch.float16,
           "bf16": torch.bfloat16}
    bad = 0
    for dt in DTYPES:
        for b, hq, hkv, nq, nk, d, off, mask, amp in GPU_CASES:
            g = torch.Generator(device="cuda").manual_seed(5)
            q, k, v = (torch.randn(b, h, n, d, generator=g, device="cuda")
                       .to(tdt[dt]) for h, n in ((hq, nq), (hkv, nk),
                                                 (hkv, nk)))
            do = torch.randn(b, hq, nq, d, generator=g, device="cuda"
                             ).to(tdt[dt])
            m = None
            if mask == "bool":
                m = torch.rand(nq, nk, generator=g, device="cuda") > 0.4
            elif mask == "add":
                m = torch.randn(b, hq, nq, nk, generator=g, device="cuda")
            outs = []
            for _ in range(runs):
                qg, kg, vg = (t.clone().requires_grad_() for t in (q, k, v))
                o, lse = fm.attention(qg, kg, vg, causal=off is not None,
                                      causal_offset=off, mask=m,
                                      return_lse=True)
                o.backward(do)
                outs.append([o, lse, qg.grad, kg.grad, vg.grad])
            same = all(torch.equal(a, r) for run in outs[1:]
                       for a, r in zip(run, outs[0]))
            bad += not same
            if not same:
                print(f"determinism {dt} B={b} H={hq}/{hkv} Nq={nq} Nk={nk} "
                      f"d={d}: results differ between runs FAIL")
    n = len(DTYPES) * len(GPU_CASES)
    print(f"determinism: {bad} of {n} cases FAIL" if bad else
          f"determinism: {n} cases, {runs} runs each, bitwise the same")
    return bad == 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--precompile", action="store_true")
    a = ap.parse_args()
    if a.precompile:
        precompile()
    else:
        sys.exit(0 if run() else 1)
