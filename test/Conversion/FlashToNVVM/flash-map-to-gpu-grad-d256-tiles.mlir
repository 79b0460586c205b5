// The d = 256 backward's tiles (MmaGradKernels.cpp, mmaGradTile): the dK/dV
// kernel takes 64-query tiles where its heads are not grouped and it has no
// mask operand or block mask (the ring: two stages of Q and dO, 64 x 256
// each, +1024 bytes to align them; lse / D columns of 64 queries), else 32
// (GQA below: the loop over the group's heads would spill at 64); the dQ
// kernel 32-key tiles either way.
// RUN: flash-opt %s --flash-map-to-gpu | FileCheck %s

// CHECK-LABEL: gpu.func @flash_attention_grad_dq_0({{.*}}workgroup(%{{.*}} : memref<33280xbf16, #gpu.address_space<workgroup>>
// CHECK-LABEL: gpu.func @flash_attention_grad_dkdv_0({{.*}}workgroup(%{{.*}} : memref<66048xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK: m64n64k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// CHECK-LABEL: gpu.func @flash_attention_grad_dq_1({{.*}}workgroup(%{{.*}} : memref<33280xbf16, #gpu.address_space<workgroup>>
// CHECK-LABEL: gpu.func @flash_attention_grad_dkdv_1({{.*}}workgroup(%{{.*}} : memref<33280xbf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK: m64n32k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
func.func @mha(%q: tensor<1x4x200x256xbf16>, %l: tensor<1x4x200xf32>)
    -> (tensor<1x4x200x256xbf16>, tensor<1x4x200x256xbf16>) {
  %r:3 = flash.attention_grad ins(%q, %q, %q, %q, %l, %q : tensor<1x4x200x256xbf16>,
             tensor<1x4x200x256xbf16>, tensor<1x4x200x256xbf16>, tensor<1x4x200x256xbf16>,
             tensor<1x4x200xf32>, tensor<1x4x200x256xbf16>)
         outs(%q, %q, %q : tensor<1x4x200x256xbf16>, tensor<1x4x200x256xbf16>, tensor<1x4x200x256xbf16>)
         {causal} -> tensor<1x4x200x256xbf16>, tensor<1x4x200x256xbf16>, tensor<1x4x200x256xbf16>
  return %r#0, %r#1 : tensor<1x4x200x256xbf16>, tensor<1x4x200x256xbf16>
}
func.func @gqa(%q: tensor<1x4x200x256xbf16>, %k: tensor<1x2x200x256xbf16>,
               %l: tensor<1x4x200xf32>) -> (tensor<1x4x200x256xbf16>, tensor<1x2x200x256xbf16>) {
  %r:3 = flash.attention_grad ins(%q, %k, %k, %q, %l, %q : tensor<1x4x200x256xbf16>,
             tensor<1x2x200x256xbf16>, tensor<1x2x200x256xbf16>, tensor<1x4x200x256xbf16>,
             tensor<1x4x200xf32>, tensor<1x4x200x256xbf16>)
         outs(%q, %k, %k : tensor<1x4x200x256xbf16>, tensor<1x2x200x256xbf16>, tensor<1x2x200x256xbf16>)
         -> tensor<1x4x200x256xbf16>, tensor<1x2x200x256xbf16>, tensor<1x2x200x256xbf16>
  return %r#0, %r#1 : tensor<1x4x200x256xbf16>, tensor<1x2x200x256xbf16>
}
