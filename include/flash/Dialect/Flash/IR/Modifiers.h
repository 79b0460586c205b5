//===- Modifiers.h - score_mod / mask_mod regions of the flash ops -*- C++ -*-===//
//
// What every user of the modifier regions of flash.attention and
// flash.attention_grad needs: their verification, inlining them at given
// arguments, the derivative of a score_mod with respect to the score (for
// the backward), and the affine structure of a mask_mod (the key range each
// query block can see, for block skipping).
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_DIALECT_FLASH_IR_MODIFIERS_H
#define FLASH_DIALECT_FLASH_IR_MODIFIERS_H

#include "mlir/IR/Builders.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"

#include <optional>
#include <string>

namespace mlir {
namespace flash {

/// Verifies the score_mod / mask_mod regions of a flash op of rank `rank`
/// with the given captured operands (empty regions are absent ones).
LogicalResult verifyModifiers(Operation *op, int64_t rank,
                              ValueRange captures, Region &scoreMod,
                              Region &maskMod);

/// The op of `scoreMod` through which its value depends on the score in a
/// way the backward cannot differentiate, or null when it can.
Operation *findNonDifferentiable(Region &scoreMod);

/// Reads element `indices` of the region's captured operand number `k`
/// where the captured operands are not tensors (a GPU kernel reads them
/// from buffers); returns a value of the capture's element type.
using CaptureReader =
    function_ref<Value(OpBuilder &, Location, unsigned k, ValueRange indices)>;

/// Clones the body of a modifier region at `b` with its block arguments
/// replaced by `args`; returns the yielded value. With `read`, `args` binds
/// only the arguments before the captured operands: each tensor.extract of
/// a captured operand becomes read(...), each tensor.dim of one the
/// (static) size.
Value inlineModifier(OpBuilder &b, Location loc, Region &region,
                     ValueRange args, CaptureReader read = {},
                     const IRMapping *hoisted = nullptr);

/// Emits at `b` the part of a modifier region that depends only on the
/// arguments `args` binds (null entries vary; `read` as for
/// inlineModifier, which is then required): a loop-invariant prefix to
/// pass as `hoisted` to the inlining calls inside the loop, which then
/// reuse what it computed.
IRMapping hoistModifier(OpBuilder &b, Location loc, Region &region,
                        ArrayRef<Value> args, CaptureReader read);

/// Inlines a score_mod at `args` (args[0] is the score; `read` as for
/// inlineModifier) and also emits its derivative with respect to args[0].
/// Fails (without emitting anything useful) when findNonDifferentiable()
/// would return an op.
FailureOr<std::pair<Value, Value>>
inlineScoreModWithDerivative(OpBuilder &b, Location loc, Region &scoreMod,
                             ValueRange args, CaptureReader read = {},
                             const IRMapping *hoisted = nullptr);

/// One conjunct `ci * i + cj * j + rest <= 0` of a mask_mod, with
/// ci, cj in {-1, 0, 1} (not both 0) and `rest` an index value that does
/// not depend on i or j.
struct MaskConstraint {
  int64_t ci = 0, cj = 0;
  Value rest;
};

/// The affine part of a mask_mod: its conjuncts of the form above, with
/// their `rest` emitted at `b` from the leading (batch..., head) index
/// values `lead` and the op's captured operands (or, with `read`, reading
/// them as inlineModifier does). `exact` is true when the
/// mask_mod is exactly the conjunction of `constraints` (nothing else needs
/// evaluating to skip a block).
struct MaskBounds {
  SmallVector<MaskConstraint> constraints;
  bool exact = true;
};
MaskBounds analyzeMaskMod(OpBuilder &b, Location loc, Region &maskMod,
                          ValueRange lead, ValueRange captures,
                          CaptureReader read = {});

/// Whether a mask_mod with `leadRank` leading positions is exactly its
/// affine conjuncts (analyzeMaskMod's `exact`, without emitting anything).
bool maskModIsAffine(Region &maskMod, unsigned leadRank);

/// A non-affine conjunct `row pred key` of a mask_mod (a signed compare)
/// whose `row` side depends on the query position and not on the key's,
/// `key` on the key's and not on the query's: a document mask's
/// seg_q[i] == seg_k[j]. Values of the region's block.
struct MaskSplitCompare {
  Value row, key;
  arith::CmpIPredicate pred;
};
/// The non-affine conjuncts of a mask_mod with `leadRank` leading
/// positions (those analyzeMaskMod leaves out), if each is a split compare
/// (eq, ne, slt, sle, sgt, sge); std::nullopt otherwise.
std::optional<SmallVector<MaskSplitCompare>>
maskModSplitCompares(Region &maskMod, unsigned leadRank);

/// Narrows [lo, hi) to the key positions (query positions with `swap`)
/// that some position in [tMin, tMax] of the other axis may see under
/// `bounds`; when given, [innerLo, innerHi) to those every one of them sees
/// (by the affine conjuncts alone).
void boundPositions(OpBuilder &b, Location loc, const MaskBounds &bounds,
                    bool swap, Value tMin, Value tMax, Value &lo, Value &hi,
                    Value *innerLo = nullptr, Value *innerHi = nullptr);

} // namespace flash
} // namespace mlir

#endif // FLASH_DIALECT_FLASH_IR_MODIFIERS_H
