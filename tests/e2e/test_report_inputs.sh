#!/usr/bin/env bash
# sonde-test: once
# test_report_inputs.sh -- the HTML report (`sonde report`, docs/report.md)
# of the export inputs (tests/e2e/exports/inputs.sh) -- the POSIX demo with
# target drops and one capture of each foreign protocol: QS, SyS-T,
# Tonbandgeraet (FreeRTOS tasks; bare-metal ISRs), MiniProfiler -- loads in
# headless Chromium without a JavaScript error, with the tasks, ISRs, cores
# and functions of `sonde stats` and `--format profile`, the record count,
# and a lane per task.  The clean demo is tested in depth (zoom, clicks,
# thinning) by test_report_html.sh.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
source "$SONDE_SRC/tests/e2e/browser/lib.sh"
source "$SONDE_SRC/tests/e2e/exports/inputs.sh"
export_inputs "$TMP"

cat "$SONDE_SRC/tests/e2e/browser/report_lib.js" - >"$TMP/check.js" <<'JS'
(function () {
  var rows = reportTest.rows, isrLanes = reportTest.isrLanes;
  return { tasks: rows("t-tasks"), isrs: rows("t-isrs"), cores: rows("t-cores"), funcs: rows("t-funcs"),
    records: sonde.D.stats.records, lanes: sonde.D.lanes.map(function (l) { return [l.kind, l.name]; }),
    isrlanes: isrLanes(), losses: lossMarks(), laneTypes: laneTypes() };
  /* per lane, how many of its items are of each type */
  function laneTypes() {
    var D = sonde.D, out = D.lanes.map(function () { return {}; });
    D.items.forEach(function (it) { var o = out[it[I_LANE]]; o[D.types[it[I_TYPE]]] = (o[D.types[it[I_TYPE]]] || 0) + 1; });
    return out;
  }
  /* the losses in place: the diagnostics lane's "Records lost" marks, and
   * the colour drawn at the first one, zoomed to 100 us around it */
  function lossMarks() {
    var D = sonde.D, TL = sonde.TL, ks = [];
    D.items.forEach(function (it, k) {
      if (D.lanes[it[0]].kind === "diag" && /lost/i.test(D.names[it[5]] || "")) ks.push(k);
    });
    if (!ks.length) return { n: 0 };
    var it = D.items[ks[0]];
    TL.zoom(it[2] - 50000, it[2] + 50000);
    var b = TL.laneBox(it[0], it[4]), v = TL.view(), dpr = window.devicePixelRatio || 1;
    var x = Math.round(b.x + (it[2] - v[0]) * b.w / (v[1] - v[0]));
    var ctx = document.getElementById("tl").getContext("2d"), best = null;
    var img = ctx.getImageData((x - 2) * dpr, b.y * dpr, 5 * dpr, b.h * dpr).data; /* the mark's column, the lane's height */
    for (var i = 0; i < img.length; i += 4)
      if (!best || img[i] - img[i + 1] > best[0] - best[1]) best = [img[i], img[i + 1], img[i + 2], img[i + 3]];
    TL.zoom(0, TL.end());
    return { n: ks.length, px: best, box: b, x: x, view: v };
  }
})()
JS
for spec in "${INPUTS[@]}"; do
	IFS='|' read -r name f proto extra <<<"$spec"
	[[ $name == demo || $name == damaged || $name == qs-formats ]] && continue # (one Chromium each: kept few)
	# shellcheck disable=SC2086
	args=("$f" --proto "$proto" -q $extra)
	"$SONDE" report "${args[@]}" -o "$TMP/$name.html"
	[[ $? -le 1 ]] || fail "$name: the report failed"
	"$SONDE" stats "${args[@]}" >"$TMP/$name.stats"
	"$SONDE" decode "${args[@]}" -f profile >"$TMP/$name.prof"
	"${CDP[@]}" "file://$TMP/$name.html" "window.sonde && sonde.ready" "$TMP/check.js" "$TMP/$name.page" ||
		fail "$name: the report did not load cleanly in chromium"
	echo -n "$name: "
	PYTHONPATH=$SONDE_SRC/tests/e2e/exports python3 - "$TMP/$name.page" "$TMP/$name.stats" "$TMP/$name.prof" <<'PY' ||
import json, sys
from cli_tables import text_table
page = json.load(open(sys.argv[1]))
stats = open(sys.argv[2]).read().splitlines()
prof = open(sys.argv[3]).read().splitlines()
fails = []
def same(what, a, b):
    try:
        ok = abs(float(a) - float(b)) <= 0.0011
    except ValueError:
        ok = a == b
    if not ok:
        fails.append(f"{what}: page {a!r}, cli {b!r}")
for title, key in (("Tasks:", "tasks"), ("ISRs:", "isrs"), ("Cores", "cores")):
    cli = text_table(stats, title)
    if set(cli) != set(page[key]):
        fails.append(f"{key}: page {sorted(page[key])}, cli {sorted(cli)}")
        continue
    for n, row in cli.items():
        for col, v in row.items():
            same(f"{key} {n} {col}", page[key][n][col], v)
same("records", page["records"], next(int(l.split()[1]) for l in stats if l.startswith("records ")))
funcs = text_table(prof, "Functions")
if set(funcs) != set(page["funcs"]):
    fails.append(f"functions: page {sorted(page['funcs'])}, cli {sorted(funcs)}")
for n, f in funcs.items():
    unit = "[us]" if "self[us]" in f else "[t]"
    for col in ("calls", "incl", "self", "min", "max"):
        same(f"function {n} {col}", page["funcs"].get(n, {}).get(col), f[col if col == "calls" else col + unit])
# one lane per ISR, named as in the stats; its activations at depth 0, with
# their nesting level (item[8]) up to the stats' deepest nesting
isrl = page["isrlanes"]
if sorted(n for k, n in page["lanes"] if k == "isr") != sorted(page["isrs"]) or set(isrl) != set(page["isrs"]):
    fails.append(f"ISR lanes {sorted(n for k, n in page['lanes'] if k == 'isr')}, ISRs {sorted(page['isrs'])}")
for n, row in page["isrs"].items():
    got = isrl.get(n, {"n": 0, "nest": 0})
    same(f"ISR lane {n} activations", got["n"], row["count"])
    if "nest" in row:
        same(f"ISR lane {n} nesting", got["nest"], row["nest"])
# target drops are marked in place: a red mark on the diagnostics lane
drops = next(l for l in stats if l.startswith("target drops"))
ow, rf = (int(w) for w in drops.replace(",", " ").split() if w.isdigit())
lm = page["losses"]
if ow + rf and not lm["n"]:
    fails.append(f"target drops ({drops}) but no loss mark on the timeline")
elif ow + rf and not (lm["px"][0] > 150 and lm["px"][1] < 80 and lm["px"][2] < 80 and lm["px"][3] > 200):
    fails.append(f"the loss mark is not drawn red where it is: pixel {lm['px']} {lm}")
# a counter lane holds counter values only; the slice tracks (a mutex's
# holder, the idle task's low power) are lanes of slices
for (k, n), types in zip(page["lanes"], page["laneTypes"]):
    if k == "counter" and set(types) - {"counter"}:
        fails.append(f"counter lane {n!r} holds {types}")
holders = [(k, n) for k, n in page["lanes"] if n.endswith(" holder")]
if any(k != "marker" for k, n in holders):
    fails.append(f"mutex holder lanes not drawn as slices: {holders}")
tasks = sorted(n for k, n in page["lanes"] if k == "task")
if tasks != sorted(page["tasks"]):
    fails.append(f"task lanes {tasks}, tasks {sorted(page['tasks'])}")
if fails:
    sys.exit("\n".join(fails[:20]))
print(f"{len(page['tasks'])} tasks, {len(page['isrs'])} ISRs, {len(page['funcs'])} functions, "
      f"{page['records']} records, {len(page['lanes'])} lanes as the CLI says; {lm['n']} loss marks; "
      f"{len(holders)} mutex holder lanes of slices"
      + (f" (drawn {lm['px']})" if lm["n"] else ""))
PY
		fail "$name: the page's numbers differ from the CLI's"
done
echo PASS
