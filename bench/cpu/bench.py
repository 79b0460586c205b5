#!/usr/bin/env python3
"""CPU benchmark: the fused forward and backward (flash.attention /
flash.attention_grad -> --flash-to-cpu) against the peer measured in the
same run, unfused attention in numpy + OpenBLAS (numpy_peer.py), f32, on one
thread and on all cores.

It first measures the machine: the CPU model, the vector width it detects
(AVX-512: 16 f32 lanes, AVX2: 8, else 4) and one core's FMA peak
(fma_peak.c: register-only FMA chains of that width). Then, for every
(N, d): GFLOP/s (4 N^2 d FLOPs per forward, 2.5x that per backward) of the
fused program with threads=1 and threads=0 (all cores; OpenMP), its share
of the core peak, the parallel efficiency, numpy with OPENBLAS_NUM_THREADS=1
and with all cores, the ratios, and the peak RSS of the fused process.

  /usr/bin/python3 bench/cpu/bench.py [--ns 1024,4096,16384] [--ds 64,128]
      [--grad] [--dtype f32|f16|bf16] [--write]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "utils"))
import mlirgen  # noqa: E402  (utils/: the references and drivers)

LLVM = "/usr/lib/llvm-22"


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


def host():
    """(CPU model, f32 lanes of its widest vector unit, cores)."""
    model, flags = "?", set()
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, val = line.partition(":")
            if key.strip() == "model name" and model == "?":
                model = val.strip()
            elif key.strip() == "flags" and not flags:
                flags = set(val.split())
    lanes = 16 if "avx512f" in flags else 8 if "avx2" in flags else 4
    return model, lanes, os.cpu_count()


def fma_peak(lanes):
    """One core's measured f32 FMA GFLOP/s (best of 3 runs)."""
    with tempfile.TemporaryDirectory() as d:
        exe = os.path.join(d, "fma_peak")
        subprocess.run([f"{LLVM}/bin/clang", "-O3", "-march=native",
                        "-ffp-contract=fast", f"-DW={lanes}",
                        os.path.join(HERE, "fma_peak.c"), "-o", exe],
                       check=True)
        return max(float(re.search(r"gflops: ([0-9.]+)", subprocess.run(
            [exe], check=True, capture_output=True, text=True).stdout
        ).group(1)) for _ in range(3))


def run(cfg, which, reps, threads, build, options=""):
    """(seconds per call, peak MB) of `which` through --flash-to-cpu with
    `threads` (and further pipeline `options`), in its own mlir-runner
    process."""
    src = timing_program(cfg, which, reps)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "p.mlir")
        with open(path, "w") as f:
            f.write(src)
        llvm = subprocess.run(
            [os.path.join(build, "bin", "flash-opt"), path,
             f"--flash-to-cpu=threads={threads} {options}".strip()],
            check=True, capture_output=True, text=True).stdout
        libs = [f"{LLVM}/lib/libmlir_runner_utils.so",
                f"{LLVM}/lib/libmlir_c_runner_utils.so",
                f"{LLVM}/lib/libomp.so"]
        p = subprocess.run(
            ["/usr/bin/time", "-f", "maxrss_kb: %M", f"{LLVM}/bin/mlir-runner",
             "-O3", "-e", "main", "-entry-point-result=void",
             "-shared-libs=" + ",".join(libs)],
            input=llvm, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(p.stderr[-2000:])
        secs = float(re.search(r"seconds: ([0-9.e+-]+)", p.stdout).group(1))
        rss = int(re.search(r"maxrss_kb: (\d+)", p.stderr).group(1))
        return secs, rss / 1024.0


def run_numpy(n, d, grad, reps, threads):
    """(seconds per call, BLAS library) of numpy_peer.py on `threads`."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads),
               OMP_NUM_THREADS=str(threads))
    out = subprocess.run(
        ["/usr/bin/python3", os.path.join(HERE, "numpy_peer.py"), str(n),
         str(d), "--reps", str(reps)] + (["--grad"] if grad else []),
        check=True, capture_output=True, text=True, env=env).stdout
    return (float(re.search(r"seconds: ([0-9.e+-]+)", out).group(1)),
            re.search(r"blas: (.*)", out).group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--ns", default="1024,4096,16384")
    ap.add_argument("--ds", default="64,128")
    ap.add_argument("--grad", action="store_true",
                    help="benchmark the backward (FLOPs = 2.5 x forward)")
    ap.add_argument("--runs", type=int, default=3,
                    help="best of this many runs of each measurement")
    ap.add_argument("--options", default="",
                    help="more --flash-to-cpu options, e.g. 'block-q=64'")
    ap.add_argument("--dtype", default="f32", choices=["f32", "f16", "bf16"],
                    help="the fused program's element type (numpy runs f32)")
    ap.add_argument("--write", action="store_true",
                    help="write the table into bench/RESULTS.md")
    a = ap.parse_args()
    model, lanes, cores = host()
    peak = fma_peak(lanes)
    blas_lib = None
    head = (f"CPU: {model}, {lanes} f32 lanes ({32 * lanes} bits), {cores} "
            f"cores; one core's measured FMA peak: {peak:.1f} GFLOP/s; "
            f"{'backward' if a.grad else 'forward'}, fused {a.dtype}, numpy "
            f"f32, GFLOP/s")
    hdr = (f"| N | d | fused 1 thread | % core peak | fused {cores} threads "
           f"| parallel efficiency | numpy 1 thread | numpy {cores} threads "
           "| fused / numpy, 1 thread | fused / numpy, all | fused peak MB |")
    print(head)
    print(hdr)
    print("|" + "---|" * 11)
    rows = []
    for n in [int(x) for x in a.ns.split(",")]:
        for d in [int(x) for x in a.ds.split(",")]:
            cfg = mlirgen.Config(nq=n, nk=n, d=d, lse=True, dtype=a.dtype)
            flops = 4.0 * n * n * d * (2.5 if a.grad else 1.0)
            which = "fused_grad" if a.grad else "fused"
            reps = max(1, int(4e9 / flops))
            # Best of --runs runs of each (this machine's noise is +-10 %).
            def best(f):
                runs = [f() for _ in range(a.runs)]
                return min(r[0] for r in runs), runs[0][1]
            f1, mb = best(lambda: run(cfg, which, reps, 1, a.build,
                                          a.options))
            fn, _ = best(lambda: run(cfg, which, reps * cores, 0,
                                          a.build, a.options))
            n1, blas_lib = best(lambda: run_numpy(n, d, a.grad, reps, 1))
            nn, _ = best(lambda: run_numpy(n, d, a.grad, reps * cores,
                                           cores))
            g = lambda s: flops / s / 1e9  # noqa: E731
            row = (f"| {n} | {d} | {g(f1):.1f} | {100 * g(f1) / peak:.0f}% "
                   f"| {g(fn):.1f} | {100 * f1 / fn / cores:.0f}% "
                   f"| {g(n1):.1f} | {g(nn):.1f} | {n1 / f1:.2f}x "
                   f"| {nn / fn:.2f}x | {mb:.0f} |")
            print(row, flush=True)
            rows.append(row)
    print(f"numpy's BLAS: {blas_lib}")
    if a.write:
        path = os.path.join(ROOT, "bench", "RESULTS.md")
        text = open(path).read() if os.path.exists(path) else "# Results\n"
        table = "\n".join([head + f" (numpy's BLAS: {blas_lib})", "", hdr,
                           "|" + "---|" * 11] + rows)
        tag = ("cpu-grad-table" if a.grad else "cpu-table") + (
            "" if a.dtype == "f32" else "-" + a.dtype)
        start, end = f"<!-- {tag} -->", f"<!-- /{tag} -->"
        block = f"{start}\n{table}\n{end}"
        if start in text:
            text = re.sub(re.escape(start) + ".*?" + re.escape(end),
                          lambda _: block, text, flags=re.S)
        else:
            text += "\n" + block + "\n"
        open(path, "w").write(text)


if __name__ == "__main__":
    main()
