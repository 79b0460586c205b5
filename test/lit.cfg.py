# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "FLASH"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".py"]
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs",
                   "lib"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.flash_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%flash_src_root", config.flash_src_root))
config.substitutions.append(("%flash_obj_root", config.flash_obj_root))
# The out-of-tree consumer (test/Examples): MLIR's package and the compilers
# flash-mlir was built with.
config.substitutions.append(("%mlir_cmake_dir", config.mlir_cmake_dir))
config.substitutions.append(("%flash_cc", config.c_compiler))
config.substitutions.append(("%flash_cxx", config.cxx_compiler))
# Runner libraries for executable tests.
config.substitutions.append(
    ("%mlir_runner_utils",
     os.path.join(config.llvm_lib_dir, "libmlir_runner_utils.so")))
config.substitutions.append(
    ("%mlir_c_runner_utils",
     os.path.join(config.llvm_lib_dir, "libmlir_c_runner_utils.so")))
# LLVM's OpenMP runtime, which --flash-to-cpu's parallel code (threads=0,
# the default) calls.
config.substitutions.append(("%openmp_runtime", config.openmp_runtime))
# Debian's python3 (with numpy), not whatever python3 is first on PATH.
config.substitutions.append(("%python", "/usr/bin/python3"))
# Executable tests: the generator of self-checking attention programs, and
# mlir-runner with the C runner utils and the OpenMP runtime.
config.substitutions.append(
    ("%gen", "/usr/bin/python3 " + os.path.join(
        config.flash_src_root, "utils", "mlirgen.py")))
config.substitutions.append(
    ("%run", "mlir-runner -e main -entry-point-result=void -shared-libs=" +
     os.path.join(config.llvm_lib_dir, "libmlir_runner_utils.so") + "," +
     os.path.join(config.llvm_lib_dir, "libmlir_c_runner_utils.so") + "," +
     config.openmp_runtime))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# FileCheck, not, count and mlir-runner from Debian's LLVM 22.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# flash-opt must be ours: never let lit fall back to a same-named tool in the
# LLVM tools dir (BUILD-NOTES pitfall 9).
flash_bin = os.path.join(config.flash_obj_root, "bin")
tools = [
    ToolSubst("flash-opt", os.path.join(flash_bin, "flash-opt"),
              unresolved="fatal"),
    ToolSubst("flash-fuzz", os.path.join(flash_bin, "flash-fuzz"),
              unresolved="fatal"),
    ToolSubst("mlir-runner", unresolved="fatal"),
    ToolSubst("mlir-opt", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, [config.llvm_tools_dir])

# CUDA: ptxas (for format=bin) from the toolkit; executable GPU tests only
# where a GPU answers nvidia-smi.
import glob
import shutil
import subprocess
cuda_bin = "/usr/local/cuda/bin"
if os.path.exists(os.path.join(cuda_bin, "ptxas")):
    llvm_config.with_environment("PATH", cuda_bin, append_path=True)
    config.available_features.add("ptxas")
if shutil.which("nvidia-smi") and subprocess.run(
        ["nvidia-smi", "-L"], capture_output=True).returncode == 0:
    config.available_features.add("cuda-gpu")
# Vulkan: our runtime (built when libvulkan-dev is present) and a device the
# loader finds (lavapipe from mesa-vulkan-drivers, installed by make deps).
vulkan_rt = os.path.join(config.flash_obj_root, "lib",
                         "libflash_vulkan_runtime.so")
if os.path.exists(vulkan_rt) and (
        glob.glob("/usr/share/vulkan/icd.d/*.json") or
        os.environ.get("VK_DRIVER_FILES") or os.environ.get("VK_ICD_FILENAMES")):
    config.available_features.add("vulkan")
    config.substitutions.append(
        ("%vkrun", "mlir-runner -e main -entry-point-result=void "
         "-shared-libs=" + vulkan_rt + "," +
         os.path.join(config.llvm_lib_dir, "libmlir_runner_utils.so") + "," +
         os.path.join(config.llvm_lib_dir, "libmlir_c_runner_utils.so")))
for var in ["VK_DRIVER_FILES", "VK_ICD_FILENAMES", "FLASH_VULKAN_DEVICE"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
# AVX512-BF16 on the host: tests that execute flash-vectorize-bf16-dot's
# vdpbf16ps code.
with open("/proc/cpuinfo") as cpuinfo:
    if "avx512_bf16" in cpuinfo.read().split():
        config.available_features.add("avx512bf16")
# SPIR-V: spirv-val (spirv-tools, installed by make deps).
if shutil.which("spirv-val"):
    config.available_features.add("spirv-val")
config.substitutions.append(
    ("%flash_lib", os.path.join(config.flash_obj_root, "lib")))

# The Python package and test helpers.
config.environment["PYTHONPATH"] = os.path.join(config.flash_src_root, "python")
