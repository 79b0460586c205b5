# flash_mlir.attention on CUDA tensors with autograd: forward and backward
# kernels from --flash-to-nvvm against torch's math attention in float64.
# REQUIRES: cuda-gpu
# RUN: %python %s | FileCheck %s
# (Kernels compile on the fly where flash-opt exists, or load from
# FLASH_MLIR_CACHE on a machine that only has the GPU.)

import torch

import flash_mlir

CASES = [  # B, Hq, Hkv, Nq, Nk, D, causal, dtype, tol, mask
    (2, 4, 2, 100, 100, 64, True, torch.float32, 2e-5, None),
    (1, 3, 3, 65, 65, 32, False, torch.float32, 2e-5, None),
    (2, 2, 1, 130, 130, 64, True, torch.bfloat16, 3e-2, None),
    # A bool keep-mask [B, 1, Nq, Nk] with fully masked rows; an additive
    # [Nq, Nk] mask with causal.
    (2, 4, 2, 100, 100, 64, False, torch.float32, 2e-5, "bool"),
    (1, 3, 3, 65, 65, 32, True, torch.float32, 2e-5, "add"),
]


def run(case, compile_only=False):
    B, Hq, Hkv, Nq, Nk, D, causal, dt, tol, mask_kind = case
    torch.manual_seed(0)
    q = torch.randn(B, Hq, Nq, D, device="cuda", dtype=dt, requires_grad=True)
    k = torch.randn(B, Hkv, Nk, D, device="cuda", dtype=dt, requires_grad=True)
    v = torch.randn(B, Hkv, Nk, D, device="cuda", dtype=dt, requires_grad=True)
    do = torch.randn(B, Hq, Nq, D, device="cuda", dtype=dt)
    mask, add = None, torch.zeros(Nq, Nk, device="cuda", dtype=torch.float64)
    if mask_kind == "bool":
        mask = torch.rand(B, 1, Nq, Nk, device="cuda") > 0.3
        mask[:, :, 5] = False
        add = torch.zeros(mask.shape, device="cuda",
                          dtype=torch.float64).masked_fill(~mask, float("-inf"))
    elif mask_kind == "add":
        mask = torch.randn(Nq, Nk, device="cuda")
        add = mask.double()
    o = flash_mlir.attention(q, k, v, causal=causal, mask=mask)
    o.backward(do)
    g = Hq // Hkv
    qr, kr, vr = (t.detach().double().requires_grad_(True) for t in (q, k, v))
    s = qr @ kr.repeat_interleave(g, 1).transpose(-2, -1) / D ** 0.5
    s = s + add
    if causal:
        s = s.masked_fill(torch.ones(Nq, Nk, device="cuda").triu(1).bool(),
                          float("-inf"))
    # Rows that keep no key give 0 (softmax alone would give NaN).
    live = torch.isfinite(s).any(-1, keepdim=True)
    p = torch.softmax(torch.where(live, s, torch.zeros_like(s)), -1) * live
    ref = p @ vr.repeat_interleave(g, 1)
    ref.backward(do.double())
    errs = [(a.double() - b).abs().max().item() for a, b in
            ((o, ref), (q.grad, qr.grad), (k.grad, kr.grad), (v.grad, vr.grad))]
    ok = max(errs) <= tol
    print(f"{case[:7] + (mask_kind,)} errs o/dq/dk/dv = "
          + " ".join(f"{e:.1e}" for e in errs) + (" ok" if ok else " FAIL"))
    return ok


ok = all([run(c) for c in CASES])
print("ALL OK" if ok else "SOME FAILED")
# CHECK-NOT: FAIL
# CHECK: ALL OK
