//===- FlashDialect.h - The flash dialect -----------------------*- C++ -*-===//

#ifndef FLASH_DIALECT_FLASH_IR_FLASHDIALECT_H
#define FLASH_DIALECT_FLASH_IR_FLASHDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"

#include "flash/Dialect/Flash/IR/FlashDialect.h.inc"

#endif // FLASH_DIALECT_FLASH_IR_FLASHDIALECT_H
