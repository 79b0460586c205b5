#!/usr/bin/env python3
"""Hopper forward (issue 17): variants of flash-mlir's wgmma forward against
torch SDPA's cuDNN and FlashAttention-2 backends, in one process, on the same
inputs; bf16, B*N = 16k tokens, H*d = 2048, d in {64, 128} (FLASH_BENCH_DIMS),
N in {1k, 4k, 16k}, causal and not; TFLOP/s = 4 B H N^2 d / t (halved for
causal).

A variant is a flash-opt binary and --flash-to-nvvm options (part of the
kernel cache key): `name=options` entries of FLASH_HOPPER_VARIANTS, `;`
separated; a variant named "base..." is compiled by $FLASH_OPT_BASE (a build
of the branch point), one of a family in FLASH_HOPPER_BINARIES by that
binary, the others by the tree's flash-opt. Options must differ between
variants (the key has no binary in it: e.g. "wgmma=1", a default, for one).

  # here (flash-opt available):
  FLASH_MLIR_CACHE=gpu_hop/cache FLASH_OPT_BASE=... \\
    FLASH_HOPPER_VARIANTS=... python3 bench/gpu/bench_hopper.py --precompile
  # on the GPU machine (torch, no MLIR), the same variables:
  FLASH_MLIR_CACHE=gpu_hop/cache python3 bench/gpu/bench_hopper.py
  # one variant's forward for a profiler (ncu -k regex:flash_attention):
  python3 bench/gpu/bench_hopper.py --profile NAME D N [causal]

Correctness: max abs error against an fp32 reference; ours must be <= SDPA
FlashAttention-2's on every row (and NaN-free). Each variant is timed in rounds,
interleaved with the others, alternately forward and reverse (the median of
the rounds is reported, their spread is the noise).
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))

from flash_mlir import cuda, program  # noqa: E402
from timing import timeit  # noqa: E402
from bench import problem, shape  # noqa: E402

os.environ.setdefault("FLASH_MLIR_DYNAMIC", "0")

DEFAULT_VARIANTS = "base=wgmma=1;new="


def variants():
    out = []
    for item in os.environ.get("FLASH_HOPPER_VARIANTS",
                               DEFAULT_VARIANTS).split(";"):
        name, _, opts = item.partition("=")
        out.append((name.strip(), opts.strip()))
    return out


def configs():
    dims = [int(x) for x in os.environ.get("FLASH_BENCH_DIMS",
                                           "64,128").split(",")]
    ns = [int(x) for x in os.environ.get("FLASH_BENCH_NS",
                                         "1024,4096,16384").split(",")]
    return [(d, n, c) for d in dims for n in ns for c in (False, True)]


def binaries():
    """FLASH_HOPPER_BINARIES: "family:flash-opt,..." (a variant's family is
    its name up to the first '-'), and FLASH_OPT_BASE for "base"."""
    out = {}
    if os.environ.get("FLASH_OPT_BASE"):
        out["base"] = os.environ["FLASH_OPT_BASE"]
    for item in os.environ.get("FLASH_HOPPER_BINARIES", "").split(","):
        if item:
            fam, _, path = item.partition(":")
            out[fam] = path
    return out


def use(name, opts):
    os.environ["FLASH_MLIR_NVVM_OPTIONS"] = opts
    path = binaries().get(name.split("-")[0])
    if path:
        os.environ["FLASH_OPT"] = path
    else:
        os.environ.pop("FLASH_OPT", None)


def precompile():
    for name, opts in variants():
        use(name, opts)
        for d, n, causal in configs():
            b, h = shape(d, n)
            cfg = program.Config(batch=[b], hq=h, hkv=h, nq=n, nk=n, d=d, dv=d,
                                 dtype="bf16", causal=causal,
                                 causal_offset=0 if causal else None, lse=True)
            cuda.compile_kernel(cuda.kernel_class(cfg))
        print(f"compiled {name} [{opts}]", flush=True)


def profile(name, d, n, causal):
    import torch
    opts = dict(variants())[name]
    use(name, opts)
    b, h = shape(d, n)
    q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.bfloat16)
               for _ in range(3))
    for _ in range(2):
        cuda.forward(q, k, v, causal=causal)
    torch.cuda.synchronize()


def bench(json_path=None):
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    import torch.nn.functional as F

    vs = variants()
    results = []
    names = [n for n, _ in vs]
    print("| d | N | causal | " + " | ".join(names) +
          " | cuDNN | FA2 | " + " | ".join(f"{n}/cuDNN" for n in names) +
          " | " + " | ".join(f"err {n}" for n in names) +
          " | err FA2 | err cuDNN |", flush=True)
    print("|" + "---|" * (5 + 3 * len(names) + 2), flush=True)
    for d, n, causal in configs():
        q, k, v, ref, flops = problem(d, n, causal)
        err, times = {}, {}
        sd = {}
        for label, backend in (("FA2", SDPBackend.FLASH_ATTENTION),
                               ("cuDNN", SDPBackend.CUDNN_ATTENTION)):
            with sdpa_kernel(backend):
                out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            err[label] = (out.float() - ref).abs().max().item()
            sd[label] = backend
        for name, opts in vs:
            use(name, opts)
            o, lse = cuda.forward(q, k, v, causal=causal)
            e = (o.float() - ref).abs().max().item()
            if torch.isnan(o).any().item():
                e = float("nan")
            err[name] = e
        del ref
        # Interleaved rounds (FLASH_BENCH_ROUNDS, 2), every other one in
        # reverse order: one kernel's rounds a few seconds apart differed by
        # up to 10 % on the H200, so a variant's number is the median of its
        # rounds and their spread is printed in the JSON.
        rounds = int(os.environ.get("FLASH_BENCH_ROUNDS", "2"))
        for rnd in range(rounds):
            for name, opts in (vs if rnd % 2 == 0 else vs[::-1]):
                use(name, opts)
                t = timeit(lambda: cuda.forward(q, k, v, causal=causal),
                           iters=20)
                times.setdefault(name, []).append(t)
            for label, backend in sd.items():
                with sdpa_kernel(backend):
                    t = timeit(lambda: F.scaled_dot_product_attention(
                        q, k, v, is_causal=causal), iters=20)
                times.setdefault(label, []).append(t)
        def median(ts):
            ts = sorted(ts)
            return (ts[(len(ts) - 1) // 2] + ts[len(ts) // 2]) / 2
        tf = {key: flops / median(ts) / 1e12 for key, ts in times.items()}
        spread = {key: max(ts) / min(ts) - 1 for key, ts in times.items()}
        ok = {name: err[name] <= err["FA2"] for name in names}
        print(f"| {d} | {n} | {causal} | " +
              " | ".join(f"{tf[x]:.1f}" for x in names) +
              f" | {tf['cuDNN']:.1f} | {tf['FA2']:.1f} | " +
              " | ".join(f"{tf[x] / tf['cuDNN']:.3f}" for x in names) + " | " +
              " | ".join(f"{err[x]:.2e}{'' if ok[x] else ' FAIL'}"
                         for x in names) +
              f" | {err['FA2']:.2e} | {err['cuDNN']:.2e} |", flush=True)
        results.append(dict(d=d, n=n, causal=causal, tflops=tf, spread=spread,
                            times=times, err=err, ok=ok))
        if json_path:
            with open(json_path, "w") as f:
                json.dump(results, f, indent=1)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--precompile", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--profile", nargs="+",
                    help="NAME D N [causal]: one variant's forward")
    a = ap.parse_args()
    if a.precompile:
        precompile()
    elif a.profile:
        p = a.profile
        profile(p[0], int(p[1]), int(p[2]), len(p) > 3 and p[3] == "causal")
    else:
        bench(a.json)
