#!/usr/bin/env bash
# report_shots.sh -- the screenshots of docs/report.md: the report of a trace
# (the `make demo` one: demo-out/trace.bin) in headless Chromium, the
# timeline zoomed out over the whole trace and zoomed in on a nested
# interrupt with its record selected, and the views around it.
#
#   scripts/report_shots.sh [TRACE] [OUT_DIR]     (defaults: demo-out/trace.bin docs/img)
#
# Needs a build (build/host/sonde), chromium and node (scripts/deps.sh).
set -euo pipefail
SONDE_SRC=$(cd "$(dirname "$0")/.." && pwd)
SONDE_BUILD=${SONDE_BUILD:-$SONDE_SRC/build}
TRACE=${1:-$SONDE_SRC/demo-out/trace.bin}
OUT=${2:-$SONDE_SRC/docs/img}
export SONDE_SRC SONDE_BUILD
source "$SONDE_SRC/tests/e2e/browser/lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
"$SONDE_BUILD/host/sonde" report -q "$TRACE" -o "$TMP/r.html"

# shot NAME JS: run JS in the page (after it is ready), then the screenshot
shot() {
	printf '%s\n' "$2" >"$TMP/$1.js"
	"${CDP[@]}" "file://$TMP/r.html" "window.sonde && sonde.ready" "$TMP/$1.js" "$TMP/$1.json" "$OUT/$1.png"
	echo "$OUT/$1.png: $(tr -d ' \n' <"$TMP/$1.json")"
}
shot report-zoomed-out '(function () { document.getElementById("timeline").scrollIntoView(); return sonde.TL.view(); })()'
# the first activation of an ISR that interrupted another, 400 us around it
shot report-zoomed-in '(function () {
  var D = sonde.D, k = -1;
  for (var i = 0; i < D.items.length && k < 0; i++) {
    var it = D.items[i];
    if (D.lanes[it[0]].kind === "isr" && it[4] === 0 && it[8] >= 2) k = i;
  }
  var t = k >= 0 ? D.items[k][2] : sonde.TL.end() / 2;
  sonde.TL.zoom(t - 150000, t + 250000);
  if (k >= 0) sonde.TL.show(k);
  document.getElementById("timeline").scrollIntoView();
  return sonde.TL.view(); })()'
shot report-around '(function () {
  var e = sonde.TL.end(); sonde.TL.zoom(e * 0.4, e * 0.45);
  if (sonde.flushViews) sonde.flushViews();
  document.getElementById("load").scrollIntoView();
  return sonde.TL.view(); })()'
