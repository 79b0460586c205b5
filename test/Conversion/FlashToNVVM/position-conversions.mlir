// The kernels convert a score_mod's position arithmetic to f32 from 32
// bits (flash-gpu-lower-math): the ALiBi forward converted each score's
// |i - j| from 64 bits (cvt.rn.f32.u64, on the units the softmax's exp2
// needs) after five 64-bit integer operations, and spilled 68 bytes at
// d = 128 (212 with a window). Forward and backward, d = 64 and 128.
// RUN: %gen --hq 4 --n 4096 --d 128 --dtype bf16 --alibi --causal | flash-opt --flash-to-nvvm=format=isa | FileCheck %s --check-prefix=CONV
// RUN: %gen --hq 4 --n 3000 --d 128 --dtype bf16 --alibi --window 500,0 --causal | flash-opt --flash-to-nvvm=format=isa | FileCheck %s --check-prefix=CONV
// RUN: %gen --hq 4 --n 2000 --d 64 --dtype f16 --alibi | flash-opt --flash-to-nvvm=format=isa | FileCheck %s --check-prefix=CONV
// RUN: %gen --grad --hq 4 --n 2000 --d 128 --dtype bf16 --alibi --causal | flash-opt --flash-to-nvvm=format=isa | FileCheck %s --check-prefix=CONV
// CONV: cvt.rn.f32.{{[us]}}32
// CONV-NOT: cvt.rn.f32.{{[us]}}64
