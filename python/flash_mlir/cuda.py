"""flash-mlir kernels on NVIDIA GPUs from Python (torch CUDA tensors).

`compile_kernel(cfg)` lowers `flash.attention` for a configuration with
`flash-opt --flash-to-nvvm` and returns the cubin bytes and the kernel name
(cached like the CPU kernels, so a machine with only the GPU and the cache
can load them). `CudaKernel` loads a cubin with the CUDA driver API (through
ctypes, no CUDA toolkit needed at run time) and launches it on torch's
current stream with the tensors' device pointers: no host copies.

The kernel is the first GPU mapping of flash-map-to-gpu: one query row per
thread, K/V tiles in shared memory, f32 arithmetic (no tensor cores yet).
"""

import ctypes
import hashlib
import os
import re
import subprocess
import tempfile

from . import compiler, mlirgen

THREADS = 128


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


def compile_kernel(cfg, chip="sm_90a", features="+ptx80"):
    """(cubin bytes, kernel name) for flash.attention of `cfg` (static
    shapes, forward)."""
    text = "\n".join(["module {", mlirgen.fused_func(cfg, name="fwd"), "}"])
    key = hashlib.sha256("\0".join(["cuda1", text, chip, features]).encode()
                         ).hexdigest()[:32]
    path = os.path.join(compiler.cache_dir(), f"{key}.cubin")
    if not os.path.exists(path):
        opt = compiler._flash_opt()
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "k.mlir")
            with open(src, "w") as f:
                f.write(text)
            env = dict(os.environ)
            env["PATH"] = "/usr/local/cuda/bin:" + env.get("PATH", "")
            p = subprocess.run(
                [opt, src, f"--flash-to-nvvm=chip={chip} features={features} "
                 "format=bin"], capture_output=True, text=True, env=env)
            if p.returncode != 0:
                raise compiler.CompileError(p.stderr[-4000:])
            m = re.search(r'bin = "((?:[^"\\]|\\.)*)"', p.stdout)
            if not m:
                raise compiler.CompileError("no gpu.binary in the output")
            blob = _unescape_mlir_string(m.group(1))
        tmp_path = path + f".{os.getpid()}.tmp"
        with open(tmp_path, "wb") as f:
            f.write(blob)
        os.replace(tmp_path, path)
    with open(path, "rb") as f:
        return f.read(), "flash_attention_0"


class CudaKernel:
    """A cubin's kernel, launched through libcuda with raw pointers."""

    _cuda = None

    def __init__(self, cubin, name):
        if CudaKernel._cuda is None:
            CudaKernel._cuda = ctypes.CDLL("libcuda.so.1")
        cu = CudaKernel._cuda
        self._check(cu.cuInit(0), "cuInit")
        self._blob = ctypes.create_string_buffer(cubin, len(cubin))
        self._module = ctypes.c_void_p()
        self._check(cu.cuModuleLoadData(ctypes.byref(self._module),
                                        self._blob), "cuModuleLoadData")
        self._fn = ctypes.c_void_p()
        self._check(cu.cuModuleGetFunction(ctypes.byref(self._fn),
                                           self._module, name.encode()),
                    "cuModuleGetFunction")

    @staticmethod
    def _check(r, what):
        if r != 0:
            raise RuntimeError(f"{what} failed with CUDA error {r}")

    def launch(self, grid, block, pointers, stream):
        args = [ctypes.c_void_p(p) for p in pointers]
        params = (ctypes.c_void_p * len(args))(
            *[ctypes.cast(ctypes.byref(a), ctypes.c_void_p) for a in args])
        self._check(self._cuda.cuLaunchKernel(
            self._fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
            0, ctypes.c_void_p(stream), params, None), "cuLaunchKernel")


_KERNELS = {}


def attention(q, k, v, causal=False, scale=None):
    """softmax(scale q k^T [causal]) v on CUDA torch tensors [B, H, N, D]
    (GQA when k/v have fewer heads); returns (o, lse)."""
    import torch

    if q.dim() != 4 or k.dim() != 4 or v.dim() != 4:
        raise ValueError("q, k, v must be [B, H, N, D]")
    if not (q.is_cuda and k.is_cuda and v.is_cuda):
        raise ValueError("q, k, v must be CUDA tensors")
    dt = {torch.float32: "f32", torch.float16: "f16",
          torch.bfloat16: "bf16"}.get(q.dtype)
    if dt is None or k.dtype != q.dtype or v.dtype != q.dtype:
        raise TypeError("q, k, v must share one of float32/float16/bfloat16")
    B, H, N, D = q.shape
    cfg = mlirgen.Config(batch=[B], hq=H, hkv=k.shape[1], nq=N,
                         nk=k.shape[2], d=D, dv=v.shape[3], dtype=dt,
                         causal=bool(causal), causal_offset=0 if causal else None,
                         scale=scale, lse=True)
    key = repr(cfg)
    if key not in _KERNELS:
        _KERNELS[key] = CudaKernel(*compile_kernel(cfg))
    kern = _KERNELS[key]
    q, k, v = (t.contiguous() for t in (q, k, v))
    o = torch.empty(B, H, N, v.shape[3], dtype=q.dtype, device=q.device)
    lse = torch.empty(B, H, N, dtype=torch.float32, device=q.device)
    grid = ((N + THREADS - 1) // THREADS, B * H, 1)
    kern.launch(grid, (THREADS, 1, 1),
                [q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(),
                 lse.data_ptr()], torch.cuda.current_stream().cuda_stream)
    return o, lse
