"""Fill a kernel cache for a machine without flash-opt.

A GPU machine may have the cache but no MLIR: what it cannot find there it
records as requests (FLASH_MLIR_PENDING, default <cache>/pending/): CUDA
kernels (kernel-<key>.json: the configuration) and raises of exported FX
subgraphs (raise-<key>.mlir). On a machine with flash-opt,

    FLASH_MLIR_CACHE=<cache> python3 -m flash_mlir.offline [requests dir...]

answers every request into the cache (the same keys the GPU machine looks
up), and removes the requests of the cache's own pending/ it answered.
"""

import argparse
import glob
import json
import os
import sys


def answer(paths, log=print):
    from . import compiler, cuda, fx, program

    done = 0
    for path in paths:
        name = os.path.basename(path)
        if name.startswith("raise-") and name.endswith(".mlir"):
            with open(path) as f:
                text = f.read()
            raised, remarks = fx.run_raise(compiler._flash_opt(), text)
            fx.store_raise(text, raised, remarks)
            log(f"{name}: {'raised' if raised else 'not raised: ' + remarks}")
        elif name.startswith("kernel-") and name.endswith(".json"):
            with open(path) as f:
                req = json.load(f)
            cfg = eval(req["config"], {"Config": program.Config})  # noqa: S307
            old = os.environ.get("FLASH_MLIR_NVVM_OPTIONS")
            os.environ["FLASH_MLIR_NVVM_OPTIONS"] = req.get("options", "")
            try:
                cuda.compile_kernel(cfg, chip=req["chip"],
                                    features=req["features"],
                                    grad=req["grad"])
            finally:
                if old is None:
                    os.environ.pop("FLASH_MLIR_NVVM_OPTIONS")
                else:
                    os.environ["FLASH_MLIR_NVVM_OPTIONS"] = old
            log(f"{name}: compiled ({'backward' if req['grad'] else 'forward'})")
        else:
            continue
        done += 1
    return done


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("requests", nargs="*",
                   help="directories of requests (default: the cache's "
                        "pending/)")
    a = p.parse_args(argv)
    from . import compiler

    own = os.path.join(compiler.cache_dir(), "pending")
    dirs = a.requests or [own]
    paths = sorted(f for d in dirs for f in glob.glob(os.path.join(d, "*")))
    n = answer(paths)
    for f in paths:
        if os.path.dirname(os.path.abspath(f)) == os.path.abspath(own):
            os.remove(f)
    print(f"{n} requests answered into {compiler.cache_dir()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
