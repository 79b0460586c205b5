# The fp8 keywords of flash_mlir.attention (q_descale, k_descale,
# v_descale: FlashAttention-3's) where this machine can check them: fp8 from
# Python runs on CUDA tensors only, and the descale factors are refused,
# with a reason, when they are not one element each or [B, Hkv] each, when
# only some are given, or when they mix the two forms. (On the GPU:
# bench/gpu/check_fp8.py.)
# RUN: %python %s | FileCheck %s

import torch

import flash_mlir
from flash_mlir import cuda

q = torch.zeros(2, 4, 5, 8)
k = torch.zeros(2, 2, 7, 8)


def attempt(name, fn):
    try:
        fn()
        print(name, "accepted")
    except (ValueError, TypeError, NotImplementedError) as e:
        print(f"{name}: {type(e).__name__}: {e}")


# CHECK: cpu: NotImplementedError: fp8 from Python runs on CUDA tensors only
attempt("cpu", lambda: flash_mlir.attention(q, k, k, q_descale=1.0,
                                            k_descale=1.0, v_descale=1.0))
# CHECK: per tensor: tensor 3
# CHECK: per head: head 3
print("per tensor:", *(lambda r: (r[0], len(r[1])))(
    cuda._descales((1.0, torch.tensor([2.0]), torch.tensor(3.0)), q, k)))
print("per head:", *(lambda r: (r[0], len(r[1])))(
    cuda._descales([torch.ones(2, 2)] * 3, q, k)))
# CHECK: none: none 0
print("none:", *(lambda r: (r[0], len(r[1])))(
    cuda._descales((None, None, None), q, k)))
# CHECK: some: ValueError: give all of q_descale, k_descale, v_descale or none
attempt("some", lambda: cuda._descales((1.0, None, 1.0), q, k))
# CHECK: shape: ValueError: k_descale of shape (2, 4): one element or [B, Hkv] = [2, 2]
attempt("shape", lambda: cuda._descales((1.0, torch.ones(2, 4), 1.0), q, k))
# CHECK: mixed: ValueError: q_descale, k_descale, v_descale must all be per tensor or all per [B, Hkv]
attempt("mixed", lambda: cuda._descales((1.0, torch.ones(2, 2), 1.0), q, k))
