#!/usr/bin/env bash
# test_live_serve.sh -- `sonde live LINK --serve` (docs/live.md): the report
# page served while capturing follows the target.
#
# A stand-in target (serve_target.py, built on fake_target.py's Synth) sends
# one step of records every 20 ms -- an ISR, a counter whose value is the
# step's number, a user record -- and logs when it sent each step.  Two
# headless Chromiums (cdp_page.js) open the page; each records when it first
# saw every item (sonde.live.log).  On the way: a target reset (a new
# TARGET_INFO on the same connection), a task named mid-stream (its lane must
# appear), then the target goes away (the link is down: the page says so)
# and a new one comes on the same port (a reconnect).  Checked: both viewers
# saw the counter values of all three sessions, half of them at most 1 s
# (times TEST_TIME_SCALE) after they were sent (median, 90 % and maximum
# printed), the new task's lane and a 5-frame loss within 2 s (shown in the
# bar, marked on the timeline), the reset and the link down, the load graph
# following the timeline; the capture file (-w) is all the targets sent and
# makes the full report.
# Then a long fast stream with a small ring: the host's RSS stays bounded
# (printed: at half the stream and at its end).
set -euo pipefail
. "$(dirname "$0")/test_live_lib.sh"
live_setup
source "$SRC/tests/e2e/browser/lib.sh"
SONDE_BUILD=${SONDE_BUILD:-$SRC/build}

cat >"$WORK/serve_target.py" <<'PY'
"""serve_target.py PORTFILE PORT LOG START STEPS PACE [--reset-at I] [--name-at I] [--drops-at I] [--go FILE] [--hold]
Listens on 127.0.0.1:PORT, waits for the peer (and for FILE to exist), then
sends STEPS steps of fake_target.Synth, one every PACE seconds, the counter
values from START on; logs JSON lines: each step's value and send time,
the reset, the naming of task 7 "late_task", a loss (5 frames overwritten
and reported); the bytes sent go to LOG.bin."""
import argparse, json, os, socket, struct, sys, time
from fake_target import Synth, PEER_WAIT

ap = argparse.ArgumentParser()
for a in ("portfile", "port", "log", "start", "steps", "pace"):
    ap.add_argument(a)
ap.add_argument("--reset-at", type=int, default=-1)
ap.add_argument("--name-at", type=int, default=-1)
ap.add_argument("--drops-at", type=int, default=-1)
ap.add_argument("--go")
ap.add_argument("--hold", action="store_true")
a = ap.parse_args()
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", int(a.port)))
srv.listen(1)
with open(a.portfile + ".tmp", "w") as f:
    f.write("%d\n" % srv.getsockname()[1])
os.rename(a.portfile + ".tmp", a.portfile)
srv.settimeout(PEER_WAIT)
conn, _ = srv.accept()
end = time.time() + PEER_WAIT
while a.go and not os.path.exists(a.go) and time.time() < end:
    time.sleep(0.01)
log, raw = open(a.log, "w", buffering=1), open(a.log + ".bin", "wb", buffering=0)
s, task = Synth(0), False
s.n = int(a.start)
pace = float(a.pace)

def send(ev):
    chunk = s.pending()
    conn.sendall(chunk)
    raw.write(chunk)
    ev["t"] = time.time()
    log.write(json.dumps(ev) + "\n")

for i in range(int(a.steps)):
    if i == a.reset_at:  # the target starts again on the same link
        n, s = s.n, Synth(0)
        s.n = n
        send({"ev": "reset"})
    if i == a.drops_at:  # 5 frames overwritten in the ring, then their report
        s.seq, s.fno, s.overwritten = (s.seq + 5) & 0xFF, s.fno + 5, s.overwritten + 5
        s.drops()
        send({"ev": "drops"})
    if i == a.name_at:
        s.emit(0x04, bytes([2]) + struct.pack("<I", 7) + b"late_task\0")
        task = True
        send({"ev": "named"})
    if task:
        s.t += 10
        s.record(0x08, None, bytes([7]))  # TASK_IN 7
    s.step()
    if task:
        s.t += 10
        s.record(0x0B, None, b"")         # IDLE
    send({"k": s.n - 1})
    if pace > 0:
        time.sleep(pace)
if a.hold:  # until the peer goes
    conn.settimeout(PEER_WAIT)
    try:
        while conn.recv(4096):
            pass
    except OSError:
        pass
conn.close()
PY
export PYTHONPATH=$WORK

# delta FIELD: a figure of the host's GET /delta (its "live" member)
delta() {
	python3 - "$URL" "$1" <<'PY'
import json, sys, urllib.request
d = json.load(urllib.request.urlopen(sys.argv[1] + "delta?since=0", timeout=30))
print(d["live"][sys.argv[2]])
PY
}
at_least() { local v; v=$(delta "$1" 2>/dev/null) && [ "$v" -ge "$2" ]; }
# at_records N: the host's record count (its "stats") has reached N
at_records() {
	python3 - "$URL" "$1" <<'PY'
import json, sys, urllib.request
d = json.load(urllib.request.urlopen(sys.argv[1] + "delta?since=999999999999", timeout=30))
sys.exit(0 if d["stats"]["records"] >= int(sys.argv[2]) else 1)
PY
}
is() { [ "$(delta "$1" 2>/dev/null)" = "$2" ]; }

# ---- two viewers across a reset, a named task and a reconnect ---------------
bg python3 "$WORK/serve_target.py" "$WORK/p1" 0 "$WORK/t1.log" 0 400 0.02 --reset-at 150 --name-at 250 --drops-at 300 --go "$WORK/go"
t1=$!
wait_for -p "$t1" test -s "$WORK/p1" || fail "target 1 did not start"
port=$(cat "$WORK/p1")
bg timeout -k 5 "$HANG" "$SONDE" live "tcp://127.0.0.1:$port" --proto sonde --serve 0 -w "$WORK/raw.bin" \
	--output /dev/null --no-keys --reconnect-timeout inf </dev/null 2>"$WORK/err.txt"
live=$!
wait_for -p "$live" -l "$WORK/err.txt" has_text "$WORK/err.txt" "serving the page on" || fail "no server"
URL=$(sed -n 's/.*serving the page on \(http:[^ ]*\).*/\1/p' "$WORK/err.txt")
[[ $URL == http://127.0.0.1:* ]] || fail "not on the loopback by default: $URL"

# each viewer: until it has seen the last value of target 2, then what it saw
cat >"$WORK/check.js" <<'JS'
new Promise(function (ok, ko) {
  var t0 = Date.now(), lossAt = 0, lossText = "", dropMarks = 0, load0 = null;
  (function look() {
    var bar = document.getElementById("live-state"), D = sonde.D;
    /* the loss's mark on the diagnostics lane (while its session is shown: a new one starts empty) */
    dropMarks = Math.max(dropMarks, D.items.filter(function (it) {
      return D.lanes[it[0]].kind === "diag" && /lost|drop/i.test(D.names[it[5]] || "");
    }).length);
    if (!lossAt && / lost/.test(bar.textContent) && sonde.D.stats.overwritten > 0) { lossAt = Date.now(); lossText = bar.textContent; }
    var L = sonde.live;
    /* the load graph follows the timeline, which follows the target: where
     * it ended once 20 values had come, to compare with the end */
    if (!load0 && L.log.length > 20) load0 = { v1: sonde.Load.state().v1, tl: sonde.TL.view()[1] };
    var seen = L.log.some(function (e) { return e[0] === "level" && e[3] === 100099; });
    if (seen) return ok({ log: L.log.filter(function (e) { return e[0] === "level" && e[1] === 2; })
      .map(function (e) { return [e[3], e[4]]; }), lanes: L.lanesSeen, states: L.states, resets: L.resets,
      polls: L.polls, items: sonde.D.items.length, bar: document.getElementById("live-state").className,
      lanesNow: sonde.D.lanes.map(function (l) { return l.kind + ":" + l.name; }), lossAt: lossAt, lossText: lossText,
      dropMarks: dropMarks, load0: load0, load1: (function (st) {
        return { v0: st.v0, v1: st.v1, tl: sonde.TL.view(), lanes: Object.keys(st.sums).filter(function (k) { return st.sums[k] > 0; }) };
      })(sonde.Load.state()) });
    if (Date.now() - t0 > window.sondeCeilingMs) return ko(new Error("the last value never came"));
    setTimeout(look, 50);
  })();
})
JS
for v in 1 2; do
	bg "${CDP[@]}" "$URL" "window.sonde && sonde.ready && sonde.live" "$WORK/check.js" "$WORK/view$v.json" \
		"$WORK/view$v.png" >"$WORK/view$v.err" 2>&1
	eval "view$v=\$!"
done
# both pages served (what is sent from now on reaches them as deltas), then go
wait_for -p "$live" -p "$view1" -p "$view2" -l "$WORK/err.txt" at_least pages 2 || fail "the viewers did not load the page"
touch "$WORK/go"
wait "$t1" || fail "target 1 failed"
# the link is down (target 1 closed it): long enough for the viewers to show it
wait_for -p "$live" is up 0 || fail "the host did not see the link go down"
wait_for -p "$live" at_least down_ms 2000 || fail "the link did not stay down"
bg python3 "$WORK/serve_target.py" "$WORK/p2" "$port" "$WORK/t2.log" 100000 100 0.02 --hold
t2=$!
# (cdp_page.js ends on its own: when the page has seen it all, on a page
# error -- the host gone -- or at its ceiling)
wait "$view1" || { cat "$WORK/view1.err"; tail -n 40 "$WORK/err.txt"; fail "viewer 1 failed"; }
wait "$view2" || { cat "$WORK/view2.err"; tail -n 40 "$WORK/err.txt"; fail "viewer 2 failed"; }
kill -INT "$live"
rc=0
wait "$live" || rc=$?
[ "$rc" -le 1 ] || { cat "$WORK/err.txt"; fail "sonde live: exit status $rc"; }
kill "$t2" 2>/dev/null || true

# the capture file is what both targets sent, and makes the full report
cat "$WORK/t1.log.bin" "$WORK/t2.log.bin" >"$WORK/sent.bin"
cmp "$WORK/raw.bin" "$WORK/sent.bin" || fail "the capture file is not what the targets sent"
# (status 1: the 5 frames lost on purpose are said, as they must be)
rc=0
"$SONDE" report "$WORK/raw.bin" -o "$WORK/full.html" 2>"$WORK/full.err" || rc=$?
{ [ "$rc" -le 1 ] && [ -s "$WORK/full.html" ]; } || { cat "$WORK/full.err"; fail "the report of the capture file (status $rc)"; }
grep -q "5 frames lost" "$WORK/full.err" || { cat "$WORK/full.err"; fail "the report does not say the 5 frames lost"; }

python3 - "$WORK/t1.log" "$WORK/t2.log" "$WORK/view1.json" "$WORK/view2.json" "${TEST_TIME_SCALE:-1}" <<'PY' ||
import json, sys
sent, named, dropped = {}, None, None
for f in sys.argv[1:3]:
    for l in open(f):
        e = json.loads(l)
        if "k" in e:
            sent[e["k"]] = e["t"] * 1000
        elif e["ev"] == "named":
            named = e["t"] * 1000
        elif e["ev"] == "drops":
            dropped = e["t"] * 1000
# The goal (1 s from the target to the page) is measured by make bench
# (scripts/bench_report.sh); here the test holds the median to it and single
# events (a lane, a loss: one poll and one redraw each) to twice it, bounds a
# loaded 2-core machine keeps (seen at load 15: median 427 ms, 90 % 982 ms,
# a loss 876 ms), all times TEST_TIME_SCALE.
limit = 1000 * float(sys.argv[5])
fails = []
for v, f in (("viewer 1", sys.argv[3]), ("viewer 2", sys.argv[4])):
    p = json.load(open(f))
    lat = sorted(at - sent[k] for k, at in p["log"] if k in sent)
    ks = {k for k, at in p["log"]}
    phases = [any(k in ks for k in r) for r in (range(0, 150), range(150, 400), range(100000, 100100))]
    if not all(phases):
        fails.append(f"{v}: values of each session expected (before the reset, after, after the reconnect): {phases}")
    if not lat:
        fails.append(f"{v}: saw nothing")
        continue
    p50, p90 = lat[len(lat) // 2], lat[len(lat) * 9 // 10]
    print(f"{v}: {len(lat)} values seen live, latency median {p50:.0f} ms, 90% {p90:.0f} ms, max {lat[-1]:.0f} ms; "
          f"{p['polls']} polls, {p['items']} items, states {p['states']}, resets {p['resets']}")
    if p50 > limit:
        fails.append(f"{v}: half of the records took {p50:.0f} ms or more to show (more than {limit:.0f})")
    lane = p["lanes"].get("task:late_task")
    if lane is None:
        fails.append(f"{v}: no lane for the task named mid-stream: {p['lanesNow']}")
    elif lane - named > 2 * limit:
        fails.append(f"{v}: the named task's lane came {lane - named:.0f} ms after its name")
    if p["resets"] < 2:
        fails.append(f"{v}: {p['resets']} new sessions seen, 2 expected (a reset, a new target)")
    if "down" not in p["states"]:
        fails.append(f"{v}: the link down was never shown: {p['states']}")
    if not p["lossAt"]:
        fails.append(f"{v}: the loss of 5 frames was never shown in the bar")
    else:
        print(f"{v}: the loss shown {p['lossAt'] - dropped:.0f} ms after it was reported: {p['lossText']!r}; "
              f"{p['dropMarks']} loss marks on the timeline")
        if p["lossAt"] - dropped > 2 * limit:
            fails.append(f"{v}: the loss took {p['lossAt'] - dropped:.0f} ms to show")
    l0, l1 = p["load0"], p["load1"]
    if not l0 or l1["v1"] <= l0["v1"]:
        fails.append(f"{v}: the load graph did not scroll: {l0} then {l1}")
    elif [l1["v0"], l1["v1"]] != l1["tl"] or not l1["lanes"]:
        fails.append(f"{v}: the load graph is not the timeline's window, or empty: {l1}")
    else:
        print(f"{v}: the load graph scrolled from ..{l0['v1']:.0f} ns to {l1['v0']:.0f}..{l1['v1']:.0f} ns "
              f"with the timeline; busy lanes {l1['lanes']}")
    if not p["dropMarks"]:
        fails.append(f"{v}: no loss mark on the timeline's diagnostics lane")
    if p["bar"] == "down":
        fails.append(f"{v}: still shows the link down")
if fails:
    sys.exit("\n".join(fails))
PY
	fail "the viewers did not follow the target"

# ---- bounded memory: a long fast stream, a small ring --------------------------
# rss PID: the resident set of sonde, the child of `timeout` PID, in kB
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$(pgrep -P "$1" | head -1)/status"; }
STEPS=200000
bg python3 "$WORK/serve_target.py" "$WORK/p3" 0 "$WORK/t3.log" 0 "$STEPS" 0 --go "$WORK/go3" --hold
t3=$!
wait_for -p "$t3" test -s "$WORK/p3" || fail "target 3 did not start"
# (under ASan, its quarantine of freed memory is kept small: it would count)
[ -z "${ASAN_OPTIONS:-}" ] || export ASAN_OPTIONS="$ASAN_OPTIONS:quarantine_size_mb=8"
bg timeout -k 5 "$HANG" "$SONDE" live "tcp://127.0.0.1:$(cat "$WORK/p3")" --proto sonde --serve 0 -o serve.items=5000 \
	--output /dev/null --no-keys --reconnect-timeout 0 </dev/null 2>"$WORK/err3.txt"
live=$!
wait_for -p "$live" -l "$WORK/err3.txt" has_text "$WORK/err3.txt" "serving the page on" || fail "no server (2)"
URL=$(sed -n 's/.*serving the page on \(http:[^ ]*\).*/\1/p' "$WORK/err3.txt")
touch "$WORK/go3"
# a viewer's polls all along (what the page asks for), and the RSS at half
# the stream and at its end: once the ring and the pools are full (a few
# times 5000 items) it stays where it is
steps_sent() { wc -l 2>/dev/null <"$WORK/t3.log" || echo 0; }
since=0
poll_once() {
	since=$(python3 -c 'import json, sys, urllib.request
d = json.load(urllib.request.urlopen(sys.argv[1] + "delta?since=" + sys.argv[2], timeout=30)); print(d["seq"])' "$URL" "$since") ||
		{ tail -n 60 "$WORK/err3.txt"; fail "the host did not answer"; }
}
while [ "$(steps_sent)" -lt $((STEPS / 2)) ]; do
	gone "$t3" && fail "target 3 ended"
	poll_once
done
rss1=$(rss "$live")
while [ "$(steps_sent)" -lt "$STEPS" ]; do
	gone "$t3" && fail "target 3 ended"
	poll_once
done
# all of it decoded: the host has counted every record sent
wait_for -p "$live" at_records $((STEPS * 4))
poll_once
rss2=$(rss "$live")
kill -INT "$live"
wait "$live" || true
echo "host RSS: ${rss1} kB at half the stream, ${rss2} kB at its end ($STEPS steps, $((STEPS * 4)) records, ring of 5000 items)"
[ "$rss2" -le $((rss1 + 2048)) ] || fail "the host's RSS grew from ${rss1} kB to ${rss2} kB over the stream"
echo PASS
