#!/usr/bin/env python3
"""GPU benchmark of the score/mask modifiers on the tensor-core kernels,
forward and backward: a sliding window (causal, 1024 keys) against the
plain causal kernel, tanh soft-capping (c = 50) against the plain kernel,
ALiBi (causal) and a document mask (4 packed documents, causal), each next
to FlexAttention (torch.compile'd flex_attention with the same mask_mod /
score_mod and a block mask) and cuDNN SDPA (plain causal / full) in the
same process, through flash_mlir.cuda.attention (autograd), bf16, B = 1,
H = 16, N = 16384, d = 128 (B*N = 16k tokens, H*d = 2048).

  # here (flash-opt available): compile the kernels into a cache
  FLASH_MLIR_CACHE=gpu_out/cache python3 bench/gpu/bench_mods.py --precompile
  # on the GPU machine (torch, no MLIR)
  FLASH_MLIR_CACHE=gpu_out/cache python3 bench/gpu/bench_mods.py [--cases ..]

Correctness first at N = 1024 (odd-sized documents): each implementation's
max error in o, dq, dk, dv against a float64 reference that applies the
modifier to the full score matrix; ours must be <= 2x FlexAttention's (or
within 2e-3 of it, for errors at the level of bf16 rounding). Times are
medians of CUDA-event timings, of one call each (the host's work in it)
and of ten calls back to back ("stream": the GPU's time wherever the
kernels outlast the host's work, as in a training loop); the backward's is
loss.backward() alone. Issue 15's per-block measures use the stream times.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))
from flash_mlir import cuda, program  # noqa: E402
from timing import stream_time, timeit  # noqa: E402

# Kernels compiled for each shape (the static-shape tables); bench_dynamic.py
# compares them with the per-class kernels of runtime shapes.
os.environ.setdefault("FLASH_MLIR_DYNAMIC", "0")

B, H, D = 1, 16, 128
WINDOW, CAP, DOCS = 1024, 50.0, 4
# name: (causal, window, softcap, alibi, documents)
CASES = {"causal": (True, None, None, False, False),
         "window": (True, (WINDOW - 1, 0), None, False, False),
         "full": (False, None, None, False, False),
         "softcap": (False, None, CAP, False, False),
         "alibi": (True, None, None, True, False),
         "document": (True, None, None, False, True)}
SIZES = (1024, 16384)


def config(n, causal, window, softcap, alibi, docs):
    """The program.Config flash_mlir.cuda builds for these arguments."""
    cfg = program.Config(batch=[B], hq=H, hkv=H, nq=n, nk=n, d=D, dv=D,
                         dtype="bf16", causal=causal,
                         causal_offset=0 if causal else None, scale=None,
                         lse=True)
    if window is not None:
        cfg.window = tuple(window)
    if softcap:
        cfg.softcap = float(softcap)
    cfg.alibi = alibi
    if docs:
        cfg.segments, cfg.seg_batched = 1, False
    return cfg


def precompile(cases):
    """The kernels bench() runs, configured as flash_mlir.cuda configures
    them: a window's and ALiBi's diagonal is a run-time argument
    (cfg.mod_offset, which flash_mlir.cuda sets for them)."""
    for n in SIZES:
        for name in cases:
            cfg = config(n, *CASES[name])
            if cfg.window or cfg.alibi:
                cfg.mod_offset = True
            for grad in (False, True):
                cuda.compile_kernel(cuda.kernel_class(cfg, grad), grad=grad)


def bench(cases, kernels=False):
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from torch.nn.attention.flex_attention import (create_block_mask,
                                                   flex_attention)
    import torch.nn.functional as F

    # The same compiled backward runs several times (retain_graph).
    import torch._dynamo.config
    import torch._functorch.config
    torch._functorch.config.donated_buffer = False
    # One compile per (case, size): more than dynamo's default 8.
    torch._dynamo.config.recompile_limit = 64
    flex = torch.compile(flex_attention)
    slopes = torch.tensor([2.0 ** (-8.0 * (h + 1) / H) for h in range(H)],
                          device="cuda")

    def segments(n):
        # DOCS documents of unequal lengths.
        cuts = [0] + [n * (2 * t + 1) // (2 * DOCS + 1) for t in range(1, DOCS)]
        seg = torch.zeros(n, dtype=torch.int32, device="cuda")
        for c in cuts[1:]:
            seg[c:] += 1
        return seg

    def flex_mods(n, causal, window, softcap, alibi, docs):
        seg = segments(n) if docs else None
        if window is not None:
            mm = lambda b, h, q, kv: (q >= kv) & (q - kv < WINDOW)
        elif docs:
            mm = lambda b, h, q, kv: (q >= kv) & (seg[q] == seg[kv])
        elif causal:
            mm = lambda b, h, q, kv: q >= kv
        else:
            mm = None
        if softcap:
            sm = lambda s, b, h, q, kv: softcap * torch.tanh(s / softcap)
        elif alibi:
            sm = lambda s, b, h, q, kv: s - slopes[h] * (q - kv).abs()
        else:
            sm = None
        return mm, sm

    def reference(q, k, v, causal, window, softcap, alibi, docs):
        q, k, v = (t.double() for t in (q, k, v))
        s = (q @ k.transpose(-1, -2)) / D ** 0.5
        n = q.shape[2]
        i = torch.arange(n, device=q.device)[:, None]
        j = torch.arange(n, device=q.device)[None, :]
        if softcap:
            s = softcap * torch.tanh(s / softcap)
        if alibi:
            s = s - slopes.double()[:, None, None] * (i - j).abs()
        keep = torch.ones(n, n, dtype=torch.bool, device=q.device)
        if causal:
            keep &= j <= i
        if window is not None:
            keep &= i - j < WINDOW
        if docs:
            seg = segments(n)
            keep &= seg[:, None] == seg[None, :]
        s = s.masked_fill(~keep, float("-inf"))
        return torch.softmax(s, -1) @ v

    torch.manual_seed(0)
    print("| case | N | pass | ours (ms) | FlexAttention (ms) | ours / flex | "
          "stream: ours (ms) | flex (ms) | ours / flex | "
          "cuDNN (ms) | err ours (o, dq, dk, dv) | err flex |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    times = {}
    failed = False
    for n in SIZES:
        q, k, v = (torch.randn(B, H, n, D, device="cuda", dtype=torch.bfloat16,
                               requires_grad=True) for _ in range(3))
        do = torch.randn(B, H, n, D, device="cuda", dtype=torch.bfloat16)
        for name in cases:
            # A fresh FlexAttention compile per case (dynamo's recompiles
            # of flex_attention with new closures fail on torch 2.11).
            torch._dynamo.reset()
            causal, window, softcap, alibi, docs = CASES[name]
            kw = dict(causal=causal, window=window, softcap=softcap)
            if alibi:
                kw["alibi_slopes"] = slopes
            if docs:
                kw["segment_ids"] = segments(n)
            ours = lambda: cuda.attention(q, k, v, **kw)
            mm, sm = flex_mods(n, causal, window, softcap, alibi, docs)
            bm = (create_block_mask(mm, B=None, H=None, Q_LEN=n, KV_LEN=n)
                  if mm else None)
            fl = lambda: flex(q, k, v, score_mod=sm, block_mask=bm)
            errs = {}
            if n == SIZES[0]:
                ref = reference(q, k, v, causal, window, softcap, alibi, docs)
                gref = torch.autograd.grad(ref, (q, k, v), do.double())
                for who, fn in (("ours", ours), ("flex", fl)):
                    o = fn()
                    g = torch.autograd.grad(o, (q, k, v), do)
                    errs[who] = [(o.double() - ref).abs().max().item()] + [
                        (a.double() - b).abs().max().item()
                        for a, b in zip(g, gref)]
            row = {}
            # (The stream times, which the per-block measures use, a median
            # of 15 runs of 10 calls: with 5, two runs of the same window
            # kernels differed by 5%, session 36.)
            for who, fn in (("ours", ours), ("flex", fl)):
                fwd = lambda: fn().detach()
                row[who + "_fwd"] = timeit(fwd)
                row[who + "_fwd_s"] = stream_time(fwd, iters=15)
                o = fn()
                bwd = lambda: torch.autograd.grad(o, (q, k, v), do,
                                                  retain_graph=True)
                row[who + "_bwd"] = timeit(bwd)
                row[who + "_bwd_s"] = stream_time(bwd, iters=15)
            tc = (float("nan"), float("nan"))
            if window is None and not (softcap or alibi or docs):
                with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                    sd = lambda: F.scaled_dot_product_attention(
                        q, k, v, is_causal=causal)
                    o = sd()
                    tc = (timeit(lambda: sd().detach()),
                          timeit(lambda: torch.autograd.grad(
                              o, (q, k, v), do, retain_graph=True)))
            times[(name, n)] = row
            if kernels and n == SIZES[-1]:
                kernel_times(name, n, ours, (q, k, v), do)
            ok = "-"
            if errs:
                good = all(a <= 2 * b + 2e-3
                           for a, b in zip(errs["ours"], errs["flex"]))
                ok = "yes" if good else "FAIL"
                failed |= not good
            fmt = lambda e: ", ".join(f"{x:.1e}" for x in e) if e else "-"
            for d, dl in (("fwd", "forward"), ("bwd", "backward")):
                t, f = row["ours_" + d], row["flex_" + d]
                ts, fs = row["ours_" + d + "_s"], row["flex_" + d + "_s"]
                c = tc[0 if d == "fwd" else 1]
                print(f"| {name} {dl} | {n} | {ok} | {t * 1e3:.3f} | "
                      f"{f * 1e3:.3f} | {t / f:.2f} | {ts * 1e3:.3f} | "
                      f"{fs * 1e3:.3f} | {ts / fs:.2f} | {c * 1e3:.3f} | "
                      f"{fmt(errs.get('ours')) if d == 'fwd' else ''} | "
                      f"{fmt(errs.get('flex')) if d == 'fwd' else ''} |",
                      flush=True)
    n = SIZES[-1]
    if ("window", n) in times and ("causal", n) in times:
        w, c = times[("window", n)], times[("causal", n)]
        visited = (n * n / 2) / (n * WINDOW - WINDOW * WINDOW / 2)
        # Blocks of 128 queries x 128 keys (the d = 128 kernels' forward
        # tiles) that each visits: issue 15's measure.
        t = 128
        tiles = {"causal": sum(qb + 1 for qb in range(n // t)),
                 "window": sum(qb - max(0, qb * t - (WINDOW - 1)) // t + 1
                               for qb in range(n // t))}
        blocks = tiles["causal"] / tiles["window"]
        for d in ("fwd", "bwd", "fwd_s", "bwd_s"):
            print(f"window vs causal {d} at N = {n}: "
                  f"{c['ours_' + d] / w['ours_' + d]:.2f}x faster; "
                  f"visited-element ratio {visited:.2f}x; time per visited "
                  f"element {w['ours_' + d] * visited / c['ours_' + d]:.2f}x "
                  f"causal's; visited 128x128 blocks {blocks:.2f}x, time per "
                  f"block {w['ours_' + d] * blocks / c['ours_' + d]:.2f}x")
    if ("softcap", n) in times and ("full", n) in times:
        for d in ("fwd", "bwd", "fwd_s", "bwd_s"):
            print(f"softcap / full {d} at N = {n}: "
                  f"{times[('softcap', n)]['ours_' + d] / times[('full', n)]['ours_' + d]:.2f}x "
                  f"the time")
    if failed:
        sys.exit("some case is less accurate than FlexAttention")


def kernel_times(name, n, ours, inputs, do):
    """Our kernels' GPU time per call (torch.profiler, 5 forward and
    backward calls): where a call's time goes (a block mask's kernel
    against the attention kernels)."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    calls = 5
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            o = ours()
            torch.autograd.grad(o, inputs, do)
        torch.cuda.synchronize()
    for e in prof.key_averages():
        us = getattr(e, "device_time_total", None)
        if us is None:
            us = e.cuda_time_total
        own = getattr(e, "self_device_time_total",
                      getattr(e, "self_cuda_time_total", 0))
        if us > 0 and own > 0:
            print(f"  kernel {name} N={n} {e.key[:60]}: "
                  f"{us / calls / 1e3:.3f} ms a call ({e.count // calls} "
                  f"a call)", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--precompile", action="store_true")
    ap.add_argument("--cases", default=",".join(CASES),
                    help="comma-separated subset of " + ", ".join(CASES))
    ap.add_argument("--kernels", action="store_true",
                    help="also each of our kernels' time per call at the "
                         "largest N (torch.profiler)")
    a = ap.parse_args()
    cases = [c for c in a.cases.split(",") if c]
    for c in cases:
        if c not in CASES:
            ap.error(f"unknown case {c}")
    precompile(cases) if a.precompile else bench(cases, a.kernels)


if __name__ == "__main__":
    main()
