// Past d = 128 the forward's consumers skip O *= alpha where every row of
// a warp kept its max (a warp vote on alpha == 1, which leaves O exactly
// as it was): the d = 256 forward, warp-specialized, causal and not, with
// a window. At d <= 128 (within the noise on an H100) O is rescaled as
// before. The self-checks of bench/gpu/prepare_ab.sh (mm, f, sm, wd) run
// the kernels on a GPU against the unfused program.
// RUN: %gen --hq 4 --n 4096 --d 256 --dtype bf16 | flash-opt --flash-to-nvvm=format=isa | FileCheck %s --check-prefix=SKIP
// RUN: %gen --hq 4 --n 4096 --d 256 --dtype bf16 --causal | flash-opt --flash-to-nvvm=format=isa | FileCheck %s --check-prefix=SKIP
// RUN: %gen --hq 4 --n 1500 --d 256 --dtype bf16 --window 500,20 | flash-opt --flash-to-nvvm=format=isa | FileCheck %s --check-prefix=SKIP
// RUN: %gen --hq 4 --n 4096 --d 128 --dtype bf16 --causal | flash-opt --flash-to-nvvm=format=isa | FileCheck %s --check-prefix=KEEP
// RUN: %gen --hq 4 --n 4096 --d 64 --dtype bf16 | flash-opt --flash-to-nvvm=format=isa | FileCheck %s --check-prefix=KEEP
// SKIP: vote.sync.all.pred
// KEEP-NOT: vote.sync.all
