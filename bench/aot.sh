# Sourced by the bench prepare scripts: ahead-of-time compiled programs for
# the GPU machine, which has no MLIR. Sets up $OUT and a temporary $tmp
# (removed on exit) with the host utilities, and defines
#   aot_link SRC NAME PIPELINE RUNTIME   flash-opt SRC with PIPELINE, to LLVM
#                                        IR, linked against libRUNTIME into
#                                        $OUT/NAME (rpath $ORIGIN)
#   exe NAME MLIRGEN-ARGS...              a self-checking mlirgen program on
#                                        the GPU (--flash-to-nvvm, with
#                                        $FLASH_AOT_NVVM_OPTIONS), as NAME
LLVM=/usr/lib/llvm-22
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clang-22 -O2 -c test/Integration/CUDA/host_utils.c -o "$tmp/utils.o"
# The program's `main` returns nothing: renamed, and called from a C main
# that exits with 0, so that scripts can test the exit status.
printf 'void flash_aot_main(void);\nint main(void) { flash_aot_main(); return 0; }\n' \
  > "$tmp/aot_main.c"
clang-22 -O2 -c "$tmp/aot_main.c" -o "$tmp/aot_main.o"
# (Each step chained: called as an `if` condition, a function runs without
# errexit, and a failed step must fail the call.)
aot_link() {
  "${FLASH_OPT:-build/bin/flash-opt}" "$1" "$3" -o "$tmp/$2.ll.mlir" &&
  $LLVM/bin/mlir-translate --mlir-to-llvmir "$tmp/$2.ll.mlir" -o "$tmp/$2.ll" &&
  sed -i 's/^define void @main()/define void @flash_aot_main()/' "$tmp/$2.ll" &&
  # (-mf16c: f16 conversions inline, not libgcc calls; the host reference
  # of an f16 check at 2000 x 1500 took 64 s without.)
  clang-22 -O2 -mf16c -Wno-override-module "$tmp/$2.ll" "$tmp/utils.o" "$tmp/aot_main.o" -o "$OUT/$2" \
    -Lbuild/lib -l"$4" -Wl,--allow-shlib-undefined -Wl,-rpath,'$ORIGIN' -lm &&
  echo "built $OUT/$2"
}
exe() { # name mlirgen-args...
  local name=$1; shift
  /usr/bin/python3 utils/mlirgen.py "$@" > "$tmp/$name.mlir"
  aot_link "$tmp/$name.mlir" "$name" \
    "--flash-to-nvvm=format=bin${FLASH_AOT_NVVM_OPTIONS:+ $FLASH_AOT_NVVM_OPTIONS}" \
    flash_cuda_runtime
}
