//===- VectorizeCPU.cpp - Register tiling + vectorization for the CPU -----===//
//
// Upstream has the mechanisms (TilingInterface tiling, linalg::vectorize,
// transfer hoisting) but no pass that picks register-tile sizes for a CPU;
// this pass is that policy, nothing more:
//
//  - contractions (the two products of an attention block): a register
//    tile sized for the target's vectors (`vector-bits`, the host's by
//    default; CPUTarget.h): AVX-512, 8 rows x 32 columns (two registers
//    per row); AVX/AVX2, 4 x 16; 128-bit vectors, 4 x 8; one vector per
//    row where two do not divide the dim; the reduction dim tiled by 1, so
//    that vector.contract lowers to broadcast-FMA outer products on
//    accumulators that stay in registers;
//  - elementwise ops: 1 x (two vectors) tiles of the innermost dim, with
//    several outputs too (the online softmax's per-row max, sum and
//    correction factor: scalar loops with a scalar exp per row otherwise);
//  - row reductions: one row per tile, the reduced dim whole when short,
//    as one vector.reduction (RowReductionToReduction).
//
// Ops with dynamic shapes or sizes that do not tile evenly are left alone
// for convert-linalg-to-loops.
//
//===----------------------------------------------------------------------===//

#include "flash/Dialect/Flash/Transforms/CPUTarget.h"
#include "flash/Dialect/Flash/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHVECTORIZECPU
#include "flash/Dialect/Flash/Transforms/Passes.h.inc"
#define GEN_PASS_DEF_FLASHHOISTVECTORTRANSFERS
#include "flash/Dialect/Flash/Transforms/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;

namespace {
/// Tile sizes for `op` (0 = whole dim), or failure when the op should be
/// left to scalar loops.
FailureOr<SmallVector<int64_t>> chooseTileSizes(linalg::LinalgOp op,
                                                flash::RegisterTile reg) {
  int64_t width = reg.lanes * reg.vectorsPerRow;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // (An empty loop, a zero-size dim, has nothing to vectorize; upstream's
  // tiling divides by its extent.)
  if (llvm::any_of(ranges, ShapedType::isDynamic) ||
      llvm::is_contained(ranges, 0) || op.getNumDpsInits() == 0 ||
      !op.hasOnlyProjectedPermutations())
    return failure();
  // Several outputs (the online softmax's per-row m, l and correction
  // factor): elementwise only, all written alike.
  if (op.getNumDpsInits() > 1 &&
      (llvm::any_of(op.getIteratorTypesArray(), linalg::isReductionIterator) ||
       llvm::any_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
         return op.getMatchingIndexingMap(&init) !=
                op.getMatchingIndexingMap(op.getDpsInitOperand(0));
       })))
    return failure();
  // memref<...xi1> stores a byte per element but vector<Nxi1> loads are
  // bit-packed by LLVM: leave i1 operands to scalar code.
  if (llvm::any_of(op->getOperandTypes(), [](Type t) {
        return getElementTypeOrSelf(t).isInteger(1);
      }))
    return failure();
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  // A lane dim must tile evenly, else we leave the op alone.
  // (Two vectors' worth where it divides, else one: d = 80 tiles by 16 with
  // AVX-512; else part of one, down to 4 lanes: d = 72 tiles by 8, a
  // remainder key block of 40 by 8 -- scalar loops ran d = 72 at 3 % of
  // d = 64's speed, behind numpy.)
  auto laneTile = [&](int64_t range) -> std::optional<int64_t> {
    if (range <= width)
      return 0;
    for (int64_t w = width; w >= std::min<int64_t>(reg.lanes, 4); w /= 2)
      if (range % w == 0)
        return w;
    return std::nullopt;
  };
  SmallVector<int64_t> tiles(ranges.size(), 1);
  if (outMap.getNumResults() == 0)
    return failure();
  auto lastOut = dyn_cast<AffineDimExpr>(outMap.getResults().back());
  if (!lastOut)
    return failure();
  unsigned laneDim = lastOut.getPosition();

  if (linalg::isaContractionOpInterface(op)) {
    std::optional<int64_t> lt = laneTile(ranges[laneDim]);
    if (!lt)
      return failure();
    tiles[laneDim] = *lt;
    if (outMap.getNumResults() >= 2) {
      if (auto rowExpr = dyn_cast<AffineDimExpr>(
              outMap.getResult(outMap.getNumResults() - 2))) {
        // The most accumulator rows that divide the rows (a remainder
        // query block of 60 rows: 4).
        int64_t r = ranges[rowExpr.getPosition()], rt = reg.rows;
        while (rt > 1 && r % rt != 0)
          rt /= 2;
        tiles[rowExpr.getPosition()] = rt;
      }
    }
    return tiles; // reduction dims stay at 1
  }

  bool hasReduction = llvm::any_of(iters, linalg::isReductionIterator);
  if (!hasReduction) {
    // Elementwise: vectorize the innermost dim of the output.
    std::optional<int64_t> lt = laneTile(ranges[laneDim]);
    if (!lt)
      return failure();
    tiles[laneDim] = *lt;
    return tiles;
  }
  // Reductions: one output element per tile along parallel dims, the reduced
  // dims whole when short, else in lane-wide chunks.
  for (auto [i, it] : llvm::enumerate(iters)) {
    if (linalg::isReductionIterator(it)) {
      if (ranges[i] <= 4 * width)
        tiles[i] = 0;
      else if (ranges[i] % width == 0)
        tiles[i] = width;
      else
        return failure();
    }
  }
  return tiles;
}

/// Whether `op` reads i1 elements by tensor.extract: linalg::vectorize
/// makes those contiguous reads vector<Nxi1> transfers, which lower to
/// loads of bit-packed i1 vectors, while memref<...xi1> holds a byte per
/// element (a captured boolean tensor read by a score_mod read wrong
/// values). Such ops stay scalar.
bool extractsI1(Operation *op) {
  return op
      ->walk([](tensor::ExtractOp e) {
        return e.getType().isInteger(1) ? WalkResult::interrupt()
                                        : WalkResult::advance();
      })
      .wasInterrupted();
}

LogicalResult vectorizeOne(RewriterBase &rewriter, Operation *op) {
  if (extractsI1(op) || failed(linalg::vectorizeOpPrecondition(op)))
    return failure();
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::VectorizationResult> res = linalg::vectorize(rewriter, op);
  if (failed(res))
    return failure();
  rewriter.replaceOp(op, res->replacements);
  return success();
}

/// math.absi on an n-D vector (a score_mod's |i - j| vectorized) as
/// maxsi(x, 0 - x): upstream's math-to-llvm lowers it only on scalars and
/// 1-D vectors (and wraps INT_MIN alike).
struct AbsIOnVectors : OpRewritePattern<math::AbsIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::AbsIOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(op.getType());
    if (!type || type.getRank() < 2)
      return failure();
    Location loc = op.getLoc();
    Value zero = arith::ConstantOp::create(rewriter, loc, type,
                                           rewriter.getZeroAttr(type));
    Value neg = arith::SubIOp::create(rewriter, loc, zero, op.getOperand());
    rewriter.replaceOpWithNewOp<arith::MaxSIOp>(op, op.getOperand(), neg);
    return success();
  }
};

/// A row reduction (every dim but the reduced innermost one of size 1: one
/// output element) as one vector.reduction of the row. LLVM lowers that to
/// a log-depth tree of whole-vector ops (for add: reassociated, the
/// pipeline's reassociate-fp-reductions); upstream's inner-parallel
/// multi-reduction lowering, right for the contractions' reductions, would
/// make it a chain of scalar ops, one per element (64 dependent maxnums per
/// row of scores: a quarter of the forward's time on one core).
struct RowReductionToReduction
    : OpRewritePattern<vector::MultiDimReductionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::MultiDimReductionOp op,
                                PatternRewriter &rewriter) const override {
    VectorType src = op.getSourceVectorType();
    int64_t rank = src.getRank();
    if (src.isScalable() || op.getReductionDims() != ArrayRef<int64_t>{rank - 1} ||
        llvm::any_of(src.getShape().drop_back(),
                     [](int64_t n) { return n != 1; }))
      return failure();
    Location loc = op.getLoc();
    Value row = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get({src.getShape().back()},
                                       src.getElementType()),
        op.getSource());
    Value acc = op.getAcc();
    if (auto accVec = dyn_cast<VectorType>(acc.getType()))
      acc = vector::ExtractOp::create(
          rewriter, loc, acc, SmallVector<int64_t>(accVec.getRank(), 0));
    // A max/min row reduction without NaN checks (nnan: vmaxps trees, not
    // compare-and-blend per step; ~10 % of a forward on one core). Scores
    // are NaN only for NaN inputs, and such a row's exp and products are
    // NaN whatever its max (LLVM's semantics leave the max itself
    // unspecified then).
    // The accumulator joins after the tree, without nnan: maxnumf's
    // identity is NaN (upstream's linalg.softmax decomposition starts its
    // max there), which nnan would make poison (a one-key row was NaN).
    Value r;
    if (op.getKind() == vector::CombiningKind::MAXNUMF ||
        op.getKind() == vector::CombiningKind::MINNUMF) {
      r = vector::ReductionOp::create(rewriter, loc, op.getKind(), row,
                                      Value(), arith::FastMathFlags::nnan);
      r = op.getKind() == vector::CombiningKind::MAXNUMF
              ? arith::MaxNumFOp::create(rewriter, loc, r, acc).getResult()
              : arith::MinNumFOp::create(rewriter, loc, r, acc).getResult();
    } else {
      r = vector::ReductionOp::create(rewriter, loc, op.getKind(), row, acc);
    }
    if (isa<VectorType>(op.getType()))
      r = vector::BroadcastOp::create(rewriter, loc, op.getType(), r);
    rewriter.replaceOp(op, r);
    return success();
  }
};

struct FlashVectorizeCPUPass
    : flash::impl::FlashVectorizeCPUBase<FlashVectorizeCPUPass> {
  using FlashVectorizeCPUBase::FlashVectorizeCPUBase;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && !isa<linalg::FillOp>(op))
        ops.push_back(op);
    });
    if (vectorBits < 0 || (vectorBits && (vectorBits < 64 ||
                                          !llvm::isPowerOf2_64(vectorBits)))) {
      getOperation().emitError()
          << "flash-vectorize-cpu: vector-bits=" << std::to_string(vectorBits)
          << " is not 0 (the host's) or a power of two >= 64";
      return signalPassFailure();
    }
    flash::RegisterTile reg =
        flash::registerTile(vectorBits ? vectorBits : flash::hostVectorBits());
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      FailureOr<SmallVector<int64_t>> tiles = chooseTileSizes(op, reg);
      if (failed(tiles))
        continue;
      if (llvm::all_of(*tiles, [](int64_t t) { return t == 0; })) {
        (void)vectorizeOne(rewriter, op);
        continue;
      }
      scf::SCFTilingOptions options;
      SmallVector<OpFoldResult> sizes;
      for (int64_t t : *tiles)
        sizes.push_back(rewriter.getIndexAttr(t));
      options.setTileSizes(sizes);
      // Reduction loops innermost: the accumulator tile is then invariant in
      // them and flash-hoist-vector-transfers keeps it in registers.
      SmallVector<int64_t> interchange;
      for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
        if (!linalg::isReductionIterator(it))
          interchange.push_back(i);
      for (auto [i, it] : llvm::enumerate(op.getIteratorTypesArray()))
        if (linalg::isReductionIterator(it))
          interchange.push_back(i);
      options.setInterchange(interchange);
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled))
        continue;
      rewriter.replaceOp(op, tiled->replacements);
      for (Operation *t : tiled->tiledOps)
        (void)vectorizeOne(rewriter, t);
    }
    // exp on vectors: upstream's polynomial approximation (vectorized, ~1
    // ulp in f32) instead of one libm call per lane.
    RewritePatternSet approx(&getContext());
    approx.add<RowReductionToReduction, AbsIOnVectors>(&getContext());
    populateMathPolynomialApproximationPatterns(
        approx, [](StringRef name) {
          return name == "exp" || name == "math.exp";
        });
    if (failed(applyPatternsGreedily(getOperation(), std::move(approx))))
      return signalPassFailure();

  }
};

/// The allocation (or function argument) a memref is a view of.
Value rootBuffer(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// Two buffers may alias unless they are different allocations, or an
/// allocation and something else (a function argument cannot alias a buffer
/// allocated inside the function).
bool mayAlias(Value a, Value b) {
  if (a == b)
    return true;
  bool aAlloc = isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
      a.getDefiningOp());
  bool bAlloc = isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(
      b.getDefiningOp());
  return !(aAlloc || bAlloc);
}

/// Hoists one read/write pair of a loop-invariant accumulator tile out of
/// `loop`, carrying the vector through iter_args. Returns true on success.
///
/// Upstream's hoistRedundantVectorTransfers refuses transfers on views
/// (subviews) of a buffer, which is exactly what register tiles of a
/// bufferized block are; this relaxes that rule to "no other access in the
/// loop may reach the same allocation".
bool hoistAccumulator(RewriterBase &rewriter, scf::ForOp loop) {
  for (auto read : loop.getBody()->getOps<vector::TransferReadOp>()) {
    Value mem = read.getBase();
    if (!isa<MemRefType>(mem.getType()) || !loop.isDefinedOutsideOfLoop(mem) ||
        read.getMask() ||
        !llvm::all_of(read.getIndices(), [&](Value i) {
          return loop.isDefinedOutsideOfLoop(i);
        }) ||
        !loop.isDefinedOutsideOfLoop(read.getPadding()))
      continue;
    // The matching write: same buffer, indices, type; last in the body.
    vector::TransferWriteOp write;
    for (auto w : loop.getBody()->getOps<vector::TransferWriteOp>())
      if (w.getBase() == mem && w.getIndices() == read.getIndices() &&
          w.getVectorType() == read.getVectorType() && !w.getMask() &&
          w.getPermutationMap() == read.getPermutationMap())
        write = w;
    if (!write || !read->isBeforeInBlock(write))
      continue;
    Value root = rootBuffer(mem);
    bool conflict = false;
    loop.getBody()->walk([&](Operation *op) {
      if (op == read || op == write || isMemoryEffectFree(op))
        return;
      for (Value operand : op->getOperands())
        if (isa<MemRefType>(operand.getType()) &&
            mayAlias(rootBuffer(operand), root))
          conflict = true;
    });
    if (conflict)
      continue;
    // Only the read and write may use `mem` in the loop.
    rewriter.moveOpBefore(read, loop);
    Value vec = read.getResult();
    auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
        rewriter, ValueRange{vec}, /*replaceInitOperandUsesInLoop=*/true,
        [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
          return SmallVector<Value>{write.getVector()};
        }));
    rewriter.moveOpAfter(write, newLoop);
    rewriter.modifyOpInPlace(write, [&] {
      write.getValueToStoreMutable().assign(newLoop.getResults().back());
    });
    return true;
  }
  return false;
}

struct FlashHoistVectorTransfersPass
    : flash::impl::FlashHoistVectorTransfersBase<
          FlashHoistVectorTransfersPass> {
  void runOnOperation() override {
    linalg::hoistRedundantVectorTransfers(getOperation(),
                                          /*verifyNonZeroTrip=*/true);
    IRRewriter rewriter(&getContext());
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<scf::ForOp> loops;
      getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops) {
        // Only loops that run at least once: hoisting executes the pair.
        std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
        std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
        if (!lb || !ub || *lb >= *ub)
          continue;
        if (hoistAccumulator(rewriter, loop)) {
          changed = true;
          break;
        }
      }
    }

    // The vectorizer turns a contraction's `acc + a * b` into a reduction
    // (canonicalized to an add by now) and drops the add's fastmath flags; restore `contract` on adds of
    // contractable products so that LLVM can form FMAs.
    getOperation().walk([](arith::AddFOp add) {
      for (Value operand : add->getOperands()) {
        while (auto cast = operand.getDefiningOp<vector::ShapeCastOp>())
          operand = cast.getSource();
        auto mul = operand.getDefiningOp<arith::MulFOp>();
        if (mul && bitEnumContainsAll(mul.getFastmath(),
                                      arith::FastMathFlags::contract))
          add.setFastmath(add.getFastmath() | arith::FastMathFlags::contract);
      }
    });
  }
};
} // namespace
