// The documented defaults (README, "Pass and pipeline options"): what each
// pipeline gives the passes it forwards its knobs to, and that a pass run
// alone has the same default for each knob.

// RUN: flash-opt %s --flash-to-cpu --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CPU,CPU-PAR
// RUN: flash-opt %s --flash-to-cpu=threads=1 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CPU,CPU-SEQ
// RUN: flash-opt %s --flash-tile-attention --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CPU,CPU-SEQ
// The pipeline's threads=0 (all cores) makes the independent loops foralls
// and lowers them to OpenMP; the pass alone emits scf.for.
// CPU: flash-tile-attention{block-kv=64 block-q=128 loop-order=fa2
// CPU-PAR-SAME: parallel=true}
// CPU-PAR: convert-scf-to-openmp{num-threads=0}
// CPU-PAR: flash-openmp-schedule
// CPU-SEQ-SAME: parallel=false}
// CPU-SEQ-NOT: convert-scf-to-openmp

// RUN: flash-opt %s --flash-to-cpu --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=VEC
// RUN: flash-opt %s --flash-to-cpu=vectorize=0 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOVEC
// VEC: flash-vectorize-cpu{vector-bits=0}
// VEC: flash-cpu-target-features{cpu=host features=-avx512bf16}
// RUN: flash-opt %s --flash-vectorize-cpu --flash-cpu-target-features --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=VEC
// NOVEC-NOT: flash-vectorize-cpu

// bf16-dot: bf16 ops stay bf16 for flash-vectorize-bf16-dot, whose
// x86vector ops convert-vector-to-llvm lowers; off: widened to f32. The
// default, host, is one of the two.
// RUN: flash-opt %s --flash-to-cpu=bf16-dot=on --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DOT
// RUN: flash-opt %s --flash-to-cpu=bf16-dot=off --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NODOT
// RUN: flash-opt %s --flash-to-cpu="bf16-dot=on vectorize=0" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NODOT
// RUN: flash-opt %s --flash-to-cpu --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOSTDOT
// DOT: flash-widen-bf16{backward=false forward=false include-f16=true}
// DOT: flash-vectorize-bf16-dot
// DOT: flash-vectorize-cpu
// DOT: enable-x86vector=true
// NODOT: flash-widen-bf16{backward=true forward=true include-f16=true}
// NODOT-NOT: flash-vectorize-bf16-dot
// NODOT: enable-x86vector=false
// HOSTDOT: flash-widen-bf16{backward=[[B:true|false]] forward=[[B]] include-f16=true}

// RUN: flash-opt %s --flash-to-nvvm --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefixes=MAP,NVVM
// RUN: flash-opt %s --flash-map-to-gpu --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=MAP
// MAP: flash-map-to-gpu{cooperative-matrix=false deterministic=true fma-exp2=0 grad-a-shared=true grad-d256=true grad-producer=true grad-row-lanes=0 max-workgroup-memory=0 merge-masked-tiles=true mma-max-registers=0 mma-tile-kv=0 mma-warps=0 persistent-blocks=132 persistent-captures=true row-lanes=1 split-kv=128 split-kv-blocks=256 subgroup-size=32 tensor-cores=true threads=128 tile-kv=16 vector-load-bytes=16 warp-specialize=true wgmma=true}
// NVVM: flash-gpu-lower-math{target=nvvm}
// NVVM: nvvm-attach-target{O=3 chip=sm_90a {{.*}}features=+ptx80
// NVVM-SAME: ptxas-cmd-options={-split-compile 0}
// NVVM: gpu-module-to-binary{format=fatbin

// Forwarded options reach the pass; the chip decides what tensor cores apply.
// RUN: flash-opt %s --flash-to-nvvm="chip=sm_80 format=isa row-lanes=4 grad-row-lanes=2" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM80
// SM80: flash-map-to-gpu{{{.*}} grad-row-lanes=2 {{.*}} row-lanes=4 {{.*}}tensor-cores=true {{.*}} wgmma=false}
// SM80: nvvm-attach-target{{{.*}}chip=sm_80
// SM80: gpu-module-to-binary{format=isa
// RUN: flash-opt %s --flash-to-nvvm="chip=sm_75" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM75
// SM75: flash-map-to-gpu{{{.*}} tensor-cores=false {{.*}} wgmma=false}
// RUN: flash-opt %s --flash-to-nvvm="split-kv=0" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSPLIT
// RUN: flash-opt %s --flash-to-spirv="split-kv=0" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSPLIT
// NOSPLIT: flash-map-to-gpu{{{.*}} split-kv=0 

// RUN: flash-opt %s --flash-to-spirv --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPIRV
// SPIRV: flash-map-to-gpu{cooperative-matrix=false deterministic=true fma-exp2=0 grad-a-shared=true grad-d256=true grad-producer=true grad-row-lanes=0 max-workgroup-memory=32768 merge-masked-tiles=true mma-max-registers=0 mma-tile-kv=0 mma-warps=0 persistent-blocks=132 persistent-captures=true row-lanes=0 split-kv=128 split-kv-blocks=256 subgroup-size=8 tensor-cores=false threads=128 tile-kv=16 vector-load-bytes=0 warp-specialize=true wgmma=false}
// SPIRV: flash-gpu-lower-math{target=spirv}
// SPIRV: spirv-attach-target{{{.*}} client_api=Vulkan {{.*}} ver=v1.4}
// SPIRV: flash-prepare-spirv-kernels{max-invocations=128 max-workgroup-memory=32768 subgroup-size=32}

// RUN: flash-opt %s --flash-to-spirv=client-api=opencl --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPENCL
// OPENCL: flash-map-to-gpu{{{.*}} grad-row-lanes=1 {{.*}} row-lanes=1
// OPENCL: spirv-attach-target{{{.*}} client_api=OpenCL {{.*}} ver=v1.0}

// `flash-opt --help` prints each pipeline's defaults from its options
// struct: the values the dumps above show.
// RUN: flash-opt --help | FileCheck %s --check-prefix=HELP
// HELP: --flash-to-cpu {{.*}}; defaults {bf16-dot=host block-kv=64 block-q=128 loop-order=fa2 target-cpu=host threads=0 vector-bits=0 vectorize=true}
// HELP: --flash-to-nvvm {{.*}}; defaults {chip=sm_90a deterministic=true features=+ptx80 fma-exp2=0 format=fatbin grad-a-shared=true grad-d256=true grad-producer=true grad-row-lanes=0 map-only=false merge-masked-tiles=true mma-max-registers=0 mma-tile-kv=0 mma-warps=0 opt-level=3 persistent-blocks=132 persistent-captures=true ptxas-options={-split-compile 0} row-lanes=1 split-kv=128 split-kv-blocks=256 tensor-cores=true warp-specialize=true wgmma=true}
// HELP: --flash-to-spirv {{.*}}; defaults {{{.*}}client-api=vulkan {{.*}}grad-row-lanes=0 kernels-only=false max-invocations=128 max-workgroup-memory=32768 row-lanes=0 split-kv=128 split-kv-blocks=256 subgroup-size=32 version=}

// Enum-valued options take only their values.
// RUN: not flash-opt %s --flash-to-cpu=loop-order=fa3 2>&1 | FileCheck %s --check-prefix=BAD-ORDER
// BAD-ORDER: Cannot find option named 'fa3'
// RUN: not flash-opt %s --flash-to-nvvm=format=ptx 2>&1 | FileCheck %s --check-prefix=BAD-FORMAT
// BAD-FORMAT: Cannot find option named 'ptx'

module {}
