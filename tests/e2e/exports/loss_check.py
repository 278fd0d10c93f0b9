#!/usr/bin/env python3
"""loss_check.py -- a run cut by a loss is closed by one rule in every
output (docs/reliability.md, "A run cut by a loss"), tried at every place
of a short trace (loss_trace.py), deterministically: for every record of it,
the trace with that record lost, refused by the target (a DROPS) or lost on
the link (a sequence gap), and with three records in a row refused.  Used by
tests/e2e/test_loss_cut.sh.  The cases are sessions of a target that
restarts (a reset, itself a cut), STEP ticks apart, BATCH of them to a
file, so that the outputs are compared run by run and drop by drop in every
case while each output is made once per file.

    loss_check.py SONDE SQL_MD DIR

For each case it runs `sonde stats --format jsonl`, `decode -f profile`,
`-f speedscope --idle`, `-f sqlite`, `-f chrome` (the timeline model of
the Perfetto export), `-f jsonl` and `sonde report`, and checks that they
give
  - per task: the same runs and CPU time (stats, the report, the profile,
    SQLite, speedscope) and, in SQLite and the timeline, the same runs
    (start and end of each);
  - per ISR: the same activations and CPU time, the same slices;
  - per function: the same calls and self time (profile, SQLite,
    speedscope);
  - before each DROPS: the same last task runs and ISR activations (the
    query before_drop of docs/sql.md, the timeline, the records).
Prints the number of cases; exits 1 listing the first differences.
"""
import json
import os
import re
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import loss_trace  # noqa: E402
from cli_tables import text_table  # noqa: E402

sonde, sql_md, d = sys.argv[1:4]
queries = dict(re.findall(r"```sql\n-- name: (\w+)\n(.*?)```", open(sql_md).read(), re.S))
fails = []


def run(*args, out=None):
    r = subprocess.run([sonde, *args], capture_output=True, text=True)
    if r.returncode > 1:
        raise SystemExit(f"sonde {' '.join(args)} failed ({r.returncode}): {r.stderr}")
    return r.stdout


def same(case, what, got, want):
    if got != want and len(fails) < 30:
        if isinstance(got, list) and isinstance(want, list):  # the first place they differ
            i = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), min(len(got), len(want)))
            got, want = got[i:i + 3], want[i:i + 3]
            what += f" (from item {i})"
        fails.append(f"{case}: {what}: {got!r} != {want!r}")


def speedscope(path, isr_names):
    """per frame: self and total time (ns), as speedscope adds them up; ISRs without nested ones"""
    doc = json.load(open(path))
    frames = [f["name"] for f in doc["shared"]["frames"]]
    total, self_ = {}, {}
    for p in doc["profiles"]:
        stack, last = [], p["startValue"]
        for e in p["events"]:
            if stack:
                self_[frames[stack[-1][0]]] = self_.get(frames[stack[-1][0]], 0) + e["at"] - last
                isr = next((frames[g] for g, _ in reversed(stack) if frames[g] in isr_names), None)
                if isr:  # an ISR's time: while it is the innermost ISR
                    self_["isr " + isr] = self_.get("isr " + isr, 0) + e["at"] - last
            last = e["at"]
            if e["type"] == "O":
                stack.append((e["frame"], e["at"]))
            else:
                f, t0 = stack.pop()
                if all(g != f for g, _ in stack):
                    total[frames[f]] = total.get(frames[f], 0) + e["at"] - t0
    return total, self_


def timeline(path, origin):
    """[(thread, start, end)] of the task runs ("Running") and ISR slices, in ticks"""
    ev = json.load(open(path))["traceEvents"]
    names = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    open_, out = {}, []
    for e in ev:
        if e["ph"] not in "BE" or names.get(e["tid"]) in (None, "Idle", "No task") or \
                names[e["tid"]].endswith(" state"):
            continue
        t = round(e["ts"]) + origin  # 1 MHz: a microsecond is a tick
        stk = open_.setdefault(e["tid"], [])
        if e["ph"] == "B":
            stk.append((e.get("name"), e.get("cat"), t))
        else:
            name, cat, t0 = stk.pop()
            if cat in ("sched", "isr"):
                out.append((name if cat == "isr" else names[e["tid"]], t0, t))
    return sorted(out, key=lambda x: (x[1], x[0]))


def check(case, f):
    st = [json.loads(l) for l in run("stats", f, "-q", "--format", "jsonl").splitlines()]
    an = next(r for r in st if r["type"] == "analysis")
    tasks = {r["name"]: r for r in st if r["type"] == "task" and r["count"]}
    isrs = {r["name"]: r for r in st if r["type"] == "isr" and r["count"]}
    prof = run("decode", f, "-q", "-f", "profile").splitlines()
    ptask, pisr, pfunc = text_table(prof, "Tasks"), text_table(prof, "ISRs"), text_table(prof, "Functions")
    run("decode", f, "-q", "-f", "speedscope", "--idle", "--output", f + ".ss")
    ss_total, ss_self = speedscope(f + ".ss", set(isrs))
    if os.path.exists(f + ".db"):
        os.unlink(f + ".db")
    run("decode", f, "-q", "-f", "sqlite", "--output", f + ".db")
    db = sqlite3.connect(f + ".db")
    db.row_factory = sqlite3.Row
    q = lambda name: [dict(r) for r in db.execute(queries[name])]
    run("decode", f, "-q", "-f", "chrome", "--output", f + ".json")
    tl = timeline(f + ".json", an["origin"])
    ev = [json.loads(l) for l in run("decode", f, "-q", "-f", "jsonl").splitlines()]
    run("report", f, "-q", "-o", f + ".html")
    html = open(f + ".html").read()
    rep = json.loads(re.search(r'<script type="application/json" id="sonde-data">(.*?)</script>', html, re.S)
                     .group(1))
    rtasks = {r["name"]: r for r in rep["analysis"]["rows"] if r["type"] == "task" and r["count"]}
    risrs = {r["name"]: r for r in rep["analysis"]["rows"] if r["type"] == "isr" and r["count"]}

    # tasks: runs and CPU time
    want = {n: (t["count"], t["cpu"], t["run"]["incomplete"]) for n, t in tasks.items()}
    same(case, "tasks, report", {n: (t["count"], t["cpu"], t["run"]["incomplete"]) for n, t in rtasks.items()}, want)
    same(case, "tasks, SQL", {r["task"]: (r["runs"], r["cpu"], r["incomplete"]) for r in q("cpu_per_task")}, want)
    same(case, "tasks, profile", {n: (int(r["switches"]), int(r["run[t]"])) for n, r in ptask.items()
                                  if not n.startswith("(") and int(r["switches"])},
         {n: w[:2] for n, w in want.items()})
    same(case, "tasks, speedscope", {n: ss_total.get(n, 0) for n in tasks}, {n: t["cpu"] * 1000 for n, t in tasks.items()})
    # ISRs
    want = {n: (r["count"], r["cpu"]) for n, r in isrs.items()}
    same(case, "ISRs, report", {n: (r["count"], r["cpu"]) for n, r in risrs.items()}, want)
    same(case, "ISRs, SQL", {r["isr"]: (r["count"], r["cpu"]) for r in q("isrs")}, want)
    same(case, "ISRs, profile", {n: (int(r["count"]), int(r["total[t]"])) for n, r in pisr.items()}, want)
    same(case, "ISRs, speedscope", {n: ss_self.get("isr " + n, 0) for n in isrs}, {n: r["cpu"] * 1000 for n, r in isrs.items()})
    # functions
    want = {n: (int(r["calls"]), int(r["self[t]"])) for n, r in pfunc.items()}
    same(case, "functions, SQL", {r["function"]: (r["calls"], r["self"]) for r in q("functions")}, want)
    same(case, "functions, speedscope", {n: ss_self.get(n, 0) for n in want}, {n: w[1] * 1000 for n, w in want.items()})
    # the runs and activations themselves: SQLite against the timeline
    rows = db.execute("SELECT kind, name, start, stop FROM slices WHERE kind IN ('task', 'isr')").fetchall()
    same(case, "runs, SQL vs timeline", sorted(((r[1], r[2], r[3]) for r in rows), key=lambda x: (x[1], x[0])), tl)
    # what ran before each drop: the query, the records, the timeline
    got = [(g["drop_id"], g["name"], g["start"]) for g in q("before_drop")]
    want, want_tl = [], []
    for k, e in enumerate(ev):
        if e["kind"] != "drops":
            continue
        starts = sorted(((x["ts"], i, x) for i, x in enumerate(ev) if x["kind"] in ("task_in", "isr_enter")
                         and x["ts"] is not None and x["ts"] <= e["ts"]), key=lambda x: (x[0], x[1]), reverse=True)
        for ts, _, x in starts[:5]:
            want.append((k + 1, x.get("task_name") or x.get("isr_name"), ts))
        tls = sorted(((s, n) for n, s, _ in tl if s <= e["ts"]), reverse=True)
        want_tl += [(k + 1, n, s) for s, n in tls[:5]]
    same(case, "before each drop, SQL vs records", got, want)
    same(case, "before each drop, SQL vs timeline", sorted(got, key=lambda x: (x[0], -x[2], x[1])),
         sorted(want_tl, key=lambda x: (x[0], -x[2], x[1])))
    db.close()


STEP, BATCH = 100000, 45
nbody = len(loss_trace.body())
cases = [(how, frozenset({i})) for how in ("refused", "link") for i in range(nbody)]
cases += [("refused", frozenset({i, i + 1, i + 2})) for i in range(nbody - 2)]
allc = [("refused", frozenset())] + cases
for b in range(0, len(allc), BATCH):
    f = os.path.join(d, "t.bin")
    with open(f, "wb") as out:
        for j, (how, lost) in enumerate(allc[b:b + BATCH]):
            out.write(loss_trace.stream(lost, how, loss_trace.T0 + j * STEP))
    check(f"cases {b}..{min(b + BATCH, len(allc)) - 1} (case {b} + k from tick {loss_trace.T0} + k * {STEP})", f)
if fails:
    print("\n".join(fails), file=sys.stderr)
    sys.exit(1)
print(f"loss: {len(cases)} lossy cases ({nbody} places, refused and lost on the link), "
      f"{(len(allc) + BATCH - 1) // BATCH} files: every output agrees")
