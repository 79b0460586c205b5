"""flash-mlir attention as a PyTorch operator: `torch.ops.flash_mlir.attention`
and `torch.ops.flash_mlir.attention_backward`.

Registered with `torch.library` so that the dispatcher, autograd and
`torch.compile` see one operator instead of an opaque Python function:

- CPU and CUDA kernels (the CPU kernels compute in float32: other float
  dtypes are widened and the results rounded back);
- shapes for tracing: a "Meta" kernel (torch < 2.4) or `register_fake`
  (torch >= 2.4, which fake tensors and `torch.compile(fullgraph=True)`
  use);
- autograd: the backward operator, which recomputes the probabilities from
  the saved log-sum-exp; an additive float mask that requires grad (a
  learned bias: T5, ALiBi tables) gets its gradient dS summed over its
  broadcast dims (that one is computed unfused, O(Nq Nk) like the mask).

The operator's arguments mirror `flash_mlir.attention` (the modifiers in
FlashAttention's names; window -1 = unbounded, softcap 0 = off; segment ids
as (query ids, key ids)). `attention()` below is the Python entry.
"""

import torch

__all__ = ["attention", "FWD_SCHEMA", "BWD_SCHEMA"]

_OPTS = ("Tensor? mask=None, float? scale=None, bool causal=False, "
         "int? causal_offset=None, int window_left=-1, int window_right=-1, "
         "float softcap=0.0, Tensor? alibi_slopes=None, "
         "Tensor? segment_ids_q=None, Tensor? segment_ids_k=None")
FWD_SCHEMA = f"attention(Tensor q, Tensor k, Tensor v, {_OPTS}) -> (Tensor, Tensor)"
BWD_SCHEMA = (f"attention_backward(Tensor grad_out, Tensor q, Tensor k, "
              f"Tensor v, Tensor out, Tensor lse, {_OPTS}) "
              f"-> (Tensor, Tensor, Tensor)")
_DEFAULTS = (None, None, False, None, -1, -1, 0.0, None, None, None)
_N_OPTS = len(_DEFAULTS)


def _full(opts):
    """The options with the defaults the dispatcher may leave out (it drops
    trailing arguments that equal their schema defaults)."""
    return tuple(opts) + _DEFAULTS[len(opts):]


def _kwargs(*opts):
    """The operator's options as flash_mlir.attention takes them."""
    (mask, scale, causal, causal_offset, window_left, window_right, softcap,
     alibi_slopes, segment_ids_q, segment_ids_k) = _full(opts)
    window = None
    if (window_left, window_right) != (-1, -1):
        window = (window_left, window_right)
    seg = None
    if segment_ids_q is not None or segment_ids_k is not None:
        if segment_ids_q is None or segment_ids_k is None:
            raise ValueError("segment_ids_q and segment_ids_k come together")
        seg = (segment_ids_q, segment_ids_k)
    return dict(mask=mask, scale=scale, causal=causal,
                causal_offset=causal_offset, window=window,
                softcap=softcap if softcap else None,
                alibi_slopes=alibi_slopes, segment_ids=seg)


def _cpu_arg(x):
    """A CPU kernel argument: float tensors in float32, the rest as is."""
    if x is None or not isinstance(x, torch.Tensor):
        return x
    x = x.detach()
    if x.is_floating_point() and x.dtype != torch.float32:
        x = x.float()
    return x.contiguous()


def _forward_cpu(q, k, v, *opts):
    import flash_mlir

    kw = _kwargs(*opts)
    kw = {n: _cpu_arg(x) for n, x in kw.items()}
    if kw["segment_ids"] is not None:
        kw["segment_ids"] = tuple(_cpu_arg(s) for s in kw["segment_ids"])
    o, lse = flash_mlir.attention(_cpu_arg(q), _cpu_arg(k), _cpu_arg(v),
                                  return_lse=True, **kw)
    return (torch.from_numpy(o).to(v.dtype),
            torch.from_numpy(lse))


def _backward_cpu(do, q, k, v, o, lse, *opts):
    import flash_mlir

    kw = _kwargs(*opts)
    kw = {n: _cpu_arg(x) for n, x in kw.items()}
    if kw["segment_ids"] is not None:
        kw["segment_ids"] = tuple(_cpu_arg(s) for s in kw["segment_ids"])
    dq, dk, dv = flash_mlir.attention_grad(
        *(_cpu_arg(t) for t in (q, k, v, o, lse, do)), **kw)
    return tuple(torch.from_numpy(g).to(t.dtype)
                 for g, t in ((dq, q), (dk, k), (dv, v)))


def _forward_cuda(q, k, v, *opts):
    from . import compiler, cuda

    kw = _kwargs(*opts)
    try:
        return cuda.forward(q, k, v, **kw)
    except compiler.CompileError:
        if not _collecting(kw):
            raise
        return _reference(q, k, v, **kw)


def _backward_cuda(do, q, k, v, o, lse, *opts):
    from . import compiler, cuda

    kw = _kwargs(*opts)
    try:
        return cuda.backward(q, k, v, o, lse, do.contiguous(), **kw)
    except compiler.CompileError:
        if not _collecting(kw):
            raise
        with torch.enable_grad():
            xs = [t.detach().requires_grad_() for t in (q, k, v)]
            out, _ = _reference(*xs, **kw)
            return torch.autograd.grad(out, xs, do)


def _collecting(kw):
    """FLASH_MLIR_COLLECT=1: on a machine without flash-opt, a kernel
    missing from the cache is requested (flash_mlir.offline) and this call
    computed unfused instead, so that one run collects every request. Only
    for the options the unfused formula below has."""
    import os
    import warnings

    if os.environ.get("FLASH_MLIR_COLLECT") != "1":
        return False
    if kw["window"] or kw["softcap"] or kw["alibi_slopes"] is not None or \
            kw["segment_ids"] is not None:
        return False
    warnings.warn("flash_mlir: kernel requested (FLASH_MLIR_COLLECT=1); "
                  "this call runs unfused")
    return True


def _scores(q, k, mask, scale, causal, causal_offset):
    """scale q k^T (+ mask) (causal: top-left unless the offset says
    otherwise) in f32, K already with q's heads."""
    s = (scale if scale is not None else q.shape[-1] ** -0.5) * \
        (q.float() @ k.float().transpose(-1, -2))
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool \
            else s + mask.float()
    if causal:
        nq, nk = q.shape[-2], k.shape[-2]
        off = 0 if causal_offset is None else causal_offset
        i = torch.arange(nq, device=q.device)[:, None]
        j = torch.arange(nk, device=q.device)[None, :]
        s = s.masked_fill(j > i + off, float("-inf"))
    return s


def _reference(q, k, v, mask=None, scale=None, causal=False,
               causal_offset=None, **_):
    """Unfused attention in f32 (o in v's dtype, lse): the same semantics."""
    hq, hkv = q.shape[-3], k.shape[-3]
    vv = v.float().repeat_interleave(hq // hkv, dim=-3)
    s = _scores(q, k.repeat_interleave(hq // hkv, dim=-3), mask, scale,
                causal, causal_offset)
    lse = torch.logsumexp(s, -1)
    p = torch.exp(s - lse[..., None]).nan_to_num(0.0)
    return (p @ vv).to(v.dtype), lse


def _forward_fake(q, k, v, *opts):
    o = q.new_empty(tuple(q.shape[:-1]) + (v.shape[-1],), dtype=v.dtype)
    lse = q.new_empty(tuple(q.shape[:-1]), dtype=torch.float32)
    return o, lse


def _backward_fake(do, q, k, v, o, lse, *opts):
    return torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)


def _mask_grad(q, k, v, o, lse, do, mask, scale, causal, causal_offset):
    """d loss / d mask for an additive mask that requires grad: dS = P o
    (dP - rowsum(dO o O)), summed to the mask's shape. Unfused: the mask
    already has Nq x Nk elements."""
    hq, hkv = q.shape[-3] if q.dim() >= 3 else 1, k.shape[-3] if k.dim() >= 3 else 1
    if q.dim() >= 3 and hq != hkv:
        k = k.repeat_interleave(hq // hkv, dim=-3)
        v = v.repeat_interleave(hq // hkv, dim=-3)
    vf, of, dof = (t.float() for t in (v, o, do))
    s = _scores(q, k, mask, scale, causal, causal_offset)
    p = torch.exp(s - lse.float()[..., None])
    p = torch.where(torch.isfinite(lse)[..., None], p, torch.zeros_like(p))
    dp = dof @ vf.transpose(-1, -2)
    delta = (dof * of).sum(-1, keepdim=True)
    ds = p * (dp - delta)
    # Sum over the dims the mask was broadcast along.
    while ds.dim() > mask.dim():
        ds = ds.sum(0)
    dims = [i for i, n in enumerate(mask.shape) if n == 1 and ds.shape[i] != 1]
    if dims:
        ds = ds.sum(dims, keepdim=True)
    return ds.to(mask.dtype)


def _backward_formula(ctx, grad_out, _grad_lse):
    q, k, v, o, lse, *caps = ctx.saved_tensors
    opts = list(ctx.opts)
    opts[0] = caps[0] if ctx.has_mask else None
    dq, dk, dv = torch.ops.flash_mlir.attention_backward(
        grad_out, q, k, v, o, lse, *opts)
    dmask = None
    if ctx.has_mask and ctx.needs_input_grad[3]:
        if ((opts[4], opts[5]) != (-1, -1) or opts[6]
                or opts[7] is not None or opts[8] is not None):
            raise NotImplementedError(
                "flash_mlir.attention: the gradient of a mask together with "
                "window/softcap/alibi/segment modifiers is not implemented")
        dmask = _mask_grad(q, k, v, o, lse, grad_out, opts[0], opts[1],
                           opts[2], opts[3])
    return (dq, dk, dv, dmask) + (None,) * (_N_OPTS - 1)


def _setup_context(ctx, inputs, output):
    q, k, v, *opts = inputs
    opts = _full(opts)
    o, lse = output
    mask = opts[0]
    ctx.has_mask = mask is not None
    ctx.opts = tuple(opts)
    ctx.save_for_backward(q, k, v, o, lse, *([mask] if ctx.has_mask else []))
    ctx.mark_non_differentiable(lse)


def _register():
    lib = torch.library.Library("flash_mlir", "DEF")
    lib.define(FWD_SCHEMA)
    lib.define(BWD_SCHEMA)
    for name, cpu, gpu in (("attention", _forward_cpu, _forward_cuda),
                           ("attention_backward", _backward_cpu,
                            _backward_cuda)):
        lib.impl(name, cpu, "CPU")
        lib.impl(name, gpu, "CUDA")
    if hasattr(torch.library, "register_autograd"):  # torch >= 2.4
        torch.library.register_fake("flash_mlir::attention", _forward_fake,
                                    lib=lib)
        torch.library.register_fake("flash_mlir::attention_backward",
                                    _backward_fake, lib=lib)
        torch.library.register_autograd("flash_mlir::attention",
                                        _backward_formula,
                                        setup_context=_setup_context, lib=lib)
        return lib
    # torch 1.13 - 2.3: shapes from Meta kernels, autograd as a kernel of
    # the Autograd key that records a torch.autograd.Function around the
    # device kernel (1.13 has no below-autograd guard for Python).
    lib.impl("attention", _forward_fake, "Meta")
    lib.impl("attention_backward", _backward_fake, "Meta")

    class Attention(torch.autograd.Function):
        @staticmethod
        def forward(ctx, q, k, v, *opts):
            impl = (_forward_cuda if q.is_cuda else _forward_fake
                    if q.is_meta else _forward_cpu)
            out = impl(q, k, v, *opts)
            _setup_context(ctx, (q, k, v) + opts, out)
            return out

        @staticmethod
        def backward(ctx, grad_out, grad_lse):
            return _backward_formula(ctx, grad_out, grad_lse)

    def autograd_kernel(q, k, v, *opts):
        return Attention.apply(q, k, v, *opts)

    lib.impl("attention", autograd_kernel, "Autograd")
    return lib


_LIB = _register()


def attention(q, k, v, mask=None, scale=None, causal=False,
              causal_offset=None, window=None, softcap=None,
              alibi_slopes=None, segment_ids=None, return_lse=False):
    """torch.ops.flash_mlir.attention with flash_mlir.attention's keywords
    (causal=True is top-left aligned: torch's is_causal)."""
    left, right = (-1, -1) if window is None else (int(window[0]),
                                                   int(window[1]))
    sq = sk = None
    if segment_ids is not None:
        if isinstance(segment_ids, (tuple, list)):
            sq, sk = segment_ids
        else:
            sq = sk = segment_ids
    o, lse = torch.ops.flash_mlir.attention(
        q, k, v, mask, None if scale is None else float(scale), bool(causal),
        causal_offset, left, right, float(softcap or 0.0), alibi_slopes, sq,
        sk)
    return (o, lse) if return_lse else o
