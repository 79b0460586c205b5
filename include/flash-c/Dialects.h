//===- Dialects.h - C API of the flash dialect ------------------*- C -*-===//
//
// The flash dialect for C (and Python, Rust, ...) clients of MLIR's C API:
//
//   MlirDialectHandle h = mlirGetDialectHandle__flash__();
//   mlirDialectHandleInsertDialect(h, registry);
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_C_DIALECTS_H
#define FLASH_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Flash, flash);

#ifdef __cplusplus
}
#endif

#endif // FLASH_C_DIALECTS_H
