//===- SIMTKernels.cpp - Attention on CUDA cores / plain compute units ----===//
//
// The SIMT kernel kind, for every element type and head dim on every GPU
// target (f32 arithmetic).
//
// Scores are in natural units, s = (scale q) . k, summed in one order
// that does not depend on the threads per row (scoreDot), in the forward
// and both backward kernels alike: the backward's recomputed s is the
// forward's, bit for bit, and P = 2^((s - lse) log2 e) is 1 exactly where a
// row's softmax is one-hot (logits of 1e4: an s that differed by an ulp
// would give a P of 1 +- 1e-3).
//
// Forward:
//   grid  = (ceil(Nq / (T / L)), B*Hq)   block = T threads, L per query row
//                                        (row-lanes)
//   per block, over tiles of `tile-kv` keys up to the block's causal limit:
//     all threads stage K and V tiles in shared memory (f32), barrier;
//     each thread: s_t = (scale q) . k_t   (q in registers, f32; with
//                  L > 1 each of the row's threads holds every L-th
//                  element of q and acc, and the partial dot products are
//                  summed by xor shuffles)
//                  m' = max(m, max_t s_t); alpha = 2^((m - m') log2 e);
//                  p_t = 2^((s_t - m') log2 e); l = alpha l + sum p_t;
//                  acc = alpha acc + sum p_t v_t
//   o = acc / l ; lse = m + ln l                (0 and -inf for empty rows)
//   One rescale per tile; causal tiles beyond the block's last row skipped
//   and the diagonal tile masked.
//
// Backward, two kernels:
//   dQ, one query row i per L threads, K/V tiles in shared memory:
//     D_i = sum dO_i * O_i                       (stored for the next kernel)
//     p = 2^((s - lse_i) log2 e), dp = dO_i . v_j, ds = p (dp - D_i)
//     dq_i = scale * sum_j ds k_j
//   dK/dV, one key row j per L threads (of a kv head), Q/dO tiles in
//   shared memory, over the query heads of its GQA group:
//     dv_j = sum_i p dO_i ;  dk_j = sum_i ds (scale q_i)
//   Rows above the causal diagonal and rows that saw no key (lse = -inf)
//   contribute nothing. Each output element is written by one thread in a
//   fixed order: results are deterministic.
//
// A score_mod / mask_mod is applied per score (KernelModifiers), a
// mask_mod's affine bounds narrow the tile loops.
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToGPU/GPUKernels.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

namespace {

/// sum_d a[d] * tile[t][d] over the row, a and the tile's row split over
/// `lanes` threads (this thread: columns laneColumn(lane, lanes, i)):
/// `partials` partial sums (column c goes to partial c mod partials, in
/// increasing c; a multiple of `lanes`), then a pairwise tree over them,
/// halves first (the in-thread levels, then the xor shuffles). Scores use
/// scorePartials(d): an order fixed by the head dim alone, so that the
/// forward and the two backward kernels, which run with different threads
/// per row, compute the same scores bit for bit.
Value dotTile(KernelBuilder &kb, ArrayRef<Value> a, Value tile, int64_t t,
              Value lane, int64_t lanes, int64_t partials) {
  int64_t own = partials / lanes; // partials this thread holds
  SmallVector<Value> part(own, kb.f(0.0f));
  for (auto [i, x] : llvm::enumerate(a)) {
    Value y = memref::LoadOp::create(
        kb.b, kb.loc, tile,
        ValueRange{kb.c(t), laneColumn(kb, lane, lanes, i)});
    part[i % own] = fmac(kb.b, kb.loc, x, y, part[i % own]);
  }
  for (int64_t h = own / 2; h >= 1; h /= 2)
    for (int64_t u = 0; u < h; ++u)
      part[u] = arith::AddFOp::create(kb.b, kb.loc, part[u], part[u + h]);
  return lanes > 1 ? sumOverLanes(kb, part[0], lanes) : part[0];
}

/// The partial sums of a score's dot product for head dim d (the row lanes
/// divide it: lanesFor keeps them powers of two that divide d, up to 8).
int64_t scorePartials(int64_t d) { return std::gcd(d, int64_t(8)); }

/// A score: (scale q) . k_t in the one order (dotTile, scorePartials).
Value scoreDot(KernelBuilder &kb, ArrayRef<Value> a, Value tile, int64_t t,
               Value lane, int64_t lanes, int64_t d) {
  return dotTile(kb, a, tile, t, lane, lanes, scorePartials(d));
}

/// The forward: args (q, k, v, o, lse[, mask][, captures]).
gpu::GPUFuncOp buildForwardKernel(OpBuilder &ob, Location loc, StringRef name,
                                  const KernelSpec &s) {
  MLIRContext *ctx = ob.getContext();
  OperandTypes t = operandTypes(ctx, s);
  SmallVector<Type> argTys = withMaskAndCaptures(ctx, s, {t.q, t.k, t.v, t.o, t.lse});
  auto fn = newKernel(ob, loc, name, s, argTys,
                      {tileType(ctx, s.tile, s.d), tileType(ctx, s.tile, s.dv)},
                      s.threads);

  OpBuilder b = OpBuilder::atBlockBegin(&fn.front());
  KernelBuilder kb{b, loc};
  Value q = fn.getArgument(0), k = fn.getArgument(1), v = fn.getArgument(2),
        o = fn.getArgument(3), lse = fn.getArgument(4);
  Value mask = s.mask ? fn.getArgument(5) : Value();
  Value kTile = fn.getWorkgroupAttributions()[0];
  Value vTile = fn.getWorkgroupAttributions()[1];
  const float ninf = -std::numeric_limits<float>::infinity();

  QueryRows rows = queryRows(kb, s);
  Value bh = rows.bh, tid = rows.tid, row = rows.row, rowc = rows.rowc;
  Value maskBase = mask ? maskLeadBase(kb, s, bh) : Value();
  // The modifier regions at the thread's row; a mask_mod's affine bounds
  // narrow the keys the block visits.
  KernelModifiers mods(kb, s, fn, bh, {rowc}, /*fixedIsKey=*/false);
  Value kvStart = kb.c(0), kvEnd = rows.kvEnd;
  if (s.maskMod) {
    MaskTiles mt = mods.tiles(
        kb, /*swap=*/false, rows.rowBase,
        arith::AddIOp::create(b, loc, rows.rowBase,
                              kb.c(s.threads / s.lanes - 1)),
        kvEnd, s.tile);
    kvStart = mt.start;
    kvEnd = mt.end;
  }

  // q row (this thread's 1 / L of it), pre-scaled by scale, in registers.
  const int64_t L = s.lanes, dvq = s.dv / L;
  SmallVector<Value> qv = loadRow(kb, q, rowOf(kb, bh, s.nqValue(kb), rowc),
                                  s.d, kb.f(s.scale), rows.lane, L);

  SmallVector<Value> inits{kb.f(ninf), kb.f(0.0f)};
  for (int64_t e = 0; e < dvq; ++e)
    inits.push_back(kb.f(0.0f));
  auto loop = scf::ForOp::create(
      b, loc, kvStart, kvEnd, kb.c(s.tile), inits,
      [&](OpBuilder &lb, Location l, Value jt, ValueRange args) {
        KernelBuilder kl{lb, l};
        // K and V tiles (f32) in shared memory, zero past Nk.
        stageTile(lb, l, k, kTile, rows.kvbh, jt, s.tile, s.nkValue(kl), s.d,
                  tid, s.threads);
        stageTile(lb, l, v, vTile, rows.kvbh, jt, s.tile, s.nkValue(kl), s.dv,
                  tid, s.threads);
        gpu::BarrierOp::create(lb, l);

        // Scores of this thread's row against the tile (natural units).
        SmallVector<Value> sv;
        Value m = args[0], lsum = args[1];
        Value mt = kl.f(ninf);
        for (int64_t t = 0; t < s.tile; ++t) {
          Value acc = scoreDot(kl, qv, kTile, t, rows.lane, L, s.d);
          Value key = arith::AddIOp::create(lb, l, jt, kl.c(t));
          Value keyc = arith::MinUIOp::create(lb, l, key, s.nkValue(kl, -1));
          if (s.scoreMod)
            acc = mods.score(kl, 0, acc, rowc, keyc);
          Value vis = mods.visible(kl, 0, keyVisible(kl, s, rows, key), rowc,
                                   keyc);
          if (mask)
            acc = addMask(kl, s, acc, mask, maskBase, rowc, keyc,
                          /*natural=*/true);
          Value st = arith::SelectOp::create(lb, l, vis, acc, kl.f(ninf));
          sv.push_back(st);
          mt = arith::MaxNumFOp::create(lb, l, mt, st);
        }
        Value mNew = arith::MaxNumFOp::create(lb, l, m, mt);
        Value isInf = arith::CmpFOp::create(lb, l, arith::CmpFPredicate::OEQ,
                                            mNew, kl.f(ninf));
        Value ms = arith::SelectOp::create(lb, l, isInf, kl.f(0.0f), mNew);
        // 2^((x - ms) log2 e): the difference first, exact where x is
        // near ms (a fused x log2 e - ms log2 e would round ms log2 e).
        auto expm = [&](Value x) {
          return exp2(lb, l,
                      arith::MulFOp::create(
                          lb, l, arith::SubFOp::create(lb, l, x, ms),
                          kl.f(kLog2e)));
        };
        Value alpha = expm(m);
        Value lNew = arith::MulFOp::create(lb, l, lsum, alpha);
        SmallVector<Value> pv;
        for (Value st : sv) {
          Value p = expm(st);
          pv.push_back(p);
          lNew = arith::AddFOp::create(lb, l, lNew, p);
        }
        SmallVector<Value> next{mNew, lNew};
        for (int64_t e = 0; e < dvq; ++e) {
          Value acc = arith::MulFOp::create(lb, l, args[2 + e], alpha);
          Value col = laneColumn(kl, rows.lane, L, e);
          for (int64_t t = 0; t < s.tile; ++t) {
            Value vx =
                memref::LoadOp::create(lb, l, vTile, ValueRange{kl.c(t), col});
            acc = fmac(lb, l, pv[t], vx, acc);
          }
          next.push_back(acc);
        }
        gpu::BarrierOp::create(lb, l);
        scf::YieldOp::create(lb, l, next);
      });

  // Write o and lse for active rows.
  scf::IfOp::create(b, loc, rows.active, [&](OpBuilder &ib, Location il) {
    KernelBuilder ki{ib, il};
    Value m = loop.getResult(0), lsum = loop.getResult(1);
    Value none = arith::CmpFOp::create(ib, il, arith::CmpFPredicate::OEQ, lsum,
                                       ki.f(0.0f));
    Value inv = arith::DivFOp::create(ib, il, ki.f(1.0f), lsum);
    Value orow = rowOf(ki, bh, s.nqValue(ki), row);
    for (int64_t e = 0; e < dvq; ++e) {
      Value x = arith::MulFOp::create(ib, il, loop.getResult(2 + e), inv);
      x = arith::SelectOp::create(ib, il, none, ki.f(0.0f), x);
      if (!s.elt.isF32())
        x = arith::TruncFOp::create(ib, il, s.elt, x);
      memref::StoreOp::create(
          ib, il, x, o, ValueRange{orow, laneColumn(ki, rows.lane, L, e)});
    }
    Value lg = fmac(ib, il, log2(ib, il, lsum), ki.f(0.6931471805599453f), m);
    lg = arith::SelectOp::create(ib, il, none, ki.f(ninf), lg);
    storeFromFirstLane(ki, lg, lse, ValueRange{orow}, rows.lane);
    scf::YieldOp::create(ib, il);
  });
  gpu::ReturnOp::create(b, loc);
  return fn;
}

/// Stores this thread's values of a row (columns laneColumn(lane, lanes,
/// i)).
void storeRow(KernelBuilder &kb, ValueRange vals, Value dst, Value row,
              Type elt, Value mul, Value lane, int64_t lanes) {
  for (auto [d, v] : llvm::enumerate(vals)) {
    Value x = mul ? arith::MulFOp::create(kb.b, kb.loc, v, mul).getResult() : v;
    if (!elt.isF32())
      x = arith::TruncFOp::create(kb.b, kb.loc, elt, x);
    memref::StoreOp::create(
        kb.b, kb.loc, x, dst,
        ValueRange{row, laneColumn(kb, lane, lanes, d)});
  }
}

/// P and dS of one score (x = (scale q) . k, the forward's) of the
/// backward: P = 2^((score [+ mask] - lse) log2 e), 0 for a row that saw no
/// key (`empty`); dS = P (dP - D) [times d score_mod / ds], 0 where not
/// visible (`vis`, narrowed by a mask_mod).
std::pair<Value, Value> probAndDScore(KernelBuilder &kl, const KernelSpec &s,
                                      const KernelModifiers &mods, Value x,
                                      Value row, Value key, Value lse,
                                      Value &vis, Value empty, Value mask,
                                      Value maskBase, Value dp, Value dRow) {
  Value dMod;
  Value y = mods.gradScore(kl, 0, x, row, key, dMod, vis);
  if (mask)
    y = addMask(kl, s, y, mask, maskBase, row, key, /*natural=*/true);
  Value arg = arith::MulFOp::create(
      kl.b, kl.loc, arith::SubFOp::create(kl.b, kl.loc, y, lse),
      kl.f(kLog2e));
  Value p = arith::SelectOp::create(kl.b, kl.loc, empty, kl.f(0.0f),
                                    exp2(kl.b, kl.loc, arg));
  Value ds = KernelModifiers::dScore(
      kl, p, arith::SubFOp::create(kl.b, kl.loc, dp, dRow), dMod, vis);
  return {p, ds};
}

/// dQ (and D = rowsum(dO * O)): args (q, k, v, o, lse, dO, dq, D[, mask]
/// [, captures]), one query row per s.lanes threads.
gpu::GPUFuncOp buildGradQKernel(OpBuilder &ob, Location loc, StringRef name,
                                const KernelSpec &s) {
  MLIRContext *ctx = ob.getContext();
  SmallVector<Type> argTys = gradQArgTypes(ctx, s);
  auto fn = newKernel(ob, loc, name, s, argTys,
                      {tileType(ctx, s.tile, s.d), tileType(ctx, s.tile, s.dv)},
                      s.threads);
  OpBuilder b = OpBuilder::atBlockBegin(&fn.front());
  KernelBuilder kb{b, loc};
  Value q = fn.getArgument(0), k = fn.getArgument(1), v = fn.getArgument(2),
        o = fn.getArgument(3), lse = fn.getArgument(4), dO = fn.getArgument(5),
        dq = fn.getArgument(6), delta = fn.getArgument(7);
  Value mask = s.mask ? fn.getArgument(8) : Value();
  Value maskBase;
  Value kTile = fn.getWorkgroupAttributions()[0];
  Value vTile = fn.getWorkgroupAttributions()[1];
  const float ninf = -std::numeric_limits<float>::infinity();

  QueryRows rows = queryRows(kb, s);
  Value bh = rows.bh, tid = rows.tid, row = rows.row, rowc = rows.rowc,
        kvbh = rows.kvbh, active = rows.active;

  if (mask)
    maskBase = maskLeadBase(kb, s, bh);
  // This thread's 1 / L of the row's q, dO, o and dq.
  const int64_t L = s.lanes;
  Value lane = rows.lane;
  Value qrow = rowOf(kb, bh, s.nqValue(kb), rowc);
  SmallVector<Value> qv = loadRow(kb, q, qrow, s.d, kb.f(s.scale), lane, L);
  SmallVector<Value> dov = loadRow(kb, dO, qrow, s.dv, Value(), lane, L);
  SmallVector<Value> ov = loadRow(kb, o, qrow, s.dv, Value(), lane, L);
  Value dRow = kb.f(0.0f);
  for (auto [a, c] : llvm::zip(dov, ov))
    dRow = fmac(b, loc, a, c, dRow);
  if (L > 1)
    dRow = sumOverLanes(kb, dRow, L);
  Value lseRow = memref::LoadOp::create(b, loc, lse, ValueRange{qrow});
  Value rowEmpty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                         lseRow, kb.f(ninf));
  // The modifier regions at the thread's row; a mask_mod's affine bounds
  // narrow the keys the block visits.
  KernelModifiers mods(kb, s, fn, bh, {rowc}, /*fixedIsKey=*/false);
  Value kvStart = kb.c(0), kvEnd = rows.kvEnd;
  if (s.maskMod) {
    MaskTiles mt = mods.tiles(
        kb, /*swap=*/false, rows.rowBase,
        arith::AddIOp::create(b, loc, rows.rowBase, kb.c(s.threads / L - 1)),
        kvEnd, s.tile);
    kvStart = mt.start;
    kvEnd = mt.end;
  }

  SmallVector<Value> inits(s.d / L, kb.f(0.0f));
  auto loop = scf::ForOp::create(
      b, loc, kvStart, kvEnd, kb.c(s.tile), inits,
      [&](OpBuilder &lb, Location l, Value jt, ValueRange acc) {
        KernelBuilder kl{lb, l};
        stageTile(lb, l, k, kTile, kvbh, jt, s.tile, s.nkValue(kl), s.d, tid,
                  s.threads);
        stageTile(lb, l, v, vTile, kvbh, jt, s.tile, s.nkValue(kl), s.dv, tid,
                  s.threads);
        gpu::BarrierOp::create(lb, l);
        SmallVector<Value> next(acc);
        for (int64_t t = 0; t < s.tile; ++t) {
          Value x = scoreDot(kl, qv, kTile, t, lane, L, s.d);
          Value key = arith::AddIOp::create(lb, l, jt, kl.c(t));
          Value keyc = arith::MinUIOp::create(lb, l, key, s.nkValue(kl, -1));
          Value vis = keyVisible(kl, s, rows, key);
          Value ds = probAndDScore(kl, s, mods, x, rowc, keyc, lseRow, vis,
                                   rowEmpty, mask, maskBase,
                                   dotTile(kl, dov, vTile, t, lane, L, L), dRow)
                         .second;
          for (int64_t d = 0; d < s.d / L; ++d) {
            Value kx = memref::LoadOp::create(
                lb, l, kTile, ValueRange{kl.c(t), laneColumn(kl, lane, L, d)});
            next[d] = fmac(lb, l, ds, kx, next[d]);
          }
        }
        gpu::BarrierOp::create(lb, l);
        scf::YieldOp::create(lb, l, next);
      });
  scf::IfOp::create(b, loc, active, [&](OpBuilder &ib, Location il) {
    KernelBuilder ki{ib, il};
    Value orow = rowOf(ki, bh, s.nqValue(ki), row);
    storeRow(ki, loop.getResults(), dq, orow, s.elt, ki.f(s.scale), lane, L);
    storeFromFirstLane(ki, dRow, delta, ValueRange{orow}, lane);
    scf::YieldOp::create(ib, il);
  });
  gpu::ReturnOp::create(b, loc);
  return fn;
}

/// dK, dV: args (q, k, v, lse, dO, D, dk, dv[, mask][, captures]), one key
/// row per s.lanes threads, summing over the query heads of a GQA group.
gpu::GPUFuncOp buildGradKVKernel(OpBuilder &ob, Location loc, StringRef name,
                                 const KernelSpec &s) {
  MLIRContext *ctx = ob.getContext();
  int64_t group = s.hq / s.hkv;
  SmallVector<Type> argTys = gradKVArgTypes(ctx, s);
  auto fn = newKernel(ob, loc, name, s, argTys,
                      {tileType(ctx, s.tile, s.d), tileType(ctx, s.tile, s.dv),
                       tileType(ctx, s.tile, 2)},
                      s.threads);
  OpBuilder b = OpBuilder::atBlockBegin(&fn.front());
  KernelBuilder kb{b, loc};
  Value q = fn.getArgument(0), k = fn.getArgument(1), v = fn.getArgument(2),
        lse = fn.getArgument(3), dO = fn.getArgument(4),
        delta = fn.getArgument(5), dk = fn.getArgument(6),
        dv = fn.getArgument(7);
  Value mask = s.mask ? fn.getArgument(8) : Value();
  Value qTile = fn.getWorkgroupAttributions()[0];
  Value doTile = fn.getWorkgroupAttributions()[1];
  Value rowTile = fn.getWorkgroupAttributions()[2]; // (lse, D) per query
  const float ninf = -std::numeric_limits<float>::infinity();

  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value kvbh = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  // L threads per key, each holding 1 / L of its k, v, dk and dv.
  const int64_t L = s.lanes;
  Value keyBase = arith::MulIOp::create(b, loc, bx, kb.c(s.threads / L));
  Value lane, inBlock = tid;
  if (L > 1) {
    inBlock = arith::DivUIOp::create(b, loc, tid, kb.c(L));
    lane = arith::RemUIOp::create(b, loc, tid, kb.c(L));
  }
  Value key = arith::AddIOp::create(b, loc, keyBase, inBlock);
  Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, key,
                                       s.nkValue(kb));
  Value keyc = arith::MinUIOp::create(b, loc, key, s.nkValue(kb, -1));
  Value bIdx = arith::DivUIOp::create(b, loc, kvbh, kb.c(s.hkv));
  Value hkv = arith::RemUIOp::create(b, loc, kvbh, kb.c(s.hkv));
  Value firstQHead = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, bIdx, kb.c(s.hq)),
      arith::MulIOp::create(b, loc, hkv, kb.c(group)));

  Value krow = rowOf(kb, kvbh, s.nkValue(kb), keyc);
  SmallVector<Value> kv = loadRow(kb, k, krow, s.d, Value(), lane, L);
  SmallVector<Value> vv = loadRow(kb, v, krow, s.dv, Value(), lane, L);
  // Queries that can see this block's keys: i >= keyBase - off.
  Value qStart = kb.c(0);
  if (s.causalOffset) {
    Value first =
        arith::SubIOp::create(b, loc, keyBase, s.causalOffsetValue(kb));
    first = arith::MaxSIOp::create(b, loc, first, kb.c(0));
    qStart = arith::MulIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, first, kb.c(s.tile)),
        kb.c(s.tile));
  }
  const int64_t dq = s.d / L, dvq = s.dv / L;
  SmallVector<Value> inits(dq + dvq, kb.f(0.0f));
  auto heads = scf::ForOp::create(
      b, loc, kb.c(0), kb.c(group), kb.c(1), inits,
      [&](OpBuilder &hb, Location hl, Value g, ValueRange accH) {
        KernelBuilder kh{hb, hl};
        Value bh = arith::AddIOp::create(hb, hl, firstQHead, g);
        Value maskBase = mask ? maskLeadBase(kh, s, bh) : Value();
        // This query head's modifier regions at the thread's key; a
        // mask_mod's affine bounds narrow the queries that see the block.
        KernelModifiers mods(kh, s, fn, bh, {keyc}, /*fixedIsKey=*/true);
        Value qFrom = qStart, qEnd = s.nqValue(kh);
        if (s.maskMod) {
          MaskTiles mt = mods.tiles(
              kh, /*swap=*/true, keyBase,
              arith::AddIOp::create(hb, hl, keyBase, kh.c(s.threads / L - 1)),
              qEnd, s.tile);
          qFrom = arith::MaxSIOp::create(hb, hl, mt.start, qStart);
          qEnd = mt.end;
        }
        auto qloop = scf::ForOp::create(
            hb, hl, qFrom, qEnd, kh.c(s.tile), accH,
            [&](OpBuilder &lb, Location l, Value it, ValueRange acc) {
              KernelBuilder kl{lb, l};
              // q pre-scaled as the forward's: the same scores.
              stageTile(lb, l, q, qTile, bh, it, s.tile, s.nqValue(kl), s.d,
                        tid, s.threads, kl.f(s.scale));
              stageTile(lb, l, dO, doTile, bh, it, s.tile, s.nqValue(kl),
                        s.dv, tid, s.threads);
              // (lse, D) of the tile's rows.
              scf::ForOp::create(
                  lb, l, tid, kl.c(s.tile), kl.c(s.threads), ValueRange{},
                  [&](OpBuilder &sb, Location sl, Value r, ValueRange) {
                    KernelBuilder ks{sb, sl};
                    Value row = arith::AddIOp::create(sb, sl, it, r);
                    Value rowc = rowOf(
                        ks, bh, s.nqValue(ks),
                        arith::MinUIOp::create(sb, sl, row, s.nqValue(ks, -1)));
                    Value lv =
                        memref::LoadOp::create(sb, sl, lse, ValueRange{rowc});
                    Value dv =
                        memref::LoadOp::create(sb, sl, delta, ValueRange{rowc});
                    memref::StoreOp::create(sb, sl, lv, rowTile,
                                            ValueRange{r, ks.c(0)});
                    memref::StoreOp::create(sb, sl, dv, rowTile,
                                            ValueRange{r, ks.c(1)});
                    scf::YieldOp::create(sb, sl);
                  });
              gpu::BarrierOp::create(lb, l);
              SmallVector<Value> next(acc);
              for (int64_t t = 0; t < s.tile; ++t) {
                Value x = scoreDot(kl, kv, qTile, t, lane, L, s.d);
                Value qrow = arith::AddIOp::create(lb, l, it, kl.c(t));
                Value qrowc =
                    arith::MinUIOp::create(lb, l, qrow, s.nqValue(kl, -1));
                Value vis = arith::CmpIOp::create(
                    lb, l, arith::CmpIPredicate::ult, qrow, s.nqValue(kl));
                if (s.causalOffset)
                  vis = arith::AndIOp::create(
                      lb, l, vis,
                      arith::CmpIOp::create(
                          lb, l, arith::CmpIPredicate::sle, key,
                          arith::AddIOp::create(lb, l, qrow,
                                                s.causalOffsetValue(kl))));
                Value lseq = memref::LoadOp::create(
                    lb, l, rowTile, ValueRange{kl.c(t), kl.c(0)});
                Value dRow = memref::LoadOp::create(
                    lb, l, rowTile, ValueRange{kl.c(t), kl.c(1)});
                Value empty = arith::CmpFOp::create(
                    lb, l, arith::CmpFPredicate::OEQ, lseq, kl.f(ninf));
                auto [p, ds] = probAndDScore(
                    kl, s, mods, x, qrowc, keyc, lseq, vis, empty, mask,
                    maskBase, dotTile(kl, vv, doTile, t, lane, L, L), dRow);
                p = arith::SelectOp::create(lb, l, vis, p, kl.f(0.0f));
                for (int64_t d = 0; d < dq; ++d) {
                  Value qx = memref::LoadOp::create(
                      lb, l, qTile,
                      ValueRange{kl.c(t), laneColumn(kl, lane, L, d)});
                  next[d] = fmac(lb, l, ds, qx, next[d]);
                }
                for (int64_t e = 0; e < dvq; ++e) {
                  Value ox = memref::LoadOp::create(
                      lb, l, doTile,
                      ValueRange{kl.c(t), laneColumn(kl, lane, L, e)});
                  next[dq + e] = fmac(lb, l, p, ox, next[dq + e]);
                }
              }
              gpu::BarrierOp::create(lb, l);
              scf::YieldOp::create(lb, l, next);
            });
        scf::YieldOp::create(hb, hl, qloop.getResults());
      });
  scf::IfOp::create(b, loc, active, [&](OpBuilder &ib, Location il) {
    KernelBuilder ki{ib, il};
    ValueRange r = heads.getResults();
    Value orow = rowOf(ki, kvbh, s.nkValue(ki), key);
    // (The q tile is pre-scaled: dk needs no further scale.)
    storeRow(ki, r.take_front(dq), dk, orow, s.elt, Value(), lane, L);
    storeRow(ki, r.drop_front(dq), dv, orow, s.elt, Value(), lane, L);
    scf::YieldOp::create(ib, il);
  });
  gpu::ReturnOp::create(b, loc);
  return fn;
}

/// Threads per row of the SIMT kernels: as asked, or enough that a thread
/// holds at most 64 values of its `rows` row vectors (forward: q and o;
/// backward: q, dO, dq and o, or k, v, dk and dv), up to 8 (the row's
/// threads must share a subgroup: lavapipe's has 8); then halved until it
/// divides both head dims and the block.
int64_t lanesFor(const KernelSpec &s, int64_t want, int64_t rows) {
  if (want == 0) {
    want = 1;
    while (want < 8 && rows * std::max(s.d, s.dv) > 64 * want)
      want *= 2;
  }
  while (want > 1 && (s.d % want || s.dv % want || s.threads % want))
    want /= 2;
  return want;
}

struct SIMTKind : KernelKind {
  bool applies(KernelSpec &s, const FlashMapToGPUOptions &o,
               bool backward) const override {
    s.lanes = backward ? lanesFor(s, o.gradRowLanes, /*rows=*/4)
                       : lanesFor(s, o.rowLanes, /*rows=*/2);
    // (fp8 is the wgmma fp8 forward's alone: no descale factors here.)
    return !s.isFloat8();
  }

  /// The kernels, with keys per tile halved until each fits
  /// max-workgroup-memory.
  FailureOr<SmallVector<MappedKernel>>
  build(OpBuilder &b, Operation *op, ArrayRef<std::string> names,
        KernelSpec &s, const FlashMapToGPUOptions &o,
        bool backward) const override {
    Location loc = op->getLoc();
    while (true) {
      SmallVector<gpu::GPUFuncOp> fns;
      if (backward)
        fns = {buildGradQKernel(b, loc, names[0], s),
               buildGradKVKernel(b, loc, names[1], s)};
      else
        fns = {buildForwardKernel(b, loc, names[0], s)};
      int64_t worst = 0;
      for (gpu::GPUFuncOp fn : fns)
        worst = std::max(worst, workgroupBytes(fn));
      if (o.maxWorkgroupMemory <= 0 || worst <= o.maxWorkgroupMemory) {
        SmallVector<MappedKernel> kernels;
        for (gpu::GPUFuncOp fn : fns)
          kernels.push_back({fn, s.threads, s.threads / s.lanes, "simt"});
        return kernels;
      }
      for (gpu::GPUFuncOp fn : fns)
        fn.erase();
      if (s.tile == 1)
        return op->emitOpError("needs ")
               << worst << " bytes of workgroup memory with one key per "
               << "tile; the limit is " << o.maxWorkgroupMemory
               << " (max-workgroup-memory)";
      s.tile /= 2;
    }
  }
};

} // namespace

std::shared_ptr<const KernelKind> gpukernels::simtKind() {
  return std::make_shared<SIMTKind>();
}
