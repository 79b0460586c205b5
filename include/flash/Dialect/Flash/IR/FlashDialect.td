//===- FlashDialect.td - The flash dialect -----------------*- tablegen -*-===//
//
// The `flash` dialect: attention as a single op, forward and backward, that
// flash-mlir raises out of frontend IR and lowers into FlashAttention.
//
//===----------------------------------------------------------------------===//

#ifndef FLASH_DIALECT_FLASH_IR_FLASHDIALECT_TD
#define FLASH_DIALECT_FLASH_IR_FLASHDIALECT_TD

include "mlir/IR/OpBase.td"

def Flash_Dialect : Dialect {
  let name = "flash";
  let cppNamespace = "::mlir::flash";
  let summary = "Scaled dot-product attention and its gradient as ops.";
  let description = [{
    The `flash` dialect holds attention, `softmax(scale * Q * K^T + mask) * V`,
    as one destination-style op on tensors (`flash.attention`), and its
    gradient (`flash.attention_grad`). `--flash-raise-attention` finds both in
    frontend IR (linalg, TOSA); `--flash-tile-attention` lowers them into the
    FlashAttention loop nests: an online softmax that never materializes the
    Nq x Nk score matrix, and a backward pass that recomputes the
    probabilities from the saved log-sum-exp.

    The GPU mapping (`flash-map-to-gpu`) states each kernel's launch
    contract in the dialect's attributes, for tools that launch the kernels
    themselves: `flash.kernel_kind` (a string: "wgmma", "mma.sync",
    "split-kv", "cooperative-matrix", "simt", "block-mask") and `flash.launch` on each `gpu.func`,
    a dictionary with `block` (threads), `rows` ("nq" or "nk") and
    `rows_per_block`, `batch_heads` ("bh", "bhkv", or "b": bh / Hq) for the grid
    (ceil(rows / rows_per_block), batch_heads) — or, with `target_blocks`,
    `min_blocks_x` and `max_blocks_x`, min(that x, max(ceil(target_blocks /
    batch_heads), min_blocks_x), max_blocks_x); with `persistent_blocks`
    (a persistent kernel, whose blocks loop over the work), (min(x *
    batch_heads, persistent_blocks), 1) — `args` (the buffer arguments' names in order) and
    `sizes` (the index arguments after them: nq, nk, lead<i>, mask strides),
    `scratch_per_block` (f32 words each block of the kernel owns in the
    shared `scratch` buffer; `scratch_keys_per_word` instead: ceil(nk /
    that) words), `waits_for_previous` (a bool: the kernel
    waits for the op's previous kernel itself before it reads its results,
    so a CUDA launcher may start it early, by programmatic dependent
    launch). `flash.kernels` on the module lists every
    kernel's contract (`name`, `kind` and the `flash.launch` entries) in
    launch order, and stays when the kernels become a `gpu.binary`;
    `flash.gpu_host` (unit) marks the host functions around the launches.
  }];
  // The GPU mapping's attributes (flash.gpu_host, flash.kernel_kind,
  // flash.launch, flash.kernels: the kernels' launch contract) are the
  // dialect's, checked by verifyOperationAttribute.
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

class Flash_Op<string mnemonic, list<Trait> traits = []>
    : Op<Flash_Dialect, mnemonic, traits>;

#endif // FLASH_DIALECT_FLASH_IR_FLASHDIALECT_TD
