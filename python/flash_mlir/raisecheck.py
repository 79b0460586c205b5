"""Differential check of --flash-raise-attention on a test file.

For every function of an MLIR file (chunks separated by `// -----`) whose
name does not start with `negative_`, runs the function as written (unfused)
and as raised by `flash-opt --flash-raise-attention`, both through
`--flash-to-cpu` on the same pseudo-random inputs, and prints

    <name>: raised=<yes|no> max_abs_err=<e> ok|FAIL

`ok` needs the function to have been raised (it contains flash.attention
afterwards) and every result to agree within the tolerance (2e-5 when
everything is f32, 1e-2 when f16/bf16 values are involved). The script exits non-zero on any FAIL.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from flash_mlir import mlirgen  # noqa: E402

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


def check_one(name, orig, raised, build, tol32, tol16):
    args, results = signature(orig)
    b = mlirgen.Builder()
    vals = []
    for i, t in enumerate(args):
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
    b.emit("return")
    module = "\n".join([
        "module {",
        orig.replace(f"func.func @{name}(", "func.func @orig(", 1),
        raised.replace(f"func.func @{name}(", "func.func @raised(", 1),
        "  func.func @main() {", b.text(), "  }", "}"])
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
                            f"{LLVM}/lib/libmlir_c_runner_utils.so"],
                           input=p.stdout, capture_output=True, text=True)
        if r.returncode != 0:
            return None, r.stderr[-1500:]
    errs = [float(x) for x in re.findall(r"err: (\S+)", r.stdout)]
    # f16/bf16 anywhere (inputs or results): the unfused program rounds its
    # intermediates (e.g. P to f16) where flash.attention keeps f32.
    low = any(tensor_shape(t)[1] in ("f16", "bf16") for t in args + results)
    tols = [tol16 if low else tol32 for _ in results]
    ok = len(errs) == n and all(e <= t for e, t in zip(errs, tols))
    return (max(errs) if errs else float("nan"), ok), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--build", required=True)
    ap.add_argument("--tol", type=float, default=2e-5)
    ap.add_argument("--tol16", type=float, default=1e-2)
    a = ap.parse_args()
    src = open(a.file).read()
    chunks = src.split("// -----")
    failed = False
    opt = os.path.join(a.build, "bin", "flash-opt")
    for chunk in chunks:
        name, orig = func_text(chunk)
        if not name or name.startswith("negative_"):
            continue
        if "?" in orig.split("{\n", 1)[0]:
            print(f"{name}: skipped (dynamic shapes)")
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".mlir") as f:
            f.write(chunk)
            f.flush()
            p = subprocess.run([opt, f.name, "--flash-raise-attention",
                                "--mlir-print-local-scope"],
                               capture_output=True, text=True)
        _, raised = func_text(p.stdout, name)
        was_raised = raised is not None and "flash.attention" in raised
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
