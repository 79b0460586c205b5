#!/usr/bin/env bash
# The GPU machine's self-checks for kernels with runtime shapes (dynamic
# sequence lengths; --flash-to-nvvm): each program checks the fused
# function against the unfused reference on the host; the `ms` programs
# run one compiled dynamic-length module at several (Nq, Nk) (mlirgen
# --shapes). wgmma (d = 64, 128), mma.sync (d = 48), SIMT (f32, the d = 256
# backward); forward and backward; causal with Nq != Nk both ways, GQA,
# Nq = 1, masks with dynamic dims, a soft-cap. From the repository root
# after `make build`; then on the GPU machine, with gpu_dyn carried:
#   cd gpu_dyn && for t in dy* ms* dk*; do ./$t | grep -c "ok: 1"; done
set -euo pipefail
OUT=${OUT:-gpu_dyn}
source bench/aot.sh
exe dy1 --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --dtype bf16 --causal --tol 8e-3 --dynamic
exe dy2 --batch 2 --hq 3 --nq 37 --nk 300 --d 128 --dtype f16 --causal --tol 2e-3 --dynamic
exe dy3 --hq 2 --nq 1 --nk 333 --d 128 --dtype bf16 --tol 8e-3 --dynamic
exe dy4 --hq 2 --nq 130 --nk 65 --d 48 --dtype f16 --tol 2e-3 --mask add --dynamic
exe dy5 --hq 2 --nq 200 --nk 150 --d 64 --dtype f16 --mask bool --full-mask --causal --tol 2e-3 --dynamic
exe dy6 --hq 2 --nq 77 --nk 90 --d 64 --tol 2e-5 --dynamic --causal
exe dy7 --hq 3 --nq 150 --nk 200 --d 128 --dtype bf16 --softcap 20.0 --amp 2 --tol 8e-3 --dynamic
exe dy8 --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --dtype f16 --causal --tol 4e-3 --dynamic
exe dy9 --grad --hq 2 --nq 37 --nk 300 --d 128 --dtype bf16 --causal --tol 2e-2 --dynamic
exe dy10 --grad --hq 2 --nq 130 --nk 65 --d 48 --dtype f16 --mask add --tol 4e-3 --dynamic
exe dy11 --grad --hq 2 --nq 65 --nk 90 --d 256 --dtype bf16 --tol 2e-2 --dynamic
exe dy12 --grad --hq 2 --nq 77 --nk 50 --d 32 --tol 2e-5 --dynamic
# One module, several shapes (each prints its own ok).
exe ms1 --batch 2 --hq 4 --hkv 2 --d 128 --dtype bf16 --causal --tol 8e-3 --shapes 1:1,1:300,37:50,130:70,200:200,257:513
exe ms2 --hq 2 --d 64 --dtype f16 --tol 2e-3 --shapes 1:64,64:1,100:100,129:255
exe ms3 --grad --batch 2 --hq 4 --hkv 2 --d 64 --dtype bf16 --causal --tol 2e-2 --shapes 1:33,37:50,130:70,200:200
exe ms4 --grad --hq 2 --d 128 --dtype f16 --tol 4e-3 --mask add --shapes 17:300,100:100,255:129
# Decode and draft tokens on the tensor-core split-KV kernels (one kernel
# per Nq, Nk at run time): causal rows by their query (Nq = 2-4, packed
# with the GQA group), a static offset that hides keys, a query that sees
# a prefix; wgmma (d = 64, 128) and mma.sync.
exe dk1 --batch 2 --hq 8 --hkv 2 --nq 4 --nk 300 --d 64 --dtype bf16 --causal --tol 8e-3 --dynamic-keys
exe dk2 --hq 8 --hkv 2 --nq 4 --d 128 --dtype f16 --causal --tol 2e-3 --dynamic-keys --shapes 4:4,4:5,4:129,4:1000,4:4097
exe dk3 --batch 2 --hq 4 --hkv 1 --nq 3 --d 128 --dtype bf16 --causal --tol 8e-3 --dynamic-keys --shapes 3:3,3:64,3:65,3:3000
exe dk4 --hq 4 --hkv 2 --nq 2 --nk 700 --d 64 --dtype f16 --causal --causal-offset 100 --tol 2e-3 --dynamic-keys
exe dk5 --hq 8 --hkv 1 --nq 1 --nk 900 --d 128 --dtype bf16 --causal --causal-offset 250 --tol 8e-3 --dynamic-keys
# Decode without a causal limit at d = 128 (128-key tiles): GQA 8/2, Nq 1
# and 2 (queries that see every key), several cache lengths.
exe dk7 --batch 3 --hq 8 --hkv 2 --nq 1 --d 128 --dtype bf16 --tol 8e-3 --dynamic-keys --shapes 1:1,1:127,1:128,1:129,1:1000,1:5001
exe dk8 --hq 4 --hkv 1 --nq 2 --d 128 --dtype f16 --tol 2e-3 --dynamic-keys --shapes 2:2,2:300,2:4097
FLASH_AOT_NVVM_OPTIONS=wgmma=0 exe dk6 --batch 2 --hq 8 --hkv 2 --nq 4 --d 128 --dtype bf16 --causal --tol 8e-3 --dynamic-keys --shapes 4:4,4:130,4:2049
cp build/lib/libflash_cuda_runtime.so "$OUT/"
