//===- GradKernels.cpp - The backward of flash.attention as GPU kernels ---===//
//
// Two SIMT kernels (f32 math, log2 domain with log2(e) folded into scale):
//
//   dQ kernel, one query row i per thread, K/V tiles in shared memory:
//     D_i = sum dO_i * O_i                       (stored for the next kernel)
//     p = 2^(s2 - lse2_i), dp = dO_i . v_j, ds = p (dp - D_i)
//     dq_i = scale * sum_j ds k_j
//   dK/dV kernel, one key row j per thread (of a kv head), Q/dO tiles in
//   shared memory, over the query heads of its GQA group:
//     dv_j = sum_i p dO_i ;  dk_j = scale * sum_i ds q_i
//
// Rows above the causal diagonal and rows that saw no key (lse = -inf)
// contribute nothing. Each output element is written by one thread in a
// fixed order: results are deterministic.
//
//===----------------------------------------------------------------------===//

#include "GPUKernels.h"
#include "flash/Dialect/Flash/IR/Modifiers.h"
#include "flash/Conversion/FlashToNVVM/FlashToNVVM.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

void gpukernels::stageTile(OpBuilder &b, Location loc, Value src, Value dst,
                           Value bh, Value row0, int64_t rows, int64_t n,
                           int64_t width, Value tid, int64_t threads) {
  KernelBuilder kb{b, loc};
  scf::ForOp::create(
      b, loc, tid, kb.c(rows * width), kb.c(threads), ValueRange{},
      [&](OpBuilder &sb, Location sl, Value idx, ValueRange) {
        KernelBuilder ks{sb, sl};
        Value r = arith::DivUIOp::create(sb, sl, idx, ks.c(width));
        Value c = arith::RemUIOp::create(sb, sl, idx, ks.c(width));
        Value row = arith::AddIOp::create(sb, sl, row0, r);
        Value inb = arith::CmpIOp::create(sb, sl, arith::CmpIPredicate::ult,
                                          row, ks.c(n));
        Value rowc = arith::MinUIOp::create(sb, sl, row, ks.c(n - 1));
        Value x = ks.toF32(
            memref::LoadOp::create(sb, sl, src, ValueRange{bh, rowc, c}));
        x = arith::SelectOp::create(sb, sl, inb, x, ks.f(0.0f));
        memref::StoreOp::create(sb, sl, x, dst, ValueRange{r, c});
        scf::YieldOp::create(sb, sl);
      });
}

OperandTypes gpukernels::operandTypes(MLIRContext *ctx, const KernelSpec &s) {
  int64_t bhkv = s.bh / (s.hq / s.hkv);
  return {MemRefType::get({s.bh, s.nq, s.d}, s.elt),
          MemRefType::get({bhkv, s.nk, s.d}, s.elt),
          MemRefType::get({bhkv, s.nk, s.dv}, s.elt),
          MemRefType::get({s.bh, s.nq, s.dv}, s.elt),
          MemRefType::get({s.bh, s.nq}, Float32Type::get(ctx))};
}

SmallVector<Type> gpukernels::withMaskAndCaptures(MLIRContext *ctx,
                                                  const KernelSpec &s,
                                                  ArrayRef<Type> args) {
  SmallVector<Type> all(args);
  if (s.mask)
    all.push_back(maskType(ctx, s));
  for (RankedTensorType t : s.captures)
    all.push_back(captureType(ctx, t));
  return all;
}

SmallVector<Type> gpukernels::gradQArgTypes(MLIRContext *ctx,
                                            const KernelSpec &s) {
  OperandTypes t = operandTypes(ctx, s);
  return withMaskAndCaptures(ctx, s, {t.q, t.k, t.v, t.o, t.lse, t.o, t.q, t.lse});
}

SmallVector<Type> gpukernels::gradKVArgTypes(MLIRContext *ctx,
                                             const KernelSpec &s) {
  OperandTypes t = operandTypes(ctx, s);
  return withMaskAndCaptures(ctx, s, {t.q, t.k, t.v, t.lse, t.o, t.lse, t.k, t.v});
}

MemRefType gpukernels::tileType(MLIRContext *ctx, int64_t rows, int64_t width) {
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  return MemRefType::get({rows, width}, Float32Type::get(ctx),
                         MemRefLayoutAttrInterface(), wg);
}

gpu::GPUFuncOp gpukernels::newKernel(OpBuilder &ob, Location loc,
                                     StringRef name, TypeRange args,
                                     TypeRange workgroup, int64_t threads) {
  auto fn = gpu::GPUFuncOp::create(ob, loc, name, ob.getFunctionType(args, {}),
                                   workgroup, TypeRange{});
  fn->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), ob.getUnitAttr());
  fn.setKnownBlockSizeAttr(
      ob.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  return fn;
}

int64_t flash::workgroupBytes(gpu::GPUFuncOp fn) {
  int64_t bytes = 0;
  for (BlockArgument buf : fn.getWorkgroupAttributions()) {
    auto ty = cast<MemRefType>(buf.getType());
    bytes += ty.getNumElements() * ty.getElementTypeBitWidth() / 8;
  }
  return bytes;
}

QueryRows gpukernels::queryRows(KernelBuilder &kb, const KernelSpec &s) {
  OpBuilder &b = kb.b;
  Location loc = kb.loc;
  QueryRows r;
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  r.bh = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  r.tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  int64_t rows = s.threads / s.lanes;
  r.rowBase = arith::MulIOp::create(b, loc, bx, kb.c(rows));
  Value inBlock = r.tid;
  if (s.lanes > 1) {
    inBlock = arith::DivUIOp::create(b, loc, r.tid, kb.c(s.lanes));
    r.lane = arith::RemUIOp::create(b, loc, r.tid, kb.c(s.lanes));
  }
  r.row = arith::AddIOp::create(b, loc, r.rowBase, inBlock);
  r.active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, r.row,
                                   kb.c(s.nq));
  r.rowc = arith::MinUIOp::create(b, loc, r.row, kb.c(s.nq - 1));
  r.kvbh = kvHeadOf(kb, s, r.bh);
  r.kvEnd = blockKvEnd(kb, s, r.rowBase, rows);
  if (s.causalOffset)
    r.rowLimit = arith::AddIOp::create(b, loc, r.row, kb.c(*s.causalOffset));
  return r;
}

Value gpukernels::kvHeadOf(KernelBuilder &kb, const KernelSpec &s, Value bh) {
  OpBuilder &b = kb.b;
  Value bIdx = arith::DivUIOp::create(b, kb.loc, bh, kb.c(s.hq));
  Value hIdx = arith::RemUIOp::create(b, kb.loc, bh, kb.c(s.hq));
  return arith::AddIOp::create(
      b, kb.loc, arith::MulIOp::create(b, kb.loc, bIdx, kb.c(s.hkv)),
      arith::DivUIOp::create(b, kb.loc, hIdx, kb.c(s.hq / s.hkv)));
}

Value gpukernels::blockKvEnd(KernelBuilder &kb, const KernelSpec &s,
                             Value rowBase, int64_t rows) {
  if (!s.causalOffset)
    return kb.c(s.nk);
  OpBuilder &b = kb.b;
  Value lastRow = arith::MinUIOp::create(
      b, kb.loc, arith::AddIOp::create(b, kb.loc, rowBase, kb.c(rows - 1)),
      kb.c(s.nq - 1));
  Value end = arith::AddIOp::create(
      b, kb.loc,
      arith::AddIOp::create(b, kb.loc, lastRow, kb.c(*s.causalOffset)),
      kb.c(1));
  return arith::MinSIOp::create(
      b, kb.loc, arith::MaxSIOp::create(b, kb.loc, end, kb.c(0)), kb.c(s.nk));
}

Value gpukernels::keyVisible(KernelBuilder &kb, const KernelSpec &s,
                             Value rowLimit, Value key) {
  Value vis = arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::ult,
                                    key, kb.c(s.nk));
  if (rowLimit)
    vis = arith::AndIOp::create(kb.b, kb.loc, vis,
                                arith::CmpIOp::create(kb.b, kb.loc,
                                                      arith::CmpIPredicate::sle,
                                                      key, rowLimit));
  return vis;
}

Value gpukernels::keyVisible(KernelBuilder &kb, const KernelSpec &s,
                             const QueryRows &r, Value key) {
  return keyVisible(kb, s, r.rowLimit, key);
}

Value gpukernels::laneColumn(KernelBuilder &kb, Value lane, int64_t lanes,
                             int64_t i) {
  if (!lane)
    return kb.c(i);
  return arith::AddIOp::create(kb.b, kb.loc, lane, kb.c(lanes * i));
}

Value gpukernels::sumOverLanes(KernelBuilder &kb, Value x, int64_t lanes) {
  OpBuilder &b = kb.b;
  for (int64_t off = lanes / 2; off >= 1; off /= 2) {
    Value o = arith::ConstantOp::create(b, kb.loc, b.getI32IntegerAttr(off));
    Value w = arith::ConstantOp::create(b, kb.loc, b.getI32IntegerAttr(32));
    Value y = gpu::ShuffleOp::create(b, kb.loc, x, o, w, gpu::ShuffleMode::XOR)
                  .getShuffleResult();
    x = arith::AddFOp::create(b, kb.loc, x, y);
  }
  return x;
}

void gpukernels::storeFromFirstLane(KernelBuilder &kb, Value x, Value dst,
                                    ValueRange idx, Value lane) {
  if (!lane) {
    memref::StoreOp::create(kb.b, kb.loc, x, dst, idx);
    return;
  }
  Value first = arith::CmpIOp::create(kb.b, kb.loc, arith::CmpIPredicate::eq,
                                      lane, kb.c(0));
  scf::IfOp::create(kb.b, kb.loc, first, [&](OpBuilder &ib, Location il) {
    memref::StoreOp::create(ib, il, x, dst, idx);
    scf::YieldOp::create(ib, il);
  });
}

SmallVector<Value> gpukernels::loadRow(KernelBuilder &kb, Value src, Value bh,
                                       Value row, int64_t width, Value mul,
                                       Value lane, int64_t lanes) {
  SmallVector<Value> r;
  for (int64_t d = 0; d < width / lanes; ++d) {
    Value x = kb.toF32(memref::LoadOp::create(
        kb.b, kb.loc, src,
        ValueRange{bh, row, laneColumn(kb, lane, lanes, d)}));
    r.push_back(mul ? arith::MulFOp::create(kb.b, kb.loc, x, mul).getResult()
                    : x);
  }
  return r;
}

namespace {
/// Stores this thread's values of a row (columns laneColumn(lane, lanes,
/// i)).
void storeRow(KernelBuilder &kb, ValueRange vals, Value dst, Value bh,
              Value row, Type elt, Value mul, Value lane, int64_t lanes) {
  for (auto [d, v] : llvm::enumerate(vals)) {
    Value x = mul ? arith::MulFOp::create(kb.b, kb.loc, v, mul).getResult() : v;
    if (!elt.isF32())
      x = arith::TruncFOp::create(kb.b, kb.loc, elt, x);
    memref::StoreOp::create(
        kb.b, kb.loc, x, dst,
        ValueRange{bh, row, laneColumn(kb, lane, lanes, d)});
  }
}

/// sum_d a[d] * tile[t][d] over the whole row: this thread's columns, then
/// the sum over the row's threads.
Value dotTile(KernelBuilder &kb, ArrayRef<Value> a, Value tile, int64_t t,
              Value lane, int64_t lanes) {
  Value acc = kb.f(0.0f);
  for (auto [d, x] : llvm::enumerate(a)) {
    Value y = memref::LoadOp::create(
        kb.b, kb.loc, tile,
        ValueRange{kb.c(t), laneColumn(kb, lane, lanes, d)});
    acc = fmac(kb.b, kb.loc, x, y, acc);
  }
  return lanes > 1 ? sumOverLanes(kb, acc, lanes) : acc;
}

} // namespace

gpu::GPUFuncOp gpukernels::buildGradQKernel(OpBuilder &ob, Location loc,
                                            StringRef name,
                                            const KernelSpec &s) {
  MLIRContext *ctx = ob.getContext();
  SmallVector<Type> argTys = gradQArgTypes(ctx, s);
  auto fn = newKernel(ob, loc, name, argTys,
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
  SmallVector<Value> qv = loadRow(kb, q, bh, rowc, s.d, Value(), lane, L);
  SmallVector<Value> dov = loadRow(kb, dO, bh, rowc, s.dv, Value(), lane, L);
  SmallVector<Value> ov = loadRow(kb, o, bh, rowc, s.dv, Value(), lane, L);
  Value dRow = kb.f(0.0f);
  for (auto [a, c] : llvm::zip(dov, ov))
    dRow = fmac(b, loc, a, c, dRow);
  if (L > 1)
    dRow = sumOverLanes(kb, dRow, L);
  Value lseRow = memref::LoadOp::create(b, loc, lse, ValueRange{bh, rowc});
  Value rowEmpty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                         lseRow, kb.f(ninf));
  Value lse2 = arith::MulFOp::create(b, loc, lseRow, kb.f(kLog2e));
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
        stageTile(lb, l, k, kTile, kvbh, jt, s.tile, s.nk, s.d, tid, s.threads);
        stageTile(lb, l, v, vTile, kvbh, jt, s.tile, s.nk, s.dv, tid,
                  s.threads);
        gpu::BarrierOp::create(lb, l);
        SmallVector<Value> next(acc);
        for (int64_t t = 0; t < s.tile; ++t) {
          Value x = dotTile(kl, qv, kTile, t, lane, L);
          Value key = arith::AddIOp::create(lb, l, jt, kl.c(t));
          Value keyc = arith::MinUIOp::create(lb, l, key, kl.c(s.nk - 1));
          Value vis = keyVisible(kl, s, rows, key), dMod;
          Value arg = mods.gradExponent(kl, 0, x, rowc, keyc, lse2, dMod, vis);
          if (mask)
            arg = addMask(kl, s, arg, mask, maskBase, rowc, keyc);
          Value p = exp2(lb, l, arg);
          Value zero = kl.f(0.0f);
          p = arith::SelectOp::create(lb, l, rowEmpty, zero, p);
          Value dp = dotTile(kl, dov, vTile, t, lane, L);
          Value ds = KernelModifiers::dScore(
              kl, p, arith::SubFOp::create(lb, l, dp, dRow), dMod, vis);
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
    storeRow(ki, loop.getResults(), dq, bh, row, s.elt, ki.f(s.scale), lane, L);
    storeFromFirstLane(ki, dRow, delta, ValueRange{bh, row}, lane);
    scf::YieldOp::create(ib, il);
  });
  gpu::ReturnOp::create(b, loc);
  return fn;
}

gpu::GPUFuncOp gpukernels::buildGradKVKernel(OpBuilder &ob, Location loc,
                                             StringRef name,
                                             const KernelSpec &s) {
  MLIRContext *ctx = ob.getContext();
  int64_t group = s.hq / s.hkv;
  SmallVector<Type> argTys = gradKVArgTypes(ctx, s);
  auto fn = newKernel(ob, loc, name, argTys,
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
  Value rowTile = fn.getWorkgroupAttributions()[2]; // (lse2, D) per query
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
  Value active =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, key, kb.c(s.nk));
  Value keyc = arith::MinUIOp::create(b, loc, key, kb.c(s.nk - 1));
  Value bIdx = arith::DivUIOp::create(b, loc, kvbh, kb.c(s.hkv));
  Value hkv = arith::RemUIOp::create(b, loc, kvbh, kb.c(s.hkv));
  Value firstQHead = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, bIdx, kb.c(s.hq)),
      arith::MulIOp::create(b, loc, hkv, kb.c(group)));

  SmallVector<Value> kv = loadRow(kb, k, kvbh, keyc, s.d, Value(), lane, L);
  SmallVector<Value> vv = loadRow(kb, v, kvbh, keyc, s.dv, Value(), lane, L);
  // Queries that can see this block's keys: i >= keyBase - off.
  Value qStart = kb.c(0);
  if (s.causalOffset) {
    Value first = arith::SubIOp::create(b, loc, keyBase, kb.c(*s.causalOffset));
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
        Value qFrom = qStart, qEnd = kh.c(s.nq);
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
              stageTile(lb, l, q, qTile, bh, it, s.tile, s.nq, s.d, tid,
                        s.threads);
              stageTile(lb, l, dO, doTile, bh, it, s.tile, s.nq, s.dv, tid,
                        s.threads);
              // (lse * log2 e, D) of the tile's rows.
              scf::ForOp::create(
                  lb, l, tid, kl.c(s.tile), kl.c(s.threads), ValueRange{},
                  [&](OpBuilder &sb, Location sl, Value r, ValueRange) {
                    KernelBuilder ks{sb, sl};
                    Value row = arith::AddIOp::create(sb, sl, it, r);
                    Value rowc =
                        arith::MinUIOp::create(sb, sl, row, ks.c(s.nq - 1));
                    Value lv = memref::LoadOp::create(sb, sl, lse,
                                                      ValueRange{bh, rowc});
                    Value dv = memref::LoadOp::create(sb, sl, delta,
                                                      ValueRange{bh, rowc});
                    memref::StoreOp::create(
                        sb, sl, arith::MulFOp::create(sb, sl, lv, ks.f(kLog2e)),
                        rowTile, ValueRange{r, ks.c(0)});
                    memref::StoreOp::create(sb, sl, dv, rowTile,
                                            ValueRange{r, ks.c(1)});
                    scf::YieldOp::create(sb, sl);
                  });
              gpu::BarrierOp::create(lb, l);
              SmallVector<Value> next(acc);
              for (int64_t t = 0; t < s.tile; ++t) {
                Value x = dotTile(kl, kv, qTile, t, lane, L);
                Value qrow = arith::AddIOp::create(lb, l, it, kl.c(t));
                Value qrowc =
                    arith::MinUIOp::create(lb, l, qrow, kl.c(s.nq - 1));
                Value vis = arith::CmpIOp::create(
                    lb, l, arith::CmpIPredicate::ult, qrow, kl.c(s.nq));
                if (s.causalOffset)
                  vis = arith::AndIOp::create(
                      lb, l, vis,
                      arith::CmpIOp::create(
                          lb, l, arith::CmpIPredicate::sle, key,
                          arith::AddIOp::create(lb, l, qrow,
                                                kl.c(*s.causalOffset))));
                Value l2 = memref::LoadOp::create(lb, l, rowTile,
                                                  ValueRange{kl.c(t), kl.c(0)});
                Value dRow = memref::LoadOp::create(
                    lb, l, rowTile, ValueRange{kl.c(t), kl.c(1)});
                Value empty = arith::CmpFOp::create(
                    lb, l, arith::CmpFPredicate::OEQ, l2, kl.f(ninf));
                Value dMod;
                Value arg =
                    mods.gradExponent(kl, 0, x, qrowc, keyc, l2, dMod, vis);
                if (mask)
                  arg = addMask(kl, s, arg, mask, maskBase, qrowc, keyc);
                Value p = exp2(lb, l, arg);
                Value zero = kl.f(0.0f);
                p = arith::SelectOp::create(lb, l, empty, zero, p);
                Value dp = dotTile(kl, vv, doTile, t, lane, L);
                Value ds = KernelModifiers::dScore(
                    kl, p, arith::SubFOp::create(lb, l, dp, dRow), dMod, vis);
                p = arith::SelectOp::create(lb, l, vis, p, zero);
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
    storeRow(ki, r.take_front(dq), dk, kvbh, key, s.elt, ki.f(s.scale), lane,
             L);
    storeRow(ki, r.drop_front(dq), dv, kvbh, key, s.elt, Value(), lane, L);
    scf::YieldOp::create(ib, il);
  });
  gpu::ReturnOp::create(b, loc);
  return fn;
}
