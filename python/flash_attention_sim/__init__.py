"""The textbook's FlashAttention API, computed by flash-mlir.

    from flash_attention_sim import flash_attention_v1_forward
    O = flash_attention_v1_forward(Q, K, V, Br, Bc)

Q, K, V (and dO) are float32 torch tensors of shape [N, d] (or [..., N, d]);
the scale is 1/sqrt(d). `v1` is FlashAttention-1's loop order (KV blocks
outer, the (m, l, O) of every query block carried), `v2` FlashAttention-2's
(query blocks outer); Br and Bc are the query and key block sizes. The
numbers come from `flash.attention` / `flash.attention_grad` lowered by
`--flash-to-cpu` with those blocks and that order, compiled ahead of time and
cached per configuration: no Python loop computes them.
"""

import flash_mlir

__all__ = ["flash_attention_v1_forward", "flash_attention_v1_backward",
           "flash_attention_v2_forward", "flash_attention_v2_backward"]


def _check(named, Br, Bc):
    import torch

    ref = None
    for name, t in named:
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{name} must be a torch.Tensor, got "
                            f"{type(t).__name__}")
        if t.dtype != torch.float32:
            raise TypeError(f"{name} must be float32, got {t.dtype}")
        if t.dim() < 2:
            raise ValueError(f"{name} must have shape [N, d] or [..., N, d], "
                             f"got {tuple(t.shape)}")
        if t.device.type != "cpu":
            raise ValueError(f"{name} must be a CPU tensor, got device "
                             f"{t.device}")
        if ref is None:
            ref = (name, t.shape)
        elif t.shape != ref[1]:
            raise ValueError(f"{name} has shape {tuple(t.shape)} but "
                             f"{ref[0]} has shape {tuple(ref[1])}")
    for name, b in (("Br", Br), ("Bc", Bc)):
        if isinstance(b, bool) or not isinstance(b, int) or b <= 0:
            raise ValueError(f"{name} must be a positive integer, got {b!r}")


def _forward(Q, K, V, Br, Bc, order, with_lse=False):
    import torch

    _check([("Q", Q), ("K", K), ("V", V)], Br, Bc)
    o, lse = flash_mlir.attention(Q, K, V, block_q=Br, block_kv=Bc,
                                  loop_order=order, return_lse=True)
    if with_lse:
        return o, lse
    return torch.from_numpy(o)


def _backward(Q, K, V, dO, Br, Bc, order):
    import torch

    _check([("Q", Q), ("K", K), ("V", V), ("dO", dO)], Br, Bc)
    o, lse = _forward(Q, K, V, Br, Bc, order, with_lse=True)
    dq, dk, dv = flash_mlir.attention_grad(Q, K, V, o, lse, dO, block_q=Br,
                                           block_kv=Bc, loop_order=order)
    return torch.from_numpy(dq), torch.from_numpy(dk), torch.from_numpy(dv)


def flash_attention_v1_forward(Q, K, V, Br, Bc):
    """O = softmax(Q K^T / sqrt(d)) V, FlashAttention-1 order."""
    return _forward(Q, K, V, Br, Bc, "fa1")


def flash_attention_v1_backward(Q, K, V, dO, Br, Bc):
    """(dQ, dK, dV), recomputing P block by block from the saved lse."""
    return _backward(Q, K, V, dO, Br, Bc, "fa1")


def flash_attention_v2_forward(Q, K, V, Br, Bc):
    """O = softmax(Q K^T / sqrt(d)) V, FlashAttention-2 order."""
    return _forward(Q, K, V, Br, Bc, "fa2")


def flash_attention_v2_backward(Q, K, V, dO, Br, Bc):
    """(dQ, dK, dV), FlashAttention-2 order."""
    return _backward(Q, K, V, dO, Br, Bc, "fa2")
