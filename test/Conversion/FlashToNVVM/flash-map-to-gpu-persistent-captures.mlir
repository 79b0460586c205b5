// A window whose diagonal is a captured run-time operand (what
// flash_mlir.cuda passes): the warp-specialized forward is persistent
// (persistent-captures, on by default since it ran on the H200) and each
// role reads the operand in every query block's setup (inside its loop over
// query blocks); persistent-captures=0 keeps one block per query block.
// RUN: flash-opt %s --flash-map-to-gpu=persistent-captures=0 | FileCheck %s --check-prefix=GRID
// RUN: flash-opt %s --flash-map-to-gpu | FileCheck %s

// GRID: gpu.launch_func {{.*}} blocks in (%c5{{[_0-9]*}}, %c2{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c128
// GRID-NOT: persistent_blocks
// (2 batch-heads of 3 query blocks of 128 rows: 6 blocks.)
// CHECK: gpu.launch_func {{.*}} blocks in (%c6{{[_0-9]*}}, %c1{{[_0-9]*}}, %c1{{[_0-9]*}}) threads in (%c384
// CHECK: gpu.func @flash_attention_0({{.*}}%[[OFF:arg[0-9]+]]: memref<1xi64>, %{{.*}}: !llvm.ptr{{.*}}persistent_blocks = 132
// CHECK: nvvm.setmaxregister  decrease
// CHECK: scf.for {{.*}} -> (i32, i32)  : i32
// CHECK: memref.load %[[OFF]]
// CHECK: nvvm.setmaxregister  increase
// CHECK: scf.for {{.*}} -> (i32, i32)  : i32
// CHECK: memref.load %[[OFF]]
func.func @window_run_time_diagonal(%q: tensor<1x2x300x128xbf16>, %k: tensor<1x2x512x128xbf16>, %v: tensor<1x2x512x128xbf16>, %modoff: tensor<1xi64>) -> (tensor<1x2x300x128xbf16>, tensor<1x2x300xf32>) {
  %c0 = arith.constant 0 : index
  %oi = tensor.empty() : tensor<1x2x300x128xbf16>
  %li = tensor.empty() : tensor<1x2x300xf32>
  %r:2 = flash.attention ins(%q, %k, %v : tensor<1x2x300x128xbf16>, tensor<1x2x512x128xbf16>, tensor<1x2x512x128xbf16>) captures(%modoff : tensor<1xi64>) outs(%oi : tensor<1x2x300x128xbf16>) lse(%li : tensor<1x2x300xf32>) {causal} -> tensor<1x2x300x128xbf16>, tensor<1x2x300xf32>
  mask_mod {
  ^bb0(%x0: index, %x1: index, %x2: index, %x3: index, %modoff_a: tensor<1xi64>):
    %wdz = arith.constant 0 : index
    %cx1 = tensor.extract %modoff_a[%wdz] : tensor<1xi64>
    %wdo = arith.index_cast %cx1 : i64 to index
    %wi = arith.addi %x2, %wdo : index
    %wlo = arith.constant 100 : index
    %wl = arith.subi %wi, %wlo : index
    %wkl = arith.cmpi sge, %x3, %wl : index
    %whi = arith.constant 0 : index
    %wh = arith.addi %wi, %whi : index
    %wkh = arith.cmpi sle, %x3, %wh : index
    %mka0 = arith.andi %wkl, %wkh : i1
    flash.yield %mka0 : i1
  }
  return %r#0, %r#1 : tensor<1x2x300x128xbf16>, tensor<1x2x300xf32>
}
