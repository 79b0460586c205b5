//===- ProveAttentionGrad.cpp - Prove a joint graph's backward ------------===//
#include "RaiseAttention.h"

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::raise;

Reason raise::proveBackward(ExprContext &ec, ModelBuilder &mb,
                            const ForwardFacts &f, const Expr *rootExpr,
                            Value root,
                            ArrayRef<std::pair<Value, Operation *>> uses,
                            std::optional<BackwardFacts> &out) {
  return "the probabilities have other uses";
}

Reason raise::emitBackward(RewriterBase &rw, const ForwardFacts &f,
                           const BackwardFacts &b, AttentionOp attn, Value q,
                           Value k, Value v, Value mask,
                           SmallVectorImpl<Operation *> &made,
                           SmallVectorImpl<Operation *> &roots) {
  return "not implemented";
}
