// flash-vectorize-bf16-dot: bf16 block products as AVX512-BF16 dot-product
// register tiles (8 rows x two 16-lane accumulators, loop-carried over k's
// pairs). The pass runs on any host; the code it emits needs avx512bf16.
// RUN: flash-opt %s --split-input-file --flash-vectorize-bf16-dot | FileCheck %s

#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>

// Scores q k^T: k^T's pairs packed to [k/2, 2n] by 16 x 16 word transposes
// (lowered to shuffles here), then per pair one contiguous load per 16
// columns, one 32-bit broadcast of q's pair per row and 16 dot products.
// CHECK-LABEL: func.func @scores
// CHECK-SAME: (%[[Q:.*]]: tensor<128x64xbf16>, %[[K:.*]]: tensor<64x64xbf16>
// CHECK-NOT: linalg.transpose
// CHECK: tensor.empty() : tensor<32x128xbf16>
// CHECK: vector.transfer_read %[[K]]{{.*}} : tensor<64x64xbf16>, vector<16x32xbf16>
// CHECK: vector.bitcast %{{.*}} : vector<16x32xbf16> to vector<16x16xi32>
// CHECK: vector.shuffle
// CHECK-NOT: vector.transpose
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c128{{.*}} step %c8
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c64{{.*}} step %c32
// CHECK-COUNT-16: vector.transfer_read {{.*}} : tensor<128x64xf32>, vector<16xf32>
// CHECK: scf.for %[[P:.*]] = %c0{{.*}} to %c32{{.*}} step %c1{{.*}} iter_args({{.*}}) -> (vector<16xf32>
// CHECK-COUNT-2: vector.transfer_read {{.*}} : tensor<32x128xbf16>, vector<32xbf16>
// CHECK: vector.transfer_read %[[Q]]{{.*}} : tensor<128x64xbf16>, vector<2xbf16>
// CHECK: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK: vector.broadcast %{{.*}} : vector<1xi32> to vector<16xi32>
// CHECK: vector.bitcast %{{.*}} : vector<16xi32> to vector<32xbf16>
// CHECK-COUNT-16: x86vector.avx512.dot %{{.*}}, %{{.*}}, %{{.*}} : vector<32xbf16> -> vector<16xf32>
// CHECK: scf.yield
// CHECK-COUNT-16: vector.transfer_write {{.*}} : vector<16xf32>, tensor<128x64xf32>
// CHECK-NOT: linalg.generic
func.func @scores(%q: tensor<128x64xbf16>, %k: tensor<64x64xbf16>,
                  %acc: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %e = tensor.empty() : tensor<64x64xbf16>
  %kt = linalg.transpose ins(%k : tensor<64x64xbf16>) outs(%e : tensor<64x64xbf16>) permutation = [1, 0]
  %s = linalg.generic {indexing_maps = [#mA, #mB, #mC],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %kt : tensor<128x64xbf16>, tensor<64x64xbf16>) outs(%acc : tensor<128x64xf32>) {
  ^bb0(%a: bf16, %b: bf16, %c: f32):
    %a32 = arith.extf %a : bf16 to f32
    %b32 = arith.extf %b : bf16 to f32
    %p = arith.mulf %a32, %b32 fastmath<contract> : f32
    %s = arith.addf %c, %p fastmath<contract> : f32
    linalg.yield %s : f32
  } -> tensor<128x64xf32>
  return %s : tensor<128x64xf32>
}

// -----

#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>

// p v: the f32 probabilities rounded to bf16 (one elementwise op, before
// the tiles); v's rows 2p and 2p + 1 interleaved as they are loaded. 100
// rows: tiles of 4 rows.
// CHECK-LABEL: func.func @pv
// CHECK-SAME: (%[[P:.*]]: tensor<100x64xf32>, %[[V:.*]]: tensor<64x64xbf16>
// CHECK: %[[PB:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<100x64xf32>) outs(%{{.*}} : tensor<100x64xbf16>)
// CHECK:   arith.truncf %{{.*}} : f32 to bf16
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c100{{.*}} step %c4
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c32{{.*}} step %c1{{.*}} iter_args
// CHECK: %[[E:.*]] = vector.transfer_read %[[V]]{{.*}} : tensor<64x64xbf16>, vector<16xbf16>
// CHECK: %[[O:.*]] = vector.transfer_read %[[V]]{{.*}} : tensor<64x64xbf16>, vector<16xbf16>
// CHECK: vector.interleave %[[E]], %[[O]] : vector<16xbf16> -> vector<32xbf16>
// CHECK: vector.transfer_read %[[PB]]{{.*}} : tensor<100x64xbf16>, vector<2xbf16>
// CHECK-COUNT-8: x86vector.avx512.dot
// CHECK-NOT: x86vector.avx512.dot
// CHECK: scf.yield
func.func @pv(%p: tensor<100x64xf32>, %v: tensor<64x64xbf16>,
              %acc: tensor<100x64xf32>) -> tensor<100x64xf32> {
  %o = linalg.generic {indexing_maps = [#mA, #mB, #mC],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<100x64xf32>, tensor<64x64xbf16>) outs(%acc : tensor<100x64xf32>) {
  ^bb0(%a: f32, %b: bf16, %c: f32):
    %b32 = arith.extf %b : bf16 to f32
    %m = arith.mulf %a, %b32 fastmath<contract> : f32
    %s = arith.addf %c, %m fastmath<contract> : f32
    linalg.yield %s : f32
  } -> tensor<100x64xf32>
  return %o : tensor<100x64xf32>
}

// -----

#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>

// 36 keys (a remainder block): k^T packed for 48 columns (the last tile's
// rows past 36 read as zeros), two whole vectors of columns in the loop,
// then one masked tile (no in_bounds: masked loads and stores) for 32..35.
// CHECK-LABEL: func.func @remainder_columns
// CHECK-SAME: (%[[Q:.*]]: tensor<128x64xbf16>, %[[K:.*]]: tensor<36x64xbf16>
// CHECK-NOT: linalg.transpose
// CHECK: tensor.empty() : tensor<32x96xbf16>
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c48{{.*}} step %c16
// CHECK: vector.transfer_read %[[K]]{{.*}} {in_bounds = [false, true]} : tensor<36x64xbf16>, vector<16x32xbf16>
// CHECK: scf.for %[[M0:.*]] = %c0{{.*}} to %c128{{.*}} step %c8
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c32{{.*}} step %c16
// CHECK-COUNT-8: x86vector.avx512.dot
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true]} : vector<16xf32>, tensor<128x36xf32>
// CHECK: vector.transfer_read %{{.*}}[%[[M0]], %c32{{.*}}], %{{.*}} : tensor<128x36xf32>, vector<16xf32>
// CHECK: scf.for
// CHECK-COUNT-8: x86vector.avx512.dot
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%[[M0]], %c32{{.*}}] : vector<16xf32>, tensor<128x36xf32>
// CHECK-NOT: linalg.generic
func.func @remainder_columns(%q: tensor<128x64xbf16>, %k: tensor<36x64xbf16>,
                            %acc: tensor<128x36xf32>) -> tensor<128x36xf32> {
  %e = tensor.empty() : tensor<64x36xbf16>
  %kt = linalg.transpose ins(%k : tensor<36x64xbf16>) outs(%e : tensor<64x36xbf16>) permutation = [1, 0]
  %s = linalg.generic {indexing_maps = [#mA, #mB, #mC],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %kt : tensor<128x64xbf16>, tensor<64x36xbf16>) outs(%acc : tensor<128x36xf32>) {
  ^bb0(%a: bf16, %b: bf16, %c: f32):
    %a32 = arith.extf %a : bf16 to f32
    %b32 = arith.extf %b : bf16 to f32
    %p = arith.mulf %a32, %b32 fastmath<contract> : f32
    %s = arith.addf %c, %p fastmath<contract> : f32
    linalg.yield %s : f32
  } -> tensor<128x36xf32>
  return %s : tensor<128x36xf32>
}

// -----

#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>

// 33 keys in p v: k odd, the last key has no pair.
// CHECK-LABEL: func.func @negative_odd_reduction
// CHECK-NOT: x86vector
// CHECK: linalg.generic
func.func @negative_odd_reduction(%p: tensor<128x33xf32>, %v: tensor<33x64xbf16>,
                                  %acc: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %o = linalg.generic {indexing_maps = [#mA, #mB, #mC],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<128x33xf32>, tensor<33x64xbf16>) outs(%acc : tensor<128x64xf32>) {
  ^bb0(%a: f32, %b: bf16, %c: f32):
    %b32 = arith.extf %b : bf16 to f32
    %m = arith.mulf %a, %b32 fastmath<contract> : f32
    %s = arith.addf %c, %m fastmath<contract> : f32
    linalg.yield %s : f32
  } -> tensor<128x64xf32>
  return %o : tensor<128x64xf32>
}

// -----

#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>

// f32 operands (a widened or f32 op): flash-vectorize-cpu's FMAs.
// CHECK-LABEL: func.func @negative_f32
// CHECK-NOT: x86vector
// CHECK: linalg.generic
func.func @negative_f32(%p: tensor<128x64xf32>, %v: tensor<64x64xf32>,
                        %acc: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %o = linalg.generic {indexing_maps = [#mA, #mB, #mC],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<128x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<128x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b fastmath<contract> : f32
    %s = arith.addf %c, %m fastmath<contract> : f32
    linalg.yield %s : f32
  } -> tensor<128x64xf32>
  return %o : tensor<128x64xf32>
}

// -----

#mAt = affine_map<(m, n, k) -> (k, m)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>

// The backward's dv += p^T dO: A read as [k, m], rounded to bf16, then
// packed to [m, k] pairs: rows 2p and 2p + 1 interleaved into 16 words,
// 16 of them transposed (shuffles); then the same tiles as @pv.
// CHECK-LABEL: func.func @transposed_a
// CHECK-SAME: (%[[P:.*]]: tensor<128x64xf32>, %[[DO:.*]]: tensor<128x64xbf16>
// CHECK: %[[PB:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<128x64xf32>) outs(%{{.*}} : tensor<128x64xbf16>)
// CHECK: tensor.empty() : tensor<64x128xbf16>
// CHECK-COUNT-16: vector.interleave
// CHECK: vector.shuffle
// CHECK: vector.transfer_write {{.*}} : vector<16x32xbf16>, tensor<64x128xbf16>
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c64{{.*}} step %c8
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c64{{.*}} step %c1{{.*}} iter_args
// CHECK-COUNT-2: vector.interleave
// CHECK: vector.transfer_read {{.*}} : tensor<64x128xbf16>, vector<2xbf16>
// CHECK-COUNT-16: x86vector.avx512.dot
func.func @transposed_a(%p: tensor<128x64xf32>, %do: tensor<128x64xbf16>,
                        %acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %dv = linalg.generic {indexing_maps = [#mAt, #mB, #mC],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %do : tensor<128x64xf32>, tensor<128x64xbf16>) outs(%acc : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: bf16, %c: f32):
    %b32 = arith.extf %b : bf16 to f32
    %m = arith.mulf %a, %b32 fastmath<contract> : f32
    %s = arith.addf %c, %m fastmath<contract> : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %dv : tensor<64x64xf32>
}

// -----

#mAt = affine_map<(m, n, k) -> (k, m)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>

// A read as [k, m] with 40 rows m: not whole 16 x 16 packing tiles.
// CHECK-LABEL: func.func @negative_transposed_a_rows
// CHECK-NOT: x86vector
// CHECK: linalg.generic
func.func @negative_transposed_a_rows(%p: tensor<128x40xf32>, %do: tensor<128x64xbf16>,
                                      %acc: tensor<40x64xf32>) -> tensor<40x64xf32> {
  %dv = linalg.generic {indexing_maps = [#mAt, #mB, #mC],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %do : tensor<128x40xf32>, tensor<128x64xbf16>) outs(%acc : tensor<40x64xf32>) {
  ^bb0(%a: f32, %b: bf16, %c: f32):
    %b32 = arith.extf %b : bf16 to f32
    %m = arith.mulf %a, %b32 fastmath<contract> : f32
    %s = arith.addf %c, %m fastmath<contract> : f32
    linalg.yield %s : f32
  } -> tensor<40x64xf32>
  return %dv : tensor<40x64xf32>
}

// -----

#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>

// A negated operand: still a contraction to linalg's interface (any unary
// op may wrap an operand), but not a plain product.
// CHECK-LABEL: func.func @negative_unary_operand
// CHECK-NOT: x86vector
// CHECK: arith.negf
func.func @negative_unary_operand(%p: tensor<128x64xf32>, %v: tensor<64x64xbf16>,
                                  %acc: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %o = linalg.generic {indexing_maps = [#mA, #mB, #mC],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<128x64xf32>, tensor<64x64xbf16>) outs(%acc : tensor<128x64xf32>) {
  ^bb0(%a: f32, %b: bf16, %c: f32):
    %n = arith.negf %a : f32
    %b32 = arith.extf %b : bf16 to f32
    %m = arith.mulf %n, %b32 fastmath<contract> : f32
    %s = arith.addf %c, %m fastmath<contract> : f32
    linalg.yield %s : f32
  } -> tensor<128x64xf32>
  return %o : tensor<128x64xf32>
}
