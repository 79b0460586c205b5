//===- BlockBuilder.cpp - Shared pieces of the attention loop nests -------===//

#include "BlockBuilder.h"
#include "flash/Dialect/Flash/IR/FlashOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"

#include <limits>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::detail;

using utils::IteratorType;
static constexpr IteratorType kPar = IteratorType::parallel;
static constexpr IteratorType kRed = IteratorType::reduction;
/// Products may fuse into FMAs (a contraction, not a reassociation).
static constexpr arith::FastMathFlags kContract =
    arith::FastMathFlags::contract;

//===----------------------------------------------------------------------===//
// IndexMath
//===----------------------------------------------------------------------===//

Value IndexMath::c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
Value IndexMath::add(Value x, Value y) {
  return b.createOrFold<arith::AddIOp>(loc, x, y);
}
Value IndexMath::sub(Value x, Value y) {
  return b.createOrFold<arith::SubIOp>(loc, x, y);
}
Value IndexMath::mul(Value x, Value y) {
  return b.createOrFold<arith::MulIOp>(loc, x, y);
}
Value IndexMath::min(Value x, Value y) {
  return b.createOrFold<arith::MinSIOp>(loc, x, y);
}
Value IndexMath::max(Value x, Value y) {
  return b.createOrFold<arith::MaxSIOp>(loc, x, y);
}
Value IndexMath::floorTo(Value x, int64_t m) {
  return mul(b.createOrFold<arith::FloorDivSIOp>(loc, x, c(m)), c(m));
}
Value IndexMath::ceilTo(Value x, int64_t m) {
  return mul(b.createOrFold<arith::CeilDivSIOp>(loc, x, c(m)), c(m));
}

//===----------------------------------------------------------------------===//
// Loops over blocks
//===----------------------------------------------------------------------===//

SmallVector<Value> flash::detail::fullBlocks(OpBuilder &b, Location loc, Value lb,
                                      Value ub, int64_t step,
                                      ValueRange iterArgs, BlockBody body) {
  std::optional<int64_t> clb = getConstantIntValue(lb),
                         cub = getConstantIntValue(ub);
  if (clb && cub && *clb >= *cub)
    return SmallVector<Value>(iterArgs);
  IndexMath im{b, loc};
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, im.c(step), iterArgs,
      [&](OpBuilder &nb, Location nloc, Value iv, ValueRange args) {
        scf::YieldOp::create(nb, nloc,
                             body(nb, nloc, iv, nb.getIndexAttr(step), args));
      });
  return SmallVector<Value>(loop.getResults());
}

SmallVector<Value> flash::detail::lastBlock(OpBuilder &b, Location loc, Value start,
                                     Value end, ValueRange iterArgs,
                                     BlockBody body) {
  IndexMath im{b, loc};
  Value size = im.sub(end, start);
  if (std::optional<int64_t> cs = getConstantIntValue(size)) {
    if (*cs <= 0)
      return SmallVector<Value>(iterArgs);
    return body(b, loc, start, b.getIndexAttr(*cs), iterArgs);
  }
  Value nonEmpty = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                         size, im.c(0));
  auto ifOp = scf::IfOp::create(
      b, loc, nonEmpty,
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, body(nb, nloc, start, size, iterArgs));
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, iterArgs);
      });
  return SmallVector<Value>(ifOp.getResults());
}

SmallVector<Value> flash::detail::parallelBlocks(OpBuilder &b, Location loc,
                                                 ArrayRef<OpFoldResult> ubs,
                                                 ValueRange outs,
                                                 ParallelBody body) {
  size_t n = ubs.size();
  auto loop = scf::ForallOp::create(
      b, loc, ubs, outs, /*mapping=*/std::nullopt,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        SmallVector<ParallelWrite> writes =
            body(nb, nl, args.take_front(n), args.drop_front(n));
        // Sizes first: only the inserts may go into the terminator.
        SmallVector<SmallVector<OpFoldResult>> sizes;
        for (const ParallelWrite &w : writes) {
          int64_t rank = w.offsets.size();
          int64_t srcRank = cast<RankedTensorType>(w.src.getType()).getRank();
          sizes.emplace_back(rank - srcRank, nb.getIndexAttr(1));
          for (int64_t i = 0; i < srcRank; ++i)
            sizes.back().push_back(tensor::getMixedSize(nb, nl, w.src, i));
        }
        auto term = scf::InParallelOp::create(nb, nl);
        OpBuilder::InsertionGuard g(nb);
        nb.setInsertionPointToStart(term.getBody());
        for (auto [w, sz] : llvm::zip(writes, sizes)) {
          SmallVector<OpFoldResult> strides(sz.size(), nb.getIndexAttr(1));
          tensor::ParallelInsertSliceOp::create(nb, nl, w.src,
                                                args[n + w.dest], w.offsets,
                                                sz, strides);
        }
      });
  return SmallVector<Value>(loop.getResults());
}

SmallVector<Value> flash::detail::forEachIteration(
    OpBuilder &b, Location loc, bool parallel, ArrayRef<OpFoldResult> ubs,
    ValueRange outs, ParallelBody body) {
  if (parallel)
    return parallelBlocks(b, loc, ubs, outs, body);
  IndexMath im{b, loc};
  SmallVector<Value> lbs(ubs.size(), im.c(0)), steps(ubs.size(), im.c(1));
  SmallVector<Value> ubVals;
  for (OpFoldResult u : ubs)
    ubVals.push_back(getValueOrCreateConstantIndexOp(b, loc, u));
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubVals, steps, outs,
      [&](OpBuilder &nb, Location nl, ValueRange ivs,
          ValueRange args) -> scf::ValueVector {
        SmallVector<ParallelWrite> writes = body(nb, nl, ivs, args);
        SmallVector<Value> res(args);
        for (const ParallelWrite &w : writes) {
          int64_t rank = w.offsets.size();
          int64_t srcRank = cast<RankedTensorType>(w.src.getType()).getRank();
          SmallVector<OpFoldResult> sizes(rank - srcRank, nb.getIndexAttr(1));
          for (int64_t i = 0; i < srcRank; ++i)
            sizes.push_back(tensor::getMixedSize(nb, nl, w.src, i));
          SmallVector<OpFoldResult> strides(rank, nb.getIndexAttr(1));
          res[w.dest] = tensor::InsertSliceOp::create(
              nb, nl, w.src, res[w.dest], w.offsets, sizes, strides);
        }
        return res;
      });
  return SmallVector<Value>(nest.results);
}

flash::detail::ParallelWrite
flash::detail::writeAt(OpBuilder &b, Value src, unsigned dest, ValueRange lead,
                       ArrayRef<OpFoldResult> trailing) {
  ParallelWrite w{src, dest, SmallVector<OpFoldResult>(lead.begin(), lead.end())};
  int64_t srcRank = cast<RankedTensorType>(src.getType()).getRank();
  if (trailing.empty())
    w.offsets.append(srcRank, b.getIndexAttr(0));
  else
    w.offsets.append(trailing.begin(), trailing.end());
  return w;
}

SmallVector<Value> flash::detail::blockedParallel(
    OpBuilder &b, Location loc, ArrayRef<OpFoldResult> outerUbs, Value n,
    int64_t step, ValueRange outs, BlockedBody body) {
  IndexMath im{b, loc};
  // [start, 0, ...] truncated to the block's rank.
  auto at = [](OpBuilder &nb, Value blk, OpFoldResult start) {
    int64_t rank = cast<RankedTensorType>(blk.getType()).getRank();
    SmallVector<OpFoldResult> offs{start};
    offs.append(rank - 1, nb.getIndexAttr(0));
    return offs;
  };
  Value fullEnd = im.floorTo(n, step);
  SmallVector<OpFoldResult> ubs(outerUbs);
  ubs.push_back(getAsOpFoldResult(
      b.createOrFold<arith::DivUIOp>(loc, fullEnd, im.c(step))));
  SmallVector<Value> r(outs);
  if (!isConstantIntValue(ubs.back(), 0))
    r = parallelBlocks(
        b, loc, ubs, r,
        [&](OpBuilder &nb, Location nl, ValueRange ivs,
            ValueRange) -> SmallVector<ParallelWrite> {
          IndexMath in{nb, nl};
          Value start = in.mul(ivs.back(), in.c(step));
          SmallVector<Value> blocks = body(nb, nl, ivs.drop_back(), start,
                                           nb.getIndexAttr(step));
          SmallVector<ParallelWrite> w;
          for (auto [d, blk] : llvm::enumerate(blocks))
            w.push_back(writeAt(nb, blk, d, ivs.drop_back(), at(nb, blk, start)));
          return w;
        });
  std::optional<int64_t> rest = getConstantIntValue(im.sub(n, fullEnd));
  if (rest && *rest == 0)
    return r;
  // The remainder: into each slice, which is then written back whole.
  auto remainder = [&](OpBuilder &nb, Location nl, ValueRange ivs,
                       ValueRange slices) {
    return lastBlock(
        nb, nl, fullEnd, n, slices,
        [&](OpBuilder &b2, Location l2, Value start, OpFoldResult size,
            ValueRange args) -> SmallVector<Value> {
          SmallVector<Value> blocks = body(b2, l2, ivs, start, size);
          SmallVector<Value> res;
          for (auto [blk, dest] : llvm::zip(blocks, args))
            res.push_back(insert(b2, l2, blk, dest, at(b2, blk, start),
                                 tensor::getMixedSizes(b2, l2, blk)));
          return res;
        });
  };
  if (outerUbs.empty())
    return remainder(b, loc, {}, r);
  return parallelBlocks(
      b, loc, outerUbs, r,
      [&](OpBuilder &nb, Location nl, ValueRange ivs,
          ValueRange shared) -> SmallVector<ParallelWrite> {
        SmallVector<Value> slices;
        for (Value s : shared) {
          int64_t keep = cast<RankedTensorType>(s.getType()).getRank() -
                         static_cast<int64_t>(ivs.size());
          slices.push_back(keep == 1 ? slice1D(nb, nl, s, ivs)
                                     : slice2D(nb, nl, s, ivs));
        }
        SmallVector<Value> res = remainder(nb, nl, ivs, slices);
        SmallVector<ParallelWrite> w;
        for (auto [d, v] : llvm::enumerate(res))
          w.push_back(writeAt(nb, v, d, ivs));
        return w;
      });
}

/// [lo, hi) narrowed by a mask_mod's affine bounds (if any) for positions
/// [t0, t0 + n) of the other axis.
static void boundRange(IndexMath &im, const MaskBounds *bounds, bool swap,
                       Value t0, Value n, Value &lo, Value &hi) {
  if (bounds)
    boundPositions(im.b, im.loc, *bounds, swap, t0,
                   im.sub(im.add(t0, n), im.c(1)), lo, hi);
}

BlockRanges flash::detail::keyRanges(IndexMath &im, Value i0, Value rows,
                                     Value nk, Value off, int64_t bk,
                                     const MaskBounds *bounds) {
  // The last key row i0 + rows - 1 sees is i0 + rows - 1 + off.
  Value lo = im.c(0);
  Value hi = off ? im.add(im.add(i0, rows), off) : nk;
  boundRange(im, bounds, /*swap=*/false, i0, rows, lo, hi);
  Value end = im.clamp(hi, im.c(0), nk);
  Value fullEnd = im.floorTo(end, bk);
  Value start = im.min(im.floorTo(im.max(lo, im.c(0)), bk), fullEnd);
  if (!off)
    return {start, fullEnd, fullEnd, end};
  // Blocks [j0, j0 + bk) with j0 + bk <= i0 + off + 1 are fully visible.
  Value visEnd = im.clamp(im.floorTo(im.add(im.add(i0, off), im.c(1)), bk),
                          start, fullEnd);
  return {start, visEnd, fullEnd, end};
}

QueryRanges flash::detail::queryRanges(IndexMath &im, Value j0, Value cols,
                                       Value nq, Value off, int64_t bq,
                                       const MaskBounds *bounds) {
  // Rows i >= j0 - off see key j0; rows i >= j0 + cols - 1 - off see the
  // whole block.
  Value lo = off ? im.sub(j0, off) : im.c(0);
  Value hi = nq;
  boundRange(im, bounds, /*swap=*/true, j0, cols, lo, hi);
  Value end = im.clamp(hi, im.c(0), nq);
  Value fullEnd = im.floorTo(end, bq);
  Value start = im.clamp(im.floorTo(lo, bq), im.c(0), fullEnd);
  if (!off)
    return {start, start, fullEnd, end};
  Value visStart = im.clamp(
      im.ceilTo(im.sub(im.sub(im.add(j0, cols), im.c(1)), off), bq), start,
      fullEnd);
  return {start, visStart, fullEnd, end};
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

Value flash::detail::slice(OpBuilder &b, Location loc, Value src,
                    ArrayRef<OpFoldResult> offsets,
                    ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, src, offsets, sizes, strides);
}

Value flash::detail::insert(OpBuilder &b, Location loc, Value src, Value dest,
                     ArrayRef<OpFoldResult> offsets,
                     ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  return tensor::InsertSliceOp::create(b, loc, src, dest, offsets, sizes,
                                       strides);
}

Value flash::detail::empty(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                    Type elt) {
  return tensor::EmptyOp::create(b, loc, sizes, elt);
}

Value flash::detail::filled(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                     float value) {
  Value e = empty(b, loc, sizes, b.getF32Type());
  Value c = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  return linalg::FillOp::create(b, loc, c, e).getResult(0);
}

static Value sliceTrailing(OpBuilder &b, Location loc, Value src,
                           ValueRange ivs, int64_t keep) {
  auto ty = cast<RankedTensorType>(src.getType());
  int64_t rank = ty.getRank();
  SmallVector<OpFoldResult> offs(ivs.begin(), ivs.end()),
      sizes(ivs.size(), b.getIndexAttr(1)), strides(rank, b.getIndexAttr(1));
  for (int64_t i = rank - keep; i < rank; ++i) {
    offs.push_back(b.getIndexAttr(0));
    sizes.push_back(tensor::getMixedSize(b, loc, src, i));
  }
  auto resTy = RankedTensorType::get(ty.getShape().take_back(keep),
                                     ty.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, resTy, src, offs, sizes,
                                        strides);
}

Value flash::detail::slice2D(OpBuilder &b, Location loc, Value src, ValueRange ivs) {
  return sliceTrailing(b, loc, src, ivs, 2);
}

Value flash::detail::slice1D(OpBuilder &b, Location loc, Value src, ValueRange ivs) {
  return sliceTrailing(b, loc, src, ivs, 1);
}

Value flash::detail::insertLeading(OpBuilder &b, Location loc, Value src, Value dest,
                            ValueRange ivs) {
  auto ty = cast<RankedTensorType>(dest.getType());
  auto srcTy = cast<RankedTensorType>(src.getType());
  int64_t rank = ty.getRank();
  SmallVector<OpFoldResult> offs(ivs.begin(), ivs.end()),
      sizes(ivs.size(), b.getIndexAttr(1)), strides(rank, b.getIndexAttr(1));
  for (int64_t i = 0; i < srcTy.getRank(); ++i) {
    offs.push_back(b.getIndexAttr(0));
    sizes.push_back(tensor::getMixedSize(b, loc, src, i));
  }
  return tensor::InsertSliceOp::create(b, loc, src, dest, offs, sizes, strides);
}

Value flash::detail::castTensor(OpBuilder &b, Location loc, Value t, Type elt) {
  auto ty = cast<RankedTensorType>(t.getType());
  if (ty.getElementType() == elt)
    return t;
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, t);
  Value out = empty(b, loc, sizes, elt);
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(ty.getRank()));
  SmallVector<IteratorType> iters(ty.getRank(), kPar);
  return linalg::GenericOp::create(
             b, loc, out.getType(), ValueRange{t}, ValueRange{out}, maps,
             iters,
             [&](OpBuilder &nb, Location nl, ValueRange a) {
               linalg::YieldOp::create(
                   nb, nl,
                   ValueRange{arith::TruncFOp::create(nb, nl, elt, a[0])});
             })
      .getResult(0);
}

Value flash::detail::toF32(OpBuilder &b, Location loc, Value x) {
  if (x.getType().isF32())
    return x;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), x);
}

Value flash::detail::negInf(OpBuilder &b, Location loc) {
  return arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
}

Value flash::detail::safeMax(OpBuilder &b, Location loc, Value m) {
  Value isNegInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m,
                                         negInf(b, loc));
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  return arith::SelectOp::create(b, loc, isNegInf, zero, m);
}

//===----------------------------------------------------------------------===//
// Block computations
//===----------------------------------------------------------------------===//

static AffineMap dimMap(MLIRContext *ctx, unsigned n,
                        ArrayRef<AffineExpr> exprs) {
  return AffineMap::get(n, 0, exprs, ctx);
}

Value flash::detail::matmulAcc(OpBuilder &b, Location loc, Value a, Value bMat,
                        Value c, bool transposeA) {
  MLIRContext *ctx = b.getContext();
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  SmallVector<AffineMap> maps{
      dimMap(ctx, 3, transposeA ? ArrayRef<AffineExpr>{k, m}
                                : ArrayRef<AffineExpr>{m, k}),
      dimMap(ctx, 3, {k, n}), dimMap(ctx, 3, {m, n})};
  return linalg::GenericOp::create(
             b, loc, c.getType(), ValueRange{a, bMat}, ValueRange{c}, maps,
             {kPar, kPar, kRed},
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Value prod = arith::MulFOp::create(nb, nl, toF32(nb, nl, args[0]),
                                                  toF32(nb, nl, args[1]),
                                                  kContract);
               linalg::YieldOp::create(
                   nb, nl,
                   ValueRange{arith::AddFOp::create(nb, nl, args[2], prod,
                                                    kContract)});
             })
      .getResult(0);
}

Value flash::detail::transpose2D(OpBuilder &b, Location loc, Value t) {
  auto ty = cast<RankedTensorType>(t.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, t);
  std::swap(sizes[0], sizes[1]);
  Value out = empty(b, loc, sizes, ty.getElementType());
  return linalg::TransposeOp::create(b, loc, t, out, ArrayRef<int64_t>{1, 0})
      .getResult()[0];
}

void flash::detail::sliceHeadMask(OpBuilder &b, Location loc, Value mask,
                                  int64_t rank, ValueRange ivs,
                                  ScoreSpec &spec) {
  auto mTy = cast<RankedTensorType>(mask.getType());
  int64_t lead = rank - mTy.getRank();
  SmallVector<Value> mIvs;
  for (int64_t t = 0; t + 2 < mTy.getRank(); ++t)
    mIvs.push_back(mTy.getDimSize(t) == 1
                       ? arith::ConstantIndexOp::create(b, loc, 0).getResult()
                       : ivs[lead + t]);
  spec.mask = slice2D(b, loc, mask, mIvs);
  spec.maskRowsBcast = mTy.getDimSize(mTy.getRank() - 2) == 1;
  spec.maskColsBcast = mTy.getDimSize(mTy.getRank() - 1) == 1;
}

void flash::detail::setModifiers(OpBuilder &b, Location loc, Operation *op,
                                 ValueRange lead, ScoreSpec &spec) {
  auto regions = [&](auto flashOp) {
    spec.scoreMod = flashOp.getScoreModRegion();
    spec.maskMod = flashOp.getMaskModRegion();
    spec.captures.assign(flashOp.getCaptures().begin(),
                         flashOp.getCaptures().end());
  };
  if (auto f = dyn_cast<AttentionOp>(op))
    regions(f);
  else
    regions(cast<AttentionGradOp>(op));
  spec.lead.assign(lead.begin(), lead.end());
  if (spec.maskMod)
    spec.bounds = analyzeMaskMod(b, loc, *spec.maskMod, lead, spec.captures);
}

/// The mask_mod's arguments at block position (i0 + ii, j0 + jj).
static SmallVector<Value> modArgs(OpBuilder &b, Location loc,
                                  const ScoreSpec &spec, Value i0, Value j0) {
  IndexMath im{b, loc};
  Value ii = linalg::IndexOp::create(b, loc, 0);
  Value jj = linalg::IndexOp::create(b, loc, 1);
  SmallVector<Value> args(spec.lead);
  args.push_back(im.add(i0, ii));
  args.push_back(im.add(j0, jj));
  args.append(spec.captures.begin(), spec.captures.end());
  return args;
}

static std::pair<Value, Value>
scoreBlockImpl(OpBuilder &b, Location loc, const ScoreSpec &spec, Value q,
               Value k, Value i0, OpFoldResult rows, Value j0,
               OpFoldResult cols, bool applyCausal, bool withDerivative) {
  MLIRContext *ctx = b.getContext();
  OpFoldResult zero = b.getIndexAttr(0);
  int64_t d = cast<RankedTensorType>(q.getType()).getShape().back();
  Value qb = slice(b, loc, q, {i0, zero}, {rows, b.getIndexAttr(d)});
  Value kb = slice(b, loc, k, {j0, zero}, {cols, b.getIndexAttr(d)});
  // k_j^T [D, cols]: a copy of one block (O(block-kv * D), 1/(2 block-q) of
  // the block's FLOPs) that gives the product a contiguous right-hand side.
  Value s = matmulAcc(b, loc, qb, transpose2D(b, loc, kb),
                      filled(b, loc, {rows, cols}, 0.0f));
  withDerivative &= spec.scoreMod != nullptr;

  AffineExpr i, j;
  bindDims(ctx, i, j);
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
  bool boolMask = false;
  if (spec.mask) {
    Value mb = slice(b, loc, spec.mask,
                     {spec.maskRowsBcast ? zero : OpFoldResult(i0),
                      spec.maskColsBcast ? zero : OpFoldResult(j0)},
                     {spec.maskRowsBcast ? b.getIndexAttr(1) : rows,
                      spec.maskColsBcast ? b.getIndexAttr(1) : cols});
    ins.push_back(mb);
    AffineExpr c0 = getAffineConstantExpr(0, ctx);
    maps.push_back(dimMap(ctx, 2, {spec.maskRowsBcast ? c0 : i,
                                   spec.maskColsBcast ? c0 : j}));
    boolMask = cast<RankedTensorType>(spec.mask.getType())
                   .getElementType()
                   .isInteger(1);
  }
  SmallVector<Value> outs{s};
  maps.push_back(dimMap(ctx, 2, {i, j}));
  if (withDerivative) {
    outs.push_back(empty(b, loc, {rows, cols}, b.getF32Type()));
    maps.push_back(dimMap(ctx, 2, {i, j}));
  }
  SmallVector<Type> types;
  for (Value o : outs)
    types.push_back(o.getType());
  auto g = linalg::GenericOp::create(
      b, loc, types, ins, outs, maps, {kPar, kPar},
      [&](OpBuilder &nb, Location nl, ValueRange a) {
        Value x = a[ins.size()];
        Value sc =
            arith::ConstantOp::create(nb, nl, nb.getF32FloatAttr(spec.scale));
        x = arith::MulFOp::create(nb, nl, x, sc);
        if (spec.scaleFactor)
          x = arith::MulFOp::create(nb, nl, x, spec.scaleFactor);
        Value dx;
        if (spec.scoreMod) {
          SmallVector<Value> args{x};
          llvm::append_range(args, modArgs(nb, nl, spec, i0, j0));
          if (withDerivative) {
            auto r = inlineScoreModWithDerivative(nb, nl, *spec.scoreMod,
                                                  args);
            // The verifier of flash.attention_grad rejects score_mods
            // without a derivative; this is not reached for them.
            x = succeeded(r) ? r->first : x;
            dx = succeeded(r) ? r->second : x;
          } else {
            x = inlineModifier(nb, nl, *spec.scoreMod, args);
          }
        }
        if (spec.mask && boolMask)
          x = arith::SelectOp::create(nb, nl, a[0], x, negInf(nb, nl));
        else if (spec.mask)
          x = arith::AddFOp::create(nb, nl, x, toF32(nb, nl, a[0]));
        if (applyCausal) {
          // Key j0 + jj is visible from query i0 + ii iff
          // j0 + jj <= i0 + ii + offset.
          Value ii = linalg::IndexOp::create(nb, nl, 0);
          Value jj = linalg::IndexOp::create(nb, nl, 1);
          IndexMath im{nb, nl};
          Value key = im.add(j0, jj);
          Value lim = im.add(im.add(i0, ii), spec.causalOffset);
          Value vis = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::sle,
                                            key, lim);
          x = arith::SelectOp::create(nb, nl, vis, x, negInf(nb, nl));
        }
        if (spec.maskMod) {
          Value keep = inlineModifier(nb, nl, *spec.maskMod,
                                      modArgs(nb, nl, spec, i0, j0));
          x = arith::SelectOp::create(nb, nl, keep, x, negInf(nb, nl));
        }
        SmallVector<Value> ys{x};
        if (withDerivative)
          ys.push_back(dx);
        linalg::YieldOp::create(nb, nl, ys);
      });
  return {g.getResult(0), withDerivative ? g.getResult(1) : Value()};
}

Value flash::detail::scoreBlock(OpBuilder &b, Location loc,
                                const ScoreSpec &spec, Value q, Value k,
                                Value i0, OpFoldResult rows, Value j0,
                                OpFoldResult cols, bool applyCausal) {
  return scoreBlockImpl(b, loc, spec, q, k, i0, rows, j0, cols, applyCausal,
                        false)
      .first;
}

std::pair<Value, Value> flash::detail::scoreBlockWithDerivative(
    OpBuilder &b, Location loc, const ScoreSpec &spec, Value q, Value k,
    Value i0, OpFoldResult rows, Value j0, OpFoldResult cols,
    bool applyCausal) {
  return scoreBlockImpl(b, loc, spec, q, k, i0, rows, j0, cols, applyCausal,
                        true);
}

Value flash::detail::anyVisible(OpBuilder &b, Location loc,
                                const ScoreSpec &spec, Value i0,
                                OpFoldResult rows, Value j0,
                                OpFoldResult cols) {
  MLIRContext *ctx = b.getContext();
  // A block of i1 reduced with `or` into a 0-d tensor; the block itself is
  // only an iteration domain.
  Value dom = empty(b, loc, {rows, cols}, b.getI1Type());
  Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{},
                                       b.getI1Type());
  Value f = arith::ConstantIntOp::create(b, loc, 0, 1);
  init = linalg::FillOp::create(b, loc, f, init).getResult(0);
  AffineExpr i, j;
  bindDims(ctx, i, j);
  Value any =
      linalg::GenericOp::create(
          b, loc, init.getType(), ValueRange{dom}, ValueRange{init},
          {dimMap(ctx, 2, {i, j}), AffineMap::get(2, 0, {}, ctx)},
          {kRed, kRed},
          [&](OpBuilder &nb, Location nl, ValueRange a) {
            Value keep = inlineModifier(nb, nl, *spec.maskMod,
                                        modArgs(nb, nl, spec, i0, j0));
            linalg::YieldOp::create(
                nb, nl, ValueRange{arith::OrIOp::create(nb, nl, a[1], keep)});
          })
          .getResult(0);
  return tensor::ExtractOp::create(b, loc, any, ValueRange{});
}

SmallVector<Value> flash::detail::ifVisible(
    OpBuilder &b, Location loc, const ScoreSpec &spec, Value i0,
    OpFoldResult rows, Value j0, OpFoldResult cols, ValueRange iterArgs,
    function_ref<SmallVector<Value>(OpBuilder &, Location)> body) {
  if (!spec.needsBlockCheck())
    return body(b, loc);
  Value any = anyVisible(b, loc, spec, i0, rows, j0, cols);
  auto ifOp = scf::IfOp::create(
      b, loc, any,
      [&](OpBuilder &nb, Location nl) {
        scf::YieldOp::create(nb, nl, body(nb, nl));
      },
      [&](OpBuilder &nb, Location nl) {
        scf::YieldOp::create(nb, nl, iterArgs);
      });
  return SmallVector<Value>(ifOp.getResults());
}
