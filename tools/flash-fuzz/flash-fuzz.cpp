//===- flash-fuzz.cpp - libFuzzer target over flash-mlir's pipelines ------===//
//
// One fuzz input = one pipeline selector byte + MLIR text. The text is
// parsed with flash-opt's registry and, when it parses and verifies, run
// through the selected pipeline with the verifier after every pass; the
// result must verify whenever the pipeline succeeds. A crash, an assert, a
// sanitizer report, a pass that outlives libFuzzer's -timeout, or a
// successful pipeline whose output fails the verifier is a finding; a
// diagnostic (the input refused) is not. Diagnostics are swallowed.
//
// Built with -fsanitize=fuzzer (tools/flash-fuzz, with FLASH_FUZZ=ON our
// libraries get -fsanitize=fuzzer-no-link,address,undefined: coverage
// guidance through our passes; Debian's MLIR stays uninstrumented).
//
//===----------------------------------------------------------------------===//

#include "flash/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

using namespace mlir;

namespace {

/// The pipelines an input's first byte selects (modulo their number):
/// pass-pipeline strings over the parsed module.
const char *const kPipelines[] = {
    "builtin.module(flash-raise-attention{report=true})",
    "builtin.module(flash-raise-attention,flash-tile-attention{block-q=7 "
    "block-kv=5 loop-order=fa2})",
    "builtin.module(flash-raise-attention,flash-tile-attention{block-q=3 "
    "block-kv=11 loop-order=fa1})",
    "builtin.module(flash-raise-attention,flash-to-cpu{block-q=13 "
    "block-kv=6})",
    "builtin.module(flash-raise-attention,flash-map-to-gpu)",
    "builtin.module(flash-raise-attention,flash-to-nvvm{format=isa})",
    "builtin.module(flash-raise-attention,flash-to-spirv{kernels-only=1})",
};
constexpr size_t kNumPipelines = sizeof(kPipelines) / sizeof(kPipelines[0]);

struct Env {
  DialectRegistry registry;
  Env() {
    registerAllPasses();
    flash::registerAllFlashPassesAndPipelines();
    flash::registerPipelineDependencies(registry);
  }
};

Env &env() {
  static Env e;
  return e;
}

/// Whether `inside` (between the brackets) is a list of integers, as the
/// dense-array parser accepts it: empty, or comma-separated integers with
/// an optional minus sign, whitespace around them.
bool isIntegerList(llvm::StringRef inside) {
  if (inside.trim(" \t\n\r").empty())
    return true;
  llvm::SmallVector<llvm::StringRef> items;
  inside.split(items, ',');
  for (llvm::StringRef item : items) {
    item = item.trim(" \t\n\r");
    item.consume_front("-");
    if (item.empty() || item.find_first_not_of("0123456789") !=
                            llvm::StringRef::npos)
      return false;
  }
  return true;
}

/// Inputs that reach known crashes or hangs of upstream MLIR's parser
/// (docs/KNOWN-UPSTREAM-ISSUES.md; mlir-opt fails the same way): skipped,
/// so that the fuzzer spends its time on our code.
bool knownUpstreamIssue(llvm::StringRef text) {
  // 1. Anything but integers in a dense i64 array of an op's custom
  // syntax (`permutation = [1, ?]`, `dimensions = [1#x]`): segfault.
  for (size_t at = text.find("= ["); at != llvm::StringRef::npos;
       at = text.find("= [", at + 1)) {
    llvm::StringRef rest = text.drop_front(at + 3);
    if (rest.empty() || !(llvm::isDigit(rest.front()) || rest.front() == '-'))
      continue;
    llvm::StringRef inside = rest.take_until([](char c) { return c == ']'; });
    if (inside.size() == rest.size() ||
        inside.find_first_not_of("0123456789-, ") != llvm::StringRef::npos)
      return true;
  }
  // ... or no array at all after the keyword of such an attribute
  // (`dimensions = x[1]`): the same segfault.
  for (llvm::StringRef key : {"dimensions", "permutation"}) {
    for (size_t at = text.find(key); at != llvm::StringRef::npos;
         at = text.find(key, at + 1)) {
      // (Only the whitespace MLIR's lexer skips: a vertical tab before the
      // `[` fails the array's parse and crashes the same way.)
      llvm::StringRef rest = text.drop_front(at + key.size()).ltrim(" \t\n\r");
      if (!rest.consume_front("="))
        continue;
      rest = rest.ltrim(" \t\n\r");
      if (!rest.starts_with("[") && !rest.starts_with("array<"))
        return true;
      // ... or anything but a list of integers inside it (`dimensions =
      // [x]`, a control byte, `[0, 1,]`: the same segfault).
      if (rest.consume_front("[")) {
        llvm::StringRef inside =
            rest.take_until([](char c) { return c == ']'; });
        if (inside.size() == rest.size() || !isIntegerList(inside))
          return true;
      }
    }
  }
  // 2. A result number of 7 or more digits (`%r#999999999`): minutes in
  // the parser.
  for (size_t at = text.find('#'); at != llvm::StringRef::npos;
       at = text.find('#', at + 1)) {
    llvm::StringRef digits = text.drop_front(at + 1).take_while(
        [](char c) { return c >= '0' && c <= '9'; });
    if (digits.size() >= 7)
      return true;
  }
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2)
    return 0;
  Env &e = env();
  const char *pipeline = kPipelines[data[0] % kNumPipelines];
  std::string text(reinterpret_cast<const char *>(data + 1), size - 1);
  if (knownUpstreamIssue(text))
    return 0;

  MLIRContext ctx(e.registry, MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, ParserConfig(&ctx));
  if (!module || failed(verify(*module)))
    return 0;

  PassManager pm(&ctx);
  pm.enableVerifier(true);
  std::string err;
  llvm::raw_string_ostream es(err);
  if (failed(parsePassPipeline(pipeline, pm, es))) {
    llvm::errs() << "flash-fuzz: bad pipeline " << pipeline << ": " << err;
    abort();
  }
  if (succeeded(pm.run(*module)) && failed(verify(*module))) {
    // A pipeline that succeeded with invalid IR: a bug of ours.
    llvm::errs() << "flash-fuzz: " << pipeline
                 << " succeeded but its output does not verify\n";
    abort();
  }
  return 0;
}
