//===- FlashDialect.cpp - The flash dialect -------------------------------===//

#include "flash/Dialect/Flash/IR/FlashDialect.h"
#include "flash/Dialect/Flash/IR/FlashOps.h"

using namespace mlir;
using namespace mlir::flash;

#include "flash/Dialect/Flash/IR/FlashDialect.cpp.inc"

/// A launch contract (flash.launch, or an entry of flash.kernels with
/// `named`: name and kind too).
static LogicalResult verifyContract(Operation *op, DictionaryAttr d,
                                    bool named) {
  auto fail = [&](const Twine &why) {
    return op->emitOpError("has an invalid launch contract: ") << why;
  };
  auto str = [&](StringRef key, ArrayRef<StringRef> allowed) -> LogicalResult {
    auto v = d.getAs<StringAttr>(key);
    if (!v)
      return fail("'" + key + "' must be a string");
    if (!allowed.empty() && !llvm::is_contained(allowed, v.getValue()))
      return fail("'" + key + "' is '" + v.getValue() + "'");
    return success();
  };
  auto positive = [&](StringRef key, bool optional) -> LogicalResult {
    Attribute a = d.get(key);
    if (!a && optional)
      return success();
    auto v = dyn_cast_or_null<IntegerAttr>(a);
    if (!v || v.getInt() <= 0)
      return fail("'" + key + "' must be a positive integer");
    return success();
  };
  auto names = [&](StringRef key) -> LogicalResult {
    auto v = d.getAs<ArrayAttr>(key);
    if (!v || !llvm::all_of(v, [](Attribute a) { return isa<StringAttr>(a); }))
      return fail("'" + key + "' must be an array of strings");
    return success();
  };
  if (failed(positive("block", false)) ||
      failed(positive("rows_per_block", false)) ||
      failed(str("rows", {"nq", "nk"})) ||
      failed(str("batch_heads", {"bh", "bhkv", "b"})) ||
      failed(names("args")) || failed(names("sizes")) ||
      failed(positive("scratch_per_block", true)) ||
      failed(positive("scratch_keys_per_word", true)) ||
      failed(positive("target_blocks", true)) ||
      failed(positive("min_blocks_x", true)) ||
      failed(positive("max_blocks_x", true)) ||
      failed(positive("persistent_blocks", true)))
    return failure();
  if (Attribute w = d.get("waits_for_previous"); w && !isa<BoolAttr>(w))
    return fail("'waits_for_previous' must be a bool");
  if (Attribute t = d.get("tensor_maps")) {
    // [buffer argument, box rows, box columns] each.
    auto maps = dyn_cast<ArrayAttr>(t);
    auto triple = [](Attribute a) {
      auto m = dyn_cast<ArrayAttr>(a);
      return m && m.size() == 3 && llvm::all_of(m, [](Attribute e) {
               auto v = dyn_cast<IntegerAttr>(e);
               return v && v.getInt() >= 0;
             });
    };
    if (!maps || !llvm::all_of(maps, triple))
      return fail("'tensor_maps' must be an array of [argument, box rows, "
                  "box columns] triples");
  }
  if (d.contains("target_blocks") != d.contains("max_blocks_x") ||
      d.contains("target_blocks") != d.contains("min_blocks_x"))
    return fail("'target_blocks', 'min_blocks_x' and 'max_blocks_x' go "
                "together");
  if (d.contains("persistent_blocks") && d.contains("target_blocks"))
    return fail("'persistent_blocks' and 'target_blocks' exclude each other");
  if (named && (failed(str("name", {})) || failed(str("kind", {}))))
    return failure();
  return success();
}

LogicalResult FlashDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  if (name == "flash.gpu_host") {
    if (!isa<UnitAttr>(value))
      return op->emitOpError("'flash.gpu_host' must be a unit attribute");
    return success();
  }
  if (name == "flash.kernel_kind") {
    if (!isa<StringAttr>(value))
      return op->emitOpError("'flash.kernel_kind' must be a string");
    return success();
  }
  if (name == "flash.tensor_maps") {
    // A kernel's tensor-map parameters (flash-tensor-map-params).
    if (!isa<DenseI64ArrayAttr>(value))
      return op->emitOpError("'flash.tensor_maps' must be an i64 array");
    return success();
  }
  if (name == "flash.launch") {
    auto d = dyn_cast<DictionaryAttr>(value);
    if (!d)
      return op->emitOpError("'flash.launch' must be a dictionary");
    return verifyContract(op, d, /*named=*/false);
  }
  if (name == "flash.kernels") {
    auto list = dyn_cast<ArrayAttr>(value);
    if (!list)
      return op->emitOpError("'flash.kernels' must be an array");
    for (Attribute a : list) {
      auto d = dyn_cast<DictionaryAttr>(a);
      if (!d)
        return op->emitOpError("'flash.kernels' must hold dictionaries");
      if (failed(verifyContract(op, d, /*named=*/true)))
        return failure();
    }
    return success();
  }
  return op->emitOpError("has an unknown flash attribute '") << name << "'";
}

void FlashDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "flash/Dialect/Flash/IR/FlashOps.cpp.inc"
      >();
}
