#!/usr/bin/env bash
# On the GPU machine: the NVIDIA Vulkan driver through the loader carried in
# this folder; correctness first, then each kernel's device time.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
export VK_DRIVER_FILES=${VK_DRIVER_FILES:-$(ls /usr/local/nvidia/share/vulkan/icd.d/*.json /usr/share/vulkan/icd.d/nvidia*.json /etc/vulkan/icd.d/nvidia*.json 2>/dev/null | head -1)}
echo "VK_DRIVER_FILES=$VK_DRIVER_FILES"
for t in v? w? c? m? n?; do
  [ -x ./$t ] || continue
  printf "%s: " $t; timeout 120 ./$t | tr "\n" " "; echo
done
[ -x ./tv_s128 ] || exit 0 # CHECKS_ONLY
for p in s128; do
  echo "== $p vulkan"; FLASH_VULKAN_TIMING=1 timeout 120 ./tv_$p 2>&1
  echo "== $p nvvm"; FLASH_CUDA_TIMING=1 timeout 120 ./tn_$p 2>&1
done
for p in f64 f128; do
  echo "== $p vulkan cooperative matrix"; FLASH_VULKAN_TIMING=1 timeout 120 ./tc_$p 2>&1 | grep -v checksum
done
for p in f64 f128 b64 b128; do
  echo "== $p vulkan"; FLASH_VULKAN_TIMING=1 timeout 120 ./tv_$p 2>&1 | grep -v checksum
  echo "== $p nvvm"; FLASH_CUDA_TIMING=1 timeout 120 ./tn_$p 2>&1 | grep -v checksum
done
