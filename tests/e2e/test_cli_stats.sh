#!/usr/bin/env bash
# test_cli_stats.sh -- `sonde stats` on a generated stream whose figures are
# known, in protocol versions 3, 2 and 1: records per type, checksum errors,
# a sequence gap split by a DROPS into target and link losses (version 3;
# earlier versions cannot tell the rest from frames overwritten after the
# report: unexplained), resyncs and
# bytes discarded, time span and rates over the trace's own time; and the
# target's counters reset (`sonde send stop`, `start`, `reset`: issue 7).
set -u
source "$(dirname "$0")/test_cli_lib.sh"
setup

# DROPS with these totals (version 2: and reset count; version 3: and no
# record stopped, its frame number -- SEQ, these streams being shorter than
# 256 frames -- and every frame before its TIME_SYNC out of the ring) at T:
# TIME_SYNC, DROPS
drops() {
	tsync "$1" "$2"
	if (( VER == 1 )); then
		tf 3 "$1" $(le32 "$3") $(le32 "$4")
	elif (( VER == 2 )); then
		tf 3 "$1" $(le32 "$3") $(le32 "$4") "${5:-0}"
	else
		tf 3 "$1" $(le32 "$3") $(le32 "$4") "${5:-0}" $(le32 0) $(le32 "$SEQ") $(le32 $(( SEQ - 1 )))
	fi
}

for VER in 1 2 3; do
	F=$TMP/s$VER.bin
	{
		session 1000
		sf 4 8 $(le32 1) $(strz tick)                      # DICT MARKER 1
		tsync 1000 0xffffffff                              # TIME_SYNC
		for i in 0 1 2 3 4 5 6 7 8 9; do tf 0x0c $(( 1000 + i * 100 )) 1; done
		skip_seq 5                                         # 5 frames lost ...
		tf 0x0c 2000 1
		drops 2100 100 3 2                                 # ... 3 overwritten: 2 lost on the link (v3)
		tf 0x0c 2200 1
		printf '\001\002\003\176'                          # line noise: a bad 4-byte frame
		tf 0x0c 2300 1
		tsync 2400 100
		tf 0x0c 2400 1
	} >"$F"
	bytes=$(stat -c %s "$F")

	expect_rc 1 "$SONDE" stats "$F"
	expect_line "$OUT" "input                  $F"
	expect_line "$OUT" "protocol               sonde v$VER"
	expect_line "$OUT" "bytes                  $bytes"
	expect_line "$OUT" "frames                 22"
	expect_line "$OUT" "records                21"
	expect_line "$OUT" "  EMPTY                1          (id 0x00)"
	expect_line "$OUT" "  TARGET_INFO          1          (id 0x01)"
	expect_line "$OUT" "  TIME_SYNC            3          (id 0x02)"
	expect_line "$OUT" "  DROPS                1          (id 0x03)"
	expect_line "$OUT" "  DICT                 1          (id 0x04)"
	expect_line "$OUT" "  MARK                 14         (id 0x0C)"
	expect_line "$OUT" "checksum errors        1"
	expect_line "$OUT" "sequence gaps          1 (5 frames lost)"
	expect_line "$OUT" "target drops           3 overwritten, 2 refused"
	expect_line "$OUT" "link-lost frames       $(( VER == 3 ? 2 : 0 ))"
	expect_line "$OUT" "unexplained lost       $(( VER == 3 ? 0 : 2 ))"
	expect_line "$OUT" "resyncs                1 (4 bytes discarded)"
	expect_line "$OUT" "diagnostics            2"
	expect_line "$OUT" "  bad-checksum         1"
	expect_line "$OUT" "  seq-gap              1"
	expect_line "$OUT" "estimated times        0"
	expect_line "$OUT" "time span              1400 ticks (1.400000000 s at 1000 Hz)"
	tenths=$(( bytes * 10000 / 1400 ))
	expect_line "$OUT" "rates                  15.0 records/s, $(( tenths / 10 )).$(( tenths % 10 )) bytes/s"
	[[ $(grep -c . "$ERR") == 2 ]] || fail "2 diagnostics on stderr expected"
done

# the same figures from stdin and into a file
expect_rc 1 "$SONDE" stats -q - <"$F"
expect_line "$OUT" "frames                 22"
expect_line "$OUT" "input                  <stdin>"
[[ -s $ERR ]] && fail "-q: stderr not empty"
expect_rc 1 "$SONDE" stats -q "$F" --output "$TMP/st.txt"
expect_line "$TMP/st.txt" "link-lost frames       2"

# issue 7: 21265 records refused while stopped, the report after START,
# RESET_CTRS (its reply, then the report of the zeroed totals), then 3
# overwritten.  The totals going back to 0 are no 2^32 wrap: the decoder
# used to say "0 overwritten, 4294967296 refused".
for VER in 3 2 1; do
	{
		session 1000
		tsync 1000 0xffffffff
		tf 0x0c 1001 1
		drops 1100 99 0 21265 0                        # after START
		tf 0x20 1101 0x42 8 0                          # CMD_STATUS: RESET_CTRS OK
		drops 1101 0 0 0 1                             # the new totals (v2: reset count 1)
		skip_seq 3
		tf 0x0c 1200 1
		drops 1201 1 3 0 1
	} >"$TMP/reset$VER.bin"
	expect_rc 1 "$SONDE" stats "$TMP/reset$VER.bin"
	expect_line "$OUT" "target drops           3 overwritten, 21265 refused"
	expect_line "$OUT" "link-lost frames       0"
	expect_rc 1 "$SONDE" decode "$TMP/reset$VER.bin"
	expect_line "$OUT" "        1101     1.101000000 DROPS refused_total=0 overwritten_total=0 overwritten=0 refused=0 link_lost=0 counters_reset=true"
done

# no tick frequency: span in ticks only
VER=2
{ tsync 10 0xffffffff; tf 0x0c 20 1; tf 0x0c 30 1; } >"$TMP/nofreq.bin"
expect_rc 0 "$SONDE" stats --proto sonde "$TMP/nofreq.bin"
expect_line "$OUT" "time span              20 ticks (tick frequency unknown)"
expect_line "$OUT" "rates                  n/a (tick frequency unknown)"
expect_rc 0 "$SONDE" stats --proto sonde -o ts_freq=10 "$TMP/nofreq.bin"
expect_line "$OUT" "time span              20 ticks (2.000000000 s at 10 Hz)"
expect_line "$OUT" "rates                  1.5 records/s, $(( $(stat -c %s "$TMP/nofreq.bin") / 2 )).$(( $(stat -c %s "$TMP/nofreq.bin") * 5 % 10 )) bytes/s"
echo ok
