//===- StageRing.cpp - The K/V ring of the warp-specialized forward -------===//
//
// See StageRing.h.
//
//===----------------------------------------------------------------------===//

#include "StageRing.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

Value StageBarriers::ptr(OpBuilder &b, Location loc, int64_t which,
                         Value stage) const {
  Value idx = arith::ConstantIntOp::create(b, loc, b.getI64Type(), which);
  if (stage)
    idx = arith::AddIOp::create(
        b, loc, idx,
        arith::IndexCastUIOp::create(b, loc, b.getI64Type(), stage));
  Value addr = arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(
          b, loc, idx,
          arith::ConstantIntOp::create(b, loc, b.getI64Type(), 8)));
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), addr);
}

void StageBarriers::init(OpBuilder &b, Location loc, int64_t which,
                         int64_t count) const {
  NVVM::MBarrierInitOp::create(
      b, loc, ptr(b, loc, which, Value()),
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), count), Value());
}

void StageBarriers::wait(OpBuilder &b, Location loc, int64_t which, Value stage,
                         Value parity) const {
  // The suspend-time hint CUTLASS's barriers give (10 ms).
  NVVM::MBarrierTryWaitParityOp::create(
      b, loc, ptr(b, loc, which, stage), parity,
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), 10000000));
}

void StageBarriers::waitReleased(OpBuilder &b, Location loc, int64_t which,
                                 Value stage, Value phase) const {
  wait(b, loc, which, stage,
       arith::XOrIOp::create(
           b, loc, phase,
           arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1)));
}

void StageBarriers::arrive(OpBuilder &b, Location loc, int64_t which,
                           Value stage) const {
  NVVM::MBarrierArriveOp::create(b, loc, Type(), ptr(b, loc, which, stage),
                                 Value());
}

void StageBarriers::arriveOnCopies(OpBuilder &b, Location loc, int64_t which,
                                   Value stage) const {
  NVVM::CpAsyncMBarrierArriveOp::create(b, loc, ptr(b, loc, which, stage),
                                        /*noinc=*/true);
}

void StageBarriers::arriveExpectBytes(OpBuilder &b, Location loc, int64_t which,
                                      Value stage, int64_t bytes) const {
  NVVM::MBarrierArriveExpectTxOp::create(
      b, loc, Type(), ptr(b, loc, which, stage),
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), bytes),
      NVVM::MemScopeKindAttr::get(b.getContext(), NVVM::MemScopeKind::CTA),
      b.getBoolAttr(false), Value());
}

void StageBarriers::expectBytes(OpBuilder &b, Location loc, int64_t which,
                                Value stage, int64_t bytes) const {
  NVVM::MBarrierExpectTxOp::create(
      b, loc, ptr(b, loc, which, stage),
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), bytes),
      NVVM::MemScopeKindAttr::get(b.getContext(), NVVM::MemScopeKind::CTA));
}

void gpukernels::loadTile(OpBuilder &b, Location loc, const SwizzledTiles &kv,
                          Value tile, Value map, Value bh, Value row0,
                          Value bar) {
  auto i64 = b.getI64Type(), i32 = b.getI32Type();
  auto c64 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i64, v);
  };
  const int64_t groupBytes = kv.rows * 128;
  Value first = arith::AddIOp::create(
      b, loc, kv.addr,
      arith::MulIOp::create(b, loc,
                            arith::IndexCastUIOp::create(b, loc, i64, tile),
                            c64(kv.rows * kv.width * kv.eltBytes)));
  Value row = arith::IndexCastOp::create(b, loc, i32, row0);
  Value head = arith::IndexCastOp::create(b, loc, i32, bh);
  // The destination in the cluster's window (a block is its own cluster).
  auto shared = LLVM::LLVMPointerType::get(b.getContext(), 3);
  auto cluster = LLVM::LLVMPointerType::get(b.getContext(), 7);
  for (int64_t g = 0; g < kv.width * kv.eltBytes / 128; ++g) {
    Value dst = LLVM::AddrSpaceCastOp::create(
        b, loc, cluster,
        LLVM::IntToPtrOp::create(
            b, loc, shared,
            arith::AddIOp::create(b, loc, first, c64(g * groupBytes))
                .getResult()));
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, loc, dst, map,
        ValueRange{
            arith::ConstantIntOp::create(b, loc, i32, g * 128 / kv.eltBytes),
            row, head},
        bar, ValueRange(), Value(), Value(),
        NVVM::TMALoadModeAttr::get(b.getContext(), NVVM::TMALoadMode::TILE),
        b.getBoolAttr(false), NVVM::CTAGroupKindAttr(), Value());
  }
}

// The two sums are at most the block's 168 x 384 registers: setmaxnreg
// moves registers within the block's allocation, and a warpgroup that asks
// for more than the others gave back waits for them forever (32 + 240 hung
// on the H200).
int32_t gpukernels::producerRegisters(const KernelSpec &s) {
  return s.tileD() <= 64 || s.tileD() > 128 || s.mmaPersistentBlocks ? 40 : 24;
}
int32_t gpukernels::consumerRegisters(const KernelSpec &s) {
  return s.tileD() <= 64 || s.tileD() > 128 || s.mmaPersistentBlocks ? 232
                                                                     : 240;
}

Value gpukernels::enterIssuingWarp(OpBuilder &b, Location loc, Value tid,
                                   int64_t first) {
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto warp = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                            c(first + 32)),
      [&](OpBuilder &ib, Location il) { scf::YieldOp::create(ib, il); });
  b.setInsertionPoint(warp.thenBlock()->getTerminator());
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, c(first));
}

scf::IfOp
gpukernels::ifElse(OpBuilder &b, Location loc, TypeRange types, Value cond,
                   function_ref<void(OpBuilder &, Location)> thenBody,
                   function_ref<void(OpBuilder &, Location)> elseBody) {
  auto op = scf::IfOp::create(b, loc, types, cond, /*withElseRegion=*/true);
  OpBuilder tb = OpBuilder::atBlockEnd(op.thenBlock());
  thenBody(tb, loc);
  OpBuilder eb = OpBuilder::atBlockEnd(op.elseBlock());
  elseBody(eb, loc);
  return op;
}

std::pair<Value, Value> gpukernels::ringSlot(OpBuilder &b, Location loc,
                                             Value n) {
  auto c = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value stage = arith::RemUIOp::create(b, loc, n, c(2));
  Value phase = arith::RemUIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, n, c(2)), c(2));
  return {stage, arith::IndexCastUIOp::create(b, loc, b.getI32Type(), phase)};
}
