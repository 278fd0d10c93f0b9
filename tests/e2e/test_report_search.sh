#!/usr/bin/env bash
# sonde-test: once
# test_report_search.sh -- the report page's search (45_search.js over
# report_search.c, docs/report.md) in headless Chromium: for --filter
# queries, globs and plain words, the page's count of matches equals the
# records `sonde decode --filter ... -f jsonl` finds (JSONL has no
# diagnostics: they go to stderr, so every line is a record), the first 200
# listed are the first of that decode in time order, the count in the
# timeline's window equals the decode's in that window, and clicking a
# result zooms there and selects its detail item.  On the Cortex-M3 demo
# trace (examples/qemu-mps2 in QEMU, as `make demo`; skipped without the
# cross compiler and QEMU) and on a posix-demo trace thinned to the
# smallest detail budget, where the page keeps a fraction of the items but
# still finds every record.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
source "$SONDE_SRC/tests/e2e/browser/lib.sh"
ART=$SONDE_BUILD/test-artifacts
mkdir -p "$ART"

# check NAME TRACE QUERIES [REPORT-OPTIONS...]: the page of TRACE against
# decode.  QUERIES: lines "the page's query|decode's --filter options", or
# "query|word W" for a plain word W, checked against the union of three
# decodes (kind=, name=, obj= *W* in either case); "|lower" after either:
# records past the search's key cap may match, so the page's count is a
# lower bound, and with the records it says it did not search an upper
# one ("|lower-all": all of those match, so that is decode's count).
check() {
	local name=$1 trace=$2 queries=$3 q
	shift 3
	local dir=$TMP/$name
	mkdir -p "$dir"
	expect_rc 0 "$SONDE" report "$trace" -o "$dir/r.html" "$@"
	local i=0
	: >"$dir/queries"
	while IFS='|' read -r q opts lower; do
		[[ -n $q ]] || continue
		if [[ $opts == word* ]]; then
			local w=${opts#word } g=""
			for (( k = 0; k < ${#w}; k++ )); do
				local c=${w:k:1}
				g+="[${c,,}${c^^}]"
			done
			for f in kind name obj; do
				# shellcheck disable=SC2086
				"$SONDE" decode "$trace" -f jsonl --filter "$f=*$g*" >"$dir/q$i.$f.jsonl" 2>/dev/null ||
					fail "$name: decode --filter $f=*$g*"
			done
			cat "$dir/q$i".{kind,name,obj}.jsonl >"$dir/q$i.jsonl"
			echo "$q|union|$lower" >>"$dir/queries"
		else
			# shellcheck disable=SC2086
			eval "\"\$SONDE\" decode \"\$trace\" -f jsonl $opts" >"$dir/q$i.jsonl" 2>/dev/null ||
				fail "$name: decode $opts"
			echo "$q||$lower" >>"$dir/queries"
		fi
		i=$((i + 1))
	done <<<"$queries"
	python3 - "$dir" <<'PY' || fail "$name: could not prepare the page check"
import json, re, sys
d = sys.argv[1]
page = open(f"{d}/r.html").read()
D = json.loads(re.search(r'<script type="application/json" id="sonde-data">(.*?)</script>', page, re.S).group(1))
qs = [l.rstrip("\n").split("|")[0] for l in open(f"{d}/queries")]
# a window in the middle of the trace, on the search's bin boundaries
S = D["search"]
n = max(S["n"], 4)
win = [S["bin"] * (n // 4), S["bin"] * (n // 2)]
js = open(f"{d}/../check_tpl.js").read().replace("QUERIES", json.dumps(qs)).replace("WINDOW", json.dumps(win))
open(f"{d}/check.js", "w").write(js)
PY
	"${CDP[@]}" "file://$dir/r.html" "window.sonde && sonde.ready" "$dir/check.js" "$dir/page.json" "$ART/search-$name.png" ||
		fail "$name: the report did not load cleanly in chromium"
	python3 - "$dir" <<'PY' || fail "$name: the page's search differs from sonde decode --filter"
import json, sys
d = sys.argv[1]
page = json.load(open(f"{d}/page.json"))
freq, origin = page["freq"], page["origin"]
def ns_of(lines):
    """ns from the origin of each record, as the timeline counts (trackmap.c):
    a record without a time has the latest timed record's"""
    out, last = [], 0
    for l in lines:
        e = json.loads(l)
        if e["ts"] is not None:
            t = max(e["ts"] - origin, 0)
            last = t if freq in (0, 10**9) else t // freq * 10**9 + t % freq * 10**9 // freq
        out.append((last, e["kind"], e["offset"], e["frame"]))
    return out
queries = [l.rstrip("\n").split("|") for l in open(f"{d}/queries")]
fails = []
v0, v1 = page["view"]
for i, (q, how, lower) in enumerate(queries):
    recs = ns_of(open(f"{d}/q{i}.jsonl"))
    if how == "union":  # a record found by two of the decodes counts once
        recs = list(dict.fromkeys(recs))
    recs.sort(key=lambda r: r[0])
    p = page["q"][i]
    if p["error"]:
        fails.append(f"{q!r}: {p['error']}")
        continue
    if lower:
        hi = p["count"] + p["unsearched"]
        if not p["lower"] or not (p["count"] <= len(recs) <= hi) or (lower == "lower-all" and len(recs) != hi) or \
                p["head"] != str(p["count"]) or not p["text"].startswith(f"at least {p['count']} matches ({p['unsearched']} "):
            fails.append(f"{q!r}: page {p['count']} + {p['unsearched']} unsearched ({p['text']!r}), decode {len(recs)}")
        continue
    if p["count"] != len(recs) or p["head"] != str(len(recs)) or p["lower"]:
        fails.append(f"{q!r}: page {p['count']} (shown {p['head']}, lower bound {p['lower']}), decode {len(recs)}")
    want = [r[0] for r in recs[:200]]
    got = [f[0] for f in p["first"]]
    if got != want or p["shown"] != len(want):
        fails.append(f"{q!r}: first times differ: page {got[:5]}... ({p['shown']} shown), decode {want[:5]}...")
    elif want:
        # the kinds, up to the last time (ties at it may be cut either way)
        cut = want[-1]
        a = sorted((f[0], f[1]) for f in p["first"] if f[0] < cut)
        b = sorted((r[0], r[1]) for r in recs if r[0] < cut)
        if a != b:
            fails.append(f"{q!r}: first records differ in kind")
    inwin = sum(1 for r in recs if v0 <= r[0] < v1)
    if p["whole"] != {"n": len(recs), "approx": False}:
        fails.append(f"{q!r}: in the whole trace: page {p['whole']}, decode {len(recs)}")
    if p["win"] != inwin or p["approx"]:
        fails.append(f"{q!r}: in the window {v0}..{v1}: page {p['win']} (approx {p['approx']}), decode {inwin}")
if not any(p["count"] > 200 for p in page["q"]) or not all(p["count"] for p in page["q"]) or \
        any(p["lower"] for p in page["q"]) != any(q[2] for q in queries):
    fails.append("the queries should find more than 200 records once, and something each: " +
                 str([p["count"] for p in page["q"]]))
c = page["click"]
# zoomed to the record; its slice selected unless it was thinned out
if not (c["view"][0] <= c["t"] <= c["view"][1]) or (c["k"] < 0 and not page["detail_dropped"]) or \
        (c["k"] >= 0 and not (c["t0"] == c["t"] and c["selected"] == c["k"])):
    fails.append(f"clicking a result: {c}")
if page["detail_dropped"] and page["items"] >= page["records"]:
    fails.append("the thinned page is not thinned")
if page["errors"]:
    fails.append(f"script errors: {page['errors']}")
if fails:
    sys.exit("\n".join(fails))
print(f"page = decode: {[p['count'] for p in page['q']]} matches; in {v0}..{v1} ns "
      f"{[p['win'] for p in page['q']]}; {page['items']} items kept of {page['records']} records; "
      f"click: item {c['k']}")
PY
}

cat >"$TMP/check_tpl.js" <<'JS'
(function () {
  var res = { q: [], freq: sonde.D.ts_freq, origin: sonde.D.origin, items: sonde.D.items.length,
    records: sonde.D.stats.records, detail_dropped: sonde.D.detail.dropped || 0 };
  var w = WINDOW;
  sonde.TL.zoom(w[0], w[1]);
  res.view = sonde.TL.view();
  var box = document.getElementById("search");
  QUERIES.forEach(function (q) {
    box.value = q;
    sonde.Search.draw();
    var head = document.getElementById("search-head"), rows = document.querySelectorAll("#search-list div[data-t]");
    var r = sonde.Search.query(q), win = sonde.Search.inWindow(r, res.view[0], res.view[1]);
    res.q.push({ error: r.error, count: r.count, lower: r.lower, unsearched: r.unsearched, head: head.dataset.count,
      text: head.textContent, shown: rows.length,
      first: r.first.map(function (f) { return [f[0], sonde.Search.keyKind(f[1])]; }),
      win: +document.getElementById("search-win").dataset.n, approx: win.approx,
      whole: sonde.Search.inWindow(r, 0, sonde.D.search.end + 1) });
  });
  /* click the first ISR entry found: zoomed there, its slice selected */
  box.value = "kind=isr_enter";
  sonde.Search.draw();
  var first = document.querySelector("#search-list div[data-t]");
  first.click();
  var k = sonde.selected === undefined ? -1 : sonde.selected;
  res.click = { t: +first.dataset.t, k: k, t0: k >= 0 ? sonde.D.items[k][2] : null, view: sonde.TL.view(), selected: sonde.selected };
  res.errors = sonde.errors;
  return res;
})()
JS

if command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null; then
	# the Cortex-M3 demo trace, built and run as `make demo` does
	make -s -C "$SONDE_SRC/examples/qemu-mps2" BUILD="$TMP/fw" RUN_MS=3000 "$TMP/fw/fw.elf" >"$TMP/fw.log" 2>&1 ||
		{ cat "$TMP/fw.log"; fail "building the Cortex-M3 demo firmware"; }
	timeout -k 5 300 qemu-system-arm -M mps2-an385 -nographic -monitor none -semihosting-config enable=on,target=native \
		-icount shift=0,sleep=off -serial "file:$TMP/demo.bin" -kernel "$TMP/fw/fw.elf" </dev/null >"$TMP/qemu.log" 2>&1 ||
		{ cat "$TMP/qemu.log"; fail "running the demo firmware in QEMU"; }
	check demo "$TMP/demo.bin" "kind=isr_*|--filter 'kind=isr_*'
kind=isr_enter !obj=TIMER*|--filter kind=isr_enter --filter '!obj=TIMER*'
name=sensor*,ctrl|--filter 'name=sensor*,ctrl'
kind=task_in obj=sens?r,c[a-t]rl|--filter kind=task_in --filter 'obj=sens?r,c[a-t]rl'
kind=func_* obj=[!0-9]*|--filter 'kind=func_*' --filter 'obj=[!0-9]*'
obj=0x*|--filter 'obj=0x*'
kind=log|--filter kind=log
kind=counter|--filter kind=counter
!kind=task_*,func_*,isr_*|--filter '!kind=task_*,func_*,isr_*'
Sensor|word sensor"
else
	echo "note: no arm-none-eabi-gcc or qemu-system-arm: the Cortex-M3 demo trace is left out"
fi

# a trace thinned to the smallest detail budget
"$SONDE_BUILD/examples/posix-demo/posix-demo" -n 1000 -o "$TMP/long.bin" 2>/dev/null || fail "posix-demo"
check thinned "$TMP/long.bin" "kind=isr_*|--filter 'kind=isr_*'
kind=task_* !obj=sensor|--filter 'kind=task_*' --filter '!obj=sensor'
kind=task_in obj=sens?r,c[a-o]ntrol|--filter kind=task_in --filter 'obj=sens?r,c[a-o]ntrol'
name=SAMPLE,SETPOINT|--filter 'name=SAMPLE,SETPOINT'
kind=log name=*late*|--filter kind=log --filter 'name=*late*'
kind=counter obj=queue*|--filter kind=counter --filter 'obj=queue*'
!kind=task_*,func_*,isr_*|--filter '!kind=task_*,func_*,isr_*'
sample|word sample
name=[[:upper:]]*_E?TER|--filter 'name=[[:upper:]]*_E?TER'
kind=isr_enter,,task_in|--filter 'kind=isr_enter,,task_in'
obj=TIMER[0-9]_\IRQ,[]s]ensor|--filter 'obj=TIMER[0-9]_\IRQ,[]s]ensor'" -o report.max_items=1000
# past the key cap (20,000 distinct records): 25,000 functions entered by
# address once each, between ISR activations of one ISR; a query that can
# match the function records past the cap is a lower bound and says so,
# one that cannot is exact
python3 - "$TMP/capped.bin" <<'PY' || fail "writing the capped trace"
import struct, sys
out, seq = bytearray(), 0
def sf(*b):  # one frame: seq, id, fields, checksum; escaped; 0x7E after it
    global seq
    body = [seq, *b]
    for x in body + [~sum(body) & 255]:
        out.extend((0x7D, x ^ 0x20) if x in (0x7E, 0x7D) else (x,))
    out.append(0x7E)
    seq = (seq + 1) & 255
le32 = lambda v: list(struct.pack("<I", v))
sf(0)                                                                        # EMPTY
sf(1, 2, 2, 4, 0, 0, 0, *le32(1000000), *le32(4096), *le32(0x12345678))  # TARGET_INFO v2, 1 MHz
sf(2, *struct.pack("<Q", 1000), *le32(0))                                    # TIME_SYNC
for i in range(25000):  # the last field of a timed record: ticks since the one before
    sf(0x05, 1, 3)                               # ISR_ENTER 1
    sf(0x06, 2)                                  # ISR_EXIT
    sf(0x11, *le32(0x08000000 + 4 * i), 10)      # FUNC_ENTER_A
    sf(0x12, 5)                                  # FUNC_EXIT
open(sys.argv[1], "wb").write(out)
PY
check capped "$TMP/capped.bin" "kind=isr_*|--filter 'kind=isr_*'
!kind=func_*|--filter '!kind=func_*'
kind=func_enter|--filter kind=func_enter|lower-all
obj=0x80000??|--filter 'obj=0x80000??'|lower"
echo PASS
