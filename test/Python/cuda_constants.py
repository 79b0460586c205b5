# The CUDA front keeps small captured arrays made from Python values (a
# window's diagonal offset) on the device per value instead of copying
# them in every call; tensors pass through. Checked on the CPU device
# (the cache does not depend on the device kind).
# RUN: %python %s | FileCheck %s

import torch

from flash_mlir import cuda

a = cuda._on_device([5], "i64", "cpu")
b = cuda._on_device([5], "i64", "cpu")
c = cuda._on_device([6], "i64", "cpu")
f = cuda._on_device([0.5, 0.25], "f32", "cpu")
# CHECK: same value: True, other value: False, [6] torch.int64
print(f"same value: {a is b}, other value: {a is c}, {c.tolist()} {c.dtype}")
# CHECK: as f32: [0.5, 0.25] torch.float32
print(f"as f32: {f.tolist()} {f.dtype}")
t = torch.tensor([1, 2], dtype=torch.int32)
# CHECK: a tensor passes through: True [1, 2]
print(f"a tensor passes through: {cuda._on_device(t, 'i32', 'cpu') is t} "
      f"{t.tolist()}")
# Bounded: the oldest values go.
for i in range(cuda._MAX_CONSTANTS + 10):
    cuda._on_device([1000 + i], "i64", "cpu")
# CHECK: bounded: True
print(f"bounded: {len(cuda._CONSTANTS) == cuda._MAX_CONSTANTS}")
