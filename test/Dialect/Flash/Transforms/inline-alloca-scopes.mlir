// RUN: flash-opt %s --split-input-file --allow-unregistered-dialect --flash-inline-alloca-scopes | FileCheck %s

// A scope whose body only calls (a callee's allocas live in its own frame)
// and branches is inlined, results included.
// CHECK-LABEL: func.func @calls_only
// CHECK-NOT: memref.alloca_scope
// CHECK: scf.if
// CHECK: func.call @helper
// CHECK: %[[R:.*]] = arith.addi
// CHECK: return %[[R]]
func.func private @helper(%m: memref<4xf32>)
func.func @calls_only(%c: i1, %m: memref<4xf32>, %x: index) -> index {
  %r = memref.alloca_scope -> index {
    scf.if %c {
      func.call @helper(%m) : (memref<4xf32>) -> ()
    }
    %y = arith.addi %x, %x : index
    memref.alloca_scope.return %y : index
  }
  return %r : index
}

// -----

// A nested scope keeps its own allocas: the outer scope goes, the inner
// one stays.
// CHECK-LABEL: func.func @nested_scope_allocates
// CHECK: memref.alloca_scope {
// CHECK-NEXT: memref.alloca
// CHECK-NOT: memref.alloca_scope
func.func @nested_scope_allocates() {
  memref.alloca_scope {
    memref.alloca_scope {
      %a = memref.alloca() : memref<4xf32>
      "test.use"(%a) : (memref<4xf32>) -> ()
    }
  }
  return
}

// -----

// Must stay: the body allocates on the stack; inlining would extend the
// alloca's lifetime to the function.
// CHECK-LABEL: func.func @negative_alloca
// CHECK: memref.alloca_scope {
// CHECK: memref.alloca
func.func @negative_alloca() {
  memref.alloca_scope {
    %a = memref.alloca() : memref<4xf32>
    "test.use"(%a) : (memref<4xf32>) -> ()
  }
  return
}

// -----

// Must stay: an op with unknown effects might allocate.
// CHECK-LABEL: func.func @negative_unknown_effects
// CHECK: memref.alloca_scope {
// CHECK: "test.unknown"
func.func @negative_unknown_effects() {
  memref.alloca_scope {
    "test.unknown"() : () -> ()
  }
  return
}
