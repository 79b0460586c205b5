//===- InlineAllocaScopes.cpp - alloca scopes without stack allocations ---===//
//
// flash-inline-alloca-scopes: inlines each memref.alloca_scope whose body
// allocates nothing on the stack into its parent. convert-scf-to-openmp
// wraps every parallel loop body in a scope; upstream's canonicalization
// inlines one only when nothing in it may allocate, and counts a call (the
// dealloc_helper that bufferization-lower-deallocations emits) as a
// possible allocation, although a callee's allocas live in its own frame.
// A scope left around such a body turns invalid (a multi-block region) as
// soon as convert-scf-to-cf lowers the scf.if inside it. Upstream has no
// pass for this; see Passes.td.
//
//===----------------------------------------------------------------------===//

#include "flash/Dialect/Flash/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHINLINEALLOCASCOPES
#include "flash/Dialect/Flash/Transforms/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;

namespace {

/// Whether `op` may allocate in the enclosing automatic allocation scope: it
/// says so, or it has effects it does not state. Calls do not: the callee's
/// allocations are released when it returns.
bool mayAllocateInScope(Operation *op) {
  if (isa<CallOpInterface>(op))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  return llvm::any_of(list, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Allocate>(e.getEffect()) &&
           isa<SideEffects::AutomaticAllocationScopeResource>(e.getResource());
  });
}

/// Whether the body of `scope` allocates on the stack (not counting nested
/// allocation scopes, which release their own).
bool allocatesOnStack(memref::AllocaScopeOp scope) {
  return scope
      ->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op == scope.getOperation())
          return WalkResult::advance();
        if (op->hasTrait<OpTrait::AutomaticAllocationScope>())
          return WalkResult::skip();
        return mayAllocateInScope(op) ? WalkResult::interrupt()
                                      : WalkResult::advance();
      })
      .wasInterrupted();
}

struct InlineScopeWithoutAllocas : OpRewritePattern<memref::AllocaScopeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::AllocaScopeOp scope,
                                PatternRewriter &rewriter) const override {
    Region &body = scope.getBodyRegion();
    if (!body.hasOneBlock())
      return rewriter.notifyMatchFailure(scope, "not one block");
    if (allocatesOnStack(scope))
      return rewriter.notifyMatchFailure(scope, "allocates on the stack");
    Block *block = &body.front();
    auto ret = cast<memref::AllocaScopeReturnOp>(block->getTerminator());
    SmallVector<Value> results(ret.getResults());
    rewriter.eraseOp(ret);
    rewriter.inlineBlockBefore(block, scope);
    rewriter.replaceOp(scope, results);
    return success();
  }
};

struct FlashInlineAllocaScopesPass
    : flash::impl::FlashInlineAllocaScopesBase<FlashInlineAllocaScopesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<InlineScopeWithoutAllocas>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
