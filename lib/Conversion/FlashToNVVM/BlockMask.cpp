//===- BlockMask.cpp - A mask_mod's block mask for the tensor-core kernels ===//
//
// FlexAttention's BlockMask, computed on the device before the attention
// kernels: for a mask_mod that is more than affine bounds on the positions
// (a document mask reads segment ids), which tiles of the score matrix some
// position sees (the others are skipped) and which it sees in full. The
// table's entries are R x K tiles (KernelSpec::blockMaskRows / Keys), laid
// out [batch-head (or batch), ceil(Nq / R), ceil(Nk / K)]; each holds the
// code any | all << 1 as an f32. The kernels read one word a tile (the same
// address in every thread: a broadcast, and a uniform branch) where they
// used to evaluate the predicate at each of their accumulator positions and
// OR it across the CTA before each tile.
//
// Upstream MLIR has no block-sparse attention masks; this is our own.
//
//===----------------------------------------------------------------------===//

#include "MmaFragments.h"
#include "TensorCoreKernels.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

namespace {
/// The block mask kernel's warps: each fills one entry at a time.
constexpr int64_t kBlockMaskWarps = 16;

Value i32c(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

/// A warp's vote on `x` (i1): any, all, or the ballot (i32).
Value vote(OpBuilder &b, Location loc, Value x, NVVM::VoteSyncKind kind) {
  Type t = kind == NVVM::VoteSyncKind::ballot ? b.getI32Type() : b.getI1Type();
  return NVVM::VoteSyncOp::create(b, loc, t, i32c(b, loc, -1), x, kind);
}

/// The table's row of entries of batch-head `bh` (a query head) and entry
/// row `e`: its first word.
Value tableRow(KernelBuilder &kb, const KernelSpec &s, Value bh, Value e) {
  OpBuilder &b = kb.b;
  Location loc = kb.loc;
  Value lead = bh;
  if (!s.blockMaskPerHead)
    lead = arith::DivUIOp::create(b, loc, bh, kb.c(s.hq));
  Value rowsE =
      arith::CeilDivUIOp::create(b, loc, s.nqValue(kb), kb.c(s.blockMaskRows));
  Value keysE =
      arith::CeilDivUIOp::create(b, loc, s.nkValue(kb), kb.c(s.blockMaskKeys));
  Value r = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, lead, rowsE), e);
  return arith::MulIOp::create(b, loc, r, keysE);
}
} // namespace

bool gpukernels::blockMaskApplies(const KernelSpec &s) {
  return s.maskMod && !flash::maskModIsAffine(*s.maskMod, s.lead.size());
}

void gpukernels::setBlockMask(KernelSpec &s, int64_t rows, int64_t keys) {
  s.blockMaskRows = rows;
  s.blockMaskKeys = keys;
  // The head is the last leading position; a mask_mod that does not read
  // it has one table per batch.
  Block &body = s.maskMod->front();
  s.blockMaskPerHead =
      s.lead.empty() || !body.getArgument(s.lead.size() - 1).use_empty();
}

MappedKernel gpukernels::buildBlockMaskKernel(OpBuilder &ob, Location loc,
                                              StringRef name,
                                              const KernelSpec &s,
                                              ArrayRef<Type> argTypes) {
  const int64_t R = s.blockMaskRows, K = s.blockMaskKeys,
                threads = kBlockMaskWarps * 32;
  auto fn = newKernel(ob, loc, name, s, argTypes, {}, threads);
  OpBuilder b = OpBuilder::atBlockBegin(&fn.front());
  KernelBuilder kb{b, loc};
  Value table = blockMaskBuffer(fn, s);
  Value e = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value lead = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value warp = arith::DivUIOp::create(b, loc, tid, kb.c(32));
  Value lane = arith::RemUIOp::create(b, loc, tid, kb.c(32));
  // The batch-head whose positions the mask_mod sees (head 0 of the batch
  // when it does not read the head).
  Value bh = s.blockMaskPerHead
                 ? lead
                 : arith::MulIOp::create(b, loc, lead, kb.c(s.hq)).getResult();
  Value nq = s.nqValue(kb), nk = s.nkValue(kb);
  Value rowBase = arith::MulIOp::create(b, loc, e, kb.c(R));
  Value rowEnd = arith::MinUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, rowBase, kb.c(R)), nq);
  Value rowLast = arith::SubIOp::create(b, loc, rowEnd, kb.c(1));
  // Keys the entry row's rows may see (causal: up to its last row's
  // diagonal), narrowed by the mask_mod's affine conjuncts: entries outside
  // are 0 without evaluating the predicate.
  Value keyEnd = nk;
  if (s.causalOffset)
    keyEnd = arith::MinSIOp::create(
        b, loc, nk,
        arith::AddIOp::create(b, loc, rowLast, s.causalOffsetValue(kb, 1)));
  KernelModifiers outer(kb, s, fn, bh, {}, /*fixedIsKey=*/false);
  MaskTiles mt = outer.tiles(kb, /*swap=*/false, rowBase, rowLast, keyEnd, K);
  Value rowWords = tableRow(kb, s, bh, e);
  Value keysE = arith::CeilDivUIOp::create(b, loc, nk, kb.c(K));
  auto i1 = [](OpBuilder &ib, Location il, bool v) -> Value {
    return arith::ConstantIntOp::create(ib, il, ib.getI1Type(), v);
  };
  // Warp w fills entries w, w + 16, ...: each lane evaluates the predicate
  // at its columns of the entry (lane + 32 m), every row, with the parts
  // of the mask_mod that depend on the key alone hoisted out of the rows
  // (a segment id read once a column); two votes combine the lanes.
  scf::ForOp::create(
      b, loc, warp, keysE, kb.c(kBlockMaskWarps), ValueRange(),
      [&](OpBuilder &lb, Location l, Value c, ValueRange) {
        KernelBuilder kl{lb, l};
        Value key0 = arith::MulIOp::create(lb, l, c, kl.c(K));
        Value inRange = arith::AndIOp::create(
            lb, l,
            arith::CmpIOp::create(lb, l, arith::CmpIPredicate::sge, key0,
                                  mt.start),
            arith::CmpIOp::create(lb, l, arith::CmpIPredicate::slt, key0,
                                  mt.end));
        auto code = scf::IfOp::create(
            lb, l, inRange,
            [&](OpBuilder &ib, Location il) {
              KernelBuilder ki{ib, il};
              Value any = i1(ib, il, false), all = i1(ib, il, true);
              for (int64_t m = 0; m < (K + 31) / 32; ++m) {
                Value col = arith::AddIOp::create(ib, il, lane, ki.c(32 * m));
                Value key = arith::AddIOp::create(ib, il, key0, col);
                Value keyc =
                    arith::MinUIOp::create(ib, il, key, s.nkValue(ki, -1));
                KernelModifiers mods(ki, s, fn, bh, {keyc},
                                     /*fixedIsKey=*/true);
                auto rows = scf::ForOp::create(
                    ib, il, rowBase, rowEnd, ki.c(1), ValueRange{any, all},
                    [&](OpBuilder &eb, Location el, Value row, ValueRange acc) {
                      KernelBuilder ke{eb, el};
                      Value rowLimit;
                      if (s.causalOffset)
                        rowLimit = arith::AddIOp::create(
                            eb, el, row, s.causalOffsetValue(ke));
                      Value vis = mods.visible(
                          ke, 0, keyVisible(ke, s, rowLimit, key), row, keyc);
                      scf::YieldOp::create(
                          eb, el,
                          ValueRange{
                              arith::OrIOp::create(eb, el, acc[0], vis),
                              arith::AndIOp::create(eb, el, acc[1], vis)});
                    });
                // (Columns past the entry, where K < 32, do not count.)
                Value counts = arith::CmpIOp::create(
                    ib, il, arith::CmpIPredicate::ult, col, ki.c(K));
                any = arith::AndIOp::create(ib, il, rows.getResult(0), counts);
                all = arith::OrIOp::create(
                    ib, il, rows.getResult(1),
                    arith::XOrIOp::create(ib, il, counts, i1(ib, il, true)));
              }
              any = vote(ib, il, any, NVVM::VoteSyncKind::any);
              all = vote(ib, il, all, NVVM::VoteSyncKind::all);
              Value bits = arith::OrIOp::create(
                  ib, il, arith::ExtUIOp::create(ib, il, ib.getI32Type(), any),
                  arith::ShLIOp::create(
                      ib, il,
                      arith::ExtUIOp::create(
                          ib, il, ib.getI32Type(),
                          arith::AndIOp::create(ib, il, any, all)),
                      i32c(ib, il, 1)));
              scf::YieldOp::create(ib, il, ValueRange{bits});
            },
            [&](OpBuilder &ib, Location il) {
              scf::YieldOp::create(ib, il, ValueRange{i32c(ib, il, 0)});
            });
        Value first = arith::CmpIOp::create(lb, l, arith::CmpIPredicate::eq,
                                            lane, kl.c(0));
        scf::IfOp::create(lb, l, first, [&](OpBuilder &ib, Location il) {
          Value word = arith::UIToFPOp::create(ib, il, ib.getF32Type(),
                                               code.getResult(0));
          memref::StoreOp::create(
              ib, il, word, table,
              ValueRange{arith::AddIOp::create(ib, il, rowWords, c)});
          scf::YieldOp::create(ib, il);
        });
        scf::YieldOp::create(lb, l);
      });
  gpu::ReturnOp::create(b, loc);
  MappedKernel k{fn, threads, R, "block-mask"};
  k.rows = "nq";
  k.batchHeads = s.blockMaskPerHead ? "bh" : "b";
  k.scratchKeysPerWord = K;
  return k;
}

std::pair<Value, Value> gpukernels::blockMaskBits(KernelBuilder &kb,
                                                  const KernelSpec &s,
                                                  gpu::GPUFuncOp fn, Value bh,
                                                  Value row0, int64_t rows,
                                                  Value key0, int64_t keys) {
  OpBuilder &b = kb.b;
  Location loc = kb.loc;
  const int64_t R = s.blockMaskRows, K = s.blockMaskKeys;
  Value table = blockMaskBuffer(fn, s);
  Value lastE = arith::SubIOp::create(
      b, loc, arith::CeilDivUIOp::create(b, loc, s.nqValue(kb), kb.c(R)),
      kb.c(1));
  Value lastC = arith::SubIOp::create(
      b, loc, arith::CeilDivUIOp::create(b, loc, s.nkValue(kb), kb.c(K)),
      kb.c(1));
  Value e0 = arith::DivUIOp::create(b, loc, row0, kb.c(R));
  Value c0 = arith::DivUIOp::create(b, loc, key0, kb.c(K));
  Value any = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  Value all = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 2);
  // Entries past the table (rows past Nq, keys past Nk) read its last ones
  // again: they change neither the OR nor the AND.
  for (int64_t i = 0; i < std::max<int64_t>(rows / R, 1); ++i) {
    Value e = arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, e0, kb.c(i)), lastE);
    Value base = tableRow(kb, s, bh, e);
    for (int64_t j = 0; j < std::max<int64_t>(keys / K, 1); ++j) {
      Value c = arith::MinUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, c0, kb.c(j)), lastC);
      Value w = memref::LoadOp::create(
          b, loc, table, ValueRange{arith::AddIOp::create(b, loc, base, c)});
      Value bits = arith::FPToUIOp::create(b, loc, b.getI32Type(), w);
      any = arith::OrIOp::create(b, loc, any, bits);
      all = arith::AndIOp::create(b, loc, all, bits);
    }
  }
  auto nonzero = [&](Value x, int64_t bit) {
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(
            b, loc, x,
            arith::ConstantIntOp::create(b, loc, b.getI32Type(), bit)),
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0));
  };
  return {nonzero(any, 1), nonzero(all, 2)};
}

Value gpukernels::nextVisibleTile(
    OpBuilder &b, Location loc, Value t, Value end, int64_t step,
    function_ref<Value(OpBuilder &, Location, Value)> visible) {
  Value lane = arith::RemUIOp::create(
      b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x),
      arith::ConstantIndexOp::create(b, loc, 32));
  auto w = scf::WhileOp::create(
      b, loc, TypeRange{b.getIndexType()}, ValueRange{t},
      [&](OpBuilder &wb, Location wl, ValueRange a) {
        KernelBuilder kw{wb, wl};
        // Lane i reads the tile i steps on; the ballot's lowest lane wins.
        Value cand = arith::AddIOp::create(
            wb, wl, a[0], arith::MulIOp::create(wb, wl, lane, kw.c(step)));
        Value seen = arith::AndIOp::create(
            wb, wl,
            arith::CmpIOp::create(wb, wl, arith::CmpIPredicate::slt, cand, end),
            visible(wb, wl, cand));
        Value ballot = vote(wb, wl, seen, NVVM::VoteSyncKind::ballot);
        Value found = arith::CmpIOp::create(wb, wl, arith::CmpIPredicate::ne,
                                            ballot, i32c(wb, wl, 0));
        Value first = arith::IndexCastUIOp::create(
            wb, wl, wb.getIndexType(),
            LLVM::CountTrailingZerosOp::create(wb, wl, wb.getI32Type(), ballot,
                                               false));
        Value hit = arith::AddIOp::create(
            wb, wl, a[0], arith::MulIOp::create(wb, wl, first, kw.c(step)));
        Value miss = arith::AddIOp::create(wb, wl, a[0], kw.c(32 * step));
        Value at = arith::SelectOp::create(wb, wl, found, hit, miss);
        Value more = arith::AndIOp::create(
            wb, wl,
            arith::XOrIOp::create(
                wb, wl, found,
                arith::ConstantIntOp::create(wb, wl, wb.getI1Type(), 1)),
            arith::CmpIOp::create(wb, wl, arith::CmpIPredicate::slt, at, end));
        scf::ConditionOp::create(wb, wl, more, ValueRange{at});
      },
      [&](OpBuilder &wb, Location wl, ValueRange a) {
        scf::YieldOp::create(wb, wl, a);
      });
  return arith::MinSIOp::create(b, loc, w.getResult(0), end);
}
