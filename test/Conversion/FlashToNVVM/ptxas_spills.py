"""ptxas -v on the kernels --flash-to-nvvm makes from a program (stdin):
prints `<kernel>: <registers> registers, <bytes> bytes spilled` per kernel
(and `<kernel>: wgmma serialized` where ptxas serializes its wgmmas),
with the chip from argv[1]. The PTX is the gpu.binary's `format=isa`
assembly."""

import re
import subprocess
import sys
import tempfile


def main():
    chip = sys.argv[1] if len(sys.argv) > 1 else "sm_90a"
    text = sys.stdin.read()
    m = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', text)
    if not m:
        print("no PTX in the input")
        sys.exit(1)
    ptx = re.sub(r"\\([0-9A-Fa-f]{2})",
                 lambda h: chr(int(h.group(1), 16)), m.group(1))
    with tempfile.TemporaryDirectory() as d:
        open(f"{d}/k.ptx", "w").write(ptx)
        r = subprocess.run(["ptxas", "-v", f"-arch={chip}", f"{d}/k.ptx",
                            "-o", f"{d}/k.cubin"],
                           capture_output=True, text=True)
    if r.returncode != 0:
        print("ptxas failed:", r.stderr[-2000:])
        sys.exit(1)
    kernel = None
    spill = {}
    # ptxas serializes every wgmma of a kernel whose asynchronous products'
    # registers it cannot prove untouched while in flight (C7513).
    for k in re.findall(r"C7513\).*in the function '(\w+)'", r.stderr):
        print(f"{k}: wgmma serialized")
    for line in r.stderr.splitlines():
        if (k := re.search(r"Compiling entry function '(\w+)'", line)):
            kernel = k.group(1)
        elif (s := re.search(r"(\d+) bytes spill stores", line)):
            spill[kernel] = int(s.group(1))
        elif (u := re.search(r"Used (\d+) registers", line)):
            print(f"{kernel}: {u.group(1)} registers, "
                  f"{spill.get(kernel, 0)} bytes spilled")


if __name__ == "__main__":
    main()
