#!/usr/bin/env bash
# test_analysis_stats.sh -- the timing analyses of `sonde stats` (text and
# JSONL) on a generated stream whose figures are known: task CPU time, runs,
# run times and percentiles, ready-to-run latency, ISR durations without
# nested ISRs, nesting, idle share, windows, longest runs, and the loss
# rule (a run with lost frames inside is incomplete, kept out of max); the
# selection (--from/--to/--filter) applied to them; and the same CPU times
# as the profile on the POSIX demo.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup

# 1000 Hz: one tick = 1 ms.  Task 1 "a": ready at 1000, runs 1002-1010 with
# ISR 5 1004-1006 inside it (ISR 6 nested 1005-1006); task 2 "b" runs
# 1010-1014 (ready at 1008), idle 1014-1020, "a" runs from 1020 until frames
# are lost: the loss cuts its run there (incomplete, 0 ticks; core/loss.h),
# and the core runs no task until the IDLE at 1030; idle 1030-1040.
F=$TMP/a.bin
{
	session 1000
	sf 4 2 $(le32 1) $(strz a)
	sf 4 2 $(le32 2) $(strz b)
	sf 4 3 $(le32 5) $(strz irqA)
	sf 4 3 $(le32 6) $(strz irqB)
	tsync 1000 0xffffffff
	tf 0x0a 1000 1          # READY a
	tf 0x08 1002 1          # IN a
	tf 0x05 1004 5          # ISR irqA
	tf 0x05 1005 6          # ISR irqB nested
	tf 0x06 1006            # exit irqB
	tf 0x06 1006            # exit irqA
	tf 0x0a 1008 2          # READY b
	tf 0x09 1010 1 1        # OUT a blocked
	tf 0x08 1010 2          # IN b
	tf 0x09 1014 2 1        # OUT b blocked
	tf 0x0b 1014            # IDLE
	tf 0x0a 1018 1          # READY a
	tf 0x08 1020 1          # IN a
	skip_seq 2                      # 2 frames lost while a runs
	tsync 1025 5
	tf 3 1025 $(le32 2) $(le32 0) 0   # DROPS: 2 overwritten, no counter reset
	tf 0x09 1030 1 1        # OUT a
	tf 0x0b 1030
	tf 0x0c 1040 0          # a last MARK ends the trace at 1040
} >"$F"

expect_rc 1 "$SONDE" stats -q "$F" --format jsonl
python3 - "$OUT" <<'PY' || fail "stats --format jsonl figures"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {(r["type"], r.get("name")): r for r in rows}
an = by[("analysis", None)]
assert an["total"] == 40 and an["ts_freq"] == 1000, an
a, b = by[("task", "a")], by[("task", "b")]
# a: 1002-1010 minus 2 ticks of ISRs = 6; its run from 1020 is cut there
assert a["cpu"] == 6 and a["count"] == 2, a
assert a["run"]["n"] == 1 and a["run"]["max"] == 6 and a["run"]["incomplete"] == 1, a["run"]
assert a["latency"]["n"] == 2 and a["latency"]["max"] == 2 and a["latency"]["sum"] == 4, a["latency"]
assert b["cpu"] == 4 and b["run"]["max"] == 4 and b["latency"]["max"] == 2, b
A, B = by[("isr", "irqA")], by[("isr", "irqB")]
assert A["cpu"] == 1 and A["duration"]["max"] == 1 and A["max_nest"] == 1, A  # 1004-1005 (+0 after irqB)
assert B["cpu"] == 1 and B["duration"]["max"] == 1 and B["max_nest"] == 2, B
idle = by[("idle", "(idle)")]
assert idle["cpu"] == 16, idle
core = by[("core", None)]
assert core["traced"] == 40 and core["idle"] == 16 and core["isr"] == 2 and core["max_nest"] == 2, core
assert core["tasks"] + core["isr"] + core["idle"] + core["notask"] == 40, core
assert an["losses"] >= 1, an
assert a["longest"] == [[6, 2]], a["longest"]    # 6 ticks, starting 2 ticks after the first record
PY

expect_rc 1 "$SONDE" stats -q "$F" --window 10t
expect_line "$OUT" "Incomplete (a loss inside, or open at the end; not in mean/percentiles/max): 1 runs, 0 ISR activations, 0 ready waits; 2 losses, 0 ISR stack resyncs"
grep -q "^CPU load per window of 10000.000 us" "$OUT" || fail "window header"
# windows: 1000-1010: a 6, irqA 1, irqB 1, No task 2 -> 60 % for a
awk '/^start\[s\]/ { split($0, h); for (i = 1; i <= NF; i++) col[$i] = i; getline; print $col["a"], $col["irqA"], $col["No"] }' "$OUT" |
	grep -qx "60.00 10.00 20.00" || { cat "$OUT"; fail "first window's load"; }

# the selection applies to the analyses: from tick 1015 (absolute) on, a runs once
expect_rc 1 "$SONDE" stats -q "$F" --from 1015t --format jsonl
python3 -c '
import json, sys
a = [r for r in map(json.loads, open(sys.argv[1])) if r.get("name") == "a"][0]
assert a["count"] == 1 and a["cpu"] == 0, a  # its run is cut by the loss at 1020' "$OUT" || fail "--from on the analyses"
expect_rc 2 "$SONDE" stats "$F" --window fast
expect_rc 2 "$SONDE" stats "$F" --top 0

# the POSIX demo: the analyses charge time as the profile does
"$SONDE_BUILD/examples/posix-demo/posix-demo" -n 100 -o "$TMP/demo.bin" 2>/dev/null || fail "posix-demo"
"$SONDE" stats "$TMP/demo.bin" --format jsonl >"$TMP/an.jsonl" || fail "stats of the demo"
"$SONDE" decode "$TMP/demo.bin" --format profile >"$TMP/prof.txt" || fail "profile of the demo"
python3 - "$TMP/an.jsonl" "$TMP/prof.txt" <<'PY' || fail "analyses and profile disagree"
import json, re, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
cpu = {r["name"]: r["cpu"] for r in rows if r["type"] in ("task", "isr", "idle", "notask")}
txt = open(sys.argv[2]).read()
prof = {}
sec = None
for line in txt.splitlines():
    if line.startswith("Tasks"): sec = "t"
    elif line.startswith("ISRs"): sec = "i"
    elif sec and line.startswith(("task ", "isr ")):
        ncol = len(line.split())
    elif sec and line:
        f = line.rsplit(None, ncol - 1)  # a name may hold spaces ("No task")
        prof[f[0]] = int(f[2])
    elif not line: sec = None if sec and prof else sec
want = {k: v for k, v in prof.items()}
got = {k: cpu.get(k) for k in want}
assert got == want, (got, want)
print("analyses = profile:", got)
PY

# An RTOS trace (the FreeRTOS Tonbandgeraet capture): the JSON lines carry
# the text's RTOS tables, in ticks (the text: us with one decimal)
R=$SONDE_TESTDATA/tband/repo_examples_POSIX_FreeRTOS_log.bin
"$SONDE" stats -q "$R" >"$TMP/rtos.txt" || fail "stats of the FreeRTOS capture"
"$SONDE" stats -q "$R" --format jsonl >"$TMP/rtos.jsonl" || fail "stats --format jsonl of the FreeRTOS capture"
python3 - "$TMP/rtos.txt" "$TMP/rtos.jsonl" <<'PY' || fail "RTOS tables: text and JSON lines disagree"
import json, sys
txt = open(sys.argv[1]).read().splitlines()
js = [json.loads(l) for l in open(sys.argv[2])]
freq = next(j for j in js if j["type"] == "analysis")["ts_freq"]
us = lambda t: "%.1f" % (t * 1e6 / freq)
tasks = {j["name"]: j for j in js if j["type"] == "rtos_task"}
objs = {j["name"] or "#%d" % j["id"]: j for j in js if j["type"] == "rtos_object"}  # unnamed: "#id" in the text
head = next(j for j in js if j["type"] == "rtos")
assert head["tasks"] == len(tasks) == 5 and head["objects"] == len(objs) == 4, head
i = txt.index(next(l for l in txt if l.startswith("RTOS tasks")))
for line in txt[i + 2:i + 2 + len(tasks)]:
    name, run, ready, blocked, susp, sw, blocks, stack = line.rsplit(None, 7)
    j = tasks[name]
    got = [us(j["running"]), us(j["ready"]), us(j["blocked"]), us(j["suspended"]), str(j["switches"]), str(j["blocks"])]
    assert got == [run, ready, blocked, susp, sw, blocks], (name, got, line)
    assert (j["stack_min"] is None) == (stack == "-"), (name, stack)
i = txt.index(next(l for l in txt if l.startswith("RTOS objects")))
for line in txt[i + 2:i + 2 + len(objs)]:
    name = line.split()[0]
    j = objs[name]
    assert line.split()[1] == j["kind"].split()[0], (line, j)
    assert "%d/%d" % tuple(j["put"]) in line and "%d/%d" % tuple(j["get"]) in line, (line, j)
    assert us(j["wait_total"]) in line.split() and us(j["hold_max"]) in line.split(), (line, j)
print("RTOS tables: %d tasks and %d objects the same in text and JSON lines" % (len(tasks), len(objs)))
PY
echo "PASS"
