//===- GPUKernels.h - Building blocks of the flash GPU kernels -*- C++ -*-===//
//
// For the authors of kernel kinds (lib/Conversion/FlashToGPU's own and a
// target's, as FlashToNVVM's tensor-core kernels): the flattened problem
// (KernelSpec), the kernel-kind interface flash-map-to-gpu maps ops with,
// and the builders the kernels share (KernelBuilders.cpp: operands, rows,
// tiles, causal limits; KernelModifiers.cpp: the score_mod / mask_mod
// regions).
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_CONVERSION_FLASHTOGPU_GPUKERNELS_H
#define FLASH_CONVERSION_FLASHTOGPU_GPUKERNELS_H

#include "flash/Conversion/FlashToGPU/FlashToGPU.h"
#include "flash/Dialect/Flash/IR/Modifiers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

#include <functional>
#include <optional>
#include <string>

namespace mlir {
namespace flash {
namespace gpukernels {

struct KernelBuilder;

/// The flattened problem: [BH, Nq, D] queries, [BHkv, Nk, D] keys, which
/// the kernels see as rows [BH * Nq, D] and [BHkv * Nk, D] (rowOf).
///
/// Sizes the op leaves dynamic are ShapedType::kDynamic here (nq, nk, bh
/// and the batch dims of `lead`; the mask's strides): the kernels read them
/// from their size arguments, index arguments after every other (one per
/// dynamic size, in the order nq, nk, lead..., maskLeadStrides...,
/// maskRowStride, maskKeyStride). Heads and head dims are static.
struct KernelSpec {
  int64_t bh, hq, hkv, nq, nk, d, dv;
  Type elt;
  /// o's element type: elt, or an fp8 op's (f32, f16 or bf16).
  Type outElt;
  float scale;
  /// An fp8 op's descale factors (f32 buffers after the captured operands,
  /// q's, k's, v's): 1 element each (per tensor) or one per kv
  /// batch-head (descalePerHead), none: the factors are 1.
  bool descale = false, descalePerHead = false;
  bool isFloat8() const { return isa<Float8E4M3FNType>(elt); }
  /// Whether the kernels take the op's scratch buffer (after the descale
  /// factors): a block mask's table, an fp8 op's transposed V or the
  /// backward's f32 dQ (gradAtomicDQ).
  bool hasScratch() const {
    return blockMaskRows != 0 || isFloat8() || gradAtomicDQ;
  }
  /// The wgmma backward adds dS K into an f32 dQ in the scratch buffer
  /// with atomics from the dK/dV kernel (deterministic=false).
  bool gradAtomicDQ = false;
  /// The op asks for results in a fixed order of additions (a backward
  /// marked `deterministic`): no atomics.
  bool orderFixed = false;
  std::optional<int64_t> causalOffset;
  int64_t threads, tile;
  /// Threads per row of the SIMT kernels (a query row; a key row in the
  /// dK/dV kernel): each holds every lanes-th element of the row's vectors,
  /// and dot products are summed across them by subgroup shuffles (1: a row
  /// per thread).
  int64_t lanes = 1;
  /// Warps per block of the tensor-core forward (16 query rows each) and
  /// keys per K/V tile (chooseMmaTiles).
  int64_t mmaWarps = 4, mmaTileKV = 64;
  /// The tensor-core forward on Hopper warpgroup MMA (wgmma, sm_90a)
  /// instead of mma.sync.
  bool wgmma = false;
  /// The head dim of the wgmma kernels' tiles (tileD): d, or where 64 does
  /// not divide d (80, 96, 112, 160, ...) d rounded up to whole 64-column
  /// groups of the 128-byte swizzle. The columns past d are zero in shared
  /// memory (the copies fill them: cp.async with no source bytes, TMA's
  /// out-of-bounds fill), so every product sums zeros there, and no store
  /// writes them. 0: d.
  int64_t dTile = 0;
  int64_t tileD() const { return dTile ? dTile : d; }
  /// The wgmma forward in warp-specialized blocks (warp-specialize): a
  /// producer warpgroup after the mmaWarps consumer warps copies the K/V
  /// tiles into a two-stage ring, mbarriers order the stages.
  bool mmaWarpSpecialized = false;
  /// The warp-specialized forward as a persistent kernel of that many
  /// blocks (0: one block per query block): block x takes query blocks x,
  /// x + blocks, ... of all batch-heads (query block fastest).
  int64_t mmaPersistentBlocks = 0;
  /// Of every 8 exponentials of P in the wgmma forward, how many it
  /// computes on the FMA units (exp2OnFma) instead of the SFU.
  int64_t mmaFmaExp2 = 0;
  /// The warp-specialized causal forward's key tiles in one loop, masked
  /// where a tile-uniform branch says so (merge-masked-tiles).
  bool mmaMergeMaskedTiles = false;
  /// The tensor-core forward as a split-KV partial kernel (grid (splits,
  /// BH), records to a scratch buffer after lse: see splitKVCount) for
  /// splits of at least splitKeysPerBlock keys; the problem is then the
  /// packed one (a kv head's query rows as one head's).
  bool splitKeys = false;
  int64_t splitKeysPerBlock = 0;
  /// Blocks a split-KV launch aims for (`split-kv-blocks`; splitKVCount).
  int64_t splitBlocks = 256;
  /// The packed problem's queries per head (0: rows are not packed): row r
  /// is query r % packedQueries of a head of the group, so the causal limit
  /// of row r is r % packedQueries + causalOffset (a dynamic offset is
  /// Nk - packedQueries).
  int64_t packedQueries = 0;
  /// The backward's tile (keys of the dQ kernel, queries of the dK/dV
  /// kernel) when given by mma-tile-kv; 0: by head dim.
  int64_t mmaGradTile = 0;
  /// The wgmma backward reads its fixed A operands (K, V of the dK/dV
  /// kernel; Q, dO of the dQ kernel) from shared memory: past d = 128
  /// always, below with `grad-a-shared`.
  bool gradAShared = false;
  /// The wgmma backward's step tiles (Q / dO of the dK/dV kernel, K / V of
  /// the dQ kernel's from d = 128) copied by a producer warpgroup after the
  /// consumer warps, through an mbarrier ring (grad-producer).
  bool gradProducer = false;
  /// ptxas' register limit for the tensor-core kernels (mma-max-registers;
  /// 0: see limitRegisters).
  int64_t mmaMaxRegisters = 0;
  /// An additive f32 mask (natural-log units; -inf drops a key) as the
  /// kernels' last argument, read in place from a flat buffer of maskSize
  /// elements: (bh, row, key) is at sum_i lead_i(bh) * maskLeadStrides[i] +
  /// row * maskRowStride + key * maskKeyStride, with stride 0 along the
  /// dims the mask broadcasts over (lead: q's leading dims [B..., H]).
  bool mask = false;
  SmallVector<int64_t> lead, maskLeadStrides;
  int64_t maskRowStride = 0, maskKeyStride = 0, maskSize = 0;
  /// The op's score_mod / mask_mod regions, inlined per score element by
  /// the tensor-core kernels; null when absent.
  Region *scoreMod = nullptr, *maskMod = nullptr;
  /// The op's captured operands (static shapes), which the regions read:
  /// the kernels' last arguments, each a flat buffer (captureType).
  SmallVector<RankedTensorType> captures;
  bool hasModifiers() const { return scoreMod || maskMod; }
  /// A mask_mod beyond its affine bounds (a document mask) read through a
  /// block mask (FlexAttention's BlockMask, computed by a kernel launched
  /// before the others: buildBlockMaskKernel): per batch-head (per batch
  /// with blockMaskPerHead false: the mask_mod does not read the head),
  /// entry (e, c) says whether some (row, key) of rows [e R, e R + R) and
  /// keys [c K, c K + K) is visible (bit 0) and whether all are (bit 1),
  /// R = blockMaskRows, K = blockMaskKeys (0: no block mask). The kernels
  /// then take the table (an f32 buffer) after the captured operands.
  int64_t blockMaskRows = 0, blockMaskKeys = 0;
  bool blockMaskPerHead = true;
  bool blockMask() const { return blockMaskRows != 0; }
  /// TMA tensor maps every kernel of the op takes after its size
  /// arguments (NVVM: CUDA's 128-byte CUtensorMap, passed by value; a
  /// target kind sets them, each kernel reads those it needs). Each maps
  /// the op's buffer `buffer` (a name of the launch contract's `args`:
  /// "q", "k", "v", "do"), [X, rows, cols] as the kernels index it (rows:
  /// Nk for the keys' buffers, else Nq), in boxes of boxRows x boxCols
  /// elements stored in the 128-byte swizzle (boxCols * element bytes =
  /// 128), the elements past the rows zero. The host encodes them
  /// (FlashMapToGPU; the Python front from the launch contract's
  /// `tensor_maps`).
  struct TensorMap {
    StringRef buffer;
    int64_t boxRows, boxCols;
  };
  SmallVector<TensorMap> tensorMaps;

  /// Whether some size is dynamic (the kernels take size arguments).
  bool dynamic() const { return numSizeArgs() != 0; }
  /// The kernels' size arguments (see above).
  unsigned numSizeArgs() const;
  /// Binds the size arguments to those of `fn`, the kernel about to be
  /// built from this spec (every kernel builder does, first).
  void bindSizes(gpu::GPUFuncOp fn) const;
  /// The sizes at run time in the kernel last bound (constants, or its
  /// size arguments), plus `add`.
  Value nqValue(KernelBuilder &kb, int64_t add = 0) const;
  Value nkValue(KernelBuilder &kb, int64_t add = 0) const;
  Value bhValue(KernelBuilder &kb) const;
  Value leadValue(KernelBuilder &kb, unsigned i) const;
  Value maskLeadStrideValue(KernelBuilder &kb, unsigned i) const;
  Value maskRowStrideValue(KernelBuilder &kb) const;
  Value maskKeyStrideValue(KernelBuilder &kb) const;
  /// Dim `d` (>= 1: a row-major read never needs dim 0) of captured operand
  /// `c`.
  Value captureDimValue(KernelBuilder &kb, unsigned c, unsigned d) const;
  /// The causal offset (causalOffset, or Nk - Nq when that is dynamic:
  /// causalOffset == kDynamic).
  Value causalOffsetValue(KernelBuilder &kb, int64_t add = 0) const;
  /// The sizes in the order of the size arguments (nq, nk, lead...,
  /// then, with a mask, its lead strides, row and key strides, then each
  /// captured operand's dims past its first).
  SmallVector<int64_t> sizeList() const;
  /// The names of the size arguments (nq, nk, lead<i>,
  /// mask_lead_stride<i>, mask_row_stride, mask_key_stride,
  /// capture<c>_dim<d>), for the
  /// kernels' launch contract.
  SmallVector<std::string> sizeArgNames() const;

private:
  Value sizeValue(KernelBuilder &kb, unsigned slot, int64_t add) const;
  mutable SmallVector<Value> sizeArgs;
};

constexpr float kLog2e = 1.4426950408889634f;

struct KernelBuilder {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value f(float v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value toF32(Value x) {
    return x.getType().isF32()
               ? x
               : arith::ExtFOp::create(b, loc, b.getF32Type(), x).getResult();
  }
};

/// Row `row` of batch-head `bh` in the kernels' [BH * n, W] view of a
/// [BH, n, W] operand: bh * n + row.
inline Value rowOf(KernelBuilder &kb, Value bh, Value n, Value row) {
  return arith::AddIOp::create(
      kb.b, kb.loc, arith::MulIOp::create(kb.b, kb.loc, bh, n), row);
}

/// The key/value batch-heads BHkv = BH / (Hq / Hkv).
Value kvBatchHeads(KernelBuilder &kb, const KernelSpec &s);

/// A kernel operand's rows [BH * n, W] (lse, D: [BH * n]) as [BH, n, W]
/// ([BH, n]), for kernels that index by batch-head (memref.expand_shape).
Value byBatchHead(KernelBuilder &kb, Value rows, Value bh, Value n);

/// a * b + c as a contractable multiply-add (one fma.rn.f32 in PTX).
inline Value fmac(OpBuilder &b, Location loc, Value a, Value x, Value c) {
  auto contract = arith::FastMathFlags::contract;
  return arith::AddFOp::create(
      b, loc, arith::MulFOp::create(b, loc, a, x, contract), c, contract);
}

/// exp2 / log2 (approximations allowed). Kept target-neutral here;
/// flash-gpu-lower-math picks the instruction for the target (ex2.approx /
/// lg2.approx on NVVM, GLSL Exp / Log on SPIR-V).
inline Value exp2(OpBuilder &b, Location loc, Value x) {
  return math::Exp2Op::create(b, loc, x, arith::FastMathFlags::afn);
}
/// exp2 of an f32 on the FMA units instead of the SFU (our own: upstream's
/// math expansions are libm-accurate and longer): 2^x = 2^j 2^f with j =
/// round(x) (the add of 1.5 2^23), f in [-1/2, 1/2], 2^f a degree-5
/// polynomial (relative error <= 2e-7, ex2.approx's), j added to its
/// exponent field. x is clamped below at -127, whose result is exactly 0
/// (2^-inf = 0, as a masked score needs); NaN stays NaN; x < 128. Kernels
/// whose SFU is their bottleneck (a soft-cap's tanh next to the softmax's
/// exp2) take a share of their exponentials here.
Value exp2OnFma(OpBuilder &b, Location loc, Value x);
inline Value log2(OpBuilder &b, Location loc, Value x) {
  return math::Log2Op::create(b, loc, x, arith::FastMathFlags::afn);
}

/// The kernels' operand types: q, o [BH, Nq, D/Dv], k, v [BHkv, Nk, D/Dv]
/// (also dq, dk, dv, dO), lse and D [BH, Nq] f32.
struct OperandTypes {
  MemRefType q, k, v, o, lse;
};
OperandTypes operandTypes(MLIRContext *ctx, const KernelSpec &s);
/// `args`, plus the mask's buffer when the kernel has one, the captured
/// operands' buffers, the block mask table (s.blockMask()) and the size
/// arguments.
SmallVector<Type> withMaskAndCaptures(MLIRContext *ctx, const KernelSpec &s,
                                      ArrayRef<Type> args);

/// A captured operand as the kernels read it: a flat buffer of its
/// elements, row-major; index as i64 and i1 as i8 (the bytes the host
/// writes).
MemRefType captureType(MLIRContext *ctx, RankedTensorType t);

/// The arguments after the scratch buffer: the size arguments, then the
/// tensor maps.
inline unsigned trailingArgs(const KernelSpec &s) {
  return s.numSizeArgs() + s.tensorMaps.size();
}

/// The kernel's capture buffers: the s.captures.size() arguments before
/// the size arguments (workgroup attributions are block arguments too, after
/// them).
inline ValueRange captureBuffers(gpu::GPUFuncOp fn, const KernelSpec &s) {
  return ValueRange(fn.getArguments())
      .slice(fn.getNumArguments() - trailingArgs(s) - s.captures.size() -
                 (s.descale ? 3 : 0) - (s.hasScratch() ? 1 : 0),
             s.captures.size());
}

/// The kernel's tensor maps (s.tensorMaps): its last arguments, pointers
/// to the 128-byte parameters.
inline ValueRange tensorMapArgs(gpu::GPUFuncOp fn, const KernelSpec &s) {
  return ValueRange(fn.getArguments())
      .slice(fn.getNumArguments() - s.tensorMaps.size(), s.tensorMaps.size());
}
/// The kernel's tensor map of buffer `buffer` (one of s.tensorMaps).
inline Value tensorMapArg(gpu::GPUFuncOp fn, const KernelSpec &s,
                          StringRef buffer) {
  auto it = llvm::find_if(s.tensorMaps, [&](const KernelSpec::TensorMap &m) {
    return m.buffer == buffer;
  });
  assert(it != s.tensorMaps.end() && "a tensor map the op's kernels take");
  return tensorMapArgs(fn, s)[it - s.tensorMaps.begin()];
}

/// An fp8 op's descale buffers (q's, k's, v's; s.descale): the arguments
/// after the captured operands.
inline ValueRange descaleBuffers(gpu::GPUFuncOp fn, const KernelSpec &s) {
  return ValueRange(fn.getArguments())
      .slice(fn.getNumArguments() - trailingArgs(s) - 3 -
                 (s.hasScratch() ? 1 : 0),
             3);
}

/// The op's scratch buffer (s.hasScratch()): the argument before the size
/// arguments. The block mask table (s.blockMask(), f32), or an fp8 op's
/// transposed V (f8E4M3FN: fp8TransposedV).
inline Value scratchBuffer(gpu::GPUFuncOp fn, const KernelSpec &s) {
  return fn.getArgument(fn.getNumArguments() - trailingArgs(s) - 1);
}
inline Value blockMaskBuffer(gpu::GPUFuncOp fn, const KernelSpec &s) {
  return scratchBuffer(fn, s);
}

/// Element `idx` of captured operand `k` from the kernel's capture buffers
/// `bufs` (its last s.captures.size() arguments), as the capture's element
/// type: a flash::CaptureReader for the kernels.
Value readCapture(OpBuilder &b, Location loc, const KernelSpec &s,
                  ValueRange bufs, unsigned k, ValueRange idx);

/// The mask's flat f32 buffer type.
inline MemRefType maskType(MLIRContext *ctx, const KernelSpec &s) {
  return MemRefType::get({s.maskSize}, Float32Type::get(ctx));
}

/// The mask offset of batch-head `bh` (flattened [B..., H]).
Value maskLeadBase(KernelBuilder &kb, const KernelSpec &s, Value bh);

/// The (batch..., head) positions of batch-head `bh` (row-major over q's
/// leading dims), the leading index arguments of the modifier regions.
SmallVector<Value> leadPositions(KernelBuilder &kb, const KernelSpec &s,
                                 Value bh);

/// The tiles of one axis (keys; queries with `swap`) a block of positions
/// [tMin, tMax] of the other visits under the op's mask_mod's affine
/// conjuncts, within [0, hi): [start, end) holds the positions some of the
/// block's may see (start a multiple of `tile`, at most end; end at least
/// 0); with `inner`, [innerStart, innerEnd) the whole tiles (innerStart in
/// [start, end], both multiples of `tile`, innerEnd unclamped) that every
/// one of them sees. `exact`: the mask_mod is just those conjuncts (else
/// tiles need a visibility check to be skipped).
struct MaskTiles {
  Value start, end, innerStart, innerEnd;
  bool exact;
};
MaskTiles maskModTiles(KernelBuilder &kb, const flash::MaskBounds &bounds,
                       bool swap, Value tMin, Value tMax, Value hi,
                       int64_t tile, bool inner = false);

/// The modifier regions of a kernel at one query batch-head `bh`, for a
/// thread whose positions along one axis are fixed: its query rows (the
/// forward, dQ) or, with `fixedIsKey`, its key rows (dK/dV), given clamped
/// to the axis. The parts of the regions that depend only on the
/// batch-head and one fixed position are emitted once, at construction
/// (the slope of an ALiBi head, a query's segment id) and so is the
/// mask_mod's affine analysis (its bounds, and the captured values they
/// read, once for every use); each call inlines the rest at one (row, key),
/// both in range (a captured table is never read past its end). Nothing is
/// emitted without modifiers.
struct KernelModifiers {
  const KernelSpec &s;
  /// The (batch..., head) positions of bh and the capture buffers.
  SmallVector<Value> lead;
  ValueRange bufs;

  KernelModifiers(KernelBuilder &kb, const KernelSpec &s, gpu::GPUFuncOp fn,
                  Value bh, ArrayRef<Value> fixed, bool fixedIsKey);
  // (With no fixed positions nothing is hoisted: mask() inlines the whole
  // mask_mod at each call.)

  /// score_mod(score, ..., row, key) for fixed position r; `score` is
  /// scale * q.k (natural units).
  Value score(KernelBuilder &kb, unsigned r, Value score, Value row,
              Value key) const;
  /// The same and d score_mod / d score (attention_grad's verifier
  /// guarantees one).
  std::pair<Value, Value> scoreAndDerivative(KernelBuilder &kb, unsigned r,
                                             Value score, Value row,
                                             Value key) const;
  /// mask_mod(..., row, key) (i1) for fixed position r.
  Value mask(KernelBuilder &kb, unsigned r, Value row, Value key) const;
  /// `vis` and, with a mask_mod, mask(r, row, key).
  Value visible(KernelBuilder &kb, unsigned r, Value vis, Value row,
                Value key) const;
  /// Whether visibility is a range of keys per query (and of queries per
  /// key) that the kernels compute from the mask_mod: no mask operand, and
  /// a mask_mod that is exactly its affine conjuncts (a window, a prefix).
  /// Per score, visibility is then two compares instead of the region.
  bool visibilityIsRanges() const;
  /// With visibilityIsRanges(): [lo, hi) narrowed to the keys query `fixed`
  /// sees under the mask_mod (with `swap`, to the queries key `fixed`
  /// sees); empty (hi = lo) where a conjunct on `fixed` alone fails.
  void narrowToVisible(KernelBuilder &kb, bool swap, Value fixed, Value &lo,
                       Value &hi) const;
  /// The backward's exponent of P = 2^arg for a raw score x = q.k: x scale
  /// log2 e - lse2, or score_mod(x scale) log2 e - lse2 with `dMod` set to
  /// d score_mod / ds; `vis` narrowed by the mask_mod.
  Value gradExponent(KernelBuilder &kb, unsigned r, Value x, Value row,
                     Value key, Value lse2, Value &dMod, Value &vis) const;
  /// The same without the mask_mod (visibility by ranges).
  Value gradExponent(KernelBuilder &kb, unsigned r, Value x, Value row,
                     Value key, Value lse2, Value &dMod) const;
  /// With a mask operand: the exponent in the forward's order, the score
  /// in log2 units rounded (x scale log2 e, or score_mod(x scale) log2 e),
  /// the mask added (addMask at `maskBase`), then lse2 subtracted; `vis`
  /// narrowed by the mask_mod. (Scaled and rounded as the forward does, a
  /// one-hot row's P is 1 - 2^-log2(l) exactly as its o = v; fused with the
  /// lse the score's rounding moved P by 1e-3 at logits of 1e4.)
  Value gradExponentMasked(KernelBuilder &kb, unsigned r, Value x, Value row,
                           Value key, Value lse2, Value mask, Value maskBase,
                           Value &dMod, Value &vis) const;
  /// The backward's score in natural units for a scaled score x = scale
  /// q.k: x, or score_mod(x) with `dMod` set to d score_mod / ds; `vis`
  /// narrowed by the mask_mod.
  Value gradScore(KernelBuilder &kb, unsigned r, Value x, Value row,
                  Value key, Value &dMod, Value &vis) const;
  /// dS = P (dP - D) [* dMod], 0 where not visible; without `vis`, P is
  /// already 0 there and dS is P (dP - D) [* dMod] alone.
  static Value dScore(KernelBuilder &kb, Value p, Value d, Value dMod,
                      Value vis);
  /// maskModTiles of the mask_mod's bounds at this batch-head.
  MaskTiles tiles(KernelBuilder &kb, bool swap, Value tMin, Value tMax,
                  Value hi, int64_t tile, bool inner = false) const;

private:
  SmallVector<Value> positions(Value row, Value key) const;
  /// The backward's score of a raw x = q.k and the factor that takes it
  /// to log2 units: (x, scale log2 e), or (score_mod(x scale), log2 e) with
  /// `dMod` set to d score_mod / ds.
  std::pair<Value, double> scoreAndLog2Factor(KernelBuilder &kb, unsigned r,
                                              Value x, Value row, Value key,
                                              Value &dMod) const;
  /// The mask_mod's affine conjuncts at this batch-head (analyzeMaskMod).
  flash::MaskBounds bounds;
  std::function<Value(OpBuilder &, Location, unsigned, ValueRange)> reader;
  SmallVector<IRMapping> hoistedScore, hoistedMask;
};

/// How a tileLoop skips tiles: a search whose state the loop carries.
/// seek(t) returns the first tile at or after t that the loop visits (one
/// at or past its end when none), then the state that found it;
/// advance(t, state) the same from the state of an earlier search (at or
/// before t).
struct TileCursor {
  std::function<SmallVector<Value>(OpBuilder &, Location, Value)> seek;
  std::function<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
      advance;
};
/// A loop over the tiles from `start` (in steps of `step`) below `end`, with
/// loop-carried `inits`: an scf.for, or, given a `cursor`, an scf.while over
/// the tiles it finds (`start` one of them, found with `state`).
/// body(b, loc, t, args, after, state) returns the next iteration's values;
/// `after` is the tile the loop visits after t (what to prefetch), `state`
/// the cursor's at t (empty without one).
using TileBody = function_ref<SmallVector<Value>(
    OpBuilder &, Location, Value, ValueRange, Value, ValueRange)>;
SmallVector<Value> tileLoop(OpBuilder &b, Location loc, Value start, Value end,
                            int64_t step, ValueRange inits,
                            const TileCursor *cursor, ValueRange state,
                            TileBody body);

/// `s2` (a score in the log2 domain) plus mask(bh, row, key) * log2(e), with
/// `leadBase` = maskLeadBase(bh); with `natural`, a score in natural units
/// plus mask(bh, row, key).
Value addMask(KernelBuilder &kb, const KernelSpec &s, Value s2, Value mask,
              Value leadBase, Value row, Value key, bool natural = false);

/// Shared-memory tile type [rows, width] f32.
MemRefType tileType(MLIRContext *ctx, int64_t rows, int64_t width);

/// A kernel function `name` of `threads` threads with workgroup buffers,
/// built from `s` (its size arguments bound: KernelSpec::bindSizes).
gpu::GPUFuncOp newKernel(OpBuilder &ob, Location loc, StringRef name,
                         const KernelSpec &s, TypeRange args,
                         TypeRange workgroup, int64_t threads);

/// The K/V batch-head of query batch-head bh = b * Hq + h (GQA:
/// b * Hkv + h / G).
Value kvHeadOf(KernelBuilder &kb, const KernelSpec &s, Value bh);
/// The keys a block of query rows [rowBase, rowBase + rows) needs: all, or
/// (causal) up to its last row's diagonal.
Value blockKvEnd(KernelBuilder &kb, const KernelSpec &s, Value rowBase,
                 int64_t rows);

/// The query row a thread owns in a grid (ceil(Nq / threads), BH): its
/// batch-head and the kv batch-head of its group, the row (clamped for
/// loads, `active` when in range) and the keys the block needs (kvEnd;
/// rowLimit is the last visible key of the row when causal).
struct QueryRows {
  Value bh, tid, rowBase, row, active, rowc, kvbh, kvEnd, rowLimit;
  /// The thread's place among its row's s.lanes threads (null if 1).
  Value lane;
};
QueryRows queryRows(KernelBuilder &kb, const KernelSpec &s);
/// Whether `key` exists and is visible (causal) to the thread's row.
Value keyVisible(KernelBuilder &kb, const KernelSpec &s, const QueryRows &r,
                 Value key);
/// The same for a row whose last visible key is `rowLimit` (null: not
/// causal).
Value keyVisible(KernelBuilder &kb, const KernelSpec &s, Value rowLimit,
                 Value key);
/// The end of the keys keyVisible admits: min(Nk, rowLimit + 1).
Value visibleKeyEnd(KernelBuilder &kb, const KernelSpec &s, Value rowLimit);
/// Visibility by ranges (KernelModifiers::visibilityIsRanges) in a tile: a
/// thread's positions in it are base + c for constants c in [0, tile), so
/// a range bound becomes bound - base clamped to [0, tile] (an i32, so the
/// compares are 32-bit), once per tile, and inRange(lo, hi, c) is two
/// compares with an immediate per score (one where lo or hi is null: a
/// tile that cannot cut that side).
Value relativeBound(KernelBuilder &kb, Value bound, Value base, int64_t tile);
/// max(x, 0) rounded down (or up) to a multiple of `tile`.
Value roundToTile(KernelBuilder &kb, Value x, int64_t tile, bool up);
Value inRange(KernelBuilder &kb, Value lo, Value hi, int64_t c);

/// Loads row `row` (rowOf) of `src` (width values) as f32, times `mul`; with
/// `lane`, only the columns lane, lane + lanes, ... (width / lanes values).
SmallVector<Value> loadRow(KernelBuilder &kb, Value src, Value row,
                           int64_t width, Value mul = Value(),
                           Value lane = Value(), int64_t lanes = 1);
/// Column lane + lanes * i of a row split across `lanes` threads (i without
/// a lane).
Value laneColumn(KernelBuilder &kb, Value lane, int64_t lanes, int64_t i);
/// Stores `x` to dst[idx] from the first of a row's threads (from every
/// thread when `lane` is null: a row per thread).
void storeFromFirstLane(KernelBuilder &kb, Value x, Value dst, ValueRange idx,
                        Value lane);
/// The sum of `x` over the `lanes` adjacent threads of a row (xor
/// shuffles; lanes a power of 2 dividing the subgroup size).
Value sumOverLanes(KernelBuilder &kb, Value x, int64_t lanes);

/// All threads of the block copy rows [row0, row0 + rows) of batch-head
/// `bh` of `src` ([BH * n, width], any float type) into `dst` ([rows,
/// width] f32 in shared memory), zeros past row n; each element times `mul`
/// when given.
void stageTile(OpBuilder &b, Location loc, Value src, Value dst, Value bh,
               Value row0, int64_t rows, Value n, int64_t width, Value tid,
               int64_t threads, Value mul = Value());

/// The argument lists of the backward kernels, SIMT and tensor-core alike:
/// dQ (q, k, v, o, lse, dO, dq, D[, mask]) and dK/dV (q, k, v, lse, dO, D,
/// dk, dv[, mask]).
SmallVector<Type> gradQArgTypes(MLIRContext *ctx, const KernelSpec &s);
SmallVector<Type> gradKVArgTypes(MLIRContext *ctx, const KernelSpec &s);

/// A kernel of a mapped flash op with its launch contract, launched in the
/// order given: `threads` per block on a grid (ceil(rows / rowsPerBlock),
/// batch-heads), where rows are the op's queries (the forward, dQ) or keys
/// (dK/dV), batch-heads those of the queries (BH) or, for dK/dV, of the
/// keys (BHkv); `kind` becomes its
/// flash.kernel_kind attribute (for tests and tools: the Python front warns
/// when f16/bf16 attention falls back to SIMT).
struct MappedKernel {
  gpu::GPUFuncOp fn;
  int64_t threads, rowsPerBlock;
  StringRef kind;
  /// What the grid is over: rows "nq" or "nk", batch-heads "bh" or "bhkv"
  /// (empty: by position, as above).
  StringRef rows = {}, batchHeads = {};
  /// With targetBlocks, gx = min(ceil(rows / rowsPerBlock),
  /// max(ceil(targetBlocks / gy), minBlocksX), maxBlocksX) instead: about
  /// that many blocks in all.
  int64_t targetBlocks = 0, minBlocksX = 0, maxBlocksX = 0;
  /// A persistent kernel: grid (min(ceil(rows / rowsPerBlock) * gy,
  /// persistentBlocks), 1) instead, its blocks looping over the work.
  int64_t persistentBlocks = 0;
  /// f32 words of scratch each block of this kernel owns: the op's kernels
  /// then all take one scratch buffer of gx * gy * scratchPerBlock words
  /// (its grid) as their last buffer argument, which this kernel writes and
  /// the later ones read.
  int64_t scratchPerBlock = 0;
  /// Instead, ceil(Nk / scratchKeysPerWord) words a block (a block mask's
  /// row of entries).
  int64_t scratchKeysPerWord = 0;
  /// The kernel waits for the op's previous kernel itself before it reads
  /// what that one wrote (NVVM: griddepcontrol.wait at its start), so a
  /// launcher may start it before the previous one ends (CUDA's
  /// programmatic dependent launch).
  bool waitsForPrevious = false;
};

/// The split-KV kinds' shared pieces (SplitKVKernels.cpp). A partial
/// kernel runs on grid (splits, BHkv), block x taking the keys [x * chunk,
/// min(x * chunk + chunk, Nk)) of the R = (Hq / Hkv) * Nq packed query rows
/// of kv batch-head y (rows y * R ..: the rows of q and o as they are), and
/// writes per row the record [acc (Dv), m, l] (log2 domain, acc relative to
/// 2^m, not normalized) to record ((y * splits + x) * R + r) of the scratch
/// buffer; the combine kernel merges a row's records into o and lse. Both
/// take (q, k, v, o, lse, scratch, sizes...).
///
/// Whether `s` is a decode shape for the split-KV kinds under `o`
/// (`split-kv` on): a static Nq with (Hq / Hkv) * Nq <= 16, no mask or
/// modifiers, a dynamic Nk or one of at least two blocks.
bool isSplitKVShape(const KernelSpec &s, const FlashMapToGPUOptions &o);
/// Splits per kv batch-head for at least `keysPerBlock` keys a block:
/// min(ceil(Nk / keysPerBlock), max(ceil(B / BHkv), 2), 128) with B =
/// s.splitBlocks (about B blocks in all; the launch contract states the
/// same).
Value splitKVCount(KernelBuilder &kb, const KernelSpec &s,
                   int64_t keysPerBlock);
/// A split's keys: ceil(Nk / splits) rounded up to a multiple of `granule`.
Value splitKVChunk(KernelBuilder &kb, const KernelSpec &s, Value splits,
                   int64_t granule);
/// A partial kernel's launch contract.
MappedKernel splitKVPartial(const KernelSpec &s, gpu::GPUFuncOp fn,
                            int64_t threads, int64_t keysPerBlock,
                            StringRef kind);
/// The combine kernel (grid (Nq, BH), one query row a block).
MappedKernel buildSplitKVCombine(OpBuilder &b, Location loc, StringRef name,
                                 const KernelSpec &s, int64_t keysPerBlock);

/// One family of kernels flash-map-to-gpu maps flash ops onto; the pass
/// tries the target's kinds that go first(), split-KV, the
/// cooperative-matrix forward, the target's other kinds, then SIMT, and
/// takes the first whose build() returns kernels.
class KernelKind {
public:
  virtual ~KernelKind() = default;
  /// Whether the kind maps the forward (or, with `backward`, the backward)
  /// of `s` under the pass's options; may set the tuning fields of `s`.
  virtual bool applies(KernelSpec &s, const FlashMapToGPUOptions &options,
                       bool backward) const = 0;
  /// Builds the kernels `names` (forward: one; backward: dQ, then dK/dV)
  /// at `b` (the end of the kernel module). Their arguments: the forward
  /// (q, k, v, o, lse), dQ (q, k, v, o, lse, dO, dq, D), dK/dV (q, k, v,
  /// lse, dO, D, dk, dv), then the mask and the captured operands
  /// (withMaskAndCaptures). No kernels (and nothing left built): the op goes
  /// to the next kind; failure: an error was reported on `op`.
  virtual FailureOr<SmallVector<MappedKernel>>
  build(OpBuilder &b, Operation *op, ArrayRef<std::string> names,
        KernelSpec &s, const FlashMapToGPUOptions &options,
        bool backward) const = 0;
  /// The dialects of its kernels' ops beyond the GPU mapping's own.
  virtual void getDependentDialects(DialectRegistry &registry) const {}
  /// Whether the pass tries the kind before its own (a target's
  /// specialization of them, as the tensor-core split-KV forward).
  virtual bool first() const { return false; }
};

/// The kinds of every target (CoopMatrixKernels.cpp, SIMTKernels.cpp).
/// Cooperative matrices: the f16 forward (D = Dv a multiple of 16 up to
/// 256, masks included) on gpu.subgroup_mma ops, 16 query rows per block
/// of one 32-thread subgroup, with the pass's `cooperative-matrix`. SIMT:
/// everything, f32 arithmetic, a query row (a key row in dK/dV) per
/// `row-lanes` threads; keys per tile halved until it fits
/// max-workgroup-memory. No atomics: every kernel is deterministic.
std::shared_ptr<const KernelKind> coopMatrixKind();
/// Split-KV (SplitKVKernels.cpp): decode, the forward of a static Nq whose
/// GQA group packs into at most 16 query rows, without mask or modifiers;
/// `split-kv` keys per block, then a combine kernel. Tried first.
std::shared_ptr<const KernelKind> splitKVKind();
std::shared_ptr<const KernelKind> simtKind();

} // namespace gpukernels
} // namespace flash
} // namespace mlir

#endif // FLASH_CONVERSION_FLASHTOGPU_GPUKERNELS_H
