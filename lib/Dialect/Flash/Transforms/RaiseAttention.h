//===- RaiseAttention.h - Internals of --flash-raise-attention --*- C++ -*-===//

#ifndef FLASH_LIB_DIALECT_FLASH_TRANSFORMS_RAISEATTENTION_H
#define FLASH_LIB_DIALECT_FLASH_TRANSFORMS_RAISEATTENTION_H

#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace mlir {
namespace flash {
namespace raise {

/// Why a candidate was not raised; empty on success.
using Reason = std::string;

/// What a matched attention computes, in flash.attention's terms.
struct AttentionParts {
  Value q, k, v, mask;
  double scale = 1.0;
  std::optional<int64_t> causalOffset;
};

/// Creates flash.attention for `parts` in place of `replacedResult` (a result
/// of `replaced`), verifies it, and erases what became dead. Returns the
/// reason when the parts do not form a valid op (nothing is changed then).
Reason buildAttention(RewriterBase &rewriter, Location loc,
                      const AttentionParts &parts, Operation *replaced,
                      Value replacedResult);

/// -inf, or the lowest finite float (masked_fill(finfo.min)); scalar or splat.
bool isNegInfLike(Value v);
/// A scalar or splat float constant.
std::optional<double> floatConstant(Value v);

/// TOSA: whether `op` is a tosa.matmul that could be P*V, and the matcher.
bool isTosaCandidate(Operation *op);
std::optional<std::pair<Reason, Location>> raiseTosaAt(RewriterBase &rewriter,
                                                       Operation *op);

} // namespace raise
} // namespace flash
} // namespace mlir

#endif // FLASH_LIB_DIALECT_FLASH_TRANSFORMS_RAISEATTENTION_H
