// flash.attention through --flash-to-nvvm on a real GPU, compiled ahead of
// time with the mgpu* runtime, against the unfused reference on the host.
// REQUIRES: cuda-gpu
// RUN: clang-22 -O2 -c %S/host_utils.c -o %t.utils.o
// RUN: %gen --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal > %t.1.mlir
// RUN: flash-opt %t.1.mlir --flash-to-nvvm=format=bin | mlir-translate --mlir-to-llvmir -o %t.1.ll
// RUN: clang-22 -O2 -Wno-override-module %t.1.ll %t.utils.o -o %t.1 -L%flash_lib -lflash_cuda_runtime -Wl,--allow-shlib-undefined -Wl,-rpath,%flash_lib -lm
// RUN: %t.1 | FileCheck %s
// RUN: %gen --n 65 --d 128 > %t.2.mlir
// RUN: flash-opt %t.2.mlir --flash-to-nvvm=format=bin | mlir-translate --mlir-to-llvmir -o %t.2.ll
// RUN: clang-22 -O2 -Wno-override-module %t.2.ll %t.utils.o -o %t.2 -L%flash_lib -lflash_cuda_runtime -Wl,--allow-shlib-undefined -Wl,-rpath,%flash_lib -lm
// RUN: %t.2 | FileCheck %s
// RUN: %gen --nq 37 --nk 100 --d 32 --causal --dtype bf16 --tol 8e-3 --hq 3 > %t.3.mlir
// RUN: flash-opt %t.3.mlir --flash-to-nvvm=format=bin | mlir-translate --mlir-to-llvmir -o %t.3.ll
// RUN: clang-22 -O2 -Wno-override-module %t.3.ll %t.utils.o -o %t.3 -L%flash_lib -lflash_cuda_runtime -Wl,--allow-shlib-undefined -Wl,-rpath,%flash_lib -lm
// RUN: %t.3 | FileCheck %s
// RUN: %gen --batch 2 --hq 3 --nq 37 --nk 100 --d 32 --mask bool --full-mask --causal > %t.4.mlir
// RUN: flash-opt %t.4.mlir --flash-to-nvvm=format=bin | mlir-translate --mlir-to-llvmir -o %t.4.ll
// RUN: clang-22 -O2 -Wno-override-module %t.4.ll %t.utils.o -o %t.4 -L%flash_lib -lflash_cuda_runtime -Wl,--allow-shlib-undefined -Wl,-rpath,%flash_lib -lm
// RUN: %t.4 | FileCheck %s
// The tensor-core forward (f16/bf16, head dim a multiple of 16 up to 128):
// RUN: %gen --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --dtype f16 --tol 2e-3 > %t.5.mlir
// RUN: flash-opt %t.5.mlir --flash-to-nvvm=format=bin | mlir-translate --mlir-to-llvmir -o %t.5.ll
// RUN: clang-22 -O2 -Wno-override-module %t.5.ll %t.utils.o -o %t.5 -L%flash_lib -lflash_cuda_runtime -Wl,--allow-shlib-undefined -Wl,-rpath,%flash_lib -lm
// RUN: %t.5 | FileCheck %s
// RUN: %gen --nq 37 --nk 300 --d 128 --hq 3 --hkv 1 --causal --causal-offset -20 --dtype bf16 --tol 8e-3 > %t.6.mlir
// RUN: flash-opt %t.6.mlir --flash-to-nvvm=format=bin | mlir-translate --mlir-to-llvmir -o %t.6.ll
// RUN: clang-22 -O2 -Wno-override-module %t.6.ll %t.utils.o -o %t.6 -L%flash_lib -lflash_cuda_runtime -Wl,--allow-shlib-undefined -Wl,-rpath,%flash_lib -lm
// RUN: %t.6 | FileCheck %s
// The tensor-core backward (dQ, dK/dV kernels), with GQA, causal, a mask:
// RUN: %gen --grad --batch 2 --hq 4 --hkv 2 --nq 100 --nk 70 --d 64 --causal --mask add --dtype bf16 --tol 2e-2 > %t.7.mlir
// RUN: flash-opt %t.7.mlir --flash-to-nvvm=format=bin | mlir-translate --mlir-to-llvmir -o %t.7.ll
// RUN: clang-22 -O2 -Wno-override-module %t.7.ll %t.utils.o -o %t.7 -L%flash_lib -lflash_cuda_runtime -Wl,--allow-shlib-undefined -Wl,-rpath,%flash_lib -lm
// RUN: %t.7 | FileCheck %s --check-prefix=GRAD
// GRAD: dq_err:
// GRAD: ok: 1
// CHECK: o_err:
// CHECK: ok: 1
