#!/usr/bin/env python3
"""CPU benchmark of flash_mlir.distributed.ring_attention on gloo: P
processes (default 2) on this machine, f32, each rank's steps on our CPU
kernels (one thread per rank).

For every (N, causal) it reports, forward and forward + backward:
  - the time per ring step on each rank (compute, and the wait for the K/V
    transfer that ran during it),
  - the ring's total time against single-process flash_mlir.attention on
    the whole sequence (the same kernels, one process),
  - the overlap achieved: the transfers of one pass measured alone (the
    same sends and receives, no compute) against the wait left after the
    compute: overlap = (comm alone - exposed wait) / comm alone.

  /usr/bin/python3 bench/cpu/bench_ring.py [--ns 4096,8192] [--procs 2]
      [--heads 4] [--kv-heads 4] [--d 64] [--reps 3]
      [--kinds full,causal,zigzag]
"""

import argparse
import os
import sys
import tempfile
import time
from datetime import timedelta

os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

import flash_mlir as fm  # noqa: E402
from flash_mlir import distributed as fd  # noqa: E402


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown CPU"


def best(fn, reps):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def single(q, k, v, do, causal, reps):
    """Seconds of one forward and of one forward + backward on one process."""
    fwd = best(lambda: fm.attention(q, k, v, causal=causal), reps)

    def both():
        qq, kk, vv = (t.clone().requires_grad_() for t in (q, k, v))
        fm.attention(qq, kk, vv, causal=causal).backward(do)
    both()  # compile the backward
    return fwd, best(both, reps)


def comm_alone(ring, k, v, reps):
    """Seconds of the forward's and the backward's transfers without any
    compute: P - 1 K/V exchanges, and P - 1 K/V plus P accumulator ones."""
    kv = torch.cat([k.reshape(-1), v.reshape(-1)])
    acc = torch.zeros(kv.numel(), dtype=torch.float32)
    bufs = [torch.empty_like(kv), torch.empty_like(acc)]

    def fwd():
        for _ in range(ring.size - 1):
            for w in ring.exchange([(kv, bufs[0], 0)]):
                w.wait()

    def bwd():
        for step in range(ring.size + 1):
            sends = ([(acc, bufs[1], 1)] if step else []) + (
                [(kv, bufs[0], 0)] if step < ring.size - 1 else [])
            for w in ring.exchange(sends):
                w.wait()
    dist.barrier()
    f = best(fwd, reps)
    dist.barrier()
    b = best(bwd, reps)
    return f, b


def worker(rank, P, cases, reps, store, queue):
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank,
                            world_size=P, timeout=timedelta(seconds=300))
    ring = fd._Ring(None)
    torch.set_num_threads(1)
    for name, (q, k, v, do), causal, layout in cases:
        rows = lambda t: fd.shard_sequence(t, rank, P, layout)  # noqa: E731
        ql, kl, vl, dol = (rows(t) for t in (q, k, v, do))

        def run(timings=None, backward=True):
            qq, kk, vv = (t.clone().requires_grad_(backward)
                          for t in (ql, kl, vl))
            o = fd.ring_attention(qq, kk, vv, causal=causal, layout=layout,
                                  timings=timings)
            if backward:
                o.backward(dol)
        run()  # compile
        dist.barrier()
        res = {"comm": comm_alone(ring, kl, vl, reps)}
        for phase, backward in (("forward", False), ("both", True)):
            runs = []
            for _ in range(reps):
                tm = []
                dist.barrier()
                t = time.perf_counter()
                run(tm, backward)
                runs.append((time.perf_counter() - t, tm))
            res[phase] = min(runs, key=lambda r: r[0])
        queue.put((name, rank, res))
    dist.destroy_process_group()


def summarize(name, single_t, per_rank, P):
    fwd1, both1 = single_t
    lines = [f"### {name}", ""]
    lines.append("| pass | rank | steps: compute / wait (ms) | total (ms) | "
                 "comm alone (ms) | exposed wait (ms) | overlap |")
    lines.append("|---|---|---|---|---|---|---|")
    totals = {}
    for phase, which in (("forward", "forward"), ("both", "backward")):
        for rank in sorted(per_rank):
            res = per_rank[rank]
            total, tm = res[phase]
            comm = res["comm"][0 if phase == "forward" else 1]
            steps = [t for t in tm if t["phase"] == which]
            exposed = sum(t["wait_s"] for t in steps)
            hidden = max(0.0, comm - exposed)
            desc = ", ".join(f"{1e3 * t['compute_s']:.1f} / "
                             f"{1e3 * t['wait_s']:.1f}" for t in steps)
            label = "forward" if phase == "forward" else "backward (of fwd+bwd)"
            lines.append(f"| {label} | {rank} | {desc} | {1e3 * total:.0f} | "
                         f"{1e3 * comm:.1f} | {1e3 * exposed:.1f} | "
                         f"{100 * hidden / comm if comm else 0:.0f}% |")
            totals.setdefault(phase, []).append(total)
    f_ring, b_ring = max(totals["forward"]), max(totals["both"])
    lines += ["", f"single process: forward {1e3 * fwd1:.0f} ms, forward + "
              f"backward {1e3 * both1:.0f} ms; ring of {P}: forward "
              f"{1e3 * f_ring:.0f} ms ({fwd1 / f_ring:.2f}x), forward + "
              f"backward {1e3 * b_ring:.0f} ms ({both1 / b_ring:.2f}x)", ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ns", default="4096,8192")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--kv-heads", type=int, default=4)
    ap.add_argument("--d", type=int, default=64)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--kinds", default="full,causal,zigzag",
                    help="non-causal (contiguous), causal contiguous, causal "
                    "zig-zag")
    args = ap.parse_args()
    P = args.procs
    load = os.getloadavg()[0]
    torch.set_num_threads(1)
    cases, singles = [], {}
    kinds = {"full": (False, "contiguous"), "causal": (True, "contiguous"),
             "zigzag": (True, "zigzag")}
    for n in (int(x) for x in args.ns.split(",")):
        for causal, layout in (kinds[x] for x in args.kinds.split(",")):
            g = torch.Generator().manual_seed(n)
            q, do = (torch.randn(1, args.heads, n, args.d, generator=g)
                     for _ in range(2))
            k, v = (torch.randn(1, args.kv_heads, n, args.d, generator=g)
                    for _ in range(2))
            name = (f"N = {n}, {'causal' if causal else 'non-causal'}, "
                    f"{layout}, H = {args.heads}/{args.kv_heads}, "
                    f"d = {args.d}")
            cases.append((name, (q, k, v, do), causal, layout))
            singles[name] = single(q, k, v, do, causal, args.reps)
    ctx = mp.get_context("fork")
    queue = ctx.SimpleQueue()
    with tempfile.TemporaryDirectory() as tmp:
        pc = mp.start_processes(worker, args=(P, cases, args.reps,
                                              os.path.join(tmp, "store"),
                                              queue),
                                nprocs=P, join=False, start_method="fork")
        got = {}
        while len(got) < len(cases) * P:
            name, rank, res = queue.get()
            got[(name, rank)] = res
        while not pc.join():
            pass
    print(f"{cpu_model()}, {os.cpu_count()} cores (load average "
          f"{load:.2f} before, {os.getloadavg()[0]:.2f} after); {P} "
          f"processes on gloo (loopback), f32, one thread per rank\n")
    for name, *_ in cases:
        per_rank = {r: got[(name, r)] for r in range(P)}
        print(summarize(name, singles[name], per_rank, P))


if __name__ == "__main__":
    main()
