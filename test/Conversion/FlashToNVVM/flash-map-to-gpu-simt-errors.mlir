// max-workgroup-memory below what one key per tile needs: an error at the
// flash op, naming the bytes.
// RUN: flash-opt %s --split-input-file --flash-map-to-gpu="max-workgroup-memory=300" --verify-diagnostics -o /dev/null

func.func @fwd(%q: tensor<2x100x64xf32>) -> tensor<2x100x64xf32> {
  %o = tensor.empty() : tensor<2x100x64xf32>
  // expected-error @+1 {{'flash.attention' op needs 512 bytes of workgroup memory with one key per tile; the limit is 300 (max-workgroup-memory)}}
  %r = flash.attention ins(%q, %q, %q : tensor<2x100x64xf32>,
           tensor<2x100x64xf32>, tensor<2x100x64xf32>)
       outs(%o : tensor<2x100x64xf32>) -> tensor<2x100x64xf32>
  return %r : tensor<2x100x64xf32>
}

// -----

func.func @grad(%t: tensor<2x100x64xf32>, %l: tensor<2x100xf32>) -> tensor<2x100x64xf32> {
  // expected-error @+1 {{'flash.attention_grad' op needs 520 bytes of workgroup memory with one key per tile; the limit is 300 (max-workgroup-memory)}}
  %r:3 = flash.attention_grad ins(%t, %t, %t, %t, %l, %t : tensor<2x100x64xf32>,
      tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<2x100xf32>,
      tensor<2x100x64xf32>) outs(%t, %t, %t : tensor<2x100x64xf32>, tensor<2x100x64xf32>,
      tensor<2x100x64xf32>) -> tensor<2x100x64xf32>, tensor<2x100x64xf32>, tensor<2x100x64xf32>
  return %r#0 : tensor<2x100x64xf32>
}
