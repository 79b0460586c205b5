//===- MmaKernels.cpp - The forward kernel on tensor cores (mma.sync) -----===//
//
// f16/bf16 attention forward on NVIDIA tensor cores (sm_80+), FlashAttention-2
// style:
//
//   grid  = (ceil(Nq / (16 W)), B*Hq)   block = W warps (4 or 8), 16 query
//   rows each
//   Q (16 x D per warp) held in registers as mma A fragments;
//   per tile of 64 keys (up to the block's causal limit):
//     all threads copy K and V (elt) into shared memory, barrier;
//     S = Q K^T    : nvgpu.mma.sync m16n8k16, f32 accumulators (8 n-tiles)
//     online softmax on the accumulators in registers (exp2, log2(e) folded
//     into the scale; the row max reduced over the 4 lanes sharing a row
//     with two xor shuffles; the row sum kept per lane until the end)
//     O += P V     : P converted to elt *in registers* as the A operand
//                    (the m16n8 accumulator layout of two adjacent n-tiles
//                    is the m16k16 A layout), V read from shared memory.
//   o = acc / l, lse = (m + log2 l) ln 2.
//
// The fragment layouts are PTX's for mma.m16n8k16 (lane = 4 g + t):
//   A (16x16): a[0] = A[g][2t..], a[1] = A[g+8][2t..], a[2] = A[g][8+2t..],
//              a[3] = A[g+8][8+2t..]            (2 consecutive elements each)
//   B (16x8):  b[0] = B[2t..2t+1][g], b[1] = B[8+2t..8+2t+1][g]
//   C (16x8):  c[0] = C[g][2t..2t+1], c[1] = C[g+8][2t..2t+1]
// Written directly against nvgpu.mma.sync: upstream's vector-to-nvgpu
// lowering needs vector.contract on a matching unrolled form, which our
// loop nest with an online softmax in between does not offer.
//
//===----------------------------------------------------------------------===//

#include "GPUKernels.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

namespace {
constexpr int64_t kRowsPerWarp = 16;

/// C + A B for one m16n8k16 tile: A vector<4x2xelt>, B vector<2x2xelt>,
/// C vector<2x2xf32> in the fragment layouts above. f16 through
/// nvgpu.mma.sync; bf16 through nvvm.mma.sync directly (upstream's
/// nvgpu-to-nvvm cannot type bf16 operands), with each pair of bf16 packed
/// in an i32 as PTX wants.
Value mma(OpBuilder &b, Location l, Value a, Value bm, Value c) {
  Type elt = cast<VectorType>(a.getType()).getElementType();
  if (elt.isF16())
    return nvgpu::MmaSyncOp::create(b, l, a, bm, c,
                                    ArrayRef<int64_t>{16, 8, 16});
  auto v1i32 = VectorType::get({1}, b.getI32Type());
  auto words = [&](Value frag, int64_t n) {
    SmallVector<Value> w;
    for (int64_t i = 0; i < n; ++i) {
      Value pair = vector::ExtractOp::create(b, l, frag, ArrayRef<int64_t>{i});
      Value word = vector::BitCastOp::create(b, l, v1i32, pair);
      w.push_back(vector::ExtractOp::create(b, l, word, ArrayRef<int64_t>{0}));
    }
    return w;
  };
  SmallVector<Value> acc;
  for (int64_t i = 0; i < 4; ++i)
    acc.push_back(
        vector::ExtractOp::create(b, l, c, ArrayRef<int64_t>{i / 2, i % 2}));
  Type f32 = b.getF32Type();
  auto resTy = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                {f32, f32, f32, f32});
  auto op = NVVM::MmaOp::create(
      b, l, resTy, words(a, 4), words(bm, 2), acc, {16, 8, 16}, std::nullopt,
      std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                    NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  Value out = c;
  for (int64_t i = 0; i < 4; ++i)
    out = vector::InsertOp::create(
        b, l, LLVM::ExtractValueOp::create(b, l, op, i), out,
        ArrayRef<int64_t>{i / 2, i % 2});
  return out;
}
} // namespace

void gpukernels::chooseMmaTiles(KernelSpec &s, int64_t warps,
                                int64_t tileKV) {
  // Measured on the H200 (bench/RESULTS.md, tuning table): 64-key tiles;
  // 8 warps sharing each K/V tile at D = 128, 4 at D <= 64.
  s.mmaWarps = warps ? warps : (s.d > 64 ? 8 : 4);
  s.mmaTileKV = tileKV ? tileKV : 64;
}

bool gpukernels::mmaForwardApplies(const KernelSpec &s) {
  return (s.elt.isF16() || s.elt.isBF16()) && !s.mask && s.d == s.dv &&
         s.d % 16 == 0 && s.d <= 128;
}

int64_t gpukernels::mmaForwardRowsPerBlock(const KernelSpec &s) {
  return s.mmaWarps * kRowsPerWarp;
}
int64_t gpukernels::mmaForwardThreads(const KernelSpec &s) {
  return s.mmaWarps * 32;
}

gpu::GPUFuncOp gpukernels::buildForwardMmaKernel(OpBuilder &ob, Location loc,
                                                 StringRef name,
                                                 const KernelSpec &s) {
  MLIRContext *ctx = ob.getContext();
  Type f32 = ob.getF32Type(), elt = s.elt;
  const int64_t kWarps = s.mmaWarps, kTileKV = s.mmaTileKV;
  const int64_t D = s.d, rowsPerBlock = kWarps * kRowsPerWarp;
  const int64_t kSteps = D / 16, dTiles = D / 8, nTiles = kTileKV / 8;
  auto qTy = MemRefType::get({s.bh, s.nq, D}, elt);
  auto kTy = MemRefType::get({s.bh / (s.hq / s.hkv), s.nk, D}, elt);
  auto oTy = MemRefType::get({s.bh, s.nq, D}, elt);
  auto lTy = MemRefType::get({s.bh, s.nq}, f32);
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  // Rows padded by 8 elements (16 bytes): the 8 rows an ldmatrix reads
  // start in different banks.
  auto smemTy = MemRefType::get({kTileKV, D + 8}, elt,
                                MemRefLayoutAttrInterface(), wg);
  auto fn = newKernel(ob, loc, name, {qTy, kTy, kTy, oTy, lTy},
                      {smemTy, smemTy}, kWarps * 32);

  OpBuilder b = OpBuilder::atBlockBegin(&fn.front());
  KernelBuilder kb{b, loc};
  Value q = fn.getArgument(0), k = fn.getArgument(1), v = fn.getArgument(2),
        o = fn.getArgument(3), lse = fn.getArgument(4);
  Value kS = fn.getWorkgroupAttributions()[0];
  Value vS = fn.getWorkgroupAttributions()[1];
  const float ninf = -std::numeric_limits<float>::infinity();
  const float log2e = 1.4426950408889634f;
  auto v2 = VectorType::get({2}, elt);
  auto a4x2 = VectorType::get({4, 2}, elt);
  auto b2x2 = VectorType::get({2, 2}, elt);
  auto c2x2 = VectorType::get({2, 2}, f32);
  auto add = [&](OpBuilder &bb, Value x, Value y) {
    return arith::AddIOp::create(bb, loc, x, y).getResult();
  };
  auto mul = [&](OpBuilder &bb, Value x, int64_t c) {
    return arith::MulIOp::create(bb, loc, x,
                                 arith::ConstantIndexOp::create(bb, loc, c))
        .getResult();
  };

  // Who am I: batch-head, warp, lane = 4 g + t, my two rows.
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value bh = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value warp = arith::DivUIOp::create(b, loc, tid, kb.c(32));
  Value lane = arith::RemUIOp::create(b, loc, tid, kb.c(32));
  Value g = arith::DivUIOp::create(b, loc, lane, kb.c(4));
  Value t = arith::RemUIOp::create(b, loc, lane, kb.c(4));
  Value t2 = mul(b, t, 2);
  Value rowBase = mul(b, bx, rowsPerBlock);
  Value row0 = add(b, add(b, rowBase, mul(b, warp, kRowsPerWarp)), g);
  Value rows[2] = {row0, add(b, row0, kb.c(8))};
  Value rowsc[2];
  for (int r = 0; r < 2; ++r)
    rowsc[r] = arith::MinUIOp::create(b, loc, rows[r], kb.c(s.nq - 1));
  Value bIdx = arith::DivUIOp::create(b, loc, bh, kb.c(s.hq));
  Value hIdx = arith::RemUIOp::create(b, loc, bh, kb.c(s.hq));
  Value kvbh = add(b, mul(b, bIdx, s.hkv),
                   arith::DivUIOp::create(b, loc, hIdx, kb.c(s.hq / s.hkv)));
  Value kvEnd = kb.c(s.nk);
  Value rowLimit[2];
  if (s.causalOffset) {
    Value off = kb.c(*s.causalOffset);
    Value lastRow = arith::MinUIOp::create(
        b, loc, add(b, rowBase, kb.c(rowsPerBlock - 1)), kb.c(s.nq - 1));
    Value end = add(b, add(b, lastRow, off), kb.c(1));
    kvEnd = arith::MinSIOp::create(
        b, loc, arith::MaxSIOp::create(b, loc, end, kb.c(0)), kb.c(s.nk));
    for (int r = 0; r < 2; ++r)
      rowLimit[r] = add(b, rows[r], off);
  }

  // Q as A fragments, one per 16 columns of D.
  auto load2 = [&](OpBuilder &bb, Value mem, ValueRange idx) {
    return vector::LoadOp::create(bb, loc, v2, mem, idx).getResult();
  };
  SmallVector<Value> qA;
  for (int64_t ks = 0; ks < kSteps; ++ks) {
    Value a = arith::ConstantOp::create(
        b, loc, a4x2, DenseElementsAttr::get(a4x2, b.getZeroAttr(elt)));
    for (int64_t i = 0; i < 4; ++i) {
      Value col = add(b, t2, kb.c(ks * 16 + (i >= 2 ? 8 : 0)));
      Value x = load2(b, q, {bh, rowsc[i % 2], col});
      a = vector::InsertOp::create(b, loc, x, a, ArrayRef<int64_t>{i});
    }
    qA.push_back(a);
  }

  // A K or V tile (keys row0 .. row0+63, clamped to Nk) into shared memory
  // with cp.async, 16 bytes per copy; returns the group's token.
  auto tokTy = nvgpu::DeviceAsyncTokenType::get(ctx);
  auto copyTile = [&](OpBuilder &cb, Value src, Value dst, Value row0) {
    SmallVector<Value> toks;
    const int64_t total = kTileKV * D / 8;
    for (int64_t it = 0; it < total; it += kWarps * 32) {
      Value idx = add(cb, tid, kb.c(it));
      auto issue = [&](OpBuilder &ib) {
        Value r = arith::DivUIOp::create(ib, loc, idx, kb.c(D / 8));
        Value c =
            mul(ib, arith::RemUIOp::create(ib, loc, idx, kb.c(D / 8)), 8);
        Value key = arith::MinUIOp::create(ib, loc, add(ib, row0, r),
                                           kb.c(s.nk - 1));
        return nvgpu::DeviceAsyncCopyOp::create(
                   ib, loc, tokTy, dst, ValueRange{r, c}, src,
                   ValueRange{kvbh, key, c}, ib.getIndexAttr(8), Value(),
                   ib.getUnitAttr())
            .getResult();
      };
      if (it + kWarps * 32 <= total) {
        toks.push_back(issue(cb));
        continue;
      }
      // A partial last round: only the threads with work copy.
      Value has = arith::CmpIOp::create(cb, loc, arith::CmpIPredicate::ult,
                                        idx, kb.c(total));
      scf::IfOp::create(cb, loc, has, [&](OpBuilder &ib, Location) {
        issue(ib);
        scf::YieldOp::create(ib, loc);
      });
    }
    return nvgpu::DeviceAsyncCreateGroupOp::create(cb, loc, tokTy, toks)
        .getResult();
  };
  auto waitAll = [&](OpBuilder &wb, Value group) {
    nvgpu::DeviceAsyncWaitOp::create(wb, loc, group, wb.getI32IntegerAttr(0));
  };
  Value firstK = copyTile(b, k, kS, kb.c(0));

  // Loop-carried: m, l (per row: this lane's partial sum), O accumulators,
  // the pending copy of the next K tile.
  SmallVector<Value> inits{kb.f(ninf), kb.f(ninf), kb.f(0.0f), kb.f(0.0f)};
  Value zeroC = arith::ConstantOp::create(
      b, loc, c2x2, DenseElementsAttr::get(c2x2, b.getF32FloatAttr(0)));
  for (int64_t dt = 0; dt < dTiles; ++dt)
    inits.push_back(zeroC);
  inits.push_back(firstK);
  const float sl2 = s.scale * log2e;
  // Scores stay raw (Q.K) through the max; the scale (times log2 e) is
  // folded into one FMA per exp2: p = 2^(x sl2 - m sl2). A negative scale
  // would flip the max: then scale first.
  const bool prescale = sl2 <= 0.0f;
  const float sMul = prescale ? sl2 : 1.0f, eMul = prescale ? 1.0f : sl2;
  // Tiles every row of the block sees in full need no masking: the first
  // loop runs them, the second the rest (the causal diagonal, the Nk edge).
  Value fullEnd = kb.c(s.nk / kTileKV * kTileKV);
  if (s.causalOffset) {
    Value firstVisible = arith::MaxSIOp::create(
        b, loc, add(b, rowBase, kb.c(*s.causalOffset + 1)), kb.c(0));
    fullEnd = arith::MinSIOp::create(
        b, loc,
        mul(b, arith::DivSIOp::create(b, loc, firstVisible, kb.c(kTileKV)),
            kTileKV),
        fullEnd);
  }
  auto body = [&](bool masked) {
    return [&, masked](OpBuilder &lb, Location l, Value jt, ValueRange args) {
        KernelBuilder kl{lb, l};
        // K(j) has landed; V(j) streams in while S and the softmax run,
        // K(j+1) while P V runs (one buffer each: the barriers order the
        // reuse).
        waitAll(lb, args.back());
        gpu::BarrierOp::create(lb, l);
        Value vGroup = copyTile(lb, v, vS, jt);
        // S = Q K^T, scaled into the log2 domain, invisible keys at -inf.
        SmallVector<Value> sAcc; // per n-tile, vector<2x2xf32>
        Value tileMax[2] = {kl.f(ninf), kl.f(ninf)};
        // Lane l addresses row l % 8 of 8x8 matrix l / 8 for ldmatrix.
        Value lrow = arith::RemUIOp::create(lb, l, lane, kl.c(8));
        Value lmat = arith::DivUIOp::create(lb, l, lane, kl.c(8));
        for (int64_t nt = 0; nt < nTiles; ++nt) {
          Value acc = zeroC;
          // B fragments of two k-steps per ldmatrix.x4 (matrix m: keys
          // nt*8.., columns 8m..), one per x2 for an odd last step.
          Value kRow = add(lb, lrow, kl.c(nt * 8));
          for (int64_t ks = 0; ks < kSteps; ks += 2) {
            int64_t tiles = ks + 1 < kSteps ? 4 : 2;
            Value col = add(lb, mul(lb, lmat, 8), kl.c(ks * 16));
            if (tiles == 2)
              col = add(lb,
                        mul(lb, arith::RemUIOp::create(lb, l, lmat, kl.c(2)),
                            8),
                        kl.c(ks * 16));
            Value frags = nvgpu::LdMatrixOp::create(
                lb, l, VectorType::get({tiles, 2}, elt), kS,
                ValueRange{kRow, col}, /*transpose=*/false, tiles);
            for (int64_t h = 0; h < tiles / 2; ++h) {
              Value bf = arith::ConstantOp::create(
                  lb, l, b2x2,
                  DenseElementsAttr::get(b2x2, lb.getZeroAttr(elt)));
              for (int64_t i = 0; i < 2; ++i)
                bf = vector::InsertOp::create(
                    lb, l,
                    vector::ExtractOp::create(lb, l, frags,
                                              ArrayRef<int64_t>{2 * h + i}),
                    bf, ArrayRef<int64_t>{i});
              acc = mma(lb, l, qA[ks + h], bf, acc);
            }
          }
          Value out = zeroC;
          for (int64_t r = 0; r < 2; ++r)
            for (int64_t j = 0; j < 2; ++j) {
              Value x = vector::ExtractOp::create(lb, l, acc,
                                                  ArrayRef<int64_t>{r, j});
              if (prescale)
                x = arith::MulFOp::create(lb, l, x, kl.f(sMul));
              if (masked) {
                Value key = add(lb, jt, add(lb, t2, kl.c(nt * 8 + j)));
                Value vis = arith::CmpIOp::create(
                    lb, l, arith::CmpIPredicate::ult, key, kl.c(s.nk));
                if (s.causalOffset)
                  vis = arith::AndIOp::create(
                      lb, l, vis,
                      arith::CmpIOp::create(lb, l, arith::CmpIPredicate::sle,
                                            key, rowLimit[r]));
                x = arith::SelectOp::create(lb, l, vis, x, kl.f(ninf));
              }
              tileMax[r] = arith::MaxNumFOp::create(lb, l, tileMax[r], x);
              out = vector::InsertOp::create(lb, l, x, out,
                                             ArrayRef<int64_t>{r, j});
            }
          sAcc.push_back(out);
        }
        // Online softmax per row; the 4 lanes of a row agree on its max.
        SmallVector<Value> next(4);
        Value alpha[2], ms[2];
        for (int r = 0; r < 2; ++r) {
          Value mt = tileMax[r];
          for (int32_t x : {1, 2}) {
            Value other =
                gpu::ShuffleOp::create(lb, l, mt, x, 32, gpu::ShuffleMode::XOR)
                    .getShuffleResult();
            mt = arith::MaxNumFOp::create(lb, l, mt, other);
          }
          Value mNew = arith::MaxNumFOp::create(lb, l, args[r], mt);
          Value isInf = arith::CmpFOp::create(
              lb, l, arith::CmpFPredicate::OEQ, mNew, kl.f(ninf));
          ms[r] = arith::SelectOp::create(
              lb, l, isInf, kl.f(0.0f),
              arith::MulFOp::create(lb, l, mNew, kl.f(eMul)));
          alpha[r] = exp2(lb, l, fmac(lb, l, args[r], kl.f(eMul),
                                      arith::NegFOp::create(lb, l, ms[r])));
          next[r] = mNew;
          next[2 + r] = arith::MulFOp::create(lb, l, args[2 + r], alpha[r]);
        }
        Value negMs[2] = {arith::NegFOp::create(lb, l, ms[0]),
                          arith::NegFOp::create(lb, l, ms[1])};
        // P (elt) as A fragments, two n-tiles per 16 keys; row sums.
        SmallVector<Value> pA;
        for (int64_t kk = 0; kk < nTiles / 2; ++kk) {
          Value a = arith::ConstantOp::create(
              lb, l, a4x2, DenseElementsAttr::get(a4x2, lb.getZeroAttr(elt)));
          for (int64_t half = 0; half < 2; ++half)
            for (int64_t r = 0; r < 2; ++r) {
              Value pair = arith::ConstantOp::create(
                  lb, l, v2, DenseElementsAttr::get(v2, lb.getZeroAttr(elt)));
              for (int64_t j = 0; j < 2; ++j) {
                Value x = vector::ExtractOp::create(
                    lb, l, sAcc[2 * kk + half], ArrayRef<int64_t>{r, j});
                Value p = exp2(lb, l, fmac(lb, l, x, kl.f(eMul), negMs[r]));
                next[2 + r] = arith::AddFOp::create(lb, l, next[2 + r], p);
                Value pe = arith::TruncFOp::create(lb, l, elt, p);
                pair = vector::InsertOp::create(lb, l, pe, pair,
                                                ArrayRef<int64_t>{j});
              }
              a = vector::InsertOp::create(lb, l, pair, a,
                                           ArrayRef<int64_t>{2 * half + r});
            }
          pA.push_back(a);
        }
        waitAll(lb, vGroup);
        gpu::BarrierOp::create(lb, l);
        Value nextK = copyTile(lb, k, kS, add(lb, jt, kl.c(kTileKV)));
        // O = alpha O + P V; V's B fragments by ldmatrix.x4.trans: matrix m
        // holds keys kk*16 + 8 (m % 2).., columns dt*8 + 8 (m / 2)..
        SmallVector<Value> oAcc;
        for (int64_t dt = 0; dt < dTiles; ++dt) {
          Value acc = args[4 + dt];
          for (int64_t r = 0; r < 2; ++r) {
            Value row = vector::ExtractOp::create(lb, l, acc,
                                                  ArrayRef<int64_t>{r});
            Value sc = vector::BroadcastOp::create(
                lb, l, VectorType::get({2}, f32), alpha[r]);
            row = arith::MulFOp::create(lb, l, row, sc);
            acc = vector::InsertOp::create(lb, l, row, acc,
                                           ArrayRef<int64_t>{r});
          }
          oAcc.push_back(acc);
        }
        Value vRowOff = add(lb, lrow,
                            mul(lb, arith::RemUIOp::create(lb, l, lmat,
                                                           kl.c(2)),
                                8));
        Value vColOff = mul(lb, arith::DivUIOp::create(lb, l, lmat, kl.c(2)), 8);
        for (int64_t kk = 0; kk < nTiles / 2; ++kk)
          for (int64_t dt = 0; dt < dTiles; dt += 2) {
            Value frags = nvgpu::LdMatrixOp::create(
                lb, l, VectorType::get({4, 2}, elt), vS,
                ValueRange{add(lb, vRowOff, kl.c(kk * 16)),
                           add(lb, vColOff, kl.c(dt * 8))},
                /*transpose=*/true, 4);
            for (int64_t h = 0; h < 2; ++h) {
              Value bf = arith::ConstantOp::create(
                  lb, l, b2x2,
                  DenseElementsAttr::get(b2x2, lb.getZeroAttr(elt)));
              for (int64_t i = 0; i < 2; ++i)
                bf = vector::InsertOp::create(
                    lb, l,
                    vector::ExtractOp::create(lb, l, frags,
                                              ArrayRef<int64_t>{2 * h + i}),
                    bf, ArrayRef<int64_t>{i});
              oAcc[dt + h] = mma(lb, l, pA[kk], bf, oAcc[dt + h]);
            }
          }
        llvm::append_range(next, oAcc);
        next.push_back(nextK);
        scf::YieldOp::create(lb, l, next);
    };
  };
  auto full = scf::ForOp::create(b, loc, kb.c(0), fullEnd, kb.c(kTileKV),
                                 inits, body(/*masked=*/false));
  auto loop = scf::ForOp::create(b, loc, fullEnd, kvEnd, kb.c(kTileKV),
                                 full.getResults(), body(/*masked=*/true));

  waitAll(b, loop.getResults().back());
  // Row sums over the 4 lanes of a row, then o and lse for rows < Nq.
  for (int r = 0; r < 2; ++r) {
    Value m = loop.getResult(r), lsum = loop.getResult(2 + r);
    for (int32_t x : {1, 2})
      lsum = arith::AddFOp::create(
          b, loc, lsum,
          gpu::ShuffleOp::create(b, loc, lsum, x, 32, gpu::ShuffleMode::XOR)
              .getShuffleResult());
    Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         rows[r], kb.c(s.nq));
    scf::IfOp::create(b, loc, active, [&](OpBuilder &ib, Location il) {
      KernelBuilder ki{ib, il};
      Value none = arith::CmpFOp::create(ib, il, arith::CmpFPredicate::OEQ,
                                         lsum, ki.f(0.0f));
      Value inv = arith::DivFOp::create(ib, il, ki.f(1.0f), lsum);
      inv = arith::SelectOp::create(ib, il, none, ki.f(0.0f), inv);
      Value invV =
          vector::BroadcastOp::create(ib, il, VectorType::get({2}, f32), inv);
      for (int64_t dt = 0; dt < dTiles; ++dt) {
        Value x = vector::ExtractOp::create(ib, il, loop.getResult(4 + dt),
                                            ArrayRef<int64_t>{r});
        x = arith::MulFOp::create(ib, il, x, invV);
        x = arith::TruncFOp::create(ib, il, v2, x);
        vector::StoreOp::create(ib, il, x, o,
                                ValueRange{bh, rows[r],
                                           add(ib, t2, ki.c(dt * 8))});
      }
      Value first = arith::CmpIOp::create(ib, il, arith::CmpIPredicate::eq,
                                          t, ki.c(0));
      scf::IfOp::create(ib, il, first, [&](OpBuilder &jb, Location jl) {
        KernelBuilder kj{jb, jl};
        Value lg = arith::AddFOp::create(
            jb, jl, arith::MulFOp::create(jb, jl, m, kj.f(eMul)),
            log2(jb, jl, lsum));
        lg = arith::MulFOp::create(jb, jl, lg, kj.f(0.6931471805599453f));
        lg = arith::SelectOp::create(jb, jl, none, kj.f(ninf), lg);
        memref::StoreOp::create(jb, jl, lg, lse, ValueRange{bh, rows[r]});
        scf::YieldOp::create(jb, jl);
      });
      scf::YieldOp::create(ib, il);
    });
  }
  gpu::ReturnOp::create(b, loc);
  return fn;
}
