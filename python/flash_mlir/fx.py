"""Find attention in PyTorch FX graphs with flash-opt's raise, and replace it
by `torch.ops.flash_mlir.attention`.

There is no list of FX spellings here. For every softmax in the graph:

1. the subgraph around it is exported to linalg MLIR: the probabilities'
   consumer (the product with V: matmul / bmm / einsum), and everything it
   depends on through exportable ops (products, transposes, views,
   broadcasts, GQA repeats, scalar arithmetic, masks, casts, dropout that
   is off), up to leaves (the graph's inputs, projections, buffers, any op
   this exporter does not know), which become the function's arguments;
2. `flash-opt --flash-raise-attention=report=true` proves (or not) that the
   function computes attention; its remark says why not;
3. the raised function (views of the arguments, `flash.attention`, views of
   its result) is read back into FX nodes: torch views and the custom op
   with the attributes the raise proved (scale, causal and its offset, the
   mask operand, the GQA head mapping).

`fuse_attention(gm, example_inputs)` does this in place and returns a report
per softmax; `backend` is a `torch.compile` backend that fuses and hands the
graph to Inductor. Raise results are cached (by the exported text) next to
the kernels (FLASH_MLIR_CACHE); a machine without flash-opt records what it
needs under the cache's pending/ directory (see flash_mlir.offline).
"""

import hashlib
import json
import math
import operator
import os
import re
import subprocess
import tempfile

import torch
import torch.fx

from . import ops  # noqa: F401  (registers torch.ops.flash_mlir)

__all__ = ["fuse_attention", "backend", "Report", "export_region"]

_DT = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16",
       torch.float64: "f64", torch.bool: "i1", torch.int64: "i64",
       torch.int32: "i32", torch.int8: "i8", torch.uint8: "i8"}
_FLOAT = ("f16", "bf16", "f32", "f64")
_WIDTH = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "i1": 1, "i8": 8,
          "i32": 32, "i64": 64}
_TORCH_DT = {"f32": torch.float32, "f16": torch.float16,
             "bf16": torch.bfloat16, "f64": torch.float64, "i1": torch.bool,
             "i64": torch.int64, "i32": torch.int32}
# The most nodes one exported subgraph may have (a bound on the search).
MAX_REGION = 400


class Unsupported(Exception):
    """A node the exporter cannot express (it becomes a leaf)."""


class Report:
    """What happened to one softmax: fused (with the op's attributes) or
    not, and why (the raise's remark or the exporter's reason)."""

    def __init__(self, node, fused, reason="", attrs=None, mlir=None):
        self.node, self.fused, self.reason = node, fused, reason
        self.attrs, self.mlir = attrs or {}, mlir

    def __repr__(self):
        what = "fused" if self.fused else "not fused"
        detail = self.attrs if self.fused else self.reason
        return f"<{self.node}: {what}: {detail}>"


# --- node values: shapes and dtypes ----------------------------------------

def _meta(node):
    """(shape, dtype) of a tensor node, a Python value, or raises KeyError."""
    for key in ("val", "example_value", "flash_val"):
        if key in node.meta:
            v = node.meta[key]
            if isinstance(v, torch.Tensor):
                return tuple(int(s) for s in v.shape), v.dtype
            return v
    tm = node.meta.get("tensor_meta")
    if tm is not None and hasattr(tm, "shape"):
        return tuple(int(s) for s in tm.shape), tm.dtype
    raise KeyError(node.name)


def _propagate(gm, example_inputs):
    """Records every node's value (shape and dtype of tensors) by running
    the graph once on the example inputs."""

    class Recorder(torch.fx.Interpreter):
        def run_node(self, n):
            v = super().run_node(n)
            if isinstance(v, torch.Tensor):
                n.meta["flash_val"] = torch.empty(0).new_empty(
                    v.shape, dtype=v.dtype, device="meta")
            elif isinstance(v, (int, float, bool, torch.Size, tuple, list)):
                n.meta["flash_val"] = v
            return v

    with torch.no_grad():
        Recorder(gm).run(*example_inputs)


def _tensor(node):
    if not isinstance(node, torch.fx.Node):
        raise Unsupported("not a tensor")
    try:
        m = _meta(node)
    except KeyError:
        raise Unsupported(f"no shape for {node.name}") from None
    if not (isinstance(m, tuple) and len(m) == 2
            and isinstance(m[1], torch.dtype)):
        raise Unsupported(f"{node.name} is not a tensor")
    shape, dt = m
    if dt not in _DT:
        raise Unsupported(f"element type {dt}")
    return shape, _DT[dt]


# The bits of -inf and +inf, as MLIR writes non-finite float literals.
_INF_BITS = {"f32": ("0xFF800000", "0x7F800000"),
             "f16": ("0xFC00", "0x7C00"),
             "bf16": ("0xFF80", "0x7F80"),
             "f64": ("0xFFF0000000000000", "0x7FF0000000000000")}


def _const(x):
    """A Python value of the graph (a node whose value is a number)."""
    if isinstance(x, torch.fx.Node):
        try:
            m = _meta(x)
        except KeyError:
            raise Unsupported(f"unknown value {x.name}") from None
        if isinstance(m, (int, float, bool)):
            return m
        raise Unsupported(f"{x.name} is not a constant")
    return x


# --- MLIR text --------------------------------------------------------------

def _ttype(shape, dt):
    return "tensor<" + "".join(f"{s}x" for s in shape) + dt + ">"


class _Val:
    def __init__(self, name, shape, dt, splat=None):
        self.name, self.shape, self.dt = name, tuple(shape), dt
        self.splat = splat   # the value of a filled constant

    @property
    def type(self):
        return _ttype(self.shape, self.dt)


def _cast(b, x, src, dst):
    """Scalar cast in a generic body: returns the new SSA name."""
    if src == dst:
        return x
    if src in _FLOAT and dst in _FLOAT:
        op = "arith.extf" if _WIDTH[dst] > _WIDTH[src] else "arith.truncf"
        if {src, dst} == {"f16", "bf16"}:
            y = b.tmp()
            b.line(f"{y} = arith.extf {x} : {src} to f32")
            return _cast(b, y, "f32", dst)
    elif src == "i1" and dst in _FLOAT:
        op = "arith.uitofp"
    elif src in _FLOAT:
        if dst == "i1":
            z = b.scalar(0.0, src)
            y = b.tmp()
            b.line(f"{y} = arith.cmpf une, {x}, {z} : {src}")
            return y
        op = "arith.fptosi"
    elif dst in _FLOAT:
        op = "arith.sitofp"
    elif dst == "i1":
        z = b.scalar(0, src)
        y = b.tmp()
        b.line(f"{y} = arith.cmpi ne, {x}, {z} : {src}")
        return y
    elif src == "i1":
        op = "arith.extui"
    else:
        op = "arith.extsi" if _WIDTH[dst] > _WIDTH[src] else "arith.trunci"
    y = b.tmp()
    b.line(f"{y} = {op} {x} : {src} to {dst}")
    return y


class _Body:
    """The scalar body of a linalg.generic being written."""

    def __init__(self, em):
        self.em, self.lines = em, []

    def tmp(self):
        return self.em.fresh("x")

    def line(self, s):
        self.lines.append(s)

    def scalar(self, value, dt):
        y = self.tmp()
        if dt in _FLOAT:
            v = float(value)
            if math.isinf(v):
                lit = {"f32": "0xFF800000", "f16": "0xFC00", "bf16": "0xFF80",
                       "f64": "0xFFF0000000000000"}[dt] if v < 0 else {
                       "f32": "0x7F800000", "f16": "0x7C00",
                       "bf16": "0x7F80", "f64": "0x7FF0000000000000"}[dt]
            elif math.isnan(v):
                raise Unsupported("NaN constant")
            else:
                lit = repr(v) if "e" in repr(v) or "." in repr(v) \
                    else repr(v) + ".0"
            self.line(f"{y} = arith.constant {lit} : {dt}")
        elif dt == "i1":
            self.line(f"{y} = arith.constant {'true' if value else 'false'}")
        else:
            self.line(f"{y} = arith.constant {int(value)} : {dt}")
        return y


def _compare_positions(b, rank, c, pred):
    """In a generic body over `rank` loops: (j pred i + c) for the last two
    loops (i, j)."""
    i, j, d, ii, keep = (b.tmp() for _ in range(5))
    b.line(f"{i} = linalg.index {rank - 2} : index")
    b.line(f"{j} = linalg.index {rank - 1} : index")
    b.line(f"{d} = arith.constant {int(c)} : index")
    b.line(f"{ii} = arith.addi {i}, {d} : index")
    b.line(f"{keep} = arith.cmpi {pred}, {j}, {ii} : index")
    return keep


class _Emitter:
    def __init__(self):
        self.lines, self.n = [], 0

    def fresh(self, p="v"):
        self.n += 1
        return f"%{p}{self.n}"

    def empty(self, shape, dt):
        e = self.fresh("e")
        self.lines.append(f"{e} = tensor.empty() : {_ttype(shape, dt)}")
        return e

    def generic(self, ins, maps, shape, dt, body, reductions=(), init=None):
        """linalg.generic over loops d0..d(n-1) (n = len(shape) + number of
        reductions; the output indexed by the first len(shape)); `maps`: the
        inputs' index expressions; body(b, args) -> the result's SSA name."""
        n = len(shape) + len(reductions)
        dims = ", ".join(f"d{i}" for i in range(n))
        out_map = ", ".join(f"d{i}" for i in range(len(shape)))
        amaps = [f"affine_map<({dims}) -> ({', '.join(m)})>" for m in maps]
        amaps.append(f"affine_map<({dims}) -> ({out_map})>")
        its = ", ".join(['"parallel"'] * len(shape) +
                        ['"reduction"'] * len(reductions))
        out = init if init is not None else self.empty(shape, dt)
        b = _Body(self)
        args = [self.fresh("a") for _ in ins]
        acc = self.fresh("a")
        res = body(b, args, acc)
        r = self.fresh()
        ins_s = ", ".join(v.name for v in ins)
        ins_t = ", ".join(v.type for v in ins)
        head = (f"{r} = linalg.generic {{indexing_maps = [{', '.join(amaps)}], "
                f"iterator_types = [{its}]}}")
        if ins:
            head += f" ins({ins_s} : {ins_t})"
        head += f" outs({out} : {_ttype(shape, dt)}) {{"
        self.lines.append(head)
        bb = ", ".join(f"{a}: {v.dt}" for a, v in zip(args, ins))
        self.lines.append(f"^bb0({bb + ', ' if bb else ''}{acc}: {dt}):")
        self.lines += ["  " + l for l in b.lines]
        self.lines.append(f"  linalg.yield {res} : {dt}")
        self.lines.append(f"}} -> {_ttype(shape, dt)}")
        return _Val(r, shape, dt)


def _bmap(shape, out):
    """An input's index expressions broadcast (numpy rules) to `out`."""
    r, R = len(shape), len(out)
    return [("0" if s == 1 and out[R - r + k] != 1 else f"d{R - r + k}")
            for k, s in enumerate(shape)]


def _reassociation(src, dst):
    """Groups for collapse (src -> dst) or expand, or None."""
    if len(src) == len(dst):
        return None
    big, small = (src, dst) if len(src) > len(dst) else (dst, src)
    groups, i = [], 0
    for s in small:
        g, p = [], 1
        while i < len(big) and (p < s or not g or (big[i] == 1 and p == s
                                                  and len(groups) ==
                                                  len(small) - 1)):
            p *= big[i]
            g.append(i)
            i += 1
        if p != s:
            return None
        groups.append(g)
    while i < len(big) and groups and big[i] == 1:
        groups[-1].append(i)
        i += 1
    if i != len(big) or not groups:
        return None
    return groups


# --- the exporter -----------------------------------------------------------

def _target_name(n):
    """The op's name without its namespace: torch functions, Tensor
    methods, operator's functions and aten overloads ("aten::bmm" -> bmm)
    share one spelling."""
    t = n.target
    if n.op == "call_method":
        return t.strip("_")
    if n.op != "call_function":
        return None
    schema = getattr(t, "_schema", None)
    if schema is not None:
        return schema.name.split("::")[-1].strip("_") if not \
            schema.name.split("::")[-1].startswith("_softmax") else "softmax"
    for mod in (operator, torch, torch.nn.functional, torch.Tensor):
        for name in dir(mod):
            if getattr(mod, name, None) is t:
                return name.strip("_")
    return getattr(t, "__name__", str(t)).strip("_")


_VIEW = {"view", "reshape", "flatten", "unsqueeze", "squeeze", "view_as",
         "reshape_as", "unflatten"}
_IDENTITY = {"contiguous", "clone", "detach", "alias", "lift_fresh_copy",
             "lift_fresh"}
_CAST = {"float", "half", "bfloat16", "double", "to", "type_as", "type"}
_BINARY = {"add", "sub", "mul", "div", "truediv", "true_divide", "rsub",
           "floordiv", "iadd", "imul", "itruediv", "isub", "radd", "rmul",
           "rtruediv"}
_COMPARE = {"eq": ("oeq", "eq"), "ne": ("une", "ne"), "lt": ("olt", "slt"),
            "le": ("ole", "sle"), "gt": ("ogt", "sgt"), "ge": ("oge", "sge")}


# The ops a product's value may flow through before a binary op (the
# scores' scale, mask, bias).
_WALK = (_VIEW | _IDENTITY | _CAST | _BINARY |
         {"transpose", "permute", "t", "expand", "expand_as", "broadcast_to",
          "getitem", "repeat_interleave", "neg", "exp", "tanh", "masked_fill",
          "where", "unsafe_view", "reshape_alias", "slice", "select",
          "to_copy", "dropout", "softmax"})


class _Exporter:
    """Writes the subgraph that ends in `root` as one func.func."""

    def __init__(self, gm, root):
        self.gm, self.root = gm, root
        self.em = _Emitter()
        self.vals = {}
        self.args = []   # leaves, in argument order
        self.why = {}    # leaf -> why it is not exported
        self.count = 0

    def value(self, n):
        if n in self.vals:
            return self.vals[n]
        self.count += 1
        if self.count > MAX_REGION:
            raise Unsupported("the subgraph is too large")
        try:
            v = self.node(n)
        except Unsupported as e:
            if n is self.root:
                raise
            self.why[n.name] = str(e)
            v = self.leaf(n)
        self.vals[n] = v
        return v

    def leaf(self, n):
        shape, dt = _tensor(n)
        v = _Val(f"%arg{len(self.args)}", shape, dt)
        self.args.append(n)
        return v

    def operand(self, x):
        if isinstance(x, torch.fx.Node):
            try:
                _tensor(x)
            except Unsupported:
                return _const(x)
            return self.value(x)
        if isinstance(x, (int, float, bool)):
            return x
        raise Unsupported(f"operand {x!r}")

    # One method per kind of node; each raises Unsupported to make a leaf.
    def node(self, n):
        if n.op == "get_attr":
            return self.constant(n)
        if n.op in ("placeholder", "output"):
            raise Unsupported(n.op)
        name = _target_name(n)
        if n.op == "call_module":
            mod = self.gm.get_submodule(n.target)
            if isinstance(mod, torch.nn.Softmax):
                return self.softmax(n, self.value(n.args[0]), mod.dim, None)
            if isinstance(mod, torch.nn.Dropout):
                if mod.training and mod.p > 0:
                    raise Unsupported("dropout in training mode")
                return self.value(n.args[0])
            if isinstance(mod, torch.nn.Identity):
                return self.value(n.args[0])
            raise Unsupported(f"module {type(mod).__name__}")
        args, kw = list(n.args), dict(n.kwargs)
        shape, dt = _tensor(n)
        if name == "softmax":
            dim = kw.get("dim", args[1] if len(args) > 1 else None)
            # (aten's third argument is half_to_float: the result's dtype
            # says the same.)
            return self.softmax(n, self.value(args[0]), dim, _TORCH_DT[dt])
        if name in ("matmul", "bmm", "mm"):
            if not self.is_root_product(n) and \
                    any(self.parameter(a) for a in args[:2]):
                raise Unsupported("a projection (a product with a "
                                  "parameter): a leaf")
            return self.matmul(self.value(args[0]), self.value(args[1]), dt)
        if name == "einsum":
            eq = args[0]
            xs = args[1:] if not (len(args) == 2 and isinstance(
                args[1], (list, tuple))) else list(args[1])
            return self.einsum(eq, [self.value(x) for x in xs], shape, dt)
        if name in ("transpose", "swapaxes"):
            x = self.value(args[0])
            a, b = (_const(args[1]) % len(x.shape),
                    _const(args[2]) % len(x.shape))
            perm = list(range(len(x.shape)))
            perm[a], perm[b] = perm[b], perm[a]
            return self.transpose(x, perm)
        if name == "permute":
            x = self.value(args[0])
            perm = args[1] if isinstance(args[1], (list, tuple)) else args[1:]
            return self.transpose(x, [_const(p) % len(x.shape) for p in perm])
        if name == "t":
            x = self.value(args[0])
            return self.transpose(x, list(range(len(x.shape)))[::-1])
        if name in _VIEW or name in ("unsafe_view", "reshape_alias"):
            return self.reshape(self.value(args[0]), shape)
        if name in ("expand", "expand_as", "broadcast_to"):
            return self.broadcast(self.value(args[0]), shape)
        if name in _IDENTITY:
            return self.value(args[0])
        if name == "dropout":
            p = kw.get("p", args[1] if len(args) > 1 else 0.5)
            training = kw.get("training", args[2] if len(args) > 2 else True)
            if _const(training) and _const(p) > 0:
                raise Unsupported("dropout in training mode")
            return self.value(args[0])
        if name in ("slice", "select"):
            x = self.value(args[0])
            dim = _const(kw.get("dim", args[1] if len(args) > 1 else 0))
            index = [slice(None)] * len(x.shape)
            if name == "select":
                index[dim % len(x.shape)] = _const(args[2])
            else:
                a = [_const(v) for v in args[2:5]]
                a += [None] * (3 - len(a))
                big = 2 ** 62
                start = a[0]
                stop = None if a[1] is not None and a[1] >= big else a[1]
                index[dim % len(x.shape)] = slice(start, stop, a[2])
            return self.getitem(x, tuple(index), shape)
        if name in _CAST or name in ("to_copy", "convert_element_type"):
            return self.elementwise([self.value(args[0])], shape, dt,
                                    lambda b, xs: xs[0])
        if name == "getitem" and isinstance(args[0], torch.fx.Node) and \
                _target_name(args[0]) in ("split", "chunk", "unbind",
                                          "split_with_sizes"):
            return self.piece(args[0], _const(args[1]), shape)
        if name == "getitem":
            return self.getitem(self.value(args[0]), args[1], shape)
        if name == "repeat_interleave":
            return self.repeat_interleave(n, args, kw, shape)
        if name in _BINARY:
            if kw.get("rounding_mode") is not None:
                raise Unsupported("division with rounding")
            if self.computed_operand(n, args[:2], dt):
                raise Unsupported("a computed operand (e.g. rotary "
                                  "embeddings): a leaf")
            return self.binary(name, [self.operand(x) for x in args[:2]],
                               shape, dt, kw.get("alpha", 1))
        if name in ("neg", "exp", "tanh", "sqrt", "rsqrt", "abs",
                    "reciprocal", "sigmoid", "log"):
            return self.unary(name, self.value(args[0]), shape, dt)
        if name == "masked_fill":
            x, m = self.value(args[0]), self.value(args[1])
            fill = _const(args[2] if len(args) > 2 else kw["value"])
            return self.elementwise([x, m], shape, dt, lambda b, xs: (
                self.select(b, xs[1], b.scalar(fill, dt), xs[0], dt)),
                casts=(dt, "i1"))
        if name == "where" and len(args) == 3:
            c, a, bb = (self.operand(x) for x in args)
            return self.elementwise([c, a, bb], shape, dt, lambda b, xs: (
                self.select(b, xs[0], xs[1], xs[2], dt)),
                casts=("i1", dt, dt))
        if name in _COMPARE:
            xs = [self.operand(x) for x in args[:2]]
            ct = self.common_type(xs)
            pred = _COMPARE[name][0 if ct in _FLOAT else 1]
            op = "arith.cmpf" if ct in _FLOAT else "arith.cmpi"

            def cmp(b, ys):
                y = b.tmp()
                b.line(f"{y} = {op} {pred}, {ys[0]}, {ys[1]} : {ct}")
                return y
            return self.elementwise(xs, shape, "i1", cmp, casts=(ct, ct))
        if name in ("logical_not", "bitwise_not", "invert"):
            x = self.value(args[0])
            if x.dt != "i1":
                raise Unsupported("bitwise not of integers")

            def inv(b, ys):
                t, y = b.scalar(True, "i1"), b.tmp()
                b.line(f"{y} = arith.xori {ys[0]}, {t} : i1")
                return y
            return self.elementwise([x], shape, "i1", inv)
        if name in ("logical_and", "and", "bitwise_and", "logical_or",
                    "or", "bitwise_or"):
            xs = [self.operand(x) for x in args[:2]]
            op = "arith.andi" if "and" in name else "arith.ori"
            if dt != "i1":
                raise Unsupported("integer bitwise ops")

            def f(b, ys):
                y = b.tmp()
                b.line(f"{y} = {op} {ys[0]}, {ys[1]} : i1")
                return y
            return self.elementwise(xs, shape, "i1", f, casts=("i1", "i1"))
        if name in ("tril", "triu"):
            return self.triangle(name, self.value(args[0]),
                                 _const(kw.get("diagonal", args[1] if
                                               len(args) > 1 else 0)), dt)
        if name in ("ones", "zeros", "full", "ones_like", "zeros_like",
                    "full_like"):
            fill = {"ones": 1, "zeros": 0, "ones_like": 1,
                    "zeros_like": 0}.get(name)
            if fill is None:
                fill = _const(kw.get("fill_value", args[-1]))
            v = self.elementwise([], shape, dt,
                                 lambda b, xs: b.scalar(fill, dt))
            v.splat = fill
            return v
        if name in ("tensor", "scalar_tensor") and not shape and \
                isinstance(args[0], (int, float, bool)):
            v = args[0]
            if isinstance(v, float) and not math.isfinite(v):
                raise Unsupported("a non-finite constant")
            t = self.elementwise([], shape, dt,
                                 lambda b, xs: b.scalar(v, dt))
            t.splat = v
            return t
        if name == "arange":
            return self.arange(args, kw, shape, dt)
        raise Unsupported(f"{name}")

    # Buffers that are not parameters are constants: the raise may prove a
    # constant mask causal (then no mask is read at all). Bounded in size.
    MAX_CONSTANT = {"i1": 1 << 22}
    MAX_CONSTANT_OTHER = 1 << 16

    def constant(self, n):
        t = self.gm
        for part in n.target.split("."):
            t = getattr(t, part)
        if not isinstance(t, torch.Tensor) or t.requires_grad or \
                isinstance(t, torch.nn.Parameter):
            raise Unsupported("get_attr")
        dt = _DT.get(t.dtype)
        if dt is None or t.dtype == torch.uint8 or t.dtype == torch.int8:
            raise Unsupported("get_attr")
        shape = tuple(t.shape)
        tri = self.triangular(t.detach().cpu(), dt)
        if tri is not None:
            return tri
        flat = t.detach().cpu().reshape(-1)
        # A splat (a zero bias, T5's cross-attention position_bias, traced
        # into a constant) is one number whatever its size.
        splat = flat.numel() and bool((flat == flat[0]).all())
        if not splat and flat.numel() > self.MAX_CONSTANT.get(
                dt, self.MAX_CONSTANT_OTHER):
            raise Unsupported("get_attr")
        if splat:
            v = flat[0].item()
            lit = ("true" if v else "false") if dt == "i1" else (
                repr(float(v)) if dt in _FLOAT else str(int(v)))
            if dt in _FLOAT and not math.isfinite(float(v)):
                # +-inf by its bits (a where(keep, s, tensor(-inf))'s fill).
                bits = _INF_BITS.get(dt)
                if bits is None or math.isnan(float(v)):
                    raise Unsupported("get_attr")
                lit = bits[0] if float(v) < 0 else bits[1]
            data = f"dense<{lit}>"
        else:
            import numpy as np
            if dt == "i1":
                raw = np.packbits(flat.numpy().astype(np.uint8),
                                  bitorder="little").tobytes()
            elif dt == "bf16":
                raw = flat.view(torch.int16).numpy().astype("<i2").tobytes()
            else:
                raw = flat.numpy().astype(flat.numpy().dtype.newbyteorder(
                    "<")).tobytes()
            data = f'dense<"0x{raw.hex().upper()}">'
        r = self.em.fresh("k")
        self.em.lines.append(f"{r} = arith.constant {data} : "
                             f"{_ttype(shape, dt)}")
        return _Val(r, shape, dt)

    def triangular(self, t, dt):
        """A constant that is a triangle, [1...,] N x M of (j <= i + c) or
        its complement (in bool, or 0 / -inf / 1 values): written as the
        index comparison that computes it (exactly the same tensor, in a
        form the raise reads as causal), else None."""
        if t.dim() < 2 or any(s != 1 for s in t.shape[:-2]) or \
                t.shape[-1] < 2 or t.shape[-2] < 2:
            return None
        m = t.reshape(t.shape[-2], t.shape[-1])
        vals = torch.unique(m)
        if vals.numel() != 2:
            return None
        hi = m == vals[1]
        nq, nk = hi.shape
        i = torch.arange(nq)[:, None]
        j = torch.arange(nk)[None, :]
        # The offset c of a lower triangle from its first row's count.
        for tri in (hi, ~hi):
            c = int(tri[0].sum()) - 1
            if c >= nk - 1 or not bool(tri[0, 0]) and c >= 0:
                continue
            if torch.equal(tri, j <= i + c):
                lo_v, hi_v = (vals[0].item(), vals[1].item())
                inside, outside = (hi_v, lo_v) if tri is hi else (lo_v, hi_v)
                return self.triangle_values(t.shape, dt, c, inside, outside)
        return None

    def triangle_values(self, shape, dt, c, inside, outside):
        R = len(shape)

        def body(b, args, _acc):
            if dt == "i1":   # the comparison itself, or its complement
                return _compare_positions(b, R, c, "sle" if inside
                                          else "sgt")
            keep = _compare_positions(b, R, c, "sle")
            return self.select(b, keep, b.scalar(inside, dt),
                               b.scalar(outside, dt), dt)
        return self.em.generic([], [], tuple(shape), dt, body)

    def is_root_product(self, n):
        """The product with V (the root, or the product a root view
        splits the batch dim of): its V may be a parameter (a learned
        memory)."""
        r = self.root
        return n is r or (r.op != "call_module" and bool(r.args) and
                          n is r.args[0] and _target_name(n) in (
                              "matmul", "bmm", "mm", "einsum"))

    def parameter(self, x, depth=0):
        """Whether `x` is a module's parameter (through views and
        transposes): the weight of a projection without bias, which aten
        graphs spell as mm(x, t(W)). The raise takes Q, K and V as they
        are, so the exported subgraph starts after the projections."""
        if not isinstance(x, torch.fx.Node) or depth > 8:
            return False
        if x.op == "get_attr":
            t = self.gm
            try:
                for part in x.target.split("."):
                    t = getattr(t, part)
            except AttributeError:
                return False
            return isinstance(t, torch.nn.Parameter) or (
                isinstance(t, torch.Tensor) and t.requires_grad)
        if x.op == "placeholder":
            # dynamo lifts parameters to inputs named after them
            # (L_self_modules_q_parameters_weight_).
            v = x.meta.get("example_value", x.meta.get("val"))
            return isinstance(v, torch.nn.Parameter) or \
                "_parameters_" in x.name
        if x.op in ("call_function", "call_method") and x.args and \
                _target_name(x) in (_VIEW | _IDENTITY | _CAST | {
                    "t", "transpose", "permute", "expand", "unsafe_view",
                    "reshape_alias", "to_copy"}):
            return self.parameter(x.args[0], depth + 1)
        return False

    def computed_operand(self, n, args, dt):
        """An elementwise combination of two tensors before any product
        (rotary embeddings of Q and K, a gated V): the raise takes Q, K and
        V as they are, so the exported subgraph starts there."""
        if dt not in _FLOAT or not all(
                isinstance(a, torch.fx.Node) and
                isinstance(_meta(a), tuple) and len(_meta(a)[0]) >= 2
                for a in args):
            return False
        # (A bias plus a mask, T5's position_bias, goes into the scores, not
        # into a product: the raise reads it.)
        return not self.after_product(n) and self.feeds_product(n)

    # What an operand of a product may go through after it is computed.
    _TO_OPERAND = (_VIEW | _IDENTITY | _CAST |
                   {"transpose", "permute", "t", "expand", "expand_as",
                    "broadcast_to", "repeat_interleave", "getitem",
                    "unsafe_view", "reshape_alias", "to_copy", "slice",
                    "select", "split", "chunk", "unbind"})

    def feeds_product(self, n, depth=0, seen=None):
        """Whether `n` reaches an operand of a product through views,
        casts and repeats only (Q, K or V being computed)."""
        seen = set() if seen is None else seen
        if n in seen or depth > 32:
            return False
        seen.add(n)
        for u in n.users:
            name = _target_name(u)
            if name in ("matmul", "bmm", "mm", "einsum", "baddbmm"):
                return True
            if u.op in ("call_function", "call_method") and \
                    name in self._TO_OPERAND and \
                    self.feeds_product(u, depth + 1, seen):
                return True
        return False

    def after_product(self, n, depth=0, memo=None):
        memo = {} if memo is None else memo
        if n in memo:
            return memo[n]
        memo[n] = False
        if depth > 64:
            return False
        name = _target_name(n)
        if name in ("matmul", "bmm", "mm", "einsum", "baddbmm"):
            memo[n] = True
            return True
        # Only through what this exporter writes (a projection, a rotary
        # table computed by a matmul elsewhere, ... are leaves).
        if n.op not in ("call_function", "call_method") or \
                name not in _WALK:
            return False
        memo[n] = any(self.after_product(a, depth + 1, memo)
                      for a in n.all_input_nodes)
        return memo[n]

    # Helpers that write ops.
    def common_type(self, xs):
        ts = [x.dt for x in xs if isinstance(x, _Val)]
        fl = [t for t in ts if t in _FLOAT]
        if fl:
            return max(fl, key=lambda t: (_WIDTH[t], t == "f32"))
        if any(isinstance(x, float) for x in xs):
            return "f32"
        ints = [t for t in ts if t != "i1"]
        return max(ints, key=_WIDTH.get) if ints else "i1"

    def select(self, b, c, x, y, dt):
        r = b.tmp()
        b.line(f"{r} = arith.select {c}, {x}, {y} : {dt}")
        return r

    def elementwise(self, xs, shape, dt, f, casts=None):
        """out[...] = f(inputs, cast to `casts` (default: dt)); Python
        numbers become constants."""
        tensors = [x for x in xs if isinstance(x, _Val)]
        casts = casts or (dt,) * len(xs)

        def body(b, args, _acc):
            it = iter(args)
            ys = []
            for x, ct in zip(xs, casts):
                if isinstance(x, _Val):
                    ys.append(_cast(b, next(it), x.dt, ct))
                else:
                    ys.append(b.scalar(x, ct))
            return f(b, ys)
        return self.em.generic(tensors, [_bmap(x.shape, shape)
                                         for x in tensors], shape, dt, body)

    def binary(self, name, xs, shape, dt, alpha=1):
        if alpha != 1:
            raise Unsupported("alpha")
        if name in ("rsub", "radd", "rmul", "rtruediv"):
            xs = xs[::-1]
            name = name[1:]
        name = {"truediv": "div", "true_divide": "div", "iadd": "add",
                "imul": "mul", "itruediv": "div", "isub": "sub"}.get(name,
                                                                     name)
        if name == "floordiv" or (name == "div" and dt not in _FLOAT):
            raise Unsupported("integer division")
        fl = dt in _FLOAT
        op = {"add": "addf", "sub": "subf", "mul": "mulf", "div": "divf"}[
            name] if fl else {"add": "addi", "sub": "subi", "mul": "muli"}[name]

        def f(b, ys):
            y = b.tmp()
            b.line(f"{y} = arith.{op} {ys[0]}, {ys[1]} : {dt}")
            return y
        return self.elementwise(xs, shape, dt, f)

    def unary(self, name, x, shape, dt):
        if dt not in _FLOAT:
            raise Unsupported(f"{name} of integers")

        def f(b, ys):
            y = b.tmp()
            if name == "neg":
                b.line(f"{y} = arith.negf {ys[0]} : {dt}")
            elif name == "reciprocal":
                one = b.scalar(1.0, dt)
                b.line(f"{y} = arith.divf {one}, {ys[0]} : {dt}")
            elif name == "sigmoid":
                raise Unsupported("sigmoid")
            else:
                op = {"abs": "math.absf"}.get(name, f"math.{name}")
                b.line(f"{y} = {op} {ys[0]} : {dt}")
            return y
        return self.elementwise([x], shape, dt, f)

    def softmax(self, n, x, dim, dtype):
        if dim is None:
            raise Unsupported("softmax without dim")
        if dtype is not None and _DT[dtype] != x.dt:
            x = self.elementwise([x], x.shape, _DT[dtype], lambda b, xs: xs[0])
        dim = _const(dim) % len(x.shape)
        if x.dt not in _FLOAT:
            raise Unsupported("softmax of integers")
        e = self.em.empty(x.shape, x.dt)
        r = self.em.fresh()
        self.em.lines.append(
            f"{r} = linalg.softmax dimension({dim}) ins({x.name} : {x.type}) "
            f"outs({e} : {x.type}) -> {x.type}")
        return _Val(r, x.shape, x.dt)

    def contraction(self, xs, maps, shape, nred, dt):
        """out = sum over the last `nred` loops of prod(xs), accumulated in
        f32 for f16/bf16 results (as torch's matmuls do)."""
        acc_t = "f32" if dt in ("f16", "bf16") else dt
        if acc_t not in _FLOAT:
            raise Unsupported("integer products")
        zero_e = self.em.empty(shape, acc_t)
        z = self.em.fresh()
        zc = self.em.fresh("c")
        self.em.lines.append(f"{zc} = arith.constant 0.0 : {acc_t}")
        self.em.lines.append(f"{z} = linalg.fill ins({zc} : {acc_t}) outs("
                             f"{zero_e} : {_ttype(shape, acc_t)}) -> "
                             f"{_ttype(shape, acc_t)}")

        def body(b, args, acc):
            ys = [_cast(b, a, x.dt, acc_t) for a, x in zip(args, xs)]
            p = ys[0]
            for y in ys[1:]:
                t = b.tmp()
                b.line(f"{t} = arith.mulf {p}, {y} : {acc_t}")
                p = t
            s = b.tmp()
            b.line(f"{s} = arith.addf {acc}, {p} : {acc_t}")
            return s
        r = self.em.generic(xs, maps, shape, acc_t, body,
                            reductions=range(nred), init=z)
        if acc_t != dt:
            r = self.elementwise([r], shape, dt, lambda b, ys: ys[0])
        return r

    def matmul(self, a, b, dt):
        if len(a.shape) < 2 or len(b.shape) < 2:
            raise Unsupported("matmul of vectors")
        R = max(len(a.shape), len(b.shape))
        batch = []
        for k in range(R - 2):
            da = a.shape[k - (R - len(a.shape))] if k >= R - len(a.shape) \
                else 1
            db = b.shape[k - (R - len(b.shape))] if k >= R - len(b.shape) \
                else 1
            batch.append(max(da, db))
        m, kk, n = a.shape[-2], a.shape[-1], b.shape[-1]
        if b.shape[-2] != kk:
            raise Unsupported("matmul shapes")
        shape = tuple(batch) + (m, n)
        red = f"d{R}"

        def bm(x, last2):
            lead = _bmap(x.shape[:-2], tuple(batch)) if len(x.shape) > 2 \
                else []
            return lead + last2
        maps = [bm(a, [f"d{R - 2}", red]), bm(b, [red, f"d{R - 1}"])]
        return self.contraction([a, b], maps, shape, 1, dt)

    def einsum(self, eq, xs, shape, dt):
        eq = eq.replace(" ", "")
        if "->" not in eq or "." in eq:
            raise Unsupported("einsum without an explicit output or with ...")
        lhs, out = eq.split("->")
        terms = lhs.split(",")
        if len(terms) != len(xs):
            raise Unsupported("einsum operands")
        red = [c for t in terms for c in t if c not in out]
        red = list(dict.fromkeys(red))
        loops = list(out) + red
        idx = {c: f"d{i}" for i, c in enumerate(loops)}
        maps = [[idx[c] for c in t] for t in terms]
        return self.contraction(xs, maps, shape, len(red), dt)

    def transpose(self, x, perm):
        if perm == list(range(len(perm))):
            return x
        shape = tuple(x.shape[p] for p in perm)
        e = self.em.empty(shape, x.dt)
        r = self.em.fresh()
        self.em.lines.append(
            f"{r} = linalg.transpose ins({x.name} : {x.type}) outs({e} : "
            f"{_ttype(shape, x.dt)}) permutation = "
            f"[{', '.join(map(str, perm))}]")
        return _Val(r, shape, x.dt)

    def reshape(self, x, shape):
        shape = tuple(shape)
        if shape == x.shape:
            return x
        groups = _reassociation(x.shape, shape)
        if groups is None:
            if len(x.shape) == len(shape) or True:
                # Through one dimension: collapse all, then expand.
                flat = self.reshape(x, (math.prod(x.shape),)) \
                    if len(x.shape) != 1 else x
                return self.reshape(flat, shape) if len(shape) != 1 else flat
        r = self.em.fresh()
        g = ", ".join("[" + ", ".join(map(str, grp)) + "]" for grp in groups)
        t = _ttype(shape, x.dt)
        if len(shape) < len(x.shape):
            self.em.lines.append(f"{r} = tensor.collapse_shape {x.name} [{g}] "
                                 f": {x.type} into {t}")
        else:
            self.em.lines.append(
                f"{r} = tensor.expand_shape {x.name} [{g}] output_shape "
                f"[{', '.join(map(str, shape))}] : {x.type} into {t}")
        return _Val(r, shape, x.dt)

    def broadcast(self, x, shape):
        if tuple(shape) == x.shape:
            return x
        return self.elementwise([x], shape, x.dt, lambda b, ys: ys[0])

    def getitem(self, x, index, shape):
        if not isinstance(index, tuple):
            index = (index,)
        if any(isinstance(i, torch.fx.Node) for i in index):
            raise Unsupported("indexing by tensors")
        if index.count(Ellipsis) > 1:
            raise Unsupported("indexing")
        n_real = sum(1 for i in index if i is not None and i is not Ellipsis)
        full = []
        for i in index:
            if i is Ellipsis:
                full += [slice(None)] * (len(x.shape) - n_real)
            else:
                full.append(i)
        full += [slice(None)] * (len(x.shape) - sum(
            1 for i in full if i is not None))
        offs, sizes, strides = [], [], []
        d = 0
        for i in full:
            if i is None:
                continue
            n = x.shape[d]
            if isinstance(i, int):
                i = i % n
                offs.append(i), sizes.append(1), strides.append(1)
            elif isinstance(i, slice):
                start, stop, step = i.indices(n)
                if step <= 0:
                    raise Unsupported("negative slice steps")
                offs.append(start)
                sizes.append(max(0, (stop - start + step - 1) // step))
                strides.append(step)
            else:
                raise Unsupported(f"index {i!r}")
            d += 1
        y = x
        if tuple(sizes) != x.shape:
            r = self.em.fresh()
            t = _ttype(sizes, x.dt)
            self.em.lines.append(
                f"{r} = tensor.extract_slice {x.name}[{', '.join(map(str, offs))}]"
                f" [{', '.join(map(str, sizes))}] [{', '.join(map(str, strides))}]"
                f" : {x.type} to {t}")
            y = _Val(r, sizes, x.dt)
        return self.reshape(y, shape)

    def piece(self, n, i, shape):
        """Piece i of split / chunk / unbind(x, ..., dim) as a slice."""
        args, kw = list(n.args), dict(n.kwargs)
        x = self.value(args[0])
        kind = _target_name(n)
        dim = kw.get("dim", args[2] if len(args) > 2 else 0)
        if kind == "unbind":
            dim = kw.get("dim", args[1] if len(args) > 1 else 0)
        dim = _const(dim) % len(x.shape)
        size = x.shape[dim]
        if kind == "unbind":
            starts, lens = list(range(size)), [1] * size
        else:
            arg = kw.get("split_size_or_sections", kw.get(
                "chunks", kw.get("split_size", args[1] if len(args) > 1
                                 else None)))
            arg = [_const(a) for a in arg] if isinstance(arg, (list, tuple)) \
                else _const(arg)
            if kind == "chunk":
                arg = -(-size // arg)
            lens = list(arg) if isinstance(arg, list) else \
                [min(arg, size - o) for o in range(0, size, arg)]
            starts = [sum(lens[:k]) for k in range(len(lens))]
        index = [slice(None)] * len(x.shape)
        index[dim] = slice(starts[i], starts[i] + lens[i])
        return self.getitem(x, tuple(index), shape)

    def repeat_interleave(self, n, args, kw, shape):
        x = self.value(args[0])
        rep = _const(kw.get("repeats", args[1] if len(args) > 1 else None))
        dim = kw.get("dim", args[2] if len(args) > 2 else None)
        if not isinstance(rep, int) or dim is None:
            raise Unsupported("repeat_interleave by a tensor or flattened")
        dim = _const(dim) % len(x.shape)
        s = list(x.shape)
        unit = self.reshape(x, tuple(s[:dim + 1] + [1] + s[dim + 1:]))
        wide = self.broadcast(unit, tuple(s[:dim + 1] + [rep] + s[dim + 1:]))
        return self.reshape(wide, shape)

    def triangle(self, name, x, diag, dt):
        if len(x.shape) < 2:
            raise Unsupported("tril of vectors")
        if x.splat is not None and name == "tril":
            # tril(full(v)): v where j <= i + diag, else 0.
            return self.triangle_values(x.shape, dt, diag, x.splat, 0)
        R = len(x.shape)

        def body(b, args, _acc):
            keep = _compare_positions(b, R, diag, "sle" if name == "tril"
                                      else "sge")
            z = b.scalar(0, dt)
            y = _cast(b, args[0], x.dt, dt)
            return self.select(b, keep, y, z, dt)
        return self.em.generic([x], [_bmap(x.shape, x.shape)], x.shape, dt,
                               body)

    def arange(self, args, kw, shape, dt):
        nums = [_const(a) for a in args]
        if len(nums) == 1:
            start, step = 0, 1
        elif len(nums) >= 2:
            start, step = nums[0], (nums[2] if len(nums) > 2 else 1)
        else:
            start, step = _const(kw.get("start", 0)), _const(kw.get("step", 1))
        if len(shape) != 1:
            raise Unsupported("arange")

        def body(b, _args, _acc):
            i = b.tmp()
            b.line(f"{i} = linalg.index 0 : index")
            c = b.tmp()
            b.line(f"{c} = arith.index_cast {i} : index to i64")
            v = _cast(b, c, "i64", dt) if dt != "i64" else c
            if dt in _FLOAT:
                m = b.tmp()
                b.line(f"{m} = arith.mulf {v}, {b.scalar(step, dt)} : {dt}")
                a = b.tmp()
                b.line(f"{a} = arith.addf {m}, {b.scalar(start, dt)} : {dt}")
            else:
                m = b.tmp()
                b.line(f"{m} = arith.muli {v}, {b.scalar(step, dt)} : {dt}")
                a = b.tmp()
                b.line(f"{a} = arith.addi {m}, {b.scalar(start, dt)} : {dt}")
            return a
        return self.em.generic([], [], shape, dt, body)

    def text(self):
        out = self.value(self.root)
        argl = ", ".join(f"%arg{i}: {_ttype(*_tensor(a))}"
                         for i, a in enumerate(self.args))
        body = "\n".join("    " + l for l in self.em.lines)
        return (f"func.func @region({argl}) -> {out.type} {{\n{body}\n"
                f"    return {out.name} : {out.type}\n}}\n")


def export_region(gm, root):
    """(MLIR text of the subgraph ending in `root`, its leaf nodes)."""
    ex = _Exporter(gm, root)
    text = ex.text()
    return text, list(ex.args), ex.why


# --- the raise --------------------------------------------------------------

def _raise(text):
    """(raised generic-form text or None, remarks) for an exported region,
    cached by the text; without flash-opt, a pending request."""
    from . import compiler

    key = raise_key(text)
    d = os.path.join(compiler.cache_dir(), "raise")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, key + ".json")
    try:
        opt = compiler._flash_opt()
        tool = compiler._tool_id(opt)
    except (compiler.CompileError, OSError):
        opt = tool = None
    if os.path.exists(path):
        with open(path) as f:
            r = json.load(f)
        # (The key has no compiler identity, which a machine without
        # flash-opt cannot compute; a machine with it redoes the raises of
        # another build.)
        if tool is None or r.get("compiler") == tool:
            return r["raised"], r["remarks"]
    if opt is None:
        req = compiler.pending_request(f"raise-{key}.mlir", text)
        return None, ("flash-opt is not available here: the raise request is "
                      f"{req} (python3 -m flash_mlir.offline on a machine "
                      "with flash-opt fills the cache)")
    raised, remarks = run_raise(opt, text)
    store_raise(text, raised, remarks)
    return raised, remarks


def raise_key(text):
    return hashlib.sha256(("raise2\0" + text).encode()).hexdigest()[:32]


def store_raise(text, raised, remarks):
    from . import compiler

    d = os.path.join(compiler.cache_dir(), "raise")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, raise_key(text) + ".json")
    tmp = path + f".{os.getpid()}.tmp"
    try:
        tool = compiler._tool_id(compiler._flash_opt())
    except (compiler.CompileError, OSError):
        tool = None
    with open(tmp, "w") as f:
        json.dump({"raised": raised, "remarks": remarks, "compiler": tool},
                  f)
    os.replace(tmp, path)


def run_raise(opt, text):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "region.mlir")
        with open(src, "w") as f:
            f.write(text)
        # (The raise's average of V into rows without keys is linalg after
        # the op, which this front does not read back: off, as before.)
        p = subprocess.run([opt, src, "--flash-raise-attention=report=true "
                            "average-empty-rows=false",
                            "--mlir-print-op-generic",
                            "--mlir-print-local-scope"], capture_output=True,
                           text=True)
    remarks = "\n".join(l.split("remark: ", 1)[-1].split("error: ", 1)[-1]
                        for l in p.stderr.splitlines()
                        if "remark:" in l or "error:" in l)
    if p.returncode != 0:
        return None, remarks or p.stderr[-2000:]
    if '"flash.attention"' not in p.stdout:
        return None, remarks or (
            "not raised: the raise found no attention candidate in the "
            "exported subgraph (the probabilities reach the product with V "
            "through something it does not read through: a reshape it "
            "keeps whole, e.g. a batch-head collapse of a per-head bias, or "
            "an op it does not model)")
    return p.stdout, remarks


# --- reading the raised function back into FX --------------------------------

_TYPE = re.compile(r"tensor<((?:\d+x)*)(\w+)>")


def _parse_type(t):
    m = _TYPE.fullmatch(t.strip())
    if not m:
        raise Unsupported(f"type {t}")
    dims = [int(s) for s in m.group(1).split("x") if s]
    return tuple(dims), m.group(2)


def _statements(text):
    """The top-level ops of @region's body (generic form) as strings: a
    statement goes on while its braces (regions) are open."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if 'sym_name = "region"' in l)
    while "^bb0" not in lines[start]:
        start += 1
    stmts, cur, depth = [], None, 0
    for l in lines[start + 1:]:
        if depth == 0:
            if l.strip().startswith("})"):
                break          # the end of the function's region
            if cur is not None:
                stmts.append(cur)
            cur = l.strip()
        else:
            cur += "\n" + l
        depth += l.count("{") - l.count("}")
    if cur is not None:
        stmts.append(cur)
    return stmts


_ARRAY = r"array<i(?:32|64)(?::\s*([-\d,\s]*))?>"


def _prop_array(s, name):
    m = re.search(name + r"\s*=\s*" + _ARRAY, s)
    if not m:
        return None
    return [int(x) for x in (m.group(1) or "").split(",") if x.strip()]


class _Reader:
    """Builds FX nodes for the raised function before `before`."""

    def __init__(self, graph, leaves, gm=None):
        self.g, self.env, self.gm = graph, {}, gm
        self.like = leaves[0] if leaves else None
        for i, leaf in enumerate(leaves):
            self.env[f"%arg{i}"] = leaf
        self.attrs = []

    def call(self, fn, *args, **kw):
        return self.g.call_function(fn, tuple(args), kw)

    def read(self, text):
        stmts = []
        for s in _statements(text):
            head = s.splitlines()[0]
            m = re.match(r'(?:(%[\w]+)(?::\d+)?\s*=\s*)?"([\w.]+)"\((.*?)\)',
                         head)
            if not m:
                raise Unsupported(f"cannot read '{head[:60]}'")
            res, op, operands = m.groups()
            names = [x.strip() for x in operands.split(",") if x.strip()]
            stmts.append((s, res, op, names))
        # Only what the result needs (the raise may leave dead values).
        need = set()
        for s, res, op, names in reversed(stmts):
            if op == "func.return" or res in need:
                need.update(names)
        out = None
        for s, res, op, names in stmts:
            if op != "func.return" and res not in need:
                continue
            sig = s.splitlines()[-1]
            rtype = sig.rsplit("->", 1)[-1].strip() if "->" in sig else ""
            if op == "func.return":
                out = self.env[names[0]]
                break
            if op == "tensor.empty":
                self.env[res] = None
                continue
            args = [self.env.get(n) for n in names]
            shape = _parse_type(rtype)[0] if rtype.startswith("tensor") \
                else None
            if op == "linalg.transpose":
                perm = _prop_array(s, "permutation")
                self.env[res] = self.call(torch.permute, args[0], perm)
            elif op in ("tensor.expand_shape", "tensor.collapse_shape"):
                self.env[res] = self.call(torch.reshape, args[0], shape)
            elif op == "tensor.extract_slice":
                offs = _prop_array(s, "static_offsets")
                sizes = _prop_array(s, "static_sizes")
                strides = _prop_array(s, "static_strides")
                if len(names) != 1 or None in (offs, sizes, strides):
                    raise Unsupported("dynamic slices")
                idx = tuple(slice(o, o + (n - 1) * st + 1, st)
                            for o, n, st in zip(offs, sizes, strides))
                y = self.call(operator.getitem, args[0], idx)
                self.env[res] = self.call(torch.reshape, y, shape)
            elif op == "linalg.broadcast":
                dims = _prop_array(s, "dimensions")
                y = args[0]
                for d in sorted(dims):
                    y = self.call(torch.unsqueeze, y, d)
                self.env[res] = self.g.call_method("expand", (y,) +
                                                   tuple(shape))
            elif op == "tensor.concat":
                dim = int(re.search(r"dim = (\d+)", s).group(1))
                self.env[res] = self.call(torch.cat, list(args), dim)
            elif op == "flash.attention":
                self.env[res] = self.attention(s, names, args, shape)
            elif op == "linalg.generic":
                self.env[res] = self.generic(s, args, rtype)
            elif op == "arith.constant" and rtype.startswith("tensor"):
                self.env[res] = self.dense(s, rtype)
            else:
                raise Unsupported(f"the raised function has '{op}' outside "
                                  "flash.attention")
        if out is None:
            raise Unsupported("no result")
        return out

    def dense(self, s, rtype):
        """A dense constant (a mask the raise keeps) as a buffer of gm."""
        import numpy as np

        shape, dt = _parse_type(rtype)
        m = re.search(r'value = dense<("0x[0-9A-Fa-f]*"|[^>]*)>', s)
        if m is None or self.gm is None:
            raise Unsupported("a constant outside flash.attention")
        v = m.group(1)
        tdt = _TORCH_DT[dt]
        if v.startswith('"0x'):
            raw = bytes.fromhex(v[3:-1])
            n = math.prod(shape)
            if dt == "i1":
                a = np.unpackbits(np.frombuffer(raw, np.uint8),
                                  bitorder="little")[:n].astype(bool)
                t = torch.from_numpy(a.copy())
            elif dt == "bf16":
                t = torch.from_numpy(np.frombuffer(raw, "<i2").copy()).view(
                    torch.bfloat16)
            else:
                npdt = {"f32": "<f4", "f16": "<f2", "f64": "<f8",
                        "i64": "<i8", "i32": "<i4"}[dt]
                t = torch.from_numpy(np.frombuffer(raw, npdt).copy())
            t = t.reshape(shape)
        elif v.startswith("["):
            raise Unsupported("a constant outside flash.attention")
        else:
            x = {"true": True, "false": False}.get(v.strip())
            t = torch.full(shape, x if x is not None else float(v),
                           dtype=tdt)
        name = f"_flash_mlir_constant{len(list(self.gm.buffers()))}"
        self.gm.register_buffer(name, t.to(tdt))
        return self.g.get_attr(name)

    # cmpf / cmpi predicates (their enum values) as torch comparisons.
    _CMPF = {1: "eq", 2: "gt", 3: "ge", 4: "lt", 5: "le", 6: "ne",
             8: "eq", 9: "gt", 10: "ge", 11: "lt", 12: "le", 13: "ne"}
    _CMPI = {0: "eq", 1: "ne", 2: "lt", 3: "le", 4: "gt", 5: "ge",
             6: "lt", 7: "le", 8: "gt", 9: "ge"}
    _BIN = {"addf": operator.add, "addi": operator.add, "subf": operator.sub,
            "subi": operator.sub, "mulf": operator.mul, "muli": operator.mul,
            "divf": operator.truediv, "andi": operator.and_,
            "ori": operator.or_, "xori": operator.xor,
            "maximumf": torch.maximum, "minimumf": torch.minimum,
            "maxnumf": torch.maximum, "minnumf": torch.minimum}

    def generic(self, s, args, rtype):
        """An elementwise linalg.generic the raise left outside the flash op
        (a mask it computes from the program's tensors) as torch ops: each
        input viewed in the loop space, the body op by op."""
        shape, dt = _parse_type(rtype)
        if "reduction" in s.split("({")[0]:
            raise Unsupported("a reduction outside flash.attention")
        maps = re.findall(r"affine_map<\(([^)]*)\) -> \(([^)]*)\)>",
                          s.split("({")[0])
        seg = _prop_array(s, "operandSegmentSizes")
        n_in = seg[0] if seg else len(args) - 1
        loops = [d.strip() for d in maps[-1][0].split(",") if d.strip()]
        if [e.strip() for e in maps[-1][1].split(",")] != loops:
            raise Unsupported("a generic with a permuted output")
        env = {}
        lines = s.splitlines()
        bb = next(l for l in lines if l.strip().startswith("^bb0"))
        bargs = re.findall(r"(%[\w]+):", bb)
        for a, x, (_, exprs) in zip(bargs, args[:n_in], maps):
            ex = [e.strip() for e in exprs.split(",") if e.strip()]
            for d in reversed(range(len(ex))):
                if ex[d] == "0":
                    x = self.call(torch.select, x, d, 0)
                elif not re.fullmatch(r"d\d+", ex[d]):
                    raise Unsupported(f"an input map {exprs}")
            ex = [e for e in ex if e != "0"]
            order = sorted(range(len(ex)), key=lambda i: loops.index(ex[i]))
            if order != list(range(len(ex))):
                x = self.call(torch.permute, x, order)
            have = sorted(loops.index(e) for e in ex)
            view = [shape[i] if i in have else 1 for i in range(len(loops))]
            x = self.call(torch.reshape, x, view)
            env[a] = x
        for l in lines[lines.index(bb) + 1:]:
            l = l.strip()
            m = re.match(r'(?:(%[\w]+) = )?"([\w.]+)"\(([^)]*)\)(.*)', l)
            if not m:
                continue
            r, op, operands, rest = m.groups()
            xs = [env[o.strip()] if o.strip() in env else None
                  for o in operands.split(",") if o.strip()]
            kind = op.split(".")[-1]
            if op == "linalg.yield":
                y = xs[0]
                if not isinstance(y, torch.fx.Node):
                    y = self.call(torch.full, tuple(shape), y,
                                  dtype=_TORCH_DT[dt])
                y = self.g.call_method("expand", (y,) + tuple(shape))
                return self.g.call_method("to", (y, _TORCH_DT[dt]))
            if op == "arith.constant":
                env[r] = self._number(rest)
            elif op == "linalg.index":
                d = int(re.search(r"dim = (\d+)", rest).group(1))
                view = [1] * len(loops)
                view[d] = shape[d]
                env[r] = self.call(torch.reshape, self.call(
                    _positions, shape[d], args[0] if args and args[0] is not
                    None else self.like), view)
            elif kind in self._BIN:
                env[r] = self.call(self._BIN[kind], *xs)
            elif kind in ("cmpf", "cmpi"):
                pred = int(re.search(r"predicate = (\d+)", rest).group(1))
                table = self._CMPF if kind == "cmpf" else self._CMPI
                if pred not in table:
                    raise Unsupported(f"{op} predicate {pred}")
                env[r] = self.call(getattr(operator, table[pred]), *xs)
            elif op == "arith.select":
                env[r] = self.call(torch.where, *xs)
            elif op == "arith.negf":
                env[r] = self.call(operator.neg, xs[0])
            elif kind in ("extf", "truncf", "sitofp", "uitofp", "extui",
                          "extsi", "trunci", "index_cast"):
                to = re.search(r"-> (\w+)\s*$", rest)
                t = to.group(1) if to else "f32"
                env[r] = self.g.call_method("to", (xs[0], _TORCH_DT.get(
                    t, torch.int64)))
            elif op in ("math.exp", "math.tanh", "math.absf", "math.sqrt",
                        "math.log"):
                fn = {"absf": torch.abs}.get(kind, getattr(torch, kind, None))
                env[r] = self.call(fn, xs[0])
            else:
                raise Unsupported(f"'{op}' in a generic outside the flash op")
        raise Unsupported("a generic without a yield")

    @staticmethod
    def _number(rest):
        """The value of an arith.constant's `value = ... : type`."""
        m = re.search(r"value = ([^:}]+?)(?:\s*:\s*(\w+))?\s*\}>", rest)
        v, t = m.group(1).strip(), m.group(2)
        if v in ("true", "false"):
            return v == "true"
        if v.startswith("0x") and t in _FLOAT:
            import struct
            bits = int(v, 16)
            if t == "f32":
                return struct.unpack("<f", struct.pack("<I", bits))[0]
            if t == "f64":
                return struct.unpack("<d", struct.pack("<Q", bits))[0]
            if t == "bf16":
                return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
            return float(torch.tensor(bits, dtype=torch.int16).view(
                torch.float16))
        return float(v) if t in _FLOAT else int(v)

    @staticmethod
    def regions(s):
        """(score_mod body, mask_mod body) of a flash.attention statement,
        '' for an empty region."""
        body = s[s.index("({") + 2:s.rindex("})")]
        parts = re.split(r"\n\s*\}, \{", body)
        parts += [""] * (2 - len(parts))
        return [p.strip() for p in parts[:2]]

    def mask_mod(self, body, dims, caps):
        """The mask_mod region evaluated on index grids of `dims` (its
        arguments b..., h, i, j broadcast against each other), the captured
        operands read by advanced indexing; True when it keeps every key."""
        lines = body.splitlines()
        bargs = re.findall(r"(%[\w]+):", lines[0])
        env = {}
        for d, a in enumerate(bargs[:len(dims)]):
            view = [1] * len(dims)
            view[d] = dims[d]
            env[a] = self.call(torch.reshape, self.call(
                _positions, dims[d], self.like), view)
        for a, c in zip(bargs[len(dims):], caps):
            env[a] = c
        g = self.g

        def fn(f, *xs):
            if all(not isinstance(x, torch.fx.Node) for x in xs):
                return f(*xs)
            return g.call_function(f, tuple(xs))
        for l in lines[1:]:
            l = l.strip()
            m = re.match(r'(?:(%[\w]+) = )?"([\w.]+)"\(([^)]*)\)(.*)', l)
            if not m:
                continue
            r, op, operands, rest = m.groups()
            xs = [env[o.strip()] for o in operands.split(",") if o.strip()]
            kind = op.split(".")[-1]
            if op == "flash.yield":
                return xs[0]
            if op == "arith.constant":
                env[r] = self._number(rest)
            elif kind in ("muli", "addi", "subi", "andi", "ori", "xori",
                          "addf", "subf", "mulf", "divf"):
                env[r] = fn(self._BIN[kind], *xs)
            elif kind == "floordivsi":
                env[r] = fn(operator.floordiv, *xs)
            elif kind in ("minsi", "maxsi"):
                f = torch.minimum if kind == "minsi" else torch.maximum
                env[r] = fn(f, *[x if isinstance(x, torch.fx.Node) else
                                 fn(torch.tensor, x) for x in xs])
            elif kind in ("cmpi", "cmpf"):
                pred = int(re.search(r"predicate = (\d+)", rest).group(1))
                table = self._CMPF if kind == "cmpf" else self._CMPI
                if pred not in table or (kind == "cmpi" and pred >= 6):
                    raise Unsupported(f"{op} predicate {pred} in a mask_mod")
                env[r] = fn(getattr(operator, table[pred]), *xs)
            elif op == "arith.select":
                env[r] = fn(torch.where, *xs)
            elif kind in ("index_cast", "extsi", "trunci", "extui",
                          "index_castui"):
                env[r] = xs[0]
            elif op == "tensor.extract":
                env[r] = g.call_function(operator.getitem,
                                         (xs[0], tuple(xs[1:])))
            else:
                raise Unsupported(f"'{op}' in a mask_mod")
        raise Unsupported("a mask_mod without a yield")

    def attention(self, s, names, args, shape):
        seg = _prop_array(s, "operandSegmentSizes")
        # query, key, value, mask, captures, descales, output, lse_init
        # (the raise makes no fp8 ops: no descales)
        if seg is None or len(seg) != 8 or seg[5]:
            raise Unsupported("flash.attention operands")
        q, k, v = args[:3]
        self.like = q
        mask = args[3] if seg[3] else None
        caps = args[3 + seg[3]:3 + seg[3] + seg[4]]
        m = re.search(r"scale = ([-+\w.]+) : (\w+)", s)
        scale = float(m.group(1)) if m else None
        causal = bool(re.search(r"[{,\s]causal[,}\s]", s.split("}>")[0]))
        m = re.search(r"causal_offset = (-?\d+) : i64", s)
        types = re.search(r"\}\)\s*:\s*\((.*)\)\s*->", s.replace("\n", " "))
        tq, tk = (_parse_type(t)[0] for t in types.group(1).split(", ")[:2])
        score_mod, mask_mod = self.regions(s)
        if score_mod:
            raise Unsupported("the raised attention has a score_mod: not "
                              "mapped to the torch op yet")
        if mask_mod:
            # The mask_mod as a bool mask over [B..., H, Nq, Nk], combined
            # with the mask operand.
            keep = self.mask_mod(mask_mod, tuple(tq[:-1]) + (tk[-2],), caps)
            if keep is not True:
                if mask is None:
                    mask = keep
                else:
                    mask = self.call(_and_mask, mask, keep)
        offset = None
        if causal:
            offset = int(m.group(1)) if m else tk[-2] - tq[-2]
        attrs = {"scale": scale, "causal": causal, "causal_offset": offset,
                 "mask": mask is not None}
        self.attrs.append(attrs)
        return self.call(fused_attention, q, k, v, mask, scale=scale,
                         causal=causal, causal_offset=offset)


def _positions(n, like):
    """0..n-1 on the device of `like` (a tensor of the graph)."""
    return torch.arange(n, device=like.device)


def _and_mask(mask, keep):
    """A mask operand (bool keep or additive float) and a bool keep-mask."""
    if mask.dtype == torch.bool:
        return mask & keep
    return mask.masked_fill(~keep, float("-inf"))


def fused_attention(q, k, v, mask=None, scale=None, causal=False,
                    causal_offset=None):
    """flash.attention's semantics on torch tensors of any rank >= 2 (the
    batch dims flattened for the operator, K/V broadcast along batch dims
    of size 1, the mask broadcast right-aligned)."""
    lead_q, lead_k = tuple(q.shape[:-2]), tuple(k.shape[:-2])
    nq, nk = q.shape[-2], k.shape[-2]
    if len(lead_q) == 0:
        q, k, v = q[None, None], k[None, None], v[None, None]
    elif len(lead_q) == 1:
        q, k, v = q[None], k[None], v[None]
    batch_q, batch_k = lead_q[:-1], lead_k[:-1]
    if len(lead_q) >= 2 and batch_k != batch_q:
        k = k.expand(batch_q + k.shape[-3:])
        v = v.expand(batch_q + v.shape[-3:])
    b = math.prod(batch_q) if len(lead_q) >= 2 else 1
    hq = lead_q[-1] if lead_q else 1
    q4 = q.reshape(b, hq, nq, q.shape[-1])
    k4 = k.reshape(b, k.shape[-3], nk, k.shape[-1])
    v4 = v.reshape(b, v.shape[-3], nk, v.shape[-1])
    m4 = mask
    if mask is not None and len(lead_q) != 2:
        # Broadcast right-aligned to [B..., H (or 1), Nq, Nk], then the
        # batch dims flattened like q's.
        m = mask
        while m.dim() < len(lead_q) + 2:
            m = m[None]
        hm = 1 if m.shape[-3] == 1 or not lead_q else hq
        m = m.expand((batch_q if len(lead_q) >= 2 else ()) + (hm, nq, nk)) \
            if len(lead_q) >= 1 else m.expand(nq, nk)
        m4 = m.reshape(b, hm, nq, nk) if len(lead_q) >= 1 else m
    o = ops.attention(q4, k4, v4, mask=m4, scale=scale, causal=causal,
                      causal_offset=causal_offset)
    return o.reshape(lead_q + (nq, v.shape[-1]))


# --- the pass ---------------------------------------------------------------

# In-place operators of Python on tensors (s += x mutates s).
_INPLACE_OPERATORS = {operator.iadd, operator.isub, operator.imul,
                      operator.itruediv, operator.ifloordiv, operator.ipow,
                      operator.iand, operator.ior, operator.ixor,
                      operator.setitem}
# Ops whose result may share its input's storage (a write through it
# writes the input): views, and what may return the input itself.
_ALIASING = _VIEW | _IDENTITY | _CAST | {
    "slice", "select", "transpose", "permute", "expand", "expand_as", "t",
    "as_strided", "diagonal", "narrow", "unfold", "split", "chunk", "unbind",
    "movedim", "moveaxis", "swapaxes", "swapdims", "getitem", "real", "imag",
    "view_as_real", "view_as_complex", "split_with_sizes", "reshape_alias",
    "unsafe_view"}


def _mutated(n):
    """The tensor node an in-place op writes (an aten op whose schema marks
    an argument written, a Tensor method or operator ending in `_`,
    s[...] = x, s += x, a `out=` argument), else None."""
    if n.op not in ("call_function", "call_method"):
        return None
    first = n.args[0] if n.args and isinstance(n.args[0], torch.fx.Node) \
        else None
    out = n.kwargs.get("out")
    if isinstance(out, torch.fx.Node):
        return out
    if n.op == "call_method":
        t = n.target
        inplace = (t.endswith("_") and not t.startswith("_")) or \
            t in ("__setitem__", "__iadd__", "__isub__", "__imul__",
                  "__itruediv__")
        return first if inplace else None
    if n.target in _INPLACE_OPERATORS:
        # (Not on numbers: n += 1 of shape arithmetic.)
        try:
            number = isinstance(_meta(first), (int, float, bool))
        except (KeyError, AttributeError, TypeError):
            number = False
        return None if number or first is None else first
    schema = getattr(n.target, "_schema", None)
    if schema is not None:
        for i, a in enumerate(schema.arguments):
            info = a.alias_info
            if info is not None and info.is_write and i < len(n.args) and \
                    isinstance(n.args[i], torch.fx.Node):
                return n.args[i]
        return None
    name = getattr(n.target, "__name__", "")
    return first if name.endswith("_") and not name.startswith("_") else None


def _alias_root(n):
    """The node whose storage `n` may share (through views and ops that
    may return their input)."""
    while n.op in ("call_function", "call_method") and n.args and \
            isinstance(n.args[0], torch.fx.Node) and \
            (_target_name(n) in _ALIASING or _mutated(n) is not None):
        n = n.args[0]
    return n


def _written(graph):
    """{storage root: the first in-place op writing it} of `graph`. Not a
    write nothing else reads: of a tensor that only the op uses, and if a
    view, one of a chain of views each the only user of the one before
    (`scores += bias` as symbolic_trace and make_fx record it: the later
    reads are of the op's result, whose value the functional op gives)."""
    def unobserved(n, m):
        while True:
            if list(m.users) != [n]:
                return False
            if _alias_root(m) is m:
                return True
            n, m = m, m.args[0]

    roots = {}
    for n in graph.nodes:
        m = _mutated(n)
        if m is None or unobserved(n, m):
            continue
        roots.setdefault(_alias_root(m), n)
    return roots


def _reads_written(root, written):
    """An in-place op writing a tensor the computation of `root` reads
    (itself or through a view), else None: an attention fused from it
    would read the tensor as if it were never written."""
    if not written:
        return None
    seen, todo = set(), [root]
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        w = written.get(_alias_root(n))
        if w is not None:
            return w
        todo.extend(n.all_input_nodes)
    return None


def _eliminate_dead_code(graph):
    """torch.fx's eliminate_dead_code, keeping in-place ops (fx's keeps
    only a few side-effectful functions: it removed `m[:, :5] = 1` and
    `s[..., 0] += 1`, whose results have no users)."""
    changed = True
    while changed:
        changed = False
        for n in reversed(list(graph.nodes)):
            if n.users or n.op in ("placeholder", "output") or \
                    _mutated(n) is not None or n.is_impure():
                continue
            graph.erase_node(n)
            changed = True


def _is_softmax(gm, n):
    if n.op == "call_module":
        return isinstance(gm.get_submodule(n.target), torch.nn.Softmax)
    return n.op in ("call_function", "call_method") and \
        _target_name(n) == "softmax"


_PASS_THROUGH = (_IDENTITY | _CAST | _VIEW |
                 {"dropout", "to_copy", "expand", "unsafe_view",
                  "reshape_alias"})


def _consumer(gm, s):
    """The product with V that consumes softmax node `s` (through casts,
    copies and dropout), or (None, why)."""
    n = s
    while True:
        # (Users without users of their own, e.g. a detach an aten trace
        # keeps for autograd, do not count.)
        users = [u for u in n.users if u.users or u.op == "output"]
        if len(users) != 1:
            return None, ("the probabilities have other users (returned "
                          "attention weights?)" if users else "unused")
        u = users[0]
        name = _target_name(u)
        if u.op == "output":
            return None, "the softmax is an output of the graph"
        if u.op == "call_module":
            mod = gm.get_submodule(u.target)
            if isinstance(mod, (torch.nn.Dropout, torch.nn.Identity)):
                n = u
                continue
            return None, f"the probabilities go into {type(mod).__name__}"
        if name in ("matmul", "bmm", "mm", "einsum"):
            return _uncollapsed(u), None
        if name in _PASS_THROUGH:
            n = u
            continue
        # (Times a constant, an eval-mode dropout's factor: the raise
        # scales the op's output.)
        if name in ("mul", "truediv", "div") and len(u.args) == 2 and \
                u.args[0] is n and isinstance(u.args[1], (int, float)):
            n = u
            continue
        return None, f"the probabilities go into '{name}', not a product"


def _uncollapsed(p):
    """The product `p`, or the view that splits its batch dim again when
    that is its only user (aten graphs run [B, H] attention as a bmm over
    B*H and view the result back): rooted there, the raise reads [B, H]
    masks and biases at (b, h) instead of through h = bh mod H."""
    users = [u for u in p.users if u.users or u.op == "output"]
    if len(users) != 1:
        return p
    u = users[0]
    if u.op not in ("call_function", "call_method") or \
            _target_name(u) not in _VIEW | {"unsafe_view", "reshape_alias"}:
        return p
    try:
        (src, _), (dst, _) = _tensor(p), _tensor(u)
    except Unsupported:
        return p
    if len(dst) > len(src) and tuple(dst[-2:]) == tuple(src[-2:]) and \
            math.prod(dst) == math.prod(src):
        return u
    return p


def fuse_attention(gm, example_inputs=None, log=None):
    """Replaces every attention the raise proves in `gm` (a
    torch.fx.GraphModule) by torch.ops.flash_mlir.attention; returns the
    list of Reports (one per softmax). Shapes come from the nodes' meta
    (torch.compile's fake values, ShapeProp) or from running `gm` once on
    `example_inputs`. `log(str)` receives one line per softmax."""
    if example_inputs is not None and not all(
            "val" in n.meta or "example_value" in n.meta
            for n in gm.graph.nodes if n.op == "placeholder"):
        _propagate(gm, example_inputs)
    reports = []
    # (Fusing writes nothing in place and keeps every write.)
    written = _written(gm.graph)
    for s in [n for n in gm.graph.nodes if _is_softmax(gm, n)]:
        if s.graph is not gm.graph or not s.users and s not in gm.graph.nodes:
            continue
        root, why = _consumer(gm, s)
        if root is None:
            reports.append(Report(s.name, False, why))
            continue
        w = _reads_written(root, written)
        if w is not None:
            reports.append(Report(
                s.name, False,
                f"the graph writes in place ('{w.name}': {_target_name(w)}) "
                "a tensor the attention reads, which the fused op would not "
                "see"))
            continue
        try:
            text, leaves, why = export_region(gm, root)
        except (Unsupported, KeyError) as e:
            reports.append(Report(s.name, False, f"not exported: {e}"))
            continue
        raised, remarks = _raise(text)
        if raised is None:
            cut = "; ".join(f"{n}: {w}" for n, w in why.items()
                            if w not in ("placeholder", "get_attr"))
            if cut:
                remarks += f" (the exported subgraph's leaves: {cut})"
            reports.append(Report(s.name, False, remarks, mlir=text))
            continue
        g = gm.graph
        with g.inserting_before(root):
            reader = _Reader(g, leaves, gm)
            try:
                new = reader.read(raised)
            except Unsupported as e:
                reports.append(Report(s.name, False, str(e), mlir=text))
                continue
        new.meta.update({k: v for k, v in root.meta.items()
                         if k in ("val", "example_value", "tensor_meta",
                                  "flash_val")})
        root.replace_all_uses_with(new)
        _eliminate_dead_code(g)
        reports.append(Report(s.name, True, attrs=reader.attrs[0]
                              if len(reader.attrs) == 1 else reader.attrs,
                              mlir=text))
    # Nodes the reader left unused (a failed read) and the replaced ones.
    _eliminate_dead_code(gm.graph)
    gm.recompile()
    if log is not None:
        for r in reports:
            log(f"flash_mlir.fx: {r.node}: "
                + ("fused " + str(r.attrs) if r.fused else
                   "not fused: " + r.reason.strip().replace("\n", "; ")))
    return reports


def backend(gm, example_inputs, inner="inductor", log=None):
    """A torch.compile backend: fuse_attention, then `inner` ("inductor" or
    "eager") compiles the graph."""
    fuse_attention(gm, example_inputs, log=log)
    if inner == "eager":
        return gm.forward
    from torch._inductor.compile_fx import compile_fx
    return compile_fx(gm, example_inputs)
