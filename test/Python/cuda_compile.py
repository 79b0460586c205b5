# The Python CUDA front's compile step, without a GPU: cubins from
# --flash-to-nvvm (ptxas), kernel names and launch contracts read from
# flash-map-to-gpu (the geometry for a shape computed from them), one
# kernel per configuration class for every sequence length, and the
# cache's compiler check.
# REQUIRES: ptxas
# RUN: rm -rf %t.cache && FLASH_MLIR_CACHE=%t.cache %python %s | FileCheck %s

import json
import os

from flash_mlir import compiler, cuda, program


def cfg(d, dtype, causal=False, hq=4, hkv=2, n=100):
    return program.Config(batch=[2], hq=hq, hkv=hkv, nq=n, nk=n, d=d, dv=d,
                          dtype=dtype, causal=causal,
                          causal_offset=0 if causal else None, lse=True)


# Tensor cores: on sm_90a wgmma, one warpgroup of 64 rows per block; at
# d = 128 warp-specialized, two consumer warpgroups (128 rows) and a
# producer per block.
# CHECK: bf16 d=64 fwd ELF flash_attention_0 grid=2x8x1 block=128 kinds=wgmma
# CHECK: bf16 d=128 fwd ELF flash_attention_0 grid=1x8x1 block=384 kinds=wgmma
# CHECK: bf16 d=128 fwd ELF flash_attention_0 grid=16x8x1 block=384 kinds=wgmma
# The backward: dQ over query rows (B*Hq), dK/dV over key rows (B*Hkv).
# CHECK: f16 d=64 bwd ELF flash_attention_grad_dq_0 grid=2x8x1 block=128 flash_attention_grad_dkdv_0 grid=2x4x1 block=256 kinds=wgmma,wgmma
# SIMT (f32): the forward one row per thread; the backward four threads
# per row at d = 64 (grad-row-lanes), 32 rows per block of 128.
# CHECK: f32 d=64 fwd ELF flash_attention_0 grid=1x8x1 block=128 kinds=simt
# CHECK: f32 d=64 bwd ELF flash_attention_grad_dq_0 grid=4x8x1 block=128 flash_attention_grad_dkdv_0 grid=4x4x1 block=128 kinds=simt,simt
for d, dtype, grad, n in [(64, "bf16", False, 100), (128, "bf16", False, 100),
                          (128, "bf16", False, 2000), (64, "f16", True, 100),
                          (64, "f32", False, 100), (64, "f32", True, 100)]:
    c = cfg(d, dtype, causal=True, n=n)
    blob, names, contracts = cuda.compile_kernel(c, grad=grad)
    geo = [cuda.geometry(k, c) for k in contracts]
    magic = "ELF" if blob[1:4] == b"ELF" else repr(blob[:4])
    launches = " ".join(f"{n} grid={'x'.join(map(str, g))} block={b[0]}"
                        for n, (g, b) in zip(names, geo))
    kinds = ",".join(cuda.kernel_kinds(cfg(d, dtype, causal=True), grad))
    print(dtype, f"d={d}", "bwd" if grad else "fwd", magic, launches,
          f"kinds={kinds}")

# The warp-specialized forward's TMA tensor maps (after its sizes), as the
# front encodes them: q [B*Hq, Nq, D], k and v [B*Hkv, Nk, D], in boxes of
# 128 rows of 64 two-byte elements; the backward's producers' (d = 128):
# the dQ kernel's K, V (64-key boxes), the dK/dV kernel's Q, dO.
# CHECK: maps fwd d=128 [(0, (8, 2000, 128), 2, 128, 64), (1, (4, 2000, 128), 2, 128, 64), (2, (4, 2000, 128), 2, 128, 64)]
# CHECK: maps bwd d=128 dq [(1, (4, 300, 128), 2, 64, 64), (2, (4, 300, 128), 2, 64, 64), (0, (8, 300, 128), 2, 64, 64), (5, (8, 300, 128), 2, 64, 64)]
# CHECK-SAME: dkdv [(1, (4, 300, 128), 2, 64, 64), (2, (4, 300, 128), 2, 64, 64), (0, (8, 300, 128), 2, 64, 64), (4, (8, 300, 128), 2, 64, 64)]
c = cfg(128, "bf16", causal=True, n=2000)
print("maps fwd d=128", cuda.tensor_maps(cuda.compile_kernel(c)[2][0], c))
c = cfg(128, "bf16", causal=True, n=300)
grad = cuda.compile_kernel(c, grad=True)[2]
print("maps bwd d=128 dq", cuda.tensor_maps(grad[0], c),
      "dkdv", cuda.tensor_maps(grad[1], c))

# The geometry follows the options the kernels were compiled with: mma.sync
# (wgmma=0) puts 8 warps of 16 rows on a block at d = 128.
# CHECK: wgmma=0 d=128 flash_attention_0 grid=1x8x1 block=256 mma.sync
os.environ["FLASH_MLIR_NVVM_OPTIONS"] = "wgmma=0"
_, names, contracts = cuda.compile_kernel(cfg(128, "bf16", causal=True))
geo = [cuda.geometry(k, cfg(128, "bf16", causal=True)) for k in contracts]
print("wgmma=0 d=128", " ".join(
    f"{n} grid={'x'.join(map(str, g))} block={b[0]}" for n, (g, b) in zip(names, geo)),
    *cuda.kernel_kinds(cfg(128, "bf16", causal=True)))
del os.environ["FLASH_MLIR_NVVM_OPTIONS"]

# The d = 256 backward on wgmma (grad-d256, the default): two consumer
# warpgroups and a producer (384 threads); the dQ kernel's blocks take 128
# queries, the dK/dV kernel's 64 keys (its warpgroups split by roles; 100
# keys: 2 blocks), batch 2 and GQA 4:2.
# CHECK: grad-d256 flash_attention_grad_dq_0 grid=1x8x1 block=384 flash_attention_grad_dkdv_0 grid=2x4x1 block=384 wgmma,wgmma
c = cfg(256, "bf16", causal=True)
_, names, contracts = cuda.compile_kernel(c, grad=True)
print("grad-d256", " ".join(
    f"{n} grid={'x'.join(map(str, g))} block={b[0]}"
    for n, (g, b) in zip(names, [cuda.geometry(k, c) for k in contracts])),
    ",".join(cuda.kernel_kinds(c, True)))

# One kernel per configuration class: 20 sequence lengths (Nq != Nk, odd)
# compile once per pass, plus one forward per decode Nq (1 and 7: the GQA
# group's 2 * Nq queries fit one split-KV tile); the kernels take the
# lengths as size arguments (the contract names them) and the grid follows
# each shape.
# CHECK: lengths=20 compiles=4 sizes=nq,nk grids=1x8x1,8x8x1,79x8x1
# The combine waits for the partial kernel itself (griddepcontrol.wait on
# sm_90a): the front launches it programmatically.
# CHECK: decode nq=1 nk=4096 kinds=wgmma,split-kv sizes=nk flash_attention_0 grid=33x4x1 block=128 scratch=260 flash_attention_0_combine grid=1x8x1 block=128 scratch=0 waits_for_previous
before = cuda.COMPILES
grids = []
for n in [1, 7, 64, 65, 100, 127, 128, 129, 255, 256, 300, 511, 512, 513,
          999, 1000, 1023, 1024, 4096, 10000]:
    c = cfg(128, "bf16", causal=True, n=n)
    c.nk = n + 3
    _, _, contracts = cuda.compile_kernel(cuda.kernel_class(c))
    cuda.compile_kernel(cuda.kernel_class(c, grad=True), grad=True)
    if n in (64, 1000, 10000):
        grids.append("x".join(map(str, cuda.geometry(contracts[0], c)[0])))
print(f"lengths=20 compiles={cuda.COMPILES - before}",
      "sizes=" + ",".join(contracts[0]["sizes"]), "grids=" + ",".join(grids))
c = cfg(128, "bf16", n=1)
c.nk = 4100
cls = cuda.kernel_class(c)
_, names, contracts = cuda.compile_kernel(cls)
print("decode nq=1 nk=4096", "kinds=" + ",".join(cuda.kernel_kinds(cls)),
      "sizes=" + ",".join(contracts[0]["sizes"]), " ".join(
          f"{n} grid={'x'.join(map(str, cuda.geometry(k, c)[0]))} "
          f"block={k['block']} scratch={k.get('scratch_per_block', 0)}"
          + (" waits_for_previous" if k.get("waits_for_previous") else "")
          for n, k in zip(names, contracts)))

# A window and ALiBi with their diagonal as a run-time argument (the front
# passes Nk - Nq when the caller gives none): one kernel per pass serves
# every length too (plus, as above, one forward per decode Nq: 1 and 7).
# CHECK: window+alibi lengths=20 compiles=4 dynamic=True
before = cuda.COMPILES
for n in [1, 7, 64, 65, 100, 127, 128, 129, 255, 256, 300, 511, 512, 513,
          999, 1000, 1023, 1024, 4096, 10000]:
    c = cfg(128, "bf16", causal=True, n=n)
    c.nk = n + 3
    c.window, c.alibi, c.mod_offset = (64, 0), True, True
    cls = cuda.kernel_class(c)
    cuda.compile_kernel(cls)
    cuda.compile_kernel(cuda.kernel_class(c, grad=True), grad=True)
print("window+alibi lengths=20", f"compiles={cuda.COMPILES - before}",
      f"dynamic={cls.dynamic}")

# The cache remembers which flash-opt built a kernel; another build's
# kernels are recompiled.
# CHECK: compiler recorded: True
# CHECK: recompiled: True
c = cfg(64, "bf16", causal=True)
side = [f for f in os.listdir(compiler.cache_dir()) if f.endswith(".json")]
first = json.load(open(os.path.join(compiler.cache_dir(), side[0])))
print("compiler recorded:", first["compiler"] == compiler._tool_id(
    compiler._flash_opt()))
for f in side:
    p = os.path.join(compiler.cache_dir(), f)
    j = json.load(open(p))
    j["compiler"] = "another build"
    json.dump(j, open(p, "w"))
cuda.compile_kernel(c)
after = [json.load(open(os.path.join(compiler.cache_dir(), f)))["compiler"]
         for f in side]
print("recompiled:", "another build" in after and
      compiler._tool_id(compiler._flash_opt()) in after)

# Document masks (segment ids; not affine in the positions): a block mask
# kernel first, per batch (the mask_mod does not read the head: grid
# ceil(Nq / R) x B), its table in the scratch buffer (ceil(Nk / K) words a
# block); the backward's table (entries of 32 queries x 64 keys at d =
# 128: the dK/dV kernel's query tiles, the dQ kernel's key tiles) serves
# both kernels, which take their own buffers.
# CHECK: documents fwd kinds=block-mask,wgmma flash_attention_0_block_mask grid=2x2x1 block=512 flash_attention_0 grid=2x8x1 block=128 scratch=8
# CHECK: documents bwd kinds=block-mask,wgmma,wgmma flash_attention_grad_dq_0_block_mask grid=4x2x1 block=512 flash_attention_grad_dq_0 grid=2x8x1 block=256 flash_attention_grad_dkdv_0 grid=2x4x1 block=256 scratch=16
for grad in (False, True):
    c = cfg(128 if grad else 64, "bf16", causal=True, n=100)
    c.segments = 3
    _, names, contracts = cuda.compile_kernel(cuda.kernel_class(c, grad),
                                              grad=grad)
    print("documents", "bwd" if grad else "fwd",
          "kinds=" + ",".join(cuda.kernel_kinds(cuda.kernel_class(c, grad),
                                                grad)),
          " ".join(f"{n} grid={'x'.join(map(str, g))} block={b[0]}"
                   for n, (g, b) in zip(names, (cuda.geometry(k, c)
                                                for k in contracts))),
          f"scratch={cuda.scratch_words(contracts, c)}")

# fp8: V^T's kernel over the kv batch-heads' 128-key tiles, then the
# one-warpgroup wgmma forward; the scratch holds V^T (ceil(300 / 128) tiles
# x 4 kv batch-heads x 128 x 128 bytes, in f32 words). At a head dim the
# fp8 kernel does not take, an error that says so.
# CHECK: fp8 kinds=fp8-v-transpose,wgmma flash_attention_0_v_transpose grid=3x4x1 block=256 flash_attention_0 grid=4x8x1 block=128 scratch=49152 args=q,k,v,o,lse,q_descale,k_descale,v_descale,scratch
# CHECK: fp8 at d = 64: CompileError has no GPU kernel for this fp8 configuration
c = program.Config(batch=[2], hq=4, hkv=2, nq=200, nk=300, d=128, dv=128,
                   dtype="f8E4M3FN", causal=True, causal_offset=0, lse=True,
                   descale="head")
_, names, contracts = cuda.compile_kernel(cuda.kernel_class(c, False))
print("fp8", "kinds=" + ",".join(cuda.kernel_kinds(cuda.kernel_class(c, False),
                                                   False)),
      " ".join(f"{n} grid={'x'.join(map(str, g))} block={b[0]}"
               for n, (g, b) in zip(names, (cuda.geometry(k, c)
                                            for k in contracts))),
      f"scratch={cuda.scratch_words(contracts, c)}",
      "args=" + ",".join(contracts[1]["args"]))
c64 = program.Config(batch=[2], hq=4, hkv=2, nq=200, nk=300, d=64, dv=64,
                     dtype="f8E4M3FN", lse=True, descale="head")
try:
    cuda.compile_kernel(cuda.kernel_class(c64, False))
except compiler.CompileError as e:
    print("fp8 at d = 64: CompileError",
          "has no GPU kernel for this fp8 configuration"
          if "has no GPU kernel for this fp8 configuration" in str(e) else e)
