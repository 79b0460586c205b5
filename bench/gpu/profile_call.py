#!/usr/bin/env python3
"""One forward and one backward of a bench configuration, for a profiler:

  FLASH_MLIR_CACHE=gpu_out/cache PYTHONPATH=python ncu --section SpeedOfLight \
    --section Occupancy --section WarpStateStats -k regex:flash_attention \
    python3 bench/gpu/profile_call.py 128 4096
"""

import sys

import torch

from flash_mlir import cuda

d, n = int(sys.argv[1]), int(sys.argv[2])
causal = len(sys.argv) > 3 and sys.argv[3] == "causal"
b, h = 16384 // n, 2048 // d
q, k, v, do = (torch.randn(b, h, n, d, device="cuda", dtype=torch.bfloat16)
               for _ in range(4))
o, lse = cuda.forward(q, k, v, causal=causal)
cuda.backward(q, k, v, o, lse, do, causal=causal)
torch.cuda.synchronize()
