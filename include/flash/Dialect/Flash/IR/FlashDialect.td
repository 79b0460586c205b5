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
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

class Flash_Op<string mnemonic, list<Trait> traits = []>
    : Op<Flash_Dialect, mnemonic, traits>;

#endif // FLASH_DIALECT_FLASH_IR_FLASHDIALECT_TD
