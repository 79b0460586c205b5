//===- TilingInterfaceImpl.cpp - TilingInterface for flash.attention ------===//
//
// flash.attention is tileable over its batch, head and query dims, which are
// all parallel: a tile of the iteration space [B..., Hq, Nq] reads the
// matching rows of q, the kv heads its query heads map to, all of k/v along
// the key axis, and writes the matching tile of o (and lse). The key axis is
// not part of the iteration space: splitting it needs the online-softmax
// recurrence, which is what --flash-tile-attention builds.
//
//===----------------------------------------------------------------------===//

#include "flash/Dialect/Flash/IR/FlashOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::flash;

SmallVector<utils::IteratorType> AttentionOp::getLoopIteratorTypes() {
  return SmallVector<utils::IteratorType>(getRank() - 1,
                                          utils::IteratorType::parallel);
}

SmallVector<Range> AttentionOp::getIterationDomain(OpBuilder &b) {
  Location loc = getLoc();
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  SmallVector<Range> domain;
  for (int64_t i = 0, e = getRank() - 1; i < e; ++i)
    domain.push_back(
        Range{zero, tensor::getMixedSize(b, loc, getQuery(), i), one});
  return domain;
}

namespace {
/// Slice of `source` whose leading dims take `offsets`/`sizes` and whose
/// remaining dims are taken whole.
Value sliceLeading(OpBuilder &b, Location loc, Value source,
                   ArrayRef<OpFoldResult> offsets,
                   ArrayRef<OpFoldResult> sizes) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<OpFoldResult> offs(offsets), szs(sizes);
  for (int64_t i = offsets.size(), e = type.getRank(); i < e; ++i) {
    offs.push_back(b.getIndexAttr(0));
    szs.push_back(tensor::getMixedSize(b, loc, source, i));
  }
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, source, offs, szs, strides);
}
} // namespace

FailureOr<TilingResult>
AttentionOp::getTiledImplementation(OpBuilder &b,
                                    ArrayRef<OpFoldResult> offsets,
                                    ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  int64_t rank = getRank();
  int64_t seq = rank - 2;

  // A query tile that does not start at row 0 shifts the causal diagonal by
  // its offset, which the static causal_offset attribute cannot express.
  if (getCausal() && !isZeroInteger(offsets[seq])) {
    std::optional<int64_t> off = getConstantIntValue(offsets[seq]);
    if (!off)
      return emitOpError("cannot tile the query dim of a causal attention "
                         "with a non-constant offset; tile batch/heads only");
  }
  // The modifier regions see global positions: a tile's are its own plus
  // its offsets, added at the top of the cloned regions. The regions are
  // isolated from above: a non-constant offset enters as one more captured
  // operand (a 0-d tensor).
  bool hasMods = getScoreModRegion() || getMaskModRegion();
  SmallVector<Value> offsetCaptures;
  if (hasMods)
    for (int64_t d = 0; d <= seq; ++d)
      if (!getConstantIntValue(offsets[d]))
        offsetCaptures.push_back(tensor::FromElementsOp::create(
            b, loc, RankedTensorType::get({}, b.getIndexType()),
            ValueRange{getValueOrCreateConstantIndexOp(b, loc, offsets[d])}));

  // Key/value operands: batch dims as the query, heads mapped through the
  // GQA group, the sequence and head dims whole.
  SmallVector<OpFoldResult> kvOffsets(offsets.begin(), offsets.begin() + seq);
  SmallVector<OpFoldResult> kvSizes(sizes.begin(), sizes.begin() + seq);
  if (rank >= 3) {
    int64_t hq = getQuery().getType().getDimSize(rank - 3);
    int64_t hkv = getKey().getType().getDimSize(rank - 3);
    bool sameHeads = hq == hkv && !ShapedType::isDynamic(hq);
    if (!sameHeads) {
      std::optional<int64_t> t = getConstantIntValue(sizes[rank - 3]);
      if (ShapedType::isDynamic(hq) || ShapedType::isDynamic(hkv) || !t)
        return emitOpError("tiling the heads of a GQA attention needs static "
                           "head counts and a constant tile size");
      int64_t group = hq / hkv;
      if (!((*t % group == 0 || group % *t == 0) && hq % *t == 0))
        return emitOpError("head tile size ")
               << *t << " must divide the number of query heads (" << hq
               << ") and be a multiple or a divisor of the GQA group ("
               << group << ")";
      AffineExpr d0 = b.getAffineDimExpr(0);
      kvOffsets.back() = affine::makeComposedFoldedAffineApply(
          b, loc, d0.floorDiv(group), {offsets[rank - 3]});
      kvSizes.back() = b.getIndexAttr(std::max<int64_t>(1, *t / group));
    }
  }

  SmallVector<Value> operands;
  SmallVector<Operation *> slices;
  auto add = [&](Value v) {
    operands.push_back(v);
    slices.push_back(v.getDefiningOp());
  };
  add(sliceLeading(b, loc, getQuery(), offsets, sizes));
  add(sliceLeading(b, loc, getKey(), kvOffsets, kvSizes));
  add(sliceLeading(b, loc, getValue(), kvOffsets, kvSizes));
  if (Value mask = getMask()) {
    // Right-aligned broadcast: static unit dims stay whole, the others follow
    // the iteration space; the key dim is whole.
    auto maskTy = cast<RankedTensorType>(mask.getType());
    int64_t lead = rank - maskTy.getRank();
    SmallVector<OpFoldResult> mOffs, mSizes;
    for (int64_t i = 0; i + 1 < maskTy.getRank(); ++i) {
      int64_t d = lead + i;
      if (maskTy.getDimSize(i) == 1) {
        mOffs.push_back(b.getIndexAttr(0));
        mSizes.push_back(b.getIndexAttr(1));
      } else {
        mOffs.push_back(offsets[d]);
        mSizes.push_back(sizes[d]);
      }
    }
    add(sliceLeading(b, loc, mask, mOffs, mSizes));
  }
  for (Value c : getCaptures())
    operands.push_back(c);
  operands.append(offsetCaptures.begin(), offsetCaptures.end());
  // fp8 descales: per tensor (rank 0) whole, per kv head as k.
  for (Value d : getDescales()) {
    if (cast<RankedTensorType>(d.getType()).getRank() == 0)
      operands.push_back(d);
    else
      add(sliceLeading(b, loc, d, kvOffsets, kvSizes));
  }
  add(sliceLeading(b, loc, getOutput(), offsets, sizes));
  if (Value lse = getLseInit())
    add(sliceLeading(b, loc, lse, offsets, sizes));

  SmallVector<Type> resultTypes;
  for (Value init : ArrayRef<Value>(operands).take_back(getLseInit() ? 2 : 1))
    resultTypes.push_back(init.getType());

  // The tiled op: same attributes, sliced operands, the regions cloned.
  unsigned n = 3;
  Value q = operands[0], k = operands[1], v = operands[2];
  Value mask = getMask() ? operands[n++] : Value();
  unsigned numCaptures = getCaptures().size() + offsetCaptures.size();
  ValueRange captures = ValueRange(operands).slice(n, numCaptures);
  n += numCaptures;
  ValueRange descales = ValueRange(operands).slice(n, getDescales().size());
  n += descales.size();
  Value out = operands[n++];
  Value lse = getLseInit() ? operands[n++] : Value();
  auto tiledOp = AttentionOp::create(
      b, loc, resultTypes, q, k, v, mask, captures, descales, out, lse,
      getScaleAttr(), getCausalAttr(), getCausalOffsetAttr());
  IRMapping regionMap;
  getScoreMod().cloneInto(&tiledOp.getScoreMod(), regionMap);
  getMaskMod().cloneInto(&tiledOp.getMaskMod(), regionMap);
  Operation *tiled = tiledOp;
  if (hasMods) {
    auto t = cast<AttentionOp>(tiled);
    for (Region *r : {t.getScoreModRegion(), t.getMaskModRegion()}) {
      if (!r)
        continue;
      Block &block = r->front();
      unsigned first = r == t.getScoreModRegion() ? 1 : 0;
      OpBuilder rb = OpBuilder::atBlockBegin(&block);
      for (Value c : offsetCaptures)
        block.addArgument(c.getType(), loc);
      unsigned nextCapture = block.getNumArguments() - offsetCaptures.size();
      for (int64_t d = 0; d <= seq; ++d) {
        std::optional<int64_t> off = getConstantIntValue(offsets[d]);
        if (off == 0)
          continue;
        BlockArgument arg = block.getArgument(first + d);
        Value c = off ? arith::ConstantIndexOp::create(rb, loc, *off)
                      : tensor::ExtractOp::create(
                            rb, loc, block.getArgument(nextCapture++),
                            ValueRange{})
                            .getResult();
        Value shifted = arith::AddIOp::create(rb, loc, arg, c);
        arg.replaceAllUsesExcept(shifted, shifted.getDefiningOp());
      }
    }
  }
  if (getCausal()) {
    // Keep the diagonal where it was: row i of the tile is row i + off.
    std::optional<int64_t> off = getConstantIntValue(offsets[seq]);
    if (off && *off != 0) {
      int64_t nq = getQuery().getType().getDimSize(seq);
      int64_t nk = getKey().getType().getDimSize(seq);
      std::optional<int64_t> base = getCausalOffset();
      if (!base && (ShapedType::isDynamic(nq) || ShapedType::isDynamic(nk)))
        return emitOpError("cannot tile the query dim of a causal attention "
                           "with dynamic lengths and a default offset");
      int64_t diag = base ? *base : nk - nq;
      tiled->setAttr(getCausalOffsetAttrName(),
                     b.getI64IntegerAttr(diag + *off));
    } else if (!getCausalOffset()) {
      // The tile's own Nq may differ: pin the original default diagonal.
      int64_t nq = getQuery().getType().getDimSize(seq);
      int64_t nk = getKey().getType().getDimSize(seq);
      if (!ShapedType::isDynamic(nq) && !ShapedType::isDynamic(nk))
        tiled->setAttr(getCausalOffsetAttrName(), b.getI64IntegerAttr(nk - nq));
      else if (!isEqualConstantIntOrValue(sizes[seq],
                                          tensor::getMixedSize(
                                              b, loc, getQuery(), seq)))
        return emitOpError("cannot tile the query dim of a causal attention "
                           "with dynamic lengths and a default offset");
    }
  }
  return TilingResult{{tiled},
                      SmallVector<Value>(tiled->getResults()),
                      slices};
}

LogicalResult AttentionOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  resultOffsets.assign(offsets.begin(), offsets.end());
  resultSizes.assign(sizes.begin(), sizes.end());
  if (resultNumber == 0) {
    // o has the head dim Dv on top of the iteration space.
    resultOffsets.push_back(b.getIndexAttr(0));
    resultSizes.push_back(
        b.getIndexAttr(getOutput().getType().getShape().back()));
  }
  return success();
}
