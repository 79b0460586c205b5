//===- VectorizeCPU.cpp - Register tiling + vectorization for the CPU -----===//
//
// Upstream has the mechanisms (TilingInterface tiling, linalg::vectorize,
// transfer hoisting) but no pass that picks register-tile sizes for a CPU;
// this pass is that policy, nothing more:
//
//  - contractions (the two products of an attention block): 8 rows x
//    `vector-width` columns per tile, reduction dim tiled by 1, so that
//    vector.contract lowers to broadcast-FMA outer products on a tile of
//    accumulators that stays in registers;
//  - elementwise ops: 1 x `vector-width` tiles of the innermost dim;
//  - row reductions: one row per tile, the reduced dim whole when short.
//
// Ops with dynamic shapes or sizes that do not tile evenly are left alone
// for convert-linalg-to-loops.
//
//===----------------------------------------------------------------------===//

#include "flash/Dialect/Flash/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"

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
constexpr int64_t kRowsPerContractionTile = 8;

/// Tile sizes for `op` (0 = whole dim), or failure when the op should be
/// left to scalar loops.
FailureOr<SmallVector<int64_t>> chooseTileSizes(linalg::LinalgOp op,
                                                int64_t width) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic) ||
      op.getNumDpsInits() != 1 || !op.hasOnlyProjectedPermutations())
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
  auto laneTile = [&](int64_t range) -> std::optional<int64_t> {
    if (range <= width)
      return 0;
    if (range % width == 0)
      return width;
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
        int64_t r = ranges[rowExpr.getPosition()];
        tiles[rowExpr.getPosition()] =
            r % kRowsPerContractionTile == 0 ? kRowsPerContractionTile : 1;
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

LogicalResult vectorizeOne(RewriterBase &rewriter, Operation *op) {
  if (failed(linalg::vectorizeOpPrecondition(op)))
    return failure();
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::VectorizationResult> res = linalg::vectorize(rewriter, op);
  if (failed(res))
    return failure();
  rewriter.replaceOp(op, res->replacements);
  return success();
}

struct FlashVectorizeCPUPass
    : flash::impl::FlashVectorizeCPUBase<FlashVectorizeCPUPass> {
  using FlashVectorizeCPUBase::FlashVectorizeCPUBase;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && !isa<linalg::FillOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      FailureOr<SmallVector<int64_t>> tiles =
          chooseTileSizes(op, vectorWidth);
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
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled))
        continue;
      rewriter.replaceOp(op, tiled->replacements);
      for (Operation *t : tiled->tiledOps)
        (void)vectorizeOne(rewriter, t);
    }
  }
};

struct FlashHoistVectorTransfersPass
    : flash::impl::FlashHoistVectorTransfersBase<
          FlashHoistVectorTransfersPass> {
  void runOnOperation() override {
    linalg::hoistRedundantVectorTransfers(getOperation(),
                                          /*verifyNonZeroTrip=*/true);
  }
};
} // namespace
