#!/usr/bin/env bash
# test_chrome_speedscope.sh -- the Chrome JSON export opens in speedscope
# (npm `speedscope`, pinned in tests/e2e/browser/package-lock.json) in
# headless Chromium without a JavaScript error, on the POSIX demo and on a
# reference capture of each foreign protocol; speedscope shows one profile
# per thread of the export.  (Before the E events carried their names it
# failed with "t.sort is not a function".)
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
source "$SONDE_SRC/tests/e2e/browser/lib.sh"
browser_deps
SS=$BROWSER_DEPS/node_modules/speedscope/dist/release/index.html
[[ -f $SS ]] || fail "speedscope is not installed"
"$SONDE_BUILD/examples/posix-demo/posix-demo" -t 100 -o "$TMP/demo.bin" 2>/dev/null || fail "posix-demo"
T=$SONDE_TESTDATA
inputs=("$TMP/demo.bin|sonde|")
[[ -d $T ]] && inputs+=("$T/qs/dpp_posix-qv_x86.bin|qs|" "$T/syst/mix_64.bin|syst|-o syst.collateral=$T/syst/collateral.xml")
n=0
for spec in "${inputs[@]}"; do
	IFS='|' read -r f proto extra <<<"$spec"
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$SONDE" decode "$f" --proto "$proto" -q -f chrome $extra --output "$TMP/t$n.json"
	rc=$?
	[[ $rc -le 1 ]] || fail "chrome export of $f: status $rc"
	printf 'speedscope.loadFileFromBase64("t%d.json", "%s")' "$n" "$(base64 -w0 "$TMP/t$n.json")" >"$TMP/load$n.js"
	echo '({title: document.title, text: document.body.innerText})' >"$TMP/check.js"
	"${CDP[@]}" "file://$SS#localProfilePath=$TMP/load$n.js" "document.title.indexOf('t$n.json') >= 0" \
		"$TMP/check.js" "$TMP/out$n.json" || fail "speedscope could not open the Chrome JSON of $f"
	threads=$(python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
print(len({(e["pid"], e["tid"]) for e in ev if e["ph"] in ("B", "E")}))' "$TMP/t$n.json")
	python3 - "$TMP/out$n.json" "$threads" <<'PY' || fail "speedscope's view of $f"
import json, re, sys
page = json.load(open(sys.argv[1]))
m = re.search(r"\((\d+)/(\d+)\)", page["text"])  # "(1/9)": the profile shown, of how many
got = int(m.group(2)) if m else 1 if "(pid " in page["text"] else 0
assert got == int(sys.argv[2]), (page["text"][:300], sys.argv[2])
print(f"speedscope: {got} profiles")
PY
done
echo PASS
