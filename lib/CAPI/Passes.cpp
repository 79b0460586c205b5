//===- Passes.cpp - C API of the flash passes and pipelines ---------------===//

#include "flash-c/Passes.h"
#include "flash/Pipelines/Pipelines.h"

#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"

using namespace mlir;

void flashRegisterPasses(void) { flash::registerAllFlashPassesAndPipelines(); }

namespace {
/// Parses `options` into the pipeline's options struct and, when they
/// parse, builds the pipeline into `passManager`.
template <typename Options>
MlirLogicalResult
addPipeline(MlirOpPassManager passManager, MlirStringRef options,
            MlirStringCallback errorCallback, void *userData,
            void (*build)(OpPassManager &, const Options &)) {
  std::string message;
  llvm::raw_string_ostream errors(message);
  Options parsed;
  if (failed(parsed.parseFromString(unwrap(options), errors))) {
    if (errorCallback) {
      detail::CallbackOstream stream(errorCallback, userData);
      stream << message;
    }
    return wrap(failure());
  }
  build(*unwrap(passManager), parsed);
  return wrap(success());
}
} // namespace

MlirLogicalResult flashAddFlashToCPUPipeline(MlirOpPassManager passManager,
                                             MlirStringRef options,
                                             MlirStringCallback errorCallback,
                                             void *userData) {
  return addPipeline<flash::FlashToCPUPipelineOptions>(
      passManager, options, errorCallback, userData,
      flash::buildFlashToCPUPipeline);
}

MlirLogicalResult flashAddFlashToNVVMPipeline(MlirOpPassManager passManager,
                                              MlirStringRef options,
                                              MlirStringCallback errorCallback,
                                              void *userData) {
  return addPipeline<flash::FlashToNVVMPipelineOptions>(
      passManager, options, errorCallback, userData,
      flash::buildFlashToNVVMPipeline);
}

MlirLogicalResult flashAddFlashToSPIRVPipeline(MlirOpPassManager passManager,
                                               MlirStringRef options,
                                               MlirStringCallback errorCallback,
                                               void *userData) {
  return addPipeline<flash::FlashToSPIRVPipelineOptions>(
      passManager, options, errorCallback, userData,
      flash::buildFlashToSPIRVPipeline);
}
