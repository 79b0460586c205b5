//===- Passes.h - flash dialect passes --------------------------*- C++ -*-===//

#ifndef FLASH_DIALECT_FLASH_TRANSFORMS_PASSES_H
#define FLASH_DIALECT_FLASH_TRANSFORMS_PASSES_H

#include "flash/Dialect/Flash/IR/FlashDialect.h"
#include "flash/Dialect/Flash/Transforms/Transforms.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace flash {

#define GEN_PASS_DECL
#include "flash/Dialect/Flash/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "flash/Dialect/Flash/Transforms/Passes.h.inc"

} // namespace flash
} // namespace mlir

#endif // FLASH_DIALECT_FLASH_TRANSFORMS_PASSES_H
