//===- FlashOps.cpp - Verifiers and interfaces of the flash ops -----------===//

#include "flash/Dialect/Flash/IR/FlashOps.h"
#include "flash/Dialect/Flash/IR/Modifiers.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::flash;

//===----------------------------------------------------------------------===//
// Shared verification of the attention operands
//===----------------------------------------------------------------------===//

namespace {
/// Formats a shape as `[2, 8, ?, 64]` for diagnostics.
std::string formatShape(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(shape, os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << "?";
    else
      os << d;
  });
  os << "]";
  return s;
}

bool dimsCompatible(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

bool shapesCompatible(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  return a.size() == b.size() &&
         llvm::all_of(llvm::zip(a, b), [](auto p) {
           return dimsCompatible(std::get<0>(p), std::get<1>(p));
         });
}

bool isSupportedElementType(Type t) { return t.isF32() || t.isF16() || t.isBF16(); }
bool isFloat8(Type t) { return isa<Float8E4M3FNType>(t); }

/// Checks the common part of both ops: q/k/v, the mask and the attributes.
/// On success, `outShape` is the expected shape of o and `lseShape` the one
/// of lse.
LogicalResult verifyAttentionInputs(
    Operation *op, RankedTensorType qTy, RankedTensorType kTy,
    RankedTensorType vTy, RankedTensorType maskTy, std::optional<APFloat> scale,
    bool causal, std::optional<int64_t> causalOffset, bool allowFloat8,
    SmallVectorImpl<int64_t> &outShape, SmallVectorImpl<int64_t> &lseShape) {
  Type et = qTy.getElementType();
  if (isFloat8(et) && !allowFloat8)
    return op->emitOpError("has no fp8 form: query, key and value must be "
                           "f32, f16 or bf16, got ")
           << et;
  if (!isSupportedElementType(et) && !isFloat8(et))
    return op->emitOpError("query element type must be f32, f16, bf16 or "
                           "f8E4M3FN, got ")
           << et;
  if (kTy.getElementType() != et || vTy.getElementType() != et)
    return op->emitOpError("query, key and value must have one element type, "
                           "got ")
           << et << ", " << kTy.getElementType() << " and "
           << vTy.getElementType();

  int64_t rank = qTy.getRank();
  if (rank < 2)
    return op->emitOpError("query must have rank >= 2 ([batch..., seq, "
                           "head_dim]), got rank ")
           << rank;
  if (kTy.getRank() != rank || vTy.getRank() != rank)
    return op->emitOpError("query, key and value must have the same rank, got ")
           << rank << ", " << kTy.getRank() << " and " << vTy.getRank();

  ArrayRef<int64_t> q = qTy.getShape(), k = kTy.getShape(),
                    v = vTy.getShape();
  int64_t seqDim = rank - 2, headDim = rank - 1;
  int64_t numBatch = rank >= 3 ? rank - 3 : 0;
  for (int64_t i = 0; i < numBatch; ++i) {
    if (!dimsCompatible(q[i], k[i]) || !dimsCompatible(q[i], v[i]))
      return op->emitOpError("batch dim ")
             << i << " differs between query " << formatShape(q)
             << ", key " << formatShape(k) << " and value " << formatShape(v);
  }
  if (rank >= 3) {
    int64_t hq = q[rank - 3], hk = k[rank - 3], hv = v[rank - 3];
    if (!dimsCompatible(hk, hv))
      return op->emitOpError("key and value must have the same number of "
                             "heads, got ")
             << hk << " and " << hv;
    if (!ShapedType::isDynamic(hq) && !ShapedType::isDynamic(hk) &&
        (hk == 0 || hq % hk != 0))
      return op->emitOpError("number of query heads (")
             << hq << ") must be a multiple of the number of key/value heads ("
             << hk << ")";
  }
  if (!dimsCompatible(k[seqDim], v[seqDim]))
    return op->emitOpError("key and value sequence lengths differ (")
           << k[seqDim] << " vs " << v[seqDim] << ")";
  if (ShapedType::isDynamic(q[headDim]) || ShapedType::isDynamic(k[headDim]) ||
      ShapedType::isDynamic(v[headDim]))
    return op->emitOpError("head dims (the last dim of query, key and value) "
                           "must be static");
  if (q[headDim] != k[headDim])
    return op->emitOpError("query and key head dims differ (")
           << q[headDim] << " vs " << k[headDim] << ")";
  // (Empty attention, no keys or no features, has no tiles: its result is
  // the program's to write, a zero or a mean of V.)
  if (q[headDim] == 0 || v[headDim] == 0)
    return op->emitOpError("head dims must be non-zero, got ")
           << q[headDim] << " and " << v[headDim];
  if (k[seqDim] == 0 || q[seqDim] == 0)
    return op->emitOpError("static sequence lengths must be non-zero, got ")
           << q[seqDim] << " queries and " << k[seqDim] << " keys";

  // Expected o: [B..., Hq, Nq, Dv]; lse: [B..., Hq, Nq].
  outShape.assign(q.begin(), q.end());
  outShape.back() = v[headDim];
  lseShape.assign(q.begin(), q.end() - 1);

  if (maskTy) {
    Type mt = maskTy.getElementType();
    if (!mt.isInteger(1) && !isSupportedElementType(mt))
      return op->emitOpError("mask element type must be i1 (keep-mask) or "
                             "f32/f16/bf16 (additive), got ")
             << mt;
    // Broadcast target: [B..., Hq, Nq, Nk].
    SmallVector<int64_t> scores(q.begin(), q.end());
    scores.back() = k[seqDim];
    if (maskTy.getRank() > rank || maskTy.getRank() < 2)
      return op->emitOpError("mask of shape ")
             << formatShape(maskTy.getShape())
             << " does not broadcast to the scores " << formatShape(scores)
             << ": its rank must be between 2 and " << rank;
    int64_t lead = rank - maskTy.getRank();
    for (auto [i, d] : llvm::enumerate(maskTy.getShape())) {
      int64_t t = scores[lead + i];
      if (d == 1 || dimsCompatible(d, t))
        continue;
      return op->emitOpError("mask of shape ")
             << formatShape(maskTy.getShape())
             << " does not broadcast to the scores " << formatShape(scores)
             << " (dim " << i << " is " << d << ", expected 1 or " << t << ")";
    }
  }

  if (scale) {
    if (!scale->isFinite())
      return op->emitOpError("scale must be a finite float");
  }
  if (causalOffset && !causal)
    return op->emitOpError("causal_offset requires the causal attribute");
  return success();
}

LogicalResult verifyShape(Operation *op, StringRef what, RankedTensorType ty,
                          ArrayRef<int64_t> expected, Type expectedElt) {
  if (!shapesCompatible(ty.getShape(), expected))
    return op->emitOpError() << what << " has shape "
                             << formatShape(ty.getShape()) << ", expected "
                             << formatShape(expected);
  if (ty.getElementType() != expectedElt)
    return op->emitOpError() << what << " must have element type "
                             << expectedElt << ", got " << ty.getElementType();
  return success();
}

float scaleOrDefault(std::optional<APFloat> scale, RankedTensorType qTy) {
  if (scale) {
    APFloat s = *scale;
    bool lost;
    s.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &lost);
    return s.convertToFloat();
  }
  return 1.0f / std::sqrt(static_cast<float>(qTy.getShape().back()));
}

RankedTensorType optionalType(Value v) {
  return v ? cast<RankedTensorType>(v.getType()) : RankedTensorType();
}
} // namespace

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

MutableOperandRange AttentionOp::getDpsInitsMutable() {
  // `output` and the optional `lse_init` are the last operands.
  unsigned numInits = getLseInit() ? 2 : 1;
  return MutableOperandRange(getOperation(),
                             getOperation()->getNumOperands() - numInits,
                             numInits);
}

float AttentionOp::getScaleValue() {
  return scaleOrDefault(getScale(), getQuery().getType());
}

/// `descale(qd, kd, vd)`: three f32 tensors, each of rank 0 or shaped as
/// the leading dims of k ([B..., Hkv]), on an fp8 op only.
LogicalResult AttentionOp::verifyDescales() {
  ValueRange descales = getDescales();
  if (descales.empty())
    return success();
  if (!isFloat8())
    return emitOpError("descale operands require f8E4M3FN query, key and "
                       "value, got ")
           << getQuery().getType().getElementType();
  if (descales.size() != 3)
    return emitOpError("takes three descale operands (query, key, value), "
                       "got ")
           << descales.size();
  ArrayRef<int64_t> kShape = getKey().getType().getShape();
  ArrayRef<int64_t> lead = kShape.drop_back(2);
  const char *names[] = {"query", "key", "value"};
  for (auto [name, d] : llvm::zip(names, descales)) {
    auto ty = cast<RankedTensorType>(d.getType());
    if (!ty.getElementType().isF32())
      return emitOpError() << name << " descale must have element type f32, "
                           << "got " << ty.getElementType();
    if (ty.getRank() != 0 && !shapesCompatible(ty.getShape(), lead))
      return emitOpError() << name << " descale has shape "
                           << formatShape(ty.getShape())
                           << ", expected [] (per tensor) or "
                           << formatShape(lead) << " (per batch and kv head)";
  }
  return success();
}

LogicalResult AttentionOp::verify() {
  SmallVector<int64_t> outShape, lseShape;
  if (failed(verifyAttentionInputs(
          *this, getQuery().getType(), getKey().getType(), getValue().getType(),
          optionalType(getMask()), getScale(), getCausal(), getCausalOffset(),
          /*allowFloat8=*/true, outShape, lseShape)))
    return failure();
  // An fp8 op writes a wider type: the output's own, checked here.
  Type outElt = getOutput().getType().getElementType();
  if (isFloat8() && !isSupportedElementType(outElt))
    return emitOpError("output of an fp8 attention must have element type "
                       "f32, f16 or bf16, got ")
           << outElt;
  Type vElt = getValue().getType().getElementType();
  if (failed(verifyShape(*this, "output", getOutput().getType(), outShape,
                         isFloat8() ? outElt : vElt)))
    return failure();
  if (failed(verifyDescales()))
    return failure();
  if (getResult().getType() != getOutput().getType())
    return emitOpError("result type ")
           << getResult().getType() << " must match the output type "
           << getOutput().getType();
  if (static_cast<bool>(getLseInit()) != static_cast<bool>(getLse()))
    return emitOpError("an lse(...) operand requires an lse result and vice "
                       "versa");
  if (getLseInit()) {
    if (failed(verifyShape(*this, "lse", getLseInit().getType(), lseShape,
                           Float32Type::get(getContext()))))
      return failure();
    if (getLse().getType() != getLseInit().getType())
      return emitOpError("lse result type ")
             << getLse().getType() << " must match the lse operand type "
             << getLseInit().getType();
  }
  return verifyModifiers(*this, getRank(), getCaptures(), getScoreMod(),
                         getMaskMod());
}

//===----------------------------------------------------------------------===//
// AttentionGradOp
//===----------------------------------------------------------------------===//

MutableOperandRange AttentionGradOp::getDpsInitsMutable() {
  // `outs(dq, dk, dv)` are the last three operands.
  return MutableOperandRange(getOperation(),
                             getOperation()->getNumOperands() - 3, 3);
}

float AttentionGradOp::getScaleValue() {
  return scaleOrDefault(getScale(), getQuery().getType());
}

LogicalResult AttentionGradOp::verify() {
  SmallVector<int64_t> outShape, lseShape;
  if (failed(verifyAttentionInputs(
          *this, getQuery().getType(), getKey().getType(), getValue().getType(),
          optionalType(getMask()), getScale(), getCausal(), getCausalOffset(),
          /*allowFloat8=*/false, outShape, lseShape)))
    return failure();
  Type vElt = getValue().getType().getElementType();
  if (failed(verifyShape(*this, "output", getOutput().getType(), outShape,
                         vElt)) ||
      failed(verifyShape(*this, "lse", getLse().getType(), lseShape,
                         Float32Type::get(getContext()))) ||
      failed(verifyShape(*this, "grad_output", getGradOutput().getType(),
                         outShape, vElt)) ||
      failed(verifyShape(*this, "grad_query init",
                         getGradQueryInit().getType(),
                         getQuery().getType().getShape(),
                         getQuery().getType().getElementType())) ||
      failed(verifyShape(*this, "grad_key init", getGradKeyInit().getType(),
                         getKey().getType().getShape(),
                         getKey().getType().getElementType())) ||
      failed(verifyShape(*this, "grad_value init",
                         getGradValueInit().getType(),
                         getValue().getType().getShape(), vElt)))
    return failure();
  for (auto [res, init] : llvm::zip(getResults(), getDpsInits()))
    if (res.getType() != init.getType())
      return emitOpError("result type ")
             << res.getType() << " must match its outs type "
             << init.getType();
  if (failed(verifyModifiers(*this, getRank(), getCaptures(), getScoreMod(),
                             getMaskMod())))
    return failure();
  if (Region *r = getScoreModRegion())
    if (Operation *bad = findNonDifferentiable(*r))
      return bad->emitOpError("in 'score_mod' has no derivative rule: the "
                              "backward cannot differentiate the score "
                              "through it");
  return success();
}

#define GET_OP_CLASSES
#include "flash/Dialect/Flash/IR/FlashOps.cpp.inc"
