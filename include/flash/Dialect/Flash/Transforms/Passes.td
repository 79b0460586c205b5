//===- Passes.td - flash dialect passes --------------------*- tablegen -*-===//

#ifndef FLASH_DIALECT_FLASH_TRANSFORMS_PASSES_TD
#define FLASH_DIALECT_FLASH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FlashRaiseAttention : Pass<"flash-raise-attention"> {
  let summary = "Raise attention (and its autodiff backward) to the flash ops";
  let description = [{
    Rewrites `softmax(Q K^T * scale + mask) V` into one `flash.attention`
    whenever, and only when, the IR provably computes exactly that; with
    `report=true` every candidate that is not raised gets a remark at its
    P*V product naming the first fact not proven (`the softmax normalizes
    over a different axis than the one P*V contracts`, `the mask depends on
    the scores`, ...).

    Candidates are contractions (linalg ops with a sum reduction,
    `tosa.matmul`). Each one's slice is read as one scalar expression per
    output element over one index space: named linalg ops through their
    indexing maps and payloads, elementwise producers inlined, transposes,
    broadcasts, `tensor.collapse_shape`/`expand_shape` and `tensor.concat`
    folded into index expressions (so GQA's `h floordiv g` and permuted
    layouts are index maps), `linalg.softmax` through upstream's
    decomposition and TOSA through upstream's tosa-to-linalg, both on
    scratch copies. The expression is kept in a normal form
    (reciprocal-multiply is division, the scale may sit on Q, K, the scores
    or the exponent, `exp2(x log2 e)` is `exp(x)`, any per-row shift under
    the softmax cancels, -FLT_MAX is -inf under masking, an additive -inf
    mask is a select) and compared with the attention identity. Masks:
    causal from index compares (explicit `causal_offset`, or the default
    `Nk - Nq` when the program uses the dynamic sizes), additive or i1
    tensors (broadcast from any rank), or expressions of tensors (recomputed
    by one elementwise generic). A row log-sum-exp the program also uses is
    served by the `lse` result. When the probabilities also feed the
    autodiff backward (P saved and reused), every value they reach is
    compared with dQ, dK and dV built in the same normal form; the forward
    becomes `flash.attention` with lse and the backward
    `flash.attention_grad`; no N x N tensor is left.

    A fully masked row gives 0 where the original program gives NaN; every
    other row agrees. Under a finite fill (finfo.min) the program averages
    V over a row without keys: where the positions (or a mask read from
    tensors whose fill is selected) may leave one, the rows whose lse is
    -inf get that average after the op, and in a joint graph dV gets
    those rows' dO / Nk on every key (`average-empty-rows`).

    Before:
    ```mlir
    %s = linalg.matmul indexing_maps = [..(m, k).., ..(n, k).., ..(m, n)..]
           ins(%q, %k : ...) outs(%zero : tensor<128x128xf32>) -> ...
    %p = linalg.softmax dimension(1) ins(%s : ...) outs(%e : ...) -> ...
    %o = linalg.matmul ins(%p, %v : ...) outs(%zero2 : ...) -> ...
    ```
    After:
    ```mlir
    %o = flash.attention ins(%q, %k, %v : ...) outs(%init : ...)
           {scale = 1.0 : f32} -> tensor<128x64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::flash::FlashDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark for every candidate that is not raised, with the "
           "reason">,
    Option<"averageEmptyRows", "average-empty-rows", "bool",
           /*default=*/"true",
           "Under a finite fill (finfo.min), give rows without keys the "
           "program's average of V after the op, and their dO / Nk to dV "
           "(false: refuse where the positions may leave such rows, take a "
           "mask read from tensors as -inf; for a front that maps the op "
           "alone back)">
  ];
}

def FlashTileAttention : Pass<"flash-tile-attention"> {
  let summary = "Lower flash.attention[_grad] to FlashAttention loop nests";
  let description = [{
    Rewrites every `flash.attention` into a loop nest on tensors that scans
    the key axis in blocks of `block-kv` with the online softmax (running
    max `m`, running sum `l`, rescaled accumulator), for blocks of `block-q`
    query rows. No Nq x Nk (nor block-q x Nk) tensor is created.

    - `loop-order=fa2` (default): query blocks outer (independent), KV
      blocks inner, each query block finishing its output;
    - `loop-order=fa1`: KV blocks outer, query blocks inner, with every query
      block's (m, l, acc) carried across the outer loop.

    Lengths that are not multiples of the blocks get exact remainder blocks.
    Causal attention skips KV blocks that are entirely above the diagonal and
    masks only the blocks that cross it.

    `flash.attention_grad` becomes the recomputation nest of the backward:
    D = rowsum(dO * O), then for every block pair p = exp(scale q k^T - lse)
    is recomputed and dV += p^T dO, dS = p (dO V^T - D), dQ += scale dS K,
    dK += scale dS^T Q, in f32. `fa2`: KV blocks outer (dK/dV finished per
    block, dQ accumulated); `fa1`: query blocks outer. GQA sums dK/dV over
    the query heads of a group without copies; the order of accumulation
    is fixed, so results are bitwise repeatable.

    Before:
    ```mlir
    %o = flash.attention ins(%q, %k, %v : tensor<8x100x64xf32>,
        tensor<8x100x64xf32>, tensor<8x100x64xf32>)
        outs(%init : tensor<8x100x64xf32>) -> tensor<8x100x64xf32>
    ```
    After (sketch):
    ```mlir
    scf.for %bh = 0 to 8 {                     // batch x heads
      scf.for %i = 0 to 100 step 32 {          // query blocks
        %r:3 = scf.for %j = 0 to 100 step 64 iter_args(%m, %l, %acc) {
          %s = linalg.matmul (q_i, k_j^T) ...  // scores block, f32
          ...                                  // online-softmax update
        }
        // o_i = acc / l, lse_i = m + log(l)
      }
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let options = [
    // The defaults are TileAttentionOptions' (Transforms.h), the one place
    // that states them; --flash-to-cpu forwards these options.
    Option<"blockQ", "block-q", "int64_t",
           /*default=*/"::mlir::flash::TileAttentionOptions().blockQ",
           "Query rows per block">,
    Option<"blockKV", "block-kv", "int64_t",
           /*default=*/"::mlir::flash::TileAttentionOptions().blockKV",
           "Keys per block">,
    Option<"loopOrder", "loop-order", "::mlir::flash::LoopOrder",
           /*default=*/"::mlir::flash::TileAttentionOptions().loopOrder",
           "fa2 (query blocks outer) or fa1 (KV blocks outer)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::flash::LoopOrder::FA2, "fa2",
                        "Query blocks outer (independent), KV blocks inner"),
             clEnumValN(::mlir::flash::LoopOrder::FA1, "fa1",
                        "KV blocks outer, every query block's state "
                        "carried across"))}]>,
    Option<"parallel", "parallel", "bool",
           /*default=*/"::mlir::flash::TileAttentionOptions().parallel",
           "Independent iterations as scf.forall: fa2's (batch, head, query "
           "block), fa1's (batch, head); the backward's (batch, kv head, key "
           "chunk) (fa2) or (batch, kv head) (fa1). The same results as "
           "without">
  ];
}

def FlashDecomposeAggregates : Pass<"flash-decompose-aggregates"> {
  let summary = "Decompose linalg aggregate ops such as linalg.softmax";
  let description = [{
    Upstream has no pass that decomposes `linalg.softmax`; this one applies
    `AggregatedOpInterface::decomposeOperation` to every op implementing it,
    leaving generic max/sub-exp/sum/div ops that the rest of a lowering
    pipeline understands. It is part of `--flash-to-cpu` for the ops that
    `--flash-raise-attention` did not raise.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect"];
}

def FlashExpandFP8 : Pass<"flash-expand-fp8"> {
  let summary = "Expand f8E4M3FN conversions into integer arithmetic";
  let description = [{
    LLVM has no fp8 types: the LLVM conversion stores `f8E4M3FN` as `i8` but
    leaves `arith.extf` / `arith.truncf` on it unconverted. Upstream expands
    such conversions only for f8E8M0 and f4E2M1 (`arith-expand`), or calls
    a run-time APFloat library per element (`convert-arith-to-apfloat`);
    this pass rewrites them, scalar or vector, into a few integer and f32
    operations that vectorize:

    ```mlir
    %f = arith.extf %x : vector<8xf8E4M3FN> to vector<8xf32>
    // becomes: bitcast to i8, widen, place the 7 exponent/mantissa bits at
    // the top of an f32 mantissa, multiply by 2^120 (normals and
    // subnormals alike), restore the sign, and NaN for S.1111.111.
    ```

    `arith.truncf` to f8E4M3FN rounds to nearest even; magnitudes that round
    above 448 (and infinities) give NaN, as `arith.truncf`'s constant folder
    (APFloat) and `torch.Tensor.to(torch.float8_e4m3fn)` do. Conversions
    from/to f16, bf16 and f64 go through f32 (exact for extf; truncf rounds
    once to f32 first). Part of `--flash-to-cpu` (fp8 attention).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def FlashWidenBF16 : Pass<"flash-widen-bf16"> {
  let summary = "Run bf16 flash ops in f32 between conversions";
  let description = [{
    Rewrites every `flash.attention` / `flash.attention_grad` whose query,
    key, value (and output, grad_output) are bf16 into the same op on f32
    tensors: the inputs are extended (`arith.extf`, O(N * D) copies), the
    results truncated back (`arith.truncf`, round to nearest even). The
    kernels accumulate in f32 either way, so the results are the ones the
    bf16 op defines. For targets that cannot store bf16: SPIR-V without
    `SPV_KHR_bfloat16` (`--flash-to-spirv` runs it). `include-f16` does the
    same for f16 (SPIR-V for OpenCL, where f16 arithmetic is optional).
  }];
  let options = [
    Option<"includeF16", "include-f16", "bool", /*default=*/"false",
           "Widen f16 ops too">,
    Option<"widenForward", "forward", "bool", /*default=*/"true",
           "Widen bf16 flash.attention (false: leave bf16 forwards to a "
           "lowering that computes on bf16 itself, such as "
           "flash-vectorize-bf16-dot)">,
    Option<"widenBackward", "backward", "bool", /*default=*/"true",
           "Widen bf16 flash.attention_grad (false: left as is, likewise)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FlashVectorizeCPU : Pass<"flash-vectorize-cpu", "::mlir::func::FuncOp"> {
  let summary = "Register-tile and vectorize the linalg ops of a function";
  let description = [{
    The CPU pipeline's codegen step: tiles every linalg op with static shapes
    to register-sized tiles and vectorizes the tiles with upstream
    `linalg::vectorize`; contractions become `vector.contract` lowered to
    FMAs. Ops it cannot vectorize are left for `convert-linalg-to-loops`.

    The tiles follow the target's vector registers (`vector-bits`; 0, the
    default, takes the host's widest f32 unit as LLVM detects it): a
    contraction tile has two vectors per row (one where two do not divide
    the dim) and as many rows as the register file holds accumulators for —

    | vector-bits | host | contraction tile (rows x columns) |
    |---|---|---|
    | 512 | AVX-512 | 8 x 32 |
    | 256 | AVX, AVX2 | 4 x 16 |
    | 128 | SSE, NEON, others | 4 x 8 |

    elementwise ops 1 x two vectors, row reductions one row per tile.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "Bits of the target's vector registers: 512, 256, 128 (or any "
           "power of two >= 64); 0: the host's">
  ];
}

def FlashVectorizeBF16Dot
    : Pass<"flash-vectorize-bf16-dot", "::mlir::func::FuncOp"> {
  let summary = "Vectorize bf16 block products as AVX512-BF16 dot products";
  let description = [{
    The bf16 twin of `flash-vectorize-cpu`'s contraction tiles, for targets
    with AVX512-BF16 (`vdpbf16ps`: 16 f32 accumulators += the dot products
    of 16 bf16 pairs, 64 FLOPs per instruction, twice an f32 FMA's). It
    rewrites every contraction `C[m, n] += A[m, k] * B[k, n]` with static
    shapes, C f32 and B bf16 (read as `linalg.transpose(X)` of a bf16 X
    [n, k], the score block q k^T, or directly, the block product p v; A
    read as [m, k] or as [k, m], the backward's p^T dO and ds^T q) into
    register tiles of 8 rows x 32 columns whose accumulators stay in
    registers over the whole reduction, stepping k by pairs:

    ```mlir
    // per pair p: the pair A[m, 2p..2p+1] broadcast to every lane
    %a = vector.bitcast %pair : vector<2xbf16> to vector<1xi32>
    %ab = vector.broadcast %a : vector<1xi32> to vector<16xi32>
    // ... as vector<32xbf16>; B's pairs (B[2p, n], B[2p+1, n]) interleaved
    %acc2 = x86vector.avx512.dot %acc, %abf, %b : vector<32xbf16> -> vector<16xf32>
    ```

    B in the pair layout ("VNNI", [k / 2, n, 2]) comes from X [n, k] by
    16 x 16 transposes of its 32-bit pairs (`vector.transpose`, lowered to
    AVX-512 shuffles here), or from B's rows 2p and 2p + 1 by
    `vector.interleave`; an A read as [k, m] gets its pairs the same way,
    then 16 x 16 word transposes. An f32 A (the probabilities p of p v, the
    backward's ds) is rounded to bf16 first (round to nearest even), as GPU
    FlashAttention does; row sums stay f32. Columns past the last whole
    16-lane vector (a remainder block's keys, a head dim such as 72) get
    one masked tile per row block. Products that do not fit (k odd, dynamic
    sizes, a packed k not a multiple of 32, an A read as [k, m] with m not
    a multiple of 16) are left for `flash-vectorize-cpu`, which computes
    them in f32.

    The code needs `+avx512bf16` at the LLVM level
    (`flash-cpu-target-features` sets it on the functions that call its
    intrinsics); this pass runs on any host, so that tests can force it.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::x86vector::X86VectorDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def FlashHoistVectorTransfers
    : Pass<"flash-hoist-vector-transfers", "::mlir::func::FuncOp"> {
  let summary = "Hoist loop-invariant vector transfers out of loops";
  let description = [{
    After bufferization, moves the vector.transfer_read/write pairs of the
    accumulator tiles created by `flash-vectorize-cpu` out of the reduction
    loops, so that the accumulators stay in registers: upstream
    `linalg::hoistRedundantVectorTransfers` (which has no pass of its own),
    then the same for transfers on subviews of a buffer, which upstream
    refuses and register tiles of a bufferized block always are.
  }];
}

def FlashOpenMPSchedule : Pass<"flash-openmp-schedule", "::mlir::ModuleOp"> {
  let summary = "Schedule the OpenMP loops of the CPU pipeline dynamically";
  let description = [{
    Sets `schedule(dynamic)` (chunks of one iteration) on every `omp.wsloop`
    that has no schedule. `convert-scf-to-openmp` leaves the schedule to the
    runtime's default, static: contiguous ranges of iterations per thread,
    which for causal attention gives one thread the light early query
    blocks and another the heavy late ones (up to 3 : 1 on two threads).
    Each iteration of the attention loops is a whole block of work, so the
    per-iteration cost of dynamic scheduling does not show; which thread
    runs an iteration does not change its result.
  }];
  let dependentDialects = ["::mlir::omp::OpenMPDialect"];
}

def FlashInlineAllocaScopes
    : Pass<"flash-inline-alloca-scopes", "::mlir::ModuleOp"> {
  let summary = "Inline the memref.alloca_scope ops that allocate nothing "
                "on the stack";
  let description = [{
    `convert-scf-to-openmp` wraps each parallel loop body in a
    `memref.alloca_scope`. Upstream's canonicalization inlines a scope only
    when nothing in it may allocate and counts any call as a possible
    allocation, so the `dealloc_helper` calls of
    `bufferization-lower-deallocations` keep the scope; once
    `convert-scf-to-cf` lowers an `scf.if` inside it, the scope's region has
    several blocks and no longer verifies. This pass inlines every scope
    whose body (outside nested allocation scopes) has no op that allocates
    in the enclosing scope; calls do not, since a callee's allocas live in
    its own frame.

    ```mlir
    omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
      memref.alloca_scope {
        scf.if %c { func.call @dealloc_helper(...) : (...) -> () }
      }
      omp.yield
    }
    // becomes
    omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
      scf.if %c { func.call @dealloc_helper(...) : (...) -> () }
      omp.yield
    }
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def FlashCPUTargetFeatures
    : Pass<"flash-cpu-target-features", "::mlir::ModuleOp"> {
  let summary = "Set the LLVM target CPU and features of the CPU pipeline's functions";
  let description = [{
    Adds `target_cpu` and `target_features` to every `llvm.func` definition
    that has none, so that the JIT (mlir-runner) and ahead-of-time compiles
    of the module (mlir-translate, then clang or llc, with no -march) schedule
    and select instructions for the CPU the module was tiled for. `cpu=host`
    (the default) takes the host's CPU name and every feature LLVM detects on
    it (a VM that hides AVX-512 from a CPU that has it is respected);
    `cpu=<name>` sets that name and no feature list; `cpu=` sets no CPU.
    `features` is appended last, so it overrides. Its default,
    `-avx512bf16`, works around an LLVM 22 X86 instruction-selection failure
    ("Do not know how to soft promote this operator's operand") on hosts
    with avx512bf16 (Sapphire Rapids, Zen 4) for the bf16 vector code of
    unfused programs. A function that calls AVX512-BF16 intrinsics (the
    dot products of `flash-vectorize-bf16-dot`) gets `+avx512bf16` whatever
    `features` says: it cannot be compiled without it.

    ```mlir
    llvm.func @f(...) {                    // before
    llvm.func @f(...) attributes {target_cpu = "znver4", target_features =
        #llvm.target_features<["+avx512f", ..., "-avx512bf16"]>} {
    ```
  }];
  let options = [
    Option<"cpu", "cpu", "std::string", "\"host\"",
           "LLVM CPU name; host: the host's name and features; empty: none">,
    Option<"features", "features", "std::string", "\"-avx512bf16\"",
           "Comma-separated LLVM target features (+feature / -feature), "
           "after the host's">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // FLASH_DIALECT_FLASH_TRANSFORMS_PASSES_TD
