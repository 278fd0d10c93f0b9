#!/usr/bin/env python3
"""insn_count.py -- exact instruction counts per Sonde call, from a QEMU
execution log of the benchmark firmware.

QEMU run with `-singlestep -d exec,nochain` logs one line per executed
instruction, with the symbol it belongs to.  The benchmark's timed loops are
the functions b_*; every excursion out of such a loop is one call (argument
set-up and the call instruction stay in the loop and are not counted; the
callee's return is).  For each loop and function called this prints how
many instructions the calls took: the most common count (the fast path),
its share, and the other frequent counts (slow paths).

    insn_count.py EXEC_LOG
"""
import collections
import re
import sys

LINE = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/[0-9a-f]+/[0-9a-f]+\] (\S+)")


def executed(path):
    """Symbols of the executed instructions, in order.  Under -icount a
    device access must end its translation block: QEMU abandons the first
    attempt (the next line says "cpu_io_recompile: rewound execution") and
    runs the instruction again; a block stopped before it ran ("Stopped
    execution of TB chain", an interrupt or the icount budget) runs again
    too.  Each is counted once."""
    pending = None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith(("cpu_io_recompile: rewound", "Stopped execution")):
                pending = None
                continue
            m = LINE.match(line)
            if not m:
                continue
            if pending is not None:
                yield pending
            pending = m.group(2)
    if pending is not None:
        yield pending


def main():
    hist = collections.OrderedDict()
    loop = None      # the b_* function we are in
    count = 0        # instructions since leaving it
    callee = None
    for sym in executed(sys.argv[1]):
        if sym.startswith("b_"):
            if loop == sym and callee not in (None, "main"):
                hist.setdefault((loop, callee), collections.Counter())[count] += 1
            loop, count, callee = sym, 0, None
        elif loop is not None:
            if callee is None:
                callee = sym
            count += 1
    for (loop, callee), h in hist.items():
        n = sum(h.values())
        mean = sum(k * v for k, v in h.items()) / n
        common = h.most_common(4)
        others = ", ".join("%d x%d" % (k, v) for k, v in sorted(common[1:]))
        print("%-22s %-18s calls %5d  mean %7.2f  fast %4d (%5.1f%%)  min %d max %d  other: %s"
              % (loop, callee, n, mean, common[0][0], 100.0 * common[0][1] / n,
                 min(h), max(h), others))


if __name__ == "__main__":
    main()
