#!/usr/bin/env python3
"""Before / after in one process: bench.py's static-shape rows (bf16,
B*N = 16k tokens, H*d = 2048, the forward at d in {64, 128, 256} and the
backward at d in {64, 128}, N in {1k, 4k, 16k}, causal and not) through this
tree's flash_mlir.cuda and through another tree's (its python/ directory,
loaded as a second package, and its own kernel cache), with cuDNN SDPA, in
rounds that interleave the three (alternately forward and reverse order);
the median round of each and its spread (max / min - 1). Sequential runs of
bench.py from two trees differ by the GPU's state between them (cuDNN itself
moved 16 % between two such runs on the H200); interleaving cancels that.

  # here: the other tree's kernels with its own compiler, then ours
  (cd OTHER && FLASH_OPT=OTHER/build/bin/flash-opt \\
     FLASH_MLIR_CACHE=$PWD/gpu_x/other python3 bench/gpu/bench.py --precompile)
  FLASH_MLIR_CACHE=gpu_x/cache python3 bench/gpu/bench.py --precompile
  cp -r OTHER/python gpu_x/other_python
  # on the GPU machine
  python3 bench/gpu/bench_trees.py --other gpu_x/other_python \\
      --other-cache gpu_x/other --cache gpu_x/cache [--rounds 5] [--json F]
      [--passes fwd]

Each side's output is checked against an fp32 reference (forward) and
against the other side (backward: dq, dk, dv) on the same inputs.
"""

import argparse
import importlib
import importlib.util
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))
os.environ.setdefault("FLASH_MLIR_DYNAMIC", "0")

from flash_mlir import cuda  # noqa: E402
from timing import timeit  # noqa: E402
from bench import BWD_DIMS, configs, problem, shape  # noqa: E402


def load_other(pydir):
    """The other tree's flash_mlir package as `flash_mlir_other`; its cuda
    module."""
    root = os.path.join(os.path.abspath(pydir), "flash_mlir")
    spec = importlib.util.spec_from_file_location(
        "flash_mlir_other", os.path.join(root, "__init__.py"),
        submodule_search_locations=[root])
    mod = importlib.util.module_from_spec(spec)
    sys.modules["flash_mlir_other"] = mod
    spec.loader.exec_module(mod)
    return importlib.import_module("flash_mlir_other.cuda")


class Cache:
    """Sets FLASH_MLIR_CACHE for the calls of one side (each front reads it
    when it first loads a kernel)."""

    def __init__(self, path):
        self.path = os.path.abspath(path)

    def __enter__(self):
        self.old = os.environ.get("FLASH_MLIR_CACHE")
        os.environ["FLASH_MLIR_CACHE"] = self.path

    def __exit__(self, *exc):
        if self.old is None:
            os.environ.pop("FLASH_MLIR_CACHE", None)
        else:
            os.environ["FLASH_MLIR_CACHE"] = self.old


def rounds(fns, n):
    """Median seconds and spread of each of `fns` (name -> callable) over n
    rounds, interleaved, alternately forward and reverse."""
    names = list(fns)
    ts = {k: [] for k in names}
    for r in range(n):
        for k in (names if r % 2 == 0 else names[::-1]):
            ts[k].append(fns[k]())
    return ({k: statistics.median(v) for k, v in ts.items()},
            {k: max(v) / min(v) - 1 for k, v in ts.items()})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--other", required=True,
                    help="the other tree's python/ directory")
    ap.add_argument("--other-cache", required=True)
    ap.add_argument("--cache", default=os.environ.get("FLASH_MLIR_CACHE"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json")
    ap.add_argument("--passes", default="fwd,bwd",
                    help="which passes to time (fwd, bwd or both)")
    a = ap.parse_args()
    import torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    import torch.nn.functional as F

    other = load_other(a.other)
    sides = {"before": (other, Cache(a.other_cache)),
             "after": (cuda, Cache(a.cache))}
    results = []
    print("| pass | d | N | causal | before TFLOP/s | after TFLOP/s | "
          "after / before | cuDNN | before / cuDNN | after / cuDNN | spread "
          "(before, after, cuDNN) | err before | err after |")
    print("|" + "---|" * 13, flush=True)
    for pass_ in a.passes.split(","):
        for d, n, causal in configs():
            if pass_ == "bwd" and d not in BWD_DIMS:
                continue
            q, k, v, ref, flops = problem(d, n, causal)
            fns, err = {}, {}
            if pass_ == "fwd":
                for name, (mod, cache) in sides.items():
                    with cache:
                        o, _ = mod.forward(q, k, v, causal=causal)
                    err[name] = (o.float() - ref).abs().max().item()

                    def call(mod=mod):
                        return timeit(lambda: mod.forward(q, k, v,
                                                          causal=causal))
                    fns[name] = call

                def sdpa():
                    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                        return timeit(lambda: F.scaled_dot_product_attention(
                            q, k, v, is_causal=causal))
                fns["cudnn"] = sdpa
            else:
                flops *= 2.5
                torch.manual_seed(1)
                do = torch.randn_like(q)
                grads = {}
                for name, (mod, cache) in sides.items():
                    with cache:
                        o, lse = mod.forward(q, k, v, causal=causal)
                        grads[name] = mod.backward(q, k, v, o, lse, do, causal)

                    def call(mod=mod, o=o, lse=lse):
                        return timeit(lambda: mod.backward(q, k, v, o, lse, do,
                                                           causal), iters=5)
                    fns[name] = call
                diff = max((x.float() - y.float()).abs().max().item()
                           for x, y in zip(grads["before"], grads["after"]))
                err = {"before": 0.0, "after": diff}
                qg, kg, vg = (t.detach().requires_grad_(True) for t in (q, k, v))
                with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                    out = F.scaled_dot_product_attention(qg, kg, vg,
                                                         is_causal=causal)

                def sdpa():
                    return timeit(lambda: torch.autograd.grad(
                        out, (qg, kg, vg), do, retain_graph=True), iters=5)
                fns["cudnn"] = sdpa
            t, spread = rounds(fns, a.rounds)
            tf = {key: flops / s / 1e12 for key, s in t.items()}
            row = dict(pass_=pass_, d=d, n=n, causal=causal, tflops=tf,
                       spread=spread, err=err)
            results.append(row)
            print(f"| {pass_} | {d} | {n} | {'yes' if causal else 'no'} | "
                  f"{tf['before']:.1f} | {tf['after']:.1f} | "
                  f"{tf['after'] / tf['before']:.3f} | {tf['cudnn']:.1f} | "
                  f"{tf['before'] / tf['cudnn']:.3f} | "
                  f"{tf['after'] / tf['cudnn']:.3f} | "
                  f"{spread['before']:.2f}, {spread['after']:.2f}, "
                  f"{spread['cudnn']:.2f} | {err['before']:.2e} | "
                  f"{err['after']:.2e} |", flush=True)
            if a.json:
                with open(a.json, "w") as f:
                    json.dump(results, f, indent=1)
    worst = min(r["tflops"]["after"] / r["tflops"]["before"] for r in results)
    print(f"worst after / before: {worst:.3f}")


if __name__ == "__main__":
    main()
