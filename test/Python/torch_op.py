# torch.ops.flash_mlir.attention (the torch.library operator) on the CPU:
# forward and autograd (q, k, v and a learned additive mask) against a
# float64 numpy reference computed another way (explicit softmax, GQA by
# repeating heads), at odd sizes with Nq != Nk, causal top-left; shapes
# through the Meta kernel; bf16 inputs widened and rounded back.
# RUN: env FLASH_MLIR_CACHE=%t.cache %python %s | FileCheck %s

import numpy as np
import torch

from flash_mlir import ops


def reference(q, k, v, do, mask, causal, scale):
    """(o, dq, dk, dv, dmask) in float64 numpy."""
    q, k, v, do = (x.detach().double().numpy() for x in (q, k, v, do))
    g = q.shape[1] // k.shape[1]
    kk, vv = np.repeat(k, g, axis=1), np.repeat(v, g, axis=1)
    s = scale * q @ kk.transpose(0, 1, 3, 2)
    if mask is not None:
        s = s + mask.detach().double().numpy()
    nq, nk = s.shape[-2:]
    if causal:
        s = np.where(np.arange(nk)[None] <= np.arange(nq)[:, None], s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    o = p @ vv
    dp = do @ vv.transpose(0, 1, 3, 2)
    ds = p * (dp - (dp * p).sum(-1, keepdims=True))
    dq = scale * ds @ kk
    dkk = scale * ds.transpose(0, 1, 3, 2) @ q
    dvv = p.transpose(0, 1, 3, 2) @ do
    b, hkv = k.shape[:2]
    dk = dkk.reshape(b, hkv, g, *dkk.shape[2:]).sum(2)
    dv = dvv.reshape(b, hkv, g, *dvv.shape[2:]).sum(2)
    dm = None
    if mask is not None:
        dm = ds.sum(axis=tuple(i for i, n in enumerate(mask.shape) if n == 1),
                    keepdims=True)
    return o, dq, dk, dv, dm


torch.manual_seed(0)
worst = 0.0
for causal in (False, True):
    for with_mask in (False, True):
        q = torch.randn(2, 4, 37, 24, requires_grad=True)
        k = torch.randn(2, 2, 53, 24, requires_grad=True)
        v = torch.randn(2, 2, 53, 20, requires_grad=True)
        m = (torch.randn(1, 4, 37, 53) * 2).requires_grad_() if with_mask \
            else None
        o = ops.attention(q, k, v, mask=m, causal=causal, scale=0.3)
        do = torch.randn_like(o)
        ins = [q, k, v] + ([m] if with_mask else [])
        grads = torch.autograd.grad(o, ins, do)
        ref = reference(q, k, v, do, m, causal, 0.3)
        errs = [float(np.abs(a.detach().numpy() - b).max())
                for a, b in zip((o,) + grads, ref) if b is not None]
        worst = max(worst, max(errs))
        print(f"causal={causal} mask={with_mask}: max error {max(errs):.1e}",
              "ok" if max(errs) <= 2e-5 else "FAIL")
# CHECK: causal=False mask=False: {{.*}} ok
# CHECK: causal=False mask=True: {{.*}} ok
# CHECK: causal=True mask=False: {{.*}} ok
# CHECK: causal=True mask=True: {{.*}} ok

# Shapes without running a kernel (what tracing sees).
o, lse = torch.ops.flash_mlir.attention(
    torch.empty(3, 8, 5, 16, device="meta"), torch.empty(3, 2, 9, 16, device="meta"),
    torch.empty(3, 2, 9, 12, device="meta"))
# CHECK: meta: (3, 8, 5, 12) torch.bfloat16 / (3, 8, 5) torch.float32
o2, _ = torch.ops.flash_mlir.attention(*(torch.empty(1, 1, 2, 4, device="meta",
                                                     dtype=torch.bfloat16),) * 3)
print("meta:", tuple(o.shape), o2.dtype, "/", tuple(lse.shape), lse.dtype)

# bf16 on the CPU: computed in f32, rounded to bf16.
qb, kb, vb = (torch.randn(1, 2, 19, 16).bfloat16() for _ in range(3))
ob = ops.attention(qb, kb, vb, causal=True)
ref = reference(qb.float(), kb.float(), vb.float(), torch.zeros(1, 2, 19, 16),
                None, True, 16 ** -0.5)[0]
# CHECK: bf16: torch.bfloat16 ok
print("bf16:", ob.dtype, "ok" if np.abs(ob.float().numpy() - ref).max() < 2e-2
      else "FAIL")
