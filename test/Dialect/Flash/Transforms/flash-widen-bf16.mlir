// RUN: flash-opt %s --split-input-file --flash-widen-bf16 | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-widen-bf16=include-f16 | FileCheck %s --check-prefix=F16
// forward=false / backward=false: those bf16 ops stay bf16
// (flash-vectorize-bf16-dot computes them); the others are still widened.
// RUN: flash-opt %s --split-input-file --flash-widen-bf16=forward=false | FileCheck %s --check-prefix=FWD
// RUN: flash-opt %s --split-input-file --flash-widen-bf16=backward=false | FileCheck %s --check-prefix=BWD
// FWD-LABEL: func.func @forward
// FWD-NOT: arith.extf
// FWD: flash.attention ins(%{{.*}} : tensor<2x9x16xbf16>, tensor<2x13x16xbf16>, tensor<2x13x16xbf16>)
// FWD-LABEL: func.func @backward
// FWD: flash.attention_grad ins({{.*}} : tensor<9x16xf32>
// BWD-LABEL: func.func @forward
// BWD: flash.attention ins(%{{.*}} : tensor<2x9x16xf32>
// BWD-LABEL: func.func @backward
// BWD-NOT: arith.extf
// BWD: flash.attention_grad ins({{.*}} : tensor<9x16xbf16>

// bf16 forward: f32 copies in, f32 op (lse unchanged), the output rounded
// back to bf16.
// CHECK-LABEL: func.func @forward
// CHECK-COUNT-3: arith.extf %{{.*}} : bf16 to f32
// CHECK: %[[O:.*]], %[[L:.*]] = flash.attention ins(%{{.*}} : tensor<2x9x16xf32>, tensor<2x13x16xf32>, tensor<2x13x16xf32>) mask(%{{.*}} : tensor<9x13xi1>) outs(%{{.*}} : tensor<2x9x16xf32>) lse(%{{.*}} : tensor<2x9xf32>) {causal, scale = 5.000000e-01 : f32}
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%[[O]] : tensor<2x9x16xf32>)
// CHECK:   arith.truncf %{{.*}} : f32 to bf16
// CHECK: return %[[T]], %[[L]]
func.func @forward(%q: tensor<2x9x16xbf16>, %k: tensor<2x13x16xbf16>, %m: tensor<9x13xi1>)
    -> (tensor<2x9x16xbf16>, tensor<2x9xf32>) {
  %o = tensor.empty() : tensor<2x9x16xbf16>
  %l = tensor.empty() : tensor<2x9xf32>
  %r:2 = flash.attention ins(%q, %k, %k : tensor<2x9x16xbf16>, tensor<2x13x16xbf16>, tensor<2x13x16xbf16>)
         mask(%m : tensor<9x13xi1>) outs(%o : tensor<2x9x16xbf16>) lse(%l : tensor<2x9xf32>)
         {causal, scale = 0.5 : f32} -> tensor<2x9x16xbf16>, tensor<2x9xf32>
  return %r#0, %r#1 : tensor<2x9x16xbf16>, tensor<2x9xf32>
}

// -----

// bf16 backward: q, k, v, o, dO widened; dq, dk, dv rounded back. f16 ops
// are left alone unless include-f16.
// CHECK-LABEL: func.func @backward
// CHECK-COUNT-5: arith.extf %{{.*}} : bf16 to f32
// CHECK: flash.attention_grad ins({{.*}} : tensor<9x16xf32>, tensor<13x16xf32>, tensor<13x16xf32>, tensor<9x16xf32>, tensor<9xf32>, tensor<9x16xf32>) outs({{.*}} : tensor<9x16xf32>, tensor<13x16xf32>, tensor<13x16xf32>) {deterministic}
// CHECK-COUNT-3: arith.truncf %{{.*}} : f32 to bf16
// CHECK: flash.attention_grad ins({{.*}} : tensor<9x16xf16>
// F16-LABEL: func.func @backward
// F16: flash.attention_grad ins({{.*}} : tensor<9x16xf32>
// F16: flash.attention_grad ins({{.*}} : tensor<9x16xf32>
// F16-NOT: flash.attention_grad ins({{.*}} : tensor<9x16xf16>
func.func @backward(%q: tensor<9x16xbf16>, %k: tensor<13x16xbf16>, %l: tensor<9xf32>,
                    %qh: tensor<9x16xf16>, %kh: tensor<13x16xf16>)
    -> (tensor<9x16xbf16>, tensor<13x16xbf16>, tensor<13x16xbf16>, tensor<9x16xf16>) {
  %r:3 = flash.attention_grad ins(%q, %k, %k, %q, %l, %q : tensor<9x16xbf16>, tensor<13x16xbf16>,
             tensor<13x16xbf16>, tensor<9x16xbf16>, tensor<9xf32>, tensor<9x16xbf16>)
         outs(%q, %k, %k : tensor<9x16xbf16>, tensor<13x16xbf16>, tensor<13x16xbf16>)
         {deterministic} -> tensor<9x16xbf16>, tensor<13x16xbf16>, tensor<13x16xbf16>
  %h:3 = flash.attention_grad ins(%qh, %kh, %kh, %qh, %l, %qh : tensor<9x16xf16>, tensor<13x16xf16>,
             tensor<13x16xf16>, tensor<9x16xf16>, tensor<9xf32>, tensor<9x16xf16>)
         outs(%qh, %kh, %kh : tensor<9x16xf16>, tensor<13x16xf16>, tensor<13x16xf16>)
         -> tensor<9x16xf16>, tensor<13x16xf16>, tensor<13x16xf16>
  return %r#0, %r#1, %r#2, %h#0 : tensor<9x16xbf16>, tensor<13x16xbf16>, tensor<13x16xbf16>, tensor<9x16xf16>
}
