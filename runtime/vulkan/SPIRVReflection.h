//===- SPIRVReflection.h - What the Vulkan runtime reads from SPIR-V ------===//
//
// The little the Vulkan runtime needs to know about a SPIR-V module before
// it builds a pipeline. Written by hand: no SPIR-V reflection library is
// packaged here.
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_RUNTIME_VULKAN_SPIRVREFLECTION_H
#define FLASH_RUNTIME_VULKAN_SPIRVREFLECTION_H

#include <cstdint>
#include <string>
#include <vector>

namespace flash_vulkan {

/// Bytes of workgroup memory the entry point `name` declares: the
/// Workgroup variables its OpEntryPoint lists (SPIR-V 1.4 and later), or
/// all of the module's (before 1.4 an entry point lists only its inputs and
/// outputs). Member and element sizes are summed with scalar alignment.
uint64_t workgroupBytes(const std::vector<uint32_t> &words,
                        const std::string &name);

/// Whether the module declares OpCapability `cap`.
bool usesCapability(const std::vector<uint32_t> &words, uint32_t cap);

} // namespace flash_vulkan

#endif // FLASH_RUNTIME_VULKAN_SPIRVREFLECTION_H
