//===- FlashOps.h - flash.attention, flash.attention_grad -------*- C++ -*-===//

#ifndef FLASH_DIALECT_FLASH_IR_FLASHOPS_H
#define FLASH_DIALECT_FLASH_IR_FLASHOPS_H

#include "flash/Dialect/Flash/IR/FlashDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"

#define GET_OP_CLASSES
#include "flash/Dialect/Flash/IR/FlashOps.h.inc"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <optional>

namespace mlir {
namespace flash {

/// The causal offset of flash.attention / flash.attention_grad (a causal op
/// sees keys j <= i + offset): its causal_offset, or Nk - Nq (bottom-right
/// alignment) by default, from the lengths `nq`, `nk` at run time; null when
/// the op is not causal. Every lowering takes it from here.
template <typename OpT>
Value causalOffset(OpBuilder &b, Location loc, OpT op, Value nq, Value nk) {
  if (!op.getCausal())
    return {};
  if (std::optional<int64_t> off = op.getCausalOffset())
    return arith::ConstantIndexOp::create(b, loc, *off);
  return b.createOrFold<arith::SubIOp>(loc, nk, nq);
}

/// The same with static lengths (ShapedType::kDynamic for a dynamic one):
/// the offset, kDynamic when it depends on a dynamic length, nullopt when
/// the op is not causal.
template <typename OpT>
std::optional<int64_t> staticCausalOffset(OpT op, int64_t nq, int64_t nk) {
  if (!op.getCausal())
    return std::nullopt;
  if (std::optional<int64_t> off = op.getCausalOffset())
    return *off;
  if (ShapedType::isDynamic(nq) || ShapedType::isDynamic(nk))
    return ShapedType::kDynamic;
  return nk - nq;
}

} // namespace flash
} // namespace mlir

#endif // FLASH_DIALECT_FLASH_IR_FLASHOPS_H
