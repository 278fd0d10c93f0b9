#!/usr/bin/env bash
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

cat >"$TMP/check.js" <<'JS'
(function () {
  function rows(id) {
    var out = {};
    document.querySelectorAll("#" + id + " tr[data-name]").forEach(function (tr) {
      var r = {};
      tr.querySelectorAll("td").forEach(function (td) { r[td.dataset.k] = td.textContent; });
      out[tr.dataset.name] = r;
    });
    return out;
  }
  /* per ISR lane: its activations (depth-0 slices) and their deepest nesting level (item[8]) */
  function isrLanes() {
    var out = {};
    sonde.D.items.forEach(function (it) {
      var l = sonde.D.lanes[it[0]];
      if (l.kind !== "isr" || it[1] !== 0 || it[4] !== 0) return;
      var o = out[l.name] || (out[l.name] = { n: 0, nest: 0 });
      o.n++;
      o.nest = Math.max(o.nest, it[8]);
    });
    return out;
  }
  return { tasks: rows("t-tasks"), isrs: rows("t-isrs"), cores: rows("t-cores"), funcs: rows("t-funcs"),
    records: sonde.D.stats.records, lanes: sonde.D.lanes.map(function (l) { return [l.kind, l.name]; }),
    isrlanes: isrLanes() };
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
tasks = sorted(n for k, n in page["lanes"] if k == "task")
if tasks != sorted(page["tasks"]):
    fails.append(f"task lanes {tasks}, tasks {sorted(page['tasks'])}")
if fails:
    sys.exit("\n".join(fails[:20]))
print(f"{len(page['tasks'])} tasks, {len(page['isrs'])} ISRs, {len(page['funcs'])} functions, "
      f"{page['records']} records, {len(page['lanes'])} lanes as the CLI says")
PY
		fail "$name: the page's numbers differ from the CLI's"
done
echo PASS
