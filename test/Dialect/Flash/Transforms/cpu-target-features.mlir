// flash-cpu-target-features: target_cpu / target_features on llvm.func
// definitions that have none (declarations and functions that have their
// own are left alone). cpu=host (the default) is the host's name and its
// whole feature list, then `features`, which replaces the host's entry.
// RUN: flash-opt %s --flash-cpu-target-features="cpu=znver3 features=+avx2,-fma" | FileCheck %s --check-prefix=NAMED
// RUN: flash-opt %s --flash-cpu-target-features="cpu= features=" | FileCheck %s --check-prefix=NONE
// RUN: flash-opt %s --flash-cpu-target-features | FileCheck %s --check-prefix=HOST

// NAMED-LABEL: llvm.func @f()
// NAMED-SAME: target_cpu = "znver3"
// NAMED-SAME: target_features = #llvm.target_features<["+avx2", "-fma"]>
// NAMED-LABEL: llvm.func @own()
// NAMED-SAME: target_cpu = "x86-64"
// NAMED-SAME: #llvm.target_features<["+sse2"]>
// NAMED: llvm.func @decl()
// NAMED-NOT: target_
// NONE: llvm.func @f() {
// HOST-LABEL: llvm.func @f()
// HOST-SAME: target_cpu = "{{[a-z0-9_.-]+}}"
// HOST-SAME: "-avx512bf16"]>
// HOST-NOT: "+avx512bf16"
// A function that calls AVX512-BF16 intrinsics gets +avx512bf16 whatever
// `features` says (it cannot be compiled without it).
// NAMED-LABEL: llvm.func @dot
// NAMED-SAME: #llvm.target_features<["+avx2", "-fma", "+avx512bf16"]>
// HOST-LABEL: llvm.func @dot
// HOST-SAME: "+avx512bf16"
// HOST-NOT: "-avx512bf16"
// HOST-SAME: >
module {
  llvm.func @f() {
    llvm.return
  }
  llvm.func @own() attributes {target_cpu = "x86-64",
      target_features = #llvm.target_features<["+sse2"]>} {
    llvm.return
  }
  llvm.func @decl()
  llvm.func @dot(%acc: vector<16xf32>, %a: vector<32xbf16>) -> vector<16xf32> {
    %r = llvm.call_intrinsic "llvm.x86.avx512bf16.dpbf16ps.512"(%acc, %a, %a) : (vector<16xf32>, vector<32xbf16>, vector<32xbf16>) -> vector<16xf32>
    llvm.return %r : vector<16xf32>
  }
}
