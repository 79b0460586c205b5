//===- VulkanRuntime.cpp - The mgpu* C ABI on Vulkan compute --------------===//
//
// `--flash-to-spirv` output calls the same `mgpu*` C ABI as the NVVM path
// (gpu-to-llvm with bare-pointer kernel arguments, each followed by its size
// in bytes; the translation of gpu.binary loads the SPIR-V blob). Upstream's
// Vulkan wrappers are not packaged by Debian, so this is flash-mlir's, on
// the Vulkan 1.2 API (SPIR-V 1.4; 1.3 is asked for the cooperative-matrix
// kernels' SPIR-V 1.6):
//
//  - mgpuMemAlloc returns the address of a host-visible, persistently
//    mapped buffer: host-shared memory, as flash-map-to-gpu's host glue
//    expects (it reads and writes it directly). On a device with
//    device-only memory (a discrete GPU) the buffer is in system memory and
//    the kernels use a device-only twin, which each launch fills from the
//    mapped ranges of its arguments and copies back: on the H200 kernels
//    ran 2.5-5x slower from host-visible device-local (BAR) memory, and the
//    host's reads of it were slower still. Elsewhere (lavapipe, integrated
//    GPUs, or FLASH_VULKAN_MAPPED=1) the kernels use the mapped buffer
//    (FLASH_VULKAN_STAGED=1 stages on any device);
//  - mgpuLaunchKernel binds argument i as storage buffer (set 0, binding i),
//    as convert-gpu-to-spirv numbers them; a pointer not from mgpuMemAlloc
//    is copied into a temporary buffer and back; a size of 2^31 - 1 bytes
//    or more (the unbounded extent flash-static-kernel-buffers gives
//    dynamically sized buffers) binds to the end of the allocation;
//  - launches are synchronous (streams and events are no-ops);
//  - FLASH_VULKAN_TIMING=1 prints each dispatch's device time (timestamp
//    queries) on stderr; FLASH_VULKAN_DEVICE=<n> picks a physical device;
//    FLASH_VULKAN_STATS=1 prints the driver's statistics of each kernel
//    (VK_KHR_pipeline_executable_properties: registers, spills, ...);
//  - a kernel whose workgroup variables exceed the device's
//    maxComputeSharedMemorySize is refused before its pipeline is built
//    (the NVIDIA driver builds such a pipeline and then loses the device);
//  - the device and the instance are destroyed when the last module is
//    unloaded with no buffer left, or at exit (NVIDIA's driver can crash at
//    exit when the instance outlives its own teardown).
//
// Errors are reported on stderr with the failing call and abort.
//
//===----------------------------------------------------------------------===//

#include "SPIRVReflection.h"

#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#define FLASH_EXPORT extern "C" __attribute__((visibility("default")))

using namespace flash_vulkan;

namespace {

void check(VkResult r, const char *what) {
  if (r == VK_SUCCESS)
    return;
  std::fflush(stdout);
  std::fprintf(stderr, "flash_vulkan_runtime: %s failed: VkResult %d\n", what,
               static_cast<int>(r));
  std::abort();
}

[[noreturn]] void fail(const char *msg) {
  std::fflush(stdout);
  std::fprintf(stderr, "flash_vulkan_runtime: %s\n", msg);
  std::abort();
}

#define VK_CHECK(expr) check((expr), #expr)

struct Allocation {
  VkBuffer buffer;
  VkDeviceMemory memory;
  size_t size;
  /// Where the device has device-only memory: the buffer the kernels use
  /// (the mapped one above stages copies to and from it).
  VkBuffer devBuffer = VK_NULL_HANDLE;
  VkDeviceMemory devMemory = VK_NULL_HANDLE;
};

struct Module;

/// The process's one Vulkan device, compute queue and command pool.
struct Context {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memProps{};
  float timestampPeriodNs = 0;
  uint32_t maxSharedBytes = 0;
  uint32_t subgroupSize = 0;
  bool timing = false;
  bool stats = false; // FLASH_VULKAN_STATS, where offered
  /// Kernels read and write device-only buffers; each launch copies its
  /// arguments' mapped ranges to them and back.
  bool deviceCopies = false;
  std::mutex mutex;
  /// Mapped base address -> allocation (mgpuMemAlloc's buffers).
  std::map<uintptr_t, Allocation> allocations;
  /// Loaded modules (their pipelines go with the device).
  std::set<Module *> modules;
};

/// The context while it exists; created on first use, destroyed by
/// teardown().
Context *live = nullptr;
std::mutex liveMutex;

void teardown();

Context *createContext() {
  auto *c = new Context;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "flash-mlir";
  // 1.3: SPIR-V 1.6 modules (the cooperative-matrix kernels).
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VK_CHECK(vkCreateInstance(&ici, nullptr, &c->instance));

  uint32_t n = 0;
  VK_CHECK(vkEnumeratePhysicalDevices(c->instance, &n, nullptr));
  if (n == 0)
    fail("no Vulkan device");
  std::vector<VkPhysicalDevice> devices(n);
  VK_CHECK(vkEnumeratePhysicalDevices(c->instance, &n, devices.data()));
  uint32_t pick = 0;
  if (const char *env = std::getenv("FLASH_VULKAN_DEVICE"))
    pick = static_cast<uint32_t>(std::atoi(env));
  if (pick >= n)
    fail("FLASH_VULKAN_DEVICE is out of range");
  c->physical = devices[pick];
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(c->physical, &props);
  c->timestampPeriodNs = props.limits.timestampPeriod;
  c->maxSharedBytes = props.limits.maxComputeSharedMemorySize;
  VkPhysicalDeviceSubgroupProperties subgroup{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props2{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props2.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(c->physical, &props2);
  c->subgroupSize = subgroup.subgroupSize;
  c->timing = std::getenv("FLASH_VULKAN_TIMING") != nullptr;
  if (c->timing)
    std::fprintf(stderr, "flash_vulkan_runtime: device %s\n", props.deviceName);
  vkGetPhysicalDeviceMemoryProperties(c->physical, &c->memProps);
  // Kernels run from device-only memory where the device has it: on the
  // H200 they ran 2.5-5x slower from host-visible device-local (BAR)
  // memory. FLASH_VULKAN_MAPPED=1 keeps them on the mapped buffers.
  for (uint32_t i = 0; i < c->memProps.memoryTypeCount; ++i) {
    VkMemoryPropertyFlags f = c->memProps.memoryTypes[i].propertyFlags;
    if ((f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
        !(f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
      c->deviceCopies = true;
  }
  // FLASH_VULKAN_STAGED=1 stages on any device (tested on lavapipe).
  if (std::getenv("FLASH_VULKAN_MAPPED"))
    c->deviceCopies = false;
  if (std::getenv("FLASH_VULKAN_STAGED"))
    c->deviceCopies = true;

  uint32_t nq = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(c->physical, &nq, nullptr);
  std::vector<VkQueueFamilyProperties> families(nq);
  vkGetPhysicalDeviceQueueFamilyProperties(c->physical, &nq, families.data());
  bool found = false;
  for (uint32_t i = 0; i < nq && !found; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      c->queueFamily = i;
      found = true;
    }
  if (!found)
    fail("the Vulkan device has no compute queue");

  // Enable the 16-bit types the f16/bf16 kernels use, where offered.
  VkPhysicalDeviceShaderFloat16Int8Features f16{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
  VkPhysicalDevice16BitStorageFeatures s16{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  // 8-bit storage: boolean captured operands of the modifier regions.
  VkPhysicalDevice8BitStorageFeatures s8{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
  s16.pNext = &s8;
  s8.pNext = &f16;
  // And KHR cooperative matrices where the device has them (the struct
  // is spelled out: Debian 12's Vulkan headers predate the extension).
  struct CooperativeMatrixFeatures {
    VkStructureType sType;
    void *pNext;
    VkBool32 cooperativeMatrix, cooperativeMatrixRobustBufferAccess;
  } coop{static_cast<VkStructureType>(1000506000), nullptr, VK_FALSE, VK_FALSE};
  const char *coopExt = "VK_KHR_cooperative_matrix";
  uint32_t nExt = 0;
  vkEnumerateDeviceExtensionProperties(c->physical, nullptr, &nExt, nullptr);
  std::vector<VkExtensionProperties> exts(nExt);
  vkEnumerateDeviceExtensionProperties(c->physical, nullptr, &nExt,
                                       exts.data());
  auto offered = [&](const char *name) {
    for (const VkExtensionProperties &e : exts)
      if (std::strcmp(e.extensionName, name) == 0)
        return true;
    return false;
  };
  std::vector<const char *> enabled;
  bool hasCoop = offered(coopExt);
  if (hasCoop) {
    f16.pNext = &coop;
    enabled.push_back(coopExt);
  }
  // FLASH_VULKAN_STATS=1: the driver's statistics of each kernel (registers,
  // spills, ...), where it offers them.
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR execProps{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  const char *execExt = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
  if (std::getenv("FLASH_VULKAN_STATS") && offered(execExt)) {
    execProps.pNext = hasCoop ? static_cast<void *>(&coop) : nullptr;
    f16.pNext = &execProps;
    enabled.push_back(execExt);
  }
  VkPhysicalDeviceFeatures2 features{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.pNext = &s16;
  vkGetPhysicalDeviceFeatures2(c->physical, &features);
  if (c->timing)
    std::fprintf(stderr, "flash_vulkan_runtime: cooperative matrices %s\n",
                 coop.cooperativeMatrix ? "on" : "off");
  VkPhysicalDeviceFeatures2 enable{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  enable.features.shaderInt64 = features.features.shaderInt64;
  enable.features.shaderInt16 = features.features.shaderInt16;
  enable.pNext = &s16; // as queried: everything offered is enabled
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = c->queueFamily;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.pNext = &enable;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = static_cast<uint32_t>(enabled.size());
  dci.ppEnabledExtensionNames = enabled.data();
  VK_CHECK(vkCreateDevice(c->physical, &dci, nullptr, &c->device));
  c->stats = execProps.pipelineExecutableInfo;
  vkGetDeviceQueue(c->device, c->queueFamily, 0, &c->queue);
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pci.queueFamilyIndex = c->queueFamily;
  VK_CHECK(vkCreateCommandPool(c->device, &pci, nullptr, &c->pool));
  return c;
}

Context &context() {
  std::lock_guard<std::mutex> lock(liveMutex);
  if (!live) {
    live = createContext();
    // Registered after the driver is loaded, so it runs before the
    // driver's own exit handlers.
    static bool registered = false;
    if (!registered)
      std::atexit(teardown);
    registered = true;
  }
  return *live;
}

/// A buffer of `size` bytes in memory of the first of `wants` the device
/// has room in, of a type without the `avoid` properties; false if none.
bool createBuffer(Context &c, size_t size,
                  std::initializer_list<VkMemoryPropertyFlags> wants,
                  VkMemoryPropertyFlags avoid, VkBuffer &buffer,
                  VkDeviceMemory &memory, int &type) {
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = size ? size : 4;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
              VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
              VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VK_CHECK(vkCreateBuffer(c.device, &bci, nullptr, &buffer));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(c.device, buffer, &req);
  type = -1;
  for (VkMemoryPropertyFlags want : wants) {
    for (uint32_t i = 0; i < c.memProps.memoryTypeCount && type < 0; ++i)
      if ((req.memoryTypeBits & (1u << i)) &&
          (c.memProps.memoryTypes[i].propertyFlags & want) == want &&
          !(c.memProps.memoryTypes[i].propertyFlags & avoid)) {
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = req.size;
        mai.memoryTypeIndex = i;
        // A small BAR heap may be full: fall back to the next type.
        if (vkAllocateMemory(c.device, &mai, nullptr, &memory) == VK_SUCCESS)
          type = static_cast<int>(i);
      }
    if (type >= 0)
      break;
  }
  if (type < 0) {
    vkDestroyBuffer(c.device, buffer, nullptr);
    return false;
  }
  VK_CHECK(vkBindBufferMemory(c.device, buffer, memory, 0));
  return true;
}

/// A storage buffer in host-visible memory, mapped; device-local when the
/// device has host-visible device-local memory (resizable BAR, or any
/// integrated/CPU device such as lavapipe); with deviceCopies, in system
/// memory, staging a device-only twin that the kernels use.
Allocation allocate(Context &c, size_t size, void **mapped) {
  Allocation a{VK_NULL_HANDLE, VK_NULL_HANDLE, size};
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int type, devType;
  // Staged: system memory the host caches (it reads results back from
  // it; uncached, write-combined reads crawl). Mapped: device-local where
  // the device has host-visible device-local memory.
  const VkMemoryPropertyFlags cached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  bool made =
      c.deviceCopies
          ? createBuffer(c, size, {host | cached, host},
                         VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, a.buffer,
                         a.memory, type)
          : createBuffer(c, size,
                         {host | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, host}, 0,
                         a.buffer, a.memory, type);
  if (!made && !createBuffer(c, size, {host}, 0, a.buffer, a.memory, type))
    fail("no host-visible memory for a buffer");
  if (c.deviceCopies &&
      !createBuffer(c, size, {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT},
                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, a.devBuffer,
                    a.devMemory, devType) &&
      !createBuffer(c, size, {0}, 0, a.devBuffer, a.devMemory, devType))
    fail("no device memory for a buffer");
  // With timing: where the buffers land (the first, and every one that
  // had to fall back to host memory: kernels then read it over PCIe).
  static bool told = false;
  bool local = c.deviceCopies || (c.memProps.memoryTypes[type].propertyFlags &
                                  VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (c.timing && (!told || !local)) {
    told = true;
    std::fprintf(
        stderr, "flash_vulkan_runtime: buffer of %llu bytes in %s memory\n",
        static_cast<unsigned long long>(size),
        c.deviceCopies ? (c.memProps.memoryTypes[type].propertyFlags & cached
                              ? "device-only (staged through cached host)"
                              : "device-only (staged through uncached host)")
        : local        ? "device-local host-visible"
                       : "host");
  }
  VK_CHECK(vkMapMemory(c.device, a.memory, 0, VK_WHOLE_SIZE, 0, mapped));
  return a;
}

void release(Context &c, const Allocation &a) {
  vkUnmapMemory(c.device, a.memory);
  vkDestroyBuffer(c.device, a.buffer, nullptr);
  vkFreeMemory(c.device, a.memory, nullptr);
  if (a.devBuffer) {
    vkDestroyBuffer(c.device, a.devBuffer, nullptr);
    vkFreeMemory(c.device, a.devMemory, nullptr);
  }
}

/// The mgpuMemAlloc allocation holding [p, p + size), and p's offset in it.
/// The extent flash-static-kernel-buffers gives dynamically sized buffers
/// (rows); a size of that many bytes or more means "to the end of the
/// allocation".
constexpr size_t kUnboundedSize = 2147483647;

const Allocation *findAllocation(Context &c, const void *ptr, size_t &size,
                                 VkDeviceSize &offset) {
  auto p = reinterpret_cast<uintptr_t>(ptr);
  auto it = c.allocations.upper_bound(p);
  if (it == c.allocations.begin())
    return nullptr;
  --it;
  uintptr_t end = it->first + it->second.size;
  if (p >= end)
    return nullptr;
  if (p + size > end) {
    if (size < kUnboundedSize)
      return nullptr;
    size = end - p;
  }
  offset = p - it->first;
  return &it->second;
}

void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags srcStage,
                   VkAccessFlags src, VkPipelineStageFlags dstStage,
                   VkAccessFlags dst) {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = src;
  barrier.dstAccessMask = dst;
  vkCmdPipelineBarrier(cmd, srcStage, dstStage, 0, 1, &barrier, 0, nullptr, 0,
                       nullptr);
}

/// Records commands into a one-time command buffer, submits it and waits.
template <typename Record> void runCommands(Context &c, Record record) {
  VkCommandBufferAllocateInfo cbai{
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  cbai.commandPool = c.pool;
  cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cbai.commandBufferCount = 1;
  VkCommandBuffer cmd;
  VK_CHECK(vkAllocateCommandBuffers(c.device, &cbai, &cmd));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
  record(cmd);
  VK_CHECK(vkEndCommandBuffer(cmd));
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  VK_CHECK(vkCreateFence(c.device, &fci, nullptr, &fence));
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  VK_CHECK(vkQueueSubmit(c.queue, 1, &submit, fence));
  VK_CHECK(vkWaitForFences(c.device, 1, &fence, VK_TRUE, UINT64_MAX));
  vkDestroyFence(c.device, fence, nullptr);
  vkFreeCommandBuffers(c.device, c.pool, 1, &cmd);
}

/// An entry point, with its pipeline per number of buffer arguments.
struct Function {
  Module *module;
  std::string name;
  uint32_t numBuffers = ~0u;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
};

struct Module {
  VkShaderModule shader = VK_NULL_HANDLE;
  std::vector<uint32_t> words; // the SPIR-V, for workgroupBytes()
  std::map<std::string, std::unique_ptr<Function>> functions;
};

/// Destroys the module's Vulkan objects (its pipelines, its shader).
void destroyModule(Context &c, Module &m) {
  for (auto &[name, f] : m.functions) {
    vkDestroyPipeline(c.device, f->pipeline, nullptr);
    vkDestroyPipelineLayout(c.device, f->layout, nullptr);
    vkDestroyDescriptorSetLayout(c.device, f->setLayout, nullptr);
  }
  m.functions.clear();
  vkDestroyShaderModule(c.device, m.shader, nullptr);
  m.shader = VK_NULL_HANDLE;
}

void destroyContext(Context *c) {
  vkDeviceWaitIdle(c->device);
  for (Module *m : c->modules)
    destroyModule(*c, *m);
  for (auto &[ptr, a] : c->allocations)
    release(*c, a);
  vkDestroyCommandPool(c->device, c->pool, nullptr);
  vkDestroyDevice(c->device, nullptr);
  vkDestroyInstance(c->instance, nullptr);
  delete c;
}

void teardown() {
  std::lock_guard<std::mutex> lock(liveMutex);
  if (live)
    destroyContext(live);
  live = nullptr;
}

/// The driver's statistics of a kernel's pipeline, on stderr.
void printStatistics(Context &c, const Function &f) {
  auto getExecutables =
      reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
          vkGetDeviceProcAddr(c.device,
                              "vkGetPipelineExecutablePropertiesKHR"));
  auto getStatistics =
      reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
          vkGetDeviceProcAddr(c.device,
                              "vkGetPipelineExecutableStatisticsKHR"));
  if (!getExecutables || !getStatistics)
    return;
  VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  info.pipeline = f.pipeline;
  uint32_t n = 0;
  VK_CHECK(getExecutables(c.device, &info, &n, nullptr));
  for (uint32_t e = 0; e < n; ++e) {
    VkPipelineExecutableInfoKHR exe{
        VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    exe.pipeline = f.pipeline;
    exe.executableIndex = e;
    uint32_t ns = 0;
    VK_CHECK(getStatistics(c.device, &exe, &ns, nullptr));
    std::vector<VkPipelineExecutableStatisticKHR> stats(
        ns, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    VK_CHECK(getStatistics(c.device, &exe, &ns, stats.data()));
    for (const VkPipelineExecutableStatisticKHR &st : stats) {
      std::fprintf(stderr, "flash_vulkan_runtime: %s %s = ", f.name.c_str(),
                   st.name);
      switch (st.format) {
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
        std::fprintf(stderr, "%s\n", st.value.b32 ? "true" : "false");
        break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
        std::fprintf(stderr, "%lld\n", static_cast<long long>(st.value.i64));
        break;
      case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
        std::fprintf(stderr, "%llu\n",
                     static_cast<unsigned long long>(st.value.u64));
        break;
      default:
        std::fprintf(stderr, "%g\n", st.value.f64);
      }
    }
  }
}

void buildPipeline(Context &c, Function &f, uint32_t numBuffers) {
  if (f.numBuffers == numBuffers)
    return;
  if (f.pipeline != VK_NULL_HANDLE)
    fail("a kernel launched with a different number of arguments");
  uint64_t shared = workgroupBytes(f.module->words, f.name);
  if (shared > c.maxSharedBytes) {
    std::fflush(stdout);
    std::fprintf(stderr,
                 "flash_vulkan_runtime: kernel %s needs %llu bytes of "
                 "workgroup memory; the device offers %u "
                 "(maxComputeSharedMemorySize%s)\n",
                 f.name.c_str(), static_cast<unsigned long long>(shared),
                 c.maxSharedBytes,
                 f.module->words[1] < 0x00010400
                     ? "; before SPIR-V 1.4 every workgroup variable of the "
                       "module counts"
                     : "");
    std::abort();
  }
  std::vector<VkDescriptorSetLayoutBinding> bindings(numBuffers);
  for (uint32_t i = 0; i < numBuffers; ++i)
    bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                   VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo lci{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  lci.bindingCount = numBuffers;
  lci.pBindings = bindings.data();
  VK_CHECK(vkCreateDescriptorSetLayout(c.device, &lci, nullptr, &f.setLayout));
  VkPipelineLayoutCreateInfo plci{
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &f.setLayout;
  VK_CHECK(vkCreatePipelineLayout(c.device, &plci, nullptr, &f.layout));
  VkComputePipelineCreateInfo cpci{
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cpci.stage.module = f.module->shader;
  cpci.stage.pName = f.name.c_str();
  cpci.layout = f.layout;
  if (c.stats)
    cpci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  VK_CHECK(vkCreateComputePipelines(c.device, VK_NULL_HANDLE, 1, &cpci, nullptr,
                                    &f.pipeline));
  f.numBuffers = numBuffers;
  if (c.stats)
    printStatistics(c, f);
}

} // namespace

FLASH_EXPORT void mgpuSetDefaultDevice(int32_t) {}

FLASH_EXPORT void *mgpuModuleLoad(void *data, size_t size) {
  Context &c = context();
  if (size % 4 != 0)
    fail("a SPIR-V blob whose size is not a multiple of 4");
  VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  smci.codeSize = size;
  smci.pCode = static_cast<const uint32_t *>(data);
  auto *m = new Module;
  const auto *words = static_cast<const uint32_t *>(data);
  m->words.assign(words, words + size / 4);
  // The SIMT kernels' threads of one row (up to 8) exchange values by
  // subgroup shuffles: they must share a subgroup.
  if (usesCapability(m->words, /*GroupNonUniformShuffle=*/65) &&
      c.subgroupSize < 8) {
    std::fflush(stdout);
    std::fprintf(stderr,
                 "flash_vulkan_runtime: the kernels shuffle values within "
                 "groups of up to 8 invocations; the device's subgroups have "
                 "%u (compile with --flash-to-spirv=row-lanes=1)\n",
                 c.subgroupSize);
    std::abort();
  }
  VK_CHECK(vkCreateShaderModule(c.device, &smci, nullptr, &m->shader));
  std::lock_guard<std::mutex> lock(c.mutex);
  c.modules.insert(m);
  return m;
}

FLASH_EXPORT void *mgpuModuleLoadJIT(void *, int) {
  fail("mgpuModuleLoadJIT: SPIR-V modules are loaded as binaries");
}

FLASH_EXPORT void mgpuModuleUnload(void *module) {
  auto *m = static_cast<Module *>(module);
  // At exit, teardown() may have destroyed the device already.
  bool last = false;
  {
    std::lock_guard<std::mutex> lock(liveMutex);
    if (live) {
      std::lock_guard<std::mutex> clock(live->mutex);
      vkDeviceWaitIdle(live->device);
      destroyModule(*live, *m);
      live->modules.erase(m);
      last = live->modules.empty() && live->allocations.empty();
    }
  }
  delete m;
  if (last)
    teardown();
}

FLASH_EXPORT void *mgpuModuleGetFunction(void *module, const char *name) {
  // The host asks once per launch: one Function per (module, name).
  auto *m = static_cast<Module *>(module);
  std::lock_guard<std::mutex> lock(context().mutex);
  std::unique_ptr<Function> &f = m->functions[name];
  if (!f) {
    f = std::make_unique<Function>();
    f->module = static_cast<Module *>(module);
    f->name = name;
  }
  return f.get();
}

FLASH_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX,
                                   intptr_t gridY, intptr_t gridZ,
                                   intptr_t /*blockX*/, intptr_t /*blockY*/,
                                   intptr_t /*blockZ*/, int32_t smem,
                                   void * /*stream*/, void **params,
                                   void ** /*extra*/, size_t paramsCount) {
  // The block size is the kernel's LocalSize execution mode; workgroup
  // memory is declared in the kernel (no dynamic shared memory).
  if (smem != 0)
    fail("dynamic workgroup memory is not supported");
  if (paramsCount % 2 != 0)
    fail("kernel arguments are not (pointer, size) pairs: lower the host "
         "with gpu-to-llvm{use-bare-pointers-for-kernels "
         "intersperse-sizes-for-kernels}");
  Context &c = context();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto &f = *static_cast<Function *>(function);
  uint32_t n = static_cast<uint32_t>(paramsCount / 2);
  buildPipeline(c, f, n);

  // Argument i: our buffer (at an offset), or a temporary copy.
  struct Temp {
    Allocation a;
    void *mapped, *host;
  };
  std::vector<Temp> temps;
  std::vector<VkDescriptorBufferInfo> infos(n);
  // Arguments with device-only twins: their ranges copied in before the
  // dispatch and out after it (the mapped buffers are host-shared memory:
  // the host glue reads and writes them directly).
  struct Copy {
    VkBuffer mapped, device;
    VkBufferCopy region;
  };
  std::vector<Copy> copies;
  auto bind = [&](uint32_t i, const Allocation &a, VkDeviceSize offset,
                  size_t size) {
    infos[i] = {a.devBuffer ? a.devBuffer : a.buffer, offset, size ? size : 4};
    if (a.devBuffer && size)
      copies.push_back({a.buffer, a.devBuffer, {offset, offset, size}});
  };
  for (uint32_t i = 0; i < n; ++i) {
    void *ptr = *static_cast<void **>(params[2 * i]);
    size_t size = *static_cast<size_t *>(params[2 * i + 1]);
    VkDeviceSize offset;
    if (const Allocation *a = findAllocation(c, ptr, size, offset)) {
      bind(i, *a, offset, size);
      continue;
    }
    Temp t;
    t.host = ptr;
    t.a = allocate(c, size, &t.mapped);
    std::memcpy(t.mapped, ptr, size);
    bind(i, t.a, 0, size);
    temps.push_back(t);
  }
  auto copyAll = [&](VkCommandBuffer cmd, bool in) {
    for (const Copy &cp : copies)
      vkCmdCopyBuffer(cmd, in ? cp.mapped : cp.device,
                      in ? cp.device : cp.mapped, 1, &cp.region);
  };

  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, n ? n : 1};
  VkDescriptorPoolCreateInfo dpci{
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dpci.maxSets = 1;
  dpci.poolSizeCount = 1;
  dpci.pPoolSizes = &poolSize;
  VkDescriptorPool pool;
  VK_CHECK(vkCreateDescriptorPool(c.device, &dpci, nullptr, &pool));
  VkDescriptorSetAllocateInfo dsai{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  dsai.descriptorPool = pool;
  dsai.descriptorSetCount = 1;
  dsai.pSetLayouts = &f.setLayout;
  VkDescriptorSet set;
  VK_CHECK(vkAllocateDescriptorSets(c.device, &dsai, &set));
  std::vector<VkWriteDescriptorSet> writes(n);
  for (uint32_t i = 0; i < n; ++i) {
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = set;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  vkUpdateDescriptorSets(c.device, n, writes.data(), 0, nullptr);

  VkQueryPool queries = VK_NULL_HANDLE;
  if (c.timing) {
    VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpci.queryCount = 2;
    VK_CHECK(vkCreateQueryPool(c.device, &qpci, nullptr, &queries));
  }
  runCommands(c, [&](VkCommandBuffer cmd) {
    if (!copies.empty()) {
      copyAll(cmd, /*in=*/true);
      memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                    VK_ACCESS_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                    VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    }
    if (queries) {
      vkCmdResetQueryPool(cmd, queries, 0, 2);
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries, 0);
    }
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f.pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, f.layout, 0, 1,
                            &set, 0, nullptr);
    vkCmdDispatch(cmd, static_cast<uint32_t>(gridX),
                  static_cast<uint32_t>(gridY), static_cast<uint32_t>(gridZ));
    if (queries)
      vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries,
                          1);
    // Make the shader's writes (or the copies of them) visible to the
    // host's reads.
    if (!copies.empty()) {
      memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                    VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                    VK_ACCESS_TRANSFER_READ_BIT);
      copyAll(cmd, /*in=*/false);
      memoryBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                    VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                    VK_ACCESS_HOST_READ_BIT);
    } else {
      memoryBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                    VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                    VK_ACCESS_HOST_READ_BIT);
    }
  });
  if (queries) {
    uint64_t ts[2];
    VK_CHECK(vkGetQueryPoolResults(
        c.device, queries, 0, 2, sizeof ts, ts, sizeof ts[0],
        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    std::fprintf(stderr, "flash_vulkan_runtime: %s %.3f ms\n", f.name.c_str(),
                 static_cast<double>(ts[1] - ts[0]) * c.timestampPeriodNs *
                     1e-6);
    vkDestroyQueryPool(c.device, queries, nullptr);
  }
  vkDestroyDescriptorPool(c.device, pool, nullptr);
  for (Temp &t : temps) {
    std::memcpy(t.host, t.mapped, t.a.size);
    release(c, t.a);
  }
}

// Launches are synchronous: streams and events only have to exist.
FLASH_EXPORT void *mgpuStreamCreate() {
  static int stream;
  return &stream;
}
FLASH_EXPORT void mgpuStreamDestroy(void *) {}
FLASH_EXPORT void mgpuStreamSynchronize(void *) {}
FLASH_EXPORT void mgpuStreamWaitEvent(void *, void *) {}
FLASH_EXPORT void *mgpuEventCreate() {
  static int event;
  return &event;
}
FLASH_EXPORT void mgpuEventDestroy(void *) {}
FLASH_EXPORT void mgpuEventSynchronize(void *) {}
FLASH_EXPORT void mgpuEventRecord(void *, void *) {}

FLASH_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, void * /*stream*/,
                                bool /*isHostShared*/) {
  Context &c = context();
  std::lock_guard<std::mutex> lock(c.mutex);
  void *mapped;
  Allocation a = allocate(c, sizeBytes, &mapped);
  c.allocations[reinterpret_cast<uintptr_t>(mapped)] = a;
  return mapped;
}

FLASH_EXPORT void mgpuMemFree(void *ptr, void * /*stream*/) {
  Context &c = context();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.allocations.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == c.allocations.end())
    fail("mgpuMemFree of a pointer mgpuMemAlloc did not return");
  release(c, it->second);
  c.allocations.erase(it);
}

// Device pointers are the mapped buffers' addresses (the host glue's
// memory is host-shared: the host reads and writes it directly).
FLASH_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                             void * /*stream*/) {
  std::memcpy(dst, src, sizeBytes);
}

FLASH_EXPORT void mgpuMemset32(void *dst, uint32_t value, size_t count,
                               void * /*stream*/) {
  auto *d = static_cast<uint32_t *>(dst);
  for (size_t i = 0; i < count; ++i)
    d[i] = value;
}

FLASH_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                               void * /*stream*/) {
  auto *d = static_cast<unsigned short *>(dst);
  for (size_t i = 0; i < count; ++i)
    d[i] = value;
}

FLASH_EXPORT void mgpuMemHostRegister(void *, uint64_t) {}
FLASH_EXPORT void mgpuMemHostUnregister(void *) {}
FLASH_EXPORT void mgpuMemHostRegisterMemRef(int64_t, void *, int64_t) {}
FLASH_EXPORT void mgpuMemHostUnregisterMemRef(int64_t, void *, int64_t) {}
