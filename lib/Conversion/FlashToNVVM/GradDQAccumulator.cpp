//===- GradDQAccumulator.cpp - dQ by atomics: its f32 accumulator ---------===//
//
// The backward with dQ by atomics (deterministic=false, KernelSpec::
// gradAtomicDQ): instead of a dQ kernel that recomputes S and dP per query
// block (three products of the backward's seven), the dK/dV kernel adds
// each key block's dS K into an f32 dQ in the op's scratch buffer
// (FlashAttention's dq_accum) by bulk reductions (MmaGradKernels.cpp). Around
// it, two kernels on grid (ceil(Nq / 64), BH), 128 threads, with the dQ
// kernel's arguments:
//
//   prep:    D[bh][q] = rowsum(dO * O) (a warp per row at a time, lanes
//            along D, a shuffle tree), and zeroes the block's 64 rows of
//            the accumulator;
//   convert: dq[bh][q] = scale * acc[bh][q], 4 elements a thread a step.
//
// The accumulator is [BH, ceil(Nq / 64) 64, D] f32, rows as dq's (the prep
// kernel's blocks own it: 64 D words each).
//
//===----------------------------------------------------------------------===//

#include "MmaFragments.h"
#include "StageRing.h"
#include "TensorCoreKernels.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

namespace {
constexpr int64_t kRows = 64, kThreads = 128;

/// Block x's first row, its batch-head, the thread.
struct RowBlock {
  Value row0, bh, tid;
};
RowBlock rowBlock(KernelBuilder &kb) {
  Value bx = gpu::BlockIdOp::create(kb.b, kb.loc, gpu::Dimension::x);
  return {arith::MulIOp::create(kb.b, kb.loc, bx, kb.c(kRows)),
          gpu::BlockIdOp::create(kb.b, kb.loc, gpu::Dimension::y),
          gpu::ThreadIdOp::create(kb.b, kb.loc, gpu::Dimension::x)};
}

/// A new kernel of this file (the dQ kernel's arguments) and a builder at
/// its start.
std::pair<gpu::GPUFuncOp, OpBuilder> rowKernel(OpBuilder &ob, Location loc,
                                               StringRef name,
                                               const KernelSpec &s,
                                               ArrayRef<Type> argTypes) {
  auto fn = newKernel(ob, loc, name, s, argTypes, {}, kThreads);
  return {fn, OpBuilder::atBlockBegin(&fn.front())};
}

MappedKernel mapped(gpu::GPUFuncOp fn) {
  MappedKernel k{fn, kThreads, kRows, "simt"};
  k.rows = "nq";
  k.batchHeads = "bh";
  return k;
}
} // namespace

Value gpukernels::gradDQIndex(KernelBuilder &kb, const KernelSpec &s, Value bh,
                              Value q, Value d) {
  Value rows = arith::MulIOp::create(
      kb.b, kb.loc,
      arith::CeilDivUIOp::create(kb.b, kb.loc, s.nqValue(kb), kb.c(kRows)),
      kb.c(kRows));
  Value row = arith::AddIOp::create(
      kb.b, kb.loc, arith::MulIOp::create(kb.b, kb.loc, bh, rows), q);
  return arith::AddIOp::create(
      kb.b, kb.loc, arith::MulIOp::create(kb.b, kb.loc, row, kb.c(s.tileD())),
      d);
}

MappedKernel gpukernels::buildGradDQPrepKernel(OpBuilder &ob, Location loc,
                                               StringRef name,
                                               const KernelSpec &s,
                                               ArrayRef<Type> argTypes) {
  // The accumulator's rows are the kernels' tiles' (tileD columns).
  const int64_t D = s.tileD();
  auto [fn, b] = rowKernel(ob, loc, name, s, argTypes);
  KernelBuilder kb{b, loc};
  Value nq = s.nqValue(kb);
  Value bhQ = s.bhValue(kb);
  Value o = byBatchHead(kb, fn.getArgument(3), bhQ, nq);
  Value dO = byBatchHead(kb, fn.getArgument(5), bhQ, nq);
  Value delta = byBatchHead(kb, fn.getArgument(7), bhQ, nq);
  Value acc = scratchBuffer(fn, s);
  RowBlock blk = rowBlock(kb);
  Value warp = arith::DivUIOp::create(b, loc, blk.tid, kb.c(32));
  Value lane = arith::RemUIOp::create(b, loc, blk.tid, kb.c(32));

  // D: warp w takes rows w, w + 4, ...; lane l the columns l + 32 i.
  const int64_t warps = kThreads / 32;
  scf::ForOp::create(
      b, loc, kb.c(0), kb.c(kRows / warps), kb.c(1), ValueRange{},
      [&](OpBuilder &lb, Location l, Value i, ValueRange) {
        KernelBuilder kl{lb, l};
        Value row = arith::AddIOp::create(
            lb, l, blk.row0,
            arith::AddIOp::create(
                lb, l, arith::MulIOp::create(lb, l, i, kl.c(warps)), warp));
        Value in =
            arith::CmpIOp::create(lb, l, arith::CmpIPredicate::ult, row, nq);
        scf::IfOp::create(lb, l, in, [&](OpBuilder &ib, Location il) {
          KernelBuilder ki{ib, il};
          Value sum = ki.f(0.0f);
          for (int64_t c = 0; c < llvm::divideCeil(s.dv, 32); ++c) {
            Value col = arith::AddIOp::create(ib, il, lane, ki.c(32 * c));
            auto term = [&](OpBuilder &jb, Location jl) {
              KernelBuilder kj{jb, jl};
              Value x = memref::LoadOp::create(jb, jl, dO,
                                               ValueRange{blk.bh, row, col});
              Value y = memref::LoadOp::create(jb, jl, o,
                                               ValueRange{blk.bh, row, col});
              return fmac(jb, jl, kj.toF32(x), kj.toF32(y), sum);
            };
            if (32 * c + 32 <= s.dv) {
              sum = term(ib, il);
              continue;
            }
            // (A head dim 32 does not divide: the last columns' lanes.)
            Value in = arith::CmpIOp::create(ib, il, arith::CmpIPredicate::ult,
                                             col, ki.c(s.dv));
            sum = ifElse(
                      ib, il, TypeRange{sum.getType()}, in,
                      [&](OpBuilder &jb, Location jl) {
                        scf::YieldOp::create(jb, jl, term(jb, jl));
                      },
                      [&](OpBuilder &jb, Location jl) {
                        scf::YieldOp::create(jb, jl, sum);
                      })
                      .getResult(0);
          }
          for (int32_t x : {16, 8, 4, 2, 1})
            sum = arith::AddFOp::create(
                ib, il, sum,
                gpu::ShuffleOp::create(ib, il, sum, x, 32,
                                       gpu::ShuffleMode::XOR)
                    .getShuffleResult());
          Value first = arith::CmpIOp::create(ib, il, arith::CmpIPredicate::eq,
                                              lane, ki.c(0));
          scf::IfOp::create(ib, il, first, [&](OpBuilder &jb, Location jl) {
            memref::StoreOp::create(jb, jl, sum, delta,
                                    ValueRange{blk.bh, row});
            scf::YieldOp::create(jb, jl);
          });
          scf::YieldOp::create(ib, il);
        });
        scf::YieldOp::create(lb, l);
      });

  // The block's rows of the accumulator, zeroed 4 words a thread a step.
  auto v4 = VectorType::get({4}, b.getF32Type());
  Value zeros = arith::ConstantOp::create(
      b, loc, v4, DenseElementsAttr::get(v4, b.getF32FloatAttr(0.0f)));
  Value base = gradDQIndex(kb, s, blk.bh, blk.row0, kb.c(0));
  for (int64_t it = 0; it < kRows * D / 4; it += kThreads) {
    Value at = arith::AddIOp::create(
        b, loc, base,
        arith::MulIOp::create(
            b, loc, arith::AddIOp::create(b, loc, blk.tid, kb.c(it)), kb.c(4)));
    vector::StoreOp::create(b, loc, zeros, acc, ValueRange{at},
                            /*nontemporal=*/false, llvm::MaybeAlign(16));
  }
  gpu::ReturnOp::create(b, loc);
  MappedKernel k = mapped(fn);
  k.scratchPerBlock = kRows * D;
  return k;
}

MappedKernel gpukernels::buildGradDQConvertKernel(OpBuilder &ob, Location loc,
                                                  StringRef name,
                                                  const KernelSpec &s,
                                                  ArrayRef<Type> argTypes) {
  const int64_t D = s.tileD();
  auto [fn, b] = rowKernel(ob, loc, name, s, argTypes);
  KernelBuilder kb{b, loc};
  Value nq = s.nqValue(kb);
  Value dq = byBatchHead(kb, fn.getArgument(6), s.bhValue(kb), nq);
  Value acc = scratchBuffer(fn, s);
  RowBlock blk = rowBlock(kb);
  auto v4 = VectorType::get({4}, b.getF32Type());
  Value scale = vector::BroadcastOp::create(b, loc, v4, kb.f(s.scale));
  for (int64_t it = 0; it < kRows * D / 4; it += kThreads) {
    Value idx = arith::AddIOp::create(b, loc, blk.tid, kb.c(it));
    Value row = arith::AddIOp::create(
        b, loc, blk.row0, arith::DivUIOp::create(b, loc, idx, kb.c(D / 4)));
    Value col = arith::MulIOp::create(
        b, loc, arith::RemUIOp::create(b, loc, idx, kb.c(D / 4)), kb.c(4));
    Value in =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, nq);
    // (dq's columns only: past d the padding of a tile's.)
    if (D != s.d)
      in = arith::AndIOp::create(
          b, loc, in,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col,
                                kb.c(s.d)));
    scf::IfOp::create(b, loc, in, [&](OpBuilder &ib, Location il) {
      KernelBuilder ki{ib, il};
      Value x = vector::LoadOp::create(
          ib, il, v4, acc, ValueRange{gradDQIndex(ki, s, blk.bh, row, col)},
          /*nontemporal=*/false, llvm::MaybeAlign(16));
      x = arith::MulFOp::create(ib, il, x, scale);
      x = arith::TruncFOp::create(ib, il, VectorType::get({4}, s.elt), x);
      vector::StoreOp::create(ib, il, x, dq, ValueRange{blk.bh, row, col},
                              /*nontemporal=*/false, llvm::MaybeAlign(8));
      scf::YieldOp::create(ib, il);
    });
  }
  gpu::ReturnOp::create(b, loc);
  return mapped(fn);
}
