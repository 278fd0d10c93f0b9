#!/usr/bin/env bash
# sonde-test: once
# test_report_views.sh -- what is around the report's timeline (issue 16),
# in headless Chromium (tests/e2e/browser/cdp_page.js), on the POSIX demo:
#  - the CPU load graph follows TL.zoom: its x-axis labels are the window's
#    ends, and its per-lane sums equal the CPU time of the page's items in
#    the window (depth-0 slices clipped to it, the core's ISR time taken out
#    of the others, worked out here in Python);
#  - the event list: after a pan its first row is the first item at or
#    after the window's start; scrolling the list pans the timeline;
#    clicking a row selects its item;
#  - the window statistics equal a computation over `sonde decode -f jsonl`
#    for the same window (task run time outside ISRs and runs started;
#    ISR time and activations);
#  - the flame graph leaves (idle) out until "show (idle)" is ticked, and
#    the page names the no-task context "No task" only;
#  - on a thinned page, zoomed into time whose detail was dropped, the load
#    graph and the window statistics use the overview bins and say so.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
source "$SONDE_SRC/tests/e2e/browser/lib.sh"
ART=$SONDE_BUILD/test-artifacts
mkdir -p "$ART"

"$SONDE_BUILD/examples/posix-demo/posix-demo" -n 100 -o "$TMP/t.bin" 2>/dev/null || fail "posix-demo"
expect_rc 0 "$SONDE" report "$TMP/t.bin" -o "$TMP/r.html"
"$SONDE" decode "$TMP/t.bin" -f jsonl >"$TMP/t.jsonl" || fail "jsonl"

# a 20 ms window from the middle of the trace on, in ns from the first
# record, with task runs and ISRs in it: the demo runs on the host's clock,
# so on a loaded machine a fixed window can be empty
read -r WLO WHI < <(python3 - "$TMP/t.jsonl" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
ev = [e for e in ev if e["ts"] is not None]
origin, end = ev[0]["ts"], ev[-1]["ts"]
ns = lambda t: (t - origin) * 1000  # the demo's clock: 1 MHz
for e in ev:
    if e["kind"] == "isr_enter" and e["ts"] >= (origin + end) // 2:
        lo = ns(e["ts"]) - 5000000
        if any(x["kind"] == "task_in" and lo <= ns(x["ts"]) < lo + 20000000 for x in ev):
            print(lo, lo + 20000000)
            break
else:
    print(0, 20000000)
PY
)
cat >"$TMP/check.js" <<'JS'
(async function () {
  var res = {}, TL = sonde.TL, D = sonde.D;
  var frame = function () { return new Promise(function (r) { requestAnimationFrame(function () { r(); }); }); };
  var until = async function (what, cond) { /* event-driven wait; the ceiling is against a hang only */
    var end = Date.now() + (window.sondeCeilingMs || 300000);
    while (!cond()) { if (Date.now() > end) throw new Error("timeout: " + what); await frame(); }
  };
  res.items = D.items; res.lanes = D.lanes.map(function (l) { return [l.kind, l.name, l.core]; });
  res.names = D.names; res.freq = D.freq || D.ts_freq;
  /* the load graph after a zoom */
  res.loadBefore = sonde.Load.state();
  TL.zoom(WLO, WHI);
  res.view = TL.view();
  res.load = sonde.Load.state();
  res.fmt = [fmtNs(res.view[0]), fmtNs(res.view[1])];
  res.win = sonde.WinStats.state();
  /* while the window moves every frame, each frame brings at least one
   * view up to date; once it rests, the next frame brings all */
  res.behindMoving = [];
  for (var f = 1; f <= 6; f++) {
    var vv = TL.view(), dw = (vv[1] - vv[0]) / 50;
    TL.zoom(vv[0] + dw, vv[1] + dw);
    await frame();
    res.behindMoving.push(sonde.viewsBehind());
  }
  await frame();
  res.behindRest = sonde.viewsBehind();
  /* the event list after a pan */
  var w = res.view[1] - res.view[0];
  TL.zoom(res.view[0] + w / 3, res.view[1] + w / 3);
  res.panView = TL.view();
  var k = sonde.Events.first();
  res.firstAfterPan = k >= 0 ? D.items[k] : null;
  /* scrolling the list pans the timeline: 25 rows down */
  var row = sonde.Events.firstRow() + 25, before = TL.view();
  sonde.Events.scrollToRow(row);
  await until("the timeline to follow the list", function () { return TL.view()[0] !== before[0]; });
  res.scrolledRow = sonde.Events.firstRow();
  res.scrolledItem = D.items[sonde.Events.first()];
  res.scrolledView = TL.view();
  /* small scrolls reuse the rows still in sight (each row keeps its
   * element): after each, the rows shown are the list's, in order, each
   * with its own item's text, one under the other from the first row */
  res.rowChecks = [];
  for (var step = 1; step <= 9; step++) {
    var b = TL.view();
    sonde.Events.scrollToRow(sonde.Events.firstRow() + (step % 3) + 1);
    await until("the timeline to follow the list", function () { return TL.view()[0] !== b[0]; });
    var shown = Array.prototype.filter.call(document.querySelectorAll("#events-inner .ev-row"),
      function (e) { return e.style.display !== "none"; });
    shown.sort(function (a, c) { return parseFloat(a.style.top) - parseFloat(c.style.top); });
    res.rowChecks.push({ firstRow: sonde.Events.firstRow(), first: sonde.Events.first(), rowH: sonde.Events.rowHeight,
      rows: shown.map(function (e) {
        return [+e.dataset.k, parseFloat(e.style.top), e.firstChild.textContent, fmtNs(D.items[+e.dataset.k][2])];
      }) });
  }
  /* clicking a row selects its item */
  var el = document.querySelector("#events-inner .ev-row");
  el.click();
  res.clicked = +el.dataset.k; res.selected = sonde.selected;
  res.detail = document.getElementById("tl-detail").textContent;
  /* the flame graph: (idle) out by default, in with the switch */
  res.rootsDefault = sonde.Flame.roots().map(sonde.Flame.name);
  res.boxesDefault = sonde.Flame.boxes().map(function (b) { return sonde.Flame.name(b[0]); });
  var cb = document.getElementById("flame-idle");
  cb.click();
  res.rootsIdle = sonde.Flame.roots().map(sonde.Flame.name);
  cb.click();
  res.profileRoots = D.profile.nodes.filter(function (n) { return n[0] < 0; }).map(function (n) { return n[3]; });
  res.text = document.body.innerText;
  res.calltreeRoots = Array.prototype.map.call(document.querySelectorAll("#calltree-body > .ct-root"), function (e) {
    return (e.querySelector("summary") || e).textContent.split(" \u2014 ")[0];
  });
  document.getElementById("load").scrollIntoView();
  return res;
})()
JS
sed -i "s/WLO, WHI/$WLO, $WHI/" "$TMP/check.js"
"${CDP[@]}" "file://$TMP/r.html" "window.sonde && sonde.ready" "$TMP/check.js" "$TMP/page.json" "$ART/report-views.png" ||
	fail "the report did not load cleanly in chromium"

python3 - "$TMP/page.json" "$TMP/t.jsonl" <<'PY' || fail "the views around the timeline"
import json, re, sys
page = json.load(open(sys.argv[1]))
ev = [json.loads(l) for l in open(sys.argv[2])]
items, lanes, names = page["items"], page["lanes"], page["names"]
fails = []
def check(cond, msg):
    if not cond:
        fails.append(msg)

v0, v1 = page["view"]
# ---- the event list's rows after small scrolls -----------------------------------------
check(all(b < 3 for b in page["behindMoving"]), f"views behind the moving window, frame by frame: {page['behindMoving']}")
check(page["behindRest"] == 0, f"{page['behindRest']} views behind the window a frame after it rested")
order = sorted((k for k, it in enumerate(items) if lanes[it[0]][0] != "state"), key=lambda k: (items[k][2], k))
for c in page["rowChecks"]:
    rows, r0 = c["rows"], c["firstRow"]
    check(len(rows) >= 5, f"event list: {len(rows)} rows shown")
    check([r[0] for r in rows] == order[r0:r0 + len(rows)],
          f"event list from row {r0}: items {[r[0] for r in rows]}, the list has {order[r0:r0 + len(rows)]}")
    check(rows and rows[0][0] == c["first"], f"event list: top row {rows[0][0] if rows else None}, first item {c['first']}")
    for j, (k, top, shown, want) in enumerate(rows):
        check(top == (r0 + j) * c["rowH"], f"event list: row {j} at {top} px, not {(r0 + j) * c['rowH']}")
        check(shown == want, f"event list: row {j} (item {k}) shows time {shown}, its item's is {want}")
# ---- the load graph follows the zoom -----------------------------------------------
L = page["load"]
check(page["loadBefore"]["v0"] != L["v0"], "the load graph did not change with the zoom")
check((L["v0"], L["v1"]) == (v0, v1), f"load graph window {L['v0']}..{L['v1']}, timeline {v0}..{v1}")
check(L["labels"][0] == page["fmt"][0] and L["labels"][-1] == page["fmt"][1],
      f"x-axis labels {L['labels'][0]} .. {L['labels'][-1]}, window {page['fmt']}")
check(L["source"] == "items", f"zoomed in, the load graph used {L['source']}")
def union(iv):
    out = []
    for a, b in sorted(iv):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out
isr = {}
for it in items:
    if lanes[it[0]][0] == "isr" and it[1] == 0 and it[4] == 0:
        isr.setdefault(lanes[it[0]][2], []).append((it[2], it[2] + it[3]))
isr = {c: union(iv) for c, iv in isr.items()}
def cpu(lane, a, b):
    """CPU time of a lane's depth-0 slices in [a, b]: ISR time out of the others"""
    s = 0
    for it in items:
        if it[0] != lane or it[1] != 0 or it[4] != 0:
            continue
        x, y = max(a, it[2]), min(b, it[2] + it[3])
        if x >= y:
            continue
        s += y - x
        if lanes[lane][0] != "isr":
            for p, q in isr.get(lanes[lane][2], []):
                s -= max(0, min(y, q) - max(x, p))
    return s
for l, (kind, name, core) in enumerate(lanes):
    if kind in ("task", "isr", "notask", "idle"):
        want, got = cpu(l, v0, v1), L["sums"].get(name, 0)
        check(abs(want - got) <= 1, f"load graph {name}: {got} ns, the items {want} ns")
# ---- the event list -------------------------------------------------------------
p0 = page["panView"][0]
first = min((it for it in items if lanes[it[0]][0] != "state" and it[2] >= p0), key=lambda it: it[2], default=None)
check(page["firstAfterPan"] is not None and first is not None and page["firstAfterPan"][2] == first[2],
      f"after a pan to {p0}: first row at {page['firstAfterPan'] and page['firstAfterPan'][2]}, first item at {first and first[2]}")
sv = page["scrolledView"]
check(sv[0] == page["scrolledItem"][2], f"scrolled the list to an item at {page['scrolledItem'][2]}: the timeline starts at {sv[0]}")
check(abs((sv[1] - sv[0]) - (page["panView"][1] - page["panView"][0])) < 1, "scrolling the list changed the zoom")
check(page["scrolledItem"][2] > p0, "scrolling the list down did not move the timeline later")
check(page["selected"] == page["clicked"] and "lane:" in page["detail"], "clicking a row did not select its item")
# ---- window statistics against the CLI's records ---------------------------------
origin = next(e["ts"] for e in ev if e["ts"] is not None)
ns = lambda e: (e["ts"] - origin) * 1000
cur, isr_on, runs, isr_iv = None, None, [], []
enters = {}
assert all(e.get("depth", 1) == 1 for e in ev if e["kind"] == "isr_enter"), "the demo's ISRs nest: this check assumes not"
for e in ev:
    if e["ts"] is None:
        continue
    if e["kind"] == "task_in":
        cur = (e["task_name"], ns(e))
    elif e["kind"] == "task_out" and cur:
        runs.append((cur[0], cur[1], ns(e)))
        cur = None
    elif e["kind"] == "isr_enter":
        isr_on = (e.get("isr_name"), ns(e))
    elif e["kind"] == "isr_exit" and isr_on:
        isr_iv.append((isr_on[0], isr_on[1], ns(e)))
        isr_on = None
def clip(a, b):
    return max(0, min(b, v1) - max(a, v0))
want = {}
for name, a, b in runs:
    r = want.setdefault(name, [0, 0])
    r[0] += clip(a, b) - sum(max(0, min(b, q, v1) - max(a, p, v0)) for _, p, q in isr_iv)
    r[1] += v0 <= a < v1
wisr = [sum(clip(a, b) for _, a, b in isr_iv), sum(1 for _, a, b in isr_iv if v0 <= a < v1)]
rows = {r["name"]: r for r in page["win"]["rows"]}
check((page["win"]["v0"], page["win"]["v1"]) == (v0, v1), "the window statistics are not of the window shown")
for name, (run, count) in want.items():
    if not run and not count:
        continue
    r = rows.get(name)
    check(r is not None and abs(r["run"] - run) <= 1 and r["count"] == count,
          f"window {name}: page {r and (r['run'], r['count'])}, records {(run, count)}")
got_isr = [sum(r["run"] for r in page["win"]["rows"] if r["kind"] == "isr"),
           sum(r["count"] for r in page["win"]["rows"] if r["kind"] == "isr")]
check(abs(got_isr[0] - wisr[0]) <= 1 and got_isr[1] == wisr[1], f"window ISRs: page {got_isr}, records {wisr}")
check(any(c for _, c in want.values()) and wisr[1], "the window holds no task run or ISR: pick another")
# ---- flame graph and call tree -------------------------------------------------------
idle = [n for n in page["profileRoots"] if n.startswith("(idle)")]
check(idle, f"the demo's profile has no (idle) root: {page['profileRoots']}")
check(not any(n.startswith("(idle)") for n in page["rootsDefault"] + page["boxesDefault"]), "(idle) in the flame graph by default")
check(all(n in page["rootsIdle"] for n in idle), "(idle) missing with the switch on")
check(page["calltreeRoots"] and set(page["calltreeRoots"]) <= set(page["rootsDefault"]),
      f"call-tree roots {page['calltreeRoots']}, flame roots {page['rootsDefault']}")
# ---- one name for the no-task context ------------------------------------------------
for old in ("(main)", "(no task)", "notask"):
    check(old not in page["text"].replace("notask%", ""), f"the page still says {old}")
check("No task" in page["rootsDefault"], f"no 'No task' root: {page['rootsDefault']}")
if fails:
    sys.exit("\n".join(fails))
print(f"window {v0:.0f}..{v1:.0f} ns: load graph = items for {len(L['sums'])} lanes ({L['labels'][0]} .. {L['labels'][-1]}); "
      f"window stats = records for {len(want)} tasks and {wisr[1]} ISR activations; event list follows; "
      f"flame roots {page['rootsDefault']}")
PY
[[ $(head -c 8 "$ART/report-views.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "no screenshot"

# thinned (the smallest budget, 1000 items): a 1 ms window just after the
# first kept one has no detail; its busy time must come from the overview
"$SONDE_BUILD/examples/posix-demo/posix-demo" -n 400 -o "$TMP/big.bin" 2>/dev/null || fail "posix-demo -n 400"
expect_rc 0 "$SONDE" report "$TMP/big.bin" -o "$TMP/thin.html" -o report.max_items=1000
cat >"$TMP/thin.js" <<'JS'
(function () {
  /* the first gap between kept windows with busy time in the overview */
  var d = sonde.D.detail, ov = sonde.D.overview, a, b, busy = 0, inWin = 0;
  for (var m = 1; busy === 0 && m * d.spacing < ov.n * ov.bin; m++) {
    a = m * d.spacing + d.window; b = a + Math.min(1000000, d.spacing - d.window);
    sonde.D.lanes.forEach(function (l, i) {
      if (l.kind !== "task" && l.kind !== "isr" && l.kind !== "idle" && l.kind !== "notask") return;
      for (var k = Math.floor(a / ov.bin); k < Math.ceil(b / ov.bin); k++) busy += ov.busy[i][k] || 0;
    });
  }
  sonde.TL.zoom(a, b);
  var L = sonde.Load.state(), W = sonde.WinStats.state();
  sonde.D.items.forEach(function (it) { if (it[2] >= a && it[2] < b) inWin++; });
  return { dropped: d.dropped, source: L.source, sum: Object.keys(L.sums).reduce(function (s, k) { return s + L.sums[k]; }, 0),
    overviewBusy: busy, itemsInWindow: inWin, thinned: W.thinned, range: document.getElementById("window-range").textContent,
    legend: document.getElementById("load-legend").textContent };
})()
JS
"${CDP[@]}" "file://$TMP/thin.html" "window.sonde && sonde.ready" "$TMP/thin.js" "$TMP/thin.json" ||
	fail "the thinned report did not load cleanly"
python3 - "$TMP/thin.json" <<'PY' || fail "thinned: the load graph and window statistics"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["dropped"] > 0 and p["itemsInWindow"] == 0 and p["overviewBusy"] > 0, p
assert p["source"] == "overview" and "thinned" in p["legend"] and p["sum"] > 0, p
assert p["thinned"] and "thinned" in p["range"], p
print(f"thinned: no items in the window, load graph from the overview ({p['sum']:.0f} ns busy)")
PY
echo PASS
