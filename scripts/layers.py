#!/usr/bin/env python3
"""layers.py -- no layer of the host library calls or #includes a layer
above it or beside it (issue 20; docs/hacking.md, section 1).

    python3 scripts/layers.py LAYERS.txt

LAYERS.txt is written by host/CMakeLists.txt (build/host/layers.txt), the
one place the layers are named:

    root DIR                        the folder the includes start from
    include DIR                     a folder on the include path, in order
    layer NAME ARCHIVE [A;B...]     a layer, its library, the layers it links
    file NAME PATH                  a source file of that layer

A layer may use itself and what the layers it links use, transitively.
Calls are read from the archives' symbols (`nm -A`, binutils): a member
that uses a symbol defined in another layer's archive must be allowed to.
Includes are read from the sources and from the headers of their folders
(`#include "..."`, resolved as the compiler does: the file's folder, then
the include path); a header belongs to the layer of the .c file of the same
name beside it, else to the lowest layer of its folder's files (a
protocol's folder is the proto layer, its sink_*.c files the sinks layer).
Prints every violation and exits 1, else prints what it checked and exits 0.
The link of each layer alone (sonde_layer_check_*) fails on an upward call
as well; this check also names it, and sees an upward #include.
"""
import collections
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def read_map(path):
    order, below, archive, files, incdirs, root = [], {}, {}, {}, [], None
    for line in open(path):
        w = line.split()
        if not w:
            continue
        if w[0] == "root":
            root = w[1]
        elif w[0] == "include":
            incdirs.append(w[1])
        elif w[0] == "layer":
            order.append(w[1])
            archive[w[1]] = w[2]
            below[w[1]] = [b for b in (w[3].split(";") if len(w) > 3 else []) if b]
        elif w[0] == "file":
            files[os.path.normpath(w[2])] = w[1]
    return order, below, archive, files, incdirs, root


def closure(below):
    """The layers each layer may use: itself and all it links, transitively."""
    seen = {}
    for l in below:
        pending, s = [l], {l}
        while pending:
            for b in below[pending.pop()]:
                if b not in s:
                    s.add(b)
                    pending.append(b)
        seen[l] = s
    return seen


def check_calls(order, archive, may):
    out = subprocess.run(["nm", "-A", *[archive[l] for l in order]], capture_output=True, text=True,
                         check=True).stdout
    by_archive = {archive[l]: l for l in order}
    defs, uses = {}, collections.defaultdict(set)
    for line in out.splitlines():
        head, _, rest = line.rpartition(":")  # "lib.a:member.o:<value> T sym" or "... U sym"
        arc, _, member = head.rpartition(":")
        parts = rest.split()
        if arc not in by_archive or not parts:
            continue
        layer = by_archive[arc]
        if len(parts) == 3 and parts[1] in "TDBRVC":
            defs[parts[2]] = (layer, member)
        elif len(parts) == 2 and parts[0] == "U":
            uses[(layer, member)].add(parts[1])
    bad, n = [], 0
    for (layer, member), syms in sorted(uses.items()):
        for s in sorted(syms):
            d = defs.get(s)
            if not d or d[0] == layer:
                continue
            n += 1
            if d[0] not in may[layer]:
                bad.append(f"call: {layer}/{member} uses {s} of {d[0]}/{d[1]}")
    return bad, n


def header_layers(files, order):
    """Layer of every header in the folders of the layers' files."""
    rank = {l: i for i, l in enumerate(order)}
    by_dir = collections.defaultdict(list)
    for f, l in files.items():
        by_dir[os.path.dirname(f)].append(l)
    heads = {}
    for d, ls in by_dir.items():
        low = min(ls, key=rank.get)
        for name in os.listdir(d):
            if name.endswith(".h"):
                c = os.path.join(d, name[:-2] + ".c")
                heads[os.path.join(d, name)] = files.get(c, low)
    return heads


def check_includes(files, heads, incdirs, may):
    known = dict(heads)
    known.update(files)
    bad, n = [], 0
    for f, layer in sorted(known.items()):
        for num, line in enumerate(open(f, errors="replace"), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            for d in [os.path.dirname(f)] + incdirs:
                t = os.path.normpath(os.path.join(d, m.group(1)))
                if os.path.exists(t):
                    break
            else:
                continue  # generated (sonde_commit.h) or not a layer's
            tl = known.get(t)
            if tl is None or tl == layer:
                continue
            n += 1
            if tl not in may[layer]:
                bad.append(f"include: {f}:{num} ({layer}) includes {t} ({tl})")
    return bad, n


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: layers.py LAYERS.txt")
    order, below, archive, files, incdirs, root = read_map(sys.argv[1])
    if not order or not files or root is None:
        sys.exit(f"layers.py: {sys.argv[1]}: no layers, files or root")
    may = closure(below)
    bad_calls, ncalls = check_calls(order, archive, may)
    heads = header_layers(files, order)
    bad_incs, nincs = check_includes(files, heads, incdirs, may)
    for b in bad_calls + bad_incs:
        print(b)
    if bad_calls or bad_incs:
        print(f"{len(bad_calls)} upward call(s), {len(bad_incs)} upward include(s): "
              "move the code to the layer it belongs to (docs/hacking.md, section 1)")
        sys.exit(1)
    print(f"{len(order)} layers ({', '.join(order)}), {len(files)} files, {len(heads)} headers: "
          f"{ncalls} calls and {nincs} includes between layers, none upward")


if __name__ == "__main__":
    main()
