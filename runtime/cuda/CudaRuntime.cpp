//===- CudaRuntime.cpp - The mgpu* C ABI on the CUDA driver API -----------===//
//
// MLIR's GPU host lowering (gpu-to-llvm, and the translation of
// gpu.launch_func / gpu.binary) calls a small C ABI, `mgpu*`, to load
// modules, launch kernels and move memory. Debian's MLIR ships no
// implementation of it (upstream's libmlir_cuda_runtime.so is not packaged),
// so this is flash-mlir's, written against the CUDA driver API.
//
// Errors are reported on stderr with the failing call and abort: a kernel
// that did not run must never let a program print results.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#define FLASH_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

void check(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return;
  const char *name = nullptr, *msg = nullptr;
  cuGetErrorName(r, &name);
  cuGetErrorString(r, &msg);
  std::fflush(stdout);
  std::fprintf(stderr, "flash_cuda_runtime: %s failed: %s (%s)\n", what,
               name ? name : "?", msg ? msg : "?");
  std::abort();
}

#define CUDA_CHECK(expr) check((expr), #expr)

int defaultDevice = 0;

/// The primary context of the default device, current on this thread (the
/// one torch and the CUDA runtime API use too).
void ensureContext() {
  static std::once_flag init;
  static CUcontext context = nullptr;
  std::call_once(init, [] {
    CUDA_CHECK(cuInit(0));
    CUdevice device;
    CUDA_CHECK(cuDeviceGet(&device, defaultDevice));
    CUDA_CHECK(cuDevicePrimaryCtxRetain(&context, device));
  });
  CUcontext current = nullptr;
  CUDA_CHECK(cuCtxGetCurrent(&current));
  if (current != context)
    CUDA_CHECK(cuCtxSetCurrent(context));
}

} // namespace

FLASH_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  defaultDevice = device;
}

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

FLASH_EXPORT CUmodule mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  ensureContext();
  CUmodule module = nullptr;
  CUDA_CHECK(cuModuleLoadData(&module, data));
  return module;
}

FLASH_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  ensureContext();
  CUmodule module = nullptr;
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CUDA_CHECK(cuModuleLoadDataEx(&module, data, 1, options, values));
  return module;
}

FLASH_EXPORT void mgpuModuleUnload(CUmodule module) {
  // Called from a global destructor: the driver may be shut down already.
  CUresult r = cuModuleUnload(module);
  if (r != CUDA_ERROR_DEINITIALIZED)
    check(r, "cuModuleUnload(module)");
}

FLASH_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module,
                                              const char *name) {
  CUfunction function = nullptr;
  CUDA_CHECK(cuModuleGetFunction(&function, module, name));
  return function;
}

/// The kernel parameters wider than a pointer: flash-mlir's tensor maps
/// (128-byte CUtensorMap by value, flash-tensor-map-params). The host code
/// passes each as a pointer to its bytes, the by-value convention of LLVM
/// (`byval`): params[i] then holds that pointer, and the driver, which
/// copies as many bytes as the kernel's parameter has from params[i], must
/// get the bytes themselves.
static void passByValue(CUfunction function, void **params, size_t count,
                        void **byValue) {
  for (size_t i = 0; i < count; ++i) {
    size_t offset = 0, size = 0;
    CUDA_CHECK(cuFuncGetParamInfo(function, i, &offset, &size));
    byValue[i] =
        size > sizeof(void *) ? *static_cast<void **>(params[i]) : params[i];
  }
}

FLASH_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                   intptr_t gridY, intptr_t gridZ,
                                   intptr_t blockX, intptr_t blockY,
                                   intptr_t blockZ, int32_t smem,
                                   CUstream stream, void **params, void **extra,
                                   size_t paramsCount) {
  ensureContext();
  void *byValue[64];
  if (paramsCount > 64) {
    std::fprintf(stderr,
                 "flash_cuda_runtime: %zu kernel parameters (at most "
                 "64)\n",
                 paramsCount);
    std::abort();
  }
  passByValue(function, params, paramsCount, byValue);
  params = byValue;
  if (smem > 48 * 1024) {
    // Dynamic shared memory beyond 48 KiB must be opted into.
    CUDA_CHECK(cuFuncSetAttribute(
        function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem));
  }
  // FLASH_CUDA_TIMING=1: each launch's device time on stderr (events around
  // it; synchronizes), to compare kernels with the Vulkan runtime's.
  static const bool timing = std::getenv("FLASH_CUDA_TIMING") != nullptr;
  CUevent start = nullptr, stop = nullptr;
  if (timing) {
    CUDA_CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
    CUDA_CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
    CUDA_CHECK(cuEventRecord(start, stream));
  }
  CUDA_CHECK(cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                            blockZ, smem, stream, params, extra));
  if (timing) {
    CUDA_CHECK(cuEventRecord(stop, stream));
    CUDA_CHECK(cuEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cuEventElapsedTime(&ms, start, stop));
    const char *name = "?";
    cuFuncGetName(&name, function);
    std::fprintf(stderr, "flash_cuda_runtime: %s %.3f ms\n", name,
                 static_cast<double>(ms));
    CUDA_CHECK(cuEventDestroy(start));
    CUDA_CHECK(cuEventDestroy(stop));
  }
}

/// A TMA tensor map of a contiguous [outer, rows, cols] buffer of
/// `eltBytes`-byte elements at `data`, in boxes of boxRows x boxCols
/// elements (boxCols * eltBytes = 128) stored in the 128-byte swizzle, the
/// elements outside the buffer read as zeros: what flash-map-to-gpu's host
/// code passes the kernels that copy tiles by TMA. Written to `map` (128
/// bytes, 64-byte aligned).
FLASH_EXPORT void flashTensorMapEncode(void *map, void *data, int64_t eltBytes,
                                       int64_t outer, int64_t rows,
                                       int64_t cols, int64_t boxCols,
                                       int64_t boxRows) {
  // An empty buffer (no data: a length of 0 at run time) is never read
  // (no tile of it is copied): its map stays zero, which the encoder
  // would reject.
  if (!data) {
    std::memset(map, 0, 128);
    return;
  }
  ensureContext();
  CUtensorMapDataType type = eltBytes == 1   ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                             : eltBytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                                             : CU_TENSOR_MAP_DATA_TYPE_UINT32;
  cuuint64_t dims[3] = {static_cast<cuuint64_t>(cols),
                        static_cast<cuuint64_t>(rows),
                        static_cast<cuuint64_t>(outer)};
  cuuint64_t strides[2] = {static_cast<cuuint64_t>(cols * eltBytes),
                           static_cast<cuuint64_t>(rows * cols * eltBytes)};
  cuuint32_t box[3] = {static_cast<cuuint32_t>(boxCols),
                       static_cast<cuuint32_t>(boxRows), 1};
  cuuint32_t elementStrides[3] = {1, 1, 1};
  CUDA_CHECK(cuTensorMapEncodeTiled(
      static_cast<CUtensorMap *>(map), type, 3, data, dims, strides, box,
      elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

FLASH_EXPORT CUstream mgpuStreamCreate() {
  ensureContext();
  CUstream stream = nullptr;
  CUDA_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  return stream;
}

FLASH_EXPORT void mgpuStreamDestroy(CUstream stream) {
  CUDA_CHECK(cuStreamDestroy(stream));
}

FLASH_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  CUDA_CHECK(cuStreamSynchronize(stream));
}

FLASH_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  CUDA_CHECK(cuStreamWaitEvent(stream, event, /*flags=*/0));
}

FLASH_EXPORT CUevent mgpuEventCreate() {
  ensureContext();
  CUevent event = nullptr;
  CUDA_CHECK(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  return event;
}

FLASH_EXPORT void mgpuEventDestroy(CUevent event) {
  CUDA_CHECK(cuEventDestroy(event));
}

FLASH_EXPORT void mgpuEventSynchronize(CUevent event) {
  CUDA_CHECK(cuEventSynchronize(event));
}

FLASH_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  CUDA_CHECK(cuEventRecord(event, stream));
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

FLASH_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, CUstream stream,
                                bool isHostShared) {
  ensureContext();
  if (sizeBytes == 0)
    return nullptr;
  CUdeviceptr ptr = 0;
  if (isHostShared)
    CUDA_CHECK(cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL));
  else
    CUDA_CHECK(cuMemAllocAsync(&ptr, sizeBytes, stream));
  return reinterpret_cast<void *>(ptr);
}

FLASH_EXPORT void mgpuMemFree(void *ptr, CUstream stream) {
  if (!ptr)
    return;
  auto dptr = reinterpret_cast<CUdeviceptr>(ptr);
  unsigned int managed = 0;
  CUDA_CHECK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                   dptr));
  if (managed) {
    // Managed (host_shared) memory has no stream-ordered free.
    if (stream)
      CUDA_CHECK(cuStreamSynchronize(stream));
    CUDA_CHECK(cuMemFree(dptr));
    return;
  }
  CUDA_CHECK(cuMemFreeAsync(dptr, stream));
}

FLASH_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                             CUstream stream) {
  CUDA_CHECK(cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                           reinterpret_cast<CUdeviceptr>(src), sizeBytes,
                           stream));
}

FLASH_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                               CUstream stream) {
  CUDA_CHECK(cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value,
                              count, stream));
}

FLASH_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count,
                               CUstream stream) {
  CUDA_CHECK(cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value,
                              count, stream));
}

/// Registers host memory of a memref (rank-erased descriptor) for device
/// access.
FLASH_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  ensureContext();
  CUDA_CHECK(cuMemHostRegister(ptr, sizeBytes, /*flags=*/0));
}

FLASH_EXPORT void mgpuMemHostUnregister(void *ptr) {
  CUDA_CHECK(cuMemHostUnregister(ptr));
}

namespace {
struct UnrankedDescriptor {
  int64_t rank;
  void *descriptor;
};
/// (allocated, aligned, offset, sizes[rank], strides[rank]) of a memref.
void hostRegion(int64_t rank, void *desc, int64_t elementSizeBytes,
                void *&ptr, uint64_t &bytes) {
  auto *words = static_cast<int64_t *>(desc);
  auto *aligned = reinterpret_cast<char *>(words[1]);
  int64_t offset = words[2];
  int64_t *sizes = words + 3;
  int64_t count = 1;
  for (int64_t i = 0; i < rank; ++i)
    count *= sizes[i];
  ptr = aligned + offset * elementSizeBytes;
  bytes = static_cast<uint64_t>(count * elementSizeBytes);
}
} // namespace

FLASH_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                            int64_t elementSizeBytes) {
  void *ptr;
  uint64_t bytes;
  hostRegion(rank, descriptor, elementSizeBytes, ptr, bytes);
  if (bytes)
    mgpuMemHostRegister(ptr, bytes);
}

FLASH_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                              int64_t elementSizeBytes) {
  void *ptr;
  uint64_t bytes;
  hostRegion(rank, descriptor, elementSizeBytes, ptr, bytes);
  if (bytes)
    mgpuMemHostUnregister(ptr);
}
