// Bad options are diagnosed, never a crash.
// RUN: not flash-opt %s --flash-tile-attention="loop-order=fa3" 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not flash-opt %s --flash-tile-attention="block-q=0" 2>&1 | FileCheck %s --check-prefix=BLOCK
// ORDER: for the --loop-order option: Cannot find option named 'fa3'
// BLOCK: error: flash-tile-attention: block-q and block-kv must be positive, got 0 and 64
func.func @f(%q: tensor<8x16xf32>, %o: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = flash.attention ins(%q, %q, %q : tensor<8x16xf32>, tensor<8x16xf32>,
           tensor<8x16xf32>) outs(%o : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
