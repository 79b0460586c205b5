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

/// The tensor-core kernels: whether they apply (mma.sync: f16/bf16, D = Dv a
/// multiple of 16, forward up to 256, backward up to 128; `wgmma` (see
/// wgmmaApplies) also D != Dv, and the backward past 128 where `wide`), and
/// their tiles: W warps of 16 rows (queries; keys for dK/dV) per block,
/// mmaThreads(s) threads, grid (ceil(rows / mmaRowsPerBlock(s)), BH or
/// BHkv; the dK/dV kernel's rows gradKVRowsPerBlock(s)).
bool mmaForwardApplies(const KernelSpec &s);
bool mmaGradApplies(const KernelSpec &s, bool wgmma, bool wide);
/// Whether the dK/dV kernel's two warpgroups split each step by roles on
/// the block's 64 keys (past d = 128, wgmma: see MmaGradKernels.cpp).
bool gradKVSplit(const KernelSpec &s);
/// Keys per block of the dK/dV kernel.
int64_t gradKVRowsPerBlock(const KernelSpec &s);
/// The tensor-core kernels also run on wgmma (f16/bf16, head dims multiples
/// of 16 up to 256, the wider a multiple of 64 or past 64: padded to one,
/// wgmmaTileD).
bool wgmmaApplies(const KernelSpec &s);
/// The wgmma kernels' head dim (KernelSpec::dTile): the wider of d and dv
/// rounded up to 64.
int64_t wgmmaTileD(const KernelSpec &s);
/// The wgmma forward also runs warp-specialized (head dim 128 and 256; no
/// mask operand), `persistent` or not.
bool warpSpecializedApplies(const KernelSpec &s, bool persistent);
/// Whether the warp-specialized forward may be persistent: its query blocks
/// of about equal work (no causal limit, or one with a window's lower
/// bound), none skipping tiles by a block mask; `withCaptures`: also where
/// the mask_mod reads captured operands.
bool persistentApplies(const KernelSpec &s, bool withCaptures);
/// Sets mmaWarps / mmaTileKV: the given ones, or (0) the per-head-dim
/// defaults of the forward or the backward.
void chooseMmaTiles(KernelSpec &s, int64_t warps, int64_t tileKV,
                    bool backward);
int64_t mmaRowsPerBlock(const KernelSpec &s);
/// Keys per tile of the dQ kernel (`kv` false), queries per tile of the
/// dK/dV kernel (true).
int64_t mmaGradTile(const KernelSpec &s, bool kv);
int64_t mmaThreads(const KernelSpec &s);
/// The wgmma backward's threads: mmaThreads, and the producer warpgroup of
/// the dK/dV kernel (gradProducer) and of the dQ kernel (gradQProducer:
/// from d = 128).
int64_t gradKernelThreads(const KernelSpec &s);
bool gradQProducer(const KernelSpec &s);
int64_t gradQThreads(const KernelSpec &s);
/// The forward (MmaKernels.cpp): args (q, k, v, o, lse[, mask]).
gpu::GPUFuncOp buildForwardMmaKernel(OpBuilder &b, Location loc, StringRef name,
                                     const KernelSpec &s);
/// The backward (MmaGradKernels.cpp): the SIMT kernels' arguments.
gpu::GPUFuncOp buildGradQMmaKernel(OpBuilder &b, Location loc, StringRef name,
                                   const KernelSpec &s);
gpu::GPUFuncOp buildGradKVMmaKernel(OpBuilder &b, Location loc, StringRef name,
                                    const KernelSpec &s);

/// The backward with dQ by atomics (s.gradAtomicDQ; GradDQAccumulator.cpp):
/// dQ accumulates in f32 in the op's scratch buffer, [BH, ceil(Nq / 64)
/// 64, D] (gradDQIndex), which the prep kernel zeroes (and computes D =
/// rowsum(dO * O), as the dQ kernel otherwise does), the dK/dV kernel adds
/// each key block's dS K into, and the convert kernel scales into dq.
/// Both on grid (ceil(Nq / 64), BH), with the dQ kernel's arguments
/// `argTypes`.
MappedKernel buildGradDQPrepKernel(OpBuilder &b, Location loc, StringRef name,
                                   const KernelSpec &s,
                                   ArrayRef<Type> argTypes);
MappedKernel buildGradDQConvertKernel(OpBuilder &b, Location loc,
                                      StringRef name, const KernelSpec &s,
                                      ArrayRef<Type> argTypes);
/// The scratch index of dQ's accumulator element (bh, q, d).
Value gradDQIndex(KernelBuilder &kb, const KernelSpec &s, Value bh, Value q,
                  Value d);

/// Whether `s` (fp8) takes the wgmma fp8 forward: D = Dv = 128, no block
/// mask (its table would take the scratch that holds V^T).
bool fp8ForwardApplies(const KernelSpec &s);
/// The fp8 forward's V^T (Fp8TransposeV.cpp): the kernel launched before
/// it that writes V^T into the op's scratch in the forward's key tiles
/// (s.mmaTileKV keys, in MmaFragments::fp8PFragment's key order), grid
/// (ceil(Nk / keys), BHkv); its arguments are `argTypes` (the forward's).
MappedKernel buildFp8TransposeVKernel(OpBuilder &b, Location loc,
                                      StringRef name, const KernelSpec &s,
                                      ArrayRef<Type> argTypes);

/// Block skipping for mask_mods that are not just affine bounds (document
/// masks; BlockMask.cpp): whether `s` needs a block mask.
bool blockMaskApplies(const KernelSpec &s);
/// Sets s's block mask entries to `rows` x `keys` (multiples of which are
/// the tiles of the kernels that read it).
void setBlockMask(KernelSpec &s, int64_t rows, int64_t keys);
/// The kernel that fills the table, launched first: grid (ceil(Nq / rows),
/// BH or B), 16 warps (a warp per entry); its arguments are `argTypes` (those
/// of the kernel after it, which it shares).
MappedKernel buildBlockMaskKernel(OpBuilder &b, Location loc, StringRef name,
                                  const KernelSpec &s, ArrayRef<Type> argTypes);
/// Whether some position of rows [row0, row0 + rows) and keys [key0, key0 +
/// keys) of query batch-head `bh` is visible, and whether all are (by the
/// table, whose entries the ranges cover whole), in kernel `fn`. The same
/// value in every thread.
std::pair<Value, Value> blockMaskBits(KernelBuilder &kb, const KernelSpec &s,
                                      gpu::GPUFuncOp fn, Value bh, Value row0,
                                      int64_t rows, Value key0, int64_t keys);
/// blockMaskBits of one tile t (a lane's).
using BlockMaskBitsFn =
    std::function<std::pair<Value, Value>(OpBuilder &, Location, Value)>;
/// A tileLoop cursor over the tiles below `end` (in steps of `step`) that
/// some position sees by `bits`: the lanes of each warp read 32 tiles'
/// entries at a time, ballots of their bits (the state: the window's first
/// tile, the any and all ballots) give the next tiles without reading
/// memory until the window is passed. Uniform across the CTA.
TileCursor blockMaskCursor(Value end, int64_t step, BlockMaskBitsFn bits);
/// Whether tile t, found by a blockMaskCursor with `state`, is seen in full.
Value blockMaskFull(OpBuilder &b, Location loc, Value t, int64_t step,
                    ValueRange state);
/// tileLoop over the tiles `cursor` gives (every tile from start without
/// one), each tile's step body(t, args, after, full): with a cursor and
/// without `partialOnly` under an scf.if on blockMaskFull, full = the block
/// sees the tile in full (the mask_mod can be left out); else full = false
/// (partialOnly: a mask operand, read on every tile). Without a cursor,
/// the tiles in [fullFrom, fullTo) (where given; tile-aligned) are seen in
/// full, the others not, under an scf.if the same way.
using BlockMaskTileBody = function_ref<SmallVector<Value>(
    OpBuilder &, Location, Value, ValueRange, Value, bool)>;
SmallVector<Value> blockMaskTileLoop(OpBuilder &b, Location loc, Value start,
                                     Value end, int64_t step, ValueRange inits,
                                     const TileCursor *cursor, ValueRange state,
                                     bool partialOnly, BlockMaskTileBody body,
                                     Value fullFrom = Value(),
                                     Value fullTo = Value());
} // namespace gpukernels
} // namespace flash
} // namespace mlir

#endif // FLASH_LIB_CONVERSION_FLASHTONVVM_TENSORCOREKERNELS_H
