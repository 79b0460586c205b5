//===- StageRing.cpp - The K/V ring of the warp-specialized forward -------===//
//
// See StageRing.h.
//
//===----------------------------------------------------------------------===//

#include "StageRing.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

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

// The two sums are at most the block's 168 x 384 registers: setmaxnreg
// moves registers within the block's allocation, and a warpgroup that asks
// for more than the others gave back waits for them forever (32 + 240 hung
// on the H200).
int32_t gpukernels::producerRegisters(const KernelSpec &s) {
  return s.d <= 64 || s.d > 128 || s.mmaPersistentBlocks ? 40 : 24;
}
int32_t gpukernels::consumerRegisters(const KernelSpec &s) {
  return s.d <= 64 || s.d > 128 || s.mmaPersistentBlocks ? 232 : 240;
}

// Producer thread ptid copies 16-byte chunk ptid % perRow of every step-th
// row from row ptid / perRow (perRow = min(width / 8, 16) chunks: at most
// two 64-column groups; step = producer threads / perRow, a multiple of 8),
// in each part of perRow chunks of a wider row, so its addresses on both
// sides differ by constants (immediate offsets of one register per part:
// few registers live) and its swizzle is the same in every row it copies.
// Rows at or past `limit` are zero-filled (src-size 0: nothing is read).
void gpukernels::streamTile(OpBuilder &b, Location loc, const SwizzledTiles &kv,
                            Value tile, Value ptid, Value src, Value bh,
                            Value row0, Value limit, int64_t rows,
                            int64_t width) {
  auto c = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  const int64_t perRow = std::min<int64_t>(width / 8, 16),
                step = kProducerThreads / perRow, parts = width / 8 / perRow;
  Value r0 = arith::DivUIOp::create(b, loc, ptid, c(perRow));
  Value col0 = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, ptid, c(perRow)), c(8));
  Value key0 = arith::AddIOp::create(b, loc, row0, r0);
  // The rows left from key0, in i32: each copy's check is a 32-bit compare
  // with an immediate (in index, two instructions a copy).
  auto i32 = [&](Value x) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), x);
  };
  Value left = arith::SubIOp::create(b, loc, i32(limit), i32(key0));
  auto tokTy = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  SmallVector<Value> toks;
  for (int64_t part = 0; part < parts; ++part) {
    Value col = arith::AddIOp::create(b, loc, col0, c(part * perRow * 8));
    Value dst0 = kv.at(b, loc, tile, r0, col)[0];
    for (int64_t i = 0; i < rows / step; ++i) {
      Value key = arith::AddIOp::create(b, loc, key0, c(i * step));
      Value in = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt,
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), i * step), left);
      Value n = arith::SelectOp::create(b, loc, in, c(8), c(0));
      Value dst = arith::AddIOp::create(b, loc, dst0, c(i * step * 64));
      toks.push_back(nvgpu::DeviceAsyncCopyOp::create(
                         b, loc, tokTy, kv.buf, ValueRange{dst}, src,
                         ValueRange{bh, key, col}, b.getIndexAttr(8), n,
                         b.getUnitAttr())
                         .getResult());
    }
  }
  nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokTy, toks);
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
