"""Differential check of --flash-raise-attention on a test file.

For every function of an MLIR file (chunks separated by `// -----`) whose
name does not start with `negative_`, runs the function as written (unfused)
and as raised by `flash-opt --flash-raise-attention`, both through
`--flash-to-cpu` on the same pseudo-random inputs, and prints

    <name>: raised=<yes|no> max_abs_err=<e> ok|FAIL

`ok` needs the function to have been raised (it contains flash.attention
afterwards) and every result to agree within the tolerance (2e-5 when
everything is f32, 1e-2 when f16/bf16 values are involved). The script exits non-zero on any FAIL.

Functions with dynamic dims (`?` in their argument types) run at concrete
sizes: every `?` of the arguments, in order of appearance (left to right
across the arguments), takes the next size of a `// SIZES: 37, 45` comment
in the function's chunk (the last size repeats when the list is shorter); with
no such comment every `?` is 37. The inputs are generated at the static
shapes and passed through tensor.cast to the dynamic argument types; dynamic
results are cast back to the static shapes that the unfused function gives
them at run time (found by a first run that prints them) once their run-time
sizes are checked to agree between the two versions (else the error is inf).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mlirgen  # noqa: E402

LLVM = "/usr/lib/llvm-22"


def func_text(src, name=None):
    """(name, text) of the first function (or of `name`) in `src`."""
    pat = (r"func\.func @([\w$.]+)\(" if name is None else
           r"func\.func @(" + re.escape(name) + r")\(")
    m = re.search(pat, src)
    if not m:
        return None, None
    start = m.start()
    # The body opens at the first '{' that ends a line after the signature.
    body = src.index("{\n", start)
    depth = 0
    for j in range(body, len(src)):
        if src[j] == "{":
            depth += 1
        elif src[j] == "}":
            depth -= 1
            if depth == 0:
                return m.group(1), src[start:j + 1]
    return None, None


def split_types(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def signature(text):
    m = re.match(r"func\.func @[\w$.]+\((.*?)\)\s*(->\s*(.*?))?\s*(attributes.*)?\{\n",
                 text, re.S)
    args = [a.split(":", 1)[1].strip() for a in split_types(m.group(1))]
    res = m.group(3) or ""
    res = res.strip()
    if res.startswith("("):
        res = res[1:-1]
    return args, split_types(res)


def tensor_shape(t):
    m = re.match(r"tensor<(.*)>", t)
    parts = m.group(1).split("x")
    return [int(p) for p in parts[:-1]], parts[-1]


DEFAULT_DYN_SIZE = 37


def tensor_dims(t):
    """(dims, elt) of a ranked tensor type; None for each `?`."""
    m = re.match(r"tensor<(.*)>", t)
    parts = m.group(1).split("x")
    return [None if p == "?" else int(p) for p in parts[:-1]], parts[-1]


def elt_type(t):
    return tensor_dims(t)[1]


def is_dynamic(t):
    return t.startswith("tensor<") and None in tensor_dims(t)[0]


def make_type(dims, elt):
    return "tensor<" + "x".join([str(d) for d in dims] + [elt]) + ">"


def dyn_sizes(chunk, n):
    """Sizes of the n `?` dims of the arguments: a `// SIZES: a, b, ...`
    comment of the chunk (its last size repeating), else 37 for every one."""
    m = re.search(r"//[ \t]*SIZES:[ \t]*([0-9][0-9, \t]*)", chunk)
    given = [int(x) for x in re.findall(r"\d+", m.group(1))] if m else []
    if not given:
        return [DEFAULT_DYN_SIZE] * n
    return [given[i] if i < len(given) else given[-1] for i in range(n)]


def static_arg_types(args, sizes):
    """The argument types with their `?` dims replaced by `sizes` in order."""
    it = iter(sizes)
    out = []
    for t in args:
        dims, elt = tensor_dims(t)
        out.append(make_type([next(it) if d is None else d for d in dims],
                             elt))
    return out


def _compile_and_run(module, build):
    """(stdout, None) of running `module` on the CPU, or (None, error)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.mlir")
        with open(path, "w") as f:
            f.write(module)
        p = subprocess.run([os.path.join(build, "bin", "flash-opt"), path,
                            "--flash-to-cpu"], capture_output=True, text=True)
        if p.returncode != 0:
            return None, p.stderr[-1500:]
        r = subprocess.run([f"{LLVM}/bin/mlir-runner", "-e", "main",
                            "-entry-point-result=void",
                            f"-shared-libs={LLVM}/lib/libmlir_runner_utils.so,"
                            f"{LLVM}/lib/libmlir_c_runner_utils.so,"
                            f"{LLVM}/lib/libomp.so"],
                           input=p.stdout, capture_output=True, text=True)
        if r.returncode != 0:
            return None, r.stderr[-1500:]
    return r.stdout, None


def _emit_dyn_inputs(b, args, sargs):
    """Random inputs at the static shapes `sargs` (same seeds as the static
    path), cast to the (dynamic) argument types."""
    vals = []
    for i, (t, st) in enumerate(zip(args, sargs)):
        shape, elt = tensor_shape(st)
        if elt == "i1":
            v = mlirgen._fill_random(b, shape, "f32", 10 + i, 1.0, kind="bool")
        else:
            v = mlirgen._fill_random(b, shape, elt, 10 + i, 1.0)
        if t != st:
            c = b.fresh("in")
            b.emit(f"{c} = tensor.cast {v} : {st} to {t}")
            v = c
        vals.append(v)
    return vals


def _result_dims(b, res, t):
    """tensor.dim of every `?` dim of `res : t`: [(dim index, value)]."""
    out = []
    for p, d in enumerate(tensor_dims(t)[0]):
        if d is None:
            c = b.fresh("ci")
            b.emit(f"{c} = arith.constant {p} : index")
            v = b.fresh("dim")
            b.emit(f"{v} = tensor.dim {res}, {c} : {t}")
            out.append((p, v))
    return out


def check_one_dynamic(name, orig, raised, build, tol32, tol16, chunk):
    args, results = signature(orig)
    ndyn = sum(tensor_dims(t)[0].count(None) for t in args)
    sargs = static_arg_types(args, dyn_sizes(chunk, ndyn))
    rt = ", ".join(results)
    n = len(results)
    orig_f = orig.replace(f"func.func @{name}(", "func.func @orig(", 1)
    raised_f = raised.replace(f"func.func @{name}(", "func.func @raised(", 1)
    # First run: the run-time sizes of the unfused function's dynamic results.
    sres = list(results)
    if any(is_dynamic(t) for t in results):
        b = mlirgen.Builder()
        vals = _emit_dyn_inputs(b, args, sargs)
        b.emit(f"%ro:{n} = func.call @orig({', '.join(vals)}) : "
               f"({', '.join(args)}) -> ({rt})")
        for i, t in enumerate(results):
            if is_dynamic(t):
                for p, v in _result_dims(b, f"%ro#{i}", t):
                    b.emit(f'vector.print str "dim {i} {p}: "')
                    b.emit(f"vector.print {v} : index")
        b.emit("return")
        out, err = _compile_and_run("\n".join([
            "module {", orig_f, "  func.func @main() {", b.text(), "  }",
            "}"]), build)
        if out is None:
            return None, err
        got = {(int(i), int(p)): int(v) for i, p, v in
               re.findall(r"dim (\d+) (\d+): (\d+)", out)}
        for i, t in enumerate(results):
            dims, elt = tensor_dims(t)
            if None in dims:
                if any((i, p) not in got for p, d in enumerate(dims)
                       if d is None):
                    return None, "could not read the result sizes:\n" + out
                sres[i] = make_type([got[(i, p)] if d is None else d
                                     for p, d in enumerate(dims)], elt)
    # Second run: both versions on the same inputs.
    b = mlirgen.Builder()
    vals = _emit_dyn_inputs(b, args, sargs)
    b.emit(f"%ro:{n} = func.call @orig({', '.join(vals)}) : ({', '.join(args)}) -> ({rt})")
    b.emit(f"%rr:{n} = func.call @raised({', '.join(vals)}) : ({', '.join(args)}) -> ({rt})")
    for i, (t, st) in enumerate(zip(results, sres)):
        shape, elt = tensor_shape(st)
        if t == st:
            e = mlirgen._max_err(b, f"%ro#{i}", f"%rr#{i}", shape, elt, f"r{i}")
        else:
            # Both results must have the sizes found by the first run before
            # they may be cast to the static type.
            sdims = tensor_shape(st)[0]
            ok = None
            for r in (f"%ro#{i}", f"%rr#{i}"):
                for p, v in _result_dims(b, r, t):
                    c = b.fresh("cs")
                    b.emit(f"{c} = arith.constant {sdims[p]} : index")
                    eq = b.fresh("eq")
                    b.emit(f"{eq} = arith.cmpi eq, {v}, {c} : index")
                    if ok is not None:
                        a = b.fresh("ok")
                        b.emit(f"{a} = arith.andi {ok}, {eq} : i1")
                        eq = a
                    ok = eq
            e = b.fresh("e")
            b.emit(f"{e} = scf.if {ok} -> (f32) {{")
            so, sr = b.fresh("so"), b.fresh("sr")
            b.emit(f"{so} = tensor.cast %ro#{i} : {t} to {st}")
            b.emit(f"{sr} = tensor.cast %rr#{i} : {t} to {st}")
            ei = mlirgen._max_err(b, so, sr, shape, elt, f"r{i}")
            b.emit(f"scf.yield {ei} : f32")
            b.emit("} else {")
            inf = b.fresh("inf")
            b.emit(f"{inf} = arith.constant 0x7F800000 : f32")
            b.emit(f"scf.yield {inf} : f32")
            b.emit("}")
        b.emit('vector.print str "err: "')
        b.emit(f"vector.print {e} : f32")
    b.emit("return")
    out, err = _compile_and_run("\n".join([
        "module {", orig_f, raised_f, "  func.func @main() {", b.text(),
        "  }", "}"]), build)
    if out is None:
        return None, err
    errs = [float(x) for x in re.findall(r"err: (\S+)", out)]
    low = any(elt_type(t) in ("f16", "bf16") for t in args + results)
    tols = [tol16 if low else tol32 for _ in results]
    ok = len(errs) == n and all(e <= t for e, t in zip(errs, tols))
    return (max(errs) if errs else float("nan"), ok), None


def check_module(name, orig, raised, tol32, tol16):
    """The module that runs `orig` and `raised` on the same pseudo-random
    inputs from @main and prints each result's max error (`err: `) and
    whether it is within the tolerance (`ok: `), and the tolerances."""
    args, results = signature(orig)
    # f16/bf16 anywhere (inputs or results): the unfused program rounds its
    # intermediates (e.g. P to f16) where flash.attention keeps f32.
    low = any(t.startswith("tensor<") and tensor_shape(t)[1] in ("f16", "bf16")
              for t in args + results)
    tol = tol16 if low else tol32
    b = mlirgen.Builder()
    vals = []
    for i, t in enumerate(args):
        if not t.startswith("tensor<"):
            # A scalar argument (a runtime scale, a cap, a length).
            c = b.fresh("sc")
            lit = "0.375" if t.startswith(("f", "bf")) else "3"
            b.emit(f"{c} = arith.constant {lit} : {t}")
            vals.append(c)
            continue
        shape, elt = tensor_shape(t)
        if elt == "i1":
            vals.append(mlirgen._fill_random(b, shape, "f32", 10 + i, 1.0,
                                             kind="bool"))
        else:
            vals.append(mlirgen._fill_random(b, shape, elt, 10 + i, 1.0))
    rt = ", ".join(results)
    n = len(results)
    b.emit(f"%ro:{n} = func.call @orig({', '.join(vals)}) : ({', '.join(args)}) -> ({rt})")
    b.emit(f"%rr:{n} = func.call @raised({', '.join(vals)}) : ({', '.join(args)}) -> ({rt})")
    for i, t in enumerate(results):
        shape, elt = tensor_shape(t)
        e = mlirgen._max_err(b, f"%ro#{i}", f"%rr#{i}", shape, elt, f"r{i}")
        b.emit('vector.print str "err: "')
        b.emit(f"vector.print {e} : f32")
        t = b.fresh("tol")
        b.emit(f"{t} = arith.constant {mlirgen._fconst(tol)} : f32")
        ok = b.fresh("ok")
        b.emit(f"{ok} = arith.cmpf ole, {e}, {t} : f32")
        b.emit('vector.print str "ok: "')
        b.emit(f"vector.print {ok} : i1")
    b.emit("return")
    return "\n".join([
        "module {",
        orig.replace(f"func.func @{name}(", "func.func @orig(", 1),
        raised.replace(f"func.func @{name}(", "func.func @raised(", 1),
        "  func.func @main() {", b.text(), "  }", "}"]), tol


def check_one(name, orig, raised, build, tol32, tol16):
    _, results = signature(orig)
    module, tol = check_module(name, orig, raised, tol32, tol16)
    out, err = _compile_and_run(module, build)
    if out is None:
        return None, err
    errs = [float(x) for x in re.findall(r"err: (\S+)", out)]
    ok = len(errs) == len(results) and all(e <= tol for e in errs)
    return (max(errs) if errs else float("nan"), ok), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--build", required=True)
    ap.add_argument("--tol", type=float, default=2e-5)
    ap.add_argument("--tol16", type=float, default=1e-2)
    ap.add_argument("--emit", metavar="DIR",
                    help="instead of running them: write the check module "
                    "of every raised function with static shapes to "
                    "DIR/<name>.mlir (bench/gpu/prepare_raised.sh lowers "
                    "them for the GPU)")
    a = ap.parse_args()
    src = open(a.file).read()
    chunks = src.split("// -----")
    failed = False
    opt = os.path.join(a.build, "bin", "flash-opt")
    for chunk in chunks:
        name, orig = func_text(chunk)
        if not name or name.startswith("negative_"):
            continue
        dynamic = "?" in orig.split("{\n", 1)[0]
        with tempfile.NamedTemporaryFile("w", suffix=".mlir") as f:
            f.write(chunk)
            f.flush()
            p = subprocess.run([opt, f.name, "--flash-raise-attention",
                                "--mlir-print-local-scope"],
                               capture_output=True, text=True)
        _, raised = func_text(p.stdout, name)
        was_raised = raised is not None and "flash.attention" in raised
        if a.emit:
            if was_raised and not dynamic:
                os.makedirs(a.emit, exist_ok=True)
                with open(os.path.join(a.emit, name + ".mlir"), "w") as f:
                    f.write(check_module(name, orig, raised, a.tol,
                                         a.tol16)[0])
            continue
        if dynamic:
            res, err = check_one_dynamic(name, orig, raised or orig, a.build,
                                         a.tol, a.tol16, chunk)
        else:
            res, err = check_one(name, orig, raised or orig, a.build, a.tol,
                                 a.tol16)
        if res is None:
            print(f"{name}: FAIL to run\n{err}")
            failed = True
            continue
        e, ok = res
        ok = ok and was_raised
        failed |= not ok
        print(f"{name}: raised={'yes' if was_raised else 'no'} "
              f"max_abs_err={e:.3g} {'ok' if ok else 'FAIL'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
