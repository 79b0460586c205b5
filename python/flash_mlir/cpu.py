"""The CPU runtime: kernels of --flash-to-cpu (compiled and cached by
flash_mlir.compiler) loaded with ctypes and called on numpy arrays through
their memref C interface.
"""

import ctypes

import numpy as np

from . import program
from .compiler import compile_module

_DESC_TYPES = {}


def _desc_type(rank):
    if rank not in _DESC_TYPES:
        class Desc(ctypes.Structure):
            _fields_ = [("allocated", ctypes.c_void_p),
                        ("aligned", ctypes.c_void_p),
                        ("offset", ctypes.c_int64),
                        ("sizes", ctypes.c_int64 * rank),
                        ("strides", ctypes.c_int64 * rank)]
        _DESC_TYPES[rank] = Desc
    return _DESC_TYPES[rank]


def _descriptor(arr):
    desc = _desc_type(arr.ndim)()
    ptr = arr.ctypes.data_as(ctypes.c_void_p)
    desc.allocated = ptr
    desc.aligned = ptr
    desc.offset = 0
    for i, (s, st) in enumerate(zip(arr.shape, arr.strides)):
        desc.sizes[i] = s
        desc.strides[i] = st // arr.itemsize
    return desc


_libc = ctypes.CDLL(None)
_libc.free.argtypes = [ctypes.c_void_p]


class Kernel:
    """A loaded function `name` of a compiled module, called with numpy
    arrays; returns fresh numpy arrays (the results allocated by the kernel
    are copied and freed)."""

    def __init__(self, so_path, name, result_shapes, result_dtypes):
        self._lib = ctypes.CDLL(so_path)
        self._fn = getattr(self._lib, f"_mlir_ciface_{name}")
        self._fn.restype = None
        self._shapes = [tuple(s) for s in result_shapes]
        self._dtypes = result_dtypes
        fields = [(f"r{i}", _desc_type(len(s)))
                  for i, s in enumerate(self._shapes)]
        self._res_type = type("Results", (ctypes.Structure,),
                              {"_fields_": fields})

    def __call__(self, *arrays):
        arrays = [np.ascontiguousarray(a) for a in arrays]
        descs = [_descriptor(a) for a in arrays]
        res = self._res_type()
        args = ([ctypes.byref(res)] if len(self._shapes) > 1 else [])
        if len(self._shapes) == 1:
            # A single result is returned through the first pointer too.
            single = _desc_type(len(self._shapes[0]))()
            args = [ctypes.byref(single)]
        args += [ctypes.byref(d) for d in descs]
        self._fn(*args)
        outs = []
        got = ([single] if len(self._shapes) == 1 else
               [getattr(res, f"r{i}") for i in range(len(self._shapes))])
        for d, shape, dt in zip(got, self._shapes, self._dtypes):
            n = int(np.prod(shape)) if shape else 1
            buf = (ctypes.c_char * (n * np.dtype(dt).itemsize)).from_address(
                d.aligned + d.offset * np.dtype(dt).itemsize)
            outs.append(np.frombuffer(buf, dtype=dt).reshape(shape).copy())
            _libc.free(d.allocated)
        del arrays
        return outs


_LOADED = {}


def attention_kernels(cfg, block_q=None, block_kv=None, loop_order=None):
    """(forward, backward) kernels for `cfg` (an program.Config, f32):
    forward(q, k, v) -> [o, lse]; backward(q, k, v, o, lse, dO) -> [dq, dk,
    dv]. The tiling options that are None take --flash-to-cpu's defaults
    (defined once, in flash-mlir's pipeline options)."""
    key = (repr(cfg), block_q, block_kv, loop_order)
    if key in _LOADED:
        return _LOADED[key]
    text = "\n".join(["module {", program.fused_func(cfg, name="fwd"),
                      program.fused_grad_func(cfg, name="bwd"), "}"])
    text = _with_c_interface(text, ["fwd", "bwd"])
    options = [f"{name}={value}" for name, value in
               (("block-q", block_q), ("block-kv", block_kv),
                ("loop-order", loop_order)) if value is not None]
    so = compile_module(text, " ".join(options))
    dt = np.float32
    fwd = Kernel(so, "fwd", [cfg.o_shape(), cfg.lse_shape()], [dt, dt])
    bwd = Kernel(so, "bwd", [cfg.q_shape(), cfg.k_shape(), cfg.v_shape()],
                 [dt, dt, dt])
    _LOADED[key] = (fwd, bwd)
    return fwd, bwd


def _with_c_interface(text, names):
    for n in names:
        head = f"func.func @{n}("
        i = text.index(head)
        # The signature ends at the `{` that opens the body.
        j = text.index(" {\n", i)
        text = text[:j] + " attributes {llvm.emit_c_interface}" + text[j:]
    return text
