#!/usr/bin/env bash
# test_perfetto_export.sh -- `sonde decode --format perfetto|chrome` on a real
# Sonde capture (the POSIX demo, recorded here): protoc decodes the .pftrace
# against host/src/sinks/perfetto_trace.proto, Python's json module parses the
# Chrome file, and the slices, instants and counters of both are counted
# against the records of the same capture (from --format jsonl) and against
# each other.  Also: perfetto.sched=0 drops the scheduler packets, and a write
# error gives exit status 3.
set -euo pipefail
: "${SONDE:?}" "${SONDE_BUILD:?}" "${SONDE_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PROTO_DIR=$SONDE_SRC/host/src/sinks

"$SONDE_BUILD/examples/posix-demo/posix-demo" -n 150 -o "$T/trace.bin" 2>"$T/demo.log"
"$SONDE" decode "$T/trace.bin" --format jsonl --output "$T/t.jsonl"
"$SONDE" decode "$T/trace.bin" --format perfetto --output "$T/t.pftrace"
"$SONDE" decode "$T/trace.bin" --format chrome --output "$T/t.json"
"$SONDE" decode "$T/trace.bin" --format perfetto -o perfetto.sched=0 --output "$T/nosched.pftrace"
protoc --proto_path="$PROTO_DIR" --decode=perfetto.protos.Trace "$PROTO_DIR/perfetto_trace.proto" \
  <"$T/t.pftrace" >"$T/t.txt"
protoc --proto_path="$PROTO_DIR" --decode=perfetto.protos.Trace "$PROTO_DIR/perfetto_trace.proto" \
  <"$T/nosched.pftrace" >"$T/nosched.txt"

python3 - "$T" <<'PY'
import collections, json, re, sys
T = sys.argv[1]
recs = collections.Counter(json.loads(l)["kind"] for l in open(f"{T}/t.jsonl"))
doc = json.load(open(f"{T}/t.json", encoding="utf-8"))
ev = doc["traceEvents"]
ph = collections.Counter(e["ph"] for e in ev)
begins = collections.Counter(e.get("cat") for e in ev if e["ph"] == "B" and not e.get("args", {}).get("resumed"))
inst = collections.Counter(e.get("cat") for e in ev if e["ph"] == "i")
sched = collections.Counter(e["name"] for e in ev if e["ph"] == "B" and e.get("cat") == "sched")
fails = []
def check(what, got, want):
    print(f"{what:34s} {got:7d} {want:7d}")
    if got != want:
        fails.append(what)
assert recs["isr_enter"] > 0 and recs["func_enter"] > 0, recs
check("ISR slices = ISR_ENTER", begins["isr"], recs["isr_enter"])
check("function slices = FUNC_ENTER", begins["func"], recs["func_enter"])
check("marker slices = MARK_BEGIN", begins["mark"], recs["mark_begin"])
check("marker instants = MARK", inst["mark"], recs["mark"])
check("log instants = LOG", inst["log"], recs["log"])
check("record instants = user records", inst["record"], recs["record"])
check("Idle slices = IDLE", sched["Idle"], recs["idle"])
check("Running slices = TASK_IN", sched["Running"], recs["task_in"])
check("counter samples = COUNTER+QUEUE", ph["C"], recs["counter"] + recs["queue"])
# balanced slices per thread: what is still open at the end is at most the
# running task or idle, its function slices, and task states
depth = collections.Counter()
for e in ev:
    if e["ph"] in "BE":
        depth[(e["pid"], e["tid"])] += 1 if e["ph"] == "B" else -1
        assert depth[(e["pid"], e["tid"])] >= 0, e
check("threads left with > 3 open slices", sum(1 for d in depth.values() if d > 3), 0)
# the Perfetto file holds the same slices, instants and counters
txt = open(f"{T}/t.txt").read()
pf = collections.Counter(re.findall(r"type: TYPE_(\w+)", txt))
check("perfetto SLICE_BEGIN = chrome B", pf["SLICE_BEGIN"], ph["B"])
check("perfetto SLICE_END = chrome E", pf["SLICE_END"], ph["E"])
check("perfetto INSTANT = chrome i", pf["INSTANT"], ph["i"])
check("perfetto COUNTER = chrome C", pf["COUNTER"], ph["C"])
check("perfetto descriptors = M + counters", txt.count("track_descriptor {"),
      ph["M"] + len({(e["pid"], e["name"]) for e in ev if e["ph"] == "C"}))
check("TASK_STATE_RUNNING = TASK_IN", txt.count("state: TASK_STATE_RUNNING"), recs["task_in"])
nosched = open(f"{T}/nosched.txt").read()
check("perfetto.sched=0: no scheduler packets", nosched.count("generic_kernel"), 0)
check("perfetto.sched=0: same track events", nosched.count("track_event {"), txt.count("track_event {"))
if fails:
    sys.exit("FAILED: " + ", ".join(fails))
PY

for fmt in perfetto chrome; do
  rc=0
  "$SONDE" decode "$T/trace.bin" --format $fmt --output /dev/full 2>"$T/err" || rc=$?
  if [ $rc -ne 3 ]; then
    echo "FAILED: --format $fmt to /dev/full exited $rc, want 3"; cat "$T/err"; exit 1
  fi
done
sizes=$(stat -c '%s' "$T/trace.bin" "$T/t.pftrace" "$T/t.json" | tr '\n' ' ')
echo "sizes (input, perfetto, chrome): $sizes"
echo "1 passed, 0 failed"
