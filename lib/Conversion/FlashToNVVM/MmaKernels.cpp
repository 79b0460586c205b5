//===- MmaKernels.cpp - The forward kernel on tensor cores (mma.sync) -----===//
//
// f16/bf16 attention forward on NVIDIA tensor cores (sm_80+), FlashAttention-2
// style, and the fragment helpers (MmaFragments.h) the backward shares:
//
//   grid  = (ceil(Nq / (16 W)), B*Hq)   block = W warps (4, or 8 at D > 64),
//                                       16 query rows each
//   Q (16 x D per warp) held in registers as mma A fragments;
//   per tile of T keys (64; 32 at D = 256) up to the block's causal limit:
//     K(j) was prefetched by cp.async; V(j) streams in while
//     S = Q K^T    : mma.sync m16n8k16, f32 accumulators, K's B fragments by
//                    ldmatrix from rows padded against bank conflicts
//     online softmax on the accumulators in registers (scores scaled by
//     sl2 = scale log2 e, rounded, then 2^(s - m); the row max reduced
//     over the 4 lanes sharing a row by two xor shuffles; the row sum kept
//     per lane until the end); masked tiles only where needed (the causal
//     diagonal, the Nk edge, or all tiles when there is a mask operand)
//     K(j+1) streams in while
//     O += P V     : P converted to elt *in registers* as the A operand
//                    (the m16n8 accumulator layout of two adjacent n-tiles
//                    is the m16k16 A layout), V by ldmatrix.trans.
//   o = acc / l, lse = (m + log2 l) ln 2.
// On sm_90a the products are warpgroup MMAs (wgmma, 64 rows per warpgroup,
// B from swizzled shared memory); at d = 128 Q is read from shared memory
// too (wgmmaQInShared), at d = 256 two warpgroups share a two-stage K/V
// ring (wgmmaForwardStages).
//
// At d = 128 (over 1024 keys, or runtime sizes) and 256 the wgmma forward
// is warp-specialized (warp-specialize; the structure of FlashAttention-3,
// arXiv 2407.08608):
//
//   block = 2 consumer warpgroups (64 query rows each) + 1 producer
//   producer (24 registers by setmaxnreg; 40 at d = 256): its first warp
//     walks the tiles and one lane copies Q, then K(j + 1) and V(j) of each
//     128-key tile (64 at d = 256)
//     into stage j % 2 of a ring by TMA (loadTile: a bulk tensor copy per
//     64-column group, from tensor maps the host encodes), each stage's
//     "full" mbarrier expecting the copies' bytes; it waits on the stage's
//     "empty" mbarrier before refilling it
//   consumers (240 registers; 232 at d = 256): per tile j, on their turn
//     (named barriers: the two warpgroups alternate, one's softmax under the
//     other's products), issue S(j) = Q K(j)^T and O += P(j-1) V(j-1) as two
//     asynchronous wgmma groups, wait for S(j) only, run the softmax of
//     tile j while P V is in flight, then wait for it and rescale O.
//
// fp8 (e4m3; checked on the H200 against float64 and cuBLASLt's fp8 scores):
// the one-warpgroup wgmma kernel on 128-key tiles at d = 128, its products 32
// deep; V^T, which 8-bit B operands need (K-major only), comes from the op's
// scratch, where a kernel launched first wrote it in the key order of P's A
// fragments (Fp8TransposeV.cpp, MmaFragments::fp8PFragment); the descale
// factors scale the scores and o at run time.
//
// Kernels with a producer (this one warp-specialized, the backward's)
// copy by TMA from tensor maps every host that launches them encodes
// (KernelSpec::tensorMaps, flash-tensor-map-params): here one lane's
// copies replaced four warps' cp.async (11.7 % of the d = 128 forward's
// instructions, ncu, session 33). The others copy by cp.async.
//
// The fragment layouts are in MmaFragments.h. Written directly against
// nvgpu/nvvm mma.sync: upstream's vector-to-nvgpu lowering needs
// vector.contract on a matching unrolled form, which our loop nest with an
// online softmax in between does not offer.
//
//===----------------------------------------------------------------------===//

#include "MmaFragments.h"
#include "StageRing.h"
#include "flash/Dialect/Flash/IR/Modifiers.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <string>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

namespace {
constexpr int64_t kRowsPerWarp = 16;

/// What a tile of the forward checks: nothing (every row of the block sees
/// it in full), or its masks. Where visibility is a key range per row
/// (KernelModifiers::visibilityIsRanges), the tiles after the inner ones
/// (the diagonal, the Nk edge: Tail) check the ranges' upper bounds alone:
/// one compare per score in place of two. (The first tile, a window's left
/// edge, checking its lower bounds alone under a branch on whether it
/// reaches an upper one, ran within the noise on an H100, session 37.)
enum class TileChecks { None, All, Tail };

/// The K/V stages of the wgmma forward: at d = 256 two (a tile's copy takes
/// as long as its products: prefetched a whole tile ahead, one barrier per
/// tile) and in the warp-specialized forward, else one (K and V each
/// prefetched during the other's products).
/// At d <= 128 the two-stage ring measured 0.88-1.03x (its stage-dependent
/// addresses cost ~40 instructions a tile, more than the barrier it saves),
/// and unrolled by two for constant stages 0.87-1.04x (bench/RESULTS.md).
int64_t wgmmaForwardStages(const KernelSpec &s) {
  return s.mmaWarpSpecialized || s.tileD() > 128 ? 2 : 1;
}

/// Whether the wgmma forward keeps Q in shared memory (a K/V-shaped tile:
/// 64-key tiles, one warpgroup) and reads it by descriptor instead of
/// holding it in registers: at d = 128 that frees the 32 registers of its
/// A fragments (162 -> 128: four blocks per SM instead of three; 1.01-1.10x
/// on the H200, bench/RESULTS.md). The causal kernel keeps its cap of 168
/// (162 used): capped at 128 (four blocks, no spills) it ran as fast at
/// N = 1k / 4k and 5 % slower at 16k.
bool wgmmaQInShared(const KernelSpec &s) {
  return s.tileD() == 128 && s.mmaTileKV == 64 && s.mmaWarps == 4;
}

/// The operands of the wgmma inline PTX: C tiles as their 4 f32 each, A
/// fragments as their 4 words (bf16/f16 pairs, or 4 e4m3 bytes) each.
void appendTiles(OpBuilder &b, Location loc, ArrayRef<Value> tiles,
                 SmallVectorImpl<Value> &operands) {
  for (Value tile : tiles)
    for (int64_t i = 0; i < 4; ++i)
      operands.push_back(vector::ExtractOp::create(
          b, loc, tile, ArrayRef<int64_t>{i / 2, i % 2}));
}
void appendFragments(OpBuilder &b, Location loc, ArrayRef<Value> frags,
                     SmallVectorImpl<Value> &operands) {
  auto v1i32 = VectorType::get({1}, b.getI32Type());
  for (Value frag : frags)
    for (int64_t i = 0; i < 4; ++i) {
      Value pair =
          vector::ExtractOp::create(b, loc, frag, ArrayRef<int64_t>{i});
      operands.push_back(vector::ExtractOp::create(
          b, loc, vector::BitCastOp::create(b, loc, v1i32, pair),
          ArrayRef<int64_t>{0}));
    }
}

/// Side-effecting inline PTX returning `results` f32 values (a struct).
LLVM::InlineAsmOp inlinePtx(OpBuilder &b, Location loc, int64_t results,
                            ValueRange operands, StringRef ptx,
                            StringRef constraints) {
  SmallVector<Type> types;
  if (results)
    types.push_back(LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(results, b.getF32Type())));
  return LLVM::InlineAsmOp::create(
      b, loc, types, operands, ptx, constraints, /*has_side_effects=*/true,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      ArrayAttr());
}

/// The C tiles of an inline PTX result struct (4 f32 each), inserted into
/// `into` (one tile per element).
SmallVector<Value> resultTiles(OpBuilder &b, Location loc, LLVM::InlineAsmOp op,
                               ArrayRef<Value> into) {
  SmallVector<Value> out;
  for (int64_t t = 0, e = into.size(); t < e; ++t) {
    Value c = into[t];
    for (int64_t i = 0; i < 4; ++i)
      c = vector::InsertOp::create(
          b, loc,
          LLVM::ExtractValueOp::create(b, loc, op.getResult(0), 4 * t + i), c,
          ArrayRef<int64_t>{i / 2, i % 2});
    out.push_back(c);
  }
  return out;
}
} // namespace

void gpukernels::limitRegisters(gpu::GPUFuncOp fn, const KernelSpec &s,
                                bool backward) {
  int64_t n = s.mmaWarpSpecialized              ? 168
              : s.mmaMaxRegisters               ? s.mmaMaxRegisters
              : backward || mmaThreads(s) > 128 ? 255
                                                : 0;
  if (n)
    fn->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                IntegerAttr::get(IntegerType::get(fn.getContext(), 32), n));
}

void gpukernels::storePair(OpBuilder &b, Location loc, Value pair, Value mem,
                           ValueRange indices) {
  auto ty = cast<VectorType>(pair.getType());
  vector::StoreOp::create(
      b, loc, pair, mem, indices, /*nontemporal=*/false,
      llvm::MaybeAlign(ty.getNumElements() *
                       ty.getElementType().getIntOrFloatBitWidth() / 8));
}

Value gpukernels::queryBlockOrder(OpBuilder &b, Location loc,
                                  const KernelSpec &s, Value bx) {
  if (!s.causalOffset || !s.mmaWarpSpecialized)
    return bx;
  Value last = arith::SubIOp::create(
      b, loc, gpu::GridDimOp::create(b, loc, gpu::Dimension::x),
      arith::ConstantIndexOp::create(b, loc, 1));
  return arith::SubIOp::create(b, loc, last, bx);
}

MmaFragments gpukernels::mmaFragments(OpBuilder &b, Location loc, Type elt,
                                      Value tid) {
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value lane = arith::RemUIOp::create(b, loc, tid, cst(32));
  Value t = arith::RemUIOp::create(b, loc, lane, cst(4));
  return MmaFragments{b,
                      loc,
                      elt,
                      arith::RemUIOp::create(b, loc, lane, cst(8)),
                      arith::DivUIOp::create(b, loc, lane, cst(8)),
                      arith::DivUIOp::create(b, loc, lane, cst(4)),
                      arith::MulIOp::create(b, loc, t, cst(2))};
}

Value MmaFragments::c(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value MmaFragments::add(Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}

Value MmaFragments::zeroC() {
  auto ty = VectorType::get({2, 2}, b.getF32Type());
  return arith::ConstantOp::create(
      b, loc, ty, DenseElementsAttr::get(ty, b.getF32FloatAttr(0)));
}

// f16 through nvgpu.mma.sync; bf16 through nvvm.mma.sync directly
// (upstream's nvgpu-to-nvvm cannot type bf16 operands), with each pair of
// bf16 packed in an i32 as PTX wants.
Value MmaFragments::mma(Value a, Value bm, Value acc) {
  if (elt.isF16())
    return nvgpu::MmaSyncOp::create(b, loc, a, bm, acc,
                                    ArrayRef<int64_t>{16, 8, 16});
  auto v1i32 = VectorType::get({1}, b.getI32Type());
  auto words = [&](Value frag, int64_t n) {
    SmallVector<Value> w;
    for (int64_t i = 0; i < n; ++i) {
      Value pair =
          vector::ExtractOp::create(b, loc, frag, ArrayRef<int64_t>{i});
      Value word = vector::BitCastOp::create(b, loc, v1i32, pair);
      w.push_back(
          vector::ExtractOp::create(b, loc, word, ArrayRef<int64_t>{0}));
    }
    return w;
  };
  SmallVector<Value> cs;
  for (int64_t i = 0; i < 4; ++i)
    cs.push_back(vector::ExtractOp::create(b, loc, acc,
                                           ArrayRef<int64_t>{i / 2, i % 2}));
  Type f32 = b.getF32Type();
  auto resTy =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  auto op = NVVM::MmaOp::create(
      b, loc, resTy, words(a, 4), words(bm, 2), cs, {16, 8, 16}, std::nullopt,
      std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  Value out = acc;
  for (int64_t i = 0; i < 4; ++i)
    out = vector::InsertOp::create(b, loc,
                                   LLVM::ExtractValueOp::create(b, loc, op, i),
                                   out, ArrayRef<int64_t>{i / 2, i % 2});
  return out;
}

Value MmaFragments::aFromGlobal(Value mem, Value bh, Value r0, Value r1,
                                int64_t col0) {
  auto a4x2 = VectorType::get({4, 2}, elt);
  Value a = arith::ConstantOp::create(
      b, loc, a4x2, DenseElementsAttr::get(a4x2, b.getZeroAttr(elt)));
  // (Columns past the rows' width: zero, a padded tile's; see tileD.)
  if (col0 >= cast<MemRefType>(mem.getType()).getShape().back())
    return a;
  for (int64_t i = 0; i < 4; ++i) {
    Value col = add(t2, c(col0 + (i >= 2 ? 8 : 0)));
    // (One 32-bit load: the pair's alignment said, as storePair's.)
    Value x =
        vector::LoadOp::create(b, loc, VectorType::get({2}, elt), mem,
                               ValueRange{bh, i % 2 ? r1 : r0, col},
                               /*nontemporal=*/false, llvm::MaybeAlign(4));
    a = vector::InsertOp::create(b, loc, x, a, ArrayRef<int64_t>{i});
  }
  return a;
}

Value MmaFragments::cToA(Value c0, Value c1) {
  auto a4x2 = VectorType::get({4, 2}, elt);
  auto v2 = VectorType::get({2}, elt);
  Value a = arith::ConstantOp::create(
      b, loc, a4x2, DenseElementsAttr::get(a4x2, b.getZeroAttr(elt)));
  for (int64_t half = 0; half < 2; ++half)
    for (int64_t r = 0; r < 2; ++r) {
      Value row = vector::ExtractOp::create(b, loc, half ? c1 : c0,
                                            ArrayRef<int64_t>{r});
      a = vector::InsertOp::create(b, loc,
                                   arith::TruncFOp::create(b, loc, v2, row), a,
                                   ArrayRef<int64_t>{2 * half + r});
    }
  return a;
}

Value MmaFragments::fp8PFragment(ArrayRef<Value> c) {
  // Register i of the A fragment holds 4 consecutive k of row g (i even) or
  // g + 8 (i odd), k-half i / 2; each takes this lane's two columns of two
  // adjacent C tiles: register 0 <- tiles 0, 1 (row g), 1 <- tiles 0, 1
  // (row g + 8), 2 <- tiles 2, 3 (row g), 3 <- tiles 2, 3 (row g + 8).
  auto i8 = b.getI8Type();
  auto v2i8 = VectorType::get({2}, i8), v4i8 = VectorType::get({4}, i8);
  auto fragTy = VectorType::get({4, 4}, i8);
  Value frag = arith::ConstantOp::create(
      b, loc, fragTy, DenseElementsAttr::get(fragTy, b.getZeroAttr(i8)));
  auto pair = [&](Value tile, int64_t r) {
    Value x0 = vector::ExtractOp::create(b, loc, tile, ArrayRef<int64_t>{r, 0});
    Value x1 = vector::ExtractOp::create(b, loc, tile, ArrayRef<int64_t>{r, 1});
    // (a in the high byte, b in the low one: [x0, x1].)
    return NVVM::ConvertF32x2ToF8x2Op::create(
               b, loc, v2i8, x1, x0,
               NVVM::FPRoundingModeAttr::get(b.getContext(),
                                             NVVM::FPRoundingMode::RN),
               NVVM::SaturationModeAttr::get(b.getContext(),
                                             NVVM::SaturationMode::SATFINITE),
               b.getBoolAttr(false),
               TypeAttr::get(Float8E4M3FNType::get(b.getContext())))
        .getResult();
  };
  for (int64_t reg = 0; reg < 4; ++reg) {
    int64_t r = reg % 2, t = 2 * (reg / 2);
    Value word = vector::ShuffleOp::create(b, loc, v4i8, pair(c[t], r),
                                           pair(c[t + 1], r),
                                           ArrayRef<int64_t>{0, 1, 2, 3});
    frag = vector::InsertOp::create(b, loc, word, frag, ArrayRef<int64_t>{reg});
  }
  return frag;
}

SmallVector<Value> MmaFragments::bFrags(Value smem, Value row0, int64_t col0,
                                        int64_t count, bool trans) {
  auto b2x2 = VectorType::get({2, 2}, elt);
  SmallVector<Value> frags;
  for (int64_t i = 0; i < count; i += 2) {
    int64_t tiles = i + 1 < count ? 4 : 2;
    // ldmatrix: lane l addresses row l % 8 of 8x8 matrix l / 8.
    Value m = tiles == 4
                  ? lmat
                  : arith::RemUIOp::create(b, loc, lmat, c(2)).getResult();
    Value row, col;
    if (!trans) {
      // Fragment i covers columns col0 + 16 i ..: matrix m of the pair at
      // rows n0.., columns col0 + 16 i + 8 m.
      row = add(row0, lrow);
      col = add(arith::MulIOp::create(b, loc, m, c(8)), c(col0 + 16 * i));
    } else {
      // Matrix m: rows k0 + 8 (m % 2).., columns col0 + 8 i + 8 (m / 2).
      Value mr = arith::RemUIOp::create(b, loc, m, c(2));
      Value mc = arith::DivUIOp::create(b, loc, m, c(2));
      row = add(add(row0, lrow), arith::MulIOp::create(b, loc, mr, c(8)));
      col = add(arith::MulIOp::create(b, loc, mc, c(8)), c(col0 + 8 * i));
    }
    Value all =
        nvgpu::LdMatrixOp::create(b, loc, VectorType::get({tiles, 2}, elt),
                                  smem, ValueRange{row, col}, trans, tiles);
    for (int64_t h = 0; h < tiles / 2; ++h) {
      Value f = arith::ConstantOp::create(
          b, loc, b2x2, DenseElementsAttr::get(b2x2, b.getZeroAttr(elt)));
      for (int64_t j = 0; j < 2; ++j)
        f = vector::InsertOp::create(
            b, loc,
            vector::ExtractOp::create(b, loc, all,
                                      ArrayRef<int64_t>{2 * h + j}),
            f, ArrayRef<int64_t>{j});
      frags.push_back(f);
    }
  }
  return frags;
}

Value MmaFragments::copyTile(Value tid, int64_t threads, Value src, Value bh,
                             Value row0, Value limit, int64_t rows,
                             int64_t width, Value dst, TileIndex at) {
  auto tokTy = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  SmallVector<Value> toks;
  // 16-byte chunks: 8 16-bit elements, 16 fp8 ones.
  auto srcTy = cast<MemRefType>(src.getType());
  const int64_t chunk = 128 / srcTy.getElementTypeBitWidth();
  const int64_t total = rows * width / chunk;
  // A tile wider than the rows (a padded head dim, tileD): its chunks past
  // them read no bytes (cp.async's source size 0 fills zeros), from an
  // address in the row.
  const int64_t valid = srcTy.getShape().back();
  assert(!ShapedType::isDynamic(valid) && valid <= width && valid % chunk == 0);
  Value last = b.createOrFold<arith::SubIOp>(loc, limit, c(1));
  for (int64_t it = 0; it < total; it += threads) {
    Value idx = add(tid, c(it));
    auto issue = [&](OpBuilder &ib) {
      auto ci = [&](int64_t v) {
        return arith::ConstantIndexOp::create(ib, loc, v).getResult();
      };
      Value r = arith::DivUIOp::create(ib, loc, idx, ci(width / chunk));
      Value col = arith::MulIOp::create(
          ib, loc, arith::RemUIOp::create(ib, loc, idx, ci(width / chunk)),
          ci(chunk));
      Value key = arith::MinUIOp::create(
          ib, loc, arith::AddIOp::create(ib, loc, row0, r), last);
      SmallVector<Value> dstIdx =
          at ? at(ib, r, col) : SmallVector<Value>{r, col};
      Value srcCol = col, srcElements;
      if (valid < width) {
        Value in = arith::CmpIOp::create(ib, loc, arith::CmpIPredicate::ult,
                                         col, ci(valid));
        srcCol = arith::MinUIOp::create(ib, loc, col, ci(valid - chunk));
        srcElements = arith::SelectOp::create(ib, loc, in, ci(chunk), ci(0));
      }
      return nvgpu::DeviceAsyncCopyOp::create(
                 ib, loc, tokTy, dst, dstIdx, src, ValueRange{bh, key, srcCol},
                 ib.getIndexAttr(chunk), srcElements, ib.getUnitAttr())
          .getResult();
    };
    if (it + threads <= total) {
      toks.push_back(issue(b));
      continue;
    }
    // A partial last round: only the threads with work copy.
    Value has =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, idx, c(total));
    scf::IfOp::create(b, loc, has, [&](OpBuilder &ib, Location) {
      issue(ib);
      scf::YieldOp::create(ib, loc);
    });
  }
  return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokTy, toks);
}

void MmaFragments::waitAll(Value group) {
  nvgpu::DeviceAsyncWaitOp::create(b, loc, group, b.getI32IntegerAttr(0));
}

// Written as inline PTX: upstream's nvvm.wgmma.mma_async takes A only
// from shared memory, and our A operands (Q, P) live in registers.
SmallVector<Value>
MmaFragments::wgmma(ArrayRef<Value> acc, ArrayRef<Value> a, Value desc,
                    ArrayRef<int64_t> stepOffsets, bool transB,
                    int64_t zeroTiles, Value aDesc,
                    ArrayRef<int64_t> aStepOffsets, bool wait, bool transA) {
  const bool fromZero = acc.empty();
  const int64_t tiles = fromZero ? zeroTiles : acc.size();
  const int64_t n = 4 * tiles,
                steps = aDesc ? int64_t(aStepOffsets.size()) : a.size();
  Type i32 = b.getI32Type();
  SmallVector<Value> operands;
  appendTiles(b, loc, acc, operands);
  appendFragments(b, loc, a, operands);
  operands.push_back(desc);
  operands.push_back(arith::ConstantIntOp::create(b, loc, i32, 1));
  if (aDesc)
    operands.push_back(aDesc);

  // D is early-clobber: wgmma writes it while later steps still read their
  // A registers, which therefore must not share a register with D (equal
  // values, e.g. zeros, would otherwise be coalesced into one).
  // $0..$n-1: D (tied to inputs $n..$2n-1 unless from zero), then the A
  // words, desc, 1 (the scale-d predicates: p = accumulate, z = the first
  // step of a product from zero).
  std::string constraints, ptx;
  llvm::raw_string_ostream os(ptx);
  for (int64_t i = 0; i < n; ++i)
    constraints += "=&f,";
  for (int64_t i = 0; !fromZero && i < n; ++i)
    constraints += std::to_string(i) + ",";
  const int64_t aWords = aDesc ? 0 : 4 * steps;
  for (int64_t i = 0; i < aWords; ++i)
    constraints += "r,";
  constraints += aDesc ? "l,r,l" : "l,r";
  const int64_t aBase = fromZero ? n : 2 * n, descIdx = aBase + aWords;
  // fp8 (e4m3): 32-deep steps, and no transpose immediates (8-bit operands
  // are K-major only).
  const bool fp8 = isa<Float8E4M3FNType>(elt);
  assert(!(fp8 && transB) && "fp8 wgmma takes K-major B only");
  const char *ty = fp8 ? "e4m3" : elt.isBF16() ? "bf16" : "f16";
  const int64_t kDepth = fp8 ? 32 : 16;
  os << "{\n.reg .pred p, z;\n.reg .b64 d" << (aDesc ? ", da" : "")
     << ";\nsetp.ne.b32 p, $" << descIdx + 1
     << ", 0;\nsetp.eq.b32 z, $" << descIdx + 1
     << ", 0;\nwgmma.fence.sync.aligned;\n";
  for (int64_t st = 0; st < steps; ++st) {
    os << "add.s64 d, $" << descIdx << ", " << (stepOffsets[st] >> 4)
       << ";\n";
    if (aDesc)
      os << "add.s64 da, $" << descIdx + 2 << ", " << (aStepOffsets[st] >> 4)
         << ";\n";
    os << "wgmma.mma_async.sync.aligned.m64n" << 8 * tiles << "k" << kDepth
       << ".f32." << ty << "." << ty << " {";
    for (int64_t i = 0; i < n; ++i)
      os << (i ? ", $" : "$") << i;
    if (aDesc) {
      // A from shared memory: K-major (imm-trans-a 0) or MN-major (1).
      os << "}, da, d, " << (fromZero && st == 0 ? "z" : "p") << ", 1, 1";
      if (!fp8)
        os << ", " << (transA ? 1 : 0) << ", " << (transB ? 1 : 0);
      os << ";\n";
      continue;
    }
    os << "}, {";
    for (int64_t i = 0; i < 4; ++i)
      os << (i ? ", $" : "$") << aBase + 4 * st + i;
    os << "}, d, " << (fromZero && st == 0 ? "z" : "p") << ", 1, 1";
    if (!fp8)
      os << ", " << (transB ? 1 : 0);
    os << ";\n";
  }
  os << "wgmma.commit_group.sync.aligned;\n";
  if (wait)
    os << "wgmma.wait_group.sync.aligned 0;\n";
  os << "}";

  auto op = inlinePtx(b, loc, n, operands, ptx, constraints);
  return resultTiles(b, loc, op,
                     fromZero ? SmallVector<Value>(tiles, zeroC())
                              : SmallVector<Value>(acc));
}

SmallVector<Value> MmaFragments::wgmmaWait(int64_t pending,
                                           ArrayRef<Value> done,
                                           ArrayRef<Value> live) {
  const int64_t n = 4 * done.size();
  SmallVector<Value> operands;
  appendTiles(b, loc, done, operands);
  appendFragments(b, loc, live, operands);
  SmallVector<std::string> cons;
  for (int64_t i = 0; i < n; ++i)
    cons.push_back("=f");
  for (int64_t i = 0; i < n; ++i)
    cons.push_back(std::to_string(i));
  for (size_t i = 0; i < 4 * live.size(); ++i)
    cons.push_back("r");
  std::string constraints = llvm::join(cons, ",");
  std::string ptx =
      "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";";
  auto op = inlinePtx(b, loc, n, operands, ptx, constraints);
  return n ? resultTiles(b, loc, op, done) : SmallVector<Value>();
}

void MmaFragments::fenceProxyAsync() {
  inlinePtx(b, loc, 0, ValueRange(), "fence.proxy.async.shared::cta;", "");
}

// Inline PTX: upstream's NVVM bulk reductions take tensor maps only.
void MmaFragments::bulkReduceAddF32(Value global, Value shared, int64_t bytes) {
  std::string ptx = "{\n.reg .b64 g;\ncvta.to.global.u64 g, $0;\n"
                    "cp.reduce.async.bulk.global.shared::cta.bulk_group.add."
                    "f32 [g], [$1], " +
                    std::to_string(bytes) + ";\ncp.async.bulk.commit_group;\n}";
  inlinePtx(b, loc, 0, ValueRange{global, shared}, ptx, "l,l");
}

void MmaFragments::bulkWait(int64_t pending, bool readOnly) {
  inlinePtx(b, loc, 0, ValueRange(),
            std::string("cp.async.bulk.wait_group") +
                (readOnly ? ".read " : " ") + std::to_string(pending) + ";",
            "");
}

Value MmaFragments::sharedAddress(Value buf) {
  Value p = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buf);
  return arith::IndexCastUIOp::create(b, loc, b.getI64Type(), p);
}

Value MmaFragments::wgmmaDescriptor(Value addr, int64_t leadBytes,
                                    int64_t strideBytes) {
  // Bits 0-13: address >> 4; 16-29: leading byte offset >> 4; 32-45:
  // stride byte offset >> 4; 62-63: 1 = 128-byte swizzle.
  auto i64c = [&](uint64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                        static_cast<int64_t>(v))
        .getResult();
  };
  Value start = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, addr, i64c(4)), i64c(0x3FFF));
  uint64_t fields = (uint64_t(leadBytes >> 4) << 16) |
                    (uint64_t(strideBytes >> 4) << 32) | (uint64_t(1) << 62);
  return arith::OrIOp::create(b, loc, start, i64c(fields));
}

Value gpukernels::swizzledIndex(OpBuilder &b, Location loc, Value tileBase,
                                int64_t rows, Value r, Value col,
                                int64_t eltBytes) {
  auto c = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  // Elements per 128-byte row of a group and per 16-byte chunk.
  const int64_t groupCols = 128 / eltBytes, chunkCols = 16 / eltBytes;
  Value group = arith::DivUIOp::create(b, loc, col, c(groupCols));
  Value chunk = arith::DivUIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, col, c(groupCols)), c(chunkCols));
  Value phys = arith::XOrIOp::create(b, loc, chunk,
                                     arith::RemUIOp::create(b, loc, r, c(8)));
  Value idx = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, group, c(rows * groupCols)),
      arith::MulIOp::create(b, loc, r, c(groupCols)));
  idx = arith::AddIOp::create(
      b, loc, idx, arith::MulIOp::create(b, loc, phys, c(chunkCols)));
  return arith::AddIOp::create(b, loc, tileBase, idx);
}

MemRefType gpukernels::swizzledBufferType(MLIRContext *ctx, Type elt,
                                          int64_t count, int64_t rows,
                                          int64_t width) {
  // 1024 bytes more, to align the start.
  return MemRefType::get(
      {count * rows * width + 1024 * 8 / int64_t(elt.getIntOrFloatBitWidth())},
      elt, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
}

SmallVector<Type> gpukernels::mmaTileBuffers(MLIRContext *ctx,
                                             const KernelSpec &s, int64_t rows,
                                             int64_t stages) {
  if (s.wgmma)
    return {swizzledBufferType(ctx, s.elt, 2 * stages, rows, s.tileD())};
  MemRefType tile = paddedTile(ctx, s.elt, rows, s.d);
  return {tile, tile};
}

SwizzledTiles gpukernels::swizzledTiles(MmaFragments &F, Value buf,
                                        int64_t rows, int64_t width) {
  OpBuilder &b = F.b;
  auto i64c = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, F.loc, b.getI64Type(), v)
        .getResult();
  };
  Value addr = F.sharedAddress(buf);
  Value aligned = arith::AndIOp::create(
      b, F.loc, arith::AddIOp::create(b, F.loc, addr, i64c(1023)),
      i64c(~int64_t(1023)));
  const int64_t eltBytes =
      cast<MemRefType>(buf.getType()).getElementTypeBitWidth() / 8;
  Value base = arith::IndexCastUIOp::create(
      b, F.loc, b.getIndexType(),
      arith::DivUIOp::create(b, F.loc,
                             arith::SubIOp::create(b, F.loc, aligned, addr),
                             i64c(eltBytes)));
  return SwizzledTiles{buf, base, aligned, rows, width, eltBytes};
}

SmallVector<Value> SwizzledTiles::at(OpBuilder &b, Location loc, int64_t i,
                                     Value r, Value col) const {
  return at(b, loc, arith::ConstantIndexOp::create(b, loc, i), r, col);
}

SmallVector<Value> SwizzledTiles::at(OpBuilder &b, Location loc, Value i,
                                     Value r, Value col) const {
  Value tile = arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(
          b, loc, i, arith::ConstantIndexOp::create(b, loc, rows * width)));
  return {swizzledIndex(b, loc, tile, rows, r, col, eltBytes)};
}

Value SwizzledTiles::advance(MmaFragments &F, Value desc, Value tiles) const {
  // The start address field (address >> 4) is the descriptor's low bits.
  Value t = arith::IndexCastUIOp::create(F.b, F.loc, F.b.getI64Type(), tiles);
  return arith::AddIOp::create(
      F.b, F.loc, desc,
      arith::MulIOp::create(
          F.b, F.loc, t,
          arith::ConstantIntOp::create(F.b, F.loc, F.b.getI64Type(),
                                       rows * width * eltBytes / 16)));
}

Value SwizzledTiles::descriptor(MmaFragments &F, int64_t i,
                                bool mnMajor) const {
  Value tile = arith::AddIOp::create(
      F.b, F.loc, addr,
      arith::ConstantIntOp::create(F.b, F.loc, F.b.getI64Type(),
                                   i * rows * width * eltBytes));
  // K-major: 8-row groups 1024 bytes apart (the leading offset unused).
  // MN-major: 8-row groups along the reduction 1024 bytes apart, 64-column
  // groups rows * 128 bytes apart.
  return F.wgmmaDescriptor(tile, mnMajor ? rows * 128 : 16, 1024);
}

SmallVector<int64_t> SwizzledTiles::kMajorSteps() const {
  // 32 bytes per step (16 16-bit columns, 32 fp8 ones), then the next
  // 128-byte group.
  SmallVector<int64_t> offs;
  for (int64_t ks = 0; ks < width * eltBytes / 32; ++ks)
    offs.push_back(ks / 4 * rows * 128 + ks % 4 * 32);
  return offs;
}

SmallVector<int64_t> SwizzledTiles::mnMajorSteps() const {
  // 16 rows of 128 bytes per step.
  SmallVector<int64_t> offs;
  for (int64_t kk = 0; kk < rows / 16; ++kk)
    offs.push_back(kk * 16 * 128);
  return offs;
}

Value gpukernels::warpGroupIndex(OpBuilder &b, Location loc, Value tid) {
  Type i32 = b.getI32Type();
  auto c32 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32, v).getResult();
  };
  Value wg = arith::IndexCastUIOp::create(
      b, loc, i32,
      arith::DivUIOp::create(b, loc, tid,
                             arith::ConstantIndexOp::create(b, loc, 128)));
  Value lane0 =
      gpu::ShuffleOp::create(b, loc, wg, c32(0), c32(32), gpu::ShuffleMode::IDX)
          .getShuffleResult();
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), lane0);
}

MmaFragments::WarpRows MmaFragments::warpRows(Value blockIdx, Value tid,
                                              int64_t warps, Value limit) {
  WarpRows w;
  Value warp = arith::DivUIOp::create(b, loc, tid, c(32));
  w.base = arith::MulIOp::create(b, loc, blockIdx, c(warps * kRowsPerWarp));
  Value r0 =
      add(add(w.base, arith::MulIOp::create(b, loc, warp, c(kRowsPerWarp))), g);
  w.rows[0] = r0;
  w.rows[1] = add(r0, c(8));
  for (int r = 0; r < 2; ++r)
    w.clamped[r] = arith::MinUIOp::create(
        b, loc, w.rows[r], b.createOrFold<arith::SubIOp>(loc, limit, c(1)));
  return w;
}

Value MmaFragments::kvHead(const KernelSpec &s, Value bh) {
  KernelBuilder kb{b, loc};
  return kvHeadOf(kb, s, bh);
}

Value MmaFragments::kvEnd(const KernelSpec &s, const WarpRows &w, int64_t rows,
                          Value rowLimit[2]) {
  KernelBuilder kb{b, loc};
  if (s.causalOffset && s.packedQueries) {
    // Packed rows: row r is query r % P; the block needs the keys of query
    // P - 1.
    for (int r = 0; r < 2; ++r)
      rowLimit[r] = add(arith::RemUIOp::create(b, loc, w.rows[r],
                                               kb.c(s.packedQueries)),
                        s.causalOffsetValue(kb));
    return arith::MinSIOp::create(
        b, loc,
        arith::MaxSIOp::create(b, loc, s.causalOffsetValue(kb, s.packedQueries),
                               kb.c(0)),
        s.nkValue(kb));
  }
  for (int r = 0; s.causalOffset && r < 2; ++r)
    rowLimit[r] = add(w.rows[r], s.causalOffsetValue(kb));
  return blockKvEnd(kb, s, w.base, rows);
}

void gpukernels::chooseMmaTiles(KernelSpec &s, int64_t warps, int64_t tileKV,
                                bool backward) {
  // Measured on the H200 (bench/RESULTS.md, tuning table). mma.sync:
  // 64-key tiles; 8 warps sharing each K/V tile at D = 128, 4 at D <= 64.
  // wgmma: one warpgroup (4 warps) per block, 128-key tiles at D = 64 but
  // 64 when causal (fewer keys computed past the diagonal), 64 at D = 128;
  // at D = 256 two warpgroups (128 rows) sharing each 32-key K/V tile of a
  // two-stage ring (1.01-1.26x one warpgroup with one stage; at D <= 128
  // two warpgroups ran 0.8-1.05x one).
  // The backward chooses its tiles itself (MmaGradKernels.cpp).
  // Warp-specialized: two consumer warpgroups (128 query rows) and 128-key
  // tiles, so Q is one more K/V-shaped tile: 5 tiles of 128 rows in the
  // ring's buffer (161 KiB at d = 128); at d = 256 64-key tiles (the
  // consumers' O takes 128 registers, S 32), Q two of them: 6 tiles of 64
  // rows (193 KiB).
  if (s.mmaWarpSpecialized) {
    s.mmaWarps = 8;
    s.mmaTileKV = s.tileD() > 128 ? 64 : 128;
    return;
  }
  s.mmaWarps = warps ? warps
               : !backward && s.tileD() > 64 && (!s.wgmma || s.tileD() > 128)
                   ? 8
                   : 4;
  int64_t byDim = s.tileD() > 128 ? 32 : 64;
  if (s.wgmma && s.tileD() <= 64 && !s.causalOffset)
    byDim = 128;
  s.mmaTileKV = tileKV ? tileKV : byDim;
  // The causal wgmma forward (two loop bodies: more registers) ran 7-15 %
  // faster capped at 128 registers (d = 64: 4 blocks per SM) and 168
  // (d = 128: 3 blocks) than with ptxas' 130 / 182 (3 / 2 blocks), without
  // spills; the other forwards ran as fast or faster uncapped (and masked
  // ones, or ones with a score_mod or captured operands, would spill).
  // With runtime sizes (more registers for the sizes and what derives from
  // them) the caps that paid on the H200 (bench/RESULTS.md) are 168 for the
  // d = 64 forward (184 uncapped; +8-14 %) and the causal d = 128 one (191;
  // +1-4 %, a few bytes spilled); the causal d = 64 one needs no cap (128).
  if (s.wgmma && !backward && !s.mask && !s.scoreMod && s.captures.empty() &&
      !s.mmaMaxRegisters && s.tileD() <= 128) {
    if (!s.dynamic() && s.causalOffset)
      s.mmaMaxRegisters = s.tileD() <= 64 ? 128 : 168;
    else if (s.dynamic() && (s.tileD() <= 64) != s.causalOffset.has_value())
      s.mmaMaxRegisters = 168;
  }
  // K and V tiles (rows padded by 8, or swizzled plus 1 KiB to align them)
  // within the 48 KiB of static shared memory a block may have, or 100 KiB
  // for the two-stage wgmma forward and the one with Q in shared memory
  // (CUDA documents 48 KiB without dynamic shared memory; ptxas and the H200
  // accept more static shared memory: 49 and 65 KiB ran). The wgmma backward double-buffers its two tiles.
  const int64_t rowBytes = (s.wgmma ? s.tileD() : s.d + 8) * 2;
  const bool ring = s.wgmma && !backward && wgmmaForwardStages(s) == 2;
  const bool qShared = s.wgmma && !backward && s.tileD() == 128;
  const int64_t tiles = (backward && s.wgmma) || ring ? 4 : 2;
  const int64_t limit =
      ring || qShared || (backward && s.gradAShared) ? 100 * 1024 : 48 * 1024;
  while (s.mmaTileKV > 16 &&
         tiles * s.mmaTileKV * rowBytes + (s.wgmma ? 1024 : 0) > limit)
    s.mmaTileKV /= 2;
  if (backward && tileKV)
    s.mmaGradTile = s.mmaTileKV;
}

bool gpukernels::mmaForwardApplies(const KernelSpec &s) {
  return (s.elt.isF16() || s.elt.isBF16()) && s.d == s.dv && s.d % 16 == 0 &&
         s.d <= 256;
}

bool gpukernels::fp8ForwardApplies(const KernelSpec &s) {
  return s.isFloat8() && s.d == 128 && s.dv == 128 && !blockMaskApplies(s);
}

bool gpukernels::wgmmaApplies(const KernelSpec &s) {
  // The swizzled tiles are made of 64-column groups: past d = 64 a head dim
  // they do not divide is padded to them (tileD: zero columns). On an H100
  // (session 40), with a quarter of the products' work on zeros: the d = 96
  // forward 1.50-2.06x mma.sync's (0.88-1.03x cuDNN), d = 80 1.50-1.73x,
  // the d = 96 backward 1.80-2.32x. Below 64 (16, 32, 48) mma.sync. The
  // same padding takes Q / K and V / O of different head dims (DeepSeek's
  // d = 192, dv = 128) to tiles of the wider.
  const int64_t widest = std::max(s.d, s.dv);
  return (s.elt.isF16() || s.elt.isBF16()) && s.d % 16 == 0 &&
         s.dv % 16 == 0 && widest <= 256 && (widest % 64 == 0 || widest > 64);
}

int64_t gpukernels::wgmmaTileD(const KernelSpec &s) {
  return llvm::alignTo(std::max(s.d, s.dv), 64);
}

bool gpukernels::persistentApplies(const KernelSpec &s, bool withCaptures) {
  // A causal limit without a window makes the query blocks' work grow with
  // their index: static round-robin blocks would be unbalanced (those keep
  // a grid of query blocks, heaviest first). A mask_mod under a causal
  // limit is taken to be a window (the others, non-affine, take block
  // masks).
  // With runtime sizes ptxas serializes the consumers' wgmmas (and spills
  // 16 bytes at d = 128), with a score_mod it spills (12 bytes at d = 128):
  // static sizes and mask_mods only, for now. withCaptures: also where
  // the mask_mod reads captured operands (a window's run-time diagonal),
  // which each query block's setup reads like its bounds (the
  // `persistent-captures` option until it has run on a GPU).
  // With a mask_mod, only at d <= 128 and where the keys fill the tiles
  // (Nk a multiple of 128): a partial last key tile there makes ptxas
  // serialize the consumers' wgmmas, and at d = 256 windows spill 36-52
  // bytes; one block per query block spills nothing in either (session
  // 35; at N = 16k the persistent window ran 1.03x those).
  const bool modFits = !s.maskMod || (s.tileD() <= 128 && s.nk % 128 == 0);
  return (!s.causalOffset || s.maskMod) && !blockMaskApplies(s) &&
         !s.splitKeys && !s.dynamic() && !s.scoreMod && modFits &&
         (withCaptures || s.captures.empty());
}

bool gpukernels::warpSpecializedApplies(const KernelSpec &s, bool persistent) {
  // Measured on the H200 at d = 128 (bench/RESULTS.md, 2026-12-04): 1.09-
  // 1.16x the one-warpgroup kernel at N = 4k-16k, 0.96-0.98x at 1k; at
  // d = 256 it replaces two warpgroups sharing a 32-key ring. At
  // d = 64 (without ping-pong) 0.84-0.95x; with a mask operand it spills.
  // A mask_mod that is just affine bounds (a sliding window, a prefix)
  // narrows the producer's tiles as it does the consumers'; for others (a
  // document mask) both roles walk the block mask's tiles.
  // At d = 128 with at most 1024 keys (eight of its tiles, static Nk) the
  // peeled first tile and the last P V are a large share of a block's work:
  // 0.93-1.0x there on the H200 (2026-12-04). With the kernels since (the
  // causal limit's ranges, warp-uniform roles) the causal 1k row ran
  // 1.07-1.09x the one-warpgroup kernel on an H100 (session 33); shapes
  // with modifiers (not measured there; a document mask spills 104 bytes)
  // keep the one-warpgroup kernel. At d = 256 it ran 1.18-1.24x at 1k too,
  // 1.24-1.39x at 4k-16k. Persistent, its blocks' first and last tiles
  // overlap the previous and next query blocks' work.
  const bool fewKeys = !persistent && s.tileD() == 128 &&
                       !ShapedType::isDynamic(s.nk) && s.nk <= 1024 &&
                       (s.maskMod || s.scoreMod);
  // At d = 64 (with TMA and ping-pong, session 35, an H100) it ran
  // 0.90-1.10x the one-warpgroup kernel, 1.0x on the mean: within the
  // noise, and 0.90-0.96x at 1k causal; with a block mask or captured
  // operands it spills 8-24 bytes.
  // At d = 192 (the d = 256 kernel's tiles: 64-key tiles, two consumer
  // warpgroups) 1.5-1.7x the one-warpgroup kernel on an H100, 0.91-1.12x
  // cuDNN (session 40).
  return wgmmaApplies(s) && s.tileD() >= 128 && !s.mask && !s.splitKeys &&
         !fewKeys;
}

bool gpukernels::mmaGradApplies(const KernelSpec &s, bool wgmma,
                                bool wide) {
  // Past d = 128 (192, 256) the dK/dV accumulators alone would fill the
  // registers: there the wgmma kernels read their fixed operands from
  // shared memory and split dK/dV by roles (MmaGradKernels.cpp), with
  // `wide`; mma.sync has no such form. (d = 192 on them: 1.29-1.40x cuDNN
  // on an H100, session 40.)
  if (mmaForwardApplies(s) && s.d <= 128)
    return true;
  return wgmma && wgmmaApplies(s) && (wgmmaTileD(s) <= 128 || wide);
}

int64_t gpukernels::mmaRowsPerBlock(const KernelSpec &s) {
  return s.mmaWarps * kRowsPerWarp;
}
int64_t gpukernels::mmaThreads(const KernelSpec &s) {
  return s.mmaWarps * 32 + (s.mmaWarpSpecialized ? kProducerThreads : 0);
}

MemRefType gpukernels::paddedTile(MLIRContext *ctx, Type elt, int64_t rows,
                                  int64_t width) {
  auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  return MemRefType::get({rows, width + 8}, elt, MemRefLayoutAttrInterface(),
                         wg);
}

gpu::GPUFuncOp gpukernels::buildForwardMmaKernel(OpBuilder &ob, Location loc,
                                                 StringRef name,
                                                 const KernelSpec &s) {
  MLIRContext *ctx = ob.getContext();
  Type f32 = ob.getF32Type(), elt = s.elt;
  const int64_t warps = s.mmaWarps, tileKV = s.mmaTileKV;
  // Warp-specialized: the consumer warps compute, the producer warpgroup
  // after them copies (see the producer below).
  const bool ws = s.mmaWarpSpecialized;
  const int64_t consumerThreads = warps * 32, threads = mmaThreads(s);
  const int64_t D = s.tileD(), rowsPerBlock = warps * kRowsPerWarp;
  const int64_t kSteps = D / 16, dTiles = D / 8, nTiles = tileKV / 8;
  const bool wg = s.wgmma;
  const int64_t stages = wg ? wgmmaForwardStages(s) : 1;
  // fp8 (wgmma e4m3, one warpgroup, 128-key tiles): Q and K in shared
  // memory as bf16 tiles are, V^T (8-bit B operands are K-major only) read
  // from the op's scratch, where a kernel launched first wrote it
  // (buildFp8TransposeVKernel) in the key order of P's A fragments
  // (fp8PFragment); scores and o take the descale factors at run time.
  const bool fp8 = s.isFloat8();
  assert((!fp8 || (wg && !ws && stages == 1 && tileKV == 128 && D == 128 &&
                   s.dv == 128)) &&
         "the fp8 forward is the one-warpgroup wgmma kernel at d = 128");
  const bool qShared = wg && (ws || wgmmaQInShared(s) || fp8);
  // Q's tiles after the K/V stages: the block's rows in K/V-shaped tiles
  // (warp-specialized: 128 rows, in one 128-key tile or two 64-key ones).
  const int64_t qTiles = !qShared ? 0 : ws ? rowsPerBlock / tileKV : 1;
  // Persistent (below): Q in two buffers where they fit (d = 128: 192 KiB
  // in all; at d = 256 one).
  const int64_t persistent = ws ? s.mmaPersistentBlocks : 0;
  const int64_t qSlots =
      persistent && (2 * stages + 2 * qTiles) * tileKV * D * 2 + 1024 <=
                        kMaxSharedBytes
          ? 2
          : 1;
  OperandTypes t = operandTypes(ctx, s);
  SmallVector<Type> buffers{t.q, t.k, t.v, t.o, t.lse};
  if (s.splitKeys)
    buffers.push_back(MemRefType::get({ShapedType::kDynamic}, f32));
  SmallVector<Type> argTys = withMaskAndCaptures(ctx, s, buffers);
  // K and V (wgmma: one swizzled buffer, one stage).
  auto fn =
      newKernel(ob, loc, name, s, argTys,
                wg ? SmallVector<Type>{swizzledBufferType(
                         ctx, s.elt, 2 * stages + qSlots * qTiles, tileKV, D)}
                   : mmaTileBuffers(ctx, s, tileKV, stages),
                threads);
  if (ws)
    fn.addWorkgroupAttribution(
        MemRefType::get(
            {kStageBarriers}, ob.getI64Type(), MemRefLayoutAttrInterface(),
            gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)),
        loc);
  limitRegisters(fn, s);

  OpBuilder b = OpBuilder::atBlockBegin(&fn.front());
  KernelBuilder kb{b, loc};
  // The operands by batch-head: [BH, Nq, D], [BHkv, Nk, D], lse [BH, Nq].
  Value bhQ = s.bhValue(kb), bhKV = kvBatchHeads(kb, s);
  Value nq = s.nqValue(kb), nk = s.nkValue(kb);
  Value q = byBatchHead(kb, fn.getArgument(0), bhQ, nq),
        k = byBatchHead(kb, fn.getArgument(1), bhKV, nk),
        v = byBatchHead(kb, fn.getArgument(2), bhKV, nk),
        o = byBatchHead(kb, fn.getArgument(3), bhQ, nq),
        lse = byBatchHead(kb, fn.getArgument(4), bhQ, nq);
  Value mask = s.mask ? fn.getArgument(5) : Value();
  Value kS = fn.getWorkgroupAttributions()[0];
  Value vS = fn.getWorkgroupAttributions()[wg ? 0 : 1];
  const float ninf = -std::numeric_limits<float>::infinity();
  const float sl2 = s.scale * kLog2e;
  auto v2f = VectorType::get({2}, f32);
  Type outElt = s.outElt ? s.outElt : elt;

  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  MmaFragments F = mmaFragments(b, loc, elt, tid);
  // wgmma: K (tiles [0, stages)) is read K-major, V (the next ones)
  // MN-major.
  std::optional<SwizzledTiles> kv;
  Value kDesc, vDesc;
  if (wg) {
    kv = swizzledTiles(F, kS, tileKV, D);
    kDesc = kv->descriptor(F, 0, /*mnMajor=*/false);
    vDesc = kv->descriptor(F, stages, /*mnMajor=*/!fp8);
  }
  // The block's work: query block bx of batch-head bh, my warp's two rows
  // g and g + 8, the keys the block visits (set by setupBlock, at the
  // builder's insertion point: once per kernel, or once per query block in
  // each role of a persistent kernel).
  Value bx, bh, kvbh, rowBase, *rows, *rowsc;
  MmaFragments::WarpRows w;
  rows = w.rows;
  rowsc = w.clamped;
  // Keys the block needs (all, or up to its last row's diagonal); tiles
  // every row of the block sees in full need no masking: the first loop
  // runs them, the second the rest (the causal diagonal, the Nk edge).
  // Tiles [kvStart, innerStart) and [fullEnd, kvEnd) are masked ones;
  // [innerStart, fullEnd) every row of the block sees in full.
  Value rowLimit[2], kvEnd, fullEnd, kvStart, innerStart, maskBase, splits;
  // The regions' positions and captured buffers; their parts that depend
  // only on the block's batch-head and a thread's row, computed once.
  std::optional<KernelModifiers> mods;
  // A mask_mod that is not just affine bounds (a document mask): tiles that
  // no row of the block sees are skipped, found by a check of the
  // predicate (below).
  bool skipTiles = false;
  // Where visibility is a key range per row (visibilityIsRanges): each
  // row's [keyLo, keyHi), computed once per block of rows; the tiles from
  // innerStart on are past every row's keyLo where tailLoFree (TileChecks).
  Value keyLo[2], keyHi[2];
  bool tailLoFree = false;
  auto setupBlock = [&](Value blockX, Value blockBH) {
    bx = blockX;
    bh = blockBH;
    // Split-KV: block x is a split of the keys of one block of query rows.
    w = F.warpRows(s.splitKeys ? kb.c(0) : bx, tid, warps, nq);
    rowBase = w.base;
    kvbh = F.kvHead(s, bh);
    kvEnd = F.kvEnd(s, w, rowsPerBlock, rowLimit);
    fullEnd = b.createOrFold<arith::MulIOp>(
        loc, b.createOrFold<arith::DivUIOp>(loc, nk, kb.c(tileKV)),
        kb.c(tileKV));
    if (s.causalOffset) {
      // (Packed rows: the block's first query is query 0.)
      Value firstVisible = arith::MaxSIOp::create(
          b, loc,
          s.packedQueries ? s.causalOffsetValue(kb, 1)
                          : F.add(rowBase, s.causalOffsetValue(kb, 1)),
          kb.c(0));
      fullEnd = arith::MinSIOp::create(
          b, loc,
          arith::MulIOp::create(
              b, loc,
              arith::DivSIOp::create(b, loc, firstVisible, kb.c(tileKV)),
              kb.c(tileKV)),
          fullEnd);
    }
    // With a mask every tile is a masked one.
    if (mask) {
      fullEnd = kb.c(0);
      maskBase = maskLeadBase(kb, s, bh);
    }
    // Modifiers: every tile is a masked one, from the first tile a
    // mask_mod's affine bounds let the block's rows see to the last.
    kvStart = kb.c(0);
    // Split-KV (no mask, modifiers or causal limit): the split's keys, whole
    // tiles from its start.
    if (s.splitKeys) {
      splits = splitKVCount(kb, s, s.splitKeysPerBlock);
      Value chunk = splitKVChunk(kb, s, splits, tileKV);
      kvStart = arith::MulIOp::create(b, loc, bx, chunk);
      kvEnd = arith::MinUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, kvStart, chunk), kvEnd);
      fullEnd = arith::MaxUIOp::create(
          b, loc, arith::MinUIOp::create(b, loc, fullEnd, kvEnd), kvStart);
    }
    innerStart = kvStart;
    mods.emplace(kb, s, fn, bh, ArrayRef<Value>{rowsc[0], rowsc[1]},
                 /*fixedIsKey=*/false);
    if (mods->visibilityIsRanges())
      for (int r = 0; r < 2; ++r) {
        keyLo[r] = kb.c(0);
        keyHi[r] = visibleKeyEnd(kb, s, rowLimit[r]);
        mods->narrowToVisible(kb, /*swap=*/false, rowsc[r], keyLo[r], keyHi[r]);
      }
    if (s.maskMod) {
      // Keys some row of the block sees, and whole tiles every row sees.
      MaskTiles mt = mods->tiles(kb, /*swap=*/false, rowBase,
                                 F.add(rowBase, kb.c(rowsPerBlock - 1)), kvEnd,
                                 tileKV, /*inner=*/true);
      kvEnd = mt.end;
      kvStart = mt.start;
      skipTiles = !mt.exact;
      // Tiles inside every row's range need no predicate (when the
      // mask_mod is just its affine conjuncts and no mask operand is read),
      // within the causal part fullEnd already leaves unmasked.
      if (mt.exact && !mask) {
        innerStart = mt.innerStart;
        fullEnd = arith::MaxSIOp::create(
            b, loc, innerStart,
            arith::MinSIOp::create(b, loc, mt.innerEnd, fullEnd));
        tailLoFree = true;
      } else {
        innerStart = kvStart;
        fullEnd = kvStart;
      }
    }
  };
  // A persistent kernel's blocks set up each query block inside their
  // roles' loops (below); the others here, from the block ids.
  if (!persistent) {
    Value blockX = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
    setupBlock(s.splitKeys ? blockX : queryBlockOrder(b, loc, s, blockX),
               gpu::BlockIdOp::create(b, loc, gpu::Dimension::y));
  }
  // The scores' scale (times log2 e: the softmax's units) and o's factor:
  // constants, or with an fp8 op's descale factors (per tensor, or this kv
  // batch-head's), values.
  Value scaleV = kb.f(s.scale), sl2V = kb.f(sl2), oFactor;
  if (s.descale) {
    ValueRange ds = descaleBuffers(fn, s);
    Value at = s.descalePerHead ? kvbh : kb.c(0);
    auto read = [&](int i) {
      return memref::LoadOp::create(b, loc, ds[i], ValueRange{at}).getResult();
    };
    scaleV = arith::MulFOp::create(
        b, loc, arith::MulFOp::create(b, loc, scaleV, read(0)), read(1));
    sl2V = arith::MulFOp::create(b, loc, scaleV, kb.f(kLog2e));
    oFactor = read(2);
  }
  // fp8: P = 2^(s - m + 8) in [0, 256] (FlashAttention-3's max offset): e4m3
  // keeps probabilities down to 2^-17 instead of 2^-9; l carries the same
  // factor, which o = acc / l cancels and lse takes back.
  const float pOffset = fp8 ? 8.0f : 0.0f;
  // The rows' maxima over the products as they come (FlashAttention's
  // scale_softmax_log2): max(u x) = u max(x) for u = scale log2 e > 0, so
  // each score's exponent is one FMA, x u - m u, where it was a multiply
  // and an add (m u rounded once a row). On an H100 (session 44, A/B/A in
  // one call) 1.01-1.10x at d = 64 and 0.99-1.08x at d = 128. Not with a
  // score_mod (a soft-cap's kernel ran 0.97-0.99x so), an additive mask
  // (in log2 units) or fp8's descale factors (run-time values).
  std::optional<float> units;
  if (!mask && !s.scoreMod && !s.descale && s.scale > 0)
    units = sl2;

  // Q as A fragments (registers), one per 16 columns of D.
  // Q as A fragments (registers), or (wgmma, qShared) a tile of shared
  // memory after the K/V tiles, read by descriptor.
  SmallVector<Value> qA;
  Value qDesc;
  if (qShared && !ws) {
    F.copyTile(tid, threads, q, bh, rowBase, nq, rowsPerBlock, D, kS,
               [&](OpBuilder &ib, Value r, Value col) {
                 return kv->at(ib, loc, 2 * stages, r, col);
               });
    qDesc = kv->descriptor(F, 2 * stages, /*mnMajor=*/false);
  } else if (!qShared) {
    for (int64_t ks = 0; ks < kSteps; ++ks)
      qA.push_back(F.aFromGlobal(q, bh, rowsc[0], rowsc[1], ks * 16));
  }

  // Scores are scaled (times log2 e) and rounded before the max, and p =
  // 2^(x - m): the max's own exponent is exactly 0, so a row whose softmax
  // is one-hot gives p = 1 and o = v exactly, as the unfused computation
  // does. Folding the scale into one FMA per exp2 (2^(x sl2 - m sl2), one
  // op less) left the max's exponent at the product's rounding: at logits
  // of 1e4 p = 1 +- 3e-4 in l but 1 in the f16 P of P V, an o error of
  // 2e-3 where the unfused one is 1e-13 and f16 dQ/dK errors of 0.5 through
  // D = rowsum(dO o) (PyTorch builds FlashAttention-2 with UNFUSE_FMA for
  // the same reason). Scaling first also keeps a negative scale's max.
  // The K / V tile of keys from row0 (wgmma: into K / V buffer `stage`).
  auto copyK = [&](MmaFragments &G, Value row0, Value stage) {
    if (wg)
      return G.copyTile(tid, threads, k, kvbh, row0, nk, tileKV, D, kS,
                        [&](OpBuilder &ib, Value r, Value col) {
                          return kv->at(ib, G.loc, stage, r, col);
                        });
    return G.copyTile(tid, threads, k, kvbh, row0, nk, tileKV, D, kS);
  };
  auto copyV = [&](MmaFragments &G, Value row0, Value stage) -> Value {
    if (fp8) {
      // V^T's tile of keys [row0, row0 + tileKV): [Dv, tileKV] bytes at
      // ((kvbh * tiles + row0 / tileKV) * Dv) * tileKV in the scratch
      // (fp8TransposedV), into V's stage as a K-major tile.
      KernelBuilder kg{G.b, G.loc};
      Value scratch = scratchBuffer(fn, s);
      Value tiles = arith::CeilDivUIOp::create(G.b, G.loc, nk, kg.c(tileKV));
      Value t = arith::DivUIOp::create(G.b, G.loc, row0, kg.c(tileKV));
      Value base = arith::MulIOp::create(
          G.b, G.loc, G.add(arith::MulIOp::create(G.b, G.loc, kvbh, tiles), t),
          kg.c(s.dv * tileKV));
      auto tokTy = nvgpu::DeviceAsyncTokenType::get(G.b.getContext());
      SmallVector<Value> toks;
      const int64_t perRow = tileKV / 16;
      for (int64_t it = 0; it < s.dv * perRow; it += threads) {
        Value idx = G.add(tid, kg.c(it));
        Value d = arith::DivUIOp::create(G.b, G.loc, idx, kg.c(perRow));
        Value col = arith::MulIOp::create(
            G.b, G.loc, arith::RemUIOp::create(G.b, G.loc, idx, kg.c(perRow)),
            kg.c(16));
        Value src = G.add(
            base,
            G.add(arith::MulIOp::create(G.b, G.loc, d, kg.c(tileKV)), col));
        Value dst = kv->at(G.b, G.loc, G.add(stage, kg.c(stages)), d, col)[0];
        toks.push_back(nvgpu::DeviceAsyncCopyOp::create(
                           G.b, G.loc, tokTy, kS, ValueRange{dst}, scratch,
                           ValueRange{src}, G.b.getIndexAttr(16), Value(),
                           G.b.getUnitAttr())
                           .getResult());
      }
      return nvgpu::DeviceAsyncCreateGroupOp::create(G.b, G.loc, tokTy, toks)
          .getResult();
    }
    return G.copyTile(
        tid, threads, v, kvbh, row0, nk, tileKV, D, kS,
        [&](OpBuilder &ib, Value r, Value col) {
          return kv->at(ib, G.loc,
                        arith::AddIOp::create(
                            ib, G.loc, stage,
                            arith::ConstantIndexOp::create(ib, G.loc, stages)),
                        r, col);
        });
  };
  // A landed tile: visible to the block (and, for wgmma, to the async
  // proxy that reads it).
  auto landed = [&](MmaFragments &G, Value group) {
    G.waitAll(group);
    if (wg)
      G.fenceProxyAsync();
    gpu::BarrierOp::create(G.b, G.loc);
  };
  // Loop-carried: m, l (per row: this lane's partial sum), O accumulators,
  // the pending copy of the next K tile.
  // Whether some row of the block sees some key of the tile at t, and
  // whether every row sees all of it: the block mask's entry (BlockMask.cpp).
  BlockMaskBitsFn tileBits = [&](OpBuilder &cb, Location cl, Value t) {
    KernelBuilder kc{cb, cl};
    return blockMaskBits(kc, s, fn, bh, rowBase, rowsPerBlock, t, tileKV);
  };
  // Skipping: the tiles the block sees, found by the cursor (the producer
  // and the consumers of the warp-specialized kernel each walk the same).
  std::optional<TileCursor> cursor;
  if (skipTiles)
    cursor = blockMaskCursor(kvEnd, tileKV, tileBits);
  // The cursor's first tile from kvStart and its state.
  auto seekFirst = [&](OpBuilder &sb, Location sl,
                       SmallVector<Value> &state) -> Value {
    state = cursor->seek(sb, sl, kvStart);
    Value first = state.front();
    state.erase(state.begin());
    return first;
  };

  // Warp-specialized: the producer warpgroup (the last) copies Q, then the
  // K and V tiles of the block's keys in order into a two-stage ring; the
  // consumers wait for a stage's K (V) to land, and arrive when their
  // products have read it. No CTA barrier after the split.
  //
  // Persistent (FlashAttention-3's static tile scheduler): block x takes the
  // query blocks x, x + gridDim.x, ... of all batch-heads, query block
  // fastest, as a grid of one block per query block would run them (the
  // blocks at work together share a batch-head's K and V in L2). Each role
  // loops over them, carrying the query blocks and the tiles it has done:
  // Q's buffer and phase, the ring's position. Q has two buffers where they
  // fit (d = 128: 192 KiB in all): the next query block's Q lands under
  // this one's last tiles and epilogue; the consumers release a buffer
  // after the epilogue, which stages o in it.
  std::optional<StageBarriers> bars;
  scf::IfOp roles;
  // The ring's position at the block's first tile (the tiles of earlier
  // query blocks), Q's buffer and the phase of its barriers.
  Value ringStart = kb.c(0), qSlot, qPhase;
  Value qBlocks, items;
  if (persistent) {
    qBlocks = arith::CeilDivUIOp::create(b, loc, nq, kb.c(rowsPerBlock));
    items = arith::MulIOp::create(b, loc, qBlocks, bhQ);
  }
  // A persistent role's loop over its query blocks at b's insertion point:
  // the block set up in it, b left before its yield (whose operands, the
  // query blocks and tiles done, the role sets at its end).
  // (In i32: five fewer registers through the tiles than in index.)

  auto i32 = [&](OpBuilder &ib, Value x) -> Value {
    return arith::IndexCastUIOp::create(ib, loc, ib.getI32Type(), x);
  };
  auto index = [&](OpBuilder &ib, Value x) -> Value {
    return arith::IndexCastUIOp::create(ib, loc, ib.getIndexType(), x);
  };
  auto blockLoop = [&]() {
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    auto loop = scf::ForOp::create(
        b, loc, i32(b, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x)),
        i32(b, items),
        i32(b, gpu::GridDimOp::create(b, loc, gpu::Dimension::x)),
        ValueRange{zero, zero},
        [](OpBuilder &ib, Location il, Value, ValueRange done) {
          scf::YieldOp::create(ib, il, done);
        });
    // No loop-invariant code motion out of it (LLVM's llvm.licm.disable,
    // which scf-to-cf carries to the loop's branch): what the epilogue and
    // the masked tiles compute from the thread's lanes alone would move
    // before the loop and stay in registers through every tile (70-100
    // bytes spilled, the wgmmas serialized, at d = 128 with runtime sizes).
    MLIRContext *c = b.getContext();
    loop->setAttr("loop_annotation",
                  LLVM::LoopAnnotationAttr::get(
                      c, {}, {}, {}, {}, {},
                      LLVM::LoopLICMAttr::get(c, BoolAttr::get(c, true), {}),
                      {}, {}, {}, {}, {}, {}, {}, {}, {}));
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Value item = index(b, loop.getInductionVar());
    setupBlock(arith::RemUIOp::create(b, loc, item, qBlocks),
               arith::DivUIOp::create(b, loc, item, qBlocks));
    assert(!skipTiles && "no block mask in a persistent kernel");
    Value blocksDone = index(b, loop.getRegionIterArgs()[0]);
    ringStart = index(b, loop.getRegionIterArgs()[1]);
    qSlot = arith::RemUIOp::create(b, loc, blocksDone, kb.c(qSlots));
    qPhase = arith::IndexCastUIOp::create(
        b, loc, b.getI32Type(),
        arith::RemUIOp::create(
            b, loc, arith::DivUIOp::create(b, loc, blocksDone, kb.c(qSlots)),
            kb.c(2)));
    return loop;
  };
  // Its yield: one more query block done, and the ring's position after
  // its last tile.
  auto blockDone = [&](OpBuilder &yb, scf::ForOp loop, Value ringEnd) {
    Operation *yield = loop.getBody()->getTerminator();
    yield->setOperands(
        ValueRange{arith::AddIOp::create(yb, loc, loop.getRegionIterArgs()[0],
                                         arith::ConstantIntOp::create(
                                             yb, loc, yb.getI32Type(), 1)),
                   i32(yb, ringEnd)});
  };
  // Q's tile i (of qTiles) in its buffer.
  auto qTileIndex = [&](OpBuilder &qb, int64_t i) -> Value {
    Value t = arith::ConstantIndexOp::create(qb, loc, 2 * stages + i);
    if (!qSlot)
      return t;
    return arith::AddIOp::create(
        qb, loc, t,
        arith::MulIOp::create(qb, loc, qSlot,
                              arith::ConstantIndexOp::create(qb, loc, qTiles)));
  };
  // The consumers' turns (below): the second warpgroup lets the first go
  // first.
  Value wgId, otherId, pairThreads;
  // The thread's warpgroup, warp-uniform (warpGroupIndex).
  Value wgU;
  auto i32c = [&](OpBuilder &ob2, Location l2, int64_t v) {
    return arith::ConstantIntOp::create(ob2, l2, ob2.getI32Type(), v)
        .getResult();
  };
  scf::ForOp pLoop, cLoop;
  if (ws) {
    bars = StageBarriers{F.sharedAddress(fn.getWorkgroupAttributions()[1])};
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, kb.c(0));
    scf::IfOp::create(b, loc, first, [&](OpBuilder &ib, Location il) {
      // The "full" words complete on one arrival (the producer thread's,
      // with the bytes its tensor copies bring), the others on every
      // consumer thread's.
      for (int64_t i = 0; i < kStageBarriers; ++i)
        bars->init(ib, il, i, i < kKEmpty ? 1 : consumerThreads);
      scf::YieldOp::create(ib, il);
    });
    gpu::BarrierOp::create(b, loc);
    // The roles by warpgroup (warp-uniform: warpGroupIndex).
    assert(consumerThreads % 128 == 0 && "whole consumer warpgroups");
    wgU = warpGroupIndex(b, loc, tid);
    Value producer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                           wgU, kb.c(consumerThreads / 128));
    roles = scf::IfOp::create(b, loc, TypeRange(), producer,
                              /*withElseRegion=*/true);
    OpBuilder pb = roles.getThenBodyBuilder();
    NVVM::SetMaxRegisterOp::create(pb, loc, producerRegisters(s),
                                   NVVM::SetMaxRegisterAction::decrease);
    // The issuing warp copies by TMA; the rest of the warpgroup only gives
    // its registers away.
    Value leader = enterIssuingWarp(pb, loc, tid, consumerThreads);
    Value qMap = tensorMapArg(fn, s, "q"), kMap = tensorMapArg(fn, s, "k"),
          vMap = tensorMapArg(fn, s, "v");
    const int64_t tileBytes = tileKV * D * 2;
    // Tile(s) into ring word `which` (+ stage): their bytes, then the
    // copies (`copy`), from the first lane.
    auto issue = [&](OpBuilder &ib, Location il, int64_t which, Value stage,
                     int64_t bytes,
                     function_ref<void(OpBuilder &, Value)> copy) {
      scf::IfOp::create(ib, il, leader, [&](OpBuilder &lb, Location ll) {
        bars->arriveExpectBytes(lb, ll, which, stage, bytes);
        copy(lb, bars->ptr(lb, ll, which, stage));
        scf::YieldOp::create(lb, ll);
      });
    };
    if (persistent) {
      b.setInsertionPoint(pb.getInsertionBlock(), pb.getInsertionPoint());
      pLoop = blockLoop();
      pb.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
      // Q's buffer is free once the consumers' epilogue of its previous
      // query block is done (the first round passes at once).
      bars->waitReleased(pb, loc, kQEmpty, qSlot, qPhase);
    }
    issue(pb, loc, kQFull, qSlot, qTiles * tileBytes,
          [&](OpBuilder &lb, Value bar) {
            for (int64_t i = 0; i < qTiles; ++i)
              loadTile(lb, loc, *kv, qTileIndex(lb, i), qMap, bh,
                       arith::AddIOp::create(
                           lb, loc, rowBase,
                           arith::ConstantIndexOp::create(lb, loc, i * tileKV)),
                       bar);
          });
    // The tiles in the consumers' order; a tile's ring slot is by its
    // place in that order (counted from ringStart, the tiles skipped not
    // counted: `n`).
    SmallVector<Value> pState;
    Value pFirst = skipTiles ? seekFirst(pb, loc, pState) : kvStart;
    // Tile t's K into ring slot n, once the consumers have read the slot's
    // previous K.
    auto produceK = [&](OpBuilder &lb, Location l, Value t, Value n) {
      auto [stage, phase] = ringSlot(lb, l, n);
      bars->waitReleased(lb, l, kKEmpty, stage, phase);
      issue(lb, l, kKFull, stage, tileBytes, [&](OpBuilder &ib, Value bar) {
        loadTile(ib, l, *kv, stage, kMap, kvbh, t, bar);
      });
    };
    // K a tile ahead of V (as FlashAttention-3 orders its loads): tile n's
    // step copies K of the tile after it, then its own V. In the order
    // K(n), V(n) the copy of K(n + 1) waited behind V(n)'s, which waits for
    // the stage the consumers free with their last product of the step
    // before (ncu, d = 128 at 16k: the consumers polled K's barrier ~30
    // times a tile). On an H100 (session 33) 1.02-1.04x at d = 256 causal
    // 4k-16k and the window forward, the other rows within the noise.
    auto ifBefore = [&](OpBuilder &ib, Value t,
                        function_ref<void(OpBuilder &, Location)> then) {
      scf::IfOp::create(
          ib, loc,
          arith::CmpIOp::create(ib, loc, arith::CmpIPredicate::slt, t, kvEnd),
          [&](OpBuilder &tb, Location tl) {
            then(tb, tl);
            scf::YieldOp::create(tb, tl);
          });
    };
    ifBefore(pb, pFirst, [&](OpBuilder &ib, Location il) {
      produceK(ib, il, pFirst, ringStart);
    });
    SmallVector<Value> produced = tileLoop(
        pb, loc, pFirst, kvEnd, tileKV, ValueRange{ringStart},
        cursor ? &*cursor : nullptr, pState,
        [&](OpBuilder &lb, Location l, Value jt, ValueRange args, Value after,
            ValueRange) -> SmallVector<Value> {
          MmaFragments G{lb, l, elt, F.lrow, F.lmat, F.g, F.t2};
          Value n = args[0];
          ifBefore(lb, after, [&](OpBuilder &ib, Location il) {
            produceK(ib, il, after,
                     arith::AddIOp::create(
                         ib, il, n, arith::ConstantIndexOp::create(ib, il, 1)));
          });
          auto [stage, phase] = ringSlot(lb, l, n);
          bars->waitReleased(lb, l, kVEmpty, stage, phase);
          Value vTile = G.add(stage, G.c(stages));
          issue(lb, l, kVFull, stage, tileBytes, [&](OpBuilder &ib, Value bar) {
            loadTile(ib, l, *kv, vTile, vMap, kvbh, jt, bar);
          });
          return {G.add(n, G.c(1))};
        });
    if (persistent) {
      blockDone(pb, pLoop, produced[0]);
      pb.setInsertionPointAfter(pLoop);
    }
    // The consumers: everything below.
    b.setInsertionPoint(roles.elseBlock()->getTerminator());
    NVVM::SetMaxRegisterOp::create(b, loc, consumerRegisters(s),
                                   NVVM::SetMaxRegisterAction::increase);
    // The consumer warpgroups take turns to issue their products (named
    // barriers 1 and 2, one per warpgroup: a warpgroup waits on its own,
    // which the other one's arrival completes). Warpgroup 1 lets warpgroup
    // 0 go first.
    // (From tid: the barriers' ids as the uniform wgU made ptxas spill 20
    // bytes at d = 256.)
    Value wg1 = arith::IndexCastUIOp::create(
        b, loc, b.getI32Type(), arith::DivUIOp::create(b, loc, tid, kb.c(128)));
    wgId = arith::AddIOp::create(b, loc, wg1, i32c(b, loc, 1));
    otherId = arith::SubIOp::create(b, loc, i32c(b, loc, 2), wg1);
    pairThreads = i32c(b, loc, consumerThreads);
    Value second = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, wg1,
                                         i32c(b, loc, 0));
    scf::IfOp::create(b, loc, second, [&](OpBuilder &ib, Location il) {
      NVVM::BarrierArriveOp::create(ib, il, otherId, pairThreads);
      scf::YieldOp::create(ib, il);
    });
    if (persistent)
      cLoop = blockLoop();
    bars->wait(b, loc, kQFull, qSlot,
               qPhase ? qPhase
                      : arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0)
                            .getResult());
    // (The tiles arrive by TMA, in the async proxy wgmma reads in: no
    // proxy fence.)
    // This warpgroup's 64 rows of Q: a whole 64-key tile, or the second
    // half of a 128-key one (64 rows of 128 bytes per 64-column group, in
    // the descriptor's 16-byte units).
    qDesc = kv->descriptor(F, 2 * stages, /*mnMajor=*/false);
    if (qSlot)
      qDesc = kv->advance(F, qDesc,
                          arith::MulIOp::create(b, loc, qSlot, kb.c(qTiles)));
    if (tileKV == 64)
      qDesc = kv->advance(F, qDesc, wgU);
    else
      qDesc = arith::AddIOp::create(
          b, loc, qDesc,
          arith::MulIOp::create(
              b, loc, arith::IndexCastUIOp::create(b, loc, b.getI64Type(), wgU),
              arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                           64 * 128 / 16)));
  }

  SmallVector<Value> inits{kb.f(ninf), kb.f(ninf), kb.f(0.0f), kb.f(0.0f)};
  for (int64_t dt = 0; dt < dTiles; ++dt)
    inits.push_back(F.zeroC());
  // Skipping (the head and interior loops are empty then): the tail loop
  // starts at the first tile the block sees.
  Value tailStart = fullEnd;
  SmallVector<Value> cursorState;
  if (skipTiles)
    tailStart = seekFirst(b, loc, cursorState);
  // Two stages: the stage, and the first tile's V as well.
  Value firstTile = skipTiles ? tailStart : kvStart;
  if (stages == 2 && !ws)
    inits.push_back(kb.c(0));
  if (!ws)
    inits.push_back(copyK(F, firstTile, kb.c(0)));
  if (stages == 2 && !ws)
    inits.back() = copyV(F, firstTile, kb.c(0));

  // One tile at jt: returns the loop-carried values for the next one, whose
  // K tile (at nextTile) it starts copying.
  // The online softmax of one tile of scores (masked: the invisible
  // keys at -inf): the new (m, l) (next[0..3]), each row's rescale factor
  // alpha, P = 2^(S - m) as C tiles (S in log2 units).
  struct TileSoftmax {
    SmallVector<Value> next;
    Value alpha[2];
    SmallVector<Value> pC;
  };
  // `maskedAt` (merge-masked-tiles, with a masked tile): a tile-uniform
  // i1, the mask applied under a branch on it.
  auto softmax = [&](OpBuilder &lb, Location l, MmaFragments &G, Value jt,
                     ValueRange args, ArrayRef<Value> sRaw, TileChecks checks,
                     Value maskedAt = Value()) -> TileSoftmax {
    KernelBuilder kl{lb, l};
    const bool masked = checks != TileChecks::None;
    // The scores into sAcc's C tiles and the rows' maxima.
    SmallVector<Value> sAcc(sRaw);
    Value tileMax[2] = {kl.f(ninf), kl.f(ninf)};
    auto take = [&](OpBuilder &lb, Location l, int64_t nt, int64_t r, int64_t j,
                    Value x) {
      tileMax[r] = arith::MaxNumFOp::create(lb, l, tileMax[r], x);
      sAcc[nt] =
          vector::InsertOp::create(lb, l, x, sAcc[nt], ArrayRef<int64_t>{r, j});
    };
    // The tile's scores in log2 units, invisible keys at -inf, to `emit`
    // in the order (nt, r, j); with key ranges, checked against their
    // lower bounds too where `checkLo`.
    auto scores = [&](OpBuilder &lb, Location l, bool masked, bool checkLo,
                      function_ref<void(int64_t, int64_t, int64_t, Value)>
                          emit) {
      KernelBuilder kl{lb, l};
      MmaFragments G{lb, l, elt, F.lrow, F.lmat, F.g, F.t2};
      // A key range per row (relativeBound): two compares per score (one
      // where the tile can cut one side) where the general check is a
      // dozen 64-bit integer operations.
      const bool ranges = masked && keyLo[0];
      Value relLo[2], relHi[2];
      for (int r = 0; ranges && r < 2; ++r) {
        if (checkLo)
          relLo[r] = relativeBound(kl, keyLo[r], G.add(jt, G.t2), tileKV);
        relHi[r] = relativeBound(kl, keyHi[r], G.add(jt, G.t2), tileKV);
      }
      for (int64_t nt = 0; nt < nTiles; ++nt) {
        for (int64_t r = 0; r < 2; ++r)
          for (int64_t j = 0; j < 2; ++j) {
            Value x = vector::ExtractOp::create(lb, l, sRaw[nt],
                                                ArrayRef<int64_t>{r, j});
            // (With a score_mod, scaled below: score_mod(scale x) log2 e;
            // with `units`, in the softmax's FMA.)
            if (!s.scoreMod && !units)
              x = arith::MulFOp::create(lb, l, x, sl2V);
            Value key, keyc;
            if ((masked && !ranges) || s.scoreMod) {
              key = G.add(jt, G.add(G.t2, kl.c(nt * 8 + j)));
              // The regions see keys and rows in range (the tail's, past
              // Nk, are masked: a captured table is not read past its end).
              keyc = masked
                         ? arith::MinUIOp::create(lb, l, key, s.nkValue(kl, -1))
                               .getResult()
                         : key;
            }
            if (s.scoreMod) {
              // score_mod on scale * q.k, then in log2 units.
              Value t = arith::MulFOp::create(lb, l, x, scaleV);
              Value y = mods->score(kl, r, t, rowsc[r], keyc);
              x = arith::MulFOp::create(lb, l, y, kl.f(kLog2e));
            }
            if (ranges) {
              Value vis = inRange(kl, relLo[r], relHi[r], nt * 8 + j);
              x = arith::SelectOp::create(lb, l, vis, x, kl.f(ninf));
            } else if (masked) {
              Value vis = mods->visible(
                  kl, r, keyVisible(kl, s, rowLimit[r], key), rowsc[r], keyc);
              x = arith::SelectOp::create(lb, l, vis, x, kl.f(ninf));
              if (mask) {
                // mask(row, key) log2 e: the scores' units.
                x = addMask(
                    kl, s, x, mask, maskBase, rowsc[r],
                    arith::MinUIOp::create(lb, l, key, s.nkValue(kl, -1)));
              }
            }
            emit(nt, r, j, x);
          }
      }
    };
    // Key ranges: a tail tile's lower bounds hold (TileChecks).
    const bool checkLo = !(checks == TileChecks::Tail && tailLoFree);
    if (!maskedAt) {
      scores(lb, l, masked, checkLo,
             [&](int64_t nt, int64_t r, int64_t j, Value x) {
               take(lb, l, nt, r, j, x);
             });
    } else {
      // Both branches yield the scores; the maxima follow the branch.
      auto branch = [&](bool masked) {
        return [&, masked](OpBuilder &ib, Location il) {
          SmallVector<Value> xs;
          scores(ib, il, masked, checkLo,
                 [&](int64_t, int64_t, int64_t, Value x) { xs.push_back(x); });
          scf::YieldOp::create(ib, il, xs);
        };
      };
      auto scored =
          ifElse(lb, l, SmallVector<Type>(nTiles * 4, lb.getF32Type()),
                 maskedAt, branch(true), branch(false));
      for (int64_t i = 0; i < nTiles * 4; ++i)
        take(lb, l, i / 4, i / 2 % 2, i % 2, scored.getResult(i));
    }
    // Online softmax per row; the 4 lanes of a row agree on its max.
    SmallVector<Value> next(4);
    Value alpha[2], negMs[2];
    for (int r = 0; r < 2; ++r) {
      Value mt = tileMax[r];
      for (int32_t x : {1, 2})
        mt = arith::MaxNumFOp::create(
            lb, l, mt,
            gpu::ShuffleOp::create(lb, l, mt, x, 32, gpu::ShuffleMode::XOR)
                .getShuffleResult());
      Value mNew = arith::MaxNumFOp::create(lb, l, args[r], mt);
      Value isInf = arith::CmpFOp::create(lb, l, arith::CmpFPredicate::OEQ,
                                          mNew, kl.f(ninf));
      Value ms = arith::SelectOp::create(lb, l, isInf, kl.f(0.0f), mNew);
      if (units) {
        // (m u rounded once; x u - m u by FMA.)
        negMs[r] = arith::MulFOp::create(lb, l, ms, kl.f(-*units));
        alpha[r] = exp2(lb, l, fmac(lb, l, args[r], kl.f(*units), negMs[r]));
      } else {
        negMs[r] = arith::NegFOp::create(lb, l, ms);
        alpha[r] =
            exp2(lb, l, arith::AddFOp::create(lb, l, args[r], negMs[r]));
      }
      // (P's offset, after alpha's exponent.)
      if (pOffset != 0.0f)
        negMs[r] = arith::AddFOp::create(lb, l, negMs[r], kl.f(pOffset));
      next[r] = mNew;
      next[2 + r] = arith::MulFOp::create(lb, l, args[2 + r], alpha[r]);
    }
    // P = 2^(S - m) (S in log2 units), row sums; as A fragments (two
    // n-tiles per 16 keys) in registers. mmaFmaExp2 of every 8 of a
    // thread's exponentials on the FMA units: with a soft-cap's tanh, two
    // SFU operations per score take as long as the warpgroup's products.
    SmallVector<Value> pC;
    int64_t element = 0;
    for (Value acc : sAcc) {
      for (int64_t r = 0; r < 2; ++r)
        for (int64_t j = 0; j < 2; ++j, ++element) {
          Value x =
              vector::ExtractOp::create(lb, l, acc, ArrayRef<int64_t>{r, j});
          Value arg = units ? fmac(lb, l, x, kl.f(*units), negMs[r])
                            : arith::AddFOp::create(lb, l, x, negMs[r]);
          Value p = !fp8 && element % 8 < s.mmaFmaExp2 ? exp2OnFma(lb, l, arg)
                                                       : exp2(lb, l, arg);
          next[2 + r] = arith::AddFOp::create(lb, l, next[2 + r], p);
          acc =
              vector::InsertOp::create(lb, l, p, acc, ArrayRef<int64_t>{r, j});
        }
      pC.push_back(acc);
    }
    TileSoftmax out{next, {alpha[0], alpha[1]}, pC};
    return out;
  };
  // O *= alpha (per row). Past d = 128 (O's accumulators 128 registers a
  // thread), a warp whose rows' maxima all stayed (alpha = 1 exactly in
  // each of its lanes) skips the products, which would give O itself:
  // exact, and 128 multiplies a thread fewer per tile, as most tiles past
  // the first few leave every row's max where it was (FlashAttention-4
  // skips more: its rescale waits until the max grew by 2^8, which changes
  // the rounding; this one does not). On an H100 (session 38, A/B/A) the
  // d = 256 forward ran 1.10x at 16k (1.05x causal), 1.0-1.02x at 1k-4k;
  // at d = 128 within the noise, at d = 64 0.97-1.0x.
  const bool skipRescale = s.tileD() > 128;
  auto rescale = [&](OpBuilder &lb, Location l, ArrayRef<Value> acc,
                     Value alpha[2]) {
    auto scaled = [&](OpBuilder &ib, Location il) {
      SmallVector<Value> out;
      for (Value a : acc) {
        for (int64_t r = 0; r < 2; ++r) {
          Value row =
              vector::ExtractOp::create(ib, il, a, ArrayRef<int64_t>{r});
          row = arith::MulFOp::create(
              ib, il, row, vector::BroadcastOp::create(ib, il, v2f, alpha[r]));
          a = vector::InsertOp::create(ib, il, row, a, ArrayRef<int64_t>{r});
        }
        out.push_back(a);
      }
      return out;
    };
    if (!skipRescale)
      return scaled(lb, l);
    KernelBuilder kl{lb, l};
    Value same = arith::AndIOp::create(
        lb, l,
        arith::CmpFOp::create(lb, l, arith::CmpFPredicate::OEQ, alpha[0],
                              kl.f(1.0f)),
        arith::CmpFOp::create(lb, l, arith::CmpFPredicate::OEQ, alpha[1],
                              kl.f(1.0f)));
    Value warpSame = NVVM::VoteSyncOp::create(
        lb, l, lb.getI1Type(),
        arith::ConstantIntOp::create(lb, l, lb.getI32Type(), -1), same,
        NVVM::VoteSyncKind::all);
    auto kept = ifElse(
        lb, l, TypeRange(ValueRange(acc)), warpSame,
        [&](OpBuilder &ib, Location il) { scf::YieldOp::create(ib, il, acc); },
        [&](OpBuilder &ib, Location il) {
          scf::YieldOp::create(ib, il, scaled(ib, il));
        });
    return SmallVector<Value>(kept.getResults());
  };

  // mma.sync: one tile at jt; returns the loop-carried values for the next
  // one, whose K tile (at nextTile) it starts copying.
  auto syncStep = [&](TileChecks checks) {
    return [&, checks](OpBuilder &lb, Location l, Value jt, ValueRange args,
                       Value nextTile) -> SmallVector<Value> {
      KernelBuilder kl{lb, l};
      MmaFragments G{lb, l, elt, F.lrow, F.lmat, F.g, F.t2};
      // K(j) has landed; V(j) streams in while S and the softmax run,
      // K(j+1) while P V runs (one buffer each: the barriers order reuse).
      landed(G, args.back());
      Value vGroup = G.copyTile(tid, threads, v, kvbh, jt, nk, tileKV, D, vS);
      // S = Q K^T: per 8-key tile, mma.syncs.
      SmallVector<Value> sRaw;
      for (int64_t nt = 0; nt < nTiles; ++nt) {
        SmallVector<Value> kB =
            G.bFrags(kS, kl.c(nt * 8), 0, kSteps, /*trans=*/false);
        Value acc = G.zeroC();
        for (int64_t ks = 0; ks < kSteps; ++ks)
          acc = G.mma(qA[ks], kB[ks], acc);
        sRaw.push_back(acc);
      }
      TileSoftmax sm = softmax(lb, l, G, jt, args, sRaw, checks);
      landed(G, vGroup);
      Value nextK = copyK(G, nextTile, kl.c(0));
      // O = alpha O + P V (V's B fragments by ldmatrix.trans).
      SmallVector<Value> oAcc =
          rescale(lb, l, SmallVector<Value>(args.slice(4, dTiles)), sm.alpha);
      for (int64_t kk = 0; kk < nTiles / 2; ++kk) {
        Value pA = G.cToA(sm.pC[2 * kk], sm.pC[2 * kk + 1]);
        SmallVector<Value> vB =
            G.bFrags(vS, kl.c(kk * 16), 0, dTiles, /*trans=*/true);
        for (int64_t dt = 0; dt < dTiles; ++dt)
          oAcc[dt] = G.mma(pA, vB[dt], oAcc[dt]);
      }
      SmallVector<Value> next = sm.next;
      llvm::append_range(next, oAcc);
      next.push_back(nextK);
      return next;
    };
  };
  // wgmma (synchronous products): one stage, K(j+1) streaming in during
  // P V and V(j) during S and the softmax, as mma.sync; or two stages (K
  // and V of tile j in buffers `stage`), K(j+1) and V(j+1) streaming into
  // the other ones during all of tile j, one barrier per tile.
  auto wgmmaStep = [&](TileChecks checks) {
    return [&, checks](OpBuilder &lb, Location l, Value jt, ValueRange args,
                       Value nextTile) -> SmallVector<Value> {
      KernelBuilder kl{lb, l};
      MmaFragments G{lb, l, elt, F.lrow, F.lmat, F.g, F.t2};
      // K(j) (and V(j)) have landed; the buffers the copies fill were last
      // read by the previous tile's products, complete in every warp.
      landed(G, args.back());
      Value stage = kl.c(0), other = kl.c(0), copies;
      if (stages == 2) {
        stage = args[4 + dTiles];
        other = arith::SubIOp::create(lb, l, kl.c(1), stage);
        copyK(G, nextTile, other);
        copies = copyV(G, nextTile, other);
      } else {
        copies = copyV(G, jt, stage);
      }
      SmallVector<Value> sRaw =
          G.wgmma({}, qA, kv->advance(G, kDesc, stage), kv->kMajorSteps(),
                  /*transB=*/false, nTiles, qDesc, kv->kMajorSteps());
      TileSoftmax sm = softmax(lb, l, G, jt, args, sRaw, checks);
      if (stages == 1) {
        landed(G, copies);
        copies = copyK(G, nextTile, stage);
      }
      SmallVector<Value> oAcc =
          rescale(lb, l, SmallVector<Value>(args.slice(4, dTiles)), sm.alpha);
      SmallVector<Value> pA;
      if (fp8) {
        // Four C tiles (32 keys) per 32-deep step; V^T's rows hold the keys
        // in the order the fragment packs them.
        for (int64_t kk = 0; kk < nTiles / 4; ++kk)
          pA.push_back(G.fp8PFragment(ArrayRef<Value>(sm.pC).slice(4 * kk, 4)));
        oAcc = G.wgmma(oAcc, pA, kv->advance(G, vDesc, stage),
                       kv->kMajorSteps(), /*transB=*/false);
      } else {
        for (int64_t kk = 0; kk < nTiles / 2; ++kk)
          pA.push_back(G.cToA(sm.pC[2 * kk], sm.pC[2 * kk + 1]));
        oAcc = G.wgmma(oAcc, pA, kv->advance(G, vDesc, stage),
                       kv->mnMajorSteps(), /*transB=*/true);
      }
      SmallVector<Value> next = sm.next;
      llvm::append_range(next, oAcc);
      if (stages == 2)
        next.push_back(other);
      next.push_back(copies);
      return next;
    };
  };
  // Warp-specialized (FlashAttention-3's intra-warpgroup overlap): tile j
  // issues S(j) = Q K(j)^T and O += P(j-1) V(j-1) as two asynchronous
  // groups, runs its softmax once S(j) is complete while P V runs, then
  // rescales O. Loop-carried after (m, l, O): P(j-1) as A fragments (live
  // until its product completes) and j - 1. Each stage is released as soon
  // as its product is complete; the first tile's S and softmax are peeled
  // off before the loops, the last tile's P V after them.
  const int64_t pSteps = nTiles / 2;
  auto qkAsync = [&](MmaFragments &G, Value stage) {
    return G.wgmma({}, qA, kv->advance(G, kDesc, stage), kv->kMajorSteps(),
                   /*transB=*/false, nTiles, qDesc, kv->kMajorSteps(),
                   /*wait=*/false);
  };
  auto toA = [&](MmaFragments &G, ArrayRef<Value> pC) {
    SmallVector<Value> pA;
    for (int64_t kk = 0; kk < pSteps; ++kk)
      pA.push_back(G.cToA(pC[2 * kk], pC[2 * kk + 1]));
    return pA;
  };
  // The consumers' turns (named barriers 1 and 2, set up above).
  auto takeTurn = [&](OpBuilder &lb, Location l) {
    NVVM::BarrierOp::create(lb, l, TypeRange(), wgId, pairThreads,
                            NVVM::BarrierReductionAttr(), Value());
  };
  auto passTurn = [&](OpBuilder &lb, Location l) {
    NVVM::BarrierArriveOp::create(lb, l, otherId, pairThreads);
  };
  // merge-masked-tiles: the tiles from maskFrom (the causal diagonal's, the
  // Nk edge's) masked by a branch in one loop's step.
  const bool merged = s.mmaMergeMaskedTiles;
  Value maskFrom = fullEnd;
  auto maskedAt = [&](OpBuilder &lb, Location l, Value jt) -> Value {
    if (!merged)
      return Value();
    return arith::CmpIOp::create(lb, l, arith::CmpIPredicate::sge, jt,
                                 maskFrom);
  };
  auto wsStep = [&](TileChecks checks) {
    return [&, checks](OpBuilder &lb, Location l, Value jt, ValueRange args,
                       Value) -> SmallVector<Value> {
      MmaFragments G{lb, l, elt, F.lrow, F.lmat, F.g, F.t2};
      // The ring slots by the tiles' places in the order (the producer's
      // `n`): the previous tile's, carried, and this one's.
      Value prev = args.back();
      Value slot = G.add(prev, G.c(1));
      auto [stage, phase] = ringSlot(lb, l, slot);
      auto [pstage, pphase] = ringSlot(lb, l, prev);
      bars->wait(lb, l, kKFull, stage, phase);
      bars->wait(lb, l, kVFull, pstage, pphase);
      // Ping-pong: this warpgroup's turn to issue (the other one's
      // softmax runs under these products, and its products under ours).
      takeTurn(lb, l);
      SmallVector<Value> sAcc = qkAsync(G, stage);
      SmallVector<Value> oAcc =
          G.wgmma(SmallVector<Value>(args.slice(4, dTiles)),
                  SmallVector<Value>(args.slice(4 + dTiles, pSteps)),
                  kv->advance(G, vDesc, pstage), kv->mnMajorSteps(),
                  /*transB=*/true, 0, Value(), {}, /*wait=*/false);
      passTurn(lb, l);
      sAcc = G.wgmmaWait(1, sAcc);
      bars->arrive(lb, l, kKEmpty, stage);
      TileSoftmax sm = softmax(
          lb, l, G, jt, args, sAcc,
          merged && checks == TileChecks::None ? TileChecks::All : checks,
          maskedAt(lb, l, jt));
      SmallVector<Value> pA = toA(G, sm.pC);
      oAcc = G.wgmmaWait(0, oAcc,
                         SmallVector<Value>(args.slice(4 + dTiles, pSteps)));
      bars->arrive(lb, l, kVEmpty, pstage);
      SmallVector<Value> next = sm.next;
      llvm::append_range(next, rescale(lb, l, oAcc, sm.alpha));
      llvm::append_range(next, pA);
      next.push_back(slot);
      return next;
    };
  };
  auto step = [&](TileChecks checks) {
    return [&, checks](OpBuilder &lb, Location l, Value jt, ValueRange args,
                       Value nextTile) -> SmallVector<Value> {
      return ws   ? wsStep(checks)(lb, l, jt, args, nextTile)
             : wg ? wgmmaStep(checks)(lb, l, jt, args, nextTile)
                  : syncStep(checks)(lb, l, jt, args, nextTile);
    };
  };
  // The peeled first tile (a masked one: it may be either).
  Value anyTile, headStart = kvStart;
  if (ws) {
    // (Skipping: the first tile the block sees; its ring slot ringStart.)
    Value firstSeen = skipTiles ? tailStart : kvStart;
    anyTile = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                    firstSeen, kvEnd);
    SmallVector<Value> zeroA;
    {
      auto aTy = VectorType::get({4, 2}, elt);
      Value z = arith::ConstantOp::create(
          b, loc, aTy, DenseElementsAttr::get(aTy, b.getZeroAttr(elt)));
      zeroA.assign(pSteps, z);
    }
    SmallVector<Value> start(inits);
    llvm::append_range(start, zeroA);
    // (With no tile, the last tile's slot is the one before ringStart: the
    // ring's position after the block is the last slot + 1 either way.)
    start.push_back(F.add(ringStart, kb.c(-1)));
    auto first = ifElse(
        b, loc, TypeRange(ValueRange(start)), anyTile,
        [&](OpBuilder &ib, Location il) {
          MmaFragments G{ib, il, elt, F.lrow, F.lmat, F.g, F.t2};
          auto [stage, phase] = ringSlot(ib, il, ringStart);
          bars->wait(ib, il, kKFull, stage, phase);
          SmallVector<Value> sAcc = G.wgmmaWait(0, qkAsync(G, stage));
          bars->arrive(ib, il, kKEmpty, stage);
          TileSoftmax sm =
              softmax(ib, il, G, firstSeen, start, sAcc, TileChecks::All,
                      maskedAt(ib, il, firstSeen));
          SmallVector<Value> out = sm.next;
          llvm::append_range(out, ArrayRef<Value>(inits).slice(4, dTiles));
          llvm::append_range(out, toA(G, sm.pC));
          out.push_back(ringStart);
          scf::YieldOp::create(ib, il, out);
        },
        [&](OpBuilder &ib, Location il) {
          scf::YieldOp::create(ib, il, start);
        });
    inits.assign(first.getResults().begin(), first.getResults().end());
    // The loops start at the second tile.
    Value second = F.add(kvStart, kb.c(tileKV));
    headStart = second;
    innerStart = arith::MaxSIOp::create(b, loc, innerStart, second);
    fullEnd = arith::MaxSIOp::create(b, loc, fullEnd, innerStart);
    if (skipTiles) {
      // The tail loop from the next tile the block sees.
      SmallVector<Value> after =
          cursor->advance(b, loc, F.add(firstSeen, kb.c(tileKV)), cursorState);
      tailStart = after.front();
      cursorState.assign(after.begin() + 1, after.end());
    } else {
      tailStart = arith::MaxSIOp::create(b, loc, tailStart, second);
    }
  }
  auto body = [&](TileChecks checks) {
    return [&, checks](OpBuilder &lb, Location l, Value jt, ValueRange args) {
      Value nextTile =
          arith::AddIOp::create(lb, l, jt, arith::ConstantIndexOp::create(lb, l, tileKV));
      scf::YieldOp::create(lb, l, step(checks)(lb, l, jt, args, nextTile));
    };
  };
  SmallVector<Value> headOut(inits);
  if (s.maskMod)
    headOut = SmallVector<Value>(
        scf::ForOp::create(b, loc, headStart, innerStart, kb.c(tileKV), inits,
                           body(TileChecks::All))
            .getResults());
  auto full = scf::ForOp::create(b, loc, innerStart, merged ? kvEnd : fullEnd,
                                 kb.c(tileKV), headOut, body(TileChecks::None));
  // The tail; with skipping, over the tiles the block sees only, those it
  // sees in full without the mask.
  SmallVector<Value> loopRes =
      merged
          ? SmallVector<Value>(full.getResults())
          : blockMaskTileLoop(
                b, loc, tailStart, kvEnd, tileKV, full.getResults(),
                cursor ? &*cursor : nullptr, cursorState,
                /*partialOnly=*/bool(mask),
                [&](OpBuilder &lb, Location l, Value jt, ValueRange args,
                    Value nextTile, bool seenInFull) {
                  return step(seenInFull ? TileChecks::None : TileChecks::Tail)(
                      lb, l, jt, args, nextTile);
                });

  if (!ws)
    F.waitAll(loopRes.back());
  if (ws) {
    // The last tile's P V.
    auto last = ifElse(
        b, loc, TypeRange(ValueRange(loopRes).slice(4, dTiles)), anyTile,
        [&](OpBuilder &ib, Location il) {
          MmaFragments G{ib, il, elt, F.lrow, F.lmat, F.g, F.t2};
          auto [pstage, pphase] = ringSlot(ib, il, loopRes.back());
          bars->wait(ib, il, kVFull, pstage, pphase);
          SmallVector<Value> oAcc =
              G.wgmma(ArrayRef<Value>(loopRes).slice(4, dTiles),
                      ArrayRef<Value>(loopRes).slice(4 + dTiles, pSteps),
                      kv->advance(G, vDesc, pstage), kv->mnMajorSteps(),
                      /*transB=*/true);
          // A persistent block's ring goes on into its next query block:
          // the last V's stage is free again (without this arrival the
          // producer waited for it forever when the ring came round).
          if (persistent)
            bars->arrive(ib, il, kVEmpty, pstage);
          scf::YieldOp::create(ib, il, oAcc);
        },
        [&](OpBuilder &ib, Location il) {
          scf::YieldOp::create(ib, il,
                               ArrayRef<Value>(loopRes).slice(4, dTiles));
        });
    for (int64_t dt = 0; dt < dTiles; ++dt)
      loopRes[4 + dt] = last.getResult(dt);
  }
  // Split-KV: the combine kernel (which waits for this grid's records
  // itself) may launch now, under this epilogue.
  if (s.splitKeys && wg)
    NVVM::GriddepcontrolOp::create(b, loc,
                                   NVVM::GridDepActionKind::launch_dependents);

  // o goes out through shared memory: each warpgroup writes its 64 rows in
  // the tiles' swizzle (a lane's column pairs: bank-conflict-free 32-bit
  // stores) and copies them out a 16-byte chunk per thread, whole rows per
  // warp (8 coalesced 128-bit stores a thread at d = 128, where storing the
  // fragments is 32 stores a thread of half a sector each). Where Q is in
  // shared memory, into the warpgroup's rows of Q (its alone; its products
  // are done); else, in the one-warpgroup kernel, into the K tile (its last
  // product done, its last copy waited for).
  const bool stageO =
      !s.splitKeys && wg && !fp8 &&
      (qShared || (!ws && warps == 4 && stages == 1 && tileKV >= 64));
  Value wgRowBase, qTile, qRowOff, wgBarrierId;
  auto wgBarrier = [&]() {
    NVVM::BarrierOp::create(
        b, loc, TypeRange(), wgBarrierId,
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), 128),
        NVVM::BarrierReductionAttr(), Value());
  };
  if (stageO) {
    Value wgIdx = wgU ? wgU : arith::DivUIOp::create(b, loc, tid, kb.c(128));
    Value wgRows = arith::MulIOp::create(b, loc, wgIdx, kb.c(64));
    wgRowBase = arith::AddIOp::create(b, loc, rowBase, wgRows);
    qTile = qShared ? arith::AddIOp::create(
                          b, loc, qTileIndex(b, 0),
                          arith::DivUIOp::create(b, loc, wgRows, kb.c(tileKV)))
                          .getResult()
                    : kb.c(0);
    qRowOff =
        qShared
            ? arith::RemUIOp::create(b, loc, wgRows, kb.c(tileKV)).getResult()
            : kb.c(0);
    // Named barriers 3 and 4 (1 and 2 are the consumers' turns).
    wgBarrierId = arith::AddIOp::create(
        b, loc, arith::IndexCastUIOp::create(b, loc, b.getI32Type(), wgIdx),
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), 3));
    wgBarrier();
  }
  // A row's normalization: whether it saw no key, and o's column pairs
  // (the accumulators times 1/l, 0 then) as elt, one per 8-column tile.
  auto normalized = [&](OpBuilder &ib, Location il, int r, Value lsum,
                        Value &none) {
    KernelBuilder ki{ib, il};
    none = arith::CmpFOp::create(ib, il, arith::CmpFPredicate::OEQ, lsum,
                                 ki.f(0.0f));
    Value inv = arith::DivFOp::create(ib, il, ki.f(1.0f), lsum);
    if (oFactor)
      inv = arith::MulFOp::create(ib, il, inv, oFactor);
    inv = arith::SelectOp::create(ib, il, none, ki.f(0.0f), inv);
    Value invV = vector::BroadcastOp::create(ib, il, v2f, inv);
    SmallVector<Value> pairs;
    for (int64_t dt = 0; dt < dTiles; ++dt) {
      Value x = vector::ExtractOp::create(ib, il, loopRes[4 + dt],
                                          ArrayRef<int64_t>{r});
      x = arith::MulFOp::create(ib, il, x, invV);
      pairs.push_back(
          arith::TruncFOp::create(ib, il, VectorType::get({2}, outElt), x));
    }
    return pairs;
  };
  auto storeLse = [&](OpBuilder &ib, Location il, Value m, Value lsum,
                      Value none, Value row) {
    Value first =
        arith::CmpIOp::create(ib, il, arith::CmpIPredicate::eq, F.t2,
                              arith::ConstantIndexOp::create(ib, il, 0));
    scf::IfOp::create(ib, il, first, [&](OpBuilder &jb, Location jl) {
      KernelBuilder kj{jb, jl};
      Value lg = arith::AddFOp::create(jb, jl, m, log2(jb, jl, lsum));
      if (pOffset != 0.0f)
        lg = arith::SubFOp::create(jb, jl, lg, kj.f(pOffset));
      lg = arith::MulFOp::create(jb, jl, lg, kj.f(0.6931471805599453f));
      lg = arith::SelectOp::create(jb, jl, none, kj.f(ninf), lg);
      memref::StoreOp::create(jb, jl, lg, lse, ValueRange{bh, row});
      scf::YieldOp::create(jb, jl);
    });
  };

  // Row sums over the 4 lanes of a row, then o and lse for rows < Nq (or,
  // split-KV, the rows' records).
  for (int r = 0; r < 2; ++r) {
    Value m = loopRes[r], lsum = loopRes[2 + r];
    // (In log2 units.)
    if (units)
      m = arith::MulFOp::create(b, loc, m, kb.f(*units));
    for (int32_t x : {1, 2})
      lsum = arith::AddFOp::create(
          b, loc, lsum,
          gpu::ShuffleOp::create(b, loc, lsum, x, 32, gpu::ShuffleMode::XOR)
              .getShuffleResult());
    Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         rows[r], nq);
    if (s.splitKeys) {
      scf::IfOp::create(b, loc, active, [&](OpBuilder &ib, Location il) {
        KernelBuilder ki{ib, il};
        Value scratch = fn.getArgument(5);
        // Record (bh * splits + split) * Nq + row: acc (relative to 2^m),
        // m (log2 units), l.
        Value rec = arith::MulIOp::create(
            ib, il,
            arith::AddIOp::create(
                ib, il,
                arith::MulIOp::create(
                    ib, il,
                    arith::AddIOp::create(
                        ib, il, arith::MulIOp::create(ib, il, bh, splits), bx),
                    nq),
                rows[r]),
            ki.c(s.dv + 2));
        for (int64_t dt = 0; dt < s.dv / 8; ++dt) {
          Value x = vector::ExtractOp::create(ib, il, loopRes[4 + dt],
                                              ArrayRef<int64_t>{r});
          storePair(ib, il, x, scratch,
                    ValueRange{arith::AddIOp::create(
                        ib, il, rec,
                        arith::AddIOp::create(ib, il, F.t2, ki.c(dt * 8)))});
        }
        Value first = arith::CmpIOp::create(ib, il, arith::CmpIPredicate::eq,
                                            F.t2, ki.c(0));
        scf::IfOp::create(ib, il, first, [&](OpBuilder &jb, Location jl) {
          KernelBuilder kj{jb, jl};
          Value none = arith::CmpFOp::create(jb, jl, arith::CmpFPredicate::OEQ,
                                             lsum, kj.f(0.0f));
          Value m2 = arith::SelectOp::create(jb, jl, none, kj.f(ninf), m);
          memref::StoreOp::create(
              jb, jl, m2, scratch,
              ValueRange{arith::AddIOp::create(jb, jl, rec, kj.c(s.dv))});
          memref::StoreOp::create(
              jb, jl, lsum, scratch,
              ValueRange{arith::AddIOp::create(jb, jl, rec, kj.c(s.dv + 1))});
          scf::YieldOp::create(jb, jl);
        });
        scf::YieldOp::create(ib, il);
      });
      continue;
    }
    if (stageO) {
      Value none;
      SmallVector<Value> pairs = normalized(b, loc, r, lsum, none);
      Value r64 = arith::AddIOp::create(
          b, loc, qRowOff, arith::SubIOp::create(b, loc, rows[r], wgRowBase));
      for (int64_t dt = 0; dt < dTiles; ++dt) {
        Value at = arith::AddIOp::create(
            b, loc, kv->at(b, loc, qTile, r64, kb.c(dt * 8))[0], F.t2);
        storePair(b, loc, pairs[dt], kS, ValueRange{at});
      }
      scf::IfOp::create(b, loc, active, [&](OpBuilder &ib, Location il) {
        storeLse(ib, il, m, lsum, none, rows[r]);
        scf::YieldOp::create(ib, il);
      });
      continue;
    }
    scf::IfOp::create(b, loc, active, [&](OpBuilder &ib, Location il) {
      KernelBuilder ki{ib, il};
      Value none;
      SmallVector<Value> pairs = normalized(ib, il, r, lsum, none);
      // (Only o's columns: past d the tiles' columns are padding.)
      for (int64_t dt = 0; dt < s.dv / 8; ++dt) {
        storePair(
            ib, il, pairs[dt], o,
            ValueRange{bh, rows[r],
                       arith::AddIOp::create(ib, il, F.t2, ki.c(dt * 8))});
      }
      storeLse(ib, il, m, lsum, none, rows[r]);
      scf::YieldOp::create(ib, il);
    });
  }
  if (stageO) {
    wgBarrier();
    const int64_t chunks = D / 8;
    auto chunkTy = VectorType::get({8}, elt);
    Value wgTid = arith::RemUIOp::create(b, loc, tid, kb.c(128));
    for (int64_t i = 0; i < 64 * chunks / 128; ++i) {
      Value idx = arith::AddIOp::create(b, loc, wgTid, kb.c(i * 128));
      Value rr = arith::DivUIOp::create(b, loc, idx, kb.c(chunks));
      Value col = arith::MulIOp::create(
          b, loc, arith::RemUIOp::create(b, loc, idx, kb.c(chunks)), kb.c(8));
      Value row = arith::AddIOp::create(b, loc, wgRowBase, rr);
      Value in =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, nq);
      if (D != s.dv)
        in = arith::AndIOp::create(
            b, loc, in,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col,
                                  kb.c(s.dv)));
      scf::IfOp::create(b, loc, in, [&](OpBuilder &ib, Location il) {
        Value at = kv->at(ib, il, qTile,
                          arith::AddIOp::create(ib, il, qRowOff, rr), col)[0];
        Value x =
            vector::LoadOp::create(ib, il, chunkTy, kS, ValueRange{at},
                                   /*nontemporal=*/false, llvm::MaybeAlign(16));
        vector::StoreOp::create(ib, il, x, o, ValueRange{bh, row, col},
                                /*nontemporal=*/false, llvm::MaybeAlign(16));
        scf::YieldOp::create(ib, il);
      });
    }
  }
  if (persistent) {
    // Q's buffer (o's staging) is free; the ring's position after this
    // query block's last tile (its slot: with none, the first's). (The
    // staging's generic accesses ordered before the next Q's tensor copy,
    // an async-proxy write, by a proxy fence.)
    F.fenceProxyAsync();
    bars->arrive(b, loc, kQEmpty, qSlot);
    blockDone(b, cLoop, F.add(loopRes.back(), kb.c(1)));
  }
  if (ws)
    b.setInsertionPointAfter(roles);
  gpu::ReturnOp::create(b, loc);
  return fn;
}
