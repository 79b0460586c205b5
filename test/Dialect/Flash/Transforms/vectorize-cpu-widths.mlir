// flash-vectorize-cpu sizes a contraction's register tile for the vector
// registers it is told of (vector-bits; the default, 0, is the host's):
// AVX-512 8 x 32 (two zmm per row), AVX/AVX2 4 x 16, 128-bit 4 x 8; one
// vector per row where two do not divide the dim (d = 80), part of one (8
// or 4 lanes) where one does not (d = 72); elementwise ops two vectors
// wide.
// RUN: flash-opt %s --flash-vectorize-cpu=vector-bits=512 | FileCheck %s --check-prefix=V512
// RUN: flash-opt %s --flash-vectorize-cpu=vector-bits=256 | FileCheck %s --check-prefix=V256
// RUN: flash-opt %s --flash-vectorize-cpu=vector-bits=128 | FileCheck %s --check-prefix=V128
// The host's width gives one of the three.
// RUN: flash-opt %s --flash-vectorize-cpu | FileCheck %s --check-prefix=HOST
// RUN: not flash-opt %s --flash-vectorize-cpu=vector-bits=96 2>&1 | FileCheck %s --check-prefix=BAD

// V512-LABEL: func @scores
// V512: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [2] : vector<8x32x1xf32> to vector<8x32xf32>
// V256-LABEL: func @scores
// V256: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [2] : vector<4x16x1xf32> to vector<4x16xf32>
// V128-LABEL: func @scores
// V128: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [2] : vector<4x8x1xf32> to vector<4x8xf32>
// HOST-LABEL: func @scores
// HOST: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [2] : vector<{{8x32|4x16|4x8}}x1xf32>
func.func @scores(%q: tensor<128x64xf32>, %kt: tensor<64x64xf32>,
                  %acc: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %s = linalg.matmul ins(%q, %kt : tensor<128x64xf32>, tensor<64x64xf32>)
                     outs(%acc : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %s : tensor<128x64xf32>
}

// d = 80: 32 does not divide it, 16 does (AVX-512: one register per row);
// 16 and 8 divide it for the narrower targets.
// V512-LABEL: func @pv80
// V512: vector<8x16x1xf32> to vector<8x16xf32>
// V256-LABEL: func @pv80
// V256: vector<4x16x1xf32> to vector<4x16xf32>
// V128-LABEL: func @pv80
// V128: vector<4x8x1xf32> to vector<4x8xf32>
func.func @pv80(%p: tensor<64x64xf32>, %v: tensor<64x80xf32>,
                %acc: tensor<64x80xf32>) -> tensor<64x80xf32> {
  %o = linalg.matmul ins(%p, %v : tensor<64x64xf32>, tensor<64x80xf32>)
                     outs(%acc : tensor<64x80xf32>) -> tensor<64x80xf32>
  return %o : tensor<64x80xf32>
}

// d = 72 (and a remainder block of 40 keys): neither 32 nor 16 divides
// it, 8 does: part of a register per row, but vectors (scalar loops ran
// d = 72 at 3 % of d = 64's speed). 76 divides by 4 only; 74 by nothing
// vector-sized: scalar loops.
// V512-LABEL: func @pv72
// V512: vector<8x8x1xf32> to vector<8x8xf32>
// V128-LABEL: func @pv72
// V128: vector<4x8x1xf32> to vector<4x8xf32>
// V512-LABEL: func @pv76
// V512: vector<4x4x1xf32> to vector<4x4xf32>
// V512-LABEL: func @pv74
// V512-NOT: vector.
// V512: return
func.func @pv72(%p: tensor<64x64xf32>, %v: tensor<64x72xf32>,
                %acc: tensor<64x72xf32>) -> tensor<64x72xf32> {
  %o = linalg.matmul ins(%p, %v : tensor<64x64xf32>, tensor<64x72xf32>)
                     outs(%acc : tensor<64x72xf32>) -> tensor<64x72xf32>
  return %o : tensor<64x72xf32>
}
func.func @pv76(%p: tensor<60x64xf32>, %v: tensor<64x76xf32>,
                %acc: tensor<60x76xf32>) -> tensor<60x76xf32> {
  %o = linalg.matmul ins(%p, %v : tensor<60x64xf32>, tensor<64x76xf32>)
                     outs(%acc : tensor<60x76xf32>) -> tensor<60x76xf32>
  return %o : tensor<60x76xf32>
}
func.func @pv74(%p: tensor<64x64xf32>, %v: tensor<64x74xf32>,
                %acc: tensor<64x74xf32>) -> tensor<64x74xf32> {
  %o = linalg.matmul ins(%p, %v : tensor<64x64xf32>, tensor<64x74xf32>)
                     outs(%acc : tensor<64x74xf32>) -> tensor<64x74xf32>
  return %o : tensor<64x74xf32>
}

// V512-LABEL: func @exp
// V512: vector.transfer_read {{.*}} vector<1x32xf32>
// V256-LABEL: func @exp
// V256: vector.transfer_read {{.*}} vector<1x16xf32>
// V128-LABEL: func @exp
// V128: vector.transfer_read {{.*}} vector<1x8xf32>
func.func @exp(%x: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %e = linalg.exp ins(%x : tensor<128x64xf32>) outs(%x : tensor<128x64xf32>)
       -> tensor<128x64xf32>
  return %e : tensor<128x64xf32>
}

// BAD: error: flash-vectorize-cpu: vector-bits=96 is not 0 (the host's) or a power of two >= 64

// Several outputs written alike (the online softmax's per-row m', l' and
// correction factor): vectorized like one, two vectors a tile; before,
// scalar loops with a scalar exp per row.
// V512-LABEL: func @row_state
// V512: scf.for %{{.*}} step %c32 iter_args({{.*}}) -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>)
// V512: arith.maxnumf {{.*}} : vector<32xf32>
// V512: math.fma {{.*}} : vector<32xf32>
// V512-COUNT-3: vector.transfer_write {{.*}} : vector<32xf32>, tensor<32xf32>
// V256-LABEL: func @row_state
// V256: vector.transfer_write {{.*}} : vector<16xf32>, tensor<16xf32>
func.func @row_state(%mx: tensor<128xf32>, %m: tensor<128xf32>, %l: tensor<128xf32>)
    -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) {
  %e = tensor.empty() : tensor<128xf32>
  %r:3 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
                                          affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                         iterator_types = ["parallel"]}
      ins(%mx : tensor<128xf32>) outs(%m, %l, %e : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>) {
  ^bb0(%x: f32, %mo: f32, %lo: f32, %c: f32):
    %mn = arith.maxnumf %mo, %x : f32
    %d = arith.subf %mo, %mn : f32
    %a = math.exp %d : f32
    %ln = arith.mulf %lo, %a : f32
    linalg.yield %mn, %ln, %a : f32, f32, f32
  } -> (tensor<128xf32>, tensor<128xf32>, tensor<128xf32>)
  return %r#0, %r#1, %r#2 : tensor<128xf32>, tensor<128xf32>, tensor<128xf32>
}
