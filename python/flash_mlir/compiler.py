"""Compile-and-cache: the one place that turns an attention configuration
into a loaded kernel.

A configuration (shapes, dtype, causal, scale, blocks, loop order) becomes
MLIR text (flash_mlir.program), is lowered by `flash-opt --flash-to-cpu`, translated to
LLVM IR and compiled by clang into a shared object stored in a cache
directory under a hash of everything that determines it. Loading needs only
the cache: a kernel compiled on a machine with flash-opt loads anywhere the
same .so runs. The CPU runtime (loading and calling the kernels) is
flash_mlir.cpu, the CUDA one flash_mlir.cuda.

Environment: FLASH_MLIR_CACHE (default ~/.cache/flash_mlir), FLASH_OPT
(default: build/bin/flash-opt of this checkout, then PATH), LLVM_PREFIX
(default /usr/lib/llvm-22).
"""

import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile


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
