// flash.attention and flash.attention_grad through --flash-to-spirv, run by
// libflash_vulkan_runtime.so on the machine's Vulkan device (lavapipe in
// `make test`), against the unfused reference computed on the host.
// Masked cases keep head dims small: lavapipe compiles the unrolled kernels
// slowly.
// REQUIRES: vulkan
//
// Forward: GQA + causal with Nq != Nk, odd sizes; d = 64, 128, 256 split
// over 2, 4, 8 threads per query row (row-lanes), d = 48 / dv = 64 over 2.
// RUN: %gen --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 128 --causal | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --nq 37 --nk 50 --d 256 --dtype f16 --tol 4e-3 --mask bool --full-mask | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --nq 33 --nk 65 --d 48 --dv 64 --mask add --hq 2 | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --n 1 --d 16 | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// f16 (native 16-bit storage) and bf16 (widened to f32 around the kernel).
// RUN: %gen --nq 37 --nk 100 --d 32 --hq 3 --dtype f16 --tol 4e-3 | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --nq 37 --nk 100 --d 32 --hq 3 --dtype bf16 --tol 8e-3 --causal | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// Masks: boolean with fully masked rows (their output is 0), additive
// broadcast over batch and heads.
// RUN: %gen --batch 2 --hq 3 --nq 37 --nk 100 --d 16 --mask bool --full-mask --causal | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --batch 2 --hq 2 --nq 33 --nk 65 --d 16 --mask add | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=FWD
//
// Backward (dQ kernel, dK/dV kernel), 1 to 8 threads per row (d = 16 ...
// 128 and up), and one thread per row (row-lanes=1).
// RUN: %gen --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --n 65 --d 128 --dtype f16 --tol 4e-3 --mask bool --full-mask | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --nq 37 --nk 50 --d 256 --causal --causal-offset -5 | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --nq 33 --nk 65 --d 48 --dv 64 --hq 2 --mask add | flash-opt --flash-to-spirv=row-lanes=1 | %vkrun | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --n 65 --d 32 | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --batch 2 --hq 4 --hkv 2 --n 65 --d 16 --causal --mask bool --full-mask | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --hq 3 --hkv 1 --nq 33 --nk 70 --d 16 --dtype f16 --tol 4e-3 --causal | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=BWD
// RUN: %gen --grad --nq 37 --nk 50 --d 16 --dtype bf16 --tol 2e-2 --causal | flash-opt --flash-to-spirv | %vkrun | FileCheck %s --check-prefix=BWD
//
// Staged buffers (the default on discrete GPUs: kernels use device-only
// twins filled and read back around each launch), forced on lavapipe.
// RUN: %gen --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 32 --causal --mask bool --full-mask | flash-opt --flash-to-spirv | env FLASH_VULKAN_STAGED=1 %vkrun | FileCheck %s --check-prefix=FWD
// RUN: %gen --grad --batch 2 --hq 4 --hkv 2 --n 65 --d 16 --causal --mask bool --full-mask | flash-opt --flash-to-spirv | env FLASH_VULKAN_STAGED=1 %vkrun | FileCheck %s --check-prefix=BWD
//
// FWD: o_err:
// FWD: lse_err:
// FWD: ok: 1
// BWD: dq_err:
// BWD: dk_err:
// BWD: dv_err:
// BWD: ok: 1
