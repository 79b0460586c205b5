"""Context-parallel (ring) attention on torch.distributed.

`ring_attention(q, k, v, group=None, causal=False, scale=None,
layout="contiguous", window=None, softcap=None, alibi_slopes=None,
segment_ids=None)`: every rank of `group` holds one shard of the
sequence, q [B, Hq, n, D], k [B, Hkv, n, D], v [B, Hkv, n, Dv] (Hq a
multiple of Hkv: GQA), and gets its rows of softmax(scale q kᵀ) v over the
whole sequence of P·n positions, with autograd. The modifiers mean what
they mean to flash_mlir.attention on the whole sequence.

The ring: the K/V shards travel around the group (rank r sends to r + 1 and
receives from r - 1 with batched point-to-point ops), each transfer started
before the step that computes on the shard already here. A step is one or
a few calls of `flash_mlir.attention(..., return_lse=True)` — our CPU kernels
for CPU tensors (gloo), our CUDA kernels for CUDA tensors (NCCL) — and its
(o, lse) are merged exactly by log-sum-exp. Causal alignment between shards
is a causal offset: a query at global position qs + i sees the key at
ks + j iff j <= i + (qs - ks); steps whose keys all lie in the future are
skipped, steps whose keys are all visible run without the causal mask.
The window and ALiBi measure the same global distance: each call gives
them the diagonal qs - ks as `mod_offset` (a run-time argument: one kernel
for every step); segment ids are the global ids of the call's queries and
keys. Steps that the window (with causal) or the documents leave without a
visible pair are skipped too.

The backward replays the ring with `flash_mlir.attention_grad` fed with the
merged o and lse: P = exp(S - lse) and D = rowsum(dO ∘ O) are then those of
the whole sequence, so each step gives exactly its share of dq, dk, dv. dq
accumulates here; the dK/dV accumulators travel with the K/V shards and end
at their owner. Memory per rank is O(n · D): two K/V shards, two
accumulators, the merged o and lse.

Layouts: "contiguous" (rank r holds positions [r n, (r + 1) n)) and
"zigzag" (the sequence in 2P chunks of n / 2; rank r holds chunks r and
2P - 1 - r, which balances the causal work across ranks). `shard_sequence`
cuts a full tensor into a rank's shard in either layout.
"""

import math
import zlib
from dataclasses import dataclass

import numpy as np

LAYOUTS = ("contiguous", "zigzag")

# Tags of the two streams of messages between neighbours (gloo matches by
# tag; NCCL by order, which the ring keeps the same on every rank).
_TAG_KV, _TAG_DKV = 0, 1


@dataclass(frozen=True)
class Segment:
    """A run of positions of one shard: global positions [start, start +
    length) stored at local rows [local, local + length)."""
    start: int
    local: int
    length: int


def segments(n, rank, world_size, layout):
    """The runs of global positions that `rank`'s shard of n rows holds."""
    if layout == "contiguous":
        return (Segment(rank * n, 0, n),)
    c = n // 2
    return (Segment(rank * c, 0, c),
            Segment((2 * world_size - 1 - rank) * c, c, c))


def positions(n, rank, world_size, layout):
    """The global positions of `rank`'s n rows, in their order."""
    return [s.start + i for s in segments(n, rank, world_size, layout)
            for i in range(s.length)]


def shard_sequence(x, rank, world_size, layout="contiguous", dim=-2):
    """`rank`'s shard of the full tensor `x` (sequence along `dim`)."""
    _check_layout(layout)
    n_all = x.shape[dim]
    parts = world_size * (2 if layout == "zigzag" else 1)
    if n_all % parts:
        raise ValueError(f"a sequence of {n_all} positions does not split "
                         f"into {parts} equal chunks ({layout} layout, "
                         f"{world_size} ranks)")
    idx = positions(n_all // world_size, rank, world_size, layout)
    import torch
    return x.index_select(dim, torch.tensor(idx, device=x.device))


def _check_layout(layout):
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")


# One step's calls -----------------------------------------------------------

@dataclass(frozen=True)
class Call:
    """One kernel call of a step: local query rows [q0, q1) against local
    key rows [k0, k1), with the causal offset `offset` (None: no mask) and
    the window's and ALiBi's diagonal offset `diagonal` (query row q0 + i
    and key row k0 + j are j - i - diagonal apart in the sequence; None
    when no modifier needs it)."""
    q0: int
    q1: int
    k0: int
    k1: int
    offset: object
    diagonal: object = None


def _visible(off, nq, nk):
    """What j <= i + off keeps of an nq x nk block, as one canonical value:
    -nq (nothing), nk - 1 (everything) or the offset itself in between."""
    return max(-nq, min(nk - 1, off))


def _single_call(qsegs, ksegs, causal, positional):
    """One call over the local rows the segments span, if one causal offset
    (or none) keeps exactly the keys each query sees and, `positional`,
    one diagonal offset places every pair; else None."""
    q0, q1 = qsegs[0].local, qsegs[-1].local + qsegs[-1].length
    k0, k1 = ksegs[0].local, ksegs[-1].local + ksegs[-1].length
    if (sum(s.length for s in qsegs) != q1 - q0 or
            sum(s.length for s in ksegs) != k1 - k0):
        return None  # not adjacent in local rows
    pairs = [(a, b) for a in qsegs for b in ksegs]
    # In the call's rows, query a.local + i and key b.local + j are the
    # sequence's a.start + i and b.start + j: the pair's diagonal.
    diags = [a.start - b.start - (a.local - q0) + (b.local - k0)
             for a, b in pairs]
    diag = None
    if positional:
        if len(set(diags)) > 1:
            return None
        diag = diags[0]

    def fits(off):
        # The call keeps j <= i + off + (a.local - q0) - (b.local - k0),
        # the sequence keeps j <= i + a.start - b.start.
        return all(_visible(off + (a.local - q0) - (b.local - k0),
                            a.length, b.length) ==
                   _visible(a.start - b.start, a.length, b.length)
                   for a, b in pairs)

    if not causal or all(_visible(a.start - b.start, a.length, b.length) ==
                         b.length - 1 for a, b in pairs):
        return Call(q0, q1, k0, k1, None, diag)
    for off in diags:
        if fits(off):
            return Call(q0, q1, k0, k1, off, diag)
    return None


def step_calls(qsegs, ksegs, causal, window=None, alibi=False, apart=None):
    """The kernel calls that attend queries `qsegs` to keys `ksegs` (causal,
    `window` = (left, right) as flash_mlir.attention takes it: by global
    position). Segment pairs with no visible query-key pair are left out
    (also those `apart(a, b)` says share no document); the rest take one
    call where one causal offset (and, with a window or ALiBi, one
    diagonal) describes them, else one call per query segment or pair."""
    lo, hi = -math.inf, math.inf  # the visible j - i (global)
    if window is not None:
        lo = -math.inf if window[0] == -1 else -window[0]
        hi = math.inf if window[1] == -1 else window[1]
    if causal:
        hi = min(hi, 0)

    def sees(a, b):
        # j - i takes every value between these two over the pair.
        d = b.start - a.start
        return (d - a.length + 1 <= hi and d + b.length - 1 >= lo and
                not (apart is not None and apart(a, b)))

    positional = window is not None or alibi
    ks = [b for b in ksegs if any(sees(a, b) for a in qsegs)]
    qs = [a for a in qsegs if any(sees(a, b) for b in ks)]
    if not qs:
        return []
    one = _single_call(qs, ks, causal, positional)
    if one is not None:
        return [one]
    calls = []
    for a in qs:
        kv = [b for b in ks if sees(a, b)]
        one = _single_call([a], kv, causal, positional)
        if one is not None:
            calls.append(one)
            continue
        for b in kv:
            calls.append(_single_call([a], [b], causal, positional))
    return calls


# The modifiers ---------------------------------------------------------------

def _host(x):
    """x (a torch tensor anywhere, or array-like) as a numpy array."""
    if hasattr(x, "detach"):
        return x.detach().cpu().numpy()
    return np.asarray(x)


@dataclass(frozen=True)
class Modifiers:
    """A ring's modifiers with their global meaning: `window` (left, right)
    or None, `softcap`, `alibi_slopes` (as given, [Hq]) and `ids`, the
    (query, key) segment ids of every position (numpy int32 [N] or
    [B, N]) or None."""
    window: object = None
    softcap: object = None
    alibi_slopes: object = None
    ids: object = None

    @classmethod
    def of(cls, window=None, softcap=None, alibi_slopes=None,
           segment_ids=None):
        """From ring_attention's (checked) keywords."""
        if window is not None:
            window = tuple(int(w) for w in window)
            window = None if window == (-1, -1) else window
        ids = None
        if segment_ids is not None:
            pair = isinstance(segment_ids, (tuple, list)) and \
                len(segment_ids) == 2
            ids = tuple(_host(x).astype(np.int32) for x in (
                segment_ids if pair else (segment_ids, segment_ids)))
        return cls(window, softcap or None, alibi_slopes, ids)

    def signature(self):
        """Integers every rank must agree on (window, soft-cap bits, CRCs of
        the slopes and the segment ids)."""
        def crc(*xs):
            return zlib.crc32(b"".join(np.ascontiguousarray(x).tobytes()
                                       for x in xs))
        return [*(self.window or (-2, -2)),
                0 if self.softcap is None else
                int(np.float64(float(self.softcap)).view(np.int64)),
                -1 if self.alibi_slopes is None else
                crc(_host(self.alibi_slopes).astype(np.float32)),
                -1 if self.ids is None else crc(*self.ids)]

    def _apart(self, a, b):
        """Whether the queries of segment a and the keys of segment b share
        no document (in any sequence of the batch)."""
        sq = self.ids[0][..., a.start:a.start + a.length].reshape(-1, a.length)
        sk = self.ids[1][..., b.start:b.start + b.length].reshape(-1, b.length)
        return not any(np.intersect1d(x, y).size for x, y in zip(sq, sk))

    def calls(self, qsegs, ksegs, causal):
        """step_calls with these modifiers."""
        return step_calls(qsegs, ksegs, causal, self.window,
                          self.alibi_slopes is not None,
                          None if self.ids is None else self._apart)

    def keywords(self, call, qpos, kpos):
        """flash_mlir.attention's modifier keywords for `call`, whose local
        query and key rows are at global positions qpos and kpos."""
        kw = dict(window=self.window, softcap=self.softcap,
                  alibi_slopes=self.alibi_slopes, mod_offset=call.diagonal)
        if self.ids is not None:
            kw["segment_ids"] = (self.ids[0][..., qpos[call.q0:call.q1]],
                                 self.ids[1][..., kpos[call.k0:call.k1]])
        return kw


def _mods_problem(q, k, size, mods):
    """What is wrong with the modifier keywords `mods` (window, softcap,
    alibi_slopes, segment_ids), by flash_mlir.attention's rules for the
    whole sequence (a message), or None."""
    from . import _modifiers, program

    n = size * q.shape[2]
    cfg = program.Config(batch=[q.shape[0]], hq=q.shape[1], hkv=k.shape[1],
                         nq=n, nk=n, d=q.shape[3])
    try:
        _modifiers(cfg, None, None, *mods, as_array=lambda x, _: _host(x))
    except (TypeError, ValueError) as e:
        return str(e)
    return None


# The (o, lse) merge -----------------------------------------------------------

def merge(o, lse, o_part, lse_part):
    """o, lse (f32 accumulators, updated in place) merged with a partial
    result over other keys: lse' = log(e^lse + e^lse_part), o' = e^(lse -
    lse') o + e^(lse_part - lse') o_part. Rows that saw no key yet (lse =
    -inf) take the partial; rows no key reaches stay o = 0, lse = -inf."""
    import torch

    new = torch.maximum(lse, lse_part)
    # exp(-inf - -inf) would be NaN: rows where both are -inf get a finite
    # reference (0), so both weights are exp(-inf) = 0.
    ref = torch.where(torch.isfinite(new), new, torch.zeros_like(new))
    w_acc = torch.exp(lse - ref)
    w_part = torch.exp(lse_part - ref)
    total = w_acc + w_part
    seen = total > 0
    new = torch.where(seen, ref + torch.log(torch.where(seen, total,
                                                        torch.ones_like(total))),
                      new)
    scale = torch.where(seen, 1 / torch.where(seen, total,
                                              torch.ones_like(total)),
                        torch.zeros_like(total))
    o.mul_((w_acc * scale).unsqueeze(-1)).add_(
        o_part.float() * (w_part * scale).unsqueeze(-1))
    lse.copy_(new)


# The ring -----------------------------------------------------------------

class _Ring:
    """The group, this rank's place in it and its neighbours' global ranks."""

    def __init__(self, group):
        import torch.distributed as dist

        if not dist.is_available() or not dist.is_initialized():
            raise RuntimeError("ring_attention needs torch.distributed: call "
                               "torch.distributed.init_process_group first")
        self.dist = dist
        self.group = group
        self.size = dist.get_world_size(group)
        if self.size < 0:
            raise ValueError("ring_attention: this rank is not in `group`")
        if self.size < 2:
            raise ValueError(f"ring_attention needs a group of at least 2 "
                             f"ranks, got {self.size} (on one process, call "
                             f"flash_mlir.attention)")
        self.rank = dist.get_rank(group)
        glob = getattr(dist, "get_global_rank", None) or \
            dist.distributed_c10d._get_global_rank
        if group is None or group is dist.group.WORLD:
            glob = lambda g, r: r  # noqa: E731
        self.next = glob(group, (self.rank + 1) % self.size)
        self.prev = glob(group, (self.rank - 1) % self.size)

    def exchange(self, sends):
        """Starts, for each (tensor, receive buffer, tag) of `sends`, a send
        of the tensor to the next rank and a receive from the previous one
        into the buffer; returns the works. Every rank issues the same
        sequence, so the messages match in order too (NCCL)."""
        dist = self.dist
        ops = []
        for tensor, buf, tag in sends:
            ops.append(dist.P2POp(dist.isend, tensor, self.next, self.group,
                                  tag))
            ops.append(dist.P2POp(dist.irecv, buf, self.prev, self.group,
                                  tag))
        return dist.batch_isend_irecv(ops) if ops else []

    def check_same(self, q, k, v, causal, scale, layout, mods, problem):
        """All ranks must call with the same shapes and options: the shards
        travel, and a rank that disagrees would compute garbage or hang.
        `problem`: what this rank found wrong with its own arguments, or
        None (then `mods`: the Modifiers). Every rank raises when any rank
        has a problem or they disagree (none is left waiting for the
        others)."""
        import torch

        if problem is None:
            dtype = (_DTYPES.index(str(q.dtype)) if str(q.dtype) in _DTYPES
                     else -1)
            bits = (0 if scale is None else
                    int(np.float64(float(scale)).view(np.int64)))
            sig = [1, *q.shape, *k.shape, *v.shape, dtype, int(bool(causal)),
                   LAYOUTS.index(layout), int(scale is not None), bits,
                   *mods.signature()]
        else:
            sig = [0] * 23
        device = q.device if hasattr(q, "device") else "cpu"
        mine = torch.tensor(sig, dtype=torch.int64, device=device)
        every = [torch.empty_like(mine) for _ in range(self.size)]
        self.dist.all_gather(every, mine, group=self.group)
        every = [t.tolist() for t in every]
        if problem is not None:
            raise ValueError(f"ring_attention: {problem}")
        bad = [r for r, e in enumerate(every) if not e[0]]
        if bad:
            raise ValueError(f"ring_attention: rank(s) {bad} of the group "
                             f"rejected their arguments (see their errors)")
        if any(e != every[0] for e in every):
            raise ValueError(
                "ring_attention: the ranks disagree on the shards' shapes or "
                "the options ([q shape, k shape, v shape, dtype, causal, "
                "layout, has scale, scale bits, window, softcap bits, CRC of "
                "alibi_slopes, CRC of segment_ids] per rank): " +
                "; ".join(f"rank {r}: {e[1:]}" for r, e in enumerate(every)))


_DTYPES = ["torch.float32", "torch.float16", "torch.bfloat16",
           "torch.float64"]


def _tensor(x, like):
    import torch

    if isinstance(x, np.ndarray):
        return torch.from_numpy(x).to(like.device)
    return x


def _timer(timings, device):
    """perf_counter, synchronizing CUDA first when timings are recorded."""
    import time

    if timings is None:
        return lambda: 0.0
    if device.type == "cuda":
        import torch

        def now():
            torch.cuda.synchronize(device)
            return time.perf_counter()
        return now
    return time.perf_counter


def _wait(works):
    for w in works:
        w.wait()


def _forward(ring, q, k, v, causal, scale, layout, mods, timings):
    """(o, lse) of this rank's queries against every shard's keys."""
    import torch

    from . import attention

    n = q.shape[2]
    qsegs = segments(n, ring.rank, ring.size, layout)
    qpos = np.array(positions(n, ring.rank, ring.size, layout))
    o = torch.zeros(*q.shape[:3], v.shape[3], dtype=torch.float32,
                    device=q.device)
    lse = torch.full(q.shape[:3], -math.inf, dtype=torch.float32,
                     device=q.device)
    nk = k.numel()
    cur = torch.cat([k.reshape(-1), v.reshape(-1)])
    nxt = torch.empty_like(cur)
    now = _timer(timings, q.device)
    for step in range(ring.size):
        src = (ring.rank - step) % ring.size
        t0 = now()
        works = (ring.exchange([(cur, nxt, _TAG_KV)])
                 if step < ring.size - 1 else [])
        ks = cur[:nk].view(k.shape)
        vs = cur[nk:].view(v.shape)
        calls = mods.calls(qsegs, segments(n, src, ring.size, layout), causal)
        kpos = np.array(positions(n, src, ring.size, layout))
        for c in calls:
            oc, lc = attention(q[:, :, c.q0:c.q1], ks[:, :, c.k0:c.k1],
                               vs[:, :, c.k0:c.k1], causal=c.offset is not None,
                               causal_offset=c.offset, scale=scale,
                               return_lse=True,
                               **mods.keywords(c, qpos, kpos))
            merge(o[:, :, c.q0:c.q1], lse[:, :, c.q0:c.q1], _tensor(oc, q),
                  _tensor(lc, q))
        t1 = now()
        _wait(works)
        t2 = now()
        if timings is not None:
            timings.append(dict(phase="forward", step=step, src=src,
                                calls=len(calls), compute_s=t1 - t0,
                                wait_s=t2 - t1))
        cur, nxt = nxt, cur
    return o, lse


def _backward(ring, q, k, v, o, lse, do, causal, scale, layout, mods,
              timings):
    """(dq, dk, dv) of this rank's shards: the ring replayed with the merged
    o and lse; the dK/dV accumulators (f32) follow the K/V shards around and
    come back to their owner after a last hop."""
    import torch

    from . import attention_grad

    n = q.shape[2]
    qsegs = segments(n, ring.rank, ring.size, layout)
    qpos = np.array(positions(n, ring.rank, ring.size, layout))
    dq = torch.zeros(q.shape, dtype=torch.float32, device=q.device)
    nk = k.numel()
    cur = torch.cat([k.reshape(-1), v.reshape(-1)])
    nxt = torch.empty_like(cur)
    acc = None            # the accumulator computed in the last step (sent)
    acc_in = torch.empty(nk + v.numel(), dtype=torch.float32, device=q.device)
    now = _timer(timings, q.device)
    for step in range(ring.size):
        src = (ring.rank - step) % ring.size
        t0 = now()
        sends = []
        if acc is not None:
            sends.append((acc, acc_in, _TAG_DKV))
        if step < ring.size - 1:
            sends.append((cur, nxt, _TAG_KV))
        works = ring.exchange(sends)
        ks = cur[:nk].view(k.shape)
        vs = cur[nk:].view(v.shape)
        part = torch.zeros(nk + v.numel(), dtype=torch.float32,
                           device=q.device)
        dks = part[:nk].view(k.shape)
        dvs = part[nk:].view(v.shape)
        calls = mods.calls(qsegs, segments(n, src, ring.size, layout), causal)
        kpos = np.array(positions(n, src, ring.size, layout))
        for c in calls:
            g = attention_grad(
                q[:, :, c.q0:c.q1], ks[:, :, c.k0:c.k1], vs[:, :, c.k0:c.k1],
                o[:, :, c.q0:c.q1], lse[:, :, c.q0:c.q1], do[:, :, c.q0:c.q1],
                causal=c.offset is not None, causal_offset=c.offset,
                scale=scale, **mods.keywords(c, qpos, kpos))
            dqc, dkc, dvc = (_tensor(t, q) for t in g)
            dq[:, :, c.q0:c.q1] += dqc
            dks[:, :, c.k0:c.k1] += dkc
            dvs[:, :, c.k0:c.k1] += dvc
        t1 = now()
        _wait(works)
        t2 = now()
        if acc is not None:
            # acc_in: the accumulator of shard src, from the previous rank.
            part += acc_in
            acc_in = acc  # its send is done: the next receive buffer
        acc = part
        if timings is not None:
            timings.append(dict(phase="backward", step=step, src=src,
                                calls=len(calls), compute_s=t1 - t0,
                                wait_s=t2 - t1))
        cur, nxt = nxt, cur
    # The last accumulator is that of shard rank + 1: one more hop home.
    _wait(ring.exchange([(acc, acc_in, _TAG_DKV)]))
    dk = acc_in[:nk].view(k.shape)
    dv = acc_in[nk:].view(v.shape)
    return dq.to(q.dtype), dk.to(k.dtype), dv.to(v.dtype)


def _problem(q, k, v, scale, layout):
    """What is wrong with this rank's arguments (a message), or None."""
    if layout not in LAYOUTS:
        return f"layout must be one of {LAYOUTS}, got {layout!r}"
    if scale is not None:
        try:
            finite = math.isfinite(float(scale))
        except (TypeError, ValueError):
            finite = False
        if not finite:
            return f"scale must be a finite float, got {scale!r}"
    for name, t in (("q", q), ("k", k), ("v", v)):
        if not hasattr(t, "dim") or t.dim() != 4:
            return (f"{name} must be a [B, H, N, D] tensor (this rank's "
                    f"shard), got {getattr(t, 'shape', type(t))}")
    if not (q.dtype == k.dtype == v.dtype):
        return f"q, k, v must have one dtype, got {q.dtype}, {k.dtype}, {v.dtype}"
    if not (q.device == k.device == v.device):
        return "q, k, v must be on one device"
    if k.shape[:3] != v.shape[:3]:
        return f"k and v shards differ: {tuple(k.shape)} vs {tuple(v.shape)}"
    if q.shape[0] != k.shape[0] or q.shape[3] != k.shape[3]:
        return (f"q {tuple(q.shape)} and k {tuple(k.shape)} differ in batch "
                f"or head dim")
    if k.shape[1] == 0 or q.shape[1] % k.shape[1]:
        return (f"query heads ({q.shape[1]}) must be a multiple of the "
                f"key/value heads ({k.shape[1]})")
    if q.shape[2] != k.shape[2]:
        return (f"the query and key shards must hold the same positions "
                f"(self-attention over one sequence), got {q.shape[2]} and "
                f"{k.shape[2]} rows")
    if q.shape[2] == 0:
        return "empty shards"
    if layout == "zigzag" and q.shape[2] % 2:
        return (f"a zigzag shard holds two chunks of equal length, got "
                f"{q.shape[2]} rows (odd)")
    return None


def _function():
    import torch

    class RingAttention(torch.autograd.Function):
        @staticmethod
        def forward(ctx, q, k, v, ring, causal, scale, layout, mods,
                    timings):
            q, k, v = (t.detach() for t in (q, k, v))
            o, lse = _forward(ring, q, k, v, causal, scale, layout, mods,
                              timings)
            o = o.to(q.dtype)
            ctx.save_for_backward(q, k, v, o, lse)
            ctx.args = (ring, causal, scale, layout, mods, timings)
            ctx.mark_non_differentiable(lse)
            return o, lse

        @staticmethod
        def backward(ctx, do, _dlse):
            q, k, v, o, lse = (t.detach() for t in ctx.saved_tensors)
            ring, *options = ctx.args
            dq, dk, dv = _backward(ring, q, k, v, o, lse,
                                   do.detach().contiguous(), *options)
            return dq, dk, dv, None, None, None, None, None, None

    return RingAttention


_FN = None


def ring_attention(q, k, v, group=None, causal=False, scale=None,
                   layout="contiguous", return_lse=False, timings=None,
                   window=None, softcap=None, alibi_slopes=None,
                   segment_ids=None):
    """softmax(scale q kᵀ [causal] [modifiers]) v over a sequence sharded
    across the ranks of `group` (default: the world), with autograd; see
    the module's docstring. q [B, Hq, n, D], k [B, Hkv, n, D], v [B, Hkv, n,
    Dv]: this rank's n positions (every rank the same shapes and options;
    checked). `causal`: each query sees the keys at its global position and
    before. The modifiers are flash_mlir.attention's on the whole sequence
    of N = P·n positions (self-attention: the window and ALiBi measure
    j - i between global positions): `window=(left, right)` keeps keys
    i - left <= j <= i + right (-1: unbounded), `softcap`, `alibi_slopes`
    [Hq], `segment_ids`: the global ids, [N] or [B, N], every rank the
    same. `layout`: "contiguous" or "zigzag" (see shard_sequence).
    `return_lse`: also the rows' log-sum-exp over the whole sequence (f32,
    not differentiated). `timings`: a list that gets, per ring step, forward
    and backward, a dict with the seconds spent computing (`compute_s`,
    from starting the transfer to the last call's end) and waiting for the
    transfer afterwards (`wait_s`); CUDA is synchronized to measure it.

    The calls are collective: every rank of the group must make them, in
    the same order (the backward too)."""
    global _FN
    ring = _Ring(group)
    given = (window, softcap, alibi_slopes, segment_ids)
    problem = (_problem(q, k, v, scale, layout) or
               _mods_problem(q, k, ring.size, given))
    mods = Modifiers.of(*given) if problem is None else None
    ring.check_same(q, k, v, causal, scale, layout, mods, problem)
    if _FN is None:
        _FN = _function()
    q, k, v = (t.contiguous() for t in (q, k, v))
    o, lse = _FN.apply(q, k, v, ring, bool(causal), scale, layout, mods,
                       timings)
    return (o, lse) if return_lse else o
