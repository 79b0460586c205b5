// score_mod / mask_mod through --flash-to-spirv on the machine's Vulkan
// device (lavapipe in `make test`): the SIMT kernels apply both regions per
// score and narrow their loops by a mask_mod's affine bounds, against the
// unfused reference that applies the same modifiers to the full score
// matrix. Several query blocks (the block bounds matter), odd sizes,
// windows smaller and larger than the tiles, rows that see no key, Nq !=
// Nk, captured f32 slopes and index segment ids (i64 buffers).
// REQUIRES: vulkan
//
// RUN: %gen --hq 2 --nq 300 --nk 280 --d 32 --window 20,3 | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --nq 40 --nk 30 --d 16 --window=-1,-25 --softcap 3.0 | flash-opt --flash-to-spirv=row-lanes=1 | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --hq 4 --hkv 2 --n 150 --d 16 --alibi --causal --dtype f16 --tol 4e-3 | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --batch 3 --hq 2 --nq 133 --nk 147 --d 16 --segments 3 --segments-batched --window 40,40 --softcap 1.5 | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --hq 2 --nq 100 --nk 130 --d 32 --chunk 24 --causal | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// Backward (dQ and dK/dV kernels).
// RUN: %gen --grad --hq 2 --nq 300 --nk 280 --d 32 --window 20,3 --softcap 2.0 | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --batch 2 --hq 2 --nq 200 --nk 230 --d 16 --segments 5 --alibi --dtype f16 --tol 4e-3 | flash-opt --flash-to-spirv=row-lanes=1 | %vkrun | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --nq 40 --nk 30 --d 16 --window=-1,-25 --softcap 3.0 | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=BWD
//
// FWD: o_err:
// FWD: lse_err:
// FWD: ok: 1
// BWD: dq_err:
// BWD: dk_err:
// BWD: dv_err:
// BWD: ok: 1
