// A window's masked tiles compare each score's key with its row's bounds
// in 32 bits (relativeBound: the bounds relative to the tile, truncated to
// i32 before the clamp): no 64-bit compare with a constant (a key's
// column in the tile) anywhere in the kernels. LLVM
// had folded the clamp into the compares and widened them back to 64 bits
// (two instructions each), in the forward and half the backward, until the
// bound and the base were truncated before the subtraction (session 36).
// Persistent (Nk a multiple of 128) and one block per query block, the
// backward's dQ and dK/dV kernels, d = 64 and 128.
// RUN: %gen --hq 4 --n 4096 --d 128 --dtype bf16 --window 1023,0 --causal | flash-opt --flash-to-nvvm=format=isa | FileCheck %s
// RUN: %gen --hq 4 --n 2000 --d 128 --dtype bf16 --window 300,0 --causal | flash-opt --flash-to-nvvm=format=isa | FileCheck %s
// RUN: %gen --hq 4 --n 2000 --d 64 --dtype f16 --window 100,30 | flash-opt --flash-to-nvvm=format=isa | FileCheck %s
// RUN: %gen --grad --hq 4 --n 4096 --d 128 --dtype bf16 --window 1023,0 --causal | flash-opt --flash-to-nvvm=format=isa | FileCheck %s
// RUN: %gen --grad --hq 4 --hkv 2 --n 2000 --d 64 --dtype f16 --window 200,0 --causal | flash-opt --flash-to-nvvm=format=isa | FileCheck %s
// CHECK: setp.{{[a-z]+}}.s32
// CHECK-NOT: setp.{{[a-z]+}}.s64 {{(\\09)?}}%p{{[0-9]+}}, %rd{{[0-9]+}}, {{[0-9]+}};
