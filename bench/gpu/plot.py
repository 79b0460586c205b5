#!/usr/bin/env python3
"""Draws bench/gpu/bench.py's --json measurements: TFLOP/s against N, one
line per implementation, one panel per (pass, d, causal), titled with the
GPU the rows name (or DEVICE, for measurements that do not).

  python3 bench/gpu/plot.py results.json bench/gpu/tflops.png [DEVICE]
"""

import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    rows = json.load(open(sys.argv[1]))
    panels = sorted({(r["pass_"], r["d"], r["causal"]) for r in rows},
                    key=lambda p: (p[0] != "fwd", p[1], p[2]))
    cols = 4
    nrows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(4 * cols, 3.2 * nrows),
                             squeeze=False)
    names = [("ours", "flash-mlir"), ("flash", "SDPA flash (FA2)"),
             ("cudnn", "SDPA cuDNN"), ("eff", "SDPA mem-efficient")]
    for ax, (pas, d, causal) in zip(axes.flat, panels):
        sel = sorted((r for r in rows if (r["pass_"], r["d"], r["causal"]) ==
                      (pas, d, causal)), key=lambda r: r["n"])
        for key, label in names:
            ys = [r.get(key) for r in sel]
            if any(y is None for y in ys):
                continue
            ax.plot([r["n"] for r in sel], ys, marker="o", label=label)
        ax.set_xscale("log", base=2)
        ax.set_title(f"{pas} d={d} {'causal' if causal else 'full'}")
        ax.set_xlabel("N")
        ax.set_ylabel("TFLOP/s")
        ax.grid(True, alpha=0.3)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=7)
    device = (sys.argv[3] if len(sys.argv) > 3 else
              rows[0].get("device", "unknown GPU"))
    fig.suptitle(f"{device}, bf16, B*N = 16k, H*d = 2048")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
