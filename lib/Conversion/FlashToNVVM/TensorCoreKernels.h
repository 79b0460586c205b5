//===- TensorCoreKernels.h - NVIDIA tensor-core kernels ---------*- C++ -*-===//
//
// Internal to lib/Conversion/FlashToNVVM: the tensor-core kernels
// (mma.sync on sm_80+, wgmma on sm_90a; forward and backward) that the
// NVVM library adds to flash-map-to-gpu as kernel kinds
// (tensorCoreKernelKinds, TensorCoreKernels.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_LIB_CONVERSION_FLASHTONVVM_TENSORCOREKERNELS_H
#define FLASH_LIB_CONVERSION_FLASHTONVVM_TENSORCOREKERNELS_H

#include "flash/Conversion/FlashToGPU/GPUKernels.h"

namespace mlir {
namespace flash {
namespace gpukernels {

/// The tensor-core kernels: whether they apply (f16/bf16, D = Dv a multiple
/// of 16; forward up to 256, backward up to 128), and their tiles: W warps
/// of 16 rows (queries; keys for dK/dV) per block, mmaThreads(s) threads,
/// grid (ceil(rows / mmaRowsPerBlock(s)), BH or BHkv).
bool mmaForwardApplies(const KernelSpec &s);
bool mmaGradApplies(const KernelSpec &s);
/// The tensor-core kernels also run on wgmma (head dim a multiple of 64).
bool wgmmaApplies(const KernelSpec &s);
/// The wgmma forward also runs warp-specialized (head dim 128; no mask
/// operand or mask_mod).
bool warpSpecializedApplies(const KernelSpec &s);
/// Sets mmaWarps / mmaTileKV: the given ones, or (0) the per-head-dim
/// defaults of the forward or the backward.
void chooseMmaTiles(KernelSpec &s, int64_t warps, int64_t tileKV,
                    bool backward);
int64_t mmaRowsPerBlock(const KernelSpec &s);
int64_t mmaThreads(const KernelSpec &s);
/// The forward (MmaKernels.cpp): args (q, k, v, o, lse[, mask]).
gpu::GPUFuncOp buildForwardMmaKernel(OpBuilder &b, Location loc, StringRef name,
                                     const KernelSpec &s);
/// The backward (MmaGradKernels.cpp): the SIMT kernels' arguments.
gpu::GPUFuncOp buildGradQMmaKernel(OpBuilder &b, Location loc, StringRef name,
                                   const KernelSpec &s);
gpu::GPUFuncOp buildGradKVMmaKernel(OpBuilder &b, Location loc, StringRef name,
                                    const KernelSpec &s);

/// Block skipping for mask_mods that are not just affine bounds (document
/// masks): whether seen(b, loc, pos, r) holds for some thread of the CTA at
/// one of its accumulator positions of the tile at t (the tile's columns
/// pos = t + t2 + 8 nt + j of its nTiles C tiles, rows r = 0, 1; together
/// the threads cover the tile), by one barrier.red.or (every thread must
/// reach it).
Value anyInTile(OpBuilder &b, Location loc, Value t, Value t2, int64_t nTiles,
                function_ref<Value(OpBuilder &, Location, Value, int)> seen);
} // namespace gpukernels
} // namespace flash
} // namespace mlir

#endif // FLASH_LIB_CONVERSION_FLASHTONVVM_TENSORCOREKERNELS_H
