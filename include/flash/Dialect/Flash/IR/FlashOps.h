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

#endif // FLASH_DIALECT_FLASH_IR_FLASHOPS_H
