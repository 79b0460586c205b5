// fp8 (f8E4M3FN) attention with descale factors, o in bf16: the fused op
// against the unfused program on the dequantized values (qd * q, kd * k,
// vd * v), on the same pseudo-random e4m3 inputs. Both round o to bf16: the
// tolerance is one bf16 ulp of o (|o| <= ~1.4).
//
// Per batch and kv head (GQA), causal with Nq != Nk, Dv != D:
// RUN: %gen --batch 2 --hq 4 --hkv 2 --nq 37 --nk 45 --d 16 --dv 24 --dtype f8E4M3FN --descale head --causal --tol 1e-2 --lse-tol 1e-4 | flash-opt --flash-to-cpu | %run | FileCheck %s
// RUN: %gen --batch 2 --hq 4 --hkv 2 --nq 37 --nk 45 --d 16 --dv 24 --dtype f8E4M3FN --descale head --causal --tol 1e-2 --lse-tol 1e-4 | flash-opt --flash-to-cpu="loop-order=fa1 block-q=16 block-kv=16" | %run | FileCheck %s
// Per tensor, a keep-mask with fully masked rows; inputs up to +-6:
// RUN: %gen --hq 2 --n 70 --d 32 --dtype f8E4M3FN --descale tensor --mask bool --full-mask --amp 6 --tol 1e-2 --lse-tol 1e-4 | flash-opt --flash-to-cpu="block-q=16 block-kv=16" | %run | FileCheck %s
// No descale (factors 1), an additive bf16 mask, dynamic lengths, no heads:
// RUN: %gen --nq 33 --nk 65 --d 32 --dtype f8E4M3FN --mask add --dynamic --tol 1e-2 --lse-tol 1e-4 | flash-opt --flash-to-cpu | %run | FileCheck %s
// Modifiers see the descaled score: soft-capping and a sliding window.
// RUN: %gen --hq 2 --n 90 --d 16 --dtype f8E4M3FN --descale head --softcap 2 --window 20,0 --amp 4 --tol 1e-2 --lse-tol 1e-4 | flash-opt --flash-to-cpu="block-q=16 block-kv=16 threads=1" | %run | FileCheck %s

// CHECK: o_err:
// CHECK: lse_err:
// CHECK: ok: 1
