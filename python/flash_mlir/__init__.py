"""flash-mlir from Python.

`attention(q, k, v, causal=False, scale=None)` and `attention_grad(...)` run
flash-mlir's compiled FlashAttention on numpy arrays (or CPU torch tensors)
of shape [..., N, D] (with [B, H, N, D], K/V may have fewer heads: GQA).
Kernels are compiled once per configuration and cached (see compiler.py).
CUDA torch tensors run the --flash-to-nvvm kernels (flash_mlir.cuda), with
torch.autograd running our backward kernels. `distributed.ring_attention`
spreads one sequence over the ranks of a torch.distributed group.
"""

import math

import numpy as np

from . import compiler, cpu, distributed, program

__all__ = ["attention", "attention_grad", "compiler", "cpu", "distributed",
           "program"]


def _config(q, k, v, causal, scale, causal_offset=None, mask=None):
    for name, t in (("q", q), ("k", k), ("v", v)):
        if t.ndim < 2:
            raise ValueError(f"{name} must have rank >= 2 ([..., N, D]), got "
                             f"shape {tuple(t.shape)}")
        if t.dtype != np.float32:
            raise TypeError(f"{name} must be float32, got {t.dtype}")
    if not (q.ndim == k.ndim == v.ndim):
        raise ValueError(f"q, k, v must have the same rank, got {q.ndim}, "
                         f"{k.ndim}, {v.ndim}")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q and k head dims differ: {q.shape[-1]} vs "
                         f"{k.shape[-1]}")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"k and v sequence lengths differ: {k.shape[-2]} vs "
                         f"{v.shape[-2]}")
    if k.shape[:-2] != v.shape[:-2]:
        raise ValueError(f"k and v leading dims differ: {k.shape[:-2]} vs "
                         f"{v.shape[:-2]}")
    lead_q, lead_k = q.shape[:-2], k.shape[:-2]
    hq = hkv = None
    batch = list(lead_q)
    if q.ndim >= 3:
        batch = list(lead_q[:-1])
        hq, hkv = lead_q[-1], lead_k[-1]
        if list(lead_k[:-1]) != batch:
            raise ValueError(f"batch dims differ: q {lead_q[:-1]} vs k "
                             f"{lead_k[:-1]}")
        if hkv == 0 or hq % hkv:
            raise ValueError(f"query heads ({hq}) must be a multiple of the "
                             f"key/value heads ({hkv})")
    if scale is not None and not math.isfinite(scale):
        raise ValueError(f"scale must be finite, got {scale}")
    cfg = program.Config(batch=batch, hq=hq, hkv=hkv, nq=q.shape[-2],
                         nk=k.shape[-2], d=q.shape[-1], dv=v.shape[-1],
                         causal=bool(causal), causal_offset=causal_offset,
                         scale=None if scale is None else float(scale),
                         lse=True)
    if mask is not None:
        cfg.mask = "bool" if mask.dtype == np.bool_ else "add"
        cfg.mask_bcast = mask.ndim == 2
    return cfg


def _numpy_array(x, dtype):
    return np.ascontiguousarray(_as_numpy(x), dtype={
        "f32": np.float32, "i32": np.int32, "i64": np.int64}[dtype])


def _modifiers(cfg, q, k, window, softcap, alibi_slopes, segment_ids,
               as_array=_numpy_array, mod_offset=None):
    """Sets the score/mask modifiers of `cfg`; returns the captured arrays
    (ALiBi slopes [Hq] f32, segment ids of queries [Nq] and keys [Nk] i32,
    the window's and ALiBi's diagonal offset [1] i64 when `mod_offset` is
    given and one of them is used), made by as_array(x, "f32" | "i32" |
    "i64") (contiguous, with .shape and .ndim), in the kernels' argument
    order."""
    extra = []
    if mod_offset is not None and (isinstance(mod_offset, bool) or
                                   not isinstance(mod_offset,
                                                  (int, np.integer))):
        raise ValueError(f"mod_offset must be an integer, got {mod_offset!r}")
    if window is not None:
        try:
            left, right = (int(w) for w in window)
            if any(isinstance(w, bool) or w != int(w) for w in window):
                raise ValueError
        except (TypeError, ValueError):
            raise ValueError(f"window must be (left, right) integers (-1: "
                             f"unbounded), got {window!r}") from None
        if left < -1 or right < -1:
            raise ValueError(f"window sizes must be >= -1, got {window!r}")
        if (left, right) != (-1, -1):
            cfg.window = (left, right)
    if softcap is not None and softcap != 0:
        if not math.isfinite(softcap) or softcap < 0:
            raise ValueError(f"softcap must be a positive finite float, got "
                             f"{softcap!r}")
        cfg.softcap = float(softcap)
    if alibi_slopes is not None:
        if cfg.hq is None:
            raise ValueError("alibi_slopes needs a heads dim ([..., H, N, D])")
        sl = as_array(alibi_slopes, "f32")
        if tuple(sl.shape) != (cfg.hq,):
            raise ValueError(f"alibi_slopes must have shape ({cfg.hq},) (one "
                             f"per query head), got {sl.shape}")
        cfg.alibi = True
        extra.append(sl)
    if segment_ids is not None:
        if isinstance(segment_ids, (tuple, list)) and len(segment_ids) == 2:
            sq, sk = segment_ids
        else:
            sq = sk = segment_ids
        sq, sk = as_array(sq, "i32"), as_array(sk, "i32")
        # One id per position, shared by the batch ([N]) or per sequence of
        # the first batch dim ([B, N]).
        nb = cfg.batch[0] if cfg.batch else None
        batched = sq.ndim == 2 and nb is not None
        want_q = (nb, cfg.nq) if batched else (cfg.nq,)
        want_k = (nb, cfg.nk) if batched else (cfg.nk,)
        if tuple(sq.shape) != want_q or tuple(sk.shape) != want_k:
            raise ValueError(f"segment_ids must be one id per position: "
                             f"shapes {want_q} and {want_k} (or one array "
                             f"when Nq = Nk; [B, N] per sequence), got "
                             f"{tuple(sq.shape)} and {tuple(sk.shape)}")
        cfg.segments = 1
        cfg.seg_batched = batched
        extra += [sq, sk]
    if mod_offset is not None and (cfg.window or cfg.alibi):
        cfg.mod_offset = True
        extra.append(as_array([int(mod_offset)], "i64"))
    return extra


def _mask(mask, q, k):
    """The mask as the kernels take it: bool (keep) or float32 (added),
    [Nq, Nk] or broadcast to q's leading dims + [Nq, Nk]."""
    if mask is None:
        return None
    m = _as_numpy(mask)
    if m.dtype != np.bool_ and m.dtype != np.float32:
        raise TypeError(f"mask must be bool (keep) or float32 (additive), got "
                        f"{m.dtype}")
    nq, nk = q.shape[-2], k.shape[-2]
    if m.shape == (nq, nk):
        return np.ascontiguousarray(m)
    full = tuple(q.shape[:-2]) + (nq, nk)
    try:
        return np.ascontiguousarray(np.broadcast_to(m, full))
    except ValueError:
        raise ValueError(f"mask of shape {m.shape} does not broadcast to "
                         f"{full}") from None


def _blocks(block_q, block_kv, loop_order):
    for name, b in (("block_q", block_q), ("block_kv", block_kv)):
        if b is None:
            continue
        if not isinstance(b, (int, np.integer)) or isinstance(b, bool) or b <= 0:
            raise ValueError(f"{name} must be a positive integer, got {b!r}")
    if loop_order not in (None, "fa1", "fa2"):
        raise ValueError(f"loop_order must be 'fa1' or 'fa2', got "
                         f"{loop_order!r}")


def _as_numpy(x):
    """`x` as a numpy array for the CPU kernels: float dtypes other than
    float32 (float16, bfloat16, float64) widened to float32, as the
    kernels compute (numpy has no bfloat16)."""
    if hasattr(x, "detach"):  # a torch tensor
        x = x.detach()
        if x.is_floating_point() and str(x.dtype) != "torch.float32":
            x = x.float()
        return x.contiguous().numpy()
    x = x if isinstance(x, np.ndarray) else np.asarray(x)
    if np.issubdtype(x.dtype, np.floating) and x.dtype != np.float32:
        x = x.astype(np.float32)
    return x


def _is_cuda(x):
    return hasattr(x, "is_cuda") and x.is_cuda


def _causal_offset(causal, causal_offset, q=None, k=None, window=None,
                   mod_offset=None):
    """One alignment on every device: causal=True keeps keys j <= i
    (top-left, torch's is_causal) unless `causal_offset` says otherwise;
    with a `window` (FlashAttention's keywords), on the window's diagonal
    (bottom-right, or `mod_offset`), as FlashAttention aligns both."""
    if causal_offset is not None and not causal:
        raise ValueError("causal_offset needs causal=True")
    if (causal and causal_offset is None and window is not None and
            tuple(window) != (-1, -1)):
        if mod_offset is not None:
            return int(mod_offset)
        return int(k.shape[-2]) - int(q.shape[-2])
    return 0 if causal and causal_offset is None else causal_offset


def _cpu_tiles(block_q, block_kv, loop_order, on_cuda):
    """The CPU kernels' tiles (None: --flash-to-cpu's defaults); the GPU
    kernels choose their own, and refuse them rather than ignore them."""
    if on_cuda:
        if (block_q, block_kv, loop_order) != (None, None, None):
            raise ValueError("block_q, block_kv and loop_order tune the CPU "
                             "kernels; the GPU kernels choose their tiles "
                             "(FLASH_MLIR_NVVM_OPTIONS)")
        return None
    return block_q, block_kv, loop_order


def attention(q, k, v, causal=False, scale=None, block_q=None, block_kv=None,
              loop_order=None, return_lse=False, causal_offset=None,
              mask=None, window=None, softcap=None, alibi_slopes=None,
              segment_ids=None, mod_offset=None, q_descale=None,
              k_descale=None, v_descale=None):
    """softmax(scale * q k^T [+ mask] [causal]) v computed by flash-mlir: on
    the GPU for CUDA torch tensors [B, H, N, D] (with autograd), else on the
    CPU, with the same meaning and options on both. `causal=True` keeps
    keys j <= i (top-left aligned, torch's is_causal) or, with
    `causal_offset=c`, j <= i + c (c = Nk - Nq: FlashAttention's
    bottom-right). `mask`: bool (True keeps a key) or float32 (added to the
    scores), broadcastable to [..., Nq, Nk]; a row that keeps no key gives 0
    (and lse -inf). `return_lse`: also the rows' log-sum-exp (natural log,
    not differentiated). `block_q`, `block_kv`, `loop_order` tune the CPU
    kernels (None: the defaults of --flash-to-cpu, README "Pass and
    pipeline options").

    Modifiers (CPU and CUDA; FlashAttention's names and alignment): `window=(left,
    right)` keeps keys i + off - left <= j <= i + off + right (-1:
    unbounded; with causal=True and no causal_offset the causal limit is on
    the same diagonal, j <= i + off, as in FlashAttention), `softcap=c` replaces the scaled score s by c * tanh(s / c),
    `alibi_slopes` ([Hq]) adds -slope_h * |i + off - j|, `segment_ids`
    (one id per position, or a (query ids, key ids) pair) keeps only keys of
    the query's segment (packed documents). The window's and ALiBi's
    diagonal `off` is Nk - Nq (bottom-right aligned) unless `mod_offset`
    gives it: query i sits at key position i + mod_offset (a shard of a
    longer sequence: its queries' start minus its keys' start). A given
    mod_offset is a run-time argument of the kernel: one kernel serves
    every value.

    CPU torch tensors that require grad get a torch.autograd graph whose
    backward runs `attention_grad`.

    fp8 (CUDA, forward only): float8_e4m3fn q, k, v with FlashAttention-3's
    `q_descale`, `k_descale`, `v_descale` (one element, or [B, Hkv]); o in
    bf16; head dim 128 (flash-opt computes fp8 ops on the CPU too:
    --flash-to-cpu)."""
    mods = (window, softcap, alibi_slopes, segment_ids)
    descales = (q_descale, k_descale, v_descale)
    if not _is_cuda(q) and (any(d is not None for d in descales) or
                            "float8" in str(getattr(q, "dtype", ""))):
        raise NotImplementedError("fp8 from Python runs on CUDA tensors only "
                                  "(flash-opt --flash-to-cpu computes fp8 "
                                  "ops on the CPU)")
    causal_offset = _causal_offset(causal, causal_offset, q, k, window,
                                   mod_offset)
    tiles = _cpu_tiles(block_q, block_kv, loop_order, _is_cuda(q))
    if _is_cuda(q):
        from . import cuda
        return cuda.attention(q, k, v, causal=causal, scale=scale, mask=mask,
                              window=window, softcap=softcap,
                              alibi_slopes=alibi_slopes,
                              segment_ids=segment_ids,
                              causal_offset=causal_offset,
                              mod_offset=mod_offset, return_lse=return_lse,
                              q_descale=q_descale, k_descale=k_descale,
                              v_descale=v_descale)
    block_q, block_kv, loop_order = tiles
    if _needs_grad(q, k, v):
        return _cpu_autograd(q, k, v, return_lse, dict(
            causal=causal, scale=scale, block_q=block_q, block_kv=block_kv,
            loop_order=loop_order, causal_offset=causal_offset, mask=mask,
            window=window, softcap=softcap, alibi_slopes=alibi_slopes,
            segment_ids=segment_ids, mod_offset=mod_offset))
    q, k, v = (_as_numpy(t) for t in (q, k, v))
    m = _mask(mask, q, k)
    cfg = _config(q, k, v, causal, scale, causal_offset, m)
    extra = _modifiers(cfg, q, k, *mods, mod_offset=mod_offset)
    _blocks(block_q, block_kv, loop_order)
    fwd, _ = cpu.attention_kernels(cfg, block_q, block_kv,
                                        loop_order)
    o, lse = fwd(q, k, v, *([m] if m is not None else []), *extra)
    return (o, lse) if return_lse else o


def _needs_grad(*ts):
    return any(getattr(t, "requires_grad", False) for t in ts)


def _cpu_autograd(q, k, v, return_lse, kw):
    """attention() on CPU torch tensors that require grad: a
    torch.autograd.Function whose backward is attention_grad (recomputation
    from lse, the modifiers included)."""
    import torch

    class Attention(torch.autograd.Function):
        @staticmethod
        def forward(ctx, q, k, v):
            o, lse = attention(q.detach(), k.detach(), v.detach(),
                               return_lse=True, **kw)
            # (o in q's dtype: the kernels compute in float32.)
            o, lse = torch.from_numpy(o), torch.from_numpy(lse)
            ctx.save_for_backward(q, k, v, o, lse)
            o = o.to(q.dtype)
            ctx.mark_non_differentiable(lse)
            return o, lse

        @staticmethod
        def backward(ctx, do, _dlse):
            q, k, v, o, lse = ctx.saved_tensors
            dq, dk, dv = attention_grad(q, k, v, o, lse, do, **kw)
            return (torch.from_numpy(dq).to(q.dtype),
                    torch.from_numpy(dk).to(k.dtype),
                    torch.from_numpy(dv).to(v.dtype))

    o, lse = Attention.apply(q, k, v)
    return (o, lse) if return_lse else o


def attention_grad(q, k, v, o, lse, do, causal=False, scale=None,
                   block_q=None, block_kv=None, loop_order=None,
                   causal_offset=None, mask=None, window=None, softcap=None,
                   alibi_slopes=None, segment_ids=None, mod_offset=None):
    """(dq, dk, dv) of attention, recomputed from the forward's lse (the
    options and modifiers as for `attention`; the soft-cap is
    differentiated)."""
    causal_offset = _causal_offset(causal, causal_offset, q, k, window,
                                   mod_offset)
    mods = (window, softcap, alibi_slopes, segment_ids)
    if _is_cuda(q):
        from . import cuda
        _cpu_tiles(block_q, block_kv, loop_order, True)
        return cuda.backward(q, k, v, o, lse, do, causal, scale, mask, *mods,
                             causal_offset=causal_offset,
                             mod_offset=mod_offset)
    block_q, block_kv, loop_order = _cpu_tiles(block_q, block_kv, loop_order,
                                               False)
    q, k, v, o, lse, do = (_as_numpy(t) for t in (q, k, v, o, lse, do))
    m = _mask(mask, q, k)
    cfg = _config(q, k, v, causal, scale, causal_offset, m)
    extra = _modifiers(cfg, q, k, *mods, mod_offset=mod_offset)
    _blocks(block_q, block_kv, loop_order)
    # o, lse and dO may come from elsewhere (a ring's merged o and lse):
    # the kernel reads them as f32 of these shapes, so check both.
    for name, t, shape in (("o", o, cfg.o_shape()), ("dO", do, cfg.o_shape()),
                           ("lse", lse, cfg.lse_shape())):
        if t.dtype != np.float32:
            raise TypeError(f"{name} must be float32, got {t.dtype}")
        if tuple(t.shape) != tuple(shape):
            raise ValueError(f"{name} must have shape {tuple(shape)}, got "
                             f"{tuple(t.shape)}")
    _, bwd = cpu.attention_kernels(cfg, block_q, block_kv,
                                        loop_order)
    return tuple(bwd(q, k, v, o, lse, do, *([m] if m is not None else []),
                     *extra))
