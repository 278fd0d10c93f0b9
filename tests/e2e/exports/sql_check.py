#!/usr/bin/env python3
"""sql_check.py -- run the named queries of docs/sql.md on an SQLite export
with the sqlite3 shell, and compare what they answer with `sonde stats`
(text and JSON lines), `--format profile` and `--format jsonl` of the same
trace.  Used by tests/e2e/test_sqlite_export.sh.

    sql_check.py DB SQL_MD STATS_TXT STATS_JSONL PROFILE_TXT EVENTS_JSONL

Prints what it checked; exits 1 with every difference listed.
"""
import json
import re
import subprocess
import sys

from cli_tables import text_table

db, sql_md, stats_txt, stats_jsonl, profile_txt, events_jsonl = sys.argv[1:7]
fails = []
checked = []


def fail(msg):
    fails.append(msg)


def same(what, got, want):
    if got != want:
        fail(f"{what}: SQL {got!r}, CLI {want!r}")


queries = dict(re.findall(r"```sql\n-- name: (\w+)\n(.*?)```", open(sql_md).read(), re.S))
for must in ("cpu_per_task", "cpu_per_core", "isrs", "longest_isr", "slowest_calls", "functions",
             "ready_latency", "before_drop", "counters", "records_per_type", "diagnostics"):
    if must not in queries:
        fail(f"docs/sql.md has no query '{must}'")


def run(name):
    r = subprocess.run(["sqlite3", "-json", db, queries[name]], capture_output=True, text=True)
    if r.returncode != 0 or r.stderr:
        fail(f"query {name}: sqlite3 failed: {r.stderr.strip()}")
        return []
    checked.append(name)
    return json.loads(r.stdout) if r.stdout.strip() else []


stats = open(stats_txt).read().splitlines()
rows = [json.loads(l) for l in open(stats_jsonl)]
an = next((r for r in rows if r["type"] == "analysis"), {})
freq = an.get("ts_freq") or 0
origin = an.get("origin") or 0
ev = [json.loads(l) for l in open(events_jsonl)]


# ---- records per type, diagnostics -------------------------------------------
want = {}
for l in stats:
    m = re.match(r"^  (.+?)\s+(\d+)\s+\(id 0x([0-9A-Fa-f]+)\)$", l)
    if m:
        want[int(m.group(3), 16)] = (m.group(1), int(m.group(2)))
got = {r["rec_id"]: (r["record"], r["n"]) for r in run("records_per_type")}
# the name is compared where an id has one name only: where it has several,
# stats keeps the one it saw change last by pointer (a decoder's reused
# buffer hides a change), the query takes the last record's
multi = {i for i in want if len({e["record"] for e in ev if e["rec_id"] == i}) > 1}
same("records per type", {i: (None if i in multi else g[0], g[1]) for i, g in got.items()},
     {i: (None if i in multi else w[0], w[1]) for i, w in want.items()})
ndiag = next(int(l.split()[1]) for l in stats if l.startswith("diagnostics "))
same("diagnostics", sum(r["n"] for r in run("diagnostics")), ndiag)

# ---- tasks, cores, ISRs ----------------------------------------------------------
tasks = {r["name"]: r for r in rows if r["type"] == "task"}
ttext = text_table(stats, "Tasks:")
got = {r["task"]: r for r in run("cpu_per_task")}
# a task that never ran has no run slices (stats lists it with 0 runs)
same("tasks", sorted(got), sorted(n for n, t in tasks.items() if t["count"]))
for name, g in got.items():
    t = tasks.get(name, {})
    run_ = t.get("run", {})
    same(f"task {name} runs", g["runs"], t.get("count"))
    same(f"task {name} cpu", g["cpu"], t.get("cpu"))
    same(f"task {name} run sum", g["run_sum"], run_.get("sum", 0) if run_.get("n") else None)
    same(f"task {name} run max", g["run_max"], run_.get("max") if run_.get("n") else None)
    same(f"task {name} incomplete", g["incomplete"], run_.get("incomplete"))
    same(f"task {name} cpu%", f"{g['cpu_pct']:.2f}", ttext.get(name, {}).get("cpu%"))

cores = {r["core"]: r for r in rows if r["type"] == "core"}
ctext = text_table(stats, "Cores")
got = run("cpu_per_core")
same("cores", sorted(r["core"] for r in got), sorted(cores))
for g in got:
    c, ct = cores.get(g["core"], {}), ctext.get(str(g["core"]), {})
    same(f"core {g['core']} traced", g["traced"], c.get("traced"))
    for k in ("tasks", "isr", "idle", "notask"):
        same(f"core {g['core']} {k}%", f"{g[k + '_pct']:.2f}", ct.get(k + "%"))
    same(f"core {g['core']} max_nest", g["max_nest"], c.get("max_nest"))

isrs = {r["name"]: r for r in rows if r["type"] == "isr"}
got = {r["isr"]: r for r in run("isrs")}
same("ISRs", sorted(got), sorted(n for n, r in isrs.items() if r["count"]))
for name, g in got.items():
    i = isrs.get(name, {})
    d = i.get("duration", {})
    same(f"isr {name} count", g["count"], i.get("count"))
    same(f"isr {name} cpu", g["cpu"], i.get("cpu"))
    same(f"isr {name} max", g["dur_max"], d.get("max") if d.get("n") else None)
    same(f"isr {name} nest", g["nest"], i.get("max_nest"))

# the ten longest activations of all ISRs: from the ten longest of each
want = sorted(((-d, s, n) for n, i in isrs.items() for d, s in i.get("longest", [])))[:10]
got = run("longest_isr")
same("longest ISRs", [(g["isr"], g["duration"], round(g["at_s"] * freq) if freq else None) for g in got],
     [(n, -d, s) for d, s, n in want] if freq else [(n, -d, None) for d, s, n in want])

# ---- functions --------------------------------------------------------------------
prof = open(profile_txt).read().splitlines()
ftext = text_table(prof, "Functions")
got = {r["function"]: r for r in run("functions")}
same("functions", sorted(got), sorted(ftext))
for name, g in got.items():
    p = ftext.get(name, {})
    same(f"function {name} calls", str(g["calls"]), p.get("calls"))
    for col in ("self", "min", "max"):
        same(f"function {name} {col}", str(g[col]), p.get(col + "[t]"))
slow = run("slowest_calls")
if ftext:
    same("slowest call", slow[0]["incl"] if slow else None, max(int(p["max[t]"]) for p in ftext.values()))
    same("slowest calls in order", [s["incl"] for s in slow], sorted((s["incl"] for s in slow), reverse=True))

# ---- ready-to-run latency (from the records alone) ----------------------------------
got = {r["task"]: r for r in run("ready_latency")}
for name, t in tasks.items():
    lat = t.get("latency", {})
    if not lat.get("n") or lat.get("incomplete"):
        continue  # the SQL does not know the losses the analyses leave out
    g = got.get(name, {})
    same(f"task {name} latency n", g.get("n"), lat["n"])
    same(f"task {name} latency sum", g.get("sum"), lat["sum"])
    same(f"task {name} latency max", g.get("max"), lat["max"])

# ---- from the events themselves -------------------------------------------------------
names = {}
for e in ev:
    if e["kind"] in ("task_in", "isr_enter"):
        key = "task" if e["kind"] == "task_in" else "isr"
        names.setdefault((key, e[key]), e.get(key + "_name") or f"{key} #{e[key]}")
want = []
for k, d in enumerate(ev):
    if d["kind"] != "drops" or d["ts"] is None:
        continue
    before = [(e["ts"], i, e) for i, e in enumerate(ev) if e["core"] == d["core"] and
              e["kind"] in ("task_in", "isr_enter") and e["ts"] is not None and e["ts"] <= d["ts"]]
    for ts, i, e in sorted(before, key=lambda x: (x[0], x[1]), reverse=True)[:5]:
        key = "task" if e["kind"] == "task_in" else "isr"
        want.append((k + 1, key, e.get(key + "_name") or names[(key, e[key])], ts))
got = [(g["drop_id"], g["kind"], g["name"], g["start"]) for g in run("before_drop")]
same("what ran before each drop", got, want)

want = {}
for e in ev:
    if e["kind"] in ("counter", "queue"):
        key = "counter" if e["kind"] == "counter" else "queue"
        v = e["value"] if key == "counter" else e["level"]
        w = want.setdefault((e["kind"], e[key]), [None, 0, v, v, v])
        if e.get(key + "_name"):
            w[0] = max(w[0] or "", e[key + "_name"])
        w[1] += 1
        w[2], w[3], w[4] = min(w[2], v), max(w[3], v), v
got = {g["counter"]: [g["samples"], g["min"], g["max"], g["last"]] for g in run("counters")}
same("counters", got, {w[0] or f"{k[0]} #{k[1]}": w[1:] for k, w in want.items()})

if fails:
    print("\n".join(fails), file=sys.stderr)
    sys.exit(1)
print(f"sql: {len(checked)} queries agree with the CLI ({len(tasks)} tasks, {len(isrs)} ISRs, "
      f"{len(ftext)} functions, {sum(1 for e in ev if e['kind'] == 'drops')} drops)")
