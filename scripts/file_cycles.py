#!/usr/bin/env python3
"""file_cycles.py -- no two source files of a library call each other,
even through others (issue 20; docs/hacking.md, "Layers").

    python3 scripts/file_cycles.py [--allow A.o,B.o ...] LIBRARY.a...

Reads the archives' symbols with `nm -A` (binutils): a member that uses a
symbol another member defines depends on it (the host's layers are one
archive each; scripts/layers.py checks their order).  Prints every circle of
members (a strongly connected component of two or more) and exits 1 if
there is one, else prints how many members and dependencies it checked
and exits 0.  --allow names a circle that is one unit by design (exactly
those members), which is then reported but not failed: the only one is
the generated list of subcommands and `help`, the command that lists them.  Checked on the symbols, not the #includes, because a call is
what ties two files together; a header of types only ties nothing.
"""
import collections
import subprocess
import sys


def graph(archives):
    out = subprocess.run(["nm", "-A", *archives], capture_output=True, text=True, check=True).stdout
    defs, uses, members = {}, collections.defaultdict(set), set()
    for line in out.splitlines():
        head, _, rest = line.rpartition(":")  # "lib.a:member.o:<value> T sym" or "... U sym"
        member = head.split(":")[-1] if ":" in head else head
        parts = rest.split()
        if not member.endswith(".o") or not parts:
            continue
        members.add(member)
        if len(parts) == 3 and parts[1] in "TDBRV":
            defs[parts[2]] = member
        elif len(parts) == 2 and parts[0] == "U":
            uses[member].add(parts[1])
    g = {m: set() for m in members}
    for m, syms in uses.items():
        for s in syms:
            d = defs.get(s)
            if d and d != m:
                g[m].add(d)
    return g


def circles(g):
    """Tarjan's strongly connected components, iteratively (no recursion limit)."""
    index, low, on, stack, found, n = {}, {}, set(), [], [], 0
    for root in sorted(g):
        if root in index:
            continue
        work = [(root, iter(sorted(g[root])))]
        index[root] = low[root] = n
        n += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n
                    n += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(g[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def main():
    args, allowed = sys.argv[1:], []
    while len(args) > 2 and args[0] == "--allow":
        allowed.append(sorted(args[1].split(",")))
        args = args[2:]
    if not args:
        sys.exit("usage: file_cycles.py [--allow A.o,B.o ...] LIBRARY.a...")
    g = graph(args)
    bad = 0
    for comp in circles(g):
        ok = comp in allowed
        bad += not ok
        print(("allowed circle: " if ok else "circle: ") + " <-> ".join(comp))
    if bad:
        sys.exit(1)
    print(f"{len(g)} files, {sum(len(v) for v in g.values())} dependencies between them, no other circle")


if __name__ == "__main__":
    main()
