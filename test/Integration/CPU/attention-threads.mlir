// The parallel loop nests (--flash-to-cpu threads=0, the default: OpenMP on
// all cores) give bitwise the same results for any thread count (one code;
// every output element is computed by one iteration, in a fixed order) and
// the same as the sequential code (threads=1: the same operations in the
// same order; compiled at -O3 as the JIT and the Python front do, where
// LLVM contracts the same multiply-adds in both). Each program prints a
// digest of the bits of every fused output (and checks it against the
// unfused reference).
//
// Forward, FA2 order (batch x heads x query blocks in parallel), odd sizes,
// GQA, causal with Nq != Nk, a boolean mask.
// RUN: %gen --n 300 --d 64 --batch 2 --hq 3 --digest > %t.fwd.mlir
// RUN: flash-opt %t.fwd.mlir --flash-to-cpu=threads=1 | %run -O3 > %t.fwd.1
// RUN: flash-opt %t.fwd.mlir --flash-to-cpu=threads=2 | %run -O3 > %t.fwd.2
// RUN: flash-opt %t.fwd.mlir --flash-to-cpu=threads=3 | %run -O3 > %t.fwd.3
// RUN: flash-opt %t.fwd.mlir --flash-to-cpu | env OMP_NUM_THREADS=5 %run -O3 > %t.fwd.0
// RUN: FileCheck %s < %t.fwd.1
// RUN: diff %t.fwd.1 %t.fwd.2 && diff %t.fwd.1 %t.fwd.3 && diff %t.fwd.1 %t.fwd.0
//
// RUN: %gen --nq 77 --nk 130 --d 48 --batch 2 --hq 4 --hkv 2 --causal --mask bool --digest > %t.gqa.mlir
// RUN: flash-opt %t.gqa.mlir --flash-to-cpu="threads=1 block-q=16 block-kv=24" | %run -O3 > %t.gqa.1
// RUN: flash-opt %t.gqa.mlir --flash-to-cpu="block-q=16 block-kv=24" | env OMP_NUM_THREADS=3 %run -O3 > %t.gqa.0
// RUN: FileCheck %s < %t.gqa.1
// RUN: diff %t.gqa.1 %t.gqa.0
//
// FA1 order (batch x heads in parallel, the key blocks sequential).
// RUN: flash-opt %t.gqa.mlir --flash-to-cpu="threads=1 block-q=16 block-kv=24 loop-order=fa1" | %run -O3 > %t.fa1.1
// RUN: flash-opt %t.gqa.mlir --flash-to-cpu="threads=2 block-q=16 block-kv=24 loop-order=fa1" | %run -O3 > %t.fa1.2
// RUN: FileCheck %s < %t.fa1.1
// RUN: diff %t.fa1.1 %t.fa1.2
//
// Backward: fa2, (batch..., kv head, key chunk) in parallel, each chunk's dq
// into a slab of its own, summed in chunk order; fa1, (batch..., kv head).
// RUN: %gen --grad --nq 65 --nk 100 --d 32 --batch 2 --hq 4 --hkv 2 --causal --digest > %t.bwd.mlir
// RUN: flash-opt %t.bwd.mlir --flash-to-cpu="threads=1 block-q=16 block-kv=24" | %run -O3 > %t.bwd.1
// RUN: flash-opt %t.bwd.mlir --flash-to-cpu="threads=2 block-q=16 block-kv=24" | %run -O3 > %t.bwd.2
// RUN: flash-opt %t.bwd.mlir --flash-to-cpu="block-q=16 block-kv=24" | env OMP_NUM_THREADS=7 %run -O3 > %t.bwd.0
// RUN: FileCheck %s --check-prefix=GRAD < %t.bwd.1
// RUN: diff %t.bwd.1 %t.bwd.2 && diff %t.bwd.1 %t.bwd.0
// RUN: flash-opt %t.bwd.mlir --flash-to-cpu="threads=1 loop-order=fa1" | %run -O3 > %t.bwdfa1.1
// RUN: flash-opt %t.bwd.mlir --flash-to-cpu="threads=3 loop-order=fa1" | %run -O3 > %t.bwdfa1.3
// RUN: diff %t.bwdfa1.1 %t.bwdfa1.3
//
// bf16 (bf16-dot=host: AVX512-BF16 dot products where the host has them,
// else widened to f32), forward and backward.
// RUN: %gen --n 300 --d 64 --hq 2 --dtype bf16 --tol 8e-3 --digest > %t.bf.mlir
// RUN: flash-opt %t.bf.mlir --flash-to-cpu=threads=1 | %run -O3 > %t.bf.1
// RUN: flash-opt %t.bf.mlir --flash-to-cpu | env OMP_NUM_THREADS=3 %run -O3 > %t.bf.0
// RUN: FileCheck %s < %t.bf.1
// RUN: diff %t.bf.1 %t.bf.0
// RUN: %gen --grad --n 200 --d 64 --hq 2 --dtype bf16 --tol 3e-2 --digest > %t.bfg.mlir
// RUN: flash-opt %t.bfg.mlir --flash-to-cpu=threads=1 | %run -O3 > %t.bfg.1
// RUN: flash-opt %t.bfg.mlir --flash-to-cpu | env OMP_NUM_THREADS=2 %run -O3 > %t.bfg.0
// RUN: FileCheck %s --check-prefix=GRAD < %t.bfg.1
// RUN: diff %t.bfg.1 %t.bfg.0
//
// The code: OpenMP parallel loops with threads != 1, none with threads=1.
// RUN: flash-opt %t.fwd.mlir --flash-to-cpu | FileCheck %s --check-prefix=OMP
// RUN: flash-opt %t.fwd.mlir --flash-to-cpu=threads=1 | FileCheck %s --check-prefix=SEQ

// CHECK: o_bits:
// CHECK: lse_bits:
// CHECK: ok: 1
// GRAD: dq_bits:
// GRAD: ok: 1
// OMP: omp.parallel
// OMP: omp.wsloop schedule(dynamic)
// SEQ-NOT: omp.
