// RUN: flash-opt %s --split-input-file --flash-expand-fp8 --verify-diagnostics | FileCheck %s
// The conversions' values, bit for bit: Integration/CPU/fp8-conversions.mlir.

// e4m3 -> f32: the 7 magnitude bits at bit 20, times 2^120, the sign back,
// NaN for S.1111.111.
// CHECK-LABEL: func.func @extf_scalar
// CHECK:      %[[B:.*]] = arith.bitcast %{{.*}} : f8E4M3FN to i8
// CHECK:      %[[U:.*]] = arith.extui %[[B]] : i8 to i32
// CHECK:      %[[MAG:.*]] = arith.andi %[[U]], %{{.*}} : i32
// CHECK:      %[[P:.*]] = arith.shli %[[MAG]], %{{.*}} : i32
// CHECK:      %[[F:.*]] = arith.bitcast %[[P]] : i32 to f32
// CHECK:      arith.mulf %[[F]], %{{.*}} : f32
// CHECK:      arith.cmpi eq, %[[MAG]]
// CHECK:      arith.select
// CHECK:      arith.ori
// CHECK-NOT:  arith.extf
func.func @extf_scalar(%x: f8E4M3FN) -> f32 {
  %r = arith.extf %x : f8E4M3FN to f32
  return %r : f32
}

// -----

// Vectors lane by lane; a narrower result through f32.
// CHECK-LABEL: func.func @extf_vector_to_bf16
// CHECK:      arith.bitcast %{{.*}} : vector<8xf8E4M3FN> to vector<8xi8>
// CHECK:      arith.mulf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK:      arith.truncf %{{.*}} : vector<8xf32> to vector<8xbf16>
func.func @extf_vector_to_bf16(%x: vector<8xf8E4M3FN>) -> vector<8xbf16> {
  %r = arith.extf %x : vector<8xf8E4M3FN> to vector<8xbf16>
  return %r : vector<8xbf16>
}

// -----

// f16 -> e4m3: through f32 (exact), then the mantissa rounded to 3 bits
// (nearest even) or, below 2^-6, |x| * 2^9 rounded to an integer.
// CHECK-LABEL: func.func @truncf_from_f16
// CHECK:      %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:      arith.bitcast %[[W]] : f32 to i32
// CHECK:      arith.minui
// CHECK:      math.roundeven
// CHECK:      arith.fptoui
// CHECK:      arith.select
// CHECK:      %[[T:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK:      arith.bitcast %[[T]] : i8 to f8E4M3FN
func.func @truncf_from_f16(%x: f16) -> f8E4M3FN {
  %r = arith.truncf %x : f16 to f8E4M3FN
  return %r : f8E4M3FN
}

// -----

// Other float types are upstream's business.
// CHECK-LABEL: func.func @negative_other_types
// CHECK:      arith.extf %{{.*}} : f16 to f32
// CHECK:      arith.truncf %{{.*}} : f32 to f8E5M2
func.func @negative_other_types(%x: f16, %y: f32) -> (f32, f8E5M2) {
  %a = arith.extf %x : f16 to f32
  %b = arith.truncf %y : f32 to f8E5M2
  return %a, %b : f32, f8E5M2
}

// -----

func.func @truncf_toward_zero(%x: f32) -> f8E4M3FN {
  // expected-error @+1 {{to f8E4M3FN rounds to nearest even only on this target}}
  %r = arith.truncf %x toward_zero : f32 to f8E4M3FN
  return %r : f8E4M3FN
}
