// f8E4M3FN conversions on the CPU (flash-expand-fp8), bit for bit:
// - extf of all 256 codes against MLIR's constant folder (APFloat): the same
//   extf on a constant, which --flash-to-cpu's canonicalizer folds, and
//   inside a function called with it, which it cannot fold;
// - truncf of f32 values at the rounding ties, around the subnormal boundary
//   (2^-6) and the largest finite value (448, and what rounds past it),
//   infinities, NaN and -0, against codes computed in Python by a search over
//   the codes' values (the folder does not fold inexact truncf).
//
// RUN: flash-opt %s --flash-to-cpu | %run | FileCheck %s
// RUN: flash-opt %s --flash-to-cpu="vectorize=false threads=1" | %run | FileCheck %s

// CHECK: extf_mismatches: 0
// CHECK: truncf_mismatches: 0

#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0) -> ()>
module {
  func.func @widen(%x: tensor<256xf8E4M3FN>) -> tensor<256xf32> {
    %e = tensor.empty() : tensor<256xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<256xf8E4M3FN>) outs(%e : tensor<256xf32>) {
    ^bb0(%a: f8E4M3FN, %o: f32):
      %w = arith.extf %a : f8E4M3FN to f32
      linalg.yield %w : f32
    } -> tensor<256xf32>
    return %r : tensor<256xf32>
  }
  func.func @narrow(%x: tensor<44xf32>) -> tensor<44xf8E4M3FN> {
    %e = tensor.empty() : tensor<44xf8E4M3FN>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<44xf32>) outs(%e : tensor<44xf8E4M3FN>) {
    ^bb0(%a: f32, %o: f8E4M3FN):
      %n = arith.truncf %a : f32 to f8E4M3FN
      linalg.yield %n : f8E4M3FN
    } -> tensor<44xf8E4M3FN>
    return %r : tensor<44xf8E4M3FN>
  }
  // The number of positions where a and b differ in their bits.
  func.func @mismatches_i32(%a: tensor<?xi32>, %b: tensor<?xi32>) -> i32 {
    %z = arith.constant 0 : i32
    %e = tensor.empty() : tensor<i32>
    %f = linalg.fill ins(%z : i32) outs(%e : tensor<i32>) -> tensor<i32>
    %r = linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction"]}
        ins(%a, %b : tensor<?xi32>, tensor<?xi32>) outs(%f : tensor<i32>) {
    ^bb0(%x: i32, %y: i32, %acc: i32):
      %ne = arith.cmpi ne, %x, %y : i32
      %one = arith.extui %ne : i1 to i32
      %s = arith.addi %acc, %one : i32
      linalg.yield %s : i32
    } -> tensor<i32>
    %v = tensor.extract %r[] : tensor<i32>
    return %v : i32
  }
  func.func @main() {
    // Every code 0..255 (as i8: 0..127, -128..-1).
    %codes = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, -128, -127, -126, -125, -124, -123, -122, -121, -120, -119, -118, -117, -116, -115, -114, -113, -112, -111, -110, -109, -108, -107, -106, -105, -104, -103, -102, -101, -100, -99, -98, -97, -96, -95, -94, -93, -92, -91, -90, -89, -88, -87, -86, -85, -84, -83, -82, -81, -80, -79, -78, -77, -76, -75, -74, -73, -72, -71, -70, -69, -68, -67, -66, -65, -64, -63, -62, -61, -60, -59, -58, -57, -56, -55, -54, -53, -52, -51, -50, -49, -48, -47, -46, -45, -44, -43, -42, -41, -40, -39, -38, -37, -36, -35, -34, -33, -32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17, -16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1]> : tensor<256xi8>
    %f8 = arith.bitcast %codes : tensor<256xi8> to tensor<256xf8E4M3FN>
    %folded = arith.extf %f8 : tensor<256xf8E4M3FN> to tensor<256xf32>
    %run = func.call @widen(%f8) : (tensor<256xf8E4M3FN>) -> tensor<256xf32>
    %fb = arith.bitcast %folded : tensor<256xf32> to tensor<256xi32>
    %rb = arith.bitcast %run : tensor<256xf32> to tensor<256xi32>
    %fd = tensor.cast %fb : tensor<256xi32> to tensor<?xi32>
    %rd = tensor.cast %rb : tensor<256xi32> to tensor<?xi32>
    %m1 = func.call @mismatches_i32(%fd, %rd) : (tensor<?xi32>, tensor<?xi32>) -> i32
    vector.print str "extf_mismatches: "
    vector.print %m1 : i32

    %vals = arith.constant dense<[0.000000000e+00, -0.000000000e+00, 1.000000000e+00, -1.000000000e+00, 1.000000000e-01, -3.300000000e+00, 4.480000000e+02, 4.490000000e+02, 4.639000000e+02, 4.640000000e+02, 4.641000000e+02, 4.700000000e+02, 4.799000000e+02, 4.800000000e+02, 1.000000000e+06, -1.000000000e+06, 0x7F800000, 0xFF800000, 0x7FC00000, 1.953125000e-03, -1.953125000e-03, 9.765625000e-04, 1.464843750e-03, 4.882812500e-03, 6.835937500e-03, 1.562500000e-02, 1.513671875e-02, 1.367187500e-02, 8.300781250e-03, 8.301562500e-03, 1.062500000e+00, 1.062400000e+00, 1.187500000e+00, 1.187600000e+00, 2.400000000e+02, 2.500000000e+02, 2.560000000e+02, 2.720000000e+02, 2.880000000e+02, 1.000000000e-30, 3.000000000e-38, 3.333333000e-01, 7.770000000e+00, -2.343750000e-02]> : tensor<44xf32>
    // The nearest codes (ties to even; NaN past 464), computed outside MLIR
    // (utils: a search over the 255 codes' values): the folder leaves
    // inexact truncf alone.
    %tfb = arith.constant dense<[0, -128, 56, -72, 29, -59, 126, 126, 126, 126, 127, 127, 127, 127, 127, -1, 127, -1, 127, 1, -127, 0, 1, 2, 4, 8, 8, 7, 4, 4, 56, 56, 58, 58, 119, 120, 120, 120, 121, 0, 0, 43, 80, -116]> : tensor<44xi8>
    %tr = func.call @narrow(%vals) : (tensor<44xf32>) -> tensor<44xf8E4M3FN>
    %trb = arith.bitcast %tr : tensor<44xf8E4M3FN> to tensor<44xi8>
    %tfw = arith.extsi %tfb : tensor<44xi8> to tensor<44xi32>
    %trw = arith.extsi %trb : tensor<44xi8> to tensor<44xi32>
    %tfd = tensor.cast %tfw : tensor<44xi32> to tensor<?xi32>
    %trd = tensor.cast %trw : tensor<44xi32> to tensor<?xi32>
    %m2 = func.call @mismatches_i32(%tfd, %trd) : (tensor<?xi32>, tensor<?xi32>) -> i32
    vector.print str "truncf_mismatches: "
    vector.print %m2 : i32
    return
  }
}
