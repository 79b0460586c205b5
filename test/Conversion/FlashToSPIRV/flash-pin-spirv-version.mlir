// flash-pin-spirv-version raises a spirv.module's version (which
// spirv-update-vce lowered to what its ops need) back to its target
// environment's, and leaves a module already there alone.
// RUN: flash-opt %s --split-input-file --pass-pipeline="builtin.module(spirv.module(flash-pin-spirv-version))" | FileCheck %s

// CHECK-LABEL: spirv.module @raised
// CHECK-SAME: requires #spirv.vce<v1.4, [Shader], []>
spirv.module @raised Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []>
    attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.4, [Shader], []>, #spirv.resource_limits<>>} {
}

// -----

// CHECK-LABEL: spirv.module @kept
// CHECK-SAME: requires #spirv.vce<v1.5, [Shader], []>
spirv.module @kept Logical GLSL450 requires #spirv.vce<v1.5, [Shader], []>
    attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.4, [Shader], []>, #spirv.resource_limits<>>} {
}
