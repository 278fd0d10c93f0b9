#!/usr/bin/env bash
# test_cli_select.sh -- the time window (--from/--to) in the time base that
# Sonde prints: a `seconds` value pasted from `sonde decode` selects the
# records it names (and ticks, `ts`, pasted with a `t`); +T counts from the
# first timed record; a window that ends before it begins is a usage error
# at once; a window that holds none of the trace's timed records (beside
# it, or between two records) is an error (status 2) that says the trace's
# range.  The stream starts at 1017.148405 s, far from 0, so that
# the two time bases cannot be taken for one another.
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup

T0=1017148405 # ticks of a 1 MHz clock
{
	session 1000000
	tsync $T0 0xffffffff
	for i in 1 2 3 4 5 6 7 8; do
		tf 0x0c $(( T0 + i * 1000 )) $i # MARK i
	done
} >"$TMP/s.bin"

expect_rc 0 "$SONDE" decode "$TMP/s.bin"
timed() { awk '$2 != "-"' "$1"; }
timed "$OUT" >"$TMP/all"
[[ $(wc -l <"$TMP/all") -eq 9 ]] || { cat "$OUT"; fail "9 timed records expected"; }
# the third and sixth timed lines, as printed
s3=$(awk 'NR == 3 { print $2 }' "$TMP/all")
s6=$(awk 'NR == 6 { print $2 }' "$TMP/all")
t3=$(awk 'NR == 3 { print $1 }' "$TMP/all")
t6=$(awk 'NR == 6 { print $1 }' "$TMP/all")
[[ $s3 == 1017.150405000 ]] || fail "printed seconds: $s3"
sed -n 3,6p "$TMP/all" >"$TMP/want"

# seconds pasted from the output: exactly lines 3..6
expect_rc 0 "$SONDE" decode "$TMP/s.bin" --from "$s3" --to "$s6"
timed "$OUT" | cmp - "$TMP/want" || { cat "$OUT"; fail "--from/--to in printed seconds"; }
# ticks pasted, with t
expect_rc 0 "$SONDE" decode "$TMP/s.bin" --from "${t3}t" --to "${t6}t"
timed "$OUT" | cmp - "$TMP/want" || { cat "$OUT"; fail "--from/--to in ticks"; }
# the same in ms, and relative to the first timed record (+2ms = line 3)
expect_rc 0 "$SONDE" decode "$TMP/s.bin" --from 1017150.405ms --to +5ms
timed "$OUT" | cmp - "$TMP/want" || { cat "$OUT"; fail "--from in ms, --to +5ms"; }
expect_rc 0 "$SONDE" decode "$TMP/s.bin" --from +2000t --to=+0.005
timed "$OUT" | cmp - "$TMP/want" || { cat "$OUT"; fail "+2000t, +0.005"; }
# stats counts what was selected
expect_rc 0 "$SONDE" stats "$TMP/s.bin" --from "$s3" --to "$s6"
expect_line "$OUT" "time span              3000 ticks (0.003000000 s at 1000000 Hz)"

# the window ends before it begins: usage error, before anything is read
for w in "--from 2 --to 1" "--to 1 --from 2" "--from +5ms --to +1ms" "--from 9t --to 8t"; do
	# shellcheck disable=SC2086
	expect_rc 2 "$SONDE" decode /nonexistent $w
	expect_has "$ERR" "the window ends before it begins"
	[[ -s $OUT ]] && fail "$w: output written"
done
# outside the trace (the old reading of a pasted time, or a time from
# another capture): status 2, the trace's range said in every unit
range="the trace runs from 1017.148405000 to 1017.156405000 s (+0.000000000 to +0.008000000 s from its first record; ticks 1017148405t to 1017156405t)"
for w in "--from 2 --to 3" "--from 1018" "--to 1017.1484" "--from +9ms" "--from 0 --to 10t" "--from 1017.1565 --to +9ms"; do
	# shellcheck disable=SC2086
	for cmd in decode stats report; do
		expect_rc 2 "$SONDE" $cmd "$TMP/s.bin" $w --output "$TMP/o.$cmd"
		expect_has "$ERR" "sonde $cmd: --from/--to: no record of the trace is inside the window: $range"
	done
done
# a window between two records (1 ms apart) selects nothing either: said
# the same way
expect_rc 2 "$SONDE" decode "$TMP/s.bin" --from 1017.1504052 --to 1017.1514
expect_has "$ERR" "$range"
[[ -z $(timed "$OUT") ]] || fail "between two records: $(cat "$OUT")"
echo "PASS"
