//===- Passes.td - flash dialect passes --------------------*- tablegen -*-===//

#ifndef FLASH_DIALECT_FLASH_TRANSFORMS_PASSES_TD
#define FLASH_DIALECT_FLASH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FlashRaiseAttention : Pass<"flash-raise-attention"> {
  let summary = "Raise softmax(Q K^T * scale) V in linalg IR to flash.attention";
  let description = [{
    Finds attention written as two contractions around a softmax and
    rewrites it into one `flash.attention` when, and only when, the IR
    provably computes exactly that:

    - `Q K^T`: any contraction (`linalg.matmul`, `linalg.batch_matmul`,
      their transposing `indexing_maps`, or a contraction `linalg.generic`
      with any number of batch dims) of a zero-filled init, whose right-hand
      side is K (transposed maps) or K^T (then a `linalg.transpose` of K is
      materialized, or the transpose feeding it is looked through);
    - optionally a scale: an elementwise `linalg.generic` multiplying or
      dividing every score by one float constant;
    - `linalg.softmax` over the last (key) dim;
    - `P V`: a contraction of the probabilities with V into a zero-filled
      init.

    Every intermediate must have no other use. With `report=true` every
    candidate softmax that is not raised gets a remark naming the reason.

    Before:
    ```mlir
    %s = linalg.matmul indexing_maps = [..(m, k).., ..(n, k).., ..(m, n)..]
           ins(%q, %k : ...) outs(%zero : tensor<128x128xf32>) -> ...
    %p = linalg.softmax dimension(1) ins(%s : ...) outs(%e : ...) -> ...
    %o = linalg.matmul ins(%p, %v : ...) outs(%zero2 : ...) -> ...
    ```
    After:
    ```mlir
    %o = flash.attention ins(%q, %k, %v : ...) outs(%zero2 : ...)
           {scale = 1.0 : f32} -> tensor<128x64xf32>
    ```
  }];
  let dependentDialects = ["::mlir::flash::FlashDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark for every candidate that is not raised, with the "
           "reason">
  ];
}

def FlashTileAttention : Pass<"flash-tile-attention"> {
  let summary = "Lower flash.attention to the online-softmax loop nest";
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
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "f32 lanes of the innermost vector dim">
  ];
}

def FlashHoistVectorTransfers
    : Pass<"flash-hoist-vector-transfers", "::mlir::func::FuncOp"> {
  let summary = "Hoist loop-invariant vector transfers out of loops";
  let description = [{
    After bufferization, moves the vector.transfer_read/write pairs of the
    accumulator tiles created by `flash-vectorize-cpu` out of the reduction
    loops (upstream `linalg::hoistRedundantVectorTransfers`, which has no
    pass of its own), so that the accumulators stay in registers.
  }];
}

#endif // FLASH_DIALECT_FLASH_TRANSFORMS_PASSES_TD
