# The CPU numerics grid: flash_mlir.attention and attention_grad (f32) on
# head dims 16..256, lengths 1..1000 with Nq != Nk, causal with offsets
# (rows that see no key), bool masks with fully masked rows, GQA groups 1,
# 2 and 8, logits up to +-1e4. Each result must have no NaN, infinities
# only where the reference has them (lse -inf of empty rows), and an error
# against a float64 reference within 2x that of the same computation done
# unfused in f32 (numpy) — the precision-relative tolerance FlashAttention's
# tests use — plus the rounding of a reordered sum (eps sqrt(n) of the
# output's scale).
# RUN: env FLASH_MLIR_CACHE=%t.cache %python %s | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: grid: {{[0-9]+}} cases, all within tolerance

import numpy as np

import flash_mlir as fm


def reference(q, k, v, do, scale, keep, dtype):
    """o, lse, dq, dk, dv of softmax(scale q k^T, keys where keep) v in
    `dtype` (the unfused computation)."""
    q, k, v, do = (t.astype(dtype) for t in (q, k, v, do))
    g = q.shape[1] // k.shape[1]
    kx, vx = (np.repeat(t, g, axis=1) for t in (k, v))
    s = dtype(scale) * q @ np.swapaxes(kx, -1, -2)
    s = np.where(keep, s, -np.inf)
    mx = s.max(-1, keepdims=True)
    mx = np.where(np.isfinite(mx), mx, 0)
    e = np.exp(s - mx)
    l = e.sum(-1, keepdims=True)
    p = np.where(l > 0, e / np.where(l > 0, l, 1), 0).astype(dtype)
    o = p @ vx
    with np.errstate(divide="ignore"):
        lse = np.where(l[..., 0] > 0, np.log(np.where(l > 0, l, 1))[..., 0] +
                       mx[..., 0], -np.inf)
    dvx = np.swapaxes(p, -1, -2) @ do
    dp = do @ np.swapaxes(vx, -1, -2)
    ds = p * (dp - (do * o).sum(-1, keepdims=True))
    dq = dtype(scale) * ds @ kx
    dkx = dtype(scale) * np.swapaxes(ds, -1, -2) @ q
    fold = lambda t: t.reshape(t.shape[0], -1, g, *t.shape[2:]).sum(2)
    return o, lse, dq, fold(dkx), fold(dvx)


def err(a, b):
    fin = np.isfinite(b)
    if not fin.any():
        return 0.0
    return float(np.abs(a[fin] - b[fin]).max())


# (B, Hq, Hkv, Nq, Nk, d, causal_offset or None, mask, logit scale)
CASES = [
    (1, 2, 2, 1, 1, 16, None, None, 1.0),
    (2, 2, 1, 7, 63, 32, None, None, 1.0),
    (1, 8, 1, 63, 64, 48, 0, None, 1.0),
    (1, 4, 2, 65, 7, 64, 0, None, 1.0),       # rows past Nk see all
    (1, 2, 2, 64, 65, 80, -20, None, 1.0),    # rows that see no key
    (1, 2, 1, 100, 37, 96, 30, "bool", 1.0),
    (1, 2, 2, 37, 100, 128, None, "bool", 1.0),  # fully masked rows
    (1, 2, 2, 33, 70, 256, None, None, 1.0),
    (1, 8, 8, 65, 1000, 64, 935, None, 1.0),
    (1, 2, 2, 1000, 65, 32, 0, None, 1.0),
    (1, 4, 4, 40, 60, 64, None, None, 1e4),   # logits of +-1e4
    (1, 2, 1, 63, 63, 32, 0, "bool", 3e3),
]


def main():
    rng = np.random.default_rng(11)
    bad = 0
    for b, hq, hkv, nq, nk, d, off, mask, amp in CASES:
        q = (rng.standard_normal((b, hq, nq, d)) * np.sqrt(amp)).astype(np.float32)
        k = (rng.standard_normal((b, hkv, nk, d)) * np.sqrt(amp)).astype(np.float32)
        v = rng.standard_normal((b, hkv, nk, d)).astype(np.float32)
        do = rng.standard_normal((b, hq, nq, d)).astype(np.float32)
        keep = np.ones((nq, nk), bool)
        if off is not None:
            keep &= np.arange(nk)[None, :] <= np.arange(nq)[:, None] + off
        m = None
        if mask == "bool":
            m = rng.random((nq, nk)) > 0.4
            m[::5] = False  # fully masked rows
            keep &= m
        scale = 1.0 / np.sqrt(d)
        kw = dict(causal=off is not None, causal_offset=off, mask=m)
        o, lse = fm.attention(q, k, v, return_lse=True, **kw)
        grads = fm.attention_grad(q, k, v, o, lse, do, **kw)
        ours = (o, lse) + tuple(grads)
        exact = reference(q, k, v, do, scale, keep, np.float64)
        unfused = reference(q, k, v, do, scale, keep, np.float32)
        names = ("o", "lse", "dq", "dk", "dv")
        msgs, ok = [], True
        for n, x, r, u in zip(names, ours, exact, unfused):
            finite_ok = (not np.isnan(x).any() and
                         bool(np.all(np.isfinite(x) == np.isfinite(r))))
            # The rounding of a sum of n terms in another order: eps
            # sqrt(n) of the result's scale (n: keys for o, lse, dq; the
            # group's queries for dk, dv).
            terms = nk if n in ("o", "lse", "dq") else nq * (hq // hkv)
            floor = np.finfo(np.float32).eps * np.sqrt(terms) * max(
                1.0, float(np.abs(np.where(np.isfinite(r), r, 0)).max()))
            e, eu = err(x, r), err(u, r)
            good = finite_ok and e <= 2 * eu + floor
            ok &= good
            msgs.append(f"{n} {e:.1e}/{eu:.1e}{'' if good else ' FAIL'}")
        bad += not ok
        print(f"B={b} H={hq}/{hkv} Nq={nq} Nk={nk} d={d} offset={off} "
              f"mask={mask} amp={amp:g}: " + " ".join(msgs))
    if bad:
        print(f"grid: {bad} of {len(CASES)} cases FAIL")
    else:
        print(f"grid: {len(CASES)} cases, all within tolerance")


if __name__ == "__main__":
    main()
