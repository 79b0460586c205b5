// The tensor-core kernels of the benchmarked configurations (bench/gpu: bf16,
// d = 64 / 128, causal or not, forward and backward, the warp-specialized
// d = 128 forward, and the d = 256 forward and backward, on sm_90a's
// wgmma) and a
// few of the others keep everything in registers: ptxas spills nothing.
// REQUIRES: ptxas
// RUN: %gen --batch 4 --hq 32 --n 4096 --d 64 --dtype bf16 | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// RUN: %gen --batch 4 --hq 16 --n 4096 --d 128 --dtype bf16 --causal | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// RUN: %gen --batch 16 --hq 16 --n 1024 --d 128 --dtype bf16 --causal | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// RUN: %gen --batch 2 --hq 4 --hkv 2 --nq 300 --nk 200 --d 64 --dtype f16 --causal --mask add | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// RUN: %gen --batch 4 --hq 8 --n 4096 --d 256 --dtype bf16 | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// RUN: %gen --batch 2 --hq 4 --hkv 2 --nq 300 --nk 200 --d 256 --dtype bf16 --causal --dynamic | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// Head dim 192 on the d = 256 kernels (warp-specialized forward, the
// backward's shared-memory operands).
// RUN: %gen --batch 4 --hq 10 --n 4096 --d 192 --dtype bf16 --causal | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// RUN: %gen --grad --batch 2 --hq 4 --hkv 2 --nq 300 --nk 200 --d 192 --dtype bf16 --causal | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=BWD
// Head dim 96 on 128-column tiles (zero columns past 96).
// RUN: %gen --batch 4 --hq 21 --n 4096 --d 96 --dtype bf16 --causal | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// RUN: %gen --grad --batch 4 --hq 21 --n 4096 --d 96 --dtype bf16 | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --batch 4 --hq 32 --n 4096 --d 64 --dtype bf16 --causal | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --batch 4 --hq 16 --n 4096 --d 128 --dtype bf16 | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --batch 4 --hq 16 --n 4096 --d 128 --dtype bf16 --causal | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --batch 2 --hq 4 --hkv 2 --nq 300 --nk 200 --d 64 --dtype f16 --mask bool --full-mask | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --batch 2 --hq 4 --hkv 2 --nq 300 --nk 200 --d 32 --dtype bf16 | flash-opt --flash-to-nvvm="format=isa chip=sm_80 features=+ptx70" | %python %S/ptxas_spills.py sm_80 | FileCheck %s --check-prefix=BWD
// RUN: %gen --batch 2 --hq 8 --hkv 2 --nq 300 --nk 700 --d 128 --dtype bf16 --causal --dynamic | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// RUN: %gen --n 500 --d 128 --softcap 30 --dtype f16 | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// RUN: %gen --n 2048 --d 128 --window 256,0 --softcap 20 --dtype bf16 | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// The persistent warp-specialized forward (static sizes): plain, and a
// causal window 1024; soft-capping with 3 of 8 exponentials on the FMA
// units (bench/gpu/bench_mods.py's).
// RUN: %gen --hq 16 --n 16384 --d 128 --softcap 50 --dtype bf16 | flash-opt --flash-to-nvvm="format=isa fma-exp2=-1" | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// RUN: %gen --batch 4 --hq 16 --n 4096 --d 128 --dtype bf16 | flash-opt --flash-to-nvvm="format=isa persistent-blocks=132" | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// RUN: %gen --hq 16 --n 16384 --d 128 --window 1024,0 --causal --dtype bf16 | flash-opt --flash-to-nvvm="format=isa persistent-blocks=132" | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// The same window with its diagonal a captured run-time operand, as
// flash_mlir.cuda builds it (bench_mods.py's), persistent by default.
// RUN: %gen --hq 16 --n 16384 --d 128 --window 1024,0 --causal --dtype bf16 --mod-offset | flash-opt --flash-to-nvvm="format=isa" | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// Windows over keys that do not fill the last tile (one block per query
// block: persistent, ptxas serialized the first's wgmmas, the second
// spilled 52 bytes).
// RUN: %gen --hq 2 --n 2000 --d 128 --window 512,0 --dtype bf16 | flash-opt --flash-to-nvvm="format=isa" | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// RUN: %gen --hq 2 --n 2000 --d 256 --window 512,0 --causal --dtype bf16 | flash-opt --flash-to-nvvm="format=isa" | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// Its backward (bench_mods.py's: 64-query dK/dV tiles), and a window's
// with GQA (32).
// RUN: %gen --grad --hq 16 --n 16384 --d 128 --window 1024,0 --causal --dtype bf16 --mod-offset | flash-opt --flash-to-nvvm="format=isa" | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --batch 2 --hq 4 --hkv 2 --n 2048 --d 128 --window 256,0 --causal --dtype bf16 | flash-opt --flash-to-nvvm="format=isa" | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=BWD
// Document masks (segment ids: a block mask, tiles seen in full unmasked)
// on the one-warpgroup forward and the backward. (The warp-specialized
// forward with one, over 1024 keys, spills 104 bytes at d = 128, and ran
// 1.14x faster than the one-warpgroup kernel all the same: bench/RESULTS.md.)
// RUN: %gen --batch 1 --hq 16 --n 1000 --d 128 --dtype bf16 --causal --segments 4 | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=FWD
// RUN: %gen --grad --batch 1 --hq 16 --n 2048 --d 128 --dtype bf16 --causal --segments 4 | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=BWD
// The fp8 forward (V^T's kernel, then the one-warpgroup e4m3 wgmma kernel,
// capped at 168 registers), static and runtime sizes.
// RUN: %gen --batch 2 --hq 8 --hkv 2 --n 4096 --d 128 --dtype f8E4M3FN --descale head --causal | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefixes=FWD,FP8
// RUN: %gen --hq 4 --nq 300 --nk 1000 --d 128 --dtype f8E4M3FN --descale tensor --dynamic | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefixes=FWD,FP8
// RUN: %gen --batch 2 --hq 3 --nq 37 --nk 700 --d 128 --mask bool --full-mask --dtype f8E4M3FN --descale head | flash-opt --flash-to-nvvm=format=isa | %python %S/ptxas_spills.py | FileCheck %s --check-prefixes=FWD,FP8
// The backward with dQ by reductions (deterministic=0): K and V from shared
// memory in the dK/dV kernel leave room for dQ^T's accumulators (two
// warpgroups and a producer warpgroup; 64-query tiles, 32 where the
// scores are masked at d = 128). At d = 128, with 240 registers for the
// consumers and 24 for the producer, the kernel spills 56-72 bytes (24 with
// the mask) and ran 1.03-1.28x the one without a producer, which had 255
// registers and spilled nothing but under a causal limit (48 bytes;
// bench/RESULTS.md, session 30): ATOMIC128 only checks the others.
// RUN: %gen --grad --batch 4 --hq 16 --n 4096 --d 128 --dtype bf16 | flash-opt --flash-to-nvvm="format=isa deterministic=0" | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=ATOMIC128
// RUN: %gen --grad --batch 4 --hq 32 --n 4096 --d 64 --dtype bf16 --causal | flash-opt --flash-to-nvvm="format=isa deterministic=0" | %python %S/ptxas_spills.py | FileCheck %s --check-prefixes=ATOMIC,ATOMIC128
// RUN: %gen --grad --batch 4 --hq 32 --n 4096 --d 64 --dtype bf16 | flash-opt --flash-to-nvvm="format=isa deterministic=0" | %python %S/ptxas_spills.py | FileCheck %s --check-prefixes=ATOMIC,ATOMIC128
// RUN: %gen --grad --batch 2 --hq 4 --hkv 2 --nq 300 --nk 260 --d 128 --dtype bf16 --causal --causal-offset -20 --mask add | flash-opt --flash-to-nvvm="format=isa deterministic=0" | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=ATOMIC128
// ATOMIC128-DAG: flash_attention_grad_dq_0_prep: {{[0-9]+}} registers, 0 bytes spilled
// ATOMIC-DAG: flash_attention_grad_dkdv_0: {{[0-9]+}} registers, 0 bytes spilled
// ATOMIC128-DAG: flash_attention_grad_dq_0: {{[0-9]+}} registers, 0 bytes spilled
// The d = 256 backward on wgmma (A operands from shared memory, dK/dV in
// column halves; two consumer warpgroups and producers, 40 registers for
// the dK/dV kernel's producer and a block mask's cursor).
// RUN: %gen --grad --batch 4 --hq 8 --n 4096 --d 256 --dtype bf16 | flash-opt --flash-to-nvvm="format=isa" | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --hq 4 --n 1000 --d 256 --dtype bf16 --causal --segments 3 | flash-opt --flash-to-nvvm="format=isa" | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --batch 4 --hq 8 --n 4096 --d 256 --dtype bf16 --causal | flash-opt --flash-to-nvvm="format=isa" | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --batch 2 --hq 4 --hkv 2 --nq 300 --nk 200 --d 256 --dtype bf16 --causal --dynamic | flash-opt --flash-to-nvvm="format=isa" | %python %S/ptxas_spills.py | FileCheck %s --check-prefix=BWD
// FP8: flash_attention_0_v_transpose: {{[0-9]+}} registers, 0 bytes spilled
// The warp-specialized forward (d = 128) overlaps its products with the
// softmax only if ptxas keeps them asynchronous.
// FWD-NOT: wgmma serialized
// FWD: flash_attention_0: {{[0-9]+}} registers, 0 bytes spilled
// BWD-DAG: flash_attention_grad_dq_0: {{[0-9]+}} registers, 0 bytes spilled
// BWD-DAG: flash_attention_grad_dkdv_0: {{[0-9]+}} registers, 0 bytes spilled
