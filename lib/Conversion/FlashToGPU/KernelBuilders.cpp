//===- KernelBuilders.cpp - What the GPU kernels share ---------------------===//
//
// The flattened problem's operand types, kernel functions and their
// workgroup buffers, the rows a block owns, causal limits, tiles staged in
// workgroup memory, rows split across lanes: the pieces every kernel kind
// builds with.
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToGPU/GPUKernels.h"

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

