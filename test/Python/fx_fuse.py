# flash_mlir.fx.fuse_attention on FX graphs written the way model code
# writes attention (symbolic_trace, and aten graphs from make_fx): every
# softmax either becomes torch.ops.flash_mlir.attention with the attributes
# the raise proved, or stays with a reason; fused modules' outputs and
# gradients (inputs and parameters, T5's learned bias table among them)
# equal the unfused module's (f32, <= 1e-5); bf16 models' errors stay within
# the unfused bf16 module's.
# RUN: env FLASH_MLIR_CACHE=%t.cache %python %s | FileCheck %s

import math
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.fx.experimental.proxy_tensor import make_fx

from flash_mlir import fx as ffx

torch.manual_seed(0)
B, N, D, H = 2, 13, 32, 4
HD = D // H

class Attn(nn.Module):
    """Projections, [B, N, H, d] views, then `spell` writes the attention."""
    def __init__(s, spell, kv_heads=H):
        super().__init__(); s.spell = spell; s.kvh = kv_heads
        s.q = nn.Linear(D, H * HD); s.k = nn.Linear(D, kv_heads * HD); s.v = nn.Linear(D, kv_heads * HD)
        s.o = nn.Linear(H * HD, D)
        s.register_buffer("bias", torch.tril(torch.ones(64, 64, dtype=torch.bool)).view(1, 1, 64, 64))
        s.drop = nn.Dropout(0.1)
    def forward(s, x, mask=None):
        q = s.q(x).view(B, N, H, HD).transpose(1, 2)
        k = s.k(x).view(B, N, s.kvh, HD).transpose(1, 2)
        v = s.v(x).view(B, N, s.kvh, HD).transpose(1, 2)
        o = s.spell(s, q, k, v, mask)
        return s.o(o.transpose(1, 2).reshape(B, N, H * HD))

def sdp(s, q, k, v, m):
    a = q @ k.transpose(-2, -1) / math.sqrt(HD)
    return torch.softmax(a, dim=-1) @ v
def prob_scaled(s, q, k, v, m):
    # (An eval-mode dropout's factor on the probabilities.)
    a = q @ k.transpose(-2, -1) / math.sqrt(HD)
    return (torch.softmax(a, dim=-1) * 0.9) @ v
def matmul4(s, q, k, v, m):
    a = torch.matmul(q, k.transpose(2, 3)) * (HD ** -0.5)
    return torch.matmul(F.softmax(a, dim=-1, dtype=torch.float32).to(q.dtype), v)
def einsum(s, q, k, v, m):
    a = torch.einsum("bhqd,bhkd->bhqk", q * HD ** -0.5, k)
    return torch.einsum("bhqk,bhkd->bhqd", a.softmax(-1), v)
def repeat_kv(x, n):
    b, h, sl, d = B, H // n, N, HD
    return x[:, :, None, :, :].expand(b, h, n, sl, d).reshape(b, h * n, sl, d)
def gqa(s, q, k, v, m):
    k, v = repeat_kv(k, H // s.kvh), repeat_kv(v, H // s.kvh)
    a = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(HD)
    return torch.matmul(a.softmax(-1), v)
def gqa_interleave(s, q, k, v, m):
    k, v = k.repeat_interleave(H // s.kvh, dim=1), v.repeat_interleave(H // s.kvh, dim=1)
    return F.softmax(q @ k.transpose(-1, -2) / math.sqrt(HD), -1) @ v
def causal_tril(s, q, k, v, m):
    a = q @ k.transpose(-2, -1) / math.sqrt(HD)
    c = torch.tril(torch.ones(N, N, dtype=torch.bool))
    a = a.masked_fill(~c, float("-inf"))
    return s.drop(torch.softmax(a, dim=-1)) @ v
def causal_buffer(s, q, k, v, m):
    a = q @ k.transpose(-2, -1) / math.sqrt(HD)
    a = a.masked_fill(s.bias[:, :, :N, :N] == 0, float("-inf"))
    return torch.softmax(a, dim=-1) @ v
def causal_where(s, q, k, v, m):
    a = q @ k.transpose(-2, -1) / math.sqrt(HD)
    i = torch.arange(N)[:, None]; j = torch.arange(N)[None, :]
    a = torch.where(j <= i, a, torch.finfo(torch.float32).min)
    return torch.softmax(a, dim=-1) @ v
def padding(s, q, k, v, m):
    a = q @ k.transpose(-2, -1) / math.sqrt(HD) + m
    return torch.softmax(a, dim=-1) @ v
def bmm3(s, q, k, v, m):
    q3, k3, v3 = (t.reshape(B * H, N, HD) for t in (q, k, v))
    p = torch.bmm(q3, k3.transpose(1, 2)).mul(1 / math.sqrt(HD)).softmax(-1)
    return torch.bmm(p, v3).view(B, H, N, HD)
def returns_weights(s, q, k, v, m):
    p = torch.softmax(q @ k.transpose(-2, -1), -1)
    s.last = p.sum()
    return p @ v + 0 * s.last

def neg_large(s, q, k, v, m):
    a = (q * HD ** -0.5) @ k.transpose(-2, -1)
    c = torch.tril(torch.ones(N, N))
    a = a.masked_fill(c == 0, -1e9)
    return torch.softmax(a, dim=-1) @ v
def float_causal(s, q, k, v, m):
    c = torch.full((N, N), float("-inf")).triu(1)
    a = q @ k.transpose(-2, -1) / math.sqrt(HD) + c
    return torch.softmax(a.float(), dim=-1).type_as(q) @ v
def const_mask(s, q, k, v, m):
    g = torch.Generator().manual_seed(3)
    c = torch.rand(N, N, generator=g) > 0.3
    a = (q @ k.transpose(-2, -1) / math.sqrt(HD)).masked_fill(~c, float("-inf"))
    return torch.softmax(a, dim=-1) @ v
def bool_pad(s, q, k, v, m):
    keep = m == 0
    a = (q @ k.transpose(-2, -1) / math.sqrt(HD)).masked_fill(~keep, torch.finfo(torch.float32).min)
    return torch.softmax(a, dim=-1) @ v
def offset_causal(s, q, k, v, m):
    a = q[:, :, 3:] @ k.transpose(-2, -1) / math.sqrt(HD)
    c = torch.tril(torch.ones(N, N, dtype=torch.bool))[3:]
    a = a.masked_fill(~c, float("-inf"))
    o = torch.softmax(a, dim=-1) @ v
    return torch.cat([v[:, :, :3], o], dim=2)

class Fused(nn.Module):
    """One projection for q, k and v (GPT-2's c_attn, GPT-NeoX's qkv)."""
    def __init__(s, how):
        super().__init__(); s.c = nn.Linear(D, 3 * D); s.how = how
    def forward(s, x, mask=None):
        if s.how == "split":
            t = s.c(x).split(D, dim=2)
            q, k, v = (t[i].view(B, N, H, HD).permute(0, 2, 1, 3)
                       for i in range(3))
        else:
            t = s.c(x).view(B, N, 3, H, HD).unbind(2)
            q, k, v = (t[i].transpose(1, 2) for i in range(3))
        a = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(HD)
        return torch.matmul(a.softmax(-1), v)

def rotate_half(x):
    return torch.cat((-x[..., HD // 2:], x[..., :HD // 2]), dim=-1)

class Rotary(nn.Module):
    """Llama: rotary embeddings (tables from a matmul), repeat_kv GQA, a
    causal mask, softmax in f32 cast back."""
    def __init__(s):
        super().__init__(); s.a = Attn(gqa, 2)
        s.register_buffer("inv", torch.rand(1, HD))
    def forward(s, x, mask=None):
        f = torch.arange(N, dtype=torch.float32)[:, None] @ s.inv
        cos, sin = f.cos()[None, None], f.sin()[None, None]
        a = s.a
        q = a.q(x).view(B, N, H, HD).transpose(1, 2)
        k = a.k(x).view(B, N, 2, HD).transpose(1, 2)
        v = a.v(x).view(B, N, 2, HD).transpose(1, 2)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        k, v = repeat_kv(k, 2), repeat_kv(v, 2)
        w = torch.matmul(q, k.transpose(2, 3)) * HD ** -0.5
        w = w.masked_fill(~torch.tril(torch.ones(N, N, dtype=torch.bool)),
                          float("-inf"))
        w = F.softmax(w, dim=-1, dtype=torch.float32).to(q.dtype)
        return torch.matmul(w, v)

def window(s, q, k, v, m):
    a = q @ k.transpose(-2, -1) / math.sqrt(HD)
    i, j = torch.arange(N)[:, None], torch.arange(N)[None, :]
    a = a.masked_fill((j > i) | (i - j >= 4), float("-inf"))
    return torch.softmax(a, dim=-1) @ v

class Documents(nn.Module):
    """Packed documents: the keep-mask from segment ids (an input)."""
    def __init__(s):
        super().__init__(); s.a = Attn(sdp)
    def forward(s, x, seg):
        a = s.a
        q = a.q(x).view(B, N, H, HD).transpose(1, 2)
        k = a.k(x).view(B, N, H, HD).transpose(1, 2)
        v = a.v(x).view(B, N, H, HD).transpose(1, 2)
        w = q @ k.transpose(-2, -1) / math.sqrt(HD)
        keep = seg[:, None, :, None] == seg[:, None, None, :]
        w = w.masked_fill(~keep, float("-inf"))
        return torch.softmax(w, dim=-1) @ v

class Classifier(nn.Module):
    def __init__(s):
        super().__init__(); s.l = nn.Linear(D, 10)
    def forward(s, x, mask=None):
        return F.softmax(s.l(x), dim=-1)
class SoftmaxMix(nn.Module):  # softmax over features, mixed by a weight: not over keys
    def __init__(s):
        super().__init__(); s.w = nn.Parameter(torch.randn(D, D))
    def forward(s, x, mask=None):
        return torch.softmax(x, dim=1) @ s.w

def triu_bool(s, q, k, v, m):  # masked_fill(triu(ones(bool), 1), -inf)
    a = q @ k.transpose(-2, -1) / math.sqrt(HD)
    return torch.softmax(a.masked_fill(torch.triu(torch.ones(N, N, dtype=torch.bool), 1), float("-inf")), -1) @ v
def where_tril_inf(s, q, k, v, m):  # where(tril(bool), s, tensor(-inf))
    a = q @ k.transpose(-2, -1) / math.sqrt(HD)
    keep = torch.tril(torch.ones(N, N, dtype=torch.bool))
    return torch.softmax(torch.where(keep, a, torch.tensor(float("-inf"))), -1) @ v
def prefix_inplace(s, q, k, v, m):  # a prefix-LM mask edited in place
    keep = torch.tril(torch.ones(N, N)); keep[:, :5] = 1.0
    a = q @ k.transpose(-2, -1) / math.sqrt(HD)
    return torch.softmax(a + (1.0 - keep) * torch.finfo(torch.float32).min, -1) @ v
def scores_inplace(s, q, k, v, m):  # scores masked and shifted in place
    a = q @ k.transpose(-2, -1) / math.sqrt(HD)
    a.masked_fill_(torch.triu(torch.ones(N, N, dtype=torch.bool), 1), float("-inf"))
    a[..., :, 0] += 1.0
    return torch.softmax(a, -1) @ v
def pad_fill_1e9(s, q, k, v, m):
    a = (q @ k.transpose(-2, -1) / math.sqrt(HD)).masked_fill(m < -1, -1e9)
    return torch.softmax(a, dim=-1) @ v
def pad_add_1e9(s, q, k, v, m):  # (1 - keep) * -1e9, keep = 0/1 floats
    keep = (m == 0).float()
    a = q @ k.transpose(-2, -1) / math.sqrt(HD) + (1.0 - keep) * -1e9
    return torch.softmax(a, dim=-1) @ v
def pad_add_finfo(s, q, k, v, m):  # Hugging Face's extended mask
    keep = (m == 0).float()
    a = q @ k.transpose(-2, -1) / math.sqrt(HD) + \
        (1.0 - keep) * torch.finfo(torch.float32).min
    return torch.softmax(a.float(), dim=-1).type_as(a) @ v
def pad_add_1e4(s, q, k, v, m):  # old BERT: additive -10000 (exact as a bias)
    keep = (m == 0).float()
    a = q @ k.transpose(-2, -1) / math.sqrt(HD) + (1.0 - keep) * -10000.0
    return torch.softmax(a, dim=-1) @ v
def fill_1e4(s, q, k, v, m):  # a finite fill: a softmax weight, not a mask
    a = (q @ k.transpose(-2, -1) / math.sqrt(HD)).masked_fill(m < -1, -10000.0)
    return torch.softmax(a, dim=-1) @ v


# T5 (transformers' modeling_t5.T5Attention, eval): no 1/sqrt(d), a learned
# relative-position bias from bucketed relative positions (T5 trains it: its
# gradient goes through the fused op's mask gradient), or zeros in
# cross-attention; the mask added to the bias, the softmax in f32, cast back.
NM = 11  # encoder length of the cross-attention
def t5_bucket(relative_position, bidirectional=True, num_buckets=32,
              max_distance=128):
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position,
                                       torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large,
        torch.full_like(relative_position_if_large, num_buckets - 1))
    relative_buckets += torch.where(is_small, relative_position,
                                    relative_position_if_large)
    return relative_buckets

def t5_bidirectional_mask(nq, nk, dtype):
    """transformers 5's masking_utils for eager attention, without vmap:
    bidirectional_mask_function is `q_idx >= 0` (always true, on the query
    position only), turned into 0 / finfo.min."""
    q_idx = torch.arange(nq)[None, None, :, None]
    keep = (q_idx >= 0).expand(B, -1, nq, nk)
    return torch.where(keep, torch.tensor(0.0, dtype=dtype),
                       torch.finfo(dtype).min)

class T5Attn(nn.Module):
    """kind: "enc" (bidirectional bias), "dec" (causal bias and mask) or
    "cross" (zero bias, keys from a memory); mask: "pad" (the 2-D keep mask
    as (1 - m) * finfo.min, added to the bias), "pad1e4" (the same with
    -10000), "causal", "v5" (transformers 5's bidirectional mask, added to
    the scores beside the bias) or None."""
    def __init__(s, kind, mask, dt=torch.float32):
        super().__init__(); s.kind, s.mask, s.dt = kind, mask, dt
        s.q = nn.Linear(D, H * HD, bias=False); s.k = nn.Linear(D, H * HD, bias=False)
        s.v = nn.Linear(D, H * HD, bias=False); s.o = nn.Linear(H * HD, D, bias=False)
        if kind == "cross":
            s.mem = nn.Parameter(torch.randn(B, NM, D))
        else:
            s.relative_attention_bias = nn.Embedding(32, H)
            with torch.no_grad():  # not all-equal: a bias worth learning
                s.relative_attention_bias.weight.normal_(0, 2)
    def compute_bias(s, query_length, key_length):
        context_position = torch.arange(query_length, dtype=torch.long)[:, None]
        memory_position = torch.arange(key_length, dtype=torch.long)[None, :]
        relative_position = memory_position - context_position
        bucket = t5_bucket(relative_position, bidirectional=s.kind == "enc")
        values = s.relative_attention_bias(bucket)
        return values.permute([2, 0, 1]).unsqueeze(0)
    def forward(s, x, am):
        kv = s.mem.to(s.dt) if s.kind == "cross" else x
        nk = NM if s.kind == "cross" else N
        q = s.q(x).view(B, -1, H, HD).transpose(1, 2)
        k = s.k(kv).view(B, -1, H, HD).transpose(1, 2)
        v = s.v(kv).view(B, -1, H, HD).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(3, 2))
        if s.kind == "cross":
            position_bias = torch.zeros((1, H, N, nk), dtype=s.dt)
        else:
            position_bias = s.compute_bias(N, nk)[:, :, -N:, :]
        mask = None
        if s.mask == "pad":
            mask = (1.0 - am[:, None, None, :].to(s.dt)) * torch.finfo(s.dt).min
        elif s.mask == "pad1e4":  # older releases: -10000, finite
            mask = (1.0 - am[:, None, None, :].to(s.dt)) * -10000.0
        elif s.mask == "causal":
            mask = torch.full((N, N), torch.finfo(s.dt).min, dtype=s.dt).triu(1)[None, None]
        if mask is not None:
            position_bias = position_bias + mask[:, :, :, :nk]
        scores += position_bias
        if s.mask == "v5":
            scores = scores + t5_bidirectional_mask(N, nk, s.dt)
        w = F.softmax(scores.float(), dim=-1).type_as(scores)
        w = F.dropout(w, p=0.0, training=s.training)
        o = torch.matmul(w, v).transpose(1, 2).contiguous().view(B, -1, H * HD)
        return s.o(o)


CASES = [
    # CHECK: sdp: fused scale=0.3536 causal=False offset=None mask=False ok
    ("sdp", Attn(sdp)),
    # CHECK: prob_scaled: fused scale=0.3536 causal=False offset=None mask=False ok
    ("prob_scaled", Attn(prob_scaled)),
    # CHECK: matmul4: fused scale=0.3536 causal=False offset=None mask=False ok
    ("matmul4", Attn(matmul4)),
    # CHECK: einsum: fused scale=0.3536 causal=False offset=None mask=False ok
    ("einsum", Attn(einsum)),
    # CHECK: gqa: fused {{.*}} ok
    ("gqa", Attn(gqa, 2)),
    # CHECK: gqa_interleave: fused {{.*}} ok
    ("gqa_interleave", Attn(gqa_interleave, 1)),
    # CHECK: causal_tril: fused scale=0.3536 causal=True offset=0 mask=False ok
    ("causal_tril", Attn(causal_tril)),
    # CHECK: causal_buffer: fused scale=0.3536 causal=True offset=0 mask=False ok
    ("causal_buffer", Attn(causal_buffer)),
    # CHECK: causal_where: fused scale=0.3536 causal=True offset=0 mask=False ok
    ("causal_where", Attn(causal_where)),
    # CHECK: float_causal: fused scale=0.3536 causal=True offset=0 mask=False ok
    ("float_causal", Attn(float_causal)),
    # CHECK: offset_causal: fused scale=0.3536 causal=True offset=3 mask=False ok
    ("offset_causal", Attn(offset_causal)),
    # CHECK: padding: fused scale=0.3536 causal=False offset=None mask=True ok
    ("padding", Attn(padding)),
    # CHECK: bool_pad: fused {{.*}} mask=True ok
    ("bool_pad", Attn(bool_pad)),
    # CHECK: const_mask: fused {{.*}} mask=True ok
    ("const_mask", Attn(const_mask)),
    # CHECK: bmm3: fused {{.*}} ok
    ("bmm3", Attn(bmm3)),
    # CHECK: fused_split: fused scale=0.3536 {{.*}} ok
    ("fused_split", Fused("split")),
    # CHECK: fused_unbind: fused scale=0.3536 {{.*}} ok
    ("fused_unbind", Fused("unbind")),
    # CHECK: rotary: fused scale=0.3536 causal=True offset=0 mask=False ok
    ("rotary", Rotary()),
    # CHECK: window: fused {{.*}} mask=True ok
    ("window", Attn(window)),
    # CHECK: documents: fused {{.*}} mask=True ok
    ("documents", Documents()),
    # CHECK: returns_weights: not fused: the probabilities have other users
    ("returns_weights", Attn(returns_weights)),
    # CHECK: classifier: not fused: the softmax is an output of the graph
    ("classifier", Classifier()),
    # CHECK: softmax_mix: not fused: attention not raised: the softmax normalizes over a different axis
    ("softmax_mix", SoftmaxMix()),
    # CHECK: aten_sdp: fused scale=0.3536 causal=False offset=None mask=False ok
    ("aten_sdp", Attn(sdp)),
    # CHECK: aten_gqa: fused {{.*}} ok
    ("aten_gqa", Attn(gqa, 2)),
    # CHECK: aten_causal_tril: fused scale=0.3536 causal=True offset=0 mask=False ok
    ("aten_causal_tril", Attn(causal_tril)),
    # Large negative constants stand for -inf in masks (-1e9, finfo.min);
    # a finite fill is refused with its remark.
    # CHECK: neg_large: fused scale=0.3536 causal=True offset=0 mask=False ok
    ("neg_large", Attn(neg_large)),
    # CHECK: pad_fill_1e9: fused {{.*}} mask=True ok
    ("pad_fill_1e9", Attn(pad_fill_1e9)),
    # CHECK: pad_add_1e9: fused {{.*}} mask=True ok
    ("pad_add_1e9", Attn(pad_add_1e9)),
    # CHECK: pad_add_finfo: fused {{.*}} mask=True ok
    ("pad_add_finfo", Attn(pad_add_finfo)),
    # CHECK: pad_add_1e4: fused {{.*}} mask=True ok
    ("pad_add_1e4", Attn(pad_add_1e4)),
    # A finite fill is a score_mod (select(keep, s, -10000): exact), which
    # the torch op does not take yet.
    # CHECK: fill_1e4: not fused: the raised attention has a score_mod: not mapped to the torch op yet
    ("fill_1e4", Attn(fill_1e4)),
    # T5: the learned bias is the mask operand; its parameter's gradient
    # matches too.
    # torch's bool triangles: a select of predicates (the raise), a -inf
    # 0-d tensor constant by its bits and lift_fresh_copy passed through
    # (the export; it was a leaf, and the mask a score_mod).
    # CHECK: aten_triu_bool: fused scale=0.3536 causal=True offset=0 mask=False ok
    ("aten_triu_bool", Attn(triu_bool)),
    # CHECK: where_tril_inf: fused scale=0.3536 causal=True offset=0 mask=False ok
    ("where_tril_inf", Attn(where_tril_inf)),
    # CHECK: aten_where_tril_inf: fused scale=0.3536 causal=True offset=0 mask=False ok
    ("aten_where_tril_inf", Attn(where_tril_inf)),
    # Tensors the attention reads written in place (through views): not
    # fused, and the writes kept (fx's dead-code elimination removed them).
    # (symbolic_trace runs the mask's code, which reads no input: the
    # written mask is a constant of the graph, the mask operand.)
    # CHECK: prefix_inplace: fused {{.*}} mask=True ok
    ("prefix_inplace", Attn(prefix_inplace)),
    # CHECK: aten_prefix_inplace: not fused: the graph writes in place ('fill_': fill) {{.*}} ok
    ("aten_prefix_inplace", Attn(prefix_inplace)),
    # CHECK: aten_scores_inplace: not fused: the graph writes in place ('add_': add) {{.*}} ok
    ("aten_scores_inplace", Attn(scores_inplace)),
    # CHECK: t5_enc: fused scale=1.0000 causal=False offset=None mask=True ok
    ("t5_enc", T5Attn("enc", "pad")),
    # (1 - m) * -10000 is -10000 + 10000 m: the mask operand keeps the
    # constant (10000 m alone would round the kept scores away).
    # CHECK: t5_enc_1e4: fused scale=1.0000 causal=False offset=None mask=True ok
    ("t5_enc_1e4", T5Attn("enc", "pad1e4")),
    # CHECK: t5_cross: fused scale=1.0000 causal=False offset=None mask=True ok
    ("t5_cross", T5Attn("cross", "pad")),
    # CHECK: t5_cross_nomask: fused scale=1.0000 causal=False offset=None mask=False ok
    ("t5_cross_nomask", T5Attn("cross", None)),
    # CHECK: t5_dec: fused scale=1.0000 causal=True offset=0 mask=True ok
    ("t5_dec", T5Attn("dec", "causal")),
    # transformers 5's q_idx >= 0 mask, traced (aten: its positions are ops
    # of the graph, as under dynamo).
    # CHECK: aten_t5_enc_v5: fused scale=1.0000 causal=False offset=None mask=True ok
    ("aten_t5_enc_v5", T5Attn("enc", "v5")),
    # CHECK: aten_t5_cross_v5: fused scale=1.0000 causal=False offset=None mask=False ok
    ("aten_t5_cross_v5", T5Attn("cross", "v5")),
    # CHECK: aten_t5_enc: fused scale=1.0000 causal=False offset=None mask=True ok
    ("aten_t5_enc", T5Attn("enc", "pad")),
    # CHECK: aten_t5_dec: fused scale=1.0000 {{.*}} ok
    ("aten_t5_dec", T5Attn("dec", "causal")),
]

x = torch.randn(B, N, D)
pad = torch.zeros(B, 1, 1, N)
pad[1, ..., -4:] = float("-inf")
seg = torch.tensor([[0] * 5 + [1] * (N - 5), [0] * 9 + [1] * (N - 9)])
# T5's 2-D keep mask (1 = attend), for N queries' and NM memory keys.
am = torch.ones(B, N)
am[1, 7:] = 0

def inputs(name):
    if name == "documents":
        return seg
    return am if "t5_" in name else pad

bad = 0
for name, mod in CASES:
    mod.eval()
    m_in = inputs(name)
    if name.startswith("aten_"):
        def trace():
            return make_fx(lambda x, m: mod(x, m))(x, m_in)
    else:
        def trace():
            return torch.fx.symbolic_trace(mod)
    gm, ref_gm = trace(), trace()
    reports = ffx.fuse_attention(gm, (x, m_in))
    # The unfused graph, differentiated by torch, is the reference.
    outs = []
    for g in (gm, ref_gm):
        xs = x.clone().requires_grad_()
        params = list(mod.parameters())
        out = g(xs, m_in)
        w = torch.randn(out.shape, generator=torch.Generator().manual_seed(1))
        grads = torch.autograd.grad(out, [xs] + params, w, allow_unused=True)
        outs.append((out, grads))
    (o, gs), (r, grs) = outs
    err = float((o - r).abs().max())
    gerr = max(float((a - b).abs().max()) for a, b in zip(gs, grs)
               if a is not None and b is not None)
    # (A parameter without a gradient on one side only, T5's bias table
    # cut off by the fused op, fails too.)
    ok = err <= 1e-5 and gerr <= 1e-5 and all(
        (a is None) == (b is None) for a, b in zip(gs, grs))
    rep = reports[0]
    if rep.fused:
        a = rep.attrs
        what = (f"fused scale={a['scale']:.4f} causal={a['causal']} "
                f"offset={a['causal_offset']} mask={a['mask']}")
        if not any(n.op == "call_function" and n.target is ffx.fused_attention
                   for n in gm.graph.nodes):
            ok = False
    else:
        what = "not fused: " + rep.reason.splitlines()[0]
    bad += not ok
    print(f"{name}: {what} {'ok' if ok else f'FAIL err={err:.2e} grad={gerr:.2e}'}")

# A bf16 model (the softmax in f32 and cast back, as T5 and Llama do): the
# fused module's error against the f32 module is at most the unfused bf16
# module's (x2, + 1e-2).
BF16 = [
    # CHECK: bf16 t5_enc: fused mask=True ok
    ("t5_enc", lambda dt: T5Attn("enc", "pad", dt)),
    # CHECK: bf16 t5_cross: fused mask=True ok
    ("t5_cross", lambda dt: T5Attn("cross", "pad", dt)),
    # CHECK: bf16 t5_dec: fused mask=True ok
    ("t5_dec", lambda dt: T5Attn("dec", "causal", dt)),
    # CHECK: bf16 aten_t5_enc_v5: fused mask=True ok
    ("aten_t5_enc_v5", lambda dt: T5Attn("enc", "v5", dt)),
    # CHECK: bf16 neg_large: fused mask=False ok
    ("neg_large", lambda dt: Attn(neg_large)),
    # CHECK: bf16 pad_fill_1e9: fused mask=True ok
    ("pad_fill_1e9", lambda dt: Attn(pad_fill_1e9)),
]
for name, make in BF16:
    torch.manual_seed(0)
    ref = make(torch.float32).eval()
    torch.manual_seed(0)
    mod = make(torch.bfloat16).eval()
    mod.load_state_dict(ref.state_dict())
    mod = mod.to(torch.bfloat16)
    m_in = inputs(name)
    xb = x.to(torch.bfloat16)
    if name.startswith("aten_"):
        def trace():
            return make_fx(lambda x, m: mod(x, m))(xb, m_in)
    else:
        def trace():
            return torch.fx.symbolic_trace(mod)
    gm = trace()
    rep = ffx.fuse_attention(gm, (xb, m_in))[0]
    with torch.no_grad():
        want = ref(x, m_in)
        e_fused = float((gm(xb, m_in).float() - want).abs().max())
        e_plain = float((mod(xb, m_in).float() - want).abs().max())
    ok = rep.fused and e_fused <= 2 * e_plain + 1e-2
    bad += not ok
    what = f"fused mask={rep.attrs['mask']}" if rep.fused else \
        "not fused: " + rep.reason.splitlines()[0]
    print(f"bf16 {name}: {what} "
          f"{'ok' if ok else f'FAIL fused {e_fused:.2e} plain {e_plain:.2e}'}")

# CHECK: failures: 0
print(f"failures: {bad}")
