# flash_mlir.attention / attention_grad with FlashAttention's modifier
# keywords on the CPU (window, softcap, alibi_slopes, segment_ids), against
# torch autograd through an unfused float64 reference that applies the same
# modifiers to the full score matrix (max abs error <= 2e-5, odd sizes,
# Nq != Nk, GQA, rows that see no key); a given diagonal offset
# (`mod_offset`) for the window and ALiBi, one kernel for every value; bad
# arguments are rejected.
# RUN: env FLASH_MLIR_CACHE=%t.cache %python %s | FileCheck %s

import numpy as np
import torch

import flash_mlir as fm


def reference(q, k, v, do, scale, causal, window, softcap, slopes, seg,
              mod_offset=None):
    q, k, v, do = (torch.tensor(x, dtype=torch.float64, requires_grad=True)
                   for x in (q, k, v, do))
    hq, hkv = q.shape[-3], k.shape[-3]
    kk = k.repeat_interleave(hq // hkv, dim=-3)
    vv = v.repeat_interleave(hq // hkv, dim=-3)
    s = scale * q @ kk.transpose(-1, -2)
    nq, nk = q.shape[-2], k.shape[-2]
    i = torch.arange(nq)[:, None]
    j = torch.arange(nk)[None, :]
    off = nk - nq
    diag = off if mod_offset is None else mod_offset
    keep = torch.ones(nq, nk, dtype=torch.bool)
    if softcap:
        s = softcap * torch.tanh(s / softcap)
    if slopes is not None:
        s = s - torch.tensor(slopes, dtype=torch.float64)[:, None, None] * \
            (i + diag - j).abs()
    if causal:
        # (With a window, on the window's diagonal, as FlashAttention.)
        keep &= j <= i + (diag if window else off)
    if window:
        left, right = window
        if left >= 0:
            keep &= j >= i + diag - left
        if right >= 0:
            keep &= j <= i + diag + right
    if seg is not None:
        sq, sk = (torch.tensor(x) for x in seg)
        if sq.dim() == 2:  # per sequence: [B, 1, Nq, Nk]
            keep = keep & (sq[:, None, :, None] == sk[:, None, None, :])
        else:
            keep &= sq[:, None] == sk[None, :]
    s = s.masked_fill(~keep, float("-inf"))
    mx = s.amax(-1, keepdim=True).detach()
    mx = torch.where(torch.isfinite(mx), mx, torch.zeros_like(mx))
    e = torch.exp(s - mx)
    l = e.sum(-1, keepdim=True)
    p = torch.where(l > 0, e / torch.where(l > 0, l, torch.ones_like(l)),
                    torch.zeros_like(e))
    o = p @ vv
    o.backward(do)
    return o.detach().numpy(), q.grad.numpy(), k.grad.numpy(), v.grad.numpy()


def run(name, b, hq, hkv, nq, nk, d, causal=False, blocks=16, **mods):
    rng = np.random.default_rng(len(name))
    q = rng.standard_normal((b, hq, nq, d)).astype(np.float32)
    k = rng.standard_normal((b, hkv, nk, d)).astype(np.float32)
    v = rng.standard_normal((b, hkv, nk, d)).astype(np.float32)
    do = rng.standard_normal((b, hq, nq, d)).astype(np.float32)
    scale = 1 / np.sqrt(d)
    o, lse = fm.attention(q, k, v, causal=causal, block_q=blocks,
                          block_kv=blocks, return_lse=True, **mods)
    dq, dk, dv = fm.attention_grad(q, k, v, o, lse, do, causal=causal,
                                   block_q=blocks, block_kv=blocks, **mods)
    seg = mods.get("segment_ids")
    if seg is not None and not isinstance(seg, tuple):
        seg = (seg, seg)
    ro, rdq, rdk, rdv = reference(q, k, v, do, scale, causal,
                                  mods.get("window"), mods.get("softcap"),
                                  mods.get("alibi_slopes"), seg,
                                  mods.get("mod_offset"))
    err = max(float(np.abs(x - y).max())
              for x, y in ((o, ro), (dq, rdq), (dk, rdk), (dv, rdv)))
    print(f"{name}: err={err:.2e} {'ok' if err <= 2e-5 else 'FAIL'}")


# CHECK: window: err={{.*}} ok
run("window", 1, 2, 2, 37, 45, 16, window=(6, 2))
# CHECK: window_causal_gqa: err={{.*}} ok
run("window_causal_gqa", 2, 4, 2, 45, 45, 16, causal=True, window=(9, -1))
# causal with a window and Nq != Nk: both on the window's diagonal (Nk - Nq,
# or the given mod_offset), as FlashAttention's causal + window_size.
# CHECK: window_causal_bottom_right: err={{.*}} ok
run("window_causal_bottom_right", 1, 2, 2, 29, 41, 16, causal=True,
    window=(5, 0))
# CHECK: window_causal_mod_offset: err={{.*}} ok
run("window_causal_mod_offset", 1, 2, 1, 23, 31, 16, causal=True,
    window=(4, 0), mod_offset=3)
# CHECK: softcap: err={{.*}} ok
run("softcap", 1, 2, 1, 33, 21, 16, softcap=1.5)
# CHECK: alibi: err={{.*}} ok
run("alibi", 1, 4, 2, 29, 29, 16, causal=True,
    alibi_slopes=np.array([0.5, 0.25, 0.125, 0.0625], np.float32))
# Queries 0..3 in a segment that has no keys: rows that see nothing.
# CHECK: segments: err={{.*}} ok
run("segments", 1, 2, 2, 31, 26, 16, softcap=2.0,
    segment_ids=(np.array([9] * 4 + [0] * 10 + [1] * 17, np.int32),
                 np.array([0] * 12 + [1] * 14, np.int32)))

# Per-sequence segment ids [B, N] (packed batches).
# CHECK: segments_per_sequence: err={{.*}} ok
run("segments_per_sequence", 2, 2, 2, 29, 29, 16, causal=True,
    segment_ids=np.array([[0] * 10 + [1] * 19, [0] * 20 + [1] * 9], np.int32))

# The default blocks (128 x 64) with fewer keys than a block: the parallel
# backward's body, with a mask_mod reading captured ids or a run-time
# offset, used to keep an alloca scope that did not verify once lowered.
# CHECK: segments_default_blocks: err={{.*}} ok
run("segments_default_blocks", 1, 2, 2, 20, 30, 16, blocks=None,
    segment_ids=(np.array([0] * 7 + [1] * 13, np.int32),
                 np.array([0] * 11 + [1] * 19, np.int32)))
# CHECK: window_offset_default_blocks: err={{.*}} ok
run("window_offset_default_blocks", 1, 2, 1, 20, 30, 16, blocks=None,
    window=(5, 3), mod_offset=4)

# The window's and ALiBi's diagonal given (a shard of a longer sequence:
# its queries' start minus its keys' start), before the keys, inside
# them, past them; one kernel (a run-time argument) for all three.
# CHECK: mod_offset -20: err={{.*}} ok
# CHECK: mod_offset 3: err={{.*}} ok
# CHECK: mod_offset 40: err={{.*}} ok
# CHECK: mod_offset kernels: 1
before = len(fm.cpu._LOADED)
for off in (-20, 3, 40):
    run(f"mod_offset {off}", 1, 4, 2, 37, 45, 16, window=(6, 9),
        alibi_slopes=np.array([0.5, 0.25, 0.125, 0.0625], np.float32),
        mod_offset=off)
print("mod_offset kernels:", len(fm.cpu._LOADED) - before)

# CHECK: bad window: window must be (left, right)
# CHECK: bad slopes: alibi_slopes must have shape (2,)
# CHECK: bad segments: segment_ids must be one id per position
# CHECK: bad mod_offset: mod_offset must be an integer
# CHECK: fractional window: window must be (left, right) integers
q = np.zeros((1, 2, 8, 16), np.float32)
for what, kw in (("bad window", dict(window=5)),
                 ("bad slopes", dict(alibi_slopes=np.zeros(3, np.float32))),
                 ("bad segments", dict(segment_ids=np.zeros(7, np.int32))),
                 ("bad mod_offset", dict(window=(2, 2), mod_offset=1.5)),
                 ("fractional window", dict(window=(2.5, 1)))):
    try:
        fm.attention(q, q, q, **kw)
        print(what, ": accepted")
    except ValueError as e:
        print(f"{what}: {e}")

# torch autograd on CPU tensors: the backward runs attention_grad.
# CHECK: autograd: err={{.*}} ok
rng = np.random.default_rng(7)
qn, kn, vn, don = (rng.standard_normal((1, 2, 27, 16)).astype(np.float32)
                   for _ in range(4))
qt, kt, vt = (torch.tensor(x, requires_grad=True) for x in (qn, kn, vn))
o = fm.attention(qt, kt, vt, causal=True, window=(5, 0), softcap=2.0)
o.backward(torch.tensor(don))
ro, rdq, rdk, rdv = reference(qn, kn, vn, don, 0.25, True, (5, 0), 2.0, None,
                              None)
err = max(float(np.abs(x - y).max()) for x, y in (
    (o.detach().numpy(), ro), (qt.grad.numpy(), rdq), (kt.grad.numpy(), rdk),
    (vt.grad.numpy(), rdv)))
print(f"autograd: err={err:.2e} {'ok' if err <= 2e-5 else 'FAIL'}")

# Other float dtypes (float16, bfloat16, float64) on the CPU: widened to the
# float32 kernels, o and the gradients in the inputs' dtype; within the
# dtype's rounding of the float64 reference (they were refused: "q must be
# float32", and bfloat16 failed inside numpy).
# CHECK: dtype torch.float16: err={{.*}} ok
# CHECK: dtype torch.bfloat16: err={{.*}} ok
# CHECK: dtype torch.float64: err={{.*}} ok
for dt, tol in ((torch.float16, 4e-3), (torch.bfloat16, 3e-2),
                (torch.float64, 2e-5)):
    qt, kt, vt = (torch.tensor(x).to(dt).requires_grad_() for x in (qn, kn, vn))
    o = fm.attention(qt, kt, vt, causal=True, window=(5, 0), softcap=2.0)
    o.backward(torch.tensor(don).to(dt))
    ro, rdq, rdk, rdv = reference(*(t.detach().double().numpy()
                                    for t in (qt, kt, vt)),
                                  torch.tensor(don).to(dt).double().numpy(),
                                  0.25, True, (5, 0), 2.0, None, None)
    same = all(t.dtype == dt for t in (o, qt.grad, kt.grad, vt.grad))
    err = max(float(np.abs(x.detach().double().numpy() - y).max())
              for x, y in ((o, ro), (qt.grad, rdq), (kt.grad, rdk),
                           (vt.grad, rdv)))
    print(f"dtype {dt}: err={err:.2e} "
          f"{'ok' if same and err <= tol else 'FAIL'}")
