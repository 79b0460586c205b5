#!/usr/bin/env python3
"""One forward and one backward of a bench configuration, for a profiler:

  FLASH_MLIR_CACHE=gpu_out/cache PYTHONPATH=python ncu --section SpeedOfLight \
    --section Occupancy --section WarpStateStats -k regex:flash_attention \
    python3 bench/gpu/profile_call.py 128 4096 [causal] [softcap=50] \
    [window=1023,0]

With modifiers (softcap=C, window=L,R) the call is bench_mods.py's
(flash_mlir.cuda.attention with autograd, B = 1 for N = 16k), so that
bench_mods.py --precompile's cache holds its kernels; without, bench.py's
(cuda.forward / cuda.backward).
"""

import sys

import torch

from flash_mlir import cuda

d, n = int(sys.argv[1]), int(sys.argv[2])
causal = "causal" in sys.argv[3:]
mods = dict(a.split("=", 1) for a in sys.argv[3:] if "=" in a)
b, h = 16384 // n, 2048 // d
q, k, v, do = (torch.randn(b, h, n, d, device="cuda", dtype=torch.bfloat16)
               for _ in range(4))
if mods:
    kw = dict(causal=causal,
              window=(tuple(int(x) for x in mods["window"].split(","))
                      if "window" in mods else None),
              softcap=float(mods["softcap"]) if "softcap" in mods else None)
    q, k, v = (t.requires_grad_() for t in (q, k, v))
    cuda.attention(q, k, v, **kw).backward(do)
elif "plain" in sys.argv[3:]:
    # (bench_mods.py's plain cases: the same call without modifiers.)
    q, k, v = (t.requires_grad_() for t in (q, k, v))
    cuda.attention(q, k, v, causal=causal, window=None,
                   softcap=None).backward(do)
else:
    o, lse = cuda.forward(q, k, v, causal=causal)
    cuda.backward(q, k, v, o, lse, do, causal=causal)
torch.cuda.synchronize()
