//===- StageRing.h - The K/V ring of the warp-specialized forward -*- C++
//-*-===//
//
// Internal to lib/Conversion/FlashToNVVM: the pieces of the warp-specialized
// wgmma forward (MmaKernels.cpp) and the backward's producers
// (MmaGradKernels.cpp) and their consumers: the registers each side gets,
// the producer's tile copies by TMA, and the mbarriers of a two-stage ring
// of tiles. Written against upstream's NVVM ops (mbarrier.*,
// cp.async.bulk.tensor); upstream has no producer/consumer pipeline at this
// level, and nvgpu's TMA ops take descriptors the host copies to global
// memory (nvgpu.tma.create.descriptor), where ours are 128-byte kernel
// parameters (KernelSpec::tensorMaps, flash-tensor-map-params).
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_LIB_CONVERSION_FLASHTONVVM_STAGERING_H
#define FLASH_LIB_CONVERSION_FLASHTONVVM_STAGERING_H

#include "MmaFragments.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace flash {
namespace gpukernels {

/// The producer warpgroup follows the consumer warps.
constexpr int64_t kProducerThreads = 128;
/// The registers setmaxnreg leaves the producer and gives the consumers: the
/// block starts with 168 each (384 threads in 64K registers), and 128 x 24 +
/// 256 x 240 of them fit; at d = 64 and 256 the producer needs a few more
/// (40: it spilled at 24 and 32 at d = 256) to spill nothing, the consumers
/// fewer (232).
int32_t producerRegisters(const KernelSpec &s);
int32_t consumerRegisters(const KernelSpec &s);

/// The warp-specialized forward's mbarriers, i64 words of a workgroup
/// buffer: Q of buffer 0, 1 landed; K / V of stage 0, 1 landed (the
/// producer's tensor copies complete them); K / V of stage 0, 1 read (every
/// consumer thread arrives once its products are complete); Q's buffer 0, 1
/// free (a persistent kernel's consumers arrive after their epilogue).
enum StageBarrier : int64_t {
  kQFull = 0,
  kKFull = 2,
  kVFull = 4,
  kKEmpty = 6,
  kVEmpty = 8,
  kQEmpty = 10,
  kStageBarriers = 12
};

/// The shared memory a block may have on sm_90 (227 KiB).
constexpr int64_t kMaxSharedBytes = 227 * 1024;

/// mbarrier operations on those words.
struct StageBarriers {
  Value base; // the buffer's shared address (i64)

  /// Word `which` (+ stage), as a shared-memory pointer.
  Value ptr(OpBuilder &b, Location loc, int64_t which, Value stage) const;
  void init(OpBuilder &b, Location loc, int64_t which, int64_t count) const;
  /// Waits until the phase of parity `parity` (i32) has completed (a
  /// try_wait loop).
  void wait(OpBuilder &b, Location loc, int64_t which, Value stage,
            Value parity) const;
  /// The wait of the side that refills a stage: until the phase before the
  /// stage's current `phase` (i32) has completed, i.e. the other side has
  /// released what the stage held last (the first round's wait, for parity
  /// 1, passes at once).
  void waitReleased(OpBuilder &b, Location loc, int64_t which, Value stage,
                    Value phase) const;
  void arrive(OpBuilder &b, Location loc, int64_t which, Value stage) const;
  /// Arrives once this thread's cp.async copies so far have landed.
  void arriveOnCopies(OpBuilder &b, Location loc, int64_t which,
                      Value stage) const;
  /// Arrives and adds `bytes` to the transaction bytes the phase waits for
  /// (the tensor copies that complete it: loadTile).
  void arriveExpectBytes(OpBuilder &b, Location loc, int64_t which, Value stage,
                         int64_t bytes) const;
  /// The same without arriving (other threads' arrivals complete the
  /// phase).
  void expectBytes(OpBuilder &b, Location loc, int64_t which, Value stage,
                   int64_t bytes) const;
};

/// The producer's copy of rows row0 .. row0 + kv.rows - 1 of batch-head bh
/// (i32 coordinates) of tensor map `map` (a pointer to the kernel's
/// parameter; boxes of kv.rows x 64 columns) into swizzled tile `tile` of
/// `kv` by TMA: one cp.async.bulk.tensor per 64-column group (its box, in
/// the layout of swizzledIndex: the 128-byte swizzle), completing on the
/// mbarrier at `bar`; rows past the map's are zero. Issued by one thread,
/// whose arriveExpectBytes counted the tile's bytes.
void loadTile(OpBuilder &b, Location loc, const SwizzledTiles &kv, Value tile,
              Value map, Value bh, Value row0, Value bar);

/// Moves `b` into a branch of the producer's first warp (threads first ..
/// first + 31), which walks the tiles (a block mask's cursor reads its
/// table by warp votes), and returns the predicate of its first lane,
/// which issues the tensor copies and their barrier's bytes.
Value enterIssuingWarp(OpBuilder &b, Location loc, Value tid, int64_t first);

/// An scf.if with results, its two bodies built by the callbacks (which
/// end them with their yields).
scf::IfOp ifElse(OpBuilder &b, Location loc, TypeRange types, Value cond,
                 function_ref<void(OpBuilder &, Location)> thenBody,
                 function_ref<void(OpBuilder &, Location)> elseBody);

/// The stage (index) and the phase parity (i32) of the n-th tile through a
/// two-stage ring.
std::pair<Value, Value> ringSlot(OpBuilder &b, Location loc, Value n);

} // namespace gpukernels
} // namespace flash
} // namespace mlir

#endif // FLASH_LIB_CONVERSION_FLASHTONVVM_STAGERING_H
