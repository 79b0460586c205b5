//===- FlashDialect.cpp - The flash dialect -------------------------------===//

#include "flash/Dialect/Flash/IR/FlashDialect.h"
#include "flash/Dialect/Flash/IR/FlashOps.h"

using namespace mlir;
using namespace mlir::flash;

#include "flash/Dialect/Flash/IR/FlashDialect.cpp.inc"

void FlashDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "flash/Dialect/Flash/IR/FlashOps.cpp.inc"
      >();
}
