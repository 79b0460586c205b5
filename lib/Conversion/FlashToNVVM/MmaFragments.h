//===- MmaFragments.h - mma.sync fragments for the flash kernels -*- C++
//-*-===//
//
// Internal to lib/Conversion/FlashToNVVM: building blocks of the tensor-core
// kernels (MmaKernels.cpp forward, MmaGradKernels.cpp backward), in the PTX
// fragment layouts of mma.m16n8k16 (lane = 4 g + t):
//   A (16x16): a[0] = A[g][2t..], a[1] = A[g+8][2t..], a[2] = A[g][8+2t..],
//              a[3] = A[g+8][8+2t..]            (2 consecutive elements each)
//   B (16x8):  b[0] = B[2t..2t+1][g], b[1] = B[8+2t..8+2t+1][g]
//   C (16x8):  c[0] = C[g][2t..2t+1], c[1] = C[g+8][2t..2t+1]
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_LIB_CONVERSION_FLASHTONVVM_MMAFRAGMENTS_H
#define FLASH_LIB_CONVERSION_FLASHTONVVM_MMAFRAGMENTS_H

#include "TensorCoreKernels.h"

namespace mlir {
namespace flash {
namespace gpukernels {

struct MmaFragments {
  OpBuilder &b;
  Location loc;
  Type elt;
  /// lane % 8 and lane / 8 (the ldmatrix row / matrix a lane addresses),
  /// g = lane / 4 and 2t = 2 (lane % 4).
  Value lrow, lmat, g, t2;

  Value c(int64_t v);
  Value add(Value x, Value y);
  /// An f32 C tile of zeros.
  Value zeroC();
  /// C + A B on tensor cores (f16: nvgpu.mma.sync; bf16: nvvm.mma.sync).
  Value mma(Value a, Value bm, Value acc);
  /// A fragment of rows (r0, r1 = r0 + 8, clamped by the caller) and
  /// columns col0 .. col0 + 15 of mem[bh] ([*, rows, cols] in global memory).
  Value aFromGlobal(Value mem, Value bh, Value r0, Value r1, int64_t col0);
  /// Two C tiles (adjacent 8-column blocks of one 16-row block, f32) as an
  /// A fragment in `elt`: the accumulator layout is the operand layout.
  Value cToA(Value c0, Value c1);
  /// Four C tiles (32 adjacent columns of one 16-row block, f32) as the A
  /// fragment of an fp8 (e4m3, 32-deep) product, vector<4x4xi8>: a
  /// register's 4 k are this lane's columns 2t, 2t + 1 of two adjacent
  /// tiles, so k order in a 32-column step is kk -> column
  /// 16 (kk / 16) + 8 ((kk % 4) / 2) + 2 ((kk % 16) / 4) + kk % 2, in which
  /// the B operand's rows must be (buildFp8TransposeVKernel).
  Value fp8PFragment(ArrayRef<Value> c);
  /// B fragments from shared memory by ldmatrix, `count` of them:
  ///  - !trans: smem holds B^T (rows n0 .. n0 + 7, the reduction along the
  ///    columns): one fragment per 16 columns from col0;
  ///  - trans: smem holds B (rows k0 .. k0 + 15 the reduction, columns n):
  ///    one fragment per 8 columns from col0.
  SmallVector<Value> bFrags(Value smem, Value row0, int64_t col0, int64_t count,
                            bool trans);
  /// Where row r, columns col .. col + 7 of a tile go in shared memory.
  using TileIndex =
      llvm::function_ref<SmallVector<Value>(OpBuilder &, Value r, Value col)>;
  /// All `threads` threads copy rows row0 .. row0 + rows - 1 (clamped to
  /// limit - 1) of src[bh] ([*, limit, width]) into dst ([rows, >= width]
  /// in shared memory, or wherever `at` says) with cp.async, 16 bytes per
  /// copy; returns the group's token (wait with waitAll).
  Value copyTile(Value tid, int64_t threads, Value src, Value bh, Value row0,
                 Value limit, int64_t rows, int64_t width, Value dst,
                 TileIndex at = nullptr);
  void waitAll(Value group);

  // Hopper warpgroup MMA (sm_90a). A warpgroup (4 warps) computes a 64-row
  // block; each warp's 16 rows keep the mma.sync C and A layouts above, so
  // the softmax and the C -> A conversion are shared with the mma.sync path.
  // B comes from shared memory in the 128-byte-swizzled layout of
  // swizzledIndex, addressed by a matrix descriptor.

  /// acc + A B over the k-steps of `a` (one A fragment per 16-deep step;
  /// fp8 (elt e4m3): 32-deep, A fragments from fp8PFragment, B K-major),
  /// B's step i at descriptor desc + stepOffsets[i] (bytes); acc: C tiles
  /// (N = 8 * acc.size()), or, with acc empty, A B into zeroTiles fresh
  /// tiles. transB: B is stored N-contiguous (V), else K-contiguous (K).
  /// Synchronous: fence, the steps, commit, wait.
  /// With aDesc, A is read from shared memory at aDesc + aStepOffsets[i]
  /// instead (`a` empty): K-major, or with transA M-contiguous (16-bit
  /// types).
  /// With !wait, asynchronous: the steps are committed as a group and the
  /// results are only valid after a wgmmaWait that leaves the group
  /// complete (ptxas tracks the registers: a read before that would wait).
  SmallVector<Value> wgmma(ArrayRef<Value> acc, ArrayRef<Value> a, Value desc,
                           ArrayRef<int64_t> stepOffsets, bool transB,
                           int64_t zeroTiles = 0, Value aDesc = Value(),
                           ArrayRef<int64_t> aStepOffsets = {},
                           bool wait = true, bool transA = false);
  /// Waits until at most `pending` committed wgmma groups are in flight;
  /// `done` (C tiles of the groups now complete) flow through the wait, so
  /// that their uses stay after it; `live` (A fragments of groups in
  /// flight until now) are read by it, so that no new value takes their
  /// registers before it (PTX forbids writing an in-flight wgmma's inputs;
  /// ptxas would serialize every wgmma of the kernel).
  SmallVector<Value> wgmmaWait(int64_t pending, ArrayRef<Value> done,
                               ArrayRef<Value> live = {});
  /// Orders this thread's earlier generic-proxy shared-memory writes (cp.async)
  /// before later async-proxy reads (wgmma); follow with a barrier.
  void fenceProxyAsync();
  /// Adds `bytes` f32 values at shared address `shared` (16-byte aligned)
  /// into global memory at generic address `global` by one asynchronous
  /// bulk reduction (cp.reduce.async.bulk, sm_90), committed as a bulk
  /// group of this thread.
  void bulkReduceAddF32(Value global, Value shared, int64_t bytes);
  /// Waits until at most `pending` of this thread's bulk groups are in
  /// flight; `readOnly`: until their sources have been read.
  void bulkWait(int64_t pending, bool readOnly);
  /// The shared-memory address of workgroup buffer `buf` (i64).
  Value sharedAddress(Value buf);
  /// A wgmma matrix descriptor (128-byte swizzle) for the tile at shared
  /// address `addr` (i64, 1024-byte aligned): leading / stride byte offsets.
  Value wgmmaDescriptor(Value addr, int64_t leadBytes, int64_t strideBytes);

  /// The two rows (g and g + 8 of the warp's 16) a lane owns in a grid of
  /// blocks of `warps` warps over `limit` rows, and the same clamped to
  /// limit - 1 for loads; base is the block's first row.
  struct WarpRows {
    Value base, rows[2], clamped[2];
  };
  WarpRows warpRows(Value blockIdx, Value tid, int64_t warps, Value limit);
  /// The K/V batch-head of query batch-head bh (GQA: b * Hkv + h / G).
  Value kvHead(const KernelSpec &s, Value bh);
  /// The keys a block of queries [base, base + rows) needs (causal: up to
  /// its last row's diagonal), and each lane row's last visible key.
  Value kvEnd(const KernelSpec &s, const WarpRows &w, int64_t rows,
              Value rowLimit[2]);
};

/// tid / 128, the thread's warpgroup, as a value ptxas knows is
/// warp-uniform (lane 0's, by a shuffle: CUTLASS's canonical_warp_group_idx).
/// Branches on it (the warp-specialized roles) are then uniform, and what
/// the roles compute from uniform values (the wgmma descriptors, the ring's
/// slots) can stay in uniform registers.
Value warpGroupIndex(OpBuilder &b, Location loc, Value tid);

/// A [rows, width] shared-memory tile with rows padded by 8 elements (16
/// bytes), so that the 8 rows an ldmatrix reads start in different banks.
MemRefType paddedTile(MLIRContext *ctx, Type elt, int64_t rows, int64_t width);

/// The element index, in a [rows, width] tile stored in the 128-byte
/// swizzle of wgmma (sm_90a), of row r, columns col .. col + 7: the tile is
/// split into 64-column groups ([group][rows][64], 128-byte rows) and the
/// 16-byte chunk c of row r sits at chunk c ^ (r % 8) of its row (so 8
/// threads copying one row, and wgmma reading 8 rows, hit 8 banks). The
/// tile must start 1024-byte aligned. Elements of eltBytes bytes (2; fp8
/// 1: 128-column groups, 16-element chunks).
Value swizzledIndex(OpBuilder &b, Location loc, Value tileBase, int64_t rows,
                    Value r, Value col, int64_t eltBytes = 2);

/// `count` tiles of [rows, width] elements in the swizzle of swizzledIndex,
/// back to back in one workgroup buffer (swizzledBufferType) whose start is
/// rounded up to 1024 bytes at run time; rows a multiple of 8, width of 64.
struct SwizzledTiles {
  Value buf;
  /// The first tile's element index in buf, and its shared address (i64).
  Value base, addr;
  int64_t rows, width;
  /// Bytes per element of buf (2; fp8 1).
  int64_t eltBytes = 2;

  /// Where row r, columns col .. col + 7 of tile i (a constant or an index
  /// value) go (for copyTile).
  SmallVector<Value> at(OpBuilder &b, Location loc, int64_t i, Value r,
                        Value col) const;
  SmallVector<Value> at(OpBuilder &b, Location loc, Value i, Value r,
                        Value col) const;
  /// Tile i as a wgmma operand: K-major (rows are M or N, the reduction
  /// along the row, step offsets kMajorSteps) or, transposed, MN-major (the
  /// reduction down the rows, step offsets mnMajorSteps).
  Value descriptor(MmaFragments &F, int64_t i, bool mnMajor) const;
  /// The descriptor of tile i + `tiles` from that of tile i.
  Value advance(MmaFragments &F, Value desc, Value tiles) const;
  SmallVector<int64_t> kMajorSteps() const;
  SmallVector<int64_t> mnMajorSteps() const;
};
MemRefType swizzledBufferType(MLIRContext *ctx, Type elt, int64_t count,
                              int64_t rows, int64_t width);
/// The workgroup buffers of a kernel's two [rows, D] input tiles: two padded
/// tiles for ldmatrix, or (wgmma) one swizzled buffer of `stages` pairs.
SmallVector<Type> mmaTileBuffers(MLIRContext *ctx, const KernelSpec &s,
                                 int64_t rows, int64_t stages);
SwizzledTiles swizzledTiles(MmaFragments &F, Value buf, int64_t rows,
                            int64_t width);

/// The block of query rows the forward takes from block index `bx`: in the
/// warp-specialized kernel (one block per SM) with a causal limit the last
/// rows see the most keys, so the first blocks launched take them (heaviest
/// first: the light ones fill the last wave; 1.08x at 16k on the H200, and
/// 0.98-1.0x in the one-warpgroup kernels, several blocks per SM, which keep
/// bx).
Value queryBlockOrder(OpBuilder &b, Location loc, const KernelSpec &s,
                      Value bx);

/// The registers per thread ptxas may give tensor-core kernel `fn`:
/// mma-max-registers when set (fewer registers, more blocks per SM);
/// otherwise 255 for 256-thread kernels and the backward's (without it,
/// ptxas capped the causal d = 256 forward of 256 threads, and the d = 32
/// dK/dV kernel, at 128 and spilled) and ptxas' own choice for the 128-thread
/// forwards.
void limitRegisters(gpu::GPUFuncOp fn, const KernelSpec &s,
                    bool backward = false);

/// Stores `pair` (a vector<2>: the two adjacent columns a lane holds of a C
/// tile row, at an even column of a row of even length) to mem[indices] as
/// one access of its size: the store's alignment says so. (Without it the
/// LLVM store is aligned to one element and NVPTX splits it: the forward's
/// epilogue was 64 16-bit stores a thread, a third of a 1-tile block's
/// time on the H200.)
void storePair(OpBuilder &b, Location loc, Value pair, Value mem,
               ValueRange indices);

/// Builds the lane decomposition for MmaFragments from the thread id.
MmaFragments mmaFragments(OpBuilder &b, Location loc, Type elt, Value tid);

} // namespace gpukernels
} // namespace flash
} // namespace mlir

#endif // FLASH_LIB_CONVERSION_FLASHTONVVM_MMAFRAGMENTS_H
