#!/usr/bin/env bash
# test_speedscope_export.sh -- `--format speedscope`: the export agrees
# exactly with `sonde stats` and `--format profile` (task and ISR CPU time,
# every function's self and inclusive time; tests/e2e/exports/
# speedscope_check.py), and speedscope itself (npm, pinned in
# tests/e2e/browser/package-lock.json) opens it in headless Chromium without
# a JavaScript error, with the same profiles in the same order and, in each
# profile's Sandwich table, the same frames with the same times -- on the
# POSIX demo (clean, with drops, damaged), the reference captures of QS,
# SyS-T and Tonbandgeraet and a MiniProfiler capture (tests/e2e/exports/
# inputs.sh).  One Chromium opens every file, one after the other.  Also:
# idle is left out unless --idle / -o idle=1 asks for it, and kept, it has
# the idle time of `sonde stats`.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
source "$SONDE_SRC/tests/e2e/browser/lib.sh"
browser_deps
source "$SONDE_SRC/tests/e2e/exports/inputs.sh"
SS=$BROWSER_DEPS/node_modules/speedscope/dist/release/index.html
[[ -f $SS ]] || fail "speedscope is not installed"
CHECK=$SONDE_SRC/tests/e2e/exports/speedscope_check.py
export_inputs "$TMP"

names=()
for spec in "${INPUTS[@]}"; do
	IFS='|' read -r name f proto extra <<<"$spec"
	# shellcheck disable=SC2086
	args=("$f" --proto "$proto" -q $extra)
	"$SONDE" decode "${args[@]}" -f speedscope -o "speedscope.name=$name" --output "$TMP/$name.json"
	[[ $? -le 1 ]] || fail "$name: the speedscope export failed"
	# against the CLI with idle kept: calls the trace places in the idle loop count too
	"$SONDE" decode "${args[@]}" -f speedscope --idle --output "$TMP/$name.idle.json"
	"$SONDE" stats "${args[@]}" --format jsonl >"$TMP/$name.stats"
	"$SONDE" decode "${args[@]}" -f profile >"$TMP/$name.prof"
	echo -n "$name: "
	python3 "$CHECK" "$TMP/$name.idle.json" "$TMP/$name.stats" "$TMP/$name.prof" || fail "$name: the export differs from the CLI"
	names+=("$name")
done

# every file in one page: the load script loads the first, the view script the others
{
	echo "window.sondeFiles = ["
	for name in "${names[@]}"; do
		printf '{name: "%s", b64: "%s"},\n' "$name" "$(base64 -w0 "$TMP/$name.json")"
	done
	echo "];"
	echo 'speedscope.loadFileFromBase64(sondeFiles[0].name + ".json", sondeFiles[0].b64);'
} >"$TMP/load.js"
"${CDP[@]}" "file://$SS#localProfilePath=$TMP/load.js" "window.sondeFiles && document.title.indexOf(' - speedscope') > 0" \
	"$SONDE_SRC/tests/e2e/exports/speedscope_view.js" "$TMP/view.json" || fail "speedscope could not open the exports"
for name in "${names[@]}"; do
	echo -n "$name in speedscope: "
	python3 "$CHECK" "$TMP/$name.json" "$TMP/$name.stats" "$TMP/$name.prof" "$TMP/view.json" "$name" ||
		fail "$name: speedscope shows something else"
done

# idle: left out by default, kept on request, with the stats' idle time
for opt in --idle "-o idle=1" "-o speedscope.idle=1"; do
	# shellcheck disable=SC2086
	"$SONDE" decode "$TMP/demo.bin" -q -f speedscope $opt >"$TMP/idle.json" || fail "speedscope $opt"
	python3 - "$TMP/idle.json" "$TMP/demo.stats" <<'PY' || fail "the Idle profile of '$opt'"
import json, sys
doc = json.load(open(sys.argv[1]))
idle = next(r for r in map(json.loads, open(sys.argv[2])) if r["type"] == "idle")
p = next(p for p in doc["profiles"] if p["name"] == "Idle")
ev = p["events"]
total = sum(b["at"] - a["at"] for a, b in zip(ev, ev[1:]) if a["type"] == "O" and b["type"] == "C")
assert total == idle["cpu"] * 1000, (total, idle["cpu"])  # the demo's clock: 1 MHz
PY
done
echo PASS
