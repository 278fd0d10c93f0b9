#!/usr/bin/env python3
"""insn_count.py -- exact instruction counts per Sonde call, from a QEMU
execution log of the benchmark firmware (bench.c, short build).

QEMU run with `-singlestep -d exec,nochain` logs one line per executed
instruction with its address and symbol.  Each timed loop of the benchmark
is a function b_<gap>_<case>; an iteration is the run of instructions from
one pass over the loop's first repeated address to the next, callees
included.  The loop b_<gap>_empty does the same without the call, so

    cost of a call = instructions of an iteration - those of the empty one

which counts everything the caller pays: the inline filter test, argument
set-up, the call, the callee and its return.  For each case this prints
the most common count (the fast path), its share, the mean and the
maximum (slow paths: TIME_SYNC every 256 frames, in-place escaping).

With the mix table (bench_mix.h) as the second argument it also splits the
mix loop (b_mix) into its calls and compares their mean with the sum of
the fast paths of the same records at the same timestamp width: how much
the rare paths add on a realistic mix.

    insn_count.py EXEC_LOG [bench_mix.h]
"""
import collections
import re
import sys

LINE = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/[0-9a-f]+/[0-9a-f]+\] (\S+)")


def executed(path):
    """(address, symbol) of the executed instructions, in order.  Under
    -icount a device access must end its translation block: QEMU abandons
    the first attempt ("cpu_io_recompile: rewound execution") and runs the
    instruction again; a block stopped before it ran ("Stopped execution of
    TB chain") runs again too.  Each is counted once."""
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
            pending = (int(m.group(1), 16), m.group(2))
    if pending is not None:
        yield pending


def iterations(stream):
    """For each loop function b_*: the instruction count of each of its
    iterations (callees included), and the symbols called in each."""
    runs = collections.OrderedDict()   # loop -> list of (addr, sym) of its whole run
    cur = None
    buf = []
    for addr, sym in stream:
        if sym.startswith("b_"):
            if sym != cur:
                if cur is not None:
                    runs.setdefault(cur, []).extend(buf)
                cur, buf = sym, []
        elif cur is not None and sym == "main":
            runs.setdefault(cur, []).extend(buf)
            cur, buf = None, []
            continue
        if cur is not None:
            buf.append((addr, sym))
    if cur is not None:
        runs.setdefault(cur, []).extend(buf)
    out = collections.OrderedDict()
    for loop, ins in runs.items():
        own = collections.Counter(a for a, s in ins if s == loop)
        repeated = [a for a, c in own.items() if c >= 2]
        if not repeated:
            continue
        head = min(repeated)
        its = []
        count = None
        callee = None
        for a, s in ins:
            if s == loop and a == head:
                if count is not None:
                    its.append((count, callee))
                count, callee = 0, None
            if count is not None:
                count += 1
                if s != loop and callee is None:
                    callee = s
        out[loop] = its
    return out


def summary(costs):
    h = collections.Counter(costs)
    mode, nmode = h.most_common(1)[0]
    return mode, 100.0 * nmode / len(costs), sum(costs) / len(costs), max(costs)


def read_mix(path):
    recs = []
    with open(path) as f:
        for m in re.finditer(r"\{ 0x([0-9A-Fa-f]+), (\d+)u \}", f.read()):
            recs.append((int(m.group(1), 16), int(m.group(2))))
    return recs


def width(gap):
    return 1 if gap < 0x7D else 2 if gap < 0x4000 else 3 if gap < 0x200000 else 4


def main():
    its = iterations(executed(sys.argv[1]))
    base = {}
    for loop, v in its.items():
        m = re.match(r"b_(g[^_]+)_empty", loop)
        if m and v:
            base[m.group(1)] = summary([c for c, _ in v])[0]
    print("%-28s %-18s %6s %7s %8s %6s" % ("loop", "callee", "fast", "share", "mean", "max"))
    for loop, v in its.items():
        m = re.match(r"b_(g[^_]+)_(.*)", loop)
        if not m or m.group(2).startswith("empty") or not v:
            continue
        g = m.group(1)
        b = base.get(g + "_empty_s" if g == "g2p32" else g, base.get(g))
        if b is None:
            continue
        costs = [c - b for c, _ in v]
        callee = collections.Counter(s for _, s in v if s).most_common(1)
        mode, share, mean, mx = summary(costs)
        print("%-28s %-18s %6d %6.1f%% %8.2f %6d" % (loop, callee[0][0] if callee else "-", mode, share, mean, mx))
    if len(sys.argv) > 2 and "b_mix" in its:
        mix = read_mix(sys.argv[2])
        calls = [c for c, _ in its["b_mix"]]
        # every record of the mix, twice; iterations are counted between
        # passes over the loop head, so there is one fewer than calls
        recs = (mix * 2)[:len(calls)]
        groups = collections.defaultdict(list)
        for (rec, gap), c in zip(recs, calls):
            groups[(rec, width(gap))].append(c)
        fast = {k: collections.Counter(v).most_common(1)[0][0] for k, v in groups.items()}
        total = sum(calls)
        total_fast = sum(fast[(rec, width(gap))] for rec, gap in recs)
        print("mix: %d calls, mean %.2f instructions per iteration (table walk and switch included), "
              "sum of fast paths %.2f: rare paths add %.1f%%"
              % (len(calls), total / len(calls), total_fast / len(calls), 100.0 * (total - total_fast) / total_fast))


if __name__ == "__main__":
    main()
