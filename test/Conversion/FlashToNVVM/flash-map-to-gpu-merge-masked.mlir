// The warp-specialized causal forward up to d = 128 (merge-masked-tiles, on
// by default): one loop over the key tiles after the peeled first one, each
// tile's causal mask under a branch on `tile >= the first masked tile`
// (64 scores yielded by the branch), instead of a loop of unmasked tiles
// and one of masked ones: two S = Q K^T products (m64n128, from zero) in
// the kernel, not three. merge-masked-tiles=0 keeps the three copies; at
// d = 256 (0.88-0.93x on the H200) they are kept too.
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu | FileCheck %s
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu=merge-masked-tiles=0 | FileCheck %s --check-prefix=THREE

// CHECK-LABEL: gpu.func @flash_attention_0
// CHECK: nvvm.setmaxregister
// CHECK: m64n128k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// CHECK: %[[FIRST:.*]] = arith.cmpi sge, %{{.*}}, %[[MASKFROM:.*]] : index
// CHECK: scf.if %[[FIRST]] -> (f32, f32
// CHECK: scf.for %[[T:[a-z0-9_]+]] =
// CHECK: m64n128k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// CHECK: %[[AT:.*]] = arith.cmpi sge, %[[T]], %[[MASKFROM]] : index
// CHECK: scf.if %[[AT]] -> (f32, f32
// CHECK-NOT: m64n128k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// CHECK: gpu.return
// THREE-LABEL: gpu.func @flash_attention_0
// THREE-COUNT-3: m64n128k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
// THREE-NOT: arith.cmpi sge, %{{.*}} -> (f32
func.func @causal_d128(%q: tensor<2x8x1100x128xbf16>, %k: tensor<2x8x1300x128xbf16>,
                       %o: tensor<2x8x1100x128xbf16>) -> tensor<2x8x1100x128xbf16> {
  %r = flash.attention ins(%q, %k, %k : tensor<2x8x1100x128xbf16>, tensor<2x8x1300x128xbf16>,
           tensor<2x8x1300x128xbf16>) outs(%o : tensor<2x8x1100x128xbf16>) {causal} -> tensor<2x8x1100x128xbf16>
  return %r : tensor<2x8x1100x128xbf16>
}

// -----

// d = 256: three copies.
// CHECK-LABEL: gpu.func @flash_attention_0
// CHECK-COUNT-3: m64n64k16.f32.bf16.bf16 {{.*}} da, d, z, 1, 1, 0, 0;
func.func @causal_d256(%q: tensor<1x4x1100x256xbf16>, %o: tensor<1x4x1100x256xbf16>)
    -> tensor<1x4x1100x256xbf16> {
  %r = flash.attention ins(%q, %q, %q : tensor<1x4x1100x256xbf16>, tensor<1x4x1100x256xbf16>,
           tensor<1x4x1100x256xbf16>) outs(%o : tensor<1x4x1100x256xbf16>) {causal} -> tensor<1x4x1100x256xbf16>
  return %r : tensor<1x4x1100x256xbf16>
}
