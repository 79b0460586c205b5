//===- KernelModifiers.cpp - score_mod / mask_mod in the GPU kernels ------===//
//
// What every GPU kernel (SIMT, tensor-core, cooperative-matrix; forward and
// backward) needs to apply the modifier regions of flash.attention /
// flash.attention_grad: the captured operands as flat buffers, the regions'
// index arguments, their loop-invariant parts hoisted out of the key
// (query) loop, the tiles a mask_mod's affine bounds leave to visit, and
// the skipping of the tiles a mask_mod hides beyond those bounds.
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToGPU/GPUKernels.h"
#include "flash/Dialect/Flash/IR/Modifiers.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

MemRefType gpukernels::captureType(MLIRContext *ctx, RankedTensorType t) {
  Type e = t.getElementType();
  if (e.isIndex())
    e = IntegerType::get(ctx, 64);
  else if (e.isInteger(1))
    e = IntegerType::get(ctx, 8);
  return MemRefType::get(
      {t.hasStaticShape() ? t.getNumElements() : ShapedType::kDynamic}, e);
}

Value gpukernels::readCapture(OpBuilder &b, Location loc, const KernelSpec &s,
                              ValueRange bufs, unsigned k, ValueRange idx) {
  RankedTensorType t = s.captures[k];
  KernelBuilder kb{b, loc};
  Value flat = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [d, i] : llvm::enumerate(idx)) {
    // (Row-major: dim 0's size is never needed; a dynamic one's is a size
    // argument.)
    Value size = d == 0 || !t.isDynamicDim(d)
                     ? arith::ConstantIndexOp::create(b, loc, t.getDimSize(d))
                           .getResult()
                     : s.captureDimValue(kb, k, d);
    flat = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, flat, size), i);
  }
  Value x = memref::LoadOp::create(b, loc, bufs[k], ValueRange{flat});
  Type e = t.getElementType();
  if (e.isIndex())
    return arith::IndexCastOp::create(b, loc, e, x);
  if (e.isInteger(1))
    return arith::TruncIOp::create(b, loc, e, x);
  return x;
}

SmallVector<Value> gpukernels::leadPositions(KernelBuilder &kb,
                                             const KernelSpec &s, Value bh) {
  SmallVector<Value> lead(s.lead.size());
  Value rest = bh;
  for (int64_t i = static_cast<int64_t>(s.lead.size()) - 1; i >= 0; --i) {
    Value size = s.leadValue(kb, i);
    lead[i] = arith::RemUIOp::create(kb.b, kb.loc, rest, size);
    rest = arith::DivUIOp::create(kb.b, kb.loc, rest, size);
  }
  return lead;
}

gpukernels::MaskTiles gpukernels::maskModTiles(KernelBuilder &kb,
                                               const flash::MaskBounds &mb,
                                               bool swap, Value tMin,
                                               Value tMax, Value hi,
                                               int64_t tile, bool inner) {
  OpBuilder &b = kb.b;
  Location loc = kb.loc;
  Value lo = kb.c(0), innerLo = kb.c(0), innerHi = hi;
  flash::boundPositions(b, loc, mb, swap, tMin, tMax, lo, hi,
                        inner ? &innerLo : nullptr,
                        inner ? &innerHi : nullptr);
  auto round = [&](Value x, bool up) { return roundToTile(kb, x, tile, up); };
  MaskTiles r;
  r.exact = mb.exact;
  r.end = arith::MaxSIOp::create(b, loc, hi, kb.c(0));
  r.start = arith::MinSIOp::create(b, loc, round(lo, false), r.end);
  if (inner) {
    r.innerStart = arith::MaxSIOp::create(
        b, loc, r.start,
        arith::MinSIOp::create(b, loc, round(innerLo, true), r.end));
    r.innerEnd = round(innerHi, false);
  }
  return r;
}

SmallVector<Value> gpukernels::tileLoop(OpBuilder &b, Location loc, Value start,
                                        Value end, int64_t step,
                                        ValueRange inits,
                                        const TileCursor *cursor,
                                        ValueRange state, TileBody body) {
  auto stepC = [&](OpBuilder &ib, Location il) {
    return arith::ConstantIndexOp::create(ib, il, step);
  };
  if (!cursor) {
    auto loop = scf::ForOp::create(
        b, loc, start, end, stepC(b, loc), inits,
        [&](OpBuilder &lb, Location l, Value t, ValueRange args) {
          Value after = arith::AddIOp::create(lb, l, t, stepC(lb, l));
          scf::YieldOp::create(lb, l, body(lb, l, t, args, after, {}));
        });
    return SmallVector<Value>(loop.getResults());
  }
  // Carried: the tile, the cursor's state, the body's values.
  SmallVector<Value> wInits{start};
  llvm::append_range(wInits, state);
  const size_t n = 1 + state.size();
  llvm::append_range(wInits, inits);
  auto w = scf::WhileOp::create(
      b, loc, ValueRange(wInits).getTypes(), wInits,
      [&](OpBuilder &wb, Location wl, ValueRange a) {
        Value in = arith::CmpIOp::create(wb, wl, arith::CmpIPredicate::slt,
                                         a[0], end);
        scf::ConditionOp::create(wb, wl, in, a);
      },
      [&](OpBuilder &wb, Location wl, ValueRange a) {
        ValueRange at = a.slice(1, n - 1);
        SmallVector<Value> out = cursor->advance(
            wb, wl, arith::AddIOp::create(wb, wl, a[0], stepC(wb, wl)), at);
        llvm::append_range(out,
                           body(wb, wl, a[0], a.drop_front(n), out[0], at));
        scf::YieldOp::create(wb, wl, out);
      });
  return SmallVector<Value>(w.getResults().drop_front(n));
}

KernelModifiers::KernelModifiers(KernelBuilder &kb, const KernelSpec &s,
                                 gpu::GPUFuncOp fn, Value bh,
                                 ArrayRef<Value> fixed, bool fixedIsKey)
    : s(s), bufs(captureBuffers(fn, s)) {
  reader = [&s, bufs = bufs](OpBuilder &rb, Location rl, unsigned k,
                             ValueRange idx) {
    return readCapture(rb, rl, s, bufs, k, idx);
  };
  if (!s.hasModifiers())
    return;
  lead = leadPositions(kb, s, bh);
  if (s.maskMod)
    bounds = flash::analyzeMaskMod(kb.b, kb.loc, *s.maskMod, lead, {}, reader);
  for (Value f : fixed) {
    SmallVector<Value> pos =
        positions(fixedIsKey ? Value() : f, fixedIsKey ? f : Value());
    if (s.maskMod)
      hoistedMask.push_back(
          flash::hoistModifier(kb.b, kb.loc, *s.maskMod, pos, reader));
    if (s.scoreMod) {
      pos.insert(pos.begin(), Value());
      hoistedScore.push_back(
          flash::hoistModifier(kb.b, kb.loc, *s.scoreMod, pos, reader));
    }
  }
}

SmallVector<Value> KernelModifiers::positions(Value row, Value key) const {
  SmallVector<Value> pos(lead);
  pos.append({row, key});
  return pos;
}

Value KernelModifiers::score(KernelBuilder &kb, unsigned r, Value score,
                             Value row, Value key) const {
  SmallVector<Value> args{score};
  llvm::append_range(args, positions(row, key));
  return flash::inlineModifier(kb.b, kb.loc, *s.scoreMod, args, reader,
                               &hoistedScore[r]);
}

std::pair<Value, Value>
KernelModifiers::scoreAndDerivative(KernelBuilder &kb, unsigned r, Value score,
                                    Value row, Value key) const {
  SmallVector<Value> args{score};
  llvm::append_range(args, positions(row, key));
  auto yd = flash::inlineScoreModWithDerivative(
      kb.b, kb.loc, *s.scoreMod, args, reader, &hoistedScore[r]);
  // attention_grad's verifier rejects a score_mod without a derivative.
  assert(succeeded(yd) && "score_mod without a derivative");
  return *yd;
}

Value KernelModifiers::mask(KernelBuilder &kb, unsigned r, Value row,
                            Value key) const {
  return flash::inlineModifier(kb.b, kb.loc, *s.maskMod, positions(row, key),
                               reader,
                               hoistedMask.empty() ? nullptr : &hoistedMask[r]);
}

Value KernelModifiers::visible(KernelBuilder &kb, unsigned r, Value vis,
                               Value row, Value key) const {
  if (!s.maskMod)
    return vis;
  return arith::AndIOp::create(kb.b, kb.loc, vis, mask(kb, r, row, key));
}

bool KernelModifiers::visibilityIsRanges() const {
  // Without a mask_mod LLVM already reduces the Nk and causal checks to a
  // compare per score, and the ranges came out slower there (the causal
  // backward ran 0.60-0.87x on the H200, 2026-12-04).
  return !s.mask && s.maskMod &&
         flash::maskModIsAffine(*s.maskMod, s.lead.size());
}

void KernelModifiers::narrowToVisible(KernelBuilder &kb, bool swap, Value fixed,
                                      Value &lo, Value &hi) const {
  if (!s.maskMod)
    return;
  OpBuilder &b = kb.b;
  Location loc = kb.loc;
  flash::boundPositions(b, loc, bounds, swap, fixed, fixed, lo, hi);
  // Conjuncts on the fixed position alone (boundPositions leaves them): it
  // sees nothing where one fails.
  for (const flash::MaskConstraint &k : bounds.constraints) {
    int64_t cu = swap ? k.ci : k.cj, ct = swap ? k.cj : k.ci;
    if (cu || !ct)
      continue;
    Value v = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, kb.c(ct), fixed), k.rest);
    Value holds =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, v, kb.c(0));
    hi = arith::SelectOp::create(b, loc, holds, hi, lo);
  }
}

Value KernelModifiers::gradExponent(KernelBuilder &kb, unsigned r, Value x,
                                    Value row, Value key, Value lse2,
                                    Value &dMod, Value &vis) const {
  vis = visible(kb, r, vis, row, key);
  return gradExponent(kb, r, x, row, key, lse2, dMod);
}

std::pair<Value, double>
KernelModifiers::scoreAndLog2Factor(KernelBuilder &kb, unsigned r, Value x,
                                    Value row, Value key, Value &dMod) const {
  if (!s.scoreMod)
    return {x, s.scale * kLog2e};
  auto [y, d] = scoreAndDerivative(
      kb, r, arith::MulFOp::create(kb.b, kb.loc, x, kb.f(s.scale)), row, key);
  dMod = d;
  return {y, kLog2e};
}

Value KernelModifiers::gradExponent(KernelBuilder &kb, unsigned r, Value x,
                                    Value row, Value key, Value lse2,
                                    Value &dMod) const {
  auto [y, c] = scoreAndLog2Factor(kb, r, x, row, key, dMod);
  return fmac(kb.b, kb.loc, y, kb.f(c),
              arith::NegFOp::create(kb.b, kb.loc, lse2));
}

Value KernelModifiers::gradExponentMasked(KernelBuilder &kb, unsigned r,
                                          Value x, Value row, Value key,
                                          Value lse2, Value mask,
                                          Value maskBase, Value &dMod,
                                          Value &vis) const {
  vis = visible(kb, r, vis, row, key);
  auto [y, c] = scoreAndLog2Factor(kb, r, x, row, key, dMod);
  // (A multiply without `contract`: LLVM would fuse it into the add.)
  Value x2 = arith::MulFOp::create(kb.b, kb.loc, y, kb.f(c));
  x2 = addMask(kb, s, x2, mask, maskBase, row, key);
  return arith::SubFOp::create(kb.b, kb.loc, x2, lse2);
}

Value KernelModifiers::gradScore(KernelBuilder &kb, unsigned r, Value x,
                                 Value row, Value key, Value &dMod,
                                 Value &vis) const {
  vis = visible(kb, r, vis, row, key);
  if (!s.scoreMod)
    return x;
  auto [y, d] = scoreAndDerivative(kb, r, x, row, key);
  dMod = d;
  return y;
}

Value KernelModifiers::dScore(KernelBuilder &kb, Value p, Value d, Value dMod,
                              Value vis) {
  Value ds = arith::MulFOp::create(kb.b, kb.loc, p, d);
  if (dMod)
    ds = arith::MulFOp::create(kb.b, kb.loc, ds, dMod);
  if (!vis)
    return ds;
  return arith::SelectOp::create(kb.b, kb.loc, vis, ds, kb.f(0.0f));
}

MaskTiles KernelModifiers::tiles(KernelBuilder &kb, bool swap, Value tMin,
                                 Value tMax, Value hi, int64_t tile,
                                 bool inner) const {
  return maskModTiles(kb, bounds, swap, tMin, tMax, hi, tile, inner);
}
