#!/usr/bin/env bash
# sonde-test: once
# test_report_timeline.sh -- the report's timeline (report/10_timeline.js,
# docs/report.md) on the Cortex-M3 demo trace (examples/qemu-mps2, 3 s under
# QEMU on the instruction-exact clock, as `make demo` makes it), in headless
# Chromium:
#  - the ruler's labels equal the window after zooms, for the relative time
#    and the target time (origin from the decoded trace), with units that fit
#    the zoom (s, ms, µs, ns seen);
#  - every pixel true: zoomed out, the mean alpha of the lanes read back with
#    getImageData follows their share of the CPU from `sonde stats` (Idle
#    ~95 %, the 0.02 % task "ctrl" nearly white, not a solid bar), and a lane
#    added to the data at 50 % (TL.load()) is drawn half-tone;
#  - the ISR nesting mark (a dark top edge) on a nested activation of
#    added ISR lanes, one lane per ISR under "Interrupts";
#  - TL.load() keeps the view, TL.onView reports it, sonde.follow slides
#    the view to a record appended past the end (live mode);
#  - a selected slice has its outline; its start and duration print to the
#    clock's 40 ns, equal to the ticks of `sonde decode`;
#  - a frame's work follows the pixels, not the records: over zooms from
#    the whole trace to 10 ns, the canvas calls that draw (fillRect,
#    fillText, drawImage ..., counted by wrapping the 2D context) stay within
#    a few per row, strip, ruler label and solid slice, lines within 3 per
#    pixel column of a counter, and zoomed out (the bin pyramid) the bins
#    and items read within two per pixel column and strip (TL.work());
#  - the frame time is measured (browser/timeline_frames.js: printed, not
#    asserted).
# The screenshot is kept in the build directory (test-artifacts/).
set -u
source "$(dirname "$0")/test_cli_lib.sh"
source "$(dirname "$0")/qemu_fw_lib.sh"
fw_require "Cortex-M3" arm-none-eabi-gcc qemu-system-arm python3 make
setup
WORK=$TMP
source "$SONDE_SRC/tests/e2e/browser/lib.sh"
ART=$SONDE_BUILD/test-artifacts
mkdir -p "$ART"

fw_build demo qemu-mps2 RUN_MS=3000
fw_run demo "$WORK/demo/fw.elf" qemu-system-arm -M mps2-an385 -nographic -monitor none \
	-semihosting-config enable=on,target=native
T=$WORK/demo/trace.bin
expect_rc 0 "$SONDE" report "$T" -o "$TMP/r.html"
"$SONDE" stats "$T" >"$TMP/stats.txt" || fail "stats"
"$SONDE" decode "$T" -f jsonl >"$TMP/t.jsonl" || fail "jsonl"

cat >"$TMP/check.js" <<'JS'
(async function () {
  var TL = sonde.TL, D = sonde.D, cv = document.getElementById("tl"), ctx = cv.getContext("2d"), res = {};
  var E = TL.end();
  function laneIdx(name, kind) { return D.lanes.findIndex(function (l) { return l.name === name && (!kind || l.kind === kind); }); }
  /* the mean alpha (0..1) of a lane's band, without the ruler's grid columns */
  function alphaOf(lane, depth) {
    var b = TL.laneBox(lane, depth), dpr = window.devicePixelRatio || 1, v = TL.view();
    var grid = {};
    TL.ruler().rel.forEach(function (tk) { grid[Math.round(b.x + (tk[1] - v[0]) * b.w / (v[1] - v[0]))] = 1; });
    var img = ctx.getImageData(b.x * dpr, b.y * dpr, b.w * dpr, b.h * dpr).data, W = Math.round(b.w * dpr), sum = 0, n = 0;
    for (var i = 0; i < img.length; i += 4) {
      var col = Math.floor((i / 4) % W / dpr) + b.x;
      if (grid[col] || grid[col - 1] || grid[col + 1]) continue;
      sum += img[i + 3]; n++;
    }
    return sum / n / 255;
  }
  /* the work of each frame of a zoom from the whole trace to 10 ns */
  var P = CanvasRenderingContext2D.prototype, calls = {}, saved = {};
  ["fillRect", "fillText", "strokeRect", "drawImage", "putImageData", "lineTo"].forEach(function (m) {
    saved[m] = P[m]; P[m] = function () { calls[m] = (calls[m] || 0) + 1; return saved[m].apply(this, arguments); };
  });
  res.work = [];
  for (var zi = 0; zi < 40; zi++) {
    var zw = E / Math.pow(1.6, zi), zc = E * 0.41;
    calls = {};
    TL.zoom(zc - zw / 2, zc + zw / 2);
    var wk = TL.work(), R = TL.ruler();
    wk.fills = (calls.fillRect || 0) + (calls.fillText || 0) + (calls.strokeRect || 0) + (calls.drawImage || 0) + (calls.putImageData || 0);
    wk.lineTo = calls.lineTo || 0; wk.ruler = R.rel.length + R.target.length; wk.rows = TL.rows.length;
    wk.counters = TL.rows.filter(function (r) { return D.lanes[r.lane].kind === "counter"; }).length;
    wk.view = TL.view();
    res.work.push(wk);
  }
  Object.keys(saved).forEach(function (m) { P[m] = saved[m]; });
  /* rulers after zooms: whole, 20 ms, 50 µs, 400 ns */
  /* the legend: each task state's swatch is the colour drawn in the state
   * strips -- read at the middle of that state's longest slice, zoomed so
   * that it spans the middle half of the canvas */
  res.legend = {};
  ["Running", "Ready", "Blocked"].forEach(function (st) {
    var best = -1;
    D.items.forEach(function (it, k) {
      if (D.lanes[it[0]].kind === "state" && D.names[it[5]] === st && it[1] === 0 && (best < 0 || it[3] > D.items[best][3])) best = k;
    });
    if (best < 0) return;
    var it = D.items[best];
    TL.zoom(it[2] - it[3] / 2, it[2] + it[3] * 1.5);
    var b = TL.laneBox(it[0]), dpr = window.devicePixelRatio || 1;
    var p = ctx.getImageData((b.x + b.w / 2) * dpr, (b.y + b.h / 2) * dpr, 1, 1).data;
    var key = Array.prototype.find.call(document.querySelectorAll("#tl-legend .tl-key"), function (e) { return e.textContent === st; });
    var m = key ? getComputedStyle(key.querySelector("i")).backgroundColor.match(/\d+/g).map(Number) : null;
    res.legend[st] = { drawn: [p[0], p[1], p[2], p[3]], legend: m, lane: D.lanes[it[0]].name };
  });
  res.rulers = [];
  [[0, E], [1.2e9, 1.22e9], [1.5e9 + 3e3, 1.5e9 + 53e3], [7.5e8 + 120, 7.5e8 + 520]].forEach(function (w) {
    TL.zoom(w[0], w[1]);
    res.rulers.push(TL.ruler());
  });
  /* zoomed out: alpha per lane, against the CPU shares of sonde stats */
  TL.zoom(0, E);
  res.minAlpha = TL.minAlpha;
  res.alpha = {};
  ["ctrl", "sensor", "comm", "bg"].forEach(function (n) { res.alpha[n] = alphaOf(laneIdx(n, "task"), 0); });
  res.alpha.Idle = alphaOf(laneIdx("Idle", "idle"), 0);
  /* a lane added at 50 %: 50 µs busy every 100 µs over the trace; and two
   * ISR lanes, B nested (level 2) inside A's activations */
  var half = D.lanes.length, ia = half + 1, ib = half + 2, nm = D.names.length;
  D.lanes.push({ name: "half", kind: "task", core: 0, items: 0 }, { name: "ISR_A", kind: "isr", core: 0, items: 0 },
    { name: "ISR_B", kind: "isr", core: 0, items: 0 });
  D.names.push("half", "ISR_A", "ISR_B");
  for (var t = 0; t + 100000 <= E; t += 100000) D.items.push([half, 0, t, 50000, 0, nm, 0, 1, 0]);
  for (var t2 = 0; t2 + 1e6 <= E; t2 += 1e6) D.items.push([ia, 0, t2, 400000, 0, nm + 1, 0, 3, 1]);
  for (var t3 = 0; t3 + 1e6 <= E; t3 += 1e6) D.items.push([ib, 0, t3 + 100000, 100000, 0, nm + 2, 0, 3, 2]);
  /* TL.load() keeps the user's view; TL.onView sees every change */
  var seen = [];
  TL.onView(function (a, b) { seen.push([a, b]); });
  TL.zoom(1e9, 1.1e9);
  TL.load();
  TL.draw();
  res.reload = { view: TL.view(), seen: seen.slice(-2) };
  TL.zoom(0, E);
  res.alpha.half = alphaOf(half, 0);
  TL.zoom(1e8, 1e8 + 4e6); /* 4 ms: each activation of A 400 µs wide, B's 100 µs nested in it */
  res.alpha.half_in = alphaOf(half, 0);
  var bb = TL.laneBox(ib, 0), ab = TL.laneBox(ia, 0), v = TL.view(), xAt = function (tt) { return Math.round(bb.x + (tt - v[0]) * bb.w / (v[1] - v[0])); };
  var px = function (x, y) { return Array.from(ctx.getImageData(x, y, 1, 1).data); };
  res.nest = { top: px(xAt(1e8 + 150000), bb.y + 1), body: px(xAt(1e8 + 150000), bb.y + 8),
    aPreempted: px(xAt(1e8 + 150000), ab.y + 8), aRunning: px(xAt(1e8 + 300000), ab.y + 8) };
  res.heads = TL.rows.filter(function (r) { return r.heads.length; }).map(function (r) { return [D.lanes[r.lane].name, r.heads]; });
  res.colors = [colorOf("ISR_A"), colorOf("ISR_B"), colorOf("half"), colorOf("ctrl")];
  /* select an ISR slice at a 2 ms zoom: outline drawn, times to 40 ns */
  /* (any ISR lane: the single "ISRs" lane of today's host, or one per ISR) */
  TL.zoom(1.3e9, 1.302e9);
  var k = TL.visible().filter(function (k) {
    var it = D.items[k];
    return D.lanes[it[0]].kind === "isr" && it[0] < half && it[1] === 0 && it[7] === 3 && it[3] > 0 && (it[2] % 1000 || it[3] % 1000);
  })[0];
  TL.show(k);
  var it = D.items[k], box = TL.laneBox(it[0], it[4]), v2 = TL.view();
  var x0 = box.x + (it[2] - v2[0]) * box.w / (v2[1] - v2[0]), x1 = box.x + (it[2] + it[3] - v2[0]) * box.w / (v2[1] - v2[0]);
  if (x1 - x0 < 5) { var c = (x0 + x1) / 2; x0 = c - 2.5; x1 = c + 2.5; }
  res.sel = { item: it, above: px(Math.round((x0 + x1) / 2), Math.round(box.y - 1)), detail: document.getElementById("tl-detail").textContent,
    origin: D.origin, freq: D.ts_freq };
  /* live: with sonde.follow, a record past the end slides the view to it */
  TL.zoom(E - 1e7, E);
  sonde.follow = true;
  D.items.push([ib, 0, E + 5e7, 1e6, 0, nm + 2, 0, 3, 2]);
  TL.load();
  res.follow = { view: TL.view(), end: TL.end(), newest: E + 5e7 + 1e6 };
  sonde.follow = false;
  D.items.pop();
  TL.load();
  /* the screenshot: the whole trace with the added lanes, a slice selected */
  TL.zoom(0, E);
  TL.show(k);
  return res;
})()
JS
"${CDP[@]}" "file://$TMP/r.html" "window.sonde && sonde.ready" "$TMP/check.js" "$TMP/page.json" "$ART/report-timeline.png" ||
	fail "the report did not load cleanly in chromium"
python3 - "$TMP/page.json" "$TMP/stats.txt" "$TMP/t.jsonl" <<'PY' || fail "the timeline is not what the trace says"
import json, re, sys
page = json.load(open(sys.argv[1]))
stats = open(sys.argv[2]).read().splitlines()
ev = [json.loads(l) for l in open(sys.argv[3])]
fails = []
freq = page["sel"]["freq"]
origin_tick = next(e["ts"] for e in ev if e["ts"] is not None)
UNIT = {"s": 1e9, "ms": 1e6, "µs": 1e3, "ns": 1}
def parse(text):
    m = re.fullmatch(r"(-?[\d\u2009]+(?:\.\d+)?) (s|ms|µs|ns)", text)
    if not m:
        raise ValueError(text)
    return float(m.group(1).replace("\u2009", "")) * UNIT[m.group(2)], m.group(2)
# the ruler: labels inside the window, equal to their times; target time =
# the first record's tick at the clock rate + the relative time
units = set()
for r in page["rulers"]:
    lo, hi = r["view"]
    if abs(r["origin_ns"] - origin_tick * 1e9 / freq) > 1e-3:
        fails.append(f"ruler origin {r['origin_ns']} ns, trace {origin_tick * 1e9 / freq}")
    if len(r["rel"]) < 3 or len(r["target"]) < 3:
        fails.append(f"too few ruler labels in {hi - lo} ns: {r}")
    for rows, off in ((r["rel"], 0), (r["target"], r["origin_ns"])):
        for text, t in rows:
            v, u = parse(text)
            units.add(u)
            if not lo - 1e-6 <= t <= hi + 1e-6:
                fails.append(f"ruler label {text} at {t} outside the view {lo}..{hi}")
            if abs(v - off - t) > max(1e-6 * abs(t), 1e-3) or u != r["unit"]:
                fails.append(f"ruler label {text!r} drawn at {t} ns (offset {off})")
    want = "s" if r["step"] >= 1e8 else "ms" if r["step"] >= 1e5 else "µs" if r["step"] >= 1e2 else "ns"
    if r["unit"] != want:
        fails.append(f"unit {r['unit']} for a step of {r['step']} ns")
if units != {"s", "ms", "µs", "ns"}:
    fails.append(f"units seen over the zooms: {units}")
# pixels: alpha follows the CPU share (cores table: idle%; tasks table: cpu%)
def table(title):
    i = next(k for k, l in enumerate(stats) if l.startswith(title))
    head = stats[i + 1].split()
    out = {}
    for l in stats[i + 2:]:
        if not l.strip():
            break
        f = l.split()
        out[f[0]] = dict(zip(head, f))
    return out
tasks, cores = table("Tasks:"), table("Cores")
share = {n: float(tasks[n]["cpu%"]) / 100 for n in ("ctrl", "sensor", "comm", "bg")}
share["Idle"] = float(cores["0"]["idle%"]) / 100
a = page["alpha"]
floor = page["minAlpha"]
# a lane is at most as dark as the floor of any activity plus its share (and
# a 2 % allowance for the edges of pixels); ctrl's 0.02 % must not look busy
for n in ("ctrl", "sensor", "comm", "bg"):
    if a[n] > floor + share[n] + 0.02:
        fails.append(f"{n}: mean alpha {a[n]:.3f} for a CPU share of {share[n]:.4f}")
if a["ctrl"] > 0.1:
    fails.append(f"ctrl drawn busy: alpha {a['ctrl']:.3f}")
if abs(a["Idle"] - share["Idle"]) > 0.05:
    fails.append(f"Idle: mean alpha {a['Idle']:.3f}, idle share {share['Idle']:.3f}")
for k in ("half", "half_in"):
    if not 0.4 <= a[k] <= 0.6:
        fails.append(f"the 50 % lane is not half-tone: {k} alpha {a[k]:.3f}")
# nesting: a dark top edge on B, the body in B's colour; A paler while preempted
n = page["nest"]
lum = lambda p: (p[0] * 0.3 + p[1] * 0.59 + p[2] * 0.11) * p[3] / 255 + 255 * (1 - p[3] / 255)
if not lum(n["top"]) < lum(n["body"]) - 40:
    fails.append(f"no dark top edge on the nested activation: {n}")
if not lum(n["aPreempted"]) > lum(n["aRunning"]) + 30:
    fails.append(f"the preempted activation is not paled: {n}")
heads = {name: h for name, h in page["heads"]}
if not any("Interrupts" in h for h in heads.values()):
    fails.append(f"no Interrupts heading: {page['heads']}")
if len(set(page["colors"])) != len(page["colors"]):
    fails.append(f"colours collide: {page['colors']}")
# selection: the outline colour above the slice; times to the ns, = the ticks
s = page["sel"]
if not (s["above"][2] > 150 and s["above"][0] < 60 and s["above"][3] > 200):
    fails.append(f"no selection outline: pixel {s['above']}")
it = s["item"]
m = re.search(r"start: (\S+ \S+)\s+\(target tick (\d+)\)", s["detail"])
d = re.search(r"duration: (\S+ \S+)", s["detail"])
if not m or not d:
    fails.append(f"no start/duration in {s['detail']!r}")
else:
    st, _ = parse(m.group(1))
    du, _ = parse(d.group(1))
    tick = int(m.group(2))
    if abs(st - it[2]) > 0.5 or abs(du - it[3]) > 0.5:
        fails.append(f"times not to the clock's resolution: {s['detail']!r} for {it}")
    if abs((tick - origin_tick) * 1e9 / freq - it[2]) > 0.5:
        fails.append(f"target tick {tick} is not the slice's start {it[2]} ns")
    if not any(e["kind"] == "isr_enter" and e["ts"] == tick for e in ev):
        fails.append(f"no ISR entry at tick {tick} in the decoded trace")
    if it[2] % 1000 == 0 and it[3] % 1000 == 0:
        fails.append("the selected slice is on whole µs: pick one that shows the 40 ns digits")
rl = page["reload"]
if rl["view"] != [1e9, 1.1e9] or rl["seen"][-1] != [1e9, 1.1e9]:
    fails.append(f"the view after TL.load() or the onView callback: {rl}")
lg = page["legend"]
if sorted(lg) != ["Blocked", "Ready", "Running"]:
    fails.append(f"the demo's states Running, Ready and Blocked expected in the strips: {sorted(lg)}")
for st, c in lg.items():
    if not c["legend"] or c["drawn"][3] < 250 or any(abs(a - b) > 3 for a, b in zip(c["drawn"], c["legend"])):
        fails.append(f"state {st}: drawn {c['drawn']} in {c['lane']}, legend says {c['legend']}")
# a frame's work: bounded by rows, strips, pixels and solid slices
lod = 0
for w in page["work"]:
    fills_max = 6 * w["rows"] + 4 * w["strips"] + 3 * w["ruler"] + 4 * w["solid"] + 16
    if w["fills"] > fills_max:
        fails.append(f"{w['fills']} canvas fills in a frame of {w['view']} (bound {fills_max}): {w}")
    if w["lineTo"] > 3 * (w["px"] + 2) * w["counters"]:
        fails.append(f"{w['lineTo']} lines for {w['counters']} counters in {w['px']} px: {w}")
    if w["level"] >= 0:
        lod += 1
        if w["bins"] > (2 * w["px"] + 4) * (w["strips"] + w["rows"]) or w["items"] > w["px"] * w["strips"]:
            fails.append(f"zoomed out, {w['bins']} bins and {w['items']} items read for {w['px']} px x {w['strips']} strips: {w}")
if not lod or lod == len(page["work"]):
    fails.append(f"the zooms did not cover both the bin pyramid and the items ({lod} of {len(page['work'])} from the pyramid)")
fo = page["follow"]
if not (fo["view"][1] >= fo["newest"] and fo["view"][0] < fo["newest"] and abs(fo["view"][1] - fo["view"][0] - 1e7) < 1):
    fails.append(f"sonde.follow did not bring the newest record into view: {fo}")
if fails:
    sys.exit("\n".join(fails))
print(f"ruler ok over {len(page['rulers'])} zooms (units {sorted(units)}); alpha ctrl {a['ctrl']:.3f} "
      f"(cpu {share['ctrl']:.4f}), Idle {a['Idle']:.3f} (idle {share['Idle']:.3f}), 50 % lane {a['half']:.3f}/{a['half_in']:.3f}; "
      f"selected {s['detail'].splitlines()[2]}; legend = drawing for {sorted(lg)}; "
      f"frame work: at most {max(w['fills'] for w in page['work'])} fills, {max(w['bins'] for w in page['work'])} bins over {len(page['work'])} zooms")
PY
[[ $(head -c 8 "$ART/report-timeline.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "no screenshot"

# the frame time of zooms and pans (performance marks around each draw):
# printed, not asserted -- a loaded machine can outrun any budget
"${CDP[@]}" "file://$TMP/r.html" "window.sonde && sonde.ready" "$SONDE_SRC/tests/e2e/browser/timeline_frames.js" "$TMP/frames.json" ||
	fail "the frame timing did not run"
python3 - "$TMP/frames.json" <<'PY' || fail "frame times not measured"
import json, sys
p = json.load(open(sys.argv[1]))
assert len(p["frames"]) == 64 and all(f >= 0 for f in p["frames"]) and sum(p["frames"]) > 0, p
print(f"frames: median {p['median']:.1f} ms, worst {p['worst']:.1f} ms over {len(p['frames'])} zooms and pans "
      f"({p['items']} detail items, {p['records']} records)")
PY
echo PASS
