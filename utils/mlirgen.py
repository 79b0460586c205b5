#!/usr/bin/env python3
"""Test and benchmark programs for attention configurations (not part of the
flash_mlir package): the unfused reference written the way a frontend would
emit it (linalg generics on the full Nq x Nk scores, forward and gradient),
and self-checking `@main` drivers for mlir-runner and the AOT GPU programs
that fill the inputs with pseudo-random values, run the fused program
(flash_mlir.program) and the reference, and print the max error.

  python3 utils/mlirgen.py --nq 100 --nk 70 --d 64 --causal [--grad] ...

Used by the lit integration tests (%gen), the benchmarks' prepare scripts
and bench/cpu. Config, ttype, fused_func and fused_grad_func are
flash_mlir.program's, re-exported.
"""

import argparse
import dataclasses
import os
import sys

sys.path.insert(0, os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "python"))
from flash_mlir.program import (  # noqa: E402,F401
    Config, _captures, _descales, _dyn, _emit_mask_mod, _emit_score_mod, _fconst,
    _grad_arg_types, _mod_regions, fused_func, fused_grad_func, ttype)


NEG_INF = "0xFF800000"


NEG_INF_BITS = {"f32": "0xFF800000", "f16": "0xFC00", "bf16": "0xFF80"}


def _par(n):
    return ", ".join(['"parallel"'] * n)


def _red(n):
    return ", ".join(['"reduction"'] * n)


def _dims(n):
    return ", ".join(f"d{i}" for i in range(n))


class Builder:
    def __init__(self):
        self.lines = []
        self.n = 0

    def fresh(self, p="v"):
        self.n += 1
        return f"%{p}{self.n}"

    def emit(self, s):
        self.lines.append("    " + s)

    def text(self):
        return "\n".join(self.lines)


def _fill_random(b, shape, elt, seed, amp, kind="float", extra=""):
    """A generic that fills `shape` with hash-based pseudo-random values in
    [-amp, amp) (kind=float), or i1 values (kind=bool)."""
    r = len(shape)
    f32t = ttype(shape, "f32")
    e = b.fresh("e")
    b.emit(f"{e} = tensor.empty() : {f32t}")
    strides = []
    acc = 1
    for s in reversed(shape):
        strides.insert(0, acc)
        acc *= s
    body = []
    body.append("^bb0(%out: f32):")
    flat = None
    for i in range(r):
        body.append(f"  %i{i} = linalg.index {i} : index")
        body.append(f"  %s{i} = arith.muli %i{i}, %c_st{i} : index")
        if flat is None:
            flat = f"%s{i}"
        else:
            body.append(f"  %f{i} = arith.addi {flat}, %s{i} : index")
            flat = f"%f{i}"
    body.append(f"  %fi = arith.index_cast {flat} : index to i32")
    body.append("  %ff = arith.sitofp %fi : i32 to f32")
    body.append(f"  %x1 = arith.mulf %ff, %c_a : f32")
    body.append(f"  %x2 = arith.addf %x1, %c_seed : f32")
    body.append("  %x3 = math.sin %x2 : f32")
    body.append("  %x4 = arith.mulf %x3, %c_big : f32")
    body.append("  %x5 = math.floor %x4 : f32")
    body.append("  %x6 = arith.subf %x4, %x5 : f32")  # [0, 1)
    body.append("  %x7 = arith.mulf %x6, %c_two : f32")
    body.append("  %x8 = arith.subf %x7, %c_one : f32")  # [-1, 1)
    body.append("  %x9 = arith.mulf %x8, %c_amp : f32")
    body.append("  linalg.yield %x9 : f32")
    consts = []
    for i, st in enumerate(strides):
        consts.append(f"%c_st{i} = arith.constant {st} : index")
    consts += [
        f"%c_a = arith.constant {_fconst(0.6180339)} : f32",
        f"%c_seed = arith.constant {_fconst(seed * 1.2345 + 0.5)} : f32",
        f"%c_big = arith.constant {_fconst(437.585453)} : f32",
        f"%c_two = arith.constant 2.0 : f32",
        f"%c_one = arith.constant 1.0 : f32",
        f"%c_amp = arith.constant {_fconst(amp)} : f32",
    ]
    out = b.fresh("rnd")
    b.emit(f"{out} = scf.execute_region -> {f32t} {{")
    for c in consts:
        b.emit("  " + c)
    ident = f"affine_map<({_dims(r)}) -> ({_dims(r)})>"
    g = b.fresh("g")
    b.emit(f"  {g} = linalg.generic {{indexing_maps = [{ident}], "
           f"iterator_types = [{_par(r)}]}} "
           f"outs({e} : {f32t}) {{")
    for line in body:
        b.emit("  " + line)
    b.emit(f"  }} -> {f32t}")
    b.emit(f"  scf.yield {g} : {f32t}")
    b.emit("}")
    if kind == "bool":
        # keep iff value > -0.6 (about 80% kept)
        t = ttype(shape, "i1")
        e2 = b.fresh("e")
        b.emit(f"{e2} = tensor.empty() : {t}")
        res = b.fresh("mb")
        b.emit(f"{res} = linalg.generic {{indexing_maps = [{ident}, {ident}], "
               f"iterator_types = [{_par(r)}]}} "
               f"ins({out} : {f32t}) outs({e2} : {t}) {{")
        b.emit("^bb0(%x: f32, %o: i1):")
        b.emit("  %th = arith.constant -6.0e-01 : f32")
        b.emit("  %kp = arith.cmpf ogt, %x, %th : f32")
        b.emit("  linalg.yield %kp : i1")
        b.emit(f"}} -> {t}")
        return res
    if elt.startswith("i") or elt == "index":
        # Small integers (segment ids, positions): trunc(2 x) in {-1, 0, 1}
        # (times amp).
        t = ttype(shape, elt)
        two = b.fresh("c")
        b.emit(f"{two} = arith.constant dense<2.0> : {f32t}")
        x2 = b.fresh("x")
        b.emit(f"{x2} = arith.mulf {out}, {two} : {f32t}")
        res = b.fresh("ti")
        b.emit(f"{res} = arith.fptosi {x2} : {f32t} to {t}")
        return res
    if elt != "f32":
        t = ttype(shape, elt)
        res = b.fresh("tr")
        b.emit(f"{res} = arith.truncf {out} : {f32t} to {t}")
        return res
    return out


def _mask_special_rows(b, m, cfg):
    """Make some rows fully masked and the first block of others masked:
    rows with i % 5 == 3 see nothing; rows with i % 7 == 2 miss keys < 40."""
    shape = cfg.mask_shape()
    r = len(shape)
    t = ttype(shape, cfg.mask_type())
    ident = f"affine_map<({_dims(r)}) -> ({_dims(r)})>"
    res = b.fresh("ms")
    b.emit(f"{res} = linalg.generic {{indexing_maps = [{ident}], "
           f"iterator_types = [{_par(r)}]}} "
           f"outs({m} : {t}) {{")
    b.emit(f"^bb0(%x: {cfg.mask_type()}):")
    b.emit(f"  %ri = linalg.index {r - 2} : index")
    b.emit(f"  %cj = linalg.index {r - 1} : index")
    b.emit("  %c5 = arith.constant 5 : index")
    b.emit("  %c7 = arith.constant 7 : index")
    b.emit("  %c3 = arith.constant 3 : index")
    b.emit("  %c2 = arith.constant 2 : index")
    b.emit("  %c40 = arith.constant 40 : index")
    b.emit("  %r5 = arith.remui %ri, %c5 : index")
    b.emit("  %r7 = arith.remui %ri, %c7 : index")
    b.emit("  %a = arith.cmpi eq, %r5, %c3 : index")
    b.emit("  %b1 = arith.cmpi eq, %r7, %c2 : index")
    b.emit("  %b2 = arith.cmpi ult, %cj, %c40 : index")
    b.emit("  %bb = arith.andi %b1, %b2 : i1")
    b.emit("  %drop = arith.ori %a, %bb : i1")
    if cfg.mask == "bool":
        b.emit("  %f = arith.constant false")
        b.emit("  %y = arith.select %drop, %f, %x : i1")
        b.emit("  linalg.yield %y : i1")
    else:
        mt = cfg.mask_type()
        b.emit(f"  %ninf = arith.constant {NEG_INF_BITS[mt]} : {mt}")
        b.emit(f"  %y = arith.select %drop, %ninf, %x : {mt}")
        b.emit(f"  linalg.yield %y : {mt}")
    b.emit(f"}} -> {t}")
    return res


# The fused program --------------------------------------------------------

# Modifiers ------------------------------------------------------------------


def has_mods(cfg):
    return bool(cfg.window or cfg.softcap or cfg.alibi or cfg.segments or
                cfg.t5_buckets or cfg.chunk)


def _emit_consts(b, items, prefix):
    """Emits constants [(type, initializer)] in @main; returns (names,
    types)."""
    names, types = [], []
    for t, init in items:
        v = b.fresh(prefix)
        b.emit(f"{v} = arith.constant {init} : {t}")
        names.append(v)
        types.append(t)
    return names, types


def _capture_consts(b, cfg):
    """Emits the captured constants in @main; returns (names, types). A
    dynamic one (seg_dynamic) is its constant cast to the dynamic type."""
    names, types = [], []
    for n, t, init in _captures(cfg):
        static = t.replace("?", str(cfg.nq if n == "%segq" else cfg.nk))
        (v,), _ = _emit_consts(b, [(static, init)], "cap")
        if static != t:
            c = b.fresh("capd")
            b.emit(f"{c} = tensor.cast {v} : {static} to {t}")
            v = c
        names.append(v)
        types.append(t)
    return names, types


def _descale_consts(b, cfg):
    """Emits an fp8 op's descale factors in @main (distinct per head,
    not powers of two); returns (names, types)."""
    shape = cfg.descale_shape()
    count = 1
    for x in shape:
        count *= x
    items = []
    for (_, t), (base, step, period) in zip(
            _descales(cfg), ((0.4375, 0.09375, 7), (0.8125, -0.0625, 5),
                             (1.375, -0.1875, 3))):
        vals = [base + step * (i % period) for i in range(count)]
        items.append((t, f"dense<{_nested(vals, shape)}>" if shape
                      else f"dense<{_fconst(vals[0])}>"))
    return _emit_consts(b, items, "ds")


def _nested(vals, shape):
    """`vals` (row-major) as a nested dense literal of `shape`."""
    if len(shape) == 1:
        return "[" + ", ".join(_fconst(x) for x in vals) + "]"
    n = len(vals) // shape[0]
    return "[" + ", ".join(_nested(vals[t * n:(t + 1) * n], shape[1:])
                           for t in range(shape[0])) + "]"


def _emit_ref_scores(e, cfg, q, k, m, cap_prefix="%"):
    """%s2 = scale * q k^T (+ mask) (causal: -inf above the diagonal), the
    unfused scores [lead..., Nq, Nk] in f32. Needs %zero and %ninf."""
    et = cfg.dtype
    L = len(cfg.lead())
    G = 1 if cfg.hq is None else cfg.hq // cfg.hkv
    lead = [f"d{i}" for i in range(L)]
    kv_lead = list(lead)
    if cfg.hq is not None and G > 1:
        kv_lead[-1] = f"d{L - 1} floordiv {G}"
    I, J, C = f"d{L}", f"d{L + 1}", f"d{L + 2}"
    r = L + 3
    qt, kt = ttype(cfg.q_shape(), et), ttype(cfg.k_shape(), et)
    st = ttype(cfg.lead() + [cfg.nq, cfg.nk], "f32")

    def amap(n, res):
        return f"affine_map<({_dims(n)}) -> ({', '.join(res)})>"

    def ext(var, name):
        if et == "f32":
            return var
        e(f"      {name} = arith.extf {var} : {et} to f32")
        return name

    e(f"    %se = tensor.empty() : {st}")
    e(f"    %s0 = linalg.fill ins(%zero : f32) outs(%se : {st}) -> {st}")
    # fp8: the dequantized factors qd * q and kd * k.
    ds = _descales(cfg)
    d_map = amap(r, kv_lead[:len(cfg.descale_shape())])
    d_ins = "".join(f", {cap_prefix}{n[1:]}" for n, _ in ds[:2])
    d_t = "".join(f", {t}" for _, t in ds[:2])
    e(f"    %s1 = linalg.generic {{indexing_maps = [{amap(r, lead + [I, C])}, "
      f"{amap(r, kv_lead + [J, C])}{(', ' + d_map) * len(ds[:2])}, "
      f"{amap(r, lead + [I, J])}], "
      f"iterator_types = [{_par(L + 2)}, \"reduction\"]}} "
      f"ins({q}, {k}{d_ins} : {qt}, {kt}{d_t}) outs(%s0 : {st}) {{")
    e(f"    ^bb0(%a: {et}, %b: {et}, " +
      ("%qdv: f32, %kdv: f32, " if ds else "") + "%acc: f32):")
    a_, b_ = ext("%a", "%af"), ext("%b", "%bf")
    if ds:
        e(f"      %aq = arith.mulf {a_}, %qdv : f32")
        e(f"      %bk = arith.mulf {b_}, %kdv : f32")
        a_, b_ = "%aq", "%bk"
    e(f"      %p = arith.mulf {a_}, {b_} : f32")
    e("      %y = arith.addf %acc, %p : f32")
    e("      linalg.yield %y : f32")
    e(f"    }} -> {st}")
    ins, ins_t, maps = [], [], []
    if cfg.mask != "none":
        mshape = cfg.mask_shape()
        full = lead + [I, J]
        ins.append(m)
        ins_t.append(ttype(mshape, cfg.mask_type()))
        maps.append(amap(r - 1, full[len(full) - len(mshape):]))
    bargs = [f"%mk: {cfg.mask_type()}"] if ins else []
    # Captured operands, read elementwise: slopes[h], segq[i], segk[j].
    cap_val = {}
    for n, t, _ in _captures(cfg):
        if n in ("%t5tab", "%modoff"):
            continue  # read at computed positions: tensor.extract
        ins.append(f"{cap_prefix}{n[1:]}")
        ins_t.append(t)
        b0 = ([lead[0]] if cfg.seg_batched
              else [lead[-1]] if cfg.seg_heads else [])
        at = {"%slopes": [lead[-1] if lead else "0"], "%segq": b0 + [I],
              "%segk": b0 + [J]}[n]
        maps.append(amap(r - 1, at))
        elt = t.split("x")[-1].rstrip(">")
        bargs.append(f"{n}_v: {elt}")
        cap_val[n] = f"{n}_v"
    maps.append(amap(r - 1, lead + [I, J]))
    ins_part = (f"ins({', '.join(ins)} : {', '.join(ins_t)}) " if ins else "")
    e(f"    %s2 = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
      f"iterator_types = [{_par(L + 2)}]}} {ins_part}outs(%s1 : {st}) {{")
    bargs.append("%x: f32")
    e(f"    ^bb0({', '.join(bargs)}):")
    e(f"      %sc = arith.constant {_fconst(cfg.scale_value())} : f32")
    e("      %t0 = arith.mulf %x, %sc : f32")
    cur = "%t0"
    if has_mods(cfg):
        e(f"      %ri = linalg.index {L} : index")
        e(f"      %rj = linalg.index {L + 1} : index")
        rh = None
        if cfg.t5_buckets and cfg.hq is not None:
            rh = "%rh"
            e(f"      %rh = linalg.index {L - 1} : index")

        reads = []

        def ref_cap(n, at):
            if n not in ("%t5tab", "%modoff"):
                return cap_val[n]
            t = dict((c[0], c[1]) for c in _captures(cfg))[n]
            v = f"%{n[1:3]}v{len(reads)}"
            reads.append(v)
            e(f"      {v} = tensor.extract {cap_prefix}{n[1:]}[{at}] : {t}")
            return v
        cur = _emit_score_mod(e, cfg, cur, rh, "%ri", "%rj", ref_cap)
    if cfg.mask == "add":
        mk = "%mk"
        if cfg.mask_type() != "f32":
            e(f"      %mkf = arith.extf %mk : {cfg.mask_type()} to f32")
            mk = "%mkf"
        e(f"      %t1 = arith.addf {cur}, {mk} : f32")
        cur = "%t1"
    elif cfg.mask == "bool":
        e(f"      %t1 = arith.select %mk, {cur}, %ninf : f32")
        cur = "%t1"
    if cfg.causal:
        e(f"      %ii = linalg.index {L} : index")
        e(f"      %jj = linalg.index {L + 1} : index")
        e("      %iic = arith.index_cast %ii : index to i64")
        e("      %jjc = arith.index_cast %jj : index to i64")
        e(f"      %off = arith.constant {cfg.offset_value()} : i64")
        e("      %lim = arith.addi %iic, %off : i64")
        e("      %vis = arith.cmpi sle, %jjc, %lim : i64")
        e(f"      %t2 = arith.select %vis, {cur}, %ninf : f32")
        cur = "%t2"
    if has_mods(cfg):
        keep = _emit_mask_mod(e, cfg, "%ri", "%rj", ref_cap)
        if keep:
            e(f"      %t3 = arith.select {keep}, {cur}, %ninf : f32")
            cur = "%t3"
    e(f"      linalg.yield {cur} : f32")
    e(f"    }} -> {st}")


def reference_func(cfg, name="reference"):
    """softmax(scale * q k^T + mask) v on the full score tensor, as linalg
    generics, with explicit handling of fully masked rows."""
    et = cfg.dtype
    L = len(cfg.lead())
    r = L + 3  # lead..., i, j, c
    qt, kt, vt = (ttype(cfg.q_shape(), et), ttype(cfg.k_shape(), et),
                  ttype(cfg.v_shape(), et))
    ot, lt = ttype(cfg.o_shape(), cfg.out_dtype()), ttype(cfg.lse_shape(), "f32")
    st = ttype(cfg.lead() + [cfg.nq, cfg.nk], "f32")
    rt = ttype(cfg.lead() + [cfg.nq], "f32")
    lead = [f"d{i}" for i in range(L)]
    group = 1 if cfg.hq is None else cfg.hq // cfg.hkv
    kv_lead = list(lead)
    if cfg.hq is not None and group > 1:
        kv_lead[-1] = f"d{L - 1} floordiv {group}"
    I, J, C = f"d{L}", f"d{L + 1}", f"d{L + 2}"

    def amap(n, res):
        return f"affine_map<({_dims(n)}) -> ({', '.join(res)})>"

    par = lambda n: ", ".join(['"parallel"'] * n)
    args = [f"%q: {qt}", f"%k: {kt}", f"%v: {vt}"]
    if cfg.mask != "none":
        mt = ttype(cfg.mask_shape(), cfg.mask_type())
        args.append(f"%m: {mt}")
    args += [f"{c[0]}: {c[1]}" for c in _captures(cfg)]
    args += [f"{n}: {t}" for n, t in _descales(cfg)]
    out = [f"  func.func @{name}({', '.join(args)}) -> ({ot}, {lt}) {{"]
    e = out.append

    def ext(x, t):
        return f"arith.extf {x} : {t} to f32" if t != "f32" else None

    e(f"    %zero = arith.constant 0.0 : f32")
    e(f"    %ninf = arith.constant {NEG_INF} : f32")
    _emit_ref_scores(e, cfg, "%q", "%k", "%m")
    r = L + 3
    # row max
    red = lambda: f"[{par(L + 1)}, \"reduction\"]"
    e(f"    %me = tensor.empty() : {rt}")
    e(f"    %m0 = linalg.fill ins(%ninf : f32) outs(%me : {rt}) -> {rt}")
    e(f"    %m1 = linalg.generic {{indexing_maps = [{amap(r - 1, lead + [I, J])}, "
      f"{amap(r - 1, lead + [I])}], iterator_types = {red()}}} "
      f"ins(%s2 : {st}) outs(%m0 : {rt}) {{")
    e(f"    ^bb0(%x: f32, %y: f32):")
    e(f"      %z = arith.maximumf %x, %y : f32")
    e(f"      linalg.yield %z : f32")
    e(f"    }} -> {rt}")
    # p = exp(s - safe max)
    e(f"    %pe = tensor.empty() : {st}")
    e(f"    %p = linalg.generic {{indexing_maps = [{amap(r - 1, lead + [I, J])}, "
      f"{amap(r - 1, lead + [I])}, {amap(r - 1, lead + [I, J])}], "
      f"iterator_types = [{par(L + 2)}]}} ins(%s2, %m1 : {st}, {rt}) "
      f"outs(%pe : {st}) {{")
    e(f"    ^bb0(%x: f32, %mx: f32, %o: f32):")
    e(f"      %isinf = arith.cmpf oeq, %mx, %ninf : f32")
    e(f"      %ms = arith.select %isinf, %zero, %mx : f32")
    e(f"      %d = arith.subf %x, %ms : f32")
    e(f"      %ex = math.exp %d : f32")
    e(f"      linalg.yield %ex : f32")
    e(f"    }} -> {st}")
    # row sum
    e(f"    %l0 = linalg.fill ins(%zero : f32) outs(%me : {rt}) -> {rt}")
    e(f"    %l1 = linalg.generic {{indexing_maps = [{amap(r - 1, lead + [I, J])}, "
      f"{amap(r - 1, lead + [I])}], iterator_types = {red()}}} "
      f"ins(%p : {st}) outs(%l0 : {rt}) {{")
    e(f"    ^bb0(%x: f32, %y: f32):")
    e(f"      %z = arith.addf %x, %y : f32")
    e(f"      linalg.yield %z : f32")
    e(f"    }} -> {rt}")
    # o = (p v) / l
    oft = ttype(cfg.o_shape(), "f32")
    e(f"    %oe = tensor.empty() : {oft}")
    e(f"    %o0 = linalg.fill ins(%zero : f32) outs(%oe : {oft}) -> {oft}")
    ds = _descales(cfg)
    vd_map = (", " + amap(r, kv_lead[:len(cfg.descale_shape())])) if ds else ""
    vd_in, vd_t = (", %vd", f", {ds[2][1]}") if ds else ("", "")
    e(f"    %o1 = linalg.generic {{indexing_maps = [{amap(r, lead + [I, J])}, "
      f"{amap(r, kv_lead + [J, C])}{vd_map}, {amap(r, lead + [I, C])}], "
      f"iterator_types = [{par(L + 1)}, \"reduction\", \"parallel\"]}} "
      f"ins(%p, %v{vd_in} : {st}, {vt}{vd_t}) outs(%o0 : {oft}) {{")
    e(f"    ^bb0(%a: f32, %b: {et}, " + ("%vdv: f32, " if ds else "") +
      "%acc: f32):")
    bv = "%b"
    if et != "f32":
        e(f"      %bf = arith.extf %b : {et} to f32")
        bv = "%bf"
    if ds:
        e(f"      %bvd = arith.mulf {bv}, %vdv : f32")
        bv = "%bvd"
    e(f"      %pr = arith.mulf %a, {bv} : f32")
    e(f"      %y = arith.addf %acc, %pr : f32")
    e(f"      linalg.yield %y : f32")
    e(f"    }} -> {oft}")
    e(f"    %ore = tensor.empty() : {ot}")
    e(f"    %o2 = linalg.generic {{indexing_maps = [{amap(r - 1, lead + [I, J])}, "
      f"{amap(r - 1, lead + [I])}, {amap(r - 1, lead + [I, J])}], "
      f"iterator_types = [{par(L + 2)}]}} ins(%o1, %l1 : {oft}, {rt}) "
      f"outs(%ore : {ot}) {{")
    out_et = cfg.out_dtype()
    e(f"    ^bb0(%a: f32, %l: f32, %o: {out_et}):")
    e(f"      %emp = arith.cmpf oeq, %l, %zero : f32")
    e(f"      %dv = arith.divf %a, %l : f32")
    e(f"      %y = arith.select %emp, %zero, %dv : f32")
    if out_et != "f32":
        e(f"      %yt = arith.truncf %y : f32 to {out_et}")
        e(f"      linalg.yield %yt : {out_et}")
    else:
        e(f"      linalg.yield %y : f32")
    e(f"    }} -> {ot}")
    # lse = m + log(l)
    e(f"    %lse = linalg.generic {{indexing_maps = [{amap(L + 1, lead + [I])}, "
      f"{amap(L + 1, lead + [I])}, {amap(L + 1, lead + [I])}], "
      f"iterator_types = [{par(L + 1)}]}} ins(%m1, %l1 : {rt}, {rt}) "
      f"outs(%me : {rt}) {{")
    e(f"    ^bb0(%mx: f32, %l: f32, %o: f32):")
    e(f"      %emp = arith.cmpf oeq, %l, %zero : f32")
    e(f"      %lg = math.log %l : f32")
    e(f"      %y0 = arith.addf %mx, %lg : f32")
    e(f"      %y = arith.select %emp, %ninf, %y0 : f32")
    e(f"      linalg.yield %y : f32")
    e(f"    }} -> {rt}")
    e(f"    return %o2, %lse : {ot}, {lt}")
    e("  }")
    return "\n".join(out)


def _reduce_all(b, ins, shape, elt, init, body):
    """An f32 scalar from every element of the tensors `ins` (of `shape`,
    element type `elt`): a linalg.generic from `init` whose region's lines
    `body` see the elements as %a (%b) and their f32 values as %af (%bf),
    the accumulator as %acc, and yield %mx."""
    r = len(shape)
    t = ttype(shape, elt)
    ident = f"affine_map<({_dims(r)}) -> ({_dims(r)})>"
    scal = f"affine_map<({_dims(r)}) -> ()>"
    e0, c, f0, res = (b.fresh(n) for n in ("ee", "z", "ef", "err"))
    b.emit(f"{e0} = tensor.empty() : tensor<f32>")
    b.emit(f"{c} = arith.constant {init} : f32")
    b.emit(f"{f0} = linalg.fill ins({c} : f32) outs({e0} : tensor<f32>) -> tensor<f32>")
    names = ["%a", "%b"][:len(ins)]
    b.emit(f"{res} = linalg.generic {{indexing_maps = [{', '.join([ident] * len(ins))}, {scal}], "
           f"iterator_types = [{_red(r)}]}} "
           f"ins({', '.join(ins)} : {', '.join([t] * len(ins))}) outs({f0} : tensor<f32>) {{")
    b.emit(f"^bb0({', '.join(f'{n}: {elt}' for n in names)}, %acc: f32):")
    for n in names:
        if elt != "f32":
            b.emit(f"  {n}f = arith.extf {n} : {elt} to f32")
    for line in body:
        b.emit("  " + line)
    b.emit(f"  linalg.yield %mx : f32")
    b.emit(f"}} -> tensor<f32>")
    v = b.fresh("es")
    b.emit(f"{v} = tensor.extract {res}[] : tensor<f32>")
    return v


def _max_err(b, x, y, shape, elt, name):
    """max_i |x_i - y_i| in f32 (0 where both are equal, e.g. both -inf; NaN
    propagates)."""
    a, bb = ("%af", "%bf") if elt != "f32" else ("%a", "%b")
    return _reduce_all(b, [x, y], shape, elt, "0.0", [
        f"%eq = arith.cmpf oeq, {a}, {bb} : f32",
        f"%df = arith.subf {a}, {bb} : f32",
        "%ad = math.absf %df : f32",
        "%zz = arith.constant 0.0 : f32",
        "%d = arith.select %eq, %zz, %ad : f32",
        "%mx = arith.maximumf %acc, %d : f32"])


def _scaled_tol(b, tol, ref, shape, elt):
    """The tolerance for an output of element type `elt`: `tol` (an f32
    value), or for a 16-bit type tol * max(1, max_i |ref_i|): the outputs
    are rounded to the type, whose spacing grows with the magnitude (a
    gradient summed over a GQA group of 4 reached 4-8, where one bf16 step
    is 2^-5)."""
    if elt == "f32":
        return tol
    m = _reduce_all(b, [ref], shape, elt, "1.0", [
        "%ad = math.absf %af : f32",
        "%mx = arith.maxnumf %acc, %ad : f32"])
    st = b.fresh("stol")
    b.emit(f"{st} = arith.mulf {tol}, {m} : f32")
    return st


def _digest(b, x, shape, elt, name):
    """Prints `<name>_bits: <n>`: the sum over elements of (bits + 1) *
    (2 * linear index + 1) in i64 (wrapping), which is independent of the
    order of summation and changes with any bit of any element (up to
    collisions): runs that must agree bitwise print the same line."""
    r = len(shape)
    t = ttype(shape, elt)
    ident = f"affine_map<({_dims(r)}) -> ({_dims(r)})>"
    scal = f"affine_map<({_dims(r)}) -> ()>"
    ib = {"f32": "i32", "f16": "i16", "bf16": "i16"}[elt]
    e0, z, f0, res, s = (b.fresh(p) for p in ("de", "dz", "df", "dg", "ds"))
    b.emit(f"{e0} = tensor.empty() : tensor<i64>")
    b.emit(f"{z} = arith.constant 0 : i64")
    b.emit(f"{f0} = linalg.fill ins({z} : i64) outs({e0} : tensor<i64>) -> tensor<i64>")
    b.emit(f"{res} = linalg.generic {{indexing_maps = [{ident}, {scal}], "
           f"iterator_types = [{_red(r)}]}} "
           f"ins({x} : {t}) outs({f0} : tensor<i64>) {{")
    b.emit(f"^bb0(%a: {elt}, %acc: i64):")
    b.emit(f"  %bits = arith.bitcast %a : {elt} to {ib}")
    b.emit(f"  %w = arith.extui %bits : {ib} to i64")
    b.emit("  %one = arith.constant 1 : i64")
    b.emit("  %w1 = arith.addi %w, %one : i64")
    b.emit("  %lin0 = arith.constant 0 : index")
    lin = "%lin0"
    for i in range(r):
        b.emit(f"  %ix{i} = linalg.index {i} : index")
        b.emit(f"  %sz{i} = arith.constant {shape[i]} : index")
        b.emit(f"  %ls{i} = arith.muli {lin}, %sz{i} : index")
        b.emit(f"  %la{i} = arith.addi %ls{i}, %ix{i} : index")
        lin = f"%la{i}"
    b.emit(f"  %li = arith.index_cast {lin} : index to i64")
    b.emit("  %two = arith.constant 2 : i64")
    b.emit("  %l2 = arith.muli %li, %two : i64")
    b.emit("  %l3 = arith.addi %l2, %one : i64")
    b.emit("  %term = arith.muli %w1, %l3 : i64")
    b.emit("  %sum = arith.addi %acc, %term : i64")
    b.emit("  linalg.yield %sum : i64")
    b.emit("} -> tensor<i64>")
    b.emit(f"{s} = tensor.extract {res}[] : tensor<i64>")
    b.emit(f'vector.print str "{name}_bits: "')
    b.emit(f"vector.print {s} : i64")


def check_program(cfg, tol=2e-5, lse_tol=None, digest=False):
    """A module whose @main runs the fused and the reference programs on the
    same pseudo-random inputs and prints `<name>_err: <max abs err>` and
    `ok: 1` when every error is <= tol (0 otherwise, also on NaN)."""
    return "\n".join([
        "module {",
        fused_func(cfg),
        reference_func(cfg),
        "  func.func @main() {",
        _check_body(cfg, tol, lse_tol, digest=digest),
        "  }",
        "}",
    ])


def _check_body(cfg, tol, lse_tol, ref="reference", digest=False):
    if lse_tol is None:
        lse_tol = tol
    b = Builder()
    q = _fill_random(b, cfg.q_shape(), cfg.dtype, 1, cfg.amp)
    k = _fill_random(b, cfg.k_shape(), cfg.dtype, 2, cfg.amp)
    v = _fill_random(b, cfg.v_shape(), cfg.dtype, 3, 1.0)
    args = [q, k, v]
    types = [ttype(cfg.q_shape(), cfg.dtype), ttype(cfg.k_shape(), cfg.dtype),
             ttype(cfg.v_shape(), cfg.dtype)]
    if cfg.mask != "none":
        m = _fill_random(b, cfg.mask_shape(), cfg.mask_type(), 4, 2.0,
                         kind="bool" if cfg.mask == "bool" else "float")
        m = _mask_special_rows(b, m, cfg)
        args.append(m)
        types.append(ttype(cfg.mask_shape(), cfg.mask_type()))
    ot = ttype(cfg.o_shape(), cfg.out_dtype())
    lt = ttype(cfg.lse_shape(), "f32")
    cn, ct = _capture_consts(b, cfg)
    dn, dt_ = _descale_consts(b, cfg)
    cn, ct = cn + dn, ct + dt_
    fargs, ftypes = list(args), list(types)
    rank = len(cfg.q_shape())
    if cfg.dynamic:
        for i, (a, t) in enumerate(zip(args, types)):
            shape = [cfg.q_shape(), cfg.k_shape(), cfg.v_shape(),
                     cfg.mask_shape()][i]
            dd = _dyn(cfg, ["q", "k", "k", "mask"][i])
            dt = ttype(shape, cfg.mask_type() if i == 3 else cfg.dtype, dd)
            if dt == t:
                continue
            c = b.fresh("dc")
            b.emit(f"{c} = tensor.cast {a} : {t} to {dt}")
            fargs[i], ftypes[i] = c, dt
    dyn = _dyn(cfg, "q")
    fot = ttype(cfg.o_shape(), cfg.out_dtype(), dyn)
    flt = ttype(cfg.lse_shape(), "f32", dyn)
    fres = [fot] + ([flt] if cfg.lse else [])
    fargs, ftypes = fargs + cn, ftypes + ct
    args, types = args + cn, types + ct
    b.emit(f"%f:{len(fres)} = func.call @fused({', '.join(fargs)}) : "
           f"({', '.join(ftypes)}) -> ({', '.join(fres)})")
    b.emit(f"%r:2 = func.call @{ref}({', '.join(args)}) : "
           f"({', '.join(types)}) -> ({ot}, {lt})")
    fo, fl = "%f#0", "%f#1"
    if dyn:
        b.emit(f"%fo = tensor.cast %f#0 : {fot} to {ot}")
        fo = "%fo"
        if cfg.lse:
            b.emit(f"%fl = tensor.cast %f#1 : {flt} to {lt}")
            fl = "%fl"
    if digest:
        _digest(b, fo, cfg.o_shape(), cfg.out_dtype(), "o")
        if cfg.lse:
            _digest(b, fl, cfg.lse_shape(), "f32", "lse")
    eo = _max_err(b, fo, "%r#0", cfg.o_shape(), cfg.out_dtype(), "o")
    b.emit('vector.print str "o_err: "')
    b.emit(f"vector.print {eo} : f32")
    b.emit(f"%tol = arith.constant {_fconst(tol)} : f32")
    otol = _scaled_tol(b, "%tol", "%r#0", cfg.o_shape(), cfg.out_dtype())
    b.emit(f"%ok0 = arith.cmpf ole, {eo}, {otol} : f32")
    ok = "%ok0"
    if cfg.lse:
        el = _max_err(b, fl, "%r#1", cfg.lse_shape(), "f32", "lse")
        b.emit('vector.print str "lse_err: "')
        b.emit(f"vector.print {el} : f32")
        b.emit(f"%ltol = arith.constant {_fconst(lse_tol)} : f32")
        b.emit(f"%ok1 = arith.cmpf ole, {el}, %ltol : f32")
        b.emit(f"%ok2 = arith.andi %ok0, %ok1 : i1")
        ok = "%ok2"
    b.emit('vector.print str "ok: "')
    b.emit(f"vector.print {ok} : i1")
    b.emit("return")
    return b.text()


def multi_check_program(cfgs, tol=2e-5, lse_tol=None, grad=False):
    """One fused function with dynamic sequence lengths (cfgs differ only in
    them) checked at every configuration: a @check_<i> per configuration,
    each printing its errors and `ok:`, all run by @main."""
    fused = fused_grad_func(cfgs[0]) if grad else fused_func(cfgs[0])
    parts = ["module {", fused]
    for i, c in enumerate(cfgs):
        if grad:
            parts += [reference_func(c, name=f"reference_{i}"),
                      reference_grad_func(c, name=f"reference_grad_{i}"),
                      f"  func.func @check_{i}() {{",
                      _grad_check_body(c, tol, f"reference_{i}",
                                       f"reference_grad_{i}"), "  }"]
        else:
            parts += [reference_func(c, name=f"reference_{i}"),
                      f"  func.func @check_{i}() {{",
                      _check_body(c, tol, lse_tol, f"reference_{i}"), "  }"]
    parts.append("  func.func @main() {")
    parts += [f"    func.call @check_{i}() : () -> ()" for i in range(len(cfgs))]
    parts += ["    return", "  }", "}"]
    return "\n".join(parts)


def parse_config(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--batch", default="", help="comma-separated batch dims")
    p.add_argument("--hq", type=int)
    p.add_argument("--hkv", type=int)
    p.add_argument("--nq", type=int, default=64)
    p.add_argument("--nk", type=int)
    p.add_argument("--n", type=int, help="nq = nk = n")
    p.add_argument("--d", type=int, default=32)
    p.add_argument("--dv", type=int)
    p.add_argument("--dtype", default="f32")
    p.add_argument("--causal", action="store_true")
    p.add_argument("--causal-offset", type=int)
    p.add_argument("--mask", default="none", choices=["none", "add", "bool"])
    p.add_argument("--full-mask", action="store_true",
                   help="mask with all batch/head dims (no broadcast)")
    p.add_argument("--no-lse", action="store_true")
    p.add_argument("--scale", type=float)
    p.add_argument("--amp", type=float, default=1.0)
    p.add_argument("--dynamic", action="store_true")
    p.add_argument("--dynamic-keys", action="store_true",
                   help="only Nk dynamic (decode: one kernel per Nq)")
    p.add_argument("--shapes", default="",
                   help="nq:nk,...: one dynamic-length fused function "
                        "checked at each (a multi-shape program)")
    p.add_argument("--tol", type=float, default=2e-5)
    p.add_argument("--lse-tol", type=float)
    p.add_argument("--grad", action="store_true",
                   help="check flash.attention_grad instead of the forward")
    p.add_argument("--deterministic", action="store_true")
    p.add_argument("--digest", action="store_true",
                   help="also print a digest of the bits of every fused "
                        "output (<name>_bits:), to compare runs bitwise")
    p.add_argument("--window", help="left,right (-1: unbounded)")
    p.add_argument("--chunk", type=int, default=0,
                   help="chunked attention: (i + off) / C == j / C")
    p.add_argument("--softcap", type=float)
    p.add_argument("--alibi", action="store_true")
    p.add_argument("--mod-offset", action="store_true",
                   help="the window's / ALiBi's diagonal (Nk - Nq) as a "
                        "captured run-time operand, as flash_mlir.cuda "
                        "passes it")
    p.add_argument("--t5-buckets", type=int, default=0,
                   help="T5's relative-position bias with that many buckets")
    p.add_argument("--segments", type=int, default=0)
    p.add_argument("--segments-batched", action="store_true",
                   help="segment ids per sequence of the first batch dim")
    p.add_argument("--segments-per-head", action="store_true",
                   help="segment ids per query head (the mask_mod reads it)")
    p.add_argument("--descale", default="none",
                   choices=["none", "tensor", "head"],
                   help="fp8 (--dtype f8E4M3FN): descale factors per tensor "
                        "or per batch and kv head")
    p.add_argument("--segments-diff", action="store_true",
                   help="the document mask as seg_q[i] - seg_k[j] == 0")
    p.add_argument("--segments-dynamic", action="store_true",
                   help="the segment ids' length dim dynamic in the fused op")
    a = p.parse_args(argv)
    nq = a.n if a.n is not None else a.nq
    nk = a.n if a.n is not None else (a.nk if a.nk is not None else nq)
    cfg = Config(batch=[int(x) for x in a.batch.split(",") if x],
                 hq=a.hq, hkv=a.hkv, nq=nq, nk=nk, d=a.d, dv=a.dv,
                 dtype=a.dtype, causal=a.causal,
                 causal_offset=a.causal_offset, mask=a.mask,
                 mask_bcast=not a.full_mask, lse=not a.no_lse, scale=a.scale,
                 amp=a.amp, dynamic="keys" if a.dynamic_keys else a.dynamic, deterministic=a.deterministic,
                 window=(tuple(int(x) for x in a.window.split(","))
                         if a.window else None),
                 chunk=a.chunk,
                 softcap=a.softcap, alibi=a.alibi, segments=a.segments,
                 t5_buckets=a.t5_buckets,
                 seg_batched=a.segments_batched,
                 seg_heads=a.segments_per_head, seg_diff=a.segments_diff,
                 seg_dynamic=a.segments_dynamic,
                 descale=a.descale, mod_offset=a.mod_offset)
    if cfg.alibi and cfg.hq is None:
        raise SystemExit("--alibi needs a head dim (--hq): a slope per head")
    if cfg.is_fp8() and a.grad:
        raise SystemExit("fp8 attention has no backward (--grad)")
    if a.descale != "none" and not cfg.is_fp8():
        raise SystemExit("--descale needs --dtype f8E4M3FN")
    return cfg, a


def reference_grad_func(cfg, name="reference_grad"):
    """dq, dk, dv from the full probability matrix P = softmax(scores)
    (recomputed from q and k, not from lse), dS = P * (dP - rowsum(P * dP)),
    as linalg generics; GQA sums over the query heads of each group."""
    et = cfg.dtype
    L = len(cfg.lead())
    nb = len(cfg.batch)
    G = 1 if cfg.hq is None else cfg.hq // cfg.hkv
    ts = _grad_arg_types(cfg)
    names = ["%gq", "%gk", "%gv", "%go", "%glse", "%gdo"] + (
        ["%gm"] if cfg.mask != "none" else []) + [
            "%g" + c[0][1:] for c in _captures(cfg)]
    qt, kt, vt = ts[0], ts[1], ts[2]
    st = ttype(cfg.lead() + [cfg.nq, cfg.nk], "f32")
    rt = ttype(cfg.lead() + [cfg.nq], "f32")
    lead = [f"d{i}" for i in range(L)]
    kv_lead = list(lead)
    if cfg.hq is not None and G > 1:
        kv_lead[-1] = f"d{L - 1} floordiv {G}"
    I, J = f"d{L}", f"d{L + 1}"

    def amap(n, res):
        return f"affine_map<({_dims(n)}) -> ({', '.join(res)})>"

    def par(n):
        return _par(n)

    out = [f"  func.func @{name}({', '.join(f'{n}: {t}' for n, t in zip(names, ts))})"
           f" -> ({qt}, {kt}, {vt}) {{"]
    e = out.append
    e("    %zero = arith.constant 0.0 : f32")
    e(f"    %ninf = arith.constant {NEG_INF} : f32")

    def ext(var, t, name):
        if t == "f32":
            return var
        e(f"      {name} = arith.extf {var} : {t} to f32")
        return name

    _emit_ref_scores(e, cfg, "%gq", "%gk", "%gm", cap_prefix="%g")
    r = L + 3
    # P = softmax(s) with fully masked rows -> 0.
    red = f"[{par(L + 1)}, \"reduction\"]"
    ij, i_ = amap(r - 1, lead + [I, J]), amap(r - 1, lead + [I])
    e(f"    %me = tensor.empty() : {rt}")
    e(f"    %m0 = linalg.fill ins(%ninf : f32) outs(%me : {rt}) -> {rt}")
    e(f"    %m1 = linalg.generic {{indexing_maps = [{ij}, {i_}], iterator_types = {red}}} "
      f"ins(%s2 : {st}) outs(%m0 : {rt}) {{")
    e("    ^bb0(%x: f32, %y: f32):")
    e("      %z = arith.maximumf %x, %y : f32")
    e("      linalg.yield %z : f32")
    e(f"    }} -> {rt}")
    e(f"    %pe = tensor.empty() : {st}")
    e(f"    %p0 = linalg.generic {{indexing_maps = [{ij}, {i_}, {ij}], "
      f"iterator_types = [{par(L + 2)}]}} ins(%s2, %m1 : {st}, {rt}) outs(%pe : {st}) {{")
    e("    ^bb0(%x: f32, %mx: f32, %o: f32):")
    e("      %isinf = arith.cmpf oeq, %mx, %ninf : f32")
    e("      %ms = arith.select %isinf, %zero, %mx : f32")
    e("      %d = arith.subf %x, %ms : f32")
    e("      %ex = math.exp %d : f32")
    e("      linalg.yield %ex : f32")
    e(f"    }} -> {st}")
    e(f"    %l0 = linalg.fill ins(%zero : f32) outs(%me : {rt}) -> {rt}")
    e(f"    %l1 = linalg.generic {{indexing_maps = [{ij}, {i_}], iterator_types = {red}}} "
      f"ins(%p0 : {st}) outs(%l0 : {rt}) {{")
    e("    ^bb0(%x: f32, %y: f32):")
    e("      %z = arith.addf %x, %y : f32")
    e("      linalg.yield %z : f32")
    e(f"    }} -> {rt}")
    e(f"    %P = linalg.generic {{indexing_maps = [{ij}, {i_}, {ij}], "
      f"iterator_types = [{par(L + 2)}]}} ins(%p0, %l1 : {st}, {rt}) outs(%pe : {st}) {{")
    e("    ^bb0(%x: f32, %l: f32, %o: f32):")
    e("      %emp = arith.cmpf oeq, %l, %zero : f32")
    e("      %dv = arith.divf %x, %l : f32")
    e("      %y = arith.select %emp, %zero, %dv : f32")
    e("      linalg.yield %y : f32")
    e(f"    }} -> {st}")
    # dP = dO V^T
    E = f"d{L + 2}"
    e(f"    %dp0 = linalg.fill ins(%zero : f32) outs(%se : {st}) -> {st}")
    e(f"    %dP = linalg.generic {{indexing_maps = [{amap(r, lead + [I, E])}, "
      f"{amap(r, kv_lead + [J, E])}, {amap(r, lead + [I, J])}], "
      f"iterator_types = [{par(L + 2)}, \"reduction\"]}} "
      f"ins(%gdo, %gv : {ts[5]}, {vt}) outs(%dp0 : {st}) {{")
    e(f"    ^bb0(%a: {et}, %b: {et}, %acc: f32):")
    a_, b_ = ext("%a", et, "%af"), ext("%b", et, "%bf")
    e(f"      %p = arith.mulf {a_}, {b_} : f32")
    e("      %y = arith.addf %acc, %p : f32")
    e("      linalg.yield %y : f32")
    e(f"    }} -> {st}")
    # Delta = rowsum(P * dP); dS = P * (dP - Delta)
    e(f"    %D0 = linalg.fill ins(%zero : f32) outs(%me : {rt}) -> {rt}")
    e(f"    %D = linalg.generic {{indexing_maps = [{ij}, {ij}, {i_}], iterator_types = {red}}} "
      f"ins(%P, %dP : {st}, {st}) outs(%D0 : {rt}) {{")
    e("    ^bb0(%x: f32, %y: f32, %acc: f32):")
    e("      %z = arith.mulf %x, %y : f32")
    e("      %w = arith.addf %acc, %z : f32")
    e("      linalg.yield %w : f32")
    e(f"    }} -> {rt}")
    e(f"    %dse = tensor.empty() : {st}")
    e(f"    %dS = linalg.generic {{indexing_maps = [{ij}, {ij}, {i_}, {ij}], "
      f"iterator_types = [{par(L + 2)}]}} ins(%P, %dP, %D : {st}, {st}, {rt}) "
      f"outs(%dse : {st}) {{")
    e("    ^bb0(%x: f32, %y: f32, %dd: f32, %o: f32):")
    e("      %z = arith.subf %y, %dd : f32")
    e("      %w = arith.mulf %x, %z : f32")
    e("      linalg.yield %w : f32")
    e(f"    }} -> {st}")
    dS = "%dS"
    if cfg.softcap:
        # d(c tanh(t / c)) / dt = 1 - tanh(t / c)^2 at t = scale * q.k.
        e(f"    %dSc = linalg.generic {{indexing_maps = [{ij}, {ij}, {ij}], "
          f"iterator_types = [{par(L + 2)}]}} ins(%dS, %s1 : {st}, {st}) "
          f"outs(%dse : {st}) {{")
        e("    ^bb0(%x: f32, %t: f32, %o: f32):")
        e(f"      %sc = arith.constant {_fconst(cfg.scale_value())} : f32")
        e(f"      %c = arith.constant {_fconst(cfg.softcap)} : f32")
        e("      %t1 = arith.mulf %t, %sc : f32")
        e("      %t2 = arith.divf %t1, %c : f32")
        e("      %th = math.tanh %t2 : f32")
        e("      %sq = arith.mulf %th, %th : f32")
        e("      %one = arith.constant 1.0 : f32")
        e("      %dr = arith.subf %one, %sq : f32")
        e("      %y = arith.mulf %x, %dr : f32")
        e("      linalg.yield %y : f32")
        e(f"    }} -> {st}")
        dS = "%dSc"
    sc = _fconst(cfg.scale_value())
    # dQ = scale * dS K   (lead, i, d, j)
    qft = ttype(cfg.q_shape(), "f32")
    e(f"    %dqe = tensor.empty() : {qft}")
    e(f"    %dq0 = linalg.fill ins(%zero : f32) outs(%dqe : {qft}) -> {qft}")
    Dd = f"d{L + 1}"
    Jr = f"d{L + 2}"
    e(f"    %dqf = linalg.generic {{indexing_maps = [{amap(r, lead + [I, Jr])}, "
      f"{amap(r, kv_lead + [Jr, Dd])}, {amap(r, lead + [I, Dd])}], "
      f"iterator_types = [{par(L + 2)}, \"reduction\"]}} "
      f"ins({dS}, %gk : {st}, {kt}) outs(%dq0 : {qft}) {{")
    e(f"    ^bb0(%a: f32, %b: {et}, %acc: f32):")
    b_ = ext("%b", et, "%bf")
    e(f"      %sc = arith.constant {sc} : f32")
    e(f"      %p = arith.mulf %a, {b_} : f32")
    e("      %ps = arith.mulf %p, %sc : f32")
    e("      %y = arith.addf %acc, %ps : f32")
    e("      linalg.yield %y : f32")
    e(f"    }} -> {qft}")
    # dK, dV per query head: dims (lead..., j, d, i); then, with GQA, the
    # heads of each group summed (expand_shape Hq -> (Hkv, G), reduce G).
    n = L + 3
    j, dd, i = f"d{L}", f"d{L + 1}", f"d{L + 2}"
    iters = ", ".join(['"parallel"'] * (L + 2)) + ', "reduction"'
    for out_name, src, other, other_t, shape, sc_on in (
            ("%dkf", dS, "%gq", qt, cfg.k_shape(), True),
            ("%dvf", "%P", "%gdo", ts[5], cfg.v_shape(), False)):
        full_shape = cfg.lead() + shape[-2:]
        ft = ttype(full_shape, "f32")
        e(f"    {out_name}e = tensor.empty() : {ft}")
        e(f"    {out_name}0 = linalg.fill ins(%zero : f32) outs({out_name}e : {ft}) -> {ft}")
        e(f"    {out_name}h = linalg.generic {{indexing_maps = ["
          f"{amap(n, lead + [i, j])}, {amap(n, lead + [i, dd])}, "
          f"{amap(n, lead + [j, dd])}], iterator_types = [{iters}]}} "
          f"ins({src}, {other} : {st}, {other_t}) outs({out_name}0 : {ft}) {{")
        e(f"    ^bb0(%a: f32, %b: {et}, %acc: f32):")
        b_ = ext("%b", et, "%bf")
        e(f"      %p = arith.mulf %a, {b_} : f32")
        if sc_on:
            e(f"      %sc = arith.constant {sc} : f32")
            e("      %ps = arith.mulf %p, %sc : f32")
            e("      %y = arith.addf %acc, %ps : f32")
        else:
            e("      %y = arith.addf %acc, %p : f32")
        e("      linalg.yield %y : f32")
        e(f"    }} -> {ft}")
        if G == 1:
            e(f"    {out_name} = tensor.cast {out_name}h : {ft} to {ft}")
            continue
        # [B..., Hq, N, D] -> [B..., Hkv, G, N, D] -> sum over G.
        xs = list(cfg.batch) + [cfg.hkv, G] + shape[-2:]
        xt = ttype(xs, "f32")
        groups = [[t] for t in range(nb)] + [[nb, nb + 1], [nb + 2], [nb + 3]]
        gtxt = "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"
        e(f"    {out_name}x = tensor.expand_shape {out_name}h {gtxt} "
          f"output_shape [{', '.join(map(str, xs))}] : {ft} into {xt}")
        kt_f = ttype(shape, "f32")
        e(f"    {out_name}se = tensor.empty() : {kt_f}")
        e(f"    {out_name}s0 = linalg.fill ins(%zero : f32) outs({out_name}se : {kt_f}) -> {kt_f}")
        m = len(xs)
        dims = [f"d{t}" for t in range(m)]
        red_res = dims[:nb + 1] + dims[nb + 2:]
        its = ", ".join('"reduction"' if t == nb + 1 else '"parallel"' for t in range(m))
        e(f"    {out_name} = linalg.generic {{indexing_maps = [{amap(m, dims)}, "
          f"{amap(m, red_res)}], iterator_types = [{its}]}} ins({out_name}x : {xt}) "
          f"outs({out_name}s0 : {kt_f}) {{")
        e("    ^bb0(%a: f32, %acc: f32):")
        e("      %y = arith.addf %acc, %a : f32")
        e("      linalg.yield %y : f32")
        e(f"    }} -> {kt_f}")
    kft = ttype(cfg.k_shape(), "f32")
    vft = ttype(cfg.v_shape(), "f32")
    res = []
    for src, ft, t, shape in (("%dqf", qft, qt, cfg.q_shape()),
                              ("%dkf", kft, kt, cfg.k_shape()),
                              ("%dvf", vft, vt, cfg.v_shape())):
        if et == "f32":
            res.append(src)
            continue
        e(f"    {src}t = arith.truncf {src} : {ft} to {t}")
        res.append(f"{src}t")
    e(f"    return {', '.join(res)} : {qt}, {kt}, {vt}")
    e("  }")
    return "\n".join(out)


def grad_check_program(cfg, tol=2e-5, digest=False):
    """@main: pseudo-random q, k, v, dO (and mask); o and lse from the unfused
    forward; dq, dk, dv of flash.attention_grad vs the unfused backward."""
    return "\n".join(["module {", reference_func(cfg), fused_grad_func(cfg),
                      reference_grad_func(cfg), "  func.func @main() {",
                      _grad_check_body(cfg, tol, digest=digest), "  }", "}"])


def _grad_check_body(cfg, tol, ref="reference", ref_grad="reference_grad",
                     digest=False):
    b = Builder()
    q = _fill_random(b, cfg.q_shape(), cfg.dtype, 1, cfg.amp)
    k = _fill_random(b, cfg.k_shape(), cfg.dtype, 2, cfg.amp)
    v = _fill_random(b, cfg.v_shape(), cfg.dtype, 3, 1.0)
    do = _fill_random(b, cfg.o_shape(), cfg.dtype, 5, 1.0)
    fwd_args = [q, k, v]
    fwd_types = [ttype(cfg.q_shape(), cfg.dtype), ttype(cfg.k_shape(), cfg.dtype),
                 ttype(cfg.v_shape(), cfg.dtype)]
    m = None
    if cfg.mask != "none":
        m = _fill_random(b, cfg.mask_shape(), cfg.dtype, 4, 2.0,
                         kind="bool" if cfg.mask == "bool" else "float")
        m = _mask_special_rows(b, m, cfg)
        fwd_args.append(m)
        fwd_types.append(ttype(cfg.mask_shape(), cfg.mask_type()))
    ot = ttype(cfg.o_shape(), cfg.dtype)
    lt = ttype(cfg.lse_shape(), "f32")
    cn, ct = _capture_consts(b, cfg)
    fwd_args, fwd_types = fwd_args + cn, fwd_types + ct
    b.emit(f"%fw:2 = func.call @{ref}({', '.join(fwd_args)}) : "
           f"({', '.join(fwd_types)}) -> ({ot}, {lt})")
    gargs = [q, k, v, "%fw#0", "%fw#1", do] + ([m] if m else []) + cn
    gts = _grad_arg_types(cfg)
    rts = ", ".join(gts[:3])
    fargs, fts = list(gargs), list(gts)
    if cfg.dynamic:
        fts = _grad_arg_types(cfg, dynamic=True)
        for i, (a, t, dt) in enumerate(zip(gargs, gts, fts)):
            if t != dt:
                c = b.fresh("dc")
                b.emit(f"{c} = tensor.cast {a} : {t} to {dt}")
                fargs[i] = c
    frts = ", ".join(fts[:3])
    b.emit(f"%gd:3 = func.call @fused_grad({', '.join(fargs)}) : "
           f"({', '.join(fts)}) -> ({frts})")
    for i in range(3):
        b.emit(f"%g{i} = tensor.cast %gd#{i} : {fts[i]} to {gts[i]}")
    # (a cast between equal types is a no-op)
    b.emit(f"%h:3 = func.call @{ref_grad}({', '.join(gargs)}) : "
           f"({', '.join(gts)}) -> ({rts})")
    if digest:
        for idx, (nm, shape) in enumerate((("dq", cfg.q_shape()),
                                           ("dk", cfg.k_shape()),
                                           ("dv", cfg.v_shape()))):
            _digest(b, f"%g{idx}", shape, cfg.dtype, nm)
    b.emit(f"%tol = arith.constant {_fconst(tol)} : f32")
    oks = []
    for idx, (nm, shape) in enumerate((("dq", cfg.q_shape()),
                                       ("dk", cfg.k_shape()),
                                       ("dv", cfg.v_shape()))):
        err = _max_err(b, f"%g{idx}", f"%h#{idx}", shape, cfg.dtype, nm)
        b.emit(f'vector.print str "{nm}_err: "')
        b.emit(f"vector.print {err} : f32")
        ok = b.fresh("ok")
        gtol = _scaled_tol(b, "%tol", f"%h#{idx}", shape, cfg.dtype)
        b.emit(f"{ok} = arith.cmpf ole, {err}, {gtol} : f32")
        oks.append(ok)
    b.emit(f"%a1 = arith.andi {oks[0]}, {oks[1]} : i1")
    b.emit(f"%a2 = arith.andi %a1, {oks[2]} : i1")
    b.emit('vector.print str "ok: "')
    b.emit("vector.print %a2 : i1")
    b.emit("return")
    return b.text()


if __name__ == "__main__":
    cfg, a = parse_config()
    if a.shapes:
        # One dynamic-length kernel checked at several (Nq, Nk); the
        # generated modifier regions bake in Nk - Nq (bottom-right windows,
        # ALiBi) or N (segment ids).
        if cfg.window or cfg.alibi or cfg.segments or cfg.chunk:
            raise SystemExit("--shapes takes no --window, --alibi, --segments")
        cfgs = []
        for pair in a.shapes.split(","):
            nq, nk = (int(x) for x in pair.split(":"))
            cfgs.append(dataclasses.replace(
                cfg, nq=nq, nk=nk,
                dynamic="keys" if a.dynamic_keys else True))
        if a.dynamic_keys and len({c.nq for c in cfgs}) != 1:
            raise SystemExit("--dynamic-keys --shapes needs one nq")
        print(multi_check_program(cfgs, a.tol, a.lse_tol, grad=a.grad))
    elif a.grad:
        print(grad_check_program(cfg, a.tol, digest=a.digest))
    else:
        print(check_program(cfg, a.tol, a.lse_tol, digest=a.digest))
