//===- Dialects.cpp - C API of the flash dialect --------------------------===//

#include "flash-c/Dialects.h"
#include "flash/Dialect/Flash/IR/FlashDialect.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Flash, flash,
                                      mlir::flash::FlashDialect)
