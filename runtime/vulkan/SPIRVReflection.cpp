//===- SPIRVReflection.cpp - What the Vulkan runtime reads from SPIR-V ----===//

#include "SPIRVReflection.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <unordered_map>

uint64_t flash_vulkan::workgroupBytes(const std::vector<uint32_t> &w,
                                      const std::string &name) {
  enum : uint32_t {
    OpEntryPoint = 15,
    OpTypeBool = 20,
    OpTypeInt = 21,
    OpTypeFloat = 22,
    OpTypeVector = 23,
    OpTypeMatrix = 24,
    OpTypeArray = 28,
    OpTypeStruct = 30,
    OpTypePointer = 32,
    OpConstant = 43,
    OpVariable = 59,
    Workgroup = 4
  };
  if (w.size() < 5)
    return 0;
  bool listsGlobals = w[1] >= 0x00010400;
  std::unordered_map<uint32_t, uint64_t> size, align, constant, pointee;
  std::unordered_map<uint32_t, uint64_t> workgroupVars; // id -> bytes
  std::set<uint32_t> interface;
  auto sizeOf = [&](uint32_t id) { return size.count(id) ? size[id] : 0; };
  auto alignOf = [&](uint32_t id) {
    return align.count(id) && align[id] ? align[id] : 1;
  };
  for (size_t i = 5; i < w.size();) {
    uint32_t op = w[i] & 0xffff, n = w[i] >> 16;
    if (n == 0 || i + n > w.size())
      break;
    const uint32_t *a = &w[i + 1];
    switch (op) {
    case OpEntryPoint: {
      const char *s = reinterpret_cast<const char *>(a + 2);
      size_t len = strnlen(s, (n - 3) * 4);
      if (name == std::string(s, len))
        for (uint32_t k = 2 + static_cast<uint32_t>(len / 4 + 1); k + 1 < n;
             ++k)
          interface.insert(a[k]);
      break;
    }
    case OpTypeBool:
      size[a[0]] = align[a[0]] = 4;
      break;
    case OpTypeInt:
    case OpTypeFloat:
      size[a[0]] = align[a[0]] = a[1] / 8;
      break;
    case OpTypeVector:
    case OpTypeMatrix:
      size[a[0]] = sizeOf(a[1]) * a[2];
      align[a[0]] = alignOf(a[1]);
      break;
    case OpTypeArray:
      size[a[0]] = sizeOf(a[1]) * (constant.count(a[2]) ? constant[a[2]] : 0);
      align[a[0]] = alignOf(a[1]);
      break;
    case OpTypeStruct: {
      uint64_t bytes = 0, al = 1;
      for (uint32_t k = 1; k + 1 < n; ++k) {
        uint64_t m = alignOf(a[k]);
        bytes = (bytes + m - 1) / m * m + sizeOf(a[k]);
        al = std::max(al, m);
      }
      size[a[0]] = (bytes + al - 1) / al * al;
      align[a[0]] = al;
      break;
    }
    case OpTypePointer:
      pointee[a[0]] = a[2];
      break;
    case OpConstant:
      constant[a[1]] = a[2];
      break;
    case OpVariable:
      if (a[2] == Workgroup && pointee.count(a[0]))
        workgroupVars[a[1]] = sizeOf(static_cast<uint32_t>(pointee[a[0]]));
      break;
    default:
      break;
    }
    i += n;
  }
  uint64_t total = 0;
  for (auto &[id, bytes] : workgroupVars)
    if (!listsGlobals || interface.count(id))
      total += bytes;
  return total;
}

bool flash_vulkan::usesCapability(const std::vector<uint32_t> &w,
                                  uint32_t cap) {
  for (size_t i = 5; i < w.size();) {
    uint32_t op = w[i] & 0xffff, n = w[i] >> 16;
    if (n == 0)
      break;
    if (op == /*OpCapability=*/17 && n == 2 && i + 1 < w.size() &&
        w[i + 1] == cap)
      return true;
    i += n;
  }
  return false;
}
