"""GPU timing for the bench scripts: CUDA events around calls, medians."""


def timeit(fn, iters=10, warmup=3, calls=1):
    """Median seconds per call of fn (CUDA events around `calls` calls),
    after `warmup` calls."""
    import torch
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(iters):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(calls):
            fn()
        end.record()
        torch.cuda.synchronize()
        ts.append(start.elapsed_time(end) / 1e3 / calls)
    return sorted(ts)[len(ts) // 2]


def stream_time(fn, calls=10, iters=5, warmup=2):
    """Median seconds per call of `calls` back-to-back calls of fn between
    two CUDA events: the host's per-call work overlaps the GPU's (a
    training loop's view: the GPU time wherever a call's kernels take
    longer than its Python)."""
    return timeit(fn, iters, warmup, calls)


def graph_time(fn, calls=20, reps=10):
    """Median seconds per call of `fn`, from CUDA-graph replays of `calls`
    back-to-back calls (no Python in the timing)."""
    import torch
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(calls):
            fn()
    return timeit(g.replay, iters=reps, warmup=1) / calls
