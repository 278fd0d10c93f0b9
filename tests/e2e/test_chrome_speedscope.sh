#!/usr/bin/env bash
# sonde-test: once
# test_chrome_speedscope.sh -- the Chrome JSON export opens in speedscope
# (npm `speedscope`, pinned in tests/e2e/browser/package-lock.json) in
# headless Chromium without a JavaScript error, on the POSIX demo (clean,
# with drops, damaged), the reference captures of QS, SyS-T and
# Tonbandgeraet and a MiniProfiler capture (tests/e2e/exports/inputs.sh):
# speedscope shows one profile per thread of the export, and its frames are
# the export's slices; it opens on the busiest task, ISR or no-task thread
# (the first in (pid, tid) order, the one speedscope shows first).  (Before the E events carried their names it failed
# with "t.sort is not a function".)  One Chromium opens every file, one
# after the other (tests/e2e/exports/speedscope_view.js).
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
source "$SONDE_SRC/tests/e2e/browser/lib.sh"
browser_deps
source "$SONDE_SRC/tests/e2e/exports/inputs.sh"
SS=$BROWSER_DEPS/node_modules/speedscope/dist/release/index.html
[[ -f $SS ]] || fail "speedscope is not installed"
export_inputs "$TMP"

names=()
for spec in "${INPUTS[@]}"; do
	IFS='|' read -r name f proto extra <<<"$spec"
	# shellcheck disable=SC2086
	"$SONDE" decode "$f" --proto "$proto" -q -f chrome $extra --output "$TMP/$name.json"
	[[ $? -le 1 ]] || fail "chrome export of $name: status $?"
	names+=("$name")
done
# speedscope names the document after the file; the view script waits for that title
{
	echo "window.sondeFiles = ["
	for name in "${names[@]}"; do
		printf '{name: "%s", b64: "%s"},\n' "$name" "$(base64 -w0 "$TMP/$name.json")"
	done
	echo "];"
	echo 'speedscope.loadFileFromBase64(sondeFiles[0].name + ".json", sondeFiles[0].b64);'
} >"$TMP/load.js"
sed 's/file.name + " - speedscope"/file.name + ".json - speedscope"/' "$SONDE_SRC/tests/e2e/exports/speedscope_view.js" >"$TMP/view.js"
"${CDP[@]}" "file://$SS#localProfilePath=$TMP/load.js" "window.sondeFiles && document.title.indexOf(' - speedscope') > 0" \
	"$TMP/view.js" "$TMP/view.json" || fail "speedscope could not open the Chrome JSON exports"
python3 - "$TMP/view.json" "$TMP" "${names[@]}" <<'PY' || fail "speedscope's view of the Chrome JSON"
import json, re, sys
raw = json.load(open(sys.argv[1]))
view = {v["file"]: v["profiles"] for v in raw}
opened = {v["file"]: v["opened"] for v in raw}
for name in sys.argv[3:]:
    ev = json.load(open(f"{sys.argv[2]}/{name}.json"))["traceEvents"]
    threads = {(e["pid"], e["tid"]) for e in ev if e["ph"] in ("B", "E")}
    # speedscope names a frame by the slice's name and, if it has any, its args
    slices = {e["name"] + (" " + json.dumps(e["args"], separators=(",", ":"), ensure_ascii=False) if e.get("args") else "")
              for e in ev if e["ph"] == "B"}
    got = view[name]
    # a file without slices still opens (speedscope shows one empty profile)
    assert len(got) == max(len(threads), 1) and got[0]["count"] == len(got), (name, len(got), len(threads))
    shown = {r[2] for p in got for r in p["rows"]}
    # the Sandwich table draws the rows in view: a long one is not all in the page
    assert shown == slices if len(slices) <= 40 else shown < slices, (name, sorted(shown ^ slices)[:10])
    # the thread speedscope opens on is the busiest of those that take CPU
    # time (task and ISR slices; not the state strips, markers or idle)
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    busy, depth, since, cats = {}, {}, {}, {}
    for e in ev:
        k = (e.get("pid"), e.get("tid"))
        if e["ph"] == "B":
            cats.setdefault(k, set()).add(e.get("cat"))
            if not depth.get(k):
                since[k] = e["ts"]
            depth[k] = depth.get(k, 0) + 1
        elif e["ph"] == "E" and depth.get(k):
            depth[k] -= 1
            if not depth[k]:
                busy[k] = busy.get(k, 0) + e["ts"] - since[k]
    cpu = [k for k in threads if cats.get(k, set()) & {"sched", "isr"} and not re.fullmatch(r"Idle( \(core \d+\))?", names.get(k, ""))]
    if threads and cpu:
        first = min(threads)
        assert opened[name] == got[0]["name"], (name, "opened on", opened[name], "not the first", got[0]["name"])
        assert all(busy.get(first, 0) >= busy.get(k, 0) for k in cpu), \
            (name, "first", names.get(first), busy.get(first), "busiest", max((busy.get(k, 0), names.get(k)) for k in cpu))
    print(f"{name}: opens on {opened[name]!r}; speedscope shows {len(got)} profiles, {len(shown)} frames")
PY
echo PASS
