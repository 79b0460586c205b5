// RUN: flash-opt %s --split-input-file | FileCheck %s
// Round trip through the generic form must give the same custom form.
// RUN: flash-opt %s --split-input-file --mlir-print-op-generic \
// RUN:   | flash-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @basic_2d
func.func @basic_2d(%q: tensor<100x64xf32>, %k: tensor<70x64xf32>,
                    %v: tensor<70x32xf32>, %o: tensor<100x32xf32>)
    -> tensor<100x32xf32> {
  // CHECK: %[[R:.*]] = flash.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<100x64xf32>, tensor<70x64xf32>, tensor<70x32xf32>) outs(%{{.*}} : tensor<100x32xf32>) -> tensor<100x32xf32>
  %r = flash.attention ins(%q, %k, %v : tensor<100x64xf32>, tensor<70x64xf32>,
                           tensor<70x32xf32>)
       outs(%o : tensor<100x32xf32>) -> tensor<100x32xf32>
  return %r : tensor<100x32xf32>
}

// -----

// CHECK-LABEL: func.func @gqa_causal_lse_bf16
func.func @gqa_causal_lse_bf16(%q: tensor<2x8x128x64xbf16>,
    %k: tensor<2x2x128x64xbf16>, %v: tensor<2x2x128x64xbf16>,
    %o: tensor<2x8x128x64xbf16>, %l: tensor<2x8x128xf32>)
    -> (tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>) {
  // CHECK: %{{.*}}, %{{.*}} = flash.attention
  // CHECK-SAME: lse(%{{.*}} : tensor<2x8x128xf32>)
  // CHECK-SAME: {causal, scale = 1.250000e-01 : f32}
  // CHECK-SAME: -> tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>
  %r:2 = flash.attention ins(%q, %k, %v : tensor<2x8x128x64xbf16>,
             tensor<2x2x128x64xbf16>, tensor<2x2x128x64xbf16>)
         outs(%o : tensor<2x8x128x64xbf16>) lse(%l : tensor<2x8x128xf32>)
         {scale = 0.125 : f32, causal}
         -> tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>
  return %r#0, %r#1 : tensor<2x8x128x64xbf16>, tensor<2x8x128xf32>
}

// -----

// CHECK-LABEL: func.func @masks_and_offset
func.func @masks_and_offset(%q: tensor<4x16x32xf16>, %k: tensor<4x48x32xf16>,
    %v: tensor<4x48x32xf16>, %o: tensor<4x16x32xf16>, %add: tensor<16x48xf16>,
    %keep: tensor<4x1x48xi1>) -> (tensor<4x16x32xf16>, tensor<4x16x32xf16>) {
  // CHECK: flash.attention
  // CHECK-SAME: mask(%{{.*}} : tensor<16x48xf16>)
  // CHECK-SAME: {causal, causal_offset = 0 : i64}
  %a = flash.attention ins(%q, %k, %v : tensor<4x16x32xf16>,
           tensor<4x48x32xf16>, tensor<4x48x32xf16>)
       mask(%add : tensor<16x48xf16>) outs(%o : tensor<4x16x32xf16>)
       {causal, causal_offset = 0 : i64} -> tensor<4x16x32xf16>
  // CHECK: flash.attention
  // CHECK-SAME: mask(%{{.*}} : tensor<4x1x48xi1>)
  %b = flash.attention ins(%q, %k, %v : tensor<4x16x32xf16>,
           tensor<4x48x32xf16>, tensor<4x48x32xf16>)
       mask(%keep : tensor<4x1x48xi1>) outs(%o : tensor<4x16x32xf16>)
       -> tensor<4x16x32xf16>
  return %a, %b : tensor<4x16x32xf16>, tensor<4x16x32xf16>
}

// -----

// Dynamic sequence lengths and batch, MQA (one kv head).
// CHECK-LABEL: func.func @dynamic_mqa
func.func @dynamic_mqa(%q: tensor<?x4x?x64xf32>, %k: tensor<?x1x?x64xf32>,
    %v: tensor<?x1x?x64xf32>, %o: tensor<?x4x?x64xf32>)
    -> tensor<?x4x?x64xf32> {
  // CHECK: flash.attention ins({{.*}} : tensor<?x4x?x64xf32>, tensor<?x1x?x64xf32>, tensor<?x1x?x64xf32>)
  %r = flash.attention ins(%q, %k, %v : tensor<?x4x?x64xf32>,
           tensor<?x1x?x64xf32>, tensor<?x1x?x64xf32>)
       outs(%o : tensor<?x4x?x64xf32>) -> tensor<?x4x?x64xf32>
  return %r : tensor<?x4x?x64xf32>
}

// -----

// CHECK-LABEL: func.func @grad
func.func @grad(%q: tensor<2x4x100x64xf32>, %k: tensor<2x2x80x64xf32>,
    %v: tensor<2x2x80x32xf32>, %o: tensor<2x4x100x32xf32>,
    %lse: tensor<2x4x100xf32>, %do: tensor<2x4x100x32xf32>)
    -> (tensor<2x4x100x64xf32>, tensor<2x2x80x64xf32>, tensor<2x2x80x32xf32>) {
  %dq0 = tensor.empty() : tensor<2x4x100x64xf32>
  %dk0 = tensor.empty() : tensor<2x2x80x64xf32>
  %dv0 = tensor.empty() : tensor<2x2x80x32xf32>
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = flash.attention_grad ins(
  // CHECK-SAME: outs(
  // CHECK-SAME: {causal, deterministic}
  %r:3 = flash.attention_grad
      ins(%q, %k, %v, %o, %lse, %do : tensor<2x4x100x64xf32>,
          tensor<2x2x80x64xf32>, tensor<2x2x80x32xf32>,
          tensor<2x4x100x32xf32>, tensor<2x4x100xf32>, tensor<2x4x100x32xf32>)
      outs(%dq0, %dk0, %dv0 : tensor<2x4x100x64xf32>, tensor<2x2x80x64xf32>,
           tensor<2x2x80x32xf32>)
      {causal, deterministic}
      -> tensor<2x4x100x64xf32>, tensor<2x2x80x64xf32>, tensor<2x2x80x32xf32>
  return %r#0, %r#1, %r#2 : tensor<2x4x100x64xf32>, tensor<2x2x80x64xf32>, tensor<2x2x80x32xf32>
}

// -----

// CHECK-LABEL: func.func @grad_masked_dynamic
func.func @grad_masked_dynamic(%q: tensor<?x32xbf16>, %k: tensor<?x32xbf16>,
    %v: tensor<?x32xbf16>, %o: tensor<?x32xbf16>, %lse: tensor<?xf32>,
    %do: tensor<?x32xbf16>, %m: tensor<?x?xi1>, %dq0: tensor<?x32xbf16>,
    %dk0: tensor<?x32xbf16>, %dv0: tensor<?x32xbf16>)
    -> (tensor<?x32xbf16>, tensor<?x32xbf16>, tensor<?x32xbf16>) {
  // CHECK: flash.attention_grad
  // CHECK-SAME: mask(%{{.*}} : tensor<?x?xi1>)
  // CHECK-SAME: {scale = 5.000000e-01 : f32}
  %r:3 = flash.attention_grad
      ins(%q, %k, %v, %o, %lse, %do : tensor<?x32xbf16>, tensor<?x32xbf16>,
          tensor<?x32xbf16>, tensor<?x32xbf16>, tensor<?xf32>,
          tensor<?x32xbf16>)
      mask(%m : tensor<?x?xi1>)
      outs(%dq0, %dk0, %dv0 : tensor<?x32xbf16>, tensor<?x32xbf16>,
           tensor<?x32xbf16>)
      {scale = 0.5 : f32}
      -> tensor<?x32xbf16>, tensor<?x32xbf16>, tensor<?x32xbf16>
  return %r#0, %r#1, %r#2 : tensor<?x32xbf16>, tensor<?x32xbf16>, tensor<?x32xbf16>
}

// -----

// fp8 with descale factors per batch and kv head (GQA); o in bf16.
// CHECK-LABEL: func.func @fp8_descale
func.func @fp8_descale(%q: tensor<2x8x?x128xf8E4M3FN>,
    %k: tensor<2x2x?x128xf8E4M3FN>, %v: tensor<2x2x?x128xf8E4M3FN>,
    %qd: tensor<2x2xf32>, %kd: tensor<2x2xf32>, %vd: tensor<f32>,
    %o0: tensor<2x8x?x128xbf16>) -> tensor<2x8x?x128xbf16> {
  // CHECK: flash.attention ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x8x?x128xf8E4M3FN>, tensor<2x2x?x128xf8E4M3FN>, tensor<2x2x?x128xf8E4M3FN>)
  // CHECK-SAME: descale(%{{.*}}, %{{.*}}, %{{.*}} : tensor<2x2xf32>, tensor<2x2xf32>, tensor<f32>)
  // CHECK-SAME: outs(%{{.*}} : tensor<2x8x?x128xbf16>) {causal}
  %r = flash.attention ins(%q, %k, %v : tensor<2x8x?x128xf8E4M3FN>,
          tensor<2x2x?x128xf8E4M3FN>, tensor<2x2x?x128xf8E4M3FN>)
      descale(%qd, %kd, %vd : tensor<2x2xf32>, tensor<2x2xf32>, tensor<f32>)
      outs(%o0 : tensor<2x8x?x128xbf16>) {causal} -> tensor<2x8x?x128xbf16>
  return %r : tensor<2x8x?x128xbf16>
}
