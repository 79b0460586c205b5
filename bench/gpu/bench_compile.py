#!/usr/bin/env python3
"""Compile time of one configuration (issue 17: <= 1 s with format=bin):
flash_mlir.cuda.compile_kernel with an empty kernel cache, static shapes,
bf16, B*N = 16k tokens, H*d = 2048, for d in {64, 128, 256}, the forward
and the backward, causal and not; wall seconds (median of --repeat runs)
and, from one `flash-opt -mlir-timing` run, the share of
gpu-module-to-binary (LLVM's NVPTX backend and ptxas). Runs here: it needs
flash-opt and ptxas, not a GPU.

  python3 bench/gpu/bench_compile.py [--n 4096] [--repeat 3]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))
from flash_mlir import compiler, cuda, program  # noqa: E402


def config(d, n, causal):
    return program.Config(batch=[16384 // n], hq=2048 // d, hkv=2048 // d,
                          nq=n, nk=n, d=d, dv=d, dtype="bf16", causal=causal,
                          causal_offset=0 if causal else None, scale=None,
                          lse=True)


def binary_seconds(cfg, grad):
    """gpu-module-to-binary's wall seconds in one flash-opt run."""
    func = (program.fused_grad_func(cfg, name="bwd") if grad
            else program.fused_func(cfg, name="fwd"))
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "k.mlir")
        with open(src, "w") as f:
            f.write("module {\n" + func + "\n}\n")
        env = dict(os.environ)
        env["PATH"] = "/usr/local/cuda/bin:" + env.get("PATH", "")
        p = subprocess.run(
            [compiler._flash_opt(), src, "--flash-to-nvvm=chip=sm_90a "
             "features=+ptx80 format=bin", "-mlir-timing",
             "-mlir-timing-display=list", "-o", os.devnull],
            capture_output=True, text=True, env=env)
    m = re.search(r"([0-9.]+) \([ 0-9.]+%\)\s+([0-9.]+) \([ 0-9.]+%\)\s+"
                  r"GpuModuleToBinaryPass", p.stderr)
    return float(m.group(2)) if m else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    os.environ.setdefault("FLASH_MLIR_DYNAMIC", "0")
    print(f"| d | pass | causal | seconds (median of {a.repeat}) | "
          "of which gpu-module-to-binary |")
    print("|---|---|---|---|---|")
    worst = 0.0
    for d in (64, 128, 256):
        for grad in (False, True):
            for causal in (False, True):
                cfg = config(d, a.n, causal)
                times = []
                for _ in range(a.repeat):
                    with tempfile.TemporaryDirectory() as cache:
                        os.environ["FLASH_MLIR_CACHE"] = cache
                        t = time.perf_counter()
                        cuda.compile_kernel(cfg, grad=grad)
                        times.append(time.perf_counter() - t)
                t = statistics.median(times)
                worst = max(worst, t)
                print(f"| {d} | {'bwd' if grad else 'fwd'} | "
                      f"{'yes' if causal else 'no'} | {t:.2f} | "
                      f"{binary_seconds(cfg, grad):.2f} |", flush=True)
    print(f"slowest: {worst:.2f} s")


if __name__ == "__main__":
    main()
