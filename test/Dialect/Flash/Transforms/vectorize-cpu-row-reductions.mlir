// flash-vectorize-cpu makes a row reduction (one output element per tile:
// the softmax's row max and row sum over a block of scores) one
// vector.reduction of the whole row, which LLVM lowers to a tree of vector
// ops; a contraction's reduction stays a vector.multi_reduction (the
// pipeline lowers it inner-parallel: FMAs on register tiles). Max and sum,
// rows of 64 and of 256 (tiled by the vector width), f32.
// RUN: flash-opt %s --flash-vectorize-cpu=vector-bits=512 | FileCheck %s
// RUN: flash-opt %s --flash-to-cpu=threads=1 | FileCheck %s --check-prefix=LLVM

// The max without NaN checks (nnan): plain vmaxps trees; the running max
// joins after, without nnan (maxnumf's identity, where a reduction starts,
// is NaN).
// CHECK-LABEL: func @row_max
// CHECK-NOT: vector.multi_reduction
// CHECK: %[[T:.*]] = vector.reduction <maxnumf>, %{{[^,]*}} fastmath<nnan> : vector<64xf32> into f32
// CHECK: arith.maxnumf %[[T]], %{{.*}} : f32
// CHECK-NOT: vector.multi_reduction
// CHECK: return
// LLVM-LABEL: llvm.func @row_max
// One tree over the row, then one maxnum with the running max (inner-
// parallel lowering had made it 64 dependent scalar maxnums).
// LLVM: llvm.intr.vector.reduce.fmax{{.*}}fastmathFlags = #llvm.fastmath<nnan{{.*}}>
// LLVM: llvm.intr.maxnum
// LLVM-NOT: llvm.intr.maxnum
// LLVM: llvm.return
func.func @row_max(%s: tensor<128x64xf32>, %m: tensor<128xf32>) -> tensor<128xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<128x64xf32>) outs(%m : tensor<128xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.maxnumf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<128xf32>
  return %r : tensor<128xf32>
}

// A row longer than 4 vectors is reduced in lane-wide chunks: each chunk one
// vector.reduction <add> into the running sum.
// CHECK-LABEL: func @row_sum_256
// CHECK-NOT: vector.multi_reduction
// CHECK: vector.reduction <add>, %{{.*}}, %{{.*}} : vector<32xf32> into f32
// CHECK: return
// LLVM-LABEL: llvm.func @row_sum_256
// LLVM: llvm.intr.vector.reduce.fadd{{.*}}reassoc
// LLVM: llvm.return
func.func @row_sum_256(%s: tensor<16x256xf32>, %l: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<16x256xf32>) outs(%l : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
