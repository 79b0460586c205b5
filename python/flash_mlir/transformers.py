"""flash-mlir as a Hugging Face transformers attention implementation.

    import flash_mlir.transformers
    flash_mlir.transformers.register()
    model = AutoModelForCausalLM.from_config(cfg, attn_implementation="mlir")

`register()` adds "mlir" to transformers' AttentionInterface (the
function below, on torch.ops.flash_mlir.attention) and to its
AttentionMaskInterface with transformers' own sdpa mask format: no mask when
the mask is plain causal (then `causal=True`, top-left like SDPA's
is_causal), else a bool keep-mask [B, 1, Nq, Nk] (padding, sliding windows,
packed sequences). GQA runs without repeating K/V. T5's `position_bias` (a learned
relative-position bias the model passes next to the mask) becomes an
additive mask with its gradient. Attention dropout is refused (the kernels
have none) instead of being ignored.
"""

from . import ops

# Not "flash_mlir": transformers 5 takes an implementation whose name
# contains "flash" for a FlashAttention kernel to load from the Hub
# (modeling_flash_attention_utils._lazy_imports) and fails.
NAME = "mlir"


def attention_forward(module, query, key, value, attention_mask, dropout=0.0,
                      scaling=None, is_causal=None, softcap=None, **kwargs):
    """The AttentionInterface signature: query [B, Hq, Nq, d], key/value
    [B, Hkv, Nk, d]; returns (output [B, Nq, Hq, dv], None)."""
    import torch
    unknown = sorted(k for k, v in kwargs.items()
                     if isinstance(v, torch.Tensor) and k not in _IGNORED)
    if unknown:
        # A tensor this implementation would drop (e.g. a bias the model
        # passes outside the mask): an error, not a wrong answer.
        raise NotImplementedError(
            f"flash_mlir attention does not take {unknown} (from "
            f"{type(module).__name__}); use the sdpa implementation or the "
            "FX pass (flash_mlir.fx.backend) for this model")
    if kwargs.get("output_attentions", False):
        raise ValueError("flash_mlir attention does not return attention "
                         "weights (output_attentions=True): use eager")
    if dropout and module.training:
        raise NotImplementedError(
            f"flash_mlir attention has no dropout (attention_dropout="
            f"{dropout} in training): set it to 0 or use another "
            "implementation")
    is_causal = is_causal if is_causal is not None else getattr(
        module, "is_causal", True)
    # As transformers' sdpa: causal only without a mask and for more than
    # one query (a decode step sees its whole cache).
    is_causal = bool(query.shape[2] > 1 and attention_mask is None and
                     is_causal)
    mask = attention_mask
    if mask is not None and mask.dim() == 4 and mask.shape[-1] != key.shape[-2]:
        mask = mask[..., :key.shape[-2]]
    bias = kwargs.get("position_bias")
    if bias is not None:
        # T5's learned relative-position bias (eager adds it to the scores,
        # then the mask): one additive mask, differentiated like any other.
        bias = bias[..., :key.shape[-2]]
        if mask is None:
            mask = bias
        elif mask.dtype == torch.bool:
            mask = bias.masked_fill(~mask, float("-inf"))
        else:
            mask = bias + mask
    out = ops.attention(query, key, value, mask=mask, scale=scaling,
                        causal=is_causal, softcap=softcap)
    return out.transpose(1, 2).contiguous(), None


# Tensor arguments transformers passes that the mask already expresses
# (sdpa ignores them too).
_IGNORED = {"position_bias",  # taken above, as an additive mask
            "position_ids", "cache_position", "cu_seq_lens_q",
            "cu_seq_lens_k", "max_length_q", "max_length_k", "seq_idx"}


def register(name=NAME):
    """Registers the implementation under `name`; returns the name."""
    from transformers import AttentionInterface
    AttentionInterface.register(name, attention_forward)
    try:
        from transformers import AttentionMaskInterface
        from transformers.masking_utils import sdpa_mask
        AttentionMaskInterface.register(name, sdpa_mask)
    except ImportError:  # transformers < 4.53: the sdpa mask is the default
        pass
    return name
