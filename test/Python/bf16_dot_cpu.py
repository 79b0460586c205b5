# bf16 attention on AVX512-BF16 (--flash-to-cpu bf16-dot=on: vdpbf16ps
# block products, p and ds rounded to bf16), forward and backward, against
# float64 attention and its gradient computed by numpy from the same bf16
# inputs. Sizes are not multiples of the blocks (128 x 64, 8 x 32 register
# tiles): remainder blocks (masked column tiles), 4-row and 1-row tiles. The
# lowered module must call the dot intrinsic, else the check would be
# vacuous.
# REQUIRES: avx512bf16
# RUN: %python %s %flash_obj_root/bin/flash-opt %t.dir | FileCheck %s

import os
import subprocess
import sys

import numpy as np

from flash_mlir import program
from flash_mlir.cpu import Kernel, _with_c_interface

LLVM = "/usr/lib/llvm-22"
OPT, TMP = sys.argv[1], sys.argv[2]
os.makedirs(TMP, exist_ok=True)


def to_bf16(x):
    """float32 -> bf16 bits (uint16), round to nearest even."""
    b = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    b = b + 0x7FFF + ((b >> 16) & 1)
    return (b >> 16).astype(np.uint16)


def from_bf16(h):
    return (h.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def compile_kernels(cfg, tag, options):
    """(forward, backward, dot-product call sites in the module)."""
    text = "\n".join(["module {", program.fused_func(cfg, name="fwd"),
                      program.fused_grad_func(cfg, name="bwd"), "}"])
    text = _with_c_interface(text, ["fwd", "bwd"])
    src, llvm, ll, so = (os.path.join(TMP, f"{tag}.{ext}")
                         for ext in ("mlir", "llvm.mlir", "ll", "so"))
    open(src, "w").write(text)
    subprocess.run([OPT, src, f"--flash-to-cpu={options}", "-o", llvm],
                   check=True)
    subprocess.run([f"{LLVM}/bin/mlir-translate", "--mlir-to-llvmir", llvm,
                    "-o", ll], check=True)
    dots = open(ll).read().count("@llvm.x86.avx512bf16.dpbf16ps.512(")
    subprocess.run(["clang-22", "-O3", "-shared", "-fPIC",
                    "-Wno-override-module", ll, "-o", so, "-lm",
                    f"-L{LLVM}/lib", "-lomp", "-lmlir_c_runner_utils",
                    f"-Wl,-rpath,{LLVM}/lib"], check=True)
    bf = np.uint16
    return (Kernel(so, "fwd", [cfg.o_shape(), cfg.lse_shape()],
                   [bf, np.float32]),
            Kernel(so, "bwd", [cfg.q_shape(), cfg.k_shape(), cfg.v_shape()],
                   [bf, bf, bf]), dots)


def expand(cfg, k):
    """k or v per query head (GQA: query head h reads kv head h // g)."""
    g = cfg.hq // cfg.hkv if cfg.hq else 1
    return np.repeat(k, g, axis=-3) if g > 1 else k


def fold(cfg, dk):
    """A per-query-head gradient summed over each kv head's group."""
    if not cfg.hq or cfg.hq == cfg.hkv:
        return dk
    g = cfg.hq // cfg.hkv
    return dk.reshape(dk.shape[:-3] + (cfg.hkv, g) + dk.shape[-2:]).sum(-3)


def reference(cfg, q, k, v):
    """o, lse and the softmax-weighted mean of |v| (which bounds what
    rounding p changes) in float64."""
    k, v = expand(cfg, k), expand(cfg, v)
    s = q @ np.swapaxes(k, -1, -2) * cfg.scale_value()
    if cfg.causal:
        i = np.arange(cfg.nq)[:, None]
        j = np.arange(cfg.nk)[None, :]
        s = np.where(j <= i + cfg.offset_value(), s, -np.inf)
    # Rows that see no key (causal with Nq > Nk): o = 0, lse = -inf.
    m = s.max(-1, keepdims=True)
    seen = np.isfinite(m)
    p = np.exp(s - np.where(seen, m, 0.0))
    l = p.sum(-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        ls = np.where(seen, l, 1.0)
        return (np.where(seen, p @ v / ls, 0.0),
                np.where(seen, m + np.log(l), -np.inf)[..., 0],
                p @ np.abs(v) / ls)


def reference_grad(cfg, q, k, v, do):
    """dq, dk, dv in float64, and the same products on absolute values (the
    scale of what rounding p, ds, o and the results to bf16 can change)."""
    ke, ve = expand(cfg, k), expand(cfg, v)
    o, lse, _ = reference(cfg, q, k, v)
    sc = cfg.scale_value()
    s = q @ np.swapaxes(ke, -1, -2) * sc
    if cfg.causal:
        i = np.arange(cfg.nq)[:, None]
        j = np.arange(cfg.nk)[None, :]
        s = np.where(j <= i + cfg.offset_value(), s, -np.inf)
    with np.errstate(invalid="ignore"):
        p = np.where(np.isfinite(lse)[..., None], np.exp(s - lse[..., None]),
                     0.0)
    t = lambda x: np.swapaxes(x, -1, -2)  # noqa: E731
    dp = do @ t(ve)
    delta = (do * o).sum(-1, keepdims=True)
    ds = p * (dp - delta)
    ads = p * (np.abs(do) @ t(np.abs(ve)) + (np.abs(do) * np.abs(o)).sum(
        -1, keepdims=True))
    grads = (ds @ ke * sc, fold(cfg, t(ds) @ q * sc), fold(cfg, t(p) @ do))
    mags = (ads @ np.abs(ke) * sc, fold(cfg, t(ads) @ np.abs(q) * sc),
            fold(cfg, t(p) @ np.abs(do)))
    return grads, mags


rng = np.random.default_rng(7)
for cfg in [program.Config(nq=77, nk=150, d=64, dtype="bf16"),
            program.Config(hq=4, hkv=2, nq=200, nk=130, d=128, dtype="bf16",
                           causal=True),
            program.Config(nq=131, nk=100, d=32, dtype="bf16")]:
    tag = f"h{cfg.hq}_{cfg.nq}x{cfg.nk}x{cfg.d}{'_causal' if cfg.causal else ''}"
    fwd, bwd, dots = compile_kernels(cfg, tag, "bf16-dot=on")
    q16, k16, v16, do16 = (
        to_bf16(rng.standard_normal(s) * 1.5)
        for s in (cfg.q_shape(), cfg.k_shape(), cfg.v_shape(), cfg.o_shape()))
    o16, lse = fwd(q16, k16, v16)
    o = from_bf16(o16)
    ro, rl, rabs = reference(cfg, from_bf16(q16), from_bf16(k16),
                             from_bf16(v16))
    # o: its own rounding to bf16 (half an ulp: 2^-9 relative) plus p's
    # rounding to bf16 (2^-9 relative per weight: at most 2^-9 of the
    # weighted mean of |v|), with a factor 2 of headroom; lse: f32 sums of
    # exact bf16 products.
    bound = 2.0 ** -8 * (np.abs(ro) + rabs)
    o_ok = bool(np.all(np.abs(o - ro) <= bound))
    seen = np.isfinite(rl)
    lse_err = float(np.abs(lse[seen] - rl[seen]).max())
    o_ok = o_ok and bool(np.all(lse[~seen] == -np.inf))
    print(f"{tag}: dots {dots} o_err {np.abs(o - ro).max():.2e} "
          f"(max err / bound {np.max(np.abs(o - ro) / np.maximum(bound, 1e-30)):.2f}) lse_err {lse_err:.2e} "
          f"ok {int(o_ok and lse_err < 1e-4 and dots > 0)}")
    # The backward from the fused forward's o and lse, as in training.
    got = bwd(q16, k16, v16, o16, lse, do16)
    refs, mags = reference_grad(cfg, *(from_bf16(x)
                                       for x in (q16, k16, v16, do16)))
    # Each result rounded to bf16, each product operand rounded once (p or
    # ds, o in delta): 2^-8 (twice the unit roundoff) of |result| + the
    # magnitude.
    line = []
    g_ok = True
    for name, g16, ref, mag in zip(("dq", "dk", "dv"), got, refs, mags):
        err = np.abs(from_bf16(g16) - ref)
        ratio = float(np.max(err / np.maximum(2.0 ** -8 * (np.abs(ref) + mag),
                                              1e-30)))
        g_ok = g_ok and ratio <= 1.0
        line.append(f"{name}_err {err.max():.2e} (/bound {ratio:.2f})")
    print(f"{tag} grad: {' '.join(line)} ok {int(g_ok)}")

# CHECK: hNone_77x150x64: dots {{[1-9][0-9]*}} {{.*}} ok 1
# CHECK: hNone_77x150x64 grad: {{.*}} ok 1
# CHECK: h4_200x130x128_causal: dots {{[1-9][0-9]*}} {{.*}} ok 1
# CHECK: h4_200x130x128_causal grad: {{.*}} ok 1
# CHECK: hNone_131x100x32: dots {{[1-9][0-9]*}} {{.*}} ok 1
# CHECK: hNone_131x100x32 grad: {{.*}} ok 1
