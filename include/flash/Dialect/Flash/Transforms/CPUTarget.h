//===- CPUTarget.h - What the CPU pipeline knows of its target --*- C++ -*-===//
//
// The host CPU as LLVM sees it (llvm::sys), in the two forms the CPU
// pipeline needs: the widest f32 vector unit, for flash-vectorize-cpu's
// register tiles, and the CPU name and features, for the `target_cpu` /
// `target_features` of the generated functions.
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_DIALECT_FLASH_TRANSFORMS_CPUTARGET_H
#define FLASH_DIALECT_FLASH_TRANSFORMS_CPUTARGET_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>

namespace mlir {
namespace flash {

/// Bits of the host's widest vector registers that hold f32 arithmetic:
/// 512 with AVX-512F, 256 with AVX (or AVX2), 128 otherwise (SSE, NEON,
/// anything else: the narrow fallback that is still vectorized).
int64_t hostVectorBits();

/// Whether the host has AVX512-BF16 (`vdpbf16ps`), which
/// flash-vectorize-bf16-dot's code needs.
bool hostHasAVX512BF16();

/// The register tile of a contraction for vectors of `vectorBits`: rows x
/// (vectors per row x lanes), sized so that the accumulators and the operand
/// vectors of one step fit the register file (32 registers with AVX-512, 16
/// with AVX/AVX2 and SSE).
struct RegisterTile {
  int64_t lanes;         // f32 lanes of one vector
  int64_t vectorsPerRow; // vectors of one accumulator row
  int64_t rows;          // accumulator rows
};
RegisterTile registerTile(int64_t vectorBits);

/// LLVM's name of the host CPU ("znver4", "sapphirerapids", ...).
std::string hostCPUName();

/// The host's LLVM target features, "+name" / "-name", sorted.
llvm::SmallVector<std::string> hostCPUFeatures();

} // namespace flash
} // namespace mlir

#endif // FLASH_DIALECT_FLASH_TRANSFORMS_CPUTARGET_H
