//===- Passes.td - flash ops as GPU kernels ----------------*- tablegen -*-===//

#ifndef FLASH_CONVERSION_FLASHTOGPU_PASSES_TD
#define FLASH_CONVERSION_FLASHTOGPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def FlashMapToGPU : Pass<"flash-map-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Map flash.attention[_grad] onto GPU kernels (kernel kinds: "
                "cooperative matrix, the target's, SIMT)";
  let description = [{
    Replaces every `flash.attention` by launches of kernels
    in `gpu.module @flash_kernels`, with host code that stages the operands
    in GPU-visible (managed) buffers and copies the results back. Each op
    gets the first kernel kind that takes it (GPUKernels.h, `KernelKind`):
    the cooperative-matrix forward (with `cooperative-matrix`), the kinds
    the pass was created with (the NVVM library's tensor-core kernels, with
    `tensor-cores`; flash-opt registers this pass with them), then SIMT:

      grid (ceil(Nq / threads), B*H), `threads` threads per block; each
      thread owns one query row (scaled q held in registers), the block
      stages tiles of `tile-kv` keys of K and V in shared memory, and every
      thread runs the online softmax over them (one rescale per tile),
      skipping the tiles above the causal diagonal of the block's rows.

    `flash.attention_grad` becomes two deterministic kernels: dQ (one query
    row per thread, K/V tiles in shared memory, also writing
    D = rowsum(dO * O)) then dK/dV (one key row per thread, Q/dO tiles in
    shared memory, summing over the query heads of a GQA group).

    With `tensor-cores` (--flash-to-nvvm turns it off below sm_80),
    f16/bf16 ops with head dim a multiple of 16 (forward up to 256, backward
    up to 128; masked or not) get the NVVM library's tensor-core kernels
    instead: the forward (MmaKernels.cpp: 16 query rows per warp,
    `mma-warps` warps per block, K/V tiles of `mma-tile-kv` keys streamed by
    cp.async, ldmatrix fragments, mma.sync m16n8k16, P kept in registers)
    and the backward (MmaGradKernels.cpp: dQ with 16 query rows per warp,
    dK/dV with 16 key rows per warp; transposes as operand choices).
    With `wgmma` too (--flash-to-nvvm turns it off for chips other than
    sm_90a) and a head dim that is a multiple of 64, the same kernels run on
    Hopper's warpgroup MMA: 64 rows per warpgroup, A operands in registers,
    B by descriptor from tiles in the 128-byte swizzle (the backward's
    double-buffered).
    Everything else uses the SIMT mapping: f32 arithmetic on CUDA cores.
    Before all of them, decode shapes (a static Nq whose GQA group packs
    into at most 16 query rows, no mask or modifiers) get the split-KV
    forward (SplitKVKernels.cpp, with `split-kv` keys per block): the keys
    split across blocks, the group's query heads read K/V once, and a
    combine kernel merges the blocks' partial (O, lse).
    A mask (additive or i1, statically shaped) is staged by the
    host as f32 in its own shape (an i1 keep-mask as 0 / -inf); the kernels
    read it in place, with stride 0 along the dims it broadcasts over.
    Batch dims and sequence lengths may be dynamic: the kernels then take
    them as size arguments (head counts and head dims must be static).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"128",
           "Threads (query rows) per block">,
    Option<"tileKV", "tile-kv", "int64_t", /*default=*/"16",
           "Keys per shared-memory tile">,
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "Forward (head dim 16..256) and backward (16..128) of f16/bf16 "
           "ops (multiples of 16, masked or not) on NVIDIA tensor cores "
           "(mma.sync, sm_80+), 16 rows per warp">,
    Option<"mmaWarps", "mma-warps", "int64_t", /*default=*/"0",
           "Warps per block of the tensor-core kernels (4 or 8; 0: by head "
           "dim; the d = 256 backward always takes 8, its dK/dV kernel's "
           "two warpgroups splitting each step by roles)">,
    Option<"mmaTileKV", "mma-tile-kv", "int64_t", /*default=*/"0",
           "Keys per K/V tile of the tensor-core forward, keys / queries per "
           "tile of its backward (32, 64 or 128, lowered to fit shared "
           "memory; 0: by head dim)">,
    Option<"mmaMaxRegisters", "mma-max-registers", "int64_t",
           /*default=*/"0",
           "Registers per thread ptxas may give the tensor-core kernels "
           "(64..255; 0: its choice, 255 for 256-thread blocks)">,
    Option<"warpSpecialize", "warp-specialize", "bool", /*default=*/"true",
           "With wgmma: the forward at head dim 128 (over 1024 keys, or "
           "runtime lengths) and 256, without a mask operand or a mask_mod "
           "beyond affine bounds (windows are in), in warp-specialized "
           "blocks: a producer warpgroup "
           "streams K/V tiles into a two-stage ring under mbarriers while "
           "two consumer warpgroups (128 query rows) compute in ping-pong, "
           "registers moved to them by setmaxnreg (not with mma-warps, "
           "mma-tile-kv or mma-max-registers, which tune the one-warpgroup "
           "kernel)">,
    Option<"persistentBlocks", "persistent-blocks", "int64_t",
           /*default=*/"132",
           "Blocks of the warp-specialized forward when it is persistent "
           "(no causal limit, or one with a window's lower bound; no "
           "document mask): each block takes query blocks of every "
           "batch-head in turn, its producer loading the next one's Q and "
           "K/V under the last one's epilogue (the GPU's SM count: the "
           "H100's and H200's 132, the default: 1.12-1.26x at d = 128 and "
           "1k-4k keys on an H100, session 25; 0: one block per query "
           "block)">,
    Option<"persistentCaptures", "persistent-captures", "bool",
           /*default=*/"true",
           "Persistent blocks also where the mask_mod reads captured "
           "operands (a window's diagonal as a run-time operand, as "
           "flash_mlir.cuda passes it), read in each query block's setup "
           "(the window forward at 16k keys: 1.18x one block per query "
           "block on the H200, session 27)">,
    Option<"mergeMaskedTiles", "merge-masked-tiles", "bool",
           /*default=*/"true",
           "The warp-specialized causal forward up to d = 128 (no mask or "
           "modifiers) in one loop over its key tiles, the causal mask "
           "applied where a tile-uniform branch says the tile needs it, "
           "instead of a loop of unmasked tiles and one of masked ones (and a "
           "masked peeled first tile): one copy of the consumer's step "
           "instead of three (ptxas 0.52 -> 0.30 s at d = 128; on the H200 "
           "0.99-1.05x the three-copy kernel, session 28; at d = 256 it ran "
           "0.88-0.93x and is not taken)">,
    Option<"fmaExp2", "fma-exp2", "int64_t", /*default=*/"0",
           "Of every 8 exponentials of P in the wgmma forward, how many "
           "are a polynomial on the FMA units instead of the SFU's ex2 "
           "(0-8; -1: by the score_mod: 3 where it has a tanh, exp or log, "
           "which share the SFU with the softmax's exp2, else 0; the default, "
           "0: on the H200 every share slowed the plain forward more than it "
           "sped up the soft-capped one)">,
    Option<"gradD256", "grad-d256", "bool", /*default=*/"true",
           "With wgmma: the backward at head dim 256 on tensor cores (Q/dO "
           "and K/V read from shared memory, two consumer warpgroups a "
           "block, the dK/dV kernel's splitting each step by roles: one "
           "computes dV, the other dK; 1.10-1.53x cuDNN on an H100, session "
           "31, where the SIMT kernels that false selects ran 0.02x "
           "FlashAttention-2)">,
    Option<"gradAShared", "grad-a-shared", "bool", /*default=*/"true",
           "With wgmma: the backward at head dim 64 and 128 reads its fixed "
           "A operands (K and V of the dK/dV kernel, Q and dO of the dQ "
           "kernel) from shared memory, as at d = 256, instead of holding "
           "them as register fragments: registers for 64-row tiles at d = "
           "128 (32 queries in the dK/dV kernel where its scores are masked; "
           "1.04-1.12x on the H200 and an H100, session 27). "
           "false: register fragments, and dQ by atomics where "
           "deterministic=false">,
    Option<"gradProducer", "grad-producer", "bool", /*default=*/"true",
           "With wgmma: the backward's dK/dV kernel (and the dQ kernel "
           "from d = 128; at d = 256 with two consumer warpgroups, the "
           "default there) take a producer warpgroup after their "
           "consumer warps, which copies the tiles of each step (Q / dO and "
           "their lse / D columns; K / V) into a two-stage ring with "
           "mbarriers, as the warp-specialized forward's K/V ring; the "
           "consumers (setmaxnreg) pass no block-wide barrier. With dQ by "
           "reductions the producer is also the dQ writer (the bulk "
           "reductions of each tile's staged dQ). On an H100, the "
           "deterministic backward 0.97-1.24x without it at d = 128, the "
           "one by reductions 1.03-1.22x at d = 128 and 1.18-1.28x at "
           "d = 64 (session 30); at d = 256, with two warpgroups and "
           "32-row tiles, 1.37-1.48x the one-warpgroup kernels without it "
           "(session 31)">,
    Option<"deterministic", "deterministic", "bool", /*default=*/"true",
           "The backward's dQ in a fixed order of additions (its own "
           "kernel, which recomputes S and dP). false: the wgmma backward "
           "adds each key block's dS K into an f32 dQ with atomics in the "
           "dK/dV kernel (two products of seven fewer; the sums' order, "
           "hence dQ's last bits, vary between runs), without a document "
           "mask's block mask">,
    Option<"cooperativeMatrix", "cooperative-matrix", "bool",
           /*default=*/"false",
           "The f16 forward (head dim a multiple of 16 up to 256) on "
           "gpu.subgroup_mma ops (16x16x16, one subgroup of 32 threads per "
           "16 query rows): SPIR-V cooperative matrices">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"true",
           "With tensor-cores: the forward (head dim a multiple of 64) on "
           "Hopper warpgroup MMA (wgmma, sm_90a only), 64 rows per "
           "warpgroup">,
    Option<"rowLanes", "row-lanes", "int64_t", /*default=*/"1",
           "Threads per query row of the SIMT forward (a power of 2 up to "
           "32; each holds 1 / row-lanes of the row's vectors, dot products "
           "summed by subgroup shuffles, so at most the subgroup size; 0: "
           "by head dim, up to 8, so that a thread holds at most 64 "
           "values; 1 measured 1.5-1.7x faster than 0 on the H200 at d = 64 "
           "and 128)">,
    Option<"gradRowLanes", "grad-row-lanes", "int64_t", /*default=*/"0",
           "The same for the SIMT backward's query rows (dQ) and key rows "
           "(dK/dV) (one row per thread spills kilobytes from d = 64 on)">,
    Option<"splitKV", "split-kv", "int64_t", /*default=*/"128",
           "Keys per block (at least) of the split-KV forward (decode: a static Nq "
           "with (Hq / Hkv) * Nq <= 16 packed query rows, no mask or "
           "modifiers; a combine kernel merges the blocks' partial results "
           "by their log-sum-exp); 0: never split">,
    Option<"splitKVBlocks", "split-kv-blocks", "int64_t", /*default=*/"256",
           "Blocks of a split-KV launch to aim for: a row's keys split "
           "min(Nk / split-kv, max(split-kv-blocks / BHkv, 2), 128) ways "
           "(the H200: 256, two blocks per SM in one wave)">,
    Option<"vectorLoadBytes", "vector-load-bytes", "int64_t",
           /*default=*/"16",
           "Bytes per vector load of the SIMT split-KV kernel's rows (0: "
           "scalar loads; the SPIR-V pipeline's)">,
    Option<"subgroupSize", "subgroup-size", "int64_t", /*default=*/"32",
           "Threads of a subgroup: the most that share a row through "
           "shuffles in the SIMT split-KV kernel (NVIDIA's 32; the SPIR-V "
           "pipeline gives 8)">,
    Option<"maxWorkgroupMemory", "max-workgroup-memory", "int64_t",
           /*default=*/"0",
           "Bytes of workgroup (shared) memory a kernel may declare: SIMT "
           "kernels take fewer keys per tile to fit, a cooperative-matrix "
           "forward that does not fit falls back to SIMT (0: no limit)">
  ];
}

def FlashGPULowerMath : Pass<"flash-gpu-lower-math", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Pick the target's instructions for the kernels' exp2 / log2";
  let description = [{
    The kernels of flash-map-to-gpu compute `math.exp2` / `math.log2` (f32,
    `afn`). Upstream would turn them into libdevice calls on NVVM (which
    needs libdevice at compile time) and has no SPIR-V pattern for them, so
    this pass (our own; upstream has no equivalent) rewrites them:

      target=nvvm:  llvm.nvvm.ex2.approx.ftz.f32 / llvm.nvvm.lg2.approx.ftz.f
      target=spirv: math.exp(x * ln 2) / math.log(x) * log2(e)

    On NVVM it also keeps the f32 math of the kernels (and of the
    score_mod / mask_mod regions inlined into them) branch-free: math.exp /
    math.log go through exp2 / log2, math.tanh becomes llvm.intr.tanh with
    afn (tanh.approx.f32), and arith.divf / math.sqrt get afn (div.approx /
    sqrt.approx). ptxas expands IEEE division and square root with a
    data-dependent slow path, and that divergence between warpgroup MMAs
    (which need the warpgroup converged) gave wrong results on the H200.
    ex2 / lg2 are the .ftz forms (a non-ftz ex2 is four instructions in
    SASS). f32 division by a constant is a multiply by its reciprocal, and
    a product by two constants, (x c1) c2, is x (c1 c2): a soft-cap's
    scale, 1 / cap, cap and log2 e fold into two multiplies around the tanh.

    On every target, an integer-to-float conversion of index arithmetic (a
    score_mod's positions: ALiBi's slope * |i - j|) converts the same
    arithmetic done in i32 (the kernels' positions and sizes fit): index is
    64-bit on NVVM, where the conversion from 64 bits runs on the units the
    softmax's exp2 needs.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect"
  ];
  let options = [
    Option<"target", "target", "::mlir::flash::GPUMathTarget",
           /*default=*/"::mlir::flash::GPUMathTarget::NVVM",
           "nvvm or spirv",
           [{::llvm::cl::values(
             clEnumValN(::mlir::flash::GPUMathTarget::NVVM, "nvvm",
                        "NVVM approximate ex2 / lg2 intrinsics"),
             clEnumValN(::mlir::flash::GPUMathTarget::SPIRV, "spirv",
                        "exp / log with a scale"))}]>
  ];
}

def FlashHostDeallocation
    : Pass<"flash-host-deallocation", "::mlir::ModuleOp"> {
  let summary = "Ownership-based buffer deallocation for the host functions "
                "around GPU glue";
  let description = [{
    Upstream's ownership-based-buffer-deallocation rejects functions with
    GPU host ops (gpu.wait declares no memory effects), so the GPU
    pipelines could free nothing the host allocates: a program calling a
    GPU attention function in a loop leaked its results every call.
    flash-map-to-gpu puts each flash op's glue in a private function of its
    own (`flash.gpu_host`; it frees its staging buffers itself and returns
    fresh buffers, which its callers own). This pass (our own; upstream has
    no way to skip functions) runs ownership-based deallocation,
    canonicalization and buffer-deallocation-simplification on every other
    function without GPU ops (hand-written host code with GPU ops is left
    as it is); lower-deallocations follows in the pipelines.
  }];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect"
  ];
}


def FlashStaticKernelBuffers
    : Pass<"flash-static-kernel-buffers", "::mlir::ModuleOp"> {
  let summary = "Give dynamically sized kernel buffers a static, unbounded "
                "type for the bare-pointer calling conventions";
  let description = [{
    The kernels of flash-map-to-gpu for dynamic shapes take their buffers
    as memref<?xWxT> (rows of any length) and their sizes as arguments.
    Upstream's bare-pointer conventions need static shapes (a kernel's
    arguments on NVVM; the byte sizes gpu-to-llvm intersperses for the
    Vulkan runtime), so this pass (our own; upstream has no equivalent)
    reinterprets every such operand of a gpu.launch_func as
    memref<2147483647xWxT> (an extent no buffer reaches: only the pointer
    matters; the Vulkan runtime binds a buffer to the end of its
    allocation) and, with `kernels`, gives the kernels' arguments the same
    type, cast back to the dynamic one at entry.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
  let options = [
    Option<"kernels", "kernels", "bool", /*default=*/"true",
           "Also retype the kernels' arguments (NVVM; off for SPIR-V, "
           "whose runtime arrays take dynamic sizes, after its kernels "
           "became a gpu.binary)">
  ];
}

#endif // FLASH_CONVERSION_FLASHTOGPU_PASSES_TD
