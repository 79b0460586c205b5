#!/usr/bin/env python3
"""make demo: the main job on the CPU.

examples/attention.mlir (attention as a frontend writes it) ->
  flash-opt --flash-raise-attention      (finds it, makes flash.attention)
  flash-opt --flash-to-cpu               (online-softmax loop nest -> LLVM)
  mlir-runner                            (runs the fused and the unfused
                                          program on the same inputs)
and prints the max error of the fused result against the unfused program,
both run times and both peak memories.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "utils"))
import mlirgen  # noqa: E402  (utils/: the references and drivers)

LLVM = "/usr/lib/llvm-22"


def sh(cmd, inp=None):
    p = subprocess.run(cmd, input=inp, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"command failed: {' '.join(cmd)}\n{p.stderr}")
    return p


def func_named(src, old, new):
    body = src[src.index("func.func @" + old):]
    depth, end = 0, 0
    for i, ch in enumerate(body):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                end = i + 1
                break
    return body[:end].replace("@" + old, "@" + new, 1)


def driver(shape, calls, check):
    """@main: pseudo-random q, k, v; each of `calls` timed; optional error."""
    b = mlirgen.Builder()
    t = mlirgen.ttype(shape, "f32")
    args = [mlirgen._fill_random(b, shape, "f32", s, 1.0) for s in (1, 2, 3)]
    outs = {}
    for name in calls:
        b.emit(f"%t0_{name} = func.call @rtclock() : () -> f64")
        b.emit(f"%o_{name} = func.call @{name}({', '.join(args)}) : "
               f"({t}, {t}, {t}) -> {t}")
        b.emit(f"%t1_{name} = func.call @rtclock() : () -> f64")
        b.emit(f"%dt_{name} = arith.subf %t1_{name}, %t0_{name} : f64")
        b.emit(f'vector.print str "{name}_seconds: "')
        b.emit(f"vector.print %dt_{name} : f64")
        outs[name] = f"%o_{name}"
    if check:
        e = mlirgen._max_err(b, outs["fused"], outs["unfused"], shape, "f32",
                             "o")
        b.emit('vector.print str "max_abs_err: "')
        b.emit(f"vector.print {e} : f32")
    b.emit("return")
    return "  func.func @main() {\n" + b.text() + "\n  }"


def run_module(text, build):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.mlir")
        open(path, "w").write(text)
        llvm = sh([os.path.join(build, "bin", "flash-opt"), path,
                   "--flash-to-cpu"]).stdout
        p = sh(["/usr/bin/time", "-f", "maxrss_kb: %M",
                f"{LLVM}/bin/mlir-runner", "-O3", "-e", "main",
                "-entry-point-result=void",
                f"-shared-libs={LLVM}/lib/libmlir_runner_utils.so,"
                f"{LLVM}/lib/libmlir_c_runner_utils.so,"
                f"{LLVM}/lib/libomp.so"], llvm)
        rss = int(re.search(r"maxrss_kb: (\d+)", p.stderr).group(1)) / 1024
        return p.stdout, rss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--input", default=os.path.join(HERE, "attention.mlir"))
    a = ap.parse_args()
    opt = os.path.join(a.build, "bin", "flash-opt")
    src = open(a.input).read()
    shape = [int(x) for x in
             re.search(r"%q: tensor<([0-9x]+)xf32>", src).group(1).split("x")]

    print(f"== 1. {os.path.relpath(a.input, ROOT) if a.input.startswith(ROOT) else a.input}: attention as a frontend "
          f"writes it (q, k, v: {shape})")
    for line in src.splitlines():
        if re.search(r"linalg\.(batch_matmul|softmax|generic)", line):
            print("   ", line.strip())
    print("\n== 2. flash-opt --flash-raise-attention")
    raised_p = sh([opt, a.input, "--flash-raise-attention=report=true"])
    raised = raised_p.stdout
    if "flash.attention" not in raised:
        sys.exit("not raised:\n" + raised_p.stderr)
    for line in raised.splitlines():
        if "flash.attention" in line:
            print("   ", line.strip())
    print("   (the", "x".join(map(str, shape[:-1] + [shape[-2]])),
          "score and probability tensors are gone)")

    print("\n== 3. flash-opt --flash-to-cpu, mlir-runner: fused vs unfused "
          "on the same inputs")
    header = "module {\n  func.func private @rtclock() -> f64\n"
    fused = func_named(raised, "attention", "fused")
    unfused = func_named(src, "attention", "unfused")
    out, _ = run_module(header + fused + "\n" + unfused + "\n" +
                        driver(shape, ["fused", "unfused"], True) + "\n}",
                        a.build)
    err = float(re.search(r"max_abs_err: (\S+)", out).group(1))
    # Peak memory: each program alone in its own process.
    fo, frss = run_module(header + fused + "\n" +
                          driver(shape, ["fused"], False) + "\n}", a.build)
    uo, urss = run_module(header + unfused + "\n" +
                          driver(shape, ["unfused"], False) + "\n}", a.build)
    ft = float(re.search(r"fused_seconds: (\S+)", fo).group(1))
    ut = float(re.search(r"unfused_seconds: (\S+)", uo).group(1))
    flops = 4.0 * shape[0] * shape[1] * shape[1] * shape[2]
    print(f"    max |fused - unfused|      = {err:.3g}")
    print(f"    fused   (flash.attention)  = {ft * 1e3:8.1f} ms "
          f"({flops / ft / 1e9:5.1f} GFLOP/s), peak memory {frss:6.0f} MB")
    print(f"    unfused (linalg, no raise) = {ut * 1e3:8.1f} ms "
          f"({flops / ut / 1e9:5.1f} GFLOP/s), peak memory {urss:6.0f} MB")
    print(f"    speedup {ut / ft:.1f}x; peak memory includes mlir-runner "
          f"itself (~110 MB)")
    if not err <= 2e-5:
        sys.exit("FAILED: the fused result differs from the unfused one")


if __name__ == "__main__":
    main()
