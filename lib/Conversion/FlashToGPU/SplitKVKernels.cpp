//===- SplitKVKernels.cpp - Decode: keys split across blocks --------------===//
//
// The split-KV kernel kind (FlashDecoding), for the forward of decode
// shapes: a static Nq whose GQA group packs into R = (Hq / Hkv) * Nq <= 16
// query rows, no mask operand or modifiers. One query row cannot fill a GPU
// with blocks of query rows, and GQA would read K/V once per query head;
// here the keys are split across blocks and a kv head's group is one tile.
//
// The group's rows are contiguous in q and o ([B, Hq, Nq, D]: the rows of
// kv batch-head g are g * R .. g * R + R - 1; packed row r is query r % Nq
// of head r / Nq of the group), so packing is an index change only.
//
// Partial: grid (ceil(Nk / C), B * Hkv), block T threads = S slots of L
//   lanes; a block's keys [split * C, min(split * C + C, Nk)) (causal: also
//   below the last row's limit). Each slot takes U keys a step (slots
//   interleaved, so a warp reads consecutive rows; every thread runs every
//   step, as the shuffles need converged warps), each lane holding the
//   chunks (e * L + lane) * V .. + V - 1 of the rows (vector loads of V
//   elements; q of the R rows in registers, scaled by scale * log2 e):
//     s_r = sum over the slot's lanes of q_r . k   (xor shuffles)
//     online softmax per slot (m_r, l_r, acc_r), one rescale per U keys.
//   The slots' states merge in workgroup memory, and the block writes its
//   record [acc_r (Dv), m_r, l_r] (log2 domain, acc not normalized) per row
//   to the scratch buffer: record ((g * ceil(Nk / C) + split) * R + r).
// Combine: grid (Nq, B * Hq), one query row per block:
//   M = max m_s; w_s = 2^(m_s - M); o = sum w_s acc_s / sum w_s l_s;
//   lse = (M + log2 sum w_s l_s) ln 2     (0 and -inf for a row with no key).
//
// Both kernels take (q, k, v, o, lse, scratch, sizes...). Deterministic: a
// fixed order of every sum, no atomics.
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToGPU/GPUKernels.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
constexpr float kLn2 = 0.6931471805599453f;
/// The split count's limits (splitKVCount): splits of a row at least
/// (unless the keys are fewer) and at most (one per thread of the combine
/// kernel); the blocks of a launch to aim for are `split-kv-blocks`.
/// Measured on the H200 (bench/RESULTS.md, decode): about 256 blocks (one
/// wave of 2 per SM; 1024 blocks of 128-256 keys ran 0.66-0.89x as fast),
/// and 2 splits for many kv heads (512 blocks of every key left a tail:
/// 0.82x). The keys per block (`split-kv`, 128) matter only where the heads
/// leave the target unfilled: B = 1, Nk = 1k ran 0.86x cuDNN with 256 keys
/// per block, 1.0x with 128.
constexpr int64_t kMinSplits = 2, kMaxSplits = 128;

/// The partial kernel's shape: R packed rows, L lanes per slot, U keys per
/// slot step, T threads, C keys per block, V elements per vector load.
struct SplitPlan {
  int64_t rows, lanes, keysPerStep, threads, keysPerBlock, vec;
  int64_t slots() const { return threads / lanes; }
  /// f32 words of a block's records.
  int64_t record(int64_t dv) const { return dv + 2; }
};

/// The plan for `s`, or nothing when the kind does not take it.
std::optional<SplitPlan> planFor(const KernelSpec &s,
                                 const FlashMapToGPUOptions &o) {
  if (!isSplitKVShape(s, o))
    return std::nullopt;
  int64_t rows = (s.hq / s.hkv) * s.nq;
  SplitPlan p{rows, 0, 4, 128, o.splitKV, 1};
  // Lanes per slot: enough that a thread holds at most 128 values of q,
  // acc and the keys and values of a step (192 if the subgroup is too small
  // for that), dividing both head dims, within a subgroup. (On the H200,
  // 4 keys a step and 16 lanes at d = 128, R = 4 read 10-30 % faster than
  // 2 keys, or 8 lanes, or 1 key; 8 keys, or 64 or 256 threads, were no
  // faster overall.)
  int64_t maxLanes = std::clamp<int64_t>(o.subgroupSize, 8, 32);
  int64_t values = (rows + p.keysPerStep) * (s.d + s.dv);
  for (int64_t budget : {128, 192})
    for (int64_t l = 8; l <= maxLanes && !p.lanes; l *= 2)
      if (s.d % l == 0 && s.dv % l == 0 && values <= budget * l)
        p.lanes = l;
  if (!p.lanes)
    return std::nullopt;
  int64_t eltBytes = s.elt.getIntOrFloatBitWidth() / 8;
  p.vec = std::max<int64_t>(1, o.vectorLoadBytes / eltBytes);
  while (p.vec > 1 && ((s.d / p.lanes) % p.vec || (s.dv / p.lanes) % p.vec))
    p.vec /= 2;
  // The slots' states in workgroup memory (within the 48 KiB of static
  // shared memory a CUDA block may have, without a limit of the target's):
  // fewer threads where it is tight.
  int64_t limit = o.maxWorkgroupMemory > 0 ? o.maxWorkgroupMemory : 48 * 1024;
  while (p.threads > p.lanes &&
         p.slots() * rows * p.record(s.dv) * 4 > limit)
    p.threads /= 2;
  if (p.slots() * rows * p.record(s.dv) * 4 > limit)
    return std::nullopt;
  return p;
}

/// A block's keys for the SIMT partial kernel: whole steps.
Value keysPerSplit(KernelBuilder &kb, const KernelSpec &s, const SplitPlan &p,
                   Value splits) {
  return splitKVChunk(kb, s, splits, p.slots() * p.keysPerStep);
}

/// A lane's share of row `row` of `mem` ([rows, width]): the chunks
/// (e * lanes + lane) * vec .. + vec - 1, as f32 (times `mul`).
SmallVector<Value> loadShare(KernelBuilder &kb, Value mem, Value row,
                             int64_t width, Value lane, const SplitPlan &p,
                             Value mul = Value()) {
  OpBuilder &b = kb.b;
  Location loc = kb.loc;
  Type elt = cast<MemRefType>(mem.getType()).getElementType();
  SmallVector<Value> out;
  for (int64_t e = 0; e < width / (p.lanes * p.vec); ++e) {
    Value col = arith::MulIOp::create(
        b, loc, arith::AddIOp::create(b, loc, lane, kb.c(e * p.lanes)),
        kb.c(p.vec));
    SmallVector<Value> xs;
    if (p.vec == 1) {
      xs.push_back(memref::LoadOp::create(b, loc, mem, ValueRange{row, col}));
    } else {
      auto vty = VectorType::get({p.vec}, elt);
      Value v = vector::LoadOp::create(
          b, loc, vty, mem, ValueRange{row, col}, /*nontemporal=*/false,
          llvm::MaybeAlign(p.vec * elt.getIntOrFloatBitWidth() / 8));
      if (!elt.isF32())
        v = arith::ExtFOp::create(b, loc, VectorType::get({p.vec}, b.getF32Type()),
                                  v);
      for (int64_t w = 0; w < p.vec; ++w)
        xs.push_back(vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{w}));
    }
    for (Value x : xs) {
      x = kb.toF32(x);
      out.push_back(mul ? arith::MulFOp::create(b, loc, x, mul).getResult()
                        : x);
    }
  }
  return out;
}

/// The column of element `i` of a lane's share.
Value shareColumn(KernelBuilder &kb, Value lane, const SplitPlan &p,
                  int64_t i) {
  int64_t e = i / p.vec, w = i % p.vec;
  return arith::AddIOp::create(
      kb.b, kb.loc,
      arith::MulIOp::create(
          kb.b, kb.loc,
          arith::AddIOp::create(kb.b, kb.loc, lane, kb.c(e * p.lanes)),
          kb.c(p.vec)),
      kb.c(w));
}

/// 0 where `m` is -inf (a row that saw nothing yet), else m: the reference
/// point of the exponents.
Value finiteOrZero(KernelBuilder &kb, Value m) {
  Value isInf = arith::CmpFOp::create(kb.b, kb.loc, arith::CmpFPredicate::OEQ,
                                      m, kb.f(kNegInf));
  return arith::SelectOp::create(kb.b, kb.loc, isInf, kb.f(0.0f), m);
}

SmallVector<Type> argTypes(MLIRContext *ctx, const KernelSpec &s) {
  OperandTypes t = operandTypes(ctx, s);
  auto scratch = MemRefType::get({ShapedType::kDynamic}, Float32Type::get(ctx));
  return withMaskAndCaptures(ctx, s, {t.q, t.k, t.v, t.o, t.lse, scratch});
}

gpu::GPUFuncOp buildPartialKernel(OpBuilder &ob, Location loc, StringRef name,
                                  const KernelSpec &s, const SplitPlan &p) {
  MLIRContext *ctx = ob.getContext();
  const int64_t R = p.rows, L = p.lanes, U = p.keysPerStep, S = p.slots();
  const int64_t rec = p.record(s.dv);
  auto fn = newKernel(ob, loc, name, s, argTypes(ctx, s),
                      {tileType(ctx, S * R, rec)}, p.threads);
  OpBuilder b = OpBuilder::atBlockBegin(&fn.front());
  KernelBuilder kb{b, loc};
  Value q = fn.getArgument(0), k = fn.getArgument(1), v = fn.getArgument(2),
        scratch = fn.getArgument(5);
  Value states = fn.getWorkgroupAttributions()[0];

  Value split = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value splits = splitKVCount(kb, s, p.keysPerBlock);
  Value g = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value lane = arith::RemUIOp::create(b, loc, tid, kb.c(L));
  Value slot = arith::DivUIOp::create(b, loc, tid, kb.c(L));
  Value nk = s.nkValue(kb);
  Value chunk = keysPerSplit(kb, s, p, splits);
  Value kv0 = arith::MulIOp::create(b, loc, split, chunk);
  Value kv1 = arith::MinUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, kv0, chunk), nk);
  // Causal: query i = r % Nq sees keys up to i + offset; the block needs
  // those of its last query.
  SmallVector<Value> limits;
  if (s.causalOffset) {
    Value off = s.causalOffsetValue(kb);
    for (int64_t r = 0; r < R; ++r)
      limits.push_back(arith::AddIOp::create(b, loc, off, kb.c(r % s.nq)));
    Value end = arith::AddIOp::create(b, loc, off, kb.c(s.nq));
    kv1 = arith::MinSIOp::create(b, loc, kv1,
                                 arith::MaxSIOp::create(b, loc, end, kv0));
  }

  // The group's query rows (this lane's share), in the log2 domain.
  Value q0 = arith::MulIOp::create(b, loc, g, kb.c(R));
  SmallVector<SmallVector<Value>> qs;
  for (int64_t r = 0; r < R; ++r)
    qs.push_back(loadShare(kb, q, arith::AddIOp::create(b, loc, q0, kb.c(r)),
                           s.d, lane, p, kb.f(s.scale * kLog2e)));
  const int64_t dvq = s.dv / L;
  Value kvRow0 = arith::MulIOp::create(b, loc, g, nk);

  // State per row: m, l, acc[dvq].
  SmallVector<Value> inits;
  for (int64_t r = 0; r < R; ++r) {
    inits.push_back(kb.f(kNegInf));
    inits.push_back(kb.f(0.0f));
    for (int64_t e = 0; e < dvq; ++e)
      inits.push_back(kb.f(0.0f));
  }
  const int64_t per = 2 + dvq;
  // Every thread runs the block's steps (the shuffles need the whole warp
  // converged): slot keys past the end are masked.
  Value slotKey = arith::MulIOp::create(b, loc, slot, kb.c(U));
  auto loop = scf::ForOp::create(
      b, loc, kv0, kv1, kb.c(S * U), inits,
      [&](OpBuilder &lb, Location l, Value j0, ValueRange st) {
        KernelBuilder kl{lb, l};
        Value jt = arith::AddIOp::create(lb, l, j0, slotKey);
        SmallVector<Value> keys, valid;
        SmallVector<SmallVector<Value>> ks, vs;
        for (int64_t u = 0; u < U; ++u) {
          Value key = arith::AddIOp::create(lb, l, jt, kl.c(u));
          keys.push_back(key);
          valid.push_back(arith::CmpIOp::create(
              lb, l, arith::CmpIPredicate::ult, key, kv1));
          Value row = arith::AddIOp::create(
              lb, l, kvRow0,
              arith::MinUIOp::create(lb, l, key,
                                     arith::SubIOp::create(lb, l, nk, kl.c(1))));
          ks.push_back(loadShare(kl, k, row, s.d, lane, p));
          vs.push_back(loadShare(kl, v, row, s.dv, lane, p));
        }
        SmallVector<Value> next;
        for (int64_t r = 0; r < R; ++r) {
          SmallVector<Value> sc;
          Value mt = kl.f(kNegInf);
          for (int64_t u = 0; u < U; ++u) {
            Value acc = kl.f(0.0f);
            for (auto [qx, kx] : llvm::zip_equal(qs[r], ks[u]))
              acc = fmac(lb, l, qx, kx, acc);
            acc = sumOverLanes(kl, acc, L);
            Value vis = valid[u];
            if (!limits.empty())
              vis = arith::AndIOp::create(
                  lb, l, vis,
                  arith::CmpIOp::create(lb, l, arith::CmpIPredicate::sle,
                                        keys[u], limits[r]));
            sc.push_back(arith::SelectOp::create(lb, l, vis, acc, kl.f(kNegInf)));
            mt = arith::MaxNumFOp::create(lb, l, mt, sc.back());
          }
          Value m = st[r * per], lsum = st[r * per + 1];
          Value mNew = arith::MaxNumFOp::create(lb, l, m, mt);
          Value ms = finiteOrZero(kl, mNew);
          Value alpha = exp2(lb, l, arith::SubFOp::create(lb, l, m, ms));
          Value lNew = arith::MulFOp::create(lb, l, lsum, alpha);
          SmallVector<Value> ps;
          for (Value x : sc) {
            ps.push_back(exp2(lb, l, arith::SubFOp::create(lb, l, x, ms)));
            lNew = arith::AddFOp::create(lb, l, lNew, ps.back());
          }
          next.push_back(mNew);
          next.push_back(lNew);
          for (int64_t e = 0; e < dvq; ++e) {
            Value acc = arith::MulFOp::create(lb, l, st[r * per + 2 + e], alpha);
            for (int64_t u = 0; u < U; ++u)
              acc = fmac(lb, l, ps[u], vs[u][e], acc);
            next.push_back(acc);
          }
        }
        scf::YieldOp::create(lb, l, next);
      });

  // The slots' states to workgroup memory: row slot * R + r, acc columns
  // as the lanes hold them, m and l after them (from lane 0).
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                      kb.c(0));
  for (int64_t r = 0; r < R; ++r) {
    Value srow = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, slot, kb.c(R)), kb.c(r));
    for (int64_t e = 0; e < dvq; ++e)
      memref::StoreOp::create(b, loc, loop.getResult(r * per + 2 + e), states,
                              ValueRange{srow, shareColumn(kb, lane, p, e)});
    scf::IfOp::create(b, loc, first, [&](OpBuilder &ib, Location il) {
      KernelBuilder ki{ib, il};
      memref::StoreOp::create(ib, il, loop.getResult(r * per), states,
                              ValueRange{srow, ki.c(s.dv)});
      memref::StoreOp::create(ib, il, loop.getResult(r * per + 1), states,
                              ValueRange{srow, ki.c(s.dv + 1)});
      scf::YieldOp::create(ib, il);
    });
  }
  gpu::BarrierOp::create(b, loc);

  // Merge the slots per (row, column) and write the block's records.
  Value base = arith::MulIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, g, splits),
                            split),
      kb.c(R * rec));
  scf::ForOp::create(
      b, loc, tid, kb.c(R * rec), kb.c(p.threads), ValueRange{},
      [&](OpBuilder &mb, Location ml, Value idx, ValueRange) {
        KernelBuilder km{mb, ml};
        Value r = arith::DivUIOp::create(mb, ml, idx, km.c(rec));
        Value col = arith::RemUIOp::create(mb, ml, idx, km.c(rec));
        auto at = [&](int64_t sl, Value c) -> Value {
          Value srow = arith::AddIOp::create(mb, ml, km.c(sl * R), r);
          return memref::LoadOp::create(mb, ml, states, ValueRange{srow, c});
        };
        Value mMax = km.f(kNegInf);
        for (int64_t sl = 0; sl < S; ++sl)
          mMax = arith::MaxNumFOp::create(mb, ml, mMax, at(sl, km.c(s.dv)));
        Value ms = finiteOrZero(km, mMax);
        // Column dv keeps the max itself; the others sum w_slot * x.
        Value sum = km.f(0.0f);
        for (int64_t sl = 0; sl < S; ++sl) {
          Value w = exp2(mb, ml,
                         arith::SubFOp::create(mb, ml, at(sl, km.c(s.dv)), ms));
          sum = fmac(mb, ml, w, at(sl, col), sum);
        }
        Value isM = arith::CmpIOp::create(mb, ml, arith::CmpIPredicate::eq, col,
                                          km.c(s.dv));
        Value out = arith::SelectOp::create(mb, ml, isM, mMax, sum);
        memref::StoreOp::create(mb, ml, out, scratch,
                                ValueRange{arith::AddIOp::create(mb, ml, base, idx)});
        scf::YieldOp::create(mb, ml);
      });
  gpu::ReturnOp::create(b, loc);
  return fn;
}

gpu::GPUFuncOp buildCombineKernel(OpBuilder &ob, Location loc, StringRef name,
                                  const KernelSpec &s, int64_t keysPerBlock) {
  MLIRContext *ctx = ob.getContext();
  const int64_t R = (s.hq / s.hkv) * s.nq, rec = s.dv + 2, T = kMaxSplits;
  // The splits' weights, and a reduction buffer.
  auto fn = newKernel(ob, loc, name, s, argTypes(ctx, s),
                      {tileType(ctx, 1, T), tileType(ctx, 1, T)}, T);
  OpBuilder b = OpBuilder::atBlockBegin(&fn.front());
  KernelBuilder kb{b, loc};
  Value o = fn.getArgument(3), lse = fn.getArgument(4),
        scratch = fn.getArgument(5);
  Value wbuf = fn.getWorkgroupAttributions()[0];
  Value red = fn.getWorkgroupAttributions()[1];
  Value i = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value bh = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value g = kvHeadOf(kb, s, bh);
  Value h = arith::RemUIOp::create(b, loc, bh, kb.c(s.hq));
  Value r = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(
          b, loc, arith::RemUIOp::create(b, loc, h, kb.c(s.hq / s.hkv)),
          kb.c(s.nq)),
      i);
  Value splits = splitKVCount(kb, s, keysPerBlock);
  // Record (g * splits + sp) * R + r, column col.
  auto at = [&](OpBuilder &rb, Location rl, Value sp, Value col) -> Value {
    KernelBuilder kr{rb, rl};
    Value recIdx = arith::AddIOp::create(
        rb, rl,
        arith::MulIOp::create(
            rb, rl,
            arith::AddIOp::create(rb, rl,
                                  arith::MulIOp::create(rb, rl, g, splits), sp),
            kr.c(R)),
        r);
    return arith::AddIOp::create(
        rb, rl, arith::MulIOp::create(rb, rl, recIdx, kr.c(rec)), col);
  };
  Value zero = kb.c(0);
  // Thread t holds split t (splits <= T): its m and l, reduced over the
  // block in workgroup memory (a tree; fixed order).
  Value has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                                    splits);
  Value sp = arith::MinUIOp::create(
      b, loc, tid,
      arith::MaxUIOp::create(b, loc, arith::SubIOp::create(b, loc, splits,
                                                           kb.c(1)),
                             zero));
  auto loadOr = [&](Value col, float dflt) -> Value {
    // Only threads with a split read (splits may be 0).
    auto ifOp = scf::IfOp::create(
        b, loc, has,
        [&](OpBuilder &ib, Location il) {
          scf::YieldOp::create(
              ib, il,
              ValueRange{memref::LoadOp::create(ib, il, scratch,
                                                ValueRange{at(ib, il, sp, col)})
                             .getResult()});
        },
        [&](OpBuilder &ib, Location il) {
          scf::YieldOp::create(
              ib, il,
              ValueRange{arith::ConstantOp::create(ib, il,
                                                   ib.getF32FloatAttr(dflt))
                             .getResult()});
        });
    return ifOp.getResult(0);
  };
  auto reduce = [&](Value x, bool max) -> Value {
    memref::StoreOp::create(b, loc, x, red, ValueRange{zero, tid});
    gpu::BarrierOp::create(b, loc);
    for (int64_t step = T / 2; step >= 1; step /= 2) {
      Value lower = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          tid, kb.c(step));
      scf::IfOp::create(b, loc, lower, [&](OpBuilder &ib, Location il) {
        KernelBuilder ki{ib, il};
        Value a = memref::LoadOp::create(ib, il, red, ValueRange{ki.c(0), tid});
        Value c = memref::LoadOp::create(
            ib, il, red,
            ValueRange{ki.c(0), arith::AddIOp::create(ib, il, tid, ki.c(step))});
        Value y = max ? arith::MaxNumFOp::create(ib, il, a, c).getResult()
                      : arith::AddFOp::create(ib, il, a, c).getResult();
        memref::StoreOp::create(ib, il, y, red, ValueRange{ki.c(0), tid});
        scf::YieldOp::create(ib, il);
      });
      gpu::BarrierOp::create(b, loc);
    }
    Value all = memref::LoadOp::create(b, loc, red, ValueRange{zero, zero});
    gpu::BarrierOp::create(b, loc);
    return all;
  };
  Value m = loadOr(kb.c(s.dv), kNegInf);
  Value mMax = reduce(m, /*max=*/true);
  Value ms = finiteOrZero(kb, mMax);
  Value w = exp2(b, loc, arith::SubFOp::create(b, loc, m, ms));
  memref::StoreOp::create(b, loc, w, wbuf, ValueRange{zero, tid});
  Value lsum = reduce(arith::MulFOp::create(b, loc, w, loadOr(kb.c(s.dv + 1), 0.0f)),
                      /*max=*/false);
  Value none = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, lsum,
                                     kb.f(0.0f));
  Value inv = arith::DivFOp::create(b, loc, kb.f(1.0f), lsum);
  Value orow = rowOf(kb, bh, s.nqValue(kb), i);
  // Column c: sum over the splits of w_s acc_s[c], 4 splits a step (the
  // loads in flight together; past the end, weight 0 at a valid record).
  const int64_t step = 4;
  Value last = arith::MaxUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, splits, kb.c(1)), zero);
  scf::ForOp::create(
      b, loc, tid, kb.c(s.dv), kb.c(T), ValueRange{},
      [&](OpBuilder &cb, Location cl, Value c, ValueRange) {
        KernelBuilder kc{cb, cl};
        Value acc =
            scf::ForOp::create(
                cb, cl, kc.c(0), splits, kc.c(step), ValueRange{kc.f(0.0f)},
                [&](OpBuilder &fb, Location fl, Value s0, ValueRange a) {
                  KernelBuilder kf{fb, fl};
                  Value sum = a[0];
                  SmallVector<std::pair<Value, Value>> terms;
                  for (int64_t u = 0; u < step; ++u) {
                    Value su = arith::AddIOp::create(fb, fl, s0, kf.c(u));
                    Value in = arith::CmpIOp::create(
                        fb, fl, arith::CmpIPredicate::ult, su, splits);
                    Value sc = arith::MinUIOp::create(fb, fl, su, last);
                    Value x = memref::LoadOp::create(fb, fl, scratch,
                                                     ValueRange{at(fb, fl, sc, c)});
                    Value wv = memref::LoadOp::create(fb, fl, wbuf,
                                                      ValueRange{kf.c(0), sc});
                    terms.push_back(
                        {arith::SelectOp::create(fb, fl, in, wv, kf.f(0.0f)), x});
                  }
                  for (auto [wv, x] : terms)
                    sum = fmac(fb, fl, wv, x, sum);
                  scf::YieldOp::create(fb, fl, sum);
                })
                .getResult(0);
        Value x = arith::MulFOp::create(cb, cl, acc, inv);
        x = arith::SelectOp::create(cb, cl, none, kc.f(0.0f), x);
        if (!s.elt.isF32())
          x = arith::TruncFOp::create(cb, cl, s.elt, x);
        memref::StoreOp::create(cb, cl, x, o, ValueRange{orow, c});
        scf::YieldOp::create(cb, cl);
      });
  Value lg = arith::MulFOp::create(
      b, loc, arith::AddFOp::create(b, loc, mMax, log2(b, loc, lsum)),
      kb.f(kLn2));
  lg = arith::SelectOp::create(b, loc, none, kb.f(kNegInf), lg);
  Value t0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                   zero);
  scf::IfOp::create(b, loc, t0, [&](OpBuilder &ib, Location il) {
    memref::StoreOp::create(ib, il, lg, lse, ValueRange{orow});
    scf::YieldOp::create(ib, il);
  });
  gpu::ReturnOp::create(b, loc);
  return fn;
}

struct SplitKVKind : KernelKind {
  bool applies(KernelSpec &s, const FlashMapToGPUOptions &o,
               bool backward) const override {
    return !backward && !s.isFloat8() && planFor(s, o).has_value();
  }

  FailureOr<SmallVector<MappedKernel>>
  build(OpBuilder &b, Operation *op, ArrayRef<std::string> names,
        KernelSpec &s, const FlashMapToGPUOptions &o,
        bool backward) const override {
    SplitPlan p = *planFor(s, o);
    Location loc = op->getLoc();
    MappedKernel partial = splitKVPartial(
        s, buildPartialKernel(b, loc, names[0], s, p), p.threads,
        p.keysPerBlock, "split-kv");
    MappedKernel combine = buildSplitKVCombine(b, loc, names[0] + "_combine",
                                               s, p.keysPerBlock);
    return SmallVector<MappedKernel>{partial, combine};
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<vector::VectorDialect>();
  }
};

} // namespace

std::shared_ptr<const KernelKind> gpukernels::splitKVKind() {
  return std::make_shared<SplitKVKind>();
}

Value gpukernels::splitKVCount(KernelBuilder &kb, const KernelSpec &s,
                               int64_t keysPerBlock) {
  OpBuilder &b = kb.b;
  Value byKeys = arith::CeilDivUIOp::create(b, kb.loc, s.nkValue(kb),
                                            kb.c(keysPerBlock));
  Value byHeads = arith::MaxUIOp::create(
      b, kb.loc,
      arith::CeilDivUIOp::create(b, kb.loc, kb.c(s.splitBlocks),
                                 kvBatchHeads(kb, s)),
      kb.c(kMinSplits));
  return arith::MinUIOp::create(
      b, kb.loc, byKeys,
      arith::MinUIOp::create(b, kb.loc, byHeads, kb.c(kMaxSplits)));
}

Value gpukernels::splitKVChunk(KernelBuilder &kb, const KernelSpec &s,
                               Value splits, int64_t granule) {
  OpBuilder &b = kb.b;
  Value per = arith::CeilDivUIOp::create(
      b, kb.loc, s.nkValue(kb),
      arith::MaxUIOp::create(b, kb.loc, splits, kb.c(1)));
  return arith::MulIOp::create(
      b, kb.loc, arith::CeilDivUIOp::create(b, kb.loc, per, kb.c(granule)),
      kb.c(granule));
}

MappedKernel gpukernels::splitKVPartial(const KernelSpec &s, gpu::GPUFuncOp fn,
                                        int64_t threads, int64_t keysPerBlock,
                                        StringRef kind) {
  MappedKernel k{fn, threads, keysPerBlock, kind};
  k.rows = "nk";
  k.batchHeads = "bhkv";
  k.targetBlocks = s.splitBlocks;
  k.minBlocksX = kMinSplits;
  k.maxBlocksX = kMaxSplits;
  k.scratchPerBlock = (s.hq / s.hkv) * s.nq * (s.dv + 2);
  return k;
}

MappedKernel gpukernels::buildSplitKVCombine(OpBuilder &b, Location loc,
                                             StringRef name,
                                             const KernelSpec &s,
                                             int64_t keysPerBlock) {
  MappedKernel k{buildCombineKernel(b, loc, name, s, keysPerBlock),
                 kMaxSplits, 1, "split-kv"};
  k.rows = "nq";
  k.batchHeads = "bh";
  return k;
}

bool gpukernels::isSplitKVShape(const KernelSpec &s,
                                const FlashMapToGPUOptions &o) {
  if (o.splitKV <= 0 || s.mask || s.hasModifiers() ||
      ShapedType::isDynamic(s.nq) || (s.hq / s.hkv) * s.nq > 16)
    return false;
  // Static key counts below two blocks gain nothing from a split.
  return ShapedType::isDynamic(s.nk) || s.nk >= 2 * o.splitKV;
}
