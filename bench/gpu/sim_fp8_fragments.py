#!/usr/bin/env python3
"""The fp8 forward's P-fragment packing against V^T's key order, simulated
lane by lane on the CPU (no GPU): the A operand wgmma would see, built from
every lane's packed registers (MmaFragments::fp8PFragment), times the V^T
tile as Fp8TransposeV.cpp writes it, must equal P V. Under the PTX layouts
(docs/GPU-NOTES.md): C (m64nN f32): lane (g = lane // 4, q = lane % 4) of
warp w holds, per 8-column tile t, (row 16 w + g, columns 8 t + 2 q,
8 t + 2 q + 1) and the same of row 16 w + g + 8; A (8-bit, k32): register i
holds 4 consecutive k, low byte first: i = 0 row g, k 4 q..; i = 1 row
g + 8, same k; i = 2 row g, k 16 + 4 q..; i = 3 row g + 8, k 16 + 4 q..
Prints the error and `ok: 1`."""

import numpy as np
rng = np.random.default_rng(0)
T, Dv = 128, 128
P = rng.random((64, T))
V = rng.random((T, Dv))
def perm(kk):
    hi, q, r = kk // 16, (kk % 16) // 4, kk % 4
    return 16 * hi + 8 * (r // 2) + 2 * q + r % 2
# V^T as the transposer writes it (tile-local): VT[d][kk] = V[32(kk//32) + perm(kk%32)][d]
VT = np.zeros((Dv, T))
for d in range(Dv):
    for kk in range(T):
        VT[d, kk] = V[32 * (kk // 32) + perm(kk % 32), d]
# The A matrix wgmma sees, built from each lane's packed registers
# (MmaFragments::fp8PFragment).
A = np.full((64, T), np.nan)
for w in range(4):
    for lane in range(32):
        g, q = lane // 4, lane % 4
        # C tiles: tile t -> [[P[g][8t+2q], P[g][8t+2q+1]], [P[g+8][..], ..]]
        def C(t):
            r0, r1 = 16 * w + g, 16 * w + g + 8
            return [[P[r0, 8 * t + 2 * q], P[r0, 8 * t + 2 * q + 1]],
                    [P[r1, 8 * t + 2 * q], P[r1, 8 * t + 2 * q + 1]]]
        for step in range(T // 32):
            c = [C(4 * step + i) for i in range(4)]
            for reg in range(4):
                r, t = reg % 2, 2 * (reg // 2)
                word = [c[t][r][0], c[t][r][1], c[t + 1][r][0], c[t + 1][r][1]]
                row = 16 * w + g + 8 * r
                kbase = 32 * step + (16 if reg >= 2 else 0) + 4 * q
                for byte in range(4):
                    assert np.isnan(A[row, kbase + byte])
                    A[row, kbase + byte] = word[byte]
assert not np.isnan(A).any()
O = A @ VT.T  # wgmma: D[m][n] = sum_k A[m][k] B[k][n], B[k][n] = VT[n][k]
err = np.abs(O - P @ V).max()
print("max err", err)
print("ok:", int(err < 1e-9))
