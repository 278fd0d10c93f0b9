#!/usr/bin/env python3
"""speedscope_check.py -- check a `--format speedscope` export against the
CLI, exactly, or against what speedscope showed of it in the browser.
Used by tests/e2e/test_speedscope_export.sh.

    speedscope_check.py EXPORT STATS_JSONL PROFILE_TXT             (the CLI)
    speedscope_check.py EXPORT STATS_JSONL PROFILE_TXT VIEW NAME   (the browser)

Both: valid evented profiles (events in time order, every frame closed as
it was opened, inside 0..endValue).  Against the CLI (an export made with
--idle, so that calls the trace places in the idle loop count too): one
profile per task that ran, named after it, whose root frame's time is the
task's CPU time in `sonde stats`; the ISRs' time (nested ISRs excluded) as
in `sonde stats`; every function's self time, inclusive time and calls as
in `--format profile` (inclusive time only where ISRs do not nest: there
speedscope counts a nested ISR inside the function it interrupted;
functions the profile flags -- a lost exit, an estimated time -- are not
compared).  Against the browser (the default export): no Idle profile; the
same profiles as the file, in the same order, opened on the busiest (the
most time with a frame open: the first one is often a task that ran for a
microsecond at boot), and each profile's Sandwich
table lists its frames with their total and self time as speedscope
rounds them.
"""
import json
import re
import sys

from cli_tables import text_table

export, stats_jsonl, profile_txt = sys.argv[1:4]
view = json.load(open(sys.argv[4])) if len(sys.argv) > 5 else None
view_name = sys.argv[5] if len(sys.argv) > 5 else None
fails = []


def fail(msg):
    if len(fails) < 40:
        fails.append(msg)


doc = json.load(open(export))
rows = [json.loads(l) for l in open(stats_jsonl)]
freq = next((r["ts_freq"] for r in rows if r["type"] == "analysis"), 0) or 1000000000
ns = lambda ticks: ticks * 1000000000 // freq if freq != 1000000000 else ticks
frames = [f["name"] for f in doc["shared"]["frames"]]
isr_names = {r["name"] for r in rows if r["type"] == "isr"}
nested = any(r.get("max_nest", 0) > 1 for r in rows if r["type"] == "isr")

# ---- the profiles as speedscope reads them ----------------------------------
prof = []
for p in doc["profiles"]:
    if p["type"] != "evented" or p["unit"] != "nanoseconds":
        fail(f"profile {p['name']}: {p['type']} in {p['unit']}")
    total, self_, opens, isr_excl, busy = {}, {}, {}, {}, 0
    stack, last = [], p["startValue"]
    for e in p["events"]:
        at, f = e["at"], e["frame"]
        if at < last or at > p["endValue"] or not 0 <= f < len(frames):
            fail(f"profile {p['name']}: event {e} out of order or range")
            break
        if stack:
            busy += at - last
            name = frames[stack[-1][0]]
            self_[name] = self_.get(name, 0) + at - last
            isr = next((frames[g] for g, _ in reversed(stack) if frames[g] in isr_names), None)
            if isr:
                isr_excl[isr] = isr_excl.get(isr, 0) + at - last
        last = at
        if e["type"] == "O":
            stack.append((f, at))
            opens[frames[f]] = opens.get(frames[f], 0) + 1
        else:
            if not stack or stack[-1][0] != f:
                fail(f"profile {p['name']}: frame {frames[f]} closed, not the one open")
                break
            g, t0 = stack.pop()
            if all(h != g for h, _ in stack):  # a recursion counts once
                total[frames[g]] = total.get(frames[g], 0) + at - t0
    if stack:
        fail(f"profile {p['name']}: {len(stack)} frames never closed")
    prof.append({"name": p["name"], "busy": busy, "total": total, "self": self_, "opens": opens, "isr": isr_excl,
                 "roots": {frames[e["frame"]] for e in p["events"][:1]}})

names = [p["name"] for p in prof]
# speedscope opens activeProfileIndex: the busiest profile
busiest = max(range(len(prof)), key=lambda i: (prof[i]["busy"], -i)) if prof else 0
if doc.get("activeProfileIndex", 0) != busiest:
    fail(f"activeProfileIndex {doc.get('activeProfileIndex')}, the busiest profile is {busiest} ({names[busiest]})")
if view is not None and ("Idle" in names or any(n.startswith("Idle (core") for n in names)):
    fail("an Idle profile without -o idle=1")

def near(a, b, slack):
    return abs(a - b) <= slack


nfunc = 0
if view is None:
    # ---- tasks and ISRs against sonde stats -------------------------------------------
    for t in (r for r in rows if r["type"] == "task" and r["count"]):
        p = next((p for p in prof if re.fullmatch(re.escape(t["name"]) + r"( \(core \d+\))?", p["name"])), None)
        if not p:
            fail(f"no profile for task {t['name']}")
            continue
        got = p["total"].get(t["name"], 0)
        if not near(got, ns(t["cpu"]), p["opens"].get(t["name"], 0)):  # ns are rounded per event
            fail(f"task {t['name']}: {got} ns in speedscope, stats {t['cpu']} ticks")
    for r in (r for r in rows if r["type"] == "isr" and r["count"]):
        got = sum(p["isr"].get(r["name"], 0) for p in prof)
        if not near(got, ns(r["cpu"]), 2 * sum(p["opens"].get(r["name"], 0) for p in prof)):
            fail(f"isr {r['name']}: {got} ns in speedscope, stats {r['cpu']} ticks")

    # ---- functions against --format profile ---------------------------------------------
    for row in text_table(open(profile_txt).read().splitlines(), "Functions").values():
        # unnamed functions are labelled as on the timelines: "func 0x8000101", "func #12"
        name = re.sub(r"^(0x[0-9a-f]+)$", r"func \1", re.sub(r"^func#(\d+)$", r"func #\1", row["function"]))
        if row.get("flags"):
            continue  # its times are uncertain (a lost exit...): the two models close it differently
        nfunc += 1
        opens = sum(p["opens"].get(name, 0) for p in prof)
        got = sum(p["self"].get(name, 0) for p in prof)
        if not near(got, ns(int(row["self[t]"])), 2 * opens):
            fail(f"function {name}: self {got} ns in speedscope, profile {row['self[t]']} ticks")
        got = sum(p["total"].get(name, 0) for p in prof)
        if not nested and not near(got, ns(int(row["incl[t]"])), 2 * opens):
            fail(f"function {name}: total {got} ns in speedscope, profile {row['incl[t]']} ticks")
        if opens < int(row["calls"]):
            fail(f"function {name}: {opens} frames opened in speedscope, {row['calls']} calls")

# ---- what speedscope showed ------------------------------------------------------------
UNITS = {"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9, "min": 60e9}


def shown(text):
    """'3.19ms (64%)' -> (3.19e6 ns, the slack of its rounding)"""
    m = re.match(r"([\d.]+)(ns|µs|ms|s|min)\b", text)
    if not m:
        fail(f"speedscope shows {text!r}")
        return 0, 0
    digits = len(m.group(1).split(".")[1]) if "." in m.group(1) else 0
    return float(m.group(1)) * UNITS[m.group(2)], 0.51 * 10 ** -digits * UNITS[m.group(2)]


if view is not None:
    v = next((x for x in view if x["file"] == view_name), None)
    if not v:
        fail(f"speedscope did not show {view_name}")
    else:
        want = names or ["(no task, ISR or function slices in this trace)"]
        got = [p["name"] for p in v["profiles"]]
        if prof and v.get("opened") != names[busiest]:
            fail(f"speedscope opened on {v.get('opened')!r}, the busiest profile is {names[busiest]!r}")
        if got != want:
            fail(f"speedscope's profiles {got}, the export's {want}")
        for vp, p in zip(v["profiles"], prof):
            if vp["count"] != len(want):
                fail(f"speedscope counts {vp['count']} profiles, the export has {len(want)}")
            shown_frames = {r[2]: r for r in vp["rows"]}
            # the Sandwich table draws the rows in view: a long one is not all in the page
            if set(shown_frames) != set(p["total"]) and not (len(p["total"]) > 40 and set(shown_frames) < set(p["total"])):
                fail(f"{p['name']}: speedscope lists {sorted(shown_frames)}, the export {sorted(p['total'])}")
            for name, r in shown_frames.items():
                for col, exact in ((0, p["total"].get(name, 0)), (1, p["self"].get(name, 0))):
                    val, slack = shown(r[col])
                    if abs(val - exact) > slack:
                        fail(f"{p['name']}: {name} shown {r[col]!r}, the export {exact} ns")

if fails:
    print("\n".join(fails), file=sys.stderr)
    sys.exit(1)
if view is None:
    print(f"speedscope: {len(prof)} profiles ({', '.join(names)}), {nfunc} functions agree with the CLI")
else:
    print(f"speedscope shows {len(prof)} profiles ({', '.join(names)}) as in the file")
