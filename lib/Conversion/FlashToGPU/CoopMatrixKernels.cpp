//===- CoopMatrixKernels.cpp - The forward on subgroup matrices -----------===//
//
// f16 attention forward whose two products run on the GPU dialect's
// subgroup matrix ops (gpu.subgroup_mma_*), for targets that have them
// without mma.sync: upstream's convert-gpu-to-spirv lowers them to
// SPV_KHR_cooperative_matrix (16x16x16, f16 operands, f32 accumulators).
//
//   grid  = (ceil(Nq / 16), B*Hq)       block = one subgroup (32 threads)
//   Q (16 x D) staged once in workgroup memory, kept as D / 16 A matrices;
//   per tile of 16 keys (up to the block's causal limit):
//     K, V tiles staged (rows clamped to Nk - 1)
//     S = Q K^T    : D / 16 matrix products (K read transposed)
//     S -> workgroup memory; 16 threads, one per row, run the online softmax
//     there (scale, mask, visibility, max, exp2, row sums) and write P (f16)
//     and each row's rescale factor alpha (broadcast along its row)
//     O = (alpha) O + P V : D / 16 accumulators, alpha applied as an
//                           element-wise product with its matrix
//   O / l through the same broadcast, stored by the matrices, converted to
//   f16 and written out by all threads; lse by the row threads.
//
// Cooperative matrices are opaque per element (no exp2, no per-row
// operands): the softmax goes through workgroup memory, which is what
// upstream's element-wise subgroup matrix ops leave us.
//
//===----------------------------------------------------------------------===//

#include "flash/Conversion/FlashToGPU/GPUKernels.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

namespace {
constexpr int64_t kM = 16, kThreads = 32;

gpu::GPUFuncOp buildForwardCoopMatrixKernel(OpBuilder &ob, Location loc,
                                            StringRef name,
                                            const KernelSpec &s) {
  MLIRContext *ctx = ob.getContext();
  Type f32 = ob.getF32Type(), f16 = s.elt;
  const int64_t D = s.d, steps = D / kM;
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto smem = [&](int64_t rows, int64_t cols, Type t) {
    return MemRefType::get({rows, cols}, t, MemRefLayoutAttrInterface(), wg);
  };
  OperandTypes t = operandTypes(ctx, s);
  SmallVector<Type> argTys = withMaskAndCaptures(ctx, s, {t.q, t.k, t.v, t.o, t.lse});
  // Q, K, V tiles (f16); S, alpha (f32) and P (f16) 16 x 16; O (f32).
  auto fn = newKernel(ob, loc, name, s, argTys,
                      {smem(kM, D, f16), smem(kM, D, f16), smem(kM, D, f16),
                       smem(kM, kM, f32), smem(kM, kM, f32), smem(kM, kM, f16),
                       smem(kM, D, f32)},
                      kThreads);
  OpBuilder b = OpBuilder::atBlockBegin(&fn.front());
  KernelBuilder kb{b, loc};
  Value q = fn.getArgument(0), k = fn.getArgument(1), v = fn.getArgument(2),
        o = fn.getArgument(3), lse = fn.getArgument(4);
  Value mask = s.mask ? fn.getArgument(5) : Value();
  ValueRange wgBufs = fn.getWorkgroupAttributions();
  Value qS = wgBufs[0], kS = wgBufs[1], vS = wgBufs[2], sS = wgBufs[3],
        aS = wgBufs[4], pS = wgBufs[5], oS = wgBufs[6];
  const float ninf = -std::numeric_limits<float>::infinity();
  const float sl2 = s.scale * kLog2e;

  auto aTy = gpu::MMAMatrixType::get({kM, kM}, f16, "AOp");
  auto bTy = gpu::MMAMatrixType::get({kM, kM}, f16, "BOp");
  auto cTy = gpu::MMAMatrixType::get({kM, kM}, f32, "COp");
  auto load = [&](OpBuilder &lb, Location l, gpu::MMAMatrixType ty, Value mem,
                  Value col, int64_t lead, bool transpose = false) {
    Value zero = arith::ConstantIndexOp::create(lb, l, 0);
    return gpu::SubgroupMmaLoadMatrixOp::create(
               lb, l, ty, mem, ValueRange{zero, col}, lb.getIndexAttr(lead),
               transpose ? lb.getUnitAttr() : UnitAttr())
        .getResult();
  };
  auto store = [&](OpBuilder &lb, Location l, Value m, Value mem, Value col,
                   int64_t lead) {
    Value zero = arith::ConstantIndexOp::create(lb, l, 0);
    gpu::SubgroupMmaStoreMatrixOp::create(lb, l, m, mem, ValueRange{zero, col},
                                          lb.getIndexAttr(lead), UnitAttr());
  };
  // All threads: element i of a [16, D] tile for i = lane, lane + 32, ...
  auto forTile =
      [&](OpBuilder &lb, Location l, Value lane,
          function_ref<void(OpBuilder &, Location, Value r, Value c)> body) {
        scf::ForOp::create(
            lb, l, lane, arith::ConstantIndexOp::create(lb, l, kM * D),
            arith::ConstantIndexOp::create(lb, l, kThreads), ValueRange{},
            [&](OpBuilder &fb, Location fl, Value i, ValueRange) {
              Value dd = arith::ConstantIndexOp::create(fb, fl, D);
              body(fb, fl, arith::DivUIOp::create(fb, fl, i, dd),
                   arith::RemUIOp::create(fb, fl, i, dd));
              scf::YieldOp::create(fb, fl);
            });
      };
  // The 16 row threads only.
  auto rowThreads = [&](OpBuilder &lb, Location l, Value lane,
                        function_ref<void(OpBuilder &, Location)> body) {
    Value isRow =
        arith::CmpIOp::create(lb, l, arith::CmpIPredicate::ult, lane,
                              arith::ConstantIndexOp::create(lb, l, kM));
    scf::IfOp::create(lb, l, isRow, [&](OpBuilder &ib, Location il) {
      body(ib, il);
      scf::YieldOp::create(ib, il);
    });
  };

  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value bh = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value lane = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value row0 = arith::MulIOp::create(b, loc, bx, kb.c(kM));
  Value kvbh = kvHeadOf(kb, s, bh);
  // This thread's row (row threads), clamped for loads; its causal limit.
  Value myRow = arith::AddIOp::create(b, loc, row0, lane);
  Value myRowc = arith::MinUIOp::create(b, loc, myRow, s.nqValue(kb, -1));
  Value rowLimit;
  if (s.causalOffset)
    rowLimit = arith::AddIOp::create(b, loc, myRow, s.causalOffsetValue(kb));
  Value kvStart = kb.c(0), kvEnd = blockKvEnd(kb, s, row0, kM);
  Value maskBase = mask ? maskLeadBase(kb, s, bh) : Value();
  // The modifier regions at the thread's row; a mask_mod's affine bounds
  // narrow the keys the block visits.
  KernelModifiers mods(kb, s, fn, bh, {myRowc}, /*fixedIsKey=*/false);
  if (s.maskMod) {
    MaskTiles mt = mods.tiles(kb, /*swap=*/false, row0,
                              arith::AddIOp::create(b, loc, row0, kb.c(kM - 1)),
                              kvEnd, kM);
    kvStart = mt.start;
    kvEnd = mt.end;
  }

  // Q: staged, then held as A matrices.
  forTile(b, loc, lane, [&](OpBuilder &fb, Location fl, Value r, Value c) {
    KernelBuilder kf{fb, fl};
    Value row = arith::MinUIOp::create(
        fb, fl, arith::AddIOp::create(fb, fl, row0, r), s.nqValue(kf, -1));
    Value x = memref::LoadOp::create(
        fb, fl, q, ValueRange{rowOf(kf, bh, s.nqValue(kf), row), c});
    memref::StoreOp::create(fb, fl, x, qS, ValueRange{r, c});
  });
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value> qA;
  for (int64_t i = 0; i < steps; ++i)
    qA.push_back(load(b, loc, aTy, qS, kb.c(i * kM), D));

  SmallVector<Value> inits{kb.f(ninf), kb.f(0.0f)};
  for (int64_t j = 0; j < steps; ++j)
    inits.push_back(
        gpu::SubgroupMmaConstantMatrixOp::create(b, loc, cTy, kb.f(0.0f)));
  auto loop = scf::ForOp::create(
      b, loc, kvStart, kvEnd, kb.c(kM), inits,
      [&](OpBuilder &lb, Location l, Value jt, ValueRange args) {
        KernelBuilder kl{lb, l};
        forTile(lb, l, lane, [&](OpBuilder &fb, Location fl, Value r, Value c) {
          KernelBuilder kf{fb, fl};
          Value key = rowOf(
              kf, kvbh, s.nkValue(kf),
              arith::MinUIOp::create(fb, fl, arith::AddIOp::create(fb, fl, jt, r),
                                     s.nkValue(kf, -1)));
          for (auto [src, dst] : {std::pair{k, kS}, std::pair{v, vS}}) {
            Value x = memref::LoadOp::create(fb, fl, src, ValueRange{key, c});
            memref::StoreOp::create(fb, fl, x, dst, ValueRange{r, c});
          }
        });
        gpu::BarrierOp::create(lb, l);
        // S = Q K^T (K's rows read as B's columns).
        Value sm =
            gpu::SubgroupMmaConstantMatrixOp::create(lb, l, cTy, kl.f(0.0f));
        for (int64_t i = 0; i < steps; ++i)
          sm = gpu::SubgroupMmaComputeOp::create(
              lb, l, cTy, qA[i],
              load(lb, l, bTy, kS, kl.c(i * kM), D, /*transpose=*/true), sm,
              UnitAttr(), UnitAttr());
        store(lb, l, sm, sS, kl.c(0), kM);
        gpu::BarrierOp::create(lb, l);

        // The online softmax, one row per row thread (in the log2 domain).
        auto ifRow = scf::IfOp::create(
            lb, l, TypeRange{f32, f32},
            arith::CmpIOp::create(lb, l, arith::CmpIPredicate::ult, lane,
                                  kl.c(kM)),
            /*withElseRegion=*/true);
        {
          OpBuilder ib = ifRow.getThenBodyBuilder();
          KernelBuilder ki{ib, l};
          SmallVector<Value> x;
          Value mt = ki.f(ninf);
          for (int64_t c = 0; c < kM; ++c) {
            Value key = arith::AddIOp::create(ib, l, jt, ki.c(c));
            Value sv =
                memref::LoadOp::create(ib, l, sS, ValueRange{lane, ki.c(c)});
            Value keyc = arith::MinUIOp::create(ib, l, key, s.nkValue(ki, -1));
            Value xv;
            if (s.scoreMod)
              xv = arith::MulFOp::create(
                  ib, l,
                  mods.score(ki, 0, arith::MulFOp::create(ib, l, sv, ki.f(s.scale)),
                             myRowc, keyc),
                  ki.f(kLog2e));
            else
              xv = arith::MulFOp::create(ib, l, sv, ki.f(sl2));
            if (mask)
              xv = addMask(ki, s, xv, mask, maskBase, myRowc, keyc);
            Value vis = mods.visible(ki, 0, keyVisible(ki, s, rowLimit, key),
                                     myRowc, keyc);
            xv = arith::SelectOp::create(ib, l, vis, xv, ki.f(ninf));
            mt = arith::MaxNumFOp::create(ib, l, mt, xv);
            x.push_back(xv);
          }
          Value mNew = arith::MaxNumFOp::create(ib, l, args[0], mt);
          Value ms = arith::SelectOp::create(
              ib, l,
              arith::CmpFOp::create(ib, l, arith::CmpFPredicate::OEQ, mNew,
                                    ki.f(ninf)),
              ki.f(0.0f), mNew);
          Value alpha = exp2(ib, l, arith::SubFOp::create(ib, l, args[0], ms));
          Value sum = arith::MulFOp::create(ib, l, args[1], alpha);
          for (int64_t c = 0; c < kM; ++c) {
            Value p = exp2(ib, l, arith::SubFOp::create(ib, l, x[c], ms));
            sum = arith::AddFOp::create(ib, l, sum, p);
            memref::StoreOp::create(ib, l,
                                    arith::TruncFOp::create(ib, l, f16, p), pS,
                                    ValueRange{lane, ki.c(c)});
            memref::StoreOp::create(ib, l, alpha, aS,
                                    ValueRange{lane, ki.c(c)});
          }
          scf::YieldOp::create(ib, l, ValueRange{mNew, sum});
          OpBuilder eb = ifRow.getElseBodyBuilder();
          scf::YieldOp::create(eb, l, ValueRange{args[0], args[1]});
        }
        gpu::BarrierOp::create(lb, l);

        // O = alpha O + P V.
        Value alphaM = load(lb, l, cTy, aS, kl.c(0), kM);
        Value pA = load(lb, l, aTy, pS, kl.c(0), kM);
        SmallVector<Value> next{ifRow.getResult(0), ifRow.getResult(1)};
        for (int64_t j = 0; j < steps; ++j) {
          Value acc = gpu::SubgroupMmaElementwiseOp::create(
              lb, l, cTy, ValueRange{args[2 + j], alphaM},
              gpu::MMAElementwiseOp::MULF);
          next.push_back(gpu::SubgroupMmaComputeOp::create(
              lb, l, cTy, pA, load(lb, l, bTy, vS, kl.c(j * kM), D), acc,
              UnitAttr(), UnitAttr()));
        }
        // The tiles are rewritten next step.
        gpu::BarrierOp::create(lb, l);
        scf::YieldOp::create(lb, l, next);
      });

  // O / l (0 for rows that see no key) through the broadcast buffer.
  Value m = loop.getResult(0), lsum = loop.getResult(1);
  Value none = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, lsum,
                                     kb.f(0.0f));
  rowThreads(b, loc, lane, [&](OpBuilder &ib, Location il) {
    KernelBuilder ki{ib, il};
    Value inv = arith::SelectOp::create(
        ib, il, none, ki.f(0.0f),
        arith::DivFOp::create(ib, il, ki.f(1.0f), lsum));
    for (int64_t c = 0; c < kM; ++c)
      memref::StoreOp::create(ib, il, inv, aS, ValueRange{lane, ki.c(c)});
  });
  gpu::BarrierOp::create(b, loc);
  Value invM = load(b, loc, cTy, aS, kb.c(0), kM);
  for (int64_t j = 0; j < steps; ++j)
    store(b, loc,
          gpu::SubgroupMmaElementwiseOp::create(
              b, loc, cTy, ValueRange{loop.getResult(2 + j), invM},
              gpu::MMAElementwiseOp::MULF),
          oS, kb.c(j * kM), D);
  gpu::BarrierOp::create(b, loc);
  forTile(b, loc, lane, [&](OpBuilder &fb, Location fl, Value r, Value c) {
    KernelBuilder kf{fb, fl};
    Value row = arith::AddIOp::create(fb, fl, row0, r);
    Value in = arith::CmpIOp::create(fb, fl, arith::CmpIPredicate::ult, row,
                                     s.nqValue(kf));
    scf::IfOp::create(fb, fl, in, [&](OpBuilder &ib, Location il) {
      KernelBuilder ki{ib, il};
      Value x = memref::LoadOp::create(ib, il, oS, ValueRange{r, c});
      memref::StoreOp::create(ib, il, arith::TruncFOp::create(ib, il, f16, x),
                              o, ValueRange{rowOf(ki, bh, s.nqValue(ki), row), c});
      scf::YieldOp::create(ib, il);
    });
  });
  // lse = (m + log2 l) ln 2, -inf for rows that see no key.
  rowThreads(b, loc, lane, [&](OpBuilder &ib, Location il) {
    KernelBuilder ki{ib, il};
    Value in = arith::CmpIOp::create(ib, il, arith::CmpIPredicate::ult, myRow,
                                     s.nqValue(ki));
    scf::IfOp::create(ib, il, in, [&](OpBuilder &jb, Location jl) {
      KernelBuilder kj{jb, jl};
      Value lg = arith::MulFOp::create(
          jb, jl, arith::AddFOp::create(jb, jl, m, log2(jb, jl, lsum)),
          kj.f(0.6931471805599453f));
      lg = arith::SelectOp::create(jb, jl, none, kj.f(ninf), lg);
      memref::StoreOp::create(jb, jl, lg, lse,
                              ValueRange{rowOf(kj, bh, s.nqValue(kj), myRow)});
      scf::YieldOp::create(jb, jl);
    });
  });
  gpu::ReturnOp::create(b, loc);
  return fn;
}

struct CoopMatrixKind : KernelKind {
  bool applies(KernelSpec &s, const FlashMapToGPUOptions &o,
               bool backward) const override {
    return o.cooperativeMatrix && !backward && s.elt.isF16() && s.d == s.dv &&
           s.d % 16 == 0 && s.d <= 256;
  }

  /// Over the workgroup-memory limit: no kernel (SIMT takes the op).
  FailureOr<SmallVector<MappedKernel>>
  build(OpBuilder &b, Operation *op, ArrayRef<std::string> names,
        KernelSpec &s, const FlashMapToGPUOptions &o,
        bool backward) const override {
    gpu::GPUFuncOp fn =
        buildForwardCoopMatrixKernel(b, op->getLoc(), names[0], s);
    if (o.maxWorkgroupMemory > 0 &&
        workgroupBytes(fn) > o.maxWorkgroupMemory) {
      fn.erase();
      return SmallVector<MappedKernel>{};
    }
    return SmallVector<MappedKernel>{{fn, kThreads, kM, "cooperative-matrix"}};
  }
};

} // namespace

std::shared_ptr<const KernelKind> gpukernels::coopMatrixKind() {
  return std::make_shared<CoopMatrixKind>();
}
