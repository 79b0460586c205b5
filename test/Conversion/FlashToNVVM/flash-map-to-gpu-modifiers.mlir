// score_mod / mask_mod on the GPU: the tensor-core forward (mma.sync, wgmma)
// inlines both regions per score element (the score_mod on scale * q.k, in
// the kernel's units), and starts its key loop at the first tile a
// mask_mod's affine bounds let the block see. Everything else is diagnosed.
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="tensor-cores=1 wgmma=1" --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @window_softcap
// CHECK: gpu.func @flash_attention_0
// The block's first key tile: its first row's window start, floored to a
// tile.
// CHECK: arith.divsi %{{[0-9]+}}, %c64{{[_0-9]*}} : index
// CHECK: arith.muli %{{[0-9]+}}, %c64
// CHECK: scf.for
// CHECK: math.tanh
// CHECK: arith.cmpi sge
// CHECK: arith.andi
func.func @window_softcap(%q: tensor<1x2x300x64xbf16>, %k: tensor<1x2x300x64xbf16>, %v: tensor<1x2x300x64xbf16>) -> tensor<1x2x300x64xbf16> {
  %o0 = tensor.empty() : tensor<1x2x300x64xbf16>
  %o = flash.attention ins(%q, %k, %v : tensor<1x2x300x64xbf16>, tensor<1x2x300x64xbf16>, tensor<1x2x300x64xbf16>)
      outs(%o0 : tensor<1x2x300x64xbf16>) {causal} -> tensor<1x2x300x64xbf16>
    score_mod {
    ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index):
      %c = arith.constant 5.0 : f32
      %x = arith.divf %s, %c : f32
      %t = math.tanh %x : f32
      %y = arith.mulf %t, %c : f32
      flash.yield %y : f32
    }
    mask_mod {
    ^bb0(%b: index, %h: index, %i: index, %j: index):
      %w = arith.constant -40 : index
      %lo = arith.addi %i, %w : index
      %in = arith.cmpi sge, %j, %lo : index
      flash.yield %in : i1
    }
  return %o : tensor<1x2x300x64xbf16>
}

// -----

func.func @negative_captures(%q: tensor<1x2x64x64xbf16>, %sl: tensor<2xf32>) -> tensor<1x2x64x64xbf16> {
  %o0 = tensor.empty() : tensor<1x2x64x64xbf16>
  // expected-error @+1 {{with captured operands (a score_mod or mask_mod reading tensors) is not supported by the GPU kernels yet (--flash-to-cpu lowers it)}}
  %o = flash.attention ins(%q, %q, %q : tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>, tensor<1x2x64x64xbf16>)
      captures(%sl : tensor<2xf32>) outs(%o0 : tensor<1x2x64x64xbf16>) -> tensor<1x2x64x64xbf16>
    score_mod {
    ^bb0(%s: f32, %b: index, %h: index, %i: index, %j: index, %c: tensor<2xf32>):
      %m = tensor.extract %c[%h] : tensor<2xf32>
      %y = arith.addf %s, %m : f32
      flash.yield %y : f32
    }
  return %o : tensor<1x2x64x64xbf16>
}

// -----

func.func @negative_f32(%q: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %o0 = tensor.empty() : tensor<64x64xf32>
  // expected-error @+1 {{with a score_mod or mask_mod needs the tensor-core forward kernel on the GPU (f16/bf16 with tensor-cores); the other GPU kernels do not support modifiers yet}}
  %o = flash.attention ins(%q, %q, %q : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>)
      outs(%o0 : tensor<64x64xf32>) -> tensor<64x64xf32>
    mask_mod {
    ^bb0(%i: index, %j: index):
      %in = arith.cmpi sle, %j, %i : index
      flash.yield %in : i1
    }
  return %o : tensor<64x64xf32>
}

// -----

func.func @negative_grad(%q: tensor<64x64xbf16>, %lse: tensor<64xf32>) -> tensor<64x64xbf16> {
  // expected-error @+1 {{with a score_mod or mask_mod is not supported by the GPU backward kernels yet (--flash-to-cpu lowers it)}}
  %r:3 = flash.attention_grad ins(%q, %q, %q, %q, %lse, %q : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64xf32>, tensor<64x64xbf16>)
      outs(%q, %q, %q : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16>
    mask_mod {
    ^bb0(%i: index, %j: index):
      %in = arith.cmpi sle, %j, %i : index
      flash.yield %in : i1
    }
  return %r#0 : tensor<64x64xbf16>
}
