/*===- attention_c.c - flash-mlir through the C API ----------------------===*/
/*                                                                          */
/* Registers the dialects and the flash passes, parses attention.mlir,     */
/* raises it (flash-raise-attention, by name), lowers it with              */
/* flashAddFlashToCPUPipeline, runs it with MLIR's ExecutionEngine and     */
/* compares it with the reference. Also builds (without running) the GPU   */
/* pipelines from option strings and prints them.                          */
/*                                                                          */
/*===----------------------------------------------------------------------===*/

#include "reference.h"

#include "flash-c/Dialects.h"
#include "flash-c/Passes.h"
#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printToStderr(MlirStringRef s, void *userData) {
  (void)userData;
  fwrite(s.data, 1, s.length, stderr);
}

static void printToStdout(MlirStringRef s, void *userData) {
  (void)userData;
  fwrite(s.data, 1, s.length, stdout);
}

static MlirWalkResult countAttention(MlirOperation op, void *userData) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length == 15 && !strncmp(name.data, "flash.attention", 15))
    ++*(int *)userData;
  return MlirWalkResultAdvance;
}

static char *readFile(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc(*size);
  if (fread(text, 1, *size, f) != *size) {
    free(text);
    text = NULL;
  }
  fclose(f);
  return text;
}

static int fail(const char *what) {
  fprintf(stderr, "attention-c: %s\n", what);
  return 1;
}

int main(int argc, char **argv) {
  const char *input = argc > 1 ? argv[1] : CONSUMER_INPUT;
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__flash__(), registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllLLVMTranslations(ctx);
  flashRegisterPasses();

  size_t size = 0;
  char *text = readFile(input, &size);
  if (!text)
    return fail("cannot read the input");
  MlirModule module = mlirModuleCreateParse(ctx, mlirStringRefCreate(text, size));
  free(text);
  if (mlirModuleIsNull(module))
    return fail("cannot parse the input");
  MlirOperation moduleOp = mlirModuleGetOperation(module);

  /* A bad option is an error, not a crash. */
  MlirPassManager bad = mlirPassManagerCreate(ctx);
  if (!mlirLogicalResultIsFailure(flashAddFlashToCPUPipeline(
          mlirPassManagerGetAsOpPassManager(bad),
          mlirStringRefCreateFromCString("loop-order=fa3"), printToStderr,
          NULL)))
    return fail("loop-order=fa3 was accepted");
  mlirPassManagerDestroy(bad);

  /* The GPU pipelines take their options the same way (built and printed,
     not run: no GPU needed). */
  MlirPassManager gpu = mlirPassManagerCreate(ctx);
  MlirOpPassManager gpuOpm = mlirPassManagerGetAsOpPassManager(gpu);
  if (mlirLogicalResultIsFailure(flashAddFlashToNVVMPipeline(
          gpuOpm, mlirStringRefCreateFromCString("chip=sm_80 format=isa"),
          printToStderr, NULL)) ||
      mlirLogicalResultIsFailure(flashAddFlashToSPIRVPipeline(
          gpuOpm, mlirStringRefCreateFromCString("client-api=opencl"),
          printToStderr, NULL)))
    return fail("the GPU pipelines' options were refused");
  mlirPrintPassPipeline(gpuOpm, printToStdout, NULL);
  printf("\n");
  mlirPassManagerDestroy(gpu);

  /* Raise, by the pass's registered name. */
  MlirPassManager raise = mlirPassManagerCreate(ctx);
  if (mlirLogicalResultIsFailure(mlirOpPassManagerAddPipeline(
          mlirPassManagerGetAsOpPassManager(raise),
          mlirStringRefCreateFromCString("flash-raise-attention"),
          printToStderr, NULL)) ||
      mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(raise, moduleOp)))
    return fail("flash-raise-attention failed");
  mlirPassManagerDestroy(raise);
  int raised = 0;
  mlirOperationWalk(moduleOp, countAttention, &raised, MlirWalkPreOrder);
  printf("attention-c: %d flash.attention after flash-raise-attention\n",
         raised);
  if (raised != 1)
    return fail("the attention was not raised");

  /* Lower to LLVM (FA1 order, blocks that do not divide the sizes). */
  MlirPassManager lower = mlirPassManagerCreate(ctx);
  if (mlirLogicalResultIsFailure(flashAddFlashToCPUPipeline(
          mlirPassManagerGetAsOpPassManager(lower),
          mlirStringRefCreateFromCString(
              "block-q=16 block-kv=32 loop-order=fa1"),
          printToStderr, NULL)) ||
      mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(lower, moduleOp)))
    return fail("flash-to-cpu failed");
  mlirPassManagerDestroy(lower);

  MlirStringRef libs[] = {mlirStringRefCreateFromCString(C_RUNNER_UTILS),
                          mlirStringRefCreateFromCString(OPENMP_RUNTIME)};
  MlirExecutionEngine jit = mlirExecutionEngineCreate(
      module, /*optLevel=*/3, 2, libs, /*enableObjectDump=*/false,
      /*enablePIC=*/false);
  if (mlirExecutionEngineIsNull(jit))
    return fail("cannot JIT-compile the lowered module");
  mlirExecutionEngineInitialize(jit);
  typedef void (*AttentionFn)(MemRef3D *, MemRef3D *, MemRef3D *,
                              MemRef3D *);
  AttentionFn attention = (AttentionFn)mlirExecutionEngineLookup(
      jit, mlirStringRefCreateFromCString("_mlir_ciface_attention"));
  if (!attention)
    return fail("no _mlir_ciface_attention");

  static float q[kBatch * kNq * kD], k[kBatch * kNk * kD],
      v[kBatch * kNk * kD], ref[kBatch * kNq * kD];
  fillInputs(q, kBatch * kNq * kD, 1);
  fillInputs(k, kBatch * kNk * kD, 2);
  fillInputs(v, kBatch * kNk * kD, 3);
  MemRef3D mq = memref3D(q, kBatch, kNq, kD), mk = memref3D(k, kBatch, kNk, kD),
           mv = memref3D(v, kBatch, kNk, kD), mo;
  attention(&mo, &mq, &mk, &mv);
  referenceAttention(q, k, v, ref);
  double err = maxError(mo.aligned, ref, kBatch * kNq * kD);
  printf("attention-c: max error %.3g\n", err);
  free(mo.allocated);

  mlirExecutionEngineDestroy(jit);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return err <= 2e-5 ? 0 : 1;
}
