# flash_mlir.attention / attention_grad with a mask on the CPU: a broadcast
# bool keep-mask with fully masked rows and an additive [Nq, Nk] mask with
# causal, against numpy's unfused softmax and its hand-written gradient
# (max abs error <= 2e-5); bad masks are rejected with a message.
# RUN: env FLASH_MLIR_CACHE=%t.cache %python %s | FileCheck %s

import numpy as np

import flash_mlir as fm


def reference(q, k, v, do, scale, add):
    """o, lse, dq, dk, dv of softmax(scale q k^T + add) v (add: -inf drops)."""
    s = scale * q @ np.swapaxes(k, -1, -2) + add
    mx = s.max(-1, keepdims=True)
    mx = np.where(np.isfinite(mx), mx, 0)
    e = np.exp(s - mx)
    l = e.sum(-1, keepdims=True)
    p = np.where(l > 0, e / np.where(l > 0, l, 1), 0)
    o = p @ v
    lse = np.where(l[..., 0] > 0, np.log(np.where(l > 0, l, 1))[..., 0] +
                   mx[..., 0], -np.inf)
    dv = np.swapaxes(p, -1, -2) @ do
    dp = do @ np.swapaxes(v, -1, -2)
    ds = p * (dp - (do * o).sum(-1, keepdims=True))
    return o, lse, scale * ds @ k, scale * np.swapaxes(ds, -1, -2) @ q, dv


def check(name, got, want, tol=2e-5):
    fin = np.isfinite(want)
    with np.errstate(invalid="ignore"):
        err = float(np.abs(np.where(fin, got - want, 0)).max())
    same_inf = bool(np.all(np.isfinite(got) == fin))
    ok = err <= tol and same_inf
    print(f"{name}: max error {err:.2e} {'ok' if ok else 'FAIL'}")
    return ok


rng = np.random.default_rng(7)
B, H, Nq, Nk, D = 2, 3, 37, 50, 16
q = rng.standard_normal((B, H, Nq, D)).astype(np.float32)
k = rng.standard_normal((B, H, Nk, D)).astype(np.float32)
v = rng.standard_normal((B, H, Nk, D)).astype(np.float32)
do = rng.standard_normal((B, H, Nq, D)).astype(np.float32)
scale = 1 / np.sqrt(D)
all_ok = True

# Bool keep-mask [B, 1, Nq, Nk], rows 5 and 20 keep nothing.
keep = rng.random((B, 1, Nq, Nk)) > 0.3
keep[:, :, [5, 20], :] = False
o, lse = fm.attention(q, k, v, mask=keep, return_lse=True, block_q=16,
                      block_kv=16)
ro, rl, rdq, rdk, rdv = reference(q, k, v, do, scale,
                                  np.where(keep, 0, -np.inf))
all_ok &= check("bool o", o, ro) & check("bool lse", lse, rl)
all_ok &= bool(np.all(o[:, :, [5, 20]] == 0))
dq, dk, dv = fm.attention_grad(q, k, v, o, lse, do, mask=keep, block_q=16,
                               block_kv=16)
all_ok &= check("bool dq", dq, rdq) & check("bool dk", dk, rdk)
all_ok &= check("bool dv", dv, rdv)

# Additive [Nq, Nk] mask with causal: top-left aligned (torch's is_causal,
# the same on CUDA), and bottom-right with causal_offset = Nk - Nq = 13.
add = rng.standard_normal((Nq, Nk)).astype(np.float32)
for off, name in ((None, "add+causal"), (Nk - Nq, "add+causal_br")):
    o, lse = fm.attention(q, k, v, mask=add, causal=True, return_lse=True,
                          causal_offset=off)
    causal = (np.arange(Nk)[None, :] <=
              np.arange(Nq)[:, None] + (0 if off is None else off))
    ro, rl, rdq, rdk, rdv = reference(q, k, v, do, scale,
                                      np.where(causal, add, -np.inf))
    all_ok &= check(f"{name} o", o, ro) & check(f"{name} lse", lse, rl)
    dq, dk, dv = fm.attention_grad(q, k, v, o, lse, do, mask=add,
                                   causal=True, causal_offset=off)
    all_ok &= check(f"{name} dq", dq, rdq) & check(f"{name} dk", dk, rdk)
    all_ok &= check(f"{name} dv", dv, rdv)

# Bad masks.
for bad, what in ((np.ones((Nq, Nk + 1), np.float32), "shape"),
                  (np.ones((Nq, Nk), np.int32), "dtype")):
    try:
        fm.attention(q, k, v, mask=bad)
        print(f"bad {what}: accepted FAIL")
        all_ok = False
    except (ValueError, TypeError) as e:
        print(f"bad {what}: {type(e).__name__}: {e}")

print("ALL OK" if all_ok else "SOME FAILED")
# CHECK-NOT: FAIL
# CHECK: bool o: max error
# CHECK: bad shape: ValueError: mask of shape (37, 51) does not broadcast to (2, 3, 37, 50)
# CHECK: bad dtype: TypeError: mask must be bool
# CHECK: ALL OK
