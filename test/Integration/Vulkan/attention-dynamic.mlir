// Dynamic sequence lengths through --flash-to-spirv on the machine's Vulkan
// device: the kernels take the operands as rows of any length and the sizes
// as an i32 buffer (flash-prepare-spirv-kernels), the host computes the grid
// from the runtime lengths. Single shapes (forward, backward, masks with
// dynamic dims, modifiers, Nq = 1) and one compiled module run at several
// (Nq, Nk) (--shapes: one dynamic fused function, a reference per shape),
// causal with Nq != Nk both ways, against the unfused reference.
// REQUIRES: vulkan
//
// RUN: %gen --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --dynamic | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --batch 2 --hq 3 --nq 37 --nk 100 --d 16 --mask bool --full-mask --causal --dynamic | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --hq 2 --nq 300 --nk 280 --d 32 --window 20,3 --softcap 2.0 --dynamic | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --nq 1 --nk 70 --d 32 --dynamic --causal --dtype f16 --tol 4e-3 | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --dynamic | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --hq 2 --nq 33 --nk 65 --d 16 --mask add --dynamic | flash-opt --flash-to-spirv=row-lanes=1 | %vkrun | FileCheck %s --check-prefix=BWD
//
// One module, several shapes.
// RUN: %gen --batch 2 --hq 4 --hkv 2 --d 32 --causal --shapes 1:1,1:77,37:50,100:70,130:130 | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=MULTI5
// RUN: %gen --batch 2 --hq 2 --d 16 --mask add --causal --full-mask --shapes 5:300,37:50,200:129 | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=MULTI3
// RUN: %gen --grad --hq 2 --d 16 --causal --shapes 1:33,37:50,65:20 | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=MULTI3
//
// Decode (split-KV: Nq static, Nk dynamic; the GQA group in one tile, keys
// split across blocks, a combine kernel): GQA, causal with Nq = 3 (rows that
// see different keys), f16, one module at many cache lengths (1 key, a
// split's edge, 9000 keys).
// RUN: %gen --batch 2 --hq 8 --hkv 2 --nq 1 --nk 300 --d 64 --dynamic-keys | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --batch 2 --hq 4 --hkv 2 --nq 3 --nk 700 --d 64 --dynamic-keys --causal | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --hq 4 --hkv 1 --nq 1 --nk 1000 --d 128 --dtype f16 --tol 4e-3 --dynamic-keys | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --hq 2 --hkv 1 --nq 2 --d 32 --dynamic-keys --causal --shapes 2:1,2:7,2:128,2:129,2:9000 | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=MULTI5
//
// FWD: o_err:
// FWD: lse_err:
// FWD: ok: 1
// BWD: dq_err:
// BWD: dk_err:
// BWD: dv_err:
// BWD: ok: 1
// MULTI5-COUNT-5: ok: 1
// MULTI5-NOT: ok: 0
// MULTI3-COUNT-3: ok: 1
// MULTI3-NOT: ok: 0
