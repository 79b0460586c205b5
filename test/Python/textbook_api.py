# The textbook chapter's examples, run unchanged against flash-mlir: every
# max abs error <= 1e-6 against standard attention computed by torch.
# RUN: env FLASH_MLIR_CACHE=%t.cache %python %s | FileCheck %s

import torch

from flash_attention_sim import (flash_attention_v1_backward,
                                 flash_attention_v1_forward,
                                 flash_attention_v2_backward,
                                 flash_attention_v2_forward)


def standard_attention(Q, K, V):
    d = Q.shape[-1]
    S = Q @ K.transpose(-2, -1) / d ** 0.5
    return torch.softmax(S, dim=-1) @ V


def reference_grads(Q, K, V, dO):
    Q, K, V = (t.clone().requires_grad_(True) for t in (Q, K, V))
    standard_attention(Q, K, V).backward(dO)
    return Q.grad, K.grad, V.grad


def check(name, got, want, tol=1e-6):
    err = (got - want).abs().max().item()
    ok = err <= tol and not torch.isnan(got).any().item()
    print(f"{name}: max error {err:.2e} {'OK' if ok else 'FAIL'}")
    return ok


torch.manual_seed(0)
all_ok = True
fwd = {"v1": flash_attention_v1_forward, "v2": flash_attention_v2_forward}
bwd = {"v1": flash_attention_v1_backward, "v2": flash_attention_v2_backward}

# The chapter's two scenarios: N=128, d=64, Br=Bc=32.
N, d = 128, 64
Q, K, V = torch.randn(N, d), torch.randn(N, d), torch.randn(N, d)
dO = torch.randn(N, d)
for ver in ("v1", "v2"):
    O = fwd[ver](Q, K, V, 32, 32)
    all_ok &= check(f"{ver} forward N=128 d=64", O, standard_attention(Q, K, V))
    grads = bwd[ver](Q, K, V, dO, 32, 32)
    for g, r, n in zip(grads, reference_grads(Q, K, V, dO), "QKV"):
        all_ok &= check(f"{ver} backward d{n} N=128 d=64", g, r)

# Odd sizes, N = 1, batched inputs.
for (shape, Br, Bc) in (((100, 48), 32, 16), ((1, 16), 4, 4),
                        ((2, 3, 70, 32), 16, 32)):
    Q, K, V, dO = (torch.randn(*shape) for _ in range(4))
    for ver in ("v1", "v2"):
        O = fwd[ver](Q, K, V, Br, Bc)
        all_ok &= check(f"{ver} forward {shape} Br={Br} Bc={Bc}", O,
                        standard_attention(Q, K, V))
        grads = bwd[ver](Q, K, V, dO, Br, Bc)
        for g, r, n in zip(grads, reference_grads(Q, K, V, dO), "QKV"):
            all_ok &= check(f"{ver} backward d{n} {shape}", g, r)

# Errors are Python exceptions with clear messages.
Q = torch.randn(8, 4)
for call, expect in (
        (lambda: flash_attention_v1_forward(Q, Q, Q.double(), 4, 4), "float32"),
        (lambda: flash_attention_v1_forward(Q[0], Q[0], Q[0], 4, 4), "shape [N, d]"),
        (lambda: flash_attention_v2_forward(Q, torch.randn(8, 5), Q, 4, 4), "has shape"),
        (lambda: flash_attention_v1_forward(Q, Q, Q, 0, 4), "Br must be a positive integer"),
        (lambda: flash_attention_v2_backward(Q, Q, Q, Q, 4, -1), "Bc must be a positive integer"),
        (lambda: flash_attention_v1_backward(Q, Q, Q, [1.0], 4, 4), "dO must be a torch.Tensor")):
    try:
        call()
        print(f"no error for {expect!r}: FAIL")
        all_ok = False
    except (TypeError, ValueError) as e:
        good = expect in str(e)
        all_ok &= good
        print(f"error: {e} {'OK' if good else 'FAIL'}")

print("ALL OK" if all_ok else "SOME FAILED")
# CHECK-NOT: FAIL
# CHECK: v1 forward N=128 d=64: max error
# CHECK: ALL OK
