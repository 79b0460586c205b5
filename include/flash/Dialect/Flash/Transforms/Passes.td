//===- Passes.td - flash dialect passes --------------------*- tablegen -*-===//

#ifndef FLASH_DIALECT_FLASH_TRANSFORMS_PASSES_TD
#define FLASH_DIALECT_FLASH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FlashRaiseAttention : Pass<"flash-raise-attention"> {
  let summary = "Raise attention (and its autodiff backward) to the flash ops";
  let description = [{
    Rewrites `softmax(Q K^T * scale + mask) V` into one `flash.attention`
    whenever, and only when, the IR provably computes exactly that; with
    `report=true` every candidate that is not raised gets a remark at the
    softmax naming the reason (`softmax is over axis 0, not the key axis
    (1)`, `the scores are multiplied by something that varies per element`,
    ...). Accepted spellings:

    - products: `linalg.matmul` / `linalg.batch_matmul` (also with
      transposing `indexing_maps`), contraction `linalg.generic`s of any
      batch rank, K through `linalg.transpose`, zero-filled inits;
    - softmax: `linalg.softmax`, or decomposed as torch-mlir emits it (a
      max-reduce, also the two-result max+index generic, keepdim maps, init
      -inf or -FLT_MAX, `maximumf`/`maxnumf`; x - max and exp in one or two
      generics; a sum-reduce; a divide or a reciprocal-multiply), and the
      unstabilized form without the max;
    - between Q*K^T and the softmax, elementwise generics whose bodies are
      proven to compute `select(keep & causal, scale * s + mask, -inf)`:
      scale as a multiply or a divide by a constant (or folded into Q/K),
      an additive mask tensor, an i1 keep-mask, a causal predicate built
      from `linalg.index` compares (raised with an explicit
      `causal_offset`); broadcast masks get unit dims as needed;
    - f16/bf16 inputs with f32 accumulation and extf/truncf around the
      products or the softmax (computed in the output's type);
    - GQA written as K/V heads repeated (`linalg.broadcast` or a broadcast
      generic, then `tensor.collapse_shape`): raised on the unrepeated K/V;
    - TOSA: `tosa.matmul`, `tosa.transpose`, `tosa.mul` by a splat,
      `tosa.add` of a mask, `tosa.reduce_max`, `tosa.sub`, `tosa.exp`,
      `tosa.reduce_sum`, `tosa.reciprocal`, stabilized or not;
    - the joint forward + backward graph of autodiff (P saved and reused by
      dV = P^T dO and dS = P * (dP - rowsum(dP * P)), dQ = scale dS K,
      dK = scale dS^T Q): the forward becomes `flash.attention` producing
      lse and the backward `flash.attention_grad` reading it; no N x N
      tensor is left.

    A softmax result with other uses (the probabilities returned, say) is
    not raised. A fully masked row gives 0 where the original program gives
    NaN (or, with a -FLT_MAX fill, a uniform row); every other row agrees.

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
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark for every candidate that is not raised, with the "
           "reason">
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
    Option<"blockQ", "block-q", "int64_t", /*default=*/"64",
           "Query rows per block">,
    Option<"blockKV", "block-kv", "int64_t", /*default=*/"64",
           "Keys per block">,
    Option<"loopOrder", "loop-order", "std::string", /*default=*/"\"fa2\"",
           "fa2 (query blocks outer) or fa1 (KV blocks outer)">
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
           "Widen f16 ops too">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FlashVectorizeCPU : Pass<"flash-vectorize-cpu", "::mlir::func::FuncOp"> {
  let summary = "Register-tile and vectorize the linalg ops of a function";
  let description = [{
    The CPU pipeline's codegen step: tiles every linalg op with static shapes
    to register-sized tiles (`vector-width` lanes on the innermost dim) and
    vectorizes the tiles with upstream `linalg::vectorize`; contractions
    become `vector.contract` lowered to FMAs. Ops it cannot vectorize are
    left for `convert-linalg-to-loops`.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"32",
           "f32 lanes of the innermost vector dim (32: two AVX-512 "
           "registers per row of a tile, halved where the dim needs it)">
  ];
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

#endif // FLASH_DIALECT_FLASH_TRANSFORMS_PASSES_TD
