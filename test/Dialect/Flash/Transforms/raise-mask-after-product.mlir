// A constant mask defined after the scores' product (as torch.fx exports
// constant-folded masks). A band of positions (here a causal window of 4)
// becomes causal + a mask_mod; another constant is the mask operand, which
// the raise builds after the constant's definition (it was built before
// it: 'operand #0 does not dominate').
// RUN: flash-opt %s --split-input-file --flash-raise-attention="report=true" | FileCheck %s
// RUN: %python %flash_src_root/utils/raisecheck.py %s --build %flash_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: FAIL
// CHECK-LABEL: func.func @band_region
// CHECK: flash.attention {{.*}}causal, causal_offset = 0
// CHECK-SAME: mask_mod
// EXEC: band_region: raised=yes
func.func @band_region(%arg0: tensor<2x3x13x8xf32>, %arg1: tensor<2x3x13x8xf32>, %arg2: tensor<2x3x13x8xf32>) -> tensor<2x3x13x8xf32> {
    %e1 = tensor.empty() : tensor<2x3x8x13xf32>
    %v2 = linalg.transpose ins(%arg1 : tensor<2x3x13x8xf32>) outs(%e1 : tensor<2x3x8x13xf32>) permutation = [0, 1, 3, 2]
    %e3 = tensor.empty() : tensor<2x3x13x13xf32>
    %c5 = arith.constant 0.0 : f32
    %v4 = linalg.fill ins(%c5 : f32) outs(%e3 : tensor<2x3x13x13xf32>) -> tensor<2x3x13x13xf32>
    %v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %v2 : tensor<2x3x13x8xf32>, tensor<2x3x8x13xf32>) outs(%v4 : tensor<2x3x13x13xf32>) {
    ^bb0(%a6: f32, %a7: f32, %a8: f32):
      %x9 = arith.mulf %a6, %a7 : f32
      %x10 = arith.addf %a8, %x9 : f32
      linalg.yield %x10 : f32
    } -> tensor<2x3x13x13xf32>
    %e12 = tensor.empty() : tensor<2x3x13x13xf32>
    %v17 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v11 : tensor<2x3x13x13xf32>) outs(%e12 : tensor<2x3x13x13xf32>) {
    ^bb0(%a13: f32, %a14: f32):
      %x15 = arith.constant 0.25 : f32
      %x16 = arith.mulf %a13, %x15 : f32
      linalg.yield %x16 : f32
    } -> tensor<2x3x13x13xf32>
    %k18 = arith.constant dense<"0xFE9FFFE37FF81FFE87FFE17FF81FFE87FFE17FF81F00"> : tensor<13x13xi1>
    %e19 = tensor.empty() : tensor<2x3x13x13xf32>
    %v25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v17, %k18 : tensor<2x3x13x13xf32>, tensor<13x13xi1>) outs(%e19 : tensor<2x3x13x13xf32>) {
    ^bb0(%a20: f32, %a21: i1, %a22: f32):
      %x23 = arith.constant 0xFF800000 : f32
      %x24 = arith.select %a21, %x23, %a20 : f32
      linalg.yield %x24 : f32
    } -> tensor<2x3x13x13xf32>
    %e26 = tensor.empty() : tensor<2x3x13x13xf32>
    %v27 = linalg.softmax dimension(3) ins(%v25 : tensor<2x3x13x13xf32>) outs(%e26 : tensor<2x3x13x13xf32>) -> tensor<2x3x13x13xf32>
    %e28 = tensor.empty() : tensor<2x3x13x8xf32>
    %c30 = arith.constant 0.0 : f32
    %v29 = linalg.fill ins(%c30 : f32) outs(%e28 : tensor<2x3x13x8xf32>) -> tensor<2x3x13x8xf32>
    %v36 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%v27, %arg2 : tensor<2x3x13x13xf32>, tensor<2x3x13x8xf32>) outs(%v29 : tensor<2x3x13x8xf32>) {
    ^bb0(%a31: f32, %a32: f32, %a33: f32):
      %x34 = arith.mulf %a31, %a32 : f32
      %x35 = arith.addf %a33, %x34 : f32
      linalg.yield %x35 : f32
    } -> tensor<2x3x13x8xf32>
    return %v36 : tensor<2x3x13x8xf32>
}

// -----

// CHECK-LABEL: func.func @region_not_a_band
// CHECK: arith.constant dense
// CHECK: flash.attention
// CHECK-SAME: mask(
// EXEC: region_not_a_band: raised=yes
func.func @region_not_a_band(%arg0: tensor<2x3x13x8xf32>, %arg1: tensor<2x3x13x8xf32>, %arg2: tensor<2x3x13x8xf32>) -> tensor<2x3x13x8xf32> {
    %e1 = tensor.empty() : tensor<2x3x8x13xf32>
    %v2 = linalg.transpose ins(%arg1 : tensor<2x3x13x8xf32>) outs(%e1 : tensor<2x3x8x13xf32>) permutation = [0, 1, 3, 2]
    %e3 = tensor.empty() : tensor<2x3x13x13xf32>
    %c5 = arith.constant 0.0 : f32
    %v4 = linalg.fill ins(%c5 : f32) outs(%e3 : tensor<2x3x13x13xf32>) -> tensor<2x3x13x13xf32>
    %v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %v2 : tensor<2x3x13x8xf32>, tensor<2x3x8x13xf32>) outs(%v4 : tensor<2x3x13x13xf32>) {
    ^bb0(%a6: f32, %a7: f32, %a8: f32):
      %x9 = arith.mulf %a6, %a7 : f32
      %x10 = arith.addf %a8, %x9 : f32
      linalg.yield %x10 : f32
    } -> tensor<2x3x13x13xf32>
    %e12 = tensor.empty() : tensor<2x3x13x13xf32>
    %v17 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v11 : tensor<2x3x13x13xf32>) outs(%e12 : tensor<2x3x13x13xf32>) {
    ^bb0(%a13: f32, %a14: f32):
      %x15 = arith.constant 0.25 : f32
      %x16 = arith.mulf %a13, %x15 : f32
      linalg.yield %x16 : f32
    } -> tensor<2x3x13x13xf32>
    %k18 = arith.constant dense<[[true, true, true, true, true, false, true, true, true, true, false, true, true], [true, true, true, true, true, true, false, true, true, true, true, false, true], [true, true, true, true, true, true, true, false, true, true, true, true, false], [true, true, true, true, true, true, true, true, false, true, true, true, true], [true, true, true, true, true, true, true, true, true, false, true, true, true], [false, true, true, true, true, true, true, true, true, true, false, true, true], [true, false, true, true, true, true, true, true, true, true, true, false, true], [true, true, false, true, true, true, true, true, true, true, true, true, false], [true, true, true, false, true, true, true, true, true, true, true, true, true], [true, true, true, true, false, true, true, true, true, true, true, true, true], [false, true, true, true, true, false, true, true, true, true, true, true, true], [true, false, true, true, true, true, false, true, true, true, true, true, true], [true, true, false, true, true, true, true, false, true, true, true, true, true]]> : tensor<13x13xi1>
    %e19 = tensor.empty() : tensor<2x3x13x13xf32>
    %v25 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v17, %k18 : tensor<2x3x13x13xf32>, tensor<13x13xi1>) outs(%e19 : tensor<2x3x13x13xf32>) {
    ^bb0(%a20: f32, %a21: i1, %a22: f32):
      %x23 = arith.constant 0xFF800000 : f32
      %x24 = arith.select %a21, %x23, %a20 : f32
      linalg.yield %x24 : f32
    } -> tensor<2x3x13x13xf32>
    %e26 = tensor.empty() : tensor<2x3x13x13xf32>
    %v27 = linalg.softmax dimension(3) ins(%v25 : tensor<2x3x13x13xf32>) outs(%e26 : tensor<2x3x13x13xf32>) -> tensor<2x3x13x13xf32>
    %e28 = tensor.empty() : tensor<2x3x13x8xf32>
    %c30 = arith.constant 0.0 : f32
    %v29 = linalg.fill ins(%c30 : f32) outs(%e28 : tensor<2x3x13x8xf32>) -> tensor<2x3x13x8xf32>
    %v36 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%v27, %arg2 : tensor<2x3x13x13xf32>, tensor<2x3x13x8xf32>) outs(%v29 : tensor<2x3x13x8xf32>) {
    ^bb0(%a31: f32, %a32: f32, %a33: f32):
      %x34 = arith.mulf %a31, %a32 : f32
      %x35 = arith.addf %a33, %x34 : f32
      linalg.yield %x35 : f32
    } -> tensor<2x3x13x8xf32>
    return %v36 : tensor<2x3x13x8xf32>
}
