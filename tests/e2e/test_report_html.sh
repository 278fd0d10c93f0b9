#!/usr/bin/env bash
# sonde-test: once
# test_report_html.sh -- the HTML report (`sonde report`, docs/report.md)
# opened in headless Chromium over the DevTools protocol
# (tests/e2e/browser/cdp_page.js): no JavaScript error; the lanes, counts
# and statistics in the page equal those of `sonde stats` and `--format
# profile` for the same trace; zoomed in, the visible slices are those of
# the trace in that window; a trace larger than the detail budget still
# loads, thinned, with the note.  The screenshot is kept in the build
# directory (test-artifacts/report.png).
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
source "$SONDE_SRC/tests/e2e/browser/lib.sh"
ART=$SONDE_BUILD/test-artifacts
mkdir -p "$ART"

"$SONDE_BUILD/examples/posix-demo/posix-demo" -n 100 -o "$TMP/t.bin" 2>/dev/null || fail "posix-demo"
expect_rc 0 "$SONDE" report "$TMP/t.bin" -o "$TMP/r.html"
"$SONDE" stats "$TMP/t.bin" >"$TMP/stats.txt" || fail "stats"
"$SONDE" decode "$TMP/t.bin" -f profile >"$TMP/prof.txt" || fail "profile"
"$SONDE" decode "$TMP/t.bin" -f jsonl >"$TMP/t.jsonl" || fail "jsonl"
# offline: nothing is loaded from anywhere
grep -Eiq '<(script|link|img)[^>]+(src|href)=' "$TMP/r.html" && fail "the page loads an external resource"

# a 10 ms window with function and ISR slices in it: the demo runs on the
# host's clock, so on a loaded machine a fixed window (10..20 ms) can be
# empty (seen: "visible function slices: page 0, trace 0")
read -r WLO WHI < <(python3 - "$TMP/t.jsonl" <<'PY'
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
origin = next(e["ts"] for e in ev if e["ts"] is not None)
t = lambda e: (e["ts"] - origin) * 1000  # ns
funcs = [t(e) for e in ev if e["kind"] == "func_enter" and e["ts"] is not None]
isrs = [t(e) for e in ev if e["kind"] == "isr_enter" and e["ts"] is not None]
for s in sorted(isrs):
    lo = max(0, s - 2e6)
    if lo >= 5e6 and any(lo <= f <= lo + 10e6 for f in funcs):
        print(int(lo), int(lo + 10e6))
        break
else:
    print(10000000, 20000000)
PY
)
cat "$SONDE_SRC/tests/e2e/browser/report_lib.js" - >"$TMP/check.js" <<'JS'
(function () {
  var rows = reportTest.rows, isrLanes = reportTest.isrLanes;
  var res = { tasks: rows("t-tasks"), isrs: rows("t-isrs"), cores: rows("t-cores"), funcs: rows("t-funcs"),
    records: sonde.D.stats.records, lanes: sonde.D.lanes.map(function (l) { return [l.kind, l.name]; }),
    isrlanes: isrLanes() };
  /* zoom to a 10 ms window (WLO..WHI ns, chosen above) and list what is visible */
  sonde.TL.zoom(WLO, WHI);
  res.view = sonde.TL.view();
  res.visible = sonde.TL.visible().map(function (k) {
    var it = sonde.D.items[k];
    return [sonde.D.lanes[it[0]].kind, sonde.D.lanes[it[0]].name, it[1], it[2], it[3], sonde.D.names[it[5]] || ""];
  });
  res.range = document.getElementById("tl-range").textContent;
  /* clicking a slice shows its record */
  sonde.TL.show(sonde.TL.visible()[0]);
  res.detail = document.getElementById("tl-detail").textContent;
  return res;
})()
JS
sed -i "s/WLO, WHI/$WLO, $WHI/" "$TMP/check.js"
"${CDP[@]}" "file://$TMP/r.html" "window.sonde && sonde.ready" "$TMP/check.js" "$TMP/page.json" "$ART/report.png" ||
	fail "the report did not load cleanly in chromium"
python3 - "$TMP/page.json" "$TMP/stats.txt" "$TMP/prof.txt" "$TMP/t.jsonl" <<'PY' || fail "the page's numbers differ from the CLI's"
import json, sys
page = json.load(open(sys.argv[1]))
stats = open(sys.argv[2]).read().splitlines()
prof = open(sys.argv[3]).read().splitlines()
fails = []
def same(what, a, b):
    try:
        ok = abs(float(a) - float(b)) <= 0.0011 if a not in ("-",) and b not in ("-",) else a == b
    except ValueError:
        ok = a == b
    if not ok:
        fails.append(f"{what}: page {a!r}, cli {b!r}")
def table(lines, title):
    """rows of the CLI table under the line starting with title: {name: {col: value}}"""
    i = next(k for k, l in enumerate(lines) if l.startswith(title))
    head = lines[i + 1].split()
    out = {}
    for l in lines[i + 2:]:
        if not l.strip():
            break
        f = l.split()
        out[f[0]] = dict(zip(head, f))
    return out
for title, key in (("Tasks:", "tasks"), ("ISRs:", "isrs"), ("Cores", "cores")):
    cli = table(stats, title)
    assert set(cli) == set(page[key]), (key, set(cli), set(page[key]))
    for name, row in cli.items():
        for col, v in row.items():
            same(f"{key} {name} {col}", page[key][name][col], v)
records = next(int(l.split()[1]) for l in stats if l.startswith("records "))
same("records", page["records"], records)
# functions against --format profile
i = next(k for k, l in enumerate(prof) if l.startswith("Functions"))
head = prof[i + 1].split()
for l in prof[i + 2:]:
    if not l.strip():
        break
    f = dict(zip(head, l.split()))
    p = page["funcs"][f["function"]]
    for col in ("calls", "incl", "self", "self%", "min", "max"):
        cc = col if col in ("calls", "self%") else col + "[us]"
        same(f"function {f['function']} {col}", p[col], f[cc])
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
# lanes: one per task of the stats
lanes = page["lanes"]
assert sorted(n for k, n in lanes if k == "task") == sorted(page["tasks"]), lanes
# zoomed to 10..20 ms: the function and ISR slices that start there are the trace's
ev = [json.loads(l) for l in open(sys.argv[4])]
origin = next(e["ts"] for e in ev if e["ts"] is not None)
lo, hi = page["view"]
inwin = lambda e: e["ts"] is not None and lo <= (e["ts"] - origin) * 1000 <= hi
want_f = sorted((e["ts"] - origin) * 1000 for e in ev if e["kind"] == "func_enter" and inwin(e))
got_f = sorted(v[3] for v in page["visible"] if v[2] == 0 and v[0] in ("task", "isr", "notask", "idle")
               and lo <= v[3] <= hi and v[5] in ("filter_sample", "pid_step"))
if want_f != got_f or not want_f:
    fails.append(f"visible function slices: page {len(got_f)}, trace {len(want_f)}")
want_i = sum(1 for e in ev if e["kind"] == "isr_enter" and inwin(e))
got_i = sum(1 for v in page["visible"] if v[0] == "isr" and v[2] == 0 and lo <= v[3] <= hi)
if want_i != got_i or not want_i:
    fails.append(f"visible ISR slices: page {got_i}, trace {want_i}")
for v in page["visible"]:
    if v[3] > hi or v[3] + v[4] < lo:
        fails.append(f"not in the view: {v}")
        break
if "lane:" not in page["detail"]:
    fails.append("clicking a slice shows no record")
if fails:
    sys.exit("\n".join(fails))
print(f"page = cli: {len(page['tasks'])} tasks, {len(page['isrs'])} ISRs, {len(page['funcs'])} functions; "
      f"zoomed: {len(got_f)} function and {got_i} ISR slices; {page['range']}")
PY
[[ $(head -c 8 "$ART/report.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "no screenshot"

# past the detail budget (the smallest, 1000 items; a trace of 400 ticks
# has several thousand): thinned, bounded, still clean
"$SONDE_BUILD/examples/posix-demo/posix-demo" -n 400 -o "$TMP/big.bin" 2>/dev/null || fail "posix-demo -n 400"
expect_rc 0 "$SONDE" report "$TMP/big.bin" -o "$TMP/small.html" -o report.max_items=1000
echo '({items: sonde.D.items.length, dropped: sonde.D.detail.dropped, note: document.getElementById("tl-note").textContent})' >"$TMP/c2.js"
"${CDP[@]}" "file://$TMP/small.html" "window.sonde && sonde.ready" "$TMP/c2.js" "$TMP/p2.json" ||
	fail "the thinned report did not load cleanly"
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
assert p["items"] <= 1000 and p["dropped"] > 0 and "thinned" in p["note"], p' "$TMP/p2.json" || fail "thinning"
expect_rc 0 "$SONDE" report "$TMP/big.bin" -o "$TMP/big.html"
[[ $(stat -c %s "$TMP/small.html") -lt $(stat -c %s "$TMP/big.html") ]] || fail "the thinned page is not smaller"
echo PASS
