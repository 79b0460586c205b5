//===- DecomposeAggregates.cpp - Decompose linalg.softmax & co. -----------===//
//
// Upstream implements AggregatedOpInterface on linalg.softmax but ships no
// pass that applies it (only a transform op), so pipelines that must accept
// whatever a frontend emitted need this small one.
//
//===----------------------------------------------------------------------===//

#include "flash/Dialect/Flash/Transforms/Passes.h"
#include "flash/Dialect/Flash/Transforms/Transforms.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHDECOMPOSEAGGREGATES
#include "flash/Dialect/Flash/Transforms/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;

namespace {
struct DecomposeAggregatedOp
    : OpInterfaceRewritePattern<linalg::AggregatedOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::AggregatedOpInterface op,
                                PatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Value>> repl = op.decomposeOperation(rewriter);
    if (failed(repl))
      return rewriter.notifyMatchFailure(op, "decomposition failed");
    rewriter.replaceOp(op, *repl);
    return success();
  }
};

struct FlashDecomposeAggregatesPass
    : flash::impl::FlashDecomposeAggregatesBase<FlashDecomposeAggregatesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    flash::populateDecomposeAggregatesPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

void mlir::flash::populateDecomposeAggregatesPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeAggregatedOp>(patterns.getContext());
}
