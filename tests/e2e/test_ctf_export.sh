#!/usr/bin/env bash
# test_ctf_export.sh -- `--format ctf`: babeltrace2 (Debian's 2.0.4) reads
# the CTF 1.8 directory without an error and prints every event with the
# fields, arguments, cores and timestamps (cycles, and seconds from the
# session's first record) of `sonde decode --format jsonl`, event for event
# (tests/e2e/exports/ctf_compare.py), on the POSIX demo (clean, with target
# drops -- reported by babeltrace2 as discarded events --, with a damaged
# frame, two inputs merged as two cores), the reference captures of QS,
# SyS-T and Tonbandgeraet and a MiniProfiler capture
# (tests/e2e/exports/inputs.sh).  Also: the directory is created, an earlier export is
# replaced, a directory holding anything else is left alone, standard
# output is refused.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup
command -v babeltrace2 >/dev/null || { echo "SKIP: babeltrace2 is not installed (scripts/deps.sh)"; exit 77; }
source "$SONDE_SRC/tests/e2e/exports/inputs.sh"
CMP=$SONDE_SRC/tests/e2e/exports/ctf_compare.py
export_inputs "$TMP"

# check NAME DECODE-ARGUMENTS...: export, read back; the times in seconds
# too (a second babeltrace2 run) for clocks of different rates: the demo's
# 1 MHz, Tonbandgeraet's 1 GHz, SyS-T's, two cores merged.  The comparisons
# are gathered in COMPARE and made by one ctf_compare.py run at the end.
COMPARE=()
check() {
	local name=$1 d=$TMP/$1.ctf sec=-; shift
	local args=("$@")
	"$SONDE" decode "${args[@]}" -q -f ctf --output "$d"
	[[ $? -le 1 ]] || fail "$name: the CTF export failed"
	"$SONDE" decode "${args[@]}" -f jsonl >"$TMP/$name.jsonl" 2>"$TMP/$name.diags"
	babeltrace2 --clock-cycles "$d" >"$TMP/$name.cyc" 2>"$TMP/$name.bterr" || { cat "$TMP/$name.bterr"; fail "$name: babeltrace2 failed"; }
	if [[ $name == demo || $name == tband-freertos || $name == syst || $name == merged ]]; then
		sec=$TMP/$name.sec
		babeltrace2 --clock-seconds "$d" >"$sec" 2>/dev/null || fail "$name: babeltrace2 failed"
	fi
	grep -v '^WARNING: Tracer discarded' "$TMP/$name.bterr" | grep . && fail "$name: babeltrace2 complained"
	local freq
	freq=$("$SONDE" stats "${args[@]}" -q --format jsonl | sed -n '1s/.*"ts_freq": *\([0-9]*\).*/\1/p')
	[[ -n $freq ]] || fail "$name: no ts_freq in the stats"
	COMPARE+=("$name" "$TMP/$name.cyc" "$sec" "$TMP/$name.jsonl" "$TMP/$name.diags" "$freq")
}

for spec in "${INPUTS[@]}"; do
	IFS='|' read -r name f proto extra <<<"$spec"
	# shellcheck disable=SC2086
	check "$name" "$f" --proto "$proto" $extra
done
check merged "$TMP/demo.bin@0" "$TMP/drops.bin@1"
[[ -f $TMP/merged.ctf/stream_0 && -f $TMP/merged.ctf/stream_1 ]] || fail "merged: not one stream per core"
python3 "$CMP" "${COMPARE[@]}" || fail "babeltrace2's events differ from jsonl"
# the target's drops are the packets' discarded events
lost=$(python3 -c 'import json, sys
d = [json.loads(l) for l in open(sys.argv[1])]
print(max(e["refused_total"] + e["overwritten_total"] for e in d if e["kind"] == "drops"))' "$TMP/drops.jsonl")
told=$(sed -n 's/^WARNING: Tracer discarded \([0-9]*\) events\?\b.*/\1/p' "$TMP/drops.bterr" | awk '{ s += $1 } END { print s + 0 }')
[[ $lost -gt 0 && $told == "$lost" ]] || fail "babeltrace2 says ${told:-no} events were discarded, the target $lost"
# damaged: the bad frame is a diagnostic event
grep -q ' diagnostic: ' "$TMP/damaged.cyc" || fail "damaged: no diagnostic event"

# the directory: an earlier export is replaced, anything else left alone
expect_rc 0 "$SONDE" decode "$TMP/drops.bin" -f ctf --output "$TMP/merged.ctf"
[[ ! -e $TMP/merged.ctf/stream_1 ]] || fail "the earlier export's stream_1 was left"
mkdir "$TMP/other"
echo keep >"$TMP/other/notes.txt"
expect_rc 3 "$SONDE" decode "$TMP/demo.bin" -f ctf --output "$TMP/other"
expect_has "$ERR" "is not empty and not an earlier CTF export of sonde"
[[ $(cat "$TMP/other/notes.txt") == keep ]] || fail "a foreign file was touched"
expect_rc 2 "$SONDE" decode "$TMP/demo.bin" -f ctf
expect_has "$ERR" "format 'ctf' cannot write to standard output"
echo PASS
