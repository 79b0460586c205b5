//===- attention_cpp.cpp - flash-mlir through its C++ API -----------------===//
//
// Parses attention.mlir, raises it (createFlashRaiseAttention), lowers it
// with buildFlashToCPUPipeline and an options struct, JIT-compiles it with
// MLIR's ExecutionEngine, runs it and compares it with the reference.
//
//===----------------------------------------------------------------------===//

#include "reference.h"

#include "flash/Dialect/Flash/IR/FlashOps.h"
#include "flash/Dialect/Flash/Transforms/Passes.h"
#include "flash/Pipelines/Pipelines.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <vector>

using namespace mlir;

static int fail(const llvm::Twine &what) {
  llvm::errs() << "attention-cpp: " << what << "\n";
  return 1;
}

int main(int argc, char **argv) {
  const char *input = argc > 1 ? argv[1] : CONSUMER_INPUT;
  // flash, upstream's dialects (those of the input among them) with their
  // interface models, and the translations to LLVM IR.
  DialectRegistry registry;
  flash::registerPipelineDependencies(registry);
  MLIRContext ctx(registry);

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(input, &ctx);
  if (!module)
    return fail("cannot parse the input");

  PassManager raise(&ctx);
  raise.addPass(flash::createFlashRaiseAttention());
  if (failed(raise.run(*module)))
    return fail("flash-raise-attention failed");
  int raised = 0;
  module->walk([&](flash::AttentionOp) { ++raised; });
  llvm::outs() << "attention-cpp: " << raised
               << " flash.attention after flash-raise-attention\n";
  if (raised != 1)
    return fail("the attention was not raised");

  // FA2 order, blocks that do not divide the sizes (77 queries, 93 keys).
  flash::FlashToCPUPipelineOptions options;
  options.blockQ = 32;
  options.blockKV = 16;
  PassManager lower(&ctx);
  flash::buildFlashToCPUPipeline(lower, options);
  if (failed(lower.run(*module)))
    return fail("flash-to-cpu failed");

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto optimize = makeOptimizingTransformer(3, 0, nullptr);
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = optimize;
  llvm::SmallVector<llvm::StringRef> libs{C_RUNNER_UTILS, OPENMP_RUNTIME};
  engineOptions.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(*module, engineOptions);
  if (!engine)
    return fail("cannot JIT-compile: " + llvm::toString(engine.takeError()));
  (*engine)->initialize();
  auto symbol = (*engine)->lookup("_mlir_ciface_attention");
  if (!symbol)
    return fail(llvm::toString(symbol.takeError()));
  auto attention = reinterpret_cast<void (*)(MemRef3D *, MemRef3D *,
                                             MemRef3D *, MemRef3D *)>(*symbol);

  std::vector<float> q(kBatch * kNq * kD), k(kBatch * kNk * kD),
      v(kBatch * kNk * kD), ref(q.size());
  fillInputs(q.data(), q.size(), 11);
  fillInputs(k.data(), k.size(), 12);
  fillInputs(v.data(), v.size(), 13);
  MemRef3D mq = memref3D(q.data(), kBatch, kNq, kD);
  MemRef3D mk = memref3D(k.data(), kBatch, kNk, kD);
  MemRef3D mv = memref3D(v.data(), kBatch, kNk, kD);
  MemRef3D mo;
  attention(&mo, &mq, &mk, &mv);
  referenceAttention(q.data(), k.data(), v.data(), ref.data());
  double err = maxError(mo.aligned, ref.data(), ref.size());
  llvm::outs() << "attention-cpp: max error " << llvm::format("%.3g", err)
               << "\n";
  std::free(mo.allocated);
  return err <= 2e-5 ? 0 : 1;
}
