#!/usr/bin/env python3
"""size_report.py -- bytes of tracer code in a linked image, from its map.

Usage: size_report.py MAP [--tracer-dir DIR]

Sums the code (.text*) and read-only data (.rodata*) input sections that
survived --gc-sections and came from the tracer's objects (those under
DIR, default "/sonde/"), and lists the library functions (libc, libgcc)
that the image pulled in, so a tracer that calls memcpy is charged for it.
RAM: .bss/.data of the tracer objects.
"""
import re
import sys


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    path = args[0]
    tdir = "/sonde/"
    if "--tracer-dir" in args:
        tdir = args[args.index("--tracer-dir") + 1]
    code = {}
    ram = {}
    libs = {}
    in_discard = False
    pending = None
    with open(path) as f:
        for line in f:
            if line.startswith("Discarded input sections"):
                in_discard = True
            elif line.startswith("Memory Configuration"):
                in_discard = False
            if in_discard:
                continue
            m = re.match(r"^ (\.\S+)\s*$", line)
            if m:
                pending = m.group(1)
                continue
            m = re.match(r"^ (\.\S+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)", line)
            if not m:
                pending = None
                continue
            sec = m.group(1) or pending
            pending = None
            if sec is None:
                continue
            size = int(m.group(3), 16)
            obj = m.group(4)
            if size == 0:
                continue
            if tdir in obj:
                name = obj.split("/")[-1]
                if sec.startswith((".text", ".rodata")):
                    code[name] = code.get(name, 0) + size
                elif sec.startswith((".bss", ".data")):
                    ram[name] = ram.get(name, 0) + size
            elif ("libc" in obj or "libgcc" in obj) and sec.startswith(".text"):
                libs[obj.split("/")[-1]] = libs.get(obj.split("/")[-1], 0) + size
    for name in sorted(code):
        print(f"  {name:28s} {code[name]:6d} B code")
    total = sum(code.values())
    print(f"  {'tracer code':28s} {total:6d} B")
    for name in sorted(libs):
        print(f"  {name:28s} {libs[name]:6d} B (library, whole image)")
    print(f"  {'tracer RAM (bss+data)':28s} {sum(ram.values()):6d} B (buffer excluded: it is the application's)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
