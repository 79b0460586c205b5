#!/usr/bin/env python3
"""The seed corpus of tools/flash-fuzz: every MLIR input under test/ (each
`// -----` chunk of a split file), once per pipeline (the input's first
byte selects it; flash-fuzz.cpp lists them), into the directory argv[1]."""

import hashlib
import os
import sys

PIPELINES = 7  # kPipelines in tools/flash-fuzz/flash-fuzz.cpp


def chunks(root):
    for dirpath, _, files in os.walk(root):
        if "fuzz" in dirpath.split(os.sep):
            continue
        for f in sorted(files):
            if f.endswith(".mlir"):
                text = open(os.path.join(dirpath, f), errors="replace").read()
                for c in text.split("// -----"):
                    lines = [l for l in c.splitlines()
                             if not l.lstrip().startswith("// RUN")]
                    c = "\n".join(lines).strip()
                    if c:
                        yield c


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    n = 0
    for c in chunks(os.path.dirname(here)):
        for p in range(PIPELINES):
            data = bytes([p]) + c.encode()
            name = hashlib.sha1(data).hexdigest()[:16]
            with open(os.path.join(out, name), "wb") as f:
                f.write(data)
            n += 1
    print(f"{n} seeds in {out}")


if __name__ == "__main__":
    main()
