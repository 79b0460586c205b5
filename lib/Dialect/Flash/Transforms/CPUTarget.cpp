//===- CPUTarget.cpp - What the CPU pipeline knows of its target ----------===//
//
// Host queries through llvm::sys (the same ones LLVM's JIT uses to pick its
// target), and the register-tile policy derived from the vector width.
//
//===----------------------------------------------------------------------===//

#include "flash/Dialect/Flash/Transforms/CPUTarget.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>

using namespace mlir;

int64_t flash::hostVectorBits() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  auto has = [&](llvm::StringRef f) { return features.lookup(f); };
  if (has("avx512f"))
    return 512;
  if (has("avx"))
    return 256;
  return 128;
}

bool flash::hostHasAVX512BF16() {
  return llvm::sys::getHostCPUFeatures().lookup("avx512bf16");
}

flash::RegisterTile flash::registerTile(int64_t vectorBits) {
  int64_t lanes = std::max<int64_t>(vectorBits / 32, 1);
  // Two vectors per row, so that one broadcast of a row's A element feeds
  // two FMAs. 32 registers (AVX-512): 8 rows = 16 accumulators, 2 B vectors,
  // broadcasts. 16 registers (AVX/AVX2, SSE; NEON has 32 but 128-bit tiles
  // are short anyway): 4 rows = 8 accumulators.
  return {lanes, 2, vectorBits >= 512 ? 8 : 4};
}

std::string flash::hostCPUName() { return llvm::sys::getHostCPUName().str(); }

llvm::SmallVector<std::string> flash::hostCPUFeatures() {
  llvm::SmallVector<std::string> out;
  for (const auto &f : llvm::sys::getHostCPUFeatures())
    out.push_back((f.getValue() ? "+" : "-") + f.getKey().str());
  llvm::sort(out);
  return out;
}
