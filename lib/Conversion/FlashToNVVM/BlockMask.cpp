//===- BlockMask.cpp - A mask_mod's block mask for the tensor-core kernels ===//
//
// FlexAttention's BlockMask, computed on the device before the attention
// kernels: for a mask_mod that is more than affine bounds on the positions
// (a document mask reads segment ids), which tiles of the score matrix some
// position sees (the others are skipped) and which it sees in full. The
// table's entries are R x K tiles (KernelSpec::blockMaskRows / Keys), laid
// out [batch-head (or batch), ceil(Nq / R), ceil(Nk / K)]; each holds the
// code any | all << 1 as an f32. The kernel that fills it bounds an entry by
// the ranges of the mask_mod's split compares (seg_q[i] == seg_k[j]: the
// rows' ids against the keys') where the mask_mod is made of those and
// affine conjuncts, else evaluates every position. The attention kernels
// walk the tiles with a cursor: each warp's lanes read 32 tiles' entries at
// once, and ballots of their bits, kept in registers, give the next tiles
// and whether each is seen in full (uniform across the CTA).
//
// Upstream MLIR has no block-sparse attention masks; this is our own.
//
//===----------------------------------------------------------------------===//

#include "MmaFragments.h"
#include "StageRing.h"
#include "TensorCoreKernels.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

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

/// x (i64) reduced over the warp's lanes: min or max (two 32-bit shuffles a
/// step).
Value warpReduce(OpBuilder &b, Location loc, Value x, bool isMin) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value c32 = arith::ConstantIntOp::create(b, loc, i64, 32);
  for (int32_t off : {16, 8, 4, 2, 1}) {
    auto shfl = [&](Value v) {
      return gpu::ShuffleOp::create(b, loc, v, off, 32, gpu::ShuffleMode::XOR)
          .getShuffleResult();
    };
    Value lo = shfl(arith::TruncIOp::create(b, loc, i32, x));
    Value hi = shfl(arith::TruncIOp::create(
        b, loc, i32, arith::ShRUIOp::create(b, loc, x, c32)));
    Value y = arith::OrIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, i64, lo),
        arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i64, hi),
                              c32));
    x = isMin ? arith::MinSIOp::create(b, loc, x, y).getResult()
              : arith::MaxSIOp::create(b, loc, x, y).getResult();
  }
  return x;
}

/// Whether `pred` holds for some (any) and for every (all) x in [xl, xh],
/// y in [yl, yh] (i64): `any` may say yes where none does.
std::pair<Value, Value> rangeCompare(OpBuilder &b, Location loc,
                                     arith::CmpIPredicate pred, Value xl,
                                     Value xh, Value yl, Value yh) {
  using P = arith::CmpIPredicate;
  auto cmp = [&](P p, Value x, Value y) -> Value {
    return arith::CmpIOp::create(b, loc, p, x, y);
  };
  auto both = [&](Value x, Value y) -> Value {
    return arith::AndIOp::create(b, loc, x, y);
  };
  auto either = [&](Value x, Value y) -> Value {
    return arith::OrIOp::create(b, loc, x, y);
  };
  Value one = both(both(cmp(P::eq, xl, xh), cmp(P::eq, yl, yh)),
                   cmp(P::eq, xl, yl)); // a single value on both sides
  Value apart = either(cmp(P::slt, xh, yl), cmp(P::slt, yh, xl));
  Value t = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  switch (pred) {
  case P::eq:
    return {arith::XOrIOp::create(b, loc, apart, t), one};
  case P::ne:
    return {arith::XOrIOp::create(b, loc, one, t), apart};
  case P::slt:
    return {cmp(P::slt, xl, yh), cmp(P::slt, xh, yl)};
  case P::sle:
    return {cmp(P::sle, xl, yh), cmp(P::sle, xh, yl)};
  case P::sgt:
    return {cmp(P::sgt, xh, yl), cmp(P::sgt, xl, yh)};
  default: // sge
    return {cmp(P::sge, xh, yl), cmp(P::sge, xl, yh)};
  }
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
  MaskTiles mt = outer.tiles(kb, /*swap=*/false, rowBase, rowLast, keyEnd, K,
                             /*inner=*/true);
  // Split compares: the ranges of their row sides over the entry row's
  // rows (each lane some rows, then the warp's min and max), once.
  // (Bounded per entry by the ranges of each side over its rows and keys:
  // exact where the sides are monotone in the positions, as sorted segment
  // ids are; O(R + K) work an entry instead of O(R K).)
  std::optional<SmallVector<flash::MaskSplitCompare>> split =
      flash::maskModSplitCompares(*s.maskMod, s.lead.size());
  SmallVector<Value> leadPos = leadPositions(kb, s, bh);
  auto readFn = [&](OpBuilder &rb, Location rl, unsigned k, ValueRange idx) {
    return readCapture(rb, rl, s, captureBuffers(fn, s), k, idx);
  };
  flash::CaptureReader read = readFn;
  // Side `v` of a compare at positions `pos` (a hoisting of the mask_mod
  // that binds them) as i64.
  auto sideAt = [&](OpBuilder &ib, Location il, Value v, ArrayRef<Value> pos,
                    const IRMapping &h) -> Value {
    Value x = isa<BlockArgument>(v) &&
                      cast<BlockArgument>(v).getArgNumber() < pos.size()
                  ? pos[cast<BlockArgument>(v).getArgNumber()]
                  : h.lookup(v);
    if (x.getType().isIndex())
      return arith::IndexCastOp::create(ib, il, ib.getI64Type(), x);
    if (x.getType().getIntOrFloatBitWidth() < 64)
      return arith::ExtSIOp::create(ib, il, ib.getI64Type(), x);
    return x;
  };
  auto i64c = [](OpBuilder &ib, Location il, int64_t v) -> Value {
    return arith::ConstantIntOp::create(ib, il, ib.getI64Type(), v);
  };
  // Lane-strided positions [base, base + n) below `limit`: per split
  // compare the min and max of side(v) over them, reduced over the warp.
  auto sideRanges = [&](OpBuilder &ib, Location il, Value base, int64_t n,
                        Value limit, bool keys) {
    SmallVector<std::pair<Value, Value>> r(
        split->size(), {i64c(ib, il, INT64_MAX), i64c(ib, il, INT64_MIN)});
    for (int64_t m = 0; m < (n + 31) / 32; ++m) {
      KernelBuilder ki{ib, il};
      Value at = arith::AddIOp::create(
          ib, il, base, arith::AddIOp::create(ib, il, lane, ki.c(32 * m)));
      Value valid = arith::AndIOp::create(
          ib, il,
          arith::CmpIOp::create(
              ib, il, arith::CmpIPredicate::ult,
              arith::AddIOp::create(ib, il, lane, ki.c(32 * m)), ki.c(n)),
          arith::CmpIOp::create(ib, il, arith::CmpIPredicate::ult, at, limit));
      Value atc = arith::MinUIOp::create(
          ib, il, at, arith::SubIOp::create(ib, il, limit, ki.c(1)));
      SmallVector<Value> pos(leadPos);
      pos.push_back(keys ? Value() : atc);
      pos.push_back(keys ? atc : Value());
      IRMapping h = flash::hoistModifier(ib, il, *s.maskMod, pos, read);
      for (auto [k, sc] : llvm::enumerate(*split)) {
        Value x = sideAt(ib, il, keys ? sc.key : sc.row, pos, h);
        r[k].first = arith::SelectOp::create(
            ib, il, valid, arith::MinSIOp::create(ib, il, r[k].first, x),
            r[k].first);
        r[k].second = arith::SelectOp::create(
            ib, il, valid, arith::MaxSIOp::create(ib, il, r[k].second, x),
            r[k].second);
      }
    }
    for (auto &[lo, hi] : r) {
      lo = warpReduce(ib, il, lo, /*isMin=*/true);
      hi = warpReduce(ib, il, hi, /*isMin=*/false);
    }
    return r;
  };
  SmallVector<std::pair<Value, Value>> rowRanges;
  if (split)
    rowRanges = sideRanges(b, loc, rowBase, R, rowEnd, /*keys=*/false);
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
              if (split) {
                // Every row sees the whole entry by the affine conjuncts
                // (and causally: its first row does), and by the ranges.
                Value keyEnd0 = arith::AddIOp::create(ib, il, key0, ki.c(K));
                all = arith::AndIOp::create(
                    ib, il,
                    arith::CmpIOp::create(ib, il, arith::CmpIPredicate::sge,
                                          key0, mt.innerStart),
                    arith::CmpIOp::create(ib, il, arith::CmpIPredicate::sle,
                                          keyEnd0, mt.innerEnd));
                if (s.causalOffset)
                  all = arith::AndIOp::create(
                      ib, il, all,
                      arith::CmpIOp::create(
                          ib, il, arith::CmpIPredicate::sle, keyEnd0,
                          arith::AddIOp::create(ib, il, rowBase,
                                                s.causalOffsetValue(ki, 1))));
                any = i1(ib, il, true);
                auto keyRanges = sideRanges(ib, il, key0, K, nk, true);
                for (auto [k, sc] : llvm::enumerate(*split)) {
                  auto [a, e] = rangeCompare(
                      ib, il, sc.pred, rowRanges[k].first, rowRanges[k].second,
                      keyRanges[k].first, keyRanges[k].second);
                  any = arith::AndIOp::create(ib, il, any, a);
                  all = arith::AndIOp::create(ib, il, all, e);
                }
              }
              for (int64_t m = 0; !split && m < (K + 31) / 32; ++m) {
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

namespace {
/// The block mask cursor's search from tile t: windows of 32 tiles, lane i
/// reading tile base + i step's entries, until a ballot finds a visible one
/// or the window passes `end`. Returns {tile (`end` when none), base, any
/// ballot, all ballot}.
SmallVector<Value> seekVisible(OpBuilder &b, Location loc, Value t, Value end,
                               int64_t step, const BlockMaskBitsFn &bits) {
  Value lane = arith::RemUIOp::create(
      b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x),
      arith::ConstantIndexOp::create(b, loc, 32));
  Type i32 = b.getI32Type(), idx = b.getIndexType();
  auto w = scf::WhileOp::create(
      b, loc, TypeRange{idx, i32, i32}, ValueRange{t},
      [&](OpBuilder &wb, Location wl, ValueRange a) {
        KernelBuilder kw{wb, wl};
        Value cand = arith::AddIOp::create(
            wb, wl, a[0], arith::MulIOp::create(wb, wl, lane, kw.c(step)));
        auto [any, all] = bits(wb, wl, cand);
        any = arith::AndIOp::create(
            wb, wl, any,
            arith::CmpIOp::create(wb, wl, arith::CmpIPredicate::slt, cand,
                                  end));
        Value anyB = vote(wb, wl, any, NVVM::VoteSyncKind::ballot);
        Value allB = vote(wb, wl, arith::AndIOp::create(wb, wl, any, all),
                          NVVM::VoteSyncKind::ballot);
        Value more = arith::AndIOp::create(
            wb, wl,
            arith::CmpIOp::create(wb, wl, arith::CmpIPredicate::eq, anyB,
                                  i32c(wb, wl, 0)),
            arith::CmpIOp::create(
                wb, wl, arith::CmpIPredicate::slt,
                arith::AddIOp::create(wb, wl, a[0], kw.c(32 * step)), end));
        scf::ConditionOp::create(wb, wl, more, ValueRange{a[0], anyB, allB});
      },
      [&](OpBuilder &wb, Location wl, ValueRange a) {
        scf::YieldOp::create(
            wb, wl,
            ValueRange{arith::AddIOp::create(
                wb, wl, a[0],
                arith::ConstantIndexOp::create(wb, wl, 32 * step))});
      });
  Value base = w.getResult(0), anyB = w.getResult(1);
  Value first = arith::IndexCastUIOp::create(
      b, loc, idx,
      LLVM::CountTrailingZerosOp::create(b, loc, i32, anyB, false));
  Value hit = arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(b, loc, first,
                            arith::ConstantIndexOp::create(b, loc, step)));
  Value found = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, anyB,
                                      i32c(b, loc, 0));
  return {arith::SelectOp::create(b, loc, found, hit, end), base, anyB,
          w.getResult(2)};
}

/// Tile t's bit position in the window of `state` (t in it), as i32.
Value windowBit(OpBuilder &b, Location loc, Value t, int64_t step,
                ValueRange state) {
  Value off =
      arith::DivUIOp::create(b, loc, arith::SubIOp::create(b, loc, t, state[0]),
                             arith::ConstantIndexOp::create(b, loc, step));
  return arith::IndexCastUIOp::create(
      b, loc, b.getI32Type(),
      arith::MinUIOp::create(b, loc, off,
                             arith::ConstantIndexOp::create(b, loc, 31)));
}
} // namespace

TileCursor gpukernels::blockMaskCursor(Value end, int64_t step,
                                       BlockMaskBitsFn bits) {
  TileCursor c;
  c.seek = [=](OpBuilder &b, Location loc, Value t) {
    return seekVisible(b, loc, t, end, step, bits);
  };
  c.advance = [=](OpBuilder &b, Location loc, Value t, ValueRange state) {
    // In the window: the next set bit of its any ballot, no memory read.
    Value off = arith::DivUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, t, state[0]),
        arith::ConstantIndexOp::create(b, loc, step));
    Value inWindow =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, off,
                              arith::ConstantIndexOp::create(b, loc, 32));
    Value rest = arith::ShRUIOp::create(b, loc, state[1],
                                        windowBit(b, loc, t, step, state));
    Value hit = arith::AndIOp::create(
        b, loc, inWindow,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rest,
                              i32c(b, loc, 0)));
    SmallVector<Type> types{b.getIndexType()};
    llvm::append_range(types, state.getTypes());
    auto r = ifElse(
        b, loc, types, hit,
        [&](OpBuilder &ib, Location il) {
          Value k = arith::IndexCastUIOp::create(
              ib, il, ib.getIndexType(),
              LLVM::CountTrailingZerosOp::create(ib, il, ib.getI32Type(), rest,
                                                 false));
          SmallVector<Value> out{arith::AddIOp::create(
              ib, il, t,
              arith::MulIOp::create(
                  ib, il, k, arith::ConstantIndexOp::create(ib, il, step)))};
          llvm::append_range(out, state);
          scf::YieldOp::create(ib, il, out);
        },
        [&](OpBuilder &ib, Location il) {
          // Past the window's visible tiles: search on from its end.
          Value from = arith::MaxUIOp::create(
              ib, il, t,
              arith::AddIOp::create(
                  ib, il, state[0],
                  arith::ConstantIndexOp::create(ib, il, 32 * step)));
          scf::YieldOp::create(ib, il,
                               seekVisible(ib, il, from, end, step, bits));
        });
    return SmallVector<Value>(r.getResults());
  };
  return c;
}

Value gpukernels::blockMaskFull(OpBuilder &b, Location loc, Value t,
                                int64_t step, ValueRange state) {
  Value bit = arith::ShRUIOp::create(b, loc, state[2],
                                     windowBit(b, loc, t, step, state));
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::AndIOp::create(b, loc, bit, i32c(b, loc, 1)), i32c(b, loc, 0));
}

SmallVector<Value> gpukernels::blockMaskTileLoop(
    OpBuilder &b, Location loc, Value start, Value end, int64_t step,
    ValueRange inits, const TileCursor *cursor, ValueRange state,
    bool partialOnly, BlockMaskTileBody body, Value fullFrom, Value fullTo) {
  return tileLoop(
      b, loc, start, end, step, inits, cursor, state,
      [&](OpBuilder &lb, Location l, Value t, ValueRange args, Value after,
          ValueRange st) -> SmallVector<Value> {
        const bool byRange = !cursor && fullFrom;
        if ((!cursor && !byRange) || partialOnly)
          return body(lb, l, t, args, after, /*full=*/false);
        Value full =
            byRange
                ? arith::AndIOp::create(
                      lb, l,
                      arith::CmpIOp::create(lb, l, arith::CmpIPredicate::sge, t,
                                            fullFrom),
                      arith::CmpIOp::create(lb, l, arith::CmpIPredicate::sle,
                                            after, fullTo))
                      .getResult()
                : blockMaskFull(lb, l, t, step, st);
        auto branch = ifElse(
            lb, l, args.getTypes(), full,
            [&](OpBuilder &ib, Location il) {
              scf::YieldOp::create(ib, il,
                                   body(ib, il, t, args, after, /*full=*/true));
            },
            [&](OpBuilder &ib, Location il) {
              scf::YieldOp::create(
                  ib, il, body(ib, il, t, args, after, /*full=*/false));
            });
        return SmallVector<Value>(branch.getResults());
      });
}
