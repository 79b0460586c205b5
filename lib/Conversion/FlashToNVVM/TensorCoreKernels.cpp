//===- TensorCoreKernels.cpp - The tensor-core kernels as kernel kinds ----===//
//
// The NVVM library's kernel kinds for flash-map-to-gpu (with its
// `tensor-cores`): f16/bf16 forward and backward on mma.sync (sm_80+) or,
// with `wgmma` and a head dim that is a multiple of 64, on Hopper's
// warpgroup MMA. The kernels: MmaKernels.cpp (forward), MmaGradKernels.cpp
// (dQ, dK/dV).
//
//===----------------------------------------------------------------------===//

#include "TensorCoreKernels.h"
#include "flash/Conversion/FlashToNVVM/FlashToNVVM.h"
#include "flash/Dialect/Flash/IR/Modifiers.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

#include <numeric>

using namespace mlir;
using namespace mlir::flash;
using namespace mlir::flash::gpukernels;

namespace {
/// Whether the score_mod has an op the SFU computes (tanh, exp, log: a
/// soft-cap), next to the softmax's exp2 per score.
bool scoreModUsesSFU(const KernelSpec &s) {
  if (!s.scoreMod)
    return false;
  return s.scoreMod
      ->walk([](Operation *op) {
        return isa<math::TanhOp, math::ExpOp, math::Exp2Op, math::LogOp,
                   math::Log2Op>(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

struct TensorCoreKind : KernelKind {
  bool applies(KernelSpec &s, const FlashMapToGPUOptions &o,
               bool backward) const override {
    if (s.isFloat8()) {
      // One warpgroup (its products synchronous) on 128-key tiles, capped
      // at 168 registers (three blocks per SM, no spills): 1.09-1.30x
      // ptxas' 185 (two blocks) on the H200 (bench/RESULTS.md). Masked
      // ones, or ones with a score_mod or captured operands, would spill.
      if (!o.tensorCores || !o.wgmma || backward || !fp8ForwardApplies(s))
        return false;
      s.wgmma = true;
      s.mmaWarpSpecialized = false;
      s.mmaMaxRegisters = o.mmaMaxRegisters;
      if (!s.mmaMaxRegisters && !s.mask && !s.scoreMod && s.captures.empty())
        s.mmaMaxRegisters = 168;
      s.mmaWarps = 4;
      s.mmaTileKV = 128;
      return true;
    }
    if (!o.tensorCores ||
        !(backward ? mmaGradApplies(s, o.wgmma, o.gradD256)
                   : mmaForwardApplies(s) || (o.wgmma && wgmmaApplies(s))))
      return false;
    s.wgmma = o.wgmma && wgmmaApplies(s);
    s.dTile = s.wgmma ? wgmmaTileD(s) : 0;
    // Explicit tiles or register limits tune the one-warpgroup kernel.
    const bool persistent = !backward && o.persistentBlocks > 0 &&
                            persistentApplies(s, o.persistentCaptures);
    s.mmaWarpSpecialized = !backward && s.wgmma && o.warpSpecialize &&
                           !o.mmaWarps && !o.mmaTileKV && !o.mmaMaxRegisters &&
                           warpSpecializedApplies(s, persistent);
    s.mmaPersistentBlocks =
        s.mmaWarpSpecialized && persistent ? o.persistentBlocks : 0;
    s.mmaMaxRegisters = o.mmaMaxRegisters;
    s.mmaMergeMaskedTiles = !backward && s.mmaWarpSpecialized &&
                            o.mergeMaskedTiles && s.causalOffset &&
                            s.tileD() <= 128 && !s.mask && !s.maskMod &&
                            !s.scoreMod;
    if (!backward)
      s.mmaFmaExp2 = o.fmaExp2 >= 0       ? std::min<int64_t>(o.fmaExp2, 8)
                     : scoreModUsesSFU(s) ? 3
                                          : 0;
    // dQ by reductions (deterministic=false) on the wgmma backward up to
    // d = 128, unless the op is marked deterministic; a document mask's
    // table would take the scratch buffer it needs. (Past d = 128 the dK/dV
    // blocks split dK and dV by columns: a dQ^T of all of D would not fit
    // their registers.) Its dK/dV kernel reads K and V from shared memory
    // (K is also dQ^T's A operand) and takes two warpgroups, 128 keys a
    // block, by default: each query tile's reduction then covers twice the
    // keys (half the reduction traffic of one warpgroup's 64).
    s.gradAtomicDQ = backward && s.wgmma && !o.deterministic && !s.orderFixed &&
                     !blockMaskApplies(s) && s.tileD() <= 128;
    s.gradAShared = backward && s.wgmma &&
                    (s.tileD() > 128 || o.gradAShared || s.gradAtomicDQ);
    // A producer warpgroup in the backward kernels (grad-producer).
    s.gradProducer = backward && o.gradProducer && s.gradAShared;
    // Two consumer warpgroups in the backward by reductions, and always at
    // d = 256, where the dK/dV kernel's split them by roles and the dQ
    // kernel's share each 32-key tile of K and V (session 31).
    chooseMmaTiles(s,
                   backward && s.tileD() > 128 ? 8
                   : o.mmaWarps                ? o.mmaWarps
                   : s.gradAtomicDQ            ? 8
                                               : 0,
                   o.mmaTileKV, backward);
    // The producers copy their tiles by TMA (a box: a tile's rows of one
    // 64-column group, 128 bytes, swizzled): the warp-specialized
    // forward's Q, K and V, the dQ kernel's K and V, the dK/dV kernel's Q
    // and dO. On an H100 (session 34) the forward 1.02-1.06x at d = 128
    // and 256 from 4k keys, the window forward 1.09x.
    if (s.mmaWarpSpecialized)
      for (StringRef buffer : {"q", "k", "v"})
        s.tensorMaps.push_back({buffer, s.mmaTileKV, 64});
    if (backward && !s.gradAtomicDQ && gradQProducer(s))
      for (StringRef buffer : {"k", "v"})
        s.tensorMaps.push_back({buffer, mmaGradTile(s, /*kv=*/false), 64});
    if (backward && s.gradProducer)
      for (StringRef buffer : {"q", "do"})
        s.tensorMaps.push_back({buffer, mmaGradTile(s, /*kv=*/true), 64});
    // A document mask's table, in entries whose multiples are the tiles
    // the kernels visit: the forward's (block rows x key tile); the
    // backward's the dQ kernel's (block rows x key tile) and the dK/dV
    // kernel's (query tile x block keys) alike.
    if (blockMaskApplies(s)) {
      int64_t rows = mmaRowsPerBlock(s);
      if (backward)
        setBlockMask(s, std::gcd(rows, mmaGradTile(s, /*kv=*/true)),
                     std::gcd(rows, mmaGradTile(s, /*kv=*/false)));
      else
        setBlockMask(s, rows, s.mmaTileKV);
    }
    return true;
  }

  FailureOr<SmallVector<MappedKernel>>
  build(OpBuilder &b, Operation *op, ArrayRef<std::string> names,
        KernelSpec &s, const FlashMapToGPUOptions &,
        bool backward) const override {
    StringRef kind = s.wgmma ? "wgmma" : "mma.sync";
    int64_t threads = mmaThreads(s), rows = mmaRowsPerBlock(s);
    Location loc = op->getLoc();
    SmallVector<MappedKernel> ks;
    if (!backward) {
      ks.push_back(
          {buildForwardMmaKernel(b, loc, names[0], s), threads, rows, kind});
      ks.back().persistentBlocks = s.mmaPersistentBlocks;
    } else if (s.gradAtomicDQ) {
      // D and dQ's zeroed accumulator, dK/dV with dQ's atomics, dQ.
      MappedKernel kv{buildGradKVMmaKernel(b, loc, names[1], s),
                      gradKernelThreads(s), rows, kind};
      kv.rows = "nk";
      kv.batchHeads = "bhkv";
      SmallVector<Type> qArgs = gradQArgTypes(b.getContext(), s);
      ks.push_back(buildGradDQPrepKernel(b, loc, names[0] + "_prep", s, qArgs));
      ks.push_back(kv);
      ks.push_back(buildGradDQConvertKernel(b, loc, names[0], s, qArgs));
    } else {
      ks.push_back({buildGradQMmaKernel(b, loc, names[0], s), gradQThreads(s),
                    rows, kind});
      ks.push_back({buildGradKVMmaKernel(b, loc, names[1], s),
                    gradKernelThreads(s), gradKVRowsPerBlock(s), kind});
    }
    // V^T first (fp8), with the forward's arguments.
    if (s.isFloat8())
      ks.insert(ks.begin(),
                buildFp8TransposeVKernel(b, loc, names[0] + "_v_transpose", s,
                                         ks.front().fn.getArgumentTypes()));
    // The block mask first, with the arguments of the kernel after it.
    if (s.blockMask())
      ks.insert(ks.begin(),
                buildBlockMaskKernel(b, loc, names[0] + "_block_mask", s,
                                     ks.front().fn.getArgumentTypes()));
    return ks;
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect,
                    nvgpu::NVGPUDialect>();
  }
};
/// Decode on the tensor-core forward: the split-KV kernels with the
/// packed problem (a kv head's R = (Hq / Hkv) * Nq query rows as one head's
/// rows, the same memory) on mma.sync / wgmma with the forward's cp.async
/// K/V pipeline, each block over one split of the keys, then
/// SplitKVKernels.cpp's combine kernel. With no mask or modifiers; causal rows by their query (packedQueries).
/// Otherwise the SIMT split-KV kind.
struct TensorCoreSplitKVKind : KernelKind {
  bool first() const override { return true; }

  /// The packed problem, if the kind takes `s`.
  static std::optional<KernelSpec> packed(const KernelSpec &s,
                                          const FlashMapToGPUOptions &o) {
    if (!o.tensorCores || !isSplitKVShape(s, o))
      return std::nullopt;
    int64_t group = s.hq / s.hkv, rows = group * s.nq;
    KernelSpec p = s;
    // Causal (decode steps, draft tokens): row r is query r % Nq, its limit
    // r % Nq + offset. A step whose queries see every key (one query at
    // offset Nk - 1) needs no limit.
    if (s.causalOffset &&
        s.nq == 1 &&
        (ShapedType::isDynamic(*s.causalOffset) ||
         (!ShapedType::isDynamic(s.nk) && *s.causalOffset >= s.nk - 1)))
      p.causalOffset.reset();
    if (p.causalOffset)
      p.packedQueries = s.nq;
    p.hq = s.hkv;
    p.nq = rows;
    p.bh = ShapedType::isDynamic(s.bh) ? s.bh : s.bh / group;
    if (!p.lead.empty())
      p.lead.back() = s.hkv;
    if (!mmaForwardApplies(p) && !(o.wgmma && wgmmaApplies(p)))
      return std::nullopt;
    p.wgmma = o.wgmma && wgmmaApplies(p);
    p.dTile = p.wgmma ? wgmmaTileD(p) : 0;
    p.mmaMaxRegisters = o.mmaMaxRegisters;
    // Decode streams K and V: 128-key tiles (twice the bytes of each
    // cp.async batch in flight) ran 1.0-1.1x the forward's 64 at d = 128 on
    // the H200 (B = 1, Nk = 32k: 0.89 -> 0.98x cuDNN), but 0.65x for causal
    // draft tokens, whose rows see different keys (bench/RESULTS.md,
    // session 14).
    int64_t tileKV = o.mmaTileKV;
    if (!tileKV && p.wgmma && !p.causalOffset && p.tileD() <= 128)
      tileKV = 128;
    chooseMmaTiles(p, o.mmaWarps, tileKV, /*backward=*/false);
    p.splitKeys = true;
    p.splitKeysPerBlock = std::max(o.splitKV, p.mmaTileKV);
    return p;
  }

  bool applies(KernelSpec &s, const FlashMapToGPUOptions &o,
               bool backward) const override {
    return !backward && packed(s, o).has_value();
  }

  FailureOr<SmallVector<MappedKernel>>
  build(OpBuilder &b, Operation *op, ArrayRef<std::string> names,
        KernelSpec &s, const FlashMapToGPUOptions &o,
        bool backward) const override {
    KernelSpec p = *packed(s, o);
    Location loc = op->getLoc();
    StringRef kind = p.wgmma ? "wgmma" : "mma.sync";
    MappedKernel partial =
        splitKVPartial(s, buildForwardMmaKernel(b, loc, names[0], p),
                       mmaThreads(p), p.splitKeysPerBlock, kind);
    MappedKernel combine = buildSplitKVCombine(
        b, loc, names[0] + "_combine", s, p.splitKeysPerBlock);
    // On Hopper (griddepcontrol is sm_90's; wgmma implies sm_90a) the
    // combine waits for the partial kernel's records itself: launched
    // programmatically, it starts while the partial blocks finish (which
    // let it start once their key loops are done).
    if (p.wgmma) {
      OpBuilder cb = OpBuilder::atBlockBegin(&combine.fn.getBody().front());
      NVVM::GriddepcontrolOp::create(cb, loc, NVVM::GridDepActionKind::wait);
      combine.waitsForPrevious = true;
    }
    return SmallVector<MappedKernel>{partial, combine};
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect, NVVM::NVVMDialect,
                    nvgpu::NVGPUDialect>();
  }
};
} // namespace

KernelKinds flash::tensorCoreKernelKinds() {
  return {std::make_shared<TensorCoreSplitKVKind>(),
          std::make_shared<TensorCoreKind>()};
}
