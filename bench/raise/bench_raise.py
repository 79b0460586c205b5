#!/usr/bin/env python3
"""Compile-time benchmark of --flash-raise-attention on one module of 20
attention blocks (the issue's bar: < 0.5 s on such a module).

Two layouts of the module:

  funcs  20 functions taken round-robin from the held-out raise corpora
         (test/Dialect/Flash/Transforms/raise-{layouts,scale,softmax,masks,
         gqa,joint}.mlir; negative_* skipped, each renamed @bNN_<name>), so
         the module mixes layouts, scale and softmax spellings, masks, GQA
         and joint forward + backward graphs.
  chain  one function applying 20 attention blocks in sequence, the output
         of one the query of the next ([B,H,N,D] f32, Q*K^T and P*V as
         linalg.generic contractions, the scale in its own generic,
         linalg.softmax; each block its own K and V arguments).

It times `flash-opt <module> --flash-raise-attention -o /dev/null` and the
baseline `flash-opt <module> -o /dev/null` (parse, verify, print), one
warm-up each and then --reps runs of both, interleaved, on one core (the
process is pinned to one CPU and flash-opt runs with
--mlir-disable-threading). The raise's own cost is median(raise) -
median(baseline); next to it, the median of --mlir-timing's
FlashRaiseAttention line over --reps more runs (the pass alone: without the
verify after it, and without the printing the smaller raised module saves).
One more run prints the raised module and counts its flash.attention /
flash.attention_grad ops.

Exits 1 if the raise's own time is over --limit seconds (0.5), if fewer
than --blocks blocks are raised in the chain layout, or if flash-opt fails.

  /usr/bin/python3 bench/raise/bench_raise.py [--layout funcs|chain|both]
      [--blocks 20] [--reps 5] [--shape 1,8,128,64] [--keep DIR]
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
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS_DIR = os.path.join(ROOT, "test", "Dialect", "Flash", "Transforms")
CORPUS = ["raise-layouts.mlir", "raise-scale.mlir", "raise-softmax.mlir",
          "raise-masks.mlir", "raise-gqa.mlir", "raise-joint.mlir"]
FLASH_OPT = os.path.join(ROOT, "build", "bin", "flash-opt")

FUNC_RE = re.compile(r"^\s*func\.func\s+(?:private\s+)?@([\w$.]+)", re.M)
# An op, in custom or generic form: `= flash.attention ins(` or
# `"flash.attention_grad"(`; not an attribute or type (`#flash.…<`).
OP_RE = re.compile(r'"?\bflash\.(attention_grad|attention)\b"?(?=[\s(])')


# ---------------------------------------------------------------- modules

def _corpus_funcs(path):
    """(name, text) of every positive function of a corpus file: chunks
    split at `// -----`, full-line comments dropped (the CHECK and
    expected-* lines), one func.func per chunk."""
    with open(path) as f:
        chunks = re.split(r"^// -----\s*$", f.read(), flags=re.M)
    out = []
    for chunk in chunks:
        text = "\n".join(l for l in chunk.splitlines()
                         if not l.lstrip().startswith("//")).strip()
        names = FUNC_RE.findall(text)
        if not names:
            continue
        if len(names) != 1:
            raise SystemExit(f"{path}: a chunk with {len(names)} functions "
                             f"({', '.join(names)})")
        if names[0].startswith("negative_"):
            continue
        out.append((names[0], text))
    return out


def funcs_module(blocks):
    """`blocks` corpus functions, round-robin over CORPUS, renamed unique.
    Returns (module text, [(new name, file, original name)])."""
    per_file = [(f, _corpus_funcs(os.path.join(CORPUS_DIR, f)))
                for f in CORPUS]
    picked, rank = [], 0
    while len(picked) < blocks:
        progressed = False
        for fname, funcs in per_file:
            if rank < len(funcs) and len(picked) < blocks:
                picked.append((fname,) + funcs[rank])
                progressed = True
        if not progressed:
            raise SystemExit(f"only {len(picked)} positive functions in the "
                             f"corpus, {blocks} asked for")
        rank += 1
    parts, names = [], []
    for idx, (fname, name, text) in enumerate(picked):
        new = f"b{idx:02d}_{name}"
        parts.append(re.sub(r"@" + re.escape(name) + r"\b", "@" + new, text))
        names.append((new, fname, name))
    return "\n\n".join(parts) + "\n", names


def chain_module(blocks, b, h, n, d):
    """One function, `blocks` attention blocks in sequence ([B,H,N,D], the
    output of block i the query of block i + 1)."""
    qt = f"tensor<{b}x{h}x{n}x{d}xf32>"
    st = f"tensor<{b}x{h}x{n}x{n}xf32>"
    scale = 1.0 / (d ** 0.5)
    args = [f"%q: {qt}"] + [f"%k{i}: {qt}, %v{i}: {qt}" for i in range(blocks)]
    L = [f"func.func @chain_{blocks}_blocks({', '.join(args)}) -> {qt} {{",
         "  %zero = arith.constant 0.0 : f32"]
    q = "%q"
    for i in range(blocks):
        L += [
            f"  // block {i}",
            f"  %es{i} = tensor.empty() : {st}",
            f"  %zs{i} = linalg.fill ins(%zero : f32) outs(%es{i} : {st}) -> {st}",
            f"  %s{i} = linalg.generic {{indexing_maps = ["
            "affine_map<(b, h, i, j, d) -> (b, h, i, d)>, "
            "affine_map<(b, h, i, j, d) -> (b, h, j, d)>, "
            "affine_map<(b, h, i, j, d) -> (b, h, i, j)>], "
            'iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}',
            f"      ins({q}, %k{i} : {qt}, {qt}) outs(%zs{i} : {st}) {{",
            "  ^bb0(%a: f32, %b: f32, %c: f32):",
            "    %m = arith.mulf %a, %b : f32",
            "    %r = arith.addf %c, %m : f32",
            "    linalg.yield %r : f32",
            f"  }} -> {st}",
            f"  %sc{i} = linalg.generic {{indexing_maps = ["
            "affine_map<(b, h, i, j) -> (b, h, i, j)>, "
            "affine_map<(b, h, i, j) -> (b, h, i, j)>], "
            'iterator_types = ["parallel", "parallel", "parallel", "parallel"]}',
            f"      ins(%s{i} : {st}) outs(%es{i} : {st}) {{",
            "  ^bb0(%x: f32, %o: f32):",
            f"    %c = arith.constant {scale!r} : f32",
            "    %y = arith.mulf %x, %c : f32",
            "    linalg.yield %y : f32",
            f"  }} -> {st}",
            f"  %ep{i} = tensor.empty() : {st}",
            f"  %p{i} = linalg.softmax dimension(3) ins(%sc{i} : {st}) "
            f"outs(%ep{i} : {st}) -> {st}",
            f"  %eo{i} = tensor.empty() : {qt}",
            f"  %zo{i} = linalg.fill ins(%zero : f32) outs(%eo{i} : {qt}) -> {qt}",
            f"  %o{i} = linalg.generic {{indexing_maps = ["
            "affine_map<(b, h, i, e, j) -> (b, h, i, j)>, "
            "affine_map<(b, h, i, e, j) -> (b, h, j, e)>, "
            "affine_map<(b, h, i, e, j) -> (b, h, i, e)>], "
            'iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}',
            f"      ins(%p{i}, %v{i} : {st}, {qt}) outs(%zo{i} : {qt}) {{",
            "  ^bb0(%a: f32, %b: f32, %c: f32):",
            "    %m = arith.mulf %a, %b : f32",
            "    %r = arith.addf %c, %m : f32",
            "    linalg.yield %r : f32",
            f"  }} -> {qt}",
        ]
        q = f"%o{i}"
    L += [f"  return {q} : {qt}", "}"]
    return "\n".join(L) + "\n"


# ---------------------------------------------------------------- running

def _wait_for(tool, seconds=300):
    """flash-opt may be relinked under us: wait for it to be back."""
    deadline = time.time() + seconds
    if not os.access(tool, os.X_OK):
        sys.stderr.write(f"waiting up to {seconds} s for {tool}\n")
    while not os.access(tool, os.X_OK):
        if time.time() > deadline:
            raise SystemExit(f"{tool} missing for {seconds} s")
        time.sleep(2)


TIMEOUT = 120.0


def _run(cmd, capture=False):
    """(seconds, stdout, stderr) of one run; exits on failure or after
    TIMEOUT seconds."""
    _wait_for(cmd[0])
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE if capture else
                           subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"FAIL: over {TIMEOUT:g} s, killed: {' '.join(cmd)}")
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        sys.stderr.write(p.stderr[-4000:])
        raise SystemExit(f"failed (rc {p.returncode}): {' '.join(cmd)}")
    return dt, p.stdout, p.stderr


def _count(text):
    ops = OP_RE.findall(text)
    return ops.count("attention"), ops.count("attention_grad")


def _raised_funcs(text):
    """Names of the output's functions holding at least one flash op."""
    starts = [(m.start(), m.group(1)) for m in FUNC_RE.finditer(text)]
    out = []
    for idx, (pos, name) in enumerate(starts):
        end = starts[idx + 1][0] if idx + 1 < len(starts) else len(text)
        if OP_RE.search(text, pos, end):
            out.append(name)
    return out


def bench(layout, args, workdir):
    if layout == "funcs":
        text, names = funcs_module(args.blocks)
    else:
        text = chain_module(args.blocks, *args.shape)
        names = None
    path = os.path.join(workdir, f"raise_{layout}_{args.blocks}.mlir")
    with open(path, "w") as f:
        f.write(text)

    extra = [] if args.threading else ["--mlir-disable-threading"]
    base = [args.flash_opt, path] + extra + ["-o", "/dev/null"]
    rais = [args.flash_opt, path, "--flash-raise-attention"] + extra + \
        ["-o", "/dev/null"]
    _run(base)
    _run(rais)  # warm-up (page cache, binary)
    tb, tr = [], []
    for _ in range(args.reps):
        tb.append(_run(base)[0])
        tr.append(_run(rais)[0])

    _, out, _ = _run(rais[:-2], capture=True)
    n_fwd, n_grad = _count(out)
    raised = _raised_funcs(out)
    pass_t = []
    for _ in range(args.reps):
        _, _, timing = _run(rais + ["--mlir-timing"])
        m = re.search(r"^\s*([0-9.]+)\s+\(\s*[0-9.]+%\)\s+"
                      r"FlashRaiseAttention\s*$", timing, re.M)
        if m:
            pass_t.append(float(m.group(1)))
    pass_s = statistics.median(pass_t) if pass_t else None

    row = dict(layout=layout, blocks=args.blocks, lines=text.count("\n"),
               kb=len(text) / 1024.0, base_min=min(tb),
               base_med=statistics.median(tb), raise_min=min(tr),
               raise_med=statistics.median(tr), fwd=n_fwd, grad=n_grad,
               pass_s=pass_s)
    row["own"] = row["raise_med"] - row["base_med"]
    row["raised_blocks"] = n_fwd if layout == "chain" else len(raised)
    if names is not None:
        row["missed"] = [f"{n} ({f})" for n, f, _ in names if n not in raised]
    else:
        row["missed"] = []
    return row


def table(rows, limit):
    hdr = ("| layout | blocks raised | flash.attention | flash.attention_grad "
           "| module | baseline min / median s | raise min / median s "
           f"| raise own s (median − baseline) | FlashRaiseAttention s "
           f"(--mlir-timing, median) | own < {limit} s |")
    lines = [hdr, "|" + "---|" * hdr.count(" | ")  + "---|"]
    for r in rows:
        ps = f"{r['pass_s']:.4f}" if r["pass_s"] is not None else "-"
        lines.append(
            f"| {r['layout']} | {r['raised_blocks']} / {r['blocks']} "
            f"| {r['fwd']} | {r['grad']} "
            f"| {r['lines']} lines, {r['kb']:.0f} KB "
            f"| {r['base_min']:.4f} / {r['base_med']:.4f} "
            f"| {r['raise_min']:.4f} / {r['raise_med']:.4f} "
            f"| {r['own']:.4f} | {ps} "
            f"| {'yes' if r['own'] < limit else 'NO'} |")
    return "\n".join(lines)


def main():
    global TIMEOUT
    ap = argparse.ArgumentParser(
        description=" ".join(__doc__.split("\n\n")[0].split()))
    ap.add_argument("--layout", choices=["funcs", "chain", "both"],
                    default="funcs")
    ap.add_argument("--blocks", type=int, default=20)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--shape", default="1,8,128,64",
                    help="B,H,N,D of the chain layout")
    ap.add_argument("--limit", type=float, default=0.5,
                    help="seconds the raise's own time must stay under")
    ap.add_argument("--flash-opt", default=FLASH_OPT)
    ap.add_argument("--threading", action="store_true",
                    help="let MLIR's thread pool run (still on one CPU)")
    ap.add_argument("--timeout", type=float, default=TIMEOUT,
                    help="seconds after which one flash-opt run is killed")
    ap.add_argument("--keep", metavar="DIR",
                    help="write the generated modules to DIR")
    args = ap.parse_args()
    TIMEOUT = args.timeout
    args.shape = [int(x) for x in args.shape.split(",")]
    if len(args.shape) != 4:
        ap.error("--shape takes B,H,N,D")

    # One core at most: flash-opt inherits the affinity.
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})

    layouts = ["funcs", "chain"] if args.layout == "both" else [args.layout]
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        rows = [bench(l, args, args.keep) for l in layouts]
    else:
        with tempfile.TemporaryDirectory() as tmp:
            rows = [bench(l, args, tmp) for l in layouts]

    print(table(rows, args.limit))
    fail = False
    for r in rows:
        if r["missed"]:
            print(f"{r['layout']}: not raised: {', '.join(r['missed'])}")
        if r["own"] >= args.limit:
            print(f"FAIL {r['layout']}: the raise takes {r['own']:.3f} s of "
                  f"its own (limit {args.limit} s)")
            fail = True
        if r["layout"] == "chain" and r["raised_blocks"] < r["blocks"]:
            print(f"FAIL chain: {r['raised_blocks']} of {r['blocks']} blocks "
                  f"raised")
            fail = True
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
