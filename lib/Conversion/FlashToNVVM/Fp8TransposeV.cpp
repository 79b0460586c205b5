//===- Fp8TransposeV.cpp - V^T for the fp8 wgmma forward ------------------===//
//
// wgmma takes 8-bit B operands K-major only, and P V reduces over the keys:
// the fp8 forward (MmaKernels.cpp) reads V^T. A kernel launched before it
// writes V^T into the op's scratch buffer, as the forward's key tiles:
//
//   grid  = (ceil(Nk / T), BHkv)   block = 256 threads   (T = 128 keys)
//   block (t, h): V[h][t T .. t T + T) [T, Dv] bytes -> shared memory
//     (coalesced rows), then out as [Dv, T] at ((h ceil(Nk / T) + t) Dv) T,
//     keys past Nk as zeros (P is 0 there, but 0 * NaN is not 0),
//   each 32 keys in the order in which P's accumulators sit in the A
//   fragments of the product (MmaFragments::fp8PFragment), so that the
//   forward converts P in registers without shuffles: position kk of a
//   32-key group holds key 16 (kk / 16) + 8 ((kk % 4) / 2) + 2 ((kk % 16) /
//   4) + kk % 2 of the group.
//
// FlashAttention-3 transposes V in the kernel's producer warps instead
// (ldmatrix.trans / stmatrix) and permutes P's registers; a separate pass
// over V (O(Nk Dv) bytes against O(Nq Nk Dv) work) keeps this kernel's
// consumers and producer as the bf16 kernel has them.
//
//===----------------------------------------------------------------------===//

#include "MmaFragments.h"
#include "StageRing.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

namespace {
constexpr int64_t kTransposeThreads = 256;
} // namespace

MappedKernel gpukernels::buildFp8TransposeVKernel(OpBuilder &ob, Location loc,
                                                  StringRef name,
                                                  const KernelSpec &s,
                                                  ArrayRef<Type> argTypes) {
  MLIRContext *ctx = ob.getContext();
  const int64_t T = s.mmaTileKV, Dv = s.dv;
  // The tile in shared memory, rows padded by 4 bytes (a column's bytes in
  // different banks).
  auto tileTy = MemRefType::get(
      {T, Dv + 4}, s.elt, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  auto fn = newKernel(ob, loc, name, s, argTypes, {tileTy}, kTransposeThreads);
  OpBuilder b = OpBuilder::atBlockBegin(&fn.front());
  KernelBuilder kb{b, loc};
  Value nk = s.nkValue(kb);
  Value v = byBatchHead(kb, fn.getArgument(2), kvBatchHeads(kb, s), nk);
  Value out = scratchBuffer(fn, s);
  Value tileS = fn.getWorkgroupAttributions()[0];
  Value t = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value h = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value key0 = arith::MulIOp::create(b, loc, t, kb.c(T));
  auto v4 = VectorType::get({4}, s.elt);
  Value zeros = arith::ConstantOp::create(
      b, loc, v4, DenseElementsAttr::get(v4, b.getZeroAttr(s.elt)));

  // V's rows [key0, key0 + T), 4 bytes a thread a step (zeros past Nk).
  for (int64_t it = 0; it < T * Dv / 4; it += kTransposeThreads) {
    Value idx = arith::AddIOp::create(b, loc, tid, kb.c(it));
    Value row = arith::DivUIOp::create(b, loc, idx, kb.c(Dv / 4));
    Value col = arith::MulIOp::create(
        b, loc, arith::RemUIOp::create(b, loc, idx, kb.c(Dv / 4)), kb.c(4));
    Value key = arith::AddIOp::create(b, loc, key0, row);
    Value in =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, key, nk);
    auto load = ifElse(
        b, loc, TypeRange{v4}, in,
        [&](OpBuilder &ib, Location il) {
          Value x = vector::LoadOp::create(
              ib, il, v4, v, ValueRange{h, key, col},
              /*nontemporal=*/false, llvm::MaybeAlign(4));
          scf::YieldOp::create(ib, il, x);
        },
        [&](OpBuilder &ib, Location il) {
          scf::YieldOp::create(ib, il, zeros);
        });
    vector::StoreOp::create(b, loc, load.getResult(0), tileS,
                            ValueRange{row, col}, /*nontemporal=*/false,
                            llvm::MaybeAlign(4));
  }
  gpu::BarrierOp::create(b, loc);

  // Out: row d of the tile's V^T, 4 positions a thread a step, each the
  // byte of its key (the fragment order within 32 keys).
  Value tiles = arith::CeilDivUIOp::create(b, loc, nk, kb.c(T));
  Value base = arith::MulIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, h, tiles), t),
      kb.c(Dv * T));
  for (int64_t it = 0; it < T * Dv / 4; it += kTransposeThreads) {
    Value idx = arith::AddIOp::create(b, loc, tid, kb.c(it));
    Value d = arith::DivUIOp::create(b, loc, idx, kb.c(T / 4));
    Value kk0 = arith::MulIOp::create(
        b, loc, arith::RemUIOp::create(b, loc, idx, kb.c(T / 4)), kb.c(4));
    // kk0 = 4 m: positions kk0 + r, r < 4, share q = (kk0 % 16) / 4 and
    // the 16-key half; key = 32 (kk0 / 32) + 16 ((kk0 % 32) / 16) +
    // 8 (r / 2) + 2 q + r % 2.
    Value group = arith::MulIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, kk0, kb.c(16)), kb.c(16));
    Value q2 = arith::MulIOp::create(
        b, loc,
        arith::DivUIOp::create(
            b, loc, arith::RemUIOp::create(b, loc, kk0, kb.c(16)), kb.c(4)),
        kb.c(2));
    Value first = arith::AddIOp::create(b, loc, group, q2);
    Value word = zeros;
    for (int64_t r = 0; r < 4; ++r) {
      Value key =
          arith::AddIOp::create(b, loc, first, kb.c(8 * (r / 2) + r % 2));
      Value x = memref::LoadOp::create(b, loc, tileS, ValueRange{key, d});
      word = vector::InsertOp::create(b, loc, x, word, ArrayRef<int64_t>{r});
    }
    Value at = arith::AddIOp::create(
        b, loc, base,
        arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, d, kb.c(T)),
                              kk0));
    vector::StoreOp::create(b, loc, word, out, ValueRange{at},
                            /*nontemporal=*/false, llvm::MaybeAlign(4));
  }
  gpu::ReturnOp::create(b, loc);
  MappedKernel k{fn, kTransposeThreads, T, "fp8-v-transpose"};
  k.rows = "nk";
  k.batchHeads = "bhkv";
  k.scratchPerBlock = Dv * T / 4;
  return k;
}
