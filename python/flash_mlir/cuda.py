"""flash-mlir kernels on NVIDIA GPUs from Python (torch CUDA tensors).

`compile_kernel(cfg)` lowers `flash.attention` for a configuration with
`flash-opt --flash-to-nvvm` and returns the cubin bytes, the kernel names
and their launch contracts (cached like the CPU kernels, so a machine with
only the GPU and the cache can load them). One kernel serves every
sequence length of a configuration class (`kernel_class`: the lengths are
size arguments). `CudaKernel` loads a cubin with the CUDA driver API (through
ctypes, no CUDA toolkit needed at run time) and launches it on torch's
current stream with the tensors' device pointers: no host copies.

The kernels are flash-map-to-gpu's: forward (head dim a multiple of 16 up to
256) and backward (up to 128; up to 256 on sm_90a's wgmma) of f16/bf16 ops,
masked or not, on tensor cores (wgmma on sm_90a from d = 64 on, tiles padded
to 64-column groups; else mma.sync), the rest SIMT (one row per thread, f32
arithmetic).
"""

import collections
import ctypes
import hashlib
import json
import os
import re
import subprocess
import tempfile
import threading

from . import compiler, program



def _unescape_mlir_string(s):
    """Bytes of an MLIR string literal body (\\XX hex escapes, \\\\, \\")."""
    out = bytearray()
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\":
            nxt = s[i + 1]
            if nxt in "\\\"":
                out.append(ord(nxt))
                i += 2
            elif nxt == "n":
                out.append(10)
                i += 2
            elif nxt == "t":
                out.append(9)
                i += 2
            else:
                out.append(int(s[i + 1:i + 3], 16))
                i += 3
        else:
            out.append(ord(c))
            i += 1
    return bytes(out)


def _literal_end(text, start):
    """Where the MLIR string literal whose body starts at `start` ends
    (its closing quote: one not escaped by an odd run of backslashes). A
    regex over the ~300k characters of a cubin's literal took 65 ms of a
    configuration's compile (bench_compile.py)."""
    i = start
    while True:
        j = text.index('"', i)
        k = j
        while text[k - 1] == "\\":
            k -= 1
        if (j - k) % 2 == 0:
            return j
        i = j + 1


def _nvvm_options():
    """Extra --flash-to-nvvm options (tuning: e.g. "mma-warps=8") from
    FLASH_MLIR_NVVM_OPTIONS; they are part of the cache key."""
    return os.environ.get("FLASH_MLIR_NVVM_OPTIONS", "").strip()


def _parse_attribute(text, i=0):
    """(value, next index) of the MLIR attribute at text[i:]: dictionaries,
    arrays, strings, integers (`: i64`), booleans and unit entries, as the
    flash.kernels module attribute holds them."""
    def ws(j):
        while j < len(text) and text[j] in " \n\t":
            j += 1
        return j

    i = ws(i)
    c = text[i]
    if c == "{":
        out, i = {}, ws(i + 1)
        while text[i] != "}":
            m = re.compile(r'"?([\w.$-]+)"?').match(text, i)
            key, i = m.group(1), ws(m.end())
            if text[i] == "=":
                out[key], i = _parse_attribute(text, i + 1)
            else:
                out[key] = True
            i = ws(i)
            if text[i] == ",":
                i = ws(i + 1)
        return out, i + 1
    if c == "[":
        out, i = [], ws(i + 1)
        while text[i] != "]":
            v, i = _parse_attribute(text, i)
            out.append(v)
            i = ws(i)
            if text[i] == ",":
                i = ws(i + 1)
        return out, i + 1
    if c == '"':
        m = re.compile(r'"((?:[^"\\]|\\.)*)"').match(text, i)
        return _unescape_mlir_string(m.group(1)).decode(), m.end()
    m = re.compile(r"(-?\d+)(\s*:\s*i\d+)?|(true|false)").match(text, i)
    if not m:
        raise compiler.CompileError(f"cannot read attribute at {text[i:i+40]!r}")
    if m.group(3):
        return m.group(3) == "true", m.end()
    return int(m.group(1)), m.end()


def launch_contracts(module_text):
    """The kernels' launch contracts in launch order, as flash-map-to-gpu
    records them on the module (`flash.kernels`: name, kind, block, rows,
    rows_per_block, batch_heads, sizes, scratch_per_block or
    scratch_keys_per_word, waits_for_previous): what is left of
    the kernels once they are a gpu.binary."""
    m = re.search(r"flash\.kernels = \[", module_text)
    if not m:
        raise compiler.CompileError("no flash.kernels in flash-opt's output")
    contracts, _ = _parse_attribute(module_text, m.end() - 1)
    return contracts


COMPILES = 0  # kernels compiled by this process (tests count them)


def kernel_class(cfg, grad=False):
    """The configuration a kernel is compiled for: `cfg` with dynamic
    sequence lengths (one kernel for every Nq, Nk) unless its regions are
    generated for the shape (segment ids: the ids' lengths; a window or
    ALiBi without a run-time mod_offset: Nk - Nq folded in; the front
    passes one), or FLASH_MLIR_DYNAMIC=0 (a kernel per shape,
    the sizes folded in). A decode forward (the GQA group's queries fit one
    split-KV tile: (Hq / Hkv) * Nq <= 16, no mask) keeps its Nq: a kernel
    per Nq, for every cache length."""
    import dataclasses

    if (os.environ.get("FLASH_MLIR_DYNAMIC", "1") == "0" or cfg.segments
            or ((cfg.window or cfg.alibi) and not cfg.mod_offset)):
        return cfg
    # Bottom-right causal (a decode step's queries are the last rows) is
    # the op's default offset, Nk - Nq at run time.
    offset = cfg.causal_offset
    if cfg.causal and offset == cfg.nk - cfg.nq and offset != 0:
        offset = None
    group = (cfg.hq or 1) // (cfg.hkv or cfg.hq or 1)
    if not grad and cfg.mask == "none" and group * cfg.nq <= 16:
        return dataclasses.replace(cfg, nk=1, dynamic="keys",
                                   causal_offset=offset)
    return dataclasses.replace(cfg, nq=1, nk=1, dynamic=True,
                               causal_offset=offset)


def compile_kernel(cfg, chip="sm_90a", features="+ptx80", grad=False):
    """(cubin bytes, kernel names, launch contract per kernel, in launch
    order) for flash.attention of `cfg` (its shapes static, or dynamic
    lengths with cfg.dynamic), or for flash.attention_grad with `grad`."""
    global COMPILES
    func = (program.fused_grad_func(cfg, name="bwd") if grad
            else program.fused_func(cfg, name="fwd"))
    text = "\n".join(["module {", func, "}"])
    extra = _nvvm_options()
    key = hashlib.sha256("\0".join(["cuda7", text, chip, features, extra]
                                   ).encode()).hexdigest()[:32]
    path = os.path.join(compiler.cache_dir(), f"{key}.cubin")
    side_path = os.path.join(compiler.cache_dir(), f"{key}.json")
    # The key has no compiler identity (a machine with only the GPU and the
    # cache cannot compute one): the sidecar records it, and a machine that
    # has flash-opt recompiles kernels another build of it made.
    try:
        tool = compiler._tool_id(compiler._flash_opt())
    except (compiler.CompileError, OSError):
        tool = None
    stale = not (os.path.exists(path) and os.path.exists(side_path))
    if not stale and tool is not None:
        with open(side_path) as f:
            stale = json.load(f).get("compiler") != tool
    if stale and tool is None:
        # A machine without flash-opt (a GPU machine with only the cache):
        # record the request for flash_mlir.offline and say so.
        path_req = compiler.pending_request(
            f"kernel-{key}.json", json.dumps({
                "config": repr(cfg), "grad": grad, "chip": chip,
                "features": features, "options": extra}))
        raise compiler.CompileError(
            f"flash-opt is not available here and kernel {key} is not in the "
            f"cache; the request is {path_req} (python3 -m flash_mlir.offline "
            f"on a machine with flash-opt fills the cache)")
    if stale:
        COMPILES += 1
        opt = compiler._flash_opt()
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "k.mlir")
            with open(src, "w") as f:
                f.write(text)
            env = dict(os.environ)
            env["PATH"] = "/usr/local/cuda/bin:" + env.get("PATH", "")
            p = subprocess.run(
                [opt, src, f"--flash-to-nvvm=chip={chip} features={features} "
                 f"format=bin {extra}"], capture_output=True, text=True,
                env=env)
            if p.returncode != 0:
                raise compiler.CompileError(p.stderr[-4000:])
            start = p.stdout.find('bin = "')
            if start < 0:
                raise compiler.CompileError("no gpu.binary in the output")
            start += len('bin = "')
            blob = _unescape_mlir_string(
                p.stdout[start:_literal_end(p.stdout, start)])
            contracts = launch_contracts(p.stdout)
        side = {"compiler": tool, "kernels": contracts}
        for dst, data, mode in ((path, blob, "wb"),
                                (side_path, json.dumps(side), "w")):
            tmp_path = dst + f".{os.getpid()}.tmp"
            with open(tmp_path, mode) as f:
                f.write(data)
            os.replace(tmp_path, dst)
    with open(path, "rb") as f:
        cubin = f.read()
    with open(side_path) as f:
        side = json.load(f)
    contracts = side["kernels"]
    # The buffers this front passes, in the kernels' order (their contract):
    # the backward's kernels over keys (dK/dV) take their own, the others
    # (a block mask, dQ, dQ's accumulator) the dQ kernel's.
    wants = [GRAD_Q_ARGS, GRAD_KV_ARGS] if grad else [["q", "k", "v", "o",
                                                        "lse"]]
    for c in contracts:
        if not any(c.get("args", [])[:len(w)] == w for w in wants):
            raise compiler.CompileError(
                f"kernel {c['name']} takes {c.get('args')}, not one of "
                f"{wants}...")
    _KINDS[(repr(cfg), grad, _nvvm_options())] = [c["kind"] for c in contracts]
    return cubin, [c["name"] for c in contracts], contracts


GRAD_Q_ARGS = ["q", "k", "v", "o", "lse", "do", "dq", "delta"]
GRAD_KV_ARGS = ["q", "k", "v", "lse", "do", "delta", "dk", "dv"]


def takes_kv_args(contract):
    """Whether a backward kernel takes the dK/dV kernel's buffers."""
    return contract["args"][:len(GRAD_KV_ARGS)] == GRAD_KV_ARGS


def geometry(contract, cfg):
    """((grid), (block)) of a kernel with launch contract `contract` for the
    shapes of `cfg`."""
    rows = cfg.nq if contract["rows"] == "nq" else cfg.nk
    bh = 1
    for b in cfg.batch:
        bh *= b
    if contract["batch_heads"] != "b":  # ("b": per batch, not head)
        bh *= ((cfg.hq or 1) if contract["batch_heads"] == "bh"
               else (cfg.hkv or 1))
    rpb = contract["rows_per_block"]
    gx = (rows + rpb - 1) // rpb
    if "target_blocks" in contract:
        # About target_blocks blocks in all (split-KV: splits of the keys).
        gx = min(gx, max(-(-contract["target_blocks"] // bh),
                         contract["min_blocks_x"]),
                 contract["max_blocks_x"])
    if "persistent_blocks" in contract:
        # A persistent kernel: its blocks loop over the gx * bh of above.
        return ((min(gx * bh, contract["persistent_blocks"]), 1, 1),
                (contract["block"], 1, 1))
    return (gx, bh, 1), (contract["block"], 1, 1)


_KEY_ROWS = ("k", "v", "dk", "dv")
_VALUE_COLS = ("v", "dv", "o", "do")
_ELEMENT_BYTES = {"f8E4M3FN": 1, "f16": 2, "bf16": 2, "f32": 4}


def tensor_maps(contract, cfg):
    """The TMA tensor maps a kernel takes after its sizes (its contract's
    tensor_maps: [buffer argument, box rows, box columns] each), as
    (argument, [outer, rows, cols], element bytes, box rows, box columns):
    the buffer [B, H, N, D] as [B H, N, D] (Nk rows for the keys' buffers,
    Nq for the queries')."""
    out = []
    bh = 1
    for b in cfg.batch:
        bh *= b
    for arg, box_rows, box_cols in contract.get("tensor_maps", []):
        name = contract["args"][arg]
        keys = name in _KEY_ROWS
        heads = (cfg.hkv if keys else cfg.hq) or 1
        cols = (cfg.dv or cfg.d) if name in _VALUE_COLS else cfg.d
        out.append((arg, (bh * heads, cfg.nk if keys else cfg.nq, cols),
                    _ELEMENT_BYTES[cfg.dtype], box_rows, box_cols))
    return out


def scratch_words(contracts, cfg):
    """f32 words of the scratch buffer the kernels share (0: none): those
    of the blocks of the kernel that owns it (split-KV records, a block
    mask's table)."""
    words = 0
    for c in contracts:
        per_block = c.get("scratch_per_block") or (
            -(-cfg.nk // c["scratch_keys_per_word"])
            if c.get("scratch_keys_per_word") else 0)
        if per_block:
            grid, _ = geometry(c, cfg)
            words = max(1, grid[0] * grid[1] * per_block)
    return words


def size_args(contract, cfg, mask=None):
    """The values of a kernel's size arguments for `cfg` (and the mask
    tensor as the kernels read it)."""
    lead = list(cfg.batch) + ([cfg.hq] if cfg.hq is not None else [])
    vals = []
    for name in contract["sizes"]:
        if name in ("nq", "nk"):
            vals.append(getattr(cfg, name))
        elif name.startswith("lead"):
            vals.append(lead[int(name[4:])])
        elif name.startswith("mask_lead_stride"):
            i = int(name[len("mask_lead_stride"):])
            off = mask.dim() - 2 - len(lead)
            vals.append(mask.stride(i + off) if i + off >= 0 else 0)
        elif name == "mask_row_stride":
            vals.append(mask.stride(-2) if mask.shape[-2] != 1 else 0)
        elif name == "mask_key_stride":
            vals.append(mask.stride(-1) if mask.shape[-1] != 1 else 0)
        else:
            raise compiler.CompileError(f"unknown size argument {name}")
    return vals


_KINDS = {}


def kernel_kinds(cfg, grad=False):
    """The mapping of each kernel of compile_kernel(cfg, grad=grad):
    "wgmma", "mma.sync" (tensor cores) or "simt" (CUDA cores)."""
    if (repr(cfg), grad, _nvvm_options()) not in _KINDS:
        compile_kernel(cfg, grad=grad)
    return _KINDS[(repr(cfg), grad, _nvvm_options())]


class CudaKernel:
    """A cubin's kernel, launched through libcuda with raw pointers."""

    _cuda = None

    def __init__(self, cubin, names, contracts):
        self.contracts = contracts
        if CudaKernel._cuda is None:
            CudaKernel._cuda = ctypes.CDLL("libcuda.so.1")
        cu = CudaKernel._cuda
        self._check(cu.cuInit(0), "cuInit")
        self._ensure_context()
        self._blob = ctypes.create_string_buffer(cubin, len(cubin))
        self._module = ctypes.c_void_p()
        self._check(cu.cuModuleLoadData(ctypes.byref(self._module),
                                        self._blob), "cuModuleLoadData")
        self._fns = []
        for name in names:
            fn = ctypes.c_void_p()
            self._check(cu.cuModuleGetFunction(ctypes.byref(fn), self._module,
                                               name.encode()),
                        "cuModuleGetFunction")
            self._fns.append(fn)

    @classmethod
    def _ensure_context(cls):
        """The device's primary context (torch's) current on this thread."""
        cu = cls._cuda
        ctx = ctypes.c_void_p()
        cls._check(cu.cuCtxGetCurrent(ctypes.byref(ctx)), "cuCtxGetCurrent")
        if ctx.value:
            return
        try:
            import torch
            dev_index = torch.cuda.current_device()
        except Exception:
            dev_index = 0
        dev = ctypes.c_int()
        cls._check(cu.cuDeviceGet(ctypes.byref(dev), dev_index), "cuDeviceGet")
        cls._check(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev),
                   "cuDevicePrimaryCtxRetain")
        cls._check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")

    @staticmethod
    def _check(r, what):
        if r != 0:
            raise RuntimeError(f"{what} failed with CUDA error {r}")


class _LaunchAttribute(ctypes.Structure):
    """CUlaunchAttribute: an id, then a 64-byte value (8-byte aligned)."""
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4),
                ("value", ctypes.c_int), ("rest", ctypes.c_char * 60)]


class _LaunchConfig(ctypes.Structure):
    """CUlaunchConfig."""
    _fields_ = [("grid", ctypes.c_uint * 3), ("block", ctypes.c_uint * 3),
                ("shared", ctypes.c_uint), ("stream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(_LaunchAttribute)),
                ("num_attrs", ctypes.c_uint)]


# CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
_PROGRAMMATIC = 6


class Launch:
    """One kernel launch of fixed geometry and sizes, its argument array
    built once: a call fills in the buffers' pointers and launches (the
    per-call work of the front's cached plans). `programmatic`: the kernel
    waits for the previous one itself (its contract's waits_for_previous),
    so it is launched to start before that one ends (CUDA's programmatic
    dependent launch, cuLaunchKernelEx)."""

    def __init__(self, kernel, which, grid, block, n_pointers, sizes,
                 programmatic=False, maps=()):
        cu = CudaKernel._cuda
        if not getattr(cu.cuLaunchKernel, "argtypes", None):
            u = ctypes.c_uint
            cu.cuLaunchKernel.argtypes = [ctypes.c_void_p, u, u, u, u, u, u,
                                          u, ctypes.c_void_p, ctypes.c_void_p,
                                          ctypes.c_void_p]
        self.config = None
        if programmatic and hasattr(cu, "cuLaunchKernelEx"):
            if not getattr(cu.cuLaunchKernelEx, "argtypes", None):
                cu.cuLaunchKernelEx.argtypes = [
                    ctypes.POINTER(_LaunchConfig), ctypes.c_void_p,
                    ctypes.c_void_p, ctypes.c_void_p]
            self.attr = _LaunchAttribute(id=_PROGRAMMATIC, value=1)
            self.config = _LaunchConfig(
                grid=(ctypes.c_uint * 3)(*grid),
                block=(ctypes.c_uint * 3)(*block), shared=0,
                attrs=ctypes.pointer(self.attr), num_attrs=1)
        self.fn = kernel._fns[which]
        self.dims = tuple(grid) + tuple(block)
        self.empty = 0 in grid
        self.ptrs = (ctypes.c_void_p * max(1, n_pointers))()
        self.sizes = (ctypes.c_int64 * max(1, len(sizes)))(*sizes)
        # The tensor maps (tensor_maps()): 128-byte parameters by value,
        # 64-byte aligned, encoded again when their buffer moves.
        self.maps = [_TensorMap(*m) for m in maps]
        addrs = ([ctypes.addressof(self.ptrs) + 8 * i
                  for i in range(n_pointers)] +
                 [ctypes.addressof(self.sizes) + 8 * i
                  for i in range(len(sizes))] +
                 [m.address for m in self.maps])
        self.params = (ctypes.c_void_p * max(1, len(addrs)))(*addrs)
        self.n = n_pointers

    def __call__(self, pointers, stream):
        if self.empty:
            return
        self.ptrs[:self.n] = pointers
        for m in self.maps:
            m.encode(pointers[m.arg])
        if self.config is not None:
            self.config.stream = stream
            r = CudaKernel._cuda.cuLaunchKernelEx(ctypes.byref(self.config),
                                                  self.fn, self.params, None)
        else:
            r = CudaKernel._cuda.cuLaunchKernel(self.fn, *self.dims, 0,
                                                stream, self.params, None)
        if r != 0:
            raise RuntimeError(f"cuLaunchKernel failed with CUDA error {r}")


class _TensorMap:
    """A CUtensorMap of a contiguous [outer, rows, cols] buffer in boxes
    of box_rows x box_cols elements, 128-byte swizzled, zeros outside (as
    the runtime's flashTensorMapEncode makes them for the MLIR host code),
    re-encoded by cuTensorMapEncodeTiled whenever its buffer moves."""

    def __init__(self, arg, dims, elt_bytes, box_rows, box_cols):
        cu = CudaKernel._cuda
        if not getattr(cu.cuTensorMapEncodeTiled, "argtypes", None):
            p, u = ctypes.c_void_p, ctypes.c_uint
            cu.cuTensorMapEncodeTiled.argtypes = [p, ctypes.c_int, u, p, p, p,
                                                  p, p, ctypes.c_int,
                                                  ctypes.c_int, ctypes.c_int,
                                                  ctypes.c_int]
        self.arg = arg
        self._raw = ctypes.create_string_buffer(128 + 64)
        self.address = (ctypes.addressof(self._raw) + 63) & ~63
        outer, rows, cols = (max(1, x) for x in dims)
        u64, u32 = ctypes.c_uint64, ctypes.c_uint32
        self._dims = (u64 * 3)(cols, rows, outer)
        self._strides = (u64 * 2)(cols * elt_bytes, rows * cols * elt_bytes)
        self._box = (u32 * 3)(box_cols, box_rows, 1)
        self._steps = (u32 * 3)(1, 1, 1)
        # CU_TENSOR_MAP_DATA_TYPE_UINT8 / 16 / 32: the copies are bitwise.
        self._type = {1: 0, 2: 1, 4: 2}[elt_bytes]
        self._at = None

    def encode(self, pointer):
        if pointer == self._at:
            return
        if not pointer:
            # An empty buffer (no tile of it is ever copied): a zero map,
            # which the encoder would reject.
            ctypes.memset(self.address, 0, 128)
            self._at = pointer
            return
        if pointer % 16:
            raise ValueError("a TMA tensor map needs a 16-byte aligned "
                             "buffer (flash_mlir.cuda aligns its operands)")
        # INTERLEAVE_NONE, SWIZZLE_128B, L2_PROMOTION_L2_256B,
        # FLOAT_OOB_FILL_NONE (zeros).
        r = CudaKernel._cuda.cuTensorMapEncodeTiled(
            self.address, self._type, 3, pointer, self._dims, self._strides,
            self._box, self._steps, 0, 3, 3, 0)
        if r != 0:
            raise RuntimeError(f"cuTensorMapEncodeTiled failed with CUDA "
                               f"error {r}")
        self._at = pointer


_KERNELS = {}


def _fp8_dtype():
    """torch's e4m3 dtype (torch >= 2.1), or None."""
    import torch
    return getattr(torch, "float8_e4m3fn", None)


def _config(q, k, v, causal, scale, mask=None, causal_offset=None,
            descale="none"):
    import torch

    if q.dim() != 4 or k.dim() != 4 or v.dim() != 4:
        raise ValueError("q, k, v must be [B, H, N, D]")
    if not (q.is_cuda and k.is_cuda and v.is_cuda):
        raise ValueError("q, k, v must be CUDA tensors")
    dt = {torch.float32: "f32", torch.float16: "f16",
          torch.bfloat16: "bf16", _fp8_dtype(): "f8E4M3FN"}.get(q.dtype)
    if dt is None or k.dtype != q.dtype or v.dtype != q.dtype:
        raise TypeError("q, k, v must share one of float32/float16/bfloat16 "
                        "(or float8_e4m3fn, forward only)")
    if descale != "none" and dt != "f8E4M3FN":
        raise TypeError("q_descale, k_descale, v_descale need float8_e4m3fn "
                        "q, k, v")
    B, H, N, D = q.shape
    if k.shape[0] != B or k.shape[1] == 0 or H % k.shape[1]:
        raise ValueError("k/v heads must divide the query heads (GQA)")
    cfg = program.Config(batch=[B], hq=H, hkv=k.shape[1], nq=N,
                         nk=k.shape[2], d=D, dv=v.shape[3], dtype=dt,
                         causal=bool(causal),
                         causal_offset=(0 if causal_offset is None
                                        else causal_offset) if causal else None,
                         scale=scale, lse=True, descale=descale)
    if mask is not None:
        # The kernels read an additive f32 mask in place: [Nq, Nk] broadcast
        # over batch and heads, or the full [B, H, Nq, Nk].
        cfg.mask, cfg.mask_bcast = "add", mask.dim() == 2
    return cfg


def _descales(descales, q, k):
    """An fp8 call's (q_descale, k_descale, v_descale) as the kernels read
    them: ("none" | "tensor" | "head", [three contiguous float32 tensors
    on q's device]): one element each, or [B, Hkv] (FlashAttention-3's)."""
    import torch

    if descales is None or all(d is None for d in descales):
        return "none", []
    if any(d is None for d in descales):
        raise ValueError("give all of q_descale, k_descale, v_descale or none")
    per_head = (q.shape[0], k.shape[1])
    out, kinds = [], set()
    for name, d in zip(("q_descale", "k_descale", "v_descale"), descales):
        t = torch.as_tensor(d, dtype=torch.float32, device=q.device)
        if t.numel() == 1:
            kinds.add("tensor")
            t = t.reshape(1)
        elif tuple(t.shape) == per_head:
            kinds.add("head")
        else:
            raise ValueError(f"{name} of shape {tuple(t.shape)}: one element "
                             f"or [B, Hkv] = {list(per_head)}")
        out.append(t.contiguous())
    if len(kinds) != 1:
        raise ValueError("q_descale, k_descale, v_descale must all be per "
                         "tensor or all per [B, Hkv]")
    return kinds.pop(), out


def _prepare(q, k, v, causal, scale, mask, mods, causal_offset=None,
             mod_offset=None, descales=None):
    """(cfg, the kernels' extra buffers: the mask as _mask makes it, the
    modifiers' captured tensors on q's device, an fp8 call's descale
    factors) for `mods` = (window, softcap, alibi_slopes, segment_ids),
    `mod_offset` and `descales` as flash_mlir.attention takes them (the
    tensor-core kernels, f16/bf16, run the modifiers)."""
    from . import _modifiers

    m = _mask(mask, q, k)
    kind, ds = _descales(descales, q, k)
    cfg = _config(q, k, v, causal, scale, m, causal_offset, kind)
    window, _, alibi_slopes, segment_ids = mods
    if (mod_offset is None and segment_ids is None and
            (window is not None or alibi_slopes is not None)):
        # The window's and ALiBi's diagonal (Nk - Nq by default) as a
        # run-time argument: their kernels then serve every length.
        mod_offset = k.shape[-2] - q.shape[-2]

    caps = _modifiers(cfg, q, k, *mods,
                      as_array=lambda x, dtype: _on_device(x, dtype,
                                                           q.device),
                      mod_offset=mod_offset)
    return cfg, ([] if m is None else [m]) + caps + ds


# Small captured arrays made from Python values (a window's diagonal
# offset, ALiBi slopes given as a list), kept on the device per value: not
# a blocking copy from host memory in every call (which a CUDA graph
# capture would also refuse). (On the H200 the window's forward at 16k
# took as long per call with it as without, 0.60-0.66 ms: its kernel runs
# 0.39 ms under ncu; where the rest goes is open.)
_CONSTANTS = collections.OrderedDict()
_MAX_CONSTANTS = 256


def _on_device(x, dtype, device):
    """x (a tensor, array or Python numbers) as a contiguous tensor of
    `dtype` ("f32" | "i32" | "i64") on `device`; Python numbers through
    _CONSTANTS."""
    import torch
    tdt = {"f32": torch.float32, "i32": torch.int32, "i64": torch.int64}[dtype]
    key = None
    if isinstance(x, (list, tuple)) and all(
            isinstance(e, (int, float)) and not isinstance(e, bool)
            for e in x):
        key = (tuple(x), dtype, str(device))
        hit = _CONSTANTS.get(key)
        if hit is not None:
            _CONSTANTS.move_to_end(key)
            return hit
    t = torch.as_tensor(x, device=device).to(tdt).contiguous()
    if key is not None:
        _CONSTANTS[key] = t
        if len(_CONSTANTS) > _MAX_CONSTANTS:
            _CONSTANTS.popitem(last=False)
    return t


def _mask(mask, q, k):
    """A bool (keep) or float mask broadcastable to [B, H, Nq, Nk] as the
    kernels read it: additive float32 (a dropped key: -inf), [Nq, Nk] when
    it is that, else expanded to [B, H, Nq, Nk]."""
    import torch

    if mask is None:
        return None
    if not isinstance(mask, torch.Tensor) or not mask.is_cuda:
        raise ValueError("mask must be a CUDA tensor like q")
    full = (q.shape[0], q.shape[1], q.shape[2], k.shape[2])
    if mask.dim() == 2 and tuple(mask.shape) == full[2:]:
        full = full[2:]
    try:
        m = mask.expand(full)
    except RuntimeError:
        raise ValueError(f"mask of shape {tuple(mask.shape)} does not "
                         f"broadcast to {full}") from None
    if m.dtype == torch.bool:
        return torch.zeros(full, dtype=torch.float32,
                           device=q.device).masked_fill_(~m, float("-inf"))
    if not m.dtype.is_floating_point:
        raise TypeError(f"mask must be bool or floating point, got {m.dtype}")
    return m.to(torch.float32).contiguous()


def _kernel(cfg, grad):
    cls = kernel_class(cfg, grad)
    key = (repr(cls), grad, _nvvm_options())
    if key not in _KERNELS:
        _KERNELS[key] = CudaKernel(*compile_kernel(cls, grad=grad))
        # (Only where no kernel is on tensor cores: the backward by
        # reductions and a block mask have small SIMT helper kernels.)
        if all(kind == "simt" for kind in kernel_kinds(cls, grad)):
            import warnings
            warnings.warn(
                f"flash_mlir: this {'backward' if grad else 'forward'} "
                f"({cfg.dtype}, head dim {cfg.d}) runs on CUDA cores, not "
                "tensor cores (those take f16/bf16 with head dims that are "
                "multiples of 16 up to 256; the backward up to 128, or 256 "
                "on sm_90a): correct but slow",
                stacklevel=3)
    return _KERNELS[key]


def forward(q, k, v, causal=False, scale=None, mask=None, window=None,
            softcap=None, alibi_slopes=None, segment_ids=None,
            causal_offset=None, want_lse=True, mod_offset=None,
            q_descale=None, k_descale=None, v_descale=None):
    """softmax(scale q k^T [+ mask] [causal]) v on CUDA torch tensors
    [B, H, N, D] (GQA when k/v have fewer heads; causal is top-left aligned,
    as torch's is_causal, unless `causal_offset` says otherwise; `mask`
    bool or float, broadcastable; the modifiers as flash_mlir.attention
    takes them); returns (o, lse). `want_lse=False`: the lse returned is a
    buffer the forward reuses from call to call (inference that does not
    read it saves an allocation). fp8 (float8_e4m3fn q, k, v; o in bf16)
    takes FlashAttention-3's q_descale, k_descale, v_descale (one element,
    or [B, Hkv])."""
    descales = (q_descale, k_descale, v_descale)
    if all(d is None for d in descales):
        descales = None
    if (mask is None and window is None and softcap is None
            and alibi_slopes is None and segment_ids is None
            and descales is None):
        mods = None
    else:
        mods = (mask, (window, softcap, alibi_slopes, segment_ids),
                mod_offset, descales)
    return _plan(_Plan, q, k, v, causal, scale, causal_offset, mods)(
        q, k, v, want_lse, mods)


def backward(q, k, v, o, lse, do, causal=False, scale=None, mask=None,
             window=None, softcap=None, alibi_slopes=None, segment_ids=None,
             causal_offset=None, mod_offset=None):
    """(dq, dk, dv) from the forward's o and lse, recomputing P on the GPU
    (the modifiers included: dS is scaled by the soft-cap's derivative)."""
    mods = (mask, (window, softcap, alibi_slopes, segment_ids), mod_offset,
            None)
    return _plan(_GradPlan, q, k, v, causal, scale, causal_offset, mods)(
        q, k, v, o, lse, do, mods)


# The launch plans by call signature, oldest first (a decode loop makes a
# new shape per token: the table stays bounded).
_PLANS = collections.OrderedDict()
_MAX_PLANS = 256


def _plan(kind, q, k, v, causal, scale, causal_offset, mods):
    """The cached plan (_Plan or _GradPlan) of a call with these tensors'
    shapes and these arguments. The key is cheap to build (this is the
    per-call path): shapes, q's dtype and device index, the arguments with
    tensors by their layout (_frozen); k and v must match q's (checked
    here, not keyed)."""
    key = (kind, q.shape, k.shape, v.shape, q.dtype, q.get_device(), causal,
           scale, causal_offset, None if mods is None else _frozen(mods),
           os.environ.get("FLASH_MLIR_DYNAMIC"),
           os.environ.get("FLASH_MLIR_NVVM_OPTIONS"))
    plan = _PLANS.get(key)
    if (plan is None or k.dtype is not q.dtype or v.dtype is not q.dtype
            or k.get_device() != key[5] or v.get_device() != key[5]):
        # (A mismatch goes to _prepare, which explains it.)
        plan = kind(q, k, v, causal, scale, causal_offset, mods)
        _PLANS[key] = plan
        if len(_PLANS) > _MAX_PLANS:
            _PLANS.popitem(last=False)
    else:
        _PLANS.move_to_end(key)
    return plan


def _frozen(x):
    """A hashable stand-in for a call's mask and modifiers: arrays (torch,
    numpy) by their layout, not their contents, which a call reads."""
    if isinstance(x, (list, tuple)):
        return tuple(_frozen(e) for e in x)
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        stride = x.stride() if callable(getattr(x, "stride", None)) else None
        return ("array", type(x), tuple(x.shape), str(x.dtype), stride,
                str(getattr(x, "device", "")))
    return x


def _holds_arrays(x):
    if isinstance(x, (list, tuple)):
        return any(_holds_arrays(e) for e in x)
    return hasattr(x, "shape") and hasattr(x, "dtype")


_CONTEXT = threading.local()


class _Signature:
    """What the plans of a call signature share: the configuration and its
    kernels (_prepare, _kernel), the modifiers' captured buffers when they
    come from Python values (kept alive here; None: made per call from the
    call's arrays, whose contents may change), the current stream's
    getter."""

    def __init__(self, q, k, v, causal, scale, causal_offset, mods, grad):
        self.args = (causal, scale, causal_offset)
        mask, mod_values, mod_offset, descales = mods or (
            None, (None,) * 4, None, None)
        self.cfg, extra = _prepare(q, k, v, causal, scale, mask, mod_values,
                                   causal_offset, mod_offset, descales)
        self.kern = _kernel(self.cfg, grad=grad)
        self.extra = None if _holds_arrays(mods) else extra
        self.n_extra = len(extra)
        self.mask = extra[0] if self.cfg.mask != "none" else None
        self.stream = _stream_getter(q)

    def launches(self, fixed):
        """A Launch per kernel, its geometry and sizes prepared: `fixed`
        pointers, then the captured buffers'."""
        return [Launch(self.kern, which, *geometry(c, self.cfg),
                       fixed + self.n_extra, size_args(c, self.cfg, self.mask),
                       programmatic=(which > 0 and
                                     c.get("waits_for_previous", False)),
                       maps=tensor_maps(c, self.cfg))
                for which, c in enumerate(self.kern.contracts)]

    def extras(self, q, k, v, mods):
        """This call's captured buffers."""
        if self.extra is not None:
            return self.extra
        mask, mod_values, mod_offset, descales = mods
        causal, scale, causal_offset = self.args
        return _prepare(q, k, v, causal, scale, mask, mod_values,
                        causal_offset, mod_offset, descales)[1]


class _Plan(_Signature):
    """A forward of one call signature (shapes, flags, modifiers): the
    kernels' launches, the outputs' shapes. A call does only what must be
    per call: two allocations (one without lse), the pointers, the current
    stream, one cuLaunchKernel a kernel; and _prepare's conversion of the
    mask and modifier arrays when there are any."""

    def __init__(self, q, k, v, causal, scale, causal_offset, mods):
        import torch

        super().__init__(q, k, v, causal, scale, causal_offset, mods, False)
        B, H, N, _ = q.shape
        self.o_shape = (B, H, N, v.shape[3])
        # (fp8: o in bf16.)
        self.o_dtype = (torch.bfloat16 if self.cfg.dtype == "f8E4M3FN"
                        else q.dtype)
        self.lse_shape = (B, H, N)
        self.scratch = scratch_words(self.kern.contracts, self.cfg)
        # (The scratch buffer's pointer comes after the captured ones.)
        self.runs = self.launches(5 + (self.scratch > 0))
        self.f32 = torch.float32
        self.unused_lse = {}  # stream -> the lse nobody reads

    def __call__(self, q, k, v, want_lse, mods):
        q, k, v = _contiguous(q), _contiguous(k), _contiguous(v)
        extra = self.extras(q, k, v, mods)
        stream = self.stream()
        o = q.new_empty(self.o_shape, dtype=self.o_dtype)
        lse = self.unused_lse.get(stream) if not want_lse else None
        if lse is None:
            lse = q.new_empty(self.lse_shape, dtype=self.f32)
            if not want_lse:
                self.unused_lse[stream] = lse
        ptrs = [q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(),
                lse.data_ptr()] + [t.data_ptr() for t in extra]
        if self.scratch:
            # (Per call: a buffer shared by calls on different streams
            # would be a race, and decode's can be large.)
            scratch = q.new_empty(self.scratch, dtype=self.f32)
            ptrs.append(scratch.data_ptr())
        for launch in self.runs:
            launch(ptrs, stream)
        return o, lse


class _GradPlan(_Signature):
    """A backward of one call signature, as _Plan is a forward's: the dQ
    kernel (which also computes D = rowsum(dO * O)) and the dK/dV kernel
    (after a block mask's kernel, for a mask_mod beyond affine bounds,
    which takes the dQ kernel's buffers)."""

    def __init__(self, q, k, v, causal, scale, causal_offset, mods):
        import torch

        super().__init__(q, k, v, causal, scale, causal_offset, mods, True)
        B, H, N, _ = q.shape
        self.delta_shape = (B, H, N)
        self.scratch = scratch_words(self.kern.contracts, self.cfg)
        # (The scratch buffer's pointer comes after the captured ones.)
        self.runs = self.launches(8 + (self.scratch > 0))
        self.kv_side = [takes_kv_args(c) for c in self.kern.contracts]
        self.f32 = torch.float32

    def __call__(self, q, k, v, o, lse, do, mods):
        q, k, v, o, lse, do = (_contiguous(t) for t in (q, k, v, o, lse, do))
        extra = self.extras(q, k, v, mods)
        stream = self.stream()
        dq, dk, dv = (t.new_empty(t.shape) for t in (q, k, v))
        delta = q.new_empty(self.delta_shape, dtype=self.f32)
        rest = [t.data_ptr() for t in extra]
        if self.scratch:
            # (Held until the launches are queued: then stream order
            # protects it, as it does the forward's.)
            scratch = q.new_empty(self.scratch, dtype=self.f32)
            rest.append(scratch.data_ptr())
        q_side = [t.data_ptr() for t in (q, k, v, o, lse, do, dq, delta)]
        kv_side = [t.data_ptr() for t in (q, k, v, lse, do, delta, dk, dv)]
        for launch, kv in zip(self.runs, self.kv_side):
            launch((kv_side if kv else q_side) + rest, stream)
        return dq, dk, dv


def _contiguous(t):
    """t row-major and 16-byte aligned (what the kernels' tensor maps need;
    a view into a larger buffer may start anywhere)."""
    if t.is_contiguous() and t.data_ptr() % 16 == 0:
        return t
    return t.clone(memory_format=_contiguous_format())


def _contiguous_format():
    import torch
    return torch.contiguous_format


def _stream_getter(q):
    """A function of no arguments: the current stream's handle on q's
    device (the torch binding without Python objects where torch has it),
    with the driver context made current on this thread once."""
    import torch

    index = q.get_device()
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    get = ((lambda: raw(index)) if raw is not None else
           (lambda: torch.cuda.current_stream().cuda_stream))

    def stream():
        if not getattr(_CONTEXT, "current", False):
            CudaKernel._ensure_context()
            _CONTEXT.current = True
        return get()
    return stream


def _autograd():
    import torch

    class Attention(torch.autograd.Function):
        @staticmethod
        def forward(ctx, q, k, v, causal, scale, mask, mods, offset,
                    mod_offset):
            o, lse = forward(q, k, v, causal, scale, mask, *mods,
                             causal_offset=offset, mod_offset=mod_offset)
            ctx.save_for_backward(q, k, v, o, lse)
            ctx.mark_non_differentiable(lse)
            ctx.args = (causal, scale, mask, mods, offset, mod_offset)
            return o, lse

        @staticmethod
        def backward(ctx, do, _dlse):
            q, k, v, o, lse = ctx.saved_tensors
            causal, scale, mask, mods, offset, mod_offset = ctx.args
            dq, dk, dv = backward(q, k, v, o, lse, do.contiguous(), causal,
                                  scale, mask, *mods, causal_offset=offset,
                                  mod_offset=mod_offset)
            return dq, dk, dv, None, None, None, None, None, None

    return Attention


_FN = None


def attention(q, k, v, causal=False, scale=None, mask=None, window=None,
              softcap=None, alibi_slopes=None, segment_ids=None,
              causal_offset=None, return_lse=False, mod_offset=None,
              q_descale=None, k_descale=None, v_descale=None):
    """flash-mlir attention on CUDA tensors with autograd (our backward
    kernels run in loss.backward()); `mask`: bool (True keeps a key) or
    float (added), broadcastable to [B, H, Nq, Nk]; the modifiers (window,
    softcap, alibi_slopes, segment_ids, mod_offset) as flash_mlir.attention
    takes them,
    on the tensor-core kernels (f16/bf16, head dims multiples of 16; the
    backward up to 128)."""
    global _FN
    import torch
    from . import _causal_offset

    if window is not None and causal_offset is None:
        # (flash_mlir.attention's alignment: the window's diagonal.)
        causal_offset = _causal_offset(causal, None, q, k, window, mod_offset)
    mods = (window, softcap, alibi_slopes, segment_ids)
    descales = dict(q_descale=q_descale, k_descale=k_descale,
                    v_descale=v_descale)
    fp8 = q.dtype == _fp8_dtype()
    if not (torch.is_grad_enabled() and
            (q.requires_grad or k.requires_grad or v.requires_grad)) or fp8:
        # Inference: no autograd node to record (fp8 has no backward: its
        # tensors cannot require grad).
        o, lse = forward(q, k, v, causal, scale, mask, *mods,
                         causal_offset=causal_offset, want_lse=return_lse,
                         mod_offset=mod_offset, **descales)
        return (o, lse) if return_lse else o
    if any(d is not None for d in descales.values()):
        raise TypeError("q_descale, k_descale, v_descale need float8_e4m3fn "
                        "q, k, v")
    if _FN is None:
        _FN = _autograd()
    o, lse = _FN.apply(q, k, v, causal, scale, mask, mods, causal_offset,
                       mod_offset)
    return (o, lse) if return_lse else o
