//===- VectorizeBF16Dot.cpp - bf16 block products as AVX512-BF16 dots -----===//
//
// flash-vectorize-bf16-dot: the block products of a bf16 attention nest as
// `vdpbf16ps` register tiles (x86vector.avx512.dot), the bf16 twin of
// flash-vectorize-cpu's f32 FMA tiles (Passes.td has the whole contract).
//
// `vdpbf16ps acc, a, b` adds a[2l] b[2l] + a[2l+1] b[2l+1] to f32 lane l:
// the reduction dim goes by pairs, and each operand must hold its pairs as
// 32-bit words. For C[m, n] += A[m, k] B[k, n]:
//  - A's pair (A[m, 2p], A[m, 2p+1]) is a word of A's row m: one 32-bit
//    broadcast per row and pair. A read as [k, m] (the backward's p^T dO
//    and ds^T q) is packed first: rows 2p and 2p+1 interleaved into words,
//    16 x 16 word transposes;
//  - B's lanes are the columns n, each with the pair (B[2p, n], B[2p+1, n]),
//    "VNNI" order [k/2, n, 2]. With B = X^T (the scores' k^T, X = [n, k])
//    the pairs are words of X's rows: a 32-bit transpose of X (16 x 16
//    vector.transpose tiles, before the product, once per block). With B in
//    rows (v), rows 2p and 2p+1 are interleaved as they are loaded.
// The accumulators (8 rows x two vectors) are loop-carried values of the
// pair loop: they stay in registers without flash-hoist-vector-transfers.
// Columns past the last whole vector get a masked tile (k^T is packed with
// zero columns up to a multiple of 16).
//
//===----------------------------------------------------------------------===//

#include "flash/Dialect/Flash/Transforms/CPUTarget.h"
#include "flash/Dialect/Flash/Transforms/Passes.h"
#include "flash/Dialect/Flash/Transforms/Transforms.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHVECTORIZEBF16DOT
#include "flash/Dialect/Flash/Transforms/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;

namespace {
/// 32-bit words per transpose tile of the packing (16 x 16: one zmm a row).
constexpr int64_t kPackTile = 16;

/// A product the dot tiles compute: C[m, n] += A[m, k] * B[k, n].
struct BF16Product {
  Value a; // [M, K], or [K, M] when aTransposed; bf16 or f32
  bool aTransposed = false;
  Value b;  // [K, N] bf16 rows; null when bT is set
  Value bT; // [N, K] bf16, B = bT^T
  Value c;  // [M, N] f32
  int64_t m, n, k;
};

bool isStatic2D(Value v, Type elt) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getRank() == 2 && t.hasStaticShape() &&
         (!elt || t.getElementType() == elt);
}

FailureOr<BF16Product> matchProduct(RewriterBase &rewriter,
                                    linalg::LinalgOp op) {
  MLIRContext *ctx = op.getContext();
  Type bf16 = BFloat16Type::get(ctx), f32 = Float32Type::get(ctx);
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumDpsInputs() != 2 || generic.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(op))
    return rewriter.notifyMatchFailure(op, "not a 2-input contraction");
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  auto map = [&](ArrayRef<AffineExpr> e) {
    return AffineMap::get(3, 0, e, ctx);
  };
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  bool aTransposed = maps[0] == map({k, m});
  if (!(maps[0] == map({m, k}) || aTransposed) || maps[1] != map({k, n}) ||
      maps[2] != map({m, n}))
    return rewriter.notifyMatchFailure(
        op, "not C[m,n] += A[m,k] B[k,n] (or A read as [k, m])");
  // The body: out + a * b in f32, a and b the operands or their extf (the
  // contraction interface would also let other unary ops through).
  Block &body = generic.getRegion().front();
  auto operand = [&](Value v, unsigned i) {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      v = ext.getIn();
    return v == body.getArgument(i);
  };
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  auto mul = add ? add.getRhs().getDefiningOp<arith::MulFOp>() : nullptr;
  if (!add || !add.getType().isF32() || add.getLhs() != body.getArgument(2) ||
      !mul || !operand(mul.getLhs(), 0) || !operand(mul.getRhs(), 1))
    return rewriter.notifyMatchFailure(op, "body is not out + a * b in f32");
  BF16Product p;
  p.a = generic.getDpsInputs()[0];
  p.aTransposed = aTransposed;
  p.b = generic.getDpsInputs()[1];
  p.c = generic.getDpsInits()[0];
  if (!isStatic2D(p.a, {}) || !isStatic2D(p.b, bf16) || !isStatic2D(p.c, f32))
    return rewriter.notifyMatchFailure(op, "not static bf16 B, f32 C");
  Type aElt = getElementTypeOrSelf(p.a.getType());
  if (aElt != bf16 && aElt != f32)
    return rewriter.notifyMatchFailure(op, "A neither bf16 nor f32");
  ArrayRef<int64_t> cShape = cast<RankedTensorType>(p.c.getType()).getShape();
  p.m = cShape[0];
  p.n = cShape[1];
  p.k = cast<RankedTensorType>(p.a.getType()).getShape()[aTransposed ? 0 : 1];
  if (p.k % 2 != 0)
    return rewriter.notifyMatchFailure(op,
                                       "k odd: its last element has no pair");
  if (aTransposed && (p.m % kPackTile != 0 || (p.k / 2) % kPackTile != 0))
    return rewriter.notifyMatchFailure(
        op, "A read as [k, m]: m or k / 2 not a multiple of 16");
  if (auto tr = p.b.getDefiningOp<linalg::TransposeOp>()) {
    Value x = tr.getInput();
    if (tr.getPermutation() == ArrayRef<int64_t>{1, 0} && isStatic2D(x, bf16) &&
        (p.k / 2) % kPackTile == 0) {
      p.bT = x;
      p.b = Value();
    }
  }
  return p;
}

/// Index constants and sums that fold.
struct Idx {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, int64_t y) {
    return y == 0 ? x : arith::AddIOp::create(b, loc, x, c(y)).getResult();
  }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : arith::MulIOp::create(b, loc, x, c(y)).getResult();
  }
};

/// A transfer_read of `ty` at `idx`, zero-padded: in bounds except in its
/// first dim unless `firstIn` (rows past the end: the packing's last tile)
/// and in its last dim unless `lastIn` (columns past the end: the last
/// vector of a row), which become masked loads.
Value read(OpBuilder &b, Location loc, VectorType ty, Value src, ValueRange idx,
           bool firstIn = true, bool lastIn = true) {
  Value pad =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(ty.getElementType()));
  SmallVector<bool> in(ty.getRank(), true);
  in.front() = in.front() && firstIn;
  in.back() = in.back() && lastIn;
  return vector::TransferReadOp::create(b, loc, ty, src, idx, pad, in);
}

Value write(OpBuilder &b, Location loc, Value vec, Value dest, ValueRange idx,
            bool inBounds = true) {
  int64_t rank = cast<VectorType>(vec.getType()).getRank();
  return vector::TransferWriteOp::create(b, loc, vec, dest, idx,
                                         SmallVector<bool>(rank, inBounds))
      .getResult();
}

/// An scf.for over [0, ub) by `step` carrying `init`, the builder's
/// insertion point in its body until endLoop().
scf::ForOp beginLoop(OpBuilder &b, Location loc, int64_t ub, int64_t step,
                     ValueRange init) {
  Idx im{b, loc};
  // An empty body builder: no terminator yet (endLoop() adds the yield).
  auto loop =
      scf::ForOp::create(b, loc, im.c(0), im.c(ub), im.c(step), init,
                         [](OpBuilder &, Location, Value, ValueRange) {});
  b.setInsertionPointToEnd(loop.getBody());
  return loop;
}

/// Yields `values` from `loop` and continues after it; returns its results.
ValueRange endLoop(OpBuilder &b, Location loc, scf::ForOp loop,
                   ValueRange values) {
  scf::YieldOp::create(b, loc, values);
  b.setInsertionPointAfter(loop);
  return loop.getResults();
}

/// B [K, N] in pair order from X = B^T [N, K], as [K/2, 2N'] (pair p of
/// column n at [p, 2n], so that 16 columns are one contiguous vector; N'
/// is N rounded up to 16, the columns past N zero): X's rows hold the pairs
/// as words, so this is a transpose of 32-bit words, in 16 x 16 tiles.
Value packTransposed(OpBuilder &b, Location loc, Value x, int64_t n,
                     int64_t k) {
  int64_t nPad = llvm::alignTo(n, kPackTile);
  MLIRContext *ctx = b.getContext();
  Type bf16 = BFloat16Type::get(ctx), i32 = IntegerType::get(ctx, 32);
  auto rows = VectorType::get({kPackTile, 2 * kPackTile}, bf16);
  auto words = VectorType::get({kPackTile, kPackTile}, i32);
  Value init = tensor::EmptyOp::create(b, loc, {k / 2, 2 * nPad}, bf16);
  scf::ForOp cols = beginLoop(b, loc, nPad, kPackTile, init);
  Value n0 = cols.getInductionVar();
  scf::ForOp pairs =
      beginLoop(b, loc, k / 2, kPackTile, cols.getRegionIterArgs());
  Value p0 = pairs.getInductionVar();
  Idx im{b, loc};
  Value tile =
      read(b, loc, rows, x, {n0, im.mul(p0, 2)}, /*firstIn=*/n == nPad);
  Value w = vector::BitCastOp::create(b, loc, words, tile);
  w = vector::TransposeOp::create(b, loc, w, {1, 0});
  Value out = vector::BitCastOp::create(b, loc, rows, w);
  Value packed =
      write(b, loc, out, pairs.getRegionIterArgs()[0], {p0, im.mul(n0, 2)});
  endLoop(b, loc, pairs, packed);
  return endLoop(b, loc, cols, pairs.getResults())[0];
}

/// A [M, K] in pair order from At = A^T [K, M] (bf16): the word of row m
/// and pair p is (At[2p, m], At[2p+1, m]), so rows 2p and 2p + 1 of At are
/// interleaved (16 words: columns m0..m0+15) and 16 such word vectors, one
/// per pair, are transposed so that each row m gets its 16 pairs.
Value packRowsTransposed(OpBuilder &b, Location loc, Value at, int64_t m,
                         int64_t k) {
  MLIRContext *ctx = b.getContext();
  Type bf16 = BFloat16Type::get(ctx), i32 = IntegerType::get(ctx, 32);
  auto half = VectorType::get({kPackTile}, bf16);
  auto word = VectorType::get({kPackTile}, i32);
  auto words = VectorType::get({kPackTile, kPackTile}, i32);
  auto rows = VectorType::get({kPackTile, 2 * kPackTile}, bf16);
  Value init = tensor::EmptyOp::create(b, loc, {m, k}, bf16);
  scf::ForOp cols = beginLoop(b, loc, m, kPackTile, init);
  Value m0 = cols.getInductionVar();
  scf::ForOp pairs =
      beginLoop(b, loc, k / 2, kPackTile, cols.getRegionIterArgs());
  Value p0 = pairs.getInductionVar();
  Idx im{b, loc};
  Value w = arith::ConstantOp::create(b, loc, b.getZeroAttr(words));
  for (int64_t i = 0; i < kPackTile; ++i) {
    Value k0 = im.add(im.mul(p0, 2), 2 * i);
    Value even = read(b, loc, half, at, {k0, m0});
    Value odd = read(b, loc, half, at, {im.add(k0, 1), m0});
    Value pair = vector::BitCastOp::create(
        b, loc, word, vector::InterleaveOp::create(b, loc, even, odd));
    w = vector::InsertOp::create(b, loc, pair, w, i);
  }
  w = vector::TransposeOp::create(b, loc, w, {1, 0});
  Value out = vector::BitCastOp::create(b, loc, rows, w);
  Value packed =
      write(b, loc, out, pairs.getRegionIterArgs()[0], {m0, im.mul(p0, 2)});
  endLoop(b, loc, pairs, packed);
  return endLoop(b, loc, cols, pairs.getResults())[0];
}

/// One register tile of `p` at rows [m0, m0 + rows) and columns
/// [n0, n0 + perRow * 16) of C (`c`, returned updated): A bf16; B packed
/// as [K/2, 2N'] (`bPacked`) or in rows (p.b). The accumulators are read
/// once, carried through the loop over K's pairs and written once; with
/// `masked`, the columns may run past N (masked loads and stores of C and
/// of B's rows; a packed B is zero there).
Value dotTile(OpBuilder &b, Location loc, const BF16Product &p, Value a,
              Value bPacked, Value c, Value m0, Value n0, int64_t rows,
              int64_t perRow, bool masked) {
  MLIRContext *ctx = b.getContext();
  Type bf16 = BFloat16Type::get(ctx), f32 = Float32Type::get(ctx);
  Type i32 = IntegerType::get(ctx, 32);
  const int64_t lanes = kPackTile;
  auto accTy = VectorType::get({lanes}, f32);
  auto halfTy = VectorType::get({lanes}, bf16);
  auto opTy = VectorType::get({2 * lanes}, bf16);
  auto pairTy = VectorType::get({2}, bf16);
  auto wordTy = VectorType::get({1}, i32);
  auto wordsTy = VectorType::get({lanes}, i32);
  Idx im{b, loc};
  auto at = [&](int64_t r, int64_t h) -> SmallVector<Value> {
    return {im.add(m0, r), im.add(n0, h * lanes)};
  };
  SmallVector<Value> accs;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t h = 0; h < perRow; ++h)
      accs.push_back(read(b, loc, accTy, c, at(r, h), true, !masked));

  scf::ForOp kLoop = beginLoop(b, loc, p.k / 2, 1, accs);
  Value pi = kLoop.getInductionVar();
  Value k0 = im.mul(pi, 2);
  SmallVector<Value> bv;
  for (int64_t h = 0; h < perRow; ++h) {
    Value col = im.add(n0, h * lanes);
    if (bPacked) {
      bv.push_back(read(b, loc, opTy, bPacked, {pi, im.mul(col, 2)}));
      continue;
    }
    Value even = read(b, loc, halfTy, p.b, {k0, col}, true, !masked);
    Value odd = read(b, loc, halfTy, p.b, {im.add(k0, 1), col}, true, !masked);
    bv.push_back(vector::InterleaveOp::create(b, loc, even, odd));
  }
  SmallVector<Value> next;
  for (int64_t r = 0; r < rows; ++r) {
    // A's pair as one 32-bit word, broadcast to every lane.
    Value pair = read(b, loc, pairTy, a, {im.add(m0, r), k0});
    Value word = vector::BitCastOp::create(b, loc, wordTy, pair);
    Value all = vector::BroadcastOp::create(b, loc, wordsTy, word);
    Value av = vector::BitCastOp::create(b, loc, opTy, all);
    for (int64_t h = 0; h < perRow; ++h)
      next.push_back(x86vector::DotBF16Op::create(
          b, loc, accTy, kLoop.getRegionIterArgs()[r * perRow + h], av, bv[h]));
  }
  ValueRange sums = endLoop(b, loc, kLoop, next);

  for (int64_t r = 0; r < rows; ++r)
    for (int64_t h = 0; h < perRow; ++h)
      c = write(b, loc, sums[r * perRow + h], c, at(r, h), !masked);
  return c;
}

/// The register tiles of `p` over all of C: `reg.rows` rows (fewer where
/// they do not divide M) by two vectors (one where two do not divide N),
/// then, for the columns past the last whole vector (a remainder block's
/// keys, a head dim like 72), one masked one-vector tile per row block.
Value dotTiles(OpBuilder &b, Location loc, const BF16Product &p, Value a,
               Value bPacked, const flash::RegisterTile &reg) {
  const int64_t lanes = kPackTile;
  int64_t perRow =
      p.n % (reg.vectorsPerRow * lanes) == 0 ? reg.vectorsPerRow : 1;
  int64_t rows = reg.rows;
  while (p.m % rows != 0)
    rows /= 2;
  int64_t nFull = p.n / lanes * lanes;

  scf::ForOp mLoop = beginLoop(b, loc, p.m, rows, p.c);
  Value m0 = mLoop.getInductionVar();
  Value c = mLoop.getRegionIterArgs()[0];
  if (nFull > 0) {
    scf::ForOp nLoop = beginLoop(b, loc, nFull, perRow * lanes, c);
    Value tile = dotTile(b, loc, p, a, bPacked, nLoop.getRegionIterArgs()[0],
                         m0, nLoop.getInductionVar(), rows, perRow, false);
    c = endLoop(b, loc, nLoop, tile)[0];
  }
  if (nFull < p.n)
    c = dotTile(b, loc, p, a, bPacked, c, m0, Idx{b, loc}.c(nFull), rows, 1,
                /*masked=*/true);
  return endLoop(b, loc, mLoop, c)[0];
}
} // namespace

FailureOr<Value> flash::vectorizeBF16Dot(RewriterBase &rewriter,
                                         linalg::LinalgOp op) {
  FailureOr<BF16Product> p = matchProduct(rewriter, op);
  if (failed(p))
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  // An f32 A (p of p v) is rounded to bf16 once, by an elementwise op that
  // flash-vectorize-cpu vectorizes.
  Value a =
      convertElements(rewriter, loc, p->a, BFloat16Type::get(op.getContext()));
  if (p->aTransposed)
    a = packRowsTransposed(rewriter, loc, a, p->m, p->k);
  Value packed;
  if (p->bT)
    packed = packTransposed(rewriter, loc, p->bT, p->n, p->k);
  Value result = dotTiles(rewriter, loc, *p, a, packed, registerTile(512));
  Operation *transpose = p->bT ? op.getDpsInputs()[1].getDefiningOp() : nullptr;
  rewriter.replaceOp(op, result);
  if (transpose && transpose->use_empty())
    rewriter.eraseOp(transpose);
  return result;
}

namespace {
struct FlashVectorizeBF16DotPass
    : flash::impl::FlashVectorizeBF16DotBase<FlashVectorizeBF16DotPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops)
      (void)flash::vectorizeBF16Dot(rewriter, op);
    // The packing's 16 x 16 word transposes as AVX-512 shuffles (upstream's
    // lowering for exactly this shape; the pipeline's default for other
    // transposes flattens them into one 256-element shuffle).
    SmallVector<Operation *> transposes;
    getOperation().walk([&](vector::TransposeOp t) {
      if (t.getSourceVectorType() ==
          VectorType::get({kPackTile, kPackTile},
                          IntegerType::get(&getContext(), 32)))
        transposes.push_back(t);
    });
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransposeLoweringPatterns(
        patterns, vector::VectorTransposeLowering::Shuffle16x16);
    if (failed(applyOpPatternsGreedily(transposes, std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
