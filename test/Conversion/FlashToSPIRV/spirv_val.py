"""Serializes every spirv.module of an MLIR file (stdin) and validates it.

For each module prints `<name>: <bytes> bytes, spirv-val ok` and exits
non-zero when serialization or spirv-val fails.
"""

import re
import subprocess
import sys
import tempfile

TRANSLATE = "/usr/lib/llvm-22/bin/mlir-translate"


def modules(text):
    """The text of each top-level spirv.module (by brace matching)."""
    for m in re.finditer(r"^\s*spirv\.module @([\w$.]+)", text, re.M):
        depth, start = 0, m.start()
        # The region opens at the "{" that ends the header line.
        for j in range(text.index(" {\n", m.end()) + 1, len(text)):
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            if depth == 0:
                yield m.group(1), text[start:j + 1]
                break


def main():
    env = sys.argv[1] if len(sys.argv) > 1 else "vulkan1.1"
    found = 0
    for name, body in modules(sys.stdin.read()):
        found += 1
        with tempfile.TemporaryDirectory() as d:
            src, spv = f"{d}/m.mlir", f"{d}/m.spv"
            open(src, "w").write(body)
            subprocess.run([TRANSLATE, "--serialize-spirv",
                            "--no-implicit-module", src, "-o", spv],
                           check=True)
            r = subprocess.run(["spirv-val", "--target-env", env, spv],
                               capture_output=True, text=True)
            if r.returncode != 0:
                print(f"{name}: spirv-val FAILED\n{r.stdout}{r.stderr}")
                sys.exit(1)
            size = len(open(spv, "rb").read())
            print(f"{name}: {size} bytes, spirv-val ok")
    if not found:
        print("no spirv.module")
        sys.exit(1)


if __name__ == "__main__":
    main()
