// The fp8 forward of flash-map-to-gpu (--flash-to-nvvm's on sm_90a): a
// kernel launched first writes V^T into the op's scratch (8-bit
// wgmma B operands are K-major only), in the key order of P's A fragments;
// then the one-warpgroup wgmma forward on 128-key tiles: Q, K and V^T in
// one 128-byte-swizzled buffer (3 tiles of 128 x 128 bytes + 1 KiB),
// S = Q K^T and O += P V as e4m3 wgmmas (32-deep steps, no transpose
// immediates), P converted in registers (cvt e4m3x2), the scores' scale
// times the q and k descale factors read at run time, o times v's, in bf16.
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu --verify-diagnostics | FileCheck %s

// CHECK-LABEL: module attributes {flash.kernels = [{args = ["q", "k", "v", "o", "lse", "q_descale", "k_descale", "v_descale", "scratch"], batch_heads = "bhkv", block = 256 : i64, kind = "fp8-v-transpose", name = "flash_attention_0_v_transpose", rows = "nk", rows_per_block = 128 : i64, scratch_per_block = 4096 : i64
// CHECK-SAME: kind = "wgmma", name = "flash_attention_0", rows = "nq", rows_per_block = 64 : i64
// CHECK-LABEL: func.func private @flash_gpu_0
// The scratch: ceil(300 / 128) tiles x 4 kv batch-heads x 4096 words, as bytes.
// CHECK: %[[S:.*]] = gpu.alloc host_shared (%{{.*}}) : memref<?xf8E4M3FN>
// CHECK: gpu.launch_func async [%{{.*}}] @flash_kernels::@flash_attention_0_v_transpose blocks in (%c3{{[_0-9]*}}, %c4{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c256
// CHECK-SAME: memref<?xf32>, %{{.*}} : memref<?xf32>, %{{.*}} : memref<?xf32>, %[[S]] : memref<?xf8E4M3FN>)
// CHECK: gpu.launch_func async [%{{.*}}] @flash_kernels::@flash_attention_0 blocks in (%c4{{[_0-9]*}}, %c8{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c128
// CHECK: gpu.func @flash_attention_0(%{{.*}}: memref<1600x128xf8E4M3FN>, %{{.*}}: memref<1200x128xf8E4M3FN>, %{{.*}}: memref<1200x128xf8E4M3FN>, %{{.*}}: memref<1600x128xbf16>, %{{.*}}: memref<1600xf32>, %[[QD:.*]]: memref<?xf32>, %[[KD:.*]]: memref<?xf32>, %[[VD:.*]]: memref<?xf32>, %[[SCR:.*]]: memref<?xf8E4M3FN>) workgroup(%[[BUF:.*]] : memref<50176xf8E4M3FN, #gpu.address_space<workgroup>>)
// CHECK-DAG: memref.load %[[QD]][%{{.*}}] : memref<?xf32>
// CHECK-DAG: memref.load %[[KD]][%{{.*}}] : memref<?xf32>
// CHECK-DAG: memref.load %[[VD]][%{{.*}}] : memref<?xf32>
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %[[BUF]][%{{.*}}], 16 {bypassL1} : memref<8x200x128xf8E4M3FN> to memref<50176xf8E4M3FN, #gpu.address_space<workgroup>>
// V^T's tile from the scratch:
// CHECK: nvgpu.device_async_copy %[[SCR]][%{{.*}}], %[[BUF]][%{{.*}}], 16 {bypassL1} : memref<?xf8E4M3FN> to memref<50176xf8E4M3FN
// CHECK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {{.*}}, da, d, z, 1, 1;
// CHECK: nvvm.convert.f32x2.to.f8x2 {{.*}} {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E4M3FN)
// CHECK: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {{.*}}}, d, p, 1, 1;
// CHECK: arith.truncf %{{.*}} : vector<2xf32> to vector<2xbf16>
// The transposer: V's rows into shared memory, then V^T's rows out.
// CHECK: gpu.func @flash_attention_0_v_transpose({{.*}}) workgroup(%[[T:.*]] : memref<128x132xf8E4M3FN, #gpu.address_space<workgroup>>)
// CHECK: vector.load %{{.*}} : memref<4x300x128xf8E4M3FN>, vector<4xf8E4M3FN>
// CHECK: vector.store %{{.*}}, %[[T]][%{{.*}}, %{{.*}}] {alignment = 4 : i64} : memref<128x132xf8E4M3FN, #gpu.address_space<workgroup>>, vector<4xf8E4M3FN>
// CHECK: gpu.barrier
// CHECK: memref.load %[[T]][%{{.*}}, %{{.*}}] : memref<128x132xf8E4M3FN
// CHECK: vector.store %{{.*}} {alignment = 4 : i64} : memref<?xf8E4M3FN>, vector<4xf8E4M3FN>
func.func @fp8_gqa_causal(%q: tensor<2x4x200x128xf8E4M3FN>, %k: tensor<2x2x300x128xf8E4M3FN>,
    %v: tensor<2x2x300x128xf8E4M3FN>, %qd: tensor<2x2xf32>, %kd: tensor<2x2xf32>,
    %vd: tensor<2x2xf32>) -> (tensor<2x4x200x128xbf16>, tensor<2x4x200xf32>) {
  %o0 = tensor.empty() : tensor<2x4x200x128xbf16>
  %l0 = tensor.empty() : tensor<2x4x200xf32>
  %o:2 = flash.attention ins(%q, %k, %v : tensor<2x4x200x128xf8E4M3FN>,
          tensor<2x2x300x128xf8E4M3FN>, tensor<2x2x300x128xf8E4M3FN>)
      descale(%qd, %kd, %vd : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
      outs(%o0 : tensor<2x4x200x128xbf16>) lse(%l0 : tensor<2x4x200xf32>) {causal}
      -> tensor<2x4x200x128xbf16>, tensor<2x4x200xf32>
  return %o#0, %o#1 : tensor<2x4x200x128xbf16>, tensor<2x4x200xf32>
}

// -----

// What the fp8 kernel does not take: an error, never a kernel without the
// descale factors.
func.func @negative_fp8_head_dim_64(%q: tensor<2x64x64xf8E4M3FN>) -> tensor<2x64x64xbf16> {
  %o = tensor.empty() : tensor<2x64x64xbf16>
  // expected-error @+1 {{has no GPU kernel for this fp8 configuration: the wgmma fp8 forward takes head dims D = Dv = 128 on sm_90a, without a document mask}}
  %r = flash.attention ins(%q, %q, %q : tensor<2x64x64xf8E4M3FN>, tensor<2x64x64xf8E4M3FN>,
           tensor<2x64x64xf8E4M3FN>) outs(%o : tensor<2x64x64xbf16>) -> tensor<2x64x64xbf16>
  return %r : tensor<2x64x64xbf16>
}

// -----

// A mask operand (read per score in the masked tiles, as for bf16).
// CHECK-LABEL: func.func private @flash_gpu_0
// CHECK: gpu.launch_func async [%{{.*}}] @flash_kernels::@flash_attention_0_v_transpose
// CHECK: gpu.func @flash_attention_0(%{{.*}}: memref<128x128xf8E4M3FN>, %{{.*}}: memref<128x128xf8E4M3FN>, %{{.*}}: memref<128x128xf8E4M3FN>, %{{.*}}: memref<128x128xbf16>, %{{.*}}: memref<128xf32>, %{{.*}}: memref<4096xf32>, %{{.*}}: memref<?xf8E4M3FN>)
func.func @fp8_mask(%q: tensor<2x64x128xf8E4M3FN>, %m: tensor<64x64xi1>) -> tensor<2x64x128xbf16> {
  %o = tensor.empty() : tensor<2x64x128xbf16>
  %r = flash.attention ins(%q, %q, %q : tensor<2x64x128xf8E4M3FN>, tensor<2x64x128xf8E4M3FN>,
           tensor<2x64x128xf8E4M3FN>) mask(%m : tensor<64x64xi1>)
       outs(%o : tensor<2x64x128xbf16>) -> tensor<2x64x128xbf16>
  return %r : tensor<2x64x128xbf16>
}
