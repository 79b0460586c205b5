"""Compile-and-cache: the one place that turns an attention configuration
into a loaded kernel.

A configuration (shapes, dtype, causal, scale, blocks, loop order) becomes
MLIR text (mlirgen), is lowered by `flash-opt --flash-to-cpu`, translated to
LLVM IR and compiled by clang into a shared object stored in a cache
directory under a hash of everything that determines it. Loading needs only
the cache: a kernel compiled on a machine with flash-opt loads anywhere the
same .so runs.

Environment: FLASH_MLIR_CACHE (default ~/.cache/flash_mlir), FLASH_OPT
(default: build/bin/flash-opt of this checkout, then PATH), LLVM_PREFIX
(default /usr/lib/llvm-22).
"""

import ctypes
import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile

import numpy as np

from . import mlirgen

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
_LLVM = os.environ.get("LLVM_PREFIX", "/usr/lib/llvm-22")
# Bump when the generated code or its ABI changes.
_ABI_VERSION = "2"


def _host_id():
    """The host's CPU model and features: objects are compiled for the host
    (the pipeline's target-cpu=host), so a cache shared between machines
    must not mix them."""
    try:
        with open("/proc/cpuinfo") as f:
            lines = [l for l in f if l.startswith(("model name", "flags"))]
        return hashlib.sha256("".join(lines[:2]).encode()).hexdigest()[:16]
    except OSError:
        return "unknown-host"



class CompileError(RuntimeError):
    pass


def cache_dir():
    d = os.environ.get("FLASH_MLIR_CACHE",
                       os.path.join(os.path.expanduser("~"), ".cache",
                                    "flash_mlir"))
    os.makedirs(d, exist_ok=True)
    return d


def pending_dir():
    """Where a machine without flash-opt records what it could not compile
    (FLASH_MLIR_PENDING, default the cache's pending/)."""
    d = os.environ.get("FLASH_MLIR_PENDING") or os.path.join(cache_dir(),
                                                              "pending")
    os.makedirs(d, exist_ok=True)
    return d


def pending_request(name, text):
    path = os.path.join(pending_dir(), name)
    with open(path, "w") as f:
        f.write(text)
    return path


def _flash_opt():
    cand = os.environ.get("FLASH_OPT")
    if cand:
        return cand
    local = os.path.join(_ROOT, "build", "bin", "flash-opt")
    if os.path.exists(local):
        return local
    found = shutil.which("flash-opt")
    if found:
        return found
    raise CompileError("flash-opt not found: build flash-mlir (make build) or "
                       "set FLASH_OPT")


def _tool_id(path):
    st = os.stat(path)
    return f"{path}:{st.st_size}:{int(st.st_mtime)}"


def _run(cmd, what):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise CompileError(f"{what} failed:\n{p.stderr[-4000:]}")
    return p


def compile_module(module_text, pipeline_options=""):
    """Returns the path of a shared object for `module_text` lowered with
    `--flash-to-cpu="<pipeline_options>"`, compiling it on a cache miss."""
    key = hashlib.sha256(
        "\0".join([_ABI_VERSION, _host_id(), module_text,
                   pipeline_options]).encode()
    ).hexdigest()[:32]
    so = os.path.join(cache_dir(), f"{key}.so")
    if os.path.exists(so):
        return so
    # Processes that need the same kernel at once (the ranks of a ring, a
    # parallel test run) compile it once: the first takes the key's lock,
    # the others wait for it and load what it published.
    with open(so + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(so):
            return so
        return _compile(module_text, pipeline_options, so)


def _compile(module_text, pipeline_options, so):
    opt = _flash_opt()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "kernel.mlir")
        with open(src, "w") as f:
            f.write(module_text)
        llvm_mlir = os.path.join(tmp, "kernel.llvm.mlir")
        _run([opt, src, f"--flash-to-cpu={pipeline_options}", "-o", llvm_mlir],
             "flash-opt --flash-to-cpu")
        ll = os.path.join(tmp, "kernel.ll")
        _run([f"{_LLVM}/bin/mlir-translate", "--mlir-to-llvmir", llvm_mlir,
              "-o", ll], "mlir-translate")
        obj = os.path.join(tmp, "kernel.so")
        # No -march: the pipeline put the host's CPU and features on every
        # function (flash-cpu-target-features). libomp: the parallel loops
        # (threads != 1); the C runner utils: memrefCopy of dynamic shapes.
        _run(["clang-22", "-O3", "-shared", "-fPIC", "-Wno-override-module",
              ll, "-o", obj, "-lm", f"-L{_LLVM}/lib", "-lomp",
              "-lmlir_c_runner_utils", f"-Wl,-rpath,{_LLVM}/lib"], "clang")
        # Publish atomically: concurrent compilers may race on the same key.
        tmp_so = so + f".{os.getpid()}.tmp"
        shutil.copy(obj, tmp_so)
        os.replace(tmp_so, so)
    return so


# Memref descriptors (the C ABI of MLIR's `llvm.emit_c_interface`) ----------

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
    """(forward, backward) kernels for `cfg` (an mlirgen.Config, f32):
    forward(q, k, v) -> [o, lse]; backward(q, k, v, o, lse, dO) -> [dq, dk,
    dv]. The tiling options that are None take --flash-to-cpu's defaults
    (defined once, in flash-mlir's pipeline options)."""
    key = (repr(cfg), block_q, block_kv, loop_order)
    if key in _LOADED:
        return _LOADED[key]
    text = "\n".join(["module {", mlirgen.fused_func(cfg, name="fwd"),
                      mlirgen.fused_grad_func(cfg, name="bwd"), "}"])
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
