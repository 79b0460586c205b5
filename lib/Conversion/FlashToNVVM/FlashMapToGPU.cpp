//===- FlashMapToGPU.cpp - flash.attention -> a GPU kernel + host glue ----===//
//
// The first GPU mapping of the attention loop nest (forward):
//
//   grid  = (ceil(Nq / (T / L)), B*Hq)   block = T threads, L per query row
//                                        (row-lanes; 1 on NVVM)
//   per block, over tiles of `tile-kv` keys up to the block's causal limit:
//     all threads stage K and V tiles in shared memory (f32), barrier;
//     each thread: s_t = (scale log2 e) q . k_t   (q in registers, f32;
//                  with L > 1 each of the row's threads holds every L-th
//                  element of q and acc, and the partial dot products are
//                  summed by L - 1 xor shuffles)
//                  m' = max(m, max_t s_t); alpha = 2^(m - m'); p_t = 2^(s_t -
//                  m') l = alpha l + sum p_t ; acc = alpha acc + sum p_t v_t
//   o = acc / l ; lse = (m + log2 l) ln 2       (0 and -inf for empty rows)
//
// exp2 with log2(e) folded into the scale, one rescale per tile, causal
// tiles beyond the block's last row skipped and the diagonal tile masked.
// The host side (a private function per flash op, @flash_gpu_<n>, with the
// attribute flash.gpu_host) stages the operands in host-shared memory
// around the launches, so that the module runs under mlir-runner or
// compiled ahead of time, and frees the staging; flash-host-deallocation
// frees the callers' buffers. The Python front launches the same kernels on
// device pointers.
//
//===----------------------------------------------------------------------===//

#include "GPUKernels.h"
#include "flash/Conversion/FlashToNVVM/FlashToNVVM.h"
#include "flash/Dialect/Flash/IR/FlashOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
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
#include "flash/Conversion/FlashToNVVM/Passes.h.inc"
} // namespace flash
} // namespace mlir

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

gpu::GPUFuncOp gpukernels::buildForwardKernel(OpBuilder &ob, Location loc,
                                              StringRef name,
                                              const KernelSpec &s) {
  MLIRContext *ctx = ob.getContext();
  OperandTypes t = operandTypes(ctx, s);
  SmallVector<Type> argTys = withMaskAndCaptures(ctx, s, {t.q, t.k, t.v, t.o, t.lse});
  auto fn = newKernel(ob, loc, name, argTys,
                      {tileType(ctx, s.tile, s.d), tileType(ctx, s.tile, s.dv)},
                      s.threads);

  OpBuilder b = OpBuilder::atBlockBegin(&fn.front());
  KernelBuilder kb{b, loc};
  Value q = fn.getArgument(0), k = fn.getArgument(1), v = fn.getArgument(2),
        o = fn.getArgument(3), lse = fn.getArgument(4);
  Value mask = s.mask ? fn.getArgument(5) : Value();
  Value kTile = fn.getWorkgroupAttributions()[0];
  Value vTile = fn.getWorkgroupAttributions()[1];
  const float ninf = -std::numeric_limits<float>::infinity();

  QueryRows rows = queryRows(kb, s);
  Value bh = rows.bh, tid = rows.tid, row = rows.row, rowc = rows.rowc;
  Value maskBase = mask ? maskLeadBase(kb, s, bh) : Value();
  // The modifier regions at the thread's row; a mask_mod's affine bounds
  // narrow the keys the block visits.
  KernelModifiers mods(kb, s, fn, bh, {rowc}, /*fixedIsKey=*/false);
  Value kvStart = kb.c(0), kvEnd = rows.kvEnd;
  if (s.maskMod) {
    MaskTiles mt = mods.tiles(
        kb, /*swap=*/false, rows.rowBase,
        arith::AddIOp::create(b, loc, rows.rowBase,
                              kb.c(s.threads / s.lanes - 1)),
        kvEnd, s.tile);
    kvStart = mt.start;
    kvEnd = mt.end;
  }

  // q row (this thread's 1 / L of it), pre-scaled by scale * log2(e) (by
  // scale for a score_mod, which sees natural units), in registers.
  const int64_t L = s.lanes, dq = s.d / L, dvq = s.dv / L;
  SmallVector<Value> qv = loadRow(
      kb, q, bh, rowc, s.d, kb.f(s.scoreMod ? s.scale : s.scale * kLog2e),
      rows.lane, L);

  SmallVector<Value> inits{kb.f(ninf), kb.f(0.0f)};
  for (int64_t e = 0; e < dvq; ++e)
    inits.push_back(kb.f(0.0f));
  auto loop = scf::ForOp::create(
      b, loc, kvStart, kvEnd, kb.c(s.tile), inits,
      [&](OpBuilder &lb, Location l, Value jt, ValueRange args) {
        KernelBuilder kl{lb, l};
        // K and V tiles (f32) in shared memory, zero past Nk.
        stageTile(lb, l, k, kTile, rows.kvbh, jt, s.tile, s.nk, s.d, tid,
                  s.threads);
        stageTile(lb, l, v, vTile, rows.kvbh, jt, s.tile, s.nk, s.dv, tid,
                  s.threads);
        gpu::BarrierOp::create(lb, l);

        // Scores of this thread's row against the tile (log2 domain).
        SmallVector<Value> sv;
        Value m = args[0], lsum = args[1];
        Value mt = kl.f(ninf);
        for (int64_t t = 0; t < s.tile; ++t) {
          Value acc = kl.f(0.0f);
          for (int64_t d = 0; d < dq; ++d) {
            Value kx = memref::LoadOp::create(
                lb, l, kTile,
                ValueRange{kl.c(t), laneColumn(kl, rows.lane, L, d)});
            acc = fmac(lb, l, qv[d], kx, acc);
          }
          if (L > 1)
            acc = sumOverLanes(kl, acc, L);
          Value key = arith::AddIOp::create(lb, l, jt, kl.c(t));
          Value keyc = arith::MinUIOp::create(lb, l, key, kl.c(s.nk - 1));
          if (s.scoreMod)
            acc = arith::MulFOp::create(lb, l,
                                        mods.score(kl, 0, acc, rowc, keyc),
                                        kl.f(kLog2e));
          Value vis = mods.visible(kl, 0, keyVisible(kl, s, rows, key), rowc,
                                   keyc);
          if (mask)
            acc = addMask(kl, s, acc, mask, maskBase, rowc, keyc);
          Value st = arith::SelectOp::create(lb, l, vis, acc, kl.f(ninf));
          sv.push_back(st);
          mt = arith::MaxNumFOp::create(lb, l, mt, st);
        }
        Value mNew = arith::MaxNumFOp::create(lb, l, m, mt);
        Value isInf = arith::CmpFOp::create(lb, l, arith::CmpFPredicate::OEQ,
                                            mNew, kl.f(ninf));
        Value ms = arith::SelectOp::create(lb, l, isInf, kl.f(0.0f), mNew);
        Value alpha = exp2(lb, l, arith::SubFOp::create(lb, l, m, ms));
        Value lNew = arith::MulFOp::create(lb, l, lsum, alpha);
        SmallVector<Value> pv;
        for (Value st : sv) {
          Value p = exp2(lb, l, arith::SubFOp::create(lb, l, st, ms));
          pv.push_back(p);
          lNew = arith::AddFOp::create(lb, l, lNew, p);
        }
        SmallVector<Value> next{mNew, lNew};
        for (int64_t e = 0; e < dvq; ++e) {
          Value acc = arith::MulFOp::create(lb, l, args[2 + e], alpha);
          Value col = laneColumn(kl, rows.lane, L, e);
          for (int64_t t = 0; t < s.tile; ++t) {
            Value vx =
                memref::LoadOp::create(lb, l, vTile, ValueRange{kl.c(t), col});
            acc = fmac(lb, l, pv[t], vx, acc);
          }
          next.push_back(acc);
        }
        gpu::BarrierOp::create(lb, l);
        scf::YieldOp::create(lb, l, next);
      });

  // Write o and lse for active rows.
  scf::IfOp::create(b, loc, rows.active, [&](OpBuilder &ib, Location il) {
    KernelBuilder ki{ib, il};
    Value m = loop.getResult(0), lsum = loop.getResult(1);
    Value none = arith::CmpFOp::create(ib, il, arith::CmpFPredicate::OEQ, lsum,
                                       ki.f(0.0f));
    Value inv = arith::DivFOp::create(ib, il, ki.f(1.0f), lsum);
    for (int64_t e = 0; e < dvq; ++e) {
      Value x = arith::MulFOp::create(ib, il, loop.getResult(2 + e), inv);
      x = arith::SelectOp::create(ib, il, none, ki.f(0.0f), x);
      if (!s.elt.isF32())
        x = arith::TruncFOp::create(ib, il, s.elt, x);
      memref::StoreOp::create(
          ib, il, x, o, ValueRange{bh, row, laneColumn(ki, rows.lane, L, e)});
    }
    Value lg = arith::AddFOp::create(ib, il, m, log2(ib, il, lsum));
    lg = arith::MulFOp::create(ib, il, lg, ki.f(0.6931471805599453f));
    lg = arith::SelectOp::create(ib, il, none, ki.f(ninf), lg);
    storeFromFirstLane(ki, lg, lse, ValueRange{bh, row}, rows.lane);
    scf::YieldOp::create(ib, il);
  });
  gpu::ReturnOp::create(b, loc);
  return fn;
}

namespace {

/// A memref view of `m` ([B..., N, X] with static shape) as [prod(B...), N, X].
Value as3D(OpBuilder &b, Location loc, Value m) {
  auto ty = cast<MemRefType>(m.getType());
  int64_t r = ty.getRank();
  if (r == 3)
    return m;
  if (r == 2) {
    SmallVector<ReassociationIndices> g{{0, 1}, {2}};
    auto t = MemRefType::get({1, ty.getDimSize(0), ty.getDimSize(1)},
                             ty.getElementType());
    return memref::ExpandShapeOp::create(b, loc, t, m, g).getResult();
  }
  ReassociationIndices lead;
  for (int64_t i = 0; i < r - 2; ++i)
    lead.push_back(i);
  SmallVector<ReassociationIndices> g{lead, {r - 2}, {r - 1}};
  return memref::CollapseShapeOp::create(b, loc, m, g).getResult();
}

Value as2D(OpBuilder &b, Location loc, Value m) {
  auto ty = cast<MemRefType>(m.getType());
  int64_t r = ty.getRank();
  if (r == 2)
    return m;
  if (r == 1) {
    auto t = MemRefType::get({1, ty.getDimSize(0)}, ty.getElementType());
    return memref::ExpandShapeOp::create(
               b, loc, t, m, SmallVector<ReassociationIndices>{{0, 1}})
        .getResult();
  }
  ReassociationIndices lead;
  for (int64_t i = 0; i < r - 1; ++i)
    lead.push_back(i);
  return memref::CollapseShapeOp::create(
             b, loc, m, SmallVector<ReassociationIndices>{lead, {r - 1}})
      .getResult();
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
  Value alloc(MemRefType mt) {
    Value dev =
        gpu::AllocOp::create(b, loc, mt, Type(), ValueRange{}, ValueRange{},
                             ValueRange{}, b.getUnitAttr())
            .getMemref();
    staged.push_back(dev);
    return dev;
  }
  Value in(Value tensor) {
    auto tt = cast<RankedTensorType>(tensor.getType());
    auto mt = MemRefType::get(tt.getShape(), tt.getElementType());
    Value host = bufferization::ToBufferOp::create(b, loc, mt, tensor,
                                                   /*readOnly=*/true);
    Value dev = alloc(mt);
    memref::CopyOp::create(b, loc, host, dev);
    return dev;
  }
  /// The mask staged as the kernels read it: f32 in its own shape (the
  /// kernels index broadcast dims with stride 0), flattened.
  Value mask(Value maskTensor) {
    auto mTy = cast<RankedTensorType>(maskTensor.getType());
    Value dev = alloc(MemRefType::get(mTy.getShape(), b.getF32Type()));
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
    Value dev = alloc(MemRefType::get(tTy.getShape(), flat.getElementType()));
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
  /// Launches `name` on grid (gx, gy) and waits for it.
  void launch(StringRef name, int64_t gx, int64_t gy, int64_t threads,
              ValueRange args) {
    auto sym = SymbolRefAttr::get(ctx, "flash_kernels",
                                  {FlatSymbolRefAttr::get(ctx, name)});
    Value t0 =
        gpu::WaitOp::create(b, loc, gpu::AsyncTokenType::get(ctx), ValueRange{})
            .getAsyncToken();
    auto l = gpu::LaunchFuncOp::create(
        b, loc, sym, gpu::KernelDim3{c(gx), c(gy), c(1)},
        gpu::KernelDim3{c(threads), c(1), c(1)}, Value(), args,
        gpu::AsyncTokenType::get(ctx), ValueRange{t0});
    gpu::WaitOp::create(b, loc, Type(), ValueRange{l.getAsyncToken()});
  }
  Value out(Value dev) {
    auto mt = cast<MemRefType>(dev.getType());
    Value host = memref::AllocOp::create(b, loc, mt);
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
/// meaning), or failure with a diagnostic.
template <typename OpT>
FailureOr<KernelSpec> specOf(OpT op, int64_t threads, int64_t tile) {
  auto qTy = op.getQuery().getType();
  auto kTy = op.getKey().getType();
  auto vTy = op.getValue().getType();
  if (!qTy.hasStaticShape() || !kTy.hasStaticShape() || !vTy.hasStaticShape())
    return op.emitOpError("needs static shapes on the GPU path for now");
  if (op.getMask() && !op.getMask().getType().hasStaticShape())
    return op.emitOpError("needs a statically shaped mask on the GPU path");
  for (Value c : op.getCaptures())
    if (!cast<RankedTensorType>(c.getType()).hasStaticShape())
      return op.emitOpError("needs statically shaped captured operands on "
                            "the GPU path");
  int64_t rank = qTy.getRank();
  KernelSpec s;
  s.nq = qTy.getDimSize(rank - 2);
  s.nk = kTy.getDimSize(rank - 2);
  s.d = qTy.getDimSize(rank - 1);
  s.dv = vTy.getDimSize(rank - 1);
  s.hq = rank >= 3 ? qTy.getDimSize(rank - 3) : 1;
  s.hkv = rank >= 3 ? kTy.getDimSize(rank - 3) : 1;
  s.bh = 1;
  for (int64_t i = 0; i < rank - 2; ++i)
    s.bh *= qTy.getDimSize(i);
  s.elt = qTy.getElementType();
  s.scale = op.getScaleValue();
  if (op.getCausal())
    s.causalOffset = op.getCausalOffset() ? *op.getCausalOffset() : s.nk - s.nq;
  s.threads = threads;
  s.tile = tile;
  s.lead.assign(qTy.getShape().begin(), qTy.getShape().end() - 2);
  s.scoreMod = op.getScoreModRegion();
  s.maskMod = op.getMaskModRegion();
  for (Value c : op.getCaptures())
    s.captures.push_back(cast<RankedTensorType>(c.getType()));
  if (Value mask = op.getMask()) {
    // Row-major strides of the mask, aligned to the trailing dims of
    // [B..., H, Nq, Nk]; 0 where it broadcasts.
    auto mTy = cast<RankedTensorType>(mask.getType());
    SmallVector<int64_t> full(s.lead);
    full.append({s.nq, s.nk});
    int64_t r = full.size(), mr = mTy.getRank();
    SmallVector<int64_t> strides(r, 0);
    int64_t stride = 1;
    for (int64_t i = mr - 1; i >= 0; --i) {
      int64_t j = i + (r - mr);
      if (j >= 0 && !(mTy.getDimSize(i) == 1 && full[j] != 1))
        strides[j] = stride;
      stride *= mTy.getDimSize(i);
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

struct FlashMapToGPUPass : flash::impl::FlashMapToGPUBase<FlashMapToGPUPass> {
  using FlashMapToGPUBase::FlashMapToGPUBase;

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
    if (threads <= 0 || tileKV <= 0) {
      module.emitError("flash-map-to-gpu: threads and tile-kv must be "
                       "positive");
      return signalPassFailure();
    }
    for (int64_t l : {int64_t(rowLanes), int64_t(gradRowLanes)})
      if (l < 0 || l > 32 || (l & (l - 1))) {
        module.emitError("flash-map-to-gpu: row-lanes and grad-row-lanes "
                         "must be powers of 2 up to 32 (0: by head dim)");
        return signalPassFailure();
      }
    // Threads per row of the SIMT kernels: as asked, or enough that a
    // thread holds at most 64 values of its `rows` row vectors (forward: q
    // and o; backward: q, dO, dq and o, or k, v, dk and dv), up to 8 (the
    // row's threads must share a subgroup: lavapipe's has 8); then halved
    // until it divides both head dims and the block.
    auto lanesFor = [&](const KernelSpec &s, int64_t want, int64_t rows) {
      if (want == 0) {
        want = 1;
        while (want < 8 && rows * std::max(s.d, s.dv) > 64 * want)
          want *= 2;
      }
      while (want > 1 && (s.d % want || s.dv % want || s.threads % want))
        want /= 2;
      return want;
    };
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(ctx));
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(mb, module.getLoc(), "flash_kernels");
    // Which mapping each kernel got, for tests and tools (the Python front
    // warns when f16/bf16 attention falls back to the slow SIMT kernels).
    auto kind = [&](gpu::GPUFuncOp fn, StringRef k) {
      fn->setAttr("flash.kernel_kind", StringAttr::get(ctx, k));
    };
    auto fits = [&](gpu::GPUFuncOp fn) {
      return maxWorkgroupMemory <= 0 ||
             workgroupBytes(fn) <= maxWorkgroupMemory;
    };
    // The SIMT kernels of one op, with keys per tile halved until each
    // fits max-workgroup-memory.
    auto buildSimt = [&](Operation *op, KernelSpec &s,
                         function_ref<SmallVector<gpu::GPUFuncOp>()> build)
        -> LogicalResult {
      while (true) {
        SmallVector<gpu::GPUFuncOp> fns = build();
        int64_t worst = 0;
        for (gpu::GPUFuncOp fn : fns)
          worst = std::max(worst, workgroupBytes(fn));
        if (llvm::all_of(fns, fits)) {
          for (gpu::GPUFuncOp fn : fns)
            kind(fn, "simt");
          return success();
        }
        for (gpu::GPUFuncOp fn : fns)
          fn.erase();
        if (s.tile == 1)
          return op->emitOpError("needs ")
                 << worst << " bytes of workgroup memory with one key per "
                 << "tile; the limit is "
                 << static_cast<int64_t>(maxWorkgroupMemory)
                 << " (max-workgroup-memory)";
        s.tile /= 2;
      }
    };
    int counter = 0;
    int glueCounter = 0;
    for (Operation *op : ops) {
      FailureOr<KernelSpec> s =
          isa<AttentionOp>(op)
              ? specOf(cast<AttentionOp>(op), threads, tileKV)
              : specOf(cast<AttentionGradOp>(op), threads, tileKV);
      if (failed(s))
        return signalPassFailure();
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
      int64_t gq = (s->nq + s->threads - 1) / s->threads;
      int64_t gk = (s->nk + s->threads - 1) / s->threads;
      int64_t bhkv = s->bh / (s->hq / s->hkv);
      auto f32 = b.getF32Type();
      SmallVector<Value> repl;
      if (auto fwd = dyn_cast<AttentionOp>(op)) {
        std::string name = "flash_attention_" + std::to_string(counter++);
        int64_t fwdThreads = s->threads, fwdGrid = gq;
        gpu::GPUFuncOp coop;
        if (cooperativeMatrix && coopMatrixForwardApplies(*s)) {
          // Over the workgroup-memory limit: the SIMT kernel instead.
          coop = buildForwardCoopMatrixKernel(kb, op->getLoc(), name, *s);
          if (!fits(coop)) {
            coop.erase();
            coop = {};
          }
        }
        if (coop) {
          kind(coop, "cooperative-matrix");
          fwdThreads = coopMatrixThreads();
          fwdGrid =
              (s->nq + coopMatrixRowsPerBlock() - 1) / coopMatrixRowsPerBlock();
        } else if (tensorCores && mmaForwardApplies(*s)) {
          s->wgmma = wgmma && wgmmaApplies(*s);
          s->mmaMaxRegisters = mmaMaxRegisters;
          chooseMmaTiles(*s, mmaWarps, mmaTileKV, /*backward=*/false);
          kind(buildForwardMmaKernel(kb, op->getLoc(), name, *s),
               s->wgmma ? "wgmma" : "mma.sync");
          fwdThreads = mmaThreads(*s);
          fwdGrid = (s->nq + mmaRowsPerBlock(*s) - 1) / mmaRowsPerBlock(*s);
        } else {
          s->lanes = lanesFor(*s, rowLanes, /*rows=*/2);
          int64_t rows = s->threads / s->lanes;
          fwdGrid = (s->nq + rows - 1) / rows;
          if (failed(buildSimt(op, *s, [&] {
                return SmallVector<gpu::GPUFuncOp>{
                    buildForwardKernel(kb, op->getLoc(), name, *s)};
              })))
            return signalPassFailure();
        }
        Value q = host.in(fwd.getQuery()), k = host.in(fwd.getKey()),
              v = host.in(fwd.getValue());
        auto oTy = fwd.getOutput().getType();
        Value o =
            host.alloc(MemRefType::get(oTy.getShape(), oTy.getElementType()));
        SmallVector<int64_t> lseShape(
            fwd.getQuery().getType().getShape().drop_back());
        Value lse = host.alloc(MemRefType::get(lseShape, f32));
        SmallVector<Value> args{as3D(b, host.loc, q), as3D(b, host.loc, k),
                                as3D(b, host.loc, v), as3D(b, host.loc, o),
                                as2D(b, host.loc, lse)};
        if (s->mask)
          args.push_back(host.mask(fwd.getMask()));
        for (Value c : fwd.getCaptures())
          args.push_back(host.capture(c));
        host.launch(name, fwdGrid, s->bh, fwdThreads, args);
        repl.push_back(host.out(o));
        if (fwd.getLse())
          repl.push_back(host.out(lse));
      } else {
        auto grad = cast<AttentionGradOp>(op);
        std::string id = std::to_string(counter++);
        std::string qName = "flash_attention_grad_dq_" + id;
        std::string kvName = "flash_attention_grad_dkdv_" + id;
        int64_t gThreads = s->threads, gqGrid = gq, gkGrid = gk;
        if (tensorCores && mmaGradApplies(*s)) {
          s->wgmma = wgmma && wgmmaApplies(*s);
          s->mmaMaxRegisters = mmaMaxRegisters;
          chooseMmaTiles(*s, mmaWarps, mmaTileKV, /*backward=*/true);
          StringRef k = s->wgmma ? "wgmma" : "mma.sync";
          kind(buildGradQMmaKernel(kb, op->getLoc(), qName, *s), k);
          kind(buildGradKVMmaKernel(kb, op->getLoc(), kvName, *s), k);
          gThreads = mmaThreads(*s);
          int64_t rows = mmaRowsPerBlock(*s);
          gqGrid = (s->nq + rows - 1) / rows;
          gkGrid = (s->nk + rows - 1) / rows;
        } else {
          s->lanes = lanesFor(*s, gradRowLanes, /*rows=*/4);
          int64_t rows = s->threads / s->lanes;
          gqGrid = (s->nq + rows - 1) / rows;
          gkGrid = (s->nk + rows - 1) / rows;
          if (failed(buildSimt(op, *s, [&] {
                return SmallVector<gpu::GPUFuncOp>{
                    buildGradQKernel(kb, op->getLoc(), qName, *s),
                    buildGradKVKernel(kb, op->getLoc(), kvName, *s)};
              })))
            return signalPassFailure();
        }
        Value q = host.in(grad.getQuery()), k = host.in(grad.getKey()),
              v = host.in(grad.getValue()), o = host.in(grad.getOutput()),
              lse = host.in(grad.getLse()), dO = host.in(grad.getGradOutput());
        auto memOf = [](Value t) {
          auto tt = cast<RankedTensorType>(t.getType());
          return MemRefType::get(tt.getShape(), tt.getElementType());
        };
        Value dq = host.alloc(memOf(grad.getQuery()));
        Value dk = host.alloc(memOf(grad.getKey()));
        Value dv = host.alloc(memOf(grad.getValue()));
        Value delta = host.alloc(
            MemRefType::get(cast<MemRefType>(lse.getType()).getShape(), f32));
        Location l = host.loc;
        SmallVector<Value> qArgs{
            as3D(b, l, q),   as3D(b, l, k),  as3D(b, l, v),  as3D(b, l, o),
            as2D(b, l, lse), as3D(b, l, dO), as3D(b, l, dq), as2D(b, l, delta)};
        SmallVector<Value> kvArgs{
            as3D(b, l, q),  as3D(b, l, k),     as3D(b, l, v),  as2D(b, l, lse),
            as3D(b, l, dO), as2D(b, l, delta), as3D(b, l, dk), as3D(b, l, dv)};
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
        host.launch(qName, gqGrid, s->bh, gThreads, qArgs);
        host.launch(kvName, gkGrid, bhkv, gThreads, kvArgs);
        repl = {host.out(dq), host.out(dk), host.out(dv)};
      }
      host.freeAll();
      op->replaceAllUsesWith(repl);
      op->erase();
    }
  }
};
} // namespace
