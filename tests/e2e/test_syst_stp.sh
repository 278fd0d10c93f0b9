#!/usr/bin/env bash
# test_syst_stp.sh -- SyS-T over MIPI STPv2 and `--proto stp` through the
# `sonde` command line, on the reference sample testdata/syst/stp/pub_64.stp
# (84 messages of the MIPI library's STP platform, with their hex form and
# the reference printer's CSV).
#   - the STP stream gives the printer's rows except where the printer is
#     wrong (named by bug, syst_lib.sh), exactly the rows of the hex form;
#     the same with protocol and container detected, from stdin in small
#     pieces, and through `sonde live`;
#   - master and channel are each message's source: JSON lines (core and
#     arguments, STP time in seconds from FREQ) and Chrome JSON (a process
#     per master/channel);
#   - `--proto stp` lists the channel writes (packet totals of the sample's
#     README);
#   - damage: junk in front, a cut stream: diagnostics with byte and nibble
#     offsets, exit status 1, every whole message decoded.
set -euo pipefail
: "${SONDE:?}" "${SONDE_TESTDATA:?}"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
. "$(dirname "$0")/syst_lib.sh"
cd "$SONDE_TESTDATA/syst/stp" # the Collateral column shows the path as given, like systprint
fail() { echo "FAIL: $*" >&2; exit 1; }
C=(-o syst.collateral=../collateral.xml -o 'syst.guid={494E5443-8A9C-4014-A65A-2F36A36D96E4}')
O=(--proto syst --format syst-csv "${C[@]}")

# ---- the sample against the printer and the hex form ----------------------
want="75 P1=2 P2=2 P3=2 P5=0 P7=1 P9=0 P13=3"
for f in pub_64.stp:stp pub_64.hex.txt:hex; do
	"$SONDE" decode "${f%%:*}" "${O[@]}" -o syst.container="${f#*:}" >"$W/${f#*:}.csv" 2>"$W/err" \
		|| fail "$f: exit status $?: $(head -3 "$W/err")"
	[ -s "$W/err" ] && fail "$f: diagnostics: $(head -3 "$W/err")"
	got=$(classify "$W/${f#*:}.csv" pub_64.printer.csv) || fail "$f: rows differ from the printer's"
	[ "$got" = "$want" ] || fail "$f: got '$got', want '$want'"
	echo "ok: $f vs pub_64.printer.csv: $got"
done
cmp "$W/stp.csv" "$W/hex.csv" || fail "the STP stream and the hex form give different rows"
echo "ok: pub_64.stp gives the rows of pub_64.hex.txt"

# detected (protocol, container, nibble order), fed through a pipe 5 bytes at a time
python3 -c 'import os, sys
d = open(sys.argv[1], "rb").read()
for i in range(0, len(d), 5): os.write(1, d[i:i + 5])' pub_64.stp |
	"$SONDE" decode - --format syst-csv "${C[@]}" >"$W/auto.csv" 2>"$W/err" || fail "auto: exit status $?: $(head -3 "$W/err")"
cmp "$W/auto.csv" "$W/stp.csv" || fail "auto, through a pipe: rows differ"
"$SONDE" live - --format syst-csv "${C[@]}" -q <pub_64.stp >"$W/live.csv" 2>"$W/err" \
	|| fail "live: exit status $?: $(head -3 "$W/err")"
cmp "$W/live.csv" "$W/stp.csv" || fail "sonde live: rows differ"
echo "ok: detected from a pipe in 5-byte pieces, and through sonde live: the same rows"

# ---- master/channel and STP time in the generic formats --------------------
"$SONDE" decode pub_64.stp --format jsonl "${C[@]}" >"$W/ev.jsonl" 2>"$W/err" || fail "jsonl: exit status $?"
python3 - "$W/ev.jsonl" pub_64.messages.txt <<'PY' || fail "jsonl: sources or times"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
want = [l.split() for l in open(sys.argv[2]) if l[0] != "#"]
assert len(ev) == len(want) == 84, (len(ev), len(want))
for e, w in zip(ev, want):
    args = {a.get("name"): a.get("value") for a in e.get("args", [])}
    m, ch, ts = int(w[1]), int(w[2]), int(w[4])
    assert (args["stp_master"], args["stp_channel"]) == (m, ch), (e, w)
    assert e["core"] == m << 16 | ch, e
    assert e["ts"] == ts and abs(e["seconds"] - ts / 60e6) < 1e-9, e
print("ok: 84 events with the master, channel and STP time of pub_64.messages.txt")
PY
"$SONDE" decode pub_64.stp --format chrome "${C[@]}" >"$W/trace.json" 2>"$W/err" || fail "chrome: exit status $?"
python3 - "$W/trace.json" <<'PY' || fail "chrome: one process per master/channel"
import collections, json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
per = collections.Counter(e["pid"] for e in ev if e.get("ph") in ("i", "B", "E"))
assert sorted(per.values()) == [5, 7, 16, 23, 33], per   # 129:2 129:1 128:3 128:2 128:1
# each process named by its source, not by master << 16 | channel as a core number
names = {e["pid"]: e["args"]["name"] for e in ev if e.get("ph") == "M" and e.get("name") == "process_name"}
got = sorted(names[p] for p in per)
want = sorted("STP master %d, channel %d" % mc for mc in [(128, 1), (128, 2), (128, 3), (129, 1), (129, 2)])
assert got == want, got
print("ok: chrome: a process per master/channel, with", sorted(per.values()), "messages, named", got[0], "...")
PY

# ---- --proto stp: the channel writes ---------------------------------------
"$SONDE" decode pub_64.stp --proto stp --format csv >"$W/stp_raw.csv" 2>"$W/err" || fail "--proto stp: exit status $?"
[ -s "$W/err" ] && fail "--proto stp: diagnostics: $(head -3 "$W/err")"
counts=$(awk -F, 'NR > 1 { n[$10]++ } END { for (k in n) printf "%s=%d ", k, n[k]; print "" }' "$W/stp_raw.csv" |
	tr ' ' '\n' | sort | tr '\n' ' ')
[ "$counts" = " D16=60 D32=87 D32MTS=9 D32TS=72 D64=272 D64MTS=3 D8=30 FLAG=72 " ] \
	|| fail "--proto stp: records per packet: '$counts'"
first=$(sed -n 2p "$W/stp_raw.csv")
[[ $first == 25,0,0,60000,0.001000000,0,8388609,record,0,D32TS,*"master=128 channel=1 size=32 value=0x2801e00 marked=false ts=60000"* ]] \
	|| fail "--proto stp: first record: $first"
echo "ok: --proto stp: $counts"

# ---- damage ------------------------------------------------------------------
# junk in front of the stream: reported with byte and nibble offset, nothing lost
{ printf 'junk!'; cat pub_64.stp; } >"$W/junk.stp"
rc=0
"$SONDE" decode "$W/junk.stp" "${O[@]}" -o syst.container=stp >"$W/junk.csv" 2>"$W/err" || rc=$?
[ "$rc" = 1 ] || fail "junk: exit status $rc, expected 1"
grep -q "offset 0, frame 0: garbage: STP: 11 nibbles dropped while looking for an ASYNC, from nibble 0 (byte 0, low half)" "$W/err" \
	|| fail "junk: diagnostic: $(cat "$W/err")"
[ "$(wc -l <"$W/err")" = 1 ] || fail "junk: more than one diagnostic: $(cat "$W/err")"
cmp "$W/junk.csv" "$W/stp.csv" || fail "junk: rows differ"
echo "ok: junk in front: one diagnostic, every row"

# cut in the middle of message 40's packets (it starts at nibble 5191)
head -c 2620 pub_64.stp >"$W/cut.stp"
rc=0
"$SONDE" decode "$W/cut.stp" "${O[@]}" -o syst.container=stp >"$W/cut.csv" 2>"$W/err" || rc=$?
[ "$rc" = 1 ] || fail "cut: exit status $rc, expected 1"
grep -q "truncated: STP: input ends inside D64 packet" "$W/err" || fail "cut: no packet cut: $(cat "$W/err")"
grep -q "truncated: master 128 channel 3: message not ended by FLAG or a marked packet after [0-9]* bytes; the input ended (STP: nibble 5191 (byte 2595, high half))" "$W/err" \
	|| fail "cut: no message cut: $(cat "$W/err")"
head -41 "$W/stp.csv" | cmp - <(head -41 "$W/cut.csv") || fail "cut: the 40 whole messages differ"
echo "ok: cut mid-packet: $(wc -l <"$W/err") diagnostics, the 40 whole messages as intact"
