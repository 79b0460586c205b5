# flash_mlir.transformers.attention_forward (the function registered as
# transformers' attn_implementation="mlir") on the CPU, called the way
# transformers 5's models call it, against eager attention computed another
# way in float64 (transformers' eager_attention_forward: scores * scaling,
# + position_bias, + mask, softmax, @ v): T5's learned position_bias with its
# gradient, alone and with a bool keep-mask or a float mask; GQA; odd Nq !=
# Nk; the refusals (an unknown tensor argument, dropout in training,
# attention weights).
# RUN: env FLASH_MLIR_CACHE=%t.cache %python %s | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: interface: 4 cases ok, 3 refusals ok

import torch

from flash_mlir.transformers import attention_forward


class Module(torch.nn.Module):
    is_causal = False


def eager(q, k, v, mask, scaling, bias):
    g = q.shape[1] // k.shape[1]
    k, v = (t.repeat_interleave(g, 1) for t in (k, v))
    s = (q @ k.transpose(-1, -2)) * scaling
    if bias is not None:
        s = s + bias
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool \
            else s + mask
    return (torch.softmax(s, -1) @ v).transpose(1, 2)


def case(name, b, hq, hkv, nq, nk, d, mask_kind):
    torch.manual_seed(hash(name) % 1000)
    q = torch.randn(b, hq, nq, d, dtype=torch.float64)
    k = torch.randn(b, hkv, nk, d, dtype=torch.float64)
    v = torch.randn(b, hkv, nk, d, dtype=torch.float64)
    bias = torch.randn(1, hq, nq, nk, dtype=torch.float64) * 2
    mask = None
    if mask_kind == "bool":
        mask = torch.rand(b, 1, nq, nk) > 0.3
        mask[..., 0] = True
    elif mask_kind == "float":
        mask = torch.where(torch.rand(b, 1, nq, nk) > 0.3, 0.0,
                           -1e9).double()
    ins = [t.float().requires_grad_() for t in (q, k, v, bias)]
    out, weights = attention_forward(Module(), *ins[:3], mask, scaling=1.0,
                                     position_bias=ins[3])
    do = torch.randn(out.shape, dtype=torch.float64)
    out.backward(do.float())
    refs = [t.clone().requires_grad_() for t in (q, k, v, bias)]
    ref = eager(*refs[:3], mask, 1.0, refs[3])
    ref.backward(do)
    errs = [(out.double() - ref).abs().max().item()] + [
        (a.grad.double() - r.grad).abs().max().item()
        for a, r in zip(ins, refs)]
    ok = weights is None and max(errs) < 2e-4
    print(f"{name}: o {errs[0]:.1e} dq {errs[1]:.1e} dk {errs[2]:.1e} "
          f"dv {errs[3]:.1e} dbias {errs[4]:.1e}", "ok" if ok else "FAIL")
    return ok


def refusals():
    q = torch.randn(1, 2, 5, 16)
    n = 0
    for kw, train in (({"relative_bias": torch.zeros(1)}, False),
                      ({"dropout": 0.1}, True),
                      ({"output_attentions": True}, False)):
        m = Module().train(train)
        try:
            attention_forward(m, q, q, q, None, **kw)
            print(f"refusal {sorted(kw)}: accepted FAIL")
        except (NotImplementedError, ValueError) as e:
            print(f"refusal {sorted(kw)}: {str(e)[:70]}")
            n += 1
    return n


oks = [case("t5 encoder: position_bias", 2, 4, 4, 37, 37, 16, None),
       case("t5 decoder: position_bias + bool mask", 2, 4, 4, 21, 21, 16,
            "bool"),
       case("cross: position_bias + float mask", 2, 4, 4, 9, 33, 32,
            "float"),
       case("GQA: position_bias + bool mask", 1, 8, 2, 17, 30, 16, "bool")]
n = refusals()
print(f"interface: {sum(oks)} cases ok, {n} refusals ok"
      if all(oks) else "interface: FAIL")
