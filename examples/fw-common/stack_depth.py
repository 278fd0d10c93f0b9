#!/usr/bin/env python3
"""stack_depth.py -- worst-case stack depth of Sonde's record path, from the
compiler's own figures.

Usage: stack_depth.py DIR

DIR holds the tracer objects built with -fstack-usage -fcallgraph-info=su
(fw.mk does): one .ci file per source, a VCG graph whose nodes carry each
function's frame size and whose edges are its calls.  For every entry point
of the record path -- the record functions the inline API calls
(sonde_w_*), the builder (sonde_user_begin ... sonde_arg_* ...
sonde_user_end) and sonde_tick -- this prints its own frame and the worst
depth over everything it can call: the slow path, the escaping fix-up,
TIME_SYNC and DROPS included.  A call of something outside the tracer (a C
library function) is named, since its frame is not counted; a frame the
compiler could not bound ("dynamic"), or recursion, is reported as such.
The caller's own call instruction adds nothing on Arm or RISC-V (the return
address goes to a register).
"""
import glob
import os
import re
import sys

ENTRIES = ("sonde_w_obj", "sonde_w_small", "sonde_w_u32x2", "sonde_w_words",
           "sonde_func_enter_addr", "sonde_user_begin", "sonde_log_begin",
           "sonde_arg_u32", "sonde_arg_u64", "sonde_arg_str", "sonde_arg_mem",
           "sonde_user_end", "sonde_tick")

NODE = re.compile(r'node: \{ title: "([^"]+)" label: "([^"]*)"')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')
SIZE = re.compile(r"\\n(\d+) bytes \(([^)]*)\)")


def load(path):
    frames, qual, calls = {}, {}, {}
    for ci in sorted(glob.glob(os.path.join(path, "*.ci"))):
        with open(ci) as f:
            text = f.read()
        for name, label in NODE.findall(text):
            m = SIZE.search(label)
            if m:
                frames[name] = int(m.group(1))
                qual[name] = m.group(2)
        for src, dst in EDGE.findall(text):
            calls.setdefault(src, set()).add(dst)
    return frames, qual, calls


def worst(fn, frames, calls, memo, stack, notes):
    """(depth, path) of the deepest chain from fn."""
    if fn in memo:
        return memo[fn]
    if fn in stack:
        notes.add("recursion through %s: depth unbounded" % fn)
        return 0, [fn]
    if fn not in frames:
        notes.add("%s is outside the tracer: its frame is not counted" % fn)
        return 0, [fn]
    stack.append(fn)
    best = (0, [])
    for callee in sorted(calls.get(fn, ())):
        d = worst(callee, frames, calls, memo, stack, notes)
        if d[0] > best[0]:
            best = d
    stack.pop()
    memo[fn] = (frames[fn] + best[0], [fn] + best[1])
    return memo[fn]


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    frames, qual, calls = load(sys.argv[1])
    if not frames:
        print("stack_depth: no .ci files in %s (build with -fcallgraph-info=su)" % sys.argv[1])
        return 1
    memo, notes = {}, set()
    top = (0, [])
    print("  %-24s %6s %6s  deepest chain (own: the fast path's frame)" % ("entry", "own", "worst"))
    for e in ENTRIES:
        if e not in frames:
            continue
        d, path = worst(e, frames, calls, memo, [], notes)
        # static functions are named "FILE:function"
        print("  %-24s %6d %6d  %s" % (e, frames[e], d, " > ".join(p.split(":")[-1] for p in path)))
        if d > top[0]:
            top = (d, path)
    print("  %-24s %6s %6d  bytes of stack at most, slow paths included" % ("record path", "", top[0]))
    for n in sorted(notes):
        print("  note: " + n)
    for fn, q in sorted(qual.items()):
        if q != "static" and fn in memo:
            print("  note: %s has a %s frame" % (fn, q))
    return 0


if __name__ == "__main__":
    sys.exit(main())
