#!/usr/bin/env python3
"""CPU benchmark of the fused forward (flash.attention -> --flash-to-cpu)
against the unfused program (full softmax on the N x N scores: the same
linalg input lowered by the plain upstream passes, and by our vectorizing
pipeline), f32, one thread.

For every (N, d) it runs each program in its own mlir-runner process (peak
RSS of that process = peak memory of the program, inputs included), reports
GFLOP/s (4 N^2 d FLOPs per forward), the fraction of one core's FMA peak,
and writes bench/RESULTS.md's CPU table when --write is given.

  /usr/bin/python3 bench/cpu/bench.py [--ns 1024,4096,16384] [--ds 64,128]
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
from flash_mlir import mlirgen  # noqa: E402

LLVM = "/usr/lib/llvm-22"
# One AVX-512 core here: 2 FMA units x 16 lanes x 2 FLOP x ~3.1 GHz.
CORE_PEAK_GFLOPS = 200.0


def _to_f32(x, dtype):
    """An op converting scalar `x` of `dtype` to f32 (a no-op add for f32)."""
    if dtype == "f32":
        return f"arith.addf {x}, %z : f32"
    return f"arith.extf {x} : {dtype} to f32"


def _inputs(b, cfg):
    """q, k, v filled with pseudo-random values, and their tensor types."""
    names = [mlirgen._fill_random(b, shape, cfg.dtype, seed, 1.0)
             for shape, seed in ((cfg.q_shape(), 1), (cfg.k_shape(), 2),
                                 (cfg.v_shape(), 3))]
    types = [mlirgen.ttype(s, cfg.dtype)
             for s in (cfg.q_shape(), cfg.k_shape(), cfg.v_shape())]
    return names, types


def _timed_loop(b, call, results, reps):
    """Calls `call` once to warm up, then `reps` times between rtclock
    calls, and prints the mean seconds per call. `results` are the call's
    (shape, tensor type, element type): one element of each feeds a printed
    checksum, so that no call is dead code."""
    n = len(results)
    b.emit(f"%w:{n} = {call}")
    b.emit("%c0 = arith.constant 0 : index")
    b.emit("%c1 = arith.constant 1 : index")
    b.emit(f"%cr = arith.constant {reps} : index")
    b.emit("%t0 = func.call @rtclock() : () -> f64")
    b.emit("%z = arith.constant 0.0 : f32")
    b.emit("%sum = scf.for %i = %c0 to %cr step %c1 iter_args(%acc = %z) -> (f32) {")
    b.emit(f"  %r:{n} = {call}")
    acc = "%acc"
    for idx, (shape, tt, elt) in enumerate(results):
        b.emit(f"  %cx{idx} = tensor.extract %r#{idx}[{', '.join(['%c0'] * len(shape))}] : {tt}")
        b.emit(f"  %ck{idx} = {_to_f32(f'%cx{idx}', elt)}")
        b.emit(f"  %a{idx} = arith.addf {acc}, %ck{idx} : f32")
        acc = f"%a{idx}"
    b.emit(f"  scf.yield {acc} : f32")
    b.emit("}")
    b.emit("%t1 = func.call @rtclock() : () -> f64")
    b.emit("%dt = arith.subf %t1, %t0 : f64")
    b.emit(f"%n = arith.constant {float(reps)} : f64")
    b.emit("%per = arith.divf %dt, %n : f64")
    b.emit('vector.print str "seconds: "')
    b.emit("vector.print %per : f64")
    b.emit('vector.print str "checksum: "')
    b.emit("vector.print %sum : f32")
    b.emit("return")


def _module(funcs, b):
    return "\n".join(["module {", "  func.func private @rtclock() -> f64",
                      *funcs, "  func.func @main() {", b.text(), "  }", "}"])


def timing_program(cfg, which, reps):
    """@main fills inputs, calls `which` once to warm up, then `reps` times
    between rtclock calls, and prints the mean seconds per call."""
    if which in ("fused_grad", "unfused_grad"):
        return grad_timing_program(cfg, which, reps)
    b = mlirgen.Builder()
    (q, k, v), t = _inputs(b, cfg)
    ot = mlirgen.ttype(cfg.o_shape(), cfg.dtype)
    lt = mlirgen.ttype(cfg.lse_shape(), "f32")
    call = (f"func.call @{which}({q}, {k}, {v}) : ({', '.join(t)}) -> "
            f"({ot}, {lt})")
    _timed_loop(b, call, [(cfg.o_shape(), ot, cfg.dtype),
                          (cfg.lse_shape(), lt, "f32")], reps)
    body = (mlirgen.fused_func(cfg) if which == "fused"
            else mlirgen.reference_func(cfg, name="unfused"))
    return _module([body], b)


def grad_timing_program(cfg, which, reps):
    """Like timing_program for the backward: o and lse come from the fused
    forward (outside the timed region)."""
    b = mlirgen.Builder()
    (q, k, v), t = _inputs(b, cfg)
    do = mlirgen._fill_random(b, cfg.o_shape(), cfg.dtype, 5, 1.0)
    ot = mlirgen.ttype(cfg.o_shape(), cfg.dtype)
    lt = mlirgen.ttype(cfg.lse_shape(), "f32")
    b.emit(f"%f:2 = func.call @fused({q}, {k}, {v}) : ({', '.join(t)}) -> "
           f"({ot}, {lt})")
    gts = mlirgen._grad_arg_types(cfg)
    call = (f"func.call @{which}({q}, {k}, {v}, %f#0, %f#1, {do}) : "
            f"({', '.join(gts)}) -> ({', '.join(t)})")
    shapes = (cfg.q_shape(), cfg.k_shape(), cfg.v_shape())
    _timed_loop(b, call, [(sh, tt, cfg.dtype) for sh, tt in zip(shapes, t)],
                reps)
    grad = (mlirgen.fused_grad_func(cfg) if which == "fused_grad"
            else mlirgen.reference_grad_func(cfg, name="unfused_grad"))
    return _module([mlirgen.fused_func(cfg), grad], b)


def run(cfg, which, reps, pipeline, build):
    src = timing_program(cfg, which, reps)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "p.mlir")
        with open(path, "w") as f:
            f.write(src)
        llvm = subprocess.run(
            [os.path.join(build, "bin", "flash-opt"), path, pipeline],
            check=True, capture_output=True, text=True).stdout
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        p = subprocess.run(
            ["/usr/bin/time", "-f", "maxrss_kb: %M", f"{LLVM}/bin/mlir-runner",
             "-O3", "-e", "main", "-entry-point-result=void",
             f"-shared-libs={LLVM}/lib/libmlir_runner_utils.so,"
             f"{LLVM}/lib/libmlir_c_runner_utils.so"],
            input=llvm, capture_output=True, text=True)
        del before
        if p.returncode != 0:
            raise RuntimeError(p.stderr[-2000:])
        secs = float(re.search(r"seconds: ([0-9.e+-]+)", p.stdout).group(1))
        rss = int(re.search(r"maxrss_kb: (\d+)", p.stderr).group(1))
        return secs, rss / 1024.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--ns", default="1024,4096,16384")
    ap.add_argument("--ds", default="64,128")
    ap.add_argument("--skip-unfused-above", type=int, default=16384,
                    help="skip the unfused programs for N above this")
    ap.add_argument("--grad", action="store_true",
                    help="benchmark the backward (FLOPs = 2.5 x forward)")
    ap.add_argument("--write", action="store_true",
                    help="write the table into bench/RESULTS.md")
    a = ap.parse_args()
    rows = []
    hdr = ("| N | d | fused GFLOP/s | % core peak | fused peak MB | "
           "unfused (upstream, scalar) GFLOP/s | unfused (vectorized) GFLOP/s "
           "| unfused peak MB | fused / upstream |")
    print(hdr)
    print("|" + "---|" * 9)
    for n in [int(x) for x in a.ns.split(",")]:
        for d in [int(x) for x in a.ds.split(",")]:
            cfg = mlirgen.Config(nq=n, nk=n, d=d, lse=True)
            flops = 4.0 * n * n * d * (2.5 if a.grad else 1.0)
            fused = "fused_grad" if a.grad else "fused"
            unfused = "unfused_grad" if a.grad else "unfused"
            reps = max(1, int(2e9 / flops))
            fs, fm = run(cfg, fused, reps, "--flash-to-cpu", a.build)
            ff = flops / fs / 1e9
            if n <= a.skip_unfused_above:
                us, um = run(cfg, unfused, 1,
                             "--flash-to-cpu=vectorize=false", a.build)
                vs, _ = run(cfg, unfused, 1, "--flash-to-cpu", a.build)
                uf, vf = flops / us / 1e9, flops / vs / 1e9
                row = (f"| {n} | {d} | {ff:.1f} | {100 * ff / CORE_PEAK_GFLOPS:.0f}% "
                       f"| {fm:.0f} | {uf:.2f} | {vf:.1f} | {um:.0f} | {ff / uf:.1f}x |")
            else:
                row = (f"| {n} | {d} | {ff:.1f} | {100 * ff / CORE_PEAK_GFLOPS:.0f}% "
                       f"| {fm:.0f} | - | - | - | - |")
            print(row, flush=True)
            rows.append(row)
    if a.write:
        path = os.path.join(ROOT, "bench", "RESULTS.md")
        text = open(path).read() if os.path.exists(path) else "# Results\n"
        table = "\n".join([hdr, "|" + "---|" * 9] + rows)
        tag = "cpu-grad-table" if a.grad else "cpu-table"
        start, end = f"<!-- {tag} -->", f"<!-- /{tag} -->"
        block = f"{start}\n{table}\n{end}"
        if start in text:
            text = re.sub(re.escape(start) + ".*?" + re.escape(end), block,
                          text, flags=re.S)
        else:
            text += "\n" + block + "\n"
        open(path, "w").write(text)


if __name__ == "__main__":
    main()
