#!/usr/bin/env python3
"""PyTorch without code changes, on the GPU machine (torch 2.x with
transformers; no MLIR there: kernels and raises come from a cache filled
here, see flash_mlir.offline):

1. torch.ops.flash_mlir.attention under torch.compile(fullgraph=True),
   forward and backward, against an f32 reference;
2. transformers models built from configs (random weights): Llama (GQA),
   Mistral (sliding window), GPT-2, BERT (padding), Whisper, T5 with
   attn_implementation="mlir" (flash_mlir.transformers) against the
   same weights with "sdpa": logits and gradients, each side's error
   against the f32 sdpa model (ours must be <= 2x sdpa's bf16 error + eps);
   the flash_mlir model under torch.compile(fullgraph=True);
3. the FX pass (flash_mlir.fx.backend under torch.compile) on the "eager"
   implementation of each model: which softmaxes it fused, the remark for
   each it did not, and the outputs against eager;
4. a training step (forward + backward) at sequence 4k, flash_mlir vs sdpa.

  # GPU machine, first run: collect what the cache lacks (missing kernels
  # run unfused and are requested)
  FLASH_MLIR_CACHE=gpu_t/cache FLASH_MLIR_PENDING=$OUT/pending \
      FLASH_MLIR_COLLECT=1 python3 bench/gpu/check_torch.py
  # here: answer the requests
  FLASH_MLIR_CACHE=gpu_t/cache python3 -m flash_mlir.offline <pending>
  # GPU machine again: the numbers (a row that still ran unfused says so)
"""

import functools
import json
import os
import sys
import time
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                "python"))

import torch  # noqa: E402

import flash_mlir.fx as ffx  # noqa: E402
import flash_mlir.transformers as fmt  # noqa: E402
from flash_mlir import ops  # noqa: E402
from timing import timeit  # noqa: E402

RESULTS = {}
UNFUSED = []


def _count_unfused():
    # ops._collecting warns once per call that ran unfused.
    warnings.simplefilter("always")
    orig = warnings.showwarning

    def show(msg, *a, **k):
        if "FLASH_MLIR_COLLECT" in str(msg):
            UNFUSED.append(str(msg))
            return
        orig(msg, *a, **k)
    warnings.showwarning = show


def section(fn):
    @functools.wraps(fn)
    def run(*a, **k):
        t0 = time.time()
        n0 = len(UNFUSED)
        try:
            fn(*a, **k)
        except Exception as e:  # report and go on: one run checks everything
            print(f"{fn.__name__}: ERROR {type(e).__name__}: {e}")
            traceback.print_exc(limit=4)
        print(f"[{fn.__name__}: {time.time() - t0:.1f} s, "
              f"{len(UNFUSED) - n0} calls unfused (kernels requested)]",
              flush=True)
    return run


@section
def custom_op():
    dev = "cuda"
    torch.manual_seed(0)
    q = torch.randn(2, 8, 300, 64, device=dev, dtype=torch.bfloat16,
                    requires_grad=True)
    k = torch.randn(2, 2, 300, 64, device=dev, dtype=torch.bfloat16,
                    requires_grad=True)
    v = torch.randn(2, 2, 300, 64, device=dev, dtype=torch.bfloat16,
                    requires_grad=True)

    def f(q, k, v):
        return ops.attention(q, k, v, causal=True).float().square().sum()
    for name, fn in (("eager", f), ("compiled", torch.compile(
            f, fullgraph=True))):
        loss = fn(q, k, v)
        g = torch.autograd.grad(loss, (q, k, v))
        qf, kf, vf = (t.detach().float().requires_grad_() for t in (q, k, v))
        ref = torch.nn.functional.scaled_dot_product_attention(
            qf, kf, vf, is_causal=True, enable_gqa=True).square().sum()
        gr = torch.autograd.grad(ref, (qf, kf, vf))
        err = max(float((a.float() - b).abs().max() / b.abs().max())
                  for a, b in zip(g, gr))
        print(f"custom_op {name}: loss {float(loss):.4f} vs {float(ref):.4f}"
              f", grad rel err {err:.2e}",
              "ok" if err < 2e-2 else "FAIL")
        RESULTS[f"custom_op_{name}"] = err
    # A learned additive mask (T5's position bias): its gradient too.
    bias = (torch.randn(1, 8, 300, 300, device=dev) * 0.5).to(
        torch.bfloat16).requires_grad_()
    out = ops.attention(q, k, v, mask=bias)
    gb, = torch.autograd.grad(out.float().square().sum(), bias)
    bf = bias.detach().float().requires_grad_()
    ref = torch.nn.functional.scaled_dot_product_attention(
        q.detach().float(), k.detach().float(), v.detach().float(),
        attn_mask=bf, enable_gqa=True)
    gr, = torch.autograd.grad(ref.square().sum(), bf)
    err = float((gb.float() - gr).abs().max() / gr.abs().max())
    print(f"custom_op mask gradient: rel err {err:.2e}",
          "ok" if err < 3e-2 else "FAIL")
    RESULTS["custom_op_mask_grad"] = err


def configs():
    import transformers as T
    common = dict(vocab_size=512)
    return {
        "llama": (T.LlamaConfig(hidden_size=256, intermediate_size=512,
                                num_hidden_layers=2, num_attention_heads=4,
                                num_key_value_heads=2, max_position_embeddings=8192,
                                **common), T.AutoModelForCausalLM, "causal"),
        "mistral": (T.MistralConfig(hidden_size=256, intermediate_size=512,
                                    num_hidden_layers=2,
                                    num_attention_heads=4,
                                    num_key_value_heads=1, sliding_window=96,
                                    max_position_embeddings=8192, **common),
                    T.AutoModelForCausalLM, "causal"),
        "gpt2": (T.GPT2Config(n_embd=256, n_layer=2, n_head=4,
                              n_positions=8192, attn_pdrop=0.0,
                              resid_pdrop=0.0, embd_pdrop=0.0, **common),
                 T.AutoModelForCausalLM, "causal"),
        "bert": (T.BertConfig(hidden_size=256, num_hidden_layers=2,
                              num_attention_heads=4, intermediate_size=512,
                              attention_probs_dropout_prob=0.0,
                              hidden_dropout_prob=0.0, **common),
                 T.AutoModel, "padding"),
        "whisper": (T.WhisperConfig(d_model=256, encoder_layers=2,
                                    decoder_layers=2,
                                    encoder_attention_heads=4,
                                    decoder_attention_heads=4,
                                    encoder_ffn_dim=512, decoder_ffn_dim=512,
                                    num_mel_bins=80, max_source_positions=1500,
                                    dropout=0.0, attention_dropout=0.0,
                                    vocab_size=512, pad_token_id=0,
                                    bos_token_id=1, eos_token_id=2,
                                    decoder_start_token_id=1),
                    T.AutoModelForSpeechSeq2Seq, "audio"),
        "t5": (T.T5Config(d_model=256, d_kv=64, d_ff=512, num_layers=2,
                          num_heads=4, dropout_rate=0.0, **common),
               T.AutoModelForSeq2SeqLM, "seq2seq"),
    }


def inputs(kind, cfg, n, dev):
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, 512, (2, n), generator=g).to(dev)
    if kind == "causal":
        return dict(input_ids=ids, use_cache=False)
    if kind == "padding":
        am = torch.ones(2, n, dtype=torch.long, device=dev)
        am[1, n - 37:] = 0
        return dict(input_ids=ids, attention_mask=am)
    if kind == "audio":
        feats = torch.randn(2, 80, 3000, generator=g).to(dev)
        return dict(input_features=feats, decoder_input_ids=ids[:, :64],
                    use_cache=False)
    return dict(input_ids=ids, decoder_input_ids=ids[:, :77],
                use_cache=False)


def build(cls, cfg, impl, state=None, dtype=torch.bfloat16):
    torch.manual_seed(0)
    m = cls.from_config(cfg, attn_implementation=impl)  # Auto classes
    if state is not None:
        m.load_state_dict(state)
    return m.to("cuda", dtype).eval()


def logits_of(out):
    return out.logits if hasattr(out, "logits") else out.last_hidden_state


def like(m, x):
    """The inputs `x` with float tensors in the model's dtype (Whisper's
    features)."""
    dt = next(m.parameters()).dtype
    return {k: (v.to(dt) if torch.is_tensor(v) and v.is_floating_point()
                else v) for k, v in x.items()}


def run(m, x):
    m.zero_grad(set_to_none=True)
    x = like(m, x)
    y = logits_of(m(**x)).float()
    w = torch.randn(y.shape, generator=torch.Generator().manual_seed(2)
                    ).to(y.device)
    (y * w).sum().backward()
    missing = [n for n, p in m.named_parameters() if p.grad is None]
    if missing:
        print(f"    no gradient for {missing[:6]}")
    grads = torch.cat([(p.grad.float() if p.grad is not None else
                        torch.zeros_like(p, dtype=torch.float32)).reshape(-1)
                       for p in m.parameters()])
    return y.detach(), grads


@section
def models(n=256):
    fmt.register()
    for name, (cfg, cls, kind) in configs().items():
        try:
            ref = build(cls, cfg, "sdpa", dtype=torch.float32)
            state = ref.state_dict()
            x = inputs(kind, cfg, n, "cuda")
            y32, g32 = run(ref, x)
            row = {}
            for impl in ("sdpa", fmt.NAME):
                m = build(cls, cfg, impl, state)
                y, g = run(m, x)
                row[impl] = (float((y - y32).abs().max()),
                             float((g - g32).norm() / g32.norm()))
            (ys, gs), (yo, go) = row["sdpa"], row[fmt.NAME]
            ok = yo <= 2 * ys + 1e-2 and go <= 2 * gs + 1e-3
            print(f"model {name}: logits err ours {yo:.3e} sdpa {ys:.3e}; "
                  f"grad rel err ours {go:.3e} sdpa {gs:.3e}",
                  "ok" if ok else "FAIL", flush=True)
            RESULTS[f"model_{name}"] = row
            # The same model under torch.compile(fullgraph=True).
            mc = build(cls, cfg, fmt.NAME, state)
            try:
                comp = torch.compile(mc, fullgraph=True)
                xc = like(mc, x)
                yc = logits_of(comp(**xc)).float()
                err = float((yc - logits_of(mc(**xc)).float()).abs().max())
                print(f"model {name}: torch.compile(fullgraph=True) ok, "
                      f"vs eager {err:.2e}", flush=True)
                RESULTS[f"compile_{name}"] = err
            except Exception as e:
                print(f"model {name}: torch.compile(fullgraph=True) FAILED: "
                      f"{type(e).__name__}: {str(e)[:300]}", flush=True)
                RESULTS[f"compile_{name}"] = str(e)[:300]
        except Exception as e:
            print(f"model {name}: ERROR {type(e).__name__}: {str(e)[:400]}",
                  flush=True)
        torch._dynamo.reset()


@section
def fx_pass(n=256):
    for name, (cfg, cls, kind) in configs().items():
        try:
            m = build(cls, cfg, "eager")
            x = like(m, inputs(kind, cfg, n, "cuda"))
            with torch.no_grad():
                y_eager = logits_of(m(**x)).float()
            lines = []
            be = functools.partial(ffx.backend, inner="eager",
                                   log=lines.append)
            comp = torch.compile(m, backend=be)
            with torch.no_grad():
                y = logits_of(comp(**x)).float()
            fused = sum(": fused" in l for l in lines)
            print(f"fx {name}: {fused}/{len(lines)} softmaxes fused, "
                  f"vs eager {float((y - y_eager).abs().max()):.3e}",
                  flush=True)
            for l in lines:
                print("   ", l[:400])
            RESULTS[f"fx_{name}"] = lines
        except Exception as e:
            print(f"fx {name}: ERROR {type(e).__name__}: {str(e)[:400]}",
                  flush=True)
        torch._dynamo.reset()


@section
def training_step(n=4096):
    import transformers as T
    fmt.register()
    cfg = T.LlamaConfig(hidden_size=1024, intermediate_size=2816,
                        num_hidden_layers=4, num_attention_heads=16,
                        num_key_value_heads=8, vocab_size=4096,
                        max_position_embeddings=n)
    x = torch.randint(0, 4096, (1, n), device="cuda")
    models = {impl: build(T.AutoModelForCausalLM, cfg, impl).train()
              for impl in ("sdpa", fmt.NAME)}

    def step(m):
        m.zero_grad(set_to_none=True)
        out = m(input_ids=x, labels=x, use_cache=False)
        out.loss.backward()
    # Interleaved rounds (the machine's speed drifts), median of rounds.
    rounds = {impl: [] for impl in models}
    for _ in range(7):
        for impl, m in models.items():
            rounds[impl].append(timeit(lambda: step(m), iters=5, warmup=1))
    times = {impl: sorted(t)[len(t) // 2] for impl, t in rounds.items()}
    del models
    torch.cuda.empty_cache()
    print(f"training step (Llama 4 layers, 1024 hidden, GQA 16/8, d 64, "
          f"seq {n}, bf16): sdpa {times['sdpa'] * 1e3:.1f} ms, flash_mlir "
          f"{times[fmt.NAME] * 1e3:.1f} ms, ratio "
          f"{times[fmt.NAME] / times['sdpa']:.3f} (median of 7 interleaved "
          "rounds of 5 steps)", flush=True)
    RESULTS["train_step_ms"] = {k: v * 1e3 for k, v in times.items()}


if __name__ == "__main__":
    _count_unfused()
    import transformers
    print("torch", torch.__version__, "transformers", transformers.__version__,
          torch.cuda.get_device_name())
    which = sys.argv[1:] or ["custom_op", "models", "fx_pass",
                             "training_step"]
    for w in which:
        globals()[w]()
    out = os.environ.get("OUT")
    if out:
        with open(os.path.join(out, "check_torch.json"), "w") as f:
            json.dump(RESULTS, f, indent=1, default=str)
