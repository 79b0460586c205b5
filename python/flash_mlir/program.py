"""The MLIR of an attention configuration: `flash.attention` and
`flash.attention_grad` functions (with their score_mod / mask_mod regions)
for a Config. What the Python front compiles; the unfused references and
self-checking drivers of the tests and benchmarks are utils/mlirgen.py,
outside the package.
"""

import math
from dataclasses import dataclass, field
from typing import List, Optional


@dataclass
class Config:
    batch: List[int] = field(default_factory=list)  # leading batch dims
    hq: Optional[int] = None  # None: no heads dim (rank = len(batch) + 2)
    hkv: Optional[int] = None
    nq: int = 64
    nk: int = 64
    d: int = 32
    dv: Optional[int] = None
    dtype: str = "f32"
    causal: bool = False
    causal_offset: Optional[int] = None
    mask: str = "none"  # none | add | bool
    mask_bcast: bool = True  # mask [Nq, Nk] broadcast over batch/heads
    lse: bool = True
    scale: Optional[float] = None
    amp: float = 1.0  # input amplitude (logits grow as amp^2 * d * scale)
    # Dynamic sequence lengths in the fused function: True (Nq and Nk) or
    # "keys" (Nk only: decode, one kernel for every cache length).
    dynamic: object = False
    deterministic: bool = False  # flash.attention_grad's attribute
    # Modifiers (score_mod / mask_mod regions): a window (left, right; -1 =
    # unbounded) around key i + off, tanh soft-capping, ALiBi (-slope_h
    # |i + off - j|, slopes captured), document masks (segment ids of
    # queries and keys captured, `segments` documents each).
    window: Optional[tuple] = None
    # Chunked attention (Llama 4): keys of the query's chunk of `chunk`
    # positions only, (i + off) / chunk == j / chunk (a mask_mod whose
    # equality the raise and the kernels read as two bounds / a block mask).
    chunk: int = 0
    softcap: Optional[float] = None
    alibi: bool = False
    # T5's relative-position bias: a table [t5_buckets, Hq] (captured)
    # read at the bidirectional log bucket of j - i (max_distance 128),
    # as HF's T5Attention computes it (f32 log, fptosi, min, where).
    t5_buckets: int = 0
    segments: int = 0
    # Segment ids per sequence of the first batch dim ([B, N]), not shared.
    seg_batched: bool = False
    # Segment ids per query head ([Hq, N]): a mask_mod that reads the head.
    seg_heads: bool = False
    # The document mask spelled seg_q[i] - seg_k[j] == 0.
    seg_diff: bool = False
    # The segment ids' length dim dynamic in the fused op (varlen packing
    # as frontends capture it: tensor<?xi32>, tensor<Bx?xi32>).
    seg_dynamic: bool = False
    # The window's and ALiBi's diagonal offset `off`: False, Nk - Nq
    # (FlashAttention's bottom-right alignment, folded in); True, a captured
    # i64 [1] read at run time (one kernel for every offset: a ring's steps).
    mod_offset: bool = False
    # fp8 (dtype "f8E4M3FN"): the dequantization factors, "none" (1), one
    # per tensor ("tensor") or per batch and kv head ("head"); o is bf16.
    descale: str = "none"

    def __post_init__(self):
        if self.dv is None:
            self.dv = self.d
        if self.hq is not None and self.hkv is None:
            self.hkv = self.hq

    # Shapes -----------------------------------------------------------------
    def lead(self, kv=False):
        heads = [] if self.hq is None else [self.hkv if kv else self.hq]
        return list(self.batch) + heads

    def q_shape(self):
        return self.lead() + [self.nq, self.d]

    def k_shape(self):
        return self.lead(True) + [self.nk, self.d]

    def v_shape(self):
        return self.lead(True) + [self.nk, self.dv]

    def o_shape(self):
        return self.lead() + [self.nq, self.dv]

    def lse_shape(self):
        return self.lead() + [self.nq]

    def mask_shape(self):
        if self.mask_bcast:
            return [self.nq, self.nk]
        return self.lead() + [self.nq, self.nk]

    def mask_type(self):
        return "i1" if self.mask == "bool" else self.out_dtype()

    def is_fp8(self):
        return self.dtype == "f8E4M3FN"

    def out_dtype(self):
        """o's element type (and an additive mask's): fp8 ops write bf16."""
        return "bf16" if self.is_fp8() else self.dtype

    def descale_shape(self):
        return [] if self.descale == "tensor" else self.lead(True)

    def scale_value(self):
        return self.scale if self.scale is not None else 1.0 / math.sqrt(self.d)

    def offset_value(self):
        if self.causal_offset is not None:
            return self.causal_offset
        return self.nk - self.nq


def ttype(shape, elt, dyn_dims=()):
    dims = ["?" if i in dyn_dims else str(s) for i, s in enumerate(shape)]
    return "tensor<" + "x".join(dims + [elt]) + ">"


def _fconst(x):
    return f"{float(x):.9e}"


def _captures(cfg):
    """[(name, type, constant initializer)] of the captured operands."""
    out = []
    if cfg.alibi:
        h = cfg.hq
        sl = [2.0 ** (-8.0 * (t + 1) / h) for t in range(h)]
        out.append(("%slopes", f"tensor<{h}xf32>",
                    "dense<[" + ", ".join(_fconst(x) for x in sl) + "]>"))
    if cfg.segments:
        nb = (cfg.batch[0] if cfg.seg_batched
              else cfg.hq if cfg.seg_heads else None)

        def ids(n):
            # Sequence b's documents start b positions later.
            rows = [[(t + b) * cfg.segments // (n + b) for t in range(n)]
                    for b in range(nb or 1)]
            txt = ["[" + ", ".join(map(str, r)) + "]" for r in rows]
            m = "?" if cfg.seg_dynamic else n
            return (f"dense<[{', '.join(txt)}]>" if nb else f"dense<{txt[0]}>",
                    f"tensor<{nb}x{m}xi32>" if nb else f"tensor<{m}xi32>")
        for name, n in (("%segq", cfg.nq), ("%segk", cfg.nk)):
            init, t = ids(n)
            out.append((name, t, init))
    if cfg.mod_offset:
        out.append(("%modoff", "tensor<1xi64>", f"dense<[{cfg.nk - cfg.nq}]>"))
    if cfg.t5_buckets:
        nb, h = cfg.t5_buckets, cfg.hq or 1
        rows = ["[" + ", ".join(_fconst(((7 * b + 3 * t) % 11 - 5) * 0.3)
                                for t in range(h)) + "]" for b in range(nb)]
        out.append(("%t5tab", f"tensor<{nb}x{h}xf32>",
                    "dense<[" + ", ".join(rows) + "]>"))
    return out


def _descales(cfg):
    """[(name, type)] of an fp8 op's descale operands (none without)."""
    if not cfg.is_fp8() or cfg.descale == "none":
        return []
    t = ttype(cfg.descale_shape(), "f32")
    return [("%qd", t), ("%kd", t), ("%vd", t)]


def _emit_mod_offset(e, cfg, cap, p):
    """Emits the window's and ALiBi's diagonal offset as an index (SSA
    names prefixed `p`): the default Nk - Nq (the one place that says so)
    or the captured run-time offset."""
    if not cfg.mod_offset:
        e(f"      %{p}o = arith.constant {cfg.nk - cfg.nq} : index")
        return f"%{p}o"
    e(f"      %{p}z = arith.constant 0 : index")
    x = cap("%modoff", f"%{p}z")
    e(f"      %{p}o = arith.index_cast {x} : i64 to index")
    return f"%{p}o"


def _emit_t5_bucket(e, cfg, i, j):
    """Emits T5's bidirectional bucket of j - i as an index; returns it."""
    nb = cfg.t5_buckets // 2
    me = nb // 2
    e(f"      %tbr = arith.subi {j}, {i} : index")
    e("      %tbq = arith.index_cast %tbr : index to i64")
    e("      %tbz = arith.constant 0 : i64")
    e("      %tbp = arith.cmpi sgt, %tbq, %tbz : i64")
    e("      %tbe = arith.extui %tbp : i1 to i64")
    e(f"      %tbh = arith.constant {nb} : i64")
    e("      %tbs = arith.muli %tbe, %tbh : i64")
    e("      %tbn = math.absi %tbq : i64")
    e(f"      %tbm = arith.constant {me} : i64")
    e("      %tbsm = arith.cmpi slt, %tbn, %tbm : i64")
    e("      %tbf = arith.sitofp %tbn : i64 to f32")
    e(f"      %tbmf = arith.constant {_fconst(me)} : f32")
    e("      %tbx = arith.divf %tbf, %tbmf : f32")
    e("      %tbl = math.log %tbx : f32")
    e(f"      %tbd = arith.constant {_fconst(math.log(128 / me))} : f32")
    e("      %tby = arith.divf %tbl, %tbd : f32")
    e(f"      %tbk = arith.constant {_fconst(nb - me)} : f32")
    e("      %tbyk = arith.mulf %tby, %tbk : f32")
    e("      %tbi = arith.fptosi %tbyk : f32 to i64")
    e("      %tbla = arith.addi %tbi, %tbm : i64")
    e(f"      %tbcap = arith.constant {nb - 1} : i64")
    e("      %tblm = arith.minsi %tbla, %tbcap : i64")
    e("      %tbw = arith.select %tbsm, %tbn, %tblm : i64")
    e("      %tbb = arith.addi %tbs, %tbw : i64")
    e("      %tbix = arith.index_cast %tbb : i64 to index")
    return "%tbix"


def _emit_score_mod(e, cfg, s, h, i, j, cap):
    """Emits c * tanh(s / c), the ALiBi bias and T5's relative-position
    bias; returns the value."""
    cur = s
    if cfg.softcap:
        e(f"      %scc = arith.constant {_fconst(cfg.softcap)} : f32")
        e(f"      %scx = arith.divf {cur}, %scc : f32")
        e("      %sct = math.tanh %scx : f32")
        e("      %scy = arith.mulf %scc, %sct : f32")
        cur = "%scy"
    if cfg.alibi:
        off = _emit_mod_offset(e, cfg, cap, "al")
        e(f"      %alp = arith.addi {i}, {off} : index")
        e(f"      %ald = arith.subi %alp, {j} : index")
        e("      %aln = arith.constant 0 : index")
        e(f"      %alm = arith.subi %aln, %ald : index")
        e("      %ala = arith.maxsi %ald, %alm : index")
        e("      %ali = arith.index_cast %ala : index to i64")
        e("      %alf = arith.sitofp %ali : i64 to f32")
        e(f"      %alb = arith.mulf {cap('%slopes', h)}, %alf : f32")
        e(f"      %aly = arith.subf {cur}, %alb : f32")
        cur = "%aly"
    if cfg.t5_buckets:
        bk = _emit_t5_bucket(e, cfg, i, j)
        if h is None:
            e("      %tbh0 = arith.constant 0 : index")
            h = "%tbh0"
        e(f"      %tby2 = arith.addf {cur}, {cap('%t5tab', f'{bk}, {h}')} : f32")
        cur = "%tby2"
    return cur


def _emit_mask_mod(e, cfg, i, j, cap, lead0=None, head=None):
    """Emits the window / document predicate; returns the i1 (or None)."""
    conds = []
    if cfg.chunk:
        off = _emit_mod_offset(e, cfg, cap, "ch")
        e(f"      %chi = arith.addi {i}, {off} : index")
        e(f"      %chc = arith.constant {cfg.chunk} : index")
        e("      %chq = arith.floordivsi %chi, %chc : index")
        e(f"      %chk = arith.floordivsi {j}, %chc : index")
        e("      %chs = arith.cmpi eq, %chq, %chk : index")
        conds.append("%chs")
    if cfg.window:
        left, right = cfg.window
        off = _emit_mod_offset(e, cfg, cap, "wd")
        e(f"      %wi = arith.addi {i}, {off} : index")
        if left != -1:
            e(f"      %wlo = arith.constant {left} : index")
            e("      %wl = arith.subi %wi, %wlo : index")
            e(f"      %wkl = arith.cmpi sge, {j}, %wl : index")
            conds.append("%wkl")
        if right != -1:
            e(f"      %whi = arith.constant {right} : index")
            e("      %wh = arith.addi %wi, %whi : index")
            e(f"      %wkh = arith.cmpi sle, {j}, %wh : index")
            conds.append("%wkh")
    if cfg.segments:
        b = (f"{lead0}, " if cfg.seg_batched
             else f"{head}, " if cfg.seg_heads else "")
        sq, sk = cap('%segq', b + i), cap('%segk', b + j)
        if cfg.seg_diff:
            # seg_q[i] - seg_k[j] == 0: one side depends on both positions.
            e(f"      %dsd = arith.subi {sq}, {sk} : i32")
            e("      %dsz = arith.constant 0 : i32")
            e("      %dsq = arith.cmpi eq, %dsd, %dsz : i32")
        else:
            e(f"      %dsq = arith.cmpi eq, {sq}, {sk} : i32")
        conds.append("%dsq")
    if not conds:
        return None
    cur = conds[0]
    for t, c in enumerate(conds[1:]):
        e(f"      %mka{t} = arith.andi {cur}, {c} : i1")
        cur = f"%mka{t}"
    return cur


def _mod_regions(cfg):
    """The ` captures(...)` part and the regions' text of a fused op."""
    caps = _captures(cfg)
    cap_part = ""
    if caps:
        cap_part = (" captures(" + ", ".join(c[0] for c in caps) + " : " +
                    ", ".join(c[1] for c in caps) + ")")
    rank = len(cfg.q_shape())
    idx = [f"%x{t}" for t in range(rank)]
    h, i, j = (idx[rank - 3] if rank >= 3 else None), idx[-2], idx[-1]
    cap_args = [(f"{c[0]}_a", c[1]) for c in caps]
    names = {c[0]: f"{c[0]}_a" for c in caps}
    lines = []
    e = lines.append
    counter = [0]

    def cap(name, index):
        counter[0] += 1
        v = f"%cx{counter[0]}"
        t = dict((c[0], c[1]) for c in caps)[name]
        e(f"      {v} = tensor.extract {names[name]}[{index}] : {t}")
        return v

    sig = ", ".join([f"{x}: index" for x in idx] +
                    [f"{a}: {t}" for a, t in cap_args])
    if cfg.softcap or cfg.alibi or cfg.t5_buckets:
        e("    score_mod {")
        e(f"    ^bb0(%ms: f32, {sig}):")
        y = _emit_score_mod(e, cfg, "%ms", h, i, j, cap)
        e(f"      flash.yield {y} : f32")
        e("    }")
    if cfg.window or cfg.segments or cfg.chunk:
        e("    mask_mod {")
        e(f"    ^bb0({sig}):")
        y = _emit_mask_mod(e, cfg, i, j, cap, lead0=idx[0], head=h)
        e(f"      flash.yield {y} : i1")
        e("    }")
    return cap_part, "\n".join(lines)


def _dyn(cfg, operand):
    """The dynamic dims of an operand ("q": q, o, lse, dO; "k": k, v;
    "mask") in cfg.dynamic's fused function."""
    rank = len(cfg.q_shape())
    q = cfg.dynamic is True
    k = bool(cfg.dynamic)
    if operand == "mask":
        mr = len(cfg.mask_shape())
        return ((mr - 2,) if q else ()) + ((mr - 1,) if k else ())
    return (rank - 2,) if (q if operand == "q" else k) else ()


def fused_func(cfg, name="fused"):
    et = cfg.dtype
    rank = len(cfg.q_shape())
    dyn, kdyn = _dyn(cfg, "q"), _dyn(cfg, "k")
    qt = ttype(cfg.q_shape(), et, dyn)
    kt = ttype(cfg.k_shape(), et, kdyn)
    vt = ttype(cfg.v_shape(), et, kdyn)
    ot = ttype(cfg.o_shape(), cfg.out_dtype(), dyn)
    lt = ttype(cfg.lse_shape(), "f32", dyn)
    args = [f"%q: {qt}", f"%k: {kt}", f"%v: {vt}"]
    mask_part = ""
    if cfg.mask != "none":
        # With dynamic lengths the mask's (Nq, Nk) dims are dynamic too.
        mt = ttype(cfg.mask_shape(), cfg.mask_type(), _dyn(cfg, "mask"))
        args.append(f"%m: {mt}")
        mask_part = f" mask(%m : {mt})"
    args += [f"{c[0]}: {c[1]}" for c in _captures(cfg)]
    cap_part, regions = _mod_regions(cfg)
    ds = _descales(cfg)
    args += [f"{n}: {t}" for n, t in ds]
    if ds:
        cap_part += (" descale(" + ", ".join(n for n, _ in ds) + " : " +
                     ", ".join(t for _, t in ds) + ")")
    rets = [ot] + ([lt] if cfg.lse else [])
    lines = [f"  func.func @{name}({', '.join(args)}) -> ({', '.join(rets)}) {{"]
    lines.append("    %c0 = arith.constant 0 : index")
    if dyn:
        lines.append(f"    %nq = tensor.dim %q, %c{rank - 2} : {qt}"
                     .replace(f"%c{rank - 2}", "%cs"))
        lines.insert(1, f"    %cs = arith.constant {rank - 2} : index")
        dyn_args = "(%nq)"
    else:
        dyn_args = "()"
    lines.append(f"    %oi = tensor.empty{dyn_args} : {ot}")
    lse_part = ""
    if cfg.lse:
        lines.append(f"    %li = tensor.empty{dyn_args} : {lt}")
        lse_part = f" lse(%li : {lt})"
    attrs = []
    if cfg.scale is not None:
        attrs.append(f"scale = {_fconst(cfg.scale)} : f32")
    if cfg.causal:
        attrs.append("causal")
        if cfg.causal_offset is not None:
            attrs.append(f"causal_offset = {cfg.causal_offset} : i64")
    attr = (" {" + ", ".join(attrs) + "}") if attrs else ""
    res = "%r:2" if cfg.lse else "%r"
    lines.append(f"    {res} = flash.attention ins(%q, %k, %v : {qt}, {kt}, {vt})"
                 f"{mask_part}{cap_part} outs(%oi : {ot}){lse_part}{attr} -> "
                 f"{', '.join(rets)}")
    if regions:
        lines.append(regions)
    if cfg.lse:
        lines.append(f"    return %r#0, %r#1 : {ot}, {lt}")
    else:
        lines.append(f"    return %r : {ot}")
    lines.append("  }")
    return "\n".join(lines)


# The unfused reference ----------------------------------------------------


def _grad_arg_types(cfg, dynamic=False):
    """The types of flash.attention_grad's operands; with `dynamic`, the
    sequence lengths dynamic as cfg.dynamic says (its fused function)."""
    et = cfg.dtype
    dq = _dyn(cfg, "q") if dynamic else ()
    dk = _dyn(cfg, "k") if dynamic else ()
    ts = [ttype(cfg.q_shape(), et, dq), ttype(cfg.k_shape(), et, dk),
          ttype(cfg.v_shape(), et, dk), ttype(cfg.o_shape(), et, dq),
          ttype(cfg.lse_shape(), "f32", dq), ttype(cfg.o_shape(), et, dq)]
    if cfg.mask != "none":
        ts.append(ttype(cfg.mask_shape(), cfg.mask_type(),
                        _dyn(cfg, "mask") if dynamic else ()))
    ts += [c[1] for c in _captures(cfg)]
    return ts


def fused_grad_func(cfg, name="fused_grad"):
    ts = _grad_arg_types(cfg, cfg.dynamic)
    names = ["%q", "%k", "%v", "%o", "%lse", "%do"] + (
        ["%m"] if cfg.mask != "none" else []) + [c[0] for c in _captures(cfg)]
    qt, kt, vt = ts[0], ts[1], ts[2]
    cap_part, regions = _mod_regions(cfg)
    attrs = []
    if cfg.scale is not None:
        attrs.append(f"scale = {_fconst(cfg.scale)} : f32")
    if cfg.causal:
        attrs.append("causal")
        if cfg.causal_offset is not None:
            attrs.append(f"causal_offset = {cfg.causal_offset} : i64")
    if cfg.deterministic:
        attrs.append("deterministic")
    attr = (" {" + ", ".join(attrs) + "}") if attrs else ""
    mask_part = f" mask(%m : {ts[6]})" if cfg.mask != "none" else ""
    rank = len(cfg.q_shape())
    empty = ["()", "()"]
    dims = []
    if cfg.dynamic:
        dims = [f"    %cs = arith.constant {rank - 2} : index",
                f"    %nk = tensor.dim %k, %cs : {kt}"]
        empty = ["()", "(%nk)"]
    if cfg.dynamic is True:
        dims.append(f"    %nq = tensor.dim %q, %cs : {qt}")
        empty[0] = "(%nq)"
    lines = [f"  func.func @{name}({', '.join(f'{n}: {t}' for n, t in zip(names, ts))})"
             f" -> ({qt}, {kt}, {vt}) {{"] + dims + [
             f"    %dq0 = tensor.empty{empty[0]} : {qt}",
             f"    %dk0 = tensor.empty{empty[1]} : {kt}",
             f"    %dv0 = tensor.empty{empty[1]} : {vt}",
             f"    %r:3 = flash.attention_grad ins(%q, %k, %v, %o, %lse, %do : "
             f"{', '.join(ts[:6])}){mask_part}{cap_part} outs(%dq0, %dk0, %dv0 : "
             f"{qt}, {kt}, {vt}){attr} -> {qt}, {kt}, {vt}"] + (
                 [regions] if regions else []) + [
             f"    return %r#0, %r#1, %r#2 : {qt}, {kt}, {vt}",
             "  }"]
    return "\n".join(lines)
