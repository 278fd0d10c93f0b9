#!/usr/bin/env bash
# test_export_inputs.sh -- the exports that open in a browser (the report,
# Chrome JSON), made from every input of the export tests (tests/e2e/
# exports/inputs.sh: the POSIX demo clean, with drops and damaged, and the
# reference captures of QS, SyS-T, Tonbandgeraet and MiniProfiler):
#  - each exits 0 or 1 (1: the input's own damage) and is what its format
#    says: the report's data block and the Chrome file parse as JSON;
#  - the report counts the records `sonde stats` counts;
#  - thinned to the smallest detail budget (report.max_items=1000), the
#    report keeps at most that many items, and those it keeps plus those it
#    says it dropped are the items of the whole report.
# The browser tests (test_report_*.sh, test_chrome_speedscope.sh) open
# these pages in Chromium in the plain suite only: the sanitizer suite
# makes them here, so every sink they rest on runs under ASan and UBSan on
# real captures (tests/CMakeLists.txt, "sonde-test: once").
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
source "$SONDE_SRC/tests/e2e/exports/inputs.sh"
export_inputs "$TMP"

for spec in "${INPUTS[@]}"; do
	IFS='|' read -r name f proto extra <<<"$spec"
	# shellcheck disable=SC2206 # EXTRA is options, split on purpose
	args=("$f" --proto "$proto" -q $extra)
	for out in "report -o $TMP/$name.html" "report -o $TMP/$name.thin.html -o report.max_items=1000" \
		"stats --output $TMP/$name.stats" "decode -f chrome --output $TMP/$name.json"; do
		read -r -a cmd <<<"$out"
		"$SONDE" "${cmd[0]}" "${args[@]}" "${cmd[@]:1}" 2>"$TMP/err"
		rc=$?
		[[ $rc -le 1 ]] || { cat "$TMP/err"; fail "$name: sonde $out: status $rc"; }
	done
	python3 - "$TMP" "$name" <<'PY' || fail "$name: the exports"
import json, re, sys
d, name = sys.argv[1:]
def data(path):
    page = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="sonde-data">(.*?)</script>', page, re.S)
    assert m, (path, "no data block")
    return json.loads(m.group(1))
full, thin = data(f"{d}/{name}.html"), data(f"{d}/{name}.thin.html")
records = next(int(l.split()[1]) for l in open(f"{d}/{name}.stats") if l.startswith("records "))
assert full["stats"]["records"] == records == thin["stats"]["records"], (full["stats"]["records"], records)
assert full["detail"]["dropped"] == 0, full["detail"]
assert len(thin["items"]) <= 1000, len(thin["items"])
assert len(thin["items"]) + thin["detail"]["dropped"] == len(full["items"]), \
    (len(thin["items"]), thin["detail"]["dropped"], len(full["items"]))
ev = json.load(open(f"{d}/{name}.json", encoding="utf-8"))["traceEvents"]
assert isinstance(ev, list) and (ev or not records), len(ev)
print(f"{name}: {records} records; report {len(full['items'])} items, thinned {len(thin['items'])}; chrome {len(ev)} events")
PY
done
echo PASS
