#!/usr/bin/env python3
"""fma-exp2 (bench/gpu/prepare_persistent.sh): soft-cap forward vs the plain forward (non-causal), bf16 d=128 H=16 N=16k,
this process's FLASH_MLIR_NVVM_OPTIONS / FLASH_MLIR_CACHE; errors at N=1024
vs float64."""
import os, sys
R = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(R, "python"))
sys.path.insert(1, os.path.join(R, "bench", "gpu"))
os.environ.setdefault("FLASH_MLIR_DYNAMIC", "0")
from flash_mlir import cuda
import bench_mods as bm
if sys.argv[1:] == ["--precompile"]:
    bm.precompile(["full", "softcap"])
    sys.exit()
import torch
from timing import timeit
tag = os.environ.get("FLASH_MLIR_NVVM_OPTIONS", "default")
torch.manual_seed(0)
for n in (1024, 16384):
    q, k, v = (torch.randn(1, 16, n, 128, device="cuda", dtype=torch.bfloat16) * 1.5 for _ in range(3))
    res = {}
    for name, cap in (("full", None), ("softcap", 50.0)):
        f = lambda: cuda.attention(q, k, v, softcap=cap)
        o = f()
        if n == 1024:
            qd, kd, vd = (t.double() for t in (q, k, v))
            s = qd @ kd.transpose(-1, -2) / 128 ** 0.5
            if cap:
                s = cap * torch.tanh(s / cap)
            ref = torch.softmax(s, -1) @ vd
            res[name] = (o.double() - ref).abs().max().item()
        else:
            res[name] = timeit(f, iters=20, warmup=5) * 1e3
    if n == 1024:
        print(f"{tag}: err full {res['full']:.2e} softcap {res['softcap']:.2e}")
    else:
        print(f"{tag}: N=16k full {res['full']:.3f} ms softcap {res['softcap']:.3f} ms ratio {res['softcap']/res['full']:.3f}", flush=True)
