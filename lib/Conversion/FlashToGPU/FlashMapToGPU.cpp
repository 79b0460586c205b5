//===- FlashMapToGPU.cpp - flash ops -> GPU kernels + host glue -----------===//
//
// flash-map-to-gpu: every flash.attention / flash.attention_grad becomes
// launches of kernels in `gpu.module @flash_kernels`, built by the first
// kernel kind that takes the op (GPUKernels.h: the cooperative-matrix
// forward, the target's kinds such as NVVM's tensor-core kernels, SIMT),
// with host code around them. The host side (a private function per flash
// op, @flash_gpu_<n>, with the attribute flash.gpu_host) stages the
// operands in host-shared memory around the launches, so that the module
// runs under mlir-runner or compiled ahead of time, and frees the staging;
// flash-host-deallocation frees the callers' buffers. The Python front
// launches the same kernels on device pointers.
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToGPU/GPUKernels.h"
#include "flash/Dialect/Flash/IR/FlashOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

#include <cmath>
#include <limits>

namespace mlir {
namespace flash {
#define GEN_PASS_DEF_FLASHMAPTOGPU
#include "flash/Conversion/FlashToGPU/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

namespace {

/// The kernels' view of an operand: [B..., N, W] as rows [B... * N, W]
/// (`keep` trailing dims kept: 1 for q, k, v, o and their gradients, 0 for
/// lse and D, [B..., N] as [B... * N]).
Value asRows(OpBuilder &b, Location loc, Value m, int64_t keep) {
  auto ty = cast<MemRefType>(m.getType());
  int64_t r = ty.getRank();
  if (r == keep + 1)
    return m;
  ReassociationIndices lead;
  for (int64_t i = 0; i < r - keep; ++i)
    lead.push_back(i);
  SmallVector<ReassociationIndices> g{lead};
  if (keep)
    g.push_back({r - 1});
  return memref::CollapseShapeOp::create(b, loc, m, g).getResult();
}

/// Whether kernel buffer `name` (of a launch contract's `args`) has the
/// keys' rows (Nk per batch-head), not the queries'.
bool rowsOfKeys(StringRef name) {
  return name == "k" || name == "v" || name == "dk" || name == "dv";
}

/// The position of buffer `name` among a kernel's buffer arguments.
int64_t bufferIndex(ArrayRef<std::string> names, StringRef name) {
  auto it = llvm::find(names, name);
  assert(it != names.end() && "a tensor map of a buffer the kernels take");
  return it - names.begin();
}

/// Writes `tensor` into `dst` (its shape) element by element through
/// `convert` (one linalg.generic).
void convertInto(OpBuilder &b, Location loc, Value tensor, Value dst,
                 function_ref<Value(OpBuilder &, Location, Value)> convert) {
  auto tTy = cast<RankedTensorType>(tensor.getType());
  int64_t r = tTy.getRank();
  Value src = bufferization::ToBufferOp::create(
      b, loc, MemRefType::get(tTy.getShape(), tTy.getElementType()), tensor,
      /*readOnly=*/true);
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(r));
  SmallVector<utils::IteratorType> iters(r, utils::IteratorType::parallel);
  linalg::GenericOp::create(
      b, loc, TypeRange{}, ValueRange{src}, ValueRange{dst}, maps, iters,
      [&](OpBuilder &nb, Location nl, ValueRange a) {
        linalg::YieldOp::create(nb, nl, convert(nb, nl, a[0]));
      });
}

/// Writes the mask into `dst` (managed memory, the mask's shape, f32) as the
/// kernels add it: an i1 keep-mask as 0 / -inf, a float mask widened.
void toF32Into(OpBuilder &b, Location loc, Value mask, Value dst) {
  convertInto(b, loc, mask, dst, [](OpBuilder &nb, Location nl, Value x) {
    if (x.getType().isInteger(1))
      return arith::SelectOp::create(
                 nb, nl, x,
                 arith::ConstantOp::create(nb, nl, nb.getF32FloatAttr(0)),
                 arith::ConstantOp::create(
                     nb, nl,
                     nb.getF32FloatAttr(-std::numeric_limits<float>::infinity())))
          .getResult();
    if (!x.getType().isF32())
      return arith::ExtFOp::create(nb, nl, nb.getF32Type(), x).getResult();
    return x;
  });
}

/// Host code around kernel launches: operands staged in managed memory,
/// results copied back into fresh host buffers, staging freed.
struct HostGlue {
  OpBuilder &b;
  Location loc;
  MLIRContext *ctx;
  SmallVector<Value> staged;

  Value c(int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  }
  /// The dynamic sizes of `shaped` (a tensor or a memref), for allocating
  /// its like.
  SmallVector<Value> dynamicSizes(Value shaped) {
    SmallVector<Value> sizes;
    auto ty = cast<ShapedType>(shaped.getType());
    for (int64_t i = 0; i < ty.getRank(); ++i) {
      if (!ty.isDynamicDim(i))
        continue;
      if (isa<TensorType>(ty))
        sizes.push_back(tensor::DimOp::create(b, loc, shaped, i));
      else
        sizes.push_back(memref::DimOp::create(b, loc, shaped, i));
    }
    return sizes;
  }
  /// Host-shared memory of type `mt` (the sizes of its dynamic dims).
  Value alloc(MemRefType mt, ValueRange sizes = {}) {
    Value dev =
        gpu::AllocOp::create(b, loc, mt, Type(), ValueRange{}, sizes,
                             ValueRange{}, b.getUnitAttr())
            .getMemref();
    staged.push_back(dev);
    return dev;
  }
  /// Host-shared memory shaped like `tensor` (`dropLast`: without its last
  /// dim), of element type `elt` (the tensor's by default).
  Value allocLike(Value tensor, bool dropLast = false, Type elt = {}) {
    auto tt = cast<RankedTensorType>(tensor.getType());
    ArrayRef<int64_t> shape = tt.getShape();
    SmallVector<Value> sizes = dynamicSizes(tensor);
    if (dropLast) {
      if (tt.isDynamicDim(tt.getRank() - 1))
        sizes.pop_back();
      shape = shape.drop_back();
    }
    return alloc(MemRefType::get(shape, elt ? elt : tt.getElementType()),
                 sizes);
  }
  Value in(Value tensor) {
    auto tt = cast<RankedTensorType>(tensor.getType());
    auto mt = MemRefType::get(tt.getShape(), tt.getElementType());
    Value host = bufferization::ToBufferOp::create(b, loc, mt, tensor,
                                                   /*readOnly=*/true);
    Value dev = allocLike(tensor);
    memref::CopyOp::create(b, loc, host, dev);
    return dev;
  }
  /// The mask staged as the kernels read it: f32 in its own shape (the
  /// kernels index broadcast dims with stride 0), flattened.
  Value mask(Value maskTensor) {
    auto mTy = cast<RankedTensorType>(maskTensor.getType());
    Value dev = allocLike(maskTensor, /*dropLast=*/false, b.getF32Type());
    toF32Into(b, loc, maskTensor, dev);
    ReassociationIndices all;
    for (int64_t i = 0; i < mTy.getRank(); ++i)
      all.push_back(i);
    return memref::CollapseShapeOp::create(
               b, loc, dev, SmallVector<ReassociationIndices>{all})
        .getResult();
  }
  /// A captured operand staged as the kernels read it (captureType): its
  /// elements in its own shape (index widened to i64, i1 to i8),
  /// flattened.
  Value capture(Value tensor) {
    auto tTy = cast<RankedTensorType>(tensor.getType());
    MemRefType flat = gpukernels::captureType(ctx, tTy);
    Value dev = alloc(MemRefType::get(tTy.getShape(), flat.getElementType()),
                      dynamicSizes(tensor));
    Type e = flat.getElementType();
    convertInto(b, loc, tensor, dev, [&](OpBuilder &nb, Location nl, Value x) {
      if (x.getType().isIndex())
        return arith::IndexCastOp::create(nb, nl, e, x).getResult();
      if (x.getType().isInteger(1))
        return arith::ExtUIOp::create(nb, nl, e, x).getResult();
      return x;
    });
    int64_t r = tTy.getRank();
    if (r == 1)
      return dev;
    if (r == 0)
      return memref::ExpandShapeOp::create(b, loc, flat, dev,
                                           ArrayRef<ReassociationIndices>{})
          .getResult();
    ReassociationIndices all;
    for (int64_t i = 0; i < r; ++i)
      all.push_back(i);
    return memref::CollapseShapeOp::create(
               b, loc, dev, SmallVector<ReassociationIndices>{all})
        .getResult();
  }
  /// A tensor staged as a flat buffer of dynamic length (an fp8 op's
  /// descale factors: memref<?xf32>).
  Value flat(Value tensor) {
    auto tTy = cast<RankedTensorType>(tensor.getType());
    Value dev = in(tensor);
    int64_t r = tTy.getRank();
    auto flatTy = MemRefType::get({ShapedType::kDynamic}, tTy.getElementType());
    if (r == 0)
      dev = memref::ExpandShapeOp::create(
                b, loc, MemRefType::get({1}, tTy.getElementType()), dev,
                ArrayRef<ReassociationIndices>{})
                .getResult();
    else if (r > 1) {
      ReassociationIndices all;
      for (int64_t i = 0; i < r; ++i)
        all.push_back(i);
      dev = memref::CollapseShapeOp::create(
                b, loc, dev, SmallVector<ReassociationIndices>{all})
                .getResult();
    }
    return memref::CastOp::create(b, loc, flatTy, dev).getResult();
  }
  /// The tensor map `tm` of kernel buffer `buf` ([X * rows, cols] as
  /// [X, rows, cols]): 128 bytes on the stack, which the runtime's
  /// flashTensorMapEncode fills (CUDA's cuTensorMapEncodeTiled) and
  /// mgpuLaunchKernel passes by value (the kernel's parameter is that
  /// wide). Sizes of 0 (an empty grid: nothing is launched) count as 1.
  Value tensorMap(Value buf, Value rows, const KernelSpec::TensorMap &tm) {
    ModuleOp module = b.getBlock()->getParentOp()->getParentOfType<ModuleOp>();
    auto ptrTy = LLVM::LLVMPointerType::get(ctx);
    auto i64 = b.getI64Type();
    const char *name = "flashTensorMapEncode";
    if (!module.lookupSymbol(name)) {
      OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
      auto fnTy = FunctionType::get(
          ctx, {ptrTy, b.getIndexType(), i64, i64, i64, i64, i64, i64}, {});
      func::FuncOp::create(mb, loc, name, fnTy).setPrivate();
    }
    auto ty = cast<MemRefType>(buf.getType());
    Value map = LLVM::AllocaOp::create(
        b, loc, ptrTy, LLVM::LLVMArrayType::get(i64, 16),
        arith::ConstantIntOp::create(b, loc, i64, 1), /*alignment=*/64);
    SmallVector<Value> operands{
        map, memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buf)};
    auto i64c = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(b, loc, i64, v);
    };
    operands.push_back(i64c(ty.getElementTypeBitWidth() / 8));
    rows = arith::MaxUIOp::create(b, loc, rows, c(1));
    Value all = arith::MaxUIOp::create(
        b, loc, memref::DimOp::create(b, loc, buf, 0), c(1));
    Value cols = memref::DimOp::create(b, loc, buf, 1);
    for (Value d :
         {Value(arith::DivUIOp::create(b, loc, all, rows)), rows, cols})
      operands.push_back(arith::IndexCastOp::create(b, loc, i64, d));
    operands.push_back(i64c(tm.boxCols));
    operands.push_back(i64c(tm.boxRows));
    func::CallOp::create(b, loc, name, TypeRange{}, operands);
    return map;
  }
  /// Launches `name` on grid (gx, gy) and waits for it; with dynamic
  /// sizes, only when the grid is not empty.
  void launch(StringRef name, Value gx, Value gy, int64_t threads,
              ValueRange args, bool guard) {
    auto sym = SymbolRefAttr::get(ctx, "flash_kernels",
                                  {FlatSymbolRefAttr::get(ctx, name)});
    auto emit = [&](OpBuilder &lb) {
      Value t0 = gpu::WaitOp::create(lb, loc, gpu::AsyncTokenType::get(ctx),
                                     ValueRange{})
                     .getAsyncToken();
      Value one = arith::ConstantIndexOp::create(lb, loc, 1);
      auto l = gpu::LaunchFuncOp::create(
          lb, loc, sym, gpu::KernelDim3{gx, gy, one},
          gpu::KernelDim3{arith::ConstantIndexOp::create(lb, loc, threads),
                          one, one},
          Value(), args, gpu::AsyncTokenType::get(ctx), ValueRange{t0});
      gpu::WaitOp::create(lb, loc, Type(), ValueRange{l.getAsyncToken()});
    };
    if (!guard) {
      emit(b);
      return;
    }
    Value zero = c(0);
    Value some = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, gx, zero),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, gy, zero));
    scf::IfOp::create(b, loc, some, [&](OpBuilder &ib, Location il) {
      emit(ib);
      scf::YieldOp::create(ib, il);
    });
  }
  Value out(Value dev) {
    auto mt = cast<MemRefType>(dev.getType());
    Value host = memref::AllocOp::create(b, loc, mt, dynamicSizes(dev));
    memref::CopyOp::create(b, loc, dev, host);
    return bufferization::ToTensorOp::create(
               b, loc,
               RankedTensorType::get(mt.getShape(), mt.getElementType()), host,
               /*restrict=*/true, /*writable=*/true)
        .getResult();
  }
  /// Frees the staging buffers (gpu-to-llvm wants async deallocs).
  void freeAll() {
    Value t =
        gpu::WaitOp::create(b, loc, gpu::AsyncTokenType::get(ctx), ValueRange{})
            .getAsyncToken();
    for (Value dev : staged)
      t = gpu::DeallocOp::create(b, loc, gpu::AsyncTokenType::get(ctx),
                                 ValueRange{t}, dev)
              .getAsyncToken();
    gpu::WaitOp::create(b, loc, Type(), ValueRange{t});
  }
};

/// The flattened problem of an attention op (both ops share the operands'
/// meaning), or failure with a diagnostic. Batch dims and sequence lengths
/// may be dynamic (the kernels then take them as size arguments).
template <typename OpT>
FailureOr<KernelSpec> specOf(OpT op, int64_t threads, int64_t tile) {
  auto qTy = op.getQuery().getType();
  auto kTy = op.getKey().getType();
  auto vTy = op.getValue().getType();
  int64_t rank = qTy.getRank();
  for (auto ty : {qTy, kTy, vTy})
    if (ty.isDynamicDim(rank - 1) || (rank >= 3 && ty.isDynamicDim(rank - 3)))
      return op.emitOpError("needs static head counts and head dims on the "
                            "GPU path");
  const int64_t dyn = ShapedType::kDynamic;
  auto mul = [&](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) ? dyn : a * b;
  };
  KernelSpec s;
  s.nq = qTy.getDimSize(rank - 2);
  s.nk = kTy.getDimSize(rank - 2);
  s.d = qTy.getDimSize(rank - 1);
  s.dv = vTy.getDimSize(rank - 1);
  s.hq = rank >= 3 ? qTy.getDimSize(rank - 3) : 1;
  s.hkv = rank >= 3 ? kTy.getDimSize(rank - 3) : 1;
  s.bh = 1;
  for (int64_t i = 0; i < rank - 2; ++i)
    s.bh = mul(s.bh, qTy.getDimSize(i));
  s.elt = qTy.getElementType();
  s.outElt =
      cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
  if constexpr (std::is_same_v<OpT, AttentionOp>) {
    s.descale = !op.getDescales().empty();
    s.descalePerHead =
        s.descale &&
        cast<RankedTensorType>(op.getQueryDescale().getType()).getRank() != 0;
  }
  s.scale = op.getScaleValue();
  s.causalOffset = staticCausalOffset(op, s.nq, s.nk);
  s.threads = threads;
  s.tile = tile;
  s.lead.assign(qTy.getShape().begin(), qTy.getShape().end() - 2);
  s.scoreMod = op.getScoreModRegion();
  s.maskMod = op.getMaskModRegion();
  for (Value c : op.getCaptures())
    s.captures.push_back(cast<RankedTensorType>(c.getType()));
  if (Value mask = op.getMask()) {
    // Row-major strides of the mask, aligned to the trailing dims of
    // [B..., H, Nq, Nk]; 0 along its dims of size 1 (broadcast), dynamic
    // where a size they depend on is (the host computes those: maskStrides).
    auto mTy = cast<RankedTensorType>(mask.getType());
    int64_t r = s.lead.size() + 2, mr = mTy.getRank();
    SmallVector<int64_t> strides(r, 0);
    int64_t stride = 1;
    for (int64_t i = mr - 1; i >= 0; --i) {
      int64_t m = mTy.getDimSize(i);
      strides[i + (r - mr)] = m == 1 ? 0 : ShapedType::isDynamic(m) ? dyn : stride;
      stride = mul(stride, m);
    }
    s.mask = true;
    s.maskSize = stride;
    s.maskLeadStrides.assign(strides.begin(), strides.end() - 2);
    s.maskRowStride = strides[r - 2];
    s.maskKeyStride = strides[r - 1];
  }
  if (s.nq == 0 || s.nk == 0 || s.bh == 0)
    return op.emitOpError("empty attention is not supported on the GPU path");
  return s;
}

/// A mapped op's sizes on the host: Nq, Nk, BH, BHkv, and the values of
/// the kernels' size arguments (the dynamic ones of KernelSpec::sizeList).
struct RuntimeSizes {
  Value nq, nk, bh, bhkv;
  SmallVector<Value> args;
};

RuntimeSizes runtimeSizes(OpBuilder &b, Location loc, const KernelSpec &s,
                          Value q, Value k, Value mask, ValueRange captures) {
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  auto dim = [&](Value t, int64_t i) -> Value {
    auto ty = cast<RankedTensorType>(t.getType());
    if (!ty.isDynamicDim(i))
      return c(ty.getDimSize(i));
    return tensor::DimOp::create(b, loc, t, i);
  };
  // Folded where static (launch grids of constants).
  auto mul = [&](Value x, Value y) -> Value {
    return b.createOrFold<arith::MulIOp>(loc, x, y);
  };
  int64_t rank = cast<RankedTensorType>(q.getType()).getRank();
  RuntimeSizes r;
  r.nq = dim(q, rank - 2);
  r.nk = dim(k, rank - 2);
  SmallVector<Value> all{r.nq, r.nk};
  r.bh = c(1);
  for (int64_t i = 0; i < rank - 2; ++i) {
    all.push_back(dim(q, i));
    r.bh = mul(r.bh, all.back());
  }
  r.bhkv = b.createOrFold<arith::DivUIOp>(loc, r.bh, c(s.hq / s.hkv));
  if (s.mask) {
    // As specOf: 0 along size-1 dims (a dynamic one may be 1 at run time).
    auto mTy = cast<RankedTensorType>(mask.getType());
    int64_t full = rank, mr = mTy.getRank();
    SmallVector<Value> strides(full, c(0));
    Value stride = c(1);
    for (int64_t i = mr - 1; i >= 0; --i) {
      Value m = dim(mask, i);
      int64_t j = i + (full - mr);
      if (mTy.getDimSize(i) != 1)
        strides[j] = mTy.isDynamicDim(i)
                         ? arith::SelectOp::create(
                               b, loc,
                               arith::CmpIOp::create(
                                   b, loc, arith::CmpIPredicate::eq, m, c(1)),
                               c(0), stride)
                               .getResult()
                         : stride;
      stride = mul(stride, m);
    }
    llvm::append_range(all, strides);
  }
  for (Value t : captures)
    for (int64_t d = 1; d < cast<RankedTensorType>(t.getType()).getRank(); ++d)
      all.push_back(dim(t, d));
  for (auto [v, size] : llvm::zip_equal(all, s.sizeList()))
    if (ShapedType::isDynamic(size))
      r.args.push_back(v);
  return r;
}

/// A kernel's launch contract for the module's flash.kernels: its name,
/// kind and flash.launch entries.
Attribute kernelContract(gpu::GPUFuncOp fn) {
  MLIRContext *ctx = fn.getContext();
  SmallVector<NamedAttribute> entries{
      {StringAttr::get(ctx, "name"), StringAttr::get(ctx, fn.getName())},
      {StringAttr::get(ctx, "kind"), fn->getAttr("flash.kernel_kind")}};
  llvm::append_range(entries,
                     cast<DictionaryAttr>(fn->getAttr("flash.launch")).getValue());
  return DictionaryAttr::get(ctx, entries);
}

struct FlashMapToGPUPass : flash::impl::FlashMapToGPUBase<FlashMapToGPUPass> {
  using FlashMapToGPUBase::FlashMapToGPUBase;
  FlashMapToGPUPass(const FlashMapToGPUOptions &options, KernelKinds target)
      : FlashMapToGPUBase(options), targetKinds(std::move(target)) {}

  /// The target's kernel kinds (tried after the cooperative-matrix forward,
  /// before SIMT).
  KernelKinds targetKinds;

  void getDependentDialects(DialectRegistry &registry) const override {
    FlashMapToGPUBase::getDependentDialects(registry);
    for (const auto &k : targetKinds)
      k->getDependentDialects(registry);
  }

  FlashMapToGPUOptions options() const {
    FlashMapToGPUOptions o;
    o.threads = threads;
    o.tileKV = tileKV;
    o.tensorCores = tensorCores;
    o.mmaWarps = mmaWarps;
    o.mmaTileKV = mmaTileKV;
    o.mmaMaxRegisters = mmaMaxRegisters;
    o.cooperativeMatrix = cooperativeMatrix;
    o.wgmma = wgmma;
    o.warpSpecialize = warpSpecialize;
    o.deterministic = deterministic;
    o.persistentBlocks = persistentBlocks;
    o.persistentCaptures = persistentCaptures;
    o.fmaExp2 = fmaExp2;
    o.mergeMaskedTiles = mergeMaskedTiles;
    o.gradD256 = gradD256;
    o.gradAShared = gradAShared;
    o.gradProducer = gradProducer;
    o.rowLanes = rowLanes;
    o.gradRowLanes = gradRowLanes;
    o.maxWorkgroupMemory = maxWorkgroupMemory;
    o.splitKV = splitKV;
    o.splitKVBlocks = splitKVBlocks;
    o.vectorLoadBytes = vectorLoadBytes;
    o.subgroupSize = subgroupSize;
    return o;
  }

  /// Moves `op` into a private function of its own, `@flash_gpu_<id>`
  /// (operands in, results out, attribute flash.gpu_host), called in its
  /// place; returns the moved op. Its host glue is then built there, apart
  /// from the caller, so that the caller can get ownership-based buffer
  /// deallocation (flash-host-deallocation), which the GPU host ops would
  /// make fail.
  Operation *outlineHostGlue(Operation *op, int &id, Operation *before) {
    ModuleOp module = getOperation();
    Location loc = op->getLoc();
    std::string name;
    do
      name = "flash_gpu_" + std::to_string(id++);
    while (module.lookupSymbol(name));
    OpBuilder mb(before);
    auto fnTy = FunctionType::get(&getContext(), op->getOperandTypes(),
                                  op->getResultTypes());
    auto fn = func::FuncOp::create(mb, loc, name, fnTy);
    fn.setPrivate();
    fn->setAttr("flash.gpu_host", mb.getUnitAttr());
    Block *entry = fn.addEntryBlock();
    OpBuilder fb = OpBuilder::atBlockEnd(entry);
    IRMapping map;
    map.map(op->getOperands(), entry->getArguments());
    Operation *moved = fb.clone(*op, map);
    func::ReturnOp::create(fb, loc, moved->getResults());
    OpBuilder cb(op);
    auto call = func::CallOp::create(cb, loc, fn, op->getOperands());
    op->replaceAllUsesWith(call.getResults());
    op->erase();
    return moved;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<AttentionOp, AttentionGradOp>(op))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    if ((mmaWarps != 0 && mmaWarps != 4 && mmaWarps != 8) ||
        (mmaTileKV != 0 && mmaTileKV != 32 && mmaTileKV != 64 &&
         mmaTileKV != 128) ||
        (mmaMaxRegisters != 0 &&
         (mmaMaxRegisters < 64 || mmaMaxRegisters > 255))) {
      module.emitError("flash-map-to-gpu: mma-warps must be 4 or 8, "
                       "mma-tile-kv 32, 64 or 128 (0: by head dim), "
                       "mma-max-registers 64..255 (0: by block size)");
      return signalPassFailure();
    }
    if (threads <= 0 || tileKV <= 0 || splitKVBlocks <= 0) {
      module.emitError("flash-map-to-gpu: threads, tile-kv and "
                       "split-kv-blocks must be positive");
      return signalPassFailure();
    }
    for (int64_t l : {int64_t(rowLanes), int64_t(gradRowLanes)})
      if (l < 0 || l > 32 || (l & (l - 1))) {
        module.emitError("flash-map-to-gpu: row-lanes and grad-row-lanes "
                         "must be powers of 2 up to 32 (0: by head dim)");
        return signalPassFailure();
      }
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(ctx));
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(mb, module.getLoc(), "flash_kernels");
    FlashMapToGPUOptions opts = options();
    SmallVector<std::shared_ptr<const KernelKind>> kinds;
    for (const auto &k : targetKinds)
      if (k->first())
        kinds.push_back(k);
    kinds.push_back(splitKVKind());
    kinds.push_back(coopMatrixKind());
    for (const auto &k : targetKinds)
      if (!k->first())
        kinds.push_back(k);
    kinds.push_back(simtKind());
    int counter = 0;
    int glueCounter = 0;
    SmallVector<Attribute> contracts;
    for (Operation *op : ops) {
      FailureOr<KernelSpec> s =
          isa<AttentionOp>(op)
              ? specOf(cast<AttentionOp>(op), threads, tileKV)
              : specOf(cast<AttentionGradOp>(op), threads, tileKV);
      if (failed(s))
        return signalPassFailure();
      if (auto grad = dyn_cast<AttentionGradOp>(op))
        s->orderFixed = grad.getDeterministic();
      s->splitBlocks = opts.splitKVBlocks;
      op = outlineHostGlue(op, glueCounter, gpuModule);
      // The regions of the moved op (specOf saw the original's).
      if (auto fwd = dyn_cast<AttentionOp>(op)) {
        s->scoreMod = fwd.getScoreModRegion();
        s->maskMod = fwd.getMaskModRegion();
      } else {
        auto grad = cast<AttentionGradOp>(op);
        s->scoreMod = grad.getScoreModRegion();
        s->maskMod = grad.getMaskModRegion();
      }
      OpBuilder kb = OpBuilder::atBlockEnd(gpuModule.getBody());
      OpBuilder b(op);
      HostGlue host{b, op->getLoc(), ctx, {}};
      auto f32 = b.getF32Type();
      bool backward = isa<AttentionGradOp>(op);
      std::string id = std::to_string(counter++);
      SmallVector<std::string> names;
      if (backward)
        names = {"flash_attention_grad_dq_" + id,
                 "flash_attention_grad_dkdv_" + id};
      else
        names = {"flash_attention_" + id};
      // The first kind that takes the op.
      SmallVector<MappedKernel> kernels;
      for (const auto &k : kinds) {
        KernelSpec t = *s;
        if (!k->applies(t, opts, backward))
          continue;
        FailureOr<SmallVector<MappedKernel>> built =
            k->build(kb, op, names, t, opts, backward);
        if (failed(built))
          return signalPassFailure();
        if (built->empty())
          continue;
        kernels = std::move(*built);
        *s = t;
        break;
      }
      if (kernels.empty()) {
        // (Only fp8 ops are refused by every kind.)
        op->emitOpError("has no GPU kernel for this fp8 configuration: the "
                        "wgmma fp8 forward takes head dims D = Dv = 128 on "
                        "sm_90a, without a document mask");
        return signalPassFailure();
      }
      // The launch contract, for tools that launch the kernels themselves
      // (the Python front): block size, grid (ceil(rows / rows_per_block),
      // batch-heads), the size arguments after the buffers, the scratch.
      SmallVector<Attribute> sizeNames;
      for (const std::string &n : s->sizeArgNames())
        sizeNames.push_back(StringAttr::get(ctx, n));
      auto i64 = [&](int64_t v) {
        return IntegerAttr::get(IntegerType::get(ctx, 64), v);
      };
      // The buffer arguments' names (the size arguments follow them).
      SmallVector<std::string> argNames =
          backward ? SmallVector<std::string>{"q", "k", "v", "o", "lse", "do",
                                              "dq", "delta"}
                   : SmallVector<std::string>{"q", "k", "v", "o", "lse"};
      SmallVector<std::string> kvArgNames{"q",  "k",     "v",  "lse",
                                          "do", "delta", "dk", "dv"};
      auto ownsScratch = [](const MappedKernel &k) {
        return k.scratchPerBlock || k.scratchKeysPerWord;
      };
      bool hasScratch = llvm::any_of(kernels, ownsScratch);
      auto argsAttr = [&](ArrayRef<std::string> first) {
        SmallVector<Attribute> all;
        for (const std::string &n : first)
          all.push_back(StringAttr::get(ctx, n));
        if (s->mask)
          all.push_back(StringAttr::get(ctx, "mask"));
        for (size_t c = 0; c < s->captures.size(); ++c)
          all.push_back(StringAttr::get(ctx, "capture" + std::to_string(c)));
        if (s->descale)
          for (const char *n : {"q_descale", "k_descale", "v_descale"})
            all.push_back(StringAttr::get(ctx, n));
        if (hasScratch)
          all.push_back(StringAttr::get(ctx, "scratch"));
        return ArrayAttr::get(ctx, all);
      };
      // The backward's kernels over keys (dK/dV; by default the last) take
      // their own buffers, the others (a block mask, dQ) the dQ kernel's.
      SmallVector<bool> takesKV;
      for (auto [i, k] : llvm::enumerate(kernels)) {
        bool keys = backward &&
                    (k.rows.empty() ? i + 1 == kernels.size() : k.rows == "nk");
        takesKV.push_back(keys);
        if (k.rows.empty())
          k.rows = keys ? "nk" : "nq";
        if (k.batchHeads.empty())
          k.batchHeads = keys ? "bhkv" : "bh";
        k.fn->setAttr("flash.kernel_kind", StringAttr::get(ctx, k.kind));
        SmallVector<NamedAttribute> launch = {
            {StringAttr::get(ctx, "block"), i64(k.threads)},
            {StringAttr::get(ctx, "rows"), StringAttr::get(ctx, k.rows)},
            {StringAttr::get(ctx, "rows_per_block"), i64(k.rowsPerBlock)},
            {StringAttr::get(ctx, "batch_heads"),
             StringAttr::get(ctx, k.batchHeads)},
            {StringAttr::get(ctx, "args"),
             argsAttr(keys ? ArrayRef<std::string>(kvArgNames)
                           : ArrayRef<std::string>(argNames))},
            {StringAttr::get(ctx, "sizes"), ArrayAttr::get(ctx, sizeNames)}};
        if (k.targetBlocks) {
          launch.push_back({StringAttr::get(ctx, "target_blocks"),
                            i64(k.targetBlocks)});
          launch.push_back({StringAttr::get(ctx, "min_blocks_x"),
                            i64(k.minBlocksX)});
          launch.push_back({StringAttr::get(ctx, "max_blocks_x"),
                            i64(k.maxBlocksX)});
        }
        if (k.persistentBlocks)
          launch.push_back({StringAttr::get(ctx, "persistent_blocks"),
                            i64(k.persistentBlocks)});
        if (k.scratchPerBlock)
          launch.push_back({StringAttr::get(ctx, "scratch_per_block"),
                            i64(k.scratchPerBlock)});
        if (k.scratchKeysPerWord)
          launch.push_back({StringAttr::get(ctx, "scratch_keys_per_word"),
                            i64(k.scratchKeysPerWord)});
        if (k.waitsForPrevious)
          launch.push_back({StringAttr::get(ctx, "waits_for_previous"),
                            BoolAttr::get(ctx, true)});
        // The tensor maps after the sizes: [buffer argument, box rows, box
        // columns] each; the kernels' parameters marked for the NVVM
        // lowering (flash-tensor-map-params: 128 bytes by value).
        if (!s->tensorMaps.empty()) {
          SmallVector<Attribute> maps;
          SmallVector<int64_t> params;
          int64_t first = k.fn.getNumArguments() - s->tensorMaps.size();
          for (auto [i, tm] : llvm::enumerate(s->tensorMaps)) {
            maps.push_back(ArrayAttr::get(
                ctx, {i64(bufferIndex(keys ? ArrayRef<std::string>(kvArgNames)
                                           : ArrayRef<std::string>(argNames),
                                      tm.buffer)),
                      i64(tm.boxRows), i64(tm.boxCols)}));
            params.push_back(first + i);
          }
          launch.push_back(
              {StringAttr::get(ctx, "tensor_maps"), ArrayAttr::get(ctx, maps)});
          k.fn->setAttr("flash.tensor_maps",
                        DenseI64ArrayAttr::get(ctx, params));
        }
        k.fn->setAttr("flash.launch", DictionaryAttr::get(ctx, launch));
        contracts.push_back(kernelContract(k.fn));
      }

      // The sizes at run time (constants where static): lengths, batch
      // dims, the mask's strides; the kernels' size arguments.
      Value query = op->getOperand(0), key = op->getOperand(1);
      Value mask = isa<AttentionOp>(op) ? cast<AttentionOp>(op).getMask()
                                        : cast<AttentionGradOp>(op).getMask();
      ValueRange captured = isa<AttentionOp>(op)
                                ? cast<AttentionOp>(op).getCaptures()
                                : cast<AttentionGradOp>(op).getCaptures();
      RuntimeSizes rt =
          runtimeSizes(b, op->getLoc(), *s, query, key, mask, captured);
      auto grid = [&](const MappedKernel &k) -> std::pair<Value, Value> {
        Location l = host.loc;
        Value rows = k.rows == "nk" ? rt.nk : rt.nq;
        Value gy = k.batchHeads == "bhkv" ? rt.bhkv
                   : k.batchHeads == "b"
                       ? b.createOrFold<arith::DivUIOp>(l, rt.bh, host.c(s->hq))
                       : rt.bh;
        Value gx =
            b.createOrFold<arith::CeilDivUIOp>(l, rows, host.c(k.rowsPerBlock));
        if (k.targetBlocks)
          gx = b.createOrFold<arith::MinUIOp>(
              l, gx,
              b.createOrFold<arith::MinUIOp>(
                  l,
                  b.createOrFold<arith::MaxUIOp>(
                      l,
                      b.createOrFold<arith::CeilDivUIOp>(
                          l, host.c(k.targetBlocks), gy),
                      host.c(k.minBlocksX)),
                  host.c(k.maxBlocksX)));
        if (k.persistentBlocks)
          return {b.createOrFold<arith::MinUIOp>(
                      l, b.createOrFold<arith::MulIOp>(l, gx, gy),
                      host.c(k.persistentBlocks)),
                  host.c(1)};
        return {gx, gy};
      };
      bool guard = s->dynamic();
      // One scratch buffer for the op's kernels, when one of them has
      // blocks that own scratch (at least a word: an empty grid).
      Value scratch;
      for (const MappedKernel &k : kernels) {
        if (!ownsScratch(k))
          continue;
        auto [gx, gy] = grid(k);
        Value perBlock = k.scratchPerBlock ? host.c(k.scratchPerBlock)
                                           : b.createOrFold<arith::CeilDivUIOp>(
                                                 host.loc, rt.nk,
                                                 host.c(k.scratchKeysPerWord));
        Value words = b.createOrFold<arith::MulIOp>(
            host.loc, b.createOrFold<arith::MulIOp>(host.loc, gx, gy),
            perBlock);
        words = b.createOrFold<arith::MaxUIOp>(host.loc, words, host.c(1));
        // (An fp8 op's kernels read it as bytes: its transposed V.)
        Type scratchElt = s->isFloat8() ? s->elt : f32;
        if (s->isFloat8())
          words = b.createOrFold<arith::MulIOp>(host.loc, words, host.c(4));
        scratch =
            host.alloc(MemRefType::get({ShapedType::kDynamic}, scratchElt),
                       ValueRange{words});
      }
      auto launchAll = [&](ArrayRef<MappedKernel> ks, SmallVector<Value> args,
                           ArrayRef<std::string> names) {
        // (Rows per batch-head: Nk for the keys' buffers, else Nq.)
        SmallVector<Value> maps;
        for (const KernelSpec::TensorMap &tm : s->tensorMaps)
          maps.push_back(host.tensorMap(args[bufferIndex(names, tm.buffer)],
                                        rowsOfKeys(tm.buffer) ? rt.nk : rt.nq,
                                        tm));
        if (scratch)
          args.push_back(scratch);
        llvm::append_range(args, rt.args);
        llvm::append_range(args, maps);
        for (MappedKernel k : ks) {
          auto [gx, gy] = grid(k);
          host.launch(k.fn.getName(), gx, gy, k.threads, args, guard);
        }
      };
      SmallVector<Value> repl;
      if (auto fwd = dyn_cast<AttentionOp>(op)) {
        Value q = host.in(fwd.getQuery()), k = host.in(fwd.getKey()),
              v = host.in(fwd.getValue());
        Value o = host.allocLike(fwd.getOutput());
        Value lse = host.allocLike(fwd.getQuery(), /*dropLast=*/true, f32);
        Location l = host.loc;
        SmallVector<Value> args{asRows(b, l, q, 1), asRows(b, l, k, 1),
                                asRows(b, l, v, 1), asRows(b, l, o, 1),
                                asRows(b, l, lse, 0)};
        if (s->mask)
          args.push_back(host.mask(fwd.getMask()));
        for (Value c : fwd.getCaptures())
          args.push_back(host.capture(c));
        for (Value d : fwd.getDescales())
          args.push_back(host.flat(d));
        launchAll(kernels, args, argNames);
        repl.push_back(host.out(o));
        if (fwd.getLse())
          repl.push_back(host.out(lse));
      } else {
        auto grad = cast<AttentionGradOp>(op);
        Value q = host.in(grad.getQuery()), k = host.in(grad.getKey()),
              v = host.in(grad.getValue()), o = host.in(grad.getOutput()),
              lse = host.in(grad.getLse()), dO = host.in(grad.getGradOutput());
        Value dq = host.allocLike(grad.getQuery());
        Value dk = host.allocLike(grad.getKey());
        Value dv = host.allocLike(grad.getValue());
        Value delta = host.allocLike(grad.getLse());
        Location l = host.loc;
        SmallVector<Value> qArgs{
            asRows(b, l, q, 1),   asRows(b, l, k, 1),  asRows(b, l, v, 1),
            asRows(b, l, o, 1),   asRows(b, l, lse, 0), asRows(b, l, dO, 1),
            asRows(b, l, dq, 1),  asRows(b, l, delta, 0)};
        SmallVector<Value> kvArgs{
            asRows(b, l, q, 1),  asRows(b, l, k, 1),     asRows(b, l, v, 1),
            asRows(b, l, lse, 0), asRows(b, l, dO, 1), asRows(b, l, delta, 0),
            asRows(b, l, dk, 1), asRows(b, l, dv, 1)};
        if (s->mask) {
          Value m = host.mask(grad.getMask());
          qArgs.push_back(m);
          kvArgs.push_back(m);
        }
        for (Value c : grad.getCaptures()) {
          Value buf = host.capture(c);
          qArgs.push_back(buf);
          kvArgs.push_back(buf);
        }
        for (auto [k, kv] : llvm::zip(kernels, takesKV))
          launchAll(k, kv ? kvArgs : qArgs, kv ? kvArgNames : argNames);
        repl = {host.out(dq), host.out(dk), host.out(dv)};
      }
      host.freeAll();
      op->replaceAllUsesWith(repl);
      op->erase();
    }
    // Every kernel's contract in launch order, on the module: what is left
    // of them once the kernel module became a binary.
    module->setAttr("flash.kernels", ArrayAttr::get(ctx, contracts));
  }
};
} // namespace

std::unique_ptr<Pass>
mlir::flash::createFlashMapToGPU(const FlashMapToGPUOptions &options,
                                 KernelKinds targetKinds) {
  return std::make_unique<FlashMapToGPUPass>(options, std::move(targetKinds));
}

void mlir::flash::registerFlashToGPUPasses(KernelKinds targetKinds) {
  registerPass([targetKinds]() -> std::unique_ptr<Pass> {
    return createFlashMapToGPU(FlashMapToGPUOptions(), targetKinds);
  });
  registerPass([] { return createFlashGPULowerMath(); });
  registerPass([] { return createFlashHostDeallocation(); });
  registerPass([] { return createFlashStaticKernelBuffers(); });
}
