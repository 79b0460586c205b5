//===- MmaGradKernels.cpp - The backward kernels on tensor cores ----------===//
//
// f16/bf16 attention backward on NVIDIA tensor cores (mma.sync m16n8k16,
// f32 accumulation), as two deterministic kernels like the SIMT ones:
//
// dQ (and D = rowsum(dO * O)): grid (ceil(Nq / 16W), B*Hq), W warps of 16
// query rows; Q and dO held as A fragments; per tile of 64 keys (K and V by
// cp.async into padded shared memory):
//   S = Q K^T, P = 2^(S sl2 - lse log2 e)        (C layout, registers)
//   dP = dO V^T                                  (V as B^T: ldmatrix)
//   dS = P * (dP - D)                            (C layout)
//   dQ += dS K                                   (dS C->A in registers, K
//                                                 by ldmatrix.trans)
// dK, dV: grid (ceil(Nk / 16W), B*Hkv), W warps of 16 key rows; K and V held
// as A fragments; over the query heads of the GQA group and tiles of 64
// queries (Q and dO by cp.async):
//   S^T = K Q^T, P^T = 2^(S^T sl2 - lse log2 e)  (lse, D per column)
//   dV += P^T dO ; dP^T = V dO^T ; dS^T = P^T * (dP^T - D) ; dK += dS^T Q
// Every transpose is a choice of operand, never a copy: the accumulator
// layout of two adjacent 8-column tiles is the A layout of one 16-column
// step, and ldmatrix (.trans) reads shared memory as either B or B^T.
// No N x N tensor and no atomics.
//
// Past d = 128 (wgmma, d = 256): Q and dO, K and V as A fragments would take
// 128 registers next to the accumulators' 128, so the fixed A operands are
// read from shared memory (tiles of the block's rows, loaded once), and
// the dK/dV kernel's two warpgroups split each step by roles on the
// block's 64 keys (gradKVSplit): the first computes S^T, P^T and dV +=
// P^T dO, the second dP^T, dS^T (from P^T's f32 factors, which the first
// publishes in shared memory) and dK += dS^T Q, each with its A operand
// in registers and its 128 accumulator registers (seven products, as
// below; named barriers 2 and 3 order the trade). On an H100 1.17-1.21x
// splitting dK and dV by columns instead (each warpgroup half of both
// from P^T and dS^T traded through shared A tiles), which ran as fast as
// two blocks per key block each computing S^T and dP^T for its half
// (nine products; session 31).
//
// dQ by reductions (wgmma, deterministic=false; KernelSpec::gradAtomicDQ):
// the dK/dV kernel, two warpgroups of 64 keys, also computes per query tile
// dQ^T = K^T dS^T over the block's 128 keys (K and V in shared memory, K
// read K-major for S^T and M-contiguous for dQ^T; dS through a shared
// tile; each warpgroup one 64-row group of D) and adds the tile into an
// f32 accumulator by asynchronous bulk reductions, one per query row
// (cp.reduce.async.bulk .add.f32, as FlashAttention-3 does);
// GradDQAccumulator.cpp's kernels zero it before and convert it after. No
// dQ kernel: five products instead of seven.
//
// With a producer warpgroup (wgmma, KernelSpec::gradProducer; the dQ
// kernel's from d = 128): the block's threads past the consumer warps
// copy each step's tiles into the two-stage ring (StageRing.cpp's pieces:
// mbarriers that the copies arrive on and that the consumers release),
// with few registers (setmaxnreg moves the rest to the consumers); the
// consumers wait for a stage instead of a block-wide barrier. dQ by
// reductions: the producer is also FlashAttention-3's dQ writer, adding
// the dQ the consumers staged two steps before.
//
//===----------------------------------------------------------------------===//

#include "MmaFragments.h"
#include "StageRing.h"
#include "flash/Dialect/Flash/IR/Modifiers.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

#include <functional>
#include <limits>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

/// Smaller at D = 128 to keep the accumulators in registers.
int64_t gpukernels::mmaGradTile(const KernelSpec &s, bool kv) {
  if (s.mmaGradTile)
    return s.mmaGradTile;
  if (s.tileD() <= 64)
    return 64;
  // At d = 256 on wgmma (A tiles from shared memory; two warpgroups and
  // producers): 32-key tiles in the dQ kernel (its Q and dO of 128 queries
  // and the ring's two stages of K and V: 193 KiB), 64-query tiles in the
  // dK/dV kernel (K and V of its 64 keys, the ring's two stages of Q and
  // dO: 212 KiB). Each S^T / dP^T product then reads the keys' A tiles for
  // 64 queries, not 32: on an H100 1.06-1.23x 32 (session 31), where 32
  // had run 1.37-1.48x one warpgroup with 16-row tiles. With a mask
  // operand, a block mask or GQA (a loop over the group's heads): 32 (at
  // 64 those spill 16-500 bytes).
  if (s.wgmma && s.tileD() > 128)
    return kv && !s.mask && !blockMaskApplies(s) && s.hq == s.hkv ? 64 : 32;
  // At d = 128 with A tiles from shared memory (grad-a-shared): 64-key
  // tiles in the dQ kernel (156-252 registers); 64-query tiles in the dK/dV
  // kernel, 32 where its scores are masked by more than a causal limit or
  // affine bounds (a mask operand, a document mask, a score_mod: 64 spill
  // 12-230 bytes there). On the H200 64 / 64 ran 1.06-1.11x 32 / 32;
  // on an H100 the unmasked rows ran 1.04-1.06x the register form with
  // 64 / 64 (session 27). Under a causal limit alone 64 queries spill
  // nothing (deterministic) or 48-60 bytes (dQ by reductions, whose dQ^T's
  // 32 registers a thread replace the dead S^T's) and ran 1.06-1.13x and
  // 1.14-1.32x 32 on an H100 (session 29). Under a mask_mod of affine
  // bounds alone (a sliding window, a prefix), deterministic and without
  // GQA, 64 spill nothing either: the sliding-window backward at 16k ran
  // 1.02-1.15x 32 on an H100 (session 33). With reductions, or GQA with
  // runtime sizes, 64 spill 36 bytes; GQA with static sizes spills
  // nothing but has not run on a GPU with 64 yet.
  if (s.wgmma && s.gradAShared) {
    if (!kv)
      return 64;
    bool affineOnly = s.maskMod &&
                      flash::maskModIsAffine(*s.maskMod, s.lead.size()) &&
                      !s.gradAtomicDQ && s.hq == s.hkv;
    return s.mask || s.scoreMod || (s.maskMod && !affineOnly) ? 32 : 64;
  }
  // wgmma keeps no B fragments in registers, but double-buffers its tiles
  // (static shared memory: 48 KiB); the mask's indices would spill a 32-query
  // dK/dV tile.
  return kv ? (s.wgmma && !s.mask ? 32 : 16) : 32;
}

namespace {
/// The two input tiles of each step of a backward kernel (K and V of the dQ
/// kernel, Q and dO of the dK/dV kernel), in mmaTileBuffers(.., 2 stages).
/// mma.sync: two padded tiles, loaded and waited for at the top of the step.
/// wgmma: one swizzled buffer of two stages (tiles 2 stage, 2 stage + 1);
/// step j computes on stage j % 2 while the tiles of step j + 1 stream into
/// the other.
struct GradTiles {
  const KernelSpec &s;
  Value tid;
  int64_t threads, rows;
  Value limit;
  Value a, b, aS, bS;
  std::optional<SwizzledTiles> sw;
  /// wgmma, the dK/dV kernel: the tile's per-row values lse[bh] and D[bh]
  /// (its queries' columns) copied with it, a group before its tiles, into
  /// colBuf [stage][lse, D][rows] f32 (zero past `limit`). Loaded from
  /// global memory per tile they arrived after the products: a third of
  /// the kernel's stall samples on the H200 (bench/RESULTS.md).
  Value colLse, colD, colBuf;

  /// Copies the columns lse, D of rows row0.. of bh into colBuf's `stage`
  /// by threads `ctid` of `cthreads` (one cp.async group).
  void issueColumns(MmaFragments &G, Value ctid, int64_t cthreads, Value bh,
                    Value row0, Value stage) const {
    auto tokTy = nvgpu::DeviceAsyncTokenType::get(G.b.getContext());
    SmallVector<Value> colToks;
    // Element (tid + k threads) % rows of each: threads beyond the rows
    // repeat another's copy (the same bytes to the same place).
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t k = 0; k * cthreads < rows; ++k) {
        Value idx = arith::RemUIOp::create(
            G.b, G.loc, G.add(ctid, G.c(k * cthreads)), G.c(rows));
        Value row = G.add(row0, idx);
        Value n = arith::SelectOp::create(
            G.b, G.loc,
            arith::CmpIOp::create(G.b, G.loc, arith::CmpIPredicate::ult, row,
                                  limit),
            G.c(1), G.c(0));
        Value dst =
            G.add(arith::MulIOp::create(G.b, G.loc, stage, G.c(2 * rows)),
                  G.add(G.c(i * rows), idx));
        Value srcRow = arith::MinUIOp::create(
            G.b, G.loc, row, arith::SubIOp::create(G.b, G.loc, limit, G.c(1)));
        colToks.push_back(nvgpu::DeviceAsyncCopyOp::create(
                              G.b, G.loc, tokTy, colBuf, ValueRange{dst},
                              i ? colD : colLse, ValueRange{bh, srcRow},
                              G.b.getIndexAttr(1), n, UnitAttr())
                              .getResult());
      }
    nvgpu::DeviceAsyncCreateGroupOp::create(G.b, G.loc, tokTy, colToks);
  }

  /// Issues the copies of rows row0.. of a[bh], b[bh] (into `stage` for
  /// wgmma), one cp.async group per tile; returns the last.
  Value issue(MmaFragments &G, Value bh, Value row0, Value stage) const {
    SmallVector<Value> toks;
    if (colBuf)
      issueColumns(G, tid, threads, bh, row0, stage);
    for (int64_t i = 0; i < 2; ++i) {
      Value src = i ? b : a;
      if (sw) {
        Value tile =
            G.add(arith::MulIOp::create(G.b, G.loc, stage, G.c(2)), G.c(i));
        toks.push_back(G.copyTile(tid, threads, src, bh, row0, limit, rows,
                                  s.tileD(), sw->buf,
                                  [&](OpBuilder &ib, Value r, Value col) {
                                    return sw->at(ib, G.loc, tile, r, col);
                                  }));
      } else {
        toks.push_back(G.copyTile(tid, threads, src, bh, row0, limit, rows,
                                  s.tileD(), i ? bS : aS));
      }
    }
    return toks.back();
  }

  /// The top of the step at rows row0. mma.sync: loads the tiles and waits
  /// for them. wgmma (`stage` loop-carried; this stage's tiles have landed,
  /// by `settle`): issues the next step's copies (rows nextRow..) into the
  /// other stage. Returns the next step's loop-carried values and this
  /// stage's first tile (for SwizzledTiles::advance).
  struct Step {
    Value next, nextStage, firstTile;
  };
  Step begin(MmaFragments &G, Value bh, Value row0, Value stage,
             Value nextRow) const {
    if (!sw) {
      landed(G, issue(G, bh, row0, Value()));
      return {};
    }
    Step st;
    st.nextStage = arith::SubIOp::create(G.b, G.loc, G.c(1), stage);
    st.next = issue(G, bh, nextRow, st.nextStage);
    st.firstTile = arith::MulIOp::create(G.b, G.loc, stage, G.c(2));
    return st;
  }

  /// The step's two products with the tiles read as B^T: A0 tile0^T and
  /// A1 tile1^T (S and dP, or S^T and dP^T), nTiles C tiles each; for wgmma
  /// desc0 / desc1 are the tiles' K-major descriptors for this stage, and
  /// A0 / A1 may come from shared memory instead (a0Desc / a1Desc: K-major
  /// descriptors of tiles of aTiles). wgmma: the first is complete, the
  /// second still in flight (see `second`).
  std::pair<SmallVector<Value>, SmallVector<Value>>
  products(MmaFragments &G, ArrayRef<Value> a0, ArrayRef<Value> a1, Value desc0,
           Value desc1, int64_t nTiles, const SwizzledTiles *aTiles = nullptr,
           Value a0Desc = {}, Value a1Desc = {}) const {
    if (sw) {
      // The second product runs under the elementwise work on the first's
      // result (1.00-1.07x waiting for both on an H100: bench/RESULTS.md,
      // session 29); `second` waits for it.
      auto async = [&](ArrayRef<Value> a, Value desc, Value aDesc) {
        return aDesc ? G.wgmma({}, {}, desc, sw->kMajorSteps(), false, nTiles,
                               aDesc, aTiles->kMajorSteps(), false)
                     : G.wgmma({}, a, desc, sw->kMajorSteps(), false, nTiles,
                               Value(), {}, false);
      };
      SmallVector<Value> c0 = async(a0, desc0, a0Desc);
      SmallVector<Value> c1 = async(a1, desc1, a1Desc);
      SmallVector<Value> live(a0);
      llvm::append_range(live, a1);
      return {G.wgmmaWait(1, c0, live), c1};
    }
    SmallVector<Value> c0, c1;
    const int64_t kSteps = s.tileD() / 16;
    for (int64_t nt = 0; nt < nTiles; ++nt) {
      SmallVector<Value> b0 = G.bFrags(aS, G.c(nt * 8), 0, kSteps, false);
      SmallVector<Value> b1 = G.bFrags(bS, G.c(nt * 8), 0, kSteps, false);
      Value x = G.zeroC(), y = G.zeroC();
      for (int64_t ks = 0; ks < kSteps; ++ks) {
        x = G.mma(a0[ks], b0[ks], x);
        y = G.mma(a1[ks], b1[ks], y);
      }
      c0.push_back(x);
      c1.push_back(y);
    }
    return {c0, c1};
  }

  /// The second product of `products`, complete (wgmma: its group waited
  /// for; a1: its A fragments, read by the wait).
  SmallVector<Value> second(MmaFragments &G, ArrayRef<Value> c1,
                            ArrayRef<Value> a1) const {
    if (!sw)
      return SmallVector<Value>(c1);
    return G.wgmmaWait(0, c1, a1);
  }

  /// The end of a step (and of the prologue): the barrier after which its
  /// tiles may be overwritten; wgmma: also the one after which the next
  /// step's (copies `next`, issued at this step's top) are visible: each
  /// thread waits for its copies first (one barrier a step, not two).
  void settle(MmaFragments &G, Value next) const {
    if (sw) {
      nvgpu::DeviceAsyncWaitOp::create(G.b, G.loc, next,
                                       G.b.getI32IntegerAttr(0));
      G.fenceProxyAsync();
    }
    gpu::BarrierOp::create(G.b, G.loc);
  }

  /// mma.sync: waits for the tiles of the current step and makes them
  /// visible to the block.
  void landed(MmaFragments &G, Value group) const {
    nvgpu::DeviceAsyncWaitOp::create(G.b, G.loc, group,
                                     G.b.getI32IntegerAttr(0));
    gpu::BarrierOp::create(G.b, G.loc);
  }
};

/// The backward kernels' operand i by batch-head: a query-side operand
/// ([BH, Nq, ...]) and a key-side one ([BHkv, Nk, ...]).
std::pair<std::function<Value(unsigned)>, std::function<Value(unsigned)>>
batchHeadViews(KernelBuilder &kb, const KernelSpec &s, gpu::GPUFuncOp fn) {
  Value bhQ = s.bhValue(kb), bhKV = kvBatchHeads(kb, s);
  Value nq = s.nqValue(kb), nk = s.nkValue(kb);
  return {[=, &kb](unsigned i) mutable {
            return byBatchHead(kb, fn.getArgument(i), bhQ, nq);
          },
          [=, &kb](unsigned i) mutable {
            return byBatchHead(kb, fn.getArgument(i), bhKV, nk);
          }};
}

/// x * l2 with -inf (an empty row's lse) mapped to +inf, so that
/// 2^(s - lse l2) is 0 there, not NaN.
Value lseLog2(KernelBuilder &kb, Value lse) {
  Value empty =
      arith::CmpFOp::create(kb.b, kb.loc, arith::CmpFPredicate::OEQ, lse,
                            kb.f(-std::numeric_limits<float>::infinity()));
  return arith::SelectOp::create(
      kb.b, kb.loc, empty, kb.f(std::numeric_limits<float>::infinity()),
      arith::MulFOp::create(kb.b, kb.loc, lse, kb.f(kLog2e)));
}

/// Element (r, j) of a C tile.
Value at(OpBuilder &b, Location l, Value c, int64_t r, int64_t j) {
  return vector::ExtractOp::create(b, l, c, ArrayRef<int64_t>{r, j});
}
Value put(OpBuilder &b, Location l, Value x, Value c, int64_t r, int64_t j) {
  return vector::InsertOp::create(b, l, x, c, ArrayRef<int64_t>{r, j});
}

/// Past d = 128 (wgmma only) the kernels read their fixed A operands (Q and
/// dO of the dQ kernel, K and V of the dK/dV kernel) from shared memory:
/// as A fragments they would take 128 registers next to the accumulators'
/// 128 (the dK/dV kernel's split by columns: see there). Below, with
/// `grad-a-shared`, to free their registers for larger tiles.
bool gradAShared(const KernelSpec &s) { return s.wgmma && s.gradAShared; }

/// grad-producer: the dK/dV kernel's ring mbarriers, i64 words: stage 0, 1
/// landed (the producer's copies arrive), stage 0, 1 read (every consumer
/// thread arrives).
enum GradStageBarrier : int64_t {
  kGradFull = 0,
  kGradEmpty = 2,
  /// dQ by reductions: dQ's staging tile 0, 1 read by the producer's bulk
  /// reductions (every producer thread arrives).
  kGradDQEmpty = 4
};

/// grad-producer: registers per thread at launch and after setmaxnreg. One
/// consumer warpgroup: two blocks an SM (32K registers each; 128 x 24 +
/// 128 x 232); two: one block of 384 x 168, 128 x 24 + 256 x 240 at d = 128
/// (the dQ writer's producer spills a few words, the consumers fewer than
/// at 232: 1.03-1.19x 40 + 232 at 4k-16k keys on an H100, session 30),
/// 40 + 232 at d = 64 (no spills; 24 + 240 ran 0.89-1.09x) and in the
/// dK/dV kernel at d = 256 (its producer spilled 12-16 bytes at 24) and its dQ
/// kernel with a block mask (whose cursor spills a word at 24). The
/// one-warpgroup dQ kernel's consumers need fewer (160), its producer more (a
/// block mask's cursor spilled at 24): 40 + 216.
struct GradRegisters {
  int32_t launch, producer, consumer;
};
GradRegisters gradRegisters(const KernelSpec &s, bool kv) {
  const bool fewProducer =
      s.tileD() == 128 || (s.tileD() > 128 && !kv && !blockMaskApplies(s));
  GradRegisters r = s.mmaWarps > 4 ? (fewProducer ? GradRegisters{168, 24, 240}
                                                  : GradRegisters{168, 40, 232})
                    : kv           ? GradRegisters{128, 24, 232}
                                   : GradRegisters{128, 40, 216};
  // (setmaxnreg moves registers within the block's launch allocation: a
  // warpgroup that asks for more than the others gave back waits forever.)
  assert(r.producer * kProducerThreads + r.consumer * s.mmaWarps * 32 <=
             r.launch * (kProducerThreads + s.mmaWarps * 32) &&
         "setmaxnreg beyond the block's registers");
  return r;
}

/// grad-producer: thread 0 initializes the ring's mbarriers in `buf` (the
/// barrier of sharedATiles, which follows, publishes them); a stage lands
/// on `fullArrivals` arrivals (the producer's threads after their cp.async
/// copies, or one thread with its tensor copies' bytes).
StageBarriers initGradRing(MmaFragments &F, Value buf, Value tid,
                           int64_t consumerThreads, bool dqTiles = false,
                           int64_t fullArrivals = kProducerThreads) {
  StageBarriers bars{F.sharedAddress(buf)};
  Value first =
      arith::CmpIOp::create(F.b, F.loc, arith::CmpIPredicate::eq, tid, F.c(0));
  scf::IfOp::create(F.b, F.loc, first, [&](OpBuilder &ib, Location il) {
    for (int64_t i = 0; i < 2; ++i) {
      bars.init(ib, il, kGradFull + i, fullArrivals);
      bars.init(ib, il, kGradEmpty + i, consumerThreads);
      if (dqTiles)
        bars.init(ib, il, kGradDQEmpty + i, kProducerThreads);
    }
    scf::YieldOp::create(ib, il);
  });
  return bars;
}

/// grad-producer: the block's roles, at b: the producer warpgroup (threads
/// from consumerThreads) in the then-block, its registers lowered; b is
/// left in the else-block, the consumers', their registers raised.
scf::IfOp splitRoles(OpBuilder &b, Location loc, const KernelSpec &s, bool kv,
                     Value tid, int64_t consumerThreads) {
  // (By warpgroup, warp-uniform: warpGroupIndex.)
  assert(consumerThreads % 128 == 0 && "whole consumer warpgroups");
  Value isProducer = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::uge, warpGroupIndex(b, loc, tid),
      arith::ConstantIndexOp::create(b, loc, consumerThreads / 128));
  auto roles = scf::IfOp::create(b, loc, TypeRange(), isProducer,
                                 /*withElseRegion=*/true);
  OpBuilder pb = roles.getThenBodyBuilder();
  NVVM::SetMaxRegisterOp::create(pb, loc, gradRegisters(s, kv).producer,
                                 NVVM::SetMaxRegisterAction::decrease);
  b.setInsertionPoint(roles.elseBlock()->getTerminator());
  NVVM::SetMaxRegisterOp::create(b, loc, gradRegisters(s, kv).consumer,
                                 NVVM::SetMaxRegisterAction::increase);
  return roles;
}

/// Named barrier `id` of `threads` threads at b: wait on it (sync) or
/// arrive.
void namedBarrier(OpBuilder &b, Location loc, int64_t id, int64_t threads,
                  bool sync) {
  auto i32c = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v).getResult();
  };
  if (sync)
    NVVM::BarrierOp::create(b, loc, TypeRange(), i32c(id), i32c(threads),
                            NVVM::BarrierReductionAttr(), Value());
  else
    NVVM::BarrierArriveOp::create(b, loc, i32c(id), i32c(threads));
}

/// The producer's n-th tile: waits until its stage is free (the consumers
/// read the stage's previous tiles), issues the copies into it
/// (`copy(stage)`) and arrives on the stage's landed barrier once they land.
void produceStage(MmaFragments &G, const StageBarriers &bars, Value n,
                  function_ref<void(Value)> copy) {
  auto [stage, phase] = ringSlot(G.b, G.loc, n);
  bars.waitReleased(G.b, G.loc, kGradEmpty, stage, phase);
  copy(stage);
  bars.arriveOnCopies(G.b, G.loc, kGradFull, stage);
}

/// The consumers' n-th tile: waits until its stage landed and, for
/// cp.async copies (not TMA's, which write in the products' async proxy),
/// orders them before the products' reads; returns the stage.
Value consumeStage(MmaFragments &G, const StageBarriers &bars, Value n,
                   bool byTMA = false) {
  auto [stage, phase] = ringSlot(G.b, G.loc, n);
  bars.wait(G.b, G.loc, kGradFull, stage, phase);
  if (!byTMA)
    G.fenceProxyAsync();
  return stage;
}
} // namespace

bool gpukernels::gradKVSplit(const KernelSpec &s) {
  return s.wgmma && s.tileD() > 128;
}
int64_t gpukernels::gradKVRowsPerBlock(const KernelSpec &s) {
  return gradKVSplit(s) ? 64 : mmaRowsPerBlock(s);
}

int64_t gpukernels::gradKernelThreads(const KernelSpec &s) {
  return s.mmaWarps * 32 + (s.gradProducer ? kProducerThreads : 0);
}
// The dQ kernel's producer at d = 128: 1.11-1.24x the dK/dV kernel's alone
// on the non-causal rows, 0.97-1.10x causal; at d = 64 0.90-1.04x (an H100,
// session 30). At d = 256 with two warpgroups (launched at 168 registers):
// 0.97-1.12x the dK/dV kernel's alone (session 31). With one, no: its
// dQ products (m64n256, 128 accumulators) need 158 registers, and ptxas
// fits every instruction within the launch's limit (128 there), not the
// one setmaxnreg raises.
bool gpukernels::gradQProducer(const KernelSpec &s) {
  return s.gradProducer && s.tileD() > 64 &&
         (s.tileD() <= 128 || s.mmaWarps > 4);
}
int64_t gpukernels::gradQThreads(const KernelSpec &s) {
  return s.mmaWarps * 32 + (gradQProducer(s) ? kProducerThreads : 0);
}

namespace {

/// Copies rows row0 .. row0 + rows - 1 (clamped to limit - 1) of
/// srcs[i][bh] into tile i of `buf` ([rows, D] tiles in the 128-byte
/// swizzle), waits for them and makes them visible to wgmma.
SwizzledTiles sharedATiles(MmaFragments &F, const KernelSpec &s, Value buf,
                           Value tid, int64_t threads, ArrayRef<Value> srcs,
                           Value bh, Value row0, Value limit, int64_t rows) {
  SwizzledTiles t = swizzledTiles(F, buf, rows, s.tileD());
  Value last;
  for (int64_t i = 0; i < int64_t(srcs.size()); ++i)
    last = F.copyTile(tid, threads, srcs[i], bh, row0, limit, rows, s.tileD(),
                      t.buf, [&, i](OpBuilder &ib, Value r, Value col) {
                        return t.at(ib, F.loc, i, r, col);
                      });
  F.waitAll(last);
  F.fenceProxyAsync();
  gpu::BarrierOp::create(F.b, F.loc);
  return t;
}

/// Tile i of sharedATiles' buffer as this warpgroup's A operand (K-major):
/// its 64 rows of the block's (64 rows of 128 bytes per 64-column group, in
/// the descriptor's 16-byte units).
Value sharedADescriptor(MmaFragments &F, const SwizzledTiles &t, int64_t i,
                        Value tid, int64_t warps) {
  Value desc = t.descriptor(F, i, /*mnMajor=*/false);
  if (warps <= 4)
    return desc;
  OpBuilder &b = F.b;
  Value wg = arith::IndexCastUIOp::create(b, F.loc, b.getI64Type(),
                                          warpGroupIndex(b, F.loc, tid));
  return arith::AddIOp::create(
      b, F.loc, desc,
      arith::MulIOp::create(b, F.loc, wg,
                            arith::ConstantIntOp::create(
                                b, F.loc, b.getI64Type(), 64 * 128 / 16)));
}

/// Stores a 16-row block of C tiles (scaled by `mul`) as `elt` to
/// mem[bh][rows[r]][col0 + dt*8 + 2t ..] for rows < limit.
void storeRows(OpBuilder &b, Location loc, Type elt, Value mem, Value bh,
               Value rows[2], Value limit, Value t2, ArrayRef<Value> acc,
               float mul, Value col0 = {}) {
  if (col0)
    t2 = arith::AddIOp::create(b, loc, t2, col0);
  // (Only mem's columns: past them a padded head dim's tiles, tileD.)
  const int64_t width = cast<MemRefType>(mem.getType()).getShape().back();
  assert(!col0 || int64_t(acc.size()) * 8 <= width);
  auto v2f = VectorType::get({2}, b.getF32Type());
  for (int r = 0; r < 2; ++r) {
    Value active =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rows[r],
                              limit);
    scf::IfOp::create(b, loc, active, [&](OpBuilder &ib, Location il) {
      KernelBuilder ki{ib, il};
      Value m = vector::BroadcastOp::create(ib, il, v2f, ki.f(mul));
      for (auto [dt, c] : llvm::enumerate(acc)) {
        if (static_cast<int64_t>(dt) * 8 >= width)
          break;
        Value x = vector::ExtractOp::create(ib, il, c, ArrayRef<int64_t>{r});
        x = arith::MulFOp::create(ib, il, x, m);
        x = arith::TruncFOp::create(ib, il, VectorType::get({2}, elt), x);
        storePair(
            ib, il, x, mem,
            ValueRange{bh, rows[r],
                       arith::AddIOp::create(
                           ib, il, t2, ki.c(static_cast<int64_t>(dt) * 8))});
      }
      scf::YieldOp::create(ib, il);
    });
  }
}
} // namespace

gpu::GPUFuncOp gpukernels::buildGradQMmaKernel(OpBuilder &ob, Location loc,
                                               StringRef name,
                                               const KernelSpec &s) {
  MLIRContext *ctx = ob.getContext();
  Type elt = s.elt;
  const int64_t warps = s.mmaWarps, threads = warps * 32, D = s.tileD();
  const int64_t kTile = mmaGradTile(s, /*kv=*/false);
  const int64_t kSteps = D / 16, dTiles = D / 8, nTiles = kTile / 8;
  // Past d = 128 (wgmma) Q and dO as A fragments would take 128 registers
  // next to dQ's 128: S and dP read them from shared memory instead (one
  // [rows, D] tile each, loaded once).
  const bool aShared = gradAShared(s);
  // grad-producer: a producer warpgroup after the consumer warps copies
  // the K and V tiles (as in the dK/dV kernel, below).
  const bool producer = gradQProducer(s);
  SmallVector<Type> bufs = mmaTileBuffers(ctx, s, kTile, /*stages=*/2);
  if (aShared)
    bufs.push_back(swizzledBufferType(ctx, elt, 2, warps * 16, D));
  const int64_t barBuf = bufs.size();
  if (producer)
    bufs.push_back(MemRefType::get(
        {4}, ob.getI64Type(), MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)));
  auto fn =
      newKernel(ob, loc, name, s, gradQArgTypes(ctx, s), bufs, gradQThreads(s));
  limitRegisters(fn, s, /*backward=*/true);
  if (producer)
    fn->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                IntegerAttr::get(IntegerType::get(ctx, 32),
                                 gradRegisters(s, /*kv=*/false).launch));
  OpBuilder b = OpBuilder::atBlockBegin(&fn.front());
  KernelBuilder kb{b, loc};
  // The operands by batch-head: [BH, Nq, D], [BHkv, Nk, D], [BH, Nq].
  Value nq = s.nqValue(kb), nk = s.nkValue(kb);
  auto [byQ, byKV] = batchHeadViews(kb, s, fn);
  Value q = byQ(0), k = byKV(1), v = byKV(2), o = byQ(3), lse = byQ(4),
        dO = byQ(5), dq = byQ(6), delta = byQ(7);
  Value mask = s.mask ? fn.getArgument(8) : Value();
  Value kS = fn.getWorkgroupAttributions()[0];
  Value vS = fn.getWorkgroupAttributions()[s.wgmma ? 0 : 1];

  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value bh = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  MmaFragments F = mmaFragments(b, loc, elt, tid);
  MmaFragments::WarpRows w = F.warpRows(bx, tid, warps, nq);
  Value *rows = w.rows, *rowsc = w.clamped;
  Value kvbh = F.kvHead(s, bh);
  Value rowLimit[2];
  Value kvEnd = F.kvEnd(s, w, warps * 16, rowLimit);
  // Modifiers: the regions' positions and captured buffers; a mask_mod's
  // affine bounds narrow the keys the block visits.
  KernelModifiers mods(kb, s, fn, bh, {rowsc[0], rowsc[1]},
                       /*fixedIsKey=*/false);
  Value kvStart = kb.c(0);
  bool exact = true;
  std::optional<MaskTiles> mt;
  if (s.maskMod) {
    mt = mods.tiles(kb, /*swap=*/false, w.base,
                    F.add(w.base, kb.c(warps * 16 - 1)), kvEnd, kTile,
                    /*inner=*/true);
    kvStart = mt->start;
    kvEnd = mt->end;
    exact = mt->exact;
  }
  // Key tiles every row of the block sees in full, [fullFrom, fullTo):
  // before the first row's causal limit and the Nk edge, inside a
  // mask_mod's inner tiles. They run without the checks (a branch in the
  // loop's step, as the block mask's full tiles do); with neither a causal
  // limit nor a mask_mod and whole tiles of keys, every tile (allFull).
  // The branch at d <= 64 only: there the causal backward ran 1.07-1.10x
  // (H100, session 37, against 1.00-1.02x for the same code non-causal);
  // at d = 128 0.66-0.96x against 0.89-0.97x, and ptxas took 0.89 -> 1.12 s.
  Value fullFrom, fullTo;
  const bool allFull = !mask && !s.causalOffset && !s.maskMod &&
                       !ShapedType::isDynamic(s.nk) && s.nk % kTile == 0;
  if (!mask && exact && !s.packedQueries && !allFull && s.tileD() <= 64) {
    fullFrom = mt ? mt->innerStart : kvStart;
    fullTo = roundToTile(kb, nk, kTile, /*up=*/false);
    if (s.causalOffset)
      fullTo = arith::MinSIOp::create(
          b, loc, fullTo,
          roundToTile(kb, F.add(w.base, s.causalOffsetValue(kb, 1)), kTile,
                      /*up=*/false));
    if (mt)
      fullTo = arith::MinSIOp::create(b, loc, fullTo, mt->innerEnd);
  }
  // A mask_mod beyond its affine bounds (a document mask): key tiles no row
  // of the block sees are skipped, by the block mask.
  const bool skip = !exact;
  std::optional<TileCursor> cursor;
  SmallVector<Value> cursorState;
  if (skip) {
    cursor =
        blockMaskCursor(kvEnd, kTile, [&](OpBuilder &cb, Location cl, Value t) {
          KernelBuilder kc{cb, cl};
          return blockMaskBits(kc, s, fn, bh, w.base, warps * 16, t, kTile);
        });
    cursorState = cursor->seek(b, loc, kvStart);
    kvStart = cursorState.front();
    cursorState.erase(cursorState.begin());
  }
  // Visibility by key ranges (visibilityIsRanges): each row's [lo, hi).
  const bool partialRanges = mods.visibilityIsRanges();
  Value keyLo[2], keyHi[2];
  for (int r = 0; partialRanges && r < 2; ++r) {
    keyLo[r] = kb.c(0);
    keyHi[r] = visibleKeyEnd(kb, s, rowLimit[r]);
    mods.narrowToVisible(kb, /*swap=*/false, rowsc[r], keyLo[r], keyHi[r]);
  }
  // wgmma: K (tile 0 of a stage) is read K-major for S and MN-major for
  // dS K, V (tile 1) K-major for dP.
  GradTiles tiles{s, tid, threads, kTile, nk, k, v, kS, vS, std::nullopt};
  Value kDesc, kDescT, vDesc;
  if (s.wgmma) {
    tiles.sw = swizzledTiles(F, kS, kTile, D);
    kDesc = tiles.sw->descriptor(F, 0, false);
    kDescT = tiles.sw->descriptor(F, 0, true);
    vDesc = tiles.sw->descriptor(F, 1, false);
  }
  const std::optional<SwizzledTiles> &sw = tiles.sw;
  std::optional<StageBarriers> bars;
  if (producer)
    bars = initGradRing(F, fn.getWorkgroupAttributions()[barBuf], tid, threads,
                        /*dqTiles=*/false, /*fullArrivals=*/1);
  std::optional<SwizzledTiles> aSw;
  Value qADesc, doADesc;
  if (aShared) {
    aSw = sharedATiles(F, s, fn.getWorkgroupAttributions()[1], tid,
                       gradQThreads(s), {q, dO}, bh, w.base, nq, warps * 16);
    qADesc = sharedADescriptor(F, *aSw, 0, tid, warps);
    doADesc = sharedADescriptor(F, *aSw, 1, tid, warps);
  }
  // grad-producer: the producer copies the K and V tiles of the block's
  // keys in the consumers' order into the two-stage ring.
  scf::IfOp roles;
  if (producer) {
    roles = splitRoles(b, loc, s, /*kv=*/false, tid, threads);
    OpBuilder pb = roles.getThenBodyBuilder();
    // K and V by TMA (the op's tensor maps) from the issuing warp's lane.
    Value leader = enterIssuingWarp(pb, loc, tid, threads);
    Value kMap = tensorMapArg(fn, s, "k"), vMap = tensorMapArg(fn, s, "v");
    tileLoop(pb, loc, kvStart, kvEnd, kTile,
             ValueRange{arith::ConstantIndexOp::create(pb, loc, 0)},
             cursor ? &*cursor : nullptr, cursorState,
             [&](OpBuilder &lb, Location l, Value jt, ValueRange args, Value,
                 ValueRange) -> SmallVector<Value> {
               MmaFragments G{lb, l, elt, F.lrow, F.lmat, F.g, F.t2};
               // (Zero past Nk, where the consumers' P and dS are 0.)
               auto [stage, phase] = ringSlot(lb, l, args[0]);
               bars->waitReleased(lb, l, kGradEmpty, stage, phase);
               Value tile = arith::MulIOp::create(lb, l, stage, G.c(2));
               Value vTile = G.add(tile, G.c(1));
               scf::IfOp::create(
                   lb, l, leader, [&](OpBuilder &ib, Location il) {
                     bars->arriveExpectBytes(ib, il, kGradFull, stage,
                                             2 * kTile * D * 2);
                     Value bar = bars->ptr(ib, il, kGradFull, stage);
                     loadTile(ib, il, *sw, tile, kMap, kvbh, jt, bar);
                     loadTile(ib, il, *sw, vTile, vMap, kvbh, jt, bar);
                     scf::YieldOp::create(ib, il);
                   });
               return {G.add(args[0], G.c(1))};
             });
  }

  Value maskBase = mask ? maskLeadBase(kb, s, bh) : Value();
  // Q and dO as A fragments; D = rowsum(dO * O) from the same positions,
  // reduced over the 4 lanes of a row; lse per row.
  SmallVector<Value> qA, doA;
  Value dRow[2] = {kb.f(0.0f), kb.f(0.0f)}, lse2[2];
  for (int64_t ks = 0; ks < kSteps; ++ks) {
    Value doF = F.aFromGlobal(dO, bh, rowsc[0], rowsc[1], ks * 16);
    if (!aShared) {
      qA.push_back(F.aFromGlobal(q, bh, rowsc[0], rowsc[1], ks * 16));
      doA.push_back(doF);
    }
    Value oA = F.aFromGlobal(o, bh, rowsc[0], rowsc[1], ks * 16);
    for (int64_t i = 0; i < 4; ++i)
      for (int64_t j = 0; j < 2; ++j) {
        Value x = kb.toF32(at(b, loc, doF, i, j));
        Value y = kb.toF32(at(b, loc, oA, i, j));
        dRow[i % 2] = fmac(b, loc, x, y, dRow[i % 2]);
      }
  }
  for (int r = 0; r < 2; ++r) {
    for (int32_t x : {1, 2})
      dRow[r] = arith::AddFOp::create(
          b, loc, dRow[r],
          gpu::ShuffleOp::create(b, loc, dRow[r], x, 32, gpu::ShuffleMode::XOR)
              .getShuffleResult());
    lse2[r] = lseLog2(
        kb, memref::LoadOp::create(b, loc, lse, ValueRange{bh, rowsc[r]}));
    Value write = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rows[r],
                              nq),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, F.t2, kb.c(0)));
    scf::IfOp::create(b, loc, write, [&](OpBuilder &ib, Location il) {
      memref::StoreOp::create(ib, il, dRow[r], delta, ValueRange{bh, rows[r]});
      scf::YieldOp::create(ib, il);
    });
  }

  // Loop-carried: the dQ accumulators; wgmma: the pending copies of this
  // step's tiles and their stage.
  SmallVector<Value> inits;
  for (int64_t dt = 0; dt < dTiles; ++dt)
    inits.push_back(F.zeroC());
  if (producer) {
    inits.push_back(kb.c(0));
  } else if (sw) {
    inits.push_back(tiles.issue(F, kvbh, kvStart, kb.c(0)));
    tiles.settle(F, inits.back());
    inits.push_back(kb.c(0));
  }
  // One key tile; `full`: one the block sees in full (by the block mask),
  // without the mask_mod.
  auto tileStep = [&](bool full) {
    return [&, full](OpBuilder &lb, Location l, Value jt, ValueRange args,
                     Value nextTile) -> SmallVector<Value> {
      KernelBuilder kl{lb, l};
      MmaFragments G{lb, l, elt, F.lrow, F.lmat, F.g, F.t2};
      GradTiles::Step st;
      Value stage;
      if (producer) {
        stage = consumeStage(G, *bars, args[dTiles], /*byTMA=*/true);
        st.firstTile = arith::MulIOp::create(lb, l, stage, G.c(2));
      } else {
        st = sw ? tiles.begin(G, kvbh, jt, args[dTiles + 1], nextTile)
                : tiles.begin(G, kvbh, jt, Value(), Value());
      }
      Value kD, kDT, vD;
      if (sw) {
        kD = sw->advance(G, kDesc, st.firstTile);
        kDT = sw->advance(G, kDescT, st.firstTile);
        vD = sw->advance(G, vDesc, st.firstTile);
      }
      // S = Q K^T, dP = dO V^T.
      auto [sAll, dpAll] = tiles.products(
          G, qA, doA, kD, vD, nTiles, aSw ? &*aSw : nullptr, qADesc, doADesc);
      // The rows' key ranges relative to this thread's keys jt + t2 + c
      // (c = nt 8 + j): two compares with an immediate per score. A tile
      // full by the bounds (no block mask) checks nothing; one full by the
      // block mask still masks dS by the causal limit and Nk.
      const bool clear = full && !cursor;
      const bool ranges = partialRanges && !clear;
      Value relLo[2], relHi[2];
      for (int r = 0; ranges && r < 2; ++r) {
        relLo[r] = relativeBound(kl, keyLo[r], G.add(jt, G.t2), kTile);
        relHi[r] = relativeBound(kl, keyHi[r], G.add(jt, G.t2), kTile);
      }
      // P (with dP's product in flight), then dS.
      struct Term {
        Value p, dMod, vis;
      };
      SmallVector<Term> terms;
      for (int64_t nt = 0; nt < nTiles; ++nt) {
        Value sC = sAll[nt];
        for (int64_t r = 0; r < 2; ++r)
          for (int64_t j = 0; j < 2; ++j) {
            Value x = at(lb, l, sC, r, j), dMod, vis, arg, keyc;
            if (!ranges || s.scoreMod) {
              Value key = G.add(jt, G.add(G.t2, kl.c(nt * 8 + j)));
              keyc = arith::MinUIOp::create(lb, l, key, s.nkValue(kl, -1));
              if (!ranges && !clear)
                vis = keyVisible(kl, s, rowLimit[r], key);
            }
            if (ranges) {
              vis = inRange(kl, relLo[r], relHi[r], nt * 8 + j);
              arg = mods.gradExponent(kl, r, x, rowsc[r], keyc, lse2[r], dMod);
            } else if (mask) {
              arg = mods.gradExponentMasked(kl, r, x, rowsc[r], keyc, lse2[r],
                                            mask, maskBase, dMod, vis);
            } else if (full) {
              arg = mods.gradExponent(kl, r, x, rowsc[r], keyc, lse2[r], dMod);
            } else {
              arg = mods.gradExponent(kl, r, x, rowsc[r], keyc, lse2[r], dMod,
                                      vis);
            }
            terms.push_back({exp2(lb, l, arg), dMod, vis});
          }
      }
      dpAll = tiles.second(G, dpAll, doA);
      SmallVector<Value> dsC;
      for (int64_t nt = 0; nt < nTiles; ++nt) {
        Value ds = G.zeroC();
        for (int64_t r = 0; r < 2; ++r)
          for (int64_t j = 0; j < 2; ++j) {
            const Term &t = terms[4 * nt + 2 * r + j];
            Value d = arith::SubFOp::create(lb, l, at(lb, l, dpAll[nt], r, j),
                                            dRow[r]);
            ds = put(lb, l, KernelModifiers::dScore(kl, t.p, d, t.dMod, t.vis),
                     ds, r, j);
          }
        dsC.push_back(ds);
      }
      // dQ += dS K (K read as B by ldmatrix.trans, or MN-major).
      SmallVector<Value> acc(args.take_front(dTiles)), dsA;
      for (int64_t kk = 0; kk < nTiles / 2; ++kk)
        dsA.push_back(G.cToA(dsC[2 * kk], dsC[2 * kk + 1]));
      if (producer) {
        acc = G.wgmma(acc, dsA, kDT, sw->mnMajorSteps(), true);
        bars->arrive(lb, l, kGradEmpty, stage);
        acc.push_back(G.add(args[dTiles], G.c(1)));
        return acc;
      }
      if (sw) {
        acc = G.wgmma(acc, dsA, kDT, sw->mnMajorSteps(), true);
        acc.push_back(st.next);
        acc.push_back(st.nextStage);
      } else {
        for (int64_t kk = 0; kk < nTiles / 2; ++kk) {
          SmallVector<Value> kB = G.bFrags(kS, kl.c(kk * 16), 0, dTiles, true);
          for (int64_t dt = 0; dt < dTiles; ++dt)
            acc[dt] = G.mma(dsA[kk], kB[dt], acc[dt]);
        }
      }
      tiles.settle(G, st.next);
      return acc;
    };
  };
  SmallVector<Value> loop = blockMaskTileLoop(
      b, loc, kvStart, kvEnd, kTile, inits, cursor ? &*cursor : nullptr,
      cursorState, /*partialOnly=*/bool(mask),
      [&](OpBuilder &lb, Location l, Value jt, ValueRange args, Value nextTile,
          bool full) {
        return tileStep(full || allFull)(lb, l, jt, args, nextTile);
      },
      fullFrom, fullTo);
  SmallVector<Value> res(ArrayRef<Value>(loop).take_front(dTiles));
  storeRows(b, loc, elt, dq, bh, rows, nq, F.t2, res, s.scale);
  if (roles)
    b.setInsertionPointAfter(roles);
  gpu::ReturnOp::create(b, loc);
  return fn;
}

gpu::GPUFuncOp gpukernels::buildGradKVMmaKernel(OpBuilder &ob, Location loc,
                                                StringRef name,
                                                const KernelSpec &s) {
  MLIRContext *ctx = ob.getContext();
  Type elt = s.elt;
  const int64_t warps = s.mmaWarps, threads = warps * 32, D = s.tileD();
  const int64_t kTile = mmaGradTile(s, /*kv=*/true);
  const int64_t kSteps = D / 16, dTiles = D / 8, nTiles = kTile / 8;
  const int64_t group = s.hq / s.hkv;
  // grad-producer: a producer warpgroup after the consumer warps.
  const bool producer = s.gradProducer;
  const int64_t consumerThreads = threads;
  // Past d = 128, K and V in shared memory (gradAShared), and the block's
  // two warpgroups split each step by roles (gradKVSplit): both take the
  // block's 64 keys; the first computes S^T, P^T and dV, the second dP^T,
  // dS^T and dK (128 accumulator registers each).
  const bool split = gradKVSplit(s);
  assert((!split || warps == 8) && "split by roles: two warpgroups");
  const int64_t blockKeys = split ? 64 : warps * 16;
  const bool aShared = gradAShared(s);
  // The accumulators: dK's tiles, then dV's (split by roles: the
  // warpgroup's one of them).
  const int64_t outTiles = dTiles;
  SmallVector<Type> bufs = mmaTileBuffers(ctx, s, kTile, /*stages=*/2);
  if (s.wgmma)
    bufs.push_back(MemRefType::get(
        {4 * kTile}, ob.getF32Type(), MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)));
  if (aShared)
    bufs.push_back(swizzledBufferType(ctx, elt, 2, blockKeys, D));
  // dQ by reductions: a step's dS ([queries, keys]), with the K tile the
  // operands of dQ^T = K^T dS^T.
  const bool atomicDQ = s.gradAtomicDQ;
  const int64_t dqStride = D + 4;
  assert((!atomicDQ || (aShared && !split)) &&
         "dQ by reductions: K in shared memory, up to d = 128");
  if (atomicDQ) {
    bufs.push_back(swizzledBufferType(ctx, elt, 1, kTile, blockKeys));
    // dQ's tile [queries, D + 4] f32 for the bulk reductions, a row each
    // (+16 bytes to align it): with rows D words apart the lanes of a
    // warp's store would hit 8 banks four times each, with D + 4 all 32.
    // With a producer, one per stage (its dQ writer, below).
    bufs.push_back(MemRefType::get(
        {(producer ? 2 : 1) * kTile * dqStride + 4}, ob.getF32Type(),
        MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)));
  }
  // Split by roles: P^T's f32 factors of dS^T (P^T times a score_mod's
  // derivative, 0 where masked) in the fragments' order.
  const int64_t exBuf = bufs.size();
  if (split) {
    bufs.push_back(MemRefType::get(
        {4 * nTiles * 128}, ob.getF32Type(), MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)));
  }
  // grad-producer: the ring's mbarriers (full 0, 1; empty 0, 1).
  const int64_t barBuf = bufs.size();
  if (producer)
    bufs.push_back(MemRefType::get(
        {atomicDQ ? 6 : 4}, ob.getI64Type(), MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)));
  auto fn = newKernel(ob, loc, name, s, gradKVArgTypes(ctx, s), bufs,
                      gradKernelThreads(s));
  limitRegisters(fn, s, /*backward=*/true);
  if (producer)
    fn->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                IntegerAttr::get(IntegerType::get(ctx, 32),
                                 gradRegisters(s, /*kv=*/true).launch));
  OpBuilder b = OpBuilder::atBlockBegin(&fn.front());
  KernelBuilder kb{b, loc};
  // The operands by batch-head: [BH, Nq, D], [BHkv, Nk, D], [BH, Nq].
  Value nq = s.nqValue(kb), nk = s.nkValue(kb);
  auto [byQ, byKV] = batchHeadViews(kb, s, fn);
  Value q = byQ(0), k = byKV(1), v = byKV(2), lse = byQ(3), dO = byQ(4),
        delta = byQ(5), dk = byKV(6), dv = byKV(7);
  Value mask = s.mask ? fn.getArgument(8) : Value();
  Value qS = fn.getWorkgroupAttributions()[0];
  Value doS = fn.getWorkgroupAttributions()[s.wgmma ? 0 : 1];

  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value kvbh = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  MmaFragments F = mmaFragments(b, loc, elt, tid);
  // Split by roles: both warpgroups take the block's 64 keys; `role` is
  // the warpgroup's.
  Value role = split ? warpGroupIndex(b, loc, tid) : Value();
  MmaFragments::WarpRows w =
      split ? F.warpRows(bx, arith::RemUIOp::create(b, loc, tid, kb.c(128)), 4,
                         nk)
            : F.warpRows(bx, tid, warps, nk);
  Value keyBase = w.base, *keys = w.rows, *keysc = w.clamped;
  Value bIdx = arith::DivUIOp::create(b, loc, kvbh, kb.c(s.hkv));
  Value hkv = arith::RemUIOp::create(b, loc, kvbh, kb.c(s.hkv));
  Value firstQHead = F.add(arith::MulIOp::create(b, loc, bIdx, kb.c(s.hq)),
                           arith::MulIOp::create(b, loc, hkv, kb.c(group)));
  // Queries that see a key of this block: q >= keyBase - off.
  Value qStart = kb.c(0);
  if (s.causalOffset) {
    Value first = arith::MaxSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, keyBase, s.causalOffsetValue(kb)),
        kb.c(0));
    qStart = arith::MulIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, first, kb.c(kTile)),
        kb.c(kTile));
    qStart = arith::MinUIOp::create(b, loc, qStart,
                                    b.createOrFold<arith::MulIOp>(
                                        loc,
                                        b.createOrFold<arith::CeilDivUIOp>(
                                            loc, nq, kb.c(kTile)),
                                        kb.c(kTile)));
  }

  // wgmma: Q (tile 0 of a stage) and dO (tile 1) are read K-major for S^T
  // and dP^T, MN-major for dK and dV.
  GradTiles tiles{s, tid, threads, kTile, nq, q, dO, qS, doS, std::nullopt};
  Value qDesc, qDescT, doDesc, doDescT;
  if (s.wgmma) {
    tiles.colLse = lse;
    tiles.colD = delta;
    tiles.colBuf = fn.getWorkgroupAttributions()[1];
    tiles.sw = swizzledTiles(F, qS, kTile, D);
    qDesc = tiles.sw->descriptor(F, 0, false);
    qDescT = tiles.sw->descriptor(F, 0, true);
    doDesc = tiles.sw->descriptor(F, 1, false);
    doDescT = tiles.sw->descriptor(F, 1, true);
  }
  const std::optional<SwizzledTiles> &sw = tiles.sw;

  SmallVector<Value> kA, vA;
  for (int64_t ks = 0; !aShared && ks < kSteps; ++ks) {
    kA.push_back(F.aFromGlobal(k, kvbh, keysc[0], keysc[1], ks * 16));
    vA.push_back(F.aFromGlobal(v, kvbh, keysc[0], keysc[1], ks * 16));
  }
  // Past d = 128: K and V from shared memory.
  std::optional<SwizzledTiles> aSw;
  Value kADesc, vADesc;
  std::optional<StageBarriers> bars;
  if (producer)
    bars = initGradRing(F, fn.getWorkgroupAttributions()[barBuf], tid,
                        consumerThreads, atomicDQ);
  if (aShared) {
    aSw = sharedATiles(F, s, fn.getWorkgroupAttributions()[2], tid,
                       gradKernelThreads(s), {k, v}, kvbh, keyBase, nk,
                       blockKeys);
    kADesc = sharedADescriptor(F, *aSw, 0, tid, split ? 4 : warps);
    vADesc = sharedADescriptor(F, *aSw, 1, tid, split ? 4 : warps);
  }
  Value exW = split ? Value(fn.getWorkgroupAttributions()[exBuf]) : Value();
  // dQ by reductions: dS's tile (B, K-major), K's (A of dQ^T, M-contiguous:
  // its 64-column groups by descriptor); the f32 dQ. dQ^T of a query tile
  // is D x kTile; with two warpgroups each takes its 64-row groups of D
  // (d = 128), or half of the queries (d = 64).
  const int64_t wgs = warps / 4;
  const bool dqByRows = (D / 64) % wgs == 0;
  const int64_t dqGroups = dqByRows ? D / 64 / wgs : 1,
                dqTiles = dqByRows ? nTiles : nTiles / wgs;
  std::optional<SwizzledTiles> dsSw;
  Value kDescT, dsDesc, dqAcc, localKey[2], dqRow[2], dqTile, dqTileAt,
      dqTileAddr, dqRowAddr, leader, dqAccAddr, wg;
  if (atomicDQ) {
    dsSw = swizzledTiles(F, fn.getWorkgroupAttributions()[3], kTile, blockKeys);
    kDescT = aSw->descriptor(F, 0, /*mnMajor=*/true);
    dsDesc = dsSw->descriptor(F, 0, /*mnMajor=*/false);
    wg = warpGroupIndex(b, loc, tid);
    if (!dqByRows)
      dsDesc = arith::AddIOp::create(
          b, loc, dsDesc,
          arith::MulIOp::create(
              b, loc, arith::IndexCastUIOp::create(b, loc, b.getI64Type(), wg),
              arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                           dqTiles * 8 * 128 / 16)));
    dqAcc = scratchBuffer(fn, s);
    // The lane's key in the block (dS's column), its row in its
    // warpgroup's 64 (dQ^T's row in a group of D).
    for (int r = 0; r < 2; ++r) {
      localKey[r] = arith::SubIOp::create(b, loc, keys[r], keyBase);
      dqRow[r] = arith::RemUIOp::create(b, loc, localKey[r], kb.c(64));
    }
    // The tile's first element at a 16-byte boundary.
    dqTile = fn.getWorkgroupAttributions()[4];
    Value addr = F.sharedAddress(dqTile);
    auto i64c = [&](int64_t v) {
      return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v)
          .getResult();
    };
    dqTileAddr = arith::AndIOp::create(
        b, loc, arith::AddIOp::create(b, loc, addr, i64c(15)), i64c(~15));
    dqTileAt = arith::IndexCastUIOp::create(
        b, loc, b.getIndexType(),
        arith::DivUIOp::create(
            b, loc, arith::SubIOp::create(b, loc, dqTileAddr, addr), i64c(4)));
  }
  // Row q's addresses for the bulk reductions: the accumulator's (from a
  // tile's first) and the staging tile's (dQ tile `stage` with a producer).
  auto dqRowAddresses = [&](OpBuilder &ib, Location il, Value q,
                            Value stage) -> std::pair<Value, Value> {
    auto i64 = [&](Value x) {
      return arith::IndexCastUIOp::create(ib, il, ib.getI64Type(), x)
          .getResult();
    };
    auto i64c = [&](int64_t v) {
      return arith::ConstantIntOp::create(ib, il, ib.getI64Type(), v)
          .getResult();
    };
    Value acc = arith::AddIOp::create(
        ib, il,
        i64(memref::ExtractAlignedPointerAsIndexOp::create(ib, il, dqAcc)),
        arith::MulIOp::create(ib, il, i64(q), i64c(D * 4)));
    Value tile = arith::AddIOp::create(
        ib, il, dqTileAddr,
        arith::MulIOp::create(ib, il, i64(q), i64c(dqStride * 4)));
    if (stage)
      tile = arith::AddIOp::create(
          ib, il, tile,
          arith::MulIOp::create(ib, il, i64(stage),
                                i64c(kTile * dqStride * 4)));
    return {acc, tile};
  };
  // (Producer thread or) thread q < kTile adds row q of the tile.
  auto isRowThread = [&](OpBuilder &ib, Location il, Value q) -> Value {
    return arith::CmpIOp::create(ib, il, arith::CmpIPredicate::ult, q,
                                 arith::ConstantIndexOp::create(ib, il, kTile));
  };
  if (atomicDQ) {
    std::tie(dqAccAddr, dqRowAddr) = dqRowAddresses(b, loc, tid, Value());
    leader = isRowThread(b, loc, tid);
  }
  // Row `row` (< kTile) of dQ's staging tile `tileAddr` added into the
  // accumulator's row it + row of query batch-head qbh by one bulk
  // reduction (accRow: the accumulator's address plus row's D * 4 bytes).
  // (first: the accumulator's index of the tile's first element.)
  auto reduceRowAt = [&](OpBuilder &ib, Location il, Value accRow,
                         Value tileRow, Value first) {
    MmaFragments I{ib, il, elt, F.lrow, F.lmat, F.g, F.t2};
    Value global = arith::AddIOp::create(
        ib, il, accRow,
        arith::MulIOp::create(
            ib, il,
            arith::IndexCastUIOp::create(ib, il, ib.getI64Type(), first),
            arith::ConstantIntOp::create(ib, il, ib.getI64Type(), 4)));
    I.bulkReduceAddF32(global, tileRow, D * 4);
  };
  // The query tiles of head qbh the block visits (the producer and the
  // consumers each walk the same): a mask_mod's affine bounds narrow the
  // queries that see the block's keys; beyond them, query tiles that see
  // none of the block's keys are skipped, by the block mask. Without a
  // mask operand or a mask_mod, the tiles every query of which sees every
  // key of the block, [fullFrom, fullTo): from the first query that sees
  // the block's last key causally, before the Nq edge. They run without
  // the checks (a branch in the loop's step; at d <= 64 only, as the dQ
  // kernel's). (A window's
  // inner tiles the same way spilled 16 bytes at d = 128, and so did the
  // causal kernel with dQ by reductions.)
  const bool allFullQ = !mask && !s.causalOffset && !s.maskMod &&
                        !ShapedType::isDynamic(s.nq) && s.nq % kTile == 0;
  struct HeadTiles {
    Value from, end, fullFrom, fullTo;
    std::optional<TileCursor> cursor;
    SmallVector<Value> state;
  };
  auto headTiles = [&](KernelBuilder &khb, Value qbh, KernelModifiers &mods) {
    OpBuilder &hb = khb.b;
    Location hl = khb.loc;
    HeadTiles h{qStart, nq, Value(), Value(), std::nullopt, {}};
    bool exact = true;
    Value keyLast =
        arith::AddIOp::create(hb, hl, keyBase, khb.c(blockKeys - 1));
    if (s.maskMod) {
      MaskTiles mt =
          mods.tiles(khb, /*swap=*/true, keyBase, keyLast, h.end, kTile);
      h.from = arith::MaxSIOp::create(hb, hl, mt.start, qStart);
      h.end = mt.end;
      exact = mt.exact;
    } else if (!mask && !allFullQ && !s.gradAtomicDQ && s.tileD() <= 64) {
      h.fullFrom = h.from;
      if (s.causalOffset)
        h.fullFrom = arith::MaxSIOp::create(
            hb, hl, h.fullFrom,
            roundToTile(khb,
                        arith::SubIOp::create(hb, hl, keyLast,
                                              s.causalOffsetValue(khb)),
                        kTile, /*up=*/true));
      h.fullTo = roundToTile(khb, nq, kTile, /*up=*/false);
    }
    if (!exact) {
      h.cursor = blockMaskCursor(
          h.end, kTile, [&, qbh](OpBuilder &cb, Location cl, Value t) {
            KernelBuilder kc{cb, cl};
            return blockMaskBits(kc, s, fn, qbh, t, kTile, keyBase, blockKeys);
          });
      h.state = h.cursor->seek(khb.b, khb.loc, h.from);
      h.from = h.state.front();
      h.state.erase(h.state.begin());
    }
    return h;
  };
  // grad-producer: the producer warpgroup (the last) copies each query
  // tile's Q and dO, and their lse and D columns, in the consumers' order
  // into a two-stage ring (the tile's place in that order, counted over the
  // heads, is its slot); a consumer thread waits for its stage to land and
  // arrives once its products have read it. The consumers pass no
  // block-wide barrier (dQ by reductions: one named barrier of theirs a
  // step).
  // The consumers' barrier: the block's, or with a producer named barrier 1
  // of the consumer threads.
  auto consumerBarrier = [&](OpBuilder &lb, Location l) {
    if (!producer) {
      gpu::BarrierOp::create(lb, l);
      return;
    }
    namedBarrier(lb, l, 1, consumerThreads, /*sync=*/true);
  };
  scf::IfOp roles;
  if (producer) {
    roles = splitRoles(b, loc, s, /*kv=*/true, tid, consumerThreads);
    OpBuilder pb = roles.getThenBodyBuilder();
    KernelBuilder kp{pb, loc};
    Value ptid = arith::SubIOp::create(pb, loc, tid, kp.c(consumerThreads));
    Value qMap = tensorMapArg(fn, s, "q"), doMap = tensorMapArg(fn, s, "do");
    // dQ by reductions (FlashAttention-3's dQ writer): the consumers stage
    // tile n's dQ into dQ tile n % 2 before they release stage n % 2; the
    // producer, once it has issued tile n's copies into that stage, adds
    // tile n - 2's dQ into the accumulator (producer thread q < kTile its
    // row q: one bulk reduction), waits until they have read it and
    // releases the dQ tile; after the last tile, the last two. Carried:
    // the tiles done, and the accumulator's index of the last two's first
    // elements.
    // Writes tile m's dQ (in dQ tile m % 2; the accumulator's index of its
    // first element: first). (The addresses from ptid here, not kept in
    // the producer's 24 registers.)
    auto isWriter = [&](OpBuilder &ib, Location il) {
      return isRowThread(ib, il, ptid);
    };
    auto writeDQ = [&](OpBuilder &ib, Location il, Value m, Value first) {
      scf::IfOp::create(
          ib, il, isWriter(ib, il), [&](OpBuilder &wb, Location wl) {
            Value stage = arith::RemUIOp::create(
                wb, wl, m, arith::ConstantIndexOp::create(wb, wl, 2));
            auto [accRow, tileRow] = dqRowAddresses(wb, wl, ptid, stage);
            reduceRowAt(wb, wl, accRow, tileRow, first);
            scf::YieldOp::create(wb, wl);
          });
    };
    SmallVector<Value> pInits{kp.c(0)};
    if (atomicDQ)
      pInits.append({kp.c(0), kp.c(0)});
    auto pHeads = scf::ForOp::create(
        pb, loc, kp.c(0), kp.c(group), kp.c(1), pInits,
        [&](OpBuilder &hb, Location hl, Value gh, ValueRange n0) {
          KernelBuilder khb{hb, hl};
          Value qbh = arith::AddIOp::create(hb, hl, firstQHead, gh);
          KernelModifiers mods(khb, s, fn, qbh, {keysc[0], keysc[1]},
                               /*fixedIsKey=*/true);
          HeadTiles h = headTiles(khb, qbh, mods);
          SmallVector<Value> n = tileLoop(
              hb, hl, h.from, h.end, kTile, n0, h.cursor ? &*h.cursor : nullptr,
              h.state,
              [&](OpBuilder &lb, Location l, Value it, ValueRange args, Value,
                  ValueRange) -> SmallVector<Value> {
                MmaFragments G{lb, l, elt, F.lrow, F.lmat, F.g, F.t2};
                // Q and dO by TMA from the producer's first thread (zero
                // past Nq, where the consumers' P^T and dS^T are 0), which
                // adds their bytes to the stage's phase first; the lse and
                // D columns by every producer thread's cp.async, whose
                // arrivals complete it.
                Value stage;
                produceStage(G, *bars, args[0], [&](Value st) {
                  stage = st;
                  scf::IfOp::create(
                      lb, l,
                      arith::CmpIOp::create(lb, l, arith::CmpIPredicate::eq,
                                            ptid, G.c(0)),
                      [&](OpBuilder &ib, Location il) {
                        Value bar = bars->ptr(ib, il, kGradFull, st);
                        bars->expectBytes(ib, il, kGradFull, st,
                                          2 * kTile * D * 2);
                        Value tile = arith::MulIOp::create(
                            ib, il, st,
                            arith::ConstantIndexOp::create(ib, il, 2));
                        loadTile(ib, il, *sw, tile, qMap, qbh, it, bar);
                        loadTile(ib, il, *sw,
                                 arith::AddIOp::create(
                                     ib, il, tile,
                                     arith::ConstantIndexOp::create(ib, il, 1)),
                                 doMap, qbh, it, bar);
                        scf::YieldOp::create(ib, il);
                      });
                  tiles.issueColumns(G, ptid, kProducerThreads, qbh, it, st);
                });
                SmallVector<Value> next{G.add(args[0], G.c(1))};
                if (!atomicDQ)
                  return next;
                // (Stage n % 2 released: tile n - 2's dQ is staged.)
                Value has2 = arith::CmpIOp::create(
                    lb, l, arith::CmpIPredicate::uge, args[0], G.c(2));
                scf::IfOp::create(lb, l, has2, [&](OpBuilder &ib, Location il) {
                  writeDQ(ib, il, args[0], args[2]);
                  scf::IfOp::create(ib, il, isWriter(ib, il),
                                    [&](OpBuilder &wb, Location wl) {
                                      MmaFragments W{wb,     wl,  elt, F.lrow,
                                                     F.lmat, F.g, F.t2};
                                      W.bulkWait(0, /*readOnly=*/true);
                                      scf::YieldOp::create(wb, wl);
                                    });
                  bars->arrive(ib, il, kGradDQEmpty, stage);
                  scf::YieldOp::create(ib, il);
                });
                KernelBuilder kl{lb, l};
                next.append({gradDQIndex(kl, s, qbh, it, kl.c(0)), args[1]});
                return next;
              });
          scf::YieldOp::create(hb, hl, n);
        });
    if (atomicDQ) {
      // The last two tiles' dQ, once the consumers staged it.
      Value done = pHeads.getResult(0);
      for (int64_t back = 2; back >= 1; --back) {
        Value has = arith::CmpIOp::create(pb, loc, arith::CmpIPredicate::uge,
                                          done, kp.c(back));
        scf::IfOp::create(pb, loc, has, [&](OpBuilder &ib, Location il) {
          MmaFragments I{ib, il, elt, F.lrow, F.lmat, F.g, F.t2};
          Value m = arith::SubIOp::create(ib, il, done, I.c(back));
          auto [stage, phase] = ringSlot(ib, il, m);
          bars->wait(ib, il, kGradEmpty, stage, phase);
          writeDQ(ib, il, m, pHeads.getResult(back == 2 ? 2 : 1));
          scf::YieldOp::create(ib, il);
        });
      }
      scf::IfOp::create(
          pb, loc, isWriter(pb, loc), [&](OpBuilder &wb, Location wl) {
            MmaFragments W{wb, wl, elt, F.lrow, F.lmat, F.g, F.t2};
            W.bulkWait(0, /*readOnly=*/false);
            scf::YieldOp::create(wb, wl);
          });
    }
    NVVM::CpAsyncWaitGroupOp::create(pb, loc, 0);
    // (The consumers: everything below.)
  }
  const int64_t nAcc = split ? outTiles : 2 * outTiles;
  SmallVector<Value> inits;
  for (int64_t dt = 0; dt < nAcc; ++dt)
    inits.push_back(F.zeroC());
  if (producer)
    inits.push_back(kb.c(0));
  // Over the query heads of the group, then the query tiles.
  auto heads = scf::ForOp::create(
      b, loc, kb.c(0), kb.c(group), kb.c(1), inits,
      [&](OpBuilder &hb, Location hl, Value gh, ValueRange hargs) {
        Value qbh = arith::AddIOp::create(hb, hl, firstQHead, gh);
        KernelBuilder khb{hb, hl};
        Value maskBase = mask ? maskLeadBase(khb, s, qbh) : Value();
        // This query head's modifier positions and tiles.
        KernelModifiers mods(khb, s, fn, qbh, {keysc[0], keysc[1]},
                             /*fixedIsKey=*/true);
        HeadTiles h = headTiles(khb, qbh, mods);
        Value qFrom = h.from, qEnd = h.end;
        std::optional<TileCursor> &cursor = h.cursor;
        SmallVector<Value> &cursorState = h.state;
        // Visibility by query ranges (visibilityIsRanges): the queries
        // [lo, hi) that see each of the thread's keys.
        const bool partialRanges = mods.visibilityIsRanges();
        Value qLo[2], qHi[2];
        for (int r = 0; partialRanges && r < 2; ++r) {
          qLo[r] = khb.c(0);
          qHi[r] = s.nqValue(khb);
          if (s.causalOffset)
            qLo[r] = arith::SubIOp::create(hb, hl, keys[r],
                                           s.causalOffsetValue(khb));
          mods.narrowToVisible(khb, /*swap=*/true, keysc[r], qLo[r], qHi[r]);
        }
        SmallVector<Value> tInits(hargs);
        if (sw && !producer) {
          MmaFragments H{hb, hl, elt, F.lrow, F.lmat, F.g, F.t2};
          tInits.push_back(tiles.issue(H, qbh, qFrom, khb.c(0)));
          tiles.settle(H, tInits.back());
          tInits.push_back(khb.c(0));
        }
        // One query tile; `full`: one the block's keys are all seen by (by
        // the block mask), without the mask_mod.
        auto tileStep = [&](bool full) {
          return [&, full](OpBuilder &lb, Location l, Value it, ValueRange args,
                           Value nextTile) -> SmallVector<Value> {
            KernelBuilder kl{lb, l};
            MmaFragments G{lb, l, elt, F.lrow, F.lmat, F.g, F.t2};
            // This step's stage; grad-producer: once its tiles landed.
            Value stage = sw && !producer ? args[nAcc + 1] : Value();
            GradTiles::Step st;
            if (producer) {
              // (The tiles by TMA; the columns are read by loads.)
              stage = consumeStage(G, *bars, args[nAcc], /*byTMA=*/true);
              st.firstTile = arith::MulIOp::create(lb, l, stage, G.c(2));
            } else {
              st = sw ? tiles.begin(G, qbh, it, stage, nextTile)
                      : tiles.begin(G, qbh, it, Value(), Value());
            }
            Value qD, qDT, doD, doDT;
            if (sw) {
              qD = sw->advance(G, qDesc, st.firstTile);
              qDT = sw->advance(G, qDescT, st.firstTile);
              doD = sw->advance(G, doDesc, st.firstTile);
              doDT = sw->advance(G, doDescT, st.firstTile);
            }
            // Per column (query) of the tile: lse, D, in range; loaded
            // before the products so that their latency overlaps them
            // (the wgmma asm blocks keep loads from moving above them).
            struct Column {
              Value qi, qc, l2, d, dAt, ok;
            };
            auto column = [&](OpBuilder &cb, int64_t nt, int64_t j) {
              KernelBuilder kc{cb, l};
              Column c;
              c.qi = arith::AddIOp::create(
                  cb, l, it,
                  arith::AddIOp::create(cb, l, G.t2, kc.c(nt * 8 + j)));
              c.qc = arith::MinUIOp::create(cb, l, c.qi, s.nqValue(kc, -1));
              if (sw) {
                // (From the tile's copy: colBuf.)
                Value at =
                    G.add(arith::MulIOp::create(cb, l, stage, kc.c(2 * kTile)),
                          G.add(G.t2, kc.c(nt * 8 + j)));
                c.l2 = lseLog2(kc, memref::LoadOp::create(cb, l, tiles.colBuf,
                                                          ValueRange{at}));
                // (D is read where dS^T is computed.)
                c.dAt = G.add(at, kc.c(kTile));
              } else {
                c.l2 = lseLog2(kc, memref::LoadOp::create(
                                       cb, l, lse, ValueRange{qbh, c.qc}));
                c.d =
                    memref::LoadOp::create(cb, l, delta, ValueRange{qbh, c.qc});
              }
              c.ok = arith::CmpIOp::create(cb, l, arith::CmpIPredicate::ult,
                                           c.qi, s.nqValue(kc));
              return c;
            };
            // (dQ by reductions, short of registers: after them.)
            SmallVector<Column> cols;
            auto loadColumns = [&] {
              for (int64_t nt = 0; nt < nTiles; ++nt)
                for (int64_t j = 0; j < 2; ++j)
                  cols.push_back(column(lb, nt, j));
            };
            // P^T from S^T (sAll): each element's term (P^T, the
            // score_mod's derivative, whether it is seen) and P^T's C
            // tiles.
            struct Term {
              Value p, dMod, vis;
            };
            SmallVector<Term> terms;
            SmallVector<Value> pC, dsC;
            auto pTerms = [&](ArrayRef<Value> sAll) {
              // A tile full by the bounds (no block mask) checks nothing.
              const bool clear = (full && !cursor) || allFullQ;
              const bool ranges = partialRanges && !clear;
              // The keys' query ranges relative to this thread's queries
              // it + t2 + c (c = nt 8 + j).
              Value relLo[2], relHi[2];
              for (int r = 0; ranges && r < 2; ++r) {
                relLo[r] = relativeBound(kl, qLo[r], G.add(it, G.t2), kTile);
                relHi[r] = relativeBound(kl, qHi[r], G.add(it, G.t2), kTile);
              }
              for (int64_t nt = 0; nt < nTiles; ++nt) {
                Value sC = sAll[nt];
                Value pt = G.zeroC();
                for (int64_t j = 0; j < 2; ++j) {
                  // Column j of this n-tile: query qi.
                  const Column &c = cols[2 * nt + j];
                  Value qi = c.qi, qc = c.qc, l2 = c.l2, qOk = c.ok;
                  for (int64_t r = 0; r < 2; ++r) {
                    Value vis, dMod, arg;
                    if (ranges) {
                      vis = inRange(kl, relLo[r], relHi[r], nt * 8 + j);
                      arg = mods.gradExponent(kl, r, at(lb, l, sC, r, j), qc,
                                              keysc[r], l2, dMod);
                    } else if (clear) {
                      arg = mods.gradExponent(kl, r, at(lb, l, sC, r, j), qc,
                                              keysc[r], l2, dMod);
                    } else {
                      vis = qOk;
                      if (s.causalOffset)
                        vis = arith::AndIOp::create(
                            lb, l, vis,
                            arith::CmpIOp::create(
                                lb, l, arith::CmpIPredicate::sle, keys[r],
                                G.add(qi, s.causalOffsetValue(kl))));
                      arg =
                          mask ? mods.gradExponentMasked(
                                     kl, r, at(lb, l, sC, r, j), qc, keysc[r],
                                     l2, mask, maskBase, dMod, vis)
                          : full
                              ? mods.gradExponent(kl, r, at(lb, l, sC, r, j),
                                                  qc, keysc[r], l2, dMod)
                              : mods.gradExponent(kl, r, at(lb, l, sC, r, j),
                                                  qc, keysc[r], l2, dMod, vis);
                    }
                    // (dS^T is 0 where P^T is not seen: the masked P^T.)
                    Value p = exp2(lb, l, arg);
                    if (vis)
                      p = arith::SelectOp::create(lb, l, vis, p, kl.f(0.0f));
                    terms.push_back({p, dMod, vis});
                    pt = put(lb, l, p, pt, r, j);
                  }
                }
                pC.push_back(pt);
              }
            };
            if (split) {
              // Split by roles: S^T = K Q^T in the first warpgroup, dP^T =
              // V dO^T in the second (one wgmma, the role's descriptors).
              loadColumns();
              // Named barrier `id` of the 256 consumer threads.
              auto named = [&](OpBuilder &ib, int64_t id, bool sync) {
                namedBarrier(ib, l, id, 256, sync);
              };
              // Yields the A fragments of C tiles c.
              auto yieldA = [&](ArrayRef<Value> c) {
                SmallVector<Value> a;
                for (int64_t kk = 0; kk < nTiles / 2; ++kk)
                  a.push_back(G.cToA(c[2 * kk], c[2 * kk + 1]));
                scf::YieldOp::create(lb, l, a);
              };
              Value second = arith::CmpIOp::create(
                  lb, l, arith::CmpIPredicate::ne, role, kl.c(0));
              SmallVector<Value> x = G.wgmma(
                  {}, {}, arith::SelectOp::create(lb, l, second, doD, qD),
                  sw->kMajorSteps(), false, nTiles,
                  arith::SelectOp::create(lb, l, second, vADesc, kADesc),
                  aSw->kMajorSteps(), /*wait=*/true);
              // The thread's f32 factors of dS^T, one per element of its
              // fragments (the same thread of each warpgroup).
              Value lane = arith::RemUIOp::create(lb, l, tid, kl.c(128));
              auto factorAt = [&](int64_t i) {
                return G.add(lane, kl.c(i * 128));
              };
              // (cToA's A fragments: vector<4x2xelt>.)
              SmallVector<Type> aTypes(nTiles / 2,
                                       VectorType::get({4, 2}, elt));
              auto roles =
                  scf::IfOp::create(lb, l, aTypes, second, /*withElse=*/true);
              {
                // The second: dS^T = (P^T's factor) (dP^T - D) once the
                // first published the factors; with a producer it tells
                // the first when it has read them (barrier 3).
                OpBuilder::InsertionGuard guard(lb);
                lb.setInsertionPointToStart(roles.thenBlock());
                named(lb, 2, /*sync=*/true);
                for (int64_t nt = 0; nt < nTiles; ++nt) {
                  Value ds = G.zeroC();
                  for (int64_t j = 0; j < 2; ++j) {
                    Value dq = memref::LoadOp::create(
                        lb, l, tiles.colBuf, ValueRange{cols[2 * nt + j].dAt});
                    for (int64_t r = 0; r < 2; ++r) {
                      Value f = memref::LoadOp::create(
                          lb, l, exW, ValueRange{factorAt(4 * nt + 2 * j + r)});
                      Value d = arith::SubFOp::create(
                          lb, l, at(lb, l, x[nt], r, j), dq);
                      ds = put(lb, l, arith::MulFOp::create(lb, l, f, d), ds, r,
                               j);
                    }
                  }
                  dsC.push_back(ds);
                }
                if (producer)
                  named(lb, 3, /*sync=*/false);
                yieldA(dsC);
              }
              {
                // The first: P^T, and its factors of dS^T (P^T times the
                // score_mod's derivative; 0 where not seen), once the
                // second has read the last step's (with a producer: barrier
                // 3; else the block's barrier at the end of each step).
                OpBuilder::InsertionGuard guard(lb);
                lb.setInsertionPointToStart(roles.elseBlock());
                if (producer)
                  scf::IfOp::create(
                      lb, l,
                      arith::CmpIOp::create(lb, l, arith::CmpIPredicate::ugt,
                                            args[nAcc], kl.c(0)),
                      [&](OpBuilder &ib, Location il) {
                        named(ib, 3, /*sync=*/true);
                        scf::YieldOp::create(ib, il);
                      });
                pTerms(x);
                for (int64_t nt = 0; nt < nTiles; ++nt)
                  for (int64_t j = 0; j < 2; ++j)
                    for (int64_t r = 0; r < 2; ++r) {
                      const Term &tm = terms[4 * nt + 2 * j + r];
                      Value f = tm.p;
                      if (tm.dMod)
                        f = arith::MulFOp::create(lb, l, tm.p, tm.dMod);
                      if (tm.dMod && tm.vis)
                        f = arith::SelectOp::create(lb, l, tm.vis, f,
                                                    kl.f(0.0f));
                      memref::StoreOp::create(
                          lb, l, f, exW,
                          ValueRange{factorAt(4 * nt + 2 * j + r)});
                    }
                named(lb, 2, /*sync=*/false);
                yieldA(pC);
              }
              // The first accumulates dV += P^T dO, the second dK += dS^T
              // Q (all of D: m64n256, A from registers).
              SmallVector<Value> aFrags(roles.getResults());
              SmallVector<Value> acc =
                  G.wgmma(SmallVector<Value>(args.take_front(nAcc)), aFrags,
                          arith::SelectOp::create(lb, l, second, qDT, doDT),
                          sw->mnMajorSteps(), true, 0, Value(), {}, false);
              acc = G.wgmmaWait(0, acc, aFrags);
              if (producer) {
                bars->arrive(lb, l, kGradEmpty, stage);
                acc.push_back(G.add(args[nAcc], G.c(1)));
              } else {
                acc.push_back(st.next);
                acc.push_back(st.nextStage);
                tiles.settle(G, st.next);
              }
              return acc;
            }
            if (!atomicDQ)
              loadColumns();
            // S^T = K Q^T, dP^T = V dO^T.
            auto [sAll, dpAll] =
                tiles.products(G, kA, vA, qD, doD, nTiles,
                               aShared ? &*aSw : nullptr, kADesc, vADesc);
            if (atomicDQ)
              loadColumns();
            // P^T (with dP^T's product in flight), then dS^T.
            pTerms(sAll);
            dpAll = tiles.second(G, dpAll, vA);
            for (int64_t nt = 0; nt < nTiles; ++nt) {
              Value ds = G.zeroC();
              for (int64_t j = 0; j < 2; ++j) {
                const Column &c = cols[2 * nt + j];
                Value dq = c.d ? c.d
                               : memref::LoadOp::create(lb, l, tiles.colBuf,
                                                        ValueRange{c.dAt});
                for (int64_t r = 0; r < 2; ++r) {
                  const Term &t = terms[4 * nt + 2 * j + r];
                  Value d = arith::SubFOp::create(
                      lb, l, at(lb, l, dpAll[nt], r, j), dq);
                  // P^T is 0 where not seen: dS^T = P^T (dP^T - D) is
                  // too, as in FlashAttention, without each score's
                  // predicate kept across dP^T's product (32 of them a
                  // thread spilled a window's 64-query tiles). Under a
                  // score_mod its derivative may be anything there: the
                  // select stays.
                  Value vis = t.dMod ? t.vis : Value();
                  ds = put(lb, l,
                           KernelModifiers::dScore(kl, t.p, d, t.dMod, vis), ds,
                           r, j);
                }
              }
              dsC.push_back(ds);
            }
            // dQ by atomics: dS (keys past Nk as 0) into its tile,
            // [query][key]; with a producer, once every consumer's dQ^T
            // of the previous tile has read it (its stage released).
            if (atomicDQ && producer) {
              Value prev = arith::SubIOp::create(lb, l, args[nAcc], G.c(1));
              Value has = arith::CmpIOp::create(
                  lb, l, arith::CmpIPredicate::uge, args[nAcc], G.c(1));
              scf::IfOp::create(lb, l, has, [&](OpBuilder &ib, Location il) {
                auto [pstage, pphase] = ringSlot(ib, il, prev);
                bars->wait(ib, il, kGradEmpty, pstage, pphase);
                scf::YieldOp::create(ib, il);
              });
            }
            if (atomicDQ) {
              for (int64_t nt = 0; nt < nTiles; ++nt)
                for (int64_t r = 0; r < 2; ++r) {
                  Value keyOk = arith::CmpIOp::create(
                      lb, l, arith::CmpIPredicate::ult, keys[r], nk);
                  for (int64_t j = 0; j < 2; ++j) {
                    Value x = arith::SelectOp::create(
                        lb, l, keyOk, at(lb, l, dsC[nt], r, j), kl.f(0.0f));
                    Value qLocal = G.add(G.t2, kl.c(nt * 8 + j));
                    Value idx = G.add(
                        dsSw->at(lb, l, 0, qLocal, localKey[r]).front(), G.g);
                    memref::StoreOp::create(
                        lb, l, arith::TruncFOp::create(lb, l, elt, x),
                        dsSw->buf, ValueRange{idx});
                  }
                }
            }
            // dV += P^T dO, dK += dS^T Q (dO, Q read as B by
            // ldmatrix.trans).
            SmallVector<Value> acc(args.take_front(nAcc)), pA, dsA;
            for (int64_t kk = 0; kk < nTiles / 2; ++kk) {
              pA.push_back(G.cToA(pC[2 * kk], pC[2 * kk + 1]));
              dsA.push_back(G.cToA(dsC[2 * kk], dsC[2 * kk + 1]));
            }
            if (sw) {
              // (dQ by reductions: dK runs under the barrier that publishes
              // dS, dV under dQ^T's staging, below. grad-producer: dK and
              // dV in flight together, then the stage is released.)
              const bool together = producer && !atomicDQ;
              SmallVector<Value> dK =
                  G.wgmma(ArrayRef<Value>(acc).take_front(outTiles), dsA, qDT,
                          sw->mnMajorSteps(), true, 0, Value(), {},
                          !atomicDQ && !together);
              SmallVector<Value> dV(acc.begin() + outTiles, acc.end());
              if (!atomicDQ)
                dV = G.wgmma(dV, pA, doDT, sw->mnMajorSteps(), true, 0, Value(),
                             {}, !together);
              acc = dK;
              llvm::append_range(acc, dV);
              if (together) {
                SmallVector<Value> live(pA);
                llvm::append_range(live, dsA);
                acc = G.wgmmaWait(0, acc, live);
                bars->arrive(lb, l, kGradEmpty, stage);
              }
            } else {
              for (int64_t kk = 0; kk < nTiles / 2; ++kk) {
                SmallVector<Value> dB =
                    G.bFrags(doS, kl.c(kk * 16), 0, dTiles, true);
                SmallVector<Value> qB =
                    G.bFrags(qS, kl.c(kk * 16), 0, dTiles, true);
                for (int64_t dt = 0; dt < dTiles; ++dt) {
                  acc[dTiles + dt] = G.mma(pA[kk], dB[dt], acc[dTiles + dt]);
                  acc[dt] = G.mma(dsA[kk], qB[dt], acc[dt]);
                }
              }
            }
            if (atomicDQ) {
              // dQ^T (D x queries) = K^T dS^T, this warpgroup's 64-row
              // groups of D (or its queries), once every warpgroup's dS is
              // in its tile; then into dQ's tile [queries, D], once the
              // previous tile's bulk reductions have read it, and one bulk
              // reduction per row adds it into the accumulator's row (it +
              // q of query batch-head qbh), issued by thread q.
              if (!producer)
                scf::IfOp::create(
                    lb, l, leader, [&](OpBuilder &ib, Location il) {
                      MmaFragments I{ib, il, elt, F.lrow, F.lmat, F.g, F.t2};
                      I.bulkWait(0, /*readOnly=*/true);
                      scf::YieldOp::create(ib, il);
                    });
              G.fenceProxyAsync();
              consumerBarrier(lb, l);
              // dQ^T, then dV; dK and dQ^T complete while dV runs under
              // dQ^T's staging (1.01-1.06x waiting for dK and dV before
              // dQ^T on an H100, bench/RESULTS.md, session 29).
              SmallVector<Value> live(pA);
              llvm::append_range(live, dsA);
              SmallVector<Value> dqT, group(dqGroups);
              for (int64_t h = 0; h < dqGroups; ++h) {
                group[h] = dqByRows ? G.add(arith::MulIOp::create(
                                                lb, l, kl.c(h), kl.c(wgs)),
                                            wg)
                                    : kl.c(h);
                Value aDesc = arith::AddIOp::create(
                    lb, l, kDescT,
                    arith::MulIOp::create(
                        lb, l,
                        arith::IndexCastUIOp::create(lb, l, lb.getI64Type(),
                                                     group[h]),
                        arith::ConstantIntOp::create(lb, l, lb.getI64Type(),
                                                     blockKeys * 128 / 16)));
                llvm::append_range(
                    dqT, G.wgmma({}, {}, dsDesc, dsSw->kMajorSteps(), false,
                                 dqTiles, aDesc, aSw->mnMajorSteps(),
                                 /*wait=*/false, /*transA=*/true));
              }
              SmallVector<Value> dV =
                  G.wgmma(ArrayRef<Value>(acc).drop_front(outTiles), pA, doDT,
                          sw->mnMajorSteps(), true, 0, Value(), {}, false);
              SmallVector<Value> done(acc.begin(), acc.begin() + outTiles);
              llvm::append_range(done, dqT);
              done = G.wgmmaWait(1, done, live);
              acc.assign(done.begin(), done.begin() + outTiles);
              dqT.assign(done.begin() + outTiles, done.end());
              Value q0 = dqByRows ? kl.c(0)
                                  : arith::MulIOp::create(lb, l, wg,
                                                          kl.c(dqTiles * 8));
              // (With a producer: dQ tile n % 2, once the producer's
              // reductions of tile n - 2 have read it.)
              Value tileAt = dqTileAt;
              if (producer) {
                auto [dstage, dphase] = ringSlot(lb, l, args[nAcc]);
                bars->waitReleased(lb, l, kGradDQEmpty, dstage, dphase);
                tileAt =
                    G.add(tileAt, arith::MulIOp::create(
                                      lb, l, dstage, kl.c(kTile * dqStride)));
              }
              for (int64_t h = 0; h < dqGroups; ++h)
                for (int64_t nt = 0; nt < dqTiles; ++nt)
                  for (int64_t r = 0; r < 2; ++r) {
                    Value d =
                        G.add(dqRow[r],
                              arith::MulIOp::create(lb, l, group[h], kl.c(64)));
                    for (int64_t j = 0; j < 2; ++j) {
                      Value q = G.add(q0, G.add(G.t2, kl.c(nt * 8 + j)));
                      Value pos = G.add(
                          tileAt,
                          G.add(arith::MulIOp::create(lb, l, q, kl.c(dqStride)),
                                d));
                      memref::StoreOp::create(
                          lb, l, at(lb, l, dqT[h * dqTiles + nt], r, j), dqTile,
                          ValueRange{pos});
                    }
                  }
              // dV read its tile: complete before the barrier after which
              // the next step's copies overwrite it.
              llvm::append_range(acc, G.wgmmaWait(0, dV, pA));
              if (producer) {
                // (The producer adds the staged dQ into the accumulator.)
                G.fenceProxyAsync();
                bars->arrive(lb, l, kGradEmpty, stage);
              } else {
                tiles.settle(G, st.next);
                scf::IfOp::create(
                    lb, l, leader, [&](OpBuilder &ib, Location il) {
                      KernelBuilder ki{ib, il};
                      reduceRowAt(ib, il, dqAccAddr, dqRowAddr,
                                  gradDQIndex(ki, s, qbh, it, ki.c(0)));
                      scf::YieldOp::create(ib, il);
                    });
              }
            }
            if (producer) {
              acc.push_back(G.add(args[nAcc], G.c(1)));
            } else if (sw) {
              acc.push_back(st.next);
              acc.push_back(st.nextStage);
            }
            // (dQ by reductions: settled before the reductions.)
            if (!atomicDQ && !producer)
              tiles.settle(G, st.next);
            return acc;
          };
        };
        SmallVector<Value> qLoop = blockMaskTileLoop(
            hb, hl, qFrom, qEnd, kTile, tInits, cursor ? &*cursor : nullptr,
            cursorState, /*partialOnly=*/bool(mask),
            [&](OpBuilder &lb, Location l, Value it, ValueRange args,
                Value nextTile, bool full) {
              return tileStep(full)(lb, l, it, args, nextTile);
            },
            h.fullFrom, h.fullTo);
        scf::YieldOp::create(
            hb, hl,
            ArrayRef<Value>(qLoop).take_front(nAcc + (producer ? 1 : 0)));
      });
  SmallVector<Value> res(heads.getResults().take_front(nAcc));
  // The bulk reductions complete before the block ends (with a producer,
  // its own).
  if (atomicDQ && !producer)
    scf::IfOp::create(b, loc, leader, [&](OpBuilder &ib, Location il) {
      MmaFragments I{ib, il, elt, F.lrow, F.lmat, F.g, F.t2};
      I.bulkWait(0, /*readOnly=*/false);
      scf::YieldOp::create(ib, il);
    });
  if (split) {
    // The first warpgroup's dV, the second's dK; with a producer the first
    // passes barrier 3 once more, for the second's last arrival.
    Value second =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, role, kb.c(0));
    auto stores = scf::IfOp::create(b, loc, TypeRange(), second,
                                    /*withElseRegion=*/true);
    OpBuilder tb = stores.getThenBodyBuilder();
    storeRows(tb, loc, elt, dk, kvbh, keys, nk, F.t2, res, s.scale);
    OpBuilder eb = stores.getElseBodyBuilder();
    storeRows(eb, loc, elt, dv, kvbh, keys, nk, F.t2, res, 1.0f);
    if (producer) {
      Value any = arith::CmpIOp::create(
          eb, loc, arith::CmpIPredicate::ugt, heads.getResult(nAcc),
          arith::ConstantIndexOp::create(eb, loc, 0));
      scf::IfOp::create(eb, loc, any, [&](OpBuilder &ib, Location il) {
        namedBarrier(ib, il, 3, 256, /*sync=*/true);
        scf::YieldOp::create(ib, il);
      });
    }
  } else {
    storeRows(b, loc, elt, dk, kvbh, keys, nk, F.t2,
              ArrayRef<Value>(res).take_front(outTiles), s.scale);
    storeRows(b, loc, elt, dv, kvbh, keys, nk, F.t2,
              ArrayRef<Value>(res).drop_front(outTiles), 1.0f);
  }
  if (roles)
    b.setInsertionPointAfter(roles);
  gpu::ReturnOp::create(b, loc);
  return fn;
}
