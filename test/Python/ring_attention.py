# flash_mlir.distributed.ring_attention on gloo, 2 and 4 processes (forked,
# a FileStore rendezvous: no ports): contiguous and zig-zag shards, causal
# and not, shard lengths that are not multiples of the kernels' blocks, GQA
# (Hq = 4, Hkv = 2), and the modifiers: windows (asymmetric, smaller and
# larger than a shard, (left, 0) with causal) crossing shard boundaries,
# soft-capping, ALiBi, segment ids ([N] and [B, N]: packed documents of
# unequal lengths across shards), combined. Every rank's rows of o and its
# dq, dk, dv must equal single-process flash_mlir.attention on the whole
# sequence with the same options (max abs error <= 1e-5) and a float64
# torch computation with explicit position masks and biases (<= 2e-5).
# The check must be able to fail: a ring whose kernels get the causal
# offset, or the modifiers' diagonal offset, off by one must miss by far
# more. Bad calls (shard shapes that differ between ranks, a group of one,
# an unknown layout, an odd zig-zag shard, bad or differing modifiers)
# raise on every rank instead of hanging or computing. A hang fails the
# test (a deadline per group of processes).
# RUN: rm -rf %t && mkdir -p %t && env FLASH_MLIR_CACHE=%t/cache %python %s %t | FileCheck %s
# CHECK: merge: ok
# CHECK: plans: ok
# CHECK-NOT: FAIL
# CHECK: P=2 contiguous non-causal GQA n=37: ok
# CHECK: P=2 contiguous causal GQA n=37: ok
# CHECK: P=2 zigzag causal GQA n=38: ok
# CHECK: P=2 wrong causal offset: detected
# CHECK: P=2 wrong causal offset in the backward: detected
# CHECK: P=2 errors: ok
# CHECK: P=2 contiguous non-causal GQA n=67 window=(20, 9) softcap alibi segments: ok
# CHECK: P=2 wrong diagonal offset: detected
# CHECK: P=2 zigzag causal GQA n=130 window=(70, 0) softcap alibi segments: ok
# CHECK: P=4 contiguous causal GQA n=23: ok
# CHECK: P=4 contiguous non-causal GQA n=23: ok
# CHECK: P=4 zigzag causal GQA n=22: ok
# CHECK: P=4 contiguous causal GQA n=65 window=(70, 0) softcap alibi segments: ok
# CHECK: ring attention: all ok

import math
import os
import sys
import time
import traceback
from datetime import timedelta

# Gloo's pairs run on the loopback device (its default, the interface of
# the host name, may not exist in a container).
os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

import flash_mlir as fm
from flash_mlir import distributed as fd

TMP = sys.argv[1]
TOL_FLASH, TOL_F64 = 1e-5, 2e-5
DEADLINE_S = 120  # per group of processes
failed = []


def fail(msg):
    failed.append(msg)
    print("FAIL:", msg, flush=True)


# The merge: -inf rows (no key seen yet / at all) never make a NaN ---------
def check_merge():
    o = torch.zeros(3, 2)
    lse = torch.tensor([-math.inf, -math.inf, 0.5])
    op = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    lp = torch.tensor([-math.inf, 1.0, -math.inf])
    o[2] = torch.tensor([7.0, 8.0])
    fd.merge(o, lse, op, lp)
    want_o = torch.tensor([[0.0, 0.0], [3.0, 4.0], [7.0, 8.0]])
    want_l = torch.tensor([-math.inf, 1.0, 0.5])
    # Two finite parts: the exact log-sum-exp weights.
    o2, l2 = torch.tensor([[1.0, 0.0]]), torch.tensor([0.0])
    fd.merge(o2, l2, torch.tensor([[0.0, 1.0]]), torch.tensor([math.log(3)]))
    ok = (torch.equal(o, want_o) and torch.equal(lse, want_l) and
          torch.allclose(o2, torch.tensor([[0.25, 0.75]])) and
          torch.allclose(l2, torch.tensor([math.log(4)])))
    print("merge:", "ok" if ok else f"FAIL {o} {lse} {o2} {l2}")
    if not ok:
        failed.append("merge")


# The step plans: which calls, which offsets --------------------------------
def check_plans():
    def plan(P, n, layout, r, s):
        return [(c.q0, c.q1, c.k0, c.k1, c.offset) for c in fd.step_calls(
            fd.segments(n, r, P, layout), fd.segments(n, s, P, layout), True)]
    want = {
        # contiguous: past shards whole, the own one causal, future skipped
        (4, 5, "contiguous", 2, 1): [(0, 5, 0, 5, None)],
        (4, 5, "contiguous", 2, 2): [(0, 5, 0, 5, 0)],
        (4, 5, "contiguous", 2, 3): [],
        # zig-zag (chunks of 3): own shard causal; an earlier rank's first
        # chunk seen by all rows; a later rank's shard by the second chunk
        (4, 6, "zigzag", 1, 1): [(0, 6, 0, 6, 0)],
        (4, 6, "zigzag", 1, 0): [(0, 6, 0, 3, None)],
        (4, 6, "zigzag", 1, 3): [(3, 6, 0, 6, None)],
    }
    bad = {k: plan(*k) for k, w in want.items() if plan(*k) != w}

    # With modifiers: (calls as (q0, q1, k0, k1, offset, diagonal)).
    def mplan(P, n, layout, r, s, causal, **mods):
        m = fd.Modifiers.of(**mods)
        return [(c.q0, c.q1, c.k0, c.k1, c.offset, c.diagonal) for c in
                m.calls(fd.segments(n, r, P, layout),
                        fd.segments(n, s, P, layout), causal)]
    ids = np.array([0] * 7 + [1] * 8 + [2] * 5)
    mwant = [
        # a window (3, 0) hides the shard two before, not the one before
        # (its keys all visible: no causal mask); its diagonal is 5
        ((4, 5, "contiguous", 2, 0, True), dict(window=(3, 0)), []),
        ((4, 5, "contiguous", 2, 1, True), dict(window=(3, 0)),
         [(0, 5, 0, 5, None, 5)]),
        # non-causal: the window's right side reaches the next shard only
        ((4, 5, "contiguous", 1, 2, False), dict(window=(-1, 2)),
         [(0, 5, 0, 5, None, -5)]),
        ((4, 5, "contiguous", 1, 3, False), dict(window=(-1, 2)), []),
        # ALiBi: zig-zag chunks at different distances need a call each
        # (one call without it, above)
        ((4, 6, "zigzag", 1, 0, True), dict(alibi_slopes=np.ones(4)),
         [(0, 3, 0, 3, None, 3), (3, 6, 0, 3, None, 18)]),
        # documents: shard 3 (ids 2) shares none with shard 1 (ids 1)
        ((4, 5, "contiguous", 3, 1, False), dict(segment_ids=ids), []),
        ((4, 5, "contiguous", 2, 1, False), dict(segment_ids=ids),
         [(0, 5, 0, 5, None, None)]),
    ]
    for args, mods, w in mwant:
        got = mplan(*args, **mods)
        if got != w:
            bad[args + tuple(mods)] = got
    print("plans:", "ok" if not bad else f"FAIL {bad}")
    if bad:
        failed.append("plans")


# References on the whole sequence, computed once in the parent -------------
def reference_f64(q, k, v, do, causal, window=None, softcap=None,
                  alibi_slopes=None, segment_ids=None):
    q, k, v, do = (t.double().requires_grad_() for t in (q, k, v, do))
    g = q.shape[1] // k.shape[1]
    kx, vx = (t.repeat_interleave(g, dim=1) for t in (k, v))
    s = q @ kx.transpose(-1, -2) / math.sqrt(q.shape[-1])
    pos = torch.arange(q.shape[2])
    i, j = pos[:, None], pos[None, :]
    keep = torch.ones(len(pos), len(pos), dtype=torch.bool)
    if causal:
        keep &= j <= i
    if window is not None:
        keep &= (j >= i - window[0]) & (j <= i + window[1])
    if softcap is not None:
        s = softcap * torch.tanh(s / softcap)
    if alibi_slopes is not None:
        s = s - torch.as_tensor(alibi_slopes).double()[:, None, None] * \
            (i - j).abs()
    if segment_ids is not None:
        ids = torch.as_tensor(segment_ids)
        same = ids[..., :, None] == ids[..., None, :]
        keep = keep & (same[:, None] if ids.dim() == 2 else same)
    s = s.masked_fill(~keep, -math.inf)
    o = torch.softmax(s, dim=-1) @ vx
    o.backward(do)
    return [o.detach(), q.grad, k.grad, v.grad]


def reference_flash(q, k, v, do, causal, **mods):
    q, k, v = (t.clone().requires_grad_() for t in (q, k, v))
    o = fm.attention(q, k, v, causal=causal, **mods)
    o.backward(do)
    return [o.detach(), q.grad, k.grad, v.grad]


def documents(*lengths):
    """Segment ids of packed documents of these lengths."""
    return np.repeat(np.arange(len(lengths)), lengths).astype(np.int32)


def make_case(P, n, layout, causal, seed, B=1, hq=4, hkv=2, d=32, **mods):
    """A case; `mods`: ring_attention's modifier keywords (window: sizes
    that are not -1 here, as reference_f64 takes them)."""
    g = torch.Generator().manual_seed(seed)
    N = P * n
    q, do = (torch.randn(B, hq, N, d, generator=g) for _ in range(2))
    k, v = (torch.randn(B, hkv, N, d, generator=g) for _ in range(2))
    name = (f"P={P} {layout} {'causal' if causal else 'non-causal'} GQA "
            f"n={n}")
    for key, val in mods.items():
        name += f" {key}={val}" if key == "window" else " " + {
            "softcap": "softcap", "alibi_slopes": "alibi",
            "segment_ids": "segments"}[key]
    return dict(name=name, layout=layout, causal=causal, n=n, mods=mods,
                inputs=(q, k, v, do),
                flash=reference_flash(q, k, v, do, causal, **mods),
                f64=reference_f64(q, k, v, do, causal, **mods))


def my_rows(P, n, rank, layout):
    """This rank's global positions, written out here (not by fd)."""
    if layout == "contiguous":
        return list(range(rank * n, (rank + 1) * n))
    c = n // 2
    return (list(range(rank * c, (rank + 1) * c)) +
            list(range((2 * P - 1 - rank) * c, (2 * P - rank) * c)))


def run_case(case, rank, P):
    rows = torch.tensor(my_rows(P, case["n"], rank, case["layout"]))
    q, k, v, do = (t.index_select(2, rows) for t in case["inputs"])
    q, k, v = (t.clone().requires_grad_() for t in (q, k, v))
    o = fd.ring_attention(q, k, v, causal=case["causal"],
                          layout=case["layout"], **case.get("mods", {}))
    o.backward(do)
    got = [o.detach(), q.grad, k.grad, v.grad]
    errs = {}
    for which in ("flash", "f64"):
        want = [t.index_select(2, rows).float() for t in case[which]]
        # o, dq, dk, dv
        errs[which] = [(a - b).abs().max().item() for a, b in zip(got, want)]
    errs["nan"] = any(bool(torch.isnan(t).any()) for t in got)
    return errs


# Workers --------------------------------------------------------------------
def expect_error(what, fn, needle):
    try:
        fn()
    except (ValueError, TypeError) as e:
        if needle in str(e):
            return None
        return f"{what}: wrong message: {e}"
    return f"{what}: no error"


def error_cases(rank, P):
    x = torch.randn(1, 2, 6, 16)
    problems = [
        # rank 1's shard is one row longer: both ranks must raise
        expect_error("mismatched shards",
                     lambda: fd.ring_attention(
                         *(3 * [x if rank == 0 else torch.randn(1, 2, 7, 16)])),
                     "disagree"),
        # a rank with a bad argument raises its own error, the others too
        expect_error("one rank's odd zigzag shard",
                     lambda: fd.ring_attention(
                         *(3 * [x if rank == 0 else torch.randn(1, 2, 7, 16)]),
                         causal=True, layout="zigzag"),
                     "rejected" if rank == 0 else "odd"),
        expect_error("unknown layout",
                     lambda: fd.ring_attention(x, x, x, layout="striped"),
                     "layout must be"),
        expect_error("GQA heads",
                     lambda: fd.ring_attention(torch.randn(1, 3, 6, 16), x, x),
                     "multiple"),
    ]
    # A group of one rank (every rank makes both groups, uses its own).
    solo = [dist.new_group([r]) for r in range(P)][rank]
    problems.append(expect_error(
        "group of one", lambda: fd.ring_attention(x, x, x, group=solo),
        "at least 2"))
    # Modifiers: checked by flash_mlir.attention's rules for the whole
    # sequence, and the same on every rank.
    problems += [
        expect_error("bad window",
                     lambda: fd.ring_attention(x, x, x, window=(-3, 2)),
                     "window sizes must be >= -1"),
        expect_error("segment ids of the shard",
                     lambda: fd.ring_attention(x, x, x,
                                               segment_ids=np.zeros(6)),
                     "one id per position"),
        expect_error("different windows",
                     lambda: fd.ring_attention(x, x, x,
                                               window=(2 + rank, 2)),
                     "disagree"),
        expect_error("different segment ids",
                     lambda: fd.ring_attention(
                         x, x, x, segment_ids=documents(5 + rank,
                                                        6 * P - 5 - rank)),
                     "disagree"),
        expect_error("one rank's slopes",
                     lambda: fd.ring_attention(
                         x, x, x, alibi_slopes=torch.ones(2 + (rank == 0))),
                     "alibi_slopes must have shape" if rank == 0 else
                     "rejected"),
        expect_error("softcap", lambda: fd.ring_attention(x, x, x,
                                                          softcap=-1.0),
                     "softcap must be"),
    ]
    # The ring still works after the refused calls.
    y = [torch.randn(1, 2, 12, 16, generator=torch.Generator().manual_seed(s))
         for s in range(3)]
    rows = torch.tensor(my_rows(P, 6, rank, "contiguous"))
    o = fd.ring_attention(*(t.index_select(2, rows) for t in y))
    want = torch.from_numpy(fm.attention(*y)).index_select(2, rows)
    if (want - o).abs().max() > TOL_FLASH:
        problems.append("ring after errors: wrong result")
    return [p for p in problems if p]


def wrong_offset(case, rank, P):
    """The case with offsets off by one: the causal offsets of the forward
    and the backward (case["mutant"] == "both"), of the backward only
    ("grad"), or the modifiers' diagonal offsets of both ("diagonal")."""
    good_fwd, good_bwd = fm.attention, fm.attention_grad
    key = "mod_offset" if case["mutant"] == "diagonal" else "causal_offset"

    def shift(kw):
        if kw.get(key) is not None:
            kw[key] += 1
        return kw

    if case["mutant"] != "grad":
        fm.attention = lambda *a, **kw: good_fwd(*a, **shift(kw))
    fm.attention_grad = lambda *a, **kw: good_bwd(*a, **shift(kw))
    try:
        return run_case(case, rank, P)
    finally:
        fm.attention, fm.attention_grad = good_fwd, good_bwd


def worker(rank, P, cases, store, queue):
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank,
                            world_size=P, timeout=timedelta(seconds=60))
    try:
        for case in cases:
            if case.get("mutant"):
                queue.put((case["name"], rank, wrong_offset(case, rank, P)))
            elif case.get("errors"):
                queue.put((case["name"], rank, error_cases(rank, P)))
            else:
                queue.put((case["name"], rank, run_case(case, rank, P)))
    finally:
        dist.destroy_process_group()


def run_group(P, cases):
    ctx = mp.get_context("fork")
    queue = ctx.SimpleQueue()
    store = os.path.join(TMP, f"store-{P}")
    pc = mp.start_processes(worker, args=(P, cases, store, queue), nprocs=P,
                            join=False, start_method="fork")
    deadline = time.time() + DEADLINE_S
    try:
        while not pc.join(timeout=max(0.1, deadline - time.time())):
            if time.time() > deadline:
                fail(f"P={P}: the processes did not finish in {DEADLINE_S} s "
                     f"(a hang?)")
                for p in pc.processes:
                    if p.is_alive():
                        p.kill()
                break
    except Exception:
        fail(f"P={P}: a worker raised:\n{traceback.format_exc()}")
        for p in pc.processes:
            if p.is_alive():
                p.kill()
    got = {}
    while not queue.empty():
        name, rank, res = queue.get()
        got.setdefault(name, {})[rank] = res
    for case in cases:
        res = got.get(case["name"], {})
        if len(res) != P:
            fail(f"{case['name']}: results from ranks {sorted(res)} only")
            continue
        if case.get("errors"):
            probs = [p for r in res.values() for p in r]
            print(f"{case['name']}:", "ok" if not probs else "FAIL",
                  *probs, flush=True)
            if probs:
                failed.append(case["name"])
            continue
        each = [max(r["flash"][i] for r in res.values()) for i in range(4)]
        e_flash = max(each)
        e_f64 = max(max(r["f64"]) for r in res.values())
        nan = any(r["nan"] for r in res.values())
        if case.get("mutant"):
            # Wrong offsets in the forward show in o; in the backward alone,
            # o is right and the gradients are not.
            ok = (each[0] > 1e-2 if case["mutant"] != "grad" else
                  each[0] <= TOL_FLASH) and max(each[1:]) > 1e-2
            print(f"{case['name']}: {'detected' if ok else 'FAIL'} (max error "
                  f"of o {each[0]:.2g}, of dq, dk, dv {max(each[1:]):.2g})",
                  flush=True)
        else:
            ok = e_flash <= TOL_FLASH and e_f64 <= TOL_F64 and not nan
            print(f"{case['name']}: {'ok' if ok else 'FAIL'} (max error vs "
                  f"flash_mlir.attention {e_flash:.2g}, vs float64 "
                  f"{e_f64:.2g}{', NaN' if nan else ''})", flush=True)
        if not ok:
            failed.append(case["name"])


t0 = time.time()
check_merge()
check_plans()
causal2 = make_case(2, 37, "contiguous", True, 2)
# The modifiers' cases: few kernel configurations (each compiles; the
# last two share all modifiers and the reference), shards of 65 or more
# keys (the CPU backward of a mask_mod that reads a captured operand below
# one key block, 64, is modifiers_api.py's default-blocks case). Every
# window crosses shard boundaries, one is smaller than a shard, one
# larger; the documents cross them too, and some shards share none
# (steps skipped; the second sequence's documents keep them apart).
slopes = torch.tensor([0.5, 0.25, 0.125, 0.0625])
mods2 = make_case(2, 67, "contiguous", False, 7, d=16, window=(20, 9),
                  softcap=2.0, alibi_slopes=slopes,
                  segment_ids=torch.from_numpy(documents(50, 40, 44)))
causal_mods = dict(window=(70, 0), softcap=1.5, alibi_slopes=slopes.numpy())
docs = np.stack([documents(100, 60, 100), documents(110, 50, 100)])
run_group(2, [
    make_case(2, 37, "contiguous", False, 1),
    causal2,
    make_case(2, 38, "zigzag", True, 3),
    dict(causal2, name="P=2 wrong causal offset", mutant="both"),
    dict(causal2, name="P=2 wrong causal offset in the backward",
         mutant="grad"),
    dict(name="P=2 errors", errors=True),
    mods2,
    dict(mods2, name="P=2 wrong diagonal offset", mutant="diagonal"),
    make_case(2, 130, "zigzag", True, 8, B=2, d=16, **causal_mods,
              segment_ids=docs),
])
run_group(4, [
    make_case(4, 23, "contiguous", True, 4),
    make_case(4, 23, "contiguous", False, 5),
    make_case(4, 22, "zigzag", True, 6),
    make_case(4, 65, "contiguous", True, 9, B=2, d=16, **causal_mods,
              segment_ids=docs),
])
print(f"time: {time.time() - t0:.1f} s", flush=True)
if failed:
    print("FAIL:", ", ".join(failed))
    sys.exit(1)
print("ring attention: all ok")
