// RUN: flash-opt %s --split-input-file --verify-diagnostics

// Every verifier message of flash.attention and flash.attention_grad.

func.func @bad_element_type(%q: tensor<8x16xi32>, %k: tensor<8x16xi32>, %v: tensor<8x16xi32>, %o: tensor<8x16xi32>) {
  // expected-error @+1 {{query element type must be f32, f16, bf16 or f8E4M3FN, got 'i32'}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xi32>, tensor<8x16xi32>, tensor<8x16xi32>) outs(%o : tensor<8x16xi32>) -> tensor<8x16xi32>
  return
}

// -----

func.func @mixed_element_types(%q: tensor<8x16xf16>, %k: tensor<8x16xf32>, %v: tensor<8x16xf16>, %o: tensor<8x16xf16>) {
  // expected-error @+1 {{query, key and value must have one element type, got 'f16', 'f32' and 'f16'}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf16>, tensor<8x16xf32>, tensor<8x16xf16>) outs(%o : tensor<8x16xf16>) -> tensor<8x16xf16>
  return
}

// -----

func.func @rank_1(%q: tensor<16xf32>, %k: tensor<16xf32>, %v: tensor<16xf32>, %o: tensor<16xf32>) {
  // expected-error @+1 {{query must have rank >= 2 ([batch..., seq, head_dim]), got rank 1}}
  %r = flash.attention ins(%q, %k, %v : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%o : tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @rank_mismatch(%q: tensor<2x8x16xf32>, %k: tensor<8x16xf32>, %v: tensor<8x16xf32>, %o: tensor<2x8x16xf32>) {
  // expected-error @+1 {{query, key and value must have the same rank, got 3, 2 and 2}}
  %r = flash.attention ins(%q, %k, %v : tensor<2x8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @batch_mismatch(%q: tensor<2x4x8x16xf32>, %k: tensor<3x4x8x16xf32>, %v: tensor<3x4x8x16xf32>, %o: tensor<2x4x8x16xf32>) {
  // expected-error @+1 {{batch dim 0 differs between query [2, 4, 8, 16], key [3, 4, 8, 16] and value [3, 4, 8, 16]}}
  %r = flash.attention ins(%q, %k, %v : tensor<2x4x8x16xf32>, tensor<3x4x8x16xf32>, tensor<3x4x8x16xf32>) outs(%o : tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  return
}

// -----

func.func @kv_heads_differ(%q: tensor<4x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<4x8x16xf32>, %o: tensor<4x8x16xf32>) {
  // expected-error @+1 {{key and value must have the same number of heads, got 2 and 4}}
  %r = flash.attention ins(%q, %k, %v : tensor<4x8x16xf32>, tensor<2x8x16xf32>, tensor<4x8x16xf32>) outs(%o : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return
}

// -----

func.func @gqa_not_multiple(%q: tensor<6x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>, %o: tensor<6x8x16xf32>) {
  // expected-error @+1 {{number of query heads (6) must be a multiple of the number of key/value heads (4)}}
  %r = flash.attention ins(%q, %k, %v : tensor<6x8x16xf32>, tensor<4x8x16xf32>, tensor<4x8x16xf32>) outs(%o : tensor<6x8x16xf32>) -> tensor<6x8x16xf32>
  return
}

// -----

func.func @kv_length_mismatch(%q: tensor<8x16xf32>, %k: tensor<9x16xf32>, %v: tensor<7x16xf32>, %o: tensor<8x16xf32>) {
  // expected-error @+1 {{key and value sequence lengths differ (9 vs 7)}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf32>, tensor<9x16xf32>, tensor<7x16xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @dynamic_head_dim(%q: tensor<8x?xf32>, %k: tensor<8x?xf32>, %v: tensor<8x?xf32>, %o: tensor<8x?xf32>) {
  // expected-error @+1 {{head dims (the last dim of query, key and value) must be static}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x?xf32>, tensor<8x?xf32>, tensor<8x?xf32>) outs(%o : tensor<8x?xf32>) -> tensor<8x?xf32>
  return
}

// -----

func.func @zero_head_dim(%q: tensor<8x0xf32>, %k: tensor<8x0xf32>, %v: tensor<8x4xf32>, %o: tensor<8x4xf32>) {
  // expected-error @+1 {{head dims must be non-zero, got 0 and 4}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x0xf32>, tensor<8x0xf32>, tensor<8x4xf32>) outs(%o : tensor<8x4xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @no_keys(%q: tensor<8x16xf32>, %k: tensor<0x16xf32>, %v: tensor<0x16xf32>, %o: tensor<8x16xf32>) {
  // expected-error @+1 {{static sequence lengths must be non-zero, got 8 queries and 0 keys}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf32>, tensor<0x16xf32>, tensor<0x16xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @head_dim_mismatch(%q: tensor<8x16xf32>, %k: tensor<8x32xf32>, %v: tensor<8x16xf32>, %o: tensor<8x16xf32>) {
  // expected-error @+1 {{query and key head dims differ (16 vs 32)}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf32>, tensor<8x32xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @mask_element_type(%q: tensor<8x16xf32>, %k: tensor<8x16xf32>, %v: tensor<8x16xf32>, %o: tensor<8x16xf32>, %m: tensor<8x8xi8>) {
  // expected-error @+1 {{mask element type must be i1 (keep-mask) or f32/f16/bf16 (additive), got 'i8'}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) mask(%m : tensor<8x8xi8>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @mask_rank(%q: tensor<8x16xf32>, %k: tensor<8x16xf32>, %v: tensor<8x16xf32>, %o: tensor<8x16xf32>, %m: tensor<2x8x8xf32>) {
  // expected-error @+1 {{mask of shape [2, 8, 8] does not broadcast to the scores [8, 8]: its rank must be between 2 and 2}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) mask(%m : tensor<2x8x8xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @mask_broadcast(%q: tensor<2x8x16xf32>, %k: tensor<2x10x16xf32>, %v: tensor<2x10x16xf32>, %o: tensor<2x8x16xf32>, %m: tensor<7x10xf32>) {
  // expected-error @+1 {{mask of shape [7, 10] does not broadcast to the scores [2, 8, 10] (dim 0 is 7, expected 1 or 8)}}
  %r = flash.attention ins(%q, %k, %v : tensor<2x8x16xf32>, tensor<2x10x16xf32>, tensor<2x10x16xf32>) mask(%m : tensor<7x10xf32>) outs(%o : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return
}

// -----

func.func @scale_inf(%q: tensor<8x16xf32>, %k: tensor<8x16xf32>, %v: tensor<8x16xf32>, %o: tensor<8x16xf32>) {
  // expected-error @+1 {{scale must be a finite float}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) {scale = 0x7F800000 : f32} -> tensor<8x16xf32>
  return
}

// -----

func.func @scale_not_float(%q: tensor<8x16xf32>, %k: tensor<8x16xf32>, %v: tensor<8x16xf32>, %o: tensor<8x16xf32>) {
  // expected-error @+1 {{attribute 'scale' failed to satisfy constraint: floating-point attribute}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) {scale = 2 : i32} -> tensor<8x16xf32>
  return
}

// -----

func.func @offset_without_causal(%q: tensor<8x16xf32>, %k: tensor<8x16xf32>, %v: tensor<8x16xf32>, %o: tensor<8x16xf32>) {
  // expected-error @+1 {{causal_offset requires the causal attribute}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) {causal_offset = 0 : i64} -> tensor<8x16xf32>
  return
}

// -----

func.func @output_shape(%q: tensor<8x16xf32>, %k: tensor<8x16xf32>, %v: tensor<8x32xf32>, %o: tensor<8x16xf32>) {
  // expected-error @+1 {{output has shape [8, 16], expected [8, 32]}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x32xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @output_element_type(%q: tensor<8x16xbf16>, %k: tensor<8x16xbf16>, %v: tensor<8x16xbf16>, %o: tensor<8x16xf32>) {
  // expected-error @+1 {{output must have element type 'bf16', got 'f32'}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xbf16>, tensor<8x16xbf16>, tensor<8x16xbf16>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @result_type(%q: tensor<8x16xf32>, %k: tensor<8x16xf32>, %v: tensor<8x16xf32>, %o: tensor<8x16xf32>) {
  // expected-error @+1 {{result type 'tensor<?x16xf32>' must match the output type 'tensor<8x16xf32>'}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) -> tensor<?x16xf32>
  return
}

// -----

func.func @lse_without_result(%q: tensor<8x16xf32>, %k: tensor<8x16xf32>, %v: tensor<8x16xf32>, %o: tensor<8x16xf32>, %l: tensor<8xf32>) {
  // expected-error @+1 {{an lse(...) operand requires an lse result and vice versa}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) lse(%l : tensor<8xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @lse_shape(%q: tensor<8x16xf32>, %k: tensor<8x16xf32>, %v: tensor<8x16xf32>, %o: tensor<8x16xf32>, %l: tensor<9xf32>) {
  // expected-error @+1 {{lse has shape [9], expected [8]}}
  %r:2 = flash.attention ins(%q, %k, %v : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) lse(%l : tensor<9xf32>) -> tensor<8x16xf32>, tensor<9xf32>
  return
}

// -----

func.func @lse_element_type(%q: tensor<8x16xf16>, %k: tensor<8x16xf16>, %v: tensor<8x16xf16>, %o: tensor<8x16xf16>, %l: tensor<8xf16>) {
  // expected-error @+1 {{lse must have element type 'f32', got 'f16'}}
  %r:2 = flash.attention ins(%q, %k, %v : tensor<8x16xf16>, tensor<8x16xf16>, tensor<8x16xf16>) outs(%o : tensor<8x16xf16>) lse(%l : tensor<8xf16>) -> tensor<8x16xf16>, tensor<8xf16>
  return
}

// -----

func.func @lse_result_type(%q: tensor<8x16xf32>, %k: tensor<8x16xf32>, %v: tensor<8x16xf32>, %o: tensor<8x16xf32>, %l: tensor<8xf32>) {
  // expected-error @+1 {{lse result type 'tensor<?xf32>' must match the lse operand type 'tensor<8xf32>'}}
  %r:2 = flash.attention ins(%q, %k, %v : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) lse(%l : tensor<8xf32>) -> tensor<8x16xf32>, tensor<?xf32>
  return
}

// -----

func.func @grad_lse_shape(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>, %l: tensor<7xf32>, %do: tensor<8x16xf32>, %dk: tensor<8x16xf32>) {
  // expected-error @+1 {{lse has shape [7], expected [8]}}
  %r:3 = flash.attention_grad ins(%q, %q, %q, %o, %l, %do : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<7xf32>, tensor<8x16xf32>) outs(%q, %dk, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
  return
}

// -----

func.func @grad_output_shape(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>, %l: tensor<8xf32>, %do: tensor<8x8xf32>, %dk: tensor<8x16xf32>) {
  // expected-error @+1 {{grad_output has shape [8, 8], expected [8, 16]}}
  %r:3 = flash.attention_grad ins(%q, %q, %q, %o, %l, %do : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8xf32>, tensor<8x8xf32>) outs(%q, %dk, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
  return
}

// -----

func.func @grad_key_shape(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>, %l: tensor<8xf32>, %do: tensor<8x16xf32>, %dk: tensor<8x8xf32>) {
  // expected-error @+1 {{grad_key init has shape [8, 8], expected [8, 16]}}
  %r:3 = flash.attention_grad ins(%q, %q, %q, %o, %l, %do : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8xf32>, tensor<8x16xf32>) outs(%q, %dk, %q : tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>, tensor<8x8xf32>, tensor<8x16xf32>
  return
}

// -----

func.func @grad_result_type(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>, %l: tensor<8xf32>, %do: tensor<8x16xf32>, %dk: tensor<8x16xf32>) {
  // expected-error @+1 {{result type 'tensor<?x16xf32>' must match its outs type 'tensor<8x16xf32>'}}
  %r:3 = flash.attention_grad ins(%q, %q, %q, %o, %l, %do : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8xf32>, tensor<8x16xf32>) outs(%q, %dk, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>, tensor<?x16xf32>, tensor<8x16xf32>
  return
}

// -----

// Modifier regions.

func.func @score_mod_arg_count(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>) {
  // expected-error @+1 {{'score_mod' must have 3 arguments (the f32 score, 2 index positions (batch..., head, query, key) and 0 captured operand(s)), got 2}}
  %r = flash.attention ins(%q, %q, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
    score_mod {
    ^bb0(%s: f32, %i: index):
      flash.yield %s : f32
    }
  return
}

// -----

func.func @score_mod_score_type(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>) {
  // expected-error @+1 {{'score_mod' argument #0 (the score) must be f32, got 'f16'}}
  %r = flash.attention ins(%q, %q, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
    score_mod {
    ^bb0(%s: f16, %i: index, %j: index):
      %c = arith.constant 1.0 : f32
      flash.yield %c : f32
    }
  return
}

// -----

func.func @mask_mod_position_type(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>) {
  // expected-error @+1 {{'mask_mod' argument #1 (a position) must be index, got 'i64'}}
  %r = flash.attention ins(%q, %q, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
    mask_mod {
    ^bb0(%i: index, %j: i64):
      %t = arith.constant true
      flash.yield %t : i1
    }
  return
}

// -----

func.func @capture_type(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>, %c: tensor<8xf32>) {
  // expected-error @+1 {{'mask_mod' argument #2 must have the type of captured operand #0 ('tensor<8xf32>'), got 'tensor<4xf32>'}}
  %r = flash.attention ins(%q, %q, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) captures(%c : tensor<8xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
    mask_mod {
    ^bb0(%i: index, %j: index, %x: tensor<4xf32>):
      %t = arith.constant true
      flash.yield %t : i1
    }
  return
}

// -----

func.func @mask_mod_yield_type(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>) {
  %r = flash.attention ins(%q, %q, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
    mask_mod {
    ^bb0(%i: index, %j: index):
      %c = arith.constant 1.0 : f32
      // expected-error @+1 {{'flash.yield' op in 'mask_mod' must yield 'i1', got 'f32'}}
      flash.yield %c : f32
    }
  return
}

// -----

// A region whose block holds no op at all (not even a terminator): the
// verifier must not ask an empty block for its terminator (a fuzzer
// finding: a heap read past the block under ASan).
func.func @empty_block(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>) {
  // expected-error @+1 {{'score_mod' must end in flash.yield}}
  %r = flash.attention ins(%q, %q, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
    score_mod {
    ^bb0(%s: f32, %i: index, %j: index):
    }
  return
}

// -----

func.func @disallowed_op(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>) {
  %r = flash.attention ins(%q, %q, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
    score_mod {
    ^bb0(%s: f32, %i: index, %j: index):
      // expected-error @+1 {{'tensor.empty' op is not allowed in 'score_mod': only arith and math ops, tensor.extract and tensor.dim of captured operands}}
      %e = tensor.empty() : tensor<4xf32>
      flash.yield %s : f32
    }
  return
}

// -----

func.func @tensor_constant(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>, %t: tensor<8xf32>) {
  %r = flash.attention ins(%q, %q, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) captures(%t : tensor<8xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
    score_mod {
    ^bb0(%s: f32, %i: index, %j: index, %c: tensor<8xf32>):
      // expected-error @+1 {{'arith.constant' op in 'score_mod' must compute scalars, got 'tensor<8xf32>'}}
      %cst = arith.constant dense<1.0> : tensor<8xf32>
      flash.yield %s : f32
    }
  return
}

// -----

func.func @captures_without_regions(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>, %t: tensor<8xf32>) {
  // expected-error @+1 {{captures(...) requires a score_mod or mask_mod region that reads them}}
  %r = flash.attention ins(%q, %q, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) captures(%t : tensor<8xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @region_reads_above(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>, %x: f32) {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = flash.attention ins(%q, %q, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
    score_mod {
    ^bb0(%s: f32, %i: index, %j: index):
      // expected-error @+1 {{using value defined outside the region}}
      %y = arith.addf %s, %x : f32
      flash.yield %y : f32
    }
  return
}

// -----

func.func @grad_not_differentiable(%q: tensor<8x16xf32>, %lse: tensor<8xf32>) {
  %r:3 = flash.attention_grad ins(%q, %q, %q, %q, %lse, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8xf32>, tensor<8x16xf32>) outs(%q, %q, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
    score_mod {
    ^bb0(%s: f32, %i: index, %j: index):
      // expected-error @+1 {{'math.erf' op in 'score_mod' has no derivative rule: the backward cannot differentiate the score through it}}
      %y = math.erf %s : f32
      flash.yield %y : f32
    }
  return
}

// -----

func.func @extract_not_captured(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>, %t: tensor<8xf32>) {
  %r = flash.attention ins(%q, %q, %q : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) captures(%t : tensor<8xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
    score_mod {
    ^bb0(%s: f32, %i: index, %j: index, %c: tensor<8xf32>):
      // expected-error @+1 {{'arith.addf' op in 'score_mod' uses a captured tensor; read it with tensor.extract}}
      %e = arith.addf %c, %c : tensor<8xf32>
      flash.yield %s : f32
    }
  return
}

// -----

func.func @fp8_output_type(%q: tensor<2x8x16xf8E4M3FN>, %k: tensor<2x8x16xf8E4M3FN>, %v: tensor<2x8x16xf8E4M3FN>, %o: tensor<2x8x16xf8E4M3FN>) {
  // expected-error @+1 {{output of an fp8 attention must have element type f32, f16 or bf16, got 'f8E4M3FN'}}
  %r = flash.attention ins(%q, %k, %v : tensor<2x8x16xf8E4M3FN>, tensor<2x8x16xf8E4M3FN>, tensor<2x8x16xf8E4M3FN>) outs(%o : tensor<2x8x16xf8E4M3FN>) -> tensor<2x8x16xf8E4M3FN>
  return
}

// -----

func.func @fp8_mixed(%q: tensor<8x16xf8E4M3FN>, %k: tensor<8x16xbf16>, %v: tensor<8x16xbf16>, %o: tensor<8x16xbf16>) {
  // expected-error @+1 {{query, key and value must have one element type, got 'f8E4M3FN', 'bf16' and 'bf16'}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf8E4M3FN>, tensor<8x16xbf16>, tensor<8x16xbf16>) outs(%o : tensor<8x16xbf16>) -> tensor<8x16xbf16>
  return
}

// -----

func.func @fp8_e5m2(%q: tensor<8x16xf8E5M2>, %k: tensor<8x16xf8E5M2>, %v: tensor<8x16xf8E5M2>, %o: tensor<8x16xbf16>) {
  // expected-error @+1 {{query element type must be f32, f16, bf16 or f8E4M3FN, got 'f8E5M2'}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf8E5M2>, tensor<8x16xf8E5M2>, tensor<8x16xf8E5M2>) outs(%o : tensor<8x16xbf16>) -> tensor<8x16xbf16>
  return
}

// -----

func.func @descale_not_fp8(%q: tensor<8x16xbf16>, %k: tensor<8x16xbf16>, %v: tensor<8x16xbf16>, %d: tensor<f32>, %o: tensor<8x16xbf16>) {
  // expected-error @+1 {{descale operands require f8E4M3FN query, key and value, got 'bf16'}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xbf16>, tensor<8x16xbf16>, tensor<8x16xbf16>) descale(%d, %d, %d : tensor<f32>, tensor<f32>, tensor<f32>) outs(%o : tensor<8x16xbf16>) -> tensor<8x16xbf16>
  return
}

// -----

func.func @descale_count(%q: tensor<8x16xf8E4M3FN>, %k: tensor<8x16xf8E4M3FN>, %v: tensor<8x16xf8E4M3FN>, %d: tensor<f32>, %o: tensor<8x16xbf16>) {
  // expected-error @+1 {{takes three descale operands (query, key, value), got 2}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf8E4M3FN>, tensor<8x16xf8E4M3FN>, tensor<8x16xf8E4M3FN>) descale(%d, %d : tensor<f32>, tensor<f32>) outs(%o : tensor<8x16xbf16>) -> tensor<8x16xbf16>
  return
}

// -----

func.func @descale_type(%q: tensor<8x16xf8E4M3FN>, %k: tensor<8x16xf8E4M3FN>, %v: tensor<8x16xf8E4M3FN>, %d: tensor<f32>, %h: tensor<f16>, %o: tensor<8x16xbf16>) {
  // expected-error @+1 {{key descale must have element type f32, got 'f16'}}
  %r = flash.attention ins(%q, %k, %v : tensor<8x16xf8E4M3FN>, tensor<8x16xf8E4M3FN>, tensor<8x16xf8E4M3FN>) descale(%d, %h, %d : tensor<f32>, tensor<f16>, tensor<f32>) outs(%o : tensor<8x16xbf16>) -> tensor<8x16xbf16>
  return
}

// -----

func.func @descale_shape(%q: tensor<2x8x16x32xf8E4M3FN>, %k: tensor<2x2x16x32xf8E4M3FN>, %v: tensor<2x2x16x32xf8E4M3FN>, %d: tensor<f32>, %dq: tensor<2x8xf32>, %o: tensor<2x8x16x32xbf16>) {
  // expected-error @+1 {{query descale has shape [2, 8], expected [] (per tensor) or [2, 2] (per batch and kv head)}}
  %r = flash.attention ins(%q, %k, %v : tensor<2x8x16x32xf8E4M3FN>, tensor<2x2x16x32xf8E4M3FN>, tensor<2x2x16x32xf8E4M3FN>) descale(%dq, %d, %d : tensor<2x8xf32>, tensor<f32>, tensor<f32>) outs(%o : tensor<2x8x16x32xbf16>) -> tensor<2x8x16x32xbf16>
  return
}

// -----

func.func @grad_fp8(%q: tensor<8x16xf8E4M3FN>, %o: tensor<8x16xf8E4M3FN>, %lse: tensor<8xf32>) {
  // expected-error @+1 {{has no fp8 form: query, key and value must be f32, f16 or bf16, got 'f8E4M3FN'}}
  %r:3 = flash.attention_grad ins(%q, %q, %q, %o, %lse, %o : tensor<8x16xf8E4M3FN>, tensor<8x16xf8E4M3FN>, tensor<8x16xf8E4M3FN>, tensor<8x16xf8E4M3FN>, tensor<8xf32>, tensor<8x16xf8E4M3FN>) outs(%q, %q, %q : tensor<8x16xf8E4M3FN>, tensor<8x16xf8E4M3FN>, tensor<8x16xf8E4M3FN>) -> tensor<8x16xf8E4M3FN>, tensor<8x16xf8E4M3FN>, tensor<8x16xf8E4M3FN>
  return
}
