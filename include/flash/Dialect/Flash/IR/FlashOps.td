//===- FlashOps.td - flash.attention and flash.attention_grad -*- tablegen -*-===//

#ifndef FLASH_DIALECT_FLASH_IR_FLASHOPS_TD
#define FLASH_DIALECT_FLASH_IR_FLASHOPS_TD

include "flash/Dialect/Flash/IR/FlashDialect.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/TilingInterface.td"

// A float attribute of any width (f16/bf16/f32/f64 all accepted; the value
// is used in f32). Element-type checks are done by the verifier so that the
// messages say what is wrong.
def Flash_AnyFloatAttr : Attr<CPred<"::llvm::isa<::mlir::FloatAttr>($_self)">,
                              "floating-point attribute"> {
  let storageType = "::mlir::FloatAttr";
  let returnType = "::llvm::APFloat";
  let convertFromStorage = "$_self.getValue()";
}

def Flash_YieldOp : Flash_Op<"yield", [Pure, Terminator,
    ParentOneOf<["AttentionOp", "AttentionGradOp"]>]> {
  let summary = "Yields the value of a score_mod or mask_mod region.";
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def Flash_AttentionOp : Flash_Op<"attention", [
    AttrSizedOperandSegments, Pure, DestinationStyleOpInterface,
    IsolatedFromAbove,
    DeclareOpInterfaceMethods<TilingInterface,
        ["getIterationDomain", "getLoopIteratorTypes",
         "getTiledImplementation", "getResultTilePosition"]>]> {
  let summary = "Scaled dot-product attention (FlashAttention semantics).";
  let description = [{
    Computes, for every batch index b, query head h and query row i,

    ```
    s_ij  = scale * sum_d q[b,h,i,d] * k[b,h/G,j,d]  (+ mask[b,h,i,j])
    p_ij  = exp(s_ij - max_j s_ij) / sum_j exp(s_ij - max_j s_ij)
    o[b,h,i,:] = sum_j p_ij * v[b,h/G,j,:]
    lse[b,h,i] = log(sum_j exp(s_ij))            (natural log, f32)
    ```

    Shapes: `q: [B..., Hq, Nq, D]`, `k: [B..., Hkv, Nk, D]`,
    `v: [B..., Hkv, Nk, Dv]`, `o: [B..., Hq, Nq, Dv]`, `lse: [B..., Hq, Nq]`.
    The last two dims are (sequence, head dim); all leading dims are batch.
    With rank >= 3, the dim before the sequence is the head dim and `Hq` may
    be a multiple `G * Hkv` of `Hkv` (GQA/MQA): query head `h` reads kv head
    `h / G`, without copies of K and V. Sequence lengths may be dynamic.

    Attributes:
    - `scale` (any float attribute, used in f32): defaults to `1/sqrt(D)`.
    - `causal`: query `i` sees key `j` iff `j <= i + causal_offset`.
      `causal_offset` defaults to `Nk - Nq` (bottom-right aligned, as
      FlashAttention >= 2.1); `causal_offset = 0` is top-left alignment
      (PyTorch's `is_causal`).

    The optional `mask` is either additive (a float tensor added to `s`) or
    an `i1` keep-mask (`false` sets `s_ij = -inf`), broadcastable (numpy
    rules, right-aligned) to `[B..., Hq, Nq, Nk]`. A row whose every key is
    masked gives `o = 0` and `lse = -inf`, never NaN.

    `q`, `k`, `v` share one element type among f32, f16 and bf16; all
    arithmetic accumulates in f32; `o` has the element type of `v`. The op is
    destination-style: `outs` gives the output (and the optional `lse`)
    tensors whose shapes the results take.

    fp8: `q`, `k`, `v` may also all be `f8E4M3FN` (e4m3, as FlashAttention-3
    and cuDNN take it). `o` is then f32, f16 or bf16, and the optional
    `descale(%qd, %kd, %vd)` operands give the dequantization factors: f32
    tensors of rank 0 (per tensor) or of shape `[B..., Hkv]` (per batch and
    kv head, as FlashAttention-3's `q_descale`/`k_descale`/`v_descale`;
    query head `h` uses kv head `h / G`'s). The values the op computes with
    are `qd * q`, `kd * k` and `vd * v`:

    ```
    s_ij  = scale * qd * kd * sum_d q[b,h,i,d] * k[b,h/G,j,d]  (+ mask)
    o[b,h,i,:] = vd * sum_j p_ij * v[b,h/G,j,:]
    ```

    Without `descale`, the factors are 1. Products accumulate in f32, as for
    the other types; `flash.attention_grad` has no fp8 form.

    Modifiers (optional regions; both ops, same semantics). With index
    arguments `%b..., %h, %i, %j` (one per dim of `[B..., Hq, Nq, Nk]`: the
    batch dims, the query head, the query and the key position) and, after
    them, one block argument per `captures(...)` operand:

    ```
    s_ij = score_mod(scale * q_i . k_j, b..., h, i, j)  (+ mask[b,h,i,j])
    key j is seen from row i  iff  mask_mod(b..., h, i, j)
                                   and (j <= i + causal_offset if causal)
                                   and mask[b,h,i,j] (i1 masks)
    ```

    - `score_mod`: `^bb0(%s: f32, %b...: index, %h: index, %i: index,
      %j: index, %c...: <captured types>)`, yields one f32. Soft-capping,
      ALiBi, relative-position biases.
    - `mask_mod`: `^bb0(%b...: index, %h: index, %i: index, %j: index,
      %c...)`, yields one i1 (true = the key is seen). It cannot see the
      score, so lowerings skip key blocks it excludes entirely: a mask_mod
      that is a conjunction of comparisons of `j - i`, `j` or `i` with
      values independent of i and j (sliding windows, prefix limits) gives
      every query block its range of key blocks; for others (document
      masks) a block mask is computed first (which tiles some position
      sees, which it sees in full), as FlexAttention's BlockMask.

    The regions are isolated from above: they read only their arguments,
    the captured operands through `tensor.extract` / `tensor.dim`, and
    compute with `arith` and `math` ops (no side effects, no nested
    regions); they end in `flash.yield`. The backward differentiates
    `score_mod` with respect to `%s` through addf, subf, mulf, divf, negf,
    maximumf/maxnumf/minimumf/minnumf, select, extf/truncf, math.tanh, exp,
    exp2, log, sqrt, absf and fma; `flash.attention_grad` rejects a
    score_mod whose value depends on `%s` through anything else.

    ```mlir
    // Gemma 2: soft-capped scores (c = 50) in a sliding window of 4096.
    %o = flash.attention ins(%q, %k, %v : ...) outs(%o0 : ...)
        {scale = 0.0625 : f32, causal} -> tensor<1x8x8192x256xbf16>
      score_mod {
      ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
        %c = arith.constant 50.0 : f32
        %x = arith.divf %s, %c : f32
        %t = math.tanh %x : f32
        %r = arith.mulf %c, %t : f32
        flash.yield %r : f32
      }
      mask_mod {
      ^bb0(%b: index, %h: index, %i: index, %j: index):
        %w = arith.constant 4096 : index
        %d = arith.subi %i, %j : index
        %in = arith.cmpi slt, %d, %w : index
        flash.yield %in : i1
      }
    ```

    Example (GQA, causal, with the log-sum-exp):

    ```mlir
    %o, %lse = flash.attention
        ins(%q, %k, %v : tensor<2x8x?x64xbf16>, tensor<2x2x?x64xbf16>,
                          tensor<2x2x?x64xbf16>)
        outs(%o_init : tensor<2x8x?x64xbf16>)
        lse(%lse_init : tensor<2x8x?xf32>)
        {scale = 0.125 : f32, causal}
        -> tensor<2x8x?x64xbf16>, tensor<2x8x?xf32>
    ```
  }];

  let arguments = (ins
    AnyRankedTensor:$query,
    AnyRankedTensor:$key,
    AnyRankedTensor:$value,
    Optional<AnyRankedTensor>:$mask,
    Variadic<AnyRankedTensor>:$captures,
    Variadic<AnyRankedTensor>:$descales,
    AnyRankedTensor:$output,
    Optional<AnyRankedTensor>:$lse_init,
    OptionalAttr<Flash_AnyFloatAttr>:$scale,
    UnitAttr:$causal,
    OptionalAttr<I64Attr>:$causal_offset
  );
  let results = (outs AnyRankedTensor:$result,
                      Optional<AnyRankedTensor>:$lse);
  let regions = (region AnyRegion:$score_mod, AnyRegion:$mask_mod);

  let assemblyFormat = [{
    `ins` `(` $query `,` $key `,` $value `:`
              type($query) `,` type($key) `,` type($value) `)`
    (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`captures` `(` $captures^ `:` type($captures) `)`)?
    (`descale` `(` $descales^ `:` type($descales) `)`)?
    `outs` `(` $output `:` type($output) `)`
    (`lse` `(` $lse_init^ `:` type($lse_init) `)`)?
    attr-dict `->` type(results)
    (`score_mod` $score_mod^)? (`mask_mod` $mask_mod^)?
  }];

  let hasVerifier = 1;

  let extraClassDeclaration = [{
    // DestinationStyleOpInterface: `outs(o)` and the optional `lse(..)`.
    ::mlir::MutableOperandRange getDpsInitsMutable();

    /// The scale as f32: the attribute, or 1/sqrt(D) when absent.
    float getScaleValue();
    /// The score_mod / mask_mod regions, or null when absent.
    ::mlir::Region *getScoreModRegion() {
      return getScoreMod().empty() ? nullptr : &getScoreMod();
    }
    ::mlir::Region *getMaskModRegion() {
      return getMaskMod().empty() ? nullptr : &getMaskMod();
    }

    /// The dequantization factors of an fp8 op (`descale(qd, kd, vd)`), or
    /// null when absent (the factors are then 1).
    ::mlir::Value getQueryDescale() {
      return getDescales().empty() ? ::mlir::Value() : getDescales()[0];
    }
    ::mlir::Value getKeyDescale() {
      return getDescales().empty() ? ::mlir::Value() : getDescales()[1];
    }
    ::mlir::Value getValueDescale() {
      return getDescales().empty() ? ::mlir::Value() : getDescales()[2];
    }
    /// Checks the `descale(...)` operands (part of verify()).
    ::llvm::LogicalResult verifyDescales();
    /// Whether q/k/v are fp8 (f8E4M3FN).
    bool isFloat8() {
      return ::llvm::isa<::mlir::Float8E4M3FNType>(
          getQuery().getType().getElementType());
    }

    /// Rank of q/k/v/o.
    int64_t getRank() { return getQuery().getType().getRank(); }
    /// Number of leading dims that are neither sequence nor head dim, i.e.
    /// batch dims plus (with rank >= 3) the heads dim.
    int64_t getNumBatchAndHeadDims() { return getRank() - 2; }
  }];
}

def Flash_AttentionGradOp : Flash_Op<"attention_grad", [
    AttrSizedOperandSegments, Pure, DestinationStyleOpInterface,
    IsolatedFromAbove]> {
  let summary = "Gradient of flash.attention by recomputation from lse.";
  let description = [{
    Given the forward's inputs, output `o`, its log-sum-exp `lse` and the
    output gradient `dO`, computes `dq`, `dk`, `dv` without the probability
    matrix being stored: for every block pair it recomputes

    ```
    p    = exp(scale * q k^T (+ mask) - lse)
    D_i  = sum_d dO[i,d] * o[i,d]
    dv  += p^T dO            dp = dO v^T          ds = p * (dp - D)
    dq  += scale * ds k      dk += scale * ds^T q
    ```

    Shapes, `scale`, `causal`, `causal_offset`, `mask`, `captures` and the
    `score_mod` / `mask_mod` regions mean the same as for `flash.attention`
    (with a score_mod, `ds` is multiplied by its derivative in `%s`); `dq` has the shape of `q`, `dk`/`dv` the shapes of
    `k`/`v` (with GQA, the gradients of the query heads of a group are summed
    into their kv head). `deterministic` forbids order-dependent
    accumulation, making results bitwise repeatable.

    ```mlir
    %dq, %dk, %dv = flash.attention_grad
        ins(%q, %k, %v, %o, %lse, %do : tensor<4x128x64xf32>,
            tensor<4x128x64xf32>, tensor<4x128x64xf32>, tensor<4x128x64xf32>,
            tensor<4x128xf32>, tensor<4x128x64xf32>)
        outs(%dq0, %dk0, %dv0 : tensor<4x128x64xf32>, tensor<4x128x64xf32>,
             tensor<4x128x64xf32>)
        {causal, deterministic}
        -> tensor<4x128x64xf32>, tensor<4x128x64xf32>, tensor<4x128x64xf32>
    ```
  }];

  let arguments = (ins
    AnyRankedTensor:$query,
    AnyRankedTensor:$key,
    AnyRankedTensor:$value,
    AnyRankedTensor:$output,
    AnyRankedTensor:$lse,
    AnyRankedTensor:$grad_output,
    Optional<AnyRankedTensor>:$mask,
    Variadic<AnyRankedTensor>:$captures,
    AnyRankedTensor:$grad_query_init,
    AnyRankedTensor:$grad_key_init,
    AnyRankedTensor:$grad_value_init,
    OptionalAttr<Flash_AnyFloatAttr>:$scale,
    UnitAttr:$causal,
    OptionalAttr<I64Attr>:$causal_offset,
    UnitAttr:$deterministic
  );
  let results = (outs AnyRankedTensor:$grad_query,
                      AnyRankedTensor:$grad_key,
                      AnyRankedTensor:$grad_value);
  let regions = (region AnyRegion:$score_mod, AnyRegion:$mask_mod);

  let assemblyFormat = [{
    `ins` `(` $query `,` $key `,` $value `,` $output `,` $lse `,` $grad_output
          `:` type($query) `,` type($key) `,` type($value) `,` type($output)
          `,` type($lse) `,` type($grad_output) `)`
    (`mask` `(` $mask^ `:` type($mask) `)`)?
    (`captures` `(` $captures^ `:` type($captures) `)`)?
    `outs` `(` $grad_query_init `,` $grad_key_init `,` $grad_value_init `:`
           type($grad_query_init) `,` type($grad_key_init) `,`
           type($grad_value_init) `)`
    attr-dict `->` type(results)
    (`score_mod` $score_mod^)? (`mask_mod` $mask_mod^)?
  }];

  let hasVerifier = 1;

  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable();
    float getScaleValue();
    int64_t getRank() { return getQuery().getType().getRank(); }
    /// The score_mod / mask_mod regions, or null when absent.
    ::mlir::Region *getScoreModRegion() {
      return getScoreMod().empty() ? nullptr : &getScoreMod();
    }
    ::mlir::Region *getMaskModRegion() {
      return getMaskMod().empty() ? nullptr : &getMaskMod();
    }
  }];
}

#endif // FLASH_DIALECT_FLASH_IR_FLASHOPS_TD
