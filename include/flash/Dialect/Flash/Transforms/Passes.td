//===- Passes.td - flash dialect passes --------------------*- tablegen -*-===//

#ifndef FLASH_DIALECT_FLASH_TRANSFORMS_PASSES_TD
#define FLASH_DIALECT_FLASH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

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
